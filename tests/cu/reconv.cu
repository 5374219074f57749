// reconv.cu -- kernels that check SIMT reconvergence in warpsim's functional model.
// Each thread records __activemask() at chosen points; the test compares the
// masks with what immediate-post-dominator reconvergence must produce.
// Compile: nvcc -arch=compute_75 -ptx -O3 tests/cu/reconv.cu -o tests/ptx/func/reconv.ptx
extern "C" __global__ void nested_if(unsigned *mask_in, unsigned *mask_after, int *val)
{
	int t = threadIdx.x;
	int v = 0;
	unsigned m;
	if (t & 1) {
		if (t & 2) { v = 1; m = __activemask(); }
		else       { v = 2; m = __activemask(); }
	} else {
		if (t < 8) { v = 3; m = __activemask(); }
		else       { v = 4; m = __activemask(); }
	}
	mask_in[t] = m;
	mask_after[t] = __activemask();
	val[t] = v;
}

extern "C" __global__ void loop_break_continue(const int *trip, int *sum, unsigned *mask_after)
{
	int t = threadIdx.x;
	int s = 0;
	for (int i = 0; i < 100; i++) {
		if (i >= trip[t]) break;
		if (i % 3 == 1) continue;
		s += i * (t + 1);
	}
	sum[t] = s;
	mask_after[t] = __activemask();
}

__device__ __noinline__ int early(int t, int *out)
{
	if (t % 4 == 0)
		return -t;          // early return from a divergent branch
	out[t] = __activemask();
	return t * 2;
}

extern "C" __global__ void early_return(int *ret, int *mask_in, unsigned *mask_after)
{
	int t = threadIdx.x;
	ret[t] = early(t, mask_in);
	mask_after[t] = __activemask();
}

extern "C" __global__ void early_exit(int *out)
{
	int t = threadIdx.x;
	if (t % 3 == 0)
		return;             // these threads exit
	out[t] = __activemask();
}

extern "C" __global__ void barrier_uniform(int *out)
{
	__shared__ int s[256];
	int t = threadIdx.x;
	s[t] = t * t;
	__syncthreads();
	out[t] = s[(t + 1) % blockDim.x] + s[(t + 7) % blockDim.x];
	__syncthreads();
	s[t] = out[t];
	__syncthreads();
	out[t] += s[blockDim.x - 1 - t];
}

extern "C" __global__ void barrier_after_exit(int *out)
{
	// warps whose threads all exited must not block the barrier
	__shared__ int s[256];
	int t = threadIdx.x;
	if (t >= 64)
		return;
	s[t] = t + 100;
	__syncthreads();
	out[t] = s[63 - t];
}

// fib recurses twice, so nvcc cannot turn it into a loop: real nested calls
// with divergent depth across the warp
__device__ __noinline__ unsigned fib(unsigned n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

extern "C" __global__ void recursion(unsigned *out)
{
	out[threadIdx.x] = fib(threadIdx.x % 12);
}
