/*
 * prefetch.h -- host-cache prefetches for the functional step of a warp
 * that became ready to issue.
 *
 * Models no hardware and changes no state: it only asks the host CPU to
 * bring into its caches what func_warp_step() will read when the warp
 * issues -- the warp's SIMT-stack top and the register rows of the head
 * instruction's sources and destinations.  With hundreds of resident warps
 * these are usually cache misses, which dominated the issue path.
 */
#ifndef WARPSIM_CORE_PREFETCH_H
#define WARPSIM_CORE_PREFETCH_H

#include "core/sm.h"

static inline void sm_prefetch_rows(const uint64_t *row, uint32_t ws)
{
	for (uint32_t b = 0; b < ws; b += 8) /* 8 lanes per 64-byte line */
		__builtin_prefetch(row + b, 1);
}

/* w's head instruction d will likely issue soon. */
static inline void sm_prefetch_step(const struct sm *s, const struct sm_warp *w, const struct dec_insn *d)
{
	const struct func_warp *fw = w->fw;
	if (!fw || !d)
		return;
	if (fw->sp)
		__builtin_prefetch(&fw->stack[fw->sp - 1]);
	const uint64_t *regs = fw->regs + (size_t)w->frame_base * s->ws;
	for (unsigned k = 0; k < d->nsrc; k++)
		sm_prefetch_rows(regs + (size_t)(uint32_t)d->src[k] * s->ws, s->ws);
	for (unsigned k = 0; k < d->ndst; k++)
		sm_prefetch_rows(regs + (size_t)(uint32_t)d->dst[k] * s->ws, s->ws);
}

#endif
