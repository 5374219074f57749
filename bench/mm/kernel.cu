/*
 * mm -- tiled dense matrix multiply, C = A * B (float, row-major):
 *     A is M x K, B is K x N, C is M x N, with M, N and K multiples of
 *     TILE (rectangular sizes are fine).
 *
 * Geometry follows the BAWS paper's MM (CUDA SDK matrixMul): CTAs of
 * TILE x TILE = 16 x 16 = 256 threads (8 warps), 6 CTAs per SM on a
 * GTX480.  CTA (bx, by) computes the 16 x 16 tile of C at rows by*16..,
 * columns bx*16.., one element per thread.  For each step along K the CTA
 * stages a 16 x 16 tile of A and one of B in shared memory:
 *     load tiles; __syncthreads(); 16 multiply-adds from shared memory;
 *     __syncthreads()  (before the tiles are overwritten).
 *
 * Synchronization: two __syncthreads() per tile step.
 */

#define TILE 16 /* blockDim.x == blockDim.y == TILE */

extern "C" __global__ void mm(const float *A, const float *B, float *C, int M, int N, int K)
{
	__shared__ float As[TILE][TILE];
	__shared__ float Bs[TILE][TILE];
	int tx = threadIdx.x, ty = threadIdx.y;
	int row = blockIdx.y * TILE + ty;
	int col = blockIdx.x * TILE + tx;
	float acc = 0.0f;

	for (int t = 0; t < K; t += TILE) {
		/* stage one tile of A and one of B, one element per thread each */
		As[ty][tx] = A[row * K + t + tx];
		Bs[ty][tx] = B[(t + ty) * N + col];
		__syncthreads();

		for (int k = 0; k < TILE; k++)
			acc += As[ty][k] * Bs[k][tx];
		__syncthreads();
	}
	C[row * N + col] = acc;
}
