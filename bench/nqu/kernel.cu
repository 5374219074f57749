/*
 * nqu -- N-queens solution counting (GPGPU-Sim's NQU, written from
 * scratch): per-thread backtracking with explicit stacks in shared memory.
 *
 * The host places queens on the first k rows in every legal way; each such
 * prefix is one thread's job, given as three bitmasks (occupied columns,
 * left- and right-diagonal attacks on the next row).  A thread counts the
 * completions of its prefix over the remaining depth = n - k rows by
 * iterative depth-first search: the stack of (columns, diagonals, untried
 * positions) per level lives in shared memory, one column per thread
 * ([level][threadIdx.x]), as the original kernel keeps it.  Per-thread
 * counts are summed by a shared-memory tree reduction (96 -> 48 -> 24 ->
 * 12 -> 6 -> 3, thread 0 adds the last three) into counts[blockIdx.x].
 *
 * Divergence is heavy: every thread's search tree has its own shape, so
 * lanes push, pop and count at different iterations; CTAs of NQU_THREADS =
 * 96 threads (Table 1).  No global memory traffic inside the search.
 */

#define NQU_THREADS 96
#define NQU_MAXDEPTH 8

extern "C" __global__ void nqu(int n, int depth, int jobs, const unsigned *col, const unsigned *ldg, const unsigned *rdg,
                               unsigned *counts)
{
	__shared__ unsigned s_col[NQU_MAXDEPTH][NQU_THREADS];
	__shared__ unsigned s_ld[NQU_MAXDEPTH][NQU_THREADS];
	__shared__ unsigned s_rd[NQU_MAXDEPTH][NQU_THREADS];
	__shared__ unsigned s_free[NQU_MAXDEPTH][NQU_THREADS];
	__shared__ unsigned s_sum[NQU_THREADS];
	int t = threadIdx.x;
	int job = blockIdx.x * NQU_THREADS + t;
	unsigned all = (1u << n) - 1u;
	unsigned found = 0;
	if (job < jobs) {
		unsigned c = col[job], l = ldg[job], r = rdg[job];
		s_col[0][t] = c;
		s_ld[0][t] = l;
		s_rd[0][t] = r;
		s_free[0][t] = all & ~(c | l | r);
		int lvl = 0;
		while (lvl >= 0) {
			unsigned f = s_free[lvl][t];
			if (f == 0u) {
				lvl--;
				continue;
			}
			unsigned bit = f & (0u - f);
			s_free[lvl][t] = f ^ bit;
			if (lvl + 1 == depth) {
				found++;
				continue;
			}
			unsigned nc = s_col[lvl][t] | bit;
			unsigned nl = (s_ld[lvl][t] | bit) << 1;
			unsigned nr = (s_rd[lvl][t] | bit) >> 1;
			lvl++;
			s_col[lvl][t] = nc;
			s_ld[lvl][t] = nl;
			s_rd[lvl][t] = nr;
			s_free[lvl][t] = all & ~(nc | nl | nr);
		}
	}
	s_sum[t] = found;
	for (int half = NQU_THREADS / 2; half >= 3; half >>= 1) {
		__syncthreads();
		if (t < half)
			s_sum[t] += s_sum[t + half];
	}
	__syncthreads();
	if (t == 0)
		counts[blockIdx.x] = s_sum[0] + s_sum[1] + s_sum[2];
}
