/*
 * cp/host.c -- host driver of the cp benchmark (Coulombic potential, the
 * DWR paper's CP): potential of natoms random point charges on the lattice
 * points of one z-plane.
 *
 * The lattice is width x height points (width a multiple of the 32 points
 * a CTA row covers, height a multiple of 8), spacing 0.1; atoms are uniform
 * in the box above/below the plane with charges in [-1, 1).  Atoms go to
 * __constant__ cp_atoms (wsMemcpyToSymbol) in chunks of at most
 * CP_MAXATOMS, one launch per chunk, the kernel accumulating into the grid
 * (zeroed first).
 *
 * Verification: the CPU sums q / r in double; the kernel uses float and
 * 1 / sqrtf, so each point must agree within 1e-4 of sum |q| / r (the size of
 * the terms) plus 1e-4 relative -- an unwritten or doubled point, a wrong
 * atom or a wrong chunk is far outside that.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"

extern const char ws_bench_ptx_cp[];

#define CP_BLOCKX 16 /* as kernel.cu */
#define CP_BLOCKY 8
#define CP_UNROLLX 2
#define CP_MAXATOMS 4000
#define CP_SPACING 0.1f

static const struct {
	int gx, gy, natoms; /* CTAs in x and y */
} cp_sizes[WS_SIZE_COUNT] = {
    {2, 1, 24},      /* 64 x 8 points, 2 CTAs */
    {4, 4, 80},      /* 128 x 32 points, 16 CTAs */
    {8, 32, 200},    /* 256 x 256 points, 256 CTAs, 200 atoms: the original's run (cuda_short), 95M thread instructions */
};

static ws_result cp_run(ws_sim *sim, ws_module *mod, enum ws_bench_size size, struct ws_bench_out *out)
{
	if ((unsigned)size >= WS_SIZE_COUNT)
		return bench_fail(NULL, out, WS_ERROR_INVALID_VALUE, "cp: size");
	ws_result rc = WS_SUCCESS;
	int gx = cp_sizes[size].gx, gy = cp_sizes[size].gy, natoms = cp_sizes[size].natoms;
	int width = gx * CP_BLOCKX * CP_UNROLLX, height = gy * CP_BLOCKY;
	size_t pts = (size_t)width * height;
	float *atoms = malloc((size_t)natoms * 4 * sizeof(float)), *got = malloc(pts * sizeof(float));
	ws_deviceptr d_grid = 0;
	int have_grid = 0;
	ws_function *fn;

	if (!atoms || !got) {
		rc = bench_fail(NULL, out, WS_ERROR_OUT_OF_MEMORY, "cp: host buffers");
		goto done;
	}
	struct bench_rng rng;
	bench_rng_seed(&rng, 113);
	float xmax = CP_SPACING * (float)width, ymax = CP_SPACING * (float)height;
	for (int j = 0; j < natoms; j++) {
		float dz = bench_rng_float(&rng, 0.2f, 2.0f);
		atoms[4 * j + 0] = bench_rng_float(&rng, 0.0f, xmax);
		atoms[4 * j + 1] = bench_rng_float(&rng, 0.0f, ymax);
		atoms[4 * j + 2] = dz * dz;
		atoms[4 * j + 3] = bench_rng_float(&rng, -1.0f, 1.0f);
	}

	BENCH_CALL(wsModuleGetFunction(&fn, mod, "cp"));
	BENCH_CALL(wsMemAlloc(sim, &d_grid, pts * sizeof(float)));
	have_grid = 1;
	BENCH_CALL(wsMemsetD32(sim, d_grid, 0, pts));
	float spacing = CP_SPACING;
	for (int first = 0; first < natoms; first += CP_MAXATOMS) {
		int chunk = natoms - first < CP_MAXATOMS ? natoms - first : CP_MAXATOMS;
		BENCH_CALL(wsMemcpyToSymbol(mod, "cp_atoms", atoms + 4 * first, (size_t)chunk * 4 * sizeof(float), 0));
		void *args[] = {&chunk, &spacing, &width, &d_grid};
		BENCH_CALL(wsLaunchKernel(fn, (unsigned)gx, (unsigned)gy, 1, CP_BLOCKX, CP_BLOCKY, 1, 0, args));
		out->launches++;
	}
	BENCH_CALL(wsMemcpyDtoH(sim, got, d_grid, pts * sizeof(float)));

	for (int y = 0; y < height; y++) {
		for (int x = 0; x < width; x++) {
			double cx = (double)(CP_SPACING * (float)x), cy = (double)(CP_SPACING * (float)y);
			double e = 0.0, mag = 0.0;
			for (int j = 0; j < natoms; j++) {
				double dx = cx - atoms[4 * j], dy = cy - atoms[4 * j + 1];
				double r = sqrt(dx * dx + dy * dy + atoms[4 * j + 2]);
				e += atoms[4 * j + 3] / r;
				mag += fabs(atoms[4 * j + 3]) / r;
			}
			float g = got[(size_t)y * width + x];
			if (!(fabs(g - e) <= 1e-4 * mag + 1e-4 * fabs(e))) {
				rc = bench_mismatch(out, "cp: potential at point (%d, %d): expected %.7g, got %.7g", x, y, e,
				                    (double)g);
				goto done;
			}
		}
	}
	snprintf(out->msg, sizeof out->msg, "cp: %d x %d lattice points, %d atoms verified", width, height, natoms);
done:
	if (have_grid)
		wsMemFree(sim, d_grid);
	free(atoms);
	free(got);
	return rc;
}

const struct ws_bench_info bench_cp = {
    .name = "cp",
    .description = "Coulombic potential of point charges (constant memory) on a 2-D lattice, 2 points per thread",
    .sync = "none; no branch divergence (compute-bound, one constant-memory broadcast per atom)",
    .paper = "DWR (CP)",
    .ctas_per_sm = 0,
    .warps_per_cta = CP_BLOCKX * CP_BLOCKY / 32,
    .sizes = {"64x8 lattice, 24 atoms (2 CTAs)", "128x32 lattice, 80 atoms (16 CTAs)",
              "256x256 lattice, 200 atoms (256 CTAs of 16x8, 1 launch)"},
    .ptx = ws_bench_ptx_cp,
    .run = cp_run,
};
