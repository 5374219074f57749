/*
 * lockstat.h -- lock acquire outcomes and wait-exit attempts of busy-wait
 * synchronization (the BOWS paper's Figures 2 and 12), measured against
 * the launch's annotated spin-inducing branches.
 *
 * Models no hardware: it classifies what the functional model did.
 * Definitions (docs/bows.md, "Lock and wait metrics"):
 *   - a SIB loop is the pc range [target, pc] of an annotated
 *     spin-inducing branch (wsFunctionSetSpinBranches);
 *   - a lock acquire attempt is the execution, by one thread, of an
 *     atom.cas or atom.exch inside a SIB loop whose destination register
 *     is a source of some setp in that loop (the acquire is tested);
 *     it succeeds if it changed the location (cas: old == compare value
 *     != new value; exch: old != new value);
 *   - a failed attempt is intra-warp if the lock's holder -- the thread
 *     whose acquire of that address succeeded last, possibly a lower lane
 *     of the same instruction -- belongs to the same warp, else inter-warp;
 *   - a failed attempt is a first attempt if the same thread's previous
 *     attempt succeeded or it has made none (a new critical section found
 *     the lock held), else a retry;
 *   - in a SIB loop without such an acquire (wait and signal), every
 *     execution of the SIB by a thread is a wait-exit attempt: it fails if
 *     the thread takes the branch (waits again), succeeds if it falls
 *     through.
 */
#ifndef WARPSIM_LOCKSTAT_H
#define WARPSIM_LOCKSTAT_H

#include <stdbool.h>
#include <stdint.h>

#include "ptx/ir.h"
#include "sched/sched.h"

struct ws_stats;

enum lockstat_kind { LOCKSTAT_NONE, LOCKSTAT_ACQUIRE, LOCKSTAT_WAIT_SIB };

struct lockstat;

/* The instructions to watch in `mod` given the annotations (sorted).
 * *out is NULL when nothing is annotated.  False on OOM. */
bool lockstat_create(struct lockstat **out, const struct ptx_module *mod, const struct sched_sib *sibs, uint32_t nsibs);
void lockstat_destroy(struct lockstat *ls);
enum lockstat_kind lockstat_kind(const struct lockstat *ls, int32_t fn, int32_t pc);
/* An executed acquire: per-lane (lanes in `exec`) address, returned old
 * value, compare operand (cas) and new value; `warp` identifies the warp
 * (its age).  Lanes are taken in ascending order. */
void lockstat_acquire(struct lockstat *ls, struct ws_stats *st, uint64_t warp, bool cas, uint64_t exec,
                      const uint64_t *addr, const uint64_t *old, const uint64_t *cmp, const uint64_t *nw);
/* An executed wait-loop SIB: `active` lanes executed it, `exec` of them took it. */
void lockstat_wait(struct ws_stats *st, uint64_t active, uint64_t exec);

#endif
