/*
 * test_cov.c -- PTX coverage (issue 16): forms nvcc 13 emits that real CUDA
 * code needs -- WARP_SZ, %envreg and grid-wide synchronisation, register
 * parameters and vector registers, cp.async and mbarrier, the remaining
 * integer/video/conversion forms, device malloc/free -- and the wrong
 * results found while checking them.  Each runs in both the functional and
 * the timing model and is checked against a CPU reference.
 */
#include <stdbool.h>
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

/* PTX text `ptx` must fail to load with WS_ERROR_INVALID_PTX and a message containing `want`. */
static void cov_load_error(struct test_ctx *t, const char *ptx, const char *name, const char *want)
{
	ws_config *cfg = wsConfigCreate();
	ws_sim *sim = NULL;
	CHECK(wsSimCreate(&sim, cfg) == WS_SUCCESS);
	wsConfigDestroy(cfg);
	ws_module *m;
	CHECK_EQ(wsModuleLoadData(sim, &m, ptx, name), WS_ERROR_INVALID_PTX);
	CHECK_STR_CONTAINS(wsSimLastError(sim), want);
	wsSimDestroy(sim);
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

/* Run kernel k of PTX text `ptx` with `threads` threads of one CTA in `mode`
 * at warp size ws (0: default): k(in, out) when `in` is given, else k(out);
 * out (outsz bytes, zeroed first) is copied back.  False (after a CHECK
 * failure) if the module does not load or the launch fails. */
static bool cov_run(struct test_ctx *t, const char *ptx, const char *name, const char *mode, unsigned ws,
		    unsigned threads, const void *in, size_t insz, void *out, size_t outsz)
{
	struct cenv e;
	if (!cov_open(t, &e, mode, ws, ptx, name))
		return false;
	ws_deviceptr di = in ? cov_alloc(&e, insz) : 0, o = cov_alloc(&e, outsz);
	if (in)
		wsMemcpyHtoD(e.sim, di, in, insz);
	void *args2[] = {&di, &o}, *args1[] = {&o};
	ws_result r = cov_launch(&e, "k", 1, threads, in ? args2 : args1);
	CHECK_MSG(r == WS_SUCCESS, "%s (%s): %s", name, mode, wsSimLastError(e.sim));
	wsMemcpyDtoH(e.sim, out, o, outsz);
	wsSimDestroy(e.sim);
	return r == WS_SUCCESS;
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
		/* host-side free of a device-heap block is refused (which threads got the 64 blocks
		 * depends on the order the SMs ran them: take the first that did) */
		unsigned first = 0;
		while (first < CTAS * T - 1 && !ptrs[first])
			first++;
		CHECK(ptrs[first] != 0 && wsMemFree(e.sim, ptrs[first]) == WS_ERROR_INVALID_VALUE);
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

/* ---- bmsk and video instructions: hand-built, one lane, exact bits ---- */
#include "func/exec.h"

struct vsem {
	uint64_t regs[8 * 32];
	uint8_t carry[32];
	struct func_exec x;
};

/* op.d.a.b{flags}{.secondary} r0, r1, r2{, r3} with r1..r3 = a, b, c; returns r0 */
static uint64_t vrun_(struct test_ctx *t, unsigned op, unsigned dt, unsigned at, unsigned bt, uint32_t flags,
		      unsigned sec, int nsrc, uint64_t a, uint64_t b, uint64_t c, int line)
{
	static struct vsem s;
	memset(&s, 0, sizeof s);
	s.x.regs = s.regs;
	s.x.ws = 32;
	s.x.carry = s.carry;
	struct ptx_insn in;
	memset(&in, 0, sizeof in);
	in.op = (uint16_t)op;
	in.type = (uint8_t)dt;
	in.type2 = (uint8_t)at;
	in.type3 = (uint8_t)bt;
	in.flags = flags;
	in.atomop = (uint8_t)sec;
	in.guard = -1;
	in.nopd = (uint8_t)(nsrc + 1);
	for (int i = 0; i <= nsrc; i++) {
		in.opd[i].kind = OPD_REG;
		in.opd[i].reg = i;
		in.opd[i].reg2 = -1;
	}
	s.regs[1 * 32] = a;
	s.regs[2 * 32] = b;
	s.regs[3 * 32] = c;
	char why[256] = "";
	if (!func_video_check(&in, why, sizeof why)) {
		test_fail(t, __FILE__, line, "func_video_check rejected: %s", why);
		return 0xdeadbeef;
	}
	func_exec_video(&s.x, &in, 1);
	return s.regs[0];
}
#define U PTX_T_U32
#define S PTX_T_S32
#define VRUN(op, d, a_, b_, fl, sec, n, a, b, c) vrun_(t, op, d, a_, b_, fl, sec, n, a, b, c, __LINE__)

TEST(cov_sem_bmsk)
{
	CHECK_EQ(VRUN(OP_BMSK, PTX_T_B32, 0, 0, 0, 0, 2, 0, 32, 0), 0xffffffffu);
	CHECK_EQ(VRUN(OP_BMSK, PTX_T_B32, 0, 0, 0, 0, 2, 4, 8, 0), 0xff0);
	CHECK_EQ(VRUN(OP_BMSK, PTX_T_B32, 0, 0, 0, 0, 2, 28, 8, 0), 0xf0000000u); /* bits past 31 dropped */
	CHECK_EQ(VRUN(OP_BMSK, PTX_T_B32, 0, 0, FLAG_CLAMP, 0, 2, 40, 3, 0), 0);   /* position clamped to 32 */
	CHECK_EQ(VRUN(OP_BMSK, PTX_T_B32, 0, 0, FLAG_CLAMP, 0, 2, 0, 100, 0), 0xffffffffu);
	CHECK_EQ(VRUN(OP_BMSK, PTX_T_B32, 0, 0, FLAG_WRAP, 0, 2, 36, 33, 0), 0x10); /* 4 and 1 */
	CHECK_EQ(VRUN(OP_BMSK, PTX_T_B32, 0, 0, FLAG_WRAP, 0, 2, 0, 32, 0), 0);     /* length 32 wraps to 0 */
}

TEST(cov_sem_video_scalar)
{
	/* CUB's SHR_ADD / SHL_ADD: vshr/vshl.u32.u32.u32.clamp.add */
	CHECK_EQ(VRUN(OP_VSHR, U, U, U, FLAG_CLAMP, AOP_ADD, 3, 0xf0, 4, 7), 0xf + 7);
	CHECK_EQ(VRUN(OP_VSHR, U, U, U, FLAG_CLAMP, AOP_ADD, 3, 0xf0, 40, 7), 7);
	CHECK_EQ(VRUN(OP_VSHR, U, U, U, FLAG_WRAP, AOP_ADD, 3, 0xf0, 36, 7), 0xf + 7);
	CHECK_EQ(VRUN(OP_VSHL, U, U, U, FLAG_CLAMP, AOP_ADD, 3, 1, 31, 0), 0x80000000u);
	CHECK_EQ(VRUN(OP_VSHL, U, U, U, FLAG_CLAMP, AOP_ADD, 3, 1, 32, 5), 5);
	CHECK_EQ(VRUN(OP_VSHL, U, U, U, FLAG_CLAMP | FLAG_SAT, 0, 2, 1, 32, 0), 0xffffffffu); /* 2^32 saturates */
	CHECK_EQ(VRUN(OP_VSHR, S, S, U, 0, 0, 2, 0x80000000u, 31, 0), 0xffffffffu);          /* arithmetic */
	CHECK_EQ(VRUN(OP_VSHR, S, S, U, 0, 0, 2, 0x80000000u, 32, 0), 0xffffffffu);
	CHECK_EQ(VRUN(OP_VSHR, U, U, U, 0, 0, 2, 0x80000000u, 31, 0), 1);
	/* 33-bit intermediate: u32 - u32 saturates at 0, s32 + s32 at INT_MAX */
	CHECK_EQ(VRUN(OP_VSUB, U, U, U, FLAG_SAT, 0, 2, 3, 5, 0), 0);
	CHECK_EQ(VRUN(OP_VSUB, S, U, U, FLAG_SAT, 0, 2, 3, 5, 0), 0xfffffffeu);
	CHECK_EQ(VRUN(OP_VADD, S, S, S, FLAG_SAT, 0, 2, 0x7fffffffu, 1, 0), 0x7fffffffu);
	CHECK_EQ(VRUN(OP_VADD, S, S, S, 0, 0, 2, 0x7fffffffu, 1, 0), 0x80000000u);
	CHECK_EQ(VRUN(OP_VABSDIFF, U, S, U, 0, 0, 2, 0xffffffffu, 0xffffffffu, 0), 0x100000000ull & 0xffffffffu);
	CHECK_EQ(VRUN(OP_VABSDIFF, U, U, U, 0, AOP_ADD, 3, 10, 3, 100), 107);
	CHECK_EQ(VRUN(OP_VMIN, S, S, S, 0, AOP_MAX, 3, (uint32_t)-5, 3, (uint32_t)-7), (uint32_t)-5);
	CHECK_EQ(VRUN(OP_VMAX, U, U, U, 0, AOP_MIN, 3, 9, 3, 4), 4);
	CHECK_EQ(VRUN(OP_VMIN, U, U, S, 0, 0, 2, 5, (uint32_t)-1, 0), 0xffffffffu); /* -1 < 5 */
}

TEST(cov_sem_video_simd)
{
	CHECK_EQ(VRUN(OP_VABSDIFF4, U, U, U, 0, 0, 3, 0x00ff10f0u, 0xff00f010u, 0x12345678), 0xffffe0e0u);
	CHECK_EQ(VRUN(OP_VABSDIFF4, U, U, U, 0, AOP_ADD, 3, 0x00ff10f0u, 0xff00f010u, 5), 224 + 224 + 255 + 255 + 5);
	CHECK_EQ(VRUN(OP_VABSDIFF4, S, S, S, 0, 0, 3, 0x7f, 0x80, 0), 0xff);
	CHECK_EQ(VRUN(OP_VABSDIFF4, S, S, S, FLAG_SAT, 0, 3, 0x7f, 0x80, 0), 0x7f);
	CHECK_EQ(VRUN(OP_VADD4, U, U, U, FLAG_SAT, 0, 3, 0x01ff00ffu, 0x01010101u, 0), 0x02ff01ffu);
	CHECK_EQ(VRUN(OP_VADD4, U, U, U, 0, 0, 3, 0x01ff00ffu, 0x01010101u, 0), 0x02000100u);
	CHECK_EQ(VRUN(OP_VSUB4, S, S, S, FLAG_SAT, 0, 3, 0x80, 0x01, 0), 0x80);  /* -128 - 1 saturates */
	CHECK_EQ(VRUN(OP_VAVRG2, U, U, U, 0, 0, 3, 0x0000ffffu, 0x00030001u, 0), 0x00028000u);
	CHECK_EQ(VRUN(OP_VAVRG4, S, S, S, 0, 0, 3, 0xff, 0xfe, 0), 0xff); /* (-1 + -2 + 1) >> 1 = -1 */
	CHECK_EQ(VRUN(OP_VMIN2, S, S, S, 0, 0, 3, 0x00018000u, 0x80000001u, 0), 0x80008000u);
	CHECK_EQ(VRUN(OP_VMAX2, U, U, U, 0, 0, 3, 0x00018000u, 0x80000001u, 0), 0x80008000u);
	CHECK_EQ(VRUN(OP_VADD2, U, U, U, 0, AOP_ADD, 3, 0x00010002u, 0x00030004u, 10), 1 + 3 + 2 + 4 + 10);
	CHECK_EQ(VRUN(OP_VMAX4, S, U, S, 0, 0, 3, 0x80808080u, 0x7f7f7f7fu, 0), 0x80808080u); /* u 128 > s 127 */
}
#undef U
#undef S

/* The same instructions as nvcc and CUB write them, through the parser and
 * both models. */
static const char video_ptx[] =
	".version 9.0\n.target sm_80\n.address_size 64\n"
	".visible .entry k(.param .u64 k_param_0)\n{\n"
	"\t.reg .b32 %r<12>;\n\t.reg .b64 %rd<4>;\n"
	"\tld.param.u64 %rd1, [k_param_0];\n\tcvta.to.global.u64 %rd2, %rd1;\n"
	"\tmov.u32 %r1, %tid.x;\n\tshl.b32 %r2, %r1, 4;\n"
	"\tvshr.u32.u32.u32.clamp.add %r3, %r2, 2, %r1;\n"
	"\tbmsk.clamp.b32 %r4, %r1, 3;\n"
	"\tbmsk.wrap.b32 %r5, 2, %r1;\n"
	"\tmov.u32 %r6, 0x00ff10f0;\n"
	"\tvabsdiff4.u32.u32.u32 %r7,%r6,%r2,%r6;\n"
	"\tvabsdiff4.u32.u32.u32.add %r8, %r6, %r2, %r1;\n"
	"\tvshl.u32.u32.u32.wrap %r9, %r1, 33;\n"
	"\tmul.wide.u32 %rd3, %r1, 32;\n\tadd.s64 %rd3, %rd2, %rd3;\n"
	"\tst.global.v2.u32 [%rd3], {%r3, %r4};\n\tst.global.v4.u32 [%rd3+16], {%r5, %r7, %r8, %r9};\n"
	"\tret;\n}\n";

TEST(cov_video_ptx)
{
	enum { T = 40 };
	for (unsigned mi = 0; mi < 2; mi++) {
		struct cenv e;
		if (!cov_open(t, &e, cov_modes[mi], 0, video_ptx, "video.ptx"))
			return;
		ws_deviceptr o = cov_alloc(&e, T * 32);
		void *args[] = {&o};
		CHECK_MSG(cov_launch(&e, "k", 1, T, args) == WS_SUCCESS, "%s", wsSimLastError(e.sim));
		uint32_t v[T * 8];
		wsMemcpyDtoH(e.sim, v, o, sizeof v);
		for (uint32_t i = 0; i < T; i++) {
			uint32_t x = i << 4, a = 0x00ff10f0u, ad = 0, sum = 0;
			for (int k = 0; k < 4; k++) {
				int p = (int)((a >> (8 * k)) & 0xff), q = (int)((x >> (8 * k)) & 0xff);
				uint32_t dd = (uint32_t)(p > q ? p - q : q - p);
				ad |= dd << (8 * k);
				sum += dd;
			}
			uint32_t want[6] = {(x >> 2) + i, i >= 32 ? 0 : (uint32_t)((0x7ull << i) & 0xffffffffu),
					    (uint32_t)(((1ull << (i & 31)) - 1) << 2 & 0xffffffffu), ad, sum + i, i << 1};
			for (int k = 0; k < 6; k++) {
				uint32_t got = v[i * 8 + (k < 2 ? k : k + 2)];
				CHECK_MSG(got == want[k], "%s: thread %u value %d: 0x%x, expected 0x%x", cov_modes[mi], i, k,
					  got, want[k]);
			}
		}
		wsSimDestroy(e.sim);
	}
}

/* cvt to and from fp8 pairs, to tf32, and cvt.pack: hardware-defined edge
 * cases (PTX ISA, "cvt"), through the parser and both models.  Thread i
 * converts in[2i], in[2i+1] (f32 bits). */
static const char cvt16_ptx[] =
	".version 9.0\n.target sm_90\n.address_size 64\n"
	".visible .entry k(.param .u64 k_param_0, .param .u64 k_param_1)\n{\n"
	"\t.reg .b16 %rs<4>;\n\t.reg .b32 %r<16>;\n\t.reg .f32 %f<3>;\n\t.reg .b64 %rd<8>;\n"
	"\tld.param.u64 %rd1, [k_param_0];\n\tld.param.u64 %rd2, [k_param_1];\n"
	"\tmov.u32 %r1, %tid.x;\n\tmul.wide.u32 %rd3, %r1, 8;\n\tadd.s64 %rd4, %rd1, %rd3;\n"
	"\tld.global.v2.f32 {%f1, %f2}, [%rd4];\n"
	"\tcvt.rn.satfinite.e4m3x2.f32 %rs1, %f1, %f2;\n"
	"\tcvt.rn.satfinite.e5m2x2.f32 %rs2, %f1, %f2;\n"
	"\tcvt.rn.f16x2.e4m3x2 %r2, %rs1;\n"
	"\tcvt.rn.f16x2.e5m2x2 %r3, %rs2;\n"
	"\tmov.b32 %r4, %f1;\n"
	"\tcvt.rna.tf32.f32 %r5, %f1;\n"
	"\tcvt.rn.tf32.f32 %r6, %f1;\n"
	"\tcvt.rz.satfinite.tf32.f32 %r7, %f1;\n"
	"\tcvt.rna.satfinite.tf32.f32 %r8, %f1;\n"
	"\tmov.b32 %r9, %f2;\n"
	"\tcvt.pack.sat.u8.s32.b32 %r10, %r4, %r9, 0x1234;\n"
	"\tcvt.pack.sat.s16.s32 %r11, %r4, %r9;\n"
	"\tcvt.u32.u16 %r12, %rs1;\n\tcvt.u32.u16 %r13, %rs2;\n"
	"\tmul.wide.u32 %rd5, %r1, 48;\n\tadd.s64 %rd6, %rd2, %rd5;\n"
	"\tst.global.v4.u32 [%rd6], {%r12, %r13, %r2, %r3};\n"
	"\tst.global.v4.u32 [%rd6+16], {%r5, %r6, %r7, %r8};\n"
	"\tst.global.v2.u32 [%rd6+32], {%r10, %r11};\n"
	"\tret;\n}\n";

TEST(cov_sem_cvt_fp8_tf32_pack)
{
	/* per case: a, b (f32 bits), then e4m3x2, e5m2x2, f16x2<-e4m3x2, f16x2<-e5m2x2 (-1: not checked),
	 * tf32 rna, rn, rz.satfinite, rna.satfinite of a, pack u8 and s16 of (a, b) as integers */
	static const struct {
		uint32_t a, b;
		int64_t want[10];
	} cases[] = {
		/* 1.0, 448: e4m3 0x38, 0x7e; e5m2 0x3c, 448 -> 0x5f (1.75 * 2^8); f16 0x3c00, 0x5f00 */
		{0x3f800000u, 0x43e00000u, {0x387e, 0x3c5f, 0x3c005f00, 0x3c005f00, 0x3f800000, 0x3f800000, 0x3f800000,
					     0x3f800000, -1, -1}},
		/* 0.3 -> e4m3 0x2a (0.3125); 500 saturates to 448; e5m2 0.3 -> 0x35 (0.3125), 500 -> 0x60 (512) */
		{0x3e99999au, 0x43fa0000u, {0x2a7e, 0x3560, 0x35005f00, 0x35006000, -1, -1, -1, -1, -1, -1}},
		/* -0 and the smallest e4m3 subnormal 2^-9; 2^-10 ties to even (0) */
		{0x80000000u, 0x3b000000u, {0x8001, -1, 0x80001800, -1, 0x80000000u, 0x80000000u, 0x80000000u,
					       0x80000000u, -1, -1}},
		{0x3a800000u, 0xba800000u, {0x0080, -1, -1, -1, -1, -1, -1, -1, -1, -1}},
		/* NaN stays NaN; +inf saturates (e4m3 448, e5m2 57344 = 0x7b) */
		{0x7fc00000u, 0x7f800000u, {0x7f7e, 0x7f7b, 0x7fff5f00, 0x7fff7b00, 0x7fffffffu, 0x7fffffffu, 0x7fffffffu,
					    0x7fffffffu, -1, -1}},
		/* tf32 rounding: below half, tie (rna up, rn to even), above half */
		{0x3f800fffu, 0x3f801000u, {-1, -1, -1, -1, 0x3f800000, 0x3f800000, 0x3f800000, 0x3f800000, -1, -1}},
		{0x3f801000u, 0, {-1, -1, -1, -1, 0x3f802000, 0x3f800000, 0x3f800000, 0x3f802000, -1, -1}},
		{0x3f803000u, 0, {-1, -1, -1, -1, 0x3f804000, 0x3f804000, 0x3f802000, 0x3f804000, -1, -1}},
		/* the largest f32 rounds to infinity, or to the largest tf32 with .satfinite */
		{0x7f7fffffu, 0, {-1, -1, -1, -1, 0x7f800000, 0x7f800000, 0x7f7fe000, 0x7f7fe000, -1, -1}},
		{0xff800000u, 0, {-1, -1, -1, -1, 0xff800000u, 0xff800000u, 0xff7fe000u, 0xff7fe000u, -1, -1}},
		/* cvt.pack.sat on the bits as integers */
		{300, (uint32_t)-5, {-1, -1, -1, -1, -1, -1, -1, -1, 0x1234ff00, 0x012cfffb}},
		{40000, (uint32_t)-40000, {-1, -1, -1, -1, -1, -1, -1, -1, 0x1234ff00, 0x7fff8000}},
		{(uint32_t)-1, 7, {-1, -1, -1, -1, -1, -1, -1, -1, 0x12340007, 0xffff0007}},
	};
	enum { N = sizeof cases / sizeof cases[0] };
	for (unsigned mi = 0; mi < 2; mi++) {
		struct cenv e;
		if (!cov_open(t, &e, cov_modes[mi], 0, cvt16_ptx, "cvt16.ptx"))
			return;
		uint32_t in[N * 2], out[N * 12];
		for (unsigned i = 0; i < N; i++) {
			in[2 * i] = cases[i].a;
			in[2 * i + 1] = cases[i].b;
		}
		ws_deviceptr din = cov_alloc(&e, sizeof in), dout = cov_alloc(&e, sizeof out);
		wsMemcpyHtoD(e.sim, din, in, sizeof in);
		void *args[] = {&din, &dout};
		CHECK_MSG(cov_launch(&e, "k", 1, N, args) == WS_SUCCESS, "%s", wsSimLastError(e.sim));
		wsMemcpyDtoH(e.sim, out, dout, sizeof out);
		for (unsigned i = 0; i < N; i++)
			for (unsigned k = 0; k < 10; k++)
				if (cases[i].want[k] >= 0)
					CHECK_MSG(out[i * 12 + k] == (uint32_t)cases[i].want[k],
						  "%s case %u (0x%08x, 0x%08x) result %u: 0x%x, expected 0x%llx", cov_modes[mi], i,
						  cases[i].a, cases[i].b, k, out[i * 12 + k], (long long)cases[i].want[k]);
		wsSimDestroy(e.sim);
	}
}

/* .global/.const variables declared inside a function have static storage
 * (with initializers), visible in that function only; address expressions
 * name+offset work in mov and in [ ]. */
static const char fnvar_ptx[] =
	".version 9.0\n.target sm_80\n.address_size 64\n"
	".visible .entry k(.param .u64 k_param_0)\n{\n"
	"\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<8>;\n"
	"\t.global .align 4 .u32 cnt[4] = {5, 6, 7, 8};\n"
	"\t.const .align 4 .u32 tab[2] = {11, 12};\n"
	"\t.shared .align 4 .b8 temp[16];\n"
	"\tld.param.u64 %rd1, [k_param_0];\n\tcvta.to.global.u64 %rd2, %rd1;\n"
	"\tmov.u32 %r1, temp+4;\n\tmov.u64 %rd3, cnt+8;\n\tld.global.u32 %r2, [%rd3];\n"
	"\tmov.u32 %r3, temp;\n\tsub.s32 %r4, %r1, %r3;\n"
	"\tst.global.v2.u32 [%rd2], {%r2, %r4};\n"
	"\tatom.global.add.u32 %r6, [cnt+4], 1;\n\tld.const.u32 %r5, [tab+4];\n"
	"\tst.global.v2.u32 [%rd2+8], {%r6, %r5};\n"
	"\tret;\n}\n"
	".visible .entry other(.param .u64 o_param_0)\n{\n"
	"\t.reg .b64 %rd<2>;\n\t.global .u64 cnt;\n"
	"\tmov.u64 %rd1, cnt;\n\tret;\n}\n";

TEST(cov_function_scope_global)
{
	for (unsigned mi = 0; mi < 2; mi++) {
		struct cenv e;
		if (!cov_open(t, &e, cov_modes[mi], 0, fnvar_ptx, "fnvar.ptx"))
			return;
		ws_deviceptr o = cov_alloc(&e, 16);
		void *args[] = {&o};
		uint32_t v[4];
		for (unsigned run = 0; run < 2; run++) { /* static storage: the counter persists */
			CHECK_MSG(cov_launch(&e, "k", 1, 1, args) == WS_SUCCESS, "%s", wsSimLastError(e.sim));
			wsMemcpyDtoH(e.sim, v, o, sizeof v);
			CHECK_EQ(v[0], 7);
			CHECK_EQ(v[1], 4);
			CHECK_EQ(v[2], 6 + run);
			CHECK_EQ(v[3], 12);
		}
		wsSimDestroy(e.sim);
	}
	/* the name is not visible outside its function */
	struct cenv e;
	memset(&e, 0, sizeof e);
	ws_config *cfg = wsConfigCreate();
	CHECK(wsSimCreate(&e.sim, cfg) == WS_SUCCESS);
	wsConfigDestroy(cfg);
	static const char outside[] = ".version 9.0\n.target sm_80\n.address_size 64\n"
				      ".visible .entry a()\n{\n\t.global .u32 x;\n\tret;\n}\n"
				      ".visible .entry b()\n{\n\t.reg .b64 %rd1;\n\tmov.u64 %rd1, x;\n\tret;\n}\n";
	CHECK_EQ(wsModuleLoadData(e.sim, &e.mod, outside, "outside.ptx"), WS_ERROR_INVALID_PTX);
	CHECK_STR_CONTAINS(wsSimLastError(e.sim), "outside.ptx:12:");
	wsSimDestroy(e.sim);
}

/* ld/st .v8 (sm_100's 32-byte accesses), as nvcc 13 emits them for a
 * 32-byte-aligned struct of 8 floats; a misaligned .v8 faults. */
static const char v8_ptx[] =
	".version 9.0\n.target sm_100\n.address_size 64\n"
	".visible .entry k(.param .u64 k_param_0, .param .u64 k_param_1, .param .u32 k_param_2)\n{\n"
	"\t.reg .b32 %r<4>;\n\t.reg .f32 %f<17>;\n\t.reg .b64 %rd<8>;\n"
	"\tld.param.u64 %rd1, [k_param_0];\n\tld.param.u64 %rd2, [k_param_1];\n\tld.param.u32 %r2, [k_param_2];\n"
	"\tcvta.to.global.u64 %rd3, %rd1;\n\tcvta.to.global.u64 %rd4, %rd2;\n"
	"\tmov.u32 %r1, %tid.x;\n\tmul.wide.u32 %rd5, %r1, 32;\n\tadd.s64 %rd6, %rd3, %rd5;\n"
	"\tcvt.u64.u32 %rd7, %r2;\n\tadd.s64 %rd6, %rd6, %rd7;\n"
	"\tld.global.v8.f32 {%f1, %f2, %f3, %f4, %f5, %f6, %f7, %f8}, [%rd6];\n"
	"\tadd.f32 %f9, %f8, %f1;\n\tmul.f32 %f10, %f2, 2.0;\n\tsub.f32 %f11, %f3, %f7;\n"
	"\tadd.s64 %rd6, %rd4, %rd5;\n"
	"\tst.global.v8.f32 [%rd6], {%f9, %f10, %f11, %f4, %f5, %f6, %f7, %f1};\n"
	"\tret;\n}\n";

TEST(cov_ld_st_v8)
{
	enum { T = 48 };
	float in[T * 8 + 8], out[T * 8];
	for (unsigned i = 0; i < T * 8 + 8; i++)
		in[i] = (float)i * 0.5f;
	for (unsigned mi = 0; mi < 2; mi++) {
		struct cenv e;
		if (!cov_open(t, &e, cov_modes[mi], 0, v8_ptx, "v8.ptx"))
			return;
		ws_deviceptr din = cov_alloc(&e, sizeof in), dout = cov_alloc(&e, sizeof out);
		wsMemcpyHtoD(e.sim, din, in, sizeof in);
		unsigned off = 0;
		void *args[] = {&din, &dout, &off};
		CHECK_MSG(cov_launch(&e, "k", 1, T, args) == WS_SUCCESS, "%s", wsSimLastError(e.sim));
		wsMemcpyDtoH(e.sim, out, dout, sizeof out);
		for (unsigned i = 0; i < T; i++) {
			const float *a = &in[i * 8];
			float want[8] = {a[7] + a[0], a[1] * 2, a[2] - a[6], a[3], a[4], a[5], a[6], a[0]};
			CHECK_MSG(memcmp(want, &out[i * 8], sizeof want) == 0, "%s: thread %u", cov_modes[mi], i);
		}
		off = 16; /* 16-byte aligned only */
		CHECK_EQ(cov_launch(&e, "k", 1, T, args), WS_ERROR_MISALIGNED_ADDRESS);
		CHECK_STR_CONTAINS(wsSimLastError(e.sim), "misaligned 32-byte read");
		wsSimDestroy(e.sim);
	}
}

/* Vector registers (.reg .v2/.v4): whole-vector operands of ld/st/mov and
 * element access with .x/.y/.z/.w and .r/.g/.b/.a. */
static const char vreg_ptx[] =
	".version 9.0\n"
	".target sm_80\n"
	".address_size 64\n"
	".visible .entry k(.param .u64 k_param_0)\n"
	"{\n"
	"\t.reg .v4 .f32 %v;\n"
	"\t.reg .v2 .b32 %w, %u;\n"
	"\t.reg .b32 %r<4>;\n"
	"\t.reg .b64 %rd<4>;\n"
	"\tld.param.u64 %rd1, [k_param_0];\n"
	"\tcvta.to.global.u64 %rd2, %rd1;\n"
	"\tmov.u32 %r1, %tid.x;\n"
	"\tmul.wide.u32 %rd3, %r1, 16;\n"
	"\tadd.s64 %rd2, %rd2, %rd3;\n"
	"\tld.global.v4.f32 %v, [%rd2];\n"
	"\tadd.f32 %v.x, %v.x, %v.w;\n"
	"\tmul.f32 %v.g, %v.y, 2.0;\n"
	"\tmov.b32 %w.x, %v.z;\n"
	"\tmov.b32 %w.y, %r1;\n"
	"\tmov.v2.b32 %u, %w;\n"
	"\tmov.b32 %v.z, %u.y;\n"
	"\tst.global.v4.f32 [%rd2], %v;\n"
	"\tst.global.v2.b32 [%rd2+8], {%u.x, %w.y};\n"
	"\tret;\n"
	"}\n";

TEST(cov_vector_registers)
{
	enum { T = 3 };
	for (unsigned mi = 0; mi < 2; mi++) {
		struct cenv e;
		if (!cov_open(t, &e, cov_modes[mi], 0, vreg_ptx, "vreg.ptx"))
			return;
		float in[T * 4];
		for (unsigned i = 0; i < T * 4; i++)
			in[i] = (float)i;
		ws_deviceptr o = cov_alloc(&e, sizeof in);
		wsMemcpyHtoD(e.sim, o, in, sizeof in);
		void *args[] = {&o};
		CHECK_MSG(cov_launch(&e, "k", 1, T, args) == WS_SUCCESS, "%s", wsSimLastError(e.sim));
		uint32_t v[T * 4];
		wsMemcpyDtoH(e.sim, v, o, sizeof v);
		for (uint32_t i = 0; i < T; i++) {
			const float *a = &in[i * 4];
			float x = a[0] + a[3], y = a[1] * 2, z = a[2];
			uint32_t want[4], zb;
			memcpy(&want[0], &x, 4);
			memcpy(&want[1], &y, 4);
			memcpy(&zb, &z, 4);
			want[2] = zb; /* {%u.x, %w.y} stored over .z, .w */
			want[3] = i;
			CHECK_MSG(memcmp(want, &v[i * 4], sizeof want) == 0, "%s: thread %u: %08x %08x %08x %08x", cov_modes[mi],
				  i, v[i * 4], v[i * 4 + 1], v[i * 4 + 2], v[i * 4 + 3]);
		}
		wsSimDestroy(e.sim);
	}
	/* a component the vector does not have, and a vector where a scalar register is needed */
	ws_config *cfg = wsConfigCreate();
	ws_sim *sim;
	CHECK(wsSimCreate(&sim, cfg) == WS_SUCCESS);
	wsConfigDestroy(cfg);
	ws_module *m;
	static const char bad1[] = ".version 9.0\n.target sm_80\n.address_size 64\n.visible .entry k()\n{\n"
				   "\t.reg .v2 .b32 %w;\n\tmov.b32 %w.z, 1;\n\tret;\n}\n";
	CHECK_EQ(wsModuleLoadData(sim, &m, bad1, "bad1.ptx"), WS_ERROR_INVALID_PTX);
	CHECK_STR_CONTAINS(wsSimLastError(sim), "bad1.ptx:7:12: error: vector register '%w' has no component '.z'");
	static const char bad2[] = ".version 9.0\n.target sm_80\n.address_size 64\n.visible .entry k()\n{\n"
				   "\t.reg .v2 .b32 %w;\n\t.reg .pred %p;\n\t@%w bra L;\nL:\n\tret;\n}\n";
	CHECK_EQ(wsModuleLoadData(sim, &m, bad2, "bad2.ptx"), WS_ERROR_INVALID_PTX);
	CHECK_STR_CONTAINS(wsSimLastError(sim), "vector register '%w' cannot be used here");
	wsSimDestroy(sim);
}

/* sm_90 packed 16-bit integer add/sub/min/max (what __vsub2 etc. compile to
 * for compute_90), per half, with .sat and .relu. */
static const char i16x2_ptx[] =
	".version 9.0\n.target sm_90\n.address_size 64\n"
	".visible .entry k(.param .u64 k_param_0, .param .u32 k_param_1, .param .u32 k_param_2)\n{\n"
	"\t.reg .b32 %r<12>;\n\t.reg .b64 %rd<3>;\n"
	"\tld.param.u64 %rd1, [k_param_0];\n\tld.param.u32 %r1, [k_param_1];\n\tld.param.u32 %r2, [k_param_2];\n"
	"\tcvta.to.global.u64 %rd2, %rd1;\n"
	"\tadd.s16x2 %r3, %r1, %r2;\n\tadd.sat.s16x2 %r4, %r1, %r2;\n\tsub.u16x2 %r5, %r1, %r2;\n"
	"\tmin.s16x2 %r6, %r1, %r2;\n\tmax.u16x2 %r7, %r1, %r2;\n\tmax.relu.s16x2 %r8, %r1, %r2;\n"
	"\tst.global.v4.u32 [%rd2], {%r3, %r4, %r5, %r6};\n\tst.global.v2.u32 [%rd2+16], {%r7, %r8};\n"
	"\tret;\n}\n";

TEST(cov_sem_i16x2)
{
	for (unsigned mi = 0; mi < 2; mi++) {
		struct cenv e;
		if (!cov_open(t, &e, cov_modes[mi], 0, i16x2_ptx, "i16x2.ptx"))
			return;
		ws_deviceptr o = cov_alloc(&e, 32);
		uint32_t a = 0x7fff0005u, b = 0x0001fff0u; /* halves: hi 32767 + 1, lo 5 + (-16 | 65520) */
		void *args[] = {&o, &a, &b};
		CHECK_MSG(cov_launch(&e, "k", 1, 1, args) == WS_SUCCESS, "%s", wsSimLastError(e.sim));
		uint32_t v[6];
		wsMemcpyDtoH(e.sim, v, o, sizeof v);
		CHECK_EQ(v[0], 0x8000fff5u); /* wraps */
		CHECK_EQ(v[1], 0x7ffffff5u); /* hi saturates */
		CHECK_EQ(v[2], 0x7ffe0015u); /* 5 - 65520 wraps to 21 */
		CHECK_EQ(v[3], 0x0001fff0u); /* signed: lo -16 < 5 */
		CHECK_EQ(v[4], 0x7ffffff0u); /* unsigned: lo 65520 > 5 */
		CHECK_EQ(v[5], 0x7fff0005u); /* signed max, none negative */
		wsSimDestroy(e.sim);
	}
}

/* Register parameters of .func (declared before the definition, recursive,
 * divergent): arguments and results are copied register to register. */
static const char regparam_ptx[] =
	".version 9.0\n"
	".target sm_80\n"
	".address_size 64\n"
	".func (.reg .b32 %rv) madd(.reg .b32 %a, .reg .b32 %b);\n"
	".func (.reg .b32 %rv) fact(.reg .b32 %n)\n"
	"{\n"
	"\t.reg .pred %p;\n"
	"\t.reg .b32 %t<3>;\n"
	"\tsetp.le.u32 %p, %n, 1;\n"
	"\t@%p bra DONE;\n"
	"\tsub.u32 %t1, %n, 1;\n"
	"\tcall (%t2), fact, (%t1);\n"
	"\tmul.lo.u32 %rv, %n, %t2;\n"
	"\tret;\n"
	"DONE:\n"
	"\tmov.u32 %rv, 1;\n"
	"\tret;\n"
	"}\n"
	".func (.reg .b32 %rv) madd(.reg .b32 %a, .reg .b32 %b)\n"
	"{\n"
	"\tmad.lo.u32 %rv, %a, %b, 7;\n"
	"\tret;\n"
	"}\n"
	".visible .entry k(.param .u64 k_param_0)\n"
	"{\n"
	"\t.reg .b32 %r<6>;\n"
	"\t.reg .b64 %rd<4>;\n"
	"\tld.param.u64 %rd1, [k_param_0];\n"
	"\tcvta.to.global.u64 %rd2, %rd1;\n"
	"\tmov.u32 %r1, %tid.x;\n"
	"\tand.b32 %r2, %r1, 7;\n"
	"\tcall (%r3), fact, (%r2);\n"
	"\tcall (%r4), madd, (%r1, %r3);\n"
	"\tmul.wide.u32 %rd3, %r1, 8;\n"
	"\tadd.s64 %rd2, %rd2, %rd3;\n"
	"\tst.global.v2.u32 [%rd2], {%r3, %r4};\n"
	"\tret;\n"
	"}\n";

TEST(cov_register_parameters)
{
	enum { T = 40 };
	for (unsigned mi = 0; mi < 2; mi++)
		for (unsigned ws = 8; ws <= 32; ws *= 4) {
			struct cenv e;
			if (!cov_open(t, &e, cov_modes[mi], ws, regparam_ptx, "regparam.ptx"))
				return;
			ws_deviceptr o = cov_alloc(&e, T * 8);
			void *args[] = {&o};
			CHECK_MSG(cov_launch(&e, "k", 1, T, args) == WS_SUCCESS, "%s", wsSimLastError(e.sim));
			uint32_t v[T * 2];
			wsMemcpyDtoH(e.sim, v, o, sizeof v);
			for (uint32_t i = 0; i < T; i++) {
				uint32_t f = 1;
				for (uint32_t k = 2; k <= (i & 7); k++)
					f *= k;
				CHECK_MSG(v[2 * i] == f && v[2 * i + 1] == i * f + 7, "%s ws=%u thread %u: %u %u", cov_modes[mi],
					  ws, i, v[2 * i], v[2 * i + 1]);
			}
			wsSimDestroy(e.sim);
		}
	/* a register for a .param parameter (and the reverse) is refused at load */
	ws_config *cfg = wsConfigCreate();
	ws_sim *sim;
	CHECK(wsSimCreate(&sim, cfg) == WS_SUCCESS);
	wsConfigDestroy(cfg);
	ws_module *m;
	static const char bad[] = ".version 9.0\n.target sm_80\n.address_size 64\n"
				  ".func (.reg .b32 %rv) g(.param .b32 a)\n{\n\tmov.u32 %rv, 1;\n\tret;\n}\n"
				  ".visible .entry k()\n{\n\t.reg .b32 %r<3>;\n\tcall (%r1), g, (%r2);\n\tret;\n}\n";
	CHECK_EQ(wsModuleLoadData(sim, &m, bad, "bad.ptx"), WS_ERROR_INVALID_PTX);
	CHECK_STR_CONTAINS(wsSimLastError(sim), "bad.ptx:12:2: error: argument 1 of the call to g must be a .param variable");
	static const char bad2[] = ".version 9.0\n.target sm_80\n.address_size 64\n"
				   ".visible .entry k(.reg .b32 %a)\n{\n\tret;\n}\n";
	CHECK_EQ(wsModuleLoadData(sim, &m, bad2, "bad2.ptx"), WS_ERROR_INVALID_PTX);
	CHECK_STR_CONTAINS(wsSimLastError(sim), "kernel parameters cannot be registers");
	wsSimDestroy(sim);
}

/* cp.async with .L2::cache_hint: the last operand is a cache policy, not a
 * src-size; with both, src-size comes first. */
static const char cphint_ptx[] =
	".version 9.0\n.target sm_80\n.address_size 64\n"
	".visible .entry k(.param .u64 k_param_0, .param .u64 k_param_1)\n{\n"
	"\t.reg .b32 %r<12>;\n\t.reg .b64 %rd<8>;\n\t.shared .align 16 .b8 s[64];\n"
	"\tld.param.u64 %rd1, [k_param_0];\n\tld.param.u64 %rd2, [k_param_1];\n"
	"\tcvta.to.global.u64 %rd3, %rd1;\n\tcvta.to.global.u64 %rd4, %rd2;\n"
	"\tmov.b64 %rd5, 0x1000000000000000;\n" /* a policy value: anything, it is a hint */
	"\tmov.u32 %r1, s;\n\tmov.u32 %r2, 4;\n"
	"\tcp.async.cg.shared.global.L2::cache_hint [%r1], [%rd3], 16, %rd5;\n"
	"\tcp.async.cg.shared.global.L2::cache_hint [%r1+16], [%rd3], 16, %r2, %rd5;\n"
	"\tcp.async.ca.shared.global.L2::128B [%r1+32], [%rd3+16], 8;\n"
	"\tcp.async.wait_all;\n"
	"\tld.shared.v4.u32 {%r3, %r4, %r5, %r6}, [%r1];\n\tst.global.v4.u32 [%rd4], {%r3, %r4, %r5, %r6};\n"
	"\tld.shared.v4.u32 {%r3, %r4, %r5, %r6}, [%r1+16];\n\tst.global.v4.u32 [%rd4+16], {%r3, %r4, %r5, %r6};\n"
	"\tld.shared.v2.u32 {%r3, %r4}, [%r1+32];\n\tst.global.v2.u32 [%rd4+32], {%r3, %r4};\n"
	"\tret;\n}\n";

TEST(cov_cp_async_cache_hint)
{
	for (unsigned mi = 0; mi < 2; mi++) {
		struct cenv e;
		if (!cov_open(t, &e, cov_modes[mi], 0, cphint_ptx, "cphint.ptx"))
			return;
		uint32_t in[8] = {1, 2, 3, 4, 5, 6, 7, 8}, out[10];
		ws_deviceptr din = cov_alloc(&e, sizeof in), dout = cov_alloc(&e, sizeof out);
		wsMemcpyHtoD(e.sim, din, in, sizeof in);
		void *args[] = {&din, &dout};
		CHECK_MSG(cov_launch(&e, "k", 1, 1, args) == WS_SUCCESS, "%s", wsSimLastError(e.sim));
		wsMemcpyDtoH(e.sim, out, dout, sizeof out);
		static const uint32_t want[10] = {1, 2, 3, 4, 1, 0, 0, 0, 5, 6};
		for (int i = 0; i < 10; i++)
			CHECK_MSG(out[i] == want[i], "%s: out[%d] = %u, expected %u", cov_modes[mi], i, out[i], want[i]);
		wsSimDestroy(e.sim);
	}
}

/* Cooperative groups' collectives (tests/cu/coop.cu cg_collectives) against
 * a CPU reference: warp reduce/inclusive_scan, a 128-thread tile's reduce
 * through reserved shared memory, memcpy_async + wait, labeled_partition. */
TEST(cov_coop_collectives)
{
	enum { T = 256 };
	int in[T], out[T];
	for (int i = 0; i < T; i++)
		in[i] = (i * 37) % 101 - 20;
	for (unsigned mi = 0; mi < 2; mi++) {
		struct cenv e;
		if (!cov_open_file(t, &e, cov_modes[mi], 32, COOP_PTX))
			return;
		ws_deviceptr din = cov_alloc(&e, sizeof in), dout = cov_alloc(&e, sizeof out);
		wsMemcpyHtoD(e.sim, din, in, sizeof in);
		void *args[] = {&din, &dout};
		CHECK_MSG(cov_launch(&e, "cg_collectives", 1, T, args) == WS_SUCCESS, "%s", wsSimLastError(e.sim));
		wsMemcpyDtoH(e.sim, out, dout, sizeof out);
		for (int i = 0; i < T; i++) {
			int w = i / 32, tt = i / 128, s = 0, x = 0, s2 = 0, lp = 0;
			for (int j = w * 32; j < w * 32 + 32; j++) {
				s += in[j];
				x += j <= i ? in[j] : 0;
				lp += (in[j] & 3) == (in[i] & 3);
			}
			for (int j = tt * 128; j < tt * 128 + 128; j++)
				s2 += in[j];
			int want = s + x + s2 + in[255 - i] + lp + w;
			CHECK_MSG(out[i] == want, "%s: out[%d] = %d, expected %d", cov_modes[mi], i, out[i], want);
		}
		wsSimDestroy(e.sim);
	}
}

/* Every CUDA SIMD video intrinsic, compiled for compute_75 (integer code and
 * vabsdiff4) and compute_90 (.s16x2/.u16x2 add/min/max): the two must give
 * the same 85 results for edge-case and random operands, in both models;
 * and a few known values. */
TEST(cov_video_intrinsics_agree)
{
	enum { N = 85 };
	static const char *const files[2] = {TEST_DATA_DIR "/ptx/func/video75.ptx", TEST_DATA_DIR "/ptx/func/video90.ptx"};
	uint32_t pairs[8][2] = {{0x80008000u, 0x7fff0001u}, {0xff00ff80u, 0x01807f7fu}, {0, 0xffffffffu},
				{0x7f7f7f7fu, 0x80808080u}, {0x00ff10f0u, 0xff00f010u}};
	uint32_t r = 12345;
	for (int i = 5; i < 8; i++)
		for (int k = 0; k < 2; k++) {
			r = r * 1103515245u + 12345u;
			pairs[i][k] = r ^ (r << 7);
		}
	uint32_t ref[8][N];
	for (unsigned mi = 0; mi < 2; mi++)
		for (unsigned fi = 0; fi < 2; fi++) {
			struct cenv e;
			if (!cov_open_file(t, &e, cov_modes[mi], 0, files[fi]))
				return;
			ws_deviceptr o = cov_alloc(&e, N * 4);
			for (int p = 0; p < 8; p++) {
				void *args[] = {&o, &pairs[p][0], &pairs[p][1]};
				CHECK_MSG(cov_launch(&e, "video_all", 1, 1, args) == WS_SUCCESS, "%s", wsSimLastError(e.sim));
				uint32_t v[N];
				wsMemcpyDtoH(e.sim, v, o, sizeof v);
				if (mi == 0 && fi == 0) {
					memcpy(ref[p], v, sizeof v);
					continue;
				}
				for (int k = 0; k < N; k++)
					CHECK_MSG(v[k] == ref[p][k], "%s %s pair %d result %d: 0x%x, compute_75 functional 0x%x",
						  cov_modes[mi], files[fi], p, k, v[k], ref[p][k]);
			}
			wsSimDestroy(e.sim);
		}
	CHECK_EQ(ref[4][11], 0xffffe0e0u);                      /* __vabsdiffu4 */
	CHECK_EQ(ref[0][12], 0xffff8001u);                      /* __vadd2: 0x8000 + 0x7fff, 0x8000 + 0x0001 */
	CHECK_EQ(ref[4][16], 0xffffffffu);                      /* __vaddus2: 0x10f0 + 0xf010 saturates */
	CHECK_EQ(ref[1][14], 0x00807effu);                      /* __vaddss2: -256 + 384, -128 + 32639 */
	CHECK_EQ(ref[3][49], 0x80808080u);                      /* __vmins4(0x7f.., 0x80..) */
}

/* Scalar video source selectors (.b0-.b3, .h0, .h1), extended by the
 * operand's type; destination selectors are refused at load. */
static const char vsel_ptx[] =
	".version 9.0\n.target sm_80\n.address_size 64\n"
	".visible .entry k(.param .u64 k_param_0, .param .u32 k_param_1, .param .u32 k_param_2)\n{\n"
	"\t.reg .b32 %r<12>;\n\t.reg .b64 %rd<3>;\n"
	"\tld.param.u64 %rd1, [k_param_0];\n\tld.param.u32 %r2, [k_param_1];\n\tld.param.u32 %r3, [k_param_2];\n"
	"\tcvta.to.global.u64 %rd2, %rd1;\n"
	"\tvadd.s32.s32.u32 %r4, %r2.b3, %r3.h1;\n"
	"\tvsub.s32.u32.s32 %r5, %r2.b1, %r3.b0;\n"
	"\tvabsdiff.u32.s32.s32 %r6, %r2.h0, %r3.h0;\n"
	"\tvshr.u32.u32.u32.clamp %r7, %r2.b2, 2;\n"
	"\tst.global.v4.u32 [%rd2], {%r4, %r5, %r6, %r7};\n"
	"\tret;\n}\n";

TEST(cov_video_selectors)
{
	for (unsigned mi = 0; mi < 2; mi++) {
		struct cenv e;
		if (!cov_open(t, &e, cov_modes[mi], 0, vsel_ptx, "vsel.ptx"))
			return;
		ws_deviceptr o = cov_alloc(&e, 16);
		uint32_t a = 0x80402010u, b = 0xffff80f0u;
		void *args[] = {&o, &a, &b};
		CHECK_MSG(cov_launch(&e, "k", 1, 1, args) == WS_SUCCESS, "%s", wsSimLastError(e.sim));
		uint32_t v[4];
		wsMemcpyDtoH(e.sim, v, o, sizeof v);
		CHECK_EQ(v[0], 65407);       /* -128 + 65535 */
		CHECK_EQ(v[1], 48);          /* 0x20 - (-16) */
		CHECK_EQ(v[2], 8208 + 32528); /* |0x2010 - (-32528)| */
		CHECK_EQ(v[3], 16);          /* 0x40 >> 2 */
		wsSimDestroy(e.sim);
	}
	cov_load_error(t,
		       ".version 9.0\n.target sm_80\n.address_size 64\n.visible .entry k()\n{\n"
		       "\t.reg .b32 %r<4>;\n\tvadd.u32.u32.u32 %r1.b0, %r2, %r3;\n\tret;\n}\n",
		       "bad.ptx", "bad.ptx:7:22: error: selectors on the destination");
}

/* Valid PTX warpsim used to refuse (issue 26): createpolicy in all its forms,
 * .L2::cache_hint operands (the hint is ignored: the accesses behave as
 * without it) and WARP_SZ as a store's value, at every warp size. */
TEST(cov_createpolicy_cache_hint_warp_sz_store)
{
	static const unsigned sizes[] = {8, 16, 32, 64};
	char *ptx = cov_read(t, TEST_DATA_DIR "/ptx/func/cpolicy.ptx");
	if (!ptx)
		return;
	for (unsigned mi = 0; mi < 2; mi++)
		for (unsigned si = 0; si < 4; si++) {
			uint32_t v[14];
			if (!cov_run(t, ptx, "cpolicy.ptx", cov_modes[mi], sizes[si], 1, NULL, 0, v, sizeof v))
				continue;
			uint64_t pol[3];
			memcpy(pol, &v[8], sizeof pol);
			CHECK_EQ(v[0], sizes[si] < 32 ? sizes[si] : 32u);
			CHECK_EQ(v[4], 5u);
			CHECK_EQ(v[5], 5u);
			CHECK_EQ(v[6], 5u);
			CHECK_EQ(v[7], 115u);
			CHECK(pol[0] == pol[1] && pol[0] != pol[2] && pol[0] != 0);
		}
	free(ptx);
	/* the policy operand must be a 64-bit register */
	cov_load_error(t,
		       ".version 9.0\n.target sm_80\n.address_size 64\n.visible .entry k()\n{\n"
		       "\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<4>;\n\tld.global.L2::cache_hint.u32 %r1, [%rd1], %r2;\n\tret;\n}\n",
		       "bad.ptx", "bad.ptx:8:44: error: 'ld' with .L2::cache_hint needs a 64-bit cache-policy");
}

/* A register plus an integer as a source ("%r2+4", which ptxas accepts):
 * the register's value plus the integer, wrapped to its width; a label on
 * the instruction runs the addition too (issue 26). */
TEST(cov_register_plus_immediate)
{
	enum { T = 40 };
	char *ptx = cov_read(t, TEST_DATA_DIR "/ptx/func/regplus.ptx");
	if (!ptx)
		return;
	for (unsigned mi = 0; mi < 2; mi++) {
		uint32_t v[T * 4];
		if (!cov_run(t, ptx, "regplus.ptx", cov_modes[mi], 0, T, NULL, 0, v, sizeof v))
			continue;
		for (uint32_t i = 0; i < T; i++)
			CHECK_MSG(v[4 * i] == i + 4 && v[4 * i + 1] == (i + 11) * 3 + 1 && v[4 * i + 2] == i - 4 &&
					  v[4 * i + 3] == i + 5,
				  "%s thread %u: %u %u %u %u", cov_modes[mi], i, v[4 * i], v[4 * i + 1], v[4 * i + 2],
				  v[4 * i + 3]);
	}
	free(ptx);
	cov_load_error(t,
		       ".version 9.0\n.target sm_80\n.address_size 64\n.visible .entry k()\n{\n"
		       "\t.reg .f32 %f<4>;\n\tadd.f32 %f1, %f2+1, %f3;\n\tret;\n}\n",
		       "bad.ptx", "bad.ptx:7:2: error: '%f2+1': register + integer needs a 16-, 32- or 64-bit integer register");
}

/* Vector-typed register parameters and results (.reg .v2 .u32, .reg .v4
 * .f32) of device functions, called with vector registers (issue 26). */
TEST(cov_vector_register_parameters)
{
	enum { T = 40 };
	char *ptx = cov_read(t, TEST_DATA_DIR "/ptx/func/vecparam.ptx");
	if (!ptx)
		return;
	uint32_t in[2 * T];
	for (uint32_t i = 0; i < 2 * T; i++)
		in[i] = i * 7 + 3;
	for (unsigned mi = 0; mi < 2; mi++) {
		uint32_t v[T * 8];
		if (!cov_run(t, ptx, "vecparam.ptx", cov_modes[mi], 0, T, in, sizeof in, v, sizeof v))
			continue;
		for (uint32_t i = 0; i < T; i++) {
			float f[4];
			memcpy(f, &v[8 * i + 4], sizeof f);
			CHECK_MSG(v[8 * i] == in[2 * i + 1] && v[8 * i + 1] == in[2 * i] && f[0] == 2.0f * (float)i &&
					  f[3] == 2.0f * (float)(i + 3),
				  "%s thread %u: %u %u %g %g", cov_modes[mi], i, v[8 * i], v[8 * i + 1], (double)f[0],
				  (double)f[3]);
		}
	}
	free(ptx);
}
