/*
 * hotspot/host.c -- host driver of the hotspot benchmark: a rows x cols
 * thermal grid advanced launches * HS_STEPS time steps, HS_STEPS per
 * launch, ping-ponging between two device temperature buffers.
 *
 * Inputs: temperatures uniform in [320, 345) K, power uniform in [0, 2)
 * with a few hot blocks of power 6..8, ambient 300 K.  The coefficients
 * (sdc * (2 rx + 2 ry + rz) = 0.23 < 1) keep the explicit scheme stable.
 * rows and cols are not multiples of the 12-cell output tile, so the
 * last row and column of CTAs are partial, and rows != cols.
 *
 * The CPU reference applies the same float formula step by step to the
 * whole grid; the GPU may fuse multiply-adds, so temperatures are compared
 * with a relative tolerance of 1e-5 (a few float ulps of ~330 K).  The
 * output buffer is filled with NaN before every launch, so a cell a launch
 * fails to write is caught.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

extern const char ws_bench_ptx_hotspot[];

#define HS_BLOCK 16                      /* 16 x 16 threads = 8 warps per CTA, as kernel.cu */
#define HS_STEPS 2                       /* time steps per launch, as kernel.cu */
#define HS_OUT (HS_BLOCK - 2 * HS_STEPS) /* output tile side, as kernel.cu */

static const struct {
	int rows, cols, launches;
} hs_sizes[WS_SIZE_COUNT] = {
    {20, 22, 1},   /* 2 x 2 CTAs, 2 time steps */
    {40, 58, 2},   /* 4 x 5 CTAs, 4 time steps */
    {236, 260, 2}, /* 20 x 22 = 440 CTAs (5 waves of 5 CTAs/SM on 15 SMs), 4 time steps */
    {512, 512, 1}, /* paper-kaws: 43 x 43 = 1849 CTAs x 1 launch (KAWS Table 2; Rodinia's 512 x 512 input,
                      pyramid height 2, 2 iterations) */
};

/* physical constants of the model (see kernel.cu) */
static const float hs_sdc = 0.05f, hs_rx = 1.0f, hs_ry = 1.2f, hs_rz = 0.1f, hs_amb = 300.0f;

/* one time step of the whole grid on the CPU, same formula as the kernel */
static void hs_step(const float *pw, const float *t, float *o, int rows, int cols)
{
	for (int r = 0; r < rows; r++) {
		for (int c = 0; c < cols; c++) {
			float v = t[r * cols + c];
			float n = r > 0 ? t[(r - 1) * cols + c] : v;
			float s = r < rows - 1 ? t[(r + 1) * cols + c] : v;
			float w = c > 0 ? t[r * cols + c - 1] : v;
			float e = c < cols - 1 ? t[r * cols + c + 1] : v;
			o[r * cols + c] = v + hs_sdc * (pw[r * cols + c] + (n + s - 2.0f * v) * hs_ry +
			                                (w + e - 2.0f * v) * hs_rx + (hs_amb - v) * hs_rz);
		}
	}
}

static ws_result hotspot_run(ws_sim *sim, ws_module *mod, enum ws_bench_size size, struct ws_bench_out *out)
{
	if ((unsigned)size >= WS_SIZE_COUNT)
		return bench_fail(NULL, out, WS_ERROR_INVALID_VALUE, "hotspot: size");
	ws_result rc = WS_SUCCESS;
	int rows = hs_sizes[size].rows, cols = hs_sizes[size].cols, launches = hs_sizes[size].launches;
	size_t cells = (size_t)rows * cols, bytes = cells * sizeof(float);
	float *pw = malloc(bytes), *t = malloc(bytes), *ref = malloc(bytes), *got = malloc(bytes);
	ws_deviceptr d[3]; /* power, temperature ping-pong buffers */
	int nd = 0;
	ws_function *fn;

	if (!pw || !t || !ref || !got) {
		rc = bench_fail(NULL, out, WS_ERROR_OUT_OF_MEMORY, "hotspot: host buffers");
		goto done;
	}
	struct bench_rng rng;
	bench_rng_seed(&rng, 31);
	for (size_t i = 0; i < cells; i++) {
		t[i] = bench_rng_float(&rng, 320.0f, 345.0f);
		pw[i] = bench_rng_float(&rng, 0.0f, 2.0f);
	}
	for (int h = 0; h < 4; h++) { /* hot functional units */
		int r0 = (int)bench_rng_u32(&rng, (uint32_t)rows), c0 = (int)bench_rng_u32(&rng, (uint32_t)cols);
		for (int r = r0; r < rows && r < r0 + rows / 5 + 1; r++)
			for (int c = c0; c < cols && c < c0 + cols / 5 + 1; c++)
				pw[r * cols + c] = bench_rng_float(&rng, 6.0f, 8.0f);
	}

	BENCH_CALL(wsModuleGetFunction(&fn, mod, "hotspot"));
	for (; nd < 3; nd++)
		BENCH_CALL(wsMemAlloc(sim, &d[nd], bytes));
	BENCH_CALL(wsMemcpyHtoD(sim, d[0], pw, bytes));
	BENCH_CALL(wsMemcpyHtoD(sim, d[1], t, bytes));
	unsigned gx = (unsigned)((cols + HS_OUT - 1) / HS_OUT), gy = (unsigned)((rows + HS_OUT - 1) / HS_OUT);
	float sdc = hs_sdc, rx = hs_rx, ry = hs_ry, rz = hs_rz, amb = hs_amb;
	int src = 1;
	for (int l = 0; l < launches; l++, src = 3 - src) {
		int dst = 3 - src;
		BENCH_CALL(wsMemsetD32(sim, d[dst], 0x7fc00000u, cells)); /* NaN: catches unwritten cells */
		void *args[] = {&d[0], &d[src], &d[dst], &rows, &cols, &sdc, &rx, &ry, &rz, &amb};
		BENCH_CALL(wsLaunchKernel(fn, gx, gy, 1, HS_BLOCK, HS_BLOCK, 1, 0, args));
		out->launches++;
	}
	BENCH_CALL(wsMemcpyDtoH(sim, got, d[src], bytes));

	int steps = launches * HS_STEPS;
	for (int s = 0; s < steps; s++) {
		hs_step(pw, t, ref, rows, cols);
		float *x = t;
		t = ref;
		ref = x;
	}
	/* t holds the reference result */
	for (size_t i = 0; i < cells; i++) {
		if (!bench_close(t[i], got[i], 1e-5, 1e-4)) {
			rc = bench_mismatch(
			    out, "hotspot: T[%zu][%zu] (index %zu, %dx%d grid, %d steps): expected %.9g, got %.9g",
			    i / (size_t)cols, i % (size_t)cols, i, rows, cols, steps, (double)t[i], (double)got[i]);
			goto done;
		}
	}
	snprintf(out->msg, sizeof out->msg, "hotspot: %dx%d grid after %d time steps verified", rows, cols, steps);
done:
	while (nd > 0)
		wsMemFree(sim, d[--nd]);
	free(pw);
	free(t);
	free(ref);
	free(got);
	return rc;
}

const struct ws_bench_info bench_hotspot = {
    .name = "hotspot",
    .description =
        "2-D transient thermal stencil, 16x16 shared-memory tiles with a 2-cell ghost zone, 2 steps per launch",
    .sync = "lightly synchronized: 4 __syncthreads per launch (load, then compute/copy per time step)",
    .paper = "BAWS 6.5, KAWS, DWR (HSPT)",
    .ctas_per_sm = 0,
    .warps_per_cta = HS_BLOCK * HS_BLOCK / 32,
    .sizes = {"20x22 grid, 2 steps (4 CTAs x 1 launch)", "40x58 grid, 4 steps (20 CTAs x 2 launches)",
              "236x260 grid, 4 steps (440 CTAs x 2 launches)",
              "512x512 grid, 2 steps (1849 CTAs x 1 launch: the KAWS paper's HS, Rodinia's 512 x 512 input)"},
    .ptx = ws_bench_ptx_hotspot,
    .run = hotspot_run,
};
