/*
 * report.h -- the statistics reports of a run: the text summary (every
 * counter, then the derived metrics) and the statistics JSON document
 * (configuration, counters, derived metrics, trace size) that
 * wsStatsPrint and wsStatsWriteJSON write and `warpsim collect` reads.
 *
 * Models no hardware.
 */
#ifndef WARPSIM_STATS_REPORT_H
#define WARPSIM_STATS_REPORT_H

#include <stdio.h>

struct phase_trace;
struct ws_config;
struct ws_stats;

/* The text summary of the counters `s` of a run under `cfg`. */
void stats_report_print(const struct ws_stats *s, const struct ws_config *cfg, FILE *out);
/* The JSON document: {"simulator", "config_hash", "config", "stats", "derived",
 * "trace_records", "trace_dropped"}, then the members in `more` when not
 * NULL ("\"occupancy\": [...]": the caller's, which knows the launches). */
void stats_report_write_json(const struct ws_stats *s, const struct ws_config *cfg, const struct phase_trace *trace,
                             const char *more, FILE *out);

#endif
