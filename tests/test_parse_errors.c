/*
 * test_parse_errors.c -- tests of the PTX front end (src/ptx/lexer.c,
 * parser.c and parse_*.c) on input it must reject or that comes from
 * outside: malformed input fails at the exact position with the exact
 * message (and one run reports every error it recovers from), every .ptx
 * file in tests/ptx/bad fails with the location and message given on its
 * first line ("// EXPECT: LINE:COL: MESSAGE"), real nvcc output in
 * tests/ptx/good parses and analyses, hostile input (NUL bytes,
 * truncations, deep nesting, huge counts, random bytes) is rejected
 * cleanly, and a 100k-instruction module parses in linear time.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ptx/ir.h"
#include "ptx/lexer.h"
#include "parse_check.h"
#include "test.h"

/* ------------------------------------------------------------ helpers */

static char *read_file(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "rb");
	if (!fp)
		return NULL;
	char *b = NULL;
	size_t cap = 0, n = 0;
	for (;;) {
		if (n + 4096 > cap) {
			cap = cap ? cap * 2 : 65536;
			char *nb = realloc(b, cap);
			if (!nb) {
				free(b);
				fclose(fp);
				return NULL;
			}
			b = nb;
		}
		size_t k = fread(b + n, 1, cap - n, fp);
		n += k;
		if (k == 0)
			break;
	}
	fclose(fp);
	*len = n;
	return b;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* sorted list of *.ptx in dir; returns count, *names to free with free_names */
static int list_ptx(const char *dir, char ***names)
{
	DIR *d = opendir(dir);
	*names = NULL;
	if (!d)
		return -1;
	int n = 0, cap = 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		size_t l = strlen(de->d_name);
		if (l < 5 || strcmp(de->d_name + l - 4, ".ptx") != 0)
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 64;
			char **nn = realloc(*names, (size_t)cap * sizeof(char *));
			if (!nn)
				break;
			*names = nn;
		}
		size_t pl = strlen(dir) + l + 2;
		(*names)[n] = malloc(pl);
		if (!(*names)[n])
			break;
		snprintf((*names)[n], pl, "%s/%s", dir, de->d_name);
		n++;
	}
	closedir(d);
	if (n > 1)
		qsort(*names, (size_t)n, sizeof(char *), cmp_str);
	return n;
}
static void free_names(char **names, int n)
{
	for (int i = 0; i < n; i++)
		free(names[i]);
	free(names);
}


/* ------------------------------------------------------------ errors */

TEST(parse_errors_located)
{
	/* lines: 1-3 header; KERNEL bodies start on line 13 */
	PARSE_ERR(KERNEL("add.s32 %r1, %r2, %r3\nmov.u32 %r1, 0;"), BODY_LINE + 1, 1, "expected ';' after instruction");
	PARSE_ERR(KERNEL("add.s32 %r1, %r99, %r3;"), BODY_LINE, 14, "unknown register '%r99' (declared: %r<32>)");
	PARSE_ERR(KERNEL("add.s32 %r1, %q5, %r3;"), BODY_LINE, 14, "register '%q5' is not declared");
	PARSE_ERR(KERNEL("and.f32 %f1, %f2, %f3;"), BODY_LINE, 4, "type '.f32' is not valid for 'and'");
	PARSE_ERR(KERNEL("add.pred %p1, %p2, %p3;"), BODY_LINE, 4, "type '.pred' is not valid for 'add'");
	PARSE_ERR(KERNEL("foo.b32 %r1, %r2;"), BODY_LINE, 1, "unknown instruction 'foo'");
	PARSE_ERR(KERNEL("add.s32.bogus %r1, %r2, %r3;"), BODY_LINE, 8, "unknown modifier '.bogus' on 'add'");
	PARSE_ERR(KERNEL("add.wide.s32 %r1, %r2, %r3;"), BODY_LINE, 4, "modifier '.wide' is not valid for 'add'");
	PARSE_ERR(KERNEL("mov.u32 %r1, 0; /* never closed\n"), BODY_LINE, 17, "unterminated block comment");
	PARSE_ERR(KERNEL("add.u64 %rd1, %rd2, 18446744073709551616;"), BODY_LINE, 21, "immediate out of range");
	PARSE_ERR(KERNEL("$L1:\n$L1: ret;"), BODY_LINE + 1, 1, "duplicate label '$L1'");
	PARSE_ERR(KERNEL(".reg .b32 %r1;"), BODY_LINE, 11, "redefinition of '%r1'");
	PARSE_ERR(KERNEL("bra $nowhere;"), BODY_LINE, 5, "undefined label '$nowhere'");
	PARSE_ERR(KERNEL("mul.s32 %r1, %r2, %r3;"), BODY_LINE, 1, "needs .lo, .hi or .wide");
	PARSE_ERR(KERNEL("add.s32 %r1, %r2;"), BODY_LINE, 1, "'add' expects 3 operands, got 2");
	PARSE_ERR(KERNEL("ld.global.u32 %r1, %rd1;"), BODY_LINE, 20, "operand 2 of 'ld' must be an address");
	PARSE_ERR(KERNEL("setp.lt.s32 %r1, %r2, %r3;"), BODY_LINE, 13, "destination of 'setp' must be a .pred register");
	PARSE_ERR(KERNEL("@%r1 ret;"), BODY_LINE, 2, "'%r1' is not a .pred register");
	PARSE_ERR(KERNEL("mov.u32 %r1, %tid;"), BODY_LINE, 14, "needs a component");
	PARSE_ERR(KERNEL("ld.global.v4.f32 {%f1, %f2}, [%rd1];"), BODY_LINE, 18, "'.v4' needs a vector of 4 elements");
	PARSE_ERR(KERNEL("call.uni nosuch;"), BODY_LINE, 10, "call to undefined function 'nosuch'");
	PARSE_ERR(KERNEL("mov.u64 %rd1, nosuch;"), BODY_LINE, 15, "unknown symbol 'nosuch'");
	PARSE_ERR(KERNEL("call.uni k;"), BODY_LINE, 10, "cannot call kernel 'k'");
	PARSE_ERR(KERNEL("call.uni f;\n}\n.entry f() {"), BODY_LINE, 10, "cannot call kernel 'f'");
	PARSE_ERR(KERNEL("setp.lo.f32 %p1, %f1, %f2;"), BODY_LINE, 5, "comparison '.lo' is not valid with type .f32");
	PARSE_ERR(KERNEL("add.rn.s32 %r1, %r2, %r3;"), BODY_LINE, 4, "modifier '.rn' is not valid with type .s32");
	PARSE_ERR(KERNEL("add.rn.rz.f32 %f1, %f2, %f3;"), BODY_LINE, 7, "conflicting modifier '.rz'");
	PARSE_ERR(KERNEL("shfl.sync.down.b32 %r1, %r2, %r3, %r4;"), BODY_LINE, 1, "needs 5 operands");
	PARSE_ERR(KERNEL("bar.red.popc.pred %p1, 0, %p2;"), BODY_LINE, 13, "needs type .u32");
	PARSE_ERR(KERNEL(".reg .b32 %z<2000000>;"), BODY_LINE, 14, "too many registers");
	PARSE_ERR(KERNEL("add.s32 %r1, %r2, %r3;;\n}\n}"), BODY_LINE + 2, 1, "expected a directive");
	PARSE_ERR(HDR ".entry k() {\nret;\n", 6, 1, "missing '}'");
	PARSE_ERR(HDR ".global .u32 x;\n.global .u32 x;\n", 5, 14, "redefinition of 'x'");
	PARSE_ERR(HDR ".global .u8 x[2] = {1, 2, 3};\n", 4, 27, "too many initializers");
	PARSE_ERR(HDR ".global .u8 x = 256;\n", 4, 17, "initializer value out of range for .u8");
	PARSE_ERR(HDR ".global .u32 x[];\n", 4, 14, "needs a size or an initializer");
	PARSE_ERR(HDR ".shared .u32 x = 1;\n", 4, 18, "cannot be initialized");
	PARSE_ERR(HDR ".func f() { ret; }\n.func f() { ret; }\n", 5, 7, "redefinition of function 'f'");
	PARSE_ERR(HDR ".func f(.param .b32 a);\n.func f() { ret; }\n", 5, 7, "conflicting declaration of 'f'");
	PARSE_ERR(HDR ".version 9.x\n", 4, 10, "malformed .version");
	PARSE_ERR(HDR ".bogus 1;\n", 4, 1, "unknown directive '.bogus'");
	PARSE_ERR(HDR ".global .u32 x = 0f3F80;\n", 4, 18, "malformed floating-point literal");
	PARSE_ERR("\"abc\n", 1, 1, "unterminated string");
	PARSE_ERR(HDR ".entry k() { .reg .b32 %r<0>; }\n", 4, 27, "register count must be at least 1");
	PARSE_ERR(KERNEL("st.global.u32 [%rd1], gv;"), BODY_LINE, 23, "must be a register, an immediate or WARP_SZ");
	PARSE_ERR(KERNEL("brx.idx %r1, nots;"), BODY_LINE, 14, "unknown .branchtargets name 'nots'");
	PARSE_ERR(KERNEL("t: .branchtargets L9;\nbrx.idx %r1, t;"), BODY_LINE, 19, "undefined label 'L9'");
	PARSE_ERR(KERNEL("{ .reg .b32 %q; }\nmov.u32 %q, 1;"), BODY_LINE + 1, 9, "register '%q' is not declared");
	PARSE_ERR(KERNEL("selp.b32 %r1, %r2, !%r3, %p1;"), BODY_LINE, 20, "operand 3 of 'selp' cannot be negated");
	PARSE_ERR(KERNEL("ld.global.u32 %r1, [%rd1+1+2];"), BODY_LINE, 27, "expected ']' after address");
	PARSE_ERR(KERNEL("setp.eq.s32 _|%p1, %r1, %r2;"), BODY_LINE, 13, "destination of 'setp' must be a .pred register");
	PARSE_ERR(KERNEL("add.s32 _|%p1, %r1, %r2;"), BODY_LINE, 9, "operand 1 of 'add' must be a destination register");
	PARSE_ERR(KERNEL("lop3.and.b32 %r1, %r2, %r3, %r4, 0x80;"), BODY_LINE, 1, "'lop3.and' needs 6 operands");
	PARSE_ERR(KERNEL("cvt.rn.f32.f16 %f1, %h1, %h2;"), BODY_LINE, 1, "'cvt' to .f32 takes one source");
}

/* Register operands whose declared type does not fit the instruction type
 * (PTX ISA "Type Checking Rules"): each rejected form here is rejected by
 * ptxas ("Arguments mismatch"), each accepted one is accepted by it (checked
 * with ptxas of CUDA 13, -arch=sm_80). */
#define TYPED(insn) KERNEL(".reg .s32 %s<4>;\n.reg .u32 %u<4>;\n.reg .f16 %hf<4>;\n.reg .u64 %ud<4>;\n" insn)
#define TYPED_LINE (BODY_LINE + 4)
TEST(parse_operand_types)
{
	PARSE_ERR(TYPED("add.u32 %f1, %f1, %p1;"), TYPED_LINE, 9,
		  "operand 1 of 'add' is %f1, a .f32 register, which does not fit the instruction type .u32");
	PARSE_ERR(TYPED("add.u32 %r1, %r1, %p1;"), TYPED_LINE, 19,
		  "operand 3 of 'add' is %p1, a .pred register, which does not fit the instruction type .u32");
	PARSE_ERR(TYPED("add.f32 %f1, %s1, %f2;"), TYPED_LINE, 14, "%s1, a .s32 register");
	PARSE_ERR(TYPED("add.s32 %r1, %rd1, %r1;"), TYPED_LINE, 14, "%rd1, a .b64 register");
	PARSE_ERR(TYPED("add.u32 %rd1, %r1, %r1;"), TYPED_LINE, 9, "(the same size is needed)");
	PARSE_ERR(TYPED("and.pred %p1, %r1, %p2;"), TYPED_LINE, 15, "%r1, a .b32 register");
	PARSE_ERR(TYPED("setp.eq.u32 %p1, %f1, %r1;"), TYPED_LINE, 18, "%f1, a .f32 register");
	PARSE_ERR(TYPED("setp.eq.and.f32 %p1, %f1, %f1, %r1;"), TYPED_LINE, 32, "%r1, a .b32 register");
	PARSE_ERR(TYPED("mov.u32 %r1, %rd1;"), TYPED_LINE, 14, "%rd1, a .b64 register");
	PARSE_ERR(TYPED("mov.u64 %rd1, %fd1;"), TYPED_LINE, 15, "%fd1, a .f64 register");
	PARSE_ERR(TYPED("mov.b32 %r1, %p1;"), TYPED_LINE, 14, "%p1, a .pred register");
	PARSE_ERR(TYPED("mul.wide.u32 %r1, %r1, %r1;"), TYPED_LINE, 14, "does not fit the instruction type .u64");
	PARSE_ERR(TYPED("mad.wide.u32 %rd1, %r1, %r1, %r1;"), TYPED_LINE, 30, "%r1, a .b32 register");
	PARSE_ERR(TYPED("selp.u32 %r1, %r1, %r1, %r2;"), TYPED_LINE, 25, "does not fit the instruction type .pred");
	PARSE_ERR(TYPED("selp.f32 %f1, %s1, %f1, %p1;"), TYPED_LINE, 15, "%s1, a .s32 register");
	PARSE_ERR(TYPED("shl.b32 %r1, %r1, %rd1;"), TYPED_LINE, 19, "%rd1, a .b64 register");
	PARSE_ERR(TYPED("shl.b32 %r1, %r1, %f1;"), TYPED_LINE, 19, "%f1, a .f32 register");
	PARSE_ERR(TYPED("abs.s32 %r1, %f1;"), TYPED_LINE, 14, "%f1, a .f32 register");
	PARSE_ERR(TYPED("rcp.rn.f32 %f1, %s1;"), TYPED_LINE, 17, "%s1, a .s32 register");
	PARSE_ERR(TYPED("add.u16 %h1, %hf1, %h2;"), TYPED_LINE, 14, "%hf1, a .f16 register");
	PARSE_ERR(TYPED("cvt.u32.u64 %r1, %r2;"), TYPED_LINE, 18, "does not fit the instruction type .u64 (it may be wider");
	PARSE_ERR(TYPED("cvt.rzi.s32.f32 %f1, %f1;"), TYPED_LINE, 17, "%f1, a .f32 register");
	PARSE_ERR(TYPED("cvt.rn.f32.f64 %fd2, %fd1;"), TYPED_LINE, 16, "%fd2, a .f64 register");
	PARSE_ERR(TYPED("cvt.f32.f16 %f1, %u1;"), TYPED_LINE, 18, "%u1, a .u32 register");
	PARSE_ERR(TYPED("ld.global.u64 %r1, [%rd1];"), TYPED_LINE, 15, "%r1, a .b32 register");
	PARSE_ERR(TYPED("ld.global.u32 %f1, [%rd1];"), TYPED_LINE, 15, "%f1, a .f32 register");
	PARSE_ERR(TYPED("ld.global.f32 %fd1, [%rd1];"), TYPED_LINE, 15, "%fd1, a .f64 register");
	PARSE_ERR(TYPED("ld.global.f32 %u1, [%rd1];"), TYPED_LINE, 15, "%u1, a .u32 register");
	PARSE_ERR(TYPED("ld.global.b64 %f1, [%rd1];"), TYPED_LINE, 15, "%f1, a .f32 register");
	PARSE_ERR(TYPED("ld.global.v2.u32 {%r1, %f2}, [%rd1];"), TYPED_LINE, 18, "%f2, a .f32 register");
	PARSE_ERR(TYPED("st.global.u32 [%rd1], %h1;"), TYPED_LINE, 23, "%h1, a .b16 register");
	PARSE_ERR(TYPED("st.global.u32 [%rd1], %p1;"), TYPED_LINE, 23, "%p1, a .pred register");
	PARSE_ERR(TYPED("st.global.f32 [%rd1], %s1;"), TYPED_LINE, 23, "%s1, a .s32 register");
	static const char *const ok[] = {
	    "add.f32 %f1, %r1, %f2;", "add.u32 %r1, %s1, %u1;", "and.b32 %r1, %f1, %s1;", "add.f64 %fd1, %rd1, %fd2;",
	    "add.s64 %rd1, %ud1, %rd2;", "add.f16 %hf1, %h1, %hf2;", "add.f16x2 %r1, %r1, %r2;",
	    "mul.wide.u32 %rd1, %r1, %r1;", "mad.wide.u32 %rd1, %r1, %r1, %rd1;", "mul.hi.u32 %r1, %r1, %r1;",
	    "setp.eq.and.f32 %p1|%p2, %f1, %f1, !%p1;", "setp.ne.b32 %p1, %f1, 0;", "setp.eq.f32 %p1, %f1, %r1;",
	    "selp.b32 %r1, %f1, %s1, %p1;", "selp.f32 %f1, %r1, %f1, %p1;", "shl.b32 %r1, %r1, %s1;",
	    "shr.s32 %r1, %r1, %u1;", "shl.b16 %h1, %h1, %r1;", "shl.b64 %rd1, %rd1, %r1;", "neg.f32 %f1, %r1;",
	    "rcp.rn.f64 %fd1, %rd1;", "min.f32 %f1, %f1, %r1;", "fma.rn.f32 %f1, %f1, %r1, %f1;",
	    "mov.f64 %fd1, %rd1;", "mov.b16 %h1, %hf1;", "mov.u32 %r1, %s1;", "not.pred %p1, %p2;",
	    "cvt.u32.u64 %r1, %rd1;", "cvt.u64.u32 %rd1, %rd2;", "cvt.u16.u32 %rd1, %r1;", "cvt.f32.f16 %f1, %h1;",
	    "cvt.f32.f16 %f1, %r1;", "cvt.rn.f16.f32 %r1, %f1;", "cvt.f64.f32 %fd1, %rd1;", "cvt.rn.f32.f64 %rd1, %fd1;",
	    "cvt.rn.f32.u32 %r1, %r1;", "cvt.rn.f32.s32 %f1, %ud1;", "ld.global.u8 %r1, [%rd1];",
	    "ld.global.u32 %rd1, [%rd1];", "ld.global.s32 %ud1, [%rd1];", "ld.global.f32 %r1, [%rd1];",
	    "ld.global.f32 %rd1, [%rd1];", "ld.global.b16 %f1, [%rd1];", "ld.global.b32 %f1, [%rd1];",
	    "st.global.u8 [%rd1], %r1;", "st.global.u32 [%rd1], %rd1;", "st.global.f32 [%rd1], %rd1;",
	    "st.global.b16 [%rd1], %f1;", "ld.global.v2.f32 {%f1, %r2}, [%rd1];", "ld.global.b32 %fd1, [%rd1];",
	    "st.global.b32 [%rd1], %fd1;", "ld.global.b8 %f1, [%rd1];",
	};
	static const char frame[] = TYPED(""); /* ends "\n}\n": the instruction goes before it */
	const size_t head = sizeof frame - 1 - 3;
	for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
		char src[1024];
		snprintf(src, sizeof src, "%.*s%s\n}\n", (int)head, frame, ok[i]);
		struct ptx_error e;
		struct ptx_module *m = ptx_parse(src, strlen(src), "ok.ptx", &e);
		CHECK_MSG(m != NULL, "'%s' is rejected: %u:%u: %s", ok[i], e.line, e.col, e.msg);
		ptx_module_destroy(m);
	}
}

/* The parser recovers at the next statement: every error is counted, the
 * first in the usual fields and the others one line each in `more`. */
TEST(parse_errors_recovered)
{
	const char *src = ".version 8.0\n.target sm_80\n.address_size 64\n.visible .entry k()\n{\n"
			  "  .reg .b32 %r<4>;\n"
			  "  add.u32 %r1, %r2;\n"              /* 7: operand count (found after the ';') */
			  "  mov.u32 %r1, %nope;\n"            /* 8: undeclared */
			  "  ) ;\n"                            /* 9: not an instruction */
			  "  mov.b64 %r1, {%r2, %bad};\n"      /* 10: inside a vector */
			  "  ret;\n}\n";
	struct ptx_error e;
	struct ptx_module *m = ptx_parse(src, strlen(src), "r.ptx", &e);
	CHECK(m == NULL);
	ptx_module_destroy(m);
	CHECK_EQ(e.count, 4u);
	CHECK_EQ(e.line, 7u);
	CHECK_STR_CONTAINS(e.msg, "'add' expects 3 operands, got 2");
	CHECK_STR_CONTAINS(e.more, "r.ptx:8:16: error: register '%nope' is not declared\n");
	CHECK_STR_CONTAINS(e.more, "r.ptx:9:3: error: expected an instruction, got ')'\n");
	CHECK_STR_CONTAINS(e.more, "r.ptx:10:22: error: register '%bad' is not declared\n");
	/* a lone error leaves `more` empty */
	const char *one = ".version 8.0\n.target sm_80\n.address_size 64\n.visible .entry k()\n{\n  frob;\n  ret;\n}\n";
	m = ptx_parse(one, strlen(one), "o.ptx", &e);
	CHECK(m == NULL);
	CHECK_EQ(e.count, 1u);
	CHECK_EQ(e.more[0], '\0');
	/* hundreds of errors: bounded text, a count of the rest, no hang */
	size_t cap = 200000, n = 0;
	char *big = malloc(cap);
	n += (size_t)snprintf(big + n, cap - n, ".version 8.0\n.target sm_80\n.address_size 64\n.visible .entry k()\n{\n");
	for (int i = 0; i < 500; i++)
		n += (size_t)snprintf(big + n, cap - n, "  bogus%d %%x;\n", i);
	snprintf(big + n, cap - n, "  ret;\n}\n");
	m = ptx_parse(big, strlen(big), "b.ptx", &e);
	CHECK(m == NULL);
	CHECK_EQ(e.count, 500u); /* every error is counted, the first 100 shown */
	CHECK_STR_CONTAINS(e.more, "b.ptx:105:3: error: unknown instruction 'bogus99'\n... and 400 more errors\n");
	free(big);
}

TEST(parse_bad_files)
{
	char **names;
	int n = list_ptx(TEST_DATA_DIR "/ptx/bad", &names);
	CHECK_MSG(n >= 30, "only %d files in tests/ptx/bad", n);
	for (int i = 0; i < n; i++) {
		size_t len;
		char *src = read_file(names[i], &len);
		if (!src) {
			test_fail(t, __FILE__, __LINE__, "cannot read %s", names[i]);
			continue;
		}
		unsigned line = 0, col = 0;
		char msg[256] = "";
		const char *ex = strstr(src, "// EXPECT: ");
		if (!ex || ex != src || sscanf(ex, "// EXPECT: %u:%u: %255[^\n]", &line, &col, msg) != 3) {
			test_fail(t, __FILE__, __LINE__, "%s: first line must be '// EXPECT: LINE:COL: MESSAGE'", names[i]);
			free(src);
			continue;
		}
		struct ptx_error e;
		struct ptx_module *m = ptx_parse(src, len, names[i], &e);
		if (m) {
			/* a file may also be wrong in a way only the analysis sees */
			if (ptx_analyse(m, &e)) {
				test_fail(t, __FILE__, __LINE__, "%s: parsed and analysed without error", names[i]);
				ptx_module_destroy(m);
				free(src);
				continue;
			}
			ptx_module_destroy(m);
		}
		if (e.line != line || e.col != col || !strstr(e.msg, msg))
			test_fail(t, __FILE__, __LINE__, "%s: got %u:%u: %s -- expected %u:%u: %s", names[i], e.line, e.col,
				  e.msg, line, col, msg);
		if (strcmp(e.file, names[i]) != 0)
			test_fail(t, __FILE__, __LINE__, "%s: error names file '%s'", names[i], e.file);
		free(src);
	}
	free_names(names, n);
}

TEST(parse_good_files)
{
	char **names;
	int n = list_ptx(TEST_DATA_DIR "/ptx/good", &names);
	CHECK_MSG(n >= 8, "only %d files in tests/ptx/good", n);
	for (int i = 0; i < n; i++) {
		size_t len;
		char *src = read_file(names[i], &len);
		if (!src) {
			test_fail(t, __FILE__, __LINE__, "cannot read %s", names[i]);
			continue;
		}
		struct ptx_error e;
		struct ptx_module *m = ptx_parse(src, len, names[i], &e);
		if (!m) {
			test_fail(t, __FILE__, __LINE__, "%s:%u:%u: %s", names[i], e.line, e.col, e.msg);
			free(src);
			continue;
		}
		check_ir(t, m, names[i]);
		CHECK_MSG(m->nfuncs > 0, "%s: no functions", names[i]);
		/* every instruction formats, and the text re-parses to the same opcode fields */
		for (uint32_t fi = 0; fi < m->nfuncs; fi++) {
			const struct ptx_function *f = &m->funcs[fi];
			for (uint32_t k = 0; k < f->ninsns; k++) {
				char buf[512];
				ptx_insn_format(m, f, &f->insns[k], buf, sizeof buf);
				const char *mn = buf;
				if (buf[0] == '@')
					mn = strchr(buf, ' ') ? strchr(buf, ' ') + 1 : buf;
				size_t nl = strcspn(mn, ". ;");
				CHECK_MSG(ptx_opcode_lookup(mn, nl) == f->insns[k].op, "%s: formatted '%s'", names[i], buf);
			}
		}
		if (!ptx_analyse(m, &e))
			test_fail(t, __FILE__, __LINE__, "%s: analyse: %u:%u: %s", names[i], e.line, e.col, e.msg);
		ptx_module_destroy(m);
		free(src);
	}
	free_names(names, n);
}

/* ------------------------------------------------------------ robustness */

static uint64_t lcg(uint64_t *s)
{
	*s = *s * 6364136223846793005ull + 1442695040888963407ull;
	return *s >> 33;
}

TEST(parse_hostile_input)
{
	struct ptx_error e;
	/* embedded NUL bytes */
	static const char nul[] = HDR ".entry k() {\n ret;\0 }\n";
	struct ptx_module *m = ptx_parse(nul, sizeof(nul) - 1, "n.ptx", &e);
	CHECK(m == NULL);
	CHECK_EQ(e.line, 5);
	CHECK_EQ(e.col, 6);
	CHECK_STR_CONTAINS(e.msg, "unexpected character '\\x00'");
	/* deeply nested blocks */
	size_t depth = 100000;
	char *deep = malloc(depth * 2 + 256);
	if (deep) {
		int o = snprintf(deep, 256, "%s.entry k() {\n", HDR);
		memset(deep + o, '{', depth);
		memset(deep + o + depth, '}', depth);
		deep[o + 2 * depth] = '}';
		m = ptx_parse(deep, (size_t)o + 2 * depth + 1, "d.ptx", &e);
		CHECK(m == NULL);
		CHECK_STR_CONTAINS(e.msg, "nested too deeply");
		/* deeply nested initializer braces */
		o = snprintf(deep, 256, "%s.global .u32 x[2][2] = ", HDR);
		memset(deep + o, '{', depth);
		m = ptx_parse(deep, (size_t)o + depth, "d.ptx", &e);
		CHECK(m == NULL);
		CHECK_STR_CONTAINS(e.msg, "too many nested braces");
		free(deep);
	}
	/* huge counts and sizes */
	PARSE_ERR(KERNEL(".reg .b32 %big<99999999999999999999>;"), BODY_LINE, 16, "number out of range");
	PARSE_ERR(HDR ".global .b8 x[281474976710656][281474976710656];\n", 4, 13, "array too large");
	PARSE_ERR(HDR ".global .b8 x[1000000000] = {1};\n", 4, 29, "initialized variable too large");
	PARSE_ERR(HDR ".global .b8 x[] = {1, 2};\n.global .b8 y[] = {};\n", 5, 20, "empty initializer list");
	/* amplification: per-module caps on initialized bytes and register-name bytes */
	PARSE_ERR(HDR ".global .b8 x[40000000] = {1};\n.global .b8 y[40000000] = {1};\n", 5, 27,
		  "too much initialized data in module");
	{
		static const char pre[] = HDR ".entry k() {\n.reg .b32 %";
		size_t plen = 2000, cap = sizeof(pre) + plen + 64;
		char *src = malloc(cap);
		if (src) {
			size_t o = (size_t)snprintf(src, cap, "%s", pre);
			memset(src + o, 'r', plen);
			o += plen;
			o += (size_t)snprintf(src + o, cap - o, "<1000000>;\n}\n");
			m = ptx_parse(src, o, "names.ptx", &e);
			CHECK(m == NULL);
			CHECK_STR_CONTAINS(e.msg, "names exceed");
			free(src);
		}
	}
	/* every prefix of a valid module parses or fails cleanly */
	static const char good[] = KERNEL(
		"@%p1 bra $L__BB0_2;\n{ .reg .pred %p1; setp.ne.u32 %p1, %r1, 0; }\nld.global.nc.v2.f32 {%f1, %f2}, [%rd1+8];\n"
		"$L__BB0_2:\nshfl.sync.down.b32 %r1|%p1, %r2, 1, 31, -1;\nret;");
	size_t glen = strlen(good);
	int ok = 0;
	for (size_t l = 0; l <= glen; l++) {
		char *cut = malloc(l ? l : 1);
		if (!cut)
			break;
		memcpy(cut, good, l);
		m = ptx_parse(cut, l, "cut.ptx", &e);
		if (m) {
			ok++;
			check_ir(t, m, "prefix");
			ptx_module_destroy(m);
		} else {
			CHECK(e.line >= 1 && e.col >= 1 && e.msg[0]);
		}
		free(cut);
	}
	CHECK(ok >= 2);
	/* random bytes and random token soup */
	static const char *const soup[] = {".reg", ".b32", "%r1", "%r<4>", "{", "}", "[", "]", "(", ")", ",", ";",
					   ":", "@", "!", "|", "+", "-", "add.s32", "ld.global.u32", "bra", "L1",
					   ".entry", "k", ".func", ".param", ".u64", "0f3F800000", "17", "_", "call",
					   ".visible", ".global", "=", "0xFF", "generic", ".branchtargets", "brx.idx",
					   "%p1", "/*", "*/", "\n", "\"", "1.5", "<", ">", "$L", "\0"};
	uint64_t seed = 12345;
	char buf[600];
	for (int iter = 0; iter < 3000; iter++) {
		size_t n = 0;
		if (iter & 1) {
			n = (size_t)(lcg(&seed) % sizeof(buf));
			for (size_t i = 0; i < n; i++)
				buf[i] = (char)lcg(&seed);
		} else {
			n = (size_t)snprintf(buf, sizeof buf, "%s.entry k() {\n.reg .b32 %%r<4>;\n.reg .pred %%p<2>;\n", HDR);
			while (n < sizeof(buf) - 24) {
				const char *w = soup[lcg(&seed) % (sizeof(soup) / sizeof(soup[0]))];
				size_t wl = strlen(w);
				if (wl == 0)
					buf[n++] = 0;
				memcpy(buf + n, w, wl);
				n += wl;
				buf[n++] = ' ';
				if (lcg(&seed) % 16 == 0)
					break;
			}
		}
		m = ptx_parse(buf, n, "r.ptx", &e);
		if (m) {
			check_ir(t, m, "random");
			ptx_module_destroy(m);
		} else {
			CHECK(e.msg[0] != 0);
		}
	}
}

TEST(parse_large_module_is_linear)
{
	/* 100k instructions with labels and branches, 1000 functions */
	size_t cap = 8u << 20, n = 0;
	char *src = malloc(cap);
	if (!src)
		return;
	n += (size_t)snprintf(src + n, cap - n, "%s", HDR);
	for (int fn = 0; fn < 1000; fn++) {
		n += (size_t)snprintf(src + n, cap - n,
				      ".visible .entry k%d(.param .u64 p)\n{\n.reg .pred %%p<2>;\n.reg .b32 %%r<64>;\n"
				      ".reg .b64 %%rd<4>;\n",
				      fn);
		for (int i = 0; i < 25; i++)
			n += (size_t)snprintf(src + n, cap - n,
					      "$L__BB%d_%d:\n\tadd.s32 \t%%r%d, %%r%d, %d;\n\tsetp.lt.s32 \t%%p1, %%r%d, 100;\n"
					      "\t@%%p1 bra \t$L__BB%d_%d;\n\tld.global.u32 \t%%r2, [%%rd1+%d];\n",
					      fn, i, (i % 60) + 1, (i % 60) + 2, i, (i % 60) + 1, fn, i / 2, i * 4);
		n += (size_t)snprintf(src + n, cap - n, "\tret;\n}\n");
	}
	struct ptx_error e;
	clock_t t0 = clock();
	struct ptx_module *m = ptx_parse(src, n, "big.ptx", &e);
	double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
	CHECK(m != NULL);
	if (m) {
		CHECK_EQ(m->nfuncs, 1000);
		CHECK_EQ(m->funcs[999].ninsns, 101);
		CHECK_EQ(m->funcs[999].insns[98].opd[0].target, 48);
		ptx_module_destroy(m);
	}
	/* generous bound: catches quadratic behaviour even under sanitizers */
	CHECK_MSG(secs < 5.0, "parsing 100k instructions took %.2f s", secs);
	free(src);
}
