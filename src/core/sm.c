/*
 * sm.c -- the SM pipeline: writeback, execute/dispatch, operand collect,
 * issue, fetch/decode, ticked back to front (see sm.h for the model).
 *
 * Stall classification (one reason per scheduler per cycle without issue),
 * by priority, from the scheduler's live warps: structural (a warp had a
 * ready instruction but no free operand collector / unit port) > data
 * (scoreboard) > control (I-buffer flushed by an unresolved control
 * instruction) > fetch (empty I-buffer, I-cache miss, decode) > barrier >
 * exit (finished warps waiting for their CTA) > idle (no warp at all).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/ldst.h"
#include "core/sm.h"
#include "gpu/gpu.h"

enum stall { ST_IDLE, ST_EXIT, ST_BARRIER, ST_FETCH, ST_CONTROL, ST_DATA, ST_STRUCT };
static const enum stat_id stall_stat[] = {STAT_stall_idle, STAT_stall_exit, STAT_stall_barrier, STAT_stall_fetch,
					  STAT_stall_control, STAT_stall_data, STAT_stall_structural};

/* ---- writeback queue (min-heap on ready cycle, ties by insertion) ---- */

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

/* ---- creation ---- */

struct sm *sm_create(struct gpu *g, uint32_t id, const struct ws_config *cfg, uint32_t ctas_per_sm)
{
	struct sm *s = calloc(1, sizeof *s);
	if (!s)
		return NULL;
	s->id = id;
	s->gpu = g;
	s->cfg = cfg;
	s->ws = (uint32_t)cfg_int(cfg, CFG_warp_size);
	s->nsched = (uint32_t)cfg_int(cfg, CFG_num_schedulers);
	s->nslots = (uint32_t)cfg_int(cfg, CFG_max_warps_per_sm);
	s->nctaslots = ctas_per_sm;
	s->ibuf_depth = (uint32_t)cfg_int(cfg, CFG_ibuf_depth);
	s->w = calloc(s->nslots, sizeof *s->w);
	s->cta = calloc(s->nctaslots, sizeof *s->cta);
	s->vw = calloc(s->nslots, sizeof *s->vw);
	s->vc = calloc(s->nctaslots, sizeof *s->vc);
	s->order = calloc(s->nslots, sizeof *s->order);
	s->live = calloc(s->nslots, sizeof *s->live);
	s->eligible = calloc(s->nslots, sizeof *s->eligible);
	s->ncoll_per = (uint32_t)cfg_int(cfg, CFG_opcoll_per_unit);
	s->coll = calloc((size_t)s->nsched * CU_COUNT * s->ncoll_per, sizeof *s->coll);
	s->coll_fifo = calloc((size_t)s->nsched * CU_COUNT * s->ncoll_per, sizeof *s->coll_fifo);
	s->nbanks = (uint32_t)cfg_int(cfg, CFG_reg_banks);
	s->bank_busy = calloc(s->nbanks, sizeof *s->bank_busy);
	if (!s->w || !s->cta || !s->vw || !s->vc || !s->order || !s->live || !s->eligible || !s->coll || !s->coll_fifo ||
	    !s->bank_busy)
		goto fail;
	for (uint32_t c = 0; c < s->nctaslots; c++) {
		s->cta[c].slots = calloc(s->nslots, sizeof(uint32_t));
		if (!s->cta[c].slots)
			goto fail;
		s->vc[c].first_barrier_hit = UINT64_MAX;
	}
	static const enum cfg_param nunit_param[CU_COUNT] = {CFG_num_sp_units, CFG_num_sfu_units, CFG_num_dp_units,
							     CFG_num_int_units, CFG_num_ldst_units};
	for (int k = 0; k < CU_COUNT; k++) {
		s->nunits[k] = (uint32_t)cfg_int(cfg, nunit_param[k]);
		s->units[k] = calloc(s->nunits[k] ? s->nunits[k] : 1, sizeof(struct sm_unit));
		if (!s->units[k])
			goto fail;
	}
	for (uint32_t i = 0; i < s->nslots; i++) {
		s->vw[i].slot = i;
		s->vw[i].sched_id = i % s->nsched;
		s->vw[i].ibuf_depth = (uint8_t)s->ibuf_depth;
	}
	s->view = (struct sched_view){.nsched = s->nsched, .nslots = s->nslots, .warps = s->vw,
				      .nctas = s->nctaslots, .ctas = s->vc};
	s->pol = g->pol;
	s->fpol = g->fpol;
	struct sched_create_args a = {.cfg = cfg, .sm = id, .nsched = s->nsched, .nslots = s->nslots,
				      .nctas = s->nctaslots};
	s->pol_st = s->pol->create(&a);
	s->fpol_st = s->fpol->create(&a);
	s->ldst = ldst_create(s, cfg);
	if (!s->pol_st || !s->fpol_st || !s->ldst)
		goto fail;
	return s;
fail:
	sm_destroy(s);
	return NULL;
}

void sm_destroy(struct sm *s)
{
	if (!s)
		return;
	for (uint32_t i = 0; s->w && i < s->nslots; i++)
		sb_destroy(&s->w[i].sb);
	for (uint32_t c = 0; s->cta && c < s->nctaslots; c++) {
		free(s->cta[c].slots);
		func_cta_destroy(s->cta[c].fc);
	}
	for (int k = 0; k < CU_COUNT; k++)
		free(s->units[k]);
	if (s->pol_st)
		s->pol->destroy(s->pol_st);
	if (s->fpol_st)
		s->fpol->destroy(s->fpol_st);
	ldst_destroy(s->ldst);
	free(s->w);
	free(s->cta);
	free(s->vw);
	free(s->vc);
	free(s->order);
	free(s->live);
	free(s->eligible);
	free(s->coll);
	free(s->coll_fifo);
	free(s->bank_busy);
	free(s->wb.q);
	free(s);
}

/* ---- CTAs ---- */

bool sm_can_accept_cta(const struct sm *s, uint32_t warps_per_cta)
{
	return s->live_ctas < s->nctaslots && s->used_slots + warps_per_cta <= s->nslots;
}

static void live_rebuild(struct sm *s)
{
	s->nlive = 0;
	for (uint32_t i = 0; i < s->nslots; i++)
		if (s->w[i].valid)
			s->live[s->nlive++] = i;
	s->view.live = s->live;
	s->view.nlive = s->nlive;
}

/* Register-id base of the warp's current frame (changes at calls and returns). */
static void warp_sync_frame(struct sm *s, struct sm_warp *w)
{
	if (w->fw->sp)
		w->frame_base = w->fw->stack[w->fw->sp - 1].reg_off / s->ws;
}

/* Point the front end at the warp's current pc (at launch). */
static void warp_sync_fetch(struct sm_warp *w)
{
	int32_t fn;
	w->fetch_pc = func_warp_pc(w->fw, &fn);
	w->fetch_fn = fn;
}

bool sm_launch_cta(struct sm *s, struct func_cta *fc, uint64_t now)
{
	uint32_t c;
	for (c = 0; c < s->nctaslots && s->cta[c].valid; c++)
		;
	if (c == s->nctaslots)
		return false;
	struct sm_cta *ct = &s->cta[c];
	ct->valid = true;
	ct->fc = fc;
	ct->nwarps = fc->nwarps;
	ct->finished_warps = 0;
	ct->launch_cycle = now;
	ct->phase_start = now;
	ct->phase = 0;
	uint32_t k = 0;
	struct gpu *g = s->gpu;
	for (uint32_t i = 0; i < s->nslots && k < fc->nwarps; i++) {
		if (s->w[i].valid)
			continue;
		struct sm_warp *w = &s->w[i];
		struct scoreboard sb = w->sb;
		memset(w, 0, sizeof *w);
		w->sb = sb;
		sb_clear(&w->sb);
		w->valid = true;
		w->dirty = true;
		w->fw = &fc->warps[k];
		w->fc = fc;
		w->cta_slot = c;
		w->launch_cycle = now;
		warp_sync_frame(s, w);
		warp_sync_fetch(w);
		if (!sb_reserve(&w->sb, (uint32_t)(w->fw->regs_cap / s->ws) + 64))
			return false;
		ct->slots[k] = i;
		struct sched_warp *v = &s->vw[i];
		v->valid = true;
		v->finished = v->at_barrier = v->ibuf_head_valid = v->ready = v->long_latency_wait = false;
		v->ibuf_count = 0;
		v->age = g->next_age++;
		v->cta_slot = c;
		v->cta_id = fc->linear;
		v->warp_in_cta = k;
		v->insts_issued = 0;
		v->stall_cycles = 0;
		k++;
		/* a warp with no threads at all (impossible by construction) would be finished at once */
	}
	s->used_slots += fc->nwarps;
	s->live_ctas++;
	live_rebuild(s);
	s->vc[c] = (struct sched_cta){.valid = true, .cta_id = fc->linear, .nwarps = fc->nwarps,
				      .launch_cycle = now, .first_barrier_hit = UINT64_MAX};
	s->view.cycle = now;
	if (s->pol->on_cta_launch)
		s->pol->on_cta_launch(s->pol_st, &s->view, c);
	return true;
}

/* A warp-phase of CTA c ended at `now` (barrier release, or the exit point).
 * Warp k took T_k = arrive_k - phase_start; RTRU = sum(maxT - T_k) / (N maxT). */
static void phase_end(struct sm *s, uint32_t c, uint64_t now, bool at_exit, const uint64_t *arrive, const uint32_t *slots,
		      uint32_t n)
{
	struct sm_cta *ct = &s->cta[c];
	struct ws_stats *st = s->gpu->stats;
	uint64_t maxT = 0, sumT = 0;
	for (uint32_t k = 0; k < n; k++) {
		uint64_t T = arrive[k] - ct->phase_start;
		sumT += T;
		if (T > maxT)
			maxT = T;
	}
	if (n && maxT) {
		uint64_t idle = n * maxT - sumT;
		st->v[STAT_warp_phases]++;
		st->v[STAT_rtru_ppm_sum] += idle * 1000000 / (n * maxT);
		st->v[STAT_rtru_idle_cycles] += idle;
		st->v[STAT_rtru_span_cycles] += n * maxT;
	}
	struct phase_trace *tr = s->gpu->L->trace;
	if (tr)
		for (uint32_t k = 0; k < n; k++) {
			struct phase_event e = {.launch = s->gpu->L->launch_no, .sm = s->id, .cta = ct->fc->linear,
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
	struct ws_stats *st = s->gpu->stats;
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
	for (uint32_t k = 0; k < ct->nwarps; k++) {
		struct sm_warp *w = &s->w[ct->slots[k]];
		st->v[STAT_warp_cycles] += now - w->launch_cycle;
		st->v[STAT_warp_exit_cycles] += now - w->finish_cycle;
		w->valid = false;
		s->vw[ct->slots[k]].valid = false;
	}
	s->view.cycle = now;
	if (s->pol->on_cta_exit)
		s->pol->on_cta_exit(s->pol_st, &s->view, c);
	s->vc[c].valid = false;
	s->used_slots -= ct->nwarps;
	s->live_ctas--;
	live_rebuild(s);
	func_cta_destroy(ct->fc);
	ct->fc = NULL;
	ct->valid = false;
	s->gpu->ctas_done++;
	s->gpu->last_retire = now;
	s->progress = true;
}

/* After a functional step: warps of CTA c released from a barrier. */
static void barrier_scan(struct sm *s, uint32_t c, uint64_t now)
{
	struct sm_cta *ct = &s->cta[c];
	bool released = false;
	uint32_t waiting = 0, n = 0;
	uint64_t arrive[64];
	uint32_t slots[64];
	for (uint32_t k = 0; k < ct->nwarps; k++) {
		uint32_t slot = ct->slots[k];
		struct sm_warp *w = &s->w[slot];
		struct sched_warp *v = &s->vw[slot];
		if (v->at_barrier && w->fw->wait != WAIT_BARRIER) {
			v->at_barrier = false;
			w->dirty = true;
			s->gpu->stats->v[STAT_warp_barrier_cycles] += now - w->wait_since;
			released = true;
			if (n < 64) {
				arrive[n] = w->wait_since;
				slots[n++] = slot;
			}
		}
		waiting += v->at_barrier;
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

static void warp_finish(struct sm *s, uint32_t slot, uint64_t now)
{
	struct sm_warp *w = &s->w[slot];
	if (w->finished)
		return;
	w->finished = true;
	w->finish_cycle = now;
	s->gpu->last_retire = now;
	w->ib_count = 0;
	s->vw[slot].finished = true;
	s->vw[slot].ibuf_count = 0;
	s->vw[slot].ibuf_head_valid = false;
	s->cta[w->cta_slot].finished_warps++;
	s->vc[w->cta_slot].warps_finished++;
}

/* ---- writeback ---- */

static void stage_writeback(struct sm *s, uint64_t now)
{
	uint32_t buses = (uint32_t)cfg_int(s->cfg, CFG_result_buses);
	while (s->wb.n && s->wb.q[0].ready <= now && buses) {
		struct sm_op op;
		wb_pop(&s->wb, &op);
		struct sm_warp *w = &s->w[op.slot];
		if (op.d)
			for (unsigned k = 0; k < op.d->ndst; k++)
				sb_release(&w->sb, op.frame_base + (uint32_t)op.d->dst[k]);
		w->inflight--;
		w->dirty = true;
		if (op.d && op.d->ndst)
			buses--;
		s->progress = true;
		if (w->finished)
			cta_try_release(s, w->cta_slot, now);
	}
}

/* ---- dispatch from collectors to units ---- */

static struct sm_collector *coll_at(struct sm *s, uint32_t sched, uint32_t cu, uint32_t k)
{
	return &s->coll[((size_t)sched * CU_COUNT + cu) * s->ncoll_per + k];
}

static void stage_dispatch(struct sm *s, uint64_t now)
{
	if (!s->busy_coll)
		return;
	uint32_t simd = (uint32_t)cfg_int(s->cfg, CFG_simd_width);
	uint32_t passes = (s->ws + simd - 1) / simd;
	/* oldest instruction first (collectors in issue order) */
	for (uint32_t i = 0; i < s->busy_coll; i++) {
		struct sm_collector *c = &s->coll[s->coll_fifo[i]];
		if (!c->busy || c->op.reads_left || c->since >= now)
			continue;
		const struct dec_insn *d = c->op.d;
		uint32_t cu = d ? d->cu : CU_SP;
		if (cu == CU_LDST && d && d->is_mem) {
			if (!ldst_accept(s->ldst, &c->op, now))
				continue;
			c->busy = false;
			continue;
		}
		uint32_t nu = s->nunits[cu];
		struct sm_unit *u = NULL;
		for (uint32_t k = 0; k < nu; k++)
			if (s->units[cu][k].busy_until <= now) {
				u = &s->units[cu][k];
				break;
			}
		if (!u)
			continue;
		uint32_t ii = d ? d->ii : 1, lat = d ? d->lat : 1;
		u->busy_until = now + (uint64_t)ii * passes;
		sm_writeback_push(s, &c->op, now + lat + (uint64_t)(passes - 1) * ii);
		c->busy = false;
	}
	/* drop the dispatched collectors from the issue-order list */
	uint32_t k = 0;
	for (uint32_t i = 0; i < s->busy_coll; i++)
		if (s->coll[s->coll_fifo[i]].busy)
			s->coll_fifo[k++] = s->coll_fifo[i];
	s->busy_coll = k;
}

/* ---- operand collection: one read per register bank per cycle ---- */

static void stage_operands(struct sm *s, uint64_t now)
{
	if (!s->busy_coll)
		return;
	for (uint32_t i = 0; i < s->busy_coll; i++) {
		struct sm_collector *c = &s->coll[s->coll_fifo[i]];
		if (!c->busy || !c->op.reads_left || c->since >= now)
			continue;
		for (unsigned r = 0; r < c->op.nreads; r++) {
			int16_t b = c->op.banks[r];
			if (b < 0)
				continue;
			if (s->bank_busy[b] == now + 1) { /* bank already read this cycle */
				s->gpu->stats->v[STAT_regbank_conflicts]++;
				continue;
			}
			s->bank_busy[b] = now + 1;
			c->op.banks[r] = -1;
			c->op.reads_left--;
		}
	}
}

/* ---- issue ---- */

static bool head_ready_sb(const struct sm_warp *w, const struct dec_insn *d, bool *longlat)
{
	*longlat = false;
	if (!d)
		return true;
	/* a memory fence waits until the warp's earlier stores are acknowledged */
	if ((d->in->op == OP_MEMBAR || d->in->op == OP_FENCE) && w->pending_stores)
		return false;
	bool ok = true;
	for (unsigned k = 0; k < d->nsrc; k++) {
		uint32_t r = w->frame_base + (uint32_t)d->src[k];
		if (sb_test(&w->sb, r)) {
			ok = false;
			if (sb_test_long(&w->sb, r))
				*longlat = true;
		}
	}
	for (unsigned k = 0; k < d->ndst; k++) {
		uint32_t r = w->frame_base + (uint32_t)d->dst[k];
		if (sb_test(&w->sb, r)) {
			ok = false;
			if (sb_test_long(&w->sb, r))
				*longlat = true;
		}
	}
	return ok;
}

static struct sm_collector *free_collector(struct sm *s, uint32_t sched, uint32_t cu)
{
	for (uint32_t k = 0; k < s->ncoll_per; k++) {
		struct sm_collector *c = coll_at(s, sched, cu, k);
		if (!c->busy)
			return c;
	}
	return NULL;
}

static void ib_pop(struct sm *s, uint32_t slot)
{
	struct sm_warp *w = &s->w[slot];
	w->ib_head = (uint8_t)((w->ib_head + 1) % SM_IBUF_MAX);
	w->ib_count--;
}

static void ib_flush(struct sm *s, uint32_t slot)
{
	struct sm_warp *w = &s->w[slot];
	w->ib_count = 0;
	w->ib_head = 0;
}

/* Tell the policy what a setp or branch did (BOWS/DDOS hooks). */
static void exec_event(struct sm *s, uint32_t slot, int32_t fn, int32_t pc, const struct dec_insn *d,
		       const struct func_step_info *info)
{
	const struct ptx_insn *in = d->in;
	struct sched_exec_event ev = {.slot = slot, .fn = fn, .pc = pc, .opcode = in->op, .active = info->active,
				      .exec = info->exec};
	if (in->op == OP_SETP) {
		ev.is_setp = true;
		struct sm_warp *w = &s->w[slot];
		if (info->exec && w->fw->sp) {
			unsigned lane = (unsigned)__builtin_ctzll(info->exec);
			const uint64_t *regs = w->fw->regs + w->fw->stack[w->fw->sp - 1].reg_off;
			for (unsigned k = 0; k < 2 && k + 1 < in->nopd; k++) {
				const struct ptx_operand *o = &in->opd[k + 1];
				ev.src_values[k] = o->kind == OPD_REG ? regs[(size_t)o->reg * s->ws + lane]
								      : o->kind == OPD_IMM ? o->imm : 0;
			}
			if (in->opd[0].kind == OPD_REG)
				ev.result = regs[(size_t)in->opd[0].reg * s->ws + lane];
		}
	} else {
		ev.is_branch = true;
		int32_t target = in->op == OP_BRA ? in->opd[0].target : -1;
		ev.backward = target >= 0 && target <= pc;
		ev.taken = in->op == OP_BRA ? info->exec != 0 : true;
	}
	s->pol->on_exec(s->pol_st, &s->view, &ev);
}

/* Issue the head instruction of warp `slot`.  False on a functional error. */
static bool issue_one(struct sm *s, uint32_t sched, uint32_t slot, struct sm_collector *coll, uint64_t now)
{
	struct gpu *g = s->gpu;
	struct sm_warp *w = &s->w[slot];
	struct ibuf_entry *e = &w->ib[w->ib_head];
	const struct dec_insn *d = e->d;
	uint32_t frame_base = w->frame_base;
	struct func_step_info *info = &coll->info;
	uint32_t cta = w->cta_slot;
	int32_t e_fn = e->fn, e_pc = e->pc;
	g->L->clock = now;
	if (!func_warp_step(g->L, w->fc, w->fw, info))
		return false;
	ib_pop(s, slot);
	struct ws_stats *st = g->stats;
	st->v[STAT_simd_lanes_active] += (uint64_t)__builtin_popcountll(info->active);
	st->v[STAT_simd_lanes_total] += s->ws;
	s->vw[slot].insts_issued++;
	s->vc[cta].insts_issued++;
	/* scoreboard: destinations pending until writeback */
	bool longlat = false;
	if (d && d->is_mem && d->ndst) {
		enum ptx_space sp = (enum ptx_space)info->space;
		longlat = sp == SPACE_GLOBAL || sp == SPACE_LOCAL || sp == SPACE_NONE;
	}
	/* stores and reductions are pending for membar from issue until acknowledged */
	if (d && (d->in->op == OP_ST || d->in->op == OP_RED))
		w->pending_stores++;
	if (d)
		for (unsigned k = 0; k < d->ndst; k++)
			if (!sb_set(&w->sb, frame_base + (uint32_t)d->dst[k], longlat))
				g->oom = true;
	w->inflight++;
	/* into the operand collector */
	w->dirty = true;
	s->coll_fifo[s->busy_coll++] = (uint32_t)(coll - s->coll);
	coll->busy = true;
	coll->since = now;
	coll->op = (struct sm_op){.d = d, .slot = slot, .frame_base = frame_base, .sched = (uint8_t)sched,
				  .longlat = longlat, .mem = info};
	if (d) {
		for (unsigned k = 0; k < d->nsrc; k++)
			coll->op.banks[k] = (int16_t)((frame_base + (uint32_t)d->src[k] + slot) % s->nbanks);
		coll->op.nreads = d->nsrc;
		coll->op.reads_left = d->nsrc;
	}
	/* barrier arrival */
	if (info->barrier_wait) {
		s->vw[slot].at_barrier = true;
		w->wait_since = now;
		if (s->vc[cta].first_barrier_hit == UINT64_MAX)
			s->vc[cta].first_barrier_hit = now;
		if (s->pol->on_barrier_arrive)
			s->pol->on_barrier_arrive(s->pol_st, &s->view, cta, slot);
	}
	if (d && (d->is_barrier || info->exited))
		barrier_scan(s, cta, now);
	if (info->exited)
		warp_finish(s, slot, now);
	else {
		/* redirect the front end when the next pc is not the next I-buffer entry */
		int32_t fn;
		int32_t pc = func_warp_pc(w->fw, &fn);
		int32_t efn = w->fetch_fn, epc = w->fetch_pc;
		if (w->ib_count) {
			efn = w->ib[w->ib_head].fn;
			epc = w->ib[w->ib_head].pc;
		}
		if ((d && d->is_ctrl) || !d || pc != epc || fn != efn) {
			ib_flush(s, slot);
			st->v[STAT_ibuf_flushes]++;
			w->fetch_fn = fn;
			w->fetch_pc = pc;
			w->fetch_block_until = now + (uint64_t)cfg_int(s->cfg, CFG_branch_latency);
			w->ctrl_pending = true;
		}
		/* otherwise the I-buffer and the fetch pointer already follow the warp's path */
		warp_sync_frame(s, w);
	}
	if (s->pol->on_issue)
		s->pol->on_issue(s->pol_st, &s->view, sched, slot);
	if (s->pol->on_exec && d && (d->in->op == OP_SETP || d->in->op == OP_BRA || d->in->op == OP_BRX))
		exec_event(s, slot, e_fn, e_pc, d, info);
	s->progress = true;
	return true;
}

static enum stall warp_reason(struct sm *s, uint32_t slot, uint64_t now)
{
	struct sm_warp *w = &s->w[slot];
	if (w->finished)
		return ST_EXIT;
	if (s->vw[slot].at_barrier)
		return ST_BARRIER;
	if (!w->ib_count)
		return w->ctrl_pending ? ST_CONTROL : ST_FETCH;
	const struct ibuf_entry *e = &w->ib[w->ib_head];
	if (e->ready > now)
		return ST_FETCH;
	bool ll;
	if (!head_ready_sb(w, e->d, &ll))
		return ST_DATA;
	return ST_STRUCT;
}

static bool stage_issue(struct sm *s, uint64_t now)
{
	s->view.cycle = now;
	/* refresh the per-warp view fields the policies read */
	for (uint32_t k = 0; k < s->nlive; k++) {
		uint32_t i = s->live[k];
		struct sched_warp *v = &s->vw[i];
		struct sm_warp *w = &s->w[i];
		/* the head's decode latency can expire without any event */
		if (!w->dirty && !(w->ib_count && w->ib[w->ib_head].ready == now))
			continue;
		w->dirty = false;
		v->ibuf_count = w->ib_count;
		v->ibuf_head_valid = w->ib_count && w->ib[w->ib_head].ready <= now;
		bool ll = false;
		v->ready = v->ibuf_head_valid && !v->at_barrier && head_ready_sb(w, w->ib[w->ib_head].d, &ll);
		v->long_latency_wait = ll;
	}
	uint32_t per = (uint32_t)cfg_int(s->cfg, CFG_issue_per_sched);
	for (uint32_t sc = 0; sc < s->nsched; sc++) {
		uint32_t n = s->pol->order(s->pol_st, &s->view, sc, s->order);
		uint32_t issued = 0;
		uint32_t used_cu = 0;
		for (uint32_t k = 0; k < n && issued < per; k++) {
			uint32_t slot = s->order[k];
			if (slot >= s->nslots || slot % s->nsched != sc)
				continue;
			struct sched_warp *v = &s->vw[slot];
			if (!v->valid || v->finished || v->at_barrier || !v->ready)
				continue;
			struct sm_warp *w = &s->w[slot];
			const struct dec_insn *d = w->ib[w->ib_head].d;
			uint32_t cu = d ? d->cu : CU_SP;
			if (used_cu & (1u << cu))
				continue; /* dual issue goes to different units */
			struct sm_collector *c = free_collector(s, sc, cu);
			if (!c)
				continue;
			if (!issue_one(s, sc, slot, c, now))
				return false;
			used_cu |= 1u << cu;
			issued++;
			if (per > 1) /* the same warp may issue its next instruction (Pascal dual issue) */
				v->ready = s->w[slot].ib_count && s->w[slot].ib[s->w[slot].ib_head].ready <= now &&
					   !v->at_barrier && !v->finished &&
					   head_ready_sb(&s->w[slot], s->w[slot].ib[s->w[slot].ib_head].d, &(bool){0});
		}
		if (issued) {
			s->gpu->stats->v[STAT_issue_cycles]++;
			continue;
		}
		enum stall best = ST_IDLE;
		for (uint32_t k = 0; k < s->nlive; k++) {
			uint32_t i = s->live[k];
			if (i % s->nsched != sc)
				continue;
			enum stall r = warp_reason(s, i, now);
			if (r == ST_STRUCT || r == ST_DATA)
				s->vw[i].stall_cycles++;
			if (r > best)
				best = r;
		}
		s->gpu->stats->v[stall_stat[best]]++;
	}
	return true;
}

/* ---- fetch / decode ---- */

static void stage_fetch(struct sm *s, uint64_t now)
{
	const struct dec_module *dm = s->gpu->dec;
	bool any = false;
	memset(s->eligible, 0, s->nslots * sizeof *s->eligible);
	for (uint32_t k = 0; k < s->nlive; k++) {
		uint32_t i = s->live[k];
		struct sm_warp *w = &s->w[i];
		bool el = w->valid && !w->finished && !s->vw[i].at_barrier && w->ib_count < s->ibuf_depth &&
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
		w->dirty = true;
		w->fetch_pc++;
		/* stop at a line boundary: the next line is another I-cache access */
		if (((addr + (uint64_t)(k + 1) * CODE_INSN_BYTES) & 127) == 0 || !e->d)
			break;
	}
	s->gpu->stats->v[STAT_fetches]++;
}

void sm_cta_check(struct sm *s, uint32_t cta_slot, uint64_t now) { cta_try_release(s, cta_slot, now); }

void sm_ifetch_done(struct sm *s, uint32_t slot)
{
	if (slot < s->nslots)
		s->w[slot].fetch_pending = false;
}

/* ---- one cycle ---- */

bool sm_cycle(struct sm *s, uint64_t now)
{
	s->progress = false;
	if (!s->live_ctas && !s->wb.n && !ldst_busy(s->ldst))
		return true;
	stage_writeback(s, now);
	ldst_cycle(s->ldst, now);
	stage_dispatch(s, now);
	stage_operands(s, now);
	if (!stage_issue(s, now))
		return false;
	stage_fetch(s, now);
	return true;
}

bool sm_busy(const struct sm *s) { return s->live_ctas || s->wb.n || ldst_busy(s->ldst); }

void sm_mem_reply(struct sm *s, const struct mem_reply *r, uint64_t now) { ldst_reply(s->ldst, r, now); }

void sm_describe(const struct sm *s, char *buf, size_t bufsz, size_t *len, unsigned *shown, unsigned *total)
{
	for (uint32_t i = 0; i < s->nslots; i++) {
		const struct sm_warp *w = &s->w[i];
		if (!w->valid || w->finished)
			continue;
		(*total)++;
		if (*shown >= 8 || *len + 300 >= bufsz)
			continue;
		char d[400];
		func_warp_describe(s->gpu->L, w->fc, w->fw, d, sizeof d);
		*len += (size_t)snprintf(buf + *len, bufsz - *len,
					 "\n  SM %u slot %u: %s; I-buffer %u, scoreboard pending %u, in flight %u%s", s->id,
					 i, d, w->ib_count, w->sb.npending, w->inflight,
					 w->fetch_pending ? ", I-cache miss pending" : "");
		(*shown)++;
	}
}
