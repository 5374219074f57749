/*
 * issue.h -- the issue stage of an SM: the warp schedulers, with the
 * scoreboard check, and the per-scheduler stall classification.
 */
#ifndef WARPSIM_CORE_ISSUE_H
#define WARPSIM_CORE_ISSUE_H

#include <stdbool.h>
#include <stdint.h>

struct sm;

/* One cycle of issue on every scheduler.  False on a functional error
 * (recorded in the launch). */
bool sm_issue_tick(struct sm *s, uint64_t now);
/* Would this cycle's issue stage only repeat its last tick -- the rule by
 * which an SM sleeps (sm_next_event), for the issue stage alone, while the
 * operand collectors, the LD/ST unit or the fetch stage still work: quiet
 * (or its ready warps waited for a collector, and none was freed since),
 * no warp marked dirty since, no decode latency, SIMD-pass or policy
 * timer expiring now? */
bool sm_issue_repeats(const struct sm *s, uint64_t now);
/* That repetition: the per-cycle counters it recorded (sm_count_cycle) and
 * the policy's per-cycle counters (sched_timers.skip), without the walk. */
void sm_issue_repeat(struct sm *s, uint64_t now);
/* The fetch stage resolved warp `slot`'s control hazard (cleared
 * ctrl_pending): its stall reason, if it has no instruction, is fetch. */
void sm_issue_ctrl_resolved(struct sm *s, uint32_t slot);

#endif
