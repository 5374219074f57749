/*
 * test_core.c -- unit tests of SM structures against small fakes: the
 * scoreboard (RAW/WAW pending bits, long-latency marks, growth), the decode
 * table (registers read and written, unit and latency from the config) and
 * the I-buffer/issue interplay through a one-warp kernel's statistics.
 */
#include <stdio.h>
#include <string.h>

#include "config/config.h"
#include "core/decode.h"
#include "core/scoreboard.h"
#include "ptx/ir.h"
#include "test.h"

TEST(core_scoreboard_pending_and_release)
{
	struct scoreboard sb;
	memset(&sb, 0, sizeof sb);
	CHECK(sb_reserve(&sb, 10));
	CHECK(!sb_test(&sb, 3));
	CHECK(sb_set(&sb, 3, false));
	CHECK(sb_set(&sb, 70, true)); /* beyond the reserved word: the bitmap grows */
	CHECK_EQ(sb.npending, 2);
	CHECK(sb_test(&sb, 3));
	CHECK(!sb_test_long(&sb, 3));
	CHECK(sb_test_long(&sb, 70));
	sb_set(&sb, 3, false); /* setting twice counts once */
	CHECK_EQ(sb.npending, 2);
	sb_release(&sb, 3);
	CHECK(!sb_test(&sb, 3));
	CHECK_EQ(sb.npending, 1);
	sb_release(&sb, 3); /* releasing twice is harmless */
	CHECK_EQ(sb.npending, 1);
	CHECK(!sb_test(&sb, 100000)); /* out of range reads as clear */
	CHECK(sb_reserve(&sb, 1000));
	CHECK(sb_test_long(&sb, 70)); /* growth keeps the bits */
	sb_release(&sb, 70);
	CHECK(!sb_test_long(&sb, 70));
	CHECK_EQ(sb.npending, 0);
	sb_clear(&sb);
	sb_destroy(&sb);
}

static const char *decode_ptx = ".version 9.0\n.target sm_75\n.address_size 64\n"
				".visible .entry k(.param .u64 p)\n{\n"
				"  .reg .b32 %r<8>;\n  .reg .f64 %fd<3>;\n  .reg .pred %p<2>;\n  .reg .b64 %rd<3>;\n"
				"  ld.param.u64 %rd1, [p];\n"
				"  add.s32 %r1, %r2, %r3;\n"
				"  div.s32 %r4, %r1, 7;\n"
				"  mul.f64 %fd1, %fd2, %fd2;\n"
				"  sin.approx.f32 %r5, %r5;\n"
				"  st.global.u32 [%rd1], %r4;\n"
				"  @%p1 bra $L;\n"
				"$L:\n  setp.lt.s32 %p1, %r1, %r2;\n"
				"  ret;\n}\n";

TEST(core_decode_registers_units_latencies)
{
	struct ptx_error err;
	struct ptx_module *m = ptx_parse(decode_ptx, strlen(decode_ptx), "decode.ptx", &err);
	CHECK_MSG(m != NULL, "%u:%u: %s", err.line, err.col, err.msg);
	if (!m)
		return;
	CHECK_MSG(ptx_analyse(m, &err), "%s", err.msg);
	ws_config *cfg = wsConfigCreate();
	char e[128];
	wsConfigSet(cfg, "lat_int", "4,13,4,5,99", e, sizeof e);
	struct dec_module *d = dec_module_create(m, cfg);
	CHECK(d != NULL);
	if (d) {
		const struct dec_insn *di = d->f[0].insns;
		/* add.s32 %r1, %r2, %r3: writes r1, reads r2 r3 */
		CHECK_EQ(di[1].ndst, 1);
		CHECK_EQ(di[1].nsrc, 2);
		CHECK_EQ(di[1].cu, UNIT_SP);
		CHECK_EQ(di[1].lat, 4);
		/* div.s32 gets the configured integer divide latency */
		CHECK_EQ(di[2].lat, 99);
		CHECK_EQ(di[2].ii, 8);
		/* mul.f64 runs on the SP units (no DP units on GTX480) with DP latency */
		CHECK_EQ(di[3].cu, UNIT_SP);
		CHECK_EQ(di[3].lat, 8);
		/* sin.approx -> SFU */
		CHECK_EQ(di[4].cu, UNIT_SFU);
		/* st writes no register; reads the address and the value */
		CHECK_EQ(di[5].ndst, 0);
		CHECK_EQ(di[5].nsrc, 2);
		CHECK(di[5].is_mem);
		CHECK_EQ(di[5].cu, UNIT_LDST);
		/* guarded branch reads its predicate and is a control instruction */
		CHECK(di[6].is_ctrl);
		CHECK_EQ(di[6].nsrc, 1);
		/* instruction addresses: 8 bytes apart */
		CHECK_EQ(di[1].addr - di[0].addr, CODE_INSN_BYTES);
		dec_module_destroy(d);
	}
	wsConfigDestroy(cfg);
	ptx_module_destroy(m);
}

#include "bench.h"

/* With l1d_bypass every global access goes to the L2; results still verify. */
TEST(core_l1d_bypass_runs_and_verifies)
{
	const struct ws_bench_info *b = ws_bench_find("mm");
	CHECK(b != NULL);
	if (!b)
		return;
	for (int bypass = 0; bypass < 2; bypass++) {
		ws_config *cfg = wsConfigCreate();
		char err[128];
		wsConfigSet(cfg, "l1d_bypass", bypass ? "true" : "false", err, sizeof err);
		ws_sim *sim = NULL;
		CHECK(wsSimCreate(&sim, cfg) == WS_SUCCESS);
		wsConfigDestroy(cfg);
		ws_module *mod;
		CHECK(wsModuleLoadData(sim, &mod, b->ptx, "mm.ptx") == WS_SUCCESS);
		struct ws_bench_out out;
		memset(&out, 0, sizeof out);
		CHECK_MSG(ws_bench_run(b, sim, mod, WS_SIZE_TINY, &out) == WS_SUCCESS, "bypass=%d: %s", bypass, out.msg);
		uint64_t acc = 0, l2 = 0;
		wsStatsGet(sim, "l1d_accesses", &acc);
		wsStatsGet(sim, "l2_accesses", &l2);
		if (bypass)
			CHECK_EQ(acc, 0);
		else
			CHECK(acc > 0);
		CHECK(l2 > 0);
		wsSimDestroy(sim);
	}
}

/* Run benchmark `bench` (tiny) under the given parameters; the named counters into v (0 on a failure,
 * reported). */
static void run_tiny(struct test_ctx *t, const char *bench, const char *const (*sets)[2], size_t nsets,
		     const char *const *names, uint64_t *v, size_t nv)
{
	const struct ws_bench_info *b = ws_bench_find(bench);
	CHECK(b != NULL);
	memset(v, 0, nv * sizeof *v);
	if (!b)
		return;
	ws_config *cfg = wsConfigCreate();
	char err[160];
	for (size_t i = 0; i < nsets; i++)
		CHECK_MSG(wsConfigSet(cfg, sets[i][0], sets[i][1], err, sizeof err) == WS_SUCCESS, "%s", err);
	ws_sim *sim = NULL;
	CHECK(wsSimCreate(&sim, cfg) == WS_SUCCESS);
	wsConfigDestroy(cfg);
	if (!sim)
		return;
	ws_module *mod;
	CHECK(wsModuleLoadData(sim, &mod, b->ptx, bench) == WS_SUCCESS);
	struct ws_bench_out out;
	memset(&out, 0, sizeof out);
	CHECK_MSG(ws_bench_run(b, sim, mod, WS_SIZE_TINY, &out) == WS_SUCCESS, "%s: %s", bench, out.msg);
	for (size_t i = 0; i < nv; i++)
		CHECK(wsStatsGet(sim, names[i], &v[i]) == WS_SUCCESS);
	wsSimDestroy(sim);
}

/* opcoll_generic (GPGPU-Sim's generic operand collectors): with one
 * collector per scheduler for every unit type, an instruction waiting for
 * its unit (an SFU, the LD/ST unit) holds the scheduler's only collector, so
 * mm runs longer than with one collector per unit type; results verify. */
TEST(core_opcoll_generic_shares_collectors)
{
	static const char *const names[] = {"cycles"};
	static const char *const per_type[][2] = {{"opcoll_per_unit", "1"}, {"opcoll_generic", "false"}};
	static const char *const generic[][2] = {{"opcoll_per_unit", "1"}, {"opcoll_generic", "true"}};
	uint64_t cyc[2];
	run_tiny(t, "mm", per_type, 2, names, &cyc[0], 1);
	run_tiny(t, "mm", generic, 2, names, &cyc[1], 1);
	CHECK_MSG(cyc[1] > cyc[0], "one generic collector: %llu cycles, one per unit type: %llu",
		  (unsigned long long)cyc[1], (unsigned long long)cyc[0]);
}

/* opcoll_units (GPGPU-Sim's specialized collector units, shared by the
 * schedulers of a non-sub-core SM): with one scheduler, N per SM per unit
 * type is exactly opcoll_per_unit = N; with two, one collector per type
 * for the SM is fewer than one per scheduler, so mm's ready warps wait for
 * collectors longer (more structural stalls, more cycles); results verify
 * in every run. */
TEST(core_opcoll_units_shared_by_the_schedulers)
{
	static const char *const names[] = {"cycles", "issue_cycles", "stall_structural", "stall_data", "ldst_stall_cycles",
					    "regbank_conflicts"};
	enum { N = sizeof names / sizeof names[0] };
	uint64_t a[N], b[N];
	static const char *const one_per[][2] = {{"num_schedulers", "1"}, {"opcoll_per_unit", "2"}};
	static const char *const one_pool[][2] = {{"num_schedulers", "1"}, {"opcoll_units", "2,2,2,2,2,2"}};
	run_tiny(t, "mm", one_per, 2, names, a, N);
	run_tiny(t, "mm", one_pool, 2, names, b, N);
	for (int i = 0; i < N; i++)
		CHECK_MSG(a[i] == b[i], "one scheduler: %s %llu per scheduler, %llu per SM", names[i],
			  (unsigned long long)a[i], (unsigned long long)b[i]);
	static const char *const two_per[][2] = {{"num_schedulers", "2"}, {"opcoll_per_unit", "1"}};
	static const char *const two_pool[][2] = {{"num_schedulers", "2"}, {"opcoll_units", "1,1,1,1,1,1"}};
	run_tiny(t, "mm", two_per, 2, names, a, N);
	run_tiny(t, "mm", two_pool, 2, names, b, N);
	CHECK_MSG(b[0] > a[0], "two schedulers: one collector per type for the SM %llu cycles, one per scheduler %llu",
		  (unsigned long long)b[0], (unsigned long long)a[0]);
	CHECK_MSG(b[2] > a[2], "two schedulers: structural stalls %llu with one collector per type for the SM, %llu "
		  "with one per scheduler", (unsigned long long)b[2], (unsigned long long)a[2]);
	/* a 0 entry is opcoll_per_unit x num_schedulers of that type: 0,0,0,0,2,0 with one collector per scheduler
	 * is two of every type for the SM, as 2,2,2,2,2,2 */
	static const char *const two_pool2[][2] = {{"num_schedulers", "2"}, {"opcoll_per_unit", "1"},
						   {"opcoll_units", "0,0,0,0,2,0"}};
	static const char *const two_pool2b[][2] = {{"num_schedulers", "2"}, {"opcoll_units", "2,2,2,2,2,2"}};
	run_tiny(t, "mm", two_pool2, 3, names, a, N);
	run_tiny(t, "mm", two_pool2b, 2, names, b, N);
	for (int i = 0; i < N; i++)
		CHECK_MSG(a[i] == b[i], "a 0 entry: %s %llu, the explicit count %llu", names[i], (unsigned long long)a[i],
			  (unsigned long long)b[i]);
}

/* KAWS warp sharing issues another scheduler's warp when that scheduler has
 * no free collector for it and this one has: with opcoll_units every
 * scheduler sees the SM's collectors, so it finds none to share (mm, kaws:
 * some shared warps without, none with). */
TEST(core_opcoll_units_leave_warp_sharing_nothing)
{
	static const char *const names[] = {"warp_sharing_issues"};
	static const char *const per[][2] = {{"sched", "kaws"}};
	static const char *const pool[][2] = {{"sched", "kaws"}, {"opcoll_units", "4,4,4,4,4,4"}};
	uint64_t a, b;
	run_tiny(t, "mm", per, 1, names, &a, 1);
	run_tiny(t, "mm", pool, 2, names, &b, 1);
	CHECK_MSG(a > 0, "kaws, per-scheduler collectors: %llu shared issues", (unsigned long long)a);
	CHECK_EQ(b, 0);
}

/* opcoll_units makes the SM's collectors shared; sub_core gives each
 * scheduler its own, opcoll_generic makes them serve every unit type: the
 * combinations are refused with a message naming the parameter. */
TEST(core_opcoll_units_refused_with_sub_core_and_generic)
{
	static const char *const other[] = {"sub_core", "opcoll_generic"};
	for (int i = 0; i < 2; i++) {
		ws_config *cfg = wsConfigCreate();
		char err[256] = "";
		CHECK(wsConfigSet(cfg, "opcoll_units", "6,8,0,0,2,4", err, sizeof err) == WS_SUCCESS);
		CHECK(wsConfigCheck(cfg, err, sizeof err) == WS_SUCCESS);
		CHECK(wsConfigSet(cfg, other[i], "true", err, sizeof err) == WS_SUCCESS);
		CHECK(wsConfigCheck(cfg, err, sizeof err) == WS_ERROR_INVALID_CONFIG);
		CHECK_MSG(strstr(err, "opcoll_units") && strstr(err, other[i]), "%s: %s", other[i], err);
		ws_sim *sim = NULL;
		CHECK(wsSimCreate(&sim, cfg) != WS_SUCCESS);
		if (sim)
			wsSimDestroy(sim);
		wsConfigDestroy(cfg);
	}
}

/* ldst_wb_ports (GPGPU-Sim's LD/ST writeback, one result a cycle through
 * the unit's own port): off, no LD/ST result waits for it; with one port,
 * mg's shared-memory results (one warp instruction after another) and the
 * loads a filled MSHR releases together queue for it; with 16 ports far
 * fewer wait; the work is the same and results verify in every run. */
TEST(core_ldst_wb_ports_one_result_a_cycle)
{
	static const char *const names[] = {"wb_ldst_port_waits", "cycles", "warp_insts"};
	uint64_t off[3], one[3], many[3];
	static const char *const s_off[][2] = {{"ldst_wb_ports", "0"}};
	static const char *const s_one[][2] = {{"ldst_wb_ports", "1"}};
	static const char *const s_many[][2] = {{"ldst_wb_ports", "16"}};
	run_tiny(t, "mg", s_off, 1, names, off, 3);
	run_tiny(t, "mg", s_one, 1, names, one, 3);
	run_tiny(t, "mg", s_many, 1, names, many, 3);
	CHECK_EQ(off[0], 0);
	CHECK_MSG(one[0] > 0, "one port: %llu waits", (unsigned long long)one[0]);
	CHECK_MSG(many[0] < one[0], "16 ports: %llu waits, one: %llu", (unsigned long long)many[0],
		  (unsigned long long)one[0]);
	CHECK(off[2] == one[2] && one[2] == many[2]); /* the same work */
}

/* A front end that fetches whenever the I-buffer has room (fetch_on_empty =
 * false, 4 or 8 entries) lets a warp exit with an I-cache fill still on its
 * way: its SM goes idle with the reply in the interconnect's input buffer.
 * The SM must stay in the GPU's active set until the reply is popped; it
 * used to leave it, the reply was stranded and the launch ended in a
 * deadlock report with no stuck warp (hotspot, 1 and 2 threads). */
TEST(core_idle_sm_keeps_its_pending_reply)
{
	static const char *const one[][2] = {{"fetch_on_empty", "false"}, {"ibuf_depth", "4"},
					     {"watchdog_cycles", "20000"}, {"threads", "1"}};
	static const char *const two[][2] = {{"fetch_on_empty", "false"}, {"ibuf_depth", "4"},
					     {"watchdog_cycles", "20000"}, {"threads", "2"}};
	static const char *const names[] = {"cycles"};
	uint64_t cyc[2];
	run_tiny(t, "hotspot", one, 4, names, &cyc[0], 1);
	run_tiny(t, "hotspot", two, 4, names, &cyc[1], 1);
	CHECK(cyc[0] > 0 && cyc[0] == cyc[1]);
}

/* wsStatsGetDerived returns the metrics of the "derived" section, computed
 * from the counters, and rejects unknown names. */
TEST(core_stats_derived_metrics)
{
	const struct ws_bench_info *b = ws_bench_find("sp");
	CHECK(b != NULL);
	if (!b)
		return;
	ws_sim *sim = NULL;
	ws_config *cfg = wsConfigCreate();
	CHECK(wsSimCreate(&sim, cfg) == WS_SUCCESS);
	wsConfigDestroy(cfg);
	if (!sim)
		return;
	double v = -1;
	CHECK_EQ(wsStatsGetDerived(sim, "ipc", &v), WS_SUCCESS);
	CHECK(v == 0.0); /* nothing run yet: ratios of zero counters are 0 */
	ws_module *mod;
	CHECK(wsModuleLoadData(sim, &mod, b->ptx, "sp.ptx") == WS_SUCCESS);
	struct ws_bench_out out;
	memset(&out, 0, sizeof out);
	CHECK_MSG(ws_bench_run(b, sim, mod, WS_SIZE_TINY, &out) == WS_SUCCESS, "%s", out.msg);
	uint64_t ti = 0, cyc = 0, bar = 0, wc = 0, rtru = 0, ph = 0;
	wsStatsGet(sim, "thread_insts", &ti);
	wsStatsGet(sim, "cycles", &cyc);
	wsStatsGet(sim, "warp_barrier_cycles", &bar);
	wsStatsGet(sim, "warp_cycles", &wc);
	wsStatsGet(sim, "rtru_ppm_sum", &rtru);
	wsStatsGet(sim, "warp_phases", &ph);
	CHECK(cyc > 0 && wc > 0 && bar > 0 && ph > 0);
	CHECK_EQ(wsStatsGetDerived(sim, "ipc", &v), WS_SUCCESS);
	CHECK(v == (double)ti / (double)cyc);
	CHECK_EQ(wsStatsGetDerived(sim, "barrier_stall_fraction", &v), WS_SUCCESS);
	CHECK(v == (double)bar / (double)wc && v > 0 && v < 1);
	CHECK_EQ(wsStatsGetDerived(sim, "rtru_mean", &v), WS_SUCCESS);
	CHECK(v == (double)rtru / (double)ph / 1e6);
	CHECK_EQ(wsStatsGetDerived(sim, "no_such_metric", &v), WS_ERROR_NOT_FOUND);
	CHECK_EQ(wsStatsGetDerived(sim, "cycles", &v), WS_ERROR_NOT_FOUND); /* a counter, not a derived metric */
	CHECK_EQ(wsStatsGetDerived(NULL, "ipc", &v), WS_ERROR_INVALID_HANDLE);
	wsSimDestroy(sim);
}

/* membar.gl waits until the warp's earlier stores are acknowledged by the
 * memory system; without a pending store it costs almost nothing. */
TEST(core_membar_waits_for_stores)
{
	static const char *ptx = ".version 9.0\n.target sm_75\n.address_size 64\n"
				 ".visible .entry k(.param .u64 buf, .param .u32 dostore)\n{\n"
				 "  .reg .b32 %r<4>;\n  .reg .b64 %rd<8>;\n  .reg .pred %p<2>;\n"
				 "  ld.param.u64 %rd1, [buf];\n  ld.param.u32 %r1, [dostore];\n"
				 "  setp.ne.s32 %p1, %r1, 0;\n"
				 "  @%p1 st.global.u32 [%rd1+64], %r1;\n"
				 "  mov.u64 %rd2, %clock64;\n"
				 "  membar.gl;\n"
				 "  mov.u64 %rd3, %clock64;\n"
				 "  sub.s64 %rd4, %rd3, %rd2;\n"
				 "  st.global.u64 [%rd1], %rd4;\n  ret;\n}\n";
	uint64_t tm[2];
	for (int store = 0; store < 2; store++) {
		ws_sim *sim;
		ws_module *mod;
		CHECK(wsSimCreate(&sim, NULL) == WS_SUCCESS);
		CHECK_MSG(wsModuleLoadData(sim, &mod, ptx, "membar.ptx") == WS_SUCCESS, "%s", wsSimLastError(sim));
		ws_function *f;
		CHECK(wsModuleGetFunction(&f, mod, "k") == WS_SUCCESS);
		ws_deviceptr d;
		wsMemAlloc(sim, &d, 128);
		uint32_t s = (uint32_t)store;
		void *args[] = {&d, &s};
		CHECK_MSG(wsLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, args) == WS_SUCCESS, "%s", wsSimLastError(sim));
		wsMemcpyDtoH(sim, &tm[store], d, 8);
		wsSimDestroy(sim);
	}
	/* a store's acknowledgement takes an interconnect + L2 round trip (> 100 cycles) */
	CHECK_MSG(tm[1] > tm[0] + 100, "membar after a store: %llu cycles, without: %llu", (unsigned long long)tm[1],
		  (unsigned long long)tm[0]);
	CHECK_MSG(tm[0] < 40, "membar with no pending store: %llu cycles", (unsigned long long)tm[0]);
}

/* Run kernel k of `ptx` (one parameter: a 256-byte device buffer) as one
 * warp with the parameter `param` = `value`; the buffer's first n bytes go
 * to out and the counters stats[0..ns) to vals.  False if it did not run. */
static bool run_one_warp(struct test_ctx *t, const char *ptx, const char *param, const char *value, void *out, size_t n,
                         const char *const *stats, uint64_t *vals, unsigned ns)
{
	ws_config *cfg = wsConfigCreate();
	char err[128];
	CHECK(wsConfigSet(cfg, param, value, err, sizeof err) == WS_SUCCESS);
	ws_sim *sim = NULL;
	CHECK(wsSimCreate(&sim, cfg) == WS_SUCCESS);
	wsConfigDestroy(cfg);
	if (!sim)
		return false;
	ws_module *mod;
	ws_function *f;
	ws_deviceptr buf = 0;
	bool ok = wsModuleLoadData(sim, &mod, ptx, "k.ptx") == WS_SUCCESS &&
	          wsModuleGetFunction(&f, mod, "k") == WS_SUCCESS && wsMemAlloc(sim, &buf, 256) == WS_SUCCESS;
	void *args[] = {&buf};
	ok = ok && wsLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, args) == WS_SUCCESS;
	CHECK_MSG(ok, "%s = %s: %s", param, value, wsSimLastError(sim));
	if (ok) {
		wsMemcpyDtoH(sim, out, buf, n);
		for (unsigned i = 0; i < ns; i++)
			wsStatsGet(sim, stats[i], &vals[i]);
	}
	wsSimDestroy(sim);
	return ok;
}

/* Constant loads with const_cache (src/mem/ccache.c) against the fixed
 * latency: a cold line is fetched from the L2 (a round trip, and L2
 * traffic), a hit takes lat_const, and a divergent load serialises one
 * access per distinct line even when every line hits; without the cache
 * every constant load takes lat_const; with const_perfect (GPGPU-Sim's
 * perfect constant cache) every one, cold or divergent, completes at once. */
TEST(core_const_cache_timing)
{
	/* the block runs twice (the first pass warms the instruction cache); the
	 * second pass, on constant lines of its own (c + 4096), is measured */
	static const char *ptx = ".version 9.0\n.target sm_75\n.address_size 64\n"
				 ".const .align 4 .u32 c[2048];\n"
				 ".visible .entry k(.param .u64 buf)\n{\n"
				 "  .reg .b32 %r<12>;\n  .reg .b64 %rd<20>;\n  .reg .pred %p<3>;\n"
				 "  ld.param.u64 %rd1, [buf];\n"
				 "  mov.u32 %r1, %tid.x;\n  mul.wide.u32 %rd2, %r1, 64;\n"
				 "  mov.u64 %rd3, c;\n  mov.u32 %r10, 0;\n  mov.u32 %r9, 0;\n"
				 "$L:\n  mul.wide.u32 %rd15, %r10, 4096;\n  add.s64 %rd16, %rd3, %rd15;\n"
				 "  add.s64 %rd4, %rd16, %rd2;\n"
				 "  mov.u64 %rd10, %clock64;\n"
				 "  ld.const.u32 %r2, [%rd16];\n  add.s32 %r3, %r2, %r9;\n" /* uniform, cold */
				 "  mov.u64 %rd11, %clock64;\n"
				 "  ld.const.u32 %r4, [%rd16+4];\n  add.s32 %r5, %r4, %r3;\n" /* uniform, same line */
				 "  mov.u64 %rd12, %clock64;\n"
				 "  ld.const.u32 %r6, [%rd4+2048];\n  add.s32 %r7, %r6, %r5;\n" /* 32 lines, cold */
				 "  mov.u64 %rd13, %clock64;\n"
				 "  ld.const.u32 %r8, [%rd4+2052];\n  add.s32 %r9, %r8, %r7;\n" /* the 32 lines again */
				 "  mov.u64 %rd14, %clock64;\n"
				 "  add.s32 %r10, %r10, 1;\n  setp.lt.u32 %p2, %r10, 2;\n  @%p2 bra $L;\n"
				 "  setp.eq.s32 %p1, %r1, 0;\n"
				 "  sub.s64 %rd5, %rd11, %rd10;\n  sub.s64 %rd6, %rd12, %rd11;\n"
				 "  sub.s64 %rd7, %rd13, %rd12;\n  sub.s64 %rd8, %rd14, %rd13;\n"
				 "  @%p1 st.global.u64 [%rd1], %rd5;\n  @%p1 st.global.u64 [%rd1+8], %rd6;\n"
				 "  @%p1 st.global.u64 [%rd1+16], %rd7;\n  @%p1 st.global.u64 [%rd1+24], %rd8;\n"
				 "  @%p1 st.global.u32 [%rd1+32], %r9;\n  ret;\n}\n";
	uint64_t d[3][4], l2[3];
	static const char *const l2_acc[] = {"l2_accesses"};
	for (int on = 0; on < 2; on++)
		if (!run_one_warp(t, ptx, "const_cache", on ? "true" : "false", d[on], sizeof d[on], l2_acc, &l2[on], 1))
			return;
	if (!run_one_warp(t, ptx, "const_perfect", "true", d[2], sizeof d[2], l2_acc, &l2[2], 1))
		return;
	uint64_t lat = 24; /* lat_const */
	for (int i = 0; i < 4; i++) /* perfect: no lat_const, no serialisation, no L2 traffic of its own */
		CHECK_MSG(d[2][i] < 12, "const_perfect, load %d: %llu cycles", i, (unsigned long long)d[2][i]);
	CHECK_MSG(l2[2] == l2[0], "L2 accesses %llu with const_perfect, %llu without", (unsigned long long)l2[2],
		  (unsigned long long)l2[0]);
	for (int i = 0; i < 4; i++) /* fixed latency: every load alike */
		CHECK_MSG(d[0][i] >= lat && d[0][i] < lat + 16, "const_cache off, load %d: %llu cycles", i,
			  (unsigned long long)d[0][i]);
	/* a cold line: an L2 round trip (> 100 cycles); the same line again: a hit */
	CHECK_MSG(d[1][0] > 100, "cold constant load: %llu cycles", (unsigned long long)d[1][0]);
	CHECK_MSG(d[1][1] >= lat && d[1][1] < lat + 16, "constant hit: %llu cycles", (unsigned long long)d[1][1]);
	/* 32 cold lines through 2 MSHRs: at least 16 round trips' worth of waiting */
	CHECK_MSG(d[1][2] > 16 * 100, "divergent cold load: %llu cycles", (unsigned long long)d[1][2]);
	/* 32 hits: one a cycle through the data port */
	CHECK_MSG(d[1][3] >= lat + 31 && d[1][3] < lat + 31 + 16, "divergent hit: %llu cycles",
		  (unsigned long long)d[1][3]);
	/* the misses (1 parameter line, 2 x (1 + 32) constant lines) go to the L2 */
	CHECK_MSG(l2[1] >= l2[0] + 67, "L2 accesses %llu with the cache, %llu without", (unsigned long long)l2[1],
		  (unsigned long long)l2[0]);
}

/* With l1d_fence_invalidate a membar drops the SM's L1D lines (GPGPU-Sim's
 * -gpgpu_flush_l1_cache 1): the load after it misses again; without it
 * the line is still there and hits. */
TEST(core_fence_invalidates_l1d)
{
	static const char *ptx = ".version 9.0\n.target sm_75\n.address_size 64\n"
				 ".visible .entry k(.param .u64 buf)\n{\n"
				 "  .reg .b32 %r<4>;\n  .reg .b64 %rd<4>;\n"
				 "  ld.param.u64 %rd1, [buf];\n"
				 /* the whole line (all 4 sectors: with l2_sector_requests the fill returns as
				  * 4 replies, and a fence between them would leave the later ones to refill it) */
				 "  mov.u32 %r0, %tid.x;\n  mul.wide.u32 %rd2, %r0, 4;\n  add.u64 %rd3, %rd1, %rd2;\n"
				 "  ld.global.u32 %r1, [%rd3];\n"
				 "  add.s32 %r3, %r1, 1;\n" /* the line has arrived */
				 "  membar.gl;\n"
				 "  ld.global.u32 %r2, [%rd1+4];\n"
				 "  add.s32 %r3, %r3, %r2;\n  st.global.u32 [%rd1+128], %r3;\n  ret;\n}\n";
	uint64_t l1d[2][2], word;
	static const char *const l1d_stats[] = {"l1d_hits", "l1d_misses"};
	for (int on = 0; on < 2; on++)
		if (!run_one_warp(t, ptx, "l1d_fence_invalidate", on ? "true" : "false", &word, sizeof word, l1d_stats,
				  l1d[on], 2))
			return;
	uint64_t hits[2] = {l1d[0][0], l1d[1][0]}, misses[2] = {l1d[0][1], l1d[1][1]};
	/* the misses: the first load, the store (write-evict, no allocate), and with the fence the second load */
	CHECK_MSG(hits[0] == 1 && misses[0] == 2, "without: %llu hits, %llu misses", (unsigned long long)hits[0],
		  (unsigned long long)misses[0]);
	CHECK_MSG(hits[1] == 0 && misses[1] == 3, "with: %llu hits, %llu misses", (unsigned long long)hits[1],
		  (unsigned long long)misses[1]);
}

/* atomic_sector_txns (GPGPU-Sim coalesces atom into 32-byte segments): a warp's atomics on 32
 * consecutive words (4 sectors of one line) are 4 requests and 4 L2 atomic operations, else 1;
 * l2_sector_writes: its store of a whole line is 4 L2 accesses (one per sector), else 1. */
TEST(core_atomic_and_store_sectors)
{
	static const char *ptx = ".version 9.0\n.target sm_75\n.address_size 64\n"
	                         ".visible .entry k(.param .u64 buf)\n{\n"
	                         "  .reg .b32 %r<4>;\n  .reg .b64 %rd<4>;\n"
	                         "  ld.param.u64 %rd1, [buf];\n"
	                         "  mov.u32 %r0, %tid.x;\n  mul.wide.u32 %rd2, %r0, 4;\n  add.u64 %rd3, %rd1, %rd2;\n"
	                         "  atom.global.add.u32 %r1, [%rd3], 1;\n"
	                         "  st.global.u32 [%rd3+128], %r1;\n  ret;\n}\n";
	static const char *const names[] = {"l2_atomics", "icnt_req_packets", "l2_accesses"};
	static const char *const keys[] = {"atomic_sector_txns", "l2_sector_writes"};
	uint64_t v[2][2][3], word;
	for (int k = 0; k < 2; k++)
		for (int on = 0; on < 2; on++)
			if (!run_one_warp(t, ptx, keys[k], on ? "true" : "false", &word, sizeof word, names, v[k][on],
			                  3))
				return;
	CHECK_EQ(word, 0x100000001ull); /* words 0 and 1, each incremented once */
	CHECK_MSG(v[0][0][0] == 1 && v[0][1][0] == 4, "L2 atomics %llu without, %llu with atomic_sector_txns",
	          (unsigned long long)v[0][0][0], (unsigned long long)v[0][1][0]);
	CHECK_EQ(v[0][1][1], v[0][0][1] + 3);
	CHECK_EQ(v[0][1][2], v[0][0][2] + 3);
	/* l2_sector_writes: the same requests, 3 more L2 accesses */
	CHECK_EQ(v[1][1][1], v[1][0][1]);
	CHECK_MSG(v[1][1][2] == v[1][0][2] + 3, "L2 accesses %llu without, %llu with l2_sector_writes",
	          (unsigned long long)v[1][0][2], (unsigned long long)v[1][1][2]);
}

/* With l1d_volatile_cached, ld.volatile.global reads through the L1D as
 * GPGPU-Sim's default cache operator does (a second read of the line hits);
 * without it volatile loads bypass the L1D (only the store is an access). */
TEST(core_volatile_loads_through_l1d)
{
	static const char *ptx = ".version 9.0\n.target sm_75\n.address_size 64\n"
				 ".visible .entry k(.param .u64 buf)\n{\n"
				 "  .reg .b32 %r<4>;\n  .reg .b64 %rd<4>;\n"
				 "  ld.param.u64 %rd1, [buf];\n"
				 "  ld.volatile.global.u32 %r1, [%rd1];\n"
				 "  add.s32 %r3, %r1, 1;\n" /* the line has arrived */
				 "  ld.volatile.global.u32 %r2, [%rd1+4];\n"
				 "  add.s32 %r3, %r3, %r2;\n  st.global.u32 [%rd1+128], %r3;\n  ret;\n}\n";
	uint64_t l1d[2][2], word;
	static const char *const l1d_stats[] = {"l1d_accesses", "l1d_hits"};
	for (int on = 0; on < 2; on++)
		if (!run_one_warp(t, ptx, "l1d_volatile_cached", on ? "true" : "false", &word, sizeof word, l1d_stats,
				  l1d[on], 2))
			return;
	CHECK_MSG(l1d[0][0] == 1 && l1d[0][1] == 0, "without: %llu accesses, %llu hits", (unsigned long long)l1d[0][0],
		  (unsigned long long)l1d[0][1]);
	CHECK_MSG(l1d[1][0] == 3 && l1d[1][1] == 1, "with: %llu accesses, %llu hits", (unsigned long long)l1d[1][0],
		  (unsigned long long)l1d[1][1]);
}

/* Cycles (%clock64) from before to after an instruction sequence `body`
 * run by one warp, under param = value. */
static bool time_one_warp(struct test_ctx *t, const char *body, const char *param, const char *value, uint64_t *cyc)
{
	char ptx[2048];
	snprintf(ptx, sizeof ptx,
		 ".version 9.0\n.target sm_75\n.address_size 64\n"
		 ".visible .entry k(.param .u64 buf)\n{\n"
		 "  .reg .b32 %%r<8>;\n  .reg .b64 %%rd<8>;\n  .reg .pred %%p<2>;\n"
		 "  ld.param.u64 %%rd1, [buf];\n  mov.u32 %%r1, %%tid.x;\n"
		 "  add.u64 %%rd5, %%rd1, 0;\n" /* the parameter has arrived (a constant-cache miss) */
		 "  mov.u64 %%rd2, %%clock64;\n%s  mov.u64 %%rd3, %%clock64;\n"
		 "  sub.s64 %%rd4, %%rd3, %%rd2;\n  setp.eq.u32 %%p1, %%r1, 0;\n"
		 "  @%%p1 st.global.u64 [%%rd1+128], %%rd4;\n  ret;\n}\n",
		 body);
	uint64_t out[17];
	if (!run_one_warp(t, ptx, param, value, out, sizeof out, NULL, NULL, 0))
		return false;
	*cyc = out[16];
	return true;
}

/* atomic_wait (GPGPU-Sim's m_n_atomic stall): an instruction independent
 * of an atom issues only after the atom's reply is written back; without
 * it, it issues at once. */
TEST(core_atomic_wait)
{
	static const char *body = "  atom.global.add.u32 %r2, [%rd1], 1;\n  add.u32 %r3, %r1, 1;\n";
	uint64_t c[2];
	for (int on = 0; on < 2; on++)
		if (!time_one_warp(t, body, "atomic_wait", on ? "true" : "false", &c[on]))
			return;
	CHECK_MSG(c[0] < 50, "without: %llu cycles", (unsigned long long)c[0]);
	CHECK_MSG(c[1] > 100, "with: %llu cycles (an L2 round trip)", (unsigned long long)c[1]);
}

/* fence_wait: a membar after a store waits for the store's acknowledgement
 * (stores, an L2 round trip) or only for pending register writes
 * (registers: none here, so it issues at once). */
TEST(core_fence_wait)
{
	static const char *body = "  st.global.u32 [%rd1], %r1;\n  membar.gl;\n";
	uint64_t c[2];
	if (!time_one_warp(t, body, "fence_wait", "stores", &c[0]) ||
	    !time_one_warp(t, body, "fence_wait", "registers", &c[1]))
		return;
	CHECK_MSG(c[0] > 100, "stores: %llu cycles", (unsigned long long)c[0]);
	CHECK_MSG(c[1] < 50, "registers: %llu cycles", (unsigned long long)c[1]);
}

/* l1d_latency_queue: a load that misses the L1D reaches its tags, and
 * leaves for the L2, only l1d_latency (35) cycles after it was sent, so
 * the cold miss takes that much longer; a hit takes l1d_latency either way. */
TEST(core_l1d_latency_queue)
{
	static const char *miss = "  ld.global.u32 %r2, [%rd1];\n  add.u32 %r3, %r2, 1;\n";
	static const char *hit = "  ld.global.u32 %r2, [%rd1];\n  add.u32 %r3, %r2, 1;\n"
				 "  mov.u64 %rd2, %clock64;\n"
				 "  ld.global.u32 %r4, [%rd1+4];\n  add.u32 %r3, %r4, 1;\n";
	uint64_t m[2], h[2];
	for (int on = 0; on < 2; on++)
		if (!time_one_warp(t, miss, "l1d_latency_queue", on ? "true" : "false", &m[on]) ||
		    !time_one_warp(t, hit, "l1d_latency_queue", on ? "true" : "false", &h[on]))
			return;
	CHECK_MSG(m[1] >= m[0] + 35 && m[1] <= m[0] + 40, "cold miss: %llu cycles without, %llu with",
		  (unsigned long long)m[0], (unsigned long long)m[1]);
	CHECK_MSG(h[0] >= 35 && h[0] < 50 && h[1] >= 35 && h[1] < 50, "hit: %llu cycles without, %llu with",
		  (unsigned long long)h[0], (unsigned long long)h[1]);
}

/* One warp of ptx's kernel k(buf) on a GPU with the settings kv (key, value, ..., NULL): the
 * statistics stats[0..ns) into vals. */
/* A simulator with the settings kv (key, value, ..., NULL); NULL on failure. */
static ws_sim *sim_with_kv(struct test_ctx *t, const char *const *kv)
{
	ws_config *cfg = wsConfigCreate();
	char err[128];
	for (unsigned i = 0; kv[i]; i += 2)
		CHECK_MSG(wsConfigSet(cfg, kv[i], kv[i + 1], err, sizeof err) == WS_SUCCESS, "%s: %s", kv[i], err);
	ws_sim *sim = NULL;
	CHECK(wsSimCreate(&sim, cfg) == WS_SUCCESS);
	wsConfigDestroy(cfg);
	return sim;
}

/* Launch kernel k(buf) of ptx on sim, grid x block threads, buf 256 bytes
 * (zeroed first if zero): WS_SUCCESS or the launch's error; *loaded says
 * whether the module, the function and the buffer were made. */
static ws_result launch_k(ws_sim *sim, const char *ptx, unsigned grid, unsigned block, bool zero, bool *loaded)
{
	ws_module *mod;
	ws_function *f;
	ws_deviceptr buf = 0;
	*loaded = wsModuleLoadData(sim, &mod, ptx, "k.ptx") == WS_SUCCESS &&
		  wsModuleGetFunction(&f, mod, "k") == WS_SUCCESS && wsMemAlloc(sim, &buf, 256) == WS_SUCCESS &&
		  (!zero || wsMemsetD8(sim, buf, 0, 256) == WS_SUCCESS);
	void *args[] = {&buf};
	return *loaded ? wsLaunchKernel(f, grid, 1, 1, block, 1, 1, 0, args) : WS_ERROR_INVALID_VALUE;
}

static bool run_one_warp_kv(struct test_ctx *t, const char *ptx, const char *const *kv, const char *const *stats,
			    uint64_t *vals, unsigned ns)
{
	ws_sim *sim = sim_with_kv(t, kv);
	if (!sim)
		return false;
	bool loaded;
	bool ok = launch_k(sim, ptx, 1, 32, false, &loaded) == WS_SUCCESS;
	CHECK_MSG(ok, "%s", wsSimLastError(sim));
	for (unsigned i = 0; ok && i < ns; i++)
		wsStatsGet(sim, stats[i], &vals[i]);
	wsSimDestroy(sim);
	return ok;
}

/* A warp loads one whole 128-byte line (four 32-byte sectors, banks 0 1 0 1)
 * and stores it back.  l1d_bank_issue: the one LD/ST unit enters two of the
 * sectors a cycle into the two-bank l1d_latency_queue (GPGPU-Sim's
 * process_memory_access_queue_l1cache), so each instruction stalls its unit
 * one cycle instead of three; the L1D sees the same four accesses each.
 * And mf_latency (GPGPU-Sim's averagemflatency): it times the write acks
 * too, and each read from its queue entry, so l1d_latency (35) cycles a
 * read reply or more longer than mem_latency's send-to-reply (no
 * instruction or constant fetch here: l1i_perfect, const_perfect). */
TEST(core_l1d_bank_issue)
{
	static const char *ptx = ".version 9.0\n.target sm_75\n.address_size 64\n"
				 ".visible .entry k(.param .u64 buf)\n{\n"
				 "  .reg .b32 %r<4>;\n  .reg .b64 %rd<4>;\n"
				 "  ld.param.u64 %rd1, [buf];\n  mov.u32 %r1, %tid.x;\n"
				 "  mul.wide.u32 %rd2, %r1, 4;\n  add.s64 %rd3, %rd1, %rd2;\n"
				 "  ld.global.u32 %r2, [%rd3];\n  add.u32 %r3, %r2, 1;\n"
				 "  st.global.u32 [%rd3], %r3;\n  ret;\n}\n";
	static const char *const st[] = {"ldst_stall_cycles", "l1d_accesses", "mem_fetch_replies", "mem_fetch_latency",
					 "mem_read_replies", "mem_read_latency"};
	uint64_t v[2][6];
	for (int on = 0; on < 2; on++) {
		const char *kv[] = {"l1d_sector_accesses", "true", "l1d_banks", "2", "num_ldst_units", "1",
				    "l1d_latency", "35", "l1i_perfect", "true", "const_perfect", "true",
				    "l1d_bank_issue", on ? "true" : "false", NULL};
		if (!run_one_warp_kv(t, ptx, kv, st, v[on], 6))
			return;
	}
	CHECK_MSG(v[0][0] == 6 && v[1][0] == 2, "LD/ST stall cycles: %llu without, %llu with",
		  (unsigned long long)v[0][0], (unsigned long long)v[1][0]);
	CHECK_MSG(v[0][1] == 8 && v[1][1] == 8, "L1D accesses: %llu without, %llu with", (unsigned long long)v[0][1],
		  (unsigned long long)v[1][1]);
	for (int on = 0; on < 2; on++)
		CHECK_MSG(v[on][4] > 0 && v[on][2] > v[on][4] && v[on][3] >= v[on][5] + 35 * v[on][4],
			  "%llu replies timed in %llu cycles, %llu reads in %llu", (unsigned long long)v[on][2],
			  (unsigned long long)v[on][3], (unsigned long long)v[on][4], (unsigned long long)v[on][5]);
}

/* mf_latency as GPGPU-Sim's averagemflatency times it: a request of more
 * than one 32-byte sector is broken into one-sector requests when it
 * arrives at the (sectored) L2, each stamped then, so its replies are timed
 * from that arrival, after the interconnect (less than mem_latency's
 * send-to-reply), as is a one-word load through a line L1D (its miss fetches
 * the whole line); a lone sector (a sectored L1D's miss) keeps its start,
 * the l1d_latency_queue entry (l1d_latency = 35 cycles or more before its
 * send). */
TEST(core_mf_latency_split_at_l2)
{
	static const char *line_ptx = ".version 9.0\n.target sm_75\n.address_size 64\n"
				      ".visible .entry k(.param .u64 buf)\n{\n"
				      "  .reg .b32 %r<4>;\n  .reg .b64 %rd<4>;\n"
				      "  ld.param.u64 %rd1, [buf];\n  mov.u32 %r1, %tid.x;\n"
				      "  mul.wide.u32 %rd2, %r1, 4;\n  add.s64 %rd3, %rd1, %rd2;\n"
				      "  ld.global.u32 %r2, [%rd3];\n  add.u32 %r3, %r2, 1;\n  ret;\n}\n";
	static const char *word_ptx = ".version 9.0\n.target sm_75\n.address_size 64\n"
				      ".visible .entry k(.param .u64 buf)\n{\n"
				      "  .reg .b32 %r<4>;\n  .reg .b64 %rd<4>;\n"
				      "  ld.param.u64 %rd1, [buf];\n"
				      "  ld.global.u32 %r2, [%rd1];\n  add.u32 %r3, %r2, 1;\n  ret;\n}\n";
	static const char *const st[] = {"mem_fetch_replies", "mem_fetch_latency", "mem_read_replies",
					 "mem_read_latency"};
	/* the GTX480 defaults: a line L1D whose miss fetches the whole line, which the sectored L2
	 * (l2_sector_requests) answers with four one-sector replies */
	const char *kv[] = {"l1d_latency", "35", "l1i_perfect", "true", "const_perfect", "true", NULL};
	/* a sectored L1D (l1d_sector_fill) fetches only the word's sector; a line L1D the whole line */
	const char *kv_sec[] = {"l1d_latency", "35", "l1i_perfect", "true", "const_perfect", "true",
				"l1d_sector_fill", "true", NULL};
	uint64_t line[4], word[4], word_line[4];
	if (!run_one_warp_kv(t, line_ptx, kv, st, line, 4) || !run_one_warp_kv(t, word_ptx, kv_sec, st, word, 4) ||
	    !run_one_warp_kv(t, word_ptx, kv, st, word_line, 4))
		return;
	CHECK_MSG(line[0] == 4 && line[2] == 4 && line[1] < line[3],
		  "a 4-sector line fill: %llu replies timed in %llu cycles from the L2, %llu reads in %llu from the send",
		  (unsigned long long)line[0], (unsigned long long)line[1], (unsigned long long)line[2],
		  (unsigned long long)line[3]);
	CHECK_MSG(word[0] == 1 && word[2] == 1 && word[1] >= word[3] + 35,
		  "a lone sector: timed %llu cycles from its queue entry, %llu from its send", (unsigned long long)word[1],
		  (unsigned long long)word[3]);
	CHECK_MSG(word_line[0] == 4 && word_line[1] < word_line[3],
		  "one word through a line L1D: %llu replies timed in %llu cycles from the L2, %llu from the send",
		  (unsigned long long)word_line[0], (unsigned long long)word_line[1], (unsigned long long)word_line[3]);
}

/* l1d_sector_accesses: a warp's load of one whole 128-byte line is one L1D
 * access per 32-byte sector (GPGPU-Sim's Pascal coalescer), 4 here; without
 * it, one per line. */
TEST(core_l1d_sector_accesses)
{
	static const char *ptx = ".version 9.0\n.target sm_75\n.address_size 64\n"
				 ".visible .entry k(.param .u64 buf)\n{\n"
				 "  .reg .b32 %r<4>;\n  .reg .b64 %rd<4>;\n"
				 "  ld.param.u64 %rd1, [buf];\n  mov.u32 %r1, %tid.x;\n"
				 "  mul.wide.u32 %rd2, %r1, 4;\n  add.s64 %rd3, %rd1, %rd2;\n"
				 "  ld.global.u32 %r2, [%rd3];\n  add.u32 %r3, %r2, 1;\n  ret;\n}\n";
	uint64_t acc[2], word;
	static const char *const l1d_stats[] = {"l1d_accesses"};
	for (int on = 0; on < 2; on++)
		if (!run_one_warp(t, ptx, "l1d_sector_accesses", on ? "true" : "false", &word, sizeof word, l1d_stats,
				  &acc[on], 1))
			return;
	CHECK_MSG(acc[0] == 1 && acc[1] == 4, "L1D accesses: %llu without, %llu with", (unsigned long long)acc[0],
		  (unsigned long long)acc[1]);
}

/* Kernel k(buf) of ptx, 15 CTAs of `block` threads over a zeroed 256-byte
 * buf, with the settings kv, expected to stop with the livelock report:
 * the simulator (for its last error; NULL if it could not be made). */
static ws_sim *run_livelocked(struct test_ctx *t, const char *ptx, const char *const *kv, unsigned block)
{
	ws_sim *sim = sim_with_kv(t, kv);
	if (!sim)
		return NULL;
	bool ok;
	ws_result r = launch_k(sim, ptx, 15, block, true, &ok);
	CHECK_MSG(ok, "%s", wsSimLastError(sim));
	CHECK_MSG(ok && r != WS_SUCCESS && strstr(wsSimLastError(sim), "livelocked"), "the spin never ends: %s",
		  wsSimLastError(sim));
	return sim;
}

/* ldst_inject_fair: in each of 15 CTAs (one per SM) warp 0 counts to 2000
 * and then stores a whole line (a 5-flit packet through the L1D latency
 * queue) while the other 31 warps spin forever on atom.cas of one word
 * that never matches (per-lane 2-flit atomics that the word's L2 slice
 * serializes, so every SM's interconnect input stays full).  Without the
 * fair injection the store finds too little room at every try, since an
 * atomic always fits the room the one before it left: the livelock report
 * lists warp 0 with its stores still pending behind the L1D queue (BOWS's
 * TSP at paper size, docs/bows.md), its refused store named with its size
 * beside the atomics and the full input.  With it the store holds the input
 * until it has entered: warp 0 is gone from the report. */
TEST(core_ldst_inject_fair_store_behind_atomics)
{
	static const char *ptx = ".version 9.0\n.target sm_75\n.address_size 64\n"
				 ".visible .entry k(.param .u64 buf)\n{\n"
				 "  .reg .b32 %r<4>;\n  .reg .b64 %rd<4>;\n  .reg .pred %p<2>;\n"
				 "  ld.param.u64 %rd1, [buf];\n  mov.u32 %r0, %tid.x;\n"
				 "  setp.ge.u32 %p0, %r0, 32;\n  @%p0 bra SPIN;\n  mov.u32 %r2, 0;\n"
				 "WAIT:\n  add.u32 %r2, %r2, 1;\n  setp.lt.u32 %p1, %r2, 2000;\n  @%p1 bra WAIT;\n"
				 "  mul.wide.u32 %rd2, %r0, 4;\n  add.u64 %rd3, %rd1, %rd2;\n"
				 "  st.global.u32 [%rd3+128], 1;\n  ret;\n"
				 "SPIN:\n  atom.global.cas.b32 %r1, [%rd1], 1, 2;\n"
				 "  setp.ne.u32 %p1, %r1, 7;\n  @%p1 bra SPIN;\n  ret;\n}\n";
	for (int fair = 0; fair < 2; fair++) {
		const char *kv[] = {"ldst_inject_fair", fair ? "true" : "false", "livelock_cycles", "150000",
				    "l1d_latency_queue", "true", "num_sms", "15", NULL};
		ws_sim *sim = run_livelocked(t, ptx, kv, 1024);
		if (!sim)
			return;
		const char *e = wsSimLastError(sim);
		if (!fair)
			CHECK_MSG(strstr(e, "stores pending") && strstr(e, "L1D latency queue holding accesses") &&
					  strstr(e, "interconnect input full (a store of 5 flits)") &&
					  strstr(e, "(an atomic of 2 flits)") && strstr(e, "64 of 64 flits"),
				  "greedy injection: warp 0's store was expected to starve behind the atomics: %s", e);
		else
			CHECK_MSG(!strstr(e, "stores pending") && strstr(e, "L1D latency queue empty") &&
					  strstr(e, "input held by pipeline"),
				  "fair injection: warp 0's store was expected to enter: %s", e);
		wsSimDestroy(sim);
	}
}

/* The stuck-warp report groups the unfinished warps by instruction and lists
 * those of the smallest groups first: 15 CTAs of 4 warps spin forever on
 * atom.cas of one word, except warp 1 of CTA 7, which spins on atom.add 0
 * of another (its setp at line 25 is where it waits); that warp (on SM 7)
 * leads the listing, and its LD/ST line is not repeated after. */
TEST(core_stuck_report_census_lists_rare_warps_first)
{
	static const char *ptx = ".version 9.0\n.target sm_75\n.address_size 64\n"
				 ".visible .entry k(.param .u64 buf)\n{\n"
				 "  .reg .b32 %r<4>;\n  .reg .b64 %rd<4>;\n  .reg .pred %p<3>;\n"
				 "  ld.param.u64 %rd1, [buf];\n  mov.u32 %r0, %tid.x;\n  mov.u32 %r3, %ctaid.x;\n"
				 "  setp.eq.u32 %p0, %r3, 7;\n  setp.ge.u32 %p2, %r0, 32;\n  and.pred %p0, %p0, %p2;\n"
				 "  setp.lt.u32 %p2, %r0, 64;\n  and.pred %p0, %p0, %p2;\n  @%p0 bra ODD;\n"
				 "SPIN:\n  atom.global.cas.b32 %r1, [%rd1], 1, 2;\n"
				 "  setp.ne.u32 %p1, %r1, 7;\n  @%p1 bra SPIN;\n  ret;\n"
				 "ODD:\n  atom.global.add.u32 %r1, [%rd1+128], 0;\n"
				 "  setp.ne.u32 %p1, %r1, 7;\n  @%p1 bra ODD;\n  ret;\n}\n";
	const char *kv[] = {"livelock_cycles", "20000", "num_sms", "15", NULL};
	ws_sim *sim = run_livelocked(t, ptx, kv, 128);
	if (!sim)
		return;
	const char *e = wsSimLastError(sim);
	const char *census = strstr(e, "the 60 unfinished warps by instruction:");
	const char *rare = strstr(e, "\n    1 on 1 SM at k pc ");
	const char *first = strstr(e, "those of the smallest groups first:\n  SM 7 slot 1: CTA (7,0,0) warp 1: ");
	CHECK_MSG(census && rare && rare > census && first && strstr(first, "(line 25: setp"),
		  "census and order: %s", e);
	/* SM 7's LD/ST line once, right after its first warp listed */
	const char *ldst = first ? strstr(first, "\n    LD/ST:") : NULL;
	CHECK_MSG(ldst && !strstr(ldst + 1, "\n  SM 7 slot"), "SM 7's warps after its LD/ST line: %s", e);
	wsSimDestroy(sim);
}
