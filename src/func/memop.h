/*
 * memop.h -- memory instructions of the functional model (memop.c).
 */
#ifndef WARPSIM_FUNC_MEMOP_H
#define WARPSIM_FUNC_MEMOP_H

#include "func/func.h"

bool func_is_memop(enum ptx_opcode op);
bool func_memop_check(const struct ptx_insn *in, char *why, size_t whysz);
/* Execute ld/ldu/st/atom/red/cvta/isspacep/prefetch for the lanes in exec.
 * Fills info->addr/space/access_size.  False on a run-time error (recorded in L). */
bool func_exec_memop(struct func_launch *L, struct func_cta *c, struct func_warp *w, const struct func_exec *x,
		     const struct ptx_insn *in, uint64_t exec, struct func_step_info *info);

/* Read n bytes at generic address `addr` for lane `lane` (printf arguments).
 * False after recording an error. */
bool func_read_generic(struct func_launch *L, struct func_cta *c, struct func_warp *w, unsigned lane, uint64_t addr,
		       void *dst, unsigned n);

#endif
