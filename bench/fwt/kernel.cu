/*
 * fwt -- fast Walsh-Hadamard transform (unnormalized, natural order) of
 * 32-bit integer vectors, in place:
 *     X[k] = sum_i (-1)^popcount(i & k) x[i],
 * for a batch of vectors of 1024 * 2^m elements stored back to back.
 *
 * Geometry follows the BAWS paper's FWT (CUDA SDK fastWalshTransform):
 * CTAs of FWT_THREADS = 512 threads (16 warps), 3 CTAs per SM (the warp
 * limit); the code is our own.  The transform is a product of one radix-2
 * butterfly stage per index bit, and stages on different bits commute, so
 * it splits into launches:
 *
 * fwt_local: the 10 low-bit stages.  CTA b loads the contiguous block
 *     data[b*1024 .. b*1024+1024) into shared memory and runs the stages
 *     h = 1, 2, .., 512 (unrolled); in each stage every thread does one
 *     butterfly (x[i], x[i+h]) <- (x[i] + x[i+h], x[i] - x[i+h]) and the
 *     CTA meets at a __syncthreads() before the next stage.
 *
 * fwt_global: the stages of index bits lowbit .. lowbit+nbits-1 (the
 *     "global" stages of a long vector, nbits <= 5 per launch).  Taking
 *     those bits as a row index, each CTA stages a tile of 2^nbits rows
 *     of L = 1024 >> nbits contiguous ints (rows 2^lowbit ints apart) in
 *     shared memory and runs one butterfly stage per bit across the rows,
 *     a __syncthreads() after each, as fwt_local.
 *
 * Synchronization: barrier-intensive -- 11 __syncthreads() per CTA of
 * fwt_local and nbits + 1 per CTA of fwt_global, one butterfly per thread
 * (about 7 instructions) between them.  Integer arithmetic (wrapping), so
 * the result is exact.
 */

#define FWT_THREADS 512 /* must equal blockDim.x */
#define FWT_BLOCK 1024  /* elements per CTA: one butterfly per thread per stage */
#define FWT_LOG2BLOCK 10

extern "C" __global__ void fwt_local(int *data)
{
	__shared__ int x[FWT_BLOCK];
	unsigned tid = threadIdx.x;
	int *blk = data + blockIdx.x * FWT_BLOCK;

	x[tid] = blk[tid];
	x[tid + FWT_THREADS] = blk[tid + FWT_THREADS];
	__syncthreads();

	#pragma unroll
	for (unsigned h = 1; h < FWT_BLOCK; h <<= 1) {
		unsigned i = ((tid & ~(h - 1)) << 1) | (tid & (h - 1)); /* butterfly (i, i + h) */
		int a = x[i], b = x[i + h];
		x[i] = a + b;
		x[i + h] = a - b;
		__syncthreads();
	}

	blk[tid] = x[tid];
	blk[tid + FWT_THREADS] = x[tid + FWT_THREADS];
}

/* The butterfly stages over the rows of the 2^NB x (1024 >> NB) tile x[],
 * unrolled like fwt_local's (NB is a compile-time constant). */
template <unsigned NB> __device__ static void fwt_rows(int *x, unsigned tid)
{
	const unsigned log2l = FWT_LOG2BLOCK - NB, l = 1u << log2l;
	unsigned c = tid & (l - 1), p = tid >> log2l; /* column, pair of rows */
	#pragma unroll
	for (unsigned h = 1; h < (1u << NB); h <<= 1) {
		unsigned j = ((p & ~(h - 1)) << 1) | (p & (h - 1)); /* rows (j, j + h) */
		unsigned e0 = (j << log2l) | c, e1 = e0 + (h << log2l);
		int a = x[e0], b = x[e1];
		x[e0] = a + b;
		x[e1] = a - b;
		__syncthreads();
	}
}

/* Stages for index bits lowbit .. lowbit+nbits-1 (lowbit >= 10,
 * 1 <= nbits <= 5) of a vector of N = 1024 * gridDim.x elements.  With the
 * row index j taken from those bits, element (j, c) of CTA b's tile is
 * data[(hi << (lowbit + nbits)) + (j << lowbit) + lo0 + c], for the
 * L = 1024 >> nbits columns c starting at lo0 of block hi. */
extern "C" __global__ void fwt_global(int *data, int lowbit, int nbits)
{
	__shared__ int x[FWT_BLOCK]; /* 2^nbits rows x L columns, row-major */
	unsigned tid = threadIdx.x;
	unsigned log2l = FWT_LOG2BLOCK - nbits, l = 1u << log2l;
	unsigned per_hi = 1u << (lowbit - log2l); /* CTAs per block of 2^(lowbit+nbits) elements */
	int *col = data + ((size_t)(blockIdx.x / per_hi) << (lowbit + nbits)) + (blockIdx.x % per_hi) * l;

	#pragma unroll 1
	for (unsigned e = tid; e < FWT_BLOCK; e += FWT_THREADS)
		x[e] = col[((size_t)(e >> log2l) << lowbit) + (e & (l - 1))];
	__syncthreads();

	switch (nbits) {
	case 1: fwt_rows<1>(x, tid); break;
	case 2: fwt_rows<2>(x, tid); break;
	case 3: fwt_rows<3>(x, tid); break;
	case 4: fwt_rows<4>(x, tid); break;
	default: fwt_rows<5>(x, tid); break;
	}

	#pragma unroll 1
	for (unsigned e = tid; e < FWT_BLOCK; e += FWT_THREADS)
		col[((size_t)(e >> log2l) << lowbit) + (e & (l - 1))] = x[e];
}
