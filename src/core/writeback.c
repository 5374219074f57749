/*
 * writeback.c -- the writeback stage of an SM: result buses (see writeback.h).
 *
 * Completed instructions wait in a binary min-heap ordered by completion
 * cycle (equal cycles leave in a deterministic heap order).  Each cycle up to `result_buses` instructions
 * with destination registers write back (instructions without one --
 * stores, branches -- retire without a bus); each releases its scoreboard
 * entries, and a finished warp's last writeback lets its CTA complete.
 */
#include <stdlib.h>

#include "core/sm.h"
#include "core/writeback.h"
#include "gpu/gpu.h"

/* ---- writeback queue (binary min-heap on the ready cycle) ---- */

static bool wb_push(struct sm_wb_queue *q, const struct sm_op *op)
{
	if (q->n == q->cap) {
		uint32_t nc = q->cap ? q->cap * 2 : 64;
		struct sm_op *n = realloc(q->q, nc * sizeof *n);
		if (!n)
			return false;
		q->q = n;
		q->cap = nc;
	}
	uint32_t i = q->n++;
	q->q[i] = *op;
	while (i) {
		uint32_t p = (i - 1) / 2;
		if (q->q[p].ready <= q->q[i].ready)
			break;
		struct sm_op t = q->q[p];
		q->q[p] = q->q[i];
		q->q[i] = t;
		i = p;
	}
	return true;
}

static void wb_pop(struct sm_wb_queue *q, struct sm_op *out)
{
	*out = q->q[0];
	q->q[0] = q->q[--q->n];
	uint32_t i = 0;
	for (;;) {
		uint32_t l = 2 * i + 1, r = l + 1, m = i;
		if (l < q->n && q->q[l].ready < q->q[m].ready)
			m = l;
		if (r < q->n && q->q[r].ready < q->q[m].ready)
			m = r;
		if (m == i)
			break;
		struct sm_op t = q->q[m];
		q->q[m] = q->q[i];
		q->q[i] = t;
		i = m;
	}
}

void sm_writeback_push(struct sm *s, const struct sm_op *op, uint64_t ready)
{
	struct sm_op o = *op;
	o.ready = ready;
	if (!wb_push(&s->wb, &o))
		s->gpu->oom = true;
}

/* ---- the writeback stage ---- */

void sm_writeback_tick(struct sm *s, uint64_t now)
{
	uint32_t buses = (uint32_t)cfg_int(s->cfg, CFG_result_buses);
	while (s->wb.n && s->wb.q[0].ready <= now && buses) {
		struct sm_op op;
		wb_pop(&s->wb, &op);
		/* a DWR large warp releases every partner sub-warp's registers */
		for (unsigned i = 1; i <= op.npart; i++) {
			struct sm_warp *pw = &s->w[op.part_slot[i - 1]];
			for (unsigned k = 0; op.d && k < op.d->ndst; k++)
				sb_release(&pw->sb, op.part_fb[i - 1] + (uint32_t)op.d->dst[k]);
			pw->inflight--;
			pw->dirty = true;
			if (pw->finished)
				sm_cta_check(s, pw->cta_slot, now);
		}
		struct sm_warp *w = &s->w[op.slot];
		if (op.d)
			for (unsigned k = 0; k < op.d->ndst; k++)
				sb_release(&w->sb, op.frame_base + (uint32_t)op.d->dst[k]);
		w->inflight--;
		if (op.d && op.d->in->op == OP_CP && op.d->in->mode == MODE_NONE && w->cp_pending[op.cp_group])
			w->cp_pending[op.cp_group]--; /* the copy's data arrived */
		w->dirty = true;
		if (op.d && op.d->ndst)
			buses--;
		s->progress = true;
		if (w->finished)
			sm_cta_check(s, w->cta_slot, now);
	}
}
