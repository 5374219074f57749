/*
 * test_sem_cvt.c -- semantic tests of cvt: every conversion class (f16, bf16
 * and packing, float to int, int to float, int to int, float to float) with
 * its rounding, saturation and NaN rules, on the frame of sem_check.h.
 */
#include <fenv.h>
#include <math.h>
#include <string.h>

#include "sem_check.h"

/* ------------------------------------------------------------------ cvt */

static struct ptx_insn cvt(unsigned dt, unsigned st, unsigned rnd, uint32_t flags)
{
	struct ptx_insn in = mk(OP_CVT, dt, 1);
	in.type2 = (uint8_t)st;
	in.rnd = (uint8_t)rnd;
	in.flags = flags;
	return in;
}

TEST(sem_cvt_f16_from_f32)
{
	struct ptx_insn in = cvt(PTX_T_F16, PTX_T_F32, RND_RN, 0);
	CHECK_EQ(RUN(in, F(1.0f), 0, 0), 0x3c00);
	CHECK_EQ(RUN(in, F(65504.0f), 0, 0), 0x7bff);
	CHECK_EQ(RUN(in, F(65519.0f), 0, 0), 0x7bff);
	CHECK_EQ(RUN(in, F(65520.0f), 0, 0), 0x7c00); /* tie between max and 2^16 -> inf */
	CHECK_EQ(RUN(in, F(-1e6f), 0, 0), 0xfc00);
	CHECK_EQ(RUN(in, F(0x1p-24f), 0, 0), 0x0001);   /* smallest subnormal */
	CHECK_EQ(RUN(in, F(0x1p-25f), 0, 0), 0x0000);   /* tie -> even (0) */
	CHECK_EQ(RUN(in, F(0x1.8p-24f), 0, 0), 0x0002); /* 1.5 ulp: tie -> even (2) */
	CHECK_EQ(RUN(in, F(0x1.8p-25f), 0, 0), 0x0001); /* 0.75 ulp */
	CHECK_EQ(RUN(in, F(1.0f + 0x1p-11f), 0, 0), 0x3c00);
	CHECK_EQ(RUN(in, F(1.0f + 0x1p-11f + 0x1p-20f), 0, 0), 0x3c01);
	CHECK_EQ(RUN(in, 0x7f800001u, 0, 0), 0x7fff);
	CHECK_EQ(RUN(in, F(-INFINITY), 0, 0), 0xfc00);
	in.rnd = RND_RZ;
	CHECK_EQ(RUN(in, F(1e6f), 0, 0), 0x7bff);
	CHECK_EQ(RUN(in, F(1.0f + 0x1p-11f + 0x1p-20f), 0, 0), 0x3c00);
	in.rnd = RND_RM;
	CHECK_EQ(RUN(in, F(-0x1p-30f), 0, 0), 0x8001);
	in.rnd = RND_RP;
	CHECK_EQ(RUN(in, F(0x1p-30f), 0, 0), 0x0001);
	in = cvt(PTX_T_F32, PTX_T_F16, RND_NONE, 0);
	CHECK_EQ(RUN(in, 0x0001, 0, 0), F(0x1p-24f));
	CHECK_EQ(RUN(in, 0x7c00, 0, 0), F(INFINITY));
	CHECK_EQ(RUN(in, 0xc000, 0, 0), F(-2.0f));
	CHECK_EQ(RUN(in, 0x7bff, 0, 0), F(65504.0f));
	in = cvt(PTX_T_F16, PTX_T_F64, RND_RN, 0); /* single rounding from f64 */
	CHECK_EQ(RUN(in, D(1.0 + 0x1p-11 + 0x1p-40), 0, 0), 0x3c01);
}

TEST(sem_cvt_bf16_and_pack)
{
	struct ptx_insn in = cvt(PTX_T_BF16, PTX_T_F32, RND_RN, 0);
	CHECK_EQ(RUN(in, 0x3f808000u, 0, 0), 0x3f80); /* tie -> even */
	CHECK_EQ(RUN(in, 0x3f818000u, 0, 0), 0x3f82);
	CHECK_EQ(RUN(in, 0x3f808001u, 0, 0), 0x3f81);
	CHECK_EQ(RUN(in, 0x7f7fffffu, 0, 0), 0x7f80); /* overflow -> inf */
	in.rnd = RND_RZ;
	CHECK_EQ(RUN(in, 0x7f7fffffu, 0, 0), 0x7f7f);
	in = cvt(PTX_T_F32, PTX_T_BF16, RND_NONE, 0);
	CHECK_EQ(RUN(in, 0xc040, 0, 0), F(-3.0f));
	/* cvt.rn.f16x2.f32 d, a, b: a -> upper half, b -> lower half */
	struct ptx_insn p = mk(OP_CVT, PTX_T_F16X2, 2);
	p.type2 = PTX_T_F32;
	p.rnd = RND_RN;
	CHECK_EQ(RUN(p, F(1.0f), F(2.0f), 0), 0x3c004000u);
	p.flags = FLAG_RELU;
	CHECK_EQ(RUN(p, F(-1.0f), F(1.0f), 0), 0x00003c00u);
	p.type = PTX_T_BF16X2;
	p.flags = 0;
	CHECK_EQ(RUN(p, F(-2.0f), F(0.5f), 0), 0xc0003f00u);
}

TEST(sem_cvt_float_to_int)
{
	struct ptx_insn in = cvt(PTX_T_S32, PTX_T_F32, RND_RZI, 0);
	CHECK_EQ(RUN(in, 0x7fc00000u, 0, 0), 0);
	CHECK_EQ(RUN(in, F(3e9f), 0, 0), 0x7fffffffu);
	CHECK_EQ(RUN(in, F(-3e9f), 0, 0), 0x80000000u);
	CHECK_EQ(RUN(in, F(INFINITY), 0, 0), 0x7fffffffu);
	CHECK_EQ(RUN(in, F(-2.9f), 0, 0), 0xfffffffeu);
	in.flags = FLAG_SAT; /* redundant, same result */
	CHECK_EQ(RUN(in, F(3e9f), 0, 0), 0x7fffffffu);
	in = cvt(PTX_T_S32, PTX_T_F32, RND_RNI, 0);
	CHECK_EQ(RUN(in, F(2.5f), 0, 0), 2);
	CHECK_EQ(RUN(in, F(3.5f), 0, 0), 4);
	CHECK_EQ(RUN(in, F(-2.5f), 0, 0), 0xfffffffeu);
	in.rnd = RND_RMI;
	CHECK_EQ(RUN(in, F(-0.5f), 0, 0), 0xffffffffu);
	in.rnd = RND_RPI;
	CHECK_EQ(RUN(in, F(0.25f), 0, 0), 1);
	in = cvt(PTX_T_U32, PTX_T_F32, RND_RZI, 0);
	CHECK_EQ(RUN(in, F(-1.0f), 0, 0), 0);
	CHECK_EQ(RUN(in, F(4294967040.0f), 0, 0), 0xffffff00u);
	CHECK_EQ(RUN(in, F(5e9f), 0, 0), 0xffffffffu);
	in = cvt(PTX_T_U64, PTX_T_F64, RND_RZI, 0);
	CHECK_EQ(RUN(in, D(1e30), 0, 0), ~0ull);
	CHECK_EQ(RUN(in, D(0x1.fffffffffffffp63), 0, 0), 0xfffffffffffff800ull);
	in = cvt(PTX_T_S64, PTX_T_F64, RND_RZI, 0);
	CHECK_EQ(RUN(in, D(-0x1p63), 0, 0), 0x8000000000000000ull);
	CHECK_EQ(RUN(in, D(0x1p63), 0, 0), 0x7fffffffffffffffull);
	CHECK_EQ(RUN(in, D(NAN), 0, 0), 0);
	in = cvt(PTX_T_U8, PTX_T_F32, RND_RNI, 0);
	CHECK_EQ(RUN(in, F(300.0f), 0, 0), 255);
	in = cvt(PTX_T_S8, PTX_T_F32, RND_RZI, 0);
	CHECK_EQ(RUN(in, F(-200.0f), 0, 0), 0x80);
	in = cvt(PTX_T_S16, PTX_T_F16, RND_RZI, 0);
	CHECK_EQ(RUN(in, 0x7c00, 0, 0), 0x7fff);
	CHECK_EQ(RUN(in, 0xc500, 0, 0), 0xfffb); /* -5.0 */
	in = cvt(PTX_T_S32, PTX_T_F32, RND_RZI, FLAG_FTZ);
	CHECK_EQ(RUN(in, 0x80000001u, 0, 0), 0);
}

TEST(sem_cvt_int_to_float)
{
	struct ptx_insn in = cvt(PTX_T_F32, PTX_T_S32, RND_RN, 0);
	CHECK_EQ(RUN(in, 16777217, 0, 0), F(16777216.0f)); /* tie -> even */
	CHECK_EQ(RUN(in, 16777219, 0, 0), F(16777220.0f));
	CHECK_EQ(RUN(in, 0xffffffffu, 0, 0), F(-1.0f));
	CHECK_EQ(RUN(in, 0x80000000u, 0, 0), F(-2147483648.0f));
	in.type2 = PTX_T_U32;
	in.rnd = RND_RZ;
	CHECK_EQ(RUN(in, 0xffffffffu, 0, 0), 0x4f7fffffu);
	in.rnd = RND_RP;
	CHECK_EQ(RUN(in, 0xffffffffu, 0, 0), 0x4f800000u);
	in.type2 = PTX_T_S64;
	in.rnd = RND_RM;
	CHECK_EQ(RUN(in, (uint64_t)-16777217, 0, 0), F(-16777218.0f));
	in.rnd = RND_RZ;
	CHECK_EQ(RUN(in, (uint64_t)-16777217, 0, 0), F(-16777216.0f));
	in = cvt(PTX_T_F64, PTX_T_U64, RND_RN, 0);
	CHECK_EQ(RUN(in, ~0ull, 0, 0), 0x43f0000000000000ull);
	CHECK_EQ(RUN(in, 0, 0, 0), 0); /* +0, in every mode */
	in.rnd = RND_RZ;
	CHECK_EQ(RUN(in, ~0ull, 0, 0), 0x43efffffffffffffull);
	in.rnd = RND_RM;
	CHECK_EQ(RUN(in, 0, 0, 0), 0);
	in = cvt(PTX_T_F16, PTX_T_S32, RND_RN, 0);
	CHECK_EQ(RUN(in, 70000, 0, 0), 0x7c00);
	CHECK_EQ(RUN(in, 2049, 0, 0), 0x6800); /* 2049 -> 2048 (tie -> even) */
	in.rnd = RND_RZ;
	CHECK_EQ(RUN(in, 70000, 0, 0), 0x7bff);
	in = cvt(PTX_T_F32, PTX_T_S32, RND_RN, FLAG_SAT);
	CHECK_EQ(RUN(in, 5, 0, 0), F(1.0f));
	CHECK_EQ(RUN(in, 0xfffffffbu, 0, 0), 0);
	in = cvt(PTX_T_F32, PTX_T_S16, RND_RN, 0); /* source type decides the extension */
	CHECK_EQ(RUN(in, 0xffff, 0, 0), F(-1.0f));
	in.type2 = PTX_T_U16;
	CHECK_EQ(RUN(in, 0xffff, 0, 0), F(65535.0f));
}

TEST(sem_cvt_int_to_int)
{
	struct ptx_insn in = cvt(PTX_T_S32, PTX_T_S16, RND_NONE, 0);
	CHECK_EQ(RUN(in, 0xffff, 0, 0), 0xffffffffu);
	in.type2 = PTX_T_U16;
	CHECK_EQ(RUN(in, 0xffff, 0, 0), 0xffff);
	in = cvt(PTX_T_U64, PTX_T_S32, RND_NONE, 0);
	CHECK_EQ(RUN(in, 0xffffffffu, 0, 0), ~0ull);
	in.type2 = PTX_T_U32;
	CHECK_EQ(RUN(in, 0xffffffffu, 0, 0), 0xffffffffu);
	in = cvt(PTX_T_U32, PTX_T_U64, RND_NONE, 0);
	CHECK_EQ(RUN(in, 0x123456789ull, 0, 0), 0x23456789u);
	in = cvt(PTX_T_S32, PTX_T_S8, RND_NONE, 0);
	CHECK_EQ(RUN(in, 0x1280, 0, 0), 0xffffff80u);
	in = cvt(PTX_T_U8, PTX_T_S32, RND_NONE, FLAG_SAT);
	CHECK_EQ(RUN(in, 0xfffffffbu, 0, 0), 0);
	CHECK_EQ(RUN(in, 300, 0, 0), 255);
	in = cvt(PTX_T_S16, PTX_T_S32, RND_NONE, FLAG_SAT);
	CHECK_EQ(RUN(in, 40000, 0, 0), 0x7fff);
	CHECK_EQ(RUN(in, (uint64_t)(uint32_t)-40000, 0, 0), 0x8000);
	in = cvt(PTX_T_S32, PTX_T_U32, RND_NONE, FLAG_SAT);
	CHECK_EQ(RUN(in, 0xffffffffu, 0, 0), 0x7fffffffu);
	in = cvt(PTX_T_U32, PTX_T_S64, RND_NONE, FLAG_SAT);
	CHECK_EQ(RUN(in, 0x100000000ull, 0, 0), 0xffffffffu);
	CHECK_EQ(RUN(in, ~0ull, 0, 0), 0);
	in = cvt(PTX_T_S16, PTX_T_S32, RND_NONE, 0); /* narrowing truncates */
	CHECK_EQ(RUN(in, 0x12348765u, 0, 0), 0x8765);
	/* an .s8 result is sign-extended into a wider destination register */
	struct ptx_reg_info regs[2] = {{(char *)"%rs0", PTX_T_B16}, {(char *)"%r1", PTX_T_B32}};
	struct ptx_function fn;
	memset(&fn, 0, sizeof fn);
	fn.regs = regs;
	fn.nregs = 2;
	struct sem s;
	sem_init(&s);
	s.x.fn = &fn;
	in = cvt(PTX_T_S8, PTX_T_S32, RND_NONE, 0);
	reg(&s, 1)[0] = 0x180;
	func_exec_alu(&s.x, &in, 1);
	CHECK_EQ(reg(&s, 0)[0], 0xff80);
	/* ... and so is every signed result narrower than its register
	 * (PTX ISA: a destination wider than the instruction type is sign-
	 * extended for signed types): cvt.s16.s8 into a .b32 register */
	in = cvt(PTX_T_S16, PTX_T_S8, RND_NONE, 0);
	opd_reg(&in, 0, 1);
	reg(&s, 1)[0] = 0;
	reg(&s, 2)[0] = 0xc2;
	opd_reg(&in, 1, 2);
	func_exec_alu(&s.x, &in, 1);
	CHECK_EQ(reg(&s, 1)[0], 0xffffffc2u);
	in = cvt(PTX_T_S16, PTX_T_S32, RND_NONE, FLAG_SAT); /* saturated, then extended */
	opd_reg(&in, 0, 1);
	opd_reg(&in, 1, 2);
	reg(&s, 2)[0] = (uint32_t)-40000;
	func_exec_alu(&s.x, &in, 1);
	CHECK_EQ(reg(&s, 1)[0], 0xffff8000u);
	in = cvt(PTX_T_U16, PTX_T_S8, RND_NONE, 0); /* unsigned: zero-extended */
	opd_reg(&in, 0, 1);
	opd_reg(&in, 1, 2);
	reg(&s, 2)[0] = 0xc2;
	func_exec_alu(&s.x, &in, 1);
	CHECK_EQ(reg(&s, 1)[0], 0xffc2u);
	in = cvt(PTX_T_S16, PTX_T_F32, RND_RZI, 0); /* float -> s16 into .b32 */
	opd_reg(&in, 0, 1);
	opd_reg(&in, 1, 2);
	reg(&s, 2)[0] = F(-3.5f);
	func_exec_alu(&s.x, &in, 1);
	CHECK_EQ(reg(&s, 1)[0], 0xfffffffdu);
}

TEST(sem_cvt_float_to_float)
{
	struct ptx_insn in = cvt(PTX_T_F32, PTX_T_F64, RND_RN, 0);
	CHECK_EQ(RUN(in, D(1.0 + 0x1p-24), 0, 0), 0x3f800000u);
	CHECK_EQ(RUN(in, D(1.0 + 0x1p-24 + 0x1p-50), 0, 0), 0x3f800001u);
	CHECK_EQ(RUN(in, D(1e300), 0, 0), 0x7f800000u);
	CHECK_EQ(RUN(in, D(0x1p-149), 0, 0), 1);
	CHECK_EQ(RUN(in, D(0x1p-151), 0, 0), 0);
	CHECK_EQ(RUN(in, D(NAN), 0, 0), 0x7fffffffu);
	in.rnd = RND_RZ;
	CHECK_EQ(RUN(in, D(1e300), 0, 0), 0x7f7fffffu);
	CHECK_EQ(RUN(in, D(-1.0 - 0x1p-30), 0, 0), 0xbf800000u);
	in.rnd = RND_RM;
	CHECK_EQ(RUN(in, D(-1.0 - 0x1p-30), 0, 0), 0xbf800001u);
	in.rnd = RND_RP;
	CHECK_EQ(RUN(in, D(0x1p-151), 0, 0), 1);
	in.rnd = RND_RN;
	in.flags = FLAG_FTZ;
	CHECK_EQ(RUN(in, D(0x1p-140), 0, 0), 0);
	in = cvt(PTX_T_F64, PTX_T_F32, RND_NONE, 0);
	CHECK_EQ(RUN(in, F(0.1f), 0, 0), D((double)0.1f));
	CHECK_EQ(RUN(in, 0x00000001u, 0, 0), D(0x1p-149));
	in.flags = FLAG_FTZ;
	CHECK_EQ(RUN(in, 0x80000001u, 0, 0), D(-0.0));
	in = cvt(PTX_T_F32, PTX_T_F32, RND_RNI, 0);
	CHECK_EQ(RUN(in, F(2.5f), 0, 0), F(2.0f));
	CHECK_EQ(RUN(in, F(-0.4f), 0, 0), F(-0.0f));
	CHECK_EQ(RUN(in, F(1e20f), 0, 0), F(1e20f));
	in.rnd = RND_RZI;
	CHECK_EQ(RUN(in, F(-2.7f), 0, 0), F(-2.0f));
	in.rnd = RND_RMI;
	CHECK_EQ(RUN(in, F(-2.2f), 0, 0), F(-3.0f));
	in.rnd = RND_RPI;
	CHECK_EQ(RUN(in, F(2.2f), 0, 0), F(3.0f));
	in = cvt(PTX_T_F32, PTX_T_F32, RND_NONE, FLAG_SAT);
	CHECK_EQ(RUN(in, F(2.0f), 0, 0), F(1.0f));
	CHECK_EQ(RUN(in, 0x7fc00000u, 0, 0), 0);
	CHECK_EQ(RUN(in, F(-0.5f), 0, 0), 0);
	CHECK_EQ(RUN(in, F(0.5f), 0, 0), F(0.5f));
	in = cvt(PTX_T_F32, PTX_T_F32, RND_NONE, FLAG_FTZ);
	CHECK_EQ(RUN(in, 0x00400000u, 0, 0), 0);
	in = cvt(PTX_T_BF16, PTX_T_F16, RND_RN, 0);
	CHECK_EQ(RUN(in, 0x3c00, 0, 0), 0x3f80);
	in = cvt(PTX_T_F16, PTX_T_BF16, RND_RN, 0);
	CHECK_EQ(RUN(in, 0x4780, 0, 0), 0x7c00); /* 65536 overflows f16 */
}

/* ---------------------------------------------------------- lane control */
