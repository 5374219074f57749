/*
 * tls.c -- two-level warp scheduling (TLS).
 *
 * Models the two-level scheduler of Gebhart et al. / Narasiman et al. as
 * GPGPU-Sim's two_level_active scheduler implements it (the TLS the BAWS
 * paper compares against): each scheduler splits its warps into an active
 * pool of at most tls_active_warps warps, which are the only issue
 * candidates, and a FIFO pending pool.  Every cycle, per scheduler, the
 * hook on_cycle does steps 1-3 and order() (a pure query) step 4:
 *
 *   1. sync:    warps that are gone (slot invalid, warp finished, or the
 *               slot now holds another warp) leave their pool (a warp never
 *               changes scheduler: slot % nsched); resident unfinished
 *               warps in no pool (newly launched CTAs) join the pending
 *               FIFO's tail in age order (age, warp_in_cta, slot).
 *   2. demote:  active warps whose head instruction depends on a pending
 *               long-latency load (long_latency_wait) -- or that wait at a
 *               barrier or a DWR partner barrier -- move to the pending tail,
 *               in slot order.
 *   3. promote: while the active pool has room, the pending head moves to
 *               the active pool (whatever its state; if it is still
 *               waiting it is demoted again by the next call's step 2).
 *   4. order:   the active warps in slot order, starting with the first slot
 *               after the one this scheduler issued from last, wrapping
 *               around (LRR within the active pool).  Pending warps are not
 *               candidates.
 *
 * Because promotion precedes the order, an empty active pool with pending
 * warps is refilled before ordering: the order is empty only when the
 * scheduler has no unfinished warps.  Demoting barrier waiters (as
 * GPGPU-Sim does through warp waiting()) is needed for forward progress: a
 * pool full of warps waiting at a barrier would otherwise keep the rest of
 * their CTA pending forever.
 */
#include <stdlib.h>
#include <string.h>

#include "sched/sched_params.h"
#include "sched/sched_util.h"

enum { POOL_NONE = 0, POOL_ACTIVE, POOL_PENDING };

struct tls {
	uint32_t nsched, nslots;
	uint32_t max_active;
	uint32_t *last;      /* [nsched] slot issued last, SCHED_NONE if none */
	uint32_t *nactive;   /* [nsched] */
	uint32_t *npending;  /* [nsched] */
	uint32_t *pending;   /* [nsched][nslots] FIFO, head at index 0 */
	uint8_t *pool;       /* [nslots] POOL_* */
	uint32_t *owner;     /* [nslots] scheduler whose pool holds the slot */
	uint64_t *age;       /* [nslots] age of the warp the pool entry stands for */
	uint32_t *scratch;   /* [nslots] */
	uint64_t *ctr;       /* exported counters (tls_counters), NULL: not counted */
};

enum { TLS_CTR_DEMOTIONS, TLS_CTR_PROMOTIONS, TLS_NCTR };
static const struct sched_counter tls_counters[TLS_NCTR] = {
	[TLS_CTR_DEMOTIONS] = {"demotions", "warps", "active warps moved to the pending pool (long-latency wait or barrier)"},
	[TLS_CTR_PROMOTIONS] = {"promotions", "warps", "pending warps moved to the active pool"},
};

static void tls_destroy(void *st)
{
	struct tls *s = st;
	if (!s)
		return;
	free(s->last);
	free(s->nactive);
	free(s->npending);
	free(s->pending);
	free(s->pool);
	free(s->owner);
	free(s->age);
	free(s->scratch);
	free(s);
}

static void tls_reset(struct tls *s)
{
	for (uint32_t i = 0; i < s->nsched; i++) {
		s->last[i] = SCHED_NONE;
		s->nactive[i] = 0;
		s->npending[i] = 0;
	}
	memset(s->pool, POOL_NONE, s->nslots ? s->nslots : 1);
}

static void *tls_create(const struct sched_create_args *a)
{
	struct tls *s = calloc(1, sizeof *s);
	if (!s)
		return NULL;
	size_t ns = a->nsched ? a->nsched : 1, nw = a->nslots ? a->nslots : 1;
	s->nsched = a->nsched;
	s->nslots = a->nslots;
	s->ctr = a->counters;
	int64_t n = sched_cfg_int(a->cfg, CFG_tls_active_warps);
	s->max_active = n < 1 ? 1 : n > (int64_t)UINT32_MAX ? UINT32_MAX : (uint32_t)n;
	s->last = calloc(ns, sizeof *s->last);
	s->nactive = calloc(ns, sizeof *s->nactive);
	s->npending = calloc(ns, sizeof *s->npending);
	s->pending = calloc(ns * nw, sizeof *s->pending);
	s->pool = calloc(nw, sizeof *s->pool);
	s->owner = calloc(nw, sizeof *s->owner);
	s->age = calloc(nw, sizeof *s->age);
	s->scratch = calloc(nw, sizeof *s->scratch);
	if (!s->last || !s->nactive || !s->npending || !s->pending || !s->pool || !s->owner || !s->age ||
	    !s->scratch) {
		tls_destroy(s);
		return NULL;
	}
	tls_reset(s);
	return s;
}

static void pending_remove(struct tls *s, uint32_t sched_id, uint32_t slot)
{
	uint32_t *q = s->pending + (size_t)sched_id * s->nslots;
	uint32_t n = s->npending[sched_id];
	for (uint32_t i = 0; i < n; i++) {
		if (q[i] == slot) {
			memmove(q + i, q + i + 1, (n - i - 1) * sizeof *q);
			s->npending[sched_id] = n - 1;
			return;
		}
	}
}

static void pending_push(struct tls *s, uint32_t sched_id, uint32_t slot)
{
	uint32_t *q = s->pending + (size_t)sched_id * s->nslots;
	q[s->npending[sched_id]++] = slot;
	s->pool[slot] = POOL_PENDING;
	s->owner[slot] = sched_id;
}

static void leave_pool(struct tls *s, uint32_t slot)
{
	uint32_t o = s->owner[slot];
	if (s->pool[slot] == POOL_ACTIVE)
		s->nactive[o]--;
	else if (s->pool[slot] == POOL_PENDING)
		pending_remove(s, o, slot);
	s->pool[slot] = POOL_NONE;
}

/* Step 1: drop departed warps, enqueue new ones in age order. */
static void tls_sync(struct tls *s, const struct sched_view *v, uint32_t sched_id)
{
	uint32_t ns = sched_nslots(v, s->nslots), nnew = 0;
	for (uint32_t slot = 0; slot < s->nslots; slot++) {
		const struct sched_warp *w = slot < ns ? &v->warps[slot] : NULL;
		if (s->pool[slot] != POOL_NONE && s->owner[slot] == sched_id &&
		    (!w || !sched_candidate(w, sched_id) || w->age != s->age[slot]))
			leave_pool(s, slot);
		if (s->pool[slot] == POOL_NONE && w && sched_candidate(w, sched_id))
			s->scratch[nnew++] = slot;
	}
	sched_sort_by_age(v, s->scratch, nnew);
	for (uint32_t i = 0; i < nnew; i++) {
		pending_push(s, sched_id, s->scratch[i]);
		s->age[s->scratch[i]] = v->warps[s->scratch[i]].age;
	}
}

/* Step 2: active warps waiting on a long-latency load, a barrier or a DWR
 * partner barrier go to the pending tail (a sub-warp locked in the active
 * pool while its partners sit in the pending pool would never be released). */
static void tls_demote(struct tls *s, const struct sched_view *v, uint32_t sched_id)
{
	uint32_t ns = sched_nslots(v, s->nslots);
	for (uint32_t slot = 0; slot < ns; slot++) {
		if (s->pool[slot] != POOL_ACTIVE || s->owner[slot] != sched_id)
			continue;
		const struct sched_warp *w = &v->warps[slot];
		if (w->long_latency_wait || w->at_barrier || w->partner_wait) {
			s->nactive[sched_id]--;
			pending_push(s, sched_id, slot);
			if (s->ctr)
				s->ctr[TLS_CTR_DEMOTIONS]++;
		}
	}
}

/* Step 3: fill the active pool from the pending head. */
static void tls_promote(struct tls *s, uint32_t sched_id)
{
	uint32_t *q = s->pending + (size_t)sched_id * s->nslots;
	uint32_t n = s->npending[sched_id], take = 0;
	while (take < n && s->nactive[sched_id] < s->max_active) {
		s->pool[q[take]] = POOL_ACTIVE;
		s->nactive[sched_id]++;
		take++;
	}
	if (take) {
		if (s->ctr)
			s->ctr[TLS_CTR_PROMOTIONS] += take;
		memmove(q, q + take, (n - take) * sizeof *q);
		s->npending[sched_id] = n - take;
	}
}

static uint32_t tls_order(const void *st, const struct sched_view *v, uint32_t sched_id, uint32_t *order)
{
	const struct tls *s = st;
	if (sched_id >= s->nsched)
		return 0;
	uint32_t ns = sched_nslots(v, s->nslots), k = 0;
	if (ns == 0)
		return 0;
	uint32_t after = s->last[sched_id];
	uint32_t start = (after == SCHED_NONE || after >= ns) ? 0 : (after + 1) % ns;
	for (uint32_t i = 0; i < ns; i++) {
		uint32_t slot = start + i < ns ? start + i : start + i - ns;
		if (s->pool[slot] == POOL_ACTIVE && s->owner[slot] == sched_id)
			order[k++] = slot;
	}
	return k;
}

/* Steps 1-3, once per scheduler per cycle before its order is asked for. */
static void tls_on_cycle(void *st, const struct sched_view *v, uint32_t sched_id)
{
	struct tls *s = st;
	if (sched_id >= s->nsched)
		return;
	tls_sync(s, v, sched_id);
	tls_demote(s, v, sched_id);
	tls_promote(s, sched_id);
}

static void tls_on_issue(void *st, const struct sched_view *v, uint32_t sched_id, uint32_t slot)
{
	struct tls *s = st;
	if (sched_id < s->nsched)
		s->last[sched_id] = slot;
}

WS_POLICY(tls, 30) = {
	.name = "tls",
	.description = "two-level: LRR over an active pool of tls_active_warps warps per scheduler; warps waiting on "
		       "long-latency loads swap with a FIFO pending pool",
	.create = tls_create,
	.destroy = tls_destroy,
	.counters = tls_counters,
	.ncounters = TLS_NCTR,
	.order = tls_order,
	.on_cycle = tls_on_cycle,
	.on_issue = tls_on_issue,
};
