/*
 * lud/host.c -- host driver of the lud benchmark: in-place blocked LU
 * decomposition (no pivoting) of an n x n float matrix, n a multiple of
 * the 16 x 16 tile.
 *
 * A has entries uniform in [-1, 1) and a diagonal raised to
 * sum_j |a_ij| + 1 (strictly diagonally dominant: no pivoting needed, and
 * the factors stay bounded).  Per tile step k the host launches
 * lud_diagonal (1 CTA), lud_perimeter (nb-k-1 CTAs) and lud_internal
 * ((nb-k-1)^2 CTAs), nb = n / 16; the last step is the diagonal alone.
 *
 * Verification: the product L U of the device's factors (L unit lower,
 * U upper, read from the one in-place matrix) is formed in double and
 * compared with the original A element by element, with tolerance
 * 2e-6 * n_terms * sum_m |L_im| |U_mj| (the float rounding bound of the
 * factorization).  An element the kernels fail to write keeps its input
 * value and breaks the product.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"

extern const char ws_bench_ptx_lud[];

#define LU_TILE 16 /* 16 x 16 threads = 8 warps per CTA, as kernel.cu; n a multiple of it */

static const struct {
	int n;
} lu_sizes[WS_SIZE_COUNT] = {
    {32},  /* 2 tile steps: 1 + 1 + 1 CTAs, then the last diagonal (4 launches) */
    {96},  /* 6 tile steps: up to 5 perimeter and 25 internal CTAs */
    {256}, /* 16 tile steps: up to 15 perimeter and 225 internal CTAs (2.5 waves of 6 CTAs/SM on 15 SMs) */
};

static ws_result lud_run(ws_sim *sim, ws_module *mod, enum ws_bench_size size, struct ws_bench_out *out)
{
	if ((unsigned)size >= WS_SIZE_COUNT)
		return bench_fail(NULL, out, WS_ERROR_INVALID_VALUE, "lud: size");
	ws_result rc = WS_SUCCESS;
	int n = lu_sizes[size].n, nb = n / LU_TILE;
	size_t elems = (size_t)n * n, bytes = elems * sizeof(float);
	float *a = malloc(bytes), *lu = malloc(bytes);
	ws_deviceptr d;
	int nd = 0;
	ws_function *fdiag, *fperi, *fint;

	if (!a || !lu) {
		rc = bench_fail(NULL, out, WS_ERROR_OUT_OF_MEMORY, "lud: host buffers");
		goto done;
	}
	struct bench_rng rng;
	bench_rng_seed(&rng, 44);
	for (int r = 0; r < n; r++) {
		double off = 0.0;
		for (int c = 0; c < n; c++) {
			a[(size_t)r * n + c] = bench_rng_float(&rng, -1.0f, 1.0f);
			if (c != r)
				off += fabs(a[(size_t)r * n + c]);
		}
		a[(size_t)r * n + r] = (float)(off + 1.0);
	}

	BENCH_CALL(wsModuleGetFunction(&fdiag, mod, "lud_diagonal"));
	BENCH_CALL(wsModuleGetFunction(&fperi, mod, "lud_perimeter"));
	BENCH_CALL(wsModuleGetFunction(&fint, mod, "lud_internal"));
	BENCH_CALL(wsMemAlloc(sim, &d, bytes));
	nd = 1;
	BENCH_CALL(wsMemcpyHtoD(sim, d, a, bytes));
	for (int k = 0; k < nb; k++) {
		int o = k * LU_TILE;
		unsigned rest = (unsigned)(nb - k - 1);
		void *args[] = {&d, &n, &o};
		BENCH_CALL(wsLaunchKernel(fdiag, 1, 1, 1, LU_TILE, LU_TILE, 1, 0, args));
		out->launches++;
		if (rest == 0)
			break;
		BENCH_CALL(wsLaunchKernel(fperi, rest, 1, 1, LU_TILE, LU_TILE, 1, 0, args));
		BENCH_CALL(wsLaunchKernel(fint, rest, rest, 1, LU_TILE, LU_TILE, 1, 0, args));
		out->launches += 2;
	}
	BENCH_CALL(wsMemcpyDtoH(sim, lu, d, bytes));

	for (int i = 0; i < n; i++) {
		for (int j = 0; j < n; j++) {
			/* (L U)_ij = sum_{m <= min(i, j)} L_im U_mj with L_ii = 1 */
			int top = i < j ? i : j;
			double sum = 0.0, mag = 0.0;
			for (int m = 0; m <= top; m++) {
				double l = m == i ? 1.0 : lu[(size_t)i * n + m];
				double x = l * lu[(size_t)m * n + j];
				sum += x;
				mag += fabs(x);
			}
			double want = a[(size_t)i * n + j];
			if (!bench_close(want, sum, 0.0, 2e-6 * (top + 2) * mag)) {
				rc = bench_mismatch(out,
				                    "lud: (L*U)[%d][%d] (index %zu, n=%d): expected A = %.9g, got %.9g "
				                    "(L[%d][%d] = %.9g, U[%d][%d] = %.9g)",
				                    i, j, (size_t)i * n + j, n, want, sum, i, top,
				                    top == i ? 1.0 : (double)lu[(size_t)i * n + top], top, j,
				                    (double)lu[(size_t)top * n + j]);
				goto done;
			}
		}
	}
	snprintf(out->msg, sizeof out->msg, "lud: %dx%d factorization verified (L*U = A)", n, n);
done:
	if (nd)
		wsMemFree(sim, d);
	free(a);
	free(lu);
	return rc;
}

const struct ws_bench_info bench_lud = {
    .name = "lud",
    .description = "blocked LU decomposition: diagonal, perimeter and internal tile kernels per step",
    .sync = "lightly synchronized: __syncthreads per elimination step in the diagonal (31 per CTA) and perimeter (17) "
            "tiles, one in the internal tile update",
    .paper = "BAWS 6.5",
    .ctas_per_sm = 0,
    .warps_per_cta = LU_TILE * LU_TILE / 32,
    .sizes = {"32x32 (2 tile steps, 4 launches of 1 CTA)", "96x96 (6 tile steps, 16 launches, up to 25 CTAs)",
              "256x256 (16 tile steps, 46 launches, up to 225 CTAs)"},
    .ptx = ws_bench_ptx_lud,
    .run = lud_run,
};
