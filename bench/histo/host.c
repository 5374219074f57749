/*
 * histo/host.c -- host driver of the histo benchmark: a 1024-bin histogram
 * of n 10-bit values.
 *
 * The input is an image, 512 pixels wide, row-major: an elliptical object
 * with textured intensities (a triangular distribution over all bins) on a
 * uniform background (intensity HI_BG_BIN, 1 pixel in 16 one level
 * brighter, like sensor noise).  The grid stride is a whole number of rows,
 * so every thread of a CTA always reads the same column: the warps whose
 * 32 columns lie in the background put all their lanes on one or two bins,
 * and their shared-memory atomics serialize (up to 32 passes), while the
 * warps over the object rarely collide.  That imbalance between the warps
 * of a CTA is what makes the warps wait at the second barrier, as in
 * Parboil's HISTO on its real image.  The check is exact.
 */
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"

extern const char ws_bench_ptx_histo[];

#define HI_THREADS 512 /* 16 warps per CTA */
#define HI_BINS 1024   /* as kernel.cu */
#define HI_BG_BIN 64   /* background intensity */
#define HI_WIDTH 512   /* image width (pixels) */

static const struct {
	int n;
	unsigned ctas;
} hi_sizes[WS_SIZE_COUNT] = {
    {512 * 12, 2},     /* 6 rows per CTA */
    {512 * 120, 12},   /* 10 rows per CTA */
    {512 * 1440, 180}, /* 8 rows per CTA; 4 waves of 3 CTAs/SM on 15 SMs */
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
	int rows = n / HI_WIDTH;
	for (int r = 0; r < rows; r++) {
		for (int c = 0; c < HI_WIDTH; c++) {
			/* inside the ellipse: textured object; outside: background */
			double dx = (c - 0.5 * HI_WIDTH) / (0.3 * HI_WIDTH), dy = (r - 0.5 * rows) / (0.4 * rows);
			uint32_t v;
			if (dx * dx + dy * dy <= 1.0)
				v = (bench_rng_u32(&rng, HI_BINS) + bench_rng_u32(&rng, HI_BINS)) / 2;
			else
				v = bench_rng_u32(&rng, 16) == 0 ? HI_BG_BIN + 1 : HI_BG_BIN;
			data[r * HI_WIDTH + c] = (uint16_t)v;
			expect[v]++;
		}
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
    .description = "1024-bin histogram of a 10-bit image (object on a uniform background) with per-CTA shared-memory histograms",
    .sync = "shared-memory atomicAdd, two __syncthreads per CTA, global atomicAdd merge",
    .paper = "BAWS",
    .ctas_per_sm = 3,
    .warps_per_cta = HI_THREADS / 32,
    .sizes = {"512x12 image (2 CTAs)", "512x120 image (12 CTAs)", "512x1440 image (180 CTAs)"},
    .ptx = ws_bench_ptx_histo,
    .run = histo_run,
};
