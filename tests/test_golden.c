/*
 * test_golden.c -- golden statistics: every bundled benchmark at tiny size
 * under every warp-scheduling policy must give exactly the statistics in
 * tests/golden/tiny.txt (cycles, instructions, stall breakdown, barrier and
 * exit waiting, cache and DRAM counters).  Any change to the timing model
 * that moves a number shows up here; `make golden` regenerates the file
 * deliberately (it runs this test with WARPSIM_GOLDEN_WRITE=1).
 */
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "golden.h"
#include "test.h"

static char *read_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *b = malloc((size_t)n + 1);
	if (b && fread(b, 1, (size_t)n, f) != (size_t)n) {
		free(b);
		b = NULL;
	}
	if (b)
		b[n] = 0;
	fclose(f);
	return b;
}

TEST(golden_tiny_stats)
{
	char *got = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&got, &len);
	int failed = ws_golden_generate(m);
	fclose(m);
	CHECK_MSG(failed == 0, "%d benchmark runs failed:\n%s", failed, got);
	const char *w = getenv("WARPSIM_GOLDEN_WRITE");
	if (w && *w == '1') {
		FILE *f = fopen(WS_GOLDEN_FILE, "w");
		CHECK_MSG(f != NULL, "cannot write %s", WS_GOLDEN_FILE);
		if (f) {
			fputs(got, f);
			fclose(f);
			printf("wrote %s\n", WS_GOLDEN_FILE);
		}
		free(got);
		return;
	}
	char *want = read_file(WS_GOLDEN_FILE);
	CHECK_MSG(want != NULL, "%s is missing: run `make golden`", WS_GOLDEN_FILE);
	if (!want) {
		free(got);
		return;
	}
	/* compare line by line and name the first differing run */
	char *sa, *sb;
	char *a = strtok_r(want, "\n", &sa);
	char *b = strtok_r(got, "\n", &sb);
	int diffs = 0;
	while (a || b) {
		if (!a || !b || strcmp(a, b) != 0) {
			if (diffs < 5)
				test_fail(t, __FILE__, __LINE__, "golden mismatch:\n    expected: %s\n    got:      %s",
					  a ? a : "(end of file)", b ? b : "(end of output)");
			diffs++;
		}
		a = a ? strtok_r(NULL, "\n", &sa) : NULL;
		b = b ? strtok_r(NULL, "\n", &sb) : NULL;
	}
	if (diffs)
		printf("  %d golden lines differ; if the change is intended, run `make golden` and say why in the commit\n",
		       diffs);
	free(want);
	free(got);
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
