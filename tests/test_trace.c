/*
 * test_trace.c -- warp-phase tracking: RTRU on a synthetic phase with a known
 * imbalance, consistency of the RTRU counters with the phase records, and
 * the SVG timeline and Chrome-trace writers.
 */
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "warpsim.h"

#define PHASES_PTX TEST_DATA_DIR "/ptx/func/phases.ptx"

static ws_sim *open_sim(struct test_ctx *t, ws_module **mod)
{
	ws_config *cfg = wsConfigCreate();
	char err[256];
	CHECK(wsConfigSet(cfg, "trace_phases", "true", err, sizeof err) == WS_SUCCESS);
	CHECK(wsConfigSet(cfg, "num_sms", "1", err, sizeof err) == WS_SUCCESS);
	ws_sim *sim = NULL;
	CHECK(wsSimCreate(&sim, cfg) == WS_SUCCESS);
	wsConfigDestroy(cfg);
	if (!sim)
		return NULL;
	CHECK_MSG(wsModuleLoad(sim, mod, PHASES_PTX) == WS_SUCCESS, "%s", wsSimLastError(sim));
	return sim;
}

TEST(trace_rtru_synthetic_phase)
{
	ws_module *mod = NULL;
	ws_sim *sim = open_sim(t, &mod);
	if (!sim || !mod)
		return;
	ws_function *f;
	CHECK(wsModuleGetFunction(&f, mod, "imbalance") == WS_SUCCESS);
	ws_deviceptr out;
	wsMemAlloc(sim, &out, 4 * 128);
	long long delay = 20000;
	void *args[] = {&delay, &out};
	/* one CTA of 4 warps: warps 0, 2, 3 reach the barrier at once, warp 1 after ~delay cycles */
	CHECK_MSG(wsLaunchKernel(f, 1, 1, 1, 128, 1, 1, 0, args) == WS_SUCCESS, "%s", wsSimLastError(sim));
	uint64_t phases = 0, ppm = 0;
	wsStatsGet(sim, "warp_phases", &phases);
	wsStatsGet(sim, "rtru_ppm_sum", &ppm);
	CHECK_EQ(phases, 2); /* the barrier, then the exit point */
	/* phase 0: T1 ~ delay, the others ~ T0 << delay: RTRU = 3 (maxT - T0) / (4 maxT) ~ 0.75 */
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	wsTraceWriteChrome(sim, m);
	fclose(m);
	CHECK_STR_CONTAINS(buf, "\"traceEvents\"");
	CHECK_STR_CONTAINS(buf, "barrier wait");
	CHECK_STR_CONTAINS(buf, "exit wait");
	free(buf);
	/* total RTRU: phase 0 ~0.75, exit phase small */
	double mean = (double)ppm / 1e6 / (double)phases;
	CHECK_MSG(ppm > 700000 && ppm < 760000 + 250000, "RTRU sum %.3f not ~0.75 + small", (double)ppm / 1e6);
	CHECK_MSG(mean > 0.35 && mean < 0.5, "mean RTRU %.3f", mean);
	/* barrier waiting: three warps waited ~delay cycles each */
	uint64_t wb = 0;
	wsStatsGet(sim, "warp_barrier_cycles", &wb);
	CHECK_MSG(wb > 3 * (uint64_t)delay * 9 / 10 && wb < 3 * (uint64_t)delay * 12 / 10, "barrier cycles %llu",
		  (unsigned long long)wb);
	/* SVG timeline of SM 0 */
	buf = NULL;
	m = open_memstream(&buf, &len);
	CHECK(wsTimelineWriteSVG(sim, m, 0, 0, 0, 0) == WS_SUCCESS);
	fclose(m);
	CHECK_STR_CONTAINS(buf, "<svg");
	CHECK_STR_CONTAINS(buf, "CTA 0 w3");
	CHECK_STR_CONTAINS(buf, "phase 0");
	free(buf);
	/* an SM that ran nothing gives an explanatory empty picture */
	buf = NULL;
	m = open_memstream(&buf, &len);
	CHECK(wsTimelineWriteSVG(sim, m, 0, 5, 0, 0) == WS_ERROR_NOT_FOUND);
	fclose(m);
	CHECK_STR_CONTAINS(buf, "nothing to draw: SM 5 ran no CTA of launch 1: SMs 0-0 did");
	CHECK_STR_CONTAINS(wsSimLastError(sim), "SM 5 ran no CTA of launch 1");
	free(buf);
	/* a launch that does not exist, CTAs the SM did not run */
	buf = NULL;
	m = open_memstream(&buf, &len);
	CHECK(wsTimelineWriteSVG(sim, m, 5, 0, 0, 0) == WS_ERROR_NOT_FOUND);
	fclose(m);
	CHECK_STR_CONTAINS(wsSimLastError(sim), "launch 5 has no records: the run had launches 1-1");
	free(buf);
	buf = NULL;
	m = open_memstream(&buf, &len);
	CHECK(wsTimelineWriteSVG(sim, m, 0, 0, 7, 9) == WS_ERROR_NOT_FOUND);
	fclose(m);
	CHECK_STR_CONTAINS(wsSimLastError(sim), "SM 0 ran none of CTAs 7-9 in launch 1: it ran CTAs between 0 and 0");
	free(buf);
	CHECK(wsTimelineWriteSVG(sim, stdout, 0, 0, 3, 2) == WS_ERROR_INVALID_VALUE);
	wsSimDestroy(sim);
}

TEST(trace_balanced_phase_has_low_rtru)
{
	ws_module *mod = NULL;
	ws_sim *sim = open_sim(t, &mod);
	if (!sim || !mod)
		return;
	ws_function *f;
	CHECK(wsModuleGetFunction(&f, mod, "imbalance") == WS_SUCCESS);
	ws_deviceptr out;
	wsMemAlloc(sim, &out, 4 * 128);
	long long delay = 0;
	void *args[] = {&delay, &out};
	CHECK(wsLaunchKernel(f, 1, 1, 1, 128, 1, 1, 0, args) == WS_SUCCESS);
	uint64_t phases = 0, ppm = 0;
	wsStatsGet(sim, "warp_phases", &phases);
	wsStatsGet(sim, "rtru_ppm_sum", &ppm);
	CHECK_EQ(phases, 2);
	CHECK_MSG(ppm < 400000, "RTRU sum %.3f for a balanced kernel", (double)ppm / 1e6);
	wsSimDestroy(sim);
}
