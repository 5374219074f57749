/*
 * stats.h -- the statistics registry (counters declared in counters.def).
 *
 * Models no hardware.  A `struct ws_stats` is a flat array of 64-bit
 * counters indexed by enum stat_id; model code increments them directly.
 */
#ifndef WARPSIM_STATS_H
#define WARPSIM_STATS_H

#include <stdbool.h>
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

/* A counter declared at run time (a scheduling policy's, see
 * sched_policy.counters): name, unit and help like the table's. */
#define STATS_EXTRA_MAX 64
struct stat_extra {
	char name[64];
	const char *unit, *help; /* static strings of the declaring table */
	uint64_t v;
};

struct ws_stats {
	uint64_t v[STAT_COUNT];
	uint32_t nextra;
	struct stat_extra extra[STATS_EXTRA_MAX];
};

int stats_find(const char *name); /* -1 if unknown */
/* Add `v` to the run-time counter `name`, declaring it (with unit and help)
 * on first use.  False if the table is full. */
bool stats_extra_add(struct ws_stats *s, const char *name, const char *unit, const char *help, uint64_t v);
/* The run-time counter `name`, or NULL. */
const struct stat_extra *stats_extra_find(const struct ws_stats *s, const char *name);
void stats_add(struct ws_stats *dst, const struct ws_stats *src);
void stats_print(const struct ws_stats *s, FILE *out);
void stats_write_json_fields(const struct ws_stats *s, FILE *out); /* "name": value, ... */

#endif
