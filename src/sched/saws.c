/*
 * saws.c -- synchronization-aware warp scheduling ("saws"), the comparison
 * point of the BAWS paper (Section 6.3), as that paper describes it.
 *
 * Models a scheduler that prioritizes CTAs by the time their first warp hit
 * the current barrier: CTAs with warps waiting at a barrier come first,
 * earliest first-hit time first (ties to the smallest CTA id), then the
 * CTAs with no warp waiting; within each CTA, and among the CTAs without a
 * waiting warp, GTO (the warp this scheduler issued last, then the oldest).
 * The first-hit time comes from the SM's view (sched_cta.first_barrier_hit,
 * set when the first warp arrives and cleared at the release).
 */
#include <stdlib.h>

#include "sched/sched_util.h"

struct saws {
	uint32_t nsched, nslots, nctas;
	struct sched_greedy greedy;
	uint32_t *ctas;     /* [nctas] scratch */
};

static void saws_destroy(void *st)
{
	struct saws *s = st;
	if (!s)
		return;
	sched_greedy_free(&s->greedy);
	free(s->ctas);
	free(s);
}

static void *saws_create(const struct sched_create_args *a)
{
	struct saws *s = calloc(1, sizeof *s);
	if (!s)
		return NULL;
	s->nsched = a->nsched;
	s->nslots = a->nslots;
	s->nctas = a->nctas;
	s->ctas = calloc(a->nctas ? a->nctas : 1, sizeof *s->ctas);
	if (sched_greedy_init(&s->greedy, a->nsched) != 0 || !s->ctas) {
		saws_destroy(s);
		return NULL;
	}
	return s;
}

static bool waiting(const struct sched_view *v, uint32_t c) { return v->ctas[c].valid && v->ctas[c].first_barrier_hit != UINT64_MAX; }

static uint32_t saws_order(const void *st, const struct sched_view *v, uint32_t sched_id, uint32_t *order)
{
	const struct saws *s = st;
	if (sched_id >= s->nsched)
		return 0;
	uint32_t nctas = v->nctas < s->nctas ? v->nctas : s->nctas, nc = 0;
	for (uint32_t c = 0; c < nctas; c++) {
		if (!waiting(v, c))
			continue;
		uint32_t j = nc++;
		while (j > 0) {
			const struct sched_cta *p = &v->ctas[s->ctas[j - 1]], *q = &v->ctas[c];
			if (p->first_barrier_hit < q->first_barrier_hit ||
			    (p->first_barrier_hit == q->first_barrier_hit && p->cta_id <= q->cta_id))
				break;
			s->ctas[j] = s->ctas[j - 1];
			j--;
		}
		s->ctas[j] = c;
	}
	uint32_t n;
	const uint32_t *sorted = sched_by_age(v, sched_id, &n);
	uint32_t g = sched_greedy_get(&s->greedy, v, sched_nslots(v, s->nslots), sched_id);
	uint32_t k = 0;
	/* CTAs with waiting warps, earliest first hit first; GTO inside */
	for (uint32_t i = 0; i < nc; i++) {
		uint32_t c = s->ctas[i];
		if (g != SCHED_NONE && v->warps[g].cta_slot == c && !v->warps[g].at_barrier)
			order[k++] = g;
		for (uint32_t j = 0; j < n; j++) {
			const struct sched_warp *w = &v->warps[sorted[j]];
			if (w->cta_slot == c && sorted[j] != g && !w->at_barrier && !w->finished)
				order[k++] = sorted[j];
		}
	}
	/* the rest: GTO */
	if (g != SCHED_NONE && !waiting(v, v->warps[g].cta_slot))
		order[k++] = g;
	for (uint32_t j = 0; j < n; j++) {
		const struct sched_warp *w = &v->warps[sorted[j]];
		if (sorted[j] != g && !w->finished && !waiting(v, w->cta_slot))
			order[k++] = sorted[j];
	}
	/* warps at a barrier of the waiting CTAs last, so every candidate is listed once */
	for (uint32_t j = 0; j < n; j++) {
		const struct sched_warp *w = &v->warps[sorted[j]];
		if (!w->finished && w->at_barrier && waiting(v, w->cta_slot) && sorted[j] != g)
			order[k++] = sorted[j];
	}
	if (g != SCHED_NONE && waiting(v, v->warps[g].cta_slot) && v->warps[g].at_barrier)
		order[k++] = g;
	return k;
}

static void saws_on_issue(void *st, const struct sched_view *v, uint32_t sched_id, uint32_t slot)
{
	struct saws *s = st;
	sched_greedy_issue(&s->greedy, v, sched_id, slot);
}

WS_POLICY(saws, 70) = {
	.name = "saws",
	.description = "SAWS: CTAs ordered by the time their first warp hit the current barrier, GTO within a CTA",
	.create = saws_create,
	.destroy = saws_destroy,
	.order = saws_order,
	.on_issue = saws_on_issue,
};
