/*
 * octp/host.c -- host driver of the octp benchmark: build the levels of an
 * octree over n points in [0, 1)^3 by repeatedly partitioning nodes into
 * their 8 octants in place, like the partitioning phase of an octree
 * construction.
 *
 * Level by level, every node with more than `leaf` points (and a level
 * below `depth`) is split: the host cuts those nodes into chunks of up to
 * 512 points, launches octp_count (per-chunk octant counts, read back to
 * build the next level's node list) and octp_scatter (points of the split
 * nodes reordered from buffer `in` to buffer `out`), then copies the
 * split ranges back into `in` with device-to-device copies (the points of
 * finished nodes stay where they are).
 *
 * The points are clustered: half uniform, half around three centres
 * (spread ~0.05), so that nodes and chunks are unevenly loaded and some
 * branches reach the maximum depth.
 *
 * Verification: a CPU reference partitions its own copy of the points
 * level by level (stable); every octant count of every split node must
 * equal the GPU's; at the end the GPU's array must be a permutation of the
 * input (each id once, with its original coordinates) in which every
 * point lies inside the cube of the leaf node that owns its position.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

extern const char ws_bench_ptx_octp[];

#define OCTP_THREADS 256 /* 8 warps per CTA, as kernel.cu */
#define OCTP_CHUNK 512   /* points per CTA, as kernel.cu */

struct octp_pt {
	float x, y, z;
	int32_t id; /* float4 .w as int bits */
};

struct octp_node {
	int start, count, ix, iy, iz, level;
};

static const struct {
	int n, leaf, depth; /* points, largest unsplit node, levels split at most */
} octp_sizes[WS_SIZE_COUNT] = {
    {600, 64, 2},    /* 2 chunks at level 0, 3 at level 1 */
    {8000, 32, 3},   /* 16 chunks at level 0 */
    {131072, 64, 4}, /* 256 chunks per level at the top (4.3 waves of 4 CTAs/SM on 15 SMs) */
};

static int octp_octant(const struct octp_pt *p, float cx, float cy, float cz)
{
	return (p->x >= cx) | (p->y >= cy) << 1 | (p->z >= cz) << 2;
}

/* one coordinate: uniform in [0, 1) if centre is NULL, else near *centre */
static float octp_coord(struct bench_rng *rng, const float *centre)
{
	float v;
	if (!centre)
		v = bench_rng_float(rng, 0.0f, 1.0f);
	else
		v = *centre + 0.05f * (bench_rng_float(rng, -1.0f, 1.0f) + bench_rng_float(rng, -1.0f, 1.0f) +
		                       bench_rng_float(rng, -1.0f, 1.0f));
	return v < 0.0f ? 0.0f : v > 0.999999f ? 0.999999f : v;
}

static ws_result octp_run(ws_sim *sim, ws_module *mod, enum ws_bench_size size, struct ws_bench_out *out)
{
	if ((unsigned)size >= WS_SIZE_COUNT)
		return bench_fail(NULL, out, WS_ERROR_INVALID_VALUE, "octp: size");
	ws_result rc = WS_SUCCESS;
	int n = octp_sizes[size].n, leaf = octp_sizes[size].leaf, depth = octp_sizes[size].depth;
	int maxchunks = n / OCTP_CHUNK + n / (leaf + 1) + 2, maxnodes = n / (leaf + 1) + 2;
	size_t pbytes = (size_t)n * sizeof(struct octp_pt);
	struct octp_pt *pts = malloc(pbytes), *ref = malloc(pbytes), *tmp = malloc(pbytes), *got = malloc(pbytes);
	/* nodes: cur = this level's nodes to split; next = their children to split; leaves = finished */
	struct octp_node *cur = malloc((size_t)maxnodes * sizeof *cur), *next = malloc((size_t)maxnodes * sizeof *next);
	struct octp_node *leaves = malloc((size_t)n * sizeof *leaves);
	int *chunk_node = malloc((size_t)maxchunks * sizeof(int)), *node = malloc((size_t)maxnodes * 8 * sizeof(int));
	int *counts = malloc((size_t)maxchunks * 8 * sizeof(int));
	unsigned char *seen = calloc((size_t)n, 1);
	ws_deviceptr d[5]; /* in, out, chunk_node, node, counts */
	const size_t d_bytes[5] = {pbytes, pbytes, (size_t)maxchunks * sizeof(int), (size_t)maxnodes * 8 * sizeof(int),
	                           (size_t)maxchunks * 8 * sizeof(int)};
	int nd = 0, ncur = 0, nleaves = 0, levels = 0;
	ws_function *fcount, *fscatter;

	if (!pts || !ref || !tmp || !got || !cur || !next || !leaves || !chunk_node || !node || !counts || !seen) {
		rc = bench_fail(NULL, out, WS_ERROR_OUT_OF_MEMORY, "octp: host buffers");
		goto done;
	}
	struct bench_rng rng;
	bench_rng_seed(&rng, 9);
	float centre[3][3];
	for (int c = 0; c < 3; c++)
		for (int a = 0; a < 3; a++)
			centre[c][a] = bench_rng_float(&rng, 0.2f, 0.8f);
	for (int i = 0; i < n; i++) {
		int cl = bench_rng_u32(&rng, 2) ? -1 : (int)bench_rng_u32(&rng, 3);
		pts[i].x = octp_coord(&rng, cl < 0 ? NULL : &centre[cl][0]);
		pts[i].y = octp_coord(&rng, cl < 0 ? NULL : &centre[cl][1]);
		pts[i].z = octp_coord(&rng, cl < 0 ? NULL : &centre[cl][2]);
		pts[i].id = i;
	}
	memcpy(ref, pts, pbytes);

	BENCH_CALL(wsModuleGetFunction(&fcount, mod, "octp_count"));
	BENCH_CALL(wsModuleGetFunction(&fscatter, mod, "octp_scatter"));
	for (; nd < 5; nd++)
		BENCH_CALL(wsMemAlloc(sim, &d[nd], d_bytes[nd]));
	BENCH_CALL(wsMemcpyHtoD(sim, d[0], pts, pbytes));

	struct octp_node root = {0, n, 0, 0, 0, 0};
	if (n > leaf && depth > 0)
		cur[ncur++] = root;
	else
		leaves[nleaves++] = root;
	for (int level = 0; ncur > 0; level++, levels++) {
		/* chunks of this level's split nodes */
		int nchunks = 0;
		for (int i = 0; i < ncur; i++) {
			int k = (cur[i].count + OCTP_CHUNK - 1) / OCTP_CHUNK;
			int *e = node + i * 8;
			e[0] = cur[i].start;
			e[1] = cur[i].count;
			e[2] = nchunks;
			e[3] = k;
			e[4] = cur[i].ix;
			e[5] = cur[i].iy;
			e[6] = cur[i].iz;
			e[7] = 0;
			for (int j = 0; j < k; j++)
				chunk_node[nchunks++] = i;
		}
		float half = 1.0f / (float)(2 << level); /* 2^-(level+1) */
		BENCH_CALL(wsMemcpyHtoD(sim, d[2], chunk_node, (size_t)nchunks * sizeof(int)));
		BENCH_CALL(wsMemcpyHtoD(sim, d[3], node, (size_t)ncur * 8 * sizeof(int)));
		BENCH_CALL(wsMemsetD32(sim, d[4], 0xffffffffu, (size_t)nchunks * 8)); /* -1: catches unwritten counts */
		void *cargs[] = {&d[0], &d[2], &d[3], &half, &d[4]};
		BENCH_CALL(wsLaunchKernel(fcount, (unsigned)nchunks, 1, 1, OCTP_THREADS, 1, 1, 0, cargs));
		out->launches++;
		BENCH_CALL(wsMemcpyDtoH(sim, counts, d[4], (size_t)nchunks * 8 * sizeof(int)));
		void *sargs[] = {&d[0], &d[1], &d[2], &d[3], &half, &d[4]};
		BENCH_CALL(wsLaunchKernel(fscatter, (unsigned)nchunks, 1, 1, OCTP_THREADS, 1, 1, 0, sargs));
		out->launches++;
		/* split ranges back into `in`, adjacent ones merged */
		for (int i = 0; i < ncur;) {
			int s = cur[i].start, e = s + cur[i].count;
			for (i++; i < ncur && cur[i].start == e; i++)
				e += cur[i].count;
			size_t off = (size_t)s * sizeof(struct octp_pt);
			BENCH_CALL(wsMemcpyDtoD(sim, d[0] + off, d[1] + off, (size_t)(e - s) * sizeof(struct octp_pt)));
		}

		/* CPU reference split, compared octant by octant; children */
		int nnext = 0;
		for (int i = 0; i < ncur; i++) {
			const struct octp_node *p = &cur[i];
			float cx = (float)(2 * p->ix + 1) * half, cy = (float)(2 * p->iy + 1) * half,
			      cz = (float)(2 * p->iz + 1) * half;
			int expect[8] = {0}, gpu[8] = {0}, first = node[i * 8 + 2];
			for (int k = p->start; k < p->start + p->count; k++)
				expect[octp_octant(&ref[k], cx, cy, cz)]++;
			for (int j = 0; j < node[i * 8 + 3]; j++)
				for (int q = 0; q < 8; q++)
					gpu[q] += counts[(first + j) * 8 + q];
			for (int q = 0; q < 8; q++) {
				if (gpu[q] != expect[q]) {
					rc = bench_mismatch(
					    out,
					    "octp: level %d node %d (cell %d,%d,%d, %d points) octant %d: "
					    "expected %d points, got %d",
					    level, i, p->ix, p->iy, p->iz, p->count, q, expect[q], gpu[q]);
					goto done;
				}
			}
			int at = p->start;
			for (int q = 0; q < 8; q++) {
				for (int k = p->start; k < p->start + p->count; k++)
					if (octp_octant(&ref[k], cx, cy, cz) == q)
						tmp[at++] = ref[k];
				struct octp_node c = {at - expect[q],       expect[q],
				                      2 * p->ix + (q & 1),  2 * p->iy + (q >> 1 & 1),
				                      2 * p->iz + (q >> 2), level + 1};
				if (c.count > leaf && c.level < depth)
					next[nnext++] = c;
				else if (c.count > 0)
					leaves[nleaves++] = c;
			}
			memcpy(ref + p->start, tmp + p->start, (size_t)p->count * sizeof *ref);
		}
		struct octp_node *sw = cur;
		cur = next;
		next = sw;
		ncur = nnext;
	}

	BENCH_CALL(wsMemcpyDtoH(sim, got, d[0], pbytes));
	for (int i = 0; i < nleaves; i++) {
		const struct octp_node *p = &leaves[i];
		float scale = (float)(1 << p->level);
		for (int k = p->start; k < p->start + p->count; k++) {
			const struct octp_pt *g = &got[k];
			if (g->id < 0 || g->id >= n || seen[g->id] || g->x != pts[g->id].x || g->y != pts[g->id].y ||
			    g->z != pts[g->id].z) {
				rc =
				    bench_mismatch(out,
				                   "octp: point[%d]: expected a not yet seen input point, got id %d at "
				                   "(%.9g, %.9g, %.9g)",
				                   k, g->id, (double)g->x, (double)g->y, (double)g->z);
				goto done;
			}
			seen[g->id] = 1;
			if ((int)(g->x * scale) != p->ix || (int)(g->y * scale) != p->iy ||
			    (int)(g->z * scale) != p->iz) {
				rc = bench_mismatch(
				    out,
				    "octp: point[%d] (id %d at %.9g, %.9g, %.9g): expected inside leaf cell "
				    "%d,%d,%d of level %d, got outside",
				    k, g->id, (double)g->x, (double)g->y, (double)g->z, p->ix, p->iy, p->iz, p->level);
				goto done;
			}
		}
	}
	snprintf(out->msg, sizeof out->msg, "octp: %d points partitioned over %d levels into %d leaves, verified", n,
	         levels, nleaves);
done:
	while (nd > 0)
		wsMemFree(sim, d[--nd]);
	free(pts);
	free(ref);
	free(tmp);
	free(got);
	free(cur);
	free(next);
	free(leaves);
	free(chunk_node);
	free(node);
	free(counts);
	free(seen);
	return rc;
}

const struct ws_bench_info bench_octp = {
    .name = "octp",
    .description = "octree partitioning of clustered 3-D points, level by level, chunks of 512 points per CTA",
    .sync = "shared-memory atomic octant counters between __syncthreads; per chunk a 5-level shared-memory "
            "reduction (a barrier each) and a one-thread prefix sum before the scatter",
    .paper = "BAWS",
    .ctas_per_sm = 4,
    .warps_per_cta = OCTP_THREADS / 32,
    .sizes = {"600 points, leaves <= 64, depth 2", "8000 points, leaves <= 32, depth 3",
              "131,072 points, leaves <= 32, depth 5"},
    .ptx = ws_bench_ptx_octp,
    .run = octp_run,
};
