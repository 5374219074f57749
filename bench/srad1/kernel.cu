/*
 * srad1 -- speckle-reducing anisotropic diffusion (SRAD, Yu and Acton
 * 2002), first version: the whole image J (rows x cols floats, row-major,
 * positive) diffuses for a number of iterations; each iteration is three
 * launches:
 *   srad_stats   1-D grid of SR_THREADS = 256-thread CTAs: each CTA sums
 *                its 256 pixels and their squares with a shared-memory tree
 *                reduction (a __syncthreads per level) and writes one
 *                partial sum of each; the host adds the partials and forms
 *                the speckle scale q0^2 = var / mean^2 of the image;
 *   srad_coef    2-D grid of SR_TILE x SR_TILE = 16 x 16-thread CTAs, one
 *                thread per pixel: the four directional derivatives
 *                (neighbour minus centre, replicated at the image border),
 *                the normalized gradient and Laplacian, the instantaneous
 *                coefficient of variation q^2 and the diffusion
 *                coefficient c = 1 / (1 + (q^2 - q0^2) / (q0^2 (1 + q0^2)))
 *                clamped to [0, 1];
 *   srad_update  same grid: divergence D = c_N dN + c_S dS + c_W dW + c_E dE
 *                with c_N = c_W = c(centre), c_S = c(south), c_E = c(east),
 *                and J += lambda / 4 * D.
 * Every CTA is 8 warps.
 *
 * Synchronization: __syncthreads only in srad_stats' reduction (9 per
 * CTA); srad_coef and srad_update are synchronization-free, ordered by the
 * kernel boundaries.
 */

#define SR_THREADS 256 /* blockDim.x of srad_stats */
#define SR_TILE 16     /* blockDim.x == blockDim.y of srad_coef and srad_update */

extern "C" __global__ void srad_stats(const float *J, float *psum, float *psq, int npix)
{
	__shared__ float s[SR_THREADS];
	__shared__ float q[SR_THREADS];
	int tid = threadIdx.x;
	int i = blockIdx.x * SR_THREADS + tid;
	float v = i < npix ? J[i] : 0.0f;

	s[tid] = v;
	q[tid] = v * v;
	__syncthreads();
	for (int stride = SR_THREADS / 2; stride > 0; stride >>= 1) {
		if (tid < stride) {
			s[tid] += s[tid + stride];
			q[tid] += q[tid + stride];
		}
		__syncthreads();
	}
	if (tid == 0) {
		psum[blockIdx.x] = s[0];
		psq[blockIdx.x] = q[0];
	}
}

extern "C" __global__ void srad_coef(const float *J, float *dN, float *dS, float *dW, float *dE, float *c, int rows,
                                     int cols, float q0sqr)
{
	int x = blockIdx.x * SR_TILE + threadIdx.x;
	int y = blockIdx.y * SR_TILE + threadIdx.y;
	if (x >= cols || y >= rows)
		return;
	int i = y * cols + x;
	float jc = J[i];
	float n = y > 0 ? J[i - cols] - jc : 0.0f;
	float s = y < rows - 1 ? J[i + cols] - jc : 0.0f;
	float w = x > 0 ? J[i - 1] - jc : 0.0f;
	float e = x < cols - 1 ? J[i + 1] - jc : 0.0f;

	float g2 = (n * n + s * s + w * w + e * e) / (jc * jc);
	float l = (n + s + w + e) / jc;
	float num = 0.5f * g2 - 0.0625f * (l * l);
	float den = 1.0f + 0.25f * l;
	float qsqr = num / (den * den);
	den = (qsqr - q0sqr) / (q0sqr * (1.0f + q0sqr));
	float cc = 1.0f / (1.0f + den);
	cc = cc < 0.0f ? 0.0f : cc > 1.0f ? 1.0f : cc;

	dN[i] = n;
	dS[i] = s;
	dW[i] = w;
	dE[i] = e;
	c[i] = cc;
}

extern "C" __global__ void srad_update(float *J, const float *dN, const float *dS, const float *dW, const float *dE,
                                       const float *c, int rows, int cols, float lambda)
{
	int x = blockIdx.x * SR_TILE + threadIdx.x;
	int y = blockIdx.y * SR_TILE + threadIdx.y;
	if (x >= cols || y >= rows)
		return;
	int i = y * cols + x;
	float cc = c[i];
	float cs = y < rows - 1 ? c[i + cols] : cc;
	float ce = x < cols - 1 ? c[i + 1] : cc;
	float d = cc * dN[i] + cs * dS[i] + cc * dW[i] + ce * dE[i];
	J[i] = J[i] + 0.25f * lambda * d;
}
