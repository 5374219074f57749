/*
 * tsp/host.c -- host driver of the BOWS suite's TSP: nclimbers 2-opt hill
 * climbers on random cities (integer coordinates, rounded Euclidean
 * distances), each publishing its climbs' results into a global best under
 * one lock.
 *
 * Every climb is deterministic (integer costs, the climber's own xorshift32
 * stream), so the CPU replays all of them and knows the best cost.  The
 * check: *best equals it, best_tour is a permutation of the cities, and its
 * cost is *best (any of several equally good tours may win the race); the
 * lock is released.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"

extern const char ws_bench_ptx_tsp[];

#define TSP_THREADS 128

static const struct {
	int ncity, nclimbers, restarts, trials;
} tsp_sizes[WS_SIZE_COUNT] = {
    {16, 64, 2, 16},     /* 1 CTA of 2 warps */
    {32, 256, 2, 100},   /* 2 CTAs */
    {76, 3000, 2, 2000}, /* the paper: 76 cities, 3000 climbers (24 CTAs) */
};

#define TSP_SEED 0x5eed1234u

static uint32_t tsp_rand(uint32_t *s)
{
	uint32_t x = *s;
	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	*s = x;
	return x;
}

/* One climber's climbs, exactly as the kernel does them; returns its best cost. */
static int tsp_replay(const int *dist, int nc, int c, int restarts, int trials, int *t)
{
	uint32_t s = TSP_SEED ^ ((uint32_t)c * 0x9E3779B9u);
	if (s == 0)
		s = 1;
	int best = INT32_MAX;
	for (int r = 0; r < restarts; r++) {
		for (int k = 0; k < nc; k++)
			t[k] = k;
		for (int k = nc - 1; k > 0; k--) {
			int j = (int)(tsp_rand(&s) % (uint32_t)(k + 1));
			int tmp = t[k];
			t[k] = t[j];
			t[j] = tmp;
		}
		int cost = 0;
		for (int k = 0; k < nc; k++)
			cost += dist[t[k] * nc + t[(k + 1) % nc]];
		for (int q = 0; q < trials; q++) {
			int i = (int)(tsp_rand(&s) % (uint32_t)(nc - 1));
			int j = (int)(tsp_rand(&s) % (uint32_t)(nc - 1));
			if (i > j) {
				int tmp = i;
				i = j;
				j = tmp;
			}
			if (j - i < 2)
				continue;
			int a = t[i], b = t[i + 1], cc = t[j], d = t[(j + 1) % nc];
			int delta = dist[a * nc + cc] + dist[b * nc + d] - dist[a * nc + b] - dist[cc * nc + d];
			if (delta < 0) {
				cost += delta;
				for (int lo = i + 1, hi = j; lo < hi; lo++, hi--) {
					int tmp = t[lo];
					t[lo] = t[hi];
					t[hi] = tmp;
				}
			}
		}
		if (cost < best)
			best = cost;
	}
	return best;
}

static ws_result tsp_run(ws_sim *sim, ws_module *mod, enum ws_bench_size size, struct ws_bench_out *out)
{
	if ((unsigned)size >= WS_SIZE_COUNT)
		return bench_fail(NULL, out, WS_ERROR_INVALID_VALUE, "tsp: size");
	ws_result rc = WS_SUCCESS;
	int nc = tsp_sizes[size].ncity, ncl = tsp_sizes[size].nclimbers;
	int restarts = tsp_sizes[size].restarts, trials = tsp_sizes[size].trials;
	unsigned seed = TSP_SEED, grid = ((unsigned)ncl + TSP_THREADS - 1) / TSP_THREADS;
	/* device buffers: dist, tours, best, best_tour, lock */
	const size_t d_bytes[5] = {(size_t)nc * nc * 4, (size_t)nc * ncl * 4, 4, (size_t)nc * 4, 4};
	int32_t *dist = malloc(d_bytes[0]), *tour = malloc(d_bytes[3]), *t = malloc(d_bytes[3]);
	uint8_t *seen = calloc((size_t)nc, 1);
	int32_t best = INT32_MAX, lock = 0;
	ws_deviceptr d[5];
	int nd = 0;
	ws_function *fn;

	if (!dist || !tour || !t || !seen) {
		rc = bench_fail(NULL, out, WS_ERROR_OUT_OF_MEMORY, "tsp: host buffers");
		goto done;
	}
	struct bench_rng rng;
	bench_rng_seed(&rng, 13);
	int xs[128], ys[128];
	for (int k = 0; k < nc; k++) {
		xs[k] = (int)bench_rng_u32(&rng, 1000);
		ys[k] = (int)bench_rng_u32(&rng, 1000);
	}
	for (int a = 0; a < nc; a++)
		for (int b = 0; b < nc; b++)
			dist[a * nc + b] = (int32_t)lround(sqrt((double)(xs[a] - xs[b]) * (xs[a] - xs[b]) +
			                                        (double)(ys[a] - ys[b]) * (ys[a] - ys[b])));
	int want = INT32_MAX;
	for (int c = 0; c < ncl; c++) {
		int b = tsp_replay(dist, nc, c, restarts, trials, t);
		if (b < want)
			want = b;
	}

	BENCH_CALL(wsModuleGetFunction(&fn, mod, "tsp"));
	for (; nd < 5; nd++)
		BENCH_CALL(wsMemAlloc(sim, &d[nd], d_bytes[nd]));
	BENCH_CALL(wsMemcpyHtoD(sim, d[0], dist, d_bytes[0]));
	BENCH_CALL(wsMemcpyHtoD(sim, d[2], &best, 4));
	BENCH_CALL(wsMemsetD32(sim, d[3], 0xffffffffu, (size_t)nc));
	BENCH_CALL(wsMemsetD32(sim, d[4], 0, 1));
	void *args[] = {&d[0], &nc, &ncl, &restarts, &trials, &seed, &d[1], &d[2], &d[3], &d[4]};
	BENCH_CALL(wsLaunchKernel(fn, grid, 1, 1, TSP_THREADS, 1, 1, 0, args));
	out->launches++;
	BENCH_CALL(wsMemcpyDtoH(sim, &best, d[2], 4));
	BENCH_CALL(wsMemcpyDtoH(sim, tour, d[3], d_bytes[3]));
	BENCH_CALL(wsMemcpyDtoH(sim, &lock, d[4], 4));

	if (lock != 0) {
		rc = bench_mismatch(out, "tsp: lock: expected 0 (released), got %d", lock);
		goto done;
	}
	if (best != want) {
		rc = bench_mismatch(out, "tsp: best cost: expected %d (the best of every climb), got %d", want, best);
		goto done;
	}
	int cost = 0;
	for (int k = 0; k < nc; k++) {
		if (tour[k] < 0 || tour[k] >= nc || seen[tour[k]]) {
			rc = bench_mismatch(out, "tsp: best_tour[%d]: expected a city not yet in the tour, got %d", k,
			                    tour[k]);
			goto done;
		}
		seen[tour[k]] = 1;
		cost += dist[tour[k] * nc + tour[(k + 1) % nc]];
	}
	if (cost != best) {
		rc = bench_mismatch(out, "tsp: best_tour's cost: expected %d (the best cost), got %d", best, cost);
		goto done;
	}
	snprintf(out->msg, sizeof out->msg, "tsp: %d cities, %d climbers x %d climbs: best tour %d verified", nc, ncl,
	         restarts, best);
done:
	while (nd > 0)
		wsMemFree(sim, d[--nd]);
	free(dist);
	free(tour);
	free(t);
	free(seen);
	return rc;
}

/* nvcc emits the critical section twice (loop unswitching on ncity >= 1): two retry loops */
static const struct ws_sib_note tsp_sibs[] = {
    {"tsp", 657, "global-best lock retry loop (while (!done)), copy of the critical section with the tour copy"},
    {"tsp", 683, "global-best lock retry loop (while (!done)), copy without the tour copy"},
    {NULL, 0, NULL},
};

const struct ws_bench_info bench_tsp = {
    .name = "tsp",
    .description =
        "travelling salesman: 2-opt hill climbers (one per thread) publish their best tour into a global best",
    .sync = "one global spin lock around the best-tour update, once per climb (a tiny fraction of the instructions)",
    .paper = "BOWS (TSP)",
    .ctas_per_sm = 0,
    .warps_per_cta = TSP_THREADS / 32,
    .sizes = {"16 cities, 64 climbers x 2 climbs of 16 trials (1 CTA)",
              "32 cities, 256 climbers x 2 climbs of 100 trials (2 CTAs)",
              "76 cities, 3000 climbers x 2 climbs of 2000 trials (24 CTAs)"},
    .ptx = ws_bench_ptx_tsp,
    .sibs = tsp_sibs,
    .run = tsp_run,
};
