/*
 * ss -- similarity score (MapReduce style, after the Mars SS workload):
 * pairwise cosine similarity of document feature vectors,
 *     cos(i, j) = (d_i . d_j) / (|d_i| |d_j|),
 * where d_i is row i of the ndocs x nfeat row-major matrix `docs`
 * (ndocs a multiple of SS_T, nfeat a multiple of SS_T and at most
 * 32 * SS_T; no document is all zeros).  Term vectors are block-sparse:
 * a document uses only some topic blocks of SS_T consecutive features.
 *
 * Two kernels, both with CTAs of 256 threads (8 warps, the BAWS paper's SS
 * geometry):
 *
 * ss_norm: one warp per document: unit[i] = d_i / |d_i| (lane-strided sum
 *          of squares, warp-shuffle reduction), and blocks[i] bit c set
 *          iff features [16c, 16c + 16) of d_i are not all zero
 *          (__ballot_sync); no barriers.
 *
 * ss:      CTAs of SS_T x SS_T = 16 x 16 threads.  The similarity matrix is
 *          symmetric, so only the tiles on and above the diagonal are
 *          computed, as (document pair, score) records: CTA b takes the
 *          16 x 16 tile (tiles[b].x, tiles[b].y) with x <= y, thread
 *          (tx, ty) the pair i = 16 x + ty, j = 16 y + tx, and writes
 *          score[256 b + 16 ty + tx] = unit_i . unit_j.  Per block of 16
 *          features the CTA stages the 16 row and the 16 column documents'
 *          features in shared memory:
 *              load; __syncthreads();
 *              16 multiply-adds, skipped when the block is zero in the row
 *              document (so warps do unequal work);
 *              __syncthreads().
 *
 * Shared memory (ss): two 16 x 17 tiles (padded against bank conflicts),
 * 2176 B.
 *
 * Synchronization: two __syncthreads() per block of 16 features.
 */

#define SS_T 16 /* ss: blockDim.x == blockDim.y == SS_T; features per block */

extern "C" __global__ void ss_norm(const float *docs, int ndocs, int nfeat, float *unit, unsigned *blocks)
{
	int lane = threadIdx.x & 31;
	int doc = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
	if (doc >= ndocs)
		return;
	const float *d = docs + (size_t)doc * nfeat;
	float *u = unit + (size_t)doc * nfeat;
	float sq = 0.0f;
	unsigned nz = 0u;
	/* step m: lanes 0-15 read block 2m, lanes 16-31 block 2m + 1 (all
	 * lanes take every step, so the ballot sees the whole warp) */
#pragma unroll 1
	for (int m = 0; 32 * m < nfeat; m++) {
		int k = 32 * m + lane;
		float x = k < nfeat ? d[k] : 0.0f;
		sq += x * x;
		unsigned any = __ballot_sync(0xffffffffu, x != 0.0f);
		nz |= ((any & 0xffffu) != 0u ? 1u : 0u) << (2 * m);
		nz |= ((any >> 16) != 0u ? 1u : 0u) << (2 * m + 1);
	}
#pragma unroll
	for (int off = 16; off > 0; off >>= 1)
		sq += __shfl_xor_sync(0xffffffffu, sq, off);
	float inv = 1.0f / sqrtf(sq);
#pragma unroll 1
	for (int k = lane; k < nfeat; k += 32)
		u[k] = d[k] * inv;
	if (lane == 0)
		blocks[doc] = nz;
}

extern "C" __global__ void ss(const float *unit, const unsigned *blocks, int nfeat, const int2 *tiles,
                              float *score)
{
	__shared__ float tile[2][SS_T][SS_T + 1]; /* row documents' features, column documents' */
	int tx = threadIdx.x, ty = threadIdx.y;
	int2 t = tiles[blockIdx.x];
	const float *a = unit + (t.x * SS_T + ty) * nfeat + tx; /* feature tx of row document ty */
	const float *b = unit + (t.y * SS_T + ty) * nfeat + tx; /* ... and of column document ty */
	unsigned rowblocks = blocks[t.x * SS_T + ty];           /* non-zero blocks of row document ty */
	float dot = 0.0f;

	for (int k = 0; k < nfeat; k += SS_T, rowblocks >>= 1) {
		tile[0][ty][tx] = a[k];
		tile[1][ty][tx] = b[k];
		__syncthreads();
		if (rowblocks & 1u) {
#pragma unroll
			for (int kk = 0; kk < SS_T; kk++)
				dot += tile[0][ty][kk] * tile[1][tx][kk];
		}
		__syncthreads();
	}
	score[(blockIdx.x * SS_T + ty) * SS_T + tx] = dot;
}
