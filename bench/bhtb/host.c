/*
 * bhtb/host.c -- host driver of the BOWS suite's BH-TB (Barnes-Hut tree
 * build with locks and barrier throttling).  The grid is small on purpose,
 * as in Burtscher's kernel (a few CTAs, each thread inserting many bodies).
 *
 * The check is order-independent: the quadtree of a set of bodies is
 * unique (bh_tree.h), so the GPU's tree must have the CPU reference's
 * number of cells, every slot must be unlocked, every body must appear
 * exactly once, in the slot its coordinates select at every level on the
 * way down, every cell's level must be its parent's plus one, and every
 * cell but the root must hold at least two bodies (no needless split).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "bh_tree.h"

extern const char ws_bench_ptx_bhtb[];

#define BHTB_THREADS 256

static const struct {
	int n, ctas;
} bhtb_sizes[WS_SIZE_COUNT] = {
    {512, 1},    /* 256 threads x 2 bodies */
    {4000, 4},   /* 1024 threads, ~4 bodies each */
    {30000, 30}, /* the paper's 30,000 bodies, 2 CTAs per SM on the GTX480 */
};

struct bhtb_walk {
	int n, cap, cells, bodies;
	const int32_t *child, *depth;
	const uint32_t *ux, *uy;
	uint8_t *seen;
	struct ws_bench_out *out;
};

/* Walk the subtree of cell c (at level d); returns its body count, or -1 on a mismatch (out->msg set). */
static int bhtb_walk(struct bhtb_walk *w, int c, int d)
{
	if (d >= BH_BITS) { /* deeper than two distinct grid points can share a cell */
		bench_mismatch(w->out, "bhtb: cell %d: expected a level below %d, got %d", c, BH_BITS, d);
		return -1;
	}
	if (w->depth[c] != d) {
		bench_mismatch(w->out, "bhtb: cell %d: expected level %d, got %d", c, d, w->depth[c]);
		return -1;
	}
	w->cells++;
	int total = 0;
	for (int q = 0; q < 4; q++) {
		int ch = w->child[c * 4 + q];
		if (ch == -1)
			continue;
		if (ch == -2 || ch < -2 || ch >= w->n + w->cap) {
			bench_mismatch(w->out, "bhtb: cell %d quadrant %d: expected empty, a body or a cell, got %d%s",
			               c, q, ch, ch == -2 ? " (still locked)" : "");
			return -1;
		}
		if (ch < w->n) {
			if (w->seen[ch]) {
				bench_mismatch(w->out, "bhtb: body %d: expected once in the tree, got twice", ch);
				return -1;
			}
			w->seen[ch] = 1;
			w->bodies++;
			total++;
			continue;
		}
		int k = ch - w->n;
		int sub = bhtb_walk(w, k, d + 1);
		if (sub < 0)
			return -1;
		if (sub < 2) {
			bench_mismatch(
			    w->out, "bhtb: cell %d: expected at least 2 bodies (else it is a needless split), got %d",
			    k, sub);
			return -1;
		}
		total += sub;
	}
	return total;
}

/* Body b must be found by descending from the root along its own quadrants. */
static int bhtb_find(const int32_t *child, const int32_t *depth, int n, int b, uint32_t x, uint32_t y)
{
	int node = 0, ch = child[bh_quad(x, y, 0)], steps = 0;
	while (ch >= n && steps++ < BH_BITS + 1) {
		node = ch - n;
		ch = child[node * 4 + bh_quad(x, y, depth[node])];
	}
	return ch == b;
}

static ws_result bhtb_run(ws_sim *sim, ws_module *mod, enum ws_bench_size size, struct ws_bench_out *out)
{
	if ((unsigned)size >= WS_SIZE_COUNT)
		return bench_fail(NULL, out, WS_ERROR_INVALID_VALUE, "bhtb: size");
	ws_result rc = WS_SUCCESS;
	int n = bhtb_sizes[size].n, cap = bh_capacity(n), ncells = 1;
	unsigned grid = (unsigned)bhtb_sizes[size].ctas;
	struct bh_tree ref = {0};
	/* device buffers: ux, uy, child, depth, ncells */
	const size_t d_bytes[5] = {(size_t)n * 4, (size_t)n * 4, (size_t)cap * 16, (size_t)cap * 4, 4};
	uint32_t *ux = malloc(d_bytes[0]), *uy = malloc(d_bytes[1]);
	int32_t *child = malloc(d_bytes[2]), *depth = malloc(d_bytes[3]);
	uint8_t *seen = calloc((size_t)n, 1);
	ws_deviceptr d[5];
	int nd = 0;
	ws_function *fn;

	if (!ux || !uy || !child || !depth || !seen) {
		rc = bench_fail(NULL, out, WS_ERROR_OUT_OF_MEMORY, "bhtb: host buffers");
		goto done;
	}
	bh_bodies(14, n, ux, uy);
	if (bh_build(&ref, n, ux, uy) != 0) {
		rc = bench_fail(NULL, out, WS_ERROR_OUT_OF_MEMORY, "bhtb: CPU reference tree");
		goto done;
	}
	/* the root: level 0, four empty quadrants */
	memset(child, 0xff, d_bytes[2]);
	memset(depth, 0, d_bytes[3]);

	BENCH_CALL(wsModuleGetFunction(&fn, mod, "bhtb"));
	for (; nd < 5; nd++)
		BENCH_CALL(wsMemAlloc(sim, &d[nd], d_bytes[nd]));
	BENCH_CALL(wsMemcpyHtoD(sim, d[0], ux, d_bytes[0]));
	BENCH_CALL(wsMemcpyHtoD(sim, d[1], uy, d_bytes[1]));
	BENCH_CALL(wsMemcpyHtoD(sim, d[2], child, d_bytes[2]));
	BENCH_CALL(wsMemcpyHtoD(sim, d[3], depth, d_bytes[3]));
	BENCH_CALL(wsMemcpyHtoD(sim, d[4], &ncells, 4));
	void *args[] = {&d[0], &d[1], &n, &d[2], &d[3], &d[4]};
	BENCH_CALL(wsLaunchKernel(fn, grid, 1, 1, BHTB_THREADS, 1, 1, 0, args));
	out->launches++;
	BENCH_CALL(wsMemcpyDtoH(sim, child, d[2], d_bytes[2]));
	BENCH_CALL(wsMemcpyDtoH(sim, depth, d[3], d_bytes[3]));
	BENCH_CALL(wsMemcpyDtoH(sim, &ncells, d[4], 4));

	if (ncells != ref.ncells) {
		rc = bench_mismatch(out, "bhtb: cells: expected %d (the quadtree of these bodies), got %d", ref.ncells,
		                    ncells);
		goto done;
	}
	struct bhtb_walk w = {
	    .n = n, .cap = cap, .child = child, .depth = depth, .ux = ux, .uy = uy, .seen = seen, .out = out};
	if (bhtb_walk(&w, 0, 0) < 0) {
		rc = WS_ERROR_VERIFY_FAILED;
		goto done;
	}
	if (w.cells != ncells) {
		rc = bench_mismatch(out, "bhtb: cells reachable from the root: expected %d (all allocated), got %d",
		                    ncells, w.cells);
		goto done;
	}
	for (int b = 0; b < n; b++)
		if (!seen[b] || !bhtb_find(child, depth, n, b, ux[b], uy[b])) {
			rc =
			    bench_mismatch(out, "bhtb: body %d (%u, %u): expected in the leaf its position selects, %s",
			                   b, ux[b], uy[b], seen[b] ? "found elsewhere" : "missing from the tree");
			goto done;
		}
	snprintf(out->msg, sizeof out->msg, "bhtb: %d bodies in %d cells by %u threads verified", n, ncells,
	         grid * BHTB_THREADS);
done:
	while (nd > 0)
		wsMemFree(sim, d[--nd]);
	bh_free(&ref);
	free(ux);
	free(uy);
	free(child);
	free(depth);
	free(seen);
	return rc;
}

static const struct ws_sib_note bhtb_sibs[] = {
    {"bhtb", 87, "insertion loop, thread already done: waits for its CTA at the next throttling barrier"},
    {"bhtb", 131, "insertion loop, slot locked by another thread (-2): retry after the barrier"},
    {"bhtb", 140, "insertion loop, atomicCAS lock attempt failed: retry after the barrier"},
    {NULL, 0, NULL},
};

const struct ws_bench_info bench_bhtb = {
    .name = "bhtb",
    .description = "Barnes-Hut tree build: bodies inserted into a shared quadtree, each leaf slot locked by atomicCAS",
    .sync = "lock per child slot (CAS to -2, released by publishing the new subtree); every insertion attempt ends "
            "at a __syncthreads_or barrier that throttles the CTA (Burtscher's kernel)",
    .paper = "BOWS (BH-TB)",
    .ctas_per_sm = 0,
    .warps_per_cta = BHTB_THREADS / 32,
    .sizes = {"512 bodies (1 CTA)", "4000 bodies (4 CTAs)", "30,000 bodies (30 CTAs)"},
    .ptx = ws_bench_ptx_bhtb,
    .sibs = bhtb_sibs,
    .run = bhtb_run,
};
