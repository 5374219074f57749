/*
 * ldst.h -- the SM's load/store unit and its L1 caches.
 *
 * Models the LD/ST pipeline of a Fermi SM: memory instructions arrive from
 * the operand collectors; shared-memory accesses take one cycle per bank-
 * conflict degree; constant and parameter loads take a fixed latency, or
 * with const_cache read through the constant cache (mem/ccache.h);
 * global and local accesses are coalesced into line/sector transactions
 * that go through the L1 data cache (with MSHRs, write-evict for stores) or
 * straight to the memory system (bypass, atomics), one transaction per
 * cycle.  A load writes back when all its transactions have returned.  The
 * unit also owns the L1 instruction cache used by the fetch stage.  The
 * memory system below the L1s is the one in the SM's environment
 * (sm_env.mem).
 */
#ifndef WARPSIM_CORE_LDST_H
#define WARPSIM_CORE_LDST_H

#include <stdbool.h>
#include <stdint.h>

#include "mem/mem.h"

struct sm;
struct sm_op;
struct ldst;
struct ws_config;

enum ifetch_result { IFETCH_HIT, IFETCH_PENDING, IFETCH_RETRY };

struct ldst *ldst_create(struct sm *s, const struct ws_config *cfg);
void ldst_destroy(struct ldst *u);
/* Take a memory instruction from a collector; false if every LD/ST unit is busy. */
bool ldst_accept(struct ldst *u, const struct sm_op *op, uint64_t now);
void ldst_cycle(struct ldst *u, uint64_t now);
bool ldst_busy(const struct ldst *u);
/* Is some LD/ST pipeline working on an instruction (not only waiting for replies)? */
bool ldst_pipe_busy(const struct ldst *u);
/* A warp issued a memory fence (its stores are acknowledged): with
 * l1d_fence_invalidate the L1D drops every line not waiting for a fill. */
void ldst_fence(struct ldst *u);
/* Instruction fetch of the line holding `addr` for warp slot `slot`. */
enum ifetch_result ldst_ifetch(struct ldst *u, uint32_t slot, uint64_t addr, uint64_t now);
/* Sleeping (sm_next_event): the first cycle after `now` in which the LD/ST
 * pipelines may do more than the last ldst_cycle did -- count the same
 * memory-stage stalls and reservation fails, retry the same transactions
 * (UINT64_MAX: none until a reply arrives or, if ldst_waits_input, the
 * SM's interconnect input has room again; now + 1: the next one). */
uint64_t ldst_next_event(const struct ldst *u, uint64_t now);
/* Does a pipeline retry a transaction the SM's interconnect input had no room for? */
bool ldst_waits_input(const struct ldst *u);
/* ...and would the input take it now?  (The GPU loop wakes the SM then.) */
bool ldst_input_ready(const struct ldst *u);
/* Would ldst_accept find a free pipeline and a free load-table entry? */
bool ldst_can_accept(const struct ldst *u);
/* Add the per-cycle counters of the last ldst_cycle for k more cycles (sm_wake). */
void ldst_skip(struct ldst *u, uint64_t k);
/* A reply from the memory system. */
void ldst_reply(struct ldst *u, const struct mem_reply *r, uint64_t now);
/* The stuck-warp report (sm_describe): the load table's use, each busy pipeline's warp, transactions
 * sent and why its last try failed, and the L1D latency queue's heads. */
void ldst_describe(const struct ldst *u, char *buf, size_t bufsz, size_t *len);

#endif
