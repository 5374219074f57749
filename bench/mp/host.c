/*
 * mp/host.c -- host driver of the mp benchmark (MUMmer-like matching by a
 * suffix-trie walk, the DWR paper's MP; inputs and reference in ../mum.h).
 *
 * The host inserts every reference substring of length <= depth (one per
 * start position, truncated at the end) into a trie of int[4] child
 * arrays, copies the nodes actually used, the queries and NaN-like
 * sentinels (-1) for the two outputs, and launches one thread per query.
 *
 * Verification: per query, the sum of matching statistics >= minmatch and
 * the longest one, each statistic capped at the trie depth, must equal the
 * CPU's values from the suffix array (an independent method: binary search
 * plus neighbour common prefixes), naming the first wrong query.
 */
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"
#include "mum.h"

extern const char ws_bench_ptx_mp[];

#define MP_THREADS 256 /* as kernel.cu */

static const struct {
	int n, nq, qlen, depth, minmatch;
} mp_sizes[WS_SIZE_COUNT] = {
    {1000, 300, 20, 10, 6},         /* 2 CTAs */
    {8000, 2560, 32, 16, 8},        /* 10 CTAs */
    {32768, 196 * 256, 28, 20, 10}, /* 196 CTAs of 256 threads (Table 1) */
};

/* the depth-limited suffix trie of in->ref; *nodes = node count; NULL if out of memory */
static int *mp_build_trie(const struct mum_input *in, int depth, int *nodes)
{
	size_t cap = (size_t)in->n * (size_t)depth + 1;
	int *t = calloc(cap * 4, sizeof *t);
	if (!t)
		return NULL;
	int used = 1;
	for (int p = 0; p < in->n; p++) {
		int v = 0;
		for (int d = 0; d < depth && p + d < in->n; d++) {
			int *c = &t[4 * v + in->ref[p + d]];
			if (*c == 0)
				*c = used++;
			v = *c;
		}
	}
	*nodes = used;
	return t;
}

static ws_result mp_run(ws_sim *sim, ws_module *mod, enum ws_bench_size size, struct ws_bench_out *out)
{
	if ((unsigned)size >= WS_SIZE_COUNT)
		return bench_fail(NULL, out, WS_ERROR_INVALID_VALUE, "mp: size");
	ws_result rc = WS_SUCCESS;
	int nq = mp_sizes[size].nq, qlen = mp_sizes[size].qlen, depth = mp_sizes[size].depth;
	int minmatch = mp_sizes[size].minmatch, nodes = 0;
	struct mum_input in;
	int *trie = NULL, *sum = NULL, *best = NULL;
	ws_deviceptr d[4]; /* trie, queries, sum, best */
	int nd = 0;
	ws_function *fn;

	if (mum_make(&in, mp_sizes[size].n, nq, qlen, 139) < 0) {
		rc = bench_fail(NULL, out, WS_ERROR_OUT_OF_MEMORY, "mp: inputs");
		goto done;
	}
	trie = mp_build_trie(&in, depth, &nodes);
	sum = malloc((size_t)nq * sizeof *sum);
	best = malloc((size_t)nq * sizeof *best);
	if (!trie || !sum || !best) {
		rc = bench_fail(NULL, out, WS_ERROR_OUT_OF_MEMORY, "mp: host buffers");
		goto done;
	}
	const size_t bytes[4] = {(size_t)nodes * 4 * sizeof(int), (size_t)nq * qlen, (size_t)nq * sizeof(int),
	                         (size_t)nq * sizeof(int)};
	BENCH_CALL(wsModuleGetFunction(&fn, mod, "mp"));
	for (; nd < 4; nd++)
		BENCH_CALL(wsMemAlloc(sim, &d[nd], bytes[nd]));
	BENCH_CALL(wsMemcpyHtoD(sim, d[0], trie, bytes[0]));
	BENCH_CALL(wsMemcpyHtoD(sim, d[1], in.q, bytes[1]));
	BENCH_CALL(wsMemsetD32(sim, d[2], 0xffffffffu, (size_t)nq));
	BENCH_CALL(wsMemsetD32(sim, d[3], 0xffffffffu, (size_t)nq));
	void *args[] = {&d[0], &d[1], &nq, &qlen, &minmatch, &d[2], &d[3]};
	BENCH_CALL(wsLaunchKernel(fn, (unsigned)((nq + MP_THREADS - 1) / MP_THREADS), 1, 1, MP_THREADS, 1, 1, 0, args));
	out->launches++;
	BENCH_CALL(wsMemcpyDtoH(sim, sum, d[2], bytes[2]));
	BENCH_CALL(wsMemcpyDtoH(sim, best, d[3], bytes[3]));

	long total = 0;
	for (int q = 0; q < nq; q++) {
		int ws, wb;
		mum_query_ref(&in, q, minmatch, depth, &ws, &wb);
		if (sum[q] != ws || best[q] != wb) {
			rc = bench_mismatch(out, "mp: query %d: expected match sum %d, longest %d; got %d, %d", q, ws, wb,
			                    sum[q], best[q]);
			goto done;
		}
		total += ws;
	}
	snprintf(out->msg, sizeof out->msg,
	         "mp: %d queries x %d bases against %d bases (trie of %d nodes, depth %d) verified, total match %ld",
	         nq, qlen, in.n, nodes, depth, total);
done:
	while (nd > 0)
		wsMemFree(sim, d[--nd]);
	mum_free(&in);
	free(trie);
	free(sum);
	free(best);
	return rc;
}

const struct ws_bench_info bench_mp = {
    .name = "mp",
    .description = "MUMmer-like query matching: per query, matching statistics at every start by walking a "
                   "depth-limited suffix trie",
    .sync = "none; heavily divergent data-dependent walks, pointer-chasing and strided loads",
    .paper = "DWR (MP)",
    .ctas_per_sm = 0,
    .warps_per_cta = MP_THREADS / 32,
    .sizes = {"300 queries x 20 bases, 1000-base reference, trie depth 10 (2 CTAs)",
              "2560 queries x 32, 8000-base reference, depth 16 (10 CTAs)",
              "50,176 queries x 28, 32,768-base reference, depth 20 (196 CTAs of 256)"},
    .ptx = ws_bench_ptx_mp,
    .run = mp_run,
};
