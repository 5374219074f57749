/*
 * test_bows.c -- CAWA, BOWS and DDOS (issue 11; docs/bows.md): the policies'
 * decisions on hand-built views (back-off ordering, the pending delay,
 * the adaptive window, CAWA's criticality order), the DDOS detector on
 * synthetic spin and counted loops (and the MODULO-hash false detection
 * the paper reports), the annotation API, and whole runs: the hashtable
 * spin lock detected and backed off, a counted-loop kernel not detected,
 * every benchmark verifying at tiny size under every BOWS variant with
 * golden statistics (tests/golden/bows_tiny.txt, rewritten by `make golden`).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "config/config.h"
#include "sched/ddos.h"
#include "sched/sched_util.h"
#include "golden_check.h"
#include "test.h"
#include "warpsim.h"

#define NW 8

struct bv {
	struct sched_warp w[NW];
	struct sched_cta c[2];
	bool held[NW];
	struct sched_hold_port hold; /* sched_hold() sets held[] */
	struct sched_view v;
	uint32_t order[NW];
	uint64_t ctr[64];
	uint32_t ages[NW], nages[1]; /* the view's age list */
};

/* n warps in slots 0..n-1 (ages = slot), one scheduler. */
static void bv_init(struct bv *b, uint32_t n)
{
	memset(b, 0, sizeof *b);
	for (uint32_t i = 0; i < NW; i++) {
		b->w[i].slot = i;
		b->w[i].valid = i < n;
		b->w[i].age = i;
		b->w[i].warp_in_cta = i;
		b->w[i].ibuf_depth = 2;
	}
	b->c[0].valid = true;
	b->c[0].nwarps = n;
	b->hold = (struct sched_hold_port){sched_hold_in_array, b->held};
	b->v = (struct sched_view){.nsched = 1, .nslots = NW, .warps = b->w, .nctas = 2, .ctas = b->c, .held = b->held,
				   .hold = &b->hold};
	sched_view_sort_ages(&b->v, b->ages, b->nages);
}

static ws_config *cfg_with(const char *const *kv)
{
	ws_config *c = wsConfigCreate();
	char err[128];
	for (unsigned i = 0; c && kv && kv[i]; i += 2)
		if (wsConfigSet(c, kv[i], kv[i + 1], err, sizeof err) != WS_SUCCESS) {
			fprintf(stderr, "config %s=%s: %s\n", kv[i], kv[i + 1], err);
			wsConfigDestroy(c);
			return NULL;
		}
	return c;
}

static const struct sched_sib the_sib[] = {{0, 9}};

/* bows over gto (the SIB is fn 0 pc 9) */
static void *mk_bows(struct bv *b, const ws_config *cfg)
{
	const struct sched_policy *p = sched_policy_find("bows");
	struct sched_create_args a = {.cfg = cfg,
	                              .nsched = 1,
	                              .nslots = NW,
	                              .nctas = 2,
	                              .counters = b->ctr,
	                              .inner = sched_policy_find("gto"),
	                              .self = p,
	                              .sibs = the_sib,
	                              .nsibs = 1};
	return p->create(&a);
}

static const char *order_str(const struct sched_policy *p, void *st, struct bv *b, char *buf, size_t n)
{
	if (p->on_cycle)
		p->on_cycle(st, &b->v, 0);
	uint32_t k = p->order(st, &b->v, 0, b->order);
	size_t off = 0;
	buf[0] = 0;
	for (uint32_t i = 0; i < k && off < n; i++)
		off += (size_t)snprintf(buf + off, n - off, i ? ",%u" : "%u", b->order[i]);
	return buf;
}

/* warp `slot` executes the branch at fn 0 pc `pc` (backward to pc 1) */
static void branch(const struct sched_policy *p, void *st, struct bv *b, uint32_t slot, int32_t pc, bool taken)
{
	struct sched_exec_event e = {.slot = slot,
	                             .fn = 0,
	                             .pc = pc,
	                             .opcode = 0,
	                             .is_branch = true,
	                             .backward = true,
	                             .taken = taken,
	                             .target = 1,
	                             .active = 1,
	                             .exec = 1};
	p->on_exec(st, &b->v, &e);
}

static uint64_t ctr_of(const struct sched_policy *p, const uint64_t *ctr, const char *name)
{
	for (uint32_t i = 0; i < p->ncounters; i++)
		if (strcmp(p->counters[i].name, name) == 0)
			return ctr[i];
	return UINT64_MAX;
}

/* Back-off ordering: a warp that takes a SIB goes to the back (backed-off
 * queue, first backed off first); issuing takes it out of the queue. */
TEST(bows_backoff_order)
{
	const char *kv[] = {"bows_sib", "annotated", "bows_delay", "fixed", "bows_delay_limit", "100", NULL};
	ws_config *cfg = cfg_with(kv);
	struct bv b;
	bv_init(&b, 4);
	const struct sched_policy *p = sched_policy_find("bows");
	void *st = mk_bows(&b, cfg);
	CHECK(st != NULL);
	if (!st) {
		wsConfigDestroy(cfg);
		return;
	}
	p->on_kernel_event(st, &b.v, SCHED_KERNEL_START);
	char buf[64];
	b.v.cycle = 1;
	CHECK_STR_CONTAINS(order_str(p, st, &b, buf, sizeof buf), "0,1,2,3");
	branch(p, st, &b, 1, 9, true);
	CHECK(strcmp(order_str(p, st, &b, buf, sizeof buf), "0,2,3,1") == 0);
	branch(p, st, &b, 0, 9, true);
	CHECK_MSG(strcmp(order_str(p, st, &b, buf, sizeof buf), "2,3,1,0") == 0, "got %s", buf);
	/* a branch that is not a SIB, and a SIB not taken, back nothing off */
	branch(p, st, &b, 2, 7, true);
	branch(p, st, &b, 3, 9, false);
	CHECK_MSG(strcmp(order_str(p, st, &b, buf, sizeof buf), "2,3,1,0") == 0, "got %s", buf);
	/* first back-off of a warp: its pending delay is zero, nothing held */
	CHECK(!b.held[0] && !b.held[1]);
	/* warp 1 issues: it leaves the queue and (gto) becomes the greedy warp */
	b.v.cycle = 5;
	p->on_issue(st, &b.v, 0, 1);
	CHECK_MSG(strcmp(order_str(p, st, &b, buf, sizeof buf), "1,2,3,0") == 0, "got %s", buf);
	CHECK_EQ(ctr_of(p, b.ctr, "backoffs"), 2);
	CHECK_EQ(ctr_of(p, b.ctr, "blocked"), 0);
	CHECK_EQ(ctr_of(p, b.ctr, "sib_insts"), 3);
	/* a new warp in slot 0 starts clean */
	b.w[0].age = 10;
	sched_view_sort_ages(&b.v, b.ages, b.nages);
	CHECK_MSG(strcmp(order_str(p, st, &b, buf, sizeof buf), "1,2,3,0") == 0, "got %s", buf); /* gto: age 10 last */
	branch(p, st, &b, 2, 9, true);
	CHECK_MSG(strcmp(order_str(p, st, &b, buf, sizeof buf), "1,3,0,2") == 0, "got %s", buf);
	p->destroy(st);
	wsConfigDestroy(cfg);
}

/* The pending back-off delay: loaded with the limit when a warp leaves the
 * backed-off state; a SIB before it runs out holds the warp until it does. */
TEST(bows_delay_counter)
{
	const char *kv[] = {"bows_sib", "annotated", "bows_delay", "fixed", "bows_delay_limit", "100", NULL};
	ws_config *cfg = cfg_with(kv);
	struct bv b;
	bv_init(&b, 2);
	const struct sched_policy *p = sched_policy_find("bows");
	void *st = mk_bows(&b, cfg);
	CHECK(st != NULL);
	if (!st) {
		wsConfigDestroy(cfg);
		return;
	}
	char buf[64];
	b.v.cycle = 10;
	order_str(p, st, &b, buf, sizeof buf);
	branch(p, st, &b, 0, 9, true); /* backed off, delay zero: not held */
	CHECK(!b.held[0]);
	b.v.cycle = 20;
	p->on_issue(st, &b.v, 0, 0); /* leaves the backed-off state: delay = 100, runs out at 120 */
	b.v.cycle = 50;
	branch(p, st, &b, 0, 9, true);
	CHECK(b.held[0]);
	CHECK_EQ(ctr_of(p, b.ctr, "blocked"), 1);
	CHECK_MSG(strcmp(order_str(p, st, &b, buf, sizeof buf), "1,0") == 0, "got %s", buf);
	b.v.cycle = 119;
	order_str(p, st, &b, buf, sizeof buf);
	CHECK(b.held[0]);
	b.v.cycle = 120;
	order_str(p, st, &b, buf, sizeof buf);
	CHECK(!b.held[0]);
	/* held at the cycles 50 and 119 (released by the call at 120) */
	CHECK_EQ(ctr_of(p, b.ctr, "held_warp_cycles"), 2);
	CHECK_EQ(ctr_of(p, b.ctr, "backed_off_warp_cycles"), 3); /* cycles 50, 119, 120 */
	/* a SIB after the delay ran out: backed off but not held */
	b.v.cycle = 130;
	p->on_issue(st, &b.v, 0, 0); /* delay runs out at 230 */
	b.v.cycle = 240;
	branch(p, st, &b, 0, 9, true);
	CHECK(!b.held[0]);
	p->destroy(st);
	wsConfigDestroy(cfg);

	/* delay 0: never held */
	const char *kv0[] = {"bows_sib", "annotated", "bows_delay", "fixed", "bows_delay_limit", "0", NULL};
	cfg = cfg_with(kv0);
	bv_init(&b, 2);
	st = mk_bows(&b, cfg);
	CHECK(st != NULL);
	if (st) {
		b.v.cycle = 10;
		branch(p, st, &b, 0, 9, true);
		p->on_issue(st, &b.v, 0, 0);
		branch(p, st, &b, 0, 9, true);
		CHECK(!b.held[0]);
		p->destroy(st);
	}
	wsConfigDestroy(cfg);
}

/* bows_jitter (ours): warps that leave the backed-off state in the same
 * cycle get different pending delays, each in [limit/2, 3 x limit/2). */
TEST(bows_delay_jitter)
{
	const char *kv[] = {"bows_sib", "annotated", "bows_delay", "fixed", "bows_delay_limit", "100", "bows_jitter", "1",
	                    NULL};
	ws_config *cfg = cfg_with(kv);
	struct bv b;
	bv_init(&b, 4);
	const struct sched_policy *p = sched_policy_find("bows");
	void *st = mk_bows(&b, cfg);
	CHECK(st != NULL);
	if (!st) {
		wsConfigDestroy(cfg);
		return;
	}
	char buf[64];
	uint64_t released[4] = {0};
	b.v.cycle = 10;
	for (uint32_t i = 0; i < 4; i++)
		branch(p, st, &b, i, 9, true); /* backed off, delay zero */
	b.v.cycle = 20;
	for (uint32_t i = 0; i < 4; i++)
		p->on_issue(st, &b.v, 0, i); /* all four load their pending delay at cycle 20 */
	b.v.cycle = 30;
	for (uint32_t i = 0; i < 4; i++) {
		branch(p, st, &b, i, 9, true);
		CHECK(b.held[i]);
	}
	for (uint64_t c = 31; c <= 200; c++) {
		b.v.cycle = c;
		order_str(p, st, &b, buf, sizeof buf);
		for (uint32_t i = 0; i < 4; i++)
			if (!released[i] && !b.held[i])
				released[i] = c;
	}
	bool differ = false;
	for (uint32_t i = 0; i < 4; i++) {
		CHECK_MSG(released[i] >= 20 + 50 && released[i] < 20 + 150, "warp %u released at %llu", i,
		          (unsigned long long)released[i]);
		differ |= released[i] != released[0];
	}
	CHECK(differ);
	p->destroy(st);
	wsConfigDestroy(cfg);
}

/* Figure 5 over windows of 100 cycles. */
TEST(bows_adaptive_window)
{
	const char *kv[] = {"bows_sib",  "annotated", "bows_delay",     "adaptive", "bows_window",    "100",
	                    "bows_step", "250",       "bows_delay_min", "0",        "bows_delay_max", "400",
	                    NULL};
	ws_config *cfg = cfg_with(kv);
	struct bv b;
	bv_init(&b, 2);
	const struct sched_policy *p = sched_policy_find("bows");
	void *st = mk_bows(&b, cfg);
	CHECK(st != NULL);
	if (!st) {
		wsConfigDestroy(cfg);
		return;
	}
	char buf[64];
	/* window w: `issues` instructions of which `sibs` SIBs (not taken) */
	const struct {
		int issues, sibs;
		uint64_t limit, raises, drops;
	} win[] = {
	    {10, 6, 250, 1, 0},  /* SIB > 0.5 total: +250 */
	    {10, 1, 250, 1, 0},  /* ratio 10 vs 1.67: no change */
	    {10, 9, 0, 2, 1},    /* +250, and 1.11 < 0.8 x 10: -500 */
	    {0, 0, 0, 2, 1},     /* nothing executed: no change */
	    {10, 10, 250, 3, 1}, /* +250; previous window had no SIB: no ratio test */
	    {10, 10, 400, 4, 1}, /* +250, clamped to the maximum 400; 1 vs 0.8: no drop */
	};
	b.v.cycle = 1;
	order_str(p, st, &b, buf, sizeof buf); /* the first window starts: ends at 101 */
	uint64_t sum = 0;
	for (unsigned w = 0; w < sizeof win / sizeof win[0]; w++) {
		b.v.cycle = 2 + 100 * w;
		for (int i = 0; i < win[w].issues; i++) {
			p->on_issue(st, &b.v, 0, 1);
			if (i < win[w].sibs)
				branch(p, st, &b, 1, 9, false);
		}
		b.v.cycle = 101 + 100 * w;
		order_str(p, st, &b, buf, sizeof buf);
		sum += win[w].limit;
		CHECK_MSG(ctr_of(p, b.ctr, "delay_limit_sum") == sum, "window %u: limit sum %llu, want %llu", w,
		          (unsigned long long)ctr_of(p, b.ctr, "delay_limit_sum"), (unsigned long long)sum);
		CHECK_MSG(ctr_of(p, b.ctr, "delay_raises") == win[w].raises, "window %u raises", w);
		CHECK_MSG(ctr_of(p, b.ctr, "delay_drops") == win[w].drops, "window %u drops", w);
	}
	CHECK_EQ(ctr_of(p, b.ctr, "delay_windows"), 6);
	/* the limit in force (400) is what a warp leaving the backed-off state gets */
	b.v.cycle = 602;
	branch(p, st, &b, 0, 9, true);
	p->on_issue(st, &b.v, 0, 0); /* delay runs out at 1002 */
	branch(p, st, &b, 0, 9, true);
	CHECK(b.held[0]);
	b.v.cycle = 1001;
	order_str(p, st, &b, buf, sizeof buf);
	CHECK(b.held[0]);
	b.v.cycle = 1002;
	order_str(p, st, &b, buf, sizeof buf);
	CHECK(!b.held[0]);
	p->destroy(st);
	wsConfigDestroy(cfg);
}

/* CAWA: the greedy warp, then the most critical (nInst x CPI + nStall). */
TEST(cawa_criticality_order)
{
	const struct sched_policy *p = sched_policy_find("cawa");
	CHECK(p != NULL);
	if (!p)
		return;
	struct bv b;
	bv_init(&b, 3);
	struct sched_create_args a = {.nsched = 1, .nslots = NW, .nctas = 2, .self = p, .kernel_insts = 100};
	void *st = p->create(&a);
	CHECK(st != NULL);
	if (!st)
		return;
	char buf[64];
	b.v.cycle = 101;
	b.c[0].launch_cycle = 1;
	/* equal progress: age order */
	for (int i = 0; i < 3; i++)
		b.w[i].insts_issued = 10;
	CHECK_MSG(strcmp(order_str(p, st, &b, buf, sizeof buf), "0,1,2") == 0, "got %s", buf);
	/* warp 2 stalled longer: more critical */
	b.w[2].stall_cycles = 50;
	CHECK_MSG(strcmp(order_str(p, st, &b, buf, sizeof buf), "2,0,1") == 0, "got %s", buf);
	/* warp 1 takes a backward branch (loop body 20 instructions): more remaining work */
	struct sched_exec_event e = {.slot = 1,
	                             .pc = 40,
	                             .is_branch = true,
	                             .backward = true,
	                             .taken = true,
	                             .target = 21,
	                             .active = 1,
	                             .exec = 1};
	p->on_exec(st, &b.v, &e);
	/* nInst: 100 vs 120; CPI 10: crit 0 -> 1000, 1 -> 1200, 2 -> 1050 */
	CHECK_MSG(strcmp(order_str(p, st, &b, buf, sizeof buf), "1,2,0") == 0, "got %s", buf);
	/* warp 0 skips 60 instructions with a uniform forward branch: least critical;
	 * then it issues and becomes the greedy warp */
	struct sched_exec_event f = {
	    .slot = 0, .pc = 10, .is_branch = true, .taken = true, .target = 71, .active = 1, .exec = 1};
	p->on_exec(st, &b.v, &f);
	p->on_issue(st, &b.v, 0, 0);
	CHECK_MSG(strcmp(order_str(p, st, &b, buf, sizeof buf), "0,1,2") == 0, "got %s", buf);
	/* critical (for the L1D's CACP): at least cawa_crit_pct (75%) of the CTA's
	 * highest criticality: 390 (nInst 39) < 0.75 x 1200 <= 1050, 1200 */
	CHECK(p->critical != NULL);
	if (p->critical) {
		CHECK(!p->critical(st, &b.v, 0));
		CHECK(p->critical(st, &b.v, 1));
		CHECK(p->critical(st, &b.v, 2));
	}
	p->destroy(st);
}

/* ---------------------------------------------------------------- DDOS */

static struct ddos *mk_ddos(const char *const *kv, const struct sched_sib *sibs, uint32_t nsibs, uint64_t *ctr)
{
	ws_config *cfg = cfg_with(kv);
	struct ddos_params p = ddos_params_from(cfg);
	wsConfigDestroy(cfg);
	return ddos_create(&p, NW, sibs, nsibs, ctr);
}

static bool setp(struct ddos *d, struct bv *b, uint32_t slot, int32_t pc, uint64_t a, uint64_t c)
{
	struct sched_exec_event e = {
	    .slot = slot, .fn = 0, .pc = pc, .is_setp = true, .active = 1, .exec = 1, .src_values = {a, c}};
	return ddos_on_exec(d, &b->v, &e);
}

static bool bra(struct ddos *d, struct bv *b, uint32_t slot, int32_t pc, int32_t target, bool taken)
{
	struct sched_exec_event e = {.slot = slot,
	                             .fn = 0,
	                             .pc = pc,
	                             .is_branch = true,
	                             .backward = target <= pc,
	                             .taken = taken,
	                             .target = target,
	                             .active = 1,
	                             .exec = 1};
	return ddos_on_exec(d, &b->v, &e);
}

/* One failed iteration of the paper's Figure 7a spin loop: setp on the CAS
 * result (1: lock busy) at pc 3, setp on `done` (0) at pc 8, SIB at pc 9. */
static bool spin_iter(struct ddos *d, struct bv *b, uint32_t slot)
{
	setp(d, b, slot, 3, 1, 0);
	setp(d, b, slot, 8, 0, 0);
	return bra(d, b, slot, 9, 1, true);
}

TEST(ddos_detects_spin_loop)
{
	uint64_t ctr[DDOS_NCOUNTERS] = {0};
	struct bv b;
	bv_init(&b, 2);
	struct ddos *d = mk_ddos(NULL, the_sib, 1, ctr); /* paper defaults: XOR, m=k=8, l=8, t=4 */
	CHECK(d != NULL);
	if (!d)
		return;
	b.v.cycle = 100;
	CHECK(!spin_iter(d, &b, 0));
	CHECK(!ddos_warp_spinning(d, 0));
	CHECK(!spin_iter(d, &b, 0)); /* the second iteration repeats the first: spinning */
	CHECK(ddos_warp_spinning(d, 0));
	CHECK_EQ(ddos_confidence(d, 0, 9), 1);
	CHECK(!spin_iter(d, &b, 0));
	CHECK(!spin_iter(d, &b, 0));
	CHECK_EQ(ddos_confidence(d, 0, 9), 3);
	b.v.cycle = 200;
	CHECK(spin_iter(d, &b, 0)); /* confidence 4 = t: a SIB */
	CHECK(ddos_is_sib(d, 0, 9));
	for (int i = 0; i < 10; i++)
		spin_iter(d, &b, 0);
	CHECK_EQ(ddos_confidence(d, 0, 9), 7); /* saturates at 2t - 1 */
	/* the lock is acquired: the CAS result changes, the warp is no longer spinning */
	setp(d, &b, 0, 3, 0, 0);
	CHECK(!ddos_warp_spinning(d, 0));
	setp(d, &b, 0, 8, 1, 0);
	bra(d, &b, 0, 9, 1, false); /* leaves the loop: not taken, no decrement */
	CHECK_EQ(ddos_confidence(d, 0, 9), 7);
	/* a non-spinning warp taking the branch decrements the confidence */
	for (int i = 0; i < 4; i++)
		bra(d, &b, 1, 9, 1, true);
	CHECK_EQ(ddos_confidence(d, 0, 9), 3);
	CHECK(!ddos_is_sib(d, 0, 9));
	b.v.cycle = 1100;
	bra(d, &b, 1, 9, 1, true);
	ddos_finish(d);
	CHECK_EQ(ctr[DDOS_C_TRUE_SEEN], 1);
	CHECK_EQ(ctr[DDOS_C_TRUE_DETECTED], 1);
	CHECK_EQ(ctr[DDOS_C_FALSE_SEEN], 0);
	CHECK_EQ(ctr[DDOS_C_TRUE_DPR_PPM], 100000); /* (200 - 100) / (1100 - 100) */
	CHECK_EQ(ctr[DDOS_C_CONFIRMATIONS], 1);
	/* per-SIB diagnostics of the one annotated SIB: 15 spin iterations and the
	 * exit of warp 0, 5 taken executions by warp 1; spinning at iterations
	 * 2..15; every execution but each warp's first within l = 8 setps of the
	 * warp's previous one */
	const uint64_t *s0 = ctr + DDOS_C_SIB_DIAG;
	CHECK_EQ(s0[DDOS_SIB_EXECS], 21);
	CHECK_EQ(s0[DDOS_SIB_SPINNING], 14);
	CHECK_EQ(s0[DDOS_SIB_REPEATABLE], 19);
	CHECK_EQ(s0[DDOS_SIB_DETECTED_SMS], 1);
	CHECK_EQ(ctr[DDOS_C_SIB_DIAG + DDOS_SIB_NDIAG + DDOS_SIB_EXECS], 0); /* no second SIB */
	ddos_destroy(d);
}

/* A counted loop: the induction variable changes every iteration. */
static void counted_loop(struct ddos *d, struct bv *b, uint64_t stride, int iters)
{
	for (int i = 0; i < iters; i++) {
		setp(d, b, 0, 5, (uint64_t)i * stride, 100000);
		bra(d, b, 0, 6, 2, true);
	}
}

TEST(ddos_ignores_counted_loop)
{
	uint64_t ctr[DDOS_NCOUNTERS] = {0};
	struct bv b;
	bv_init(&b, 1);
	struct ddos *d = mk_ddos(NULL, the_sib, 1, ctr);
	CHECK(d != NULL);
	if (!d)
		return;
	counted_loop(d, &b, 1, 100);
	CHECK(!ddos_warp_spinning(d, 0));
	CHECK_EQ(ddos_confidence(d, 0, 6), 0);
	/* a stride of 256 is invisible to MODULO hashing of 8 bits, not to XOR */
	counted_loop(d, &b, 256, 100);
	CHECK_EQ(ddos_confidence(d, 0, 6), 0);
	ddos_finish(d);
	CHECK_EQ(ctr[DDOS_C_FALSE_SEEN], 1);
	CHECK_EQ(ctr[DDOS_C_FALSE_DETECTED], 0);
	CHECK_EQ(ctr[DDOS_C_TRUE_SEEN], 0);
	ddos_destroy(d);

	/* MODULO: the paper's false detections (Merge Sort, Heart Wall) */
	memset(ctr, 0, sizeof ctr);
	const char *kv[] = {"ddos_hash", "modulo", NULL};
	d = mk_ddos(kv, the_sib, 1, ctr);
	CHECK(d != NULL);
	if (!d)
		return;
	counted_loop(d, &b, 1, 100);
	CHECK_EQ(ddos_confidence(d, 0, 6), 0);
	counted_loop(d, &b, 256, 100);
	CHECK(ddos_is_sib(d, 0, 6));
	ddos_finish(d);
	CHECK_EQ(ctr[DDOS_C_FALSE_DETECTED], 1);
	ddos_destroy(d);
}

TEST(ddos_hash_and_history)
{
	struct ddos_params x = {.xor_hash = true, .width = 4}, m = {.xor_hash = false, .width = 4};
	CHECK_EQ(ddos_hash(&x, 0x1234), 0x1 ^ 0x2 ^ 0x3 ^ 0x4);
	CHECK_EQ(ddos_hash(&m, 0x1234), 0x4);
	x.width = 8;
	CHECK_EQ(ddos_hash(&x, 0xff00000000000001ull), 0xfe);
	/* a history too short for the loop's period never sees the repetition:
	 * a loop of 3 setps per iteration with l = 2 */
	const char *kv[] = {"ddos_history", "2", NULL};
	struct bv b;
	bv_init(&b, 1);
	struct ddos *d = mk_ddos(kv, NULL, 0, NULL);
	CHECK(d != NULL);
	if (!d)
		return;
	for (int i = 0; i < 20; i++) {
		setp(d, &b, 0, 3, 1, 0);
		setp(d, &b, 0, 5, 7, 0);
		setp(d, &b, 0, 8, 0, 0);
		bra(d, &b, 0, 9, 1, true);
	}
	CHECK(!ddos_warp_spinning(d, 0));
	CHECK_EQ(ddos_confidence(d, 0, 9), 0);
	ddos_destroy(d);
}

/* Time sharing: only the warp holding the register set is profiled; the set
 * moves to the next warp every interval. */
TEST(ddos_time_sharing)
{
	const char *kv[] = {"ddos_share", "1", "ddos_share_interval", "1000", NULL};
	struct bv b;
	bv_init(&b, 2);
	struct ddos *d = mk_ddos(kv, NULL, 0, NULL);
	CHECK(d != NULL);
	if (!d)
		return;
	b.v.cycle = 1;
	ddos_on_cycle(d, &b.v); /* slot 0 gets the registers */
	for (int i = 0; i < 3; i++) {
		spin_iter(d, &b, 0);
		spin_iter(d, &b, 1);
	}
	CHECK(ddos_warp_spinning(d, 0));
	CHECK(!ddos_warp_spinning(d, 1));
	CHECK_EQ(ddos_confidence(d, 0, 9), 2); /* only warp 0's iterations 2 and 3 counted */
	b.v.cycle = 1000;
	ddos_on_cycle(d, &b.v);
	CHECK(!ddos_warp_spinning(d, 0));
	for (int i = 0; i < 3; i++)
		spin_iter(d, &b, 1);
	CHECK(ddos_warp_spinning(d, 1));
	/* warp 1's first iteration (fresh history: not spinning) took the branch: -1;
	 * its second and third: +2 */
	CHECK_EQ(ddos_confidence(d, 0, 9), 3);
	ddos_destroy(d);
}

/* ---------------------------------------------------------------- whole runs */

static uint64_t stat_of(ws_sim *sim, const char *name)
{
	uint64_t v = 0;
	return wsStatsGet(sim, name, &v) == WS_SUCCESS ? v : UINT64_MAX;
}

/* Run the hashtable spin-lock benchmark at tiny size; annotate its SIBs if asked.
 * (ws_bench_run hands every benchmark's ground-truth notes to the simulator,
 * so the unannotated runs call the benchmark's run() directly.) */
static ws_sim *run_ht(struct test_ctx *t, const char *const *kv, bool annotate)
{
	const struct ws_bench_info *bi = ws_bench_find("hashtable");
	CHECK(bi != NULL);
	ws_config *cfg = cfg_with(kv);
	ws_sim *sim = NULL;
	CHECK(cfg && wsSimCreate(&sim, cfg) == WS_SUCCESS);
	wsConfigDestroy(cfg);
	if (!sim || !bi)
		return NULL;
	ws_module *mod = NULL;
	ws_function *f = NULL;
	CHECK(wsModuleLoadData(sim, &mod, bi->ptx, "hashtable.ptx") == WS_SUCCESS);
	CHECK(mod && wsModuleGetFunction(&f, mod, "hashtable") == WS_SUCCESS);
	if (f && annotate) {
		int32_t pcs[4];
		uint32_t lines[4];
		int n = wsFunctionBackwardBranches(f, pcs, lines, 4);
		CHECK_EQ(n, 1); /* the retry loop's branch */
		CHECK(wsFunctionSetSpinBranches(f, pcs, 1) == WS_SUCCESS);
		int32_t got[2];
		CHECK_EQ(wsFunctionGetSpinBranches(f, got, 2), 1);
		CHECK_EQ(got[0], pcs[0]);
	}
	struct ws_bench_out out;
	memset(&out, 0, sizeof out);
	ws_result r = !mod ? WS_ERROR_INVALID_VALUE
			   : annotate ? ws_bench_run(bi, sim, mod, WS_SIZE_TINY, &out)
				      : bi->run(sim, mod, WS_SIZE_TINY, &out);
	CHECK_MSG(r == WS_SUCCESS, "hashtable: %s", out.msg);
	if (f && annotate) { /* the benchmark's own note names the same branch */
		int32_t got[2];
		CHECK_EQ(wsFunctionGetSpinBranches(f, got, 2), 1);
	}
	return sim;
}

TEST(bows_hashtable_detected_and_backed_off)
{
	/* DDOS finds the spin loop's branch and nothing else */
	const char *kv[] = {"sched", "bows:gto", NULL};
	ws_sim *sim = run_ht(t, kv, true);
	if (sim) {
		CHECK(stat_of(sim, "bows_ddos_true_detected") >= 1);
		CHECK_EQ(stat_of(sim, "bows_ddos_true_detected"), stat_of(sim, "bows_ddos_true_seen"));
		CHECK_EQ(stat_of(sim, "bows_ddos_false_detected"), 0);
		CHECK(stat_of(sim, "bows_backoffs") > 0);
		CHECK(stat_of(sim, "stall_held") > 0);
		/* lock outcomes: each of the 160 threads acquires the global lock once;
		 * lanes of one warp CAS the same lock, so intra-warp failures occur */
		CHECK_EQ(stat_of(sim, "lock_acquire_success"), 160);
		CHECK(stat_of(sim, "lock_fail_intra_warp") > 0);
		CHECK(stat_of(sim, "lock_fail_inter_warp") > 0);
		/* first-attempt failures: one per thread that ever failed -- at least
		 * the 31 lanes beside the first winner, at most all threads but it */
		uint64_t first = stat_of(sim, "lock_fail_first");
		CHECK_MSG(first >= 31 && first <= 159, "lock_fail_first %llu", (unsigned long long)first);
		CHECK(first < stat_of(sim, "lock_fail_intra_warp") + stat_of(sim, "lock_fail_inter_warp"));
		CHECK_EQ(stat_of(sim, "wait_exit_success") + stat_of(sim, "wait_exit_fail"), 0);
		wsSimDestroy(sim);
	}
	/* without annotations there is nothing to measure */
	const char *kg[] = {"sched", "gto", NULL};
	sim = run_ht(t, kg, false);
	if (sim) {
		CHECK_EQ(stat_of(sim, "lock_acquire_success"), 0);
		CHECK_EQ(stat_of(sim, "lock_fail_inter_warp"), 0);
		wsSimDestroy(sim);
	}
	/* annotated mode backs off on the annotated branch only */
	const char *ka[] = {"sched", "bows:lrr", "bows_sib", "annotated", NULL};
	sim = run_ht(t, ka, true);
	uint64_t with = sim ? stat_of(sim, "bows_backoffs") : 0;
	CHECK(with > 0);
	wsSimDestroy(sim);
	sim = run_ht(t, ka, false);
	CHECK_EQ(sim ? stat_of(sim, "bows_backoffs") : 1, 0);
	wsSimDestroy(sim);
}

/* Each thread sums 0..99 in a counted loop: DDOS must not call it spinning. */
static const char counted_ptx[] = ".version 7.0\n"
                                  ".target sm_70\n"
                                  ".address_size 64\n"
                                  ".visible .entry cl(.param .u64 out)\n"
                                  "{\n"
                                  "	.reg .pred %p<2>;\n"
                                  "	.reg .b32 %r<8>;\n"
                                  "	.reg .b64 %rd<4>;\n"
                                  "	mov.u32 %r1, %tid.x;\n"
                                  "	mov.u32 %r2, 0;\n"
                                  "	mov.u32 %r3, 0;\n"
                                  "LOOP:\n"
                                  "	add.u32 %r3, %r3, %r2;\n"
                                  "	add.u32 %r2, %r2, 1;\n"
                                  "	setp.lt.u32 %p1, %r2, 100;\n"
                                  "	@%p1 bra LOOP;\n"
                                  "	add.u32 %r3, %r3, %r1;\n"
                                  "	ld.param.u64 %rd1, [out];\n"
                                  "	cvta.to.global.u64 %rd1, %rd1;\n"
                                  "	mul.wide.u32 %rd2, %r1, 4;\n"
                                  "	add.u64 %rd3, %rd1, %rd2;\n"
                                  "	st.global.u32 [%rd3], %r3;\n"
                                  "	ret;\n"
                                  "}\n";

TEST(ddos_counted_loop_kernel)
{
	const char *kv[] = {"sched", "ddos:gto", NULL};
	ws_config *cfg = cfg_with(kv);
	ws_sim *sim = NULL;
	CHECK(cfg && wsSimCreate(&sim, cfg) == WS_SUCCESS);
	wsConfigDestroy(cfg);
	if (!sim)
		return;
	ws_module *mod = NULL;
	ws_function *f = NULL;
	ws_deviceptr d = 0;
	ws_result r = wsModuleLoadData(sim, &mod, counted_ptx, "counted.ptx");
	if (r == WS_SUCCESS)
		r = wsModuleGetFunction(&f, mod, "cl");
	if (r == WS_SUCCESS)
		r = wsMemAlloc(sim, &d, 256 * 4);
	/* the API refuses what is not a backward branch */
	if (r == WS_SUCCESS) {
		int32_t bad = 0, pcs[2];
		CHECK(wsFunctionSetSpinBranches(f, &bad, 1) == WS_ERROR_INVALID_VALUE);
		CHECK_STR_CONTAINS(wsSimLastError(sim), "not a backward branch");
		CHECK_EQ(wsFunctionBackwardBranches(f, pcs, NULL, 2), 1);
		CHECK_EQ(pcs[0], 6);
	}
	void *args[] = {&d};
	if (r == WS_SUCCESS)
		r = wsLaunchKernel(f, 1, 1, 1, 256, 1, 1, 0, args);
	CHECK_MSG(r == WS_SUCCESS, "%s", wsSimLastError(sim));
	uint32_t h[256];
	if (r == WS_SUCCESS && wsMemcpyDtoH(sim, h, d, sizeof h) == WS_SUCCESS)
		for (unsigned i = 0; i < 256; i++)
			CHECK_EQ(h[i], 4950 + i);
	CHECK(stat_of(sim, "ddos_false_seen") >= 1);
	CHECK_EQ(stat_of(sim, "ddos_false_detected"), 0);
	CHECK_EQ(stat_of(sim, "ddos_spin_setps"), 0);
	wsSimDestroy(sim);
}

/* Wait and signal: warp 0 waits for a flag that warp 1 sets. */
static const char wait_ptx[] = ".version 7.0\n"
                               ".target sm_70\n"
                               ".address_size 64\n"
                               ".visible .entry ws(.param .u64 flag)\n"
                               "{\n"
                               "	.reg .pred %p<2>;\n"
                               "	.reg .b32 %r<4>;\n"
                               "	.reg .b64 %rd<2>;\n"
                               "	ld.param.u64 %rd1, [flag];\n"
                               "	cvta.to.global.u64 %rd1, %rd1;\n"
                               "	mov.u32 %r1, %tid.x;\n"
                               "	setp.lt.u32 %p1, %r1, 32;\n"
                               "	@%p1 bra WAIT;\n"
                               "	mov.u32 %r2, 1;\n"
                               "	st.volatile.global.u32 [%rd1], %r2;\n"
                               "	bra DONE;\n"
                               "WAIT:\n"
                               "	ld.volatile.global.u32 %r3, [%rd1];\n"
                               "	setp.eq.u32 %p1, %r3, 0;\n"
                               "	@%p1 bra WAIT;\n"
                               "DONE:\n"
                               "	ret;\n"
                               "}\n";

TEST(lockstat_wait_exit)
{
	const char *policies[] = {"lrr", "bows:gto", NULL};
	for (int p = 0; policies[p]; p++) {
		const char *kv[] = {"sched", policies[p], "bows_sib", "annotated", NULL};
		ws_config *cfg = cfg_with(kv);
		ws_sim *sim = NULL;
		CHECK(cfg && wsSimCreate(&sim, cfg) == WS_SUCCESS);
		wsConfigDestroy(cfg);
		if (!sim)
			return;
		ws_module *mod = NULL;
		ws_function *f = NULL;
		ws_deviceptr d = 0;
		int32_t pc = -1;
		ws_result r = wsModuleLoadData(sim, &mod, wait_ptx, "wait.ptx");
		if (r == WS_SUCCESS)
			r = wsModuleGetFunction(&f, mod, "ws");
		if (r == WS_SUCCESS)
			r = wsMemAlloc(sim, &d, 4);
		if (r == WS_SUCCESS)
			r = wsMemsetD32(sim, d, 0, 1);
		if (r == WS_SUCCESS) {
			CHECK_EQ(wsFunctionBackwardBranches(f, &pc, NULL, 1), 1);
			r = wsFunctionSetSpinBranches(f, &pc, 1);
		}
		void *args[] = {&d};
		if (r == WS_SUCCESS)
			r = wsLaunchKernel(f, 1, 1, 1, 64, 1, 1, 0, args);
		CHECK_MSG(r == WS_SUCCESS, "%s: %s", policies[p], wsSimLastError(sim));
		CHECK_EQ(stat_of(sim, "wait_exit_success"), 32);
		CHECK_EQ(stat_of(sim, "lock_acquire_success"), 0);
		if (p == 1) /* a wait loop is a SIB loop too: BOWS backs its warp off */
			CHECK(stat_of(sim, "bows_backoffs") == stat_of(sim, "wait_exit_fail") / 32);
		wsSimDestroy(sim);
	}
}

/* Every benchmark verifies at tiny size under every BOWS variant (no
 * livelock: the watchdogs would fail the run), with golden statistics. */
static const char *const bows_policies[] = {"bows:lrr", "bows:gto", "bows:gto-rotate", "bows:cawa", "ddos:gto", NULL};
static const char *const bows_keys[] = {"cycles", "warp_insts", "stall_held", "l1d_hits", "l1d_misses", NULL};
#define BOWS_GOLDEN TEST_DATA_DIR "/golden/bows_tiny.txt"

TEST(golden_bows_tiny_stats)
{
	char *got = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&got, &len);
	if (!m)
		return;
	fprintf(m, "# BOWS golden statistics: tiny size, GTX480 defaults, one line per benchmark x BOWS variant\n"
	           "# (tests/test_bows.c; regenerate deliberately with `make golden`)\n");
	for (int i = 0; ws_bench_table[i]; i++)
		for (int p = 0; bows_policies[p]; p++) {
			const struct ws_bench_info *bi = ws_bench_table[i];
			const char *kv[] = {"sched", bows_policies[p], NULL};
			ws_config *cfg = cfg_with(kv);
			ws_sim *sim = NULL;
			ws_module *mod = NULL;
			struct ws_bench_out out;
			memset(&out, 0, sizeof out);
			ws_result r = cfg ? wsSimCreate(&sim, cfg) : WS_ERROR_INVALID_CONFIG;
			wsConfigDestroy(cfg);
			if (r == WS_SUCCESS)
				r = wsModuleLoadData(sim, &mod, bi->ptx, bi->name);
			if (r == WS_SUCCESS)
				r = ws_bench_run(bi, sim, mod, WS_SIZE_TINY, &out);
			CHECK_MSG(r == WS_SUCCESS, "%s under %s: %s %s", bi->name, bows_policies[p], wsGetErrorName(r),
			          out.msg);
			fprintf(m, "%s %s", bi->name, bows_policies[p]);
			for (int k = 0; r == WS_SUCCESS && bows_keys[k]; k++)
				fprintf(m, " %s=%llu", bows_keys[k], (unsigned long long)stat_of(sim, bows_keys[k]));
			fputc('\n', m);
			wsSimDestroy(sim);
		}
	fclose(m);
	golden_check(t, BOWS_GOLDEN, got);
}

/* The energy estimate: the components add up, each scales with its
 * coefficient, static energy is power x cycles / clock. */
TEST(energy_estimate_components)
{
	const char *kv[] = {"sched", "gto", NULL};
	const char *kv2[] = {"sched", "gto", "energy_rf_pj", "10", "energy_static_w", "0", NULL};
	double a[9], b[9];
	const char *names[] = {"energy_j",    "energy_dynamic_j", "energy_core_j", "energy_rf_j",    "energy_shmem_j",
	                       "energy_l1_j", "energy_l2_j",      "energy_dram_j", "energy_static_j"};
	for (int run = 0; run < 2; run++) {
		ws_sim *sim = run_ht(t, run ? kv2 : kv, false);
		if (!sim)
			return;
		for (int i = 0; i < 9; i++)
			CHECK(wsStatsGetDerived(sim, names[i], run ? &b[i] : &a[i]) == WS_SUCCESS);
		if (!run) {
			uint64_t cyc = stat_of(sim, "cycles");
			CHECK(a[8] > 0 && a[8] - 40.0 * (double)cyc / 700e6 < 1e-12 &&
			      a[8] - 40.0 * (double)cyc / 700e6 > -1e-12);
			CHECK(stat_of(sim, "rf_reads") > 0 && stat_of(sim, "lanes_int") > 0);
		}
		wsSimDestroy(sim);
	}
	double sum = a[2] + a[3] + a[4] + a[5] + a[6] + a[7];
	CHECK(a[1] > 0 && a[1] - sum < 1e-15 && sum - a[1] < 1e-15);
	CHECK(a[0] - (a[1] + a[8]) < 1e-15 && (a[1] + a[8]) - a[0] < 1e-15);
	CHECK(b[3] > 1.999 * a[3] && b[3] < 2.001 * a[3]); /* rf doubled */
	CHECK(b[2] == a[2] && b[7] == a[7]);
	CHECK(b[8] == 0 && b[0] == b[1]);
}

/* order() stays a pure query while warps back off, are held and released:
 * an instance asked extra times orders exactly like one asked once per cycle. */
TEST(bows_order_is_pure)
{
	const char *kv[] = {"bows_sib", "annotated", "bows_delay", "adaptive",   "bows_window", "50", "bows_delay_min",
	                    "0",        "bows_step", "20",         "bows_frac1", "0.1",         NULL};
	ws_config *cfg = cfg_with(kv);
	const char *inner[] = {"lrr", "gto", "cawa", "gto-rotate"};
	for (int in = 0; in < 4; in++) {
		struct bv a, b;
		bv_init(&a, NW);
		bv_init(&b, NW);
		const struct sched_policy *p = sched_policy_find("bows");
		struct sched_create_args ca = {.cfg = cfg,
		                               .nsched = 1,
		                               .nslots = NW,
		                               .nctas = 2,
		                               .counters = a.ctr,
		                               .inner = sched_policy_find(inner[in]),
		                               .self = p,
		                               .sibs = the_sib,
		                               .nsibs = 1};
		void *sa = p->create(&ca);
		ca.counters = b.ctr;
		void *sb = p->create(&ca);
		CHECK(sa && sb);
		if (!sa || !sb) {
			if (sa)
				p->destroy(sa);
			if (sb)
				p->destroy(sb);
			continue;
		}
		uint64_t rng = 0x1234567ull + (uint64_t)in;
		bool same = true;
		for (uint64_t cyc = 1; cyc < 3000 && same; cyc++) {
			a.v.cycle = b.v.cycle = cyc;
			uint32_t oa[NW], ob[NW], junk[NW];
			p->order(sb, &b.v, 0, junk); /* extra query before the hook */
			p->on_cycle(sa, &a.v, 0);
			p->on_cycle(sb, &b.v, 0);
			uint32_t na = p->order(sa, &a.v, 0, oa);
			p->order(sb, &b.v, 0, junk);
			uint32_t nb = p->order(sb, &b.v, 0, ob);
			same = na == nb && memcmp(oa, ob, na * sizeof *oa) == 0 &&
			       memcmp(a.held, b.held, sizeof a.held) == 0;
			/* issue the first ordered warp that is not held; sometimes it takes the SIB */
			for (uint32_t i = 0; i < na; i++)
				if (!a.held[oa[i]]) {
					p->on_issue(sa, &a.v, 0, oa[i]);
					p->on_issue(sb, &b.v, 0, oa[i]);
					rng = rng * 6364136223846793005ull + 1442695040888963407ull;
					if ((rng >> 60) < 5) {
						branch(p, sa, &a, oa[i], 9, (rng >> 59) & 1);
						branch(p, sb, &b, oa[i], 9, (rng >> 59) & 1);
					}
					break;
				}
		}
		CHECK_MSG(same, "bows:%s: orders differ", inner[in]);
		CHECK(memcmp(a.ctr, b.ctr, sizeof a.ctr) == 0);
		CHECK(ctr_of(p, a.ctr, "blocked") > 0 && ctr_of(p, a.ctr, "delay_raises") > 0);
		p->destroy(sa);
		p->destroy(sb);
	}
	wsConfigDestroy(cfg);
}
