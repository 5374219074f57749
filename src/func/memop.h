/*
 * memop.h -- memory instructions of the functional model (memop.c).
 */
#ifndef WARPSIM_FUNC_MEMOP_H
#define WARPSIM_FUNC_MEMOP_H

#include "func/func.h"

/* Read n bytes at generic address `addr` for lane `lane` (printf arguments).
 * False after recording an error. */
bool func_read_generic(struct func_launch *L, struct func_cta *c, struct func_warp *w, unsigned lane, uint64_t addr,
		       void *dst, unsigned n);

/* Per-lane addresses of an [address] operand of `in` for the lanes in mask;
 * returns the state space to use (SPACE_NONE: generic). */
enum ptx_space func_mem_addresses(const struct func_exec *x, const struct ptx_insn *in, const struct ptx_operand *a,
				  uint64_t *out, uint64_t mask);
/* Host pointer for `size` bytes at `addr` in `space` (SPACE_NONE: a generic
 * address, decoded; the space it falls in goes to *resolved), or NULL after
 * recording an out-of-bounds/misaligned/read-only error for lane `lane`. */
uint8_t *func_mem_ptr(struct func_launch *L, struct func_cta *c, struct func_warp *w, unsigned lane,
		      enum ptx_space space, uint64_t addr, unsigned size, bool write, enum ptx_space *resolved);

/* Write n bytes (n <= 8) of v to p, already resolved for lane `lane` in
 * `space`: a global write goes to L->wlog when the launch buffers them (the
 * timing model, wlog.h), anything else is written now (counting changed
 * global/shared words in L->mem_changes).  False after recording an OOM error. */
bool func_mem_write(struct func_launch *L, struct func_cta *c, struct func_warp *w, unsigned lane, uint8_t *p,
		    enum ptx_space space, uint64_t v, unsigned n);
/* Store n bytes of v at p; 1 if the stored bits changed. */
unsigned func_mem_store(uint8_t *p, uint64_t v, unsigned n);
/* One lane of atom/red `in` on the tsz-byte word at p with operands b (and
 * cv for cas): returns the old value, counts a changed word in *changed. */
uint64_t func_atom_exec(const struct ptx_insn *in, uint8_t *p, unsigned tsz, uint64_t b, uint64_t cv,
			uint64_t *changed);
/* The destination register value for old (sign-extended to the register type). */
uint64_t func_atom_result(const struct ptx_insn *in, uint64_t old, uint8_t dst_type);

#endif
