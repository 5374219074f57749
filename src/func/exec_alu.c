/*
 * exec_alu.c -- lane-parallel integer semantics of the SM's ALU datapath:
 * the ALU entry points (func_exec_alu, func_alu_check: the checks common to
 * every ALU form, then the opcode's handler, op.h, or its float handler),
 * and, each with its load-time check beside it, integer arithmetic (incl.
 * the CC.CF carry chain of add.cc/addc/sub.cc/subc/mad.cc/madc, mul/mad
 * .lo/.hi/.wide,
 * mul24/mad24, sad, div/rem), logic and bit manipulation (lop3, prmt, bfe,
 * bfi, bfind, fns, brev, popc, clz, shifts, funnel shifts), integer
 * compare/select (setp, set, selp, slct) and mov incl. vector pack/unpack.
 * Floating-point forms are in exec_float.c, cvt in exec_cvt.c.
 *
 * Register convention (exec.h): values are read through func_src, then
 * truncated / sign-extended to the instruction type; results are stored
 * zero-extended to the width of the type that wrote them; predicates are 0/1.
 *
 * Integer division by zero is unspecified by PTX; warpsim models what the
 * ptxas division sequence produces on NVIDIA GPUs:
 *   unsigned  a / 0 = all ones of the width,   a % 0 = a
 *   signed    a / 0 = -1 if a >= 0, else 1,     a % 0 = a
 *   signed    MIN / -1 = MIN,                   MIN % -1 = 0
 * Nothing here can trap or invoke C undefined behaviour.
 */
#include <stdio.h>

#include "func/exec.h"
#include "func/fpu.h"
#include "func/op.h"

const char *alu_op_name(unsigned op)
{
	return op < OP_COUNT ? ptx_opcode_table[op].name : "?";
}

static const char *tname(unsigned t)
{
	static const char *const names[PTX_T_COUNT] = {
#define X(e, n, s) n,
	    PTX_TYPES(X)
#undef X
	};
	return t < PTX_T_COUNT ? names[t] : "?";
}

/* Writes "op[.rnd].type[.type2]: msg" into why. */
bool alu_reject(const struct ptx_insn *in, char *why, size_t whysz, const char *msg)
{
	static const char *const rnd_names[] = {"", "rn", "rz", "rm", "rp", "rna", "rni", "rzi", "rmi", "rpi"};
	if (why && whysz) {
		const char *t1 = tname(in->type), *t2 = tname(in->type2);
		const char *r = in->rnd < sizeof rnd_names / sizeof rnd_names[0] ? rnd_names[in->rnd] : "?";
		snprintf(why, whysz, "%s%s%s%s%s%s%s: %s", alu_op_name(in->op), *r ? "." : "", r, *t1 ? "." : "", t1,
		         *t2 ? "." : "", t2, msg);
	}
	return false;
}

#define TB(t) (1u << PTX_T_##t)
#define T_INT (TB(U16) | TB(U32) | TB(U64) | TB(S16) | TB(S32) | TB(S64))
#define T_BITS (TB(B16) | TB(B32) | TB(B64))
#define T_32_64 (TB(U32) | TB(U64) | TB(S32) | TB(S64))

static bool in_set(unsigned t, uint32_t set)
{
	return t < PTX_T_COUNT && ((set >> t) & 1u);
}

static const char *const flag_names[] = {
    "ftz",   "sat",  "approx",  "full", "cc",    "uni", "volatile", "nc",  "shiftamt",
    "clamp", "wrap", "aligned", "relu", "noftz", "NaN", "xorsign",  "abs", "left",
};

/* Reject any modifier bit outside `allowed`, naming the first offending one. */
bool alu_check_flags(const struct ptx_insn *in, uint32_t allowed, char *why, size_t whysz)
{
	uint32_t bad = in->flags & ~allowed;
	if (!bad)
		return true;
	unsigned i = (unsigned)__builtin_ctz(bad);
	char msg[96];
	snprintf(msg, sizeof msg, "modifier .%s is not supported here",
	         i < sizeof flag_names / sizeof flag_names[0] ? flag_names[i] : "?");
	return alu_reject(in, why, whysz, msg);
}

/* An integer ALU handler (op.h): check beside its semantics, float forms of
 * the opcode to fpop (NULL: none). */
#define ALU_INT_OP(name, exec, chk, fpop)                                                                              \
	const struct func_op func_op_##name = {                                                                        \
		.check = func_alu_check, .step = func_alu_step, .lanes = exec, .lanes_check = chk, .integer = true,   \
		.fp = fpop}

/* ---------------------------------------------------------------- helpers */

static inline int64_t sextw(uint64_t v, unsigned w)
{
	if (w >= 64)
		return (int64_t)v;
	uint64_t m = 1ull << (w - 1);
	v &= (1ull << w) - 1;
	return (int64_t)((v ^ m) - m);
}

static inline uint64_t umulh64(uint64_t a, uint64_t b)
{
	uint64_t a0 = (uint32_t)a, a1 = a >> 32, b0 = (uint32_t)b, b1 = b >> 32;
	uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
	uint64_t mid = (p00 >> 32) + (uint32_t)p01 + (uint32_t)p10;
	return p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
}

static inline uint64_t smulh64(uint64_t a, uint64_t b)
{
	uint64_t h = umulh64(a, b);
	if (a >> 63)
		h -= b;
	if (b >> 63)
		h -= a;
	return h;
}

static inline uint64_t clamp_s32(int64_t r)
{
	if (r > INT32_MAX)
		r = INT32_MAX;
	if (r < INT32_MIN)
		r = INT32_MIN;
	return (uint64_t)r & 0xffffffffull;
}

static inline uint64_t brev64(uint64_t v)
{
	v = ((v >> 1) & 0x5555555555555555ull) | ((v & 0x5555555555555555ull) << 1);
	v = ((v >> 2) & 0x3333333333333333ull) | ((v & 0x3333333333333333ull) << 2);
	v = ((v >> 4) & 0x0f0f0f0f0f0f0f0full) | ((v & 0x0f0f0f0f0f0f0f0full) << 4);
	v = ((v >> 8) & 0x00ff00ff00ff00ffull) | ((v & 0x00ff00ff00ff00ffull) << 8);
	v = ((v >> 16) & 0x0000ffff0000ffffull) | ((v & 0x0000ffff0000ffffull) << 16);
	return (v >> 32) | (v << 32);
}

/* Boolean combination of a compare result with set/setp's c operand. */
static inline unsigned boolop(unsigned op, unsigned t, unsigned c)
{
	switch (op) {
	case BOOL_AND: return t & c;
	case BOOL_OR: return t | c;
	case BOOL_XOR: return t ^ c;
	default: return t;
	}
}

void alu_setp_write(const struct func_exec *x, const struct ptx_insn *in, uint64_t mask, const uint8_t *t,
                    const uint8_t *t2)
{
	uint64_t tc[WS_MAX_WARP];
	const uint64_t *c = in->boolop != BOOL_NONE ? func_src(x, &in->opd[3], tc) : NULL;
	const struct ptx_operand *o = &in->opd[0];
	uint64_t *p = o->kind == OPD_REG ? func_reg(x, o->reg) : NULL;
	uint64_t *q = (o->kind == OPD_REG || o->kind == OPD_SINK) && o->reg2 >= 0 ? func_reg(x, o->reg2) : NULL;
	unsigned l, op = in->boolop;
	ALU_LANES(l, mask)
	{
		unsigned cv = c ? (c[l] != 0) : 0;
		unsigned tv = t[l] & 1;
		unsigned qv = t2 ? (t2[l] & 1) : !tv;
		unsigned pr = boolop(op, tv, cv), qr = boolop(op, qv, cv);
		if (p)
			p[l] = pr;
		if (q)
			q[l] = qr;
	}
}

void alu_set_combine(const struct func_exec *x, const struct ptx_insn *in, uint64_t mask, uint8_t *t)
{
	if (in->boolop == BOOL_NONE)
		return;
	uint64_t tc[WS_MAX_WARP];
	const uint64_t *c = func_src(x, &in->opd[3], tc);
	unsigned l;
	ALU_LANES(l, mask) t[l] = (uint8_t)boolop(in->boolop, t[l] & 1, c[l] != 0);
}

/* ----------------------------------------------------- integer arithmetic */

static void exec_addsub(const struct func_exec *x, const struct ptx_insn *in, uint64_t mask)
{
	uint64_t ta[WS_MAX_WARP], tb[WS_MAX_WARP], sc[WS_MAX_WARP];
	const uint64_t *a = func_src(x, &in->opd[1], ta);
	const uint64_t *b = func_src(x, &in->opd[2], tb);
	uint64_t *d = alu_dst(x, &in->opd[0], sc);
	const unsigned w = ptx_type_bits(in->type);
	const uint64_t wm = alu_wmask(w);
	const bool sub = in->op == OP_SUB || in->op == OP_SUBC;
	const bool cin = in->op == OP_ADDC || in->op == OP_SUBC;
	const bool cout = (in->flags & FLAG_CC) != 0;
	uint8_t *cf = x->carry;
	unsigned l;

	if (in->flags & FLAG_SAT) { /* .sat: s32 only (checked) */
		if (sub) {
			ALU_LANES(l, mask) d[l] = clamp_s32(sextw(a[l], 32) - sextw(b[l], 32));
		} else {
			ALU_LANES(l, mask) d[l] = clamp_s32(sextw(a[l], 32) + sextw(b[l], 32));
		}
		return;
	}
	if (!cin && !cout) {
		if (sub) {
			ALU_LANES(l, mask) d[l] = (a[l] - b[l]) & wm;
		} else {
			ALU_LANES(l, mask) d[l] = (a[l] + b[l]) & wm;
		}
		return;
	}
	/* carry chain: CF is the carry-out of the adder.  A subtraction is
	 * a + ~b + 1 on that adder (subc: a + ~b + CF), so after sub.cc CF is
	 * the inverted borrow -- 1 when a >= b -- as the hardware defines it;
	 * sub.cc/subc chains and sub.cc followed by addc both see that. */
	ALU_LANES(l, mask)
	{
		uint64_t av = a[l] & wm, bv = b[l] & wm, r, r2;
		uint64_t ci = cin ? (cf ? (cf[l] & 1u) : 0) : (sub ? 1 : 0);
		unsigned co;
		if (sub)
			bv = ~bv & wm;
		r = (av + bv) & wm;
		co = r < av;
		r2 = (r + ci) & wm;
		co |= r2 < r;
		d[l] = r2;
		if (cout && cf)
			cf[l] = (uint8_t)co;
	}
}

/* add, sub (float forms: exec_float.c) */
static bool check_addsub(const struct ptx_insn *in, char *why, size_t whysz)
{
	const unsigned t = in->type;
	if (!in_set(t, T_INT))
		return alu_reject(in, why, whysz, "unsupported type");
	if (!alu_check_flags(in, FLAG_SAT | FLAG_CC, why, whysz))
		return false;
	if ((in->flags & FLAG_SAT) && (t != PTX_T_S32 || (in->flags & FLAG_CC)))
		return alu_reject(in, why, whysz, ".sat is only supported on .s32 (without .cc)");
	if ((in->flags & FLAG_CC) && !in_set(t, T_32_64))
		return alu_reject(in, why, whysz, ".cc needs a 32- or 64-bit type");
	return true;
}

/* addc, subc */
static bool check_addc(const struct ptx_insn *in, char *why, size_t whysz)
{
	if (!in_set(in->type, T_32_64))
		return alu_reject(in, why, whysz, "unsupported type");
	return alu_check_flags(in, FLAG_CC, why, whysz);
}

ALU_INT_OP(addsub, exec_addsub, check_addsub, &func_op_fadd);
ALU_INT_OP(addc, exec_addsub, check_addc, NULL);

/* mul, mad, madc (integer) */
static void exec_mul(const struct func_exec *x, const struct ptx_insn *in, uint64_t mask)
{
	uint64_t ta[WS_MAX_WARP], tb[WS_MAX_WARP], tc[WS_MAX_WARP], sc[WS_MAX_WARP];
	const uint64_t *a = func_src(x, &in->opd[1], ta);
	const uint64_t *b = func_src(x, &in->opd[2], tb);
	const bool is_mad = in->op != OP_MUL;
	const uint64_t *c = is_mad ? func_src(x, &in->opd[3], tc) : NULL;
	uint64_t *d = alu_dst(x, &in->opd[0], sc);
	const unsigned w = ptx_type_bits(in->type);
	const uint64_t wm = alu_wmask(w);
	const bool sgn = ptx_type_is_signed(in->type);
	const unsigned mode = in->mode == MODE_NONE ? MODE_LO : in->mode;
	const unsigned dw = mode == MODE_WIDE ? 2 * w : w;
	const uint64_t dm = alu_wmask(dw);
	const bool sat = (in->flags & FLAG_SAT) != 0;
	const bool cin = in->op == OP_MADC, cout = (in->flags & FLAG_CC) != 0;
	uint8_t *cf = x->carry;
	unsigned l;

	if (!sat && !cin && !cout) { /* fast paths: the forms address arithmetic uses */
		if (mode == MODE_LO) {
			if (is_mad) {
				ALU_LANES(l, mask) d[l] = (a[l] * b[l] + c[l]) & wm;
			} else {
				ALU_LANES(l, mask) d[l] = (a[l] * b[l]) & wm;
			}
			return;
		}
		if (mode == MODE_WIDE && w == 32) {
			if (sgn) {
				ALU_LANES(l, mask)
				d[l] = (uint64_t)(sextw(a[l], 32) * sextw(b[l], 32)) + (c ? c[l] : 0);
			} else {
				ALU_LANES(l, mask) d[l] = (a[l] & 0xffffffffu) * (b[l] & 0xffffffffu) + (c ? c[l] : 0);
			}
			return;
		}
	}
	ALU_LANES(l, mask)
	{
		uint64_t p;
		if (mode == MODE_LO) {
			p = (a[l] * b[l]) & wm;
		} else if (w == 64) { /* .hi (wide is rejected for 64-bit) */
			p = sgn ? smulh64(a[l], b[l]) : umulh64(a[l], b[l]);
		} else {
			uint64_t full = sgn ? (uint64_t)(sextw(a[l], w) * sextw(b[l], w)) : (a[l] & wm) * (b[l] & wm);
			p = mode == MODE_HI ? (full >> w) & wm : full & dm;
		}
		if (!is_mad) {
			d[l] = p;
		} else if (sat) { /* mad.hi.sat.s32 */
			d[l] = clamp_s32(sextw(p, 32) + sextw(c[l], 32));
		} else if (cin || cout) {
			uint64_t cv = c[l] & dm, ci = (cin && cf) ? (cf[l] & 1u) : 0;
			uint64_t r = (p + cv) & dm;
			unsigned co = r < p;
			uint64_t r2 = (r + ci) & dm;
			co |= r2 < r;
			d[l] = r2;
			if (cout && cf)
				cf[l] = (uint8_t)co;
		} else {
			d[l] = (p + c[l]) & dm;
		}
	}
}

/* mul, mad (float forms: exec_float.c), madc */
static bool check_mul(const struct ptx_insn *in, char *why, size_t whysz)
{
	const unsigned t = in->type, op = in->op;
	if (!in_set(t, op == OP_MADC ? T_32_64 : T_INT))
		return alu_reject(in, why, whysz, "unsupported type");
	unsigned m = in->mode;
	if (m != MODE_NONE && m != MODE_LO && m != MODE_HI && m != MODE_WIDE)
		return alu_reject(in, why, whysz, "unsupported mode");
	if (m == MODE_WIDE && ptx_type_bits((enum ptx_type)t) == 64)
		return alu_reject(in, why, whysz, ".wide needs a 16- or 32-bit type");
	if (op == OP_MUL)
		return alu_check_flags(in, 0, why, whysz);
	if (!alu_check_flags(in, FLAG_SAT | FLAG_CC, why, whysz))
		return false;
	if ((in->flags & FLAG_SAT) && (t != PTX_T_S32 || m != MODE_HI || (in->flags & FLAG_CC)))
		return alu_reject(in, why, whysz, ".sat is only supported as mad.hi.sat.s32");
	if ((in->flags & FLAG_CC || op == OP_MADC) && (m == MODE_WIDE || !in_set(t, T_32_64)))
		return alu_reject(in, why, whysz, "carry needs .lo/.hi on a 32- or 64-bit type");
	return true;
}

ALU_INT_OP(mul, exec_mul, check_mul, &func_op_fadd);
ALU_INT_OP(mad, exec_mul, check_mul, &func_op_ffma);
ALU_INT_OP(madc, exec_mul, check_mul, NULL);

static void exec_mul24(const struct func_exec *x, const struct ptx_insn *in, uint64_t mask)
{
	uint64_t ta[WS_MAX_WARP], tb[WS_MAX_WARP], tc[WS_MAX_WARP], sc[WS_MAX_WARP];
	const uint64_t *a = func_src(x, &in->opd[1], ta);
	const uint64_t *b = func_src(x, &in->opd[2], tb);
	const bool is_mad = in->op == OP_MAD24;
	const uint64_t *c = is_mad ? func_src(x, &in->opd[3], tc) : NULL;
	uint64_t *d = alu_dst(x, &in->opd[0], sc);
	const bool sgn = ptx_type_is_signed(in->type);
	const bool hi = in->mode == MODE_HI;
	const bool sat = (in->flags & FLAG_SAT) != 0;
	unsigned l;
	ALU_LANES(l, mask)
	{
		uint64_t p;
		if (sgn)
			p = (uint64_t)(sextw(a[l], 24) * sextw(b[l], 24));
		else
			p = (a[l] & 0xffffffu) * (b[l] & 0xffffffu);
		uint64_t r = (hi ? p >> 16 : p) & 0xffffffffu;
		if (!is_mad)
			d[l] = r;
		else if (sat)
			d[l] = clamp_s32(sextw(r, 32) + sextw(c[l], 32));
		else
			d[l] = (r + c[l]) & 0xffffffffu;
	}
}

static bool check_mul24(const struct ptx_insn *in, char *why, size_t whysz)
{
	const unsigned t = in->type;
	if (t != PTX_T_U32 && t != PTX_T_S32)
		return alu_reject(in, why, whysz, "unsupported type");
	if (in->mode != MODE_NONE && in->mode != MODE_LO && in->mode != MODE_HI)
		return alu_reject(in, why, whysz, "unsupported mode");
	if (!alu_check_flags(in, in->op == OP_MAD24 ? FLAG_SAT : 0, why, whysz))
		return false;
	if ((in->flags & FLAG_SAT) && (t != PTX_T_S32 || in->mode != MODE_HI))
		return alu_reject(in, why, whysz, ".sat is only supported as mad24.hi.sat.s32");
	return true;
}

ALU_INT_OP(mul24, exec_mul24, check_mul24, NULL);

static void exec_sad(const struct func_exec *x, const struct ptx_insn *in, uint64_t mask)
{
	uint64_t ta[WS_MAX_WARP], tb[WS_MAX_WARP], tc[WS_MAX_WARP], sc[WS_MAX_WARP];
	const uint64_t *a = func_src(x, &in->opd[1], ta);
	const uint64_t *b = func_src(x, &in->opd[2], tb);
	const uint64_t *c = func_src(x, &in->opd[3], tc);
	uint64_t *d = alu_dst(x, &in->opd[0], sc);
	const unsigned w = ptx_type_bits(in->type);
	const uint64_t wm = alu_wmask(w);
	unsigned l;
	if (ptx_type_is_signed(in->type)) {
		ALU_LANES(l, mask)
		{
			int64_t sa = sextw(a[l], w), sb = sextw(b[l], w);
			uint64_t diff = sa < sb ? (uint64_t)sb - (uint64_t)sa : (uint64_t)sa - (uint64_t)sb;
			d[l] = (c[l] + diff) & wm;
		}
	} else {
		ALU_LANES(l, mask)
		{
			uint64_t ua = a[l] & wm, ub = b[l] & wm;
			d[l] = (c[l] + (ua < ub ? ub - ua : ua - ub)) & wm;
		}
	}
}

/* sad, div, rem: any integer type, no modifiers */
static bool check_int(const struct ptx_insn *in, char *why, size_t whysz)
{
	if (!in_set(in->type, T_INT))
		return alu_reject(in, why, whysz, "unsupported type");
	return alu_check_flags(in, 0, why, whysz);
}

ALU_INT_OP(sad, exec_sad, check_int, NULL);

static void exec_divrem(const struct func_exec *x, const struct ptx_insn *in, uint64_t mask)
{
	uint64_t ta[WS_MAX_WARP], tb[WS_MAX_WARP], sc[WS_MAX_WARP];
	const uint64_t *a = func_src(x, &in->opd[1], ta);
	const uint64_t *b = func_src(x, &in->opd[2], tb);
	uint64_t *d = alu_dst(x, &in->opd[0], sc);
	const unsigned w = ptx_type_bits(in->type);
	const uint64_t wm = alu_wmask(w);
	const bool rem = in->op == OP_REM;
	unsigned l;
	if (ptx_type_is_signed(in->type)) {
		ALU_LANES(l, mask)
		{
			int64_t sa = sextw(a[l], w), sb = sextw(b[l], w), r;
			if (sb == 0)
				r = rem ? sa : (sa >= 0 ? -1 : 1);
			else if (sb == -1)
				r = rem ? 0 : (int64_t)(0 - (uint64_t)sa); /* MIN / -1 wraps to MIN */
			else
				r = rem ? sa % sb : sa / sb;
			d[l] = (uint64_t)r & wm;
		}
	} else {
		ALU_LANES(l, mask)
		{
			uint64_t ua = a[l] & wm, ub = b[l] & wm;
			if (ub == 0)
				d[l] = rem ? ua : wm;
			else
				d[l] = rem ? ua % ub : ua / ub;
		}
	}
}

ALU_INT_OP(div, exec_divrem, check_int, &func_op_fdiv);
ALU_INT_OP(rem, exec_divrem, check_int, NULL);

static void exec_absneg_int(const struct func_exec *x, const struct ptx_insn *in, uint64_t mask)
{
	uint64_t ta[WS_MAX_WARP], sc[WS_MAX_WARP];
	const uint64_t *a = func_src(x, &in->opd[1], ta);
	uint64_t *d = alu_dst(x, &in->opd[0], sc);
	const unsigned w = ptx_type_bits(in->type);
	const uint64_t wm = alu_wmask(w);
	unsigned l;
	if (in->op == OP_NEG) {
		ALU_LANES(l, mask) d[l] = (0 - a[l]) & wm;
	} else {
		ALU_LANES(l, mask) d[l] = (sextw(a[l], w) < 0 ? 0 - a[l] : a[l]) & wm;
	}
}

static bool check_absneg(const struct ptx_insn *in, char *why, size_t whysz)
{
	if (!in_set(in->type, TB(S16) | TB(S32) | TB(S64)))
		return alu_reject(in, why, whysz, "unsupported type");
	return alu_check_flags(in, 0, why, whysz);
}

ALU_INT_OP(absneg, exec_absneg_int, check_absneg, &func_op_fabsneg);

static void exec_minmax_int(const struct func_exec *x, const struct ptx_insn *in, uint64_t mask)
{
	uint64_t ta[WS_MAX_WARP], tb[WS_MAX_WARP], sc[WS_MAX_WARP];
	const uint64_t *a = func_src(x, &in->opd[1], ta);
	const uint64_t *b = func_src(x, &in->opd[2], tb);
	uint64_t *d = alu_dst(x, &in->opd[0], sc);
	const unsigned w = ptx_type_bits(in->type);
	const uint64_t wm = alu_wmask(w);
	const bool mx = in->op == OP_MAX, relu = (in->flags & FLAG_RELU) != 0;
	unsigned l;
	if (ptx_type_is_signed(in->type)) {
		ALU_LANES(l, mask)
		{
			int64_t sa = sextw(a[l], w), sb = sextw(b[l], w);
			int64_t r = mx ? (sa > sb ? sa : sb) : (sa < sb ? sa : sb);
			if (relu && r < 0)
				r = 0;
			d[l] = (uint64_t)r & wm;
		}
	} else {
		ALU_LANES(l, mask)
		{
			uint64_t ua = a[l] & wm, ub = b[l] & wm;
			d[l] = mx ? (ua > ub ? ua : ub) : (ua < ub ? ua : ub);
		}
	}
}

static bool check_minmax(const struct ptx_insn *in, char *why, size_t whysz)
{
	if (!in_set(in->type, T_INT))
		return alu_reject(in, why, whysz, "unsupported type");
	if (!alu_check_flags(in, FLAG_RELU, why, whysz))
		return false;
	if ((in->flags & FLAG_RELU) && in->type != PTX_T_S32)
		return alu_reject(in, why, whysz, ".relu is only supported on .s32");
	return true;
}

ALU_INT_OP(minmax, exec_minmax_int, check_minmax, &func_op_fminmax);

static void exec_dp(const struct func_exec *x, const struct ptx_insn *in, uint64_t mask)
{
	uint64_t ta[WS_MAX_WARP], tb[WS_MAX_WARP], tc[WS_MAX_WARP], sc[WS_MAX_WARP];
	const uint64_t *a = func_src(x, &in->opd[1], ta);
	const uint64_t *b = func_src(x, &in->opd[2], tb);
	const uint64_t *c = func_src(x, &in->opd[3], tc);
	uint64_t *d = alu_dst(x, &in->opd[0], sc);
	const bool as = in->type == PTX_T_S32, bs = in->type2 == PTX_T_S32;
	const unsigned bsel = in->mode == MODE_HI ? 2 : 0;
	unsigned l;
	if (in->op == OP_DP4A) {
		ALU_LANES(l, mask)
		{
			int64_t sum = 0;
			for (unsigned i = 0; i < 4; i++) {
				uint64_t ab = (a[l] >> (8 * i)) & 0xff, bb = (b[l] >> (8 * i)) & 0xff;
				int64_t va = as ? sextw(ab, 8) : (int64_t)ab, vb = bs ? sextw(bb, 8) : (int64_t)bb;
				sum += va * vb;
			}
			d[l] = (c[l] + (uint64_t)sum) & 0xffffffffu;
		}
	} else {
		ALU_LANES(l, mask)
		{
			int64_t sum = 0;
			for (unsigned i = 0; i < 2; i++) {
				uint64_t ah = (a[l] >> (16 * i)) & 0xffff, bb = (b[l] >> (8 * (bsel + i))) & 0xff;
				int64_t va = as ? sextw(ah, 16) : (int64_t)ah, vb = bs ? sextw(bb, 8) : (int64_t)bb;
				sum += va * vb;
			}
			d[l] = (c[l] + (uint64_t)sum) & 0xffffffffu;
		}
	}
}

static bool check_dp(const struct ptx_insn *in, char *why, size_t whysz)
{
	const unsigned t = in->type, op = in->op;
	if ((t != PTX_T_U32 && t != PTX_T_S32) || (in->type2 != PTX_T_U32 && in->type2 != PTX_T_S32))
		return alu_reject(in, why, whysz, "types must be .u32/.s32");
	if (op == OP_DP2A && in->mode != MODE_LO && in->mode != MODE_HI)
		return alu_reject(in, why, whysz, "dp2a needs .lo or .hi");
	if (op == OP_DP4A && in->mode != MODE_NONE)
		return alu_reject(in, why, whysz, "unsupported mode");
	return alu_check_flags(in, 0, why, whysz);
}

ALU_INT_OP(dp, exec_dp, check_dp, NULL);

/* ------------------------------------------------------------- bit ops */

static void exec_bitcount(const struct func_exec *x, const struct ptx_insn *in, uint64_t mask)
{
	uint64_t ta[WS_MAX_WARP], sc[WS_MAX_WARP];
	const uint64_t *a = func_src(x, &in->opd[1], ta);
	uint64_t *d = alu_dst(x, &in->opd[0], sc);
	const unsigned w = ptx_type_bits(in->type);
	const uint64_t wm = alu_wmask(w);
	unsigned l;
	switch (in->op) {
	case OP_POPC: ALU_LANES(l, mask) d[l] = (uint64_t)__builtin_popcountll(a[l] & wm); break;
	case OP_CLZ:
		ALU_LANES(l, mask)
		{
			uint64_t v = a[l] & wm;
			d[l] = v ? (uint64_t)(__builtin_clzll(v) - (64 - (int)w)) : w;
		}
		break;
	case OP_BREV: ALU_LANES(l, mask) d[l] = brev64(a[l] & wm) >> (64 - w); break;
	default: /* OP_BFIND */ {
		const bool sgn = ptx_type_is_signed(in->type), shamt = (in->flags & FLAG_SHIFTAMT) != 0;
		ALU_LANES(l, mask)
		{
			uint64_t v = a[l] & wm;
			if (sgn && (v >> (w - 1)))
				v = ~v & wm;
			uint64_t r = 0xffffffffu;
			if (v) {
				r = (uint64_t)(63 - __builtin_clzll(v));
				if (shamt)
					r = (w - 1) - r;
			}
			d[l] = r;
		}
		break;
	}
	}
}

/* popc, clz, brev, bfi: .b32/.b64, no modifiers */
static bool check_bits(const struct ptx_insn *in, char *why, size_t whysz)
{
	if (in->type != PTX_T_B32 && in->type != PTX_T_B64)
		return alu_reject(in, why, whysz, "unsupported type");
	return alu_check_flags(in, 0, why, whysz);
}

/* bfe, bfind: 32/64-bit integers (bfind: .shiftamt) */
static bool check_bfe(const struct ptx_insn *in, char *why, size_t whysz)
{
	if (!in_set(in->type, T_32_64))
		return alu_reject(in, why, whysz, "unsupported type");
	return alu_check_flags(in, in->op == OP_BFIND ? FLAG_SHIFTAMT : 0, why, whysz);
}

ALU_INT_OP(bitcount, exec_bitcount, check_bits, NULL);
ALU_INT_OP(bfind, exec_bitcount, check_bfe, NULL);

static void exec_bfe(const struct func_exec *x, const struct ptx_insn *in, uint64_t mask)
{
	uint64_t ta[WS_MAX_WARP], tb[WS_MAX_WARP], tc[WS_MAX_WARP], sc[WS_MAX_WARP];
	const uint64_t *a = func_src(x, &in->opd[1], ta);
	const uint64_t *b = func_src(x, &in->opd[2], tb);
	const uint64_t *c = func_src(x, &in->opd[3], tc);
	uint64_t *d = alu_dst(x, &in->opd[0], sc);
	const unsigned w = ptx_type_bits(in->type), msb = w - 1;
	const uint64_t wm = alu_wmask(w);
	const bool sgn = ptx_type_is_signed(in->type);
	unsigned l;
	ALU_LANES(l, mask)
	{
		uint64_t v = a[l] & wm;
		unsigned pos = (unsigned)(b[l] & 0xff), len = (unsigned)(c[l] & 0xff);
		unsigned n = pos <= msb ? (len < w - pos ? len : w - pos) : 0; /* bits copied */
		uint64_t r = n ? (v >> pos) & alu_wmask(n) : 0;
		if (sgn && len) {
			unsigned sb = pos + len - 1 < msb ? pos + len - 1 : msb;
			if ((v >> sb) & 1)
				r |= ~alu_wmask(n) & wm;
		}
		d[l] = r;
	}
}

ALU_INT_OP(bfe, exec_bfe, check_bfe, NULL);

static void exec_bfi(const struct func_exec *x, const struct ptx_insn *in, uint64_t mask)
{
	uint64_t ta[WS_MAX_WARP], tb[WS_MAX_WARP], tc[WS_MAX_WARP], td[WS_MAX_WARP], sc[WS_MAX_WARP];
	const uint64_t *a = func_src(x, &in->opd[1], ta);
	const uint64_t *b = func_src(x, &in->opd[2], tb);
	const uint64_t *c = func_src(x, &in->opd[3], tc);
	const uint64_t *e = func_src(x, &in->opd[4], td);
	uint64_t *d = alu_dst(x, &in->opd[0], sc);
	const unsigned w = ptx_type_bits(in->type);
	const uint64_t wm = alu_wmask(w);
	unsigned l;
	ALU_LANES(l, mask)
	{
		unsigned pos = (unsigned)(c[l] & 0xff), len = (unsigned)(e[l] & 0xff);
		unsigned n = pos < w ? (len < w - pos ? len : w - pos) : 0;
		uint64_t f = b[l] & wm;
		if (n) {
			uint64_t m = alu_wmask(n) << pos;
			f = (f & ~m) | ((a[l] << pos) & m);
		}
		d[l] = f;
	}
}

ALU_INT_OP(bfi, exec_bfi, check_bits, NULL);

static void exec_fns(const struct func_exec *x, const struct ptx_insn *in, uint64_t mask)
{
	uint64_t ta[WS_MAX_WARP], tb[WS_MAX_WARP], tc[WS_MAX_WARP], sc[WS_MAX_WARP];
	const uint64_t *a = func_src(x, &in->opd[1], ta);
	const uint64_t *b = func_src(x, &in->opd[2], tb);
	const uint64_t *c = func_src(x, &in->opd[3], tc);
	uint64_t *d = alu_dst(x, &in->opd[0], sc);
	unsigned l;
	ALU_LANES(l, mask)
	{
		uint32_t m = (uint32_t)a[l];
		uint32_t base = (uint32_t)b[l];
		int64_t off = sextw(c[l], 32);
		uint64_t r = 0xffffffffu;
		if (base <= 31) { /* larger bases are undefined in PTX: no bit found */
			if (off == 0) {
				if ((m >> base) & 1)
					r = base;
			} else {
				int64_t count = (off > 0 ? off : -off) - 1;
				int inc = off > 0 ? 1 : -1;
				for (int pos = (int)base; pos >= 0 && pos < 32; pos += inc) {
					if ((m >> pos) & 1) {
						if (count == 0) {
							r = (uint64_t)pos;
							break;
						}
						count--;
					}
				}
			}
		}
		d[l] = r;
	}
}

static bool check_fns(const struct ptx_insn *in, char *why, size_t whysz)
{
	if (in->type != PTX_T_B32)
		return alu_reject(in, why, whysz, "unsupported type");
	return alu_check_flags(in, 0, why, whysz);
}

ALU_INT_OP(fns, exec_fns, check_fns, NULL);

/* Byte index tables of the special prmt modes: [mode][c & 3][result byte]. */
static const uint8_t prmt_tab[6][4][4] = {
    /* f4e  */ {{0, 1, 2, 3}, {1, 2, 3, 4}, {2, 3, 4, 5}, {3, 4, 5, 6}},
    /* b4e  */ {{0, 7, 6, 5}, {1, 0, 7, 6}, {2, 1, 0, 7}, {3, 2, 1, 0}},
    /* rc8  */ {{0, 0, 0, 0}, {1, 1, 1, 1}, {2, 2, 2, 2}, {3, 3, 3, 3}},
    /* ecl  */ {{0, 1, 2, 3}, {1, 1, 2, 3}, {2, 2, 2, 3}, {3, 3, 3, 3}},
    /* ecr  */ {{0, 0, 0, 0}, {0, 1, 1, 1}, {0, 1, 2, 2}, {0, 1, 2, 3}},
    /* rc16 */ {{0, 1, 0, 1}, {2, 3, 2, 3}, {0, 1, 0, 1}, {2, 3, 2, 3}},
};

static void exec_prmt(const struct func_exec *x, const struct ptx_insn *in, uint64_t mask)
{
	uint64_t ta[WS_MAX_WARP], tb[WS_MAX_WARP], tc[WS_MAX_WARP], sc[WS_MAX_WARP];
	const uint64_t *a = func_src(x, &in->opd[1], ta);
	const uint64_t *b = func_src(x, &in->opd[2], tb);
	const uint64_t *c = func_src(x, &in->opd[3], tc);
	uint64_t *d = alu_dst(x, &in->opd[0], sc);
	unsigned l;
	if (in->mode == MODE_NONE) {
		ALU_LANES(l, mask)
		{
			uint64_t src = ((b[l] & 0xffffffffu) << 32) | (a[l] & 0xffffffffu);
			uint64_t r = 0;
			for (unsigned i = 0; i < 4; i++) {
				unsigned sel = (unsigned)(c[l] >> (4 * i)) & 0xf;
				uint64_t byte = (src >> (8 * (sel & 7))) & 0xff;
				if (sel & 8)
					byte = (byte & 0x80) ? 0xff : 0;
				r |= byte << (8 * i);
			}
			d[l] = r;
		}
	} else {
		const uint8_t(*tab)[4] = prmt_tab[in->mode - MODE_PRMT_F4E];
		ALU_LANES(l, mask)
		{
			uint64_t src = ((b[l] & 0xffffffffu) << 32) | (a[l] & 0xffffffffu);
			const uint8_t *s = tab[c[l] & 3];
			uint64_t r = 0;
			for (unsigned i = 0; i < 4; i++)
				r |= ((src >> (8 * s[i])) & 0xff) << (8 * i);
			d[l] = r;
		}
	}
}

static bool check_prmt(const struct ptx_insn *in, char *why, size_t whysz)
{
	if (in->type != PTX_T_B32)
		return alu_reject(in, why, whysz, "unsupported type");
	if (in->mode != MODE_NONE && (in->mode < MODE_PRMT_F4E || in->mode > MODE_PRMT_RC16))
		return alu_reject(in, why, whysz, "unsupported mode");
	return alu_check_flags(in, 0, why, whysz);
}

ALU_INT_OP(prmt, exec_prmt, check_prmt, NULL);

static void exec_logic(const struct func_exec *x, const struct ptx_insn *in, uint64_t mask)
{
	uint64_t ta[WS_MAX_WARP], tb[WS_MAX_WARP], sc[WS_MAX_WARP];
	const uint64_t *a = func_src(x, &in->opd[1], ta);
	const bool unary = in->op == OP_NOT || in->op == OP_CNOT;
	const uint64_t *b = unary ? NULL : func_src(x, &in->opd[2], tb);
	uint64_t *d = alu_dst(x, &in->opd[0], sc);
	const bool pred = in->type == PTX_T_PRED;
	const uint64_t wm = pred ? 1 : alu_wmask(ptx_type_bits(in->type));
	unsigned l;
	if (pred) {
		switch (in->op) {
		case OP_AND: ALU_LANES(l, mask) d[l] = (a[l] != 0) & (b[l] != 0); break;
		case OP_OR: ALU_LANES(l, mask) d[l] = (a[l] != 0) | (b[l] != 0); break;
		case OP_XOR: ALU_LANES(l, mask) d[l] = (a[l] != 0) ^ (b[l] != 0); break;
		default: /* not */ ALU_LANES(l, mask) d[l] = a[l] == 0; break;
		}
		return;
	}
	switch (in->op) {
	case OP_AND: ALU_LANES(l, mask) d[l] = a[l] & b[l] & wm; break;
	case OP_OR: ALU_LANES(l, mask) d[l] = (a[l] | b[l]) & wm; break;
	case OP_XOR: ALU_LANES(l, mask) d[l] = (a[l] ^ b[l]) & wm; break;
	case OP_NOT: ALU_LANES(l, mask) d[l] = ~a[l] & wm; break;
	default: /* cnot */ ALU_LANES(l, mask) d[l] = (a[l] & wm) == 0; break;
	}
}

/* and, or, xor, not: bits or predicates; cnot: bits */
static bool check_logic(const struct ptx_insn *in, char *why, size_t whysz)
{
	if (!in_set(in->type, in->op == OP_CNOT ? T_BITS : T_BITS | TB(PRED)))
		return alu_reject(in, why, whysz, "unsupported type");
	return alu_check_flags(in, 0, why, whysz);
}

ALU_INT_OP(logic, exec_logic, check_logic, NULL);

static void exec_lop3(const struct func_exec *x, const struct ptx_insn *in, uint64_t mask)
{
	uint64_t ta[WS_MAX_WARP], tb[WS_MAX_WARP], tc[WS_MAX_WARP], tl[WS_MAX_WARP], tq[WS_MAX_WARP], sc[WS_MAX_WARP];
	const uint64_t *a = func_src(x, &in->opd[1], ta);
	const uint64_t *b = func_src(x, &in->opd[2], tb);
	const uint64_t *c = func_src(x, &in->opd[3], tc);
	const uint64_t *lut = func_src(x, &in->opd[4], tl);
	const bool has_p = in->boolop != BOOL_NONE;
	const uint64_t *q = has_p ? func_src(x, &in->opd[5], tq) : NULL;
	const struct ptx_operand *o = &in->opd[0];
	uint64_t *d = alu_dst(x, o, sc);
	uint64_t *p = has_p && o->reg2 >= 0 ? func_reg(x, o->reg2) : NULL;
	unsigned l;
	ALU_LANES(l, mask)
	{
		uint64_t av = a[l], bv = b[l], cv = c[l], r = 0;
		unsigned lt = (unsigned)lut[l] & 0xff;
		for (unsigned i = 0; i < 8; i++)
			if ((lt >> i) & 1)
				r |= ((i & 4) ? av : ~av) & ((i & 2) ? bv : ~bv) & ((i & 1) ? cv : ~cv);
		r &= 0xffffffffu;
		unsigned qv = q ? (q[l] != 0) : 0;
		d[l] = r;
		if (p)
			p[l] = boolop(in->boolop, r != 0, qv);
	}
}

static bool check_lop3(const struct ptx_insn *in, char *why, size_t whysz)
{
	if (in->type != PTX_T_B32)
		return alu_reject(in, why, whysz, "unsupported type");
	if (in->boolop != BOOL_NONE && in->boolop != BOOL_AND && in->boolop != BOOL_OR)
		return alu_reject(in, why, whysz, "lop3 boolean operator must be .and or .or");
	return alu_check_flags(in, 0, why, whysz);
}

ALU_INT_OP(lop3, exec_lop3, check_lop3, NULL);

static void exec_shift(const struct func_exec *x, const struct ptx_insn *in, uint64_t mask)
{
	uint64_t ta[WS_MAX_WARP], tb[WS_MAX_WARP], sc[WS_MAX_WARP];
	const uint64_t *a = func_src(x, &in->opd[1], ta);
	const uint64_t *b = func_src(x, &in->opd[2], tb);
	uint64_t *d = alu_dst(x, &in->opd[0], sc);
	const unsigned w = ptx_type_bits(in->type);
	const uint64_t wm = alu_wmask(w);
	unsigned l;
	if (in->op == OP_SHL) {
		ALU_LANES(l, mask)
		{
			uint32_t n = (uint32_t)b[l];
			d[l] = n >= w ? 0 : (a[l] << n) & wm;
		}
	} else if (ptx_type_is_signed(in->type)) {
		ALU_LANES(l, mask)
		{
			uint32_t n = (uint32_t)b[l];
			uint64_t v = a[l] & wm;
			bool neg = (v >> (w - 1)) & 1;
			if (n >= w)
				d[l] = neg ? wm : 0;
			else
				d[l] = (neg ? ~(~(v | ~wm) >> n) : v >> n) & wm;
		}
	} else {
		ALU_LANES(l, mask)
		{
			uint32_t n = (uint32_t)b[l];
			d[l] = n >= w ? 0 : (a[l] & wm) >> n;
		}
	}
}

/* shl: bits; shr: bits or integers (arithmetic shift when signed) */
static bool check_shift(const struct ptx_insn *in, char *why, size_t whysz)
{
	if (!in_set(in->type, in->op == OP_SHL ? T_BITS : T_BITS | T_INT))
		return alu_reject(in, why, whysz, "unsupported type");
	return alu_check_flags(in, 0, why, whysz);
}

ALU_INT_OP(shift, exec_shift, check_shift, NULL);

static void exec_shf(const struct func_exec *x, const struct ptx_insn *in, uint64_t mask)
{
	uint64_t ta[WS_MAX_WARP], tb[WS_MAX_WARP], tc[WS_MAX_WARP], sc[WS_MAX_WARP];
	const uint64_t *a = func_src(x, &in->opd[1], ta);
	const uint64_t *b = func_src(x, &in->opd[2], tb);
	const uint64_t *c = func_src(x, &in->opd[3], tc);
	uint64_t *d = alu_dst(x, &in->opd[0], sc);
	const bool clamp = (in->flags & FLAG_CLAMP) != 0, left = in->mode == MODE_L;
	unsigned l;
	ALU_LANES(l, mask)
	{
		uint32_t cv = (uint32_t)c[l];
		unsigned n = clamp ? (cv < 32 ? cv : 32) : (cv & 31);
		uint64_t v = ((b[l] & 0xffffffffu) << 32) | (a[l] & 0xffffffffu);
		d[l] = left ? ((v << n) >> 32) & 0xffffffffu : (v >> n) & 0xffffffffu;
	}
}

static bool check_shf(const struct ptx_insn *in, char *why, size_t whysz)
{
	if (in->type != PTX_T_B32)
		return alu_reject(in, why, whysz, "unsupported type");
	if (in->mode != MODE_L && in->mode != MODE_R)
		return alu_reject(in, why, whysz, "shf needs .l or .r");
	if (!alu_check_flags(in, FLAG_CLAMP | FLAG_WRAP, why, whysz))
		return false;
	if (!(in->flags & FLAG_CLAMP) == !(in->flags & FLAG_WRAP))
		return alu_reject(in, why, whysz, "shf needs exactly one of .clamp/.wrap");
	return true;
}

ALU_INT_OP(shf, exec_shf, check_shf, NULL);

/* ---------------------------------------------------- compare and select */

uint64_t alu_set_true(unsigned dtype)
{
	switch (dtype) {
	case PTX_T_F32: return FPU_ONE32;
	case PTX_T_F16: return FPU_ONE16;
	case PTX_T_BF16: return FPU_ONEBF16;
	default: return alu_wmask(ptx_type_bits((enum ptx_type)dtype));
	}
}

static void exec_cmp_int(const struct func_exec *x, const struct ptx_insn *in, uint64_t mask)
{
	uint64_t ta[WS_MAX_WARP], tb[WS_MAX_WARP];
	uint8_t t[WS_MAX_WARP];
	const uint64_t *a = func_src(x, &in->opd[1], ta);
	const uint64_t *b = func_src(x, &in->opd[2], tb);
	const enum ptx_type ty = (enum ptx_type)(in->op == OP_SET ? in->type2 : in->type);
	const unsigned w = ptx_type_bits(ty);
	const uint64_t wm = alu_wmask(w);
	const unsigned cmp = in->cmp < CMP_COUNT ? in->cmp : CMP_NONE;
	const unsigned truth = fpu_cmp_truth[cmp];
	const bool sgn = ptx_type_is_signed(ty) && !(cmp >= CMP_LO && cmp <= CMP_HS);
	unsigned l;
	if (sgn) {
		ALU_LANES(l, mask)
		{
			int64_t sa = sextw(a[l], w), sb = sextw(b[l], w);
			unsigned rel = sa < sb ? FPU_REL_LT : sa == sb ? FPU_REL_EQ : FPU_REL_GT;
			t[l] = (uint8_t)((truth >> rel) & 1);
		}
	} else {
		ALU_LANES(l, mask)
		{
			uint64_t ua = a[l] & wm, ub = b[l] & wm;
			unsigned rel = ua < ub ? FPU_REL_LT : ua == ub ? FPU_REL_EQ : FPU_REL_GT;
			t[l] = (uint8_t)((truth >> rel) & 1);
		}
	}
	if (in->op == OP_SETP) {
		alu_setp_write(x, in, mask, t, NULL);
		return;
	}
	uint64_t sc[WS_MAX_WARP];
	uint64_t *d = alu_dst(x, &in->opd[0], sc);
	const uint64_t tv = alu_set_true(in->type);
	alu_set_combine(x, in, mask, t);
	ALU_LANES(l, mask) d[l] = t[l] ? tv : 0;
}

/* setp, set on integers (float comparisons: exec_float.c) */
static bool check_cmp(const struct ptx_insn *in, char *why, size_t whysz)
{
	const unsigned op = in->op, ct = op == OP_SET ? in->type2 : in->type;
	if (!in_set(ct, T_INT | T_BITS))
		return alu_reject(in, why, whysz, "unsupported comparison type");
	if (in->cmp < CMP_EQ || in->cmp > CMP_HS)
		return alu_reject(in, why, whysz, "comparison not valid for integers");
	if (op == OP_SET && !in_set(in->type, TB(U32) | TB(S32) | TB(F32)))
		return alu_reject(in, why, whysz, "set destination type must be .u32/.s32/.f32");
	if (in->boolop > BOOL_XOR)
		return alu_reject(in, why, whysz, "bad boolean operator");
	return alu_check_flags(in, 0, why, whysz);
}

ALU_INT_OP(cmp, exec_cmp_int, check_cmp, &func_op_fcmp);

static void exec_selp(const struct func_exec *x, const struct ptx_insn *in, uint64_t mask)
{
	uint64_t ta[WS_MAX_WARP], tb[WS_MAX_WARP], tc[WS_MAX_WARP], sc[WS_MAX_WARP];
	const uint64_t *a = func_src(x, &in->opd[1], ta);
	const uint64_t *b = func_src(x, &in->opd[2], tb);
	const uint64_t *c = func_src(x, &in->opd[3], tc);
	uint64_t *d = alu_dst(x, &in->opd[0], sc);
	const uint64_t wm = in->type == PTX_T_PRED ? 1 : alu_wmask(ptx_type_bits(in->type));
	unsigned l;
	ALU_LANES(l, mask) d[l] = (c[l] ? a[l] : b[l]) & wm;
}

static bool check_selp(const struct ptx_insn *in, char *why, size_t whysz)
{
	if (!in_set(in->type, T_INT | T_BITS | TB(F32) | TB(F64) | TB(F16) | TB(BF16) | TB(F16X2) | TB(BF16X2)))
		return alu_reject(in, why, whysz, "unsupported type");
	return alu_check_flags(in, 0, why, whysz);
}

ALU_INT_OP(selp, exec_selp, check_selp, NULL);

static void exec_slct(const struct func_exec *x, const struct ptx_insn *in, uint64_t mask)
{
	uint64_t ta[WS_MAX_WARP], tb[WS_MAX_WARP], tc[WS_MAX_WARP], sc[WS_MAX_WARP];
	const uint64_t *a = func_src(x, &in->opd[1], ta);
	const uint64_t *b = func_src(x, &in->opd[2], tb);
	const uint64_t *c = func_src(x, &in->opd[3], tc);
	uint64_t *d = alu_dst(x, &in->opd[0], sc);
	const uint64_t wm = alu_wmask(ptx_type_bits(in->type));
	unsigned l;
	if (in->type2 == PTX_T_F32) {
		const bool ftz = (in->flags & FLAG_FTZ) != 0;
		ALU_LANES(l, mask)
		{
			uint32_t cb = (uint32_t)c[l];
			if (ftz)
				cb = fpu_ftz32(cb);
			d[l] = (fpu_f32(cb) >= 0.0f ? a[l] : b[l]) & wm; /* -0.0 >= 0; NaN selects b */
		}
	} else {
		ALU_LANES(l, mask) d[l] = (sextw(c[l], 32) >= 0 ? a[l] : b[l]) & wm;
	}
}

static bool check_slct(const struct ptx_insn *in, char *why, size_t whysz)
{
	if (!in_set(in->type, T_INT | T_BITS | TB(F32) | TB(F64)))
		return alu_reject(in, why, whysz, "unsupported type");
	if (in->type2 != PTX_T_S32 && in->type2 != PTX_T_F32)
		return alu_reject(in, why, whysz, "slct operand c must be .s32 or .f32");
	if (!alu_check_flags(in, FLAG_FTZ, why, whysz))
		return false;
	if ((in->flags & FLAG_FTZ) && in->type2 != PTX_T_F32)
		return alu_reject(in, why, whysz, ".ftz needs .f32 operand c");
	return true;
}

ALU_INT_OP(slct, exec_slct, check_slct, NULL);

/* ------------------------------------------------------------------ mov */

static inline uint64_t elem_val(const struct func_exec *x, const struct ptx_elem *e, unsigned l)
{
	if (e->kind == OPD_REG)
		return func_reg(x, e->reg)[l];
	if (e->kind == OPD_IMM)
		return e->imm;
	return 0;
}

static void exec_mov(const struct func_exec *x, const struct ptx_insn *in, uint64_t mask)
{
	const struct ptx_operand *dop = &in->opd[0], *sop = &in->opd[1];
	const bool pred = in->type == PTX_T_PRED;
	const unsigned w = ptx_type_bits(in->type);
	const uint64_t wm = pred ? 1 : alu_wmask(w);
	unsigned l;

	if (dop->kind == OPD_VEC && sop->kind == OPD_VEC) { /* element-wise */
		unsigned n = dop->nelem < sop->nelem ? dop->nelem : sop->nelem;
		ALU_LANES(l, mask)
		{
			uint64_t v[PTX_MAX_VEC];
			for (unsigned i = 0; i < n; i++)
				v[i] = elem_val(x, &sop->elem[i], l);
			for (unsigned i = 0; i < n; i++)
				if (dop->elem[i].kind == OPD_REG)
					func_reg(x, dop->elem[i].reg)[l] = pred ? (v[i] != 0) : (v[i] & wm);
		}
		return;
	}
	if (sop->kind == OPD_VEC) { /* pack: element 0 is the least significant */
		uint64_t sc[WS_MAX_WARP];
		uint64_t *d = alu_dst(x, dop, sc);
		const unsigned n = sop->nelem ? sop->nelem : 1, ew = w / n;
		const uint64_t em = alu_wmask(ew);
		ALU_LANES(l, mask)
		{
			uint64_t v = 0;
			for (unsigned i = 0; i < n; i++)
				v |= (elem_val(x, &sop->elem[i], l) & em) << (i * ew);
			d[l] = v & wm;
		}
		return;
	}
	uint64_t ts[WS_MAX_WARP];
	const uint64_t *s = func_src(x, sop, ts);
	if (dop->kind == OPD_VEC) { /* unpack */
		const unsigned n = dop->nelem ? dop->nelem : 1, ew = w / n;
		const uint64_t em = alu_wmask(ew);
		ALU_LANES(l, mask)
		{
			uint64_t v = s[l];
			for (unsigned i = 0; i < n; i++)
				if (dop->elem[i].kind == OPD_REG)
					func_reg(x, dop->elem[i].reg)[l] = (v >> (i * ew)) & em;
		}
		return;
	}
	uint64_t sc[WS_MAX_WARP];
	uint64_t *d = alu_dst(x, dop, sc);
	if (pred) {
		ALU_LANES(l, mask) d[l] = s[l] != 0;
	} else {
		ALU_LANES(l, mask) d[l] = s[l] & wm;
	}
}

static bool check_mov(const struct ptx_insn *in, char *why, size_t whysz)
{
	unsigned t = in->type;
	if (t == PTX_T_NONE || t == PTX_T_B128 || t >= PTX_T_COUNT)
		return alu_reject(in, why, whysz, "unsupported mov type");
	if (in->flags || in->rnd)
		return alu_reject(in, why, whysz, "mov takes no modifiers");
	const struct ptx_operand *d = &in->opd[0], *s = &in->opd[1];
	unsigned w = ptx_type_bits((enum ptx_type)t);
	if (d->kind == OPD_VEC && s->kind == OPD_VEC) {
		if (d->nelem != s->nelem)
			return alu_reject(in, why, whysz, "vector mov with different element counts");
		return true;
	}
	const struct ptx_operand *v = d->kind == OPD_VEC ? d : s->kind == OPD_VEC ? s : NULL;
	if (v) {
		if (t == PTX_T_PRED || (v->nelem != 2 && v->nelem != 4) || w % v->nelem || w / v->nelem < 8)
			return alu_reject(in, why, whysz, "vector pack/unpack needs 2 or 4 elements of >= 8 bits");
	}
	return true;
}

/* mov has its own rules (any type, vector pack/unpack), not the integer ones */
const struct func_op func_op_mov = {
	.check = func_alu_check, .step = func_alu_step, .lanes = exec_mov, .lanes_check = check_mov};

/* ------------------------------------------------------------- dispatch */

/* The handler that runs (and checks) an ALU instruction: its opcode's
 * (func_ops), or that handler's float handler when it has one and the
 * instruction computes in a floating-point type (setp/set: the type compared). */
static const struct func_op *alu_route(const struct ptx_insn *in)
{
	const struct func_op *h = func_ops[in->op];
	if (h->fp && ptx_type_is_float((enum ptx_type)(in->op == OP_SET ? in->type2 : in->type)))
		return h->fp;
	return h;
}

/* add/sub{.sat}, min/max{.relu} .u16x2/.s16x2 (sm_90): per 16-bit half;
 * .sat clamps each half to its type's range (add/sub: .s16x2 only in PTX,
 * accepted for both), .relu makes negative halves 0. */
static void exec_i16x2(const struct func_exec *x, const struct ptx_insn *in, uint64_t mask)
{
	uint64_t ta[WS_MAX_WARP], tb[WS_MAX_WARP], sc[WS_MAX_WARP];
	const uint64_t *a = func_src(x, &in->opd[1], ta), *b = func_src(x, &in->opd[2], tb);
	uint64_t *d = alu_dst(x, &in->opd[0], sc);
	const bool sg = in->type == PTX_T_S16X2, sat = (in->flags & FLAG_SAT) != 0, relu = (in->flags & FLAG_RELU) != 0;
	unsigned l;
	ALU_LANES(l, mask)
	{
		uint64_t r = 0;
		for (unsigned h = 0; h < 2; h++) {
			int64_t va = sg ? sextw(a[l] >> (16 * h), 16) : (int64_t)((a[l] >> (16 * h)) & 0xffff);
			int64_t vb = sg ? sextw(b[l] >> (16 * h), 16) : (int64_t)((b[l] >> (16 * h)) & 0xffff), v;
			switch (in->op) {
			case OP_ADD: v = va + vb; break;
			case OP_SUB: v = va - vb; break;
			case OP_MIN: v = va < vb ? va : vb; break;
			default: v = va > vb ? va : vb; break;
			}
			if (sat) {
				int64_t lo = sg ? -32768 : 0, hi = sg ? 32767 : 65535;
				v = v < lo ? lo : v > hi ? hi : v;
			}
			if (relu && v < 0)
				v = 0;
			r |= ((uint64_t)v & 0xffff) << (16 * h);
		}
		d[l] = r;
	}
}

void func_exec_alu(const struct func_exec *x, const struct ptx_insn *in, uint64_t mask)
{
	if (in->type == PTX_T_U16X2 || in->type == PTX_T_S16X2) {
		if (x->ws < 64)
			mask &= (1ull << x->ws) - 1;
		exec_i16x2(x, in, mask);
		return;
	}
	if (!mask || in->type == PTX_T_NONE || in->type >= PTX_T_COUNT || in->type2 >= PTX_T_COUNT)
		return; /* untyped: func_alu_check rejects it */
	if ((in->op == OP_CVT || in->op == OP_SET) && in->type2 == PTX_T_NONE)
		return;
	if (x->ws < 64)
		mask &= (1ull << x->ws) - 1;
	alu_route(in)->lanes(x, in, mask);
}

bool func_alu_step(const struct func_step *s)
{
	if (s->exec)
		func_exec_alu(s->x, s->in, s->exec);
	func_step_next(s);
	return true;
}

/* ---------------------------------------------------------------- check */

static unsigned expected_nopd(const struct ptx_insn *in)
{
	switch (in->op) {
	case OP_ABS:
	case OP_NEG:
	case OP_NOT:
	case OP_CNOT:
	case OP_POPC:
	case OP_CLZ:
	case OP_BREV:
	case OP_BFIND:
	case OP_MOV:
	case OP_TESTP:
	case OP_RCP:
	case OP_SQRT:
	case OP_RSQRT:
	case OP_SIN:
	case OP_COS:
	case OP_EX2:
	case OP_LG2:
	case OP_TANH: return 2;
	case OP_CVT:
		if (in->flags & FLAG_PACK) /* cvt.pack.sat: d, a, b{, c} */
			return in->type == PTX_T_U8 || in->type == PTX_T_S8 ? 4 : 3;
		if (in->type2 == PTX_T_F16X2 || in->type2 == PTX_T_E4M3X2 || in->type2 == PTX_T_E5M2X2)
			return 2; /* a packed source */
		return (in->type == PTX_T_F16X2 || in->type == PTX_T_BF16X2 || in->type == PTX_T_E4M3X2 ||
			in->type == PTX_T_E5M2X2) ? 3 : 2;
	case OP_MAD:
	case OP_MADC:
	case OP_MAD24:
	case OP_SAD:
	case OP_FMA:
	case OP_DP4A:
	case OP_DP2A:
	case OP_BFE:
	case OP_FNS:
	case OP_PRMT:
	case OP_SELP:
	case OP_SLCT:
	case OP_SHF: return 4;
	case OP_BFI: return 5;
	case OP_LOP3: return in->boolop != BOOL_NONE ? 6 : 5;
	case OP_SETP:
	case OP_SET: return in->boolop != BOOL_NONE ? 4 : 3;
	default: return 3;
	}
}

static bool src_kind_ok(unsigned k)
{
	return k == OPD_REG || k == OPD_IMM || k == OPD_SREG || k == OPD_SYM || k == OPD_FUNC;
}

static bool check_operands(const struct ptx_insn *in, char *why, size_t whysz)
{
	char msg[96];
	unsigned n = expected_nopd(in);
	if (in->nopd != n) {
		snprintf(msg, sizeof msg, "expected %u operands, got %u", n, in->nopd);
		return alu_reject(in, why, whysz, msg);
	}
	const struct ptx_operand *d = &in->opd[0];
	bool vec_ok = in->op == OP_MOV;
	if (!(d->kind == OPD_REG || d->kind == OPD_SINK || (vec_ok && d->kind == OPD_VEC)))
		return alu_reject(in, why, whysz, "destination must be a register");
	for (unsigned i = 1; i < n; i++) {
		unsigned k = in->opd[i].kind;
		if (!(src_kind_ok(k) || (vec_ok && k == OPD_VEC)))
			return alu_reject(in, why, whysz, "unsupported source operand kind");
	}
	for (unsigned i = 0; i < n; i++) {
		const struct ptx_operand *o = &in->opd[i];
		if (o->kind == OPD_VEC) {
			if (o->nelem < 1 || o->nelem > 4)
				return alu_reject(in, why, whysz, "bad vector operand");
			for (unsigned j = 0; j < o->nelem; j++) {
				unsigned k = o->elem[j].kind;
				if (i == 0 ? (k != OPD_REG && k != OPD_SINK) : (k != OPD_REG && k != OPD_IMM))
					return alu_reject(in, why, whysz, "bad vector element");
			}
		}
	}
	return true;
}


bool func_alu_check(const struct ptx_insn *in, char *why, size_t whysz)
{
	if (in->op >= OP_COUNT || func_ops[in->op]->check != func_alu_check)
		return alu_reject(in, why, whysz, "not an ALU instruction");
	if (!check_operands(in, why, whysz))
		return false;
	const struct func_op *h = alu_route(in);
	if (!h->integer)
		return h->lanes_check(in, why, whysz); /* mov, cvt, floating point */
	const unsigned t = in->type, op = in->op;
	if (in->rnd != RND_NONE)
		return alu_reject(in, why, whysz, "rounding modifier on an integer instruction");
	if (op != OP_SETP && op != OP_SET && op != OP_LOP3 && in->boolop != BOOL_NONE)
		return alu_reject(in, why, whysz, "unexpected boolean operator");
	if (t == PTX_T_U16X2 || t == PTX_T_S16X2) {
		if (op != OP_ADD && op != OP_SUB && op != OP_MIN && op != OP_MAX)
			return alu_reject(in, why, whysz, "unsupported type");
		if (in->nopd != 3)
			return alu_reject(in, why, whysz, "expected 3 operands");
		return alu_check_flags(in, op == OP_ADD || op == OP_SUB ? FLAG_SAT : FLAG_RELU, why, whysz);
	}
	return h->lanes_check(in, why, whysz);
}
