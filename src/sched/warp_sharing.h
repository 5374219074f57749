/*
 * warp_sharing.h -- the KAWS warp-sharing control unit (WSCU) decision.
 *
 * Models the unit of the KAWS paper (Sec. 3, Figs. 3 and 4b) that scans the
 * I-buffer heads of all warps of an SM, classifies each by execution unit,
 * and, for a scheduler whose operand collector for a unit is free, passes it
 * the oldest ready warp of another scheduler whose collector for that unit
 * is busy.  A pure function of the scheduler view and the collectors'
 * current state; the issue stage (src/core/issue.c) calls it for a
 * scheduler that issued nothing of its own this cycle, whatever the issue
 * policy (warp_sharing=1), and always under sched=kaws.
 */
#ifndef WARPSIM_SCHED_WARP_SHARING_H
#define WARPSIM_SCHED_WARP_SHARING_H

#include <stdint.h>

#include "sched/sched.h"

/* The slot scheduler `sc` may issue through warp sharing, or UINT32_MAX.
 * coll_free[s * UNIT_COUNT + u]: free operand collectors of scheduler
 * s for unit class u right now (after this cycle's earlier issues).
 * Candidates: valid warps of other schedulers, not finished, not at a
 * barrier, ready (head decoded, scoreboard clear, not issued yet this
 * cycle), not held by the policy, whose head's unit class u has
 * coll_free[own][u] == 0 and coll_free[sc][u] > 0; the oldest
 * (sched_older) wins. */
uint32_t sched_share_pick(const struct sched_view *v, const uint8_t *coll_free, uint32_t sc);

#endif
