/*
 * ms/host.c -- host driver of the ms benchmark: merge sort of n random
 * unsigned 32-bit keys.
 *
 * One ms_tile launch sorts every 512-key tile in shared memory, then
 * ms_merge launches (ping-pong between two device buffers) double the
 * sorted run length 512, 1024, ... until one run covers all n keys.
 * n is deliberately not a multiple of 512 in tiny and small, so the
 * last tile is partial and the last pair of runs is unbalanced or lacks
 * its second run.  Keys are drawn from a range of n/4 values so that
 * duplicates exercise the ties of the merge.  The output buffer is
 * pre-filled with a sentinel pattern and the result is compared element
 * by element with qsort's.
 */
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"

extern const char ws_bench_ptx_ms[];

#define MS_THREADS 256 /* 8 warps per CTA, as kernel.cu */
#define MS_TILE 512    /* keys per tile, as kernel.cu */

static const struct {
	int n;
} ms_sizes[WS_SIZE_COUNT] = {
    {1000},  /* 2 tiles, 1 merge pass */
    {10000}, /* 20 tiles, 5 merge passes */
    {98304}, /* 192 tiles (2.1 waves of 6 CTAs/SM on 15 SMs), 8 merge passes, the last 64k + 32k */
};

static int ms_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return (x > y) - (x < y);
}

static ws_result ms_run(ws_sim *sim, ws_module *mod, enum ws_bench_size size, struct ws_bench_out *out)
{
	if ((unsigned)size >= WS_SIZE_COUNT)
		return bench_fail(NULL, out, WS_ERROR_INVALID_VALUE, "ms: size");
	ws_result rc = WS_SUCCESS;
	int n = ms_sizes[size].n;
	size_t bytes = (size_t)n * sizeof(uint32_t);
	uint32_t *keys = malloc(bytes), *expect = malloc(bytes), *got = malloc(bytes);
	ws_deviceptr d[2]; /* ping-pong key buffers */
	int nd = 0;
	ws_function *tile, *merge;

	if (!keys || !expect || !got) {
		rc = bench_fail(NULL, out, WS_ERROR_OUT_OF_MEMORY, "ms: host buffers");
		goto done;
	}
	struct bench_rng rng;
	bench_rng_seed(&rng, 5);
	for (int i = 0; i < n; i++)
		keys[i] = bench_rng_u32(&rng, (uint32_t)n / 4 + 1) * 7919u; /* about 4 copies of each value */
	for (int i = 0; i < n; i++)
		expect[i] = keys[i];
	qsort(expect, (size_t)n, sizeof *expect, ms_cmp);

	BENCH_CALL(wsModuleGetFunction(&tile, mod, "ms_tile"));
	BENCH_CALL(wsModuleGetFunction(&merge, mod, "ms_merge"));
	for (; nd < 2; nd++)
		BENCH_CALL(wsMemAlloc(sim, &d[nd], bytes));
	BENCH_CALL(wsMemcpyHtoD(sim, d[0], keys, bytes));
	BENCH_CALL(wsMemsetD32(sim, d[1], 0xdeadbeefu, (size_t)n)); /* sentinel: catches unwritten keys */
	unsigned ctas = (unsigned)(n + MS_TILE - 1) / MS_TILE;
	void *targs[] = {&d[0], &d[1], &n};
	BENCH_CALL(wsLaunchKernel(tile, ctas, 1, 1, MS_THREADS, 1, 1, 0, targs));
	out->launches++;
	int cur = 1; /* buffer holding the sorted runs */
	for (int run = MS_TILE; run < n; run *= 2) {
		BENCH_CALL(wsMemsetD32(sim, d[cur ^ 1], 0xdeadbeefu, (size_t)n));
		void *margs[] = {&d[cur], &d[cur ^ 1], &n, &run};
		BENCH_CALL(wsLaunchKernel(merge, ctas, 1, 1, MS_THREADS, 1, 1, 0, margs));
		out->launches++;
		cur ^= 1;
	}
	BENCH_CALL(wsMemcpyDtoH(sim, got, d[cur], bytes));

	for (int i = 0; i < n; i++) {
		if (got[i] != expect[i]) {
			rc = bench_mismatch(out, "ms: sorted[%d] (n=%d, %u launches): expected %u, got %u", i, n,
			                    out->launches, expect[i], got[i]);
			goto done;
		}
	}
	snprintf(out->msg, sizeof out->msg, "ms: %d keys sorted in %u launches, verified against qsort", n,
	         out->launches);
done:
	while (nd > 0)
		wsMemFree(sim, d[--nd]);
	free(keys);
	free(expect);
	free(got);
	return rc;
}

const struct ws_bench_info bench_ms = {
    .name = "ms",
    .description = "merge sort of unsigned keys: bitonic sort of 512-key tiles in shared memory, then merge-path "
                   "merges of runs",
    .sync = "__syncthreads after each of the 45 compare-exchange steps of a tile; merge passes: 2 per CTA, "
            "the first after a merge-path search by one warp",
    .paper = "BAWS",
    .ctas_per_sm = 6,
    .warps_per_cta = MS_THREADS / 32,
    .sizes = {"1000 keys (2 CTAs, 2 launches)", "10,000 keys (20 CTAs, 6 launches)",
              "98,304 keys (192 CTAs, 9 launches)"},
    .ptx = ws_bench_ptx_ms,
    .run = ms_run,
};
