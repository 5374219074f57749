/*
 * scan -- exclusive prefix sum of a large unsigned array, after the CUDA
 * SDK 2.3 `scanLargeArray` sample (the DWR paper's SC), written from
 * scratch: work-efficient (Blelloch) up-sweep / down-sweep in shared
 * memory, two elements per thread.
 *
 * scan_block: each CTA of SCAN_THREADS = 256 threads scans its 512-element
 * block in shared memory (9 up-sweep levels, clear the root, 9 down-sweep
 * levels, a __syncthreads before each level), writes the block's
 * exclusive scan and, when `sums` is not null, the block total to
 * sums[blockIdx.x].  Elements past n read as 0 and are not written.
 * scan_add: adds incr[blockIdx.x] (the scanned block totals) to the block's
 * 512 elements.  The host scans the block totals with scan_block again
 * (recursively) before scan_add.
 *
 * Global memory instructions: 2 loads + 3 stores in scan_block (the paper's
 * 5 LATs), all coalesced; branch divergence is low: only the shrinking set
 * of active threads per tree level.
 */

#define SCAN_THREADS 256
#define SCAN_ELEMS (2 * SCAN_THREADS)

extern "C" __global__ void scan_block(const unsigned *in, unsigned *out, unsigned *sums, int n)
{
	__shared__ unsigned s[SCAN_ELEMS];
	int t = threadIdx.x;
	int a = blockIdx.x * SCAN_ELEMS + t, b = a + SCAN_THREADS;
	s[t] = a < n ? in[a] : 0u;
	s[t + SCAN_THREADS] = b < n ? in[b] : 0u;
	int offset = 1;
	for (int d = SCAN_THREADS; d > 0; d >>= 1) {
		__syncthreads();
		if (t < d) {
			int ai = offset * (2 * t + 1) - 1, bi = offset * (2 * t + 2) - 1;
			s[bi] += s[ai];
		}
		offset <<= 1;
	}
	__syncthreads();
	if (t == 0) {
		if (sums)
			sums[blockIdx.x] = s[SCAN_ELEMS - 1];
		s[SCAN_ELEMS - 1] = 0u;
	}
	for (int d = 1; d < SCAN_ELEMS; d <<= 1) {
		offset >>= 1;
		__syncthreads();
		if (t < d) {
			int ai = offset * (2 * t + 1) - 1, bi = offset * (2 * t + 2) - 1;
			unsigned x = s[ai];
			s[ai] = s[bi];
			s[bi] += x;
		}
	}
	__syncthreads();
	if (a < n)
		out[a] = s[t];
	if (b < n)
		out[b] = s[t + SCAN_THREADS];
}

extern "C" __global__ void scan_add(unsigned *data, const unsigned *incr, int n)
{
	unsigned v = incr[blockIdx.x];
	int a = blockIdx.x * SCAN_ELEMS + threadIdx.x, b = a + SCAN_THREADS;
	if (a < n)
		data[a] += v;
	if (b < n)
		data[b] += v;
}
