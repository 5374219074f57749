/*
 * bh_tree.h -- host side of the Barnes-Hut benchmarks (bhtb, bhst): the
 * bodies and the CPU reference quadtree.
 *
 * Bodies sit at distinct integer positions on a 2^20 x 2^20 grid (distinct
 * x coordinates, so no two bodies coincide).  The quadtree is the one the
 * bhtb kernel builds: the root is cell 0 at level 0; the quadrant of a
 * body in a level-d cell is bit 19-d of x (bit 0) and of y (bit 1); a leaf
 * slot holds at most one body, and inserting into a slot that holds a body
 * splits it into new cells until the two bodies separate.  Such a tree
 * (a PR quadtree) depends only on the set of bodies, not on the insertion
 * order: that is what lets the bhtb check compare a tree built by racing
 * threads with this sequential one.
 *
 * child[c*4 + q]: -1 empty, a body b (0 <= b < n) or a cell n + c'.
 */
#ifndef WARPSIM_BENCH_BH_TREE_H
#define WARPSIM_BENCH_BH_TREE_H

#include <stdint.h>
#include <stdlib.h>

#include "bench.h"

#define BH_BITS 20

struct bh_tree {
	int n, ncells, cap;
	int32_t *child; /* [cap * 4] */
	int32_t *depth; /* [cap] */
};

static inline int bh_quad(uint32_t x, uint32_t y, int d)
{
	int bit = BH_BITS - 1 - d;
	return (int)(((x >> bit) & 1u) | (((y >> bit) & 1u) << 1));
}

/* n bodies from `seed`: x a bijection of the index (distinct), y random. */
static inline void bh_bodies(uint64_t seed, int n, uint32_t *ux, uint32_t *uy)
{
	struct bench_rng rng;
	bench_rng_seed(&rng, seed);
	uint32_t mul = ((uint32_t)bench_rng_next(&rng) | 1u) & ((1u << BH_BITS) - 1u);
	uint32_t salt = (uint32_t)bench_rng_next(&rng) & ((1u << BH_BITS) - 1u);
	for (int i = 0; i < n; i++) {
		ux[i] =
		    (((uint32_t)i * mul) ^ salt) & ((1u << BH_BITS) - 1u); /* odd multiplier: a bijection mod 2^20 */
		uy[i] = bench_rng_u32(&rng, 1u << BH_BITS);
	}
}

/* Cell capacity for n bodies: an insertion adds at most BH_BITS - 1 cells
 * (one per level below the root), so this never overflows. */
static inline int bh_capacity(int n)
{
	return n * (BH_BITS - 1) + 1;
}

/* Sequential insertion of every body (the CPU reference).  Returns 0, or
 * -1 if the cells do not fit in t->cap (or memory runs out). */
static inline int bh_build(struct bh_tree *t, int n, const uint32_t *ux, const uint32_t *uy)
{
	t->n = n;
	t->cap = bh_capacity(n);
	t->child = malloc((size_t)t->cap * 4 * sizeof *t->child);
	t->depth = malloc((size_t)t->cap * sizeof *t->depth);
	if (!t->child || !t->depth)
		return -1;
	t->ncells = 1;
	t->depth[0] = 0;
	for (int q = 0; q < 4; q++)
		t->child[q] = -1;
	for (int i = 0; i < n; i++) {
		int node = 0, q = bh_quad(ux[i], uy[i], 0), ch = t->child[q];
		while (ch >= n) {
			node = ch - n;
			q = bh_quad(ux[i], uy[i], t->depth[node]);
			ch = t->child[node * 4 + q];
		}
		int *slot = &t->child[node * 4 + q];
		if (ch < 0) {
			*slot = i;
			continue;
		}
		int j = ch, d = t->depth[node] + 1;
		for (;;) {
			if (t->ncells >= t->cap)
				return -1;
			int c = t->ncells++;
			t->depth[c] = d;
			for (int k = 0; k < 4; k++)
				t->child[c * 4 + k] = -1;
			*slot = n + c;
			int qi = bh_quad(ux[i], uy[i], d), qj = bh_quad(ux[j], uy[j], d);
			if (qi != qj) {
				t->child[c * 4 + qi] = i;
				t->child[c * 4 + qj] = j;
				break;
			}
			slot = &t->child[c * 4 + qi];
			d++;
		}
	}
	return 0;
}

static inline void bh_free(struct bh_tree *t)
{
	free(t->child);
	free(t->depth);
	t->child = t->depth = NULL;
}

#endif
