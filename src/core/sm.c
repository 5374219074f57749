/*
 * sm.c -- one SM: creation from its environment (struct sm_env), CTA
 * launch, the cycle that ticks the pipeline stages back to front
 * (writeback.c, the LD/ST unit ldst.c, opcoll.c, issue.c, fetch.c; see
 * sm.h for the model), sleeping while busy, and deadlock descriptions.
 * What several stages do to warps and CTAs -- barriers and warp-phases,
 * warp exit, CTA completion, the I-buffer -- is in warpstate.c, which the
 * stages call instead of calling back into this file.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/params.h"
#include "core/core_params.h"
#include "core/dwr.h"
#include "core/fetch.h"
#include "core/issue.h"
#include "core/ldst.h"
#include "core/opcoll.h"
#include "core/sm.h"
#include "core/warpstate.h"
#include "core/writeback.h"
#include "func/wlog.h"

/* ---- creation ---- */

/* The hold port of the policies' view (sched_hold): the SM's held flags. */
static void sm_hold_set(void *owner, uint32_t slot, bool held)
{
	struct sm *s = owner;
	s->held[slot] = held;
	if (held)
		s->held_bits[slot >> 6] |= 1ull << (slot & 63);
	else
		s->held_bits[slot >> 6] &= ~(1ull << (slot & 63));
}

struct sm *sm_create(const struct sm_env *env, uint32_t id)
{
	struct sm *s = calloc(1, sizeof *s);
	if (!s)
		return NULL;
	const struct ws_config *cfg = env->cfg;
	s->id = id;
	s->env = *env;
	s->cfg = cfg;
	s->ws = (uint32_t)cfg_int(cfg, CFG_warp_size);
	s->nsched = (uint32_t)cfg_int(cfg, CFG_num_schedulers);
	s->nslots = (uint32_t)cfg_int(cfg, CFG_max_warps_per_sm);
	s->nctaslots = env->ctas_per_sm;
	s->ibuf_depth = (uint32_t)cfg_int(cfg, CFG_ibuf_depth);
	s->coll_reads = (uint32_t)cfg_int(cfg, CFG_opcoll_reads_per_cycle);
	s->exec_reg_cycles = (uint32_t)cfg_int(cfg, CFG_exec_reg_cycles);
	s->w = calloc(s->nslots, sizeof *s->w);
	s->cta = calloc(s->nctaslots, sizeof *s->cta);
	s->vw = calloc(s->nslots, sizeof *s->vw);
	s->vc = calloc(s->nctaslots, sizeof *s->vc);
	s->order = calloc(s->nslots, sizeof *s->order);
	s->held = calloc(s->nslots, sizeof *s->held);
	s->live = calloc(s->nslots, sizeof *s->live);
	s->age_sorted = calloc((size_t)s->nsched * s->nslots + 1, sizeof *s->age_sorted);
	s->age_count = calloc(s->nsched + 1, sizeof *s->age_count);
	s->cand_sorted = calloc((size_t)s->nsched * s->nslots + 1, sizeof *s->cand_sorted);
	s->cand_count = calloc(s->nsched + 1, sizeof *s->cand_count);
	s->eligible = calloc(s->nslots, sizeof *s->eligible);
	s->last_fetch = malloc((s->nsched ? s->nsched : 1) * sizeof *s->last_fetch);
	s->sched_busy_until = calloc(s->nsched ? s->nsched : 1, sizeof *s->sched_busy_until);
	for (uint32_t k = 0; s->last_fetch && k < s->nsched; k++)
		s->last_fetch[k] = UINT32_MAX;
	s->ncoll_per = (uint32_t)cfg_int(cfg, CFG_opcoll_per_unit);
	s->coll_generic = cfg_int(cfg, CFG_opcoll_generic) != 0;
	/* opcoll_units (config_check refuses it with sub_core or opcoll_generic):
	 * each unit type's collectors are the SM's, in scheduler 0's groups */
	s->coll_pooled = core_opcoll_pooled(cfg);
	uint32_t per = s->ncoll_per;
	for (uint32_t cu = 0; cu < UNIT_COUNT; cu++) {
		uint32_t n = s->ncoll_per;
		if (s->coll_pooled) {
			n = (uint32_t)cfg_list(cfg, CFG_opcoll_units, (int)cu);
			if (!n)
				n = s->ncoll_per * (s->nsched ? s->nsched : 1);
			if (n > per)
				per = n;
		}
		s->coll_count[cu] = (uint8_t)n;
	}
	s->ncoll_per = per;
	s->coll = calloc((size_t)s->nsched * UNIT_COUNT * s->ncoll_per, sizeof *s->coll);
	s->coll_fifo = calloc((size_t)s->nsched * UNIT_COUNT * s->ncoll_per, sizeof *s->coll_fifo);
	s->coll_free = calloc((size_t)s->nsched * UNIT_COUNT, sizeof *s->coll_free);
	s->coll_now = calloc((size_t)s->nsched * UNIT_COUNT, sizeof *s->coll_now);
	s->coll_init = calloc((size_t)s->nsched * UNIT_COUNT + 1, sizeof *s->coll_init);
	for (uint32_t k = 0; s->coll_init && k < s->nsched * UNIT_COUNT; k++)
		s->coll_init[k] = s->coll_count[k % UNIT_COUNT];
	s->nbanks = (uint32_t)cfg_int(cfg, CFG_reg_banks);
	s->bank_busy = calloc(s->nbanks, sizeof *s->bank_busy);
	s->sub_core = cfg_int(cfg, CFG_sub_core) != 0;
	s->fence_regs = cfg_int(cfg, CFG_fence_wait) == 1; /* registers */
	/* the issue stage's KAWS warp sharing: the parameter, or the value the
	 * policy's name presets (kaws) */
	int64_t share = cfg_int(cfg, CFG_warp_sharing);
	sched_choice_preset(env->pol, "warp_sharing", &share);
	s->share = share != 0;
	s->dirty_bits = calloc((s->nslots + 63) / 64 + 1, sizeof *s->dirty_bits);
	s->head_at = calloc(s->nslots + 1, sizeof *s->head_at);
	if (!s->dirty_bits || !s->head_at || !s->w || !s->cta || !s->vw || !s->vc || !s->order || !s->held ||
	    !s->live || !s->age_sorted || !s->age_count || !s->cand_sorted || !s->cand_count || !s->eligible ||
	    !s->last_fetch || !s->sched_busy_until || !s->coll || !s->coll_fifo || !s->bank_busy || !s->coll_free ||
	    !s->coll_now || !s->coll_init)
		goto fail;
	for (uint32_t c = 0; c < s->nctaslots; c++) {
		s->cta[c].slots = calloc(s->nslots, sizeof(uint32_t));
		if (!s->cta[c].slots)
			goto fail;
		s->vc[c].first_barrier_hit = UINT64_MAX;
	}
	static const enum cfg_core_param nunit_param[UNIT_COUNT] = {CFG_num_sp_units,  CFG_num_sfu_units,
								    CFG_num_dp_units,  CFG_num_int_units,
								    CFG_num_ldst_units, CFG_num_tensor_units};
	for (int k = 0; k < UNIT_COUNT; k++) {
		s->nunits[k] = (uint32_t)cfg_int(cfg, nunit_param[k]);
		s->units[k] = calloc(s->nunits[k] ? s->nunits[k] : 1, sizeof(struct sm_unit));
		if (!s->units[k])
			goto fail;
	}
	for (uint32_t i = 0; i < s->nslots; i++) {
		s->vw[i].slot = i;
		s->vw[i].sched_id = i % s->nsched;
		s->vw[i].ibuf_depth = (uint8_t)s->ibuf_depth;
		s->vw[i].head_unit = UNIT_SP;
		s->unit_bits[UNIT_SP][i >> 6] |= 1ull << (i & 63);
	}
	s->hold = (struct sched_hold_port){.set = sm_hold_set, .owner = s};
	s->view = (struct sched_view){.nsched = s->nsched, .nslots = s->nslots, .warps = s->vw,
				      .nctas = s->nctaslots, .ctas = s->vc, .held = s->held, .hold = &s->hold,
				      .coll_free = s->coll_free, .age_sorted = s->age_sorted, .age_count = s->age_count,
				      .cand_sorted = s->cand_sorted, .cand_count = s->cand_count};
	s->stats = calloc(1, sizeof *s->stats);
	s->L = malloc(sizeof *s->L);
	s->wlog = wlog_create();
	if (!s->stats || !s->L || !s->wlog)
		goto fail;
	*s->L = *env->L;
	s->L->stats = s->stats;
	s->L->wlog = s->wlog;
	s->L->err = WS_SUCCESS;
	s->L->errmsg[0] = 0;
	s->L->mem_changes = 0;
	if (env->L->trace) {
		s->trace.max = SIZE_MAX;
		s->L->trace = &s->trace;
	}
	s->pol = env->pol->pol;
	s->fpol = env->fpol;
	uint32_t nctr = sched_choice_ncounters(env->pol);
	s->pol_ctr = calloc(nctr ? nctr : 1, sizeof *s->pol_ctr);
	if (!s->pol_ctr)
		goto fail;
	struct sched_create_args a = {.cfg = cfg, .sm = id, .nsched = s->nsched, .nslots = s->nslots,
				      .nctas = s->nctaslots, .counters = s->pol_ctr,
				      .inner = env->pol->inner, .self = s->pol, .sibs = env->sibs, .nsibs = env->nsibs,
				      .kernel_insts = env->L && env->L->kernel ? env->L->kernel->ninsns : 0};
	s->pol_st = s->pol->create(&a);
	s->fpol_st = s->fpol->create(&a);
	s->ldst = ldst_create(s, cfg);
	bool dwr_oom = false;
	s->dwr = dwr_create(s, cfg, &dwr_oom);
	if (!s->pol_st || !s->fpol_st || !s->ldst || dwr_oom)
		goto fail;
	s->sleep_ok = cfg_int(cfg, CFG_sleep) && sched_choice_can_sleep(env->pol);
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
	for (int k = 0; k < UNIT_COUNT; k++)
		free(s->units[k]);
	if (s->pol_st)
		s->pol->destroy(s->pol_st);
	if (s->fpol_st)
		s->fpol->destroy(s->fpol_st);
	ldst_destroy(s->ldst);
	dwr_destroy(s->dwr);
	free(s->w);
	free(s->cta);
	free(s->vw);
	free(s->vc);
	free(s->order);
	free(s->held);
	free(s->pol_ctr);
	free(s->live);
	free(s->age_sorted);
	free(s->age_count);
	free(s->cand_sorted);
	free(s->cand_count);
	free(s->eligible);
	free(s->last_fetch);
	free(s->sched_busy_until);
	free(s->coll);
	free(s->coll_fifo);
	free(s->coll_free);
	free(s->coll_now);
	free(s->coll_init);
	free(s->bank_busy);
	free(s->dirty_bits);
	free(s->head_at);
	free(s->wb.q);
	free(s->wb.held);
	wlog_destroy(s->wlog);
	trace_free(&s->trace);
	if (s->printf_buf)
		fclose(s->printf_buf);
	free(s->printf_mem);
	free(s->L);
	free(s->stats);
	free(s);
}

/* ---- CTAs ---- */

bool sm_can_accept_cta(const struct sm *s, uint32_t warps_per_cta)
{
	return s->live_ctas < s->nctaslots && s->used_slots + warps_per_cta <= s->nslots;
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
	for (uint32_t i = 0; i < s->nslots && k < fc->nwarps; i++) {
		if (s->w[i].valid)
			continue;
		struct sm_warp *w = &s->w[i];
		struct scoreboard sb = w->sb;
		memset(w, 0, sizeof *w);
		w->sb = sb;
		sb_clear(&w->sb);
		w->valid = true;
		sm_warp_mark_dirty(s, i);
		sm_warp_head_sync(w);
		w->fw = &fc->warps[k];
		w->fc = fc;
		w->cta_slot = c;
		w->launch_cycle = now;
		sm_warp_sync_frame(s, w);
		warp_sync_fetch(w);
		if (!sb_reserve(&w->sb, (uint32_t)(w->fw->regs_cap / s->ws) + 64))
			return false;
		ct->slots[k] = i;
		sm_warp_publish(s, i);
		struct sched_warp *v = &s->vw[i];
		v->ibuf_head_valid = v->ready = v->long_latency_wait = v->partner_wait = false;
		v->ibuf_count = 0;
		v->age = (*s->env.next_age)++;
		v->cta_slot = c;
		v->cta_id = fc->linear;
		v->warp_in_cta = k;
		v->insts_issued = 0;
		v->stall_cycles = 0;
		v->stall_since = 0;
		s->held[i] = false; /* a new warp: whatever the policy held in this slot is gone */
		s->held_bits[i >> 6] &= ~(1ull << (i & 63));
		k++;
		/* a warp with no threads at all (impossible by construction) would be finished at once */
	}
	s->used_slots += fc->nwarps;
	s->live_ctas++;
	sm_live_rebuild(s);
	s->vc[c] = (struct sched_cta){.valid = true, .cta_id = fc->linear, .nwarps = fc->nwarps,
				      .launch_cycle = now, .first_barrier_hit = UINT64_MAX};
	if (s->dwr)
		dwr_cta_launch(s->dwr, c);
	s->view.cycle = now;
	if (s->pol->on_cta_launch)
		s->pol->on_cta_launch(s->pol_st, &s->view, c);
	return true;
}

/* ---- one cycle ---- */

bool sm_cycle(struct sm *s, uint64_t now)
{
	s->progress = false;
	if (!s->live_ctas && !s->wb.n && !ldst_busy(s->ldst)) {
		s->ncyc_stat = 0; /* counted nothing */
		s->cyc_full = false;
		return true;
	}
	sm_writeback_tick(s, now);
	ldst_cycle(s->ldst, now);
	sm_dispatch_tick(s, now);
	sm_operands_tick(s, now);
	if (sm_issue_repeats(s, now))
		sm_issue_repeat(s, now);
	else if (!sm_issue_tick(s, now))
		return false;
	sm_fetch_tick(s, now);
	return true;
}

bool sm_busy(const struct sm *s) { return s->live_ctas || s->wb.n || ldst_busy(s->ldst); }

/* ---- sleeping while busy ----
 * A tick changes the SM's state only through: a writeback (the queue head
 * ready), an operand read (a collector with reads left), a dispatch (a
 * collector whose unit is free: a unit's busy_until, or the LD/ST unit
 * accepting), the LD/ST pipeline (a transaction sent, or an instruction's
 * shared-memory passes ending), an issue (a ready warp with a free
 * collector), a fetch (an eligible warp), a decode latency expiring
 * (head_next_at), a control hazard expiring (fetch_block_until), the end of
 * SIMD passes (sched_busy_until), and from outside the tick: memory replies,
 * room in the SM's interconnect input, CTA launches and kernel events.
 * When the last tick issued nothing, fetched nothing, read no operand,
 * dispatched nothing and sent no transaction, and none of that can happen
 * before the first of those timers (a failed send fails again until a
 * reply or room in the input: ldst.c enum txn_wait), each tick until then
 * only repeats its stall classification, its collectors' and LD/ST
 * pipelines' waits (the policy being sleep-safe: sched.h struct
 * sched_timers), so the GPU loop skips them and sm_wake() adds their
 * counters.  DWR's partner barriers have timers of their own
 * (dwr_next_event). */
uint64_t sm_next_event(const struct sm *s, uint64_t now)
{
	if (!s->sleep_ok || !(s->issue_quiet || s->issue_coll_wait) || !s->fetch_quiet || !sm_busy(s) || s->cyc_full)
		return now + 1;
	uint64_t t = ldst_next_event(s->ldst, now);
	if (t <= now + 1)
		return now + 1;
	if (s->busy_coll) {
		uint64_t c = sm_collectors_next_event(s, now);
		if (c <= now + 1)
			return now + 1;
		t = c < t ? c : t;
	} else if (s->issue_coll_wait) { /* (no collector configured for a unit) */
		return now + 1;
	}
	uint32_t nwd = (s->nslots + 63) / 64;
	if (s->head_next_at < t)
		t = s->head_next_at;
	for (uint32_t wd = 0; wd < nwd; wd++) {
		if (s->dirty_bits[wd] || s->fetch_dirty[wd])
			return now + 1;
		for (uint64_t bits = s->fetch_cand[wd]; bits; bits &= bits - 1) {
			const struct sm_warp *w = &s->w[wd * 64 + (uint32_t)__builtin_ctzll(bits)];
			if (w->valid && w->fetch_block_until < t)
				t = w->fetch_block_until;
		}
	}
	if (s->wb.n && s->wb.h[0].ready < t)
		t = s->wb.h[0].ready;
	for (uint32_t sc = 0; sc < s->nsched; sc++)
		if (s->sched_busy_until[sc] > now && s->sched_busy_until[sc] < t)
			t = s->sched_busy_until[sc];
	if (s->dwr && t > now + 1) { /* partner-barrier latencies and timeouts */
		uint64_t d = dwr_next_event(s->dwr, now);
		if (d < t)
			t = d;
	}
	const struct sched_timers *tm = s->pol->timers;
	if (tm && tm->next_event && t > now + 1) { /* the policy's timers (sched.h) */
		uint64_t p = tm->next_event(s->pol_st, &s->view);
		if (p < t)
			t = p;
	}
	return t > now + 1 ? t : now + 1;
}

_Static_assert(STAT_ID_LIMIT <= 65536, "sm.cyc_stat holds counter ids in 16 bits");
_Static_assert(SM_CYC_STAT_MAX <= 255, "sm.ncyc_stat counts in 8 bits");
_Static_assert(SM_MAX_SCHED <= 8, "sm.cyc_sched holds a bit per scheduler in 8 bits");

void sm_wake(struct sm *s, uint64_t now)
{
	if (!s->sleep_until)
		return;
	uint64_t k = now - 1 - s->slept_from; /* cycles slept_from + 1 .. now - 1 */
	for (uint32_t i = 0; i < s->ncyc_stat; i++)
		s->stats->v[s->cyc_stat[i]] += k;
	ldst_skip(s->ldst, k);
	s->view.cycle = now - 1; /* as the last skipped tick left it */
	const struct sched_timers *tm = s->pol->timers;
	if (tm && tm->skip && k) /* the policy's per-cycle counters, for the schedulers that asked it */
		for (uint32_t sc = 0; sc < s->nsched; sc++)
			if (s->cyc_sched >> sc & 1)
				tm->skip(s->pol_st, &s->view, sc, k);
	s->sleep_until = 0;
	s->sleep_input = false;
}

void sm_sleep(struct sm *s, uint64_t until, uint64_t now)
{
	s->sleep_until = until;
	s->slept_from = now;
	s->sleep_input = ldst_waits_input(s->ldst);
}

bool sm_input_wake(const struct sm *s) { return s->sleep_input && ldst_input_ready(s->ldst); }

void sm_mem_reply(struct sm *s, const struct mem_reply *r, uint64_t now) { ldst_reply(s->ldst, r, now); }

void sm_describe(const struct sm *s, const struct sm_describe_filter *f, char *buf, size_t bufsz, size_t *len,
		 unsigned *shown, unsigned *total)
{
	const unsigned shown0 = *shown;
	for (uint32_t i = 0; i < s->nslots; i++) {
		const struct sm_warp *w = &s->w[i];
		/* a finished warp holds its CTA while results or stores are outstanding */
		if (!w->valid || (w->finished && !w->inflight && !w->pending_stores))
			continue;
		if (f && f->which != SM_DESCRIBE_ALL) {
			int32_t fn = -1, pc = w->finished || !w->fw ? -1 : func_warp_where(w->fw, &fn);
			unsigned n = f->which == SM_DESCRIBE_AT ? 1 : f->nat, k = 0;
			while (k < n && (w->finished || !w->fw || f->at[k][0] != fn || f->at[k][1] != pc))
				k++;
			if ((k < n) != (f->which == SM_DESCRIBE_AT))
				continue;
		}
		(*total)++;
		if (*shown >= SM_DESCRIBE_WARPS || *len + 300 >= bufsz)
			continue;
		if (w->finished) {
			*len += (size_t)snprintf(buf + *len, bufsz - *len,
						 "\n  SM %u slot %u: finished at cycle %llu, its CTA waits for %u result%s "
						 "in flight and %u store%s pending",
						 s->id, i, (unsigned long long)w->finish_cycle, w->inflight,
						 w->inflight == 1 ? "" : "s", w->pending_stores, w->pending_stores == 1 ? "" : "s");
			(*shown)++;
			continue;
		}
		char d[400], issue[96] = "";
		func_warp_describe(s->L, w->fc, w->fw, d, sizeof d);
		const struct sched_warp *v = &s->vw[i];
		if (v->ready && !(s->held && s->held[i])) { /* as the issue stage last saw it */
			static const char *const unit[] = {"SP", "SFU", "DP", "INT", "LD/ST", "tensor"};
			_Static_assert(sizeof unit / sizeof *unit == UNIT_COUNT, "a name per enum ws_unit");
			uint32_t u = v->head_unit < UNIT_COUNT ? v->head_unit : UNIT_SP;
			if (!s->coll_now[v->sched_id * UNIT_COUNT + u])
				snprintf(issue, sizeof issue, ", issuable but every %s collector of scheduler %u is busy",
					 unit[u], v->sched_id);
			else
				snprintf(issue, sizeof issue, ", issuable");
		}
		*len += (size_t)snprintf(buf + *len, bufsz - *len,
					 "\n  SM %u slot %u: %s; I-buffer %u, scoreboard pending %u, in flight %u%s%s%s%s", s->id,
					 i, d, w->ib_count, w->sb.npending, w->inflight, issue,
					 s->held && s->held[i] ? ", held back by the issue policy" : "",
					 w->fetch_pending ? ", I-cache miss pending" : "",
					 s->dwr && dwr_waiting(s->dwr, i, s->view.cycle) ? ", DWR partner barrier" : "");
		(*shown)++;
	}
	/* this SM's warps were listed: its LD/ST unit's state after them */
	uint64_t *done = f ? f->ldst_done : NULL;
	if (*shown > shown0 && !(done && done[s->id >> 6] >> (s->id & 63) & 1)) {
		ldst_describe(s->ldst, buf, bufsz, len);
		if (done)
			done[s->id >> 6] |= 1ull << (s->id & 63);
	}
}
