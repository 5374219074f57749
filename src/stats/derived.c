/*
 * derived.c -- the derived-metric table, its computation and writers (see
 * derived.h).  Models no hardware.
 */
#include "stats/derived.h"

#include <string.h>

#include "config/config.h"
#include "core/core_counters.h"
#include "mem/mem_counters.h"
#include "mem/mem_params.h"
#include "stats/counters.h"
#include "stats/energy.h"
#include "stats/stats.h"

enum derived_id {
#define D(name, desc, value) DERIVED_##name,
#include "derived.def"
#undef D
	DERIVED_COUNT
};

static const struct derived_info {
	const char *name, *desc;
} derived_table[DERIVED_COUNT] = {
#define D(name, desc, value) [DERIVED_##name] = {#name, desc},
#include "derived.def"
#undef D
};

const char *derived_name(int i) { return i >= 0 && i < DERIVED_COUNT ? derived_table[i].name : NULL; }
const char *derived_desc(int i) { return i >= 0 && i < DERIVED_COUNT ? derived_table[i].desc : NULL; }

/* a / b, 0 when b is 0 */
static double ratio(uint64_t a, uint64_t b) { return b ? (double)a / (double)b : 0.0; }

/* Scheduler-cycles: each scheduler's cycles, with an issue or in one of the stall classes. */
static uint64_t sched_cycles(const uint64_t *v)
{
	return v[STAT_issue_cycles] + v[STAT_stall_control] + v[STAT_stall_data] + v[STAT_stall_structural] +
	       v[STAT_stall_held] + v[STAT_stall_barrier] + v[STAT_stall_exit] + v[STAT_stall_fetch] +
	       v[STAT_stall_idle];
}

/* Every metric, indexed by enum derived_id. */
static void derived_compute(const struct ws_stats *s, const struct ws_config *cfg, double d[DERIVED_COUNT])
{
	const uint64_t *v = s->v;
	struct energy_estimate E;
	energy_estimate(v, cfg, &E);
#define D(name, desc, value) d[DERIVED_##name] = (value);
#include "derived.def"
#undef D
}

bool derived_get(const struct ws_stats *s, const struct ws_config *cfg, const char *name, double *value)
{
	for (int i = 0; i < DERIVED_COUNT; i++)
		if (strcmp(derived_table[i].name, name) == 0) {
			double d[DERIVED_COUNT];
			derived_compute(s, cfg, d);
			if (value)
				*value = d[i];
			return true;
		}
	return false;
}

void derived_print(const struct ws_stats *s, const struct ws_config *cfg, FILE *out)
{
	double d[DERIVED_COUNT];
	derived_compute(s, cfg, d);
	fprintf(out, "derived:\n");
	for (int i = 0; i < DERIVED_COUNT; i++)
		fprintf(out, "  %-22s %14.*g           %s\n", derived_table[i].name, d[i] < 1e-2 && d[i] > 0 ? 5 : 10,
			d[i], derived_table[i].desc);
}

void derived_write_json_fields(const struct ws_stats *s, const struct ws_config *cfg, FILE *out)
{
	double d[DERIVED_COUNT];
	derived_compute(s, cfg, d);
	for (int i = 0; i < DERIVED_COUNT; i++)
		fprintf(out, "%s\"%s\": %.9g", i ? ", " : "", derived_table[i].name, d[i]);
}
