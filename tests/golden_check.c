/*
 * golden_check.c -- compare generated golden statistics with their file, or
 * rewrite the file under `make golden` (see golden_check.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "golden_check.h"

char *golden_read(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *b = n >= 0 ? malloc((size_t)n + 1) : NULL;
	if (b && fread(b, 1, (size_t)n, f) != (size_t)n) {
		free(b);
		b = NULL;
	}
	if (b)
		b[n] = 0;
	fclose(f);
	return b;
}

void golden_check(struct test_ctx *t, const char *path, char *got)
{
	const char *w = getenv("WARPSIM_GOLDEN_WRITE");
	if (w && *w == '1') {
		FILE *f = fopen(path, "w");
		CHECK_MSG(f != NULL, "cannot write %s", path);
		if (f) {
			fputs(got, f);
			fclose(f);
			printf("wrote %s\n", path);
		}
		free(got);
		return;
	}
	char *want = golden_read(path);
	CHECK_MSG(want != NULL, "%s is missing: run `make golden`", path);
	if (!want) {
		free(got);
		return;
	}
	/* line by line, naming the first differing runs */
	char *sa, *sb;
	char *a = strtok_r(want, "\n", &sa);
	char *b = strtok_r(got, "\n", &sb);
	int diffs = 0;
	while (a || b) {
		if (!a || !b || strcmp(a, b) != 0) {
			if (diffs < 5)
				test_fail(t, __FILE__, __LINE__, "%s mismatch:\n    expected: %s\n    got:      %s", path,
					  a ? a : "(end of file)", b ? b : "(end of output)");
			diffs++;
		}
		a = a ? strtok_r(NULL, "\n", &sa) : NULL;
		b = b ? strtok_r(NULL, "\n", &sb) : NULL;
	}
	if (diffs)
		printf("  %d lines of %s differ; if the change is intended, run `make golden` and say why in the commit\n",
		       diffs, path);
	free(want);
	free(got);
}
