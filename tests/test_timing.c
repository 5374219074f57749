/*
 * test_timing.c -- validation microbenchmarks for the cycle-level timing
 * model: they show that what the model does matches what its configuration
 * says (docs/validation.md lists each benchmark, what it asserts and the
 * numbers measured on the default GTX480 configuration).
 *
 * Kernels come from tests/cu/micro.cu (tests/ptx/micro/micro.ptx).  Time is
 * measured inside the kernels with clock64() (the SM cycle at which the
 * read issues) and from the statistics.  Most checks compare two
 * configurations that differ in one parameter, so the fixed pipeline
 * overheads (issue -> operand collector -> dispatch) cancel out.
 * Set WS_TIMING_VERBOSE=1 to print every measured number.
 */
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "warpsim.h"

#define MICRO_PTX TEST_DATA_DIR "/ptx/micro/micro.ptx"

struct tenv {
	ws_sim *sim;
	ws_module *mod;
};

static int verbose(void)
{
	const char *v = getenv("WS_TIMING_VERBOSE");
	return v && *v && *v != '0';
}

#define NOTE(...)                                    \
	do {                                         \
		if (verbose()) {                     \
			printf("  [%s] ", t->name); \
			printf(__VA_ARGS__);         \
			putchar('\n');               \
		}                                    \
	} while (0)

/* Open a timing-mode simulator with the key/value pairs of kv (NULL-terminated). */
static int topen(struct test_ctx *t, struct tenv *e, const char *const *kv)
{
	memset(e, 0, sizeof *e);
	ws_config *cfg = wsConfigCreate();
	char err[256];
	int ok = wsConfigSet(cfg, "mode", "timing", err, sizeof err) == WS_SUCCESS;
	for (unsigned i = 0; ok && kv && kv[i]; i += 2) {
		ok = wsConfigSet(cfg, kv[i], kv[i + 1], err, sizeof err) == WS_SUCCESS;
		CHECK_MSG(ok, "config %s=%s: %s", kv[i], kv[i + 1], err);
	}
	ws_result r = ok ? wsSimCreate(&e->sim, cfg) : WS_ERROR_INVALID_CONFIG;
	wsConfigDestroy(cfg);
	CHECK_MSG(r == WS_SUCCESS, "wsSimCreate: %s", wsGetErrorName(r));
	if (r != WS_SUCCESS)
		return 0;
	r = wsModuleLoad(e->sim, &e->mod, MICRO_PTX);
	CHECK_MSG(r == WS_SUCCESS, "load %s: %s", MICRO_PTX, wsSimLastError(e->sim));
	if (r != WS_SUCCESS) {
		wsSimDestroy(e->sim);
		e->sim = NULL;
	}
	return r == WS_SUCCESS;
}

static void tclose(struct tenv *e) { wsSimDestroy(e->sim); }

static ws_deviceptr talloc(struct tenv *e, size_t n)
{
	ws_deviceptr p = 0;
	if (wsMemAlloc(e->sim, &p, n) == WS_SUCCESS)
		wsMemsetD8(e->sim, p, 0, n);
	return p;
}

static int tlaunch(struct test_ctx *t, struct tenv *e, const char *name, unsigned grid, unsigned block, void **args)
{
	ws_function *f;
	ws_result r = wsModuleGetFunction(&f, e->mod, name);
	if (r == WS_SUCCESS)
		r = wsLaunchKernel(f, grid, 1, 1, block, 1, 1, 0, args);
	CHECK_MSG(r == WS_SUCCESS, "launch %s: %s", name, wsSimLastError(e->sim));
	return r == WS_SUCCESS;
}

static uint64_t getstat(struct tenv *e, const char *name)
{
	uint64_t v = 0;
	wsStatsGet(e->sim, name, &v);
	return v;
}

/* ---- 1. dependent chains -------------------------------------------------- */

/* Steady-state cycles of 32 dependent operations of kernel `name` (one warp,
 * one SM) under the configuration kv; 0 on failure. */
static uint64_t chain_cycles(struct test_ctx *t, const char *name, const char *const *kv)
{
	struct tenv e;
	if (!topen(t, &e, kv))
		return 0;
	ws_deviceptr out = talloc(&e, 16), res = talloc(&e, 32 * 4);
	unsigned x = 7;
	void *args[] = {&out, &res, &x};
	uint64_t c[2] = {0, 0};
	if (tlaunch(t, &e, name, 1, 32, args))
		wsMemcpyDtoH(e.sim, c, out, sizeof c);
	tclose(&e);
	return c[1];
}

TEST(timing_chain_latency)
{
	/* kernel, latency parameter, its default, the same with the operation's entry +6, the latency */
	static const struct {
		const char *kernel, *key, *dflt, *raised;
		unsigned lat;
	} ops[] = {
		{"chain_add", "lat_int", "4,13,4,5,145", "10,13,4,5,145", 4},
		{"chain_mul", "lat_int", "4,13,4,5,145", "4,13,10,5,145", 4},
		{"chain_div", "lat_int", "4,13,4,5,145", "4,13,4,5,151", 145},
		{"chain_fma", "lat_fp", "4,13,4,5,39", "4,13,4,11,39", 5},
		{"chain_sin", "lat_sfu", "20", "26", 20},
	};
	long overhead = -1;
	for (unsigned i = 0; i < sizeof ops / sizeof ops[0]; i++) {
		const char *base[] = {"num_sms", "1", ops[i].key, ops[i].dflt, NULL};
		const char *more[] = {"num_sms", "1", ops[i].key, ops[i].raised, NULL};
		uint64_t c0 = chain_cycles(t, ops[i].kernel, base), c1 = chain_cycles(t, ops[i].kernel, more);
		NOTE("%s: %llu cycles / 32 ops = %.2f per op (latency %u); latency +6: %llu (%.2f per op)",
		     ops[i].kernel, (unsigned long long)c0, c0 / 32.0, ops[i].lat, (unsigned long long)c1, c1 / 32.0);
		/* each dependent operation takes exactly 6 cycles more */
		CHECK_MSG(c1 == c0 + 6 * 32, "%s: %llu -> %llu cycles for 32 ops, expected +%d", ops[i].kernel,
			  (unsigned long long)c0, (unsigned long long)c1, 6 * 32);
		/* per op = latency + a fixed pipeline overhead, the same for every unit */
		CHECK_MSG(c0 % 32 == 0, "%s: %llu cycles for 32 dependent ops, expected 32 x (latency %u + overhead)",
			  ops[i].kernel, (unsigned long long)c0, ops[i].lat);
		long ov = (long)(c0 / 32) - (long)ops[i].lat;
		CHECK_MSG(ov >= 1 && ov <= 4, "%s: overhead %ld cycles per op", ops[i].kernel, ov);
		if (overhead < 0)
			overhead = ov;
		CHECK_MSG(ov == overhead, "%s: overhead %ld differs from %ld", ops[i].kernel, ov, overhead);
	}
}

/* GPGPU-Sim's pipeline registers (exec_reg_cycles) and the latency of the
 * instructions outside its latency classes (lat_other).  GPGPU-Sim 4.2
 * (SM6_TITANX) issues a dependent instruction latency + 5 cycles after its
 * producer (fma.rn.f32: 9, sin.approx.f32: 25, measured with one warp,
 * docs/correlation.md): warpsim's latency + 2 plus its 3 register stages.
 * An xor is add-class here and takes GPGPU-Sim's default latency 1 with
 * lat_other = 1. */
TEST(timing_pipeline_registers)
{
	static const struct {
		const char *kernel;
		unsigned lat;
	} ops[] = {{"chain_add", 4}, {"chain_fma", 5}, {"chain_sin", 20}, {"chain_xor", 4}};
	for (unsigned i = 0; i < sizeof ops / sizeof ops[0]; i++) {
		const char *base[] = {"num_sms", "1", NULL};
		const char *regs[] = {"num_sms", "1", "exec_reg_cycles", "3", NULL};
		const char *other[] = {"num_sms", "1", "lat_other", "1", NULL};
		uint64_t c0 = chain_cycles(t, ops[i].kernel, base), c3 = chain_cycles(t, ops[i].kernel, regs);
		uint64_t co = chain_cycles(t, ops[i].kernel, other);
		NOTE("%s: %.2f cycles per dependent op; exec_reg_cycles=3: %.2f; lat_other=1: %.2f", ops[i].kernel,
		     c0 / 32.0, c3 / 32.0, co / 32.0);
		CHECK_MSG(c3 == 32 * (ops[i].lat + 5),
			  "%s: %llu cycles for 32 ops with exec_reg_cycles=3, expected 32 x %u", ops[i].kernel,
			  (unsigned long long)c3, ops[i].lat + 5);
		/* lat_other moves the xor only: from the add latency to 1 */
		uint64_t want = strcmp(ops[i].kernel, "chain_xor") ? c0 : c0 - 32 * (ops[i].lat - 1);
		CHECK_MSG(co == want, "%s: %llu cycles for 32 ops with lat_other=1, expected %llu", ops[i].kernel,
			  (unsigned long long)co, (unsigned long long)want);
	}
}

/* ---- 2. independent operations: issue throughput, initiation intervals ---- */

/* Warp instructions per cycle of the loop of kernel `name` (which issues
 * `per_iter` operations of the unit under test per iteration): 48 warps on
 * one SM, run with `iters` iterations and with none; the difference of the
 * two runs' warp_insts and cycles is the loop alone.  *unit_rate gets the
 * rate of the unit under test (its operations per cycle). */
static double loop_ipc(struct test_ctx *t, const char *name, unsigned per_iter, int iters, const char *const *kv,
		       double *unit_rate)
{
	uint64_t insts[2] = {0, 0}, cyc[2] = {0, 0};
	int n[2] = {0, iters};
	*unit_rate = 0;
	for (int r = 0; r < 2; r++) {
		struct tenv e;
		if (!topen(t, &e, kv))
			return 0;
		ws_deviceptr res = talloc(&e, 48 * 32 * 4);
		void *args[] = {&res, &n[r]};
		if (tlaunch(t, &e, name, 6, 256, args)) {
			insts[r] = getstat(&e, "warp_insts");
			cyc[r] = getstat(&e, "cycles");
		}
		tclose(&e);
	}
	if (cyc[1] <= cyc[0])
		return 0;
	double dc = (double)(cyc[1] - cyc[0]);
	*unit_rate = 48.0 * per_iter * iters / dc;
	return (double)(insts[1] - insts[0]) / dc;
}

/* Measured rate vs the configured peak: within 5% below, never above
 * (2% slack: the difference of two runs also removes start-up costs that
 * the longer run overlaps with work). */
#define CHECK_RATE(what, got, peak)                                                                \
	CHECK_MSG((got) >= 0.95 * (peak) && (got) <= 1.02 * (peak), "%s: %.4f per cycle, configured %.4f", \
		  what, (double)(got), (double)(peak))

TEST(timing_issue_throughput)
{
	/* indep_add's loop: 128 independent adds + counter add + setp (all on
	 * the SP units with add's latency and initiation interval) + bra (ii 1). */
	const double n_add = 130, n_bra = 1;
	double rate = 0, ipc1, ipc4, ipc16, sfu8 = 0, sfu16 = 0;
	/* default GTX480: 2 schedulers, 2 SP units, add ii 1 -> 2 instructions per cycle */
	const char *base[] = {"num_sms", "1", NULL};
	ipc1 = loop_ipc(t, "indep_add", 128, 24, base, &rate);
	NOTE("independent adds, default: IPC %.3f (adds %.3f per cycle)", ipc1, rate);
	CHECK_RATE("IPC, add ii 1", ipc1, 2.0);
	/* add ii 4: each SP unit takes a warp every 4 cycles -> 2/4 */
	const char *ii4[] = {"num_sms", "1", "ii_int", "4,2,2,1,8", NULL};
	ipc4 = loop_ipc(t, "indep_add", 128, 12, ii4, &rate);
	double peak4 = 2.0 * (n_add + n_bra) / (n_add * 4 + n_bra * 1);
	NOTE("independent adds, add ii 4: IPC %.3f (adds %.3f per cycle), configured %.3f", ipc4, rate, peak4);
	CHECK_RATE("IPC, add ii 4", ipc4, peak4);
	CHECK_MSG(ipc1 / ipc4 > 3.8 && ipc1 / ipc4 < 4.2, "IPC ratio ii 1 / ii 4 = %.3f", ipc1 / ipc4);
	/* one scheduler: at most 1 instruction per cycle */
	const char *one[] = {"num_sms", "1", "num_schedulers", "1", NULL};
	double ipcs = loop_ipc(t, "indep_add", 128, 12, one, &rate);
	NOTE("independent adds, 1 scheduler: IPC %.3f", ipcs);
	CHECK_RATE("IPC, 1 scheduler", ipcs, 1.0);
	/* one SP unit: at most 1 instruction per cycle */
	const char *sp1[] = {"num_sms", "1", "num_sp_units", "1", NULL};
	double ipcu = loop_ipc(t, "indep_add", 128, 12, sp1, &rate);
	NOTE("independent adds, 1 SP unit: IPC %.3f", ipcu);
	CHECK_RATE("IPC, 1 SP unit", ipcu, 1.0);
	/* 16-wide SIMD: a 32-thread warp occupies a unit 2 x ii cycles -> 2/2 */
	const char *w16[] = {"num_sms", "1", "simd_width", "16", NULL};
	ipc16 = loop_ipc(t, "indep_add", 128, 12, w16, &rate);
	NOTE("independent adds, simd_width 16: IPC %.3f", ipc16);
	CHECK_RATE("IPC, simd_width 16", ipc16, 1.0);
	/* SFU: 1 unit, ii 8 -> 1/8 warp instruction per cycle; 16-wide -> 1/16 */
	loop_ipc(t, "indep_sin", 64, 6, base, &sfu8);
	NOTE("independent sin.approx, default: %.4f per cycle", sfu8);
	CHECK_RATE("SFU rate, ii 8", sfu8, 1.0 / 8);
	loop_ipc(t, "indep_sin", 64, 4, w16, &sfu16);
	NOTE("independent sin.approx, simd_width 16: %.4f per cycle", sfu16);
	CHECK_RATE("SFU rate, ii 8, simd_width 16", sfu16, 1.0 / 16);
	const char *sfu2[] = {"num_sms", "1", "num_sfu_units", "2", "ii_sfu", "4", NULL};
	loop_ipc(t, "indep_sin", 64, 6, sfu2, &rate);
	NOTE("independent sin.approx, 2 SFUs, ii 4: %.4f per cycle", rate);
	CHECK_RATE("SFU rate, 2 units ii 4", rate, 2.0 / 4);
}

/* ---- 3. pointer chase: L1D, L2 and DRAM latency ---------------------------- */

enum chase_level { CHASE_L1, CHASE_L2, CHASE_DRAM };
static const char *const level_name[] = {"L1D hit", "L2 hit", "DRAM"};

/* Cycles of the chase kernel's second pass (*hops dependent loads) (one thread,
 * one SM) under configuration kv:
 *   L1D:  a ring of 32 lines 128 B apart (4 KB); 64 hops per pass: the first
 *         pass brings the ring into the L1D, the second hits.
 *   L2:   a ring of 160 lines 128 B apart (20 KB: 5 lines for each of the
 *         L1D's 32 sets of 4 ways, so LRU misses every time); 160 hops per
 *         pass: the first pass brings it into the L2, the second hits there.
 *   DRAM: a chain of 64 lines 256 B apart (every line in its own
 *         channel/bank: 6 channels x 16 banks, all rows closed); 32 hops per
 *         pass, each to a line never touched before. */
static uint64_t chase_cycles(struct test_ctx *t, enum chase_level lv, const char *const *kv, int *nhops)
{
	unsigned nlines = lv == CHASE_L1 ? 32 : lv == CHASE_L2 ? 160 : 64;
	unsigned stride = lv == CHASE_DRAM ? 256 : 128;
	int hops = lv == CHASE_L1 ? 64 : lv == CHASE_L2 ? 160 : 32;
	*nhops = hops;
	/* the chain must start outside the L2 (no install by the host copy, l2_memcpy_fill), and
	 * each DRAM hop must open a closed row: banks interleaved every 256 B, not GPGPU-Sim's map */
	const char *kv2[32] = {"l2_memcpy_fill", "0", "dram_addr_map", "interleave"};
	for (unsigned i = 0; kv && kv[i] && i + 5 < 32; i++)
		kv2[i + 4] = kv[i];
	struct tenv e;
	if (!topen(t, &e, kv2))
		return 0;
	size_t bytes = (size_t)nlines * stride;
	ws_deviceptr buf = talloc(&e, bytes), out = talloc(&e, 3 * 8);
	uint64_t *h = calloc(bytes / 8, 8);
	if (!h) {
		tclose(&e);
		return 0;
	}
	for (unsigned i = 0; i < nlines; i++)
		h[(size_t)i * stride / 8] = buf + (uint64_t)((i + 1) % nlines) * stride;
	wsMemcpyHtoD(e.sim, buf, h, bytes);
	free(h);
	uint64_t start = buf, c[3] = {0, 0, 0};
	void *args[] = {&start, &hops, &out};
	if (tlaunch(t, &e, "chase", 1, 1, args))
		wsMemcpyDtoH(e.sim, c, out, sizeof c);
	/* the chain ends where it should: the kernel really followed it */
	CHECK_EQ(c[2], buf + (uint64_t)((2u * (unsigned)hops) % nlines) * stride);
	if (lv == CHASE_L1)
		CHECK_MSG(getstat(&e, "l1d_hits") >= (uint64_t)hops, "L1D hits %llu",
			  (unsigned long long)getstat(&e, "l1d_hits"));
	if (lv == CHASE_L2)
		CHECK_MSG(getstat(&e, "l2_hits") >= (uint64_t)hops, "L2 hits %llu",
			  (unsigned long long)getstat(&e, "l2_hits"));
	if (lv == CHASE_DRAM)
		CHECK_MSG(getstat(&e, "dram_reads") >= 2u * (unsigned)hops, "DRAM reads %llu",
			  (unsigned long long)getstat(&e, "dram_reads"));
	tclose(&e);
	return c[1];
}

TEST(timing_memory_latency)
{
	uint64_t d[3], l1, l2, dr;
	int n[3];
	const char *base[] = {"num_sms", "1", NULL};
	for (int lv = 0; lv < 3; lv++) {
		d[lv] = chase_cycles(t, (enum chase_level)lv, base, &n[lv]);
		NOTE("%s: %llu cycles / %d hops = %.2f cycles per hop", level_name[lv], (unsigned long long)d[lv], n[lv],
		     (double)d[lv] / n[lv]);
	}
	double h1 = (double)d[0] / n[0], h2 = (double)d[1] / n[1], h3 = (double)d[2] / n[2];
	CHECK_MSG(h1 > 0 && h1 < h2 && h2 < h3, "hop cycles not ordered L1 < L2 < DRAM: %.1f %.1f %.1f", h1, h2, h3);
	/* the L1D hit hop is the configured l1d_latency plus a fixed pipeline overhead */
	CHECK_MSG(h1 >= 35 && h1 <= 35 + 5, "L1D hop %.2f cycles, l1d_latency 35", h1);
	const char *c1[] = {"num_sms", "1", "l1d_latency", "45", NULL};
	l1 = chase_cycles(t, CHASE_L1, c1, &n[0]);
	NOTE("l1d_latency 35 -> 45: L1D hop %.2f -> %.2f", h1, (double)l1 / n[0]);
	CHECK_MSG(l1 == d[0] + 10u * n[0], "L1D: %llu -> %llu cycles for %d hops with l1d_latency +10",
		  (unsigned long long)d[0], (unsigned long long)l1, n[0]);
	/* ROP latency +40 L2 cycles (= core cycles at 700:700 MHz) adds 40 to L2 and DRAM hops */
	const char *c2[] = {"num_sms", "1", "l2_rop_latency", "160", NULL};
	l2 = chase_cycles(t, CHASE_L2, c2, &n[1]);
	dr = chase_cycles(t, CHASE_DRAM, c2, &n[2]);
	NOTE("l2_rop_latency 120 -> 160: L2 hop %.2f -> %.2f, DRAM hop %.2f -> %.2f", h2, (double)l2 / n[1], h3,
	     (double)dr / n[2]);
	CHECK_MSG(l2 == d[1] + 40u * n[1], "L2: %llu -> %llu cycles for %d hops with l2_rop_latency +40",
		  (unsigned long long)d[1], (unsigned long long)l2, n[1]);
	/* DRAM hops cross into the 924 MHz DRAM clock: allow one cycle per hop */
	CHECK_MSG(dr + n[2] >= d[2] + 40u * n[2] && dr <= d[2] + 41u * n[2],
		  "DRAM: %llu -> %llu cycles for %d hops with l2_rop_latency +40", (unsigned long long)d[2],
		  (unsigned long long)dr, n[2]);
	/* interconnect latency +5 per direction adds 10 to L2 and DRAM hops */
	const char *c3[] = {"num_sms", "1", "icnt_latency", "13", NULL};
	l2 = chase_cycles(t, CHASE_L2, c3, &n[1]);
	dr = chase_cycles(t, CHASE_DRAM, c3, &n[2]);
	NOTE("icnt_latency 8 -> 13: L2 hop %.2f -> %.2f, DRAM hop %.2f -> %.2f", h2, (double)l2 / n[1], h3,
	     (double)dr / n[2]);
	CHECK_MSG(l2 == d[1] + 10u * n[1], "L2: %llu -> %llu cycles for %d hops with icnt_latency +5",
		  (unsigned long long)d[1], (unsigned long long)l2, n[1]);
	CHECK_MSG(dr + n[2] >= d[2] + 10u * n[2] && dr <= d[2] + 11u * n[2],
		  "DRAM: %llu -> %llu cycles for %d hops with icnt_latency +5", (unsigned long long)d[2],
		  (unsigned long long)dr, n[2]);
	/* memory-controller latency +50 L2 cycles adds 50 to DRAM hops and nothing to L2 hits */
	const char *c4[] = {"num_sms", "1", "dram_latency", "150", NULL};
	l2 = chase_cycles(t, CHASE_L2, c4, &n[1]);
	dr = chase_cycles(t, CHASE_DRAM, c4, &n[2]);
	NOTE("dram_latency 100 -> 150: L2 hop %.2f -> %.2f, DRAM hop %.2f -> %.2f", h2, (double)l2 / n[1], h3,
	     (double)dr / n[2]);
	CHECK_MSG(l2 == d[1], "L2: %llu -> %llu cycles with dram_latency +50", (unsigned long long)d[1],
		  (unsigned long long)l2);
	CHECK_MSG(dr + n[2] >= d[2] + 50u * n[2] && dr <= d[2] + 51u * n[2],
		  "DRAM: %llu -> %llu cycles for %d hops with dram_latency +50", (unsigned long long)d[2],
		  (unsigned long long)dr, n[2]);
	/* DRAM timing: tRCD + tCL +8 DRAM cycles each adds 16 x 700/924 = 12.1 core cycles per hop
	 * (every hop opens a closed row: activate, then read) */
	const char *c5[] = {"num_sms", "1", "dram_trcd", "20", "dram_tcl", "20", NULL};
	dr = chase_cycles(t, CHASE_DRAM, c5, &n[2]);
	double want = 16 * 700.0 / 924;
	NOTE("dram_trcd 12 -> 20, dram_tcl 12 -> 20: DRAM hop %.2f -> %.2f (expected +%.2f)", h3, (double)dr / n[2],
	     want);
	CHECK_MSG(dr >= d[2] + (uint64_t)((want - 1) * n[2]) && dr <= d[2] + (uint64_t)((want + 1) * n[2]),
		  "DRAM: %llu -> %llu cycles for %d hops with tRCD and tCL +8", (unsigned long long)d[2],
		  (unsigned long long)dr, n[2]);
}

/* ---- 4. streaming: DRAM bandwidth --------------------------------------------- */

struct stream_res {
	uint64_t bytes, dram_cycles, busy, cycles, row_hits, row_misses;
};

static int stream_run(struct test_ctx *t, unsigned kb, unsigned grid, const char *const *kv, struct stream_res *r)
{
	struct tenv e;
	memset(r, 0, sizeof *r);
	if (!topen(t, &e, kv))
		return 0;
	int n4 = (int)(kb * 1024u / 16u);
	ws_deviceptr in = talloc(&e, (size_t)n4 * 16), out = talloc(&e, (size_t)grid * 256 * 4);
	void *args[] = {&in, &out, &n4};
	int ok = tlaunch(t, &e, "stream_read", grid, 256, args);
	if (ok) {
		r->bytes = getstat(&e, "dram_bytes");
		r->dram_cycles = getstat(&e, "dram_cycles");
		r->busy = getstat(&e, "dram_busy_cycles");
		r->cycles = getstat(&e, "cycles");
		r->row_hits = getstat(&e, "dram_row_hits");
		r->row_misses = getstat(&e, "dram_row_misses");
	}
	tclose(&e);
	return ok;
}

/* Steady-state DRAM bandwidth of stream_read in bytes per DRAM cycle per
 * channel: the difference between a run over 2*kb KiB and one over kb KiB
 * (removing the start-up -- CTA launch, cold I-cache, first load latency --
 * and the drain at the end).  *whole = the longer run's average over the
 * whole kernel, *peak = the configured peak dram_bus_bytes x dram_data_rate. */
static double stream_bw(struct test_ctx *t, unsigned kb, unsigned grid, const char *const *kv, double *peak,
			double *whole)
{
	struct stream_res a, b;
	*peak = *whole = 0;
	if (!stream_run(t, kb, grid, kv, &a) || !stream_run(t, 2 * kb, grid, kv, &b) ||
	    b.dram_cycles <= a.dram_cycles)
		return 0;
	char buf[64];
	ws_config *cfg = wsConfigCreate();
	char err[128];
	for (unsigned i = 0; kv && kv[i]; i += 2)
		wsConfigSet(cfg, kv[i], kv[i + 1], err, sizeof err);
	double bus = atof(wsConfigGet(cfg, "dram_bus_bytes", buf, sizeof buf));
	double rate = atof(wsConfigGet(cfg, "dram_data_rate", buf, sizeof buf));
	double ch = atof(wsConfigGet(cfg, "dram_channels", buf, sizeof buf));
	wsConfigDestroy(cfg);
	*peak = bus * rate;
	*whole = (double)b.bytes / (double)b.dram_cycles / ch;
	double bw = (double)(b.bytes - a.bytes) / (double)(b.dram_cycles - a.dram_cycles) / ch;
	double busy = (double)(b.busy - a.busy) / (double)(b.dram_cycles - a.dram_cycles) / ch;
	NOTE("%u -> %u KiB, %u CTAs: +%llu DRAM bytes in +%llu DRAM cycles: %.2f B per DRAM cycle per channel "
	     "(peak %.0f, %.1f%%), bus busy %.1f%%; whole %u KiB kernel %.2f B (%.1f%%) in %llu core cycles, "
	     "row hits %llu misses %llu",
	     kb, 2 * kb, grid, (unsigned long long)(b.bytes - a.bytes),
	     (unsigned long long)(b.dram_cycles - a.dram_cycles), bw, *peak, 100 * bw / *peak, 100 * busy, 2 * kb,
	     *whole, 100 * *whole / *peak, (unsigned long long)b.cycles, (unsigned long long)b.row_hits,
	     (unsigned long long)b.row_misses);
	return bw;
}

TEST(timing_dram_bandwidth)
{
	double peak, whole, bw;
	/* With the L1D bypassed (no L1 MSHR limit), 128 L2 MSHRs per slice and
	 * a 64-entry FR-FCFS read queue, enough requests reach each channel to
	 * keep its data bus busy: steady state within 10% of the peak. */
	const char *fed[] = {"l1d_bypass", "true", "l2_mshrs", "128", "dram_read_queue", "64", NULL};
	bw = stream_bw(t, 2048, 90, fed, &peak, &whole);
	CHECK_MSG(peak == 32, "configured peak %.1f B per DRAM cycle per channel, expected 8 x 4", peak);
	/* the two-run difference has a few percent of noise (start-up and drain
	 * differ between the runs); "never above the peak" is asserted on the
	 * whole kernel, which has no such noise */
	CHECK_MSG(bw >= 0.9 * peak && bw <= 1.05 * peak, "steady-state %.2f B per DRAM cycle per channel, peak %.1f",
		  bw, peak);
	CHECK_MSG(whole > 0 && whole <= peak, "whole kernel %.2f B per DRAM cycle per channel, peak %.1f", whole, peak);
	/* Default GTX480: the 32 L1D MSHRs per SM and 32 L2 MSHRs per slice
	 * bound the requests in flight (Little's law) well below the peak;
	 * never above it. */
	bw = stream_bw(t, 1024, 90, NULL, &peak, &whole);
	CHECK_MSG(bw > 0.3 * peak && bw <= 1.05 * peak, "default: steady-state %.2f B per DRAM cycle per channel, peak %.1f",
		  bw, peak);
	CHECK_MSG(whole > 0 && whole <= peak, "default: whole kernel %.2f B per DRAM cycle per channel, peak %.1f", whole,
		  peak);
	/* Halving the data rate halves the peak; the achieved rate follows it. */
	const char *slow[] = {"l1d_bypass", "true", "l2_mshrs", "128", "dram_read_queue", "64", "dram_data_rate", "2",
			      NULL};
	bw = stream_bw(t, 1024, 90, slow, &peak, &whole);
	CHECK_MSG(peak == 16, "configured peak %.1f with dram_data_rate 2", peak);
	CHECK_MSG(bw >= 0.9 * peak && bw <= 1.05 * peak, "dram_data_rate 2: steady-state %.2f, peak %.1f", bw, peak);
}

/* ---- 5. shared-memory bank conflicts ------------------------------------------ */

TEST(timing_shmem_bank_conflicts)
{
	/* stride (in 4-byte words) between lanes -> conflict degree with 32 banks */
	static const struct {
		int stride;
		unsigned degree;
	} cases[] = {{1, 1}, {2, 2}, {4, 4}, {3, 1}, {32, 32}, {33, 1}};
	uint64_t cyc1 = 0;
	for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct tenv e;
		const char *kv[] = {"num_sms", "1", NULL};
		if (!topen(t, &e, kv))
			return;
		ws_deviceptr out = talloc(&e, 32 * 4), cyc = talloc(&e, 16);
		int stride = cases[i].stride;
		void *args[] = {&out, &cyc, &stride};
		uint64_t cc[2] = {0, 0}, c;
		if (tlaunch(t, &e, "shmem_stride", 1, 32, args))
			wsMemcpyDtoH(e.sim, cc, cyc, 16);
		c = cc[1];
		uint64_t extra = getstat(&e, "shmem_conflict_cycles");
		uint64_t loads = getstat(&e, "shared_loads") / 32;
		NOTE("stride %d: %llu warp loads, %llu conflict cycles (%.2f per load), %llu cycles for 32 loads", stride,
		     (unsigned long long)loads, (unsigned long long)extra, loads ? (double)extra / loads : 0.0,
		     (unsigned long long)c);
		/* 2 x 32 strided loads, each (degree - 1) extra cycles; the fill is conflict-free */
		CHECK_EQ(loads, 64);
		CHECK_MSG(extra == 64 * (cases[i].degree - 1), "stride %d: %llu conflict cycles, expected 64 x %u",
			  stride, (unsigned long long)extra, cases[i].degree - 1);
		/* each extra pass is a memory-stage stall cycle, as GPGPU-Sim's dispatch_delay counts
		 * them into gpgpu_n_stall_shd_mem (degree - 1 per load); the kernel's global stores
		 * are one transaction each and add none */
		uint64_t stalls = getstat(&e, "ldst_stall_cycles");
		CHECK_MSG(stalls == extra, "stride %d: %llu LD/ST stall cycles, %llu conflict cycles", stride,
			  (unsigned long long)stalls, (unsigned long long)extra);
		if (stride == 1)
			cyc1 = c;
		/* The 32 loads of one warp go back to back through the LD/ST unit,
		 * each occupying it `degree` cycles, so the time to the last data
		 * grows by 32 x (degree - 1).  Loads of one warp may leave their
		 * operand collectors out of order, so the load that finishes last
		 * can be the one before the last: one period (degree cycles) of
		 * uncertainty, plus 2 cycles of pipeline alignment. */
		long want = 32 * ((long)cases[i].degree - 1), got = (long)c - (long)cyc1;
		if (stride != 1)
			CHECK_MSG(labs(got - want) <= (long)cases[i].degree + 2,
				  "stride %d: 32 loads take %llu cycles, stride 1 %llu: +%ld, expected +%ld", stride,
				  (unsigned long long)c, (unsigned long long)cyc1, got, want);
		tclose(&e);
	}
}

/* ---- 5b. shared-memory atomics -------------------------------------------------- */

TEST(timing_shmem_atomic_serialization)
{
	/* stride between lanes' words -> read-modify-write passes per warp atomic */
	static const struct {
		int stride;
		unsigned passes;
	} cases[] = {{1, 1}, {0, 32}, {2, 2}, {32, 32}, {8, 8}};
	/* "0": GPGPU-Sim's timing (the default): an atomic costs what a shared load of the same
	 * addresses does -- distinct words per bank, 1 cycle each; lanes on one word broadcast */
	static const char *pass_cycles[] = {"2", "3", "0"};
	for (unsigned pc = 0; pc < 3; pc++) {
		uint64_t cyc1 = 0;
		unsigned p = (unsigned)atoi(pass_cycles[pc]);
		int gpgpusim = p == 0;
		if (gpgpusim)
			p = 1;
		for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
			struct tenv e;
			const char *kv[] = {"num_sms", "1", "shmem_atomic_pass", pass_cycles[pc], NULL};
			if (!topen(t, &e, kv))
				return;
			ws_deviceptr out = talloc(&e, 1024 * 4), cyc = talloc(&e, 16);
			int stride = cases[i].stride;
			void *args[] = {&out, &cyc, &stride};
			unsigned s[1024];
			uint64_t cc[2] = {0, 0};
			if (!tlaunch(t, &e, "shmem_atomic", 1, 32, args)) {
				tclose(&e);
				return;
			}
			wsMemcpyDtoH(e.sim, s, out, sizeof s);
			wsMemcpyDtoH(e.sim, cc, cyc, 16);
			/* functional: 64 atomics per lane */
			uint64_t sum = 0;
			for (unsigned w = 0; w < 1024; w++)
				sum += s[w];
			CHECK_EQ(sum, 64u * 32u);
			CHECK_EQ(s[0], stride == 0 ? 2048u : 64u);
			uint64_t extra = getstat(&e, "shmem_conflict_cycles");
			NOTE("pass %u cycles, stride %d: %llu conflict cycles, %llu cycles for 32 atomics", p, stride,
			     (unsigned long long)extra, (unsigned long long)cc[1]);
			unsigned passes = gpgpusim && stride == 0 ? 1 : cases[i].passes;
			/* 2 x 32 atomics, each (passes - 1) extra passes of p cycles; the
			 * fill and the copy-out are conflict-free loads and stores */
			CHECK_MSG(extra == 64ull * (passes - 1) * p, "pass %s, stride %d: %llu conflict cycles, expected %u",
				  pass_cycles[pc], stride, (unsigned long long)extra, 64 * (passes - 1) * p);
			/* the 32 atomics of a pass go back to back through the LD/ST
			 * unit, each occupying it passes x p cycles: as in the bank
			 * conflict test, one period plus 2 cycles of uncertainty */
			if (stride == 1)
				cyc1 = cc[1];
			else {
				long want = 32L * ((long)passes - 1) * p, got = (long)cc[1] - (long)cyc1;
				CHECK_MSG(labs(got - want) <= (long)(passes * p) + 2,
					  "stride %d: 32 atomics take %llu cycles, stride 1 %llu: +%ld, expected +%ld", stride,
					  (unsigned long long)cc[1], (unsigned long long)cyc1, got, want);
			}
			tclose(&e);
		}
	}
}

/* ---- 6. barrier stall accounting -------------------------------------------------- */

TEST(timing_barrier_stall)
{
	/* One CTA of 4 warps on one SM: warp 0 runs 32 x 32 dependent adds
	 * (about 7700 cycles) before __syncthreads, warps 1-3 go straight to it.
	 * Warps 0 and 2 belong to scheduler 0, warps 1 and 3 to scheduler 1. */
	const unsigned nw = 4;
	struct tenv e;
	const char *kv[] = {"num_sms", "1", NULL};
	if (!topen(t, &e, kv))
		return;
	ws_deviceptr tt = talloc(&e, (2 * nw + 1) * 8), res = talloc(&e, nw * 32 * 4);
	int n = 32;
	void *args[] = {&tt, &res, &n};
	uint64_t c[2 * 4 + 1] = {0};
	if (tlaunch(t, &e, "barrier_wait", 1, nw * 32, args))
		wsMemcpyDtoH(e.sim, c, tt, sizeof c);
	uint64_t wbc = getstat(&e, "warp_barrier_cycles"), sb = getstat(&e, "stall_barrier");
	uint64_t chain = c[2 * nw];
	/* from the clocks read just before and after bar.sync: each warp waits
	 * from its own arrival to the last arrival */
	uint64_t last = 0, sum = 0;
	for (unsigned w = 0; w < nw; w++)
		last = c[2 * w] > last ? c[2 * w] : last;
	for (unsigned w = 0; w < nw; w++)
		sum += last - c[2 * w];
	NOTE("warp 0 chain %llu cycles; arrivals %llu %llu %llu %llu, after the barrier %llu %llu %llu %llu; "
	     "warp_barrier_cycles %llu, from the clocks %llu, (nwarps-1) x chain %llu; stall_barrier %llu",
	     (unsigned long long)chain, (unsigned long long)c[0], (unsigned long long)c[2], (unsigned long long)c[4],
	     (unsigned long long)c[6], (unsigned long long)c[1], (unsigned long long)c[3], (unsigned long long)c[5],
	     (unsigned long long)c[7], (unsigned long long)wbc, (unsigned long long)sum,
	     (unsigned long long)((nw - 1) * chain), (unsigned long long)sb);
	CHECK_MSG(c[0] == last, "warp 0 (the chain) is not the last to arrive");
	CHECK_EQ(getstat(&e, "barriers"), 1);
	/* the counter matches the clocks: bar.sync issues right after the clock
	 * read, or a few cycles later if the warp's I-buffer must be refilled
	 * first (branch_latency 4 + fetch_latency 1): allow 6 cycles per waiting warp */
	CHECK_MSG(wbc + 6 * (nw - 1) >= sum && wbc <= sum + 6 * (nw - 1),
		  "warp_barrier_cycles %llu, clocks say %llu", (unsigned long long)wbc, (unsigned long long)sum);
	/* (nwarps - 1) x the chain, less the time warps 1-3 took to reach the
	 * barrier after warp 0 started its chain: their first pass through the
	 * code after the branch misses in the cold I-cache (at most one
	 * DRAM round trip, < 400 cycles) */
	CHECK_MSG(wbc <= (nw - 1) * chain + 2 * nw && wbc + (nw - 1) * 400 >= (nw - 1) * chain,
		  "warp_barrier_cycles %llu, (nwarps - 1) x chain = %llu", (unsigned long long)wbc,
		  (unsigned long long)((nw - 1) * chain));
	/* scheduler 1 has only waiting warps while warp 0 runs its chain:
	 * its cycles are charged to the barrier (scheduler 0 sees warp 0's data stalls) */
	CHECK_MSG(sb > 0 && sb <= chain && sb + 400 >= chain, "stall_barrier %llu, chain %llu", (unsigned long long)sb,
		  (unsigned long long)chain);
	tclose(&e);
}

/* GPGPU-Sim's -gpgpu_perf_sim_memcpy 1 and -gpgpu_flush_l2_cache 0: a host copy leaves its
 * lines in the L2 (l2_memcpy_fill), and what one launch brought into the L2 is still there
 * for the next (l2_persist).  A 64-line chain 256 B apart (one line per channel and bank). */
static uint64_t chain_dram_reads(struct test_ctx *t, const char *fill, const char *persist, int launches)
{
	const char *kv[] = {"num_sms", "1", "l2_memcpy_fill", fill, "l2_persist", persist, NULL};
	struct tenv e;
	if (!topen(t, &e, kv))
		return UINT64_MAX;
	unsigned nlines = 64, stride = 256;
	int hops = 32;
	size_t bytes = (size_t)nlines * stride;
	ws_deviceptr buf = talloc(&e, bytes), out = talloc(&e, 3 * 8);
	uint64_t *h = calloc(bytes / 8, 8);
	if (!h) {
		tclose(&e);
		return UINT64_MAX;
	}
	for (unsigned i = 0; i < nlines; i++)
		h[(size_t)i * stride / 8] = buf + (uint64_t)((i + 1) % nlines) * stride;
	wsMemcpyHtoD(e.sim, buf, h, bytes);
	free(h);
	uint64_t start = buf, before = 0;
	void *args[] = {&start, &hops, &out};
	for (int k = 0; k < launches; k++) {
		before = getstat(&e, "dram_reads");
		tlaunch(t, &e, "chase", 1, 1, args);
	}
	uint64_t reads = getstat(&e, "dram_reads") - before; /* of the last launch */
	tclose(&e);
	return reads;
}

TEST(timing_l2_memcpy_fill_and_persist)
{
	/* installed by the host copy: the L2 serves the whole chain; DRAM sees only the
	 * kernel's instruction lines and (const_cache) its parameter line's 2 sectors */
	uint64_t filled = chain_dram_reads(t, "1", "1", 1);
	CHECK_MSG(filled <= 8 + 2, "l2_memcpy_fill: %llu DRAM reads, expected only instruction and parameter fetches",
		  (unsigned long long)filled);
	/* cold: every one of the 64 lines comes from DRAM as well */
	uint64_t cold = chain_dram_reads(t, "0", "1", 1);
	CHECK_MSG(cold >= 64 + filled, "no fill: %llu DRAM reads, expected every line", (unsigned long long)cold);
	/* a second launch finds what the first brought in, unless the L2 starts empty each launch */
	uint64_t warm = chain_dram_reads(t, "0", "1", 2);
	CHECK_MSG(warm == 0, "l2_persist: second launch made %llu DRAM reads, expected 0", (unsigned long long)warm);
	uint64_t flushed = chain_dram_reads(t, "0", "0", 2);
	CHECK_MSG(flushed >= 64, "l2_persist=0: second launch made %llu DRAM reads, expected every line",
		  (unsigned long long)flushed);
}

/* GPGPU-Sim never invalidates an SM's L1I (only the L1D, at a kernel's end):
 * l1i_persist keeps each SM's L1I from one launch to the next of the same
 * module.  The second launch of the same kernel then misses on no
 * instruction line; without it, it misses on every line the first did;
 * the first launch is the same either way. */
static void chase_l1i_misses(struct test_ctx *t, const char *persist, uint64_t miss[2], uint64_t cyc[2])
{
	const char *kv[] = {"num_sms", "1", "l1i_persist", persist, NULL};
	struct tenv e;
	miss[0] = miss[1] = cyc[0] = cyc[1] = 0;
	if (!topen(t, &e, kv))
		return;
	unsigned nlines = 16, stride = 256;
	int hops = 8;
	size_t bytes = (size_t)nlines * stride;
	ws_deviceptr buf = talloc(&e, bytes), out = talloc(&e, 3 * 8);
	uint64_t *h = calloc(bytes / 8, 8);
	if (!h) {
		tclose(&e);
		return;
	}
	for (unsigned i = 0; i < nlines; i++)
		h[(size_t)i * stride / 8] = buf + (uint64_t)((i + 1) % nlines) * stride;
	wsMemcpyHtoD(e.sim, buf, h, bytes);
	free(h);
	uint64_t start = buf;
	void *args[] = {&start, &hops, &out};
	for (int k = 0; k < 2; k++) {
		uint64_t m0 = getstat(&e, "l1i_misses") + getstat(&e, "l1i_hit_reserved"), c0 = getstat(&e, "cycles");
		tlaunch(t, &e, "chase", 1, 1, args);
		miss[k] = getstat(&e, "l1i_misses") + getstat(&e, "l1i_hit_reserved") - m0;
		cyc[k] = getstat(&e, "cycles") - c0;
	}
	tclose(&e);
}

TEST(timing_l1i_persist)
{
	uint64_t keep[2], cold[2], kc[2], cc[2];
	chase_l1i_misses(t, "1", keep, kc);
	chase_l1i_misses(t, "0", cold, cc);
	NOTE("L1I misses (with merges) per launch: kept %llu, %llu; cold %llu, %llu; cycles kept %llu, %llu, cold %llu, %llu",
	     (unsigned long long)keep[0], (unsigned long long)keep[1], (unsigned long long)cold[0],
	     (unsigned long long)cold[1], (unsigned long long)kc[0], (unsigned long long)kc[1], (unsigned long long)cc[0],
	     (unsigned long long)cc[1]);
	CHECK(cold[0] > 0);
	CHECK_EQ(keep[0], cold[0]);
	CHECK_EQ(kc[0], cc[0]);
	CHECK_EQ(cold[1], cold[0]);
	CHECK_EQ(keep[1], 0);
	CHECK(kc[1] < cc[1]);
}

/* GPGPU-Sim's CTA dispatcher (cta_rr_persist; issue_block2core and its
 * m_last_cluster_issue) starts each cycle at the SM after the last one that
 * received a CTA, and keeps that SM from one launch to the next: three
 * one-CTA launches on 4 SMs run on SMs 0, 1 and 2, so SM 0 issues one
 * launch's instructions.  Without it every launch starts at SM 0. */
static void rr_launches(struct test_ctx *t, const char *persist, uint64_t *sm0, uint64_t *all)
{
	const char *kv[] = {"num_sms", "4", "cta_rr_persist", persist, NULL};
	struct tenv e;
	*sm0 = *all = 0;
	if (!topen(t, &e, kv))
		return;
	ws_deviceptr out = talloc(&e, 16), res = talloc(&e, 32 * 4);
	unsigned x = 1;
	void *args[] = {&out, &res, &x};
	for (int k = 0; k < 3; k++)
		if (!tlaunch(t, &e, "chain_add", 1, 32, args))
			break;
	*sm0 = getstat(&e, "sm0_warp_insts");
	*all = getstat(&e, "warp_insts");
	tclose(&e);
}

TEST(timing_cta_rr_persist)
{
	uint64_t p0, pall, f0, fall;
	rr_launches(t, "1", &p0, &pall);
	rr_launches(t, "0", &f0, &fall);
	NOTE("three one-CTA launches on 4 SMs: SM 0 issued %llu of %llu warp instructions with cta_rr_persist, "
	     "%llu of %llu without",
	     (unsigned long long)p0, (unsigned long long)pall, (unsigned long long)f0, (unsigned long long)fall);
	CHECK(pall > 0);
	CHECK_EQ(pall, fall);
	CHECK_EQ(f0, fall);
	CHECK_EQ(p0 * 3, pall);
}

/* GPGPU-Sim's front end (fetch_on_empty): a warp is fetched for only when its
 * I-buffer is empty, fetch_width (2) instructions at a time, so one warp running
 * straight-line code costs about one I-cache access per 2 instructions; refilling
 * each free entry (fetch_on_empty = 0) costs about one per instruction.  The
 * correlation with GPGPU-Sim measured this on its L1I access counts
 * (docs/correlation.md). */
static void fetch_counts(struct test_ctx *t, const char *on_empty, uint64_t *fetches, uint64_t *insts)
{
	const char *kv[] = {"num_sms", "1", "fetch_on_empty", on_empty, NULL};
	struct tenv e;
	*fetches = *insts = 0;
	if (!topen(t, &e, kv))
		return;
	ws_deviceptr out = talloc(&e, 16), res = talloc(&e, 32 * 4);
	unsigned x = 1;
	void *args[] = {&out, &res, &x};
	if (tlaunch(t, &e, "chain_add", 1, 32, args)) {
		*fetches = getstat(&e, "fetches");
		*insts = getstat(&e, "warp_insts");
	}
	tclose(&e);
}

TEST(timing_fetch_on_empty)
{
	uint64_t f1, i1, f0, i0;
	fetch_counts(t, "1", &f1, &i1);
	fetch_counts(t, "0", &f0, &i0);
	NOTE("chain_add, one warp: %llu fetches for %llu instructions when empty, %llu for %llu per free entry",
	     (unsigned long long)f1, (unsigned long long)i1, (unsigned long long)f0, (unsigned long long)i0);
	CHECK_EQ(i1, i0);
	CHECK_MSG(i1 > 64 && f1 * 10 <= i1 * 6, "fetch_on_empty: %llu fetches for %llu instructions, expected about half",
		  (unsigned long long)f1, (unsigned long long)i1);
	CHECK_MSG(f0 * 10 >= i0 * 8, "fetch per free entry: %llu fetches for %llu instructions, expected about one each",
		  (unsigned long long)f0, (unsigned long long)i0);
}

/* fetch_per_cycle (GPGPU-Sim's inst_fetch_throughput): independent adds on
 * an SM of 4 schedulers, 4 SP units and 4 result buses with a perfect
 * I-cache.  One fetch a cycle of fetch_width = 2 instructions caps the SM at
 * 2 instructions per cycle; four fetches a cycle feed all 4 SP units (4 per
 * cycle, less the register-bank conflicts of 4 schedulers on 16 banks). */
TEST(timing_fetch_per_cycle)
{
	double rate = 0, ipc[2] = {0, 0};
	static const char *const fpc[2] = {"1", "4"};
	for (int k = 0; k < 2; k++) {
		const char *kv[] = {"num_sms", "1", "num_schedulers", "4", "num_sp_units", "4", "result_buses", "4", "l1i_perfect", "true",
				    "fetch_per_cycle", fpc[k], NULL};
		ipc[k] = loop_ipc(t, "indep_add", 128, 12, kv, &rate);
		NOTE("independent adds, 4 schedulers, fetch_per_cycle %s: IPC %.3f", fpc[k], ipc[k]);
	}
	CHECK_MSG(ipc[0] >= 0.9 * 2.0 && ipc[0] <= 1.02 * 2.0, "1 fetch a cycle: IPC %.3f, fetch bound 2", ipc[0]);
	CHECK_MSG(ipc[1] >= 0.85 * 4.0 && ipc[1] <= 1.02 * 4.0, "4 fetches a cycle: IPC %.3f, 4 SP units", ipc[1]);
}

/* l1i_perfect (GPGPU-Sim's perfect instruction cache): every fetch hits, no
 * instruction line is requested from the L2, and a warp never waits for one
 * (one warp of dependent adds: only the cold misses of its code are saved). */
TEST(timing_l1i_perfect)
{
	uint64_t acc[2] = {0, 0}, hits[2] = {0, 0}, fetches[2] = {0, 0}, l2[2] = {0, 0}, cyc[2] = {0, 0};
	for (int k = 0; k < 2; k++) {
		const char *kv[] = {"num_sms", "1", "l1i_perfect", k ? "true" : "false", NULL};
		struct tenv e;
		if (!topen(t, &e, kv))
			return;
		ws_deviceptr out = talloc(&e, 16), res = talloc(&e, 32 * 4);
		unsigned x = 1;
		void *args[] = {&out, &res, &x};
		if (tlaunch(t, &e, "chain_add", 1, 32, args)) {
			acc[k] = getstat(&e, "l1i_accesses");
			hits[k] = getstat(&e, "l1i_hits");
			fetches[k] = getstat(&e, "fetches");
			l2[k] = getstat(&e, "l2_accesses");
			cyc[k] = getstat(&e, "cycles");
		}
		tclose(&e);
	}
	NOTE("chain_add: %llu -> %llu cycles, L2 accesses %llu -> %llu", (unsigned long long)cyc[0],
	     (unsigned long long)cyc[1], (unsigned long long)l2[0], (unsigned long long)l2[1]);
	CHECK(acc[0] > hits[0]); /* the real cache misses its cold lines */
	CHECK(acc[1] > 0 && acc[1] == hits[1] && acc[1] == fetches[1]);
	CHECK_EQ(fetches[0], fetches[1]);
	CHECK_MSG(l2[1] < l2[0], "L2 accesses: %llu with a perfect I-cache, %llu without", (unsigned long long)l2[1],
		  (unsigned long long)l2[0]);
	CHECK_MSG(cyc[1] < cyc[0], "cycles: %llu with a perfect I-cache, %llu without", (unsigned long long)cyc[1],
		  (unsigned long long)cyc[0]);
}
