/*
 * bpt/host.c -- host driver of the B+tree query benchmark in the style of
 * Rodinia's b+tree (the KAWS paper's BT, 2 kernels): a tree bulk-loaded
 * from nkeys sorted distinct keys, then bpt_findk (Rodinia findK, one CTA
 * per point query) and bpt_findrange (Rodinia findRangeK, one CTA per
 * range query).  This is a different kernel from bench/bt (the BAWS
 * paper's BT, 4 queries per CTA).
 *
 * Tree (layout in kernel.cu): leaves hold 128..255 keys (the last may hold
 * fewer), inner nodes 128..256 children, built bottom-up; records[r] is
 * the value of the r-th smallest key.  Keys increase by 1..4, so about
 * one query key in three is absent.
 *
 * Queries: point queries are half present keys, half uniform over the key
 * range plus a margin on both sides; range queries [s, s + 0..600] start
 * uniform over the same extended range.
 *
 * Verification, exact: ans against binary search (value or -1; pre-filled
 * with -1); first = rank of the first key >= s, count = number of keys in
 * [s, e] (both pre-filled with INT_MIN so an unwritten result is caught).
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"

extern const char ws_bench_ptx_bpt[];

#define BPT_SLOTS 256 /* as kernel.cu: threads per CTA, key slots per node */
#define BPT_NODE_INTS (2 * BPT_SLOTS + 4)
#define BPT_IDX (BPT_SLOTS + 1)
#define BPT_NUM (2 * BPT_SLOTS + 2)
#define BPT_RANGE 600

static const struct {
	int nkeys, nfind, nrange;
} bpt_sizes[WS_SIZE_COUNT] = {
    {2000, 3, 2},           /* height 2; 3 + 2 CTAs */
    {50000, 40, 24},        /* height 3; 40 + 24 CTAs */
    {1000000, 10000, 6000}, /* height 3; 10,000 + 6,000 CTAs, Rodinia's command file sizes */
};

/* number of keys < q (lower bound) and <= q (upper bound) */
static int bpt_lower(const int *k, int n, int q)
{
	int lo = 0, hi = n;
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		if (k[mid] < q)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}
static int bpt_upper(const int *k, int n, int q)
{
	int lo = 0, hi = n;
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		if (k[mid] <= q)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Bulk-load the tree into nodes (capacity cap); returns the root, sets *height and *nnodes; -1 if cap is short. */
static int bpt_build(int *nodes, int cap, const int *keys, int nkeys, struct bench_rng *rng, int *height, int *nnodes,
                     int *minkey)
{
	int n = 0, level_lo = 0, level_n = 0;
	for (int first = 0; first < nkeys; n++, level_n++) {
		if (n >= cap)
			return -1;
		int num = 128 + (int)bench_rng_u32(rng, 128);
		if (num > nkeys - first)
			num = nkeys - first;
		int *nd = nodes + (size_t)n * BPT_NODE_INTS;
		for (int t = 0; t <= BPT_SLOTS; t++) {
			nd[t] = t < num ? keys[first + t] : INT_MAX;
			nd[BPT_IDX + t] = t <= num ? first + t : 0;
		}
		nd[BPT_NUM] = num;
		nd[BPT_NUM + 1] = 0;
		minkey[n] = keys[first];
		first += num;
	}
	*height = 1;
	while (level_n > 1) {
		int next_lo = n, next_n = 0;
		for (int c0 = 0; c0 < level_n; n++, next_n++) {
			if (n >= cap)
				return -1;
			int num = 128 + (int)bench_rng_u32(rng, 129);
			if (num > level_n - c0)
				num = level_n - c0;
			int *nd = nodes + (size_t)n * BPT_NODE_INTS;
			for (int t = 0; t <= BPT_SLOTS; t++) {
				nd[t] = t == 0 ? INT_MIN : t < num ? minkey[level_lo + c0 + t] : INT_MAX;
				nd[BPT_IDX + t] = t < num ? level_lo + c0 + t : 0;
			}
			nd[BPT_NUM] = num;
			nd[BPT_NUM + 1] = 0;
			minkey[n] = minkey[level_lo + c0];
			c0 += num;
		}
		level_lo = next_lo;
		level_n = next_n;
		(*height)++;
	}
	*nnodes = n;
	return level_lo;
}

static ws_result bpt_run(ws_sim *sim, ws_module *mod, enum ws_bench_size size, struct ws_bench_out *out)
{
	if ((unsigned)size >= WS_SIZE_COUNT)
		return bench_fail(NULL, out, WS_ERROR_INVALID_VALUE, "bpt: size");
	ws_result rc = WS_SUCCESS;
	int nkeys = bpt_sizes[size].nkeys, nfind = bpt_sizes[size].nfind, nrange = bpt_sizes[size].nrange;
	int cap = nkeys / 64 + 16, height = 0, nnodes = 0, root;
	int *keys = malloc((size_t)nkeys * sizeof(int)), *rec = malloc((size_t)nkeys * sizeof(int));
	int *nodes = malloc((size_t)cap * BPT_NODE_INTS * sizeof(int)), *minkey = malloc((size_t)cap * sizeof(int));
	int *q = malloc((size_t)nfind * sizeof(int)), *ans = malloc((size_t)nfind * sizeof(int));
	int *rs = malloc((size_t)nrange * sizeof(int)), *re = malloc((size_t)nrange * sizeof(int));
	int *first = malloc((size_t)nrange * sizeof(int)), *count = malloc((size_t)nrange * sizeof(int));
	ws_deviceptr d[8]; /* nodes records queries ans starts ends first count */
	int nd = 0;
	ws_function *ffind, *frange;

	if (!keys || !rec || !nodes || !minkey || !q || !ans || !rs || !re || !first || !count) {
		rc = bench_fail(NULL, out, WS_ERROR_OUT_OF_MEMORY, "bpt: host buffers");
		goto done;
	}
	struct bench_rng rng;
	bench_rng_seed(&rng, 1207);
	for (int i = 0; i < nkeys; i++) {
		keys[i] = (i ? keys[i - 1] : 0) + 1 + (int)bench_rng_u32(&rng, 4);
		rec[i] = (int)bench_rng_u32(&rng, 1u << 30);
	}
	root = bpt_build(nodes, cap, keys, nkeys, &rng, &height, &nnodes, minkey);
	if (root < 0) {
		rc = bench_fail(NULL, out, WS_ERROR_OUT_OF_MEMORY, "bpt: node capacity");
		goto done;
	}
	int span = keys[nkeys - 1] + 20;
	for (int i = 0; i < nfind; i++)
		q[i] = i % 2 ? keys[bench_rng_u32(&rng, (uint32_t)nkeys)] : (int)bench_rng_u32(&rng, (uint32_t)span) - 10;
	for (int i = 0; i < nrange; i++) {
		rs[i] = (int)bench_rng_u32(&rng, (uint32_t)span) - 10;
		re[i] = rs[i] + (int)bench_rng_u32(&rng, BPT_RANGE + 1);
	}

	BENCH_CALL(wsModuleGetFunction(&ffind, mod, "bpt_findk"));
	BENCH_CALL(wsModuleGetFunction(&frange, mod, "bpt_findrange"));
	const size_t cnt[8] = {(size_t)nnodes * BPT_NODE_INTS, (size_t)nkeys, (size_t)nfind, (size_t)nfind,
	                       (size_t)nrange, (size_t)nrange, (size_t)nrange, (size_t)nrange};
	for (; nd < 8; nd++)
		BENCH_CALL(wsMemAlloc(sim, &d[nd], cnt[nd] * sizeof(int)));
	BENCH_CALL(wsMemcpyHtoD(sim, d[0], nodes, cnt[0] * sizeof(int)));
	BENCH_CALL(wsMemcpyHtoD(sim, d[1], rec, cnt[1] * sizeof(int)));
	BENCH_CALL(wsMemcpyHtoD(sim, d[2], q, cnt[2] * sizeof(int)));
	BENCH_CALL(wsMemsetD32(sim, d[3], 0xffffffffu, cnt[3])); /* -1: not found */
	BENCH_CALL(wsMemcpyHtoD(sim, d[4], rs, cnt[4] * sizeof(int)));
	BENCH_CALL(wsMemcpyHtoD(sim, d[5], re, cnt[5] * sizeof(int)));
	BENCH_CALL(wsMemsetD32(sim, d[6], 0x80000000u, cnt[6])); /* INT_MIN: catches unwritten results */
	BENCH_CALL(wsMemsetD32(sim, d[7], 0x80000000u, cnt[7]));
	{
		void *args[] = {&d[0], &d[1], &root, &height, &d[2], &d[3]};
		BENCH_CALL(wsLaunchKernel(ffind, (unsigned)nfind, 1, 1, BPT_SLOTS, 1, 1, 0, args));
	}
	{
		void *args[] = {&d[0], &root, &height, &d[4], &d[5], &d[6], &d[7]};
		BENCH_CALL(wsLaunchKernel(frange, (unsigned)nrange, 1, 1, BPT_SLOTS, 1, 1, 0, args));
	}
	out->launches += 2;
	BENCH_CALL(wsMemcpyDtoH(sim, ans, d[3], cnt[3] * sizeof(int)));
	BENCH_CALL(wsMemcpyDtoH(sim, first, d[6], cnt[6] * sizeof(int)));
	BENCH_CALL(wsMemcpyDtoH(sim, count, d[7], cnt[7] * sizeof(int)));

	for (int i = 0; i < nfind; i++) {
		int r = bpt_lower(keys, nkeys, q[i]);
		int want = r < nkeys && keys[r] == q[i] ? rec[r] : -1;
		if (ans[i] != want) {
			rc = bench_mismatch(out, "bpt: ans[%d] (bpt_findk, key %d, %d keys, height %d): expected %d, got %d", i,
			                    q[i], nkeys, height, want, ans[i]);
			goto done;
		}
	}
	for (int i = 0; i < nrange; i++) {
		int lo = bpt_lower(keys, nkeys, rs[i]), hi = bpt_upper(keys, nkeys, re[i]);
		if (first[i] != lo || count[i] != hi - lo) {
			int f = first[i] != lo;
			rc = bench_mismatch(out, "bpt: %s[%d] (bpt_findrange, [%d, %d], %d keys, height %d): expected %d, got %d",
			                    f ? "first" : "count", i, rs[i], re[i], nkeys, height, f ? lo : hi - lo,
			                    f ? first[i] : count[i]);
			goto done;
		}
	}
	snprintf(out->msg, sizeof out->msg, "bpt: %d point and %d range queries on %d keys (height %d) verified", nfind,
	         nrange, nkeys, height);
done:
	while (nd > 0)
		wsMemFree(sim, d[--nd]);
	free(keys);
	free(rec);
	free(nodes);
	free(minkey);
	free(q);
	free(ans);
	free(rs);
	free(re);
	free(first);
	free(count);
	return rc;
}

const struct ws_bench_info bench_bpt = {
    .name = "bpt",
    .description = "B+tree queries, Rodinia b+tree style (findK, findRangeK): one CTA per query walks the tree, "
                   "one thread per key slot of the 256-slot node",
    .sync = "2 __syncthreads per tree level (the matching thread names the child in shared memory; thread 0 "
            "moves the walk), 1 more between the two leaf bounds of findrange",
    .paper = "KAWS (BT)",
    .ctas_per_sm = 0,
    .warps_per_cta = BPT_SLOTS / 32,
    .sizes = {"2000 keys, height 2 (3 + 2 CTAs: findk, findrange)",
              "50,000 keys, height 3 (40 + 24 CTAs)",
              "1,000,000 keys, height 3 (10,000 + 6,000 CTAs: 2 kernels)"},
    .ptx = ws_bench_ptx_bpt,
    .run = bpt_run,
};
