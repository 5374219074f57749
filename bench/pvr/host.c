/*
 * pvr/host.c -- host driver of the pvr benchmark (page view rank): rank
 * the pages of each web site by view count.
 *
 * Site sizes are uniform in [minp, maxp] pages (16..256 for small and
 * paper, 20..64 for tiny); one CTA per site, which sorts the next power of
 * two >= its page count.  View counts are skewed (1000 * u^4 for uniform
 * u), so many pages of a site share a count and the tie-breaking (page
 * index) and the competition ranks (equal counts, equal rank) are
 * exercised.
 *
 * The CPU sorts each site's pages with qsort (views descending, page
 * ascending) and ranks them; order[] and rank[] are pre-filled with
 * 0xffffffff and compared exactly.
 */
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"

extern const char ws_bench_ptx_pvr[];

#define PVR_THREADS 256 /* 8 warps per CTA, as kernel.cu */
#define PVR_MAXP 256    /* most pages per site, as kernel.cu */

static const struct {
	int sites, minp, maxp; /* pages per site: uniform in [minp, maxp] */
} pvr_sizes[WS_SIZE_COUNT] = {
    {2, 20, 64},              /* 2 CTAs */
    {12, 16, PVR_MAXP},       /* 12 CTAs */
    {360, 16, PVR_MAXP},      /* 360 CTAs: 4 waves of 6 CTAs/SM on 15 SMs */
};

struct pvr_page {
	uint32_t views;
	uint32_t page;
};

static int pvr_cmp(const void *a, const void *b)
{
	const struct pvr_page *x = a, *y = b;
	if (x->views != y->views)
		return x->views > y->views ? -1 : 1;
	return x->page < y->page ? -1 : x->page > y->page;
}

static ws_result pvr_check(struct ws_bench_out *out, int sites, const int *start, const uint32_t *views,
                           const uint32_t *order, const uint32_t *rank, struct pvr_page *tmp)
{
	for (int s = 0; s < sites; s++) {
		int s0 = start[s], np = start[s + 1] - s0;
		for (int i = 0; i < np; i++) {
			tmp[i].views = views[s0 + i];
			tmp[i].page = (uint32_t)(s0 + i);
		}
		qsort(tmp, (size_t)np, sizeof *tmp, pvr_cmp);
		for (int i = 0; i < np; i++)
			if (order[s0 + i] != tmp[i].page)
				return bench_mismatch(out, "pvr: order[%d] (site %d, place %d): expected page %u, got %u",
				                      s0 + i, s, i, tmp[i].page, order[s0 + i]);
		uint32_t r = 1;
		for (int i = 0; i < np; i++) {
			if (i > 0 && tmp[i].views != tmp[i - 1].views)
				r = (uint32_t)i + 1;
			uint32_t p = tmp[i].page;
			if (rank[p] != r)
				return bench_mismatch(out, "pvr: rank[%u] (site %d, %u views): expected %u, got %u", p,
				                      s, views[p], r, rank[p]);
		}
	}
	return WS_SUCCESS;
}

static ws_result pvr_run(ws_sim *sim, ws_module *mod, enum ws_bench_size size, struct ws_bench_out *out)
{
	if ((unsigned)size >= WS_SIZE_COUNT)
		return bench_fail(NULL, out, WS_ERROR_INVALID_VALUE, "pvr: size");
	ws_result rc = WS_SUCCESS;
	int sites = pvr_sizes[size].sites, minp = pvr_sizes[size].minp, maxp = pvr_sizes[size].maxp;
	int *start = malloc(((size_t)sites + 1) * sizeof *start);
	size_t maxpages = (size_t)sites * PVR_MAXP;
	uint32_t *views = malloc(maxpages * sizeof *views), *order = malloc(maxpages * sizeof *order);
	uint32_t *rank = malloc(maxpages * sizeof *rank);
	struct pvr_page *tmp = malloc(PVR_MAXP * sizeof *tmp);
	ws_deviceptr d[4]; /* views, site_start, order, rank */
	int nd = 0;
	ws_function *fn;

	if (!start || !views || !order || !rank || !tmp) {
		rc = bench_fail(NULL, out, WS_ERROR_OUT_OF_MEMORY, "pvr: host buffers");
		goto done;
	}
	struct bench_rng rng;
	bench_rng_seed(&rng, 6);
	start[0] = 0;
	for (int s = 0; s < sites; s++)
		start[s + 1] = start[s] + minp + (int)bench_rng_u32(&rng, (uint32_t)(maxp - minp + 1));
	int pages = start[sites];
	for (int p = 0; p < pages; p++) {
		float u = bench_rng_float(&rng, 0.0f, 1.0f);
		views[p] = (uint32_t)(1000.0f * u * u * u * u);
	}
	const size_t d_bytes[4] = {(size_t)pages * sizeof *views, ((size_t)sites + 1) * sizeof *start,
	                           (size_t)pages * sizeof *order, (size_t)pages * sizeof *rank};

	BENCH_CALL(wsModuleGetFunction(&fn, mod, "pvr"));
	for (; nd < 4; nd++)
		BENCH_CALL(wsMemAlloc(sim, &d[nd], d_bytes[nd]));
	BENCH_CALL(wsMemcpyHtoD(sim, d[0], views, d_bytes[0]));
	BENCH_CALL(wsMemcpyHtoD(sim, d[1], start, d_bytes[1]));
	BENCH_CALL(wsMemsetD32(sim, d[2], 0xffffffffu, (size_t)pages)); /* sentinel: catches unwritten places */
	BENCH_CALL(wsMemsetD32(sim, d[3], 0xffffffffu, (size_t)pages));
	void *args[] = {&d[0], &d[1], &d[2], &d[3]};
	BENCH_CALL(wsLaunchKernel(fn, (unsigned)sites, 1, 1, PVR_THREADS, 1, 1, 0, args));
	out->launches++;
	BENCH_CALL(wsMemcpyDtoH(sim, order, d[2], d_bytes[2]));
	BENCH_CALL(wsMemcpyDtoH(sim, rank, d[3], d_bytes[3]));

	rc = pvr_check(out, sites, start, views, order, rank, tmp);
	if (rc == WS_SUCCESS)
		snprintf(out->msg, sizeof out->msg, "pvr: ranking of %d pages in %d sites verified", pages, sites);
done:
	while (nd > 0)
		wsMemFree(sim, d[--nd]);
	free(start);
	free(views);
	free(order);
	free(rank);
	free(tmp);
	return rc;
}

const struct ws_bench_info bench_pvr = {
    .name = "pvr",
    .description = "page view rank: pages of each site ranked by views, shared-memory bitonic sort and max-scan",
    .sync = "__syncthreads after every bitonic stage (36 for 256 keys) and twice per max-scan step (8 steps)",
    .paper = "BAWS",
    .ctas_per_sm = 6,
    .warps_per_cta = PVR_THREADS / 32,
    .sizes = {"2 sites of 20-64 pages (2 CTAs)", "12 sites of 16-256 pages (12 CTAs)",
              "360 sites of 16-256 pages (360 CTAs)"},
    .ptx = ws_bench_ptx_pvr,
    .run = pvr_run,
};
