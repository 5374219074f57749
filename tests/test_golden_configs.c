/*
 * test_golden_configs.c -- golden statistics for the machine configurations
 * that tests/golden/tiny.txt (GTX480 only) does not pin:
 *
 *   tests/golden/titanx_tiny.txt  the KAWS suite at tiny size on the Pascal
 *       TITAN X model (configs/titanx-pascal.cfg: sub-cores, rotating issue
 *       priority, dual issue) under lrr, gto, ka, kaws and lrr/gto with warp
 *       sharing, with the KAWS counters (dual issue, warp sharing, last CTA);
 *   tests/golden/dwr_tiny.txt  the DWR suite at tiny size on the Tesla-like
 *       machine (configs/tesla-dwr.cfg, issue_simd_passes=1 and lrr as in
 *       experiments/dwr-fig4.spec) at fixed warp sizes 8 and 32 and under
 *       DWR-16, DWR-32 and DWR-64 (8-thread sub-warps), with the DWR counters;
 *   tests/golden/frontend_tiny.txt  the barrier suite at tiny size on the
 *       GTX480 with the front end off its defaults (decode latency, fetch
 *       with room in the I-buffer, the three fetch policies), the paths of
 *       the issue and fetch stages' incremental state the defaults never take;
 *   tests/golden/baws_tiny.txt  the barrier suite at tiny size on the GTX480
 *       (default front end) under the BAWS paper's policies with fetch rr,
 *       cff and fef; baws_small.txt  gto and saws at small size, where SAWS
 *       differs from GTO (at tiny size every SM runs one CTA);
 *   tests/golden/titanx_2sm_tiny.txt  the KAWS suite on the TITAN X cut to 2
 *       SMs, where KA's CTA-progress order acts;
 *   tests/golden/gtx1080ti_tiny.txt  the BOWS suite on the GTX1080Ti under
 *       lrr, gto, gto-rotate, cawa, BOWS over each and DDOS alone, with the
 *       BOWS and DDOS counters.
 *
 * One line per benchmark x configuration: the counters of tiny.txt
 * (bench/golden_keys.def) plus the feature's own.  A mismatch names the first differing lines; `make golden`
 * (WARPSIM_GOLDEN_WRITE=1, tests named golden_*) rewrites the files.  test_golden_pins.c checks that these
 * rows tell every policy from its base.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "golden.h"
#include "golden_check.h"
#include "test.h"
#include "warpsim.h"

/* One configuration of a golden file: a label for the line, key=value
 * settings applied after the configuration file (NULL-terminated pairs),
 * and counters of its own written after the set's (NULL-terminated, or NULL:
 * e.g. a wrapper's, which runs without it do not have). */
struct golden_variant {
	const char *label;
	const char *const *kv;
	const char *const *keys;
};

struct golden_set {
	const char *file;   /* tests/golden/... */
	const char *header; /* comment lines at the top of the file */
	const char *config; /* configuration file loaded first */
	const char *const *benches;
	const struct golden_variant *variants;
	const char *const *keys; /* counters after the golden ones (bench/golden_keys.def) */
	enum ws_bench_size size; /* input size of every run (0: tiny) */
};

/* Run one benchmark at the set's size under one variant and append its line. */
static int golden_line(FILE *out, const struct golden_set *gs, const char *bench, const struct golden_variant *v)
{
	const struct ws_bench_info *bi = ws_bench_find(bench);
	if (!bi) {
		fprintf(out, "%s %s ERROR no such benchmark\n", bench, v->label);
		return 1;
	}
	char err[256] = "";
	ws_config *cfg = wsConfigCreate();
	ws_result r = cfg ? wsConfigLoadFile(cfg, gs->config, err, sizeof err) : WS_ERROR_INVALID_CONFIG;
	for (unsigned i = 0; r == WS_SUCCESS && v->kv[i]; i += 2)
		r = wsConfigSet(cfg, v->kv[i], v->kv[i + 1], err, sizeof err);
	ws_sim *sim = NULL;
	ws_module *mod = NULL;
	struct ws_bench_out bo;
	memset(&bo, 0, sizeof bo);
	if (r == WS_SUCCESS)
		r = wsSimCreate(&sim, cfg);
	wsConfigDestroy(cfg);
	if (r == WS_SUCCESS)
		r = wsModuleLoadData(sim, &mod, bi->ptx, bi->name);
	if (r == WS_SUCCESS)
		r = ws_bench_run(bi, sim, mod, gs->size, &bo);
	if (r != WS_SUCCESS) {
		fprintf(out, "%s %s ERROR %s: %s%s%s\n", bench, v->label, wsGetErrorName(r), err, bo.msg,
			sim ? wsSimLastError(sim) : "");
		wsSimDestroy(sim);
		return 1;
	}
	const char *keys[64];
	unsigned nk = 0;
	for (unsigned pass = 0; pass < 2; pass++)
		for (const char *const *k = pass ? v->keys : gs->keys; k && *k && nk + 1 < 64; k++)
			keys[nk++] = *k;
	keys[nk] = NULL;
	fprintf(out, "%s %s", bench, v->label);
	ws_golden_write_counters(out, sim, keys);
	fputc('\n', out);
	wsSimDestroy(sim);
	return 0;
}


/* Generate every line of the set, then write the file (WARPSIM_GOLDEN_WRITE=1)
 * or compare it line by line, naming the first differing runs. */
static void golden_set_check(struct test_ctx *t, const struct golden_set *gs)
{
	char *got = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&got, &len);
	CHECK(m != NULL);
	if (!m)
		return;
	fputs(gs->header, m);
	int failed = 0;
	for (int v = 0; gs->variants[v].label; v++)
		for (int b = 0; gs->benches[b]; b++)
			failed += golden_line(m, gs, gs->benches[b], &gs->variants[v]);
	fclose(m);
	CHECK_MSG(failed == 0, "%d runs failed:\n%s", failed, got);
	golden_check(t, gs->file, got);
}

/* TITAN X (Pascal): the KAWS paper's machine and policies (experiments/kaws-fig5.spec). */
static const char *const titanx_lrr[] = {"sched", "lrr", NULL};
static const char *const titanx_gto[] = {"sched", "gto", NULL};
static const char *const titanx_ka[] = {"sched", "ka", NULL};
static const char *const titanx_kaws[] = {"sched", "kaws", NULL};
static const char *const titanx_lrr_ws[] = {"sched", "lrr", "warp_sharing", "1", NULL};
static const char *const titanx_gto_ws[] = {"sched", "gto", "warp_sharing", "1", NULL};
static const struct golden_variant titanx_variants[] = {
	{"lrr", titanx_lrr, NULL},       {"gto", titanx_gto, NULL},       {"ka", titanx_ka, NULL},
	{"kaws", titanx_kaws, NULL},     {"lrr+ws", titanx_lrr_ws, NULL}, {"gto+ws", titanx_gto_ws, NULL},
	{NULL, NULL, NULL},
};
static const char *const titanx_keys[] = {"dual_issue_cycles", "warp_sharing_issues", "last_cta_cycles", "kernels",
					  "ctas", NULL};

TEST(golden_titanx_tiny_stats)
{
	const struct golden_set gs = {
		.file = TEST_DATA_DIR "/golden/titanx_tiny.txt",
		.header = "# golden statistics: KAWS suite, tiny size, configs/titanx-pascal.cfg (sub-cores, rotating issue,\n"
			  "# dual issue), one line per benchmark x policy (+ws: warp_sharing=1); tests/test_golden_configs.c\n"
			  "# regenerate deliberately with `make golden`; a commit that changes this file says why\n",
		.config = "configs/titanx-pascal.cfg",
		.benches = ws_bench_suite_kaws,
		.variants = titanx_variants,
		.keys = titanx_keys,
	};
	golden_set_check(t, &gs);
}

/* Tesla-like DWR machine: fixed warp sizes 8 and 32, and DWR-16/32/64 over
 * 8-thread sub-warps, as in experiments/dwr-fig4.spec (lrr, one SIMD pass
 * issued per cycle). */
static const char *const dwr_fixed8[] = {"issue_simd_passes", "1", "warp_size", "8", NULL};
static const char *const dwr_fixed32[] = {"issue_simd_passes", "1", "warp_size", "32", NULL};
static const char *const dwr_16[] = {"issue_simd_passes", "1", "warp_size", "8", "dwr_max_warp", "16", NULL};
static const char *const dwr_32[] = {"issue_simd_passes", "1", "warp_size", "8", "dwr_max_warp", "32", NULL};
static const char *const dwr_64[] = {"issue_simd_passes", "1", "warp_size", "8", "dwr_max_warp", "64", NULL};
static const struct golden_variant dwr_variants[] = {
	{"fixed8", dwr_fixed8, NULL}, {"fixed32", dwr_fixed32, NULL}, {"dwr16", dwr_16, NULL},
	{"dwr32", dwr_32, NULL},      {"dwr64", dwr_64, NULL},        {NULL, NULL, NULL},
};
static const char *const dwr_keys[] = {
	"offchip_requests", "dwr_lat_synced", "dwr_lat_ignored", "dwr_ilt_inserts", "dwr_ilt_evictions",
	"dwr_sync_wait_cycles", "dwr_releases", "dwr_release_mixed_pc", "dwr_release_bar", "dwr_release_exit",
	"dwr_release_timeout", "dwr_lat_issues", "dwr_issue_sub1", "dwr_issue_sub2", "dwr_issue_sub3",
	"dwr_issue_sub4", "dwr_issue_sub5", "dwr_issue_sub6", "dwr_issue_sub7", "dwr_issue_sub8",
	NULL,
};

TEST(golden_dwr_tiny_stats)
{
	const struct golden_set gs = {
		.file = TEST_DATA_DIR "/golden/dwr_tiny.txt",
		.header = "# golden statistics: DWR suite, tiny size, configs/tesla-dwr.cfg with issue_simd_passes=1 (lrr),\n"
			  "# fixed warp sizes 8 and 32 and DWR-16/32/64 (warp_size=8, dwr_max_warp=N); tests/test_golden_configs.c\n"
			  "# regenerate deliberately with `make golden`; a commit that changes this file says why\n",
		.config = "configs/tesla-dwr.cfg",
		.benches = ws_bench_suite_dwr,
		.variants = dwr_variants,
		.keys = dwr_keys,
	};
	golden_set_check(t, &gs);
}

/* The front end off its defaults (GTX480 otherwise): a decode latency of 3
 * cycles, fetching while the I-buffer has room (4 entries, 4 instructions
 * per fetch) instead of only when it is empty, under gto and lrr with the
 * rr, cff and fef fetch policies -- the paths of the issue and fetch
 * stages' incremental state (decode-latency expiry, fetch candidates) that
 * the default configurations never take. */
static const char *const fe_gto_rr[] = {"sched", "gto", "fetch", "rr", "fetch_latency", "3",
					"fetch_on_empty", "false", "ibuf_depth", "4", "fetch_width", "4", NULL};
static const char *const fe_lrr_cff[] = {"sched", "lrr", "fetch", "cff", "fetch_latency", "3",
					 "fetch_on_empty", "false", "ibuf_depth", "4", "fetch_width", "4", NULL};
static const char *const fe_gto_fef[] = {"sched", "gto", "fetch", "fef", "fetch_latency", "2", NULL};
static const struct golden_variant fe_variants[] = {
	{"gto/rr/lat3/room4", fe_gto_rr, NULL},
	{"lrr/cff/lat3/room4", fe_lrr_cff, NULL},
	{"gto/fef/lat2", fe_gto_fef, NULL},
	{NULL, NULL, NULL},
};
static const char *const fe_keys[] = {"fetches", "ibuf_flushes", "ibuf_wait_cycles", "fetch_next_issue", NULL};

TEST(golden_frontend_tiny_stats)
{
	const struct golden_set gs = {
		.file = TEST_DATA_DIR "/golden/frontend_tiny.txt",
		.header = "# golden statistics: barrier suite, tiny size, configs/gtx480.cfg with the front end off its defaults\n"
			  "# (fetch_latency 2-3, fetch_on_empty=false with ibuf_depth=4 fetch_width=4; fetch rr/cff/fef); tests/test_golden_configs.c\n"
			  "# regenerate deliberately with `make golden`; a commit that changes this file says why\n",
		.config = "configs/gtx480.cfg",
		.benches = ws_bench_suite_barrier,
		.variants = fe_variants,
		.keys = fe_keys,
	};
	golden_set_check(t, &gs);
}

/* BAWS (GTX480, configs/gtx480.cfg, default front end): the barrier suite
 * under the BAWS paper's issue policies with each fetch policy -- rr, cff
 * (BAWS's critical-fetch-first) and fef -- as in experiments/baws-fig9.spec
 * and baws-fig10.spec. */
static const char *const baws_lrr_rr[] = {"sched", "lrr", "fetch", "rr", NULL};
static const char *const baws_gto_rr[] = {"sched", "gto", "fetch", "rr", NULL};
static const char *const baws_saws_rr[] = {"sched", "saws", "fetch", "rr", NULL};
static const char *const baws_mwfl_rr[] = {"sched", "mwf-lrr", "fetch", "rr", NULL};
static const char *const baws_mwfg_rr[] = {"sched", "mwf-gto", "fetch", "rr", NULL};
static const char *const baws_lrr_cff[] = {"sched", "lrr", "fetch", "cff", NULL};
static const char *const baws_gto_cff[] = {"sched", "gto", "fetch", "cff", NULL};
static const char *const baws_saws_cff[] = {"sched", "saws", "fetch", "cff", NULL};
static const char *const baws_mwfl_cff[] = {"sched", "mwf-lrr", "fetch", "cff", NULL};
static const char *const baws_mwfg_cff[] = {"sched", "mwf-gto", "fetch", "cff", NULL};
static const char *const baws_lrr_fef[] = {"sched", "lrr", "fetch", "fef", NULL};
static const char *const baws_gto_fef[] = {"sched", "gto", "fetch", "fef", NULL};
static const char *const baws_mwfg_fef[] = {"sched", "mwf-gto", "fetch", "fef", NULL};
static const struct golden_variant baws_variants[] = {
	{"lrr/rr", baws_lrr_rr, NULL},           {"gto/rr", baws_gto_rr, NULL},
	{"saws/rr", baws_saws_rr, NULL},         {"mwf-lrr/rr", baws_mwfl_rr, NULL},
	{"mwf-gto/rr", baws_mwfg_rr, NULL},      {"lrr/cff", baws_lrr_cff, NULL},
	{"gto/cff", baws_gto_cff, NULL},         {"saws/cff", baws_saws_cff, NULL},
	{"mwf-lrr/cff", baws_mwfl_cff, NULL},    {"mwf-gto/cff", baws_mwfg_cff, NULL},
	{"lrr/fef", baws_lrr_fef, NULL},         {"gto/fef", baws_gto_fef, NULL},
	{"mwf-gto/fef", baws_mwfg_fef, NULL},    {NULL, NULL, NULL},
};
/* SAWS at small size: at tiny size no barrier kernel has more CTAs (2-10)
 * than the GTX480 has SMs (15), so every SM runs one CTA, and with one CTA
 * SAWS's order is GTO's (its warps at a barrier cannot issue anyway): SAWS
 * equals GTO on every tiny run.  At small size SMs hold several CTAs. */
static const struct golden_variant baws_small_variants[] = {
	{"gto/rr", baws_gto_rr, NULL},
	{"saws/rr", baws_saws_rr, NULL},
	{"gto/cff", baws_gto_cff, NULL},
	{"saws/cff", baws_saws_cff, NULL},
	{NULL, NULL, NULL},
};
static const char *const baws_keys[] = {"fetches", "fetch_next_issue", "ibuf_wait_cycles", "warp_phases",
					"rtru_ppm_sum", NULL};
#define BAWS_HEADER_TAIL                                                                                           \
	"# one line per benchmark x issue policy/fetch policy; tests/test_golden_configs.c\n"                         \
	"# regenerate deliberately with `make golden`; a commit that changes this file says why\n"

TEST(golden_baws_tiny_stats)
{
	const struct golden_set gs = {
		.file = TEST_DATA_DIR "/golden/baws_tiny.txt",
		.header = "# golden statistics: barrier suite, tiny size, configs/gtx480.cfg (default front end) under the BAWS\n"
			  "# paper's policies with fetch rr, cff and fef\n" BAWS_HEADER_TAIL,
		.config = "configs/gtx480.cfg",
		.benches = ws_bench_suite_barrier,
		.variants = baws_variants,
		.keys = baws_keys,
	};
	golden_set_check(t, &gs);
}

TEST(golden_baws_small_stats)
{
	const struct golden_set gs = {
		.file = TEST_DATA_DIR "/golden/baws_small.txt",
		.header = "# golden statistics: barrier suite, SMALL size (at tiny size SAWS equals GTO: one CTA per SM),\n"
			  "# configs/gtx480.cfg (default front end), gto and saws with fetch rr and cff\n" BAWS_HEADER_TAIL,
		.config = "configs/gtx480.cfg",
		.benches = ws_bench_suite_barrier,
		.variants = baws_small_variants,
		.keys = baws_keys,
		.size = WS_SIZE_SMALL,
	};
	golden_set_check(t, &gs);
}

/* KA's progress mode on a TITAN X cut to 2 SMs (experiments/kaws-density.spec):
 * on the 28-SM TITAN X every tiny kernel runs one CTA per SM, where ordering
 * by CTA progress is the age order, so a KA that never entered its progress
 * mode gave the same rows; on 2 SMs the schedulers choose among several CTAs. */
static const char *const titanx2_lrr[] = {"num_sms", "2", "sched", "lrr", NULL};
static const char *const titanx2_gto[] = {"num_sms", "2", "sched", "gto", NULL};
static const char *const titanx2_ka[] = {"num_sms", "2", "sched", "ka", NULL};
static const char *const titanx2_kaws[] = {"num_sms", "2", "sched", "kaws", NULL};
static const struct golden_variant titanx2_variants[] = {
	{"lrr/2sm", titanx2_lrr, NULL}, {"gto/2sm", titanx2_gto, NULL},   {"ka/2sm", titanx2_ka, NULL},
	{"kaws/2sm", titanx2_kaws, NULL}, {NULL, NULL, NULL},
};

TEST(golden_titanx_2sm_tiny_stats)
{
	const struct golden_set gs = {
		.file = TEST_DATA_DIR "/golden/titanx_2sm_tiny.txt",
		.header = "# golden statistics: KAWS suite, tiny size, configs/titanx-pascal.cfg cut to num_sms=2 (several CTAs\n"
			  "# per SM: KA's CTA-progress order acts), one line per benchmark x policy; tests/test_golden_configs.c\n"
			  "# regenerate deliberately with `make golden`; a commit that changes this file says why\n",
		.config = "configs/titanx-pascal.cfg",
		.benches = ws_bench_suite_kaws,
		.variants = titanx2_variants,
		.keys = titanx_keys,
	};
	golden_set_check(t, &gs);
}

/* BOWS on the GTX1080Ti (configs/gtx1080ti.cfg, BOWS Fig. 15 and
 * experiments/bows-fig15.spec): the BOWS suite under the bases lrr, gto,
 * gto-rotate (the paper's GTO) and cawa, BOWS over each, and DDOS detection
 * alone (ddos:gto, which orders exactly as gto: its pin is its counters). */
static const char *const b1080_lrr[] = {"sched", "lrr", NULL};
static const char *const b1080_gto[] = {"sched", "gto", NULL};
static const char *const b1080_gtor[] = {"sched", "gto-rotate", NULL};
static const char *const b1080_cawa[] = {"sched", "cawa", NULL};
static const char *const b1080_bows_lrr[] = {"sched", "bows:lrr", NULL};
static const char *const b1080_bows_gto[] = {"sched", "bows:gto", NULL};
static const char *const b1080_bows_gtor[] = {"sched", "bows:gto-rotate", NULL};
static const char *const b1080_bows_cawa[] = {"sched", "bows:cawa", NULL};
static const char *const b1080_ddos_gto[] = {"sched", "ddos:gto", NULL};
static const char *const b1080_bows_keys[] = {"bows_backoffs", "bows_held_warp_cycles", "bows_sib_insts",
					      "bows_delay_raises", "bows_delay_drops", "bows_ddos_true_detected",
					      "bows_ddos_false_detected", NULL};
static const char *const b1080_ddos_keys[] = {"ddos_true_seen", "ddos_true_detected", "ddos_false_seen",
					      "ddos_false_detected", "ddos_confirmations", "ddos_spin_setps", NULL};
static const struct golden_variant b1080_variants[] = {
	{"lrr", b1080_lrr, NULL},
	{"gto", b1080_gto, NULL},
	{"gto-rotate", b1080_gtor, NULL},
	{"cawa", b1080_cawa, NULL},
	{"bows:lrr", b1080_bows_lrr, b1080_bows_keys},
	{"bows:gto", b1080_bows_gto, b1080_bows_keys},
	{"bows:gto-rotate", b1080_bows_gtor, b1080_bows_keys},
	{"bows:cawa", b1080_bows_cawa, b1080_bows_keys},
	{"ddos:gto", b1080_ddos_gto, b1080_ddos_keys},
	{NULL, NULL, NULL},
};
static const char *const b1080_keys[] = {"lock_acquire_success", "lock_fail_intra_warp", "lock_fail_inter_warp",
					 "wait_exit_success", "wait_exit_fail", NULL};

TEST(golden_gtx1080ti_tiny_stats)
{
	const struct golden_set gs = {
		.file = TEST_DATA_DIR "/golden/gtx1080ti_tiny.txt",
		.header = "# golden statistics: BOWS suite, tiny size, configs/gtx1080ti.cfg, one line per benchmark x policy\n"
			  "# (bases, bows:BASE with the BOWS counters, ddos:gto with the DDOS counters); tests/test_golden_configs.c\n"
			  "# regenerate deliberately with `make golden`; a commit that changes this file says why\n",
		.config = "configs/gtx1080ti.cfg",
		.benches = ws_bench_suite_bows,
		.variants = b1080_variants,
		.keys = b1080_keys,
	};
	golden_set_check(t, &gs);
}

/* Every golden key is a counter: an unknown name would print "name=?" in
 * every line of the configuration golden files and leave tiny.txt's lines
 * short of it. */
TEST(golden_keys_are_counters)
{
	ws_sim *sim = NULL;
	CHECK(wsSimCreate(&sim, NULL) == WS_SUCCESS);
	for (int k = 0; ws_golden_keys[k]; k++)
		CHECK_MSG(wsStatsGet(sim, ws_golden_keys[k], NULL) == WS_SUCCESS, "golden key '%s' is not a counter",
			  ws_golden_keys[k]);
	wsSimDestroy(sim);
}
