/*
 * slurm.c -- `warpsim sweep --slurm`: writes one job-array script per
 * MaxArraySize tasks (DIR/slurm/array-A.sh, with the job ids of each task
 * in DIR/slurm/array-A.list), submits them with `sbatch --parsable`, polls
 * `squeue` until they have left the queue, and then reads the sweep's
 * result files; a job with neither a result nor a failure record (its task
 * hit the time limit, was cancelled, or its node failed) is recorded as
 * failed with the task's Slurm log.
 *
 * Models no hardware.  Commands run with fork/exec (no shell); a Ctrl-C
 * while waiting stops the wait, not the Slurm jobs, and a rerun of the same
 * command waits for the jobs submitted earlier (DIR/slurm/submitted) before
 * submitting anything new.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pwd.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "slurm.h"

int slurm_exec(char *const argv[], char **out, char **err, double timeout_s)
{
	if (out)
		*out = NULL;
	if (err)
		*err = NULL;
	int po[2], pe[2];
	if (pipe(po) != 0)
		return -1;
	if (pipe(pe) != 0) {
		close(po[0]);
		close(po[1]);
		return -1;
	}
	fflush(stdout);
	fflush(stderr);
	pid_t pid = fork();
	if (pid < 0) {
		close(po[0]);
		close(po[1]);
		close(pe[0]);
		close(pe[1]);
		return -1;
	}
	if (pid == 0) {
		sigset_t none;
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		int nul = open("/dev/null", O_RDONLY);
		if (nul >= 0)
			dup2(nul, STDIN_FILENO);
		dup2(po[1], STDOUT_FILENO);
		dup2(pe[1], STDERR_FILENO);
		close(po[0]);
		close(po[1]);
		close(pe[0]);
		close(pe[1]);
		execvp(argv[0], argv);
		dprintf(STDERR_FILENO, "cannot execute %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(po[1]);
	close(pe[1]);
	struct sweep_buf bo = {0}, be = {0};
	sweep_buf_add(&bo, "", 0);
	sweep_buf_add(&be, "", 0);
	struct pollfd fds[2] = {{po[0], POLLIN, 0}, {pe[0], POLLIN, 0}};
	int open_fds = 2, timed_out = 0;
	double deadline = speed_now() + timeout_s;
	while (open_fds > 0) {
		double left = deadline - speed_now();
		if (left <= 0) {
			timed_out = 1;
			break;
		}
		int k = poll(fds, 2, (int)(left * 1000) + 1);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			break;
		for (int i = 0; i < 2; i++) {
			if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			char chunk[4096];
			ssize_t got = read(fds[i].fd, chunk, sizeof chunk);
			if (got > 0) {
				sweep_buf_add(i ? &be : &bo, chunk, (size_t)got);
			} else if (got == 0 || errno != EINTR) {
				close(fds[i].fd);
				fds[i].fd = -1;
				open_fds--;
			}
		}
	}
	for (int i = 0; i < 2; i++)
		if (fds[i].fd >= 0)
			close(fds[i].fd);
	if (timed_out)
		kill(pid, SIGKILL);
	int st = 0;
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {
	}
	int rc = timed_out ? -1 : WIFEXITED(st) ? WEXITSTATUS(st) : -1;
	if (bo.oom || be.oom)
		rc = -1;
	if (out && !bo.oom) {
		*out = bo.s;
		bo.s = NULL;
	}
	if (err && !be.oom) {
		*err = be.s;
		be.s = NULL;
	}
	sweep_buf_free(&bo);
	sweep_buf_free(&be);
	return rc;
}

static void first_line(const char *s, char *buf, size_t sz)
{
	if (!s)
		s = "";
	while (*s == '\n' || *s == ' ')
		s++;
	sweep_fmt(buf, sz, "%.*s", (int)strcspn(s, "\n"), s);
}

int slurm_max_array_size(long *out, char *err, size_t errsz)
{
	char *argv[] = {"scontrol", "show", "config", NULL};
	char *o = NULL, *e = NULL;
	int rc = slurm_exec(argv, &o, &e, 60);
	if (rc != 0) {
		char l[300];
		first_line(e, l, sizeof l);
		sweep_fmt(err, errsz, "'scontrol show config' failed (%s)%s%s",
		         rc == 127 ? "not found: is Slurm installed and on PATH?"
		         : rc < 0  ? "timed out"
		                   : "exit status non-zero",
		         l[0] ? ": " : "", l);
		free(o);
		free(e);
		return -1;
	}
	free(e);
	const char *p = o;
	long v = -1;
	while (p && *p) {
		if (strncmp(p, "MaxArraySize", 12) == 0) {
			const char *eq = strchr(p, '=');
			const char *nl = strchr(p, '\n');
			if (eq && (!nl || eq < nl))
				v = strtol(eq + 1, NULL, 10);
			break;
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	free(o);
	if (v < 0) {
		sweep_fmt(err, errsz, "'scontrol show config' does not report MaxArraySize");
		return -1;
	}
	if (v < 1) {
		sweep_fmt(err, errsz, "job arrays are disabled on this cluster (MaxArraySize = %ld)", v);
		return -1;
	}
	*out = v;
	return 0;
}

/* Append a single-quoted shell word. */
static void shell_quote(struct sweep_buf *b, const char *s)
{
	sweep_buf_add(b, "'", 1);
	for (; *s; s++) {
		if (*s == '\'')
			sweep_buf_add(b, "'\\''", 4);
		else
			sweep_buf_add(b, s, 1);
	}
	sweep_buf_add(b, "'", 1);
}

/* Slurm job ids (array job ids) of ours still in the queue: their count, or -1 if squeue failed. */
static int queued(char **sids, int nsid, char *why, size_t whysz)
{
	struct passwd *pw = getpwuid(getuid());
	char user[256];
	sweep_fmt(user, sizeof user, "%s", pw && pw->pw_name ? pw->pw_name : "");
	char *argv_u[] = {"squeue", "-h", "-o", "%F", "-u", user, NULL};
	char *argv_all[] = {"squeue", "-h", "-o", "%F", NULL};
	char *o = NULL, *e = NULL;
	int rc = slurm_exec(user[0] ? argv_u : argv_all, &o, &e, 60);
	if (rc != 0) {
		char l[300];
		first_line(e, l, sizeof l);
		sweep_fmt(why, whysz, "squeue failed (%s)%s%s", rc == 127 ? "not found" : rc < 0 ? "timed out" : "error",
		         l[0] ? ": " : "", l);
		free(o);
		free(e);
		return -1;
	}
	free(e);
	int n = 0;
	for (int i = 0; i < nsid; i++) {
		size_t l = strlen(sids[i]);
		for (const char *p = o; p && *p;) {
			const char *nl = strchr(p, '\n');
			size_t ll = nl ? (size_t)(nl - p) : strlen(p);
			while (ll && (p[ll - 1] == ' ' || p[ll - 1] == '\r'))
				ll--;
			while (ll && *p == ' ')
				p++, ll--;
			if (ll == l && strncmp(p, sids[i], l) == 0) {
				n++;
				break;
			}
			p = nl ? nl + 1 : NULL;
		}
	}
	free(o);
	return n;
}

/* Wait until none of the Slurm jobs sids is queued; show the progress of
 * the sweep jobs ids.  0, 1 when interrupted (signal in *sig), -1 on error. */
static int wait_queue(char **sids, int nsid, const char *dir, char *const *ids, int n, const char *label,
                      const struct slurm_opts *o, int *sig)
{
	*sig = 0;
	sigset_t set, old;
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigprocmask(SIG_BLOCK, &set, &old);
	int already = 0;
	for (int i = 0; i < n; i++)
		already += sweep_job_status(dir, ids[i]) == SWEEP_DONE;
	struct sweep_progress pr;
	sweep_progress_init(&pr, label, n, already, o->quiet);
	int failures = 0, rc = 0, last_ok = -1, last_failed = -1, last_q = -1;
	for (;;) {
		char why[400];
		int q = queued(sids, nsid, why, sizeof why);
		if (q < 0) {
			if (++failures >= 10) {
				sweep_progress_end(&pr);
				fprintf(stderr, "warpsim sweep: error: %s (10 times in a row); the Slurm jobs may still run: "
				                "rerun the same command to wait for them\n",
				        why);
				rc = -1;
				break;
			}
		} else {
			failures = 0;
		}
		int ok = 0, failed = 0;
		for (int i = 0; i < n; i++) {
			enum sweep_status st = sweep_job_status(dir, ids[i]);
			ok += st == SWEEP_DONE;
			failed += st == SWEEP_FAILED;
		}
		pr.ok = ok - already;
		pr.failed = failed;
		if (q >= 0)
			sweep_fmt(pr.extra, sizeof pr.extra, "%d Slurm array%s queued or running", q, q == 1 ? "" : "s");
		sweep_progress_draw(&pr, ok != last_ok || failed != last_failed || q != last_q);
		last_ok = ok;
		last_failed = failed;
		last_q = q;
		if (q == 0)
			break;
		struct timespec ts = {(time_t)o->poll, (long)((o->poll - (double)(time_t)o->poll) * 1e9)};
		int s = sigtimedwait(&set, NULL, &ts);
		if (s > 0) {
			*sig = s;
			rc = 1;
			break;
		}
	}
	pr.extra[0] = '\0';
	if (rc == 0)
		sweep_progress_end(&pr);
	else if (!o->quiet && pr.tty)
		fputc('\n', stderr);
	sigprocmask(SIG_SETMASK, &old, NULL);
	return rc;
}

static int read_submitted(const char *dir, char ***sids)
{
	char path[PATH_MAX + 32];
	sweep_fmt(path, sizeof path, "%s/slurm/submitted", dir);
	*sids = NULL;
	char *text = sweep_read_file(path, NULL);
	if (!text)
		return 0;
	int n = 0;
	char *save = NULL;
	for (char *t = strtok_r(text, " \t\n", &save); t; t = strtok_r(NULL, " \t\n", &save)) {
		char **nv = realloc(*sids, (size_t)(n + 1) * sizeof *nv);
		if (!nv)
			break;
		*sids = nv;
		nv[n] = sweep_strdup(t);
		if (!nv[n])
			break;
		n++;
	}
	free(text);
	return n;
}

static int write_submitted(const char *dir, char **sids, int n)
{
	char path[PATH_MAX + 32];
	sweep_fmt(path, sizeof path, "%s/slurm/submitted", dir);
	struct sweep_buf b = {0};
	sweep_buf_add(&b, "", 0);
	for (int i = 0; i < n; i++)
		sweep_buf_printf(&b, "%s\n", sids[i]);
	int rc = b.oom ? -1 : sweep_write_file_atomic(path, b.s, b.n);
	sweep_buf_free(&b);
	return rc;
}

static int push_str(char ***v, int *n, const char *s)
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

int slurm_run(const char *dir_in, const struct sweep_spec *s, const struct slurm_opts *o, struct slurm_result *r)
{
	memset(r, 0, sizeof *r);
	char self[PATH_MAX], dir[PATH_MAX], path[PATH_MAX + 64], err[600];
	if (sweep_self_exe(self, sizeof self) != 0) {
		fprintf(stderr, "warpsim sweep: error: cannot find the warpsim binary (/proc/self/exe)\n");
		return -1;
	}
	if (!realpath(dir_in, dir)) {
		fprintf(stderr, "warpsim sweep: error: %s: %s\n", dir_in, strerror(errno));
		return -1;
	}
	sweep_fmt(path, sizeof path, "%s/slurm/logs", dir);
	if (sweep_mkdirs(path) != 0) {
		fprintf(stderr, "warpsim sweep: error: %s: cannot create: %s\n", path, strerror(errno));
		return -1;
	}
	char **allids = calloc((size_t)s->njobs + 1, sizeof *allids);
	char **ids = calloc((size_t)s->njobs + 1, sizeof *ids);
	int *task_of = calloc((size_t)s->njobs + 1, sizeof *task_of), *array_of = calloc((size_t)s->njobs + 1, sizeof *array_of);
	char **sids = NULL;
	int nsid = 0, rc = -1, sig = 0;
	if (!allids || !ids || !task_of || !array_of) {
		fprintf(stderr, "warpsim sweep: error: out of memory\n");
		goto out;
	}
	for (int i = 0; i < s->njobs; i++)
		allids[i] = s->jobs[i].id;

	/* jobs submitted earlier and still queued: wait for them first */
	int skip_failed = o->skip_failed;
	nsid = read_submitted(dir, &sids);
	if (nsid > 0) {
		int q = queued(sids, nsid, err, sizeof err);
		if (q < 0) {
			fprintf(stderr, "warpsim sweep: error: %s\n", err);
			goto out;
		}
		if (q > 0) {
			if (!o->quiet)
				fprintf(stderr, "[%s] waiting for %d Slurm job array%s submitted earlier\n", s->name, q,
				        q == 1 ? "" : "s");
			int w = wait_queue(sids, nsid, dir, allids, s->njobs, s->name, o, &sig);
			if (w != 0) {
				r->interrupted = sig;
				rc = w < 0 ? -1 : 0;
				if (w > 0)
					fprintf(stderr, "warpsim sweep: stopped waiting; the Slurm jobs keep running (rerun to wait "
					                "again, or scancel them)\n");
				goto out;
			}
			skip_failed = 1; /* their failures are this run's results */
		}
		sweep_free_strv(sids, nsid);
		sids = NULL;
		nsid = 0;
	}
	int n = 0;
	for (int i = 0; i < s->njobs; i++) {
		enum sweep_status st = sweep_job_status(dir, s->jobs[i].id);
		if (st == SWEEP_PENDING || (st == SWEEP_FAILED && !skip_failed))
			ids[n++] = s->jobs[i].id;
	}
	if (n == 0) {
		if (!o->quiet)
			fprintf(stderr, "[%s] nothing to submit: every job has a result\n", s->name);
		rc = 0;
		goto out;
	}
	long maxarr;
	if (slurm_max_array_size(&maxarr, err, sizeof err) != 0) {
		fprintf(stderr, "warpsim sweep: error: %s\n", err);
		goto out;
	}
	int pack = o->pack > 0 ? o->pack : 1;
	int ntasks = (n + pack - 1) / pack;
	int narrays = (int)((ntasks + maxarr - 1) / maxarr);
	/* the jobs about to run again lose their old failure records */
	for (int i = 0; i < n; i++) {
		sweep_job_path(path, sizeof path, dir, ids[i], "failed");
		unlink(path);
	}
	if (!o->quiet)
		fprintf(stderr, "[%s] %d jobs to run: %d array task%s (%d job%s each) in %d array%s (MaxArraySize %ld)\n",
		        s->name, n, ntasks, ntasks == 1 ? "" : "s", pack, pack == 1 ? "" : "s", narrays,
		        narrays == 1 ? "" : "s", maxarr);
	for (int a = 0; a < narrays; a++) {
		int t0 = (int)(a * maxarr), t1 = (int)((a + 1) * maxarr < ntasks ? (a + 1) * maxarr : ntasks);
		struct sweep_buf list = {0}, sh = {0};
		for (int t = t0; t < t1; t++) {
			for (int k = t * pack; k < (t + 1) * pack && k < n; k++) {
				sweep_buf_printf(&list, "%s%s", k > t * pack ? " " : "", ids[k]);
				task_of[k] = t - t0;
				array_of[k] = a;
			}
			sweep_buf_add(&list, "\n", 1);
		}
		char listpath[PATH_MAX + 64], shpath[PATH_MAX + 64], logpat[PATH_MAX + 64];
		sweep_fmt(listpath, sizeof listpath, "%s/slurm/array-%d.list", dir, a);
		sweep_fmt(shpath, sizeof shpath, "%s/slurm/array-%d.sh", dir, a);
		sweep_fmt(logpat, sizeof logpat, "%s/slurm/logs/array-%d-%%a.out", dir, a);
		char jobname[128], arr[64], outopt[PATH_MAX + 80], cpus[48], part[300], tim[300];
		sweep_fmt(jobname, sizeof jobname, "--job-name=warpsim-%s", s->name);
		sweep_fmt(arr, sizeof arr, "--array=0-%d", t1 - t0 - 1);
		sweep_fmt(outopt, sizeof outopt, "--output=%s", logpat);
		sweep_fmt(cpus, sizeof cpus, "--cpus-per-task=%d", o->cpus > 0 ? o->cpus : 1);
		sweep_fmt(part, sizeof part, "--partition=%s", o->partition ? o->partition : "");
		sweep_fmt(tim, sizeof tim, "--time=%s", o->time ? o->time : "");
		const char *argv[32 + 64];
		int na = 0;
		argv[na++] = "sbatch";
		argv[na++] = "--parsable";
		argv[na++] = jobname;
		argv[na++] = arr;
		argv[na++] = outopt;
		argv[na++] = cpus;
		if (o->partition)
			argv[na++] = part;
		if (o->time)
			argv[na++] = tim;
		for (int i = 0; i < o->nsbatch_args && na < 32 + 60; i++)
			argv[na++] = o->sbatch_args[i];
		argv[na++] = shpath;
		argv[na] = NULL;
		sweep_buf_printf(&sh,
		                 "#!/bin/sh\n"
		                 "# warpsim sweep %s, Slurm job array %d of %d, written by `warpsim sweep --slurm`.\n"
		                 "# Array task T runs the jobs (ids of %s/jobs/ID.job) on line T+1 of\n"
		                 "#   %s\n"
		                 "# with $SLURM_CPUS_PER_TASK workers.  Submitted as:\n#  ",
		                 s->name, a + 1, narrays, dir, listpath);
		for (int i = 0; i < na; i++) {
			sweep_buf_add(&sh, " ", 1);
			shell_quote(&sh, argv[i]);
		}
		sweep_buf_printf(&sh, "\nexec ");
		shell_quote(&sh, self);
		sweep_buf_printf(&sh, " sweep-task ");
		shell_quote(&sh, dir);
		sweep_buf_printf(&sh, " --list ");
		shell_quote(&sh, listpath);
		sweep_buf_printf(&sh, "\n");
		int bad = list.oom || sh.oom || sweep_write_file_atomic(listpath, list.s, list.n) != 0 ||
		          sweep_write_file_atomic(shpath, sh.s, sh.n) != 0 || chmod(shpath, 0755) != 0;
		sweep_buf_free(&list);
		sweep_buf_free(&sh);
		if (bad) {
			fprintf(stderr, "warpsim sweep: error: cannot write %s: %s\n", shpath, strerror(errno));
			goto submitted;
		}
		char *so = NULL, *se = NULL;
		int st = slurm_exec((char *const *)argv, &so, &se, 120);
		char jid[64];
		first_line(so, jid, sizeof jid);
		jid[strcspn(jid, ";")] = '\0';
		int valid = jid[0] != '\0';
		for (const char *c = jid; *c; c++)
			valid &= *c >= '0' && *c <= '9';
		if (st != 0 || !valid) {
			char l[400];
			first_line(se, l, sizeof l);
			fprintf(stderr, "warpsim sweep: error: sbatch %s failed (%s)%s%s\n", shpath,
			        st == 127 ? "sbatch not found: is Slurm installed and on PATH?"
			        : st < 0  ? "timed out"
			        : valid   ? "non-zero exit status"
			                  : "no job id in its output",
			        l[0] ? ": " : "", l);
			free(so);
			free(se);
			goto submitted;
		}
		free(so);
		free(se);
		if (push_str(&sids, &nsid, jid)) {
			fprintf(stderr, "warpsim sweep: error: out of memory\n");
			goto submitted;
		}
		write_submitted(dir, sids, nsid);
		if (!o->quiet)
			fprintf(stderr, "[%s] submitted %s: Slurm job %s, tasks 0-%d\n", s->name, shpath, jid, t1 - t0 - 1);
	}
	if (o->no_wait) {
		printf("sweep %s: submitted %d job%s as Slurm array%s", s->name, n, n == 1 ? "" : "s", nsid == 1 ? "" : "s");
		for (int i = 0; i < nsid; i++)
			printf(" %s", sids[i]);
		printf("; rerun the same command to wait for them, then: warpsim collect %s\n", dir_in);
		r->submitted_only = 1;
		rc = 0;
		goto out;
	}
	int w = wait_queue(sids, nsid, dir, ids, n, s->name, o, &sig);
	if (w != 0) {
		r->interrupted = sig;
		if (w > 0) {
			fprintf(stderr, "warpsim sweep: stopped waiting; the Slurm jobs keep running (rerun the same command to "
			                "wait again, or scancel");
			for (int i = 0; i < nsid; i++)
				fprintf(stderr, " %s", sids[i]);
			fprintf(stderr, ")\n");
			rc = 0;
		}
		goto out;
	}
	/* results written on another node may take a moment to appear (NFS) */
	double deadline = speed_now() + 20;
	for (;;) {
		int missing = 0;
		for (int i = 0; i < n; i++)
			missing += sweep_job_status(dir, ids[i]) == SWEEP_PENDING;
		if (!missing || speed_now() > deadline)
			break;
		struct timespec ts = {1, 0};
		nanosleep(&ts, NULL);
	}
	for (int i = 0; i < n; i++) {
		enum sweep_status st = sweep_job_status(dir, ids[i]);
		if (st == SWEEP_PENDING) {
			char tlog[PATH_MAX + 64], why[200];
			sweep_fmt(tlog, sizeof tlog, "%s/slurm/logs/array-%d-%d.out", dir, array_of[i], task_of[i]);
			sweep_fmt(why, sizeof why,
			         "its Slurm task ended without a result (time limit, cancellation or node failure?); see the "
			         "task log %s",
			         tlog);
			sweep_job_path(path, sizeof path, dir, ids[i], "log");
			sweep_record_failure(dir, ids[i], "no result", why, access(path, F_OK) == 0 ? path : tlog);
			st = SWEEP_FAILED;
		}
		r->ok += st == SWEEP_DONE;
		r->failed += st == SWEEP_FAILED;
	}
	rc = 0;
	goto out;
submitted:
	if (nsid) {
		fprintf(stderr, "warpsim sweep: the arrays submitted so far keep running:");
		for (int i = 0; i < nsid; i++)
			fprintf(stderr, " %s", sids[i]);
		fprintf(stderr, " (rerun to wait for them)\n");
	}
out:
	sweep_free_strv(sids, nsid);
	free(allids);
	free(ids);
	free(task_of);
	free(array_of);
	return rc;
}
