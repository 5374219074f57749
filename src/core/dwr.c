/*
 * dwr.c -- dynamic warp resizing of one SM (DWR paper, Section IV; see
 * dwr.h for the model).
 *
 * State:
 *   - per sub-warp (warp slot): NONE (not at a LAT barrier), WAIT (locked in
 *     its group's PST entry) or PASS (may issue its LAT from ready_at on;
 *     combine_ready when a full lock vector released it);
 *   - per partner group (CTA slot x group index): one PST entry, valid bit,
 *     PC (function, instruction) and lock bit vector;
 *   - per SM: the ILT, dwr_ilt_entries PCs in sets of dwr_ilt_ways indexed
 *     by the PC's low bits, LRU replacement.
 * A partner counts as arrived when it is locked at a LAT barrier, waits at
 * bar.sync or has finished; when every partner has arrived, the locked ones
 * are unlocked and marked combine-ready (Section IV.B/D).  The PST is
 * updated when the sub-warp's operation starts and the release takes
 * effect when the last operation's latency has passed (pipelined ops).
 */
#include <stdlib.h>

#include "core/core_counters.h"
#include "core/core_params.h"
#include "core/dwr.h"
#include "core/sm.h"
#include "core/warpstate.h"

enum { DWR_NONE, DWR_WAIT, DWR_PASS };

struct dwr_warp {
	uint8_t state;
	bool combine_ready;
	int32_t fn, pc;         /* the LAT it synchronized for */
	uint64_t arrive;        /* cycle its barrier operation started */
	uint64_t ready_at;      /* PASS: first cycle it may issue */
};

struct dwr_pst {
	bool valid;
	bool mixed;             /* a partner arrived at a different PC */
	int32_t fn, pc;
	uint8_t lock;           /* bit m: member m of the group is locked */
};

struct dwr_ilt {
	bool valid;
	int32_t fn, pc;
	uint64_t used;          /* LRU stamp */
};

struct dwr {
	struct sm *s;
	uint32_t G;             /* sub-warps per partner group */
	uint32_t D;             /* combining window (sub-warps) */
	uint32_t lat;
	uint64_t timeout;       /* dwr_sync_timeout (0: never) */
	bool ilt_arrival;       /* dwr_ilt_arrival */
	uint32_t gpc;           /* PST entries per CTA slot */
	uint32_t ilt_sets, ilt_ways;
	uint64_t ilt_clock;
	struct dwr_warp *w;     /* [nslots] */
	struct dwr_pst *pst;    /* [nctaslots * gpc] */
	struct dwr_ilt *ilt;    /* [ilt_sets * ilt_ways] */
	struct func_step_info *scratch; /* [DWR_MAX_SUB] */
};

struct dwr *dwr_create(struct sm *s, const struct ws_config *cfg, bool *oom)
{
	uint32_t maxw = (uint32_t)cfg_int(cfg, CFG_dwr_max_warp);
	if (!maxw)
		return NULL;
	struct dwr *d = calloc(1, sizeof *d);
	if (!d) {
		*oom = true;
		return NULL;
	}
	d->s = s;
	d->G = maxw / s->ws;
	if (d->G < 1)
		d->G = 1;
	if (d->G > DWR_MAX_SUB)
		d->G = DWR_MAX_SUB;
	uint32_t dist = (uint32_t)cfg_int(cfg, CFG_dwr_combine_distance);
	d->D = dist && dist < d->G ? dist : d->G;
	d->lat = (uint32_t)cfg_int(cfg, CFG_dwr_sync_latency);
	d->timeout = (uint64_t)cfg_int(cfg, CFG_dwr_sync_timeout);
	d->ilt_arrival = cfg_int(cfg, CFG_dwr_ilt_arrival) != 0;
	d->gpc = (s->nslots + d->G - 1) / d->G;
	uint32_t ents = (uint32_t)cfg_int(cfg, CFG_dwr_ilt_entries);
	d->ilt_ways = (uint32_t)cfg_int(cfg, CFG_dwr_ilt_ways);
	if (d->ilt_ways > ents)
		d->ilt_ways = ents;
	d->ilt_sets = d->ilt_ways ? ents / d->ilt_ways : 0;
	d->w = calloc(s->nslots, sizeof *d->w);
	d->pst = calloc((size_t)s->nctaslots * d->gpc, sizeof *d->pst);
	d->ilt = calloc((size_t)d->ilt_sets * d->ilt_ways + 1, sizeof *d->ilt);
	d->scratch = calloc(DWR_MAX_SUB, sizeof *d->scratch);
	if (!d->w || !d->pst || !d->ilt || !d->scratch) {
		dwr_destroy(d);
		*oom = true;
		return NULL;
	}
	return d;
}

void dwr_destroy(struct dwr *d)
{
	if (!d)
		return;
	free(d->w);
	free(d->pst);
	free(d->ilt);
	free(d->scratch);
	free(d);
}

uint32_t dwr_group_size(const struct dwr *d) { return d->G; }

struct func_step_info *dwr_scratch(struct dwr *d, unsigned i) { return &d->scratch[i % DWR_MAX_SUB]; }

bool dwr_is_lat(const struct dec_insn *d)
{
	if (!d)
		return false;
	const struct ptx_insn *in = d->in;
	if (in->op != OP_LD && in->op != OP_LDU && in->op != OP_ST)
		return false;
	return in->space == SPACE_GLOBAL || in->space == SPACE_LOCAL || in->space == SPACE_PARAM;
}

void dwr_cta_launch(struct dwr *d, uint32_t c)
{
	for (uint32_t g = 0; g < d->gpc; g++)
		d->pst[(size_t)c * d->gpc + g] = (struct dwr_pst){0};
	const struct sm_cta *ct = &d->s->cta[c];
	for (uint32_t k = 0; k < ct->nwarps; k++)
		d->w[ct->slots[k]] = (struct dwr_warp){0};
}

/* ---- the ignore-list table ---- */

static struct dwr_ilt *ilt_set(struct dwr *d, int32_t pc) { return &d->ilt[(size_t)((uint32_t)pc % d->ilt_sets) * d->ilt_ways]; }

static bool ilt_lookup(struct dwr *d, int32_t fn, int32_t pc)
{
	if (!d->ilt_sets)
		return false;
	struct dwr_ilt *set = ilt_set(d, pc);
	for (uint32_t i = 0; i < d->ilt_ways; i++)
		if (set[i].valid && set[i].fn == fn && set[i].pc == pc) {
			set[i].used = ++d->ilt_clock;
			return true;
		}
	return false;
}

static void ilt_insert(struct dwr *d, int32_t fn, int32_t pc)
{
	if (!d->ilt_sets || ilt_lookup(d, fn, pc))
		return;
	struct dwr_ilt *set = ilt_set(d, pc), *v = &set[0];
	for (uint32_t i = 0; i < d->ilt_ways; i++) {
		if (!set[i].valid) {
			v = &set[i];
			break;
		}
		if (set[i].used < v->used)
			v = &set[i];
	}
	struct ws_stats *st = d->s->stats;
	st->v[STAT_dwr_ilt_inserts]++;
	if (v->valid)
		st->v[STAT_dwr_ilt_evictions]++;
	*v = (struct dwr_ilt){.valid = true, .fn = fn, .pc = pc, .used = ++d->ilt_clock};
}

/* ---- partner groups ---- */

/* The group of `slot`: its PST entry, the CTA warp index of its first
 * member and its member count. */
static struct dwr_pst *group_of(struct dwr *d, uint32_t slot, uint32_t *first, uint32_t *n)
{
	const struct sm *s = d->s;
	uint32_t c = s->w[slot].cta_slot;
	uint32_t k = s->vw[slot].warp_in_cta;
	uint32_t g = k / d->G;
	*first = g * d->G;
	uint32_t nw = s->cta[c].nwarps;
	*n = nw - *first < d->G ? nw - *first : d->G;
	return &d->pst[(size_t)c * d->gpc + g];
}

/* Release the group of `slot` when every partner has arrived (locked at a
 * LAT barrier, waiting at bar.sync, or finished; `arrived`, if a slot,
 * has just passed an ILT-ignored LAT: dwr_ilt_arrival), or at once when
 * `force` (dwr_sync_timeout).  `sync` is true when the trigger is a barrier
 * operation (its latency ends at now + lat). */
static void check_release(struct dwr *d, uint32_t slot, uint64_t now, bool sync, bool force, uint32_t arrived)
{
	struct sm *s = d->s;
	uint32_t first, n;
	struct dwr_pst *e = group_of(d, slot, &first, &n);
	if (!e->valid || !e->lock)
		return;
	const uint32_t *slots = s->cta[s->w[slot].cta_slot].slots;
	bool bar = false, fin = false, ilt = false;
	for (uint32_t m = 0; m < n; m++) {
		uint32_t p = slots[first + m];
		if (e->lock >> m & 1)
			continue;
		if (p == arrived) /* at an ILT-ignored LAT (dwr_ilt_arrival): another PC */
			ilt = true;
		else if (s->w[p].finished)
			fin = true;
		else if (s->w[p].at_barrier)
			bar = true;
		else if (!force)
			return; /* a partner is still running */
	}
	if (force)
		s->stats->v[STAT_dwr_release_timeout]++;
	struct ws_stats *st = s->stats;
	uint64_t t = sync ? now + d->lat : now;
	for (uint32_t m = 0; m < n; m++) {
		if (!(e->lock >> m & 1))
			continue;
		uint32_t p = slots[first + m];
		struct dwr_warp *dw = &d->w[p];
		dw->state = DWR_PASS;
		dw->combine_ready = true;
		if (dw->ready_at < t)
			dw->ready_at = t;
		st->v[STAT_dwr_sync_wait_cycles] += dw->ready_at - dw->arrive;
		sm_warp_mark_dirty(s, p);
	}
	st->v[STAT_dwr_releases]++;
	st->v[STAT_dwr_release_mixed_pc] += e->mixed || ilt;
	st->v[STAT_dwr_release_bar] += bar;
	st->v[STAT_dwr_release_exit] += fin;
	*e = (struct dwr_pst){0};
}

/* bar.synch_partner of sub-warp `slot` before its LAT at (fn, pc). */
static void sync_op(struct dwr *d, uint32_t slot, int32_t fn, int32_t pc, uint64_t now)
{
	struct sm *s = d->s;
	struct ws_stats *st = s->stats;
	struct dwr_warp *dw = &d->w[slot];
	dw->fn = fn;
	dw->pc = pc;
	dw->arrive = now;
	dw->combine_ready = false;
	sm_warp_mark_dirty(s, slot);
	if (ilt_lookup(d, fn, pc)) { /* a non-benefiting LAT: no synchronization */
		st->v[STAT_dwr_lat_ignored]++;
		dw->state = DWR_PASS;
		dw->ready_at = now;
		if (d->ilt_arrival) /* it reached a LAT barrier: partners locked elsewhere may go */
			check_release(d, slot, now, false, false, slot);
		return;
	}
	st->v[STAT_dwr_lat_synced]++;
	uint32_t first, n;
	struct dwr_pst *e = group_of(d, slot, &first, &n);
	uint32_t m = s->vw[slot].warp_in_cta - first;
	/* step 1: PC, lock bit vector, ILT */
	if (!e->valid) {
		e->valid = true;
		e->fn = fn;
		e->pc = pc;
	} else if (e->fn != fn || e->pc != pc) {
		e->mixed = true;
		ilt_insert(d, fn, pc);
	}
	e->lock |= (uint8_t)(1u << m);
	/* step 2: wait, or unlock every partner as combine-ready */
	dw->state = DWR_WAIT;
	dw->ready_at = now + d->lat;
	check_release(d, slot, now, true, false, UINT32_MAX);
}

void dwr_tick(struct dwr *d, uint64_t now)
{
	struct sm *s = d->s;
	for (uint32_t k = 0; k < s->nlive; k++) {
		uint32_t i = s->live[k];
		struct sm_warp *w = &s->w[i];
		struct dwr_warp *dw = &d->w[i];
		if (dw->state == DWR_PASS) {
			if (dw->ready_at == now)
				sm_warp_mark_dirty(s, i);
			continue;
		}
		if (dw->state == DWR_WAIT && d->timeout && now >= dw->arrive + d->timeout) {
			check_release(d, i, now, false, true, UINT32_MAX);
			continue;
		}
		if (dw->state != DWR_NONE || w->finished || s->w[i].at_barrier || !w->ib_count || w->ib_head_ready > now)
			continue;
		const struct ibuf_entry *e = &w->ib[w->ib_head];
		if (dwr_is_lat(e->d))
			sync_op(d, i, e->fn, e->pc, now);
	}
}

uint64_t dwr_next_event(const struct dwr *d, uint64_t now)
{
	const struct sm *s = d->s;
	uint64_t t = UINT64_MAX;
	for (uint32_t k = 0; k < s->nlive; k++) {
		const struct dwr_warp *dw = &d->w[s->live[k]];
		uint64_t at = dw->state == DWR_PASS			? dw->ready_at
			      : dw->state == DWR_WAIT && d->timeout ? dw->arrive + d->timeout
								    : UINT64_MAX;
		if (at > now && at < t)
			t = at;
	}
	return t;
}

bool dwr_ready(const struct dwr *d, uint32_t slot, uint64_t now)
{
	const struct dwr_warp *dw = &d->w[slot];
	if (dw->state == DWR_WAIT)
		return false;
	if (dw->state == DWR_PASS)
		return dw->ready_at <= now;
	/* not synchronized: a LAT at the head is not issuable yet */
	const struct sm_warp *w = &d->s->w[slot];
	return !(w->ib_count && dwr_is_lat(w->ib[w->ib_head].d));
}

bool dwr_waiting(const struct dwr *d, uint32_t slot, uint64_t now)
{
	const struct dwr_warp *dw = &d->w[slot];
	return dw->state == DWR_WAIT || (dw->state == DWR_PASS && dw->ready_at > now);
}

unsigned dwr_candidates(const struct dwr *d, uint32_t slot, uint64_t now, uint32_t *out, uint32_t *lane0_warp,
			uint32_t *width)
{
	const struct sm *s = d->s;
	const struct dwr_warp *me = &d->w[slot];
	uint32_t k = s->vw[slot].warp_in_cta;
	uint32_t ws = s->ws;
	if (me->state != DWR_PASS || !me->combine_ready) {
		out[0] = slot;
		*lane0_warp = k;
		*width = ws;
		return 1;
	}
	uint32_t first, n;
	group_of((struct dwr *)d, slot, &first, &n);
	uint32_t base = first + (k - first) / d->D * d->D;
	uint32_t end = base + d->D < first + n ? base + d->D : first + n;
	const uint32_t *slots = s->cta[s->w[slot].cta_slot].slots;
	unsigned c = 0;
	for (uint32_t j = base; j < end; j++) {
		uint32_t p = slots[j];
		const struct dwr_warp *dw = &d->w[p];
		const struct sm_warp *w = &s->w[p];
		if (p != slot &&
		    (dw->state != DWR_PASS || !dw->combine_ready || dw->fn != me->fn || dw->pc != me->pc ||
		     dw->ready_at > now || w->finished || s->w[p].at_barrier))
			continue;
		out[c++] = p;
	}
	*lane0_warp = base;
	*width = d->D * ws;
	return c;
}

void dwr_issued(struct dwr *d, const uint32_t *slots, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		d->w[slots[i]].state = DWR_NONE;
		d->w[slots[i]].combine_ready = false;
	}
	struct ws_stats *st = d->s->stats;
	static const enum stat_core_id by_n[DWR_MAX_SUB] = {
		STAT_dwr_issue_sub1, STAT_dwr_issue_sub2, STAT_dwr_issue_sub3, STAT_dwr_issue_sub4,
		STAT_dwr_issue_sub5, STAT_dwr_issue_sub6, STAT_dwr_issue_sub7, STAT_dwr_issue_sub8};
	st->v[STAT_dwr_lat_issues]++;
	if (n >= 1 && n <= DWR_MAX_SUB)
		st->v[by_n[n - 1]]++;
}

void dwr_partner_event(struct dwr *d, uint32_t slot, uint64_t now) { check_release(d, slot, now, false, false, UINT32_MAX); }
