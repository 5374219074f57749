/*
 * derived.h -- the metrics derived from the counters (declared in
 * derived.def): IPC, SIMD efficiency, stall fractions, RTRU, hit rates, DRAM
 * utilization, the energy estimate.
 *
 * Models no hardware.  Computed after a run from the counters of a
 * `struct ws_stats` and the configuration; never stored in the counters.
 * Only derived.c reads derived.def, so editing the table recompiles it alone.
 */
#ifndef WARPSIM_STATS_DERIVED_H
#define WARPSIM_STATS_DERIVED_H

#include <stdbool.h>
#include <stdio.h>

struct ws_config;
struct ws_stats;

/* The i-th derived metric's name and description, in table order; NULL past the end. */
const char *derived_name(int i);
const char *derived_desc(int i);
/* The value of metric `name` for the counters `s` of a run under `cfg` (in
 * *value if value is non-NULL); false if there is no such metric. */
bool derived_get(const struct ws_stats *s, const struct ws_config *cfg, const char *name, double *value);
/* The "derived:" section of the text summary: a heading, then one line per metric. */
void derived_print(const struct ws_stats *s, const struct ws_config *cfg, FILE *out);
/* The members of the JSON "derived" object: "name": value, ... */
void derived_write_json_fields(const struct ws_stats *s, const struct ws_config *cfg, FILE *out);

#endif
