/*
 * 3mm -- three chained matrix products (float, row-major):
 *     E = A * B   (ni x nk) * (nk x nj)
 *     F = C * D   (nj x nm) * (nm x nl)
 *     G = E * F   (ni x nj) * (nj x nl)
 * one launch of the same kernel each, in that order.
 *
 * mm3_gemm(X, Y, Z, rows, cols, inner) computes Z += X * Y with X rows x
 * inner and Y inner x cols (the host zeroes Z first): a 2-D grid of MM3_BX x
 * MM3_BY = 32 x 8 = 256 thread CTAs (8 warps), one output element per
 * thread, x along the columns (so a warp reads a row segment of Y coalesced
 * and broadcasts one element of X), bounds-checked on both edges.  As in
 * PolyBench-GPU's 3mm, each step of the inner-product loop adds into the
 * output element in global memory (Z[i][j] += X[i][k] * Y[k][j]): Z may
 * alias X or Y, so every step loads and stores Z, and the kernel is bound by
 * memory traffic rather than by the two input streams.  nvcc unrolls the
 * loop 4 times (16 global loads and stores in the body, 32 registers per
 * thread on sm_75), so 4 CTAs fit on a GTX480 SM and 8 on a TITAN X SM,
 * as the original's.
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
		for (int k = 0; k < inner; k++)
			Z[i * cols + j] += X[i * inner + k] * Y[k * cols + j];
	}
}
