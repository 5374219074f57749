/*
 * bench_table.c -- `warpsim bench --table` (what `make bench` prints): the
 * simulator's speed per bundled kernel in the timing and the functional
 * model, a few kernels again at paper size, and idle-scaling rows.
 *
 * Models no hardware.  Each row runs a benchmark twice on fresh simulators
 * built from the command line's configuration: once as configured (the
 * timing model unless mode=functional is set) and once with
 * mode=functional.  Rates are taken over the host CPU time of the process
 * during the run (CLOCK_PROCESS_CPUTIME_ID), which a shared machine disturbs
 * less than wall-clock time; the wall time is printed too.
 *
 * Idle scaling: one warp of work (the kernel below: one CTA of 32 threads,
 * a chain of dependent global loads and multiply-adds) on machines that
 * differ only in num_sms.  Every SM but one has nothing to do, so a
 * simulator whose cost follows the activity, not the size of the machine,
 * runs every row at about the same speed.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"

static double cpu_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

struct table_run {
	ws_result r;
	char msg[512];
	double wall, cpu;
	uint64_t thread_insts, cycles;
};

static void collect(const ws_sim *sim, struct table_run *t)
{
	if (wsStatsGet(sim, "thread_insts", &t->thread_insts) != WS_SUCCESS)
		t->thread_insts = 0;
	if (wsStatsGet(sim, "cycles", &t->cycles) != WS_SUCCESS)
		t->cycles = 0;
}

/* A fresh simulator from cfg, with mode=functional when `functional`. */
static ws_sim *make_sim(const ws_config *cfg, bool functional, struct table_run *t)
{
	ws_config *c = wsConfigClone(cfg);
	char err[256] = "";
	ws_sim *sim = NULL;
	if (!c || (functional && wsConfigSet(c, "mode", "functional", err, sizeof err) != WS_SUCCESS) ||
	    wsSimCreate(&sim, c) != WS_SUCCESS) {
		snprintf(t->msg, sizeof t->msg, "cannot create the simulator%s%s", err[0] ? ": " : "", err);
		t->r = WS_ERROR_INVALID_CONFIG;
		if (sim)
			wsSimDestroy(sim);
		sim = NULL;
	}
	wsConfigDestroy(c);
	return sim;
}

static void run_one(const ws_config *cfg, bool functional, const struct ws_bench_info *b, enum ws_bench_size size,
		    struct table_run *t)
{
	memset(t, 0, sizeof *t);
	ws_sim *sim = make_sim(cfg, functional, t);
	if (!sim)
		return;
	char name[300];
	snprintf(name, sizeof name, "bench/%s/kernel.ptx", b->name);
	ws_module *mod = NULL;
	t->r = wsModuleLoadData(sim, &mod, b->ptx, name);
	if (t->r == WS_SUCCESS) {
		struct ws_bench_out out;
		memset(&out, 0, sizeof out);
		double w0 = speed_now(), c0 = cpu_now();
		t->r = ws_bench_run(b, sim, mod, size, &out);
		t->cpu = cpu_now() - c0;
		t->wall = speed_now() - w0;
		out.msg[sizeof out.msg - 1] = '\0';
		snprintf(t->msg, sizeof t->msg, "%.500s", out.msg[0] ? out.msg : wsSimLastError(sim)); /* a table cell: the head of it */
		collect(sim, t);
		wsModuleUnload(mod);
	} else {
		snprintf(t->msg, sizeof t->msg, "loading %s: %s", name, wsSimLastError(sim));
	}
	wsSimDestroy(sim);
}

/* One warp of work: out[t] = sum over `iters` loads of in[(t + 32 i) & mask], each
 * load feeding a multiply-add that the next iteration's multiply-add depends on. */
static const char onewarp_ptx[] =
	".version 7.0\n.target sm_75\n.address_size 64\n"
	".visible .entry onewarp(.param .u64 p_in, .param .u64 p_out, .param .u32 p_mask, .param .u32 p_iters)\n"
	"{\n"
	"\t.reg .pred %p<2>;\n\t.reg .f32 %f<3>;\n\t.reg .b32 %r<7>;\n\t.reg .b64 %rd<6>;\n"
	"\tld.param.u64 %rd1, [p_in];\n\tld.param.u64 %rd2, [p_out];\n"
	"\tld.param.u32 %r1, [p_mask];\n\tld.param.u32 %r2, [p_iters];\n"
	"\tcvta.to.global.u64 %rd1, %rd1;\n\tcvta.to.global.u64 %rd2, %rd2;\n"
	"\tmov.u32 %r3, %tid.x;\n\tmov.u32 %r4, %r3;\n\tmov.f32 %f1, 0f00000000;\n\tmov.u32 %r5, 0;\n"
	"LOOP:\n"
	"\tand.b32 %r6, %r4, %r1;\n\tmul.wide.u32 %rd3, %r6, 4;\n\tadd.s64 %rd4, %rd1, %rd3;\n"
	"\tld.global.f32 %f2, [%rd4];\n\tfma.rn.f32 %f1, %f1, 0f3F7FBE77, %f2;\n"
	"\tadd.s32 %r4, %r4, 32;\n\tadd.s32 %r5, %r5, 1;\n\tsetp.lt.u32 %p1, %r5, %r2;\n\t@%p1 bra LOOP;\n"
	"\tmul.wide.u32 %rd3, %r3, 4;\n\tadd.s64 %rd5, %rd2, %rd3;\n\tst.global.f32 [%rd5], %f1;\n\tret;\n"
	"}\n";

#define ONEWARP_WORDS 65536u
#define ONEWARP_ITERS 4000u

static void run_onewarp(const ws_config *cfg, unsigned nsms, struct table_run *t)
{
	memset(t, 0, sizeof *t);
	ws_config *c = wsConfigClone(cfg);
	char num[16], err[256] = "";
	snprintf(num, sizeof num, "%u", nsms);
	ws_sim *sim = NULL;
	if (!c || wsConfigSet(c, "num_sms", num, err, sizeof err) != WS_SUCCESS) {
		snprintf(t->msg, sizeof t->msg, "num_sms=%u: %s", nsms, err);
		t->r = WS_ERROR_INVALID_CONFIG;
		wsConfigDestroy(c);
		return;
	}
	sim = make_sim(c, false, t);
	wsConfigDestroy(c);
	if (!sim)
		return;
	ws_module *mod = NULL;
	ws_function *fn = NULL;
	ws_deviceptr din = 0, dout = 0;
	float *in = malloc(ONEWARP_WORDS * sizeof *in), out[32];
	ws_result r = in ? WS_SUCCESS : WS_ERROR_OUT_OF_MEMORY;
	for (unsigned i = 0; in && i < ONEWARP_WORDS; i++)
		in[i] = (float)(i % 7) * 0.25f;
	if (r == WS_SUCCESS)
		r = wsModuleLoadData(sim, &mod, onewarp_ptx, "onewarp.ptx");
	if (r == WS_SUCCESS)
		r = wsModuleGetFunction(&fn, mod, "onewarp");
	if (r == WS_SUCCESS)
		r = wsMemAlloc(sim, &din, ONEWARP_WORDS * sizeof *in);
	if (r == WS_SUCCESS)
		r = wsMemAlloc(sim, &dout, sizeof out);
	if (r == WS_SUCCESS)
		r = wsMemcpyHtoD(sim, din, in, ONEWARP_WORDS * sizeof *in);
	if (r == WS_SUCCESS) {
		uint32_t mask = ONEWARP_WORDS - 1, iters = ONEWARP_ITERS;
		void *args[] = {&din, &dout, &mask, &iters};
		double w0 = speed_now(), c0 = cpu_now();
		r = wsLaunchKernel(fn, 1, 1, 1, 32, 1, 1, 0, args);
		t->cpu = cpu_now() - c0;
		t->wall = speed_now() - w0;
	}
	if (r == WS_SUCCESS)
		r = wsMemcpyDtoH(sim, out, dout, sizeof out);
	if (r == WS_SUCCESS) { /* check the result against the same arithmetic on the host */
		for (unsigned l = 0; l < 32 && r == WS_SUCCESS; l++) {
			float acc = 0.f;
			for (unsigned i = 0; i < ONEWARP_ITERS; i++)
				acc = __builtin_fmaf(acc, 0x1.ff7ceep-1f, in[(l + 32 * i) & (ONEWARP_WORDS - 1)]);
			if (memcmp(&acc, &out[l], sizeof acc) != 0) {
				snprintf(t->msg, sizeof t->msg, "lane %u: %g, expected %g", l, (double)out[l], (double)acc);
				r = WS_ERROR_VERIFY_FAILED;
			}
		}
	} else {
		snprintf(t->msg, sizeof t->msg, "%s: %s", wsGetErrorString(r), wsSimLastError(sim));
	}
	t->r = r;
	collect(sim, t);
	free(in);
	wsSimDestroy(sim);
}

static void rate(uint64_t n, double s, int width)
{
	if (s > 0 && n)
		printf(" %*.3e", width, (double)n / s);
	else
		printf(" %*s", width, "-");
}

static const char *verdict(ws_result r)
{
	return r == WS_SUCCESS ? "yes" : r == WS_ERROR_VERIFY_FAILED ? "FAILED" : "ERROR";
}

static void print_total(int namew, enum ws_bench_size size, int failed, uint64_t tt, uint64_t tc, double tcpu,
			double twall, double fcpu)
{
	printf("%-*s %-6s %-8s %16llu %12llu %9.3f %9.3f", namew, "total", ws_bench_size_name(size), failed ? "NO" : "yes",
	       (unsigned long long)tt, (unsigned long long)tc, tcpu, twall);
	rate(tt, tcpu, 14);
	rate(tc, tcpu, 12);
	printf(" %9.3f", fcpu);
	rate(tt, fcpu, 14);
	if (fcpu > 0)
		printf(" %11.2f\n", tcpu / fcpu);
	else
		printf(" %11s\n", "-");
}

/* Parse "A,B,C"" of at most `max` unsigned values in [lo, hi]; count or -1. */
static int parse_list(const char *v, unsigned *out, int max, unsigned lo, unsigned hi)
{
	int n = 0;
	const char *p = v;
	for (;;) {
		char *end;
		unsigned long x = strtoul(p, &end, 10);
		if (end == p || (*end && *end != ',') || x < lo || x > hi || n == max)
			return -1;
		out[n++] = (unsigned)x;
		if (!*end)
			return n;
		p = end + 1;
	}
}

int cli_bench_table(const struct cli_args *a, const ws_config *cfg, const struct ws_bench_info **list, int n,
		    enum ws_bench_size size)
{
	const struct cli_cmd *cmd = a->cmd;
	/* --paper: benchmarks run again at paper size (default mm,sp) */
	const struct ws_bench_info *paper[64];
	int npaper = 0;
	const char *pv = cli_opt_get(a, "paper");
	if (!pv)
		pv = "mm,sp";
	if (strcmp(pv, "none") != 0) {
		char buf[512];
		snprintf(buf, sizeof buf, "%s", pv);
		for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
			const struct ws_bench_info *b = ws_bench_find(tok);
			if (!b || npaper == 64)
				return cli_usage_error(cmd, "--paper '%s': '%s' is not a bundled benchmark (or more than 64)",
						       pv, tok);
			paper[npaper++] = b;
		}
	}
	unsigned sms[8] = {15, 120, 960};
	int nsms = 3;
	const char *iv = cli_opt_get(a, "idle-sms");
	if (iv) {
		nsms = strcmp(iv, "0") == 0 ? 0 : parse_list(iv, sms, 8, 1, 1024);
		if (nsms < 0)
			return cli_usage_error(cmd, "--idle-sms '%s': expected up to 8 SM counts, 1 to 1024 each (0: none)",
					       iv);
	}
	int namew = 9;
	for (int i = 0; i < n; i++)
		if ((int)strlen(list[i]->name) > namew)
			namew = (int)strlen(list[i]->name);
	printf("# warpsim bench --table: each kernel in the timing model (the configuration as given) and in the\n"
	       "# functional model (mode=functional), on fresh simulators.  Rates are per second of host CPU time\n"
	       "# of this process (wall-clock seconds alongside); thread instructions count each active thread of\n"
	       "# each executed warp instruction (as GPGPU-Sim does).  timing/func: CPU time of the timing run over\n"
	       "# that of the functional run.\n");
	char tb[32];
	const char *thr = wsConfigGet(cfg, "threads", tb, sizeof tb);
	if (thr && strcmp(thr, "1"))
		printf("# threads = %s: the timing runs tick SMs on several host threads, whose CPU time adds up; their\n"
		       "# speed is in the wall column (scripts/threads-speedup.sh compares thread counts).\n",
		       thr);
	printf("%-*s %-6s %-8s %16s %12s %9s %9s %14s %12s %9s %14s %11s\n", namew, "benchmark", "size", "verified",
	       "thread insts", "cycles", "tim cpu s", "tim wall", "tim thr-ins/s", "tim cycles/s", "func cpu", "func thr-ins/s",
	       "timing/func");
	int failed = 0;
	int rows = n + npaper;
	uint64_t tt = 0, tc = 0;
	double tcpu = 0, fcpu = 0, twall = 0;
	for (int k = 0; k < rows; k++) {
		const struct ws_bench_info *b = k < n ? list[k] : paper[k - n];
		enum ws_bench_size sz = k < n ? size : WS_SIZE_PAPER;
		if (k == n && n > 1)
			print_total(namew, size, failed, tt, tc, tcpu, twall, fcpu);
		if (k == n)
			printf("# paper size\n");
		struct table_run tim, fun;
		run_one(cfg, false, b, sz, &tim);
		run_one(cfg, true, b, sz, &fun);
		ws_result r = tim.r != WS_SUCCESS ? tim.r : fun.r;
		if (r != WS_SUCCESS) {
			failed++;
			fprintf(stderr, "%s (%s): %s\n", b->name, tim.r != WS_SUCCESS ? "timing" : "functional",
				tim.r != WS_SUCCESS ? tim.msg : fun.msg);
		}
		printf("%-*s %-6s %-8s %16llu %12llu %9.3f %9.3f", namew, b->name, ws_bench_size_name(sz), verdict(r),
		       (unsigned long long)tim.thread_insts, (unsigned long long)tim.cycles, tim.cpu, tim.wall);
		rate(tim.thread_insts, tim.cpu, 14);
		rate(tim.cycles, tim.cpu, 12);
		printf(" %9.3f", fun.cpu);
		rate(fun.thread_insts, fun.cpu, 14);
		if (fun.cpu > 0)
			printf(" %11.2f\n", tim.cpu / fun.cpu);
		else
			printf(" %11s\n", "-");
		fflush(stdout);
		if (k < n) {
			tt += tim.thread_insts;
			tc += tim.cycles;
			tcpu += tim.cpu;
			fcpu += fun.cpu;
			twall += tim.wall;
		}
	}
	if (rows == n && n > 1)
		print_total(namew, size, failed, tt, tc, tcpu, twall, fcpu);
	if (nsms) {
		printf("\n# idle scaling: one warp of work (1 CTA of 32 threads, %u dependent global loads and\n"
		       "# multiply-adds each, result checked) on machines that differ only in num_sms\n",
		       ONEWARP_ITERS);
		printf("%-8s %-8s %12s %9s %9s %12s %14s\n", "num_sms", "verified", "cycles", "cpu s", "wall s", "cycles/s",
		       "cpu vs first");
		double first = 0;
		for (int k = 0; k < nsms; k++) {
			struct table_run t;
			run_onewarp(cfg, sms[k], &t);
			if (t.r != WS_SUCCESS) {
				failed++;
				fprintf(stderr, "idle scaling, %u SMs: %s\n", sms[k], t.msg);
			}
			if (k == 0)
				first = t.cpu;
			printf("%-8u %-8s %12llu %9.3f %9.3f", sms[k], verdict(t.r), (unsigned long long)t.cycles, t.cpu,
			       t.wall);
			rate(t.cycles, t.cpu, 12);
			if (first > 0)
				printf(" %13.2fx\n", t.cpu / first);
			else
				printf(" %14s\n", "-");
			fflush(stdout);
		}
	}
	return failed ? CLI_EXIT_FAIL : CLI_EXIT_OK;
}
