/*
 * fpu.c -- exact rounding and format conversion for the functional model's
 * floating-point datapath (see fpu.h for the conventions it models).
 *
 * fpu_round() is a small software rounder: it takes an exact binary value
 * (significand, exponent, sticky bit) and produces the correctly rounded
 * f16/bf16/f32/f64 encoding in any IEEE direction, including subnormal
 * results and overflow.  All conversions (int->float, float->narrower
 * float) go through it, so they are bit-exact and independent of the host
 * compiler's conversion sequences and of the host FP environment.
 */
#include <fenv.h>
#include <math.h>

#include "func/fpu.h"

struct fmt_info {
	uint8_t mbits; /* stored fraction bits */
	uint8_t ebits; /* exponent bits */
	int bias;
};
static const struct fmt_info fmt_tab[4] = {
    [FPU_F16] = {10, 5, 15},
    [FPU_BF16] = {7, 8, 127},
    [FPU_F32] = {23, 8, 127},
    [FPU_F64] = {52, 11, 1023},
};

/* truth bits: 1<<FPU_REL_LT | 1<<FPU_REL_EQ | 1<<FPU_REL_GT | 1<<FPU_REL_UN */
#define T_LT 1u
#define T_EQ 2u
#define T_GT 4u
#define T_UN 8u
const uint8_t fpu_cmp_truth[CMP_COUNT] = {
    [CMP_NONE] = 0,
    [CMP_EQ] = T_EQ,
    [CMP_NE] = T_LT | T_GT,
    [CMP_LT] = T_LT,
    [CMP_LE] = T_LT | T_EQ,
    [CMP_GT] = T_GT,
    [CMP_GE] = T_GT | T_EQ,
    [CMP_LO] = T_LT,
    [CMP_LS] = T_LT | T_EQ,
    [CMP_HI] = T_GT,
    [CMP_HS] = T_GT | T_EQ,
    [CMP_EQU] = T_EQ | T_UN,
    [CMP_NEU] = T_LT | T_GT | T_UN,
    [CMP_LTU] = T_LT | T_UN,
    [CMP_LEU] = T_LT | T_EQ | T_UN,
    [CMP_GTU] = T_GT | T_UN,
    [CMP_GEU] = T_GT | T_EQ | T_UN,
    [CMP_NUM] = T_LT | T_EQ | T_GT,
    [CMP_NAN] = T_UN,
};

double fpu_f16_to_double(uint16_t h)
{
	unsigned e = (h >> 10) & 0x1f, f = h & 0x3ff;
	uint64_t s = (uint64_t)(h >> 15) << 63;
	if (e == 0) {
		double v = (double)f * 0x1p-24; /* exact */
		return (h & 0x8000) ? -v : v;
	}
	if (e == 31)
		return fpu_f64(s | 0x7ff0000000000000ull | ((uint64_t)f << 42));
	return fpu_f64(s | ((uint64_t)(e - 15 + 1023) << 52) | ((uint64_t)f << 42));
}

double fpu_to_double(uint64_t bits, enum fpu_fmt fmt)
{
	switch (fmt) {
	case FPU_F16: return fpu_f16_to_double((uint16_t)bits);
	case FPU_BF16: return fpu_bf16_to_double((uint16_t)bits);
	case FPU_F32: return (double)fpu_f32(bits);
	case FPU_F64:
	default: return fpu_f64(bits);
	}
}

static uint64_t overflow_result(uint64_t sign, int neg, const struct fmt_info *fi, int rnd)
{
	uint64_t inf = (((1ull << fi->ebits) - 1) << fi->mbits);
	uint64_t maxf = inf - 1;
	switch (rnd) {
	case RND_RZ: return sign | maxf;
	case RND_RP: return sign | (neg ? maxf : inf);
	case RND_RM: return sign | (neg ? inf : maxf);
	default: return sign | inf;
	}
}

uint64_t fpu_round(int neg, uint64_t mant, int e2, int sticky, enum fpu_fmt fmt, int rnd)
{
	const struct fmt_info *fi = &fmt_tab[fmt];
	const int mb = fi->mbits;
	const uint64_t sign = (uint64_t)(neg ? 1 : 0) << (mb + fi->ebits);
	if (rnd == RND_RNI)
		rnd = RND_RN;
	else if (rnd == RND_RZI)
		rnd = RND_RZ;
	else if (rnd == RND_RMI)
		rnd = RND_RM;
	else if (rnd == RND_RPI)
		rnd = RND_RP;
	if (mant == 0) {
		/* exact zero, or a value below every representable magnitude */
		if (!sticky)
			return sign;
		if ((rnd == RND_RP && !neg) || (rnd == RND_RM && neg))
			return sign | 1;
		return sign;
	}
	const int emin = 1 - fi->bias, emax = fi->bias;
	const int L = 63 - __builtin_clzll(mant);
	/* Keep exponents in a safe int range whatever the caller passes. */
	if (e2 > 4096)
		return overflow_result(sign, neg, fi, rnd);
	if (e2 < -8192) {
		if ((rnd == RND_RP && !neg) || (rnd == RND_RM && neg))
			return sign | 1;
		return sign;
	}
	const int E = L + e2; /* value in [2^E, 2^(E+1)) */
	if (E > emax)
		return overflow_result(sign, neg, fi, rnd);
	const int lsb = (E < emin ? emin : E) - mb; /* weight of the result's last bit */
	const int sh = lsb - e2;                    /* bits of mant below that */
	uint64_t q;
	int rbit, st = sticky ? 1 : 0;
	if (sh <= 0) {
		q = mant << (-sh); /* at most mb+1 bits: cannot overflow */
		rbit = 0;
	} else if (sh > 64) {
		q = 0;
		rbit = 0;
		st = 1;
	} else if (sh == 64) {
		q = 0;
		rbit = (int)(mant >> 63);
		st |= (mant << 1) != 0;
	} else {
		q = mant >> sh;
		rbit = (int)((mant >> (sh - 1)) & 1);
		st |= (mant & ((1ull << (sh - 1)) - 1)) != 0;
	}
	int inc;
	switch (rnd) {
	case RND_RZ: inc = 0; break;
	case RND_RM: inc = neg && (rbit || st); break;
	case RND_RP: inc = !neg && (rbit || st); break;
	case RND_RNA: inc = rbit; break;
	default: /* RN: ties to even */ inc = rbit && (st || (q & 1)); break;
	}
	q += (uint64_t)inc;
	uint64_t bits;
	if (E < emin)
		bits = q; /* subnormal; q == 2^mb carries into the exponent field */
	else
		bits = ((uint64_t)(E + fi->bias) << mb) + (q - (1ull << mb));
	if ((bits >> mb) >= (1ull << fi->ebits) - 1)
		return overflow_result(sign, neg, fi, rnd);
	return sign | bits;
}

uint64_t fpu_from_double(double v, int esign, enum fpu_fmt fmt, int rnd)
{
	uint64_t b = fpu_b64(v);
	int neg = (int)(b >> 63);
	unsigned ex = (unsigned)(b >> 52) & 0x7ff;
	uint64_t frac = b & 0xfffffffffffffull;
	const struct fmt_info *fi = &fmt_tab[fmt];
	if (ex == 0x7ff) {
		if (frac) {
			switch (fmt) {
			case FPU_F16: return FPU_NAN16;
			case FPU_BF16: return FPU_NANBF16;
			case FPU_F32: return FPU_NAN32;
			default: return FPU_NAN64;
			}
		}
		return ((uint64_t)neg << (fi->mbits + fi->ebits)) | ((((1ull << fi->ebits) - 1)) << fi->mbits);
	}
	uint64_t mant;
	int e2;
	if (ex == 0) {
		if (frac == 0)
			return (uint64_t)neg << (fi->mbits + fi->ebits);
		mant = frac;
		e2 = -1074;
	} else {
		mant = frac | (1ull << 52);
		e2 = (int)ex - 1075;
	}
	int sticky = 0;
	if (esign) {
		mant <<= 2;
		e2 -= 2;
		sticky = 1;
		if ((esign > 0) == (neg != 0)) /* exact magnitude is below |v| */
			mant -= 1;
	}
	return fpu_round(neg, mant, e2, sticky, fmt, rnd);
}

double fpu_rint(double v, int rnd)
{
	if (!(fabs(v) < 0x1p52)) /* NaN, inf, or already integral */
		return v;
	double r;
	switch (rnd) {
	case RND_RZI:
	case RND_RZ: r = trunc(v); break;
	case RND_RMI:
	case RND_RM: r = floor(v); break;
	case RND_RPI:
	case RND_RP: r = ceil(v); break;
	default: {
		double f = floor(v);
		double diff = v - f; /* exact */
		if (diff > 0.5)
			r = f + 1.0;
		else if (diff < 0.5)
			r = f;
		else
			r = (((int64_t)f) & 1) ? f + 1.0 : f;
		break;
	}
	}
	if (r == 0.0)
		r = copysign(0.0, v);
	return r;
}

int fpu_mode_enter(int rnd)
{
	int mode;
	switch (rnd) {
	case RND_RZ: mode = FE_TOWARDZERO; break;
	case RND_RM: mode = FE_DOWNWARD; break;
	case RND_RP: mode = FE_UPWARD; break;
	default: return 0;
	}
	int saved = fegetround();
	fesetround(mode);
	return saved;
}

void fpu_mode_leave(int rnd, int saved)
{
	if (rnd == RND_RZ || rnd == RND_RM || rnd == RND_RP)
		fesetround(saved);
}
