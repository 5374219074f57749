/*
 * mwf.c -- most-waiting-first warp scheduling (BAWS paper, Section 4.1):
 * the "mwf-lrr" and "mwf-gto" issue policies.
 *
 * Models the warp priority table (WPT) the paper adds to the SM's
 * synchronization control unit: one counter per CTA slot holding how many
 * of that CTA's warps wait at a barrier, incremented when a warp arrives and
 * reset when the barrier releases.  One table per SM serves all of its
 * schedulers (the policy instance is per SM).
 *
 * Order for a scheduler: first the running warps of CTAs with waiting warps,
 * CTA by CTA, highest count first and ties to the smallest CTA id; within a
 * CTA, MWF(LRR) goes round-robin (in warp-id order) starting after the warp
 * of that CTA issued last, and MWF(GTO) starts with the warp of that CTA
 * issued last and then takes the oldest (smallest warp id).  Then the warps
 * of CTAs with no waiting warp, as the paper's Section 6.5 describes BAWS
 * without barriers ("LRR or GTO for the warps within a TB and GTO for
 * selecting warps in the TB with the smallest TB-id between TBs"): MWF(LRR)
 * takes these CTAs by CTA id, oldest (smallest) first, each with the same
 * within-CTA round robin as a critical CTA; MWF(GTO) takes its base GTO
 * order (the scheduler's greedy warp, then the oldest), which is already
 * oldest CTA first, so with no warp at a barrier MWF(GTO) orders exactly like
 * GTO.  Warps waiting at a barrier cannot issue; they come last (in slot
 * order) so the order still lists every candidate once.  Finished warps are
 * left out.
 *
 * Exported counters (mwf_lrr_* / mwf_gto_*), to measure what MWF changes:
 * critical_issues, instructions issued to warps of CTAs with warps waiting at
 * a barrier; changed_issues, issues where the base policy's first ready warp
 * (GTO's greedy-then-oldest or LRR's round robin from the scheduler's last
 * issued warp, over the view's ready bits, which do not include unit
 * availability) was another warp.
 */
#include <stdlib.h>

#include "sched/sched_util.h"

struct mwf {
	bool gto;            /* within-CTA and base order: GTO (else LRR) */
	uint32_t nsched, nslots, nctas;
	uint32_t *wpt;       /* [nctas] warps waiting at a barrier */
	uint32_t *cta_last;  /* [nctas] warp-in-CTA index issued last in that CTA, SCHED_NONE if none */
	struct sched_greedy greedy; /* the scheduler's last issued warp (LRR uses only its slot) */
	uint32_t *scratch;   /* [nslots] order() scratch (not state) */
	uint32_t *ctas;      /* [nctas] order() scratch (not state) */
	uint64_t *ctr;       /* exported counters (mwf_counters), NULL: not counted */
};

enum { MWF_CTR_CRITICAL, MWF_CTR_CHANGED, MWF_NCTR };
static const struct sched_counter mwf_counters[MWF_NCTR] = {
	[MWF_CTR_CRITICAL] = {"critical_issues", "insts",
			      "instructions issued to warps of CTAs with warps waiting at a barrier (MWF's priority)"},
	[MWF_CTR_CHANGED] = {"changed_issues", "insts",
			     "issues where the base policy (GTO or LRR) would have chosen another ready warp first"},
};

static void mwf_destroy(void *st)
{
	struct mwf *s = st;
	if (!s)
		return;
	free(s->wpt);
	free(s->cta_last);
	sched_greedy_free(&s->greedy);
	free(s->scratch);
	free(s->ctas);
	free(s);
}

static void mwf_reset(struct mwf *s)
{
	for (uint32_t i = 0; i < s->nctas; i++) {
		s->wpt[i] = 0;
		s->cta_last[i] = SCHED_NONE;
	}
	sched_greedy_reset(&s->greedy);
}

static void *mwf_create_common(const struct sched_create_args *a, bool gto)
{
	struct mwf *s = calloc(1, sizeof *s);
	if (!s)
		return NULL;
	s->gto = gto;
	s->nsched = a->nsched;
	s->nslots = a->nslots;
	s->nctas = a->nctas;
	s->wpt = calloc(a->nctas ? a->nctas : 1, sizeof *s->wpt);
	s->cta_last = calloc(a->nctas ? a->nctas : 1, sizeof *s->cta_last);
	s->scratch = calloc(a->nslots ? a->nslots : 1, sizeof *s->scratch);
	s->ctas = calloc(a->nctas ? a->nctas : 1, sizeof *s->ctas);
	if (!s->wpt || !s->cta_last || sched_greedy_init(&s->greedy, a->nsched) != 0 || !s->scratch || !s->ctas) {
		mwf_destroy(s);
		return NULL;
	}
	s->ctr = a->counters;
	mwf_reset(s);
	return s;
}

static void *mwf_lrr_create(const struct sched_create_args *a) { return mwf_create_common(a, false); }
static void *mwf_gto_create(const struct sched_create_args *a) { return mwf_create_common(a, true); }

static bool runnable(const struct sched_warp *w, uint32_t sched_id)
{
	return sched_candidate(w, sched_id) && !w->at_barrier;
}

/* Append CTA c's runnable warps of scheduler sched_id to order (MWF's within-CTA order). */
static uint32_t order_cta(const struct mwf *s, const struct sched_view *v, uint32_t sched_id, uint32_t c,
			  uint32_t *order, uint32_t k)
{
	uint32_t nslots = sched_nslots(v, s->nslots), n = 0;
	for (uint32_t i = 0; i < nslots; i++) {
		const struct sched_warp *w = &v->warps[i];
		if (w->cta_slot == c && runnable(w, sched_id))
			s->scratch[n++] = i;
	}
	/* sort by warp id within the CTA (insertion sort: a CTA has few warps per scheduler) */
	for (uint32_t i = 1; i < n; i++) {
		uint32_t x = s->scratch[i], j = i;
		while (j > 0 && v->warps[s->scratch[j - 1]].warp_in_cta > v->warps[x].warp_in_cta) {
			s->scratch[j] = s->scratch[j - 1];
			j--;
		}
		s->scratch[j] = x;
	}
	uint32_t last = s->cta_last[c];
	if (s->gto) {
		/* the warp issued last in this CTA, then the oldest (smallest warp id) */
		for (uint32_t i = 0; i < n; i++)
			if (v->warps[s->scratch[i]].warp_in_cta == last)
				order[k++] = s->scratch[i];
		for (uint32_t i = 0; i < n; i++)
			if (v->warps[s->scratch[i]].warp_in_cta != last)
				order[k++] = s->scratch[i];
		return k;
	}
	/* round robin in warp-id order, starting after the warp issued last */
	uint32_t first = 0;
	if (last != SCHED_NONE)
		while (first < n && v->warps[s->scratch[first]].warp_in_cta <= last)
			first++;
	for (uint32_t i = 0; i < n; i++)
		order[k++] = s->scratch[(first + i) % (n ? n : 1)];
	return k;
}

/* Append to s->ctas[n..] the valid CTA slots among the first nctas that have
 * warps waiting at a barrier (critical) or have none (!critical), in MWF's
 * CTA order: the most waiting warps first, then the smallest CTA id (an
 * insertion sort: an SM holds few CTAs).  Returns the new count. */
static uint32_t ctas_sorted(const struct mwf *s, const struct sched_view *v, uint32_t nctas, bool critical, uint32_t n)
{
	uint32_t first = n;
	for (uint32_t c = 0; c < nctas; c++) {
		if (!v->ctas[c].valid || (s->wpt[c] > 0) != critical)
			continue;
		uint32_t j = n++;
		while (j > first) {
			uint32_t p = s->ctas[j - 1];
			bool before = s->wpt[c] > s->wpt[p] || (s->wpt[c] == s->wpt[p] && v->ctas[c].cta_id < v->ctas[p].cta_id);
			if (!before)
				break;
			s->ctas[j] = p;
			j--;
		}
		s->ctas[j] = c;
	}
	return n;
}

static uint32_t mwf_order(const void *st, const struct sched_view *v, uint32_t sched_id, uint32_t *order)
{
	const struct mwf *s = st;
	if (sched_id >= s->nsched)
		return 0;
	uint32_t nctas = v->nctas < s->nctas ? v->nctas : s->nctas;
	/* critical CTAs: at least one warp waiting, sorted by (count desc, CTA id asc) */
	uint32_t nc = ctas_sorted(s, v, nctas, true, 0);
	uint32_t k = 0;
	for (uint32_t i = 0; i < nc; i++)
		k = order_cta(s, v, sched_id, s->ctas[i], order, k);
	/* the rest: MWF(GTO) in GTO's order, MWF(LRR) CTA by CTA, oldest first */
	uint32_t nslots = sched_nslots(v, s->nslots);
	if (s->gto) {
		uint32_t n;
		const uint32_t *sorted = sched_by_age(v, sched_id, &n);
		uint32_t g = sched_greedy_get(&s->greedy, v, nslots, sched_id);
		if (g != SCHED_NONE && !v->warps[g].at_barrier && s->wpt[v->warps[g].cta_slot] == 0)
			order[k++] = g;
		else
			g = SCHED_NONE;
		for (uint32_t i = 0; i < n; i++) {
			const struct sched_warp *w = &v->warps[sorted[i]];
			if (sorted[i] != g && runnable(w, sched_id) && !(w->cta_slot < s->nctas && s->wpt[w->cta_slot]))
				order[k++] = sorted[i];
		}
	} else {
		uint32_t nr = ctas_sorted(s, v, nctas, false, nc);
		for (uint32_t i = nc; i < nr; i++)
			k = order_cta(s, v, sched_id, s->ctas[i], order, k);
		/* warps whose CTA slot the view does not list (none in a consistent view) */
		for (uint32_t i = 0; i < nslots; i++) {
			const struct sched_warp *w = &v->warps[i];
			if (runnable(w, sched_id) && (w->cta_slot >= nctas || !v->ctas[w->cta_slot].valid))
				order[k++] = i;
		}
	}
	/* warps at a barrier last */
	for (uint32_t i = 0; i < nslots; i++) {
		const struct sched_warp *w = &v->warps[i];
		if (sched_candidate(w, sched_id) && w->at_barrier)
			order[k++] = i;
	}
	return k;
}

/* Could the view's warp i issue this cycle, as far as its ready bit tells? */
static bool issuable(const struct sched_view *v, uint32_t i, uint32_t sched_id)
{
	const struct sched_warp *w = &v->warps[i];
	return runnable(w, sched_id) && w->ready && !sched_held(v, i);
}

/* The warp the base policy alone would have issued first (before this issue
 * updates its state), SCHED_NONE if none is ready. */
static uint32_t base_choice(struct mwf *s, const struct sched_view *v, uint32_t sched_id)
{
	uint32_t nslots = sched_nslots(v, s->nslots);
	if (s->gto) {
		uint32_t g = sched_greedy_get(&s->greedy, v, nslots, sched_id), n;
		if (g != SCHED_NONE && issuable(v, g, sched_id))
			return g;
		const uint32_t *sorted = sched_by_age(v, sched_id, &n);
		for (uint32_t i = 0; i < n; i++)
			if (issuable(v, sorted[i], sched_id))
				return sorted[i];
		return SCHED_NONE;
	}
	uint32_t n = sched_rr_from(v, nslots, sched_id, s->greedy.last[sched_id], s->scratch);
	for (uint32_t i = 0; i < n; i++)
		if (issuable(v, s->scratch[i], sched_id))
			return s->scratch[i];
	return SCHED_NONE;
}

static void mwf_on_issue(void *st, const struct sched_view *v, uint32_t sched_id, uint32_t slot)
{
	struct mwf *s = st;
	if (sched_id >= s->nsched || slot >= v->nslots)
		return;
	if (s->ctr) {
		uint32_t wc = v->warps[slot].cta_slot;
		s->ctr[MWF_CTR_CRITICAL] += wc < s->nctas && s->wpt[wc] > 0;
		s->ctr[MWF_CTR_CHANGED] += base_choice(s, v, sched_id) != slot;
	}
	sched_greedy_issue(&s->greedy, v, sched_id, slot);
	uint32_t c = v->warps[slot].cta_slot;
	if (c < s->nctas)
		s->cta_last[c] = v->warps[slot].warp_in_cta;
}

static void mwf_on_barrier_arrive(void *st, const struct sched_view *v, uint32_t cta_slot, uint32_t slot)
{
	struct mwf *s = st;
	if (cta_slot < s->nctas)
		s->wpt[cta_slot]++;
}

static void mwf_on_barrier_release(void *st, const struct sched_view *v, uint32_t cta_slot)
{
	struct mwf *s = st;
	if (cta_slot < s->nctas)
		s->wpt[cta_slot] = 0;
}

static void mwf_on_cta(void *st, const struct sched_view *v, uint32_t cta_slot)
{
	struct mwf *s = st;
	if (cta_slot < s->nctas) {
		s->wpt[cta_slot] = 0;
		s->cta_last[cta_slot] = SCHED_NONE;
	}
}

WS_POLICY(mwf_lrr, 50) = {
	.name = "mwf-lrr",
	.description = "BAWS most-waiting-first: CTAs with the most warps at a barrier first, LRR within a CTA",
	.create = mwf_lrr_create,
	.destroy = mwf_destroy,
	.order = mwf_order,
	.on_issue = mwf_on_issue,
	.on_barrier_arrive = mwf_on_barrier_arrive,
	.on_barrier_release = mwf_on_barrier_release,
	.on_cta_launch = mwf_on_cta,
	.on_cta_exit = mwf_on_cta,
	.counters = mwf_counters,
	.ncounters = MWF_NCTR,
};

WS_POLICY(mwf_gto, 60) = {
	.name = "mwf-gto",
	.description = "BAWS most-waiting-first: CTAs with the most warps at a barrier first, GTO within a CTA",
	.create = mwf_gto_create,
	.destroy = mwf_destroy,
	.order = mwf_order,
	.on_issue = mwf_on_issue,
	.on_barrier_arrive = mwf_on_barrier_arrive,
	.on_barrier_release = mwf_on_barrier_release,
	.on_cta_launch = mwf_on_cta,
	.on_cta_exit = mwf_on_cta,
	.counters = mwf_counters,
	.ncounters = MWF_NCTR,
};
