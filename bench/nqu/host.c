/*
 * nqu/host.c -- host driver of the nqu benchmark (N-queens, the DWR
 * paper's NQU): counts the solutions of the n-queens problem.
 *
 * The host enumerates every legal placement of the first k rows (in
 * lexicographic order of the lowest free column first) and hands one to
 * each GPU thread as (columns, left diagonals, right diagonals) bitmasks;
 * the kernel counts each prefix's completions over the remaining n - k
 * rows and reduces them per CTA.  The per-CTA counts array is pre-filled
 * with 0xffffffff.  At paper size the grid is fixed, as GPGPU-Sim's NQU
 * launches it: its default run (8-queens, steps = 24,576 threads) places
 * 2 rows on the host and launches 24,576 / 96 = 256 CTAs whatever the
 * number of prefixes (Table 1's grid of 256), so the threads past the
 * prefixes only join the reduction.  There the host also uses the
 * original's mirror symmetry: the first queen only in the left half of its
 * row (columns 0 .. n/2 - 1, n even), every solution counted twice -- 21
 * prefixes for 8-queens, one working warp, as the original's.  The tiny
 * and small inputs (ours, for the tests) enumerate the whole first row.
 *
 * Verification: each CTA's count must equal the CPU's recursive count of
 * the completions of that CTA's prefixes (0 for a CTA without any), and the
 * total must equal the known number of solutions (92 for n = 8, 724 for 10).
 */
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"

extern const char ws_bench_ptx_nqu[];

#define NQU_THREADS 96 /* as kernel.cu */
#define NQU_MAXDEPTH 10 /* NQU_LEVELS in kernel.cu */

static const struct {
	int n, k;               /* board size, rows placed by the host */
	unsigned long expected; /* known solution count */
	int ctas;               /* grid: 0 = one CTA per 96 prefixes; else this many (the rest idle) */
	int mirror;             /* 1: first queen in columns 0 .. n/2 - 1 only, solutions counted twice (n even) */
} nqu_sizes[WS_SIZE_COUNT] = {
    {8, 3, 92, 0, 0},     /* 140 prefixes: 2 CTAs, depth 5 */
    {10, 4, 724, 0, 0},   /* 1400 prefixes: 15 CTAs, depth 6 */
    {8, 2, 92, 256, 1},   /* the original's default run: 21 prefixes in a grid of 256 CTAs of 96 (Table 1), depth 6 */
};

struct nqu_jobs {
	unsigned *col, *ld, *rd;
	int count, cap;
};

/* first: the columns the first row may use (the left half under mirror symmetry) */
static int nqu_prefixes(struct nqu_jobs *j, int n, int k, int row, unsigned c, unsigned l, unsigned r, unsigned first)
{
	if (row == k) {
		if (j->count == j->cap) {
			int cap = j->cap ? 2 * j->cap : 1024;
			unsigned *a = realloc(j->col, (size_t)cap * sizeof *a);
			if (!a)
				return -1;
			j->col = a;
			if (!(a = realloc(j->ld, (size_t)cap * sizeof *a)))
				return -1;
			j->ld = a;
			if (!(a = realloc(j->rd, (size_t)cap * sizeof *a)))
				return -1;
			j->rd = a;
			j->cap = cap;
		}
		j->col[j->count] = c;
		j->ld[j->count] = l;
		j->rd[j->count] = r;
		j->count++;
		return 0;
	}
	unsigned all = (1u << n) - 1u;
	for (unsigned f = (row == 0 ? first : all) & ~(c | l | r); f; f &= f - 1) {
		unsigned bit = f & (0u - f);
		if (nqu_prefixes(j, n, k, row + 1, c | bit, (l | bit) << 1, (r | bit) >> 1, first) < 0)
			return -1;
	}
	return 0;
}

/* completions of rows `left` more rows from state (c, l, r) */
static unsigned long nqu_count(unsigned all, int left, unsigned c, unsigned l, unsigned r)
{
	if (left == 0)
		return 1;
	unsigned long s = 0;
	for (unsigned f = all & ~(c | l | r); f; f &= f - 1) {
		unsigned bit = f & (0u - f);
		s += nqu_count(all, left - 1, c | bit, (l | bit) << 1, (r | bit) >> 1);
	}
	return s;
}

static ws_result nqu_run(ws_sim *sim, ws_module *mod, enum ws_bench_size size, struct ws_bench_out *out)
{
	if ((unsigned)size >= WS_SIZE_COUNT)
		return bench_fail(NULL, out, WS_ERROR_INVALID_VALUE, "nqu: size");
	ws_result rc = WS_SUCCESS;
	int n = nqu_sizes[size].n, k = nqu_sizes[size].k, depth = n - k;
	struct nqu_jobs j = {0};
	unsigned *got = NULL;
	ws_deviceptr d[4]; /* col, ld, rd, counts */
	int nd = 0, ctas = 0;
	ws_function *fn;

	int mirror = nqu_sizes[size].mirror;
	if (mirror && n % 2)
		return bench_fail(NULL, out, WS_ERROR_INVALID_VALUE, "nqu: mirror symmetry needs an even n");
	unsigned first = mirror ? (1u << (n / 2)) - 1u : (1u << n) - 1u;
	if (nqu_prefixes(&j, n, k, 0, 0, 0, 0, first) < 0) {
		rc = bench_fail(NULL, out, WS_ERROR_OUT_OF_MEMORY, "nqu: prefixes");
		goto done;
	}
	ctas = nqu_sizes[size].ctas ? nqu_sizes[size].ctas : (j.count + NQU_THREADS - 1) / NQU_THREADS;
	if (!(got = malloc((size_t)ctas * sizeof *got))) {
		rc = bench_fail(NULL, out, WS_ERROR_OUT_OF_MEMORY, "nqu: host buffers");
		goto done;
	}
	size_t jb = (size_t)j.count * sizeof(unsigned);
	const unsigned *src[3] = {j.col, j.ld, j.rd};
	BENCH_CALL(wsModuleGetFunction(&fn, mod, "nqu"));
	for (; nd < 3; nd++) {
		BENCH_CALL(wsMemAlloc(sim, &d[nd], jb));
		BENCH_CALL(wsMemcpyHtoD(sim, d[nd], src[nd], jb));
	}
	BENCH_CALL(wsMemAlloc(sim, &d[3], (size_t)ctas * sizeof(unsigned)));
	nd++;
	BENCH_CALL(wsMemsetD32(sim, d[3], 0xffffffffu, (size_t)ctas));
	void *args[] = {&n, &depth, &j.count, &d[0], &d[1], &d[2], &d[3]};
	BENCH_CALL(wsLaunchKernel(fn, (unsigned)ctas, 1, 1, NQU_THREADS, 1, 1, 0, args));
	out->launches++;
	BENCH_CALL(wsMemcpyDtoH(sim, got, d[3], (size_t)ctas * sizeof(unsigned)));

	unsigned all = (1u << n) - 1u;
	unsigned long total = 0;
	for (int b = 0; b < ctas; b++) {
		unsigned long want = 0;
		for (int i = b * NQU_THREADS; i < j.count && i < (b + 1) * NQU_THREADS; i++)
			want += nqu_count(all, depth, j.col[i], j.ld[i], j.rd[i]);
		if (got[b] != want) {
			rc = bench_mismatch(out, "nqu: counts[%d] (prefixes %d..%d): expected %lu, got %u", b,
			                    b * NQU_THREADS, (b + 1) * NQU_THREADS - 1, want, got[b]);
			goto done;
		}
		total += want;
	}
	if (mirror)
		total *= 2; /* each solution's mirror image starts in the right half */
	if (total != nqu_sizes[size].expected) {
		rc = bench_mismatch(out, "nqu: %d-queens total: expected %lu, got %lu", n, nqu_sizes[size].expected,
		                    total);
		goto done;
	}
	snprintf(out->msg, sizeof out->msg,
	         "nqu: %d-queens, %d prefixes of %d rows%s, %d CTA counts and total %lu verified", n, j.count, k,
	         mirror ? " (first queen in the left half, counted twice)" : "", ctas, total);
done:
	while (nd > 0)
		wsMemFree(sim, d[--nd]);
	free(j.col);
	free(j.ld);
	free(j.rd);
	free(got);
	return rc;
}

const struct ws_bench_info bench_nqu = {
    .name = "nqu",
    .description = "N-queens solution count: per-thread backtracking from host-placed prefixes, stacks in shared "
                   "memory, per-CTA tree reduction",
    .sync = "5 __syncthreads at the end (reduction) only; heavy branch divergence in the per-thread search",
    .paper = "DWR (NQU)",
    .ctas_per_sm = 0,
    .warps_per_cta = NQU_THREADS / 32,
    .sizes = {"8-queens, 3 rows placed (140 jobs, 2 CTAs)", "10-queens, 4 rows placed (1400 jobs, 15 CTAs)",
              "8-queens, 2 rows placed, the first queen in the left half (21 jobs, counted twice, in a fixed grid "
              "of 256 CTAs of 96: the original's default 24,576-thread launch)"},
    .ptx = ws_bench_ptx_nqu,
    .run = nqu_run,
};
