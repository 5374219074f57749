/*
 * cfg.h -- control-flow graphs of PTX function bodies, dominator trees and
 * immediate post-dominators.
 *
 * Models no hardware directly: it computes, for every branch, the
 * reconvergence point that a pre-Volta SIMT reconvergence stack uses (the
 * immediate post-dominator of the branch's basic block, as in GPGPU-Sim).
 *
 * Graphs are stored in compressed sparse row form.  The dominator algorithm
 * is Cooper, Harvey and Kennedy, "A Simple, Fast Dominance Algorithm"
 * (2001): iterate idom(b) = intersect(processed predecessors) in reverse
 * postorder until nothing changes.  Everything is iterative (no recursion),
 * so functions of 10^5 instructions do not exhaust the C stack.  Cost is
 * near-linear for real code (200k instructions of random or nested-if
 * control flow: ~35 ms); its worst case is O(blocks x nesting depth), e.g.
 * 10k loops nested inside each other: ~0.3 s.
 */
#ifndef WARPSIM_PTX_CFG_H
#define WARPSIM_PTX_CFG_H

#include <stdbool.h>
#include <stdint.h>

#include "ptx/ir.h"

/* Adjacency lists of nodes 0..n-1: the neighbours of v are adj[off[v] .. off[v+1]). */
struct cfg_graph {
	uint32_t n;
	uint32_t *off; /* [n + 1] */
	uint32_t *adj; /* [off[n]] */
};

/* Build a graph of n nodes from an edge list (src[i] -> dst[i]).  Neighbour
 * lists keep the order of the edge list; duplicate edges are kept.  Returns
 * false on allocation failure (g is then empty). */
bool cfg_graph_from_edges(struct cfg_graph *g, uint32_t n, uint32_t nedges, const uint32_t *src,
			  const uint32_t *dst);
/* The same graph with every edge reversed. */
bool cfg_graph_reverse(struct cfg_graph *r, const struct cfg_graph *g);
void cfg_graph_free(struct cfg_graph *g);

/*
 * Immediate dominators of every node of g reachable from root.
 *   succ: the graph; pred: the same graph reversed (cfg_graph_reverse).
 *   idom[root] = root; idom[v] = -1 for nodes not reachable from root.
 * Returns false on allocation failure.
 */
bool cfg_idom(const struct cfg_graph *succ, const struct cfg_graph *pred, uint32_t root, int32_t *idom);

/*
 * Basic blocks, block graph and immediate post-dominators of a function
 * body; fills fn->nblocks, block_start, block_of, ipdom (replacing any
 * previous arrays, which are freed) and insn.reconv of every instruction.
 *
 *   blocks start at pc 0, at every branch target and after every
 *   bra/brx/ret/exit/trap;
 *   edges: unguarded bra -> target; guarded bra -> target, fall-through;
 *   brx -> each target; ret/exit/trap -> virtual exit (guarded: also
 *   fall-through); anything else -> fall-through; the end of the body and a
 *   branch to pc == ninsns (a label after the last instruction) -> exit.
 *   Blocks from which the exit cannot be reached (infinite loops) get a
 *   virtual edge to the exit (see cfg.c) so each has a post-dominator.
 *   reconv of bra/brx = first pc of the ipdom block of its block, or
 *   PTX_PC_EXIT when that is the virtual exit; reconv = -1 otherwise.
 *
 * Returns false with *err (line:col of the instruction) for a branch target
 * outside the body or on allocation failure.  fn must have a body.
 */
bool cfg_function(const struct ptx_module *m, struct ptx_function *fn, struct ptx_error *err);

/*
 * The block graph of a function analysed by cfg_function: nodes 0..nblocks-1
 * are its basic blocks, node nblocks is the virtual exit (edges as above,
 * without the virtual edges added for infinite loops).  Returns false on
 * allocation failure or if fn has no CFG.
 */
bool cfg_block_graph(const struct ptx_function *fn, struct cfg_graph *g);

/*
 * Register pressure of an analysed function (implemented in analysis.c):
 * the largest number of 32-bit register slots (predicates excluded) live
 * at once at any instruction, from a backward liveness analysis over the
 * CFG (a guarded definition does not end a value's life; a definition
 * needs its register even when its value is dead).  This is a lower bound
 * of what a register allocator such as ptxas needs and usually far closer
 * to its count than the plain sum of declared registers.  Not capped; 0 for
 * an empty body.  Returns the plain sum of declared slots if fn has no CFG,
 * is too large to analyse (more than 2^24 words of live sets) or on
 * allocation failure.  ptx_analyse derives fn->regs_per_thread from it.
 */
uint32_t ptx_reg_pressure(const struct ptx_module *m, const struct ptx_function *fn);

/*
 * Branch targets (pcs) of a bra/brx instruction: returns how many and points
 * *targets at them.  bra: the `target` of its first OPD_LABEL operand.
 * brx.idx: the OPD_LIST operand, whose list[] holds the target pcs of the
 * .branchtargets list in order.  0 for anything else.
 */
uint32_t cfg_branch_targets(const struct ptx_insn *in, const int32_t **targets);

#endif
