/*
 * l2.h -- one memory partition: its L2 slices and its DRAM channel.
 *
 * Models a GPGPU-Sim memory partition (GTX480: 6 partitions, each with 2
 * L2 sub-partitions = slices of 64 KB and one GDDR5 channel).  Per slice:
 *   interconnect -> ROP pipeline (rop_latency L2 cycles, GPGPU-Sim's
 *   rop_latency) -> L2 access (one per L2 cycle; cache.c write-back,
 *   write-allocate, sectored, with MSHRs) -> on a hit the reply (read data,
 *   or a header-only write ack) enters the L2->interconnect queue; on a miss
 *   the missing sectors go to the L2->DRAM queue and the request waits in
 *   the MSHR; a DRAM fill (one per L2 cycle) releases the waiting requests,
 *   which then leave at one reply per cycle.  Dirty evictions go to DRAM as
 *   writes.  Atomics: an L2 access that needs the data (a miss fetches it)
 *   and marks the sectors dirty, then atomic_latency cycles in the slice's
 *   atomic unit, which pipelines atomics to different lines but serializes
 *   back-to-back atomics to the same line, then the reply (the values are
 *   computed by the functional model at issue; only timing is modelled).
 * Per partition: the slices' L2->DRAM queues are served round-robin, one
 * request per L2 cycle, into the memory-controller pipeline (dram_latency
 * L2 cycles, GPGPU-Sim's dram_latency), then the DRAM scheduler queue; read
 * data goes back to the slice that asked.
 * With sector_requests (GPGPU-Sim's sectored L2) a cache fill of n sectors
 * enters the ROP pipeline as n one-sector requests: n L2 access cycles, n
 * replies.  With sector_writes a store does the same over the sectors of its
 * segment (mem_write_segment): n accesses, each a miss when its sector is
 * not valid, and n write acknowledgements (memsys_write_acks), as GPGPU-Sim's
 * memory_sub_partition::push and breakdown_request_to_sector_requests do.
 * Addresses: a slice works in its slice-local address space (see
 * mem_map in mem.h); DRAM sees partition-local addresses.
 */
#ifndef WARPSIM_MEM_L2_H
#define WARPSIM_MEM_L2_H

#include <stdbool.h>
#include <stdint.h>

#include "mem/cache.h"
#include "mem/dram.h"
#include "mem/mem.h"

struct ws_stats;

struct l2_params {
	struct cache_params cache; /* one slice */
	struct dram_params dram;
	struct mem_map map;
	unsigned part;             /* this partition's index */
	unsigned rop_latency;      /* L2 cycles */
	unsigned atomic_latency;   /* L2 cycles */
	unsigned queue;            /* entries of L2<->DRAM, reply and atomic-unit queues */
	unsigned dram_latency;     /* L2 cycles */
	bool sector_requests;      /* split a multi-sector fill into one request (access, reply) per sector */
	bool sector_writes;        /* split a store into one request (access, ack) per sector of its segment */
};

struct l2_part *l2_part_create(const struct l2_params *p, struct ws_stats *stats); /* NULL on error */
void l2_part_destroy(struct l2_part *l);

/* Install sectors of line `line` (a global address) in slice s's tag array
 * without traffic (host-device copies; see cache_install). */
void l2_install(struct l2_part *l, unsigned s, uint64_t line, uint32_t sectors);

/* Can slice `s` (0..slices-1) take a request from the interconnect now?
 * (l2_accept stamps the request with the cycle of the last l2_cycle.) */
bool l2_can_accept(const struct l2_part *l, unsigned s);
/* Hand slice `s` a request that arrived from the interconnect (false: no room now).  With
 * sector_requests a cache fill (pkt->fill) of n sectors, with sector_writes a store whose
 * segment has n sectors, enters as n one-sector requests and needs n free entries. */
bool l2_accept(struct l2_part *l, unsigned s, const struct mem_pkt *pkt);
/* The oldest reply of slice `s` waiting for the interconnect, or NULL; the
 * reply is the request packet (kind, token, sm, addr, sectors, bytes). */
const struct mem_pkt *l2_peek_reply(const struct l2_part *l, unsigned s);
void l2_pop_reply(struct l2_part *l, unsigned s);

/* L2-clock cycle number `l2_now` (increasing; cycles in which the partition
 * is idle may be skipped): all slices, then L2->DRAM queues into the
 * controller pipeline. */
void l2_cycle(struct l2_part *l, uint64_t l2_now);
/* One DRAM-clock cycle at DRAM cycle `dram_now` (returns, pipeline ->
 * scheduler, one command).  True if it handed read data to a slice (the
 * L2 side has work at its next cycle). */
bool l2_dram_cycle(struct l2_part *l, uint64_t dram_now);
/* After l2_cycle: the first L2 cycle at which l2_cycle could do anything,
 * if no request arrives and the DRAM side hands back no data before then:
 * a request leaving the ROP pipeline or the atomic unit, or the next cycle
 * when something is ready or queued now; UINT64_MAX if nothing in the
 * slices waits on a timer. */
uint64_t l2_next_event(const struct l2_part *l);
/* The partition's L2 clock advanced to `l2_now` without l2_cycle (a cycle
 * in which it could do nothing: l2_next_event). */
void l2_set_now(struct l2_part *l, uint64_t l2_now);
/* For skipping eventless cycles: false if the DRAM side works at its next
 * cycle (commands queued); otherwise *l2_at, the L2 cycle at which the
 * controller pipeline's head becomes ready (UINT64_MAX: empty), and
 * *dram_at, the DRAM cycle at which read data is ready to return
 * (UINT64_MAX: none). */
bool l2_dram_quiet(const struct l2_part *l, uint64_t *l2_at, uint64_t *dram_at);
/* Nothing queued or in flight in the partition (its L2 may hold dirty lines). */
bool l2_idle(const struct l2_part *l);
/* Something to do at L2 edges (a request in a slice or in its DRAM queues)? */
bool l2_has_work(const struct l2_part *l);
/* The L2 cycle of the last l2_cycle call. */
uint64_t l2_now(const struct l2_part *l);

#endif
