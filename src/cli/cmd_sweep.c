/*
 * cmd_sweep.c -- `warpsim sweep SPEC` (expand a sweep spec into jobs and
 * run the ones without results, locally on N worker processes or through
 * Slurm job arrays) and `warpsim sweep-task DIR` (run some jobs of a sweep
 * inside one Slurm array task), plus the job runner both use.
 *
 * Models no hardware.  Each job is a child process
 *   warpsim run BENCH --size S [--config FILE] --set K=V... --stats DIR/jobs/ID.json.part --quiet
 * with its standard output and error in DIR/jobs/ID.log.  When it exits 0
 * with valid statistics, the runner writes DIR/jobs/ID.json (the "job"
 * object followed by the statistics) under a temporary name and renames it:
 * a job is done exactly when ID.json exists, so an interrupted sweep resumes
 * by running the jobs without one.  Otherwise it writes DIR/jobs/ID.failed.
 * ID.json records a hash of the warpsim binary that made it; when the sweep
 * (re)starts, results of another binary are renamed ID.json.stale and run
 * again (--keep-stale keeps them), and --reuse skips them.
 *
 * Children run in their own process groups, so a Ctrl-C reaches only the
 * sweep, which stops launching jobs, terminates the running ones (they are
 * not recorded as failed) and exits; SIGINT, SIGTERM and SIGCHLD are taken
 * synchronously with sigtimedwait, so no signal handler or global is needed.
 * Children also die with the sweep when it is killed outright (SIGKILL: a
 * parent-death signal), and a sweep that starts removes the partial files
 * (ID.json.part, temporaries) that killed children left.
 * A sweep holds DIR/.lock (flock) while it runs: a second sweep in the same
 * directory is refused with the owner's pid and host; the lock of a sweep
 * that died is free again at once (the kernel drops it with the process).
 * When the disk fills up, the sweep names it, stops launching jobs and
 * counts the jobs whose failure it could not record.
 * See docs/sweeps.md.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "slurm.h"
#include "sweep_spec.h"

/* ---- small helpers ---- */

int sweep_self_exe(char *buf, size_t bufsz)
{
	ssize_t n = readlink("/proc/self/exe", buf, bufsz - 1);
	if (n <= 0 || (size_t)n >= bufsz - 1)
		return -1;
	buf[n] = '\0';
	return 0;
}

int sweep_default_workers(void)
{
	const char *s = getenv("SLURM_CPUS_PER_TASK");
	if (s && *s) {
		char *end;
		long v = strtol(s, &end, 10);
		if (!*end && v > 0 && v < 100000)
			return (int)v;
	}
	unsigned n = wsHostCores();
	return n < 100000 ? (int)n : 100000;
}

static void buf_json_str(struct sweep_buf *b, const char *s)
{
	sweep_buf_add(b, "\"", 1);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			sweep_buf_printf(b, "\\%c", c);
		else if (c < 0x20)
			sweep_buf_printf(b, "\\u%04x", c);
		else
			sweep_buf_add(b, s, 1);
	}
	sweep_buf_add(b, "\"", 1);
}

/* First line of the log that explains the failure ("verification: FAILED: ...",
 * "... error: ..."), without its trailing newline; "" if none. */
static void log_reason(const char *logpath, char *out, size_t outsz)
{
	out[0] = '\0';
	FILE *f = fopen(logpath, "r");
	if (!f)
		return;
	char line[1024];
	while (fgets(line, sizeof line, f)) {
		if (strstr(line, "FAILED") || strstr(line, "error:")) {
			line[strcspn(line, "\n")] = '\0';
			sweep_fmt(out, outsz, "%s", line);
			break;
		}
	}
	fclose(f);
}

int sweep_record_failure(const char *dir, const char *id, const char *status, const char *reason, const char *log)
{
	struct sweep_buf b = {0};
	sweep_buf_printf(&b, "status=%s\nreason=%s\nlog=%s\n", status, reason ? reason : "", log ? log : "");
	char path[PATH_MAX + 64];
	sweep_job_path(path, sizeof path, dir, id, "failed");
	int rc = b.oom ? -1 : sweep_write_file_atomic(path, b.s, b.n);
	sweep_buf_free(&b);
	return rc;
}

void sweep_print_failure(FILE *out, const char *dir, const char *id, const char *desc)
{
	char path[PATH_MAX + 64];
	sweep_job_path(path, sizeof path, dir, id, "failed");
	char *text = sweep_read_file(path, NULL);
	const char *status = "failed", *reason = "", *log = "";
	char *save = NULL;
	if (text)
		for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
			if (strncmp(l, "status=", 7) == 0)
				status = l + 7;
			else if (strncmp(l, "reason=", 7) == 0)
				reason = l + 7;
			else if (strncmp(l, "log=", 4) == 0)
				log = l + 4;
		}
	fprintf(out, "FAILED %s %s: %s%s%s -- log: %s\n", id, desc, status, reason[0] ? ": " : "", reason, log);
	free(text);
}

/* ---- progress ---- */

void sweep_progress_init(struct sweep_progress *p, const char *label, int total, int already, int quiet)
{
	memset(p, 0, sizeof *p);
	p->label = label;
	p->tty = isatty(STDERR_FILENO);
	p->quiet = quiet;
	p->t0 = speed_now();
	p->last = p->tty ? -1e9 : p->t0;
	p->total = total;
	p->already = already;
	p->running = -1;
}

static void progress_text(const struct sweep_progress *p, char *buf, size_t sz)
{
	double el = speed_now() - p->t0;
	int fin = p->ok + p->failed, done = p->already + fin, left = p->total - done;
	char e[32], eta[40], run[32];
	cli_format_duration(e, sizeof e, el);
	if (left <= 0)
		sweep_fmt(eta, sizeof eta, "ETA 0s");
	else if (fin == 0)
		sweep_fmt(eta, sizeof eta, "ETA ?");
	else {
		char t[32];
		cli_format_duration(t, sizeof t, el / fin * left);
		sweep_fmt(eta, sizeof eta, "ETA %s", t);
	}
	run[0] = '\0';
	if (p->running >= 0)
		sweep_fmt(run, sizeof run, ", %d running", p->running);
	sweep_fmt(buf, sz, "[%s] %d/%d done, %d failed%s, elapsed %s, %s%s%s", p->label, done, p->total, p->failed, run,
	         e, eta, p->extra[0] ? ", " : "", p->extra);
}

void sweep_progress_draw(struct sweep_progress *p, int force)
{
	if (p->quiet)
		return;
	double now = speed_now();
	if (!force && now - p->last < (p->tty ? 0.5 : 60.0))
		return;
	p->last = now;
	char line[512];
	progress_text(p, line, sizeof line);
	if (p->tty) {
		fprintf(stderr, "\r\033[K%s", line);
		p->drawn = 1;
	} else {
		fprintf(stderr, "%s\n", line);
	}
	fflush(stderr);
}

void sweep_progress_note(struct sweep_progress *p, const char *fmt, ...)
{
	if (p->quiet)
		return;
	if (p->tty && p->drawn)
		fprintf(stderr, "\r\033[K");
	p->drawn = 0;
	va_list ap;
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	if (p->tty)
		sweep_progress_draw(p, 1);
	fflush(stderr);
}

void sweep_progress_end(struct sweep_progress *p)
{
	if (p->quiet)
		return;
	if (p->tty) {
		sweep_progress_draw(p, 1);
		fputc('\n', stderr);
		p->drawn = 0;
	}
	fflush(stderr);
}

void sweep_progress_job(struct sweep_progress *p, int failed, const char *fmt, ...)
{
	if (p->quiet)
		return;
	char msg[1200];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (p->tty) {
		if (failed)
			sweep_progress_note(p, "%s", msg);
		else
			sweep_progress_draw(p, 1);
		return;
	}
	char line[512];
	progress_text(p, line, sizeof line);
	fprintf(stderr, "%s: %s\n", line, msg);
	fflush(stderr);
	p->last = speed_now();
}

/* ---- running one job ---- */

struct slot {
	pid_t pid;
	int job;
	int threads; /* host threads the job ticks its SMs on (job_threads) */
	double start;
	int timed_out;
	double timeout;
	struct sweep_job j;
};

/* The finished job's statistics become DIR/jobs/ID.json. 0 or -1 (reason in why). */
/* FNV-1a 64 of the file's contents as 16 hex digits ("" if unreadable): which
 * warpsim binary produced a result. */
static void file_hash(const char *path, char out[17])
{
	out[0] = '\0';
	FILE *f = fopen(path, "rb");
	if (!f)
		return;
	uint64_t h = SWEEP_FNV1A_INIT;
	unsigned char buf[65536];
	size_t n;
	while ((n = fread(buf, 1, sizeof buf, f)) > 0)
		h = sweep_fnv1a_add(h, buf, n);
	if (!ferror(f))
		sweep_fmt(out, 17, "%016llx", (unsigned long long)h);
	fclose(f);
}

/* Hash of the running warpsim binary ("" if it cannot be read). */
static void self_hash(char out[17])
{
	char self[PATH_MAX];
	out[0] = '\0';
	if (sweep_self_exe(self, sizeof self) == 0)
		file_hash(self, out);
}

/* What DIR/jobs/ID.json is worth: a valid result (sweep_result_read, the
 * check `collect` makes too) of `binary` ("" for any binary) and of the job's
 * configuration (its config_hash: a config file edited since makes it stale),
 * a valid result of another warpsim binary or configuration (a result with no
 * "binary" counts as another; with binary "" the configuration is not checked
 * either: --keep-stale), or not a valid result (malformed, truncated,
 * tampered: why says how). */
enum result_kind { RESULT_OK, RESULT_STALE, RESULT_INVALID };
static enum result_kind result_check(const char *dir, const struct sweep_job *j, const char *binary, char *why,
                                     size_t whysz)
{
	struct json *js = sweep_result_read(dir, j->id, why, whysz);
	if (!js)
		return RESULT_INVALID;
	const char *b = json_get_str(json_get(js, "job"), "binary");
	const char *h = json_get_str(js, "config_hash");
	bool other = !b || strcmp(b, binary) != 0 || !h || strcmp(h, j->config_hash) != 0;
	enum result_kind k = binary[0] && other ? RESULT_STALE : RESULT_OK;
	json_free(js);
	return k;
}

/* Results that are not valid, and (binary not "") results made by another
 * warpsim binary (the simulator changed since), are set aside as
 * ID.json.stale so that they run again; each invalid one is reported.
 * Returns how many of each. */
static void set_aside_stale(const char *dir, const struct sweep_spec *s, const char *binary, bool quiet, int *nstale,
                            int *ninvalid)
{
	*nstale = *ninvalid = 0;
	for (int i = 0; i < s->njobs; i++) {
		const char *id = s->jobs[i].id;
		char why[PATH_MAX + 400];
		enum result_kind k = RESULT_OK;
		if (sweep_job_status(dir, id) != SWEEP_DONE ||
		    (k = result_check(dir, &s->jobs[i], binary, why, sizeof why)) == RESULT_OK)
			continue;
		char from[PATH_MAX + 64], to[PATH_MAX + 64];
		sweep_job_path(from, sizeof from, dir, id, "json");
		sweep_job_path(to, sizeof to, dir, id, "json.stale");
		if (rename(from, to) != 0)
			continue;
		if (k == RESULT_INVALID && !quiet)
			fprintf(stderr, "[%s] %s: not a valid result: running job %s again (kept as jobs/%s.json.stale)\n",
			        s->name, why, id, id);
		*(k == RESULT_INVALID ? ninvalid : nstale) += 1;
	}
}

static int finalize(const char *dir, const struct sweep_job *j, double wall, const char *binary, char *why,
                    size_t whysz)
{
	char part[PATH_MAX + 64], final[PATH_MAX + 64];
	sweep_job_path(part, sizeof part, dir, j->id, "json.part");
	sweep_job_path(final, sizeof final, dir, j->id, "json");
	size_t len;
	char *text = sweep_read_file(part, &len);
	if (!text) {
		sweep_fmt(why, whysz, "the run exited 0 but wrote no statistics file");
		return -1;
	}
	char err[300];
	struct json *js = json_parse(text, len, err, sizeof err);
	if (!js || js->type != JSON_OBJECT || !json_get(js, "stats")) {
		sweep_fmt(why, whysz, "the run's statistics file is not valid (%s)", js ? "no \"stats\" object" : err);
		json_free(js);
		free(text);
		return -1;
	}
	json_free(js);
	const char *body = strchr(text, '{') + 1;
	while (*body == ' ' || *body == '\n' || *body == '\r' || *body == '\t')
		body++;
	char host[256];
	if (gethostname(host, sizeof host) != 0)
		sweep_fmt(host, sizeof host, "?");
	host[sizeof host - 1] = '\0';
	struct sweep_buf b = {0};
	sweep_buf_printf(&b, "{\n  \"job\": {\"id\": ");
	buf_json_str(&b, j->id);
	static const char *const names[] = {"sweep", "desc", "bench", "size", "config", "sched", "fetch"};
	const char *vals[] = {j->sweep, j->desc, j->bench, j->size, j->config, j->sched, j->fetch};
	for (int i = 0; i < 7; i++) {
		sweep_buf_printf(&b, ", \"%s\": ", names[i]);
		buf_json_str(&b, vals[i]);
	}
	sweep_buf_printf(&b, ", \"params\": {");
	for (int i = 0; i < j->nparams; i++) {
		if (i)
			sweep_buf_printf(&b, ", ");
		buf_json_str(&b, j->params[i].key);
		sweep_buf_printf(&b, ": ");
		buf_json_str(&b, j->params[i].value);
	}
	sweep_buf_printf(&b, "}, \"host\": ");
	buf_json_str(&b, host);
	sweep_buf_printf(&b, ", \"binary\": \"%s\", \"wall_seconds\": %.3f},\n  ", binary, wall);
	sweep_buf_add(&b, body, strlen(body));
	free(text);
	int rc = 0;
	if (b.oom || sweep_write_file_atomic(final, b.s, b.n) != 0) {
		sweep_fmt(why, whysz, "cannot write %s: %s", final, b.oom ? "out of memory" : strerror(errno));
		rc = -1;
	}
	sweep_buf_free(&b);
	unlink(part);
	return rc;
}

static char **job_argv(const char *self, const char *dir, const struct sweep_job *j)
{
	int n = 0, cap = 16 + 2 * j->nparams;
	char **argv = calloc((size_t)cap, sizeof *argv);
	if (!argv)
		return NULL;
	char part[PATH_MAX + 64];
	sweep_job_path(part, sizeof part, dir, j->id, "json.part");
	argv[n++] = sweep_strdup(self);
	argv[n++] = sweep_strdup("run");
	argv[n++] = sweep_strdup(j->bench);
	argv[n++] = sweep_strdup("--size");
	argv[n++] = sweep_strdup(j->size);
	if (j->config_path[0]) {
		argv[n++] = sweep_strdup("--config");
		argv[n++] = sweep_strdup(j->config_path);
	}
	struct sweep_buf b = {0};
	for (int i = 0; i < j->nparams; i++) {
		argv[n++] = sweep_strdup("--set");
		b.n = 0;
		sweep_buf_printf(&b, "%s=%s", j->params[i].key, j->params[i].value);
		argv[n++] = sweep_strdup(b.oom ? NULL : b.s);
	}
	const char *pol[2][2] = {{"sched", j->sched}, {"fetch", j->fetch}};
	for (int i = 0; i < 2; i++)
		if (pol[i][1][0]) {
			argv[n++] = sweep_strdup("--set");
			b.n = 0;
			sweep_buf_printf(&b, "%s=%s", pol[i][0], pol[i][1]);
			argv[n++] = sweep_strdup(b.oom ? NULL : b.s);
		}
	sweep_buf_free(&b);
	argv[n++] = sweep_strdup("--stats");
	argv[n++] = sweep_strdup(part);
	argv[n++] = sweep_strdup("--quiet");
	for (int i = 0; i < n; i++)
		if (!argv[i]) {
			sweep_free_strv(argv, n);
			return NULL;
		}
	return argv;
}

static void free_argv(char **argv)
{
	if (!argv)
		return;
	for (int i = 0; argv[i]; i++)
		free(argv[i]);
	free(argv);
}

/* Fork and exec one job; returns the pid or -1 (reason in why). */
static pid_t launch(const char *self, const char *dir, const struct sweep_job *j, const sigset_t *childmask, char *why,
                    size_t whysz)
{
	char **argv = job_argv(self, dir, j);
	if (!argv) {
		sweep_fmt(why, whysz, "out of memory");
		return -1;
	}
	char log[PATH_MAX + 64], part[PATH_MAX + 64];
	sweep_job_path(log, sizeof log, dir, j->id, "log");
	sweep_job_path(part, sizeof part, dir, j->id, "json.part");
	unlink(part);
	int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (fd < 0) {
		sweep_fmt(why, whysz, "cannot create %s: %s", log, strerror(errno));
		free_argv(argv);
		return -1;
	}
	char host[256];
	if (gethostname(host, sizeof host) != 0)
		sweep_fmt(host, sizeof host, "?");
	host[sizeof host - 1] = '\0';
	dprintf(fd, "# warpsim sweep job %s on %s: %s\n# command:", j->id, host, j->desc);
	for (int i = 0; argv[i]; i++)
		dprintf(fd, " %s", argv[i]);
	dprintf(fd, "\n");
	fflush(stdout);
	fflush(stderr);
	pid_t parent = getpid();
	pid_t pid = fork();
	if (pid < 0) {
		sweep_fmt(why, whysz, "fork failed: %s", strerror(errno));
		close(fd);
		free_argv(argv);
		return -1;
	}
	if (pid == 0) {
		setpgid(0, 0);
		/* die with the sweep, even when it is killed with SIGKILL (the signal
		 * survives the exec; the parent may already be gone by now) */
		if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent)
			_exit(127);
		int nul = open("/dev/null", O_RDONLY);
		if (nul >= 0) {
			dup2(nul, STDIN_FILENO);
			if (nul != STDIN_FILENO)
				close(nul);
		}
		dup2(fd, STDOUT_FILENO);
		dup2(fd, STDERR_FILENO);
		sigprocmask(SIG_SETMASK, childmask, NULL);
		/* the sweep's own executable, not the file now at its path: a rebuild of
		 * the simulator while the sweep runs must not switch later jobs to
		 * another model (the sweep's binary hash names the one it started with);
		 * argv[0] stays the path, for the job's messages */
		execv("/proc/self/exe", argv);
		execv(argv[0], argv); /* no /proc */
		dprintf(STDERR_FILENO, "warpsim sweep: error: cannot execute %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	setpgid(pid, pid);
	close(fd);
	free_argv(argv);
	return pid;
}

/* The child of slot s exited with wait status st: record the result. */
static void job_finished(const struct sweep_run_opts *o, const char *binary, struct slot *s, int st, int stopping,
                         struct sweep_progress *pr, struct sweep_run_result *r)
{
	const char *dir = o->dir;
	const struct sweep_job *j = &s->j;
	double wall = speed_now() - s->start;
	char log[PATH_MAX + 64], failpath[PATH_MAX + 64], why[600], status[64];
	sweep_job_path(log, sizeof log, dir, j->id, "log");
	sweep_job_path(failpath, sizeof failpath, dir, j->id, "failed");
	why[0] = '\0';
	if (WIFEXITED(st) && WEXITSTATUS(st) == 0 && !s->timed_out) {
		if (finalize(dir, j, wall, binary, why, sizeof why) == 0) {
			unlink(failpath);
			r->ok++;
			pr->ok++;
			sweep_progress_job(pr, 0, "ok %s %s (%.1f s)", j->id, j->desc, wall);
			return;
		}
		sweep_fmt(status, sizeof status, "exit 0");
	} else if (stopping && !s->timed_out) {
		/* terminated because the sweep was interrupted: not a result, rerun later */
		char part[PATH_MAX + 64];
		sweep_job_path(part, sizeof part, dir, j->id, "json.part");
		unlink(part);
		return;
	} else if (s->timed_out) {
		sweep_fmt(status, sizeof status, "timeout");
		sweep_fmt(why, sizeof why, "killed after the job's time limit of %g s", s->timeout);
	} else if (WIFEXITED(st)) {
		sweep_fmt(status, sizeof status, "exit %d", WEXITSTATUS(st));
		log_reason(log, why, sizeof why);
	} else if (WIFSIGNALED(st)) {
		sweep_fmt(status, sizeof status, "signal %d (%s)", WTERMSIG(st), strsignal(WTERMSIG(st)));
		log_reason(log, why, sizeof why);
	} else {
		sweep_fmt(status, sizeof status, "wait status 0x%x", (unsigned)st);
	}
	char part[PATH_MAX + 64];
	sweep_job_path(part, sizeof part, dir, j->id, "json.part");
	unlink(part);
	char unrec[200] = "";
	if (sweep_record_failure(dir, j->id, status, why, log) != 0) {
		r->unrecorded++;
		r->record_errno = errno;
		sweep_fmt(unrec, sizeof unrec, " (not recorded: %s: %s)", failpath, strerror(errno));
	}
	r->failed++;
	pr->failed++;
	sweep_progress_job(pr, 1, "FAILED %s %s: %s%s%s -- log: %s%s", j->id, j->desc, status, why[0] ? ": " : "", why,
	                   log, unrec);
}

/* Is the file system holding DIR full (less than 64 KiB left to us)?  A
 * failed job is checked against it, so that a full disk stops the sweep
 * instead of failing every job after it. */
static bool disk_full(const char *dir, unsigned long long *avail)
{
	struct statvfs v;
	if (statvfs(dir, &v) != 0)
		return false;
	*avail = (unsigned long long)v.f_bavail * v.f_frsize;
	return *avail < 64 * 1024;
}

/* The host threads job j will use: its `threads` parameter (from the spec,
 * else its config file; default 1), 0 and anything above the cores being
 * the cores (the job's `warpsim run` caps it so). */
static int job_threads(const struct sweep_job *j, int cores)
{
	const char *v = NULL;
	for (int i = 0; i < j->nparams; i++)
		if (!strcmp(j->params[i].key, "threads"))
			v = j->params[i].value;
	char buf[64];
	ws_config *cfg = NULL;
	if (!v && j->config_path && j->config_path[0] && (cfg = wsConfigCreate()) &&
	    wsConfigLoadFile(cfg, j->config_path, NULL, 0) == WS_SUCCESS)
		v = wsConfigGet(cfg, "threads", buf, sizeof buf);
	long t = v ? strtol(v, NULL, 10) : 1;
	wsConfigDestroy(cfg);
	return t <= 0 || t > cores ? cores : (int)t;
}

int sweep_run_jobs(char *const *ids, int n, const struct sweep_run_opts *o, struct sweep_run_result *r)
{
	memset(r, 0, sizeof *r);
	char self[PATH_MAX];
	if (sweep_self_exe(self, sizeof self) != 0) {
		fprintf(stderr, "warpsim sweep: error: cannot find the warpsim binary (/proc/self/exe)\n");
		return -1;
	}
	char binary[17];
	file_hash(self, binary);
	int workers = o->workers > 0 ? o->workers : 1;
	if (workers > n)
		workers = n > 0 ? n : 1;
	struct slot *slots = calloc((size_t)workers, sizeof *slots);
	if (!slots) {
		fprintf(stderr, "warpsim sweep: error: out of memory\n");
		return -1;
	}
	sigset_t set, old;
	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigprocmask(SIG_BLOCK, &set, &old);
	/* children start with nothing blocked that we blocked */
	sigset_t childmask = old;
	sigdelset(&childmask, SIGCHLD);
	sigdelset(&childmask, SIGINT);
	sigdelset(&childmask, SIGTERM);
	sigdelset(&childmask, SIGHUP);

	struct sweep_progress pr;
	sweep_progress_init(&pr, o->label, o->total, o->already, o->quiet);
	int next = 0, running = 0, stopping = 0;
	double kill_at = 0;
	/* the running jobs' threads add up to at most the cores, unless
	 * --oversubscribe; the next job waits in `held` until it fits */
	int cores = sweep_default_workers(), busy = 0, have_held = 0, noted = 0;
	struct sweep_job held;
	for (;;) {
		while (!stopping && !r->disk_full && (have_held || next < n) && running < workers) {
			char why[600], log[PATH_MAX + 64];
			if (!have_held) {
				const char *id = ids[next++];
				sweep_job_path(log, sizeof log, o->dir, id, "log");
				if (sweep_job_read(o->dir, id, &held, why, sizeof why) != 0) {
					sweep_record_failure(o->dir, id, "not run", why, log);
					r->failed++;
					pr.failed++;
					sweep_progress_job(&pr, 1, "FAILED %s: not run: %s", id, why);
					continue;
				}
				have_held = 1;
			}
			int t = job_threads(&held, cores);
			if (running && busy + t > cores && !o->oversubscribe) {
				if (!noted++)
					sweep_progress_note(&pr,
					                    "job %s waits: its %d host thread%s and the %d of the %d running job%s "
					                    "add up to more than the %d cores (--oversubscribe runs --jobs %d at once; "
					                    "said once)",
					                    held.id, t, t == 1 ? "" : "s", busy, running, running == 1 ? "" : "s",
					                    cores, workers);
				break;
			}
			int k = 0;
			while (slots[k].pid)
				k++;
			struct slot *s = &slots[k];
			s->j = held;
			have_held = 0;
			sweep_job_path(log, sizeof log, o->dir, s->j.id, "log");
			pid_t pid = launch(self, o->dir, &s->j, &childmask, why, sizeof why);
			if (pid < 0) {
				sweep_record_failure(o->dir, s->j.id, "not run", why, log);
				r->failed++;
				pr.failed++;
				sweep_progress_job(&pr, 1, "FAILED %s %s: not run: %s", s->j.id, s->j.desc, why);
				sweep_job_clear(&s->j);
				continue;
			}
			s->pid = pid;
			s->job = next - 1;
			s->threads = t;
			busy += t;
			s->start = speed_now();
			s->timed_out = 0;
			s->timeout = s->j.timeout;
			running++;
		}
		pr.running = running;
		sweep_progress_draw(&pr, 0);
		if (running == 0)
			break;
		struct timespec ts = {0, 250000000};
		siginfo_t info;
		int sig = sigtimedwait(&set, &info, &ts);
		if ((sig == SIGINT || sig == SIGTERM || sig == SIGHUP) && !stopping) {
			stopping = sig;
			kill_at = speed_now() + 5.0;
			sweep_progress_note(&pr, "%s: stopping; terminating %d running job%s (rerun to resume)",
			                    strsignal(sig), running, running == 1 ? "" : "s");
			for (int k = 0; k < workers; k++)
				if (slots[k].pid)
					kill(-slots[k].pid, SIGTERM);
		}
		double now = speed_now();
		for (int k = 0; k < workers; k++) {
			struct slot *s = &slots[k];
			if (!s->pid)
				continue;
			if (s->timeout > 0 && !s->timed_out && now - s->start > s->timeout) {
				s->timed_out = 1;
				kill(-s->pid, SIGKILL);
			}
			if (stopping && now > kill_at)
				kill(-s->pid, SIGKILL);
		}
		for (;;) {
			int st;
			struct rusage ru;
			pid_t pid = wait4(-1, &st, WNOHANG, &ru);
			if (pid <= 0)
				break;
			for (int k = 0; k < workers; k++)
				if (slots[k].pid == pid) {
					r->nrun++;
					r->cpu_user += (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6;
					r->cpu_sys += (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec * 1e-6;
					slots[k].pid = 0;
					running--;
					busy -= slots[k].threads;
					pr.running = running;
					int failed_before = r->failed;
					job_finished(o, binary, &slots[k], st, stopping, &pr, r);
					sweep_job_clear(&slots[k].j);
					unsigned long long avail;
					if (r->failed > failed_before && !r->disk_full && disk_full(o->dir, &avail)) {
						r->disk_full = 1;
						sweep_progress_note(&pr,
						                    "%s: no space left on the device (%llu bytes free): "
						                    "launching no more jobs; free some space and rerun to resume",
						                    o->dir, avail);
					}
					break;
				}
		}
	}
	sweep_progress_end(&pr);
	if (have_held)
		sweep_job_clear(&held);
	free(slots);
	r->interrupted = stopping;
	/* consume a pending SIGCHLD so that unblocking it is harmless */
	sigset_t chld;
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	struct timespec zero = {0, 0};
	while (sigtimedwait(&chld, NULL, &zero) > 0) {
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	return 0;
}

/* ---- warpsim sweep ---- */

static int parse_positive(const struct cli_args *a, const char *opt, long max, long *out)
{
	const char *v = cli_opt_get(a, opt);
	if (!v)
		return 0;
	uint64_t x = 0;
	char why[128];
	if (cli_parse_u64(v, (uint64_t)max, &x, why, sizeof why) || x == 0) {
		cli_usage_error(a->cmd, "--%s '%s': expected an integer from 1 to %ld", opt, v, max);
		return -1;
	}
	*out = (long)x;
	return 0;
}

/* Take DIR/.lock for this sweep (kept until the process exits: the kernel
 * drops an flock with its last descriptor, so the lock of a sweep that died
 * is free at once).  Returns the descriptor, or -1 with the reason in err:
 * another sweep holds it (its pid, host and start are named) or the lock
 * file cannot be made. */
static int sweep_lock(const char *dir, char *err, size_t errsz)
{
	char path[PATH_MAX + 16];
	sweep_fmt(path, sizeof path, "%s/.lock", dir);
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
	if (fd < 0) {
		sweep_fmt(err, errsz, "%s: cannot create the sweep's lock file: %s", path, strerror(errno));
		return -1;
	}
	if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
		int e = errno;
		char owner[256];
		ssize_t n = pread(fd, owner, sizeof owner - 1, 0);
		owner[n > 0 ? n : 0] = '\0';
		owner[strcspn(owner, "\n")] = '\0';
		if (e == EWOULDBLOCK)
			sweep_fmt(err, errsz,
			          "%s is in use by another sweep (%s); two sweeps must not share a directory: wait for it "
			          "(or stop it), then run this command again to resume",
			          dir, owner[0] ? owner : "owner unknown");
		else
			sweep_fmt(err, errsz, "%s: cannot lock: %s", path, strerror(e));
		close(fd);
		return -1;
	}
	char host[256];
	if (gethostname(host, sizeof host) != 0)
		sweep_fmt(host, sizeof host, "?");
	host[sizeof host - 1] = '\0';
	time_t now = time(NULL);
	struct tm tm;
	char when[64] = "?";
	if (localtime_r(&now, &tm))
		strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S", &tm);
	if (ftruncate(fd, 0) == 0)
		dprintf(fd, "pid %ld on %s, started %s\n", (long)getpid(), host, when);
	return fd;
}

/* Remove what killed children of an earlier sweep left in DIR/jobs: partial
 * statistics (ID.json.part) and temporaries of interrupted writes (*.tmp.*).
 * Only under the sweep's lock, when nothing else writes there.  Returns how
 * many. */
static int clean_leftovers(const char *dir)
{
	char jobs[PATH_MAX + 16];
	sweep_fmt(jobs, sizeof jobs, "%s/jobs", dir);
	DIR *d = opendir(jobs);
	if (!d)
		return 0;
	int n = 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		size_t l = strlen(e->d_name);
		bool part = l > 10 && strcmp(e->d_name + l - 10, ".json.part") == 0;
		if (!part && !strstr(e->d_name, ".tmp."))
			continue;
		char p[PATH_MAX + 300];
		sweep_fmt(p, sizeof p, "%s/%s", jobs, e->d_name);
		n += unlink(p) == 0;
	}
	closedir(d);
	return n;
}

void sweep_print_cpu(FILE *out, const struct sweep_run_result *r)
{
	char t[32];
	cli_format_duration(t, sizeof t, r->cpu_user + r->cpu_sys);
	fprintf(out, "CPU time of the %d run%s executed: %s (%.2f s user + %.2f s system)\n", r->nrun,
	        r->nrun == 1 ? "" : "s", t, r->cpu_user, r->cpu_sys);
}

/* The end of a sweep on standard output; rr: the local run's result (NULL
 * for Slurm, whose tasks' CPU time stays in their logs). */
static void print_summary(const char *dir, const struct sweep_spec *s, int done_before, double wall,
                          const struct sweep_run_result *rr, int *nfailed)
{
	int ok = 0, failed = 0, pending = 0;
	for (int i = 0; i < s->njobs; i++) {
		enum sweep_status st = sweep_job_status(dir, s->jobs[i].id);
		ok += st == SWEEP_DONE;
		failed += st == SWEEP_FAILED;
		pending += st == SWEEP_PENDING;
	}
	char w[32];
	cli_format_duration(w, sizeof w, wall);
	printf("sweep %s: %d jobs: %d done (%d now, %d before), %d failed", s->name, s->njobs, ok,
	       ok - done_before < 0 ? 0 : ok - done_before, done_before, failed);
	if (pending)
		printf(", %d not run", pending);
	printf("; %s\n", w);
	if (rr)
		sweep_print_cpu(stdout, rr);
	for (int i = 0; i < s->njobs; i++)
		if (sweep_job_status(dir, s->jobs[i].id) == SWEEP_FAILED)
			sweep_print_failure(stdout, dir, s->jobs[i].id, s->jobs[i].desc);
	if (rr && rr->unrecorded)
		printf("warning: %d failed job%s could not be recorded in %s/jobs (%s): %s counted as not run above\n",
		       rr->unrecorded, rr->unrecorded == 1 ? "" : "s", dir, strerror(rr->record_errno),
		       rr->unrecorded == 1 ? "it is" : "they are");
	if (rr && rr->disk_full)
		printf("stopped early: %s has no space left; free some space and run the same command to resume\n", dir);
	printf("results: %s (next: warpsim collect %s; warpsim report %s)\n", dir, dir, dir);
	*nfailed = failed + pending;
}

int cli_cmd_sweep(const struct cli_args *a)
{
	const struct cli_cmd *cmd = a->cmd;
	long jobs = sweep_default_workers(), pack = 1, cpus = 1, timeout = 0;
	double poll = 10;
	if (parse_positive(a, "jobs", 100000, &jobs) || parse_positive(a, "pack", 1000000, &pack) ||
	    parse_positive(a, "cpus-per-task", 100000, &cpus) || parse_positive(a, "timeout", 1000000000, &timeout))
		return CLI_EXIT_USAGE;
	const char *pv = cli_opt_get(a, "poll");
	if (pv) {
		char why[128];
		if (cli_parse_f64(pv, &poll, why, sizeof why) || !(poll >= 0.1 && poll <= 3600))
			return cli_usage_error(cmd, "--poll '%s': expected seconds between 0.1 and 3600", pv);
	}
	int slurm = cli_opt_get(a, "slurm") != NULL;
	static const char *const slurm_only[] = {"partition", "time", "pack", "cpus-per-task", "sbatch-arg", "poll",
	                                         "no-wait"};
	for (size_t i = 0; i < sizeof slurm_only / sizeof slurm_only[0]; i++)
		if (!slurm && cli_opt_get(a, slurm_only[i]))
			return cli_usage_error(cmd, "--%s needs --slurm", slurm_only[i]);
	if (slurm && cli_opt_get(a, "jobs"))
		return cli_usage_error(cmd, "--jobs is for local runs (with --slurm, see --cpus-per-task and --pack)");

	char err[1200];
	struct sweep_spec *s = sweep_spec_load(a->pos[0], err, sizeof err);
	if (!s) {
		fflush(stdout);
		fprintf(stderr, "warpsim sweep: error: %s\n", err);
		return access(a->pos[0], R_OK) == 0 ? CLI_EXIT_USAGE : CLI_EXIT_FAIL;
	}
	if (timeout)
		for (int i = 0; i < s->njobs; i++)
			s->jobs[i].timeout = (double)timeout;
	char dir[PATH_MAX];
	const char *out = cli_opt_get(a, "out");
	if (out && !out[0]) {
		sweep_spec_free(s);
		return cli_usage_error(cmd, "--out needs a directory");
	}
	sweep_fmt(dir, sizeof dir, "%s", out ? out : "results/");
	if (!out)
		sweep_fmt(dir, sizeof dir, "results/%s", s->name);
	size_t dl = strlen(dir);
	while (dl > 1 && dir[dl - 1] == '/')
		dir[--dl] = '\0';
	int skip_failed = cli_opt_get(a, "skip-failed") != NULL;

	if (cli_opt_get(a, "dry-run")) {
		int done = 0, failed = 0;
		char bin[17] = "";
		if (!cli_opt_get(a, "keep-stale"))
			self_hash(bin);
		for (int i = 0; i < s->njobs; i++) {
			enum sweep_status st = sweep_job_status(dir, s->jobs[i].id);
			char why[PATH_MAX + 400];
			enum result_kind k =
			    st == SWEEP_DONE ? result_check(dir, &s->jobs[i], bin, why, sizeof why) : RESULT_OK;
			done += st == SWEEP_DONE && k == RESULT_OK;
			failed += st == SWEEP_FAILED;
			printf("%s %-7s %s\n", s->jobs[i].id,
			       k == RESULT_INVALID ? "invalid"
			       : k == RESULT_STALE ? "stale"
			       : st == SWEEP_DONE  ? "done"
			       : st == SWEEP_FAILED ? "failed"
			                            : "pending",
			       s->jobs[i].desc);
		}
		printf("sweep %s: %d jobs (%d done, %d failed, %d to run) in %s\n", s->name, s->njobs, done, failed,
		       s->njobs - done - (skip_failed ? failed : 0), dir);
		sweep_spec_free(s);
		return CLI_EXIT_OK;
	}
	/* --reuse DIRs must be sweep directories (checked before anything is written) */
	for (int i = 0; i < a->nitems; i++) {
		if (!cli_item_is(a, i, "reuse"))
			continue;
		char fromjobs[PATH_MAX + 16];
		struct stat fst;
		sweep_fmt(fromjobs, sizeof fromjobs, "%s/jobs", a->items[i].value);
		if (stat(fromjobs, &fst) != 0 || !S_ISDIR(fst.st_mode)) {
			int e = errno;
			bool missing = stat(fromjobs, &fst) != 0;
			sweep_spec_free(s);
			return cli_fail(cmd, "--reuse %s: not a sweep directory (%s: %s)", a->items[i].value, fromjobs,
			                missing ? strerror(e) : "not a directory");
		}
	}
	if (sweep_mkdirs(dir) != 0) {
		sweep_spec_free(s);
		return cli_fail(cmd, "%s: cannot create: %s", dir, strerror(errno));
	}
	int lock = sweep_lock(dir, err, sizeof err);
	if (lock < 0) {
		sweep_spec_free(s);
		return cli_fail(cmd, "%s", err);
	}
	if (sweep_dir_write(dir, s, err, sizeof err) != 0) {
		sweep_spec_free(s);
		close(lock);
		return cli_fail(cmd, "%s", err);
	}
	int leftovers = clean_leftovers(dir);
	if (leftovers && !cli_opt_get(a, "quiet"))
		fprintf(stderr, "[%s] removed %d partial file%s of an interrupted sweep (those jobs run again)\n", s->name,
		        leftovers, leftovers == 1 ? "" : "s");
	/* results of another warpsim binary do not count as done, unless --keep-stale */
	int keep_stale = cli_opt_get(a, "keep-stale") != NULL;
	char binary[17];
	self_hash(binary);
	const char *keep_binary = keep_stale ? "" : binary; /* "": only results that are not valid are set aside */
	{
		int stale, invalid;
		set_aside_stale(dir, s, keep_binary, cli_opt_get(a, "quiet") != NULL, &stale, &invalid);
		if (stale && !cli_opt_get(a, "quiet"))
			fprintf(stderr,
			        "[%s] %d result%s came from another warpsim binary or configuration (the simulator or a "
			        "config file changed since): "
			        "running %s again (kept as jobs/ID.json.stale; --keep-stale counts them as done)\n",
			        s->name, stale, stale == 1 ? "" : "s", stale == 1 ? "it" : "them");
	}
	/* --reuse DIR: results of the same jobs (same ids) from other sweeps */
	for (int i = 0; i < a->nitems; i++) {
		if (!cli_item_is(a, i, "reuse"))
			continue;
		const char *from = a->items[i].value;
		int here = 0, stale = 0;
		for (int k = 0; k < s->njobs; k++) {
			const char *id = s->jobs[k].id;
			if (sweep_job_status(dir, id) == SWEEP_DONE || sweep_job_status(from, id) != SWEEP_DONE)
				continue;
			char why[PATH_MAX + 400];
			if (result_check(from, &s->jobs[k], keep_binary, why, sizeof why) != RESULT_OK) {
				stale++;
				continue;
			}
			char src[PATH_MAX + 64], dst[PATH_MAX + 64];
			sweep_job_path(src, sizeof src, from, id, "json");
			sweep_job_path(dst, sizeof dst, dir, id, "json");
			size_t len;
			char *text = sweep_read_file(src, &len);
			if (!text || sweep_write_file_atomic(dst, text, len) != 0) {
				free(text);
				sweep_spec_free(s);
				return cli_fail(cmd, "--reuse %s: cannot copy %s to %s: %s", from, src, dst, strerror(errno));
			}
			free(text);
			sweep_job_path(dst, sizeof dst, dir, id, "failed");
			unlink(dst);
			here++;
		}
		if (!cli_opt_get(a, "quiet"))
			fprintf(stderr, "[%s] reused %d result%s from %s%s\n", s->name, here, here == 1 ? "" : "s", from,
			        stale ? " (results of another warpsim binary or configuration not reused)" : "");
	}
	double t0 = speed_now();
	int rc = CLI_EXIT_OK, interrupted = 0, done_before = 0;
	struct sweep_run_result rr = {0};
	for (int i = 0; i < s->njobs; i++)
		done_before += sweep_job_status(dir, s->jobs[i].id) == SWEEP_DONE;
	if (slurm) {
		struct slurm_opts so;
		memset(&so, 0, sizeof so);
		so.partition = cli_opt_get(a, "partition");
		so.time = cli_opt_get(a, "time");
		so.pack = (int)pack;
		so.cpus = (int)cpus;
		so.poll = poll;
		so.no_wait = cli_opt_get(a, "no-wait") != NULL;
		so.quiet = cli_opt_get(a, "quiet") != NULL;
		so.skip_failed = skip_failed;
		for (int i = 0; i < a->nitems; i++)
			if (cli_item_is(a, i, "sbatch-arg"))
				so.nsbatch_args++;
		so.sbatch_args = calloc((size_t)so.nsbatch_args + 1, sizeof *so.sbatch_args);
		if (!so.sbatch_args) {
			sweep_spec_free(s);
			return cli_fail(cmd, "out of memory");
		}
		so.nsbatch_args = 0;
		for (int i = 0; i < a->nitems; i++)
			if (cli_item_is(a, i, "sbatch-arg"))
				so.sbatch_args[so.nsbatch_args++] = a->items[i].value;
		struct slurm_result sr;
		int src = slurm_run(dir, s, &so, &sr);
		free(so.sbatch_args);
		if (src != 0) {
			sweep_spec_free(s);
			return CLI_EXIT_FAIL;
		}
		interrupted = sr.interrupted;
		if (sr.submitted_only) {
			sweep_spec_free(s);
			return CLI_EXIT_OK;
		}
	} else {
		char **ids = calloc((size_t)s->njobs + 1, sizeof *ids);
		if (!ids) {
			sweep_spec_free(s);
			return cli_fail(cmd, "out of memory");
		}
		int n = 0, already = 0;
		for (int i = 0; i < s->njobs; i++) {
			enum sweep_status st = sweep_job_status(dir, s->jobs[i].id);
			if (st == SWEEP_DONE)
				already++;
			else if (!(st == SWEEP_FAILED && skip_failed))
				ids[n++] = s->jobs[i].id;
		}
		long w = n < jobs ? (n ? n : 1) : jobs;
		if (!cli_opt_get(a, "quiet"))
			fprintf(stderr, "[%s] %d jobs: %d done before, %d to run on %ld worker%s\n", s->name, s->njobs,
			        already, n, w, w == 1 ? "" : "s");
		struct sweep_run_opts ro = {dir, s->name, (int)jobs, cli_opt_get(a, "oversubscribe") != NULL,
		                            cli_opt_get(a, "quiet") != NULL, already + n, already};
		int e = sweep_run_jobs(ids, n, &ro, &rr);
		free(ids);
		if (e) {
			sweep_spec_free(s);
			return CLI_EXIT_FAIL;
		}
		interrupted = rr.interrupted;
	}
	int nfailed = 0;
	print_summary(dir, s, done_before, speed_now() - t0, slurm ? NULL : &rr, &nfailed);
	sweep_spec_free(s);
	if (interrupted) {
		fprintf(stderr, "warpsim sweep: interrupted (%s); rerun the same command to resume\n",
		        strsignal(interrupted));
		return 128 + interrupted;
	}
	if (nfailed) {
		fflush(stdout);
		fprintf(stderr, "warpsim sweep: %d job%s failed\n", nfailed, nfailed == 1 ? "" : "s");
		rc = CLI_EXIT_FAIL;
	}
	return rc;
}

/* ---- warpsim sweep-task ---- */

int cli_cmd_sweep_task(const struct cli_args *a)
{
	const struct cli_cmd *cmd = a->cmd;
	const char *dir = a->pos[0];
	const char *list = cli_opt_get(a, "list");
	long workers = 0;
	if (parse_positive(a, "jobs", 100000, &workers))
		return CLI_EXIT_USAGE;
	if (!workers) {
		const char *c = getenv("SLURM_CPUS_PER_TASK");
		workers = c && atol(c) > 0 ? atol(c) : 1;
	}
	char **ids = NULL;
	int n = 0;
	char *text = NULL;
	if (list) {
		if (a->npos > 1)
			return cli_usage_error(cmd, "give job ids or --list, not both");
		const char *tv = cli_opt_get(a, "task");
		if (!tv)
			tv = getenv("SLURM_ARRAY_TASK_ID");
		uint64_t task;
		char why[128];
		if (!tv)
			return cli_usage_error(cmd, "--list needs --task N (or $SLURM_ARRAY_TASK_ID)");
		if (cli_parse_u64(tv, 100000000, &task, why, sizeof why))
			return cli_usage_error(cmd, "task '%s': %s", tv, why);
		text = sweep_read_file(list, NULL);
		if (!text)
			return cli_fail(cmd, "%s: cannot read: %s", list, strerror(errno));
		char *line = text;
		for (uint64_t i = 0; i < task && line; i++) {
			line = strchr(line, '\n');
			if (line)
				line++;
		}
		if (!line || !*line) {
			free(text);
			return cli_fail(cmd, "%s has no line for task %s", list, tv);
		}
		line[strcspn(line, "\n")] = '\0';
		ids = calloc(strlen(line) / 2 + 2, sizeof *ids);
		if (!ids) {
			free(text);
			return cli_fail(cmd, "out of memory");
		}
		char *save = NULL;
		for (char *t = strtok_r(line, " \t", &save); t; t = strtok_r(NULL, " \t", &save))
			ids[n++] = t;
	} else {
		if (a->npos < 2)
			return cli_usage_error(cmd, "give job ids or --list FILE");
		ids = calloc((size_t)a->npos, sizeof *ids);
		if (!ids)
			return cli_fail(cmd, "out of memory");
		for (int i = 1; i < a->npos; i++)
			ids[n++] = (char *)a->pos[i];
	}
	for (int i = 0; i < n; i++)
		if (!sweep_id_valid(ids[i])) {
			int rc = cli_usage_error(cmd, "'%s' is not a job id (16 hex digits)", ids[i]);
			free(ids);
			free(text);
			return rc;
		}
	/* a requeued task does not redo finished jobs */
	int m = 0;
	for (int i = 0; i < n; i++)
		if (sweep_job_status(dir, ids[i]) != SWEEP_DONE)
			ids[m++] = ids[i];
	char label[64];
	const char *tid = getenv("SLURM_ARRAY_TASK_ID");
	sweep_fmt(label, sizeof label, "task %s", cli_opt_get(a, "task") ? cli_opt_get(a, "task") : tid ? tid : "-");
	fprintf(stderr, "[%s] %d job%s to run (%d done before) on %ld worker%s\n", label, m, m == 1 ? "" : "s", n - m,
	        workers, workers == 1 ? "" : "s");
	struct sweep_run_opts ro = {dir, label, (int)workers, cli_opt_get(a, "oversubscribe") != NULL, 0, n, n - m};
	struct sweep_run_result rr;
	int e = sweep_run_jobs(ids, m, &ro, &rr);
	free(ids);
	free(text);
	if (e)
		return CLI_EXIT_FAIL;
	fprintf(stderr, "[%s] ", label);
	sweep_print_cpu(stderr, &rr);
	if (rr.interrupted)
		return 128 + rr.interrupted;
	return rr.failed ? CLI_EXIT_FAIL : CLI_EXIT_OK;
}
