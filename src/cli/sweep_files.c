/*
 * sweep_files.c -- the files of a sweep's output directory (sweep.info,
 * jobs.txt, jobs/ID.job, a job's status from its .json/.failed files), the
 * names of the statistics a run writes, and the small string, buffer and
 * file helpers the sweep files share.
 *
 * Models no hardware.  The layout is documented in sweep_spec.h and
 * docs/sweeps.md; the spec parser is sweep_spec.c.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "sweep_spec.h"

/* ---- small helpers ---- */

uint64_t sweep_fnv1a_add(uint64_t h, const void *data, size_t n)
{
	const unsigned char *p = data;
	for (size_t i = 0; i < n; i++) {
		h ^= p[i];
		h *= 0x100000001b3ull;
	}
	return h;
}

uint64_t sweep_fnv1a(const char *s) { return sweep_fnv1a_add(SWEEP_FNV1A_INIT, s, strlen(s)); }

void sweep_fmt(char *buf, size_t sz, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sz, fmt, ap);
	va_end(ap);
}

char *sweep_strdup(const char *s)
{
	if (!s)
		return NULL;
	size_t n = strlen(s) + 1;
	char *d = malloc(n);
	if (d)
		memcpy(d, s, n);
	return d;
}

void sweep_buf_add(struct sweep_buf *b, const char *s, size_t len)
{
	if (b->oom)
		return;
	if (b->n + len + 1 > b->cap) {
		size_t nc = b->cap ? b->cap : 256;
		while (nc < b->n + len + 1)
			nc *= 2;
		char *ns = realloc(b->s, nc);
		if (!ns) {
			b->oom = 1;
			return;
		}
		b->s = ns;
		b->cap = nc;
	}
	memcpy(b->s + b->n, s, len);
	b->n += len;
	b->s[b->n] = '\0';
}

void sweep_buf_printf(struct sweep_buf *b, const char *fmt, ...)
{
	char small[512];
	va_list ap;
	va_start(ap, fmt);
	int k = vsnprintf(small, sizeof small, fmt, ap);
	va_end(ap);
	if (k < 0) {
		b->oom = 1;
		return;
	}
	if ((size_t)k < sizeof small) {
		sweep_buf_add(b, small, (size_t)k);
		return;
	}
	char *big = malloc((size_t)k + 1);
	if (!big) {
		b->oom = 1;
		return;
	}
	va_start(ap, fmt);
	vsnprintf(big, (size_t)k + 1, fmt, ap);
	va_end(ap);
	sweep_buf_add(b, big, (size_t)k);
	free(big);
}

void sweep_buf_free(struct sweep_buf *b)
{
	free(b->s);
	memset(b, 0, sizeof *b);
}

char *sweep_read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	struct sweep_buf b = {0};
	char chunk[65536];
	size_t got;
	while ((got = fread(chunk, 1, sizeof chunk, f)) > 0)
		sweep_buf_add(&b, chunk, got);
	int bad = ferror(f);
	fclose(f);
	if (!b.oom && !b.s)
		sweep_buf_add(&b, "", 0);
	if (bad || b.oom) {
		sweep_buf_free(&b);
		if (!bad)
			errno = ENOMEM;
		return NULL;
	}
	if (len)
		*len = b.n;
	return b.s;
}

int sweep_write_file_atomic(const char *path, const char *data, size_t len)
{
	struct cli_out o;
	char err[64]; /* the caller reports errno */
	if (cli_out_open(&o, path, err, sizeof err) != 0)
		return -1;
	if (len && fwrite(data, 1, len, o.f) != len) {
		if (!errno)
			errno = EIO;
		cli_out_abort(&o); /* keeps errno */
		return -1;
	}
	return cli_out_commit(&o, err, sizeof err);
}

int sweep_mkdirs(const char *path)
{
	size_t n = strlen(path);
	char *p = malloc(n + 1);
	if (!p) {
		errno = ENOMEM;
		return -1;
	}
	memcpy(p, path, n + 1);
	for (size_t i = 1; i <= n; i++) {
		if (p[i] != '/' && p[i] != '\0')
			continue;
		char c = p[i];
		p[i] = '\0';
		if (mkdir(p, 0777) != 0 && errno != EEXIST) {
			free(p);
			return -1;
		}
		p[i] = c;
	}
	struct stat st;
	int rc = stat(path, &st) == 0 && S_ISDIR(st.st_mode) ? 0 : -1;
	if (rc)
		errno = ENOTDIR;
	free(p);
	return rc;
}

void sweep_free_strv(char **v, int n)
{
	if (!v)
		return;
	for (int i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

int sweep_strv_push(char ***v, int *n, const char *s)
{
	char **nv = realloc(*v, (size_t)(*n + 1) * sizeof *nv);
	if (!nv)
		return -1;
	*v = nv;
	nv[*n] = sweep_strdup(s);
	if (!nv[*n])
		return -1;
	(*n)++;
	return 0;
}

int sweep_strv_find(char **v, int n, const char *s)
{
	for (int i = 0; i < n; i++)
		if (strcmp(v[i], s) == 0)
			return i;
	return -1;
}

int sweep_id_valid(const char *s)
{
	if (!s || strlen(s) != 16)
		return 0;
	for (int i = 0; i < 16; i++)
		if (!isdigit((unsigned char)s[i]) && !(s[i] >= 'a' && s[i] <= 'f'))
			return 0;
	return 1;
}

int sweep_stat_names(char ***names)
{
	*names = NULL;
	ws_config *cfg = wsConfigCreate();
	ws_sim *sim = NULL;
	if (!cfg || wsSimCreate(&sim, cfg) != WS_SUCCESS) {
		wsConfigDestroy(cfg);
		if (sim)
			wsSimDestroy(sim);
		return -1;
	}
	wsConfigDestroy(cfg);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f) {
		wsSimDestroy(sim);
		return -1;
	}
	wsStatsWriteJSON(sim, f);
	fclose(f);
	wsSimDestroy(sim);
	char err[256];
	struct json *j = json_parse(buf, len, err, sizeof err);
	free(buf);
	if (!j)
		return -1;
	int n = 0;
	static const char *const groups[] = {"stats", "derived"};
	for (int g = 0; g < 2; g++) {
		const struct json *o = json_get(j, groups[g]);
		if (!o || o->type != JSON_OBJECT)
			continue;
		for (int i = 0; i < o->n; i++)
			if (sweep_strv_find(*names, n, o->keys[i]) < 0 && sweep_strv_push(names, &n, o->keys[i])) {
				json_free(j);
				sweep_free_strv(*names, n);
				*names = NULL;
				return -1;
			}
	}
	json_free(j);
	/* counters that only runs of some scheduling policies have */
	char pc[128];
	for (int w = 0; w < 2; w++)
		for (int i = 0; w ? wsSchedWrapperName(i) : wsSchedPolicyName(i); i++)
			for (int k = 0; w ? wsSchedWrapperCounterName(i, k, pc, sizeof pc)
					  : wsSchedPolicyCounterName(i, k, pc, sizeof pc);
			     k++)
				if (sweep_strv_find(*names, n, pc) < 0 && sweep_strv_push(names, &n, pc)) {
					sweep_free_strv(*names, n);
					*names = NULL;
					return -1;
				}
	return n;
}

/* ---- job paths and status ---- */

void sweep_job_path(char *buf, size_t bufsz, const char *dir, const char *id, const char *ext)
{
	sweep_fmt(buf, bufsz, "%s/jobs/%s.%s", dir, id, ext);
}

enum sweep_status sweep_job_status(const char *dir, const char *id)
{
	char p[PATH_MAX + 64];
	struct stat st;
	sweep_job_path(p, sizeof p, dir, id, "json");
	if (stat(p, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0)
		return SWEEP_DONE;
	sweep_job_path(p, sizeof p, dir, id, "failed");
	if (stat(p, &st) == 0)
		return SWEEP_FAILED;
	return SWEEP_PENDING;
}

/* Is s free of control characters (a newline, a tab, an escape)? */
static int printable(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return 0;
	return 1;
}

struct json *sweep_result_read(const char *dir, const char *id, char *why, size_t whysz)
{
	char path[PATH_MAX + 64], err[400];
	sweep_job_path(path, sizeof path, dir, id, "json");
	struct json *r = json_parse_file(path, err, sizeof err);
	if (!r) {
		sweep_fmt(why, whysz, "%s", err);
		return NULL;
	}
	const char *bad = NULL;
	char detail[200] = "";
	const struct json *job = json_get(r, "job"), *stats = json_get(r, "stats"), *derived = json_get(r, "derived");
	if (r->type != JSON_OBJECT || !job || job->type != JSON_OBJECT)
		bad = "no \"job\" object (not written by warpsim sweep?)";
	else if (!json_get_str(job, "id") || strcmp(json_get_str(job, "id"), id) != 0)
		bad = "its \"job\" object names another job id";
	else if (!json_get_str(job, "bench") || !json_get_str(job, "bench")[0] || !json_get_str(job, "size") ||
	         !json_get_str(job, "size")[0])
		bad = "its \"job\" object has no bench or size";
	for (int k = 0; !bad && k < job->n; k++) {
		const struct json *v = &job->items[k];
		if (!printable(job->keys[k]) || (v->type == JSON_STRING && !printable(v->str)))
			sweep_fmt(detail, sizeof detail, "job field \"%.40s\" has a control character (a newline?)",
			          printable(job->keys[k]) ? job->keys[k] : "?");
		else if (!strcmp(job->keys[k], "params") && v->type == JSON_OBJECT) {
			for (int p = 0; p < v->n && !detail[0]; p++)
				if (v->items[p].type != JSON_STRING || !printable(v->keys[p]) || !printable(v->items[p].str))
					sweep_fmt(detail, sizeof detail,
					          "job parameter %d is not a string without control characters", p);
		} else if (v->type != JSON_STRING && strcmp(job->keys[k], "wall_seconds") &&
		           strcmp(job->keys[k], "params"))
			sweep_fmt(detail, sizeof detail, "job field \"%.40s\" is not a string", job->keys[k]);
		if (detail[0])
			bad = detail;
	}
	if (!bad && (!stats || stats->type != JSON_OBJECT || !json_get(stats, "cycles")))
		bad = "no \"stats\" object with \"cycles\"";
	for (int k = 0; !bad && k < stats->n; k++) {
		const struct json *v = &stats->items[k];
		if (v->type != JSON_NUMBER || !isfinite(v->num) || v->num < 0 || !printable(stats->keys[k])) {
			sweep_fmt(detail, sizeof detail, "statistic \"%.40s\" is %s, not a count",
			          printable(stats->keys[k]) ? stats->keys[k] : "?",
			          v->type != JSON_NUMBER ? "not a number" : v->num < 0 ? "negative" : "not finite");
			bad = detail;
		}
	}
	for (int k = 0; !bad && derived && derived->type == JSON_OBJECT && k < derived->n; k++) {
		const struct json *v = &derived->items[k];
		if ((v->type != JSON_NUMBER && v->type != JSON_NULL) || (v->type == JSON_NUMBER && !isfinite(v->num)) ||
		    !printable(derived->keys[k])) {
			sweep_fmt(detail, sizeof detail, "derived metric \"%.40s\" is not a number",
			          printable(derived->keys[k]) ? derived->keys[k] : "?");
			bad = detail;
		}
	}
	if (!bad && derived && derived->type != JSON_OBJECT)
		bad = "\"derived\" is not an object";
	if (bad) {
		sweep_fmt(why, whysz, "%s: %s", path, bad);
		json_free(r);
		return NULL;
	}
	return r;
}

void sweep_job_clear(struct sweep_job *j)
{
	free(j->sweep);
	free(j->desc);
	free(j->bench);
	free(j->size);
	free(j->config);
	free(j->config_path);
	free(j->sched);
	free(j->fetch);
	for (int i = 0; i < j->nparams; i++) {
		free(j->params[i].key);
		free(j->params[i].value);
	}
	free(j->params);
	memset(j, 0, sizeof *j);
}

int sweep_job_write(const char *dir, const struct sweep_job *j, char *err, size_t errsz)
{
	struct sweep_buf b = {0};
	sweep_buf_printf(&b,
	                 "# warpsim sweep job: written by `warpsim sweep`, read by `warpsim sweep-task` and\n"
	                 "# `warpsim collect` (see docs/sweeps.md)\n"
	                 "id=%s\nsweep=%s\ndesc=%s\nbench=%s\nsize=%s\nconfig=%s\nconfig_path=%s\n"
	                 "sched=%s\nfetch=%s\ntimeout=%g\n",
	                 j->id, j->sweep, j->desc, j->bench, j->size, j->config, j->config_path, j->sched, j->fetch,
	                 j->timeout);
	for (int i = 0; i < j->nparams; i++)
		sweep_buf_printf(&b, "set=%s=%s\n", j->params[i].key, j->params[i].value);
	char path[PATH_MAX + 64];
	sweep_job_path(path, sizeof path, dir, j->id, "job");
	/* unchanged descriptors are left alone (a running task may be reading it) */
	size_t oldlen;
	char *old = sweep_read_file(path, &oldlen);
	int same = old && !b.oom && oldlen == b.n && memcmp(old, b.s, b.n) == 0;
	free(old);
	int rc = 0;
	if (b.oom) {
		sweep_fmt(err, errsz, "out of memory");
		rc = -1;
	} else if (!same && sweep_write_file_atomic(path, b.s, b.n) != 0) {
		sweep_fmt(err, errsz, "%s: cannot write: %s", path, strerror(errno));
		rc = -1;
	}
	sweep_buf_free(&b);
	return rc;
}

int sweep_job_read(const char *dir, const char *id, struct sweep_job *j, char *err, size_t errsz)
{
	memset(j, 0, sizeof *j);
	char path[PATH_MAX + 64];
	sweep_job_path(path, sizeof path, dir, id, "job");
	char *text = sweep_read_file(path, NULL);
	if (!text) {
		sweep_fmt(err, errsz, "%s: cannot read: %s", path, strerror(errno));
		return -1;
	}
	int oom = 0;
	char *save = NULL;
	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (line[0] == '#')
			continue;
		char *eq = strchr(line, '=');
		if (!eq)
			continue;
		*eq = '\0';
		const char *k = line, *v = eq + 1;
		char **dst = NULL;
		if (strcmp(k, "id") == 0) {
			sweep_fmt(j->id, sizeof j->id, "%s", v);
		} else if (strcmp(k, "sweep") == 0) {
			dst = &j->sweep;
		} else if (strcmp(k, "desc") == 0) {
			dst = &j->desc;
		} else if (strcmp(k, "bench") == 0) {
			dst = &j->bench;
		} else if (strcmp(k, "size") == 0) {
			dst = &j->size;
		} else if (strcmp(k, "config") == 0) {
			dst = &j->config;
		} else if (strcmp(k, "config_path") == 0) {
			dst = &j->config_path;
		} else if (strcmp(k, "sched") == 0) {
			dst = &j->sched;
		} else if (strcmp(k, "fetch") == 0) {
			dst = &j->fetch;
		} else if (strcmp(k, "timeout") == 0) {
			j->timeout = strtod(v, NULL);
		} else if (strcmp(k, "set") == 0) {
			const char *e2 = strchr(v, '=');
			if (!e2)
				continue;
			struct sweep_kv *np = realloc(j->params, (size_t)(j->nparams + 1) * sizeof *np);
			if (!np) {
				oom = 1;
				break;
			}
			j->params = np;
			np[j->nparams].key = malloc((size_t)(e2 - v) + 1);
			np[j->nparams].value = sweep_strdup(e2 + 1);
			if (np[j->nparams].key) {
				memcpy(np[j->nparams].key, v, (size_t)(e2 - v));
				np[j->nparams].key[e2 - v] = '\0';
			}
			j->nparams++;
			if (!np[j->nparams - 1].key || !np[j->nparams - 1].value)
				oom = 1;
		}
		if (dst) {
			free(*dst);
			*dst = sweep_strdup(v);
			if (!*dst)
				oom = 1;
		}
	}
	free(text);
	/* absent fields read as "" */
	char **fields[] = {&j->sweep, &j->desc, &j->bench, &j->size, &j->config, &j->config_path, &j->sched, &j->fetch};
	for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
		if (!*fields[i] && !(*fields[i] = sweep_strdup("")))
			oom = 1;
	if (oom) {
		sweep_job_clear(j);
		sweep_fmt(err, errsz, "%s: out of memory", path);
		return -1;
	}
	if (strcmp(j->id, id) != 0 || !j->bench[0] || !j->size[0]) {
		sweep_job_clear(j);
		sweep_fmt(err, errsz, "%s: not a valid job descriptor (id, bench or size missing)", path);
		return -1;
	}
	return 0;
}

char *sweep_info_get(const char *dir, const char *key)
{
	char path[PATH_MAX + 32];
	sweep_fmt(path, sizeof path, "%s/sweep.info", dir);
	char *text = sweep_read_file(path, NULL);
	if (!text)
		return NULL;
	char *res = NULL, *save = NULL;
	size_t kl = strlen(key);
	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		if (strncmp(line, key, kl) == 0 && line[kl] == '=') {
			free(res);
			res = sweep_strdup(line + kl + 1);
		}
	free(text);
	return res;
}

int sweep_dir_write(const char *dir, const struct sweep_spec *s, char *err, size_t errsz)
{
	char path[PATH_MAX + 64];
	sweep_fmt(path, sizeof path, "%s/jobs", dir);
	if (sweep_mkdirs(path) != 0) {
		sweep_fmt(err, errsz, "%s: cannot create directory: %s", path, strerror(errno));
		return -1;
	}
	sweep_fmt(path, sizeof path, "%s/sweep.spec", dir);
	if (sweep_write_file_atomic(path, s->text, strlen(s->text)) != 0) {
		sweep_fmt(err, errsz, "%s: cannot write: %s", path, strerror(errno));
		return -1;
	}
	struct sweep_buf b = {0};
	sweep_buf_printf(&b,
	                 "# warpsim sweep: written by `warpsim sweep`, read by `warpsim collect` and `warpsim report`\n"
	                 "name=%s\nspec=%s\njobs=%d\nstats=%s\nbaseline=%s\nmetric=%s\nparams=",
	                 s->name, s->path, s->njobs, s->stats, s->baseline, s->metric);
	for (int i = 0; i < s->nparams; i++)
		sweep_buf_printf(&b, "%s%s", i ? " " : "", s->params[i]);
	sweep_buf_printf(&b, "\n");
	sweep_fmt(path, sizeof path, "%s/sweep.info", dir);
	int rc = b.oom || sweep_write_file_atomic(path, b.s, b.n) != 0 ? -1 : 0;
	sweep_buf_free(&b);
	if (rc) {
		sweep_fmt(err, errsz, "%s: cannot write: %s", path, strerror(errno));
		return -1;
	}
	for (int i = 0; i < s->njobs; i++)
		sweep_buf_printf(&b, "%s\t%s\n", s->jobs[i].id, s->jobs[i].desc);
	sweep_fmt(path, sizeof path, "%s/jobs.txt", dir);
	rc = b.oom || sweep_write_file_atomic(path, b.s ? b.s : "", b.n) != 0 ? -1 : 0;
	sweep_buf_free(&b);
	if (rc) {
		sweep_fmt(err, errsz, "%s: cannot write: %s", path, strerror(errno));
		return -1;
	}
	for (int i = 0; i < s->njobs; i++)
		if (sweep_job_write(dir, &s->jobs[i], err, errsz) != 0)
			return -1;
	return 0;
}

