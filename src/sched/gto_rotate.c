/*
 * gto_rotate.c -- GTO with periodic age rotation (the BOWS paper's baseline).
 *
 * Models the modified GTO arbiter of ElTantawy and Aamodt (BOWS, HPCA 2018,
 * Sec. V): strict GTO can livelock spin-lock code (the oldest warp spins on
 * a lock a younger warp holds), so "the age priority is rotated
 * periodically (every 50,000 cycles)".  The paper does not spell out the
 * rotation; warpsim rotates the age ring:
 *
 *   - Each scheduler's valid warps are arranged in age order (as GTO: age,
 *     then warp_in_cta, then slot) and read as a ring.  A per-scheduler
 *     pivot key says where the ring starts: the order begins with the first
 *     warp whose key is greater than the pivot (no pivot: the oldest warp),
 *     runs to the youngest, then wraps to the oldest.
 *   - Whenever the core cycle crosses a multiple of gto_rotate_period (seen
 *     by the per-cycle hook on_cycle; order() only reads the ring), the
 *     warp currently at the head of the ring (the effective "oldest"
 *     unfinished warp) becomes the pivot, i.e. it moves to the back and the
 *     next warp in age order becomes the most senior.  For an unchanging set
 *     of n warps this is a left rotation of the age ranking by one position
 *     per period, so every warp is the most senior for one period in n.
 *     Warps that arrive later take their age position in the ring; warps
 *     that leave do not disturb it (the pivot is a key, not an index).
 *   - Greedy part unchanged: the last issued warp (same resident unfinished
 *     warp) comes first.
 *
 * gto_rotate_period = 0 disables rotation (plain GTO).
 */
#include <stdlib.h>

#include "sched/sched_params.h"
#include "sched/sched_util.h"

struct gto_rot {
	uint32_t nsched, nslots;
	uint64_t period;
	struct sched_greedy greedy;
	bool *has_pivot;           /* [nsched] */
	struct sched_warp *pivot;  /* [nsched] key of the pivot: age, warp_in_cta, slot */
	uint64_t *seen_period;     /* [nsched] cycle / period at the last on_cycle(); UINT64_MAX if none yet */
	uint64_t *ctr;             /* exported counters (rot_counters), NULL: not counted */
};

static const struct sched_counter rot_counters[] = {
	{"rotations", "rotations", "age-ring rotations that changed the most senior warp (summed over schedulers)"},
};

static void rot_destroy(void *st)
{
	struct gto_rot *s = st;
	if (!s)
		return;
	sched_greedy_free(&s->greedy);
	free(s->has_pivot);
	free(s->pivot);
	free(s->seen_period);
	free(s);
}

static void rot_reset(struct gto_rot *s)
{
	sched_greedy_reset(&s->greedy);
	for (uint32_t i = 0; i < s->nsched; i++) {
		s->has_pivot[i] = false;
		s->seen_period[i] = UINT64_MAX;
	}
}

static void *rot_create(const struct sched_create_args *a)
{
	struct gto_rot *s = calloc(1, sizeof *s);
	if (!s)
		return NULL;
	size_t ns = a->nsched ? a->nsched : 1;
	s->nsched = a->nsched;
	s->nslots = a->nslots;
	s->ctr = a->counters;
	int64_t k = sched_cfg_int(a->cfg, CFG_gto_rotate_period);
	s->period = k > 0 ? (uint64_t)k : 0;
	s->has_pivot = calloc(ns, sizeof *s->has_pivot);
	s->pivot = calloc(ns, sizeof *s->pivot);
	s->seen_period = calloc(ns, sizeof *s->seen_period);
	if (sched_greedy_init(&s->greedy, a->nsched) != 0 || !s->has_pivot || !s->pivot || !s->seen_period) {
		rot_destroy(s);
		return NULL;
	}
	rot_reset(s);
	return s;
}

/* Index in sorted[0..n) where the ring starts: the first warp younger than the pivot. */
static uint32_t ring_start(const struct gto_rot *s, const struct sched_view *v, uint32_t sched_id,
			   const uint32_t *sorted, uint32_t n)
{
	if (!s->has_pivot[sched_id])
		return 0;
	for (uint32_t i = 0; i < n; i++)
		if (sched_older(&s->pivot[sched_id], &v->warps[sorted[i]]))
			return i;
	return 0;
}

/* Apply the rotations due since the last call: each one moves the current
 * head of the ring (first unfinished warp) behind everything else. */
static void maybe_rotate(struct gto_rot *s, const struct sched_view *v, uint32_t sched_id, const uint32_t *sorted,
			 uint32_t n)
{
	if (s->period == 0)
		return;
	uint64_t p = v->cycle / s->period;
	uint64_t seen = s->seen_period[sched_id];
	s->seen_period[sched_id] = p;
	if (seen == UINT64_MAX || p <= seen)
		return;
	uint64_t steps = p - seen;
	uint32_t live = 0;
	for (uint32_t i = 0; i < n; i++)
		live += !v->warps[sorted[i]].finished;
	if (live == 0)
		return;
	steps %= live;
	if (steps == 0)
		return; /* whole turns of the ring: same head */
	uint32_t start = ring_start(s, v, sched_id, sorted, n);
	/* The steps-th unfinished warp from the head becomes the pivot. */
	for (uint32_t i = 0; i < n; i++) {
		uint32_t idx = start + i < n ? start + i : start + i - n;
		const struct sched_warp *w = &v->warps[sorted[idx]];
		if (w->finished)
			continue;
		if (--steps == 0) {
			struct sched_warp *pv = &s->pivot[sched_id];
			pv->age = w->age;
			pv->warp_in_cta = w->warp_in_cta;
			pv->slot = w->slot;
			s->has_pivot[sched_id] = true;
			if (s->ctr)
				s->ctr[0]++;
			return;
		}
	}
}

static uint32_t rot_order(const void *st, const struct sched_view *v, uint32_t sched_id, uint32_t *order)
{
	const struct gto_rot *s = st;
	if (sched_id >= s->nsched)
		return 0;
	uint32_t n;
	const uint32_t *sorted = sched_by_age(v, sched_id, &n);
	uint32_t g = sched_greedy_get(&s->greedy, v, sched_nslots(v, s->nslots), sched_id);
	return sched_greedy_then(v, g, sorted, n, ring_start(s, v, sched_id, sorted, n), order, 0);
}

/* Before the scheduler's order is asked for: take the rotations that are due. */
static void rot_on_cycle(void *st, const struct sched_view *v, uint32_t sched_id)
{
	struct gto_rot *s = st;
	if (sched_id >= s->nsched)
		return;
	uint32_t n;
	const uint32_t *sorted = sched_by_age(v, sched_id, &n);
	maybe_rotate(s, v, sched_id, sorted, n);
}

/* Sleeping SMs (sched.h): on_cycle changes nothing until the next period boundary. */
static uint64_t rot_next_event(const void *st, const struct sched_view *v)
{
	const struct gto_rot *s = st;
	return s->period ? (v->cycle / s->period + 1) * s->period : UINT64_MAX;
}

static void rot_on_issue(void *st, const struct sched_view *v, uint32_t sched_id, uint32_t slot)
{
	struct gto_rot *s = st;
	sched_greedy_issue(&s->greedy, v, sched_id, slot);
}

/* the rotation period's boundaries */
static const struct sched_timers rot_timers = {.next_event = rot_next_event};

WS_POLICY(gto_rotate, 40) = {
	.name = "gto-rotate",
	.description = "GTO whose age ranking rotates by one warp every gto_rotate_period cycles (BOWS baseline)",
	.create = rot_create,
	.destroy = rot_destroy,
	.counters = rot_counters,
	.ncounters = 1,
	.order = rot_order,
	.on_cycle = rot_on_cycle,
	.timers = &rot_timers,
	.on_issue = rot_on_issue,
};
