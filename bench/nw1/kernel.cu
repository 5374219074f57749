/*
 * nw1 -- lock-based Needleman-Wunsch wavefront, top-left to bottom-right
 * (the BOWS paper's NW1; NW2 traverses the other way).
 *
 * H is the (n+1) x (n+1) global score matrix of sequences a and b (bases
 * 0..3, substitution table sub[4][4], linear gap penalty `gap`); the host
 * fills row 0 and column 0.  Thread t computes row r = t + 1, left to
 * right, in blocks of `blk` columns:
 *     H[r][c] = max(H[r-1][c-1] + sub[a[r-1]][b[c-1]], H[r-1][c] - gap, H[r][c-1] - gap).
 * progress[r] is the last column row r has finished (the host sets
 * progress[0] = n and the others to 0); it is read and written only while
 * holding locks[r].  For each block the thread loops: take locks[r-1], read
 * progress[r-1], release; if the row above is far enough, compute the block and
 * publish its own progress under locks[r] (a nested lock loop), else retry.
 * Younger threads depend on older ones: the lanes of a warp take turns,
 * one row block per iteration, and each warp follows the one before it.
 *
 * Synchronization: the block is computed *inside* the iteration of the
 * wait loop that found the row above ready.  Waiting first and computing
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

extern "C" __global__ void nw1(const int *a, const int *b, int n, int blk, const int *sub, int gap, volatile int *H,
			       volatile int *progress, int *locks)
{
	int r = blockIdx.x * blockDim.x + threadIdx.x + 1;
	if (r > n)
		return;
	int w = n + 1, ar = a[r - 1];
	for (int c0 = 1; c0 <= n; c0 += blk) {
		int c1 = min(c0 + blk - 1, n);
		bool done = false;
		while (!opaque(done)) { /* lock the row above, read its progress; if it is far enough, do the block */
			if (atomicCAS(&locks[r - 1], 0, 1) == 0) {
				int p = progress[r - 1];
				__threadfence();
				atomicExch(&locks[r - 1], 0);
				if (p >= c1) {
					int left = H[r * w + c0 - 1];
					for (int c = c0; c <= c1; c++) {
						int v = H[(r - 1) * w + c - 1] + sub[ar * 4 + b[c - 1]];
						v = max(v, H[(r - 1) * w + c] - gap);
						v = max(v, left - gap);
						H[r * w + c] = v;
						left = v;
					}
					__threadfence(); /* the block is visible before the progress that announces it */
					bool pub = false;
					while (!pub) { /* publish under this row's lock */
						if (atomicCAS(&locks[r], 0, 1) == 0) {
							progress[r] = c1;
							__threadfence();
							pub = atomicExch(&locks[r], 0) == 1; /* we hold it: 1 */
						}
					}
					done = true;
				}
			}
		}
	}
}
