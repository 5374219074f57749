/*
 * warpstate.c -- the warp and CTA state the SM's pipeline stages share (see
 * warpstate.h): the I-buffer between fetch and issue, register frames,
 * barriers and warp-phases (RTRU), warp exit and CTA completion.
 */
#include <stdlib.h>

#include "core/core_counters.h"
#include "core/dwr.h"
#include "core/warpstate.h"
#include "sched/sched_util.h"
#include "stats/rtru.h"

/* ---- the I-buffer (filled by fetch.c, drained by issue.c) ---- */

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

void sm_ifetch_done(struct sm *s, uint32_t slot)
{
	if (slot < s->nslots) {
		s->w[slot].fetch_pending = false;
		sm_warp_mark_fetch(s, slot);
	}
}

/* ---- warps and CTAs ---- */

void sm_live_rebuild(struct sm *s)
{
	s->nlive = 0;
	for (uint32_t i = 0; i < s->nslots; i++)
		if (s->w[i].valid)
			s->live[s->nlive++] = i;
	sched_view_sort_ages(&s->view, s->age_sorted, s->age_count);
	/* the candidates by age: the age lists without the finished warps */
	for (uint32_t sc = 0; sc < s->nsched; sc++) {
		const uint32_t *all = s->age_sorted + (size_t)sc * s->nslots;
		uint32_t *cand = s->cand_sorted + (size_t)sc * s->nslots, k = 0;
		for (uint32_t i = 0; i < s->age_count[sc]; i++)
			if (!s->w[all[i]].finished)
				cand[k++] = all[i];
		s->cand_count[sc] = k;
	}
	s->issue_same = false; /* warps came or went: the issue stage must look again */
}

/* Register-id base of the warp's current frame (changes at calls and returns). */
void sm_warp_sync_frame(struct sm *s, struct sm_warp *w)
{
	if (w->fw->sp)
		w->frame_base = w->fw->stack[w->fw->sp - 1].reg_off / s->ws;
}

/* A warp-phase of CTA c ended at `now` (barrier release, or the exit point):
 * its RTRU (stats/rtru.c) and trace records. */
static void phase_end(struct sm *s, uint32_t c, uint64_t now, bool at_exit, const uint64_t *arrive, const uint32_t *slots,
		      uint32_t n)
{
	struct sm_cta *ct = &s->cta[c];
	rtru_phase_add(s->stats, ct->phase_start, arrive, n);
	struct phase_trace *tr = s->L->trace;
	if (tr)
		for (uint32_t k = 0; k < n; k++) {
			struct phase_event e = {.launch = s->L->launch_no, .sm = s->id, .cta = ct->fc->linear,
						.warp = s->w[slots[k]].fw->index, .phase = ct->phase, .exit = at_exit,
						.start = ct->phase_start, .arrive = arrive[k], .end = now};
			trace_add(tr, &e);
		}
	ct->phase_start = now;
	ct->phase++;
}

static void cta_try_release(struct sm *s, uint32_t c, uint64_t now)
{
	struct sm_cta *ct = &s->cta[c];
	if (!ct->valid || ct->finished_warps < ct->nwarps)
		return;
	for (uint32_t k = 0; k < ct->nwarps; k++)
		if (s->w[ct->slots[k]].inflight || s->w[ct->slots[k]].pending_stores)
			return;
	struct ws_stats *st = s->stats;
	{
		/* the last warp-phase ends at the exit point: warps that finished in it */
		uint64_t arrive[64];
		uint32_t slots[64], n = 0;
		for (uint32_t k = 0; k < ct->nwarps && n < 64; k++) {
			struct sm_warp *w = &s->w[ct->slots[k]];
			if (w->finish_cycle >= ct->phase_start) {
				arrive[n] = w->finish_cycle;
				slots[n++] = ct->slots[k];
			}
		}
		phase_end(s, c, now, true, arrive, slots, n);
	}
	uint64_t t = now - ct->launch_cycle;
	st->v[STAT_cta_cycles] += t;
	if (t > st->v[STAT_cta_max_cycles])
		st->v[STAT_cta_max_cycles] = t;
	if (st->v[STAT_cta_min_cycles] == 0 || t < st->v[STAT_cta_min_cycles])
		st->v[STAT_cta_min_cycles] = t;
	/* CTAs are dispatched in linear order: the highest id is the kernel's last-issued CTA */
	if (ct->fc->linear + 1 == s->env.nctas)
		st->v[STAT_last_cta_cycles] += t;
	for (uint32_t k = 0; k < ct->nwarps; k++) {
		struct sm_warp *w = &s->w[ct->slots[k]];
		st->v[STAT_warp_cycles] += now - w->launch_cycle;
		st->v[STAT_warp_exit_cycles] += now - w->finish_cycle;
		w->valid = false;
		sm_warp_publish(s, ct->slots[k]);
	}
	sm_live_rebuild(s);
	s->view.cycle = now;
	if (s->pol->on_cta_exit)
		s->pol->on_cta_exit(s->pol_st, &s->view, c);
	s->vc[c].valid = false;
	s->used_slots -= ct->nwarps;
	s->live_ctas--;
	func_cta_destroy(ct->fc);
	ct->fc = NULL;
	ct->valid = false;
	s->ctas_done++;
	s->retired = true;
	s->progress = true;
}

/* After a functional step: warps of CTA c released from a barrier. */
void sm_barrier_scan(struct sm *s, uint32_t c, uint64_t now)
{
	struct sm_cta *ct = &s->cta[c];
	bool released = false;
	uint32_t waiting = 0, n = 0;
	uint64_t arrive[64];
	uint32_t slots[64];
	for (uint32_t k = 0; k < ct->nwarps; k++) {
		uint32_t slot = ct->slots[k];
		struct sm_warp *w = &s->w[slot];
		if (w->at_barrier && w->fw->wait != WAIT_BARRIER) {
			w->at_barrier = false;
			sm_warp_publish(s, slot);
			sm_warp_mark_dirty(s, slot);
			s->stats->v[STAT_warp_barrier_cycles] += now - w->wait_since;
			released = true;
			if (n < 64) {
				arrive[n] = w->wait_since;
				slots[n++] = slot;
			}
		}
		waiting += w->at_barrier;
	}
	if (released) {
		/* warps that finished during this phase took part in it too */
		for (uint32_t k = 0; k < ct->nwarps && n < 64; k++) {
			struct sm_warp *w = &s->w[ct->slots[k]];
			if (w->finished && w->finish_cycle >= ct->phase_start) {
				arrive[n] = w->finish_cycle;
				slots[n++] = ct->slots[k];
			}
		}
		phase_end(s, c, now, false, arrive, slots, n);
	}
	s->vc[c].warps_at_barrier = waiting;
	if (released) {
		s->vc[c].first_barrier_hit = waiting ? s->vc[c].first_barrier_hit : UINT64_MAX;
		if (s->pol->on_barrier_release)
			s->pol->on_barrier_release(s->pol_st, &s->view, c);
	}
}

void sm_warp_finish(struct sm *s, uint32_t slot, uint64_t now)
{
	struct sm_warp *w = &s->w[slot];
	if (w->finished)
		return;
	w->finished = true;
	w->finish_cycle = now;
	{ /* no longer a candidate of its scheduler (view.cand_sorted) */
		uint32_t sc = s->vw[slot].sched_id, k = 0;
		uint32_t *cand = s->cand_sorted + (size_t)sc * s->nslots;
		for (uint32_t i = 0; i < s->cand_count[sc]; i++)
			if (cand[i] != slot)
				cand[k++] = cand[i];
		s->cand_count[sc] = k;
	}
	s->retired = true;
	w->ib_count = 0;
	sm_warp_head_sync(w);
	sm_warp_publish(s, slot);
	s->vw[slot].ibuf_count = 0;
	s->vw[slot].ibuf_head_valid = false;
	s->cta[w->cta_slot].finished_warps++;
	s->vc[w->cta_slot].warps_finished++;
	if (s->dwr) /* a finished partner no longer holds its group's partner barrier */
		dwr_partner_event(s->dwr, slot, now);
}

void sm_cta_check(struct sm *s, uint32_t cta_slot, uint64_t now) { cta_try_release(s, cta_slot, now); }
