/*
 * writeback.h -- the writeback stage of an SM: the result buses that write
 * completed instructions' destination registers and release their
 * scoreboard entries.  Execution units and the LD/ST unit hand completed
 * instructions over with sm_writeback_push.
 */
#ifndef WARPSIM_CORE_WRITEBACK_H
#define WARPSIM_CORE_WRITEBACK_H

#include <stdint.h>

struct sm;
struct sm_op;

/* Called by the execution units (opcoll.c) and the LD/ST unit when an
 * instruction completes at cycle `ready`. */
void sm_writeback_push(struct sm *s, const struct sm_op *op, uint64_t ready);

/* One cycle of writeback: retire what is due, at most result_buses writes. */
void sm_writeback_tick(struct sm *s, uint64_t now);

#endif
