/*
 * test_parse.c -- tests of the PTX front end (src/ptx/lexer.c, parser.c and
 * parse_*.c, ir.c).
 *
 * Every construct the parser accepts is checked field by field in the IR it
 * produces (module directives, variables and initializers, functions and
 * parameters, registers and scopes, operands, instruction suffixes, calls,
 * branch tables); malformed input is checked for the exact error position
 * and message; real nvcc output in tests/ptx/good must parse and analyse;
 * every .ptx file in tests/ptx/bad must fail with the location and message given
 * on its first line ("// EXPECT: LINE:COL: MESSAGE"); and hostile input
 * (NUL bytes, truncations, deep nesting, huge counts, random bytes) must be
 * rejected cleanly.  A 100k-instruction module checks linear-time parsing.
 * The tests of errors, of the files in tests/ptx and of hostile and large
 * input are in test_parse_errors.c; the helpers both share in parse_check.c.
 */
#include <stdlib.h>
#include <string.h>

#include "ptx/ir.h"
#include "ptx/lexer.h"
#include "parse_check.h"
#include "test.h"

/* ------------------------------------------------------------ helpers */

static int reg_index(const struct ptx_function *f, const char *name)
{
	for (uint32_t i = 0; i < f->nregs; i++)
		if (strcmp(f->regs[i].name, name) == 0)
			return (int)i;
	return -1;
}

/* the instruction `i` of the only kernel, formatted */
static const char *fmt(const struct ptx_module *m, int fi, uint32_t i, char *buf, size_t n)
{
	ptx_insn_format(m, &m->funcs[fi], &m->funcs[fi].insns[i], buf, n);
	return buf;
}

/* ------------------------------------------------------------ tables */

TEST(parse_opcode_table)
{
	for (int i = 0; i < OP_COUNT; i++) {
		const char *n = ptx_opcode_table[i].name;
		CHECK(n && *n);
		CHECK_EQ(ptx_opcode_lookup(n, strlen(n)), i);
	}
	CHECK_EQ(ptx_opcode_lookup("foo", 3), OP_COUNT);
	CHECK_EQ(ptx_opcode_lookup("addx", 3), OP_ADD);
	CHECK_EQ(ptx_opcode_lookup("ad", 2), OP_COUNT);
	CHECK_EQ(ptx_opcode_table[OP_LD].flags & OPF_LOAD, OPF_LOAD);
	CHECK_EQ(ptx_opcode_table[OP_BAR].unit, UNIT_SP);
	CHECK_EQ(ptx_opcode_table[OP_BAR].lat, LAT_CTRL);
	CHECK_EQ(ptx_opcode_table[OP_RCP].lat, LAT_SFU);
	CHECK(strcmp(ptx_type_name[PTX_T_F16X2], "f16x2") == 0);
	CHECK_EQ(ptx_type_size[PTX_T_B128], 16);
	CHECK_EQ(ptx_type_size[PTX_T_PRED], 1);
	CHECK_EQ(ptx_type_bits(PTX_T_S64), 64);
	CHECK(strcmp(ptx_space_name[SPACE_SHARED], "shared") == 0);
	CHECK(strcmp(ptx_sreg_name[SREG_LANEMASK_GE], "%lanemask_ge") == 0);
	CHECK(strcmp(ptx_sreg_name[SREG_TOTAL_SMEM_SIZE], "%total_smem_size") == 0);
}

TEST(parse_lexer_tokens)
{
	const char *src = "ld.global.L1::evict_last %r1|%p2, [x+-4]; 0f3F800000 0d3FF0000000000000 0x1F 017 0b101 "
			  "7U 1.5 1e-3 \"s\\\"q\" /* c\n */ $L__BB0_2: // tail\n_";
	struct ptx_lexer lx;
	struct ptx_token tk;
	ptx_lexer_init(&lx, src, strlen(src));
	static const int kinds[] = {PTX_TOK_IDENT, PTX_TOK_DIRECTIVE, PTX_TOK_DIRECTIVE, PTX_TOK_IDENT, '|',
				    PTX_TOK_IDENT, ',', '[', PTX_TOK_IDENT, '+', '-', PTX_TOK_INT, ']', ';', PTX_TOK_F32,
				    PTX_TOK_F64, PTX_TOK_INT, PTX_TOK_INT, PTX_TOK_INT, PTX_TOK_INT, PTX_TOK_FLOAT,
				    PTX_TOK_FLOAT, PTX_TOK_STRING, PTX_TOK_IDENT, ':', PTX_TOK_IDENT, PTX_TOK_EOF};
	uint64_t ivals[sizeof(kinds) / sizeof(kinds[0])] = {0};
	ivals[14] = 0x3F800000;
	ivals[15] = 0x3FF0000000000000ull;
	ivals[16] = 0x1F;
	ivals[17] = 017;
	ivals[18] = 5;
	ivals[19] = 7;
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		ptx_lexer_next(&lx, &tk);
		CHECK_MSG(tk.kind == kinds[i], "token %zu: kind %d, wanted %d", i, tk.kind, kinds[i]);
		if (ivals[i])
			CHECK_EQ(tk.ival, ivals[i]);
		if (i == 2)
			CHECK(tk.len == 15 && memcmp(tk.text, ".L1::evict_last", 15) == 0);
		if (i == 2)
			CHECK(!tk.space_before);
		if (i == 3)
			CHECK(tk.space_before);
		if (i == 20)
			CHECK(tk.fval == 1.5);
		if (i == 21)
			CHECK(tk.fval == 1e-3);
		if (i == 23) { /* $L__BB0_2 after a multi-line comment */
			CHECK_EQ(tk.line, 2);
			CHECK_EQ(tk.col, 5);
		}
		if (i == 25)
			CHECK_EQ(tk.line, 3);
	}
	/* overflow is flagged, not wrapped */
	ptx_lexer_init(&lx, "18446744073709551616 18446744073709551615", 41);
	ptx_lexer_next(&lx, &tk);
	CHECK(tk.kind == PTX_TOK_INT && tk.overflow);
	ptx_lexer_next(&lx, &tk);
	CHECK(tk.kind == PTX_TOK_INT && !tk.overflow && tk.ival == UINT64_MAX);
	/* errors stick */
	ptx_lexer_init(&lx, "a /* b", 6);
	ptx_lexer_next(&lx, &tk);
	ptx_lexer_next(&lx, &tk);
	CHECK(tk.kind == PTX_TOK_ERROR && tk.line == 1 && tk.col == 3);
	CHECK_STR_CONTAINS(lx.msg, "unterminated block comment");
	ptx_lexer_next(&lx, &tk);
	CHECK(tk.kind == PTX_TOK_ERROR);
	/* the lexer never reads past len: "0f3F80" cut at 4 bytes */
	ptx_lexer_init(&lx, "0f3F800000", 4);
	ptx_lexer_next(&lx, &tk);
	CHECK(tk.kind == PTX_TOK_ERROR);
}

/* ------------------------------------------------------------ module level */

TEST(parse_module_header)
{
	struct ptx_module *m = PARSE_OK(".version 9.0\n.target sm_75, debug\n.address_size 64\n");
	if (!m)
		return;
	CHECK_EQ(m->version_major, 9);
	CHECK_EQ(m->version_minor, 0);
	CHECK(strcmp(m->target, "sm_75") == 0);
	CHECK_EQ(m->address_size, 64);
	CHECK_EQ(m->nfuncs, 0);
	CHECK(strcmp(m->filename, "t.ptx") == 0);
	ptx_module_destroy(m);
	m = PARSE_OK(".version 7.10\n.target sm_90a\n.address_size 32\n");
	if (m) {
		CHECK_EQ(m->version_minor, 10);
		CHECK(strcmp(m->target, "sm_90a") == 0);
		CHECK_EQ(m->address_size, 32);
		ptx_module_destroy(m);
	}
	/* a UTF-8 byte-order mark is skipped */
	m = PARSE_OK("\xEF\xBB\xBF.version 8.5\n.target sm_75\n");
	if (m) {
		CHECK_EQ(m->version_major, 8);
		ptx_module_destroy(m);
	}
	/* empty input and NULL text are not PTX modules: .version and .target are required */
	struct ptx_error e;
	m = ptx_parse(NULL, 0, NULL, &e);
	CHECK(m == NULL);
	CHECK(strstr(e.msg, "empty file: not a PTX module") != NULL);
	PARSE_ERR("", 1, 1, "empty file: not a PTX module");
	PARSE_ERR("// just a comment\n", 1, 1, "no .version directive: not a PTX module");
	PARSE_ERR(".version 9.0\n", 1, 1, "no .target directive: not a PTX module");
	PARSE_ERR(".target sm_75\n.global .u32 x;\n", 1, 1, "no .version directive");
}

/* versions and targets: known ones load silently, plausible newer ones with a
 * warning naming the known range, impossible ones are errors */
TEST(parse_version_target_range)
{
	struct ptx_module *m = PARSE_OK(".version 9.0\n.target sm_120\n");
	if (m) {
		CHECK(m->warnings[0] == 0);
		ptx_module_destroy(m);
	}
	m = PARSE_OK(".version 9.3\n.target sm_75\n");
	if (m) {
		CHECK(strstr(m->warnings, "t.ptx:1:10: warning: PTX ISA version 9.3 is newer than warpsim knows (1.0 to 9.0)"));
		ptx_module_destroy(m);
	}
	m = PARSE_OK(".version 8.0\n.target sm_150, debug\n");
	if (m) {
		CHECK(strstr(m->warnings, "t.ptx:2:9: warning: target 'sm_150' is not an architecture warpsim knows "
		                          "(sm_10 to sm_121)"));
		ptx_module_destroy(m);
	}
	PARSE_ERR(".version 99.9\n.target sm_75\n", 1, 10, "PTX ISA version 99.9 does not exist");
	PARSE_ERR(".version 0.1\n.target sm_75\n", 1, 10, "PTX ISA version 0.1 does not exist");
	PARSE_ERR(".version 9.100\n.target sm_75\n", 1, 10, "PTX ISA version 9.100 does not exist");
	PARSE_ERR(".version 9.0\n.target sm_1000\n", 2, 9, "target 'sm_1000' does not exist");
	PARSE_ERR(".version 9.0\n.target sm_9\n", 2, 9, "target 'sm_9' does not exist");
	PARSE_ERR(".version 9.0\n.target gpu\n", 2, 9, "unknown target 'gpu'");
	PARSE_ERR(".version 9.0\n.target sm_75, fast\n", 2, 16, "unknown .target option 'fast'");
	PARSE_ERR(".version 9.0\n.version 9.0\n.target sm_75\n", 2, 1, "a second .version directive");
	PARSE_ERR(".version 9.0\n.target sm_75\n.target sm_80\n", 3, 1, "a second .target directive");
}

TEST(parse_variables)
{
	struct ptx_module *m = PARSE_OK(
		HDR ".global .align 4 .u32 gcount;\n"
		".const .align 4 .b8 coef[16] = {0, 0, 128, 63, 0, 0, 0, 64};\n"
		".extern .shared .align 16 .b8 dyn[];\n"
		".shared .align 4 .b8 tile[4][8];\n"
		".global .align 4 .b32 m2[2][3] = {{1, 2}, {4, 5, 6}};\n"
		".global .f64 dbl[] = {1.5, -2, 1e-3, 0d3FF0000000000000};\n"
		".global .f32 flt[3] = {0f3F800000, 2.5, -1};\n"
		".global .s16 neg[2] = {-1, -32768};\n"
		".const .f32 cf = 0f40200000;\n"
		".global .v2 .u32 vv = {7, 8};\n"
		".global .attribute(.managed) .align 8 .u64 mg;\n"
		".visible .global .u32 a1, a2[4];\n"
		".global .align 1 .b8 $str[7] = {104, 105, 0};\n"
		".global .b128 w[2] = {-1, 5};\n"
		".common .global .align 4 .u32 cm;\n");
	if (!m)
		return;
	CHECK_EQ(m->nvars, 16);
	CHECK(ptx_module_find_var(m, "cm", -1) >= 0);
	int i = ptx_module_find_var(m, "gcount", -1);
	CHECK(i >= 0);
	if (i >= 0) {
		struct ptx_var *v = &m->vars[i];
		CHECK_EQ(v->space, SPACE_GLOBAL);
		CHECK_EQ(v->type, PTX_T_U32);
		CHECK_EQ(v->size, 4);
		CHECK_EQ(v->align, 4);
		CHECK_EQ(v->func, -1);
		CHECK(v->init == NULL);
		CHECK_EQ(v->line, 4);
		CHECK_EQ(v->col, 23);
	}
	i = ptx_module_find_var(m, "coef", -1);
	if (i >= 0) {
		struct ptx_var *v = &m->vars[i];
		CHECK_EQ(v->space, SPACE_CONST);
		CHECK_EQ(v->size, 16);
		CHECK(v->init && v->init[2] == 128 && v->init[3] == 63 && v->init[7] == 64 && v->init[15] == 0);
	}
	i = ptx_module_find_var(m, "dyn", -1);
	if (i >= 0) {
		CHECK_EQ(m->vars[i].is_extern, 1);
		CHECK_EQ(m->vars[i].size, 0);
		CHECK_EQ(m->vars[i].align, 16);
		CHECK_EQ(m->vars[i].space, SPACE_SHARED);
	}
	i = ptx_module_find_var(m, "tile", -1);
	if (i >= 0)
		CHECK_EQ(m->vars[i].size, 32);
	i = ptx_module_find_var(m, "m2", -1);
	if (i >= 0 && m->vars[i].init) {
		static const uint32_t want[6] = {1, 2, 0, 4, 5, 6};
		CHECK_EQ(m->vars[i].size, 24);
		for (int k = 0; k < 6; k++) {
			uint32_t w;
			memcpy(&w, m->vars[i].init + 4 * k, 4);
			CHECK_EQ(w, want[k]);
		}
	}
	i = ptx_module_find_var(m, "dbl", -1);
	if (i >= 0 && m->vars[i].init) {
		double d[4];
		CHECK_EQ(m->vars[i].size, 32);
		memcpy(d, m->vars[i].init, 32);
		CHECK(d[0] == 1.5 && d[1] == -2.0 && d[2] == 1e-3 && d[3] == 1.0);
	}
	i = ptx_module_find_var(m, "flt", -1);
	if (i >= 0 && m->vars[i].init) {
		float f[3];
		memcpy(f, m->vars[i].init, 12);
		CHECK(f[0] == 1.0f && f[1] == 2.5f && f[2] == -1.0f);
	}
	i = ptx_module_find_var(m, "neg", -1);
	if (i >= 0 && m->vars[i].init) {
		int16_t s[2];
		memcpy(s, m->vars[i].init, 4);
		CHECK(s[0] == -1 && s[1] == -32768);
	}
	i = ptx_module_find_var(m, "cf", -1);
	if (i >= 0 && m->vars[i].init) {
		float f;
		memcpy(&f, m->vars[i].init, 4);
		CHECK(f == 2.5f);
		CHECK_EQ(m->vars[i].size, 4);
	}
	i = ptx_module_find_var(m, "vv", -1);
	if (i >= 0 && m->vars[i].init) {
		CHECK_EQ(m->vars[i].size, 8);
		CHECK_EQ(m->vars[i].align, 8);
		CHECK_EQ(m->vars[i].init[4], 8);
	}
	i = ptx_module_find_var(m, "a2", -1);
	if (i >= 0)
		CHECK_EQ(m->vars[i].size, 16);
	i = ptx_module_find_var(m, "$str", -1);
	if (i >= 0 && m->vars[i].init)
		CHECK(m->vars[i].size == 7 && m->vars[i].init[1] == 105 && m->vars[i].init[6] == 0);
	i = ptx_module_find_var(m, "w", -1);
	if (i >= 0 && m->vars[i].init) {
		CHECK_EQ(m->vars[i].size, 32);
		CHECK(m->vars[i].init[0] == 0xff && m->vars[i].init[15] == 0xff && m->vars[i].init[16] == 5 &&
		      m->vars[i].init[17] == 0 && m->vars[i].init[31] == 0);
	}
	CHECK(ptx_module_find_var(m, "mg", -1) >= 0);
	CHECK_EQ(ptx_module_find_var(m, "nope", -1), -1);
	ptx_module_destroy(m);
}

TEST(parse_symbol_initializers)
{
	struct ptx_module *m = PARSE_OK(
		HDR ".func (.param .b32 func_retval0) _Z2f1i(.param .b32 _Z2f1i_param_0);\n"
		".global .align 4 .b8 gx[16];\n"
		".global .align 8 .u64 gs[3] = {1, generic(gx)+4, 3};\n"
		".global .align 8 .u64 ftab[2] = {_Z2f1i, later};\n"
		".global .align 1 .u8 gp[12] = {1, 0XFF(generic(gx)+4), 0xFF00(generic(gx)+4), 0xFF0000(generic(gx)+4), "
		"0xFF000000(generic(gx)+4), 0xFF00000000(generic(gx)+4), 0xFF0000000000(generic(gx)+4), "
		"0xFF000000000000(generic(gx)+4), 0xFF00000000000000(generic(gx)+4), 1, 2, 3};\n"
		".global .u32 p32[2] = {gx-8, gx};\n"
		".func later() { ret; }\n"
		".func (.param .b32 func_retval0) _Z2f1i(.param .b32 p) { st.param.b32 [func_retval0], 1; ret; }\n");
	if (!m)
		return;
	int gx = ptx_module_find_var(m, "gx", -1);
	int f1 = ptx_module_find_func(m, "_Z2f1i"), later = ptx_module_find_func(m, "later");
	CHECK(gx >= 0 && f1 >= 0 && later >= 0);
	int i = ptx_module_find_var(m, "gs", -1);
	if (i >= 0) {
		struct ptx_var *v = &m->vars[i];
		CHECK_EQ(v->ninit_syms, 1);
		if (v->ninit_syms == 1) {
			CHECK_EQ(v->init_syms[0].byte_off, 8);
			CHECK_EQ(v->init_syms[0].sym, gx);
			CHECK_EQ(v->init_syms[0].func, -1);
			CHECK_EQ(v->init_syms[0].add, 4);
			CHECK_EQ(v->init_syms[0].width, 8);
		}
		CHECK(v->init && v->init[0] == 1 && v->init[16] == 3);
	}
	i = ptx_module_find_var(m, "ftab", -1);
	if (i >= 0 && m->vars[i].ninit_syms == 2) {
		CHECK_EQ(m->vars[i].init_syms[0].func, f1);
		CHECK_EQ(m->vars[i].init_syms[0].sym, -1);
		CHECK_EQ(m->vars[i].init_syms[1].func, later);
		CHECK_EQ(m->vars[i].init_syms[1].byte_off, 8);
	} else {
		CHECK(0);
	}
	/* the eight address-byte masks collapse into one 8-byte symbol address */
	i = ptx_module_find_var(m, "gp", -1);
	if (i >= 0 && m->vars[i].ninit_syms == 1) {
		struct ptx_init_sym *s = &m->vars[i].init_syms[0];
		CHECK_EQ(s->byte_off, 1);
		CHECK_EQ(s->width, 8);
		CHECK_EQ(s->sym, gx);
		CHECK_EQ(s->add, 4);
		CHECK(m->vars[i].init[0] == 1 && m->vars[i].init[9] == 1 && m->vars[i].init[11] == 3);
	} else {
		CHECK(0);
	}
	i = ptx_module_find_var(m, "p32", -1);
	if (i >= 0 && m->vars[i].ninit_syms == 2) {
		CHECK_EQ(m->vars[i].init_syms[0].width, 4);
		CHECK_EQ(m->vars[i].init_syms[0].add, -8);
		CHECK_EQ(m->vars[i].init_syms[1].byte_off, 4);
	} else {
		CHECK(0);
	}
	/* the prototype's parameter was renamed by the definition */
	CHECK_EQ(m->funcs[f1].nparams, 1);
	CHECK(strcmp(m->vars[m->funcs[f1].params[0]].name, "p") == 0);
	CHECK_EQ(m->funcs[f1].is_extern, false);
	check_ir(t, m, "syminit");
	ptx_module_destroy(m);
}

TEST(parse_functions_and_params)
{
	struct ptx_module *m = PARSE_OK(
		HDR ".extern .func (.param .b32 func_retval0) vprintf\n(\n.param .b64 vprintf_param_0,\n"
		"\t.param .b64 vprintf_param_1\n)\n;\n"
		".weak .func wf();\n"
		".func (.param .align 8 .b8 func_retval0[16]) big(.param .align 8 .b8 big_param_0[32], .param .f32 x)\n"
		".noreturn\n{\n ret;\n}\n"
		".visible .entry kern(\n\t.param .u64 .ptr.global.align 16 kern_param_0,\n\t.param .align 8 .b8 "
		"kern_param_1[16],\n\t.param .u32 kern_param_2\n)\n.maxntid 256, 1, 1\n.minnctapersm 2\n{\n ret;\n}\n"
		".entry k2 .reqntid 64, 2 .maxnreg 32 .explicitcluster .reqnctapercluster 2, 1, 1 .maxnctapersm 4 { exit; }\n"
		".entry k3() {}\n");
	if (!m)
		return;
	CHECK_EQ(m->nfuncs, 6);
	int vp = ptx_module_find_func(m, "vprintf");
	if (vp >= 0) {
		struct ptx_function *f = &m->funcs[vp];
		CHECK(f->is_extern && !f->is_entry);
		CHECK_EQ(f->nrets, 1);
		CHECK_EQ(f->nparams, 2);
		CHECK_EQ(f->ninsns, 0);
		struct ptx_var *r = &m->vars[f->rets[0]];
		CHECK(r->is_fparam && r->is_retval && !r->is_kparam && r->space == SPACE_PARAM && r->func == vp);
		struct ptx_var *p1 = &m->vars[f->params[1]];
		CHECK(p1->is_fparam && !p1->is_retval && p1->type == PTX_T_B64 && p1->size == 8);
		CHECK(strcmp(p1->name, "vprintf_param_1") == 0);
	}
	int wf = ptx_module_find_func(m, "wf");
	CHECK(wf >= 0 && m->funcs[wf].is_extern && m->funcs[wf].nparams == 0);
	int big = ptx_module_find_func(m, "big");
	if (big >= 0) {
		struct ptx_function *f = &m->funcs[big];
		CHECK(!f->is_extern);
		CHECK_EQ(m->vars[f->rets[0]].size, 16);
		CHECK_EQ(m->vars[f->rets[0]].align, 8);
		CHECK_EQ(m->vars[f->params[0]].size, 32);
		CHECK_EQ(m->vars[f->params[0]].type, PTX_T_B8);
		CHECK_EQ(m->vars[f->params[1]].type, PTX_T_F32);
		CHECK_EQ(f->ninsns, 1);
	}
	int k = ptx_module_find_func(m, "kern");
	if (k >= 0) {
		struct ptx_function *f = &m->funcs[k];
		CHECK(f->is_entry && f->is_visible && !f->is_extern);
		CHECK_EQ(f->nparams, 3);
		CHECK_EQ(f->nrets, 0);
		struct ptx_var *p0 = &m->vars[f->params[0]];
		CHECK(p0->is_kparam && !p0->is_fparam && p0->type == PTX_T_U64 && p0->align == 16 && p0->size == 8);
		struct ptx_var *p1 = &m->vars[f->params[1]];
		CHECK(p1->is_kparam && p1->size == 16 && p1->align == 8);
		CHECK_EQ(f->maxntid[0], 256);
		CHECK_EQ(f->maxntid[1], 1);
		CHECK_EQ(f->maxntid[2], 1);
		CHECK_EQ(f->minnctapersm, 2);
		CHECK_EQ(f->reqntid[0], 0);
		CHECK_EQ(ptx_module_find_var(m, "kern_param_2", k), f->params[2]);
		CHECK_EQ(ptx_module_find_var(m, "kern_param_2", -1), -1);
	}
	int k2 = ptx_module_find_func(m, "k2");
	if (k2 >= 0) {
		struct ptx_function *f = &m->funcs[k2];
		CHECK(f->is_entry && !f->is_visible);
		CHECK(f->reqntid[0] == 64 && f->reqntid[1] == 2 && f->reqntid[2] == 1);
		CHECK_EQ(f->maxnreg, 32);
		CHECK_EQ(f->ninsns, 1);
		CHECK_EQ(f->insns[0].op, OP_EXIT);
	}
	int k3 = ptx_module_find_func(m, "k3");
	CHECK(k3 >= 0 && m->funcs[k3].ninsns == 0 && !m->funcs[k3].is_extern);
	CHECK_EQ(ptx_module_find_func(m, "nope"), -1);
	ptx_module_destroy(m);
}

TEST(parse_registers_and_scopes)
{
	struct ptx_module *m = PARSE_OK(KERNEL(
		".reg .b32 %x, %y<3>, plain;\n"
		"mov.u32 %r31, %x;\n"
		"{\n"
		"  .reg .pred %p1;\n"
		"  .reg .b32 %r5;\n"
		"  setp.ne.u32 %p1, %r5, 0;\n"
		"  { .reg .pred %p1; @%p1 mov.u32 %y2, plain; }\n"
		"}\n"
		"@%p1 mov.u32 %r5, 1;\n"
		"{ .reg .pred %p1; mov.pred %p1, 1; }\n"));
	if (!m)
		return;
	struct ptx_function *f = &m->funcs[0];
	/* 8 + 32 + 16 + 16 + 8 + 4 ranges, %x %y0..2 plain, then 2 + 1 + 1 block registers */
	CHECK_EQ(f->nregs, 84 + 5 + 4);
	CHECK_EQ(reg_index(f, "%r31"), 8 + 31);
	CHECK_EQ(f->regs[reg_index(f, "%fd7")].type, PTX_T_F64);
	CHECK_EQ(f->regs[reg_index(f, "%h0")].type, PTX_T_B16);
	CHECK_EQ(f->regs[reg_index(f, "%p0")].type, PTX_T_PRED);
	int outer_p1 = reg_index(f, "%p1"), outer_r5 = reg_index(f, "%r5");
	CHECK_EQ(f->ninsns, 5);
	/* mov.u32 %r31, %x */
	CHECK_EQ(f->insns[0].opd[1].reg, 84);
	/* inside the block %p1 and %r5 are the block's own registers */
	int in_p1 = f->insns[1].opd[0].reg, in_r5 = f->insns[1].opd[1].reg;
	CHECK(in_p1 != outer_p1 && in_p1 >= 89);
	CHECK(in_r5 != outer_r5 && in_r5 >= 89);
	CHECK(strcmp(f->regs[in_p1].name, "%p1") == 0);
	CHECK_EQ(f->regs[in_r5].type, PTX_T_B32);
	/* the innermost block's %p1 guards the mov; plain resolves outward */
	CHECK(f->insns[2].guard >= 0 && f->insns[2].guard != in_p1 && f->insns[2].guard != outer_p1);
	CHECK_EQ(f->insns[2].opd[0].reg, reg_index(f, "%y2"));
	CHECK_EQ(f->insns[2].opd[1].reg, reg_index(f, "plain"));
	/* after the block the outer registers are visible again */
	CHECK_EQ(f->insns[3].guard, outer_p1);
	CHECK_EQ(f->insns[3].opd[0].reg, outer_r5);
	/* a later block gets yet another %p1 */
	CHECK(f->insns[4].opd[0].reg != outer_p1 && f->insns[4].opd[0].reg != in_p1);
	check_ir(t, m, "scopes");
	ptx_module_destroy(m);
}

TEST(parse_labels_and_branches)
{
	struct ptx_module *m = PARSE_OK(KERNEL(
		"@%p1 bra $L__BB0_2;\n"
		"$L__BB0_1:\n"
		"add.s32 %r1, %r1, 1;\n"
		"$L__BB0_2: @!%p2 bra.uni $L__BB0_1;\n"
		"L_a:\nL_b:\n"
		"bra L_end;\n"
		"ts: .branchtargets $L__BB0_1, L_b, L_end;\n"
		"brx.idx %r2, ts;\n"
		"L_end:\n"));
	if (!m)
		return;
	struct ptx_function *f = &m->funcs[0];
	CHECK_EQ(f->ninsns, 5);
	struct ptx_insn *in = &f->insns[0];
	CHECK_EQ(in->op, OP_BRA);
	CHECK_EQ(in->guard, reg_index(f, "%p1"));
	CHECK_EQ(in->guard_neg, 0);
	CHECK_EQ(in->opd[0].kind, OPD_LABEL);
	CHECK_EQ(in->opd[0].target, 2);
	CHECK_EQ(in->line, BODY_LINE);
	CHECK_EQ(in->col, 6);
	in = &f->insns[2];
	CHECK_EQ(in->guard, reg_index(f, "%p2"));
	CHECK_EQ(in->guard_neg, 1);
	CHECK_EQ(in->flags, FLAG_UNI);
	CHECK_EQ(in->opd[0].target, 1);
	CHECK_EQ(f->insns[3].opd[0].target, 5); /* label at the end of the body */
	in = &f->insns[4];
	CHECK_EQ(in->op, OP_BRX);
	CHECK_EQ(in->mode, MODE_IDX);
	CHECK_EQ(in->nopd, 2);
	CHECK_EQ(in->opd[0].kind, OPD_REG);
	CHECK_EQ(in->opd[1].kind, OPD_LIST);
	CHECK_EQ(in->opd[1].nlist, 3);
	if (in->opd[1].nlist == 3) {
		CHECK_EQ(in->opd[1].list[0], 1);
		CHECK_EQ(in->opd[1].list[1], 3);
		CHECK_EQ(in->opd[1].list[2], 5);
	}
	for (uint32_t i = 0; i < f->ninsns; i++) {
		CHECK_EQ(f->insns[i].reconv, -1);
		CHECK_EQ(f->insns[i].callee, -1);
	}
	ptx_module_destroy(m);
}

TEST(parse_operands)
{
	struct ptx_module *m = PARSE_OK(KERNEL(
		"mov.u32 %r1, %tid.x;\n"                             /* 0 */
		"mov.u32 %r1, %ctaid.z;\n"                           /* 1 */
		"mov.u32 %r1, %laneid;\n"                            /* 2 */
		"mov.u64 %rd1, %clock64;\n"                          /* 3 */
		"mov.u64 %rd1, gv;\n"                                /* 4 */
		"mov.u64 %rd1, k;\n"                                 /* 5: a function (the kernel itself) */
		"mov.u64 %rd1, gv+8;\n"                              /* 6 */
		"mov.f32 %f1, 0f3F800000;\n"                         /* 7 */
		"mov.f64 %fd1, 0dBFF0000000000000;\n"                /* 8 */
		"mov.f64 %fd1, 1.5;\n"                               /* 9 */
		"mov.f32 %f1, 1e-3;\n"                               /* 10 */
		"add.s32 %r1, %r2, -5;\n"                            /* 11 */
		"add.u64 %rd1, %rd2, 0xFFFFFFFFFFFFFFFF;\n"          /* 12 */
		"add.u32 %r1, %r2, 017;\n"                           /* 13 */
		"add.u32 %r1, %r2, 0b1011;\n"                        /* 14 */
		"add.u32 %r1, %r2, 42U;\n"                           /* 15 */
		"add.s64 %rd1, %rd2, -9223372036854775808;\n"        /* 16 */
		"mov.b64 %rd1, {%r1, %r2};\n"                        /* 17 */
		"mov.b64 {%r1, %r2}, %rd1;\n"                        /* 18 */
		"ld.global.v4.u32 {%r1, _, %r3, _}, [%rd1];\n"       /* 19 */
		"st.global.v2.u32 [%rd1+8], {%r1, 7};\n"             /* 20 */
		"ld.global.u32 %r1, [%rd1+-4];\n"                    /* 21 */
		"ld.global.u32 %r1, [%rd1-12];\n"                    /* 22 */
		"ld.global.u32 %r1, [gv];\n"                         /* 23 */
		"ld.global.u32 %r1, [gv+4];\n"                       /* 24 */
		"ld.global.u32 %r1, [100];\n"                        /* 25 */
		"ld.param.u64 %rd1, [k_p0];\n"                       /* 26 */
		"shfl.sync.bfly.b32 %r1|%p1, %r2, 1, 31, -1;\n"      /* 27 */
		"setp.lt.s32 %p1|%p2, %r1, %r2;\n"                   /* 28 */
		"selp.b32 %r1, %r2, %r3, !%p3;\n"                    /* 29 */
		"st.global.f32 [%rd1], 0f00000000;\n"                /* 30 */
		"mov.u32 %r1, %nctaid.y;\n"));                       /* 31 */
	if (!m)
		return;
	struct ptx_function *f = &m->funcs[0];
	struct ptx_insn *I = f->insns;
	CHECK_EQ(f->ninsns, 32);
	int gv = ptx_module_find_var(m, "gv", -1);
	CHECK(I[0].opd[1].kind == OPD_SREG && I[0].opd[1].sreg == SREG_TID && I[0].opd[1].comp == 0);
	CHECK(I[1].opd[1].kind == OPD_SREG && I[1].opd[1].sreg == SREG_CTAID && I[1].opd[1].comp == 2);
	CHECK(I[2].opd[1].kind == OPD_SREG && I[2].opd[1].sreg == SREG_LANEID && I[2].opd[1].comp == 0);
	CHECK(I[3].opd[1].kind == OPD_SREG && I[3].opd[1].sreg == SREG_CLOCK64);
	CHECK(I[31].opd[1].sreg == SREG_NCTAID && I[31].opd[1].comp == 1);
	CHECK(I[4].opd[1].kind == OPD_SYM && I[4].opd[1].sym == gv && I[4].opd[1].offset == 0);
	CHECK(I[5].opd[1].kind == OPD_FUNC && I[5].opd[1].func == 0);
	CHECK(I[6].opd[1].kind == OPD_SYM && I[6].opd[1].offset == 8);
	CHECK(I[7].opd[1].kind == OPD_IMM && I[7].opd[1].imm_kind == IMM_F32 && I[7].opd[1].imm == 0x3F800000);
	CHECK(I[8].opd[1].imm_kind == IMM_F64 && I[8].opd[1].imm == 0xBFF0000000000000ull);
	CHECK(I[9].opd[1].imm_kind == IMM_F64 && I[9].opd[1].imm == 0x3FF8000000000000ull);
	{
		double d = 1e-3;
		uint64_t b;
		memcpy(&b, &d, 8);
		CHECK(I[10].opd[1].imm_kind == IMM_F64 && I[10].opd[1].imm == b);
	}
	CHECK(I[11].opd[2].kind == OPD_IMM && I[11].opd[2].imm_kind == IMM_INT && I[11].opd[2].imm == (uint64_t)-5);
	CHECK_EQ(I[12].opd[2].imm, UINT64_MAX);
	CHECK_EQ(I[13].opd[2].imm, 15);
	CHECK_EQ(I[14].opd[2].imm, 11);
	CHECK_EQ(I[15].opd[2].imm, 42);
	CHECK_EQ(I[16].opd[2].imm, 0x8000000000000000ull);
	CHECK(I[17].opd[1].kind == OPD_VEC && I[17].opd[1].nelem == 2 && I[17].opd[1].elem[0].kind == OPD_REG);
	CHECK_EQ(I[17].opd[1].elem[1].reg, reg_index(f, "%r2"));
	CHECK(I[18].opd[0].kind == OPD_VEC && I[18].opd[0].nelem == 2 && I[18].opd[1].kind == OPD_REG);
	CHECK(I[19].vec == 4 && I[19].opd[0].nelem == 4 && I[19].opd[0].elem[1].kind == OPD_SINK &&
	      I[19].opd[0].elem[3].kind == OPD_SINK && I[19].opd[0].elem[2].reg == reg_index(f, "%r3"));
	CHECK(I[20].vec == 2 && I[20].opd[0].kind == OPD_ADDR && I[20].opd[0].offset == 8);
	CHECK(I[20].opd[1].elem[1].kind == OPD_IMM && I[20].opd[1].elem[1].imm == 7);
	CHECK(I[21].opd[1].abase == ABASE_REG && I[21].opd[1].reg == reg_index(f, "%rd1") && I[21].opd[1].offset == -4);
	CHECK_EQ(I[22].opd[1].offset, -12);
	CHECK(I[23].opd[1].abase == ABASE_SYM && I[23].opd[1].sym == gv && I[23].opd[1].offset == 0);
	CHECK(I[24].opd[1].abase == ABASE_SYM && I[24].opd[1].offset == 4);
	CHECK(I[25].opd[1].abase == ABASE_NONE && I[25].opd[1].offset == 100);
	CHECK(I[26].opd[1].abase == ABASE_SYM && m->vars[I[26].opd[1].sym].is_kparam);
	CHECK_EQ(I[27].nopd, 5);
	CHECK(I[27].opd[0].reg == reg_index(f, "%r1") && I[27].opd[0].reg2 == reg_index(f, "%p1"));
	CHECK(I[27].opd[4].imm == UINT64_MAX && I[27].opd[2].imm == 1);
	CHECK(I[28].opd[0].reg == reg_index(f, "%p1") && I[28].opd[0].reg2 == reg_index(f, "%p2"));
	CHECK(I[29].opd[3].kind == OPD_REG && I[29].opd[3].neg == 1 && I[29].opd[3].reg == reg_index(f, "%p3"));
	CHECK(I[29].opd[1].neg == 0 && I[29].opd[1].reg2 == -1);
	CHECK(I[30].opd[1].kind == OPD_IMM && I[30].opd[1].imm_kind == IMM_F32);
	/* unused operand slots are clean */
	CHECK(I[0].nopd == 2 && I[0].opd[2].kind == OPD_NONE && I[0].opd[2].reg == -1);
	CHECK_EQ(I[0].guard, -1);
	check_ir(t, m, "operands");
	ptx_module_destroy(m);
}

TEST(parse_all_special_registers)
{
	for (int i = 0; i < SREG_COUNT; i++) {
		bool vec = i == SREG_TID || i == SREG_NTID || i == SREG_CTAID || i == SREG_NCTAID;
		bool ix = ptx_sreg_indexed((unsigned)i); /* %envreg0..31, %reserved_smem_offset_0..1 */
		for (int c = 0; c < (vec ? 3 : ix ? (i == SREG_ENVREG ? 32 : 2) : 1); c++) {
			char src[512], sfx[8] = "";
			if (vec)
				snprintf(sfx, sizeof sfx, ".%c", "xyz"[c]);
			else if (ix)
				snprintf(sfx, sizeof sfx, "%d", c);
			snprintf(src, sizeof src,
				 HDR ".entry k() {\n.reg .b64 %%rd1;\n.reg .b32 %%r1;\nmov.u64 %%rd1, %s%s;\nmov.u32 %%r1, %s%s;\n}\n",
				 ptx_sreg_name[i], sfx, ptx_sreg_name[i], sfx);
			struct ptx_module *m = PARSE_OK(src);
			if (!m)
				continue;
			for (int k = 0; k < 2; k++) {
				const struct ptx_operand *o = &m->funcs[0].insns[k].opd[1];
				CHECK_MSG(o->kind == OPD_SREG && o->sreg == i && o->comp == c, "%s: kind %u sreg %u comp %u",
					  ptx_sreg_name[i], o->kind, o->sreg, o->comp);
			}
			ptx_module_destroy(m);
		}
	}
	/* components only on the vector ones, and only x/y/z */
	PARSE_ERR(KERNEL("mov.u32 %r1, %laneid.x;"), BODY_LINE, 21, "special register '%laneid' has no components");
	PARSE_ERR(KERNEL("mov.u32 %r1, %tid.w;"), BODY_LINE, 14, "needs a component (.x, .y or .z)");
	PARSE_ERR(KERNEL("mov.u32 %r1, %clusterid.x;"), BODY_LINE, 14, "register '%clusterid' is not declared");
	/* indexed ones only within their range */
	PARSE_ERR(KERNEL("mov.u32 %r1, %envreg32;"), BODY_LINE, 14, "register '%envreg32' is not declared");
	PARSE_ERR(KERNEL("mov.u32 %r1, %envreg;"), BODY_LINE, 14, "register '%envreg' is not declared");
	PARSE_ERR(KERNEL("mov.u32 %r1, %envreg01;"), BODY_LINE, 14, "register '%envreg01' is not declared");
	PARSE_ERR(KERNEL("mov.u32 %r1, %reserved_smem_offset_2;"), BODY_LINE, 14, "is not declared");
}

/* One instruction, and the fields its suffixes must produce. */
struct sfx_case {
	const char *text;
	uint16_t op;
	uint8_t type, type2, space, vec, cmp, boolop, rnd, atomop, mode, sem, scope;
	uint32_t flags;
	uint8_t nopd;
};

static const struct sfx_case sfx_cases[] = {
	{"mul.wide.s32 %rd1, %r1, %r2;", OP_MUL, PTX_T_S32, 0, 0, 1, 0, 0, 0, 0, MODE_WIDE, 0, 0, 0, 3},
	{"mad.lo.s32 %r1, %r2, %r3, %r4;", OP_MAD, PTX_T_S32, 0, 0, 1, 0, 0, 0, 0, MODE_LO, 0, 0, 0, 4},
	{"mul.hi.u64 %rd1, %rd2, %rd3;", OP_MUL, PTX_T_U64, 0, 0, 1, 0, 0, 0, 0, MODE_HI, 0, 0, 0, 3},
	{"mul.rn.f32 %f1, %f2, %f3;", OP_MUL, PTX_T_F32, 0, 0, 1, 0, 0, RND_RN, 0, 0, 0, 0, 0, 3},
	{"cvt.rn.f32.s32 %f1, %r1;", OP_CVT, PTX_T_F32, PTX_T_S32, 0, 1, 0, 0, RND_RN, 0, 0, 0, 0, 0, 2},
	{"cvt.rzi.s32.f32 %r1, %f1;", OP_CVT, PTX_T_S32, PTX_T_F32, 0, 1, 0, 0, RND_RZI, 0, 0, 0, 0, 0, 2},
	{"cvt.sat.f32.f32 %f1, %f2;", OP_CVT, PTX_T_F32, PTX_T_F32, 0, 1, 0, 0, 0, 0, 0, 0, 0, FLAG_SAT, 2},
	{"cvt.u64.u32 %rd1, %r1;", OP_CVT, PTX_T_U64, PTX_T_U32, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 2},
	{"cvt.rn.ftz.f16.f32 %h1, %f1;", OP_CVT, PTX_T_F16, PTX_T_F32, 0, 1, 0, 0, RND_RN, 0, 0, 0, 0, FLAG_FTZ, 2},
	{"setp.ltu.f32 %p1, %f1, %f2;", OP_SETP, PTX_T_F32, 0, 0, 1, CMP_LTU, 0, 0, 0, 0, 0, 0, 0, 3},
	{"setp.eq.and.s32 %p1, %r1, %r2, %p2;", OP_SETP, PTX_T_S32, 0, 0, 1, CMP_EQ, BOOL_AND, 0, 0, 0, 0, 0, 0, 4},
	{"setp.hs.u32 %p1, %r1, %r2;", OP_SETP, PTX_T_U32, 0, 0, 1, CMP_HS, 0, 0, 0, 0, 0, 0, 0, 3},
	{"setp.nan.ftz.f32 %p1, %f1, %f2;", OP_SETP, PTX_T_F32, 0, 0, 1, CMP_NAN, 0, 0, 0, 0, 0, 0, FLAG_FTZ, 3},
	{"set.lt.u32.f32 %r1, %f1, %f2;", OP_SET, PTX_T_U32, PTX_T_F32, 0, 1, CMP_LT, 0, 0, 0, 0, 0, 0, 0, 3},
	{"selp.b32 %r1, %r2, %r3, %p1;", OP_SELP, PTX_T_B32, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 4},
	{"slct.s32.f32 %r1, %r2, %r3, %f1;", OP_SLCT, PTX_T_S32, PTX_T_F32, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 4},
	{"ld.global.nc.v4.f32 {%f1, %f2, %f3, %f4}, [%rd1];", OP_LD, PTX_T_F32, 0, SPACE_GLOBAL, 4, 0, 0, 0, 0, 0, 0, 0,
	 FLAG_NC, 2},
	{"ld.volatile.shared.u32 %r1, [%r2];", OP_LD, PTX_T_U32, 0, SPACE_SHARED, 1, 0, 0, 0, 0, 0, 0, 0, FLAG_VOLATILE, 2},
	{"ld.global.L1::evict_last.u32 %r1, [%rd1];", OP_LD, PTX_T_U32, 0, SPACE_GLOBAL, 1, 0, 0, 0, 0, 0, 0, 0, 0, 2},
	{"ld.global.nc.L1::no_allocate.L2::128B.v2.u32 {%r1, %r2}, [%rd1];", OP_LD, PTX_T_U32, 0, SPACE_GLOBAL, 2, 0, 0,
	 0, 0, 0, 0, 0, FLAG_NC, 2},
	{"ld.global.ca.u32 %r1, [%rd1];", OP_LD, PTX_T_U32, 0, SPACE_GLOBAL, 1, 0, 0, 0, 0, 0, 0, 0, 0, 2},
	{"ld.global.cg.u32 %r1, [%rd1];", OP_LD, PTX_T_U32, 0, SPACE_GLOBAL, 1, 0, 0, 0, 0, 0, 0, 0, 0, 2},
	{"ld.global.cs.u32 %r1, [%rd1];", OP_LD, PTX_T_U32, 0, SPACE_GLOBAL, 1, 0, 0, 0, 0, 0, 0, 0, 0, 2},
	{"ld.global.lu.u32 %r1, [%rd1];", OP_LD, PTX_T_U32, 0, SPACE_GLOBAL, 1, 0, 0, 0, 0, 0, 0, 0, 0, 2},
	{"ld.global.cv.u32 %r1, [%rd1];", OP_LD, PTX_T_U32, 0, SPACE_GLOBAL, 1, 0, 0, 0, 0, 0, 0, 0, 0, 2},
	{"st.global.wb.u32 [%rd1], %r1;", OP_ST, PTX_T_U32, 0, SPACE_GLOBAL, 1, 0, 0, 0, 0, 0, 0, 0, 0, 2},
	{"ld.param.u64 %rd1, [k_p0];", OP_LD, PTX_T_U64, 0, SPACE_PARAM, 1, 0, 0, 0, 0, 0, 0, 0, 0, 2},
	{"ld.local.v2.u32 {%r1, %r2}, [%rd1];", OP_LD, PTX_T_U32, 0, SPACE_LOCAL, 2, 0, 0, 0, 0, 0, 0, 0, 0, 2},
	{"ld.relaxed.gpu.global.u32 %r1, [%rd1];", OP_LD, PTX_T_U32, 0, SPACE_GLOBAL, 1, 0, 0, 0, 0, 0, SEM_RELAXED,
	 SCOPE_GPU, 0, 2},
	{"ld.acquire.sys.u32 %r1, [%rd1];", OP_LD, PTX_T_U32, 0, 0, 1, 0, 0, 0, 0, 0, SEM_ACQUIRE, SCOPE_SYS, 0, 2},
	{"ld.shared::cta.u32 %r1, [%r2];", OP_LD, PTX_T_U32, 0, SPACE_SHARED, 1, 0, 0, 0, 0, 0, 0, 0, 0, 2},
	{"st.release.cta.shared.b32 [%r2], %r1;", OP_ST, PTX_T_B32, 0, SPACE_SHARED, 1, 0, 0, 0, 0, 0, SEM_RELEASE,
	 SCOPE_CTA, 0, 2},
	{"ldu.global.f32 %f1, [%rd1];", OP_LDU, PTX_T_F32, 0, SPACE_GLOBAL, 1, 0, 0, 0, 0, 0, 0, 0, 0, 2},
	{"atom.global.add.u32 %r1, [%rd1], 1;", OP_ATOM, PTX_T_U32, 0, SPACE_GLOBAL, 1, 0, 0, 0, AOP_ADD, 0, 0, 0, 0, 3},
	{"atom.shared.cas.b32 %r1, [%r2], %r3, %r4;", OP_ATOM, PTX_T_B32, 0, SPACE_SHARED, 1, 0, 0, 0, AOP_CAS, 0, 0, 0, 0,
	 4},
	{"atom.global.add.f32 %f1, [%rd1], 0f3F800000;", OP_ATOM, PTX_T_F32, 0, SPACE_GLOBAL, 1, 0, 0, 0, AOP_ADD, 0, 0,
	 0, 0, 3},
	{"atom.add.noftz.f16 %h1, [%rd1], %h2;", OP_ATOM, PTX_T_F16, 0, 0, 1, 0, 0, 0, AOP_ADD, 0, 0, 0, FLAG_NOFTZ, 3},
	{"atom.acq_rel.gpu.global.exch.b32 %r1, [%rd1], %r2;", OP_ATOM, PTX_T_B32, 0, SPACE_GLOBAL, 1, 0, 0, 0, AOP_EXCH,
	 0, SEM_ACQ_REL, SCOPE_GPU, 0, 3},
	{"atom.global.inc.u32 %r1, [%rd1], 17;", OP_ATOM, PTX_T_U32, 0, SPACE_GLOBAL, 1, 0, 0, 0, AOP_INC, 0, 0, 0, 0, 3},
	{"atom.global.dec.u32 %r1, [%rd1], 17;", OP_ATOM, PTX_T_U32, 0, SPACE_GLOBAL, 1, 0, 0, 0, AOP_DEC, 0, 0, 0, 0, 3},
	{"atom.global.min.s32 %r1, [%rd1], %r2;", OP_ATOM, PTX_T_S32, 0, SPACE_GLOBAL, 1, 0, 0, 0, AOP_MIN, 0, 0, 0, 0, 3},
	{"atom.global.max.u64 %rd1, [%rd2], %rd3;", OP_ATOM, PTX_T_U64, 0, SPACE_GLOBAL, 1, 0, 0, 0, AOP_MAX, 0, 0, 0, 0,
	 3},
	{"atom.global.and.b32 %r1, [%rd1], %r2;", OP_ATOM, PTX_T_B32, 0, SPACE_GLOBAL, 1, 0, 0, 0, AOP_AND, 0, 0, 0, 0, 3},
	{"atom.global.or.b32 %r1, [%rd1], %r2;", OP_ATOM, PTX_T_B32, 0, SPACE_GLOBAL, 1, 0, 0, 0, AOP_OR, 0, 0, 0, 0, 3},
	{"atom.global.xor.b32 %r1, [%rd1], %r2;", OP_ATOM, PTX_T_B32, 0, SPACE_GLOBAL, 1, 0, 0, 0, AOP_XOR, 0, 0, 0, 0, 3},
	{"atom.relaxed.gpu.add.s32 %r1, [%rd1], %r2;", OP_ATOM, PTX_T_S32, 0, 0, 1, 0, 0, 0, AOP_ADD, 0, SEM_RELAXED,
	 SCOPE_GPU, 0, 3},
	{"red.global.add.u32 [%rd1], %r1;", OP_RED, PTX_T_U32, 0, SPACE_GLOBAL, 1, 0, 0, 0, AOP_ADD, 0, 0, 0, 0, 2},
	{"cvta.to.global.u64 %rd1, %rd2;", OP_CVTA, PTX_T_U64, 0, SPACE_GLOBAL, 1, 0, 0, 0, 0, MODE_TO, 0, 0, 0, 2},
	{"cvta.shared.u64 %rd1, %rd2;", OP_CVTA, PTX_T_U64, 0, SPACE_SHARED, 1, 0, 0, 0, 0, MODE_NONE, 0, 0, 0, 2},
	{"cvta.global.u64 %rd1, gv;", OP_CVTA, PTX_T_U64, 0, SPACE_GLOBAL, 1, 0, 0, 0, 0, MODE_NONE, 0, 0, 0, 2},
	{"isspacep.global %p1, %rd1;", OP_ISSPACEP, 0, 0, SPACE_GLOBAL, 1, 0, 0, 0, 0, 0, 0, 0, 0, 2},
	{"bar.sync 0;", OP_BAR, 0, 0, 0, 1, 0, 0, 0, 0, MODE_SYNC, 0, 0, 0, 1},
	{"bar.sync 1, 64;", OP_BAR, 0, 0, 0, 1, 0, 0, 0, 0, MODE_SYNC, 0, 0, 0, 2},
	{"barrier.sync.aligned 0;", OP_BARRIER, 0, 0, 0, 1, 0, 0, 0, 0, MODE_SYNC, 0, 0, FLAG_ALIGNED, 1},
	{"barrier.sync %r1, %r2;", OP_BARRIER, 0, 0, 0, 1, 0, 0, 0, 0, MODE_SYNC, 0, 0, 0, 2},
	{"bar.arrive 1, 64;", OP_BAR, 0, 0, 0, 1, 0, 0, 0, 0, MODE_ARRIVE, 0, 0, 0, 2},
	{"bar.red.popc.u32 %r1, 0, %p1;", OP_BAR, PTX_T_U32, 0, 0, 1, 0, 0, 0, AOP_POPC, MODE_RED, 0, 0, 0, 3},
	{"bar.red.and.pred %p1, 0, %p2;", OP_BAR, PTX_T_PRED, 0, 0, 1, 0, 0, 0, AOP_AND, MODE_RED, 0, 0, 0, 3},
	{"bar.red.or.pred %p1, 1, 64, !%p2;", OP_BAR, PTX_T_PRED, 0, 0, 1, 0, 0, 0, AOP_OR, MODE_RED, 0, 0, 0, 4},
	{"bar.warp.sync -1;", OP_BAR, 0, 0, 0, 1, 0, 0, 0, 0, MODE_WARP_SYNC, 0, 0, 0, 1},
	{"membar.gl;", OP_MEMBAR, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, SCOPE_GPU, 0, 0},
	{"membar.cta;", OP_MEMBAR, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, SCOPE_CTA, 0, 0},
	{"membar.sys;", OP_MEMBAR, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, SCOPE_SYS, 0, 0},
	{"fence.acq_rel.gpu;", OP_FENCE, 0, 0, 0, 1, 0, 0, 0, 0, 0, SEM_ACQ_REL, SCOPE_GPU, 0, 0},
	{"fence.sc.cta;", OP_FENCE, 0, 0, 0, 1, 0, 0, 0, 0, 0, SEM_SC, SCOPE_CTA, 0, 0},
	{"bra $L;", OP_BRA, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1},
	{"bra.uni $L;", OP_BRA, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, FLAG_UNI, 1},
	{"ret;", OP_RET, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0},
	{"ret.uni;", OP_RET, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, FLAG_UNI, 0},
	{"exit;", OP_EXIT, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0},
	{"trap;", OP_TRAP, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0},
	{"shfl.sync.down.b32 %r1|%p1, %r2, %r3, %r4, %r5;", OP_SHFL, PTX_T_B32, 0, 0, 1, 0, 0, 0, 0, MODE_DOWN, 0, 0, 0, 5},
	{"shfl.down.b32 %r1, %r2, %r3, %r4;", OP_SHFL, PTX_T_B32, 0, 0, 1, 0, 0, 0, 0, MODE_DOWN, 0, 0, 0, 4},
	{"shfl.sync.up.b32 %r1|%p1, %r2, 1, 0, -1;", OP_SHFL, PTX_T_B32, 0, 0, 1, 0, 0, 0, 0, MODE_UP, 0, 0, 0, 5},
	{"shfl.sync.bfly.b32 %r1, %r2, 1, 31, -1;", OP_SHFL, PTX_T_B32, 0, 0, 1, 0, 0, 0, 0, MODE_BFLY, 0, 0, 0, 5},
	{"shfl.sync.idx.b32 %r1|%p1, %r2, 0, 31, -1;", OP_SHFL, PTX_T_B32, 0, 0, 1, 0, 0, 0, 0, MODE_IDX, 0, 0, 0, 5},
	{"shfl.sync.idx.b32 _|%p1, %r2, 0, 31, -1;", OP_SHFL, PTX_T_B32, 0, 0, 1, 0, 0, 0, 0, MODE_IDX, 0, 0, 0, 5},
	{"vote.sync.ballot.b32 %r1, %p1, %r2;", OP_VOTE, PTX_T_B32, 0, 0, 1, 0, 0, 0, 0, MODE_BALLOT, 0, 0, 0, 3},
	{"vote.all.pred %p1, %p2;", OP_VOTE, PTX_T_PRED, 0, 0, 1, 0, 0, 0, 0, MODE_ALL, 0, 0, 0, 2},
	{"vote.sync.any.pred %p1, !%p2, -1;", OP_VOTE, PTX_T_PRED, 0, 0, 1, 0, 0, 0, 0, MODE_ANY, 0, 0, 0, 3},
	{"vote.sync.uni.pred %p1, %p2, %r1;", OP_VOTE, PTX_T_PRED, 0, 0, 1, 0, 0, 0, 0, MODE_UNI, 0, 0, 0, 3},
	{"activemask.b32 %r1;", OP_ACTIVEMASK, PTX_T_B32, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1},
	{"match.any.sync.b32 %r1, %r2, %r3;", OP_MATCH, PTX_T_B32, 0, 0, 1, 0, 0, 0, 0, MODE_ANY, 0, 0, 0, 3},
	{"match.all.sync.b32 %r1|%p1, %r2, %r3;", OP_MATCH, PTX_T_B32, 0, 0, 1, 0, 0, 0, 0, MODE_ALL, 0, 0, 0, 3},
	{"redux.sync.add.s32 %r1, %r2, %r3;", OP_REDUX, PTX_T_S32, 0, 0, 1, 0, 0, 0, AOP_ADD, 0, 0, 0, 0, 3},
	{"redux.sync.xor.b32 %r1, %r2, -1;", OP_REDUX, PTX_T_B32, 0, 0, 1, 0, 0, 0, AOP_XOR, 0, 0, 0, 0, 3},
	{"rcp.approx.ftz.f32 %f1, %f2;", OP_RCP, PTX_T_F32, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, FLAG_APPROX | FLAG_FTZ, 2},
	{"rcp.rn.f64 %fd1, %fd2;", OP_RCP, PTX_T_F64, 0, 0, 1, 0, 0, RND_RN, 0, 0, 0, 0, 0, 2},
	{"sqrt.rn.f32 %f1, %f2;", OP_SQRT, PTX_T_F32, 0, 0, 1, 0, 0, RND_RN, 0, 0, 0, 0, 0, 2},
	{"rsqrt.approx.f64 %fd1, %fd2;", OP_RSQRT, PTX_T_F64, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, FLAG_APPROX, 2},
	{"div.full.f32 %f1, %f2, %f3;", OP_DIV, PTX_T_F32, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, FLAG_FULL, 3},
	{"div.approx.f32 %f1, %f2, %f3;", OP_DIV, PTX_T_F32, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, FLAG_APPROX, 3},
	{"div.rn.f64 %fd1, %fd2, %fd3;", OP_DIV, PTX_T_F64, 0, 0, 1, 0, 0, RND_RN, 0, 0, 0, 0, 0, 3},
	{"div.s32 %r1, %r2, %r3;", OP_DIV, PTX_T_S32, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 3},
	{"ex2.approx.ftz.f32 %f1, %f2;", OP_EX2, PTX_T_F32, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, FLAG_APPROX | FLAG_FTZ, 2},
	{"tanh.approx.f32 %f1, %f2;", OP_TANH, PTX_T_F32, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, FLAG_APPROX, 2},
	{"sin.approx.f32 %f1, %f2;", OP_SIN, PTX_T_F32, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, FLAG_APPROX, 2},
	{"lg2.approx.ftz.f32 %f1, %f2;", OP_LG2, PTX_T_F32, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, FLAG_APPROX | FLAG_FTZ, 2},
	{"min.NaN.f32 %f1, %f2, %f3;", OP_MIN, PTX_T_F32, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, FLAG_NAN, 3},
	{"max.s32 %r1, %r2, %r3;", OP_MAX, PTX_T_S32, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 3},
	{"prmt.b32.f4e %r1, %r2, %r3, %r4;", OP_PRMT, PTX_T_B32, 0, 0, 1, 0, 0, 0, 0, MODE_PRMT_F4E, 0, 0, 0, 4},
	{"prmt.b32 %r1, %r2, %r3, 0x3210;", OP_PRMT, PTX_T_B32, 0, 0, 1, 0, 0, 0, 0, MODE_NONE, 0, 0, 0, 4},
	{"bfind.shiftamt.u32 %r1, %r2;", OP_BFIND, PTX_T_U32, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, FLAG_SHIFTAMT, 2},
	{"shf.l.wrap.b32 %r1, %r2, %r3, %r4;", OP_SHF, PTX_T_B32, 0, 0, 1, 0, 0, 0, 0, MODE_L, 0, 0, FLAG_WRAP, 4},
	{"shf.r.clamp.b32 %r1, %r2, %r3, %r4;", OP_SHF, PTX_T_B32, 0, 0, 1, 0, 0, 0, 0, MODE_R, 0, 0, FLAG_CLAMP, 4},
	{"testp.finite.f32 %p1, %f1;", OP_TESTP, PTX_T_F32, 0, 0, 1, 0, 0, 0, 0, MODE_FINITE, 0, 0, 0, 2},
	{"testp.subnormal.f64 %p1, %fd1;", OP_TESTP, PTX_T_F64, 0, 0, 1, 0, 0, 0, 0, MODE_SUBNORMAL, 0, 0, 0, 2},
	{"add.cc.u32 %r1, %r2, %r3;", OP_ADD, PTX_T_U32, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, FLAG_CC, 3},
	{"addc.cc.u32 %r1, %r2, %r3;", OP_ADDC, PTX_T_U32, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, FLAG_CC, 3},
	{"subc.u32 %r1, %r2, %r3;", OP_SUBC, PTX_T_U32, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 3},
	{"mad.hi.cc.u32 %r1, %r2, %r3, %r4;", OP_MAD, PTX_T_U32, 0, 0, 1, 0, 0, 0, 0, MODE_HI, 0, 0, FLAG_CC, 4},
	{"madc.lo.cc.u32 %r1, %r2, %r3, %r4;", OP_MADC, PTX_T_U32, 0, 0, 1, 0, 0, 0, 0, MODE_LO, 0, 0, FLAG_CC, 4},
	{"add.sat.s32 %r1, %r2, %r3;", OP_ADD, PTX_T_S32, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, FLAG_SAT, 3},
	{"abs.ftz.f32 %f1, %f2;", OP_ABS, PTX_T_F32, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, FLAG_FTZ, 2},
	{"neg.f64 %fd1, %fd2;", OP_NEG, PTX_T_F64, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 2},
	{"lop3.b32 %r1, %r2, %r3, %r4, 0x96;", OP_LOP3, PTX_T_B32, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 5},
	{"lop3.or.b32 %r1|%p1, %r2, %r3, %r4, 0x96, !%p2;", OP_LOP3, PTX_T_B32, 0, 0, 1, 0, BOOL_OR, 0, 0, 0, 0, 0, 0, 6},
	{"cvt.rn.f16x2.f32 %r1, %f1, %f2;", OP_CVT, PTX_T_F16X2, PTX_T_F32, 0, 1, 0, 0, RND_RN, 0, 0, 0, 0, 0, 3},
	{"dp4a.u32.s32 %r1, %r2, %r3, %r4;", OP_DP4A, PTX_T_U32, PTX_T_S32, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 4},
	{"dp2a.lo.s32.u32 %r1, %r2, %r3, %r4;", OP_DP2A, PTX_T_S32, PTX_T_U32, 0, 1, 0, 0, 0, 0, MODE_LO, 0, 0, 0, 4},
	{"copysign.f32 %f1, %f2, %f3;", OP_COPYSIGN, PTX_T_F32, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 3},
	{"prefetch.global.L2 [%rd1];", OP_PREFETCH, 0, 0, SPACE_GLOBAL, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1},
	{"prefetch.global.L2::evict_last [%rd1];", OP_PREFETCH, 0, 0, SPACE_GLOBAL, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1},
	{"nanosleep.u32 %r1;", OP_NANOSLEEP, PTX_T_U32, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1},
	{"mov.u32 %r1, %tid.x;", OP_MOV, PTX_T_U32, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 2},
	{"fma.rn.ftz.sat.f32 %f1, %f2, %f3, %f4;", OP_FMA, PTX_T_F32, 0, 0, 1, 0, 0, RND_RN, 0, 0, 0, 0,
	 FLAG_FTZ | FLAG_SAT, 4},
	{"mul24.lo.s32 %r1, %r2, %r3;", OP_MUL24, PTX_T_S32, 0, 0, 1, 0, 0, 0, 0, MODE_LO, 0, 0, 0, 3},
	{"sad.u32 %r1, %r2, %r3, %r4;", OP_SAD, PTX_T_U32, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 4},
	{"bfe.u32 %r1, %r2, 8, 4;", OP_BFE, PTX_T_U32, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 4},
	{"bfi.b64 %rd1, %rd2, %rd3, 32, 32;", OP_BFI, PTX_T_B64, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 5},
	{"popc.b64 %r1, %rd1;", OP_POPC, PTX_T_B64, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 2},
	{"clz.b32 %r1, %r2;", OP_CLZ, PTX_T_B32, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 2},
	{"brev.b32 %r1, %r2;", OP_BREV, PTX_T_B32, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 2},
	{"not.pred %p1, %p2;", OP_NOT, PTX_T_PRED, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 2},
	{"or.pred %p1, %p2, %p3;", OP_OR, PTX_T_PRED, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 3},
	{"shr.s64 %rd1, %rd2, 3;", OP_SHR, PTX_T_S64, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 3},
	{"rem.u64 %rd1, %rd2, %rd3;", OP_REM, PTX_T_U64, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 3},
	{"add.f16x2 %r1, %r2, %r3;", OP_ADD, PTX_T_F16X2, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 3},
	{"brkpt;", OP_BRKPT, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0},
	{"pmevent 1;", OP_PMEVENT, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1},
};

TEST(parse_instruction_suffixes)
{
	size_t n = sizeof(sfx_cases) / sizeof(sfx_cases[0]);
	for (size_t i = 0; i < n; i++) {
		const struct sfx_case *c = &sfx_cases[i];
		static const char tmpl[] = KERNEL("$L:\n@@@\n");
		const char *at = strstr(tmpl, "@@@");
		char full[4096];
		snprintf(full, sizeof(full), "%.*s%s%s", (int)(at - tmpl), tmpl, c->text, at + 3);
		struct ptx_error e;
		struct ptx_module *m = ptx_parse(full, strlen(full), "s.ptx", &e);
		if (!m) {
			test_fail(t, __FILE__, __LINE__, "'%s': %u:%u: %s", c->text, e.line, e.col, e.msg);
			continue;
		}
		struct ptx_insn *in = &m->funcs[0].insns[0];
		int bad = in->op != c->op || in->type != c->type || in->type2 != c->type2 || in->space != c->space ||
			  in->vec != c->vec || in->cmp != c->cmp || in->boolop != c->boolop || in->rnd != c->rnd ||
			  in->atomop != c->atomop || in->mode != c->mode || in->sem != c->sem || in->scope != c->scope ||
			  in->flags != c->flags || in->nopd != c->nopd;
		if (bad)
			test_fail(t, __FILE__, __LINE__,
				  "'%s': op %u type %u/%u space %u vec %u cmp %u bool %u rnd %u aop %u mode %u sem %u "
				  "scope %u flags 0x%x nopd %u",
				  c->text, in->op, in->type, in->type2, in->space, in->vec, in->cmp, in->boolop, in->rnd,
				  in->atomop, in->mode, in->sem, in->scope, in->flags, in->nopd);
		CHECK_EQ(in->unit, ptx_opcode_table[c->op].unit);
		CHECK_EQ(in->lat, ptx_opcode_table[c->op].lat);
		CHECK_EQ(in->line, BODY_LINE + 1);
		CHECK_EQ(in->col, 1);
		check_ir(t, m, c->text);
		ptx_module_destroy(m);
	}
}

TEST(parse_calls)
{
	struct ptx_module *m = PARSE_OK(
		HDR ".func (.param .b32 func_retval0) _Z6helperfi(.param .b32 a, .param .b32 b);\n"
		".visible .entry k(.param .u64 p)\n{\n"
		".reg .b32 %r<4>;\n.reg .b64 %rd<4>;\n.reg .f32 %f<4>;\n"
		"\t{ // callseq 0, 0\n"
		"\t.reg .b32 temp_param_reg;\n"
		"\t.param .b32 param0;\n"
		"\tst.param.f32 \t[param0+0], %f1;\n"
		"\t.param .b32 param1;\n"
		"\tst.param.b32 \t[param1+0], %r1;\n"
		"\t.param .b32 retval0;\n"
		"\tcall.uni (retval0), \n\t_Z6helperfi, \n\t(\n\tparam0, \n\tparam1\n\t);\n"
		"\tld.param.f32 \t%f2, [retval0+0];\n"
		"\t} // callseq 0\n"
		"\t{\n\t.param .b32 param0;\n"
		"\t.param .b32 retval0;\n"
		"\tprototype_0 : .callprototype (.param .b32 _) _ (.param .b32 _);\n"
		"\tcall (retval0), \n\t%rd1, \n\t(\n\tparam0\n\t)\n\t, prototype_0;\n"
		"\t}\n"
		"\tcall.uni fwd;\n"
		"\t{ .param .b64 param0; call.uni fwd2, (param0); }\n"
		"\tmov.u64 %rd2, fwd;\n"
		"\tret;\n}\n"
		".func fwd() { ret; }\n"
		".func fwd2(.param .b64 x) { ret; }\n");
	if (!m)
		return;
	int k = ptx_module_find_func(m, "k"), h = ptx_module_find_func(m, "_Z6helperfi");
	int fwd = ptx_module_find_func(m, "fwd"), fwd2 = ptx_module_find_func(m, "fwd2");
	CHECK(k >= 0 && h >= 0 && fwd >= 0 && fwd2 >= 0);
	if (k < 0 || h < 0 || fwd < 0 || fwd2 < 0) {
		ptx_module_destroy(m);
		return;
	}
	struct ptx_function *f = &m->funcs[k];
	CHECK_EQ(f->ninsns, 9);
	struct ptx_insn *c = &f->insns[2];
	CHECK_EQ(c->op, OP_CALL);
	CHECK_EQ(c->flags, FLAG_UNI);
	CHECK_EQ(c->nopd, 3);
	CHECK_EQ(c->callee, -1);
	CHECK(c->opd[0].kind == OPD_LIST && c->opd[0].nlist == 1);
	CHECK(c->opd[1].kind == OPD_FUNC && c->opd[1].func == h);
	CHECK(c->opd[2].kind == OPD_LIST && c->opd[2].nlist == 2);
	if (c->opd[0].nlist == 1 && c->opd[2].nlist == 2) {
		struct ptx_var *r = &m->vars[c->opd[0].list[0]];
		CHECK(strcmp(r->name, "retval0") == 0 && r->space == SPACE_PARAM && !r->is_fparam && !r->is_kparam);
		CHECK_EQ(r->func, k);
		CHECK(strcmp(m->vars[c->opd[2].list[1]].name, "param1") == 0);
		/* the st.param before the call names the same variable */
		CHECK_EQ(f->insns[1].opd[0].sym, c->opd[2].list[1]);
		CHECK_EQ(f->insns[3].opd[1].sym, c->opd[0].list[0]);
	}
	/* indirect call with prototype: its own param0/retval0 (second block) */
	c = &f->insns[4];
	CHECK_EQ(c->op, OP_CALL);
	CHECK_EQ(c->nopd, 4);
	CHECK(c->opd[1].kind == OPD_REG && c->opd[1].reg == reg_index(f, "%rd1"));
	CHECK(c->opd[3].kind == OPD_LABEL && c->opd[3].target == -1);
	CHECK(c->opd[2].nlist == 1 && c->opd[2].list[0] != f->insns[2].opd[2].list[0]);
	CHECK_EQ(c->flags, 0);
	/* calls without return list / without arguments, to functions defined later */
	c = &f->insns[5];
	CHECK(c->nopd == 3 && c->opd[0].nlist == 0 && c->opd[2].nlist == 0 && c->opd[1].func == fwd);
	c = &f->insns[6];
	CHECK(c->opd[0].nlist == 0 && c->opd[2].nlist == 1 && c->opd[1].func == fwd2);
	CHECK(f->insns[7].opd[1].kind == OPD_FUNC && f->insns[7].opd[1].func == fwd);
	/* four call-site .param declarations in blocks, each its own variable */
	int nparam = 0;
	for (uint32_t i = 0; i < m->nvars; i++)
		if (m->vars[i].func == k && m->vars[i].space == SPACE_PARAM && !m->vars[i].is_kparam)
			nparam++;
	CHECK_EQ(nparam, 6);
	char buf[160];
	CHECK(strcmp(fmt(m, k, 2, buf, sizeof buf), "call.uni (retval0), _Z6helperfi, (param0, param1);") == 0);
	CHECK(strcmp(fmt(m, k, 5, buf, sizeof buf), "call.uni fwd;") == 0);
	check_ir(t, m, "calls");
	ptx_module_destroy(m);
}

TEST(parse_debug_directives)
{
	struct ptx_module *m = PARSE_OK(
		"//\n// Generated by NVIDIA NVVM Compiler\n//\n" HDR
		"\t.file\t1 \"/tmp/x.cu\"\n"
		".file 2 \"/usr/include/y.h\", 1700000000, 1234\n"
		"/* block\n comment */\n"
		".visible .entry k()\n{\n"
		"\t.reg .b32 %r<3>;\n"
		"\t.loc\t1 5 0\n"
		"$L__func_begin0:\n"
		"\t.loc\t1 7 3, function_name $L__info_string0, inlined_at 1 20 3\n"
		"\tmov.u32 %r1, 1;\n"
		"$L__tmp0:\n"
		"\t.pragma \"nounroll\";\n"
		"\tmov.u32 %r2, 2; // trailing comment\n"
		"\tret;\n"
		"$L__func_end0:\n"
		"}\n"
		"\t.section\t.debug_str\n\t{\n$L__info_string0:\n.b8 95,90,0\n.b32 $L__func_begin0\n\t}\n"
		"\t.section\t.debug_abbrev\n\t{\n.b8 1\n\t}\n"
		".pragma \"x\";\n");
	if (!m)
		return;
	CHECK_EQ(m->nfuncs, 1);
	CHECK_EQ(m->funcs[0].ninsns, 3);
	CHECK_EQ(m->funcs[0].insns[0].line, 17);
	CHECK_EQ(m->funcs[0].insns[0].col, 2);
	CHECK_EQ(m->funcs[0].insns[1].line, 20);
	ptx_module_destroy(m);
}

TEST(parse_format)
{
	struct ptx_module *m = PARSE_OK(KERNEL(
		"@!%p1 ld.global.nc.v2.f32 {%f1, _}, [%rd1+-8];\n"
		"setp.eq.and.s32 %p1|%p2, %r1, 5, !%p3;\n"
		"mov.u32 %r1, %ctaid.y;\n"
		"st.global.u32 [gv+4], 0x10;\n"
		"cvt.rzi.s32.f32 %r1, %f1;\n"
		"L1: bar.warp.sync -1;\n"
		"@%p1 bra L1;\n"
		"mov.f32 %f1, 0f3F800000;\n"
		"membar.gl;\n"
		"shfl.sync.bfly.b32 %r1|%p1, %r2, 1, 31, -1;\n"
		"atom.global.cas.b32 %r1, [%rd1], %r2, %r3;\n"));
	if (!m)
		return;
	static const char *const want[] = {
		"@!%p1 ld.global.nc.v2.f32 {%f1, _}, [%rd1-8];",
		"setp.eq.and.s32 %p1|%p2, %r1, 5, !%p3;",
		"mov.u32 %r1, %ctaid.y;",
		"st.global.u32 [gv+4], 16;",
		"cvt.rzi.s32.f32 %r1, %f1;",
		"bar.warp.sync -1;",
		"@%p1 bra $pc5;",
		"mov.f32 %f1, 0f3F800000;",
		"membar.gl;",
		"shfl.sync.bfly.b32 %r1|%p1, %r2, 1, 31, -1;",
		"atom.global.cas.b32 %r1, [%rd1], %r2, %r3;",
	};
	char buf[200];
	for (uint32_t i = 0; i < sizeof(want) / sizeof(want[0]) && i < m->funcs[0].ninsns; i++)
		CHECK_MSG(strcmp(fmt(m, 0, i, buf, sizeof buf), want[i]) == 0, "format %u: '%s' != '%s'", i, buf, want[i]);
	/* truncation is safe and NUL-terminated */
	char small[8];
	fmt(m, 0, 0, small, sizeof small);
	CHECK(strlen(small) == 7 && memcmp(small, "@!%p1 l", 7) == 0);
	ptx_insn_format(m, &m->funcs[0], &m->funcs[0].insns[0], small, 1);
	CHECK_EQ(small[0], 0);
	ptx_module_destroy(m);
}
