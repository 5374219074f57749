/*
 * writeback.c -- the writeback stage of an SM: result buses (see writeback.h).
 *
 * Completed instructions wait in a binary min-heap ordered by completion
 * cycle (equal cycles leave in a deterministic heap order).  Each cycle up to `result_buses` instructions
 * with destination registers write back (instructions without one --
 * stores, branches -- retire without a bus); each releases its scoreboard
 * entries, and a finished warp's last writeback lets its CTA complete.
 * With ldst_wb_ports the LD/ST unit's results take no bus but its own
 * port, that many a cycle (GPGPU-Sim's ldst_unit::writeback, one a cycle).
 */
#include <stdlib.h>
#include <string.h>

#include "core/core_counters.h"
#include "core/core_params.h"
#include "core/sm.h"
#include "core/warpstate.h"
#include "core/writeback.h"

/* ---- writeback queue (binary min-heap on the ready cycle) ----
 * The heap moves 16-byte (ready, index) entries; the instructions stay in
 * place in q.  Same comparisons and swaps as a heap of whole instructions,
 * so equal-ready instructions leave in the same order. */

static bool wb_grow(struct sm_wb_queue *q)
{
	uint32_t nc = q->cap ? q->cap * 2 : 64;
	char *b = malloc((size_t)nc * (sizeof *q->q + sizeof *q->h + sizeof *q->fl));
	if (!b)
		return false;
	struct sm_op *nq = (struct sm_op *)b;
	struct sm_wb_ent *nh = (struct sm_wb_ent *)(b + (size_t)nc * sizeof *q->q);
	uint32_t *nf = (uint32_t *)(b + (size_t)nc * (sizeof *q->q + sizeof *q->h));
	if (q->cap) {
		memcpy(nq, q->q, (size_t)q->cap * sizeof *q->q);
		memcpy(nh, q->h, (size_t)q->n * sizeof *q->h);
	}
	/* the queue is full when it grows: every old index is in use */
	uint32_t nfree = 0;
	for (uint32_t i = nc; i-- > q->cap;)
		nf[nfree++] = i;
	free(q->q);
	q->q = nq;
	q->h = nh;
	q->fl = nf;
	q->cap = nc;
	return true;
}

static bool wb_push(struct sm_wb_queue *q, const struct sm_op *op)
{
	if (q->n == q->cap && !wb_grow(q))
		return false;
	uint32_t idx = q->fl[q->cap - q->n - 1]; /* free indices: fl[0 .. cap - n) */
	q->q[idx] = *op;
	uint32_t i = q->n++;
	q->h[i] = (struct sm_wb_ent){.ready = op->ready, .idx = idx};
	while (i) {
		uint32_t p = (i - 1) / 2;
		if (q->h[p].ready <= q->h[i].ready)
			break;
		struct sm_wb_ent t = q->h[p];
		q->h[p] = q->h[i];
		q->h[i] = t;
		i = p;
	}
	return true;
}

static void wb_pop(struct sm_wb_queue *q, struct sm_op *out)
{
	uint32_t idx = q->h[0].idx;
	*out = q->q[idx];
	q->h[0] = q->h[--q->n];
	q->fl[q->cap - q->n - 1] = idx;
	uint32_t i = 0;
	for (;;) {
		uint32_t l = 2 * i + 1, r = l + 1, m = i;
		if (l < q->n && q->h[l].ready < q->h[m].ready)
			m = l;
		if (r < q->n && q->h[r].ready < q->h[m].ready)
			m = r;
		if (m == i)
			break;
		struct sm_wb_ent t = q->h[m];
		q->h[m] = q->h[i];
		q->h[i] = t;
		i = m;
	}
}

void sm_writeback_push(struct sm *s, const struct sm_op *op, uint64_t ready)
{
	struct sm_op o = *op;
	o.ready = ready;
	if (!wb_push(&s->wb, &o))
		s->oom = true;
}

/* ---- the writeback stage ---- */

/* Retire one completed instruction: release its scoreboard entries (and a
 * DWR large warp's partners'), its in-flight count, and let a finished
 * warp's CTA complete. */
static void wb_retire(struct sm *s, const struct sm_op *op, uint64_t now)
{
	/* a DWR large warp releases every partner sub-warp's registers */
	for (unsigned i = 1; i <= op->npart; i++) {
		struct sm_warp *pw = &s->w[op->part_slot[i - 1]];
		for (unsigned k = 0; op->d && k < op->d->ndst; k++)
			sb_release(&pw->sb, op->part_fb[i - 1] + (uint32_t)op->d->dst[k]);
		pw->inflight--;
		sm_warp_mark_dirty(s, op->part_slot[i - 1]);
		if (pw->finished)
			sm_cta_check(s, pw->cta_slot, now);
	}
	struct sm_warp *w = &s->w[op->slot];
	if (op->d)
		for (unsigned k = 0; k < op->d->ndst; k++)
			sb_release(&w->sb, op->frame_base + (uint32_t)op->d->dst[k]);
	w->inflight--;
	if (op->d && op->d->in->op == OP_CP && op->d->in->mode == MODE_NONE && w->cp_pending[op->cp_group])
		w->cp_pending[op->cp_group]--; /* the copy's data arrived */
	if (op->d && op->d->in->op == OP_ATOM && w->pending_atomics)
		w->pending_atomics--; /* atomic_wait: the warp may issue again */
	sm_warp_mark_dirty(s, op->slot);
	s->progress = true;
	if (w->finished)
		sm_cta_check(s, w->cta_slot, now);
}

void sm_writeback_tick(struct sm *s, uint64_t now)
{
	uint32_t buses = (uint32_t)cfg_int(s->cfg, CFG_result_buses);
	uint32_t ports = (uint32_t)cfg_int(s->cfg, CFG_ldst_wb_ports);
	if (!ports) { /* one pool of result buses for every unit */
		while (s->wb.n && s->wb.h[0].ready <= now && buses) {
			struct sm_op op;
			wb_pop(&s->wb, &op);
			wb_retire(s, &op, now);
			if (op.d && op.d->ndst)
				buses--;
		}
		return;
	}
	/* ldst_wb_ports: LD/ST results through their own port; a ready result
	 * whose bus or port is taken this cycle waits for the next (put back
	 * after the walk, with its ready cycle: it leaves first among equals) */
	if (s->wb.held_cap < s->wb.n) { /* room to set every queued result aside */
		struct sm_op *h = realloc(s->wb.held, (size_t)s->wb.cap * sizeof *h);
		if (!h) {
			s->oom = true;
			return;
		}
		s->wb.held = h;
		s->wb.held_cap = s->wb.cap;
	}
	struct sm_op *held = s->wb.held;
	uint32_t nheld = 0;
	while (s->wb.n && s->wb.h[0].ready <= now && (buses || ports)) {
		struct sm_op op;
		wb_pop(&s->wb, &op);
		bool dst = op.d && op.d->ndst, ldst = op.d && op.d->cu == UNIT_LDST;
		if (dst && (ldst ? !ports : !buses)) {
			if (ldst)
				s->stats->v[STAT_wb_ldst_port_waits]++;
			held[nheld++] = op;
			continue;
		}
		wb_retire(s, &op, now);
		if (dst && ldst)
			ports--;
		else if (dst)
			buses--;
	}
	for (uint32_t i = 0; i < nheld; i++)
		if (!wb_push(&s->wb, &held[i]))
			s->oom = true;
}
