/*
 * hashtable/host.c -- host driver of the hashtable benchmark: n threads
 * each insert one distinct key into a chained hash table under a spin lock.
 *
 * tiny and small use ONE global lock (every insertion in the grid is
 * serialized -- maximal contention); paper uses one lock per bucket, as the
 * BOWS paper's HT (1024 buckets), since a single lock would serialize the
 * tens of thousands of insertions a multi-wave grid needs.
 *
 * The check walks every bucket's chain on the CPU: each node must be a
 * valid index, sit in the bucket its key hashes to, and appear once; chain
 * lengths and the kernel's per-bucket counts must equal the CPU's counts;
 * every lock must be released.
 */
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"

extern const char ws_bench_ptx_hashtable[];

#define HT_THREADS 128 /* 4 warps per CTA */

static const struct {
	int n;
	unsigned nbuckets, nlocks;
} ht_sizes[WS_SIZE_COUNT] = {
    {160, 64, 1},        /* 2 CTAs (4 + 1 warps), one global lock */
    {320, 128, 1},       /* 3 CTAs, one global lock */
    {46080, 1024, 1024}, /* 360 CTAs: 3 waves of 8 CTAs/SM on 15 SMs */
};

/* must match hash_key() in kernel.cu */
static uint32_t ht_hash(uint32_t k)
{
	k ^= k >> 16;
	k *= 0x7feb352du;
	k ^= k >> 15;
	return k;
}

static ws_result ht_check(struct ws_bench_out *out, int n, unsigned nb, unsigned nl, const uint32_t *keys,
                          const int32_t *heads, const int32_t *next, const uint32_t *count, const int32_t *locks,
                          uint32_t *expect, uint8_t *seen)
{
	for (int i = 0; i < n; i++)
		expect[ht_hash(keys[i]) % nb]++;
	for (unsigned l = 0; l < nl; l++)
		if (locks[l] != 0)
			return bench_mismatch(out, "hashtable: locks[%u]: expected 0 (released), got %d", l, locks[l]);
	for (unsigned b = 0; b < nb; b++) {
		uint32_t len = 0;
		for (int32_t j = heads[b]; j != -1; j = next[j]) {
			if (j < 0 || j >= n)
				return bench_mismatch(
				    out, "hashtable: bucket %u: chain holds node %d, expected an index in [0, %d)", b,
				    j, n);
			unsigned home = ht_hash(keys[j]) % nb;
			if (home != b)
				return bench_mismatch(
				    out, "hashtable: node %d (key 0x%08x): expected in bucket %u, got bucket %u", j,
				    keys[j], home, b);
			if (seen[j])
				return bench_mismatch(
				    out, "hashtable: node %d (key 0x%08x) in bucket %u: expected once, got twice", j,
				    keys[j], b);
			seen[j] = 1;
			len++;
		}
		if (len != expect[b])
			return bench_mismatch(out, "hashtable: bucket %u chain length: expected %u, got %u", b,
			                      expect[b], len);
		if (count[b] != expect[b])
			return bench_mismatch(out, "hashtable: count[%u]: expected %u, got %u", b, expect[b], count[b]);
	}
	/* n nodes in total, none twice, each in its own bucket: every key is in
	 * the table exactly once */
	return WS_SUCCESS;
}

static ws_result hashtable_run(ws_sim *sim, ws_module *mod, enum ws_bench_size size, struct ws_bench_out *out)
{
	if ((unsigned)size >= WS_SIZE_COUNT)
		return bench_fail(NULL, out, WS_ERROR_INVALID_VALUE, "hashtable: size");
	ws_result rc = WS_SUCCESS;
	int n = ht_sizes[size].n;
	unsigned nb = ht_sizes[size].nbuckets, nl = ht_sizes[size].nlocks;
	/* device buffers: keys, heads, next, count, locks */
	const size_t d_bytes[5] = {(size_t)n * 4, (size_t)nb * 4, (size_t)n * 4, (size_t)nb * 4, (size_t)nl * 4};
	uint32_t *keys = malloc(d_bytes[0]), *count = malloc(d_bytes[3]), *expect = calloc(nb, 4);
	int32_t *heads = malloc(d_bytes[1]), *next = malloc(d_bytes[2]), *locks = malloc(d_bytes[4]);
	uint8_t *seen = calloc((size_t)n, 1);
	ws_deviceptr d[5];
	int nd = 0;
	ws_function *fn;

	if (!keys || !count || !expect || !heads || !next || !locks || !seen) {
		rc = bench_fail(NULL, out, WS_ERROR_OUT_OF_MEMORY, "hashtable: host buffers");
		goto done;
	}
	/* distinct keys: i -> i * odd ^ salt is a bijection on 32-bit words */
	struct bench_rng rng;
	bench_rng_seed(&rng, 5);
	uint32_t mul = (uint32_t)bench_rng_next(&rng) | 1u, salt = (uint32_t)bench_rng_next(&rng);
	for (int i = 0; i < n; i++)
		keys[i] = ((uint32_t)i * mul) ^ salt;

	BENCH_CALL(wsModuleGetFunction(&fn, mod, "hashtable"));
	for (; nd < 5; nd++)
		BENCH_CALL(wsMemAlloc(sim, &d[nd], d_bytes[nd]));
	BENCH_CALL(wsMemcpyHtoD(sim, d[0], keys, d_bytes[0]));
	BENCH_CALL(wsMemsetD32(sim, d[1], 0xffffffffu, nb));        /* heads = -1 (empty) */
	BENCH_CALL(wsMemsetD32(sim, d[2], 0xfefefefeu, (size_t)n)); /* next: garbage until written */
	BENCH_CALL(wsMemsetD32(sim, d[3], 0, nb));
	BENCH_CALL(wsMemsetD32(sim, d[4], 0, nl));
	void *args[] = {&d[0], &n, &nb, &d[1], &d[2], &d[3], &d[4], &nl};
	BENCH_CALL(wsLaunchKernel(fn, ((unsigned)n + HT_THREADS - 1) / HT_THREADS, 1, 1, HT_THREADS, 1, 1, 0, args));
	out->launches++;
	BENCH_CALL(wsMemcpyDtoH(sim, heads, d[1], d_bytes[1]));
	BENCH_CALL(wsMemcpyDtoH(sim, next, d[2], d_bytes[2]));
	BENCH_CALL(wsMemcpyDtoH(sim, count, d[3], d_bytes[3]));
	BENCH_CALL(wsMemcpyDtoH(sim, locks, d[4], d_bytes[4]));

	rc = ht_check(out, n, nb, nl, keys, heads, next, count, locks, expect, seen);
	if (rc == WS_SUCCESS)
		snprintf(out->msg, sizeof out->msg, "hashtable: %d keys in %u buckets (%u lock%s) verified", n, nb, nl,
		         nl == 1 ? "" : "s");
done:
	while (nd > 0)
		wsMemFree(sim, d[--nd]);
	free(keys);
	free(count);
	free(expect);
	free(heads);
	free(next);
	free(locks);
	free(seen);
	return rc;
}

/* spin-inducing branches (bench.h: DDOS ground truth) */
static const struct ws_sib_note hashtable_sibs[] = {
    {"hashtable", 88, "lock retry loop (while (!done))"},
    {NULL, 0, NULL},
};

const struct ws_bench_info bench_hashtable = {
    .name = "hashtable",
    .description = "chained hash-table insertion, one key per thread, critical section under a spin lock",
    .sync = "spin lock (atomicCAS acquire, atomicExch release inside the retry loop, BOWS Fig. 1a); "
            "one global lock (tiny, small) or one per bucket (paper)",
    .paper = "BOWS",
    .ctas_per_sm = 0,
    .warps_per_cta = HT_THREADS / 32,
    .sizes = {"160 keys, 64 buckets, 1 lock (2 CTAs)", "320 keys, 128 buckets, 1 lock (3 CTAs)",
              "46080 keys, 1024 buckets, 1024 locks (360 CTAs)"},
    .ptx = ws_bench_ptx_hashtable,
    .sibs = hashtable_sibs,
    .run = hashtable_run,
};
