/*
 * cmd_cuda.c -- the `warpsim cuda` subcommand: run an unmodified CUDA
 * program (built with `nvcc -cudart shared`) on the simulator.
 *
 * Models no hardware.  The simulation happens inside the program, in
 * build/libcudart.so.13 (src/cudart/): this command checks the
 * configuration options, passes them to the library as WARPSIM_*
 * environment variables, puts the directory of the library first on
 * LD_LIBRARY_PATH and executes the program, whose exit status becomes the
 * command's.  docs/cuda.md documents both.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

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
	snprintf(lib, sizeof lib, "%s/libcudart.so.13", dir);
	return access(lib, R_OK) == 0 ? 0 : -1;
}

/* Does the file mention the shared CUDA runtime (a DT_NEEDED entry
 * "libcudart.so.13")?  1 yes, 0 no, -1 unreadable (let exec report it). */
static int links_shared_cudart(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return -1;
	static const char needle[] = "libcudart.so.";
	size_t nl = sizeof needle - 1, have = 0;
	char buf[65536 + sizeof needle];
	int found = 0;
	for (;;) {
		size_t got = fread(buf + have, 1, sizeof buf - have, f);
		if (got == 0)
			break;
		have += got;
		for (size_t i = 0; i + nl <= have && !found; i++)
			found = buf[i] == 'l' && memcmp(buf + i, needle, nl) == 0;
		if (found)
			break;
		if (have >= nl) { /* keep the tail: the string may straddle two reads */
			memmove(buf, buf + have - (nl - 1), nl - 1);
			have = nl - 1;
		}
	}
	fclose(f);
	return found;
}

/* The file execvp would run for a name without '/', or NULL. */
static const char *search_path(const char *name, char *buf, size_t n)
{
	const char *path = getenv("PATH");
	if (!path)
		return NULL;
	for (const char *p = path;; p++) {
		const char *colon = strchr(p, ':');
		size_t len = colon ? (size_t)(colon - p) : strlen(p);
		if (len && (size_t)snprintf(buf, n, "%.*s/%s", (int)len, p, name) < n && access(buf, X_OK) == 0)
			return buf;
		if (!colon)
			return NULL;
		p = colon;
	}
}

static int set_env(const struct cli_cmd *cmd, const char *name, const char *value)
{
	if (setenv(name, value, 1) != 0)
		return cli_fail(cmd, "cannot set %s: %s", name, strerror(errno));
	return CLI_EXIT_OK;
}

int cli_cmd_cuda(const struct cli_args *a)
{
	const struct cli_cmd *cmd = a->cmd;
	/* check every configuration option here, so that mistakes exit 2 before the program runs */
	ws_config *cfg;
	int rc = cli_build_config(a, &cfg);
	if (rc != CLI_EXIT_OK)
		return rc;
	wsConfigDestroy(cfg);

	char dir[PATH_MAX];
	if (find_libdir(dir, sizeof dir) < 0)
		return cli_fail(cmd, "cannot find libcudart.so.13 beside the warpsim executable (run 'make'), "
		                     "or in $WARPSIM_CUDART_DIR");
	const char *prog = a->pos[0];
	char found[PATH_MAX];
	const char *exe = strchr(prog, '/') ? prog : search_path(prog, found, sizeof found);
	if (exe && links_shared_cudart(exe) == 0)
		return cli_fail(cmd,
		                "%s does not use the shared CUDA runtime, so warpsim cannot stand in for it: "
		                "rebuild it with 'nvcc -cudart shared' (nvcc links the runtime statically by default)",
		                prog);

	/* the configuration, in the order cli_build_config applies it */
	const char *file = cli_opt_get(a, "config");
	if (file) {
		char abs[PATH_MAX];
		if ((rc = set_env(cmd, "WARPSIM_CONFIG", realpath(file, abs) ? abs : file)))
			return rc;
	} else {
		unsetenv("WARPSIM_CONFIG");
	}
	size_t len = 1;
	for (int i = 0; i < a->nitems; i++)
		if (cli_item_is(a, i, "set"))
			len += strlen(a->items[i].value) + 1;
	char *sets = malloc(len + 32);
	if (!sets)
		return cli_fail(cmd, "out of memory");
	sets[0] = '\0';
	for (int i = 0; i < a->nitems; i++) {
		if (!cli_item_is(a, i, "set"))
			continue;
		if (strchr(a->items[i].value, ';') || strchr(a->items[i].value, '\n')) {
			free(sets);
			return cli_usage_error(cmd, "--set '%s': values may not contain ';' or a newline",
			                       a->items[i].value);
		}
		if (sets[0])
			strcat(sets, ";");
		strcat(sets, a->items[i].value);
	}
	if (cli_opt_get(a, "functional"))
		strcat(sets, sets[0] ? ";mode=functional" : "mode=functional");
	rc = set_env(cmd, "WARPSIM_SET", sets);
	free(sets);
	if (rc)
		return rc;
	/* output files must be writable before the program starts (its runtime
	 * could only warn, and the program would run for nothing) */
	static const char *const outs[] = {"stats", "trace"};
	for (unsigned i = 0; i < sizeof outs / sizeof outs[0]; i++) {
		const char *v = cli_opt_get(a, outs[i]);
		if (!v)
			continue;
		int fd = open(v, O_WRONLY | O_CREAT | O_CLOEXEC, 0666);
		if (fd < 0)
			return cli_fail(cmd, "--%s %s: cannot write: %s", outs[i], v, strerror(errno));
		close(fd);
	}
	static const char *const pass[][2] = {{"sched", "WARPSIM_SCHED"},
	                                      {"fetch", "WARPSIM_FETCH"},
	                                      {"stats", "WARPSIM_STATS"},
	                                      {"trace", "WARPSIM_TRACE"},
	                                      {"summary", "WARPSIM_SUMMARY"}};
	for (unsigned i = 0; i < sizeof pass / sizeof pass[0]; i++) {
		const char *v = cli_opt_get(a, pass[i][0]);
		if (v ? (rc = set_env(cmd, pass[i][1], v)) : (unsetenv(pass[i][1]), 0))
			return rc;
	}
	if (cli_opt_get(a, "quiet") ? (rc = set_env(cmd, "WARPSIM_QUIET", "1")) : (unsetenv("WARPSIM_QUIET"), 0))
		return rc;

	const char *old = getenv("LD_LIBRARY_PATH");
	size_t n = strlen(dir) + (old ? strlen(old) : 0) + 2;
	char *path = malloc(n);
	if (!path)
		return cli_fail(cmd, "out of memory");
	snprintf(path, n, "%s%s%s", dir, old && *old ? ":" : "", old && *old ? old : "");
	rc = set_env(cmd, "LD_LIBRARY_PATH", path);
	free(path);
	if (rc)
		return rc;

	fflush(stdout);
	fflush(stderr);
	execvp(prog, (char *const *)a->pos);
	return cli_fail(cmd, "cannot run %s: %s", prog, strerror(errno));
}
