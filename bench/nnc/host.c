/*
 * nnc/host.c -- host driver of the nnc benchmark (the DWR paper's NNC):
 * the k nearest hurricane records to a query point, the records held as
 * fixed-length text lines that the GPU parses.
 *
 * The records come in NNC_WINDOWS windows (the early Rodinia nn reads its
 * database files a window at a time): for each window the host copies its
 * text to the device, launches the kernel (one thread per record, 16-thread
 * CTAs), copies back the distances and parsed coordinates and merges the
 * window's k nearest into the running k nearest.  Coordinates are uniform
 * in [-90, 90) x [-180, 180) with four decimals, so the fields have
 * different numbers of digits and signs (the kernel's digit scan diverges);
 * the query is (30, 90), the point the Rodinia nn runs use.
 *
 * Verification: every parsed coordinate must equal the value the host
 * wrote into the text (an integer count of 1e-4 degrees times 1e-4f) and
 * every distance the CPU's evaluation of the same float expression, bit for
 * bit; the device buffers are pre-filled with NaN to catch unwritten
 * records.  The k records selected from the device distances must then be
 * the CPU reference's k nearest over all windows, in order (ties broken by
 * record index).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "nn_dist.h"

extern const char ws_bench_ptx_nnc[];

#define NNC_THREADS 16 /* as kernel.cu */
#define NNC_REC_LEN 49
#define NNC_LAT_POS 28 /* "%8.4f" */
#define NNC_LNG_POS 37 /* "%9.4f" */
#define NNC_WINDOWS 4
#define NNC_MAX_K 16

static const struct {
	int per_window, k; /* records per window (each window one launch) */
} nnc_sizes[WS_SIZE_COUNT] = {
    {100, 5},    /* 4 launches of 7 CTAs, the last partial */
    {1500, 10},  /* 4 launches of 94 CTAs */
    {15000, 10}, /* 4 launches of 938 CTAs: Table 1's 4 x (938) of 16 threads */
};

static const char *const nnc_names[] = {"ALICE", "BERTHA", "CAROL", "DIANE", "EDNA", "FLORA", "GLADYS", "HILDA"};

/* Right-aligned "%w.4f" text of v / 10^4 (v an integer), written without a
 * float conversion so the text is exactly v. */
static void nnc_put_field(char *dst, int w, int v)
{
	char buf[24];
	int a = v < 0 ? -v : v;
	int len = snprintf(buf, sizeof buf, "%s%d.%04d", v < 0 ? "-" : "", a / 10000, a % 10000);
	memset(dst, ' ', (size_t)(w - len));
	memcpy(dst + w - len, buf, (size_t)len);
}

static void nnc_put_record(char *r, struct bench_rng *rng, int lat, int lng)
{
	char head[NNC_LAT_POS + 1];
	snprintf(head, sizeof head, "%4u %02u %02u %02u %02u %-10s ", 1950 + bench_rng_u32(rng, 60),
	         1 + bench_rng_u32(rng, 12), 1 + bench_rng_u32(rng, 28), 6 * bench_rng_u32(rng, 4),
	         1 + bench_rng_u32(rng, 30), nnc_names[bench_rng_u32(rng, 8)]);
	memcpy(r, head, NNC_LAT_POS);
	nnc_put_field(r + NNC_LAT_POS, 8, lat);
	r[NNC_LAT_POS + 8] = ' ';
	nnc_put_field(r + NNC_LNG_POS, 9, lng);
	r[NNC_LNG_POS + 9] = ' ';
	r[NNC_LNG_POS + 10] = (char)('0' + bench_rng_u32(rng, 6));
	r[NNC_REC_LEN - 1] = '\n';
}

/* Insert record i (distance di) into the ascending k-list idx/d of `have`
 * entries; ties go to the lower index (records are offered in index order). */
static void nnc_offer(int *idx, float *d, int *have, int k, int i, float di)
{
	if (*have == k && !(di < d[k - 1]))
		return;
	int pos = *have < k ? (*have)++ : k - 1;
	while (pos > 0 && di < d[pos - 1]) {
		idx[pos] = idx[pos - 1];
		d[pos] = d[pos - 1];
		pos--;
	}
	idx[pos] = i;
	d[pos] = di;
}

static ws_result nnc_run(ws_sim *sim, ws_module *mod, enum ws_bench_size size, struct ws_bench_out *out)
{
	if ((unsigned)size >= WS_SIZE_COUNT)
		return bench_fail(NULL, out, WS_ERROR_INVALID_VALUE, "nnc: size");
	ws_result rc = WS_SUCCESS;
	int w = nnc_sizes[size].per_window, k = nnc_sizes[size].k, total = NNC_WINDOWS * w;
	const size_t d_bytes[3] = {(size_t)w * NNC_REC_LEN, (size_t)w * sizeof(float), (size_t)w * 2 * sizeof(float)};
	char *text = malloc((size_t)total * NNC_REC_LEN);
	int *coord = malloc((size_t)total * 2 * sizeof(int)); /* lat, lng in 1e-4 degrees */
	float *dist = malloc(d_bytes[1]), *loc = malloc(d_bytes[2]);
	int got_idx[NNC_MAX_K], ref_idx[NNC_MAX_K], got_n = 0, ref_n = 0;
	float got_d[NNC_MAX_K], ref_d[NNC_MAX_K];
	ws_deviceptr d[3]; /* window text, distances, parsed (lat, lng) */
	int nd = 0;
	ws_function *fn;
	const float qlat = 30.0f, qlng = 90.0f;

	if (!text || !coord || !dist || !loc) {
		rc = bench_fail(NULL, out, WS_ERROR_OUT_OF_MEMORY, "nnc: host buffers");
		goto done;
	}
	struct bench_rng rng;
	bench_rng_seed(&rng, 43);
	for (int i = 0; i < total; i++) {
		coord[2 * i] = (int)bench_rng_u32(&rng, 1800000) - 900000;
		coord[2 * i + 1] = (int)bench_rng_u32(&rng, 3600000) - 1800000;
		nnc_put_record(text + (size_t)i * NNC_REC_LEN, &rng, coord[2 * i], coord[2 * i + 1]);
	}

	BENCH_CALL(wsModuleGetFunction(&fn, mod, "nnc"));
	for (; nd < 3; nd++)
		BENCH_CALL(wsMemAlloc(sim, &d[nd], d_bytes[nd]));
	for (int win = 0; win < NNC_WINDOWS; win++) {
		int base = win * w;
		BENCH_CALL(wsMemcpyHtoD(sim, d[0], text + (size_t)base * NNC_REC_LEN, d_bytes[0]));
		BENCH_CALL(wsMemsetD32(sim, d[1], 0x7fc00000u, (size_t)w)); /* NaN: catches unwritten records */
		BENCH_CALL(wsMemsetD32(sim, d[2], 0x7fc00000u, (size_t)w * 2));
		void *args[] = {&d[0], &d[1], &d[2], &w, (void *)&qlat, (void *)&qlng};
		BENCH_CALL(wsLaunchKernel(fn, (unsigned)((w + NNC_THREADS - 1) / NNC_THREADS), 1, 1, NNC_THREADS, 1, 1,
		                          0, args));
		out->launches++;
		BENCH_CALL(wsMemcpyDtoH(sim, dist, d[1], d_bytes[1]));
		BENCH_CALL(wsMemcpyDtoH(sim, loc, d[2], d_bytes[2]));
		for (int j = 0; j < w; j++) {
			int i = base + j;
			float lat = (float)coord[2 * i] * 1e-4f, lng = (float)coord[2 * i + 1] * 1e-4f;
			float ref = nn_distance(lat, lng, qlat, qlng);
			if (nn_bits(loc[2 * j]) != nn_bits(lat) || nn_bits(loc[2 * j + 1]) != nn_bits(lng)) {
				rc = bench_mismatch(
				    out, "nnc: record %d (\"%.46s\"): parsed (%.9g, %.9g), expected (%.9g, %.9g)", i,
				    text + (size_t)i * NNC_REC_LEN, (double)loc[2 * j], (double)loc[2 * j + 1],
				    (double)lat, (double)lng);
				goto done;
			}
			if (nn_bits(ref) != nn_bits(dist[j])) {
				rc =
				    bench_mismatch(out,
				                   "nnc: dist[%d] (record %.6g, %.6g; query %.6g, %.6g): expected %.9g "
				                   "(0x%08x), got %.9g (0x%08x)",
				                   i, (double)lat, (double)lng, (double)qlat, (double)qlng, (double)ref,
				                   (unsigned)nn_bits(ref), (double)dist[j], (unsigned)nn_bits(dist[j]));
				goto done;
			}
			nnc_offer(got_idx, got_d, &got_n, k, i, dist[j]);
			nnc_offer(ref_idx, ref_d, &ref_n, k, i, ref);
		}
	}
	for (int j = 0; j < k; j++) {
		if (got_idx[j] != ref_idx[j]) {
			rc = bench_mismatch(out,
			                    "nnc: neighbour %d of %d: expected record %d (dist %.9g), got record %d", j,
			                    k, ref_idx[j], (double)ref_d[j], got_idx[j]);
			goto done;
		}
	}
	snprintf(
	    out->msg, sizeof out->msg,
	    "nnc: %d records in %d windows parsed and distances bit-exact, %d nearest (record %d at %.6g) verified",
	    total, NNC_WINDOWS, k, ref_idx[0], (double)ref_d[0]);
done:
	while (nd > 0)
		wsMemFree(sim, d[--nd]);
	free(text);
	free(coord);
	free(dist);
	free(loc);
	return rc;
}

const struct ws_bench_info bench_nnc = {
    .name = "nnc",
    .description = "nearest hurricane records to a query: the GPU parses fixed-length text records and computes "
                   "distances, one launch per window of records; the host keeps the k nearest",
    .sync = "none (one independent thread per record); divergent digit scan",
    .paper = "DWR (NNC)",
    .ctas_per_sm = 0,
    .warps_per_cta = 1,
    .sizes = {"4 windows of 100 records, k=5 (4 x 7 CTAs of 16)", "4 x 1500 records, k=10 (4 x 94 CTAs of 16)",
              "4 x 15,000 records, k=10 (4 x 938 CTAs of 16)"},
    .ptx = ws_bench_ptx_nnc,
    .run = nnc_run,
};
