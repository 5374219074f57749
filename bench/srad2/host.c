/*
 * srad2/host.c -- host driver of the srad2 benchmark: a few iterations of
 * speckle reducing anisotropic diffusion on a synthetic ultrasound-like
 * image.
 *
 * The image is a smooth background with a few brighter and darker discs,
 * multiplied by speckle noise (a Rayleigh-like factor), then J = exp(I/255)
 * as Rodinia's SRAD does.  Each iteration (as Rodinia's srad_v2 host code)
 * copies J back, computes q0sqr = var / mean^2 over a region of interest
 * (the top-left quarter) on the CPU, then launches srad_coef and
 * srad_update (the SRAD2 kernel).
 *
 * The CPU reference runs the same iterations in float with the same
 * expressions; the GPU contracts some multiply-adds into FMAs, so the final
 * image is compared with a relative tolerance of 1e-4.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"

extern const char ws_bench_ptx_srad2[];

#define SRAD_T 16 /* 16 x 16 = 256 threads (8 warps) per CTA, as kernel.cu */
#define SRAD_LAMBDA 0.5f

static const struct {
	int rows, cols, iters; /* rows, cols multiples of SRAD_T */
} srad_sizes[WS_SIZE_COUNT] = {
    {32, 16, 2},   /* 2 CTAs per launch, 4 launches */
    {80, 80, 2},   /* 25 CTAs per launch */
    {384, 384, 2}, /* 576 CTAs per launch: 6.4 waves of 6 CTAs/SM on 15 SMs */
};

/* q0sqr = variance / mean^2 of J over the top-left quarter */
static float srad_q0sqr(const float *J, int rows, int cols)
{
	double sum = 0.0, sum2 = 0.0;
	int n = 0;
	for (int i = 0; i < rows / 2; i++)
		for (int j = 0; j < cols / 2; j++, n++) {
			sum += J[(size_t)i * cols + j];
			sum2 += (double)J[(size_t)i * cols + j] * J[(size_t)i * cols + j];
		}
	double mean = sum / n, var = sum2 / n - mean * mean;
	return (float)(var / (mean * mean));
}

static int srad_clamp(int v, int hi) { return v < 0 ? 0 : v > hi ? hi : v; }

/* one CPU iteration, same expressions as kernel.cu */
static void srad_cpu_iter(float *J, int rows, int cols, float q0sqr, float *d4, float *c)
{
	for (int i = 0; i < rows; i++)
		for (int j = 0; j < cols; j++) {
			size_t at = (size_t)i * cols + j;
			float jc = J[at];
			float n = J[(size_t)srad_clamp(i - 1, rows - 1) * cols + j] - jc;
			float s = J[(size_t)srad_clamp(i + 1, rows - 1) * cols + j] - jc;
			float w = J[(size_t)i * cols + srad_clamp(j - 1, cols - 1)] - jc;
			float e = J[(size_t)i * cols + srad_clamp(j + 1, cols - 1)] - jc;
			float g2 = (n * n + s * s + w * w + e * e) / (jc * jc);
			float l = (n + s + w + e) / jc;
			float num = 0.5f * g2 - 0.0625f * l * l;
			float den = 1.0f + 0.25f * l;
			float q2 = num / (den * den);
			den = (q2 - q0sqr) / (q0sqr * (1.0f + q0sqr));
			float cc = 1.0f / (1.0f + den);
			c[at] = cc < 0.0f ? 0.0f : cc > 1.0f ? 1.0f : cc;
			d4[4 * at] = n;
			d4[4 * at + 1] = s;
			d4[4 * at + 2] = w;
			d4[4 * at + 3] = e;
		}
	for (int i = 0; i < rows; i++)
		for (int j = 0; j < cols; j++) {
			size_t at = (size_t)i * cols + j;
			float cn = c[at], cs = c[(size_t)srad_clamp(i + 1, rows - 1) * cols + j];
			float ce = c[(size_t)i * cols + srad_clamp(j + 1, cols - 1)];
			const float *dv = d4 + 4 * at;
			float d = cn * dv[0] + cs * dv[1] + cn * dv[2] + ce * dv[3];
			J[at] += 0.25f * SRAD_LAMBDA * d;
		}
}

static void srad_make_image(struct bench_rng *rng, int rows, int cols, float *J)
{
	/* discs: centre (fractions of the image), radius fraction, intensity */
	static const float discs[4][4] = {
	    {0.30f, 0.65f, 0.18f, 190.0f}, {0.70f, 0.40f, 0.22f, 60.0f},
	    {0.55f, 0.80f, 0.10f, 230.0f}, {0.75f, 0.75f, 0.08f, 30.0f}};
	for (int i = 0; i < rows; i++)
		for (int j = 0; j < cols; j++) {
			float y = (float)i / rows, x = (float)j / cols;
			float v = 110.0f + 30.0f * x - 20.0f * y;
			for (int k = 0; k < 4; k++) {
				float dx = x - discs[k][0], dy = y - discs[k][1];
				if (dx * dx + dy * dy < discs[k][2] * discs[k][2])
					v = discs[k][3];
			}
			/* speckle: Rayleigh-distributed factor with mean ~1 */
			float u = bench_rng_float(rng, 1e-6f, 1.0f);
			float speckle = 0.8f * sqrtf(-2.0f * logf(u));
			float px = v * speckle;
			J[(size_t)i * cols + j] = expf((px > 255.0f ? 255.0f : px) / 255.0f);
		}
}

static ws_result srad_run(ws_sim *sim, ws_module *mod, enum ws_bench_size size, struct ws_bench_out *out)
{
	if ((unsigned)size >= WS_SIZE_COUNT)
		return bench_fail(NULL, out, WS_ERROR_INVALID_VALUE, "srad2: size");
	ws_result rc = WS_SUCCESS;
	int rows = srad_sizes[size].rows, cols = srad_sizes[size].cols, iters = srad_sizes[size].iters;
	size_t npix = (size_t)rows * cols;
	float *J = malloc(npix * sizeof *J), *ref = malloc(npix * sizeof *ref);
	float *d4 = malloc(npix * 4 * sizeof *d4), *c = malloc(npix * sizeof *c);
	ws_deviceptr d[3]; /* J, deriv, c */
	const size_t d_bytes[3] = {npix * sizeof(float), npix * 4 * sizeof(float), npix * sizeof(float)};
	int nd = 0;
	ws_function *fcoef, *fupd;
	float lambda = SRAD_LAMBDA;

	if (!J || !ref || !d4 || !c) {
		rc = bench_fail(NULL, out, WS_ERROR_OUT_OF_MEMORY, "srad2: host buffers");
		goto done;
	}
	struct bench_rng rng;
	bench_rng_seed(&rng, 9);
	srad_make_image(&rng, rows, cols, ref);

	BENCH_CALL(wsModuleGetFunction(&fcoef, mod, "srad_coef"));
	BENCH_CALL(wsModuleGetFunction(&fupd, mod, "srad_update"));
	for (; nd < 3; nd++)
		BENCH_CALL(wsMemAlloc(sim, &d[nd], d_bytes[nd]));
	BENCH_CALL(wsMemcpyHtoD(sim, d[0], ref, d_bytes[0]));
	BENCH_CALL(wsMemsetD32(sim, d[1], 0x7fc00000u, npix * 4)); /* NaN: an unwritten value spreads into J */
	BENCH_CALL(wsMemsetD32(sim, d[2], 0x7fc00000u, npix));
	unsigned gx = (unsigned)(cols / SRAD_T), gy = (unsigned)(rows / SRAD_T);
	for (int it = 0; it < iters; it++) {
		/* ROI statistics on the host, from the device's current image */
		BENCH_CALL(wsMemcpyDtoH(sim, J, d[0], d_bytes[0]));
		float q0sqr = srad_q0sqr(J, rows, cols);
		void *cargs[] = {&d[0], &rows, &cols, &q0sqr, &d[1], &d[2]};
		BENCH_CALL(wsLaunchKernel(fcoef, gx, gy, 1, SRAD_T, SRAD_T, 1, 0, cargs));
		out->launches++;
		void *uargs[] = {&d[0], &rows, &cols, &lambda, &d[1], &d[2]};
		BENCH_CALL(wsLaunchKernel(fupd, gx, gy, 1, SRAD_T, SRAD_T, 1, 0, uargs));
		out->launches++;
	}
	BENCH_CALL(wsMemcpyDtoH(sim, J, d[0], d_bytes[0]));

	for (int it = 0; it < iters; it++)
		srad_cpu_iter(ref, rows, cols, srad_q0sqr(ref, rows, cols), d4, c);
	for (size_t p = 0; p < npix; p++) {
		if (!bench_close(ref[p], J[p], 1e-4, 0.0)) {
			rc = bench_mismatch(out, "srad2: J[%zu] (row %zu, column %zu) after %d iterations: expected %.9g, got %.9g",
			                    p, p / (size_t)cols, p % (size_t)cols, iters, (double)ref[p], (double)J[p]);
			goto done;
		}
	}
	snprintf(out->msg, sizeof out->msg, "srad2: %d iterations on a %dx%d image verified", iters, rows, cols);
done:
	while (nd > 0)
		wsMemFree(sim, d[--nd]);
	free(J);
	free(ref);
	free(d4);
	free(c);
	return rc;
}

const struct ws_bench_info bench_srad2 = {
    .name = "srad2",
    .description = "speckle reducing anisotropic diffusion: diffusion coefficients, then the SRAD2 image update "
                   "from 16x16 shared-memory tiles of c with halos",
    .sync = "one __syncthreads per CTA in each kernel after staging the tile and its halo (the last warp loads "
            "the south halo)",
    .paper = "BAWS",
    .ctas_per_sm = 6,
    .warps_per_cta = SRAD_T * SRAD_T / 32,
    .sizes = {"32x16 image, 2 iterations (2 CTAs per launch)", "80x80 image, 2 iterations (25 CTAs per launch)",
              "384x384 image, 2 iterations (576 CTAs per launch)"},
    .ptx = ws_bench_ptx_srad2,
    .run = srad_run,
};
