/*
 * nw2/host.c -- host driver of the BOWS suite's NW2 (lock-based
 * Needleman-Wunsch, bottom-right to top-left: suffix scores).  Random sequences of bases
 * 0..3, a symmetric substitution table (+5 match, -3 / -4 mismatch), gap
 * penalty 4.  The whole score matrix is determined by the inputs, so the
 * check compares every cell with the CPU's and requires every lock to be
 * released and every row's progress to be complete.
 */
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"

extern const char ws_bench_ptx_nw2[];

#define NW_THREADS 64 /* 2 warps per CTA: one thread per row */
#define NW_GAP 4

static const int nw_sub[16] = {5, -3, -4, -3, -3, 5, -3, -4, -4, -3, 5, -3, -3, -4, -3, 5};

static const struct {
	int n, blk;
} nw2_sizes[WS_SIZE_COUNT] = {
    {16, 8},    /* half a warp: its lanes take turns, 2 blocks */
    {128, 16},  /* 4 warps in 2 CTAs, 8 blocks */
    {2048, 16}, /* 64 warps in 32 CTAs, 128 blocks */
};

static int imax(int a, int b)
{
	return a > b ? a : b;
}

static ws_result nw2_run(ws_sim *sim, ws_module *mod, enum ws_bench_size size, struct ws_bench_out *out)
{
	if ((unsigned)size >= WS_SIZE_COUNT)
		return bench_fail(NULL, out, WS_ERROR_INVALID_VALUE, "nw2: size");
	ws_result rc = WS_SUCCESS;
	int n = nw2_sizes[size].n, w = n + 1, blk = nw2_sizes[size].blk, gap = NW_GAP;
	unsigned grid = ((unsigned)n + NW_THREADS - 1) / NW_THREADS;
	size_t cells = (size_t)w * w;
	int32_t *a = malloc((size_t)n * 4), *b = malloc((size_t)n * 4), *h = malloc(cells * 4);
	int32_t *want = malloc(cells * 4), *prog = calloc((size_t)w, 4), *locks = malloc((size_t)w * 4);
	ws_deviceptr d[6];
	int nd = 0;
	ws_function *fn;

	if (!a || !b || !h || !want || !prog || !locks) {
		rc = bench_fail(NULL, out, WS_ERROR_OUT_OF_MEMORY, "nw2: host buffers");
		goto done;
	}
	struct bench_rng rng;
	bench_rng_seed(&rng, 17);
	for (int i = 0; i < n; i++) {
		a[i] = (int32_t)bench_rng_u32(&rng, 4);
		b[i] = (int32_t)bench_rng_u32(&rng, 4);
	}
	/* suffix scores: row n and column n are the boundary */
	for (int j = 0; j < w; j++)
		want[(size_t)n * w + j] = -(n - j) * gap;
	for (int i = n - 1; i >= 0; i--) {
		want[(size_t)i * w + n] = -(n - i) * gap;
		for (int j = n - 1; j >= 0; j--)
			want[(size_t)i * w + j] = imax(imax(want[(size_t)(i + 1) * w + j + 1] + nw_sub[a[i] * 4 + b[j]],
			                                    want[(size_t)(i + 1) * w + j] - gap),
			                               want[(size_t)i * w + j + 1] - gap);
	}
	for (int i = 0; i < w; i++) /* row n and column n set, the rest garbage until written */
		for (int j = 0; j < w; j++)
			h[(size_t)i * w + j] = i == n || j == n ? want[(size_t)i * w + j] : (int32_t)0x80808080;
	prog[n] = n;

	BENCH_CALL(wsModuleGetFunction(&fn, mod, "nw2"));
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
			rc = bench_mismatch(out, "nw2: locks[%d]: expected 0 (released), got %d", r, locks[r]);
			goto done;
		}
		if (prog[r] != n) {
			rc = bench_mismatch(out, "nw2: done[%d]: expected %d, got %d", r, n, prog[r]);
			goto done;
		}
	}
	for (size_t k = 0; k < cells; k++)
		if (h[k] != want[k]) {
			rc = bench_mismatch(out, "nw2: S[%zu][%zu]: expected %d, got %d", k / (size_t)w, k % (size_t)w,
			                    want[k], h[k]);
			goto done;
		}
	snprintf(out->msg, sizeof out->msg, "nw2: %dx%d suffix score matrix verified (score %d)", n, n, want[0]);
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

static const struct ws_sib_note nw2_sibs[] = {
    {"nw2", 296, "wait loop: lock the row below, read its progress, retry while it is behind"},
    {"nw2", 287, "lock retry loop publishing this row's progress"},
    {NULL, 0, NULL},
};

const struct ws_bench_info bench_nw2 = {
    .name = "nw2",
    .description = "Needleman-Wunsch suffix scores, one thread per row, bottom-right to top-left in column blocks",
    .sync = "per-row progress counters under per-row spin locks: a row waits (lock, read, release, retry) until the "
            "row below has finished the block, then publishes its own progress under its lock",
    .paper = "BOWS (NW2)",
    .ctas_per_sm = 0,
    .warps_per_cta = NW_THREADS / 32,
    .sizes = {"16x16, 8-column blocks (1 CTA)", "128x128, 16-column blocks (2 CTAs)",
              "2048x2048, 16-column blocks (32 CTAs)"},
    .ptx = ws_bench_ptx_nw2,
    .sibs = nw2_sibs,
    .run = nw2_run,
};
