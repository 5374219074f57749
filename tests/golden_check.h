/*
 * golden_check.h -- the comparison every golden-statistics test shares
 * (test_golden.c, test_golden_configs.c, test_bows.c), and the reading of
 * a golden file (test_golden_pins.c).
 */
#ifndef WARPSIM_TESTS_GOLDEN_CHECK_H
#define WARPSIM_TESTS_GOLDEN_CHECK_H

#include "test.h"

/* `got` (a malloc'd text, freed here) against the golden file `path`:
 * with WARPSIM_GOLDEN_WRITE=1 it is written to `path` instead (`make
 * golden`); otherwise every differing line fails the test (the first five
 * are shown), as do a missing file and extra or missing lines. */
void golden_check(struct test_ctx *t, const char *path, char *got);

/* The whole text of the file `path` (malloc'd, NUL-terminated), or NULL. */
char *golden_read(const char *path);

#endif
