/*
 * test_api_misuse.c -- the C API misused as a new user would (issue 26):
 * NULL arguments, handles of an unloaded module and its functions, a second
 * unload, zero-byte allocations, an oversized heap, failing getters.  Each
 * call must return an error (and leave the reason in wsSimLastError where
 * there is a simulator), never crash; the sanitizer build (make asan) runs
 * these, so a use after free fails there.
 */
#include <stdio.h>
#include <stdint.h>
#include <string.h>

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
	CHECK(wsLaunchKernel(NULL, 1, 1, 1, 1, 1, 1, 0, NULL) == WS_ERROR_INVALID_VALUE);
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
	CHECK(wsModuleUnload(m) == WS_ERROR_INVALID_VALUE);
	CHECK_STR_CONTAINS(wsSimLastError(sim), "wsModuleUnload: the module was unloaded");
	ws_function *g = NULL;
	CHECK(wsModuleGetFunction(&g, m, "k") == WS_ERROR_INVALID_VALUE);
	ws_deviceptr d;
	size_t n;
	CHECK(wsModuleGetGlobal(&d, &n, m, "g") == WS_ERROR_INVALID_VALUE);
	uint32_t v = 1;
	CHECK(wsMemcpyToSymbol(m, "g", &v, 4, 0) == WS_ERROR_INVALID_VALUE);
	CHECK(wsMemcpyFromSymbol(m, "g", &v, 4, 0) == WS_ERROR_INVALID_VALUE);
	CHECK(wsModuleFunctionCount(m) == 0);
	CHECK(wsModuleFunctionName(m, 0) == NULL);
	CHECK(wsFunctionName(f) == NULL);
	CHECK(wsFunctionParamCount(f) == 0);
	unsigned ctas = 0;
	CHECK(wsFunctionOccupancy(f, 32, 0, &ctas) == WS_ERROR_INVALID_VALUE);
	uint64_t p = 0;
	void *params[] = {&p};
	CHECK(wsLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, params) == WS_ERROR_INVALID_VALUE);
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
