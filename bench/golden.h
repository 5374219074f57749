/*
 * golden.h -- golden statistics: tiny runs of every bundled benchmark under
 * every warp-scheduling policy, summarized one line per run.  The test
 * suite compares a fresh run with tests/golden/tiny.txt; `make golden`
 * (warpsim golden --write) regenerates the file deliberately.
 */
#ifndef WARPSIM_BENCH_GOLDEN_H
#define WARPSIM_BENCH_GOLDEN_H

#include <stdio.h>

#include "warpsim.h"

#define WS_GOLDEN_FILE "tests/golden/tiny.txt"

/* The counters every golden line carries (golden_keys.def), NULL-terminated. */
extern const char *const ws_golden_keys[];

/* " name=value" for each of ws_golden_keys, then each of `extra`
 * (NULL-terminated, or NULL): the counters of a golden line after its
 * labels.  A name that is no counter of the run is written "name=?". */
void ws_golden_write_counters(FILE *out, const ws_sim *sim, const char *const *extra);

/* Write the golden lines for every benchmark x policy to out.  Returns the
 * number of runs that failed (verification or simulator error), with the
 * failures described in the output as "ERROR" lines. */
int ws_golden_generate(FILE *out);

#endif
