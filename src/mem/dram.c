/*
 * dram.c -- GDDR5 channel with an FR-FCFS controller (see dram.h).
 *
 * Every timing constraint is kept as the absolute cycle at which the next
 * command of a kind becomes legal (per bank, per bank group, per channel),
 * so nothing counts down each cycle and an idle channel costs nothing.
 * Queues are small arrays kept in arrival order (index 0 = oldest).
 */
#include <stdio.h>
#include <string.h>

#include "mem/dram.h"
#include "mem/mem.h"
#include "mem/mem_counters.h"

#define ROW_CLOSED UINT64_MAX

struct dq_ent {
	struct dram_req r;
	uint64_t row;
	uint32_t bank, grp;
	uint32_t bursts_left;
	bool started; /* a column command was issued */
	bool missed;  /* an ACT or PRE was issued for it */
};

struct dret {
	struct dram_req r;
	uint64_t ready;
};
MEM_RING(dret_ring, struct dret)

struct dbank {
	uint64_t open_row;
	uint64_t act_ok, col_ok, pre_ok;
};

struct dram {
	struct dram_params p;
	struct ws_stats *stats;
	unsigned burst_cycles, atom, tRTW, tWTR;
	struct dbank *bank;
	uint64_t *grp_col_ok;
	uint64_t *grp_pre_ok;      /* rtpl_group: a read's tRTPL, per bank group */
	uint8_t *hit;              /* scratch per bank: a queued request hits the open row */
	uint64_t act_ok, col_ok, rd_ok, wr_ok, pre_ok, bus_free;
	struct dq_ent *rq, *wq;
	unsigned rn, wn;
	bool drain;
	struct dret_ring ret;
	unsigned ret_reserved; /* reads started but not finished */
};

static inline void add(struct dram *d, int id, uint64_t v)
{
	if (d->stats)
		d->stats->v[id] += v;
}

static inline uint64_t max64(uint64_t a, uint64_t b) { return a > b ? a : b; }

unsigned dram_atom_bytes(const struct dram_params *p) { return p->bus_bytes * p->burst_length; }

bool dram_params_ok(const struct dram_params *p, char *err, unsigned errsz)
{
	const char *why = NULL;
	if (!p->banks || !p->bank_groups || p->banks % p->bank_groups)
		why = "dram_banks must be a positive multiple of dram_bank_groups";
	else if (!p->bank_interleave || !p->row_bytes || p->row_bytes % p->bank_interleave)
		why = "dram_row_bytes must be a multiple of dram_bank_interleave_bytes";
	else if (!p->bus_bytes || !p->burst_length || !p->data_rate || p->burst_length % p->data_rate)
		why = "dram_burst_length must be a multiple of dram_data_rate";
	else if (!p->read_queue || !p->write_queue || !p->return_queue)
		why = "DRAM queues must have at least one entry";
	else if (p->write_high < 1 || p->write_high > p->write_queue || p->write_low >= p->write_high)
		why = "need dram_write_low < dram_write_high <= dram_write_queue";
	else if (!p->tCCD || !p->tCCDL)
		why = "dram_tccd and dram_tccdl must be at least 1";
	if (why && err && errsz)
		snprintf(err, errsz, "%s", why);
	return !why;
}

/* The bits of x selected by mask, packed towards bit 0 (software pext). */
static uint64_t gather(uint64_t x, uint64_t mask)
{
	uint64_t r = 0;
	unsigned k = 0;
	for (; mask; mask &= mask - 1, k++)
		r |= ((x >> __builtin_ctzll(mask)) & 1) << k;
	return r;
}

int dram_parse_map(const char *s, struct dram_params *p, char *err, unsigned errsz)
{
	p->bank_mask = p->col_mask = 0;
	if (!s || !*s || !strcmp(s, "interleave"))
		return 0;
	size_t n = strlen(s);
	unsigned bit = 0;
	for (size_t i = n; i-- > 0;) {
		char c = s[i];
		if (c == '.')
			continue;
		if (bit >= 48 || !strchr("RBCS0", c)) {
			snprintf(err, errsz, "dram_addr_map '%s': expected 'interleave' or at most 48 of R (row), "
					     "B (bank), C/S (column), '.' as a separator",
				 s);
			return -1;
		}
		if (c == 'B')
			p->bank_mask |= 1ull << bit;
		else if (c == 'C' || c == 'S')
			p->col_mask |= 1ull << bit;
		bit++;
	}
	if ((1ull << __builtin_popcountll(p->bank_mask)) != p->banks) {
		snprintf(err, errsz, "dram_addr_map '%s' has %d bank bits, dram_banks = %u needs %d", s,
			 __builtin_popcountll(p->bank_mask), p->banks, __builtin_ctz(p->banks ? p->banks : 1));
		return -1;
	}
	if ((p->col_mask & 127) != 127) {
		snprintf(err, errsz, "dram_addr_map '%s': the low 7 bits (a 128-byte line) must be column bits", s);
		return -1;
	}
	return 0;
}

void dram_map(const struct dram_params *p, uint64_t addr, unsigned *bank, uint64_t *row, unsigned *col)
{
	if (p->bank_mask) {
		*bank = (unsigned)gather(addr, p->bank_mask);
		*col = (unsigned)gather(addr, p->col_mask);
		*row = gather(addr, ~(p->bank_mask | p->col_mask));
		return;
	}
	uint64_t g = addr / p->bank_interleave;
	uint64_t per_row = p->row_bytes / p->bank_interleave;
	uint64_t rg = g / p->banks;
	*bank = (unsigned)(g % p->banks);
	*row = rg / per_row;
	*col = (unsigned)((rg % per_row) * p->bank_interleave + addr % p->bank_interleave);
}

/* Bursts of dram_atom_bytes that cover the sectors together. */
unsigned dram_bursts_covering(const struct dram_params *p, uint32_t sectors)
{
	unsigned atom = dram_atom_bytes(p), n = 0;
	uint64_t last = UINT64_MAX;
	for (unsigned s = 0; s < 32; s++) {
		if (!(sectors >> s & 1))
			continue;
		uint64_t a0 = (uint64_t)s * MEM_SECTOR_BYTES / atom, a1 = ((uint64_t)s * MEM_SECTOR_BYTES + 31) / atom;
		for (uint64_t a = a0; a <= a1; a++)
			if (a != last) {
				n++;
				last = a;
			}
	}
	return n ? n : 1;
}

unsigned dram_bursts(const struct dram_params *p, uint32_t sectors)
{
	if (p->sector_cmds) { /* each sector its own request: ceil(32 / atom) bursts */
		unsigned atom = dram_atom_bytes(p);
		return (unsigned)__builtin_popcount(sectors ? sectors : 1) * ((MEM_SECTOR_BYTES + atom - 1) / atom);
	}
	return dram_bursts_covering(p, sectors);
}

struct dram *dram_create(const struct dram_params *p, struct ws_stats *stats)
{
	if (!p || !dram_params_ok(p, NULL, 0) || p->banks > 4096 || p->read_queue > 65536 || p->write_queue > 65536)
		return NULL;
	struct dram *d = calloc(1, sizeof *d);
	if (!d)
		return NULL;
	d->p = *p;
	d->stats = stats;
	d->burst_cycles = p->burst_length / p->data_rate;
	d->atom = dram_atom_bytes(p);
	int rtw = (int)p->tCL + (int)d->burst_cycles + 2 - (int)p->tWL;
	d->tRTW = rtw > 0 ? (unsigned)rtw : 0;
	d->tWTR = p->tWL + d->burst_cycles + p->tCDLR;
	d->bank = calloc(p->banks, sizeof *d->bank);
	d->grp_col_ok = calloc(p->bank_groups, sizeof *d->grp_col_ok);
	d->grp_pre_ok = calloc(p->bank_groups, sizeof *d->grp_pre_ok);
	d->hit = calloc(p->banks, sizeof *d->hit);
	d->rq = calloc(p->read_queue, sizeof *d->rq);
	d->wq = calloc(p->write_queue, sizeof *d->wq);
	if (!d->bank || !d->grp_col_ok || !d->grp_pre_ok || !d->hit || !d->rq || !d->wq || !dret_ring_init(&d->ret, p->return_queue)) {
		dram_destroy(d);
		return NULL;
	}
	for (unsigned b = 0; b < p->banks; b++)
		d->bank[b].open_row = ROW_CLOSED;
	return d;
}

void dram_destroy(struct dram *d)
{
	if (!d)
		return;
	free(d->bank);
	free(d->grp_col_ok);
	free(d->grp_pre_ok);
	free(d->hit);
	free(d->rq);
	free(d->wq);
	dret_ring_free(&d->ret);
	free(d);
}

bool dram_can_accept(const struct dram *d, bool write)
{
	return write ? d->wn < d->p.write_queue : d->rn < d->p.read_queue;
}

bool dram_push(struct dram *d, const struct dram_req *r)
{
	if (!dram_can_accept(d, r->write))
		return false;
	struct dq_ent *e = r->write ? &d->wq[d->wn++] : &d->rq[d->rn++];
	memset(e, 0, sizeof *e);
	e->r = *r;
	unsigned col;
	dram_map(&d->p, r->addr, &e->bank, &e->row, &col);
	e->grp = e->bank % d->p.bank_groups;
	/* GPGPU-Sim: a read is one request per missing sector; an L2 write-back is one
	 * request for the line's dirty bytes */
	e->bursts_left = r->write && d->p.sector_cmds ? dram_bursts_covering(&d->p, r->sectors) : dram_bursts(&d->p, r->sectors);
	return true;
}

static bool col_ready(const struct dram *d, const struct dq_ent *e, uint64_t now)
{
	const struct dbank *b = &d->bank[e->bank];
	if (b->open_row != e->row || now < b->col_ok || now < d->col_ok || now < d->grp_col_ok[e->grp])
		return false;
	if (e->r.write) {
		if (now < d->wr_ok || now + d->p.tWL < d->bus_free)
			return false;
	} else {
		if (now < d->rd_ok || now + d->p.tCL < d->bus_free)
			return false;
		if (!e->started && d->ret.n + d->ret_reserved >= d->ret.cap)
			return false; /* no room to return the data */
	}
	return true;
}

static void remove_at(struct dq_ent *q, unsigned *n, unsigned i)
{
	memmove(&q[i], &q[i + 1], (size_t)(*n - i - 1) * sizeof *q);
	(*n)--;
}

static void issue_col(struct dram *d, struct dq_ent *q, unsigned *n, unsigned i, uint64_t now)
{
	struct dq_ent *e = &q[i];
	struct dbank *b = &d->bank[e->bank];
	bool w = e->r.write;
	uint64_t start = now + (w ? d->p.tWL : d->p.tCL);
	d->bus_free = start + d->burst_cycles;
	d->col_ok = now + d->p.tCCD;
	d->grp_col_ok[e->grp] = now + d->p.tCCDL;
	if (w) {
		d->rd_ok = max64(d->rd_ok, now + d->tWTR);
		b->pre_ok = max64(b->pre_ok, now + d->p.tWL + d->burst_cycles + d->p.tWR);
	} else {
		d->wr_ok = max64(d->wr_ok, now + d->tRTW);
		b->pre_ok = max64(b->pre_ok, now + d->burst_cycles);
		if (d->p.rtpl_group)
			d->grp_pre_ok[e->grp] = max64(d->grp_pre_ok[e->grp], now + d->p.tRTPL);
		else
			d->pre_ok = max64(d->pre_ok, now + d->p.tRTPL);
	}
	add(d, STAT_dram_bytes, d->atom);
	add(d, w ? STAT_dram_write_cmds : STAT_dram_read_cmds, 1);
	add(d, STAT_dram_busy_cycles, d->burst_cycles);
	if (!e->started) {
		e->started = true;
		add(d, e->missed ? STAT_dram_row_misses : STAT_dram_row_hits, 1);
		if (!w)
			d->ret_reserved++;
	}
	if (--e->bursts_left)
		return;
	if (w) {
		add(d, STAT_dram_writes, 1);
	} else {
		add(d, STAT_dram_reads, 1);
		d->ret_reserved--;
		struct dret *r = dret_ring_push(&d->ret);
		r->r = e->r;
		r->ready = d->bus_free;
	}
	remove_at(q, n, i);
}

/* The oldest request that can open its row gets its ACT or PRE (a bank whose
 * open row still has queued hits is not precharged).  True if issued. */
static bool issue_row_cmd(struct dram *d, struct dq_ent *q, unsigned n, uint64_t now)
{
	bool act_ok = now >= d->act_ok, pre_ok = now >= d->pre_ok;
	for (unsigned i = 0; i < n; i++)
		if (d->bank[q[i].bank].open_row == q[i].row)
			d->hit[q[i].bank] = 1;
	bool issued = false;
	for (unsigned i = 0; i < n && !issued; i++) {
		struct dq_ent *e = &q[i];
		struct dbank *b = &d->bank[e->bank];
		if (b->open_row == e->row)
			continue; /* row open, column command waits for timing */
		if (b->open_row == ROW_CLOSED) {
			if (act_ok && now >= b->act_ok) {
				b->open_row = e->row;
				b->col_ok = now + d->p.tRCD;
				b->pre_ok = max64(b->pre_ok, now + d->p.tRAS);
				b->act_ok = now + d->p.tRC;
				d->act_ok = now + d->p.tRRD;
				e->missed = true;
				add(d, STAT_dram_activates, 1);
				issued = true;
			}
		} else if (pre_ok && !d->hit[e->bank] && now >= b->pre_ok && now >= d->grp_pre_ok[e->grp]) {
			b->open_row = ROW_CLOSED;
			b->act_ok = max64(b->act_ok, now + d->p.tRP);
			e->missed = true;
			add(d, STAT_dram_precharges, 1);
			issued = true;
		}
	}
	for (unsigned i = 0; i < n; i++)
		d->hit[q[i].bank] = 0;
	return issued;
}

void dram_cycle(struct dram *d, uint64_t now)
{
	if (!d->rn && !d->wn)
		return;
	if (!d->drain) {
		if (d->wn >= d->p.write_high || (!d->rn && d->wn))
			d->drain = true;
	} else if (!d->wn || (d->wn <= d->p.write_low && d->rn)) {
		d->drain = false;
	}
	struct dq_ent *q = d->drain ? d->wq : d->rq;
	unsigned *n = d->drain ? &d->wn : &d->rn;
	/* First ready: the oldest row hit whose column command may issue now. */
	if (now >= d->col_ok)
		for (unsigned i = 0; i < *n; i++)
			if (col_ready(d, &q[i], now)) {
				issue_col(d, q, n, i, now);
				return;
			}
	/* Then first come.  A PRE also needs the channel's read-to-precharge gap. */
	if (now >= d->act_ok || now >= d->pre_ok)
		issue_row_cmd(d, q, *n, now);
}

const struct dram_req *dram_peek(const struct dram *d, uint64_t now)
{
	if (dret_ring_empty(&d->ret))
		return NULL;
	const struct dret *r = dret_ring_front(&d->ret);
	return r->ready <= now ? &r->r : NULL;
}

void dram_pop(struct dram *d, uint64_t now)
{
	if (dram_peek(d, now))
		dret_ring_pop(&d->ret);
}

bool dram_idle(const struct dram *d) { return !d->rn && !d->wn && dret_ring_empty(&d->ret); }

bool dram_queued(const struct dram *d) { return d->rn || d->wn; }

uint64_t dram_ret_at(const struct dram *d) { return dret_ring_empty(&d->ret) ? UINT64_MAX : dret_ring_front(&d->ret)->ready; }
