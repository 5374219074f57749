/*
 * memsys.h -- the memory system below the SMs' L1 caches.
 *
 * Models the GPU's shared memory hierarchy: the request and reply
 * crossbars between the SMs and the L2 slices (icnt.c), the memory
 * partitions with their L2 slices, ROP and atomic units (l2.c) and their
 * GDDR5 channels (dram.c), in four clock domains -- core, interconnect, L2
 * and DRAM (GTX480: 700, 700, 700, 924 MHz).
 *
 * Clocks: every domain has an integer period in femtoseconds
 * (round(1e9 / MHz)); memsys_cycle() advances time by one core period and
 * ticks, in time order, every interconnect, L2 and DRAM clock edge up to
 * and including the new core edge; edges at the same instant tick DRAM,
 * then L2, then the interconnect.  No floating point after creation, so
 * runs are bit-reproducible.
 *
 * Use from the GPU loop, once per core cycle:
 *     memsys_cycle(m);                       -- memory side of this cycle
 *     for each SM: while (memsys_pop_reply(m, sm, &r)) ...;  then tick the SM,
 *                  which calls memsys_send() for its L1 misses, stores, atomics.
 * Every request gets exactly one reply: reads, instruction fetches and
 * atomics return data; a write returns a header-only acknowledgement once
 * the L2 has taken it (so the SM can count outstanding stores, e.g. for
 * membar or the end of a kernel) -- the SM must pop acks too.
 * The SM's L1D and L1I are cache.c instances owned by the SM core
 * (cache_params_from_config(cfg, CACHE_STATS_L1D / _L1I, &p)).
 */
#ifndef WARPSIM_MEM_MEMSYS_H
#define WARPSIM_MEM_MEMSYS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mem/mem.h"

struct ws_config;
struct ws_stats;

enum memsys_clock { MEMSYS_CLK_CORE, MEMSYS_CLK_ICNT, MEMSYS_CLK_L2, MEMSYS_CLK_DRAM, MEMSYS_CLK_COUNT };

/* Check the memory parameters of cfg; false with a message if invalid. */
bool memsys_check_config(const struct ws_config *cfg, char *err, size_t errsz);
/* NULL if the configuration is invalid (see memsys_check_config) or memory runs out. */
struct memsys *memsys_create(const struct ws_config *cfg, struct ws_stats *stats, unsigned num_sms);
void memsys_destroy(struct memsys *m);

/* Room in SM `sm`'s injection buffer for request r (NULL: for the largest
 * request, a header plus a full L2 line)? */
bool memsys_can_accept(const struct memsys *m, unsigned sm, const struct mem_req *r);
/* For reports: the flits request r takes in SM `sm`'s injection buffer,
 * and that buffer's occupancy ("p of P packets, f of F flits"). */
unsigned memsys_req_flits(const struct memsys *m, unsigned sm, const struct mem_req *r);
void memsys_describe_input(const struct memsys *m, unsigned sm, char *buf, size_t bufsz);
/* Inject a request from SM `sm`; false (nothing sent) if the buffer is full. */
bool memsys_send(struct memsys *m, unsigned sm, const struct mem_req *r);
/* Write acknowledgements a store r gets back: 1, or with l2_sector_writes one per
 * sector of its segment (mem_write_segment), each its own reply packet. */
unsigned memsys_write_acks(const struct memsys *m, const struct mem_req *r);
/* Pop one reply that has reached SM `sm`; false if none. */
bool memsys_pop_reply(struct memsys *m, unsigned sm, struct mem_reply *out);
/* Advance by one core clock period.  With `sleep`, a cycle inside the
 * quiet horizon (memsys_quiet_cycles, kept until a request is sent or a
 * cycle has events) only advances the clocks, as its edges would have
 * done nothing else -- also while SMs tick. */
void memsys_cycle(struct memsys *m);
/* Replies for SM `sm` in the reply network, arrived or not (the SM must be
 * ticked until they are popped). */
bool memsys_reply_pending(const struct memsys *m, unsigned sm);
/* Has a reply for SM `sm` arrived (memsys_pop_reply would return one now)? */
bool memsys_reply_ready(const struct memsys *m, unsigned sm);
/* For skipping eventless core cycles (the `sleep` parameter): how many
 * core cycles after the current one the memory system certainly does
 * nothing in but advance its clocks -- until an interconnect packet
 * arrives, an L2 partition wakes (l2_next_event), the DRAM controller
 * pipeline's head or read data becomes ready; 0 when packets wait in an
 * interconnect input buffer, DRAM has commands to schedule or a partition
 * is awake (or sleep is off); UINT64_MAX when nothing is in flight.
 * Found once per horizon and cached (hence not const). */
uint64_t memsys_quiet_cycles(struct memsys *m);
/* Advance `k` core cycles (at most memsys_quiet_cycles) without events:
 * every clock domain's cycle count, and the DRAM cycles counted. */
void memsys_skip(struct memsys *m, uint64_t k);
/* Activity tracking for the GPU loop: from now on, every reply put into the
 * reply network for SM i sets bit i of `wake` (a bitmap of at least num_sms
 * bits; NULL stops it).  Lets the loop skip SMs with nothing to do. */
void memsys_set_reply_wake(struct memsys *m, uint64_t *wake);
/* Count what SM `sm` sends and pops in `st` (NULL: the memory system's own
 * stats object) -- the GPU loop gives every SM its own block so that SMs
 * can tick on several threads.  False on OOM or a bad SM. */
bool memsys_set_sm_stats(struct memsys *m, unsigned sm, struct ws_stats *st);
/* The SMs' L1 instruction caches kept from one launch to the next
 * (l1i_persist; GPGPU-Sim never invalidates an SM's L1I): an SM's LD/ST unit
 * takes its L1I back at creation if the last launch on that SM ran the same
 * code (`code`: the launch's module; code addresses are per module) -- else
 * NULL, and any kept one is destroyed -- and hands it back at the end of the
 * launch (the memory system then owns it; false if `sm` is out of range). */
struct cache;
struct cache *memsys_l1i_take(struct memsys *m, unsigned sm, const void *code);
bool memsys_l1i_keep(struct memsys *m, unsigned sm, const void *code, struct cache *c);
/* Destroy every kept L1I that holds `code` (its module is being unloaded: a
 * module loaded later at the same address must not find its lines). */
void memsys_l1i_forget(struct memsys *m, const void *code);
/* Nothing in flight anywhere (L2s may still hold dirty lines). */
bool memsys_idle(const struct memsys *m);

/* Cycles elapsed in a clock domain. */
uint64_t memsys_cycles(const struct memsys *m, enum memsys_clock c);
/* Clock period of a domain in femtoseconds. */
uint64_t memsys_period_fs(const struct memsys *m, enum memsys_clock c);
/* Memory partition (DRAM channel) and global L2 slice of an address. */
unsigned memsys_partition_of(const struct memsys *m, uint64_t addr);
/* A host<->device copy of [addr, addr+bytes) went by: install its 32-byte
 * sectors, clean, in the L2 slices they map to, in address order (GPGPU-Sim's
 * perf_memcpy_to_gpu with -gpgpu_perf_sim_memcpy 1: its forced tag fill
 * leaves sectors valid, not modified).  No timing, no counters. */
void memsys_host_copy(struct memsys *m, uint64_t addr, uint64_t bytes);
unsigned memsys_slice_of(const struct memsys *m, uint64_t addr);

#endif
