/*
 * bt/host.c -- host driver of the bt benchmark: point queries in a B+tree
 * of nkeys (key, value) records.
 *
 * The host bulk-loads the tree bottom-up, as a tree grown by insertions
 * would look: leaves hold a random 128..255 keys, inner nodes a random
 * 128..256 children (the last node of a level takes what is left).  Keys
 * are distinct, ascending and spaced 1..3 apart (key i lies in
 * [4i+1, 4i+3]); values are random non-negative ints.  Nodes are laid out
 * level by level from the root (node 0) in the format of kernel.cu.
 *
 * Queries: half are keys of the tree, half random ints in [0, 4 * nkeys)
 * (present about a quarter of the time), plus three edge cases first:
 * 0 (below every key), INT_MAX - 1 (above every key) and a negative key.
 * The CPU reference is a binary search of the sorted key array; results
 * are pre-filled with a sentinel that is neither a value nor -1.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"

extern const char ws_bench_ptx_bt[];

#define BT_THREADS 256 /* 8 warps per CTA = key slots per node, as kernel.cu */
#define BT_BATCH 4     /* queries per CTA, as kernel.cu */
#define BT_NODE 512    /* ints per node: keys, then pointers */
#define BT_MAXLEVELS 16
#define BT_SENTINEL (-0x5a5a5a5a)

static const struct {
	int nkeys, nq;
} bt_sizes[WS_SIZE_COUNT] = {
    {2000, 8},       /* 11 leaves under the root: height 2; 2 CTAs */
    {50000, 80},     /* height 3; 20 CTAs */
    {1000000, 1500}, /* height 3 (5,300 leaves); 375 CTAs = 5 waves of 5 CTAs/SM on 15 SMs */
};

/* One level of the tree: node i covers the nodes (or, for leaves, keys)
 * start[i] .. start[i] + cnt[i] - 1 of the level below. */
struct bt_level {
	int n;
	int *start, *cnt;
};

/* Split `items` into groups of lo..hi (the last takes the rest). */
static int bt_group(struct bt_level *lv, int items, int lo, int hi, struct bench_rng *rng)
{
	int cap = items / lo + 2;
	lv->start = malloc((size_t)cap * sizeof(int));
	lv->cnt = malloc((size_t)cap * sizeof(int));
	if (!lv->start || !lv->cnt)
		return 0;
	lv->n = 0;
	for (int i = 0; i < items;) {
		int c = lo + (int)bench_rng_u32(rng, (uint32_t)(hi - lo + 1));
		if (c > items - i)
			c = items - i;
		lv->start[lv->n] = i;
		lv->cnt[lv->n++] = c;
		i += c;
	}
	return 1;
}

static int bt_lookup(const int32_t *keys, const int32_t *vals, int n, int32_t q)
{
	int lo = 0, hi = n;
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		if (keys[mid] < q)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && keys[lo] == q ? vals[lo] : -1;
}

static ws_result bt_run(ws_sim *sim, ws_module *mod, enum ws_bench_size size, struct ws_bench_out *out)
{
	if ((unsigned)size >= WS_SIZE_COUNT)
		return bench_fail(NULL, out, WS_ERROR_INVALID_VALUE, "bt: size");
	ws_result rc = WS_SUCCESS;
	int nkeys = bt_sizes[size].nkeys, nq = bt_sizes[size].nq;
	struct bt_level lv[BT_MAXLEVELS] = {{0, NULL, NULL}};
	int nlv = 0; /* lv[0] = leaves, lv[nlv-1] = root level */
	int32_t *keys = malloc((size_t)nkeys * sizeof *keys), *vals = malloc((size_t)nkeys * sizeof *vals);
	int32_t *query = malloc((size_t)nq * sizeof *query), *got = malloc((size_t)nq * sizeof *got);
	int32_t *tree = NULL, *minkey[BT_MAXLEVELS] = {NULL};
	ws_deviceptr d[3]; /* tree, queries, results */
	int nd = 0;
	ws_function *fn;

	if (!keys || !vals || !query || !got) {
		rc = bench_fail(NULL, out, WS_ERROR_OUT_OF_MEMORY, "bt: host buffers");
		goto done;
	}
	struct bench_rng rng;
	bench_rng_seed(&rng, 8);
	for (int i = 0; i < nkeys; i++) {
		keys[i] = 4 * i + 1 + (int32_t)bench_rng_u32(&rng, 3);
		vals[i] = (int32_t)(bench_rng_next(&rng) >> 33);
	}

	/* levels bottom-up until one node remains */
	if (!bt_group(&lv[nlv++], nkeys, 128, 255, &rng)) {
		rc = bench_fail(NULL, out, WS_ERROR_OUT_OF_MEMORY, "bt: tree levels");
		goto done;
	}
	while (lv[nlv - 1].n > 1 && nlv < BT_MAXLEVELS) {
		if (!bt_group(&lv[nlv], lv[nlv - 1].n, 128, 256, &rng)) {
			nlv++;
			rc = bench_fail(NULL, out, WS_ERROR_OUT_OF_MEMORY, "bt: tree levels");
			goto done;
		}
		nlv++;
	}
	/* node ids: root level first; off[l] = id of the first node of level l */
	int off[BT_MAXLEVELS], nnodes = 0;
	for (int l = nlv - 1; l >= 0; l--) {
		off[l] = nnodes;
		nnodes += lv[l].n;
	}
	size_t tree_ints = (size_t)nnodes * BT_NODE;
	tree = malloc(tree_ints * sizeof *tree);
	for (int l = 0; l < nlv; l++)
		minkey[l] = malloc((size_t)lv[l].n * sizeof(int32_t));
	for (int l = 0; l < nlv; l++)
		if (!minkey[l])
			tree = (free(tree), NULL);
	if (!tree) {
		rc = bench_fail(NULL, out, WS_ERROR_OUT_OF_MEMORY, "bt: tree");
		goto done;
	}
	for (int l = 0; l < nlv; l++) {
		for (int i = 0; i < lv[l].n; i++) {
			int32_t *k = tree + (size_t)(off[l] + i) * BT_NODE, *p = k + BT_THREADS;
			int s = lv[l].start[i], c = lv[l].cnt[i];
			for (int t = 0; t < BT_THREADS; t++) {
				k[t] = INT_MAX;
				p[t] = 0;
			}
			if (l == 0) { /* leaf: its keys and values */
				for (int t = 0; t < c; t++) {
					k[t] = keys[s + t];
					p[t] = vals[s + t];
				}
				minkey[0][i] = keys[s];
			} else { /* inner: separators = smallest key of children 1.. */
				for (int t = 0; t < c; t++) {
					if (t > 0)
						k[t - 1] = minkey[l - 1][s + t];
					p[t] = off[l - 1] + s + t;
				}
				minkey[l][i] = minkey[l - 1][s];
			}
		}
	}
	int height = nlv;

	for (int i = 0; i < nq; i++) {
		if (i == 0)
			query[i] = 0;
		else if (i == 1)
			query[i] = INT_MAX - 1;
		else if (i == 2)
			query[i] = -12345;
		else if (bench_rng_u32(&rng, 2))
			query[i] = keys[bench_rng_u32(&rng, (uint32_t)nkeys)];
		else
			query[i] = (int32_t)bench_rng_u32(&rng, 4u * (uint32_t)nkeys);
	}

	BENCH_CALL(wsModuleGetFunction(&fn, mod, "bt_search"));
	const size_t d_bytes[3] = {tree_ints * sizeof(int32_t), (size_t)nq * sizeof(int32_t),
	                           (size_t)nq * sizeof(int32_t)};
	for (; nd < 3; nd++)
		BENCH_CALL(wsMemAlloc(sim, &d[nd], d_bytes[nd]));
	BENCH_CALL(wsMemcpyHtoD(sim, d[0], tree, d_bytes[0]));
	BENCH_CALL(wsMemcpyHtoD(sim, d[1], query, d_bytes[1]));
	BENCH_CALL(wsMemsetD32(sim, d[2], (uint32_t)BT_SENTINEL, (size_t)nq));
	void *args[] = {&d[0], &height, &d[1], &nq, &d[2]};
	BENCH_CALL(wsLaunchKernel(fn, (unsigned)(nq + BT_BATCH - 1) / BT_BATCH, 1, 1, BT_THREADS, 1, 1, 0, args));
	out->launches++;
	BENCH_CALL(wsMemcpyDtoH(sim, got, d[2], d_bytes[2]));

	int found = 0;
	for (int i = 0; i < nq; i++) {
		int expect = bt_lookup(keys, vals, nkeys, query[i]);
		if (got[i] != expect) {
			rc = bench_mismatch(
			    out, "bt: result[%d] (query key %d, tree of %d keys, height %d): expected %d, got %d", i,
			    query[i], nkeys, height, expect, got[i]);
			goto done;
		}
		found += expect >= 0;
	}
	snprintf(out->msg, sizeof out->msg, "bt: %d queries (%d found) in a height-%d tree of %d keys verified", nq,
	         found, height, nkeys);
done:
	while (nd > 0)
		wsMemFree(sim, d[--nd]);
	for (int l = 0; l < nlv; l++) {
		free(lv[l].start);
		free(lv[l].cnt);
		free(minkey[l]);
	}
	free(tree);
	free(keys);
	free(vals);
	free(query);
	free(got);
	return rc;
}

const struct ws_bench_info bench_bt = {
    .name = "bt",
    .description = "B+tree point queries: a CTA walks 4 queries down a tree of 256-slot nodes staged in shared memory",
    .sync = "3 __syncthreads per tree level: node keys staged; matching slot found; one warp follows the 4 pointers",
    .paper = "BAWS",
    .ctas_per_sm = 5,
    .warps_per_cta = BT_THREADS / 32,
    .sizes = {"8 queries, 2000 keys, height 2 (2 CTAs)", "80 queries, 50,000 keys, height 3 (20 CTAs)",
              "1500 queries, 1,000,000 keys, height 3 (375 CTAs)"},
    .ptx = ws_bench_ptx_bt,
    .run = bt_run,
};
