/*
 * ka.c -- kernel-aware (KA) warp scheduling, the KAWS paper's scheduler
 * (Sec. 3, Fig. 2, Fig. 4a).
 *
 * Models a scheduler with two priority modes and the milestone that
 * switches between them:
 *  - until the CTA scheduler has issued the kernel's last CTA: age
 *    priority, oldest warp first (GTO without its greedy part: smaller
 *    `age`, ties by warp_in_cta, then slot -- sched_older);
 *  - from the SCHED_KERNEL_LAST_CTA_ISSUED event on (the comparator of
 *    Fig. 4a), CTA-progress priority: warps of the CTA that has issued the
 *    fewest warp instructions first (the per-CTA-slot progress counter, the
 *    view's sched_cta.insts_issued -- the paper's 4-byte counter, reset when
 *    a CTA takes the slot), the oldest warp first within a CTA (and among
 *    CTAs of equal progress).
 * The mode starts as age priority when create() builds the instance (an
 * instance serves one launch; each kernel of a multi-kernel benchmark
 * switches at its own last CTA).  With ka_progress = 0 it never switches
 * (age order throughout: the ablation of docs/kaws.md).  No counters: which
 * mode is on is visible in the order.
 */
#include <stdlib.h>

#include "sched/ka.h"
#include "sched/sched_params.h"
#include "sched/sched_util.h"

struct ka {
	uint32_t nsched, nslots;
	bool progress_mode; /* the kernel's last CTA has been issued */
	bool progress;      /* ka_progress: switch to progress order then (else age order throughout) */
};

void sched_ka_destroy(void *st) { free(st); }

void *sched_ka_create(const struct sched_create_args *a)
{
	struct ka *s = calloc(1, sizeof *s);
	if (!s)
		return NULL;
	s->nsched = a->nsched;
	s->nslots = a->nslots;
	s->progress = sched_cfg_int(a->cfg, CFG_ka_progress) != 0;
	return s;
}

static uint64_t cta_progress(const struct sched_view *v, uint32_t slot)
{
	uint32_t c = v->warps[slot].cta_slot;
	return v->ctas && c < v->nctas ? v->ctas[c].insts_issued : 0;
}

uint32_t sched_ka_order(const void *st, const struct sched_view *v, uint32_t sched_id, uint32_t *order)
{
	const struct ka *s = st;
	if (sched_id >= s->nsched)
		return 0;
	uint32_t n;
	const uint32_t *sorted = sched_by_age(v, sched_id, &n);
	uint32_t k = 0;
	for (uint32_t i = 0; i < n; i++)
		if (!v->warps[sorted[i]].finished)
			order[k++] = sorted[i];
	if (!s->progress_mode)
		return k;
	/* stable insertion sort of the age order by CTA progress (a scheduler
	 * owns a few dozen warps at most) */
	for (uint32_t i = 1; i < k; i++) {
		uint32_t x = order[i];
		uint64_t px = cta_progress(v, x);
		uint32_t j = i;
		while (j > 0 && cta_progress(v, order[j - 1]) > px) {
			order[j] = order[j - 1];
			j--;
		}
		order[j] = x;
	}
	return k;
}

void sched_ka_on_kernel_event(void *st, const struct sched_view *v, enum sched_kernel_event ev)
{
	struct ka *s = st;
	if (ev == SCHED_KERNEL_LAST_CTA_ISSUED && s->progress)
		s->progress_mode = true;
}

WS_POLICY(ka, 110) = {
	.name = "ka",
	.description = "kernel-aware (KAWS paper): oldest warp first until the kernel's last CTA is issued, then the "
		       "warps of the CTA with the fewest issued instructions first",
	.create = sched_ka_create,
	.destroy = sched_ka_destroy,
	.order = sched_ka_order,
	.on_kernel_event = sched_ka_on_kernel_event,
};
