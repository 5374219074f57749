/*
 * mem_counters.h -- ids of the memory-hierarchy counters (mem_counters.def).
 *
 * Models no hardware.  STAT_<name> in the domain STAT_DOM_MEM of
 * stats/stats.h's id space; include this header only where these counters
 * are used.
 */
#ifndef WARPSIM_MEM_COUNTERS_H
#define WARPSIM_MEM_COUNTERS_H

#include "stats/stats.h"

enum stat_mem_id {
	STAT_MEM_BEFORE_ = STAT_DOM_MEM * STAT_DOM_CAP - 1,
#define C(name, unit, desc) STAT_##name,
#include "mem/mem_counters.def"
#undef C
	STAT_MEM_END_
};
_Static_assert(STAT_MEM_END_ <= (STAT_DOM_MEM + 1) * STAT_DOM_CAP,
	       "mem/mem_counters.def: more than STAT_DOM_CAP counters");

#endif
