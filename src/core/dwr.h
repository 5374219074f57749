/*
 * dwr.h -- dynamic warp resizing (DWR paper, Section IV): partner barriers,
 * the partner-sync table (PST), the ignore-list table (ILT) and the
 * sub-warp combiner (SCO) of one SM.
 *
 * Under DWR-N (dwr_max_warp = N) the SM's warps are sub-warps of warp_size
 * threads (the SIMD width on the DWR machine), each with its own SIMT
 * reconvergence stack, scheduled independently.  Consecutive sub-warps of
 * a CTA form static partner groups of G = N / warp_size.  Before every LAT
 * (ld/st to global, local or param space) a sub-warp executes an implicit
 * bar.synch_partner:
 *   - if the LAT's PC is in the ILT, nothing happens (the LAT issues as a
 *     sub-warp);
 *   - otherwise, after dwr_sync_latency cycles (pipelined), step 1 updates
 *     the group's PST entry (valid bit, PC, lock bit vector; a sub-warp
 *     arriving at a PC other than the entry's sets its bit and inserts its
 *     PC into the ILT), and step 2 unlocks every partner and marks it
 *     combine-ready once the lock vector is full.
 * The vector counts a partner as arrived when it waits at any LAT barrier,
 * waits at bar.sync (__syncthreads) or has finished, so partners at
 * different LAT barriers, or at a LAT barrier and bar.sync, are released
 * instead of deadlocking (Section IV.B), and a finished partner no longer
 * counts.
 * When the scheduler picks a combine-ready sub-warp, the SCO merges it with
 * the combine-ready partners at the same PC within the aligned window of
 * dwr_combine_distance sub-warp IDs whose operands are ready, and issues one
 * large-warp memory instruction, coalesced as one access of the large warp.
 */
#ifndef WARPSIM_CORE_DWR_H
#define WARPSIM_CORE_DWR_H

#include <stdbool.h>
#include <stdint.h>

#include "core/decode.h"

struct sm;
struct dwr;
struct ws_config;

#define DWR_MAX_SUB 8 /* sub-warps in the largest warp (64 / 8) */

/* NULL when DWR is off (dwr_max_warp = 0); *oom set when memory ran out. */
struct dwr *dwr_create(struct sm *s, const struct ws_config *cfg, bool *oom);
void dwr_destroy(struct dwr *d);

/* Is the decoded instruction a LAT (ld/ldu/st to global, local or param)? */
bool dwr_is_lat(const struct dec_insn *d);

/* Sub-warps per partner group (G). */
uint32_t dwr_group_size(const struct dwr *d);

/* CTA slot c was (re)launched: its partner groups start empty. */
void dwr_cta_launch(struct dwr *d, uint32_t c);

/* Before issue: sub-warps whose decoded I-buffer head is a LAT they have
 * not synchronized for execute their partner-barrier operation. */
void dwr_tick(struct dwr *d, uint64_t now);
/* After the tick of `now`: the next cycle at which dwr_tick or a partner
 * barrier's state changes without an event (a barrier operation's latency
 * ending, a sync timeout); UINT64_MAX if none (sleeping SMs, sm.h). */
uint64_t dwr_next_event(const struct dwr *d, uint64_t now);

/* May the sub-warp issue its head as far as its partner barrier goes? */
bool dwr_ready(const struct dwr *d, uint32_t slot, uint64_t now);

/* Is the sub-warp locked at (or in the latency of) a partner barrier? */
bool dwr_waiting(const struct dwr *d, uint32_t slot, uint64_t now);

/* SCO candidates for issuing `slot`'s LAT: when slot is combine-ready, every
 * combine-ready sub-warp of its combining window at the same PC whose
 * barrier latency has passed (slot included), ascending by CTA warp index;
 * otherwise slot alone.  The large warp issues when all of them have their
 * operands ready, as a fixed warp's instruction does.  *lane0_warp is the
 * CTA warp index of the window's first sub-warp (lane offsets are
 * (k - lane0_warp) * warp_size) and *width the window's lanes. */
unsigned dwr_candidates(const struct dwr *d, uint32_t slot, uint64_t now, uint32_t *out, uint32_t *lane0_warp,
			uint32_t *width);

/* The sub-warps in slots[0..n) issued their LAT (one instruction of n sub-warps). */
void dwr_issued(struct dwr *d, const uint32_t *slots, unsigned n);

/* Scratch step records for the partners of a combined issue (i < DWR_MAX_SUB). */
struct func_step_info *dwr_scratch(struct dwr *d, unsigned i);

/* `slot` arrived at bar.sync or finished: its partner group may be complete. */
void dwr_partner_event(struct dwr *d, uint32_t slot, uint64_t now);

#endif
