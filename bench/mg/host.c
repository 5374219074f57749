/*
 * mg/host.c -- host driver of the mg benchmark (MRI Cartesian gridding):
 * scatter non-uniform k-space samples onto a complex Cartesian grid.
 *
 * Samples: 3/4 follow a variable-density pattern around the grid centre
 * (radius R * u^1.5 at a uniform angle, so the centre of k-space is sampled
 * densely, as in MRI), 1/4 are uniform over the grid; values are complex
 * in [-1, 1)^2.  The host bins the samples by 32 x 32 output tile (a sample
 * is copied into every tile its 4 x 4 window touches), one CTA per tile.
 *
 * The CPU scatters every sample onto the grid in double.  The GPU adds the
 * float contributions of a cell in another order (shared-memory atomics),
 * so each cell is compared with an absolute tolerance of 1e-5 times the
 * sum of the magnitudes of its contributions (plus a relative 1e-5).
 * The grid is pre-filled with NaN.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"

extern const char ws_bench_ptx_mg[];

#define MG_THREADS 512 /* 16 warps per CTA, as kernel.cu */
#define MG_TILE 32     /* as kernel.cu */
#define MG_W 2.0       /* window radius, as kernel.cu */

static const struct {
	int tiles_x, tiles_y, nsamples;
} mg_sizes[WS_SIZE_COUNT] = {
    {2, 1, 48},     /* 64 x 32 grid: 2 CTAs */
    {4, 4, 2000},   /* 128 x 128 grid: 16 CTAs */
    {15, 12, 50000}, /* 480 x 384 grid: 180 CTAs, 4 waves of 3 CTAs/SM on 15 SMs */
};

/* window weight of a cell at squared distance r2 (0 out of reach) */
static double mg_weight(double r2)
{
	if (r2 >= MG_W * MG_W)
		return 0.0;
	double w = 1.0 - r2 / (MG_W * MG_W);
	return w * w;
}

/* first and last grid column (or row) of the 4-cell window of position p */
static void mg_window(float p, int n, int *c0, int *c1)
{
	int f = (int)floorf(p);
	*c0 = f - 1 < 0 ? 0 : f - 1;
	*c1 = f + 2 > n - 1 ? n - 1 : f + 2;
}

static ws_result mg_run(ws_sim *sim, ws_module *mod, enum ws_bench_size size, struct ws_bench_out *out)
{
	if ((unsigned)size >= WS_SIZE_COUNT)
		return bench_fail(NULL, out, WS_ERROR_INVALID_VALUE, "mg: size");
	ws_result rc = WS_SUCCESS;
	int tx = mg_sizes[size].tiles_x, ty = mg_sizes[size].tiles_y, ns = mg_sizes[size].nsamples;
	int gw = tx * MG_TILE, gh = ty * MG_TILE, ntiles = tx * ty;
	size_t ncells = (size_t)gw * gh;
	float *smp = malloc((size_t)ns * 4 * sizeof *smp);
	int *start = calloc((size_t)ntiles + 1, sizeof *start), *fill = calloc((size_t)ntiles, sizeof *fill);
	double *ref = calloc(ncells * 4, sizeof *ref); /* re, im, |re| sum, |im| sum per cell */
	float *grid = malloc(ncells * 2 * sizeof *grid);
	float *binned = NULL;
	ws_deviceptr d[3]; /* binned, bin_start, grid */
	size_t d_bytes[3] = {0, ((size_t)ntiles + 1) * sizeof *start, ncells * 2 * sizeof *grid};
	int nd = 0;
	ws_function *fn;

	if (!smp || !start || !fill || !ref || !grid) {
		rc = bench_fail(NULL, out, WS_ERROR_OUT_OF_MEMORY, "mg: host buffers");
		goto done;
	}
	struct bench_rng rng;
	bench_rng_seed(&rng, 8);
	float cxs = gw / 2.0f, cys = gh / 2.0f, rmax = (gw < gh ? gw : gh) / 2.0f - 0.5f;
	for (int s = 0; s < ns; s++) {
		float *p = smp + 4 * s;
		if (bench_rng_u32(&rng, 4) != 0) {
			float u = bench_rng_float(&rng, 0.0f, 1.0f), a = bench_rng_float(&rng, 0.0f, 6.2831853f);
			float r = rmax * u * sqrtf(u);
			p[0] = cxs + r * cosf(a);
			p[1] = cys + r * sinf(a);
		} else {
			p[0] = bench_rng_float(&rng, 0.0f, (float)gw);
			p[1] = bench_rng_float(&rng, 0.0f, (float)gh);
		}
		p[2] = bench_rng_float(&rng, -1.0f, 1.0f);
		p[3] = bench_rng_float(&rng, -1.0f, 1.0f);
	}

	/* bin by tile: count, prefix sum, copy */
	for (int pass = 0; pass < 2; pass++) {
		for (int s = 0; s < ns; s++) {
			const float *p = smp + 4 * s;
			int x0, x1, y0, y1;
			mg_window(p[0], gw, &x0, &x1);
			mg_window(p[1], gh, &y0, &y1);
			for (int by = y0 / MG_TILE; by <= y1 / MG_TILE; by++)
				for (int bx = x0 / MG_TILE; bx <= x1 / MG_TILE; bx++) {
					int t = by * tx + bx;
					if (pass == 0)
						start[t + 1]++;
					else {
						float *q = binned + 4 * (size_t)(start[t] + fill[t]++);
						for (int k = 0; k < 4; k++)
							q[k] = p[k];
					}
				}
		}
		if (pass == 0) {
			for (int t = 0; t < ntiles; t++)
				start[t + 1] += start[t];
			binned = malloc((size_t)start[ntiles] * 4 * sizeof *binned + 1);
			if (!binned) {
				rc = bench_fail(NULL, out, WS_ERROR_OUT_OF_MEMORY, "mg: host buffers");
				goto done;
			}
		}
	}
	d_bytes[0] = (size_t)start[ntiles] * 4 * sizeof *binned;

	BENCH_CALL(wsModuleGetFunction(&fn, mod, "mg"));
	for (; nd < 3; nd++)
		BENCH_CALL(wsMemAlloc(sim, &d[nd], d_bytes[nd] ? d_bytes[nd] : 4));
	if (d_bytes[0])
		BENCH_CALL(wsMemcpyHtoD(sim, d[0], binned, d_bytes[0]));
	BENCH_CALL(wsMemcpyHtoD(sim, d[1], start, d_bytes[1]));
	BENCH_CALL(wsMemsetD32(sim, d[2], 0x7fc00000u, ncells * 2)); /* NaN: catches unwritten cells */
	void *args[] = {&d[0], &d[1], &tx, &d[2]};
	BENCH_CALL(wsLaunchKernel(fn, (unsigned)ntiles, 1, 1, MG_THREADS, 1, 1, 0, args));
	out->launches++;
	BENCH_CALL(wsMemcpyDtoH(sim, grid, d[2], d_bytes[2]));

	/* CPU reference: scatter every sample in double */
	for (int s = 0; s < ns; s++) {
		const float *p = smp + 4 * s;
		int x0, x1, y0, y1;
		mg_window(p[0], gw, &x0, &x1);
		mg_window(p[1], gh, &y0, &y1);
		for (int y = y0; y <= y1; y++)
			for (int x = x0; x <= x1; x++) {
				double dx = x - (double)p[0], dy = y - (double)p[1];
				double w = mg_weight(dx * dx + dy * dy);
				double *c = ref + 4 * ((size_t)y * gw + x);
				c[0] += w * p[2];
				c[1] += w * p[3];
				c[2] += fabs(w * p[2]);
				c[3] += fabs(w * p[3]);
			}
	}
	for (int y = 0; y < gh; y++)
		for (int x = 0; x < gw; x++) {
			const double *c = ref + 4 * ((size_t)y * gw + x);
			size_t at = ((size_t)(y / MG_TILE * tx + x / MG_TILE) * MG_TILE + y % MG_TILE) * MG_TILE +
			            x % MG_TILE;
			for (int k = 0; k < 2; k++) {
				float got = grid[2 * at + k];
				if (!bench_close(c[k], got, 1e-5, 1e-5 * c[2 + k] + 1e-7)) {
					rc = bench_mismatch(out,
					                    "mg: grid cell (%d, %d) %s (tile-major element %zu): "
					                    "expected %.9g, got %.9g",
					                    x, y, k ? "im" : "re", at, c[k], (double)got);
					goto done;
				}
			}
		}
	snprintf(out->msg, sizeof out->msg, "mg: %d samples (%d binned) gridded onto %dx%d verified", ns,
	         start[ntiles], gw, gh);
done:
	while (nd > 0)
		wsMemFree(sim, d[--nd]);
	free(smp);
	free(start);
	free(fill);
	free(ref);
	free(grid);
	free(binned);
	return rc;
}

const struct ws_bench_info bench_mg = {
    .name = "mg",
    .description = "MRI gridding: k-space samples scattered onto a complex grid through a 4x4 window, "
                   "32x32 shared-memory tile per CTA",
    .sync = "two __syncthreads per batch of 32 samples (stage, scatter); shared-memory float atomicAdd",
    .paper = "BAWS",
    .ctas_per_sm = 3,
    .warps_per_cta = MG_THREADS / 32,
    .sizes = {"48 samples, 64x32 grid (2 CTAs)", "2000 samples, 128x128 grid (16 CTAs)",
              "50,000 samples, 480x384 grid (180 CTAs)"},
    .ptx = ws_bench_ptx_mg,
    .run = mg_run,
};
