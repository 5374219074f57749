/*
 * conv3d -- 3-D convolution (after PolyBench/GPU 3DCONV): B = W * A over
 * the interior of an ni x nj x nk float volume (row-major, k fastest),
 * with a fixed 3 x 3 x 3 filter W (27 taps, compile-time constants,
 * CONV3D_W below; host.c has the same table).  The boundary (i, j or k on
 * the volume's faces) is not written.
 *
 * As in PolyBench, one launch per interior plane i = 1 .. ni-2: a 2-D grid
 * of CONV3D_BX x CONV3D_BY = 32 x 8 thread CTAs (8 warps) over (k, j), one
 * output element per thread, k along threadIdx.x so a warp reads 32
 * consecutive floats of each of the 9 input rows it touches.  Threads on
 * the plane's border (j or k = 0 or the last) do nothing.
 *
 * Synchronization: none; launches are independent (B only written).
 */

#define CONV3D_BX 32
#define CONV3D_BY 8

extern "C" __global__ void conv3d_plane(const float *A, float *B, int ni, int nj, int nk, int i)
{
	const float w[3][3][3] = {
	    {{0.5f, -0.25f, 0.125f}, {0.75f, -1.0f, 0.25f}, {-0.5f, 0.375f, 0.625f}},
	    {{-0.125f, 0.5f, -0.75f}, {1.0f, 2.0f, -1.0f}, {0.25f, -0.5f, 0.875f}},
	    {{0.375f, -0.625f, 0.25f}, {-0.25f, 0.5f, 0.125f}, {0.75f, -0.375f, -0.5f}},
	};
	int k = blockIdx.x * CONV3D_BX + threadIdx.x;
	int j = blockIdx.y * CONV3D_BY + threadIdx.y;
	if (k < 1 || k >= nk - 1 || j < 1 || j >= nj - 1)
		return;
	float acc = 0.0f;
#pragma unroll
	for (int di = 0; di < 3; di++)
#pragma unroll
		for (int dj = 0; dj < 3; dj++)
#pragma unroll
			for (int dk = 0; dk < 3; dk++)
				acc += w[di][dj][dk] * A[((i + di - 1) * nj + (j + dj - 1)) * nk + (k + dk - 1)];
	B[(i * nj + j) * nk + k] = acc;
}
