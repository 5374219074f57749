/*
 * speed.h -- the simulator's own speed (speed.c): host wall-clock time of a
 * run, instructions and simulated cycles per second.
 *
 * Models no hardware; reads the simulator through the public API only.
 */
#ifndef WARPSIM_STATS_SPEED_H
#define WARPSIM_STATS_SPEED_H

#include <stdint.h>
#include <stdio.h>

#include "warpsim.h"

/* Simulator speed of one measured run. */
struct speed {
	double wall; /* seconds of wall-clock time */
	uint64_t warp_insts, thread_insts, cycles;
	int have_warp, have_thread, have_cycles; /* counter exists */
	uint64_t sm_ticks, sm_slept, skipped; /* timing model: SM ticks run, busy-SM cycles skipped asleep, whole
					       * cycles skipped (wsSimHostWork) */
};
double speed_now(void); /* CLOCK_MONOTONIC in seconds */
void speed_collect(const ws_sim *sim, double wall, struct speed *s);
void speed_print(const struct speed *s, FILE *out);
/* the same, naming what the wall time covers ("the kernel launches") */
void speed_print_for(const struct speed *s, const char *what, FILE *out);

#endif
