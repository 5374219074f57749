/*
 * test_api_misuse.c -- the C API misused as a new user would (issue 26):
 * NULL arguments, handles of an unloaded module and its functions, a second
 * unload, zero-byte allocations, an oversized heap, failing getters; then
 * every entry point of include/warpsim.h (api_misuse_every_entry_point) with
 * each of its handle arguments NULL, destroyed, of another type, never a
 * handle, or gone with its destroyed simulator, and each of its other
 * pointer arguments NULL.  Each call must return an error
 * (WS_ERROR_INVALID_HANDLE for a bad handle; the reason in wsSimLastError
 * where there is a live simulator to keep it), or do nothing where it returns
 * no result; never crash.  api_misuse_covers_every_declaration parses the
 * header, so a new entry point without a case here fails.  The sanitizer
 * build (make asan) runs these, so a use after free fails there.
 */
#include <ctype.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "cli_check.h"
#include "test.h"
#include "warpsim.h"

static const char misuse_ptx[] = ".version 7.5\n.target sm_75\n.address_size 64\n"
				 ".global .u32 g;\n"
				 ".visible .entry k(.param .u64 p)\n{\n\tret;\n}\n";

TEST(api_misuse_null_arguments)
{
	char buf[64];
	ws_config *c = wsConfigCreate();
	CHECK(c != NULL);
	CHECK(wsConfigGet(c, NULL, buf, sizeof buf) == NULL);
	CHECK(wsConfigGet(NULL, "warp_size", buf, sizeof buf) == NULL);
	CHECK(wsConfigClone(NULL) == NULL);
	wsConfigPrint(NULL, stdout);
	wsConfigPrint(c, NULL);
	wsConfigPrintList(NULL);
	CHECK(wsConfigSet(c, NULL, "1", NULL, 0) != WS_SUCCESS);
	ws_sim *sim = NULL;
	CHECK(wsSimCreate(&sim, c) == WS_SUCCESS);
	wsConfigDestroy(c);
	if (!sim)
		return;
	wsStatsPrint(sim, NULL);
	wsStatsPrint(NULL, stdout);
	wsModulePrintSummary(NULL, stdout);
	CHECK(wsStatsWriteJSON(sim, NULL) != WS_SUCCESS);
	CHECK(wsTraceWriteChrome(sim, NULL) != WS_SUCCESS);
	CHECK(wsTimelineWriteSVG(sim, NULL, 0, 0, 0, 0) != WS_SUCCESS);
	ws_deviceptr d;
	CHECK(wsMemAlloc(sim, NULL, 16) != WS_SUCCESS);
	CHECK(wsMemAlloc(sim, &d, 0) == WS_ERROR_INVALID_VALUE);
	CHECK_STR_CONTAINS(wsSimLastError(sim), "0 bytes");
	CHECK(wsSimSetMallocHeapSize(sim, SIZE_MAX) == WS_ERROR_INVALID_VALUE);
	CHECK_STR_CONTAINS(wsSimLastError(sim), "more than the device memory");
	CHECK(wsModuleLoadData(sim, NULL, misuse_ptx, "m.ptx") != WS_SUCCESS);
	CHECK(wsLaunchKernel(NULL, 1, 1, 1, 1, 1, 1, 0, NULL) == WS_ERROR_INVALID_HANDLE);
	wsSimDestroy(sim);
	wsSimDestroy(NULL);
}

TEST(api_misuse_unloaded_module_handles)
{
	ws_sim *sim = NULL;
	CHECK(wsSimCreate(&sim, NULL) == WS_SUCCESS);
	if (!sim)
		return;
	ws_module *m = NULL;
	CHECK_MSG(wsModuleLoadData(sim, &m, misuse_ptx, "m.ptx") == WS_SUCCESS, "%s", wsSimLastError(sim));
	if (!m) {
		wsSimDestroy(sim);
		return;
	}
	ws_function *f = NULL;
	CHECK(wsModuleGetFunction(&f, m, "k") == WS_SUCCESS);
	CHECK(wsModuleUnload(m) == WS_SUCCESS);
	/* every use of the stale handles is an error with a reason, not a use after free */
	CHECK(wsModuleUnload(m) == WS_ERROR_INVALID_HANDLE);
	CHECK_STR_CONTAINS(wsSimLastError(sim), "wsModuleUnload: the module was unloaded");
	ws_function *g = NULL;
	CHECK(wsModuleGetFunction(&g, m, "k") == WS_ERROR_INVALID_HANDLE);
	ws_deviceptr d;
	size_t n;
	CHECK(wsModuleGetGlobal(&d, &n, m, "g") == WS_ERROR_INVALID_HANDLE);
	uint32_t v = 1;
	CHECK(wsMemcpyToSymbol(m, "g", &v, 4, 0) == WS_ERROR_INVALID_HANDLE);
	CHECK(wsMemcpyFromSymbol(m, "g", &v, 4, 0) == WS_ERROR_INVALID_HANDLE);
	CHECK(wsModuleFunctionCount(m) == 0);
	CHECK(wsModuleFunctionName(m, 0) == NULL);
	CHECK(wsFunctionName(f) == NULL);
	CHECK(wsFunctionParamCount(f) == 0);
	unsigned ctas = 0;
	CHECK(wsFunctionOccupancy(f, 32, 0, &ctas) == WS_ERROR_INVALID_HANDLE);
	uint64_t p = 0;
	void *params[] = {&p};
	CHECK(wsLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, params) == WS_ERROR_INVALID_HANDLE);
	CHECK_STR_CONTAINS(wsSimLastError(sim), "wsLaunchKernel: the module was unloaded");
	wsModulePrintSummary(m, stdout);
	/* a module loaded after it works, and destroying the simulator frees the tombstone */
	ws_module *m2 = NULL;
	CHECK(wsModuleLoadData(sim, &m2, misuse_ptx, "m2.ptx") == WS_SUCCESS);
	CHECK(wsModuleGetFunction(&g, m2, "k") == WS_SUCCESS);
	CHECK_MSG(wsLaunchKernel(g, 1, 1, 1, 32, 1, 1, 0, params) == WS_SUCCESS, "%s", wsSimLastError(sim));
	wsSimDestroy(sim);
}

TEST(api_misuse_failing_getters_set_last_error)
{
	ws_sim *sim = NULL;
	CHECK(wsSimCreate(&sim, NULL) == WS_SUCCESS);
	if (!sim)
		return;
	uint64_t v;
	double dv;
	ws_deviceptr d;
	CHECK(wsMemAlloc(sim, &d, 0) != WS_SUCCESS); /* leaves an error behind */
	CHECK(wsStatsGet(sim, "no_such_counter", &v) == WS_ERROR_NOT_FOUND);
	CHECK_STR_CONTAINS(wsSimLastError(sim), "no counter named 'no_such_counter'");
	CHECK(wsStatsGetDerived(sim, "no_such_metric", &dv) == WS_ERROR_NOT_FOUND);
	CHECK_STR_CONTAINS(wsSimLastError(sim), "no derived metric named 'no_such_metric'");
	CHECK(wsLaunchStatsGet(sim, 7, "cycles", &v) == WS_ERROR_NOT_FOUND);
	CHECK_STR_CONTAINS(wsSimLastError(sim), "no such launch");
	/* a getter that succeeds leaves the last error for the caller to read */
	CHECK(wsStatsGet(sim, "cycles", &v) == WS_SUCCESS);
	CHECK_STR_CONTAINS(wsSimLastError(sim), "no such launch");
	wsSimDestroy(sim);
}

/* Values wsSimCreate would reject, checkable one parameter at a time, are
 * refused by wsConfigSet (and so by config files, --set and sweep jobs) with
 * a message naming the parameter, the value and the choices; the old value
 * stays.  wsConfigCheck runs the same checks. */
TEST(api_config_set_checks_values)
{
	static const struct {
		const char *key, *value, *says[3];
	} bad[] = {
		{"sched", "bogus", {"parameter 'sched'", "'bogus'", "gto"}},
		{"sched", "bows:bows:gto", {"parameter 'sched'", "bows", "INNER"}},
		{"sched", "bows", {"parameter 'sched'", "bows:INNER", "gto"}},
		{"fetch", "nope", {"parameter 'fetch'", "'nope'", "(known: "}},
		{"warp_size", "33", {"parameter 'warp_size'", "33", "8, 16, 32 or 64"}},
	};
	ws_config *c = wsConfigCreate();
	CHECK(c != NULL);
	if (!c)
		return;
	char err[1024], before[64], after[64];
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		snprintf(before, sizeof before, "%s", wsConfigGet(c, bad[i].key, after, sizeof after));
		err[0] = 0;
		CHECK_MSG(wsConfigSet(c, bad[i].key, bad[i].value, err, sizeof err) == WS_ERROR_INVALID_CONFIG,
			  "wsConfigSet(%s, %s) was accepted", bad[i].key, bad[i].value);
		for (int k = 0; k < 3; k++)
			CHECK_STR_CONTAINS(err, bad[i].says[k]);
		CHECK(strcmp(wsConfigGet(c, bad[i].key, after, sizeof after), before) == 0);
	}
	CHECK(wsConfigSet(c, "sched", "bows:gto", err, sizeof err) == WS_SUCCESS);
	CHECK(wsConfigSet(c, "fetch", "rr", err, sizeof err) == WS_SUCCESS);
	CHECK(wsConfigSet(c, "warp_size", "8", err, sizeof err) == WS_SUCCESS);
	CHECK(wsConfigCheck(c, err, sizeof err) == WS_SUCCESS);
	/* a config file's line says where */
	FILE *f = fopen("build/test-api-bad-sched.cfg", "w");
	if (f) {
		fprintf(f, "num_sms = 4\nsched = bows:bows:gto\n");
		fclose(f);
		CHECK(wsConfigLoadFile(c, "build/test-api-bad-sched.cfg", err, sizeof err) == WS_ERROR_INVALID_CONFIG);
		CHECK_STR_CONTAINS(err, "build/test-api-bad-sched.cfg:2: parameter 'sched'");
		remove("build/test-api-bad-sched.cfg");
	}
	wsConfigDestroy(c);
}

/* ---- every entry point of include/warpsim.h, with bad handles and NULL pointers ---- */

/* The objects a case works on: live ones, and for each handle type the bad
 * handles of bad_handle() below. */
struct fx {
	ws_config *cfg, *dead_cfg;
	ws_sim *sim, *dead_sim;
	ws_module *mod, *dead_mod, *orphan_mod; /* orphan: of the destroyed simulator */
	ws_function *fn, *dead_fn, *orphan_fn;
	ws_array *arr, *dead_arr, *orphan_arr;
	char stack[64]; /* an address that was never a handle */
};

/* Bad handles: NULL, destroyed, another type's live handle, never a handle,
 * and (modules, functions, arrays) one that went with its destroyed simulator. */
enum { BAD_NULL, BAD_DEAD, BAD_FOREIGN, BAD_UNKNOWN, BAD_ORPHAN, NBAD };
static const char *const bad_name[NBAD] = {"NULL", "destroyed", "foreign", "never a handle", "of a destroyed simulator"};

static void *bad_handle(struct fx *F, int kind, void *dead, void *foreign, void *orphan)
{
	switch (kind) {
	case BAD_NULL: return NULL;
	case BAD_DEAD: return dead;
	case BAD_FOREIGN: return foreign;
	case BAD_UNKNOWN: return F->stack;
	default: return orphan ? orphan : dead;
	}
}
static ws_config *bad_ws_config(struct fx *F, int k) { return bad_handle(F, k, F->dead_cfg, F->sim, NULL); }
static ws_sim *bad_ws_sim(struct fx *F, int k) { return bad_handle(F, k, F->dead_sim, F->cfg, NULL); }
static ws_module *bad_ws_module(struct fx *F, int k) { return bad_handle(F, k, F->dead_mod, F->fn, F->orphan_mod); }
static ws_function *bad_ws_function(struct fx *F, int k)
{
	return bad_handle(F, k, F->dead_fn, F->mod, F->orphan_fn);
}
static ws_array *bad_ws_array(struct fx *F, int k) { return bad_handle(F, k, F->dead_arr, F->sim, F->orphan_arr); }

/* for (each bad handle v of type T): the body runs NBAD times, bad_k says which */
#define EACH_BAD(T, v)                                                                                               \
	for (int bad_k = 0, once_ = 1; bad_k < NBAD; bad_k++, once_ = 1)                                             \
		for (T *v = bad_##T(F, bad_k); once_; once_ = 0)
/* expr must return WS_ERROR_INVALID_HANDLE for the bad handle of this round */
#define CHECK_BAD(expr)                                                                                              \
	CHECK_MSG((expr) == WS_ERROR_INVALID_HANDLE, "%s with a %s handle: not WS_ERROR_INVALID_HANDLE", #expr,       \
		  bad_name[bad_k])
#define CHECK_INVALID(expr) CHECK_MSG((expr) == WS_ERROR_INVALID_VALUE, "%s: not WS_ERROR_INVALID_VALUE", #expr)

static bool fx_make(struct test_ctx *t, struct fx *F)
{
	memset(F, 0, sizeof *F);
	static const ws_channel_format f32 = {32, 0, 0, 0, WS_CHANNEL_FLOAT};
	F->cfg = wsConfigCreate();
	CHECK(F->cfg != NULL);
	CHECK(wsSimCreate(&F->sim, F->cfg) == WS_SUCCESS);
	CHECK(wsSimCreate(&F->dead_sim, NULL) == WS_SUCCESS);
	if (!F->cfg || !F->sim || !F->dead_sim)
		return false;
	CHECK(wsModuleLoadData(F->sim, &F->mod, misuse_ptx, "m.ptx") == WS_SUCCESS);
	CHECK(wsModuleLoadData(F->sim, &F->dead_mod, misuse_ptx, "dead.ptx") == WS_SUCCESS);
	CHECK(wsModuleLoadData(F->dead_sim, &F->orphan_mod, misuse_ptx, "orphan.ptx") == WS_SUCCESS);
	if (!F->mod || !F->dead_mod || !F->orphan_mod)
		return false;
	CHECK(wsModuleGetFunction(&F->fn, F->mod, "k") == WS_SUCCESS);
	CHECK(wsModuleGetFunction(&F->dead_fn, F->dead_mod, "k") == WS_SUCCESS);
	CHECK(wsModuleGetFunction(&F->orphan_fn, F->orphan_mod, "k") == WS_SUCCESS);
	CHECK(wsArrayCreate(F->sim, &F->arr, &f32, 16, 0, 0, WS_ARRAY_SURFACE_LDST) == WS_SUCCESS);
	CHECK(wsArrayCreate(F->sim, &F->dead_arr, &f32, 16, 0, 0, 0) == WS_SUCCESS);
	CHECK(wsArrayCreate(F->dead_sim, &F->orphan_arr, &f32, 16, 0, 0, 0) == WS_SUCCESS);
	if (!F->fn || !F->dead_fn || !F->orphan_fn || !F->arr || !F->dead_arr || !F->orphan_arr)
		return false;
	/* the destroyed ones last, so that nothing made above reuses their addresses */
	CHECK(wsModuleUnload(F->dead_mod) == WS_SUCCESS);
	CHECK(wsArrayDestroy(F->dead_arr) == WS_SUCCESS);
	wsSimDestroy(F->dead_sim);
	F->dead_cfg = wsConfigCreate();
	wsConfigDestroy(F->dead_cfg);
	return true;
}

static void fx_free(struct fx *F)
{
	wsSimDestroy(F->sim);
	wsConfigDestroy(F->cfg);
}

#define CASE(fn) static void case_##fn(struct test_ctx *t, struct fx *F)

/* ---- errors and policy names: no handles; out-of-range indices and NULL names ---- */
CASE(wsGetErrorString)
{
	(void)F;
	CHECK_STR_CONTAINS(wsGetErrorString(WS_ERROR_INVALID_HANDLE), "invalid handle");
	CHECK(wsGetErrorString((ws_result)-1) != NULL);
	CHECK(wsGetErrorString(WS_RESULT_COUNT) != NULL);
}
CASE(wsGetErrorName)
{
	(void)F;
	CHECK(strcmp(wsGetErrorName(WS_ERROR_INVALID_HANDLE), "WS_ERROR_INVALID_HANDLE") == 0);
	CHECK(wsGetErrorName(WS_RESULT_COUNT) != NULL);
}
CASE(wsSchedPolicyName) { (void)F; CHECK(wsSchedPolicyName(-1) == NULL && wsSchedPolicyName(1 << 20) == NULL); }
CASE(wsSchedPolicyDescription)
{
	(void)F;
	CHECK(wsSchedPolicyDescription(-1) == NULL && wsSchedPolicyDescription(1 << 20) == NULL);
}
CASE(wsSchedWrapperName) { (void)F; CHECK(wsSchedWrapperName(-1) == NULL && wsSchedWrapperName(1 << 20) == NULL); }
CASE(wsSchedWrapperDescription)
{
	(void)F;
	CHECK(wsSchedWrapperDescription(-1) == NULL && wsSchedWrapperDescription(1 << 20) == NULL);
}
CASE(wsFetchPolicyName) { (void)F; CHECK(wsFetchPolicyName(-1) == NULL && wsFetchPolicyName(1 << 20) == NULL); }
CASE(wsFetchPolicyDescription)
{
	(void)F;
	CHECK(wsFetchPolicyDescription(-1) == NULL && wsFetchPolicyDescription(1 << 20) == NULL);
}
CASE(wsSchedCheck)
{
	(void)F;
	char err[512];
	CHECK(wsSchedCheck(NULL, err, sizeof err) != WS_SUCCESS);
	CHECK(wsSchedCheck("bogus", NULL, 0) != WS_SUCCESS);
	CHECK(wsSchedCheck("gto", NULL, 0) == WS_SUCCESS);
}
CASE(wsSchedPolicyCounterName)
{
	(void)F;
	char buf[64];
	CHECK(wsSchedPolicyCounterName(-1, 0, buf, sizeof buf) == 0);
	CHECK(wsSchedPolicyCounterName(0, -1, buf, sizeof buf) == 0);
	CHECK(wsSchedPolicyCounterName(0, 0, NULL, 0) >= 0);
}
CASE(wsSchedWrapperCounterName)
{
	(void)F;
	char buf[64];
	CHECK(wsSchedWrapperCounterName(-1, 0, buf, sizeof buf) == 0);
	CHECK(wsSchedWrapperCounterName(0, -1, buf, sizeof buf) == 0);
	CHECK(wsSchedWrapperCounterName(0, 0, NULL, 0) >= 0);
}

/* ---- configuration ---- */
CASE(wsConfigCreate)
{
	ws_config *c = wsConfigCreate();
	CHECK(c != NULL);
	wsConfigDestroy(c);
	(void)F;
}
CASE(wsConfigDestroy)
{
	EACH_BAD(ws_config, c)
	wsConfigDestroy(c); /* nothing happens */
	/* a simulator's own configuration goes with the simulator */
	wsConfigDestroy((ws_config *)wsSimConfig(F->sim));
	char buf[64];
	CHECK(wsConfigGet(wsSimConfig(F->sim), "warp_size", buf, sizeof buf) != NULL);
	ws_config *c = wsConfigClone(F->cfg);
	wsConfigDestroy(c);
	wsConfigDestroy(c); /* a second destroy does nothing */
}
CASE(wsConfigClone)
{
	EACH_BAD(ws_config, c)
	CHECK(wsConfigClone(c) == NULL);
	ws_config *c = wsConfigClone(wsSimConfig(F->sim));
	CHECK(c != NULL);
	wsConfigDestroy(c);
}
CASE(wsConfigLoadFile)
{
	char err[256];
	EACH_BAD(ws_config, c)
	{
		CHECK_BAD(wsConfigLoadFile(c, "configs/gtx480.cfg", err, sizeof err));
		CHECK_STR_CONTAINS(err, "wsConfigLoadFile: ");
	}
	CHECK_INVALID(wsConfigLoadFile(F->cfg, NULL, err, sizeof err));
	CHECK(wsConfigLoadFile(F->cfg, "configs/gtx480.cfg", NULL, 0) == WS_SUCCESS);
}
CASE(wsConfigSet)
{
	char err[256];
	EACH_BAD(ws_config, c)
	{
		CHECK_BAD(wsConfigSet(c, "warp_size", "32", err, sizeof err));
		CHECK_STR_CONTAINS(err, "wsConfigSet: ");
	}
	CHECK_INVALID(wsConfigSet(F->cfg, NULL, "32", err, sizeof err));
	CHECK_INVALID(wsConfigSet(F->cfg, "warp_size", NULL, err, sizeof err));
	CHECK(wsConfigSet(F->cfg, "warp_size", "16", NULL, 0) == WS_SUCCESS);
}
CASE(wsConfigGet)
{
	char buf[64];
	EACH_BAD(ws_config, c)
	CHECK(wsConfigGet(c, "warp_size", buf, sizeof buf) == NULL);
	CHECK(wsConfigGet(F->cfg, NULL, buf, sizeof buf) == NULL);
	CHECK(wsConfigGet(F->cfg, "warp_size", NULL, 64) == NULL);
	CHECK(wsConfigGet(F->cfg, "warp_size", buf, 0) == NULL);
}
CASE(wsConfigCheck)
{
	char err[256];
	EACH_BAD(ws_config, c)
	{
		CHECK_BAD(wsConfigCheck(c, err, sizeof err));
		CHECK_STR_CONTAINS(err, "wsConfigCheck: ");
	}
	CHECK(wsConfigCheck(F->cfg, NULL, 0) == WS_SUCCESS);
}
CASE(wsConfigHash)
{
	EACH_BAD(ws_config, c)
	CHECK(wsConfigHash(c) == 0);
	/* equal configurations hash equal; one parameter apart, not */
	ws_config *c = wsConfigClone(F->cfg);
	CHECK(c != NULL && wsConfigHash(c) == wsConfigHash(F->cfg) && wsConfigHash(c) != 0);
	CHECK(wsConfigSet(c, "num_sms", "3", NULL, 0) == WS_SUCCESS);
	CHECK(wsConfigHash(c) != wsConfigHash(F->cfg));
	wsConfigDestroy(c);
}
CASE(wsConfigPrintList)
{
	(void)F;
	wsConfigPrintList(NULL);
}
CASE(wsHostCores)
{
	(void)F;
	unsigned n = wsHostCores(); /* no handle to misuse: always at least 1 */
	CHECK(n >= 1 && n == wsHostCores());
}
CASE(wsConfigPrint)
{
	FILE *null = fopen("/dev/null", "w");
	EACH_BAD(ws_config, c)
	wsConfigPrint(c, null);
	wsConfigPrint(F->cfg, NULL);
	if (null)
		fclose(null);
}

/* ---- simulator ---- */
CASE(wsSimCreate)
{
	ws_sim *s = NULL;
	CHECK_INVALID(wsSimCreate(NULL, F->cfg));
	EACH_BAD(ws_config, c)
	if (c) /* NULL: the defaults */
		CHECK_BAD(wsSimCreate(&s, c));
	CHECK(s == NULL);
}
CASE(wsSimDestroy)
{
	EACH_BAD(ws_sim, s)
	wsSimDestroy(s); /* nothing happens: a second destroy, a foreign or stray pointer */
	CHECK(wsMemAlloc(F->sim, &(ws_deviceptr){0}, 16) == WS_SUCCESS); /* the live one is untouched */
}
CASE(wsSimLastError)
{
	EACH_BAD(ws_sim, s)
	CHECK_STR_CONTAINS(wsSimLastError(s), "wsSimLastError: ");
	(void)F;
}
CASE(wsSimConfig)
{
	EACH_BAD(ws_sim, s)
	CHECK(wsSimConfig(s) == NULL);
}
CASE(wsSimSetPrintfStream)
{
	EACH_BAD(ws_sim, s)
	wsSimSetPrintfStream(s, stdout);
	wsSimSetPrintfStream(F->sim, NULL); /* NULL discards */
}
static void misuse_progress(void *user, const ws_progress *p)
{
	(void)p;
	++*(int *)user;
}
CASE(wsSimSetProgress)
{
	int calls = 0;
	EACH_BAD(ws_sim, s)
	wsSimSetProgress(s, misuse_progress, &calls); /* nothing happens */
	wsSimSetProgress(F->sim, NULL, NULL);
	CHECK(calls == 0);
}
CASE(wsSimSetMallocHeapSize)
{
	EACH_BAD(ws_sim, s)
	CHECK_BAD(wsSimSetMallocHeapSize(s, 1 << 20));
}
CASE(wsSimHostWork)
{
	uint64_t a = 1, b = 1, c = 1;
	EACH_BAD(ws_sim, s)
	{
		wsSimHostWork(s, &a, &b, &c);
		CHECK(a == 0 && b == 0 && c == 0);
	}
	wsSimHostWork(F->sim, NULL, NULL, NULL);
}

/* ---- modules and functions ---- */
CASE(wsModuleLoad)
{
	ws_module *m = NULL;
	EACH_BAD(ws_sim, s)
	CHECK_BAD(wsModuleLoad(s, &m, "bench/vecadd/kernel.ptx"));
	CHECK_INVALID(wsModuleLoad(F->sim, NULL, "bench/vecadd/kernel.ptx"));
	CHECK_INVALID(wsModuleLoad(F->sim, &m, NULL));
	CHECK_STR_CONTAINS(wsSimLastError(F->sim), "wsModuleLoad: NULL path");
}
CASE(wsModuleLoadData)
{
	ws_module *m = NULL;
	EACH_BAD(ws_sim, s)
	CHECK_BAD(wsModuleLoadData(s, &m, misuse_ptx, "x.ptx"));
	CHECK_INVALID(wsModuleLoadData(F->sim, NULL, misuse_ptx, "x.ptx"));
	CHECK_INVALID(wsModuleLoadData(F->sim, &m, NULL, "x.ptx"));
	CHECK(wsModuleLoadData(F->sim, &m, misuse_ptx, NULL) == WS_SUCCESS); /* the name may be NULL */
}
CASE(wsModuleLoadDataRegs)
{
	ws_module *m = NULL;
	EACH_BAD(ws_sim, s)
	CHECK_BAD(wsModuleLoadDataRegs(s, &m, misuse_ptx, "x.ptx", "k 4\n", "sm_75"));
	CHECK_INVALID(wsModuleLoadDataRegs(F->sim, NULL, misuse_ptx, "x.ptx", NULL, NULL));
	CHECK_INVALID(wsModuleLoadDataRegs(F->sim, &m, NULL, "x.ptx", NULL, NULL));
	/* no counts, or counts of no kernel of it: loaded all the same */
	CHECK(wsModuleLoadDataRegs(F->sim, &m, misuse_ptx, NULL, NULL, NULL) == WS_SUCCESS);
	CHECK(wsModuleLoadDataRegs(F->sim, &m, misuse_ptx, NULL, "garbage", NULL) == WS_SUCCESS);
}
CASE(wsModuleUnload)
{
	EACH_BAD(ws_module, m)
	CHECK_BAD(wsModuleUnload(m));
	CHECK(wsModuleUnload(F->dead_mod) == WS_ERROR_INVALID_HANDLE);
	CHECK_STR_CONTAINS(wsSimLastError(F->sim), "wsModuleUnload: the module was unloaded");
	CHECK(wsModuleUnload((ws_module *)F->fn) == WS_ERROR_INVALID_HANDLE);
	CHECK_STR_CONTAINS(wsSimLastError(F->sim), "the handle is a ws_function, not a ws_module");
}
CASE(wsModuleWarnings)
{
	EACH_BAD(ws_module, m)
	CHECK(wsModuleWarnings(m) != NULL && *wsModuleWarnings(m) == 0);
}
CASE(wsModuleGetFunction)
{
	ws_function *f = NULL;
	EACH_BAD(ws_module, m)
	CHECK_BAD(wsModuleGetFunction(&f, m, "k"));
	CHECK_INVALID(wsModuleGetFunction(NULL, F->mod, "k"));
	CHECK_INVALID(wsModuleGetFunction(&f, F->mod, NULL));
}
CASE(wsModuleGetGlobal)
{
	ws_deviceptr d;
	size_t n;
	EACH_BAD(ws_module, m)
	CHECK_BAD(wsModuleGetGlobal(&d, &n, m, "g"));
	CHECK_INVALID(wsModuleGetGlobal(&d, &n, F->mod, NULL));
	CHECK(wsModuleGetGlobal(NULL, NULL, F->mod, "g") == WS_SUCCESS); /* either output may be NULL */
}
CASE(wsMemcpyToSymbol)
{
	uint32_t v = 1;
	EACH_BAD(ws_module, m)
	CHECK_BAD(wsMemcpyToSymbol(m, "g", &v, 4, 0));
	CHECK_INVALID(wsMemcpyToSymbol(F->mod, NULL, &v, 4, 0));
	CHECK_INVALID(wsMemcpyToSymbol(F->mod, "g", NULL, 4, 0));
}
CASE(wsMemcpyFromSymbol)
{
	uint32_t v = 1;
	EACH_BAD(ws_module, m)
	CHECK_BAD(wsMemcpyFromSymbol(m, "g", &v, 4, 0));
	CHECK_INVALID(wsMemcpyFromSymbol(F->mod, NULL, &v, 4, 0));
	CHECK_INVALID(wsMemcpyFromSymbol(F->mod, "g", NULL, 4, 0));
}
CASE(wsModulePrintSummary)
{
	FILE *null = fopen("/dev/null", "w");
	EACH_BAD(ws_module, m)
	wsModulePrintSummary(m, null);
	wsModulePrintSummary(F->mod, NULL);
	if (null)
		fclose(null);
}
CASE(wsModuleFunctionCount)
{
	EACH_BAD(ws_module, m)
	CHECK(wsModuleFunctionCount(m) == 0);
}
CASE(wsModuleFunctionName)
{
	EACH_BAD(ws_module, m)
	CHECK(wsModuleFunctionName(m, 0) == NULL);
	CHECK(wsModuleFunctionName(F->mod, -1) == NULL && wsModuleFunctionName(F->mod, 1 << 20) == NULL);
}
CASE(wsFunctionParamCount)
{
	EACH_BAD(ws_function, f)
	CHECK(wsFunctionParamCount(f) == 0);
}
CASE(wsFunctionParamSize)
{
	EACH_BAD(ws_function, f)
	CHECK(wsFunctionParamSize(f, 0) == 0);
	CHECK(wsFunctionParamSize(F->fn, -1) == 0 && wsFunctionParamSize(F->fn, 99) == 0);
}
CASE(wsFunctionName)
{
	EACH_BAD(ws_function, f)
	CHECK(wsFunctionName(f) == NULL);
}
CASE(wsFunctionGetInfo)
{
	ws_function_info info;
	EACH_BAD(ws_function, f)
	CHECK_BAD(wsFunctionGetInfo(f, &info));
	CHECK_INVALID(wsFunctionGetInfo(F->fn, NULL));
}
CASE(wsFunctionBackwardBranches)
{
	int32_t pcs[4];
	uint32_t lines[4];
	EACH_BAD(ws_function, f)
	CHECK(wsFunctionBackwardBranches(f, pcs, lines, 4) == 0);
	CHECK(wsFunctionBackwardBranches(F->fn, NULL, NULL, 4) == 0); /* counts only */
}
CASE(wsFunctionSetSpinBranches)
{
	int32_t pc = 0;
	EACH_BAD(ws_function, f)
	CHECK_BAD(wsFunctionSetSpinBranches(f, &pc, 1));
	CHECK_INVALID(wsFunctionSetSpinBranches(F->fn, NULL, 1));
	CHECK(wsFunctionSetSpinBranches(F->fn, NULL, 0) == WS_SUCCESS); /* clears */
}
CASE(wsFunctionGetSpinBranches)
{
	int32_t pcs[4];
	EACH_BAD(ws_function, f)
	CHECK(wsFunctionGetSpinBranches(f, pcs, 4) == 0);
	CHECK(wsFunctionGetSpinBranches(F->fn, NULL, 4) == 0);
}
CASE(wsFunctionOccupancy)
{
	unsigned n;
	EACH_BAD(ws_function, f)
	CHECK_BAD(wsFunctionOccupancy(f, 32, 0, &n));
	CHECK_INVALID(wsFunctionOccupancy(F->fn, 32, 0, NULL));
}

/* ---- device memory ---- */
CASE(wsMemAlloc)
{
	ws_deviceptr d;
	EACH_BAD(ws_sim, s)
	CHECK_BAD(wsMemAlloc(s, &d, 16));
	CHECK_INVALID(wsMemAlloc(F->sim, NULL, 16));
}
CASE(wsMemFree)
{
	ws_deviceptr d = 0;
	CHECK(wsMemAlloc(F->sim, &d, 16) == WS_SUCCESS);
	EACH_BAD(ws_sim, s)
	CHECK_BAD(wsMemFree(s, d));
	CHECK(wsMemFree(F->sim, d) == WS_SUCCESS);
	CHECK_INVALID(wsMemFree(F->sim, d)); /* a second free */
}
CASE(wsMemcpyHtoD)
{
	ws_deviceptr d = 0;
	uint32_t v[4] = {0};
	CHECK(wsMemAlloc(F->sim, &d, 16) == WS_SUCCESS);
	EACH_BAD(ws_sim, s)
	CHECK_BAD(wsMemcpyHtoD(s, d, v, 16));
	CHECK_INVALID(wsMemcpyHtoD(F->sim, d, NULL, 16));
}
CASE(wsMemcpyDtoH)
{
	ws_deviceptr d = 0;
	uint32_t v[4] = {0};
	CHECK(wsMemAlloc(F->sim, &d, 16) == WS_SUCCESS);
	EACH_BAD(ws_sim, s)
	CHECK_BAD(wsMemcpyDtoH(s, v, d, 16));
	CHECK_INVALID(wsMemcpyDtoH(F->sim, NULL, d, 16));
}
CASE(wsMemcpyDtoD)
{
	ws_deviceptr d = 0;
	CHECK(wsMemAlloc(F->sim, &d, 32) == WS_SUCCESS);
	EACH_BAD(ws_sim, s)
	CHECK_BAD(wsMemcpyDtoD(s, d, d + 16, 16));
}
CASE(wsMemsetD8)
{
	ws_deviceptr d = 0;
	CHECK(wsMemAlloc(F->sim, &d, 16) == WS_SUCCESS);
	EACH_BAD(ws_sim, s)
	CHECK_BAD(wsMemsetD8(s, d, 0, 16));
}
CASE(wsMemsetD32)
{
	ws_deviceptr d = 0;
	CHECK(wsMemAlloc(F->sim, &d, 16) == WS_SUCCESS);
	EACH_BAD(ws_sim, s)
	CHECK_BAD(wsMemsetD32(s, d, 0, 4));
}

/* ---- arrays, textures, surfaces ---- */
static const ws_channel_format misuse_f32 = {32, 0, 0, 0, WS_CHANNEL_FLOAT};
CASE(wsArrayCreate)
{
	ws_array *a = NULL;
	EACH_BAD(ws_sim, s)
	CHECK_BAD(wsArrayCreate(s, &a, &misuse_f32, 16, 0, 0, 0));
	CHECK_INVALID(wsArrayCreate(F->sim, NULL, &misuse_f32, 16, 0, 0, 0));
	CHECK_INVALID(wsArrayCreate(F->sim, &a, NULL, 16, 0, 0, 0));
}
CASE(wsArrayDestroy)
{
	EACH_BAD(ws_array, a)
	CHECK_BAD(wsArrayDestroy(a));
	CHECK(wsArrayDestroy(F->dead_arr) == WS_ERROR_INVALID_HANDLE); /* a second destroy */
	CHECK_STR_CONTAINS(wsSimLastError(F->sim), "wsArrayDestroy: the array was destroyed");
}
CASE(wsArrayGetInfo)
{
	ws_array_info info;
	EACH_BAD(ws_array, a)
	CHECK_BAD(wsArrayGetInfo(a, &info));
	CHECK_INVALID(wsArrayGetInfo(F->arr, NULL));
}
CASE(wsMemcpyToArray)
{
	float v[16] = {0};
	EACH_BAD(ws_array, a)
	CHECK_BAD(wsMemcpyToArray(a, v, sizeof v));
	CHECK_INVALID(wsMemcpyToArray(F->arr, NULL, sizeof v));
}
CASE(wsMemcpyFromArray)
{
	float v[16] = {0};
	EACH_BAD(ws_array, a)
	CHECK_BAD(wsMemcpyFromArray(v, a, sizeof v));
	CHECK_INVALID(wsMemcpyFromArray(NULL, F->arr, sizeof v));
}
CASE(wsTextureCreate)
{
	ws_texobject tex = 0;
	ws_resource_desc res = {.type = WS_RESOURCE_ARRAY, .array = F->arr};
	ws_texture_desc desc = {{WS_ADDRESS_CLAMP, WS_ADDRESS_CLAMP, WS_ADDRESS_CLAMP}, WS_FILTER_POINT,
				WS_READ_ELEMENT_TYPE, 0, {0, 0, 0, 0}};
	EACH_BAD(ws_sim, s)
	CHECK_BAD(wsTextureCreate(s, &tex, &res, &desc));
	CHECK_INVALID(wsTextureCreate(F->sim, NULL, &res, &desc));
	CHECK_INVALID(wsTextureCreate(F->sim, &tex, NULL, &desc));
	CHECK_INVALID(wsTextureCreate(F->sim, &tex, &res, NULL));
	EACH_BAD(ws_array, a) /* the resource's array is a handle too */
	{
		res.array = a;
		CHECK(wsTextureCreate(F->sim, &tex, &res, &desc) != WS_SUCCESS);
	}
}
CASE(wsTextureDestroy)
{
	ws_texobject tex = 0;
	ws_resource_desc res = {.type = WS_RESOURCE_ARRAY, .array = F->arr};
	ws_texture_desc desc = {{WS_ADDRESS_CLAMP, WS_ADDRESS_CLAMP, WS_ADDRESS_CLAMP}, WS_FILTER_POINT,
				WS_READ_ELEMENT_TYPE, 0, {0, 0, 0, 0}};
	CHECK(wsTextureCreate(F->sim, &tex, &res, &desc) == WS_SUCCESS);
	EACH_BAD(ws_sim, s)
	CHECK_BAD(wsTextureDestroy(s, tex));
	CHECK(wsTextureDestroy(F->sim, tex) == WS_SUCCESS);
	CHECK_INVALID(wsTextureDestroy(F->sim, tex)); /* a second destroy */
}
CASE(wsSurfaceCreate)
{
	ws_surfobject surf = 0;
	ws_resource_desc res = {.type = WS_RESOURCE_ARRAY, .array = F->arr};
	EACH_BAD(ws_sim, s)
	CHECK_BAD(wsSurfaceCreate(s, &surf, &res));
	CHECK_INVALID(wsSurfaceCreate(F->sim, NULL, &res));
	CHECK_INVALID(wsSurfaceCreate(F->sim, &surf, NULL));
	EACH_BAD(ws_array, a)
	{
		res.array = a;
		CHECK(wsSurfaceCreate(F->sim, &surf, &res) != WS_SUCCESS);
	}
}
CASE(wsSurfaceDestroy)
{
	ws_surfobject surf = 0;
	ws_resource_desc res = {.type = WS_RESOURCE_ARRAY, .array = F->arr};
	CHECK(wsSurfaceCreate(F->sim, &surf, &res) == WS_SUCCESS);
	EACH_BAD(ws_sim, s)
	CHECK_BAD(wsSurfaceDestroy(s, surf));
	CHECK(wsSurfaceDestroy(F->sim, surf) == WS_SUCCESS);
	CHECK_INVALID(wsSurfaceDestroy(F->sim, surf));
}

/* ---- launch ---- */
CASE(wsLaunchKernel)
{
	uint64_t p = 0;
	void *params[] = {&p};
	EACH_BAD(ws_function, f)
	CHECK_BAD(wsLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, params));
	CHECK_INVALID(wsLaunchKernel(F->fn, 1, 1, 1, 32, 1, 1, 0, NULL));
	void *nullparam[] = {NULL};
	CHECK_INVALID(wsLaunchKernel(F->fn, 1, 1, 1, 32, 1, 1, 0, nullparam));
	/* after wsSimDestroy, a launch of one of its functions */
	CHECK(wsLaunchKernel(F->orphan_fn, 1, 1, 1, 32, 1, 1, 0, params) == WS_ERROR_INVALID_HANDLE);
}
CASE(wsLaunchCooperativeKernel)
{
	uint64_t p = 0;
	void *params[] = {&p};
	EACH_BAD(ws_function, f)
	CHECK_BAD(wsLaunchCooperativeKernel(f, 1, 1, 1, 32, 1, 1, 0, params));
	CHECK_INVALID(wsLaunchCooperativeKernel(F->fn, 1, 1, 1, 32, 1, 1, 0, NULL));
}

/* ---- statistics and traces ---- */
CASE(wsStatsGet)
{
	uint64_t v;
	EACH_BAD(ws_sim, s)
	CHECK_BAD(wsStatsGet(s, "cycles", &v));
	CHECK_INVALID(wsStatsGet(F->sim, NULL, &v));
	CHECK(wsStatsGet(F->sim, "cycles", NULL) == WS_SUCCESS);
}
CASE(wsStatsReset)
{
	EACH_BAD(ws_sim, s)
	wsStatsReset(s);
}
CASE(wsStatsGetDerived)
{
	double v;
	EACH_BAD(ws_sim, s)
	CHECK_BAD(wsStatsGetDerived(s, "ipc", &v));
	CHECK_INVALID(wsStatsGetDerived(F->sim, NULL, &v));
}
CASE(wsLaunchCount)
{
	EACH_BAD(ws_sim, s)
	CHECK(wsLaunchCount(s) == 0);
}
CASE(wsLaunchKernelName)
{
	EACH_BAD(ws_sim, s)
	CHECK(wsLaunchKernelName(s, 0) == NULL);
}
CASE(wsLaunchStatsGet)
{
	uint64_t v;
	EACH_BAD(ws_sim, s)
	CHECK_BAD(wsLaunchStatsGet(s, 0, "cycles", &v));
	CHECK_INVALID(wsLaunchStatsGet(F->sim, 0, NULL, &v));
}
CASE(wsLaunchStatsWriteJSON)
{
	EACH_BAD(ws_sim, s)
	CHECK_BAD(wsLaunchStatsWriteJSON(s, 0, stdout));
	CHECK_INVALID(wsLaunchStatsWriteJSON(F->sim, 0, NULL));
	CHECK(wsLaunchStatsWriteJSON(F->sim, 1u << 30, stdout) == WS_ERROR_NOT_FOUND);
}
CASE(wsLaunchOccupancy)
{
	ws_occupancy o;
	EACH_BAD(ws_sim, s)
	CHECK_BAD(wsLaunchOccupancy(s, 0, &o));
	CHECK_INVALID(wsLaunchOccupancy(F->sim, 0, NULL));
	CHECK(wsLaunchOccupancy(F->sim, 1u << 30, &o) == WS_ERROR_NOT_FOUND);
}
CASE(wsOccupancyPrint)
{
	FILE *null = fopen("/dev/null", "w");
	EACH_BAD(ws_sim, s)
	wsOccupancyPrint(s, null, "x");
	wsOccupancyPrint(F->sim, NULL, NULL);
	if (null)
		wsOccupancyPrint(F->sim, null, NULL);
	if (null)
		fclose(null);
}
CASE(wsStatsPrint)
{
	FILE *null = fopen("/dev/null", "w");
	EACH_BAD(ws_sim, s)
	wsStatsPrint(s, null);
	wsStatsPrint(F->sim, NULL);
	if (null)
		fclose(null);
}
CASE(wsStatsWriteJSON)
{
	EACH_BAD(ws_sim, s)
	CHECK_BAD(wsStatsWriteJSON(s, stdout));
	CHECK_INVALID(wsStatsWriteJSON(F->sim, NULL));
}
CASE(wsTraceInfo)
{
	uint64_t a, b;
	EACH_BAD(ws_sim, s)
	CHECK_BAD(wsTraceInfo(s, &a, &b));
	CHECK(wsTraceInfo(F->sim, NULL, NULL) == WS_SUCCESS);
}
CASE(wsTraceWriteChrome)
{
	EACH_BAD(ws_sim, s)
	CHECK_BAD(wsTraceWriteChrome(s, stdout));
	CHECK_INVALID(wsTraceWriteChrome(F->sim, NULL));
}
CASE(wsTimelineWriteSVG)
{
	EACH_BAD(ws_sim, s)
	CHECK_BAD(wsTimelineWriteSVG(s, stdout, 0, 0, 0, 0));
	CHECK_INVALID(wsTimelineWriteSVG(F->sim, NULL, 0, 0, 0, 0));
}

/* Every entry point of include/warpsim.h, each with its case above. */
#define MISUSE_CASES(X)                                                                                              \
	X(wsGetErrorString) X(wsGetErrorName) X(wsSchedPolicyName) X(wsSchedPolicyDescription) X(wsSchedWrapperName) \
	X(wsSchedWrapperDescription) X(wsFetchPolicyName) X(wsFetchPolicyDescription) X(wsSchedCheck)                \
	X(wsSchedPolicyCounterName) X(wsSchedWrapperCounterName) X(wsConfigCreate) X(wsConfigDestroy)                \
	X(wsConfigClone) X(wsConfigLoadFile) X(wsConfigSet) X(wsConfigGet) X(wsConfigCheck)                          \
	X(wsConfigHash) X(wsConfigPrintList)                                                                         \
	X(wsConfigPrint) X(wsHostCores) X(wsSimCreate) X(wsSimDestroy) X(wsSimLastError) X(wsSimConfig) X(wsSimSetPrintfStream)     \
	X(wsSimSetProgress) X(wsSimSetMallocHeapSize) X(wsSimHostWork) X(wsModuleLoad) X(wsModuleLoadData) X(wsModuleLoadDataRegs) X(wsModuleUnload)             \
	X(wsModuleWarnings) X(wsModuleGetFunction) X(wsModuleGetGlobal) X(wsMemcpyToSymbol) X(wsMemcpyFromSymbol)    \
	X(wsModulePrintSummary) X(wsModuleFunctionCount) X(wsModuleFunctionName) X(wsFunctionParamCount)             \
	X(wsFunctionParamSize) X(wsFunctionName) X(wsFunctionGetInfo) X(wsFunctionBackwardBranches)                  \
	X(wsFunctionSetSpinBranches) X(wsFunctionGetSpinBranches) X(wsFunctionOccupancy) X(wsMemAlloc) X(wsMemFree)  \
	X(wsMemcpyHtoD) X(wsMemcpyDtoH) X(wsMemcpyDtoD) X(wsMemsetD8) X(wsMemsetD32) X(wsArrayCreate)                \
	X(wsArrayDestroy) X(wsArrayGetInfo) X(wsMemcpyToArray) X(wsMemcpyFromArray) X(wsTextureCreate)               \
	X(wsTextureDestroy) X(wsSurfaceCreate) X(wsSurfaceDestroy) X(wsLaunchKernel) X(wsLaunchCooperativeKernel)    \
	X(wsStatsGet) X(wsStatsReset) X(wsStatsGetDerived) X(wsLaunchCount) X(wsLaunchKernelName)                    \
	X(wsLaunchStatsGet) X(wsLaunchStatsWriteJSON) X(wsLaunchOccupancy) X(wsOccupancyPrint) X(wsStatsPrint) X(wsStatsWriteJSON)             \
	X(wsTraceInfo) X(wsTraceWriteChrome) X(wsTimelineWriteSVG)

static const struct misuse_case {
	const char *name;
	void (*run)(struct test_ctx *t, struct fx *F);
} misuse_cases[] = {
#define X(fn) {#fn, case_##fn},
	MISUSE_CASES(X)
#undef X
};

/* Each case on fresh objects: a case's own creations cannot revive another's destroyed handles. */
TEST(api_misuse_every_entry_point)
{
	for (size_t i = 0; i < sizeof misuse_cases / sizeof *misuse_cases; i++) {
		struct fx F;
		int before = t->failures;
		if (fx_make(t, &F))
			misuse_cases[i].run(t, &F);
		fx_free(&F);
		if (t->failures != before)
			fprintf(stderr, "  (in the case of %s)\n", misuse_cases[i].name);
	}
}

/* The header's declarations, comments removed: every ws* function declared
 * has a case above, and every case names a declared function, so a new entry
 * point without a misuse case fails here. */
TEST(api_misuse_covers_every_declaration)
{
	char *h = cli_slurp("include/warpsim.h", NULL);
	CHECK_MSG(h != NULL, "cannot read include/warpsim.h (the tests run from the repository root)");
	if (!h)
		return;
	for (char *c = strstr(h, "/*"); c; c = strstr(c, "/*")) { /* blank the comments */
		char *e = strstr(c + 2, "*/");
		size_t n = e ? (size_t)(e + 2 - c) : strlen(c);
		memset(c, ' ', n);
	}
	for (char *c = strstr(h, "//"); c; c = strstr(c, "//"))
		while (*c && *c != '\n')
			*c++ = ' ';
	size_t ncases = sizeof misuse_cases / sizeof *misuse_cases;
	bool seen[sizeof misuse_cases / sizeof *misuse_cases] = {false};
	unsigned declared = 0;
	for (const char *p = h; (p = strstr(p, "ws")) != NULL; p++) {
		if (p > h && (isalnum((unsigned char)p[-1]) || p[-1] == '_'))
			continue;
		if (!isupper((unsigned char)p[2]))
			continue;
		size_t n = 2;
		while (isalnum((unsigned char)p[n]) || p[n] == '_')
			n++;
		const char *q = p + n;
		while (*q == ' ' || *q == '\t')
			q++;
		if (*q != '(')
			continue;
		declared++;
		bool found = false;
		for (size_t i = 0; i < ncases; i++)
			if (strlen(misuse_cases[i].name) == n && !strncmp(misuse_cases[i].name, p, n))
				found = seen[i] = true;
		CHECK_MSG(found, "include/warpsim.h declares %.*s but tests/test_api_misuse.c has no misuse case for it "
				 "(add one to MISUSE_CASES)", (int)n, p);
	}
	for (size_t i = 0; i < ncases; i++)
		CHECK_MSG(seen[i], "misuse case %s: include/warpsim.h declares no such function", misuse_cases[i].name);
	CHECK_MSG(declared >= 70, "found only %u declarations in include/warpsim.h", declared);
	free(h);
}

/* Handles made and destroyed on several threads at once while others look
 * theirs up (the registry is process-wide; make tsan runs this). */
static void *handles_worker(void *arg)
{
	int *bad = arg;
	for (int i = 0; i < 20; i++) {
		ws_config *c = wsConfigCreate();
		ws_sim *s = NULL;
		if (!c || wsSimCreate(&s, c) != WS_SUCCESS) {
			(*bad)++;
			wsConfigDestroy(c);
			continue;
		}
		ws_deviceptr d;
		*bad += wsMemAlloc(s, &d, 64) != WS_SUCCESS;
		*bad += wsConfigSet(c, "warp_size", "16", NULL, 0) != WS_SUCCESS;
		wsConfigDestroy(c);
		*bad += wsConfigSet(c, "warp_size", "16", NULL, 0) == WS_SUCCESS && wsConfigClone(c) == NULL;
		wsSimDestroy(s);
	}
	return NULL;
}

TEST(threads_api_handles_concurrent)
{
	pthread_t th[4];
	int bad[4] = {0};
	for (int i = 0; i < 4; i++)
		CHECK(pthread_create(&th[i], NULL, handles_worker, &bad[i]) == 0);
	for (int i = 0; i < 4; i++) {
		pthread_join(th[i], NULL);
		CHECK_MSG(bad[i] == 0, "thread %d: %d calls did not do what they should", i, bad[i]);
	}
}

/* ---- the examples of README.md and include/warpsim.h compile, and the README's runs ---- */

/* The lines between the line holding `begin` and the one holding `end`
 * (malloc'd): in a C comment (comment), less their " *   " margin; in
 * Markdown, less the code fences. */
static char *example_extract(struct test_ctx *t, const char *path, const char *begin, const char *end, bool comment)
{
	char *text = cli_slurp(path, NULL);
	CHECK_MSG(text != NULL, "cannot read %s", path);
	char *b = text ? strstr(text, begin) : NULL, *e = b ? strstr(b, end) : NULL;
	CHECK_MSG(b && e, "%s: no example between \"%s\" and \"%s\"", path, begin, end);
	while (e && e > b && e[-1] != '\n') /* the end marker's whole line goes */
		e--;
	char *out = b && e ? malloc((size_t)(e - b) + 1) : NULL;
	if (out) {
		size_t n = 0;
		for (char *l = strchr(b, '\n') + 1; l < e;) {
			char *nl = strchr(l, '\n');
			size_t len = (size_t)(nl - l);
			if (comment) {
				size_t skip = 0;
				while (skip < len && (l[skip] == ' ' || (skip < 2 && l[skip] == '*')) && skip < 5)
					skip++;
				l += skip;
				len -= skip;
			}
			if (comment || strncmp(l, "```", 3) != 0) {
				memcpy(out + n, l, len);
				n += len;
				out[n++] = '\n';
			}
			l = nl + 1;
		}
		out[n] = 0;
	}
	free(text);
	return out;
}

static bool write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	if (!f)
		return false;
	bool ok = fputs(text, f) >= 0;
	return fclose(f) == 0 && ok;
}

/* Run a shell command, its stdout and stderr to out_path; its exit status, or -1. */
static int run_cmd(const char *cmd, const char *out_path)
{
	char full[4096];
	if ((size_t)snprintf(full, sizeof full, "( %s ) > %s 2>&1", cmd, out_path) >= sizeof full)
		return -1;
	int st = system(full);
	return st == -1 || !WIFEXITED(st) ? -1 : WEXITSTATUS(st);
}

static const char *env_or(const char *name, const char *def)
{
	const char *v = getenv(name);
	return v && *v ? v : def;
}

TEST(api_examples_compile_and_run)
{
	const char *cc = env_or("WARPSIM_CC", "cc"), *cflags = env_or("WARPSIM_CFLAGS", "");
	const char *lib = env_or("WARPSIM_LIB", "build/libwarpsim.a");
	char dir[512], cmd[1536], log[600];
	snprintf(dir, sizeof dir, "%.*s/api-examples", (int)(strrchr(lib, '/') ? strrchr(lib, '/') - lib : 1),
		 strrchr(lib, '/') ? lib : ".");
	snprintf(cmd, sizeof cmd, "rm -rf %s && mkdir -p %s/run", dir, dir);
	CHECK(run_cmd(cmd, "/dev/null") == 0);
	snprintf(log, sizeof log, "%s/log", dir);
	char *hdr = example_extract(t, "include/warpsim.h", "--- example: include/warpsim.h ---", "--- end of example ---", true);
	char *rdm = example_extract(t, "README.md", "<!-- example: README.md -->", "<!-- end of example -->", false);
	char path[600];
	if (hdr) {
		snprintf(path, sizeof path, "%s/header.c", dir);
		CHECK(write_text(path, hdr));
		snprintf(cmd, sizeof cmd, "%s %s -std=c11 -Wall -Wextra -Werror -Iinclude -c %s -o %s/header.o", cc, cflags,
			 path, dir);
		int rc = run_cmd(cmd, log);
		char *msg = cli_slurp(log, NULL);
		CHECK_MSG(rc == 0, "the example of include/warpsim.h does not compile (%s):\n%s", cmd, msg ? msg : "");
		free(msg);
	}
	if (rdm) {
		snprintf(path, sizeof path, "%s/readme.c", dir);
		CHECK(write_text(path, rdm));
		snprintf(cmd, sizeof cmd, "%s %s -std=c11 -Wall -Wextra -Werror -Iinclude %s %s -lm -lpthread -o %s/readme", cc,
			 cflags, path, lib, dir);
		int rc = run_cmd(cmd, log);
		char *msg = cli_slurp(log, NULL);
		CHECK_MSG(rc == 0, "the example of README.md does not compile (%s):\n%s", cmd, msg ? msg : "");
		free(msg);
		if (rc == 0) {
			/* no kernel.ptx: a clean error exit naming the file */
			snprintf(cmd, sizeof cmd, "cd %s/run && ../readme", dir);
			rc = run_cmd(cmd, log);
			msg = cli_slurp(log, NULL);
			CHECK_MSG(rc == 1, "README example without kernel.ptx: exit %d, not 1:\n%s", rc, msg ? msg : "");
			CHECK_STR_CONTAINS(msg, "WS_ERROR_FILE_NOT_FOUND: kernel.ptx: cannot open");
			free(msg);
			/* the bundled vecadd kernel: the right sums */
			snprintf(cmd, sizeof cmd, "cp bench/vecadd/kernel.ptx %s/run/ && cd %s/run && ../readme", dir, dir);
			rc = run_cmd(cmd, log);
			msg = cli_slurp(log, NULL);
			CHECK_MSG(rc == 0, "README example with bench/vecadd/kernel.ptx: exit %d:\n%s", rc, msg ? msg : "");
			CHECK_STR_CONTAINS(msg, "c[999] = 2997 in ");
			free(msg);
		}
	}
	free(hdr);
	free(rdm);
}
