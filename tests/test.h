/*
 * test.h -- warpsim's minimal test framework.
 *
 * A test is `TEST(name) { ... }` at the start of a line in a tests/ C file; the
 * Makefile collects every such name into the runner table.  CHECK*
 * macros record a failure with file:line and continue; a test passes when
 * it records no failure.  `build/warpsim-tests [substring]` runs the tests
 * whose names contain the substring and ends with "N passed, N failed".
 */
#ifndef WARPSIM_TEST_H
#define WARPSIM_TEST_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

struct test_ctx {
	const char *name;
	int failures;
};
struct test_entry {
	const char *name;
	void (*fn)(struct test_ctx *t);
};
extern const struct test_entry test_list[];

void test_fail(struct test_ctx *t, const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

#define TEST(name) void test_##name(struct test_ctx *t)

#define CHECK(c)                                                                  \
	do {                                                                      \
		if (!(c))                                                          \
			test_fail(t, __FILE__, __LINE__, "CHECK(%s)", #c);          \
	} while (0)
#define CHECK_MSG(c, ...)                                                         \
	do {                                                                      \
		if (!(c))                                                          \
			test_fail(t, __FILE__, __LINE__, __VA_ARGS__);              \
	} while (0)
#define CHECK_EQ(a, b)                                                            \
	do {                                                                      \
		unsigned long long a_ = (unsigned long long)(a), b_ = (unsigned long long)(b); \
		if (a_ != b_)                                                      \
			test_fail(t, __FILE__, __LINE__, "%s == %s: 0x%llx != 0x%llx (%lld vs %lld)", #a, #b, a_, b_, \
				  (long long)a_, (long long)b_);                    \
	} while (0)
#define CHECK_STR_CONTAINS(hay, needle)                                           \
	do {                                                                      \
		const char *h_ = (hay), *n_ = (needle);                            \
		if (!h_ || !strstr(h_, n_))                                        \
			test_fail(t, __FILE__, __LINE__, "expected \"%s\" in \"%s\"", n_, h_ ? h_ : "(null)"); \
	} while (0)

/* Directory of test data (tests/), relative to the repository root. */
#define TEST_DATA_DIR "tests"

#endif
