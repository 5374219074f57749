/*
 * mriq -- MRI-Q (Parboil): the Q matrix of a non-Cartesian MRI scan,
 *     Q(x) = sum_k |phi(k)|^2 * exp(i 2 pi k . x)
 * for every voxel position x, over the k-space sample trajectory k.
 *
 * Two kernels, as in Parboil:
 *   mriq_phimag: phiMag[k] = phiR[k]^2 + phiI[k]^2, one thread per sample
 *     (CTAs of MRIQ_PHI_THREADS = 512 threads);
 *   mriq_q: one thread per voxel (CTAs of MRIQ_Q_THREADS = 256 threads,
 *     8 warps); it loops over one chunk of k-space samples held in constant
 *     memory (struct mriq_kval: kx, ky, kz, phiMag) and accumulates into
 *     Qr, Qi in global memory.  The host launches it once per chunk of at
 *     most MRIQ_CHUNK samples, copying the chunk into c_kvals before each
 *     launch (Parboil's KERNEL_Q_K_ELEMS_PER_GRID), so every warp reads the
 *     same constant address at the same time (broadcast).
 * Sine and cosine use the hardware approximations (__sinf/__cosf,
 * sin.approx/cos.approx); the arguments stay within a few radians.
 *
 * Synchronization: none; launch boundaries order the chunks.
 */

#define MRIQ_PHI_THREADS 512
#define MRIQ_Q_THREADS 256
#define MRIQ_CHUNK 256
#define MRIQ_PIx2 6.2831853071795864769f

struct mriq_kval {
	float kx, ky, kz, phimag;
};

__constant__ mriq_kval c_kvals[MRIQ_CHUNK];

extern "C" __global__ void mriq_phimag(const float *phiR, const float *phiI, float *phiMag, int numK)
{
	int k = blockIdx.x * MRIQ_PHI_THREADS + threadIdx.x;
	if (k < numK) {
		float r = phiR[k], i = phiI[k];
		phiMag[k] = r * r + i * i;
	}
}

extern "C" __global__ void mriq_q(int numK, int numX, const float *x, const float *y, const float *z, float *Qr,
                                  float *Qi)
{
	int t = blockIdx.x * MRIQ_Q_THREADS + threadIdx.x;
	if (t >= numX)
		return;
	float sx = x[t], sy = y[t], sz = z[t];
	float qr = Qr[t], qi = Qi[t];
	for (int k = 0; k < numK; k++) {
		float arg = MRIQ_PIx2 * (c_kvals[k].kx * sx + c_kvals[k].ky * sy + c_kvals[k].kz * sz);
		float m = c_kvals[k].phimag;
		qr += m * __cosf(arg);
		qi += m * __sinf(arg);
	}
	Qr[t] = qr;
	Qi[t] = qi;
}
