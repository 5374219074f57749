/*
 * energy_params.h -- ids of the event-energy coefficients (energy_params.def).
 *
 * Models no hardware.  CFG_<name> in the domain CFG_DOM_ENERGY of
 * config/config.h's id space, for cfg_int() and friends; include this
 * header only where these parameters are read.
 */
#ifndef WARPSIM_ENERGY_PARAMS_H
#define WARPSIM_ENERGY_PARAMS_H

#include "config/config.h"

enum cfg_energy_param {
	CFG_ENERGY_BEFORE_ = CFG_DOM_ENERGY * CFG_DOM_CAP - 1,
#define P(name, type, def, min, max, help) CFG_##name,
#define E(name, values)
#include "stats/energy_params.def"
#undef P
#undef E
	CFG_ENERGY_END_
};
_Static_assert(CFG_ENERGY_END_ <= (CFG_DOM_ENERGY + 1) * CFG_DOM_CAP,
	       "stats/energy_params.def: more than CFG_DOM_CAP parameters");

#endif
