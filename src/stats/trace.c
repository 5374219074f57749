/*
 * trace.c -- warp-phase trace storage and its SVG / Chrome-trace writers.
 */
#include <stdlib.h>
#include <stdio.h>

#include "stats/trace.h"

bool trace_add(struct phase_trace *t, const struct phase_event *e)
{
	if (t->n >= t->max) {
		t->dropped++;
		return false;
	}
	if (t->n == t->cap) {
		size_t nc = t->cap ? t->cap * 2 : 1024;
		struct phase_event *n = realloc(t->ev, nc * sizeof *n);
		if (!n) {
			t->dropped++;
			return false;
		}
		t->ev = n;
		t->cap = nc;
	}
	t->ev[t->n++] = *e;
	return true;
}

void trace_free(struct phase_trace *t)
{
	free(t->ev);
	t->ev = NULL;
	t->n = t->cap = 0;
}

void trace_write_chrome(const struct phase_trace *t, FILE *out)
{
	/* timestamps are in cycles, written as microseconds: 1 us on the time axis = 1 cycle */
	fprintf(out,
		"{\"displayTimeUnit\": \"ns\", \"otherData\": {\"time_unit\": \"1 us = 1 core cycle\", "
		"\"records\": %zu, \"dropped_records\": %llu%s},\n \"traceEvents\": [\n",
		t->n, (unsigned long long)t->dropped,
		t->dropped ? ", \"incomplete\": \"records past trace_max_events were dropped\"" : "");
	/* one process per SM, named once (in order of first appearance); a
	 * trace with dropped records says so in every process name */
	const char *inc = t->dropped ? " (INCOMPLETE: records past trace_max_events dropped)" : "";
	uint64_t named[16] = {0}; /* SMs whose process_name is written (SM ids below 1024) */
	const char *sep = "  ";
	for (size_t i = 0; i < t->n; i++) {
		const struct phase_event *e = &t->ev[i];
		unsigned tid = e->cta * 1024 + e->warp;
		if (e->sm >= 1024 || !(named[e->sm >> 6] >> (e->sm & 63) & 1)) {
			if (e->sm < 1024)
				named[e->sm >> 6] |= 1ull << (e->sm & 63);
			fprintf(out, "%s{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": %u, "
				     "\"args\": {\"name\": \"SM %u%s\"}}",
				sep, e->sm, e->sm, inc);
			sep = ",\n  ";
		}
		fprintf(out, "%s{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": %u, \"tid\": %u, "
			     "\"args\": {\"name\": \"CTA %u warp %u\"}}",
			sep, e->sm, tid, e->cta, e->warp);
		sep = ",\n  ";
		fprintf(out, ",\n  {\"name\": \"phase %u\", \"cat\": \"run\", \"ph\": \"X\", \"pid\": %u, \"tid\": %u, "
			     "\"ts\": %llu, \"dur\": %llu, \"args\": {\"launch\": %u, \"cta\": %u, \"warp\": %u}}",
			e->phase, e->sm, tid, (unsigned long long)e->start, (unsigned long long)(e->arrive - e->start),
			e->launch, e->cta, e->warp);
		if (e->end > e->arrive)
			fprintf(out, ",\n  {\"name\": \"%s wait\", \"cat\": \"%s\", \"ph\": \"X\", \"pid\": %u, "
				     "\"tid\": %u, \"ts\": %llu, \"dur\": %llu}",
				e->exit ? "exit" : "barrier", e->exit ? "exit" : "barrier", e->sm, tid,
				(unsigned long long)e->arrive, (unsigned long long)(e->end - e->arrive));
	}
	fprintf(out, "\n ]}\n");
}

/* The colour of warp-phase p: hues a golden angle apart, so neighbouring
 * phases differ strongly and no two of the first hundreds coincide. */
static void phase_color(uint32_t p, char buf[24])
{
	unsigned h = (unsigned)((uint64_t)p * 137508u / 1000u % 360u);
	unsigned l = p % 2 ? 42 : 55; /* alternate lightness too */
	snprintf(buf, 24, "hsl(%u,60%%,%u%%)", h, l);
}

/* Why a timeline selection has no records: which launches, SMs and CTAs do. */
static void explain_empty(const struct phase_trace *t, uint32_t launch, uint32_t sm, uint32_t cta_lo, uint32_t cta_hi,
			  char *buf, size_t bufsz)
{
	size_t n = 0;
	if (!t->n) {
		snprintf(buf, bufsz,
			 "no warp-phase records at all: the run recorded none (a functional run, trace_phases=0, or "
			 "trace_max_events reached before the first record)");
		return;
	}
	uint32_t maxl = 0, sm_lo = UINT32_MAX, sm_hi = 0, c_lo = UINT32_MAX, c_hi = 0, nsm = 0;
	bool on_launch = false;
	for (size_t i = 0; i < t->n; i++) {
		const struct phase_event *e = &t->ev[i];
		if (e->launch > maxl)
			maxl = e->launch;
		if (e->launch != launch)
			continue;
		on_launch = true;
		sm_lo = e->sm < sm_lo ? e->sm : sm_lo;
		sm_hi = e->sm > sm_hi ? e->sm : sm_hi;
		if (e->sm == sm) {
			nsm++;
			c_lo = e->cta < c_lo ? e->cta : c_lo;
			c_hi = e->cta > c_hi ? e->cta : c_hi;
		}
	}
	if (!on_launch)
		n = (size_t)snprintf(buf, bufsz, "launch %u has no records: the run had launches 1-%u", launch, maxl);
	else if (!nsm)
		n = (size_t)snprintf(buf, bufsz, "SM %u ran no CTA of launch %u: SMs %u-%u did", sm, launch, sm_lo, sm_hi);
	else
		n = (size_t)snprintf(buf, bufsz, "SM %u ran none of CTAs %u-%u in launch %u: it ran CTAs between %u and %u",
				     sm, cta_lo, cta_hi, launch, c_lo, c_hi);
	if (t->dropped && n < bufsz)
		snprintf(buf + n, bufsz - n, " (%llu records past trace_max_events were dropped)",
			 (unsigned long long)t->dropped);
}

size_t trace_write_svg(const struct phase_trace *t, FILE *out, uint32_t launch, uint32_t sm, uint32_t cta_lo,
		       uint32_t cta_hi, char *why, size_t whysz)
{
	if (launch == 0)
		for (size_t i = 0; i < t->n; i++)
			if (t->ev[i].launch > launch)
				launch = t->ev[i].launch;
	/* rows: (cta, warp) pairs in order of appearance sorted by cta then warp */
	uint64_t tmin = UINT64_MAX, tmax = 0;
	uint32_t maxwarp = 0, ncta = 0, seen[1024];
	for (size_t i = 0; i < t->n; i++) {
		const struct phase_event *e = &t->ev[i];
		if (e->launch != launch || e->sm != sm || e->cta < cta_lo || e->cta > cta_hi)
			continue;
		if (e->start < tmin)
			tmin = e->start;
		if (e->end > tmax)
			tmax = e->end;
		if (e->warp > maxwarp)
			maxwarp = e->warp;
		uint32_t k;
		for (k = 0; k < ncta && seen[k] != e->cta; k++)
			;
		if (k == ncta && ncta < 1024)
			seen[ncta++] = e->cta;
	}
	for (uint32_t i = 1; i < ncta; i++) /* sort CTA ids */
		for (uint32_t j = i; j > 0 && seen[j - 1] > seen[j]; j--) {
			uint32_t x = seen[j];
			seen[j] = seen[j - 1];
			seen[j - 1] = x;
		}
	uint32_t rows = ncta * (maxwarp + 1);
	const double W = 1000, left = 110, top = 40, rowh = 12;
	double H = top + rows * rowh + (t->dropped ? 125 : 105);
	fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" font-family=\"sans-serif\" "
		     "font-size=\"10\">\n",
		W + left + 20, H);
	fprintf(out, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
	if (!rows || tmax <= tmin) {
		char buf[512];
		explain_empty(t, launch, sm, cta_lo, cta_hi, buf, sizeof buf);
		if (why && whysz)
			snprintf(why, whysz, "%s", buf);
		fprintf(out, "<text x=\"10\" y=\"20\">nothing to draw: %s</text>\n</svg>\n", buf);
		return 0;
	}
	size_t drawn = 0;
	uint32_t maxphase = 0;
	double scale = W / (double)(tmax - tmin);
	fprintf(out, "<text x=\"%.0f\" y=\"16\" font-size=\"13\">Warp-phases on SM %u, launch %u (cycles %llu-%llu); "
		     "colour = warp-phase, grey = waiting at a barrier, black = waiting at the exit</text>\n",
		left, sm, launch, (unsigned long long)tmin, (unsigned long long)tmax);
	for (size_t i = 0; i < t->n; i++) {
		const struct phase_event *e = &t->ev[i];
		if (e->launch != launch || e->sm != sm || e->cta < cta_lo || e->cta > cta_hi)
			continue;
		uint32_t ci;
		for (ci = 0; ci < ncta && seen[ci] != e->cta; ci++)
			;
		double y = top + (ci * (maxwarp + 1) + e->warp) * rowh;
		double x0 = left + (e->start - tmin) * scale, x1 = left + (e->arrive - tmin) * scale;
		double x2 = left + (e->end - tmin) * scale;
		char col[24];
		phase_color(e->phase, col);
		fprintf(out, "<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%.1f\" fill=\"%s\"><title>CTA %u warp %u "
			     "phase %u: %llu-%llu</title></rect>\n",
			x0, y, x1 - x0 > 0.3 ? x1 - x0 : 0.3, rowh - 2, col, e->cta, e->warp, e->phase,
			(unsigned long long)e->start, (unsigned long long)e->arrive);
		drawn++;
		maxphase = e->phase > maxphase ? e->phase : maxphase;
		if (x2 > x1)
			fprintf(out, "<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%.1f\" fill=\"%s\"/>\n", x1,
				y + 3, x2 - x1, rowh - 8, e->exit ? "#222" : "#bbb");
	}
	for (uint32_t ci = 0; ci < ncta; ci++)
		for (uint32_t w = 0; w <= maxwarp; w++)
			fprintf(out, "<text x=\"4\" y=\"%.1f\">CTA %u w%u</text>\n",
				top + (ci * (maxwarp + 1) + w) * rowh + rowh - 3, seen[ci], w);
	double ya = top + rows * rowh + 15;
	fprintf(out, "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"black\"/>\n", left, ya, left + W, ya);
	for (int k = 0; k <= 5; k++) {
		double x = left + W * k / 5;
		fprintf(out, "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"middle\">%llu</text>\n", x, ya + 14,
			(unsigned long long)(tmin + (tmax - tmin) * (uint64_t)k / 5));
	}
	fprintf(out, "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"middle\">cycle</text>\n", left + W / 2, ya + 30);
	/* legend: the phases' colours (up to 24 of them), barrier and exit waits */
	double yl = ya + 44, xl = left;
	for (uint32_t p = 0; p <= maxphase && p < 24; p++, xl += 60) {
		char col[24];
		phase_color(p, col);
		fprintf(out, "<rect x=\"%.0f\" y=\"%.0f\" width=\"10\" height=\"10\" fill=\"%s\"/>"
			     "<text x=\"%.0f\" y=\"%.0f\">phase %u</text>\n",
			xl, yl, col, xl + 13, yl + 9, p);
	}
	if (maxphase >= 24)
		fprintf(out, "<text x=\"%.0f\" y=\"%.0f\">... phase %u</text>\n", xl, yl + 9, maxphase);
	fprintf(out, "<rect x=\"%.0f\" y=\"%.0f\" width=\"10\" height=\"10\" fill=\"#bbb\"/><text x=\"%.0f\" "
		     "y=\"%.0f\">barrier wait</text>\n<rect x=\"%.0f\" y=\"%.0f\" width=\"10\" height=\"10\" "
		     "fill=\"#222\"/><text x=\"%.0f\" y=\"%.0f\">exit wait</text>\n",
		left, yl + 16, left + 13, yl + 25, left + 100, yl + 16, left + 113, yl + 25);
	if (t->dropped)
		fprintf(out, "<text x=\"%.0f\" y=\"%.0f\" fill=\"#c00\" font-size=\"12\">INCOMPLETE: %llu warp-phase "
			     "records past trace_max_events were dropped</text>\n",
			left, yl + 42, (unsigned long long)t->dropped);
	fprintf(out, "</svg>\n");
	return drawn;
}
