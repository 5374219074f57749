// rdc_main.cu + rdc_kernels.cu -- a program built with separate compilation
// (nvcc -rdc=true): each translation unit has its own kernels, and the PTX of
// each is in its own fat binary, listed by the linked one.
#include <cstdio>

__global__ void twice(int *x, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		x[i] *= 2;
}

void add_offset(int *x, int n, int offset); // rdc_kernels.cu

int main()
{
	const int n = 100;
	int h[n], *d;
	for (int i = 0; i < n; i++)
		h[i] = i;
	cudaMalloc(&d, sizeof h);
	cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
	twice<<<1, 128>>>(d, n);
	add_offset(d, n, 7);
	cudaError_t e = cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
	int ok = e == cudaSuccess;
	for (int i = 0; i < n; i++)
		ok &= h[i] == 2 * i + 7;
	printf("rdc: %s, h[10] = %d: %s\n", cudaGetErrorName(e), h[10], ok ? "PASSED" : "FAILED");
	return ok ? 0 : 1;
}
