/*
 * test_cov.c -- PTX coverage (issue 16): forms nvcc 13 emits that real CUDA
 * code needs -- WARP_SZ, %envreg and grid-wide synchronisation, register
 * parameters and vector registers, cp.async and mbarrier, the remaining
 * integer/video/conversion forms, device malloc/free -- and the wrong
 * results found while checking them.  Each runs in both the functional and
 * the timing model and is checked against a CPU reference.
 */
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "warpsim.h"

static const char *const cov_modes[] = {"functional", "timing"};

struct cenv {
	ws_sim *sim;
	ws_module *mod;
};

/* Open a simulator in `mode` with warp size ws (0 = default) and load PTX text. */
static int cov_open(struct test_ctx *t, struct cenv *e, const char *mode, unsigned ws, const char *ptx,
		    const char *name)
{
	memset(e, 0, sizeof *e);
	ws_config *cfg = wsConfigCreate();
	char err[256], num[16];
	CHECK(wsConfigSet(cfg, "mode", mode, err, sizeof err) == WS_SUCCESS);
	if (ws) {
		snprintf(num, sizeof num, "%u", ws);
		CHECK(wsConfigSet(cfg, "warp_size", num, err, sizeof err) == WS_SUCCESS);
	}
	ws_result r = wsSimCreate(&e->sim, cfg);
	wsConfigDestroy(cfg);
	CHECK(r == WS_SUCCESS);
	if (r != WS_SUCCESS)
		return 0;
	r = wsModuleLoadData(e->sim, &e->mod, ptx, name);
	CHECK_MSG(r == WS_SUCCESS, "load %s: %s", name, wsSimLastError(e->sim));
	if (r != WS_SUCCESS) {
		wsSimDestroy(e->sim);
		return 0;
	}
	return 1;
}

/* Load a PTX file from tests/ into a string (caller frees). */
static char *cov_read(struct test_ctx *t, const char *path)
{
	FILE *f = fopen(path, "rb");
	CHECK_MSG(f != NULL, "open %s", path);
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *s = malloc((size_t)n + 1);
	if (s && fread(s, 1, (size_t)n, f) != (size_t)n) {
		free(s);
		s = NULL;
	}
	fclose(f);
	if (s)
		s[n] = 0;
	return s;
}

static ws_deviceptr cov_alloc(struct cenv *e, size_t n)
{
	ws_deviceptr p = 0;
	wsMemAlloc(e->sim, &p, n);
	wsMemsetD8(e->sim, p, 0, n);
	return p;
}

static ws_result cov_launch(struct cenv *e, const char *name, unsigned grid, unsigned block, void **args)
{
	ws_function *f;
	ws_result r = wsModuleGetFunction(&f, e->mod, name);
	if (r != WS_SUCCESS)
		return r;
	return wsLaunchKernel(f, grid, 1, 1, block, 1, 1, 0, args);
}

/* A .const initializer that names another .const variable without generic()
 * holds its constant-space address: the value `mov` gives for the name
 * (PTX ISA, "Initializers"); with generic() it holds the generic address,
 * what cvta.const gives. */
static const char const_addr_ptx[] =
	".version 9.0\n.target sm_80\n.address_size 64\n"
	".const .align 4 .b8 ca[16] = {1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 4};\n"
	".const .align 8 .u64 cg = generic(ca)+4;\n"
	".const .align 8 .u64 cs = ca+4;\n"
	".const .align 4 .u32 cs32 = ca+8;\n"
	".visible .entry k(.param .u64 k_param_0)\n{\n"
	"\t.reg .b32 %r<3>;\n\t.reg .b64 %rd<10>;\n"
	"\tld.param.u64 %rd1, [k_param_0];\n\tcvta.to.global.u64 %rd2, %rd1;\n"
	"\tmov.u64 %rd4, ca;\n"
	"\tcvta.const.u64 %rd5, %rd4;\n\tadd.s64 %rd6, %rd5, 4;\n"
	"\tld.const.u64 %rd3, [cg];\n\tst.global.u64 [%rd2], %rd3;\n\tst.global.u64 [%rd2+8], %rd6;\n"
	"\tld.const.u64 %rd3, [cs];\n\tst.global.u64 [%rd2+16], %rd3;\n"
	"\tadd.s64 %rd6, %rd4, 4;\n\tst.global.u64 [%rd2+24], %rd6;\n"
	"\tld.const.u64 %rd3, [cs];\n\tld.const.u32 %rd7, [%rd3];\n\tst.global.u64 [%rd2+32], %rd7;\n"
	"\tld.const.u32 %r1, [cs32];\n\tld.const.u32 %r2, [%r1];\n\tcvt.u64.u32 %rd8, %r2;\n"
	"\tst.global.u64 [%rd2+40], %rd8;\n"
	"\tret;\n}\n";

TEST(cov_const_address_initializer)
{
	for (unsigned mi = 0; mi < 2; mi++) {
		struct cenv e;
		if (!cov_open(t, &e, cov_modes[mi], 0, const_addr_ptx, "const_addr.ptx"))
			return;
		ws_deviceptr o = cov_alloc(&e, 6 * 8);
		void *args[] = {&o};
		CHECK_MSG(cov_launch(&e, "k", 1, 1, args) == WS_SUCCESS, "%s", wsSimLastError(e.sim));
		uint64_t v[6];
		wsMemcpyDtoH(e.sim, v, o, sizeof v);
		CHECK_EQ(v[0], v[1]); /* generic(ca)+4 == cvta.const(ca)+4 */
		CHECK_EQ(v[2], v[3]); /* ca+4 == mov(ca)+4 */
		CHECK(v[2] != v[0]);
		CHECK_EQ(v[4], 2);    /* ld.const through the stored address */
		CHECK_EQ(v[5], 3);
		wsSimDestroy(e.sim);
	}
}

/* Open a simulator and load a PTX file of tests/. */
static int cov_open_file(struct test_ctx *t, struct cenv *e, const char *mode, unsigned ws, const char *path)
{
	char *s = cov_read(t, path);
	if (!s)
		return 0;
	int ok = cov_open(t, e, mode, ws, s, path);
	free(s);
	return ok;
}

#define COOP_PTX TEST_DATA_DIR "/ptx/func/coop.ptx"

static void grid_stencil_ref(const int *in, int *out, int n)
{
	int *tmp = malloc((size_t)n * sizeof *tmp);
	for (int i = 0; i < n; i++)
		tmp[i] = in[i] * 3;
	for (int i = 0; i < n; i++)
		out[i] = tmp[(i + 1) % n] + tmp[(i + n - 1) % n];
	for (int i = 0; i < n; i++)
		tmp[i] = out[(i + 7) % n];
	for (int i = 0; i < n; i++)
		out[i] += tmp[(n - 1) - i];
	free(tmp);
}

/* grid.sync(): three phases, each reading what other CTAs wrote in the one
 * before; a cooperative launch of 8 CTAs (all resident) in both models, at
 * warp sizes 16 and 32. */
TEST(cov_coop_grid_sync)
{
	enum { N = 500, CTAS = 8, THREADS = 64 };
	int in[N], ref[N], out[N];
	for (int i = 0; i < N; i++)
		in[i] = (i * 37) % 101 - 50;
	grid_stencil_ref(in, ref, N);
	for (unsigned mi = 0; mi < 2; mi++)
		for (unsigned ws = 16; ws <= 32; ws *= 2) {
			struct cenv e;
			if (!cov_open_file(t, &e, cov_modes[mi], ws, COOP_PTX))
				return;
			ws_deviceptr din = cov_alloc(&e, sizeof in), dtmp = cov_alloc(&e, sizeof in),
				     dout = cov_alloc(&e, sizeof in);
			wsMemcpyHtoD(e.sim, din, in, sizeof in);
			int n = N;
			void *args[] = {&din, &dtmp, &dout, &n};
			ws_function *f;
			CHECK(wsModuleGetFunction(&f, e.mod, "grid_stencil") == WS_SUCCESS);
			ws_result r = wsLaunchCooperativeKernel(f, CTAS, 1, 1, THREADS, 1, 1, 0, args);
			CHECK_MSG(r == WS_SUCCESS, "%s ws=%u: %s", cov_modes[mi], ws, wsSimLastError(e.sim));
			wsMemcpyDtoH(e.sim, out, dout, sizeof out);
			int bad = 0;
			for (int i = 0; i < N && bad < 5; i++)
				if (out[i] != ref[i]) {
					bad++;
					CHECK_MSG(0, "%s ws=%u: out[%d] = %d, expected %d", cov_modes[mi], ws, i, out[i], ref[i]);
				}
			/* an ordinary launch traps in grid.sync(), as on hardware, and says why */
			r = wsLaunchKernel(f, CTAS, 1, 1, THREADS, 1, 1, 0, args);
			CHECK_EQ(r, WS_ERROR_TRAP);
			CHECK_STR_CONTAINS(wsSimLastError(e.sim), "cooperative");
			/* a cooperative grid that cannot be resident at once is refused */
			r = wsLaunchCooperativeKernel(f, 100000, 1, 1, THREADS, 1, 1, 0, args);
			CHECK_EQ(r, WS_ERROR_INVALID_LAUNCH);
			CHECK_STR_CONTAINS(wsSimLastError(e.sim), "cannot be resident at once");
			wsSimDestroy(e.sim);
		}
}

/* A 64-thread tile (two warps) synchronises through cooperative groups'
 * scratch in reserved shared memory (%reserved_smem_offset_1). */
TEST(cov_coop_tile64_reserved_smem)
{
	enum { T = 256 };
	int in[T], out[T];
	for (int i = 0; i < T; i++)
		in[i] = i * 3 - 100;
	for (unsigned mi = 0; mi < 2; mi++) {
		struct cenv e;
		if (!cov_open_file(t, &e, cov_modes[mi], 32, COOP_PTX))
			return;
		ws_deviceptr din = cov_alloc(&e, sizeof in), dout = cov_alloc(&e, sizeof out);
		wsMemcpyHtoD(e.sim, din, in, sizeof in);
		void *args[] = {&din, &dout};
		CHECK_MSG(cov_launch(&e, "tile64_sum", 1, T, args) == WS_SUCCESS, "%s", wsSimLastError(e.sim));
		wsMemcpyDtoH(e.sim, out, dout, sizeof out);
		for (int i = 0; i < T; i++) {
			int g = i / 64, sum = 0;
			for (int k = 0; k < 64; k++)
				sum += in[g * 64 + k];
			CHECK_MSG(out[i] == sum + (i % 64) * 1000 + g * 100000, "%s: out[%d] = %d", cov_modes[mi], i,
				  out[i]);
		}
		wsSimDestroy(e.sim);
	}
}

/* warpSize (WARP_SZ) is the PTX warp: the configured warp size, at most 32
 * (a 64-lane warp holds two PTX warps, as %laneid says). */
TEST(cov_warp_sz)
{
	enum { T = 128 };
	static const unsigned sizes[] = {8, 16, 32, 64};
	for (unsigned mi = 0; mi < 2; mi++)
		for (unsigned si = 0; si < 4; si++) {
			unsigned ws = sizes[si], w = ws < 32 ? ws : 32;
			struct cenv e;
			if (!cov_open_file(t, &e, cov_modes[mi], ws, COOP_PTX))
				return;
			ws_deviceptr d[4];
			for (int k = 0; k < 4; k++)
				d[k] = cov_alloc(&e, T * 4);
			void *args[] = {&d[0], &d[1], &d[2], &d[3]};
			CHECK_MSG(cov_launch(&e, "warp_size", 1, T, args) == WS_SUCCESS, "%s", wsSimLastError(e.sim));
			int lane[T], warp[T], wsz[T], sum[T];
			wsMemcpyDtoH(e.sim, lane, d[0], sizeof lane);
			wsMemcpyDtoH(e.sim, warp, d[1], sizeof warp);
			wsMemcpyDtoH(e.sim, wsz, d[2], sizeof wsz);
			wsMemcpyDtoH(e.sim, sum, d[3], sizeof sum);
			for (unsigned i = 0; i < T; i++) {
				CHECK_MSG(wsz[i] == (int)w && lane[i] == (int)(i % w) && warp[i] == (int)(i / w),
					  "%s ws=%u t=%u: warpSize %d lane %d warp %d", cov_modes[mi], ws, i, wsz[i], lane[i],
					  warp[i]);
				if (i % w == 0) {
					int s = 0;
					for (unsigned k = i; k < i + w; k++)
						s += (int)k;
					CHECK_MSG(sum[i] == s, "%s ws=%u t=%u: warp sum %d, expected %d", cov_modes[mi], ws, i,
						  sum[i], s);
				}
			}
			wsSimDestroy(e.sim);
		}
}

#define ASYNC_PTX TEST_DATA_DIR "/ptx/func/async.ptx"

/* cp.async in a double-buffered pipeline (commit_group, wait_group 1): each
 * tile must have arrived when it is read, in both models; the timing model
 * makes wait_group wait for the copies' global reads. */
TEST(cov_cp_async_pipeline)
{
	enum { CTAS = 3, T = 128, TILES = 6 };
	static float in[CTAS * TILES * T], out[CTAS * T];
	for (unsigned i = 0; i < CTAS * TILES * T; i++)
		in[i] = (float)((i * 7919) % 1000) * 0.25f;
	uint64_t cycles[2] = {0, 0};
	for (unsigned mi = 0; mi < 2; mi++) {
		struct cenv e;
		if (!cov_open_file(t, &e, cov_modes[mi], 32, ASYNC_PTX))
			return;
		ws_deviceptr din = cov_alloc(&e, sizeof in), dout = cov_alloc(&e, sizeof out);
		wsMemcpyHtoD(e.sim, din, in, sizeof in);
		int tiles = TILES;
		void *args[] = {&din, &dout, &tiles};
		CHECK_MSG(cov_launch(&e, "pipeline_sum", CTAS, T, args) == WS_SUCCESS, "%s", wsSimLastError(e.sim));
		wsMemcpyDtoH(e.sim, out, dout, sizeof out);
		for (unsigned b = 0; b < CTAS; b++)
			for (unsigned x = 0; x < T; x++) {
				float acc = 0;
				for (unsigned k = 0; k < TILES; k++)
					acc += in[(b * TILES + k) * T + (x + k) % T];
				CHECK_MSG(out[b * T + x] == acc, "%s: out[%u] = %g, expected %g", cov_modes[mi], b * T + x,
					  (double)out[b * T + x], (double)acc);
			}
		wsStatsGet(e.sim, "cycles", &cycles[mi]);
		wsSimDestroy(e.sim);
	}
	/* each wait_group waits for at least one DRAM round trip */
	CHECK_MSG(cycles[1] > TILES * 100, "timing: %llu cycles for %d waits on global reads",
		  (unsigned long long)cycles[1], TILES);
}

/* cp.async with src-size < cp-size zero-fills the rest of the 16 bytes. */
TEST(cov_cp_async_zero_fill)
{
	enum { T = 128 };
	uint32_t in[T * 4], out[T * 4];
	for (unsigned i = 0; i < T * 4; i++)
		in[i] = 0x01010101u * (i % 200 + 1);
	for (unsigned mi = 0; mi < 2; mi++)
		for (int valid = 0; valid <= 16; valid += 5) {
			struct cenv e;
			if (!cov_open_file(t, &e, cov_modes[mi], 32, ASYNC_PTX))
				return;
			ws_deviceptr din = cov_alloc(&e, sizeof in), dout = cov_alloc(&e, sizeof out);
			wsMemcpyHtoD(e.sim, din, in, sizeof in);
			void *args[] = {&din, &dout, &valid};
			CHECK_MSG(cov_launch(&e, "zero_fill", 1, T, args) == WS_SUCCESS, "%s", wsSimLastError(e.sim));
			wsMemcpyDtoH(e.sim, out, dout, sizeof out);
			for (unsigned x = 0; x < T; x++) {
				uint8_t want[16];
				int n = x % 5 == 0 ? valid : 16;
				memset(want, 0, sizeof want);
				memcpy(want, &in[x * 4], (size_t)n);
				CHECK_MSG(memcmp(want, &out[x * 4], 16) == 0, "%s valid=%d thread %u: %08x %08x %08x %08x",
					  cov_modes[mi], valid, x, out[x * 4], out[x * 4 + 1], out[x * 4 + 2], out[x * 4 + 3]);
			}
			wsSimDestroy(e.sim);
		}
}

/* cuda::barrier: mbarrier.init/arrive/test_wait over two phases, with the
 * copy arriving through cp.async.mbarrier.arrive. */
TEST(cov_mbarrier_cuda_barrier)
{
	enum { CTAS = 2, T = 192 };
	float in[CTAS * T], out[CTAS * T];
	for (unsigned i = 0; i < CTAS * T; i++)
		in[i] = (float)i * 1.5f - 7;
	for (unsigned mi = 0; mi < 2; mi++)
		for (unsigned ws = 16; ws <= 32; ws *= 2) {
			struct cenv e;
			if (!cov_open_file(t, &e, cov_modes[mi], ws, ASYNC_PTX))
				return;
			ws_deviceptr din = cov_alloc(&e, sizeof in), dout = cov_alloc(&e, sizeof out);
			wsMemcpyHtoD(e.sim, din, in, sizeof in);
			void *args[] = {&dout, &din};
			CHECK_MSG(cov_launch(&e, "barrier_reverse", CTAS, T, args) == WS_SUCCESS, "%s ws=%u: %s",
				  cov_modes[mi], ws, wsSimLastError(e.sim));
			wsMemcpyDtoH(e.sim, out, dout, sizeof out);
			for (unsigned b = 0; b < CTAS; b++)
				for (unsigned x = 0; x < T; x++)
					CHECK_MSG(out[b * T + x] == in[b * T + T - 1 - x], "%s ws=%u: out[%u] = %g", cov_modes[mi],
						  ws, b * T + x, (double)out[b * T + x]);
			wsSimDestroy(e.sim);
		}
}

#define HEAP_PTX TEST_DATA_DIR "/ptx/func/heap.ptx"

/* Device malloc/free and C++ new/delete: per-thread lists, blocks that
 * outlive a launch, the heap limit (malloc returns NULL), bad frees. */
TEST(cov_device_heap)
{
	enum { CTAS = 2, T = 64, N = 5 };
	for (unsigned mi = 0; mi < 2; mi++) {
		struct cenv e;
		if (!cov_open_file(t, &e, cov_modes[mi], 32, HEAP_PTX))
			return;
		ws_deviceptr dout = cov_alloc(&e, CTAS * T * 4);
		int n = N;
		void *a1[] = {&dout, &n};
		CHECK_MSG(cov_launch(&e, "heap_lists", CTAS, T, a1) == WS_SUCCESS, "%s: %s", cov_modes[mi],
			  wsSimLastError(e.sim));
		int out[CTAS * T];
		wsMemcpyDtoH(e.sim, out, dout, sizeof out);
		for (int i = 0; i < CTAS * T; i++) {
			int s = 0;
			for (int k = 0; k < N; k++)
				s += i + k + k * k;
			CHECK_MSG(out[i] == s, "%s: out[%d] = %d, expected %d", cov_modes[mi], i, out[i], s);
		}
		/* 128 blocks of 1 KiB exceed a 64 KiB heap: 64 fit, the rest get NULL */
		CHECK(wsSimSetMallocHeapSize(e.sim, 64u << 10) == WS_SUCCESS);
		ws_deviceptr keep = cov_alloc(&e, CTAS * T * 8), dsum = cov_alloc(&e, CTAS * T * 4);
		size_t bytes = 1 << 10;
		void *a2[] = {&keep, &bytes};
		CHECK_MSG(cov_launch(&e, "heap_keep", CTAS, T, a2) == WS_SUCCESS, "%s", wsSimLastError(e.sim));
		uint64_t ptrs[CTAS * T];
		wsMemcpyDtoH(e.sim, ptrs, keep, sizeof ptrs);
		/* host-side free of a device-heap block is refused */
		CHECK(ptrs[0] != 0 && wsMemFree(e.sim, ptrs[0]) == WS_ERROR_INVALID_VALUE);
		CHECK(wsSimSetMallocHeapSize(e.sim, 1024) == WS_ERROR_INVALID_VALUE); /* below what is in use */
		void *a3[] = {&keep, &dsum, &bytes};
		CHECK_MSG(cov_launch(&e, "heap_release", CTAS, T, a3) == WS_SUCCESS, "%s", wsSimLastError(e.sim));
		int sum[CTAS * T], fit = (int)((64u << 10) / (1u << 10));
		wsMemcpyDtoH(e.sim, sum, dsum, sizeof sum);
		int got = 0;
		for (int i = 0; i < CTAS * T; i++) {
			if (ptrs[i])
				got++;
			int want = ptrs[i] ? i * (int)(bytes / 4) : -1;
			CHECK_MSG(sum[i] == want, "%s: sum[%d] = %d, expected %d", cov_modes[mi], i, sum[i], want);
		}
		CHECK_EQ(got, fit);
		/* freed: the whole heap is available again */
		CHECK_MSG(cov_launch(&e, "heap_keep", CTAS, T, a2) == WS_SUCCESS, "%s", wsSimLastError(e.sim));
		wsMemcpyDtoH(e.sim, ptrs, keep, sizeof ptrs);
		got = 0;
		for (int i = 0; i < CTAS * T; i++)
			got += ptrs[i] != 0;
		CHECK_EQ(got, fit);
		/* free of a pointer malloc did not return */
		void *a4[] = {&dout};
		CHECK_EQ(cov_launch(&e, "heap_bad_free", 1, 1, a4), WS_ERROR_ILLEGAL_ADDRESS);
		CHECK_STR_CONTAINS(wsSimLastError(e.sim), "not a block of the device heap");
		wsSimDestroy(e.sim);
	}
}

/* Dynamic parallelism stays unsupported, with one line naming the call. */
TEST(cov_cdp_refused)
{
	static const char cdp[] =
		".version 9.0\n.target sm_80\n.address_size 64\n"
		".extern .func (.param .b64 func_retval0) __cudaCDP2GetParameterBufferV2\n"
		"(\n.param .b64 p0,\n.param .align 4 .b8 p1[12],\n.param .align 4 .b8 p2[12],\n.param .b32 p3\n);\n"
		".visible .entry k()\n{\n\t.reg .b64 %rd<2>;\n"
		"\t{\n\t.param .b64 a0;\n\t.param .align 4 .b8 a1[12];\n\t.param .align 4 .b8 a2[12];\n"
		"\t.param .b32 a3;\n\t.param .b64 rv;\n"
		"\tcall.uni (rv), __cudaCDP2GetParameterBufferV2, (a0, a1, a2, a3);\n"
		"\tld.param.b64 %rd1, [rv];\n\t}\n\tret;\n}\n";
	ws_config *cfg = wsConfigCreate();
	ws_sim *sim;
	CHECK(wsSimCreate(&sim, cfg) == WS_SUCCESS);
	wsConfigDestroy(cfg);
	ws_module *m;
	CHECK_EQ(wsModuleLoadData(sim, &m, cdp, "cdp.ptx"), WS_ERROR_INVALID_PTX);
	CHECK_STR_CONTAINS(wsSimLastError(sim),
			   "cdp.ptx:20:2: error: call to __cudaCDP2GetParameterBufferV2: dynamic parallelism");
	wsSimDestroy(sim);
}
