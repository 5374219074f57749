/*
 * test_sched.c -- tests of the baseline warp-scheduling and fetch policies
 * (src/sched/: lrr, gto, tls, gto-rotate, fetch rr, the registry).
 *
 * Each test builds a fake SM view by hand (arrays of sched_warp) and checks
 * the exact priority order a policy returns, cycle by cycle, across issue
 * events, barrier/long-latency state changes, warps leaving and CTAs
 * arriving.
 */
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "sched/sched.h"
#include "sched/sched_util.h"
#include "test.h"
#include "warpsim.h"

#define FK_SLOTS 64

struct fake {
	struct sched_warp w[FK_SLOTS];
	struct sched_cta c[8];
	struct sched_view v;
	uint32_t order[FK_SLOTS];
	uint32_t ages[8 * FK_SLOTS], nages[8]; /* the view's age lists (fk_sort) */
};

/* Rebuild the view's age lists after changing which slots are valid (as the
 * SM does when a CTA launches or exits). */
static void fk_sort(struct fake *f) { sched_view_sort_ages(&f->v, f->ages, f->nages); }

static void fk_init(struct fake *f, uint32_t nslots, uint32_t nsched)
{
	memset(f, 0, sizeof *f);
	for (uint32_t i = 0; i < FK_SLOTS; i++) {
		f->w[i].slot = i;
		f->w[i].sched_id = i % nsched;
		f->w[i].ibuf_depth = 2;
	}
	f->v.nsched = nsched;
	f->v.nslots = nslots;
	f->v.warps = f->w;
	f->v.nctas = 8;
	f->v.ctas = f->c;
}

/* Make `slot` hold a fresh, resident, unfinished warp. */
static void fk_warp(struct fake *f, uint32_t slot, uint64_t age, uint32_t cta, uint32_t wic)
{
	struct sched_warp *w = &f->w[slot];
	w->valid = true;
	w->finished = false;
	w->at_barrier = false;
	w->long_latency_wait = false;
	w->age = age;
	w->cta_slot = cta;
	w->cta_id = cta;
	w->warp_in_cta = wic;
}

static void *mk(const struct sched_policy *p, const struct ws_config *cfg, uint32_t nsched, uint32_t nslots)
{
	/* a wrapper is tested over gto */
	struct sched_create_args a = {.cfg = cfg, .sm = 0, .nsched = nsched, .nslots = nslots, .nctas = 8,
				      .self = p, .inner = p && p->wraps ? sched_policy_find("gto") : NULL};
	return p ? p->create(&a) : NULL;
}

/* One scheduler-cycle as the issue stage does it: on_cycle, then order. */
static uint32_t cyc_order(const struct sched_policy *p, void *st, const struct sched_view *v, uint32_t sid,
			  uint32_t *out)
{
	if (p->on_cycle)
		p->on_cycle(st, v, sid);
	return p->order(st, v, sid, out);
}

/* Order of scheduler `sid` as a string "a,b,c" (so failures show the whole sequence). */
static const char *ord(const struct sched_policy *p, void *st, struct fake *f, uint32_t sid, char *buf, size_t n)
{
	fk_sort(f);
	uint32_t k = cyc_order(p, st, &f->v, sid, f->order);
	size_t off = 0;
	buf[0] = 0;
	for (uint32_t i = 0; i < k && off < n; i++)
		off += (size_t)snprintf(buf + off, n - off, i ? ",%u" : "%u", f->order[i]);
	return buf;
}

#define CHECK_ORDER(p, st, f, sid, want)                                                                  \
	do {                                                                                              \
		char ob_[512];                                                                            \
		const char *got_ = ord(p, st, f, sid, ob_, sizeof ob_);                                   \
		CHECK_MSG(strcmp(got_, want) == 0, "%s order (sched %u): got \"%s\", want \"%s\"", (p)->name, \
			  (unsigned)(sid), got_, want);                                                   \
	} while (0)

static struct ws_config *cfg_with(const char *key, const char *val)
{
	struct ws_config *c = wsConfigCreate();
	char err[256];
	if (c && key && wsConfigSet(c, key, val, err, sizeof err) != WS_SUCCESS) {
		wsConfigDestroy(c);
		return NULL;
	}
	return c;
}

/* ------------------------------------------------------------ registry */

/* vecadd at tiny size under sched=`sched` and fetch=`fetch`: it verifies. */
static void run_vecadd(struct test_ctx *t, const char *sched, const char *fetch)
{
	const struct ws_bench_info *bi = ws_bench_find("vecadd");
	ws_config *cfg = wsConfigCreate();
	char err[256] = "";
	ws_sim *sim = NULL;
	ws_module *mod = NULL;
	bool ok = bi && cfg && wsConfigSet(cfg, "sched", sched, err, sizeof err) == WS_SUCCESS &&
		  wsConfigSet(cfg, "fetch", fetch, err, sizeof err) == WS_SUCCESS && wsSimCreate(&sim, cfg) == WS_SUCCESS &&
		  wsModuleLoadData(sim, &mod, bi->ptx, "vecadd") == WS_SUCCESS;
	CHECK_MSG(ok, "sched=%s fetch=%s: setup failed: %s", sched, fetch, err);
	if (ok) {
		struct ws_bench_out out;
		memset(&out, 0, sizeof out);
		ws_result r = ws_bench_run(bi, sim, mod, WS_SIZE_TINY, &out);
		CHECK_MSG(r == WS_SUCCESS, "vecadd tiny under sched=%s fetch=%s: %s", sched, fetch, out.msg);
	}
	wsSimDestroy(sim);
	wsConfigDestroy(cfg);
}

/* Registration works for every policy the build found (WS_POLICY and
 * WS_FETCH_POLICY in src/sched/): each runs vecadd tiny and verifies (a
 * wrapper over gto, a fetch policy under gto). */
TEST(sched_registry_every_policy_runs)
{
	size_t n = 0;
	for (size_t i = 0; sched_policies[i]; i++, n++) {
		char name[128];
		snprintf(name, sizeof name, "%s%s", sched_policies[i]->name, sched_policies[i]->wraps ? ":gto" : "");
		run_vecadd(t, name, "rr");
	}
	for (size_t i = 0; fetch_policies[i]; i++)
		run_vecadd(t, "gto", fetch_policies[i]->name);
	CHECK(n >= 12); /* the policies the simulator started with, at least */
}

TEST(sched_registry_lookup)
{
	const char *names[] = {"lrr", "gto", "tls", "gto-rotate"};
	for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
		const struct sched_policy *p = sched_policy_find(names[i]);
		CHECK_MSG(p != NULL, "policy %s not found", names[i]);
		if (p) {
			CHECK(strcmp(p->name, names[i]) == 0);
			CHECK(p->create && p->destroy && p->order && p->description);
		}
	}
	CHECK(sched_policy_find("nope") == NULL);
	CHECK(sched_policy_find("") == NULL);
	CHECK(sched_policy_find(NULL) == NULL);
	CHECK(sched_policy_find("LRR") == NULL);
	CHECK(sched_policy_find("rr") == NULL);
	const struct fetch_policy *fp = fetch_policy_find("rr");
	CHECK(fp != NULL && strcmp(fp->name, "rr") == 0 && fp->choose && fp->create && fp->destroy);
	CHECK(fetch_policy_find("lrr") == NULL);
	CHECK(fetch_policy_find(NULL) == NULL);

	/* Lists are NULL-terminated, names unique, and find() agrees with them. */
	size_t n = 0;
	for (; sched_policies[n]; n++) {
		CHECK(sched_policy_find(sched_policies[n]->name) == sched_policies[n]);
		for (size_t j = 0; j < n; j++)
			CHECK(strcmp(sched_policies[j]->name, sched_policies[n]->name) != 0);
	}
	CHECK(n >= 4);
	size_t m = 0;
	for (; fetch_policies[m]; m++)
		CHECK(fetch_policy_find(fetch_policies[m]->name) == fetch_policies[m]);
	CHECK(m >= 1);
}

/* ------------------------------------------------------------ lrr */

TEST(sched_lrr_rotation)
{
	const struct sched_policy *p = sched_policy_find("lrr");
	struct fake f;
	fk_init(&f, 8, 2);
	for (uint32_t s = 0; s < 8; s++)
		fk_warp(&f, s, 100 + s, s / 4, s % 4);
	void *st = mk(p, NULL, 2, 8);
	CHECK(st != NULL);
	if (!st)
		return;
	CHECK_ORDER(p, st, &f, 0, "0,2,4,6");
	CHECK_ORDER(p, st, &f, 1, "1,3,5,7");
	p->on_issue(st, &f.v, 0, 4);
	CHECK_ORDER(p, st, &f, 0, "6,0,2,4");
	CHECK_ORDER(p, st, &f, 1, "1,3,5,7"); /* scheduler 1 unaffected */
	p->on_issue(st, &f.v, 0, 6);
	CHECK_ORDER(p, st, &f, 0, "0,2,4,6");
	p->on_issue(st, &f.v, 1, 3);
	CHECK_ORDER(p, st, &f, 1, "5,7,1,3");
	/* Invalid and finished slots are left out; the rotation point stays. */
	p->on_issue(st, &f.v, 0, 0);
	f.w[2].valid = false;
	f.w[6].finished = true;
	CHECK_ORDER(p, st, &f, 0, "4,0");
	/* The last-issued slot may itself have left: start after it anyway. */
	p->on_issue(st, &f.v, 0, 4);
	f.w[4].valid = false;
	CHECK_ORDER(p, st, &f, 0, "0");
	f.w[2].valid = true;
	CHECK_ORDER(p, st, &f, 0, "0,2");
	/* A new launch (a new instance: one per launch) starts over at slot 0. */
	f.w[4].valid = true;
	f.w[6].finished = false;
	p->destroy(st);
	st = mk(p, NULL, 2, 8);
	if (!st)
		return;
	CHECK_ORDER(p, st, &f, 0, "0,2,4,6");
	/* Out-of-range scheduler: empty order. */
	fk_sort(&f);
	CHECK_EQ(cyc_order(p, st, &f.v, 5, f.order), 0);
	p->destroy(st);
}

/* ------------------------------------------------------------ gto */

static void gto_setup(struct fake *f)
{
	/* (age, warp_in_cta) per slot; ties on age broken by warp_in_cta then slot. */
	fk_init(f, 6, 1);
	fk_warp(f, 0, 7, 1, 0);
	fk_warp(f, 1, 3, 0, 1);
	fk_warp(f, 2, 3, 0, 0);
	fk_warp(f, 3, 9, 2, 0);
	fk_warp(f, 4, 3, 0, 1);
	fk_warp(f, 5, 1, 3, 0);
}

TEST(sched_gto_greedy_then_oldest)
{
	const struct sched_policy *p = sched_policy_find("gto");
	struct fake f;
	gto_setup(&f);
	void *st = mk(p, NULL, 1, 6);
	CHECK(st != NULL);
	if (!st)
		return;
	CHECK_ORDER(p, st, &f, 0, "5,2,1,4,0,3"); /* nothing issued yet: pure age order */
	p->on_issue(st, &f.v, 0, 3);
	CHECK_ORDER(p, st, &f, 0, "3,5,2,1,4,0"); /* greedy: the youngest warp stays first */
	CHECK_ORDER(p, st, &f, 0, "3,5,2,1,4,0"); /* ... as long as nothing else issues */
	p->on_issue(st, &f.v, 0, 1);
	CHECK_ORDER(p, st, &f, 0, "1,5,2,4,0,3");
	/* Barrier and long-latency state does not change GTO's order (the issue loop checks readiness). */
	f.w[5].at_barrier = true;
	f.w[2].long_latency_wait = true;
	CHECK_ORDER(p, st, &f, 0, "1,5,2,4,0,3");
	p->destroy(st);
}

TEST(sched_gto_invalid_greedy)
{
	const struct sched_policy *p = sched_policy_find("gto");
	struct fake f;
	gto_setup(&f);
	void *st = mk(p, NULL, 1, 6);
	CHECK(st != NULL);
	if (!st)
		return;
	p->on_issue(st, &f.v, 0, 0);
	CHECK_ORDER(p, st, &f, 0, "0,5,2,1,4,3");
	/* The greedy warp finishes: it drops out entirely. */
	f.w[0].finished = true;
	CHECK_ORDER(p, st, &f, 0, "5,2,1,4,3");
	/* Its CTA exits and a new CTA's warp takes the slot: not greedy (another warp), youngest. */
	fk_warp(&f, 0, 20, 4, 0);
	CHECK_ORDER(p, st, &f, 0, "5,2,1,4,3,0");
	/* The oldest leaves and a reused slot holds an older age than the rest: the cached age order is rebuilt. */
	f.w[5].valid = false;
	fk_warp(&f, 3, 2, 5, 0); /* slot 3 now holds an older warp (age 2) */
	CHECK_ORDER(p, st, &f, 0, "3,2,1,4,0");
	/* The greedy slot becomes invalid. */
	p->on_issue(st, &f.v, 0, 4);
	CHECK_ORDER(p, st, &f, 0, "4,3,2,1,0");
	f.w[4].valid = false;
	CHECK_ORDER(p, st, &f, 0, "3,2,1,0");
	/* A new launch (a new instance) has no greedy warp. */
	f.w[4].valid = true;
	p->on_issue(st, &f.v, 0, 0);
	p->destroy(st);
	st = mk(p, NULL, 1, 6);
	if (!st)
		return;
	CHECK_ORDER(p, st, &f, 0, "3,2,1,4,0");
	p->destroy(st);
}

TEST(sched_gto_two_schedulers)
{
	const struct sched_policy *p = sched_policy_find("gto");
	struct fake f;
	fk_init(&f, 8, 2);
	const uint64_t ages[8] = {50, 40, 30, 20, 10, 60, 70, 5};
	for (uint32_t s = 0; s < 8; s++)
		fk_warp(&f, s, ages[s], s, 0);
	void *st = mk(p, NULL, 2, 8);
	CHECK(st != NULL);
	if (!st)
		return;
	CHECK_ORDER(p, st, &f, 0, "4,2,0,6");
	CHECK_ORDER(p, st, &f, 1, "7,3,1,5");
	p->on_issue(st, &f.v, 1, 5);
	CHECK_ORDER(p, st, &f, 0, "4,2,0,6");
	CHECK_ORDER(p, st, &f, 1, "5,7,3,1");
	/* A slot handed to the other scheduler (sched_id changes) moves with it. */
	f.w[6].sched_id = 1;
	CHECK_ORDER(p, st, &f, 0, "4,2,0");
	CHECK_ORDER(p, st, &f, 1, "5,7,3,1,6");
	p->destroy(st);
}

/* ------------------------------------------------------------ tls */

TEST(sched_tls_demote_promote)
{
	const struct sched_policy *p = sched_policy_find("tls");
	struct ws_config *cfg = cfg_with("tls_active_warps", "2");
	CHECK(cfg != NULL);
	struct fake f;
	fk_init(&f, 6, 1);
	fk_warp(&f, 0, 14, 0, 4);
	fk_warp(&f, 1, 12, 0, 2);
	fk_warp(&f, 2, 10, 0, 0);
	fk_warp(&f, 3, 11, 0, 1);
	fk_warp(&f, 4, 13, 0, 3);
	void *st = mk(p, cfg, 1, 6);
	CHECK(st != NULL);
	if (!st || !cfg) {
		if (st)
			p->destroy(st);
		wsConfigDestroy(cfg);
		return;
	}
	/* All warps enter pending in age order [2,3,1,4,0]; the two oldest are promoted. */
	CHECK_ORDER(p, st, &f, 0, "2,3");
	p->on_issue(st, &f.v, 0, 2);
	CHECK_ORDER(p, st, &f, 0, "3,2"); /* LRR inside the active pool */
	/* 3 waits on a global load: demoted to the pending tail [1,4,0,3]; 1 promoted. */
	f.w[3].long_latency_wait = true;
	CHECK_ORDER(p, st, &f, 0, "1,2");
	/* 2 reaches a barrier: demoted [4,0,3,2]; 4 promoted. */
	f.w[2].at_barrier = true;
	CHECK_ORDER(p, st, &f, 0, "4,1");
	/* 1 finishes: it leaves the pools; 0 promoted, pending [3,2]. */
	f.w[1].finished = true;
	CHECK_ORDER(p, st, &f, 0, "4,0");
	/* 0 and 4 wait on loads: demoted in slot order, pending [3,2,0,4]; the head
	 * two are promoted even though they still wait ... */
	f.w[0].long_latency_wait = true;
	f.w[4].long_latency_wait = true;
	CHECK_ORDER(p, st, &f, 0, "3,2");
	/* ... and are demoted again on the next call: pending [0,4,2,3] -> 0,4 promoted. */
	CHECK_ORDER(p, st, &f, 0, "4,0");
	/* A new CTA arrives (slot 5, and slot 1 reused): its warps join the pending tail in age order. */
	fk_warp(&f, 5, 21, 1, 0);
	fk_warp(&f, 1, 20, 1, 1); /* older than slot 5's warp despite warp_in_cta */
	CHECK_ORDER(p, st, &f, 0, "3,2"); /* 0,4 demoted: pending [2,3,1,5,0,4] -> 2,3 promoted; LRR after 2 */
	/* Loads return, barrier releases: nothing waits, the pool is stable. */
	for (uint32_t s = 0; s < 6; s++) {
		f.w[s].long_latency_wait = false;
		f.w[s].at_barrier = false;
	}
	CHECK_ORDER(p, st, &f, 0, "3,2");
	p->on_issue(st, &f.v, 0, 3);
	CHECK_ORDER(p, st, &f, 0, "2,3");
	/* Both active warps finish: the pending head (1, then 5) fills the pool before ordering. */
	f.w[2].finished = true;
	f.w[3].finished = true;
	CHECK_ORDER(p, st, &f, 0, "5,1");
	p->destroy(st);
	wsConfigDestroy(cfg);
}

TEST(sched_tls_fifo_and_reset)
{
	const struct sched_policy *p = sched_policy_find("tls");
	struct ws_config *cfg = cfg_with("tls_active_warps", "1");
	CHECK(cfg != NULL);
	struct fake f;
	fk_init(&f, 4, 1);
	for (uint32_t s = 0; s < 4; s++)
		fk_warp(&f, s, 40 - 10 * s, 0, 3 - s); /* age order 3,2,1,0 */
	void *st = mk(p, cfg, 1, 4);
	CHECK(st != NULL);
	if (!st || !cfg) {
		if (st)
			p->destroy(st);
		wsConfigDestroy(cfg);
		return;
	}
	CHECK_ORDER(p, st, &f, 0, "3");
	/* Every warp stalls on a load in turn: the pending pool is FIFO (demotion order). */
	f.w[3].long_latency_wait = true;
	CHECK_ORDER(p, st, &f, 0, "2");
	f.w[2].long_latency_wait = true;
	CHECK_ORDER(p, st, &f, 0, "1");
	f.w[3].long_latency_wait = false; /* 3's load returns, but it is behind 0 in the FIFO */
	f.w[1].long_latency_wait = true;
	CHECK_ORDER(p, st, &f, 0, "0");
	f.w[0].long_latency_wait = true;
	CHECK_ORDER(p, st, &f, 0, "3");
	f.w[3].long_latency_wait = true;
	CHECK_ORDER(p, st, &f, 0, "2"); /* pending [1,0,3] */
	/* A new launch (a new instance): pools built from scratch in age order. */
	for (uint32_t s = 0; s < 4; s++)
		f.w[s].long_latency_wait = false;
	p->destroy(st);
	st = mk(p, cfg, 1, 4);
	if (!st)
		return;
	CHECK_ORDER(p, st, &f, 0, "3"); /* pending [2,1,0] */
	/* Slot 3's warp is replaced between two calls (its CTA exited, a new one
	 * arrived): the new warp is not the old pool entry; it queues at the tail. */
	fk_warp(&f, 3, 99, 1, 0);
	CHECK_ORDER(p, st, &f, 0, "2"); /* pending [1,0,3] */
	/* No unfinished warps: empty order. */
	for (uint32_t s = 0; s < 4; s++)
		f.w[s].valid = false;
	fk_sort(&f);
	CHECK_EQ(cyc_order(p, st, &f.v, 0, f.order), 0);
	p->destroy(st);
	wsConfigDestroy(cfg);
}

TEST(sched_tls_simultaneous_demotion)
{
	/* Warps demoted in the same call join the pending tail in slot order. */
	const struct sched_policy *p = sched_policy_find("tls");
	struct ws_config *cfg = cfg_with("tls_active_warps", "2");
	CHECK(cfg != NULL);
	struct fake f;
	fk_init(&f, 5, 1);
	for (uint32_t s = 0; s < 5; s++)
		fk_warp(&f, s, s, 0, s);
	void *st = mk(p, cfg, 1, 5);
	CHECK(st != NULL);
	if (!st || !cfg) {
		if (st)
			p->destroy(st);
		wsConfigDestroy(cfg);
		return;
	}
	CHECK_ORDER(p, st, &f, 0, "0,1"); /* pending [2,3,4] */
	f.w[1].long_latency_wait = true;
	f.w[0].long_latency_wait = true;
	CHECK_ORDER(p, st, &f, 0, "2,3"); /* pending [4,0,1] */
	f.w[0].long_latency_wait = false;
	f.w[1].long_latency_wait = false;
	f.w[2].finished = true;
	CHECK_ORDER(p, st, &f, 0, "3,4"); /* pending [0,1] */
	f.w[3].finished = true;
	CHECK_ORDER(p, st, &f, 0, "0,4"); /* pending [1] */
	f.w[4].valid = false;
	CHECK_ORDER(p, st, &f, 0, "0,1");
	p->destroy(st);
	wsConfigDestroy(cfg);
}

TEST(sched_tls_default_pool_and_schedulers)
{
	/* Without a config the declared default (6 active warps per scheduler) applies. */
	const struct sched_policy *p = sched_policy_find("tls");
	struct fake f;
	fk_init(&f, 16, 2);
	for (uint32_t s = 0; s < 16; s++)
		fk_warp(&f, s, 100 - s, s / 8, s % 8); /* higher slot = older */
	void *st = mk(p, NULL, 2, 16);
	CHECK(st != NULL);
	if (!st)
		return;
	CHECK_ORDER(p, st, &f, 0, "4,6,8,10,12,14");
	CHECK_ORDER(p, st, &f, 1, "5,7,9,11,13,15");
	f.w[14].long_latency_wait = true; /* only scheduler 0's pool changes */
	CHECK_ORDER(p, st, &f, 0, "2,4,6,8,10,12");
	CHECK_ORDER(p, st, &f, 1, "5,7,9,11,13,15");
	p->on_issue(st, &f.v, 0, 6);
	CHECK_ORDER(p, st, &f, 0, "8,10,12,2,4,6");
	p->destroy(st);
}

/* ------------------------------------------------------------ gto-rotate */

TEST(sched_gto_rotate_rotation)
{
	const struct sched_policy *p = sched_policy_find("gto-rotate");
	struct ws_config *cfg = cfg_with("gto_rotate_period", "100");
	CHECK(cfg != NULL);
	struct fake f;
	fk_init(&f, 4, 1);
	fk_warp(&f, 0, 40, 0, 0);
	fk_warp(&f, 1, 10, 1, 0);
	fk_warp(&f, 2, 30, 2, 0);
	fk_warp(&f, 3, 20, 3, 0);
	void *st = mk(p, cfg, 1, 4);
	CHECK(st != NULL);
	if (!st || !cfg) {
		if (st)
			p->destroy(st);
		wsConfigDestroy(cfg);
		return;
	}
	f.v.cycle = 0;
	CHECK_ORDER(p, st, &f, 0, "1,3,2,0"); /* plain GTO age order */
	f.v.cycle = 99;
	CHECK_ORDER(p, st, &f, 0, "1,3,2,0");
	f.v.cycle = 100; /* boundary: the oldest becomes the youngest */
	CHECK_ORDER(p, st, &f, 0, "3,2,0,1");
	f.v.cycle = 150;
	CHECK_ORDER(p, st, &f, 0, "3,2,0,1");
	f.v.cycle = 200;
	CHECK_ORDER(p, st, &f, 0, "2,0,1,3");
	f.v.cycle = 530; /* three boundaries crossed at once */
	CHECK_ORDER(p, st, &f, 0, "3,2,0,1");
	f.v.cycle = 930; /* four boundaries with four warps: a whole turn */
	CHECK_ORDER(p, st, &f, 0, "3,2,0,1");
	f.v.cycle = 1430; /* five: one step */
	CHECK_ORDER(p, st, &f, 0, "2,0,1,3");
	f.v.cycle = 2130; /* seven: three steps */
	CHECK_ORDER(p, st, &f, 0, "3,2,0,1");
	/* The warp just before the ring start (slot 1) leaves and comes back younger: the ring keeps its place. */
	f.w[3].valid = false;
	CHECK_ORDER(p, st, &f, 0, "2,0,1");
	fk_warp(&f, 3, 50, 4, 0);
	CHECK_ORDER(p, st, &f, 0, "2,0,3,1");
	/* A finished warp at the head is skipped, also when choosing the next pivot. */
	f.w[2].finished = true;
	CHECK_ORDER(p, st, &f, 0, "0,3,1");
	f.v.cycle = 2200;
	CHECK_ORDER(p, st, &f, 0, "3,1,0");
	/* Greedy still first. */
	p->on_issue(st, &f.v, 0, 0);
	CHECK_ORDER(p, st, &f, 0, "0,3,1");
	f.v.cycle = 2300;
	CHECK_ORDER(p, st, &f, 0, "0,1,3");
	/* A new launch (a new instance): plain GTO again, rotation counted from here. */
	p->destroy(st);
	st = mk(p, cfg, 1, 4);
	if (!st)
		return;
	f.v.cycle = 2350;
	CHECK_ORDER(p, st, &f, 0, "1,0,3");
	f.v.cycle = 2399;
	CHECK_ORDER(p, st, &f, 0, "1,0,3");
	f.v.cycle = 2400;
	CHECK_ORDER(p, st, &f, 0, "0,3,1");
	p->destroy(st);
	wsConfigDestroy(cfg);
}

TEST(sched_gto_rotate_period_zero)
{
	const struct sched_policy *p = sched_policy_find("gto-rotate");
	struct ws_config *cfg = cfg_with("gto_rotate_period", "0");
	CHECK(cfg != NULL);
	struct fake f;
	fk_init(&f, 3, 1);
	fk_warp(&f, 0, 3, 0, 0);
	fk_warp(&f, 1, 1, 1, 0);
	fk_warp(&f, 2, 2, 2, 0);
	void *st = mk(p, cfg, 1, 3);
	CHECK(st != NULL);
	if (st && cfg) {
		for (uint64_t c = 0; c < 300000; c += 25000) {
			f.v.cycle = c;
			CHECK_ORDER(p, st, &f, 0, "1,2,0");
		}
	}
	if (st)
		p->destroy(st);
	wsConfigDestroy(cfg);
	/* Default period (50,000 cycles, as in BOWS). */
	st = mk(p, NULL, 1, 3);
	CHECK(st != NULL);
	if (!st)
		return;
	f.v.cycle = 0;
	CHECK_ORDER(p, st, &f, 0, "1,2,0");
	f.v.cycle = 49999;
	CHECK_ORDER(p, st, &f, 0, "1,2,0");
	f.v.cycle = 50000;
	CHECK_ORDER(p, st, &f, 0, "2,0,1");
	p->destroy(st);
}

/* ------------------------------------------------------------ all issue policies */

/* Deterministic pseudo-random views: every order is a duplicate-free list of
 * the scheduler's unfinished valid warps (all of them, except for tls,
 * which gives at most its active-pool size). */
TEST(sched_order_wellformed)
{
	uint64_t rng = 0x9e3779b97f4a7c15ull;
	for (size_t pi = 0; sched_policies[pi]; pi++) {
		const struct sched_policy *p = sched_policies[pi];
		struct fake f;
		fk_init(&f, 48, 2);
		void *st = mk(p, NULL, 2, 48);
		CHECK(st != NULL);
		if (!st)
			continue;
		uint64_t next_age = 0;
		for (int cyc = 0; cyc < 3000; cyc++) {
			f.v.cycle = (uint64_t)cyc * 97;
			if (cyc == 1500 && p->on_kernel_event) { /* the second half after the last CTA (ka's progress mode) */
				f.v.last_cta_issued = true;
				p->on_kernel_event(st, &f.v, SCHED_KERNEL_LAST_CTA_ISSUED);
			}
			for (uint32_t s = 0; s < 48; s++) {
				rng = rng * 6364136223846793005ull + 1442695040888963407ull;
				uint32_t r = (uint32_t)(rng >> 33);
				struct sched_warp *w = &f.w[s];
				if (!w->valid && r % 7 == 0)
					fk_warp(&f, s, next_age++, s / 8, s % 8);
				else if (w->valid && r % 53 == 0)
					w->finished = true;
				else if (w->valid && w->finished && r % 5 == 0)
					w->valid = false;
				w->long_latency_wait = (r >> 8) % 4 == 0;
				w->at_barrier = (r >> 12) % 9 == 0;
			}
			fk_sort(&f);
			for (uint32_t sid = 0; sid < 2; sid++) {
				uint32_t k = cyc_order(p, st, &f.v, sid, f.order);
				bool seen[48] = {false};
				uint32_t cand = 0;
				for (uint32_t s = 0; s < 48; s++)
					cand += f.w[s].valid && !f.w[s].finished && f.w[s].sched_id == sid;
				CHECK(k <= 48);
				bool ok = true;
				for (uint32_t i = 0; i < k && i < 48; i++) {
					uint32_t s = f.order[i];
					if (s >= 48 || seen[s] || !f.w[s].valid || f.w[s].finished || f.w[s].sched_id != sid)
						ok = false;
					else
						seen[s] = true;
				}
				CHECK_MSG(ok, "%s: bad order at cycle %d", p->name, cyc);
				if (strcmp(p->name, "tls") == 0)
					CHECK_MSG(k <= 6 && (cand == 0 || k > 0), "tls: %u of %u candidates", k, cand);
				else
					CHECK_MSG(k == cand, "%s: %u of %u candidates", p->name, k, cand);
				if (k && ((rng >> 40) & 1) && p->on_issue) /* hooks may be NULL (ka) */
					p->on_issue(st, &f.v, sid, f.order[k / 2]);
				if (!ok)
					break;
			}
		}
		p->destroy(st);
	}
}

/* order() is a pure query: asking twice gives the same list, and an
 * instance that is asked many extra times (as a fetch policy such as cff
 * does) orders exactly like one that is asked only by the issue stage. */
TEST(sched_order_is_pure)
{
	for (size_t pi = 0; sched_policies[pi]; pi++) {
		const struct sched_policy *p = sched_policies[pi];
		uint64_t rng = 0x2545f4914f6cdd1dull;
		struct fake f;
		fk_init(&f, 48, 2);
		void *a = mk(p, NULL, 2, 48), *b = mk(p, NULL, 2, 48);
		CHECK(a && b);
		if (!a || !b) {
			if (a)
				p->destroy(a);
			if (b)
				p->destroy(b);
			continue;
		}
		uint64_t next_age = 0;
		bool ok = true;
		for (int cyc = 0; cyc < 2000 && ok; cyc++) {
			f.v.cycle = (uint64_t)cyc * 131;
			if (cyc == 1000 && p->on_kernel_event) { /* the second half after the last CTA (ka's progress mode) */
				f.v.last_cta_issued = true;
				p->on_kernel_event(a, &f.v, SCHED_KERNEL_LAST_CTA_ISSUED);
				p->on_kernel_event(b, &f.v, SCHED_KERNEL_LAST_CTA_ISSUED);
			}
			for (uint32_t s = 0; s < 48; s++) {
				rng = rng * 6364136223846793005ull + 1442695040888963407ull;
				uint32_t r = (uint32_t)(rng >> 33);
				struct sched_warp *w = &f.w[s];
				if (!w->valid && r % 7 == 0)
					fk_warp(&f, s, next_age++, s / 8, s % 8);
				else if (w->valid && r % 53 == 0)
					w->finished = true;
				else if (w->valid && w->finished && r % 5 == 0)
					w->valid = false;
				w->long_latency_wait = (r >> 8) % 4 == 0;
				w->at_barrier = (r >> 12) % 9 == 0;
			}
			fk_sort(&f);
			for (uint32_t sid = 0; sid < 2 && ok; sid++) {
				uint32_t oa[48], ob[48], oc[48];
				/* b: extra queries of both schedulers before and after its hook */
				for (uint32_t x = 0; x < 2; x++)
					p->order(b, &f.v, x, oc);
				uint32_t ka = cyc_order(p, a, &f.v, sid, oa);
				uint32_t kb = cyc_order(p, b, &f.v, sid, ob);
				uint32_t kc = p->order(b, &f.v, sid, oc);
				ok = ka == kb && kb == kc && memcmp(oa, ob, ka * sizeof *oa) == 0 &&
				     memcmp(ob, oc, kb * sizeof *ob) == 0;
				CHECK_MSG(ok, "%s: order() changed state at cycle %d (sched %u)", p->name, cyc, sid);
				if (ka && ((rng >> 40) & 1) && p->on_issue) {
					p->on_issue(a, &f.v, sid, oa[ka / 2]);
					p->on_issue(b, &f.v, sid, oa[ka / 2]);
				}
			}
		}
		p->destroy(a);
		p->destroy(b);
	}
}

/* ------------------------------------------------------------ fetch rr */

TEST(sched_fetch_rr_rotation)
{
	const struct fetch_policy *fp = fetch_policy_find("rr");
	struct fake f;
	fk_init(&f, 6, 2);
	struct sched_create_args a = {.cfg = NULL, .sm = 0, .nsched = 2, .nslots = 6, .nctas = 8};
	void *st = fp ? fp->create(&a) : NULL;
	CHECK(st != NULL);
	if (!st)
		return;
	bool el[6] = {false, true, false, true, true, false};
	CHECK_EQ(fp->choose(st, &f.v, el, NULL, NULL), 1);
	CHECK_EQ(fp->choose(st, &f.v, el, NULL, NULL), 1); /* choosing alone does not advance */
	fp->on_fetch(st, &f.v, 1);
	CHECK_EQ(fp->choose(st, &f.v, el, NULL, NULL), 3);
	fp->on_fetch(st, &f.v, 3);
	CHECK_EQ(fp->choose(st, &f.v, el, NULL, NULL), 4);
	fp->on_fetch(st, &f.v, 4);
	CHECK_EQ(fp->choose(st, &f.v, el, NULL, NULL), 1); /* wraps, skipping 5 and 0 */
	/* The last fetched slot is eligible again: it comes last. */
	bool el2[6] = {false, true, false, false, true, false};
	fp->on_fetch(st, &f.v, 4);
	CHECK_EQ(fp->choose(st, &f.v, el2, NULL, NULL), 1);
	bool el3[6] = {false, false, false, false, true, false};
	CHECK_EQ(fp->choose(st, &f.v, el3, NULL, NULL), 4);
	fp->on_fetch(st, &f.v, 5);
	bool el4[6] = {true, false, false, false, false, true};
	CHECK_EQ(fp->choose(st, &f.v, el4, NULL, NULL), 0);
	bool none[6] = {false};
	CHECK_EQ(fp->choose(st, &f.v, none, NULL, NULL), -1);
	fp->destroy(st);
}
