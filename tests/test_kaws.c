/*
 * test_kaws.c -- the KAWS paper's mechanisms (issue 12, docs/kaws.md):
 *   - ka on hand-built views: age order until the last-CTA event, then
 *     CTA-progress order (fewest issued instructions first, oldest warp
 *     within a CTA), back to age order at the next kernel start;
 *   - the warp-sharing control unit's decision on hand-built views: a warp
 *     moves to another scheduler only when its own collector for the unit
 *     is busy and the other's is free, oldest first;
 *   - through the timing model: same-warp dual issue (fails on the old
 *     second-warp behaviour), scheduler rotation, the view's head unit and
 *     collector flags, warp sharing and a policy whose optional hooks are
 *     all NULL on the sub-core TITAN X organisation.
 */
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "gpu/sim.h"
#include "sched/sched.h"
#include "sched/sched_util.h"
#include "sched/warp_sharing.h"
#include "test.h"
#include "warpsim.h"

/* ------------------------------------------------------------ hand-built views */

#define HV_SLOTS 8
#define HV_CTAS 4

struct hview {
	struct sched_warp w[HV_SLOTS];
	struct sched_cta c[HV_CTAS];
	struct sched_view v;
	uint32_t ages[4 * HV_SLOTS], nages[4]; /* the view's age lists */
};

/* nsched schedulers; slot i belongs to scheduler i % nsched; all slots empty. */
static void hv_init(struct hview *h, uint32_t nsched)
{
	memset(h, 0, sizeof *h);
	for (uint32_t i = 0; i < HV_SLOTS; i++) {
		h->w[i].slot = i;
		h->w[i].sched_id = i % nsched;
	}
	h->v = (struct sched_view){.cycle = 100, .nsched = nsched, .nslots = HV_SLOTS, .warps = h->w,
				   .nctas = HV_CTAS, .ctas = h->c};
	sched_view_sort_ages(&h->v, h->ages, h->nages);
}

/* A ready warp in `slot` of CTA slot `cta` with launch order `age`. */
static void hv_warp(struct hview *h, uint32_t slot, uint32_t cta, uint64_t age, uint32_t wic)
{
	struct sched_warp *w = &h->w[slot];
	w->valid = true;
	w->ready = w->ibuf_head_valid = true;
	w->ibuf_count = 1;
	w->cta_slot = cta;
	w->age = age;
	w->warp_in_cta = wic;
	h->c[cta].valid = true;
	h->c[cta].nwarps++;
	sched_view_sort_ages(&h->v, h->ages, h->nages); /* as the SM does at a CTA launch */
}

static const struct sched_policy *pol(const char *name)
{
	const struct sched_policy *p = sched_policy_find(name);
	return p;
}

static void *ka_new(const struct sched_policy *p, uint32_t nsched)
{
	struct sched_create_args a = {.nsched = nsched, .nslots = HV_SLOTS, .nctas = HV_CTAS, .self = p};
	return p->create(&a);
}

/* One scheduler, CTA 0 (warps in slots 0,1; launched first, 50 instructions
 * issued) and CTA 1 (slots 2,3; launched later, 10 issued): age order puts
 * 0,1 first, CTA-progress order 2,3. */
static void hv_two_ctas(struct hview *h)
{
	hv_init(h, 1);
	hv_warp(h, 0, 0, 1, 0);
	hv_warp(h, 1, 0, 1, 1);
	hv_warp(h, 2, 1, 2, 0);
	hv_warp(h, 3, 1, 2, 1);
	h->c[0].insts_issued = 50;
	h->c[1].insts_issued = 10;
}

TEST(kaws_ka_switch_at_last_cta_event)
{
	const struct sched_policy *ka = pol("ka");
	CHECK(ka != NULL);
	if (!ka)
		return;
	struct hview h;
	hv_two_ctas(&h);
	void *st = ka_new(ka, 1);
	CHECK(st != NULL);
	if (!st)
		return;
	uint32_t o[HV_SLOTS];
	ka->on_kernel_event(st, &h.v, SCHED_KERNEL_START);
	/* before the milestone: age (oldest CTA's warps first), whatever the progress */
	CHECK_EQ(ka->order(st, &h.v, 0, o), 4);
	CHECK(o[0] == 0 && o[1] == 1 && o[2] == 2 && o[3] == 3);
	/* the view's flag alone does not switch: the event does (Fig. 4a's comparator) */
	h.v.last_cta_issued = true;
	ka->order(st, &h.v, 0, o);
	CHECK(o[0] == 0 && o[1] == 1);
	ka->on_kernel_event(st, &h.v, SCHED_KERNEL_LAST_CTA_ISSUED);
	CHECK_EQ(ka->order(st, &h.v, 0, o), 4);
	CHECK_MSG(o[0] == 2 && o[1] == 3 && o[2] == 0 && o[3] == 1, "progress order %u %u %u %u", o[0], o[1], o[2],
		  o[3]);
	/* order() is a pure query: asking again gives the same */
	uint32_t o2[HV_SLOTS];
	ka->order(st, &h.v, 0, o2);
	CHECK(memcmp(o, o2, 4 * sizeof *o) == 0);
	/* the next launch (a new instance: one per launch) starts in age mode again */
	ka->destroy(st);
	st = ka_new(ka, 1);
	if (!st)
		return;
	ka->order(st, &h.v, 0, o);
	CHECK(o[0] == 0 && o[1] == 1 && o[2] == 2 && o[3] == 3);
	ka->destroy(st);
}

/* ka_progress = 0 (the age-only ablation): the last-CTA event leaves KA and
 * KAWS in age order; the same views as above */
TEST(kaws_ka_progress_off_stays_in_age_order)
{
	for (int k = 0; k < 2; k++) {
		const struct sched_policy *p = pol(k ? "kaws" : "ka");
		CHECK(p != NULL);
		if (!p)
			return;
		struct hview h;
		hv_two_ctas(&h);
		ws_config *cfg = wsConfigCreate();
		char err[128];
		CHECK(cfg && wsConfigSet(cfg, "ka_progress", "0", err, sizeof err) == WS_SUCCESS);
		struct sched_create_args a = {.nsched = 1, .nslots = HV_SLOTS, .nctas = HV_CTAS, .self = p, .cfg = cfg};
		void *st = p->create(&a);
		CHECK(st != NULL);
		if (!st) {
			wsConfigDestroy(cfg);
			return;
		}
		uint32_t o[HV_SLOTS];
		p->on_kernel_event(st, &h.v, SCHED_KERNEL_START);
		h.v.last_cta_issued = true;
		p->on_kernel_event(st, &h.v, SCHED_KERNEL_LAST_CTA_ISSUED);
		CHECK_EQ(p->order(st, &h.v, 0, o), 4);
		CHECK_MSG(o[0] == 0 && o[1] == 1 && o[2] == 2 && o[3] == 3, "%s: order %u %u %u %u", p->name, o[0], o[1],
		          o[2], o[3]);
		p->destroy(st);
		wsConfigDestroy(cfg);
	}
}

/* opcoll_reads_per_cycle: 0 (every operand whose bank is free) and 16 (more
 * than any instruction's operands) time alike; 1 (the KAWS paper's
 * single-ported collector) holds each instruction in its collector a cycle
 * per operand, so mm runs longer with fewer register-bank conflicts (a
 * collector that reads one operand a cycle contends for fewer banks) */
TEST(kaws_opcoll_reads_per_cycle)
{
	const struct ws_bench_info *b = ws_bench_find("mm");
	CHECK(b != NULL);
	if (!b)
		return;
	static const char *const reads[] = {"0", "16", "1"};
	uint64_t cyc[3] = {0}, conf[3] = {0};
	for (int i = 0; i < 3; i++) {
		ws_config *cfg = wsConfigCreate();
		char err[128];
		CHECK(cfg && wsConfigSet(cfg, "opcoll_reads_per_cycle", reads[i], err, sizeof err) == WS_SUCCESS);
		ws_sim *sim = NULL;
		CHECK(wsSimCreate(&sim, cfg) == WS_SUCCESS);
		wsConfigDestroy(cfg);
		if (!sim)
			return;
		ws_module *mod = NULL;
		CHECK(wsModuleLoadData(sim, &mod, b->ptx, "mm.ptx") == WS_SUCCESS);
		struct ws_bench_out out;
		memset(&out, 0, sizeof out);
		CHECK_MSG(ws_bench_run(b, sim, mod, WS_SIZE_TINY, &out) == WS_SUCCESS, "reads %s: %s", reads[i], out.msg);
		wsStatsGet(sim, "cycles", &cyc[i]);
		wsStatsGet(sim, "regbank_conflicts", &conf[i]);
		wsSimDestroy(sim);
	}
	CHECK_EQ(cyc[0], cyc[1]);
	CHECK_EQ(conf[0], conf[1]);
	CHECK_MSG(cyc[2] > cyc[0], "single-ported %llu cycles, unlimited %llu", (unsigned long long)cyc[2],
	          (unsigned long long)cyc[0]);
	CHECK_MSG(conf[2] < conf[0], "single-ported %llu bank conflicts, unlimited %llu", (unsigned long long)conf[2],
	          (unsigned long long)conf[0]);
}

/* Two schedulers; CTA progress 30 / 10 / 10 / 5 (CTA 3 finished-waiting
 * warp only); oldest warp first within a CTA and between CTAs of equal
 * progress; other schedulers' and finished warps left out. */
TEST(kaws_ka_cta_progress_order)
{
	const struct sched_policy *kaws = pol("kaws");
	CHECK(kaws != NULL);
	if (!kaws)
		return;
	/* kaws presets the issue stage's warp sharing; ka does not */
	int64_t share = 0;
	CHECK(sched_choice_preset(&(struct sched_choice){kaws, NULL}, "warp_sharing", &share) && share == 1);
	CHECK(!sched_choice_preset(&(struct sched_choice){pol("ka"), NULL}, "warp_sharing", &share));
	struct hview h;
	hv_init(&h, 2);
	/* scheduler 0 owns the even slots */
	hv_warp(&h, 0, 0, 1, 0); /* CTA 0, progress 30 */
	hv_warp(&h, 2, 1, 3, 1); /* CTA 1, progress 10, younger than CTA 2 */
	hv_warp(&h, 4, 2, 2, 0); /* CTA 2, progress 10 */
	hv_warp(&h, 6, 1, 3, 0); /* CTA 1, warp 0 (older within the CTA than slot 2) */
	hv_warp(&h, 1, 0, 1, 1); /* scheduler 1 */
	hv_warp(&h, 5, 3, 4, 0); /* scheduler 1 */
	h.c[0].insts_issued = 30;
	h.c[1].insts_issued = 10;
	h.c[2].insts_issued = 10;
	h.c[3].insts_issued = 5;
	void *st = ka_new(kaws, 2);
	CHECK(st != NULL);
	if (!st)
		return;
	kaws->on_kernel_event(st, &h.v, SCHED_KERNEL_START);
	kaws->on_kernel_event(st, &h.v, SCHED_KERNEL_LAST_CTA_ISSUED);
	uint32_t o[HV_SLOTS];
	uint32_t n = kaws->order(st, &h.v, 0, o);
	CHECK_EQ(n, 4);
	/* CTA 2 (progress 10, age 2) before CTA 1 (progress 10, age 3), within CTA 1 warp 0 first, CTA 0 last */
	CHECK_MSG(n == 4 && o[0] == 4 && o[1] == 6 && o[2] == 2 && o[3] == 0, "order %u %u %u %u", o[0], o[1], o[2],
		  o[3]);
	/* a finished warp is not ordered */
	h.w[6].finished = true;
	n = kaws->order(st, &h.v, 0, o);
	CHECK(n == 3 && o[0] == 4 && o[1] == 2 && o[2] == 0);
	/* scheduler 1: CTA 3 (progress 5) first */
	n = kaws->order(st, &h.v, 1, o);
	CHECK(n == 2 && o[0] == 5 && o[1] == 1);
	kaws->destroy(st);
}

static void cf_set(uint8_t *cf, uint32_t sched, enum ws_unit u, uint8_t n) { cf[sched * UNIT_COUNT + u] = n; }

TEST(kaws_warp_sharing_decision)
{
	struct hview h;
	hv_init(&h, 2);
	hv_warp(&h, 0, 0, 5, 0); /* scheduler 0, head MEM */
	hv_warp(&h, 2, 1, 3, 0); /* scheduler 0, head MEM, older */
	hv_warp(&h, 1, 0, 5, 1); /* scheduler 1, head SP */
	h.w[0].head_unit = h.w[2].head_unit = UNIT_LDST;
	h.w[1].head_unit = UNIT_SP;
	uint8_t cf[2 * UNIT_COUNT];
	memset(cf, 1, sizeof cf);
	/* every collector free: nothing moves (each scheduler issues its own) */
	CHECK_EQ(sched_share_pick(&h.v, cf, 1), UINT32_MAX);
	CHECK_EQ(sched_share_pick(&h.v, cf, 0), UINT32_MAX);
	/* scheduler 0's MEM collector busy, scheduler 1's free: the oldest MEM warp moves to 1 */
	cf_set(cf, 0, UNIT_LDST, 0);
	CHECK_EQ(sched_share_pick(&h.v, cf, 1), 2);
	/* ... not if scheduler 1's MEM collector is busy too */
	cf_set(cf, 1, UNIT_LDST, 0);
	CHECK_EQ(sched_share_pick(&h.v, cf, 1), UINT32_MAX);
	cf_set(cf, 1, UNIT_LDST, 1);
	/* a warp that is not ready (scoreboard) or at a barrier or held does not move */
	h.w[2].ready = false;
	CHECK_EQ(sched_share_pick(&h.v, cf, 1), 0);
	h.w[0].at_barrier = true;
	CHECK_EQ(sched_share_pick(&h.v, cf, 1), UINT32_MAX);
	h.w[0].at_barrier = false;
	bool held[HV_SLOTS] = {false};
	held[0] = true;
	h.v.held = held;
	CHECK_EQ(sched_share_pick(&h.v, cf, 1), UINT32_MAX);
	h.v.held = NULL;
	/* a scheduler never takes its own warps through sharing */
	CHECK_EQ(sched_share_pick(&h.v, cf, 0), UINT32_MAX);
	/* scheduler 1's SP warp moves to 0 only when 1's SP collector is busy and 0's free */
	cf_set(cf, 1, UNIT_SP, 0);
	CHECK_EQ(sched_share_pick(&h.v, cf, 0), 1);
	cf_set(cf, 0, UNIT_SP, 0);
	CHECK_EQ(sched_share_pick(&h.v, cf, 0), UINT32_MAX);
	/* no collector table (hand-built view without one): no sharing */
	CHECK_EQ(sched_share_pick(&h.v, NULL, 0), UINT32_MAX);
}

/* ------------------------------------------------------------ through the timing model */

/* indep: per iteration 4 (add, ld.shared) pairs, each pair independent, so
 * one warp can dual-issue them.  chain: every instruction depends on the one
 * before it or goes to the same unit (SP: ALU, branch, ret; MEM: ld/st), in
 * the loop and outside it, so a warp can never dual-issue; two warps could
 * (the old second-warp rule).  No barrier: every thread writes the same
 * zeros to the shared words it reads.
 * Both write out[tid] = a checkable value. */
static const char kaws_ptx[] =
	".version 7.0\n.target sm_70\n.address_size 64\n"
	".visible .entry indep(.param .u64 out)\n{\n"
	"	.reg .pred %p<2>;\n	.reg .b32 %r<32>;\n	.reg .b64 %rd<4>;\n"
	"	.shared .align 4 .b8 sh[256];\n"
	"	mov.u32 %r1, %tid.x;\n	mov.u32 %r0, 0;\n	mov.u32 %r9, 0;\n"
	"	mov.u32 %r10, 0;\n	mov.u32 %r12, 0;\n	mov.u32 %r14, 0;\n	mov.u32 %r16, 0;\n"
	"	st.shared.u32 [%r0], %r0;\n	bar.sync 0;\n"
	"LOOP:\n"
	"	add.u32 %r10, %r10, 1;\n	ld.shared.u32 %r11, [%r0];\n"
	"	add.u32 %r12, %r12, 2;\n	ld.shared.u32 %r13, [%r0];\n"
	"	add.u32 %r14, %r14, 3;\n	ld.shared.u32 %r15, [%r0];\n"
	"	add.u32 %r16, %r16, 4;\n	ld.shared.u32 %r17, [%r0];\n"
	"	add.u32 %r9, %r9, 1;\n	setp.lt.u32 %p1, %r9, 16;\n"
	"	@%p1 bra LOOP;\n"
	"	add.u32 %r20, %r10, %r12;\n	add.u32 %r20, %r20, %r14;\n	add.u32 %r20, %r20, %r16;\n"
	"	add.u32 %r20, %r20, %r11;\n	add.u32 %r20, %r20, %r17;\n	add.u32 %r20, %r20, %r1;\n"
	"	mov.u32 %r2, %ctaid.x;\n	mov.u32 %r3, %ntid.x;\n	mad.lo.u32 %r4, %r2, %r3, %r1;\n"
	"	ld.param.u64 %rd1, [out];\n	cvta.to.global.u64 %rd1, %rd1;\n"
	"	mul.wide.u32 %rd2, %r4, 4;\n	add.u64 %rd3, %rd1, %rd2;\n	st.global.u32 [%rd3], %r20;\n"
	"	ret;\n}\n"
	".visible .entry chain(.param .u64 out)\n{\n"
	"	.reg .pred %p<2>;\n	.reg .b32 %r<32>;\n	.reg .b64 %rd<4>;\n"
	"	.shared .align 4 .b8 sh[256];\n"
	"	ld.param.u64 %rd1, [out];\n	cvta.to.global.u64 %rd1, %rd1;\n"
	"	mov.u32 %r9, 0;\n	mov.u32 %r1, %tid.x;\n	mov.u32 %r4, 0;\n"
	"	st.shared.u32 [%r4], %r4;\n	st.shared.u32 [%r4+4], %r4;\n"
	"LOOP:\n"
	"	ld.shared.u32 %r2, [%r4];\n	add.u32 %r3, %r2, %r1;\n	and.b32 %r4, %r3, 0;\n"
	"	ld.shared.u32 %r5, [%r4];\n	add.u32 %r6, %r5, %r1;\n	and.b32 %r4, %r6, 4;\n"
	"	add.u32 %r9, %r9, 1;\n	setp.lt.u32 %p1, %r9, 16;\n"
	"	@%p1 bra LOOP;\n"
	"	add.u32 %r20, %r4, %r1;\n"
	"	mov.u32 %r2, %ctaid.x;\n	mov.u32 %r3, %ntid.x;\n	mad.lo.u32 %r7, %r2, %r3, %r1;\n"
	"	mul.wide.u32 %rd2, %r7, 4;\n	add.u64 %rd3, %rd1, %rd2;\n	st.global.u32 [%rd3], %r20;\n"
	"	ld.global.u32 %r21, [%rd3];\n	add.u32 %r22, %r21, %r20;\n"
	"	ret;\n}\n";

static uint32_t expect_indep(uint32_t tid) { return 16 + 32 + 48 + 64 + tid; }
static uint32_t expect_chain(uint32_t tid) { return (tid & 4) + tid; }

struct krun {
	uint64_t warp_insts, issue_cycles, dual, shared, cycles;
	uint32_t bad;
	bool ok;
};

/* Run kernel `name` (grid x block) under policy `p` (NULL: the config's)
 * with the settings kv (NULL-terminated pairs) and check its output. */
static struct krun run_kernel(struct test_ctx *t, const char *name, unsigned grid, unsigned block,
			      const struct sched_policy *p, const char *const *kv)
{
	struct krun k = {0};
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
		return k;
	if (p)
		sim_set_sched_policy(sim, p, NULL);
	ws_module *mod = NULL;
	ws_function *fn = NULL;
	ws_deviceptr d = 0;
	size_t n = (size_t)grid * block;
	ws_result r = wsModuleLoadData(sim, &mod, kaws_ptx, "kaws.ptx");
	if (r == WS_SUCCESS)
		r = wsModuleGetFunction(&fn, mod, name);
	if (r == WS_SUCCESS)
		r = wsMemAlloc(sim, &d, n * 4);
	void *args[] = {&d};
	if (r == WS_SUCCESS)
		r = wsLaunchKernel(fn, grid, 1, 1, block, 1, 1, 0, args);
	CHECK_MSG(r == WS_SUCCESS, "%s: %s", name, wsSimLastError(sim));
	uint32_t *h = calloc(n, 4);
	if (r == WS_SUCCESS && h && wsMemcpyDtoH(sim, h, d, n * 4) == WS_SUCCESS) {
		for (size_t i = 0; i < n; i++) {
			uint32_t tid = (uint32_t)(i % block);
			k.bad += h[i] != (strcmp(name, "indep") == 0 ? expect_indep(tid) : expect_chain(tid));
		}
		k.ok = true;
	}
	CHECK_MSG(k.bad == 0, "%s: %u wrong results", name, k.bad);
	free(h);
	wsStatsGet(sim, "warp_insts", &k.warp_insts);
	wsStatsGet(sim, "issue_cycles", &k.issue_cycles);
	wsStatsGet(sim, "dual_issue_cycles", &k.dual);
	wsStatsGet(sim, "warp_sharing_issues", &k.shared);
	wsStatsGet(sim, "cycles", &k.cycles);
	wsSimDestroy(sim);
	return k;
}

/* GPGPU-Sim's dual issue: a second instruction of the SAME warp, to another
 * unit.  The old warpsim rule (a second warp) fails both halves: it never
 * dual-issues a lone warp, and it dual-issues two warps whose own
 * instructions are all dependent. */
TEST(timing_dual_issue_same_warp)
{
	static const char *const one_sched[] = {"num_sms", "1", "num_schedulers", "1", "issue_per_sched", "2", NULL};
	struct krun a = run_kernel(t, "indep", 1, 32, NULL, one_sched);
	CHECK_MSG(a.ok && a.warp_insts > a.issue_cycles, "one warp of independent pairs: %llu insts in %llu issue cycles",
		  (unsigned long long)a.warp_insts, (unsigned long long)a.issue_cycles);
	CHECK_EQ(a.warp_insts - a.issue_cycles, a.dual);
	CHECK(a.dual >= 16);
	struct krun b = run_kernel(t, "chain", 1, 64, NULL, one_sched);
	CHECK_MSG(b.ok && b.warp_insts == b.issue_cycles && b.dual == 0,
		  "two warps of dependent chains: %llu insts, %llu issue cycles, %llu dual",
		  (unsigned long long)b.warp_insts, (unsigned long long)b.issue_cycles, (unsigned long long)b.dual);
	/* single issue: never two in a cycle */
	static const char *const single[] = {"num_sms", "1", "num_schedulers", "1", "issue_per_sched", "1", NULL};
	struct krun c = run_kernel(t, "indep", 1, 32, NULL, single);
	CHECK(c.ok && c.warp_insts == c.issue_cycles && c.dual == 0);
	CHECK(c.cycles > a.cycles);
}

/* A recording policy: oldest first; on_cycle records, per cycle of SM 0,
 * the order in which the schedulers took their turns; order() checks the
 * view's head-unit / collector fields. */
#define REC_CYCLES 64
struct rec {
	uint32_t sm, nsched;
	uint64_t first_cycle;
	uint8_t turn[REC_CYCLES][8];
	uint8_t nturn[REC_CYCLES];
	uint64_t ready_seen, coll_mismatch, mem_heads;
};
static struct rec *rec_last; /* the SM-0 instance of the current test run (tests run one at a time) */

static void *rec_create(const struct sched_create_args *a)
{
	struct rec *r = calloc(1, sizeof *r);
	if (!r)
		return NULL;
	r->sm = a->sm;
	r->nsched = a->nsched;
	if (a->sm == 0 && a->self->user)
		*(struct rec **)a->self->user = r;
	return r;
}
static void rec_destroy(void *st)
{
	struct rec *r = st;
	if (rec_last == r)
		rec_last = NULL;
	free(r);
}
static uint32_t rec_order(const void *st, const struct sched_view *v, uint32_t sched_id, uint32_t *order)
{
	struct rec *r = (struct rec *)st; /* test bookkeeping only: nothing the simulation can observe */
	uint32_t n, k = 0;
	const uint32_t *s = sched_by_age(v, sched_id, &n);
	for (uint32_t i = 0; i < n; i++) {
		const struct sched_warp *w = &v->warps[s[i]];
		if (w->finished)
			continue;
		order[k++] = s[i];
		if (v->coll_free) /* every ordered warp's head unit is a unit class, and the helper reads the table */
			r->coll_mismatch +=
				w->head_unit >= UNIT_COUNT ||
				sched_head_coll_free(v, w) != (v->coll_free[w->sched_id * UNIT_COUNT + w->head_unit] > 0);
		if (w->ready && v->coll_free) {
			r->ready_seen++;
			r->mem_heads += w->head_unit == UNIT_LDST;
		}
	}
	return k;
}
static void rec_on_cycle(void *st, const struct sched_view *v, uint32_t sched_id)
{
	struct rec *r = st;
	if (r->sm != 0)
		return;
	if (!r->first_cycle)
		r->first_cycle = v->cycle;
	uint64_t c = v->cycle - r->first_cycle;
	if (c < REC_CYCLES && r->nturn[c] < 8)
		r->turn[c][r->nturn[c]++] = (uint8_t)sched_id;
}

static struct sched_policy rec_policy = {.name = "kaws-recorder",
					 .description = "test: oldest first, records scheduler turns",
					 .user = &rec_last,
					 .create = rec_create,
					 .destroy = rec_destroy,
					 .order = rec_order,
					 .on_cycle = rec_on_cycle};

/* The first scheduler of each cycle, with and without issue_rotate.  The
 * recorder is read before the sim is destroyed, via a copy kept by destroy. */
static struct rec rec_copy;
static void rec_destroy_copy(void *st)
{
	struct rec *r = st;
	if (r->sm == 0)
		rec_copy = *r;
	rec_destroy(st);
}

TEST(timing_scheduler_rotation)
{
	struct sched_policy p = rec_policy;
	p.destroy = rec_destroy_copy;
	for (int rot = 0; rot < 2; rot++) {
		const char *const kv[] = {"num_sms", "1", "num_schedulers", "4", "issue_rotate", rot ? "1" : "0", NULL};
		memset(&rec_copy, 0, sizeof rec_copy);
		struct krun k = run_kernel(t, "indep", 1, 128, &p, kv);
		CHECK(k.ok);
		uint32_t cycles_seen = 0, wrong = 0;
		for (uint32_t c = 0; c < REC_CYCLES; c++) {
			if (rec_copy.nturn[c] != 4)
				continue;
			cycles_seen++;
			uint64_t cyc = rec_copy.first_cycle + c;
			uint32_t first = rot ? (uint32_t)(cyc % 4) : 0;
			for (uint32_t i = 0; i < 4; i++)
				wrong += rec_copy.turn[c][i] != (first + i) % 4;
		}
		CHECK_MSG(cycles_seen >= 32 && wrong == 0, "issue_rotate=%d: %u cycles seen, %u turns out of order", rot,
			  cycles_seen, wrong);
	}
}

/* The sub-core TITAN X organisation (4 schedulers, dual issue, rotation,
 * sub-cores) with warp sharing, under a policy whose optional hooks are
 * all NULL and under kaws: results right, the view's collector flags
 * consistent, warps shared only when sharing is on. */
TEST(kaws_sharing_subcore_null_hooks)
{
	static const char *const titan[] = {"num_sms", "1", "num_schedulers", "4", "issue_per_sched", "2",
					    "sub_core", "1", "issue_rotate", "1", "opcoll_per_unit", "1",
					    "warp_sharing", "1", NULL};
	static const char *const titan_noshare[] = {"num_sms", "1", "num_schedulers", "4", "issue_per_sched", "2",
						    "sub_core", "1", "issue_rotate", "1", "opcoll_per_unit", "1",
						    NULL};
	struct sched_policy bare = {.name = "bare", .description = "test: only create/destroy/order",
				    .user = &rec_last, .create = rec_create, .destroy = rec_destroy_copy,
				    .order = rec_order};
	memset(&rec_copy, 0, sizeof rec_copy);
	struct krun a = run_kernel(t, "indep", 2, 256, &bare, titan);
	CHECK(a.ok && a.shared > 0);
	CHECK_MSG(rec_copy.ready_seen > 0 && rec_copy.mem_heads > 0 && rec_copy.coll_mismatch == 0,
		  "view: %llu ready warps seen, %llu MEM heads, %llu collector flags wrong",
		  (unsigned long long)rec_copy.ready_seen, (unsigned long long)rec_copy.mem_heads,
		  (unsigned long long)rec_copy.coll_mismatch);
	struct krun b = run_kernel(t, "indep", 2, 256, &bare, titan_noshare);
	CHECK(b.ok && b.shared == 0);
	CHECK(a.warp_insts == b.warp_insts);
	/* kaws turns sharing on by itself; ka does not */
	struct krun c = run_kernel(t, "chain", 2, 256, sched_policy_find("kaws"), titan_noshare);
	CHECK(c.ok && c.shared > 0);
	struct krun d = run_kernel(t, "chain", 2, 256, sched_policy_find("ka"), titan_noshare);
	CHECK(d.ok && d.shared == 0);
}

/* last_cta_cycles: the last-issued CTA's launch-to-completion time, once per launch. */
TEST(kaws_last_cta_time)
{
	static const char *const kv[] = {"num_sms", "2", NULL};
	ws_config *cfg = wsConfigCreate();
	char err[256];
	ws_sim *sim = NULL;
	int ok = cfg && wsConfigSet(cfg, "mode", "timing", err, sizeof err) == WS_SUCCESS &&
		 wsConfigSet(cfg, kv[0], kv[1], err, sizeof err) == WS_SUCCESS &&
		 wsConfigSet(cfg, "sched", "ka", err, sizeof err) == WS_SUCCESS && wsSimCreate(&sim, cfg) == WS_SUCCESS;
	wsConfigDestroy(cfg);
	CHECK(ok);
	if (!ok)
		return;
	ws_module *mod = NULL;
	ws_function *fn = NULL;
	ws_deviceptr d = 0;
	ws_result r = wsModuleLoadData(sim, &mod, kaws_ptx, "kaws.ptx");
	if (r == WS_SUCCESS)
		r = wsModuleGetFunction(&fn, mod, "chain");
	if (r == WS_SUCCESS)
		r = wsMemAlloc(sim, &d, 16 * 64 * 4);
	void *args[] = {&d};
	uint64_t last1 = 0, max1 = 0, min1 = 0, last2 = 0, cyc1 = 0;
	if (r == WS_SUCCESS)
		r = wsLaunchKernel(fn, 16, 1, 1, 64, 1, 1, 0, args);
	wsStatsGet(sim, "last_cta_cycles", &last1);
	wsStatsGet(sim, "cta_max_cycles", &max1);
	wsStatsGet(sim, "cta_min_cycles", &min1);
	wsStatsGet(sim, "cycles", &cyc1);
	if (r == WS_SUCCESS)
		r = wsLaunchKernel(fn, 16, 1, 1, 64, 1, 1, 0, args);
	wsStatsGet(sim, "last_cta_cycles", &last2);
	CHECK_MSG(r == WS_SUCCESS, "%s", wsSimLastError(sim));
	CHECK_MSG(last1 > 0 && last1 >= min1 && last1 <= max1 && last1 < cyc1, "last CTA %llu, CTAs %llu..%llu",
		  (unsigned long long)last1, (unsigned long long)min1, (unsigned long long)max1);
	CHECK_MSG(last2 > last1, "a second launch adds its last CTA's time: %llu then %llu", (unsigned long long)last1,
		  (unsigned long long)last2);
	wsSimDestroy(sim);
}

/* Every bundled benchmark verifies at tiny size on the TITAN X model
 * (sub-cores, dual issue, rotation) under kaws (KA order + warp sharing). */
TEST(kaws_every_bench_verifies_titanx)
{
	for (int i = 0; ws_bench_table[i]; i++) {
		const struct ws_bench_info *bi = ws_bench_table[i];
		ws_config *cfg = wsConfigCreate();
		char err[256];
		ws_result r = wsConfigLoadFile(cfg, "configs/titanx-pascal.cfg", err, sizeof err);
		if (r == WS_SUCCESS)
			r = wsConfigSet(cfg, "sched", "kaws", err, sizeof err);
		CHECK_MSG(r == WS_SUCCESS, "config: %s", err);
		ws_sim *sim = NULL;
		if (r == WS_SUCCESS)
			r = wsSimCreate(&sim, cfg);
		wsConfigDestroy(cfg);
		if (r != WS_SUCCESS)
			return;
		ws_module *mod = NULL;
		struct ws_bench_out out;
		memset(&out, 0, sizeof out);
		r = wsModuleLoadData(sim, &mod, bi->ptx, bi->name);
		if (r == WS_SUCCESS)
			r = ws_bench_run(bi, sim, mod, WS_SIZE_TINY, &out);
		CHECK_MSG(r == WS_SUCCESS, "titanx-pascal kaws: %s tiny: %s: %s", bi->name, wsGetErrorName(r), out.msg);
		wsSimDestroy(sim);
	}
}
