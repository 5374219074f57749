/*
 * nw1/host.c -- host driver of the BOWS suite's NW1 (lock-based
 * Needleman-Wunsch, top-left to bottom-right).  Random sequences of bases
 * 0..3, a symmetric substitution table (+5 match, -3 / -4 mismatch), gap
 * penalty 4.  The whole score matrix is determined by the inputs, so the
 * check compares every cell with the CPU's and requires every lock to be
 * released and every row's progress to be complete.
 */
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"

extern const char ws_bench_ptx_nw1[];

#define NW_THREADS 64 /* 2 warps per CTA: one thread per row */
#define NW_GAP 4

static const int nw_sub[16] = {5, -3, -4, -3, -3, 5, -3, -4, -4, -3, 5, -3, -3, -4, -3, 5};

static const struct {
	int n, blk;
} nw1_sizes[WS_SIZE_COUNT] = {
    {16, 8},    /* half a warp: its lanes take turns, 2 blocks */
    {128, 16},  /* 4 warps in 2 CTAs, 8 blocks */
    {2048, 16}, /* 64 warps in 32 CTAs, 128 blocks */
};

static int imax(int a, int b)
{
	return a > b ? a : b;
}

static ws_result nw1_run(ws_sim *sim, ws_module *mod, enum ws_bench_size size, struct ws_bench_out *out)
{
	if ((unsigned)size >= WS_SIZE_COUNT)
		return bench_fail(NULL, out, WS_ERROR_INVALID_VALUE, "nw1: size");
	ws_result rc = WS_SUCCESS;
	int n = nw1_sizes[size].n, w = n + 1, blk = nw1_sizes[size].blk, gap = NW_GAP;
	unsigned grid = ((unsigned)n + NW_THREADS - 1) / NW_THREADS;
	size_t cells = (size_t)w * w;
	int32_t *a = malloc((size_t)n * 4), *b = malloc((size_t)n * 4), *h = malloc(cells * 4);
	int32_t *want = malloc(cells * 4), *prog = calloc((size_t)w, 4), *locks = malloc((size_t)w * 4);
	ws_deviceptr d[6];
	int nd = 0;
	ws_function *fn;

	if (!a || !b || !h || !want || !prog || !locks) {
		rc = bench_fail(NULL, out, WS_ERROR_OUT_OF_MEMORY, "nw1: host buffers");
		goto done;
	}
	struct bench_rng rng;
	bench_rng_seed(&rng, 17);
	for (int i = 0; i < n; i++) {
		a[i] = (int32_t)bench_rng_u32(&rng, 4);
		b[i] = (int32_t)bench_rng_u32(&rng, 4);
	}
	for (int c = 0; c < w; c++)
		want[c] = h[c] = -c * gap;
	for (int r = 1; r < w; r++) {
		want[(size_t)r * w] = -r * gap;
		for (int c = 1; c < w; c++)
			want[(size_t)r * w + c] =
			    imax(imax(want[(size_t)(r - 1) * w + c - 1] + nw_sub[a[r - 1] * 4 + b[c - 1]],
			              want[(size_t)(r - 1) * w + c] - gap),
			         want[(size_t)r * w + c - 1] - gap);
	}
	for (int r = 1; r < w; r++) /* column 0 set, the rest garbage until written */
		for (int c = 0; c < w; c++)
			h[(size_t)r * w + c] = c == 0 ? -r * gap : (int32_t)0x80808080;
	prog[0] = n;

	BENCH_CALL(wsModuleGetFunction(&fn, mod, "nw1"));
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
			rc = bench_mismatch(out, "nw1: locks[%d]: expected 0 (released), got %d", r, locks[r]);
			goto done;
		}
		if (prog[r] != n) {
			rc = bench_mismatch(out, "nw1: progress[%d]: expected %d, got %d", r, n, prog[r]);
			goto done;
		}
	}
	for (size_t k = 0; k < cells; k++)
		if (h[k] != want[k]) {
			rc = bench_mismatch(out, "nw1: H[%zu][%zu]: expected %d, got %d", k / (size_t)w, k % (size_t)w,
			                    want[k], h[k]);
			goto done;
		}
	snprintf(out->msg, sizeof out->msg, "nw1: %dx%d score matrix verified (score %d)", n, n, want[cells - 1]);
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

static const struct ws_sib_note nw1_sibs[] = {
    {"nw1", 284, "wait loop: lock the row above, read its progress, retry while it is behind"},
    {"nw1", 275, "lock retry loop publishing this row's progress"},
    {NULL, 0, NULL},
};

const struct ws_bench_info bench_nw1 = {
    .name = "nw1",
    .description = "Needleman-Wunsch score matrix, one thread per row, top-left to bottom-right in column blocks",
    .sync = "per-row progress counters under per-row spin locks: a row waits (lock, read, release, retry) until the "
            "row above has finished the block, then publishes its own progress under its lock",
    .paper = "BOWS (NW1)",
    .ctas_per_sm = 0,
    .warps_per_cta = NW_THREADS / 32,
    .sizes = {"16x16, 8-column blocks (1 CTA)", "128x128, 16-column blocks (2 CTAs)",
              "2048x2048, 16-column blocks (32 CTAs)"},
    .ptx = ws_bench_ptx_nw1,
    .sibs = nw1_sibs,
    .run = nw1_run,
};
