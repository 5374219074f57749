/*
 * warpstate.h -- the warp and CTA state the SM's pipeline stages share, and
 * the only operations on it that more than one stage performs: marking a
 * warp for the issue stage's view refresh or the fetch stage's eligibility
 * check, the I-buffer between fetch and issue, a warp's register frame,
 * barriers and warp-phases, a warp's exit and its CTA's completion.
 *
 * It is the bottom of the core's call graph: sm.c (creation and the cycle)
 * and every stage (fetch.c, issue.c, opcoll.c, ldst.c, writeback.c, dwr.c)
 * may call it; it calls no stage (only DWR's partner-barrier bookkeeping,
 * dwr.h, the policy's hooks, and sched_view_sort_ages() for the view's age
 * lists).  Stages otherwise call only later stages (fetch -> issue ->
 * opcoll -> ldst -> writeback), so the core has no circle (docs/design.md).
 */
#ifndef WARPSIM_CORE_WARPSTATE_H
#define WARPSIM_CORE_WARPSTATE_H

#include <stdint.h>

#include "core/sm.h"

/* Keep ib_head_ready in step after the I-buffer changed. */
static inline void sm_warp_head_sync(struct sm_warp *w)
{
	w->ib_head_ready = w->ib_count ? w->ib[w->ib_head].ready : UINT64_MAX;
}

/* The warp's valid, finished or at_barrier flag changed: copy them into the
 * policies' view (struct sched_warp), the only place those view fields are
 * written.  The core itself reads struct sm_warp. */
static inline void sm_warp_publish(struct sm *s, uint32_t slot)
{
	const struct sm_warp *w = &s->w[slot];
	struct sched_warp *v = &s->vw[slot];
	v->valid = w->valid;
	v->finished = w->finished;
	v->at_barrier = w->at_barrier;
	s->issue_same = false; /* the issue stage must look again (sm_issue_repeats) */
}

/* The I-buffer head or the scoreboard of the warp in `slot` changed (or its
 * barrier or store state did): the issue stage refreshes its view. */
static inline void sm_warp_mark_dirty(struct sm *s, uint32_t slot)
{
	s->dirty_bits[slot >> 6] |= 1ull << (slot & 63);
}

/* The fetch eligibility of warp `slot` may have changed without an
 * issue-stage dirty mark (an I-cache miss or fill): the fetch stage
 * rechecks it. */
static inline void sm_warp_mark_fetch(struct sm *s, uint32_t slot)
{
	s->fetch_dirty[slot >> 6] |= 1ull << (slot & 63);
}

/* Drop the head of a warp's I-buffer (it issued). */
void sm_ibuf_pop(struct sm *s, uint32_t slot);
/* Empty a warp's I-buffer (control flow left the fetched path). */
void sm_ibuf_flush(struct sm *s, uint32_t slot);
/* The I-cache line a warp waited for has arrived. */
void sm_ifetch_done(struct sm *s, uint32_t slot);
/* Register-id base of the warp's current frame (changes at calls and returns). */
void sm_warp_sync_frame(struct sm *s, struct sm_warp *w);
/* After a barrier instruction or an exit of CTA c: release the warps a
 * completed barrier frees, account the warp-phase, tell the policy. */
void sm_barrier_scan(struct sm *s, uint32_t c, uint64_t now);
/* The warp in `slot` exited: it waits at the CTA's exit from now on (and is
 * no longer in its scheduler's candidates, view.cand_sorted). */
void sm_warp_finish(struct sm *s, uint32_t slot, uint64_t now);
/* A finished warp's last instruction wrote back or its last store was
 * acknowledged: its CTA completes now if nothing of it is left in flight. */
void sm_cta_check(struct sm *s, uint32_t cta_slot, uint64_t now);
/* Slots became valid or invalid (CTA launch or completion): rebuild the
 * SM's list of live slots and each scheduler's warps and candidates by age
 * in the policies' view. */
void sm_live_rebuild(struct sm *s);

#endif
