/*
 * cmd_collect.c -- `warpsim collect DIR`: one tidy CSV row per job of a
 * sweep (job id, status, benchmark, size, config file, policies, every
 * parameter of the spec, then the chosen statistics), and the loader of a
 * sweep directory's results that `warpsim report` shares.
 *
 * Models no hardware.  Values are copied exactly as the simulator wrote
 * them in each job's JSON, so equal runs give byte-identical CSVs whatever
 * machine ran them.  Fields are quoted per RFC 4180 when needed.
 */
#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "sweep_spec.h"

static const char *const base_cols[] = {"bench", "size", "config", "sched", "fetch"};
#define NBASE 5

static int add_col(struct sweep_table *t, const char *name)
{
	if (sweep_table_col(t, name) >= 0)
		return 0;
	char **nc = realloc(t->cols, (size_t)(t->ncols + 1) * sizeof *nc);
	if (!nc)
		return -1;
	t->cols = nc;
	nc[t->ncols] = sweep_strdup(name);
	if (!nc[t->ncols])
		return -1;
	t->ncols++;
	return 0;
}

int sweep_table_col(const struct sweep_table *t, const char *name)
{
	for (int i = 0; i < t->ncols; i++)
		if (strcmp(t->cols[i], name) == 0)
			return i;
	return -1;
}

void sweep_table_free(struct sweep_table *t)
{
	for (int i = 0; i < t->nrows; i++) {
		struct sweep_row *r = &t->rows[i];
		free(r->desc);
		if (r->cols)
			for (int c = 0; c < t->ncols; c++)
				free(r->cols[c]);
		free(r->cols);
		json_free(r->result);
	}
	free(t->rows);
	sweep_free_strv(t->cols, t->ncols);
	free(t->name);
	memset(t, 0, sizeof *t);
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Job ids of DIR: jobs.txt (expansion order), else every jobs/ID.{job,json} sorted by id. */
static int list_ids(const char *dir, char ***ids, char ***descs, int *n, char *err, size_t errsz)
{
	*ids = *descs = NULL;
	*n = 0;
	char path[PATH_MAX + 32];
	sweep_fmt(path, sizeof path, "%s/jobs.txt", dir);
	char *text = sweep_read_file(path, NULL);
	if (text) {
		char *save = NULL;
		for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
			char *tab = strchr(l, '\t');
			if (tab)
				*tab = '\0';
			if (!sweep_id_valid(l))
				continue;
			char **ni = realloc(*ids, (size_t)(*n + 1) * sizeof *ni);
			char **nd = ni ? realloc(*descs, (size_t)(*n + 1) * sizeof *nd) : NULL;
			if (ni)
				*ids = ni;
			if (nd)
				*descs = nd;
			if (!ni || !nd)
				break;
			ni[*n] = sweep_strdup(l);
			nd[*n] = sweep_strdup(tab ? tab + 1 : "");
			(*n)++;
		}
		free(text);
		return 0;
	}
	sweep_fmt(path, sizeof path, "%s/jobs", dir);
	DIR *d = opendir(path);
	if (!d) {
		sweep_fmt(err, errsz, "%s: not a sweep directory (no jobs.txt, cannot open %s: %s)", dir, path,
		         strerror(errno));
		return -1;
	}
	struct dirent *e;
	while ((e = readdir(d))) {
		size_t l = strlen(e->d_name);
		if (l < 18 || e->d_name[16] != '.')
			continue;
		if (strcmp(e->d_name + 16, ".job") && strcmp(e->d_name + 16, ".json"))
			continue;
		char id[17];
		memcpy(id, e->d_name, 16);
		id[16] = '\0';
		if (!sweep_id_valid(id))
			continue;
		int dup = 0;
		for (int i = 0; i < *n && !dup; i++)
			dup = strcmp((*ids)[i], id) == 0;
		if (dup)
			continue;
		char **ni = realloc(*ids, (size_t)(*n + 1) * sizeof *ni);
		if (!ni)
			break;
		*ids = ni;
		ni[(*n)++] = sweep_strdup(id);
	}
	closedir(d);
	qsort(*ids, (size_t)*n, sizeof **ids, cmp_str);
	*descs = calloc((size_t)*n + 1, sizeof **descs);
	for (int i = 0; *descs && i < *n; i++)
		(*descs)[i] = sweep_strdup("");
	return 0;
}

static const char *jstr(const struct json *o, const char *k)
{
	const char *v = json_get_str(o, k);
	return v ? v : "";
}

int sweep_table_load(const char *dir, struct sweep_table *t, char *err, size_t errsz)
{
	memset(t, 0, sizeof *t);
	char **ids = NULL, **descs = NULL;
	int n = 0;
	if (list_ids(dir, &ids, &descs, &n, err, errsz))
		return -1;
	int rc = -1, *rowcap = NULL;
	t->name = sweep_info_get(dir, "name");
	if (!t->name) {
		const char *b = strrchr(dir, '/');
		t->name = sweep_strdup(b && b[1] ? b + 1 : dir);
	}
	for (int i = 0; i < NBASE; i++)
		if (add_col(t, base_cols[i]))
			goto oom;
	t->nbase = NBASE;
	char *params = sweep_info_get(dir, "params");
	if (params) {
		char *save = NULL;
		for (char *p = strtok_r(params, " ", &save); p; p = strtok_r(NULL, " ", &save))
			if (add_col(t, p)) {
				free(params);
				goto oom;
			}
		free(params);
	}
	t->rows = calloc((size_t)n + 1, sizeof *t->rows);
	rowcap = calloc((size_t)n + 1, sizeof *rowcap);
	if (!t->rows || !descs || !rowcap)
		goto oom;
	for (int i = 0; i < n; i++) {
		if (!ids[i] || !descs[i])
			goto oom;
		struct sweep_row *r = &t->rows[t->nrows];
		sweep_fmt(r->id, sizeof r->id, "%s", ids[i]);
		r->status = sweep_job_status(dir, ids[i]);
		/* (name, value) pairs of this job's columns */
		struct sweep_kv kv[NBASE + 256];
		int nkv = 0;
		struct sweep_job j;
		memset(&j, 0, sizeof j);
		int have_job = 0;
		if (r->status == SWEEP_DONE) {
			/* a malformed or tampered result is reported and skipped, not copied
			 * into the table, and the other jobs are still collected */
			char why[PATH_MAX + 400];
			r->result = sweep_result_read(dir, ids[i], why, sizeof why);
			if (!r->result) {
				fflush(stdout);
				fprintf(stderr, "warpsim: warning: %s; skipped (its row has no statistics)\n", why);
				r->status = SWEEP_INVALID;
				t->ninvalid++;
			}
		}
		if (r->status == SWEEP_DONE) {
			const struct json *job = json_get(r->result, "job");
			for (int c = 0; c < NBASE; c++)
				kv[nkv++] = (struct sweep_kv){(char *)base_cols[c], (char *)jstr(job, base_cols[c])};
			const struct json *ps = json_get(job, "params");
			for (int p = 0; ps && ps->type == JSON_OBJECT && p < ps->n && nkv < NBASE + 256; p++)
				if (ps->items[p].type == JSON_STRING)
					kv[nkv++] = (struct sweep_kv){ps->keys[p], ps->items[p].str};
			r->desc = sweep_strdup(json_get_str(job, "desc") ? json_get_str(job, "desc") : descs[i]);
		} else {
			if (sweep_job_read(dir, ids[i], &j, err, errsz)) {
				/* a sweep stopped while writing its job files (a full disk) leaves
				 * jobs without a descriptor: a row with only its id, description
				 * and status, not the end of the table */
				fflush(stdout);
				fprintf(stderr, "warpsim: warning: %s (job %s has no result: its row has no columns)\n", err,
				        ids[i]);
				err[0] = '\0';
				r->desc = sweep_strdup(descs[i]);
			} else {
				have_job = 1;
				const char *vals[NBASE] = {j.bench, j.size, j.config, j.sched, j.fetch};
				for (int c = 0; c < NBASE; c++)
					kv[nkv++] = (struct sweep_kv){(char *)base_cols[c], (char *)vals[c]};
				for (int p = 0; p < j.nparams && nkv < NBASE + 256; p++)
					kv[nkv++] = j.params[p];
				r->desc = sweep_strdup(j.desc);
			}
		}
		for (int k = 0; k < nkv; k++)
			if (add_col(t, kv[k].key)) {
				t->nrows++; /* so that its result and description are freed */
				rowcap[t->nrows - 1] = 0;
				goto oom_job;
			}
		/* columns only grow: the row has the columns known so far, widened below */
		r->cols = calloc((size_t)t->ncols, sizeof *r->cols);
		rowcap[t->nrows] = r->cols ? t->ncols : 0;
		t->nrows++;
		if (!r->cols || !r->desc)
			goto oom_job;
		for (int k = 0; k < nkv; k++) {
			int c = sweep_table_col(t, kv[k].key);
			free(r->cols[c]);
			r->cols[c] = sweep_strdup(kv[k].value);
		}
		if (have_job)
			sweep_job_clear(&j);
		continue;
	oom_job:
		if (have_job)
			sweep_job_clear(&j);
		goto oom;
	}
	/* every row gets every column ("" where absent) */
	for (int i = 0; i < t->nrows; i++) {
		char **nc = realloc(t->rows[i].cols, (size_t)t->ncols * sizeof *nc);
		if (!nc)
			goto oom;
		t->rows[i].cols = nc;
		for (int c = rowcap[i]; c < t->ncols; c++)
			nc[c] = NULL;
		rowcap[i] = t->ncols;
	}
	for (int i = 0; i < t->nrows; i++)
		for (int c = 0; c < t->ncols; c++)
			if (!t->rows[i].cols[c] && !(t->rows[i].cols[c] = sweep_strdup("")))
				goto oom;
	rc = 0;
	goto out;
oom:
	sweep_fmt(err, errsz, "out of memory");
	/* rows not yet widened own only their first rowcap[i] columns */
	for (int i = 0; i < t->nrows; i++) {
		if (t->rows[i].cols)
			for (int c = 0; c < (rowcap ? rowcap[i] : 0); c++)
				free(t->rows[i].cols[c]);
		free(t->rows[i].cols);
		t->rows[i].cols = NULL;
	}
	sweep_table_free(t);
out:
	free(rowcap);
	sweep_free_strv(ids, n);
	sweep_free_strv(descs, descs ? n : 0);
	return rc;
}

const struct json *sweep_row_stat(const struct sweep_row *r, const char *name)
{
	if (!r->result)
		return NULL;
	const struct json *v = json_get(json_get(r->result, "stats"), name);
	if (!v)
		v = json_get(json_get(r->result, "derived"), name);
	return v;
}

/* ---- CSV ---- */

static void csv_field(struct sweep_buf *b, const char *s)
{
	size_t l = strlen(s);
	int q = l && (s[0] == ' ' || s[l - 1] == ' ');
	for (const char *c = s; *c && !q; c++)
		q = *c == ',' || *c == '"' || *c == '\n' || *c == '\r';
	if (!q) {
		sweep_buf_add(b, s, l);
		return;
	}
	sweep_buf_add(b, "\"", 1);
	for (const char *c = s; *c; c++) {
		if (*c == '"')
			sweep_buf_add(b, "\"", 1);
		sweep_buf_add(b, c, 1);
	}
	sweep_buf_add(b, "\"", 1);
}

static const char *status_name(enum sweep_status s)
{
	return s == SWEEP_DONE ? "ok" : s == SWEEP_FAILED ? "failed" : s == SWEEP_INVALID ? "invalid" : "pending";
}

int cli_cmd_collect(const struct cli_args *a)
{
	const struct cli_cmd *cmd = a->cmd;
	const char *dir = a->pos[0];
	char err[1200];
	struct sweep_table t;
	if (sweep_table_load(dir, &t, err, sizeof err))
		return cli_fail(cmd, "%s", err);
	/* statistic patterns: --stats, else the spec's, else the default set */
	char *pats = NULL;
	const char *opt = cli_opt_get(a, "stats");
	pats = opt ? sweep_strdup(opt) : sweep_info_get(dir, "stats");
	if (!pats || !pats[0]) {
		free(pats);
		pats = sweep_strdup(SWEEP_DEFAULT_STATS);
	}
	/* every statistic name, in the order the simulator writes them */
	char **names = NULL;
	int nnames = 0;
	for (int i = 0; i < t.nrows; i++) { /* every row: policy counters are only in some */
		if (!t.rows[i].result)
			continue;
		static const char *const groups[] = {"stats", "derived"};
		for (int g = 0; g < 2; g++) {
			const struct json *o = json_get(t.rows[i].result, groups[g]);
			for (int k = 0; o && o->type == JSON_OBJECT && k < o->n; k++) {
				int seen = 0;
				for (int m = 0; m < nnames && !seen; m++)
					seen = strcmp(names[m], o->keys[k]) == 0;
				if (seen)
					continue;
				char **nn = realloc(names, (size_t)(nnames + 1) * sizeof *nn);
				if (!nn)
					break;
				names = nn;
				names[nnames] = sweep_strdup(o->keys[k]);
				if (names[nnames])
					nnames++;
			}
		}
	}
	if (!nnames)
		nnames = sweep_stat_names(&names);
	if (!pats || nnames < 0) {
		free(pats);
		sweep_table_free(&t);
		return cli_fail(cmd, "out of memory");
	}
	char **sel = calloc((size_t)nnames + 1, sizeof *sel);
	int nsel = 0, rc = CLI_EXIT_OK;
	char *save = NULL;
	for (char *p = sel ? strtok_r(pats, ", \t", &save) : NULL; p; p = strtok_r(NULL, ", \t", &save)) {
		int hit = 0;
		for (int k = 0; k < nnames; k++) {
			if (fnmatch(p, names[k], 0) != 0)
				continue;
			hit = 1;
			int dup = 0;
			for (int s = 0; s < nsel && !dup; s++)
				dup = strcmp(sel[s], names[k]) == 0;
			if (!dup)
				sel[nsel++] = names[k];
		}
		if (!hit) {
			rc = cli_usage_error(cmd, "statistic '%s' matches no counter or derived metric", p);
			break;
		}
	}
	struct sweep_buf b = {0};
	if (rc == CLI_EXIT_OK && sel) {
		sweep_buf_printf(&b, "job_id,status");
		for (int c = 0; c < t.ncols; c++) {
			sweep_buf_add(&b, ",", 1);
			csv_field(&b, t.cols[c]);
		}
		for (int s = 0; s < nsel; s++) {
			sweep_buf_add(&b, ",", 1);
			csv_field(&b, sel[s]);
		}
		sweep_buf_add(&b, "\n", 1);
		int bad = 0;
		for (int i = 0; i < t.nrows; i++) {
			const struct sweep_row *r = &t.rows[i];
			bad += r->status != SWEEP_DONE;
			sweep_buf_printf(&b, "%s,%s", r->id, status_name(r->status));
			for (int c = 0; c < t.ncols; c++) {
				sweep_buf_add(&b, ",", 1);
				csv_field(&b, r->cols[c]);
			}
			for (int s = 0; s < nsel; s++) {
				sweep_buf_add(&b, ",", 1);
				const struct json *v = sweep_row_stat(r, sel[s]);
				if (v && (v->type == JSON_NUMBER || v->type == JSON_STRING))
					csv_field(&b, v->str);
				else if (v && v->type == JSON_BOOL)
					csv_field(&b, v->num ? "true" : "false");
			}
			sweep_buf_add(&b, "\n", 1);
		}
		const char *outp = cli_opt_get(a, "output");
		if (b.oom) {
			rc = cli_fail(cmd, "out of memory");
		} else if (outp && strcmp(outp, "-") != 0) {
			if (sweep_write_file_atomic(outp, b.s, b.n) != 0)
				rc = cli_fail(cmd, "%s: cannot write: %s", outp, strerror(errno));
		} else {
			fwrite(b.s, 1, b.n, stdout);
		}
		if (rc == CLI_EXIT_OK) {
			const char *first = NULL;
			int mixed = 0;
			for (int i = 0; i < t.nrows && !mixed; i++) {
				const char *bin = json_get_str(json_get(t.rows[i].result, "job"), "binary");
				if (!bin || !bin[0])
					continue;
				if (!first)
					first = bin;
				else
					mixed = strcmp(first, bin) != 0;
			}
			if (mixed) {
				fflush(stdout);
				fprintf(stderr, "warpsim collect: warning: the results come from different warpsim binaries "
				                "(\"binary\" in the jobs' JSON): they may not be comparable\n");
			}
		}
		if (rc == CLI_EXIT_OK && bad > t.ninvalid) {
			fflush(stdout);
			fprintf(stderr, "warpsim collect: note: %d of %d jobs have no result (status failed or pending); "
			                "their statistics are empty\n",
			        bad - t.ninvalid, t.nrows);
		}
		if (rc == CLI_EXIT_OK && t.ninvalid)
			rc = cli_fail(cmd, "%d of %d result files are not valid (see the warnings above): their rows have "
			                   "status invalid and no statistics; `warpsim sweep` runs those jobs again",
			              t.ninvalid, t.nrows);
	} else if (!sel) {
		rc = cli_fail(cmd, "out of memory");
	}
	sweep_buf_free(&b);
	free(sel);
	sweep_free_strv(names, nnames);
	free(pats);
	sweep_table_free(&t);
	return rc;
}
