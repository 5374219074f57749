/*
 * bhtb -- Barnes-Hut tree build (the BOWS paper's BH-TB, after Burtscher
 * and Pingali's CUDA BarnesHut), in two dimensions: n bodies at distinct
 * integer positions on a 2^20 x 2^20 grid are inserted into a quadtree
 * whose leaves hold at most one body.
 *
 * Cells: child[c*4 + q] is -1 (empty), -2 (locked), a body b (0 <= b < n)
 * or a cell n + c'; depth[c] is the cell's level (the root, cell 0, is
 * level 0 and is set up by the host with *ncells = 1).  The quadrant of a
 * body in a level-d cell is bit 19-d of x (bit 0 of q) and of y (bit 1).
 *
 * Thread t inserts bodies i = t, t + nthreads, ...: it walks down from the
 * root to the slot its body belongs in, locks that slot by atomicCAS of
 * the value it read to -2, and then either stores the body (empty slot) or
 * splits: allocates new cells (atomicAdd on *ncells) until the old body
 * and the new one fall in different quadrants, and publishes the new
 * subtree by writing the slot (after a fence), which also releases it.  A
 * failed attempt (slot locked, or changed) is retried from the same cell
 * in the next iteration.
 *
 * Throttling (as in Burtscher's kernel, which the BOWS paper describes):
 * every iteration of the insertion loop ends at a CTA barrier,
 * __syncthreads_or(more work in the CTA), so a thread attempts at most one
 * lock per barrier interval; all threads of the CTA keep iterating until
 * the whole CTA is done.  The lock is acquired and released within one
 * iteration.  The loop's backward branch is the spin-inducing branch (SIB);
 * the descent loop and the split loop are not.
 */

__device__ __forceinline__ int bh_quad(unsigned x, unsigned y, int d)
{
	int bit = 19 - d;
	return (int)(((x >> bit) & 1u) | (((y >> bit) & 1u) << 1));
}

extern "C" __global__ void bhtb(const unsigned *ux, const unsigned *uy, int n, volatile int *child, volatile int *depth,
				int *ncells)
{
	int stride = gridDim.x * blockDim.x;
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	unsigned x = 0, y = 0;
	if (i < n) {
		x = ux[i];
		y = uy[i];
	}
	int node = 0, q = 0;
	bool restart = true;
	while (__syncthreads_or(i < n)) {
		if (i < n) {
			if (restart) {
				node = 0;
				q = bh_quad(x, y, 0);
				restart = false;
			}
			int ch = child[node * 4 + q];
			while (ch >= n) { /* descend to the slot of body i */
				node = ch - n;
				q = bh_quad(x, y, depth[node]);
				ch = child[node * 4 + q];
			}
			if (ch != -2) {
				int *slot = (int *)&child[node * 4 + q];
				if (atomicCAS(slot, ch, -2) == ch) { /* slot locked */
					int patch = i;
					if (ch >= 0) { /* a body: split until the two bodies separate */
						int j = ch, d = depth[node] + 1, cur = -1, cq = 0;
						unsigned xj = ux[j], yj = uy[j];
						for (;;) {
							/* the host sizes the cell array for the worst case (every
							 * insertion splitting down to the last level), so there is no
							 * overflow check here: a trap would be an exit path that
							 * breaks the loop's post-dominance and with it SIMT
							 * reconvergence at the barrier */
							int c = atomicAdd(ncells, 1);
							depth[c] = d;
							for (int k = 0; k < 4; k++)
								child[c * 4 + k] = -1;
							if (cur < 0)
								patch = n + c;
							else
								child[cur * 4 + cq] = n + c;
							int qi = bh_quad(x, y, d), qj = bh_quad(xj, yj, d);
							if (qi != qj) {
								child[c * 4 + qi] = i;
								child[c * 4 + qj] = j;
								break;
							}
							cur = c;
							cq = qi;
							d++;
						}
					}
					__threadfence(); /* the new subtree is visible before the slot */
					atomicExch(slot, patch); /* publish and release */
					i += stride;
					restart = true;
					if (i < n) {
						x = ux[i];
						y = uy[i];
					}
				}
			}
		}
	}
}
