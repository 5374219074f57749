/*
 * bfs -- one level of a level-synchronous breadth-first search over a
 * directed graph in CSR form (out-edges of vertex v are
 * adj[row_start[v] .. row_start[v+1]-1]).
 *
 * One thread per vertex, CTAs of BFS_THREADS = 512 threads (16 warps), as
 * common CUDA BFS codes use.  A thread whose vertex is in the current
 * frontier (frontier[v] != 0) walks its out-edges; every neighbour u not
 * yet reached (dist[u] < 0) gets dist[u] = level + 1, joins the next
 * frontier (next[u] = 1) and the launch reports progress (*changed = 1).
 * Several threads may discover the same u in one launch; they all store
 * the same values, so the race is benign.  The host clears `next` and
 * `changed` before each launch, swaps the frontier arrays after it and
 * stops after the first launch that changes nothing.
 *
 * Synchronization: none inside the kernel (the kernel boundary is the
 * level barrier); heavily divergent -- most threads leave at once, the
 * rest loop over out-degrees that differ from lane to lane.
 */

#define BFS_THREADS 512 /* blockDim.x */

extern "C" __global__ void bfs(const int *row_start, const int *adj, const unsigned char *frontier, unsigned char *next,
                               int *dist, int *changed, int n, int level)
{
	int v = blockIdx.x * blockDim.x + threadIdx.x;
	if (v >= n || !frontier[v])
		return;
	int end = row_start[v + 1];
	for (int e = row_start[v]; e < end; e++) {
		int u = adj[e];
		if (dist[u] < 0) {
			dist[u] = level + 1;
			next[u] = 1;
			*changed = 1;
		}
	}
}
