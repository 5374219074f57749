/*
 * streamcluster/host.c -- host driver of the streamcluster benchmark: a
 * sequence of "pgain" evaluations of streaming k-median clustering.
 *
 * n weighted points in dim dimensions are drawn around 8 cluster means
 * (coordinates in about [0, 1), weights uniform in [0.5, 1.5)); clustering
 * starts with 2 open centres, every point assigned to the nearer one with
 * cost weight * squared distance.  The facility cost z is a fixed fraction
 * of that initial total cost.  For each of `ncand` candidate points x the
 * host launches pgain (one thread per point), adds the per-CTA partial
 * sums in double and applies the usual rule: every open centre c whose
 * closing saves z + sum(work[.][c]) > 0 is marked for closing; if
 * z + sum(work[.][opening]) - savings < 0, x is opened, the marked
 * centres are closed, and every point that switches or belonged to a
 * closed centre is reassigned to x (at most 6 open centres: a candidate
 * that would exceed that is rejected).  n is not a multiple of the CTA.
 *
 * Verification, every launch, against a CPU evaluation of the same state:
 * the switch flags exactly (the CPU computes each point's cost with the
 * same float operations, fused multiply-add included, so the comparisons
 * agree bit for bit), and every CTA's partial sum per slot with tolerance
 * 1e-5 * sum of the magnitudes of its terms (float tree sum against a
 * double sum).  Flags are pre-filled with -1 and partials with NaN.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

extern const char ws_bench_ptx_streamcluster[];

#define SC_THREADS 256 /* 8 warps per CTA, as kernel.cu */
#define SC_MAX_SLOTS 7 /* as kernel.cu: at most 6 open centres */
#define SC_MAX_DIM 32  /* as kernel.cu */
#define SC_CLUSTERS 8  /* cluster means the points are drawn around */

static const struct {
	int n, dim, ncand;
} sc_sizes[WS_SIZE_COUNT] = {
    {300, 8, 1},      /* 2 CTAs, the second partial; 1 launch */
    {2500, 8, 3},     /* 10 CTAs; 3 launches */
    {46000, 32, 3},   /* 180 CTAs (3 waves of 4 CTAs/SM on 15 SMs); 3 launches */
    {32700, 32, 140}, /* paper-kaws: 128 CTAs x 140 launches (KAWS Table 2's SC) */
};

/* weight * squared distance of point i to point x, as the kernel computes it */
static float sc_cost(const float *coord, const float *weight, int n, int dim, int i, int x)
{
	float d2 = 0.0f;
	for (int k = 0; k < dim; k++) {
		float diff = coord[(size_t)k * n + i] - coord[(size_t)k * n + x];
		d2 = fmaf(diff, diff, d2);
	}
	return d2 * weight[i];
}

static ws_result streamcluster_run(ws_sim *sim, ws_module *mod, enum ws_bench_size size, struct ws_bench_out *out)
{
	if ((unsigned)size >= WS_SIZE_COUNT)
		return bench_fail(NULL, out, WS_ERROR_INVALID_VALUE, "streamcluster: size");
	ws_result rc = WS_SUCCESS;
	int n = sc_sizes[size].n, dim = sc_sizes[size].dim, ncand = sc_sizes[size].ncand;
	int nblk = (n + SC_THREADS - 1) / SC_THREADS;
	size_t pts = (size_t)n;
	float *coord = malloc(pts * dim * sizeof(float)), *weight = malloc(pts * sizeof(float));
	float *cost = malloc(pts * sizeof(float)), *xc = malloc(pts * sizeof(float));
	int *assign = malloc(pts * sizeof(int)), *sw = malloc(pts * sizeof(int));
	float *work = malloc((size_t)nblk * SC_MAX_SLOTS * sizeof(float));
	int centre[SC_MAX_SLOTS], ncent = 2, opened = 0, closed = 0;
	ws_deviceptr d[6]; /* coord, weight, cost, assign, sw, work */
	const size_t d_bytes[6] = {pts * dim * sizeof(float), pts * sizeof(float),
	                           pts * sizeof(float),       pts * sizeof(int),
	                           pts * sizeof(int),         (size_t)nblk * SC_MAX_SLOTS * sizeof(float)};
	int nd = 0;
	ws_function *fn;

	if (!coord || !weight || !cost || !xc || !assign || !sw || !work) {
		rc = bench_fail(NULL, out, WS_ERROR_OUT_OF_MEMORY, "streamcluster: host buffers");
		goto done;
	}
	struct bench_rng rng;
	bench_rng_seed(&rng, 47);
	float mean[SC_CLUSTERS][SC_MAX_DIM];
	for (int c = 0; c < SC_CLUSTERS; c++)
		for (int k = 0; k < dim; k++)
			mean[c][k] = bench_rng_float(&rng, 0.1f, 0.9f);
	for (int i = 0; i < n; i++) {
		int c = (int)bench_rng_u32(&rng, SC_CLUSTERS);
		for (int k = 0; k < dim; k++)
			coord[(size_t)k * n + i] = mean[c][k] + bench_rng_float(&rng, -0.1f, 0.1f);
		weight[i] = bench_rng_float(&rng, 0.5f, 1.5f);
	}
	/* two initial centres; every point to the nearer one */
	centre[0] = (int)bench_rng_u32(&rng, (uint32_t)n);
	do
		centre[1] = (int)bench_rng_u32(&rng, (uint32_t)n);
	while (centre[1] == centre[0]);
	double total = 0.0;
	for (int i = 0; i < n; i++) {
		float c0 = sc_cost(coord, weight, n, dim, i, centre[0]),
		      c1 = sc_cost(coord, weight, n, dim, i, centre[1]);
		assign[i] = c1 < c0 ? 1 : 0;
		cost[i] = c1 < c0 ? c1 : c0;
		total += cost[i];
	}
	const double z = total / 8.0; /* facility cost */

	BENCH_CALL(wsModuleGetFunction(&fn, mod, "pgain"));
	for (; nd < 6; nd++)
		BENCH_CALL(wsMemAlloc(sim, &d[nd], d_bytes[nd]));
	BENCH_CALL(wsMemcpyHtoD(sim, d[0], coord, d_bytes[0]));
	BENCH_CALL(wsMemcpyHtoD(sim, d[1], weight, d_bytes[1]));
	for (int cand_no = 0; cand_no < ncand; cand_no++) {
		int x = (int)bench_rng_u32(&rng, (uint32_t)n), nslots = ncent + 1;
		BENCH_CALL(wsMemcpyHtoD(sim, d[2], cost, d_bytes[2]));
		BENCH_CALL(wsMemcpyHtoD(sim, d[3], assign, d_bytes[3]));
		BENCH_CALL(wsMemsetD32(sim, d[4], 0xffffffffu, pts));                         /* -1: unwritten flag */
		BENCH_CALL(wsMemsetD32(sim, d[5], 0x7fc00000u, (size_t)nblk * SC_MAX_SLOTS)); /* NaN */
		void *args[] = {&d[0], &d[1], &d[2], &d[3], &n, &dim, &ncent, &x, &d[4], &d[5]};
		BENCH_CALL(wsLaunchKernel(fn, (unsigned)nblk, 1, 1, SC_THREADS, 1, 1, 0, args));
		out->launches++;
		BENCH_CALL(wsMemcpyDtoH(sim, sw, d[4], d_bytes[4]));
		BENCH_CALL(wsMemcpyDtoH(sim, work, d[5], (size_t)nblk * nslots * sizeof(float)));

		/* CPU reference of this evaluation, CTA by CTA */
		double slot_sum[SC_MAX_SLOTS] = {0};
		for (int b = 0; b < nblk; b++) {
			double es[SC_MAX_SLOTS] = {0}, mag[SC_MAX_SLOTS] = {0};
			for (int i = b * SC_THREADS; i < n && i < (b + 1) * SC_THREADS; i++) {
				xc[i] = sc_cost(coord, weight, n, dim, i, x);
				int want = xc[i] < cost[i];
				if (sw[i] != want) {
					rc = bench_mismatch(
					    out,
					    "streamcluster: sw[%d] (candidate %d, launch %d; cost %.9g, via "
					    "candidate %.9g): expected %d, got %d",
					    i, x, cand_no, (double)cost[i], (double)xc[i], want, sw[i]);
					goto done;
				}
				int s = want ? ncent : assign[i];
				double t = want ? (double)(xc[i] - cost[i]) : (double)(cost[i] - xc[i]);
				es[s] += t;
				mag[s] += fabs(t);
			}
			for (int s = 0; s < nslots; s++) {
				float got = work[(size_t)b * nslots + s];
				if (!bench_close(es[s], got, 1e-5, 1e-5 * mag[s] + 1e-30)) {
					rc = bench_mismatch(
					    out,
					    "streamcluster: work[%zu] (CTA %d, %s %d, launch %d): expected %.9g, "
					    "got %.9g",
					    (size_t)b * nslots + s, b, s == ncent ? "opening slot" : "centre", s,
					    cand_no, es[s], (double)got);
					goto done;
				}
				slot_sum[s] += got;
			}
		}

		/* the host's decision from the device's partial sums */
		double open_cost = z + slot_sum[ncent];
		int close[SC_MAX_SLOTS] = {0}, nclose = 0;
		for (int c = 0; c < ncent; c++) {
			double low = z + slot_sum[c];
			if (low > 0.0) {
				close[c] = 1;
				nclose++;
				open_cost -= low;
			}
		}
		if (!(open_cost < 0.0) || ncent - nclose + 1 > SC_MAX_SLOTS - 1)
			continue;
		int remap[SC_MAX_SLOTS], kept = 0;
		for (int c = 0; c < ncent; c++) {
			remap[c] = close[c] ? -1 : kept;
			if (!close[c])
				centre[kept++] = centre[c];
		}
		centre[kept] = x;
		for (int i = 0; i < n; i++) {
			if (sw[i] || close[assign[i]]) {
				assign[i] = kept;
				cost[i] = xc[i];
			} else {
				assign[i] = remap[assign[i]];
			}
		}
		ncent = kept + 1;
		opened++;
		closed += nclose;
	}
	snprintf(out->msg, sizeof out->msg,
	         "streamcluster: %d points x %d dims, %d candidate evaluation(s) verified (%d opened, %d centres "
	         "closed, %d open)",
	         n, dim, ncand, opened, closed, ncent);
done:
	while (nd > 0)
		wsMemFree(sim, d[--nd]);
	free(coord);
	free(weight);
	free(cost);
	free(xc);
	free(assign);
	free(sw);
	free(work);
	return rc;
}

const struct ws_bench_info bench_streamcluster = {
    .name = "streamcluster",
    .description = "streaming k-median pgain: per-point cost change of switching to a candidate centre, "
                   "per-CTA shared-memory reduction per centre",
    .sync = "lightly synchronized: 10 __syncthreads per CTA (candidate staging, tree reduction levels)",
    .paper = "BAWS 6.5, KAWS",
    .ctas_per_sm = 0,
    .warps_per_cta = SC_THREADS / 32,
    .sizes = {"300 points x 8 dims, 1 candidate (2 CTAs)", "2500 points x 8 dims, 3 candidates (10 CTAs per launch)",
              "46,000 points x 32 dims, 3 candidates (180 CTAs per launch)",
              "32,700 points x 32 dims, 140 candidates (128 CTAs x 140 launches: the KAWS paper's SC)"},
    .ptx = ws_bench_ptx_streamcluster,
    .run = streamcluster_run,
};
