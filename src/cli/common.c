/*
 * common.c -- pieces shared by several `warpsim` subcommands: building the
 * effective configuration from --config/--set/--functional (with threads
 * capped to the cores this process may use) and the --size option (the
 * simulator's speed report is in stats/speed.c).
 *
 * Models no hardware.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static int config_error(const struct cli_cmd *cmd, ws_result r, const char *what, const char *err)
{
	fflush(stdout);
	fprintf(stderr, "warpsim %s: error: %s: %s\n", cmd->name, what, err[0] ? err : wsGetErrorString(r));
	if (r == WS_ERROR_FILE_NOT_FOUND)
		return CLI_EXIT_FAIL;
	if (!strstr(err, "config --list"))
		fprintf(stderr, "(see 'warpsim config --list' for every parameter)\n");
	return CLI_EXIT_USAGE;
}

/* More host threads than cores this process may use (CPU affinity, cgroup
 * quota) only wait for each other: threads=N above that is lowered to it
 * with a warning, unless --oversubscribe (`warpsim config` shows the value
 * as given). */
static void cap_threads(const struct cli_args *a, ws_config *cfg)
{
	char buf[64];
	const char *v = wsConfigGet(cfg, "threads", buf, sizeof buf);
	long t = v ? strtol(v, NULL, 10) : 1;
	unsigned cores = wsHostCores();
	if (t <= (long)cores || cli_opt_get(a, "oversubscribe") || !strcmp(a->cmd->name, "config"))
		return;
	char n[32];
	snprintf(n, sizeof n, "%u", cores);
	wsConfigSet(cfg, "threads", n, NULL, 0);
	fflush(stdout);
	fprintf(stderr,
	        "warpsim %s: warning: threads=%ld is more than the %u core%s this process may use: using %u "
	        "(--oversubscribe keeps %ld)\n",
	        a->cmd->name, t, cores, cores == 1 ? "" : "s", cores, t);
}

int cli_build_config(const struct cli_args *a, ws_config **out)
{
	const struct cli_cmd *cmd = a->cmd;
	*out = NULL;
	ws_config *cfg = wsConfigCreate();
	if (!cfg)
		return cli_fail(cmd, "out of memory creating the configuration");
	char err[512], what[600];
	ws_result r;
	const char *file = cli_opt_get(a, "config");
	if (file) {
		err[0] = '\0';
		r = wsConfigLoadFile(cfg, file, err, sizeof err);
		if (r != WS_SUCCESS) {
			wsConfigDestroy(cfg);
			snprintf(what, sizeof what, "--config %s", file);
			return config_error(cmd, r, what, err);
		}
	}
	for (int i = 0; i < a->nitems; i++) {
		if (!cli_item_is(a, i, "set"))
			continue;
		const char *kv = a->items[i].value;
		const char *eq = strchr(kv, '=');
		char key[128];
		if (!eq || eq == kv) {
			wsConfigDestroy(cfg);
			return cli_usage_error(cmd, "--set '%s': expected KEY=VALUE", kv);
		}
		if ((size_t)(eq - kv) >= sizeof key) {
			wsConfigDestroy(cfg);
			return cli_usage_error(cmd, "--set '%.40s...': key too long", kv);
		}
		memcpy(key, kv, (size_t)(eq - kv));
		key[eq - kv] = '\0';
		err[0] = '\0';
		r = wsConfigSet(cfg, key, eq + 1, err, sizeof err);
		if (r != WS_SUCCESS) {
			wsConfigDestroy(cfg);
			snprintf(what, sizeof what, "--set %s", kv);
			return config_error(cmd, r, what, err);
		}
	}
	if (cli_opt_get(a, "functional")) {
		err[0] = '\0';
		r = wsConfigSet(cfg, "mode", "functional", err, sizeof err);
		if (r != WS_SUCCESS) {
			wsConfigDestroy(cfg);
			return config_error(cmd, r, "--functional (mode=functional)", err);
		}
	}
	/* shortcuts: --sched P, --fetch P and --threads N are --set sched=P / fetch=P / threads=N; a timeline or trace needs the phase records */
	static const char *const shortcut[][2] = {{"sched", "sched"}, {"fetch", "fetch"}, {"threads", "threads"}};
	for (unsigned k = 0; k < 3; k++) {
		const char *v = cli_opt_get(a, shortcut[k][0]);
		if (!v)
			continue;
		/* the same parameter twice with different values is a mistake, not an override */
		size_t kl = strlen(shortcut[k][1]);
		for (int i = 0; i < a->nitems; i++) {
			const char *kv = a->items[i].value;
			if (cli_item_is(a, i, "set") && strncmp(kv, shortcut[k][1], kl) == 0 && kv[kl] == '=' &&
			    strcmp(kv + kl + 1, v) != 0) {
				wsConfigDestroy(cfg);
				return cli_usage_error(cmd, "--%s %s contradicts --set %s: give the %s once", shortcut[k][0], v,
				                       kv, shortcut[k][1]);
			}
		}
		err[0] = '\0';
		r = wsConfigSet(cfg, shortcut[k][1], v, err, sizeof err);
		if (r != WS_SUCCESS) {
			wsConfigDestroy(cfg);
			snprintf(what, sizeof what, "--%s %s", shortcut[k][0], v);
			return config_error(cmd, r, what, err);
		}
	}
	if (cli_opt_get(a, "timeline") || cli_opt_get(a, "trace"))
		wsConfigSet(cfg, "trace_phases", "true", err, sizeof err);
	err[0] = '\0';
	r = wsConfigCheck(cfg, err, sizeof err);
	if (r != WS_SUCCESS) {
		wsConfigDestroy(cfg);
		return config_error(cmd, r, "configuration", err);
	}
	cap_threads(a, cfg);
	*out = cfg;
	return CLI_EXIT_OK;
}

void cli_print_module_warnings(const struct cli_cmd *cmd, const ws_module *mod)
{
	const char *w = wsModuleWarnings(mod);
	while (w && *w) {
		const char *nl = strchr(w, '\n');
		size_t len = nl ? (size_t)(nl - w) : strlen(w);
		const char *tag = strstr(w, ": warning: ");
		fflush(stdout);
		if (tag && tag < w + len) /* "file:line:col: warning: msg" -> "warpsim CMD: warning: file:line:col: msg" */
			fprintf(stderr, "warpsim %s: warning: %.*s: %.*s\n", cmd->name, (int)(tag - w), w,
			        (int)(len - (size_t)(tag - w) - 11), tag + 11);
		else
			fprintf(stderr, "warpsim %s: warning: %.*s\n", cmd->name, (int)len, w);
		w = nl ? nl + 1 : w + len;
	}
}

int cli_get_size(const struct cli_args *a, enum ws_bench_size *size)
{
	return cli_get_size_or(a, WS_SIZE_SMALL, size);
}

int cli_get_size_or(const struct cli_args *a, enum ws_bench_size dflt, enum ws_bench_size *size)
{
	const char *s = cli_opt_get(a, "size");
	*size = dflt;
	if (!s)
		return CLI_EXIT_OK;
	int v = ws_bench_size_parse(s);
	if (v < 0)
		return cli_usage_error(a->cmd, "--size '%s': expected tiny, small, paper or paper-kaws", s);
	*size = (enum ws_bench_size)v;
	return CLI_EXIT_OK;
}

void cli_format_duration(char *buf, size_t bufsz, double s)
{
	if (s < 0)
		s = 0;
	long t = (long)(s + 0.5);
	if (t >= 3600)
		snprintf(buf, bufsz, "%ldh%02ldm%02lds", t / 3600, t / 60 % 60, t % 60);
	else if (t >= 60)
		snprintf(buf, bufsz, "%ldm%02lds", t / 60, t % 60);
	else
		snprintf(buf, bufsz, "%lds", t);
}

void cli_progress_init(struct cli_progress *p, const char *label)
{
	memset(p, 0, sizeof *p);
	snprintf(p->label, sizeof p->label, "%s", label);
	p->t0 = p->last = speed_now();
}

void cli_progress_report(void *user, const ws_progress *w)
{
	struct cli_progress *p = user;
	double now = speed_now();
	if (w->launch != p->launch) {
		p->launch = w->launch;
		p->launch_t0 = now;
		p->launch_insts = w->warp_insts;
		p->launch_ctas = w->ctas_done;
	}
	if (now - p->t0 < CLI_PROGRESS_AFTER || now - p->last < CLI_PROGRESS_EVERY)
		return;
	p->last = now;
	double lt = now - p->launch_t0;
	unsigned long long ctas = w->ctas_done - p->launch_ctas;
	char el[32], eta[48], cyc[48] = "";
	cli_format_duration(el, sizeof el, now - p->t0);
	if (ctas && lt > 0) {
		char t[32];
		cli_format_duration(t, sizeof t, lt / (double)ctas * (double)(w->ctas_total - w->ctas_done));
		snprintf(eta, sizeof eta, "ETA %s", t);
	} else
		snprintf(eta, sizeof eta, "ETA ?");
	if (w->cycle)
		snprintf(cyc, sizeof cyc, ", cycle %llu", w->cycle);
	fflush(stdout);
	fprintf(stderr, "[%s] launch %llu: %llu/%llu CTAs done%s, %.3g warp-insts/s, elapsed %s, %s\n", p->label,
	        w->launch, w->ctas_done, w->ctas_total, cyc, lt > 0 ? (double)(w->warp_insts - p->launch_insts) / lt : 0.0, el,
	        eta);
	p->lines++;
}