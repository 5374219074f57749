/*
 * sched_params.h -- ids of the warp-scheduling policy parameters (sched_params.def).
 *
 * Models no hardware.  CFG_<name> in the domain CFG_DOM_SCHED of
 * config/config.h's id space, for cfg_int() and friends; include this
 * header only where these parameters are read.
 */
#ifndef WARPSIM_SCHED_PARAMS_H
#define WARPSIM_SCHED_PARAMS_H

#include "config/config.h"

enum cfg_sched_param {
	CFG_SCHED_BEFORE_ = CFG_DOM_SCHED * CFG_DOM_CAP - 1,
#define P(name, type, def, min, max, help) CFG_##name,
#define E(name, values)
#include "sched/sched_params.def"
#undef P
#undef E
	CFG_SCHED_END_
};
_Static_assert(CFG_SCHED_END_ <= (CFG_DOM_SCHED + 1) * CFG_DOM_CAP,
	       "sched/sched_params.def: more than CFG_DOM_CAP parameters");

#endif
