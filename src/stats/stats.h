/*
 * stats.h -- the statistics registry (counters declared in counters.def).
 *
 * Models no hardware.  A `struct ws_stats` is a flat array of 64-bit
 * counters indexed by enum stat_id; model code increments them directly.
 */
#ifndef WARPSIM_STATS_H
#define WARPSIM_STATS_H

#include <stdint.h>
#include <stdio.h>

enum stat_id {
#define C(name, unit, desc) STAT_##name,
#include "counters.def"
#undef C
	STAT_COUNT
};

struct stat_info {
	const char *name, *unit, *desc;
};
extern const struct stat_info stat_table[STAT_COUNT];

struct ws_stats {
	uint64_t v[STAT_COUNT];
};

int stats_find(const char *name); /* -1 if unknown */
void stats_add(struct ws_stats *dst, const struct ws_stats *src);
void stats_print(const struct ws_stats *s, FILE *out);
void stats_write_json_fields(const struct ws_stats *s, FILE *out); /* "name": value, ... */

#endif
