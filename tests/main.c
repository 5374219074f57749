/* main.c -- test runner: runs every TEST, prints failures, ends with "N passed, N failed". */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"

void test_fail(struct test_ctx *t, const char *file, int line, const char *fmt, ...)
{
	va_list ap;
	fprintf(stdout, "  FAIL %s (%s:%d): ", t->name, file, line);
	va_start(ap, fmt);
	vfprintf(stdout, fmt, ap);
	va_end(ap);
	fputc('\n', stdout);
	t->failures++;
}

/* WARPSIM_TEST_SKIP="a,b": skip tests whose names contain a or b (e.g. slow
 * paper-size runs under the sanitizers). */
static int skipped_by_env(const char *name)
{
	const char *skip = getenv("WARPSIM_TEST_SKIP");
	char buf[256];
	if (!skip || !*skip)
		return 0;
	snprintf(buf, sizeof buf, "%s", skip);
	for (char *save, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
		if (*tok && strstr(name, tok))
			return 1;
	return 0;
}

int main(int argc, char **argv)
{
	const char *filter = argc > 1 ? argv[1] : NULL;
	int passed = 0, failed = 0, skipped = 0;
	for (const struct test_entry *e = test_list; e->name; e++) {
		if (filter && !strstr(e->name, filter))
			continue;
		if (skipped_by_env(e->name)) {
			skipped++;
			continue;
		}
		struct test_ctx t = {e->name, 0};
		e->fn(&t);
		if (t.failures) {
			failed++;
			printf("FAILED %s\n", e->name);
		} else {
			passed++;
		}
		fflush(stdout);
	}
	if (skipped)
		printf("%d passed, %d failed, %d skipped\n", passed, failed, skipped);
	else
		printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
