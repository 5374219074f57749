// noptx.cu -- built with -gencode arch=compute_75,code=sm_75: SASS only, no PTX.
// warpsim cannot run it and says which nvcc flags to add; the launch fails with
// cudaErrorNoKernelImageForDevice, as on a GPU the binary was not built for.
#include <cstdio>

__global__ void k(int *p)
{
	p[threadIdx.x] = 1;
}

int main()
{
	int *d;
	cudaMalloc(&d, 32 * sizeof(int));
	k<<<1, 32>>>(d);
	cudaError_t e = cudaGetLastError();
	printf("noptx: launch %s\n", cudaGetErrorName(e));
	return e == cudaSuccess ? 0 : 4;
}
