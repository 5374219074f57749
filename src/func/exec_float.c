/*
 * exec_float.c -- lane-parallel floating-point semantics of the SM's FP32,
 * FP64, half-precision and special-function (SFU) datapaths, and the float
 * handlers (op.h; FLOAT_OP at the end of the file) with their load-time
 * checks.
 *
 * IEEE operations (add/sub/mul/fma/mad/div/rcp/sqrt with .rn/.rz/.rm/.rp,
 * div.full) are correctly rounded and bit-exact:
 *   - f32/f64: the host operation in the requested rounding direction
 *     (switched once per warp instruction, then restored, see fpu.h);
 *   - f16/bf16(x2): computed exactly in double (TwoSum error term for
 *     add/fma), then rounded once with fpu_round.
 * .ftz flushes subnormal inputs and results; .sat clamps to [0, 1] (NaN ->
 * +0); .relu clamps negative results to +0.  NaN results follow fpu.h.
 *
 * Approximate SFU operations (rcp/sqrt/rsqrt .approx, sin, cos, ex2, lg2,
 * tanh, div.approx) are computed from the host libm in double precision and
 * rounded to the destination: they are within a few ulp of the hardware's
 * MUFU results (PTX's documented error bounds) but not bit-identical to it.
 * div.approx.f32 is modelled as a * (1/b) with the reciprocal flushed to
 * zero when subnormal (so |b| > 2^126 gives 0, inf/huge b gives NaN/0, as
 * documented in the PTX ISA); rcp.approx.ftz.f64 uses only the high 32 bits
 * of the operand and returns a result whose low 32 bits are zero, like
 * MUFU.RCP64H.
 */
#include <math.h>

#include "func/fpu.h"
#include "func/op.h"

/* ------------------------------------------------------------------ f32 */

static inline float ld32(uint64_t v, bool ftz)
{
	uint32_t u = (uint32_t)v;
	return fpu_f32(ftz ? fpu_ftz32(u) : u);
}

static inline uint64_t post32(float r, bool ftz, bool sat)
{
	uint32_t u = fpu_b32(r);
	if (fpu_isnan32(u))
		return sat ? 0 : FPU_NAN32;
	if (ftz)
		u = fpu_ftz32(u);
	if (sat) {
		if (!(r > 0.0f))
			return 0;
		if (r >= 1.0f)
			return FPU_ONE32;
	}
	return u;
}

/* min/max on f32 bits (inputs already flushed if .ftz). */
static inline uint32_t minmax32(uint32_t a, uint32_t b, bool mx, bool nanp, bool xsign)
{
	bool an = fpu_isnan32(a), bn = fpu_isnan32(b);
	uint32_t sx = (a ^ b) & 0x80000000u, r;
	if (an || bn) {
		if (nanp || (an && bn))
			return FPU_NAN32;
		r = an ? b : a;
		return xsign ? ((r & 0x7fffffffu) | sx) : r;
	}
	if (xsign) {
		a &= 0x7fffffffu;
		b &= 0x7fffffffu;
	}
	float fa = fpu_f32(a), fb = fpu_f32(b);
	if (fa == fb) /* equal values, incl. +0/-0: -0 < +0 */
		r = mx ? (a & b) : (a | b);
	else
		r = ((fa < fb) != mx) ? a : b;
	return xsign ? ((r & 0x7fffffffu) | sx) : r;
}

static void exec_f32(const struct func_exec *x, const struct ptx_insn *in, uint64_t mask, unsigned nsrc)
{
	uint64_t ta[WS_MAX_WARP], tb[WS_MAX_WARP], tc[WS_MAX_WARP], sc[WS_MAX_WARP];
	const uint64_t *a = func_src(x, &in->opd[1], ta);
	const uint64_t *b = nsrc >= 2 ? func_src(x, &in->opd[2], tb) : NULL;
	const uint64_t *c = nsrc >= 3 ? func_src(x, &in->opd[3], tc) : NULL;
	uint64_t *d = alu_dst(x, &in->opd[0], sc);
	const bool ftz = (in->flags & FLAG_FTZ) != 0, sat = (in->flags & FLAG_SAT) != 0;
	const bool approx = (in->flags & FLAG_APPROX) != 0;
	const int rnd = (in->flags & (FLAG_APPROX | FLAG_FULL)) ? RND_RN : (in->rnd ? in->rnd : RND_RN);
	unsigned l;

	switch (in->op) {
	case OP_ADD:
	case OP_SUB:
	case OP_MUL:
	case OP_FMA:
	case OP_MAD:
	case OP_DIV:
	case OP_RCP:
	case OP_SQRT: {
		if ((in->op == OP_DIV && approx)) {
			ALU_LANES(l, mask)
			{
				float r = fpu_f32(fpu_ftz32(fpu_b32(1.0f / ld32(b[l], ftz))));
				d[l] = post32(ld32(a[l], ftz) * r, ftz, sat);
			}
			return;
		}
		if (approx && in->op == OP_RCP) {
			ALU_LANES(l, mask) d[l] = post32(1.0f / ld32(a[l], ftz), ftz, sat);
			return;
		}
		if (approx && in->op == OP_SQRT) {
			ALU_LANES(l, mask) d[l] = post32(sqrtf(ld32(a[l], ftz)), ftz, sat);
			return;
		}
		const int saved = fpu_mode_enter(rnd);
		switch (in->op) {
		case OP_ADD: ALU_LANES(l, mask) d[l] = post32(ld32(a[l], ftz) + ld32(b[l], ftz), ftz, sat); break;
		case OP_SUB: ALU_LANES(l, mask) d[l] = post32(ld32(a[l], ftz) - ld32(b[l], ftz), ftz, sat); break;
		case OP_MUL: ALU_LANES(l, mask) d[l] = post32(ld32(a[l], ftz) * ld32(b[l], ftz), ftz, sat); break;
		case OP_DIV: ALU_LANES(l, mask) d[l] = post32(ld32(a[l], ftz) / ld32(b[l], ftz), ftz, sat); break;
		case OP_RCP: ALU_LANES(l, mask) d[l] = post32(1.0f / ld32(a[l], ftz), ftz, sat); break;
		case OP_SQRT: ALU_LANES(l, mask) d[l] = post32(sqrtf(ld32(a[l], ftz)), ftz, sat); break;
		default: /* fma, mad */
			ALU_LANES(l, mask)
			d[l] = post32(fmaf(ld32(a[l], ftz), ld32(b[l], ftz), ld32(c[l], ftz)), ftz, sat);
			break;
		}
		fpu_mode_leave(rnd, saved);
		return;
	}
	case OP_ABS:
		ALU_LANES(l, mask)
		{
			uint32_t u = (uint32_t)a[l];
			if (ftz)
				u = fpu_ftz32(u);
			d[l] = fpu_isnan32(u) ? FPU_NAN32 : (u & 0x7fffffffu);
		}
		return;
	case OP_NEG:
		ALU_LANES(l, mask)
		{
			uint32_t u = (uint32_t)a[l];
			if (ftz)
				u = fpu_ftz32(u);
			d[l] = fpu_isnan32(u) ? FPU_NAN32 : (u ^ 0x80000000u);
		}
		return;
	case OP_MIN:
	case OP_MAX: {
		const bool mx = in->op == OP_MAX, nanp = (in->flags & FLAG_NAN) != 0;
		const bool xs = (in->flags & FLAG_XORSIGN) != 0;
		ALU_LANES(l, mask)
		{
			uint32_t ua = (uint32_t)a[l], ub = (uint32_t)b[l];
			if (ftz) {
				ua = fpu_ftz32(ua);
				ub = fpu_ftz32(ub);
			}
			d[l] = minmax32(ua, ub, mx, nanp, xs);
		}
		return;
	}
	case OP_RSQRT: ALU_LANES(l, mask) d[l] = post32((float)(1.0 / sqrt((double)ld32(a[l], ftz))), ftz, sat); return;
	case OP_SIN: ALU_LANES(l, mask) d[l] = post32((float)sin((double)ld32(a[l], ftz)), ftz, sat); return;
	case OP_COS: ALU_LANES(l, mask) d[l] = post32((float)cos((double)ld32(a[l], ftz)), ftz, sat); return;
	case OP_EX2: ALU_LANES(l, mask) d[l] = post32((float)exp2((double)ld32(a[l], ftz)), ftz, sat); return;
	case OP_LG2: ALU_LANES(l, mask) d[l] = post32((float)log2((double)ld32(a[l], ftz)), ftz, sat); return;
	case OP_TANH: ALU_LANES(l, mask) d[l] = post32((float)tanh((double)ld32(a[l], ftz)), ftz, sat); return;
	default: return;
	}
}

/* ------------------------------------------------------------------ f64 */

static inline double ld64(uint64_t v, bool ftz)
{
	return fpu_f64(ftz ? fpu_ftz64(v) : v);
}

static inline uint64_t nan64(uint64_t a, uint64_t b, uint64_t c, unsigned n)
{
	const uint64_t q = 0x0008000000000000ull;
	if (fpu_isnan64(a))
		return a | q;
	if (n > 1 && fpu_isnan64(b))
		return b | q;
	if (n > 2 && fpu_isnan64(c))
		return c | q;
	return FPU_NAN64;
}

static inline uint64_t post64(double r, uint64_t a, uint64_t b, uint64_t c, unsigned n, bool ftz, bool sat)
{
	uint64_t u = fpu_b64(r);
	if (fpu_isnan64(u))
		return sat ? 0 : nan64(a, b, c, n);
	if (ftz)
		u = fpu_ftz64(u);
	if (sat) {
		if (!(r > 0.0))
			return 0;
		if (r >= 1.0)
			return 0x3ff0000000000000ull;
	}
	return u;
}

static void exec_f64(const struct func_exec *x, const struct ptx_insn *in, uint64_t mask, unsigned nsrc)
{
	uint64_t ta[WS_MAX_WARP], tb[WS_MAX_WARP], tc[WS_MAX_WARP], sc[WS_MAX_WARP];
	const uint64_t *a = func_src(x, &in->opd[1], ta);
	const uint64_t *b = nsrc >= 2 ? func_src(x, &in->opd[2], tb) : NULL;
	const uint64_t *c = nsrc >= 3 ? func_src(x, &in->opd[3], tc) : NULL;
	uint64_t *d = alu_dst(x, &in->opd[0], sc);
	const bool ftz = (in->flags & FLAG_FTZ) != 0, sat = (in->flags & FLAG_SAT) != 0;
	const bool approx = (in->flags & FLAG_APPROX) != 0;
	const int rnd = approx ? RND_RN : (in->rnd ? in->rnd : RND_RN);
	unsigned l;

	switch (in->op) {
	case OP_RCP:
		if (approx) { /* rcp.approx.ftz.f64: high word only, low result word 0 */
			ALU_LANES(l, mask)
			{
				uint64_t u = fpu_ftz64(a[l]);
				if (fpu_isnan64(u)) {
					d[l] = u | 0x0008000000000000ull;
					continue;
				}
				uint64_t r = fpu_b64(1.0 / fpu_f64(u & 0xffffffff00000000ull));
				d[l] = fpu_ftz64(r & 0xffffffff00000000ull);
			}
			return;
		}
		/* fall through */
	case OP_ADD:
	case OP_SUB:
	case OP_MUL:
	case OP_FMA:
	case OP_MAD:
	case OP_DIV:
	case OP_SQRT: {
		const int saved = fpu_mode_enter(rnd);
		switch (in->op) {
		case OP_ADD:
			ALU_LANES(l, mask) d[l] = post64(ld64(a[l], ftz) + ld64(b[l], ftz), a[l], b[l], 0, 2, ftz, sat);
			break;
		case OP_SUB:
			ALU_LANES(l, mask) d[l] = post64(ld64(a[l], ftz) - ld64(b[l], ftz), a[l], b[l], 0, 2, ftz, sat);
			break;
		case OP_MUL:
			ALU_LANES(l, mask) d[l] = post64(ld64(a[l], ftz) * ld64(b[l], ftz), a[l], b[l], 0, 2, ftz, sat);
			break;
		case OP_DIV:
			ALU_LANES(l, mask) d[l] = post64(ld64(a[l], ftz) / ld64(b[l], ftz), a[l], b[l], 0, 2, ftz, sat);
			break;
		case OP_RCP: ALU_LANES(l, mask) d[l] = post64(1.0 / ld64(a[l], ftz), a[l], 0, 0, 1, ftz, sat); break;
		case OP_SQRT: ALU_LANES(l, mask) d[l] = post64(sqrt(ld64(a[l], ftz)), a[l], 0, 0, 1, ftz, sat); break;
		default: /* fma, mad */
			ALU_LANES(l, mask)
			d[l] = post64(fma(ld64(a[l], ftz), ld64(b[l], ftz), ld64(c[l], ftz)), a[l], b[l], c[l], 3, ftz,
			              sat);
			break;
		}
		fpu_mode_leave(rnd, saved);
		return;
	}
	case OP_RSQRT: ALU_LANES(l, mask) d[l] = post64(1.0 / sqrt(ld64(a[l], ftz)), a[l], 0, 0, 1, ftz, sat); return;
	case OP_ABS: /* NaN passes through unchanged (CUDA programming guide) */
		ALU_LANES(l, mask)
		{
			uint64_t u = ftz ? fpu_ftz64(a[l]) : a[l];
			d[l] = fpu_isnan64(u) ? u : (u & 0x7fffffffffffffffull);
		}
		return;
	case OP_NEG:
		ALU_LANES(l, mask)
		{
			uint64_t u = ftz ? fpu_ftz64(a[l]) : a[l];
			d[l] = fpu_isnan64(u) ? u : (u ^ 0x8000000000000000ull);
		}
		return;
	case OP_MIN:
	case OP_MAX: {
		const bool mx = in->op == OP_MAX;
		ALU_LANES(l, mask)
		{
			uint64_t ua = ftz ? fpu_ftz64(a[l]) : a[l], ub = ftz ? fpu_ftz64(b[l]) : b[l];
			bool an = fpu_isnan64(ua), bn = fpu_isnan64(ub);
			uint64_t r;
			if (an && bn)
				r = ua | 0x0008000000000000ull;
			else if (an)
				r = ub;
			else if (bn)
				r = ua;
			else {
				double fa = fpu_f64(ua), fb = fpu_f64(ub);
				if (fa == fb)
					r = mx ? (ua & ub) : (ua | ub);
				else
					r = ((fa < fb) != mx) ? ua : ub;
			}
			d[l] = r;
		}
		return;
	}
	default: return;
	}
}

/* -------------------------------------------------- f16 / bf16 (and x2) */

struct hctx {
	enum fpu_fmt fmt;
	unsigned op;
	int rnd;
	bool ftz, sat, relu, nanp, xsign;
};

static inline bool h_isnan(const struct hctx *h, uint16_t v)
{
	return h->fmt == FPU_F16 ? fpu_isnan16(v) : fpu_isnanbf16(v);
}
static inline uint16_t h_flush(const struct hctx *h, uint16_t v)
{
	return h->fmt == FPU_F16 ? fpu_ftz16(v) : fpu_ftzbf16(v);
}
static inline double h_dbl(const struct hctx *h, uint16_t v)
{
	return h->fmt == FPU_F16 ? fpu_f16_to_double(v) : fpu_bf16_to_double(v);
}

static uint16_t h_post(const struct hctx *h, uint16_t r)
{
	const uint16_t one = h->fmt == FPU_F16 ? FPU_ONE16 : FPU_ONEBF16;
	if (h_isnan(h, r))
		return h->sat ? 0 : 0x7fff;
	if (h->ftz)
		r = h_flush(h, r);
	if (h->sat) {
		if ((r & 0x8000) || !(r & 0x7fff))
			return 0;
		if ((r & 0x7fff) >= one)
			return one;
	}
	if (h->relu && (r & 0x8000))
		return 0;
	return r;
}

static uint16_t h_op(const struct hctx *h, uint16_t a, uint16_t b, uint16_t c)
{
	if (h->ftz) {
		a = h_flush(h, a);
		b = h_flush(h, b);
		c = h_flush(h, c);
	}
	switch (h->op) {
	case OP_ABS: return h_isnan(h, a) ? 0x7fff : (uint16_t)(a & 0x7fff);
	case OP_NEG: return h_isnan(h, a) ? 0x7fff : (uint16_t)(a ^ 0x8000);
	case OP_MIN:
	case OP_MAX: {
		bool an = h_isnan(h, a), bn = h_isnan(h, b);
		uint16_t sx = (uint16_t)((a ^ b) & 0x8000), r;
		if (an || bn) {
			if (h->nanp || (an && bn))
				return 0x7fff;
			r = an ? b : a;
		} else {
			uint16_t ma = h->xsign ? (uint16_t)(a & 0x7fff) : a, mb = h->xsign ? (uint16_t)(b & 0x7fff) : b;
			double fa = h_dbl(h, ma), fb = h_dbl(h, mb);
			bool mx = h->op == OP_MAX;
			if (fa == fb)
				r = mx ? (uint16_t)(ma & mb) : (uint16_t)(ma | mb);
			else
				r = ((fa < fb) != mx) ? ma : mb;
		}
		return h->xsign ? (uint16_t)((r & 0x7fff) | sx) : r;
	}
	case OP_EX2: return h_post(h, (uint16_t)fpu_from_double(exp2(h_dbl(h, a)), 0, h->fmt, RND_RN));
	case OP_TANH: return h_post(h, (uint16_t)fpu_from_double(tanh(h_dbl(h, a)), 0, h->fmt, RND_RN));
	default: { /* add, sub, mul, fma */
		double da = h_dbl(h, a), db = h_dbl(h, b), s;
		int es = 0;
		if (h->op == OP_SUB)
			db = -db;
		if (h->op == OP_MUL) {
			s = da * db; /* exact: at most 2 x 11 significant bits */
		} else if (h->op == OP_FMA || h->op == OP_MAD) {
			double p = da * db; /* exact */
			double dc = h_dbl(h, c);
			s = p + dc;
			es = fpu_twosum_sign(p, dc, s);
		} else {
			s = da + db;
			es = fpu_twosum_sign(da, db, s);
		}
		return h_post(h, (uint16_t)fpu_from_double(s, es, h->fmt, h->rnd));
	}
	}
}

static void exec_half(const struct func_exec *x, const struct ptx_insn *in, uint64_t mask, unsigned nsrc)
{
	uint64_t ta[WS_MAX_WARP], tb[WS_MAX_WARP], tc[WS_MAX_WARP], sc[WS_MAX_WARP];
	const uint64_t *a = func_src(x, &in->opd[1], ta);
	const uint64_t *b = nsrc >= 2 ? func_src(x, &in->opd[2], tb) : NULL;
	const uint64_t *c = nsrc >= 3 ? func_src(x, &in->opd[3], tc) : NULL;
	uint64_t *d = alu_dst(x, &in->opd[0], sc);
	const unsigned t = in->type;
	struct hctx h = {
	    .fmt = (t == PTX_T_F16 || t == PTX_T_F16X2) ? FPU_F16 : FPU_BF16,
	    .op = in->op,
	    .rnd = RND_RN,
	    .ftz = (in->flags & FLAG_FTZ) != 0,
	    .sat = (in->flags & FLAG_SAT) != 0,
	    .relu = (in->flags & FLAG_RELU) != 0,
	    .nanp = (in->flags & FLAG_NAN) != 0,
	    .xsign = (in->flags & FLAG_XORSIGN) != 0,
	};
	const bool x2 = t == PTX_T_F16X2 || t == PTX_T_BF16X2;
	unsigned l;
	ALU_LANES(l, mask)
	{
		uint64_t av = a[l], bv = b ? b[l] : 0, cv = c ? c[l] : 0;
		uint64_t r = h_op(&h, (uint16_t)av, (uint16_t)bv, (uint16_t)cv);
		if (x2)
			r |= (uint64_t)h_op(&h, (uint16_t)(av >> 16), (uint16_t)(bv >> 16), (uint16_t)(cv >> 16)) << 16;
		d[l] = r;
	}
}

/* ------------------------------------------------- compare, testp, misc */

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

static inline double cmp_val(uint64_t v, enum fpu_fmt fmt, bool ftz)
{
	switch (fmt) {
	case FPU_F16: return fpu_f16_to_double(ftz ? fpu_ftz16((uint16_t)v) : (uint16_t)v);
	case FPU_BF16: return fpu_bf16_to_double(ftz ? fpu_ftzbf16((uint16_t)v) : (uint16_t)v);
	case FPU_F32: return (double)fpu_f32(ftz ? fpu_ftz32((uint32_t)v) : (uint32_t)v);
	default: return fpu_f64(ftz ? fpu_ftz64(v) : v);
	}
}

static void exec_fcmp(const struct func_exec *x, const struct ptx_insn *in, uint64_t mask)
{
	uint64_t ta[WS_MAX_WARP], tb[WS_MAX_WARP];
	uint8_t t0[WS_MAX_WARP], t1[WS_MAX_WARP];
	const uint64_t *a = func_src(x, &in->opd[1], ta);
	const uint64_t *b = func_src(x, &in->opd[2], tb);
	const unsigned ct = in->op == OP_SET ? in->type2 : in->type;
	const enum fpu_fmt fmt = fmt_of(ct);
	const bool x2 = ct == PTX_T_F16X2 || ct == PTX_T_BF16X2;
	const bool ftz = (in->flags & FLAG_FTZ) != 0;
	const unsigned truth = fpu_cmp_truth[in->cmp < CMP_COUNT ? in->cmp : CMP_NONE];
	unsigned l;
	ALU_LANES(l, mask)
	{
		t0[l] = (uint8_t)((truth >> fpu_rel_double(cmp_val(a[l], fmt, ftz), cmp_val(b[l], fmt, ftz))) & 1);
		if (x2)
			t1[l] = (uint8_t)((truth >> fpu_rel_double(cmp_val(a[l] >> 16, fmt, ftz),
			                                           cmp_val(b[l] >> 16, fmt, ftz))) &
			                  1);
	}
	if (in->op == OP_SETP) {
		alu_setp_write(x, in, mask, t0, x2 ? t1 : NULL);
		return;
	}
	uint64_t sc[WS_MAX_WARP];
	uint64_t *d = alu_dst(x, &in->opd[0], sc);
	alu_set_combine(x, in, mask, t0);
	if (!x2) {
		const uint64_t tv = alu_set_true(in->type);
		ALU_LANES(l, mask) d[l] = t0[l] ? tv : 0;
		return;
	}
	alu_set_combine(x, in, mask, t1);
	const uint64_t hv = in->type == PTX_T_F16X2 ? FPU_ONE16 : in->type == PTX_T_BF16X2 ? FPU_ONEBF16 : 0xffff;
	ALU_LANES(l, mask) d[l] = (t0[l] ? hv : 0) | ((t1[l] ? hv : 0) << 16);
}

static void exec_testp(const struct func_exec *x, const struct ptx_insn *in, uint64_t mask)
{
	uint64_t ta[WS_MAX_WARP], sc[WS_MAX_WARP];
	const uint64_t *a = func_src(x, &in->opd[1], ta);
	uint64_t *d = alu_dst(x, &in->opd[0], sc);
	const bool f64 = in->type == PTX_T_F64;
	const uint64_t em = f64 ? 0x7ff0000000000000ull : 0x7f800000u;
	const uint64_t fm = f64 ? 0x000fffffffffffffull : 0x007fffffu;
	const unsigned mode = in->mode;
	unsigned l;
	ALU_LANES(l, mask)
	{
		uint64_t v = f64 ? a[l] : (a[l] & 0xffffffffu);
		uint64_t e = v & em, f = v & fm;
		bool r;
		switch (mode) {
		case MODE_FINITE: r = e != em; break;
		case MODE_INFINITE: r = e == em && !f; break;
		case MODE_NUMBER: r = !(e == em && f); break;
		case MODE_NOTANUMBER: r = e == em && f; break;
		case MODE_NORMAL: r = e != em && e != 0; break;
		default: /* MODE_SUBNORMAL */ r = e == 0 && f; break;
		}
		d[l] = r;
	}
}

static void exec_copysign(const struct func_exec *x, const struct ptx_insn *in, uint64_t mask)
{
	uint64_t ta[WS_MAX_WARP], tb[WS_MAX_WARP], sc[WS_MAX_WARP];
	const uint64_t *a = func_src(x, &in->opd[1], ta);
	const uint64_t *b = func_src(x, &in->opd[2], tb);
	uint64_t *d = alu_dst(x, &in->opd[0], sc);
	const uint64_t s = in->type == PTX_T_F64 ? 0x8000000000000000ull : 0x80000000u;
	const uint64_t wm = in->type == PTX_T_F64 ? ~0ull : 0xffffffffu;
	unsigned l;
	/* copysign d, a, b: the sign of a on the magnitude of b */
	ALU_LANES(l, mask) d[l] = ((b[l] & ~s) | (a[l] & s)) & wm;
}

static unsigned n_sources(unsigned op)
{
	switch (op) {
	case OP_FMA:
	case OP_MAD: return 3;
	case OP_ADD:
	case OP_SUB:
	case OP_MUL:
	case OP_DIV:
	case OP_MIN:
	case OP_MAX: return 2;
	default: return 1;
	}
}

/* add, sub, mul, mad, fma, div, abs, neg, min, max and the special
 * functions, by type */
static void exec_farith(const struct func_exec *x, const struct ptx_insn *in, uint64_t mask)
{
	const unsigned n = n_sources(in->op);
	switch (in->type) {
	case PTX_T_F32: exec_f32(x, in, mask, n); break;
	case PTX_T_F64: exec_f64(x, in, mask, n); break;
	case PTX_T_F16:
	case PTX_T_BF16:
	case PTX_T_F16X2:
	case PTX_T_BF16X2: exec_half(x, in, mask, n); break;
	default: break;
	}
}

/* ---------------------------------------------------------------- check */

#define TB(t) (1u << PTX_T_##t)
#define T_HALF (TB(F16) | TB(F16X2) | TB(BF16) | TB(BF16X2))
#define T_F16ONLY (TB(F16) | TB(F16X2))

static bool in_set(unsigned t, uint32_t set)
{
	return t < PTX_T_COUNT && ((set >> t) & 1u);
}

static bool rnd_ieee(unsigned r)
{
	return r == RND_RN || r == RND_RZ || r == RND_RM || r == RND_RP;
}

static bool rej(const struct ptx_insn *in, char *why, size_t whysz, const char *msg)
{
	return alu_reject(in, why, whysz, msg);
}

/* The start of every float check: what it looks at, and the rules every
 * float form shares (float_common). */
#define FLOAT_CHECK_START                                                                                              \
	const unsigned op __attribute__((unused)) = in->op, t __attribute__((unused)) = in->type,                     \
		       r __attribute__((unused)) = in->rnd;                                                           \
	const uint32_t fl __attribute__((unused)) = in->flags;                                                       \
	const bool f32 __attribute__((unused)) = t == PTX_T_F32, f64 __attribute__((unused)) = t == PTX_T_F64,       \
		   half __attribute__((unused)) = in_set(t, T_HALF), f16 __attribute__((unused)) = in_set(t, T_F16ONLY); \
	if (!float_common(in, why, whysz))                                                                             \
		return false

/* The rules every float form shares: no boolean operator but on setp/set,
 * no mode but on testp. */
static bool float_common(const struct ptx_insn *in, char *why, size_t whysz)
{
	if (in->op != OP_SETP && in->op != OP_SET && in->boolop != BOOL_NONE)
		return rej(in, why, whysz, "unexpected boolean operator");
	if (in->op != OP_TESTP && in->mode != MODE_NONE)
		return rej(in, why, whysz, "unexpected mode");
	return true;
}

/* add, sub, mul */
static bool check_fadd(const struct ptx_insn *in, char *why, size_t whysz)
{
	FLOAT_CHECK_START;
	if (f32) {
		if (r != RND_NONE && !rnd_ieee(r))
			return rej(in, why, whysz, "unsupported rounding modifier");
		return alu_check_flags(in, FLAG_FTZ | FLAG_SAT, why, whysz);
	}
	if (f64) {
		if (r != RND_NONE && !rnd_ieee(r))
			return rej(in, why, whysz, "unsupported rounding modifier");
		return alu_check_flags(in, 0, why, whysz);
	}
	if (half) {
		if (r != RND_NONE && r != RND_RN)
			return rej(in, why, whysz, "half-precision arithmetic supports only .rn");
		return alu_check_flags(in, f16 ? FLAG_FTZ | FLAG_SAT : 0, why, whysz);
	}
	return rej(in, why, whysz, "unsupported type");
}

/* fma, mad */
static bool check_ffma(const struct ptx_insn *in, char *why, size_t whysz)
{
	FLOAT_CHECK_START;
	if (f32 || f64) {
		if (r != RND_NONE && !rnd_ieee(r))
			return rej(in, why, whysz, "unsupported rounding modifier");
		return alu_check_flags(in, f32 ? FLAG_FTZ | FLAG_SAT : 0, why, whysz);
	}
	if (half && op == OP_FMA) {
		if (r != RND_NONE && r != RND_RN)
			return rej(in, why, whysz, "half-precision fma supports only .rn");
		if (!alu_check_flags(in, f16 ? FLAG_FTZ | FLAG_SAT | FLAG_RELU : FLAG_RELU, why, whysz))
			return false;
		if ((fl & FLAG_SAT) && (fl & FLAG_RELU))
			return rej(in, why, whysz, ".sat and .relu are exclusive");
		return true;
	}
	return rej(in, why, whysz, "unsupported type");
}

/* div */
static bool check_fdiv(const struct ptx_insn *in, char *why, size_t whysz)
{
	FLOAT_CHECK_START;
	if (f32) {
		if (fl & (FLAG_APPROX | FLAG_FULL)) {
			if (r != RND_NONE || ((fl & FLAG_APPROX) && (fl & FLAG_FULL)))
				return rej(in, why, whysz, "bad combination of .approx/.full/rounding");
			return alu_check_flags(in, FLAG_FTZ | FLAG_APPROX | FLAG_FULL, why, whysz);
		}
		if (r != RND_NONE && !rnd_ieee(r))
			return rej(in, why, whysz, "unsupported rounding modifier");
		return alu_check_flags(in, FLAG_FTZ, why, whysz);
	}
	if (f64) {
		if (r != RND_NONE && !rnd_ieee(r))
			return rej(in, why, whysz, "unsupported rounding modifier");
		return alu_check_flags(in, 0, why, whysz);
	}
	return rej(in, why, whysz, "unsupported type");
}

/* abs, neg */
static bool check_fabsneg(const struct ptx_insn *in, char *why, size_t whysz)
{
	FLOAT_CHECK_START;
	if (r != RND_NONE)
		return rej(in, why, whysz, "unexpected rounding modifier");
	if (f32 || f16)
		return alu_check_flags(in, FLAG_FTZ, why, whysz);
	if (f64 || half)
		return alu_check_flags(in, 0, why, whysz);
	return rej(in, why, whysz, "unsupported type");
}

/* min, max */
static bool check_fminmax(const struct ptx_insn *in, char *why, size_t whysz)
{
	FLOAT_CHECK_START;
	if (r != RND_NONE)
		return rej(in, why, whysz, "unexpected rounding modifier");
	if (f32 || half) {
		if (!alu_check_flags(in, (f32 || f16 ? FLAG_FTZ : 0) | FLAG_NAN | FLAG_XORSIGN | FLAG_ABS, why,
		                     whysz))
			return false;
		if (!(fl & FLAG_XORSIGN) != !(fl & FLAG_ABS))
			return rej(in, why, whysz, ".xorsign and .abs must be used together");
		return true;
	}
	if (f64)
		return alu_check_flags(in, 0, why, whysz);
	return rej(in, why, whysz, "unsupported type");
}

/* rcp, sqrt */
static bool check_frcp(const struct ptx_insn *in, char *why, size_t whysz)
{
	FLOAT_CHECK_START;
	if (f32 || f64) {
		if (fl & FLAG_APPROX) {
			if (r != RND_NONE)
				return rej(in, why, whysz, ".approx with a rounding modifier");
			if (f64 && (op == OP_SQRT || !(fl & FLAG_FTZ)))
				return rej(in, why, whysz, "only rcp.approx.ftz.f64 exists for .f64");
			return alu_check_flags(in, FLAG_FTZ | FLAG_APPROX, why, whysz);
		}
		if (!rnd_ieee(r))
			return rej(in, why, whysz, "needs .approx or a rounding modifier");
		return alu_check_flags(in, f32 ? FLAG_FTZ : 0, why, whysz);
	}
	return rej(in, why, whysz, "unsupported type");
}

/* rsqrt */
static bool check_frsqrt(const struct ptx_insn *in, char *why, size_t whysz)
{
	FLOAT_CHECK_START;
	if (!(f32 || f64))
		return rej(in, why, whysz, "unsupported type");
	if (!(fl & FLAG_APPROX) || r != RND_NONE)
		return rej(in, why, whysz, "rsqrt needs .approx");
	return alu_check_flags(in, FLAG_FTZ | FLAG_APPROX, why, whysz);
}

/* sin, cos, lg2, ex2, tanh */
static bool check_fsfu(const struct ptx_insn *in, char *why, size_t whysz)
{
	FLOAT_CHECK_START;
	bool ok = f32 || (half && (op == OP_EX2 || op == OP_TANH));
	if (!ok)
		return rej(in, why, whysz, "unsupported type");
	if (!(fl & FLAG_APPROX) || r != RND_NONE)
		return rej(in, why, whysz, "needs .approx");
	return alu_check_flags(in, (op == OP_TANH && !f32) ? FLAG_APPROX : FLAG_FTZ | FLAG_APPROX, why, whysz);
}

/* testp */
static bool check_testp(const struct ptx_insn *in, char *why, size_t whysz)
{
	FLOAT_CHECK_START;
	if (!(f32 || f64))
		return rej(in, why, whysz, "unsupported type");
	if (in->mode < MODE_FINITE || in->mode > MODE_SUBNORMAL)
		return rej(in, why, whysz, "unsupported testp mode");
	if (r != RND_NONE)
		return rej(in, why, whysz, "unexpected rounding modifier");
	return alu_check_flags(in, 0, why, whysz);
}

/* copysign */
static bool check_copysign(const struct ptx_insn *in, char *why, size_t whysz)
{
	FLOAT_CHECK_START;
	if (!(f32 || f64))
		return rej(in, why, whysz, "unsupported type");
	if (r != RND_NONE)
		return rej(in, why, whysz, "unexpected rounding modifier");
	return alu_check_flags(in, 0, why, whysz);
}

/* setp, set */
static bool check_fcmp(const struct ptx_insn *in, char *why, size_t whysz)
{
	FLOAT_CHECK_START;
	const unsigned ct = op == OP_SET ? in->type2 : t;
	const bool cx2 = ct == PTX_T_F16X2 || ct == PTX_T_BF16X2;
	if (!in_set(ct, TB(F32) | TB(F64) | T_HALF))
		return rej(in, why, whysz, "unsupported comparison type");
	if (in->cmp < CMP_EQ || in->cmp >= CMP_COUNT || (in->cmp >= CMP_LO && in->cmp <= CMP_HS))
		return rej(in, why, whysz, "comparison not valid for floating point");
	if (in->boolop > BOOL_XOR)
		return rej(in, why, whysz, "bad boolean operator");
	if (r != RND_NONE)
		return rej(in, why, whysz, "unexpected rounding modifier");
	if (op == OP_SET) {
		uint32_t dt = cx2 ? (TB(U32) | TB(S32) | (ct == PTX_T_F16X2 ? TB(F16X2) : TB(BF16X2)))
		                  : (TB(U32) | TB(S32) | TB(F32) | TB(U16) | TB(S16) | TB(F16) | TB(BF16));
		if (!in_set(t, dt))
			return rej(in, why, whysz, "unsupported set destination type");
	}
	return alu_check_flags(in, FLAG_FTZ, why, whysz);
}

/* The float handlers (op.h).  fadd, ffma, fdiv, fabsneg, fminmax and fcmp are
 * the float forms (fp) of the integer handlers addsub, mul, mad, div,
 * absneg, minmax and cmp; the others are opcodes' own handlers. */
#define FLOAT_OP(name, exec)                                                                                           \
	const struct func_op func_op_##name = {                                                                        \
		.check = func_alu_check, .step = func_alu_step, .lanes = exec, .lanes_check = check_##name}

FLOAT_OP(fadd, exec_farith);
FLOAT_OP(ffma, exec_farith);
FLOAT_OP(fdiv, exec_farith);
FLOAT_OP(fabsneg, exec_farith);
FLOAT_OP(fminmax, exec_farith);
FLOAT_OP(frcp, exec_farith);
FLOAT_OP(frsqrt, exec_farith);
FLOAT_OP(fsfu, exec_farith);
FLOAT_OP(testp, exec_testp);
FLOAT_OP(copysign, exec_copysign);
FLOAT_OP(fcmp, exec_fcmp);
