// phases.cu -- kernels with a known warp-phase imbalance, for RTRU and timeline tests.
// Warp 1 of each CTA spins for `delay` cycles before the first barrier; the
// other warps arrive at once, so phase 0 has RTRU close to (N-1)/N * ... see test_trace.c.
extern "C" __global__ void imbalance(long long delay, int *out)
{
	__shared__ int s[128];
	int warp = threadIdx.x / 32;
	if (warp == 1) {
		long long t0 = clock64();
		while (clock64() - t0 < delay) {
		}
	}
	s[threadIdx.x] = threadIdx.x;
	__syncthreads();
	out[blockIdx.x * blockDim.x + threadIdx.x] = s[blockDim.x - 1 - threadIdx.x];
}
