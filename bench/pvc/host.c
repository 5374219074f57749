/*
 * pvc/host.c -- host driver of the pvc benchmark (page view count): count
 * the views of each page in a synthetic web-server log.
 *
 * The log has n records, each the URL of a page (2..17 words of 4 random
 * bytes) followed by a client address and a time stamp.  Page popularity is
 * skewed (page index ~ pages * u^3 for uniform u), so a few hot pages take
 * most views -- lanes of a warp often hit the same shared-memory counter.
 * URL hashes must be non-zero and distinct: a page whose hash collides is
 * given a new URL.
 *
 * The kernel leaves (url hash, count) pairs in an open-addressing global
 * hash table.  The check is exact: every occupied slot holds the key of a
 * page, no page appears twice, each count equals the CPU's count, every
 * viewed page is present and empty slots have a zero count.
 */
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"

extern const char ws_bench_ptx_pvc[];

#define PVC_THREADS 256 /* 8 warps per CTA, as kernel.cu */
#define PVC_SLOTS 1016  /* shared hash-table slots, as kernel.cu */
#define PVC_MAX_URL 17  /* URL words: 2 .. PVC_MAX_URL */

/* limit: the CTA flushes its shared table once it holds more than `limit`
 * keys.  small and paper use PVC_SLOTS / 2 (the table stays at most 3/4
 * full; each CTA flushes once mid-stream and once at its end); tiny's
 * lower limit makes its 2-batch CTAs flush mid-stream too. */
static const struct {
	int pages, n, batches; /* batches of PVC_THREADS records per CTA */
	unsigned limit;
} pvc_sizes[WS_SIZE_COUNT] = {
    {300, 900, 2, 100},              /* 2 CTAs (512 and 388 records) */
    {3000, 12000, 4, PVC_SLOTS / 2},  /* 12 CTAs (the last one has 736 records) */
    {6000, 276480, 4, PVC_SLOTS / 2}, /* 270 CTAs: 3 waves of 6 CTAs/SM on 15 SMs */
};

/* must match url_hash() in kernel.cu */
static uint32_t pvc_hash(const uint32_t *w, uint32_t nwords)
{
	uint32_t h = 2166136261u;
	for (uint32_t i = 0; i < nwords; i++)
		h = (h ^ w[i]) * 16777619u;
	h ^= h >> 15;
	h *= 0x2c1b3c6du;
	h ^= h >> 12;
	return h;
}

struct pvc_key {
	uint32_t key;
	int page;
};

static int pvc_key_cmp(const void *a, const void *b)
{
	uint32_t x = ((const struct pvc_key *)a)->key, y = ((const struct pvc_key *)b)->key;
	return x < y ? -1 : x > y;
}

/* page whose URL hashes to key, or -1 */
static int pvc_find(const struct pvc_key *sorted, int pages, uint32_t key)
{
	int lo = 0, hi = pages - 1;
	while (lo <= hi) {
		int mid = lo + (hi - lo) / 2;
		if (sorted[mid].key == key)
			return sorted[mid].page;
		if (sorted[mid].key < key)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return -1;
}

/* URLs of all pages: page p has url_len[p] words at urls + p * PVC_MAX_URL,
 * with distinct non-zero hashes; fills sorted[] (hash -> page, by hash). */
static void pvc_make_urls(struct bench_rng *rng, int pages, uint32_t *urls, uint32_t *url_len,
                          struct pvc_key *sorted)
{
	for (int p = 0; p < pages; p++) {
		for (;;) {
			/* lengths skewed toward short URLs (two draws, in order) */
			uint32_t a = bench_rng_u32(rng, PVC_MAX_URL - 1);
			uint32_t len = 2 + a * bench_rng_u32(rng, PVC_MAX_URL - 1) / (PVC_MAX_URL - 2);
			uint32_t *u = urls + (size_t)p * PVC_MAX_URL;
			for (uint32_t i = 0; i < len; i++)
				u[i] = (uint32_t)bench_rng_next(rng);
			uint32_t h = pvc_hash(u, len);
			int dup = h == 0;
			for (int q = 0; q < p && !dup; q++)
				dup = sorted[q].key == h;
			if (dup)
				continue;
			url_len[p] = len;
			sorted[p].key = h;
			sorted[p].page = p;
			break;
		}
	}
	qsort(sorted, (size_t)pages, sizeof *sorted, pvc_key_cmp);
}

static ws_result pvc_check(struct ws_bench_out *out, const uint32_t *tab, uint32_t gslots,
                           const struct pvc_key *sorted, int pages, const uint32_t *expect, uint8_t *seen)
{
	for (uint32_t s = 0; s < gslots; s++) {
		uint32_t key = tab[2 * s], cnt = tab[2 * s + 1];
		if (key == 0) {
			if (cnt != 0)
				return bench_mismatch(out, "pvc: gtab[%u] (empty slot): expected count 0, got %u", s,
				                      cnt);
			continue;
		}
		int p = pvc_find(sorted, pages, key);
		if (p < 0)
			return bench_mismatch(out, "pvc: gtab[%u]: key 0x%08x is the hash of no page (count %u)", s,
			                      key, cnt);
		if (seen[p])
			return bench_mismatch(out, "pvc: gtab[%u]: page %d (key 0x%08x) appears a second time", s, p,
			                      key);
		seen[p] = 1;
		if (cnt != expect[p])
			return bench_mismatch(out, "pvc: gtab[%u] (page %d, key 0x%08x): expected count %u, got %u", s,
			                      p, key, expect[p], cnt);
	}
	for (int i = 0; i < pages; i++) {
		int p = sorted[i].page;
		if (expect[p] && !seen[p])
			return bench_mismatch(out, "pvc: page %d (key 0x%08x): expected count %u, got no table entry",
			                      p, sorted[i].key, expect[p]);
	}
	return WS_SUCCESS;
}

static ws_result pvc_run(ws_sim *sim, ws_module *mod, enum ws_bench_size size, struct ws_bench_out *out)
{
	if ((unsigned)size >= WS_SIZE_COUNT)
		return bench_fail(NULL, out, WS_ERROR_INVALID_VALUE, "pvc: size");
	ws_result rc = WS_SUCCESS;
	int pages = pvc_sizes[size].pages, n = pvc_sizes[size].n, batches = pvc_sizes[size].batches;
	unsigned limit = pvc_sizes[size].limit;
	unsigned ctas = (unsigned)((n + batches * PVC_THREADS - 1) / (batches * PVC_THREADS));
	uint32_t gslots = 1;
	while (gslots < 2u * (uint32_t)pages)
		gslots <<= 1;
	uint32_t gmask = gslots - 1;
	size_t log_words = (size_t)n * (PVC_MAX_URL + 3);
	uint32_t *urls = malloc((size_t)pages * PVC_MAX_URL * sizeof *urls);
	uint32_t *url_len = malloc((size_t)pages * sizeof *url_len);
	uint32_t *expect = calloc((size_t)pages, sizeof *expect);
	uint8_t *seen = calloc((size_t)pages, 1);
	struct pvc_key *sorted = malloc((size_t)pages * sizeof *sorted);
	uint32_t *logbuf = malloc(log_words * sizeof *logbuf);
	uint32_t *offs = malloc((size_t)n * sizeof *offs);
	uint32_t *tab = malloc((size_t)gslots * 2 * sizeof *tab);
	ws_deviceptr d[3]; /* log, offs, gtab */
	size_t d_bytes[3] = {0, (size_t)n * sizeof *offs, (size_t)gslots * 2 * sizeof *tab};
	int nd = 0;
	ws_function *fn;

	if (!urls || !url_len || !expect || !seen || !sorted || !logbuf || !offs || !tab) {
		rc = bench_fail(NULL, out, WS_ERROR_OUT_OF_MEMORY, "pvc: host buffers");
		goto done;
	}
	struct bench_rng rng;
	bench_rng_seed(&rng, 5);
	pvc_make_urls(&rng, pages, urls, url_len, sorted);
	size_t w = 0;
	for (int e = 0; e < n; e++) {
		double u = bench_rng_float(&rng, 0.0f, 1.0f);
		int p = (int)(pages * u * u * u);
		expect[p]++;
		offs[e] = (uint32_t)w;
		logbuf[w++] = url_len[p];
		for (uint32_t i = 0; i < url_len[p]; i++)
			logbuf[w++] = urls[(size_t)p * PVC_MAX_URL + i];
		logbuf[w++] = (uint32_t)bench_rng_next(&rng); /* client address */
		logbuf[w++] = 1600000000u + (uint32_t)e;      /* time stamp */
	}
	d_bytes[0] = w * sizeof *logbuf;

	BENCH_CALL(wsModuleGetFunction(&fn, mod, "pvc"));
	for (; nd < 3; nd++)
		BENCH_CALL(wsMemAlloc(sim, &d[nd], d_bytes[nd]));
	BENCH_CALL(wsMemcpyHtoD(sim, d[0], logbuf, d_bytes[0]));
	BENCH_CALL(wsMemcpyHtoD(sim, d[1], offs, d_bytes[1]));
	BENCH_CALL(wsMemsetD32(sim, d[2], 0, (size_t)gslots * 2)); /* empty table: key 0, count 0 */
	void *args[] = {&d[0], &d[1], &n, &batches, &limit, &d[2], &gmask};
	BENCH_CALL(wsLaunchKernel(fn, ctas, 1, 1, PVC_THREADS, 1, 1, 0, args));
	out->launches++;
	BENCH_CALL(wsMemcpyDtoH(sim, tab, d[2], d_bytes[2]));

	rc = pvc_check(out, tab, gslots, sorted, pages, expect, seen);
	if (rc == WS_SUCCESS)
		snprintf(out->msg, sizeof out->msg, "pvc: views of %d pages in %d log records verified", pages, n);
done:
	while (nd > 0)
		wsMemFree(sim, d[--nd]);
	free(urls);
	free(url_len);
	free(expect);
	free(seen);
	free(sorted);
	free(logbuf);
	free(offs);
	free(tab);
	return rc;
}

const struct ws_bench_info bench_pvc = {
    .name = "pvc",
    .description = "page view count: views per URL in a web log, per-CTA shared-memory hash table, global merge",
    .sync = "__syncthreads after each 256-record map batch, two more around each flush of the shared table; "
            "shared and global atomicCAS/atomicAdd",
    .paper = "BAWS",
    .ctas_per_sm = 6,
    .warps_per_cta = PVC_THREADS / 32,
    .sizes = {"900 records, 300 pages (2 CTAs)", "12,000 records, 3000 pages (12 CTAs)",
              "276,480 records, 6000 pages (270 CTAs)"},
    .ptx = ws_bench_ptx_pvc,
    .run = pvc_run,
};
