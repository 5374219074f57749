/*
 * ccache.h -- the constant cache (L1C) of an SM, as GPGPU-Sim models it.
 *
 * Constant (ld.const) and kernel-parameter (ld.param) loads read through a
 * small read-only cache per SM (GPGPU-Sim's -gpgpu_const_cache:l1, on the
 * GTX480 N:64:64:2,L:R:f:N:L,S:2:32,4: 64 sets x 64-byte lines x 2 ways,
 * LRU, 2 MSHR entries each merging up to 32 accesses).  Its timing, as
 * ldst_unit::constant_cycle and the read-only cache give it:
 *   - a warp's load is one access per distinct line its lanes touch, in
 *     the order of the lowest lane (GPGPU-Sim's const_space coalescing:
 *     the whole warp, no sub-warp split), so a divergent constant load
 *     serialises: at most one access a cycle (the LD/ST unit sends one a
 *     cycle), and a hit occupies the single data port for that cycle (port
 *     width = line size), so no other access, hit or miss, of that SM's
 *     constant cache starts in it;
 *   - a hit returns its data after the hit latency (the LD/ST unit's
 *     lat_const);
 *   - a miss takes an MSHR (or merges into the one pending for its line)
 *     and fetches the whole line from the L2; the load completes when the
 *     line arrives;
 *   - no free MSHR, or a full merge list, is a reservation fail: the
 *     access is retried next cycle and the LD/ST pipeline stalls behind it
 *     (GPGPU-Sim's gpgpu_n_cmem_portconflict / c_mem resource stalls).
 * Constant and parameter addresses are offsets in their banks; the cache
 * (and the L2 below it) sees them in two private regions of the address
 * space, so they never alias global data.
 *
 * Enabled by const_cache (src/mem/mem_params.def); when off, the LD/ST unit
 * times constant loads as the fixed latency lat_const.  The cache counts no
 * statistics of its own (its misses are L2 traffic like any other).
 */
#ifndef WARPSIM_MEM_CCACHE_H
#define WARPSIM_MEM_CCACHE_H

#include <stdbool.h>
#include <stdint.h>

#include "mem/cache.h"
#include "mem/coalesce.h"

struct ws_config;
struct ccache;

/* NULL when the parameters are invalid or memory runs out. */
struct ccache *ccache_create(const struct ws_config *cfg);
void ccache_destroy(struct ccache *c);

/*
 * Split a warp's load from the constant bank (param false) or the kernel
 * parameter buffer (param true) into its accesses: lanes `lanes` (of
 * nlanes) at offsets addr[lane], `size` bytes each.  Writes one transaction
 * per distinct line (line = the cache's address of it) to out[] (room for
 * COAL_MAX_TXNS) and returns how many.
 */
unsigned ccache_split(const struct ccache *c, bool param, const uint64_t *addr, uint64_t lanes, unsigned nlanes,
                      unsigned size, struct coal_txn *out);

/*
 * One access of the line `line` (from ccache_split) at cycle `now`, waiting
 * as `token` on a miss.  CACHE_RESERVATION_FAIL when the data port already
 * served a hit this cycle or no MSHR can take the miss (nothing
 * changed: retry); on CACHE_MISS with fetch_mask != 0 the owner sends a
 * read of the line to the L2 and calls ccache_fill() with its reply.
 */
struct cache_result ccache_access(struct ccache *c, uint64_t line, uint64_t token, uint64_t now);

/* The line arrived: the tokens of the accesses waiting for it (see cache_fill). */
unsigned ccache_fill(struct ccache *c, uint64_t line, uint32_t sectors, uint64_t *tokens, unsigned cap);

#endif
