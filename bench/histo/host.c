/*
 * histo/host.c -- host driver of the histo benchmark: a 1024-bin histogram
 * of n 10-bit values.
 *
 * The input is skewed like an image's intensities: a triangular
 * distribution over all bins plus one hot bin holding 1/8 of the values,
 * so that lanes often collide on the same shared-memory bin.  The check
 * is exact.
 */
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"

extern const char ws_bench_ptx_histo[];

#define HI_THREADS 512 /* 16 warps per CTA */
#define HI_BINS 1024   /* as kernel.cu */
#define HI_HOT_BIN 700

static const struct {
	int n;
	unsigned ctas;
} hi_sizes[WS_SIZE_COUNT] = {
    {6000, 2},     /* ~6 values per thread */
    {60000, 12},   /* ~10 values per thread */
    {737280, 180}, /* 8 values per thread; 4 waves of 3 CTAs/SM on 15 SMs */
};

static ws_result histo_run(ws_sim *sim, ws_module *mod, enum ws_bench_size size, struct ws_bench_out *out)
{
	if ((unsigned)size >= WS_SIZE_COUNT)
		return bench_fail(NULL, out, WS_ERROR_INVALID_VALUE, "histo: size");
	ws_result rc = WS_SUCCESS;
	int n = hi_sizes[size].n;
	const size_t d_bytes[2] = {(size_t)n * sizeof(uint16_t), HI_BINS * sizeof(uint32_t)};
	uint16_t *data = malloc(d_bytes[0]);
	uint32_t hist[HI_BINS], expect[HI_BINS] = {0};
	ws_deviceptr d[2]; /* data, hist */
	int nd = 0;
	ws_function *fn;

	if (!data) {
		rc = bench_fail(NULL, out, WS_ERROR_OUT_OF_MEMORY, "histo: host buffers");
		goto done;
	}
	struct bench_rng rng;
	bench_rng_seed(&rng, 4);
	for (int i = 0; i < n; i++) {
		uint32_t v = bench_rng_u32(&rng, 8) == 0
		                 ? HI_HOT_BIN
		                 : (bench_rng_u32(&rng, HI_BINS) + bench_rng_u32(&rng, HI_BINS)) / 2;
		data[i] = (uint16_t)v;
		expect[v]++;
	}

	BENCH_CALL(wsModuleGetFunction(&fn, mod, "histo"));
	for (; nd < 2; nd++)
		BENCH_CALL(wsMemAlloc(sim, &d[nd], d_bytes[nd]));
	BENCH_CALL(wsMemcpyHtoD(sim, d[0], data, d_bytes[0]));
	BENCH_CALL(wsMemsetD32(sim, d[1], 0, HI_BINS));
	void *args[] = {&d[0], &n, &d[1]};
	BENCH_CALL(wsLaunchKernel(fn, hi_sizes[size].ctas, 1, 1, HI_THREADS, 1, 1, 0, args));
	out->launches++;
	BENCH_CALL(wsMemcpyDtoH(sim, hist, d[1], d_bytes[1]));

	for (int b = 0; b < HI_BINS; b++) {
		if (hist[b] != expect[b]) {
			rc = bench_mismatch(out, "histo: hist[%d]: expected %u, got %u", b, expect[b], hist[b]);
			goto done;
		}
	}
	snprintf(out->msg, sizeof out->msg, "histo: %d values in %d bins verified", n, HI_BINS);
done:
	while (nd > 0)
		wsMemFree(sim, d[--nd]);
	free(data);
	return rc;
}

const struct ws_bench_info bench_histo = {
    .name = "histo",
    .description = "1024-bin histogram of 10-bit values with per-CTA shared-memory histograms",
    .sync = "shared-memory atomicAdd, two __syncthreads per CTA, global atomicAdd merge",
    .paper = "BAWS",
    .ctas_per_sm = 3,
    .warps_per_cta = HI_THREADS / 32,
    .sizes = {"6000 values (2 CTAs)", "60000 values (12 CTAs)", "737280 values (180 CTAs)"},
    .ptx = ws_bench_ptx_histo,
    .run = histo_run,
};
