/*
 * params.h -- ids of the GPU-wide parameters (params.def).
 *
 * Models no hardware.  CFG_<name> in the domain CFG_DOM_GPU of
 * config/config.h's id space, for cfg_int() and friends; include this
 * header only where these parameters are read.
 */
#ifndef WARPSIM_CONFIG_PARAMS_H
#define WARPSIM_CONFIG_PARAMS_H

#include "config/config.h"

enum cfg_gpu_param {
	CFG_GPU_BEFORE_ = CFG_DOM_GPU * CFG_DOM_CAP - 1,
#define P(name, type, def, min, max, help) CFG_##name,
#define E(name, values)
#include "config/params.def"
#undef P
#undef E
	CFG_GPU_END_
};
_Static_assert(CFG_GPU_END_ <= (CFG_DOM_GPU + 1) * CFG_DOM_CAP,
	       "config/params.def: more than CFG_DOM_CAP parameters");

#endif
