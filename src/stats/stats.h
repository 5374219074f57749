/*
 * stats.h -- the statistics registry (counters declared in .def files).
 *
 * Models no hardware.  A `struct ws_stats` is a flat array of 64-bit
 * counters indexed by counter id; model code increments them directly
 * (stats->v[STAT_name]).  The counters are declared in one .def file per
 * domain, each with its own header of ids:
 *
 *   STAT_DOM_GPU   stats/counters.def      ids in stats/counters.h
 *   STAT_DOM_MEM   mem/mem_counters.def    ids in mem/mem_counters.h
 *   STAT_DOM_CORE  core/core_counters.def  ids in core/core_counters.h
 *
 * Domain d owns the ids [d * STAT_DOM_CAP, (d + 1) * STAT_DOM_CAP), so
 * the ids of one domain do not depend on the others: a line added to a
 * domain's .def file recompiles only the files that include its header
 * (and stats.c).  The array has gaps (stat_table[id].name NULL); the text
 * summary, the JSON and the name lookup walk the ids each domain uses: the
 * domains in the order above, each in its .def file's order.
 */
#ifndef WARPSIM_STATS_H
#define WARPSIM_STATS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

enum stat_domain { STAT_DOM_GPU, STAT_DOM_MEM, STAT_DOM_CORE, STAT_DOM_COUNT };

#define STAT_DOM_CAP 128 /* ids per domain (each domain's header asserts that its counters fit) */

/* Every counter id (a domain's STAT_<name>) is below STAT_ID_LIMIT; not
 * every id below it is a counter. */
#define STAT_ID_LIMIT (STAT_DOM_COUNT * STAT_DOM_CAP)

struct stat_info {
	const char *name, *unit, *desc; /* name NULL: no counter has this id */
};
extern const struct stat_info stat_table[STAT_ID_LIMIT];

/* A counter declared at run time (a scheduling policy's, see
 * sched_policy.counters): name, unit and help like the table's. */
#define STATS_EXTRA_MAX 64
struct stat_extra {
	char name[64];
	const char *unit, *help; /* static strings of the declaring table */
	uint64_t v;
};

struct ws_stats {
	uint64_t v[STAT_ID_LIMIT];
	uint32_t nextra;
	struct stat_extra extra[STATS_EXTRA_MAX];
};

int stats_find(const char *name); /* the counter's id, -1 if unknown */
/* Add `v` to the run-time counter `name`, declaring it (with unit and help)
 * on first use.  False if the table is full. */
bool stats_extra_add(struct ws_stats *s, const char *name, const char *unit, const char *help, uint64_t v);
/* The run-time counter `name`, or NULL. */
const struct stat_extra *stats_extra_find(const struct ws_stats *s, const char *name);
void stats_add(struct ws_stats *dst, const struct ws_stats *src);
void stats_print(const struct ws_stats *s, FILE *out);
void stats_write_json_fields(const struct ws_stats *s, FILE *out); /* "name": value, ... */
/* The same for the table's counters alone, from an array indexed by counter
 * id (a launch's counters, struct sim_launch.v). */
void stats_write_json_values(const uint64_t v[STAT_ID_LIMIT], FILE *out);

#endif
