/*
 * test_regs.c -- registers per thread as ptxas assigns them (src/ptx/regs.c)
 * and the occupancy report (src/gpu/occupancy.c, wsLaunchOccupancy, the
 * stats JSON): each source of the chain -- a committed KERNEL.regs beside
 * the PTX, the bundled benchmarks' built-in files, the ptxas cache (hit,
 * miss, corrupt), ptxas itself (a stand-in script named by WARPSIM_PTXAS:
 * reporting, failing, missing), the estimate with its warning, the
 * regs_per_thread override -- and mm on the GTX480 at 2 CTAs/SM limited by
 * registers, as GPGPU-Sim runs it.  The fat binary's SASS is tested through
 * `warpsim cuda` in test_cudart.c.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench.h"
#include "gpu/sim.h"
#include "ptx/ir.h"
#include "test.h"
#include "util/hash.h"
#include "warpsim.h"

static const char kptx[] = ".version 7.0\n.target sm_75\n.address_size 64\n"
                           ".visible .entry k(.param .u64 p)\n{\n\t.reg .b32 %r<3>;\n\t.reg .b64 %rd<3>;\n"
                           "\tld.param.u64 %rd1, [p];\n\tcvta.to.global.u64 %rd2, %rd1;\n\tmov.u32 %r1, %tid.x;\n"
                           "\tst.global.u32 [%rd2], %r1;\n\tret;\n}\n";

/* a simulator with the default (GTX480) configuration and `set` ("k=v" or NULL) */
static ws_sim *regs_sim(struct test_ctx *t, const char *set1, const char *set2)
{
	ws_config *cfg = wsConfigCreate();
	ws_sim *sim = NULL;
	char err[256];
	CHECK(cfg != NULL);
	const char *sets[] = {set1, set2};
	for (int i = 0; i < 2; i++)
		if (sets[i]) {
			char k[64];
			const char *eq = strchr(sets[i], '=');
			snprintf(k, sizeof k, "%.*s", (int)(eq - sets[i]), sets[i]);
			CHECK(wsConfigSet(cfg, k, eq + 1, err, sizeof err) == WS_SUCCESS);
		}
	CHECK(wsSimCreate(&sim, cfg) == WS_SUCCESS);
	wsConfigDestroy(cfg);
	return sim;
}

/* launch kernel k of kptx once (64 threads) and return its occupancy */
static void regs_launch(struct test_ctx *t, ws_sim *sim, ws_module *mod, ws_occupancy *o)
{
	ws_function *fn;
	ws_deviceptr d;
	CHECK(wsModuleGetFunction(&fn, mod, "k") == WS_SUCCESS);
	CHECK(wsMemAlloc(sim, &d, 64) == WS_SUCCESS);
	void *params[] = {&d};
	CHECK(wsLaunchKernel(fn, 1, 1, 1, 64, 1, 1, 0, params) == WS_SUCCESS);
	memset(o, 0, sizeof *o);
	CHECK(wsLaunchOccupancy(sim, wsLaunchCount(sim) - 1, o) == WS_SUCCESS);
}

/* a scratch directory with DIR/k.ptx; the fake ptxas DIR/ptxas prints
 * `regs` registers for kernel k (or fails when regs is 0) and counts its
 * runs in DIR/runs; XDG_CACHE_HOME = DIR/cache */
struct regs_env {
	char dir[64], ptx[96], ptxas[96], runs[96], cache[96];
};
static void regs_env_make(struct test_ctx *t, struct regs_env *e, unsigned regs)
{
	snprintf(e->dir, sizeof e->dir, "/tmp/warpsim-regs-XXXXXX");
	CHECK(mkdtemp(e->dir) != NULL);
	snprintf(e->ptx, sizeof e->ptx, "%s/k.ptx", e->dir);
	snprintf(e->ptxas, sizeof e->ptxas, "%s/ptxas", e->dir);
	snprintf(e->runs, sizeof e->runs, "%s/runs", e->dir);
	snprintf(e->cache, sizeof e->cache, "%s/cache", e->dir);
	FILE *f = fopen(e->ptx, "w");
	CHECK(f && fputs(kptx, f) >= 0 && fclose(f) == 0);
	f = fopen(e->ptxas, "w");
	CHECK(f != NULL);
	if (f) {
		fprintf(f, "#!/bin/sh\necho run >> %s\n", e->runs);
		if (regs)
			fprintf(f,
			        "echo \"ptxas info    : Compiling entry function 'k' for 'sm_75'\" >&2\n"
			        "echo \"ptxas info    : Used %u registers, 388 bytes cmem[0]\" >&2\n",
			        regs);
		else
			fprintf(f, "echo \"ptxas fatal   : Unresolved extern function 'zz'\" >&2\nexit 3\n");
		fclose(f);
	}
	chmod(e->ptxas, 0755);
	setenv("WARPSIM_PTXAS", e->ptxas, 1);
	setenv("XDG_CACHE_HOME", e->cache, 1);
}
static int regs_env_runs(const struct regs_env *e)
{
	FILE *f = fopen(e->runs, "r");
	int n = 0, c;
	while (f && (c = fgetc(f)) != EOF)
		n += c == '\n';
	if (f)
		fclose(f);
	return n;
}
static void regs_env_done(struct regs_env *e)
{
	unsetenv("WARPSIM_PTXAS");
	unsetenv("XDG_CACHE_HOME");
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf %s", e->dir);
	if (system(cmd) != 0) {
		/* leftover scratch files are harmless */
	}
}

/* every bundled benchmark's committed kernel.regs is the one of its PTX
 * (`make regs` after `make ptx`): found by hash, a count for every kernel */
TEST(regs_bench_files_current)
{
	ws_sim *sim = regs_sim(t, NULL, NULL);
	int n = 0;
	for (const struct ws_bench_info *const *b = ws_bench_table; *b; b++) {
		ws_module *mod = NULL;
		CHECK((*b)->ptx && wsModuleLoadData(sim, &mod, (*b)->ptx, (*b)->name) == WS_SUCCESS);
		if (!mod)
			continue;
		const struct ptx_module *ir = mod->ir;
		for (uint32_t i = 0; i < ir->nfuncs; i++)
			if (ir->funcs[i].is_entry && !ir->funcs[i].is_extern) {
				CHECK_MSG(ir->funcs[i].regs_src == PTX_REGS_FILE,
				          "%s: kernel %s has no committed count (make regs)", (*b)->name,
				          ir->funcs[i].name);
				n++;
			}
		wsModuleUnload(mod);
	}
	CHECK(n > 40);
	wsSimDestroy(sim);
}

/* GPGPU-Sim runs mm on the GTX480 with ptxas's 60 registers: "CTA/core = 2,
 * limited by: regs".  reg_counts = ptxas does too; the default (estimate)
 * runs 6 and says what ptxas's count would give. */
TEST(regs_mm_gtx480_two_ctas_limited_by_regs)
{
	const struct ws_bench_info *mm = ws_bench_find("mm");
	CHECK(mm != NULL);
	if (!mm)
		return;
	for (int ptxas = 0; ptxas < 2; ptxas++) {
		ws_sim *sim = regs_sim(t, ptxas ? "reg_counts=ptxas" : "reg_counts=estimate", "reg_alloc_unit=1");
		ws_module *mod = NULL;
		struct ws_bench_out out;
		memset(&out, 0, sizeof out);
		CHECK(wsModuleLoadData(sim, &mod, mm->ptx, "mm") == WS_SUCCESS);
		CHECK_MSG(ws_bench_run(mm, sim, mod, WS_SIZE_TINY, &out) == WS_SUCCESS, "%s", out.msg);
		ws_occupancy o;
		CHECK(wsLaunchOccupancy(sim, 0, &o) == WS_SUCCESS);
		if (ptxas) {
			CHECK_EQ(o.ctas_per_sm, 2);
			CHECK(strcmp(o.limit, "regs_per_sm") == 0);
			CHECK_EQ(o.regs_per_thread, 60);
			CHECK(strcmp(o.regs_source, "file") == 0 && strcmp(o.origin, "bench/mm/kernel.regs") == 0);
			CHECK_EQ(o.ptxas_regs, 0);
			CHECK_STR_CONTAINS(o.text, "2 CTAs/SM, limited by regs_per_sm; regs/thread 60 (ptxas, "
			                           "committed in bench/mm/kernel.regs)");
		} else {
			CHECK_EQ(o.ctas_per_sm, 6);
			CHECK(strcmp(o.regs_source, "estimate") == 0);
			CHECK_EQ(o.ptxas_regs, 60);
			CHECK_EQ(o.ptxas_ctas_per_sm, 2);
			CHECK(strcmp(o.ptxas_limit, "regs_per_sm") == 0);
			CHECK_STR_CONTAINS(o.text, "(PTX estimate; ptxas assigns 60 (file bench/mm/kernel.regs) -> 2 "
			                           "CTAs/SM, limited by regs_per_sm)");
		}
		/* the stats JSON carries it, per kernel */
		char *js = NULL;
		size_t jn = 0;
		FILE *f = open_memstream(&js, &jn);
		CHECK(f && wsStatsWriteJSON(sim, f) == WS_SUCCESS);
		if (f)
			fclose(f);
		CHECK_STR_CONTAINS(js ? js : "", ptxas ? "\"kernel\": \"mm\", \"launches\": 1, \"ctas_per_sm\": 2, "
		                                         "\"limit\": \"regs_per_sm\", \"regs_per_thread\": 60, "
		                                         "\"regs_source\": \"file\""
		                                       : "\"regs_source\": \"estimate\", \"ptxas_regs\": 60, "
		                                         "\"ptxas_source\": \"file\", \"ptxas_ctas_per_sm\": 2");
		free(js);
		wsModuleUnload(mod);
		wsSimDestroy(sim);
	}
}

/* regs_per_thread overrides every source; wsFunctionGetInfo says which */
TEST(regs_config_override)
{
	ws_sim *sim = regs_sim(t, "reg_counts=ptxas", "regs_per_thread=48");
	ws_module *mod = NULL;
	CHECK(wsModuleLoadData(sim, &mod, ws_bench_find("mm")->ptx, "mm") == WS_SUCCESS);
	ws_function *fn;
	ws_function_info info;
	CHECK(wsModuleGetFunction(&fn, mod, "mm") == WS_SUCCESS && wsFunctionGetInfo(fn, &info) == WS_SUCCESS);
	CHECK_EQ(info.regs_per_thread, 48);
	CHECK(strcmp(info.regs_source, "config") == 0);
	wsSimDestroy(sim);
}

/* KERNEL.regs beside a PTX file: used; a stale or malformed one: a warning, then the next source */
TEST(regs_file_beside_ptx)
{
	struct regs_env e;
	regs_env_make(t, &e, 0);
	setenv("WARPSIM_PTXAS", "/nonexistent/ptxas", 1); /* the next source: none */
	char rp[128];
	snprintf(rp, sizeof rp, "%s/k.regs", e.dir);
	static const char *const bodies[] = {"k 40\n", "# ptx fnv1a64 0123456789abcdef\nk 40\n", "k forty\n",
	                                     "nokernel 40\n"};
	static const char *const warn[] = {NULL, "stale", "expected 'KERNEL REGISTERS'", "no kernel 'nokernel'"};
	for (unsigned i = 0; i < 4; i++) {
		FILE *f = fopen(rp, "w");
		CHECK(f && fputs(bodies[i], f) >= 0 && fclose(f) == 0);
		ws_sim *sim = regs_sim(t, "reg_counts=ptxas", NULL);
		ws_module *mod = NULL;
		CHECK(wsModuleLoad(sim, &mod, e.ptx) == WS_SUCCESS);
		ws_occupancy o;
		regs_launch(t, sim, mod, &o);
		if (!warn[i]) {
			CHECK_EQ(o.regs_per_thread, 40);
			CHECK(strcmp(o.regs_source, "file") == 0 && strcmp(o.origin, rp) == 0);
		} else {
			CHECK_STR_CONTAINS(wsModuleWarnings(mod), warn[i]);
			CHECK(strcmp(o.regs_source, "estimate") == 0);
		}
		wsSimDestroy(sim);
	}
	/* the right hash is accepted */
	FILE *f = fopen(rp, "w");
	CHECK(f != NULL);
	if (f) {
		fprintf(f, "# ptx fnv1a64 %016llx\nk 44\n", (unsigned long long)hash_fnv1a64(kptx, strlen(kptx)));
		fclose(f);
	}
	ws_sim *sim = regs_sim(t, "reg_counts=ptxas", NULL);
	ws_module *mod = NULL;
	CHECK(wsModuleLoad(sim, &mod, e.ptx) == WS_SUCCESS);
	ws_occupancy o;
	regs_launch(t, sim, mod, &o);
	CHECK_EQ(o.regs_per_thread, 44);
	wsSimDestroy(sim);
	regs_env_done(&e);
}

/* ptxas: run on a cache miss (result cached), not on a hit; a corrupt cache
 * file is a warning and ptxas runs again; with reg_counts = estimate ptxas
 * never runs */
TEST(regs_ptxas_cache)
{
	struct regs_env e;
	regs_env_make(t, &e, 57);
	ws_sim *sim = regs_sim(t, "reg_counts=estimate", NULL);
	ws_module *mod = NULL;
	CHECK(wsModuleLoadData(sim, &mod, kptx, "k.ptx") == WS_SUCCESS);
	CHECK_EQ(regs_env_runs(&e), 0);
	wsSimDestroy(sim);
	for (int i = 0; i < 3; i++) {
		sim = regs_sim(t, "reg_counts=ptxas", NULL);
		CHECK(wsModuleLoadData(sim, &mod, kptx, "k.ptx") == WS_SUCCESS);
		ws_occupancy o;
		regs_launch(t, sim, mod, &o);
		CHECK_EQ(o.regs_per_thread, 57);
		CHECK_EQ(regs_env_runs(&e), i == 2 ? 2 : 1);
		CHECK_MSG(strcmp(o.regs_source, i == 1 ? "ptxas-cache" : "ptxas") == 0, "run %d: %s", i, o.regs_source);
		if (i == 2)
			CHECK_STR_CONTAINS(wsModuleWarnings(mod), "ignored, running ptxas");
		else
			CHECK_EQ(wsModuleWarnings(mod)[0], '\0');
		wsSimDestroy(sim);
		if (i == 1) { /* corrupt the cache file */
			char cmd[256];
			snprintf(cmd, sizeof cmd, "for f in %s/warpsim/*.regs; do echo 'k lots' > $f; done", e.cache);
			CHECK(system(cmd) == 0);
		}
	}
	/* an unwritable cache is a warning, not an error */
	setenv("XDG_CACHE_HOME", "/proc/warpsim-no-such-dir", 1);
	sim = regs_sim(t, "reg_counts=ptxas", NULL);
	CHECK(wsModuleLoadData(sim, &mod, kptx, "k.ptx") == WS_SUCCESS);
	CHECK_STR_CONTAINS(wsModuleWarnings(mod), "cannot write");
	wsSimDestroy(sim);
	regs_env_done(&e);
}

/* the cache is keyed by which ptxas wrote it: a replaced ptxas (another
 * toolkit) runs again instead of taking the old counts */
TEST(regs_ptxas_cache_keyed_by_ptxas)
{
	struct regs_env e;
	regs_env_make(t, &e, 57);
	for (int i = 0; i < 3; i++) {
		if (i == 2) { /* a different ptxas at the same path: 61 registers */
			FILE *f = fopen(e.ptxas, "w");
			CHECK(f != NULL);
			if (f) {
				fprintf(f,
				        "#!/bin/sh\necho run >> %s\n# another toolkit\n"
				        "echo \"ptxas info    : Compiling entry function 'k' for 'sm_75'\" >&2\n"
				        "echo \"ptxas info    : Used 61 registers\" >&2\n",
				        e.runs);
				fclose(f);
			}
		}
		ws_sim *sim = regs_sim(t, "reg_counts=ptxas", NULL);
		ws_module *mod = NULL;
		CHECK(wsModuleLoadData(sim, &mod, kptx, "k.ptx") == WS_SUCCESS);
		ws_occupancy o;
		regs_launch(t, sim, mod, &o);
		CHECK_EQ(o.regs_per_thread, i == 2 ? 61 : 57);
		CHECK_EQ(regs_env_runs(&e), i == 2 ? 2 : 1);
		CHECK_MSG(strcmp(o.regs_source, i == 1 ? "ptxas-cache" : "ptxas") == 0, "run %d: %s", i, o.regs_source);
		wsSimDestroy(sim);
	}
	regs_env_done(&e);
}

/* a ptxas that hangs is killed after WARPSIM_PTXAS_TIMEOUT_S (here 1 s,
 * with the child it started): a warning, the estimate; a bad limit is a
 * warning too, and ptxas does not run */
TEST(regs_ptxas_hang_killed)
{
	struct regs_env e;
	regs_env_make(t, &e, 0);
	FILE *f = fopen(e.ptxas, "w");
	CHECK(f != NULL);
	if (f) {
		fprintf(f, "#!/bin/sh\necho run >> %s\nsleep 30\n", e.runs);
		fclose(f);
	}
	setenv("WARPSIM_PTXAS_TIMEOUT_S", "1", 1);
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	ws_sim *sim = regs_sim(t, "reg_counts=ptxas", NULL);
	ws_module *mod = NULL;
	CHECK(wsModuleLoadData(sim, &mod, kptx, "k.ptx") == WS_SUCCESS);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	double s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
	CHECK_MSG(s >= 0.9 && s < 10, "ptxas ran %.2f s", s);
	CHECK_STR_CONTAINS(wsModuleWarnings(mod), "did not finish in 1 s and was killed");
	ws_occupancy o;
	regs_launch(t, sim, mod, &o);
	CHECK(strcmp(o.regs_source, "estimate") == 0);
	wsSimDestroy(sim);
	CHECK_EQ(regs_env_runs(&e), 1);
	setenv("WARPSIM_PTXAS_TIMEOUT_S", "0", 1);
	sim = regs_sim(t, "reg_counts=ptxas", NULL);
	CHECK(wsModuleLoadData(sim, &mod, kptx, "k.ptx") == WS_SUCCESS);
	CHECK_STR_CONTAINS(wsModuleWarnings(mod),
	                   "WARPSIM_PTXAS_TIMEOUT_S='0' is not a whole number of seconds from 1 to 86400");
	wsSimDestroy(sim);
	CHECK_EQ(regs_env_runs(&e), 1);
	unsetenv("WARPSIM_PTXAS_TIMEOUT_S");
	regs_env_done(&e);
}

/* ptxas failing or missing: one warning, the estimate */
TEST(regs_ptxas_fails_estimate_warns)
{
	struct regs_env e;
	regs_env_make(t, &e, 0);
	for (int missing = 0; missing < 2; missing++) {
		if (missing)
			setenv("WARPSIM_PTXAS", "/nonexistent/ptxas", 1);
		ws_sim *sim = regs_sim(t, "reg_counts=ptxas", NULL);
		ws_module *mod = NULL;
		CHECK(wsModuleLoadData(sim, &mod, kptx, "k.ptx") == WS_SUCCESS);
		const char *w = wsModuleWarnings(mod);
		CHECK_STR_CONTAINS(w, "k.ptx: warning: reg_counts=ptxas: no ptxas register count for k (");
		CHECK_STR_CONTAINS(w, missing ? "WARPSIM_PTXAS=/nonexistent/ptxas is not an executable file"
		                              : "failed (exit status 3): ptxas fatal   : Unresolved extern function");
		CHECK_STR_CONTAINS(w, "occupancy uses the PTX estimate");
		ws_occupancy o;
		regs_launch(t, sim, mod, &o);
		CHECK(strcmp(o.regs_source, "estimate") == 0 && o.ptxas_regs == 0);
		CHECK_STR_CONTAINS(o.text, "(PTX estimate)");
		wsSimDestroy(sim);
	}
	regs_env_done(&e);
}

/* SASS counts handed over with the PTX (as the CUDA runtime does) come first */
TEST(regs_sass_handover)
{
	ws_sim *sim = regs_sim(t, "reg_counts=ptxas", NULL);
	ws_module *mod = NULL;
	CHECK(wsModuleLoadDataRegs(sim, &mod, kptx, "k.ptx", "other 9\nk 33\n", "sm_75") == WS_SUCCESS);
	ws_occupancy o;
	regs_launch(t, sim, mod, &o);
	CHECK_EQ(o.regs_per_thread, 33);
	CHECK(strcmp(o.regs_source, "sass") == 0 && strcmp(o.origin, "sm_75") == 0);
	CHECK_STR_CONTAINS(o.text, "regs/thread 33 (ptxas, fatbin SASS sm_75)");
	wsSimDestroy(sim);
	/* GPGPU-Sim rounds registers per thread up to a multiple of 4 (reg_alloc_unit = 4):
	 * 73 x 64 threads fit 7 times in 32768, 76 x 64 only 6 times */
	for (int unit4 = 0; unit4 < 2; unit4++) {
		sim = regs_sim(t, "reg_counts=ptxas", unit4 ? "reg_alloc_unit=4" : "reg_alloc_unit=1");
		CHECK(wsModuleLoadDataRegs(sim, &mod, kptx, "k.ptx", "k 73\n", "sm_75") == WS_SUCCESS);
		regs_launch(t, sim, mod, &o);
		CHECK_EQ(o.ctas_per_sm, unit4 ? 6 : 7);
		CHECK(strcmp(o.limit, "regs_per_sm") == 0);
		wsSimDestroy(sim);
	}
	/* malformed: a warning; then the rest of the chain (here: no ptxas) */
	setenv("WARPSIM_PTXAS", "/nonexistent/ptxas", 1);
	sim = regs_sim(t, "reg_counts=ptxas", NULL);
	CHECK(wsModuleLoadDataRegs(sim, &mod, kptx, "k.ptx", "k 999\n", "sm_75") == WS_SUCCESS);
	CHECK_STR_CONTAINS(wsModuleWarnings(mod), "register counts of sm_75: line 1: expected");
	unsetenv("WARPSIM_PTXAS");
	wsSimDestroy(sim);
}
