// vecadd.cu -- the smallest CUDA program: cudaMalloc, cudaMemcpy, <<<>>>, cudaFree.
// Built three ways (tests/cudart/Makefile.inc): nvcc's default (zstd-compressed PTX),
// -Xfatbin -compress-mode=speed (LZ4) and --no-compress.
#include <cstdio>
#include <cstdlib>

__global__ void vecadd(const float *a, const float *b, float *c, int n)
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

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 1000;
	size_t bytes = n * sizeof(float);
	float *a = (float *)malloc(bytes), *b = (float *)malloc(bytes), *c = (float *)malloc(bytes);
	for (int i = 0; i < n; i++) {
		a[i] = i;
		b[i] = 2 * i;
	}
	float *da, *db, *dc;
	CHECK(cudaMalloc(&da, bytes));
	CHECK(cudaMalloc(&db, bytes));
	CHECK(cudaMalloc(&dc, bytes));
	CHECK(cudaMemcpy(da, a, bytes, cudaMemcpyHostToDevice));
	CHECK(cudaMemcpy(db, b, bytes, cudaMemcpyHostToDevice));
	vecadd<<<(n + 127) / 128, 128>>>(da, db, dc, n);
	CHECK(cudaGetLastError());
	CHECK(cudaDeviceSynchronize());
	CHECK(cudaMemcpy(c, dc, bytes, cudaMemcpyDeviceToHost));
	for (int i = 0; i < n; i++)
		if (c[i] != 3.0f * i) {
			printf("vecadd: FAILED at %d: %g\n", i, c[i]);
			return 1;
		}
	CHECK(cudaFree(da));
	CHECK(cudaFree(db));
	CHECK(cudaFree(dc));
	printf("vecadd: n=%d PASSED\n", n);
	return 0;
}
