/*
 * exec_warp.c -- semantics of the warp-level collectives shfl.sync,
 * vote(.sync), activemask, match.sync and redux.sync (see exec_warp.h).
 *
 * Models the warp-wide exchange network of an NVIDIA SM: a shuffle crossbar
 * that lets each lane read a register of another lane, and the vote /
 * match / reduction logic that combines one value from every lane.
 *
 * Conventions (PTX ISA semantics at ws = 32; generalised to ws = 8..64):
 *
 *  shfl.sync.mode.b32 d[|p], a, b, c, membermask (also the old form
 *  without membermask).  Per executing lane, following the ISA pseudocode:
 *      bval = b[F-1:0]      cval = c[4:0]      segmask = c[12:8]
 *      maxLane = (lane & segmask) | (cval & ~segmask)
 *      minLane = lane & segmask
 *      up:   j = lane - bval   pval = j >= maxLane
 *      down: j = lane + bval   pval = j <= maxLane
 *      bfly: j = lane ^ bval   pval = j <= maxLane
 *      idx:  j = minLane | (bval & ~segmask)   pval = j <= maxLane
 *      if (!pval) j = lane;  d = a[j];  p = pval
 *  F = max(5, ceil(log2(ws))) is the lane-field width (5 for ws <= 32, 6
 *  for ws = 64).  For ws = 64 the 5-bit cval and segmask are widened to 6
 *  bits by replicating their bit 4 into bit 5: a clamp of 31 becomes 63
 *  ("last lane of the warp") and a segment mask 32 - width keeps meaning
 *  "segments of `width` lanes" (0 = the whole 64-lane warp), so code
 *  compiled for 32-lane warps shuffles within the whole wider warp.  A
 *  source lane j >= ws (or < 0) does not exist: pval = false, d = own a.
 *  For ws < 32 this makes e.g. shfl.down by 16 in an 8-lane warp return the
 *  lane's own value with p = false, as for the top lanes of a 32-lane warp.
 *  Source lanes that are not executing still supply their current register
 *  value (the ISA leaves it unpredictable; ours is deterministic).
 *
 *  vote.all/any/uni.pred: over the executing lanes of the whole warp (uni:
 *  all executing lanes have the same predicate).  vote.ballot.b32: bit i =
 *  predicate of executing lane i; non-executing lanes contribute 0.
 *  activemask.b32: the warp's active mask (before the guard).
 *  match.any.b32/b64: lanes whose value equals this lane's; match.all: d =
 *  the executing lanes and p = 1 when they all hold the same value, else
 *  d = 0 and p = 0.  Both consider executing lanes only.
 *  redux.sync.add/min/max .u32/.s32 and .and/.or/.xor .b32 (any 32-bit
 *  integer type is accepted): the reduction over the executing lanes is
 *  written to every executing lane; add wraps modulo 2^32.
 *
 *  32-bit lane masks (ballot, activemask, match) with ws = 64: each aligned
 *  32-lane half acts as one PTX warp; a lane's result holds its own half's
 *  lanes, bit i = lane 32 * (lane / 32) + i, and match compares only lanes
 *  of the same half.  %laneid and %lanemask_* (operand.c) are taken within
 *  the half as well, so idioms such as popc(ballot & lanemask_lt) work at
 *  ws = 64.
 *
 *  Membermask operands are ignored: the executing mask decides who takes
 *  part (for correct programs they agree).
 */
#include "func/exec_warp.h"
#include "func/op.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static bool reject(char *why, size_t whysz, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static bool reject(char *why, size_t whysz, const char *fmt, ...)
{
	if (why && whysz) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(why, whysz, fmt, ap);
		va_end(ap);
	}
	return false;
}

static bool is_source(const struct ptx_operand *o)
{
	return o->kind == OPD_REG || o->kind == OPD_IMM || o->kind == OPD_SREG;
}

static bool is_int32(unsigned t)
{
	return t == PTX_T_B32 || t == PTX_T_U32 || t == PTX_T_S32;
}

static const char *tname(unsigned t)
{
	return t < PTX_T_COUNT ? ptx_type_name[t] : "?";
}

bool func_warpop_check(const struct ptx_insn *in, char *why, size_t whysz)
{
	const struct ptx_operand *o = in->opd;
	switch (in->op) {
	case OP_SHFL:
		if (in->mode != MODE_UP && in->mode != MODE_DOWN && in->mode != MODE_BFLY && in->mode != MODE_IDX)
			return reject(why, whysz, "shfl needs one of .up, .down, .bfly, .idx");
		if (!is_int32(in->type) && in->type != PTX_T_F32)
			return reject(why, whysz, "shfl.%s is not supported (only 32-bit data)", tname(in->type));
		if (in->nopd != 4 && in->nopd != 5)
			return reject(why, whysz, "shfl takes d[|p], a, b, c[, membermask]");
		if (o[0].kind != OPD_REG && !(o[0].kind == OPD_SINK && o[0].reg2 >= 0))
			return reject(why, whysz, "shfl destination must be a register");
		if (!is_source(&o[1]) || !is_source(&o[2]) || !is_source(&o[3]))
			return reject(why, whysz, "shfl sources must be registers or immediates");
		return true;
	case OP_VOTE:
		if (in->mode == MODE_BALLOT) {
			if (!is_int32(in->type))
				return reject(why, whysz, "vote.ballot.%s is not supported (use .b32)", tname(in->type));
		} else if (in->mode == MODE_ALL || in->mode == MODE_ANY || in->mode == MODE_UNI) {
			if (in->type != PTX_T_PRED)
				return reject(why, whysz, "vote.all/any/uni must be .pred");
		} else {
			return reject(why, whysz, "vote needs one of .all, .any, .uni, .ballot");
		}
		if (in->nopd != 2 && in->nopd != 3)
			return reject(why, whysz, "vote takes d, {!}a[, membermask]");
		if (o[0].kind != OPD_REG || !is_source(&o[1]))
			return reject(why, whysz, "vote takes a register destination and a predicate source");
		return true;
	case OP_ACTIVEMASK:
		if (!is_int32(in->type))
			return reject(why, whysz, "activemask.%s is not supported (use .b32)", tname(in->type));
		if (in->nopd != 1 || o[0].kind != OPD_REG)
			return reject(why, whysz, "activemask takes one register destination");
		return true;
	case OP_MATCH:
		if (in->mode != MODE_ANY && in->mode != MODE_ALL)
			return reject(why, whysz, "match needs .any or .all");
		if (ptx_type_is_float((enum ptx_type)in->type) || in->type >= PTX_T_COUNT ||
		    (ptx_type_size[in->type] != 4 && ptx_type_size[in->type] != 8) || in->type == PTX_T_PRED)
			return reject(why, whysz, "match.%s is not supported (use .b32 or .b64)", tname(in->type));
		if (in->nopd != 3 && in->nopd != 2)
			return reject(why, whysz, "match takes d[|p], a, membermask");
		if (o[0].kind != OPD_REG || !is_source(&o[1]))
			return reject(why, whysz, "match takes a register destination and a register source");
		return true;
	case OP_REDUX:
		if (in->flags & (FLAG_ABS | FLAG_NAN))
			return reject(why, whysz, "redux.sync with .abs/.NaN is not supported");
		switch (in->atomop) {
		case AOP_ADD: case AOP_MIN: case AOP_MAX:
			if (in->type != PTX_T_U32 && in->type != PTX_T_S32)
				return reject(why, whysz, "redux.sync.%s.%s is not supported",
					      in->atomop == AOP_ADD ? "add" : in->atomop == AOP_MIN ? "min" : "max",
					      tname(in->type));
			break;
		case AOP_AND: case AOP_OR: case AOP_XOR:
			if (!is_int32(in->type))
				return reject(why, whysz, "redux.sync.%s.%s is not supported",
					      in->atomop == AOP_AND ? "and" : in->atomop == AOP_OR ? "or" : "xor",
					      tname(in->type));
			break;
		default:
			return reject(why, whysz, "redux.sync needs .add, .min, .max, .and, .or or .xor");
		}
		if (in->nopd != 3 && in->nopd != 2)
			return reject(why, whysz, "redux.sync takes d, a, membermask");
		if (o[0].kind != OPD_REG || !is_source(&o[1]))
			return reject(why, whysz, "redux.sync takes a register destination and a register source");
		return true;
	default:
		return reject(why, whysz, "%s is not a warp collective",
			      in->op < OP_COUNT ? ptx_opcode_table[in->op].name : "?");
	}
}

/* The 32-bit view of a 64-bit lane mask seen by `lane` (its own 32-lane half). */
static inline uint64_t lane_view(uint64_t m, unsigned lane)
{
	return (m >> (lane & ~31u)) & 0xffffffffu;
}

/* Lanes of the 32-lane group that `lane` belongs to. */
static inline uint64_t lane_group(unsigned lane)
{
	return 0xffffffffull << (lane & ~31u);
}

static inline void put(const struct func_exec *x, int32_t reg, unsigned lane, uint64_t v)
{
	if (reg >= 0)
		func_reg(x, reg)[lane] = v;
}

static void exec_shfl(const struct func_exec *x, const struct ptx_insn *in, uint64_t mask, unsigned ws)
{
	uint64_t ta[WS_MAX_WARP], tb[WS_MAX_WARP], tc[WS_MAX_WARP];
	uint64_t out[WS_MAX_WARP];
	uint8_t pv[WS_MAX_WARP];
	const uint64_t *A = func_src(x, &in->opd[1], ta);
	const uint64_t *B = func_src(x, &in->opd[2], tb);
	const uint64_t *C = func_src(x, &in->opd[3], tc);
	unsigned fbits = 5;
	while ((1u << fbits) < ws)
		fbits++;
	const uint32_t fm = (1u << fbits) - 1;
	for (unsigned lane = 0; lane < ws; lane++) {
		if (!(mask >> lane & 1))
			continue;
		uint32_t bval = (uint32_t)B[lane] & fm;
		uint32_t c = (uint32_t)C[lane];
		uint32_t cval = c & 0x1f, seg = (c >> 8) & 0x1f;
		for (unsigned bit = 5; bit < fbits; bit++) {
			cval |= ((cval >> 4) & 1u) << bit;
			seg |= ((seg >> 4) & 1u) << bit;
		}
		int64_t max_lane = (int64_t)((lane & seg) | (cval & ~seg & fm));
		int64_t min_lane = (int64_t)(lane & seg);
		int64_t j;
		bool p;
		switch (in->mode) {
		case MODE_UP:
			j = (int64_t)lane - bval;
			p = j >= max_lane;
			break;
		case MODE_DOWN:
			j = (int64_t)lane + bval;
			p = j <= max_lane;
			break;
		case MODE_BFLY:
			j = (int64_t)(lane ^ bval);
			p = j <= max_lane;
			break;
		default: /* MODE_IDX */
			j = min_lane | (int64_t)(bval & ~seg & fm);
			p = j <= max_lane;
			break;
		}
		if (j < 0 || j >= (int64_t)ws)
			p = false;
		if (!p)
			j = lane;
		out[lane] = A[j] & 0xffffffffu;
		pv[lane] = p;
	}
	const struct ptx_operand *d = &in->opd[0];
	for (unsigned lane = 0; lane < ws; lane++) {
		if (!(mask >> lane & 1))
			continue;
		if (d->kind == OPD_REG)
			put(x, d->reg, lane, out[lane]);
		put(x, d->reg2, lane, pv[lane]);
	}
}

static void exec_vote(const struct func_exec *x, const struct ptx_insn *in, uint64_t mask, unsigned ws)
{
	uint64_t tp[WS_MAX_WARP];
	const uint64_t *P = func_src(x, &in->opd[1], tp);
	uint64_t ballot = 0;
	for (unsigned lane = 0; lane < ws; lane++)
		if ((mask >> lane & 1) && P[lane])
			ballot |= 1ull << lane;
	uint64_t r = 0;
	switch (in->mode) {
	case MODE_ALL: r = ballot == mask; break;
	case MODE_ANY: r = ballot != 0; break;
	case MODE_UNI: r = ballot == 0 || ballot == mask; break;
	default: break;
	}
	for (unsigned lane = 0; lane < ws; lane++)
		if (mask >> lane & 1)
			put(x, in->opd[0].reg, lane, in->mode == MODE_BALLOT ? lane_view(ballot, lane) : r);
}

static void exec_match(const struct func_exec *x, const struct ptx_insn *in, uint64_t mask, unsigned ws)
{
	uint64_t tv[WS_MAX_WARP], v[WS_MAX_WARP], out[WS_MAX_WARP];
	uint8_t pv[WS_MAX_WARP];
	const uint64_t *V = func_src(x, &in->opd[1], tv);
	uint64_t vm = in->type < PTX_T_COUNT && ptx_type_size[in->type] >= 8 ? ~0ull : 0xffffffffull;
	for (unsigned lane = 0; lane < ws; lane++)
		v[lane] = V[lane] & vm;
	for (unsigned lane = 0; lane < ws; lane++) {
		if (!(mask >> lane & 1))
			continue;
		uint64_t grp = mask & lane_group(lane), same = 0;
		for (unsigned k = lane & ~31u; k < ws && k < (lane & ~31u) + 32; k++)
			if ((grp >> k & 1) && v[k] == v[lane])
				same |= 1ull << k;
		if (in->mode == MODE_ANY) {
			out[lane] = lane_view(same, lane);
			pv[lane] = 0;
		} else {
			bool all = same == grp;
			out[lane] = all ? lane_view(grp, lane) : 0;
			pv[lane] = all;
		}
	}
	const struct ptx_operand *d = &in->opd[0];
	for (unsigned lane = 0; lane < ws; lane++) {
		if (!(mask >> lane & 1))
			continue;
		put(x, d->reg, lane, out[lane]);
		if (in->mode == MODE_ALL)
			put(x, d->reg2, lane, pv[lane]);
	}
}

static void exec_redux(const struct func_exec *x, const struct ptx_insn *in, uint64_t mask, unsigned ws)
{
	uint64_t tv[WS_MAX_WARP];
	const uint64_t *V = func_src(x, &in->opd[1], tv);
	bool sgn = in->type == PTX_T_S32;
	uint32_t acc;
	switch (in->atomop) {
	case AOP_MIN: acc = sgn ? 0x7fffffffu : 0xffffffffu; break;
	case AOP_MAX: acc = sgn ? 0x80000000u : 0; break;
	case AOP_AND: acc = 0xffffffffu; break;
	default: acc = 0; break;
	}
	for (unsigned lane = 0; lane < ws; lane++) {
		if (!(mask >> lane & 1))
			continue;
		uint32_t a = (uint32_t)V[lane];
		switch (in->atomop) {
		case AOP_ADD: acc += a; break;
		case AOP_MIN:
			if (sgn ? (int32_t)a < (int32_t)acc : a < acc)
				acc = a;
			break;
		case AOP_MAX:
			if (sgn ? (int32_t)a > (int32_t)acc : a > acc)
				acc = a;
			break;
		case AOP_AND: acc &= a; break;
		case AOP_OR: acc |= a; break;
		case AOP_XOR: acc ^= a; break;
		default: break;
		}
	}
	for (unsigned lane = 0; lane < ws; lane++)
		if (mask >> lane & 1)
			put(x, in->opd[0].reg, lane, acc);
}

void func_exec_warpop(const struct func_exec *x, const struct ptx_insn *in, uint64_t mask, uint64_t active)
{
	unsigned ws = x->ws < WS_MAX_WARP ? x->ws : WS_MAX_WARP;
	uint64_t wsm = ws >= 64 ? ~0ull : (1ull << ws) - 1;
	mask &= wsm;
	active &= wsm;
	if (!mask)
		return;
	switch (in->op) {
	case OP_SHFL: exec_shfl(x, in, mask, ws); break;
	case OP_VOTE: exec_vote(x, in, mask, ws); break;
	case OP_MATCH: exec_match(x, in, mask, ws); break;
	case OP_REDUX: exec_redux(x, in, mask, ws); break;
	case OP_ACTIVEMASK:
		for (unsigned lane = 0; lane < ws; lane++)
			if (mask >> lane & 1)
				put(x, in->opd[0].reg, lane, lane_view(active, lane));
		break;
	default: break;
	}
}

static bool warpop_step(const struct func_step *s)
{
	func_exec_warpop(s->x, s->in, s->exec, s->active);
	func_step_next(s);
	return true;
}

/* shfl, vote, activemask, match, redux */
const struct func_op func_op_warp = {.check = func_warpop_check, .step = warpop_step};
