// faults.cu -- kernels that must fail with a clear error in warpsim.
extern "C" __global__ void oob_write(int *p, int n) { p[threadIdx.x + n] = 1; }
extern "C" __global__ void misaligned(char *p) { *(int *)(p + 1 + 4 * threadIdx.x) = 1; }
extern "C" __global__ void do_trap(int *p) { if (threadIdx.x == 5) __trap(); p[threadIdx.x] = 1; }
extern "C" __global__ void divergent_barrier(int *p)
{
	// threads >= 32 skip the barrier and spin: a deadlock
	if (threadIdx.x < 32)
		__syncthreads();
	else
		while (1) { __syncwarp(); }
}
extern "C" __global__ void barrier_deadlock(int *p)
{
	// warp 1 waits at the barrier forever because warp 0 spins on a flag that nobody sets
	volatile int *v = p;
	if (threadIdx.x >= 32) __syncthreads();
	else while (v[0] == 0) {}
}
extern "C" __global__ void named_barrier_deadlock(int *p)
{
	// warp 0 waits at barrier 1, warp 1 at barrier 2: neither barrier can complete
	unsigned id = 1 + threadIdx.x / 32;
	asm volatile("bar.sync %0, 64;" ::"r"(id));
	p[threadIdx.x] = 1;
}
extern "C" __global__ void oob_read_shared(int *p, int k)
{
	__shared__ int s[64];
	s[threadIdx.x % 64] = threadIdx.x;
	__syncthreads();
	p[threadIdx.x] = s[threadIdx.x + k];
}
extern "C" __global__ void spin_forever(volatile unsigned *f)
{
	// CTA 0 waits for CTA 1, which cannot become resident while CTA 0 occupies the only slot
	if (threadIdx.x == 0) {
		if (blockIdx.x == 0)
			while (*f == 0) {
			}
		else
			*f = 1;
	}
}
