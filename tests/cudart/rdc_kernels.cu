// rdc_kernels.cu -- the second translation unit of the rdc test (rdc_main.cu).
__constant__ int offset_c;

__global__ void add(int *x, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		x[i] += offset_c;
}

void add_offset(int *x, int n, int offset)
{
	cudaMemcpyToSymbol(offset_c, &offset, sizeof offset);
	add<<<(n + 63) / 64, 64>>>(x, n);
}
