/*
 * cpds/host.c -- host driver of the BOWS suite's CP-DS (cloth distance
 * solver with two nested locks).  The cloth is a W x W grid of particles,
 * slightly jittered out of plane, joined by structural (right, down) and
 * shear (both diagonals) distance constraints whose rest lengths are the
 * grid spacing (times sqrt 2) scaled by a random factor in [0.8, 1.2), so
 * every constraint produces a correction.  Constraints are shuffled, so
 * neighbouring threads touch unrelated particles, as in a mesh.
 *
 * The check: every particle's update count equals its number of
 * constraints (a lost update under a broken lock changes it), every
 * displacement matches the CPU's sum of the same corrections (relative
 * 1e-4 / absolute 1e-5: float sums in another order), every lock released.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"

extern const char ws_bench_ptx_cpds[];

#define CPDS_THREADS 128

static const struct {
	int w, ctas;
} cpds_sizes[WS_SIZE_COUNT] = {
    {12, 2},   /* 144 particles, 484 constraints (2 per thread) */
    {32, 8},   /* 1024 particles, 3906 constraints (~4 per thread) */
    {128, 60}, /* 16,384 particles, 64,516 constraints (~8 per thread) */
};

static ws_result cpds_run(ws_sim *sim, ws_module *mod, enum ws_bench_size size, struct ws_bench_out *out)
{
	if ((unsigned)size >= WS_SIZE_COUNT)
		return bench_fail(NULL, out, WS_ERROR_INVALID_VALUE, "cpds: size");
	ws_result rc = WS_SUCCESS;
	int w = cpds_sizes[size].w, np = w * w, nc = 0, cap = 4 * np;
	unsigned grid = (unsigned)cpds_sizes[size].ctas;
	float *p = malloc((size_t)np * 3 * 4), *rest = malloc((size_t)cap * 4);
	float *got = malloc((size_t)np * 3 * 4), *want = calloc((size_t)np * 3, 4);
	int32_t *ci = malloc((size_t)cap * 4), *cj = malloc((size_t)cap * 4), *locks = malloc((size_t)np * 4);
	uint32_t *cnt = malloc((size_t)np * 4), *want_cnt = calloc((size_t)np, 4);
	ws_deviceptr d[12];
	int nd = 0;
	ws_function *fn;

	if (!p || !rest || !got || !want || !ci || !cj || !locks || !cnt || !want_cnt) {
		rc = bench_fail(NULL, out, WS_ERROR_OUT_OF_MEMORY, "cpds: host buffers");
		goto done;
	}
	struct bench_rng rng;
	bench_rng_seed(&rng, 16);
	float *px = p, *py = p + np, *pz = p + 2 * np;
	for (int y = 0; y < w; y++)
		for (int x = 0; x < w; x++) {
			px[y * w + x] = (float)x * 0.1f;
			py[y * w + x] = (float)y * 0.1f;
			pz[y * w + x] = bench_rng_float(&rng, -0.02f, 0.02f);
		}
	for (int y = 0; y < w; y++)
		for (int x = 0; x < w; x++) {
			int i = y * w + x;
			int nb[4][2] = {{x + 1, y}, {x, y + 1}, {x + 1, y + 1}, {x - 1, y + 1}};
			for (int k = 0; k < 4; k++) {
				if (nb[k][0] < 0 || nb[k][0] >= w || nb[k][1] >= w)
					continue;
				ci[nc] = i;
				cj[nc] = nb[k][1] * w + nb[k][0];
				rest[nc] = (k < 2 ? 0.1f : 0.14142136f) * bench_rng_float(&rng, 0.8f, 1.2f);
				nc++;
			}
		}
	for (int k = nc - 1; k > 0; k--) { /* shuffle the constraints */
		int j = (int)bench_rng_u32(&rng, (uint32_t)k + 1);
		int32_t ti = ci[k], tj = cj[k];
		float tr = rest[k];
		ci[k] = ci[j], cj[k] = cj[j], rest[k] = rest[j];
		ci[j] = ti, cj[j] = tj, rest[j] = tr;
	}
	for (int k = 0; k < nc; k++) {
		int i = ci[k], j = cj[k];
		double ex = px[j] - px[i], ey = py[j] - py[i], ez = pz[j] - pz[i];
		double len = sqrt(ex * ex + ey * ey + ez * ez), s = 0.5 * (len - rest[k]) / len;
		want[i] += (float)(s * ex), want[np + i] += (float)(s * ey), want[2 * np + i] += (float)(s * ez);
		want[j] -= (float)(s * ex), want[np + j] -= (float)(s * ey), want[2 * np + j] -= (float)(s * ez);
		want_cnt[i]++, want_cnt[j]++;
	}

	BENCH_CALL(wsModuleGetFunction(&fn, mod, "cpds"));
	/* px py pz ci cj rest dx dy dz cnt locks */
	const size_t d_bytes[11] = {(size_t)np * 4, (size_t)np * 4, (size_t)np * 4, (size_t)nc * 4,
	                            (size_t)nc * 4, (size_t)nc * 4, (size_t)np * 4, (size_t)np * 4,
	                            (size_t)np * 4, (size_t)np * 4, (size_t)np * 4};
	for (; nd < 11; nd++)
		BENCH_CALL(wsMemAlloc(sim, &d[nd], d_bytes[nd]));
	BENCH_CALL(wsMemcpyHtoD(sim, d[0], px, d_bytes[0]));
	BENCH_CALL(wsMemcpyHtoD(sim, d[1], py, d_bytes[1]));
	BENCH_CALL(wsMemcpyHtoD(sim, d[2], pz, d_bytes[2]));
	BENCH_CALL(wsMemcpyHtoD(sim, d[3], ci, d_bytes[3]));
	BENCH_CALL(wsMemcpyHtoD(sim, d[4], cj, d_bytes[4]));
	BENCH_CALL(wsMemcpyHtoD(sim, d[5], rest, d_bytes[5]));
	for (int k = 6; k < 11; k++)
		BENCH_CALL(wsMemsetD32(sim, d[k], 0, (size_t)np));
	void *args[] = {&d[0], &d[1], &d[2], &d[3], &d[4], &d[5], &nc, &d[6], &d[7], &d[8], &d[9], &d[10]};
	BENCH_CALL(wsLaunchKernel(fn, grid, 1, 1, CPDS_THREADS, 1, 1, 0, args));
	out->launches++;
	for (int k = 0; k < 3; k++)
		BENCH_CALL(wsMemcpyDtoH(sim, got + (size_t)k * np, d[6 + k], d_bytes[6 + k]));
	BENCH_CALL(wsMemcpyDtoH(sim, cnt, d[9], d_bytes[9]));
	BENCH_CALL(wsMemcpyDtoH(sim, locks, d[10], d_bytes[10]));

	for (int i = 0; i < np; i++) {
		if (locks[i] != 0) {
			rc = bench_mismatch(out, "cpds: locks[%d]: expected 0 (released), got %d", i, locks[i]);
			goto done;
		}
		if (cnt[i] != want_cnt[i]) {
			rc = bench_mismatch(out, "cpds: particle %d updates: expected %u, got %u", i, want_cnt[i],
			                    cnt[i]);
			goto done;
		}
		for (int k = 0; k < 3; k++)
			if (!bench_close(want[k * np + i], got[k * np + i], 1e-4, 1e-5)) {
				rc = bench_mismatch(out, "cpds: particle %d displacement %c: expected %.7g, got %.7g",
				                    i, "xyz"[k], want[k * np + i], got[k * np + i]);
				goto done;
			}
	}
	snprintf(out->msg, sizeof out->msg, "cpds: %dx%d cloth, %d constraints by %u threads verified", w, w, nc,
	         grid * CPDS_THREADS);
done:
	while (nd > 0)
		wsMemFree(sim, d[--nd]);
	free(p);
	free(rest);
	free(got);
	free(want);
	free(ci);
	free(cj);
	free(locks);
	free(cnt);
	free(want_cnt);
	return rc;
}

static const struct ws_sib_note cpds_sibs[] = {
    {"cpds", 167, "two-lock retry loop (while (!done))"},
    {NULL, 0, NULL},
};

const struct ws_bench_info bench_cpds = {
    .name = "cpds",
    .description = "cloth distance-constraint solver: each constraint's correction applied to both particles",
    .sync = "two nested spin locks (the constraint's particles, in index order); the outer one is released in the "
            "same iteration when the inner one is busy",
    .paper = "BOWS (CP-DS)",
    .ctas_per_sm = 0,
    .warps_per_cta = CPDS_THREADS / 32,
    .sizes = {"12x12 particles, 484 constraints (2 CTAs)", "32x32, 3906 constraints (8 CTAs)",
              "128x128, 64,516 constraints (60 CTAs)"},
    .ptx = ws_bench_ptx_cpds,
    .sibs = cpds_sibs,
    .run = cpds_run,
};
