/*
 * exec.h -- the execution context a warp instruction runs in.
 *
 * Models the datapath of one SIMT warp: the register frame of the function
 * the warp is currently executing, laid out as regs[reg * ws + lane], the
 * per-lane carry flags (CC.CF), and access to special registers and symbol
 * addresses.  Lane-parallel semantics (exec_alu.c and friends) see only this.
 */
#ifndef WARPSIM_FUNC_EXEC_H
#define WARPSIM_FUNC_EXEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ptx/ir.h"
#include "util/bits.h"

#define WS_MAX_WARP 64

struct func_warp;
struct func_cta;
struct func_launch;

struct func_exec {
	uint64_t *regs;                 /* current frame: regs[reg * ws + lane] */
	unsigned ws;                    /* warp size (8..64) */
	uint8_t *carry;                 /* [ws] carry flag per lane */
	const struct ptx_module *mod;
	const struct ptx_function *fn;  /* function of the current frame */
	struct func_warp *warp;
	struct func_cta *cta;
	struct func_launch *launch;
	uint64_t frame_local_base;      /* local-space address of the current frame */
};

/* Values of a source operand for every lane (index by lane, 0..ws-1).
 * For OPD_REG this points straight into the register file; otherwise the
 * values are materialised into tmp (which must hold WS_MAX_WARP entries).
 * Handles OPD_REG (with ->neg for predicates), OPD_IMM, OPD_SREG, OPD_SYM
 * (address of a variable in its own state space), OPD_FUNC (function address). */
const uint64_t *func_src_any(const struct func_exec *x, const struct ptx_operand *o, uint64_t *tmp);
/* The common case, a plain register, inline (no call per operand). */
static inline const uint64_t *func_src(const struct func_exec *x, const struct ptx_operand *o, uint64_t *tmp)
{
	if (o->kind == OPD_REG && !o->neg)
		return x->regs + (size_t)o->reg * x->ws;
	return func_src_any(x, o, tmp);
}

/* Lanes in a mask (util/bits.h: inline, no libgcc call). */
static inline unsigned func_popc64(uint64_t m) { return ws_popc64(m); }

/* Register array of register index r (all lanes). */
static inline uint64_t *func_reg(const struct func_exec *x, int32_t r) { return x->regs + (size_t)r * x->ws; }

/* Mask a value to the width of type t (zero-extend). */
static inline uint64_t func_trunc(uint64_t v, enum ptx_type t)
{
	unsigned b = ptx_type_bits(t);
	return b >= 64 ? v : (v & ((1ull << b) - 1));
}
/* Sign-extend the low bits(t) of v. */
static inline int64_t func_sext(uint64_t v, enum ptx_type t)
{
	unsigned b = ptx_type_bits(t);
	if (b >= 64)
		return (int64_t)v;
	uint64_t m = 1ull << (b - 1);
	v &= (1ull << b) - 1;
	return (int64_t)((v ^ m) - m);
}

/* ---- lane-parallel semantics (exec_alu.c, exec_float.c, exec_cvt.c, ...) ---- */

/* Load-time check of an ALU instruction's type/modifier combination.
 * Returns false and writes a reason ("cvt.rni.u8.f16 is not supported")
 * for combinations func_exec_alu does not implement. */
bool func_alu_check(const struct ptx_insn *in, char *why, size_t whysz);
/* Execute an ALU instruction for the lanes in `mask` (guard already applied). */
void func_exec_alu(const struct func_exec *x, const struct ptx_insn *in, uint64_t mask);

/* The full-warp fast path (exec_fast.c): executes `in` for all ws lanes and
 * returns true if it is one of the common simple forms it implements
 * (identical results to func_exec_alu); false, doing nothing, otherwise. */
bool func_exec_fast(const struct func_exec *x, const struct ptx_insn *in);

/* bmsk and the video instructions (exec_video.c, issue 16). */
bool func_video_check(const struct ptx_insn *in, char *why, size_t whysz);
void func_exec_video(const struct func_exec *x, const struct ptx_insn *in, uint64_t mask);

#endif
