/*
 * sched_util.c -- helpers shared by the warp-scheduling policies.
 *
 * Models no hardware of its own: age ordering (an in-place heap sort, so
 * no allocation on the per-cycle path), the round-robin slot walk and the
 * per-scheduler age-order cache declared in sched_util.h.
 */
#include "sched/sched_util.h"

#include <stdlib.h>

int64_t sched_cfg_int(const struct ws_config *cfg, enum cfg_param p)
{
	if (cfg)
		return cfg_int(cfg, p);
	return strtoll(cfg_params[p].def, NULL, 10);
}

double sched_cfg_float(const struct ws_config *cfg, enum cfg_param p)
{
	if (cfg)
		return cfg_float(cfg, p);
	return strtod(cfg_params[p].def, NULL);
}

/* Heap sort with sched_older as "less": O(n log n), in place. */
static void sift_down(const struct sched_view *v, uint32_t *a, uint32_t root, uint32_t n)
{
	for (;;) {
		uint32_t child = 2 * root + 1;
		if (child >= n)
			return;
		/* Max-heap under "older" means the youngest sits at the top. */
		if (child + 1 < n && sched_older(&v->warps[a[child]], &v->warps[a[child + 1]]))
			child++;
		if (!sched_older(&v->warps[a[root]], &v->warps[a[child]]))
			return;
		uint32_t t = a[root];
		a[root] = a[child];
		a[child] = t;
		root = child;
	}
}

void sched_sort_by_age(const struct sched_view *v, uint32_t *slots, uint32_t n)
{
	if (n < 2)
		return;
	for (uint32_t i = n / 2; i-- > 0;)
		sift_down(v, slots, i, n);
	for (uint32_t end = n - 1; end > 0; end--) {
		uint32_t t = slots[0];
		slots[0] = slots[end];
		slots[end] = t;
		sift_down(v, slots, 0, end);
	}
}

uint32_t sched_rr_from(const struct sched_view *v, uint32_t nslots, uint32_t sched_id, uint32_t after,
		       uint32_t *out)
{
	uint32_t k = 0;
	if (nslots == 0)
		return 0;
	uint32_t start = (after == SCHED_NONE || after >= nslots) ? 0 : (after + 1) % nslots;
	if (v->live) {
		/* same order from the live list: first the live slots >= start, then the rest */
		uint32_t n = v->nlive, first = 0;
		while (first < n && v->live[first] < start)
			first++;
		for (uint32_t i = 0; i < n; i++) {
			uint32_t s = v->live[(first + i) % n];
			if (s < nslots && sched_candidate(&v->warps[s], sched_id))
				out[k++] = s;
		}
		return k;
	}
	for (uint32_t i = 0; i < nslots; i++) {
		uint32_t s = start + i;
		if (s >= nslots)
			s -= nslots;
		if (sched_candidate(&v->warps[s], sched_id))
			out[k++] = s;
	}
	return k;
}

int sched_greedy_init(struct sched_greedy *g, uint32_t nsched)
{
	g->nsched = 0;
	g->last = calloc(nsched ? nsched : 1, sizeof *g->last);
	g->last_age = calloc(nsched ? nsched : 1, sizeof *g->last_age);
	if (!g->last || !g->last_age) {
		sched_greedy_free(g);
		return -1;
	}
	g->nsched = nsched;
	sched_greedy_reset(g);
	return 0;
}

void sched_greedy_free(struct sched_greedy *g)
{
	free(g->last);
	free(g->last_age);
	g->last = NULL;
	g->last_age = NULL;
	g->nsched = 0;
}

void sched_greedy_reset(struct sched_greedy *g)
{
	for (uint32_t i = 0; i < g->nsched; i++) {
		g->last[i] = SCHED_NONE;
		g->last_age[i] = 0;
	}
}

void sched_greedy_issue(struct sched_greedy *g, const struct sched_view *v, uint32_t sched_id, uint32_t slot)
{
	if (sched_id >= g->nsched || slot >= v->nslots)
		return;
	g->last[sched_id] = slot;
	g->last_age[sched_id] = v->warps[slot].age;
}

uint32_t sched_greedy_get(const struct sched_greedy *g, const struct sched_view *v, uint32_t nslots,
			  uint32_t sched_id)
{
	if (sched_id >= g->nsched)
		return SCHED_NONE;
	uint32_t s = g->last[sched_id];
	if (s != SCHED_NONE && s < nslots && sched_candidate(&v->warps[s], sched_id) &&
	    v->warps[s].age == g->last_age[sched_id])
		return s;
	return SCHED_NONE;
}

int sched_age_cache_init(struct sched_age_cache *c, uint32_t nsched, uint32_t nslots)
{
	size_t cells = (size_t)nsched * nslots;
	c->nsched = 0;
	c->nslots = 0;
	c->count = calloc(nsched ? nsched : 1, sizeof *c->count);
	c->sorted = calloc(cells ? cells : 1, sizeof *c->sorted);
	c->snap_owned = calloc(cells ? cells : 1, sizeof *c->snap_owned);
	c->snap_age = calloc(cells ? cells : 1, sizeof *c->snap_age);
	c->snap_wic = calloc(cells ? cells : 1, sizeof *c->snap_wic);
	c->gen = calloc(nsched ? nsched : 1, sizeof *c->gen);
	if (!c->count || !c->sorted || !c->snap_owned || !c->snap_age || !c->snap_wic || !c->gen) {
		sched_age_cache_free(c);
		return -1;
	}
	c->nsched = nsched;
	c->nslots = nslots;
	return 0;
}

void sched_age_cache_free(struct sched_age_cache *c)
{
	free(c->count);
	free(c->sorted);
	free(c->snap_owned);
	free(c->snap_age);
	free(c->snap_wic);
	free(c->gen);
	c->gen = NULL;
	c->count = NULL;
	c->sorted = NULL;
	c->snap_owned = NULL;
	c->snap_age = NULL;
	c->snap_wic = NULL;
	c->nsched = 0;
	c->nslots = 0;
}

const uint32_t *sched_age_cache_get(const struct sched_age_cache *c, const struct sched_view *v, uint32_t sched_id,
				    uint32_t *n)
{
	*n = 0;
	if (sched_id >= c->nsched)
		return c->sorted;
	uint32_t ns = sched_nslots(v, c->nslots);
	size_t base = (size_t)sched_id * c->nslots;
	bool *owned = c->snap_owned + base;
	uint64_t *age = c->snap_age + base;
	uint32_t *wic = c->snap_wic + base;
	uint32_t *sorted = c->sorted + base;

	/* the SM says nothing changed since the last check */
	if (v->roster_gen && c->gen[sched_id] == v->roster_gen) {
		*n = c->count[sched_id];
		return sorted;
	}
	c->gen[sched_id] = v->roster_gen;
	bool changed = false;
	for (uint32_t s = 0; s < ns && !changed; s++) {
		const struct sched_warp *w = &v->warps[s];
		bool o = w->valid && w->sched_id == sched_id;
		changed = o != owned[s] || (o && (age[s] != w->age || wic[s] != w->warp_in_cta));
	}
	for (uint32_t s = ns; s < c->nslots && !changed; s++)
		changed = owned[s];
	if (changed) {
		uint32_t k = 0;
		for (uint32_t s = 0; s < c->nslots; s++) {
			const struct sched_warp *w = s < ns ? &v->warps[s] : NULL;
			owned[s] = w && w->valid && w->sched_id == sched_id;
			if (owned[s]) {
				age[s] = w->age;
				wic[s] = w->warp_in_cta;
				sorted[k++] = s;
			}
		}
		sched_sort_by_age(v, sorted, k);
		c->count[sched_id] = k;
	}
	*n = c->count[sched_id];
	return sorted;
}

int sched_inner_create(struct sched_inner *in, const struct sched_create_args *a, uint32_t own_counters)
{
	in->p = a->inner;
	in->st = NULL;
	if (!in->p || in->p->wraps)
		return -1;
	struct sched_create_args ia = *a;
	ia.inner = NULL;
	ia.self = in->p;
	ia.counters = a->counters ? a->counters + own_counters : NULL;
	in->st = in->p->create(&ia);
	return in->st ? 0 : -1;
}

void sched_inner_destroy(struct sched_inner *in)
{
	if (in->p && in->st)
		in->p->destroy(in->st);
	in->st = NULL;
}
