/*
 * mem.h -- types shared by the memory-hierarchy modules (src/mem/).
 *
 * Models no hardware by itself.  It holds what travels between the SM's
 * load/store unit and the memory system (struct mem_req / mem_reply), the
 * packet the interconnect and the memory partitions carry (struct mem_pkt),
 * the address-to-partition interleaving (pure functions of struct mem_map),
 * and a small typed ring-buffer macro used for every bounded hardware queue
 * (preallocated once, no allocation in steady state).
 *
 * Sectors are 32 bytes throughout the hierarchy; a sector mask names the
 * 32-byte sectors of one cache line (bit i = bytes [32i, 32i+32)).
 */
#ifndef WARPSIM_MEM_MEM_H
#define WARPSIM_MEM_MEM_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "util/bits.h"

#define MEM_SECTOR_BYTES 32u
#define MEM_MAX_LINE_BYTES 128u /* largest cache line any module accepts */

/* What a request asks the memory system to do. */
enum mem_kind {
	MEM_READ,   /* global/local load miss or uncached load: reply carries the sectors' data */
	MEM_WRITE,  /* store: carries `bytes` of data; the reply is a header-only acknowledgement */
	MEM_ATOMIC, /* atomic/reduction: performed at the L2; reply carries `bytes` of old values */
	MEM_IFETCH, /* instruction-cache miss: like MEM_READ */
	MEM_KIND_COUNT
};

/*
 * A request from an SM.  `addr` is the address of the block the sector
 * mask refers to (normally a cache-line address); bit i of `sectors` is the
 * 32-byte sector at addr + 32*i.  The block must not cross an L2 line
 * (memsys clips sectors beyond it).  `bytes` is the data the request
 * carries (MEM_WRITE, MEM_ATOMIC); 0 means 32 per sector.  `token` is
 * opaque to the memory system and comes back in the reply.  `fill`: a read
 * that fills a sectored cache, which takes its sectors in any order, so the
 * memory system may answer it with one reply per sector (l2_sector_requests).
 */
struct mem_req {
	uint64_t addr;
	uint64_t token;
	uint32_t sectors;
	uint32_t bytes;
	enum mem_kind kind;
	bool fill;
	/* statistics only: core cycles the access spent before this send since
	 * GPGPU-Sim's averagemflatency starts timing it (its mem_fetch is made
	 * when the access enters the l1d_latency_queue); 0 without the queue */
	uint64_t waited;
};

/* A reply delivered to an SM: the request's addr/sectors/kind/token. */
struct mem_reply {
	uint64_t addr;
	uint64_t token;
	uint32_t sectors;
	uint32_t bytes; /* data bytes the reply packet carried (0 for a write ack) */
	enum mem_kind kind;
};

/* What the interconnect and the partitions carry (requests and replies). */
struct mem_pkt {
	uint64_t addr;       /* the request's addr (returned in the reply) */
	uint64_t token;
	uint64_t line;       /* L2 line address (global) */
	uint32_t sectors;    /* the request's sector mask (relative to addr) */
	uint32_t l2_sectors; /* the same sectors relative to `line` */
	uint32_t bytes;      /* data bytes of the request (write/atomic) */
	uint32_t sm;         /* requesting SM */
	enum mem_kind kind;
	bool fill;           /* mem_req.fill */
	uint64_t sent;       /* core cycle the SM sent it (round-trip latency statistics) */
	uint64_t began;      /* core cycle the access began: sent - mem_req.waited (statistics) */
	uint64_t at_l2;      /* core cycle it reached its L2 slice (statistics) */
	uint64_t replied;    /* core cycle its reply entered the interconnect (statistics) */
};

static inline unsigned mem_popcount(uint64_t x) { return ws_popc64(x); }

/*
 * The sectors of a store's segment as GPGPU-Sim's Fermi coalescer sizes it
 * (warp_inst_t::memory_coalescing_arch_reduce_and_send): of each 128-byte
 * block (four sectors of `sectors`, a mask of one line), one sector when
 * the store touches one, the aligned 64-byte half when it touches only that
 * half, else all four, the untouched ones included.  Its sectored L2 splits
 * the store into one request per sector of this segment
 * (memory_sub_partition::breakdown_request_to_sector_requests).
 */
static inline uint32_t mem_write_segment(uint32_t sectors)
{
	uint32_t out = 0;
	for (unsigned b = 0; b < 32; b += 4) {
		uint32_t q = sectors >> b & 0xfu;
		if (!q)
			continue;
		uint32_t seg = !(q & (q - 1)) ? q : !(q & 0xcu) ? 0x3u : !(q & 0x3u) ? 0xcu : 0xfu;
		out |= seg << b;
	}
	return out;
}

/*
 * Address interleaving over memory partitions and L2 slices.
 * The address space is cut into `chunk`-byte chunks; chunk k goes to
 * partition k mod parts; inside a partition the chunks it owns are numbered
 * densely (the partition-local address, which the DRAM maps to bank, row
 * and column) and dealt round-robin to its `slices` L2 slices (the
 * slice-local address, which the slice's cache uses for set indexing, so
 * every set of every slice is reachable).
 */
struct mem_map {
	uint32_t parts;  /* memory partitions (= DRAM channels) */
	uint32_t slices; /* L2 slices (sub-partitions) per partition */
	uint32_t chunk;  /* interleaving granularity in bytes */
};

static inline unsigned mem_partition_of(const struct mem_map *m, uint64_t addr)
{
	return (unsigned)((addr / m->chunk) % m->parts);
}
/* Partition-local byte address. */
static inline uint64_t mem_part_local(const struct mem_map *m, uint64_t addr)
{
	return (addr / m->chunk / m->parts) * m->chunk + addr % m->chunk;
}
/* Slice inside its partition (0..slices-1). */
static inline unsigned mem_slice_in_part(const struct mem_map *m, uint64_t addr)
{
	return (unsigned)((addr / m->chunk / m->parts) % m->slices);
}
/* Global slice index part*slices + slice: the interconnect port of the slice. */
static inline unsigned mem_slice_of(const struct mem_map *m, uint64_t addr)
{
	return mem_partition_of(m, addr) * m->slices + mem_slice_in_part(m, addr);
}
/* Slice-local byte address (dense inside one slice). */
static inline uint64_t mem_slice_local(const struct mem_map *m, uint64_t addr)
{
	return (addr / m->chunk / m->parts / m->slices) * m->chunk + addr % m->chunk;
}
/* Inverse: slice-local address of slice `slice` -> partition-local address. */
static inline uint64_t mem_slice_to_part_local(const struct mem_map *m, unsigned slice, uint64_t slocal)
{
	return ((slocal / m->chunk) * m->slices + slice) * m->chunk + slocal % m->chunk;
}
/* Inverse: partition-local address of partition `part` -> global address. */
static inline uint64_t mem_part_to_global(const struct mem_map *m, unsigned part, uint64_t plocal)
{
	return ((plocal / m->chunk) * m->parts + part) * m->chunk + plocal % m->chunk;
}

/*
 * MEM_RING(name, T): a bounded FIFO of T with capacity fixed at init.
 *   name_init(r, cap) -> false on allocation failure;  name_free(r)
 *   name_full(r), name_empty(r), name_front(r) (valid only when not empty),
 *   name_push(r) -> slot to fill (only when not full), name_pop(r),
 *   name_at(r, i) -> i-th oldest element.
 */
#define MEM_RING(name, T)                                                                                     \
	struct name {                                                                                         \
		T *buf;                                                                                       \
		uint32_t head, n, cap;                                                                        \
	};                                                                                                    \
	__attribute__((unused)) static inline bool name##_init(struct name *r, uint32_t cap)                \
	{                                                                                                     \
		r->buf = (T *)calloc(cap ? cap : 1, sizeof(T));                                               \
		r->head = r->n = 0;                                                                           \
		r->cap = cap;                                                                                 \
		return r->buf != NULL;                                                                        \
	}                                                                                                     \
	__attribute__((unused)) static inline void name##_free(struct name *r)                               \
	{                                                                                                     \
		free(r->buf);                                                                                 \
		r->buf = NULL;                                                                                \
		r->n = r->cap = 0;                                                                            \
	}                                                                                                     \
	__attribute__((unused)) static inline bool name##_full(const struct name *r) { return r->n >= r->cap; } \
	__attribute__((unused)) static inline bool name##_empty(const struct name *r) { return r->n == 0; }     \
	__attribute__((unused)) static inline T *name##_front(const struct name *r) { return &r->buf[r->head]; } \
	__attribute__((unused)) static inline T *name##_at(const struct name *r, uint32_t i)                 \
	{                                                                                                     \
		uint32_t k = r->head + i;                                                                     \
		return &r->buf[k >= r->cap ? k - r->cap : k];                                                 \
	}                                                                                                     \
	__attribute__((unused)) static inline T *name##_push(struct name *r)                                 \
	{                                                                                                     \
		uint32_t k = r->head + r->n;                                                                  \
		r->n++;                                                                                       \
		return &r->buf[k >= r->cap ? k - r->cap : k];                                                 \
	}                                                                                                     \
	__attribute__((unused)) static inline void name##_pop(struct name *r)                                \
	{                                                                                                     \
		if (++r->head >= r->cap)                                                                      \
			r->head = 0;                                                                          \
		r->n--;                                                                                       \
	}

#endif
