/*
 * mriq/host.c -- host driver of MRI-Q (Parboil's mri-q, our own code):
 * Q(x) = sum_k |phi(k)|^2 exp(i 2 pi k.x) for numX voxels and numK k-space
 * samples, as Parboil runs it: mriq_phimag on the device, phiMag copied
 * back and packed with the trajectory into (kx, ky, kz, phiMag) records,
 * then mriq_q once per chunk of MRIQ_CHUNK samples with the chunk copied
 * into constant memory (c_kvals) before each launch.  Qr, Qi start at 0
 * and accumulate across launches.
 *
 * Inputs from a fixed seed: trajectory and voxel coordinates uniform in
 * [-0.5, 0.5), phi uniform in [-1, 1), so |2 pi k.x| < 4.8 rad.
 *
 * Verification: phiMag[k] against r*r + i*i (relative 1e-6: one fused
 * rounding); Qr, Qi against sums in double of the device's phiMag with
 * libm cos/sin.  Tolerance: sum_k phiMag_k * (1e-5 + 1.2e-7 * numK): the
 * argument's float rounding and the sin/cos approximation (~1e-6 rad each)
 * per term, plus the float accumulation bound numK * 2^-24 * sum|terms|.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"

extern const char ws_bench_ptx_mriq[];

#define MRIQ_PHI_THREADS 512 /* as kernel.cu */
#define MRIQ_Q_THREADS 256
#define MRIQ_CHUNK 256

static const struct {
	int numx, numk;
} mriq_sizes[WS_SIZE_COUNT] = {
    {400, 300},   /* 2 CTAs x 2 chunks */
    {4000, 700},  /* 16 CTAs x 3 chunks */
    {32768, 768}, /* 128 CTAs x 3 chunks, the paper's 128 CTAs per kernel */
};

struct mriq_kval {
	float kx, ky, kz, phimag;
};

static ws_result mriq_run(ws_sim *sim, ws_module *mod, enum ws_bench_size size, struct ws_bench_out *out)
{
	if ((unsigned)size >= WS_SIZE_COUNT)
		return bench_fail(NULL, out, WS_ERROR_INVALID_VALUE, "mriq: size");
	ws_result rc = WS_SUCCESS;
	int numx = mriq_sizes[size].numx, numk = mriq_sizes[size].numk;
	/* host arrays: kx ky kz phiR phiI phiMag (numk), x y z Qr Qi (numx) */
	float *h[11] = {0};
	ws_deviceptr d[8]; /* phiR phiI phiMag x y z Qr Qi */
	int nd = 0;
	struct mriq_kval *kv = malloc(MRIQ_CHUNK * sizeof *kv);
	ws_function *fphi, *fq;

	for (int m = 0; m < 11; m++) {
		if (!(h[m] = malloc((size_t)(m < 6 ? numk : numx) * sizeof(float)))) {
			rc = bench_fail(NULL, out, WS_ERROR_OUT_OF_MEMORY, "mriq: host buffers");
			goto done;
		}
	}
	if (!kv) {
		rc = bench_fail(NULL, out, WS_ERROR_OUT_OF_MEMORY, "mriq: host buffers");
		goto done;
	}
	float *kx = h[0], *ky = h[1], *kz = h[2], *phr = h[3], *phi = h[4], *mag = h[5];
	float *x = h[6], *y = h[7], *z = h[8], *qr = h[9], *qi = h[10];
	struct bench_rng rng;
	bench_rng_seed(&rng, 1201);
	for (int k = 0; k < numk; k++) {
		kx[k] = bench_rng_float(&rng, -0.5f, 0.5f);
		ky[k] = bench_rng_float(&rng, -0.5f, 0.5f);
		kz[k] = bench_rng_float(&rng, -0.5f, 0.5f);
		phr[k] = bench_rng_float(&rng, -1.0f, 1.0f);
		phi[k] = bench_rng_float(&rng, -1.0f, 1.0f);
	}
	for (int i = 0; i < numx; i++) {
		x[i] = bench_rng_float(&rng, -0.5f, 0.5f);
		y[i] = bench_rng_float(&rng, -0.5f, 0.5f);
		z[i] = bench_rng_float(&rng, -0.5f, 0.5f);
	}

	BENCH_CALL(wsModuleGetFunction(&fphi, mod, "mriq_phimag"));
	BENCH_CALL(wsModuleGetFunction(&fq, mod, "mriq_q"));
	for (; nd < 8; nd++)
		BENCH_CALL(wsMemAlloc(sim, &d[nd], (size_t)(nd < 3 ? numk : numx) * sizeof(float)));
	BENCH_CALL(wsMemcpyHtoD(sim, d[0], phr, (size_t)numk * sizeof(float)));
	BENCH_CALL(wsMemcpyHtoD(sim, d[1], phi, (size_t)numk * sizeof(float)));
	BENCH_CALL(wsMemsetD32(sim, d[2], 0x7fc00000u, (size_t)numk)); /* NaN: catches unwritten results */
	BENCH_CALL(wsMemcpyHtoD(sim, d[3], x, (size_t)numx * sizeof(float)));
	BENCH_CALL(wsMemcpyHtoD(sim, d[4], y, (size_t)numx * sizeof(float)));
	BENCH_CALL(wsMemcpyHtoD(sim, d[5], z, (size_t)numx * sizeof(float)));
	BENCH_CALL(wsMemsetD32(sim, d[6], 0, (size_t)numx));
	BENCH_CALL(wsMemsetD32(sim, d[7], 0, (size_t)numx));
	{
		void *args[] = {&d[0], &d[1], &d[2], &numk};
		BENCH_CALL(wsLaunchKernel(fphi, (unsigned)((numk + MRIQ_PHI_THREADS - 1) / MRIQ_PHI_THREADS), 1, 1,
		                          MRIQ_PHI_THREADS, 1, 1, 0, args));
		out->launches++;
	}
	BENCH_CALL(wsMemcpyDtoH(sim, mag, d[2], (size_t)numk * sizeof(float)));
	for (int k = 0; k < numk; k++) {
		double want = (double)phr[k] * phr[k] + (double)phi[k] * phi[k];
		if (!bench_close(want, mag[k], 1e-6, 1e-7)) {
			rc = bench_mismatch(out, "mriq: phiMag[%d] (mriq_phimag, %d samples): expected %.9g, got %.9g", k,
			                    numk, want, (double)mag[k]);
			goto done;
		}
	}
	for (int k0 = 0; k0 < numk; k0 += MRIQ_CHUNK) {
		int n = numk - k0 < MRIQ_CHUNK ? numk - k0 : MRIQ_CHUNK;
		for (int k = 0; k < n; k++)
			kv[k] = (struct mriq_kval){kx[k0 + k], ky[k0 + k], kz[k0 + k], mag[k0 + k]};
		BENCH_CALL(wsMemcpyToSymbol(mod, "c_kvals", kv, (size_t)n * sizeof *kv, 0));
		void *args[] = {&n, &numx, &d[3], &d[4], &d[5], &d[6], &d[7]};
		BENCH_CALL(wsLaunchKernel(fq, (unsigned)((numx + MRIQ_Q_THREADS - 1) / MRIQ_Q_THREADS), 1, 1,
		                          MRIQ_Q_THREADS, 1, 1, 0, args));
		out->launches++;
	}
	BENCH_CALL(wsMemcpyDtoH(sim, qr, d[6], (size_t)numx * sizeof(float)));
	BENCH_CALL(wsMemcpyDtoH(sim, qi, d[7], (size_t)numx * sizeof(float)));

	double summag = 0.0;
	for (int k = 0; k < numk; k++)
		summag += mag[k];
	double tol = summag * (1e-5 + 1.2e-7 * numk);
	for (int i = 0; i < numx; i++) {
		double sr = 0.0, si = 0.0;
		for (int k = 0; k < numk; k++) {
			double arg = 2.0 * M_PI * ((double)kx[k] * x[i] + (double)ky[k] * y[i] + (double)kz[k] * z[i]);
			sr += mag[k] * cos(arg);
			si += mag[k] * sin(arg);
		}
		if (!bench_close(sr, qr[i], 0.0, tol) || !bench_close(si, qi[i], 0.0, tol)) {
			int re = !bench_close(sr, qr[i], 0.0, tol);
			rc = bench_mismatch(out, "mriq: %s[%d] (%d voxels, %d samples in %d-sample launches): expected %.9g, "
			                    "got %.9g (tolerance %.3g)",
			                    re ? "Qr" : "Qi", i, numx, numk, MRIQ_CHUNK, re ? sr : si,
			                    (double)(re ? qr[i] : qi[i]), tol);
			goto done;
		}
	}
	snprintf(out->msg, sizeof out->msg, "mriq: Q of %d voxels over %d k-space samples verified", numx, numk);
done:
	while (nd > 0)
		wsMemFree(sim, d[--nd]);
	for (int m = 0; m < 11; m++)
		free(h[m]);
	free(kv);
	return rc;
}

const struct ws_bench_info bench_mriq = {
    .name = "mriq",
    .description = "MRI-Q (Parboil): phiMag kernel, then Q = sum_k |phi|^2 exp(i 2 pi k.x) per voxel, one launch "
                   "per 256-sample chunk of k-space held in constant memory",
    .sync = "none; launch boundaries order the chunks (Qr, Qi accumulate across launches)",
    .paper = "KAWS (MRI)",
    .ctas_per_sm = 0,
    .warps_per_cta = MRIQ_Q_THREADS / 32,
    .sizes = {"400 voxels, 300 samples (1 + 2 CTAs x 2 launches)",
              "4000 voxels, 700 samples (2 + 16 CTAs x 3 launches)",
              "32,768 voxels, 768 samples (2 + 128 CTAs x 3 launches: 4 kernels, 128 CTAs per mriq_q)"},
    .ptx = ws_bench_ptx_mriq,
    .run = mriq_run,
};
