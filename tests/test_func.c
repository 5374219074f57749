/*
 * test_func.c -- functional-model tests: SIMT reconvergence (nested
 * if/else, loops with break/continue, early return from a divergent
 * branch, exit), barriers (uniform code, exited warps), calls and
 * recursion, lane special registers, at warp sizes 8, 16, 32 and 64; and the errors a bad kernel
 * must produce (out-of-bounds, misaligned, trap, deadlock, livelock limit).
 * Kernels come from the CUDA files in tests/cu, compiled to tests/ptx/func.
 */
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "warpsim.h"

#define RECONV_PTX TEST_DATA_DIR "/ptx/func/reconv.ptx"
#define FAULTS_PTX TEST_DATA_DIR "/ptx/func/faults.ptx"
#define SREG_PTX TEST_DATA_DIR "/ptx/func/sreg.ptx"

struct env {
	ws_sim *sim;
	ws_module *mod;
};

static const char *const modes[] = {"functional", "timing"};

/* Open a simulator and load the PTX file `ptx`, or, when `name` is given, the PTX text `ptx` under that name. */
static int env_open_mode(struct test_ctx *t, struct env *e, const char *ptx, unsigned ws, const char *key,
			 const char *val, const char *mode, const char *name)
{
	memset(e, 0, sizeof *e);
	ws_config *cfg = wsConfigCreate();
	char err[256], num[16];
	snprintf(num, sizeof num, "%u", ws);
	CHECK(wsConfigSet(cfg, "warp_size", num, err, sizeof err) == WS_SUCCESS);
	CHECK(wsConfigSet(cfg, "mode", mode, err, sizeof err) == WS_SUCCESS);
	if (key)
		CHECK(wsConfigSet(cfg, key, val, err, sizeof err) == WS_SUCCESS);
	ws_result r = wsSimCreate(&e->sim, cfg);
	wsConfigDestroy(cfg);
	CHECK(r == WS_SUCCESS);
	if (r != WS_SUCCESS)
		return 0;
	r = name ? wsModuleLoadData(e->sim, &e->mod, ptx, name) : wsModuleLoad(e->sim, &e->mod, ptx);
	CHECK_MSG(r == WS_SUCCESS, "load %s: %s", name ? name : ptx, wsSimLastError(e->sim));
	return r == WS_SUCCESS;
}

static void env_close(struct env *e) { wsSimDestroy(e->sim); }

/* Tests that loop over `mi` run under both the functional and the timing model. */
#define env_open(t, e, ptx, ws, key, val) env_open_mode(t, e, ptx, ws, key, val, modes[mi], NULL)

static ws_deviceptr dalloc(struct env *e, size_t n)
{
	ws_deviceptr p = 0;
	wsMemAlloc(e->sim, &p, n);
	wsMemsetD8(e->sim, p, 0, n);
	return p;
}

static ws_result launch1(struct env *e, const char *name, unsigned threads, void **args)
{
	ws_function *f;
	ws_result r = wsModuleGetFunction(&f, e->mod, name);
	if (r != WS_SUCCESS)
		return r;
	return wsLaunchKernel(f, 1, 1, 1, threads, 1, 1, 0, args);
}

/* The 32-bit view activemask/ballot give of a warp: lanes of the thread's
 * own 32-lane group (for warps of up to 32 threads, the whole warp). */
static unsigned view_mask(unsigned ws, unsigned tid, int (*pred)(unsigned), unsigned nthreads)
{
	unsigned group = ws > 32 ? 32 : ws;
	unsigned base = tid / group * group;
	unsigned m = 0;
	for (unsigned l = 0; l < group; l++)
		if (base + l < nthreads && pred(base + l))
			m |= 1u << l;
	return m;
}

static int p_all(unsigned t) { (void)t; return 1; }
static int p_odd_b2(unsigned t) { return (t & 1) && (t & 2); }
static int p_odd_nb2(unsigned t) { return (t & 1) && !(t & 2); }
static int p_even_lt8(unsigned t) { return !(t & 1) && t < 8; }
static int p_even_ge8(unsigned t) { return !(t & 1) && t >= 8; }
static int p_not_mod4(unsigned t) { return t % 4 != 0; }
static int p_not_mod3(unsigned t) { return t % 3 != 0; }

static const unsigned warp_sizes[] = {8, 16, 32, 64};

static void func_reconv_nested_if_body(struct test_ctx *t, unsigned mi);
TEST(func_reconv_nested_if)
{
	for (unsigned mi = 0; mi < 2; mi++)
		func_reconv_nested_if_body(t, mi);
}
static void func_reconv_nested_if_body(struct test_ctx *t, unsigned mi)
{
	for (unsigned wi = 0; wi < 4; wi++) {
		unsigned ws = warp_sizes[wi], n = 128;
		struct env e;
		if (!env_open(t, &e, RECONV_PTX, ws, NULL, NULL))
			return;
		ws_deviceptr din = dalloc(&e, n * 4), dafter = dalloc(&e, n * 4), dval = dalloc(&e, n * 4);
		void *args[] = {&din, &dafter, &dval};
		CHECK_MSG(launch1(&e, "nested_if", n, args) == WS_SUCCESS, "%s", wsSimLastError(e.sim));
		unsigned in[128], after[128];
		int val[128];
		wsMemcpyDtoH(e.sim, in, din, sizeof in);
		wsMemcpyDtoH(e.sim, after, dafter, sizeof after);
		wsMemcpyDtoH(e.sim, val, dval, sizeof val);
		for (unsigned i = 0; i < n; i++) {
			int (*p)(unsigned) = (i & 1) ? ((i & 2) ? p_odd_b2 : p_odd_nb2) : (i < 8 ? p_even_lt8 : p_even_ge8);
			int v = (i & 1) ? ((i & 2) ? 1 : 2) : (i < 8 ? 3 : 4);
			CHECK_EQ(val[i], v);
			CHECK_MSG(in[i] == view_mask(ws, i, p, n), "ws=%u t=%u mask inside 0x%x expected 0x%x", ws, i,
				  in[i], view_mask(ws, i, p, n));
			CHECK_MSG(after[i] == view_mask(ws, i, p_all, n), "ws=%u t=%u mask after 0x%x", ws, i, after[i]);
		}
		env_close(&e);
	}
}

static void func_reconv_loop_break_continue_body(struct test_ctx *t, unsigned mi);
TEST(func_reconv_loop_break_continue)
{
	for (unsigned mi = 0; mi < 2; mi++)
		func_reconv_loop_break_continue_body(t, mi);
}
static void func_reconv_loop_break_continue_body(struct test_ctx *t, unsigned mi)
{
	for (unsigned wi = 0; wi < 4; wi++) {
		unsigned ws = warp_sizes[wi], n = 96;
		struct env e;
		if (!env_open(t, &e, RECONV_PTX, ws, NULL, NULL))
			return;
		int trip[96];
		for (unsigned i = 0; i < n; i++)
			trip[i] = (int)((i * 7) % 23); /* divergent trip counts */
		ws_deviceptr dtrip = dalloc(&e, sizeof trip), dsum = dalloc(&e, n * 4), dm = dalloc(&e, n * 4);
		wsMemcpyHtoD(e.sim, dtrip, trip, sizeof trip);
		void *args[] = {&dtrip, &dsum, &dm};
		CHECK_MSG(launch1(&e, "loop_break_continue", n, args) == WS_SUCCESS, "%s", wsSimLastError(e.sim));
		int sum[96];
		unsigned m[96];
		wsMemcpyDtoH(e.sim, sum, dsum, sizeof sum);
		wsMemcpyDtoH(e.sim, m, dm, sizeof m);
		for (unsigned i = 0; i < n; i++) {
			int s = 0;
			for (int k = 0; k < 100 && k < trip[i]; k++)
				if (k % 3 != 1)
					s += k * (int)(i + 1);
			CHECK_MSG(sum[i] == s, "ws=%u t=%u sum %d expected %d", ws, i, sum[i], s);
			CHECK_MSG(m[i] == view_mask(ws, i, p_all, n), "ws=%u t=%u reconverged mask 0x%x", ws, i, m[i]);
		}
		env_close(&e);
	}
}

static void func_reconv_early_return_and_exit_body(struct test_ctx *t, unsigned mi);
TEST(func_reconv_early_return_and_exit)
{
	for (unsigned mi = 0; mi < 2; mi++)
		func_reconv_early_return_and_exit_body(t, mi);
}
static void func_reconv_early_return_and_exit_body(struct test_ctx *t, unsigned mi)
{
	for (unsigned wi = 0; wi < 4; wi++) {
		unsigned ws = warp_sizes[wi], n = 64;
		struct env e;
		if (!env_open(t, &e, RECONV_PTX, ws, NULL, NULL))
			return;
		ws_deviceptr dret = dalloc(&e, n * 4), din = dalloc(&e, n * 4), dafter = dalloc(&e, n * 4);
		void *args[] = {&dret, &din, &dafter};
		CHECK_MSG(launch1(&e, "early_return", n, args) == WS_SUCCESS, "%s", wsSimLastError(e.sim));
		int ret[64], in[64];
		unsigned after[64];
		wsMemcpyDtoH(e.sim, ret, dret, sizeof ret);
		wsMemcpyDtoH(e.sim, in, din, sizeof in);
		wsMemcpyDtoH(e.sim, after, dafter, sizeof after);
		for (unsigned i = 0; i < n; i++) {
			CHECK_EQ(ret[i], i % 4 == 0 ? -(int)i : (int)i * 2);
			if (i % 4)
				CHECK_MSG((unsigned)in[i] == view_mask(ws, i, p_not_mod4, n), "ws=%u t=%u in-call mask 0x%x",
					  ws, i, in[i]);
			CHECK_MSG(after[i] == view_mask(ws, i, p_all, n), "ws=%u t=%u mask after return 0x%x", ws, i,
				  after[i]);
		}
		ws_deviceptr dout = dalloc(&e, n * 4);
		void *a2[] = {&dout};
		CHECK_MSG(launch1(&e, "early_exit", n, a2) == WS_SUCCESS, "%s", wsSimLastError(e.sim));
		int out[64];
		wsMemcpyDtoH(e.sim, out, dout, sizeof out);
		for (unsigned i = 0; i < n; i++)
			CHECK_EQ((unsigned)out[i], i % 3 == 0 ? 0u : view_mask(ws, i, p_not_mod3, n));
		env_close(&e);
	}
}

static void func_barriers_uniform_and_exited_warps_body(struct test_ctx *t, unsigned mi);
/* %laneid and %lanemask_*: a PTX warp has at most 32 lanes, so with 64-lane
 * warps each half counts from 0, like the 32-bit masks of ballot; the rank
 * idiom popc(ballot(p) & lanemask_lt) then works at every warp size.  Two
 * warps' worth of threads plus a partial warp. */
TEST(func_lane_special_registers)
{
	for (unsigned mi = 0; mi < 2; mi++)
		for (unsigned wi = 0; wi < sizeof warp_sizes / sizeof warp_sizes[0]; wi++) {
			unsigned ws = warp_sizes[wi], n = 2 * ws + ws / 2, g = ws > 32 ? 32 : ws;
			struct env e;
			if (!env_open(t, &e, SREG_PTX, ws, NULL, NULL))
				continue;
			ws_deviceptr out = dalloc(&e, (size_t)n * 7 * 4);
			void *args[] = {&out};
			ws_result r = launch1(&e, "lane_sregs", n, args);
			CHECK_MSG(r == WS_SUCCESS, "ws %u: %s", ws, wsSimLastError(e.sim));
			unsigned *o = malloc((size_t)n * 7 * 4);
			if (o && r == WS_SUCCESS && wsMemcpyDtoH(e.sim, o, out, (size_t)n * 7 * 4) == WS_SUCCESS) {
				for (unsigned tid = 0; tid < n; tid++) {
					unsigned lane = tid % g, *v = o + 7 * tid, rank = 0;
					for (unsigned u = tid - lane; u < tid; u++)
						rank += u & 1;
					uint32_t lt = (uint32_t)((1ull << lane) - 1);
					CHECK_MSG(v[0] == lane, "%s ws %u tid %u: laneid %u", modes[mi], ws, tid, v[0]);
					CHECK_MSG(v[1] == 1u << lane, "%s ws %u tid %u: lanemask_eq %#x", modes[mi], ws, tid, v[1]);
					CHECK_MSG(v[2] == lt, "%s ws %u tid %u: lanemask_lt %#x", modes[mi], ws, tid, v[2]);
					CHECK_MSG(v[3] == (lt | 1u << lane), "%s ws %u tid %u: lanemask_le %#x", modes[mi], ws, tid,
						  v[3]);
					CHECK_MSG(v[4] == ~(lt | 1u << lane), "%s ws %u tid %u: lanemask_gt %#x", modes[mi], ws,
						  tid, v[4]);
					CHECK_MSG(v[5] == ~lt, "%s ws %u tid %u: lanemask_ge %#x", modes[mi], ws, tid, v[5]);
					CHECK_MSG(v[6] == rank, "%s ws %u tid %u: rank %u, expected %u", modes[mi], ws, tid, v[6],
						  rank);
				}
			}
			free(o);
			env_close(&e);
		}
}

TEST(func_barriers_uniform_and_exited_warps)
{
	for (unsigned mi = 0; mi < 2; mi++)
		func_barriers_uniform_and_exited_warps_body(t, mi);
}
static void func_barriers_uniform_and_exited_warps_body(struct test_ctx *t, unsigned mi)
{
	for (unsigned wi = 0; wi < 4; wi++) {
		unsigned ws = warp_sizes[wi], n = 256;
		struct env e;
		if (!env_open(t, &e, RECONV_PTX, ws, NULL, NULL))
			return;
		ws_deviceptr dout = dalloc(&e, n * 4);
		void *args[] = {&dout};
		CHECK_MSG(launch1(&e, "barrier_uniform", n, args) == WS_SUCCESS, "%s", wsSimLastError(e.sim));
		int out[256];
		wsMemcpyDtoH(e.sim, out, dout, sizeof out);
		int o1[256];
		for (unsigned i = 0; i < n; i++)
			o1[i] = (int)(((i + 1) % n) * ((i + 1) % n) + ((i + 7) % n) * ((i + 7) % n));
		for (unsigned i = 0; i < n; i++)
			CHECK_EQ(out[i], o1[i] + o1[n - 1 - i]);
		uint64_t bars = 0;
		wsStatsGet(e.sim, "barriers", &bars);
		CHECK_EQ(bars, 3);
		wsMemsetD8(e.sim, dout, 0, n * 4);
		CHECK_MSG(launch1(&e, "barrier_after_exit", n, args) == WS_SUCCESS, "%s", wsSimLastError(e.sim));
		wsMemcpyDtoH(e.sim, out, dout, sizeof out);
		for (unsigned i = 0; i < 64; i++)
			CHECK_EQ(out[i], 63 - (int)i + 100);
		env_close(&e);
	}
}

static void func_call_recursion_body(struct test_ctx *t, unsigned mi);
TEST(func_call_recursion)
{
	for (unsigned mi = 0; mi < 2; mi++)
		func_call_recursion_body(t, mi);
}
static void func_call_recursion_body(struct test_ctx *t, unsigned mi)
{
	struct env e;
	if (!env_open(t, &e, RECONV_PTX, 32, NULL, NULL))
		return;
	unsigned n = 64;
	ws_deviceptr dout = dalloc(&e, n * 4);
	void *args[] = {&dout};
	CHECK_MSG(launch1(&e, "recursion", n, args) == WS_SUCCESS, "%s", wsSimLastError(e.sim));
	unsigned out[64];
	wsMemcpyDtoH(e.sim, out, dout, sizeof out);
	for (unsigned i = 0; i < n; i++) {
		unsigned a = 0, b = 1;
		for (unsigned k = 0; k < i % 12; k++) {
			unsigned c = a + b;
			a = b;
			b = c;
		}
		CHECK_EQ(out[i], a);
	}
	uint64_t calls = 0;
	wsStatsGet(e.sim, "calls", &calls);
	CHECK(calls > 10);
	env_close(&e);
}

/* ---- errors ---- */

static void func_fault_out_of_bounds_body(struct test_ctx *t, unsigned mi);
TEST(func_fault_out_of_bounds)
{
	for (unsigned mi = 0; mi < 2; mi++)
		func_fault_out_of_bounds_body(t, mi);
}
static void func_fault_out_of_bounds_body(struct test_ctx *t, unsigned mi)
{
	struct env e;
	if (!env_open(t, &e, FAULTS_PTX, 32, NULL, NULL))
		return;
	ws_deviceptr p = dalloc(&e, 64 * 4);
	int n = 40; /* threads 24..63 write past the 64-int buffer */
	void *args[] = {&p, &n};
	ws_result r = launch1(&e, "oob_write", 64, args);
	CHECK_EQ(r, WS_ERROR_ILLEGAL_ADDRESS);
	const char *m = wsSimLastError(e.sim);
	CHECK_STR_CONTAINS(m, "out-of-bounds write");
	CHECK_STR_CONTAINS(m, "kernel oob_write");
	CHECK_STR_CONTAINS(m, "thread (24,0,0)");
	CHECK_STR_CONTAINS(m, "faults.ptx:");
	CHECK_STR_CONTAINS(m, "st.global");
	/* shared memory out of bounds */
	int k = 1 << 20;
	void *a2[] = {&p, &k};
	r = launch1(&e, "oob_read_shared", 64, a2);
	CHECK_EQ(r, WS_ERROR_ILLEGAL_ADDRESS);
	CHECK_STR_CONTAINS(wsSimLastError(e.sim), "shared");
	env_close(&e);
}

static void func_fault_misaligned_and_trap_body(struct test_ctx *t, unsigned mi);
TEST(func_fault_misaligned_and_trap)
{
	for (unsigned mi = 0; mi < 2; mi++)
		func_fault_misaligned_and_trap_body(t, mi);
}
static void func_fault_misaligned_and_trap_body(struct test_ctx *t, unsigned mi)
{
	struct env e;
	if (!env_open(t, &e, FAULTS_PTX, 32, NULL, NULL))
		return;
	ws_deviceptr p = dalloc(&e, 1024);
	void *args[] = {&p};
	CHECK_EQ(launch1(&e, "misaligned", 32, args), WS_ERROR_MISALIGNED_ADDRESS);
	CHECK_STR_CONTAINS(wsSimLastError(e.sim), "misaligned 4-byte write");
	CHECK_EQ(launch1(&e, "do_trap", 32, args), WS_ERROR_TRAP);
	CHECK_STR_CONTAINS(wsSimLastError(e.sim), "thread (5,0,0)");
	CHECK_STR_CONTAINS(wsSimLastError(e.sim), "faults.ptx:73: 'trap;'"); /* the trap itself, not the next line */
	env_close(&e);
}

static void func_fault_deadlock_reports_warps_body(struct test_ctx *t, unsigned mi);
TEST(func_fault_deadlock_reports_warps)
{
	for (unsigned mi = 0; mi < 2; mi++)
		func_fault_deadlock_reports_warps_body(t, mi);
}
static void func_fault_deadlock_reports_warps_body(struct test_ctx *t, unsigned mi)
{
	struct env e;
	if (!env_open(t, &e, FAULTS_PTX, 32, NULL, NULL))
		return;
	ws_deviceptr p = dalloc(&e, 1024);
	void *args[] = {&p};
	CHECK_EQ(launch1(&e, "named_barrier_deadlock", 64, args), WS_ERROR_DEADLOCK);
	const char *m = wsSimLastError(e.sim);
	CHECK_STR_CONTAINS(m, "deadlocked");
	CHECK_STR_CONTAINS(m, "warp 0: waiting at barrier 1");
	CHECK_STR_CONTAINS(m, "warp 1: waiting at barrier 2");
	env_close(&e);
}

static void func_fault_livelock_limit_body(struct test_ctx *t, unsigned mi);
TEST(func_fault_livelock_limit)
{
	for (unsigned mi = 0; mi < 2; mi++)
		func_fault_livelock_limit_body(t, mi);
}
static void func_fault_livelock_limit_body(struct test_ctx *t, unsigned mi)
{
	struct env e;
	if (!env_open(t, &e, FAULTS_PTX, 32, "max_warp_insts", "20000"))
		return;
	ws_deviceptr p = dalloc(&e, 1024);
	void *args[] = {&p};
	CHECK_EQ(launch1(&e, "barrier_deadlock", 64, args), WS_ERROR_LIMIT_EXCEEDED);
	const char *m = wsSimLastError(e.sim);
	CHECK_STR_CONTAINS(m, "max_warp_insts=20000");
	CHECK_STR_CONTAINS(m, "warp 1: waiting at barrier 0");
	env_close(&e);
}

/* ---- runtime API ---- */

static void func_api_errors_body(struct test_ctx *t, unsigned mi);
TEST(func_api_errors)
{
	for (unsigned mi = 0; mi < 2; mi++)
		func_api_errors_body(t, mi);
}
static void func_api_errors_body(struct test_ctx *t, unsigned mi)
{
	struct env e;
	if (!env_open(t, &e, FAULTS_PTX, 32, NULL, NULL))
		return;
	ws_function *f = NULL;
	CHECK_EQ(wsModuleGetFunction(&f, e.mod, "no_such_kernel"), WS_ERROR_NOT_FOUND);
	CHECK_STR_CONTAINS(wsSimLastError(e.sim), "no_such_kernel");
	CHECK_EQ(wsModuleGetFunction(&f, e.mod, "oob_write"), WS_SUCCESS);
	CHECK_EQ(wsFunctionParamCount(f), 2);
	CHECK_EQ(wsFunctionParamSize(f, 0), 8);
	CHECK_EQ(wsFunctionParamSize(f, 1), 4);
	ws_deviceptr p = dalloc(&e, 16);
	int n = 0;
	void *args[] = {&p, &n};
	CHECK_EQ(wsLaunchKernel(f, 1, 1, 1, 2048, 1, 1, 0, args), WS_ERROR_INVALID_LAUNCH);
	CHECK_EQ(wsLaunchKernel(f, 0, 1, 1, 32, 1, 1, 0, args), WS_ERROR_INVALID_LAUNCH);
	CHECK_EQ(wsLaunchKernel(f, 1, 1, 1, 32, 1, 1, 1 << 20, args), WS_ERROR_LAUNCH_OUT_OF_RESOURCES);
	CHECK_STR_CONTAINS(wsSimLastError(e.sim), "shmem_per_sm");
	CHECK_EQ(wsLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, NULL), WS_ERROR_INVALID_VALUE);
	/* host copies out of range */
	char buf[64];
	CHECK_EQ(wsMemcpyDtoH(e.sim, buf, p, 64), WS_ERROR_ILLEGAL_ADDRESS);
	CHECK_EQ(wsMemcpyHtoD(e.sim, p + 8, buf, 16), WS_ERROR_ILLEGAL_ADDRESS);
	CHECK_EQ(wsMemFree(e.sim, p + 4), WS_ERROR_INVALID_VALUE);
	CHECK_EQ(wsMemFree(e.sim, p), WS_SUCCESS);
	CHECK_EQ(wsMemcpyDtoH(e.sim, buf, p, 4), WS_ERROR_ILLEGAL_ADDRESS); /* use after free faults */
	ws_module *m2;
	CHECK_EQ(wsModuleLoad(e.sim, &m2, "tests/no/such/file.ptx"), WS_ERROR_FILE_NOT_FOUND);
	CHECK_EQ(wsModuleLoad(e.sim, &m2, TEST_DATA_DIR "/ptx"), WS_ERROR_NOT_A_FILE); /* what it is, not "not found" */
	CHECK_STR_CONTAINS(wsSimLastError(e.sim), "is a directory");
	CHECK_EQ(wsModuleLoad(e.sim, &m2, "/dev/null"), WS_ERROR_NOT_A_FILE);
	CHECK_STR_CONTAINS(wsSimLastError(e.sim), "is a character device");
	CHECK_EQ(wsModuleLoadData(e.sim, &m2, ".version 9.0\n.target sm_75\n.address_size 64\n.entry k() { bogus.op; }\n", "x.ptx"),
		 WS_ERROR_INVALID_PTX);
	CHECK_STR_CONTAINS(wsSimLastError(e.sim), "x.ptx:4:");
	CHECK(strcmp(wsGetErrorName(WS_ERROR_DEADLOCK), "WS_ERROR_DEADLOCK") == 0);
	CHECK(strlen(wsGetErrorString(WS_ERROR_TRAP)) > 5);
	env_close(&e);
}

TEST(func_api_config)
{
	ws_config *c = wsConfigCreate();
	char err[256], buf[64];
	CHECK_EQ(wsConfigSet(c, "warp_size", "16", err, sizeof err), WS_SUCCESS);
	CHECK(strcmp(wsConfigGet(c, "warp_size", buf, sizeof buf), "16") == 0);
	CHECK_EQ(wsConfigSet(c, "warp_sise", "16", err, sizeof err), WS_ERROR_INVALID_CONFIG);
	CHECK_STR_CONTAINS(err, "unknown parameter 'warp_sise'");
	CHECK_EQ(wsConfigSet(c, "warp_size", "65", err, sizeof err), WS_ERROR_INVALID_CONFIG);
	CHECK_STR_CONTAINS(err, "out of range");
	CHECK_EQ(wsConfigSet(c, "num_sms", "12x", err, sizeof err), WS_ERROR_INVALID_CONFIG);
	CHECK_STR_CONTAINS(err, "not an integer");
	CHECK_EQ(wsConfigSet(c, "mode", "quantum", err, sizeof err), WS_ERROR_INVALID_CONFIG);
	CHECK_EQ(wsConfigLoadFile(c, "tests/no/such.cfg", err, sizeof err), WS_ERROR_FILE_NOT_FOUND);
	FILE *f = fopen("build/test-bad.cfg", "w");
	if (f) {
		fprintf(f, "# comment\nnum_sms = 4\n\nbogus_key = 3\n");
		fclose(f);
		CHECK_EQ(wsConfigLoadFile(c, "build/test-bad.cfg", err, sizeof err), WS_ERROR_INVALID_CONFIG);
		CHECK_STR_CONTAINS(err, "build/test-bad.cfg:4: unknown parameter 'bogus_key'");
		CHECK(strcmp(wsConfigGet(c, "num_sms", buf, sizeof buf), "4") == 0);
	}
	/* warp size 24 passes the range check but is not 8, 16, 32 or 64: refused when set, the old value kept */
	CHECK_EQ(wsConfigSet(c, "warp_size", "24", err, sizeof err), WS_ERROR_INVALID_CONFIG);
	CHECK_STR_CONTAINS(err, "parameter 'warp_size': 24 is not 8, 16, 32 or 64");
	CHECK(strcmp(wsConfigGet(c, "warp_size", buf, sizeof buf), "16") == 0);
	wsConfigDestroy(c);
}

TEST(func_determinism)
{
	/* the same launch twice gives identical statistics and results */
	char json[2][8192];
	for (int run = 0; run < 2; run++) {
		struct env e;
		if (!env_open_mode(t, &e, RECONV_PTX, 32, NULL, NULL, "timing", NULL))
			return;
		unsigned n = 96;
		int trip[96];
		for (unsigned i = 0; i < n; i++)
			trip[i] = (int)((i * 13) % 31);
		ws_deviceptr dtrip = dalloc(&e, sizeof trip), dsum = dalloc(&e, n * 4), dm = dalloc(&e, n * 4);
		wsMemcpyHtoD(e.sim, dtrip, trip, sizeof trip);
		void *args[] = {&dtrip, &dsum, &dm};
		CHECK(launch1(&e, "loop_break_continue", n, args) == WS_SUCCESS);
		FILE *f = fmemopen(json[run], sizeof json[run], "w");
		wsStatsWriteJSON(e.sim, f);
		fclose(f);
		env_close(&e);
	}
	CHECK(strcmp(json[0], json[1]) == 0);
	CHECK_STR_CONTAINS(json[0], "\"thread_insts\"");
}

/* __constant__ and __device__ variables written from the host (cudaMemcpyToSymbol). */
TEST(func_api_symbols)
{
	static const char *ptx = ".version 9.0\n.target sm_75\n.address_size 64\n"
				 ".const .align 4 .b8 coef[16];\n.global .align 4 .u32 gval;\n"
				 ".visible .entry k(.param .u64 out)\n{\n  .reg .b32 %r<4>;\n  .reg .b64 %rd<3>;\n"
				 "  ld.param.u64 %rd1, [out];\n  cvta.to.global.u64 %rd2, %rd1;\n"
				 "  ld.const.u32 %r1, [coef+8];\n  ld.global.u32 %r2, [gval];\n  add.s32 %r3, %r1, %r2;\n"
				 "  st.global.u32 [%rd2], %r3;\n  ret;\n}\n";
	ws_sim *sim;
	ws_module *mod;
	CHECK(wsSimCreate(&sim, NULL) == WS_SUCCESS);
	CHECK_MSG(wsModuleLoadData(sim, &mod, ptx, "sym.ptx") == WS_SUCCESS, "%s", wsSimLastError(sim));
	uint32_t c[4] = {1, 2, 40, 4}, g = 2, back[4];
	CHECK(wsMemcpyToSymbol(mod, "coef", c, sizeof c, 0) == WS_SUCCESS);
	CHECK(wsMemcpyToSymbol(mod, "gval", &g, 4, 0) == WS_SUCCESS);
	CHECK(wsMemcpyFromSymbol(mod, "coef", back, sizeof back, 0) == WS_SUCCESS);
	CHECK_EQ(back[2], 40);
	CHECK(wsMemcpyToSymbol(mod, "coef", c, 8, 12) == WS_ERROR_INVALID_VALUE); /* past the end */
	CHECK_STR_CONTAINS(wsSimLastError(sim), "outside 'coef'");
	CHECK(wsMemcpyToSymbol(mod, "nope", c, 4, 0) == WS_ERROR_NOT_FOUND);
	ws_deviceptr d, gp;
	size_t gsz;
	CHECK(wsModuleGetGlobal(&gp, &gsz, mod, "gval") == WS_SUCCESS);
	CHECK_EQ(gsz, 4);
	wsMemAlloc(sim, &d, 4);
	ws_function *f;
	CHECK(wsModuleGetFunction(&f, mod, "k") == WS_SUCCESS);
	void *args[] = {&d};
	CHECK_MSG(wsLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, args) == WS_SUCCESS, "%s", wsSimLastError(sim));
	uint32_t out = 0;
	wsMemcpyDtoH(sim, &out, d, 4);
	CHECK_EQ(out, 42);
	wsSimDestroy(sim);
}

/* printf in device code: per-thread lines in lane order, CUDA's formatting. */
TEST(func_devrt_printf_and_assert)
{
	for (unsigned mi = 0; mi < 2; mi++) {
		struct env e;
		if (!env_open(t, &e, TEST_DATA_DIR "/ptx/func/devrt.ptx", 32, NULL, NULL))
			return;
		char *buf = NULL;
		size_t len = 0;
		FILE *m = open_memstream(&buf, &len);
		wsSimSetPrintfStream(e.sim, m);
		int a[32];
		for (int i = 0; i < 32; i++)
			a[i] = i * 10;
		ws_deviceptr d = dalloc(&e, sizeof a);
		wsMemcpyHtoD(e.sim, d, a, sizeof a);
		float x = 1.5f;
		void *args[] = {&d, &x};
		CHECK_MSG(launch1(&e, "_Z2pfPif", 32, args) == WS_SUCCESS, "%s", wsSimLastError(e.sim));
		fclose(m);
		CHECK(buf && strcmp(buf, "t=0 a=0 x=0.000000 s=hi c=A u=7 ll=-5 hex=ff p= 3.14%\n"
					 "t=1 a=10 x=1.500000 s=hi c=B u=7 ll=-5 hex=ff p= 3.14%\n"
					 "t=2 a=20 x=3.000000 s=hi c=C u=7 ll=-5 hex=ff p= 3.14%\n") == 0);
		if (buf && t->failures)
			printf("  got:\n%s", buf);
		free(buf);
		/* a negative element makes the kernel's assert fail */
		a[5] = -1;
		wsMemcpyHtoD(e.sim, d, a, sizeof a);
		wsSimSetPrintfStream(e.sim, NULL);
		CHECK_EQ(launch1(&e, "_Z2pfPif", 32, args), WS_ERROR_TRAP);
		CHECK_STR_CONTAINS(wsSimLastError(e.sim), "assertion 'a[t] >= 0' failed");
		CHECK_STR_CONTAINS(wsSimLastError(e.sim), "devrt.cu:7");
		CHECK_STR_CONTAINS(wsSimLastError(e.sim), "thread (5,0,0)");
		env_close(&e);
	}
}

/* The functional model has the same livelock watchdog (issue 16): it used to
 * spin until max_warp_insts (2e9 warp instructions by default). */
TEST(func_fault_livelock_watchdog_functional)
{
	ws_config *cfg = wsConfigCreate();
	char err[128];
	wsConfigSet(cfg, "mode", "functional", err, sizeof err);
	wsConfigSet(cfg, "num_sms", "1", err, sizeof err);
	wsConfigSet(cfg, "max_ctas_per_sm", "1", err, sizeof err);
	wsConfigSet(cfg, "livelock_cycles", "20000", err, sizeof err);
	ws_sim *sim;
	CHECK(wsSimCreate(&sim, cfg) == WS_SUCCESS);
	wsConfigDestroy(cfg);
	ws_module *mod;
	CHECK(wsModuleLoad(sim, &mod, FAULTS_PTX) == WS_SUCCESS);
	ws_function *f;
	CHECK(wsModuleGetFunction(&f, mod, "spin_forever") == WS_SUCCESS);
	ws_deviceptr d;
	wsMemAlloc(sim, &d, 4);
	wsMemsetD32(sim, d, 0, 1);
	void *args[] = {&d};
	CHECK_EQ(wsLaunchKernel(f, 2, 1, 1, 32, 1, 1, 0, args), WS_ERROR_DEADLOCK);
	CHECK_STR_CONTAINS(wsSimLastError(sim), "kernel spin_forever livelocked");
	CHECK_STR_CONTAINS(wsSimLastError(sim), "livelock_cycles=20000");
	CHECK_STR_CONTAINS(wsSimLastError(sim), "CTA (0,0,0) warp 0: ready");
	wsSimDestroy(sim);
}

/* A spin loop that can never end (it waits for a CTA that cannot become
 * resident) is reported as a livelock, with the spinning warp. */
TEST(func_fault_livelock_watchdog)
{
	ws_config *cfg = wsConfigCreate();
	char err[128];
	wsConfigSet(cfg, "num_sms", "1", err, sizeof err);
	wsConfigSet(cfg, "max_ctas_per_sm", "1", err, sizeof err);
	wsConfigSet(cfg, "livelock_cycles", "20000", err, sizeof err);
	ws_sim *sim;
	CHECK(wsSimCreate(&sim, cfg) == WS_SUCCESS);
	wsConfigDestroy(cfg);
	ws_module *mod;
	CHECK(wsModuleLoad(sim, &mod, FAULTS_PTX) == WS_SUCCESS);
	ws_function *f;
	CHECK(wsModuleGetFunction(&f, mod, "spin_forever") == WS_SUCCESS);
	ws_deviceptr d;
	wsMemAlloc(sim, &d, 4);
	wsMemsetD32(sim, d, 0, 1);
	void *args[] = {&d};
	CHECK_EQ(wsLaunchKernel(f, 2, 1, 1, 32, 1, 1, 0, args), WS_ERROR_DEADLOCK);
	CHECK_STR_CONTAINS(wsSimLastError(sim), "livelocked");
	CHECK_STR_CONTAINS(wsSimLastError(sim), "livelock_cycles=20000");
	CHECK_STR_CONTAINS(wsSimLastError(sim), "CTA (0,0,0) warp 0");
	wsSimDestroy(sim);
}

/* A long-running CTA that makes progress only through its stores (a
 * persistent kernel: no warp finishes, no CTA starts or completes for far
 * longer than livelock_cycles) is not a livelock in either model: a store
 * that changes memory counts as progress.  NW1 at paper size, one CTA per
 * column band for the whole kernel, was stopped by this watchdog before. */
static const char long_writer_ptx[] =
    ".version 7.0\n.target sm_75\n.address_size 64\n"
    ".visible .entry long_writer(.param .u64 buf, .param .u32 n)\n{\n"
    "  .reg .pred %p<2>;\n  .reg .b32 %r<4>;\n  .reg .b64 %rd<2>;\n"
    "  ld.param.u64 %rd1, [buf];\n  ld.param.u32 %r1, [n];\n  mov.u32 %r2, 0;\n"
    "LOOP:\n  add.u32 %r2, %r2, 1;\n  st.volatile.global.u32 [%rd1], %r2;\n"
    "  setp.lt.u32 %p1, %r2, %r1;\n  @%p1 bra LOOP;\n  ret;\n}\n";

TEST(func_livelock_watchdog_counts_memory_changes)
{
	for (int functional = 0; functional <= 1; functional++) {
		ws_config *cfg = wsConfigCreate();
		char err[128];
		wsConfigSet(cfg, "mode", functional ? "functional" : "timing", err, sizeof err);
		wsConfigSet(cfg, "num_sms", "1", err, sizeof err);
		wsConfigSet(cfg, "livelock_cycles", "2000", err, sizeof err);
		ws_sim *sim;
		CHECK(wsSimCreate(&sim, cfg) == WS_SUCCESS);
		wsConfigDestroy(cfg);
		ws_module *mod;
		CHECK(wsModuleLoadData(sim, &mod, long_writer_ptx, "long_writer.ptx") == WS_SUCCESS);
		ws_function *f;
		CHECK(wsModuleGetFunction(&f, mod, "long_writer") == WS_SUCCESS);
		ws_deviceptr d;
		wsMemAlloc(sim, &d, 4);
		wsMemsetD32(sim, d, 0, 1);
		uint32_t n = 20000; /* far more than 2000 cycles (or 2000 warp instructions) */
		void *args[] = {&d, &n};
		CHECK_EQ(wsLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, args), WS_SUCCESS);
		uint32_t out = 0;
		wsMemcpyDtoH(sim, &out, d, 4);
		CHECK_EQ(out, n);
		wsSimDestroy(sim);
	}
}

/* Faults of barriers and calls name the instruction that faulted (line 6 of
 * each kernel below), not the one after it; a deadlocked warp names the
 * barrier it waits at and the thread count the barrier expects (issue 26). */
static const char bar_fault_ptx[] =
    ".version 7.0\n.target sm_75\n.address_size 64\n"
    ".visible .entry bad_id(.param .u32 id)\n{\n"                       /* 4, 5 */
    "  .reg .b32 %r<3>;\n  ld.param.u32 %r1, [id];\n"                   /* 6, 7 */
    "  bar.sync %r1;\n  add.u32 %r2, %r1, 1;\n  ret;\n}\n"              /* 8, 9 */
    ".visible .entry bad_count(.param .u32 n)\n{\n"                     /* 12, 13 */
    "  .reg .b32 %r<3>;\n  ld.param.u32 %r1, [n];\n"                    /* 14, 15 */
    "  bar.sync 0, %r1;\n  add.u32 %r2, %r1, 1;\n  ret;\n}\n"           /* 16, 17 */
    ".visible .entry short_count()\n{\n"                                /* 20, 21 */
    "  .reg .b32 %r<3>;\n  mov.u32 %r1, 1;\n"                           /* 22, 23 */
    "  bar.sync 0, 64;\n  add.u32 %r2, %r1, 1;\n  ret;\n}\n"            /* 24, 25 */
    ".func (.reg .b32 r) down(.reg .b32 n)\n{\n"                        /* 28, 29 */
    "  .reg .b32 %r<3>;\n  add.u32 %r1, n, 1;\n"                        /* 30, 31 */
    "  call.uni (%r2), down, (%r1);\n  mov.u32 r, %r2;\n  ret;\n}\n"    /* 32, 33 */
    ".visible .entry deep()\n{\n  .reg .b32 %r<3>;\n  mov.u32 %r1, 0;\n" /* 36-39 */
    "  call.uni (%r2), down, (%r1);\n  ret;\n}\n";                      /* 40 */

static void func_fault_names_faulting_insn_body(struct test_ctx *t, unsigned mi);
TEST(func_fault_names_faulting_insn)
{
	for (unsigned mi = 0; mi < 2; mi++)
		func_fault_names_faulting_insn_body(t, mi);
}
static void func_fault_names_faulting_insn_body(struct test_ctx *t, unsigned mi)
{
	struct env e;
	if (!env_open_mode(t, &e, bar_fault_ptx, 32, NULL, NULL, modes[mi], "bar.ptx"))
		return;
	uint32_t v = 16;
	void *args[] = {&v};
	CHECK_EQ(launch1(&e, "bad_id", 32, args), WS_ERROR_ILLEGAL_INSTRUCTION);
	CHECK_STR_CONTAINS(wsSimLastError(e.sim), "barrier id 16 out of range");
	CHECK_STR_CONTAINS(wsSimLastError(e.sim), "bar.ptx:8: 'bar.sync");
	v = 33;
	CHECK_EQ(launch1(&e, "bad_count", 64, args), WS_ERROR_ILLEGAL_INSTRUCTION);
	CHECK_STR_CONTAINS(wsSimLastError(e.sim), "thread count 33");
	CHECK_STR_CONTAINS(wsSimLastError(e.sim), "bar.ptx:16: 'bar.sync");
	CHECK_EQ(launch1(&e, "short_count", 32, NULL), WS_ERROR_DEADLOCK);
	CHECK_STR_CONTAINS(wsSimLastError(e.sim),
			   "waiting at barrier 0 (1 of 2 warps arrived: the barrier expects 64 threads)");
	CHECK_STR_CONTAINS(wsSimLastError(e.sim), "(line 24: bar.sync");
	CHECK_EQ(launch1(&e, "deep", 32, NULL), WS_ERROR_LIMIT_EXCEEDED);
	CHECK_STR_CONTAINS(wsSimLastError(e.sim), "call depth");
	CHECK_STR_CONTAINS(wsSimLastError(e.sim), "bar.ptx:32: 'call");
	env_close(&e);
}

/* Indirect calls whose targets differ within a warp (virtual calls through a
 * table indexed by lane) run each target in turn and reconverge after the
 * call, in both models, at every warp size (issue 26). */
static void func_call_divergent_indirect_body(struct test_ctx *t, unsigned mi);
TEST(func_call_divergent_indirect)
{
	for (unsigned mi = 0; mi < 2; mi++)
		func_call_divergent_indirect_body(t, mi);
}
static void func_call_divergent_indirect_body(struct test_ctx *t, unsigned mi)
{
	for (size_t wi = 0; wi < sizeof warp_sizes / sizeof warp_sizes[0]; wi++) {
		struct env e;
		if (!env_open(t, &e, TEST_DATA_DIR "/ptx/func/vcall.ptx", warp_sizes[wi], NULL, NULL))
			return;
		enum { N = 96 };
		ws_deviceptr dout = dalloc(&e, N * 4);
		void *args[] = {&dout};
		CHECK_MSG(launch1(&e, "vcall", N, args) == WS_SUCCESS, "%s", wsSimLastError(e.sim));
		int out[N];
		wsMemcpyDtoH(e.sim, out, dout, sizeof out);
		for (int i = 0; i < N; i++) {
			int f[3] = {i + 1, i * 2, i * i}, g[3] = {8, 14, 49};
			int want = f[i % 3] + 1000 + (i & 1 ? g[(i / 2) % 3] * 10000 : 0);
			CHECK_MSG(out[i] == want, "%s, warp size %u: out[%d] = %d, expected %d", modes[mi], warp_sizes[wi],
				  i, out[i], want);
		}
		uint64_t calls = 0;
		wsStatsGet(e.sim, "calls", &calls);
		CHECK(calls > 0);
		env_close(&e);
	}
}
