// micro.cu -- validation microbenchmarks for warpsim's cycle-level timing
// model (tests/test_timing.c, docs/validation.md).  Exact instruction
// sequences are written as inline PTX; time is measured with clock64(),
// which in the timing model reads the SM's cycle when the mov issues.
// Compiled with: nvcc -arch=compute_75 -ptx -O3 micro.cu -o ../ptx/micro/micro.ptx
#define REP4(x) x x x x
#define REP8(x) REP4(x) REP4(x)
#define REP16(x) REP8(x) REP8(x)
#define REP32(x) REP16(x) REP16(x)

// ---- 1. dependent chains --------------------------------------------------
// The same code runs twice (so the second pass finds it in the I-cache):
// out[pass] = cycles of 32 dependent operations.  The add before the first
// clock read makes the chain's first operation wait for a result, as every
// later one does, so out[1] = 32 x (latency + pipeline overhead).
// Launched with one warp.
#define CHAIN_KERNEL(NAME, T, CONS, INSN, ...)                                              \
	extern "C" __global__ void NAME(unsigned long long *out, T *res, T x)               \
	{                                                                                   \
		_Pragma("unroll 1") for (int pass = 0; pass < 2; pass++)                    \
		{                                                                           \
			asm volatile(INSN : "+" CONS(x) : __VA_ARGS__);                     \
			unsigned long long t0 = clock64();                                  \
			asm volatile(REP32(INSN "\n\t") : "+" CONS(x) : __VA_ARGS__);       \
			unsigned long long t1 = clock64();                                  \
			if (threadIdx.x == 0)                                               \
				out[pass] = t1 - t0;                                        \
		}                                                                           \
		res[threadIdx.x] = x;                                                       \
	}

CHAIN_KERNEL(chain_add, unsigned, "r", "add.u32 %0, %0, %1;", "r"(3u))
CHAIN_KERNEL(chain_mul, unsigned, "r", "mul.lo.u32 %0, %0, %1;", "r"(3u))
CHAIN_KERNEL(chain_div, unsigned, "r", "div.u32 %0, %0, %1;", "r"(3u))
CHAIN_KERNEL(chain_fma, float, "f", "fma.rn.f32 %0, %0, %1, %2;", "f"(1.0001f), "f"(0.5f))
CHAIN_KERNEL(chain_sin, float, "f", "sin.approx.f32 %0, %0;", "f"(0.0f))
CHAIN_KERNEL(chain_xor, unsigned, "r", "xor.b32 %0, %0, %1;", "r"(3u))

// ---- 2. independent operations (throughput) -------------------------------
// Each iteration issues 128 independent operations (8 accumulators x 16),
// plus the loop's own counter update, compare and branch.
extern "C" __global__ void indep_add(unsigned *res, int iters)
{
	unsigned a0 = threadIdx.x, a1 = a0 + 1, a2 = a0 + 2, a3 = a0 + 3, a4 = a0 + 4, a5 = a0 + 5, a6 = a0 + 6,
		 a7 = a0 + 7;
#pragma unroll 1
	for (int i = 0; i < iters; i++)
		asm volatile(REP16("add.u32 %0, %0, 1;\n\tadd.u32 %1, %1, 1;\n\tadd.u32 %2, %2, 1;\n\t"
				   "add.u32 %3, %3, 1;\n\tadd.u32 %4, %4, 1;\n\tadd.u32 %5, %5, 1;\n\t"
				   "add.u32 %6, %6, 1;\n\tadd.u32 %7, %7, 1;\n\t")
			     : "+r"(a0), "+r"(a1), "+r"(a2), "+r"(a3), "+r"(a4), "+r"(a5), "+r"(a6), "+r"(a7));
	res[blockIdx.x * blockDim.x + threadIdx.x] = a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7;
}

// 64 independent SFU operations per iteration (8 accumulators x 8).
extern "C" __global__ void indep_sin(float *res, int iters)
{
	float a0 = threadIdx.x, a1 = a0 + 1, a2 = a0 + 2, a3 = a0 + 3, a4 = a0 + 4, a5 = a0 + 5, a6 = a0 + 6,
	      a7 = a0 + 7;
#pragma unroll 1
	for (int i = 0; i < iters; i++)
		asm volatile(REP8("sin.approx.f32 %0, %0;\n\tsin.approx.f32 %1, %1;\n\tsin.approx.f32 %2, %2;\n\t"
				  "sin.approx.f32 %3, %3;\n\tsin.approx.f32 %4, %4;\n\tsin.approx.f32 %5, %5;\n\t"
				  "sin.approx.f32 %6, %6;\n\tsin.approx.f32 %7, %7;\n\t")
			     : "+f"(a0), "+f"(a1), "+f"(a2), "+f"(a3), "+f"(a4), "+f"(a5), "+f"(a6), "+f"(a7));
	res[blockIdx.x * blockDim.x + threadIdx.x] = a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7;
}

// ---- 3. pointer chase ------------------------------------------------------
// One thread follows a chain of 8-byte pointers (each load depends on the
// previous one) in two passes of `hops` loads each, running the same code
// both times (so the second pass finds the instructions in the I-cache).
// out[pass] = cycles of that pass.  The add after the loop makes the
// closing clock read wait for the last load's data.
extern "C" __global__ void chase(unsigned long long start, int hops, unsigned long long *out)
{
	unsigned long long p = start;
#pragma unroll 1
	for (int pass = 0; pass < 2; pass++) {
		asm volatile("add.u64 %0, %0, 0;" : "+l"(p));
		unsigned long long t0 = clock64();
#pragma unroll 1
		for (int h = 0; h < hops; h += 8)
			asm volatile(REP8("ld.global.u64 %0, [%0];\n\t") : "+l"(p));
		asm volatile("add.u64 %0, %0, 0;" : "+l"(p));
		unsigned long long t1 = clock64();
		out[pass] = t1 - t0;
	}
	out[2] = p;
}

// ---- 4. streaming ------------------------------------------------------------
// Grid-stride coalesced float4 loads; one 4-byte store per thread at the end.
extern "C" __global__ void stream_read(const float4 *in, float *out, int n4)
{
	float s = 0.0f;
	int stride = gridDim.x * blockDim.x;
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += stride) {
		float4 v = in[i];
		s += v.x + v.y + v.z + v.w;
	}
	out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

// ---- 5. shared-memory bank conflicts ----------------------------------------
// The array is filled conflict-free (consecutive words per lane), then each
// lane loads word (lane * stride) mod 1024 32 times, into 32 different
// registers (no dependences between the loads): `stride` 1 touches 32
// banks, 2 makes 2-way conflicts, 32 makes 32-way conflicts.  The loads run
// in two passes of the same code (the second finds it in the I-cache);
// cyc[pass] = cycles from before the first load to the arrival of the
// last one's data.
#define LD16 "ld.shared.u32 %0, [%16];\n\tld.shared.u32 %1, [%16];\n\tld.shared.u32 %2, [%16];\n\t"   \
	     "ld.shared.u32 %3, [%16];\n\tld.shared.u32 %4, [%16];\n\tld.shared.u32 %5, [%16];\n\t"   \
	     "ld.shared.u32 %6, [%16];\n\tld.shared.u32 %7, [%16];\n\tld.shared.u32 %8, [%16];\n\t"   \
	     "ld.shared.u32 %9, [%16];\n\tld.shared.u32 %10, [%16];\n\tld.shared.u32 %11, [%16];\n\t" \
	     "ld.shared.u32 %12, [%16];\n\tld.shared.u32 %13, [%16];\n\tld.shared.u32 %14, [%16];\n\t" \
	     "ld.shared.u32 %15, [%16];"
#define OUT16(v) "=r"(v[0]), "=r"(v[1]), "=r"(v[2]), "=r"(v[3]), "=r"(v[4]), "=r"(v[5]), "=r"(v[6]), "=r"(v[7]), \
		 "=r"(v[8]), "=r"(v[9]), "=r"(v[10]), "=r"(v[11]), "=r"(v[12]), "=r"(v[13]), "=r"(v[14]), "=r"(v[15])
extern "C" __global__ void shmem_stride(unsigned *out, unsigned long long *cyc, int stride)
{
	__shared__ unsigned s[1024];
	unsigned tid = threadIdx.x;
	for (unsigned i = tid; i < 1024; i += blockDim.x)
		s[i] = i;
	__syncthreads();
	unsigned addr = (unsigned)__cvta_generic_to_shared(s) + ((tid * stride) % 1024) * 4, sum = 0;
#pragma unroll 1
	for (int pass = 0; pass < 2; pass++) {
		unsigned a[16], b[16];
		asm volatile("add.u32 %0, %0, 0;" : "+r"(sum));
		unsigned long long t0 = clock64();
		asm volatile(LD16 : OUT16(a) : "r"(addr));
		asm volatile(LD16 : OUT16(b) : "r"(addr));
		asm volatile("add.u32 %0, %1, %2;" : "=r"(sum) : "r"(b[15]), "r"(sum));
		unsigned long long t1 = clock64();
		for (int k = 0; k < 16; k++)
			sum += a[k] + b[k];
		if (tid == 0)
			cyc[pass] = t1 - t0;
	}
	out[tid] = sum;
}

// ---- 5b. shared-memory atomics ----------------------------------------------
// As 5, with atom.shared.add instead of ld.shared: lanes on the same word
// serialize (stride 0: 32 passes per atomic), lanes on distinct words of
// one bank conflict (stride 32: 32 passes), stride 1 is one pass.
// cyc[pass] = cycles from before the first atomic to the arrival of the
// last one's result; out[0..1023] = the words afterwards (each lane added
// 64 to its word).
#define AT16 "atom.shared.add.u32 %0, [%16], 1;\n\tatom.shared.add.u32 %1, [%16], 1;\n\t"   \
	     "atom.shared.add.u32 %2, [%16], 1;\n\tatom.shared.add.u32 %3, [%16], 1;\n\t"   \
	     "atom.shared.add.u32 %4, [%16], 1;\n\tatom.shared.add.u32 %5, [%16], 1;\n\t"   \
	     "atom.shared.add.u32 %6, [%16], 1;\n\tatom.shared.add.u32 %7, [%16], 1;\n\t"   \
	     "atom.shared.add.u32 %8, [%16], 1;\n\tatom.shared.add.u32 %9, [%16], 1;\n\t"   \
	     "atom.shared.add.u32 %10, [%16], 1;\n\tatom.shared.add.u32 %11, [%16], 1;\n\t" \
	     "atom.shared.add.u32 %12, [%16], 1;\n\tatom.shared.add.u32 %13, [%16], 1;\n\t" \
	     "atom.shared.add.u32 %14, [%16], 1;\n\tatom.shared.add.u32 %15, [%16], 1;"
extern "C" __global__ void shmem_atomic(unsigned *out, unsigned long long *cyc, int stride)
{
	__shared__ unsigned s[1024];
	unsigned tid = threadIdx.x;
	for (unsigned i = tid; i < 1024; i += blockDim.x)
		s[i] = 0;
	__syncthreads();
	unsigned addr = (unsigned)__cvta_generic_to_shared(s) + ((tid * stride) % 1024) * 4, sum = 0;
#pragma unroll 1
	for (int pass = 0; pass < 2; pass++) {
		unsigned a[16], b[16];
		asm volatile("add.u32 %0, %0, 0;" : "+r"(sum));
		unsigned long long t0 = clock64();
		asm volatile(AT16 : OUT16(a) : "r"(addr) : "memory");
		asm volatile(AT16 : OUT16(b) : "r"(addr) : "memory");
		asm volatile("add.u32 %0, %1, %2;" : "=r"(sum) : "r"(b[15]), "r"(sum));
		unsigned long long t1 = clock64();
		for (int k = 0; k < 16; k++)
			sum += a[k] + b[k];
		if (tid == 0)
			cyc[pass] = t1 - t0;
	}
	__syncthreads();
	for (unsigned i = tid; i < 1024; i += blockDim.x)
		out[i] = s[i];
	if (sum == 0xFFFFFFFFu) /* keep the results live */
		out[0] = 0;
}

// ---- 6. barrier ---------------------------------------------------------------
// Warp 0 runs `n` x 32 dependent adds before the barrier; the other warps
// arrive at once.  Each warp records the clock just before and just after
// the barrier: t[2w] = before, t[2w+1] = after; t[2*nwarps] = warp 0's
// chain time.
extern "C" __global__ void barrier_wait(unsigned long long *t, unsigned *res, int n)
{
	unsigned w = threadIdx.x / 32, x = threadIdx.x;
	unsigned nw = blockDim.x / 32;
	unsigned long long c0 = clock64();
	if (w == 0) {
#pragma unroll 1
		for (int i = 0; i < n; i++)
			asm volatile(REP32("add.u32 %0, %0, 1;\n\t") : "+r"(x));
		asm volatile("add.u32 %0, %0, 0;" : "+r"(x));
	}
	unsigned long long c1 = clock64();
	__syncthreads();
	unsigned long long c2 = clock64();
	if (threadIdx.x % 32 == 0) {
		t[2 * w] = c1;
		t[2 * w + 1] = c2;
		if (w == 0)
			t[2 * nw] = c1 - c0;
	}
	res[threadIdx.x] = x;
}
