/*
 * sweep_spec.h -- parameter sweeps of the `warpsim` tool: the sweep spec
 * file (parsing, validation against the simulator, expansion into jobs with
 * stable ids), the on-disk layout of a sweep's output directory, the job
 * runner shared by `warpsim sweep` and `warpsim sweep-task`, and the result
 * table that `warpsim collect` and `warpsim report` read.
 *
 * Models no hardware.  docs/sweeps.md documents the spec format and the
 * output layout:
 *
 *   DIR/sweep.spec        copy of the spec that was run last
 *   DIR/sweep.info        name, statistics, baseline, parameter columns (key=value lines)
 *   DIR/jobs.txt          every job of the last expansion: "ID<TAB>description", in order
 *   DIR/jobs/ID.job       the job: what to run (key=value lines), written before it runs
 *   DIR/jobs/ID.log       its standard output and error
 *   DIR/jobs/ID.json      its result: {"job": {...}, <wsStatsWriteJSON's members>} --
 *                         written under a temporary name and renamed, so a job is
 *                         done exactly when this file exists
 *   DIR/jobs/ID.failed    why it failed (exit status or signal, log path); removed on success
 *   DIR/slurm/            array scripts, their job lists and Slurm's task logs
 *
 * A job id is the FNV-1a 64-bit hash of the job's canonical description
 * ("bench=sp;size=tiny;sched=gto;ibuf_depth=4", keys in a fixed order:
 * bench, size, config, sched, fetch, then parameters sorted by name),
 * printed as 16 lowercase hex digits.
 */
#ifndef WARPSIM_CLI_SWEEP_SPEC_H
#define WARPSIM_CLI_SWEEP_SPEC_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "json.h"

#define SWEEP_MAX_JOBS 1000000
#define SWEEP_DEFAULT_STATS                                                                                    \
	"cycles warp_insts thread_insts ipc simd_efficiency issue_cycles stall_* barrier_stall_fraction "     \
	"exit_stall_fraction rtru_mean rtru_weighted l1d_hit_rate l2_hit_rate"

struct sweep_kv {
	char *key, *value;
};

/* One job: one benchmark run with one configuration. All strings owned. */
struct sweep_job {
	char id[17];
	char *sweep;       /* sweep name */
	char *desc;        /* canonical description (hashed into id) */
	char *bench, *size;
	char *config;      /* config file as written in the spec ("" if none) */
	char *config_path; /* absolute path of the config file ("" if none) */
	char *sched, *fetch;            /* effective policies */
	struct sweep_kv *params;        /* parameters set by the spec (not sched/fetch), sorted by key */
	int nparams;
	double timeout;                 /* seconds of wall-clock time, 0 = none */
	char config_hash[17];           /* the effective configuration's hash (wsConfigHash): a result */
	                                /* made with another (a config file edited since) is stale */
};

struct sweep_filter {
	struct sweep_kv *kv;
	int n, line, hits;
};

struct sweep_spec {
	char *path, *name;
	char *text;                 /* the spec file's contents */
	struct sweep_job *jobs;     /* in expansion order */
	int njobs;
	char **params;              /* parameter columns: `fixed` then `set` keys, in spec order */
	int nparams;
	char *stats;                /* statistic patterns, space-separated */
	char *baseline;             /* baseline selector "k=v k=v" ("" if none) */
	char *metric;               /* speedup metric of the report: "cycles" or "ipc" */
	double timeout;
};

/* Parse and validate a spec and expand it into jobs.  On error returns NULL
 * with "PATH:LINE: message" (or "PATH: message") in err. */
struct sweep_spec *sweep_spec_load(const char *path, char *err, size_t errsz);
/* The same for a spec's text (len bytes); path names it in messages and
 * config files are looked up beside it.  (The fuzz target's entry point.) */
struct sweep_spec *sweep_spec_parse(const char *text, size_t len, const char *path, char *err, size_t errsz);
#define SWEEP_SPEC_MAX_BYTES (4 << 20) /* a larger spec file is refused */
void sweep_spec_free(struct sweep_spec *s);

/* 64-bit FNV-1a (the CLI may not include src/util/hash.h, which the
 * simulator's own content hashes use): h continued over n bytes, and the
 * hash of a string */
#define SWEEP_FNV1A_INIT 0xcbf29ce484222325ull
uint64_t sweep_fnv1a_add(uint64_t h, const void *data, size_t n);
uint64_t sweep_fnv1a(const char *s);

/* ---- small helpers shared by the sweep files (sweep_files.c) ---- */
struct sweep_buf { /* growable string; oom is set when an allocation failed */
	char *s;
	size_t n, cap;
	int oom;
};
void sweep_buf_printf(struct sweep_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sweep_buf_add(struct sweep_buf *b, const char *s, size_t len);
void sweep_buf_free(struct sweep_buf *b);
char *sweep_strdup(const char *s); /* NULL stays NULL */
/* snprintf that may truncate (paths in messages) without compiler complaints. */
void sweep_fmt(char *buf, size_t sz, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Whole file into a malloc'd NUL-terminated buffer (length in *len if non-NULL); NULL on error. */
char *sweep_read_file(const char *path, size_t *len);
/* Write path whole or not at all (cli_out_open/commit of outfile.c: a
 * temporary beside it, renamed into place).  0, or -1 (errno set). */
int sweep_write_file_atomic(const char *path, const char *data, size_t len);

/* ---- output directory (sweep_files.c) ---- */
/* SWEEP_INVALID: a result file that sweep_result_read refuses (set only by
 * sweep_table_load; sweep_job_status says SWEEP_DONE for it) */
enum sweep_status { SWEEP_PENDING, SWEEP_DONE, SWEEP_FAILED, SWEEP_INVALID };
/* DIR/jobs/ID.EXT into buf. */
void sweep_job_path(char *buf, size_t bufsz, const char *dir, const char *id, const char *ext);
enum sweep_status sweep_job_status(const char *dir, const char *id);
/* mkdir -p. 0 or -1 (errno set). */
int sweep_mkdirs(const char *path);
/* Write the job descriptor DIR/jobs/ID.job (atomically). 0 or -1 with err. */
int sweep_job_write(const char *dir, const struct sweep_job *j, char *err, size_t errsz);
/* Read DIR/jobs/ID.job into *j (fields owned; release with sweep_job_clear). */
int sweep_job_read(const char *dir, const char *id, struct sweep_job *j, char *err, size_t errsz);
void sweep_job_clear(struct sweep_job *j);
/* Write sweep.spec, sweep.info and jobs.txt for spec s. */
int sweep_dir_write(const char *dir, const struct sweep_spec *s, char *err, size_t errsz);
/* Value of key in DIR/sweep.info (malloc'd), or NULL. */
char *sweep_info_get(const char *dir, const char *key);
/* Is s a syntactically valid job id (16 lowercase hex digits)? */
int sweep_id_valid(const char *s);
/* The result DIR/jobs/ID.json of job ID, parsed, if it is one `warpsim
 * sweep` wrote: an object whose "job" names ID and has bench and size, whose
 * job fields are strings without control characters (no newline in a name),
 * whose "stats" holds "cycles" and only non-negative finite numbers and
 * whose "derived" holds only finite numbers (or null).  Otherwise NULL with
 * "PATH: why" in why (malformed JSON, binary junk, a tampered or truncated
 * file).  The one check that `sweep` (such a result is run again) and
 * `collect`/`report` (such a result is reported and skipped) share. */
struct json *sweep_result_read(const char *dir, const char *id, char *why, size_t whysz);

/* Names of every statistic (counters, then derived metrics) a run writes,
 * taken from a freshly created simulator's JSON.  Returns the count and a
 * malloc'd array of malloc'd names in *names, or -1. */
int sweep_stat_names(char ***names);
void sweep_free_strv(char **v, int n);
/* Append a copy of s to the array *v of *n strings.  0, or -1 on out-of-memory. */
int sweep_strv_push(char ***v, int *n, const char *s);
/* Index of s in v[0..n), or -1. */
int sweep_strv_find(char **v, int n, const char *s);

/* ---- running jobs (cmd_sweep.c) ---- */
struct sweep_run_opts {
	const char *dir;
	const char *label;  /* shown in the progress line */
	int workers;
	int oversubscribe;  /* run `workers` jobs at once even if their threads add up to more than the cores */
	int quiet;          /* no progress output at all */
	int total, already; /* totals for the progress line: all jobs, and jobs done before this run */
};
struct sweep_run_result {
	int ok, failed;
	int interrupted;  /* signal number that stopped the run, 0 if none */
	int unrecorded;   /* failed jobs whose ID.failed could not be written */
	int record_errno; /* why (the last such errno) */
	int disk_full;    /* the run stopped launching jobs: the directory's file system is full */
	int nrun;         /* child processes run and waited for (every outcome) */
	double cpu_user, cpu_sys; /* their CPU seconds, from wait4's resource usage */
};
/* "CPU time of the N runs executed: ..." (sweep_run_result's sums), one line to out. */
void sweep_print_cpu(FILE *out, const struct sweep_run_result *r);
/* Run the jobs (ids; their .job files exist) on up to o->workers child
 * processes, in order, as many at once as the cores allow for their host
 * threads (unless o->oversubscribe).  Returns 0, or -1 on a setup error
 * (printed). */
int sweep_run_jobs(char *const *ids, int n, const struct sweep_run_opts *o, struct sweep_run_result *r);
/* Absolute path of the running warpsim binary into buf; 0 or -1. */
int sweep_self_exe(char *buf, size_t bufsz);
/* Default worker count, and the cores whose number the running jobs' host
 * threads may add up to: $SLURM_CPUS_PER_TASK when set, else wsHostCores(). */
int sweep_default_workers(void);
/* "FAILED ID DESC: why -- log: PATH" from DIR/jobs/ID.failed, one line to out. */
void sweep_print_failure(FILE *out, const char *dir, const char *id, const char *desc);
/* Record a failed job: DIR/jobs/ID.failed with status, reason and log path. */
int sweep_record_failure(const char *dir, const char *id, const char *status, const char *reason, const char *log);

/* Progress of a sweep on standard error: one line redrawn in place on a
 * terminal, plain lines otherwise ("done/total, failed, elapsed, ETA"). */
struct sweep_progress {
	const char *label;
	int tty, quiet;
	double t0, last;
	int total, already; /* all jobs; jobs done before this run */
	int ok, failed;     /* finished in this run */
	int running;        /* -1: unknown */
	int drawn;          /* a progress line is on screen */
	char extra[96];     /* shown after the counts */
};
void sweep_progress_init(struct sweep_progress *p, const char *label, int total, int already, int quiet);
/* Redraw the line (terminal: at most twice a second unless force). */
void sweep_progress_draw(struct sweep_progress *p, int force);
/* A permanent line (e.g. a failure) above the progress line. */
void sweep_progress_note(struct sweep_progress *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A job finished (counts already updated): terminal: failures as a note, then
 * redraw; otherwise one line with the counts and the message. */
void sweep_progress_job(struct sweep_progress *p, int failed, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Final line. */
void sweep_progress_end(struct sweep_progress *p);

/* ---- the result table (cmd_collect.c) ---- */
struct sweep_row {
	char id[17];
	enum sweep_status status;
	char *desc;
	char **cols;          /* values of table->cols (never NULL; "" when absent) */
	struct json *result;  /* parsed ID.json, NULL unless done */
};
struct sweep_table {
	char *name;
	char **cols;   /* bench size config sched fetch <parameters> */
	int ncols, nbase; /* nbase: columns before the parameters (5) */
	struct sweep_row *rows;
	int nrows;
	int ninvalid; /* rows whose result file sweep_result_read refused (reported on stderr) */
};
/* Load every job of DIR (jobs.txt order, else by id).  0, or -1 with err.
 * A result file that sweep_result_read refuses is reported on stderr
 * ("warpsim CMD: warning: PATH: why; skipped") and its row has status
 * SWEEP_INVALID and no result. */
int sweep_table_load(const char *dir, struct sweep_table *t, char *err, size_t errsz);
void sweep_table_free(struct sweep_table *t);
/* Column index of name, or -1. */
int sweep_table_col(const struct sweep_table *t, const char *name);
/* A statistic of a done row: the member of "stats" or "derived"; NULL if absent. */
const struct json *sweep_row_stat(const struct sweep_row *r, const char *name);

#endif
