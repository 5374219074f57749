/*
 * cmd_correlate.c -- `warpsim correlate REF...`: correlate warpsim against
 * GPGPU-Sim runs of the same benchmarks (Accel-Sim-style correlation).
 *
 * Models no hardware.  Each REF is a GPGPU-Sim output file (or a directory
 * holding gpgpusim-out.txt).  From it we read the last (cumulative) values of
 * gpu_tot_sim_cycle, gpu_tot_sim_insn, gpu_tot_ipc, the L1D/L2 totals, the
 * per-channel DRAM lines (n_rd, n_write, bw_util, Row_Buffer_Locality),
 * gpgpu_n_stall_shd_mem and shader 0's warp-issue distribution, and from its
 * option echo the scheduler (-gpgpu_scheduler) and the SM count.  The
 * benchmark is the directory name's NAME in NAME_POLICY (or --bench); the
 * policy is the echoed scheduler (or the _POLICY suffix, or --sched).
 * warpsim then runs that bundled benchmark under that policy (in parallel
 * worker processes) and we print, per metric, both values and the error,
 * the mean absolute percentage error (MAPE) and Pearson's r per metric, and
 * the GTO/LRR cycle ratio of every benchmark that has both.  --out DIR
 * writes DIR/correlation.{md,csv,svg}: the SVG holds one log-log scatter per
 * metric with the y = x line.  --max-cycle-error and --max-ratio-error turn
 * the targets into an exit status (1 when missed) for CI.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

/* ---- metrics: one table, used by the parser, the runs and every writer ---- */
enum {
	M_CYCLES, M_INSN, M_IPC, M_L1I_ACC, M_L1I_MISS, M_L1D_ACC, M_L1D_MISS, M_L2_MISS, M_DRAM_RD, M_DRAM_UTIL,
	M_ROW_LOC, M_MEM_LAT, M_ICNT2MEM, M_ICNT2SH, M_SHD_STALL, M_SM0_ISSUE, NMET
};
static const struct {
	const char *name, *gpgpusim, *help;
} met[NMET] = {
    [M_CYCLES] = {"cycles", "gpu_tot_sim_cycle", "core cycles"},
    [M_INSN] = {"insn", "gpu_tot_sim_insn", "thread instructions, predicated-off lanes excluded"},
    [M_IPC] = {"ipc", "gpu_tot_ipc", "thread instructions per cycle"},
    [M_L1I_ACC] = {"l1i_accesses", "L1I_total_cache_accesses", "instruction-cache accesses (fetches)"},
    [M_L1I_MISS] = {"l1i_miss_rate", "L1I_total_cache_miss_rate", "L1I misses (with merges into a pending miss) / accesses"},
    [M_L1D_ACC] = {"l1d_accesses", "L1D_total_cache_accesses", "L1D accesses"},
    [M_L1D_MISS] = {"l1d_miss_rate", "L1D_total_cache_miss_rate", "L1D misses / accesses"},
    [M_L2_MISS] = {"l2_miss_rate", "L2_total_cache_miss_rate", "L2 sector misses / sector accesses"},
    [M_DRAM_RD] = {"dram_read_cmds", "n_rd (sum over channels)", "DRAM read column commands"},
    [M_DRAM_UTIL] = {"dram_bw_util", "bw_util (mean over channels)", "DRAM data-bus busy fraction"},
    [M_ROW_LOC] = {"dram_row_locality", "Row_Buffer_Locality (mean)", "DRAM column commands without an activate / commands"},
    [M_MEM_LAT] = {"mem_latency", "averagemflatency", "mean latency of a data access below the L1 as GPGPU-Sim times it: from its L1D latency-queue entry, or its L2 arrival when the L2 splits it into sectors (core cycles; mf_latency)"},
    [M_ICNT2MEM] = {"icnt2mem_latency", "avg_icnt2mem_latency", "core cycles from a request's start to its arrival at the L2, summed over the requests, / data replies (GPGPU-Sim's formula; icnt2mem_latency)"},
    [M_ICNT2SH] = {"icnt2sh_latency", "avg_icnt2sh_latency", "mean core cycles of a data reply from its L2 slice's interconnect input to the SM (icnt2sh_latency)"},
    [M_SHD_STALL] = {"ldst_stall_cycles", "gpgpu_n_stall_shd_mem", "LD/ST memory-stage stall cycles"},
    [M_SM0_ISSUE] = {"sm0_warp_insts", "shader 0 warp_id issue distribution (sum)", "warp instructions issued by SM 0"},
};

#define MAXREF 256
#define MAXK 32 /* kernel launches compared one by one (more: only the totals) */

struct kernels {
	int n;        /* launches seen (may exceed MAXK) */
	char name[MAXK][48];
	double cycles[MAXK];
};

struct ref {
	char path[512], label[96];
	char bench[48], policy[24];
	int size;    /* the reference directory's `size` file (tiny|small|paper), else -1: --size */
	int num_sms; /* -gpgpu_n_clusters x -gpgpu_n_cores_per_cluster, 0 if absent */
	double v[NMET];
	unsigned char have[NMET];
	struct kernels k;
};

/* One warpsim run (filled in a worker process; plain data only). */
struct ours {
	int ok;
	char err[240];
	double v[NMET];
	unsigned char have[NMET];
	unsigned num_sms;
	struct kernels k;
};

/* ---- reading a GPGPU-Sim output file ---- */

static int starts(const char *s, const char *p) { return strncmp(s, p, strlen(p)) == 0; }

/* Value after "key" and optional spaces/'='; 1 if a number was read. */
static int num_after(const char *s, const char *key, double *v)
{
	const char *p = strstr(s, key);
	if (!p)
		return 0;
	p += strlen(key);
	while (*p == ' ' || *p == '\t' || *p == '=')
		p++;
	char *end;
	errno = 0;
	double d = strtod(p, &end);
	if (end == p || errno)
		return 0;
	*v = d;
	return 1;
}

static void map_policy(const char *g, char *out, size_t n)
{
	if (starts(g, "two_level_active"))
		snprintf(out, n, "tls");
	else
		snprintf(out, n, "%s", g);
}

/* Parse one file.  Cumulative values: the last occurrence wins; per-channel
 * DRAM lines and the issue distribution restart at every kernel's block. */
static int ref_parse(struct ref *r, char *err, size_t errsz)
{
	FILE *f = fopen(r->path, "r");
	if (!f) {
		snprintf(err, errsz, "%s: %s", r->path, strerror(errno));
		return -1;
	}
	char line[8192];
	double clusters = 0, cores = 1, rd = 0, util = 0, rowloc = 0, x;
	double l2acc = 0, l2miss = -1; /* the totals behind the 4-digit L2_total_cache_miss_rate */
	int nch = 0, nrow = 0, kernels = 0, want_distro = 0, have_sim = 0;
	char sched[64] = "";
	while (fgets(line, sizeof line, f)) {
		const char *s = line;
		while (*s == ' ' || *s == '\t')
			s++;
		if (starts(s, "-gpgpu_scheduler") && !sched[0]) {
			const char *p = s + strlen("-gpgpu_scheduler");
			while (*p == ' ')
				p++;
			size_t k = 0;
			while (p[k] && !isspace((unsigned char)p[k]) && k + 1 < sizeof sched)
				k++;
			memcpy(sched, p, k);
			sched[k] = '\0';
		} else if (starts(s, "-gpgpu_n_clusters ")) {
			num_after(s, "-gpgpu_n_clusters", &clusters);
		} else if (starts(s, "-gpgpu_n_cores_per_cluster ")) {
			num_after(s, "-gpgpu_n_cores_per_cluster", &cores);
		} else if (starts(s, "kernel_name =")) {
			if (r->k.n < MAXK) {
				const char *p = s + strlen("kernel_name =");
				while (*p == ' ')
					p++;
				size_t len = strcspn(p, " \r\n");
				snprintf(r->k.name[r->k.n], sizeof r->k.name[0], "%.*s", (int)len, p);
			}
			r->k.n++;
			kernels++;
			rd = util = rowloc = 0;
			nch = nrow = 0;
		} else if (starts(s, "gpu_sim_cycle") && num_after(s, "gpu_sim_cycle", &x) && r->k.n && r->k.n <= MAXK) {
			r->k.cycles[r->k.n - 1] = x;
		} else if (starts(s, "gpu_tot_sim_cycle") && num_after(s, "gpu_tot_sim_cycle", &x)) {
			r->v[M_CYCLES] = x, r->have[M_CYCLES] = 1, have_sim = 1;
		} else if (starts(s, "gpu_tot_sim_insn") && num_after(s, "gpu_tot_sim_insn", &x)) {
			r->v[M_INSN] = x, r->have[M_INSN] = 1;
		} else if (starts(s, "gpu_tot_ipc") && num_after(s, "gpu_tot_ipc", &x)) {
			r->v[M_IPC] = x, r->have[M_IPC] = 1;
		} else if (starts(s, "L1I_total_cache_accesses") && num_after(s, "L1I_total_cache_accesses", &x)) {
			r->v[M_L1I_ACC] = x, r->have[M_L1I_ACC] = 1;
		} else if (starts(s, "L1I_total_cache_miss_rate") && num_after(s, "L1I_total_cache_miss_rate", &x)) {
			r->v[M_L1I_MISS] = x, r->have[M_L1I_MISS] = 1;
		} else if (starts(s, "L1D_total_cache_accesses") && num_after(s, "L1D_total_cache_accesses", &x)) {
			r->v[M_L1D_ACC] = x, r->have[M_L1D_ACC] = 1;
		} else if (starts(s, "L1D_total_cache_miss_rate") && num_after(s, "L1D_total_cache_miss_rate", &x)) {
			r->v[M_L1D_MISS] = x, r->have[M_L1D_MISS] = 1;
		} else if (starts(s, "L2_total_cache_accesses") && num_after(s, "L2_total_cache_accesses", &x)) {
			l2acc = x;
		} else if (starts(s, "L2_total_cache_misses") && num_after(s, "L2_total_cache_misses", &x)) {
			l2miss = x;
		} else if (starts(s, "L2_total_cache_miss_rate") && num_after(s, "L2_total_cache_miss_rate", &x)) {
			r->v[M_L2_MISS] = x, r->have[M_L2_MISS] = 1;
		} else if (starts(s, "averagemflatency") && num_after(s, "averagemflatency", &x)) {
			r->v[M_MEM_LAT] = x, r->have[M_MEM_LAT] = 1;
		} else if (starts(s, "avg_icnt2mem_latency") && num_after(s, "avg_icnt2mem_latency", &x)) {
			r->v[M_ICNT2MEM] = x, r->have[M_ICNT2MEM] = 1;
		} else if (starts(s, "avg_icnt2sh_latency") && num_after(s, "avg_icnt2sh_latency", &x)) {
			r->v[M_ICNT2SH] = x, r->have[M_ICNT2SH] = 1;
		} else if (starts(s, "gpgpu_n_stall_shd_mem") && num_after(s, "gpgpu_n_stall_shd_mem", &x)) {
			r->v[M_SHD_STALL] = x, r->have[M_SHD_STALL] = 1;
		} else if (starts(s, "n_cmd=") && num_after(s, " n_rd=", &x)) {
			rd += x;
			double u;
			if (num_after(s, "bw_util=", &u))
				util += u;
			nch++;
			r->v[M_DRAM_RD] = rd, r->have[M_DRAM_RD] = 1;
			r->v[M_DRAM_UTIL] = util / nch, r->have[M_DRAM_UTIL] = 1;
		} else if (starts(s, "Row_Buffer_Locality =") && num_after(s, "Row_Buffer_Locality", &x)) {
			rowloc += x;
			nrow++;
			r->v[M_ROW_LOC] = rowloc / nrow, r->have[M_ROW_LOC] = 1;
		} else if (strstr(s, "Shader 0 warp_id issue ditsribution") || strstr(s, "Shader 0 warp_id issue distribution")) {
			want_distro = 1;
		} else if (want_distro && starts(s, "distro:")) {
			want_distro = 2;
		} else if (want_distro == 2) {
			double sum = 0;
			const char *p = s;
			char *end;
			for (;;) {
				double d = strtod(p, &end);
				if (end == p)
					break;
				sum += d;
				p = end;
				while (*p == ',' || *p == ' ')
					p++;
			}
			r->v[M_SM0_ISSUE] = sum, r->have[M_SM0_ISSUE] = 1;
			want_distro = 0;
		}
	}
	int bad = ferror(f);
	fclose(f);
	if (bad) {
		snprintf(err, errsz, "%s: read error", r->path);
		return -1;
	}
	if (!have_sim || !kernels) {
		snprintf(err, errsz, "%s: not a GPGPU-Sim output (no kernel_name / gpu_tot_sim_cycle lines)", r->path);
		return -1;
	}
	if (l2acc > 0 && l2miss >= 0) /* the rate unrounded (0.0004 is 5 misses in 11,980 or 4 in 9,000) */
		r->v[M_L2_MISS] = l2miss / l2acc, r->have[M_L2_MISS] = 1;
	r->num_sms = (int)(clusters * cores);
	if (sched[0] && !r->policy[0])
		map_policy(sched, r->policy, sizeof r->policy);
	return 0;
}

/* REF may be a file or a directory holding gpgpusim-out.txt; that directory
 * may hold a file `size` naming the benchmark size GPGPU-Sim ran (tiny, small
 * or paper), which overrides --size for this reference. */
static int ref_locate(const char *arg, struct ref *r, char *err, size_t errsz)
{
	struct stat st;
	r->size = -1;
	if (stat(arg, &st) != 0) {
		snprintf(err, errsz, "%s: %s", arg, strerror(errno));
		return -1;
	}
	char dir[512];
	if (S_ISDIR(st.st_mode)) {
		snprintf(dir, sizeof dir, "%s", arg);
		size_t n = strlen(dir);
		while (n > 1 && dir[n - 1] == '/')
			dir[--n] = '\0';
		snprintf(r->path, sizeof r->path, "%s/gpgpusim-out.txt", dir);
		if (stat(r->path, &st) != 0) {
			snprintf(err, errsz, "%s: directory without gpgpusim-out.txt", arg);
			return -1;
		}
	} else {
		snprintf(r->path, sizeof r->path, "%s", arg);
		const char *sl = strrchr(arg, '/');
		if (sl)
			snprintf(dir, sizeof dir, "%.*s", (int)(sl - arg), arg);
		else
			snprintf(dir, sizeof dir, ".");
	}
	char sp[600], word[32] = "";
	snprintf(sp, sizeof sp, "%s/size", dir);
	FILE *sf = fopen(sp, "r");
	if (sf) {
		int got = fscanf(sf, "%31s", word);
		fclose(sf);
		r->size = got == 1 ? ws_bench_size_parse(word) : -1;
		if (r->size < 0) {
			snprintf(err, errsz, "%.400s: '%s' is not a benchmark size (tiny, small, paper or paper-kaws)", sp, word);
			return -1;
		}
	}
	/* NAME_POLICY from the directory's last component */
	const char *base = strrchr(dir, '/') ? strrchr(dir, '/') + 1 : dir;
	snprintf(r->label, sizeof r->label, "%s", base);
	const char *us = strrchr(base, '_');
	if (us) {
		snprintf(r->bench, sizeof r->bench, "%.*s", (int)(us - base), base);
		if (!ws_bench_find(r->bench)) {
			/* maybe the whole name is the benchmark (names may hold '_') */
			snprintf(r->bench, sizeof r->bench, "%s", base);
			if (!ws_bench_find(r->bench))
				r->bench[0] = '\0';
		}
	} else if (ws_bench_find(base)) {
		snprintf(r->bench, sizeof r->bench, "%s", base);
	}
	return 0;
}

/* ---- warpsim runs ---- */

struct corr_ctx {
	const struct cli_args *a;
	struct ref *refs;
	enum ws_bench_size size;
};

static uint64_t stat_u(ws_sim *sim, const char *k)
{
	uint64_t v = 0;
	wsStatsGet(sim, k, &v);
	return v;
}

static void corr_run(int j, void *res, void *vctx)
{
	const struct corr_ctx *c = vctx;
	const struct ref *r = &c->refs[j];
	struct ours *o = res;
	memset(o, 0, sizeof *o);
	ws_config *cfg = NULL;
	ws_sim *sim = NULL;
	ws_module *mod = NULL;
	char err[256];
	/* configuration errors were reported by the parent already */
	FILE *devnull = freopen("/dev/null", "w", stderr);
	(void)devnull;
	if (cli_build_config(c->a, &cfg) != CLI_EXIT_OK ||
	    wsConfigSet(cfg, "sched", r->policy, err, sizeof err) != WS_SUCCESS || wsSimCreate(&sim, cfg) != WS_SUCCESS) {
		snprintf(o->err, sizeof o->err, "cannot create the simulator for policy %s", r->policy);
		goto out;
	}
	const struct ws_bench_info *b = ws_bench_find(r->bench);
	char name[96];
	snprintf(name, sizeof name, "bench/%s/kernel.ptx", b->name);
	if (wsModuleLoadData(sim, &mod, b->ptx, name) != WS_SUCCESS) {
		snprintf(o->err, sizeof o->err, "%.230s", wsSimLastError(sim));
		goto out;
	}
	struct ws_bench_out bo;
	memset(&bo, 0, sizeof bo);
	ws_result rc = ws_bench_run(b, sim, mod, r->size >= 0 ? (enum ws_bench_size)r->size : c->size, &bo);
	if (rc != WS_SUCCESS) {
		snprintf(o->err, sizeof o->err, "%s: %.200s", wsGetErrorName(rc), bo.msg);
		goto out;
	}
	double cyc = (double)stat_u(sim, "cycles");
	double insn = (double)(stat_u(sim, "thread_insts") - stat_u(sim, "pred_off_lanes"));
	double l1a = (double)stat_u(sim, "l1d_accesses"), l2a = (double)stat_u(sim, "l2_sector_accesses");
	/* GPGPU-Sim's L2 accesses are 32-byte sectors: l2_sector_accesses / _misses count ours so
	 * (l2_accesses counts requests, several sectors each where a load bypasses the L1D or a store
	 * or fill is not split; docs/memory.md) */
	/* GPGPU-Sim's row-buffer locality is per column command: 1 - activates / commands */
	double cmds = (double)(stat_u(sim, "dram_read_cmds") + stat_u(sim, "dram_write_cmds"));
	o->v[M_CYCLES] = cyc;
	o->v[M_INSN] = insn;
	o->v[M_IPC] = cyc > 0 ? insn / cyc : 0;
	double l1ia = (double)stat_u(sim, "l1i_accesses");
	o->v[M_L1I_ACC] = l1ia;
	/* GPGPU-Sim's L1I misses include the accesses merged into a pending miss */
	o->v[M_L1I_MISS] = l1ia > 0 ? (double)(stat_u(sim, "l1i_misses") + stat_u(sim, "l1i_hit_reserved")) / l1ia : 0;
	o->v[M_L1D_ACC] = l1a;
	o->v[M_L1D_MISS] = l1a > 0 ? (double)stat_u(sim, "l1d_misses") / l1a : 0;
	o->v[M_L2_MISS] = l2a > 0 ? (double)stat_u(sim, "l2_sector_misses") / l2a : 0;
	o->v[M_DRAM_RD] = (double)stat_u(sim, "dram_read_cmds");
	wsStatsGetDerived(sim, "dram_bw_utilization", &o->v[M_DRAM_UTIL]);
	o->v[M_ROW_LOC] = cmds > 0 ? 1.0 - (double)stat_u(sim, "dram_row_misses") / cmds : 0;
	wsStatsGetDerived(sim, "mf_latency", &o->v[M_MEM_LAT]); /* GPGPU-Sim's definition (derived.def) */
	wsStatsGetDerived(sim, "icnt2mem_latency", &o->v[M_ICNT2MEM]);
	wsStatsGetDerived(sim, "icnt2sh_latency", &o->v[M_ICNT2SH]);
	o->v[M_SHD_STALL] = (double)stat_u(sim, "ldst_stall_cycles");
	o->v[M_SM0_ISSUE] = (double)stat_u(sim, "sm0_warp_insts");
	for (int m = 0; m < NMET; m++)
		o->have[m] = 1;
	o->k.n = (int)wsLaunchCount(sim);
	for (int i = 0; i < o->k.n && i < MAXK; i++) {
		uint64_t c = 0;
		wsLaunchStatsGet(sim, (unsigned)i, "cycles", &c);
		o->k.cycles[i] = (double)c;
		snprintf(o->k.name[i], sizeof o->k.name[0], "%s", wsLaunchKernelName(sim, (unsigned)i));
	}
	char buf[32];
	o->num_sms = (unsigned)atoi(wsConfigGet(cfg, "num_sms", buf, sizeof buf) ? buf : "0");
	o->ok = 1;
out:
	wsSimDestroy(sim);
	wsConfigDestroy(cfg);
}

static void corr_fail(int j, void *res, const char *why, void *ctx)
{
	struct ours *o = res;
	memset(o, 0, sizeof *o);
	snprintf(o->err, sizeof o->err, "%s", why);
}

static void corr_label(int j, void *vctx, char *buf, size_t n)
{
	const struct corr_ctx *c = vctx;
	snprintf(buf, n, "%s %s", c->refs[j].bench, c->refs[j].policy);
}

/* ---- statistics ---- */

static double pct_err(double ours, double ref) { return ref != 0 ? 100.0 * (ours - ref) / ref : (ours == 0 ? 0 : NAN); }

struct summary {
	int n;
	double mape, r;
};

static struct summary summarize(const struct ref *refs, const struct ours *o, int n, int m)
{
	struct summary s = {0, 0, NAN};
	double sx = 0, sy = 0, sxx = 0, syy = 0, sxy = 0, sa = 0;
	for (int i = 0; i < n; i++) {
		if (!o[i].ok || !refs[i].have[m] || refs[i].v[m] == 0)
			continue;
		double x = refs[i].v[m], y = o[i].v[m];
		sa += fabs(pct_err(y, x));
		sx += x, sy += y, sxx += x * x, syy += y * y, sxy += x * y;
		s.n++;
	}
	if (!s.n)
		return s;
	s.mape = sa / s.n;
	double cov = sxy - sx * sy / s.n, vx = sxx - sx * sx / s.n, vy = syy - sy * sy / s.n;
	if (s.n > 1 && vx > 0 && vy > 0)
		s.r = cov / sqrt(vx * vy);
	return s;
}

/* GTO over LRR cycle ratio for benchmark index pairs. */
struct ratio {
	char bench[48];
	double ref, ours;
};

static int find_ratios(const struct ref *refs, const struct ours *o, int n, struct ratio *out, int max)
{
	int k = 0;
	for (int i = 0; i < n; i++) {
		if (strcmp(refs[i].policy, "lrr") || !o[i].ok)
			continue;
		for (int j = 0; j < n && k < max; j++)
			if (!strcmp(refs[j].policy, "gto") && !strcmp(refs[j].bench, refs[i].bench) && o[j].ok &&
			    refs[j].v[M_CYCLES] > 0 && o[j].v[M_CYCLES] > 0) {
				snprintf(out[k].bench, sizeof out[k].bench, "%s", refs[i].bench);
				out[k].ref = refs[i].v[M_CYCLES] / refs[j].v[M_CYCLES];
				out[k].ours = o[i].v[M_CYCLES] / o[j].v[M_CYCLES];
				k++;
				break;
			}
	}
	return k;
}

/* ---- writers ---- */

static void fmt_val(char *buf, size_t n, double v)
{
	if (v != v)
		snprintf(buf, n, "-");
	else if (fabs(v) >= 1000 || (v == floor(v) && fabs(v) < 1e15))
		snprintf(buf, n, "%.0f", v);
	else
		snprintf(buf, n, "%.4f", v);
}

static void write_table(FILE *f, int md, const struct ref *refs, const struct ours *o, int n)
{
	const char *sep = md ? " | " : "  ";
	if (md)
		fprintf(f, "| run | metric | GPGPU-Sim | warpsim | error |\n|---|---|---|---|---|\n");
	else
		fprintf(f, "%-16s %-18s %14s %14s %9s\n", "run", "metric", "GPGPU-Sim", "warpsim", "error");
	for (int i = 0; i < n; i++) {
		char lab[128];
		snprintf(lab, sizeof lab, "%s_%s", refs[i].bench, refs[i].policy);
		if (!o[i].ok) {
			if (md)
				fprintf(f, "| %s | failed: %s ||||\n", lab, o[i].err);
			else
				fprintf(f, "%-16s failed: %s\n", lab, o[i].err);
			continue;
		}
		for (int m = 0; m < NMET; m++) {
			if (!refs[i].have[m])
				continue;
			char a[32], b[32], e[32];
			fmt_val(a, sizeof a, refs[i].v[m]);
			fmt_val(b, sizeof b, o[i].v[m]);
			double pe = pct_err(o[i].v[m], refs[i].v[m]);
			if (pe != pe)
				snprintf(e, sizeof e, "-");
			else
				snprintf(e, sizeof e, "%+.1f%%", pe);
			if (md)
				fprintf(f, "| %s | %s | %s | %s | %s |\n", lab, met[m].name, a, b, e);
			else
				fprintf(f, "%-16s %-18s %14s %14s %9s\n", lab, met[m].name, a, b, e);
		}
	}
	(void)sep;
}

/* The launches of run i compare one by one: same count (<= MAXK) and names. */
static int kernels_match(const struct ref *r, const struct ours *o)
{
	if (!o->ok || r->k.n != o->k.n || r->k.n < 2 || r->k.n > MAXK)
		return 0;
	for (int k = 0; k < r->k.n; k++)
		if (strcmp(r->k.name[k], o->k.name[k]))
			return 0;
	return 1;
}

static void write_kernels(FILE *f, int md, const struct ref *refs, const struct ours *o, int n)
{
	int any = 0;
	for (int i = 0; i < n; i++)
		any |= kernels_match(&refs[i], &o[i]);
	if (!any)
		return;
	if (md)
		fprintf(f, "| run | launch | kernel | GPGPU-Sim cycles | warpsim cycles | error |\n|---|---|---|---|---|---|\n");
	else
		fprintf(f, "\n%-16s %6s %-20s %12s %12s %9s   (multi-kernel runs, launch by launch)\n", "run", "launch",
			"kernel", "GPGPU-Sim", "warpsim", "error");
	for (int i = 0; i < n; i++) {
		if (!kernels_match(&refs[i], &o[i]))
			continue;
		char lab[128];
		snprintf(lab, sizeof lab, "%s_%s", refs[i].bench, refs[i].policy);
		for (int k = 0; k < refs[i].k.n; k++) {
			double pe = pct_err(o[i].k.cycles[k], refs[i].k.cycles[k]);
			if (md)
				fprintf(f, "| %s | %d | %s | %.0f | %.0f | %+.1f%% |\n", lab, k, refs[i].k.name[k],
					refs[i].k.cycles[k], o[i].k.cycles[k], pe);
			else
				fprintf(f, "%-16s %6d %-20s %12.0f %12.0f %+8.1f%%\n", lab, k, refs[i].k.name[k],
					refs[i].k.cycles[k], o[i].k.cycles[k], pe);
		}
	}
}

static void write_summary(FILE *f, int md, const struct ref *refs, const struct ours *o, int n)
{
	if (md)
		fprintf(f, "| metric | GPGPU-Sim statistic | runs | MAPE | Pearson r |\n|---|---|---|---|---|\n");
	else
		fprintf(f, "\n%-18s %5s %9s %10s\n", "metric", "runs", "MAPE", "Pearson r");
	for (int m = 0; m < NMET; m++) {
		struct summary s = summarize(refs, o, n, m);
		if (!s.n)
			continue;
		char r[16];
		if (s.r != s.r)
			snprintf(r, sizeof r, "-");
		else
			snprintf(r, sizeof r, "%.3f", s.r);
		if (md)
			fprintf(f, "| %s | `%s` | %d | %.1f%% | %s |\n", met[m].name, met[m].gpgpusim, s.n, s.mape, r);
		else
			fprintf(f, "%-18s %5d %8.1f%% %10s\n", met[m].name, s.n, s.mape, r);
	}
}

static void write_ratios(FILE *f, int md, const struct ratio *rt, int k)
{
	if (!k)
		return;
	if (md)
		fprintf(f, "| benchmark | GPGPU-Sim LRR/GTO cycles | warpsim LRR/GTO cycles | difference |\n|---|---|---|---|\n");
	else
		fprintf(f, "\n%-12s %10s %10s %10s   (GTO speedup over LRR = LRR cycles / GTO cycles)\n", "benchmark",
			"GPGPU-Sim", "warpsim", "diff");
	for (int i = 0; i < k; i++) {
		if (md)
			fprintf(f, "| %s | %.3f | %.3f | %+.3f |\n", rt[i].bench, rt[i].ref, rt[i].ours, rt[i].ours - rt[i].ref);
		else
			fprintf(f, "%-12s %10.3f %10.3f %+10.3f\n", rt[i].bench, rt[i].ref, rt[i].ours, rt[i].ours - rt[i].ref);
	}
}

static void write_csv(FILE *f, const struct ref *refs, const struct ours *o, int n)
{
	fprintf(f, "bench,policy,metric,gpgpusim,warpsim,error_pct\n");
	for (int i = 0; i < n; i++)
		for (int m = 0; m < NMET; m++)
			if (o[i].ok && refs[i].have[m])
				fprintf(f, "%s,%s,%s,%.10g,%.10g,%.4f\n", refs[i].bench, refs[i].policy, met[m].name, refs[i].v[m],
					o[i].v[m], pct_err(o[i].v[m], refs[i].v[m]));
}

static const char *const palette[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
				      "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};

/* One panel per metric: log-log scatter, y = x, MAPE and r in the title. */
static void write_svg(FILE *f, const struct ref *refs, const struct ours *o, int n)
{
	int panels[NMET], np = 0;
	for (int m = 0; m < NMET; m++) {
		int any = 0;
		for (int i = 0; i < n; i++)
			any |= o[i].ok && refs[i].have[m] && refs[i].v[m] > 0 && o[i].v[m] > 0;
		if (any)
			panels[np++] = m;
	}
	/* benchmarks -> colours, policies -> marker shapes */
	char bn[16][48];
	int nb = 0;
	for (int i = 0; i < n; i++) {
		int k;
		for (k = 0; k < nb && strcmp(bn[k], refs[i].bench); k++)
			;
		if (k == nb && nb < 16)
			snprintf(bn[nb++], sizeof bn[0], "%s", refs[i].bench);
	}
	const double PW = 260, PH = 260, M = 50, cols = 3;
	int rows = (np + 2) / 3;
	double W = cols * (PW + M) + M + 120, H = rows * (PH + M + 20) + 40;
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" font-family=\"sans-serif\" "
		   "font-size=\"10\">\n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n"
		   "<text x=\"10\" y=\"20\" font-size=\"13\">warpsim (y) against GPGPU-Sim (x), log axes; "
		   "circle = LRR, square = GTO, triangle = other</text>\n",
		W, H);
	for (int q = 0; q < np; q++) {
		int m = panels[q];
		double x0 = M + (q % 3) * (PW + M), y0 = 40 + (q / 3) * (PH + M + 20);
		double lo = INFINITY, hi = 0;
		for (int i = 0; i < n; i++)
			if (o[i].ok && refs[i].have[m] && refs[i].v[m] > 0 && o[i].v[m] > 0) {
				lo = fmin(lo, fmin(refs[i].v[m], o[i].v[m]));
				hi = fmax(hi, fmax(refs[i].v[m], o[i].v[m]));
			}
		double l0 = floor(log10(lo) * 2) / 2, l1 = ceil(log10(hi) * 2) / 2;
		if (l1 - l0 < 0.5)
			l1 = l0 + 0.5;
		struct summary s = summarize(refs, o, n, m);
		char rr[16];
		if (s.r != s.r)
			snprintf(rr, sizeof rr, "-");
		else
			snprintf(rr, sizeof rr, "%.3f", s.r);
		fprintf(f, "<text x=\"%.0f\" y=\"%.0f\" font-size=\"11\" font-weight=\"bold\">%s: MAPE %.1f%%, r %s, n %d</text>\n",
			x0, y0 - 6, met[m].name, s.mape, rr, s.n);
		fprintf(f, "<rect x=\"%.0f\" y=\"%.0f\" width=\"%.0f\" height=\"%.0f\" fill=\"none\" stroke=\"#999\"/>\n", x0, y0,
			PW, PH);
		for (double t = ceil(l0); t <= l1 + 1e-9; t += 1) {
			double px = x0 + PW * (t - l0) / (l1 - l0), py = y0 + PH - PH * (t - l0) / (l1 - l0);
			char lab[16];
			snprintf(lab, sizeof lab, "%g", pow(10, t));
			fprintf(f, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.0f\" y2=\"%.0f\" stroke=\"#eee\"/>"
				   "<text x=\"%.1f\" y=\"%.0f\" text-anchor=\"middle\">%s</text>\n",
				px, px, y0, y0 + PH, px, y0 + PH + 12, lab);
			fprintf(f, "<line x1=\"%.0f\" x2=\"%.0f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#eee\"/>"
				   "<text x=\"%.0f\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
				x0, x0 + PW, py, py, x0 - 3, py + 3, lab);
		}
		fprintf(f, "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"#888\" stroke-dasharray=\"4 3\"/>\n",
			x0, y0 + PH, x0 + PW, y0);
		for (int i = 0; i < n; i++) {
			if (!o[i].ok || !refs[i].have[m] || refs[i].v[m] <= 0 || o[i].v[m] <= 0)
				continue;
			double px = x0 + PW * (log10(refs[i].v[m]) - l0) / (l1 - l0);
			double py = y0 + PH - PH * (log10(o[i].v[m]) - l0) / (l1 - l0);
			int k;
			for (k = 0; k < nb && strcmp(bn[k], refs[i].bench); k++)
				;
			const char *c = palette[k % 10];
			char tip[200];
			snprintf(tip, sizeof tip, "%s %s: GPGPU-Sim %.6g, warpsim %.6g (%+.1f%%)", refs[i].bench, refs[i].policy,
				 refs[i].v[m], o[i].v[m], pct_err(o[i].v[m], refs[i].v[m]));
			if (!strcmp(refs[i].policy, "lrr"))
				fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\"><title>%s</title></circle>\n", px, py,
					c, tip);
			else if (!strcmp(refs[i].policy, "gto"))
				fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"8\" height=\"8\" fill=\"%s\"><title>%s</title></rect>\n",
					px - 4, py - 4, c, tip);
			else
				fprintf(f, "<path d=\"M%.1f %.1f l4 8 h-8 z\" fill=\"%s\"><title>%s</title></path>\n", px, py - 5, c,
					tip);
		}
	}
	for (int k = 0; k < nb; k++)
		fprintf(f, "<rect x=\"%.0f\" y=\"%d\" width=\"10\" height=\"10\" fill=\"%s\"/><text x=\"%.0f\" y=\"%d\">%s</text>\n",
			W - 110, 50 + 16 * k, palette[k % 10], W - 95, 59 + 16 * k, bn[k]);
	fprintf(f, "</svg>\n");
}

/* ---- the command ---- */

/* Is name an element of the comma-separated list? */
static int in_list(const char *list, const char *name)
{
	size_t n = strlen(name);
	for (const char *p = list; p && *p;) {
		size_t len = strcspn(p, ",");
		if (len == n && !strncmp(p, name, n))
			return 1;
		p += len + (p[len] == ',');
	}
	return 0;
}

int cli_cmd_correlate(const struct cli_args *a)
{
	const struct cli_cmd *cmd = a->cmd;
	enum ws_bench_size size;
	if (cli_get_size_or(a, WS_SIZE_PAPER, &size) != CLI_EXIT_OK)
		return CLI_EXIT_USAGE;
	int workers;
	int rc = cli_get_jobs(a, &workers);
	if (rc != CLI_EXIT_OK)
		return rc;
	double max_cyc = -1, max_ratio = -1;
	const char *mc = cli_opt_get(a, "max-cycle-error"), *mr = cli_opt_get(a, "max-ratio-error");
	char err[600];
	if (mc && (cli_parse_f64(mc, &max_cyc, err, sizeof err) || max_cyc < 0))
		return cli_usage_error(cmd, "--max-cycle-error '%s': expected a percentage >= 0", mc);
	if (mr && (cli_parse_f64(mr, &max_ratio, err, sizeof err) || max_ratio < 0))
		return cli_usage_error(cmd, "--max-ratio-error '%s': expected a number >= 0", mr);
	const char *bench = cli_opt_get(a, "bench"), *sched = cli_opt_get(a, "sched");
	const char *kl = cli_opt_get(a, "known");
	for (const char *p = kl; p && *p;) {
		size_t len = strcspn(p, ",");
		char nm[64];
		snprintf(nm, sizeof nm, "%.*s", (int)(len < 63 ? len : 63), p);
		if (!ws_bench_find(nm))
			return cli_usage_error(cmd, "--known '%s': '%s' is not a bundled benchmark", kl, nm);
		p += len + (p[len] == ',');
	}
	if (bench && !ws_bench_find(bench))
		return cli_usage_error(cmd, "--bench '%s': not a bundled benchmark (see 'warpsim list')", bench);
	/* the output directory must be usable before any run */
	const char *outdir0 = cli_opt_get(a, "out");
	if (outdir0) {
		struct stat st;
		if (mkdir(outdir0, 0777) != 0 && errno != EEXIST)
			return cli_fail(cmd, "--out %s: cannot create the directory: %s", outdir0, strerror(errno));
		if (stat(outdir0, &st) != 0 || !S_ISDIR(st.st_mode))
			return cli_fail(cmd, "--out %s: not a directory", outdir0);
		if (access(outdir0, W_OK | X_OK) != 0)
			return cli_fail(cmd, "--out %s: cannot write there: %s", outdir0, strerror(errno));
	}
	/* the configuration (and the policy names) must be valid before any run */
	ws_config *cfg0 = NULL;
	rc = cli_build_config(a, &cfg0);
	if (rc != CLI_EXIT_OK)
		return rc;
	cli_cap_jobs(a, cfg0, &workers);
	if (a->npos > MAXREF) {
		wsConfigDestroy(cfg0);
		return cli_usage_error(cmd, "at most %d reference runs", MAXREF);
	}
	struct ref *refs = calloc((size_t)a->npos + 1, sizeof *refs);
	struct ours *o = calloc((size_t)a->npos + 1, sizeof *o);
	if (!refs || !o) {
		wsConfigDestroy(cfg0);
		free(refs);
		free(o);
		return cli_fail(cmd, "out of memory");
	}
	int n = a->npos;
	rc = CLI_EXIT_OK;
	for (int i = 0; i < n && rc == CLI_EXIT_OK; i++) {
		struct ref *r = &refs[i];
		if (ref_locate(a->pos[i], r, err, sizeof err) || ref_parse(r, err, sizeof err)) {
			rc = cli_fail(cmd, "%s", err);
			break;
		}
		if (bench)
			snprintf(r->bench, sizeof r->bench, "%s", bench);
		if (sched)
			snprintf(r->policy, sizeof r->policy, "%s", sched);
		if (!r->policy[0] && strrchr(r->label, '_'))
			snprintf(r->policy, sizeof r->policy, "%s", strrchr(r->label, '_') + 1);
		if (!r->bench[0])
			rc = cli_usage_error(cmd, "%s: cannot tell the benchmark (name the directory BENCH_POLICY or give --bench)",
					     r->path);
		else if (!r->policy[0])
			rc = cli_usage_error(cmd, "%s: cannot tell the policy (no -gpgpu_scheduler echo; give --sched)", r->path);
		else {
			ws_config *c = wsConfigClone(cfg0);
			char e2[256];
			if (!c || wsConfigSet(c, "sched", r->policy, e2, sizeof e2) != WS_SUCCESS)
				rc = cli_usage_error(cmd, "%s: policy '%s' is not a warpsim policy (%s)", r->path, r->policy, e2);
			wsConfigDestroy(c);
		}
	}
	char nsms[32];
	int our_sms = atoi(wsConfigGet(cfg0, "num_sms", nsms, sizeof nsms) ? nsms : "0");
	wsConfigDestroy(cfg0);
	if (rc != CLI_EXIT_OK) {
		free(refs);
		free(o);
		return rc;
	}
	for (int i = 0; i < n; i++)
		if (refs[i].num_sms && refs[i].num_sms != our_sms)
			fprintf(stderr, "warpsim correlate: warning: %s simulated %d SMs, warpsim's configuration has %d\n",
				refs[i].path, refs[i].num_sms, our_sms);
	struct corr_ctx ctx = {a, refs, size};
	struct cli_pool pool = {n, workers, sizeof *o, corr_run, corr_fail, cli_opt_get(a, "quiet") ? NULL : "correlate",
				corr_label, &ctx};
	cli_pool_run(&pool, o);
	int failed = 0;
	for (int i = 0; i < n; i++)
		failed += !o[i].ok;

	struct ratio rt[MAXREF];
	int nr = find_ratios(refs, o, n, rt, MAXREF);
	write_table(stdout, 0, refs, o, n);
	write_kernels(stdout, 0, refs, o, n);
	write_summary(stdout, 0, refs, o, n);
	write_ratios(stdout, 0, rt, nr);

	const char *outdir = cli_opt_get(a, "out");
	if (outdir) {
		char p[1024];
		FILE *f;
		snprintf(p, sizeof p, "%s/correlation.csv", outdir);
		if (!(f = fopen(p, "w"))) {
			free(refs);
			free(o);
			return cli_fail(cmd, "cannot write %s: %s", p, strerror(errno));
		}
		write_csv(f, refs, o, n);
		fclose(f);
		snprintf(p, sizeof p, "%s/correlation.svg", outdir);
		if (!(f = fopen(p, "w"))) {
			free(refs);
			free(o);
			return cli_fail(cmd, "cannot write %s: %s", p, strerror(errno));
		}
		write_svg(f, refs, o, n);
		fclose(f);
		snprintf(p, sizeof p, "%s/correlation.md", outdir);
		if (!(f = fopen(p, "w"))) {
			free(refs);
			free(o);
			return cli_fail(cmd, "cannot write %s: %s", p, strerror(errno));
		}
		/* the sizes run: --size's, and those of the references' size files */
		char sizes[64] = "";
		for (int z = WS_SIZE_TINY; z <= WS_SIZE_PAPER; z++) {
			int used = 0;
			for (int i = 0; i < n; i++)
				used |= (refs[i].size >= 0 ? refs[i].size : (int)size) == z;
			if (used)
				snprintf(sizes + strlen(sizes), sizeof sizes - strlen(sizes), "%s%s", sizes[0] ? ", " : "",
					 ws_bench_size_name((enum ws_bench_size)z));
		}
		fprintf(f, "# Correlation with GPGPU-Sim\n\nGenerated by `warpsim correlate` (size %s); do not edit by hand.\n\n"
			   "![warpsim against GPGPU-Sim](correlation.svg)\n\n## Summary\n\n",
			sizes);
		write_summary(f, 1, refs, o, n);
		if (nr) {
			fprintf(f, "\n## GTO speedup over LRR\n\n");
			write_ratios(f, 1, rt, nr);
		}
		fprintf(f, "\n## Every run\n\n");
		write_table(f, 1, refs, o, n);
		fprintf(f, "\n");
		write_kernels(f, 1, refs, o, n);
		fclose(f);
		printf("\nwrote %s/correlation.md, correlation.csv and correlation.svg\n", outdir);
	}

	/* targets; --known benchmarks have a documented difference: reported, not failed */
	const char *known = cli_opt_get(a, "known");
	int missed = 0;
	if (max_cyc >= 0)
		for (int i = 0; i < n; i++)
			if (o[i].ok && fabs(pct_err(o[i].v[M_CYCLES], refs[i].v[M_CYCLES])) > max_cyc) {
				int k = in_list(known, refs[i].bench);
				fprintf(stderr, "warpsim correlate: %s %s: cycle error %+.1f%% exceeds %.1f%%%s\n", refs[i].bench,
					refs[i].policy, pct_err(o[i].v[M_CYCLES], refs[i].v[M_CYCLES]), max_cyc,
					k ? " (known difference)" : "");
				missed += !k;
			}
	if (max_ratio >= 0)
		for (int i = 0; i < nr; i++)
			if (fabs(rt[i].ours - rt[i].ref) > max_ratio) {
				int k = in_list(known, rt[i].bench);
				fprintf(stderr, "warpsim correlate: %s: GTO/LRR speedup %.3f vs GPGPU-Sim %.3f differs by more than %.3f%s\n",
					rt[i].bench, rt[i].ours, rt[i].ref, max_ratio, k ? " (known difference)" : "");
				missed += !k;
			}
	free(refs);
	free(o);
	if (failed)
		return cli_fail(cmd, "%d run(s) failed", failed);
	return missed ? CLI_EXIT_FAIL : CLI_EXIT_OK;
}
