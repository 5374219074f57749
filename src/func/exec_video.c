/*
 * exec_video.c -- lane-parallel semantics of bmsk and the PTX video
 * instructions: the SM's byte/half-word SIMD datapath and its scalar
 * "video" forms with a secondary operation, which CUB's radix sort and
 * CUDA's __vabsdiff*, __vadd4, ... intrinsics use.
 *
 * Semantics (PTX ISA, "Video Instructions"; scalar forms take the source
 * selectors .b0-.b3/.h0/.h1 on a and b, not destination selectors/masks):
 *   scalar  vadd/vsub/vabsdiff/vmin/vmax/vshl/vshr.dtype.atype.btype{.sat}
 *           {.add|.min|.max} d, a{.sel}, b{.sel}{, c}: ta, tb = a, b (or the
 *           selected byte/half) sign- or zero-extended by atype/btype; tmp = ta op tb (vshl/vshr: the shift
 *           count is tb & 31 with .wrap, min(tb, 32) with .clamp, the
 *           default); .sat clamps tmp to the dtype range; the secondary op
 *           combines tmp with c (add wraps modulo 2^32); d = low 32 bits.
 *   SIMD    v{add,sub,avrg,absdiff,min,max}{2,4}.dtype.atype.btype{.sat}
 *           d, a, b, c: per 16-bit half (2) or byte (4), elements extended
 *           by atype/btype; vavrg is (ta + tb + 1) >> 1; .sat clamps each
 *           element to the dtype element range, else it wraps.  Without
 *           .add, d holds the elements (the default mask selects them all,
 *           c is not used); with .add, d = c + the sum of the elements.
 *   bmsk.{clamp,wrap}.b32 d, a, b: b bits set from bit position a:
 *           .wrap uses a & 31 and b & 31; .clamp (default) min(a, 32),
 *           min(b, 32); bits at 32 and beyond are dropped.
 */
#include "func/fpu.h"
#include "func/op.h"

static inline int64_t ext(uint64_t v, unsigned bits, bool sgn)
{
	uint64_t m = bits >= 64 ? ~0ull : (1ull << bits) - 1;
	v &= m;
	if (sgn && bits < 64 && (v >> (bits - 1)) & 1)
		v |= ~m;
	return (int64_t)v;
}

/* A source operand's selected byte (sel 1..4 = .b0-.b3) or half (5, 6 =
 * .h0, .h1), or the whole word (0), sign- or zero-extended. */
static inline int64_t sel_ext(uint64_t v, unsigned sel, bool sgn)
{
	if (sel >= 1 && sel <= 4)
		return ext(v >> (8 * (sel - 1)), 8, sgn);
	if (sel == 5 || sel == 6)
		return ext(v >> (16 * (sel - 5)), 16, sgn);
	return ext(v, 32, sgn);
}

static inline int64_t sat_to(int64_t v, unsigned bits, bool sgn)
{
	int64_t lo = sgn ? -(int64_t)(1ull << (bits - 1)) : 0;
	int64_t hi = sgn ? (int64_t)((1ull << (bits - 1)) - 1) : (int64_t)((1ull << bits) - 1);
	return v < lo ? lo : v > hi ? hi : v;
}

static int64_t vop(enum ptx_opcode op, int64_t a, int64_t b)
{
	switch (op) {
	case OP_VADD: case OP_VADD2: case OP_VADD4: return a + b;
	case OP_VSUB: case OP_VSUB2: case OP_VSUB4: return a - b;
	case OP_VABSDIFF: case OP_VABSDIFF2: case OP_VABSDIFF4: return a > b ? a - b : b - a;
	case OP_VMIN: case OP_VMIN2: case OP_VMIN4: return a < b ? a : b;
	case OP_VMAX: case OP_VMAX2: case OP_VMAX4: return a > b ? a : b;
	case OP_VAVRG2: case OP_VAVRG4: return (a + b + 1) >> 1;
	default: return 0;
	}
}

void func_exec_video(const struct func_exec *x, const struct ptx_insn *in, uint64_t mask)
{
	uint64_t ta[WS_MAX_WARP], tb[WS_MAX_WARP], tc[WS_MAX_WARP], sc[WS_MAX_WARP];
	const enum ptx_opcode op = (enum ptx_opcode)in->op;
	const uint64_t *a = func_src(x, &in->opd[1], ta);
	const uint64_t *b = func_src(x, &in->opd[2], tb);
	const uint64_t *c = in->nopd > 3 ? func_src(x, &in->opd[3], tc) : NULL;
	uint64_t *d = alu_dst(x, &in->opd[0], sc);
	if (x->ws < 64)
		mask &= (1ull << x->ws) - 1;
	unsigned l;
	if (op == OP_BMSK) {
		const bool wrap = (in->flags & FLAG_WRAP) != 0;
		ALU_LANES(l, mask)
		{
			uint64_t pos = a[l] & 0xffffffffu, len = b[l] & 0xffffffffu;
			if (wrap) {
				pos &= 31;
				len &= 31;
			} else {
				pos = pos > 32 ? 32 : pos;
				len = len > 32 ? 32 : len;
			}
			uint64_t m = len >= 64 ? ~0ull : (1ull << len) - 1;
			d[l] = (m << pos) & 0xffffffffu;
		}
		return;
	}
	const bool ds = in->type == PTX_T_S32, as = in->type2 == PTX_T_S32, bs = in->type3 == PTX_T_S32;
	const bool sat = (in->flags & FLAG_SAT) != 0;
	if (op >= OP_VADD && op <= OP_VSHR) { /* scalar */
		const unsigned asel = in->opd[1].kind == OPD_REG ? in->opd[1].comp : 0;
		const unsigned bsel = in->opd[2].kind == OPD_REG ? in->opd[2].comp : 0;
		ALU_LANES(l, mask)
		{
			int64_t va = sel_ext(a[l], asel, as), vb = sel_ext(b[l], bsel, bs), t;
			if (op == OP_VSHL || op == OP_VSHR) {
				uint64_t n = (uint64_t)vb & 0xffffffffu;
				n = (in->flags & FLAG_WRAP) ? n & 31 : (n > 32 ? 32 : n);
				t = op == OP_VSHL ? (int64_t)((uint64_t)va << n) : va >> n; /* exact: |va| < 2^32, n <= 32 */
			} else {
				t = vop(op, va, vb);
			}
			if (sat)
				t = sat_to(t, 32, ds);
			if (c) {
				int64_t vc = ext(c[l], 32, ds);
				switch (in->atomop) {
				case AOP_ADD: t = t + vc; break;
				case AOP_MIN: t = t < vc ? t : vc; break;
				case AOP_MAX: t = t > vc ? t : vc; break;
				default: break;
				}
			}
			d[l] = (uint64_t)t & 0xffffffffu;
		}
		return;
	}
	/* SIMD: 2 halves or 4 bytes */
	const bool four = op >= OP_VADD4;
	const unsigned n = four ? 4 : 2, w = four ? 8 : 16;
	const uint64_t em = (1ull << w) - 1;
	ALU_LANES(l, mask)
	{
		uint64_t packed = 0;
		int64_t sum = 0;
		for (unsigned k = 0; k < n; k++) {
			int64_t va = ext(a[l] >> (k * w), w, as), vb = ext(b[l] >> (k * w), w, bs);
			int64_t t = vop(op, va, vb);
			if (sat)
				t = sat_to(t, w, ds);
			sum += t;
			packed |= ((uint64_t)t & em) << (k * w);
		}
		d[l] = in->atomop == AOP_ADD ? ((uint64_t)sum + (c ? c[l] : 0)) & 0xffffffffu : packed;
	}
}

bool func_video_check(const struct ptx_insn *in, char *why, size_t whysz)
{
	for (unsigned k = 0; k < in->nopd; k++) {
		uint8_t kd = in->opd[k].kind;
		if (k == 0 ? kd != OPD_REG && kd != OPD_SINK : kd != OPD_REG && kd != OPD_IMM && kd != OPD_SREG)
			return alu_reject(in, why, whysz, "operands must be registers or immediates");
	}
	if (in->op == OP_BMSK)
		return true;
	if (in->atomop != AOP_NONE && in->atomop != AOP_ADD && in->atomop != AOP_MIN && in->atomop != AOP_MAX)
		return alu_reject(in, why, whysz, "secondary operation must be .add, .min or .max");
	bool simd = in->op >= OP_VADD2;
	if (simd && in->atomop != AOP_NONE && in->atomop != AOP_ADD)
		return alu_reject(in, why, whysz, "SIMD video instructions take .add as secondary operation only");
	if (!simd && in->atomop != AOP_NONE && in->nopd < 4)
		return alu_reject(in, why, whysz, "a secondary operation needs the c operand");
	if ((in->flags & (FLAG_CLAMP | FLAG_WRAP)) && in->op != OP_VSHL && in->op != OP_VSHR)
		return alu_reject(in, why, whysz, ".clamp/.wrap apply to vshl and vshr only");
	return true;
}

static bool video_step(const struct func_step *s)
{
	if (s->exec)
		func_exec_video(s->x, s->in, s->exec);
	func_step_next(s);
	return true;
}

/* bmsk and the video instructions */
const struct func_op func_op_video = {.check = func_video_check, .step = video_step};
