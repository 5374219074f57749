/*
 * test_sched_iface.c -- tests of the scheduling-policy interface itself
 * (src/sched/sched.h), with policies defined here and run through the whole
 * timing model with sim_set_sched_policy:
 *   - on_exec events (setp sources from the first active lane, branch
 *     target, divergence, backward edges) on a small PTX kernel;
 *   - the kernel events, SCHED_KERNEL_LAST_CTA_ISSUED in particular;
 *   - a policy whose optional hooks are all NULL runs kernels (also under
 *     the cff fetch policy, which asks it for its order);
 *   - wrappers ("NAME:INNER"): name resolution and its errors, the inner's
 *     order with the wrapper's changes, held-back warps and stall_held,
 *     exported counters in wsStatsGet, the text and the JSON output.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/params.h"
#include "gpu/sim.h"
#include "sched/sched.h"
#include "sched/sched_util.h"
#include "test.h"
#include "warpsim.h"

/* Per warp: setp (all lanes), a forward branch that diverges (lanes 0-7
 * jump), on lanes 8-31 a setp and a setp guarded off for lanes 8 and 9, then
 * a uniform loop of 3 iterations (setp + backward branch), a barrier, and
 * out[gid] = gid + 3. */
static const char k_ptx[] = ".version 7.0\n"
			    ".target sm_70\n"
			    ".address_size 64\n"
			    ".visible .entry k(.param .u64 out)\n"
			    "{\n"
			    "	.reg .pred %p<6>;\n"
			    "	.reg .b32 %r<12>;\n"
			    "	.reg .b64 %rd<4>;\n"
			    "	mov.u32 %r1, %tid.x;\n"
			    "	and.b32 %r2, %r1, 31;\n"
			    "	setp.lt.u32 %p1, %r2, 8;\n"
			    "	@%p1 bra SKIP;\n"
			    "	setp.gt.u32 %p3, %r2, 9;\n"
			    "	@%p3 setp.gt.u32 %p2, %r2, 20;\n"
			    "SKIP:\n"
			    "	mov.u32 %r4, 0;\n"
			    "LOOP:\n"
			    "	add.u32 %r4, %r4, 1;\n"
			    "	setp.lt.u32 %p4, %r4, 3;\n"
			    "	@%p4 bra LOOP;\n"
			    "	bar.sync 0;\n"
			    "	mov.u32 %r5, %ctaid.x;\n"
			    "	mov.u32 %r6, %ntid.x;\n"
			    "	mad.lo.u32 %r7, %r5, %r6, %r1;\n"
			    "	add.u32 %r8, %r7, %r4;\n"
			    "	ld.param.u64 %rd1, [out];\n"
			    "	cvta.to.global.u64 %rd1, %rd1;\n"
			    "	mul.wide.u32 %rd2, %r7, 4;\n"
			    "	add.u64 %rd3, %rd1, %rd2;\n"
			    "	st.global.u32 [%rd3], %r8;\n"
			    "	ret;\n"
			    "}\n";

/* Run k with `grid` CTAs of `block` threads under pol (over inner) and
 * the settings kv (NULL-terminated pairs); check out[]; returns the sim
 * (caller destroys) or NULL. */
static ws_sim *run_k(struct test_ctx *t, const struct sched_policy *pol, const struct sched_policy *inner,
		     unsigned grid, unsigned block, const char *const *kv)
{
	ws_config *cfg = wsConfigCreate();
	char err[256];
	ws_sim *sim = NULL;
	int ok = cfg && wsConfigSet(cfg, "mode", "timing", err, sizeof err) == WS_SUCCESS;
	for (unsigned i = 0; ok && kv && kv[i]; i += 2) {
		ok = wsConfigSet(cfg, kv[i], kv[i + 1], err, sizeof err) == WS_SUCCESS;
		CHECK_MSG(ok, "config %s=%s: %s", kv[i], kv[i + 1], err);
	}
	ok = ok && wsSimCreate(&sim, cfg) == WS_SUCCESS;
	wsConfigDestroy(cfg);
	CHECK(ok);
	if (!ok)
		return NULL;
	sim_set_sched_policy(sim, pol, inner);
	ws_module *mod = NULL;
	ws_function *fn = NULL;
	ws_deviceptr d = 0;
	size_t n = (size_t)grid * block;
	ws_result r = wsModuleLoadData(sim, &mod, k_ptx, "iface.ptx");
	if (r == WS_SUCCESS)
		r = wsModuleGetFunction(&fn, mod, "k");
	if (r == WS_SUCCESS)
		r = wsMemAlloc(sim, &d, n * 4);
	void *args[] = {&d};
	if (r == WS_SUCCESS)
		r = wsLaunchKernel(fn, grid, 1, 1, block, 1, 1, 0, args);
	CHECK_MSG(r == WS_SUCCESS, "run under %s: %s", pol ? pol->name : "(config)", wsSimLastError(sim));
	uint32_t *h = calloc(n, 4);
	if (r == WS_SUCCESS && h && wsMemcpyDtoH(sim, h, d, n * 4) == WS_SUCCESS) {
		size_t bad = 0;
		for (size_t i = 0; i < n; i++)
			bad += h[i] != i + 3;
		CHECK_MSG(bad == 0, "%zu wrong results", bad);
	}
	free(h);
	if (r != WS_SUCCESS) {
		wsSimDestroy(sim);
		return NULL;
	}
	return sim;
}

static uint64_t stat(ws_sim *sim, const char *name)
{
	uint64_t v = 0;
	wsStatsGet(sim, name, &v);
	return v;
}

/* ------------------------------------------------------------ a recording policy */

#define REC_MAX 512

struct rec_kev {
	uint32_t sm;
	enum sched_kernel_event ev;
	bool last_cta_issued; /* the view's flag at the event */
	uint32_t launches;    /* CTA launches seen on all SMs so far */
};

struct recorder {
	uint32_t nexec, nkev, launches, launches_after_last, nsm_created;
	struct sched_exec_event exec[REC_MAX];
	struct rec_kev kev[REC_MAX];
};

/* Per SM: slot order from 0 (a fixed priority), everything recorded in the shared recorder. */
struct rec_st {
	struct recorder *r;
	uint32_t sm, nslots;
	bool last_seen;
};

static void *rec_create(const struct sched_create_args *a)
{
	struct rec_st *s = calloc(1, sizeof *s);
	if (!s)
		return NULL;
	s->r = a->self->user;
	s->sm = a->sm;
	s->nslots = a->nslots;
	s->r->nsm_created++;
	return s;
}

static void rec_destroy(void *st) { free(st); }

static uint32_t rec_order(const void *st, const struct sched_view *v, uint32_t sched_id, uint32_t *order)
{
	const struct rec_st *s = st;
	return sched_rr_from(v, sched_nslots(v, s->nslots), sched_id, SCHED_NONE, order);
}

static void rec_on_exec(void *st, const struct sched_view *v, const struct sched_exec_event *e)
{
	struct rec_st *s = st;
	if (s->r->nexec < REC_MAX)
		s->r->exec[s->r->nexec++] = *e;
}

static void rec_on_kernel_event(void *st, const struct sched_view *v, enum sched_kernel_event ev)
{
	struct rec_st *s = st;
	if (ev == SCHED_KERNEL_LAST_CTA_ISSUED)
		s->last_seen = true;
	if (s->r->nkev < REC_MAX)
		s->r->kev[s->r->nkev++] = (struct rec_kev){s->sm, ev, v->last_cta_issued, s->r->launches};
}

static void rec_on_cta_launch(void *st, const struct sched_view *v, uint32_t cta_slot)
{
	struct rec_st *s = st;
	s->r->launches++;
	if (s->last_seen)
		s->r->launches_after_last++;
}

/* on_exec: every setp and branch of k, with its content (one warp of 32 lanes). */
TEST(sched_iface_on_exec)
{
	struct recorder *r = calloc(1, sizeof *r);
	CHECK(r != NULL);
	if (!r)
		return;
	struct sched_policy rec = {.name = "rec", .description = "test: records events", .create = rec_create,
				   .destroy = rec_destroy, .order = rec_order, .on_exec = rec_on_exec, .user = r};
	ws_sim *sim = run_k(t, &rec, NULL, 1, 32, NULL);
	wsSimDestroy(sim);
	/* per warp: 6 setp and 4 branches, in program order */
	CHECK_EQ(r->nexec, 10);
	if (r->nexec != 10) {
		free(r);
		return;
	}
	const struct sched_exec_event *e = r->exec;
	/* setp.lt %r2, 8 on all 32 lanes: sources from lane 0 */
	CHECK(e[0].is_setp && !e[0].is_branch);
	CHECK_EQ(e[0].lane, 0);
	CHECK_EQ(e[0].active, 0xffffffffull);
	CHECK_EQ(e[0].src_values[0], 0);
	CHECK_EQ(e[0].src_values[1], 8);
	CHECK_EQ(e[0].result & 1, 1); /* lane 0: 0 < 8 */
	/* @%p1 bra SKIP: lanes 0-7 take it -- a forward branch that diverges */
	CHECK(e[1].is_branch && !e[1].is_setp);
	CHECK(e[1].diverged);
	CHECK(e[1].taken);
	CHECK(!e[1].backward);
	CHECK(e[1].target > e[1].pc);
	CHECK_EQ(e[1].exec, 0xffull);
	CHECK_EQ(e[1].active, 0xffffffffull);
	/* the not-taken side (lanes 8-31): setp.gt %r2, 9 -- the first active lane is 8 */
	CHECK(e[2].is_setp);
	CHECK_EQ(e[2].active, 0xffffff00ull);
	CHECK_EQ(e[2].lane, 8);
	CHECK_EQ(e[2].src_values[0], 8);
	CHECK_EQ(e[2].src_values[1], 9);
	/* @%p3 setp.gt %r2, 20: lanes 8 and 9 are active but guarded off; the
	 * values still come from the first *active* lane, 8 */
	CHECK(e[3].is_setp);
	CHECK_EQ(e[3].active, 0xffffff00ull);
	CHECK_EQ(e[3].exec, 0xfffffc00ull);
	CHECK_EQ(e[3].lane, 8);
	CHECK_EQ(e[3].src_values[0], 8);
	CHECK_EQ(e[3].src_values[1], 20);
	CHECK_EQ(e[3].pc, e[2].pc + 1);
	/* the loop, reconverged: setp, then a backward branch, 3 times; taken twice */
	for (int i = 0; i < 3; i++) {
		const struct sched_exec_event *sp = &e[4 + 2 * i], *br = &e[5 + 2 * i];
		CHECK(sp->is_setp);
		CHECK_EQ(sp->lane, 0);
		CHECK_EQ(sp->active, 0xffffffffull);
		CHECK_EQ(sp->src_values[0], (uint64_t)i + 1);
		CHECK_EQ(sp->src_values[1], 3);
		CHECK_EQ(sp->result & 1, i < 2);
		CHECK(br->is_branch);
		CHECK(br->backward);
		CHECK(!br->diverged);
		CHECK_EQ(br->taken, i < 2);
		CHECK(br->target >= 0 && br->target < br->pc);
		CHECK_EQ(br->target, sp->pc - 1); /* LOOP: the add before the setp */
		CHECK_EQ(br->pc, sp->pc + 1);
		CHECK_EQ(br->slot, sp->slot);
	}
	free(r);
}

/* SCHED_KERNEL_LAST_CTA_ISSUED: once on every SM, when the dispatcher has
 * issued the grid's last CTA (after its on_cta_launch), between START and END. */
TEST(sched_iface_last_cta_issued)
{
	struct recorder *r = calloc(1, sizeof *r);
	CHECK(r != NULL);
	if (!r)
		return;
	struct sched_policy rec = {.name = "rec", .description = "test: records events", .create = rec_create,
				   .destroy = rec_destroy, .order = rec_order, .on_kernel_event = rec_on_kernel_event,
				   .on_cta_launch = rec_on_cta_launch, .user = r};
	const unsigned grid = 40;
	ws_sim *sim = run_k(t, &rec, NULL, grid, 64, NULL);
	uint64_t nsms = 0;
	if (sim)
		nsms = (uint64_t)cfg_int(wsSimConfig(sim), CFG_num_sms);
	wsSimDestroy(sim);
	CHECK(nsms > 0 && nsms < grid);
	CHECK_EQ(r->nsm_created, nsms);
	CHECK_EQ(r->launches, grid);
	CHECK_EQ(r->launches_after_last, 0);
	for (uint32_t sm = 0; sm < nsms; sm++) {
		int start = -1, last = -1, end = -1, nlast = 0;
		for (uint32_t i = 0; i < r->nkev; i++) {
			if (r->kev[i].sm != sm)
				continue;
			if (r->kev[i].ev == SCHED_KERNEL_START)
				start = (int)i;
			if (r->kev[i].ev == SCHED_KERNEL_END)
				end = (int)i;
			if (r->kev[i].ev == SCHED_KERNEL_LAST_CTA_ISSUED) {
				last = (int)i;
				nlast++;
				CHECK(r->kev[i].last_cta_issued);
				CHECK_EQ(r->kev[i].launches, grid); /* every CTA was dispatched */
			}
		}
		CHECK_MSG(nlast == 1, "SM %u: %d last-CTA events", sm, nlast);
		CHECK_MSG(start >= 0 && start < last && last < end, "SM %u: events out of order", sm);
	}
	free(r);
}

/* ------------------------------------------------------------ per-warp stall cycles */

/* Counts stall cycles the slow way -- at the start of each cycle's issue
 * stage (on_cycle of scheduler 0), a warp with a decoded head instruction,
 * not at a barrier and not finished, that then does not issue in that cycle
 * -- and compares with the view's sched_warp_stall_cycles every cycle. */
struct stallchk {
	uint64_t checks, mismatches, total;
};

struct sc_st {
	struct stallchk *r;
	uint32_t nslots;
	uint64_t cycle;    /* cycle of the last on_cycle(0), UINT64_MAX: none */
	bool elig[64];     /* at the start of that cycle's issue stage */
	bool issued[64];   /* in that cycle */
	uint64_t age[64];
	uint64_t count[64];
};

static void *sc_create(const struct sched_create_args *a)
{
	struct sc_st *s = calloc(1, sizeof *s);
	if (!s)
		return NULL;
	s->r = a->self->user;
	s->nslots = a->nslots < 64 ? a->nslots : 64;
	s->cycle = UINT64_MAX;
	for (uint32_t i = 0; i < 64; i++)
		s->age[i] = UINT64_MAX;
	return s;
}

static uint32_t sc_order(const void *st, const struct sched_view *v, uint32_t sched_id, uint32_t *order)
{
	const struct sc_st *s = st;
	return sched_rr_from(v, sched_nslots(v, s->nslots), sched_id, SCHED_NONE, order);
}

static void sc_on_cycle(void *st, const struct sched_view *v, uint32_t sched_id)
{
	struct sc_st *s = st;
	if (sched_id != 0)
		return;
	for (uint32_t i = 0; i < s->nslots; i++) {
		const struct sched_warp *w = &v->warps[i];
		if (!w->valid)
			continue;
		if (w->age != s->age[i]) { /* a new warp in the slot */
			s->age[i] = w->age;
			s->count[i] = 0;
			s->elig[i] = false;
		} else if (s->cycle != UINT64_MAX && s->elig[i] && !s->issued[i]) {
			s->count[i]++;
			s->r->total++;
		}
		s->r->checks++;
		if (sched_warp_stall_cycles(w, v->cycle) != s->count[i])
			s->r->mismatches++;
		s->elig[i] = w->ibuf_head_valid && !w->at_barrier && !w->finished;
		s->issued[i] = false;
	}
	s->cycle = v->cycle;
}

static void sc_on_issue(void *st, const struct sched_view *v, uint32_t sched_id, uint32_t slot)
{
	struct sc_st *s = st;
	if (slot < 64)
		s->issued[slot] = true;
}

TEST(sched_iface_stall_cycles)
{
	struct stallchk r = {0, 0, 0};
	struct sched_policy sc = {.name = "sc", .description = "test: checks stall_cycles", .create = sc_create,
				  .destroy = free, .order = sc_order, .on_cycle = sc_on_cycle,
				  .on_issue = sc_on_issue, .user = &r};
	ws_sim *sim = run_k(t, &sc, NULL, 45, 256, NULL);
	wsSimDestroy(sim);
	CHECK(r.checks > 1000);
	CHECK(r.total > 1000);
	CHECK_MSG(r.mismatches == 0, "%llu of %llu checks differ", (unsigned long long)r.mismatches,
		  (unsigned long long)r.checks);
}

/* ------------------------------------------------------------ only the required pieces */

struct bare {
	uint32_t nslots;
};

static void *bare_create(const struct sched_create_args *a)
{
	struct bare *s = calloc(1, sizeof *s);
	if (s)
		s->nslots = a->nslots;
	return s;
}

static void bare_destroy(void *st) { free(st); }

static uint32_t bare_order(const void *st, const struct sched_view *v, uint32_t sched_id, uint32_t *order)
{
	const struct bare *s = st;
	return sched_rr_from(v, sched_nslots(v, s->nslots), sched_id, SCHED_NONE, order);
}

/* Every optional hook NULL, no counters: kernels with divergence, loops and
 * barriers run and verify, with the rr and the cff fetch policy. */
TEST(sched_iface_null_hooks)
{
	struct sched_policy bare = {.name = "bare", .description = "test: order only", .create = bare_create,
				    .destroy = bare_destroy, .order = bare_order};
	static const char *const cff[] = {"fetch", "cff", NULL};
	for (int k = 0; k < 2; k++) {
		ws_sim *sim = run_k(t, &bare, NULL, 30, 256, k ? cff : NULL);
		CHECK(sim != NULL);
		if (sim) {
			CHECK(stat(sim, "cycles") > 0);
			CHECK_EQ(stat(sim, "stall_held"), 0);
		}
		wsSimDestroy(sim);
	}
}

/* ------------------------------------------------------------ a test wrapper */

/* "tbo": a toy back-off wrapper.  A warp that takes a backward branch is
 * held back for TBO_DELAY cycles (released by on_cycle); the order is the
 * inner policy's with the held warps moved to the back. */
#define TBO_DELAY 40

static const struct sched_counter tbo_counters[] = {
	{"backoffs", "warps", "test: warps held back after a taken backward branch"},
	{"releases", "warps", "test: held warps released"},
};

struct tbo {
	struct sched_inner in;
	uint32_t nslots;
	uint64_t *until;  /* [nslots] */
	uint64_t *ctr;
	uint32_t *scratch;
};

static void tbo_destroy(void *st)
{
	struct tbo *s = st;
	if (!s)
		return;
	sched_inner_destroy(&s->in);
	free(s->until);
	free(s->scratch);
	free(s);
}

static void *tbo_create(const struct sched_create_args *a)
{
	struct tbo *s = calloc(1, sizeof *s);
	if (!s)
		return NULL;
	s->nslots = a->nslots;
	s->ctr = a->counters;
	s->until = calloc(a->nslots ? a->nslots : 1, sizeof *s->until);
	s->scratch = calloc(a->nslots ? a->nslots : 1, sizeof *s->scratch);
	if (!s->until || !s->scratch || sched_inner_create(&s->in, a, 2) != 0) {
		tbo_destroy(s);
		return NULL;
	}
	return s;
}

static uint32_t tbo_order(const void *st, const struct sched_view *v, uint32_t sched_id, uint32_t *order)
{
	const struct tbo *s = st;
	uint32_t n = sched_inner_order(&s->in, v, sched_id, s->scratch), k = 0;
	for (int pass = 0; pass < 2; pass++)
		for (uint32_t i = 0; i < n; i++)
			if (sched_held(v, s->scratch[i]) == (pass == 1))
				order[k++] = s->scratch[i];
	return k;
}

static void tbo_on_cycle(void *st, const struct sched_view *v, uint32_t sched_id)
{
	struct tbo *s = st;
	sched_inner_on_cycle(&s->in, v, sched_id);
	for (uint32_t i = 0; i < s->nslots && i < v->nslots; i++)
		if (v->warps[i].sched_id == sched_id && sched_held(v, i) && v->cycle >= s->until[i]) {
			sched_hold(v, i, false);
			s->ctr[1]++;
		}
}

static void tbo_on_exec(void *st, const struct sched_view *v, const struct sched_exec_event *e)
{
	struct tbo *s = st;
	sched_inner_on_exec(&s->in, v, e);
	if (e->is_branch && e->backward && e->taken && e->slot < s->nslots) {
		sched_hold(v, e->slot, true);
		s->until[e->slot] = v->cycle + TBO_DELAY;
		s->ctr[0]++;
	}
}

static void tbo_on_issue(void *st, const struct sched_view *v, uint32_t sched_id, uint32_t slot)
{
	sched_inner_on_issue(&((struct tbo *)st)->in, v, sched_id, slot);
}
static void tbo_on_barrier_arrive(void *st, const struct sched_view *v, uint32_t c, uint32_t slot)
{
	sched_inner_on_barrier_arrive(&((struct tbo *)st)->in, v, c, slot);
}
static void tbo_on_barrier_release(void *st, const struct sched_view *v, uint32_t c)
{
	sched_inner_on_barrier_release(&((struct tbo *)st)->in, v, c);
}
static void tbo_on_cta_launch(void *st, const struct sched_view *v, uint32_t c)
{
	sched_inner_on_cta_launch(&((struct tbo *)st)->in, v, c);
}
static void tbo_on_cta_exit(void *st, const struct sched_view *v, uint32_t c)
{
	sched_inner_on_cta_exit(&((struct tbo *)st)->in, v, c);
}
static void tbo_on_kernel_event(void *st, const struct sched_view *v, enum sched_kernel_event ev)
{
	sched_inner_on_kernel_event(&((struct tbo *)st)->in, v, ev);
}

static const struct sched_policy sched_tbo = {
	.name = "tbo",
	.description = "test: toy back-off wrapper",
	.wraps = true,
	.counters = tbo_counters,
	.ncounters = 2,
	.create = tbo_create,
	.destroy = tbo_destroy,
	.order = tbo_order,
	.on_cycle = tbo_on_cycle,
	.on_issue = tbo_on_issue,
	.on_barrier_arrive = tbo_on_barrier_arrive,
	.on_barrier_release = tbo_on_barrier_release,
	.on_cta_launch = tbo_on_cta_launch,
	.on_cta_exit = tbo_on_cta_exit,
	.on_kernel_event = tbo_on_kernel_event,
	.on_exec = tbo_on_exec,
};

static bool has(const char *msg, const char *part) { return strstr(msg, part) != NULL; }

/* NAME:INNER resolution, and errors that name the problem and list the choices. */
TEST(sched_iface_resolve)
{
	char msg[512];
	struct sched_choice c;
	CHECK(sched_resolve("gto", &c, msg, sizeof msg));
	CHECK(c.pol == sched_policy_find("gto") && c.inner == NULL);
	CHECK(!sched_resolve("gto:lrr", &c, msg, sizeof msg));
	CHECK_MSG(has(msg, "does not wrap"), "%s", msg);
	CHECK(sched_resolve("bows:gto", &c, msg, sizeof msg));
	CHECK(c.pol == sched_policy_find("bows") && c.inner == sched_policy_find("gto"));
	CHECK(!sched_resolve("nope:gto", &c, msg, sizeof msg));
	CHECK_MSG(has(msg, "unknown warp-scheduling policy 'nope'") && has(msg, " lrr") && has(msg, " gto-rotate") &&
			  has(msg, "bows"),
		  "%s", msg);
	CHECK(!sched_resolve("bows", &c, msg, sizeof msg));
	CHECK_MSG(has(msg, "use bows:INNER"), "%s", msg);
	CHECK(!sched_resolve(NULL, &c, msg, sizeof msg));

	const struct sched_policy *list[] = {sched_policy_find("lrr"), sched_policy_find("gto"), &sched_tbo, NULL};
	CHECK(sched_resolve_in(list, "tbo:gto", &c, msg, sizeof msg));
	CHECK(c.pol == &sched_tbo && c.inner == list[1]);
	CHECK_EQ(sched_choice_ncounters(&c), 2);
	char name[64];
	const struct sched_counter *sc = sched_choice_counter(&c, 1, name, sizeof name);
	CHECK(sc && strcmp(name, "tbo_releases") == 0);
	CHECK(!sched_resolve_in(list, "tbo:nope", &c, msg, sizeof msg));
	CHECK_MSG(has(msg, "unknown inner policy 'nope'") && has(msg, " lrr gto"), "%s", msg);
	CHECK(!sched_resolve_in(list, "tbo:tbo", &c, msg, sizeof msg));
	CHECK_MSG(has(msg, "unknown inner policy 'tbo'"), "%s", msg);
	CHECK(!sched_resolve_in(list, "tbo", &c, msg, sizeof msg));
	CHECK_MSG(has(msg, "use tbo:INNER") && has(msg, " lrr gto"), "%s", msg);
	CHECK(!sched_resolve_in(list, "tbo:", &c, msg, sizeof msg));
	CHECK(!sched_resolve_in(list, "x:gto", &c, msg, sizeof msg));
	CHECK_MSG(has(msg, "wrappers, as WRAPPER:INNER: tbo"), "%s", msg);

	/* the configuration is checked with the same rules */
	ws_config *cfg = wsConfigCreate();
	char err[256];
	ws_sim *sim = NULL;
	if (cfg && wsConfigSet(cfg, "sched", "gto:lrr", err, sizeof err) == WS_SUCCESS) {
		CHECK(wsSimCreate(&sim, cfg) != WS_SUCCESS);
		wsSimDestroy(sim);
	}
	wsConfigDestroy(cfg);
}

#define FK 8

/* The wrapper's order is the inner's with its changes; hooks reach the inner. */
TEST(sched_iface_wrapper_order)
{
	const struct sched_policy *gto = sched_policy_find("gto");
	struct sched_warp w[FK];
	bool held[FK] = {false};
	uint64_t ctr[2] = {0, 0};
	memset(w, 0, sizeof w);
	for (uint32_t i = 0; i < FK; i++)
		w[i] = (struct sched_warp){.valid = true, .slot = i, .sched_id = 0, .age = 100 - i, .warp_in_cta = i};
	struct sched_hold_port hold = {sched_hold_in_array, held};
	struct sched_view v = {.nsched = 1, .nslots = FK, .warps = w, .held = held, .hold = &hold};
	uint32_t ages[FK], nages[1];
	sched_view_sort_ages(&v, ages, nages);
	struct sched_create_args a = {.nsched = 1, .nslots = FK, .nctas = 1, .counters = ctr,
				      .inner = gto, .self = &sched_tbo};
	void *st = sched_tbo.create(&a);
	struct sched_create_args ga = {.nsched = 1, .nslots = FK, .nctas = 1};
	void *gs = gto->create(&ga);
	CHECK(st && gs);
	if (!st || !gs) {
		if (st)
			sched_tbo.destroy(st);
		if (gs)
			gto->destroy(gs);
		return;
	}
	uint32_t o[FK], og[FK];
	/* nothing held: exactly GTO's order, also after an issue (the greedy head) */
	for (int step = 0; step < 2; step++) {
		v.cycle = (uint64_t)step;
		sched_tbo.on_cycle(st, &v, 0);
		uint32_t n = sched_tbo.order(st, &v, 0, o), ng = gto->order(gs, &v, 0, og);
		CHECK_EQ(n, ng);
		CHECK(n == FK && memcmp(o, og, sizeof o) == 0);
		sched_tbo.on_issue(st, &v, 0, 3);
		gto->on_issue(gs, &v, 0, 3);
	}
	/* GTO: greedy 3, then oldest first 7,6,...; slot 3 and 6 take a backward branch */
	struct sched_exec_event e = {.is_branch = true, .backward = true, .taken = true, .slot = 3};
	sched_tbo.on_exec(st, &v, &e);
	e.slot = 6;
	sched_tbo.on_exec(st, &v, &e);
	CHECK(held[3] && held[6]);
	CHECK_EQ(ctr[0], 2);
	sched_tbo.on_cycle(st, &v, 0);
	uint32_t n = sched_tbo.order(st, &v, 0, o);
	static const uint32_t want[FK] = {7, 5, 4, 2, 1, 0, 3, 6};
	CHECK(n == FK && memcmp(o, want, sizeof want) == 0);
	/* the delay over: released, GTO's order again */
	v.cycle = 2 + TBO_DELAY;
	sched_tbo.on_cycle(st, &v, 0);
	CHECK(!held[3] && !held[6]);
	CHECK_EQ(ctr[1], 2);
	n = sched_tbo.order(st, &v, 0, o);
	uint32_t ng = gto->order(gs, &v, 0, og);
	CHECK(n == ng && memcmp(o, og, n * sizeof *o) == 0);
	CHECK_EQ(o[0], 3);
	sched_tbo.destroy(st);
	gto->destroy(gs);
}

/* Through the whole model: held warps are not issued (stall_held), the
 * wrapper's counters reach wsStatsGet, the text and the JSON output. */
TEST(sched_iface_wrapper_run)
{
	const struct sched_policy *inner[] = {sched_policy_find("gto"), sched_policy_find("lrr"),
					      sched_policy_find("tls")};
	for (int k = 0; k < 3; k++) {
		ws_sim *sim = run_k(t, &sched_tbo, inner[k], 4, 64, NULL);
		CHECK(sim != NULL);
		if (!sim)
			continue;
		/* 8 warps, 2 taken backward branches each */
		CHECK_EQ(stat(sim, "tbo_backoffs"), 16);
		CHECK(stat(sim, "tbo_releases") <= 16);
		CHECK_MSG(stat(sim, "stall_held") > 0, "%s: no held stall", inner[k]->name);
		if (k == 2) /* the inner's counters follow the wrapper's */
			CHECK(stat(sim, "tls_promotions") > 0);
		char *buf = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);
		if (f) {
			wsStatsPrint(sim, f);
			wsStatsWriteJSON(sim, f);
			fclose(f);
			CHECK(buf && strstr(buf, "tbo_backoffs") && strstr(buf, "test: warps held back"));
			CHECK(buf && strstr(buf, "\"tbo_backoffs\": 16"));
		}
		free(buf);
		wsSimDestroy(sim);
	}
}
