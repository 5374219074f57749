/*
 * bfs/host.c -- host driver of the bfs benchmark: breadth-first search
 * distances from vertex 0 of a random directed graph in CSR form.
 *
 * Graph: n vertices, each with an out-degree uniform in 1..BFS_MAX_DEG
 * (mean 5) to uniformly random targets (self-loops and repeated edges
 * allowed), so a few vertices have no in-edges and stay unreached (-1).
 *
 * Host loop (level-synchronous): dist = -1 except dist[0] = 0, frontier =
 * {0}; per level clear `next` and `changed`, launch bfs, read `changed`,
 * stop when it is 0, else swap the frontier arrays.  Distances are compared
 * exactly with a CPU queue-based BFS, and the number of launches must be
 * the graph's depth + 1 (the last launch finds nothing new).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

extern const char ws_bench_ptx_bfs[];

#define BFS_THREADS 512 /* 16 warps per CTA, as kernel.cu */
#define BFS_MAX_DEG 9

static const struct {
	int n;
} bfs_sizes[WS_SIZE_COUNT] = {
    {520},   /* 2 CTAs per level */
    {7000},  /* 14 CTAs per level */
    {80000}, /* 157 CTAs per level (3.5 waves of 3 CTAs/SM on 15 SMs) */
};

static ws_result bfs_run(ws_sim *sim, ws_module *mod, enum ws_bench_size size, struct ws_bench_out *out)
{
	if ((unsigned)size >= WS_SIZE_COUNT)
		return bench_fail(NULL, out, WS_ERROR_INVALID_VALUE, "bfs: size");
	ws_result rc = WS_SUCCESS;
	int n = bfs_sizes[size].n;
	int *row_start = malloc(((size_t)n + 1) * sizeof(int)), *adj = malloc((size_t)n * BFS_MAX_DEG * sizeof(int));
	int *dist = malloc((size_t)n * sizeof(int)), *expect = malloc((size_t)n * sizeof(int)),
	    *queue = malloc((size_t)n * sizeof(int));
	unsigned char *front = calloc((size_t)n, 1);
	ws_deviceptr d[6]; /* row_start, adj, frontier, next, dist, changed */
	int nd = 0;
	ws_function *fn;

	if (!row_start || !adj || !dist || !expect || !queue || !front) {
		rc = bench_fail(NULL, out, WS_ERROR_OUT_OF_MEMORY, "bfs: host buffers");
		goto done;
	}
	struct bench_rng rng;
	bench_rng_seed(&rng, 34);
	row_start[0] = 0;
	for (int v = 0; v < n; v++) {
		int deg = 1 + (int)bench_rng_u32(&rng, BFS_MAX_DEG);
		for (int k = 0; k < deg; k++)
			adj[row_start[v] + k] = (int)bench_rng_u32(&rng, (uint32_t)n);
		row_start[v + 1] = row_start[v] + deg;
	}
	int m = row_start[n];
	for (int v = 0; v < n; v++)
		dist[v] = -1;
	dist[0] = 0;
	front[0] = 1;

	const size_t d_bytes[6] = {((size_t)n + 1) * sizeof(int),
	                           (size_t)m * sizeof(int),
	                           (size_t)n,
	                           (size_t)n,
	                           (size_t)n * sizeof(int),
	                           sizeof(int)};
	BENCH_CALL(wsModuleGetFunction(&fn, mod, "bfs"));
	for (; nd < 6; nd++)
		BENCH_CALL(wsMemAlloc(sim, &d[nd], d_bytes[nd]));
	BENCH_CALL(wsMemcpyHtoD(sim, d[0], row_start, d_bytes[0]));
	BENCH_CALL(wsMemcpyHtoD(sim, d[1], adj, d_bytes[1]));
	BENCH_CALL(wsMemcpyHtoD(sim, d[2], front, d_bytes[2]));
	BENCH_CALL(wsMemcpyHtoD(sim, d[4], dist, d_bytes[4]));
	unsigned ctas = (unsigned)((n + BFS_THREADS - 1) / BFS_THREADS);
	int cur = 2, level = 0;
	for (;; level++) {
		int nxt = 5 - cur, changed = 0;
		if (level > n) { /* every level reaches at least one new vertex */
			rc = bench_mismatch(out, "bfs: still changing after %d launches on %d vertices", level, n);
			goto done;
		}
		BENCH_CALL(wsMemsetD8(sim, d[nxt], 0, (size_t)n));
		BENCH_CALL(wsMemsetD32(sim, d[5], 0, 1));
		void *args[] = {&d[0], &d[1], &d[cur], &d[nxt], &d[4], &d[5], &n, &level};
		BENCH_CALL(wsLaunchKernel(fn, ctas, 1, 1, BFS_THREADS, 1, 1, 0, args));
		out->launches++;
		BENCH_CALL(wsMemcpyDtoH(sim, &changed, d[5], sizeof changed));
		if (!changed)
			break;
		cur = nxt;
	}
	BENCH_CALL(wsMemcpyDtoH(sim, dist, d[4], d_bytes[4]));

	/* CPU reference: queue-based BFS */
	for (int v = 0; v < n; v++)
		expect[v] = -1;
	expect[0] = 0;
	int head = 0, tail = 0, depth = 0, reached = 0;
	queue[tail++] = 0;
	while (head < tail) {
		int v = queue[head++];
		if (expect[v] > depth)
			depth = expect[v];
		for (int e = row_start[v]; e < row_start[v + 1]; e++) {
			int u = adj[e];
			if (expect[u] < 0) {
				expect[u] = expect[v] + 1;
				queue[tail++] = u;
			}
		}
	}
	reached = tail;
	for (int v = 0; v < n; v++) {
		if (dist[v] != expect[v]) {
			rc = bench_mismatch(out, "bfs: dist[%d] (%d vertices, %d edges): expected %d, got %d", v, n, m,
			                    expect[v], dist[v]);
			goto done;
		}
	}
	if (level != depth) { /* launch L finds the vertices at distance L+1 */
		rc = bench_mismatch(out, "bfs: %d launches found new vertices, expected %d (the graph's depth)", level,
		                    depth);
		goto done;
	}
	snprintf(out->msg, sizeof out->msg, "bfs: %d vertices, %d edges, %d reached, depth %d verified", n, m, reached,
	         depth);
done:
	while (nd > 0)
		wsMemFree(sim, d[--nd]);
	free(row_start);
	free(adj);
	free(dist);
	free(expect);
	free(queue);
	free(front);
	return rc;
}

const struct ws_bench_info bench_bfs = {
    .name = "bfs",
    .description = "level-synchronous breadth-first search on a random CSR graph, one launch per level",
    .sync = "none in the kernel (kernel boundary per level, host loop); divergent edge loops, benign store races",
    .paper = "BAWS 6.5, DWR (BFS)",
    .ctas_per_sm = 0,
    .warps_per_cta = BFS_THREADS / 32,
    .sizes = {"520 vertices (2 CTAs per level)", "7000 vertices (14 CTAs per level)",
              "80,000 vertices (157 CTAs per level)"},
    .ptx = ws_bench_ptx_bfs,
    .run = bfs_run,
};
