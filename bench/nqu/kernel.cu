/*
 * nqu -- N-queens solution counting (GPGPU-Sim's ISPASS-2009 NQU, written
 * from scratch): per-thread backtracking with explicit stacks in shared
 * memory.
 *
 * The host places queens on the first k rows in every legal way; each such
 * prefix is one thread's job, given as three bitmasks (occupied columns,
 * left- and right-diagonal attacks on the next row).  A thread counts the
 * completions of its prefix over the remaining depth = n - k rows by
 * iterative depth-first search, in the original's form: per level the three
 * masks and a "tried" mask m (the attacked columns plus those already
 * tried); the next candidate is the lowest clear bit of m, (m + 1) & ~m, and
 * a candidate past the board's width means the level is exhausted.  The
 * stacks live in shared memory one row of NQU_LEVELS words per thread
 * ([threadIdx.x][level]), as the original keeps them (so the lanes of a warp
 * touch words NQU_LEVELS apart: 2-way bank conflicts on 32 banks).
 * Per-thread counts (0 for threads without a job) are summed by the
 * original's shared-memory tree reduction: a barrier, then halves of 64
 * (guarded to the 96 threads), 32, 16, 8, 4, 2 and 1, each followed by a
 * barrier (8 static barriers), into counts[blockIdx.x].
 *
 * Divergence is heavy: every thread's search tree has its own shape, so
 * lanes push, pop and count at different iterations; CTAs of NQU_THREADS =
 * 96 threads (Table 1).  No global memory traffic inside the search.
 */

#define NQU_THREADS 96
#define NQU_LEVELS 10

extern "C" __global__ void nqu(int n, int depth, int jobs, const unsigned *col, const unsigned *ldg, const unsigned *rdg,
                               unsigned *counts)
{
	__shared__ unsigned s_col[NQU_THREADS][NQU_LEVELS];
	__shared__ unsigned s_ld[NQU_THREADS][NQU_LEVELS];
	__shared__ unsigned s_rd[NQU_THREADS][NQU_LEVELS];
	__shared__ unsigned s_tried[NQU_THREADS][NQU_LEVELS];
	__shared__ unsigned s_sum[NQU_THREADS];
	int t = threadIdx.x;
	int job = blockIdx.x * NQU_THREADS + t;
	unsigned all = (1u << n) - 1u;
	if (job < jobs) {
		unsigned found = 0;
		int lvl = 0;
		s_col[t][0] = col[job];
		s_ld[t][0] = ldg[job];
		s_rd[t][0] = rdg[job];
		s_tried[t][0] = s_col[t][0] | s_ld[t][0] | s_rd[t][0];
		while (lvl >= 0) {
			unsigned m = s_tried[t][lvl];
			if ((m & all) == all) {
				lvl--;
				continue;
			}
			unsigned bit = (m + 1u) & ~m;
			s_tried[t][lvl] = m | bit;
			if ((bit & all) == 0u) {
				lvl--;
			} else if (lvl + 1 == depth) {
				found++;
				lvl--;
			} else {
				s_col[t][lvl + 1] = s_col[t][lvl] | bit;
				s_ld[t][lvl + 1] = (s_ld[t][lvl] | bit) << 1;
				s_rd[t][lvl + 1] = (s_rd[t][lvl] | bit) >> 1;
				s_tried[t][lvl + 1] = s_col[t][lvl + 1] | s_ld[t][lvl + 1] | s_rd[t][lvl + 1];
				lvl++;
			}
		}
		s_sum[t] = found;
	} else {
		s_sum[t] = 0;
	}
	__syncthreads();
	if (t < 64 && t + 64 < NQU_THREADS)
		s_sum[t] += s_sum[t + 64];
	__syncthreads();
	if (t < 32)
		s_sum[t] += s_sum[t + 32];
	__syncthreads();
	if (t < 16)
		s_sum[t] += s_sum[t + 16];
	__syncthreads();
	if (t < 8)
		s_sum[t] += s_sum[t + 8];
	__syncthreads();
	if (t < 4)
		s_sum[t] += s_sum[t + 4];
	__syncthreads();
	if (t < 2)
		s_sum[t] += s_sum[t + 2];
	__syncthreads();
	if (t < 1)
		s_sum[t] += s_sum[t + 1];
	__syncthreads();
	if (t == 0)
		counts[blockIdx.x] = s_sum[0];
}
