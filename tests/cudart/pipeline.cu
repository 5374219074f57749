// pipeline.cu -- a multi-kernel pipeline on two streams with events:
// cudaStreamCreate, cudaMemcpyAsync, cudaMemsetAsync, kernels on streams,
// cudaEventRecord / cudaEventElapsedTime (simulated time), cudaStreamSynchronize,
// cudaLaunchHostFunc, and a pitched 2D buffer (cudaMallocPitch, cudaMemcpy2D).
#include <cstdio>

static void host_step(void *arg)
{
	*(int *)arg += 1;
}

__global__ void fill(int *x, int n, int v)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		x[i] = v + i;
}
__global__ void square(int *x, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		x[i] = x[i] * x[i];
}
__global__ void add(const int *a, const int *b, int *c, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		c[i] = a[i] + b[i];
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
	const int n = 512;
	int *a, *b, *c, h[n];
	CHECK(cudaMalloc(&a, n * sizeof(int)));
	CHECK(cudaMalloc(&b, n * sizeof(int)));
	CHECK(cudaMalloc(&c, n * sizeof(int)));
	cudaStream_t s1, s2;
	CHECK(cudaStreamCreate(&s1));
	CHECK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
	cudaEvent_t start, mid, stop;
	CHECK(cudaEventCreate(&start));
	CHECK(cudaEventCreate(&mid));
	CHECK(cudaEventCreate(&stop));
	CHECK(cudaEventRecord(start, s1));
	CHECK(cudaMemsetAsync(c, 0xff, n * sizeof(int), s2));
	fill<<<n / 128, 128, 0, s1>>>(a, n, 1);
	square<<<n / 128, 128, 0, s1>>>(a, n);
	fill<<<n / 128, 128, 0, s2>>>(b, n, 100);
	CHECK(cudaEventRecord(mid, s1));
	CHECK(cudaStreamWaitEvent(s2, mid, 0));
	add<<<n / 128, 128, 0, s2>>>(a, b, c, n);
	CHECK(cudaEventRecord(stop, s2));
	CHECK(cudaMemcpyAsync(h, c, n * sizeof(int), cudaMemcpyDeviceToHost, s2));
	CHECK(cudaStreamSynchronize(s2));
	CHECK(cudaEventSynchronize(stop));
	for (int i = 0; i < n; i++)
		if (h[i] != (1 + i) * (1 + i) + 100 + i) {
			printf("pipeline: FAILED at %d: %d\n", i, h[i]);
			return 1;
		}
	float ms_all, ms_first;
	CHECK(cudaEventElapsedTime(&ms_all, start, stop));
	CHECK(cudaEventElapsedTime(&ms_first, start, mid));
	printf("pipeline: elapsed %s, first part shorter %s\n", ms_all > 0 ? "positive" : "ZERO",
	       ms_first > 0 && ms_first < ms_all ? "yes" : "NO");
	int steps = 0;
	CHECK(cudaLaunchHostFunc(s2, host_step, &steps));
	CHECK(cudaStreamSynchronize(s2));
	int *pitched;
	size_t pitch;
	CHECK(cudaMallocPitch((void **)&pitched, &pitch, 10 * sizeof(int), 4));
	CHECK(cudaMemcpy2D(pitched, pitch, h, 10 * sizeof(int), 10 * sizeof(int), 4, cudaMemcpyHostToDevice));
	int back[40];
	CHECK(cudaMemcpy2D(back, 10 * sizeof(int), pitched, pitch, 10 * sizeof(int), 4, cudaMemcpyDeviceToHost));
	printf("pipeline: host function ran %d time, 2D copy %s\n", steps, back[39] == h[39] && back[0] == h[0] ? "ok" : "WRONG");
	CHECK(cudaEventDestroy(start));
	CHECK(cudaEventDestroy(mid));
	CHECK(cudaEventDestroy(stop));
	CHECK(cudaStreamDestroy(s1));
	CHECK(cudaStreamDestroy(s2));
	printf("pipeline: 4 kernels PASSED\n");
	return 0;
}
