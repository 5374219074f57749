/* main.c -- test runner: runs every TEST, one line per test as it finishes
 * ("[k/n] name: ok (seconds)", failures with their messages above it), and
 * ends with "N passed, N failed". */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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
	int passed = 0, failed = 0, skipped = 0, total = 0, k = 0;
	for (const struct test_entry *e = test_list; e->name; e++)
		total += !(filter && !strstr(e->name, filter)) && !skipped_by_env(e->name);
	for (const struct test_entry *e = test_list; e->name; e++) {
		if (filter && !strstr(e->name, filter))
			continue;
		if (skipped_by_env(e->name)) {
			skipped++;
			continue;
		}
		struct test_ctx t = {e->name, 0};
		struct timespec t0, t1;
		clock_gettime(CLOCK_MONOTONIC, &t0);
		e->fn(&t);
		clock_gettime(CLOCK_MONOTONIC, &t1);
		double sec = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
		k++;
		if (t.failures) {
			failed++;
			printf("FAILED %s\n", e->name);
		} else {
			passed++;
			printf("[%d/%d] %s: ok (%.2f s)\n", k, total, e->name, sec);
		}
		fflush(stdout);
	}
	if (skipped)
		printf("%d passed, %d failed, %d skipped\n", passed, failed, skipped);
	else
		printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
