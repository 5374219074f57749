/*
 * ldst.c -- the LD/ST unit, L1 data cache and L1 instruction cache of an
 * SM (see ldst.h for the model).
 *
 * Tokens travelling through the memory system say what a reply is for:
 *   TOK_L1D   a line fill for the L1D (the cache returns the waiting loads)
 *   TOK_DIRECT a bypassing load or an atomic: low bits = load-table entry
 *   TOK_L1I   a line fill for the instruction cache (waiting warps)
 *   TOK_STORE a store acknowledgement: low bits = warp slot (membar waits for them; with
 *             l2_sector_writes a store gets one per sector of its segment, memsys_write_acks);
 *             for a DWR large warp, TOK_STORE_MULTI | CTA slot << 24 | CTA warp
 *             index of its first lanes << 8 | mask of the sub-warps it served
 *   TOK_L1T   a line fill for the texture cache (tex, tld4 and suld read through it)
 *   TOK_L1C   a line fill for the constant cache (const_cache: ld.const, ld.param)
 * Local memory is private per thread; its addresses are spread over a
 * per-warp region the way the hardware interleaves them (4-byte words of
 * consecutive lanes adjacent), so same-offset accesses coalesce.
 */
#include <stdlib.h>
#include <string.h>

#include "core/core_counters.h"
#include "core/core_params.h"
#include "core/dwr.h"
#include "core/ldst.h"
#include "core/sm.h"
#include "core/warpstate.h"
#include "core/writeback.h"
#include "func/dmem.h"
#include "mem/cache.h"
#include "mem/ccache.h"
#include "mem/coalesce.h"
#include "mem/l1q.h"
#include "mem/mem_counters.h"
#include "mem/mem_params.h"
#include "mem/memsys.h"
#include "mem/shmem.h"

#define TOK_KIND_SHIFT 60
#define TOK_L1D 1ull
#define TOK_DIRECT 2ull
#define TOK_L1I 3ull
#define TOK_STORE 4ull
#define TOK_L1T 5ull
#define TOK_L1C 6ull
#define TOK(kind, v) (((kind) << TOK_KIND_SHIFT) | (v))
#define TOK_STORE_MULTI (1ull << 59)

#define CODE_BASE 0x00007f0000000000ull   /* instruction memory */
#define LOCAL_BASE 0x00007f8000000000ull  /* per-thread local memory, interleaved */
#define LOCAL_WARP_STRIDE (1ull << 28)    /* bytes of local region per warp slot */

/* A memory instruction waiting for its transactions. */
struct ld_entry {
	bool used;
	struct sm_op op;
	uint32_t outstanding;     /* transactions not yet returned */
	bool all_sent;            /* every transaction has been issued */
	uint64_t ready;           /* latest completion among returned transactions */
};

/* The outcome of one try to send a transaction (send_txn).  A failed try
 * changes nothing but counters, and for the reasons below it fails the same
 * way every cycle until something outside the SM's tick changes: the SM's
 * interconnect input drains (nothing else fills it while the SM does not
 * send), or a reply fills the L1D or L1T (only a reply frees an MSHR, a
 * merge slot or a reserved way while no transaction of the SM gets in) --
 * so an SM whose LD/ST pipelines only retry may sleep (ldst_next_event).
 * A try checks the input before the cache, so a reservation fail repeats
 * only while the input still has room for the request: a send later in the
 * same tick (another pipeline's, or an instruction fetch) may fill it, and
 * the next try then waits for the input instead, counting no reservation
 * fail (ldst_next_event keeps the SM awake for that tick).
 * With l1d_latency_queue the same holds for a due head of the queue
 * (l1q_serve; its outcome kept per bank in ldst.l1q_w): a read or a write
 * that finds the input full, or (input room first) an L1D reservation
 * fail, fails the same way until room or a reply; and a pipeline whose
 * load or store finds its bank full waits for that bank's head to leave,
 * which only a tick of this SM does (a push refused because the bank took
 * one this cycle is a plain retry: it succeeds the next cycle). */
enum txn_wait {
	TXN_SENT,
	TXN_WAIT_INPUT, /* the interconnect input has no room (counted as a memory-stage stall only) */
	TXN_WAIT_L1D,   /* an L1D reservation fail (also l1d_res_fails) */
	TXN_WAIT_L1T,   /* an L1T reservation fail (also tex_res_fails) */
	TXN_WAIT_L1Q,   /* its l1d_latency_queue bank is full (a memory-stage stall only) */
	TXN_RETRY,      /* anything else: retried every cycle, no sleep */
};

/* l1d_latency_queue: how the last try of a bank's head went (l1q_serve) */
struct l1q_wait {
	enum txn_wait wait;       /* TXN_SENT (served, or none tried), TXN_WAIT_INPUT, TXN_WAIT_L1D or TXN_RETRY */
	uint64_t at;              /* the cycle of that try */
	uint64_t in_since;        /* ldst_inject_fair: since when its head waits for the input (UINT64_MAX: it does not) */
	struct mem_req req;       /* the request a failed try would have sent (TXN_WAIT_*) */
};

/* One LD/ST pipeline: the instruction it is working on. */
struct ld_proc {
	bool busy;
	uint32_t entry;           /* ld_entry index */
	uint64_t busy_until;      /* shared-memory conflict cycles etc. */
	struct coal_txn txn[COAL_MAX_TXNS];
	unsigned ntxn, next;
	enum mem_kind kind;       /* of the global/local transactions */
	bool cached;              /* through the L1D (the L1T when tex, the constant cache when cst) */
	bool tex;                 /* texture/surface read: through the texture cache */
	bool critical;            /* CACP: the issue policy called the warp critical when the load started */
	bool cst;                 /* constant/param load: through the constant cache */
	enum txn_wait wait;       /* why its last send_txn failed (TXN_SENT: it did not) */
	struct mem_req wait_req;  /* the request a failed try would have sent (TXN_WAIT_*) */
	uint64_t in_since;        /* ldst_inject_fair: since when its transaction waits for the input (UINT64_MAX: it does not) */
};

/* ldst_inject_fair: a client of the SM's interconnect input -- l1q bank b
 * is client b, LD/ST pipeline i client l1q_nbanks + i -- and the cycle
 * since which it waits for the input */
struct inj_client {
	unsigned id;
	uint64_t *since;
};
#define INJ_NONE UINT32_MAX

struct ldst {
	struct sm *s;
	struct memsys *mem;          /* the memory system below the L1s */
	struct cache *l1d, *l1i, *l1t;
	struct ccache *l1c;          /* NULL unless const_cache: constant loads take lat_const */
	bool const_perfect;          /* const_perfect: ld.const/ld.param take no latency and skip l1c */
	bool l1i_persist;            /* l1i_persist: l1i is kept in the memory system between launches */
	struct l1q *l1q;             /* NULL unless l1d_latency_queue: L1D accesses wait l1d_latency for the tags */
	unsigned l1q_burst;          /* l1q accesses one unit may enter a cycle (l1d_bank_issue: l1d_banks; else 1) */
	struct l1q_wait *l1q_w;      /* [l1q_nbanks] with l1q */
	unsigned l1q_nbanks;
	unsigned l1q_in_waits;       /* the queue heads the last ldst_cycle found the input full for */
	bool inj_fair;               /* ldst_inject_fair */
	unsigned inj_owner;          /* with inj_fair: the client holding the input (INJ_NONE: none) */
	uint64_t inj_since;          /* since when inj_owner waits */
	unsigned l1d_line, l1i_line, l1t_line;
	uint32_t l1d_latency, l1t_latency, lat_shared, lat_const, shmem_banks, shmem_atomic_pass;
	bool bypass;
	bool cacp;                /* the L1D runs CAWA's CACP (l1d_cacp and a policy that predicts criticality) */
	bool fence_invalidate;       /* l1d_fence_invalidate */
	bool volatile_cached;        /* l1d_volatile_cached */
	bool sector_accesses;        /* l1d_sector_accesses */
	bool atomic_sectors;         /* atomic_sector_txns */
	struct ld_proc *proc;
	unsigned nproc;
	struct ld_entry *tab;
	uint32_t ntab, tab_used;
	uint64_t *tab_bits;       /* [ceil(ntab / 64)] entries in use (the lowest free one is taken) */
	uint64_t tokens[256];
	/* the per-cycle counters the last ldst_cycle incremented, which every
	 * tick repeating it would increment again (ldst_skip) */
	uint32_t cyc_stall, cyc_l1d_fail, cyc_l1t_fail;
};

struct ldst *ldst_create(struct sm *s, const struct ws_config *cfg)
{
	struct ldst *u = calloc(1, sizeof *u);
	if (!u)
		return NULL;
	u->s = s;
	u->mem = s->env.mem;
	struct cache_params p;
	cache_params_from_config(cfg, CACHE_STATS_L1D, &p);
	p.cacp_on = p.cacp_on && !p.bypass && s->pol->critical;
	u->cacp = p.cacp_on;
	u->l1d = cache_create(&p, s->stats);
	u->l1d_line = p.line_bytes;
	u->bypass = p.bypass;
	u->fence_invalidate = cfg_int(cfg, CFG_l1d_fence_invalidate) != 0;
	u->volatile_cached = cfg_int(cfg, CFG_l1d_volatile_cached) != 0;
	u->sector_accesses = cfg_int(cfg, CFG_l1d_sector_accesses) != 0;
	u->atomic_sectors = cfg_int(cfg, CFG_atomic_sector_txns) != 0;
	cache_params_from_config(cfg, CACHE_STATS_L1I, &p);
	/* l1i_persist: the L1I this SM had at the end of the last launch of the same code */
	u->l1i_persist = cfg_int(cfg, CFG_l1i_persist) != 0 && !p.perfect;
	if (u->l1i_persist && (u->l1i = memsys_l1i_take(u->mem, s->id, s->env.L->mod)))
		cache_set_stats(u->l1i, s->stats);
	else
		u->l1i = cache_create(&p, s->stats);
	u->l1i_line = p.line_bytes;
	cache_params_from_config(cfg, CACHE_STATS_TEX, &p);
	u->l1t = cache_create(&p, s->stats);
	u->l1t_line = p.line_bytes;
	u->l1t_latency = (uint32_t)cfg_int(cfg, CFG_tex_latency);
	u->l1d_latency = (uint32_t)cfg_int(cfg, CFG_l1d_latency);
	u->lat_shared = (uint32_t)cfg_int(cfg, CFG_lat_shared);
	u->lat_const = (uint32_t)cfg_int(cfg, CFG_lat_const);
	u->const_perfect = cfg_int(cfg, CFG_const_perfect);
	if ((cfg_int(cfg, CFG_const_cache) && !(u->l1c = ccache_create(cfg))) ||
	    (cfg_int(cfg, CFG_l1d_latency_queue) && !u->bypass &&
	     !(u->l1q = l1q_create((unsigned)cfg_int(cfg, CFG_l1d_banks), u->l1d_latency)))) {
		ldst_destroy(u);
		return NULL;
	}
	u->l1q_burst = u->l1q && cfg_int(cfg, CFG_l1d_bank_issue) ? l1q_banks(u->l1q) : 1;
	if (u->l1q && !(u->l1q_w = calloc(u->l1q_nbanks = l1q_banks(u->l1q), sizeof *u->l1q_w))) {
		ldst_destroy(u);
		return NULL;
	}
	u->inj_fair = cfg_int(cfg, CFG_ldst_inject_fair) != 0;
	u->inj_owner = INJ_NONE;
	for (unsigned b = 0; b < u->l1q_nbanks; b++)
		u->l1q_w[b].in_since = UINT64_MAX;
	u->shmem_banks = (uint32_t)cfg_int(cfg, CFG_shmem_banks);
	u->shmem_atomic_pass = (uint32_t)cfg_int(cfg, CFG_shmem_atomic_pass);
	u->nproc = (unsigned)cfg_int(cfg, CFG_num_ldst_units);
	u->proc = calloc(u->nproc, sizeof *u->proc);
	for (unsigned i = 0; u->proc && i < u->nproc; i++)
		u->proc[i].in_since = UINT64_MAX;
	/* at most one entry per in-flight memory instruction: bounded by warps x I-buffer */
	u->ntab = s->nslots * 4 + 16;
	u->tab = calloc(u->ntab, sizeof *u->tab);
	u->tab_bits = calloc((u->ntab + 63) / 64, sizeof *u->tab_bits);
	if (!u->l1d || !u->l1i || !u->l1t || !u->proc || !u->tab || !u->tab_bits) {
		ldst_destroy(u);
		return NULL;
	}
	return u;
}

void ldst_destroy(struct ldst *u)
{
	if (!u)
		return;
	cache_destroy(u->l1d);
	if (u->l1i && u->l1i_persist) { /* kept for the next launch, without its pending fills */
		cache_drop_pending(u->l1i);
		cache_set_stats(u->l1i, NULL);
		if (!memsys_l1i_keep(u->mem, u->s->id, u->s->env.L->mod, u->l1i))
			cache_destroy(u->l1i);
	} else {
		cache_destroy(u->l1i);
	}
	cache_destroy(u->l1t);
	ccache_destroy(u->l1c);
	l1q_destroy(u->l1q);
	free(u->l1q_w);
	free(u->proc);
	free(u->tab);
	free(u->tab_bits);
	free(u);
}

bool ldst_pipe_busy(const struct ldst *u)
{
	for (unsigned i = 0; i < u->nproc; i++)
		if (u->proc[i].busy)
			return true;
	return false;
}

bool ldst_busy(const struct ldst *u) { return u->tab_used || ldst_pipe_busy(u); }

static void entry_done(struct ldst *u, uint32_t e)
{
	struct ld_entry *le = &u->tab[e];
	/* the store/reduction instruction itself is no longer pending (its sent
	 * write transactions stay pending until acknowledged); for every
	 * sub-warp of a DWR large warp */
	enum ptx_opcode op = le->op.d ? (enum ptx_opcode)le->op.d->in->op : OP_COUNT;
	if (op == OP_ST || op == OP_RED || op == OP_WMMA_STORE || op == OP_STMATRIX)
		for (unsigned i = 0; i <= le->op.npart; i++) {
			struct sm_warp *w = &u->s->w[i ? le->op.part_slot[i - 1] : le->op.slot];
			if (w->pending_stores)
				w->pending_stores--;
		}
	sm_writeback_push(u->s, &le->op, le->ready);
	le->used = false;
	u->tab_bits[e >> 6] &= ~(1ull << (e & 63));
	u->tab_used--;
}

static void entry_check(struct ldst *u, uint32_t e)
{
	struct ld_entry *le = &u->tab[e];
	if (le->used && le->all_sent && le->outstanding == 0)
		entry_done(u, e);
}

/* DWR: the local-memory address of lane l of op at offset off.  The
 * sub-warps of a partner group share one region, interleaved as the lanes
 * of one warp of G x warp_size threads, so a large warp's local access
 * coalesces as a fixed warp of that size does. */
static uint64_t dwr_local_addr(const struct ldst *u, const struct sm_op *op, unsigned l, uint64_t off)
{
	const struct sm *s = u->s;
	uint32_t sws = s->ws, G = dwr_group_size(s->dwr);
	uint32_t k0 = op->npart ? op->lane0_warp : s->vw[op->slot].warp_in_cta;
	uint32_t k = k0 + l / sws, lane = l % sws;
	const struct sm_cta *ct = &s->cta[s->w[op->slot].cta_slot];
	uint32_t first = k / G * G;
	uint64_t region = (uint64_t)s->id * s->nslots + ct->slots[first < ct->nwarps ? first : 0];
	uint64_t gl = (uint64_t)(k - first) * sws + lane;
	return LOCAL_BASE + region * LOCAL_WARP_STRIDE + (off / 4) * (G * sws * 4ull) + gl * 4ull + off % 4;
}

/* DWR: the warp slots of the sub-warps whose lanes `lanes` of op are. */
static uint64_t store_token(const struct ldst *u, const struct sm_op *op, uint64_t lanes)
{
	if (!op->npart)
		return TOK(TOK_STORE, op->slot);
	uint32_t sws = u->s->ws, mask = 0;
	for (uint64_t m = lanes; m; m &= m - 1)
		mask |= 1u << ((unsigned)__builtin_ctzll(m) / sws);
	return TOK(TOK_STORE, TOK_STORE_MULTI | (uint64_t)u->s->w[op->slot].cta_slot << 24 |
				      (uint64_t)op->lane0_warp << 8 | mask);
}

/* Apply f to every warp slot a store token names. */
static void store_token_slots(struct ldst *u, uint64_t val, void (*f)(struct ldst *, uint32_t, uint64_t), uint64_t now)
{
	if (!(val & TOK_STORE_MULTI)) {
		if (val < u->s->nslots)
			f(u, (uint32_t)val, now);
		return;
	}
	uint32_t c = (uint32_t)(val >> 24 & 0xffff), k0 = (uint32_t)(val >> 8 & 0xffff), mask = (uint32_t)(val & 0xff);
	if (c >= u->s->nctaslots)
		return;
	const struct sm_cta *ct = &u->s->cta[c];
	for (; mask; mask &= mask - 1) {
		uint32_t k = k0 + (uint32_t)__builtin_ctz(mask);
		if (k < ct->nwarps)
			f(u, ct->slots[k], now);
	}
}

static void store_sent(struct ldst *u, uint32_t slot, uint64_t now)
{
	(void)now;
	u->s->w[slot].pending_stores++;
}

static void store_acked(struct ldst *u, uint32_t slot, uint64_t now)
{
	struct sm_warp *w = &u->s->w[slot];
	if (w->pending_stores) {
		w->pending_stores--;
		sm_warp_mark_dirty(u->s, slot);
		if (w->finished)
			sm_cta_check(u->s, w->cta_slot, now);
	}
}

/* l1d_sector_accesses: each transaction through the L1D becomes one per
 * 32-byte sector it touches, in sector order (GPGPU-Sim's sm_60+
 * coalescer); atomic_sector_txns: so does each atomic's (GPGPU-Sim's
 * 32-byte segments of atom); left as it is when that would pass COAL_MAX_TXNS. */
static void split_sectors(struct ld_proc *p)
{
	unsigned n = 0;
	for (unsigned i = 0; i < p->ntxn; i++)
		n += (unsigned)__builtin_popcount(p->txn[i].sectors);
	if (n == p->ntxn || n > COAL_MAX_TXNS)
		return;
	for (unsigned i = p->ntxn, k = n; i-- > 0;) { /* from the back: in place */
		struct coal_txn t = p->txn[i];
		for (int b = 31; b >= 0; b--)
			if (t.sectors >> b & 1) {
				struct coal_txn *o = &p->txn[--k];
				*o = t;
				o->sectors = 1u << b;
				o->bytes = t.bytes == 32 * (uint32_t)__builtin_popcount(t.sectors) ? 32 : t.bytes;
			}
	}
	p->ntxn = n;
}

bool ldst_accept(struct ldst *u, const struct sm_op *op, uint64_t now)
{
	struct ld_proc *p = NULL;
	for (unsigned i = 0; i < u->nproc; i++)
		if (!u->proc[i].busy) {
			p = &u->proc[i];
			break;
		}
	if (!p)
		return false;
	uint32_t e = u->ntab; /* the lowest free entry */
	for (uint32_t wd = 0, nwd = (u->ntab + 63) / 64; wd < nwd; wd++)
		if (~u->tab_bits[wd]) {
			e = wd * 64 + (uint32_t)__builtin_ctzll(~u->tab_bits[wd]);
			break;
		}
	if (e >= u->ntab)
		return false;
	u->tab_bits[e >> 6] |= 1ull << (e & 63);
	const struct func_step_info *info = op->mem;
	struct ld_entry *le = &u->tab[e];
	*le = (struct ld_entry){.used = true, .op = *op, .ready = now + 1};
	le->op.mem = NULL;
	u->tab_used++;
	p->busy = true;
	p->entry = e;
	p->wait = TXN_RETRY; /* not tried yet: the next cycle sends its first transaction */
	p->busy_until = now + 1;
	p->ntxn = p->next = 0;
	p->critical = false;
	const struct ptx_insn *in = op->d->in;
	/* tensor-core loads/stores name the lanes that supply addresses (mem_lanes) */
	uint64_t exec = info->mem_lanes_set ? info->mem_lanes : info->exec;
	/* a DWR large warp is one access of op->width lanes */
	unsigned ws = op->width ? op->width : u->s->ws, size = info->access_size ? info->access_size : 4;
	/* no memory access: predicated off, or cp.async.commit_group/wait_group/
	 * wait_all and mbarrier.pending_count: one pass through the pipeline */
	if (!exec || (info->space == SPACE_NONE && (in->op == OP_CP || in->op == OP_MBARRIER))) {
		le->all_sent = true;
		return true;
	}
	/* split the lanes by state space (generic accesses may mix spaces); A:
	 * the lanes' addresses in their spaces (read for the lanes of the masks only) */
	uint64_t shared = 0, glob = 0, cst = 0;
	uint64_t addr[64];
	const uint64_t *A = addr;
	if (info->space == SPACE_SHARED) { /* one space for every lane: no per-lane switch */
		shared = exec;
		if (ws < 64 && exec == (1ull << ws) - 1) /* every lane: a loop the compiler can vectorize */
			for (unsigned l = 0; l < ws; l++)
				addr[l] = info->addr[l] >= WS_SHARED_WINDOW ? info->addr[l] - WS_SHARED_WINDOW : info->addr[l];
		else
			for (uint64_t m = exec; m; m &= m - 1) {
				unsigned l = (unsigned)__builtin_ctzll(m);
				uint64_t a = info->addr[l];
				addr[l] = a >= WS_SHARED_WINDOW ? a - WS_SHARED_WINDOW : a;
			}
	} else if (info->space == SPACE_GLOBAL) {
		glob = exec;
		A = info->addr;
	} else if (info->space != SPACE_NONE && info->space != SPACE_LOCAL) { /* const, param: constant cache */
		cst = exec;
		A = info->addr;
	}
	for (uint64_t m = A == addr && !shared ? exec : 0; m; m &= m - 1) {
		unsigned l = (unsigned)__builtin_ctzll(m);
		enum ptx_space sp = (enum ptx_space)(info->space == SPACE_NONE ? info->lane_space[l] : info->space);
		uint64_t a = info->addr[l];
		switch (sp) {
		case SPACE_SHARED:
			shared |= 1ull << l;
			addr[l] = a >= WS_SHARED_WINDOW ? a - WS_SHARED_WINDOW : a;
			break;
		case SPACE_LOCAL: {
			uint64_t off = a >= WS_LOCAL_WINDOW ? a - WS_LOCAL_WINDOW : a;
			uint64_t slot = (uint64_t)u->s->id * u->s->nslots + op->slot;
			if (u->s->dwr) /* DWR: a partner group's sub-warps interleave like one large warp */
				addr[l] = dwr_local_addr(u, op, l, off);
			else
				addr[l] = LOCAL_BASE + slot * LOCAL_WARP_STRIDE + (off / 4) * (ws * 4ull) + l * 4ull +
					  off % 4;
			glob |= 1ull << l;
			break;
		}
		case SPACE_GLOBAL:
			addr[l] = a;
			glob |= 1ull << l;
			break;
		default: /* const, param: constant cache */
			cst |= 1ull << l;
			addr[l] = a;
			break;
		}
	}
	uint64_t ready = now + 1;
	if (shared) {
		unsigned cyc;
		if ((in->op == OP_ATOM || in->op == OP_RED) && u->shmem_atomic_pass) {
			/* read-modify-write: same-word lanes serialize (no broadcast) */
			unsigned passes = shmem_atomic_passes(A, shared, ws, size, u->shmem_banks, 4);
			if (passes < 1)
				passes = 1;
			cyc = passes * u->shmem_atomic_pass;
			u->s->stats->v[STAT_shmem_conflict_cycles] += (passes - 1) * u->shmem_atomic_pass;
		} else {
			cyc = shmem_cycles(A, shared, ws, size, u->shmem_banks, 4);
			if (cyc < 1)
				cyc = 1;
			u->s->stats->v[STAT_shmem_conflict_cycles] += cyc - 1;
		}
		p->busy_until = now + cyc;
		ready = now + u->lat_shared + cyc - 1;
	}
	le->ready = ready;
	p->tex = p->cst = false;
	bool const_only = cst && !shared && !glob && (info->space == SPACE_CONST || info->space == SPACE_PARAM);
	if (const_only && u->const_perfect) { /* GPGPU-Sim's perfect constant cache: done when the unit takes it */
		le->all_sent = true;
		return true;
	}
	if (const_only && u->l1c) {
		/* through the constant cache: one access per distinct line, like a cached load */
		p->cst = true;
		p->kind = MEM_READ;
		p->cached = true;
		p->ntxn = ccache_split(u->l1c, info->space == SPACE_PARAM, A, cst, ws, size, p->txn);
		return true;
	}
	if (cst && le->ready < now + u->lat_const) /* a fixed latency (or lanes of a generic access) */
		le->ready = now + u->lat_const;
	if (glob) {
		bool atomic = in->op == OP_ATOM || in->op == OP_RED;
		bool store = in->op == OP_ST || in->op == OP_WMMA_STORE || in->op == OP_STMATRIX || in->op == OP_SUST;
		p->tex = in->op == OP_TEX || in->op == OP_TLD4 || in->op == OP_SULD;
		enum coal_kind ck;
		if (p->tex) {
			p->kind = MEM_READ;
			p->cached = true;
			p->ntxn = coal_warp(A, glob, ws, size, COAL_LOAD_CACHED, u->l1t_line, p->txn);
			return true;
		}
		if (atomic) {
			ck = COAL_ATOMIC;
			p->kind = MEM_ATOMIC;
			p->cached = false;
		} else if (store) {
			ck = COAL_STORE;
			p->kind = MEM_WRITE;
			p->cached = true; /* write-evict in the L1D, then to L2 */
		} else {
			bool uncached = u->bypass || ((in->flags & FLAG_VOLATILE) && !u->volatile_cached);
			ck = uncached ? COAL_LOAD_UNCACHED : COAL_LOAD_CACHED;
			p->kind = MEM_READ;
			p->cached = !uncached;
			if (u->cacp && p->cached) { /* the warp's criticality, as the policy sees it now */
				struct sched_view v = u->s->view;
				v.cycle = now;
				p->critical = u->s->pol->critical(u->s->pol_st, &v, op->slot);
			}
		}
		p->ntxn = coal_warp(A, glob, ws, size, ck, u->l1d_line, p->txn);
		if ((u->sector_accesses && p->cached) || (u->atomic_sectors && atomic))
			split_sectors(p);
		return true;
	}
	le->all_sent = true;
	return true;
}

/* send_txn (or a queue head) could not send r: why (TXN_WAIT_*), with r
 * kept in *keep for ldst_next_event and ldst_input_ready. */
static enum txn_wait wait_for(struct mem_req *keep, const struct mem_req *r, enum txn_wait why)
{
	*keep = *r;
	return why;
}

/* May client c send r into the SM's interconnect input now?  Without
 * ldst_inject_fair: when it has room.  With it, only the client holding
 * the input (or any, when none holds it) may take room; a client that
 * may not, or finds too little room, waits, and takes the hold when it
 * has waited longer than the holder (or none holds it), so the oldest
 * waiter enters next however small the others' packets. */
static bool input_room(struct ldst *u, const struct inj_client *c, const struct mem_req *r, uint64_t now)
{
	bool room = memsys_can_accept(u->mem, u->s->id, r);
	if (!u->inj_fair)
		return room;
	if (room && (u->inj_owner == INJ_NONE || u->inj_owner == c->id)) {
		u->inj_owner = INJ_NONE;
		*c->since = UINT64_MAX;
		return true;
	}
	if (*c->since == UINT64_MAX)
		*c->since = now;
	if (u->inj_owner == INJ_NONE || *c->since < u->inj_since) {
		u->inj_owner = c->id;
		u->inj_since = *c->since;
	}
	return false;
}

static struct inj_client proc_client(struct ldst *u, struct ld_proc *p)
{
	return (struct inj_client){.id = u->l1q_nbanks + (unsigned)(p - u->proc), .since = &p->in_since};
}

/* A store's write r through the L1D (write-evict) and on to the L2, its
 * interconnect input room checked: TXN_SENT, or why it must retry (the
 * request kept in *keep: a pipeline's, or a queue head's). */
static enum txn_wait l1d_write(struct ldst *u, struct mem_req *keep, struct ld_entry *le, const struct mem_req *r,
			       uint64_t now)
{
	struct cache_result cr = cache_access(u->l1d, r->addr, r->sectors, MEM_WRITE, 0);
	if (cr.status == CACHE_RESERVATION_FAIL)
		return wait_for(keep, r, TXN_WAIT_L1D);
	if (!memsys_send(u->mem, u->s->id, r))
		return TXN_RETRY;
	u->s->stats->v[STAT_offchip_requests]++;
	if (le->ready < now + 1)
		le->ready = now + 1;
	return TXN_SENT;
}

/* A cached load's access of `line` (the texture cache for texture/surface
 * reads when p->tex, the constant cache for constant loads when p->cst)
 * for load-table entry e.  p is NULL for an L1D access at the head of the
 * l1d_latency_queue: it waited its hit latency there.  A failed try's
 * request is kept in *keep (p->wait_req, or the queue head's).  waited:
 * the cycles it spent in that queue (mem_req.waited, statistics only), 0
 * otherwise. */
static enum txn_wait cached_read(struct ldst *u, struct ld_proc *p, const struct inj_client *ic, struct mem_req *keep,
				 uint32_t e, uint64_t line, uint32_t sectors, bool critical, uint64_t waited, uint64_t now)
{
	struct ld_entry *le = &u->tab[e];
	struct memsys *ms = u->mem;
	unsigned sm = u->s->id;
	bool tex = p && p->tex, cst = p && p->cst;
	struct cache *c = tex ? u->l1t : u->l1d;
	uint32_t hit_lat = !p ? 0 : cst ? u->lat_const : tex ? u->l1t_latency : u->l1d_latency;
	struct mem_req r = {.addr = line, .token = TOK(cst ? TOK_L1C : tex ? TOK_L1T : TOK_L1D, 0),
			    .sectors = sectors, .kind = MEM_READ, .fill = true, .waited = waited};
	if (!input_room(u, ic, &r, now))
		return wait_for(keep, &r, TXN_WAIT_INPUT);
	struct cacp_access ca = {.pc = le->op.d->addr, .critical = critical};
	struct cache_result cr = cst               ? ccache_access(u->l1c, line, e, now)
	                         : u->cacp && !tex ? cache_access_cacp(c, line, sectors, e, &ca)
	                                           : cache_access(c, line, sectors, MEM_READ, e);
	switch (cr.status) {
	case CACHE_HIT:
		if (le->ready < now + hit_lat)
			le->ready = now + hit_lat;
		return TXN_SENT;
	case CACHE_HIT_RESERVED:
		le->outstanding++;
		return TXN_SENT;
	case CACHE_MISS:
		le->outstanding++;
		if (cr.fetch_mask) { /* new MSHR: fetch the missing sectors into the L1D */
			r.sectors = cr.fetch_mask;
			memsys_send(ms, sm, &r);
			u->s->stats->v[STAT_offchip_requests] += !tex && !cst;
		} else if (cr.forward) { /* not cached (bypass): the reply completes this load directly */
			r.token = TOK(TOK_DIRECT, e);
			r.fill = false;
			memsys_send(ms, sm, &r);
			u->s->stats->v[STAT_offchip_requests] += !tex;
		}
		return TXN_SENT;
	case CACHE_RESERVATION_FAIL:
		/* retried awake: the constant cache (its port frees the next cycle, without a reply)
		 * and CACP (it may count or learn from a failed access) */
		if (cst || (u->cacp && !tex))
			return TXN_RETRY;
		return wait_for(keep, &r, tex ? TXN_WAIT_L1T : TXN_WAIT_L1D);
	default:
		return TXN_RETRY;
	}
}

/* Issue one global/local transaction of processor p: TXN_SENT, or why it must retry. */
static enum txn_wait send_txn(struct ldst *u, struct ld_proc *p, uint64_t now)
{
	struct ld_entry *le = &u->tab[p->entry];
	const struct coal_txn *t = &p->txn[p->next];
	struct memsys *ms = u->mem;
	unsigned sm = u->s->id;
	if (p->kind == MEM_ATOMIC || (p->kind == MEM_READ && !p->cached)) {
		struct mem_req r = {.addr = t->line, .token = TOK(TOK_DIRECT, p->entry), .sectors = t->sectors,
				    .bytes = p->kind == MEM_ATOMIC ? t->bytes : 0, .kind = p->kind};
		struct inj_client c = proc_client(u, p);
		if (!input_room(u, &c, &r, now))
			return wait_for(&p->wait_req, &r, TXN_WAIT_INPUT);
		if (!memsys_send(ms, sm, &r))
			return TXN_RETRY;
		le->outstanding++;
		u->s->stats->v[STAT_offchip_requests] += p->kind != MEM_ATOMIC;
		return TXN_SENT;
	}
	if (p->kind == MEM_WRITE) {
		uint64_t tok = store_token(u, &le->op, t->lanes);
		struct mem_req r = {.addr = t->line, .token = tok, .sectors = t->sectors, .bytes = t->bytes,
				    .kind = MEM_WRITE};
		if (u->l1q) { /* the write reaches the L1D (and leaves for the L2) l1d_latency cycles later */
			struct l1q_entry qe = {.line = t->line, .token = tok, .sectors = t->sectors, .entry = p->entry,
					       .bytes = t->bytes, .kind = MEM_WRITE};
			if (!l1q_push(u->l1q, &qe, now))
				return l1q_bank_full(u->l1q, &qe) ? TXN_WAIT_L1Q : TXN_RETRY;
			le->outstanding++;
		} else {
			struct inj_client c = proc_client(u, p);
			if (!input_room(u, &c, &r, now))
				return wait_for(&p->wait_req, &r, TXN_WAIT_INPUT);
			enum txn_wait w = l1d_write(u, &p->wait_req, le, &r, now);
			if (w != TXN_SENT)
				return w;
		}
		for (unsigned k = memsys_write_acks(ms, &r); k > 0; k--) /* l2_sector_writes: one per sector */
			store_token_slots(u, tok & ((1ull << TOK_KIND_SHIFT) - 1), store_sent, now);
		return TXN_SENT;
	}
	if (u->l1q && !p->tex && !p->cst) { /* the load reaches the L1D's tags l1d_latency cycles later */
		struct l1q_entry qe = {
			.line = t->line, .sectors = t->sectors, .entry = p->entry, .kind = MEM_READ, .critical = p->critical};
		if (!l1q_push(u->l1q, &qe, now))
			return l1q_bank_full(u->l1q, &qe) ? TXN_WAIT_L1Q : TXN_RETRY;
		le->outstanding++;
		return TXN_SENT;
	}
	struct inj_client c = proc_client(u, p);
	return cached_read(u, p, &c, &p->wait_req, p->entry, t->line, t->sectors, p->critical, 0, now);
}

/* Do processor p's transactions enter the l1d_latency_queue (send_txn's queued paths)? */
static bool txn_queued(const struct ldst *u, const struct ld_proc *p)
{
	return u->l1q && (p->kind == MEM_WRITE || (p->kind == MEM_READ && p->cached && !p->tex && !p->cst));
}

/* l1d_latency_queue: each bank's head that has waited l1d_latency cycles
 * reaches the L1D (one a cycle per bank); one that cannot (a reservation
 * fail, a full interconnect input) stays and holds the bank's queue, why
 * kept in l1q_w[bank] (enum txn_wait). */
static void l1q_serve(struct ldst *u, uint64_t now)
{
	for (unsigned b = 0; b < u->l1q_nbanks; b++) {
		const struct l1q_entry *qe = l1q_head(u->l1q, b, now);
		if (!qe)
			continue;
		struct ld_entry *le = &u->tab[qe->entry];
		struct l1q_wait *qw = &u->l1q_w[b];
		struct inj_client c = {.id = b, .since = &qw->in_since};
		enum txn_wait w;
		if (qe->kind == MEM_WRITE) {
			struct mem_req r = {.addr = qe->line, .token = qe->token, .sectors = qe->sectors,
					    .bytes = qe->bytes, .kind = MEM_WRITE, .waited = now - qe->enter};
			w = input_room(u, &c, &r, now) ? l1d_write(u, &qw->req, le, &r, now)
						       : wait_for(&qw->req, &r, TXN_WAIT_INPUT);
		} else {
			w = cached_read(u, NULL, &c, &qw->req, qe->entry, qe->line, qe->sectors, qe->critical,
					now - qe->enter, now);
		}
		qw->wait = w;
		qw->at = now;
		u->cyc_l1d_fail += w == TXN_WAIT_L1D;
		u->l1q_in_waits += w == TXN_WAIT_INPUT;
		if (w != TXN_SENT)
			continue;
		uint32_t e = qe->entry;
		l1q_pop(u->l1q, b);
		le->outstanding--;
		u->s->progress = true;
		entry_check(u, e);
	}
}

void ldst_cycle(struct ldst *u, uint64_t now)
{
	u->cyc_stall = u->cyc_l1d_fail = u->cyc_l1t_fail = 0;
	u->l1q_in_waits = 0;
	if (u->l1q && !l1q_empty(u->l1q))
		l1q_serve(u, now);
	for (unsigned i = 0; i < u->nproc; i++) {
		struct ld_proc *p = &u->proc[i];
		if (!p->busy)
			continue;
		p->wait = TXN_SENT;
		if (p->next < p->ntxn) {
			/* l1d_bank_issue: more accesses into the l1d_latency_queue this cycle, one per
			 * bank, until one finds its bank taken (GPGPU-Sim's bank conflict) */
			unsigned burst = txn_queued(u, p) ? u->l1q_burst : 1;
			for (unsigned k = 0; k < burst && p->next < p->ntxn; k++) {
				p->wait = send_txn(u, p, now);
				if (p->wait != TXN_SENT)
					break;
				p->next++;
				u->s->progress = true;
			}
			u->cyc_l1d_fail += p->wait == TXN_WAIT_L1D;
			u->cyc_l1t_fail += p->wait == TXN_WAIT_L1T;
		}
		/* still working: a memory-stage stall (GPGPU-Sim's gpgpu_n_stall_shd_mem): transactions left
		 * after this cycle's sends, or a shared access's conflict passes, a stall in each cycle before
		 * busy_until as GPGPU-Sim's dispatch_delay counts c - 1 for a c-way conflict */
		if (p->next < p->ntxn || now < p->busy_until) {
			u->s->stats->v[STAT_ldst_stall_cycles]++;
			u->cyc_stall++;
		}
		/* busy during [accept, busy_until): the next instruction is accepted at busy_until */
		if (p->next >= p->ntxn && now >= p->busy_until) {
			struct ld_entry *le = &u->tab[p->entry];
			le->all_sent = true;
			p->busy = false;
			entry_check(u, p->entry);
		}
	}
}

static const char *txn_wait_name(enum txn_wait w)
{
	switch (w) {
	case TXN_SENT: return "sent";
	case TXN_WAIT_INPUT: return "interconnect input full";
	case TXN_WAIT_L1D: return "L1D reservation fail";
	case TXN_WAIT_L1T: return "L1T reservation fail";
	case TXN_WAIT_L1Q: return "L1D latency queue bank full";
	case TXN_RETRY: return "retry";
	}
	return "?";
}

/* " (a store of 5 flits)": what a try refused by the input would have sent */
static void input_need(const struct ldst *u, enum txn_wait w, const struct mem_req *r, char *b, size_t n)
{
	static const char *const kind[] = {"read", "store", "atomic", "fetch"};
	_Static_assert(sizeof kind / sizeof *kind == MEM_KIND_COUNT, "a name per enum mem_kind");
	b[0] = 0;
	if (w == TXN_WAIT_INPUT && (unsigned)r->kind < MEM_KIND_COUNT)
		snprintf(b, n, " (%s %s of %u flits)", r->kind == MEM_ATOMIC ? "an" : "a", kind[r->kind],
			 memsys_req_flits(u->mem, u->s->id, r));
}

void ldst_describe(const struct ldst *u, char *buf, size_t bufsz, size_t *len)
{
	if (*len + 200 >= bufsz)
		return;
	*len += (size_t)snprintf(buf + *len, bufsz - *len, "\n    LD/ST: %u of %u load-table entries used",
				 u->tab_used, u->ntab);
	char need[64];
	bool input = false;
	for (unsigned i = 0; i < u->nproc && *len + 200 < bufsz; i++) {
		const struct ld_proc *p = &u->proc[i];
		if (!p->busy)
			continue;
		input |= p->next < p->ntxn && p->wait == TXN_WAIT_INPUT;
		input_need(u, p->next < p->ntxn ? p->wait : TXN_SENT, &p->wait_req, need, sizeof need);
		*len += (size_t)snprintf(buf + *len, bufsz - *len,
					 "; pipeline %u: slot %u, %u of %u transactions sent, last try: %s%s", i,
					 u->tab[p->entry].op.slot, p->next, p->ntxn, txn_wait_name(p->wait), need);
	}
	if (u->inj_fair && u->inj_owner != INJ_NONE && *len + 100 < bufsz) {
		if (u->inj_owner < u->l1q_nbanks)
			*len += (size_t)snprintf(buf + *len, bufsz - *len, "; input held by L1D queue bank %u since cycle %llu",
						 u->inj_owner, (unsigned long long)u->inj_since);
		else
			*len += (size_t)snprintf(buf + *len, bufsz - *len, "; input held by pipeline %u since cycle %llu",
						 u->inj_owner - u->l1q_nbanks, (unsigned long long)u->inj_since);
	}
	if (u->l1q && *len + 120 < bufsz) {
		*len += (size_t)snprintf(buf + *len, bufsz - *len, "; L1D latency queue %s",
					 l1q_empty(u->l1q) ? "empty" : "holding accesses");
		for (unsigned b = 0; b < u->l1q_nbanks && *len + 140 < bufsz; b++)
			if (u->l1q_w[b].wait != TXN_SENT) {
				input |= u->l1q_w[b].wait == TXN_WAIT_INPUT;
				input_need(u, u->l1q_w[b].wait, &u->l1q_w[b].req, need, sizeof need);
				*len += (size_t)snprintf(buf + *len, bufsz - *len, " (bank %u head: %s%s at cycle %llu)", b,
							 txn_wait_name(u->l1q_w[b].wait), need,
							 (unsigned long long)u->l1q_w[b].at);
			}
	}
	if (input && *len + 80 < bufsz) {
		char occ[64];
		memsys_describe_input(u->mem, u->s->id, occ, sizeof occ);
		*len += (size_t)snprintf(buf + *len, bufsz - *len, "; interconnect input: %s", occ);
	}
}

uint64_t ldst_next_event(const struct ldst *u, uint64_t now)
{
	uint64_t t = u->l1q ? l1q_next_due(u->l1q) : UINT64_MAX; /* a queued L1D access reaching the tags */
	if (t == now + 1)
		return now + 1;
	if (t <= now) { /* a head this tick could not serve: the next due among the others */
		t = UINT64_MAX;
		for (unsigned b = 0; b < u->l1q_nbanks; b++) {
			uint64_t due = l1q_head_due(u->l1q, b);
			if (due > now) {
				if (due <= now + 1)
					return now + 1;
				t = due < t ? due : t;
				continue;
			}
			/* it fails the same way until a reply (any wakes the SM) or room
			 * in the input (sm_input_wake) */
			const struct l1q_wait *qw = &u->l1q_w[b];
			if (qw->at != now || (qw->wait != TXN_WAIT_INPUT && qw->wait != TXN_WAIT_L1D))
				return now + 1;
			/* a reservation fail repeats while the input keeps room for its request (enum txn_wait) */
			if (qw->wait == TXN_WAIT_L1D && !memsys_can_accept(u->mem, u->s->id, &qw->req))
				return now + 1;
		}
	}
	for (unsigned i = 0; i < u->nproc; i++) {
		const struct ld_proc *p = &u->proc[i];
		if (!p->busy)
			continue;
		if (p->wait == TXN_RETRY) /* accepted after the last ldst_cycle, or a failed send to retry */
			return now + 1;
		/* a reservation fail repeats while the input keeps room for its request (enum txn_wait) */
		if ((p->wait == TXN_WAIT_L1D || p->wait == TXN_WAIT_L1T) &&
		    !memsys_can_accept(u->mem, u->s->id, &p->wait_req))
			return now + 1;
		if (p->next >= p->ntxn) {
			/* all sent: it stalls while now < busy_until; the tick at
			 * busy_until frees it */
			if (p->busy_until < t)
				t = p->busy_until;
		} else if (p->wait == TXN_SENT) {
			return now + 1;
		}
	}
	/* a free pipeline accepts an instruction only from a collector, which
	 * sm_next_event checks (ldst_can_accept) */
	return t;
}

bool ldst_waits_input(const struct ldst *u)
{
	for (unsigned i = 0; i < u->nproc; i++)
		if (u->proc[i].busy && u->proc[i].next < u->proc[i].ntxn && u->proc[i].wait == TXN_WAIT_INPUT)
			return true;
	return u->l1q_in_waits > 0;
}

bool ldst_input_ready(const struct ldst *u)
{
	/* ldst_inject_fair: while a client holds the input, only it may enter */
	unsigned only = u->inj_fair ? u->inj_owner : INJ_NONE;
	for (unsigned i = 0; i < u->nproc; i++) {
		const struct ld_proc *p = &u->proc[i];
		if (p->busy && p->next < p->ntxn && p->wait == TXN_WAIT_INPUT &&
		    (only == INJ_NONE || only == u->l1q_nbanks + i) && memsys_can_accept(u->mem, u->s->id, &p->wait_req))
			return true;
	}
	/* the queue heads the last tick found the input full for (a sleeping
	 * SM's: nothing served them since) */
	for (unsigned b = 0; u->l1q_in_waits && b < u->l1q_nbanks; b++)
		if (u->l1q_w[b].wait == TXN_WAIT_INPUT && (only == INJ_NONE || only == b) &&
		    memsys_can_accept(u->mem, u->s->id, &u->l1q_w[b].req))
			return true;
	return false;
}

bool ldst_can_accept(const struct ldst *u)
{
	if (u->tab_used >= u->ntab)
		return false;
	for (unsigned i = 0; i < u->nproc; i++)
		if (!u->proc[i].busy)
			return true;
	return false;
}

void ldst_skip(struct ldst *u, uint64_t k)
{
	struct ws_stats *st = u->s->stats;
	st->v[STAT_ldst_stall_cycles] += k * u->cyc_stall;
	st->v[STAT_l1d_res_fails] += k * u->cyc_l1d_fail;
	st->v[STAT_tex_res_fails] += k * u->cyc_l1t_fail;
}

void ldst_reply(struct ldst *u, const struct mem_reply *r, uint64_t now)
{
	uint64_t kind = r->token >> TOK_KIND_SHIFT;
	uint64_t val = r->token & ((1ull << TOK_KIND_SHIFT) - 1);
	switch (kind) {
	case TOK_L1D:
	case TOK_L1T:
	case TOK_L1C: {
		unsigned n = kind == TOK_L1C ? ccache_fill(u->l1c, r->addr, r->sectors, u->tokens, 256)
					     : cache_fill(kind == TOK_L1T ? u->l1t : u->l1d, r->addr, r->sectors,
							  u->tokens, 256);
		for (unsigned k = 0; k < n; k++) {
			uint32_t e = (uint32_t)u->tokens[k];
			if (e >= u->ntab || !u->tab[e].used)
				continue;
			struct ld_entry *le = &u->tab[e];
			le->outstanding--;
			if (le->ready < now + 1)
				le->ready = now + 1;
			entry_check(u, e);
		}
		break;
	}
	case TOK_DIRECT: {
		uint32_t e = (uint32_t)val;
		if (e < u->ntab && u->tab[e].used) {
			struct ld_entry *le = &u->tab[e];
			le->outstanding--;
			if (le->ready < now + 1)
				le->ready = now + 1;
			entry_check(u, e);
		}
		break;
	}
	case TOK_L1I: {
		unsigned n = cache_fill(u->l1i, r->addr, r->sectors, u->tokens, 256);
		for (unsigned k = 0; k < n; k++)
			sm_ifetch_done(u->s, (uint32_t)u->tokens[k]);
		break;
	}
	case TOK_STORE:
		store_token_slots(u, val, store_acked, now);
		break;
	default:
		break;
	}
}

void ldst_fence(struct ldst *u)
{
	if (u->fence_invalidate)
		cache_invalidate(u->l1d);
}

enum ifetch_result ldst_ifetch(struct ldst *u, uint32_t slot, uint64_t addr, uint64_t now)
{
	uint64_t a = CODE_BASE + addr;
	uint64_t line = a & ~(uint64_t)(u->l1i_line - 1);
	uint32_t sector = 1u << ((a - line) / MEM_SECTOR_BYTES);
	struct mem_req r = {.addr = line, .token = TOK(TOK_L1I, 0), .sectors = sector, .kind = MEM_IFETCH, .fill = true};
	if (!cache_probe(u->l1i, line, sector) && !memsys_can_accept(u->mem, u->s->id, &r))
		return IFETCH_RETRY;
	struct cache_result cr = cache_access(u->l1i, line, sector, MEM_READ, slot);
	switch (cr.status) {
	case CACHE_HIT:
		return IFETCH_HIT;
	case CACHE_HIT_RESERVED:
		return IFETCH_PENDING;
	case CACHE_MISS:
		if (cr.fetch_mask || cr.forward) {
			r.sectors = cr.fetch_mask ? cr.fetch_mask : sector;
			memsys_send(u->mem, u->s->id, &r);
		}
		return IFETCH_PENDING;
	default:
		return IFETCH_RETRY;
	}
}
