/*
 * shmem.h -- shared-memory bank conflicts.
 *
 * Models the banked shared memory of a Fermi SM: `nbanks` banks (32),
 * each `bank_bytes` wide (4); consecutive words go to consecutive banks.
 * One pass serves, in every bank, one distinct word; lanes reading the
 * same word share it (broadcast, no conflict).  The cost of a warp access
 * is the number of passes:
 *   - accesses of at most bank_bytes: the whole warp is one group; cycles =
 *     the largest number of distinct words any bank must deliver (stride 1
 *     -> 1, stride 2 -> 2, stride 32 -> 32, all lanes one word -> 1);
 *   - wider accesses (8 and 16 bytes) follow the CC 2.x rule for 64-bit
 *     accesses: the warp is split into groups that together move one
 *     nbanks*bank_bytes-wide row (16 lanes for 8 bytes = half-warps, 8 lanes
 *     for 16 bytes); a conflict exists only between different words of the
 *     same bank inside a group, and the cycles of the groups add up.  So
 *     conflict-free doubles cost 2 cycles and float4 4 cycles, each lane's
 *     access occupying size/bank_bytes consecutive banks.
 * Groups with no active lane cost nothing; an empty mask returns 0.
 *
 * Atomics (shmem_atomic_passes) are read-modify-writes: every lane's
 * update is its own pass through its bank, so lanes that hit the same
 * word serialize instead of sharing a broadcast ("each read/modify/write
 * to that location occurs and they are all serialized", CUDA guide).  The
 * passes are the largest number of lanes any bank must serve (32 lanes
 * on one word -> 32; 32 distinct words in 32 banks -> 1).  The core turns
 * passes into cycles with its shmem_atomic_pass parameter.
 * Pure function; no allocation.
 */
#ifndef WARPSIM_MEM_SHMEM_H
#define WARPSIM_MEM_SHMEM_H

#include <stdint.h>

#define SHMEM_MAX_BANKS 64

/* Cycles (passes) a warp shared-memory access takes; 1 means no conflict.
 * size 1..16 bytes; nbanks 1..SHMEM_MAX_BANKS; bank_bytes 4 or 8 (any 1..16
 * works).  Invalid arguments are clamped into range. */
unsigned shmem_cycles(const uint64_t *addr, uint64_t active, unsigned nlanes, unsigned size, unsigned nbanks,
		      unsigned bank_bytes);

/* Read-modify-write passes of a warp shared-memory atomic (>= 1 when any
 * lane is active): like shmem_cycles, but without broadcast. */
unsigned shmem_atomic_passes(const uint64_t *addr, uint64_t active, unsigned nlanes, unsigned size, unsigned nbanks,
			     unsigned bank_bytes);

#endif
