/*
 * test_threads.c -- deterministic parallel simulation (issue 14): every
 * bundled benchmark at tiny size, ticked by 1, 2 and 3 host threads
 * (`threads`), must give the same statistics JSON, byte for byte (only the
 * echoed `threads` value differs).  Configurations: GTX480 under GTO for
 * every benchmark; BOWS over GTO on the busy-wait suite (lock measurement
 * of buffered atomics); TITAN X (sub-cores, dual issue, warp sharing) on the
 * KAWS suite; DWR-32 on the DWR suite; the warp-phase trace on one
 * barrier benchmark.
 *
 * WARPSIM_THREADS_BENCH=a,b,c limits the benchmarks (the ThreadSanitizer
 * build, `make tsan`, runs a few).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
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

/* Statistics JSON of one tiny run, with "threads": N blanked; NULL on failure
 * (*why says what). */
static char *run_json(const struct ws_bench_info *b, const char *const *kv, unsigned threads, char *why, size_t whysz)
{
	ws_config *cfg = wsConfigCreate();
	char err[256], tv[16];
	snprintf(tv, sizeof tv, "%u", threads);
	ws_sim *sim = NULL;
	ws_module *mod = NULL;
	char *json = NULL;
	size_t len = 0;
	ws_result r = cfg ? WS_SUCCESS : WS_ERROR_OUT_OF_MEMORY;
	for (unsigned k = 0; r == WS_SUCCESS && kv[k]; k += 2)
		r = !strcmp(kv[k], "config") ? wsConfigLoadFile(cfg, kv[k + 1], err, sizeof err)
					     : wsConfigSet(cfg, kv[k], kv[k + 1], err, sizeof err);
	if (r == WS_SUCCESS)
		r = wsConfigSet(cfg, "threads", tv, err, sizeof err);
	if (r == WS_SUCCESS)
		r = wsSimCreate(&sim, cfg);
	if (r == WS_SUCCESS)
		r = wsModuleLoadData(sim, &mod, b->ptx, b->name);
	struct ws_bench_out out;
	memset(&out, 0, sizeof out);
	if (r == WS_SUCCESS)
		r = ws_bench_run(b, sim, mod, WS_SIZE_TINY, &out);
	if (r != WS_SUCCESS) {
		snprintf(why, whysz, "%s with threads=%u: %s %.200s", b->name, threads, wsGetErrorName(r), out.msg);
	} else {
		FILE *m = open_memstream(&json, &len);
		if (m) {
			wsStatsWriteJSON(sim, m);
			wsTraceWriteChrome(sim, m); /* the warp-phase records, when traced */
			fclose(m);
		}
		char key[32];
		snprintf(key, sizeof key, "\"threads\": %u,", threads);
		char *p = json ? strstr(json, key) : NULL;
		if (p)
			memset(p, ' ', strlen(key));
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

/* First differing line of a and b, for the failure message. */
static void first_diff(const char *a, const char *b, char *out, size_t outsz)
{
	size_t line = 1, i = 0;
	while (a[i] && a[i] == b[i]) {
		line += a[i] == '\n';
		i++;
	}
	size_t s = i;
	while (s > 0 && a[s - 1] != '\n')
		s--;
	snprintf(out, outsz, "line %zu: '%.120s' vs '%.120s'", line, a + s, b + s);
}

static unsigned check_config(struct test_ctx *t, const char *suite, const char *const *kv)
{
	unsigned runs = 0;
	for (int i = 0; ws_bench_table[i]; i++) {
		const struct ws_bench_info *b = ws_bench_table[i];
		if ((suite && !in_suite(suite, b->name)) || !selected(b->name))
			continue;
		char why[768] = "";
		char *ref = run_json(b, kv, 1, why, sizeof why);
		CHECK_MSG(ref != NULL, "%s", why);
		for (unsigned n = 2; ref && n <= 3; n++) {
			char *got = run_json(b, kv, n, why, sizeof why);
			CHECK_MSG(got != NULL, "%s", why);
			if (got && strcmp(ref, got)) {
				char d[400];
				first_diff(ref, got, d, sizeof d);
				test_fail(t, __FILE__, __LINE__, "%s (%s %s): threads=%u differs from threads=1 at %s",
					  b->name, kv[0] ? kv[0] : "", kv[0] ? kv[1] : "", n, d);
			}
			free(got);
		}
		free(ref);
		runs++;
	}
	return runs;
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

static ws_result run_fault(const struct fault_case *fc, unsigned threads, char *msg, size_t msgsz)
{
	ws_config *cfg = wsConfigCreate();
	char err[256], tv[16];
	snprintf(tv, sizeof tv, "%u", threads);
	wsConfigSet(cfg, "threads", tv, err, sizeof err);
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
	snprintf(msg, msgsz, "%s", sim ? wsSimLastError(sim) : "");
	wsSimDestroy(sim);
	return r;
}

TEST(threads_errors_identical)
{
	static const struct fault_case cases[] = {
		{"oob_write", 30, 64, true, NULL, NULL, WS_ERROR_ILLEGAL_ADDRESS},
		{"named_barrier_deadlock", 30, 64, false, NULL, NULL, WS_ERROR_DEADLOCK},
		{"barrier_deadlock", 30, 64, false, "max_warp_insts", "20000", WS_ERROR_LIMIT_EXCEEDED},
	};
	for (unsigned k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		char ref[2048], got[2048];
		ws_result r1 = run_fault(&cases[k], 1, ref, sizeof ref);
		CHECK_MSG(r1 == cases[k].want, "%s: %s (%s)", cases[k].kernel, wsGetErrorName(r1), ref);
		for (unsigned n = 2; n <= 3; n++) {
			ws_result rn = run_fault(&cases[k], n, got, sizeof got);
			CHECK_MSG(rn == r1 && !strcmp(ref, got), "%s with %u threads: %s '%s' vs %s '%s'", cases[k].kernel,
				  n, wsGetErrorName(rn), got, wsGetErrorName(r1), ref);
		}
	}
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
