/*
 * srad1/host.c -- host driver of the srad1 benchmark: `iters` iterations of
 * speckle-reducing anisotropic diffusion on a rows x cols image.
 *
 * The image is a bright ellipse (2.0) on a darker ramp (1.0 .. 1.5), each
 * pixel multiplied by speckle uniform in [0.6, 1.4).  lambda = 0.5.  Per
 * iteration the host launches srad_stats, adds its per-CTA partial sums in
 * double to get q0^2 = var / mean^2, then launches srad_coef and
 * srad_update.  rows and cols are not multiples of the 16 x 16 tile (nor
 * rows * cols of the 256-thread reduction CTA), so edge CTAs are partial.
 *
 * The CPU reference runs the same float formulas on its own copy of the
 * image.  Verified with tolerances (the device fuses multiply-adds and
 * sums in a different order): every iteration, each CTA's partial sum and
 * sum of squares (relative 1e-5); at the end, every pixel of the image
 * (relative 1e-5) and the last iteration's diffusion coefficients
 * (absolute 1e-4; c is in [0, 1]).  The coefficient and derivative
 * buffers are pre-filled with NaN: a pixel srad_coef fails to write
 * poisons the image and is caught.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"

extern const char ws_bench_ptx_srad1[];

#define SR_THREADS 256 /* 8 warps per CTA, as kernel.cu */
#define SR_TILE 16     /* 16 x 16 = 8 warps per CTA, as kernel.cu */

static const struct {
	int rows, cols, iters;
} sr_sizes[WS_SIZE_COUNT] = {
    {12, 20, 2},   /* 2 x 1 CTAs per pixel kernel, 1 reduction CTA; 6 launches */
    {50, 70, 2},   /* 5 x 4 CTAs, 14 reduction CTAs; 6 launches */
    {250, 236, 4}, /* 15 x 16 = 240 CTAs (about 3 waves on 15 SMs), 231 reduction CTAs; 12 launches */
};

static const float sr_lambda = 0.5f;

/* q0^2 from the sum and sum of squares of npix pixels */
static float sr_q0sqr(double sum, double sq, int npix)
{
	double mean = sum / npix, var = sq / npix - mean * mean;
	return (float)(var / (mean * mean));
}

/* one iteration on the CPU: coefficients into c, image updated in place */
static void sr_step(float *J, float *dn, float *ds, float *dw, float *de, float *c, int rows, int cols, float q0sqr)
{
	for (int y = 0; y < rows; y++) {
		for (int x = 0; x < cols; x++) {
			int i = y * cols + x;
			float jc = J[i];
			float n = y > 0 ? J[i - cols] - jc : 0.0f;
			float s = y < rows - 1 ? J[i + cols] - jc : 0.0f;
			float w = x > 0 ? J[i - 1] - jc : 0.0f;
			float e = x < cols - 1 ? J[i + 1] - jc : 0.0f;
			float g2 = (n * n + s * s + w * w + e * e) / (jc * jc);
			float l = (n + s + w + e) / jc;
			float num = 0.5f * g2 - 0.0625f * (l * l);
			float den = 1.0f + 0.25f * l;
			float qsqr = num / (den * den);
			den = (qsqr - q0sqr) / (q0sqr * (1.0f + q0sqr));
			float cc = 1.0f / (1.0f + den);
			c[i] = cc < 0.0f ? 0.0f : cc > 1.0f ? 1.0f : cc;
			dn[i] = n;
			ds[i] = s;
			dw[i] = w;
			de[i] = e;
		}
	}
	for (int y = 0; y < rows; y++) {
		for (int x = 0; x < cols; x++) {
			int i = y * cols + x;
			float cc = c[i];
			float cs = y < rows - 1 ? c[i + cols] : cc;
			float ce = x < cols - 1 ? c[i + 1] : cc;
			float d = cc * dn[i] + cs * ds[i] + cc * dw[i] + ce * de[i];
			J[i] = J[i] + 0.25f * sr_lambda * d;
		}
	}
}

static ws_result srad1_run(ws_sim *sim, ws_module *mod, enum ws_bench_size size, struct ws_bench_out *out)
{
	if ((unsigned)size >= WS_SIZE_COUNT)
		return bench_fail(NULL, out, WS_ERROR_INVALID_VALUE, "srad1: size");
	ws_result rc = WS_SUCCESS;
	int rows = sr_sizes[size].rows, cols = sr_sizes[size].cols, iters = sr_sizes[size].iters;
	int npix = rows * cols, nred = (npix + SR_THREADS - 1) / SR_THREADS;
	size_t img_bytes = (size_t)npix * sizeof(float), red_bytes = (size_t)nred * sizeof(float);
	float *J = malloc(img_bytes), *got = malloc(img_bytes), *gotc = malloc(img_bytes);
	float *psum = malloc(red_bytes), *psq = malloc(red_bytes);
	float *work = malloc(5 * img_bytes); /* CPU dN, dS, dW, dE, c */
	ws_deviceptr d[8];                   /* J, dN, dS, dW, dE, c, psum, psq */
	int nd = 0;
	ws_function *fstats, *fcoef, *fupd;

	if (!J || !got || !gotc || !psum || !psq || !work) {
		rc = bench_fail(NULL, out, WS_ERROR_OUT_OF_MEMORY, "srad1: host buffers");
		goto done;
	}
	float *rc_n = work, *rc_s = work + npix, *rc_w = work + 2 * (size_t)npix, *rc_e = work + 3 * (size_t)npix,
	      *rc_c = work + 4 * (size_t)npix;
	struct bench_rng rng;
	bench_rng_seed(&rng, 45);
	for (int y = 0; y < rows; y++) {
		for (int x = 0; x < cols; x++) {
			double ey = (y - 0.45 * rows) / (0.3 * rows), ex = (x - 0.55 * cols) / (0.35 * cols);
			float base = ey * ey + ex * ex < 1.0 ? 2.0f : 1.0f + 0.5f * (float)x / (float)cols;
			J[y * cols + x] = base * bench_rng_float(&rng, 0.6f, 1.4f);
		}
	}

	BENCH_CALL(wsModuleGetFunction(&fstats, mod, "srad_stats"));
	BENCH_CALL(wsModuleGetFunction(&fcoef, mod, "srad_coef"));
	BENCH_CALL(wsModuleGetFunction(&fupd, mod, "srad_update"));
	for (; nd < 8; nd++)
		BENCH_CALL(wsMemAlloc(sim, &d[nd], nd < 6 ? img_bytes : red_bytes));
	BENCH_CALL(wsMemcpyHtoD(sim, d[0], J, img_bytes));
	for (int b = 1; b < 6; b++) /* NaN: catches pixels srad_coef does not write */
		BENCH_CALL(wsMemsetD32(sim, d[b], 0x7fc00000u, (size_t)npix));
	unsigned gx = (unsigned)((cols + SR_TILE - 1) / SR_TILE), gy = (unsigned)((rows + SR_TILE - 1) / SR_TILE);
	float lambda = sr_lambda;
	for (int it = 0; it < iters; it++) {
		BENCH_CALL(wsMemsetD32(sim, d[6], 0x7fc00000u, (size_t)nred)); /* NaN: catches unwritten partials */
		BENCH_CALL(wsMemsetD32(sim, d[7], 0x7fc00000u, (size_t)nred));
		void *sargs[] = {&d[0], &d[6], &d[7], &npix};
		BENCH_CALL(wsLaunchKernel(fstats, (unsigned)nred, 1, 1, SR_THREADS, 1, 1, 0, sargs));
		BENCH_CALL(wsMemcpyDtoH(sim, psum, d[6], red_bytes));
		BENCH_CALL(wsMemcpyDtoH(sim, psq, d[7], red_bytes));
		/* check the partial sums against the CPU's image of this iteration */
		double sum = 0.0, sq = 0.0, rsum = 0.0, rsq = 0.0;
		for (int b = 0; b < nred; b++) {
			double es = 0.0, eq = 0.0;
			for (int i = b * SR_THREADS; i < npix && i < (b + 1) * SR_THREADS; i++) {
				es += J[i];
				eq += (double)J[i] * J[i];
			}
			if (!bench_close(es, psum[b], 1e-5, 0.0) || !bench_close(eq, psq[b], 1e-5, 0.0)) {
				int bad_sum = !bench_close(es, psum[b], 1e-5, 0.0);
				rc = bench_mismatch(
				    out, "srad1: iteration %d, %s[%d] (reduction CTA %d): expected %.9g, got %.9g", it,
				    bad_sum ? "psum" : "psq", b, b, bad_sum ? es : eq,
				    (double)(bad_sum ? psum[b] : psq[b]));
				goto done;
			}
			sum += psum[b];
			sq += psq[b];
			rsum += es;
			rsq += eq;
		}
		float q0sqr = sr_q0sqr(sum, sq, npix);
		void *pargs[] = {&d[0], &d[1], &d[2], &d[3], &d[4], &d[5], &rows, &cols, &q0sqr};
		BENCH_CALL(wsLaunchKernel(fcoef, gx, gy, 1, SR_TILE, SR_TILE, 1, 0, pargs));
		pargs[8] = &lambda;
		BENCH_CALL(wsLaunchKernel(fupd, gx, gy, 1, SR_TILE, SR_TILE, 1, 0, pargs));
		out->launches += 3;
		sr_step(J, rc_n, rc_s, rc_w, rc_e, rc_c, rows, cols, sr_q0sqr(rsum, rsq, npix));
	}
	BENCH_CALL(wsMemcpyDtoH(sim, got, d[0], img_bytes));
	BENCH_CALL(wsMemcpyDtoH(sim, gotc, d[5], img_bytes));

	for (int i = 0; i < npix; i++) {
		if (!bench_close(rc_c[i], gotc[i], 0.0, 1e-4)) {
			rc = bench_mismatch(out, "srad1: c[%d] (row %d, col %d, iteration %d): expected %.9g, got %.9g",
			                    i, i / cols, i % cols, iters - 1, (double)rc_c[i], (double)gotc[i]);
			goto done;
		}
	}
	for (int i = 0; i < npix; i++) {
		if (!bench_close(J[i], got[i], 1e-5, 0.0)) {
			rc = bench_mismatch(
			    out, "srad1: J[%d] (row %d, col %d, after %d iterations): expected %.9g, got %.9g", i,
			    i / cols, i % cols, iters, (double)J[i], (double)got[i]);
			goto done;
		}
	}
	snprintf(out->msg, sizeof out->msg, "srad1: %dx%d image, %d iterations verified", rows, cols, iters);
done:
	while (nd > 0)
		wsMemFree(sim, d[--nd]);
	free(J);
	free(got);
	free(gotc);
	free(psum);
	free(psq);
	free(work);
	return rc;
}

const struct ws_bench_info bench_srad1 = {
    .name = "srad1",
    .description = "speckle-reducing anisotropic diffusion (v1): per iteration an image-statistics reduction, "
                   "derivative/diffusion-coefficient and update kernels",
    .sync = "lightly synchronized: shared-memory tree reduction (9 __syncthreads per CTA) in the statistics "
            "kernel; the pixel kernels are synchronization-free",
    .paper = "BAWS 6.5",
    .ctas_per_sm = 0,
    .warps_per_cta = SR_TILE * SR_TILE / 32,
    .sizes = {"12x20 image, 2 iterations (2 + 1 CTAs per iteration)", "50x70, 2 iterations (20 + 14 CTAs)",
              "250x236, 4 iterations (240 + 231 CTAs)"},
    .ptx = ws_bench_ptx_srad1,
    .run = srad1_run,
};
