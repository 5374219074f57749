/*
 * 3mm -- three chained matrix products (float, row-major):
 *     E = A * B   (ni x nk) * (nk x nj)
 *     F = C * D   (nj x nm) * (nm x nl)
 *     G = E * F   (ni x nj) * (nj x nl)
 * one launch of the same kernel each, in that order.
 *
 * mm3_gemm(X, Y, Z, rows, cols, inner) computes Z = X * Y with X rows x
 * inner and Y inner x cols: a 2-D grid of MM3_BX x MM3_BY = 32 x 8 = 256
 * thread CTAs (8 warps), one output element per thread, x along the
 * columns (so a warp reads a row segment of Y coalesced and broadcasts one
 * element of X), bounds-checked on both edges.  Each thread runs the plain
 * inner-product loop straight from global memory (no shared-memory
 * tiling), the usual straightforward CUDA formulation.  The loop is not
 * unrolled: that keeps the simulator's register estimate at ~16 per
 * thread, so 6 CTAs (48 warps, full occupancy) fit on a GTX480 SM
 * instead of 4 with nvcc's 4-way unrolling (~28 registers).
 *
 * Synchronization: none inside the kernel; the launch boundaries order the
 * three products (G reads E and F).
 */

#define MM3_BX 32 /* blockDim.x */
#define MM3_BY 8  /* blockDim.y */

extern "C" __global__ void mm3_gemm(const float *X, const float *Y, float *Z, int rows, int cols, int inner)
{
	int j = blockIdx.x * MM3_BX + threadIdx.x;
	int i = blockIdx.y * MM3_BY + threadIdx.y;
	if (i < rows && j < cols) {
		float acc = 0.0f;
#pragma unroll 1
		for (int k = 0; k < inner; k++)
			acc += X[i * inner + k] * Y[k * cols + j];
		Z[i * cols + j] = acc;
	}
}
