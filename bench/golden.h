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

/* Write the golden lines for every benchmark x policy to out.  Returns the
 * number of runs that failed (verification or simulator error), with the
 * failures described in the output as "ERROR" lines. */
int ws_golden_generate(FILE *out);

#endif
