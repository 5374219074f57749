/*
 * kmeans/host.c -- host driver of the kmeans benchmark: `iters` iterations
 * of k-means clustering (Lloyd's algorithm) on npoints points with
 * nfeatures features.
 *
 * Points are drawn around nclusters random centres (each feature: centre
 * plus the sum of two uniforms in [-1, 1) times a spread), so clusters
 * overlap somewhat and memberships change over the iterations.  The initial
 * centroids are the points at indices i * npoints / nclusters.
 *
 * Each iteration: copy the centroids to the device, launch kmeans_assign (membership buffer filled with -1
 * first), read the memberships back and recompute each centroid as the
 * mean of its members (in double, rounded to float; an empty cluster keeps
 * its centroid).  A CPU run performs the same iterations independently with
 * the kernel's float arithmetic (fmaf in feature order), so the memberships
 * of every iteration must match exactly; the first difference is reported
 * with its iteration.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

extern const char ws_bench_ptx_kmeans[];

#define KM_THREADS 256     /* 8 warps per CTA, as kernel.cu */
#define KM_MAX_CLUSTERS 16 /* host-side bounds of the size table */
#define KM_MAX_FEATURES 16

static const struct {
	int npoints, nclusters, nfeatures, iters;
} km_sizes[WS_SIZE_COUNT] = {
    {540, 3, 3, 2},   /* 3 CTAs x 2 launches */
    {2560, 4, 5, 3},  /* 10 CTAs x 3 launches */
    {69000, 5, 8, 2}, /* 270 CTAs (3 waves of 6 CTAs/SM on 15 SMs) x 2 launches */
};

/* nearest centroid of every point, exactly as the kernel computes it */
static void km_assign_cpu(const float *feat, const float *cent, int *memb, int np, int nc, int nf)
{
	for (int p = 0; p < np; p++) {
		int best = 0;
		float best_d = 3.402823466e38f;
		for (int k = 0; k < nc; k++) {
			float d = 0.0f;
			for (int f = 0; f < nf; f++) {
				float diff = feat[(size_t)f * np + p] - cent[k * nf + f];
				d = fmaf(diff, diff, d);
			}
			if (d < best_d) {
				best_d = d;
				best = k;
			}
		}
		memb[p] = best;
	}
}

/* centroids = mean of their members; an empty cluster keeps its centroid */
static void km_update(const float *feat, const int *memb, float *cent, int np, int nc, int nf)
{
	double sum[KM_MAX_CLUSTERS * KM_MAX_FEATURES] = {0};
	int count[KM_MAX_CLUSTERS] = {0};
	for (int p = 0; p < np; p++) {
		count[memb[p]]++;
		for (int f = 0; f < nf; f++)
			sum[memb[p] * nf + f] += feat[(size_t)f * np + p];
	}
	for (int k = 0; k < nc; k++)
		if (count[k])
			for (int f = 0; f < nf; f++)
				cent[k * nf + f] = (float)(sum[k * nf + f] / count[k]);
}

static ws_result kmeans_run(ws_sim *sim, ws_module *mod, enum ws_bench_size size, struct ws_bench_out *out)
{
	if ((unsigned)size >= WS_SIZE_COUNT)
		return bench_fail(NULL, out, WS_ERROR_INVALID_VALUE, "kmeans: size");
	ws_result rc = WS_SUCCESS;
	int np = km_sizes[size].npoints, nc = km_sizes[size].nclusters, nf = km_sizes[size].nfeatures;
	int iters = km_sizes[size].iters;
	size_t feat_bytes = (size_t)np * nf * sizeof(float), memb_bytes = (size_t)np * sizeof(int);
	float *feat = malloc(feat_bytes);
	int *memb = malloc(memb_bytes), *expect = malloc(memb_bytes), *prev = malloc(memb_bytes);
	float cent[KM_MAX_CLUSTERS * KM_MAX_FEATURES], cent_cpu[KM_MAX_CLUSTERS * KM_MAX_FEATURES];
	float centre[KM_MAX_CLUSTERS * KM_MAX_FEATURES];
	ws_deviceptr d[3]; /* features, centroids, membership */
	int nd = 0;
	ws_function *fn;

	if (!feat || !memb || !expect || !prev) {
		rc = bench_fail(NULL, out, WS_ERROR_OUT_OF_MEMORY, "kmeans: host buffers");
		goto done;
	}
	struct bench_rng rng;
	bench_rng_seed(&rng, 35);
	for (int k = 0; k < nc * nf; k++)
		centre[k] = bench_rng_float(&rng, -4.0f, 4.0f);
	for (int p = 0; p < np; p++) {
		int k = (int)bench_rng_u32(&rng, (uint32_t)nc);
		for (int f = 0; f < nf; f++)
			feat[(size_t)f * np + p] = centre[k * nf + f] + 1.5f * (bench_rng_float(&rng, -1.0f, 1.0f) +
			                                                        bench_rng_float(&rng, -1.0f, 1.0f));
	}
	for (int k = 0; k < nc; k++)
		for (int f = 0; f < nf; f++)
			cent[k * nf + f] = cent_cpu[k * nf + f] = feat[(size_t)f * np + (size_t)k * np / nc];

	BENCH_CALL(wsModuleGetFunction(&fn, mod, "kmeans_assign"));
	BENCH_CALL(wsMemAlloc(sim, &d[nd++], feat_bytes));
	BENCH_CALL(wsMemAlloc(sim, &d[nd++], sizeof cent));
	BENCH_CALL(wsMemAlloc(sim, &d[nd++], memb_bytes));
	BENCH_CALL(wsMemcpyHtoD(sim, d[0], feat, feat_bytes));
	unsigned ctas = (unsigned)((np + KM_THREADS - 1) / KM_THREADS);
	int changed = 0;
	for (int it = 0; it < iters; it++) {
		BENCH_CALL(wsMemcpyHtoD(sim, d[1], cent, (size_t)nc * nf * sizeof(float)));
		BENCH_CALL(wsMemsetD32(sim, d[2], 0xffffffffu, (size_t)np)); /* -1: catches unwritten memberships */
		void *args[] = {&d[0], &d[1], &d[2], &np, &nc, &nf};
		BENCH_CALL(wsLaunchKernel(fn, ctas, 1, 1, KM_THREADS, 1, 1, 0, args));
		out->launches++;
		BENCH_CALL(wsMemcpyDtoH(sim, memb, d[2], memb_bytes));

		km_assign_cpu(feat, cent_cpu, expect, np, nc, nf);
		for (int p = 0; p < np; p++) {
			if (memb[p] != expect[p]) {
				rc = bench_mismatch(out,
				                    "kmeans: membership[%d] (iteration %d, %d points, %d clusters, %d "
				                    "features): expected %d, got %d",
				                    p, it, np, nc, nf, expect[p], memb[p]);
				goto done;
			}
		}
		if (it > 0)
			for (int p = 0; p < np; p++)
				changed += memb[p] != prev[p];
		memcpy(prev, memb, memb_bytes);
		km_update(feat, memb, cent, np, nc, nf);
		km_update(feat, expect, cent_cpu, np, nc, nf);
	}
	snprintf(out->msg, sizeof out->msg,
	         "kmeans: %d points, %d clusters, %d features, %d iterations verified (%d membership changes)", np, nc,
	         nf, iters, changed);
done:
	while (nd > 0)
		wsMemFree(sim, d[--nd]);
	free(feat);
	free(memb);
	free(expect);
	free(prev);
	return rc;
}

const struct ws_bench_info bench_kmeans = {
    .name = "kmeans",
    .description = "k-means clustering: nearest-centroid assignment per point on the GPU, centroid update on the host",
    .sync = "none in the kernel (kernel boundary per iteration); centroids read by every lane at the same address",
    .paper = "BAWS 6.5",
    .ctas_per_sm = 0,
    .warps_per_cta = KM_THREADS / 32,
    .sizes = {"540 points, 3 clusters, 3 features, 2 iterations (3 CTAs)",
              "2560 points, 4 clusters, 5 features, 3 iterations (10 CTAs)",
              "69,000 points, 5 clusters, 8 features, 2 iterations (270 CTAs)"},
    .ptx = ws_bench_ptx_kmeans,
    .run = kmeans_run,
};
