/*
 * cli_check.c -- helpers of the CLI tests (test_cli*.c): run the built
 * `warpsim` binary through the shell and check its exit status and output.
 * The binary is $WARPSIM_BIN, by default build/warpsim; the tests run from
 * the repository root.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli_check.h"

const char *cli_bin(void)
{
	const char *b = getenv("WARPSIM_BIN");
	return b && *b ? b : "build/warpsim";
}

/* The binary must exist; otherwise one clear failure instead of dozens. */
int cli_missing(struct test_ctx *t)
{
	if (access(cli_bin(), X_OK) == 0)
		return 0;
	CHECK_MSG(0, "%s is not an executable (build it, or set WARPSIM_BIN)", cli_bin());
	return 1;
}

/* Run "warpsim ARGS" with the shell.  Stores the output (stdout, plus stderr
 * when merge is 1; only stderr when merge is 2) in *out (malloc'd, NUL-terminated; free it) and returns
 * the exit status, or -1 if the command did not exit normally. */
int cli_run(const char *args, int merge, char **out)
{
	size_t cmdsz = strlen(cli_bin()) + strlen(args) + 32;
	char *cmd = malloc(cmdsz);
	size_t cap = 1 << 16, n = 0;
	char *buf = malloc(cap);
	*out = buf;
	if (!cmd || !buf) {
		free(cmd);
		return -1;
	}
	buf[0] = '\0';
	snprintf(cmd, cmdsz, "%s %s %s", cli_bin(), args,
	         merge == 2 ? "2>&1 >/dev/null" : merge ? "2>&1" : "2>/dev/null");
	fflush(stdout);
	FILE *p = popen(cmd, "r");
	free(cmd);
	if (!p)
		return -1;
	for (;;) {
		if (cap - n < 4096) {
			char *nb = realloc(buf, cap * 2);
			if (!nb)
				break;
			buf = nb;
			*out = buf;
			cap *= 2;
		}
		size_t got = fread(buf + n, 1, cap - n - 1, p);
		n += got;
		buf[n] = '\0';
		if (got == 0)
			break;
	}
	int st = pclose(p);
	if (st == -1 || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

/* Run and check the exit status and that the output contains `needle`
 * (NULL: no check). Output includes stderr. */
void cli_expect(struct test_ctx *t, const char *args, int status, const char *needle)
{
	char *out;
	int rc = cli_run(args, 1, &out);
	CHECK_MSG(rc == status, "warpsim %s: exit status %d, expected %d; output:\n%s", args, rc, status,
	          out ? out : "");
	if (needle)
		CHECK_MSG(out && strstr(out, needle), "warpsim %s: expected \"%s\" in the output:\n%s", args, needle,
		          out ? out : "");
	free(out);
}

/* Run and check the exit status and the first line of standard error: it
 * must contain `first` (the one line a user sees first). */
void cli_expect_stderr1(struct test_ctx *t, const char *args, int status, const char *first)
{
	char *out;
	int rc = cli_run(args, 2, &out);
	char line[1024] = "";
	if (out) {
		size_t n = strcspn(out, "\n");
		if (n >= sizeof line)
			n = sizeof line - 1;
		memcpy(line, out, n);
		line[n] = '\0';
	}
	CHECK_MSG(rc == status, "warpsim %s: exit status %d, expected %d; stderr:\n%s", args, rc, status,
	          out ? out : "");
	CHECK_MSG(strstr(line, first) != NULL, "warpsim %s: expected \"%s\" in the first line of stderr:\n%s", args,
	          first, out ? out : "");
	free(out);
}

/* A scratch directory under /tmp; *dir receives its path. */
int cli_tmpdir(struct test_ctx *t, char dir[64])
{
	snprintf(dir, 64, "/tmp/warpsim-cli-XXXXXX");
	if (!mkdtemp(dir)) {
		CHECK_MSG(0, "mkdtemp failed");
		return -1;
	}
	return 0;
}

void cli_path(char *buf, size_t sz, const char *dir, const char *name)
{
	snprintf(buf, sz, "%s/%s", dir, name);
}

/* Whole contents of a file (malloc'd, NUL-terminated), *len its size. */
char *cli_slurp(const char *path, size_t *len)
{
	if (len)
		*len = 0;
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 4096, n = 0;
	char *buf = malloc(cap + 1);
	size_t got;
	while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n == cap) {
			char *nb = realloc(buf, 2 * cap + 1);
			if (!nb) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = nb;
			cap *= 2;
		}
	}
	fclose(f);
	if (buf)
		buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
}
