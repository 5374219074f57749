/*
 * sched_util.h -- helpers shared by the warp-scheduling policies.
 *
 * Models no hardware of its own: the small building blocks every policy
 * under src/sched/ needs -- which slots belong to a scheduler, the age
 * order of warps (oldest first, ties by warp-in-CTA then slot; the SM
 * hands each scheduler's warps already in that order, sched_by_age), a
 * round-robin walk over a scheduler's slots, GTO's greedy warp, wrappers'
 * inner policies, and what a hand-built view (tests) needs to stand in for
 * the SM: its age lists and a hold port.
 */
#ifndef WARPSIM_SCHED_UTIL_H
#define WARPSIM_SCHED_UTIL_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "sched/sched.h"

struct ws_config;

/* "No slot" (e.g. nothing issued yet). */
#define SCHED_NONE UINT32_MAX

/* A slot that scheduler `sched_id` may order: a valid, unfinished warp it owns.
 * Finished warps (waiting at the CTA's exit) can never issue again. */
static inline bool sched_candidate(const struct sched_warp *w, uint32_t sched_id)
{
	return w->valid && !w->finished && w->sched_id == sched_id;
}

/* Age priority: true if `a` is older (higher priority) than `b`.
 * Smaller age first; equal ages (warps of one CTA launched together) by
 * smaller warp_in_cta, then smaller slot.  A strict total order. */
static inline bool sched_older(const struct sched_warp *a, const struct sched_warp *b)
{
	if (a->age != b->age)
		return a->age < b->age;
	if (a->warp_in_cta != b->warp_in_cta)
		return a->warp_in_cta < b->warp_in_cta;
	return a->slot < b->slot;
}

/* Number of slots a policy may look at: the view's, capped by the capacity
 * the policy was created with. */
static inline uint32_t sched_nslots(const struct sched_view *v, uint32_t capacity)
{
	return v->nslots < capacity ? v->nslots : capacity;
}

/* Integer parameter `p` of `cfg`, or its declared default when cfg is NULL. */
int64_t sched_cfg_int(const struct ws_config *cfg, int p);
/* Floating-point parameter `p` of `cfg`, or its declared default when cfg is NULL. */
double sched_cfg_float(const struct ws_config *cfg, int p);

/* Sort slots[0..n) into age order (sched_older), in place, without allocating. */
void sched_sort_by_age(const struct sched_view *v, uint32_t *slots, uint32_t n);

/* Write scheduler `sched_id`'s candidate slots (sched_candidate) in slot order,
 * starting with the first slot after `after` and wrapping around (`after` ==
 * SCHED_NONE or out of range: start at slot 0).  Looks at slots [0, nslots).
 * Returns how many were written. */
uint32_t sched_rr_from(const struct sched_view *v, uint32_t nslots, uint32_t sched_id, uint32_t after,
		       uint32_t *out);

/*
 * GTO's greedy head, shared by every policy with a greedy part (gto,
 * gto-rotate, mwf-gto, saws): per scheduler, the slot it issued from last
 * and the age of the warp that was there.  The greedy warp is that slot
 * while it still holds the same resident, unfinished warp of the scheduler
 * (a slot reused by a new CTA does not inherit greediness).
 */
struct sched_greedy {
	uint32_t nsched;
	uint32_t *last;     /* [nsched] slot issued last, SCHED_NONE if none */
	uint64_t *last_age; /* [nsched] age of the warp issued last */
};

/* 0 on success, -1 on OOM (then safe to free). */
int sched_greedy_init(struct sched_greedy *g, uint32_t nsched);
void sched_greedy_free(struct sched_greedy *g);
/* Nothing issued yet, on every scheduler. */
void sched_greedy_reset(struct sched_greedy *g);
/* on_issue: scheduler `sched_id` issued from `slot`. */
void sched_greedy_issue(struct sched_greedy *g, const struct sched_view *v, uint32_t sched_id, uint32_t slot);
/* Scheduler `sched_id`'s greedy warp: its last issued slot if that slot
 * (< nslots) is still a candidate holding the same warp, else SCHED_NONE. */
uint32_t sched_greedy_get(const struct sched_greedy *g, const struct sched_view *v, uint32_t nslots,
			  uint32_t sched_id);
/* GTO order from a ranked list: `greedy` first (if not SCHED_NONE), then the
 * slots list[(start + i) % n] for i in [0, n), skipping `greedy` and finished
 * warps.  Writes to out[k..]; returns the new k. */
static inline uint32_t sched_greedy_then(const struct sched_view *v, uint32_t greedy, const uint32_t *list,
					 uint32_t n, uint32_t start, uint32_t *out, uint32_t k)
{
	if (greedy != SCHED_NONE)
		out[k++] = greedy;
	if (start > n)
		start = 0;
	for (uint32_t i = start; i < n; i++) {
		uint32_t slot = list[i];
		if (slot != greedy && !v->warps[slot].finished)
			out[k++] = slot;
	}
	for (uint32_t i = 0; i < start; i++) {
		uint32_t slot = list[i];
		if (slot != greedy && !v->warps[slot].finished)
			out[k++] = slot;
	}
	return k;
}

/* GTO order from the scheduler's candidates by age (sched_cands_by_age: no
 * finished warp in it): `greedy` first (if not SCHED_NONE), then list[0..n)
 * without it.  Writes to out[0..]; returns how many. */
static inline uint32_t sched_greedy_then_cands(uint32_t greedy, const uint32_t *list, uint32_t n, uint32_t *out)
{
	if (n <= 16) { /* a short list: a plain loop costs less than the calls to memcpy */
		uint32_t k = 0;
		if (greedy != SCHED_NONE)
			out[k++] = greedy;
		for (uint32_t i = 0; i < n; i++)
			if (list[i] != greedy)
				out[k++] = list[i];
		return k;
	}
	if (greedy == SCHED_NONE) {
		memcpy(out, list, (size_t)n * sizeof *list);
		return n;
	}
	/* greedy, the list before it, the list after it (the greedy warp is a
	 * candidate, so it is in the list; were it not, n + 1 <= nslots) */
	uint32_t p = 0;
	while (p < n && list[p] != greedy)
		p++;
	out[0] = greedy;
	memcpy(out + 1, list, (size_t)p * sizeof *list);
	if (p == n)
		return n + 1;
	memcpy(out + 1 + p, list + p + 1, (size_t)(n - p - 1) * sizeof *list);
	return n;
}

/*
 * The view's age lists (sched_view.age_sorted): fill sorted[nsched * nslots]
 * and count[nsched] from v->warps[0..nslots) -- per scheduler, the valid
 * slots it owns, sorted by sched_older -- and point v at them.  The SM
 * calls it when a CTA launches or exits; a hand-built view (tests) calls it
 * after changing which slots are valid or a warp's age, warp_in_cta or
 * sched_id.
 */
void sched_view_sort_ages(struct sched_view *v, uint32_t *sorted, uint32_t *count);

/* A hold port over a plain array of flags (bool[nslots], passed as owner):
 * for hand-built views, {sched_hold_in_array, flags} with view.held = flags. */
void sched_hold_in_array(void *flags, uint32_t slot, bool held);

/*
 * Wrappers (sched_policy.wraps, chosen as "NAME:INNER"): the inner policy
 * instance a wrapper delegates to.  sched_inner_create() creates it with
 * the wrapper's create args, except that it gets no inner policy of its own
 * and its counters start after the wrapper's `own_counters` counters.
 */
struct sched_inner {
	const struct sched_policy *p;
	void *st;
};

/* 0 on success, -1 on OOM or when a->inner is NULL. */
int sched_inner_create(struct sched_inner *in, const struct sched_create_args *a, uint32_t own_counters);
void sched_inner_destroy(struct sched_inner *in);

/* Forward a query or an event to the inner policy (hooks it leaves NULL are skipped). */
static inline uint32_t sched_inner_order(const struct sched_inner *in, const struct sched_view *v, uint32_t sched_id,
					 uint32_t *order)
{
	return in->p->order(in->st, v, sched_id, order);
}
static inline void sched_inner_on_cycle(const struct sched_inner *in, const struct sched_view *v, uint32_t sched_id)
{
	if (in->p->on_cycle)
		in->p->on_cycle(in->st, v, sched_id);
}
static inline uint64_t sched_inner_next_event(const struct sched_inner *in, const struct sched_view *v)
{
	const struct sched_timers *tm = in->p->timers;
	return tm && tm->next_event ? tm->next_event(in->st, v) : UINT64_MAX;
}
static inline void sched_inner_skip(const struct sched_inner *in, const struct sched_view *v, uint32_t sched_id,
				    uint64_t cycles)
{
	const struct sched_timers *tm = in->p->timers;
	if (tm && tm->skip)
		tm->skip(in->st, v, sched_id, cycles);
}
static inline void sched_inner_on_issue(const struct sched_inner *in, const struct sched_view *v, uint32_t sched_id,
					uint32_t slot)
{
	if (in->p->on_issue)
		in->p->on_issue(in->st, v, sched_id, slot);
}
static inline void sched_inner_on_barrier_arrive(const struct sched_inner *in, const struct sched_view *v,
						 uint32_t cta_slot, uint32_t slot)
{
	if (in->p->on_barrier_arrive)
		in->p->on_barrier_arrive(in->st, v, cta_slot, slot);
}
static inline void sched_inner_on_barrier_release(const struct sched_inner *in, const struct sched_view *v,
						  uint32_t cta_slot)
{
	if (in->p->on_barrier_release)
		in->p->on_barrier_release(in->st, v, cta_slot);
}
static inline void sched_inner_on_cta_launch(const struct sched_inner *in, const struct sched_view *v,
					     uint32_t cta_slot)
{
	if (in->p->on_cta_launch)
		in->p->on_cta_launch(in->st, v, cta_slot);
}
static inline void sched_inner_on_cta_exit(const struct sched_inner *in, const struct sched_view *v, uint32_t cta_slot)
{
	if (in->p->on_cta_exit)
		in->p->on_cta_exit(in->st, v, cta_slot);
}
static inline void sched_inner_on_kernel_event(const struct sched_inner *in, const struct sched_view *v,
					       enum sched_kernel_event ev)
{
	if (in->p->on_kernel_event)
		in->p->on_kernel_event(in->st, v, ev);
}
static inline void sched_inner_on_exec(const struct sched_inner *in, const struct sched_view *v,
				       const struct sched_exec_event *e)
{
	if (in->p->on_exec)
		in->p->on_exec(in->st, v, e);
}

#endif
