/*
 * ht/host.c -- host driver of the BOWS suite's HT: nthreads threads insert
 * n distinct keys (several per thread) into a chained hash table, one lock
 * per bucket.  The bucket count is the contention knob of the BOWS paper's
 * Figure 16: configuration parameter `ht_buckets` (0 = the size's default).
 *
 * The check walks every bucket's chain on the CPU: each node must be a
 * valid index, sit in the bucket its key hashes to and appear once; chain
 * lengths and the kernel's per-bucket counts must equal the CPU's counts
 * (independent of insertion order); every lock must be released.
 */
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"

extern const char ws_bench_ptx_ht[];

#define HT_THREADS 256 /* 8 warps per CTA */

static const struct {
	int n, ctas;
	unsigned nbuckets;
} ht_sizes[WS_SIZE_COUNT] = {
    {1024, 2, 64},        /* 512 threads x 2 keys */
    {8192, 8, 1024},      /* 2048 threads x 4 keys */
    {3276800, 160, 1024}, /* the paper: 3.2M insertions by 40K threads (80 each) into 1024 buckets */
};

/* must match ht_hash() in kernel.cu */
static uint32_t ht_hash(uint32_t k)
{
	k ^= k >> 16;
	k *= 0x7feb352du;
	k ^= k >> 15;
	return k;
}

static ws_result ht_check(struct ws_bench_out *out, int n, unsigned nb, const uint32_t *keys, const int32_t *heads,
                          const int32_t *next, const uint32_t *count, const int32_t *locks, uint32_t *expect,
                          uint8_t *seen)
{
	for (int i = 0; i < n; i++)
		expect[ht_hash(keys[i]) % nb]++;
	for (unsigned b = 0; b < nb; b++) {
		if (locks[b] != 0)
			return bench_mismatch(out, "ht: locks[%u]: expected 0 (released), got %d", b, locks[b]);
		uint32_t len = 0;
		for (int32_t j = heads[b]; j != -1; j = next[j]) {
			if (j < 0 || j >= n)
				return bench_mismatch(
				    out, "ht: bucket %u: chain holds node %d, expected an index in [0, %d)", b, j, n);
			unsigned home = ht_hash(keys[j]) % nb;
			if (home != b)
				return bench_mismatch(out,
				                      "ht: node %d (key 0x%08x): expected in bucket %u, got bucket %u",
				                      j, keys[j], home, b);
			if (seen[j])
				return bench_mismatch(out,
				                      "ht: node %d (key 0x%08x) in bucket %u: expected once, got twice",
				                      j, keys[j], b);
			seen[j] = 1;
			len++;
		}
		if (len != expect[b])
			return bench_mismatch(out, "ht: bucket %u chain length: expected %u, got %u", b, expect[b],
			                      len);
		if (count[b] != expect[b])
			return bench_mismatch(out, "ht: count[%u]: expected %u, got %u", b, expect[b], count[b]);
	}
	return WS_SUCCESS; /* n nodes, none twice, each in its own bucket: every key once */
}

static ws_result ht_run(ws_sim *sim, ws_module *mod, enum ws_bench_size size, struct ws_bench_out *out)
{
	if ((unsigned)size >= WS_SIZE_COUNT)
		return bench_fail(NULL, out, WS_ERROR_INVALID_VALUE, "ht: size");
	ws_result rc = WS_SUCCESS;
	int n = ht_sizes[size].n;
	unsigned nb = ht_sizes[size].nbuckets, grid = (unsigned)ht_sizes[size].ctas;
	char vb[32];
	const char *v = wsConfigGet(wsSimConfig(sim), "ht_buckets", vb, sizeof vb);
	if (v && strtoul(v, NULL, 10) > 0)
		nb = (unsigned)strtoul(v, NULL, 10);
	/* device buffers: keys, heads, next, count, locks */
	const size_t d_bytes[5] = {(size_t)n * 4, (size_t)nb * 4, (size_t)n * 4, (size_t)nb * 4, (size_t)nb * 4};
	uint32_t *keys = malloc(d_bytes[0]), *count = malloc(d_bytes[3]), *expect = calloc(nb, 4);
	int32_t *heads = malloc(d_bytes[1]), *next = malloc(d_bytes[2]), *locks = malloc(d_bytes[4]);
	uint8_t *seen = calloc((size_t)n, 1);
	ws_deviceptr d[5];
	int nd = 0;
	ws_function *fn;

	if (!keys || !count || !expect || !heads || !next || !locks || !seen) {
		rc = bench_fail(NULL, out, WS_ERROR_OUT_OF_MEMORY, "ht: host buffers");
		goto done;
	}
	/* distinct keys: i -> i * odd ^ salt is a bijection on 32-bit words */
	struct bench_rng rng;
	bench_rng_seed(&rng, 11);
	uint32_t mul = (uint32_t)bench_rng_next(&rng) | 1u, salt = (uint32_t)bench_rng_next(&rng);
	for (int i = 0; i < n; i++)
		keys[i] = ((uint32_t)i * mul) ^ salt;

	BENCH_CALL(wsModuleGetFunction(&fn, mod, "ht"));
	for (; nd < 5; nd++)
		BENCH_CALL(wsMemAlloc(sim, &d[nd], d_bytes[nd]));
	BENCH_CALL(wsMemcpyHtoD(sim, d[0], keys, d_bytes[0]));
	BENCH_CALL(wsMemsetD32(sim, d[1], 0xffffffffu, nb));        /* heads = -1 (empty) */
	BENCH_CALL(wsMemsetD32(sim, d[2], 0xfefefefeu, (size_t)n)); /* next: garbage until written */
	BENCH_CALL(wsMemsetD32(sim, d[3], 0, nb));
	BENCH_CALL(wsMemsetD32(sim, d[4], 0, nb));
	void *args[] = {&d[0], &n, &nb, &d[1], &d[2], &d[3], &d[4]};
	BENCH_CALL(wsLaunchKernel(fn, grid, 1, 1, HT_THREADS, 1, 1, 0, args));
	out->launches++;
	BENCH_CALL(wsMemcpyDtoH(sim, heads, d[1], d_bytes[1]));
	BENCH_CALL(wsMemcpyDtoH(sim, next, d[2], d_bytes[2]));
	BENCH_CALL(wsMemcpyDtoH(sim, count, d[3], d_bytes[3]));
	BENCH_CALL(wsMemcpyDtoH(sim, locks, d[4], d_bytes[4]));

	rc = ht_check(out, n, nb, keys, heads, next, count, locks, expect, seen);
	if (rc == WS_SUCCESS)
		snprintf(out->msg, sizeof out->msg, "ht: %d keys by %u threads into %u buckets verified", n,
		         grid * HT_THREADS, nb);
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

static const struct ws_sib_note ht_sibs[] = {
    {"ht", 88, "lock retry loop (while (!done))"},
    {NULL, 0, NULL},
};

const struct ws_bench_info bench_ht = {
    .name = "ht",
    .description = "chained hash table: each thread inserts several keys, each insertion under its bucket's lock",
    .sync = "spin lock per bucket (atomicCAS acquire, atomicExch release inside the retry loop, BOWS Fig. 1a); "
            "bucket count = contention (ht_buckets)",
    .paper = "BOWS (HT)",
    .ctas_per_sm = 0,
    .warps_per_cta = HT_THREADS / 32,
    .sizes = {"1024 keys by 512 threads, 64 buckets (2 CTAs)", "8192 keys by 2048 threads, 1024 buckets (8 CTAs)",
              "3,276,800 keys by 40,960 threads, 1024 buckets (160 CTAs)"},
    .ptx = ws_bench_ptx_ht,
    .sibs = ht_sibs,
    .run = ht_run,
};
