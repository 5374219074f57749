/*
 * pathfinder/host.c -- host driver of the pathfinder benchmark: cheapest
 * top-to-bottom path costs through a rows x cols grid of costs 0..9.
 *
 * Row 0 is copied to the device as the first cost row; each launch then
 * advances up to `halo` rows (the last launch the remainder), ping-ponging
 * between two device cost rows.  cols is not a multiple of a CTA's
 * PF_THREADS - 2*halo owned columns, so the last CTA is partial.  The
 * destination row is filled with a sentinel (-1; real costs are >= 0)
 * before every launch, and the final row is compared exactly with a CPU
 * run of the same recurrence.
 */
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"

extern const char ws_bench_ptx_pathfinder[];

#define PF_THREADS 256 /* 8 warps per CTA, as kernel.cu */

static const struct {
	int rows, cols, halo; /* halo: rows per launch (ghost-zone width) */
} pf_sizes[WS_SIZE_COUNT] = {
    {7, 400, 4},       /* 2 CTAs x 2 launches (4, 2 rows) */
    {18, 2000, 8},     /* 9 CTAs x 3 launches (8, 8, 1 rows) */
    {41, 60000, 16},   /* 268 CTAs (3 waves of 6 CTAs/SM on 15 SMs) x 3 launches (16, 16, 8 rows) */
    {100, 100000, 20}, /* paper-kaws: 463 CTAs x 5 launches (20, 20, 20, 20, 19 rows): KAWS Table 2's PF, Rodinia's
                          `pathfinder 100000 100 20` */
};

static ws_result pathfinder_run(ws_sim *sim, ws_module *mod, enum ws_bench_size size, struct ws_bench_out *out)
{
	if ((unsigned)size >= WS_SIZE_COUNT)
		return bench_fail(NULL, out, WS_ERROR_INVALID_VALUE, "pathfinder: size");
	ws_result rc = WS_SUCCESS;
	int rows = pf_sizes[size].rows, cols = pf_sizes[size].cols, halo = pf_sizes[size].halo;
	size_t cells = (size_t)rows * cols, row_bytes = (size_t)cols * sizeof(int);
	int *wall = malloc(cells * sizeof(int)), *cost = malloc(row_bytes), *next = malloc(row_bytes),
	    *got = malloc(row_bytes);
	ws_deviceptr d[3]; /* wall, cost-row ping-pong buffers */
	const size_t d_bytes[3] = {cells * sizeof(int), row_bytes, row_bytes};
	int nd = 0;
	ws_function *fn;

	if (!wall || !cost || !next || !got) {
		rc = bench_fail(NULL, out, WS_ERROR_OUT_OF_MEMORY, "pathfinder: host buffers");
		goto done;
	}
	struct bench_rng rng;
	bench_rng_seed(&rng, 33);
	for (size_t i = 0; i < cells; i++)
		wall[i] = (int)bench_rng_u32(&rng, 10);

	BENCH_CALL(wsModuleGetFunction(&fn, mod, "pathfinder"));
	for (; nd < 3; nd++)
		BENCH_CALL(wsMemAlloc(sim, &d[nd], d_bytes[nd]));
	BENCH_CALL(wsMemcpyHtoD(sim, d[0], wall, d_bytes[0]));
	BENCH_CALL(wsMemcpyHtoD(sim, d[1], wall, row_bytes)); /* cost of row 0 */
	int owned = PF_THREADS - 2 * halo;
	unsigned ctas = (unsigned)((cols + owned - 1) / owned);
	int src = 1;
	for (int first = 0; first < rows - 1; first += halo, src = 3 - src) {
		int dst = 3 - src, steps = rows - 1 - first < halo ? rows - 1 - first : halo;
		BENCH_CALL(wsMemsetD32(sim, d[dst], 0xffffffffu, (size_t)cols)); /* -1: catches unwritten columns */
		void *args[] = {&d[0], &d[src], &d[dst], &cols, &first, &steps, &halo};
		BENCH_CALL(wsLaunchKernel(fn, ctas, 1, 1, PF_THREADS, 1, 1, 0, args));
		out->launches++;
	}
	BENCH_CALL(wsMemcpyDtoH(sim, got, d[src], row_bytes));

	for (int c = 0; c < cols; c++)
		cost[c] = wall[c];
	for (int r = 1; r < rows; r++) {
		for (int c = 0; c < cols; c++) {
			int m = cost[c];
			if (c > 0 && cost[c - 1] < m)
				m = cost[c - 1];
			if (c < cols - 1 && cost[c + 1] < m)
				m = cost[c + 1];
			next[c] = m + wall[(size_t)r * cols + c];
		}
		int *x = cost;
		cost = next;
		next = x;
	}
	for (int c = 0; c < cols; c++) {
		if (got[c] != cost[c]) {
			rc = bench_mismatch(out, "pathfinder: cost[%d] (last row %d, %d columns): expected %d, got %d",
			                    c, rows - 1, cols, cost[c], got[c]);
			goto done;
		}
	}
	snprintf(out->msg, sizeof out->msg, "pathfinder: %dx%d grid, last-row costs verified", rows, cols);
done:
	while (nd > 0)
		wsMemFree(sim, d[--nd]);
	free(wall);
	free(cost);
	free(next);
	free(got);
	return rc;
}

const struct ws_bench_info bench_pathfinder = {
    .name = "pathfinder",
    .description = "min-cost path dynamic programming, several rows per launch in shared memory (ghost zone)",
    .sync = "lightly synchronized: one __syncthreads per row (double-buffered row in shared memory)",
    .paper = "BAWS 6.5, KAWS, DWR (DYN)",
    .ctas_per_sm = 0,
    .warps_per_cta = PF_THREADS / 32,
    .sizes = {"7 rows x 400 columns, 4 rows/launch (2 CTAs x 2 launches)",
              "18 x 2000, 8 rows/launch (9 CTAs x 3 launches)", "41 x 60000, 16 rows/launch (268 CTAs x 3 launches)",
              "100 x 100000, 20 rows/launch (463 CTAs x 5 launches: the KAWS paper's PF, Rodinia's input)"},
    .ptx = ws_bench_ptx_pathfinder,
    .run = pathfinder_run,
};
