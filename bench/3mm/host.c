/*
 * 3mm/host.c -- host driver of the 3mm benchmark: G = (A * B) * (C * D)
 * in three launches, E = A * B, F = C * D, G = E * F.
 *
 * A is ni x nk, B nk x nj, C nj x nm, D nm x nl (row-major floats, uniform
 * in [-1, 1)); no dimension is a multiple of the 32 x 8 CTA, so edge CTAs
 * are partial in both directions.  The kernel adds into its output (as
 * PolyBench-GPU's), so E, F and G are zeroed before the launches; an
 * unwritten element then stays 0 and fails the check below.
 *
 * Verification, each product on its own so a failure names the launch:
 * E against A * B and F against C * D accumulated in double, and G against
 * the double product of the device's own E and F; tolerance relative 1e-5
 * plus 1e-5 * sum_k |x_ik y_kj| (the float rounding bound).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"

extern const char ws_bench_ptx_3mm[];

#define MM3_BX 32 /* CTA = 32 x 8 threads = 8 warps, as kernel.cu */
#define MM3_BY 8

static const struct {
	int ni, nj, nk, nl, nm;
} mm3_sizes[WS_SIZE_COUNT] = {
    {8, 24, 14, 20, 10},     /* E 1x1, F 1x3, G 1x1 CTAs */
    {30, 40, 26, 44, 22},    /* E 2x4, F 2x5, G 2x4 CTAs */
    {236, 60, 44, 284, 36},  /* E 2x30, F 9x8, G 9x30 = 270 CTAs (3 waves of 6 CTAs/SM on 15 SMs) */
    {512, 512, 512, 512, 512}, /* paper-kaws: E, F, G 16x64 = 1024 CTAs each (KAWS Table 2's 3MM): PolyBench's
                                  3mm at its default size, every dimension 512 */
};

/* Z = X * Y on the device; X rows x inner, Y inner x cols */
static ws_result mm3_launch(ws_function *fn, ws_deviceptr x, ws_deviceptr y, ws_deviceptr z, int rows, int cols,
                            int inner)
{
	void *args[] = {&x, &y, &z, &rows, &cols, &inner};
	return wsLaunchKernel(fn, (unsigned)((cols + MM3_BX - 1) / MM3_BX), (unsigned)((rows + MM3_BY - 1) / MM3_BY), 1,
	                      MM3_BX, MM3_BY, 1, 0, args);
}

/* Check Z (rows x cols) against X * Y in double; 0 if it matches. */
static int mm3_check(struct ws_bench_out *out, const char *name, const char *what, const float *x, const float *y,
                     const float *z, int rows, int cols, int inner)
{
	for (int i = 0; i < rows; i++) {
		for (int j = 0; j < cols; j++) {
			double sum = 0.0, mag = 0.0;
			for (int k = 0; k < inner; k++) {
				double p = (double)x[(size_t)i * inner + k] * y[(size_t)k * cols + j];
				sum += p;
				mag += fabs(p);
			}
			float got = z[(size_t)i * cols + j];
			if (!bench_close(sum, got, 1e-5, 1e-5 * mag)) {
				bench_mismatch(
				    out, "3mm: %s[%d][%d] (index %zu, %s, %dx%d * %dx%d): expected %.9g, got %.9g",
				    name, i, j, (size_t)i * cols + j, what, rows, inner, inner, cols, sum, (double)got);
				return 1;
			}
		}
	}
	return 0;
}

static ws_result mm3_run(ws_sim *sim, ws_module *mod, enum ws_bench_size size, struct ws_bench_out *out)
{
	if ((unsigned)size >= WS_SIZE_COUNT)
		return bench_fail(NULL, out, WS_ERROR_INVALID_VALUE, "3mm: size");
	ws_result rc = WS_SUCCESS;
	int ni = mm3_sizes[size].ni, nj = mm3_sizes[size].nj, nk = mm3_sizes[size].nk, nl = mm3_sizes[size].nl,
	    nm = mm3_sizes[size].nm;
	/* A, B, C, D, E, F, G */
	const size_t cnt[7] = {(size_t)ni * nk, (size_t)nk * nj, (size_t)nj * nm, (size_t)nm * nl,
	                       (size_t)ni * nj, (size_t)nj * nl, (size_t)ni * nl};
	float *h[7] = {0};
	ws_deviceptr d[7];
	int nd = 0;
	ws_function *fn;

	for (int m = 0; m < 7; m++) {
		if (!(h[m] = malloc(cnt[m] * sizeof(float)))) {
			rc = bench_fail(NULL, out, WS_ERROR_OUT_OF_MEMORY, "3mm: host buffers");
			goto done;
		}
	}
	struct bench_rng rng;
	bench_rng_seed(&rng, 46);
	for (int m = 0; m < 4; m++)
		for (size_t i = 0; i < cnt[m]; i++)
			h[m][i] = bench_rng_float(&rng, -1.0f, 1.0f);

	BENCH_CALL(wsModuleGetFunction(&fn, mod, "mm3_gemm"));
	for (; nd < 7; nd++)
		BENCH_CALL(wsMemAlloc(sim, &d[nd], cnt[nd] * sizeof(float)));
	for (int m = 0; m < 4; m++)
		BENCH_CALL(wsMemcpyHtoD(sim, d[m], h[m], cnt[m] * sizeof(float)));
	for (int m = 4; m < 7; m++) /* the kernel accumulates into E, F and G */
		BENCH_CALL(wsMemsetD32(sim, d[m], 0u, cnt[m]));
	BENCH_CALL(mm3_launch(fn, d[0], d[1], d[4], ni, nj, nk)); /* E = A * B */
	BENCH_CALL(mm3_launch(fn, d[2], d[3], d[5], nj, nl, nm)); /* F = C * D */
	BENCH_CALL(mm3_launch(fn, d[4], d[5], d[6], ni, nl, nj)); /* G = E * F */
	out->launches += 3;
	for (int m = 4; m < 7; m++)
		BENCH_CALL(wsMemcpyDtoH(sim, h[m], d[m], cnt[m] * sizeof(float)));

	if (mm3_check(out, "E", "launch 1, A*B", h[0], h[1], h[4], ni, nj, nk) ||
	    mm3_check(out, "F", "launch 2, C*D", h[2], h[3], h[5], nj, nl, nm) ||
	    mm3_check(out, "G", "launch 3, E*F of the device's E and F", h[4], h[5], h[6], ni, nl, nj)) {
		rc = WS_ERROR_VERIFY_FAILED;
		goto done;
	}
	snprintf(out->msg, sizeof out->msg, "3mm: G = (%dx%d * %dx%d) * (%dx%d * %dx%d) verified", ni, nk, nk, nj, nj,
	         nm, nm, nl);
done:
	while (nd > 0)
		wsMemFree(sim, d[--nd]);
	for (int m = 0; m < 7; m++)
		free(h[m]);
	return rc;
}

const struct ws_bench_info bench_3mm = {
    .name = "3mm",
    .description = "three chained matrix products E = A*B, F = C*D, G = E*F (PolyBench-GPU's kernel: each step "
                   "adds into the output in global memory; three launches)",
    .sync = "none inside the kernel; launch boundaries order the products",
    .paper = "KAWS",
    .ctas_per_sm = 0,
    .warps_per_cta = MM3_BX * MM3_BY / 32,
    .sizes = {"G 8x20 from inner sizes 14, 10, 24 (5 CTAs in 3 launches)",
              "G 30x44 from 26, 22, 40 (26 CTAs in 3 launches)", "G 236x284 from 44, 36, 60 (402 CTAs in 3 launches)",
              "G 512x512 from 512, 512, 512 (1024 CTAs x 3 launches: the KAWS paper's 3MM, PolyBench's size)"},
    .ptx = ws_bench_ptx_3mm,
    .run = mm3_run,
};
