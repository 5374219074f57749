// unsupported.cu -- a call warpsim does not implement (CUDA graphs) fails with
// cudaErrorNotSupported and one line naming it; the program carries on.
#include <cstdio>

__global__ void k(int *p)
{
	p[threadIdx.x] = threadIdx.x;
}

int main()
{
	cudaGraph_t g;
	cudaError_t e = cudaGraphCreate(&g, 0);
	printf("unsupported: cudaGraphCreate %s, last error %s\n", cudaGetErrorName(e), cudaGetErrorName(cudaGetLastError()));
	int *d, h[32];
	cudaMalloc(&d, sizeof h);
	k<<<1, 32>>>(d);
	e = cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
	printf("unsupported: then a kernel: %s, h[31] = %d\n", cudaGetErrorName(e), h[31]);
	return 0;
}
