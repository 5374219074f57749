/*
 * sp/host.c -- host driver of the sp benchmark: result[p] = a_p . b_p for
 * `pairs` vector pairs of n floats.
 *
 * Inputs are random floats in [-1, 1).  The CPU reference sums in double;
 * the GPU sums in a different order in single precision, so results are
 * compared with a tolerance scaled by sum_i |a_i * b_i|.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"

extern const char ws_bench_ptx_sp[];

#define SP_THREADS 512 /* 16 warps per CTA, as kernel.cu */

/* tiny and small use fewer CTAs than pairs, so CTAs loop over pairs */
static const struct {
	int pairs, n;
	unsigned ctas;
} sp_sizes[WS_SIZE_COUNT] = {
    {4, 512, 2},      /* 2 pairs per CTA */
    {32, 1024, 16},   /* 2 pairs per CTA */
    {192, 4096, 192}, /* 1 pair per CTA; 4.3 waves of 3 CTAs/SM on 15 SMs */
};

static ws_result sp_run(ws_sim *sim, ws_module *mod, enum ws_bench_size size, struct ws_bench_out *out)
{
	if ((unsigned)size >= WS_SIZE_COUNT)
		return bench_fail(NULL, out, WS_ERROR_INVALID_VALUE, "sp: size");
	ws_result rc = WS_SUCCESS;
	int pairs = sp_sizes[size].pairs, n = sp_sizes[size].n;
	size_t in_bytes = (size_t)pairs * n * sizeof(float), res_bytes = (size_t)pairs * sizeof(float);
	float *a = malloc(in_bytes), *b = malloc(in_bytes), *res = malloc(res_bytes);
	ws_deviceptr d[3]; /* a, b, result */
	const size_t d_bytes[3] = {in_bytes, in_bytes, res_bytes};
	int nd = 0;
	ws_function *fn;

	if (!a || !b || !res) {
		rc = bench_fail(NULL, out, WS_ERROR_OUT_OF_MEMORY, "sp: host buffers");
		goto done;
	}
	struct bench_rng rng;
	bench_rng_seed(&rng, 2);
	for (size_t i = 0; i < (size_t)pairs * n; i++) {
		a[i] = bench_rng_float(&rng, -1.0f, 1.0f);
		b[i] = bench_rng_float(&rng, -1.0f, 1.0f);
	}

	BENCH_CALL(wsModuleGetFunction(&fn, mod, "sp"));
	for (; nd < 3; nd++)
		BENCH_CALL(wsMemAlloc(sim, &d[nd], d_bytes[nd]));
	BENCH_CALL(wsMemcpyHtoD(sim, d[0], a, in_bytes));
	BENCH_CALL(wsMemcpyHtoD(sim, d[1], b, in_bytes));
	BENCH_CALL(wsMemsetD32(sim, d[2], 0x7fc00000u, (size_t)pairs)); /* NaN: catches unwritten results */
	void *args[] = {&d[0], &d[1], &d[2], &pairs, &n};
	BENCH_CALL(wsLaunchKernel(fn, sp_sizes[size].ctas, 1, 1, SP_THREADS, 1, 1, 0, args));
	out->launches++;
	BENCH_CALL(wsMemcpyDtoH(sim, res, d[2], res_bytes));

	for (int p = 0; p < pairs; p++) {
		double sum = 0.0, mag = 0.0;
		for (int i = 0; i < n; i++) {
			double x = (double)a[(size_t)p * n + i] * b[(size_t)p * n + i];
			sum += x;
			mag += fabs(x);
		}
		/* float rounding error <= ~(n/512 + 10) * 2^-24 * mag */
		if (!bench_close(sum, res[p], 1e-5, 4e-6 * mag)) {
			rc = bench_mismatch(out,
			                    "sp: result[%d] (dot product of pair %d, n=%d): expected %.9g, got %.9g", p,
			                    p, n, sum, (double)res[p]);
			goto done;
		}
	}
	snprintf(out->msg, sizeof out->msg, "sp: %d dot products of %d elements verified", pairs, n);
done:
	while (nd > 0)
		wsMemFree(sim, d[--nd]);
	free(a);
	free(b);
	free(res);
	return rc;
}

const struct ws_bench_info bench_sp = {
    .name = "sp",
    .description = "scalar products of many vector pairs, shared-memory tree reduction per pair",
    .sync = "__syncthreads at every level of a shared-memory tree reduction (10 barriers per pair)",
    .paper = "BAWS",
    .ctas_per_sm = 3,
    .warps_per_cta = SP_THREADS / 32,
    .sizes = {"4 pairs x 512 floats (2 CTAs)", "32 pairs x 1024 floats (16 CTAs)",
              "192 pairs x 4096 floats (192 CTAs)"},
    .ptx = ws_bench_ptx_sp,
    .run = sp_run,
};
