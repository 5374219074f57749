/*
 * opcoll.h -- operand collectors (register-bank reads) and dispatch to the
 * execution units of an SM.
 */
#ifndef WARPSIM_CORE_OPCOLL_H
#define WARPSIM_CORE_OPCOLL_H

#include <stdint.h>

struct sm;
struct sm_collector;

/* Collector k of unit type cu of scheduler sched. */
struct sm_collector *sm_collector_at(struct sm *s, uint32_t sched, uint32_t cu, uint32_t k);
/* Collector c was taken (delta -1) or freed (+1): its group's free count in
 * sm.coll_now, kept current for the issue stage, follows. */
void sm_collector_count(struct sm *s, const struct sm_collector *c, int delta);
/* A free collector of unit type cu for scheduler sched, or NULL. */
struct sm_collector *sm_collector_free(struct sm *s, uint32_t sched, uint32_t cu);
/* Dispatch collectors whose operands are all read to the units (oldest first). */
void sm_dispatch_tick(struct sm *s, uint64_t now);
/* Sleeping: the first cycle after now in which a busy collector may read or
 * dispatch (UINT64_MAX: only after an event of the LD/ST unit). */
uint64_t sm_collectors_next_event(const struct sm *s, uint64_t now);
/* Read source operands, one read per register bank per cycle. */
void sm_operands_tick(struct sm *s, uint64_t now);

#endif
