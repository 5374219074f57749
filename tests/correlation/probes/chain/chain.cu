// chain.cu -- correlation probe: dependent-instruction latency, one warp (../README.md, "chain").
// Five kernels, each a chain of dependent operations in a loop of n trips:
//   chain_fma    16 dependent fma.rn.f32 per trip (GPGPU-Sim latency 4)
//   chain_sin    16 dependent sin.approx.f32 per trip (SFU, latency 20, ii 4)
//   chain_const  16 dependent x = c_tab[x] per trip (mul.wide, add, ld.const)
//   chain_mriq   the loop body of bench/mriq's mriq_q, one sample per trip
//   chain_loop   a loop of one xor per trip, 8 trips per n: per trip the counter's add, the
//                setp and the taken branch, a chain through the branch
// each launched with one CTA of 32 threads, first with n = 32 and then with n = 64, so
// that the difference of a kernel's two launches is the chain alone.  The CPU checks every
// launch's results (the constant chain exactly; fma, sin and mriq to a tolerance: GPGPU-Sim
// rounds fma's product, and the hardware approximations differ from sinf/cosf).
#include <cmath>
#include <cstdio>
#include <cuda_runtime.h>

#define THREADS 32
__constant__ int c_tab[256];
__constant__ float4 c_k[256];

extern "C" __global__ void chain_fma(float *out, int n, float a, float b)
{
	float x = threadIdx.x;
	for (int i = 0; i < n; i++) {
#pragma unroll
		for (int j = 0; j < 16; j++)
			x = fmaf(x, a, b);
	}
	out[threadIdx.x] = x;
}

extern "C" __global__ void chain_sin(float *out, int n)
{
	float x = threadIdx.x * 0.01f;
	for (int i = 0; i < n; i++) {
#pragma unroll
		for (int j = 0; j < 16; j++)
			x = __sinf(x);
	}
	out[threadIdx.x] = x;
}

extern "C" __global__ void chain_const(float *out, int n)
{
	int x = threadIdx.x & 1;
	for (int i = 0; i < n; i++) {
#pragma unroll
		for (int j = 0; j < 16; j++)
			x = c_tab[x];
	}
	out[threadIdx.x] = x;
}

extern "C" __global__ void chain_mriq(float *out, int n)
{
	float sx = threadIdx.x * 0.01f, sy = sx * 0.5f, sz = sx * 0.25f, qr = 0, qi = 0;
	for (int k = 0; k < n; k++) {
		float4 kv = c_k[k & 255];
		float arg = 6.2831853f * (kv.x * sx + kv.y * sy + kv.z * sz);
		qr += kv.w * __cosf(arg);
		qi += kv.w * __sinf(arg);
	}
	out[threadIdx.x] = qr + qi;
}

extern "C" __global__ void chain_loop(unsigned *out, int n)
{
	unsigned x = threadIdx.x;
#pragma unroll 1
	for (int i = 0; i < 8 * n; i++)
		x ^= i;
	out[threadIdx.x] = x;
}

static int check(const char *name, int n, const float *got, const float *want, float tol)
{
	for (int t = 0; t < THREADS; t++)
		if (!(fabsf(got[t] - want[t]) <= tol * (1 + fabsf(want[t])))) { /* relative beyond 1 */
			printf("chain: FAILED: %s n=%d thread %d: %g, expected %g\n", name, n, t, got[t], want[t]);
			return 0;
		}
	return 1;
}

int main()
{
	float *d, got[THREADS], want[THREADS];
	int tab[256];
	float4 kv[256];
	for (int i = 0; i < 256; i++) {
		tab[i] = (i + 1) & 1;
		kv[i] = make_float4(0.01f * i, 0.02f * i, 0.03f * i, 1.0f);
	}
	if (cudaMalloc(&d, THREADS * sizeof(float)) != cudaSuccess ||
	    cudaMemcpyToSymbol(c_tab, tab, sizeof tab) != cudaSuccess ||
	    cudaMemcpyToSymbol(c_k, kv, sizeof kv) != cudaSuccess) {
		printf("chain: FAILED: setup\n");
		return 1;
	}
	int ok = 1;
	for (int n = 32; n <= 64; n *= 2) {
		chain_fma<<<1, THREADS>>>(d, n, 0.999f, 0.001f);
		cudaMemcpy(got, d, sizeof got, cudaMemcpyDeviceToHost);
		for (int t = 0; t < THREADS; t++) {
			float x = t;
			for (int i = 0; i < 16 * n; i++)
				x = fmaf(x, 0.999f, 0.001f);
			want[t] = x;
		}
		ok &= check("chain_fma", n, got, want, 1e-4f); /* GPGPU-Sim rounds the product */
		chain_sin<<<1, THREADS>>>(d, n);
		cudaMemcpy(got, d, sizeof got, cudaMemcpyDeviceToHost);
		for (int t = 0; t < THREADS; t++) {
			float x = t * 0.01f;
			for (int i = 0; i < 16 * n; i++)
				x = sinf(x);
			want[t] = x;
		}
		ok &= check("chain_sin", n, got, want, 1e-3f);
		chain_const<<<1, THREADS>>>(d, n);
		cudaMemcpy(got, d, sizeof got, cudaMemcpyDeviceToHost);
		for (int t = 0; t < THREADS; t++) {
			int x = t & 1;
			for (int i = 0; i < 16 * n; i++)
				x = tab[x];
			want[t] = x;
		}
		ok &= check("chain_const", n, got, want, 0);
		chain_mriq<<<1, THREADS>>>(d, 4 * n);
		cudaMemcpy(got, d, sizeof got, cudaMemcpyDeviceToHost);
		for (int t = 0; t < THREADS; t++) {
			float sx = t * 0.01f, sy = sx * 0.5f, sz = sx * 0.25f, qr = 0, qi = 0;
			for (int k = 0; k < 4 * n; k++) {
				float4 v = kv[k & 255];
				float arg = 6.2831853f * (v.x * sx + v.y * sy + v.z * sz);
				qr += v.w * cosf(arg);
				qi += v.w * sinf(arg);
			}
			want[t] = qr + qi;
		}
		ok &= check("chain_mriq", n, got, want, 1e-3f);
		chain_loop<<<1, THREADS>>>((unsigned *)d, n);
		unsigned ugot[THREADS];
		cudaMemcpy(ugot, d, sizeof ugot, cudaMemcpyDeviceToHost);
		for (int t = 0; t < THREADS; t++) {
			unsigned x = t;
			for (int i = 0; i < 8 * n; i++)
				x ^= i;
			got[t] = (float)ugot[t];
			want[t] = (float)x;
		}
		ok &= check("chain_loop", n, got, want, 0);
	}
	printf(ok ? "chain: PASSED\n" : "chain: FAILED\n");
	return ok ? 0 : 1;
}
