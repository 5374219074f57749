/*
 * ccache.c -- the constant cache (L1C) of an SM (see ccache.h for the model).
 */
#include <stdlib.h>

#include "config/config.h"
#include "mem/ccache.h"
#include "mem/mem_params.h"

/* Where the constant bank and the parameter buffer lie in the address space
 * the cache and the L2 see (the LD/ST unit's code and local regions are at
 * 0x7f00... and 0x7f80...). */
#define CCACHE_CONST_BASE 0x00007e8000000000ull
#define CCACHE_PARAM_BASE 0x00007ec000000000ull
#define CCACHE_REGION_MASK ((1ull << 38) - 1)

struct ccache {
	struct cache *tags;
	unsigned line_bytes;
	uint64_t port_cycle; /* 1 + the cycle of the last hit, which held the data port (0: none) */
};

struct ccache *ccache_create(const struct ws_config *cfg)
{
	struct ccache *c = calloc(1, sizeof *c);
	if (!c)
		return NULL;
	struct cache_params p = {
	    .sets = (unsigned)cfg_int(cfg, CFG_ccache_sets),
	    .ways = (unsigned)cfg_int(cfg, CFG_ccache_ways),
	    .line_bytes = (unsigned)cfg_int(cfg, CFG_ccache_line_bytes),
	    .mshrs = (unsigned)cfg_int(cfg, CFG_ccache_mshrs),
	    .mshr_merge = (unsigned)cfg_int(cfg, CFG_ccache_mshr_merge),
	    .write_policy = CACHE_WRITE_EVICT, /* read-only: never written */
	    .stats_level = CACHE_STATS_NONE,
	};
	c->tags = cache_create(&p, NULL);
	c->line_bytes = p.line_bytes;
	if (!c->tags) {
		ccache_destroy(c);
		return NULL;
	}
	return c;
}

void ccache_destroy(struct ccache *c)
{
	if (!c)
		return;
	cache_destroy(c->tags);
	free(c);
}

unsigned ccache_split(const struct ccache *c, bool param, const uint64_t *addr, uint64_t lanes, unsigned nlanes,
                      unsigned size, struct coal_txn *out)
{
	uint64_t base = param ? CCACHE_PARAM_BASE : CCACHE_CONST_BASE, a[64];
	for (uint64_t m = lanes; m; m &= m - 1) {
		unsigned l = (unsigned)__builtin_ctzll(m);
		a[l] = base + (addr[l] & CCACHE_REGION_MASK);
	}
	/* one access per distinct line, of the whole line, lowest lane first */
	return coal_warp(a, lanes, nlanes, size, COAL_LOAD_CACHED, c->line_bytes, out);
}

struct cache_result ccache_access(struct ccache *c, uint64_t line, uint64_t token, uint64_t now)
{
	if (c->port_cycle == now + 1)
		return (struct cache_result){.status = CACHE_RESERVATION_FAIL};
	struct cache_result r = cache_access(c->tags, line, 0, MEM_READ, token);
	if (r.status == CACHE_HIT) /* only a hit reads the data array (a line: one cycle) */
		c->port_cycle = now + 1;
	return r;
}

unsigned ccache_fill(struct ccache *c, uint64_t line, uint32_t sectors, uint64_t *tokens, unsigned cap)
{
	return cache_fill(c->tags, line, sectors, tokens, cap);
}
