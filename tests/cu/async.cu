// async.cu -- sm_80 asynchronous copies for warpsim's tests (issue 16):
// cp.async with commit/wait groups (a double-buffered pipeline that waits
// for all but the newest group), the zero-filling src-size form, and
// cuda::barrier (mbarrier init/arrive/test_wait, cp.async.mbarrier.arrive).
// Compiled into tests/ptx/func/async.ptx by: nvcc -arch=compute_80 -ptx -O3 async.cu
#include <cuda/barrier>
#include <cuda_pipeline.h>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// out[t] = sum over tiles k of in[k * blockDim.x + (t + k) % blockDim.x]:
// tiles of blockDim.x floats staged through two shared buffers
extern "C" __global__ void pipeline_sum(const float *in, float *out, int tiles)
{
	__shared__ float buf[2][256];
	unsigned t = threadIdx.x, n = blockDim.x;
	const float *base = in + blockIdx.x * tiles * n;
	__pipeline_memcpy_async(&buf[0][t], &base[t], sizeof(float));
	__pipeline_commit();
	float acc = 0;
	for (int k = 0; k < tiles; k++) {
		if (k + 1 < tiles)
			__pipeline_memcpy_async(&buf[(k + 1) & 1][t], &base[(k + 1) * n + t], sizeof(float));
		__pipeline_commit();
		__pipeline_wait_prior(1); // tile k has arrived, tile k + 1 may still fly
		__syncthreads();
		acc += buf[k & 1][(t + k) % n];
		__syncthreads();
	}
	out[blockIdx.x * n + t] = acc;
}

// 16-byte copies of which only the first `valid` bytes come from memory
extern "C" __global__ void zero_fill(const int4 *in, int4 *out, int valid)
{
	__shared__ int4 s[128];
	unsigned t = threadIdx.x;
	__pipeline_memcpy_async(&s[t], &in[t], sizeof(int4), t % 5 == 0 ? sizeof(int4) - valid : 0);
	__pipeline_commit();
	__pipeline_wait_prior(0);
	out[t] = s[t];
}

// reversal through shared memory, the copy completing on a cuda::barrier
extern "C" __global__ void barrier_reverse(float *out, const float *in)
{
	__shared__ cuda::barrier<cuda::thread_scope_block> bar;
	__shared__ float s[256];
	auto block = cg::this_thread_block();
	if (block.thread_rank() == 0)
		init(&bar, block.size());
	block.sync();
	cuda::memcpy_async(block, s, in + blockIdx.x * blockDim.x, sizeof(float) * blockDim.x, bar);
	bar.arrive_and_wait();
	out[blockIdx.x * blockDim.x + threadIdx.x] = s[blockDim.x - 1 - threadIdx.x];
	// a second phase: every thread arrives again
	bar.arrive_and_wait();
}
