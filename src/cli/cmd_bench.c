/*
 * cmd_bench.c -- the `warpsim run`, `warpsim bench` and `warpsim list`
 * subcommands: running the bundled benchmarks (bench/NAME/) on a simulator
 * built from the command line's configuration, reporting verification,
 * counters and the simulator's own speed.
 *
 * Models no hardware.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

struct bench_result {
	ws_result r;
	struct ws_bench_out out;
	struct speed speed;
};

/* Load the benchmark's embedded PTX into sim and run it, timing run(). */
static void run_bench(const struct cli_cmd *cmd, ws_sim *sim, const struct ws_bench_info *info, enum ws_bench_size size,
                      struct bench_result *res)
{
	char name[300];
	snprintf(name, sizeof name, "bench/%s/kernel.ptx", info->name);
	memset(res, 0, sizeof *res);
	ws_module *mod = NULL;
	ws_result r = wsModuleLoadData(sim, &mod, info->ptx, name);
	if (r != WS_SUCCESS) {
		const char *detail = wsSimLastError(sim);
		snprintf(res->out.msg, sizeof res->out.msg, "loading %s: %s%s%s", name, wsGetErrorString(r),
		         detail[0] ? ": " : "", detail);
		res->r = r;
		speed_collect(sim, 0, &res->speed);
		return;
	}
	cli_print_module_warnings(cmd, mod);
	double t0 = speed_now();
	r = ws_bench_run(info, sim, mod, size, &res->out);
	double t1 = speed_now();
	res->out.msg[sizeof res->out.msg - 1] = '\0';
	res->r = r;
	if (r != WS_SUCCESS && !res->out.msg[0]) {
		const char *detail = wsSimLastError(sim);
		snprintf(res->out.msg, sizeof res->out.msg, "%s%s%s", wsGetErrorString(r), detail[0] ? ": " : "",
		         detail);
	}
	speed_collect(sim, t1 - t0, &res->speed);
	wsModuleUnload(mod);
}

/* wsSimCreate with error reporting; returns an exit status. */
static int create_sim(const struct cli_cmd *cmd, ws_sim **sim, const ws_config *cfg)
{
	*sim = NULL;
	ws_result r = wsSimCreate(sim, cfg);
	if (r == WS_SUCCESS)
		return CLI_EXIT_OK;
	const char *detail = *sim ? wsSimLastError(*sim) : "";
	int rc = r == WS_ERROR_INVALID_CONFIG ? cli_usage_error(cmd, "invalid configuration: %s%s%s",
	                                                        wsGetErrorString(r), detail[0] ? ": " : "", detail)
	                                      : cli_fail(cmd, "cannot create the simulator: %s%s%s",
	                                                 wsGetErrorString(r), detail[0] ? ": " : "", detail);
	if (*sim)
		wsSimDestroy(*sim);
	*sim = NULL;
	return rc;
}

/* --launch-stats: one JSON line per launch, in launch order: its number,
 * kernel, occupancy and every counter of that launch alone (GPGPU-Sim
 * prints its statistics per kernel). */
static ws_result launch_stats_write(const ws_sim *sim, FILE *f)
{
	for (unsigned i = 0; i < wsLaunchCount(sim); i++) {
		ws_occupancy o;
		const char *k = wsLaunchKernelName(sim, i);
		fprintf(f, "{\"launch\": %u, \"kernel\": \"", i);
		for (; k && *k; k++) { /* PTX identifiers: no quote or backslash, but be safe */
			if (*k == '"' || *k == '\\')
				fputc('\\', f);
			fputc(*k, f);
		}
		fputc('"', f);
		if (wsLaunchOccupancy(sim, i, &o) == WS_SUCCESS)
			fprintf(f, ", \"ctas_per_sm\": %u, \"limit\": \"%s\", \"regs_per_thread\": %u, \"regs_source\": \"%s\"",
			        o.ctas_per_sm, o.limit ? o.limit : "", o.regs_per_thread, o.regs_source ? o.regs_source : "");
		fputs(", \"stats\": ", f);
		ws_result r = wsLaunchStatsWriteJSON(sim, i, f);
		if (r != WS_SUCCESS)
			return r;
		fputs("}\n", f);
	}
	return ferror(f) ? WS_ERROR_INVALID_VALUE : WS_SUCCESS;
}

/* Write output file `o` (--OPT PATH) with `w` and rename it into place;
 * the exit status to return: `rc`, or CLI_EXIT_FAIL with the reason. */
static int write_out(const struct cli_cmd *cmd, const ws_sim *sim, struct cli_out *o, const char *opt,
                     const char *path, ws_result (*w)(const ws_sim *, FILE *), int rc)
{
	char why[PATH_MAX + 200];
	errno = 0;
	ws_result r = w(sim, o->f);
	int e = ferror(o->f) ? errno : 0; /* a write error (a full disk), not a bad argument */
	if (r != WS_SUCCESS) {
		cli_out_abort(o);
		return cli_fail(cmd, "--%s %s: writing failed: %s", opt, path, e ? strerror(e) : wsGetErrorString(r));
	}
	if (cli_out_commit(o, why, sizeof why) != 0)
		return cli_fail(cmd, "--%s %s", opt, why);
	return rc;
}

int cli_cmd_run(const struct cli_args *a)
{
	const struct cli_cmd *cmd = a->cmd;
	enum ws_bench_size size;
	int rc = cli_get_size(a, &size);
	if (rc)
		return rc;
	const struct ws_bench_info *info = ws_bench_find(a->pos[0]);
	if (!info) {
		char names[1024];
		return cli_usage_error(cmd, "unknown benchmark '%s' (known: %s; see 'warpsim list')", a->pos[0],
		                       ws_bench_names(names, sizeof names));
	}
	const char *stats_path = cli_opt_get(a, "stats"), *lstats_path = cli_opt_get(a, "launch-stats");
	if (stats_path && !stats_path[0])
		return cli_usage_error(cmd, "--stats needs a file name");
	/* timeline options are checked before anything runs */
	const char *tl = cli_opt_get(a, "timeline"), *tr = cli_opt_get(a, "trace");
	unsigned long tl_sm = 0, tl_lo = 0, tl_hi = 0xffffffffu, tl_launch = 0;
	{
		const char *v = cli_opt_get(a, "timeline-sm");
		char why[128];
		uint64_t x;
		if (v) {
			if (cli_parse_u64(v, 1023, &x, why, sizeof why))
				return cli_usage_error(cmd, "--timeline-sm: %s (an SM number)", why);
			tl_sm = (unsigned long)x;
		}
		if ((v = cli_opt_get(a, "timeline-launch"))) {
			if (cli_parse_u64(v, UINT32_MAX, &x, why, sizeof why))
				return cli_usage_error(cmd, "--timeline-launch: %s (a launch number, 0 = the last)", why);
			tl_launch = (unsigned long)x;
		}
		if ((v = cli_opt_get(a, "timeline-ctas"))) {
			const char *dash = strchr(v, '-');
			char lo[32];
			size_t ll = dash ? (size_t)(dash - v) : strlen(v);
			uint64_t xl = 0, xh = 0;
			if (ll >= sizeof lo)
				ll = sizeof lo - 1;
			memcpy(lo, v, ll);
			lo[ll] = '\0';
			if (cli_parse_u64(lo, UINT32_MAX, &xl, why, sizeof why) ||
			    (dash && cli_parse_u64(dash + 1, UINT32_MAX, &xh, why, sizeof why)) || (dash && xh < xl))
				return cli_usage_error(cmd, "--timeline-ctas '%s': expected A or A-B with A <= B (CTA numbers)", v);
			tl_lo = (unsigned long)xl;
			tl_hi = dash ? (unsigned long)xh : tl_lo;
		}
		static const char *const tl_only[] = {"timeline-sm", "timeline-ctas", "timeline-launch"};
		for (size_t k = 0; k < sizeof tl_only / sizeof tl_only[0]; k++)
			if (!tl && cli_opt_get(a, tl_only[k]))
				return cli_usage_error(cmd, "--%s needs --timeline FILE.svg (it selects what the timeline shows)",
				                       tl_only[k]);
	}
	ws_config *cfg;
	rc = cli_build_config(a, &cfg);
	if (rc)
		return rc;
	if (tl || tr) {
		char v[64], v2[64];
		const char *mode = wsConfigGet(cfg, "mode", v, sizeof v);
		const char *nsms = wsConfigGet(cfg, "num_sms", v2, sizeof v2);
		if (mode && strcmp(mode, "functional") == 0) {
			wsConfigDestroy(cfg);
			return cli_usage_error(cmd, "--%s needs the timing model: a functional run (--functional or "
			                            "mode=functional) records no warp-phases",
			                       tl ? "timeline" : "trace");
		}
		if (tl && nsms && tl_sm >= strtoul(nsms, NULL, 10)) {
			wsConfigDestroy(cfg);
			return cli_usage_error(cmd, "--timeline-sm %lu: this GPU has %s SMs (0-%lu)", tl_sm, nsms,
			                       strtoul(nsms, NULL, 10) - 1);
		}
	}
	/* the output files are created now (as temporaries renamed into place at
	 * the end), so an unwritable path fails before the simulation */
	struct cli_out out_tl = {0}, out_tr = {0}, out_st = {0}, out_ls = {0};
	{
		char why[PATH_MAX + 200];
		const char *const opt[4] = {"timeline", "trace", "stats", "launch-stats"};
		const char *const path[4] = {tl, tr, stats_path, lstats_path};
		struct cli_out *const o[4] = {&out_tl, &out_tr, &out_st, &out_ls};
		for (int k = 0; k < 4; k++)
			if (path[k] && cli_out_open(o[k], path[k], why, sizeof why) != 0) {
				for (int i = 0; i < k; i++)
					cli_out_abort(o[i]);
				wsConfigDestroy(cfg);
				return cli_fail(cmd, "--%s %s", opt[k], why);
			}
	}
	ws_sim *sim;
	rc = create_sim(cmd, &sim, cfg);
	if (rc) {
		wsConfigDestroy(cfg);
		cli_out_abort(&out_tl);
		cli_out_abort(&out_tr);
		cli_out_abort(&out_st);
		cli_out_abort(&out_ls);
		return rc;
	}

	/* progress lines on stderr during a long run (not with --quiet) */
	struct cli_progress prog;
	char label[96];
	snprintf(label, sizeof label, "run %s", info->name);
	cli_progress_init(&prog, label);
	if (!cli_opt_get(a, "quiet"))
		wsSimSetProgress(sim, cli_progress_report, &prog);
	printf("benchmark: %s, size %s (%s)\n", info->name, ws_bench_size_name(size),
	       info->sizes[size] ? info->sizes[size] : "-");
	fflush(stdout);
	struct bench_result res;
	run_bench(cmd, sim, info, size, &res);
	printf("kernel launches: %u\n", res.out.launches);
	wsOccupancyPrint(sim, stdout, "occupancy: ");
	if (res.r == WS_SUCCESS)
		printf("verification: PASSED\n");
	else
		printf("verification: FAILED: %s\n", res.out.msg);
	printf("\n");
	wsStatsPrint(sim, stdout);
	printf("\n");
	speed_print(&res.speed, stdout);
	/* the configuration echo comes last, so the result is not buried under it */
	if (!cli_opt_get(a, "quiet")) {
		printf("\n# effective configuration\n");
		wsConfigPrint(cfg, stdout);
	}
	wsConfigDestroy(cfg);

	rc = res.r == WS_SUCCESS ? CLI_EXIT_OK : CLI_EXIT_FAIL;
	char why[PATH_MAX + 200];
	uint64_t trace_dropped = 0;
	if ((tl || tr) && wsTraceInfo(sim, NULL, &trace_dropped) == WS_SUCCESS && trace_dropped) {
		fflush(stdout);
		fprintf(stderr,
		        "warpsim run: warning: %llu warp-phase records past trace_max_events were dropped: the %s %s "
		        "incomplete (marked so in the file; raise trace_max_events to keep them)\n",
		        (unsigned long long)trace_dropped, tl && tr ? "timeline and trace" : tl ? "timeline" : "trace",
		        tl && tr ? "are" : "is");
	}
	if (tl) {
		if (wsTimelineWriteSVG(sim, out_tl.f, (unsigned)tl_launch, (unsigned)tl_sm, (unsigned)tl_lo,
		                       (unsigned)tl_hi) != WS_SUCCESS) {
			cli_out_abort(&out_tl);
			rc = cli_fail(cmd, "--timeline %s: %s", tl, wsSimLastError(sim));
		} else if (cli_out_commit(&out_tl, why, sizeof why) != 0) {
			rc = cli_fail(cmd, "--timeline %s", why);
		}
	}
	if (tr) {
		if (wsTraceWriteChrome(sim, out_tr.f) != WS_SUCCESS) {
			cli_out_abort(&out_tr);
			rc = cli_fail(cmd, "--trace %s: cannot write: %s", tr, wsSimLastError(sim));
		} else if (cli_out_commit(&out_tr, why, sizeof why) != 0) {
			rc = cli_fail(cmd, "--trace %s", why);
		}
	}
	if (stats_path)
		rc = write_out(cmd, sim, &out_st, "stats", stats_path, wsStatsWriteJSON, rc);
	if (lstats_path)
		rc = write_out(cmd, sim, &out_ls, "launch-stats", lstats_path, launch_stats_write, rc);
	wsSimDestroy(sim);
	return rc;
}

static void print_rate_cell(uint64_t n, double wall, int width)
{
	if (wall > 0)
		printf(" %*.3e", width, (double)n / wall);
	else
		printf(" %*s", width, "-");
}

int cli_cmd_bench(const struct cli_args *a)
{
	const struct cli_cmd *cmd = a->cmd;
	enum ws_bench_size size;
	int rc = cli_get_size(a, &size);
	if (rc)
		return rc;
	int nall = 0;
	while (ws_bench_table[nall])
		nall++;
	int n = a->npos ? a->npos : nall;
	const struct ws_bench_info **list = calloc((size_t)n + 1, sizeof *list);
	struct bench_result *res = calloc((size_t)n + 1, sizeof *res);
	if (!list || !res) {
		free(list);
		free(res);
		return cli_fail(cmd, "out of memory");
	}
	for (int i = 0; i < n; i++) {
		list[i] = a->npos ? ws_bench_find(a->pos[i]) : ws_bench_table[i];
		if (!list[i]) {
			free(list);
			free(res);
			char names[1024];
			return cli_usage_error(cmd, "unknown benchmark '%s' (known: %s; see 'warpsim list')", a->pos[i],
			                       ws_bench_names(names, sizeof names));
		}
	}
	/* --load-mb: sizes of the PTX-loading rows */
	unsigned load_mb[8];
	int nload = 0;
	const char *lv = cli_opt_get(a, "load-mb");
	if (!lv && !a->npos) {
		load_mb[nload++] = 5;
		load_mb[nload++] = 50;
	} else if (lv) {
		const char *p = lv;
		for (;;) {
			const char *c = strchr(p, ',');
			char part[24], why[128];
			size_t len = c ? (size_t)(c - p) : strlen(p);
			uint64_t x = 1;
			if (len >= sizeof part || nload == 8) {
				free(list);
				free(res);
				return cli_usage_error(cmd, "--load-mb '%s': expected at most 8 sizes in MiB, 1 to 1024 each, or 0",
				                       lv);
			}
			memcpy(part, p, len);
			part[len] = '\0';
			if (cli_parse_u64(part, 1024, &x, why, sizeof why)) {
				free(list);
				free(res);
				return cli_usage_error(cmd, "--load-mb '%s': %s (sizes in MiB, 1 to 1024, or 0 for none)", lv, why);
			}
			if (x == 0 && (nload || c)) {
				free(list);
				free(res);
				return cli_usage_error(cmd, "--load-mb '%s': 0 (no loading rows) must be alone", lv);
			}
			if (x)
				load_mb[nload++] = (unsigned)x;
			if (!c)
				break;
			p = c + 1;
		}
	}
	ws_config *cfg;
	rc = cli_build_config(a, &cfg);
	if (rc) {
		free(list);
		free(res);
		return rc;
	}
	if (n == 0) {
		printf("no bundled benchmarks\n");
		wsConfigDestroy(cfg);
		free(list);
		free(res);
		return CLI_EXIT_OK;
	}

	if (cli_opt_get(a, "table")) {
		int trc = cli_bench_table(a, cfg, list, n, size);
		wsConfigDestroy(cfg);
		free(list);
		free(res);
		if (trc == CLI_EXIT_USAGE)
			return trc;
		if (nload && cli_bench_load(cmd, load_mb, nload) != CLI_EXIT_OK)
			trc = CLI_EXIT_FAIL;
		return trc;
	}
	int namew = 9;
	for (int i = 0; i < n; i++)
		if ((int)strlen(list[i]->name) > namew)
			namew = (int)strlen(list[i]->name);
	char mode[64];
	const char *m = wsConfigGet(cfg, "mode", mode, sizeof mode);
	printf("# warpsim bench, size %s, mode %s; thread instructions count each active thread\n"
	       "# of each executed warp instruction (as GPGPU-Sim does); wall s is host wall-clock time\n",
	       ws_bench_size_name(size), m ? m : "?");
	printf("%-*s %-8s %14s %16s %10s %14s %14s %12s\n", namew, "benchmark", "verified", "warp insts",
	       "thread insts", "wall s", "thread-insts/s", "cycles", "cycles/s");
	fflush(stdout);

	uint64_t tw = 0, tt = 0, tc = 0;
	double twall = 0;
	int failed = 0;
	for (int i = 0; i < n; i++) {
		ws_sim *sim;
		rc = create_sim(cmd, &sim, cfg);
		if (rc) {
			wsConfigDestroy(cfg);
			free(list);
			free(res);
			return rc;
		}
		struct bench_result *br = &res[i];
		run_bench(cmd, sim, list[i], size, br);
		wsSimDestroy(sim);
		const struct speed *s = &br->speed;
		if (br->r != WS_SUCCESS)
			failed++;
		printf("%-*s %-8s %14llu %16llu %10.3f", namew, list[i]->name,
		       br->r == WS_SUCCESS               ? "yes"
		       : br->r == WS_ERROR_VERIFY_FAILED ? "FAILED"
		                                         : "ERROR",
		       (unsigned long long)s->warp_insts, (unsigned long long)s->thread_insts, s->wall);
		print_rate_cell(s->thread_insts, s->wall, 14);
		if (s->cycles > 0) {
			printf(" %14llu", (unsigned long long)s->cycles);
			print_rate_cell(s->cycles, s->wall, 12);
		} else {
			printf(" %14s %12s", "-", "-");
		}
		printf("\n");
		fflush(stdout);
		tw += s->warp_insts;
		tt += s->thread_insts;
		tc += s->cycles;
		twall += s->wall;
	}
	printf("%-*s %-8s %14llu %16llu %10.3f", namew, "total", failed ? "NO" : "yes", (unsigned long long)tw,
	       (unsigned long long)tt, twall);
	print_rate_cell(tt, twall, 14);
	if (tc > 0) {
		printf(" %14llu", (unsigned long long)tc);
		print_rate_cell(tc, twall, 12);
	} else {
		printf(" %14s %12s", "-", "-");
	}
	printf("\n");
	for (int i = 0; i < n; i++)
		if (res[i].r != WS_SUCCESS)
			printf("%s: FAILED: %s\n", list[i]->name, res[i].out.msg);
	wsConfigDestroy(cfg);
	free(list);
	free(res);
	if (nload && cli_bench_load(cmd, load_mb, nload) != CLI_EXIT_OK)
		failed++;
	return failed ? CLI_EXIT_FAIL : CLI_EXIT_OK;
}

static int suite_has(const char *const *su, const char *name)
{
	for (int i = 0; su[i]; i++)
		if (strcmp(su[i], name) == 0)
			return 1;
	return 0;
}

/* every suite `name` belongs to, comma-separated, into buf ("-" if none) */
static const char *list_suites_of(const char *name, char *buf, size_t sz)
{
	size_t len = 0;
	buf[0] = '\0';
	for (int k = 0; ws_bench_suite_names[k]; k++)
		if (suite_has(ws_bench_suite(ws_bench_suite_names[k]), name) && len + 1 < sz) {
			int w = snprintf(buf + len, sz - len, "%s%s", len ? "," : "", ws_bench_suite_names[k]);
			len = w < 0 ? len : (size_t)w + len >= sz ? sz - 1 : len + (size_t)w;
		}
	return len ? buf : "-";
}

static void list_long(const struct ws_bench_info *b)
{
	printf("%s\n", b->name);
	printf("  computes:      %s\n", b->description ? b->description : "-");
	printf("  sync:          %s\n", b->sync ? b->sync : "-");
	if (b->ctas_per_sm)
		printf("  CTAs/SM:       %u\n", b->ctas_per_sm);
	else
		printf("  CTAs/SM:       - (no paper value)\n");
	if (b->warps_per_cta)
		printf("  warps/CTA:     %u\n", b->warps_per_cta);
	else
		printf("  warps/CTA:     -\n");
	for (int s = 0; s < WS_SIZE_COUNT; s++)
		printf("  size %-6s   %s\n", ws_bench_size_name((enum ws_bench_size)s),
		       b->sizes[s] ? b->sizes[s] : s == WS_SIZE_PAPER_KAWS ? "= paper" : "-");
	if (b->min_warp_size)
		printf("  warp size:     >= %u (warp-synchronous kernels)\n", b->min_warp_size);
	else
		printf("  warp size:     any (8-64)\n");
	printf("  paper:         %s\n", b->paper ? b->paper : "-");
	char suites[128];
	printf("  suite:         %s\n", list_suites_of(b->name, suites, sizeof suites));
	if (b->sibs && b->sibs[0].func) {
		printf("  spin branches:");
		for (const struct ws_sib_note *s = b->sibs; s->func; s++)
			printf(" %s:%u", s->func, s->line);
		printf(" (kernel.ptx lines; ground truth for spin detection)\n");
	} else {
		printf("  spin branches: none\n");
	}
}

int cli_cmd_list(const struct cli_args *a)
{
	const char *suite_name = cli_opt_get(a, "suite");
	const char *const *suite = NULL;
	if (suite_name && !(suite = ws_bench_suite(suite_name)))
		return cli_usage_error(a->cmd, "--suite '%s': expected barrier, syncfree, bows, kaws or dwr", suite_name);
	for (int i = 0; i < a->npos; i++) {
		if (!ws_bench_find(a->pos[i])) {
			char names[1024];
			return cli_usage_error(a->cmd, "unknown benchmark '%s' (known: %s; see 'warpsim list')", a->pos[i],
			                       ws_bench_names(names, sizeof names));
		}
		if (suite && !suite_has(suite, a->pos[i]))
			return cli_usage_error(a->cmd, "benchmark '%s' is not in suite '%s' (see 'warpsim list --suite %s')",
			                       a->pos[i], suite_name, suite_name);
	}
	if (!ws_bench_table[0]) {
		printf("no bundled benchmarks\n");
		return CLI_EXIT_OK;
	}
	/* the selection: the named benchmarks in order, else the table (filtered by suite) */
	int ntab = 0;
	while (ws_bench_table[ntab])
		ntab++;
	const struct ws_bench_info **sel = calloc((size_t)(a->npos > ntab ? a->npos : ntab), sizeof *sel);
	if (!sel)
		return cli_fail(a->cmd, "out of memory");
	int n = 0;
	if (a->npos) {
		for (int i = 0; i < a->npos; i++)
			sel[n++] = ws_bench_find(a->pos[i]);
	} else {
		for (int i = 0; ws_bench_table[i]; i++) {
			if (suite && !suite_has(suite, ws_bench_table[i]->name))
				continue;
			sel[n++] = ws_bench_table[i];
		}
	}
	if (a->npos || cli_opt_get(a, "long")) {
		for (int i = 0; i < n; i++) {
			if (i)
				putchar('\n');
			list_long(sel[i]);
		}
		free(sel);
		return CLI_EXIT_OK;
	}
	int namew = 4, paperw = 5;
	for (int i = 0; i < n; i++) {
		if ((int)strlen(sel[i]->name) > namew)
			namew = (int)strlen(sel[i]->name);
		if (sel[i]->paper && (int)strlen(sel[i]->paper) > paperw)
			paperw = (int)strlen(sel[i]->paper);
	}
	printf("%-*s %7s %9s  %-*s  %s\n", namew, "name", "CTAs/SM", "warps/CTA", paperw, "paper", "description");
	for (int i = 0; i < n; i++) {
		const struct ws_bench_info *b = sel[i];
		char ctas[16], warps[16];
		if (b->ctas_per_sm)
			snprintf(ctas, sizeof ctas, "%u", b->ctas_per_sm);
		else
			snprintf(ctas, sizeof ctas, "-");
		if (b->warps_per_cta)
			snprintf(warps, sizeof warps, "%u", b->warps_per_cta);
		else
			snprintf(warps, sizeof warps, "-");
		printf("%-*s %7s %9s  %-*s  %s\n", namew, b->name, ctas, warps, paperw, b->paper ? b->paper : "-",
		       b->description ? b->description : "");
	}
	free(sel);
	return CLI_EXIT_OK;
}
