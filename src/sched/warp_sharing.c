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
	uint32_t n = v->live ? v->nlive : v->nslots;
	for (uint32_t k = 0; k < n; k++) {
		uint32_t i = v->live ? v->live[k] : k;
		const struct sched_warp *w = &v->warps[i];
		if (!w->valid || w->finished || w->at_barrier || !w->ready || w->sched_id == sc ||
		    w->sched_id >= v->nsched || w->head_unit >= UNIT_COUNT || (v->held && v->held[i]))
			continue;
		if (coll_free[w->sched_id * UNIT_COUNT + w->head_unit] ||
		    !coll_free[sc * UNIT_COUNT + w->head_unit])
			continue;
		if (best == UINT32_MAX || sched_older(w, &v->warps[best]))
			best = i;
	}
	return best;
}
