/*
 * operand.h -- symbol addresses for the functional model (operand.c).
 */
#ifndef WARPSIM_FUNC_OPERAND_H
#define WARPSIM_FUNC_OPERAND_H

#include "func/exec.h"

/* Address of variable `sym` in its own state space, as seen by the warp
 * executing in context x (local/frame params are relative to the current frame). */
uint64_t func_var_addr(const struct func_exec *x, int32_t sym);

#endif
