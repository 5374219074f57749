/*
 * lud -- blocked LU decomposition without pivoting, in place, of an n x n
 * row-major float matrix (n a multiple of LU_TILE = 16): A = L U with L
 * unit lower triangular (stored below the diagonal) and U upper triangular
 * (on and above it).
 *
 * For each diagonal tile step k (offset o = 16 k) the host launches:
 *   lud_diagonal   1 CTA: factors the 16 x 16 diagonal tile A_kk = L_kk U_kk
 *                  in shared memory, 15 elimination steps of two barriers;
 *   lud_perimeter  one CTA per remaining tile j > k of block row and block
 *                  column k: U_kj = L_kk^-1 A_kj (forward substitution down
 *                  the rows) and L_jk = A_jk U_kk^-1 (column by column),
 *                  both tiles in shared memory, one barrier per step;
 *   lud_internal   one CTA per trailing tile (i, j), i, j > k:
 *                  A_ij -= L_ik U_kj, both factors staged in shared memory,
 *                  one barrier, then a 16-term dot product per thread.
 * Every CTA is LU_TILE x LU_TILE = 256 threads (8 warps), one thread per
 * tile element.
 *
 * Synchronization: __syncthreads inside the diagonal and perimeter kernels
 * (31 and 17 per CTA, counting the one after loading) and once in the
 * internal kernel; the kernel boundaries order the three phases of a step
 * and the steps.
 */

#define LU_TILE 16 /* blockDim.x == blockDim.y */

extern "C" __global__ void lud_diagonal(float *a, int n, int o)
{
	__shared__ float t[LU_TILE][LU_TILE];
	int tx = threadIdx.x, ty = threadIdx.y;
	float *base = a + o * n + o;

	t[ty][tx] = base[ty * n + tx];
	__syncthreads();
	for (int i = 0; i < LU_TILE - 1; i++) {
		/* column i below the pivot becomes L's multipliers */
		if (ty > i && tx == i)
			t[ty][i] = t[ty][i] / t[i][i];
		__syncthreads();
		/* rank-1 update of the trailing part of the tile */
		if (ty > i && tx > i)
			t[ty][tx] -= t[ty][i] * t[i][tx];
		__syncthreads();
	}
	base[ty * n + tx] = t[ty][tx];
}

extern "C" __global__ void lud_perimeter(float *a, int n, int o)
{
	__shared__ float d[LU_TILE][LU_TILE]; /* factored diagonal tile: L_kk and U_kk */
	__shared__ float u[LU_TILE][LU_TILE]; /* tile of block row k, becomes U_kj */
	__shared__ float l[LU_TILE][LU_TILE]; /* tile of block column k, becomes L_jk */
	int tx = threadIdx.x, ty = threadIdx.y;
	int p = o + (blockIdx.x + 1) * LU_TILE;

	d[ty][tx] = a[(o + ty) * n + o + tx];
	u[ty][tx] = a[(o + ty) * n + p + tx];
	l[ty][tx] = a[(p + ty) * n + o + tx];
	__syncthreads();
	for (int i = 0; i < LU_TILE; i++) {
		/* U_kj: row i is final; eliminate it from the rows below */
		if (ty > i)
			u[ty][tx] -= d[ty][i] * u[i][tx];
		/* L_jk: column i is final after the division by U's pivot */
		if (tx == i)
			l[ty][i] = l[ty][i] / d[i][i];
		__syncthreads();
		if (tx > i)
			l[ty][tx] -= l[ty][i] * d[i][tx];
		/* No second barrier: the next step's first phase reads row i+1 of
		 * u (written before the barrier above) and writes column i+1 of l
		 * only in the thread that just updated it; nothing the second
		 * phase reads (column i of l, d) is written by it. */
	}
	a[(o + ty) * n + p + tx] = u[ty][tx];
	a[(p + ty) * n + o + tx] = l[ty][tx];
}

extern "C" __global__ void lud_internal(float *a, int n, int o)
{
	__shared__ float lt[LU_TILE][LU_TILE]; /* L_ik */
	__shared__ float ut[LU_TILE][LU_TILE]; /* U_kj */
	int tx = threadIdx.x, ty = threadIdx.y;
	int r = o + (blockIdx.y + 1) * LU_TILE + ty;
	int c = o + (blockIdx.x + 1) * LU_TILE + tx;

	lt[ty][tx] = a[r * n + o + tx];
	ut[ty][tx] = a[(o + ty) * n + c];
	__syncthreads();
	float s = 0.0f;
	for (int k = 0; k < LU_TILE; k++)
		s += lt[ty][k] * ut[k][tx];
	a[r * n + c] -= s;
}
