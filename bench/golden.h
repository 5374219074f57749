/*
 * golden.h -- golden statistics: tiny runs of every bundled benchmark under
 * the warp-scheduling policies, summarized one line per run.  The test
 * suite compares a fresh run with tests/golden/tiny.txt; `make golden`
 * (warpsim golden --write) regenerates the file deliberately.
 */
#ifndef WARPSIM_BENCH_GOLDEN_H
#define WARPSIM_BENCH_GOLDEN_H

#include <stdbool.h>
#include <stdio.h>

#include "warpsim.h"

#define WS_GOLDEN_FILE "tests/golden/tiny.txt"

/* The counters every golden line carries (golden_keys.def), NULL-terminated. */
extern const char *const ws_golden_keys[];

/* " name=value" for each of ws_golden_keys, then each of `extra`
 * (NULL-terminated, or NULL): the counters of a golden line after its
 * labels.  A name that is no counter of the run is written "name=?". */
void ws_golden_write_counters(FILE *out, const ws_sim *sim, const char *const *extra);

/* A policy registered after WS_GOLDEN_FILE was made has its golden lines
 * in a file of its own, made only when asked for (`make golden` writes it,
 * the test suite checks it once it exists; tests/test_golden.c). */
#define WS_GOLDEN_POLICY_FMT "tests/golden/policy-%s.txt"

/* Write the golden lines for every benchmark x pinned policy (the plain
 * policies the file was made with) to out.  Returns the number of runs that
 * failed (verification or simulator error), with the failures described in
 * the output as "ERROR" lines. */
int ws_golden_generate(FILE *out);
/* Is `policy` one of those pinned in WS_GOLDEN_FILE? */
bool ws_golden_pinned(const char *policy);
/* Write the golden lines of `policy` for every benchmark to out (for its
 * own file, WS_GOLDEN_POLICY_FMT); returns the failed runs as above. */
int ws_golden_generate_policy(FILE *out, const char *policy);

#endif
