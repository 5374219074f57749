/*
 * op.c -- the opcode -> handler table of the functional model (op.h),
 * generated from the FUNC column of ptx/opcodes.def, and the handler of
 * opcodes it does not implement.
 */
#include <stdio.h>

#include "func/func.h"
#include "func/op.h"

/* every handler opcodes.def names (an undefined one fails at link time) */
#define X(e, name, unit, lat, flags, fn) extern const struct func_op func_op_##fn;
#include "ptx/opcodes.def"
#undef X

const struct func_op *const func_ops[OP_COUNT] = {
#define X(e, name, unit, lat, flags, fn) [OP_##e] = &func_op_##fn,
#include "ptx/opcodes.def"
#undef X
};

void func_step_next(const struct func_step *s)
{
	s->w->stack[s->w->sp - 1].pc = s->pc + 1;
}

static bool none_check(const struct ptx_insn *in, char *why, size_t whysz)
{
	snprintf(why, whysz, "instruction is not implemented");
	return false;
}

static bool none_step(const struct func_step *s)
{
	func_step_next(s); /* never reached: the module check rejects it */
	return true;
}

const struct func_op func_op_none = {.check = none_check, .step = none_step};
