/*
 * parse_check.h -- what the PTX front-end tests share (parse_check.c;
 * test_parse.c, test_parse_errors.c): parsing that must succeed or fail at
 * a given place, the IR consistency check, and a kernel wrapper with a
 * standard register set.
 */
#ifndef WARPSIM_TESTS_PARSE_CHECK_H
#define WARPSIM_TESTS_PARSE_CHECK_H

#include <stdint.h>

#include "ptx/ir.h"
#include "test.h"

/* Parse `src` (as "t.ptx"), which must succeed; a failure is reported at file:line. */
struct ptx_module *parse_ok(struct test_ctx *t, const char *src, const char *file, int line);
#define PARSE_OK(src) parse_ok(t, (src), __FILE__, __LINE__)

/* Parse `src` (as "bad.ptx"), which must fail at line:col with a message containing `msg`. */
void parse_err(struct test_ctx *t, const char *src, uint32_t line, uint32_t col, const char *msg, const char *file,
	       int at);
#define PARSE_ERR(src, l, c, msg) parse_err(t, (src), (l), (c), (msg), __FILE__, __LINE__)

#define HDR ".version 9.0\n.target sm_80\n.address_size 64\n"

/* Wrap instructions in a kernel with a standard register set:
 * %p<8> pred, %r<32> b32, %rd<16> b64, %f<16> f32, %fd<8> f64, %h<4> b16.
 * The instructions start on line 13. */
#define KERNEL(body)                                                                          \
	HDR ".global .align 4 .b32 gv[16];\n"                                                    \
	    ".visible .entry k(.param .u64 k_p0, .param .u32 k_p1)\n{\n"                         \
	    ".reg .pred %p<8>;\n.reg .b32 %r<32>;\n.reg .b64 %rd<16>;\n.reg .f32 %f<16>;\n"      \
	    ".reg .f64 %fd<8>;\n.reg .b16 %h<4>;\n" body "\n}\n"
#define BODY_LINE 13

/* IR consistency: every index in range, every list well formed. */
void check_ir(struct test_ctx *t, const struct ptx_module *m, const char *what);

#endif
