/*
 * fetch_fef.c -- fewest-entries-first fetch policy ("fef", the BAWS paper's
 * alternative in Figure 9).
 *
 * Models a fetch arbiter that fetches for the eligible warp with the fewest
 * valid I-buffer entries; ties go round-robin, starting after the slot
 * fetched last.
 */
#include <stdlib.h>

#include "sched/sched_util.h"

struct fef {
	uint32_t nslots;
	uint32_t last;
};

static void *fef_create(const struct sched_create_args *a)
{
	struct fef *s = calloc(1, sizeof *s);
	if (!s)
		return NULL;
	s->nslots = a->nslots;
	s->last = SCHED_NONE;
	return s;
}

static void fef_destroy(void *st) { free(st); }

static int32_t fef_choose(void *st, const struct sched_view *v, const bool *eligible, const struct sched_policy *issue,
			  void *issue_st)
{
	struct fef *s = st;
	uint32_t nslots = sched_nslots(v, s->nslots);
	if (!nslots)
		return -1;
	uint32_t start = s->last == SCHED_NONE ? 0 : (s->last + 1) % nslots;
	int32_t best = -1;
	for (uint32_t i = 0; i < nslots; i++) {
		uint32_t slot = (start + i) % nslots;
		if (eligible[slot] && (best < 0 || v->warps[slot].ibuf_count < v->warps[best].ibuf_count))
			best = (int32_t)slot;
	}
	return best;
}

static void fef_on_fetch(void *st, const struct sched_view *v, uint32_t slot)
{
	struct fef *s = st;
	s->last = slot;
}

WS_FETCH_POLICY(fef, 30) = {
	.name = "fef",
	.description = "fewest-entries-first: fetch for the eligible warp with the fewest I-buffer entries",
	.create = fef_create,
	.destroy = fef_destroy,
	.choose = fef_choose,
	.on_fetch = fef_on_fetch,
};
