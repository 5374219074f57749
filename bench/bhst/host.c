/*
 * bhst/host.c -- host driver of the BOWS suite's BH-ST (Barnes-Hut sort,
 * wait-and-signal).  The host builds the quadtree of the bodies
 * (bh_tree.h), renumbers its cells in reverse breadth-first order (so every
 * cell's index is below its parent's and the root is the last cell, as
 * Burtscher's top-down cell allocation leaves them) and counts the bodies
 * under every cell.  The kernel then hands out start positions top-down.
 *
 * The output is determined by the tree (an in-order walk: quadrants 0..3,
 * a cell's bodies contiguous), not by the order in which threads ran, so
 * the check compares sorted[] element by element with the CPU's.  The grid
 * must be resident all at once (a cell's parent may belong to any thread):
 * a few CTAs, as in Burtscher's kernel.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "bh_tree.h"

extern const char ws_bench_ptx_bhst[];

#define BHST_THREADS 256

static const struct {
	int n, ctas;
} bhst_sizes[WS_SIZE_COUNT] = {
    {512, 1}, {4000, 4}, {30000, 30}, /* the paper's 30,000 bodies */
};

static ws_result bhst_run(ws_sim *sim, ws_module *mod, enum ws_bench_size size, struct ws_bench_out *out)
{
	if ((unsigned)size >= WS_SIZE_COUNT)
		return bench_fail(NULL, out, WS_ERROR_INVALID_VALUE, "bhst: size");
	ws_result rc = WS_SUCCESS;
	int n = bhst_sizes[size].n;
	unsigned grid = (unsigned)bhst_sizes[size].ctas;
	struct bh_tree t = {0};
	int32_t *child = NULL, *count = NULL, *start = NULL, *order = NULL, *newid = NULL, *want = NULL, *got = NULL;
	uint32_t *ux = malloc((size_t)n * 4), *uy = malloc((size_t)n * 4);
	ws_deviceptr d[4];
	int nd = 0;
	ws_function *fn;

	if (!ux || !uy) {
		rc = bench_fail(NULL, out, WS_ERROR_OUT_OF_MEMORY, "bhst: host buffers");
		goto done;
	}
	bh_bodies(15, n, ux, uy);
	if (bh_build(&t, n, ux, uy) != 0) {
		rc = bench_fail(NULL, out, WS_ERROR_OUT_OF_MEMORY, "bhst: quadtree");
		goto done;
	}
	int nc = t.ncells;
	child = malloc((size_t)nc * 16);
	count = calloc((size_t)nc, 4);
	start = malloc((size_t)nc * 4);
	order = malloc((size_t)nc * 4);
	newid = malloc((size_t)nc * 4);
	want = malloc((size_t)n * 4);
	got = malloc((size_t)n * 4);
	if (!child || !count || !start || !order || !newid || !want || !got) {
		rc = bench_fail(NULL, out, WS_ERROR_OUT_OF_MEMORY, "bhst: host buffers");
		goto done;
	}
	/* breadth-first order of the cells; BFS rank r becomes index nc-1-r */
	int head = 0, tail = 0;
	order[tail++] = 0;
	while (head < tail) {
		int c = order[head++];
		for (int q = 0; q < 4; q++)
			if (t.child[c * 4 + q] >= n)
				order[tail++] = t.child[c * 4 + q] - n;
	}
	for (int r = 0; r < nc; r++)
		newid[order[r]] = nc - 1 - r;
	for (int c = 0; c < nc; c++)
		for (int q = 0; q < 4; q++) {
			int ch = t.child[c * 4 + q];
			child[newid[c] * 4 + q] = ch >= n ? n + newid[ch - n] : ch;
		}
	/* bodies under each cell: children (lower indices) first */
	for (int c = 0; c < nc; c++)
		for (int q = 0; q < 4; q++) {
			int ch = child[c * 4 + q];
			count[c] += ch >= n ? count[ch - n] : ch >= 0 ? 1 : 0;
		}
	/* CPU reference: the same top-down hand-out, sequentially */
	for (int c = 0; c < nc; c++)
		start[c] = -1;
	start[nc - 1] = 0;
	for (int k = nc - 1; k >= 0; k--) {
		int s = start[k];
		for (int q = 0; q < 4; q++) {
			int ch = child[k * 4 + q];
			if (ch >= n) {
				start[ch - n] = s;
				s += count[ch - n];
			} else if (ch >= 0) {
				want[s++] = ch;
			}
		}
	}
	for (int c = 0; c < nc; c++)
		start[c] = -1;
	start[nc - 1] = 0;

	BENCH_CALL(wsModuleGetFunction(&fn, mod, "bhst"));
	const size_t d_bytes[4] = {(size_t)nc * 16, (size_t)nc * 4, (size_t)nc * 4, (size_t)n * 4};
	for (; nd < 4; nd++)
		BENCH_CALL(wsMemAlloc(sim, &d[nd], d_bytes[nd]));
	BENCH_CALL(wsMemcpyHtoD(sim, d[0], child, d_bytes[0]));
	BENCH_CALL(wsMemcpyHtoD(sim, d[1], count, d_bytes[1]));
	BENCH_CALL(wsMemcpyHtoD(sim, d[2], start, d_bytes[2]));
	BENCH_CALL(wsMemsetD32(sim, d[3], 0xffffffffu, (size_t)n));
	void *args[] = {&d[0], &d[1], &n, &nc, &d[2], &d[3]};
	BENCH_CALL(wsLaunchKernel(fn, grid, 1, 1, BHST_THREADS, 1, 1, 0, args));
	out->launches++;
	BENCH_CALL(wsMemcpyDtoH(sim, got, d[3], d_bytes[3]));
	for (int i = 0; i < n; i++)
		if (got[i] != want[i]) {
			rc = bench_mismatch(out, "bhst: sorted[%d]: expected body %d, got %d", i, want[i], got[i]);
			goto done;
		}
	snprintf(out->msg, sizeof out->msg, "bhst: %d bodies in %d cells sorted by %u threads verified", n, nc,
	         grid * BHST_THREADS);
done:
	while (nd > 0)
		wsMemFree(sim, d[--nd]);
	bh_free(&t);
	free(ux);
	free(uy);
	free(child);
	free(count);
	free(start);
	free(order);
	free(newid);
	free(want);
	free(got);
	return rc;
}

static const struct ws_sib_note bhst_sibs[] = {
    {"bhst", 164, "cell loop: start[k] not yet signalled by the parent's thread, poll again"},
    {NULL, 0, NULL},
};

const struct ws_bench_info bench_bhst = {
    .name = "bhst",
    .description = "Barnes-Hut sort: bodies written in quadtree order, start positions handed out top-down",
    .sync = "wait and signal: a thread polls start[cell] (volatile) until the thread of the parent cell sets it, "
            "then signals the children",
    .paper = "BOWS (BH-ST)",
    .ctas_per_sm = 0,
    .warps_per_cta = BHST_THREADS / 32,
    .sizes = {"512 bodies (1 CTA)", "4000 bodies (4 CTAs)", "30,000 bodies (30 CTAs)"},
    .ptx = ws_bench_ptx_bhst,
    .sibs = bhst_sibs,
    .run = bhst_run,
};
