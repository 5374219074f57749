/*
 * ms -- merge sort of n unsigned 32-bit keys (ascending, keys only).
 *
 * Geometry follows the BAWS paper's MS (CUDA SDK mergeSort): CTAs of
 * MS_THREADS = 256 threads (8 warps); the code is our own.
 *
 * ms_tile: CTA b sorts the tile in[b*512 .. b*512+512) in shared memory
 *     with a bitonic sorting network (a partial last tile is padded with
 *     0xffffffff, which sorts last and is not written back).  Each of the
 *     45 compare-exchange steps has every thread order one pair of keys,
 *     then the CTA meets at a __syncthreads() before the next step.
 *
 * ms_merge: merges each pair of sorted runs of length `run` (a multiple
 *     of 512; the last pair may be short or lack its second run) into one
 *     run of 2*run.  CTA b writes output elements [b*512, b*512+512),
 *     which lie inside one pair.  Threads 0 and 1 find where the merge
 *     path crosses the CTA's first and last output diagonal by a binary
 *     search in global memory while the other warps wait at the barrier;
 *     the CTA stages the two input slices in shared memory (barrier);
 *     then each thread finds where the merge path crosses its own
 *     diagonal 2*tid inside the slices and merges two output keys.
 *     Ties are taken from the first run, so the merge is stable.
 *
 * Synchronization: barrier-intensive -- 46 __syncthreads() per tile in
 * ms_tile; in ms_merge 2 per CTA, the first after a search done by one
 * warp while the other seven wait.
 */

#define MS_THREADS 256 /* must equal blockDim.x */
#define MS_TILE 512    /* keys per CTA: 2 per thread */
#define MS_PAD 0xffffffffu

extern "C" __global__ void ms_tile(const unsigned *in, unsigned *out, int n)
{
	__shared__ unsigned key[MS_TILE];
	unsigned tid = threadIdx.x;
	int base = blockIdx.x * MS_TILE;

	key[tid] = base + (int)tid < n ? in[base + tid] : MS_PAD;
	key[tid + MS_THREADS] = base + (int)(tid + MS_THREADS) < n ? in[base + tid + MS_THREADS] : MS_PAD;
	__syncthreads();

	/* bitonic network: blocks of size k become sorted, alternately
	 * ascending and descending, until the whole tile (k = 512) ascends */
	#pragma unroll 1
	for (unsigned k = 2; k <= MS_TILE; k <<= 1) {
		#pragma unroll 1
		for (unsigned j = k >> 1; j > 0; j >>= 1) {
			unsigned i = ((tid & ~(j - 1)) << 1) | (tid & (j - 1)); /* pair (i, i + j) */
			unsigned a = key[i], b = key[i + j];
			bool ascending = (i & k) == 0;
			if ((a > b) == ascending) {
				key[i] = b;
				key[i + j] = a;
			}
			__syncthreads();
		}
	}

	if (base + (int)tid < n)
		out[base + tid] = key[tid];
	if (base + (int)(tid + MS_THREADS) < n)
		out[base + tid + MS_THREADS] = key[tid + MS_THREADS];
}

/* Merge path: how many of the first d outputs of merging run a (length na)
 * with run b (length nb) come from a, ties taken from a first.  The runs
 * are given as a base pointer and offsets, which keeps register pressure
 * (and thus occupancy) as the paper's. */
__device__ static int ms_split(const unsigned *p, int ao, int na, int bo, int nb, int d)
{
	int lo = d > nb ? d - nb : 0, hi = d < na ? d : na;
	#pragma unroll 1
	while (lo < hi) {
		int mid = (lo + hi) >> 1;
		if (p[ao + mid] <= p[bo + d - 1 - mid])
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

extern "C" __global__ void ms_merge(const unsigned *in, unsigned *out, int n, int run)
{
	__shared__ unsigned slice[MS_TILE]; /* a-slice, then b-slice */
	__shared__ int split[2];
	int tid = threadIdx.x;
	int first = blockIdx.x * MS_TILE;          /* first output index of this CTA */
	int pair = first / (2 * run) * (2 * run); /* start of its pair of runs */
	int na = min(run, n - pair);
	int nb = min(run, n - pair - na);
	int d0 = first - pair, d1 = min(d0 + MS_TILE, na + nb);

	if (tid < 2)
		split[tid] = ms_split(in, pair, na, pair + na, nb, tid ? d1 : d0);
	__syncthreads();

	int a0 = split[0];
	int la = split[1] - a0, lb = (d1 - d0) - la, b0 = d0 - a0;
	#pragma unroll 1
	for (int k = tid; k < la; k += MS_THREADS)
		slice[k] = in[pair + a0 + k];
	#pragma unroll 1
	for (int k = tid; k < lb; k += MS_THREADS)
		slice[la + k] = in[pair + na + b0 + k];
	__syncthreads();

	int d = 2 * tid;
	if (d < la + lb) {
		int i = ms_split(slice, 0, la, la, lb, d), j = d - i;
		#pragma unroll 1
		for (int s = 0; s < 2 && d + s < la + lb; s++) {
			bool take_a = j >= lb || (i < la && slice[i] <= slice[la + j]);
			out[first + d + s] = take_a ? slice[i++] : slice[la + j++];
		}
	}
}
