/*
 * pool.c -- run independent jobs on forked worker processes (used by
 * `warpsim characterize` and `warpsim correlate`).
 *
 * Models no hardware.  Each job runs in its own child process, so one
 * simulation cannot disturb another; the child sends its fixed-size result
 * back through a pipe.  Results land in job order whatever order the workers
 * finish in, so the output does not depend on scheduling.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

int cli_pool_run(const struct cli_pool *p, void *results)
{
	int n = p->njobs, next = 0, running = 0, done = 0, failed = 0;
	char *res = results;
	pid_t *pid = calloc((size_t)n + 1, sizeof *pid);
	int *fd = calloc((size_t)n + 1, sizeof *fd);
	char why[200];
	if (!pid || !fd) {
		free(pid);
		free(fd);
		for (int j = 0; j < n; j++)
			p->fail(j, res + (size_t)j * p->result_size, "out of memory", p->ctx);
		return n;
	}
	int workers = p->workers < 1 ? 1 : p->workers;
	time_t t0 = time(NULL);
	while (done < n) {
		while (running < workers && next < n) {
			int fds[2], j = next++;
			void *r = res + (size_t)j * p->result_size;
			if (pipe(fds) != 0) {
				snprintf(why, sizeof why, "pipe: %s", strerror(errno));
				p->fail(j, r, why, p->ctx);
				done++, failed++;
				continue;
			}
			fflush(NULL);
			pid_t c = fork();
			if (c == 0) {
				close(fds[0]);
				p->run(j, r, p->ctx);
				ssize_t w = write(fds[1], r, p->result_size);
				_exit(w == (ssize_t)p->result_size ? 0 : 1);
			}
			close(fds[1]);
			if (c < 0) {
				close(fds[0]);
				snprintf(why, sizeof why, "fork: %s", strerror(errno));
				p->fail(j, r, why, p->ctx);
				done++, failed++;
				continue;
			}
			pid[j] = c;
			fd[j] = fds[0];
			running++;
		}
		if (!running)
			break;
		int status;
		pid_t c = wait(&status);
		if (c < 0)
			break;
		for (int j = 0; j < n; j++) {
			if (pid[j] != c)
				continue;
			void *r = res + (size_t)j * p->result_size;
			ssize_t got = read(fd[j], r, p->result_size);
			if (got != (ssize_t)p->result_size) {
				snprintf(why, sizeof why, "worker died (status %d)", status);
				p->fail(j, r, why, p->ctx);
				failed++;
			}
			close(fd[j]);
			pid[j] = 0;
			running--;
			done++;
			if (p->tag) {
				char lab[128] = "";
				if (p->label)
					p->label(j, p->ctx, lab, sizeof lab);
				if (isatty(2))
					fprintf(stderr, "\r[%s] %d/%d runs, %lds elapsed   ", p->tag, done, n,
						(long)(time(NULL) - t0));
				else
					fprintf(stderr, "[%s] %d/%d runs (%s), %lds elapsed\n", p->tag, done, n, lab,
						(long)(time(NULL) - t0));
			}
			break;
		}
	}
	if (p->tag && isatty(2))
		fprintf(stderr, "\n");
	free(pid);
	free(fd);
	return failed;
}

int cli_get_jobs(const struct cli_args *a, int *workers)
{
	long w = (long)wsHostCores();
	const char *j = cli_opt_get(a, "jobs");
	if (j) {
		uint64_t x;
		char why[128];
		if (cli_parse_u64(j, 256, &x, why, sizeof why) || x < 1)
			return cli_usage_error(a->cmd, "--jobs '%s': expected 1..256", j);
		w = (long)x;
	}
	*workers = w < 1 ? 1 : (int)w;
	return CLI_EXIT_OK;
}

void cli_cap_jobs(const struct cli_args *a, const ws_config *cfg, int *workers)
{
	char buf[64];
	const char *v = wsConfigGet(cfg, "threads", buf, sizeof buf);
	long t = v ? strtol(v, NULL, 10) : 1;
	int cores = (int)wsHostCores();
	if (t <= 0 || t > cores)
		t = cores; /* threads=0: every core; above them: what a run uses after cap_threads */
	if ((long)*workers * t <= cores || cli_opt_get(a, "oversubscribe"))
		return;
	int w = (int)(cores / t) < 1 ? 1 : (int)(cores / t);
	if (cli_opt_get(a, "jobs")) {
		fflush(stdout);
		fprintf(stderr,
		        "warpsim %s: warning: --jobs %d runs of threads=%ld each add up to more than the %d core%s this "
		        "process may use: running %d at once (--oversubscribe keeps --jobs %d)\n",
		        a->cmd->name, *workers, t, cores, cores == 1 ? "" : "s", w, *workers);
	}
	*workers = w;
}
