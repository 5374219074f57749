/*
 * nvidia_rt.c -- a stand-in for NVIDIA's CUDA runtime, libcudart.so.13, as it
 * behaves on a machine without a GPU driver: every call fails with
 * cudaErrorInsufficientDriver.  For the tests of `warpsim cuda` only.
 *
 * tests/cudart/bin/vecadd_rpath is linked with an RPATH ($ORIGIN/nvidia-rt,
 * -Xlinker --disable-new-dtags) that finds this library before
 * LD_LIBRARY_PATH is looked at, as a program linked with
 * -rpath /usr/local/cuda/lib64 finds NVIDIA's: under `warpsim cuda` it must
 * not be used (warpsim's runtime is preloaded and takes its SONAME), and a
 * process that loads it by its path is reported.  `make cudart-bins`
 * builds it into tests/cudart/bin/nvidia-rt/libcudart.so.13 with NVIDIA's
 * SONAME and symbol version (src/cudart/libcudart.map); it defines the
 * calls vecadd makes.
 */
#include <stddef.h>

#define NO_DRIVER 35 /* cudaErrorInsufficientDriver */

typedef struct {
	unsigned x, y, z;
} dim3;

static void *handle[4];

void **__cudaRegisterFatBinary(void *wrapper)
{
	return handle;
}
void __cudaRegisterFatBinaryEnd(void **h) {}
void __cudaUnregisterFatBinary(void **h) {}
void __cudaRegisterFunction(void **h, const void *host, char *dev, const char *name, int limit, void *tid, void *bid,
                            void *bdim, void *gdim, int *wsize)
{
}
unsigned __cudaPushCallConfiguration(dim3 grid, dim3 block, size_t shared, void *stream)
{
	return 0;
}
int __cudaPopCallConfiguration(dim3 *grid, dim3 *block, size_t *shared, void *stream)
{
	return NO_DRIVER;
}
int __cudaGetKernel(void **kernel, const void *func)
{
	return NO_DRIVER;
}
int __cudaLaunchKernel(const void *kernel, dim3 grid, dim3 block, void **args, size_t shared, void *stream)
{
	return NO_DRIVER;
}
int cudaMalloc(void **p, size_t n)
{
	return NO_DRIVER;
}
int cudaFree(void *p)
{
	return NO_DRIVER;
}
int cudaMemcpy(void *dst, const void *src, size_t n, int kind)
{
	return NO_DRIVER;
}
int cudaDeviceSynchronize(void)
{
	return NO_DRIVER;
}
int cudaGetLastError(void)
{
	return NO_DRIVER;
}
const char *cudaGetErrorName(int e)
{
	return e == NO_DRIVER ? "cudaErrorInsufficientDriver" : "cudaErrorUnknown";
}
const char *cudaGetErrorString(int e)
{
	return e == NO_DRIVER ? "CUDA driver version is insufficient for CUDA runtime version" : "unknown error";
}
