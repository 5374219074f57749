/*
 * fetch.c -- the front end of an SM: instruction fetch through the L1
 * I-cache, decode, and the per-warp I-buffers (see fetch.h).
 *
 * Each cycle the fetch policy picks one eligible warp (not finished, not at
 * a barrier, I-buffer not full, no I-cache miss outstanding, no unresolved
 * control hazard), and again for another warp up to fetch_per_cycle times
 * (GPGPU-Sim's inst_fetch_throughput).  A hit delivers up to fetch_width consecutive
 * instructions of one 128-byte line into the warp's I-buffer, each usable
 * fetch_latency cycles later (decode); a miss parks the warp until the line
 * arrives (sm_ifetch_done).  The decoded code is the launch's (sm_env.dec);
 * the I-buffer operations the issue stage shares are in warpstate.c.
 */
#include <string.h>

#include "core/core_counters.h"
#include "core/core_params.h"
#include "core/fetch.h"
#include "core/issue.h"
#include "core/ldst.h"
#include "core/sm.h"
#include "core/warpstate.h"

/* One fetch for warp `slot`: an I-cache access and, on a hit, up to
 * fetch_width instructions into its I-buffer. */
static void fetch_warp(struct sm *s, uint32_t slot, uint64_t now)
{
	const struct dec_module *dm = s->env.dec;
	struct sm_warp *w = &s->w[slot];
	const struct dec_func *df = &dm->f[w->fetch_fn];
	uint64_t addr = df->base + (uint64_t)(w->fetch_pc < 0 ? 0 : w->fetch_pc) * CODE_INSN_BYTES;
	enum ifetch_result fr = ldst_ifetch(s->ldst, slot, addr, now);
	if (fr != IFETCH_HIT) {
		w->fetch_pending = fr == IFETCH_PENDING;
		sm_warp_mark_fetch(s, slot);
		return;
	}
	if (s->fpol->on_fetch)
		s->fpol->on_fetch(s->fpol_st, &s->view, slot);
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
		sm_warp_mark_dirty(s, slot);
		w->fetch_pc++;
		/* stop at a line boundary: the next line is another I-cache access */
		if (((addr + (uint64_t)(k + 1) * CODE_INSN_BYTES) & 127) == 0 || !e->d)
			break;
	}
	sm_warp_head_sync(w);
	s->stats->v[STAT_fetches]++;
	s->last_fetch[s->vw[slot].sched_id] = slot;
}

void sm_fetch_tick(struct sm *s, uint64_t now)
{
	bool any = false;
	uint32_t room = cfg_int(s->cfg, CFG_fetch_on_empty) ? 1 : s->ibuf_depth; /* fetch while ib_count < room */
	/* A warp is eligible when valid, not finished, not at a barrier, with
	 * room in its I-buffer, no I-cache miss outstanding, a pc to fetch, and
	 * past its control hazard (fetch_block_until).  All but the last change
	 * only with the events that mark the warp dirty (issue stage, CTA launch,
	 * barrier release) or fetch_mark (I-cache miss and fill), so they are
	 * rechecked for those warps only (fetch_cand); the time condition is
	 * checked every cycle for the candidates.  s->eligible holds false for
	 * every non-candidate. */
	for (uint32_t wd = 0, nwd = (s->nslots + 63) / 64; wd < nwd; wd++) {
		uint64_t cand = s->fetch_cand[wd];
		for (uint64_t bits = s->fetch_dirty[wd] | s->dirty_bits[wd]; bits; bits &= bits - 1) {
			uint32_t i = wd * 64 + (uint32_t)__builtin_ctzll(bits);
			const struct sm_warp *w = &s->w[i];
			if (w->valid && !w->finished && !w->at_barrier && w->ib_count < room && !w->fetch_pending &&
			    w->fetch_fn >= 0) {
				cand |= 1ull << (i & 63);
			} else {
				cand &= ~(1ull << (i & 63));
				s->eligible[i] = false;
			}
		}
		s->fetch_dirty[wd] = 0;
		for (uint64_t bits = cand; bits; bits &= bits - 1) {
			uint32_t i = wd * 64 + (uint32_t)__builtin_ctzll(bits);
			struct sm_warp *w = &s->w[i];
			if (!w->valid) { /* its CTA completed */
				cand &= ~(1ull << (i & 63));
				s->eligible[i] = false;
				continue;
			}
			bool el = now >= w->fetch_block_until;
			if (el && w->ctrl_pending) {
				w->ctrl_pending = false;
				sm_issue_ctrl_resolved(s, i);
			}
			s->eligible[i] = el;
			any |= el;
		}
		s->fetch_cand[wd] = cand;
	}
	s->fetch_quiet = !any; /* for sleeping (sm_next_event) */
	if (!any)
		return;
	/* fetch_per_cycle fetches, each for another warp (GPGPU-Sim's
	 * inst_fetch_throughput rounds of fetch and decode in one cycle) */
	for (int64_t n = cfg_int(s->cfg, CFG_fetch_per_cycle); n > 0; n--) {
		int32_t slot = s->fpol->choose(s->fpol_st, &s->view, s->eligible, s->pol, s->pol_st);
		if (slot < 0 || (uint32_t)slot >= s->nslots || !s->eligible[slot])
			return;
		fetch_warp(s, (uint32_t)slot, now);
		s->eligible[slot] = false; /* once a cycle (rechecked next cycle: it is a candidate) */
	}
}
