/*
 * mm/host.c -- host driver of the mm benchmark: C = A * B with A M x K and
 * B K x N (row-major floats, every dimension a multiple of the 16 x 16
 * tile, none of the matrices square).
 *
 * Inputs are random floats in [-1, 1).  The CPU reference accumulates in
 * double; results are compared with a tolerance scaled by
 * sum_k |A[i][k] * B[k][j]|.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"

extern const char ws_bench_ptx_mm[];

#define MM_TILE 16 /* CTA = 16 x 16 threads = 8 warps, as kernel.cu; M, N, K multiples of it */

static const struct {
	int m, n, k;
} mm_sizes[WS_SIZE_COUNT] = {
    {16, 48, 32},   /* 3 x 1 CTAs, 2 tile steps */
    {80, 48, 64},   /* 3 x 5 CTAs, 4 tile steps */
    {320, 240, 256}, /* 15 x 20 CTAs (3.3 waves of 6 CTAs/SM), 16 tile steps */
};

static ws_result mm_run(ws_sim *sim, ws_module *mod, enum ws_bench_size size, struct ws_bench_out *out)
{
	if ((unsigned)size >= WS_SIZE_COUNT)
		return bench_fail(NULL, out, WS_ERROR_INVALID_VALUE, "mm: size");
	ws_result rc = WS_SUCCESS;
	int M = mm_sizes[size].m, N = mm_sizes[size].n, K = mm_sizes[size].k;
	const size_t d_bytes[3] = {(size_t)M * K * sizeof(float), (size_t)K * N * sizeof(float),
	                           (size_t)M * N * sizeof(float)};
	float *A = malloc(d_bytes[0]), *B = malloc(d_bytes[1]), *C = malloc(d_bytes[2]);
	ws_deviceptr d[3]; /* A, B, C */
	int nd = 0;
	ws_function *fn;

	if (!A || !B || !C) {
		rc = bench_fail(NULL, out, WS_ERROR_OUT_OF_MEMORY, "mm: host buffers");
		goto done;
	}
	struct bench_rng rng;
	bench_rng_seed(&rng, 3);
	for (size_t i = 0; i < (size_t)M * K; i++)
		A[i] = bench_rng_float(&rng, -1.0f, 1.0f);
	for (size_t i = 0; i < (size_t)K * N; i++)
		B[i] = bench_rng_float(&rng, -1.0f, 1.0f);

	BENCH_CALL(wsModuleGetFunction(&fn, mod, "mm"));
	for (; nd < 3; nd++)
		BENCH_CALL(wsMemAlloc(sim, &d[nd], d_bytes[nd]));
	BENCH_CALL(wsMemcpyHtoD(sim, d[0], A, d_bytes[0]));
	BENCH_CALL(wsMemcpyHtoD(sim, d[1], B, d_bytes[1]));
	BENCH_CALL(wsMemsetD32(sim, d[2], 0x7fc00000u, (size_t)M * N)); /* NaN: catches unwritten results */
	void *args[] = {&d[0], &d[1], &d[2], &M, &N, &K};
	BENCH_CALL(
	    wsLaunchKernel(fn, (unsigned)(N / MM_TILE), (unsigned)(M / MM_TILE), 1, MM_TILE, MM_TILE, 1, 0, args));
	out->launches++;
	BENCH_CALL(wsMemcpyDtoH(sim, C, d[2], d_bytes[2]));

	for (int i = 0; i < M; i++) {
		for (int j = 0; j < N; j++) {
			double sum = 0.0, mag = 0.0;
			for (int k = 0; k < K; k++) {
				double x = (double)A[(size_t)i * K + k] * B[(size_t)k * N + j];
				sum += x;
				mag += fabs(x);
			}
			float got = C[(size_t)i * N + j];
			if (!bench_close(sum, got, 1e-5, 1e-5 * mag)) {
				rc = bench_mismatch(out,
				                    "mm: C[%d][%d] (index %zu, %dx%d * %dx%d): expected %.9g, got %.9g",
				                    i, j, (size_t)i * N + j, M, K, K, N, sum, (double)got);
				goto done;
			}
		}
	}
	snprintf(out->msg, sizeof out->msg, "mm: %dx%d * %dx%d product verified", M, K, K, N);
done:
	while (nd > 0)
		wsMemFree(sim, d[--nd]);
	free(A);
	free(B);
	free(C);
	return rc;
}

const struct ws_bench_info bench_mm = {
    .name = "mm",
    .description = "tiled matrix multiply C = A * B (float) with 16x16 shared-memory tiles",
    .sync = "two __syncthreads per tile step (after loading the tiles, before overwriting them)",
    .paper = "BAWS, DWR (MTM)",
    .ctas_per_sm = 6,
    .warps_per_cta = MM_TILE * MM_TILE / 32,
    .sizes = {"16x32 * 32x48 (3 CTAs)", "80x64 * 64x48 (15 CTAs)", "320x256 * 256x240 (300 CTAs)"},
    .ptx = ws_bench_ptx_mm,
    .run = mm_run,
};
