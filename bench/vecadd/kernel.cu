/*
 * vecadd -- element-wise vector addition, c[i] = a[i] + b[i] (float).
 *
 * One thread per element on a 1-D grid; threads past the end of the vectors
 * (the last CTA is usually only partly used) do nothing.
 * Synchronization: none -- every thread is independent.  This is the
 * "hello world" of the suite: a pure streaming, memory-bound kernel.
 */

extern "C" __global__ void vecadd(const float *a, const float *b, float *c, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		c[i] = a[i] + b[i];
}
