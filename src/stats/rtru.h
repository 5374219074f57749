/*
 * rtru.h -- warp-phase imbalance: the RTRU of the BAWS paper (equation 1)
 * of each completed warp-phase, accumulated into the counters warp_phases,
 * rtru_ppm_sum, rtru_idle_cycles and rtru_span_cycles.
 *
 * Models no hardware.  The SM reports each warp-phase when it ends (a
 * barrier release or the CTA's exit point) with the cycle each of its warps
 * arrived; the derived metrics rtru_mean and rtru_weighted (derived.def)
 * are computed from the sums.
 */
#ifndef WARPSIM_STATS_RTRU_H
#define WARPSIM_STATS_RTRU_H

#include <stdint.h>

struct ws_stats;

/* A warp-phase that started at `phase_start` ended; its `n` warps arrived at
 * arrive[0..n).  Warp k took T_k = arrive[k] - phase_start; RTRU =
 * sum(maxT - T_k) / (n maxT).  A phase of no warps or of zero length counts
 * nothing. */
void rtru_phase_add(struct ws_stats *st, uint64_t phase_start, const uint64_t *arrive, uint32_t n);

#endif
