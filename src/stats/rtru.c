/*
 * rtru.c -- warp-phase RTRU accounting (see rtru.h).  Models no hardware.
 */
#include "stats/rtru.h"

#include "core/core_counters.h"
#include "stats/stats.h"

void rtru_phase_add(struct ws_stats *st, uint64_t phase_start, const uint64_t *arrive, uint32_t n)
{
	uint64_t maxT = 0, sumT = 0;
	for (uint32_t k = 0; k < n; k++) {
		uint64_t T = arrive[k] - phase_start;
		sumT += T;
		if (T > maxT)
			maxT = T;
	}
	if (n && maxT) {
		uint64_t idle = n * maxT - sumT;
		st->v[STAT_warp_phases]++;
		st->v[STAT_rtru_ppm_sum] += idle * 1000000 / (n * maxT);
		st->v[STAT_rtru_idle_cycles] += idle;
		st->v[STAT_rtru_span_cycles] += n * maxT;
	}
}
