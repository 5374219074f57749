/*
 * test_sib.c -- the BOWS suite and its spin-detection ground truth.
 *
 * Every benchmark's SIB notes (bench.h, struct ws_sib_note) must name a
 * backward `bra` of its function in the committed kernel.ptx, so the table
 * cannot silently rot when `make ptx` regenerates the PTX; every benchmark
 * of the "bows" suite exists and has at least one SIB; ws_bench_sib_pcs
 * rejects notes that are not backward branches; the ht benchmark's bucket
 * count follows the ht_buckets parameter.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "gpu/sim.h"
#include "test.h"

static ws_sim *sib_sim(struct test_ctx *t)
{
	ws_config *cfg = wsConfigCreate();
	char err[128];
	wsConfigSet(cfg, "mode", "functional", err, sizeof err);
	ws_sim *sim = NULL;
	CHECK(wsSimCreate(&sim, cfg) == WS_SUCCESS);
	wsConfigDestroy(cfg);
	return sim;
}

TEST(sib_notes_are_backward_branches)
{
	ws_sim *sim = sib_sim(t);
	if (!sim)
		return;
	int total = 0;
	for (int i = 0; ws_bench_table[i]; i++) {
		const struct ws_bench_info *b = ws_bench_table[i];
		ws_module *mod = NULL;
		ws_result r = wsModuleLoadData(sim, &mod, b->ptx, b->name);
		CHECK_MSG(r == WS_SUCCESS, "%s: %s", b->name, wsSimLastError(sim));
		if (r != WS_SUCCESS)
			continue;
		struct ws_sib_pc pcs[16];
		char err[256];
		int n = ws_bench_sib_pcs(b, mod, pcs, 16, err, sizeof err);
		CHECK_MSG(n >= 0, "%s: %s", b->name, err);
		CHECK_MSG(n <= 16, "%s: more than 16 SIBs", b->name);
		for (int k = 0; k < n && k < 16; k++) {
			/* independently of ws_bench_sib_pcs: the pc is a bra on the noted line, jumping back */
			const struct ptx_function *fn = &mod->ir->funcs[pcs[k].fn];
			const struct ptx_insn *in = &fn->insns[pcs[k].pc];
			CHECK_MSG(strcmp(fn->name, b->sibs[k].func) == 0, "%s: SIB %d in %s, noted in %s", b->name, k,
			          fn->name, b->sibs[k].func);
			CHECK_EQ(in->line, b->sibs[k].line);
			CHECK_EQ(in->op, OP_BRA);
			int32_t target = -1;
			for (unsigned o = 0; o < in->nopd; o++)
				if (in->opd[o].kind == OPD_LABEL)
					target = in->opd[o].target;
			CHECK_MSG(target >= 0 && target <= pcs[k].pc, "%s:%u: target %d, pc %d", b->name, in->line,
			          target, pcs[k].pc);
			CHECK_MSG(b->sibs[k].loop && *b->sibs[k].loop, "%s:%u: the note says which loop", b->name,
			          in->line);
		}
		total += n;
		wsModuleUnload(mod);
	}
	CHECK(total >= 12);
	wsSimDestroy(sim);
}

TEST(sib_bows_suite_complete)
{
	const char *const *su = ws_bench_suite("bows");
	CHECK(su != NULL);
	if (!su)
		return;
	int n = 0;
	for (; su[n]; n++) {
		const struct ws_bench_info *b = ws_bench_find(su[n]);
		CHECK_MSG(b != NULL, "bows suite names '%s', which is not built", su[n]);
		if (!b)
			continue;
		CHECK_MSG(b->sibs && b->sibs[0].func, "%s: a busy-wait benchmark without spin-inducing branches",
		          b->name);
		CHECK_MSG(b->paper && strstr(b->paper, "BOWS"), "%s: paper '%s'", b->name, b->paper ? b->paper : "");
		CHECK_MSG(b->sizes[WS_SIZE_PAPER] && b->sizes[WS_SIZE_SMALL] && b->sizes[WS_SIZE_TINY], "%s: sizes",
		          b->name);
	}
	CHECK_EQ(n, 8);
	int named = 0;
	for (int k = 0; ws_bench_suite_names[k]; k++)
		named += strcmp(ws_bench_suite_names[k], "bows") == 0;
	CHECK_EQ(named, 1);
}

/* Notes that do not name a backward bra are rejected with a located message. */
static void sib_expect_reject(struct test_ctx *t, ws_sim *sim, const struct ws_sib_note *notes, const char *want)
{
	const struct ws_bench_info *ht = ws_bench_find("ht");
	CHECK(ht != NULL);
	if (!ht)
		return;
	struct ws_bench_info fake = *ht;
	fake.sibs = notes;
	ws_module *mod = NULL;
	CHECK(wsModuleLoadData(sim, &mod, fake.ptx, "ht") == WS_SUCCESS);
	if (!mod)
		return;
	struct ws_sib_pc pcs[4];
	char err[256];
	int n = ws_bench_sib_pcs(&fake, mod, pcs, 4, err, sizeof err);
	CHECK_MSG(n == -1, "expected a rejection (%s), got %d", want, n);
	CHECK_STR_CONTAINS(err, "ht/kernel.ptx:");
	CHECK_STR_CONTAINS(err, want);
	wsModuleUnload(mod);
}

/* the line of the first instruction in `ptx` whose text starts with `prefix` (after the tab) */
static unsigned sib_line_of(const char *ptx, const char *prefix)
{
	unsigned line = 1;
	for (const char *p = ptx; *p; p++) {
		if (p == ptx || p[-1] == '\n') {
			const char *q = p;
			while (*q == '\t' || *q == ' ')
				q++;
			if (strncmp(q, prefix, strlen(prefix)) == 0)
				return line;
		}
		if (*p == '\n')
			line++;
	}
	return 0;
}

TEST(sib_lookup_rejects_bad_notes)
{
	ws_sim *sim = sib_sim(t);
	if (!sim)
		return;
	const struct ws_bench_info *ht = ws_bench_find("ht");
	CHECK(ht != NULL);
	if (!ht) {
		wsSimDestroy(sim);
		return;
	}
	unsigned cas = sib_line_of(ht->ptx, "atom.global.cas"), fwd = sib_line_of(ht->ptx, "@%p2 bra");
	CHECK(cas > 0 && fwd > 0);
	const struct ws_sib_note not_branch[] = {{"ht", cas, "the CAS"}, {NULL, 0, NULL}};
	sib_expect_reject(t, sim, not_branch, "expected a bra");
	const struct ws_sib_note forward[] = {{"ht", fwd, "the bounds check"}, {NULL, 0, NULL}};
	sib_expect_reject(t, sim, forward, "goes forward");
	const struct ws_sib_note no_func[] = {{"nope", ht->sibs[0].line, "?"}, {NULL, 0, NULL}};
	sib_expect_reject(t, sim, no_func, "function 'nope'");
	const struct ws_sib_note twice[] = {ht->sibs[0], ht->sibs[0], {NULL, 0, NULL}};
	sib_expect_reject(t, sim, twice, "noted twice");
	wsSimDestroy(sim);
}

/* ht_buckets sets the hash table's bucket count (the BOWS Fig. 16 contention knob). */
TEST(sib_ht_buckets_parameter)
{
	const struct ws_bench_info *ht = ws_bench_find("ht");
	CHECK(ht != NULL);
	if (!ht)
		return;
	const char *vals[] = {"1", "8", "0"};
	const char *want[] = {"into 1 buckets", "into 8 buckets", "into 64 buckets"};
	for (int k = 0; k < 3; k++) {
		ws_config *cfg = wsConfigCreate();
		char err[128];
		CHECK(wsConfigSet(cfg, "ht_buckets", vals[k], err, sizeof err) == WS_SUCCESS);
		ws_sim *sim = NULL;
		CHECK(wsSimCreate(&sim, cfg) == WS_SUCCESS);
		wsConfigDestroy(cfg);
		if (!sim)
			return;
		ws_module *mod = NULL;
		CHECK(wsModuleLoadData(sim, &mod, ht->ptx, "ht") == WS_SUCCESS);
		struct ws_bench_out out;
		memset(&out, 0, sizeof out);
		ws_result r = ws_bench_run(ht, sim, mod, WS_SIZE_TINY, &out);
		CHECK_MSG(r == WS_SUCCESS, "ht_buckets=%s: %s", vals[k], out.msg);
		CHECK_STR_CONTAINS(out.msg, want[k]);
		wsSimDestroy(sim);
	}
}
