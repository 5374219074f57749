/*
 * sched_util.c -- helpers shared by the warp-scheduling policies.
 *
 * Models no hardware of its own: age ordering (an in-place heap sort, so
 * no allocation), the view's age lists, the round-robin slot walk, GTO's
 * greedy warp and wrappers' inner policies, declared in sched_util.h.
 */
#include "sched/sched_util.h"

#include <stdlib.h>

#include "config/config.h"

int64_t sched_cfg_int(const struct ws_config *cfg, int p)
{
	if (cfg)
		return cfg_int(cfg, p);
	return strtoll(cfg_params[p].def, NULL, 10);
}

double sched_cfg_float(const struct ws_config *cfg, int p)
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

void sched_view_sort_ages(struct sched_view *v, uint32_t *sorted, uint32_t *count)
{
	for (uint32_t sc = 0; sc < v->nsched; sc++) {
		uint32_t *list = sorted + (size_t)sc * v->nslots, k = 0;
		for (uint32_t s = 0; s < v->nslots; s++)
			if (v->warps[s].valid && v->warps[s].sched_id == sc)
				list[k++] = s;
		sched_sort_by_age(v, list, k);
		count[sc] = k;
	}
	v->age_sorted = sorted;
	v->age_count = count;
}

void sched_hold_in_array(void *flags, uint32_t slot, bool held) { ((bool *)flags)[slot] = held; }

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
