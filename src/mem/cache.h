/*
 * cache.h -- generic set-associative, sectored cache with MSHRs.
 *
 * Models the tag/state arrays and miss-status holding registers of a GPU
 * cache as GPGPU-Sim's Fermi configuration does: the L1 data cache
 * (write-evict, no write-allocate for global stores, MSHRs that merge
 * misses to a pending line), the L1 instruction cache (read-only; or perfect, every read a hit), and one
 * L2 slice (write-back, write-allocate, dirty sectors written back on
 * eviction).  Lines are split into 32-byte sectors with their own valid and
 * dirty bits; LRU replacement (or, for the L1D's reads under CAWA's CACP,
 * criticality partitions with RRIP: cacp.h); a line with an outstanding
 * miss is "reserved" and never chosen as a victim.
 *
 * The cache only keeps state: it has no notion of time.  The owner (the
 * SM's LD/ST unit, or an L2 slice) applies hit latencies, sends the fetch,
 * write-back and forwarded requests it is told to, and calls cache_fill()
 * when fetched sectors arrive; fill returns the tokens of the accesses
 * that were waiting for them.
 */
#ifndef WARPSIM_MEM_CACHE_H
#define WARPSIM_MEM_CACHE_H

#include <stdbool.h>
#include <stdint.h>

#include "mem/cacp.h"
#include "mem/mem.h"

struct ws_config;
struct ws_stats;

enum cache_status {
	CACHE_HIT,              /* every requested sector is present */
	CACHE_HIT_RESERVED,     /* merged into a pending MSHR; the data is already on its way */
	CACHE_MISS,             /* miss: see fetch_mask / forward in the result */
	CACHE_RESERVATION_FAIL, /* no MSHR, no merge slot, or every way of the set reserved: retry next cycle */
};

enum cache_write_policy {
	CACHE_WRITE_EVICT,   /* a write hit invalidates the line; the write goes downstream (Fermi L1D, global) */
	CACHE_WRITE_THROUGH, /* a write hit updates the line; the write goes downstream */
	CACHE_WRITE_BACK,    /* a write updates the line and marks its sectors dirty (L2) */
};

/* Which set of counters an instance updates. */
enum cache_level { CACHE_STATS_NONE, CACHE_STATS_L1D, CACHE_STATS_L1I, CACHE_STATS_L2, CACHE_STATS_TEX };

struct cache_params {
	unsigned sets, ways;
	unsigned line_bytes;   /* power of two, 32..MEM_MAX_LINE_BYTES */
	unsigned mshrs;        /* MSHR entries */
	unsigned mshr_merge;   /* accesses one entry holds, the first miss included */
	bool mshr_sectors;     /* an MSHR entry per 32-byte sector, as GPGPU-Sim's sectored caches keep them
	                        * (mshr_addr at sector granularity): `mshrs` bounds the sectors awaiting a
	                        * fill and `mshr_merge` the accesses waiting for each sector; else an entry per
	                        * line, `mshr_merge` accesses per line */
	enum cache_write_policy write_policy;
	bool write_allocate;   /* a write miss allocates the line (without fetching it) */
	bool sector_fill;      /* a miss fetches only the missing requested sectors (else the whole line) */
	bool evict_sector;      /* write-evict: a write hit invalidates only the written sectors (else the
	                         * whole line), GPGPU-Sim's sector_cache_block::set_status */
	bool write_sector_miss; /* write-back: a write to sectors the line does not hold is a miss (nothing
	                         * fetched), as GPGPU-Sim's sectored L2 counts a SECTOR_MISS; else a hit */
	bool line_fill;         /* the fetched sectors of a miss become valid, and release its waiting accesses,
	                         * only when the last of them has arrived (GPGPU-Sim's line cache with sector
	                         * MSHRs, baseline_cache::fill); else each sector as it arrives */
	bool bypass;           /* cache nothing: every access is forwarded downstream */
	bool fermi_hash;       /* set index by GPGPU-Sim's Fermi hash (32 or 64 sets) instead of line mod sets */
	bool perfect;          /* read-only perfect cache: every read hits and nothing is kept (GPGPU-Sim's
				* perfect instruction cache); writes and atomics are not allowed */
	enum cache_level stats_level;
	bool cacp_on;          /* CAWA's CACP (cacp.h) for reads made with cache_access_cacp() */
	struct cacp_params cacp;
};

/*
 * Outcome of one access.  The owner must:
 *   - RESERVATION_FAIL: nothing changed; retry later.
 *   - fetch_mask != 0: send a read of those sectors of the line downstream
 *     and call cache_fill() when they arrive (the access waits in the MSHR
 *     and its token is returned by that fill).
 *   - forward: send the access itself downstream; its reply goes straight
 *     back to the requester (stores, atomics at an L1, bypassed accesses).
 *   - writeback: write the dirty sectors wb_mask of line wb_addr downstream.
 * HIT means the data is here now (the owner applies the hit latency).
 */
struct cache_result {
	enum cache_status status;
	uint32_t fetch_mask;
	bool forward;
	bool writeback;
	uint64_t wb_addr;
	uint32_t wb_mask;
};

/* NULL if the parameters are invalid or memory runs out.  stats may be NULL. */
struct cache *cache_create(const struct cache_params *p, struct ws_stats *stats);
void cache_destroy(struct cache *c);

/*
 * Access the line containing `addr`; `sectors` are the 32-byte sectors of
 * that line the access touches (0 is treated as all).  kind MEM_READ and
 * MEM_IFETCH read; MEM_WRITE writes under the write policy; MEM_ATOMIC is a
 * read-modify-write in a write-back cache and is forwarded (invalidating
 * any copy) in the others.  `token` identifies the access in cache_fill().
 */
struct cache_result cache_access(struct cache *c, uint64_t addr, uint32_t sectors, enum mem_kind kind,
				 uint64_t token);

/*
 * cache_access() of a read (MEM_READ) under CACP (cache_params.cacp_on):
 * `a` says the load's PC and whether its warp is critical; a fill goes to
 * the partition the CCBP predicts and evicts by RRIP inside it, and reuses,
 * fills and evictions train the predictors.  Without CACP (or a = NULL),
 * the same as cache_access().
 */
struct cache_result cache_access_cacp(struct cache *c, uint64_t addr, uint32_t sectors, uint64_t token,
				      const struct cacp_access *a);
/* The cache's CACP state (NULL without CACP), and the way of its set that
 * holds the line of `addr` (-1: absent), for tests. */
const struct cacp *cache_cacp(const struct cache *c);
int cache_way(const struct cache *c, uint64_t addr);

/*
 * Fetched sectors of the line containing `addr` arrived: mark them valid
 * and release (in arrival order) every waiting access that no longer waits
 * for a pending sector, writing their tokens to tokens[0..cap).  Returns
 * how many were written.  Waiters that do not fit stay and come out of a
 * later call (sectors may be 0); cap >= cache_max_merge() always suffices
 * (the accesses one line's MSHR can hold: mshr_merge, times the sectors per
 * line under mshr_sectors).
 * The MSHR is freed once nothing is pending and nobody waits.
 */
unsigned cache_fill(struct cache *c, uint64_t addr, uint32_t sectors, uint64_t *tokens, unsigned cap);

/*
 * Make sectors of the line containing `addr` valid (and dirty if `dirty`)
 * without any request: the L2 state a host-device copy leaves behind in
 * GPGPU-Sim (-gpgpu_perf_sim_memcpy 1).  A missing line takes the LRU way;
 * the victim's data is dropped (no write-back), as GPGPU-Sim's forced tag
 * fill does.  No counter changes.  False if every way is reserved.
 */
bool cache_install(struct cache *c, uint64_t addr, uint32_t sectors, bool dirty);

/* True if every sector of `sectors` of the line is valid (no state change;
 * always true for a perfect cache). */
bool cache_probe(const struct cache *c, uint64_t addr, uint32_t sectors);
/* True if the line has an outstanding miss. */
bool cache_pending(const struct cache *c, uint64_t addr);
unsigned cache_mshrs_in_use(const struct cache *c);
unsigned cache_max_merge(const struct cache *c);
unsigned cache_line_bytes(const struct cache *c);
/* Drop every line that has no outstanding miss (e.g. the L1s at a kernel
 * boundary); dirty data is discarded.  Returns the number of lines dropped. */
unsigned cache_invalidate(struct cache *c);
/* Count this cache's accesses in `stats` from now on (NULL: count nothing),
 * for a cache kept from one kernel launch to the next. */
void cache_set_stats(struct cache *c, struct ws_stats *stats);
/* Drop every line awaiting a fill and free every MSHR (the accesses waiting
 * in them are forgotten); the valid lines stay.  For a cache kept past the
 * end of a launch. */
void cache_drop_pending(struct cache *c);

/* Fill `p` from the configuration: CACHE_STATS_L1D, _L1I or _L2 (one slice). */
void cache_params_from_config(const struct ws_config *cfg, enum cache_level level, struct cache_params *p);

#endif
