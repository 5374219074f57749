/*
 * exec_tensor.h -- tensor-core instructions of the functional model
 * (exec_tensor.c): wmma.load/store/mma, mma.sync, ldmatrix, stmatrix.
 */
#ifndef WARPSIM_FUNC_EXEC_TENSOR_H
#define WARPSIM_FUNC_EXEC_TENSOR_H

#include "func/func.h"

/* Load-time check: shape/type combination implemented, fragment sizes right. */
bool func_tensor_check(const struct ptx_insn *in, char *why, size_t whysz);
/* Execute for the whole warp (exec must be all 32 lanes; checked).  Memory
 * forms fill info (space, access_size, mem_lanes, addr) for the timing model. */
bool func_exec_tensor(struct func_launch *L, struct func_cta *c, struct func_warp *w, const struct func_exec *x,
		      const struct ptx_insn *in, uint64_t exec, struct func_step_info *info);

#endif
