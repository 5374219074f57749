/*
 * l2.c -- memory partition: L2 slices (ROP pipeline, L2 cache with MSHRs,
 * atomic unit, queues) and the DRAM channel behind them (see l2.h).
 *
 * Requests waiting in an MSHR live in a per-slice pool of packets sized
 * mshrs x mshr_merge; the cache's token is the pool index.  All queues are
 * preallocated rings.
 */
#include <string.h>

#include "mem/l2.h"
#include "mem/mem_counters.h"

struct timed_pkt {
	struct mem_pkt pkt;
	uint64_t ready; /* L2 cycle */
};
struct timed_dreq {
	struct dram_req r;
	uint64_t ready; /* L2 cycle */
};
MEM_RING(tpkt_ring, struct timed_pkt)
MEM_RING(pkt_ring, struct mem_pkt)
MEM_RING(dreq_ring, struct dram_req)
MEM_RING(tdreq_ring, struct timed_dreq)
MEM_RING(idx_ring, uint32_t)

struct l2_slice {
	struct cache *cache;
	struct tpkt_ring rop;     /* interconnect -> L2 access */
	struct pkt_ring reply;    /* L2 -> interconnect */
	struct tpkt_ring atomic;  /* atomic unit */
	uint64_t atomic_last_line, atomic_last_ready;
	bool atomic_any;
	struct dreq_ring to_dram;
	struct dreq_ring from_dram;
	struct mem_pkt *pool;     /* requests waiting in MSHRs */
	uint32_t *pool_free, nfree, pool_size;
	struct idx_ring ready;    /* pool entries released by fills */
	uint64_t *tok;            /* scratch for cache_fill */
};

struct l2_part {
	struct l2_params p;
	struct ws_stats *stats;
	struct l2_slice *sl;
	struct dram *dram;
	struct tdreq_ring pipe;   /* memory-controller latency pipeline */
	unsigned rr;
	uint64_t now;             /* L2 cycle of the last l2_cycle */
	uint64_t work;            /* requests inside the slices + entries of their DRAM queues */
};

static void slice_free(struct l2_slice *s)
{
	cache_destroy(s->cache);
	tpkt_ring_free(&s->rop);
	pkt_ring_free(&s->reply);
	tpkt_ring_free(&s->atomic);
	dreq_ring_free(&s->to_dram);
	dreq_ring_free(&s->from_dram);
	idx_ring_free(&s->ready);
	free(s->pool);
	free(s->pool_free);
	free(s->tok);
}

static bool slice_init(struct l2_slice *s, const struct l2_params *p, struct ws_stats *stats)
{
	memset(s, 0, sizeof *s);
	s->cache = cache_create(&p->cache, stats);
	s->pool_size = p->cache.mshrs * p->cache.mshr_merge;
	s->pool = calloc(s->pool_size, sizeof *s->pool);
	s->pool_free = calloc(s->pool_size, sizeof *s->pool_free);
	s->tok = s->cache ? calloc(cache_max_merge(s->cache), sizeof *s->tok) : NULL;
	bool ok = s->cache && s->pool && s->pool_free && s->tok;
	/* with sector_requests or sector_writes one packet may enter as a line's worth of sector requests */
	unsigned split_extra = p->sector_requests || p->sector_writes ? MEM_MAX_LINE_BYTES / MEM_SECTOR_BYTES - 1 : 0;
	ok = tpkt_ring_init(&s->rop, p->rop_latency + p->queue + split_extra) && ok;
	ok = pkt_ring_init(&s->reply, p->queue) && ok;
	ok = tpkt_ring_init(&s->atomic, p->queue) && ok;
	ok = dreq_ring_init(&s->to_dram, p->queue + 1) && ok; /* + a slot for an eviction's write-back */
	ok = dreq_ring_init(&s->from_dram, p->queue) && ok;
	ok = idx_ring_init(&s->ready, s->pool_size) && ok;
	if (!ok)
		return false;
	for (uint32_t i = 0; i < s->pool_size; i++)
		s->pool_free[i] = s->pool_size - 1 - i;
	s->nfree = s->pool_size;
	return true;
}

void l2_install(struct l2_part *l, unsigned s, uint64_t line, uint32_t sectors)
{
	cache_install(l->sl[s].cache, mem_slice_local(&l->p.map, line), sectors, false);
}

struct l2_part *l2_part_create(const struct l2_params *p, struct ws_stats *stats)
{
	if (!p || !p->map.parts || !p->map.slices || !p->map.chunk || p->part >= p->map.parts || !p->queue ||
	    p->queue > (1u << 20) || p->rop_latency > (1u << 20) || p->dram_latency > (1u << 20) ||
	    p->map.chunk % p->cache.line_bytes || p->dram.bank_interleave % p->cache.line_bytes)
		return NULL;
	struct l2_part *l = calloc(1, sizeof *l);
	if (!l)
		return NULL;
	l->p = *p;
	l->stats = stats;
	l->sl = calloc(p->map.slices, sizeof *l->sl);
	l->dram = dram_create(&p->dram, stats);
	bool ok = l->sl && l->dram && tdreq_ring_init(&l->pipe, p->dram_latency + p->queue + 1);
	for (unsigned s = 0; ok && s < p->map.slices; s++)
		ok = slice_init(&l->sl[s], p, stats);
	if (!ok) {
		l2_part_destroy(l);
		return NULL;
	}
	return l;
}

void l2_part_destroy(struct l2_part *l)
{
	if (!l)
		return;
	for (unsigned s = 0; l->sl && s < l->p.map.slices; s++)
		slice_free(&l->sl[s]);
	free(l->sl);
	dram_destroy(l->dram);
	tdreq_ring_free(&l->pipe);
	free(l);
}

uint64_t l2_now(const struct l2_part *l) { return l->now; }

bool l2_can_accept(const struct l2_part *l, unsigned s)
{
	return s < l->p.map.slices && !tpkt_ring_full(&l->sl[s].rop);
}

bool l2_accept(struct l2_part *l, unsigned s, const struct mem_pkt *pkt)
{
	if (!l2_can_accept(l, s))
		return false;
	struct tpkt_ring *rop = &l->sl[s].rop;
	bool write = l->p.sector_writes && pkt->kind == MEM_WRITE;
	uint32_t split = l->p.sector_requests && pkt->fill ? pkt->l2_sectors
	                 : write                           ? mem_write_segment(pkt->l2_sectors)
	                                                   : 0;
	unsigned n = split ? mem_popcount(split) : 1;
	if (n > 1) {
		/* GPGPU-Sim's sectored L2 (memory_sub_partition::push): one request per sector */
		if (rop->cap - rop->n < n)
			return false;
		uint64_t base = pkt->addr & ~(uint64_t)(MEM_SECTOR_BYTES - 1);
		unsigned shift = (unsigned)((base - pkt->line) / MEM_SECTOR_BYTES); /* of `sectors` against `line` */
		for (uint32_t m = split; m; m &= m - 1) {
			struct timed_pkt *t = tpkt_ring_push(rop);
			t->pkt = *pkt;
			t->pkt.l2_sectors = m & -m;
			t->pkt.sectors = (m & -m) >> shift;
			if (write)
				t->pkt.bytes = MEM_SECTOR_BYTES;
			t->ready = l->now + l->p.rop_latency;
		}
		l->work += n;
		return true;
	}
	struct timed_pkt *t = tpkt_ring_push(rop);
	t->pkt = *pkt;
	t->ready = l->now + l->p.rop_latency;
	l->work++;
	return true;
}

const struct mem_pkt *l2_peek_reply(const struct l2_part *l, unsigned s)
{
	if (s >= l->p.map.slices || pkt_ring_empty(&l->sl[s].reply))
		return NULL;
	return pkt_ring_front(&l->sl[s].reply);
}

void l2_pop_reply(struct l2_part *l, unsigned s)
{
	if (l2_peek_reply(l, s)) {
		pkt_ring_pop(&l->sl[s].reply);
		l->work--;
	}
}

static void atomic_enqueue(struct l2_part *l, struct l2_slice *s, const struct mem_pkt *pkt)
{
	uint64_t lat = l->p.atomic_latency, ready = l->now + lat;
	if (s->atomic_any) {
		uint64_t after = s->atomic_last_ready + (s->atomic_last_line == pkt->line ? lat : 1);
		if (after > ready)
			ready = after;
	}
	struct timed_pkt *t = tpkt_ring_push(&s->atomic);
	t->pkt = *pkt;
	t->ready = ready;
	s->atomic_any = true;
	s->atomic_last_line = pkt->line;
	s->atomic_last_ready = ready;
}

static void to_dram(struct l2_part *l, struct l2_slice *s, unsigned si, uint64_t slocal_line, uint32_t sectors,
		    bool write)
{
	struct dram_req *r = dreq_ring_push(&s->to_dram);
	r->addr = mem_slice_to_part_local(&l->p.map, si, slocal_line);
	r->tag = slocal_line;
	r->sectors = sectors;
	r->write = write;
	l->work++;
}

/* The L2 access of the request at the head of the ROP pipeline. */
static void slice_access(struct l2_part *l, struct l2_slice *s, unsigned si)
{
	if (tpkt_ring_empty(&s->rop))
		return;
	struct timed_pkt *t = tpkt_ring_front(&s->rop);
	if (t->ready > l->now)
		return;
	/* Room for every outcome: a waiting slot, a fetch plus a write-back,
	 * a reply, an atomic-unit slot.  Otherwise stall this cycle. */
	if (!s->nfree || s->to_dram.n + 2 > s->to_dram.cap || pkt_ring_full(&s->reply) ||
	    tpkt_ring_full(&s->atomic))
		return;
	const struct mem_pkt *pkt = &t->pkt;
	uint64_t sline = mem_slice_local(&l->p.map, pkt->line);
	uint32_t idx = s->pool_free[s->nfree - 1];
	enum mem_kind kind = pkt->kind == MEM_IFETCH ? MEM_READ : pkt->kind;
	struct cache_result r = cache_access(s->cache, sline, pkt->l2_sectors, kind, idx);
	if (r.status == CACHE_RESERVATION_FAIL)
		return;
	if (pkt->kind == MEM_ATOMIC && l->stats)
		l->stats->v[STAT_l2_atomics]++;
	bool wait = r.status == CACHE_HIT_RESERVED || (r.status == CACHE_MISS && r.fetch_mask);
	if (wait) {
		s->nfree--;
		s->pool[idx] = *pkt;
		if (r.fetch_mask)
			to_dram(l, s, si, sline, r.fetch_mask, false);
	} else {
		if (r.forward) /* write miss without write-allocate */
			to_dram(l, s, si, sline, pkt->l2_sectors, true);
		if (pkt->kind == MEM_ATOMIC)
			atomic_enqueue(l, s, pkt);
		else
			*pkt_ring_push(&s->reply) = *pkt;
	}
	if (r.writeback)
		to_dram(l, s, si, r.wb_addr, r.wb_mask, true);
	tpkt_ring_pop(&s->rop);
}

static void slice_cycle(struct l2_part *l, unsigned si)
{
	struct l2_slice *s = &l->sl[si];
	/* Atomic unit output. */
	if (!tpkt_ring_empty(&s->atomic) && tpkt_ring_front(&s->atomic)->ready <= l->now && !pkt_ring_full(&s->reply)) {
		*pkt_ring_push(&s->reply) = tpkt_ring_front(&s->atomic)->pkt;
		tpkt_ring_pop(&s->atomic);
	}
	/* One request released by a fill leaves. */
	if (!idx_ring_empty(&s->ready)) {
		uint32_t idx = *idx_ring_front(&s->ready);
		struct mem_pkt *pkt = &s->pool[idx];
		bool done = false;
		if (pkt->kind == MEM_ATOMIC) {
			if (!tpkt_ring_full(&s->atomic)) {
				atomic_enqueue(l, s, pkt);
				done = true;
			}
		} else if (!pkt_ring_full(&s->reply)) {
			*pkt_ring_push(&s->reply) = *pkt;
			done = true;
		}
		if (done) {
			idx_ring_pop(&s->ready);
			s->pool_free[s->nfree++] = idx;
		}
	}
	/* One fill from DRAM. */
	if (!dreq_ring_empty(&s->from_dram)) {
		const struct dram_req *r = dreq_ring_front(&s->from_dram);
		unsigned n = cache_fill(s->cache, r->tag, r->sectors, s->tok, cache_max_merge(s->cache));
		for (unsigned i = 0; i < n; i++)
			*idx_ring_push(&s->ready) = (uint32_t)s->tok[i];
		dreq_ring_pop(&s->from_dram);
		l->work--;
	}
	/* One new access. */
	slice_access(l, s, si);
}

void l2_cycle(struct l2_part *l, uint64_t l2_now)
{
	l->now = l2_now;
	if (!l->work)
		return;
	for (unsigned si = 0; si < l->p.map.slices; si++)
		slice_cycle(l, si);
	/* One request per cycle from the slices' L2->DRAM queues into the controller pipeline. */
	if (!tdreq_ring_full(&l->pipe)) {
		unsigned S = l->p.map.slices;
		for (unsigned k = 0, si = l->rr < S ? l->rr : 0; k < S; k++, si = si + 1 == S ? 0 : si + 1) {
			struct l2_slice *s = &l->sl[si];
			if (dreq_ring_empty(&s->to_dram))
				continue;
			struct timed_dreq *t = tdreq_ring_push(&l->pipe);
			t->r = *dreq_ring_front(&s->to_dram);
			t->ready = l->now + l->p.dram_latency;
			dreq_ring_pop(&s->to_dram);
			l->work--;
			l->rr = si + 1 == S ? 0 : si + 1;
			break;
		}
	}
}

uint64_t l2_next_event(const struct l2_part *l)
{
	uint64_t now = l->now, t = UINT64_MAX;
	for (unsigned si = 0; si < l->p.map.slices; si++) {
		const struct l2_slice *s = &l->sl[si];
		if (!pkt_ring_empty(&s->reply) || !idx_ring_empty(&s->ready) || !dreq_ring_empty(&s->from_dram) ||
		    !dreq_ring_empty(&s->to_dram))
			return now + 1;
		if (!tpkt_ring_empty(&s->atomic) && tpkt_ring_front(&s->atomic)->ready < t)
			t = tpkt_ring_front(&s->atomic)->ready;
		if (!tpkt_ring_empty(&s->rop) && tpkt_ring_front(&s->rop)->ready < t)
			t = tpkt_ring_front(&s->rop)->ready;
	}
	return t > now ? t : now + 1;
}

void l2_set_now(struct l2_part *l, uint64_t l2_now) { l->now = l2_now; }

bool l2_dram_quiet(const struct l2_part *l, uint64_t *l2_at, uint64_t *dram_at)
{
	if (dram_queued(l->dram))
		return false;
	*l2_at = tdreq_ring_empty(&l->pipe) ? UINT64_MAX : tdreq_ring_front(&l->pipe)->ready;
	*dram_at = dram_ret_at(l->dram);
	return true;
}

bool l2_dram_cycle(struct l2_part *l, uint64_t dram_now)
{
	if (tdreq_ring_empty(&l->pipe) && dram_idle(l->dram))
		return false;
	bool handed = false;
	/* Read data back to the slice that asked, in order. */
	for (;;) {
		const struct dram_req *r = dram_peek(l->dram, dram_now);
		if (!r)
			break;
		unsigned si = (unsigned)((r->addr / l->p.map.chunk) % l->p.map.slices);
		struct l2_slice *s = &l->sl[si];
		if (dreq_ring_full(&s->from_dram))
			break;
		*dreq_ring_push(&s->from_dram) = *r;
		dram_pop(l->dram, dram_now);
		l->work++;
		handed = true;
	}
	/* Controller pipeline -> DRAM scheduler queue, one per cycle. */
	if (!tdreq_ring_empty(&l->pipe)) {
		struct timed_dreq *t = tdreq_ring_front(&l->pipe);
		if (t->ready <= l->now && dram_push(l->dram, &t->r))
			tdreq_ring_pop(&l->pipe);
	}
	dram_cycle(l->dram, dram_now);
	return handed;
}

static bool slice_idle(const struct l2_slice *s)
{
	return tpkt_ring_empty(&s->rop) && pkt_ring_empty(&s->reply) && tpkt_ring_empty(&s->atomic) &&
	       dreq_ring_empty(&s->to_dram) && dreq_ring_empty(&s->from_dram) && idx_ring_empty(&s->ready) &&
	       s->nfree == s->pool_size;
}

bool l2_has_work(const struct l2_part *l) { return l->work != 0; }

bool l2_idle(const struct l2_part *l)
{
	if (l->work || !tdreq_ring_empty(&l->pipe) || !dram_idle(l->dram))
		return false;
	for (unsigned s = 0; s < l->p.map.slices; s++)
		if (!slice_idle(&l->sl[s]))
			return false;
	return true;
}
