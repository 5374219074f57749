/*
 * report.c -- the text summary and the statistics JSON document of a run
 * (see report.h).  Models no hardware.
 */
#include "stats/report.h"

#include "config/config.h"
#include "stats/derived.h"
#include "stats/stats.h"
#include "stats/trace.h"

void stats_report_print(const struct ws_stats *s, const struct ws_config *cfg, FILE *out)
{
	stats_print(s, out);
	derived_print(s, cfg, out);
}

void stats_report_write_json(const struct ws_stats *s, const struct ws_config *cfg, const struct phase_trace *trace,
                             const char *more, FILE *out)
{
	fprintf(out, "{\n  \"simulator\": \"warpsim\",\n  \"config_hash\": \"%016llx\",\n  \"config\": ",
		(unsigned long long)cfg_hash(cfg));
	cfg_write_json(cfg, out);
	fprintf(out, ",\n  \"stats\": {");
	stats_write_json_fields(s, out);
	fprintf(out, "},\n  \"derived\": {");
	derived_write_json_fields(s, cfg, out);
	fprintf(out, "},\n  \"trace_records\": %zu, \"trace_dropped\": %llu%s%s\n}\n", trace->n,
	        (unsigned long long)trace->dropped, more ? ",\n  " : "", more ? more : "");
}
