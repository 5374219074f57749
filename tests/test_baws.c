/*
 * test_baws.c -- unit tests of the BAWS-paper policies on hand-built
 * scheduler views: MWF(LRR) and MWF(GTO) (the paper's Figure 7 example, the
 * warp priority table shared by two schedulers, the order of CTAs with no
 * waiting warp), SAWS (first-hit-time order), CFF and FEF fetch choices.
 */
#include <string.h>

#include "sched/sched.h"
#include "sched/sched_util.h"
#include "test.h"

#define NW 12
#define NC 3

struct fake {
	struct sched_warp w[NW];
	struct sched_cta c[NC];
	struct sched_view v;
	uint32_t ages[2 * NW], nages[2]; /* the view's age lists */
};

/* Figure 7: 3 TBs of 4 warps; TB0: w2 waits; TB1: w5, w7 wait; TB2: w9, w10, w11 wait. */
static void fig7(struct fake *f, uint32_t nsched)
{
	memset(f, 0, sizeof *f);
	for (uint32_t i = 0; i < NW; i++) {
		f->w[i] = (struct sched_warp){.valid = true, .slot = i, .sched_id = i % nsched, .age = i,
					      .cta_slot = i / 4, .cta_id = i / 4, .warp_in_cta = i % 4,
					      .ibuf_depth = 2, .ibuf_count = 1, .ibuf_head_valid = true};
	}
	for (uint32_t c = 0; c < NC; c++)
		f->c[c] = (struct sched_cta){.valid = true, .cta_id = c, .nwarps = 4, .first_barrier_hit = UINT64_MAX};
	f->v = (struct sched_view){.cycle = 1000, .nsched = nsched, .nslots = NW, .warps = f->w, .nctas = NC, .ctas = f->c};
	sched_view_sort_ages(&f->v, f->ages, f->nages);
}

static void *make(const struct sched_policy *p, uint32_t nsched)
{
	struct sched_create_args a = {.cfg = NULL, .sm = 0, .nsched = nsched, .nslots = NW, .nctas = NC};
	return p->create(&a);
}

static void arrive(const struct sched_policy *p, void *st, struct fake *f, uint32_t slot)
{
	f->w[slot].at_barrier = true;
	f->c[f->w[slot].cta_slot].warps_at_barrier++;
	p->on_barrier_arrive(st, &f->v, f->w[slot].cta_slot, slot);
}

static void fig7_events(const struct sched_policy *p, void *st, struct fake *f)
{
	p->on_issue(st, &f->v, f->w[0].sched_id, 0); /* last issued in TB0: w0 */
	p->on_issue(st, &f->v, f->w[7].sched_id, 7); /* last issued in TB1: w7, which then reaches the barrier */
	static const uint32_t waiting[] = {2, 5, 7, 9, 10, 11};
	for (unsigned i = 0; i < 6; i++)
		arrive(p, st, f, waiting[i]);
}

/* The first nw entries of the order must be want[]; the rest (if any) are
 * warps waiting at a barrier, which cannot issue. */
static void check_prefix(struct test_ctx *t, const struct fake *f, const uint32_t *got, uint32_t n, const uint32_t *want,
			 uint32_t nw, const char *what);

static void check_order(struct test_ctx *t, const uint32_t *got, uint32_t n, const uint32_t *want, uint32_t nw,
			const char *what)
{
	int same = n == nw;
	for (uint32_t i = 0; same && i < n; i++)
		same = got[i] == want[i];
	if (!same) {
		char a[128] = "", b[128] = "";
		for (uint32_t i = 0; i < n; i++)
			snprintf(a + strlen(a), sizeof a - strlen(a), " w%u", got[i]);
		for (uint32_t i = 0; i < nw; i++)
			snprintf(b + strlen(b), sizeof b - strlen(b), " w%u", want[i]);
		test_fail(t, __FILE__, __LINE__, "%s: order%s, expected%s", what, a, b);
	}
}

static void check_prefix(struct test_ctx *t, const struct fake *f, const uint32_t *got, uint32_t n, const uint32_t *want,
			 uint32_t nw, const char *what)
{
	check_order(t, got, n < nw ? n : nw, want, nw, what);
	for (uint32_t i = nw; i < n; i++)
		CHECK_MSG(f->w[got[i]].at_barrier, "%s: w%u after the running warps is not at a barrier", what, got[i]);
}

TEST(baws_mwf_lrr_figure7)
{
	const struct sched_policy *p = sched_policy_find("mwf-lrr");
	CHECK(p != NULL);
	if (!p)
		return;
	struct fake f;
	fig7(&f, 1);
	void *st = make(p, 1);
	fig7_events(p, st, &f);
	uint32_t order[NW];
	uint32_t n = p->order(st, &f.v, 0, order);
	static const uint32_t want[] = {8, 4, 6, 1, 3, 0}; /* the paper's order */
	check_prefix(t, &f, order, n, want, 6, "MWF(LRR) Figure 7");
	CHECK_EQ(n, 12);
	/* TB2's barrier releases: TB1 (2 waiting) becomes the most critical */
	for (uint32_t i = 9; i < 12; i++)
		f.w[i].at_barrier = false;
	p->on_barrier_release(st, &f.v, 2);
	n = p->order(st, &f.v, 0, order);
	CHECK(n >= 2);
	CHECK_EQ(order[0], 4);
	CHECK_EQ(order[1], 6);
	p->destroy(st);
}

TEST(baws_mwf_gto_figure7)
{
	const struct sched_policy *p = sched_policy_find("mwf-gto");
	CHECK(p != NULL);
	if (!p)
		return;
	struct fake f;
	fig7(&f, 1);
	void *st = make(p, 1);
	fig7_events(p, st, &f);
	uint32_t order[NW];
	uint32_t n = p->order(st, &f.v, 0, order);
	/* GTO within a TB: the TB's last issued warp (w0 in TB0), then the oldest */
	static const uint32_t want[] = {8, 4, 6, 0, 1, 3};
	check_prefix(t, &f, order, n, want, 6, "MWF(GTO) Figure 7");
	p->destroy(st);
}

TEST(baws_mwf_table_shared_by_two_schedulers)
{
	const struct sched_policy *p = sched_policy_find("mwf-lrr");
	if (!p)
		return;
	struct fake f;
	fig7(&f, 2);
	void *st = make(p, 2);
	fig7_events(p, st, &f);
	uint32_t order[NW];
	uint32_t n = p->order(st, &f.v, 0, order);
	static const uint32_t want0[] = {8, 4, 6, 0};
	check_prefix(t, &f, order, n, want0, 4, "scheduler 0 (even slots)");
	n = p->order(st, &f.v, 1, order);
	static const uint32_t want1[] = {1, 3};
	check_prefix(t, &f, order, n, want1, 2, "scheduler 1 (odd slots)");
	p->destroy(st);
}

TEST(baws_mwf_gto_without_waiting_warps_is_gto)
{
	const struct sched_policy *pg = sched_policy_find("mwf-gto"), *gto = sched_policy_find("gto");
	if (!pg || !gto)
		return;
	struct fake f;
	fig7(&f, 1);
	void *a = make(pg, 1), *b = make(gto, 1);
	pg->on_issue(a, &f.v, 0, 5);
	gto->on_issue(b, &f.v, 0, 5);
	uint32_t o1[NW], o2[NW];
	uint32_t n1 = pg->order(a, &f.v, 0, o1), n2 = gto->order(b, &f.v, 0, o2);
	check_order(t, o1, n1, o2, n2, pg->name);
	pg->destroy(a);
	gto->destroy(b);
}

/* BAWS Section 6.5: with no warp at a barrier, MWF(LRR) takes the CTAs by CTA
 * id, oldest (smallest) first, and goes round-robin within each CTA from the
 * warp after the one that CTA issued last -- not plain LRR from the
 * scheduler's last issued warp.  The CTA slots hold CTA ids 7, 5, 6 here, so
 * slot order is not CTA-id order. */
TEST(baws_mwf_lrr_without_waiting_warps_cta_id_order)
{
	const struct sched_policy *p = sched_policy_find("mwf-lrr"), *lrr = sched_policy_find("lrr");
	CHECK(p != NULL && lrr != NULL);
	if (!p || !lrr)
		return;
	struct fake f;
	fig7(&f, 1);
	static const uint32_t ids[NC] = {7, 5, 6};
	for (uint32_t i = 0; i < NW; i++)
		f.w[i].cta_id = ids[i / 4];
	for (uint32_t c = 0; c < NC; c++)
		f.c[c].cta_id = ids[c];
	void *st = make(p, 1), *ls = make(lrr, 1);
	p->on_issue(st, &f.v, 0, 1); /* CTA 7 (slot 0) issued w1 last */
	p->on_issue(st, &f.v, 0, 6); /* CTA 5 (slot 1): w6, the scheduler's last issue */
	lrr->on_issue(ls, &f.v, 0, 6);
	uint32_t order[NW];
	uint32_t n = p->order(st, &f.v, 0, order);
	static const uint32_t want[] = {7, 4, 5, 6, 8, 9, 10, 11, 2, 3, 0, 1};
	check_order(t, order, n, want, NW, "MWF(LRR), no warp at a barrier");
	uint32_t lo[NW], nl = lrr->order(ls, &f.v, 0, lo);
	CHECK(nl == NW && lo[0] == 7 && lo[1] == 8); /* plain LRR would go on from w6 in slot order */
	/* a barrier makes CTA 6 (slot 2) critical; the other two stay in CTA-id order */
	arrive(p, st, &f, 9);
	n = p->order(st, &f.v, 0, order);
	static const uint32_t want2[] = {8, 10, 11, 7, 4, 5, 6, 2, 3, 0, 1};
	check_prefix(t, &f, order, n, want2, 11, "MWF(LRR), CTA 6 critical");
	CHECK_EQ(n, NW);
	lrr->destroy(ls);
	p->destroy(st);
}

TEST(baws_saws_first_hit_order)
{
	const struct sched_policy *p = sched_policy_find("saws");
	CHECK(p != NULL);
	if (!p)
		return;
	struct fake f;
	fig7(&f, 1);
	void *st = make(p, 1);
	/* TB1's first warp hit the barrier at cycle 100, TB2's at 50; TB0 has none waiting */
	f.w[5].at_barrier = true;
	f.c[1].first_barrier_hit = 100;
	f.w[9].at_barrier = true;
	f.c[2].first_barrier_hit = 50;
	uint32_t order[NW];
	uint32_t n = p->order(st, &f.v, 0, order);
	static const uint32_t want[] = {8, 10, 11, 4, 6, 7, 0, 1, 2, 3};
	check_prefix(t, &f, order, n, want, 10, "SAWS");
	/* greedy: the warp issued last stays first within its CTA */
	p->on_issue(st, &f.v, 0, 11);
	n = p->order(st, &f.v, 0, order);
	static const uint32_t want2[] = {11, 8, 10, 4, 6, 7, 0, 1, 2, 3};
	check_prefix(t, &f, order, n, want2, 10, "SAWS greedy");
	p->destroy(st);
}

TEST(baws_cff_fetches_for_the_critical_warp)
{
	const struct sched_policy *p = sched_policy_find("mwf-lrr");
	const struct fetch_policy *cff = fetch_policy_find("cff");
	CHECK(cff != NULL);
	if (!p || !cff)
		return;
	struct fake f;
	fig7(&f, 1);
	void *st = make(p, 1);
	fig7_events(p, st, &f);
	struct sched_create_args a = {.nsched = 1, .nslots = NW, .nctas = NC};
	void *fs = cff->create(&a);
	bool el[NW];
	for (int i = 0; i < NW; i++)
		el[i] = !f.w[i].at_barrier;
	CHECK_EQ(cff->choose(fs, &f.v, el, p, st), 8); /* the most critical warp */
	el[8] = false;                                   /* its I-buffer is full */
	CHECK_EQ(cff->choose(fs, &f.v, el, p, st), 4);
	/* under GTO: the greedy warp, else the oldest */
	const struct sched_policy *g = sched_policy_find("gto");
	void *gs = make(g, 1);
	g->on_issue(gs, &f.v, 0, 6);
	CHECK_EQ(cff->choose(fs, &f.v, el, g, gs), 6);
	el[6] = false;
	CHECK_EQ(cff->choose(fs, &f.v, el, g, gs), 0);
	g->destroy(gs);
	cff->destroy(fs);
	p->destroy(st);
}

TEST(baws_fef_fewest_entries_first)
{
	const struct fetch_policy *fef = fetch_policy_find("fef");
	CHECK(fef != NULL);
	if (!fef)
		return;
	struct fake f;
	fig7(&f, 1);
	struct sched_create_args a = {.nsched = 1, .nslots = NW, .nctas = NC};
	void *fs = fef->create(&a);
	bool el[NW];
	for (int i = 0; i < NW; i++) {
		el[i] = true;
		f.w[i].ibuf_count = 1;
	}
	f.w[7].ibuf_count = 0;
	f.w[3].ibuf_count = 0;
	CHECK_EQ(fef->choose(fs, &f.v, el, NULL, NULL), 3); /* fewest entries; tie: first after start */
	fef->on_fetch(fs, &f.v, 3);
	CHECK_EQ(fef->choose(fs, &f.v, el, NULL, NULL), 7); /* round-robin among ties */
	el[7] = false;
	f.w[3].ibuf_count = 1;
	CHECK_EQ(fef->choose(fs, &f.v, el, NULL, NULL), 4); /* all tied at 1: next after slot 3 */
	fef->destroy(fs);
}
