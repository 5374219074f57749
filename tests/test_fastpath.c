/*
 * test_fastpath.c -- the functional model's fast paths on the issue path
 * (issue 14) against the general code they shortcut: ld/st on .shared and
 * .global decided once per warp (memop.c: ldst_fast) with partial masks,
 * sign extension, several sizes, lanes split over two allocations, and a
 * single faulting lane (out of bounds, misaligned) that must still be
 * reported for the right thread; the full-warp ALU/FP32 fast path
 * (exec_fast.c) against func_exec_alu on every lane, with edge values
 * (negative numbers, overflow, shift counts past the width, NaN, infinities,
 * subnormals, -0), immediates and predicate outputs.
 */
#include <stdlib.h>
#include <string.h>

#include "func/exec.h"
#include "test.h"
#include "warpsim.h"

/* ---------------------------------------------------------- ld/st fast path */

static const char ldst_ptx[] =
    ".version 7.0\n.target sm_75\n.address_size 64\n"
    ".visible .entry ldst(.param .u64 pa, .param .u64 pb, .param .u64 out, .param .u32 split)\n{\n"
    "  .reg .pred %p<4>;\n  .reg .b32 %r<20>;\n  .reg .b64 %rd<20>;\n"
    "  .shared .align 8 .b8 sm[1024];\n"
    "  ld.param.u64 %rd1, [pa];\n  ld.param.u64 %rd2, [pb];\n  ld.param.u64 %rd3, [out];\n"
    "  ld.param.u32 %r1, [split];\n  mov.u32 %r2, %tid.x;\n"
    /* lanes below `split` read allocation a, the others allocation b */
    "  setp.lt.u32 %p1, %r2, %r1;\n  selp.b64 %rd4, %rd1, %rd2, %p1;\n"
    "  mul.wide.u32 %rd5, %r2, 8;\n  add.s64 %rd6, %rd4, %rd5;\n"
    "  ld.global.u64 %rd7, [%rd6];\n  ld.global.s8 %r3, [%rd6+1];\n  ld.global.u16 %r4, [%rd6+2];\n"
    "  ld.global.s32 %rd8, [%rd6+4];\n  ld.global.s16 %r12, [%rd6+6];\n  ld.global.u8 %r13, [%rd6+7];\n"
    /* odd lanes load only (guard false on the even ones: the old value stays) */
    "  and.b32 %r8, %r2, 1;\n  setp.eq.u32 %p2, %r8, 1;\n  mov.u32 %r14, 77;\n"
    "  @%p2 ld.global.u32 %r14, [%rd6];\n"
    /* shared: every lane stores 8 bytes, odd lanes overwrite the low half */
    "  mov.u32 %r5, sm;\n  shl.b32 %r6, %r2, 3;\n  add.u32 %r7, %r5, %r6;\n"
    "  st.shared.u64 [%r7], %rd7;\n  @%p2 st.shared.u32 [%r7], %r2;\n  bar.sync 0;\n"
    "  xor.b32 %r9, %r6, 8;\n  add.u32 %r10, %r5, %r9;\n"
    "  ld.shared.u64 %rd9, [%r10];\n  ld.shared.s16 %r11, [%r10+6];\n  ld.shared.s8 %r15, [%r10+7];\n"
    /* out[tid]: 64 bytes */
    "  mul.wide.u32 %rd10, %r2, 64;\n  add.s64 %rd11, %rd3, %rd10;\n"
    "  st.global.u64 [%rd11], %rd7;\n  st.global.u32 [%rd11+8], %r3;\n  st.global.u32 [%rd11+12], %r4;\n"
    "  st.global.u64 [%rd11+16], %rd8;\n  st.global.u64 [%rd11+24], %rd9;\n  st.global.u32 [%rd11+32], %r11;\n"
    "  st.global.u32 [%rd11+36], %r12;\n  st.global.u32 [%rd11+40], %r13;\n  st.global.u32 [%rd11+44], %r14;\n"
    "  st.global.u32 [%rd11+48], %r15;\n  st.global.u16 [%rd11+52], %r2;\n  st.global.u8 [%rd11+54], %r2;\n"
    "  @%p2 st.global.u8 [%rd11+55], %r2;\n  @!%p2 st.global.u8 [%rd11+56], %r2;\n  ret;\n}\n"
    /* fault(p, bad, how): lane `bad` accesses out of bounds (how 0: global,
     * 1: shared) or misaligned (2: global, 3: shared); the others are fine */
    ".visible .entry fault(.param .u64 p, .param .u32 bad, .param .u32 how)\n{\n"
    "  .reg .pred %p<4>;\n  .reg .b32 %r<20>;\n  .reg .b64 %rd<20>;\n"
    "  .shared .align 8 .b8 sb[256];\n"
    "  ld.param.u64 %rd1, [p];\n  ld.param.u32 %r1, [bad];\n  ld.param.u32 %r2, [how];\n"
    "  mov.u32 %r3, %tid.x;\n  shl.b32 %r4, %r3, 2;\n"
    "  setp.eq.u32 %p1, %r3, %r1;\n  and.b32 %r5, %r2, 2;\n  setp.ne.u32 %p2, %r5, 0;\n"
    "  selp.u32 %r6, 2, 4096, %p2;\n  selp.u32 %r7, %r6, 0, %p1;\n  add.u32 %r8, %r4, %r7;\n"
    "  and.b32 %r9, %r2, 1;\n  setp.ne.u32 %p3, %r9, 0;\n"
    "  @%p3 bra SH;\n"
    "  cvt.u64.u32 %rd2, %r8;\n  add.s64 %rd3, %rd1, %rd2;\n  ld.global.u32 %r10, [%rd3];\n"
    "  st.global.u32 [%rd3], %r10;\n  ret;\n"
    "SH:\n  mov.u32 %r11, sb;\n  add.u32 %r12, %r11, %r8;\n  ld.shared.u32 %r10, [%r12];\n  ret;\n}\n";

struct fp_env {
	ws_sim *sim;
	ws_module *mod;
};

static int fp_open(struct test_ctx *t, struct fp_env *e, const char *mode, unsigned ws)
{
	memset(e, 0, sizeof *e);
	ws_config *cfg = wsConfigCreate();
	char err[128], num[16];
	snprintf(num, sizeof num, "%u", ws);
	CHECK(wsConfigSet(cfg, "mode", mode, err, sizeof err) == WS_SUCCESS);
	CHECK(wsConfigSet(cfg, "warp_size", num, err, sizeof err) == WS_SUCCESS);
	ws_result r = wsSimCreate(&e->sim, cfg);
	wsConfigDestroy(cfg);
	CHECK(r == WS_SUCCESS);
	if (r != WS_SUCCESS)
		return 0;
	r = wsModuleLoadData(e->sim, &e->mod, ldst_ptx, "ldst.ptx");
	CHECK_MSG(r == WS_SUCCESS, "load: %s", wsSimLastError(e->sim));
	return r == WS_SUCCESS;
}

static int64_t sx(uint64_t v, unsigned bits) { return (int64_t)(v << (64 - bits)) >> (64 - bits); }

static void ldst_case(struct test_ctx *t, const char *mode, unsigned ws, unsigned threads, unsigned split)
{
	struct fp_env e;
	if (!fp_open(t, &e, mode, ws))
		return;
	uint64_t a[64], b[64];
	uint64_t rng = 0x9e3779b97f4a7c15ull ^ threads ^ ((uint64_t)split << 8);
	for (unsigned i = 0; i < 64; i++) {
		rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
		a[i] = rng;
		rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
		b[i] = i % 3 ? rng : 0x8080808080808080ull; /* negative bytes, halves and words */
	}
	ws_deviceptr pa = 0, pb = 0, po = 0;
	wsMemAlloc(e.sim, &pa, sizeof a);
	wsMemAlloc(e.sim, &pb, sizeof b);
	wsMemAlloc(e.sim, &po, 64 * 64);
	wsMemcpyHtoD(e.sim, pa, a, sizeof a);
	wsMemcpyHtoD(e.sim, pb, b, sizeof b);
	wsMemsetD8(e.sim, po, 0xee, 64 * 64);
	ws_function *f;
	CHECK(wsModuleGetFunction(&f, e.mod, "ldst") == WS_SUCCESS);
	void *args[] = {&pa, &pb, &po, &split};
	ws_result r = wsLaunchKernel(f, 1, 1, 1, threads, 1, 1, 0, args);
	CHECK_MSG(r == WS_SUCCESS, "%s ws %u threads %u: %s", mode, ws, threads, wsSimLastError(e.sim));
	uint8_t out[64 * 64];
	wsMemcpyDtoH(e.sim, out, po, sizeof out);
	unsigned bad = 0;
	for (unsigned i = 0; i < threads; i++) {
		const uint64_t v = i < split ? a[i] : b[i];
		/* the neighbour's shared slot: its 8 bytes, the low half its tid if odd */
		const unsigned nb = i ^ 1;
		uint64_t nv = 0;
		if (nb < threads) {
			nv = nb < split ? a[nb] : b[nb];
			if (nb & 1)
				nv = (nv & ~0xffffffffull) | nb;
		}
		const uint8_t *o = out + 64 * i;
		uint64_t w64;
		uint32_t w32;
		uint16_t w16;
		int ok = 1;
		memcpy(&w64, o, 8), ok &= w64 == v;
		memcpy(&w32, o + 8, 4), ok &= w32 == (uint32_t)sx(v >> 8, 8);
		memcpy(&w32, o + 12, 4), ok &= w32 == (uint32_t)((v >> 16) & 0xffff);
		memcpy(&w64, o + 16, 8), ok &= w64 == (uint64_t)sx(v >> 32, 32);
		if (nb < threads) {
			memcpy(&w64, o + 24, 8), ok &= w64 == nv;
			memcpy(&w32, o + 32, 4), ok &= w32 == (uint32_t)sx(nv >> 48, 16);
			memcpy(&w32, o + 48, 4), ok &= w32 == (uint32_t)sx(nv >> 56, 8);
		}
		memcpy(&w32, o + 36, 4), ok &= w32 == (uint32_t)sx(v >> 48, 16);
		memcpy(&w32, o + 40, 4), ok &= w32 == (uint32_t)(v >> 56);
		memcpy(&w32, o + 44, 4), ok &= w32 == ((i & 1) ? (uint32_t)v : 77u);
		memcpy(&w16, o + 52, 2), ok &= w16 == i;
		ok &= o[54] == (uint8_t)i;
		ok &= o[55] == ((i & 1) ? (uint8_t)i : 0xee);
		ok &= o[56] == ((i & 1) ? 0xee : (uint8_t)i); /* a negated guard */
		if (!ok && bad++ < 3)
			CHECK_MSG(0, "%s ws %u threads %u split %u: thread %u got wrong values", mode, ws, threads, split,
				  i);
	}
	wsSimDestroy(e.sim);
}

TEST(fastpath_ldst_values)
{
	static const char *const modes[] = {"functional", "timing"};
	for (unsigned mi = 0; mi < 2; mi++) {
		ldst_case(t, modes[mi], 32, 64, 64); /* full warps, one allocation */
		ldst_case(t, modes[mi], 32, 64, 13); /* a warp split over two allocations */
		ldst_case(t, modes[mi], 32, 64, 32);
		ldst_case(t, modes[mi], 32, 45, 45); /* a partial last warp */
		ldst_case(t, modes[mi], 8, 30, 5);
		ldst_case(t, modes[mi], 64, 64, 40);
	}
}

TEST(fastpath_ldst_faults_name_the_lane)
{
	static const char *const modes[] = {"functional", "timing"};
	static const char *const want[] = {"out-of-bounds read", "out-of-bounds read", "misaligned 4-byte read",
					   "misaligned 4-byte read"};
	for (unsigned mi = 0; mi < 2; mi++)
		for (unsigned how = 0; how < 4; how++)
			for (unsigned bad = 0; bad < 32; bad += 13) {
				struct fp_env e;
				if (!fp_open(t, &e, modes[mi], 32))
					return;
				ws_deviceptr p = 0;
				wsMemAlloc(e.sim, &p, 32 * 4);
				ws_function *f;
				CHECK(wsModuleGetFunction(&f, e.mod, "fault") == WS_SUCCESS);
				void *args[] = {&p, &bad, &how};
				ws_result r = wsLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, args);
				CHECK_EQ(r, how >= 2 ? WS_ERROR_MISALIGNED_ADDRESS : WS_ERROR_ILLEGAL_ADDRESS);
				char th[32];
				snprintf(th, sizeof th, "thread (%u,0,0)", bad);
				const char *m = wsSimLastError(e.sim);
				CHECK_STR_CONTAINS(m, th);
				CHECK_STR_CONTAINS(m, want[how]);
				CHECK_STR_CONTAINS(m, (how & 1) ? "shared" : "global");
				wsSimDestroy(e.sim);
			}
}

/* A 32-bit base register adds its displacement in 32 bits (memop.c:
 * effective_addresses): [%r2+68] with %r2 = sm-64 is sm+4 (Rodinia's needle
 * addresses its shared tile so), while [%r2] itself is still out of bounds. */
static const char wrap_ptx[] =
    ".version 7.0\n.target sm_75\n.address_size 64\n"
    ".visible .entry wrap(.param .u64 out, .param .u32 bad)\n{\n"
    "  .reg .pred %p<2>;\n  .reg .b32 %r<10>;\n  .reg .b64 %rd<6>;\n"
    "  .shared .align 8 .b8 sm[256];\n"
    "  ld.param.u64 %rd1, [out];\n  ld.param.u32 %r9, [bad];\n  mov.u32 %r1, %tid.x;\n"
    "  mov.u32 %r2, sm;\n  shl.b32 %r3, %r1, 2;\n  add.u32 %r4, %r2, %r3;\n"
    "  add.u32 %r5, %r1, 1000;\n  st.shared.u32 [%r4+4], %r5;\n  bar.sync 0;\n"
    "  sub.u32 %r6, %r4, 64;\n  ld.shared.u32 %r7, [%r6+68];\n"
    "  setp.ne.u32 %p1, %r9, 0;\n  @%p1 ld.shared.u32 %r7, [%r6];\n"
    "  mul.wide.u32 %rd2, %r1, 4;\n  add.s64 %rd3, %rd1, %rd2;\n  st.global.u32 [%rd3], %r7;\n  ret;\n}\n";

TEST(fastpath_ldst_32bit_base_wraps)
{
	static const char *const modes[] = {"functional", "timing"};
	for (unsigned mi = 0; mi < 2; mi++)
		for (unsigned bad = 0; bad < 2; bad++) {
			struct fp_env e;
			if (!fp_open(t, &e, modes[mi], 32))
				return;
			ws_module *m = NULL;
			ws_result r = wsModuleLoadData(e.sim, &m, wrap_ptx, "wrap.ptx");
			CHECK_MSG(r == WS_SUCCESS, "load: %s", wsSimLastError(e.sim));
			ws_deviceptr p = 0;
			wsMemAlloc(e.sim, &p, 64 * 4);
			ws_function *f = NULL;
			CHECK(m && wsModuleGetFunction(&f, m, "wrap") == WS_SUCCESS);
			void *args[] = {&p, &bad};
			r = f ? wsLaunchKernel(f, 1, 1, 1, 60, 1, 1, 0, args) : WS_ERROR_INVALID_VALUE;
			if (bad) {
				CHECK_EQ(r, WS_ERROR_ILLEGAL_ADDRESS);
				CHECK_STR_CONTAINS(wsSimLastError(e.sim), "shared");
			} else {
				CHECK_MSG(r == WS_SUCCESS, "%s: %s", modes[mi], wsSimLastError(e.sim));
				uint32_t out[64];
				wsMemcpyDtoH(e.sim, out, p, 60 * 4);
				unsigned wrong = 0;
				for (unsigned i = 0; i < 60; i++)
					wrong += out[i] != 1000 + i;
				CHECK_MSG(wrong == 0, "%s: %u of 60 threads read the wrong word", modes[mi], wrong);
			}
			wsSimDestroy(e.sim);
		}
}

/* Loads of one address for every lane (memop.c: ld_uniform): kernel
 * parameters, .const and .global variables, [shared symbol + offset], with
 * sign extension, a partial mask, and a misaligned / out-of-bounds
 * [symbol + offset] that must still be reported. */
static const char unif_ptx[] =
    ".version 7.0\n.target sm_75\n.address_size 64\n"
    ".const .align 8 .b8 ctab[16] = {1, 2, 3, 4, 5, 6, 7, 8, 129, 130, 131, 132, 133, 134, 135, 136};\n"
    ".global .align 8 .u64 gvar = 1234605616436508552;\n"
    ".visible .entry unif(.param .u64 out, .param .s8 ps8, .param .u16 pu16, .param .s32 ps32, .param .u64 pu64)\n{\n"
    "  .reg .pred %p<3>;\n  .reg .b32 %r<20>;\n  .reg .b64 %rd<20>;\n"
    "  .shared .align 8 .b8 su[64];\n"
    "  ld.param.u64 %rd1, [out];\n  mov.u32 %r1, %tid.x;\n"
    "  ld.param.s8 %r2, [ps8];\n  ld.param.u16 %r3, [pu16];\n  ld.param.s32 %rd2, [ps32];\n  ld.param.u64 %rd3, [pu64];\n"
    "  ld.const.s8 %r4, [ctab+9];\n  ld.const.u32 %r5, [ctab+4];\n  ld.global.u64 %rd4, [gvar];\n"
    "  and.b32 %r6, %r1, 1;\n  setp.eq.u32 %p1, %r6, 1;\n  mov.u32 %r7, 99;\n  @%p1 ld.param.u32 %r7, [ps32];\n"
    "  setp.eq.u32 %p2, %r1, 0;\n  @%p2 st.shared.u32 [su+8], %r3;\n  bar.sync 0;\n  ld.shared.u32 %r8, [su+8];\n"
    "  mul.wide.u32 %rd5, %r1, 64;\n  add.s64 %rd6, %rd1, %rd5;\n"
    "  st.global.u32 [%rd6], %r2;\n  st.global.u32 [%rd6+4], %r3;\n  st.global.u64 [%rd6+8], %rd2;\n"
    "  st.global.u64 [%rd6+16], %rd3;\n  st.global.u32 [%rd6+24], %r4;\n  st.global.u32 [%rd6+28], %r5;\n"
    "  st.global.u64 [%rd6+32], %rd4;\n  st.global.u32 [%rd6+40], %r7;\n  st.global.u32 [%rd6+44], %r8;\n  ret;\n}\n"
    ".visible .entry ufault(.param .u32 how)\n{\n  .reg .pred %p<2>;\n  .reg .b32 %r<4>;\n"
    "  .shared .align 8 .b8 sf[64];\n  ld.param.u32 %r1, [how];\n  setp.eq.u32 %p1, %r1, 0;\n  @%p1 bra MIS;\n"
    "  ld.shared.u32 %r2, [sf+100000];\n  ret;\nMIS:\n  ld.shared.u32 %r2, [sf+2];\n  ret;\n}\n";

TEST(fastpath_uniform_loads)
{
	static const char *const modes[] = {"functional", "timing"};
	for (unsigned mi = 0; mi < 2; mi++) {
		ws_config *cfg = wsConfigCreate();
		char err[128];
		CHECK(wsConfigSet(cfg, "mode", modes[mi], err, sizeof err) == WS_SUCCESS);
		ws_sim *sim;
		CHECK(wsSimCreate(&sim, cfg) == WS_SUCCESS);
		wsConfigDestroy(cfg);
		ws_module *mod;
		ws_result r = wsModuleLoadData(sim, &mod, unif_ptx, "unif.ptx");
		CHECK_MSG(r == WS_SUCCESS, "load: %s", wsSimLastError(sim));
		if (r != WS_SUCCESS) {
			wsSimDestroy(sim);
			return;
		}
		ws_deviceptr po = 0;
		wsMemAlloc(sim, &po, 64 * 48);
		int8_t s8 = -5;
		uint16_t u16 = 0xfedc;
		int32_t s32 = -123456;
		uint64_t u64 = 0x8877665544332211ull;
		void *args[] = {&po, &s8, &u16, &s32, &u64};
		ws_function *f;
		CHECK(wsModuleGetFunction(&f, mod, "unif") == WS_SUCCESS);
		r = wsLaunchKernel(f, 1, 1, 1, 48, 1, 1, 0, args);
		CHECK_MSG(r == WS_SUCCESS, "%s: %s", modes[mi], wsSimLastError(sim));
		uint8_t out[64 * 48];
		wsMemcpyDtoH(sim, out, po, sizeof out);
		unsigned bad = 0;
		for (unsigned i = 0; i < 48; i++) {
			const uint8_t *o = out + 64 * i;
			uint32_t w32[12];
			uint64_t w64[6];
			memcpy(w32, o, 48);
			memcpy(w64, o, 48);
			int ok = w32[0] == (uint32_t)-5 && w32[1] == 0xfedc && w64[1] == (uint64_t)(int64_t)-123456 &&
				 w64[2] == u64 && w32[6] == (uint32_t)(int32_t)(int8_t)130 && w32[7] == 0x08070605u &&
				 w64[4] == 1234605616436508552ull && w32[10] == ((i & 1) ? (uint32_t)-123456 : 99u) &&
				 w32[11] == 0xfedc;
			if (!ok && bad++ < 3)
				CHECK_MSG(0, "%s: thread %u got wrong values", modes[mi], i);
		}
		CHECK(wsModuleGetFunction(&f, mod, "ufault") == WS_SUCCESS);
		for (uint32_t how = 0; how < 2; how++) {
			void *a2[] = {&how};
			r = wsLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, a2);
			CHECK_EQ(r, how == 0 ? WS_ERROR_MISALIGNED_ADDRESS : WS_ERROR_ILLEGAL_ADDRESS);
			CHECK_STR_CONTAINS(wsSimLastError(sim), "thread (0,0,0)");
			CHECK_STR_CONTAINS(wsSimLastError(sim), how == 0 ? "misaligned 4-byte read" : "out-of-bounds read");
		}
		wsSimDestroy(sim);
	}
}

/* ------------------------------------------------- ALU / FP32 fast path */

#define FNR 8 /* registers of the test frame: r0 destination, r5 second (predicate) destination */

/* Edge values for lane l of operand register r (garbage in the high half of
 * 32-bit values on purpose: the general executors mask or sign-extend). */
static uint64_t edge(unsigned r, unsigned l, bool fp)
{
	static const uint64_t ints[] = {0,
					1,
					2,
					31,
					32,
					33,
					63,
					64,
					0xffffffffull,
					0x7fffffffull,
					0x80000000ull,
					0xffffffff80000000ull,
					0xffffffffffffffffull,
					0x8000000000000000ull,
					0x7fffffffffffffffull,
					0x123456789abcdef0ull,
					0xdeadbeef00000005ull,
					0x00000001fffffffeull,
					100,
					0xfffffffffffffffeull};
	static const uint32_t floats[] = {0x00000000u, 0x80000000u, 0x3f800000u, 0xbf800000u, 0x7f800000u,
					  0xff800000u, 0x7fc00000u, 0xffc00001u, 0x7f800001u, 0x00000001u,
					  0x807fffffu, 0x7f7fffffu, 0x00800000u, 0x3eaaaaabu, 0x4b000001u,
					  0xcb7fffffu, 0x33800000u, 0x3f800001u, 0x40490fdbu, 0xc0000000u};
	const unsigned n = sizeof ints / sizeof ints[0];
	const unsigned i = (l * (r + 3) + r * 7 + l / n) % n;
	if (!fp)
		return ints[i];
	return (uint64_t)floats[i] | (r == 3 && l % 5 == 0 ? 0xabcd000000000000ull : 0);
}

struct frame {
	uint64_t regs[FNR * 64];
	uint8_t carry[64];
	struct func_exec x;
};

static void frame_init(struct frame *f, unsigned ws, bool fp)
{
	memset(f, 0, sizeof *f);
	f->x.regs = f->regs;
	f->x.ws = ws;
	f->x.carry = f->carry;
	for (unsigned r = 0; r < FNR; r++)
		for (unsigned l = 0; l < ws; l++)
			f->regs[r * ws + l] = r == 4 ? (l * 7 + 3) % 3 == 0 : edge(r, l, fp); /* r4: a predicate */
	for (unsigned l = 0; l < ws; l++)
		f->regs[l] = 0x5555555555555555ull; /* r0: must be overwritten on every lane */
}

static struct ptx_insn fmk(unsigned op, unsigned type, unsigned nsrc)
{
	struct ptx_insn in;
	memset(&in, 0, sizeof in);
	in.op = (uint16_t)op;
	in.type = (uint8_t)type;
	in.guard = -1;
	for (unsigned i = 0; i < PTX_MAX_OPDS; i++)
		in.opd[i].reg2 = -1;
	for (unsigned i = 0; i <= nsrc; i++) {
		in.opd[i].kind = OPD_REG;
		in.opd[i].reg = (int32_t)i;
	}
	in.nopd = (uint8_t)(nsrc + 1);
	return in;
}

/* Runs `in` through the fast path and through func_exec_alu on identical
 * frames; every register of every lane must agree.  Returns 1 if the fast
 * path took it. */
static int same_as_general(struct test_ctx *t, const struct ptx_insn *in, unsigned ws, bool fp, const char *what)
{
	struct frame *a = malloc(sizeof *a), *b = malloc(sizeof *b);
	frame_init(a, ws, fp);
	frame_init(b, ws, fp);
	int took = func_exec_fast(&a->x, in);
	if (took) {
		func_exec_alu(&b->x, in, ws >= 64 ? ~0ull : (1ull << ws) - 1);
		for (unsigned i = 0; i < FNR * ws; i++)
			if (a->regs[i] != b->regs[i]) {
				CHECK_MSG(0, "%s ws %u: r%u lane %u: fast 0x%llx, general 0x%llx", what, ws, i / ws, i % ws,
					  (unsigned long long)a->regs[i], (unsigned long long)b->regs[i]);
				break;
			}
	} else {
		CHECK_MSG(memcmp(a->regs, b->regs, sizeof a->regs) == 0, "%s: declined but changed registers", what);
	}
	free(a);
	free(b);
	return took;
}

TEST(fastpath_alu_matches_general)
{
	static const unsigned ws_list[] = {8, 32, 64};
	static const unsigned ity[] = {PTX_T_U32, PTX_T_S32, PTX_T_U64, PTX_T_S64, PTX_T_B32, PTX_T_B64};
	static const struct {
		unsigned op, nsrc, mode;
		const char *name;
	} iops[] = {{OP_ADD, 2, 0, "add"},         {OP_SUB, 2, 0, "sub"},       {OP_MUL, 2, MODE_NONE, "mul"},
		    {OP_MUL, 2, MODE_LO, "mul.lo"}, {OP_MUL, 2, MODE_WIDE, "mul.wide"}, {OP_MAD, 3, MODE_LO, "mad.lo"},
		    {OP_MAD, 3, MODE_WIDE, "mad.wide"}, {OP_SHL, 2, 0, "shl"},    {OP_SHR, 2, 0, "shr"},
		    {OP_AND, 2, 0, "and"},         {OP_OR, 2, 0, "or"},         {OP_XOR, 2, 0, "xor"},
		    {OP_MOV, 1, 0, "mov"}};
	char what[96];
	unsigned took = 0;
	for (unsigned wi = 0; wi < 3; wi++) {
		const unsigned ws = ws_list[wi];
		for (unsigned oi = 0; oi < sizeof iops / sizeof iops[0]; oi++)
			for (unsigned ti = 0; ti < sizeof ity / sizeof ity[0]; ti++)
				for (unsigned imm = 0; imm < 2; imm++) {
					if (imm && iops[oi].nsrc < 2)
						continue;
					struct ptx_insn in = fmk(iops[oi].op, ity[ti], iops[oi].nsrc);
					in.mode = (uint8_t)iops[oi].mode;
					if (imm) { /* an immediate second source: the scalar-broadcast loops */
						in.opd[2].kind = OPD_IMM;
						in.opd[2].imm = ti & 1 ? 0xfffffffffffffff0ull : 33;
					}
					snprintf(what, sizeof what, "%s type %u%s", iops[oi].name, ity[ti], imm ? " imm" : "");
					took += same_as_general(t, &in, ws, false, what);
				}
		/* selp and mov also move f32/f64 bits; selp on a (negated) predicate */
		static const unsigned sty[] = {PTX_T_U32, PTX_T_S64, PTX_T_B64, PTX_T_F32, PTX_T_F64};
		for (unsigned ti = 0; ti < 5; ti++)
			for (unsigned neg = 0; neg < 2; neg++) {
				struct ptx_insn in = fmk(OP_SELP, sty[ti], 3);
				in.opd[3].reg = 4;
				in.opd[3].neg = (uint8_t)neg;
				snprintf(what, sizeof what, "selp type %u neg %u", sty[ti], neg);
				took += same_as_general(t, &in, ws, sty[ti] >= PTX_T_F32, what);
				in = fmk(OP_MOV, sty[ti], 1);
				snprintf(what, sizeof what, "mov type %u", sty[ti]);
				took += same_as_general(t, &in, ws, true, what);
				in.opd[1].kind = OPD_IMM; /* mov of an immediate: a fill */
				in.opd[1].imm = neg ? 0xfedcba9876543210ull : 0x3f800000u;
				snprintf(what, sizeof what, "mov imm type %u", sty[ti]);
				took += same_as_general(t, &in, ws, true, what);
			}
		/* setp: every compare, integer and f32, with and without |q, immediate b */
		static const unsigned cty[] = {PTX_T_U32, PTX_T_S32, PTX_T_B32, PTX_T_U64, PTX_T_S64, PTX_T_B64, PTX_T_F32};
		for (unsigned ti = 0; ti < 7; ti++)
			for (unsigned cmp = CMP_EQ; cmp < CMP_COUNT; cmp++)
				for (unsigned v = 0; v < 3; v++) {
					const bool fp = cty[ti] == PTX_T_F32;
					struct ptx_insn in = fmk(OP_SETP, cty[ti], 2);
					in.cmp = (uint8_t)cmp;
					if (v >= 1)
						in.opd[0].reg2 = 5;
					if (v == 2) {
						in.opd[2].kind = OPD_IMM;
						in.opd[2].imm = fp ? 0x3f800000u : 0x80000000u;
					}
					snprintf(what, sizeof what, "setp cmp %u type %u variant %u", cmp, cty[ti], v);
					took += same_as_general(t, &in, ws, fp, what);
				}
		/* f32 add/sub/mul/fma/mad, no rounding suffix and .rn: NaN, inf, subnormals, -0 */
		static const unsigned fops[] = {OP_ADD, OP_SUB, OP_MUL, OP_FMA, OP_MAD};
		for (unsigned oi = 0; oi < 5; oi++)
			for (unsigned rn = 0; rn < 2; rn++) {
				struct ptx_insn in = fmk(fops[oi], PTX_T_F32, fops[oi] == OP_FMA || fops[oi] == OP_MAD ? 3 : 2);
				in.rnd = rn ? RND_RN : RND_NONE;
				snprintf(what, sizeof what, "f32 op %u rnd %u", fops[oi], in.rnd);
				took += same_as_general(t, &in, ws, true, what);
			}
	}
	CHECK_MSG(took > 300, "the fast path took only %u of the forms it implements", took);
}

TEST(fastpath_alu_declines_other_forms)
{
	/* forms the fast path must leave to the general executors (which it would get wrong) */
	struct frame *f = malloc(sizeof *f);
	frame_init(f, 32, false);
	struct ptx_insn in = fmk(OP_ADD, PTX_T_S32, 2);
	in.flags = FLAG_SAT;
	CHECK(!func_exec_fast(&f->x, &in));
	in.flags = FLAG_CC;
	CHECK(!func_exec_fast(&f->x, &in));
	in = fmk(OP_ADD, PTX_T_F32, 2);
	in.flags = FLAG_FTZ;
	CHECK(!func_exec_fast(&f->x, &in));
	in.flags = 0;
	in.rnd = RND_RZ;
	CHECK(!func_exec_fast(&f->x, &in));
	in = fmk(OP_ADD, PTX_T_U16X2, 2);
	CHECK(!func_exec_fast(&f->x, &in));
	in = fmk(OP_ADD, PTX_T_U16, 2);
	CHECK(!func_exec_fast(&f->x, &in));
	in = fmk(OP_ADDC, PTX_T_U32, 2);
	CHECK(!func_exec_fast(&f->x, &in));
	in = fmk(OP_MUL, PTX_T_S32, 2);
	in.mode = MODE_HI;
	CHECK(!func_exec_fast(&f->x, &in));
	in = fmk(OP_MUL, PTX_T_S64, 2);
	in.mode = MODE_WIDE;
	CHECK(!func_exec_fast(&f->x, &in));
	in = fmk(OP_SHR, PTX_T_S32, 2);
	CHECK(!func_exec_fast(&f->x, &in));
	in = fmk(OP_SETP, PTX_T_S32, 3);
	in.cmp = CMP_LT;
	in.boolop = BOOL_AND;
	CHECK(!func_exec_fast(&f->x, &in));
	in = fmk(OP_SETP, PTX_T_F64, 2);
	in.cmp = CMP_LT;
	CHECK(!func_exec_fast(&f->x, &in));
	in = fmk(OP_ADD, PTX_T_S32, 2);
	in.opd[0].kind = OPD_SINK;
	CHECK(!func_exec_fast(&f->x, &in));
	in = fmk(OP_LD, PTX_T_U32, 1);
	CHECK(!func_exec_fast(&f->x, &in));
	free(f);
}
