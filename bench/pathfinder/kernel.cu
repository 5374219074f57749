/*
 * pathfinder -- dynamic programming for the cheapest top-to-bottom path
 * through a rows x cols grid of non-negative integer costs, moving down one
 * row per step to the same column or a diagonal neighbour:
 *     cost[0][c] = wall[0][c]
 *     cost[r][c] = wall[r][c] + min(cost[r-1][c-1], cost[r-1][c], cost[r-1][c+1])
 * (neighbours outside the grid are left out).  Only one row of costs is
 * kept; the answer is the last row.
 *
 * Geometry: CTAs of PF_THREADS = 256 threads (8 warps), one column per
 * thread.  One launch advances `steps` rows (steps <= halo) using a ghost
 * zone: CTA b owns the PF_THREADS - 2*halo columns starting at
 * b * (PF_THREADS - 2*halo) and loads `halo` extra columns on each side,
 * so that after k rows the columns k .. PF_THREADS-1-k of its window are
 * still exact.  The previous row lives in shared memory; rows alternate
 * between two shared buffers, one __syncthreads() per row (a buffer is
 * overwritten only two rows later, after every thread has passed the
 * barrier that follows its last read).
 *
 * Synchronization: lightly synchronized -- one __syncthreads() per row and
 * one after the initial load; the columns at the window's edge drop out
 * one per side each row.
 */

#define PF_THREADS 256 /* must equal blockDim.x */

extern "C" __global__ void pathfinder(const int *wall, const int *src, int *dst, int cols, int first_row, int steps,
                                      int halo)
{
	__shared__ int buf[2][PF_THREADS];
	int tx = threadIdx.x;
	int c = blockIdx.x * (PF_THREADS - 2 * halo) - halo + tx; /* grid column of this thread */
	bool in = c >= 0 && c < cols;

	if (in)
		buf[0][tx] = src[c];
	__syncthreads();

	int cur = 0;
	for (int k = 1; k <= steps; k++) {
		if (in && tx >= k && tx < PF_THREADS - k) {
			int m = buf[cur][tx];
			if (c > 0)
				m = min(m, buf[cur][tx - 1]);
			if (c < cols - 1)
				m = min(m, buf[cur][tx + 1]);
			buf[cur ^ 1][tx] = m + wall[(first_row + k) * cols + c];
		}
		cur ^= 1;
		__syncthreads();
	}

	if (in && tx >= halo && tx < PF_THREADS - halo)
		dst[c] = buf[cur][tx];
}
