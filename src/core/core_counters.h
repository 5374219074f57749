/*
 * core_counters.h -- ids of the SM pipeline counters (core_counters.def).
 *
 * Models no hardware.  STAT_<name> in the domain STAT_DOM_CORE of
 * stats/stats.h's id space; include this header only where these counters
 * are used.
 */
#ifndef WARPSIM_CORE_COUNTERS_H
#define WARPSIM_CORE_COUNTERS_H

#include "stats/stats.h"

enum stat_core_id {
	STAT_CORE_BEFORE_ = STAT_DOM_CORE * STAT_DOM_CAP - 1,
#define C(name, unit, desc) STAT_##name,
#include "core/core_counters.def"
#undef C
	STAT_CORE_END_
};
_Static_assert(STAT_CORE_END_ <= (STAT_DOM_CORE + 1) * STAT_DOM_CAP,
	       "core/core_counters.def: more than STAT_DOM_CAP counters");

#endif
