/*
 * memsys.c -- the memory system: crossbars, memory partitions, clock
 * domains (see memsys.h).
 *
 * Interconnect ports: request network inputs = SMs, outputs = L2 slices
 * (global index partition * slices_per_channel + slice); the reply network
 * the other way round.  At each L2 edge every slice first offers its
 * oldest reply to the reply network, then the partitions tick, then every
 * slice takes at most one request that has arrived from the request
 * network into its ROP pipeline.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "config/params.h"
#include "mem/cache.h"
#include "mem/dram.h"
#include "mem/icnt.h"
#include "mem/l2.h"
#include "mem/mem_counters.h"
#include "mem/mem_params.h"
#include "mem/memsys.h"

struct memsys {
	struct ws_stats *stats;
	unsigned nsms, nparts, spp, nslices;
	struct mem_map map;
	unsigned l2_line, header;
	bool sector_writes; /* l2_sector_writes: a store gets one ack per sector of its segment */
	struct icnt *req, *rep;
	struct l2_part **parts;
	bool *busy;          /* partition has something in flight */
	unsigned nbusy;
	/* sleep: a busy partition whose slices can do nothing before L2 cycle
	 * l2_wake[p] (l2_next_event) skips its L2 ticks until then, unless a
	 * request arrives for it or its DRAM hands back data */
	bool sleep;
	uint64_t *l2_wake;
	uint64_t period[MEMSYS_CLK_COUNT];
	uint64_t next[MEMSYS_CLK_COUNT]; /* time of the next edge, fs */
	uint64_t cycles[MEMSYS_CLK_COUNT];
	/* sleep: the last core cycle up to which the memory system certainly
	 * does nothing but advance its clocks (memsys_quiet_cycles), valid
	 * while quiet_valid: until a tick with events, a request sent or a host
	 * copy; memsys_cycle only advances the clocks up to it */
	bool quiet_valid, l2_behind;
	uint64_t quiet_until;
	uint64_t *wake;      /* bit per SM: a reply was put into the network for it (GPU loop) */
	struct ws_stats **sm_stats; /* [nsms] where each SM's sends and pops are counted (NULL: stats) */
	/* l1i_persist: each SM's L1I between launches, and the code it holds */
	struct cache **l1i_kept;    /* [nsms], NULL entries where none is kept */
	const void **l1i_code;      /* [nsms] */
};

/* The counters of what SM `sm` does (its own block while SMs tick on threads). */
static struct ws_stats *sm_stats(const struct memsys *m, unsigned sm)
{
	return m->sm_stats && m->sm_stats[sm] ? m->sm_stats[sm] : m->stats;
}

static void dram_params_from_config(const struct ws_config *cfg, struct dram_params *d)
{
	memset(d, 0, sizeof *d);
	d->banks = (unsigned)cfg_int(cfg, CFG_dram_banks);
	d->bank_groups = (unsigned)cfg_int(cfg, CFG_dram_bank_groups);
	d->bank_interleave = (unsigned)cfg_int(cfg, CFG_dram_bank_interleave_bytes);
	d->row_bytes = (unsigned)cfg_int(cfg, CFG_dram_row_bytes);
	d->bus_bytes = (unsigned)cfg_int(cfg, CFG_dram_bus_bytes);
	d->burst_length = (unsigned)cfg_int(cfg, CFG_dram_burst_length);
	d->data_rate = (unsigned)cfg_int(cfg, CFG_dram_data_rate);
	d->tCCD = (unsigned)cfg_int(cfg, CFG_dram_tccd);
	d->tCCDL = (unsigned)cfg_int(cfg, CFG_dram_tccdl);
	d->sector_cmds = cfg_int(cfg, CFG_dram_sector_cmds) != 0;
	char e[160];
	dram_parse_map(cfg_str(cfg, CFG_dram_addr_map), d, e, sizeof e); /* checked by memsys_check_config */
	d->tRRD = (unsigned)cfg_int(cfg, CFG_dram_trrd);
	d->tRCD = (unsigned)cfg_int(cfg, CFG_dram_trcd);
	d->tRAS = (unsigned)cfg_int(cfg, CFG_dram_tras);
	d->tRP = (unsigned)cfg_int(cfg, CFG_dram_trp);
	d->tRC = (unsigned)cfg_int(cfg, CFG_dram_trc);
	d->tCL = (unsigned)cfg_int(cfg, CFG_dram_tcl);
	d->tWL = (unsigned)cfg_int(cfg, CFG_dram_twl);
	d->tCDLR = (unsigned)cfg_int(cfg, CFG_dram_tcdlr);
	d->tWR = (unsigned)cfg_int(cfg, CFG_dram_twr);
	d->tRTPL = (unsigned)cfg_int(cfg, CFG_dram_trtpl);
	d->rtpl_group = cfg_int(cfg, CFG_dram_rtpl_group) != 0;
	d->read_queue = (unsigned)cfg_int(cfg, CFG_dram_read_queue);
	d->write_queue = (unsigned)cfg_int(cfg, CFG_dram_write_queue);
	d->write_high = (unsigned)cfg_int(cfg, CFG_dram_write_high);
	d->write_low = (unsigned)cfg_int(cfg, CFG_dram_write_low);
	d->return_queue = (unsigned)cfg_int(cfg, CFG_dram_return_queue);
}

static bool pow2(int64_t x) { return x > 0 && !(x & (x - 1)); }

bool memsys_check_config(const struct ws_config *cfg, char *err, size_t errsz)
{
	char buf[160];
	const char *why = NULL;
	int64_t l2 = cfg_int(cfg, CFG_l2_line_bytes);
	int64_t chunk = cfg_int(cfg, CFG_dram_interleave_bytes);
	int64_t bki = cfg_int(cfg, CFG_dram_bank_interleave_bytes);
	if (!pow2(cfg_int(cfg, CFG_l1d_line_bytes)) || !pow2(cfg_int(cfg, CFG_l1i_line_bytes)) || !pow2(l2) ||
	    !pow2(cfg_int(cfg, CFG_tex_line_bytes)))
		why = "cache line sizes must be powers of two";
	else if (cfg_int(cfg, CFG_l1d_line_bytes) > l2 || cfg_int(cfg, CFG_l1i_line_bytes) > l2 ||
		 cfg_int(cfg, CFG_tex_line_bytes) > l2)
		why = "L1 (l1d, l1i, tex) line sizes must not exceed l2_line_bytes";
	else if (chunk % l2)
		why = "dram_interleave_bytes must be a multiple of l2_line_bytes";
	else if (cfg_int(cfg, CFG_l1d_set_hash) == 1 && cfg_int(cfg, CFG_l1d_sets) != 32 && cfg_int(cfg, CFG_l1d_sets) != 64)
		why = "l1d_set_hash = fermi needs l1d_sets = 32 or 64 (or set l1d_set_hash = linear)";
	else if (cfg_int(cfg, CFG_l1d_cacp) && cfg_int(cfg, CFG_l1d_ways) < 2)
		why = "l1d_cacp needs l1d_ways >= 2 (a critical and a non-critical partition)";
	else if (cfg_int(cfg, CFG_l1d_cacp) && !pow2(cfg_int(cfg, CFG_l1d_cacp_entries)))
		why = "l1d_cacp_entries must be a power of two";
	else if (bki % l2)
		why = "dram_bank_interleave_bytes must be a multiple of l2_line_bytes";
	else if ((uint64_t)cfg_int(cfg, CFG_l2_mshrs) * (uint64_t)cfg_int(cfg, CFG_l2_mshr_merge) > (1u << 20))
		why = "l2_mshrs * l2_mshr_merge is too large";
	else if ((uint64_t)cfg_int(cfg, CFG_dram_channels) * (uint64_t)cfg_int(cfg, CFG_l2_slices_per_channel) > 4096)
		why = "too many L2 slices (dram_channels * l2_slices_per_channel > 4096)";
	if (!why) {
		struct dram_params d;
		dram_params_from_config(cfg, &d);
		if (dram_parse_map(cfg_str(cfg, CFG_dram_addr_map), &d, buf, sizeof buf) || !dram_params_ok(&d, buf, sizeof buf))
			why = buf;
	}
	if (why && err && errsz)
		snprintf(err, errsz, "memory configuration: %s", why);
	return !why;
}

void memsys_destroy(struct memsys *m)
{
	if (!m)
		return;
	icnt_destroy(m->req);
	icnt_destroy(m->rep);
	for (unsigned p = 0; m->parts && p < m->nparts; p++)
		l2_part_destroy(m->parts[p]);
	free(m->parts);
	free(m->l2_wake);
	free(m->busy);
	free(m->sm_stats);
	for (unsigned i = 0; m->l1i_kept && i < m->nsms; i++)
		cache_destroy(m->l1i_kept[i]);
	free(m->l1i_kept);
	free(m->l1i_code);
	free(m);
}

static uint64_t period_fs(double mhz) { return (uint64_t)llround(1e9 / mhz); }

struct memsys *memsys_create(const struct ws_config *cfg, struct ws_stats *stats, unsigned num_sms)
{
	if (!cfg || !num_sms || !memsys_check_config(cfg, NULL, 0))
		return NULL;
	struct memsys *m = calloc(1, sizeof *m);
	if (!m)
		return NULL;
	m->stats = stats;
	m->nsms = num_sms;
	m->nparts = (unsigned)cfg_int(cfg, CFG_dram_channels);
	m->spp = (unsigned)cfg_int(cfg, CFG_l2_slices_per_channel);
	m->nslices = m->nparts * m->spp;
	m->map.parts = m->nparts;
	m->map.slices = m->spp;
	m->map.chunk = (uint32_t)cfg_int(cfg, CFG_dram_interleave_bytes);
	m->l2_line = (unsigned)cfg_int(cfg, CFG_l2_line_bytes);
	m->header = (unsigned)cfg_int(cfg, CFG_icnt_header_bytes);
	m->period[MEMSYS_CLK_CORE] = period_fs(cfg_float(cfg, CFG_clock_core));
	m->period[MEMSYS_CLK_ICNT] = period_fs(cfg_float(cfg, CFG_clock_icnt));
	m->period[MEMSYS_CLK_L2] = period_fs(cfg_float(cfg, CFG_clock_l2));
	m->period[MEMSYS_CLK_DRAM] = period_fs(cfg_float(cfg, CFG_clock_dram));
	for (int c = 0; c < MEMSYS_CLK_COUNT; c++)
		m->next[c] = m->period[c];

	struct icnt_params ip = {
		.latency = (unsigned)cfg_int(cfg, CFG_icnt_latency),
		.flit_bytes = (unsigned)cfg_int(cfg, CFG_icnt_flit_bytes),
		.flits_per_cycle = (unsigned)cfg_int(cfg, CFG_icnt_flits_per_cycle),
		.in_buf_flits = (unsigned)cfg_int(cfg, CFG_icnt_in_buf_flits),
		.out_buf_packets = (unsigned)cfg_int(cfg, CFG_icnt_out_buf_packets),
	};
	ip.inputs = num_sms;
	ip.outputs = m->nslices;
	m->req = icnt_create(&ip);
	ip.inputs = m->nslices;
	ip.outputs = num_sms;
	m->rep = icnt_create(&ip);

	struct l2_params lp;
	memset(&lp, 0, sizeof lp);
	cache_params_from_config(cfg, CACHE_STATS_L2, &lp.cache);
	dram_params_from_config(cfg, &lp.dram);
	lp.map = m->map;
	lp.rop_latency = (unsigned)cfg_int(cfg, CFG_l2_rop_latency);
	lp.atomic_latency = (unsigned)cfg_int(cfg, CFG_l2_atomic_latency);
	lp.queue = (unsigned)cfg_int(cfg, CFG_l2_queue_size);
	lp.dram_latency = (unsigned)cfg_int(cfg, CFG_dram_latency);
	lp.sector_requests = cfg_int(cfg, CFG_l2_sector_requests) != 0;
	lp.sector_writes = m->sector_writes = cfg_int(cfg, CFG_l2_sector_writes) != 0;
	m->parts = calloc(m->nparts, sizeof *m->parts);
	m->busy = calloc(m->nparts, sizeof *m->busy);
	m->l2_wake = calloc(m->nparts, sizeof *m->l2_wake);
	m->sleep = cfg_int(cfg, CFG_sleep) != 0;
	bool ok = m->req && m->rep && m->parts && m->busy && m->l2_wake;
	for (unsigned p = 0; ok && p < m->nparts; p++) {
		lp.part = p;
		m->parts[p] = l2_part_create(&lp, stats);
		ok = m->parts[p] != NULL;
	}
	if (!ok) {
		memsys_destroy(m);
		return NULL;
	}
	return m;
}

/* Data bytes a request carries to memory / its reply carries back. */
static unsigned req_data(const struct mem_pkt *p)
{
	return p->kind == MEM_WRITE || p->kind == MEM_ATOMIC ? p->bytes : 0;
}
static unsigned reply_data(const struct mem_pkt *p)
{
	switch (p->kind) {
	case MEM_WRITE: return 0;
	case MEM_ATOMIC: return p->bytes;
	default: return MEM_SECTOR_BYTES * mem_popcount(p->l2_sectors);
	}
}

static void make_pkt(const struct memsys *m, unsigned sm, const struct mem_req *r, struct mem_pkt *p)
{
	uint64_t base = r->addr & ~(uint64_t)(MEM_SECTOR_BYTES - 1);
	uint64_t line = base & ~(uint64_t)(m->l2_line - 1);
	uint32_t full = (1u << (m->l2_line / MEM_SECTOR_BYTES)) - 1;
	unsigned shift = (unsigned)((base - line) / MEM_SECTOR_BYTES);
	uint32_t s = shift < 32 ? (uint32_t)((uint64_t)r->sectors << shift) & full : 0;
	if (!s)
		s = full;
	memset(p, 0, sizeof *p);
	p->addr = r->addr;
	p->token = r->token;
	p->line = line;
	p->sectors = r->sectors;
	p->l2_sectors = s;
	p->fill = r->fill;
	p->kind = (unsigned)r->kind < MEM_KIND_COUNT ? r->kind : MEM_READ;
	p->bytes = r->bytes ? r->bytes : MEM_SECTOR_BYTES * mem_popcount(s);
	p->sm = sm;
}

/* The flits request packet p takes in the request network. */
static unsigned pkt_flits(const struct memsys *m, const struct mem_pkt *p)
{
	return icnt_flits(m->req, m->header + req_data(p));
}

unsigned memsys_req_flits(const struct memsys *m, unsigned sm, const struct mem_req *r)
{
	struct mem_pkt p;
	make_pkt(m, sm, r, &p);
	return pkt_flits(m, &p);
}

bool memsys_can_accept(const struct memsys *m, unsigned sm, const struct mem_req *r)
{
	if (sm >= m->nsms)
		return false;
	unsigned flits = r ? memsys_req_flits(m, sm, r) : icnt_flits(m->req, m->header + m->l2_line);
	return icnt_can_push(m->req, sm, flits);
}

void memsys_describe_input(const struct memsys *m, unsigned sm, char *buf, size_t bufsz)
{
	unsigned n, f, maxn, maxf;
	icnt_in_occupancy(m->req, sm, &n, &f, &maxn, &maxf);
	snprintf(buf, bufsz, "%u of %u packets, %u of %u flits", n, maxn, f, maxf);
}

bool memsys_send(struct memsys *m, unsigned sm, const struct mem_req *r)
{
	if (!r || sm >= m->nsms)
		return false;
	struct mem_pkt p;
	make_pkt(m, sm, r, &p);
	p.sent = m->cycles[MEMSYS_CLK_CORE];
	p.began = p.sent - (r->waited < p.sent ? r->waited : p.sent);
	unsigned flits = pkt_flits(m, &p);
	if (!icnt_push(m->req, sm, mem_slice_of(&m->map, p.line), flits, &p))
		return false;
	struct ws_stats *st = sm_stats(m, sm);
	if (st) {
		st->v[STAT_icnt_req_packets]++;
		st->v[STAT_icnt_req_flits] += flits;
	}
	return true;
}

unsigned memsys_write_acks(const struct memsys *m, const struct mem_req *r)
{
	if (!m->sector_writes || r->kind != MEM_WRITE)
		return 1;
	struct mem_pkt p;
	make_pkt(m, 0, r, &p);
	return mem_popcount(mem_write_segment(p.l2_sectors));
}

bool memsys_pop_reply(struct memsys *m, unsigned sm, struct mem_reply *out)
{
	if (sm >= m->nsms)
		return false;
	const struct mem_pkt *p = icnt_peek(m->rep, sm);
	if (!p)
		return false;
	out->addr = p->addr;
	out->token = p->token;
	out->sectors = p->sectors;
	out->kind = p->kind;
	out->bytes = reply_data(p);
	struct ws_stats *st = sm_stats(m, sm);
	if (st && p->kind != MEM_WRITE) {
		st->v[STAT_mem_read_replies]++;
		st->v[STAT_mem_read_latency] += m->cycles[MEMSYS_CLK_CORE] - p->sent;
	}
	if (st && p->kind != MEM_IFETCH) {
		uint64_t now = m->cycles[MEMSYS_CLK_CORE];
		st->v[STAT_mem_fetch_replies]++;
		st->v[STAT_mem_fetch_latency] += now - p->began;
		st->v[STAT_mem_icnt2sh_latency] += now - p->replied;
		st->v[STAT_mem_partition_latency] += p->replied - p->at_l2;
	}
	icnt_pop(m->rep, sm);
	return true;
}

/* Partition pi has just been ticked: is it still busy? */
static void settle(struct memsys *m, unsigned pi)
{
	if (m->busy[pi] && !l2_has_work(m->parts[pi]) && l2_idle(m->parts[pi])) {
		m->busy[pi] = false;
		m->nbusy--;
	}
}

/* Does GPGPU-Sim time the replies of this request from its arrival at the
 * L2 rather than from the access's start (mem_fetch_latency, mf_latency)?
 * Its sectored L2 breaks every request but a lone 32-byte sector into new
 * one-sector mem_fetches when the request arrives (memory_sub_partition::push,
 * breakdown_request_to_sector_requests), each stamped with that cycle, and
 * those are the replies the SM times (memlatstat_read_done).  A request's
 * size is its sectors; a store's, the segment its coalescer sized
 * (mem_write_segment). */
static bool split_timed_at_l2(const struct mem_pkt *p)
{
	uint32_t s = p->kind == MEM_WRITE ? mem_write_segment(p->l2_sectors) : p->l2_sectors;
	return mem_popcount(s) > 1;
}

static void tick_l2(struct memsys *m)
{
	bool arrivals = icnt_any_delivered(m->req);
	if (!arrivals && !m->nbusy)
		return;
	uint64_t now = m->cycles[MEMSYS_CLK_L2];
	for (unsigned pi = 0; pi < m->nparts; pi++) {
		if (!m->busy[pi] && !arrivals)
			continue;
		struct l2_part *P = m->parts[pi];
		if (m->sleep && (!m->busy[pi] || m->l2_wake[pi] > now)) {
			/* asleep, or idle: nothing to do unless a request for it has arrived */
			bool arrived = false;
			for (unsigned s = 0; arrivals && s < m->spp && !arrived; s++)
				arrived = icnt_peek(m->req, pi * m->spp + s) != NULL;
			if (!arrived) {
				l2_set_now(P, now);
				continue;
			}
		}
		if (l2_has_work(P))
			for (unsigned s = 0; s < m->spp; s++) {
				const struct mem_pkt *r = l2_peek_reply(P, s);
				if (!r)
					continue;
				unsigned flits = icnt_flits(m->rep, m->header + reply_data(r));
				struct mem_pkt rp = *r;
				rp.replied = m->cycles[MEMSYS_CLK_CORE];
				if (icnt_push(m->rep, pi * m->spp + s, r->sm, flits, &rp)) {
					if (m->wake && r->sm < m->nsms)
						m->wake[r->sm >> 6] |= 1ull << (r->sm & 63);
					if (m->stats) {
						m->stats->v[STAT_icnt_reply_packets]++;
						m->stats->v[STAT_icnt_reply_flits] += flits;
					}
					l2_pop_reply(P, s);
				}
			}
		l2_cycle(P, now);
		if (arrivals)
			for (unsigned s = 0; s < m->spp; s++) {
				unsigned g = pi * m->spp + s;
				const struct mem_pkt *q = icnt_peek(m->req, g);
				if (!q)
					continue;
				uint64_t core = m->cycles[MEMSYS_CLK_CORE], began = q->began;
				struct mem_pkt arr = *q;
				arr.at_l2 = core;
				/* statistics only: GPGPU-Sim times the sector requests it makes of it from here */
				if (split_timed_at_l2(q))
					arr.began = core;
				if (l2_accept(P, s, &arr)) {
					icnt_pop(m->req, g);
					if (m->stats) {
						m->stats->v[STAT_mem_l2_arrivals]++;
						m->stats->v[STAT_mem_icnt2mem_latency] += core - began;
					}
					if (!m->busy[pi]) {
						m->busy[pi] = true;
						m->nbusy++;
					}
				}
			}
		settle(m, pi);
		if (m->sleep)
			m->l2_wake[pi] = m->busy[pi] ? l2_next_event(P) : 0;
	}
}

/* An edge of clock domain c outside the quiet horizon.  (Inside it
 * (quiet_next) a clock only advances and nothing happens: no partition is
 * awake -- the busy partitions' L2 clocks catch up when the horizon ends,
 * catch_up -- and no packet waits in or arrives from the interconnect;
 * memsys_cycle advances the clocks without ticking.) */
static void tick(struct memsys *m, int c)
{
	m->cycles[c]++;
	switch (c) {
	case MEMSYS_CLK_DRAM:
		if (m->stats)
			m->stats->v[STAT_dram_cycles]++;
		if (m->nbusy)
			for (unsigned p = 0; p < m->nparts; p++)
				if (m->busy[p]) {
					if (l2_dram_cycle(m->parts[p], m->cycles[c]))
						m->l2_wake[p] = 0; /* data for a slice: its L2 side wakes */
					settle(m, p);
				}
		break;
	case MEMSYS_CLK_L2:
		tick_l2(m);
		break;
	case MEMSYS_CLK_ICNT:
		icnt_cycle(m->req);
		icnt_cycle(m->rep);
		break;
	default: break;
	}
}

/* The time (fs) of edge k of clock domain c; UINT64_MAX for k = UINT64_MAX or past the range. */
static uint64_t edge_time(const struct memsys *m, int c, uint64_t k)
{
	return k == UINT64_MAX || k > UINT64_MAX / m->period[c] ? UINT64_MAX : k * m->period[c];
}

static uint64_t quiet_compute(const struct memsys *m)
{
	if (!m->sleep || icnt_any_queued(m->req) || icnt_any_queued(m->rep))
		return 0;
	/* the earliest edge (fs) at which something can happen; the partitions
	 * first, as an awake one ends the search */
	uint64_t e = UINT64_MAX;
	for (unsigned p = 0; p < m->nparts; p++) {
		if (!m->busy[p])
			continue;
		uint64_t l2_at, dram_at;
		if (m->l2_wake[p] <= m->cycles[MEMSYS_CLK_L2] || !l2_dram_quiet(m->parts[p], &l2_at, &dram_at))
			return 0;
		uint64_t t[3] = {edge_time(m, MEMSYS_CLK_L2, m->l2_wake[p]), edge_time(m, MEMSYS_CLK_L2, l2_at),
				 edge_time(m, MEMSYS_CLK_DRAM, dram_at)};
		for (int k = 0; k < 3; k++)
			e = t[k] < e ? t[k] : e;
	}
	uint64_t q = edge_time(m, MEMSYS_CLK_ICNT, icnt_next_arrival(m->req));
	uint64_t r = edge_time(m, MEMSYS_CLK_ICNT, icnt_next_arrival(m->rep));
	e = q < e ? q : e;
	e = r < e ? r : e;
	if (e == UINT64_MAX)
		return UINT64_MAX;
	/* core cycle c handles the edges at times up to c x its period */
	uint64_t pc = m->period[MEMSYS_CLK_CORE], c = e / pc + (e % pc != 0), now = m->cycles[MEMSYS_CLK_CORE];
	return c > now + 1 ? c - now - 1 : 0;
}

/* The horizon has ended: the busy partitions' L2 clocks, which only the
 * partitions' own ticks read, as the passed L2 edges would have left them. */
static void catch_up(struct memsys *m)
{
	m->l2_behind = false;
	for (unsigned p = 0; p < m->nparts; p++)
		if (m->busy[p])
			l2_set_now(m->parts[p], m->cycles[MEMSYS_CLK_L2]);
}

/* Is core cycle cycles[CORE] + 1 inside the quiet horizon (sleep)?  The
 * horizon (memsys_quiet_cycles) stays valid while no request is sent (it
 * would wait in an input buffer) and no tick has events; a reply popped
 * since changes nothing, as an arrived reply makes the horizon 0. */
static bool quiet_next(struct memsys *m)
{
	if (!m->sleep || icnt_any_queued(m->req)) {
		m->quiet_valid = false;
		return false;
	}
	uint64_t now = m->cycles[MEMSYS_CLK_CORE];
	if (!m->quiet_valid) {
		uint64_t q = quiet_compute(m);
		m->quiet_until = q > UINT64_MAX - now ? UINT64_MAX : now + q;
		m->quiet_valid = true;
	}
	return now < m->quiet_until;
}

void memsys_cycle(struct memsys *m)
{
	bool quiet = quiet_next(m);
	if (!quiet) { /* this cycle ticks: find the horizon again after it */
		m->quiet_valid = false;
		if (m->l2_behind)
			catch_up(m);
	}
	uint64_t t = m->next[MEMSYS_CLK_CORE];
	m->next[MEMSYS_CLK_CORE] += m->period[MEMSYS_CLK_CORE];
	m->cycles[MEMSYS_CLK_CORE]++;
	if (quiet) {
		/* every edge up to t only advances its clock (tick), so their
		 * order does not matter: each domain's edges in one step */
		for (int c = MEMSYS_CLK_ICNT; c < MEMSYS_CLK_COUNT; c++) {
			uint64_t k = 0;
			for (; m->next[c] <= t; k++)
				m->next[c] += m->period[c];
			if (!k)
				continue;
			m->cycles[c] += k;
			if (c == MEMSYS_CLK_ICNT) {
				icnt_advance(m->req, k);
				icnt_advance(m->rep, k);
			} else if (c == MEMSYS_CLK_L2) {
				m->l2_behind = true;
			} else if (c == MEMSYS_CLK_DRAM && m->stats) {
				m->stats->v[STAT_dram_cycles] += k;
			}
		}
		return;
	}
	/* The earliest pending edge first; at one instant DRAM, then L2, then the interconnect. */
	for (;;) {
		int best = MEMSYS_CLK_DRAM;
		uint64_t bt = m->next[MEMSYS_CLK_DRAM];
		if (m->next[MEMSYS_CLK_L2] < bt) {
			best = MEMSYS_CLK_L2;
			bt = m->next[MEMSYS_CLK_L2];
		}
		if (m->next[MEMSYS_CLK_ICNT] < bt) {
			best = MEMSYS_CLK_ICNT;
			bt = m->next[MEMSYS_CLK_ICNT];
		}
		if (bt > t)
			break;
		tick(m, best);
		m->next[best] += m->period[best];
	}
}

bool memsys_reply_pending(const struct memsys *m, unsigned sm) { return icnt_out_pending(m->rep, sm); }

bool memsys_reply_ready(const struct memsys *m, unsigned sm) { return sm < m->nsms && icnt_peek(m->rep, sm); }

uint64_t memsys_quiet_cycles(struct memsys *m)
{
	if (!quiet_next(m))
		return 0;
	return m->quiet_until == UINT64_MAX ? UINT64_MAX : m->quiet_until - m->cycles[MEMSYS_CLK_CORE];
}

void memsys_skip(struct memsys *m, uint64_t k)
{
	uint64_t core = m->cycles[MEMSYS_CLK_CORE] + k;
	uint64_t t = core * m->period[MEMSYS_CLK_CORE]; /* every edge up to the end of core cycle `core` */
	m->cycles[MEMSYS_CLK_CORE] = core;
	m->next[MEMSYS_CLK_CORE] = t + m->period[MEMSYS_CLK_CORE];
	for (int c = MEMSYS_CLK_ICNT; c < MEMSYS_CLK_COUNT; c++) {
		uint64_t n = t / m->period[c], d = n - m->cycles[c];
		m->cycles[c] = n;
		m->next[c] = (n + 1) * m->period[c];
		if (c == MEMSYS_CLK_ICNT) {
			icnt_advance(m->req, d);
			icnt_advance(m->rep, d);
		} else if (c == MEMSYS_CLK_L2) {
			for (unsigned p = 0; p < m->nparts; p++)
				l2_set_now(m->parts[p], n);
			m->l2_behind = false;
		} else if (c == MEMSYS_CLK_DRAM && m->stats) {
			m->stats->v[STAT_dram_cycles] += d;
		}
	}
}

void memsys_set_reply_wake(struct memsys *m, uint64_t *wake) { m->wake = wake; }

bool memsys_set_sm_stats(struct memsys *m, unsigned sm, struct ws_stats *st)
{
	if (sm >= m->nsms)
		return false;
	if (!m->sm_stats && !(m->sm_stats = calloc(m->nsms, sizeof *m->sm_stats)))
		return false;
	m->sm_stats[sm] = st;
	return true;
}

struct cache *memsys_l1i_take(struct memsys *m, unsigned sm, const void *code)
{
	if (!m->l1i_kept || sm >= m->nsms || !m->l1i_kept[sm])
		return NULL;
	struct cache *c = m->l1i_kept[sm];
	m->l1i_kept[sm] = NULL;
	if (m->l1i_code[sm] == code)
		return c;
	cache_destroy(c); /* another module's code: its addresses mean nothing here */
	return NULL;
}

bool memsys_l1i_keep(struct memsys *m, unsigned sm, const void *code, struct cache *c)
{
	if (sm >= m->nsms)
		return false;
	if (!m->l1i_kept) {
		m->l1i_kept = calloc(m->nsms, sizeof *m->l1i_kept);
		m->l1i_code = calloc(m->nsms, sizeof *m->l1i_code);
		if (!m->l1i_kept || !m->l1i_code) {
			free(m->l1i_kept);
			free(m->l1i_code);
			m->l1i_kept = NULL;
			m->l1i_code = NULL;
			return false;
		}
	}
	cache_destroy(m->l1i_kept[sm]);
	m->l1i_kept[sm] = c;
	m->l1i_code[sm] = code;
	return true;
}

void memsys_l1i_forget(struct memsys *m, const void *code)
{
	for (unsigned i = 0; m->l1i_kept && i < m->nsms; i++)
		if (m->l1i_kept[i] && m->l1i_code[i] == code) {
			cache_destroy(m->l1i_kept[i]);
			m->l1i_kept[i] = NULL;
		}
}

bool memsys_idle(const struct memsys *m)
{
	if (!icnt_idle(m->req) || !icnt_idle(m->rep))
		return false;
	return m->nbusy == 0;
}

uint64_t memsys_cycles(const struct memsys *m, enum memsys_clock c)
{
	return (unsigned)c < MEMSYS_CLK_COUNT ? m->cycles[c] : 0;
}

uint64_t memsys_period_fs(const struct memsys *m, enum memsys_clock c)
{
	return (unsigned)c < MEMSYS_CLK_COUNT ? m->period[c] : 0;
}

unsigned memsys_partition_of(const struct memsys *m, uint64_t addr) { return mem_partition_of(&m->map, addr); }

void memsys_host_copy(struct memsys *m, uint64_t addr, uint64_t bytes)
{
	if (!bytes)
		return;
	m->quiet_valid = false;
	uint64_t end = addr + bytes, a = addr & ~(uint64_t)(MEM_SECTOR_BYTES - 1);
	while (a < end) {
		uint64_t line = a & ~(uint64_t)(m->l2_line - 1), lend = line + m->l2_line;
		uint32_t sectors = 0;
		for (; a < end && a < lend; a += MEM_SECTOR_BYTES)
			sectors |= 1u << ((a - line) / MEM_SECTOR_BYTES);
		unsigned p = mem_partition_of(&m->map, line);
		l2_install(m->parts[p], mem_slice_in_part(&m->map, line), line, sectors);
	}
}
unsigned memsys_slice_of(const struct memsys *m, uint64_t addr) { return mem_slice_of(&m->map, addr); }
