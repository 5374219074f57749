/*
 * gaussian -- forward elimination of Gaussian elimination (no pivoting) on
 * an n x (n+1) augmented matrix [A | b], row-major, row stride n+1.
 *
 * The host loops over the pivots k = 0 .. n-2 and launches two kernels per
 * pivot:
 *   ge_multipliers  1-D grid of GE_THREADS = 256-thread CTAs (8 warps), one
 *                   thread per row r > k: m = a[r][k] / a[k][k], stored in
 *                   place of a[r][k] (so the finished matrix holds the unit
 *                   lower factor's multipliers below the diagonal);
 *   ge_eliminate    2-D grid of GE_TILE x GE_TILE = 16 x 16-thread CTAs
 *                   (8 warps), one thread per element of the trailing
 *                   sub-matrix r > k, k < c <= n (the right-hand side b is
 *                   column n): a[r][c] -= a[r][k] * a[k][c].
 * Back substitution on the upper triangle is left to the host.
 *
 * Synchronization: none inside a kernel; the kernel boundaries order the
 * pivots (the multipliers of pivot k are complete before its elimination,
 * and the elimination before the next pivot's multipliers).  Row k and
 * column k are only read by ge_eliminate, which writes rows > k and
 * columns > k, so no element is both read and written by one launch.
 */

#define GE_THREADS 256 /* blockDim.x of ge_multipliers */
#define GE_TILE 16     /* blockDim.x == blockDim.y of ge_eliminate */

extern "C" __global__ void ge_multipliers(float *a, int n, int k)
{
	int w = n + 1;
	int r = k + 1 + blockIdx.x * GE_THREADS + threadIdx.x;
	if (r < n)
		a[r * w + k] = a[r * w + k] / a[k * w + k];
}

extern "C" __global__ void ge_eliminate(float *a, int n, int k)
{
	int w = n + 1;
	int c = k + 1 + blockIdx.x * GE_TILE + threadIdx.x;
	int r = k + 1 + blockIdx.y * GE_TILE + threadIdx.y;
	if (r < n && c <= n)
		a[r * w + c] -= a[r * w + k] * a[k * w + c];
}
