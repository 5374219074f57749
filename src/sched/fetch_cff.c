/*
 * fetch_cff.c -- critical-fetch-first fetch policy ("cff", BAWS paper
 * Section 4.2).
 *
 * Models a fetch arbiter that fetches for the warp the issue stage would
 * pick next (the paper: "the instruction of the warp that will be issued in
 * the next cycle is the critical instruction which should be fetched"): it
 * asks the issue policy for its order and fetches for the first warp in that
 * order that may fetch now (free I-buffer entry, no fetch in flight) and
 * could issue -- its I-buffer is empty or its next instruction is ready; a
 * warp whose decoded next instruction waits on the scoreboard (e.g. a
 * long-latency load) will not be picked by the issue stage, so fetching more
 * for it would starve the warps that will; neither will a warp the issue
 * policy holds back (sched_held).  Under MWF that is the most
 * critical such warp; under GTO the current greedy warp, else the oldest.
 * The SM's schedulers take turns being asked first (cycle mod N).  If no
 * warp qualifies, the first eligible warp in the orders is taken, and if the
 * orders hold none, round-robin.
 */
#include <stdlib.h>

#include "sched/sched_util.h"

struct cff {
	uint32_t nsched, nslots;
	uint32_t last;      /* fallback round-robin position */
	uint32_t *order;    /* [nslots] scratch */
};

static void *cff_create(const struct sched_create_args *a)
{
	struct cff *s = calloc(1, sizeof *s);
	if (!s)
		return NULL;
	s->nsched = a->nsched ? a->nsched : 1;
	s->nslots = a->nslots;
	s->last = SCHED_NONE;
	s->order = calloc(a->nslots ? a->nslots : 1, sizeof *s->order);
	if (!s->order) {
		free(s);
		return NULL;
	}
	return s;
}

static void cff_destroy(void *st)
{
	struct cff *s = st;
	if (s)
		free(s->order);
	free(s);
}

static int32_t cff_choose(void *st, const struct sched_view *v, const bool *eligible, const struct sched_policy *issue,
			  void *issue_st)
{
	struct cff *s = st;
	uint32_t nslots = sched_nslots(v, s->nslots);
	if (issue && issue_st) {
		int32_t fallback = -1;
		for (uint32_t k = 0; k < s->nsched; k++) {
			uint32_t sc = (uint32_t)((v->cycle + k) % s->nsched);
			uint32_t n = issue->order(issue_st, v, sc, s->order);
			for (uint32_t i = 0; i < n; i++) {
				uint32_t slot = s->order[i];
				if (slot >= nslots || !eligible[slot])
					continue;
				const struct sched_warp *w = &v->warps[slot];
				bool held = sched_held(v, (uint32_t)slot); /* the issue stage will not pick it */
				if (!held && (w->ibuf_count == 0 || w->ready))
					return (int32_t)slot;
				if (fallback < 0)
					fallback = (int32_t)slot;
			}
		}
		if (fallback >= 0)
			return fallback;
	}
	uint32_t start = s->last == SCHED_NONE ? 0 : (s->last + 1) % (nslots ? nslots : 1);
	for (uint32_t i = 0; i < nslots; i++) {
		uint32_t slot = (start + i) % nslots;
		if (eligible[slot])
			return (int32_t)slot;
	}
	return -1;
}

static void cff_on_fetch(void *st, const struct sched_view *v, uint32_t slot)
{
	struct cff *s = st;
	s->last = slot;
}

WS_FETCH_POLICY(cff, 20) = {
	.name = "cff",
	.description = "BAWS critical-fetch-first: fetch for the warp the issue policy would pick next",
	.create = cff_create,
	.destroy = cff_destroy,
	.choose = cff_choose,
	.on_fetch = cff_on_fetch,
};
