/*
 * derived.h -- the metrics derived from the counters (declared in
 * derived.def): IPC, SIMD efficiency, stall fractions, RTRU, hit rates, DRAM
 * utilization, the energy estimate.
 *
 * Models no hardware.  Computed after a run from the counters of a
 * `struct ws_stats` and the configuration; never stored in the counters.
 */
#ifndef WARPSIM_STATS_DERIVED_H
#define WARPSIM_STATS_DERIVED_H

#include <stdio.h>

struct ws_config;
struct ws_stats;

enum derived_id {
#define D(name, desc, value) DERIVED_##name,
#include "derived.def"
#undef D
	DERIVED_COUNT
};

struct derived_info {
	const char *name, *desc;
};
extern const struct derived_info derived_table[DERIVED_COUNT];

int derived_find(const char *name); /* -1 if unknown */
/* Every derived metric of the counters `s` of a run under `cfg`, indexed by enum derived_id. */
void derived_compute(const struct ws_stats *s, const struct ws_config *cfg, double d[DERIVED_COUNT]);
/* The "derived:" section of the text summary: a heading, then one line per metric. */
void derived_print(const double d[DERIVED_COUNT], FILE *out);
void derived_write_json_fields(const double d[DERIVED_COUNT], FILE *out); /* "name": value, ... */

#endif
