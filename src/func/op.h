/*
 * op.h -- the functional model's opcode dispatch: one handler per opcode,
 * named in the FUNC column of ptx/opcodes.def.
 *
 * Models no hardware: this is how an instruction reaches its semantics.  A
 * handler (struct func_op func_op_NAME) holds an opcode's load-time check
 * and its execution, and is defined beside the semantics it runs (exec_alu.c,
 * exec_float.c, exec_cvt.c, exec_video.c, exec_warp.c, exec_tensor.c,
 * memop.c, texture.c; control flow and barriers in warp.c).  func_ops[],
 * generated from opcodes.def (op.c), is the only place an opcode meets its
 * handler: func_check_module checks and func_warp_step executes every
 * instruction through it.  An opcode the functional model does not implement
 * names the handler `none`, which rejects it at load time.
 */
#ifndef WARPSIM_FUNC_OP_H
#define WARPSIM_FUNC_OP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "func/exec.h"

struct func_launch;
struct func_cta;
struct func_warp;
struct func_step_info;

/* One warp instruction being executed (func_warp_step). */
struct func_step {
	struct func_launch *L;
	struct func_cta *c;
	struct func_warp *w;
	const struct func_exec *x;
	const struct ptx_insn *in;
	int32_t pc;      /* its index in the current function */
	uint64_t active; /* the warp's active lanes */
	uint64_t exec;   /* active lanes whose guard predicate holds */
	struct func_step_info *info;
};

struct func_op {
	/* Load-time check: false, with a reason in why ("cvt.rni.u8.f16 is not
	 * supported"), for a form the semantics do not implement. */
	bool (*check)(const struct ptx_insn *in, char *why, size_t whysz);
	/* Execute one warp instruction and advance the warp's pc (branches, calls,
	 * exits: to wherever they go).  False after a run-time error recorded in L. */
	bool (*step)(const struct func_step *s);
	/* Lane-parallel ALU handlers only (check == func_alu_check, step ==
	 * func_alu_step): the semantics for the lanes in mask; the check of the
	 * handler's own forms, which func_alu_check calls after the checks common
	 * to every ALU instruction (operand count and kinds; with `integer`, also
	 * no rounding modifier, no boolean operator but on setp/set/lop3, the
	 * .u16x2/.s16x2 forms); and the same opcode's handler for forms computed
	 * in a floating-point type (setp/set: the type compared), or NULL. */
	void (*lanes)(const struct func_exec *x, const struct ptx_insn *in, uint64_t mask);
	bool (*lanes_check)(const struct ptx_insn *in, char *why, size_t whysz);
	bool integer;
	const struct func_op *fp;
};

/* The handler of every opcode (op.c, from opcodes.def). */
extern const struct func_op *const func_ops[OP_COUNT];

/* Advance the warp to the next instruction (most handlers' last step). */
void func_step_next(const struct func_step *s);

/* The step of every lane-parallel ALU handler: func_exec_alu on s->exec. */
bool func_alu_step(const struct func_step *s);

#endif
