/*
 * test_golden.c -- golden statistics: every bundled benchmark at tiny size
 * under every warp-scheduling policy of tests/golden/tiny.txt must give
 * exactly the statistics in it (cycles, instructions, stall breakdown, barrier and
 * exit waiting, cache and DRAM counters).  Any change to the timing model
 * that moves a number shows up here; `make golden` regenerates the file
 * deliberately (it runs this test with WARPSIM_GOLDEN_WRITE=1).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "golden.h"
#include "golden_check.h"
#include "test.h"

TEST(golden_tiny_stats)
{
	char *got = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&got, &len);
	int failed = ws_golden_generate(m);
	fclose(m);
	CHECK_MSG(failed == 0, "%d benchmark runs failed:\n%s", failed, got);
	golden_check(t, WS_GOLDEN_FILE, got);
}

/* Every registered plain policy (also those added after tests/golden/tiny.txt
 * was made, which the test above leaves out): each benchmark verifies at tiny
 * size under it, and its own golden file (WS_GOLDEN_POLICY_FMT) matches once
 * it exists -- `make golden` writes it.  Adding a policy thus changes no
 * existing golden file. */
TEST(golden_every_registered_policy)
{
	for (int p = 0; wsSchedPolicyName(p); p++) {
		const char *name = wsSchedPolicyName(p);
		if (ws_golden_pinned(name))
			continue;
		char *got = NULL;
		size_t len = 0;
		FILE *m = open_memstream(&got, &len);
		int failed = ws_golden_generate_policy(m, name);
		fclose(m);
		CHECK_MSG(failed == 0, "%s: %d benchmark runs failed:\n%s", name, failed, got);
		char path[256];
		snprintf(path, sizeof path, WS_GOLDEN_POLICY_FMT, name);
		FILE *f = fopen(path, "r");
		if (f)
			fclose(f);
		const char *w = getenv("WARPSIM_GOLDEN_WRITE");
		if (f || (w && strcmp(w, "1") == 0))
			golden_check(t, path, got);
		else
			free(got);
	}
}

/* Every bundled benchmark verifies at tiny size under the functional model
 * (the golden test covers the timing model under every policy). */
TEST(golden_all_benchmarks_functional_tiny)
{
	for (int i = 0; ws_bench_table[i]; i++) {
		const struct ws_bench_info *b = ws_bench_table[i];
		ws_config *cfg = wsConfigCreate();
		char err[128];
		wsConfigSet(cfg, "mode", "functional", err, sizeof err);
		ws_sim *sim = NULL;
		CHECK(wsSimCreate(&sim, cfg) == WS_SUCCESS);
		wsConfigDestroy(cfg);
		ws_module *mod;
		CHECK_MSG(wsModuleLoadData(sim, &mod, b->ptx, b->name) == WS_SUCCESS, "%s: %s", b->name,
			  wsSimLastError(sim));
		struct ws_bench_out out;
		memset(&out, 0, sizeof out);
		ws_result r = ws_bench_run(b, sim, mod, WS_SIZE_TINY, &out);
		CHECK_MSG(r == WS_SUCCESS, "%s (functional, tiny): %s", b->name, out.msg);
		wsSimDestroy(sim);
	}
}
