/*
 * sp -- scalar (dot) products of many vector pairs:
 *     result[p] = sum_i a[p*n + i] * b[p*n + i],   p = 0 .. pairs-1
 * (pairs * n must fit in an int).
 *
 * Geometry follows the BAWS paper's SP (CUDA SDK scalarProd): CTAs of
 * SP_THREADS = 512 threads (16 warps), 3 CTAs per SM on a GTX480.  A CTA
 * handles pairs blockIdx.x, blockIdx.x + gridDim.x, ...  For each pair
 * every thread accumulates a strided partial sum (elements tid, tid+512,
 * ...), writes it to shared memory, and the CTA reduces the 512 partial
 * sums with a shared-memory tree: 256, 128, ..., 1 active threads, a
 * __syncthreads() after every level.  Thread 0 writes the pair's result.
 *
 * Synchronization: barrier-intensive -- 10 __syncthreads() per pair, with
 * ever fewer active warps per level, so most warps wait at barriers.
 *
 * The accumulation loop is not unrolled: that keeps register pressure at
 * ~21 registers per thread, which is what lets 3 CTAs of 512 threads share
 * the GTX480's 32K registers, as in the paper.
 */

#define SP_THREADS 512 /* must equal blockDim.x */

extern "C" __global__ void sp(const float *a, const float *b, float *result, int pairs, int n)
{
	__shared__ float partial[SP_THREADS];
	unsigned tid = threadIdx.x;

	for (int p = blockIdx.x; p < pairs; p += gridDim.x) {
		/* each thread: partial product over a strided slice of pair p */
		float sum = 0.0f;
		int end = (p + 1) * n;
#pragma unroll 1
		for (int i = p * n + tid; i < end; i += SP_THREADS)
			sum += a[i] * b[i];
		partial[tid] = sum;
		__syncthreads();

		/* tree reduction in shared memory, one barrier per level */
		for (unsigned s = SP_THREADS / 2; s > 0; s >>= 1) {
			if (tid < s)
				partial[tid] += partial[tid + s];
			__syncthreads();
		}
		if (tid == 0)
			result[p] = partial[0];
		/* No barrier needed before the next pair: the only thread that
		 * reads partial[] here (thread 0, element 0) is also the only one
		 * that overwrites that element next. */
	}
}
