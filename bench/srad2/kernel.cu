/*
 * srad2 -- speckle reducing anisotropic diffusion (after Rodinia's SRAD
 * v2), one iteration = two kernels over a rows x cols image J (row-major
 * floats, rows and cols multiples of SRAD_T):
 *
 * srad_coef (first kernel): for every pixel, with neighbours clamped at
 *   the image border (J[-1][j] = J[0][j] ...),
 *     dN = J[i-1][j] - J[i][j],  dS = J[i+1][j] - J[i][j],
 *     dW = J[i][j-1] - J[i][j],  dE = J[i][j+1] - J[i][j],
 *     G2 = (dN^2 + dS^2 + dW^2 + dE^2) / J^2,   L = (dN + dS + dW + dE) / J,
 *     q2 = (G2 / 2 - L^2 / 16) / (1 + L / 4)^2,
 *     c  = 1 / (1 + (q2 - q0sqr) / (q0sqr (1 + q0sqr))), clamped to [0, 1];
 *   stores deriv = (dN, dS, dW, dE) and c.  The CTA stages its 16 x 16 tile of J with
 *   a one-pixel halo (18 x 18) in shared memory, __syncthreads(), then
 *   computes.
 *
 * srad_update (the benchmark's SRAD2 kernel): the diffusion update
 *     J[i][j] += lambda / 4 * (c[i][j] dN + c[i+1][j] dS + c[i][j] dW
 *                              + c[i][j+1] dE)
 *   with dN.. from deriv[i][j]
 *   (c[rows][j] = c[rows-1][j], c[i][cols] = c[i][cols-1]).  The CTA
 *   stages its 16 x 16 tile of c in shared memory; the south halo row is
 *   loaded by the last warp (ty = 15) and the east halo column by the
 *   lanes with tx = 15, so the last warp has the most loads and is the one
 *   the others wait for at the __syncthreads() -- the critical warp the
 *   BAWS paper describes for SRAD2.
 *
 * Geometry follows the BAWS paper's SRAD2: CTAs of 16 x 16 = 256 threads
 * (8 warps), one tile per CTA.  Shared memory: 1296 B (srad_coef), 1156 B
 * (srad_update).
 *
 * Synchronization: one __syncthreads() per CTA in each kernel.
 */

#define SRAD_T 16 /* blockDim.x == blockDim.y == SRAD_T */

/* t[r][q] = J at image position (i0 + r, j0 + q) clamped to the image, k = r * (SRAD_T + 2) + q */
__device__ static void stage_pixel(float (*t)[SRAD_T + 2], const float *J, int rows, int cols, int i0, int j0,
                                   unsigned k)
{
	unsigned r = k / (SRAD_T + 2), q = k % (SRAD_T + 2);
	int i = min(max(i0 + (int)r, 0), rows - 1), j = min(max(j0 + (int)q, 0), cols - 1);
	t[r][q] = J[i * cols + j];
}

extern "C" __global__ void srad_coef(const float *J, int rows, int cols, float q0sqr, float4 *deriv, float *c)
{
	__shared__ float t[SRAD_T + 2][SRAD_T + 2]; /* tile of J with a one-pixel halo */
	int tx = threadIdx.x, ty = threadIdx.y;
	int i0 = blockIdx.y * SRAD_T - 1, j0 = blockIdx.x * SRAD_T - 1; /* image position of t[0][0] */

	/* stage the 18 x 18 halo tile, 324 pixels over 256 threads */
	unsigned k = ty * SRAD_T + tx;
	stage_pixel(t, J, rows, cols, i0, j0, k);
	if (k < (SRAD_T + 2) * (SRAD_T + 2) - SRAD_T * SRAD_T)
		stage_pixel(t, J, rows, cols, i0, j0, k + SRAD_T * SRAD_T);
	__syncthreads();

	float jc = t[ty + 1][tx + 1];
	float n = t[ty][tx + 1] - jc, s = t[ty + 2][tx + 1] - jc;
	float w = t[ty + 1][tx] - jc, e = t[ty + 1][tx + 2] - jc;
	float g2 = (n * n + s * s + w * w + e * e) / (jc * jc);
	float l = (n + s + w + e) / jc;
	float num = 0.5f * g2 - 0.0625f * l * l;
	float den = 1.0f + 0.25f * l;
	float q2 = num / (den * den);
	den = (q2 - q0sqr) / (q0sqr * (1.0f + q0sqr));
	float cc = 1.0f / (1.0f + den);
	cc = cc < 0.0f ? 0.0f : cc > 1.0f ? 1.0f : cc;

	int at = (i0 + 1 + ty) * cols + j0 + 1 + tx;
	deriv[at] = make_float4(n, s, w, e);
	c[at] = cc;
}

extern "C" __global__ void srad_update(float *J, int rows, int cols, float lambda, const float4 *deriv,
                                       const float *c)
{
	__shared__ float ct[SRAD_T + 1][SRAD_T + 1]; /* tile of c with the south and east halo */
	int tx = threadIdx.x, ty = threadIdx.y;
	int i = blockIdx.y * SRAD_T + ty, j = blockIdx.x * SRAD_T + tx;
	int at = i * cols + j;

	ct[ty][tx] = c[at];
	if (ty == SRAD_T - 1) /* the last warp: south halo row */
		ct[SRAD_T][tx] = c[min(i + 1, rows - 1) * cols + j];
	if (tx == SRAD_T - 1) /* east halo column */
		ct[ty][SRAD_T] = c[i * cols + min(j + 1, cols - 1)];
	__syncthreads();

	float cn = ct[ty][tx];
	float4 dv = deriv[at];
	float d = cn * dv.x + ct[ty + 1][tx] * dv.y + cn * dv.z + ct[ty][tx + 1] * dv.w;
	J[at] += 0.25f * lambda * d;
}
