// faults.cu -- kernels that fault on purpose.  The fault must surface as the
// matching CUDA error from the next synchronizing call (and stay: it is sticky),
// with warpsim's located report on stderr.
//   faults oob       out-of-bounds store           -> cudaErrorIllegalAddress
//   faults assert    failed device-side assert()   -> cudaErrorAssert
//   faults deadlock  divergent __syncthreads()     -> cudaErrorLaunchTimeout
#include <cassert>
#include <cstdio>
#include <cstring>

__global__ void oob(int *p, int n)
{
	p[threadIdx.x + n] = 1; // n = the buffer's length: every thread writes past the end
}
__global__ void check(const int *p)
{
	assert(p[threadIdx.x] == 0);
}
__global__ void deadlock(volatile int *p)
{
	if (threadIdx.x >= 32)
		__syncthreads();
	else
		while (p[0] == 0) {
		}
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "oob";
	int *d;
	if (cudaMalloc(&d, 64 * sizeof(int)) != cudaSuccess)
		return 1;
	cudaMemset(d, 0, 64 * sizeof(int));
	if (strcmp(mode, "oob") == 0) {
		oob<<<1, 32>>>(d, 64);
	} else if (strcmp(mode, "assert") == 0) {
		cudaMemset(d + 3, 1, 1);
		check<<<1, 32>>>(d);
	} else {
		deadlock<<<1, 64>>>(d);
	}
	cudaError_t launch = cudaGetLastError();
	cudaError_t sync = cudaDeviceSynchronize();
	cudaError_t after = cudaMemcpy(d, d, 4, cudaMemcpyDeviceToDevice);
	printf("faults %s: launch %s, synchronize %s, next call %s\n", mode, cudaGetErrorName(launch),
	       cudaGetErrorName(sync), cudaGetErrorName(after));
	return sync == cudaSuccess ? 0 : 3;
}
