/*
 * test_threads.c -- settings of how the timing model runs on the host that
 * must not change any result (issue 14): the number of host threads
 * (`threads`) and busy SMs sleeping through eventless cycles (`sleep`).
 *
 * Every bundled benchmark at tiny size, ticked by 1, 2 and 3 host threads,
 * must give the same statistics JSON, byte for byte (only the echoed
 * `threads` value differs).  Configurations: GTX480 under GTO for every
 * benchmark; BOWS over GTO on the busy-wait suite (lock measurement of
 * buffered atomics); TITAN X (sub-cores, dual issue, warp sharing) on the
 * KAWS suite; DWR-32 on the DWR suite; the warp-phase trace on one barrier
 * benchmark.
 *
 * The same with sleep false and true, under every event-driven policy
 * (the ones whose SMs may sleep), on TITAN X, with SIMD passes (the Tesla
 * model: a scheduler-busy timer) and with other front ends (decode latency,
 * fetch on a full I-buffer, the cff and fef fetch policies); each of those
 * checks that SMs did sleep (wsSimHostWork), so that it can fail.
 *
 * A difference is reported by the key path of the first value that differs
 * and both values (first_diff).
 *
 * The pool itself (gpu/par.c): waiting threads block instead of spinning
 * on, the caller runs the shares of workers that have not started, each
 * share runs exactly once per round; statistics stay identical when every
 * wait blocks (WARPSIM_THREADS_SPIN_US=0); --threads above the cores this
 * process may use is lowered with a warning (no timing is asserted: speed
 * is measured by scripts/threads-busy.sh).
 *
 * WARPSIM_THREADS_BENCH=a,b,c limits the benchmarks (the ThreadSanitizer
 * build, `make tsan`, runs a few).
 */
#define _GNU_SOURCE /* sched_setaffinity */
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "cli_check.h"
#include "gpu/par.h"
#include "test.h"
#include "warpsim.h"

static bool selected(const char *name)
{
	const char *sel = getenv("WARPSIM_THREADS_BENCH");
	if (!sel || !*sel)
		return true;
	size_t n = strlen(name);
	for (const char *p = sel; *p;) {
		const char *e = strchr(p, ',');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		if (len == n && !strncmp(p, name, n))
			return true;
		p += len + (e ? 1 : 0);
	}
	return false;
}

static bool in_suite(const char *suite, const char *name)
{
	const char *const *s = ws_bench_suite(suite);
	for (; s && *s; s++)
		if (!strcmp(*s, name))
			return true;
	return false;
}

/* The setting a check varies: `key` set to `val`, which the statistics
 * JSON echoes as `"key": json,` (cut out before comparing). */
struct variant {
	const char *key, *val, *json;
};

/* The benchmarks' input size (tiny unless a test says otherwise). */
static enum ws_bench_size run_size = WS_SIZE_TINY;

/* Statistics JSON of one tiny run with setting v, its echo cut out; NULL on
 * failure (*why says what).  slept[0]: busy-SM cycles skipped asleep,
 * slept[1]: whole cycles skipped, slept[2]: SM ticks run. */
static char *run_json(const struct ws_bench_info *b, const char *const *kv, const struct variant *v, uint64_t *slept,
		      char *why, size_t whysz)
{
	ws_config *cfg = wsConfigCreate();
	char err[256];
	ws_sim *sim = NULL;
	ws_module *mod = NULL;
	char *json = NULL;
	size_t len = 0;
	ws_result r = cfg ? WS_SUCCESS : WS_ERROR_OUT_OF_MEMORY;
	for (unsigned k = 0; r == WS_SUCCESS && kv[k]; k += 2)
		r = !strcmp(kv[k], "config") ? wsConfigLoadFile(cfg, kv[k + 1], err, sizeof err)
					     : wsConfigSet(cfg, kv[k], kv[k + 1], err, sizeof err);
	if (r == WS_SUCCESS)
		r = wsConfigSet(cfg, v->key, v->val, err, sizeof err);
	if (r == WS_SUCCESS)
		r = wsSimCreate(&sim, cfg);
	if (r == WS_SUCCESS)
		r = wsModuleLoadData(sim, &mod, b->ptx, b->name);
	struct ws_bench_out out;
	memset(&out, 0, sizeof out);
	if (r == WS_SUCCESS)
		r = ws_bench_run(b, sim, mod, run_size, &out);
	if (r != WS_SUCCESS) {
		snprintf(why, whysz, "%s with %s=%s: %s %.200s", b->name, v->key, v->val, wsGetErrorName(r), out.msg);
	} else {
		wsSimHostWork(sim, &slept[2], &slept[0], &slept[1]);
		FILE *m = open_memstream(&json, &len);
		if (m) {
			wsStatsWriteJSON(sim, m);
			wsTraceWriteChrome(sim, m); /* the warp-phase records, when traced */
			fclose(m);
		}
		char key[64];
		snprintf(key, sizeof key, "\"%s\": %s,", v->key, v->json);
		char *p = json ? strstr(json, key) : NULL;
		if (p) /* cut out (true and false differ in length) */
			memmove(p, p + strlen(key), strlen(p + strlen(key)) + 1);
		else
			snprintf(why, whysz, "%s: no '%s' in the statistics JSON", b->name, key);
		if (!p) {
			free(json);
			json = NULL;
		}
	}
	wsSimDestroy(sim);
	wsConfigDestroy(cfg);
	return json;
}

/* The end of the JSON value or key that starts at p (a string, a number or
 * literal, or the opening bracket of an object or array). */
static const char *json_token_end(const char *p)
{
	if (*p == '"') {
		for (p++; *p && *p != '"'; p++)
			if (*p == '\\' && p[1])
				p++;
		return *p ? p + 1 : p;
	}
	if (*p == '{' || *p == '[')
		return p + 1;
	while (*p && !strchr(",:}] \t\n", *p))
		p++;
	return p;
}

/* Where the JSON texts a and b (the statistics JSON, maybe followed by the
 * warp-phase trace's) first differ, for the failure message: the key path
 * of the value there and both values, e.g. "/sm/issue_cycles: 1234 vs 1240";
 * a key, when the objects differ in their keys. */
static void first_diff(const char *a, const char *b, char *out, size_t outsz)
{
	size_t i = 0;
	while (a[i] && a[i] == b[i])
		i++;
	/* walk a up to i: the open objects and arrays, each with its current key or index */
	struct frame {
		bool obj, want_key;
		const char *key;
		int keylen;
		unsigned idx;
	} st[32];
	int depth = 0;
	unsigned doc = 0;
	size_t tok = i; /* start of the key or value that differs */
	bool is_key = false;
	for (size_t p = 0; p < i;) {
		char c = a[p];
		if (c == '"' || (c != ',' && c != ':' && !strchr("{}[] \t\n", c))) { /* string, number, literal */
			size_t e = (size_t)(json_token_end(a + p) - a);
			bool key = depth > 0 && st[depth - 1].obj && st[depth - 1].want_key;
			if (e > i || (e == i && c != '"')) { /* the difference is inside it (or where it ends) */
				tok = p;
				is_key = key;
				break;
			}
			if (key) {
				st[depth - 1].key = a + p + 1;
				st[depth - 1].keylen = (int)(e - p - 2);
				st[depth - 1].want_key = false;
			}
			p = e;
			continue;
		}
		if ((c == '{' || c == '[') && depth < 32) {
			if (!depth && p)
				doc++;
			st[depth++] = (struct frame){.obj = c == '{', .want_key = c == '{'};
		} else if ((c == '}' || c == ']') && depth) {
			depth--;
		} else if (c == ',' && depth) {
			if (st[depth - 1].obj)
				st[depth - 1].want_key = true;
			else
				st[depth - 1].idx++;
		}
		p++;
	}
	if (tok == i && depth && st[depth - 1].obj && st[depth - 1].want_key)
		is_key = true;
	size_t n = doc ? (size_t)snprintf(out, outsz, "document %u ", doc + 1) : 0;
	for (int k = 0; k < depth && n < outsz; k++) {
		if (st[k].obj && k == depth - 1 && is_key)
			break;
		n += st[k].obj ? (size_t)snprintf(out + n, outsz - n, "/%.*s", st[k].keylen, st[k].key)
			       : (size_t)snprintf(out + n, outsz - n, "[%u]", st[k].idx);
	}
	const char *ea = json_token_end(a + tok), *eb = json_token_end(b + tok);
	if (n < outsz)
		snprintf(out + n, outsz - n, "%s%s: %.*s vs %.*s", n ? "" : "/", is_key ? " (key)" : "",
			 (int)(ea - a - tok > 80 ? 80 : ea - a - tok), a + tok, (int)(eb - b - tok > 80 ? 80 : eb - b - tok),
			 b + tok);
}

/* Every benchmark (of `suite`, or all) under settings kv: each of the
 * variants vs[1..nv) gives the statistics of vs[0].  Returns how many
 * benchmarks ran; slept (if not NULL): busy-SM cycles skipped asleep,
 * whole cycles skipped and SM ticks run, in the runs of vs[1..nv). */
static unsigned check_variants(struct test_ctx *t, const char *suite, const char *const *kv,
			       const struct variant *vs, unsigned nv, uint64_t *slept)
{
	unsigned runs = 0;
	for (int i = 0; ws_bench_table[i]; i++) {
		const struct ws_bench_info *b = ws_bench_table[i];
		if ((suite && !in_suite(suite, b->name)) || !selected(b->name))
			continue;
		char why[768] = "";
		uint64_t sl[3] = {0, 0, 0};
		char *ref = run_json(b, kv, &vs[0], sl, why, sizeof why);
		CHECK_MSG(ref != NULL, "%s", why);
		sl[0] = sl[1] = sl[2] = 0;
		for (unsigned n = 1; ref && n < nv; n++) {
			uint64_t sn[3] = {0, 0, 0};
			char *got = run_json(b, kv, &vs[n], sn, why, sizeof why);
			CHECK_MSG(got != NULL, "%s", why);
			if (got && strcmp(ref, got)) {
				char d[400];
				first_diff(ref, got, d, sizeof d);
				test_fail(t, __FILE__, __LINE__, "%s (%s %s): %s=%s differs from %s=%s, first at key %s", b->name,
					  kv[0] ? kv[0] : "", kv[0] ? kv[1] : "", vs[n].key, vs[n].val, vs[0].key, vs[0].val,
					  d);
			}
			for (int k = 0; k < 3; k++)
				sl[k] += sn[k];
			free(got);
		}
		for (int k = 0; slept && k < 3; k++)
			slept[k] += sl[k];
		free(ref);
		runs++;
	}
	return runs;
}

/* 1, 2 and 3 host threads. */
static unsigned check_config(struct test_ctx *t, const char *suite, const char *const *kv)
{
	static const struct variant vs[] = {{"threads", "1", "1"}, {"threads", "2", "2"}, {"threads", "3", "3"}};
	return check_variants(t, suite, kv, vs, 3, NULL);
}

/* sleep false and true; SMs must have slept.  Returns the whole cycles skipped. */
static uint64_t check_sleep(struct test_ctx *t, const char *suite, const char *const *kv)
{
	static const struct variant vs[] = {{"sleep", "false", "false"}, {"sleep", "true", "true"}};
	uint64_t slept[3] = {0, 0, 0};
	unsigned n = check_variants(t, suite, kv, vs, 2, slept);
	CHECK_MSG(!n || slept[0] > 0, "%s %s: no SM ever slept in %u benchmarks", kv[0] ? kv[0] : "",
		  kv[0] ? kv[1] : "", n);
	return slept[1];
}

TEST(threads_every_benchmark_gtx480_identical)
{
	const char *kv[] = {"sched", "gto", NULL};
	unsigned n = check_config(t, NULL, kv);
	CHECK(n > 0);
}

TEST(threads_bows_suite_identical)
{
	const char *kv[] = {"sched", "bows:gto", NULL};
	check_config(t, "bows", kv);
}

TEST(threads_kaws_suite_titanx_identical)
{
	const char *kv[] = {"config", "configs/titanx-pascal.cfg", "sched", "kaws", NULL};
	check_config(t, "kaws", kv);
}

TEST(threads_dwr_suite_identical)
{
	const char *kv[] = {"config", "configs/tesla-dwr.cfg", "warp_size", "8", "dwr_max_warp", "32",
			    "issue_simd_passes", "1", "sched", "gto", NULL};
	check_config(t, "dwr", kv);
}

TEST(threads_trace_identical)
{
	const char *kv[] = {"trace_phases", "true", "sched", "lrr", NULL};
	const char *sel = getenv("WARPSIM_THREADS_BENCH");
	if (sel && *sel)
		return;
	setenv("WARPSIM_THREADS_BENCH", "sp,hs", 1);
	check_config(t, NULL, kv);
	unsetenv("WARPSIM_THREADS_BENCH");
}

/* Errors and watchdog reports are the same for every thread count: the first
 * faulting SM in SM order is reported, and deadlock and limit reports list
 * the same warps at the same cycle. */
struct fault_case {
	const char *kernel;
	unsigned grid, block;
	bool int_arg; /* oob_write: (64-int buffer, n = 40) */
	const char *key, *val;
	ws_result want;
};

/* Run a fault case with key = val: its result, and in msg its error report
 * and the counters up to the point it stopped; *skipped (if not NULL):
 * whole cycles skipped. */
static ws_result run_fault(const struct fault_case *fc, const char *key, const char *val, char *msg, size_t msgsz,
			   uint64_t *skipped)
{
	ws_config *cfg = wsConfigCreate();
	char err[256];
	wsConfigSet(cfg, key, val, err, sizeof err);
	if (fc->key)
		wsConfigSet(cfg, fc->key, fc->val, err, sizeof err);
	ws_sim *sim = NULL;
	ws_module *mod = NULL;
	ws_function *f = NULL;
	ws_result r = wsSimCreate(&sim, cfg);
	wsConfigDestroy(cfg);
	if (r == WS_SUCCESS)
		r = wsModuleLoad(sim, &mod, TEST_DATA_DIR "/ptx/func/faults.ptx");
	if (r == WS_SUCCESS)
		r = wsModuleGetFunction(&f, mod, fc->kernel);
	ws_deviceptr p = 0;
	size_t bytes = fc->int_arg ? 64 * 4 : 1 << 16;
	if (r == WS_SUCCESS && (r = wsMemAlloc(sim, &p, bytes)) == WS_SUCCESS)
		wsMemsetD8(sim, p, 0, bytes);
	int n = 40; /* oob_write: threads 24.. of each CTA write past 64 ints */
	void *args[] = {&p, &n};
	if (r == WS_SUCCESS)
		r = wsLaunchKernel(f, fc->grid, 1, 1, fc->block, 1, 1, 0, args);
	size_t len = (size_t)snprintf(msg, msgsz, "%s", sim ? wsSimLastError(sim) : "");
	static const char *const ctr[] = {"cycles", "warp_insts", "stall_barrier", "stall_idle", "stall_exit",
					  "sm_inactive_idle", "dram_cycles", "icnt_req_packets"};
	for (unsigned k = 0; sim && k < sizeof ctr / sizeof ctr[0] && len < msgsz; k++) {
		uint64_t v = 0;
		wsStatsGet(sim, ctr[k], &v);
		len += (size_t)snprintf(msg + len, msgsz - len, " %s=%llu", ctr[k], (unsigned long long)v);
	}
	if (skipped)
		wsSimHostWork(sim, NULL, NULL, skipped);
	wsSimDestroy(sim);
	return r;
}

static const struct fault_case fault_cases[] = {
	{"oob_write", 30, 64, true, NULL, NULL, WS_ERROR_ILLEGAL_ADDRESS},
	{"named_barrier_deadlock", 30, 64, false, NULL, NULL, WS_ERROR_DEADLOCK},
	{"barrier_deadlock", 30, 64, false, "max_warp_insts", "20000", WS_ERROR_LIMIT_EXCEEDED},
};

/* Each fault case with key = vals[0] and with key = vals[n]: same result,
 * same report, same counters.  Returns the whole cycles the vals[n] runs
 * skipped. */
static uint64_t check_faults(struct test_ctx *t, const char *key, const char *const *vals, unsigned nv)
{
	uint64_t skipped = 0;
	for (unsigned k = 0; k < sizeof fault_cases / sizeof fault_cases[0]; k++) {
		char ref[2048], got[2048];
		ws_result r1 = run_fault(&fault_cases[k], key, vals[0], ref, sizeof ref, NULL);
		CHECK_MSG(r1 == fault_cases[k].want, "%s: %s (%s)", fault_cases[k].kernel, wsGetErrorName(r1), ref);
		for (unsigned n = 1; n < nv; n++) {
			uint64_t sk = 0;
			ws_result rn = run_fault(&fault_cases[k], key, vals[n], got, sizeof got, &sk);
			skipped += sk;
			CHECK_MSG(rn == r1 && !strcmp(ref, got), "%s with %s=%s: %s '%s' vs %s '%s'", fault_cases[k].kernel,
				  key, vals[n], wsGetErrorName(rn), got, wsGetErrorName(r1), ref);
		}
	}
	return skipped;
}

TEST(threads_errors_identical)
{
	const char *vals[] = {"1", "2", "3"};
	check_faults(t, "threads", vals, 3);
}

/* ---- busy SMs sleeping (sleep) ---- */

TEST(sleep_every_benchmark_gtx480_identical)
{
	const char *kv[] = {"sched", "gto", NULL};
	uint64_t skipped = check_sleep(t, NULL, kv);
	CHECK_MSG(skipped > 0 || getenv("WARPSIM_THREADS_BENCH"), "no cycle was skipped whole in any benchmark");
}

/* sleep false and true for the benchmarks `names` under settings kv
 * (tiny size), and with sleep the SMs must skip at least pct % of their
 * busy cycles: the waits the setting provokes are ones an SM sleeps through. */
static void check_sleep_share(struct test_ctx *t, const char *names, const char *const *kv, unsigned pct)
{
	static const struct variant vs[] = {{"sleep", "false", "false"}, {"sleep", "true", "true"}};
	const char *sel = getenv("WARPSIM_THREADS_BENCH");
	if (sel && *sel)
		return;
	setenv("WARPSIM_THREADS_BENCH", names, 1);
	uint64_t slept[3] = {0, 0, 0};
	unsigned n = check_variants(t, NULL, kv, vs, 2, slept);
	unsetenv("WARPSIM_THREADS_BENCH");
	CHECK(n > 0);
	CHECK_MSG(slept[0] * 100 >= (slept[0] + slept[2]) * pct,
		  "%s with %s=%s: SMs slept %llu of %llu busy cycles, below %u %%", names, kv[2], kv[3],
		  (unsigned long long)slept[0], (unsigned long long)(slept[0] + slept[2]), pct);
}

/* check_sleep_share, and the same benchmarks and settings with 1, 2 and 3
 * threads (check_config) */
static void check_sleep_share_threads(struct test_ctx *t, const char *names, const char *const *kv, unsigned pct)
{
	check_sleep_share(t, names, kv, pct);
	const char *sel = getenv("WARPSIM_THREADS_BENCH");
	if (sel && *sel)
		return;
	setenv("WARPSIM_THREADS_BENCH", names, 1);
	CHECK(check_config(t, NULL, kv) > 0);
	unsetenv("WARPSIM_THREADS_BENCH");
}

/* Collectors that wait for a busy unit (SFU initiation interval 200: cp's
 * square roots and reciprocals): the SM sleeps until the unit is free (1.9 %
 * of the busy cycles slept when collectors kept an SM awake, 93 % with their
 * timers when cp used rsqrtf; 77 % since cp takes 1 / sqrtf, two SFU
 * instructions a point, as the ISPASS-2009 CP) */
TEST(sleep_collector_unit_wait_identical)
{
	const char *kv[] = {"sched", "gto", "ii_sfu", "200", NULL};
	check_sleep_share(t, "cp", kv, 60);
}

/* An LD/ST unit that retries an L1D reservation fail every cycle (one L1D
 * MSHR): the SM sleeps until the reply that frees it, the retries' stall
 * cycles and reservation fails added when it wakes (mp: 0.9 % slept when
 * a busy LD/ST pipeline kept an SM awake, 94 % with the sleep). Without the
 * L1D latency queue (a default since the second GTX480 flip): with it the
 * fails are at the queue's head (sleep_l1q_head_reservation_fail_identical) */
TEST(sleep_ldst_reservation_fail_identical)
{
	const char *kv[] = {"sched", "gto", "l1d_mshrs", "1", "l1d_latency_queue", "false", NULL};
	check_sleep_share(t, "mp", kv, 80);
}

/* The run that found the reservation-fail sleep counting 192,679
 * l1d_res_fails where ticking counts 192,674 (hotspot, paper size, TITAN X,
 * l1d_bypass=false, LRR): one pipeline's reservation fail, then another
 * pipeline's send in the same tick filled the SM's interconnect input, so
 * the next cycle's retry waited for the input and counted no fail; the SM
 * now stays awake for that tick (ldst.c enum txn_wait) */
TEST(sleep_ldst_reservation_fail_input_filled_identical)
{
	const char *sel = getenv("WARPSIM_THREADS_BENCH");
	if (sel && *sel)
		return;
	const char *kv[] = {"config", "configs/titanx-pascal.cfg", "sched", "lrr", "l1d_bypass", "false", NULL};
	run_size = WS_SIZE_PAPER;
	check_sleep_share(t, "hotspot", kv, 12);
	run_size = WS_SIZE_TINY;
}

/* An LD/ST unit whose interconnect input is full (a one-flit input buffer
 * drained at 20 MHz; no reservation fail with 4096 MSHRs): the SM sleeps
 * until the input has room (stn and vecadd: 66 % slept without that wake,
 * 86 % with it). Without the L1D latency queue, as above (with it 72 %) */
TEST(sleep_ldst_input_full_identical)
{
	const char *kv[] = {"sched", "gto", "icnt_in_buf_flits", "1", "clock_icnt", "20", "l1d_mshrs", "4096",
			    "l1d_latency_queue", "false", NULL};
	check_sleep_share(t, "stn,vecadd", kv, 80);
}

/* Per-sector L2 MSHRs (l2_mshr_sectors, GPGPU-Sim's sectored L2), small
 * size: with a table of 8 sector entries (entry fails: srad2 1,314 L2
 * reservation fails) and with one request per sector (merge fails: 1,513),
 * the refused requests retry in the L2 until a DRAM fill; statistics
 * identical with and without sleeping */
TEST(sleep_l2_mshr_sectors_identical)
{
	const char *few[] = {"sched", "gto", "l2_mshr_sectors", "true", "l2_mshrs", "8", NULL};
	const char *merge1[] = {"sched", "gto", "l2_mshr_sectors", "true", "l2_mshr_merge", "1", NULL};
	/* and with tRTPL per bank group (dram_rtpl_group) */
	const char *rtpl[] = {"sched", "gto", "l2_mshr_sectors", "true", "dram_rtpl_group", "true", NULL};
	run_size = WS_SIZE_SMALL;
	check_sleep_share(t, "srad2,mm,stn,sp", few, 30);
	check_sleep_share(t, "srad2,mm,stn,sp", merge1, 30);
	check_sleep_share(t, "srad2,mm,stn,sp", rtpl, 30);
	run_size = WS_SIZE_TINY;
}

/* The collectors shared by the schedulers (opcoll_units) and the LD/ST
 * unit's own writeback port (ldst_wb_ports), both off in every config:
 * statistics identical with sleep off and on and with 1, 2 and 3 threads
 * (a result waiting for the port keeps its SM awake; the shared collectors
 * are counted in every scheduler's entry). */
TEST(sleep_threads_opcoll_units_ldst_wb_ports_identical)
{
	const char *kv[] = {"sched", "gto", "opcoll_units", "6,8,0,0,2,4", "ldst_wb_ports", "1", NULL};
	check_sleep_share_threads(t, "mg,mm,3mm,sp,cp", kv, 20);
}

/* The same two waits at the head of the L1D latency queue (l1d_latency_queue,
 * on in the GTX480 defaults, sleep_every_benchmark_gtx480_identical): a head
 * that fails the same way every cycle holds its bank, and the pipeline
 * behind it waits for room in the bank; the SM sleeps until the reply or
 * the room in the input, each retry's reservation fail and stall cycle
 * added when it wakes (mp with one MSHR: 1.0 % slept when a stuck head kept
 * the SM awake, 92 % with the sleep; stn and vecadd with the slow input,
 * no reservation fail: 72 % slept without it, 84 % with it) */
TEST(sleep_l1q_head_reservation_fail_identical)
{
	const char *kv[] = {"sched", "gto", "l1d_mshrs", "1", "l1d_latency_queue", "true", NULL};
	check_sleep_share(t, "mp", kv, 80);
}

TEST(sleep_l1q_head_input_full_identical)
{
	const char *kv[] = {"sched", "gto", "icnt_in_buf_flits", "1", "clock_icnt", "20", "l1d_mshrs", "4096",
			    "l1d_latency_queue", "true", NULL};
	check_sleep_share(t, "stn,vecadd", kv, 80);
}

/* At paper size, launches whose last cycles only drain memory (DRAM
 * write-backs, no SM ticking): a skip must not run past the launch's end
 * (it once added the watchdog's 200000 cycles to vecadd) */
TEST(sleep_paper_size_identical)
{
	const char *sel = getenv("WARPSIM_THREADS_BENCH");
	if (sel && *sel)
		return;
	const char *kv[] = {"sched", "lrr", NULL};
	setenv("WARPSIM_THREADS_BENCH", "vecadd,nn,scan", 1);
	run_size = WS_SIZE_PAPER;
	check_sleep(t, NULL, kv);
	run_size = WS_SIZE_TINY;
	unsetenv("WARPSIM_THREADS_BENCH");
}

/* CTAs waiting for a slot while nothing happens: the dispatcher's
 * round-robin start moves on in the skipped cycles too */
TEST(sleep_queued_ctas_identical)
{
	const char *kv[] = {"sched", "lrr", "num_sms", "3", "max_ctas_per_sm", "1", NULL};
	check_sleep(t, "syncfree", kv);
	check_sleep(t, "bows", kv);
}

/* every event-driven policy (sched.h), on the barrier and sync-free suites */
TEST(sleep_policies_identical)
{
	static const char *const pols[] = {"lrr", "cawa", "mwf-lrr", "mwf-gto", "saws", "ka"};
	for (unsigned k = 0; k < sizeof pols / sizeof pols[0]; k++) {
		const char *kv[] = {"sched", pols[k], NULL};
		check_sleep(t, "barrier", kv);
		check_sleep(t, "syncfree", kv);
	}
}

/* policies with per-cycle hooks that name their timers (next_event) and
 * count per cycle (skip): BOWS back-off and adaptive windows, DDOS time
 * sharing, gto-rotate's period (short, so that one sleep spans several
 * periods and a missed boundary shows in the rotation count) */
TEST(sleep_bows_suite_identical)
{
	const char *kv1[] = {"sched", "bows:gto", NULL};
	const char *kv2[] = {"sched", "bows:lrr", "bows_delay", "fixed", "bows_jitter", "true", NULL};
	const char *kv3[] = {"sched", "ddos:gto", "ddos_share", "true", "ddos_share_interval", "300", NULL};
	const char *kv4[] = {"sched", "bows:gto-rotate", "gto_rotate_period", "60", NULL};
	const char *kv5[] = {"sched", "gto-rotate", "gto_rotate_period", "9", NULL};
	check_sleep(t, "bows", kv1);
	check_sleep(t, "bows", kv2);
	check_sleep(t, "bows", kv3);
	check_sleep(t, "bows", kv4);
	check_sleep(t, "barrier", kv5);
}

TEST(sleep_kaws_suite_titanx_identical)
{
	const char *kv[] = {"config", "configs/titanx-pascal.cfg", "sched", "kaws", NULL};
	check_sleep(t, "kaws", kv);
}

/* the Tesla model's SIMD passes keep a scheduler busy: a timer an SM sleeps until */
TEST(sleep_simd_passes_identical)
{
	const char *kv[] = {"config", "configs/tesla-dwr.cfg", "warp_size", "32", "dwr_max_warp", "0",
			    "issue_simd_passes", "1", "sched", "gto", NULL};
	check_sleep(t, "dwr", kv);
}

/* DWR's partner barriers: the barrier operation's latency and the sync
 * timeout are timers (dwr_next_event) */
TEST(sleep_dwr_suite_identical)
{
	const char *kv1[] = {"config", "configs/tesla-dwr.cfg", "warp_size", "8", "dwr_max_warp", "32",
			     "issue_simd_passes", "1", "sched", "gto", NULL};
	const char *kv2[] = {"config", "configs/tesla-dwr.cfg", "warp_size", "8", "dwr_max_warp", "64",
			     "issue_simd_passes", "1", "dwr_sync_timeout", "40", "dwr_ilt_arrival", "true",
			     "sched", "lrr", NULL};
	check_sleep(t, "dwr", kv1);
	check_sleep(t, "dwr", kv2);
}

/* front ends whose timers differ: decode latency, fetch on a full I-buffer,
 * and the fetch policies that ask the issue policy (cff) or look at it (fef) */
TEST(sleep_frontends_identical)
{
	const char *kv1[] = {"fetch_latency", "3", "branch_latency", "7", "fetch_on_empty", "false", "sched", "gto",
			     NULL};
	const char *kv2[] = {"fetch", "cff", "sched", "mwf-lrr", NULL};
	const char *kv3[] = {"fetch", "fef", "sched", "lrr", NULL};
	check_sleep(t, "barrier", kv1);
	check_sleep(t, "barrier", kv2);
	check_sleep(t, "barrier", kv3);
}

/* SMs asleep when a launch stops: the deadlock and limit reports and the
 * counters up to that cycle are the same */
TEST(sleep_errors_identical)
{
	const char *vals[] = {"false", "true"};
	/* the deadlocked warps all wait at barriers: the loop jumps to the watchdog's cycle */
	CHECK(check_faults(t, "sleep", vals, 2) > 100000);
}

/* Device printf from many SMs: the output (flushed per SM in SM order at the
 * end of each cycle when threads > 1) is the same text for every thread
 * count -- nothing lost, duplicated or interleaved. */
static char *printf_run(unsigned threads, unsigned grid)
{
	ws_config *cfg = wsConfigCreate();
	char err[128], tv[16];
	snprintf(tv, sizeof tv, "%u", threads);
	wsConfigSet(cfg, "threads", tv, err, sizeof err);
	ws_sim *sim = NULL;
	ws_module *mod = NULL;
	ws_function *f = NULL;
	char *buf = NULL;
	size_t len = 0;
	ws_result r = wsSimCreate(&sim, cfg);
	wsConfigDestroy(cfg);
	if (r == WS_SUCCESS)
		r = wsModuleLoad(sim, &mod, TEST_DATA_DIR "/ptx/func/devrt.ptx");
	if (r == WS_SUCCESS)
		r = wsModuleGetFunction(&f, mod, "_Z2pfPif");
	FILE *m = open_memstream(&buf, &len);
	if (r == WS_SUCCESS && m) {
		int a[32];
		for (int i = 0; i < 32; i++)
			a[i] = i * 10;
		ws_deviceptr d = 0;
		wsMemAlloc(sim, &d, sizeof a);
		wsMemcpyHtoD(sim, d, a, sizeof a);
		float x = 1.5f;
		void *args[] = {&d, &x};
		wsSimSetPrintfStream(sim, m);
		r = wsLaunchKernel(f, grid, 1, 1, 32, 1, 1, 0, args);
		wsSimSetPrintfStream(sim, NULL);
	}
	if (m)
		fclose(m);
	wsSimDestroy(sim);
	if (r != WS_SUCCESS) {
		free(buf);
		return NULL;
	}
	return buf;
}

TEST(threads_printf_identical)
{
	char *ref = printf_run(1, 40);
	CHECK(ref != NULL);
	size_t lines = 0;
	for (const char *p = ref; p && *p; p++)
		lines += *p == '\n';
	CHECK_EQ(lines, 120); /* 3 lines per CTA */
	for (unsigned n = 2; ref && n <= 3; n++) {
		char *got = printf_run(n, 40);
		CHECK_MSG(got && !strcmp(ref, got), "printf output with %u threads differs (%zu vs %zu bytes)", n,
			  strlen(ref), got ? strlen(got) : 0);
		free(got);
	}
	free(ref);
}

/* ---- the pool: blocking waits, shares taken over, the cap on threads ---- */

/* One counter per share, each written only by whoever runs the share (a
 * share run twice, or by two threads at once, miscounts or is a data race
 * under ThreadSanitizer). */
struct count_job {
	uint64_t n[4][8]; /* [k][0], a cache line apart */
};
static void count_share(void *ctx, unsigned k)
{
	struct count_job *j = ctx;
	j->n[k][0]++;
}

static void sleep_ms(long ms)
{
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
	nanosleep(&ts, NULL);
}

/* par_env_read: the defaults, the values it takes, and every bad value
 * refused with the variable named (par_create then refuses too). */
TEST(threads_pool_env_values)
{
	struct par_env e;
	char err[200];
	unsetenv("WARPSIM_THREADS_SPIN_US");
	unsetenv("WARPSIM_THREADS_PROFILE");
	CHECK(par_env_read(&e, err, sizeof err) && e.spin_s == 50e-6 && !e.profile);
	setenv("WARPSIM_THREADS_SPIN_US", "0", 1);
	setenv("WARPSIM_THREADS_PROFILE", "1", 1);
	CHECK(par_env_read(&e, err, sizeof err) && e.spin_s == 0 && e.profile);
	setenv("WARPSIM_THREADS_SPIN_US", "1000000", 1);
	setenv("WARPSIM_THREADS_PROFILE", "0", 1);
	CHECK(par_env_read(&e, err, sizeof err) && e.spin_s == 1.0 && !e.profile);
	setenv("WARPSIM_THREADS_SPIN_US", "7x", 1);
	CHECK(!par_env_read(&e, err, sizeof err) && strstr(err, "WARPSIM_THREADS_SPIN_US='7x'"));
	CHECK(par_create(2) == NULL);
	unsetenv("WARPSIM_THREADS_SPIN_US");
	setenv("WARPSIM_THREADS_PROFILE", "true", 1);
	CHECK(!par_env_read(&e, err, sizeof err) && strstr(err, "WARPSIM_THREADS_PROFILE='true'"));
	unsetenv("WARPSIM_THREADS_PROFILE");
	struct par *p = par_create(2);
	CHECK(p != NULL);
	par_destroy(p);
}

/* 4 threads, 3000 rounds with pauses between some (the workers run out of
 * spinning and block, and wake to find the caller has run their shares):
 * every share ran once per round, waits blocked and shares were taken
 * over.  With the default spin limit (50 us) and with 0 (block at once). */
TEST(threads_pool_blocks_and_takes_over)
{
	for (int spin0 = 0; spin0 < 2; spin0++) {
		if (spin0)
			setenv("WARPSIM_THREADS_SPIN_US", "0", 1);
		struct par *p = par_create(4);
		unsetenv("WARPSIM_THREADS_SPIN_US");
		CHECK(p != NULL);
		if (!p)
			return;
		struct count_job j;
		memset(&j, 0, sizeof j);
		unsigned rounds = 3000;
		for (unsigned r = 0; r < rounds; r++) {
			if (r % 600 == 1)
				sleep_ms(20); /* far past the spin limit: the workers block */
			par_run(p, count_share, &j);
		}
		uint64_t blocked, taken;
		par_counts(p, &blocked, &taken);
		par_destroy(p);
		for (unsigned k = 0; k < 4; k++)
			CHECK_MSG(j.n[k][0] == rounds, "spin %s: share %u ran %llu times in %u rounds", spin0 ? "0" : "default",
				  k, (unsigned long long)j.n[k][0], rounds);
		CHECK_MSG(blocked > 0, "spin %s: no wait blocked, although the caller paused 20 ms 5 times",
			  spin0 ? "0" : "default");
		if (spin0)
			CHECK_MSG(taken > 0, "the caller never ran a share of a blocked worker (%llu blocked waits)",
				  (unsigned long long)blocked);
	}
}

/* On one core, where the workers rarely run, the caller takes over their
 * shares and then runs whole windows of rounds alone (par.c, PAR_ALONE):
 * still every share exactly once a round, and the pool ends cleanly. */
TEST(threads_pool_on_one_core)
{
	cpu_set_t old, one;
	if (sched_getaffinity(0, sizeof old, &old) != 0)
		return;
	CPU_ZERO(&one);
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &old)) {
			CPU_SET(c, &one);
			break;
		}
	CHECK(sched_setaffinity(0, sizeof one, &one) == 0);
	struct par *p = par_create(3); /* the workers inherit the one core */
	CHECK(p != NULL);
	if (p) {
		struct count_job j;
		memset(&j, 0, sizeof j);
		unsigned rounds = 20000;
		for (unsigned r = 0; r < rounds; r++)
			par_run(p, count_share, &j);
		par_destroy(p);
		for (unsigned k = 0; k < 3; k++)
			CHECK_MSG(j.n[k][0] == rounds, "one core: share %u ran %llu times in %u rounds", k,
				  (unsigned long long)j.n[k][0], rounds);
	}
	sched_setaffinity(0, sizeof old, &old);
}

/* Every wait blocks (WARPSIM_THREADS_SPIN_US=0) and the caller takes over
 * the shares of workers still asleep: the statistics of 1, 2 and 4 threads
 * (more than this machine's cores, maybe) stay identical. */
TEST(threads_blocking_identical)
{
	const char *sel = getenv("WARPSIM_THREADS_BENCH");
	bool own = !sel || !*sel;
	if (own)
		setenv("WARPSIM_THREADS_BENCH", "mm,sp,bfs,hashtable,nw1,atm", 1);
	setenv("WARPSIM_THREADS_SPIN_US", "0", 1);
	static const struct variant vs[] = {{"threads", "1", "1"}, {"threads", "2", "2"}, {"threads", "4", "4"}};
	const char *kv[] = {"sched", "gto", NULL};
	unsigned n = check_variants(t, NULL, kv, vs, 3, NULL);
	CHECK(n > 0);
	unsetenv("WARPSIM_THREADS_SPIN_US");
	if (own)
		unsetenv("WARPSIM_THREADS_BENCH");
}

/* wsHostCores follows the CPU affinity; `warpsim run --threads N` above it
 * is lowered with a one-line warning, kept with --oversubscribe. */
TEST(threads_capped_to_cores)
{
	unsigned all = wsHostCores();
	CHECK(all >= 1);
	cpu_set_t old, one;
	if (sched_getaffinity(0, sizeof old, &old) == 0) {
		CPU_ZERO(&one);
		for (int c = 0; c < CPU_SETSIZE; c++)
			if (CPU_ISSET(c, &old)) {
				CPU_SET(c, &one);
				break;
			}
		if (sched_setaffinity(0, sizeof one, &one) == 0) {
			CHECK_EQ(wsHostCores(), 1);
			sched_setaffinity(0, sizeof old, &old);
		}
	}
	if (cli_missing(t) || all >= 1024)
		return;
	char *out;
	int rc = cli_run("run vecadd --size tiny --quiet --threads 1024", 1, &out);
	CHECK_MSG(rc == 0, "exit %d: %s", rc, out);
	char want[200];
	snprintf(want, sizeof want, "warpsim run: warning: threads=1024 is more than the %u core%s this process may use: "
		 "using %u (--oversubscribe keeps 1024)\n", all, all == 1 ? "" : "s", all);
	CHECK_STR_CONTAINS(out, want);
	CHECK_STR_CONTAINS(out, "verification: PASSED");
	free(out);
	rc = cli_run("run vecadd --size tiny --quiet --threads 1024 --oversubscribe", 1, &out);
	CHECK_MSG(rc == 0, "exit %d: %s", rc, out);
	CHECK_MSG(!strstr(out, "warning"), "--oversubscribe still warned: %s", out);
	free(out);
	/* `warpsim cuda --threads N` reaches the program's runtime capped the same way */
	char sum[] = "/tmp/warpsim-threads-XXXXXX";
	int fd = mkstemp(sum);
	CHECK(fd >= 0);
	if (fd < 0)
		return;
	close(fd);
	char args[256];
	snprintf(args, sizeof args, "cuda --threads 2 --quiet --summary %s -- " TEST_DATA_DIR "/cudart/bin/vecadd", sum);
	rc = cli_run(args, 1, &out);
	CHECK_MSG(rc == 0, "exit %d: %s", rc, out);
	free(out);
	char *json = cli_slurp(sum, NULL);
	snprintf(want, sizeof want, "\"threads\": %u,", all < 2 ? all : 2);
	CHECK_MSG(json && strstr(json, want), "cuda --threads 2: no '%s' in the summary", want);
	free(json);
	remove(sum);
}

/* ldst_inject_fair (an SM's interconnect input taken oldest waiter first),
 * with a 4-flit input drained at 100 MHz so that loads, stores and atomics
 * wait for it (tiny size, GTO: ht 49,345 cycles with the option, a livelock
 * report at 10M without; atm 169,052 against 186,349; stn 10,046 against
 * 9,983): a client refused while another holds the input wakes its SM only
 * through the holder's room (ldst_input_ready); statistics identical with
 * sleep off and on (73 % of the busy cycles slept) and with 1, 2 and 3
 * threads */
TEST(sleep_threads_ldst_inject_fair_identical)
{
	const char *kv[] = {"sched", "gto", "ldst_inject_fair", "true", "icnt_in_buf_flits", "4", "clock_icnt", "100",
			    NULL};
	check_sleep_share_threads(t, "ht,atm,hashtable,stn,vecadd", kv, 60);
}
