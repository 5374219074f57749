// reduce.cu -- a shared-memory reduction: __constant__ parameters set with
// cudaMemcpyToSymbol, dynamic shared memory, a __device__ result read back with
// cudaMemcpyFromSymbol, device properties, attributes and the occupancy query.
#include <cstdio>
#include <cstdlib>

__constant__ float scale;
__constant__ int count;
__device__ float total;

__global__ void reduce(const float *in)
{
	extern __shared__ float s[];
	unsigned t = threadIdx.x;
	float v = 0;
	for (int i = blockIdx.x * blockDim.x + t; i < count; i += gridDim.x * blockDim.x)
		v += in[i] * scale;
	s[t] = v;
	__syncthreads();
	for (unsigned k = blockDim.x / 2; k > 0; k /= 2) {
		if (t < k)
			s[t] += s[t + k];
		__syncthreads();
	}
	if (t == 0)
		atomicAdd(&total, s[0]);
}

#define CHECK(x)                                                                                   \
	do {                                                                                       \
		cudaError_t e_ = (x);                                                              \
		if (e_ != cudaSuccess) {                                                           \
			printf("%s failed: %s (%s)\n", #x, cudaGetErrorString(e_), cudaGetErrorName(e_)); \
			return 1;                                                                  \
		}                                                                                  \
	} while (0)

int main()
{
	cudaDeviceProp p;
	CHECK(cudaGetDeviceProperties(&p, 0));
	int sms, ws;
	CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
	CHECK(cudaDeviceGetAttribute(&ws, cudaDevAttrWarpSize, 0));
	printf("device: SMs %d, warp size %d, attribute agrees %d\n", p.multiProcessorCount, p.warpSize,
	       sms == p.multiProcessorCount && ws == p.warpSize);
	const int n = 3000, threads = 128;
	float *h = (float *)malloc(n * sizeof(float));
	double want = 0;
	for (int i = 0; i < n; i++) {
		h[i] = (float)(i % 7);
		want += 0.5 * h[i];
	}
	float sc = 0.5f, zero = 0;
	int cnt = n;
	CHECK(cudaMemcpyToSymbol(scale, &sc, sizeof sc));
	CHECK(cudaMemcpyToSymbol(count, &cnt, sizeof cnt));
	CHECK(cudaMemcpyToSymbol(total, &zero, sizeof zero));
	float *d;
	CHECK(cudaMalloc(&d, n * sizeof(float)));
	CHECK(cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice));
	CHECK(cudaFuncSetAttribute(reduce, cudaFuncAttributeMaxDynamicSharedMemorySize, threads * sizeof(float)));
	int per_sm = 0;
	CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, reduce, threads, threads * sizeof(float)));
	printf("occupancy: %d CTAs of %d threads per SM\n", per_sm, threads);
	reduce<<<8, threads, threads * sizeof(float)>>>(d);
	CHECK(cudaGetLastError());
	float got;
	CHECK(cudaMemcpyFromSymbol(&got, total, sizeof got));
	if (got != (float)want) {
		printf("reduce: FAILED: %g, expected %g\n", got, want);
		return 1;
	}
	printf("reduce: sum %g PASSED\n", got);
	return 0;
}
