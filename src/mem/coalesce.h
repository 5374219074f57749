/*
 * coalesce.h -- the global-memory access coalescer of the LD/ST unit.
 *
 * Models how a Fermi (compute capability 2.x) SM turns one warp's
 * per-lane addresses into memory transactions, as GPGPU-Sim models it:
 *   - cached loads (through the L1D): one transaction per distinct cache
 *     line touched, of the full line size (Fermi's 128-byte L1
 *     transactions), with the mask of 32-byte sectors the lanes touched;
 *   - uncached / L1-bypassing loads and stores: 32-byte segment
 *     granularity -- one transaction per line touched, carrying only the
 *     touched sectors (bytes = 32 per sector);
 *   - atomics: like stores, except that lanes whose bytes overlap an
 *     earlier lane's in the same line go to a new transaction (same-address
 *     atomics serialize), as GPGPU-Sim's memory_coalescing_arch_13_atomic.
 * The whole warp (8..64 lanes) is one coalescing group (GPGPU-Sim's Fermi
 * setting, mem_warp_parts = 1; its atomics use half-warps, we do not).
 * Transactions come out in the order of the lowest lane that touches them.
 * An access that crosses a line boundary (misaligned) touches both lines.
 *
 * Pure function of its arguments; no allocation.
 */
#ifndef WARPSIM_MEM_COALESCE_H
#define WARPSIM_MEM_COALESCE_H

#include <stdint.h>

#define COAL_MAX_TXNS 128 /* 64 lanes, each touching at most two lines */

enum coal_kind {
	COAL_LOAD_CACHED,   /* ld.global through the L1D */
	COAL_LOAD_UNCACHED, /* ld.global.cg / bypassed L1 / volatile */
	COAL_STORE,
	COAL_ATOMIC,
};

struct coal_txn {
	uint64_t line;         /* line address (aligned to line_bytes) */
	uint64_t lanes;        /* lanes served by this transaction */
	uint64_t byte_mask[2]; /* bytes of the line touched (bit i of [i/64]) */
	uint32_t sectors;      /* 32-byte sectors touched */
	uint32_t bytes;        /* transaction size: line_bytes (cached loads) or 32 * sectors */
};

/*
 * Coalesce lanes 0..nlanes-1 of `active` whose addresses are addr[lane],
 * each accessing `size` bytes (1..16), into out[] (room for COAL_MAX_TXNS).
 * line_bytes is a power of two in 32..128.  Returns the number of
 * transactions (0 if no lane is active or an argument is invalid).
 */
unsigned coal_warp(const uint64_t *addr, uint64_t active, unsigned nlanes, unsigned size, enum coal_kind kind,
		   unsigned line_bytes, struct coal_txn *out);

#endif
