/*
 * devrt.h -- device runtime built-ins (devrt.c): vprintf and __assertfail.
 */
#ifndef WARPSIM_FUNC_DEVRT_H
#define WARPSIM_FUNC_DEVRT_H

#include "func/func.h"

/* True for an extern function the simulator provides. */
bool func_is_builtin(const struct ptx_function *f);
/* Execute a call to a built-in for the lanes in exec (the caller's entry is on top of the stack). */
bool func_call_builtin(struct func_launch *L, struct func_cta *c, struct func_warp *w, const struct ptx_insn *in,
		       const struct ptx_function *f, uint64_t exec);

#endif
