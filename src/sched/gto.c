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
	struct sched_greedy greedy;
};

static void gto_destroy(void *st)
{
	struct gto *s = st;
	if (!s)
		return;
	sched_greedy_free(&s->greedy);
	free(s);
}

static void *gto_create(const struct sched_create_args *a)
{
	struct gto *s = calloc(1, sizeof *s);
	if (!s)
		return NULL;
	s->nsched = a->nsched;
	s->nslots = a->nslots;
	if (sched_greedy_init(&s->greedy, a->nsched) != 0) {
		gto_destroy(s);
		return NULL;
	}
	return s;
}

static uint32_t gto_order(const void *st, const struct sched_view *v, uint32_t sched_id, uint32_t *order)
{
	const struct gto *s = st;
	if (sched_id >= s->nsched)
		return 0;
	uint32_t n;
	uint32_t g = sched_greedy_get(&s->greedy, v, sched_nslots(v, s->nslots), sched_id);
	const uint32_t *cands = sched_cands_by_age(v, sched_id, &n); /* kept by the SM: no walk over warp flags */
	if (cands)
		return sched_greedy_then_cands(g, cands, n, order);
	const uint32_t *sorted = sched_by_age(v, sched_id, &n);
	return sched_greedy_then(v, g, sorted, n, 0, order, 0);
}

static void gto_on_issue(void *st, const struct sched_view *v, uint32_t sched_id, uint32_t slot)
{
	struct gto *s = st;
	sched_greedy_issue(&s->greedy, v, sched_id, slot);
}

WS_POLICY(gto, 20) = {
	.name = "gto",
	.description = "greedy-then-oldest: the last issued warp while it can issue, then the oldest",
	.create = gto_create,
	.destroy = gto_destroy,
	.order = gto_order,
	.on_issue = gto_on_issue,
};
