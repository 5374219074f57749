/*
 * test_sem.c -- semantic tests of the lane-parallel ALU (func_exec_alu):
 * integer edge cases, carry chains, bit manipulation, compare/select, mov
 * pack/unpack, IEEE rounding modes, .ftz/.sat, NaN rules and half
 * precision (every cvt class: test_sem_cvt.c; the frame: sem_check.h).  Instructions are built by hand (no parser) and run
 * on a hand-made register frame; expected values are exact bit patterns.
 */
#include <fenv.h>
#include <math.h>
#include <string.h>

#include "func/exec.h"
#include "func/op.h"
#include "sem_check.h"
#include "test.h"

/* ------------------------------------------------------------ dispatch */

TEST(sem_alu_handlers) /* func_ops (opcodes.def FUNC column) routes ALU opcodes to func_alu_check */
{
	CHECK(func_ops[OP_ADD]->check == func_alu_check);
	CHECK(func_ops[OP_CVT]->check == func_alu_check);
	CHECK(func_ops[OP_TANH]->check == func_alu_check);
	CHECK(func_ops[OP_LOP3]->check == func_alu_check);
	CHECK(func_ops[OP_MOV]->check == func_alu_check);
	CHECK(func_ops[OP_LD]->check != func_alu_check);
	CHECK(func_ops[OP_ST]->check != func_alu_check);
	CHECK(func_ops[OP_BRA]->check != func_alu_check);
	CHECK(func_ops[OP_SHFL]->check != func_alu_check);
	CHECK(func_ops[OP_CVTA]->check != func_alu_check);
	CHECK(func_ops[OP_ATOM]->check != func_alu_check);
}

/* Every opcode has a handler with a check and a step; an ALU handler has
 * lane-parallel semantics and a form check, and its float handler (fp) is
 * an ALU handler without one of its own; control and barrier opcodes are
 * SP-class at LAT_CTRL (one unit enum, ptx/unit.h). */
TEST(sem_handler_table)
{
	for (unsigned op = 0; op < OP_COUNT; op++) {
		const struct func_op *h = func_ops[op];
		CHECK_MSG(h && h->check && h->step, "%s: no handler", ptx_opcode_table[op].name);
		if (!h)
			continue;
		if (h->check == func_alu_check) {
			CHECK_MSG(h->step == func_alu_step && h->lanes && h->lanes_check, "%s: incomplete ALU handler",
				  ptx_opcode_table[op].name);
			if (h->fp)
				CHECK_MSG(h->fp->check == func_alu_check && h->fp->lanes && !h->fp->fp && !h->fp->integer,
					  "%s: bad float handler", ptx_opcode_table[op].name);
		}
		CHECK(ptx_opcode_table[op].unit < UNIT_COUNT);
		if (ptx_opcode_table[op].lat == LAT_CTRL)
			CHECK_MSG(ptx_opcode_table[op].unit == UNIT_SP, "%s: control not on SP", ptx_opcode_table[op].name);
	}
}

TEST(sem_check_rejects)
{
	char why[256];
	struct ptx_insn in = mk(OP_ADD, PTX_T_U32, 2);
	in.flags = FLAG_SAT;
	CHECK(!func_alu_check(&in, why, sizeof why));
	CHECK_STR_CONTAINS(why, "add.u32");
	CHECK_STR_CONTAINS(why, "sat");

	in = mk(OP_MUL, PTX_T_S64, 2);
	in.mode = MODE_WIDE;
	CHECK(!func_alu_check(&in, why, sizeof why));
	CHECK_STR_CONTAINS(why, "wide");

	in = mk(OP_CVT, PTX_T_F32, 1);
	in.type2 = PTX_T_S32;
	in.rnd = RND_RNI;
	CHECK(!func_alu_check(&in, why, sizeof why));
	CHECK_STR_CONTAINS(why, "cvt.rni.f32.s32");
	in.rnd = RND_RN;
	CHECK(func_alu_check(&in, why, sizeof why));

	in = mk(OP_SHF, PTX_T_B32, 3);
	in.mode = MODE_L;
	CHECK(!func_alu_check(&in, why, sizeof why)); /* neither .clamp nor .wrap */
	in.flags = FLAG_WRAP;
	CHECK(func_alu_check(&in, why, sizeof why));

	in = mk(OP_SETP, PTX_T_F32, 2);
	in.cmp = CMP_LO;
	CHECK(!func_alu_check(&in, why, sizeof why));
	in.cmp = CMP_LTU;
	CHECK(func_alu_check(&in, why, sizeof why));

	in = mk(OP_ADD, PTX_T_S32, 1); /* one source missing */
	CHECK(!func_alu_check(&in, why, sizeof why));
	CHECK_STR_CONTAINS(why, "operands");

	in = mk(OP_SIN, PTX_T_F64, 1);
	in.flags = FLAG_APPROX;
	CHECK(!func_alu_check(&in, why, sizeof why));

	in = mk(OP_ADD, PTX_T_F16, 2);
	in.rnd = RND_RZ;
	CHECK(!func_alu_check(&in, why, sizeof why));

	in = mk(OP_LD, PTX_T_U32, 1);
	CHECK(!func_alu_check(&in, why, sizeof why));
}

/* ---------------------------------------------------- integer arithmetic */

TEST(sem_add_sub_wrap_and_sat)
{
	struct ptx_insn in = mk(OP_ADD, PTX_T_S32, 2);
	CHECK_EQ(RUN(in, 0x7fffffff, 1, 0), 0x80000000u);
	in.flags = FLAG_SAT;
	CHECK_EQ(RUN(in, 0x7fffffff, 1, 0), 0x7fffffffu);
	CHECK_EQ(RUN(in, 0x80000000, 0xffffffff, 0), 0x80000000u);
	in = mk(OP_SUB, PTX_T_S32, 2);
	in.flags = FLAG_SAT;
	CHECK_EQ(RUN(in, 0x80000000, 1, 0), 0x80000000u);
	CHECK_EQ(RUN(in, 0x7fffffff, 0xffffffff, 0), 0x7fffffffu);
	in = mk(OP_ADD, PTX_T_U16, 2);
	CHECK_EQ(RUN(in, 0xffff, 1, 0), 0);
	in = mk(OP_SUB, PTX_T_U64, 2);
	CHECK_EQ(RUN(in, 0, 1, 0), ~0ull);
	/* sources wider than the type are truncated */
	in = mk(OP_ADD, PTX_T_U32, 2);
	CHECK_EQ(RUN(in, 0x1234567800000001ull, 0xffffffff00000001ull, 0), 2);
}

TEST(sem_add_immediate)
{
	struct ptx_insn in = mk(OP_ADD, PTX_T_S32, 1);
	opd_imm(&in, 2, (uint64_t)-5); /* only the type's bits of an immediate count */
	CHECK_EQ(RUN(in, 3, 0, 0), 0xfffffffeu);
	in.opd[2].imm = 0xfffffffbu; /* as ptx_analyse stores it: zero-extended bits */
	CHECK_EQ(RUN(in, 3, 0, 0), 0xfffffffeu);
	in = mk(OP_SHL, PTX_T_B64, 1);
	opd_imm(&in, 2, 4);
	CHECK_EQ(RUN(in, 0x0fffffffffffffffull, 0, 0), 0xfffffffffffffff0ull);
}

/* 64-bit and 128-bit additions built from 32-bit carry chains, per lane. */
TEST(sem_carry_chain)
{
	struct sem s;
	sem_init(&s);
	const uint64_t av[4] = {0xffffffffffffffffull, 0x00000000ffffffffull, 0x123456789abcdef0ull, 0};
	const uint64_t bv[4] = {1, 1, 0xfedcba9876543210ull, 0};
	for (int l = 0; l < 4; l++) {
		reg(&s, 1)[l] = av[l] & 0xffffffff;
		reg(&s, 2)[l] = av[l] >> 32;
		reg(&s, 3)[l] = bv[l] & 0xffffffff;
		reg(&s, 4)[l] = bv[l] >> 32;
		s.carry[l] = 1; /* stale carry must not leak into add.cc */
	}
	struct ptx_insn lo = mk(OP_ADD, PTX_T_U32, 0), hi = mk(OP_ADDC, PTX_T_U32, 0);
	lo.flags = FLAG_CC;
	opd_reg(&lo, 0, 5);
	opd_reg(&lo, 1, 1);
	opd_reg(&lo, 2, 3);
	opd_reg(&hi, 0, 6);
	opd_reg(&hi, 1, 2);
	opd_reg(&hi, 2, 4);
	CHECK(checked_(t, &lo, __FILE__, __LINE__) && checked_(t, &hi, __FILE__, __LINE__));
	func_exec_alu(&s.x, &lo, 0xf);
	func_exec_alu(&s.x, &hi, 0xf);
	for (int l = 0; l < 4; l++) {
		uint64_t sum = av[l] + bv[l];
		CHECK_EQ(reg(&s, 5)[l] | (reg(&s, 6)[l] << 32), sum);
	}
	/* subtraction chain: sub.cc + subc gives the 64-bit difference */
	struct ptx_insn slo = lo, shi = hi;
	slo.op = OP_SUB;
	shi.op = OP_SUBC;
	func_exec_alu(&s.x, &slo, 0xf);
	func_exec_alu(&s.x, &shi, 0xf);
	for (int l = 0; l < 4; l++)
		CHECK_EQ(reg(&s, 5)[l] | (reg(&s, 6)[l] << 32), av[l] - bv[l]);
	/* the carry flag after a subtraction is the inverted borrow (hardware
	 * computes a + ~b + 1): sub.cc then addc of 0 + 0 reads it back */
	{
		struct ptx_insn sc = mk(OP_SUB, PTX_T_U32, 2), rd = mk(OP_ADDC, PTX_T_U32, 0);
		sc.flags = FLAG_CC;
		opd_reg(&rd, 0, 7);
		opd_imm(&rd, 1, 0);
		opd_imm(&rd, 2, 0);
		const uint32_t sa[4] = {1, 5, 0, 0x80000000u}, sb[4] = {2, 5, 1, 0x7fffffffu};
		for (int l = 0; l < 4; l++) {
			reg(&s, 1)[l] = sa[l];
			reg(&s, 2)[l] = sb[l];
		}
		CHECK(checked_(t, &sc, __FILE__, __LINE__) && checked_(t, &rd, __FILE__, __LINE__));
		func_exec_alu(&s.x, &sc, 0xf);
		func_exec_alu(&s.x, &rd, 0xf);
		for (int l = 0; l < 4; l++)
			CHECK_MSG(reg(&s, 7)[l] == (sa[l] >= sb[l]), "lane %d: %u - %u carry %llu", l, sa[l], sb[l],
				  (unsigned long long)reg(&s, 7)[l]);
		/* subc.cc consumes and produces the same convention: 0 - 0 - borrow(1) */
		struct ptx_insn sbc = mk(OP_SUBC, PTX_T_U32, 2);
		sbc.flags = FLAG_CC;
		reg(&s, 1)[0] = 0;
		reg(&s, 2)[0] = 0;
		s.carry[0] = 0; /* CF = 0: a borrow is pending */
		func_exec_alu(&s.x, &sbc, 1);
		CHECK_EQ(reg(&s, 0)[0], 0xffffffffu);
		CHECK_EQ(s.carry[0], 0); /* borrowed again */
		s.carry[0] = 1; /* no borrow pending */
		func_exec_alu(&s.x, &sbc, 1);
		CHECK_EQ(reg(&s, 0)[0], 0);
		CHECK_EQ(s.carry[0], 1);
	}
	/* add.cc.u64 + addc.cc.u64 + addc: 2^128-1 + 1 carries through both words */
	sem_init(&s);
	reg(&s, 1)[0] = ~0ull;
	reg(&s, 2)[0] = 1;
	struct ptx_insn a64 = mk(OP_ADD, PTX_T_U64, 2);
	a64.flags = FLAG_CC;
	func_exec_alu(&s.x, &a64, 1);
	CHECK_EQ(reg(&s, 0)[0], 0);
	CHECK_EQ(s.carry[0], 1);
	struct ptx_insn c64 = mk(OP_ADDC, PTX_T_U64, 2);
	c64.flags = FLAG_CC;
	reg(&s, 1)[0] = ~0ull;
	reg(&s, 2)[0] = 0;
	func_exec_alu(&s.x, &c64, 1);
	CHECK_EQ(reg(&s, 0)[0], 0);
	CHECK_EQ(s.carry[0], 1);
	/* add.cc into "_" still produces the carry */
	struct ptx_insn sink = mk(OP_ADD, PTX_T_U32, 2);
	sink.flags = FLAG_CC;
	sink.opd[0].kind = OPD_SINK;
	reg(&s, 1)[0] = 0x80000000u;
	reg(&s, 2)[0] = 0x80000000u;
	s.carry[0] = 0;
	CHECK(checked_(t, &sink, __FILE__, __LINE__));
	func_exec_alu(&s.x, &sink, 1);
	CHECK_EQ(s.carry[0], 1);
}

TEST(sem_mul_hi_wide)
{
	struct ptx_insn in = mk(OP_MUL, PTX_T_S32, 2);
	in.mode = MODE_HI;
	CHECK_EQ(RUN(in, 0x80000000u, 0x80000000u, 0), 0x40000000u);
	CHECK_EQ(RUN(in, 0xffffffffu, 0x7fffffffu, 0), 0xffffffffu);
	in.type = PTX_T_U32;
	CHECK_EQ(RUN(in, 0xffffffffu, 0xffffffffu, 0), 0xfffffffeu);
	in.type = PTX_T_U64;
	CHECK_EQ(RUN(in, ~0ull, ~0ull, 0), 0xfffffffffffffffeull);
	in.type = PTX_T_S64;
	CHECK_EQ(RUN(in, 0x8000000000000000ull, 0x8000000000000000ull, 0), 0x4000000000000000ull);
	CHECK_EQ(RUN(in, ~0ull, ~0ull, 0), 0);
	CHECK_EQ(RUN(in, ~0ull, 5, 0), ~0ull);
	in.type = PTX_T_S16;
	CHECK_EQ(RUN(in, 0x8000, 0x8000, 0), 0x4000);
	in = mk(OP_MUL, PTX_T_S32, 2);
	in.mode = MODE_WIDE;
	CHECK_EQ(RUN(in, 0xffffffffu, 2, 0), 0xfffffffffffffffeull);
	in.type = PTX_T_U32;
	CHECK_EQ(RUN(in, 0xffffffffu, 0xffffffffu, 0), 0xfffffffe00000001ull);
	in.type = PTX_T_U16;
	CHECK_EQ(RUN(in, 0xffff, 0xffff, 0), 0xfffe0001u);
	in = mk(OP_MUL, PTX_T_S32, 2);
	in.mode = MODE_LO;
	CHECK_EQ(RUN(in, 0x10000, 0x10001, 0), 0x10000);
}

TEST(sem_mad_forms)
{
	struct ptx_insn in = mk(OP_MAD, PTX_T_S32, 3);
	in.mode = MODE_LO;
	CHECK_EQ(RUN(in, 3, 0xfffffffbu, 100), 85);
	in.mode = MODE_HI;
	in.flags = FLAG_SAT;
	CHECK_EQ(RUN(in, 0x7fffffffu, 0x7fffffffu, 0x7fffffffu), 0x7fffffffu);
	CHECK_EQ(RUN(in, 0x80000000u, 0x7fffffffu, 0x80000000u), 0x80000000u);
	in = mk(OP_MAD, PTX_T_U32, 3);
	in.mode = MODE_WIDE;
	CHECK_EQ(RUN(in, 0xffffffffu, 0xffffffffu, 0xffffffffu), 0xffffffff00000000ull);
	CHECK_EQ(RUN(in, 0xffffffffu, 0xffffffffu, 0x1ffffffffull), 0); /* wraps at 64 bits */
	in.type = PTX_T_S32;
	CHECK_EQ(RUN(in, 0xffffffffu, 2, 10), 8); /* -1 * 2 + 10 */
	CHECK_EQ(RUN(in, 0x80000000u, 0x80000000u, 0), 0x4000000000000000ull);
	/* mad.lo.cc + madc.hi: a*b + c with carry into the high word */
	struct sem s;
	sem_init(&s);
	reg(&s, 1)[0] = 0xffffffffu;
	reg(&s, 2)[0] = 0xffffffffu;
	reg(&s, 3)[0] = 0xffffffffu;
	struct ptx_insn m1 = mk(OP_MAD, PTX_T_U32, 3);
	m1.mode = MODE_LO;
	m1.flags = FLAG_CC;
	opd_reg(&m1, 0, 5);
	struct ptx_insn m2 = mk(OP_MADC, PTX_T_U32, 3);
	m2.mode = MODE_HI;
	opd_reg(&m2, 0, 6);
	opd_reg(&m2, 3, 7); /* c = 0 */
	CHECK(checked_(t, &m1, __FILE__, __LINE__) && checked_(t, &m2, __FILE__, __LINE__));
	func_exec_alu(&s.x, &m1, 1);
	func_exec_alu(&s.x, &m2, 1);
	/* (2^32-1)^2 + (2^32-1) = 0xffffffff00000000 */
	CHECK_EQ(reg(&s, 5)[0], 0);
	CHECK_EQ(reg(&s, 6)[0], 0xffffffffu);
}

TEST(sem_mul24_sad)
{
	struct ptx_insn in = mk(OP_MUL24, PTX_T_S32, 2);
	in.mode = MODE_LO;
	CHECK_EQ(RUN(in, 0x00800000u, 2, 0), 0xff000000u); /* bit 23 is the sign */
	CHECK_EQ(RUN(in, 0xff000003u, 5, 0), 15);          /* bits 31..24 ignored */
	in.type = PTX_T_U32;
	in.mode = MODE_HI;
	CHECK_EQ(RUN(in, 0xffffff, 0xffffff, 0), 0xfffffe00u);
	in = mk(OP_MAD24, PTX_T_U32, 3);
	in.mode = MODE_LO;
	CHECK_EQ(RUN(in, 1000, 1000, 7), 1000007);
	in = mk(OP_SAD, PTX_T_S32, 3);
	CHECK_EQ(RUN(in, 0xfffffffdu, 4, 10), 17);
	in.type = PTX_T_U32;
	CHECK_EQ(RUN(in, 0xfffffffdu, 4, 10), 0xfffffff9u + 10);
}

TEST(sem_div_rem_int)
{
	struct ptx_insn in = mk(OP_DIV, PTX_T_U32, 2);
	CHECK_EQ(RUN(in, 7, 0, 0), 0xffffffffu);
	CHECK_EQ(RUN(in, 7, 2, 0), 3);
	in.type = PTX_T_S32;
	CHECK_EQ(RUN(in, 7, 0, 0), 0xffffffffu);
	CHECK_EQ(RUN(in, 0xfffffff9u, 0, 0), 1);
	CHECK_EQ(RUN(in, 0x80000000u, 0xffffffffu, 0), 0x80000000u);
	CHECK_EQ(RUN(in, 0xfffffff9u, 2, 0), 0xfffffffdu); /* -7/2 = -3 */
	in.type = PTX_T_S64;
	CHECK_EQ(RUN(in, 0x8000000000000000ull, ~0ull, 0), 0x8000000000000000ull);
	in.type = PTX_T_U64;
	CHECK_EQ(RUN(in, 5, 0, 0), ~0ull);
	in = mk(OP_REM, PTX_T_S32, 2);
	CHECK_EQ(RUN(in, 0x80000000u, 0xffffffffu, 0), 0);
	CHECK_EQ(RUN(in, 0xfffffff9u, 2, 0), 0xffffffffu); /* -7%2 = -1 */
	CHECK_EQ(RUN(in, 0xfffffff9u, 0, 0), 0xfffffff9u);
	in.type = PTX_T_U16;
	CHECK_EQ(RUN(in, 1234, 0, 0), 1234);
	in.type = PTX_T_S64;
	CHECK_EQ(RUN(in, 0x8000000000000000ull, ~0ull, 0), 0);
}

TEST(sem_abs_neg_minmax_int)
{
	struct ptx_insn in = mk(OP_ABS, PTX_T_S32, 1);
	CHECK_EQ(RUN(in, 0x80000000u, 0, 0), 0x80000000u);
	CHECK_EQ(RUN(in, 0xfffffffbu, 0, 0), 5);
	in.type = PTX_T_S16;
	CHECK_EQ(RUN(in, 0xfffe, 0, 0), 2);
	in = mk(OP_NEG, PTX_T_S64, 1);
	CHECK_EQ(RUN(in, 1, 0, 0), ~0ull);
	in = mk(OP_MIN, PTX_T_S32, 2);
	CHECK_EQ(RUN(in, 0xffffffffu, 1, 0), 0xffffffffu);
	in.type = PTX_T_U32;
	CHECK_EQ(RUN(in, 0xffffffffu, 1, 0), 1);
	in = mk(OP_MAX, PTX_T_S16, 2);
	CHECK_EQ(RUN(in, 0x8000, 0x7fff, 0), 0x7fff);
	in = mk(OP_MAX, PTX_T_S32, 2);
	in.flags = FLAG_RELU;
	CHECK_EQ(RUN(in, 0xfffffff0u, 0xfffffff5u, 0), 0);
	CHECK_EQ(RUN(in, 0xfffffff0u, 3, 0), 3);
}

TEST(sem_dp4a_dp2a)
{
	struct ptx_insn in = mk(OP_DP4A, PTX_T_U32, 3);
	in.type2 = PTX_T_U32;
	CHECK_EQ(RUN(in, 0x01020304u, 0x01010101u, 100), 110);
	CHECK_EQ(RUN(in, 0xffffffffu, 0xffffffffu, 0), 4u * 255 * 255);
	in.type = PTX_T_S32;
	CHECK_EQ(RUN(in, 0xffffffffu, 0x01010101u, 0), 0xfffffffcu); /* 4 * (-1 * 1) */
	in.type2 = PTX_T_S32;
	CHECK_EQ(RUN(in, 0xffffffffu, 0xffffffffu, 0), 4);
	in = mk(OP_DP2A, PTX_T_S32, 3);
	in.type2 = PTX_T_U32;
	in.mode = MODE_LO;
	CHECK_EQ(RUN(in, 0xfffe0003u, 0x04030201u, 1), 1 + 3 * 1 - 2 * 2);
	in.mode = MODE_HI;
	CHECK_EQ(RUN(in, 0xfffe0003u, 0x04030201u, 1), (uint64_t)(uint32_t)(1 + 3 * 3 - 2 * 4));
}

/* --------------------------------------------------------- shifts & bits */

TEST(sem_shifts_by_width_or_more)
{
	struct ptx_insn in = mk(OP_SHL, PTX_T_B32, 2);
	CHECK_EQ(RUN(in, 1, 31, 0), 0x80000000u);
	CHECK_EQ(RUN(in, 1, 32, 0), 0);
	CHECK_EQ(RUN(in, 1, 0xffffffffu, 0), 0);
	CHECK_EQ(RUN(in, 1, 0x100000001ull, 0), 2); /* shift amount is .u32 */
	in.type = PTX_T_B16;
	CHECK_EQ(RUN(in, 0xffff, 8, 0), 0xff00);
	CHECK_EQ(RUN(in, 0xffff, 16, 0), 0);
	in = mk(OP_SHR, PTX_T_S32, 2);
	CHECK_EQ(RUN(in, 0x80000000u, 4, 0), 0xf8000000u);
	CHECK_EQ(RUN(in, 0x80000000u, 40, 0), 0xffffffffu);
	CHECK_EQ(RUN(in, 0x40000000u, 40, 0), 0);
	in.type = PTX_T_U32;
	CHECK_EQ(RUN(in, 0x80000000u, 31, 0), 1);
	CHECK_EQ(RUN(in, 0x80000000u, 32, 0), 0);
	in.type = PTX_T_S64;
	CHECK_EQ(RUN(in, 0x8000000000000000ull, 63, 0), ~0ull);
	CHECK_EQ(RUN(in, 0x8000000000000000ull, 64, 0), ~0ull);
	in.type = PTX_T_S16;
	CHECK_EQ(RUN(in, 0x8000, 3, 0), 0xf000);
}

TEST(sem_shf_funnel)
{
	struct ptx_insn in = mk(OP_SHF, PTX_T_B32, 3);
	in.mode = MODE_L;
	in.flags = FLAG_WRAP;
	CHECK_EQ(RUN(in, 0x80000000u, 0x00000001u, 1), 0x00000003u);
	CHECK_EQ(RUN(in, 0x80000000u, 0x00000001u, 33), 0x00000003u); /* 33 & 31 */
	in.flags = FLAG_CLAMP;
	CHECK_EQ(RUN(in, 0x12345678u, 0x9abcdef0u, 40), 0x12345678u); /* n = 32: a */
	in.mode = MODE_R;
	CHECK_EQ(RUN(in, 0x12345678u, 0x9abcdef0u, 40), 0x9abcdef0u); /* n = 32: b */
	CHECK_EQ(RUN(in, 0x00000001u, 0x00000003u, 1), 0x80000000u);
	in.flags = FLAG_WRAP;
	CHECK_EQ(RUN(in, 0x12345678u, 0x9abcdef0u, 32), 0x12345678u);
	CHECK_EQ(RUN(in, 0x12345678u, 0x9abcdef0u, 8), 0xf0123456u);
}

TEST(sem_bfe_bfi)
{
	struct ptx_insn in = mk(OP_BFE, PTX_T_U32, 3);
	CHECK_EQ(RUN(in, 0xabcd1234u, 8, 8), 0x12);
	CHECK_EQ(RUN(in, 0xabcd1234u, 8, 0), 0);
	CHECK_EQ(RUN(in, 0xabcd1234u, 28, 8), 0xa);
	CHECK_EQ(RUN(in, 0xabcd1234u, 40, 8), 0);
	CHECK_EQ(RUN(in, 0xabcd1234u, 0x108, 0x208), 0x12); /* only bits 7:0 of pos/len */
	in.type = PTX_T_S32;
	CHECK_EQ(RUN(in, 0xabcd1234u, 28, 4), 0xfffffffau);
	CHECK_EQ(RUN(in, 0xabcd1234u, 8, 0), 0);            /* len 0: sign bit 0 */
	CHECK_EQ(RUN(in, 0xabcd1234u, 40, 1), 0xffffffffu); /* beyond msb: replicate bit 31 */
	CHECK_EQ(RUN(in, 0x00000080u, 4, 4), 0xfffffff8u);
	in.type = PTX_T_S64;
	CHECK_EQ(RUN(in, 0x8000000000000000ull, 60, 10), 0xfffffffffffffff8ull);
	in.type = PTX_T_U64;
	CHECK_EQ(RUN(in, 0xf0f0000000000000ull, 56, 8), 0xf0);

	in = mk(OP_BFI, PTX_T_B32, 4);
	CHECK_EQ(RUN4(in, 0xff, 0x12345678u, 8, 8), 0x1234ff78u);
	CHECK_EQ(RUN4(in, 0xff, 0x12345678u, 28, 8), 0xf2345678u);
	CHECK_EQ(RUN4(in, 0xff, 0x12345678u, 8, 0), 0x12345678u);
	CHECK_EQ(RUN4(in, 0xff, 0x12345678u, 32, 8), 0x12345678u);
}

TEST(sem_bfind_popc_clz_brev)
{
	struct ptx_insn in = mk(OP_BFIND, PTX_T_U32, 1);
	CHECK_EQ(RUN(in, 0, 0, 0), 0xffffffffu);
	CHECK_EQ(RUN(in, 0x00010000u, 0, 0), 16);
	in.flags = FLAG_SHIFTAMT;
	CHECK_EQ(RUN(in, 0x00010000u, 0, 0), 15);
	CHECK_EQ(RUN(in, 0, 0, 0), 0xffffffffu);
	in.flags = 0;
	in.type = PTX_T_S32;
	CHECK_EQ(RUN(in, 0xffffffffu, 0, 0), 0xffffffffu); /* -1: no non-sign bit */
	CHECK_EQ(RUN(in, 0xfffff000u, 0, 0), 11);
	in.type = PTX_T_U64;
	CHECK_EQ(RUN(in, 0x8000000000000000ull, 0, 0), 63);

	in = mk(OP_POPC, PTX_T_B64, 1);
	CHECK_EQ(RUN(in, ~0ull, 0, 0), 64);
	in.type = PTX_T_B32;
	CHECK_EQ(RUN(in, 0xff000000000000f1ull, 0, 0), 5);
	in = mk(OP_CLZ, PTX_T_B32, 1);
	CHECK_EQ(RUN(in, 0, 0, 0), 32);
	CHECK_EQ(RUN(in, 0x00010000u, 0, 0), 15);
	in.type = PTX_T_B64;
	CHECK_EQ(RUN(in, 0, 0, 0), 64);
	CHECK_EQ(RUN(in, 1, 0, 0), 63);
	in = mk(OP_BREV, PTX_T_B32, 1);
	CHECK_EQ(RUN(in, 0x00000001u, 0, 0), 0x80000000u);
	CHECK_EQ(RUN(in, 0x12345678u, 0, 0), 0x1e6a2c48u);
	in.type = PTX_T_B64;
	CHECK_EQ(RUN(in, 3, 0, 0), 0xc000000000000000ull);
}

TEST(sem_fns)
{
	struct ptx_insn in = mk(OP_FNS, PTX_T_B32, 3);
	CHECK_EQ(RUN(in, 0xaaaaaaaau, 3, 1), 3);
	CHECK_EQ(RUN(in, 0xaaaaaaaau, 3, 0xffffffffu), 3);
	CHECK_EQ(RUN(in, 0xaaaaaaaau, 2, 1), 3);
	CHECK_EQ(RUN(in, 0xaaaaaaaau, 2, 0xffffffffu), 1);
	CHECK_EQ(RUN(in, 0xaaaaaaaau, 2, 0), 0xffffffffu);
	CHECK_EQ(RUN(in, 0xaaaaaaaau, 0, 3), 5);
	CHECK_EQ(RUN(in, 0xaaaaaaaau, 31, 2), 0xffffffffu);
}

TEST(sem_prmt_modes)
{
	const uint64_t a = 0x33221100u, b = 0x77665544u;
	struct ptx_insn in = mk(OP_PRMT, PTX_T_B32, 3);
	CHECK_EQ(RUN(in, a, b, 0x3210), a);
	CHECK_EQ(RUN(in, a, b, 0x7654), b);
	CHECK_EQ(RUN(in, a, b, 0x0123), 0x00112233u);
	CHECK_EQ(RUN(in, 0x80, b, 0x8880), 0xffffff80u); /* msb of selector: sign replicate */
	in.mode = MODE_PRMT_F4E;
	CHECK_EQ(RUN(in, a, b, 1), 0x44332211u);
	in.mode = MODE_PRMT_B4E;
	CHECK_EQ(RUN(in, a, b, 0), 0x55667700u);
	in.mode = MODE_PRMT_RC8;
	CHECK_EQ(RUN(in, a, b, 2), 0x22222222u);
	in.mode = MODE_PRMT_ECL;
	CHECK_EQ(RUN(in, a, b, 1), 0x33221111u);
	in.mode = MODE_PRMT_ECR;
	CHECK_EQ(RUN(in, a, b, 2), 0x22221100u);
	in.mode = MODE_PRMT_RC16;
	CHECK_EQ(RUN(in, a, b, 1), 0x33223322u);
}

TEST(sem_lop3_and_logic)
{
	struct ptx_insn in = mk(OP_LOP3, PTX_T_B32, 3);
	opd_imm(&in, 4, 0x80);
	CHECK_EQ(RUN(in, 0xff00ff00u, 0xf0f0f0f0u, 0xccccccccu), 0xc000c000u);
	in.opd[4].imm = 0xfe;
	CHECK_EQ(RUN(in, 0xff000000u, 0x00f00000u, 0x0000000fu), 0xfff0000fu);
	in.opd[4].imm = 0x96; /* a ^ b ^ c */
	CHECK_EQ(RUN(in, 0xff00ff00u, 0xf0f0f0f0u, 0xccccccccu), 0xc33cc33cu);
	in.opd[4].imm = 0x1a; /* (a & b | c) ^ a */
	CHECK_EQ(RUN(in, 0xf0u, 0xccu, 0xaau), 0x1au);
	/* lop3.or.b32 d|p, a, b, c, 0x00, q: p = (d != 0) | q */
	struct sem s;
	sem_init(&s);
	struct ptx_insn lp = mk(OP_LOP3, PTX_T_B32, 3);
	opd_imm(&lp, 4, 0);
	opd_reg(&lp, 5, 9);
	lp.boolop = BOOL_OR;
	lp.opd[0].reg2 = 8;
	reg(&s, 9)[0] = 0;
	reg(&s, 9)[1] = 1;
	CHECK(checked_(t, &lp, __FILE__, __LINE__));
	func_exec_alu(&s.x, &lp, 3);
	CHECK_EQ(reg(&s, 8)[0], 0);
	CHECK_EQ(reg(&s, 8)[1], 1);

	in = mk(OP_NOT, PTX_T_B16, 1);
	CHECK_EQ(RUN(in, 0x00ff, 0, 0), 0xff00);
	in = mk(OP_CNOT, PTX_T_B32, 1);
	CHECK_EQ(RUN(in, 0, 0, 0), 1);
	CHECK_EQ(RUN(in, 0x100000000ull, 0, 0), 1); /* only the low 32 bits count */
	CHECK_EQ(RUN(in, 7, 0, 0), 0);
	in = mk(OP_NOT, PTX_T_PRED, 1);
	CHECK_EQ(RUN(in, 1, 0, 0), 0);
	CHECK_EQ(RUN(in, 0, 0, 0), 1);
	in = mk(OP_XOR, PTX_T_PRED, 2);
	CHECK_EQ(RUN(in, 1, 1, 0), 0);
	in = mk(OP_AND, PTX_T_B64, 2);
	CHECK_EQ(RUN(in, ~0ull, 0x8000000000000001ull, 0), 0x8000000000000001ull);
}

/* ------------------------------------------------------ compare & select */

TEST(sem_setp_int_and_boolop)
{
	struct sem s;
	sem_init(&s);
	struct ptx_insn in = mk(OP_SETP, PTX_T_S32, 2);
	in.cmp = CMP_LT;
	in.opd[0].reg2 = 5;          /* p|q */
	reg(&s, 1)[0] = 0xffffffffu; /* -1 < 1 */
	reg(&s, 2)[0] = 1;
	reg(&s, 1)[1] = 2;
	reg(&s, 2)[1] = 1;
	CHECK(checked_(t, &in, __FILE__, __LINE__));
	func_exec_alu(&s.x, &in, 3);
	CHECK_EQ(reg(&s, 0)[0], 1);
	CHECK_EQ(reg(&s, 5)[0], 0);
	CHECK_EQ(reg(&s, 0)[1], 0);
	CHECK_EQ(reg(&s, 5)[1], 1);
	in.type = PTX_T_U32; /* unsigned: 0xffffffff > 1 */
	func_exec_alu(&s.x, &in, 1);
	CHECK_EQ(reg(&s, 0)[0], 0);
	in.type = PTX_T_S32;
	in.cmp = CMP_LO; /* lo is unsigned whatever the type */
	func_exec_alu(&s.x, &in, 1);
	CHECK_EQ(reg(&s, 0)[0], 0);
	/* setp.lt.and.s32 p|q, a, b, c: p = t & c, q = !t & c */
	in.cmp = CMP_LT;
	in.boolop = BOOL_AND;
	opd_reg(&in, 3, 6);
	reg(&s, 6)[0] = 1;
	reg(&s, 6)[1] = 1;
	CHECK(checked_(t, &in, __FILE__, __LINE__));
	func_exec_alu(&s.x, &in, 3);
	CHECK_EQ(reg(&s, 0)[0], 1);
	CHECK_EQ(reg(&s, 5)[0], 0);
	CHECK_EQ(reg(&s, 0)[1], 0);
	CHECK_EQ(reg(&s, 5)[1], 1);
	in.boolop = BOOL_XOR;
	reg(&s, 6)[0] = 1;
	func_exec_alu(&s.x, &in, 1);
	CHECK_EQ(reg(&s, 0)[0], 0);
	CHECK_EQ(reg(&s, 5)[0], 1);
	in.boolop = BOOL_OR;
	reg(&s, 6)[1] = 0;
	func_exec_alu(&s.x, &in, 2);
	CHECK_EQ(reg(&s, 0)[1], 0);
	CHECK_EQ(reg(&s, 5)[1], 1);
	/* 16-bit compare ignores upper register bits */
	struct ptx_insn h = mk(OP_SETP, PTX_T_U16, 2);
	h.cmp = CMP_EQ;
	CHECK_EQ(RUN(h, 0x10005, 0x20005, 0), 1);
}

TEST(sem_setp_float_unordered)
{
	const uint64_t nan = 0x7fc00000u, one = F(1.0f);
	struct ptx_insn in = mk(OP_SETP, PTX_T_F32, 2);
	in.cmp = CMP_LT;
	CHECK_EQ(RUN(in, nan, one, 0), 0);
	in.cmp = CMP_LTU;
	CHECK_EQ(RUN(in, nan, one, 0), 1);
	in.cmp = CMP_NE;
	CHECK_EQ(RUN(in, nan, one, 0), 0);
	in.cmp = CMP_NEU;
	CHECK_EQ(RUN(in, nan, one, 0), 1);
	in.cmp = CMP_GEU;
	CHECK_EQ(RUN(in, F(0.5f), one, 0), 0);
	in.cmp = CMP_EQ;
	CHECK_EQ(RUN(in, F(-0.0f), F(0.0f), 0), 1);
	CHECK_EQ(RUN(in, nan, nan, 0), 0);
	in.cmp = CMP_NUM;
	CHECK_EQ(RUN(in, one, one, 0), 1);
	CHECK_EQ(RUN(in, one, nan, 0), 0);
	in.cmp = CMP_NAN;
	CHECK_EQ(RUN(in, one, nan, 0), 1);
	/* .ftz: subnormal compares equal to zero */
	in.cmp = CMP_EQ;
	CHECK_EQ(RUN(in, 1, 0, 0), 0);
	in.flags = FLAG_FTZ;
	CHECK_EQ(RUN(in, 1, 0, 0), 1);
	in = mk(OP_SETP, PTX_T_F64, 2);
	in.cmp = CMP_GT;
	CHECK_EQ(RUN(in, D(1.0), D(0.5), 0), 1);
	in.cmp = CMP_GTU;
	CHECK_EQ(RUN(in, D(NAN), D(0.5), 0), 1);
	/* f16x2: p gets the low halves, q the high halves */
	struct sem s;
	sem_init(&s);
	struct ptx_insn h = mk(OP_SETP, PTX_T_F16X2, 2);
	h.cmp = CMP_LT;
	h.opd[0].reg2 = 5;
	reg(&s, 1)[0] = 0x3c00bc00u; /* hi 1.0, lo -1.0 */
	reg(&s, 2)[0] = 0x00000000u;
	CHECK(checked_(t, &h, __FILE__, __LINE__));
	func_exec_alu(&s.x, &h, 1);
	CHECK_EQ(reg(&s, 0)[0], 1);
	CHECK_EQ(reg(&s, 5)[0], 0);
}

TEST(sem_set_results)
{
	struct ptx_insn in = mk(OP_SET, PTX_T_U32, 2);
	in.type2 = PTX_T_S32;
	in.cmp = CMP_LT;
	CHECK_EQ(RUN(in, 0xffffffffu, 0, 0), 0xffffffffu);
	CHECK_EQ(RUN(in, 1, 0, 0), 0);
	in.type = PTX_T_F32;
	CHECK_EQ(RUN(in, 0xffffffffu, 0, 0), 0x3f800000u);
	in.type = PTX_T_S32;
	in.type2 = PTX_T_F32;
	in.cmp = CMP_GE;
	CHECK_EQ(RUN(in, F(2.0f), F(1.0f), 0), 0xffffffffu);
	in.boolop = BOOL_AND;
	opd_reg(&in, 3, 3);
	CHECK_EQ(RUN(in, F(2.0f), F(1.0f), 0), 0);
	CHECK_EQ(RUN(in, F(2.0f), F(1.0f), 1), 0xffffffffu);
	/* set.lt.f16x2.f16x2: 1.0 per true half */
	struct ptx_insn h = mk(OP_SET, PTX_T_F16X2, 2);
	h.type2 = PTX_T_F16X2;
	h.cmp = CMP_LT;
	CHECK_EQ(RUN(h, 0x3c00bc00u, 0, 0), 0x00003c00u);
	h.type = PTX_T_U32;
	CHECK_EQ(RUN(h, 0x3c00bc00u, 0, 0), 0x0000ffffu);
}

TEST(sem_selp_slct)
{
	struct ptx_insn in = mk(OP_SELP, PTX_T_B32, 3);
	CHECK_EQ(RUN(in, 11, 22, 1), 11);
	CHECK_EQ(RUN(in, 11, 22, 0), 22);
	in.type = PTX_T_U16;
	CHECK_EQ(RUN(in, 0x12345, 22, 1), 0x2345);
	in = mk(OP_SLCT, PTX_T_U32, 3);
	in.type2 = PTX_T_S32;
	CHECK_EQ(RUN(in, 11, 22, 0), 11);
	CHECK_EQ(RUN(in, 11, 22, 0xffffffffu), 22);
	in.type2 = PTX_T_F32;
	CHECK_EQ(RUN(in, 11, 22, F(-0.0f)), 11); /* -0.0 >= 0 */
	CHECK_EQ(RUN(in, 11, 22, F(-1.0f)), 22);
	CHECK_EQ(RUN(in, 11, 22, 0x7fc00000u), 22);
	CHECK_EQ(RUN(in, 11, 22, 0x80000001u), 22); /* negative subnormal */
	in.flags = FLAG_FTZ;
	CHECK_EQ(RUN(in, 11, 22, 0x80000001u), 11); /* flushed to -0.0 */
}

/* ------------------------------------------------------------------ mov */

TEST(sem_mov_pack_unpack)
{
	struct sem s;
	sem_init(&s);
	struct ptx_elem ev_in[4] = {{0}}, ev_un[4] = {{0}}, ev_u4[4] = {{0}}; /* vector elements live out of line */
	struct ptx_insn in = mk(OP_MOV, PTX_T_B64, 0);
	opd_reg(&in, 0, 0);
	in.opd[1].elem = ev_in;
	in.opd[1].kind = OPD_VEC;
	in.opd[1].nelem = 2;
	in.opd[1].elem[0].kind = OPD_REG;
	in.opd[1].elem[0].reg = 1;
	in.opd[1].elem[1].kind = OPD_REG;
	in.opd[1].elem[1].reg = 2;
	in.nopd = 2;
	reg(&s, 1)[3] = 0x11111111u;
	reg(&s, 2)[3] = 0x22222222u;
	CHECK(checked_(t, &in, __FILE__, __LINE__));
	func_exec_alu(&s.x, &in, 1u << 3);
	CHECK_EQ(reg(&s, 0)[3], 0x2222222211111111ull);
	/* unpack back into r5, r6 */
	struct ptx_insn un = mk(OP_MOV, PTX_T_B64, 0);
	un.opd[0].elem = ev_un;
	un.opd[0].kind = OPD_VEC;
	un.opd[0].nelem = 2;
	un.opd[0].elem[0].kind = OPD_REG;
	un.opd[0].elem[0].reg = 5;
	un.opd[0].elem[1].kind = OPD_REG;
	un.opd[0].elem[1].reg = 6;
	opd_reg(&un, 1, 0);
	CHECK(checked_(t, &un, __FILE__, __LINE__));
	func_exec_alu(&s.x, &un, 1u << 3);
	CHECK_EQ(reg(&s, 5)[3], 0x11111111u);
	CHECK_EQ(reg(&s, 6)[3], 0x22222222u);
	/* b32 <-> {b16, b16} with an immediate element, sink on unpack */
	in.type = PTX_T_B32;
	in.opd[1].elem[1].kind = OPD_IMM;
	in.opd[1].elem[1].imm = 0xabcd;
	reg(&s, 1)[0] = 0x99991234u;
	func_exec_alu(&s.x, &in, 1);
	CHECK_EQ(reg(&s, 0)[0], 0xabcd1234u);
	un.type = PTX_T_B32;
	un.opd[0].elem[0].kind = OPD_SINK;
	reg(&s, 5)[0] = 77;
	func_exec_alu(&s.x, &un, 1);
	CHECK_EQ(reg(&s, 5)[0], 77);
	CHECK_EQ(reg(&s, 6)[0], 0xabcd);
	/* b64 <-> 4 x b16 */
	struct ptx_insn u4 = mk(OP_MOV, PTX_T_B64, 0);
	u4.opd[0].elem = ev_u4;
	u4.opd[0].kind = OPD_VEC;
	u4.opd[0].nelem = 4;
	for (int i = 0; i < 4; i++) {
		u4.opd[0].elem[i].kind = OPD_REG;
		u4.opd[0].elem[i].reg = 8 + i;
	}
	opd_reg(&u4, 1, 7);
	reg(&s, 7)[0] = 0x4444333322221111ull;
	CHECK(checked_(t, &u4, __FILE__, __LINE__));
	func_exec_alu(&s.x, &u4, 1);
	CHECK_EQ(reg(&s, 8)[0], 0x1111);
	CHECK_EQ(reg(&s, 11)[0], 0x4444);
	/* scalar mov truncates to the type; mov.pred normalises */
	struct ptx_insn m = mk(OP_MOV, PTX_T_U32, 1);
	CHECK_EQ(RUN(m, 0x123456789ull, 0, 0), 0x23456789u);
	m.type = PTX_T_PRED;
	CHECK_EQ(RUN(m, 4, 0, 0), 1);
	m.type = PTX_T_F64;
	CHECK_EQ(RUN(m, D(-2.5), 0, 0), D(-2.5));
}

/* ------------------------------------------------- f32 / f64 arithmetic */

TEST(sem_f32_add_rounding_modes)
{
	struct ptx_insn in = mk(OP_ADD, PTX_T_F32, 2);
	const uint64_t one = F(1.0f), half_ulp = F(0x1p-24f), tiny = F(0x1p-30f);
	in.rnd = RND_RN;
	CHECK_EQ(RUN(in, one, half_ulp, 0), 0x3f800000u); /* tie -> even */
	CHECK_EQ(RUN(in, F(1.0f + 0x1p-23f), half_ulp, 0), 0x3f800002u);
	in.rnd = RND_RP;
	CHECK_EQ(RUN(in, one, tiny, 0), 0x3f800001u);
	in.rnd = RND_RM;
	CHECK_EQ(RUN(in, one, tiny, 0), 0x3f800000u);
	CHECK_EQ(RUN(in, F(-1.0f), F(-0x1p-30f), 0), 0xbf800001u);
	CHECK_EQ(RUN(in, one, F(-1.0f), 0), 0x80000000u); /* x - x = -0 in .rm */
	in.rnd = RND_RZ;
	CHECK_EQ(RUN(in, F(-1.0f), F(-0x1p-30f), 0), 0xbf800000u);
	CHECK_EQ(RUN(in, F(0x1.fffffep127f), F(0x1.fffffep127f), 0), 0x7f7fffffu); /* no overflow to inf */
	in.rnd = RND_RN;
	CHECK_EQ(RUN(in, F(0x1.fffffep127f), F(0x1.fffffep127f), 0), 0x7f800000u);
	CHECK(fegetround() == FE_TONEAREST); /* host environment restored */
	in = mk(OP_SUB, PTX_T_F32, 2);
	in.rnd = RND_RP;
	CHECK_EQ(RUN(in, one, tiny, 0), 0x3f800000u);
	in.rnd = RND_RZ;
	CHECK_EQ(RUN(in, one, tiny, 0), 0x3f7fffffu);
}

TEST(sem_f32_mul_fma_div_sqrt_rounding)
{
	struct ptx_insn in = mk(OP_MUL, PTX_T_F32, 2);
	const uint64_t a = F(1.0f + 0x1p-23f), b = F(1.0f + 0x1p-22f); /* product 1 + 3*2^-23 + 2^-45 */
	in.rnd = RND_RN;
	CHECK_EQ(RUN(in, a, b, 0), 0x3f800003u);
	in.rnd = RND_RP;
	CHECK_EQ(RUN(in, a, b, 0), 0x3f800004u);
	in.rnd = RND_RZ;
	CHECK_EQ(RUN(in, a, b, 0), 0x3f800003u);
	/* fma is fused: (1+2^-23)(1-2^-23) - 1 = -2^-46 exactly */
	in = mk(OP_FMA, PTX_T_F32, 3);
	in.rnd = RND_RN;
	CHECK_EQ(RUN(in, F(1.0f + 0x1p-23f), F(1.0f - 0x1p-23f), F(-1.0f)), F(-0x1p-46f));
	in.rnd = RND_RM;
	CHECK_EQ(RUN(in, F(1.0f), F(1.0f), F(-0x1p-30f)), 0x3f7fffffu);
	in.rnd = RND_RP;
	CHECK_EQ(RUN(in, F(1.0f), F(1.0f), F(0x1p-30f)), 0x3f800001u);
	/* div 1/3 and sqrt 2 in all four modes */
	in = mk(OP_DIV, PTX_T_F32, 2);
	const uint64_t one = F(1.0f), three = F(3.0f), two = F(2.0f);
	in.rnd = RND_RN;
	CHECK_EQ(RUN(in, one, three, 0), 0x3eaaaaabu);
	in.rnd = RND_RZ;
	CHECK_EQ(RUN(in, one, three, 0), 0x3eaaaaaau);
	in.rnd = RND_RM;
	CHECK_EQ(RUN(in, one, three, 0), 0x3eaaaaaau);
	in.rnd = RND_RP;
	CHECK_EQ(RUN(in, one, three, 0), 0x3eaaaaabu);
	in.rnd = RND_NONE;
	in.flags = FLAG_FULL;
	CHECK_EQ(RUN(in, one, three, 0), 0x3eaaaaabu);
	in = mk(OP_SQRT, PTX_T_F32, 1);
	in.rnd = RND_RN;
	CHECK_EQ(RUN(in, two, 0, 0), 0x3fb504f3u);
	in.rnd = RND_RP;
	CHECK_EQ(RUN(in, two, 0, 0), 0x3fb504f4u);
	in.rnd = RND_RZ;
	CHECK_EQ(RUN(in, two, 0, 0), 0x3fb504f3u);
	CHECK_EQ(RUN(in, F(-0.0f), 0, 0), 0x80000000u);
	CHECK_EQ(RUN(in, F(-4.0f), 0, 0), 0x7fffffffu);
	in = mk(OP_RCP, PTX_T_F32, 1);
	in.rnd = RND_RZ;
	CHECK_EQ(RUN(in, three, 0, 0), 0x3eaaaaaau);
	CHECK(fegetround() == FE_TONEAREST);
}

TEST(sem_f64_rounding_modes)
{
	struct ptx_insn in = mk(OP_ADD, PTX_T_F64, 2);
	in.rnd = RND_RZ;
	CHECK_EQ(RUN(in, D(1.0), D(0x1p-60), 0), 0x3ff0000000000000ull);
	in.rnd = RND_RP;
	CHECK_EQ(RUN(in, D(1.0), D(0x1p-60), 0), 0x3ff0000000000001ull);
	in.rnd = RND_RM;
	CHECK_EQ(RUN(in, D(-1.0), D(-0x1p-60), 0), 0xbff0000000000001ull);
	in = mk(OP_DIV, PTX_T_F64, 2);
	in.rnd = RND_RN;
	CHECK_EQ(RUN(in, D(1.0), D(3.0), 0), 0x3fd5555555555555ull);
	in.rnd = RND_RP;
	CHECK_EQ(RUN(in, D(1.0), D(3.0), 0), 0x3fd5555555555556ull);
	in = mk(OP_SQRT, PTX_T_F64, 1);
	in.rnd = RND_RN;
	CHECK_EQ(RUN(in, D(2.0), 0, 0), 0x3ff6a09e667f3bcdull);
	in.rnd = RND_RM;
	CHECK_EQ(RUN(in, D(2.0), 0, 0), 0x3ff6a09e667f3bccull);
	in = mk(OP_FMA, PTX_T_F64, 3);
	in.rnd = RND_RZ;
	CHECK_EQ(RUN(in, D(1.0), D(1.0), D(-0x1p-80)), 0x3fefffffffffffffull);
	in = mk(OP_MUL, PTX_T_F64, 2);
	in.rnd = RND_RZ;
	CHECK_EQ(RUN(in, D(0x1p1000), D(0x1p100), 0), 0x7fefffffffffffffull);
	in.rnd = RND_RN;
	CHECK_EQ(RUN(in, D(0x1p1000), D(0x1p100), 0), 0x7ff0000000000000ull);
	CHECK(fegetround() == FE_TONEAREST);
}

TEST(sem_ftz_denormals)
{
	const uint64_t den = 0x00000001u, nden = 0x80000001u;
	struct ptx_insn in = mk(OP_ADD, PTX_T_F32, 2);
	CHECK_EQ(RUN(in, den, 0, 0), den);
	CHECK_EQ(RUN(in, nden, F(-0.0f), 0), nden);
	in.flags = FLAG_FTZ;
	CHECK_EQ(RUN(in, den, 0, 0), 0);
	CHECK_EQ(RUN(in, nden, F(-0.0f), 0), 0x80000000u); /* sign-preserving zero */
	in = mk(OP_MUL, PTX_T_F32, 2);
	CHECK_EQ(RUN(in, F(0x1p-100f), F(0x1p-30f), 0), F(0x1p-130f)); /* subnormal result */
	in.flags = FLAG_FTZ;
	CHECK_EQ(RUN(in, F(0x1p-100f), F(0x1p-30f), 0), 0);
	CHECK_EQ(RUN(in, F(-0x1p-100f), F(0x1p-30f), 0), 0x80000000u);
	CHECK_EQ(RUN(in, F(0x1p-63f), F(0x1p-63f), 0), F(0x1p-126f)); /* smallest normal kept */
	in = mk(OP_EX2, PTX_T_F32, 1);
	in.flags = FLAG_APPROX;
	CHECK_EQ(RUN(in, F(-130.0f), 0, 0), F(0x1p-130f));
	in.flags = FLAG_APPROX | FLAG_FTZ;
	CHECK_EQ(RUN(in, F(-130.0f), 0, 0), 0);
}

TEST(sem_f32_sat)
{
	struct ptx_insn in = mk(OP_ADD, PTX_T_F32, 2);
	in.flags = FLAG_SAT;
	CHECK_EQ(RUN(in, F(0.5f), F(0.75f), 0), F(1.0f));
	CHECK_EQ(RUN(in, F(-3.0f), F(1.0f), 0), 0);
	CHECK_EQ(RUN(in, F(-0.0f), F(-0.0f), 0), 0);
	CHECK_EQ(RUN(in, 0x7fc00000u, F(1.0f), 0), 0);
	CHECK_EQ(RUN(in, F(0.25f), F(0.25f), 0), F(0.5f));
	in = mk(OP_FMA, PTX_T_F32, 3);
	in.rnd = RND_RN;
	in.flags = FLAG_SAT;
	CHECK_EQ(RUN(in, F(2.0f), F(2.0f), F(0.0f)), F(1.0f));
}

TEST(sem_minmax_float_nan)
{
	const uint64_t nan = 0x7fc00001u, one = F(1.0f);
	struct ptx_insn in = mk(OP_MIN, PTX_T_F32, 2);
	CHECK_EQ(RUN(in, nan, one, 0), one);
	CHECK_EQ(RUN(in, one, nan, 0), one);
	CHECK_EQ(RUN(in, nan, nan, 0), 0x7fffffffu);
	CHECK_EQ(RUN(in, F(-0.0f), F(0.0f), 0), 0x80000000u);
	CHECK_EQ(RUN(in, F(0.0f), F(-0.0f), 0), 0x80000000u);
	CHECK_EQ(RUN(in, F(-2.0f), one, 0), F(-2.0f));
	in.flags = FLAG_NAN;
	CHECK_EQ(RUN(in, nan, one, 0), 0x7fffffffu);
	in = mk(OP_MAX, PTX_T_F32, 2);
	CHECK_EQ(RUN(in, F(-0.0f), F(0.0f), 0), 0);
	CHECK_EQ(RUN(in, nan, F(-5.0f), 0), F(-5.0f));
	in.flags = FLAG_FTZ;
	CHECK_EQ(RUN(in, 0x00000005u, 0x80000000u, 0), 0); /* both zero after flush */
	in.flags = FLAG_XORSIGN | FLAG_ABS;
	CHECK_EQ(RUN(in, F(-3.0f), F(2.0f), 0), F(-3.0f));
	CHECK_EQ(RUN(in, F(-3.0f), F(-2.0f), 0), F(3.0f));
	in = mk(OP_MIN, PTX_T_F64, 2);
	CHECK_EQ(RUN(in, D(NAN), D(2.0), 0), D(2.0));
	CHECK_EQ(RUN(in, D(-0.0), D(0.0), 0), D(-0.0));
	in = mk(OP_MAX, PTX_T_F16, 2);
	CHECK_EQ(RUN(in, 0x7e00, 0x3c00, 0), 0x3c00);
	in.flags = FLAG_NAN;
	CHECK_EQ(RUN(in, 0x7e00, 0x3c00, 0), 0x7fff);
	in = mk(OP_MIN, PTX_T_BF16X2, 2);
	CHECK_EQ(RUN(in, 0x3f80c000u, 0x4000bf80u, 0), 0x3f80c000u);
}

TEST(sem_nan_rules)
{
	struct ptx_insn in = mk(OP_ADD, PTX_T_F32, 2);
	CHECK_EQ(RUN(in, 0x7f800123u, F(1.0f), 0), 0x7fffffffu); /* any NaN -> canonical */
	CHECK_EQ(RUN(in, F(INFINITY), F(-INFINITY), 0), 0x7fffffffu);
	in = mk(OP_NEG, PTX_T_F32, 1);
	CHECK_EQ(RUN(in, F(2.0f), 0, 0), F(-2.0f));
	CHECK_EQ(RUN(in, 0xffc00000u, 0, 0), 0x7fffffffu);
	in = mk(OP_ABS, PTX_T_F32, 1);
	in.flags = FLAG_FTZ;
	CHECK_EQ(RUN(in, 0x80000003u, 0, 0), 0);
	/* f64: NaN operands propagate (quieted), generated NaN is 0xfff8... */
	in = mk(OP_ADD, PTX_T_F64, 2);
	CHECK_EQ(RUN(in, D(1.0), 0x7ff0000000000001ull, 0), 0x7ff8000000000001ull);
	CHECK_EQ(RUN(in, D(INFINITY), D(-INFINITY), 0), 0xfff8000000000000ull);
	in = mk(OP_ABS, PTX_T_F64, 1);
	CHECK_EQ(RUN(in, 0xfff0000000000001ull, 0, 0), 0xfff0000000000001ull); /* unchanged */
	CHECK_EQ(RUN(in, D(-3.0), 0, 0), D(3.0));
	in = mk(OP_NEG, PTX_T_F64, 1);
	CHECK_EQ(RUN(in, D(3.0), 0, 0), D(-3.0));
}

TEST(sem_f16_bf16_arith)
{
	struct ptx_insn in = mk(OP_ADD, PTX_T_F16, 2);
	CHECK_EQ(RUN(in, 0x3c00, 0x1000, 0), 0x3c00); /* 1 + 2^-11: tie -> even */
	CHECK_EQ(RUN(in, 0x3c01, 0x1000, 0), 0x3c02); /* tie -> even (up) */
	CHECK_EQ(RUN(in, 0x3c00, 0x1001, 0), 0x3c01); /* just above the tie */
	CHECK_EQ(RUN(in, 0x7bff, 0x7bff, 0), 0x7c00); /* overflow -> inf */
	CHECK_EQ(RUN(in, 0x0001, 0x0001, 0), 0x0002); /* subnormals */
	CHECK_EQ(RUN(in, 0x7e00, 0x3c00, 0), 0x7fff); /* NaN -> canonical */
	in.flags = FLAG_FTZ;
	CHECK_EQ(RUN(in, 0x0001, 0x0001, 0), 0);
	in.flags = FLAG_SAT;
	CHECK_EQ(RUN(in, 0x3c00, 0x3c00, 0), 0x3c00);
	in = mk(OP_MUL, PTX_T_F16X2, 2);
	CHECK_EQ(RUN(in, 0x40004200u, 0x3c00c000u, 0), 0x4000c600u); /* {2*1, 3*-2} */
	in = mk(OP_FMA, PTX_T_F16, 3);
	in.rnd = RND_RN;
	/* fused: (1+2^-10)(1-2^-11) - 1 = 2^-11 - 2^-21 exactly (0x0ffe); a
	 * separately rounded product would give 1.0 - 1 = 0 */
	CHECK_EQ(RUN(in, 0x3c01, 0x3bff, 0xbc00), 0x0ffe);
	in.flags = FLAG_RELU;
	CHECK_EQ(RUN(in, 0x3c00, 0xbc00, 0x0000), 0);
	/* bf16 fma beyond double precision: a*b = 1.65234375 * 2^76 is exactly a
	 * bf16 tie (0x65d3/0x65d4); c = -1.18 * 2^-108 is 184 bits below it and
	 * must still break the tie downwards (ties-to-even alone gives 0x65d4) */
	in = mk(OP_FMA, PTX_T_BF16, 3);
	in.rnd = RND_RN;
	CHECK_EQ(RUN(in, 0x54bc, 0x5090, 0x8997), 0x65d3);
	CHECK_EQ(RUN(in, 0x54bc, 0x5090, 0x0000), 0x65d4);
	CHECK_EQ(RUN(in, 0x54bc, 0x5090, 0x0997), 0x65d4);
	CHECK_EQ(RUN(in, 0xd4bc, 0x5090, 0x0997), 0xe5d3); /* mirrored: magnitude below the tie */
	in = mk(OP_SUB, PTX_T_BF16, 2);
	CHECK_EQ(RUN(in, 0x4000, 0x3f80, 0), 0x3f80); /* 2 - 1 */
	in = mk(OP_ADD, PTX_T_BF16, 2);
	CHECK_EQ(RUN(in, 0x3f80, 0x3b80, 0), 0x3f80); /* 1 + 2^-8: tie -> even */
	CHECK_EQ(RUN(in, 0x3f80, 0x3b81, 0), 0x3f81);
	in = mk(OP_NEG, PTX_T_BF16X2, 1);
	CHECK_EQ(RUN(in, 0x3f80bf80u, 0, 0), 0xbf803f80u);
	in = mk(OP_ABS, PTX_T_F16, 1);
	CHECK_EQ(RUN(in, 0xbc00, 0, 0), 0x3c00);
	in = mk(OP_EX2, PTX_T_F16, 1);
	in.flags = FLAG_APPROX;
	CHECK_EQ(RUN(in, 0x4400, 0, 0), 0x4c00); /* 2^4 = 16 */
}

TEST(sem_testp_copysign)
{
	struct ptx_insn in = mk(OP_TESTP, PTX_T_F32, 1);
	const uint64_t vals[5] = {0, 1, F(1.0f), F(INFINITY), 0x7fc00000u};
	/* expected per mode for {0, subnormal, 1, inf, nan} */
	const struct {
		unsigned mode;
		uint8_t r[5];
	} exp[] = {
	    {MODE_FINITE, {1, 1, 1, 0, 0}},     {MODE_INFINITE, {0, 0, 0, 1, 0}}, {MODE_NUMBER, {1, 1, 1, 1, 0}},
	    {MODE_NOTANUMBER, {0, 0, 0, 0, 1}}, {MODE_NORMAL, {0, 0, 1, 0, 0}},   {MODE_SUBNORMAL, {0, 1, 0, 0, 0}},
	};
	for (unsigned m = 0; m < sizeof exp / sizeof exp[0]; m++) {
		in.mode = (uint8_t)exp[m].mode;
		for (int i = 0; i < 5; i++)
			CHECK_EQ(RUN(in, vals[i], 0, 0), exp[m].r[i]);
	}
	in.type = PTX_T_F64;
	in.mode = MODE_SUBNORMAL;
	CHECK_EQ(RUN(in, 1, 0, 0), 1);
	in.mode = MODE_INFINITE;
	CHECK_EQ(RUN(in, D(-INFINITY), 0, 0), 1);
	struct ptx_insn cs = mk(OP_COPYSIGN, PTX_T_F32, 2);
	CHECK_EQ(RUN(cs, F(-1.0f), F(2.0f), 0), F(-2.0f)); /* sign of a, magnitude of b */
	CHECK_EQ(RUN(cs, F(1.0f), F(-2.0f), 0), F(2.0f));
	cs.type = PTX_T_F64;
	CHECK_EQ(RUN(cs, D(-0.0), D(7.0), 0), D(-7.0));
}

TEST(sem_sfu_approx)
{
	struct ptx_insn in = mk(OP_RCP, PTX_T_F32, 1);
	in.flags = FLAG_APPROX;
	CHECK_EQ(RUN(in, F(4.0f), 0, 0), F(0.25f));
	CHECK_EQ(RUN(in, F(-0.0f), 0, 0), F(-INFINITY));
	in.flags = FLAG_APPROX | FLAG_FTZ;
	CHECK_EQ(RUN(in, 0x00000010u, 0, 0), F(INFINITY)); /* subnormal input flushed */
	in = mk(OP_RSQRT, PTX_T_F32, 1);
	in.flags = FLAG_APPROX;
	CHECK_EQ(RUN(in, F(4.0f), 0, 0), F(0.5f));
	CHECK_EQ(RUN(in, F(-1.0f), 0, 0), 0x7fffffffu);
	in = mk(OP_SQRT, PTX_T_F32, 1);
	in.flags = FLAG_APPROX;
	CHECK_EQ(RUN(in, F(16.0f), 0, 0), F(4.0f));
	in = mk(OP_SIN, PTX_T_F32, 1);
	in.flags = FLAG_APPROX;
	CHECK_EQ(RUN(in, F(0.0f), 0, 0), 0);
	CHECK_EQ(RUN(in, F(INFINITY), 0, 0), 0x7fffffffu);
	in.op = OP_COS;
	CHECK_EQ(RUN(in, F(0.0f), 0, 0), F(1.0f));
	in.op = OP_EX2;
	CHECK_EQ(RUN(in, F(10.0f), 0, 0), F(1024.0f));
	CHECK_EQ(RUN(in, F(-INFINITY), 0, 0), 0);
	in.op = OP_LG2;
	CHECK_EQ(RUN(in, F(8.0f), 0, 0), F(3.0f));
	CHECK_EQ(RUN(in, F(0.0f), 0, 0), F(-INFINITY));
	CHECK_EQ(RUN(in, F(-1.0f), 0, 0), 0x7fffffffu);
	in.op = OP_TANH;
	CHECK_EQ(RUN(in, F(0.0f), 0, 0), 0);
	CHECK_EQ(RUN(in, F(100.0f), 0, 0), F(1.0f));
	float s = toF(RUN(in, F(0.5f), 0, 0));
	CHECK(fabsf(s - tanhf(0.5f)) < 1e-6f);
	/* div.approx: a * (1/b); |b| > 2^126 gives 0 */
	in = mk(OP_DIV, PTX_T_F32, 2);
	in.flags = FLAG_APPROX;
	CHECK_EQ(RUN(in, F(3.0f), F(0x1p127f), 0), 0);
	CHECK_EQ(RUN(in, F(1.0f), F(4.0f), 0), F(0.25f));
	/* rcp.approx.ftz.f64 keeps only the high word */
	in = mk(OP_RCP, PTX_T_F64, 1);
	in.flags = FLAG_APPROX | FLAG_FTZ;
	CHECK_EQ(RUN(in, D(3.0), 0, 0) & 0xffffffffu, 0);
	CHECK(fabs(toD(RUN(in, D(3.0), 0, 0)) - 1.0 / 3.0) < 1e-6);
	in = mk(OP_RCP, PTX_T_F64, 1);
	in.rnd = RND_RN;
	CHECK_EQ(RUN(in, D(3.0), 0, 0), 0x3fd5555555555555ull);
}

TEST(sem_lane_mask_and_warp_width)
{
	struct sem s;
	sem_init(&s);
	for (int l = 0; l < SW; l++) {
		reg(&s, 1)[l] = (uint64_t)l;
		reg(&s, 2)[l] = 100;
		reg(&s, 0)[l] = 0xaaaa;
	}
	struct ptx_insn in = mk(OP_ADD, PTX_T_U32, 2);
	const uint64_t mask = 0x80000005ull | (1ull << 40); /* bit 40 is beyond the warp */
	func_exec_alu(&s.x, &in, mask);
	for (int l = 0; l < SW; l++) {
		uint64_t want = ((mask >> l) & 1) ? (uint64_t)l + 100 : 0xaaaa;
		CHECK_EQ(reg(&s, 0)[l], want);
	}
	/* warp size 8: only lanes 0..7 exist */
	struct sem s8;
	sem_init(&s8);
	s8.x.ws = 8;
	for (int l = 0; l < 8; l++)
		s8.regs[1 * 8 + l] = 0x3f800000u; /* r1 = 1.0f */
	struct ptx_insn f = mk(OP_ADD, PTX_T_F32, 2);
	f.opd[2] = f.opd[1];
	func_exec_alu(&s8.x, &f, 0xffull);
	for (int l = 0; l < 8; l++)
		CHECK_EQ(s8.regs[l], F(2.0f));
	CHECK_EQ(s8.regs[8 * 2], 0); /* r2 lane 0 untouched */
}

TEST(sem_setp_sink_destinations)
{
	struct sem s;
	sem_init(&s);
	struct ptx_insn in = mk(OP_SETP, PTX_T_U32, 2);
	in.cmp = CMP_HS;
	in.opd[0].kind = OPD_SINK;
	in.opd[0].reg2 = 5; /* _|q */
	reg(&s, 1)[0] = 5;
	reg(&s, 2)[0] = 5;
	reg(&s, 5)[0] = 7;
	CHECK(checked_(t, &in, __FILE__, __LINE__));
	func_exec_alu(&s.x, &in, 1);
	CHECK_EQ(reg(&s, 5)[0], 0);
	CHECK_EQ(reg(&s, 0)[0], 0);
}
