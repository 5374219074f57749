/*
 * gaussian/host.c -- host driver of the gaussian benchmark: solve A x = b
 * by Gaussian elimination without pivoting.
 *
 * A is n x n with entries uniform in [-1, 1) and a diagonal raised to
 * sum_j |a_ij| + 1 (strictly diagonally dominant, so elimination without
 * pivoting is stable); x_true is uniform in [-1, 1) and b = A x_true
 * (computed in double, rounded to float).  The device holds the augmented
 * matrix [A | b]; per pivot k the host launches ge_multipliers (n-k-1 rows)
 * and ge_eliminate ((n-k-1) x (n-k) elements), 2(n-1) launches in all.
 * The trailing sub-matrix shrinks by one row and column per pivot, so the
 * edge CTAs of most elimination launches are partial.
 *
 * Verification:
 *  1. the eliminated matrix (multipliers below the diagonal, U and the
 *     transformed b on and above it) against a CPU run of the same float
 *     elimination, relative tolerance 1e-6 of the row's magnitude (the
 *     device may fuse the multiply-subtract);
 *  2. back substitution on the host (in double) from the device's U and
 *     b, against x_true with tolerance 1e-5 (the matrix is well
 *     conditioned; the float elimination errs by about 1e-6).
 * Every element of rows 1 .. n-1 is rewritten by some launch (row 0 is
 * only read), and the inputs differ from the results, so an element the
 * kernels fail to write is caught by check 1.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"

extern const char ws_bench_ptx_gaussian[];

#define GE_THREADS 256 /* 8 warps per CTA, as kernel.cu */
#define GE_TILE 16     /* 16 x 16 = 8 warps per CTA, as kernel.cu */

static const struct {
	int n;
} ge_sizes[WS_SIZE_COUNT] = {
    {16},  /* 15 pivots: 30 launches of 1 CTA */
    {40},  /* 39 pivots: up to 3 x 3 elimination CTAs */
    {208}, /* 207 pivots: up to 13 x 13 = 169 elimination CTAs (1.9 waves of 6 CTAs/SM on 15 SMs) */
};

static ws_result gaussian_run(ws_sim *sim, ws_module *mod, enum ws_bench_size size, struct ws_bench_out *out)
{
	if ((unsigned)size >= WS_SIZE_COUNT)
		return bench_fail(NULL, out, WS_ERROR_INVALID_VALUE, "gaussian: size");
	ws_result rc = WS_SUCCESS;
	int n = ge_sizes[size].n, w = n + 1;
	size_t elems = (size_t)n * w, bytes = elems * sizeof(float);
	float *a = malloc(bytes), *ref = malloc(bytes), *got = malloc(bytes);
	double *xt = malloc((size_t)n * sizeof(double)), *x = malloc((size_t)n * sizeof(double));
	ws_deviceptr d;
	int nd = 0;
	ws_function *fmul, *felim;

	if (!a || !ref || !got || !xt || !x) {
		rc = bench_fail(NULL, out, WS_ERROR_OUT_OF_MEMORY, "gaussian: host buffers");
		goto done;
	}
	struct bench_rng rng;
	bench_rng_seed(&rng, 43);
	for (int r = 0; r < n; r++) {
		double off = 0.0;
		for (int c = 0; c < n; c++) {
			a[(size_t)r * w + c] = bench_rng_float(&rng, -1.0f, 1.0f);
			if (c != r)
				off += fabs(a[(size_t)r * w + c]);
		}
		a[(size_t)r * w + r] = (float)(off + 1.0);
	}
	for (int r = 0; r < n; r++)
		xt[r] = bench_rng_float(&rng, -1.0f, 1.0f);
	for (int r = 0; r < n; r++) {
		double s = 0.0;
		for (int c = 0; c < n; c++)
			s += (double)a[(size_t)r * w + c] * xt[c];
		a[(size_t)r * w + n] = (float)s;
	}

	BENCH_CALL(wsModuleGetFunction(&fmul, mod, "ge_multipliers"));
	BENCH_CALL(wsModuleGetFunction(&felim, mod, "ge_eliminate"));
	BENCH_CALL(wsMemAlloc(sim, &d, bytes));
	nd = 1;
	BENCH_CALL(wsMemcpyHtoD(sim, d, a, bytes));
	for (int k = 0; k < n - 1; k++) {
		void *args[] = {&d, &n, &k};
		int rows = n - k - 1, cols = n - k;
		BENCH_CALL(wsLaunchKernel(fmul, (unsigned)((rows + GE_THREADS - 1) / GE_THREADS), 1, 1, GE_THREADS, 1,
		                          1, 0, args));
		BENCH_CALL(wsLaunchKernel(felim, (unsigned)((cols + GE_TILE - 1) / GE_TILE),
		                          (unsigned)((rows + GE_TILE - 1) / GE_TILE), 1, GE_TILE, GE_TILE, 1, 0, args));
		out->launches += 2;
	}
	BENCH_CALL(wsMemcpyDtoH(sim, got, d, bytes));

	/* 1. CPU elimination with the same float operations */
	for (size_t i = 0; i < elems; i++)
		ref[i] = a[i];
	for (int k = 0; k < n - 1; k++) {
		for (int r = k + 1; r < n; r++) {
			float m = ref[(size_t)r * w + k] / ref[(size_t)k * w + k];
			ref[(size_t)r * w + k] = m;
			for (int c = k + 1; c <= n; c++) {
				float p = m * ref[(size_t)k * w + c];
				ref[(size_t)r * w + c] -= p;
			}
		}
	}
	for (int r = 0; r < n; r++) {
		double mag = 0.0;
		for (int c = 0; c <= n; c++)
			mag += fabs(a[(size_t)r * w + c]);
		for (int c = 0; c <= n; c++) {
			size_t i = (size_t)r * w + c;
			/* multipliers are O(1/n); the rest scale with the row */
			double tol = c < r ? 1e-6 : 1e-6 * mag;
			if (!bench_close(ref[i], got[i], 1e-6, tol)) {
				rc = bench_mismatch(
				    out, "gaussian: a[%d][%d] (index %zu, %s, n=%d): expected %.9g, got %.9g", r, c, i,
				    c < r   ? "multiplier"
				    : c < n ? "U"
				            : "transformed b",
				    n, (double)ref[i], (double)got[i]);
				goto done;
			}
		}
	}
	/* 2. back substitution from the device's triangle */
	for (int r = n - 1; r >= 0; r--) {
		double s = got[(size_t)r * w + n];
		for (int c = r + 1; c < n; c++)
			s -= (double)got[(size_t)r * w + c] * x[c];
		x[r] = s / got[(size_t)r * w + r];
		if (!bench_close(xt[r], x[r], 1e-5, 1e-5)) {
			rc = bench_mismatch(out, "gaussian: x[%d] (back substitution, n=%d): expected %.9g, got %.9g",
			                    r, n, xt[r], x[r]);
			goto done;
		}
	}
	snprintf(out->msg, sizeof out->msg, "gaussian: %dx%d system eliminated and solved, verified", n, n);
done:
	if (nd)
		wsMemFree(sim, d);
	free(a);
	free(ref);
	free(got);
	free(xt);
	free(x);
	return rc;
}

const struct ws_bench_info bench_gaussian = {
    .name = "gaussian",
    .description = "Gaussian elimination: per pivot a multiplier kernel and a sub-matrix update kernel; "
                   "back substitution on the host",
    .sync = "none inside kernels; kernel boundaries order the pivots (2 launches per pivot)",
    .paper = "BAWS 6.5, DWR (GAS)",
    .ctas_per_sm = 0,
    .warps_per_cta = GE_THREADS / 32,
    .sizes = {"16x16 system (30 launches of 1 CTA)", "40x40 (78 launches, up to 9 CTAs)",
              "208x208 (414 launches, up to 169 CTAs)"},
    .ptx = ws_bench_ptx_gaussian,
    .run = gaussian_run,
};
