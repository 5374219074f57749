/*
 * cmd_cuda.c -- the `warpsim cuda` subcommand: run an unmodified CUDA
 * program (built with `nvcc -cudart shared`) on the simulator.
 *
 * Models no hardware.  The simulation happens inside the program, in
 * build/libcudart.so.13 (src/cudart/): this command checks the
 * configuration options and the program, passes the options to the library
 * as WARPSIM_* environment variables, preloads the library (LD_PRELOAD, so
 * that it stands in for libcudart.so.13 even where the program's RPATH names
 * NVIDIA's: the loader takes an object already loaded under that SONAME) and
 * puts its directory first on LD_LIBRARY_PATH (for programs that open the
 * runtime by name), then runs the program as a child and waits for it.  The
 * program may be a wrapper script or an interpreter: everything it starts
 * inherits the environment.  After the run, the library's report
 * (WARPSIM_CUDART_REPORT, cudart.c) says whether any CUDA call reached
 * warpsim and whether a process had another CUDA runtime or the driver
 * loaded; when none reached it, the command says so and why, as precisely as
 * the program's file tells.  The program's exit status (or its death by a
 * signal) becomes the command's.  docs/cuda.md documents both.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"

#define CUDART_SONAME "libcudart.so.13"

/* Directory holding libcudart.so.13: $WARPSIM_CUDART_DIR, else the
 * directory of this executable (the build directory). */
static int find_libdir(char *dir, size_t n)
{
	const char *env = getenv("WARPSIM_CUDART_DIR");
	if (env && *env) {
		snprintf(dir, n, "%s", env);
	} else {
		ssize_t len = readlink("/proc/self/exe", dir, n - 1);
		if (len <= 0)
			return -1;
		dir[len] = '\0';
		char *slash = strrchr(dir, '/');
		if (!slash)
			return -1;
		*slash = '\0';
	}
	char lib[PATH_MAX + 32];
	snprintf(lib, sizeof lib, "%s/" CUDART_SONAME, dir);
	return access(lib, R_OK) == 0 ? 0 : -1;
}

/* What the program's file says about its CUDA runtime (for the hint after a
 * run in which no CUDA call reached warpsim). */
enum { FILE_ELF = 1, FILE_SCRIPT = 2, FILE_SHARED_CUDART = 4, FILE_KERNELS = 8 };

/* FILE_* flags of the file at path: an ELF executable or a "#!" script; the
 * string "libcudart.so." (the DT_NEEDED entry of a program linked with the
 * shared runtime); the fat binary magic (0xBA55ED50: CUDA kernels). */
static int inspect_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return 0;
	static const char *const needle[] = {"libcudart.so.", "\x50\xed\x55\xba"};
	static const int flag[] = {FILE_SHARED_CUDART, FILE_KERNELS};
	enum { KEEP = 16 }; /* longer than every needle: a needle may straddle two reads */
	char buf[65536 + KEEP];
	size_t have = 0;
	int flags = 0, first = 1;
	for (;;) {
		size_t got = fread(buf + have, 1, sizeof buf - have, f);
		if (got == 0)
			break;
		have += got;
		if (first) {
			flags |= have >= 4 && memcmp(buf, "\177ELF", 4) == 0 ? FILE_ELF : 0;
			flags |= have >= 2 && memcmp(buf, "#!", 2) == 0 ? FILE_SCRIPT : 0;
			first = 0;
		}
		for (unsigned k = 0; k < sizeof needle / sizeof needle[0]; k++) {
			size_t nl = strlen(needle[k]);
			for (size_t i = 0; i + nl <= have && !(flags & flag[k]); i++)
				if (buf[i] == needle[k][0] && memcmp(buf + i, needle[k], nl) == 0)
					flags |= flag[k];
		}
		if (have > KEEP) {
			memmove(buf, buf + have - KEEP, KEEP);
			have = KEEP;
		}
	}
	fclose(f);
	return flags;
}

/* The file execvp runs for prog (PATH searched for a name without '/'),
 * checked: a missing file, a directory, a file that is not executable are
 * errors before anything runs.  CLI_EXIT_OK with path set, or an exit
 * status after saying why. */
static int find_program(const struct cli_cmd *cmd, const char *prog, char *path, size_t n)
{
	if (!*prog)
		return cli_usage_error(cmd, "the program name is empty");
	if (strchr(prog, '/')) {
		snprintf(path, n, "%s", prog);
	} else {
		const char *dirs = getenv("PATH");
		int found = 0;
		for (const char *p = dirs ? dirs : "/bin:/usr/bin"; !found; p++) { /* execvp's default without PATH */
			const char *colon = strchr(p, ':');
			size_t len = colon ? (size_t)(colon - p) : strlen(p);
			struct stat st;
			/* execvp's search: the first executable regular file */
			found = (size_t)snprintf(path, n, "%.*s/%s", (int)len, len ? p : ".", prog) < n &&
			        stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
			if (!colon)
				break;
			p = colon;
		}
		if (!found)
			return cli_fail(cmd, "%s: no such program on PATH (give its path, e.g. ./%s)", prog, prog);
	}
	struct stat st;
	if (stat(path, &st) != 0)
		return cli_fail(cmd, "%s: cannot run it: %s", prog, strerror(errno));
	if (S_ISDIR(st.st_mode))
		return cli_fail(cmd, "%s is a directory, not a program", prog);
	if (!S_ISREG(st.st_mode))
		return cli_fail(cmd, "%s is not a regular file, not a program", prog);
	if (access(path, X_OK) != 0)
		return cli_fail(cmd,
		                "%s is not executable (%s): make it executable (chmod +x), or run it through its "
		                "interpreter (e.g. warpsim cuda -- sh %s)",
		                prog, strerror(errno), prog);
	return CLI_EXIT_OK;
}

static int set_env(const struct cli_cmd *cmd, const char *name, const char *value)
{
	if (setenv(name, value, 1) != 0)
		return cli_fail(cmd, "cannot set %s: %s", name, strerror(errno));
	return CLI_EXIT_OK;
}

/* name=FIRST, followed by the variable's old value after sep (if it had one) */
static int prepend_env(const struct cli_cmd *cmd, const char *name, const char *first, const char *sep)
{
	const char *old = getenv(name);
	size_t n = strlen(first) + (old ? strlen(old) : 0) + strlen(sep) + 1;
	char *v = malloc(n);
	if (!v)
		return cli_fail(cmd, "out of memory");
	snprintf(v, n, "%s%s%s", first, old && *old ? sep : "", old && *old ? old : "");
	int rc = set_env(cmd, name, v);
	free(v);
	return rc;
}

/* WARPSIM_SET: every --set in order, then --functional and threads=THREADS
 * unless "" (as cli_build_config applies them; the library applies
 * WARPSIM_SCHED and WARPSIM_FETCH after it) */
static int export_sets(const struct cli_args *a, const char *threads)
{
	const struct cli_cmd *cmd = a->cmd;
	size_t len = 64 + strlen(threads);
	for (int i = 0; i < a->nitems; i++)
		if (cli_item_is(a, i, "set"))
			len += strlen(a->items[i].value) + 1;
	char *sets = malloc(len);
	if (!sets)
		return cli_fail(cmd, "out of memory");
	size_t k = 0;
	sets[0] = '\0';
	for (int i = 0; i < a->nitems; i++) {
		if (!cli_item_is(a, i, "set"))
			continue;
		if (strchr(a->items[i].value, ';') || strchr(a->items[i].value, '\n')) {
			free(sets);
			return cli_usage_error(cmd, "--set '%s': values may not contain ';' or a newline",
			                       a->items[i].value);
		}
		k += (size_t)snprintf(sets + k, len - k, "%s%s", k ? ";" : "", a->items[i].value);
	}
	if (cli_opt_get(a, "functional"))
		k += (size_t)snprintf(sets + k, len - k, "%smode=functional", k ? ";" : "");
	if (threads[0])
		k += (size_t)snprintf(sets + k, len - k, "%sthreads=%s", k ? ";" : "", threads);
	int rc = set_env(cmd, "WARPSIM_SET", sets);
	free(sets);
	return rc;
}

/* The output files: checked writable before the program starts (its runtime
 * could only warn, and the program would run for nothing), and exported as
 * absolute paths (the program may change its directory).  --stats is
 * created if missing and never truncated: the library appends to it.
 * --trace and --summary are written whole at exit; nothing is created now. */
static int export_outputs(const struct cli_args *a)
{
	const struct cli_cmd *cmd = a->cmd;
	static const char *const outs[][2] = {
	    {"stats", "WARPSIM_STATS"}, {"trace", "WARPSIM_TRACE"}, {"summary", "WARPSIM_SUMMARY"}};
	for (unsigned i = 0; i < sizeof outs / sizeof outs[0]; i++) {
		const char *v = cli_opt_get(a, outs[i][0]);
		if (!v) {
			unsetenv(outs[i][1]);
			continue;
		}
		if (strcmp(outs[i][0], "stats") == 0) {
			int fd = open(v, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0666);
			if (fd < 0)
				return cli_fail(cmd, "--%s %s: cannot write: %s", outs[i][0], v, strerror(errno));
			close(fd);
		} else {
			struct cli_out o;
			char err[PATH_MAX + 128];
			if (cli_out_open(&o, v, err, sizeof err) != 0)
				return cli_fail(cmd, "--%s %s", outs[i][0], err);
			cli_out_abort(&o);
		}
		char cwd[PATH_MAX], abs[2 * PATH_MAX + 2];
		if (v[0] != '/' && getcwd(cwd, sizeof cwd))
			snprintf(abs, sizeof abs, "%s/%s", cwd, v);
		else
			snprintf(abs, sizeof abs, "%s", v);
		int rc = set_env(cmd, outs[i][1], abs);
		if (rc)
			return rc;
	}
	return CLI_EXIT_OK;
}

/* ---- after the run: did the program's CUDA work go through warpsim? ---- */

struct report {
	int calls;  /* processes whose CUDA calls reached warpsim */
	int others; /* "other" lines: a process with another CUDA runtime or the driver loaded */
};

/* Why a loaded library is not warpsim's, from its file name. */
static const char *other_why(const char *lib)
{
	const char *base = strrchr(lib, '/') ? strrchr(lib, '/') + 1 : lib;
	if (strncmp(base, "libcuda.so", 10) == 0)
		return "the CUDA driver: the program (or a CUDA runtime linked into it statically) talks to the driver "
		       "directly; warpsim stands in for the shared CUDA runtime only: rebuild it with 'nvcc -cudart "
		       "shared'";
	if (strcmp(base, CUDART_SONAME) != 0)
		return "a CUDA runtime of another version: warpsim stands in for " CUDART_SONAME
		       " (CUDA 13) only: rebuild the program with CUDA 13's 'nvcc -cudart shared'";
	return "a CUDA runtime opened by its path rather than by its name " CUDART_SONAME
	       ": open it by name to run on warpsim";
}

/* Read the library's report (cudart.c, report_line); print each "other" line. */
static void read_report(const struct cli_cmd *cmd, const char *path, const char *prog, struct report *r)
{
	memset(r, 0, sizeof *r);
	FILE *f = fopen(path, "r");
	if (!f)
		return;
	char line[2 * PATH_MAX + 64];
	while (fgets(line, sizeof line, f)) {
		line[strcspn(line, "\n")] = '\0';
		char *field[4] = {line, NULL, NULL, NULL};
		for (int i = 1; i < 4 && field[i - 1]; i++) {
			char *tab = strchr(field[i - 1], '\t');
			if (tab)
				*tab++ = '\0';
			field[i] = tab;
		}
		if (strcmp(field[0], "call") == 0) {
			r->calls++;
		} else if (strcmp(field[0], "other") == 0 && field[3] && *field[3]) {
			if (r->others++ < 8)
				fprintf(stderr,
				        "warpsim %s: error: CUDA work of %s bypassed warpsim: process %s (%s) had %s "
				        "loaded, "
				        "%s\n",
				        cmd->name, prog, field[1], field[2], field[3], other_why(field[3]));
		}
	}
	fclose(f);
	if (r->others > 8)
		fprintf(stderr, "warpsim %s: ... and %d more such processes\n", cmd->name, r->others - 8);
}

/* No CUDA call reached warpsim: say so, with what the program's file tells.
 * Returns nonzero when the program's kernels certainly ran elsewhere (or not
 * at all): a CUDA executable with the runtime linked in statically. */
static int explain_no_call(const struct cli_cmd *cmd, const char *prog, const char *path)
{
	int fl = inspect_file(path);
	if ((fl & FILE_ELF) && (fl & FILE_KERNELS) && !(fl & FILE_SHARED_CUDART)) {
		cli_fail(cmd,
		         "no CUDA call of %s reached warpsim: it has CUDA kernels and the CUDA runtime linked in "
		         "statically (nvcc's default), which warpsim cannot stand in for: rebuild it with "
		         "'nvcc -cudart shared'",
		         prog);
		return 1;
	}
	const char *why = (fl & FILE_SHARED_CUDART) ? "it is linked with the shared CUDA runtime but made no call"
	                  : (fl & FILE_ELF)         ? "it is not linked with the CUDA runtime"
	                  : (fl & FILE_SCRIPT)
	                      ? "it is a script: the programs it runs must be built with 'nvcc -cudart shared' (nvcc "
	                        "links the runtime statically by default) and find their runtime by name"
	                      : "it is not an ELF executable";
	fprintf(stderr,
	        "warpsim %s: warning: no CUDA call of %s reached warpsim, so nothing ran on the simulator (%s)\n",
	        cmd->name, prog, why);
	return 0;
}

/* Run argv as a child with the environment set, pass on the signals other
 * processes send to this one (those of the terminal reach the child itself),
 * and wait for it.  Returns its wait status, or -1 after saying why. */
static int run_child(const struct cli_cmd *cmd, char *const *argv)
{
	sigset_t set, old;
	sigemptyset(&set);
	static const int sigs[] = {SIGCHLD, SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2};
	for (unsigned i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
		sigaddset(&set, sigs[i]);
	int errpipe[2];
	if (pipe(errpipe) != 0) {
		cli_fail(cmd, "cannot run %s: %s", argv[0], strerror(errno));
		return -1;
	}
	fcntl(errpipe[0], F_SETFD, FD_CLOEXEC);
	fcntl(errpipe[1], F_SETFD, FD_CLOEXEC);
	sigprocmask(SIG_BLOCK, &set, &old);
	fflush(stdout);
	fflush(stderr);
	pid_t parent = getpid();
	pid_t pid = fork();
	if (pid == 0) {
		close(errpipe[0]);
		/* die with this command, even when it is killed with SIGKILL, as the
		 * program would if it had been exec'd in its place */
		if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent)
			_exit(127);
		sigprocmask(SIG_SETMASK, &old, NULL);
		execvp(argv[0], argv);
		int e = errno;
		if (write(errpipe[1], &e, sizeof e) < 0) {
			/* the parent then sees exit status 127 without a reason */
		}
		_exit(127);
	}
	close(errpipe[1]);
	if (pid < 0) {
		close(errpipe[0]);
		sigprocmask(SIG_SETMASK, &old, NULL);
		cli_fail(cmd, "cannot run %s: fork: %s", argv[0], strerror(errno));
		return -1;
	}
	int st = -1;
	for (;;) {
		siginfo_t info;
		int sig = sigwaitinfo(&set, &info);
		if (sig < 0 && errno == EINTR) /* a signal outside the set (SIGCONT after a stop) */
			continue;
		if (sig == SIGCHLD || sig < 0) {
			pid_t w = waitpid(pid, &st, sig < 0 ? 0 : WNOHANG);
			if (w == pid || (w < 0 && errno != EINTR))
				break;
		} else if (info.si_code <= 0) { /* sent by a process (kill, timeout), not by the terminal */
			kill(pid, sig);
		}
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	int e = 0;
	ssize_t got = read(errpipe[0], &e, sizeof e);
	close(errpipe[0]);
	if (got == (ssize_t)sizeof e) {
		cli_fail(cmd, "cannot run %s: %s", argv[0], strerror(e));
		return -1;
	}
	return st;
}

/* The report files are TMPDIR/warpsim-cuda.PID.XXXXXX. */
#define REPORT_PREFIX "warpsim-cuda."

/* Remove the report files in dir that belong to this user and to a warpsim
 * process that no longer exists (killed with SIGKILL before it could remove
 * its own); the others are left alone. */
static void remove_stale_reports(const char *dir)
{
	DIR *d = opendir(dir);
	if (!d)
		return;
	size_t plen = strlen(REPORT_PREFIX);
	for (struct dirent *e; (e = readdir(d));) {
		if (strncmp(e->d_name, REPORT_PREFIX, plen) != 0)
			continue;
		char *end;
		long pid = strtol(e->d_name + plen, &end, 10);
		if (pid <= 0 || *end != '.' || strlen(end) != 7 || (kill((pid_t)pid, 0) == 0 || errno != ESRCH))
			continue;
		char path[PATH_MAX];
		struct stat sb;
		if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, e->d_name) < sizeof path &&
		    lstat(path, &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_uid == getuid())
			unlink(path);
	}
	closedir(d);
}

/* Leave as the child did: its exit status, or the same signal. */
static int exit_like(int st)
{
	if (WIFSIGNALED(st)) {
		int sig = WTERMSIG(st);
		struct rlimit none = {0, 0};
		setrlimit(RLIMIT_CORE, &none); /* the program dumped its own core, if any */
		signal(sig, SIG_DFL);
		sigset_t one;
		sigemptyset(&one);
		sigaddset(&one, sig);
		sigprocmask(SIG_UNBLOCK, &one, NULL);
		fflush(stdout);
		fflush(stderr);
		raise(sig);
		return 128 + sig;
	}
	return WIFEXITED(st) ? WEXITSTATUS(st) : CLI_EXIT_FAIL;
}

int cli_cmd_cuda(const struct cli_args *a)
{
	const struct cli_cmd *cmd = a->cmd;
	/* check every configuration option here, so that mistakes exit 2 before the program runs */
	ws_config *cfg;
	int rc = cli_build_config(a, &cfg);
	if (rc != CLI_EXIT_OK)
		return rc;
	/* the threads for WARPSIM_SET: --threads, and the cap of
	 * cli_build_config to the cores (unless --oversubscribe) */
	char threads[64] = "";
	if (cli_opt_get(a, "threads") || !cli_opt_get(a, "oversubscribe"))
		wsConfigGet(cfg, "threads", threads, sizeof threads);
	wsConfigDestroy(cfg);

	char dir[PATH_MAX];
	if (find_libdir(dir, sizeof dir) < 0)
		return cli_fail(cmd, "cannot find " CUDART_SONAME " beside the warpsim executable (run 'make'), "
		                     "or in $WARPSIM_CUDART_DIR");
	if (strpbrk(dir, " :;"))
		return cli_fail(cmd,
		                "the directory of " CUDART_SONAME
		                ", %s, contains a space, ':' or ';', which LD_PRELOAD "
		                "and LD_LIBRARY_PATH cannot carry: set WARPSIM_CUDART_DIR to a directory without them "
		                "that holds it (a copy or a symbolic link)",
		                dir);
	const char *prog = a->pos[0];
	char exe[PATH_MAX];
	if ((rc = find_program(cmd, prog, exe, sizeof exe)))
		return rc;

	/* the configuration, in the order cli_build_config applies it */
	const char *file = cli_opt_get(a, "config");
	if (file) {
		char abs[PATH_MAX];
		if ((rc = set_env(cmd, "WARPSIM_CONFIG", realpath(file, abs) ? abs : file)))
			return rc;
	} else {
		unsetenv("WARPSIM_CONFIG");
	}
	if ((rc = export_sets(a, threads)) || (rc = export_outputs(a)))
		return rc;
	static const char *const pass[][2] = {{"sched", "WARPSIM_SCHED"}, {"fetch", "WARPSIM_FETCH"}};
	for (unsigned i = 0; i < sizeof pass / sizeof pass[0]; i++) {
		const char *v = cli_opt_get(a, pass[i][0]);
		if (v ? (rc = set_env(cmd, pass[i][1], v)) : (unsetenv(pass[i][1]), 0))
			return rc;
	}
	if (cli_opt_get(a, "quiet") ? (rc = set_env(cmd, "WARPSIM_QUIET", "1")) : (unsetenv("WARPSIM_QUIET"), 0))
		return rc;

	char lib[PATH_MAX + 32];
	snprintf(lib, sizeof lib, "%s/" CUDART_SONAME, dir);
	if ((rc = prepend_env(cmd, "LD_PRELOAD", lib, " ")) || (rc = prepend_env(cmd, "LD_LIBRARY_PATH", dir, ":")))
		return rc;

	/* the library's report: an empty file it appends to, named after this
	 * process so that one left by a killed warpsim is removed next time */
	const char *tmpdir = getenv("TMPDIR");
	tmpdir = tmpdir && *tmpdir ? tmpdir : "/tmp";
	remove_stale_reports(tmpdir);
	char report[PATH_MAX];
	snprintf(report, sizeof report, "%s/" REPORT_PREFIX "%ld.XXXXXX", tmpdir, (long)getpid());
	int fd = mkstemp(report);
	if (fd >= 0) {
		close(fd);
		if ((rc = set_env(cmd, "WARPSIM_CUDART_REPORT", report))) {
			unlink(report);
			return rc;
		}
	} else {
		fprintf(stderr,
		        "warpsim %s: warning: cannot create %s (%s): whether the program's CUDA calls reach warpsim is "
		        "not checked\n",
		        cmd->name, report, strerror(errno));
		unsetenv("WARPSIM_CUDART_REPORT");
	}

	int st = run_child(cmd, (char *const *)a->pos);
	if (fd < 0)
		return st < 0 ? CLI_EXIT_FAIL : exit_like(st);
	struct report r;
	read_report(cmd, report, prog, &r);
	unlink(report);
	if (st < 0)
		return CLI_EXIT_FAIL;
	int bypassed = r.others > 0 || (r.calls == 0 && explain_no_call(cmd, prog, exe));
	if (bypassed && WIFEXITED(st) && WEXITSTATUS(st) == 0)
		return CLI_EXIT_FAIL;
	return exit_like(st);
}
