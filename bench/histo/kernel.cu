/*
 * histo -- histogram of n 10-bit values with shared-memory atomics:
 *     hist[v] = number of i with data[i] == v,   v in [0, HISTO_BINS).
 *
 * Geometry follows the BAWS paper's HISTO (Parboil): CTAs of 512 threads
 * (16 warps).  Each CTA
 *   1. clears a private HISTO_BINS-bin histogram in shared memory,
 *      __syncthreads();
 *   2. walks the input with a grid-stride loop doing
 *      atomicAdd(&bins[data[i]], 1) on the shared histogram (lanes that hit
 *      the same bin conflict and serialize),  __syncthreads();
 *   3. merges its non-zero bins into the global histogram with global
 *      atomicAdd.
 * Every value must be < HISTO_BINS; the global histogram must be zeroed
 * before the launch.
 *
 * Synchronization: two __syncthreads() per CTA plus shared- and
 * global-memory atomics.
 */

#define HISTO_BINS 1024

extern "C" __global__ void histo(const unsigned short *data, int n, unsigned *hist)
{
	__shared__ unsigned bins[HISTO_BINS];
	unsigned tid = threadIdx.x;

	for (unsigned b = tid; b < HISTO_BINS; b += blockDim.x)
		bins[b] = 0;
	__syncthreads();

	for (int i = blockIdx.x * blockDim.x + tid; i < n; i += gridDim.x * blockDim.x)
		atomicAdd(&bins[data[i]], 1u);
	__syncthreads();

	for (unsigned b = tid; b < HISTO_BINS; b += blockDim.x) {
		unsigned c = bins[b];
		if (c != 0)
			atomicAdd(&hist[b], c);
	}
}
