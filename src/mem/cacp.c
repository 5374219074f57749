/*
 * cacp.c -- CAWA's criticality-aware cache prioritization for the L1D (see
 * cacp.h for the hardware it models and how the cache drives it).
 *
 * Storage: the CCBP and SHCT tables (entries saturating counters each) and,
 * per line of the cache, its fill signature, its RRPV and its two reuse
 * bits.  The CCBP starts one below its "critical" threshold (half its
 * range) and the SHCT at its maximum (every fill predicted to be reused
 * until a signature's lines are evicted unused), as the GPGPU-Sim CACP fork
 * does (docs/bows.md).
 */
#include <stdlib.h>

#include "mem/cacp.h"
#include "mem/mem_counters.h"
#include "mem/mem_params.h"

#define RRPV_MAX 3u /* 2-bit RRPVs (RRIP's M = 2) */

struct cacp_line {
	uint32_t sig;
	uint8_t rrpv;
	bool c_reuse, nc_reuse; /* reused by a critical / a non-critical warp since the fill */
};

struct cacp {
	struct cacp_params p;
	unsigned ways;
	uint8_t cmax;            /* counter maximum: 2^bits - 1 */
	uint8_t *ccbp, *shct;    /* [entries] */
	struct cacp_line *lines; /* [sets * ways] */
	struct ws_stats *stats;
};

static bool is_pow2(unsigned x)
{
	return x && !(x & (x - 1));
}

struct cacp *cacp_create(const struct cacp_params *p, unsigned sets, unsigned ways, struct ws_stats *stats)
{
	if (!p || ways < 2 || ways > 64 || p->crit_ways >= ways || !is_pow2(p->entries) ||
	    p->entries > (1u << 20) || p->counter_bits < 1 || p->counter_bits > 8)
		return NULL;
	struct cacp *cp = calloc(1, sizeof *cp);
	if (!cp)
		return NULL;
	cp->p = *p;
	cp->ways = ways;
	cp->stats = stats;
	cp->cmax = (uint8_t)((1u << p->counter_bits) - 1);
	cp->ccbp = malloc(p->entries);
	cp->shct = malloc(p->entries);
	cp->lines = calloc((size_t)sets * ways, sizeof *cp->lines);
	if (!cp->ccbp || !cp->shct || !cp->lines) {
		cacp_destroy(cp);
		return NULL;
	}
	uint8_t thr = (uint8_t)(1u << (p->counter_bits - 1));
	for (unsigned i = 0; i < p->entries; i++) {
		cp->ccbp[i] = (uint8_t)(thr - 1);
		cp->shct[i] = cp->cmax;
	}
	return cp;
}

void cacp_destroy(struct cacp *cp)
{
	if (!cp)
		return;
	free(cp->ccbp);
	free(cp->shct);
	free(cp->lines);
	free(cp);
}

uint32_t cacp_signature(const struct cacp *cp, uint64_t pc, uint64_t line)
{
	/* PC (in 8-byte instruction slots) xor line number, folded to the table size */
	uint64_t h = (pc >> 3) ^ line;
	h ^= h >> 16;
	return (uint32_t)(h & (cp->p.entries - 1));
}

bool cacp_predict_critical(const struct cacp *cp, uint32_t sig)
{
	return cp->ccbp[sig] >= (1u << (cp->p.counter_bits - 1));
}

void cacp_partition(const struct cacp *cp, bool critical, unsigned *lo, unsigned *hi)
{
	*lo = critical ? 0 : cp->p.crit_ways;
	*hi = critical ? cp->p.crit_ways : cp->ways;
}

int cacp_victim(struct cacp *cp, size_t base, unsigned lo, unsigned hi, uint64_t evictable)
{
	unsigned top = 0;
	int best = -1;
	for (unsigned w = lo; w < hi; w++) {
		if (!(evictable >> w & 1))
			continue;
		unsigned r = cp->lines[base + w].rrpv;
		if (best < 0 || r > top) {
			top = r;
			best = (int)w;
		}
	}
	if (best < 0 || top == RRPV_MAX)
		return best;
	/* No evictable line is predicted distant: age them all until one is
	 * (the same as RRIP's repeated increments). */
	uint8_t d = (uint8_t)(RRPV_MAX - top);
	for (unsigned w = lo; w < hi; w++)
		if (evictable >> w & 1)
			cp->lines[base + w].rrpv += d;
	return best;
}

static inline void sat_inc(uint8_t *c, uint8_t max)
{
	*c += *c < max;
}
static inline void sat_dec(uint8_t *c)
{
	*c -= *c > 0;
}

static inline void bump(struct cacp *cp, int id)
{
	if (cp->stats)
		cp->stats->v[id]++;
}

void cacp_on_reuse(struct cacp *cp, size_t idx, bool critical)
{
	struct cacp_line *l = &cp->lines[idx];
	l->rrpv = 0;
	if (critical) {
		l->c_reuse = true;
		sat_inc(&cp->ccbp[l->sig], cp->cmax);
	} else {
		l->nc_reuse = true;
	}
	sat_inc(&cp->shct[l->sig], cp->cmax);
}

void cacp_on_evict(struct cacp *cp, size_t idx)
{
	const struct cacp_line *l = &cp->lines[idx];
	bool in_crit = idx % cp->ways < cp->p.crit_ways;
	if (in_crit && !l->c_reuse)
		sat_dec(&cp->ccbp[l->sig]);
	if (!l->c_reuse && !l->nc_reuse)
		sat_dec(&cp->shct[l->sig]);
	bump(cp, STAT_l1d_cacp_evictions);
	if (in_crit == l->c_reuse)
		bump(cp, STAT_l1d_cacp_ccbp_correct);
}

void cacp_on_fill(struct cacp *cp, size_t idx, uint32_t sig)
{
	struct cacp_line *l = &cp->lines[idx];
	bool in_crit = idx % cp->ways < cp->p.crit_ways;
	l->sig = sig;
	l->c_reuse = l->nc_reuse = false;
	/* SRRIP's intermediate insertion; SHiP inserts a non-critical fill whose
	 * signature's lines went unused at the distant RRPV. */
	l->rrpv = (uint8_t)(!in_crit && cp->shct[sig] == 0 ? RRPV_MAX : RRPV_MAX - 1);
	if (in_crit)
		bump(cp, STAT_l1d_cacp_crit_fills);
}

bool cacp_counts_only(const struct cacp *cp) { return cp->p.crit_ways == 0; }

void cacp_count_access(struct cacp *cp, bool critical, bool hit)
{
	if (!critical)
		return;
	bump(cp, STAT_l1d_cacp_crit_accesses);
	if (hit)
		bump(cp, STAT_l1d_cacp_crit_hits);
}

unsigned cacp_ccbp(const struct cacp *cp, uint32_t sig)
{
	return cp->ccbp[sig & (cp->p.entries - 1)];
}
unsigned cacp_shct(const struct cacp *cp, uint32_t sig)
{
	return cp->shct[sig & (cp->p.entries - 1)];
}
unsigned cacp_rrpv(const struct cacp *cp, size_t idx)
{
	return cp->lines[idx].rrpv;
}

bool cacp_params_from_config(const struct ws_config *cfg, unsigned ways, struct cacp_params *p)
{
	unsigned pct = (unsigned)cfg_int(cfg, CFG_l1d_cacp_crit_share);
	unsigned cw = (ways * pct + 50) / 100;
	p->crit_ways = pct == 0 ? 0 : cw < 1 ? 1 : cw >= ways ? ways - 1 : cw;
	p->entries = (unsigned)cfg_int(cfg, CFG_l1d_cacp_entries);
	p->counter_bits = (unsigned)cfg_int(cfg, CFG_l1d_cacp_counter_bits);
	return cfg_int(cfg, CFG_l1d_cacp) != 0;
}
