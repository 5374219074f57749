// coop.cu -- cooperative groups for warpsim's tests (issue 16): grid-wide
// synchronisation (%envreg, cudaLaunchCooperativeKernel), a 64-thread tile
// (reserved shared memory, %reserved_smem_offset_1), warpSize (WARP_SZ) and
// the collectives (reduce, scan, memcpy_async, labeled_partition).
// Compiled into tests/ptx/func/coop.ptx by: nvcc -arch=compute_80 -ptx -O3 coop.cu
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
namespace cg = cooperative_groups;

// out[i] = in[(i + 1) % n] + in[(i + n - 1) % n] after one grid.sync(), then
// a second phase that reads the first phase's results of other CTAs.
extern "C" __global__ void grid_stencil(const int *in, int *tmp, int *out, int n)
{
	cg::grid_group g = cg::this_grid();
	unsigned i = g.thread_rank();
	if (i < n)
		tmp[i] = in[i] * 3;
	g.sync();
	if (i < n)
		out[i] = tmp[(i + 1) % n] + tmp[(i + n - 1) % n];
	g.sync();
	if (i < n)
		tmp[i] = out[(i + 7) % n];
	g.sync();
	if (i < n)
		out[i] += tmp[(n - 1) - i];
}

// sum of a 64-thread tile (two warps) with the tile's own sync and shuffles
extern "C" __global__ void tile64_sum(const int *in, int *out)
{
	cg::thread_block b = cg::this_thread_block();
	cg::thread_block_tile<64> t = cg::tiled_partition<64>(b);
	int v = in[b.thread_rank()];
	__shared__ int s[256];
	s[b.thread_rank()] = v;
	t.sync();
	int sum = 0;
	for (int k = 0; k < 64; k++)
		sum += s[t.meta_group_rank() * 64 + k];
	t.sync();
	out[b.thread_rank()] = sum + t.thread_rank() * 1000 + t.meta_group_rank() * 100000;
}

// warpSize: lane and warp of every thread, and a warp-wide shuffle sum
extern "C" __global__ void warp_size(int *lane, int *warp, int *wsz, int *sum)
{
	int t = threadIdx.x;
	lane[t] = t % warpSize;
	warp[t] = t / warpSize;
	wsz[t] = warpSize;
	int v = t;
	for (int o = warpSize / 2; o > 0; o /= 2)
		v += __shfl_down_sync(0xffffffffu, v, o);
	sum[t] = v;
}

// cooperative groups' collectives: warp reduce and scan, a 128-thread tile's
// reduce (reserved shared memory), memcpy_async + wait, labeled_partition
extern "C" __global__ void cg_collectives(const int *in, int *out)
{
	auto b = cg::this_thread_block();
	auto w = cg::tiled_partition<32>(b);
	int v = in[b.thread_rank()];
	int s = cg::reduce(w, v, cg::plus<int>());
	int x = cg::inclusive_scan(w, v);
	auto t128 = cg::tiled_partition<128>(b);
	int s2 = cg::reduce(t128, v, cg::plus<int>());
	__shared__ int sh[256];
	cg::memcpy_async(b, sh, in, sizeof(int) * 256);
	cg::wait(b);
	auto lp = cg::labeled_partition(cg::coalesced_threads(), v & 3);
	out[b.thread_rank()] = s + x + s2 + sh[255 - b.thread_rank()] + lp.size() + w.meta_group_rank();
}
