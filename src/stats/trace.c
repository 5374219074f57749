/*
 * trace.c -- warp-phase trace storage and its SVG / Chrome-trace writers.
 */
#include <stdlib.h>

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
	fprintf(out, "{\"displayTimeUnit\": \"ns\", \"otherData\": {\"time_unit\": \"1 us = 1 core cycle\"},\n"
		     " \"traceEvents\": [\n");
	int first = 1;
	for (size_t i = 0; i < t->n; i++) {
		const struct phase_event *e = &t->ev[i];
		unsigned tid = e->cta * 1024 + e->warp;
		if (first)
			fprintf(out, "  {\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": %u, \"tid\": %u, "
				     "\"args\": {\"name\": \"CTA %u warp %u\"}}",
				e->sm, tid, e->cta, e->warp);
		else
			fprintf(out, ",\n  {\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": %u, \"tid\": %u, "
				     "\"args\": {\"name\": \"CTA %u warp %u\"}}",
				e->sm, tid, e->cta, e->warp);
		first = 0;
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

static const char *const phase_colors[] = {"#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2",
					   "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#86bcb6"};

void trace_write_svg(const struct phase_trace *t, FILE *out, uint32_t launch, uint32_t sm, uint32_t cta_lo,
		     uint32_t cta_hi)
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
	double H = top + rows * rowh + 50;
	fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" font-family=\"sans-serif\" "
		     "font-size=\"10\">\n",
		W + left + 20, H);
	fprintf(out, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
	if (!rows || tmax <= tmin) {
		fprintf(out, "<text x=\"10\" y=\"20\">no warp-phase records for launch %u, SM %u, CTAs %u-%u "
			     "(run with trace_phases=1)</text>\n</svg>\n",
			launch, sm, cta_lo, cta_hi);
		return;
	}
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
		fprintf(out, "<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%.1f\" fill=\"%s\"><title>CTA %u warp %u "
			     "phase %u: %llu-%llu</title></rect>\n",
			x0, y, x1 - x0 > 0.3 ? x1 - x0 : 0.3, rowh - 2, phase_colors[e->phase % 10], e->cta, e->warp,
			e->phase, (unsigned long long)e->start, (unsigned long long)e->arrive);
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
	fprintf(out, "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"middle\">cycle</text>\n</svg>\n", left + W / 2, ya + 30);
}
