/*
 * test_incremental.c -- the issue and fetch stages' incremental state
 * (issue 14; src/core/issue.c, fetch.c): free operand-collector counts kept
 * on collector events, the next decode-latency expiry, and the fetch
 * candidates and per-scheduler ready sets in fixed-size bitmaps
 * (SM_MAX_SLOTS slots, SM_MAX_SCHED schedulers).  Bit-identical
 * statistics are pinned by the golden files; these tests cover what they
 * do not: the bitmaps span the whole range of max_warps_per_sm, and an SM
 * full of warps (every bitmap word in use) runs right with barriers,
 * divergence and global memory.
 */
#include <stdlib.h>
#include <string.h>

#include "core/sm.h"
#include "test.h"
#include "warpsim.h"

/* The slot bitmaps are sized for the largest max_warps_per_sm and
 * num_schedulers the configuration accepts, and no larger value is accepted. */
TEST(incremental_slot_bitmaps_cover_config_range)
{
	char buf[32], err[256];
	ws_config *cfg = wsConfigCreate();
	CHECK(cfg != NULL);
	if (!cfg)
		return;
	snprintf(buf, sizeof buf, "%d", SM_MAX_SLOTS);
	CHECK_MSG(wsConfigSet(cfg, "max_warps_per_sm", buf, err, sizeof err) == WS_SUCCESS, "%s", err);
	snprintf(buf, sizeof buf, "%d", SM_MAX_SLOTS + 1);
	CHECK_MSG(wsConfigSet(cfg, "max_warps_per_sm", buf, err, sizeof err) != WS_SUCCESS,
		  "max_warps_per_sm=%s accepted: the fetch bitmaps of struct sm hold %d slots", buf, SM_MAX_SLOTS);
	snprintf(buf, sizeof buf, "%d", SM_MAX_SCHED);
	CHECK_MSG(wsConfigSet(cfg, "num_schedulers", buf, err, sizeof err) == WS_SUCCESS, "%s", err);
	snprintf(buf, sizeof buf, "%d", SM_MAX_SCHED + 1);
	CHECK_MSG(wsConfigSet(cfg, "num_schedulers", buf, err, sizeof err) != WS_SUCCESS,
		  "num_schedulers=%s accepted: the ready bitmaps of struct sm hold %d schedulers", buf, SM_MAX_SCHED);
	wsConfigDestroy(cfg);
}

/* out[i] = in[i] * 3 + (tid odd ? 7 : 1) * 4 after four barrier-separated
 * rounds, with a divergent branch per round and a global load per thread. */
static const char full_ptx[] =
	".version 7.0\n.target sm_70\n.address_size 64\n"
	".visible .entry full(.param .u64 in, .param .u64 out)\n{\n"
	"	.reg .pred %p<3>;\n	.reg .b32 %r<16>;\n	.reg .b64 %rd<8>;\n"
	"	mov.u32 %r1, %tid.x;\n	mov.u32 %r2, %ctaid.x;\n	mov.u32 %r3, %ntid.x;\n"
	"	mad.lo.u32 %r4, %r2, %r3, %r1;\n"
	"	ld.param.u64 %rd1, [in];\n	cvta.to.global.u64 %rd1, %rd1;\n"
	"	ld.param.u64 %rd2, [out];\n	cvta.to.global.u64 %rd2, %rd2;\n"
	"	mul.wide.u32 %rd3, %r4, 4;\n	add.u64 %rd4, %rd1, %rd3;\n	add.u64 %rd5, %rd2, %rd3;\n"
	"	ld.global.u32 %r5, [%rd4];\n	mul.lo.u32 %r6, %r5, 3;\n"
	"	and.b32 %r7, %r1, 1;\n	setp.ne.u32 %p2, %r7, 0;\n	mov.u32 %r9, 0;\n"
	"ROUND:\n"
	"	@%p2 bra ODD;\n	add.u32 %r6, %r6, 1;\n	bra.uni JOIN;\n"
	"ODD:\n	add.u32 %r6, %r6, 7;\n"
	"JOIN:\n	bar.sync 0;\n"
	"	add.u32 %r9, %r9, 1;\n	setp.lt.u32 %p1, %r9, 4;\n	@%p1 bra ROUND;\n"
	"	st.global.u32 [%rd5], %r6;\n"
	"	ret;\n}\n";

/* One SM with SM_MAX_SLOTS resident warps (every word of the slot bitmaps),
 * SM_MAX_SCHED schedulers, under gto and lrr: results right, every warp ran. */
TEST(incremental_full_sm)
{
	const unsigned block = 1024, grid = SM_MAX_SLOTS * 32 / 1024;
	const size_t n = (size_t)grid * block;
	char slots[16], threads[16], nsched[16];
	snprintf(nsched, sizeof nsched, "%d", SM_MAX_SCHED);
	snprintf(slots, sizeof slots, "%d", SM_MAX_SLOTS);
	snprintf(threads, sizeof threads, "%d", SM_MAX_SLOTS * 32);
	static const char *const policies[] = {"gto", "lrr"};
	uint32_t *h = malloc(n * 4), *o = malloc(n * 4);
	CHECK(h && o);
	if (!h || !o) {
		free(h);
		free(o);
		return;
	}
	for (size_t i = 0; i < n; i++)
		h[i] = (uint32_t)(i * 2654435761u);
	for (int p = 0; p < 2; p++) {
		const char *const kv[] = {"num_sms", "1", "max_warps_per_sm", slots, "max_threads_per_sm", threads,
					  "max_ctas_per_sm", "64", "regs_per_sm", "1048576", "num_schedulers", nsched,
					  "sched", policies[p], NULL};
		ws_config *cfg = wsConfigCreate();
		char err[256] = "";
		ws_result r = cfg ? WS_SUCCESS : WS_ERROR_INVALID_CONFIG;
		for (unsigned i = 0; r == WS_SUCCESS && kv[i]; i += 2)
			r = wsConfigSet(cfg, kv[i], kv[i + 1], err, sizeof err);
		CHECK_MSG(r == WS_SUCCESS, "config: %s", err);
		ws_sim *sim = NULL;
		if (r == WS_SUCCESS)
			r = wsSimCreate(&sim, cfg);
		wsConfigDestroy(cfg);
		if (r != WS_SUCCESS)
			break;
		ws_module *mod = NULL;
		ws_function *fn = NULL;
		ws_deviceptr din = 0, dout = 0;
		r = wsModuleLoadData(sim, &mod, full_ptx, "full.ptx");
		if (r == WS_SUCCESS)
			r = wsModuleGetFunction(&fn, mod, "full");
		if (r == WS_SUCCESS)
			r = wsMemAlloc(sim, &din, n * 4);
		if (r == WS_SUCCESS)
			r = wsMemAlloc(sim, &dout, n * 4);
		if (r == WS_SUCCESS)
			r = wsMemcpyHtoD(sim, din, h, n * 4);
		void *args[] = {&din, &dout};
		if (r == WS_SUCCESS)
			r = wsLaunchKernel(fn, grid, 1, 1, block, 1, 1, 0, args);
		CHECK_MSG(r == WS_SUCCESS, "%s: %s", policies[p], wsSimLastError(sim));
		if (r == WS_SUCCESS && wsMemcpyDtoH(sim, o, dout, n * 4) == WS_SUCCESS) {
			size_t bad = 0;
			for (size_t i = 0; i < n; i++)
				bad += o[i] != h[i] * 3 + ((i % block) & 1 ? 7u : 1u) * 4;
			CHECK_MSG(bad == 0, "%s: %zu wrong results", policies[p], bad);
		}
		uint64_t warps = 0, insts = 0;
		wsStatsGet(sim, "warps", &warps);
		wsStatsGet(sim, "warp_insts", &insts);
		CHECK_MSG(warps == SM_MAX_SLOTS, "%s: %llu warps ran", policies[p], (unsigned long long)warps);
		CHECK(insts > 0);
		wsSimDestroy(sim);
	}
	free(h);
	free(o);
}
