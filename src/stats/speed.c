/*
 * speed.c -- measuring and printing the simulator's own speed (wall time,
 * warp and thread instructions per second, simulated cycles per second).
 *
 * Models no hardware.  The speed figures are host wall-clock measurements
 * of the simulator (taken here, outside the model, which never reads a
 * clock), read through the public API (include/warpsim.h) only.  Shared by
 * the `warpsim` subcommands and the CUDA runtime library (src/cudart/).
 */
#include <string.h>
#include <time.h>

#include "stats/speed.h"

double speed_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void speed_collect(const ws_sim *sim, double wall, struct speed *s)
{
	memset(s, 0, sizeof *s);
	s->wall = wall;
	s->have_warp = wsStatsGet(sim, "warp_insts", &s->warp_insts) == WS_SUCCESS;
	s->have_thread = wsStatsGet(sim, "thread_insts", &s->thread_insts) == WS_SUCCESS;
	s->have_cycles = wsStatsGet(sim, "cycles", &s->cycles) == WS_SUCCESS;
	if (!s->have_warp)
		s->warp_insts = 0;
	if (!s->have_thread)
		s->thread_insts = 0;
	if (!s->have_cycles)
		s->cycles = 0;
	wsSimHostWork(sim, &s->sm_ticks, &s->sm_slept, &s->skipped);
}

static void print_rate(uint64_t n, double wall, const char *unit, FILE *out)
{
	if (wall > 0)
		fprintf(out, "  %.3e %s/s", (double)n / wall, unit);
	else
		fprintf(out, "  (run too short to measure a rate)");
}

void speed_print(const struct speed *s, FILE *out)
{
	speed_print_for(s, "the benchmark run", out);
}

void speed_print_for(const struct speed *s, const char *what, FILE *out)
{
	fprintf(out, "simulator speed (host wall-clock time of %s):\n", what);
	fprintf(out, "  %-22s %.6f s\n", "wall time", s->wall);
	if (s->have_warp) {
		fprintf(out, "  %-22s %-14llu", "warp instructions", (unsigned long long)s->warp_insts);
		print_rate(s->warp_insts, s->wall, "warp-insts", out);
		fputc('\n', out);
	} else {
		fprintf(out, "  %-22s n/a (no counter 'warp_insts')\n", "warp instructions");
	}
	if (s->have_thread) {
		fprintf(out, "  %-22s %-14llu", "thread instructions", (unsigned long long)s->thread_insts);
		print_rate(s->thread_insts, s->wall, "thread-insts", out);
		fputc('\n', out);
		fprintf(out, "  (thread instructions count each active thread of each executed warp instruction,\n"
		             "   as GPGPU-Sim does)\n");
	} else {
		fprintf(out, "  %-22s n/a (no counter 'thread_insts')\n", "thread instructions");
	}
	if (s->have_cycles && s->cycles > 0) {
		fprintf(out, "  %-22s %-14llu", "simulated cycles", (unsigned long long)s->cycles);
		print_rate(s->cycles, s->wall, "cycles", out);
		fputc('\n', out);
	}
	if (s->sm_ticks || s->sm_slept) { /* the timing model ran */
		fprintf(out, "  %-22s %-14llu  (%.1f%% of busy SM cycles skipped asleep: sleep)\n", "SM ticks",
			(unsigned long long)s->sm_ticks, 100.0 * (double)s->sm_slept / (double)(s->sm_ticks + s->sm_slept));
		if (s->have_cycles && s->cycles)
			fprintf(out, "  %-22s %-14llu  (%.1f%% of the cycles: nothing could happen in them)\n",
				"cycles skipped whole", (unsigned long long)s->skipped,
				100.0 * (double)s->skipped / (double)s->cycles);
	}
}
