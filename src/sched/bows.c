/*
 * bows.c -- Back-Off Warp Spinning (ElTantawy and Aamodt, HPCA 2018,
 * Sec. III and IV-C) as a wrapper over any issue policy (bows:gto,
 * bows:lrr, bows:cawa, bows:gto-rotate), and the detection-only wrapper
 * ddos:INNER that runs DDOS without changing the inner policy's order.
 *
 * Models the scheduler side of BOWS: a warp that executes (and takes) a
 * spin-inducing branch (SIB) enters the backed-off state and goes to the
 * back of the priority order (the backed-off queue, FIFO); when it next
 * issues it leaves that state and its pending back-off delay register is
 * loaded with the delay limit, which then counts down every cycle; a warp
 * that executes a SIB while its pending delay is not zero cannot issue
 * (held back: sched_hold) until the delay reaches zero.  The delay limit is fixed or
 * adapted per SM over windows of bows_window cycles (paper Figure 5).
 * What a SIB is comes from DDOS (ddos.c) or from the launch's annotated
 * ground-truth list (bows_sib=annotated).  docs/bows.md has the details
 * and the choices made where the paper is silent.
 */
#include <stdlib.h>
#include <string.h>

#include "sched/ddos.h"
#include "sched/sched_params.h"
#include "sched/sched_util.h"

enum {
	BOWS_C_BACKOFFS,      /* SIB executions that put a warp into the backed-off state */
	BOWS_C_BLOCKED,       /* ... of them with a pending delay: the warp was held */
	BOWS_C_HELD_CYCLES,   /* warp-cycles held (summed over the cycles) */
	BOWS_C_BACKED_CYCLES, /* warp-cycles of candidate warps in the backed-off state (Fig. 11) */
	BOWS_C_NORMAL_CYCLES, /* warp-cycles of candidate warps not backed off (Fig. 11) */
	BOWS_C_SIB_INSTS,     /* SIB instructions executed (adaptive numerator) */
	BOWS_C_RAISES,        /* adaptive: windows that raised the limit */
	BOWS_C_DROPS,         /* adaptive: windows that lowered it */
	BOWS_C_LIMIT_SUM,     /* sum over windows of the delay limit in force (average = / windows) */
	BOWS_C_WINDOWS,       /* adaptive windows completed */
	BOWS_NOWN
};

static const struct sched_counter bows_counters[] = {
    {"backoffs", "events", "taken spin-inducing branches that put a warp into the backed-off state"},
    {"blocked", "events", "backoffs of a warp whose pending back-off delay was not zero: held until it is"},
    {"held_warp_cycles", "warp-cycles", "cycles x warps held back by a pending back-off delay"},
    {"backed_off_warp_cycles", "warp-cycles", "cycles x candidate warps in the backed-off state (paper Fig. 11)"},
    {"normal_warp_cycles", "warp-cycles", "cycles x candidate warps not backed off (paper Fig. 11)"},
    {"sib_insts", "insts", "spin-inducing branch instructions executed (warp level)"},
    {"delay_raises", "windows", "adaptive windows that raised the delay limit by bows_step"},
    {"delay_drops", "windows", "adaptive windows that lowered the delay limit by 2 x bows_step"},
    {"delay_limit_sum", "cycles",
     "sum over adaptive windows of the delay limit (fixed: over none); average = / delay_windows"},
    {"delay_windows", "windows", "adaptive windows completed (summed over SMs)"},
    DDOS_COUNTER_INITS("ddos_")};
_Static_assert(sizeof bows_counters / sizeof bows_counters[0] == BOWS_NOWN + DDOS_NCOUNTERS, "bows counter table");

struct bows_warp {
	uint64_t age;
	bool used;
	bool backed_off;
	bool held;            /* held by BOWS (the SM's flag may also be set by the inner policy) */
	uint64_t delay_ready; /* cycle at which the pending back-off delay reaches zero */
};

struct bows {
	struct sched_inner in;
	bool backoff;   /* false: detection only (ddos:INNER) */
	bool annotated; /* SIBs from the ground-truth list */
	bool adaptive;
	bool jitter; /* bows_jitter: randomized pending delay (ours) */
	uint32_t nsched, nslots;
	uint64_t *ctr;
	struct bows_warp *w; /* [nslots] */
	const struct sched_sib *sibs;
	uint32_t nsibs;
	struct ddos *dd; /* NULL in annotated mode */
	/* delay limit */
	uint64_t limit, lmin, lmax, step, window;
	double frac1, frac2;
	uint64_t win_end; /* cycle at which the current window ends (0: not started) */
	uint64_t win_total, win_sib, prev_total, prev_sib;
	uint64_t last_cycle; /* on_cycle bookkeeping: the cycle already handled SM-wide */
	/* [nsched] what on_cycle's walk over a scheduler's warps found, valid
	 * (ok) until a hook changes a flag it counts (held, backed_off) or the
	 * set of candidates (CTA launch and exit, a warp finishing), or until
	 * a held warp's delay expires (next_release): meanwhile on_cycle adds
	 * the same counts without walking */
	struct bows_cnt {
		bool ok;
		uint32_t cand, held, backed;
		uint64_t next_release;
	} *cnt;
	/* the backed-off queue: a superset of the backed-off warps' slots in
	 * the order they backed off (appended when a warp backs off, removed
	 * when it leaves the state or a new warp takes the slot), so that
	 * order() tests the few backed-off warps only and never sorts */
	uint32_t *bq;  /* [nslots] */
	uint32_t nbq;  /* entries in bq */
	int32_t *bpos; /* [nslots] index of the slot in bq, -1 when not in it */
	uint32_t *bq_sched; /* [nslots] the scheduler of the slot's warp when it entered bq */
	uint32_t *nbq_sched; /* [nsched] entries in bq per scheduler: order() passes the inner order through at 0 */
	uint8_t *mark; /* [nslots] order() scratch, all zero between calls */
	/* [nslots / 64 + 1] a superset of the held warps' slots (set when a
	 * warp is held, cleared when it is released or its slot gets a new
	 * warp), so that next_event() tests the held warps only */
	uint64_t *held_bits;
};

/* Take slot s out of the backed-off queue (if it is in it). */
static void bq_remove(struct bows *b, uint32_t s)
{
	int32_t p = b->bpos[s];
	if (p < 0)
		return;
	for (uint32_t i = (uint32_t)p + 1; i < b->nbq; i++) {
		b->bq[i - 1] = b->bq[i];
		b->bpos[b->bq[i]] = (int32_t)i - 1;
	}
	b->nbq--;
	b->bpos[s] = -1;
	b->nbq_sched[b->bq_sched[s]]--;
}

/* Slot s (a warp of scheduler sched_id) backed off: it goes to the back of
 * the queue (the newest back-off). */
static void bq_append(struct bows *b, uint32_t s, uint32_t sched_id)
{
	bq_remove(b, s);
	b->bpos[s] = (int32_t)b->nbq;
	b->bq[b->nbq++] = s;
	b->bq_sched[s] = sched_id < b->nsched ? sched_id : 0;
	b->nbq_sched[b->bq_sched[s]]++;
}

static void cnt_invalidate(struct bows *b)
{
	for (uint32_t k = 0; k < b->nsched; k++)
		b->cnt[k].ok = false;
}

extern const struct sched_policy sched_ddos;

static void bows_destroy(void *st)
{
	struct bows *b = st;
	if (!b)
		return;
	sched_inner_destroy(&b->in);
	ddos_destroy(b->dd);
	free(b->w);
	free(b->cnt);
	free(b->bq);
	free(b->bpos);
	free(b->bq_sched);
	free(b->nbq_sched);
	free(b->mark);
	free(b->held_bits);
	free(b);
}

/* The state of a new instance (create): no warp seen, the first window ahead. */
static void bows_init_state(struct bows *b)
{
	for (uint32_t i = 0; i < b->nslots; i++) {
		b->w[i] = (struct bows_warp){0};
	}
	b->limit = b->adaptive ? b->lmin : b->limit;
	b->win_end = 0;
	b->win_total = b->win_sib = b->prev_total = b->prev_sib = 0;
	b->last_cycle = UINT64_MAX;
	cnt_invalidate(b);
	b->nbq = 0;
	for (uint32_t i = 0; i < b->nslots; i++)
		b->bpos[i] = -1;
	memset(b->nbq_sched, 0, (b->nsched ? b->nsched : 1) * sizeof *b->nbq_sched);
	memset(b->mark, 0, b->nslots ? b->nslots : 1);
	memset(b->held_bits, 0, (b->nslots / 64 + 1) * sizeof *b->held_bits);
	if (b->dd)
		ddos_reset(b->dd);
}

static void *bows_create(const struct sched_create_args *a)
{
	struct bows *b = calloc(1, sizeof *b);
	if (!b)
		return NULL;
	b->backoff = a->self != &sched_ddos;
	b->nsched = a->nsched;
	b->nslots = a->nslots;
	b->ctr = a->counters;
	b->sibs = a->sibs;
	b->nsibs = a->nsibs;
	b->annotated = b->backoff && sched_cfg_int(a->cfg, CFG_bows_sib) == 1;
	b->adaptive = sched_cfg_int(a->cfg, CFG_bows_delay) == 0;
	b->jitter = sched_cfg_int(a->cfg, CFG_bows_jitter) != 0;
	b->limit = (uint64_t)sched_cfg_int(a->cfg, CFG_bows_delay_limit);
	b->lmin = (uint64_t)sched_cfg_int(a->cfg, CFG_bows_delay_min);
	b->lmax = (uint64_t)sched_cfg_int(a->cfg, CFG_bows_delay_max);
	if (b->lmax < b->lmin)
		b->lmax = b->lmin;
	b->step = (uint64_t)sched_cfg_int(a->cfg, CFG_bows_step);
	b->window = (uint64_t)sched_cfg_int(a->cfg, CFG_bows_window);
	if (b->window == 0)
		b->window = 1;
	b->frac1 = sched_cfg_float(a->cfg, CFG_bows_frac1);
	b->frac2 = sched_cfg_float(a->cfg, CFG_bows_frac2);
	uint32_t own = a->self ? a->self->ncounters : BOWS_NOWN + DDOS_NCOUNTERS;
	b->w = calloc(a->nslots ? a->nslots : 1, sizeof *b->w);
	b->cnt = calloc(a->nsched ? a->nsched : 1, sizeof *b->cnt);
	b->bq = calloc(a->nslots ? a->nslots : 1, sizeof *b->bq);
	b->bpos = calloc(a->nslots ? a->nslots : 1, sizeof *b->bpos);
	b->bq_sched = calloc(a->nslots ? a->nslots : 1, sizeof *b->bq_sched);
	b->nbq_sched = calloc(a->nsched ? a->nsched : 1, sizeof *b->nbq_sched);
	b->mark = calloc(a->nslots ? a->nslots : 1, 1);
	b->held_bits = calloc(a->nslots / 64 + 1, sizeof *b->held_bits);
	if (!b->w || !b->held_bits || !b->cnt || !b->bq || !b->bpos || !b->bq_sched || !b->nbq_sched || !b->mark ||
	    sched_inner_create(&b->in, a, own) != 0) {
		bows_destroy(b);
		return NULL;
	}
	if (!b->annotated) {
		struct ddos_params p = ddos_params_from(a->cfg);
		uint64_t *dctr = NULL;
		if (a->counters)
			dctr = b->backoff ? a->counters + BOWS_NOWN : a->counters;
		b->dd = ddos_create(&p, a->nslots, a->sibs, a->nsibs, dctr);
		if (!b->dd) {
			bows_destroy(b);
			return NULL;
		}
	}
	bows_init_state(b);
	return b;
}

/* The warp now in `slot` (a new occupant starts with a clean state). */
static struct bows_warp *warp_of(struct bows *b, const struct sched_view *v, uint32_t slot)
{
	struct bows_warp *w = &b->w[slot];
	if (!w->used || w->age != v->warps[slot].age) /* the SM cleared its held flag when it arrived */
		*w = (struct bows_warp){.age = v->warps[slot].age, .used = true};
	return w;
}

static bool backed_off(const struct bows *b, const struct sched_view *v, uint32_t slot)
{
	const struct bows_warp *w = &b->w[slot];
	return slot < b->nslots && w->used && w->age == v->warps[slot].age && w->backed_off;
}

/* The inner order with the backed-off warps moved to the back, oldest
 * back-off first (the backed-off queue, kept in that order). */
static uint32_t bows_order(const void *st, const struct sched_view *v, uint32_t sched_id, uint32_t *order)
{
	const struct bows *b = st;
	uint32_t n = sched_inner_order(&b->in, v, sched_id, order);
	/* no warp of this scheduler backed off: the inner order as it is */
	if (!b->backoff || sched_id >= b->nsched || b->nbq_sched[sched_id] == 0)
		return n;
	uint32_t k = 0, m = 0;
	uint8_t *mark = b->mark; /* scratch: set here, cleared below */
	for (uint32_t i = 0; i < n; i++) {
		uint32_t s = order[i];
		if (s < b->nslots && b->bpos[s] >= 0 && backed_off(b, v, s)) {
			mark[s] = 1;
			m++;
		} else
			order[k++] = s;
	}
	for (uint32_t i = 0; m > 0 && i < b->nbq; i++) {
		uint32_t s = b->bq[i];
		if (mark[s]) {
			mark[s] = 0;
			order[k++] = s;
			m--;
		}
	}
	return k;
}

/* Figure 5, at the end of each window. */
static void adapt(struct bows *b, uint64_t now)
{
	if (b->win_end == 0) {
		b->win_end = now + b->window;
		return;
	}
	while (now >= b->win_end) {
		uint64_t total = b->win_total, sib = b->win_sib;
		int64_t lim = (int64_t)b->limit;
		if ((double)sib > b->frac1 * (double)total) {
			lim += (int64_t)b->step;
			if (b->ctr)
				b->ctr[BOWS_C_RAISES]++;
		}
		/* total/sib < FRAC2 * prev_total/prev_sib, compared only when both
		 * windows executed SIBs (a ratio with no SIB is undefined) */
		if (sib && b->prev_sib &&
		    (double)total * (double)b->prev_sib < b->frac2 * (double)b->prev_total * (double)sib) {
			lim -= 2 * (int64_t)b->step;
			if (b->ctr)
				b->ctr[BOWS_C_DROPS]++;
		}
		if (lim > (int64_t)b->lmax)
			lim = (int64_t)b->lmax;
		if (lim < (int64_t)b->lmin)
			lim = (int64_t)b->lmin;
		b->limit = (uint64_t)lim;
		if (b->ctr) {
			b->ctr[BOWS_C_WINDOWS]++;
			b->ctr[BOWS_C_LIMIT_SUM] += b->limit;
		}
		b->prev_total = total;
		b->prev_sib = sib;
		b->win_total = b->win_sib = 0;
		b->win_end += b->window;
	}
}

/* Walk scheduler sched_id's candidate warps: release those whose pending
 * delay reached zero (when `release`), and count them into *c. */
static void walk(struct bows *b, const struct sched_view *v, uint32_t sched_id, bool release, struct bows_cnt *c)
{
	/* the scheduler's warps (in age order; the order does not matter here) */
	uint32_t n = sched_nslots(v, b->nslots), nl;
	const uint32_t *by_age = sched_by_age(v, sched_id, &nl);
	*c = (struct bows_cnt){.ok = true, .next_release = UINT64_MAX};
	for (uint32_t k = 0; k < nl; k++) {
		uint32_t s = by_age[k];
		const struct sched_warp *vw = &v->warps[s];
		if (s >= n || !sched_candidate(vw, sched_id))
			continue;
		struct bows_warp *w = warp_of(b, v, s);
		if (release && w->held && v->cycle >= w->delay_ready) {
			w->held = false; /* the pending delay reached zero */
			b->held_bits[s >> 6] &= ~(1ull << (s & 63));
			sched_hold(v, s, false);
		}
		c->cand++;
		c->held += w->held;
		c->backed += w->backed_off;
		if (w->held && w->delay_ready < c->next_release)
			c->next_release = w->delay_ready;
	}
}

static void bows_on_cycle(void *st, const struct sched_view *v, uint32_t sched_id)
{
	struct bows *b = st;
	sched_inner_on_cycle(&b->in, v, sched_id);
	if (v->cycle != b->last_cycle) { /* once per cycle, SM-wide */
		b->last_cycle = v->cycle;
		if (b->dd)
			ddos_on_cycle(b->dd, v);
		if (b->backoff && b->adaptive)
			adapt(b, v->cycle);
	}
	if (!b->backoff || sched_id >= b->nsched)
		return;
	struct bows_cnt *c = &b->cnt[sched_id];
	if (!c->ok || v->cycle >= c->next_release)
		walk(b, v, sched_id, true, c);
	if (b->ctr) {
		b->ctr[BOWS_C_HELD_CYCLES] += c->held;
		b->ctr[BOWS_C_BACKED_CYCLES] += c->backed;
		b->ctr[BOWS_C_NORMAL_CYCLES] += c->cand - c->backed;
	}
}

/* Sleeping SMs (sched.h): on_cycle changes state only at a window's end
 * (adapt), a DDOS time-sharing epoch, a held warp's delay expiring, or
 * whatever the inner policy names; in between it only counts. */
static uint64_t bows_next_event(const void *st, const struct sched_view *v)
{
	const struct bows *b = st;
	uint64_t t = sched_inner_next_event(&b->in, v);
	if (b->dd) {
		uint64_t d = ddos_next_event(b->dd, v->cycle);
		t = d < t ? d : t;
	}
	if (!b->backoff)
		return t;
	if (b->adaptive) {
		uint64_t w = b->win_end ? b->win_end : v->cycle + 1; /* 0: the first window starts at the next call */
		t = w < t ? w : t;
	}
	for (uint32_t wd = 0; wd <= b->nslots / 64; wd++)
		for (uint64_t bits = b->held_bits[wd]; bits; bits &= bits - 1) {
			uint32_t s = wd * 64 + (uint32_t)__builtin_ctzll(bits);
			if (b->w[s].used && b->w[s].held && b->w[s].delay_ready < t)
				t = b->w[s].delay_ready;
		}
	return t;
}

/* `cycles` repeats of on_cycle(sched_id) with nothing released: its counters. */
static void bows_skip(void *st, const struct sched_view *v, uint32_t sched_id, uint64_t cycles)
{
	struct bows *b = st;
	sched_inner_skip(&b->in, v, sched_id, cycles);
	if (!b->backoff || !b->ctr || sched_id >= b->nsched)
		return;
	struct bows_cnt tmp;
	const struct bows_cnt *c = &b->cnt[sched_id];
	if (!c->ok) { /* (the last on_cycle's counts are normally still valid) */
		walk(b, v, sched_id, false, &tmp);
		c = &tmp;
	}
	b->ctr[BOWS_C_HELD_CYCLES] += c->held * cycles;
	b->ctr[BOWS_C_BACKED_CYCLES] += c->backed * cycles;
	b->ctr[BOWS_C_NORMAL_CYCLES] += (c->cand - c->backed) * cycles;
}

/* The pending delay a warp leaving the backed-off state gets: the limit, or
 * with bows_jitter a value in [limit/2, limit/2 + limit) from a hash of the
 * warp's age and the cycle (deterministic; mean = the limit). */
static uint64_t bows_pending_delay(uint64_t limit, bool jitter, uint64_t age, uint64_t cycle)
{
	if (!jitter || limit == 0)
		return limit;
	uint64_t x = age * 0x9e3779b97f4a7c15ull + cycle * 0xbf58476d1ce4e5b9ull;
	x ^= x >> 31;
	x *= 0x94d049bb133111ebull;
	x ^= x >> 29;
	return limit / 2 + x % limit;
}

static uint64_t pending_delay(const struct bows *b, uint64_t age, uint64_t cycle)
{
	return bows_pending_delay(b->limit, b->jitter, age, cycle);
}

static void bows_on_issue(void *st, const struct sched_view *v, uint32_t sched_id, uint32_t slot)
{
	struct bows *b = st;
	sched_inner_on_issue(&b->in, v, sched_id, slot);
	if (!b->backoff || slot >= b->nslots)
		return;
	b->win_total++;
	if (v->warps[slot].finished) /* it exited: no longer a candidate */
		cnt_invalidate(b);
	struct bows_warp *w = warp_of(b, v, slot);
	if (w->backed_off) { /* leaves the backed-off state: load the pending delay */
		cnt_invalidate(b);
		bq_remove(b, slot);
		w->backed_off = false;
		w->delay_ready = v->cycle + pending_delay(b, w->age, v->cycle);
	}
}

static void bows_on_exec(void *st, const struct sched_view *v, const struct sched_exec_event *e)
{
	struct bows *b = st;
	sched_inner_on_exec(&b->in, v, e);
	bool sib;
	if (b->annotated)
		sib = e->is_branch && sched_sib_listed(b->sibs, b->nsibs, e->fn, e->pc);
	else
		sib = ddos_on_exec(b->dd, v, e);
	if (!b->backoff || !sib || e->slot >= b->nslots)
		return;
	b->win_sib++;
	if (b->ctr)
		b->ctr[BOWS_C_SIB_INSTS]++;
	if (!e->taken)
		return; /* the warp leaves the loop: no next iteration to back off from */
	struct bows_warp *w = warp_of(b, v, e->slot);
	cnt_invalidate(b);
	w->backed_off = true;
	bq_append(b, e->slot, v->warps[e->slot].sched_id);
	if (b->ctr)
		b->ctr[BOWS_C_BACKOFFS]++;
	if (v->cycle < w->delay_ready) {
		w->held = true;
		b->held_bits[e->slot >> 6] |= 1ull << (e->slot & 63);
		sched_hold(v, e->slot, true);
		if (b->ctr)
			b->ctr[BOWS_C_BLOCKED]++;
	}
}

static void bows_on_barrier_arrive(void *st, const struct sched_view *v, uint32_t c, uint32_t slot)
{
	sched_inner_on_barrier_arrive(&((struct bows *)st)->in, v, c, slot);
}
static void bows_on_barrier_release(void *st, const struct sched_view *v, uint32_t c)
{
	sched_inner_on_barrier_release(&((struct bows *)st)->in, v, c);
}
static void bows_on_cta_launch(void *st, const struct sched_view *v, uint32_t c)
{
	struct bows *b = st;
	cnt_invalidate(b); /* new candidates, and new warps in slots a backed-off warp may have left */
	for (uint32_t s = 0, n = sched_nslots(v, b->nslots); s < n; s++)
		if (v->warps[s].valid && v->warps[s].cta_slot == c) {
			bq_remove(b, s);
			b->held_bits[s >> 6] &= ~(1ull << (s & 63));
		}
	sched_inner_on_cta_launch(&((struct bows *)st)->in, v, c);
}
static void bows_on_cta_exit(void *st, const struct sched_view *v, uint32_t c)
{
	cnt_invalidate(st);
	sched_inner_on_cta_exit(&((struct bows *)st)->in, v, c);
}

static void bows_on_kernel_event(void *st, const struct sched_view *v, enum sched_kernel_event ev)
{
	struct bows *b = st;
	sched_inner_on_kernel_event(&b->in, v, ev);
	if (ev == SCHED_KERNEL_END && b->dd)
		ddos_finish(b->dd);
}

/* back-off expiry, adaptive windows, DDOS time sharing, and the inner policy's timers */
static const struct sched_timers bows_timers = {.next_event = bows_next_event, .skip = bows_skip};

WS_POLICY(bows, 90) = {
    .name = "bows",
    .description = "BOWS back-off warp spinning over INNER (bows:gto, bows:lrr, bows:cawa, bows:gto-rotate): "
                   "warps that take a spin-inducing branch go to the back and wait out a back-off delay",
    .wraps = true,
    .counters = bows_counters,
    .ncounters = BOWS_NOWN + DDOS_NCOUNTERS,
    .create = bows_create,
    .destroy = bows_destroy,
    .order = bows_order,
    .on_cycle = bows_on_cycle,
    .timers = &bows_timers,
    .on_issue = bows_on_issue,
    .on_exec = bows_on_exec,
    .on_barrier_arrive = bows_on_barrier_arrive,
    .on_barrier_release = bows_on_barrier_release,
    .on_cta_launch = bows_on_cta_launch,
    .on_cta_exit = bows_on_cta_exit,
    .on_kernel_event = bows_on_kernel_event,
};

WS_POLICY(ddos, 100) = {
    .name = "ddos",
    .description = "DDOS spin detection only, ordering exactly as INNER (ddos:gto ...): accuracy counters (TSDR, "
                   "FSDR, DPR) against the launch's annotated SIBs",
    .wraps = true,
    .counters = ddos_counters,
    .ncounters = DDOS_NCOUNTERS,
    .create = bows_create,
    .destroy = bows_destroy,
    .order = bows_order,
    .on_cycle = bows_on_cycle,
    .timers = &bows_timers,
    .on_issue = bows_on_issue,
    .on_exec = bows_on_exec,
    .on_barrier_arrive = bows_on_barrier_arrive,
    .on_barrier_release = bows_on_barrier_release,
    .on_cta_launch = bows_on_cta_launch,
    .on_cta_exit = bows_on_cta_exit,
    .on_kernel_event = bows_on_kernel_event,
};
