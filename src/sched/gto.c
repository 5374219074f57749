/*
 * gto.c -- greedy-then-oldest (GTO) warp scheduling.
 *
 * Models Rogers et al.'s GTO issue arbiter as GPGPU-Sim implements it and
 * the BAWS paper describes it: a scheduler keeps issuing from the warp it
 * issued from last while that warp can issue; when it stalls, the oldest
 * warp that can issue goes.  The order is therefore: the last-issued warp
 * (if it is still the same resident, unfinished warp of this scheduler),
 * then every other unfinished warp of the scheduler by age -- smaller
 * `age` (earlier launch) first, ties (warps of one CTA) by smaller
 * warp_in_cta, then smaller slot.
 */
#include <stdlib.h>

#include "sched/sched_util.h"

struct gto {
	uint32_t nsched, nslots;
	uint32_t *last;     /* [nsched] slot issued last, SCHED_NONE if none */
	uint64_t *last_age; /* [nsched] age of the warp issued last (a slot may be reused by a new warp) */
	struct sched_age_cache ages;
};

static void gto_destroy(void *st)
{
	struct gto *s = st;
	if (!s)
		return;
	free(s->last);
	free(s->last_age);
	sched_age_cache_free(&s->ages);
	free(s);
}

static void gto_reset(struct gto *s)
{
	for (uint32_t i = 0; i < s->nsched; i++) {
		s->last[i] = SCHED_NONE;
		s->last_age[i] = 0;
	}
}

static void *gto_create(const struct sched_create_args *a)
{
	struct gto *s = calloc(1, sizeof *s);
	if (!s)
		return NULL;
	s->nsched = a->nsched;
	s->nslots = a->nslots;
	s->last = calloc(a->nsched ? a->nsched : 1, sizeof *s->last);
	s->last_age = calloc(a->nsched ? a->nsched : 1, sizeof *s->last_age);
	if (!s->last || !s->last_age || sched_age_cache_init(&s->ages, a->nsched, a->nslots) != 0) {
		gto_destroy(s);
		return NULL;
	}
	gto_reset(s);
	return s;
}

static uint32_t gto_order(void *st, const struct sched_view *v, uint32_t sched_id, uint32_t *order)
{
	struct gto *s = st;
	if (sched_id >= s->nsched)
		return 0;
	uint32_t n, k = 0;
	const uint32_t *sorted = sched_age_cache_get(&s->ages, v, sched_id, &n);
	uint32_t g = s->last[sched_id];
	if (g != SCHED_NONE && g < sched_nslots(v, s->nslots) && sched_candidate(&v->warps[g], sched_id) &&
	    v->warps[g].age == s->last_age[sched_id])
		order[k++] = g;
	else
		g = SCHED_NONE;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t slot = sorted[i];
		if (slot != g && !v->warps[slot].finished)
			order[k++] = slot;
	}
	return k;
}

static void gto_on_issue(void *st, const struct sched_view *v, uint32_t sched_id, uint32_t slot)
{
	struct gto *s = st;
	if (sched_id >= s->nsched)
		return;
	s->last[sched_id] = slot;
	s->last_age[sched_id] = slot < v->nslots ? v->warps[slot].age : 0;
}

static void gto_on_kernel_event(void *st, const struct sched_view *v, enum sched_kernel_event ev)
{
	if (ev == SCHED_KERNEL_START)
		gto_reset(st);
}

const struct sched_policy sched_gto = {
	.name = "gto",
	.description = "greedy-then-oldest: the last issued warp while it can issue, then the oldest",
	.create = gto_create,
	.destroy = gto_destroy,
	.order = gto_order,
	.on_issue = gto_on_issue,
	.on_kernel_event = gto_on_kernel_event,
};
