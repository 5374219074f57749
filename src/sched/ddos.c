/*
 * ddos.c -- Dynamic Detection Of Spinning (BOWS paper Sec. IV): per-warp
 * path/value history registers, repetition detection, and the per-SM
 * spin-inducing-branch prediction table.  See ddos.h and docs/bows.md.
 */
#include "sched/ddos.h"
#include "sched/sched_params.h"

#include <stdlib.h>

#include "sched/sched_util.h"

/* unsized, so that a table of the wrong length conflicts with ddos.h's declaration */
const struct sched_counter ddos_counters[] = {DDOS_COUNTER_INITS("")};

struct hist {
	uint64_t age; /* warp whose history this is (per-warp mode) */
	bool used;
	uint32_t n, head; /* valid entries (<= l); ring index of the newest */
	uint32_t mp, rem; /* match pointer (0: none), remaining matches */
	bool spinning;
};

struct sibpt_entry {
	int32_t fn, pc;
	uint32_t conf;
	uint64_t stamp; /* insertion order, for replacement */
	bool valid;
};

struct branch_rec { /* measurement only */
	int32_t fn, pc;
	bool annotated, detected;
	int sib; /* index in the annotation list, -1 if not annotated */
	uint64_t first, last, detected_at;
};

struct ddos {
	struct ddos_params p;
	uint32_t nslots, nsets;
	struct hist *h; /* [nsets] */
	uint32_t *path; /* [nsets][l] */
	uint32_t *val;  /* [nsets][l][2] */
	uint32_t owner; /* time-sharing: slot holding the register set (SCHED_NONE: none yet) */
	uint64_t owner_age, epoch;
	struct sibpt_entry *pt; /* [entries] */
	uint64_t stamp;
	const struct sched_sib *sibs;
	uint32_t nsibs;
	struct branch_rec *br;
	uint32_t nbr, capbr;
	uint64_t *ctr;
	/* per-SIB diagnostics (measurement only) */
	uint64_t *diag_age;  /* [nslots] warp the two arrays below belong to */
	uint32_t *setps;     /* [nslots] setps the warp executed */
	uint32_t *sib_setps; /* [nslots][DDOS_SIB_DIAG] setps + 1 at its last execution of SIB k (0: none) */
};

_Static_assert(DDOS_NCOUNTERS == DDOS_C_SIB_DIAG + DDOS_SIB_DIAG * DDOS_SIB_NDIAG, "DDOS per-SIB counters");

struct ddos_params ddos_params_from(const struct ws_config *cfg)
{
	struct ddos_params p = {
	    .xor_hash = sched_cfg_int(cfg, CFG_ddos_hash) == 0,
	    .width = (uint32_t)sched_cfg_int(cfg, CFG_ddos_width),
	    .history = (uint32_t)sched_cfg_int(cfg, CFG_ddos_history),
	    .threshold = (uint32_t)sched_cfg_int(cfg, CFG_ddos_threshold),
	    .entries = (uint32_t)sched_cfg_int(cfg, CFG_ddos_sibpt_entries),
	    .share = sched_cfg_int(cfg, CFG_ddos_share) ? (uint64_t)sched_cfg_int(cfg, CFG_ddos_share_interval) : 0,
	};
	return p;
}

bool sched_sib_listed(const struct sched_sib *sibs, uint32_t n, int32_t fn, int32_t pc)
{
	uint32_t lo = 0, hi = n;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		const struct sched_sib *s = &sibs[mid];
		if (s->fn == fn && s->pc == pc)
			return true;
		if (s->fn < fn || (s->fn == fn && s->pc < pc))
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

uint32_t ddos_hash(const struct ddos_params *p, uint64_t x)
{
	uint32_t w = p->width ? p->width : 1;
	uint64_t mask = w >= 32 ? 0xffffffffu : ((uint64_t)1 << w) - 1;
	if (!p->xor_hash)
		return (uint32_t)(x & mask);
	uint64_t h = 0;
	for (uint32_t i = 0; i < 64; i += w)
		h ^= (x >> i) & mask;
	return (uint32_t)h;
}

void ddos_destroy(struct ddos *d)
{
	if (!d)
		return;
	free(d->h);
	free(d->path);
	free(d->val);
	free(d->pt);
	free(d->br);
	free(d->diag_age);
	free(d->setps);
	free(d->sib_setps);
	free(d);
}

struct ddos *ddos_create(const struct ddos_params *p, uint32_t nslots, const struct sched_sib *sibs, uint32_t nsibs,
                         uint64_t *ctr)
{
	struct ddos *d = calloc(1, sizeof *d);
	if (!d)
		return NULL;
	d->p = *p;
	if (d->p.history == 0)
		d->p.history = 1;
	if (d->p.entries == 0)
		d->p.entries = 1;
	if (d->p.threshold == 0)
		d->p.threshold = 1;
	d->nslots = nslots;
	d->nsets = p->share ? 1 : (nslots ? nslots : 1);
	d->sibs = sibs;
	d->nsibs = nsibs;
	d->ctr = ctr;
	size_t l = d->p.history;
	d->h = calloc(d->nsets, sizeof *d->h);
	d->path = calloc(d->nsets * l, sizeof *d->path);
	d->val = calloc(d->nsets * l * 2, sizeof *d->val);
	d->pt = calloc(d->p.entries, sizeof *d->pt);
	size_t ns = nslots ? nslots : 1;
	d->diag_age = calloc(ns, sizeof *d->diag_age);
	d->setps = calloc(ns, sizeof *d->setps);
	d->sib_setps = calloc(ns * DDOS_SIB_DIAG, sizeof *d->sib_setps);
	if (!d->h || !d->path || !d->val || !d->pt || !d->diag_age || !d->setps || !d->sib_setps) {
		ddos_destroy(d);
		return NULL;
	}
	ddos_reset(d);
	return d;
}

void ddos_reset(struct ddos *d)
{
	for (uint32_t i = 0; i < d->nsets; i++)
		d->h[i] = (struct hist){0};
	for (uint32_t i = 0; i < d->p.entries; i++)
		d->pt[i] = (struct sibpt_entry){0};
	d->owner = SCHED_NONE;
	d->owner_age = 0;
	d->epoch = UINT64_MAX;
	d->stamp = 0;
	d->nbr = 0;
	for (uint32_t i = 0; i < (d->nslots ? d->nslots : 1); i++)
		d->diag_age[i] = UINT64_MAX;
}

/* Index of (fn, pc) in the annotation list, or -1. */
static int sib_index(const struct ddos *d, int32_t fn, int32_t pc)
{
	for (uint32_t i = 0; i < d->nsibs; i++)
		if (d->sibs[i].fn == fn && d->sibs[i].pc == pc)
			return (int)i;
	return -1;
}

/* The per-SIB diagnostic arrays of warp `slot`, reset when a new warp takes the slot. */
static bool diag_slot(struct ddos *d, const struct sched_view *v, uint32_t slot)
{
	if (slot >= d->nslots || slot >= v->nslots)
		return false;
	if (d->diag_age[slot] != v->warps[slot].age) {
		d->diag_age[slot] = v->warps[slot].age;
		d->setps[slot] = 0;
		for (uint32_t k = 0; k < DDOS_SIB_DIAG; k++)
			d->sib_setps[slot * DDOS_SIB_DIAG + k] = 0;
	}
	return true;
}

static void hist_clear(struct hist *h, uint64_t age)
{
	*h = (struct hist){.age = age, .used = true};
}

/* Time sharing: every `share` cycles the register set passes to the next
 * valid unfinished warp in slot order, with cleared histories. */
void ddos_on_cycle(struct ddos *d, const struct sched_view *v)
{
	if (!d->p.share)
		return;
	uint64_t ep = v->cycle / d->p.share;
	bool owner_gone =
	    d->owner != SCHED_NONE && (d->owner >= v->nslots || !v->warps[d->owner].valid ||
	                               v->warps[d->owner].finished || v->warps[d->owner].age != d->owner_age);
	if (ep == d->epoch && !owner_gone && d->owner != SCHED_NONE)
		return;
	d->epoch = ep;
	uint32_t n = v->nslots < d->nslots ? v->nslots : d->nslots;
	if (n == 0)
		return;
	uint32_t start = d->owner == SCHED_NONE ? n - 1 : d->owner;
	d->owner = SCHED_NONE;
	for (uint32_t i = 1; i <= n; i++) {
		uint32_t s = (start + i) % n;
		if (v->warps[s].valid && !v->warps[s].finished) {
			d->owner = s;
			d->owner_age = v->warps[s].age;
			break;
		}
	}
	hist_clear(&d->h[0], d->owner_age);
}

uint64_t ddos_next_event(const struct ddos *d, uint64_t now)
{
	return d->p.share ? (now / d->p.share + 1) * d->p.share : UINT64_MAX;
}

/* The register set of warp `slot`, or NULL when it holds none (time sharing). */
static struct hist *set_of(struct ddos *d, const struct sched_view *v, uint32_t slot, uint32_t *idx)
{
	if (slot >= d->nslots || slot >= v->nslots)
		return NULL;
	uint64_t age = v->warps[slot].age;
	if (d->p.share) {
		if (slot != d->owner || age != d->owner_age)
			return NULL;
		*idx = 0;
		return &d->h[0];
	}
	struct hist *h = &d->h[slot];
	if (!h->used || h->age != age)
		hist_clear(h, age);
	*idx = slot;
	return h;
}

/* Insert one setp's hashed pc and values; run the repetition detector. */
static void hist_insert(struct ddos *d, struct hist *h, uint32_t idx, uint32_t pth, uint32_t v0, uint32_t v1)
{
	uint32_t l = d->p.history;
	uint32_t *P = d->path + (size_t)idx * l;
	uint32_t *V = d->val + (size_t)idx * l * 2;
	/* entry k back (k = 0: newest) */
#define AT(k) ((h->head + l - (k)) % l)
	if (h->mp) {
		uint32_t e = AT(h->mp - 1);
		if (P[e] == pth && V[2 * e] == v0 && V[2 * e + 1] == v1) {
			if (h->rem)
				h->rem--;
			if (h->rem == 0)
				h->spinning = true;
		} else {
			h->mp = 0;
			h->rem = 0;
			h->spinning = false;
		}
	}
	if (!h->mp) {
		for (uint32_t k = 1; k <= h->n; k++) {
			uint32_t e = AT(k - 1);
			if (P[e] == pth && V[2 * e] == v0 && V[2 * e + 1] == v1) {
				h->mp = k;
				h->rem = k - 1;
				h->spinning = h->rem == 0;
				break;
			}
		}
	}
#undef AT
	h->head = h->n ? (h->head + 1) % l : 0;
	P[h->head] = pth;
	V[2 * h->head] = v0;
	V[2 * h->head + 1] = v1;
	if (h->n < l)
		h->n++;
}

static struct sibpt_entry *pt_find(const struct ddos *d, int32_t fn, int32_t pc)
{
	for (uint32_t i = 0; i < d->p.entries; i++)
		if (d->pt[i].valid && d->pt[i].fn == fn && d->pt[i].pc == pc)
			return &d->pt[i];
	return NULL;
}

/* A free entry, else the one with the lowest confidence (oldest among equals). */
static struct sibpt_entry *pt_victim(struct ddos *d)
{
	struct sibpt_entry *best = NULL;
	for (uint32_t i = 0; i < d->p.entries; i++) {
		struct sibpt_entry *e = &d->pt[i];
		if (!e->valid)
			return e;
		if (!best || e->conf < best->conf || (e->conf == best->conf && e->stamp < best->stamp))
			best = e;
	}
	return best;
}

static struct branch_rec *rec_of(struct ddos *d, int32_t fn, int32_t pc, uint64_t now)
{
	for (uint32_t i = 0; i < d->nbr; i++)
		if (d->br[i].fn == fn && d->br[i].pc == pc)
			return &d->br[i];
	if (d->nbr == d->capbr) {
		uint32_t cap = d->capbr ? 2 * d->capbr : 16;
		struct branch_rec *nb = realloc(d->br, cap * sizeof *nb);
		if (!nb)
			return NULL; /* measurement only: stop recording new branches */
		d->br = nb;
		d->capbr = cap;
	}
	struct branch_rec *r = &d->br[d->nbr++];
	*r = (struct branch_rec){.fn = fn,
	                         .pc = pc,
	                         .annotated = sched_sib_listed(d->sibs, d->nsibs, fn, pc),
	                         .sib = -1,
	                         .first = now,
	                         .last = now};
	if (r->annotated)
		r->sib = sib_index(d, fn, pc);
	return r;
}

bool ddos_on_exec(struct ddos *d, const struct sched_view *v, const struct sched_exec_event *e)
{
	uint32_t idx = 0;
	struct hist *h = set_of(d, v, e->slot, &idx);
	bool dslot = d->ctr && diag_slot(d, v, e->slot);
	if (e->is_setp) {
		if (dslot)
			d->setps[e->slot]++;
		if (h && e->active) {
			uint64_t key = (uint64_t)(uint32_t)e->pc | ((uint64_t)(uint32_t)e->fn << 32);
			hist_insert(d, h, idx, ddos_hash(&d->p, key), ddos_hash(&d->p, e->src_values[0]),
			            ddos_hash(&d->p, e->src_values[1]));
			if (h->spinning && d->ctr)
				d->ctr[DDOS_C_SPIN_SETPS]++;
		}
		return false;
	}
	if (!e->is_branch || !e->backward)
		return false;
	struct branch_rec *r = rec_of(d, e->fn, e->pc, v->cycle);
	if (r)
		r->last = v->cycle;
	if (r && d->ctr && r->sib >= 0 && r->sib < DDOS_SIB_DIAG) {
		uint64_t *c = d->ctr + DDOS_C_SIB_DIAG + (uint32_t)r->sib * DDOS_SIB_NDIAG;
		c[DDOS_SIB_EXECS]++;
		if (h && h->spinning)
			c[DDOS_SIB_SPINNING]++;
		if (dslot) {
			uint32_t *last = &d->sib_setps[e->slot * DDOS_SIB_DIAG + (uint32_t)r->sib];
			if (*last && d->setps[e->slot] + 1 - *last <= d->p.history)
				c[DDOS_SIB_REPEATABLE]++;
			*last = d->setps[e->slot] + 1;
		}
	}
	struct sibpt_entry *pe = pt_find(d, e->fn, e->pc);
	uint32_t t = d->p.threshold, cmax = 2 * t - 1;
	if (h && h->spinning) {
		if (!pe) {
			pe = pt_victim(d);
			*pe = (struct sibpt_entry){
			    .fn = e->fn, .pc = e->pc, .conf = 0, .stamp = ++d->stamp, .valid = true};
		}
		if (pe->conf < cmax) {
			pe->conf++;
			if (pe->conf == t) {
				if (d->ctr)
					d->ctr[DDOS_C_CONFIRMATIONS]++;
				if (r && !r->detected) {
					r->detected = true;
					r->detected_at = v->cycle;
				}
			}
		}
	} else if (h && e->taken && pe && pe->conf > 0) {
		pe->conf--;
	}
	return pe && pe->conf >= t;
}

void ddos_finish(struct ddos *d)
{
	if (!d->ctr)
		return;
	for (uint32_t i = 0; i < d->nbr; i++) {
		const struct branch_rec *r = &d->br[i];
		uint64_t span = r->last - r->first;
		uint64_t ppm = 0;
		if (r->detected && span)
			ppm = (r->detected_at - r->first) * 1000000u / span;
		if (r->annotated) {
			d->ctr[DDOS_C_TRUE_SEEN]++;
			d->ctr[DDOS_C_TRUE_DETECTED] += r->detected;
			d->ctr[DDOS_C_TRUE_DPR_PPM] += ppm;
			if (r->sib >= 0 && r->sib < DDOS_SIB_DIAG)
				d->ctr[DDOS_C_SIB_DIAG + (uint32_t)r->sib * DDOS_SIB_NDIAG + DDOS_SIB_DETECTED_SMS] +=
				    r->detected;
		} else {
			d->ctr[DDOS_C_FALSE_SEEN]++;
			d->ctr[DDOS_C_FALSE_DETECTED] += r->detected;
			d->ctr[DDOS_C_FALSE_DPR_PPM] += ppm;
		}
	}
	d->nbr = 0;
}

bool ddos_warp_spinning(const struct ddos *d, uint32_t slot)
{
	if (d->p.share)
		return slot == d->owner && d->h[0].spinning;
	return slot < d->nslots && d->h[slot].used && d->h[slot].spinning;
}

uint32_t ddos_confidence(const struct ddos *d, int32_t fn, int32_t pc)
{
	const struct sibpt_entry *e = pt_find(d, fn, pc);
	return e ? e->conf : 0;
}

bool ddos_is_sib(const struct ddos *d, int32_t fn, int32_t pc)
{
	return ddos_confidence(d, fn, pc) >= d->p.threshold;
}
