/*
 * cacp.h -- CAWA's criticality-aware cache prioritization (CACP) for the L1D.
 *
 * Models the replacement-side hardware of CACP (Lee, Arunkumar and Wu,
 * "CAWA", ISCA 2015, the cache half; docs/bows.md says which facts come from
 * where): the L1D's ways are split into a critical partition (ways
 * [0, crit_ways)) and a non-critical partition (the rest); a Critical Cache
 * Block Predictor (CCBP, a table of saturating counters indexed by a
 * signature of the load's PC and line address) predicts at a fill whether
 * the line will be reused by critical warps and so picks its partition; a
 * SHiP-style reuse predictor (SHCT, the same signatures, saturating
 * counters) picks the fill's RRIP insertion priority; each line keeps its
 * signature, a 2-bit re-reference prediction value (RRPV) and two reuse
 * bits (reused by a critical warp, by a non-critical warp).  Training: a
 * reuse by a critical warp raises the line's CCBP counter, any reuse raises
 * its SHCT counter; evicting a critical-partition line that no critical
 * warp reused lowers its CCBP counter, evicting a line nobody reused lowers
 * its SHCT counter.  Replacement inside a partition is RRIP: the first
 * evictable way with the largest RRPV, after ageing the partition until one
 * reaches the maximum; a hit sets the RRPV to 0.
 *
 * Which warp is critical is not decided here: the access carries it
 * (struct cacp_access), as the issue policy's criticality predictor says
 * (sched.h, sched_policy.critical; CAWA's CPL in src/sched/cawa.c).
 *
 * The structure keeps only its own state, per line index of the owning
 * cache (sets x ways, way-major inside a set as in cache.c); the cache asks
 * it which ways a fill may take and which of them to evict, and tells it
 * of reuses, fills and evictions.  With crit_ways = 0 there is no partition
 * and no predictor: the cache keeps LRU and only counts the critical warps'
 * accesses and hits (the critical hit rate of a cache without CACP).
 */
#ifndef WARPSIM_MEM_CACP_H
#define WARPSIM_MEM_CACP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ws_config;
struct ws_stats;

struct cacp_params {
	unsigned crit_ways;    /* ways of each set in the critical partition (1 .. ways - 1); 0: count only */
	unsigned entries;      /* CCBP and SHCT entries each (power of two) */
	unsigned counter_bits; /* bits of each CCBP / SHCT saturating counter (1..8) */
};

/* What the L1D knows of an access under CACP: the load's PC and whether its
 * warp is critical (as the issue policy predicted when the load issued). */
struct cacp_access {
	uint64_t pc;
	bool critical;
};

/* NULL if the parameters do not fit `ways` or memory runs out.  stats may be NULL. */
struct cacp *cacp_create(const struct cacp_params *p, unsigned sets, unsigned ways, struct ws_stats *stats);
void cacp_destroy(struct cacp *cp);

/* The signature of an access to line number `line`. */
uint32_t cacp_signature(const struct cacp *cp, uint64_t pc, uint64_t line);
/* Does the CCBP predict that a fill with signature `sig` will be reused by a critical warp? */
bool cacp_predict_critical(const struct cacp *cp, uint32_t sig);
/* The ways [*lo, *hi) of the partition a fill with prediction `critical` goes to. */
void cacp_partition(const struct cacp *cp, bool critical, unsigned *lo, unsigned *hi);
/* The way to evict among `evictable` (bit w: way w of the set starting at line
 * index `base` holds an unreserved line), inside [lo, hi): RRIP, ageing the
 * partition's evictable lines as needed.  -1 if none is evictable. */
int cacp_victim(struct cacp *cp, size_t base, unsigned lo, unsigned hi, uint64_t evictable);
/* Line `idx` was reused (hit or merged into its pending miss) by a warp
 * that is critical or not: RRPV to 0, reuse bits and predictors trained. */
void cacp_on_reuse(struct cacp *cp, size_t idx, bool critical);
/* Line `idx`, holding data, is replaced: train on its reuse bits. */
void cacp_on_evict(struct cacp *cp, size_t idx);
/* A fill with signature `sig` takes line `idx`. */
void cacp_on_fill(struct cacp *cp, size_t idx, uint32_t sig);
/* Count-only mode (crit_ways = 0)? */
bool cacp_counts_only(const struct cacp *cp);
/* Read access of a warp that is critical or not, and whether it hit (the counters). */
void cacp_count_access(struct cacp *cp, bool critical, bool hit);

/* CCBP / SHCT counter of signature `sig` and RRPV of line `idx` (tests). */
unsigned cacp_ccbp(const struct cacp *cp, uint32_t sig);
unsigned cacp_shct(const struct cacp *cp, uint32_t sig);
unsigned cacp_rrpv(const struct cacp *cp, size_t idx);

/* The L1D's CACP parameters from the configuration; false if l1d_cacp is off. */
bool cacp_params_from_config(const struct ws_config *cfg, unsigned ways, struct cacp_params *p);

#endif
