/*
 * qrg -- quasirandom generator (after the CUDA SDK's quasirandomGenerator):
 * a 3-dimensional base-2 digital (Sobol) low-discrepancy sequence and the
 * inverse cumulative normal distribution of a uniform grid.
 *
 * qrg_gen: point pos (0 <= pos < n, plus the launch's offset `seed`) of
 *   dimension d is the XOR of the direction numbers c_table[d][bit] for
 *   every set bit of (seed + pos), scaled by 2^-31 to a float in [0, 1);
 *   written to out[d * n + pos].  A 1-D grid of QRG_THREADS = 128-thread
 *   CTAs; each thread walks pos in a grid-stride loop and computes all three
 *   dimensions (the table lives in constant memory, 3 x 31 words).
 * qrg_icnd: Moro's (1995) inverse of the standard normal CDF of the uniform
 *   grid q = (i + 1) / (count + 1), i < count: a rational function in the
 *   central region |q - 0.5| < 0.42, a Chebyshev polynomial in
 *   log(-log(q)) in the tails (hardware __logf).  Same grid geometry,
 *   grid-stride loop.
 *
 * Synchronization: none.
 */

#define QRG_THREADS 128
#define QRG_DIMS 3
#define QRG_BITS 31

__constant__ unsigned int c_table[QRG_DIMS][QRG_BITS];

extern "C" __global__ void qrg_gen(float *out, unsigned int seed, int n)
{
	int stride = gridDim.x * QRG_THREADS;
	for (int pos = blockIdx.x * QRG_THREADS + threadIdx.x; pos < n; pos += stride) {
		unsigned int idx = seed + (unsigned int)pos;
		for (int d = 0; d < QRG_DIMS; d++) {
			unsigned int r = 0;
			for (int bit = 0; bit < QRG_BITS; bit++)
				if (idx & (1u << bit))
					r ^= c_table[d][bit];
			out[d * n + pos] = (float)r * (1.0f / 2147483648.0f);
		}
	}
}

__device__ float qrg_moro(float p)
{
	const float a1 = 2.50662823884f, a2 = -18.61500062529f, a3 = 41.39119773534f, a4 = -25.44106049637f;
	const float b1 = -8.4736109151f, b2 = 23.08336743743f, b3 = -21.06224101826f, b4 = 3.13082909833f;
	const float c1 = 0.337475482272615f, c2 = 0.976169019091719f, c3 = 0.160797971491821f,
	            c4 = 2.76438810333863e-2f, c5 = 3.8405729373609e-3f, c6 = 3.951896511919e-4f,
	            c7 = 3.21767881768e-5f, c8 = 2.888167364e-7f, c9 = 3.960315187e-7f;
	float y = p - 0.5f;
	float z;
	if (fabsf(y) < 0.42f) {
		float r = y * y;
		z = y * (((a4 * r + a3) * r + a2) * r + a1) / ((((b4 * r + b3) * r + b2) * r + b1) * r + 1.0f);
	} else {
		float r = y > 0.0f ? 1.0f - p : p;
		float s = __logf(-__logf(r));
		z = c1 + s * (c2 + s * (c3 + s * (c4 + s * (c5 + s * (c6 + s * (c7 + s * (c8 + s * c9)))))));
		if (y < 0.0f)
			z = -z;
	}
	return z;
}

extern "C" __global__ void qrg_icnd(float *out, int count)
{
	int stride = gridDim.x * QRG_THREADS;
	float step = 1.0f / (float)(count + 1);
	for (int i = blockIdx.x * QRG_THREADS + threadIdx.x; i < count; i += stride)
		out[i] = qrg_moro((float)(i + 1) * step);
}
