/*
 * exec_cvt.c -- lane-parallel semantics of cvt, the SM's conversion
 * datapath (I2I, I2F, F2I, F2F), between every pair of u8..u64, s8..s64,
 * f16, bf16, f32, f64, plus the packing forms cvt.{rn,rz}{.relu}.f16x2.f32
 * and .bf16x2.f32 (d = {cvt(a) in the upper half, cvt(b) in the lower}).
 *
 * Semantics (PTX ISA, "cvt"):
 *   int -> int     the source is sign/zero-extended by the SOURCE type, then
 *                  truncated to the destination, or clamped to its range
 *                  with .sat.  A signed result is sign-extended into a
 *                  wider destination register (cvt.s16.s8 into .b32), as
 *                  PTX specifies for registers wider than the type.
 *   int -> float   correctly rounded with .rn (default) / .rz / .rm / .rp.
 *   float -> int   rounded to an integer with .rni/.rzi (default)/.rmi/.rpi,
 *                  then saturated to the destination range; NaN -> 0.
 *   float -> float exact when widening; otherwise correctly rounded with the
 *                  float rounding modifier (default .rn); .rni etc. round to
 *                  an integral value.  NaN -> canonical NaN of an f16/bf16/f32
 *                  destination; an f64 destination keeps the payload.
 *   .ftz           flushes an f32 source / an f32 result that is subnormal.
 *   .sat           float destinations clamp to [0, 1] (NaN -> 0).
 *   .relu          negative results (and -0) become +0, NaN stays NaN.
 * All rounding is done by fpu_round (integer arithmetic): bit-exact and
 * independent of the host FP environment.
 */
#include <math.h>

#include "func/fpu.h"
#include "func/op.h"

enum { K_BAD, K_UINT, K_SINT, K_FLOAT };

static unsigned klass(unsigned t)
{
	switch (t) {
	case PTX_T_U8:
	case PTX_T_U16:
	case PTX_T_U32:
	case PTX_T_U64: return K_UINT;
	case PTX_T_S8:
	case PTX_T_S16:
	case PTX_T_S32:
	case PTX_T_S64: return K_SINT;
	case PTX_T_F16:
	case PTX_T_BF16:
	case PTX_T_F32:
	case PTX_T_F64: return K_FLOAT;
	default: return K_BAD;
	}
}

static enum fpu_fmt fmt_of(unsigned t)
{
	switch (t) {
	case PTX_T_F16:
	case PTX_T_F16X2: return FPU_F16;
	case PTX_T_BF16:
	case PTX_T_BF16X2: return FPU_BF16;
	case PTX_T_F32: return FPU_F32;
	default: return FPU_F64;
	}
}

static inline uint64_t one_of(enum fpu_fmt f)
{
	switch (f) {
	case FPU_F16: return FPU_ONE16;
	case FPU_BF16: return FPU_ONEBF16;
	case FPU_F32: return FPU_ONE32;
	default: return 0x3ff0000000000000ull;
	}
}

static inline int64_t sextw(uint64_t v, unsigned w)
{
	if (w >= 64)
		return (int64_t)v;
	uint64_t m = 1ull << (w - 1);
	v &= (1ull << w) - 1;
	return (int64_t)((v ^ m) - m);
}

/* Source float value as a double (exact), with .ftz on an f32 source. */
static inline double src_float(uint64_t v, enum fpu_fmt f, bool ftz)
{
	switch (f) {
	case FPU_F16: return fpu_f16_to_double((uint16_t)v);
	case FPU_BF16: return fpu_bf16_to_double((uint16_t)v);
	case FPU_F32: return (double)fpu_f32(ftz ? fpu_ftz32((uint32_t)v) : (uint32_t)v);
	default: return fpu_f64(v);
	}
}

struct fcvt {
	enum fpu_fmt fmt;
	int rnd;  /* float rounding of the result */
	int irnd; /* RND_RNI.. to round to integral first, or 0 */
	bool ftz, sat, relu;
};

/* Exact double v -> destination float format. */
static inline uint64_t to_float(const struct fcvt *c, double v)
{
	uint64_t vb = fpu_b64(v);
	if (fpu_isnan64(vb)) {
		if (c->sat)
			return 0;
		if (c->fmt == FPU_F64)
			return vb | 0x0008000000000000ull;
		return fpu_from_double(v, 0, c->fmt, RND_RN); /* canonical NaN */
	}
	if (c->irnd)
		v = fpu_rint(v, c->irnd);
	if (c->sat) {
		if (!(v > 0.0))
			return 0;
		if (v >= 1.0)
			return one_of(c->fmt);
	}
	if (c->relu && (vb >> 63))
		return 0;
	uint64_t r;
	if (c->fmt == FPU_F64)
		r = fpu_b64(v);
	else if (c->fmt == FPU_F32 && c->rnd == RND_RN)
		r = fpu_b32((float)v); /* host conversion: round-to-nearest-even */
	else
		r = fpu_from_double(v, 0, c->fmt, c->rnd);
	if (c->ftz && c->fmt == FPU_F32)
		r = fpu_ftz32((uint32_t)r);
	return r;
}

/* Integer (sign, magnitude) -> destination float format. */
static inline uint64_t int_to_float(const struct fcvt *c, int neg, uint64_t mag)
{
	if (c->sat)
		return (neg || !mag) ? 0 : one_of(c->fmt);
	if (c->relu && neg)
		return 0;
	if (c->fmt == FPU_F64 && mag <= (1ull << 53)) {
		double v = (double)mag;
		return fpu_b64(neg ? -v : v);
	}
	if (c->fmt == FPU_F32 && mag <= (1ull << 24)) {
		float v = (float)mag;
		return fpu_b32(neg ? -v : v);
	}
	return fpu_round(neg, mag, 0, 0, c->fmt, c->rnd);
}

/* Width of the destination register when a signed result must be sign-
 * extended into it: PTX fills a destination register wider than the
 * instruction type with the sign for signed types (cvt.s16.s8 into a .b32
 * register gives 0xFFFFFFC2).  Returns the type width when no extension is
 * due (unsigned type, register not wider, or not a register). */
static unsigned sreg_bits(const struct func_exec *x, const struct ptx_insn *in)
{
	const struct ptx_operand *o = &in->opd[0];
	const unsigned tb = ptx_type_bits((enum ptx_type)in->type);
	if (!ptx_type_is_signed((enum ptx_type)in->type) || o->kind != OPD_REG || !x->fn || o->reg < 0 ||
	    (uint32_t)o->reg >= x->fn->nregs || !x->fn->regs)
		return tb;
	unsigned t = x->fn->regs[o->reg].type;
	unsigned b = t < PTX_T_COUNT ? ptx_type_bits((enum ptx_type)t) : tb;
	return (b > tb && b <= 64 && t != PTX_T_PRED) ? b : tb;
}

/* ---- issue 16: fp8 pairs, tf32, cvt.pack ----
 *   cvt.rn.satfinite{.relu}.{e4m3x2,e5m2x2}.f32 d, a, b: d (16 bits) = {a in
 *       the upper byte, b in the lower}, each rounded to nearest even;
 *       .satfinite: beyond the largest finite value (e4m3 448, e5m2 57344),
 *       infinities included, gives that value; NaN gives NaN (e4m3 0x7f,
 *       e5m2 0x7f).  The .f16x2 source form converts the two halves.
 *   cvt.rn{.relu}.f16x2.{e4m3x2,e5m2x2} d, a: both bytes to f16 (exact).
 *   cvt.{rna,rn,rz}{.satfinite}.tf32.f32 d, a: a rounded to 10 mantissa bits
 *       (the low 13 bits of d are 0); .satfinite turns an infinity or an
 *       overflow into the largest finite tf32.
 *   cvt.pack.sat.{u16,s16}.s32 d, a, b: d = {sat(a) upper, sat(b) lower};
 *   cvt.pack.sat.{u8,s8}.s32.b32 d, a, b, c: d = c[15:0] << 16 | sat(a) << 8 | sat(b). */
struct mini { int ebits, mbits, bias; bool has_inf; };
static const struct mini MINI_E4M3 = {4, 3, 7, false}, MINI_E5M2 = {5, 2, 15, true};

static double mini_max(const struct mini *f)
{
	int emax = (1 << f->ebits) - 1 - f->bias - (f->has_inf ? 1 : 0);
	double mant = f->has_inf ? 2.0 - ldexp(1.0, -f->mbits) : 2.0 - ldexp(1.0, 1 - f->mbits);
	return ldexp(mant, emax);
}

/* double -> fp8 byte, round to nearest even, saturating to the largest finite value when sat. */
static uint8_t to_mini(double v, const struct mini *f, bool sat, bool relu)
{
	const uint8_t nan = 0x7f;
	if (v != v)
		return nan;
	unsigned sign = signbit(v) ? 0x80u : 0;
	if (relu && sign)
		return 0;
	double a = fabs(v), maxf = mini_max(f);
	if (isinf(a))
		return sat || !f->has_inf ? (uint8_t)(sign | (sat ? 0 : 0) | (to_mini(maxf, f, true, false) & 0x7f))
					  : (uint8_t)(sign | ((((1u << f->ebits) - 1) << f->mbits)));
	if (a == 0)
		return (uint8_t)sign;
	int ex;
	frexp(a, &ex); /* a = m * 2^ex, m in [0.5, 1) */
	int e = ex - 1, emin = 1 - f->bias;
	if (e < emin)
		e = emin;
	double q = ldexp(a, f->mbits - e), fl = floor(q), r = q - fl;
	if (r > 0.5 || (r == 0.5 && fmod(fl, 2.0) != 0))
		fl += 1;
	double rv = ldexp(fl, e - f->mbits);
	if (rv > maxf) {
		if (sat || !f->has_inf)
			rv = maxf;
		else
			return (uint8_t)(sign | ((((1u << f->ebits) - 1) << f->mbits)));
	}
	if (rv == 0)
		return (uint8_t)sign;
	frexp(rv, &ex);
	e = ex - 1;
	unsigned code;
	if (e < emin) {
		code = (unsigned)ldexp(rv, f->mbits - emin);
	} else {
		unsigned m = (unsigned)(ldexp(rv, f->mbits - e)) - (1u << f->mbits);
		code = ((unsigned)(e + f->bias) << f->mbits) | m;
	}
	return (uint8_t)(sign | code);
}

static double from_mini(uint8_t b, const struct mini *f)
{
	unsigned sign = b >> 7, e = (b >> f->mbits) & ((1u << f->ebits) - 1), m = b & ((1u << f->mbits) - 1);
	double v;
	if (!f->has_inf && e == (1u << f->ebits) - 1 && m == (1u << f->mbits) - 1)
		return NAN;
	if (f->has_inf && e == (1u << f->ebits) - 1)
		return m ? NAN : (sign ? -INFINITY : INFINITY);
	if (e == 0)
		v = ldexp((double)m, 1 - f->bias - f->mbits);
	else
		v = ldexp((double)(m | (1u << f->mbits)), (int)e - f->bias - f->mbits);
	return sign ? -v : v;
}

static bool exec_cvt16(const struct func_exec *x, const struct ptx_insn *in, uint64_t mask)
{
	const unsigned dt = in->type, st = in->type2;
	const bool relu = (in->flags & FLAG_RELU) != 0, satf = (in->flags & FLAG_SATFINITE) != 0;
	uint64_t ta[WS_MAX_WARP], tb[WS_MAX_WARP], tc[WS_MAX_WARP], sc[WS_MAX_WARP];
	unsigned l;
	if (in->flags & FLAG_PACK) {
		const uint64_t *a = func_src(x, &in->opd[1], ta), *b = func_src(x, &in->opd[2], tb);
		const uint64_t *c = in->nopd > 3 ? func_src(x, &in->opd[3], tc) : NULL;
		uint64_t *d = alu_dst(x, &in->opd[0], sc);
		const bool sg = dt == PTX_T_S8 || dt == PTX_T_S16;
		const unsigned w = ptx_type_bits((enum ptx_type)dt);
		const int64_t lo = sg ? -(1ll << (w - 1)) : 0, hi = sg ? (1ll << (w - 1)) - 1 : (1ll << w) - 1;
		ALU_LANES(l, mask)
		{
			int64_t va = sextw(a[l], 32), vb = sextw(b[l], 32);
			va = va < lo ? lo : va > hi ? hi : va;
			vb = vb < lo ? lo : vb > hi ? hi : vb;
			uint64_t em = (1ull << w) - 1, r = (((uint64_t)va & em) << w) | ((uint64_t)vb & em);
			if (c)
				r |= (c[l] & 0xffff) << 16;
			d[l] = r & 0xffffffffu;
		}
		return true;
	}
	if (dt == PTX_T_E4M3X2 || dt == PTX_T_E5M2X2) {
		const struct mini *f = dt == PTX_T_E4M3X2 ? &MINI_E4M3 : &MINI_E5M2;
		const uint64_t *a = func_src(x, &in->opd[1], ta);
		const uint64_t *b = st == PTX_T_F32 ? func_src(x, &in->opd[2], tb) : NULL;
		uint64_t *d = alu_dst(x, &in->opd[0], sc);
		ALU_LANES(l, mask)
		{
			double hi, lo;
			if (b) {
				hi = fpu_f32((uint32_t)a[l]);
				lo = fpu_f32((uint32_t)b[l]);
			} else { /* .f16x2 source */
				hi = fpu_f16_to_double((uint16_t)(a[l] >> 16));
				lo = fpu_f16_to_double((uint16_t)a[l]);
			}
			d[l] = ((uint64_t)to_mini(hi, f, satf, relu) << 8) | to_mini(lo, f, satf, relu);
		}
		return true;
	}
	if (dt == PTX_T_F16X2 && (st == PTX_T_E4M3X2 || st == PTX_T_E5M2X2)) {
		const struct mini *f = st == PTX_T_E4M3X2 ? &MINI_E4M3 : &MINI_E5M2;
		const uint64_t *a = func_src(x, &in->opd[1], ta);
		uint64_t *d = alu_dst(x, &in->opd[0], sc);
		ALU_LANES(l, mask)
		{
			uint64_t r = 0;
			for (int k = 1; k >= 0; k--) {
				double v = from_mini((uint8_t)(a[l] >> (8 * k)), f);
				uint64_t h = v != v ? 0x7fff : fpu_from_double(v, 0, FPU_F16, RND_RN);
				if (relu && (h & 0x8000) && v == v)
					h = 0;
				r = (r << 16) | (h & 0xffff);
			}
			d[l] = r;
		}
		return true;
	}
	if (dt == PTX_T_TF32) { /* from f32: 10 mantissa bits kept */
		const uint64_t *a = func_src(x, &in->opd[1], ta);
		uint64_t *d = alu_dst(x, &in->opd[0], sc);
		ALU_LANES(l, mask)
		{
			uint32_t u = (uint32_t)a[l], mag = u & 0x7fffffffu, r;
			if (mag > 0x7f800000u) {
				r = 0x7fffffffu; /* NaN */
			} else if (mag == 0x7f800000u) {
				r = satf ? (u & 0x80000000u) | 0x7f7fe000u : u;
			} else {
				uint32_t low = u & 0x1fffu, base = u & ~0x1fffu;
				bool up = false;
				switch (in->rnd) {
				case RND_RZ: break;
				case RND_RN: up = low > 0x1000u || (low == 0x1000u && (base & 0x2000u)); break;
				default: up = low >= 0x1000u; break; /* rna: ties away from zero */
				}
				r = up ? base + 0x2000u : base; /* a carry into the exponent is the right rounding */
				if (satf && (r & 0x7fffffffu) >= 0x7f800000u)
					r = (u & 0x80000000u) | 0x7f7fe000u;
			}
			d[l] = r;
		}
		return true;
	}
	return false;
}

void func_exec_cvt(const struct func_exec *x, const struct ptx_insn *in, uint64_t mask)
{
	if ((in->flags & FLAG_PACK) || in->type >= PTX_T_E4M3X2 || in->type2 >= PTX_T_E4M3X2) {
		exec_cvt16(x, in, mask);
		return;
	}
	uint64_t ta[WS_MAX_WARP], tb[WS_MAX_WARP], sc[WS_MAX_WARP];
	const unsigned dt = in->type, st = in->type2;
	const uint64_t *a = func_src(x, &in->opd[1], ta);
	uint64_t *d = alu_dst(x, &in->opd[0], sc);
	const bool ftz = (in->flags & FLAG_FTZ) != 0, sat = (in->flags & FLAG_SAT) != 0;
	const bool relu = (in->flags & FLAG_RELU) != 0;
	const unsigned dk = klass(dt), sk = klass(st);
	const bool r_int = in->rnd >= RND_RNI && in->rnd <= RND_RPI;
	const bool r_flt = in->rnd >= RND_RN && in->rnd <= RND_RNA;
	unsigned l;

	if (dt == PTX_T_F16X2 || dt == PTX_T_BF16X2) {
		const uint64_t *b = func_src(x, &in->opd[2], tb);
		struct fcvt c = {fmt_of(dt), r_flt ? in->rnd : RND_RN, 0, false, sat, relu};
		ALU_LANES(l, mask)
		{
			uint64_t hi = to_float(&c, src_float(a[l], FPU_F32, ftz));
			uint64_t lo = to_float(&c, src_float(b[l], FPU_F32, ftz));
			d[l] = ((hi & 0xffff) << 16) | (lo & 0xffff);
		}
		return;
	}
	if (dk == K_BAD || sk == K_BAD)
		return; /* rejected by func_cvt_check */

	const unsigned dw = ptx_type_bits((enum ptx_type)dt), sw = ptx_type_bits((enum ptx_type)st);
	const uint64_t dm = alu_wmask(dw);

	if (dk != K_FLOAT && sk != K_FLOAT) { /* int -> int */
		const unsigned rb = sreg_bits(x, in);
		const uint64_t rm = alu_wmask(rb);
		const bool ss = sk == K_SINT, ds = dk == K_SINT;
		const int64_t dmin = ds ? -(int64_t)(dm >> 1) - 1 : 0;
		const uint64_t dmax = ds ? dm >> 1 : dm;
		ALU_LANES(l, mask)
		{
			uint64_t v = ss ? (uint64_t)sextw(a[l], sw) : (a[l] & alu_wmask(sw));
			if (sat) {
				if (ss && (int64_t)v < 0) {
					if ((int64_t)v < dmin)
						v = (uint64_t)dmin;
				} else if (v > dmax) {
					v = dmax;
				}
			}
			d[l] = rb > dw ? ((uint64_t)sextw(v, dw) & rm) : (v & dm);
		}
		return;
	}
	if (sk != K_FLOAT) { /* int -> float */
		struct fcvt c = {fmt_of(dt), r_flt ? in->rnd : RND_RN, 0, ftz, sat, relu};
		const bool ss = sk == K_SINT;
		ALU_LANES(l, mask)
		{
			if (ss) {
				int64_t v = sextw(a[l], sw);
				d[l] = int_to_float(&c, v < 0, v < 0 ? 0 - (uint64_t)v : (uint64_t)v);
			} else {
				d[l] = int_to_float(&c, 0, a[l] & alu_wmask(sw));
			}
		}
		return;
	}
	const enum fpu_fmt sf = fmt_of(st);
	if (dk != K_FLOAT) { /* float -> int: saturating */
		const int irnd = r_int ? in->rnd : RND_RZI;
		const unsigned rb = sreg_bits(x, in);
		const uint64_t rm = alu_wmask(rb);
		if (dk == K_SINT) {
			const double hi = ldexp(1.0, (int)dw - 1); /* 2^(w-1): first value too large */
			const int64_t smax = (int64_t)(dm >> 1), smin = -smax - 1;
			ALU_LANES(l, mask)
			{
				double v = fpu_rint(src_float(a[l], sf, ftz), irnd);
				int64_t r;
				if (v != v)
					r = 0;
				else if (v >= hi)
					r = smax;
				else if (v < -hi)
					r = smin;
				else
					r = (int64_t)v;
				d[l] = rb > dw ? ((uint64_t)sextw((uint64_t)r, dw) & rm) : ((uint64_t)r & dm);
			}
		} else {
			const double hi = ldexp(1.0, (int)dw); /* 2^w */
			ALU_LANES(l, mask)
			{
				double v = fpu_rint(src_float(a[l], sf, ftz), irnd);
				uint64_t r;
				if (!(v > 0.0)) /* NaN, zero, negative */
					r = 0;
				else if (v >= hi)
					r = dm;
				else
					r = (uint64_t)v;
				d[l] = r;
			}
		}
		return;
	}
	/* float -> float */
	struct fcvt c = {fmt_of(dt), r_flt ? in->rnd : RND_RN, r_int ? in->rnd : 0, ftz, sat, relu};
	ALU_LANES(l, mask) d[l] = to_float(&c, src_float(a[l], sf, ftz));
}

bool func_cvt_check(const struct ptx_insn *in, char *why, size_t whysz)
{
	const unsigned dt = in->type, st = in->type2, r = in->rnd;
	const bool r_int = r >= RND_RNI && r <= RND_RPI;
	const bool r_flt = r >= RND_RN && r <= RND_RP;
	if (in->flags & FLAG_PACK)
		return alu_check_flags(in, FLAG_PACK | FLAG_SAT, why, whysz); /* shape checked by the parser */
	if (dt == PTX_T_E4M3X2 || dt == PTX_T_E5M2X2) {
		if (st != PTX_T_F32 && st != PTX_T_F16X2)
			return alu_reject(in, why, whysz, "fp8 pairs are converted from .f32 or .f16x2");
		if (r != RND_RN || !(in->flags & FLAG_SATFINITE))
			return alu_reject(in, why, whysz, "conversion to fp8 needs .rn.satfinite");
		return alu_check_flags(in, FLAG_SATFINITE | FLAG_RELU, why, whysz);
	}
	if (st == PTX_T_E4M3X2 || st == PTX_T_E5M2X2) {
		if (dt != PTX_T_F16X2 || r != RND_RN)
			return alu_reject(in, why, whysz, "fp8 pairs convert to .f16x2 with .rn");
		return alu_check_flags(in, FLAG_RELU, why, whysz);
	}
	if (dt == PTX_T_TF32) {
		if (st != PTX_T_F32 || (r != RND_RNA && r != RND_RN && r != RND_RZ))
			return alu_reject(in, why, whysz, "tf32 is converted from .f32 with .rna, .rn or .rz");
		return alu_check_flags(in, FLAG_SATFINITE, why, whysz);
	}
	if (dt == PTX_T_TF32 || st == PTX_T_TF32)
		return alu_reject(in, why, whysz, "unsupported conversion type");
	if (in->boolop != BOOL_NONE || in->mode != MODE_NONE)
		return alu_reject(in, why, whysz, "unexpected modifier");
	if (dt == PTX_T_F16X2 || dt == PTX_T_BF16X2) {
		if (st != PTX_T_F32)
			return alu_reject(in, why, whysz, "packed conversion needs an .f32 source");
		if (r != RND_NONE && !r_flt)
			return alu_reject(in, why, whysz, "unsupported rounding modifier");
		return alu_check_flags(in, FLAG_RELU | FLAG_SAT | FLAG_FTZ, why, whysz);
	}
	const unsigned dk = klass(dt), sk = klass(st);
	if (dk == K_BAD || sk == K_BAD)
		return alu_reject(in, why, whysz, "unsupported conversion type");
	if (dk != K_FLOAT && sk != K_FLOAT) {
		if (r != RND_NONE)
			return alu_reject(in, why, whysz, "rounding modifier on an integer conversion");
		return alu_check_flags(in, FLAG_SAT, why, whysz);
	}
	if (sk != K_FLOAT) {
		if (r != RND_NONE && !r_flt)
			return alu_reject(in, why, whysz, "int-to-float needs .rn/.rz/.rm/.rp");
		return alu_check_flags(in, FLAG_SAT | FLAG_FTZ, why, whysz);
	}
	if (dk != K_FLOAT) {
		if (r != RND_NONE && !r_int)
			return alu_reject(in, why, whysz, "float-to-int needs .rni/.rzi/.rmi/.rpi");
		return alu_check_flags(in, FLAG_SAT | FLAG_FTZ, why, whysz);
	}
	if (r != RND_NONE && !r_flt && !r_int)
		return alu_reject(in, why, whysz, "unsupported rounding modifier");
	if (r_int && r_flt)
		return alu_reject(in, why, whysz, "bad rounding modifier");
	if (!alu_check_flags(in, FLAG_SAT | FLAG_FTZ | FLAG_RELU, why, whysz))
		return false;
	if ((in->flags & FLAG_RELU) && dt != PTX_T_F16 && dt != PTX_T_BF16)
		return alu_reject(in, why, whysz, ".relu needs an .f16/.bf16 destination");
	return true;
}

const struct func_op func_op_cvt = {
	.check = func_alu_check, .step = func_alu_step, .lanes = func_exec_cvt, .lanes_check = func_cvt_check};
