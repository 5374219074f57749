/*
 * nw_lock.h -- the host driver shared by the BOWS suite's NW1 and NW2
 * (lock-based Needleman-Wunsch, bench/nw1, bench/nw2): inputs, launch and
 * check.  Random sequences of bases 0..3, a symmetric substitution table (+5
 * match, -3 / -4 mismatch), gap penalty 4.  NW1 fills the score matrix from
 * the top-left (prefix scores), NW2 from the bottom-right (suffix scores).
 * The whole matrix is determined by the inputs, so the check compares every
 * cell with the CPU's and requires every lock to be released and every row's
 * progress to be complete.  Included by the two host.c files only.
 */
#ifndef WARPSIM_BENCH_NW_LOCK_H
#define WARPSIM_BENCH_NW_LOCK_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"

#define NW_THREADS 64 /* 2 warps per CTA: one thread per row */
#define NW_GAP 4

static const int nw_sub[16] = {5, -3, -4, -3, -3, 5, -3, -4, -4, -3, 5, -3, -3, -4, -3, 5};

static const struct {
	int n, blk;
} nw_sizes[WS_SIZE_COUNT] = {
    {16, 8},    /* half a warp: its lanes take turns, 2 blocks */
    {128, 16},  /* 4 warps in 2 CTAs, 8 blocks */
    {2048, 16}, /* 64 warps in 32 CTAs, 128 blocks */
};

#define NW_SIZE_WORDS                                                                                            \
	{"16x16, 8-column blocks (1 CTA)", "128x128, 16-column blocks (2 CTAs)",                                 \
	 "2048x2048, 16-column blocks (32 CTAs)"}

static int nw_imax(int a, int b)
{
	return a > b ? a : b;
}

/* The CPU's matrix (want) and the kernel's starting matrix (h: the boundary
 * row and column set, the rest garbage) and progress counters. */
static void nw_reference(bool suffix, int n, const int32_t *a, const int32_t *b, int32_t *want, int32_t *h,
			 int32_t *prog)
{
	int w = n + 1, gap = NW_GAP;
	if (!suffix) {
		for (int c = 0; c < w; c++)
			want[c] = h[c] = -c * gap;
		for (int r = 1; r < w; r++) {
			want[(size_t)r * w] = -r * gap;
			for (int c = 1; c < w; c++)
				want[(size_t)r * w + c] =
				    nw_imax(nw_imax(want[(size_t)(r - 1) * w + c - 1] + nw_sub[a[r - 1] * 4 + b[c - 1]],
						    want[(size_t)(r - 1) * w + c] - gap),
					    want[(size_t)r * w + c - 1] - gap);
		}
		for (int r = 1; r < w; r++) /* column 0 set, the rest garbage until written */
			for (int c = 0; c < w; c++)
				h[(size_t)r * w + c] = c == 0 ? -r * gap : (int32_t)0x80808080;
		prog[0] = n;
		return;
	}
	/* suffix scores: row n and column n are the boundary */
	for (int j = 0; j < w; j++)
		want[(size_t)n * w + j] = -(n - j) * gap;
	for (int i = n - 1; i >= 0; i--) {
		want[(size_t)i * w + n] = -(n - i) * gap;
		for (int j = n - 1; j >= 0; j--)
			want[(size_t)i * w + j] = nw_imax(nw_imax(want[(size_t)(i + 1) * w + j + 1] + nw_sub[a[i] * 4 + b[j]],
								 want[(size_t)(i + 1) * w + j] - gap),
							  want[(size_t)i * w + j + 1] - gap);
	}
	for (int i = 0; i < w; i++) /* row n and column n set, the rest garbage until written */
		for (int j = 0; j < w; j++)
			h[(size_t)i * w + j] = i == n || j == n ? want[(size_t)i * w + j] : (int32_t)0x80808080;
	prog[n] = n;
}

/* Run kernel `name` (nw1: prefix scores, nw2: suffix scores) at `size`. */
static ws_result nw_lock_run(const char *name, bool suffix, ws_sim *sim, ws_module *mod, enum ws_bench_size size,
			     struct ws_bench_out *out)
{
	char what[64];
	snprintf(what, sizeof what, "%s: size", name);
	if ((unsigned)size >= WS_SIZE_COUNT)
		return bench_fail(NULL, out, WS_ERROR_INVALID_VALUE, what);
	ws_result rc = WS_SUCCESS;
	int n = nw_sizes[size].n, w = n + 1, blk = nw_sizes[size].blk, gap = NW_GAP;
	unsigned grid = ((unsigned)n + NW_THREADS - 1) / NW_THREADS;
	size_t cells = (size_t)w * w;
	int32_t *a = malloc((size_t)n * 4), *b = malloc((size_t)n * 4), *h = malloc(cells * 4);
	int32_t *want = malloc(cells * 4), *prog = calloc((size_t)w, 4), *locks = malloc((size_t)w * 4);
	ws_deviceptr d[6];
	int nd = 0;
	ws_function *fn;

	if (!a || !b || !h || !want || !prog || !locks) {
		snprintf(what, sizeof what, "%s: host buffers", name);
		rc = bench_fail(NULL, out, WS_ERROR_OUT_OF_MEMORY, what);
		goto done;
	}
	struct bench_rng rng;
	bench_rng_seed(&rng, 17);
	for (int i = 0; i < n; i++) {
		a[i] = (int32_t)bench_rng_u32(&rng, 4);
		b[i] = (int32_t)bench_rng_u32(&rng, 4);
	}
	nw_reference(suffix, n, a, b, want, h, prog);

	BENCH_CALL(wsModuleGetFunction(&fn, mod, name));
	const size_t d_bytes[6] = {(size_t)n * 4, (size_t)n * 4, 64, cells * 4, (size_t)w * 4, (size_t)w * 4};
	for (; nd < 6; nd++)
		BENCH_CALL(wsMemAlloc(sim, &d[nd], d_bytes[nd]));
	BENCH_CALL(wsMemcpyHtoD(sim, d[0], a, d_bytes[0]));
	BENCH_CALL(wsMemcpyHtoD(sim, d[1], b, d_bytes[1]));
	BENCH_CALL(wsMemcpyHtoD(sim, d[2], nw_sub, 64));
	BENCH_CALL(wsMemcpyHtoD(sim, d[3], h, d_bytes[3]));
	BENCH_CALL(wsMemcpyHtoD(sim, d[4], prog, d_bytes[4]));
	BENCH_CALL(wsMemsetD32(sim, d[5], 0, (size_t)w));
	void *args[] = {&d[0], &d[1], &n, &blk, &d[2], &gap, &d[3], &d[4], &d[5]};
	BENCH_CALL(wsLaunchKernel(fn, grid, 1, 1, NW_THREADS, 1, 1, 0, args));
	out->launches++;
	BENCH_CALL(wsMemcpyDtoH(sim, h, d[3], d_bytes[3]));
	BENCH_CALL(wsMemcpyDtoH(sim, prog, d[4], d_bytes[4]));
	BENCH_CALL(wsMemcpyDtoH(sim, locks, d[5], d_bytes[5]));
	for (int r = 0; r < w; r++) {
		if (locks[r] != 0) {
			rc = bench_mismatch(out, "%s: locks[%d]: expected 0 (released), got %d", name, r, locks[r]);
			goto done;
		}
		if (prog[r] != n) {
			rc = bench_mismatch(out, "%s: progress[%d]: expected %d, got %d", name, r, n, prog[r]);
			goto done;
		}
	}
	for (size_t k = 0; k < cells; k++)
		if (h[k] != want[k]) {
			rc = bench_mismatch(out, "%s: %c[%zu][%zu]: expected %d, got %d", name, suffix ? 'S' : 'H',
					    k / (size_t)w, k % (size_t)w, want[k], h[k]);
			goto done;
		}
	snprintf(out->msg, sizeof out->msg, "%s: %dx%d %sscore matrix verified (score %d)", name, n, n,
		 suffix ? "suffix " : "", suffix ? want[0] : want[cells - 1]);
done:
	while (nd > 0)
		wsMemFree(sim, d[--nd]);
	free(a);
	free(b);
	free(h);
	free(want);
	free(prog);
	free(locks);
	return rc;
}

#endif
