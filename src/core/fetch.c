/*
 * fetch.c -- the front end of an SM: instruction fetch through the L1
 * I-cache, decode, and the per-warp I-buffers (see fetch.h).
 *
 * Each cycle the fetch policy picks one eligible warp (not finished, not at
 * a barrier, I-buffer not full, no I-cache miss outstanding, no unresolved
 * control hazard).  A hit delivers up to fetch_width consecutive
 * instructions of one 128-byte line into the warp's I-buffer, each usable
 * fetch_latency cycles later (decode); a miss parks the warp until the line
 * arrives (sm_ifetch_done).
 */
#include <string.h>

#include "core/fetch.h"
#include "core/ldst.h"
#include "core/sm.h"
#include "gpu/gpu.h"

void sm_ibuf_pop(struct sm *s, uint32_t slot)
{
	struct sm_warp *w = &s->w[slot];
	w->ib_head = (uint8_t)((w->ib_head + 1) % SM_IBUF_MAX);
	w->ib_count--;
	sm_warp_head_sync(w);
}

void sm_ibuf_flush(struct sm *s, uint32_t slot)
{
	struct sm_warp *w = &s->w[slot];
	w->ib_count = 0;
	w->ib_head = 0;
	sm_warp_head_sync(w);
}

void sm_fetch_tick(struct sm *s, uint64_t now)
{
	const struct dec_module *dm = s->gpu->dec;
	bool any = false;
	uint32_t room = cfg_int(s->cfg, CFG_fetch_on_empty) ? 1 : s->ibuf_depth; /* fetch while ib_count < room */
	memset(s->eligible, 0, s->nslots * sizeof *s->eligible);
	for (uint32_t k = 0; k < s->nlive; k++) {
		uint32_t i = s->live[k];
		struct sm_warp *w = &s->w[i];
		if (k + 4 < s->nlive) /* host-cache prefetch of a warp this walk reads soon */
			__builtin_prefetch(&s->w[s->live[k + 4]]);
		bool el = w->valid && !w->finished && !s->vw[i].at_barrier && w->ib_count < room &&
			  !w->fetch_pending && now >= w->fetch_block_until && w->fetch_fn >= 0;
		if (el && w->ctrl_pending)
			w->ctrl_pending = false;
		s->eligible[i] = el;
		any |= el;
	}
	if (!any)
		return;
	int32_t slot = s->fpol->choose(s->fpol_st, &s->view, s->eligible, s->pol, s->pol_st);
	if (slot < 0 || (uint32_t)slot >= s->nslots || !s->eligible[slot])
		return;
	struct sm_warp *w = &s->w[slot];
	const struct dec_func *df = &dm->f[w->fetch_fn];
	uint64_t addr = df->base + (uint64_t)(w->fetch_pc < 0 ? 0 : w->fetch_pc) * CODE_INSN_BYTES;
	enum ifetch_result fr = ldst_ifetch(s->ldst, (uint32_t)slot, addr, now);
	if (fr != IFETCH_HIT) {
		w->fetch_pending = fr == IFETCH_PENDING;
		return;
	}
	if (s->fpol->on_fetch)
		s->fpol->on_fetch(s->fpol_st, &s->view, (uint32_t)slot);
	uint32_t width = (uint32_t)cfg_int(s->cfg, CFG_fetch_width);
	uint64_t ready = now + (uint64_t)cfg_int(s->cfg, CFG_fetch_latency);
	for (uint32_t k = 0; k < width && w->ib_count < s->ibuf_depth; k++) {
		uint32_t idx = (w->ib_head + w->ib_count) % SM_IBUF_MAX;
		struct ibuf_entry *e = &w->ib[idx];
		e->fn = w->fetch_fn;
		e->pc = w->fetch_pc;
		/* past the end of the function: an implicit return, executed by the functional model */
		e->d = (w->fetch_pc >= 0 && (uint32_t)w->fetch_pc < df->n) ? &df->insns[w->fetch_pc] : NULL;
		e->ready = ready;
		w->ib_count++;
		sm_warp_mark_dirty(s, (uint32_t)slot);
		w->fetch_pc++;
		/* stop at a line boundary: the next line is another I-cache access */
		if (((addr + (uint64_t)(k + 1) * CODE_INSN_BYTES) & 127) == 0 || !e->d)
			break;
	}
	sm_warp_head_sync(w);
	s->stats->v[STAT_fetches]++;
	s->last_fetch[s->vw[slot].sched_id] = (uint32_t)slot;
}

void sm_ifetch_done(struct sm *s, uint32_t slot)
{
	if (slot < s->nslots)
		s->w[slot].fetch_pending = false;
}
