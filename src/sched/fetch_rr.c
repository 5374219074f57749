/*
 * fetch_rr.c -- round-robin fetch arbitration.
 *
 * Models the baseline fetch arbiter of GPGPU-Sim's SM (the BAWS paper's
 * baseline fetch policy): each cycle the instruction fetch unit serves the
 * first eligible warp slot (valid, free I-buffer entry, no fetch in flight,
 * no unresolved control instruction -- the core decides) in slot order
 * after the slot it fetched for last, wrapping around over all slots of the
 * SM.  Before anything has been fetched the walk starts at slot 0.  The
 * position advances only in on_fetch (when the core actually fetches).
 */
#include <stdlib.h>

#include "sched/sched_util.h"

struct fetch_rr {
	uint32_t nslots;
	uint32_t last; /* slot fetched last, SCHED_NONE if none */
};

static void *rr_create(const struct sched_create_args *a)
{
	struct fetch_rr *s = calloc(1, sizeof *s);
	if (!s)
		return NULL;
	s->nslots = a->nslots;
	s->last = SCHED_NONE;
	return s;
}

static void rr_destroy(void *st) { free(st); }

static int32_t rr_choose(void *st, const struct sched_view *v, const bool *eligible, const struct sched_policy *issue,
			 void *issue_st)
{
	struct fetch_rr *s = st;
	uint32_t n = sched_nslots(v, s->nslots);
	if (n == 0 || !eligible)
		return -1;
	uint32_t start = (s->last == SCHED_NONE || s->last >= n) ? 0 : (s->last + 1) % n;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t slot = start + i < n ? start + i : start + i - n;
		if (eligible[slot])
			return (int32_t)slot;
	}
	return -1;
}

static void rr_on_fetch(void *st, const struct sched_view *v, uint32_t slot)
{
	struct fetch_rr *s = st;
	s->last = slot;
}

WS_FETCH_POLICY(rr, 10) = {
	.name = "rr",
	.description = "round-robin over eligible warp slots, starting after the slot fetched last",
	.create = rr_create,
	.destroy = rr_destroy,
	.choose = rr_choose,
	.on_fetch = rr_on_fetch,
};
