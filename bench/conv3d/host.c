/*
 * conv3d/host.c -- host driver of the 3-D convolution (after PolyBench/GPU
 * 3DCONV, our own code): B = W * A over the interior of an ni x nj x nk
 * volume with the fixed 3x3x3 filter of kernel.cu, one launch of
 * conv3d_plane per interior plane i = 1 .. ni-2 (PolyBench's host loop).
 *
 * A is uniform in [-1, 1); nj and nk are not multiples of the 8 x 32 CTA
 * at tiny and small size, so edge CTAs are partial.  B is pre-filled with
 * NaN.  Paper size is PolyBench's 256^3 volume: 254 launches of 256 CTAs,
 * the KAWS paper's 3DCV.
 *
 * Verification: every interior element against the double sum, tolerance
 * relative 1e-5 plus 1e-5 * sum |w * a| (the float rounding bound of 27
 * terms); every boundary element must still be NaN (never written).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"

extern const char ws_bench_ptx_conv3d[];

#define CONV3D_BX 32 /* as kernel.cu */
#define CONV3D_BY 8

/* the filter of kernel.cu */
static const float conv3d_w[3][3][3] = {
    {{0.5f, -0.25f, 0.125f}, {0.75f, -1.0f, 0.25f}, {-0.5f, 0.375f, 0.625f}},
    {{-0.125f, 0.5f, -0.75f}, {1.0f, 2.0f, -1.0f}, {0.25f, -0.5f, 0.875f}},
    {{0.375f, -0.625f, 0.25f}, {-0.25f, 0.5f, 0.125f}, {0.75f, -0.375f, -0.5f}},
};

static const struct {
	int ni, nj, nk;
} conv3d_sizes[WS_SIZE_COUNT] = {
    {4, 12, 40},     /* 2 x 2 = 4 CTAs x 2 launches */
    {6, 40, 70},     /* 3 x 5 = 15 CTAs x 4 launches */
    {256, 256, 256}, /* 8 x 32 = 256 CTAs x 254 launches (KAWS Table 2's 3DCV, PolyBench's 256^3) */
};

static ws_result conv3d_run(ws_sim *sim, ws_module *mod, enum ws_bench_size size, struct ws_bench_out *out)
{
	if ((unsigned)size >= WS_SIZE_COUNT)
		return bench_fail(NULL, out, WS_ERROR_INVALID_VALUE, "conv3d: size");
	ws_result rc = WS_SUCCESS;
	int ni = conv3d_sizes[size].ni, nj = conv3d_sizes[size].nj, nk = conv3d_sizes[size].nk;
	size_t cells = (size_t)ni * nj * nk, bytes = cells * sizeof(float);
	float *a = malloc(bytes), *b = malloc(bytes);
	ws_deviceptr d[2];
	int nd = 0;
	ws_function *fn;

	if (!a || !b) {
		rc = bench_fail(NULL, out, WS_ERROR_OUT_OF_MEMORY, "conv3d: host buffers");
		goto done;
	}
	struct bench_rng rng;
	bench_rng_seed(&rng, 1203);
	for (size_t c = 0; c < cells; c++)
		a[c] = bench_rng_float(&rng, -1.0f, 1.0f);
	BENCH_CALL(wsModuleGetFunction(&fn, mod, "conv3d_plane"));
	for (; nd < 2; nd++)
		BENCH_CALL(wsMemAlloc(sim, &d[nd], bytes));
	BENCH_CALL(wsMemcpyHtoD(sim, d[0], a, bytes));
	BENCH_CALL(wsMemsetD32(sim, d[1], 0x7fc00000u, cells)); /* NaN: catches unwritten results */
	unsigned gx = (unsigned)((nk + CONV3D_BX - 1) / CONV3D_BX), gy = (unsigned)((nj + CONV3D_BY - 1) / CONV3D_BY);
	for (int i = 1; i < ni - 1; i++) {
		void *args[] = {&d[0], &d[1], &ni, &nj, &nk, &i};
		BENCH_CALL(wsLaunchKernel(fn, gx, gy, 1, CONV3D_BX, CONV3D_BY, 1, 0, args));
		out->launches++;
	}
	BENCH_CALL(wsMemcpyDtoH(sim, b, d[1], bytes));
	for (int i = 0; i < ni; i++) {
		for (int j = 0; j < nj; j++) {
			for (int k = 0; k < nk; k++) {
				size_t at = ((size_t)i * nj + j) * nk + k;
				if (i == 0 || i == ni - 1 || j == 0 || j == nj - 1 || k == 0 || k == nk - 1) {
					if (!isnan(b[at])) {
						rc = bench_mismatch(out, "conv3d: B[%d][%d][%d] (index %zu) is on the boundary and "
						                    "must not be written, got %.9g",
						                    i, j, k, at, (double)b[at]);
						goto done;
					}
					continue;
				}
				double sum = 0.0, mag = 0.0;
				for (int di = 0; di < 3; di++)
					for (int dj = 0; dj < 3; dj++)
						for (int dk = 0; dk < 3; dk++) {
							double p = (double)conv3d_w[di][dj][dk] *
							           a[((size_t)(i + di - 1) * nj + (j + dj - 1)) * nk + (k + dk - 1)];
							sum += p;
							mag += fabs(p);
						}
				if (!bench_close(sum, b[at], 1e-5, 1e-5 * mag)) {
					rc = bench_mismatch(out, "conv3d: B[%d][%d][%d] (index %zu, launch %d of %dx%dx%d): "
					                    "expected %.9g, got %.9g",
					                    i, j, k, at, i, ni, nj, nk, sum, (double)b[at]);
					goto done;
				}
			}
		}
	}
	snprintf(out->msg, sizeof out->msg, "conv3d: %dx%dx%d volume (%d plane launches) verified", ni, nj, nk, ni - 2);
done:
	while (nd > 0)
		wsMemFree(sim, d[--nd]);
	free(a);
	free(b);
	return rc;
}

const struct ws_bench_info bench_conv3d = {
    .name = "conv3d",
    .description = "3-D convolution with a fixed 3x3x3 filter (PolyBench 3DCONV style), one launch per interior "
                   "plane, one output element per thread",
    .sync = "none; launches independent",
    .paper = "KAWS (3DCV)",
    .ctas_per_sm = 0,
    .warps_per_cta = CONV3D_BX * CONV3D_BY / 32,
    .sizes = {"4x12x40 volume (4 CTAs x 2 launches)", "6x40x70 (15 CTAs x 4 launches)",
              "256x256x256 (256 CTAs x 254 launches, the KAWS paper's 3DCV)"},
    .ptx = ws_bench_ptx_conv3d,
    .run = conv3d_run,
};
