/*
 * nw2 -- lock-based Needleman-Wunsch wavefront, bottom-right to top-left
 * (the BOWS paper's NW2; NW1 traverses the other way): the suffix scores.
 *
 * S is the (n+1) x (n+1) global matrix of best scores of aligning the
 * suffixes a[i..] and b[j..] (bases 0..3, substitution table sub[4][4],
 * linear gap penalty `gap`); the host fills row n and column n.  Thread t
 * computes row i = n - 1 - t, right to left, in blocks of `blk` columns:
 *     S[i][j] = max(S[i+1][j+1] + sub[a[i]][b[j]], S[i+1][j] - gap, S[i][j+1] - gap).
 * done[i] counts the columns row i has finished from the right (the host
 * sets done[n] = n, the others 0); it is read and written only while
 * holding locks[i].  For each block the thread loops: take locks[i+1], read
 * done[i+1], release; if the row below is far enough, compute the block and
 * publish its own done under locks[i] (a nested lock loop), else retry.
 * Younger threads depend on older ones: the lanes of a warp take turns,
 * one row block per iteration, and each warp follows the one before it.
 *
 * Synchronization: the block is computed *inside* the iteration of the
 * wait loop that found the row below ready.  Waiting first and computing
 * after the loop would deadlock under a SIMT stack: the lane that is ready
 * leaves the loop and waits at its exit for its warp's other lanes, which
 * wait for that very lane's rows.  Each lock is acquired and released in
 * the same iteration.  The backward branches of both `while` loops are
 * spin-inducing (SIBs); the loops over blocks and columns are not.
 */

/* The value of b, hidden from the optimizer.  The wait loop's exit test
 * goes through it so that nvcc cannot jump-thread the not-ready path
 * straight back to the loop head: that would make the block computation
 * the reconvergence point of the not-ready branch, and the ready lane
 * would wait there for lanes that wait for it (see above). */
__device__ __forceinline__ bool opaque(bool b)
{
	unsigned v = b;
	asm volatile("mov.b32 %0, %0;" : "+r"(v));
	return v != 0;
}

extern "C" __global__ void nw2(const int *a, const int *b, int n, int blk, const int *sub, int gap, volatile int *S,
			       volatile int *done, int *locks)
{
	int t = blockIdx.x * blockDim.x + threadIdx.x;
	if (t >= n)
		return;
	int i = n - 1 - t, w = n + 1, ai = a[i];
	for (int k0 = 0; k0 < n; k0 += blk) {
		int k1 = min(k0 + blk, n); /* this block: columns n-k1 .. n-1-k0 */
		bool fin = false;
		while (!opaque(fin)) { /* lock the row below, read its count; if it is far enough, do the block */
			if (atomicCAS(&locks[i + 1], 0, 1) == 0) {
				int p = done[i + 1];
				__threadfence();
				atomicExch(&locks[i + 1], 0);
				if (p >= k1) {
					int right = S[i * w + n - k0];
					for (int j = n - 1 - k0; j >= n - k1; j--) {
						int v = S[(i + 1) * w + j + 1] + sub[ai * 4 + b[j]];
						v = max(v, S[(i + 1) * w + j] - gap);
						v = max(v, right - gap);
						S[i * w + j] = v;
						right = v;
					}
					__threadfence();
					bool pub = false;
					while (!pub) { /* publish under this row's lock */
						if (atomicCAS(&locks[i], 0, 1) == 0) {
							done[i] = k1;
							__threadfence();
							pub = atomicExch(&locks[i], 0) == 1; /* we hold it: 1 */
						}
					}
					fin = true;
				}
			}
		}
	}
}
