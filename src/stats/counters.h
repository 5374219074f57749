/*
 * counters.h -- ids of the GPU-wide counters (stats/counters.def).
 *
 * Models no hardware.  STAT_<name> in the domain STAT_DOM_GPU of stats.h's
 * id space; include this header only where these counters are used.
 */
#ifndef WARPSIM_STATS_COUNTERS_H
#define WARPSIM_STATS_COUNTERS_H

#include "stats/stats.h"

enum stat_gpu_id {
	STAT_GPU_BEFORE_ = STAT_DOM_GPU * STAT_DOM_CAP - 1,
#define C(name, unit, desc) STAT_##name,
#include "stats/counters.def"
#undef C
	STAT_GPU_END_
};
_Static_assert(STAT_GPU_END_ <= (STAT_DOM_GPU + 1) * STAT_DOM_CAP,
	       "stats/counters.def: more than STAT_DOM_CAP counters");

#endif
