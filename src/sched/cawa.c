/*
 * cawa.c -- the warp scheduler of CAWA (criticality-aware warp acceleration,
 * Lee, Arunkumar and Wu, ISCA 2015) as the BOWS paper uses it as a
 * baseline: a greedy criticality-aware scheduler (gCAWS).
 *
 * Models the criticality prediction logic: per warp,
 *     criticality = nInst x CPIavg + nStall
 * where nInst estimates the warp's remaining dynamic instructions from its
 * branch outcomes (starts at the kernel's static instruction count, minus
 * one per issued instruction, plus the loop body length on a taken backward
 * branch, minus the skipped length on a forward branch that all executing
 * lanes took), CPIavg = cycles since the warp's CTA arrived / instructions
 * the warp issued, and nStall = the warp's stall cycles (sched_warp).  The
 * order is greedy: the last issued warp while it is the same warp, then the
 * other warps most critical first (ties: age order).
 *
 * For CAWA's other half, criticality-aware L1D cache prioritization (CACP,
 * src/mem/cacp.h, on with l1d_cacp), the policy answers the critical()
 * query: a warp is critical when its criticality is at least cawa_crit_pct
 * percent of the highest among its CTA's running warps (the CPL identifies
 * the critical warps of a thread block).
 */
#include <stdlib.h>

#include "sched/sched_params.h"
#include "sched/sched_util.h"

struct cawa_warp {
	uint64_t age;
	bool used;
	int64_t ninst;
};

struct cawa {
	uint32_t nsched, nslots;
	int64_t init;
	double crit_frac; /* cawa_crit_pct / 100 */
	struct sched_greedy greedy;
	struct cawa_warp *w; /* [nslots] */
	double *crit;        /* [nslots] order scratch (rewritten by every order call) */
	uint32_t *tmp;       /* [nslots] order scratch */
};

static void cawa_destroy(void *st)
{
	struct cawa *s = st;
	if (!s)
		return;
	sched_greedy_free(&s->greedy);
	free(s->w);
	free(s->crit);
	free(s->tmp);
	free(s);
}

static void *cawa_create(const struct sched_create_args *a)
{
	struct cawa *s = calloc(1, sizeof *s);
	if (!s)
		return NULL;
	s->nsched = a->nsched;
	s->nslots = a->nslots;
	s->init = a->kernel_insts;
	s->crit_frac = (double)sched_cfg_int(a->cfg, CFG_cawa_crit_pct) / 100.0;
	size_t n = a->nslots ? a->nslots : 1;
	s->w = calloc(n, sizeof *s->w);
	s->crit = calloc(n, sizeof *s->crit);
	s->tmp = calloc(n, sizeof *s->tmp);
	if (!s->w || !s->crit || !s->tmp || sched_greedy_init(&s->greedy, a->nsched) != 0) {
		cawa_destroy(s);
		return NULL;
	}
	return s;
}

/* nInst of the warp in `slot` (a warp not seen yet has the initial estimate). */
static int64_t ninst_of(const struct cawa *s, const struct sched_view *v, uint32_t slot)
{
	const struct cawa_warp *w = &s->w[slot];
	return w->used && w->age == v->warps[slot].age ? w->ninst : s->init;
}

static struct cawa_warp *warp_of(struct cawa *s, const struct sched_view *v, uint32_t slot)
{
	struct cawa_warp *w = &s->w[slot];
	if (!w->used || w->age != v->warps[slot].age)
		*w = (struct cawa_warp){.age = v->warps[slot].age, .used = true, .ninst = s->init};
	return w;
}

static double cawa_criticality(int64_t ninst, const struct sched_view *v, uint32_t slot)
{
	const struct sched_warp *w = &v->warps[slot];
	uint64_t since = w->cta_slot < v->nctas && v->ctas ? v->ctas[w->cta_slot].launch_cycle : 0;
	uint64_t cycles = v->cycle > since ? v->cycle - since : 0;
	double cpi = (double)cycles / (double)(w->insts_issued ? w->insts_issued : 1);
	return (double)ninst * cpi + (double)sched_warp_stall_cycles(w, v->cycle);
}

static uint32_t cawa_order(const void *st, const struct sched_view *v, uint32_t sched_id, uint32_t *order)
{
	const struct cawa *s = st;
	if (sched_id >= s->nsched)
		return 0;
	uint32_t n;
	const uint32_t *sorted = sched_by_age(v, sched_id, &n);
	uint32_t g = sched_greedy_get(&s->greedy, v, sched_nslots(v, s->nslots), sched_id);
	uint32_t m = 0;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t slot = sorted[i];
		if (slot == g || v->warps[slot].finished)
			continue;
		s->crit[slot] = cawa_criticality(ninst_of(s, v, slot), v, slot);
		/* insertion by criticality, most critical first; stable, so ties keep age order */
		uint32_t j = m++;
		while (j > 0 && s->crit[s->tmp[j - 1]] < s->crit[slot]) {
			s->tmp[j] = s->tmp[j - 1];
			j--;
		}
		s->tmp[j] = slot;
	}
	uint32_t k = 0;
	if (g != SCHED_NONE)
		order[k++] = g;
	for (uint32_t i = 0; i < m; i++)
		order[k++] = s->tmp[i];
	return k;
}

/* Is the warp in `slot` critical: its criticality at least crit_frac of the
 * highest among its CTA's running warps? */
static bool cawa_critical(const void *st, const struct sched_view *v, uint32_t slot)
{
	const struct cawa *s = st;
	if (slot >= s->nslots || slot >= v->nslots || !v->warps[slot].valid)
		return false;
	uint32_t cta = v->warps[slot].cta_slot;
	double mine = cawa_criticality(ninst_of(s, v, slot), v, slot), top = mine;
	for (uint32_t i = 0; i < v->nslots && i < s->nslots; i++) {
		const struct sched_warp *w = &v->warps[i];
		if (i != slot && w->valid && !w->finished && w->cta_slot == cta) {
			double c = cawa_criticality(ninst_of(s, v, i), v, i);
			if (c > top)
				top = c;
		}
	}
	/* a non-positive maximum: only the warps at the maximum are critical */
	return top > 0 ? mine >= s->crit_frac * top : mine >= top;
}

static void cawa_on_issue(void *st, const struct sched_view *v, uint32_t sched_id, uint32_t slot)
{
	struct cawa *s = st;
	sched_greedy_issue(&s->greedy, v, sched_id, slot);
	if (slot < s->nslots)
		warp_of(s, v, slot)->ninst--;
}

static void cawa_on_exec(void *st, const struct sched_view *v, const struct sched_exec_event *e)
{
	struct cawa *s = st;
	if (!e->is_branch || !e->taken || e->target < 0 || e->slot >= s->nslots)
		return;
	struct cawa_warp *w = warp_of(s, v, e->slot);
	if (e->backward)
		w->ninst += (int64_t)e->pc - e->target + 1; /* the loop body runs again */
	else if (!e->diverged && e->target > e->pc + 1)
		w->ninst -= (int64_t)e->target - e->pc - 1; /* skipped */
}

WS_POLICY(cawa, 80) = {
    .name = "cawa",
    .description = "CAWA's greedy criticality-aware scheduler: the last issued warp, then the most critical "
                   "(nInst x CPIavg + nStall); with l1d_cacp, the L1D prioritizes its critical warps' lines (CACP)",
    .create = cawa_create,
    .destroy = cawa_destroy,
    .order = cawa_order,
    .on_issue = cawa_on_issue,
    .on_exec = cawa_on_exec,
    .critical = cawa_critical,
};
