/*
 * lrr.c -- loose round-robin (LRR) warp scheduling.
 *
 * Models the baseline issue arbiter of GPGPU-Sim's Fermi-like SM (the
 * BAWS paper's baseline): each scheduler walks its own warp slots in slot
 * order, starting with the slot after the one it issued from last and
 * wrapping around; the issue loop issues the first warp in that order that
 * can issue ("loose": a warp that cannot issue is simply skipped).  Before
 * a scheduler has issued anything its walk starts at slot 0.
 */
#include <stdlib.h>

#include "sched/sched_util.h"

struct lrr {
	uint32_t nsched, nslots;
	uint32_t *last; /* [nsched] slot issued last, SCHED_NONE if none */
};

static void lrr_destroy(void *st)
{
	struct lrr *s = st;
	if (!s)
		return;
	free(s->last);
	free(s);
}

static void lrr_reset(struct lrr *s)
{
	for (uint32_t i = 0; i < s->nsched; i++)
		s->last[i] = SCHED_NONE;
}

static void *lrr_create(const struct sched_create_args *a)
{
	struct lrr *s = calloc(1, sizeof *s);
	if (!s)
		return NULL;
	s->nsched = a->nsched;
	s->nslots = a->nslots;
	s->last = calloc(a->nsched ? a->nsched : 1, sizeof *s->last);
	if (!s->last) {
		lrr_destroy(s);
		return NULL;
	}
	lrr_reset(s);
	return s;
}

static uint32_t lrr_order(const void *st, const struct sched_view *v, uint32_t sched_id, uint32_t *order)
{
	const struct lrr *s = st;
	if (sched_id >= s->nsched)
		return 0;
	return sched_rr_from(v, sched_nslots(v, s->nslots), sched_id, s->last[sched_id], order);
}

static void lrr_on_issue(void *st, const struct sched_view *v, uint32_t sched_id, uint32_t slot)
{
	struct lrr *s = st;
	if (sched_id < s->nsched)
		s->last[sched_id] = slot;
}

WS_POLICY(lrr, 10) = {
	.name = "lrr",
	.description = "loose round-robin: each scheduler's warps in slot order, starting after the last issued",
	.create = lrr_create,
	.destroy = lrr_destroy,
	.order = lrr_order,
	.on_issue = lrr_on_issue,
};
