/*
 * test_cfg_ptx.c -- tests of the PTX analysis pass (src/ptx/analysis.c,
 * cfg.c) on parsed PTX text: reconvergence pcs of nested ifs, loops,
 * returns, brx switches and infinite/unreachable code, module layout with
 * calls and immediates, errors the pass reports, and register pressure
 * across calls and mutual recursion.  test_cfg.c has the tests on IR built
 * by hand.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ptx/cfg.h"
#include "ptx/ir.h"
#include "test.h"

/* ------------------------------------------------------- PTX text */

#define PTX_HEAD ".version 7.0\n.target sm_70\n.address_size 64\n"

static struct ptx_module *parse_analyse(struct test_ctx *t, const char *src)
{
	struct ptx_error err;
	memset(&err, 0, sizeof err);
	struct ptx_module *m = ptx_parse(src, strlen(src), "cfg.ptx", &err);
	CHECK_MSG(m != NULL, "parse: %u:%u %s", err.line, err.col, err.msg);
	if (!m)
		return NULL;
	bool ok = ptx_analyse(m, &err);
	CHECK_MSG(ok, "analyse: %u:%u %s", err.line, err.col, err.msg);
	if (!ok) {
		ptx_module_destroy(m);
		return NULL;
	}
	return m;
}

/* Line (1-based) of the unique line of src containing `marker`. */
static uint32_t line_of(const char *src, const char *marker)
{
	const char *p = strstr(src, marker);
	if (!p)
		return 0;
	uint32_t line = 1;
	for (const char *q = src; q < p; q++)
		line += *q == '\n';
	return line;
}

/* pc of the instruction written on the line holding `marker`, or -2. */
static int32_t pc_at(const struct ptx_function *fn, const char *src, const char *marker)
{
	uint32_t line = line_of(src, marker);
	for (uint32_t i = 0; i < fn->ninsns; i++)
		if (fn->insns[i].line == line)
			return (int32_t)i;
	return -2;
}

/* reconv of the branch at marker `br` must be the pc at marker `to` ("EXIT" for the exit) */
static void check_rc(struct test_ctx *t, const struct ptx_function *fn, const char *src, const char *br,
		     const char *to)
{
	int32_t b = pc_at(fn, src, br);
	CHECK_MSG(b >= 0, "no instruction at %s", br);
	if (b < 0)
		return;
	int32_t want = strcmp(to, "EXIT") == 0 ? PTX_PC_EXIT : pc_at(fn, src, to);
	CHECK_MSG(fn->insns[b].reconv == want, "branch %s (pc %d): reconv %d, want %s = %d", br, b, fn->insns[b].reconv,
		  to, want);
}

static const char ptx_shapes[] = PTX_HEAD
	".visible .entry shapes(.param .u32 n)\n"
	"{\n"
	"	.reg .pred %p<8>;\n"
	"	.reg .b32 %r<16>;\n"
	"	ld.param.u32 %r1, [n];\n"
	"	setp.lt.u32 %p1, %r1, 5;\n"
	"	@%p1 bra IF_ELSE;                 // A if/else\n"
	"	add.s32 %r2, %r1, 1;\n"
	"	bra.uni IF_JOIN;                  // B\n"
	"IF_ELSE:\n"
	"	add.s32 %r2, %r1, 2;\n"
	"IF_JOIN:\n"
	"	setp.eq.u32 %p2, %r2, 3;          // J1\n"
	"	@%p2 bra OUT_JOIN;                // C outer if\n"
	"	setp.eq.u32 %p3, %r2, 4;\n"
	"	@%p3 bra IN_JOIN;                 // D inner if\n"
	"	add.s32 %r3, %r2, 1;\n"
	"IN_JOIN:\n"
	"	add.s32 %r3, %r3, 1;              // J2\n"
	"OUT_JOIN:\n"
	"	mov.u32 %r4, 0;                   // J3\n"
	"LOOP:\n"
	"	add.s32 %r4, %r4, 1;              // H loop head\n"
	"	setp.gt.u32 %p4, %r4, 100;\n"
	"	@%p4 bra LOOP_END;                // E break\n"
	"	setp.eq.u32 %p5, %r4, 7;\n"
	"	@%p5 bra LATCH;                   // F continue\n"
	"	add.s32 %r5, %r5, %r4;\n"
	"LATCH:\n"
	"	setp.lt.u32 %p6, %r4, %r1;        // L latch\n"
	"	@%p6 bra LOOP;                    // G back edge\n"
	"LOOP_END:\n"
	"	setp.eq.u32 %p7, %r5, 0;          // J4\n"
	"	@%p7 bra EARLY;                   // I early return\n"
	"	add.s32 %r6, %r5, 1;\n"
	"	ret;\n"
	"EARLY:\n"
	"	ret;\n"
	"}\n";

TEST(cfg_ptx_if_nested_loop_return)
{
	struct ptx_module *m = parse_analyse(t, ptx_shapes);
	if (!m)
		return;
	const struct ptx_function *fn = &m->funcs[0];
	const char *s = ptx_shapes;
	check_rc(t, fn, s, "// A", "// J1");
	check_rc(t, fn, s, "// B", "// J1");
	check_rc(t, fn, s, "// C", "// J3");
	check_rc(t, fn, s, "// D", "// J2");
	check_rc(t, fn, s, "// E", "// J4");
	check_rc(t, fn, s, "// F", "// L");
	check_rc(t, fn, s, "// G", "// J4");
	check_rc(t, fn, s, "// I", "EXIT");
	/* non-branches have reconv -1; block bookkeeping is consistent */
	CHECK_EQ(fn->insns[pc_at(fn, s, "// H")].reconv, -1);
	CHECK_EQ(fn->block_start[fn->block_of[pc_at(fn, s, "// H")]], pc_at(fn, s, "// H"));
	CHECK_EQ(fn->block_start[0], 0);
	for (uint32_t b = 1; b < fn->nblocks; b++)
		CHECK(fn->block_start[b] > fn->block_start[b - 1]);
	ptx_module_destroy(m);
}

static const char ptx_switch[] = PTX_HEAD
	".visible .entry sw(.param .u32 n)\n"
	"{\n"
	"	.reg .pred %p<4>;\n"
	"	.reg .b32 %r<8>;\n"
	"	ld.param.u32 %r1, [n];\n"
	"	ts: .branchtargets C0, C1, C2;\n"
	"	brx.idx %r1, ts;                  // S switch\n"
	"C0:\n"
	"	mov.u32 %r2, 10;\n"
	"	bra.uni DONE;                     // B0\n"
	"C1:\n"
	"	mov.u32 %r2, 11;\n"
	"	bra.uni DONE;                     // B1\n"
	"C2:\n"
	"	mov.u32 %r2, 12;\n"
	"DONE:\n"
	"	add.s32 %r3, %r2, 1;              // D\n"
	"	setp.eq.u32 %p1, %r3, 0;\n"
	"	@%p1 bra SPIN;                    // X to an endless loop\n"
	"	ret;\n"
	"SPIN:\n"
	"	setp.eq.u32 %p2, %r3, 1;          // SP\n"
	"	@%p2 bra SKIP;                    // Y if inside the endless loop\n"
	"	add.s32 %r3, %r3, 1;\n"
	"SKIP:\n"
	"	bra.uni SPIN;                     // Z\n"
	"	@%p2 bra UJ;                      // V unreachable branch\n"
	"	add.s32 %r4, %r3, 1;\n"
	"UJ:\n"
	"	ret;                              // W\n"
	"}\n";

TEST(cfg_ptx_brx_infinite_unreachable)
{
	struct ptx_module *m = parse_analyse(t, ptx_switch);
	if (!m)
		return;
	const struct ptx_function *fn = &m->funcs[0];
	const char *s = ptx_switch;
	check_rc(t, fn, s, "// S", "// D");
	check_rc(t, fn, s, "// B0", "// D");
	check_rc(t, fn, s, "// B1", "// D");
	check_rc(t, fn, s, "// X", "EXIT");
	check_rc(t, fn, s, "// Y", "// Z");
	check_rc(t, fn, s, "// Z", "EXIT");
	check_rc(t, fn, s, "// V", "// W");
	ptx_module_destroy(m);
}

static const char ptx_module_text[] = PTX_HEAD
	".global .align 4 .u32 gcount;\n"
	".const .align 4 .b8 coef[16] = {0, 0, 128, 63, 0, 0, 0, 64, 0, 0, 64, 64, 0, 0, 128, 64};\n"
	".extern .shared .align 16 .b8 dyn[];\n"
	".global .align 8 .b8 tab[24];\n"
	".shared .align 4 .b8 smod[100];\n"
	".func (.param .b32 func_retval0) helper(\n"
	"	.param .b32 helper_param_0,\n"
	"	.param .b64 helper_param_1\n"
	")\n"
	"{\n"
	"	.reg .f32 %f<4>;\n"
	"	ld.param.f32 %f1, [helper_param_0];\n"
	"	add.f32 %f2, %f1, 1.5;                        // IMM1\n"
	"	mul.f32 %f3, %f2, 0f40000000;\n"
	"	st.param.f32 [func_retval0+0], %f3;\n"
	"	ret;\n"
	"}\n"
	".visible .entry k(\n"
	"	.param .u64 k_param_0,\n"
	"	.param .u32 k_param_1,\n"
	"	.param .f64 k_param_2\n"
	")\n"
	"{\n"
	"	.local .align 8 .b8 __local_depot1[40];\n"
	"	.reg .pred %p<3>;\n"
	"	.reg .f32 %f<5>;\n"
	"	.reg .b32 %r<6>;\n"
	"	.reg .f64 %fd<3>;\n"
	"	.reg .b64 %rd<4>;\n"
	"	.shared .align 4 .b8 sk[1024];\n"
	"	ld.param.f64 %fd1, [k_param_2];\n"
	"	add.f64 %fd2, %fd1, 0f3F800000;               // IMM2\n"
	"	setp.gt.f32 %p1, %f1, 0;                      // IMM3\n"
	"	selp.u32 %r1, 1, 0, %p1;                      // IMM4\n"
	"	shl.b64 %rd1, %rd2, 3;\n"
	"	div.rn.f64 %fd2, %fd2, %fd1;                  // DIV\n"
	"	{\n"
	"	.param .b32 param0;\n"
	"	st.param.f32 [param0+0], %f1;\n"
	"	.param .b64 param1;\n"
	"	st.param.b64 [param1+0], %rd1;\n"
	"	.param .b32 retval0;\n"
	"	call.uni (retval0), helper, (param0, param1); // CALL\n"
	"	ld.param.f32 %f2, [retval0+0];\n"
	"	}\n"
	"	mov.u32 %r2, smod;\n"
	"	mov.u32 %r3, dyn;\n"
	"	ret;\n"
	"}\n";

TEST(cfg_ptx_module_layout_calls_imms)
{
	struct ptx_module *m = parse_analyse(t, ptx_module_text);
	if (!m)
		return;
	const char *s = ptx_module_text;
	int h = ptx_module_find_func(m, "helper"), k = ptx_module_find_func(m, "k");
	CHECK(h >= 0 && k >= 0);
	if (h < 0 || k < 0) {
		ptx_module_destroy(m);
		return;
	}
	const struct ptx_function *fh = &m->funcs[h], *fk = &m->funcs[k];
	/* call resolution */
	int32_t pc = pc_at(fk, s, "// CALL");
	CHECK(pc >= 0);
	if (pc >= 0)
		CHECK_EQ(fk->insns[pc].callee, h);
	/* immediates */
	pc = pc_at(fh, s, "// IMM1");
	if (pc >= 0)
		CHECK_EQ(fh->insns[pc].opd[2].imm, 0x3fc00000u);
	pc = pc_at(fk, s, "// IMM2");
	if (pc >= 0)
		CHECK_EQ(fk->insns[pc].opd[2].imm, 0x3ff0000000000000ull);
	pc = pc_at(fk, s, "// IMM3");
	if (pc >= 0)
		CHECK_EQ(fk->insns[pc].opd[2].imm, 0);
	pc = pc_at(fk, s, "// IMM4");
	if (pc >= 0) {
		CHECK_EQ(fk->insns[pc].opd[1].imm, 1);
		CHECK_EQ(fk->insns[pc].opd[2].imm, 0);
	}
	pc = pc_at(fk, s, "// DIV");
	if (pc >= 0) {
		CHECK_EQ(fk->insns[pc].unit, UNIT_DP);
		CHECK_EQ(fk->insns[pc].lat, LAT_DIV);
	}
	/* module images */
	int g = ptx_module_find_var(m, "gcount", -1), tb = ptx_module_find_var(m, "tab", -1);
	int cf = ptx_module_find_var(m, "coef", -1), dy = ptx_module_find_var(m, "dyn", -1);
	int sm = ptx_module_find_var(m, "smod", -1), sk = ptx_module_find_var(m, "sk", k);
	int dp = ptx_module_find_var(m, "__local_depot1", k);
	CHECK(g >= 0 && tb >= 0 && cf >= 0 && dy >= 0 && sm >= 0 && sk >= 0 && dp >= 0);
	if (g >= 0 && tb >= 0 && cf >= 0 && dy >= 0 && sm >= 0 && sk >= 0 && dp >= 0) {
		CHECK_EQ(m->vars[g].addr, 0);
		CHECK_EQ(m->vars[tb].addr, 8);
		CHECK_EQ(m->global_image_size, 32);
		CHECK_EQ(m->vars[cf].addr, 0);
		CHECK_EQ(m->const_image_size, 16);
		CHECK_EQ(m->vars[dy].addr, 0);
		CHECK_EQ(m->vars[sm].addr, 0);
		CHECK_EQ(m->shared_module_size, 100);
		CHECK_EQ(m->vars[sk].addr, 100);
		CHECK_EQ(fk->shared_static, 1124);
	}
	/* kernel params: u64 @0, u32 @8, f64 @16 -> 24 */
	CHECK_EQ(fk->nparams, 3);
	if (fk->nparams == 3) {
		CHECK_EQ(m->vars[fk->params[0]].addr, 0);
		CHECK_EQ(m->vars[fk->params[1]].addr, 8);
		CHECK_EQ(m->vars[fk->params[2]].addr, 16);
	}
	CHECK_EQ(fk->kparam_size, 24);
	/* helper frame: b32 param @0, b64 param @8, b32 retval @16 -> 20 -> 32 */
	CHECK_EQ(fh->nparams, 2);
	CHECK_EQ(fh->nrets, 1);
	if (fh->nparams == 2 && fh->nrets == 1) {
		CHECK_EQ(m->vars[fh->params[0]].addr, 0);
		CHECK_EQ(m->vars[fh->params[1]].addr, 8);
		CHECK_EQ(m->vars[fh->rets[0]].addr, 16);
	}
	CHECK_EQ(fh->frame_size, 32);
	/* k frame: param0 (b32) @0, param1 (b64) @8, retval0 @16, depot (align 8) @24 -> 64 */
	if (dp >= 0)
		CHECK_EQ(m->vars[dp].addr, 24);
	CHECK_EQ(fk->frame_size, 64);
	/* registers: most live at once is at selp (%f1, %rd2, %fd1, %fd2 and the
	 * dead %r1 = 8 slots; the sum of all declared registers would be 25);
	 * helper needs 1 */
	CHECK_EQ(ptx_reg_pressure(m, fk), 8);
	CHECK_EQ(ptx_reg_pressure(m, fh), 1);
	CHECK_EQ(fk->regs_per_thread, 8);
	CHECK_EQ(fh->regs_per_thread, 1);
	ptx_module_destroy(m);
}

TEST(cfg_ptx_errors)
{
	static const char bad_float[] = PTX_HEAD
		".visible .entry k()\n"
		"{\n"
		"	.reg .b32 %r<3>;\n"
		"	add.s32 %r1, %r2, 1.5;\n"
		"	ret;\n"
		"}\n";
	struct ptx_error err;
	memset(&err, 0, sizeof err);
	struct ptx_module *m = ptx_parse(bad_float, strlen(bad_float), "bad.ptx", &err);
	if (m) {
		/* either the parser or the analysis rejects it, with the line */
		CHECK(!ptx_analyse(m, &err));
		ptx_module_destroy(m);
	}
	CHECK_EQ(err.line, 7);
	CHECK_STR_CONTAINS(err.file, "bad.ptx");

	static const char no_body[] = PTX_HEAD
		".extern .func (.param .b32 r) ext(.param .b32 a);\n"
		".visible .entry k()\n"
		"{\n"
		"	.reg .b32 %r<3>;\n"
		"	{\n"
		"	.param .b32 p0;\n"
		"	.param .b32 r0;\n"
		"	call.uni (r0), ext, (p0);\n"
		"	}\n"
		"	ret;\n"
		"}\n";
	memset(&err, 0, sizeof err);
	m = ptx_parse(no_body, strlen(no_body), "nobody.ptx", &err);
	CHECK_MSG(m != NULL, "%s", err.msg);
	if (m) {
		CHECK(!ptx_analyse(m, &err));
		CHECK_EQ(err.line, 11);
		CHECK_STR_CONTAINS(err.msg, "ext");
		ptx_module_destroy(m);
	}
}

TEST(cfg_ptx_reg_pressure)
{
	static const char src[] = PTX_HEAD
		".visible .entry straight(.param .u64 p)\n"
		"{\n"
		"	.reg .b32 %r<10>;\n"
		"	.reg .b64 %rd<3>;\n"
		"	ld.param.u64 %rd1, [p];\n"
		"	ld.global.u32 %r1, [%rd1];\n"
		"	ld.global.u32 %r2, [%rd1+4];\n"
		"	ld.global.u32 %r3, [%rd1+8];\n" /* live out: rd1 r1 r2 r3 = 5 slots */
		"	add.s32 %r4, %r1, %r2;\n"
		"	add.s32 %r5, %r4, %r3;\n"
		"	st.global.u32 [%rd1], %r5;\n"
		"	ret;\n"
		"}\n"
		".visible .entry loop(.param .u64 p)\n"
		"{\n"
		"	.reg .pred %p<2>;\n"
		"	.reg .b32 %r<10>;\n"
		"	.reg .b64 %rd<3>;\n"
		"	ld.param.u64 %rd1, [p];\n"
		"	mov.u32 %r3, 7;\n"
		"	mov.u32 %r2, 0;\n"
		"L:\n"
		"	add.s32 %r2, %r2, %r3;\n"
		"	mul.lo.s32 %r4, %r2, %r2;\n"
		"	mul.lo.s32 %r5, %r4, %r4;\n" /* r3 is live around the back edge: rd1 r2 r3 r4 r5 = 6 */
		"	add.s32 %r6, %r5, %r4;\n"
		"	setp.lt.u32 %p1, %r6, 1000;\n"
		"	@%p1 bra L;\n"
		"	st.global.u32 [%rd1], %r2;\n"
		"	ret;\n"
		"}\n"
		".func heavy(.param .b64 hp)\n"
		"{\n"
		"	.reg .b64 %rd<8>;\n"
		"	ld.param.u64 %rd1, [hp];\n"
		"	ld.global.u64 %rd2, [%rd1];\n"
		"	ld.global.u64 %rd3, [%rd1+8];\n"
		"	ld.global.u64 %rd4, [%rd1+16];\n" /* rd1..rd4 live: 8 slots */
		"	add.s64 %rd5, %rd2, %rd3;\n"
		"	add.s64 %rd5, %rd5, %rd4;\n"
		"	st.global.u64 [%rd1], %rd5;\n"
		"	ret;\n"
		"}\n"
		".visible .entry light(.param .u64 p)\n"
		"{\n"
		"	.reg .b64 %rd<2>;\n"
		"	ld.param.u64 %rd1, [p];\n"
		"	{\n"
		"	.param .b64 a0;\n"
		"	st.param.b64 [a0], %rd1;\n"
		"	call.uni heavy, (a0);\n"
		"	}\n"
		"	ret;\n"
		"}\n";
	struct ptx_module *m = parse_analyse(t, src);
	if (!m)
		return;
	int a = ptx_module_find_func(m, "straight"), b = ptx_module_find_func(m, "loop");
	CHECK(a >= 0 && b >= 0);
	if (a >= 0 && b >= 0) {
		CHECK_EQ(ptx_reg_pressure(m, &m->funcs[a]), 5);
		CHECK_EQ(ptx_reg_pressure(m, &m->funcs[b]), 6);
		CHECK_EQ(m->funcs[a].regs_per_thread, 5);
		CHECK_EQ(m->funcs[b].regs_per_thread, 6);
	}
	int hv = ptx_module_find_func(m, "heavy"), lt = ptx_module_find_func(m, "light");
	CHECK(hv >= 0 && lt >= 0);
	if (hv >= 0 && lt >= 0) {
		/* a kernel needs the registers of the functions it calls */
		CHECK_EQ(ptx_reg_pressure(m, &m->funcs[lt]), 2);
		CHECK_EQ(m->funcs[hv].regs_per_thread, 8);
		CHECK_EQ(m->funcs[lt].regs_per_thread, 8);
	}
	ptx_module_destroy(m);
}

TEST(cfg_regs_mutual_recursion)
{
	/* fa and fb call each other (one strongly connected component of the
	 * call graph): both, and the kernel that calls fa, need fb's registers */
	const char *src =
		".version 9.0\n.target sm_75\n.address_size 64\n"
		".func fb(.param .b64 bp);\n"
		".func fa(.param .b64 ap)\n"
		"{\n"
		"	.reg .b64 %rd<2>;\n"
		"	ld.param.u64 %rd1, [ap];\n"
		"	{\n"
		"	.param .b64 a0;\n"
		"	st.param.b64 [a0], %rd1;\n"
		"	call.uni fb, (a0);\n"
		"	}\n"
		"	ret;\n"
		"}\n"
		".func fb(.param .b64 bp)\n"
		"{\n"
		"	.reg .b64 %rd<8>;\n"
		"	ld.param.u64 %rd1, [bp];\n"
		"	ld.global.u64 %rd2, [%rd1];\n"
		"	ld.global.u64 %rd3, [%rd1+8];\n"
		"	ld.global.u64 %rd4, [%rd1+16];\n"
		"	add.s64 %rd5, %rd2, %rd3;\n"
		"	add.s64 %rd5, %rd5, %rd4;\n"
		"	st.global.u64 [%rd1], %rd5;\n"
		"	{\n"
		"	.param .b64 b0;\n"
		"	st.param.b64 [b0], %rd1;\n"
		"	call.uni fa, (b0);\n"
		"	}\n"
		"	ret;\n"
		"}\n"
		".func leaf()\n{\n	ret;\n}\n"
		".visible .entry kk(.param .u64 p)\n"
		"{\n"
		"	.reg .b64 %rd<2>;\n"
		"	ld.param.u64 %rd1, [p];\n"
		"	{\n"
		"	.param .b64 c0;\n"
		"	st.param.b64 [c0], %rd1;\n"
		"	call.uni fa, (c0);\n"
		"	}\n"
		"	call.uni leaf, ();\n"
		"	ret;\n"
		"}\n";
	struct ptx_module *m = parse_analyse(t, src);
	if (!m)
		return;
	int fa = ptx_module_find_func(m, "fa"), fb = ptx_module_find_func(m, "fb"), kk = ptx_module_find_func(m, "kk");
	int leaf = ptx_module_find_func(m, "leaf");
	CHECK(fa >= 0 && fb >= 0 && kk >= 0 && leaf >= 0);
	if (fa >= 0 && fb >= 0 && kk >= 0 && leaf >= 0) {
		uint32_t heavy = ptx_reg_pressure(m, &m->funcs[fb]);
		CHECK(heavy > ptx_reg_pressure(m, &m->funcs[fa]) && heavy > ptx_reg_pressure(m, &m->funcs[kk]));
		CHECK_EQ(m->funcs[fb].regs_per_thread, heavy);
		CHECK_EQ(m->funcs[fa].regs_per_thread, heavy);
		CHECK_EQ(m->funcs[kk].regs_per_thread, heavy);
		CHECK_EQ(m->funcs[leaf].regs_per_thread, 1);
	}
	ptx_module_destroy(m);
}
