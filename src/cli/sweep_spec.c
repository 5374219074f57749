/*
 * sweep_spec.c -- sweep spec files for `warpsim sweep`: parsing the
 * line-oriented `keyword value...` format, validating every benchmark,
 * policy, parameter, config file and statistic against the simulator up
 * front (errors name PATH:LINE) and expanding the grid into jobs with stable
 * ids.  The files of a sweep's output directory (sweep.info, jobs.txt,
 * jobs/ID.job) and the helpers shared by the sweep files are in
 * sweep_files.c.
 *
 * Models no hardware.  The format is documented in docs/sweeps.md.
 */
#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "sweep_spec.h"

/* ---- the spec parser ---- */

struct cfgfile {
	char *written, *abs;
	ws_config *cfg;
	int line;
};
struct setdim {
	char *key;
	char **vals;
	int n, line;
};
struct pol {
	char *sched, *fetch; /* fetch may be NULL */
};

struct parser {
	const char *path;
	char *err;
	size_t errsz;
	int failed;
	char *name;
	int name_line;
	char **benches;
	int nbench, bench_line;
	char **sizes;
	int nsize, size_line;
	struct cfgfile *cfgs;
	int ncfg, cfg_line;
	char **scheds, **fetches;
	int nsched, nfetch, sched_line, fetch_line;
	struct pol *pols;
	int npol, pol_line;
	struct sweep_kv *fixed;
	int *fixed_lines;
	int nfixed;
	struct setdim *sets;
	int nsets;
	struct sweep_filter *excl;
	int nexcl;
	struct sweep_filter base;
	int base_line;
	char **stats;
	int nstats, stats_line;
	double timeout;
	int timeout_line;
	const char *metric;
	int metric_line;
	ws_config *scratch;
	char **statnames;
	int nstatnames;
};

static int perr(struct parser *p, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int perr(struct parser *p, int line, const char *fmt, ...)
{
	if (p->failed)
		return -1;
	p->failed = 1;
	char msg[768];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (line > 0)
		sweep_fmt(p->err, p->errsz, "%s:%d: %s", p->path, line, msg);
	else
		sweep_fmt(p->err, p->errsz, "%s: %s", p->path, msg);
	return -1;
}

static int oom(struct parser *p, int line) { return perr(p, line, "out of memory"); }

static int sched_known(const char *s)
{
	char err[8];
	return wsSchedCheck(s, err, sizeof err) == WS_SUCCESS; /* NAME or WRAPPER:INNER */
}

static int fetch_known(const char *s)
{
	for (int i = 0; wsFetchPolicyName(i); i++)
		if (strcmp(wsFetchPolicyName(i), s) == 0)
			return 1;
	return 0;
}

static void policy_list(char *buf, size_t sz, int fetch)
{
	buf[0] = '\0';
	size_t n = 0;
	for (int i = 0;; i++) {
		const char *nm = fetch ? wsFetchPolicyName(i) : wsSchedPolicyName(i);
		if (!nm)
			break;
		int k = snprintf(buf + n, sz - n, "%s%s", i ? " " : "", nm);
		if (k < 0 || (size_t)k >= sz - n)
			break;
		n += (size_t)k;
	}
}

static int check_sched(struct parser *p, int line, const char *s)
{
	if (sched_known(s))
		return 0;
	char list[256], wl[128] = "";
	policy_list(list, sizeof list, 0);
	for (int i = 0, n = 0; wsSchedWrapperName(i) && (size_t)n < sizeof wl; i++)
		n += snprintf(wl + n, sizeof wl - (size_t)n, "%s%s", i ? " " : "", wsSchedWrapperName(i));
	return perr(p, line, "unknown scheduling policy '%s' (known: %s; wrappers, as WRAPPER:INNER: %s)", s, list, wl);
}

static int check_fetch(struct parser *p, int line, const char *s)
{
	if (fetch_known(s))
		return 0;
	char list[256];
	policy_list(list, sizeof list, 1);
	return perr(p, line, "unknown fetch policy '%s' (known: %s)", s, list);
}

/* A job-defining value must not contain ';' (the description separator). */
static int check_value_chars(struct parser *p, int line, const char *what, const char *v)
{
	if (strchr(v, ';'))
		return perr(p, line, "%s '%s' contains ';'", what, v);
	return 0;
}

static int is_param_key(const struct parser *p, const char *k)
{
	for (int i = 0; i < p->nfixed; i++)
		if (strcmp(p->fixed[i].key, k) == 0)
			return 1;
	for (int i = 0; i < p->nsets; i++)
		if (strcmp(p->sets[i].key, k) == 0)
			return 1;
	return 0;
}

/* Where has parameter k already been given? 0 if nowhere. */
static int param_line(const struct parser *p, const char *k)
{
	for (int i = 0; i < p->nfixed; i++)
		if (strcmp(p->fixed[i].key, k) == 0)
			return p->fixed_lines[i];
	for (int i = 0; i < p->nsets; i++)
		if (strcmp(p->sets[i].key, k) == 0)
			return p->sets[i].line;
	return 0;
}

/* Validate one parameter assignment on the scratch configuration. */
static int check_param(struct parser *p, int line, const char *key, const char *value)
{
	if (strcmp(key, "sched") == 0 || strcmp(key, "fetch") == 0)
		return perr(p, line, "set the policies with 'sched', 'fetch' or 'policy' lines, not as parameter '%s'",
		            key);
	if (check_value_chars(p, line, "value", value))
		return -1;
	char e[512];
	e[0] = '\0';
	ws_result r = wsConfigSet(p->scratch, key, value, e, sizeof e);
	if (r != WS_SUCCESS)
		return perr(p, line, "%s", e[0] ? e : wsGetErrorString(r));
	return 0;
}

static int parse_duration(const char *s, double *out)
{
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (end == s || errno || !(v > 0) || v > 1e9)
		return -1;
	if (*end == 'm')
		v *= 60, end++;
	else if (*end == 'h')
		v *= 3600, end++;
	else if (*end == 's')
		end++;
	if (*end)
		return -1;
	*out = v;
	return 0;
}

static int resolve_config(const char *spec_path, const char *written, char **abs)
{
	*abs = realpath(written, NULL);
	if (*abs || written[0] == '/')
		return *abs ? 0 : -1;
	const char *slash = strrchr(spec_path, '/');
	if (!slash)
		return -1;
	size_t dl = (size_t)(slash - spec_path) + 1, wl = strlen(written);
	char *cand = malloc(dl + wl + 1);
	if (!cand)
		return -1;
	memcpy(cand, spec_path, dl);
	memcpy(cand + dl, written, wl + 1);
	*abs = realpath(cand, NULL);
	free(cand);
	return *abs ? 0 : -1;
}

/* KEY=VALUE tokens of an exclude/baseline line. */
static int parse_filter(struct parser *p, int line, char **tok, int ntok, struct sweep_filter *f)
{
	f->line = line;
	f->kv = calloc((size_t)ntok, sizeof *f->kv);
	if (!f->kv)
		return oom(p, line);
	for (int i = 0; i < ntok; i++) {
		char *eq = strchr(tok[i], '=');
		if (!eq || eq == tok[i] || !eq[1])
			return perr(p, line, "expected KEY=VALUE, got '%s'", tok[i]);
		*eq = '\0';
		for (int k = 0; k < f->n; k++)
			if (strcmp(f->kv[k].key, tok[i]) == 0)
				return perr(p, line, "'%s' given twice", tok[i]);
		f->kv[f->n].key = sweep_strdup(tok[i]);
		f->kv[f->n].value = sweep_strdup(eq + 1);
		f->n++;
		if (!f->kv[f->n - 1].key || !f->kv[f->n - 1].value)
			return oom(p, line);
	}
	return 0;
}

static const char *const keywords =
    "name, bench, size, config, sched, fetch, policy, set, fixed, exclude, baseline, stats, metric, timeout";

static int once(struct parser *p, int line, int *seen, const char *kw)
{
	if (*seen)
		return perr(p, line, "'%s' given twice (first at line %d)", kw, *seen);
	*seen = line;
	return 0;
}

static int add_unique(struct parser *p, int line, char ***v, int *n, const char *s, const char *what)
{
	if (sweep_strv_find(*v, *n, s) >= 0)
		return perr(p, line, "%s '%s' listed twice", what, s);
	return sweep_strv_push(v, n, s) ? oom(p, line) : 0;
}

static int parse_line(struct parser *p, int line, char **tok, int ntok)
{
	const char *kw = tok[0];
	char **v = tok + 1;
	int nv = ntok - 1;
	static const char *const known[] = {"name", "bench", "size",    "config",   "sched", "fetch",  "policy",
	                                     "set",  "fixed", "exclude", "baseline", "stats", "metric", "timeout"};
	int is_known = 0;
	for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
		is_known |= strcmp(kw, known[i]) == 0;
	if (!is_known)
		return perr(p, line, "unknown keyword '%s' (expected one of: %s)", kw, keywords);
	if (nv == 0)
		return perr(p, line, "'%s' needs at least one value", kw);

	if (strcmp(kw, "name") == 0) {
		if (once(p, line, &p->name_line, kw))
			return -1;
		if (nv != 1)
			return perr(p, line, "'name' takes one word, got %d", nv);
		for (const char *c = v[0]; *c; c++)
			if (!isalnum((unsigned char)*c) && *c != '-' && *c != '_' && *c != '.')
				return perr(p, line, "name '%s': use letters, digits, '-', '_' and '.' only", v[0]);
		p->name = sweep_strdup(v[0]);
		return p->name ? 0 : oom(p, line);
	}
	if (strcmp(kw, "bench") == 0) {
		if (!p->bench_line)
			p->bench_line = line;
		for (int i = 0; i < nv; i++) {
			if (strcmp(v[i], "all") == 0) {
				for (int b = 0; ws_bench_table[b]; b++)
					if (add_unique(p, line, &p->benches, &p->nbench, ws_bench_table[b]->name, "benchmark"))
						return -1;
				continue;
			}
			if (!ws_bench_find(v[i])) {
				char names[1024];
				return perr(p, line, "unknown benchmark '%s' (known: %s, or all)", v[i],
				            ws_bench_names(names, sizeof names));
			}
			if (add_unique(p, line, &p->benches, &p->nbench, v[i], "benchmark"))
				return -1;
		}
		return 0;
	}
	if (strcmp(kw, "size") == 0) {
		if (!p->size_line)
			p->size_line = line;
		for (int i = 0; i < nv; i++) {
			if (ws_bench_size_parse(v[i]) < 0)
				return perr(p, line, "unknown size '%s' (expected tiny, small, paper or paper-kaws)", v[i]);
			if (add_unique(p, line, &p->sizes, &p->nsize, v[i], "size"))
				return -1;
		}
		return 0;
	}
	if (strcmp(kw, "config") == 0) {
		if (!p->cfg_line)
			p->cfg_line = line;
		for (int i = 0; i < nv; i++) {
			if (check_value_chars(p, line, "config file", v[i]))
				return -1;
			for (int k = 0; k < p->ncfg; k++)
				if (strcmp(p->cfgs[k].written, v[i]) == 0)
					return perr(p, line, "config file '%s' listed twice", v[i]);
			struct cfgfile *nc = realloc(p->cfgs, (size_t)(p->ncfg + 1) * sizeof *nc);
			if (!nc)
				return oom(p, line);
			p->cfgs = nc;
			struct cfgfile *c = &nc[p->ncfg++];
			memset(c, 0, sizeof *c);
			c->line = line;
			c->written = sweep_strdup(v[i]);
			c->cfg = wsConfigCreate();
			if (!c->written || !c->cfg)
				return oom(p, line);
			if (resolve_config(p->path, v[i], &c->abs) != 0) {
				const char *slash = strrchr(p->path, '/');
				if (v[i][0] == '/' || !slash)
					return perr(p, line, "config file '%s' not found", v[i]);
				return perr(p, line, "config file '%s' not found (looked in the current directory and in %.*s/)",
				            v[i], (int)(slash - p->path), p->path);
			}
			char e[512];
			e[0] = '\0';
			ws_result r = wsConfigLoadFile(c->cfg, c->abs, e, sizeof e);
			if (r != WS_SUCCESS)
				return perr(p, line, "config file '%s': %s", v[i], e[0] ? e : wsGetErrorString(r));
		}
		return 0;
	}
	if (strcmp(kw, "sched") == 0 || strcmp(kw, "fetch") == 0) {
		int fetch = kw[0] == 'f';
		if (p->pol_line)
			return perr(p, line, "'%s' cannot be combined with 'policy' (line %d)", kw, p->pol_line);
		int *first = fetch ? &p->fetch_line : &p->sched_line;
		if (!*first)
			*first = line;
		for (int i = 0; i < nv; i++) {
			if (fetch ? check_fetch(p, line, v[i]) : check_sched(p, line, v[i]))
				return -1;
			if (add_unique(p, line, fetch ? &p->fetches : &p->scheds, fetch ? &p->nfetch : &p->nsched, v[i],
			               fetch ? "fetch policy" : "scheduling policy"))
				return -1;
		}
		return 0;
	}
	if (strcmp(kw, "policy") == 0) {
		if (p->sched_line || p->fetch_line)
			return perr(p, line, "'policy' cannot be combined with 'sched' or 'fetch' (line %d)",
			            p->sched_line ? p->sched_line : p->fetch_line);
		if (!p->pol_line)
			p->pol_line = line;
		for (int i = 0; i < nv; i++) {
			char *plus = strchr(v[i], '+');
			if (plus)
				*plus = '\0';
			if (check_sched(p, line, v[i]) || (plus && check_fetch(p, line, plus + 1)))
				return -1;
			for (int k = 0; k < p->npol; k++)
				if (strcmp(p->pols[k].sched, v[i]) == 0 &&
				    ((!plus && !p->pols[k].fetch) ||
				     (plus && p->pols[k].fetch && strcmp(p->pols[k].fetch, plus + 1) == 0)))
					return perr(p, line, "policy '%s%s%s' listed twice", v[i], plus ? "+" : "",
					            plus ? plus + 1 : "");
			struct pol *np = realloc(p->pols, (size_t)(p->npol + 1) * sizeof *np);
			if (!np)
				return oom(p, line);
			p->pols = np;
			np[p->npol].sched = sweep_strdup(v[i]);
			np[p->npol].fetch = plus ? sweep_strdup(plus + 1) : NULL;
			p->npol++;
			if (!np[p->npol - 1].sched || (plus && !np[p->npol - 1].fetch))
				return oom(p, line);
		}
		return 0;
	}
	if (strcmp(kw, "set") == 0) {
		char *key = v[0], *one = NULL;
		char *eq = strchr(key, '=');
		if (eq) {
			if (nv != 1)
				return perr(p, line, "expected 'set KEY VALUE...' or 'set KEY=VALUE'");
			*eq = '\0';
			one = eq + 1;
			if (!*one)
				return perr(p, line, "'set %s=' has no value", key);
		} else if (nv < 2) {
			return perr(p, line, "'set %s' needs at least one value", key);
		}
		if (!key[0])
			return perr(p, line, "'set' needs a parameter name");
		int prev = param_line(p, key);
		if (prev)
			return perr(p, line, "parameter '%s' already given at line %d", key, prev);
		struct setdim *ns = realloc(p->sets, (size_t)(p->nsets + 1) * sizeof *ns);
		if (!ns)
			return oom(p, line);
		p->sets = ns;
		struct setdim *d = &ns[p->nsets++];
		memset(d, 0, sizeof *d);
		d->line = line;
		d->key = sweep_strdup(key);
		if (!d->key)
			return oom(p, line);
		char **vals = one ? &one : v + 1;
		int nvals = one ? 1 : nv - 1;
		for (int i = 0; i < nvals; i++) {
			if (check_param(p, line, key, vals[i]))
				return -1;
			/* two spellings of one value (10 and 0xa, true and 1) would be two jobs of one configuration */
			char want[64], have[64];
			if (!wsConfigGet(p->scratch, key, want, sizeof want))
				want[0] = '\0';
			for (int k = 0; k < d->n; k++)
				if (wsConfigSet(p->scratch, key, d->vals[k], NULL, 0) == WS_SUCCESS &&
				    wsConfigGet(p->scratch, key, have, sizeof have) && strcmp(have, want) == 0 &&
				    strcmp(d->vals[k], vals[i]) != 0)
					return perr(p, line, "values '%s' and '%s' of '%s' are the same setting", d->vals[k], vals[i],
					            key);
			if (check_param(p, line, key, vals[i]))
				return -1;
			if (add_unique(p, line, &d->vals, &d->n, vals[i], "value"))
				return -1;
		}
		return 0;
	}
	if (strcmp(kw, "fixed") == 0) {
		for (int i = 0; i < nv; i++) {
			char *eq = strchr(v[i], '=');
			if (!eq || eq == v[i] || !eq[1])
				return perr(p, line, "expected KEY=VALUE, got '%s'", v[i]);
			*eq = '\0';
			int prev = param_line(p, v[i]);
			if (prev)
				return perr(p, line, "parameter '%s' already given at line %d", v[i], prev);
			if (check_param(p, line, v[i], eq + 1))
				return -1;
			struct sweep_kv *nf = realloc(p->fixed, (size_t)(p->nfixed + 1) * sizeof *nf);
			if (!nf)
				return oom(p, line);
			p->fixed = nf;
			int *nl = realloc(p->fixed_lines, (size_t)(p->nfixed + 1) * sizeof *nl);
			if (!nl)
				return oom(p, line);
			p->fixed_lines = nl;
			nl[p->nfixed] = line;
			nf[p->nfixed].key = sweep_strdup(v[i]);
			nf[p->nfixed].value = sweep_strdup(eq + 1);
			p->nfixed++;
			if (!nf[p->nfixed - 1].key || !nf[p->nfixed - 1].value)
				return oom(p, line);
		}
		return 0;
	}
	if (strcmp(kw, "exclude") == 0) {
		struct sweep_filter *ne = realloc(p->excl, (size_t)(p->nexcl + 1) * sizeof *ne);
		if (!ne)
			return oom(p, line);
		p->excl = ne;
		memset(&ne[p->nexcl], 0, sizeof ne[0]);
		return parse_filter(p, line, v, nv, &ne[p->nexcl++]);
	}
	if (strcmp(kw, "baseline") == 0) {
		if (once(p, line, &p->base_line, kw))
			return -1;
		return parse_filter(p, line, v, nv, &p->base);
	}
	if (strcmp(kw, "stats") == 0) {
		if (!p->stats_line)
			p->stats_line = line;
		for (int i = 0; i < nv; i++) {
			int hit = 0;
			for (int k = 0; k < p->nstatnames && !hit; k++)
				hit = fnmatch(v[i], p->statnames[k], 0) == 0;
			if (!hit)
				return perr(p, line, "statistic '%s' matches no counter or derived metric", v[i]);
			if (add_unique(p, line, &p->stats, &p->nstats, v[i], "statistic"))
				return -1;
		}
		return 0;
	}
	if (strcmp(kw, "metric") == 0) {
		if (once(p, line, &p->metric_line, kw))
			return -1;
		if (nv != 1 || (strcmp(v[0], "cycles") && strcmp(v[0], "ipc")))
			return perr(p, line, "metric: expected 'cycles' (speedup = baseline cycles / cycles) or 'ipc' "
			                     "(speedup = IPC / baseline IPC)");
		p->metric = v[0][0] == 'c' ? "cycles" : "ipc";
		return 0;
	}
	if (strcmp(kw, "timeout") == 0) {
		if (once(p, line, &p->timeout_line, kw))
			return -1;
		if (nv != 1 || parse_duration(v[0], &p->timeout))
			return perr(p, line, "timeout: expected a positive duration (seconds, or with s, m or h)");
		return 0;
	}
	return perr(p, line, "unknown keyword '%s' (expected one of: %s)", kw, keywords);
}

/* Check the keys and values of an exclude or baseline line against the spec. */
static int check_filter(struct parser *p, const struct sweep_filter *f, int allow_bench)
{
	for (int i = 0; i < f->n; i++) {
		const char *k = f->kv[i].key, *v = f->kv[i].value;
		if (strcmp(k, "bench") == 0) {
			if (!allow_bench)
				return perr(p, f->line, "the baseline cannot select a benchmark");
			if (sweep_strv_find(p->benches, p->nbench, v) < 0)
				return perr(p, f->line, "benchmark '%s' is not in the sweep", v);
		} else if (strcmp(k, "size") == 0) {
			if (sweep_strv_find(p->sizes, p->nsize, v) < 0)
				return perr(p, f->line, "size '%s' is not in the sweep", v);
		} else if (strcmp(k, "config") == 0) {
			int hit = 0;
			for (int c = 0; c < p->ncfg; c++)
				hit |= strcmp(p->cfgs[c].written, v) == 0;
			if (!hit)
				return perr(p, f->line, "config '%s' is not in the sweep", v);
		} else if (strcmp(k, "sched") == 0) {
			if (check_sched(p, f->line, v))
				return -1;
		} else if (strcmp(k, "fetch") == 0) {
			if (check_fetch(p, f->line, v))
				return -1;
		} else if (is_param_key(p, k)) {
			char e[512];
			if (wsConfigSet(p->scratch, k, v, e, sizeof e) != WS_SUCCESS)
				return perr(p, f->line, "%s", e);
		} else {
			return perr(p, f->line,
			            "'%s' is not a dimension of the sweep (bench, size, config, sched, fetch, or a "
			            "parameter of a 'set' or 'fixed' line)",
			            k);
		}
	}
	return 0;
}

/* One grid dimension during expansion: choices of 1 or 2 assignments. */
struct xdim {
	int n;
	const char *k1, *k2;
	const char *const *v1;
	const char *const *v2; /* may be NULL; entries may be NULL (fetch unset) */
	const struct setdim *set;
};

static int cmp_kv(const void *a, const void *b)
{
	return strcmp(((const struct sweep_kv *)a)->key, ((const struct sweep_kv *)b)->key);
}

static int cmp_job_id(const void *a, const void *b)
{
	return strcmp((*(const struct sweep_job *const *)a)->id, (*(const struct sweep_job *const *)b)->id);
}

/* Value of key k in the job for filter matching. */
static const char *job_value(const struct sweep_job *j, const char *k, const ws_config *cfg, char *buf, size_t bufsz)
{
	if (strcmp(k, "bench") == 0)
		return j->bench;
	if (strcmp(k, "size") == 0)
		return j->size;
	if (strcmp(k, "config") == 0)
		return j->config;
	if (strcmp(k, "sched") == 0)
		return j->sched;
	if (strcmp(k, "fetch") == 0)
		return j->fetch;
	for (int i = 0; i < j->nparams; i++)
		if (strcmp(j->params[i].key, k) == 0)
			return j->params[i].value;
	return wsConfigGet(cfg, k, buf, bufsz);
}

static int filter_match(const struct sweep_filter *f, const struct sweep_job *j, const ws_config *cfg)
{
	for (int i = 0; i < f->n; i++) {
		char buf[128];
		const char *v = job_value(j, f->kv[i].key, cfg, buf, sizeof buf);
		if (!v || strcmp(v, f->kv[i].value) != 0)
			return 0;
	}
	return 1;
}

static int expand(struct parser *p, struct sweep_spec *s)
{
	const char *small[] = {"small"};
	struct xdim dims[64 + 8];
	int nd = 0;
	dims[nd++] = (struct xdim){p->nbench, "bench", NULL, (const char *const *)p->benches, NULL, NULL};
	if (p->nsize)
		dims[nd++] = (struct xdim){p->nsize, "size", NULL, (const char *const *)p->sizes, NULL, NULL};
	else
		dims[nd++] = (struct xdim){1, "size", NULL, small, NULL, NULL};
	char **cfgnames = NULL;
	const char **psched = NULL, **pfetch = NULL;
	int rc = -1;
	ws_config *defcfg = wsConfigCreate();
	if (!defcfg)
		return oom(p, 0);
	if (p->ncfg) {
		cfgnames = calloc((size_t)p->ncfg, sizeof *cfgnames);
		if (!cfgnames)
			goto out_oom;
		for (int i = 0; i < p->ncfg; i++)
			cfgnames[i] = p->cfgs[i].written;
		dims[nd++] = (struct xdim){p->ncfg, "config", NULL, (const char *const *)cfgnames, NULL, NULL};
	}
	if (p->npol) {
		psched = calloc((size_t)p->npol, sizeof *psched);
		pfetch = calloc((size_t)p->npol, sizeof *pfetch);
		if (!psched || !pfetch)
			goto out_oom;
		for (int i = 0; i < p->npol; i++) {
			psched[i] = p->pols[i].sched;
			pfetch[i] = p->pols[i].fetch;
		}
		dims[nd++] = (struct xdim){p->npol, "sched", "fetch", psched, pfetch, NULL};
	}
	if (p->nsched)
		dims[nd++] = (struct xdim){p->nsched, "sched", NULL, (const char *const *)p->scheds, NULL, NULL};
	if (p->nfetch)
		dims[nd++] = (struct xdim){p->nfetch, "fetch", NULL, (const char *const *)p->fetches, NULL, NULL};
	if (p->nsets > 64) {
		perr(p, p->sets[64].line, "more than 64 'set' lines");
		goto out;
	}
	for (int i = 0; i < p->nsets; i++)
		dims[nd++] = (struct xdim){p->sets[i].n, p->sets[i].key, NULL, (const char *const *)p->sets[i].vals, NULL,
		                           &p->sets[i]};
	double total = 1;
	for (int d = 0; d < nd; d++)
		total *= dims[d].n;
	if (total > SWEEP_MAX_JOBS) {
		perr(p, 0, "the grid has %.0f combinations (at most %d)", total, SWEEP_MAX_JOBS);
		goto out;
	}
	s->jobs = calloc((size_t)total, sizeof *s->jobs);
	if (!s->jobs)
		goto out_oom;
	int idx[64 + 8] = {0};
	int nparams = p->nfixed + p->nsets;
	for (long combo = 0; combo < (long)total; combo++) {
		if (combo) {
			for (int d = nd - 1; d >= 0; d--) {
				if (++idx[d] < dims[d].n)
					break;
				idx[d] = 0;
			}
		}
		struct sweep_job *j = &s->jobs[s->njobs];
		memset(j, 0, sizeof *j);
		const char *sched = NULL, *fetch = NULL, *config = "", *cabs = "";
		const ws_config *base = defcfg;
		j->params = calloc((size_t)nparams + 1, sizeof *j->params);
		if (!j->params)
			goto out_oom;
		for (int i = 0; i < p->nfixed; i++) {
			j->params[j->nparams].key = sweep_strdup(p->fixed[i].key);
			j->params[j->nparams++].value = sweep_strdup(p->fixed[i].value);
		}
		for (int d = 0; d < nd; d++) {
			const char *v1 = dims[d].v1[idx[d]];
			const char *v2 = dims[d].v2 ? dims[d].v2[idx[d]] : NULL;
			if (dims[d].set) {
				j->params[j->nparams].key = sweep_strdup(dims[d].k1);
				j->params[j->nparams++].value = sweep_strdup(v1);
			} else if (strcmp(dims[d].k1, "bench") == 0) {
				j->bench = sweep_strdup(v1);
			} else if (strcmp(dims[d].k1, "size") == 0) {
				j->size = sweep_strdup(v1);
			} else if (strcmp(dims[d].k1, "config") == 0) {
				config = v1;
				cabs = p->cfgs[idx[d]].abs;
				base = p->cfgs[idx[d]].cfg;
			} else if (strcmp(dims[d].k1, "sched") == 0) {
				sched = v1;
				if (dims[d].k2)
					fetch = v2;
			} else {
				fetch = v1;
			}
		}
		j->nparams = nparams;
		int bad = !j->bench || !j->size;
		for (int i = 0; i < nparams; i++)
			bad |= !j->params[i].key || !j->params[i].value;
		j->config = sweep_strdup(config);
		j->config_path = sweep_strdup(cabs);
		j->sweep = sweep_strdup(s->name);
		j->timeout = p->timeout;
		if (bad || !j->config || !j->config_path || !j->sweep) {
			s->njobs++;
			goto out_oom;
		}
		s->njobs++;
		qsort(j->params, (size_t)nparams, sizeof *j->params, cmp_kv);
		/* the effective configuration */
		ws_config *cfg = wsConfigClone(base);
		if (!cfg)
			goto out_oom;
		char e[512];
		e[0] = '\0';
		ws_result r = WS_SUCCESS;
		for (int i = 0; i < nparams && r == WS_SUCCESS; i++)
			r = wsConfigSet(cfg, j->params[i].key, j->params[i].value, e, sizeof e);
		if (r == WS_SUCCESS && sched)
			r = wsConfigSet(cfg, "sched", sched, e, sizeof e);
		if (r == WS_SUCCESS && fetch)
			r = wsConfigSet(cfg, "fetch", fetch, e, sizeof e);
		char b1[128], b2[128];
		const char *es = wsConfigGet(cfg, "sched", b1, sizeof b1), *ef = wsConfigGet(cfg, "fetch", b2, sizeof b2);
		j->sched = sweep_strdup(es ? es : "");
		j->fetch = sweep_strdup(ef ? ef : "");
		/* canonical description */
		struct sweep_buf d = {0};
		sweep_buf_printf(&d, "bench=%s;size=%s", j->bench, j->size);
		if (config[0])
			sweep_buf_printf(&d, ";config=%s", config);
		if (sched)
			sweep_buf_printf(&d, ";sched=%s", sched);
		if (fetch)
			sweep_buf_printf(&d, ";fetch=%s", fetch);
		for (int i = 0; i < nparams; i++)
			sweep_buf_printf(&d, ";%s=%s", j->params[i].key, j->params[i].value);
		j->desc = d.s;
		if (d.oom || !j->sched || !j->fetch) {
			wsConfigDestroy(cfg);
			goto out_oom;
		}
		sweep_fmt(j->id, sizeof j->id, "%016llx", (unsigned long long)sweep_fnv1a(j->desc));
		int excluded = 0;
		for (int x = 0; x < p->nexcl; x++)
			if (filter_match(&p->excl[x], j, cfg)) {
				p->excl[x].hits++;
				excluded = 1;
			}
		if (!excluded && r == WS_SUCCESS) {
			e[0] = '\0';
			r = wsConfigCheck(cfg, e, sizeof e);
		}
		if (!excluded && r != WS_SUCCESS) {
			wsConfigDestroy(cfg);
			perr(p, 0, "job %s: invalid configuration: %s", j->desc, e[0] ? e : wsGetErrorString(r));
			goto out;
		}
		if (!excluded && p->base_line && filter_match(&p->base, j, cfg))
			p->base.hits++;
		sweep_fmt(j->config_hash, sizeof j->config_hash, "%016llx", (unsigned long long)wsConfigHash(cfg));
		wsConfigDestroy(cfg);
		if (excluded) {
			sweep_job_clear(j);
			s->njobs--;
		}
	}
	for (int x = 0; x < p->nexcl; x++)
		if (!p->excl[x].hits) {
			perr(p, p->excl[x].line, "exclude matches no job");
			goto out;
		}
	if (p->base_line && !p->base.hits) {
		perr(p, p->base_line, "baseline matches no job");
		goto out;
	}
	if (s->njobs == 0) {
		perr(p, 0, "every job is excluded");
		goto out;
	}
	/* ids must be unique (FNV-1a collisions of distinct descriptions are astronomically rare) */
	{
		struct sweep_job **sorted = malloc((size_t)s->njobs * sizeof *sorted);
		if (!sorted)
			goto out_oom;
		for (int a = 0; a < s->njobs; a++)
			sorted[a] = &s->jobs[a];
		qsort(sorted, (size_t)s->njobs, sizeof *sorted, cmp_job_id);
		for (int a = 1; a < s->njobs; a++)
			if (strcmp(sorted[a - 1]->id, sorted[a]->id) == 0) {
				perr(p, 0, "jobs '%s' and '%s' have the same id %s", sorted[a - 1]->desc, sorted[a]->desc,
				     sorted[a]->id);
				free(sorted);
				goto out;
			}
		free(sorted);
	}
	rc = 0;
	goto out;
out_oom:
	oom(p, 0);
out:
	free(cfgnames);
	free(psched);
	free(pfetch);
	wsConfigDestroy(defcfg);
	return rc;
}

static void parser_free(struct parser *p)
{
	free(p->name);
	sweep_free_strv(p->benches, p->nbench);
	sweep_free_strv(p->sizes, p->nsize);
	for (int i = 0; i < p->ncfg; i++) {
		free(p->cfgs[i].written);
		free(p->cfgs[i].abs);
		wsConfigDestroy(p->cfgs[i].cfg);
	}
	free(p->cfgs);
	sweep_free_strv(p->scheds, p->nsched);
	sweep_free_strv(p->fetches, p->nfetch);
	for (int i = 0; i < p->npol; i++) {
		free(p->pols[i].sched);
		free(p->pols[i].fetch);
	}
	free(p->pols);
	for (int i = 0; i < p->nfixed; i++) {
		free(p->fixed[i].key);
		free(p->fixed[i].value);
	}
	free(p->fixed);
	free(p->fixed_lines);
	for (int i = 0; i < p->nsets; i++) {
		free(p->sets[i].key);
		sweep_free_strv(p->sets[i].vals, p->sets[i].n);
	}
	free(p->sets);
	for (int i = 0; i <= p->nexcl; i++) {
		struct sweep_filter *f = i < p->nexcl ? &p->excl[i] : &p->base;
		if (f->kv)
			for (int k = 0; k < f->n; k++) {
				free(f->kv[k].key);
				free(f->kv[k].value);
			}
		free(f->kv);
	}
	free(p->excl);
	sweep_free_strv(p->stats, p->nstats);
	sweep_free_strv(p->statnames, p->nstatnames);
	wsConfigDestroy(p->scratch);
}

void sweep_spec_free(struct sweep_spec *s)
{
	if (!s)
		return;
	for (int i = 0; i < s->njobs; i++)
		sweep_job_clear(&s->jobs[i]);
	free(s->jobs);
	sweep_free_strv(s->params, s->nparams);
	free(s->path);
	free(s->name);
	free(s->text);
	free(s->stats);
	free(s->baseline);
	free(s->metric);
	free(s);
}

#define SPEC_MAX_TOKENS 4096

struct sweep_spec *sweep_spec_load(const char *path, char *err, size_t errsz)
{
	struct stat st;
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode)) {
		sweep_fmt(err, errsz, "%s: %s, not a sweep spec", path,
		          S_ISDIR(st.st_mode) ? "a directory" : "a device, socket or other special file");
		return NULL;
	}
	FILE *f = fopen(path, "rb");
	if (!f) {
		sweep_fmt(err, errsz, "%s: cannot read: %s", path, strerror(errno));
		return NULL;
	}
	/* bounded read: a spec is a few lines */
	struct sweep_buf b = {0};
	char chunk[65536];
	size_t got;
	while (b.n <= SWEEP_SPEC_MAX_BYTES && (got = fread(chunk, 1, sizeof chunk, f)) > 0)
		sweep_buf_add(&b, chunk, got);
	int bad = ferror(f);
	fclose(f);
	if (bad || b.oom || b.n > SWEEP_SPEC_MAX_BYTES) {
		if (b.n > SWEEP_SPEC_MAX_BYTES)
			sweep_fmt(err, errsz, "%s: larger than %d bytes; not a sweep spec", path, SWEEP_SPEC_MAX_BYTES);
		else
			sweep_fmt(err, errsz, "%s: cannot read: %s", path, bad ? "read error" : "out of memory");
		sweep_buf_free(&b);
		return NULL;
	}
	struct sweep_spec *s = sweep_spec_parse(b.s ? b.s : "", b.n, path, err, errsz);
	sweep_buf_free(&b);
	return s;
}

struct sweep_spec *sweep_spec_parse(const char *text, size_t len, const char *path, char *err, size_t errsz)
{
	struct parser p;
	memset(&p, 0, sizeof p);
	p.path = path;
	p.err = err;
	p.errsz = errsz;
	struct sweep_spec *s = calloc(1, sizeof *s);
	char **tok = calloc(SPEC_MAX_TOKENS, sizeof *tok);
	char *line = NULL;
	int nlines = 0; /* lines with words */
	if (!s || !tok) {
		perr(&p, 0, "out of memory");
		goto fail;
	}
	s->text = malloc(len + 1);
	if (!s->text) {
		perr(&p, 0, "out of memory");
		goto fail;
	}
	memcpy(s->text, text, len);
	s->text[len] = '\0';
	if (strlen(s->text) != len) {
		perr(&p, 0, "not a text file (contains a NUL byte)");
		goto fail;
	}
	p.scratch = wsConfigCreate();
	p.nstatnames = sweep_stat_names(&p.statnames);
	if (!p.scratch || p.nstatnames < 0) {
		p.nstatnames = 0;
		perr(&p, 0, "cannot create a simulator to validate the spec against");
		goto fail;
	}
	line = malloc(len + 1);
	if (!line) {
		perr(&p, 0, "out of memory");
		goto fail;
	}
	const char *c = s->text;
	for (int ln = 1; *c; ln++) {
		const char *e = strchr(c, '\n');
		size_t n = e ? (size_t)(e - c) : strlen(c);
		memcpy(line, c, n);
		line[n] = '\0';
		c = e ? e + 1 : c + n;
		char *hash = strchr(line, '#');
		if (hash)
			*hash = '\0';
		int ntok = 0;
		char *save = NULL;
		for (char *t = strtok_r(line, " \t\r\v\f", &save); t; t = strtok_r(NULL, " \t\r\v\f", &save)) {
			if (ntok == SPEC_MAX_TOKENS) {
				perr(&p, ln, "more than %d words on one line", SPEC_MAX_TOKENS - 1);
				goto fail;
			}
			tok[ntok++] = t;
		}
		if (ntok == 0)
			continue;
		nlines++;
		for (int i = 0; i < ntok; i++)
			for (const char *q = tok[i]; *q; q++)
				if ((unsigned char)*q < 0x20 || *q == 0x7f) {
					perr(&p, ln, "control character in '%s'", tok[0]);
					goto fail;
				}
		if (parse_line(&p, ln, tok, ntok))
			goto fail;
	}
	if (!nlines) {
		perr(&p, 0, "%s: not a sweep spec (see docs/sweeps.md for its 'keyword value...' lines)",
		     len ? "no keyword lines" : "empty file");
		goto fail;
	}
	if (!p.nbench) {
		perr(&p, 0, "no 'bench' line: which benchmarks should the sweep run?");
		goto fail;
	}
	for (int i = 0; i < p.nexcl; i++)
		if (check_filter(&p, &p.excl[i], 1))
			goto fail;
	if (p.base_line && check_filter(&p, &p.base, 0))
		goto fail;
	s->path = sweep_strdup(path);
	if (p.name) {
		s->name = sweep_strdup(p.name);
	} else {
		const char *b = strrchr(path, '/');
		b = b ? b + 1 : path;
		size_t bl = strlen(b);
		if (bl > 5 && strcmp(b + bl - 5, ".spec") == 0)
			bl -= 5;
		s->name = malloc(bl + 1);
		if (s->name) {
			for (size_t i = 0; i < bl; i++)
				s->name[i] = isalnum((unsigned char)b[i]) || b[i] == '-' || b[i] == '.' ? b[i] : '_';
			s->name[bl] = '\0';
		}
	}
	s->timeout = p.timeout;
	s->metric = sweep_strdup(p.metric ? p.metric : "cycles");
	struct sweep_buf sb = {0}, bb = {0};
	if (p.nstats)
		for (int i = 0; i < p.nstats; i++)
			sweep_buf_printf(&sb, "%s%s", i ? " " : "", p.stats[i]);
	else
		sweep_buf_printf(&sb, "%s", SWEEP_DEFAULT_STATS);
	sweep_buf_add(&bb, "", 0);
	for (int i = 0; i < p.base.n; i++)
		sweep_buf_printf(&bb, "%s%s=%s", i ? " " : "", p.base.kv[i].key, p.base.kv[i].value);
	s->stats = sb.s;
	s->baseline = bb.s;
	for (int i = 0; i < p.nfixed; i++)
		if (sweep_strv_push(&s->params, &s->nparams, p.fixed[i].key))
			sb.oom = 1;
	for (int i = 0; i < p.nsets; i++)
		if (sweep_strv_push(&s->params, &s->nparams, p.sets[i].key))
			sb.oom = 1;
	if (!s->path || !s->name || !s->metric || sb.oom || bb.oom) {
		perr(&p, 0, "out of memory");
		goto fail;
	}
	if (expand(&p, s))
		goto fail;
	parser_free(&p);
	free(tok);
	free(line);
	return s;
fail:
	parser_free(&p);
	free(tok);
	free(line);
	sweep_spec_free(s);
	return NULL;
}

