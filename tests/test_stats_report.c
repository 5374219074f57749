/*
 * test_stats_report.c -- the statistics stage's one table of derived
 * metrics (src/stats/derived.def): the text summary's "derived:" section,
 * the JSON "derived" object and wsStatsGetDerived name the same metrics in
 * the table's order with the same values; no derived metric shadows a
 * counter.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "stats/derived.h"
#include "test.h"
#include "warpsim.h"

static char *capture(const ws_sim *sim, int json)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	if (!m)
		return NULL;
	if (json)
		wsStatsWriteJSON(sim, m);
	else
		wsStatsPrint(sim, m);
	fclose(m);
	return buf;
}

TEST(stats_derived_table_drives_every_writer)
{
	const struct ws_bench_info *b = ws_bench_find("sp");
	ws_sim *sim = NULL;
	ws_module *mod = NULL;
	CHECK(b && wsSimCreate(&sim, NULL) == WS_SUCCESS);
	if (!b || !sim)
		return;
	CHECK(wsModuleLoadData(sim, &mod, b->ptx, "sp.ptx") == WS_SUCCESS);
	struct ws_bench_out out;
	memset(&out, 0, sizeof out);
	CHECK_MSG(ws_bench_run(b, sim, mod, WS_SIZE_TINY, &out) == WS_SUCCESS, "%s", out.msg);
	char *text = capture(sim, 0), *json = capture(sim, 1);
	CHECK(text && json);
	const char *tsec = text ? strstr(text, "\nderived:\n") : NULL;
	const char *jsec = json ? strstr(json, "\"derived\": {") : NULL;
	CHECK(tsec && jsec);
	for (int i = 0; tsec && jsec && derived_name(i); i++) {
		const char *name = derived_name(i);
		double v = -1;
		CHECK_MSG(wsStatsGetDerived(sim, name, &v) == WS_SUCCESS, "%s", name);
		CHECK_MSG(wsStatsGet(sim, name, NULL) == WS_ERROR_NOT_FOUND, "derived metric %s is also a counter", name);
		/* the text line: "  NAME  value  description", in table order */
		char want[256];
		snprintf(want, sizeof want, "\n  %-22s ", name);
		const char *ln = strstr(tsec, want);
		CHECK_MSG(ln != NULL, "text summary lacks %s", name);
		if (ln) {
			double tv = strtod(ln + strlen(want), NULL), d = tv - v; /* printed with 5 or 10 digits */
			CHECK_MSG(d <= 1e-4 * (v > 0 ? v : -v) && -d <= 1e-4 * (v > 0 ? v : -v), "%s: %g vs %g", name, tv, v);
			CHECK_MSG(strstr(ln, derived_desc(i)) != NULL, "%s: description", name);
			tsec = ln + 1;
		}
		/* the JSON member: "NAME": %.9g of the same value, in table order */
		snprintf(want, sizeof want, "\"%s\": %.9g", name, v);
		const char *j = strstr(jsec, want);
		CHECK_MSG(j != NULL, "JSON lacks %s", want);
		if (j)
			jsec = j + 1;
	}
	free(text);
	free(json);
	wsSimDestroy(sim);
}

/* wsLaunchStatsWriteJSON (`warpsim run --launch-stats`, `warpsim cuda
 * --stats`): each launch's object names every counter of the tables with
 * that launch's value (wsLaunchStatsGet), and the launches' values add up
 * to the run's totals (wsStatsGet). backprop has two kernels. */
TEST(stats_launch_json_sums_to_totals)
{
	const struct ws_bench_info *b = ws_bench_find("backprop");
	ws_sim *sim = NULL;
	ws_module *mod = NULL;
	CHECK(b && wsSimCreate(&sim, NULL) == WS_SUCCESS);
	if (!b || !sim)
		return;
	CHECK(wsModuleLoadData(sim, &mod, b->ptx, "backprop.ptx") == WS_SUCCESS);
	struct ws_bench_out out;
	memset(&out, 0, sizeof out);
	CHECK_MSG(ws_bench_run(b, sim, mod, WS_SIZE_TINY, &out) == WS_SUCCESS, "%s", out.msg);
	unsigned n = wsLaunchCount(sim);
	CHECK_EQ(n, 2u);
	static const char *const names[] = {"kernels", "cycles", "warp_insts", "thread_insts", "l1d_accesses", "l2_accesses",
	                                    "barriers", "stall_data", "ldst_stall_cycles", "dram_reads"};
	uint64_t sum[sizeof names / sizeof *names] = {0};
	int counted = 0;
	for (unsigned l = 0; l < n; l++) {
		char *buf = NULL;
		size_t len = 0;
		FILE *m = open_memstream(&buf, &len);
		CHECK(m != NULL);
		if (!m)
			break;
		CHECK(wsLaunchStatsWriteJSON(sim, l, m) == WS_SUCCESS);
		fclose(m);
		CHECK(buf && buf[0] == '{' && buf[len - 1] == '}' && !strchr(buf, '\n'));
		for (size_t k = 0; buf && k < sizeof names / sizeof *names; k++) {
			char key[64];
			snprintf(key, sizeof key, "\"%s\": ", names[k]);
			const char *p = strstr(buf, key);
			uint64_t want = 0;
			CHECK(wsLaunchStatsGet(sim, l, names[k], &want) == WS_SUCCESS);
			CHECK_MSG(p != NULL, "launch %u: no %s", l, names[k]);
			if (p) {
				unsigned long long got = strtoull(p + strlen(key), NULL, 10);
				CHECK_MSG(got == want, "launch %u: %s %llu, wsLaunchStatsGet %llu", l, names[k], got,
				          (unsigned long long)want);
			}
			sum[k] += want;
		}
		counted += buf && strstr(buf, "\"cycles\": ") != NULL;
		free(buf);
	}
	CHECK_EQ(counted, 2);
	for (size_t k = 0; k < sizeof names / sizeof *names; k++) {
		uint64_t total = 0;
		CHECK(wsStatsGet(sim, names[k], &total) == WS_SUCCESS);
		CHECK_MSG(sum[k] == total, "%s: launches add up to %llu, total %llu", names[k], (unsigned long long)sum[k],
		          (unsigned long long)total);
	}
	uint64_t c0 = 0;
	CHECK(wsLaunchStatsGet(sim, 0, "cycles", &c0) == WS_SUCCESS && c0 > 0);
	wsSimDestroy(sim);
}
