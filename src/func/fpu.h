/*
 * fpu.h -- floating-point helpers and internal glue of the lane-parallel ALU
 * semantics (exec_alu.c, exec_float.c, exec_cvt.c).
 *
 * Models the number formats of an NVIDIA SM's datapath: IEEE binary16
 * (f16), bfloat16 (bf16), binary32 (f32) and binary64 (f64), with the four
 * IEEE rounding directions, flush-to-zero (.ftz), saturation (.sat) and the
 * GPU's NaN conventions:
 *   - f32 results involving NaN are the canonical NaN 0x7fffffff (CUDA
 *     programming guide, "Floating-Point Standard"); f16/bf16 use 0x7fff.
 *   - f64 results propagate the first NaN operand (quiet bit set); a NaN
 *     generated from non-NaN operands (inf-inf, 0*inf, sqrt(-1)) is
 *     0xfff8000000000000 (CUDART_NAN).  Not verified bit-for-bit against
 *     hardware; deterministic on every host.
 *   - .ftz flushes subnormal inputs and (after rounding) subnormal results
 *     to zero of the same sign.
 *
 * Exact conversions never depend on the host FP environment: fpu_round()
 * rounds an exact value m * 2^e (+ sticky) to any of the formats in any
 * mode with integer arithmetic.  Directed-rounding f32/f64 arithmetic
 * (add.rz, fma.rm, div.rp, sqrt.rz, ...) runs the host operation with the
 * host rounding direction switched for the duration of one warp instruction
 * (fpu_mode_enter/fpu_mode_leave); the previous direction is always
 * restored.  Everything else assumes the host's default round-to-nearest.
 */
#ifndef WARPSIM_FUNC_FPU_H
#define WARPSIM_FUNC_FPU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "func/exec.h"

/* ---- bit casts ---- */
static inline float fpu_f32(uint64_t bits)
{
	uint32_t u = (uint32_t)bits;
	float f;
	memcpy(&f, &u, sizeof f);
	return f;
}
static inline uint32_t fpu_b32(float f)
{
	uint32_t u;
	memcpy(&u, &f, sizeof u);
	return u;
}
static inline double fpu_f64(uint64_t bits)
{
	double d;
	memcpy(&d, &bits, sizeof d);
	return d;
}
static inline uint64_t fpu_b64(double d)
{
	uint64_t u;
	memcpy(&u, &d, sizeof u);
	return u;
}

/* ---- formats ---- */
enum fpu_fmt { FPU_F16, FPU_BF16, FPU_F32, FPU_F64 };

#define FPU_NAN16 0x7fffu
#define FPU_NANBF16 0x7fffu
#define FPU_NAN32 0x7fffffffu
#define FPU_NAN64 0xfff8000000000000ull /* default NaN for generated f64 NaNs */
#define FPU_ONE16 0x3c00u
#define FPU_ONEBF16 0x3f80u
#define FPU_ONE32 0x3f800000u

static inline bool fpu_isnan32(uint32_t u)
{
	return (u & 0x7fffffffu) > 0x7f800000u;
}
static inline bool fpu_isnan64(uint64_t u)
{
	return (u & 0x7fffffffffffffffull) > 0x7ff0000000000000ull;
}
static inline bool fpu_isnan16(uint16_t u)
{
	return (u & 0x7fffu) > 0x7c00u;
}
static inline bool fpu_isnanbf16(uint16_t u)
{
	return (u & 0x7fffu) > 0x7f80u;
}

/* Flush a subnormal to zero of the same sign. */
static inline uint32_t fpu_ftz32(uint32_t u)
{
	return (u & 0x7f800000u) ? u : (u & 0x80000000u);
}
static inline uint64_t fpu_ftz64(uint64_t u)
{
	return (u & 0x7ff0000000000000ull) ? u : (u & 0x8000000000000000ull);
}
static inline uint16_t fpu_ftz16(uint16_t u)
{
	return (u & 0x7c00u) ? u : (uint16_t)(u & 0x8000u);
}
static inline uint16_t fpu_ftzbf16(uint16_t u)
{
	return (u & 0x7f80u) ? u : (uint16_t)(u & 0x8000u);
}

/* f16/bf16 -> double, exact (NaN payloads kept in the high fraction bits). */
double fpu_f16_to_double(uint16_t h);
static inline double fpu_bf16_to_double(uint16_t h)
{
	return (double)fpu_f32((uint32_t)h << 16);
}
/* Any format's bits -> double (exact). */
double fpu_to_double(uint64_t bits, enum fpu_fmt fmt);

/*
 * Round the exact value (-1)^neg * (mant + frac) * 2^e2 to `fmt` in rounding
 * mode `rnd` (RND_RN/RZ/RM/RP/RNA; anything else is treated as RN), where
 * frac is 0 when sticky == 0 and strictly between 0 and 1 otherwise.
 * Handles subnormal results and overflow (to inf or the largest finite
 * value, by mode).  Returns the result's bits.  No .ftz.
 */
uint64_t fpu_round(int neg, uint64_t mant, int e2, int sticky, enum fpu_fmt fmt, int rnd);
/*
 * Round double v plus an infinitesimal of sign esign (-1, 0, +1) -- i.e. the
 * exact value is v + e with 0 < |e| < ulp(v)/2 when esign != 0 -- to `fmt`.
 * NaN -> the format's canonical NaN (FPU_NAN64 for f64), inf -> inf.
 */
uint64_t fpu_from_double(double v, int esign, enum fpu_fmt fmt, int rnd);
/* Round double v to an integral value: rnd is RND_RNI/RZI/RMI/RPI (or
 * RN/RZ/RM/RP, same meaning).  Keeps the sign of zero; NaN/inf unchanged. */
double fpu_rint(double v, int rnd);

/* Error of a + b rounded to nearest: returns the sign of (a + b) - fl(a + b). */
static inline int fpu_twosum_sign(double a, double b, double s)
{
	double bb = s - a;
	double e1 = a - (s - bb);
	double e2 = b - bb;
	double e = e1 + e2;
	return (e > 0) - (e < 0);
}

/* Switch the host rounding direction for directed-rounding arithmetic.
 * Returns the previous direction for fpu_mode_leave; a no-op for RN. */
int fpu_mode_enter(int rnd);
void fpu_mode_leave(int rnd, int saved);

/* Relations for comparisons and the truth table of every enum ptx_cmp. */
enum { FPU_REL_LT = 0, FPU_REL_EQ = 1, FPU_REL_GT = 2, FPU_REL_UN = 3 };
extern const uint8_t fpu_cmp_truth[CMP_COUNT];
static inline unsigned fpu_rel_double(double a, double b)
{
	if (a < b)
		return FPU_REL_LT;
	if (a > b)
		return FPU_REL_GT;
	if (a == b)
		return FPU_REL_EQ;
	return FPU_REL_UN;
}

/* ---- internal glue between the ALU files ---- */

/* Iterate `l` over the set bits of `mask` (lowest first). */
#define ALU_LANES(l, mask)                                                                                             \
	for (uint64_t alu_m_ = (mask); alu_m_ && (((l) = (unsigned)__builtin_ctzll(alu_m_)), 1); alu_m_ &= alu_m_ - 1)

/* Destination lane array: the register, or `scratch` for "_" (and anything
 * that is not a register, which func_alu_check rejects anyway). */
static inline uint64_t *alu_dst(const struct func_exec *x, const struct ptx_operand *o, uint64_t *scratch)
{
	return o->kind == OPD_REG ? func_reg(x, o->reg) : scratch;
}

static inline uint64_t alu_wmask(unsigned w)
{
	return w >= 64 ? ~0ull : (1ull << w) - 1;
}

/* Write predicate results of setp (t[lane] = compare result per lane; for
 * the .f16x2/.bf16x2 forms t2 holds the upper-half results and q gets them). */
void alu_setp_write(const struct func_exec *x, const struct ptx_insn *in, uint64_t mask, const uint8_t *t,
                    const uint8_t *t2);
/* Combine compare results with set's BoolOp operand: out[lane] = 0/1. */
void alu_set_combine(const struct func_exec *x, const struct ptx_insn *in, uint64_t mask, uint8_t *t);

/* Value set writes for "true" with destination type dtype (0xffffffff for
 * integers, 1.0 for floats). */
uint64_t alu_set_true(unsigned dtype);

/* Printable name of an opcode / rejection message helpers for the checks. */
const char *alu_op_name(unsigned op);
bool alu_reject(const struct ptx_insn *in, char *why, size_t whysz, const char *msg);
bool alu_check_flags(const struct ptx_insn *in, uint32_t allowed, char *why, size_t whysz);

/* The conversion half of func_exec_alu / func_alu_check (exec_cvt.c). */
void func_exec_cvt(const struct func_exec *x, const struct ptx_insn *in, uint64_t mask);
bool func_cvt_check(const struct ptx_insn *in, char *why, size_t whysz);
/* The float handlers (exec_float.c) that integer handlers route float forms to (op.h, fp). */
extern const struct func_op func_op_fadd, func_op_ffma, func_op_fdiv, func_op_fabsneg, func_op_fminmax, func_op_fcmp;

#endif
