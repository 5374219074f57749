/*
 * trace.h -- the warp-phase trace: one record per warp per warp-phase.
 *
 * Models no hardware.  A warp-phase (BAWS paper, Section 3) is the part of
 * a warp's execution between two consecutive barriers of its CTA (or the
 * CTA's launch and its first barrier, or its last barrier and the exit
 * point).  For each, the timing model records when the phase started for
 * the CTA, when this warp arrived at the barrier (or finished), and when the
 * barrier released (or the CTA completed).  Writers turn the records into
 * an SVG timeline (warps against cycles, like the paper's Figures 3, 4, 6)
 * and a Chrome trace-event JSON file that Perfetto opens.
 */
#ifndef WARPSIM_STATS_TRACE_H
#define WARPSIM_STATS_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct phase_event {
	uint32_t launch;  /* kernel launch number (1-based) */
	uint32_t sm;
	uint32_t cta;     /* linear CTA id */
	uint32_t warp;    /* warp index within the CTA */
	uint32_t phase;   /* warp-phase index within the CTA (0-based) */
	uint8_t exit;     /* the phase ends at the exit point, not a barrier */
	uint64_t start, arrive, end;
};

struct phase_trace {
	struct phase_event *ev;
	size_t n, cap, max;
	uint64_t dropped;
};

/* Append one record; beyond `max` records they are counted in `dropped`. */
bool trace_add(struct phase_trace *t, const struct phase_event *e);
void trace_free(struct phase_trace *t);
/* Chrome trace-event format ("traceEvents"), one process per SM (named "SM
 * N"), one thread per warp; otherData gives the record and dropped counts. */
void trace_write_chrome(const struct phase_trace *t, FILE *out);
/* SVG timeline of launch `launch` (0 = the last one), SM `sm`, CTAs [cta_lo,
 * cta_hi], with a colour legend and, when records were dropped, a visible
 * INCOMPLETE mark.  Returns the records drawn; when none match, the picture
 * and `why` (may be NULL) say which launches, SMs and CTAs have records. */
size_t trace_write_svg(const struct phase_trace *t, FILE *out, uint32_t launch, uint32_t sm, uint32_t cta_lo,
		       uint32_t cta_hi, char *why, size_t whysz);

#endif
