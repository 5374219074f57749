/*
 * exec_fast.c -- the full-warp fast path of the SM's ALU and FP32 datapath
 * (issue 14): the forms that dominate real kernels -- integer add/sub/mul/
 * mad/shl/shr/and/or/xor/selp/mov/setp on 32- and 64-bit types, and f32
 * add/sub/mul/fma/mad/setp in round-to-nearest without .ftz/.sat -- executed
 * for every lane of a warp whose lanes all execute, as straight loops over
 * lanes (no per-lane mask walk, no per-lane operand decoding) that the
 * compiler can unroll and vectorize.
 *
 * Semantics are exactly those of the general executors (exec_alu.c,
 * exec_float.c), which handle every other form, partial masks included;
 * func_exec_fast returns false for anything it does not implement.
 * tests/test_fastpath.c compares the two lane by lane on edge values.
 */
#include <math.h>

#include "func/fpu.h"

/* 32/64-bit integer and bit types: the widths the fast integer forms take. */
static inline bool int_type(unsigned t)
{
	switch (t) {
	case PTX_T_U32:
	case PTX_T_S32:
	case PTX_T_B32:
	case PTX_T_U64:
	case PTX_T_S64:
	case PTX_T_B64: return true;
	default: return false;
	}
}

/* The destination register array (fast forms need a register, not "_"). */
static inline uint64_t *dst_reg(const struct func_exec *x, const struct ptx_insn *in)
{
	return in->opd[0].kind == OPD_REG ? func_reg(x, in->opd[0].reg) : NULL;
}

/* d[l] = EXPR for every lane, with A = a[l] and B = b[l], or B the
 * immediate itself when operand 2 is one (no materialised copy per lane). */
#define BIN_LANES(EXPR)                                                                                                \
	do {                                                                                                           \
		const uint64_t *a_ = func_src(x, &in->opd[1], ta);                                                     \
		if (in->opd[2].kind == OPD_IMM) {                                                                      \
			const uint64_t B = in->opd[2].imm;                                                             \
			for (unsigned l = 0; l < n; l++) {                                                             \
				const uint64_t A = a_[l];                                                              \
				d[l] = (EXPR);                                                                         \
			}                                                                                              \
		} else {                                                                                               \
			const uint64_t *b_ = func_src(x, &in->opd[2], tb);                                             \
			for (unsigned l = 0; l < n; l++) {                                                             \
				const uint64_t A = a_[l], B = b_[l];                                                   \
				d[l] = (EXPR);                                                                         \
			}                                                                                              \
		}                                                                                                      \
	} while (0)

static bool fast_int(const struct func_exec *x, const struct ptx_insn *in)
{
	const unsigned n = x->ws, t = in->type;
	/* selp and mov move bits: f32/f64 too */
	const bool moves = in->op == OP_SELP || in->op == OP_MOV;
	if (!int_type(t) && !(moves && (t == PTX_T_F32 || t == PTX_T_F64)))
		return false;
	uint64_t *d = dst_reg(x, in);
	if (!d)
		return false;
	uint64_t ta[WS_MAX_WARP], tb[WS_MAX_WARP], tc[WS_MAX_WARP];
	const unsigned w = ptx_type_bits((enum ptx_type)t);
	const uint64_t wm = alu_wmask(w);
	switch (in->op) {
	case OP_ADD: BIN_LANES((A + B) & wm); return true;
	case OP_SUB: BIN_LANES((A - B) & wm); return true;
	case OP_MUL:
	case OP_MAD: {
		const unsigned mode = in->mode == MODE_NONE ? MODE_LO : in->mode;
		if (mode != MODE_LO && !(mode == MODE_WIDE && w == 32))
			return false;
		if (mode == MODE_LO && in->op == OP_MUL) {
			BIN_LANES((A * B) & wm);
			return true;
		}
		const uint64_t *a = func_src(x, &in->opd[1], ta), *b = func_src(x, &in->opd[2], tb);
		const uint64_t *c = in->op == OP_MAD ? func_src(x, &in->opd[3], tc) : NULL;
		if (mode == MODE_LO) {
			for (unsigned l = 0; l < n; l++)
				d[l] = (a[l] * b[l] + c[l]) & wm;
		} else if (ptx_type_is_signed((enum ptx_type)t)) {
			for (unsigned l = 0; l < n; l++)
				d[l] = (uint64_t)((int64_t)(int32_t)a[l] * (int64_t)(int32_t)b[l]) + (c ? c[l] : 0);
		} else {
			for (unsigned l = 0; l < n; l++)
				d[l] = (a[l] & 0xffffffffu) * (b[l] & 0xffffffffu) + (c ? c[l] : 0);
		}
		return true;
	}
	case OP_SHL:
	case OP_SHR: {
		if (in->op == OP_SHR && ptx_type_is_signed((enum ptx_type)t))
			return false;
		if (in->op == OP_SHL)
			BIN_LANES((uint32_t)B >= w ? 0 : (A << (uint32_t)B) & wm);
		else
			BIN_LANES((uint32_t)B >= w ? 0 : (A & wm) >> (uint32_t)B);
		return true;
	}
	case OP_AND: BIN_LANES(A & B & wm); return true;
	case OP_OR: BIN_LANES((A | B) & wm); return true;
	case OP_XOR: BIN_LANES((A ^ B) & wm); return true;
	case OP_SELP: {
		const uint64_t *a = func_src(x, &in->opd[1], ta), *b = func_src(x, &in->opd[2], tb);
		const uint64_t *c = func_src(x, &in->opd[3], tc);
		for (unsigned l = 0; l < n; l++)
			d[l] = (c[l] ? a[l] : b[l]) & wm;
		return true;
	}
	case OP_MOV: {
		if (in->opd[1].kind == OPD_VEC)
			return false;
		if (in->opd[1].kind == OPD_IMM) {
			const uint64_t v = in->opd[1].imm & wm;
			for (unsigned l = 0; l < n; l++)
				d[l] = v;
			return true;
		}
		const uint64_t *a = func_src(x, &in->opd[1], ta);
		for (unsigned l = 0; l < n; l++)
			d[l] = a[l] & wm;
		return true;
	}
	default: return false;
	}
}

/* rel = 0 (LT), 1 (EQ), 2 (GT) as fpu.h numbers them, without branches. */
static inline unsigned rel_u(uint64_t a, uint64_t b) { return (unsigned)(a >= b) + (unsigned)(a > b); }
static inline unsigned rel_s(int64_t a, int64_t b) { return (unsigned)(a >= b) + (unsigned)(a > b); }

/* setp.cmp.type p[|q], a, b without a boolean operator: integer and f32. */
static bool fast_setp(const struct func_exec *x, const struct ptx_insn *in)
{
	const unsigned n = x->ws, t = in->type;
	const bool f32 = t == PTX_T_F32;
	if ((!int_type(t) && !f32) || in->boolop != BOOL_NONE || in->opd[0].kind != OPD_REG)
		return false;
	uint64_t ta[WS_MAX_WARP], tb[WS_MAX_WARP];
	uint64_t *d = func_reg(x, in->opd[0].reg);
	uint64_t *q = in->opd[0].reg2 >= 0 ? func_reg(x, in->opd[0].reg2) : NULL;
	const unsigned cmp = in->cmp < CMP_COUNT ? in->cmp : CMP_NONE;
	const unsigned truth = fpu_cmp_truth[cmp];
	if (f32) {
		const uint64_t *a = func_src(x, &in->opd[1], ta), *b = func_src(x, &in->opd[2], tb);
		for (unsigned l = 0; l < n; l++) {
			float fa = fpu_f32(a[l]), fb = fpu_f32(b[l]);
			unsigned rel = fa < fb ? FPU_REL_LT : fa > fb ? FPU_REL_GT : fa == fb ? FPU_REL_EQ : FPU_REL_UN;
			d[l] = (truth >> rel) & 1;
		}
	} else {
		const unsigned w = ptx_type_bits((enum ptx_type)t);
		if (ptx_type_is_signed((enum ptx_type)t) && !(cmp >= CMP_LO && cmp <= CMP_HS)) {
			if (w == 32)
				BIN_LANES((truth >> rel_s((int32_t)A, (int32_t)B)) & 1);
			else
				BIN_LANES((truth >> rel_s((int64_t)A, (int64_t)B)) & 1);
		} else {
			const uint64_t wm = alu_wmask(w);
			BIN_LANES((truth >> rel_u(A & wm, B & wm)) & 1);
		}
	}
	if (q)
		for (unsigned l = 0; l < n; l++)
			q[l] = !d[l];
	return true;
}

/* f32 add/sub/mul/fma/mad in round-to-nearest (the host's mode), no .ftz/.sat. */
static bool fast_f32(const struct func_exec *x, const struct ptx_insn *in)
{
	const unsigned n = x->ws;
	uint64_t *d = dst_reg(x, in);
	if (!d || (in->rnd != RND_NONE && in->rnd != RND_RN))
		return false;
	uint64_t ta[WS_MAX_WARP], tb[WS_MAX_WARP], tc[WS_MAX_WARP];
	const uint64_t *a = func_src(x, &in->opd[1], ta), *b = func_src(x, &in->opd[2], tb);
	switch (in->op) {
	case OP_ADD:
		for (unsigned l = 0; l < n; l++) {
			uint32_t u = fpu_b32(fpu_f32(a[l]) + fpu_f32(b[l]));
			d[l] = fpu_isnan32(u) ? FPU_NAN32 : u;
		}
		return true;
	case OP_SUB:
		for (unsigned l = 0; l < n; l++) {
			uint32_t u = fpu_b32(fpu_f32(a[l]) - fpu_f32(b[l]));
			d[l] = fpu_isnan32(u) ? FPU_NAN32 : u;
		}
		return true;
	case OP_MUL:
		for (unsigned l = 0; l < n; l++) {
			uint32_t u = fpu_b32(fpu_f32(a[l]) * fpu_f32(b[l]));
			d[l] = fpu_isnan32(u) ? FPU_NAN32 : u;
		}
		return true;
	case OP_FMA:
	case OP_MAD: {
		const uint64_t *c = func_src(x, &in->opd[3], tc);
		for (unsigned l = 0; l < n; l++) {
			uint32_t u = fpu_b32(fmaf(fpu_f32(a[l]), fpu_f32(b[l]), fpu_f32(c[l])));
			d[l] = fpu_isnan32(u) ? FPU_NAN32 : u;
		}
		return true;
	}
	default: return false;
	}
}

bool func_exec_fast(const struct func_exec *x, const struct ptx_insn *in)
{
	if (in->flags)
		return false; /* .cc, .sat, .ftz, .approx, ...: the general executors */
	switch (in->op) {
	case OP_ADD:
	case OP_SUB:
	case OP_MUL:
	case OP_MAD:
		if (in->type == PTX_T_F32)
			return fast_f32(x, in);
		return fast_int(x, in);
	case OP_FMA:
		return in->type == PTX_T_F32 && fast_f32(x, in);
	case OP_SHL:
	case OP_SHR:
	case OP_AND:
	case OP_OR:
	case OP_XOR:
	case OP_SELP:
	case OP_MOV: return fast_int(x, in);
	case OP_SETP: return fast_setp(x, in);
	default: return false;
	}
}
