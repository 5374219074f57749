/* main.c -- test runner: runs every TEST, prints failures, ends with "N passed, N failed". */
#include <stdarg.h>
#include <stdio.h>
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

int main(int argc, char **argv)
{
	const char *filter = argc > 1 ? argv[1] : NULL;
	int passed = 0, failed = 0;
	for (const struct test_entry *e = test_list; e->name; e++) {
		if (filter && !strstr(e->name, filter))
			continue;
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
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
