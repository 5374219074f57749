/*
 * golden.c -- generates the golden-statistics lines (see golden.h).
 */
#include <stdio.h>
#include <string.h>

#include "bench.h"
#include "golden.h"

const char *const ws_golden_keys[] = {
#define K(name) #name,
#include "golden_keys.def"
#undef K
	NULL,
};

void ws_golden_write_counters(FILE *out, const ws_sim *sim, const char *const *extra)
{
	for (int pass = 0; pass < 2; pass++) {
		const char *const *keys = pass ? extra : ws_golden_keys;
		for (int k = 0; keys && keys[k]; k++) {
			uint64_t v = 0;
			if (wsStatsGet(sim, keys[k], &v) == WS_SUCCESS)
				fprintf(out, " %s=%llu", keys[k], (unsigned long long)v);
			else
				fprintf(out, " %s=?", keys[k]);
		}
	}
}

static int run_one(FILE *out, const struct ws_bench_info *b, const char *policy)
{
	ws_config *cfg = wsConfigCreate();
	char err[256];
	int failed = 0;
	ws_sim *sim = NULL;
	ws_module *mod = NULL;
	if (!cfg || wsConfigSet(cfg, "sched", policy, err, sizeof err) != WS_SUCCESS ||
	    wsSimCreate(&sim, cfg) != WS_SUCCESS) {
		fprintf(out, "%s %s ERROR cannot create the simulator\n", b->name, policy);
		failed = 1;
		goto done;
	}
	char name[128];
	snprintf(name, sizeof name, "bench/%s/kernel.ptx", b->name);
	if (wsModuleLoadData(sim, &mod, b->ptx, name) != WS_SUCCESS) {
		fprintf(out, "%s %s ERROR %s\n", b->name, policy, wsSimLastError(sim));
		failed = 1;
		goto done;
	}
	struct ws_bench_out bo;
	memset(&bo, 0, sizeof bo);
	ws_result r = ws_bench_run(b, sim, mod, WS_SIZE_TINY, &bo);
	if (r != WS_SUCCESS) {
		fprintf(out, "%s %s ERROR %s: %s\n", b->name, policy, wsGetErrorName(r), bo.msg);
		failed = 1;
		goto done;
	}
	fprintf(out, "%s %s", b->name, policy);
	ws_golden_write_counters(out, sim, NULL);
	fputc('\n', out);
done:
	wsSimDestroy(sim);
	wsConfigDestroy(cfg);
	return failed;
}

/* The policies WS_GOLDEN_FILE pins, frozen: the plain policies the
 * simulator had when the file was made.  A policy registered later is not
 * added here (so adding a policy leaves that file alone); its lines go to a
 * file of its own (ws_golden_generate_policy, WS_GOLDEN_POLICY_FMT). */
static const char *const golden_policies[] = {
	"lrr", "gto", "tls", "gto-rotate", "mwf-lrr", "mwf-gto", "saws", "cawa", "ka", "kaws", NULL,
};

int ws_golden_generate(FILE *out)
{
	int failed = 0;
	fprintf(out, "# golden statistics: tiny size, default (GTX480) configuration, one line per benchmark x policy\n"
		     "# regenerate deliberately with `make golden`; a commit that changes this file says why\n");
	for (int i = 0; ws_bench_table[i]; i++)
		for (int p = 0; golden_policies[p]; p++)
			failed += run_one(out, ws_bench_table[i], golden_policies[p]);
	return failed;
}

bool ws_golden_pinned(const char *policy)
{
	for (int p = 0; golden_policies[p]; p++)
		if (strcmp(golden_policies[p], policy) == 0)
			return true;
	return false;
}

int ws_golden_generate_policy(FILE *out, const char *policy)
{
	int failed = 0;
	fprintf(out,
		"# golden statistics of policy %s: tiny size, default (GTX480) configuration, one line per benchmark\n"
		"# regenerate deliberately with `make golden`; a commit that changes this file says why\n",
		policy);
	for (int i = 0; ws_bench_table[i]; i++)
		failed += run_one(out, ws_bench_table[i], policy);
	return failed;
}
