/*
 * core_params.h -- ids of the SM pipeline parameters (core_params.def).
 *
 * Models no hardware.  CFG_<name> in the domain CFG_DOM_CORE of
 * config/config.h's id space, for cfg_int() and friends; include this
 * header only where these parameters are read.
 */
#ifndef WARPSIM_CORE_PARAMS_H
#define WARPSIM_CORE_PARAMS_H

#include <stdbool.h>

#include "config/config.h"
#include "ptx/unit.h"

enum cfg_core_param {
	CFG_CORE_BEFORE_ = CFG_DOM_CORE * CFG_DOM_CAP - 1,
#define P(name, type, def, min, max, help) CFG_##name,
#define E(name, values)
#include "core/core_params.def"
#undef P
#undef E
	CFG_CORE_END_
};
_Static_assert(CFG_CORE_END_ <= (CFG_DOM_CORE + 1) * CFG_DOM_CAP,
	       "core/core_params.def: more than CFG_DOM_CAP parameters");

/* opcoll_units: does any unit type have per-SM collectors, shared by the
 * schedulers (every entry 0: per-scheduler collectors)? */
_Static_assert(UNIT_COUNT == 6, "core/core_params.def: opcoll_units lists one entry per unit type");
static inline bool core_opcoll_pooled(const struct ws_config *c)
{
	for (int k = 0; k < UNIT_COUNT; k++)
		if (cfg_list(c, CFG_opcoll_units, k))
			return true;
	return false;
}

#endif
