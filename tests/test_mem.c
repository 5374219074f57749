/*
 * test_mem.c -- memory-hierarchy tests (src/mem/): the cache (hit, miss,
 * MSHR merge, reservation fails, LRU order, write-evict, write-back,
 * sector fills, the L2's per-sector counts, bypass), CAWA's CACP (partitions, predictor training, RRIP,
 * off = LRU exactly), the constant cache (one access per distinct line, its
 * data port, its MSHRs), the coalescer, shared-memory bank conflicts, the
 * address interleaving, the crossbar, the DRAM channel (row hit vs miss
 * latency, FR-FCFS reordering, peak bandwidth, write drain), and the whole
 * memory system (unloaded L2-hit and DRAM latencies as configured,
 * streaming bandwidth near and never above the DRAM peak, write acks,
 * atomic serialization, per-sector L2 requests, clock ratios, determinism).
 */
#include <stdlib.h>
#include <string.h>

#include "config/config.h"
#include "mem/cache.h"
#include "mem/ccache.h"
#include "mem/coalesce.h"
#include "mem/dram.h"
#include "mem/icnt.h"
#include "mem/l1q.h"
#include "mem/mem.h"
#include "mem/mem_counters.h"
#include "mem/mem_params.h"
#include "mem/memsys.h"
#include "mem/shmem.h"
#include "stats/stats.h"
#include "test.h"

/* ---------------------------------------------------------------- cache */

static struct cache_params l1_params(unsigned sets, unsigned ways, unsigned mshrs, unsigned merge)
{
	struct cache_params p = {.sets = sets, .ways = ways, .line_bytes = 128, .mshrs = mshrs, .mshr_merge = merge,
				 .write_policy = CACHE_WRITE_EVICT, .write_allocate = false, .sector_fill = false,
				 .bypass = false, .stats_level = CACHE_STATS_L1D};
	return p;
}

/* Line address of line `i` of set `s` in a cache with `sets` sets of 128-byte lines. */
static uint64_t line_of(unsigned sets, unsigned s, unsigned i) { return ((uint64_t)i * sets + s) * 128; }

TEST(mem_cache_hit_miss_merge)
{
	struct ws_stats st;
	memset(&st, 0, sizeof st);
	struct cache_params p = l1_params(4, 2, 2, 2);
	struct cache *c = cache_create(&p, &st);
	CHECK(c != NULL);
	if (!c)
		return;
	uint64_t A = 0x1000;
	struct cache_result r = cache_access(c, A + 4, 0x1, MEM_READ, 11);
	CHECK_EQ(r.status, CACHE_MISS);
	CHECK_EQ(r.fetch_mask, 0xF); /* whole-line fill */
	CHECK(!r.forward && !r.writeback);
	CHECK(cache_pending(c, A));
	r = cache_access(c, A + 64, 0x4, MEM_READ, 12);
	CHECK_EQ(r.status, CACHE_HIT_RESERVED);
	CHECK_EQ(r.fetch_mask, 0);
	r = cache_access(c, A, 0x1, MEM_READ, 13); /* merge slots (2) exhausted */
	CHECK_EQ(r.status, CACHE_RESERVATION_FAIL);
	CHECK(!cache_probe(c, A, 0x1));
	uint64_t tok[8];
	unsigned n = cache_fill(c, A, 0xF, tok, 8);
	CHECK_EQ(n, 2);
	CHECK_EQ(tok[0], 11);
	CHECK_EQ(tok[1], 12);
	CHECK(!cache_pending(c, A));
	CHECK_EQ(cache_mshrs_in_use(c), 0);
	r = cache_access(c, A, 0x1, MEM_READ, 13);
	CHECK_EQ(r.status, CACHE_HIT);
	/* MSHR exhaustion: two entries. */
	CHECK_EQ(cache_access(c, 0x2000, 0x1, MEM_READ, 1).status, CACHE_MISS);
	CHECK_EQ(cache_access(c, 0x3000, 0x1, MEM_READ, 2).status, CACHE_MISS);
	CHECK_EQ(cache_mshrs_in_use(c), 2);
	CHECK_EQ(cache_access(c, 0x4000, 0x1, MEM_READ, 3).status, CACHE_RESERVATION_FAIL);
	/* A fill of an unrelated line changes nothing. */
	CHECK_EQ(cache_fill(c, 0x5000, 0xF, tok, 8), 0);
	CHECK_EQ(cache_fill(c, 0x2000, 0xF, tok, 8), 1);
	CHECK_EQ(tok[0], 1);
	CHECK_EQ(cache_access(c, 0x4000, 0x1, MEM_READ, 3).status, CACHE_MISS);
	CHECK_EQ(st.v[STAT_l1d_accesses], 6);
	CHECK_EQ(st.v[STAT_l1d_hits], 1);
	CHECK_EQ(st.v[STAT_l1d_misses], 4);
	CHECK_EQ(st.v[STAT_l1d_hit_reserved], 1);
	CHECK_EQ(st.v[STAT_l1d_res_fails], 2);
	cache_destroy(c);
}

/* line_fill (l1d_line_fill, GPGPU-Sim's line cache with sector MSHRs): a miss's sectors
 * arriving one by one release nobody and stay invalid until the last is back, so a load of
 * the first sector waits for the whole line and a fence's invalidation in between leaves no
 * part of the line valid; without it each sector is valid, and releases its loads, at once. */
TEST(mem_cache_line_fill)
{
	for (int whole = 0; whole < 2; whole++) {
		struct cache_params p = l1_params(4, 2, 2, 4);
		p.line_fill = whole;
		struct cache *c = cache_create(&p, NULL);
		CHECK(c != NULL);
		if (!c)
			return;
		uint64_t A = 0x1000, tok[8];
		CHECK_EQ(cache_access(c, A, 0x1, MEM_READ, 11).fetch_mask, 0xF);
		CHECK_EQ(cache_access(c, A, 0x8, MEM_READ, 12).status, CACHE_HIT_RESERVED);
		CHECK_EQ(cache_fill(c, A, 0x1, tok, 8), whole ? 0 : 1); /* sector 0 back */
		CHECK_EQ(cache_probe(c, A, 0x1), !whole);
		/* a new load of sector 0 merges (nothing fetched again) or hits */
		struct cache_result r = cache_access(c, A, 0x1, MEM_READ, 13);
		CHECK_EQ(r.status, whole ? CACHE_HIT_RESERVED : CACHE_HIT);
		CHECK_EQ(r.fetch_mask, 0);
		cache_invalidate(c); /* a fence: the pending line stays reserved */
		CHECK_EQ(cache_probe(c, A, 0x1), !whole);
		CHECK_EQ(cache_fill(c, A, 0x6, tok, 8), 0);
		unsigned n = cache_fill(c, A, 0x8, tok, 8); /* the last sector */
		CHECK_EQ(n, whole ? 3 : 1);
		CHECK_EQ(tok[0], whole ? 11 : 12);
		CHECK(cache_probe(c, A, 0xF)); /* the late fill refills the line after the fence */
		CHECK_EQ(cache_mshrs_in_use(c), 0);
		cache_destroy(c);
	}
}

TEST(mem_cache_lru_eviction_order)
{
	struct ws_stats st;
	memset(&st, 0, sizeof st);
	struct cache_params p = l1_params(2, 4, 8, 4);
	struct cache *c = cache_create(&p, &st);
	CHECK(c != NULL);
	if (!c)
		return;
	uint64_t tok[4];
	for (unsigned i = 0; i < 4; i++) { /* lines 0..3 of set 1 */
		uint64_t a = line_of(2, 1, i);
		CHECK_EQ(cache_access(c, a, 0xF, MEM_READ, i).status, CACHE_MISS);
		CHECK_EQ(cache_fill(c, a, 0xF, tok, 4), 1);
	}
	/* Touch 0 and 2: LRU order is now 1, 3, 0, 2. */
	CHECK_EQ(cache_access(c, line_of(2, 1, 0), 0x1, MEM_READ, 0).status, CACHE_HIT);
	CHECK_EQ(cache_access(c, line_of(2, 1, 2), 0x1, MEM_READ, 0).status, CACHE_HIT);
	/* A line of the other set evicts nothing here. */
	CHECK_EQ(cache_access(c, line_of(2, 0, 9), 0x1, MEM_READ, 0).status, CACHE_MISS);
	CHECK_EQ(st.v[STAT_l1d_evictions], 0);
	static const unsigned expect_victim[4] = {1, 3, 0, 2};
	for (unsigned k = 0; k < 4; k++) {
		uint64_t a = line_of(2, 1, 10 + k);
		CHECK_EQ(cache_access(c, a, 0xF, MEM_READ, 0).status, CACHE_MISS);
		CHECK_EQ(cache_fill(c, a, 0xF, tok, 4), 1);
		CHECK_MSG(!cache_probe(c, line_of(2, 1, expect_victim[k]), 0xF), "victim %u expected evicted", k);
		for (unsigned j = k + 1; j < 4; j++)
			CHECK(cache_probe(c, line_of(2, 1, expect_victim[j]), 0xF));
	}
	CHECK_EQ(st.v[STAT_l1d_evictions], 4);
	CHECK_EQ(st.v[STAT_l1d_writebacks], 0);
	cache_destroy(c);
}

TEST(mem_cache_reserved_ways_fail)
{
	struct cache_params p = l1_params(1, 2, 8, 4);
	struct cache *c = cache_create(&p, NULL);
	CHECK(c != NULL);
	if (!c)
		return;
	CHECK_EQ(cache_access(c, 0x000, 0x1, MEM_READ, 1).status, CACHE_MISS);
	CHECK_EQ(cache_access(c, 0x080, 0x1, MEM_READ, 2).status, CACHE_MISS);
	/* Both ways reserved: a third line cannot allocate although MSHRs are free. */
	CHECK_EQ(cache_access(c, 0x100, 0x1, MEM_READ, 3).status, CACHE_RESERVATION_FAIL);
	uint64_t tok[4];
	CHECK_EQ(cache_fill(c, 0x080, 0xF, tok, 4), 1);
	CHECK_EQ(cache_access(c, 0x100, 0x1, MEM_READ, 3).status, CACHE_MISS);
	CHECK(!cache_probe(c, 0x080, 0x1)); /* the only unreserved way was the victim */
	CHECK(cache_pending(c, 0x000));
	cache_destroy(c);
}

TEST(mem_cache_write_evict)
{
	struct ws_stats st;
	memset(&st, 0, sizeof st);
	struct cache_params p = l1_params(4, 2, 4, 4);
	struct cache *c = cache_create(&p, &st);
	CHECK(c != NULL);
	if (!c)
		return;
	uint64_t tok[4];
	CHECK_EQ(cache_access(c, 0x1000, 0x1, MEM_READ, 1).status, CACHE_MISS);
	CHECK_EQ(cache_fill(c, 0x1000, 0xF, tok, 4), 1);
	CHECK(cache_probe(c, 0x1000, 0xF));
	struct cache_result r = cache_access(c, 0x1000, 0x2, MEM_WRITE, 2);
	CHECK_EQ(r.status, CACHE_HIT);
	CHECK(r.forward);
	CHECK_EQ(r.fetch_mask, 0);
	CHECK(!cache_probe(c, 0x1000, 0x1)); /* the whole line is gone */
	CHECK_EQ(cache_access(c, 0x1000, 0x1, MEM_READ, 3).status, CACHE_MISS);
	/* Write miss: forwarded, not allocated. */
	r = cache_access(c, 0x2000, 0xF, MEM_WRITE, 4);
	CHECK_EQ(r.status, CACHE_MISS);
	CHECK(r.forward);
	CHECK(!cache_probe(c, 0x2000, 0x1) && !cache_pending(c, 0x2000));
	/* A store to a line whose fill is pending: the fill still releases the
	 * waiting load, but the line is dropped afterwards. */
	r = cache_access(c, 0x1000, 0x1, MEM_WRITE, 5);
	CHECK(r.forward);
	CHECK_EQ(cache_fill(c, 0x1000, 0xF, tok, 4), 1);
	CHECK_EQ(tok[0], 3);
	CHECK(!cache_probe(c, 0x1000, 0x1));
	/* Atomics are never cached at a write-evict cache. */
	CHECK_EQ(cache_access(c, 0x3000, 0x1, MEM_READ, 6).status, CACHE_MISS);
	CHECK_EQ(cache_fill(c, 0x3000, 0xF, tok, 4), 1);
	r = cache_access(c, 0x3000, 0x1, MEM_ATOMIC, 7);
	CHECK(r.forward);
	CHECK(!cache_probe(c, 0x3000, 0x1));
	CHECK_EQ(st.v[STAT_l1d_writebacks], 0);
	cache_destroy(c);
}

/* l1d_write_evict_sector: a write hit invalidates only its sectors (GPGPU-Sim's
 * sectored dl1, data_cache::wr_hit_we); an atomic still drops the whole line. */
TEST(mem_cache_write_evict_sector)
{
	struct cache_params p = l1_params(4, 2, 4, 4);
	p.sector_fill = true;
	p.evict_sector = true;
	struct cache *c = cache_create(&p, NULL);
	CHECK(c != NULL);
	if (!c)
		return;
	uint64_t tok[4];
	CHECK_EQ(cache_access(c, 0x1000, 0xF, MEM_READ, 1).status, CACHE_MISS);
	CHECK_EQ(cache_fill(c, 0x1000, 0xF, tok, 4), 1);
	struct cache_result r = cache_access(c, 0x1000, 0x2, MEM_WRITE, 2);
	CHECK_EQ(r.status, CACHE_HIT);
	CHECK(r.forward);
	CHECK(!cache_probe(c, 0x1000, 0x2));
	CHECK(cache_probe(c, 0x1000, 0xD)); /* the other sectors stay */
	CHECK_EQ(cache_access(c, 0x1000, 0x1, MEM_READ, 3).status, CACHE_HIT);
	r = cache_access(c, 0x1000, 0x1, MEM_ATOMIC, 4);
	CHECK(r.forward);
	CHECK(!cache_probe(c, 0x1000, 0x4));
	cache_destroy(c);
}

/* A store to a present line that does not hold the written sector is a
 * miss (GPGPU-Sim's SECTOR_MISS), a store to a held sector a hit; the
 * counters say so; timing is the same (both forwarded). */
TEST(mem_cache_write_sector_miss_counted)
{
	struct ws_stats st;
	memset(&st, 0, sizeof st);
	struct cache_params p = l1_params(4, 2, 4, 4);
	p.sector_fill = true;
	p.evict_sector = true;
	p.stats_level = CACHE_STATS_L1D;
	struct cache *c = cache_create(&p, &st);
	CHECK(c != NULL);
	if (!c)
		return;
	uint64_t tok[4];
	CHECK_EQ(cache_access(c, 0x1000, 0x3, MEM_READ, 1).status, CACHE_MISS);
	CHECK_EQ(cache_fill(c, 0x1000, 0x3, tok, 4), 1);
	/* sector 2 was never fetched: the line is present, the sector is not */
	struct cache_result r = cache_access(c, 0x1000, 0x4, MEM_WRITE, 2);
	CHECK_EQ(r.status, CACHE_MISS);
	CHECK(r.forward);
	/* sector 1 is held: a hit, which evicts it */
	r = cache_access(c, 0x1000, 0x2, MEM_WRITE, 3);
	CHECK_EQ(r.status, CACHE_HIT);
	CHECK(r.forward);
	/* sector 1 again, now evicted: a miss */
	CHECK_EQ(cache_access(c, 0x1000, 0x2, MEM_WRITE, 4).status, CACHE_MISS);
	/* an absent line: a miss as before */
	CHECK_EQ(cache_access(c, 0x2000, 0x1, MEM_WRITE, 5).status, CACHE_MISS);
	CHECK_EQ(st.v[STAT_l1d_accesses], 5);
	CHECK_EQ(st.v[STAT_l1d_hits], 1);
	CHECK_EQ(st.v[STAT_l1d_misses], 4);
	cache_destroy(c);
}

TEST(mem_cache_write_back_sectors)
{
	struct ws_stats st;
	memset(&st, 0, sizeof st);
	struct cache_params p = {.sets = 2, .ways = 2, .line_bytes = 128, .mshrs = 4, .mshr_merge = 4,
				 .write_policy = CACHE_WRITE_BACK, .write_allocate = true, .sector_fill = true,
				 .stats_level = CACHE_STATS_L2};
	struct cache *c = cache_create(&p, &st);
	CHECK(c != NULL);
	if (!c)
		return;
	uint64_t tok[4];
	uint64_t A = line_of(2, 0, 0), B = line_of(2, 0, 1), C = line_of(2, 0, 2);
	/* Write-allocate without a fetch. */
	struct cache_result r = cache_access(c, A, 0x1, MEM_WRITE, 1);
	CHECK_EQ(r.status, CACHE_MISS);
	CHECK_EQ(r.fetch_mask, 0);
	CHECK(!r.forward);
	CHECK(cache_probe(c, A, 0x1));
	CHECK_EQ(cache_access(c, A, 0x1, MEM_READ, 2).status, CACHE_HIT);
	/* Sector miss on a present line fetches only the missing sectors. */
	r = cache_access(c, A, 0x3, MEM_READ, 3);
	CHECK_EQ(r.status, CACHE_MISS);
	CHECK_EQ(r.fetch_mask, 0x2);
	/* Another sector of the pending line: a second fetch into the same MSHR. */
	r = cache_access(c, A, 0x8, MEM_READ, 4);
	CHECK_EQ(r.status, CACHE_MISS);
	CHECK_EQ(r.fetch_mask, 0x8);
	CHECK_EQ(cache_mshrs_in_use(c), 1);
	r = cache_access(c, A, 0x2, MEM_READ, 5);
	CHECK_EQ(r.status, CACHE_HIT_RESERVED);
	/* Partial fills release exactly the accesses they complete. */
	CHECK_EQ(cache_fill(c, A, 0x8, tok, 4), 1);
	CHECK_EQ(tok[0], 4);
	CHECK_EQ(cache_fill(c, A, 0x2, tok, 4), 2);
	CHECK_EQ(tok[0], 3);
	CHECK_EQ(tok[1], 5);
	CHECK_EQ(cache_mshrs_in_use(c), 0);
	/* Fill the set (B), then C evicts the LRU line A, which is dirty in sector 0. */
	CHECK_EQ(cache_access(c, B, 0xF, MEM_READ, 6).status, CACHE_MISS);
	CHECK_EQ(cache_fill(c, B, 0xF, tok, 4), 1);
	r = cache_access(c, C, 0x4, MEM_READ, 7);
	CHECK_EQ(r.status, CACHE_MISS);
	CHECK(r.writeback);
	CHECK_EQ(r.wb_addr, A);
	CHECK_EQ(r.wb_mask, 0x1);
	/* Atomic in a write-back cache: read-modify-write, makes the sector dirty. */
	CHECK_EQ(cache_fill(c, C, 0x4, tok, 4), 1);
	CHECK_EQ(cache_access(c, C, 0x4, MEM_ATOMIC, 8).status, CACHE_HIT);
	r = cache_access(c, A, 0x1, MEM_READ, 9); /* evicts B (clean) */
	CHECK(!r.writeback);
	CHECK_EQ(cache_fill(c, A, 0x1, tok, 4), 1);
	r = cache_access(c, B, 0x1, MEM_READ, 10); /* evicts C (dirty by the atomic) */
	CHECK(r.writeback);
	CHECK_EQ(r.wb_addr, C);
	CHECK_EQ(r.wb_mask, 0x4);
	CHECK_EQ(st.v[STAT_l2_writebacks], 2);
	CHECK_EQ(st.v[STAT_l2_evictions], 3);
	cache_destroy(c);
}

/* mshr_sectors (GPGPU-Sim's sectored L2: MSHR table keyed by the 32-byte
 * sector): mshr_merge requests wait per sector, not per line, and mshrs bounds
 * the sectors awaiting a fill; with an entry per line the fifth request to a
 * pending line is refused whatever sectors it needs. */
TEST(mem_cache_mshr_sectors)
{
	for (int sectored = 0; sectored < 2; sectored++) {
		struct ws_stats st;
		memset(&st, 0, sizeof st);
		struct cache_params p = {.sets = 2, .ways = 2, .line_bytes = 128, .mshrs = 3, .mshr_merge = 2,
					 .mshr_sectors = sectored, .write_policy = CACHE_WRITE_BACK,
					 .write_allocate = true, .sector_fill = true, .stats_level = CACHE_STATS_L2};
		struct cache *c = cache_create(&p, &st);
		CHECK(c != NULL);
		if (!c)
			return;
		CHECK_EQ(cache_max_merge(c), sectored ? 8u : 2u);
		uint64_t tok[8];
		uint64_t A = line_of(2, 0, 0), B = line_of(2, 0, 1), C = line_of(2, 1, 0);
		CHECK_EQ(cache_access(c, A, 0x1, MEM_READ, 1).status, CACHE_MISS);
		CHECK_EQ(cache_access(c, A, 0x1, MEM_READ, 2).status, CACHE_HIT_RESERVED);
		/* sector 0 holds its two requests */
		CHECK_EQ(cache_access(c, A, 0x1, MEM_READ, 3).status, CACHE_RESERVATION_FAIL);
		/* another sector of the same line: its own entry under mshr_sectors */
		struct cache_result r = cache_access(c, A, 0x2, MEM_READ, 4);
		CHECK_EQ(r.status, sectored ? CACHE_MISS : CACHE_RESERVATION_FAIL);
		CHECK_EQ(r.fetch_mask, sectored ? 0x2u : 0u);
		if (sectored) {
			CHECK_EQ(cache_access(c, A, 0x2, MEM_READ, 5).status, CACHE_HIT_RESERVED);
			CHECK_EQ(cache_access(c, A, 0x2, MEM_READ, 6).status, CACHE_RESERVATION_FAIL);
			/* a third sector entry (of 3) on another line; then the table is full */
			CHECK_EQ(cache_access(c, B, 0x1, MEM_READ, 7).status, CACHE_MISS);
			CHECK_EQ(cache_access(c, A, 0x4, MEM_READ, 8).status, CACHE_RESERVATION_FAIL);
			CHECK_EQ(cache_access(c, C, 0x1, MEM_READ, 9).status, CACHE_RESERVATION_FAIL);
			/* a fill of sector 1 frees its entry and releases its two requests only */
			CHECK_EQ(cache_fill(c, A, 0x2, tok, cache_max_merge(c)), 2);
			CHECK_EQ(tok[0], 4);
			CHECK_EQ(tok[1], 5);
			CHECK_EQ(cache_access(c, C, 0x1, MEM_READ, 10).status, CACHE_MISS);
			CHECK_EQ(cache_fill(c, A, 0x1, tok, cache_max_merge(c)), 2);
			CHECK_EQ(cache_fill(c, B, 0x1, tok, cache_max_merge(c)), 1);
			CHECK_EQ(cache_fill(c, C, 0x1, tok, cache_max_merge(c)), 1);
			CHECK_EQ(st.v[STAT_l2_res_fails], 4);
		} else {
			/* three line entries: B and C each take one whatever their sectors */
			CHECK_EQ(cache_access(c, B, 0x3, MEM_READ, 7).status, CACHE_MISS);
			CHECK_EQ(cache_access(c, C, 0xF, MEM_READ, 8).status, CACHE_MISS);
			CHECK_EQ(cache_fill(c, A, 0x1, tok, cache_max_merge(c)), 2);
			CHECK_EQ(st.v[STAT_l2_res_fails], 2);
		}
		CHECK_EQ(cache_access(c, A, 0x1, MEM_READ, 11).status, CACHE_HIT);
		cache_destroy(c);
	}
}

/* l2_sector_accesses / l2_sector_misses count GPGPU-Sim's way, a sector at a
 * time: a sector awaiting its fill is an access but no miss, and a write to a
 * present line's invalid sectors misses them (the request itself is a hit). */
TEST(mem_cache_l2_sector_counts)
{
	struct ws_stats st;
	memset(&st, 0, sizeof st);
	struct cache_params p = {.sets = 2, .ways = 2, .line_bytes = 128, .mshrs = 4, .mshr_merge = 4,
				 .write_policy = CACHE_WRITE_BACK, .write_allocate = true, .sector_fill = false,
				 .stats_level = CACHE_STATS_L2};
	struct cache *c = cache_create(&p, &st);
	CHECK(c != NULL);
	if (!c)
		return;
	uint64_t tok[4];
	uint64_t A = line_of(2, 0, 0), B = line_of(2, 1, 0);
	CHECK_EQ(cache_access(c, A, 0xF, MEM_READ, 1).status, CACHE_MISS);         /* 4 sectors, 4 misses */
	CHECK_EQ(cache_access(c, A, 0x3, MEM_READ, 2).status, CACHE_HIT_RESERVED); /* 2 awaiting their fill */
	CHECK_EQ(cache_fill(c, A, 0xF, tok, 4), 2);
	CHECK_EQ(cache_access(c, A, 0x1, MEM_READ, 3).status, CACHE_HIT);  /* 1 sector */
	CHECK_EQ(cache_access(c, B, 0x3, MEM_WRITE, 4).status, CACHE_MISS); /* allocates: 2 misses */
	CHECK_EQ(cache_access(c, B, 0xC, MEM_WRITE, 5).status, CACHE_HIT);  /* line present: 2 sector misses */
	CHECK_EQ(cache_access(c, B, 0x1, MEM_WRITE, 6).status, CACHE_HIT);
	CHECK_EQ(st.v[STAT_l2_accesses], 6);
	CHECK_EQ(st.v[STAT_l2_misses], 2);
	CHECK_EQ(st.v[STAT_l2_sector_accesses], 12);
	CHECK_EQ(st.v[STAT_l2_sector_misses], 8);
	cache_destroy(c);
	/* Only the L2 has them. */
	memset(&st, 0, sizeof st);
	struct cache_params q = l1_params(4, 2, 2, 2);
	c = cache_create(&q, &st);
	CHECK(c != NULL);
	if (!c)
		return;
	CHECK_EQ(cache_access(c, A, 0xF, MEM_READ, 1).status, CACHE_MISS);
	CHECK_EQ(st.v[STAT_l1d_accesses], 1);
	CHECK_EQ(st.v[STAT_l2_sector_accesses], 0);
	cache_destroy(c);
}

TEST(mem_cache_fill_cap_and_bypass)
{
	struct cache_params p = l1_params(1, 1, 1, 4);
	struct cache *c = cache_create(&p, NULL);
	CHECK(c != NULL);
	if (!c)
		return;
	for (unsigned i = 0; i < 4; i++)
		CHECK(cache_access(c, 0x100, 1u << i, MEM_READ, 100 + i).status != CACHE_RESERVATION_FAIL);
	uint64_t tok[4];
	CHECK_EQ(cache_fill(c, 0x100, 0xF, tok, 3), 3); /* room for three */
	CHECK(cache_pending(c, 0x100));                 /* one still waits */
	CHECK_EQ(cache_fill(c, 0x100, 0, tok, 3), 1);
	CHECK_EQ(tok[0], 103);
	CHECK(!cache_pending(c, 0x100));
	cache_destroy(c);

	p.bypass = true;
	c = cache_create(&p, NULL);
	CHECK(c != NULL);
	if (!c)
		return;
	struct cache_result r = cache_access(c, 0x100, 0x1, MEM_READ, 1);
	CHECK_EQ(r.status, CACHE_MISS);
	CHECK(r.forward);
	CHECK_EQ(r.fetch_mask, 0);
	CHECK_EQ(cache_mshrs_in_use(c), 0);
	cache_destroy(c);

	/* Invalid parameters are refused. */
	p = l1_params(4, 2, 2, 2);
	p.line_bytes = 96;
	CHECK(cache_create(&p, NULL) == NULL);
	p = l1_params(0, 2, 2, 2);
	CHECK(cache_create(&p, NULL) == NULL);
}

/* A perfect cache (l1i_perfect, GPGPU-Sim's perfect instruction cache):
 * every read hits, even of a line never seen, and is counted as an access
 * and a hit; nothing is installed, missed or fetched. */
TEST(mem_cache_perfect_always_hits)
{
	struct ws_stats st;
	memset(&st, 0, sizeof st);
	struct cache_params p = l1_params(1, 1, 1, 1);
	p.perfect = true;
	p.stats_level = CACHE_STATS_L1I;
	struct cache *c = cache_create(&p, &st);
	CHECK(c != NULL);
	if (!c)
		return;
	for (unsigned i = 0; i < 4; i++) { /* four lines of a 1-line cache, twice each */
		CHECK(cache_probe(c, line_of(1, 0, i), 0xF));
		struct cache_result r = cache_access(c, line_of(1, 0, i), 0x1, MEM_IFETCH, i);
		CHECK_EQ(r.status, CACHE_HIT);
		CHECK(!r.fetch_mask && !r.forward && !r.writeback);
		CHECK_EQ(cache_access(c, line_of(1, 0, i), 0x2, MEM_IFETCH, i).status, CACHE_HIT);
	}
	CHECK_EQ(cache_mshrs_in_use(c), 0);
	CHECK(!cache_pending(c, 0));
	CHECK_EQ(st.v[STAT_l1i_accesses], 8);
	CHECK_EQ(st.v[STAT_l1i_hits], 8);
	CHECK_EQ(st.v[STAT_l1i_misses] + st.v[STAT_l1i_evictions] + st.v[STAT_l1i_res_fails], 0);
	cache_destroy(c);
}

TEST(mem_cache_params_from_config)
{
	ws_config *cfg = wsConfigCreate();
	CHECK(cfg != NULL);
	if (!cfg)
		return;
	struct cache_params p;
	cache_params_from_config(cfg, CACHE_STATS_L1D, &p);
	CHECK_EQ(p.sets * p.ways * p.line_bytes, 16 * 1024);
	CHECK_EQ(p.mshrs, 64); /* GPGPU-Sim GTX480 dl1 S:64:8 */
	CHECK_EQ(p.mshr_merge, 8);
	CHECK(p.fermi_hash);
	CHECK_EQ(p.write_policy, CACHE_WRITE_EVICT);
	cache_params_from_config(cfg, CACHE_STATS_L1I, &p);
	CHECK_EQ(p.sets * p.ways * p.line_bytes, 2 * 1024);
	cache_params_from_config(cfg, CACHE_STATS_L2, &p);
	/* 768 KB over 6 channels x 2 slices. */
	CHECK_EQ((uint64_t)p.sets * p.ways * p.line_bytes * cfg_int(cfg, CFG_dram_channels) *
			 cfg_int(cfg, CFG_l2_slices_per_channel),
		 768 * 1024);
	CHECK_EQ(p.write_policy, CACHE_WRITE_BACK);
	CHECK(p.write_allocate);
	struct cache *c = cache_create(&p, NULL);
	CHECK(c != NULL);
	cache_destroy(c);
	wsConfigDestroy(cfg);
}

/* ----------------------------------------------------------------- CACP */

/* One set of 4 ways, half of them critical, 16-entry predictors of 2-bit
 * counters; with pc 0 a line's signature is its line number mod 16. */
static struct cache_params cacp_params(void)
{
	struct cache_params p = l1_params(1, 4, 8, 4);
	p.cacp_on = true;
	p.cacp = (struct cacp_params){.crit_ways = 2, .entries = 16, .counter_bits = 2};
	return p;
}

/* A CACP read of line `n` (address n x 128), filled at once if it missed. */
static enum cache_status cacp_read(struct cache *c, unsigned n, bool critical)
{
	struct cacp_access a = {.pc = 0, .critical = critical};
	uint64_t tok[8];
	struct cache_result r = cache_access_cacp(c, (uint64_t)n * 128, 0xF, n, &a);
	if (r.status == CACHE_MISS)
		cache_fill(c, (uint64_t)n * 128, r.fetch_mask, tok, 8);
	return r.status;
}

/* A fill the CCBP predicts critical goes to the critical partition, a
 * non-critical fill never takes (or evicts) a critical-partition way, and
 * the CCBP and SHiP counters train as cacp.h specifies. */
TEST(mem_cacp_partitions_and_training)
{
	struct ws_stats st;
	memset(&st, 0, sizeof st);
	struct cache_params p = cacp_params();
	struct cache *c = cache_create(&p, &st);
	CHECK(c != NULL);
	if (!c)
		return;
	const struct cacp *cp = cache_cacp(c);
	CHECK_EQ(cacp_signature(cp, 0, 17), 1);
	/* counters start at CCBP 1 (below the critical threshold 2), SHiP 3 */
	CHECK_EQ(cacp_ccbp(cp, 1), 1);
	CHECK_EQ(cacp_shct(cp, 1), 3);
	CHECK_EQ(cacp_read(c, 1, false), CACHE_MISS);
	CHECK_EQ(cache_way(c, 1 * 128), 2); /* predicted non-critical: first way of the non-critical partition */
	CHECK_EQ(cacp_rrpv(cp, 2), 2);      /* SRRIP's intermediate insertion */
	/* two reuses by a critical warp: CCBP 1 -> 3 (saturated), RRPV 0 */
	CHECK_EQ(cacp_read(c, 1, true), CACHE_HIT);
	CHECK_EQ(cacp_read(c, 1, true), CACHE_HIT);
	CHECK_EQ(cacp_ccbp(cp, 1), 3);
	CHECK_EQ(cacp_rrpv(cp, 2), 0);
	CHECK_EQ(st.v[STAT_l1d_cacp_crit_accesses], 2);
	CHECK_EQ(st.v[STAT_l1d_cacp_crit_hits], 2);
	/* line 17 has signature 1: predicted critical, so the critical partition */
	CHECK_EQ(cacp_read(c, 17, false), CACHE_MISS);
	CHECK_EQ(cache_way(c, 17 * 128), 0);
	CHECK_EQ(st.v[STAT_l1d_cacp_crit_fills], 1);
	/* non-critical fills (signatures 2..6, CCBP 1) stay in ways 2-3 although way 1 is empty */
	for (unsigned n = 2; n <= 6; n++) {
		CHECK_EQ(cacp_read(c, n, false), CACHE_MISS);
		int w = cache_way(c, (uint64_t)n * 128);
		CHECK_MSG(w == 2 || w == 3, "line %u in way %d", n, w);
		CHECK_EQ(cache_way(c, 17 * 128), 0);
	}
	/* line 2 (way 3, RRPV 2) was evicted unused by line 3's fill: its SHiP counter fell to 2 */
	CHECK_EQ(cache_way(c, 2 * 128), -1);
	CHECK_EQ(cacp_shct(cp, 2), 2);
	/* line 1 (reused by critical warps) left the non-critical partition: CCBP unchanged */
	CHECK_EQ(cache_way(c, 1 * 128), -1);
	CHECK_EQ(cacp_ccbp(cp, 1), 3);
	/* a critical-partition line evicted without critical reuse lowers the CCBP:
	 * lines 33 and 49 (signature 1) fill way 1, then evict line 17 (way 0) */
	CHECK_EQ(cacp_read(c, 33, false), CACHE_MISS);
	CHECK_EQ(cache_way(c, 33 * 128), 1);
	CHECK_EQ(cacp_read(c, 49, false), CACHE_MISS);
	CHECK_EQ(cache_way(c, 49 * 128), 0);
	CHECK_EQ(cacp_ccbp(cp, 1), 2);
	cache_destroy(c);
}

/* RRIP inside a partition: a hit protects a line; with none at the distant
 * RRPV the partition ages, and the first way at the highest value goes. */
TEST(mem_cacp_rrip_victim)
{
	struct cacp_params q = {.crit_ways = 2, .entries = 16, .counter_bits = 2};
	struct cacp *cp = cacp_create(&q, 1, 4, NULL);
	CHECK(cp != NULL);
	if (!cp)
		return;
	cacp_on_fill(cp, 2, 5);
	cacp_on_fill(cp, 3, 6);
	cacp_on_reuse(cp, 2, false); /* way 2: RRPV 0; way 3: 2 */
	CHECK_EQ(cacp_victim(cp, 0, 2, 4, 0xC), 3);
	CHECK_EQ(cacp_rrpv(cp, 3), 3); /* aged by one */
	CHECK_EQ(cacp_rrpv(cp, 2), 1);
	CHECK_EQ(cacp_victim(cp, 0, 2, 4, 0x4), 2); /* way 3 reserved: only way 2 */
	CHECK_EQ(cacp_victim(cp, 0, 2, 4, 0), -1);
	/* a non-critical fill whose signature's lines went unused is inserted distant */
	for (int i = 0; i < 3; i++)
		cacp_on_evict(cp, 3); /* line 3 (signature 6) never reused: SHiP 3 -> 0 */
	CHECK_EQ(cacp_shct(cp, 6), 0);
	cacp_on_fill(cp, 3, 6);
	CHECK_EQ(cacp_rrpv(cp, 3), 3);
	cacp_on_fill(cp, 0, 6); /* the critical partition keeps the intermediate insertion */
	CHECK_EQ(cacp_rrpv(cp, 0), 2);
	CHECK(!cacp_counts_only(cp));
	/* bad parameters */
	q.crit_ways = 4;
	CHECK(cacp_create(&q, 1, 4, NULL) == NULL);
	q.crit_ways = 2;
	q.entries = 12;
	CHECK(cacp_create(&q, 1, 4, NULL) == NULL);
	cacp_destroy(cp);
}

/* Disabled CACP is today's replacement exactly: cache_access_cacp on a cache
 * without CACP gives the same results and the same contents as
 * cache_access, over a pseudo-random stream of reads, fills and stores, and
 * so does a count-only CACP (l1d_cacp_crit_share = 0), which adds only the
 * critical counters; and l1d_cacp is off by default. */
TEST(mem_cacp_disabled_is_lru)
{
	struct ws_stats s1, s2;
	memset(&s1, 0, sizeof s1);
	memset(&s2, 0, sizeof s2);
	struct cache_params p = l1_params(4, 4, 6, 2);
	struct cache *a = cache_create(&p, &s1), *b = cache_create(&p, &s2);
	CHECK(a && b);
	if (!a || !b)
		return;
	uint64_t x = 12345, ta[8], tb[8];
	for (unsigned i = 0; i < 4000; i++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		uint64_t addr = (x >> 33) % 64 * 128;
		uint32_t sec = (uint32_t)(x >> 20) & 0xF;
		unsigned op = (unsigned)(x >> 60) % 4;
		if (op == 0) {
			CHECK_EQ(cache_fill(a, addr, 0xF, ta, 8), cache_fill(b, addr, 0xF, tb, 8));
		} else if (op == 1) {
			CHECK_EQ(cache_access(a, addr, sec, MEM_WRITE, 0).status, cache_access(b, addr, sec, MEM_WRITE, 0).status);
		} else {
			struct cacp_access ca = {.pc = x & 0xFF8, .critical = (x >> 40) & 1};
			struct cache_result ra = cache_access(a, addr, sec, MEM_READ, i);
			struct cache_result rb = cache_access_cacp(b, addr, sec, i, &ca);
			CHECK_EQ(ra.status, rb.status);
			CHECK_EQ(ra.fetch_mask, rb.fetch_mask);
		}
	}
	for (unsigned n = 0; n < 64; n++)
		CHECK_EQ(cache_way(a, n * 128ull), cache_way(b, n * 128ull));
	CHECK(memcmp(&s1, &s2, sizeof s1) == 0);
	CHECK(cache_cacp(b) == NULL);
	cache_destroy(a);
	cache_destroy(b);
	/* count-only CACP (no critical ways): the same results, and the critical reads counted */
	memset(&s1, 0, sizeof s1);
	memset(&s2, 0, sizeof s2);
	a = cache_create(&p, &s1);
	p.cacp_on = true;
	p.cacp = (struct cacp_params){.crit_ways = 0, .entries = 16, .counter_bits = 2};
	b = cache_create(&p, &s2);
	CHECK(a && b);
	if (!a || !b)
		return;
	CHECK(cacp_counts_only(cache_cacp(b)));
	unsigned crit = 0, crit_hits = 0;
	for (unsigned i = 0; i < 2000; i++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		uint64_t addr = (x >> 33) % 32 * 128;
		if ((x >> 60) % 3 == 0) {
			CHECK_EQ(cache_fill(a, addr, 0xF, ta, 8), cache_fill(b, addr, 0xF, tb, 8));
			continue;
		}
		struct cacp_access ca = {.pc = 8, .critical = (x >> 40) & 1};
		struct cache_result ra = cache_access(a, addr, 0xF, MEM_READ, i);
		struct cache_result rb = cache_access_cacp(b, addr, 0xF, i, &ca);
		CHECK_EQ(ra.status, rb.status);
		crit += ca.critical && rb.status != CACHE_RESERVATION_FAIL;
		crit_hits += ca.critical && rb.status == CACHE_HIT;
	}
	CHECK(crit > 0 && crit_hits > 0);
	CHECK_EQ(s2.v[STAT_l1d_cacp_crit_accesses], crit);
	CHECK_EQ(s2.v[STAT_l1d_cacp_crit_hits], crit_hits);
	s2.v[STAT_l1d_cacp_crit_accesses] = s2.v[STAT_l1d_cacp_crit_hits] = 0;
	CHECK(memcmp(&s1, &s2, sizeof s1) == 0);
	cache_destroy(a);
	cache_destroy(b);
	ws_config *cfg = wsConfigCreate();
	if (cfg) {
		cache_params_from_config(cfg, CACHE_STATS_L1D, &p);
		CHECK(!p.cacp_on);
		wsConfigDestroy(cfg);
	}
}

/* ------------------------------------------------------- constant cache */

/* The constant cache (GPGPU-Sim's GTX480 L1C: 64 x 64 B x 2, 2 MSHRs merging
 * 32): one access per distinct line of a warp's load, a single data port a
 * hit occupies for its cycle, misses that fetch the line, reservation fails
 * when the MSHRs are full. */
TEST(mem_ccache_lines_port_mshrs)
{
	ws_config *cfg = wsConfigCreate();
	CHECK(cfg != NULL);
	if (!cfg)
		return;
	struct ccache *c = ccache_create(cfg);
	CHECK(c != NULL);
	if (!c) {
		wsConfigDestroy(cfg);
		return;
	}
	uint64_t a[32];
	struct coal_txn x[COAL_MAX_TXNS], y[COAL_MAX_TXNS];
	for (unsigned l = 0; l < 32; l++)
		a[l] = 256; /* uniform: one access */
	CHECK_EQ(ccache_split(c, false, a, 0xffffffffull, 32, 4, x), 1);
	CHECK_EQ(x[0].lanes, 0xffffffffull);
	CHECK_EQ(ccache_split(c, true, a, 0xffffffffull, 32, 4, y), 1);
	CHECK(y[0].line != x[0].line); /* the parameter buffer is not the constant bank */
	for (unsigned l = 0; l < 32; l++)
		a[l] = 4 * l; /* 128 consecutive bytes: two 64-byte lines */
	CHECK_EQ(ccache_split(c, false, a, 0xffffffffull, 32, 4, x), 2);
	for (unsigned l = 0; l < 32; l++)
		a[l] = 64 * (31 - l); /* divergent: one access per lane, lowest lane first */
	CHECK_EQ(ccache_split(c, false, a, 0xffffffffull, 32, 4, x), 32);
	CHECK_EQ(x[0].lanes, 1);
	CHECK(x[0].line > x[1].line);
	/* cold: misses take the two MSHRs (misses leave the data port free), a
	 * third line fails; the same line merges */
	struct cache_result r = ccache_access(c, x[0].line, 100, 1);
	CHECK_EQ(r.status, CACHE_MISS);
	CHECK(r.fetch_mask != 0); /* the whole line is fetched from the L2 */
	CHECK_EQ(ccache_access(c, x[0].line, 101, 2).status, CACHE_HIT_RESERVED);
	CHECK_EQ(ccache_access(c, x[1].line, 102, 2).status, CACHE_MISS);
	CHECK_EQ(ccache_access(c, x[2].line, 103, 3).status, CACHE_RESERVATION_FAIL);
	uint64_t tok[64];
	CHECK_EQ(ccache_fill(c, x[0].line, r.fetch_mask, tok, 64), 2);
	CHECK_EQ(tok[0], 100);
	CHECK_EQ(tok[1], 101);
	CHECK_EQ(ccache_access(c, x[2].line, 103, 4).status, CACHE_MISS); /* an MSHR is free again */
	/* a hit occupies the data port for its cycle: a second access that cycle fails */
	CHECK_EQ(ccache_access(c, x[0].line, 104, 5).status, CACHE_HIT);
	CHECK_EQ(ccache_access(c, x[0].line, 105, 5).status, CACHE_RESERVATION_FAIL);
	CHECK_EQ(ccache_access(c, x[3].line, 105, 5).status, CACHE_RESERVATION_FAIL);
	CHECK_EQ(ccache_access(c, x[0].line, 105, 6).status, CACHE_HIT);
	ccache_destroy(c);
	/* an MSHR entry holds ccache_mshr_merge accesses, the first miss included */
	char err[128];
	CHECK(wsConfigSet(cfg, "ccache_mshr_merge", "2", err, sizeof err) == WS_SUCCESS);
	c = ccache_create(cfg);
	CHECK(c != NULL);
	if (c) {
		CHECK_EQ(ccache_access(c, x[0].line, 1, 1).status, CACHE_MISS);
		CHECK_EQ(ccache_access(c, x[0].line, 2, 2).status, CACHE_HIT_RESERVED);
		CHECK_EQ(ccache_access(c, x[0].line, 3, 3).status, CACHE_RESERVATION_FAIL);
		ccache_destroy(c);
	}
	wsConfigDestroy(cfg);
}

/* ------------------------------------------------------------ coalescer */

static unsigned coal(const uint64_t *a, uint64_t mask, unsigned n, unsigned size, enum coal_kind k,
		     struct coal_txn *out)
{
	return coal_warp(a, mask, n, size, k, 128, out);
}

TEST(mem_coal_patterns)
{
	uint64_t a[64];
	struct coal_txn x[COAL_MAX_TXNS];
	/* Fully coalesced 32 x 4 B: one line, four sectors. */
	for (unsigned i = 0; i < 32; i++)
		a[i] = 0x10000 + 4 * i;
	CHECK_EQ(coal(a, 0xFFFFFFFFull, 32, 4, COAL_LOAD_CACHED, x), 1);
	CHECK_EQ(x[0].line, 0x10000);
	CHECK_EQ(x[0].sectors, 0xF);
	CHECK_EQ(x[0].lanes, 0xFFFFFFFFull);
	CHECK_EQ(x[0].bytes, 128);
	CHECK_EQ(x[0].byte_mask[0], ~0ull);
	CHECK_EQ(x[0].byte_mask[1], ~0ull);
	CHECK_EQ(coal(a, 0xFFFFFFFFull, 32, 4, COAL_STORE, x), 1);
	CHECK_EQ(x[0].bytes, 128);
	/* Partial mask: lanes 0..7 -> one sector; uncached moves 32 B, cached a line. */
	CHECK_EQ(coal(a, 0xFFull, 32, 4, COAL_LOAD_UNCACHED, x), 1);
	CHECK_EQ(x[0].sectors, 0x1);
	CHECK_EQ(x[0].bytes, 32);
	CHECK_EQ(x[0].byte_mask[0], 0xFFFFFFFFull);
	CHECK_EQ(x[0].byte_mask[1], 0);
	CHECK_EQ(coal(a, 0xFFull, 32, 4, COAL_LOAD_CACHED, x), 1);
	CHECK_EQ(x[0].bytes, 128);
	/* Lanes 0 and 31 only: sectors 0 and 3, 64 bytes uncached. */
	CHECK_EQ(coal(a, 0x80000001ull, 32, 4, COAL_LOAD_UNCACHED, x), 1);
	CHECK_EQ(x[0].sectors, 0x9);
	CHECK_EQ(x[0].bytes, 64);
	CHECK_EQ(x[0].lanes, 0x80000001ull);
	/* No active lane. */
	CHECK_EQ(coal(a, 0, 32, 4, COAL_LOAD_CACHED, x), 0);
	/* Stride 2 (8 B apart): 256 B -> two lines, 4 sectors each. */
	for (unsigned i = 0; i < 32; i++)
		a[i] = 0x20000 + 8 * i;
	CHECK_EQ(coal(a, 0xFFFFFFFFull, 32, 4, COAL_LOAD_CACHED, x), 2);
	CHECK_EQ(x[0].line, 0x20000);
	CHECK_EQ(x[1].line, 0x20080);
	CHECK_EQ(x[0].sectors, 0xF);
	CHECK_EQ(x[1].sectors, 0xF);
	CHECK_EQ(x[0].lanes, 0xFFFFull);
	CHECK_EQ(x[1].lanes, 0xFFFF0000ull);
	CHECK_EQ(x[0].byte_mask[0], 0x0F0F0F0F0F0F0F0Full);
	/* Misaligned base: 0x30010 + 4i spans two lines (sectors 0-3, then 0). */
	for (unsigned i = 0; i < 32; i++)
		a[i] = 0x30010 + 4 * i;
	CHECK_EQ(coal(a, 0xFFFFFFFFull, 32, 4, COAL_LOAD_UNCACHED, x), 2);
	CHECK_EQ(x[0].sectors, 0xF);
	CHECK_EQ(x[1].line, 0x30080);
	CHECK_EQ(x[1].sectors, 0x1);
	CHECK_EQ(x[1].bytes, 32);
	/* Scattered: every lane its own line. */
	for (unsigned i = 0; i < 32; i++)
		a[i] = 0x100000 + 4096ull * (31 - i) + 32 * (i % 4);
	unsigned n = coal(a, 0xFFFFFFFFull, 32, 4, COAL_LOAD_UNCACHED, x);
	CHECK_EQ(n, 32);
	for (unsigned i = 0; i < n && i < 32; i++) {
		CHECK_EQ(x[i].line, 0x100000 + 4096ull * (31 - i)); /* lane order */
		CHECK_EQ(x[i].sectors, 1u << (i % 4));
		CHECK_EQ(x[i].bytes, 32);
		CHECK_EQ(x[i].lanes, 1ull << i);
	}
	/* 8-byte accesses: 32 x 8 B = 2 lines; 16-byte: 4 lines. */
	for (unsigned i = 0; i < 32; i++)
		a[i] = 0x40000 + 8 * i;
	CHECK_EQ(coal(a, 0xFFFFFFFFull, 32, 8, COAL_LOAD_CACHED, x), 2);
	CHECK_EQ(x[0].sectors & x[1].sectors, 0xF);
	for (unsigned i = 0; i < 32; i++)
		a[i] = 0x40000 + 16 * i;
	CHECK_EQ(coal(a, 0xFFFFFFFFull, 32, 16, COAL_STORE, x), 4);
	CHECK_EQ(x[3].lanes, 0xFF000000ull);
	/* 1-byte accesses: 32 B -> one sector. */
	for (unsigned i = 0; i < 32; i++)
		a[i] = 0x50000 + i;
	CHECK_EQ(coal(a, 0xFFFFFFFFull, 32, 1, COAL_LOAD_UNCACHED, x), 1);
	CHECK_EQ(x[0].sectors, 0x1);
	CHECK_EQ(x[0].bytes, 32);
	/* A misaligned 8-byte access straddling a line touches both. */
	a[0] = 0x6007C;
	CHECK_EQ(coal(a, 1, 32, 8, COAL_LOAD_UNCACHED, x), 2);
	CHECK_EQ(x[0].sectors, 0x8);
	CHECK_EQ(x[1].sectors, 0x1);
	/* Warp of 64: 64 x 4 B = two lines; lanes beyond nlanes are ignored. */
	for (unsigned i = 0; i < 64; i++)
		a[i] = 0x70000 + 4 * i;
	CHECK_EQ(coal_warp(a, ~0ull, 64, 4, COAL_LOAD_CACHED, 128, x), 2);
	CHECK_EQ(coal_warp(a, ~0ull, 16, 4, COAL_LOAD_CACHED, 128, x), 1);
	CHECK_EQ(x[0].lanes, 0xFFFF);
	/* 64-byte lines (line_bytes parameter): 32 x 4 B = two lines of two sectors. */
	CHECK_EQ(coal_warp(a, 0xFFFFFFFFull, 32, 4, COAL_LOAD_CACHED, 64, x), 2);
	CHECK_EQ(x[1].line, 0x70040);
	CHECK_EQ(x[1].sectors, 0x3);
	CHECK_EQ(x[1].bytes, 64);
	/* Invalid arguments. */
	CHECK_EQ(coal_warp(a, ~0ull, 32, 0, COAL_LOAD_CACHED, 128, x), 0);
	CHECK_EQ(coal_warp(a, ~0ull, 32, 4, COAL_LOAD_CACHED, 96, x), 0);
}

TEST(mem_coal_atomics)
{
	uint64_t a[64];
	struct coal_txn x[COAL_MAX_TXNS];
	/* Distinct words of one line: one transaction. */
	for (unsigned i = 0; i < 32; i++)
		a[i] = 0x8000 + 4 * i;
	CHECK_EQ(coal(a, 0xFFFFFFFFull, 32, 4, COAL_ATOMIC, x), 1);
	/* Every lane on the same word: 32 serialized transactions. */
	for (unsigned i = 0; i < 32; i++)
		a[i] = 0x8000;
	unsigned n = coal(a, 0xFFFFFFFFull, 32, 4, COAL_ATOMIC, x);
	CHECK_EQ(n, 32);
	for (unsigned i = 0; i < n && i < 32; i++) {
		CHECK_EQ(x[i].lanes, 1ull << i);
		CHECK_EQ(x[i].bytes, 32);
	}
	/* Two words shared by 16 lanes each: 16 transactions of two lanes. */
	for (unsigned i = 0; i < 32; i++)
		a[i] = 0x8000 + 64 * (i & 1);
	n = coal(a, 0xFFFFFFFFull, 32, 4, COAL_ATOMIC, x);
	CHECK_EQ(n, 16);
	CHECK_EQ(x[0].lanes, 0x3);
	CHECK_EQ(x[0].sectors, 0x5);
	/* The same pattern as a load coalesces into one. */
	CHECK_EQ(coal(a, 0xFFFFFFFFull, 32, 4, COAL_LOAD_CACHED, x), 1);
}

/* -------------------------------------------------------- shared memory */

static unsigned sh(const uint64_t *a, uint64_t mask, unsigned size) { return shmem_cycles(a, mask, 32, size, 32, 4); }

TEST(mem_shmem_bank_conflicts)
{
	uint64_t a[64];
	for (unsigned i = 0; i < 32; i++)
		a[i] = 4 * i;
	CHECK_EQ(sh(a, 0xFFFFFFFFull, 4), 1); /* stride 1 */
	for (unsigned i = 0; i < 32; i++)
		a[i] = 8 * i;
	CHECK_EQ(sh(a, 0xFFFFFFFFull, 4), 2); /* stride 2 */
	for (unsigned i = 0; i < 32; i++)
		a[i] = 12 * i;
	CHECK_EQ(sh(a, 0xFFFFFFFFull, 4), 1); /* stride 3 (odd): conflict-free */
	for (unsigned i = 0; i < 32; i++)
		a[i] = 128 * i;
	CHECK_EQ(sh(a, 0xFFFFFFFFull, 4), 32); /* stride 32 */
	CHECK_EQ(sh(a, 0xFull, 4), 4);          /* ... with four lanes active */
	for (unsigned i = 0; i < 32; i++)
		a[i] = 0x40;
	CHECK_EQ(sh(a, 0xFFFFFFFFull, 4), 1); /* broadcast */
	for (unsigned i = 0; i < 32; i++)
		a[i] = 0x40 + (i & 3); /* bytes of one word */
	CHECK_EQ(sh(a, 0xFFFFFFFFull, 1), 1);
	for (unsigned i = 0; i < 32; i++)
		a[i] = (i < 16) ? 0 : 128 * (i - 15); /* half broadcast, half a 16-way conflict on bank 0 */
	CHECK_EQ(sh(a, 0xFFFFFFFFull, 4), 17);
	CHECK_EQ(sh(a, 0, 4), 0);
	/* 8-byte accesses (half-warp rule): stride 1 -> 2 passes, no conflict. */
	for (unsigned i = 0; i < 32; i++)
		a[i] = 8 * i;
	CHECK_EQ(sh(a, 0xFFFFFFFFull, 8), 2);
	CHECK_EQ(sh(a, 0xFFFFull, 8), 1);     /* one half-warp */
	/* 8-byte stride 2: banks 0,1,4,5,.. each twice per half-warp -> 2 per half. */
	for (unsigned i = 0; i < 32; i++)
		a[i] = 16 * i;
	CHECK_EQ(sh(a, 0xFFFFFFFFull, 8), 4);
	/* 16-byte stride 1: four quarter-warp passes. */
	for (unsigned i = 0; i < 32; i++)
		a[i] = 16 * i;
	CHECK_EQ(sh(a, 0xFFFFFFFFull, 16), 4);
	/* 64-lane warp, 4-byte stride 1: two words per bank. */
	for (unsigned i = 0; i < 64; i++)
		a[i] = 4 * i;
	CHECK_EQ(shmem_cycles(a, ~0ull, 64, 4, 32, 4), 2);
	/* 16 banks (Tesla-like). */
	CHECK_EQ(shmem_cycles(a, 0xFFFFull, 16, 4, 16, 4), 1);
	CHECK_EQ(shmem_cycles(a, 0xFFFFFFFFull, 32, 4, 16, 4), 2);
}

TEST(mem_shmem_atomic_passes)
{
	uint64_t a[64];
	for (unsigned i = 0; i < 32; i++)
		a[i] = 0x40;
	/* one word: a read broadcasts, but every read-modify-write is its own pass */
	CHECK_EQ(sh(a, 0xFFFFFFFFull, 4), 1);
	CHECK_EQ(shmem_atomic_passes(a, 0xFFFFFFFFull, 32, 4, 32, 4), 32);
	CHECK_EQ(shmem_atomic_passes(a, 0x5ull, 32, 4, 32, 4), 2);
	for (unsigned i = 0; i < 32; i++)
		a[i] = 4 * i;
	CHECK_EQ(shmem_atomic_passes(a, 0xFFFFFFFFull, 32, 4, 32, 4), 1); /* distinct banks */
	for (unsigned i = 0; i < 32; i++)
		a[i] = 128 * i;
	CHECK_EQ(shmem_atomic_passes(a, 0xFFFFFFFFull, 32, 4, 32, 4), 32); /* one bank, distinct words */
	for (unsigned i = 0; i < 32; i++)
		a[i] = 4 * (i % 8);
	CHECK_EQ(shmem_atomic_passes(a, 0xFFFFFFFFull, 32, 4, 32, 4), 4); /* 8 words, 4 lanes each */
	/* a hot word plus conflict-free lanes: the hot bank decides */
	for (unsigned i = 0; i < 32; i++)
		a[i] = (i % 4 == 0) ? 0 : 4 * i;
	CHECK_EQ(shmem_atomic_passes(a, 0xFFFFFFFFull, 32, 4, 32, 4), 8);
	CHECK_EQ(shmem_atomic_passes(a, 0, 32, 4, 32, 4), 0);
	/* 8-byte atomics on one word: half-warp groups, 16 passes each */
	for (unsigned i = 0; i < 32; i++)
		a[i] = 0x80;
	CHECK_EQ(shmem_atomic_passes(a, 0xFFFFFFFFull, 32, 8, 32, 4), 32);
}

/* Fairness: 16 inputs, three of them (0, 1, 2) always have a packet for
 * output 0, which is drained once every 4 cycles.  A round-robin start that
 * just advances one input per cycle would only ever begin its scan at
 * inputs 0, 4, 8, 12 when a slot frees, so input 0 would win every grant
 * and inputs 1 and 2 would starve (the hashtable livelock on the Tesla-like
 * configuration).  Per-output round-robin serves the three in turn. */
TEST(mem_icnt_round_robin_is_fair)
{
	struct icnt_params p = {.inputs = 16, .outputs = 4, .latency = 1, .flit_bytes = 32, .flits_per_cycle = 1,
				.in_buf_flits = 8, .out_buf_packets = 1};
	struct icnt *n = icnt_create(&p);
	CHECK(n != NULL);
	if (!n)
		return;
	struct mem_pkt pk;
	memset(&pk, 0, sizeof pk);
	unsigned got[3] = {0, 0, 0};
	for (unsigned cyc = 0; cyc < 4000; cyc++) {
		for (unsigned i = 0; i < 3; i++) {
			pk.sm = i;
			icnt_push(n, i, 0, 1, &pk); /* refused while the input buffer is full */
		}
		icnt_cycle(n);
		const struct mem_pkt *q = icnt_peek(n, 0);
		if (q && cyc % 4 == 3) {
			got[q->sm]++;
			icnt_pop(n, 0);
		}
	}
	unsigned total = got[0] + got[1] + got[2];
	CHECK(total >= 990);
	for (unsigned i = 0; i < 3; i++)
		CHECK_MSG(3 * got[i] + 3 >= total && 3 * got[i] <= total + 3, "input %u got %u of %u grants", i, got[i],
			  total);
	icnt_destroy(n);
}

/* A packet for an output is pending from its push, while it still waits in
 * an input buffer (here behind a full output ring), not only once granted:
 * the GPU keeps an idle SM ticking while a reply for it is pending anywhere
 * (a reply still in an input buffer when the SM went idle used to be
 * stranded: hotspot with fetch_on_empty=false deadlocked) */
TEST(mem_icnt_pending_includes_input_buffers)
{
	struct icnt_params p = {.inputs = 2, .outputs = 2, .latency = 1, .flit_bytes = 32, .flits_per_cycle = 1,
				.in_buf_flits = 8, .out_buf_packets = 1};
	struct icnt *n = icnt_create(&p);
	CHECK(n != NULL);
	if (!n)
		return;
	struct mem_pkt pk;
	memset(&pk, 0, sizeof pk);
	CHECK(!icnt_out_pending(n, 0) && !icnt_out_pending(n, 1));
	CHECK(icnt_push(n, 1, 0, 1, &pk));
	CHECK(icnt_out_pending(n, 0)); /* in input 1's buffer, not granted yet */
	CHECK(!icnt_out_pending(n, 1));
	CHECK(icnt_push(n, 1, 0, 1, &pk));
	for (unsigned c = 0; c < 20; c++)
		icnt_cycle(n); /* the first is granted; the second waits: output 0's ring holds one */
	CHECK(icnt_peek(n, 0) != NULL);
	icnt_pop(n, 0);
	CHECK(icnt_out_pending(n, 0)); /* the second, still in the input buffer or in flight */
	for (unsigned c = 0; c < 20; c++)
		icnt_cycle(n);
	CHECK(icnt_peek(n, 0) != NULL);
	icnt_pop(n, 0);
	CHECK(!icnt_out_pending(n, 0) && !icnt_out_pending(n, 2)); /* an output that does not exist: none */
	icnt_destroy(n);
}

/* --------------------------------------------------- address mapping */

TEST(mem_address_interleaving)
{
	struct mem_map m = {.parts = 6, .slices = 2, .chunk = 256};
	for (unsigned k = 0; k < 24; k++) {
		uint64_t a = 256ull * k + 40;
		CHECK_EQ(mem_partition_of(&m, a), k % 6);
		CHECK_EQ(mem_slice_in_part(&m, a), (k / 6) % 2);
		CHECK_EQ(mem_slice_of(&m, a), (k % 6) * 2 + (k / 6) % 2);
	}
	uint64_t x = 0x9E3779B97F4A7C15ull;
	for (unsigned i = 0; i < 1000; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		uint64_t a = x >> 20;
		unsigned p = mem_partition_of(&m, a), s = mem_slice_in_part(&m, a);
		uint64_t pl = mem_part_local(&m, a), sl = mem_slice_local(&m, a);
		CHECK_EQ(mem_slice_to_part_local(&m, s, sl), pl);
		CHECK_EQ(mem_part_to_global(&m, p, pl), a);
		CHECK_EQ((pl / m.chunk) % m.slices, s);
	}
}

/* --------------------------------------------------------- interconnect */

TEST(mem_icnt_latency_bandwidth_backpressure)
{
	struct icnt_params p = {.inputs = 3, .outputs = 2, .latency = 5, .flit_bytes = 32, .flits_per_cycle = 1,
				.in_buf_flits = 8, .out_buf_packets = 2};
	struct icnt *n = icnt_create(&p);
	CHECK(n != NULL);
	if (!n)
		return;
	CHECK_EQ(icnt_flits(n, 8), 1);
	CHECK_EQ(icnt_flits(n, 136), 5);
	struct mem_pkt pk;
	memset(&pk, 0, sizeof pk);
	pk.token = 1;
	CHECK(icnt_push(n, 0, 1, 1, &pk));
	/* Granted at the next cycle; available latency + serialization cycles after the push. */
	unsigned c = 0;
	while (!icnt_peek(n, 1) && c < 100) {
		icnt_cycle(n);
		c++;
	}
	CHECK_EQ(c, p.latency + 1);
	icnt_pop(n, 1);
	CHECK(icnt_idle(n));
	/* A 5-flit packet: 4 more cycles of serialization. */
	CHECK(icnt_push(n, 0, 1, 5, &pk));
	c = 0;
	while (!icnt_peek(n, 1) && c < 100) {
		icnt_cycle(n);
		c++;
	}
	CHECK_EQ(c, p.latency + 5);
	icnt_pop(n, 1);
	/* Input buffer bound: 8 flits. */
	CHECK(icnt_push(n, 2, 0, 5, &pk));
	CHECK(!icnt_can_push(n, 2, 4));
	CHECK(!icnt_push(n, 2, 0, 4, &pk));
	CHECK(icnt_push(n, 2, 0, 3, &pk));
	/* Bandwidth: 20 one-flit packets from two inputs to one output take >= 20 cycles. */
	struct icnt *m = icnt_create(&p);
	CHECK(m != NULL);
	if (!m) {
		icnt_destroy(n);
		return;
	}
	unsigned sent = 0, got = 0, cyc = 0;
	while (got < 20 && cyc < 1000) {
		for (unsigned i = 0; i < 2 && sent < 20; i++) {
			pk.token = sent;
			if (icnt_push(m, i, 0, 1, &pk))
				sent++;
		}
		icnt_cycle(m);
		cyc++;
		const struct mem_pkt *q = icnt_peek(m, 0);
		if (q) {
			got++;
			icnt_pop(m, 0);
		}
	}
	CHECK_EQ(got, 20);
	CHECK(cyc >= 20 + p.latency);
	CHECK(cyc <= 20 + p.latency + 2);
	/* Ejection back-pressure: nobody pops output 1; at most out_buf + pipeline packets get there. */
	for (unsigned k = 0; k < 200; k++) {
		icnt_push(m, k % 3, 1, 1, &pk);
		icnt_cycle(m);
	}
	unsigned there = 0;
	while (icnt_peek(m, 1)) {
		icnt_pop(m, 1);
		there++;
	}
	CHECK(there <= p.out_buf_packets + p.latency + 1);
	CHECK(there >= p.out_buf_packets);
	CHECK(!icnt_idle(m)); /* the inputs still hold packets */
	icnt_destroy(m);
	icnt_destroy(n);
}

/* ----------------------------------------------------------------- DRAM */

static struct dram_params gtx480_dram(void)
{
	struct dram_params p = {.banks = 16, .bank_groups = 4, .bank_interleave = 256, .row_bytes = 4096,
				.bus_bytes = 8, .burst_length = 8, .data_rate = 4, .tCCD = 2, .tCCDL = 3,
				.tRRD = 6, .tRCD = 12, .tRAS = 28, .tRP = 12, .tRC = 40, .tCL = 12, .tWL = 4,
				.tCDLR = 5, .tWR = 12, .tRTPL = 2, .read_queue = 16, .write_queue = 16,
				.write_high = 12, .write_low = 4, .return_queue = 116};
	return p;
}

/* Partition-local address of column byte `col` of `row` in `bank`. */
static uint64_t dram_addr(const struct dram_params *p, unsigned bank, uint64_t row, unsigned col)
{
	uint64_t per_row = p->row_bytes / p->bank_interleave;
	uint64_t g = (row * per_row + col / p->bank_interleave) * p->banks + bank;
	return g * p->bank_interleave + col % p->bank_interleave;
}

/* Push one read at cycle *now and tick until its data is back; returns the cycles taken. */
static uint64_t dram_one(struct dram *d, uint64_t addr, uint32_t sectors, uint64_t *now)
{
	struct dram_req r = {.addr = addr, .tag = addr, .sectors = sectors, .write = false};
	if (!dram_push(d, &r))
		return 0;
	uint64_t t0 = *now;
	for (;;) {
		dram_cycle(d, *now);
		if (dram_peek(d, *now)) {
			dram_pop(d, *now);
			return *now - t0;
		}
		if (++*now - t0 > 10000)
			return 0;
	}
}

TEST(mem_dram_row_hit_vs_miss_latency)
{
	struct dram_params p = gtx480_dram();
	struct ws_stats st;
	memset(&st, 0, sizeof st);
	struct dram *d = dram_create(&p, &st);
	CHECK(d != NULL);
	if (!d)
		return;
	unsigned b;
	uint64_t row;
	unsigned col;
	dram_map(&p, dram_addr(&p, 5, 77, 640), &b, &row, &col);
	CHECK_EQ(b, 5);
	CHECK_EQ(row, 77);
	CHECK_EQ(col, 640);
	CHECK_EQ(dram_bursts(&p, 0x1), 1);
	CHECK_EQ(dram_bursts(&p, 0x3), 1);
	CHECK_EQ(dram_bursts(&p, 0x5), 2);
	CHECK_EQ(dram_bursts(&p, 0xF), 2);
	uint64_t now = 0;
	unsigned bc = p.burst_length / p.data_rate;
	/* Closed row: ACT, then RD after tRCD, data after tCL plus the burst. */
	CHECK_EQ(dram_one(d, dram_addr(&p, 3, 10, 0), 0x1, &now), p.tRCD + p.tCL + bc);
	/* Same row: only the column access. */
	CHECK_EQ(dram_one(d, dram_addr(&p, 3, 10, 128), 0x1, &now), p.tCL + bc);
	/* Two bursts in one bank group: the second column command waits tCCDL. */
	CHECK_EQ(dram_one(d, dram_addr(&p, 3, 10, 0), 0xF, &now), p.tCCDL + p.tCL + bc);
	/* Row conflict once tRAS has passed: PRE, ACT, RD. */
	now += p.tRAS;
	CHECK_EQ(dram_one(d, dram_addr(&p, 3, 11, 0), 0x1, &now), p.tRP + p.tRCD + p.tCL + bc);
	/* Row conflict right after an activate waits for tRAS. */
	uint64_t t_act = now;
	uint64_t lat = dram_one(d, dram_addr(&p, 4, 1, 0), 0x1, &now); /* opens bank 4 at t_act */
	CHECK_EQ(lat, p.tRCD + p.tCL + bc);
	lat = dram_one(d, dram_addr(&p, 4, 2, 0), 0x1, &now);
	CHECK(lat > 0);
	CHECK_EQ(now, t_act + p.tRAS + p.tRP + p.tRCD + p.tCL + bc);
	CHECK_EQ(st.v[STAT_dram_row_hits], 2);
	CHECK_EQ(st.v[STAT_dram_row_misses], 4);
	CHECK_EQ(st.v[STAT_dram_activates], 4);
	CHECK_EQ(st.v[STAT_dram_precharges], 2);
	CHECK_EQ(st.v[STAT_dram_reads], 6);
	CHECK_EQ(st.v[STAT_dram_bytes], 7 * 64);
	CHECK(dram_idle(d));
	dram_destroy(d);
}

TEST(mem_dram_frfcfs_reorders_row_hit)
{
	struct dram_params p = gtx480_dram();
	struct dram *d = dram_create(&p, NULL);
	CHECK(d != NULL);
	if (!d)
		return;
	uint64_t now = 0;
	CHECK(dram_one(d, dram_addr(&p, 2, 5, 0), 0x1, &now) > 0); /* row 5 open in bank 2 */
	now += 100;
	struct dram_req older = {.addr = dram_addr(&p, 2, 6, 0), .tag = 1, .sectors = 0x1};
	struct dram_req younger = {.addr = dram_addr(&p, 2, 5, 256), .tag = 2, .sectors = 0x1};
	CHECK(dram_push(d, &older));
	CHECK(dram_push(d, &younger));
	uint64_t order[2] = {0, 0}, when[2] = {0, 0};
	unsigned got = 0;
	for (uint64_t t0 = now; got < 2 && now - t0 < 1000; now++) {
		dram_cycle(d, now);
		const struct dram_req *r = dram_peek(d, now);
		if (r) {
			order[got] = r->tag;
			when[got++] = now;
			dram_pop(d, now);
		}
	}
	CHECK_EQ(got, 2);
	CHECK_EQ(order[0], 2); /* the row hit went first */
	CHECK_EQ(order[1], 1);
	CHECK(when[1] > when[0]);
	dram_destroy(d);
}

/* tRTPL: after a read, GPGPU-Sim holds the precharges of that read's bank
 * group (dram_rtpl_group), not of the whole channel.  A stream of row hits in
 * banks 0, 2 and 3 (groups 0, 2, 3: a read every tCCD = 2 cycles) and one read to another row
 * of bank 1 (group 1): channel-wide, every PRE waits for a gap in the stream,
 * so bank 1's read comes back after the stream; per group, bank 1 precharges
 * and activates while the stream runs. */
static uint64_t dram_rtpl_run(struct test_ctx *t, bool group, uint64_t *stream_end)
{
	struct dram_params p = gtx480_dram();
	p.read_queue = 64;
	p.rtpl_group = group;
	struct dram *d = dram_create(&p, NULL);
	CHECK(d != NULL);
	if (!d)
		return 0;
	uint64_t now = 0;
	CHECK(dram_one(d, dram_addr(&p, 1, 0, 0), 0x1, &now) > 0); /* row 0 open in bank 1 */
	static const unsigned stream_bank[3] = {0, 2, 3}; /* groups 0, 2, 3: a read every tCCD */
	for (unsigned b = 0; b < 3; b++)
		CHECK(dram_one(d, dram_addr(&p, stream_bank[b], 0, 0), 0x1, &now) > 0);
	now += 100;
	struct dram_req other = {.addr = dram_addr(&p, 1, 1, 0), .tag = 1, .sectors = 0x1};
	CHECK(dram_push(d, &other)); /* the oldest request: its column command goes first once its row is open */
	for (unsigned i = 0; i < 48; i++) {
		unsigned k = i / 3;
		struct dram_req r = {.addr = dram_addr(&p, stream_bank[i % 3], 0, (k % 16) * 256 + (k / 16) * 32),
				     .tag = 100 + i, .sectors = 0x1};
		CHECK(dram_push(d, &r));
	}
	uint64_t t0 = now, other_at = 0;
	*stream_end = 0;
	for (unsigned got = 0; got < 49 && now - t0 < 5000; now++) {
		dram_cycle(d, now);
		const struct dram_req *r = dram_peek(d, now);
		if (r) {
			if (r->tag == 1)
				other_at = now - t0;
			else
				*stream_end = now - t0;
			dram_pop(d, now);
			got++;
		}
	}
	dram_destroy(d);
	return other_at;
}

TEST(mem_dram_rtpl_per_bank_group)
{
	uint64_t end_chan = 0, end_grp = 0;
	uint64_t chan = dram_rtpl_run(t, false, &end_chan), grp = dram_rtpl_run(t, true, &end_grp);
	CHECK(chan > 0 && grp > 0);
	printf("  tRTPL channel-wide: bank 1's read back at %llu, the stream at %llu; per bank group: %llu, %llu\n",
	       (unsigned long long)chan, (unsigned long long)end_chan, (unsigned long long)grp,
	       (unsigned long long)end_grp);
	CHECK_MSG(chan > end_chan - 10, "channel-wide tRTPL: bank 1's read at %llu, the stream ends at %llu",
		  (unsigned long long)chan, (unsigned long long)end_chan);
	CHECK_MSG(grp + 40 < end_grp, "per-group tRTPL: bank 1's read at %llu, the stream ends at %llu",
		  (unsigned long long)grp, (unsigned long long)end_grp);
	CHECK(end_grp <= end_chan + 4); /* the stream itself barely waits for bank 1's commands */
}

TEST(mem_dram_peak_bandwidth_and_writes)
{
	struct dram_params p = gtx480_dram();
	struct ws_stats st;
	memset(&st, 0, sizeof st);
	struct dram *d = dram_create(&p, &st);
	CHECK(d != NULL);
	if (!d)
		return;
	/* Keep the read queue full of sequential 128-byte lines. */
	uint64_t next = 0, cycles = 20000, done = 0;
	for (uint64_t now = 0; now < cycles; now++) {
		struct dram_req r = {.addr = next, .tag = next, .sectors = 0xF};
		if (dram_push(d, &r))
			next += 128;
		dram_cycle(d, now);
		while (dram_peek(d, now)) {
			dram_pop(d, now);
			done++;
		}
	}
	unsigned peak = p.bus_bytes * p.data_rate; /* bytes per DRAM cycle */
	CHECK(st.v[STAT_dram_bytes] <= (uint64_t)peak * cycles);
	CHECK_MSG(st.v[STAT_dram_bytes] * 100 >= (uint64_t)peak * cycles * 95, "DRAM streamed %llu of %llu bytes",
		  (unsigned long long)st.v[STAT_dram_bytes], (unsigned long long)peak * cycles);
	CHECK(st.v[STAT_dram_busy_cycles] <= cycles);
	CHECK(done * 128 <= st.v[STAT_dram_bytes]);
	/* Writes only: drained although fewer than write_high wait; no data returns. */
	uint64_t now = cycles;
	while (!dram_idle(d) && now < cycles + 1000) {
		dram_cycle(d, now);
		while (dram_peek(d, now))
			dram_pop(d, now);
		now++;
	}
	CHECK(dram_idle(d));
	uint64_t w0 = st.v[STAT_dram_writes];
	for (unsigned i = 0; i < 3; i++) {
		struct dram_req w = {.addr = 4096ull * i, .sectors = 0xF, .write = true};
		CHECK(dram_push(d, &w));
	}
	for (uint64_t t0 = now; !dram_idle(d) && now - t0 < 1000; now++) {
		dram_cycle(d, now);
		CHECK(dram_peek(d, now) == NULL);
	}
	CHECK(dram_idle(d));
	CHECK_EQ(st.v[STAT_dram_writes] - w0, 3);
	/* Queue bound. */
	for (unsigned i = 0; i < p.write_queue; i++) {
		struct dram_req w = {.addr = 128ull * i, .sectors = 0x1, .write = true};
		CHECK(dram_push(d, &w));
	}
	struct dram_req w = {.addr = 0, .sectors = 0x1, .write = true};
	CHECK(!dram_push(d, &w));
	CHECK(dram_can_accept(d, false));
	dram_destroy(d);
	/* Bad parameters. */
	p.burst_length = 6;
	CHECK(dram_create(&p, NULL) == NULL);
}

/* -------------------------------------------------------- memory system */

static ws_config *mem_cfg(const char *const *kv)
{
	ws_config *cfg = wsConfigCreate();
	char err[256];
	for (; cfg && kv && kv[0]; kv += 2)
		if (wsConfigSet(cfg, kv[0], kv[1], err, sizeof err) != WS_SUCCESS) {
			wsConfigDestroy(cfg);
			return NULL;
		}
	return cfg;
}

/* Send one request from `sm` and run until its reply arrives: core cycles taken (0: lost). */
static uint64_t round_trip(struct memsys *m, unsigned sm, uint64_t addr, uint32_t sectors, enum mem_kind k,
			   struct mem_reply *out)
{
	struct mem_req r = {.addr = addr, .token = addr ^ 0x5A5A, .sectors = sectors, .kind = k, .bytes = 0};
	if (k == MEM_ATOMIC)
		r.bytes = 4;
	if (!memsys_send(m, sm, &r))
		return 0;
	for (uint64_t c = 1; c < 100000; c++) {
		memsys_cycle(m);
		if (memsys_pop_reply(m, sm, out))
			return out->token == r.token ? c : 0;
	}
	return 0;
}

static void drain(struct memsys *m, unsigned nsms)
{
	struct mem_reply o;
	for (unsigned c = 0; c < 100000 && !memsys_idle(m); c++) {
		memsys_cycle(m);
		for (unsigned s = 0; s < nsms; s++)
			while (memsys_pop_reply(m, s, &o))
				;
	}
}

/* Unloaded L2-hit latency with equal core/icnt/L2 clocks:
 * 2 * icnt_latency + l2_rop_latency + reply serialization + 2 queue hops. */
static uint64_t expect_hit(const ws_config *cfg, unsigned data_bytes)
{
	uint64_t flits = (cfg_int(cfg, CFG_icnt_header_bytes) + data_bytes + cfg_int(cfg, CFG_icnt_flit_bytes) - 1) /
			 cfg_int(cfg, CFG_icnt_flit_bytes);
	uint64_t ser = (flits + cfg_int(cfg, CFG_icnt_flits_per_cycle) - 1) / cfg_int(cfg, CFG_icnt_flits_per_cycle);
	return 2 * (uint64_t)cfg_int(cfg, CFG_icnt_latency) + (uint64_t)cfg_int(cfg, CFG_l2_rop_latency) + ser + 2;
}

TEST(mem_sys_unloaded_latencies)
{
	static const char *const variants[3][9] = {
		{NULL},
		{"icnt_latency", "20", "l2_rop_latency", "50", "dram_latency", "30", NULL},
		{"clock_dram", "700", "icnt_flits_per_cycle", "1", "dram_latency", "200", NULL},
	};
	for (unsigned v = 0; v < 3; v++) {
		ws_config *cfg = mem_cfg(variants[v]);
		CHECK(cfg != NULL);
		if (!cfg)
			return;
		struct ws_stats st;
		memset(&st, 0, sizeof st);
		struct memsys *m = memsys_create(cfg, &st, 4);
		CHECK(m != NULL);
		if (!m) {
			wsConfigDestroy(cfg);
			return;
		}
		struct mem_reply o;
		uint64_t miss = round_trip(m, 1, 0x123400, 0xF, MEM_READ, &o);
		CHECK_EQ(o.kind, MEM_READ);
		CHECK_EQ(o.bytes, 128);
		CHECK_EQ(o.addr, 0x123400);
		uint64_t hit = round_trip(m, 1, 0x123400, 0xF, MEM_READ, &o);
		CHECK_MSG(hit == expect_hit(cfg, 128), "variant %u: L2 hit %llu cycles, expected %llu", v,
			  (unsigned long long)hit, (unsigned long long)expect_hit(cfg, 128));
		/* One sector: a shorter reply. */
		uint64_t hit1 = round_trip(m, 2, 0x123420, 0x1, MEM_READ, &o);
		CHECK_EQ(hit1, expect_hit(cfg, 32));
		CHECK_EQ(o.bytes, 32);
		/* Miss - hit = controller pipeline + DRAM access (ACT, then the line's bursts in one
		 * bank group: tRCD + (bursts-1) tCCDL + tCL + burst; 4 bursts with one per sector
		 * (dram_sector_cmds), else 2 of 64 bytes), in core cycles, + <= 3 hops. */
		double ratio = (double)memsys_period_fs(m, MEMSYS_CLK_DRAM) / (double)memsys_period_fs(m, MEMSYS_CLK_CORE);
		int64_t bursts = cfg_int(cfg, CFG_dram_sector_cmds) ? 4 : 2;
		double dram = (double)(cfg_int(cfg, CFG_dram_trcd) + (bursts - 1) * cfg_int(cfg, CFG_dram_tccdl) +
				       cfg_int(cfg, CFG_dram_tcl) + cfg_int(cfg, CFG_dram_burst_length) / cfg_int(cfg, CFG_dram_data_rate)) *
			      ratio;
		double lo = (double)cfg_int(cfg, CFG_dram_latency) + dram;
		CHECK_MSG((double)(miss - hit) >= lo && (double)(miss - hit) <= lo + 4,
			  "variant %u: miss %llu - hit %llu not in [%.1f, %.1f]", v, (unsigned long long)miss,
			  (unsigned long long)hit, lo, lo + 4);
		CHECK_EQ(st.v[STAT_l2_misses], 1);
		CHECK_EQ(st.v[STAT_l2_hits], 2);
		CHECK_EQ(st.v[STAT_dram_reads], 1);
		CHECK(memsys_idle(m));
		memsys_destroy(m);
		wsConfigDestroy(cfg);
	}
}

/* A memory system of `nsms` SMs on cfg with zeroed statistics; NULL (cfg destroyed) on failure. */
static struct memsys *sys_create(struct test_ctx *t, ws_config *cfg, struct ws_stats *st, unsigned nsms)
{
	memset(st, 0, sizeof *st);
	struct memsys *m = cfg ? memsys_create(cfg, st, nsms) : NULL;
	CHECK(m != NULL);
	if (!m)
		wsConfigDestroy(cfg);
	return m;
}

TEST(mem_sys_writes_ack_and_atomics)
{
	/* one acknowledgement per write and one transaction per atomic (mem_sys_l2_sector_writes and
	 * core_atomic_sector_txns time the per-sector ones of the defaults since the second GTX480 flip) */
	static const char *const kv[] = {"l2_sector_writes", "false", "atomic_sector_txns", "false", NULL};
	ws_config *cfg = mem_cfg(kv);
	struct ws_stats st;
	struct memsys *m = sys_create(t, cfg, &st, 2);
	if (!m)
		return;
	struct mem_reply o;
	/* A write is acknowledged after the L2 takes it (write-allocate, no DRAM access). */
	uint64_t w = round_trip(m, 0, 0x40000, 0xF, MEM_WRITE, &o);
	CHECK_EQ(o.kind, MEM_WRITE);
	CHECK_EQ(o.bytes, 0);
	/* The request carries 128 data bytes (5 flits at 2 per cycle: 3 cycles), the ack none. */
	CHECK_EQ(w, expect_hit(cfg, 0) + 2);
	CHECK_EQ(st.v[STAT_dram_reads] + st.v[STAT_dram_writes], 0);
	/* Reading it back hits in the L2. */
	CHECK_EQ(round_trip(m, 0, 0x40000, 0xF, MEM_READ, &o), expect_hit(cfg, 128));
	/* Atomics to one line serialize in the atomic unit; to different lines they pipeline. */
	unsigned lat = (unsigned)cfg_int(cfg, CFG_l2_atomic_latency);
	CHECK(round_trip(m, 1, 0x40000, 0x1, MEM_ATOMIC, &o) == expect_hit(cfg, 4) + lat);
	CHECK_EQ(o.kind, MEM_ATOMIC);
	CHECK_EQ(o.bytes, 4);
	uint64_t same[2] = {0, 0}, diff[2] = {0, 0};
	for (unsigned pass = 0; pass < 2; pass++) {
		/* 8 atomics, back to back, to one line (pass 0) or 8 lines of one slice (pass 1). */
		for (unsigned k = 0; k < 8; k++) {
			uint64_t a = pass ? 0x40000 + (uint64_t)k * 256 * 12 : 0x40000;
			CHECK(pass || memsys_slice_of(m, a) == memsys_slice_of(m, 0x40000));
			if (pass)
				round_trip(m, 1, a, 0x1, MEM_READ, &o); /* bring the line to the L2 */
		}
		uint64_t first = 0, last = 0, c = 0;
		unsigned got = 0, sent = 0;
		while (got < 8 && c < 10000) {
			if (sent < 8) {
				struct mem_req r = {.addr = pass ? 0x40000 + (uint64_t)sent * 256 * 12 : 0x40000,
						    .token = sent, .sectors = 0x1, .bytes = 4, .kind = MEM_ATOMIC};
				if (memsys_send(m, 1, &r))
					sent++;
			}
			memsys_cycle(m);
			c++;
			while (memsys_pop_reply(m, 1, &o)) {
				if (!got)
					first = c;
				last = c;
				got++;
			}
		}
		CHECK_EQ(got, 8);
		if (pass)
			diff[0] = first, diff[1] = last;
		else
			same[0] = first, same[1] = last;
	}
	CHECK_MSG(same[1] - same[0] >= 7 * lat, "same-line atomics %llu..%llu", (unsigned long long)same[0],
		  (unsigned long long)same[1]);
	CHECK_MSG(diff[1] - diff[0] < 7 * lat, "different-line atomics %llu..%llu", (unsigned long long)diff[0],
		  (unsigned long long)diff[1]);
	CHECK_EQ(st.v[STAT_l2_atomics], 17);
	drain(m, 2);
	CHECK(memsys_idle(m));
	memsys_destroy(m);
	wsConfigDestroy(cfg);
}

/* A 2-SM memory system with the boolean parameter `key` on or off; *cfg is its
 * configuration (NULL, and nothing to destroy, when it fails). */
static struct memsys *sys_with(struct test_ctx *t, const char *key, bool on, ws_config **cfg, struct ws_stats *st)
{
	const char *const kv[] = {key, on ? "true" : "false", NULL};
	*cfg = mem_cfg(kv);
	struct memsys *m = sys_create(t, *cfg, st, 2);
	if (!m)
		*cfg = NULL;
	return m;
}

/* Requests of `kind` (reads: line fills when `fill`) for sectors `sectors` of `n` lines of one
 * slice from SM 1, sent back to back until all are answered: replies counted, bytes summed,
 * cycle of the first and the last reply. */
static unsigned send_lines(struct memsys *m, unsigned n, enum mem_kind kind, uint32_t sectors, bool fill,
                           uint64_t *first, uint64_t *last, uint64_t *bytes)
{
	unsigned sent = 0, got = 0;
	*first = *last = *bytes = 0;
	for (uint64_t c = 1; c < 100000 && (sent < n || !memsys_idle(m)); c++) {
		if (sent < n) {
			struct mem_req r = {.addr = 0x40000 + (uint64_t)sent * 256 * 12,
			                    .token = sent,
			                    .sectors = sectors,
			                    .kind = kind,
			                    .fill = fill};
			if (memsys_send(m, 1, &r))
				sent++;
		}
		memsys_cycle(m);
		struct mem_reply o;
		while (memsys_pop_reply(m, 1, &o)) {
			if (!got++)
				*first = c;
			*last = c;
			*bytes += o.bytes;
		}
	}
	return got;
}

/* Line fills (mem_req.fill) of `n` lines: send_lines of whole-line reads. */
static unsigned fill_lines(struct memsys *m, unsigned n, bool fill, uint64_t *first, uint64_t *last, uint64_t *bytes)
{
	return send_lines(m, n, MEM_READ, 0xF, fill, first, last, bytes);
}

/* l2_sector_requests (GPGPU-Sim's sectored L2): a line fill becomes one L2 access and one
 * reply per sector, so an L2 hit's last sector arrives 3 L2 cycles after a one-sector hit
 * and a slice serves one sector, not one line, per cycle; reads that fill no cache stay whole. */
TEST(mem_sys_l2_sector_requests)
{
	for (unsigned split = 0; split < 2; split++) {
		ws_config *cfg;
		struct ws_stats st;
		struct memsys *m = sys_with(t, "l2_sector_requests", split, &cfg, &st);
		if (!m)
			return;
		uint64_t first, last, bytes;
		CHECK_EQ(fill_lines(m, 8, true, &first, &last, &bytes), split ? 32 : 8); /* misses: to the L2 */
		drain(m, 2);
		uint64_t acc0 = st.v[STAT_l2_accesses];
		/* one line, an L2 hit */
		CHECK_EQ(fill_lines(m, 1, true, &first, &last, &bytes), split ? 4 : 1);
		CHECK_EQ(bytes, 128);
		CHECK_MSG(last == (split ? expect_hit(cfg, 32) + 3 : expect_hit(cfg, 128)),
			  "split %u: last reply after %llu cycles", split, (unsigned long long)last);
		CHECK_EQ(st.v[STAT_l2_accesses] - acc0, split ? 4 : 1);
		/* 8 lines back to back: one sector per L2 cycle (31 cycles from the first reply to the
		 * last), else one line per cycle, the reply port's 3 cycles a line the limit */
		CHECK_EQ(fill_lines(m, 8, true, &first, &last, &bytes), split ? 32 : 8);
		CHECK_MSG(split ? last - first >= 31 : last - first <= 22, "split %u: 8 lines in %llu cycles", split,
			  (unsigned long long)(last - first));
		/* a read that fills no cache (an L1D bypass) comes back whole */
		CHECK_EQ(fill_lines(m, 1, false, &first, &last, &bytes), 1);
		CHECK_EQ(bytes, 128);
		drain(m, 2);
		CHECK(memsys_idle(m));
		CHECK_EQ(st.v[STAT_icnt_reply_packets], split ? 4 * 8 + 4 + 4 * 8 + 1 : 8 + 1 + 8 + 1);
		memsys_destroy(m);
		wsConfigDestroy(cfg);
	}
}

/* l2_sector_writes (GPGPU-Sim's sectored L2 for stores): a store becomes one L2 access and one
 * acknowledgement per sector of its segment (one sector, a 64-byte half, or all four sectors of a
 * line whose both halves it touches), each access a miss when its sector is not valid; so a
 * whole-line store's last ack comes 3 L2 cycles after a one-sector store's and a slice takes one
 * sector, not one store, per cycle.  Without it: one access and one ack, a miss only when the
 * line is absent. */
TEST(mem_sys_l2_sector_writes)
{
	static const uint32_t masks[] = {0x1, 0x2, 0x3, 0xC, 0x6, 0x9, 0xF};
	static const unsigned segment[] = {1, 1, 2, 2, 4, 4, 4}; /* sectors of each mask's segment */
	for (unsigned split = 0; split < 2; split++) {
		ws_config *cfg;
		struct ws_stats st;
		struct memsys *m = sys_with(t, "l2_sector_writes", split, &cfg, &st);
		if (!m)
			return;
		for (unsigned i = 0; i < sizeof masks / sizeof masks[0]; i++) {
			struct mem_req r = {.addr = 0x40000, .sectors = masks[i], .kind = MEM_WRITE};
			CHECK_MSG(memsys_write_acks(m, &r) == (split ? segment[i] : 1),
			          "split %u, sectors 0x%x: %u acks", split, masks[i], memsys_write_acks(m, &r));
		}
		uint64_t first, last, bytes;
		/* one sector of an absent line: one access, one miss either way */
		CHECK_EQ(send_lines(m, 1, MEM_WRITE, 0x1, false, &first, &last, &bytes), 1);
		CHECK_EQ(last, expect_hit(cfg, 0)); /* 40 bytes: 2 flits, one cycle */
		CHECK_EQ(st.v[STAT_l2_accesses], 1);
		CHECK_EQ(st.v[STAT_l2_misses], 1);
		/* the whole line: its sector 0 is valid now, sectors 1-3 are not */
		CHECK_EQ(send_lines(m, 1, MEM_WRITE, 0xF, false, &first, &last, &bytes), split ? 4 : 1);
		CHECK_EQ(bytes, 0);
		CHECK_MSG(last == expect_hit(cfg, 0) + 2 + (split ? 3 : 0), "split %u: last ack after %llu cycles",
		          split, (unsigned long long)last);
		CHECK_EQ(st.v[STAT_l2_accesses], split ? 5 : 2);
		CHECK_EQ(st.v[STAT_l2_misses], split ? 4 : 1);
		/* sectors 0 and 3: all four sectors of the line, now valid: hits */
		CHECK_EQ(send_lines(m, 1, MEM_WRITE, 0x9, false, &first, &last, &bytes), split ? 4 : 1);
		CHECK_EQ(st.v[STAT_l2_accesses], split ? 9 : 3);
		CHECK_EQ(st.v[STAT_l2_misses], split ? 4 : 1);
		/* 8 whole-line stores to one slice back to back: one sector a cycle (31 L2 cycles from
		 * the first ack to the last), else the request network's 3 cycles a store the limit */
		CHECK_EQ(send_lines(m, 8, MEM_WRITE, 0xF, false, &first, &last, &bytes), split ? 32 : 8);
		CHECK_MSG(split ? last - first >= 31 : last - first <= 24, "split %u: 8 stores in %llu cycles", split,
		          (unsigned long long)(last - first));
		CHECK(memsys_idle(m));
		CHECK_EQ(st.v[STAT_icnt_reply_packets], split ? 1 + 4 + 4 + 32 : 1 + 1 + 1 + 8);
		memsys_destroy(m);
		wsConfigDestroy(cfg);
	}
}

/* Stream sequential 128-byte reads from every SM; returns DRAM utilization
 * (bytes / (DRAM cycles * channels * peak bytes per cycle)) after a warm-up. */
static double stream(const ws_config *cfg, unsigned nsms, uint64_t cycles, struct ws_stats *st, uint64_t *replies)
{
	struct memsys *m = memsys_create(cfg, st, nsms);
	if (!m)
		return -1;
	uint64_t next = 0x10000000, b0 = 0, c0 = 0, warm = cycles / 4;
	*replies = 0;
	for (uint64_t c = 0; c < cycles; c++) {
		memsys_cycle(m);
		if (c == warm) {
			b0 = st->v[STAT_dram_bytes];
			c0 = st->v[STAT_dram_cycles];
		}
		for (unsigned s = 0; s < nsms; s++) {
			struct mem_reply o;
			while (memsys_pop_reply(m, s, &o))
				(*replies)++;
			struct mem_req r = {.addr = next, .token = next, .sectors = 0xF, .kind = MEM_READ};
			if (memsys_send(m, s, &r))
				next += 128;
		}
	}
	double peak = (double)cfg_int(cfg, CFG_dram_channels) * (double)cfg_int(cfg, CFG_dram_bus_bytes) *
		      (double)cfg_int(cfg, CFG_dram_data_rate);
	double util = (double)(st->v[STAT_dram_bytes] - b0) / ((double)(st->v[STAT_dram_cycles] - c0) * peak);
	memsys_destroy(m);
	return util;
}

TEST(mem_sys_streaming_bandwidth)
{
	ws_config *cfg = mem_cfg(NULL);
	CHECK(cfg != NULL);
	if (!cfg)
		return;
	/* The configured peak is 177.4 GB/s: 6 x 8 B x 4 x 924 MHz. */
	double peak_gbs = (double)cfg_int(cfg, CFG_dram_channels) * (double)cfg_int(cfg, CFG_dram_bus_bytes) *
			  (double)cfg_int(cfg, CFG_dram_data_rate) * cfg_float(cfg, CFG_clock_dram) / 1000.0;
	CHECK(peak_gbs > 177.3 && peak_gbs < 177.5);
	struct ws_stats st;
	memset(&st, 0, sizeof st);
	uint64_t replies = 0;
	double u = stream(cfg, 15, 30000, &st, &replies);
	CHECK_MSG(u >= 0.90 && u <= 1.0, "DRAM utilization %.3f", u);
	CHECK(st.v[STAT_dram_busy_cycles] <= st.v[STAT_dram_cycles] * (uint64_t)cfg_int(cfg, CFG_dram_channels));
	CHECK(st.v[STAT_dram_bytes] <= st.v[STAT_dram_cycles] * 6 * 32);
	CHECK(replies > 0);
	CHECK(replies * 128 <= st.v[STAT_dram_bytes]);
	/* With 4 L2 MSHRs per slice the memory-level parallelism is too small to keep DRAM busy. */
	wsConfigDestroy(cfg);
	static const char *const few[] = {"l2_mshrs", "4", NULL};
	cfg = mem_cfg(few);
	memset(&st, 0, sizeof st);
	u = stream(cfg, 15, 20000, &st, &replies);
	CHECK_MSG(u > 0 && u < 0.5, "utilization with 4 MSHRs %.3f", u);
	wsConfigDestroy(cfg);
}

TEST(mem_sys_clock_domains)
{
	ws_config *cfg = mem_cfg(NULL);
	struct memsys *m = cfg ? memsys_create(cfg, NULL, 1) : NULL;
	CHECK(m != NULL);
	if (!m) {
		wsConfigDestroy(cfg);
		return;
	}
	for (unsigned i = 0; i < 7000; i++)
		memsys_cycle(m);
	CHECK_EQ(memsys_cycles(m, MEMSYS_CLK_CORE), 7000);
	CHECK_EQ(memsys_cycles(m, MEMSYS_CLK_ICNT), 7000);
	CHECK_EQ(memsys_cycles(m, MEMSYS_CLK_L2), 7000);
	uint64_t d = memsys_cycles(m, MEMSYS_CLK_DRAM);
	CHECK_MSG(d >= 9239 && d <= 9240, "DRAM cycles %llu", (unsigned long long)d); /* 7000 * 924 / 700 */
	CHECK(memsys_idle(m));
	memsys_destroy(m);
	wsConfigDestroy(cfg);
	static const char *const titan[] = {"clock_core", "1417", "clock_icnt", "1417", "clock_l2", "1417",
					    "clock_dram", "2500", NULL};
	cfg = mem_cfg(titan);
	m = cfg ? memsys_create(cfg, NULL, 1) : NULL;
	CHECK(m != NULL);
	if (m) {
		for (unsigned i = 0; i < 14170; i++)
			memsys_cycle(m);
		d = memsys_cycles(m, MEMSYS_CLK_DRAM);
		CHECK_MSG(d >= 24999 && d <= 25000, "DRAM cycles %llu", (unsigned long long)d);
	}
	memsys_destroy(m);
	wsConfigDestroy(cfg);
}

TEST(mem_sys_config_checks)
{
	ws_config *cfg = mem_cfg(NULL);
	char err[256];
	CHECK(cfg && memsys_check_config(cfg, err, sizeof err));
	static const char *const bad[][3] = {
		{"l2_line_bytes", "64", "exceed"},
		{"l1d_line_bytes", "96", "power"},
		{"dram_interleave_bytes", "200", "multiple"},
		{"dram_burst_length", "6", "burst"},
		{"dram_write_low", "12", "write_low"},
	};
	for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		ws_config *c = mem_cfg(NULL);
		CHECK(c && wsConfigSet(c, bad[i][0], bad[i][1], err, sizeof err) == WS_SUCCESS);
		err[0] = 0;
		CHECK(!memsys_check_config(c, err, sizeof err));
		CHECK_STR_CONTAINS(err, bad[i][2]);
		CHECK(memsys_create(c, NULL, 4) == NULL);
		wsConfigDestroy(c);
	}
	/* A bad request is refused, not crashed on. */
	struct memsys *m = memsys_create(cfg, NULL, 2);
	CHECK(m != NULL);
	if (m) {
		struct mem_req r = {.addr = 0, .sectors = 1, .kind = MEM_READ};
		CHECK(!memsys_send(m, 2, &r));
		CHECK(!memsys_send(m, 0, NULL));
		struct mem_reply o;
		CHECK(!memsys_pop_reply(m, 7, &o));
		CHECK(memsys_can_accept(m, 0, NULL));
		CHECK(!memsys_can_accept(m, 5, NULL));
	}
	memsys_destroy(m);
	wsConfigDestroy(cfg);
}

/* A pseudo-random mix of reads, writes and atomics from several SMs. */
static void mixed_run(const ws_config *cfg, struct ws_stats *st, uint64_t *checksum)
{
	struct memsys *m = memsys_create(cfg, st, 6);
	if (!m)
		return;
	uint64_t x = 12345, sum = 0, outstanding = 0;
	for (unsigned c = 0; c < 20000; c++) {
		memsys_cycle(m);
		for (unsigned s = 0; s < 6; s++) {
			struct mem_reply o;
			while (memsys_pop_reply(m, s, &o)) {
				sum = sum * 31 + o.token + c;
				outstanding--;
			}
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			if (c < 15000 && (x & 3) != 0) {
				enum mem_kind k = (x >> 8) % 10 < 6 ? MEM_READ : (x >> 8) % 10 < 9 ? MEM_WRITE : MEM_ATOMIC;
				struct mem_req r = {.addr = ((x >> 16) % (1u << 22)) & ~127ull, .token = x,
						    .sectors = (uint32_t)((x >> 40) & 0xF) | 1, .kind = k,
						    .bytes = k == MEM_ATOMIC ? 4 : 0};
				if (memsys_send(m, s, &r))
					outstanding++;
			}
		}
	}
	drain(m, 6);
	*checksum = sum ^ (memsys_idle(m) ? 0 : 1) ^ (outstanding << 1);
	memsys_destroy(m);
}

TEST(mem_sys_deterministic_and_drains)
{
	/* one reply per request: a write one acknowledgement (with the default l2_sector_writes, one per sector) */
	static const char *const kv[] = {"l2_sector_writes", "false", NULL};
	ws_config *cfg = mem_cfg(kv);
	CHECK(cfg != NULL);
	if (!cfg)
		return;
	struct ws_stats a, b;
	memset(&a, 0, sizeof a);
	memset(&b, 0, sizeof b);
	uint64_t ca = 7, cb = 9;
	mixed_run(cfg, &a, &ca);
	mixed_run(cfg, &b, &cb);
	CHECK_EQ(ca, cb);
	CHECK(memcmp(&a, &b, sizeof a) == 0);
	CHECK(a.v[STAT_l2_writebacks] > 0);
	CHECK(a.v[STAT_dram_writes] > 0);
	CHECK(a.v[STAT_l2_atomics] > 0);
	CHECK(a.v[STAT_dram_row_hits] > 0 && a.v[STAT_dram_row_misses] > 0);
	CHECK(a.v[STAT_icnt_req_packets] == a.v[STAT_icnt_reply_packets]); /* one reply per request, all drained */
	wsConfigDestroy(cfg);
}

/* shmem.c's window test (every lane within one bank word, all words within
 * fewer than nbanks consecutive words: one pass) at its edges. */
TEST(mem_shmem_window_fast_path)
{
	uint64_t a[64];
	for (unsigned i = 0; i < 32; i++)
		a[i] = 4 * (i & 1 ? 31 : 0); /* words 0 and 31: a window of 32 words, distinct banks */
	CHECK_EQ(sh(a, 0xFFFFFFFFull, 4), 1);
	for (unsigned i = 0; i < 32; i++)
		a[i] = 4 * (i & 1 ? 32 : 0); /* words 0 and 32: the same bank */
	CHECK_EQ(sh(a, 0xFFFFFFFFull, 4), 2);
	CHECK_EQ(sh(a, 0x5555ull, 4), 1);     /* only the even lanes: one word */
	CHECK_EQ(sh(a, 0x3ull, 4), 2);
	for (unsigned i = 0; i < 32; i++)
		a[i] = 4 * i + 2; /* 4 bytes at word + 2: every lane straddles two words */
	CHECK_EQ(sh(a, 0xFFFFFFFFull, 4), 2);
	CHECK_EQ(sh(a, 0x1ull, 4), 1);
	CHECK_EQ(sh(a, 0x1ull, 2), 1);        /* 2 bytes at +2: inside the word */
	for (unsigned i = 0; i < 32; i++)
		a[i] = UINT64_MAX - 1; /* the last bytes of the address space (wraps with 4 bytes) */
	CHECK_EQ(sh(a, 0xFFFFFFFFull, 2), 1);
	CHECK_EQ(sh(a, 0xFFFFFFFFull, 4), 1);
	for (unsigned i = 0; i < 32; i++)
		a[i] = 1000 + 4 * (31 - i); /* descending, 32 consecutive words */
	CHECK_EQ(sh(a, 0xFFFFFFFFull, 4), 1);
	a[7] = 1000 + 4 * 32; /* one lane a word past the window: bank of word 0 twice */
	CHECK_EQ(sh(a, 0xFFFFFFFFull, 4), 2);
	for (unsigned i = 0; i < 64; i++)
		a[i] = 8 * i; /* 8-byte banks, 64 lanes of 8 bytes: 64 distinct words */
	CHECK_EQ(shmem_cycles(a, ~0ull, 64, 8, 32, 8), 2);
	CHECK_EQ(shmem_cycles(a, 0xFFFFFFFFull, 64, 8, 32, 8), 1);
}

/* coalesce.c merges a lane into the previous lane's transaction inline (loads
 * and stores); a brute-force reference (one transaction per line, in order
 * of first touch, byte by byte) on random patterns, straddling lines and at
 * the top of the address space. */
static unsigned coal_ref(const uint64_t *addr, uint64_t active, unsigned nlanes, unsigned size, enum coal_kind kind,
			 unsigned line_bytes, struct coal_txn *out)
{
	unsigned n = 0;
	for (unsigned lane = 0; lane < nlanes; lane++) {
		if (!((active >> lane) & 1))
			continue;
		for (unsigned k = 0; k < size; k++) {
			if (addr[lane] + k < addr[lane])
				break; /* clipped at the top of the address space */
			uint64_t b = addr[lane] + k, line = b & ~(uint64_t)(line_bytes - 1);
			unsigned off = (unsigned)(b - line), i;
			for (i = 0; i < n && out[i].line != line; i++)
				;
			if (i == n) {
				memset(&out[n], 0, sizeof out[n]);
				out[n++].line = line;
			}
			out[i].lanes |= 1ull << lane;
			out[i].byte_mask[off / 64] |= 1ull << (off % 64);
			out[i].sectors |= 1u << (off / MEM_SECTOR_BYTES);
		}
	}
	for (unsigned i = 0; i < n; i++)
		out[i].bytes = kind == COAL_LOAD_CACHED ? line_bytes
							: MEM_SECTOR_BYTES * (unsigned)__builtin_popcount(out[i].sectors);
	return n;
}

TEST(mem_coal_matches_reference)
{
	uint64_t rng = 777;
	unsigned bad = 0;
	for (unsigned it = 0; it < 20000; it++) {
		rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
		uint64_t r = rng;
		static const unsigned sizes[] = {1, 2, 4, 8, 12, 16, 32};
		static const unsigned lines[] = {32, 64, 128};
		unsigned size = sizes[r % 7], line = lines[(r >> 3) % 3], nlanes = (r >> 5) & 1 ? 32 : 64;
		enum coal_kind kind = (enum coal_kind)((r >> 6) % 3); /* loads and stores (atomics: mem_coal_atomics) */
		unsigned pattern = (unsigned)((r >> 8) % 5), stride = 1 + (unsigned)((r >> 12) % 9);
		uint64_t base = (r >> 16) % 100000;
		if (pattern == 4)
			base = UINT64_MAX - (r >> 20) % 300; /* the top of the address space */
		uint64_t addr[64];
		for (unsigned l = 0; l < 64; l++) {
			rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
			switch (pattern) {
			case 0: addr[l] = base + (uint64_t)l * size; break;
			case 1: addr[l] = base + (uint64_t)l * size * stride; break;
			case 2: addr[l] = base + (uint64_t)(63 - l) * size; break; /* descending */
			case 3: addr[l] = base + rng % 512; break;
			default: addr[l] = base + (uint64_t)l * size; break;
			}
		}
		uint64_t active = it % 3 ? ~0ull : rng;
		struct coal_txn got[COAL_MAX_TXNS], want[COAL_MAX_TXNS];
		unsigned ng = coal_warp(addr, active, nlanes, size, kind, line, got);
		unsigned nw = coal_ref(addr, nlanes < 64 ? active & ((1ull << nlanes) - 1) : active, nlanes, size, kind, line,
				       want);
		int same = ng == nw;
		for (unsigned i = 0; same && i < ng; i++)
			same = got[i].line == want[i].line && got[i].lanes == want[i].lanes &&
			       got[i].byte_mask[0] == want[i].byte_mask[0] && got[i].byte_mask[1] == want[i].byte_mask[1] &&
			       got[i].sectors == want[i].sectors && got[i].bytes == want[i].bytes;
		if (!same && bad++ < 5)
			CHECK_MSG(0, "pattern %u size %u line %u kind %u: %u transactions, reference %u", pattern, size, line,
				  kind, ng, nw);
	}
	CHECK_EQ(bad, 0);
}

/* The L1D latency queue (l1d_latency_queue, GPGPU-Sim's l1_latency_queue):
 * a head is due l1d_latency cycles after it entered, one access per bank
 * a cycle enters, 32-byte sectors interleave the banks, a blocked head
 * holds its bank and a bank holds at most l1d_latency accesses. */
TEST(mem_l1q_latency_banks)
{
	struct l1q *q = l1q_create(2, 4);
	CHECK(q != NULL);
	if (!q)
		return;
	struct l1q_entry a = {.line = 0x1000, .sectors = 1, .entry = 1, .kind = MEM_READ};
	struct l1q_entry b = a, c = a;
	b.sectors = 2; /* sector 1: the other bank */
	b.entry = 2;
	c.entry = 3;   /* sector 0 again: bank 0 */
	CHECK(l1q_push(q, &a, 10));
	CHECK(!l1q_push(q, &c, 10)); /* bank 0 took one this cycle */
	CHECK(l1q_push(q, &b, 10));  /* bank 1 has not */
	CHECK(l1q_push(q, &c, 11));
	CHECK(l1q_next_due(q) == 14);
	CHECK(l1q_head_due(q, 0) == 14 && l1q_head_due(q, 1) == 14);
	CHECK(!l1q_bank_full(q, &c)); /* refused at 10 for the cycle, not for room */
	CHECK(l1q_head(q, 0, 13) == NULL);
	const struct l1q_entry *h = l1q_head(q, 0, 14);
	CHECK(h && h->entry == 1);
	/* the head stays until popped (a reservation fail at the tags) */
	CHECK(l1q_head(q, 0, 20) && l1q_head(q, 0, 20)->entry == 1);
	l1q_pop(q, 0);
	h = l1q_head(q, 0, 20);
	CHECK(h && h->entry == 3);
	l1q_pop(q, 0);
	l1q_pop(q, 1);
	CHECK(l1q_empty(q) && l1q_next_due(q) == UINT64_MAX);
	CHECK(l1q_head_due(q, 0) == UINT64_MAX);
	/* a blocked head: the bank fills up to its latency, then takes nothing
	 * (l1q_bank_full, whatever the cycle) until its head leaves */
	for (uint64_t k = 0; k < 4; k++)
		CHECK(l1q_push(q, &a, 30 + k));
	CHECK(l1q_bank_full(q, &a) && !l1q_bank_full(q, &b));
	CHECK(!l1q_push(q, &a, 40));
	CHECK(l1q_head_due(q, 0) == 34);
	l1q_pop(q, 0);
	CHECK(!l1q_bank_full(q, &a) && l1q_head_due(q, 0) == 35);
	CHECK(l1q_push(q, &a, 41));
	l1q_destroy(q);
}

/* l1i_persist's keeper: an SM takes back the L1I it handed in only for the
 * same code; another module's launch gets none (and the kept one is gone);
 * unloading a module forgets the L1Is holding its code, so a module loaded
 * later at the same address starts cold. */
TEST(mem_sys_l1i_keep_take_forget)
{
	ws_config *cfg = mem_cfg(NULL);
	struct ws_stats st;
	struct memsys *m = sys_create(t, cfg, &st, 2);
	if (!m)
		return;
	struct cache_params p;
	cache_params_from_config(cfg, CACHE_STATS_L1I, &p);
	int code_a, code_b;
	struct cache *c0 = cache_create(&p, NULL), *c1 = cache_create(&p, NULL);
	CHECK(c0 && c1);
	CHECK(memsys_l1i_take(m, 0, &code_a) == NULL); /* nothing kept yet */
	CHECK(memsys_l1i_keep(m, 0, &code_a, c0));
	CHECK(memsys_l1i_keep(m, 1, &code_a, c1));
	CHECK(!memsys_l1i_keep(m, 2, &code_a, c0)); /* no SM 2 */
	CHECK(memsys_l1i_take(m, 0, &code_a) == c0);
	CHECK(memsys_l1i_take(m, 0, &code_a) == NULL); /* taken */
	CHECK(memsys_l1i_keep(m, 0, &code_a, c0));
	CHECK(memsys_l1i_take(m, 0, &code_b) == NULL); /* other code: destroyed */
	CHECK(memsys_l1i_take(m, 0, &code_a) == NULL);
	memsys_l1i_forget(m, &code_a); /* SM 1's is code_a's */
	CHECK(memsys_l1i_take(m, 1, &code_a) == NULL);
	memsys_destroy(m);
	wsConfigDestroy(cfg);
}
