/*
 * warp_sharing.c -- the KAWS warp-sharing control unit's decision (see
 * warp_sharing.h): which stalled warp of another scheduler a scheduler with
 * a free operand collector issues.
 */
#include "sched/sched_util.h"
#include "sched/warp_sharing.h"

uint32_t sched_share_pick(const struct sched_view *v, const uint8_t *coll_free, uint32_t sc)
{
	if (!coll_free || sc >= v->nsched)
		return UINT32_MAX;
	uint32_t best = UINT32_MAX;
	/* the oldest candidate of each other scheduler (its warps come oldest
	 * first), then the oldest of those */
	for (uint32_t o = 0; o < v->nsched; o++) {
		uint32_t n;
		const uint32_t *by_age = o == sc ? NULL : sched_by_age(v, o, &n);
		for (uint32_t k = 0; by_age && k < n; k++) {
			uint32_t i = by_age[k];
			const struct sched_warp *w = &v->warps[i];
			if (!w->valid || w->finished || w->at_barrier || !w->ready || w->head_unit >= UNIT_COUNT ||
			    sched_held(v, i))
				continue;
			if (coll_free[o * UNIT_COUNT + w->head_unit] || !coll_free[sc * UNIT_COUNT + w->head_unit])
				continue;
			if (best == UINT32_MAX || sched_older(w, &v->warps[best]))
				best = i;
			break;
		}
	}
	return best;
}
