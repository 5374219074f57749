/*
 * cache.c -- generic set-associative sectored cache with MSHRs (see cache.h).
 *
 * Models a GPU L1D / L1I / L2-slice tag array: sets x ways lines, each
 * with a tag, per-32-byte-sector valid and dirty bits, an LRU stamp and the
 * index of its MSHR while a miss is outstanding ("reserved" line).  MSHR
 * entries hold up to mshr_merge waiting accesses (token + sectors needed);
 * an access waits only for the sectors that are pending, so partial fills
 * release the accesses they complete.  Under mshr_sectors (GPGPU-Sim's
 * sectored caches, whose MSHR table is keyed by the 32-byte sector) a line's
 * MSHR stands for one entry per pending sector: `mshrs` bounds the pending
 * sectors of all lines together and `mshr_merge` the waiting accesses that
 * need each sector, so a line can hold mshr_merge accesses per sector.
 * All storage is allocated at create.
 * Under CACP (an L1D option) the replacement of reads that carry
 * criticality is delegated to cacp.c; every other access keeps LRU.
 */
#include <string.h>

#include "mem/cache.h"
#include "mem/mem_counters.h"
#include "mem/mem_params.h"

struct cache_line {
	uint64_t tag;     /* line number (address / line size) */
	uint64_t lru;     /* last-touch stamp */
	int32_t mshr;     /* MSHR index while reserved, else -1 */
	uint32_t valid;   /* sector valid bits */
	uint32_t dirty;   /* sector dirty bits (write-back) */
	bool present;     /* tag holds a line */
};

struct cache_waiter {
	uint64_t token;
	uint32_t need; /* sectors the access needs */
};

struct cache_mshr {
	uint32_t line_idx;  /* index into lines[] */
	uint32_t pending;   /* sectors requested downstream, not yet arrived */
	uint32_t arrived;   /* line_fill: sectors arrived, made valid when none is pending */
	uint32_t nwait;
	bool evict_on_fill; /* a write hit the reserved line (write-evict): drop it when done */
};

struct cache {
	struct cache_params p;
	struct ws_stats *stats;
	int st[9]; /* counter ids: accesses, hits, misses, hit_reserved, res_fails, evictions, writebacks,
	              sector accesses, sector misses; -1 none */
	unsigned line_shift;
	uint32_t full_mask;
	uint64_t stamp;
	struct cache_line *lines;      /* [sets * ways] */
	struct cache_mshr *mshrs;      /* [mshrs] */
	struct cache_waiter *waiters;  /* [mshrs * wcap] */
	uint32_t *free_mshr;           /* stack of free indices */
	uint32_t nfree;
	unsigned wcap;                 /* waiters one line's MSHR holds */
	uint32_t sector_entries;       /* mshr_sectors: pending sectors of all lines (entries in use) */
	struct cacp *cacp;             /* CAWA's CACP state; NULL when off */
};

enum { ST_ACC, ST_HIT, ST_MISS, ST_HITRES, ST_RESFAIL, ST_EVICT, ST_WB, ST_SECT_ACC, ST_SECT_MISS };

static const int stat_ids[5][9] = {
	[CACHE_STATS_NONE] = {-1, -1, -1, -1, -1, -1, -1, -1, -1},
	[CACHE_STATS_L1D] = {STAT_l1d_accesses, STAT_l1d_hits, STAT_l1d_misses, STAT_l1d_hit_reserved,
			     STAT_l1d_res_fails, STAT_l1d_evictions, STAT_l1d_writebacks, -1, -1},
	[CACHE_STATS_L1I] = {STAT_l1i_accesses, STAT_l1i_hits, STAT_l1i_misses, STAT_l1i_hit_reserved,
			     STAT_l1i_res_fails, STAT_l1i_evictions, STAT_l1i_writebacks, -1, -1},
	[CACHE_STATS_L2] = {STAT_l2_accesses, STAT_l2_hits, STAT_l2_misses, STAT_l2_hit_reserved, STAT_l2_res_fails,
			    STAT_l2_evictions, STAT_l2_writebacks, STAT_l2_sector_accesses, STAT_l2_sector_misses},
	[CACHE_STATS_TEX] = {STAT_tex_accesses, STAT_tex_hits, STAT_tex_misses, STAT_tex_hit_reserved,
			     STAT_tex_res_fails, STAT_tex_evictions, STAT_tex_writebacks, -1, -1},
};

static inline void bump(struct cache *c, int which)
{
	if (c->stats && c->st[which] >= 0)
		c->stats->v[c->st[which]]++;
}

/* The per-sector count of an access that was not refused (statistics only;
 * the L2's): its `need` sectors, of which `missing` were neither valid nor
 * awaiting a fill. GPGPU-Sim's sectored L2 counts each sector as its own
 * access (HIT, HIT_RESERVED, or MISS / SECTOR_MISS when not valid), whatever
 * the request's size; warpsim's accesses are requests of one or more sectors. */
static inline void count_sectors(struct cache *c, uint32_t need, uint32_t missing)
{
	if (c->stats && c->st[ST_SECT_ACC] >= 0) {
		c->stats->v[c->st[ST_SECT_ACC]] += (uint64_t)__builtin_popcount(need);
		c->stats->v[c->st[ST_SECT_MISS]] += (uint64_t)__builtin_popcount(missing);
	}
}

/* The sectors of `s` that line l neither holds nor awaits (l present). */
static inline uint32_t not_held(const struct cache *c, const struct cache_line *l, uint32_t s)
{
	uint32_t held = l->valid;
	if (l->mshr >= 0)
		held |= c->mshrs[l->mshr].pending | c->mshrs[l->mshr].arrived;
	return s & ~held;
}

static bool is_pow2(unsigned x) { return x && !(x & (x - 1)); }

struct cache *cache_create(const struct cache_params *p, struct ws_stats *stats)
{
	if (!p || !p->sets || !p->ways || !p->mshrs || !p->mshr_merge || !is_pow2(p->line_bytes) ||
	    p->line_bytes < MEM_SECTOR_BYTES || p->line_bytes > MEM_MAX_LINE_BYTES ||
	    (unsigned)p->stats_level > CACHE_STATS_TEX || (unsigned)p->write_policy > CACHE_WRITE_BACK)
		return NULL;
	/* waiters one line's MSHR holds: mshr_merge, per sector under mshr_sectors */
	unsigned wcap = p->mshr_merge * (p->mshr_sectors ? p->line_bytes / MEM_SECTOR_BYTES : 1);
	if ((uint64_t)p->sets * p->ways > (1u << 26) || (uint64_t)p->mshrs * wcap > (1u << 26))
		return NULL;
	if (p->fermi_hash && (p->sets != 32 && p->sets != 64))
		return NULL;
	struct cache *c = calloc(1, sizeof *c);
	if (!c)
		return NULL;
	c->p = *p;
	c->stats = stats;
	memcpy(c->st, stat_ids[p->stats_level], sizeof c->st);
	c->line_shift = (unsigned)__builtin_ctz(p->line_bytes);
	c->full_mask = (1u << (p->line_bytes / MEM_SECTOR_BYTES)) - 1;
	c->lines = calloc((size_t)p->sets * p->ways, sizeof *c->lines);
	c->mshrs = calloc(p->mshrs, sizeof *c->mshrs);
	c->wcap = wcap;
	c->waiters = calloc((size_t)p->mshrs * c->wcap, sizeof *c->waiters);
	c->free_mshr = calloc(p->mshrs, sizeof *c->free_mshr);
	if (!c->lines || !c->mshrs || !c->waiters || !c->free_mshr) {
		cache_destroy(c);
		return NULL;
	}
	if (p->cacp_on && !(c->cacp = cacp_create(&p->cacp, p->sets, p->ways, stats))) {
		cache_destroy(c);
		return NULL;
	}
	for (size_t i = 0; i < (size_t)p->sets * p->ways; i++)
		c->lines[i].mshr = -1;
	/* Free stack: pop from the end, so entry 0 is used first. */
	for (uint32_t i = 0; i < p->mshrs; i++)
		c->free_mshr[i] = p->mshrs - 1 - i;
	c->nfree = p->mshrs;
	return c;
}

void cache_destroy(struct cache *c)
{
	if (!c)
		return;
	free(c->lines);
	free(c->mshrs);
	free(c->waiters);
	free(c->free_mshr);
	cacp_destroy(c->cacp);
	free(c);
}

unsigned cache_max_merge(const struct cache *c) { return c->wcap; }
unsigned cache_line_bytes(const struct cache *c) { return c->p.line_bytes; }
unsigned cache_mshrs_in_use(const struct cache *c) { return c->p.mshrs - c->nfree; }

/* Set of line number `tag`: line mod sets, or GPGPU-Sim's Fermi L1D hash
 * (line-number bits 0-4 xor address bits 13, 14, 15, 17, 19; with 64 sets
 * address bit 12 on top). */
static inline unsigned set_of(const struct cache *c, uint64_t tag)
{
	if (!c->p.fermi_hash)
		return (unsigned)(tag % c->p.sets);
	uint64_t a = tag << c->line_shift;
	unsigned up = (unsigned)((a & 0xE000) >> 13 | (a & 0x20000) >> 14 | (a & 0x80000) >> 15);
	unsigned set = ((unsigned)tag & 0x1F) ^ up;
	if (c->p.sets == 64)
		set |= (unsigned)((a & 0x1000) >> 7);
	return set;
}

/* Index of the line holding `tag` in its set, or -1. */
static inline int64_t lookup(const struct cache *c, uint64_t tag)
{
	size_t base = (size_t)set_of(c, tag) * c->p.ways;
	for (unsigned w = 0; w < c->p.ways; w++) {
		const struct cache_line *l = &c->lines[base + w];
		if (l->present && l->tag == tag)
			return (int64_t)(base + w);
	}
	return -1;
}

static inline void touch(struct cache *c, struct cache_line *l) { l->lru = ++c->stamp; }

/* Victim in the set of `tag`: an empty way first (lowest index), else the
 * least recently used unreserved way; -1 if every way is reserved. */
static int64_t victim(const struct cache *c, uint64_t tag)
{
	size_t base = (size_t)set_of(c, tag) * c->p.ways;
	int64_t best = -1;
	uint64_t best_lru = UINT64_MAX;
	for (unsigned w = 0; w < c->p.ways; w++) {
		const struct cache_line *l = &c->lines[base + w];
		if (!l->present)
			return (int64_t)(base + w);
		if (l->mshr < 0 && l->lru < best_lru) {
			best_lru = l->lru;
			best = (int64_t)(base + w);
		}
	}
	return best;
}

/* CACP's victim for a read fill of `tag` with access `a`: an empty way of
 * the partition the CCBP predicts (lowest index), else its RRIP choice among
 * the partition's unreserved ways; -1 if every way of the partition is
 * reserved.  *sig gets the fill's signature. */
static int64_t cacp_victim_of(struct cache *c, uint64_t tag, const struct cacp_access *a, uint32_t *sig)
{
	size_t base = (size_t)set_of(c, tag) * c->p.ways;
	*sig = cacp_signature(c->cacp, a->pc, tag);
	unsigned lo, hi;
	cacp_partition(c->cacp, cacp_predict_critical(c->cacp, *sig), &lo, &hi);
	uint64_t evictable = 0;
	for (unsigned w = lo; w < hi; w++) {
		const struct cache_line *l = &c->lines[base + w];
		if (!l->present)
			return (int64_t)(base + w);
		if (l->mshr < 0)
			evictable |= 1ull << w;
	}
	int w = cacp_victim(c->cacp, base, lo, hi, evictable);
	return w < 0 ? -1 : (int64_t)(base + (size_t)w);
}

/* Replace line `idx` by `tag` (state cleared), reporting a write-back. */
static void install(struct cache *c, size_t idx, uint64_t tag, struct cache_result *r)
{
	struct cache_line *l = &c->lines[idx];
	if (l->present && l->valid) {
		bump(c, ST_EVICT);
		if (l->dirty) {
			bump(c, ST_WB);
			r->writeback = true;
			r->wb_addr = l->tag << c->line_shift;
			r->wb_mask = l->dirty;
		}
	}
	l->present = true;
	l->tag = tag;
	l->valid = l->dirty = 0;
	l->mshr = -1;
	touch(c, l);
}

static void add_waiter(struct cache *c, uint32_t m, uint64_t token, uint32_t need)
{
	struct cache_mshr *e = &c->mshrs[m];
	struct cache_waiter *w = &c->waiters[(size_t)m * c->wcap + e->nwait++];
	w->token = token;
	w->need = need;
}

/* The MSHR entries line MSHR e stands for under mshr_sectors: its sectors awaiting a fill. */
static inline unsigned sector_entries_of(const struct cache_mshr *e)
{
	return (unsigned)__builtin_popcount(e->pending | e->arrived);
}

/* Set e's pending and arrived sectors, keeping the count of sector entries in use. */
static inline void set_pending(struct cache *c, struct cache_mshr *e, uint32_t pending, uint32_t arrived)
{
	c->sector_entries -= sector_entries_of(e);
	e->pending = pending;
	e->arrived = arrived;
	c->sector_entries += sector_entries_of(e);
}

/* mshr_sectors: room for `fetch`'s sectors as new entries (a sector miss is
 * an MSHR_ENRTY_FAIL in GPGPU-Sim when its table is full). */
static inline bool sector_entries_free(const struct cache *c, uint32_t fetch)
{
	return !c->p.mshr_sectors || c->sector_entries + (unsigned)__builtin_popcount(fetch) <= c->p.mshrs;
}

/* Room in line MSHR e for one more access needing `need`: mshr_merge accesses
 * per line, or under mshr_sectors per awaited sector (GPGPU-Sim's
 * MSHR_MERGE_ENRTY_FAIL when one sector's entry is full). */
static bool merge_room(const struct cache *c, uint32_t m, uint32_t need)
{
	const struct cache_mshr *e = &c->mshrs[m];
	if (!c->p.mshr_sectors)
		return e->nwait < c->p.mshr_merge;
	if (e->nwait >= c->wcap)
		return false;
	const struct cache_waiter *w = &c->waiters[(size_t)m * c->wcap];
	for (uint32_t awaited = need & (e->pending | e->arrived); awaited; awaited &= awaited - 1) {
		uint32_t bit = awaited & -awaited;
		unsigned n = 0;
		for (unsigned i = 0; i < e->nwait; i++)
			n += (w[i].need & bit) != 0;
		if (n >= c->p.mshr_merge)
			return false;
	}
	return true;
}

static uint32_t alloc_mshr(struct cache *c, size_t line_idx)
{
	uint32_t m = c->free_mshr[--c->nfree];
	struct cache_mshr *e = &c->mshrs[m];
	e->line_idx = (uint32_t)line_idx;
	e->pending = e->arrived = 0;
	e->nwait = 0;
	e->evict_on_fill = false;
	c->lines[line_idx].mshr = (int32_t)m;
	return m;
}

/* Under CACP (a != NULL): line li is reused by a read, a hit or not. */
static inline void cacp_reuse(struct cache *c, int64_t li, const struct cacp_access *a, bool hit)
{
	if (a) {
		cacp_on_reuse(c->cacp, (size_t)li, a->critical);
		cacp_count_access(c->cacp, a->critical, hit);
	}
}

/* A read (or an atomic read-modify-write); `a` is the CACP access (NULL: LRU, no CACP). */
static struct cache_result read_access(struct cache *c, uint64_t tag, uint32_t need, uint64_t token, bool rmw,
				       const struct cacp_access *a)
{
	struct cache_result r = {0};
	int64_t li = lookup(c, tag);
	if (li >= 0) {
		struct cache_line *l = &c->lines[li];
		if (!(need & ~l->valid)) {
			cacp_reuse(c, li, a, true);
			touch(c, l);
			if (rmw)
				l->dirty |= need;
			bump(c, ST_ACC);
			bump(c, ST_HIT);
			count_sectors(c, need, 0);
			r.status = CACHE_HIT;
			return r;
		}
		if (l->mshr >= 0) {
			struct cache_mshr *e = &c->mshrs[l->mshr];
			uint32_t missing = need & ~l->valid & ~e->pending & ~e->arrived;
			uint32_t fetch = 0;
			if (missing)
				fetch = c->p.sector_fill ? missing : c->full_mask & ~l->valid & ~e->pending & ~e->arrived;
			if (!merge_room(c, (uint32_t)l->mshr, need) || !sector_entries_free(c, fetch)) {
				bump(c, ST_RESFAIL);
				r.status = CACHE_RESERVATION_FAIL;
				return r;
			}
			count_sectors(c, need, missing);
			add_waiter(c, (uint32_t)l->mshr, token, need);
			set_pending(c, e, e->pending | fetch, e->arrived);
			cacp_reuse(c, li, a, false);
			touch(c, l);
			if (rmw)
				l->dirty |= need;
			bump(c, ST_ACC);
			bump(c, fetch ? ST_MISS : ST_HITRES);
			r.status = fetch ? CACHE_MISS : CACHE_HIT_RESERVED;
			r.fetch_mask = fetch;
			return r;
		}
		/* Present but some sectors missing, no miss outstanding: sector miss. */
		uint32_t fetch = c->p.sector_fill ? need & ~l->valid : c->full_mask & ~l->valid;
		if (!c->nfree || !sector_entries_free(c, fetch)) {
			bump(c, ST_RESFAIL);
			r.status = CACHE_RESERVATION_FAIL;
			return r;
		}
		count_sectors(c, need, need & ~l->valid);
		uint32_t m = alloc_mshr(c, (size_t)li);
		set_pending(c, &c->mshrs[m], fetch, 0);
		add_waiter(c, m, token, need);
		cacp_reuse(c, li, a, false);
		touch(c, l);
		if (rmw)
			l->dirty |= need;
		bump(c, ST_ACC);
		bump(c, ST_MISS);
		r.status = CACHE_MISS;
		r.fetch_mask = fetch;
		return r;
	}
	uint32_t sig = 0;
	uint32_t fetch = c->p.sector_fill ? need : c->full_mask;
	int64_t v = !c->nfree || !sector_entries_free(c, fetch) ? -1 : a ? cacp_victim_of(c, tag, a, &sig)
									  : victim(c, tag);
	if (v < 0) {
		bump(c, ST_RESFAIL);
		r.status = CACHE_RESERVATION_FAIL;
		return r;
	}
	if (a) {
		if (c->lines[v].present && c->lines[v].valid)
			cacp_on_evict(c->cacp, (size_t)v);
		cacp_on_fill(c->cacp, (size_t)v, sig);
		cacp_count_access(c->cacp, a->critical, false);
	}
	count_sectors(c, need, need);
	install(c, (size_t)v, tag, &r);
	uint32_t m = alloc_mshr(c, (size_t)v);
	set_pending(c, &c->mshrs[m], fetch, 0);
	add_waiter(c, m, token, need);
	if (rmw)
		c->lines[v].dirty |= need;
	bump(c, ST_ACC);
	bump(c, ST_MISS);
	r.status = CACHE_MISS;
	r.fetch_mask = fetch;
	return r;
}

/* Write-evict / write-through store, or an atomic at a non-write-back cache.
 * A store (sector_miss_counts) to a present line that holds none or only
 * some of its sectors, with no fill outstanding, counts as a miss, as
 * GPGPU-Sim's sectored tag probe calls it (tag_array::probe: SECTOR_MISS,
 * then data_cache::wr_miss_no_wa); only a cache whose lines can be partly
 * valid (sector fills, per-sector write-evict) has such lines. */
static struct cache_result write_forward(struct cache *c, uint64_t tag, uint32_t sectors, bool invalidate,
					 bool per_sector, bool sector_miss_counts)
{
	struct cache_result r = {0};
	r.forward = true;
	int64_t li = lookup(c, tag);
	bump(c, ST_ACC);
	count_sectors(c, sectors, li >= 0 ? not_held(c, &c->lines[li], sectors) : sectors);
	if (li >= 0) {
		struct cache_line *l = &c->lines[li];
		bool sector_miss = sector_miss_counts && l->mshr < 0 && (sectors & ~l->valid);
		if (invalidate && per_sector && l->mshr < 0) {
			l->valid &= ~sectors;
			if (!l->valid) {
				l->present = false;
				l->dirty = 0;
			}
		} else if (invalidate) {
			if (l->mshr >= 0) {
				l->valid = 0;
				c->mshrs[l->mshr].evict_on_fill = true;
			} else {
				l->present = false;
				l->valid = l->dirty = 0;
			}
		} else {
			l->valid |= sectors;
			touch(c, l);
		}
		bump(c, sector_miss ? ST_MISS : ST_HIT);
		r.status = sector_miss ? CACHE_MISS : CACHE_HIT;
		return r;
	}
	if (!invalidate && c->p.write_allocate) {
		int64_t v = victim(c, tag);
		if (v < 0) {
			/* Every way reserved: the write still goes downstream, uncached. */
			bump(c, ST_MISS);
			r.status = CACHE_MISS;
			return r;
		}
		install(c, (size_t)v, tag, &r);
		c->lines[v].valid = sectors;
	}
	bump(c, ST_MISS);
	r.status = CACHE_MISS;
	return r;
}

static struct cache_result write_back(struct cache *c, uint64_t tag, uint32_t sectors)
{
	struct cache_result r = {0};
	int64_t li = lookup(c, tag);
	if (li >= 0) {
		struct cache_line *l = &c->lines[li];
		bool miss = c->p.write_sector_miss && (sectors & ~l->valid);
		count_sectors(c, sectors, not_held(c, l, sectors));
		l->valid |= sectors;
		l->dirty |= sectors;
		touch(c, l);
		bump(c, ST_ACC);
		bump(c, miss ? ST_MISS : ST_HIT);
		r.status = miss ? CACHE_MISS : CACHE_HIT;
		return r;
	}
	if (!c->p.write_allocate) {
		bump(c, ST_ACC);
		bump(c, ST_MISS);
		count_sectors(c, sectors, sectors);
		r.status = CACHE_MISS;
		r.forward = true;
		return r;
	}
	int64_t v = victim(c, tag);
	if (v < 0) {
		bump(c, ST_RESFAIL);
		r.status = CACHE_RESERVATION_FAIL;
		return r;
	}
	install(c, (size_t)v, tag, &r);
	c->lines[v].valid = sectors;
	c->lines[v].dirty = sectors;
	bump(c, ST_ACC);
	bump(c, ST_MISS);
	count_sectors(c, sectors, sectors);
	r.status = CACHE_MISS;
	return r;
}

struct cache_result cache_access(struct cache *c, uint64_t addr, uint32_t sectors, enum mem_kind kind,
				 uint64_t token)
{
	uint64_t tag = addr >> c->line_shift;
	sectors &= c->full_mask;
	if (!sectors)
		sectors = c->full_mask;
	if (c->p.bypass) {
		struct cache_result r = {.status = CACHE_MISS, .forward = true};
		return r;
	}
	if (c->p.perfect) { /* every read hits; the tag array is never looked at */
		bump(c, ST_ACC);
		bump(c, ST_HIT);
		count_sectors(c, sectors, 0);
		return (struct cache_result){.status = CACHE_HIT};
	}
	switch (kind) {
	case MEM_WRITE:
		if (c->p.write_policy == CACHE_WRITE_BACK)
			return write_back(c, tag, sectors);
		return write_forward(c, tag, sectors, c->p.write_policy == CACHE_WRITE_EVICT, c->p.evict_sector, true);
	case MEM_ATOMIC:
		if (c->p.write_policy == CACHE_WRITE_BACK)
			return read_access(c, tag, sectors, token, true, NULL);
		return write_forward(c, tag, sectors, true, false, false);
	case MEM_READ:
	case MEM_IFETCH:
	default:
		return read_access(c, tag, sectors, token, false, NULL);
	}
}

struct cache_result cache_access_cacp(struct cache *c, uint64_t addr, uint32_t sectors, uint64_t token,
				      const struct cacp_access *a)
{
	if (!c->cacp || !a || c->p.bypass)
		return cache_access(c, addr, sectors, MEM_READ, token);
	if (cacp_counts_only(c->cacp)) { /* LRU; the critical warps' accesses only counted */
		struct cache_result r = cache_access(c, addr, sectors, MEM_READ, token);
		if (r.status != CACHE_RESERVATION_FAIL)
			cacp_count_access(c->cacp, a->critical, r.status == CACHE_HIT);
		return r;
	}
	sectors &= c->full_mask;
	if (!sectors)
		sectors = c->full_mask;
	return read_access(c, addr >> c->line_shift, sectors, token, false, a);
}

const struct cacp *cache_cacp(const struct cache *c) { return c->cacp; }

int cache_way(const struct cache *c, uint64_t addr)
{
	int64_t li = lookup(c, addr >> c->line_shift);
	return li < 0 ? -1 : (int)((size_t)li % c->p.ways);
}

unsigned cache_fill(struct cache *c, uint64_t addr, uint32_t sectors, uint64_t *tokens, unsigned cap)
{
	int64_t li = lookup(c, addr >> c->line_shift);
	if (li < 0)
		return 0;
	struct cache_line *l = &c->lines[li];
	if (l->mshr < 0)
		return 0;
	uint32_t m = (uint32_t)l->mshr;
	struct cache_mshr *e = &c->mshrs[m];
	sectors &= c->full_mask;
	if (c->p.line_fill) { /* the line fills when its last fetched sector is back */
		set_pending(c, e, e->pending & ~sectors, e->arrived | (sectors & e->pending));
		if (e->pending)
			return 0;
		sectors = e->arrived;
		set_pending(c, e, e->pending, 0);
	}
	if (!e->evict_on_fill)
		l->valid |= sectors;
	set_pending(c, e, e->pending & ~sectors, e->arrived);
	struct cache_waiter *w = &c->waiters[(size_t)m * c->wcap];
	unsigned out = 0, keep = 0;
	for (unsigned i = 0; i < e->nwait; i++) {
		if (!(w[i].need & e->pending) && out < cap)
			tokens[out++] = w[i].token;
		else
			w[keep++] = w[i];
	}
	e->nwait = keep;
	if (!e->pending && !e->nwait) {
		if (e->evict_on_fill) {
			l->present = false;
			l->valid = l->dirty = 0;
		}
		l->mshr = -1;
		c->free_mshr[c->nfree++] = m;
	}
	return out;
}

bool cache_install(struct cache *c, uint64_t addr, uint32_t sectors, bool dirty)
{
	uint64_t tag = addr >> c->line_shift;
	sectors &= c->full_mask;
	if (!sectors)
		sectors = c->full_mask;
	int64_t li = lookup(c, tag);
	if (li < 0) {
		li = victim(c, tag);
		if (li < 0)
			return false;
		struct cache_line *l = &c->lines[li];
		*l = (struct cache_line){.tag = tag, .mshr = -1, .present = true};
	}
	struct cache_line *l = &c->lines[li];
	l->valid |= sectors;
	if (dirty)
		l->dirty |= sectors;
	touch(c, l);
	return true;
}

bool cache_probe(const struct cache *c, uint64_t addr, uint32_t sectors)
{
	if (c->p.perfect)
		return true;
	int64_t li = lookup(c, addr >> c->line_shift);
	sectors &= c->full_mask;
	if (!sectors)
		sectors = c->full_mask;
	return li >= 0 && !(sectors & ~c->lines[li].valid);
}

bool cache_pending(const struct cache *c, uint64_t addr)
{
	int64_t li = lookup(c, addr >> c->line_shift);
	return li >= 0 && c->lines[li].mshr >= 0;
}

unsigned cache_invalidate(struct cache *c)
{
	unsigned n = 0;
	for (size_t i = 0; i < (size_t)c->p.sets * c->p.ways; i++) {
		struct cache_line *l = &c->lines[i];
		if (l->present && l->mshr < 0) {
			l->present = false;
			l->valid = l->dirty = 0;
			n++;
		}
	}
	return n;
}

void cache_set_stats(struct cache *c, struct ws_stats *stats) { c->stats = stats; }

void cache_drop_pending(struct cache *c)
{
	for (size_t i = 0; i < (size_t)c->p.sets * c->p.ways; i++) {
		struct cache_line *l = &c->lines[i];
		if (l->mshr >= 0) {
			l->present = false;
			l->valid = l->dirty = 0;
			l->mshr = -1;
		}
	}
	memset(c->mshrs, 0, c->p.mshrs * sizeof *c->mshrs);
	c->sector_entries = 0;
	for (uint32_t i = 0; i < c->p.mshrs; i++)
		c->free_mshr[i] = c->p.mshrs - 1 - i;
	c->nfree = c->p.mshrs;
}

void cache_params_from_config(const struct ws_config *cfg, enum cache_level level, struct cache_params *p)
{
	memset(p, 0, sizeof *p);
	p->stats_level = level;
	switch (level) {
	case CACHE_STATS_L1I:
		p->sets = (unsigned)cfg_int(cfg, CFG_l1i_sets);
		p->ways = (unsigned)cfg_int(cfg, CFG_l1i_ways);
		p->line_bytes = (unsigned)cfg_int(cfg, CFG_l1i_line_bytes);
		p->mshrs = (unsigned)cfg_int(cfg, CFG_l1i_mshrs);
		p->mshr_merge = (unsigned)cfg_int(cfg, CFG_l1i_mshr_merge);
		p->perfect = cfg_int(cfg, CFG_l1i_perfect) != 0;
		p->write_policy = CACHE_WRITE_EVICT;
		p->write_allocate = false;
		p->sector_fill = false;
		p->bypass = false;
		break;
	case CACHE_STATS_TEX: /* read-only; a miss fetches the whole line */
		p->sets = (unsigned)cfg_int(cfg, CFG_tex_sets);
		p->ways = (unsigned)cfg_int(cfg, CFG_tex_ways);
		p->line_bytes = (unsigned)cfg_int(cfg, CFG_tex_line_bytes);
		p->mshrs = (unsigned)cfg_int(cfg, CFG_tex_mshrs);
		p->mshr_merge = (unsigned)cfg_int(cfg, CFG_tex_mshr_merge);
		p->write_policy = CACHE_WRITE_EVICT;
		p->write_allocate = false;
		p->sector_fill = false;
		p->bypass = false;
		break;
	case CACHE_STATS_L2:
		p->sets = (unsigned)cfg_int(cfg, CFG_l2_sets);
		p->ways = (unsigned)cfg_int(cfg, CFG_l2_ways);
		p->line_bytes = (unsigned)cfg_int(cfg, CFG_l2_line_bytes);
		p->mshrs = (unsigned)cfg_int(cfg, CFG_l2_mshrs);
		p->mshr_merge = (unsigned)cfg_int(cfg, CFG_l2_mshr_merge);
		p->mshr_sectors = cfg_int(cfg, CFG_l2_mshr_sectors) != 0;
		p->write_policy = CACHE_WRITE_BACK;
		p->write_allocate = true;
		p->sector_fill = cfg_int(cfg, CFG_l2_sector_fill) != 0;
		p->write_sector_miss = cfg_int(cfg, CFG_l2_sector_writes) != 0;
		p->bypass = false;
		break;
	case CACHE_STATS_L1D:
	case CACHE_STATS_NONE:
	default:
		p->sets = (unsigned)cfg_int(cfg, CFG_l1d_sets);
		p->ways = (unsigned)cfg_int(cfg, CFG_l1d_ways);
		p->line_bytes = (unsigned)cfg_int(cfg, CFG_l1d_line_bytes);
		p->mshrs = (unsigned)cfg_int(cfg, CFG_l1d_mshrs);
		p->mshr_merge = (unsigned)cfg_int(cfg, CFG_l1d_mshr_merge);
		p->write_policy = CACHE_WRITE_EVICT;
		p->write_allocate = false;
		p->sector_fill = cfg_int(cfg, CFG_l1d_sector_fill) != 0;
		p->evict_sector = cfg_int(cfg, CFG_l1d_write_evict_sector) != 0;
		p->line_fill = cfg_int(cfg, CFG_l1d_line_fill) != 0;
		p->bypass = cfg_int(cfg, CFG_l1d_bypass) != 0;
		p->fermi_hash = cfg_int(cfg, CFG_l1d_set_hash) == 1;
		p->cacp_on = cacp_params_from_config(cfg, p->ways, &p->cacp);
		break;
	}
}
