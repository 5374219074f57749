/*
 * mem_params.h -- ids of the memory-hierarchy parameters (mem_params.def).
 *
 * Models no hardware.  CFG_<name> in the domain CFG_DOM_MEM of
 * config/config.h's id space, for cfg_int() and friends; include this
 * header only where these parameters are read.
 */
#ifndef WARPSIM_MEM_PARAMS_H
#define WARPSIM_MEM_PARAMS_H

#include "config/config.h"

enum cfg_mem_param {
	CFG_MEM_BEFORE_ = CFG_DOM_MEM * CFG_DOM_CAP - 1,
#define P(name, type, def, min, max, help) CFG_##name,
#define E(name, values)
#include "mem/mem_params.def"
#undef P
#undef E
	CFG_MEM_END_
};
_Static_assert(CFG_MEM_END_ <= (CFG_DOM_MEM + 1) * CFG_DOM_CAP,
	       "mem/mem_params.def: more than CFG_DOM_CAP parameters");

#endif
