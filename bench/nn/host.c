/*
 * nn/host.c -- host driver of the nn benchmark: k nearest neighbours of a
 * query point among n (latitude, longitude) records.
 *
 * The kernel computes every record's Euclidean distance to the query (one
 * thread per record); the host then selects the k smallest distances, as
 * the usual CUDA nearest-neighbour program does.  Records are uniform in
 * [-90, 90) x [-180, 180); n is not a multiple of the 256-thread CTA, so
 * the last CTA is partial.
 *
 * Verification: the CPU evaluates the same float expression (no fused
 * multiply-add on either side), so every distance must match bit for bit;
 * the distance buffer is pre-filled with NaN to catch unwritten records.
 * The k records the host selects from the device distances must then be
 * the CPU reference's k nearest, in order (ties broken by record index).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "nn_dist.h"

extern const char ws_bench_ptx_nn[];

#define NN_THREADS 256 /* 8 warps per CTA, as kernel.cu */
#define NN_MAX_K 16

static const struct {
	int n, k;
} nn_sizes[WS_SIZE_COUNT] = {
    {1000, 5},    /* 4 CTAs, the last partial */
    {10000, 10},  /* 40 CTAs */
    {115000, 10}, /* 450 CTAs (5 waves of 6 CTAs/SM on 15 SMs) */
};

/* Indices of the k smallest d[i], ascending; ties go to the lower index. */
static void nn_select(const float *d, int n, int k, int *idx)
{
	int have = 0;
	for (int i = 0; i < n; i++) {
		if (have == k && !(d[i] < d[idx[k - 1]]))
			continue;
		int pos = have < k ? have++ : k - 1;
		while (pos > 0 && d[i] < d[idx[pos - 1]]) {
			idx[pos] = idx[pos - 1];
			pos--;
		}
		idx[pos] = i;
	}
}

static ws_result nn_run(ws_sim *sim, ws_module *mod, enum ws_bench_size size, struct ws_bench_out *out)
{
	if ((unsigned)size >= WS_SIZE_COUNT)
		return bench_fail(NULL, out, WS_ERROR_INVALID_VALUE, "nn: size");
	ws_result rc = WS_SUCCESS;
	int n = nn_sizes[size].n, k = nn_sizes[size].k;
	const size_t d_bytes[2] = {(size_t)n * 2 * sizeof(float), (size_t)n * sizeof(float)};
	float *rec = malloc(d_bytes[0]), *dist = malloc(d_bytes[1]), *ref = malloc(d_bytes[1]);
	int got_idx[NN_MAX_K], ref_idx[NN_MAX_K];
	ws_deviceptr d[2]; /* records, distances */
	int nd = 0;
	ws_function *fn;

	if (!rec || !dist || !ref) {
		rc = bench_fail(NULL, out, WS_ERROR_OUT_OF_MEMORY, "nn: host buffers");
		goto done;
	}
	struct bench_rng rng;
	bench_rng_seed(&rng, 41);
	for (int i = 0; i < n; i++) {
		rec[2 * i] = bench_rng_float(&rng, -90.0f, 90.0f);
		rec[2 * i + 1] = bench_rng_float(&rng, -180.0f, 180.0f);
	}
	float qlat = bench_rng_float(&rng, -60.0f, 60.0f), qlng = bench_rng_float(&rng, -150.0f, 150.0f);

	BENCH_CALL(wsModuleGetFunction(&fn, mod, "nn"));
	for (; nd < 2; nd++)
		BENCH_CALL(wsMemAlloc(sim, &d[nd], d_bytes[nd]));
	BENCH_CALL(wsMemcpyHtoD(sim, d[0], rec, d_bytes[0]));
	BENCH_CALL(wsMemsetD32(sim, d[1], 0x7fc00000u, (size_t)n)); /* NaN: catches unwritten distances */
	void *args[] = {&d[0], &d[1], &n, &qlat, &qlng};
	BENCH_CALL(wsLaunchKernel(fn, (unsigned)((n + NN_THREADS - 1) / NN_THREADS), 1, 1, NN_THREADS, 1, 1, 0, args));
	out->launches++;
	BENCH_CALL(wsMemcpyDtoH(sim, dist, d[1], d_bytes[1]));

	for (int i = 0; i < n; i++) {
		ref[i] = nn_distance(rec[2 * i], rec[2 * i + 1], qlat, qlng);
		if (nn_bits(ref[i]) != nn_bits(dist[i])) {
			rc = bench_mismatch(
			    out,
			    "nn: dist[%d] (record %.6g, %.6g; query %.6g, %.6g): expected %.9g (0x%08x), "
			    "got %.9g (0x%08x)",
			    i, (double)rec[2 * i], (double)rec[2 * i + 1], (double)qlat, (double)qlng, (double)ref[i],
			    (unsigned)nn_bits(ref[i]), (double)dist[i], (unsigned)nn_bits(dist[i]));
			goto done;
		}
	}
	/* the host's selection from the device distances against the reference's */
	nn_select(dist, n, k, got_idx);
	nn_select(ref, n, k, ref_idx);
	for (int j = 0; j < k; j++) {
		if (got_idx[j] != ref_idx[j]) {
			rc =
			    bench_mismatch(out, "nn: neighbour %d of %d: expected record %d (dist %.9g), got record %d",
			                   j, k, ref_idx[j], (double)ref[ref_idx[j]], got_idx[j]);
			goto done;
		}
	}
	snprintf(out->msg, sizeof out->msg, "nn: %d distances bit-exact, %d nearest (record %d at %.6g) verified", n, k,
	         ref_idx[0], (double)ref[ref_idx[0]]);
done:
	while (nd > 0)
		wsMemFree(sim, d[--nd]);
	free(rec);
	free(dist);
	free(ref);
	return rc;
}

const struct ws_bench_info bench_nn = {
    .name = "nn",
    .description = "k-nearest-neighbour search: per-record distance to a query on the GPU, k smallest on the host",
    .sync = "none (one independent thread per record)",
    .paper = "BAWS 6.5 (the DWR paper's NNC is nnc)",
    .ctas_per_sm = 0,
    .warps_per_cta = NN_THREADS / 32,
    .sizes = {"1000 records, k=5 (4 CTAs)", "10,000 records, k=10 (40 CTAs)", "115,000 records, k=10 (450 CTAs)"},
    .ptx = ws_bench_ptx_nn,
    .run = nn_run,
};
