/*
 * test_bench.c -- end-to-end tests of the bundled benchmarks vecadd, sp,
 * mm, histo and hashtable: each runs its tiny size on a simulator with the
 * default configuration and must verify against its CPU reference.
 * Negative tests prove the verification can fail: a benchmark run on
 * deliberately broken PTX (vecadd computing a - b; hashtable with its lock
 * acquire removed) must report WS_ERROR_VERIFY_FAILED naming the first
 * wrong element.  bench_paper_occupancy checks that sp, mm and histo get
 * the BAWS paper's CTAs per SM on the default (GTX480) configuration.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "test.h"

/* Run benchmark `name` at `size` on a fresh default simulator, with its own
 * PTX or `ptx` if non-NULL.  Returns run()'s result (or the failing setup
 * call's); out->msg holds the detail. */
static ws_result bt_run(struct test_ctx *t, const char *name, const char *ptx, enum ws_bench_size size,
                        struct ws_bench_out *out)
{
	memset(out, 0, sizeof *out);
	const struct ws_bench_info *bi = ws_bench_find(name);
	CHECK_MSG(bi != NULL, "benchmark %s is not in ws_bench_table", name);
	if (!bi)
		return WS_ERROR_NOT_FOUND;
	ws_config *cfg = wsConfigCreate();
	CHECK(cfg != NULL);
	if (!cfg)
		return WS_ERROR_OUT_OF_MEMORY;
	ws_sim *sim = NULL;
	ws_result r = wsSimCreate(&sim, cfg);
	wsConfigDestroy(cfg);
	CHECK_MSG(r == WS_SUCCESS, "wsSimCreate: %s", wsGetErrorName(r));
	if (r != WS_SUCCESS)
		return r;
	ws_module *mod = NULL;
	r = wsModuleLoadData(sim, &mod, ptx ? ptx : bi->ptx, name);
	CHECK_MSG(r == WS_SUCCESS, "%s: wsModuleLoadData: %s: %s", name, wsGetErrorName(r), wsSimLastError(sim));
	if (r == WS_SUCCESS) {
		r = ws_bench_run(bi, sim, mod, size, out);
		wsModuleUnload(mod);
	}
	wsSimDestroy(sim);
	return r;
}

static void bt_expect_pass(struct test_ctx *t, const char *name)
{
	struct ws_bench_out out;
	ws_result r = bt_run(t, name, NULL, WS_SIZE_TINY, &out);
	CHECK_MSG(r == WS_SUCCESS, "%s tiny: %s: %s", name, wsGetErrorName(r), out.msg);
	if (r == WS_SUCCESS)
		CHECK_EQ(out.launches, 1);
}

TEST(bench_vecadd_tiny)
{
	bt_expect_pass(t, "vecadd");
}
TEST(bench_sp_tiny)
{
	bt_expect_pass(t, "sp");
}
TEST(bench_mm_tiny)
{
	bt_expect_pass(t, "mm");
}
TEST(bench_histo_tiny)
{
	bt_expect_pass(t, "histo");
}
TEST(bench_hashtable_tiny)
{
	bt_expect_pass(t, "hashtable");
}

/* Table entries: metadata filled in, PTX embedded and defining the kernel. */
TEST(bench_info_first_five)
{
	static const char *const names[] = {"vecadd", "sp", "mm", "histo", "hashtable"};
	static const unsigned warps[] = {8, 16, 8, 16, 4}; /* BAWS Table 2 for sp, mm, histo */
	for (int i = 0; i < 5; i++) {
		const struct ws_bench_info *bi = ws_bench_find(names[i]);
		CHECK_MSG(bi != NULL, "%s missing from ws_bench_table", names[i]);
		if (!bi)
			continue;
		CHECK(strcmp(bi->name, names[i]) == 0);
		CHECK(bi->description && *bi->description && bi->sync && *bi->sync && bi->paper && *bi->paper);
		CHECK_EQ(bi->warps_per_cta, warps[i]);
		for (int s = 0; s <= WS_SIZE_PAPER; s++)
			CHECK(bi->sizes[s] && *bi->sizes[s]);
		char entry[64];
		snprintf(entry, sizeof entry, ".entry %s(", names[i]);
		CHECK_STR_CONTAINS(bi->ptx, entry);
		CHECK(bi->run != NULL);
	}
	CHECK_EQ(ws_bench_find("sp")->ctas_per_sm, 3);
	CHECK_EQ(ws_bench_find("mm")->ctas_per_sm, 6);
	CHECK_EQ(ws_bench_find("histo")->ctas_per_sm, 3);
}

/* Registers per thread the simulator estimates for kernel `name`, read from
 * wsModulePrintSummary's "(~N 32-bit)"; 0 if not found. */
static unsigned bt_regs_per_thread(ws_module *mod, const char *name)
{
	char *text = NULL, pat[64];
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	if (!f)
		return 0;
	wsModulePrintSummary(mod, f);
	fclose(f);
	unsigned regs = 0;
	snprintf(pat, sizeof pat, ".entry %s", name);
	const char *p = text ? strstr(text, pat) : NULL;
	if (p && (p = strstr(p, "(~")) != NULL)
		regs = (unsigned)strtoul(p + 2, NULL, 10);
	free(text);
	return regs;
}

static unsigned bt_cfg(const ws_config *cfg, const char *key)
{
	char buf[64];
	const char *v = wsConfigGet(cfg, key, buf, sizeof buf);
	return v ? (unsigned)strtoul(v, NULL, 10) : 0;
}

/* sp, mm and histo get the BAWS paper's CTAs per SM (Table 2) on the default
 * (GTX480) configuration: threads, warps and the register estimate of the
 * committed PTX all allow exactly ctas_per_sm CTAs (shared memory, 2-4 KB
 * per CTA, is far from limiting). */
TEST(bench_paper_occupancy)
{
	static const char *const names[] = {"sp", "mm", "histo"};
	ws_config *cfg = wsConfigCreate();
	ws_sim *sim = NULL;
	CHECK(cfg && wsSimCreate(&sim, cfg) == WS_SUCCESS);
	if (!sim) {
		wsConfigDestroy(cfg);
		return;
	}
	unsigned ws = bt_cfg(cfg, "warp_size"), max_ctas = bt_cfg(cfg, "max_ctas_per_sm");
	unsigned max_threads = bt_cfg(cfg, "max_threads_per_sm"), max_warps = bt_cfg(cfg, "max_warps_per_sm");
	unsigned regs_sm = bt_cfg(cfg, "regs_per_sm");
	CHECK(ws == 32 && max_ctas && max_threads && max_warps && regs_sm);
	for (int i = 0; i < 3 && ws; i++) {
		const struct ws_bench_info *bi = ws_bench_find(names[i]);
		ws_module *mod = NULL;
		if (!bi || wsModuleLoadData(sim, &mod, bi->ptx, names[i]) != WS_SUCCESS) {
			CHECK_MSG(0, "%s: cannot load its PTX", names[i]);
			continue;
		}
		unsigned warps = bi->warps_per_cta, threads = warps * ws, regs = bt_regs_per_thread(mod, names[i]);
		CHECK_MSG(regs > 0, "%s: no register estimate in the module summary", names[i]);
		unsigned n = max_ctas;
		if (max_threads / threads < n)
			n = max_threads / threads;
		if (max_warps / warps < n)
			n = max_warps / warps;
		if (regs && regs_sm / (regs * threads) < n)
			n = regs_sm / (regs * threads);
		CHECK_MSG(n == bi->ctas_per_sm, "%s: %u CTAs/SM fit (%u threads, ~%u registers/thread), paper has %u",
		          names[i], n, threads, regs, bi->ctas_per_sm);
		wsModuleUnload(mod);
	}
	wsSimDestroy(sim);
	wsConfigDestroy(cfg);
}

/* paper-kaws: the KAWS paper's input where a benchmark has one of its own, its paper input elsewhere. */
TEST(bench_paper_kaws_size)
{
	CHECK_EQ(ws_bench_size_parse("paper-kaws"), WS_SIZE_PAPER_KAWS);
	CHECK(strcmp(ws_bench_size_name(WS_SIZE_PAPER_KAWS), "paper-kaws") == 0);
	static const char *const own[] = {"hotspot", "pathfinder", "streamcluster", "3mm"};
	for (int i = 0; i < 4; i++) {
		const struct ws_bench_info *b = ws_bench_find(own[i]);
		CHECK_MSG(b && b->sizes[WS_SIZE_PAPER_KAWS], "%s: no paper-kaws input", own[i]);
		if (b)
			CHECK_EQ(ws_bench_size_resolve(b, WS_SIZE_PAPER_KAWS), WS_SIZE_PAPER_KAWS);
	}
	for (int i = 0; ws_bench_suite_kaws[i]; i++) { /* every KAWS benchmark runs some input there */
		const struct ws_bench_info *b = ws_bench_find(ws_bench_suite_kaws[i]);
		CHECK(b != NULL);
		if (b)
			CHECK(b->sizes[ws_bench_size_resolve(b, WS_SIZE_PAPER_KAWS)] != NULL);
	}
	const struct ws_bench_info *v = ws_bench_find("vecadd"); /* no KAWS input: its paper input */
	CHECK(v && !v->sizes[WS_SIZE_PAPER_KAWS]);
	if (v) {
		CHECK_EQ(ws_bench_size_resolve(v, WS_SIZE_PAPER_KAWS), WS_SIZE_PAPER);
		CHECK_EQ(ws_bench_size_resolve(v, WS_SIZE_SMALL), WS_SIZE_SMALL);
	}
}

/* run() rejects an out-of-range size without touching the simulator. */
TEST(bench_bad_size)
{
	struct ws_bench_out out;
	ws_result r = bt_run(t, "vecadd", NULL, WS_SIZE_COUNT, &out);
	CHECK_EQ(r, WS_ERROR_INVALID_VALUE);
	CHECK_STR_CONTAINS(out.msg, "size");
}

/* The verification helpers themselves. */
TEST(bench_close_and_mismatch)
{
	CHECK(bench_close(1.0, 1.0, 0, 0));
	CHECK(bench_close(100.0, 100.0001, 1e-5, 0));
	CHECK(!bench_close(100.0, 100.01, 1e-5, 0));
	CHECK(bench_close(0.0, 1e-7, 1e-5, 1e-6));
	CHECK(!bench_close(0.0, 1e-5, 1e-5, 1e-6));
	CHECK(!bench_close(1.0, strtod("nan", NULL), 1, 1));
	CHECK(bench_close(strtod("nan", NULL), strtod("nan", NULL), 0, 0));
	struct ws_bench_out out = {{0}, 0};
	CHECK_EQ(bench_mismatch(&out, "x[%d]: expected %d, got %d", 3, 4, 5), WS_ERROR_VERIFY_FAILED);
	CHECK(strcmp(out.msg, "x[3]: expected 4, got 5") == 0);
}

/* Copy of `ptx` with the first instruction whose mnemonic is `mnemonic`
 * (e.g. "add.f32") rewritten as "new_mnemonic operands;" -- or, if `tail` is
 * non-NULL, "new_mnemonic first-operand, tail;".  NULL if not found. */
static char *bt_patch_insn(const char *ptx, const char *mnemonic, const char *new_mnemonic, const char *tail)
{
	const char *hit = strstr(ptx, mnemonic);
	if (!hit)
		return NULL;
	const char *ops = hit + strlen(mnemonic), *semi = strchr(ops, ';');
	if (!semi)
		return NULL;
	while (*ops == ' ' || *ops == '\t')
		ops++;
	size_t nops = (size_t)(semi - ops), nfirst = strcspn(ops, ",;");
	size_t len = (size_t)(hit - ptx) + strlen(new_mnemonic) + nops + (tail ? strlen(tail) : 0) + strlen(semi) + 8;
	char *out = malloc(len);
	if (!out)
		return NULL;
	if (tail)
		snprintf(out, len, "%.*s%s %.*s, %s%s", (int)(hit - ptx), ptx, new_mnemonic, (int)nfirst, ops, tail,
		         semi);
	else
		snprintf(out, len, "%.*s%s %.*s%s", (int)(hit - ptx), ptx, new_mnemonic, (int)nops, ops, semi);
	return out;
}

/* vecadd computing c = a - b must fail verification at element 0. */
TEST(bench_verify_catches_wrong_result)
{
	const struct ws_bench_info *bi = ws_bench_find("vecadd");
	CHECK(bi != NULL);
	if (!bi)
		return;
	char *bad = bt_patch_insn(bi->ptx, "add.f32", "sub.f32", NULL);
	CHECK_MSG(bad != NULL, "vecadd PTX has no add.f32 (regenerated? update this test)");
	if (!bad)
		return;
	struct ws_bench_out out;
	ws_result r = bt_run(t, "vecadd", bad, WS_SIZE_TINY, &out);
	free(bad);
	CHECK_MSG(r == WS_ERROR_VERIFY_FAILED, "expected WS_ERROR_VERIFY_FAILED, got %s: %s", wsGetErrorName(r),
	          out.msg);
	CHECK_STR_CONTAINS(out.msg, "c[0]");
	CHECK_STR_CONTAINS(out.msg, "expected");
	CHECK_STR_CONTAINS(out.msg, "got");
}

/* hashtable with the lock acquire replaced by "acquired" (old value 0):
 * lanes of a warp that hash to the same bucket race on the list head, so
 * nodes and counts are lost and the chain walk must notice. */
TEST(bench_hashtable_without_lock_fails)
{
	const struct ws_bench_info *bi = ws_bench_find("hashtable");
	CHECK(bi != NULL);
	if (!bi)
		return;
	char *bad = bt_patch_insn(bi->ptx, "atom.global.cas.b32", "mov.u32", "0");
	CHECK_MSG(bad != NULL, "hashtable PTX has no atom.global.cas.b32 (regenerated? update this test)");
	if (!bad)
		return;
	struct ws_bench_out out;
	ws_result r = bt_run(t, "hashtable", bad, WS_SIZE_TINY, &out);
	free(bad);
	CHECK_MSG(r == WS_ERROR_VERIFY_FAILED, "expected WS_ERROR_VERIFY_FAILED, got %s: %s", wsGetErrorName(r),
	          out.msg);
	CHECK_STR_CONTAINS(out.msg, "hashtable: bucket");
	CHECK_STR_CONTAINS(out.msg, "expected");
}

/* The BOWS suite's lock checks can fail too: ht and atm with their (first)
 * lock acquire replaced by "acquired" lose updates, and the checks say where. */
static void bt_expect_lockless_fails(struct test_ctx *t, const char *name, const char *want)
{
	const struct ws_bench_info *bi = ws_bench_find(name);
	CHECK(bi != NULL);
	if (!bi)
		return;
	char *bad = bt_patch_insn(bi->ptx, "atom.global.cas.b32", "mov.u32", "0");
	CHECK_MSG(bad != NULL, "%s PTX has no atom.global.cas.b32 (regenerated? update this test)", name);
	if (!bad)
		return;
	struct ws_bench_out out;
	ws_result r = bt_run(t, name, bad, WS_SIZE_TINY, &out);
	free(bad);
	CHECK_MSG(r == WS_ERROR_VERIFY_FAILED, "%s without its lock: expected WS_ERROR_VERIFY_FAILED, got %s: %s", name,
	          wsGetErrorName(r), out.msg);
	CHECK_STR_CONTAINS(out.msg, want);
	CHECK_STR_CONTAINS(out.msg, "expected");
}

TEST(bench_bows_without_lock_fails)
{
	bt_expect_lockless_fails(t, "ht", "ht: ");
	bt_expect_lockless_fails(t, "atm", "atm: account");
}

/* The bundled GPU configurations (the .cfg files in configs/): each loads, and every
 * benchmark verifies under it at tiny size; the Tesla-like machine also at
 * the DWR paper's fixed warp sizes 8, 16 and 64 (8-wide SIMD). */
static void bt_config_suite(struct test_ctx *t, const char *file, const char *warp_size, unsigned want_sms)
{
	for (int i = 0; ws_bench_table[i]; i++) {
		const struct ws_bench_info *bi = ws_bench_table[i];
		ws_config *cfg = wsConfigCreate();
		char err[256];
		ws_result r = wsConfigLoadFile(cfg, file, err, sizeof err);
		CHECK_MSG(r == WS_SUCCESS, "%s: %s", file, err);
		if (r == WS_SUCCESS && warp_size)
			r = wsConfigSet(cfg, "warp_size", warp_size, err, sizeof err);
		ws_sim *sim = NULL;
		if (r == WS_SUCCESS)
			r = wsSimCreate(&sim, cfg);
		wsConfigDestroy(cfg);
		CHECK_MSG(r == WS_SUCCESS, "%s: %s", file, wsGetErrorName(r));
		if (r != WS_SUCCESS)
			return;
		if (i == 0)
			CHECK_EQ(bt_cfg(wsSimConfig(sim), "num_sms"), want_sms);
		ws_module *mod = NULL;
		struct ws_bench_out out;
		memset(&out, 0, sizeof out);
		r = wsModuleLoadData(sim, &mod, bi->ptx, bi->name);
		if (r == WS_SUCCESS)
			r = ws_bench_run(bi, sim, mod, WS_SIZE_TINY, &out);
		unsigned ws = warp_size ? (unsigned)atoi(warp_size) : 32;
		if (ws < bi->min_warp_size) /* warp-synchronous code: refused with a clear error */
			CHECK_MSG(r == WS_ERROR_INVALID_VALUE && strstr(out.msg, "warp-synchronous"),
				  "%s, warp_size=%u: %s should refuse to run: %s: %s", file, ws, bi->name,
				  wsGetErrorName(r), out.msg);
		else
			CHECK_MSG(r == WS_SUCCESS, "%s%s%s: %s tiny: %s: %s", file, warp_size ? ", warp_size=" : "",
				  warp_size ? warp_size : "", bi->name, wsGetErrorName(r), out.msg);
		wsSimDestroy(sim);
	}
}

TEST(bench_configs_gtx480_titanx_tesla)
{
	bt_config_suite(t, "configs/gtx480.cfg", NULL, 15);
	bt_config_suite(t, "configs/titanx-pascal.cfg", NULL, 28);
	bt_config_suite(t, "configs/tesla-dwr.cfg", NULL, 16);
	bt_config_suite(t, "configs/tesla-dwr.cfg", "8", 16);
	bt_config_suite(t, "configs/tesla-dwr.cfg", "16", 16);
	bt_config_suite(t, "configs/tesla-dwr.cfg", "64", 16);
}

/* The BOWS paper's Pascal GPU: every benchmark verifies on it too. */
TEST(bench_config_gtx1080ti)
{
	bt_config_suite(t, "configs/gtx1080ti.cfg", NULL, 28);
}
