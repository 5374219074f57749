/*
 * exec_warp.h -- warp-level collective instructions: shfl, vote,
 * activemask, match and redux.
 *
 * Models the warp-wide datapath that lets lanes of one warp exchange values
 * without memory (the shuffle crossbar and the vote/reduction tree).  Unlike
 * the lane-parallel ALU, every result depends on other lanes, so these take
 * the executing mask and the warp's active mask explicitly.
 *
 * Warp sizes other than 32 (see exec_warp.c for the full rules):
 *   - shfl: lane fields are max(5, log2(ws)) bits wide; for ws = 64 the
 *     5-bit clamp and segment-mask fields of c are widened by replicating
 *     their bit 4, so c = 0x1f still means "up to the last lane of the warp"
 *     and segment masks keep their width; lanes >= ws do not exist (a shuffle
 *     from one is out of range).
 *   - 32-bit lane-mask results (vote.ballot, activemask, match) for ws = 64:
 *     each aligned 32-lane half of the warp behaves as one PTX warp, and a
 *     lane sees the bits of its own half (bit i = lane 32 * (lane / 32) + i).
 *   - vote.all/any/uni and redux cover the whole warp.
 */
#ifndef WARPSIM_FUNC_EXEC_WARP_H
#define WARPSIM_FUNC_EXEC_WARP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "func/exec.h"

/* Load-time check of a warp collective's mode/type/operands.  Returns false
 * and writes a reason ("redux.sync.min.f32 is not supported") otherwise. */
bool func_warpop_check(const struct ptx_insn *in, char *why, size_t whysz);

/* Execute a warp collective.  mask = lanes executing it (active & guard);
 * active = the warp's active mask before the guard.  Only lanes in `mask`
 * have their destinations written.  Membermask operands are ignored: the
 * executing mask decides which lanes take part (a real GPU's behaviour when
 * they disagree is undefined). */
void func_exec_warpop(const struct func_exec *x, const struct ptx_insn *in, uint64_t mask, uint64_t active);

#endif
