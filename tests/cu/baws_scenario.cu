// baws_scenario.cu -- the BAWS paper's Figures 3-4 scenario as a kernel
// (tests/test_baws_scenario.c, docs/baws.md).  Every CTA runs `phases`
// warp-phases separated by __syncthreads(); in each, every warp runs a
// dependent chain of `work` FMAs, except the CTA's last warp, which runs
// `slow` times as many.  Under GTO the last warp is the youngest of its CTA
// and loses every tie against the older CTAs' warps, so its CTA-mates wait at
// the barrier for it (warp-phase divergence made by the scheduler); MWF gives
// the CTA with the most warps waiting the priority and releases the barrier
// sooner.  Each thread writes its final value (checked against fmaf on the CPU).
// Compiled with: nvcc -arch=compute_75 -ptx -O3 baws_scenario.cu -o ../ptx/micro/baws_scenario.ptx
extern "C" __global__ void barrier_lag(float *out, int phases, int work, int slow)
{
	float x = threadIdx.x * 0.001f;
	int warp = threadIdx.x / 32, nw = blockDim.x / 32;
	int n = (warp == nw - 1) ? work * slow : work;
	for (int p = 0; p < phases; p++) {
#pragma unroll 1
		for (int i = 0; i < n; i++)
			x = fmaf(x, 1.0001f, 0.5f);
		__syncthreads();
	}
	out[blockIdx.x * blockDim.x + threadIdx.x] = x;
}
