/*
 * stats.c -- counter table, lookup and writers.  Models no hardware.
 *
 * The one file that includes every domain's counters (stats.h).  Reports
 * walk the ids each domain uses: the domains in enum stat_domain order,
 * each in its .def file's order.
 */
#include <string.h>

#include "core/core_counters.h"
#include "mem/mem_counters.h"
#include "stats/counters.h"
#include "stats/stats.h"

/* Every domain's counters at their ids (the order of the lines does not matter). */
const struct stat_info stat_table[STAT_ID_LIMIT] = {
#define C(name, unit, desc) [STAT_##name] = {#name, unit, desc},
#include "core/core_counters.def"
#include "mem/mem_counters.def"
#include "stats/counters.def"
#undef C
};

/* The ids each domain uses, [first, end), the domains in report order. */
static const struct {
	uint16_t first, end;
} dom_ids[STAT_DOM_COUNT] = {
	[STAT_DOM_GPU] = {STAT_GPU_BEFORE_ + 1, STAT_GPU_END_},
	[STAT_DOM_MEM] = {STAT_MEM_BEFORE_ + 1, STAT_MEM_END_},
	[STAT_DOM_CORE] = {STAT_CORE_BEFORE_ + 1, STAT_CORE_END_},
};

int stats_find(const char *name)
{
	for (int d = 0; d < STAT_DOM_COUNT; d++)
		for (int i = dom_ids[d].first; i < dom_ids[d].end; i++)
			if (strcmp(stat_table[i].name, name) == 0)
				return i;
	return -1;
}

/* How a counter combines across launches: most add up; extremes keep the extreme. */
enum merge { MERGE_SUM, MERGE_MAX, MERGE_MIN_NONZERO };
static const uint8_t stat_merge[STAT_ID_LIMIT] = {
	[STAT_cta_max_cycles] = MERGE_MAX,
	[STAT_cta_min_cycles] = MERGE_MIN_NONZERO,
};

bool stats_extra_add(struct ws_stats *s, const char *name, const char *unit, const char *help, uint64_t v)
{
	for (uint32_t i = 0; i < s->nextra; i++)
		if (strcmp(s->extra[i].name, name) == 0) {
			s->extra[i].v += v;
			return true;
		}
	if (s->nextra >= STATS_EXTRA_MAX)
		return false;
	struct stat_extra *e = &s->extra[s->nextra++];
	snprintf(e->name, sizeof e->name, "%s", name);
	e->unit = unit ? unit : "";
	e->help = help ? help : "";
	e->v = v;
	return true;
}

const struct stat_extra *stats_extra_find(const struct ws_stats *s, const char *name)
{
	for (uint32_t i = 0; i < s->nextra; i++)
		if (strcmp(s->extra[i].name, name) == 0)
			return &s->extra[i];
	return NULL;
}

void stats_add(struct ws_stats *dst, const struct ws_stats *src)
{
	for (uint32_t i = 0; i < src->nextra; i++)
		stats_extra_add(dst, src->extra[i].name, src->extra[i].unit, src->extra[i].help, src->extra[i].v);
	for (int d = 0; d < STAT_DOM_COUNT; d++)
		for (int i = dom_ids[d].first; i < dom_ids[d].end; i++)
			switch (stat_merge[i]) {
			case MERGE_MAX:
				if (src->v[i] > dst->v[i])
					dst->v[i] = src->v[i];
				break;
			case MERGE_MIN_NONZERO:
				if (src->v[i] && (!dst->v[i] || src->v[i] < dst->v[i]))
					dst->v[i] = src->v[i];
				break;
			default:
				dst->v[i] += src->v[i];
			}
}

void stats_print(const struct ws_stats *s, FILE *out)
{
	for (int d = 0; d < STAT_DOM_COUNT; d++)
		for (int i = dom_ids[d].first; i < dom_ids[d].end; i++)
			fprintf(out, "  %-20s %14llu %-9s %s\n", stat_table[i].name, (unsigned long long)s->v[i],
				stat_table[i].unit, stat_table[i].desc);
	for (uint32_t i = 0; i < s->nextra; i++)
		fprintf(out, "  %-20s %14llu %-9s %s\n", s->extra[i].name, (unsigned long long)s->extra[i].v,
			s->extra[i].unit, s->extra[i].help);
}

void stats_write_json_values(const uint64_t v[STAT_ID_LIMIT], FILE *out)
{
	const char *sep = "";
	for (int d = 0; d < STAT_DOM_COUNT; d++)
		for (int i = dom_ids[d].first; i < dom_ids[d].end; i++) {
			fprintf(out, "%s\"%s\": %llu", sep, stat_table[i].name, (unsigned long long)v[i]);
			sep = ", ";
		}
}

void stats_write_json_fields(const struct ws_stats *s, FILE *out)
{
	stats_write_json_values(s->v, out);
	for (uint32_t i = 0; i < s->nextra; i++)
		fprintf(out, ", \"%s\": %llu", s->extra[i].name, (unsigned long long)s->extra[i].v);
}
