/*
 * vecadd/host.c -- host driver of the vecadd benchmark: c[i] = a[i] + b[i].
 *
 * Inputs are random floats in [-100, 100); the CPU reference is the same
 * single-precision addition, so the result must match bit for bit.
 */
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"

extern const char ws_bench_ptx_vecadd[];

#define VA_THREADS 256 /* 8 warps per CTA */

static const int va_n[WS_SIZE_COUNT] = {1000, 10000, 92000};

static ws_result vecadd_run(ws_sim *sim, ws_module *mod, enum ws_bench_size size, struct ws_bench_out *out)
{
	if ((unsigned)size >= WS_SIZE_COUNT)
		return bench_fail(NULL, out, WS_ERROR_INVALID_VALUE, "vecadd: size");
	ws_result rc = WS_SUCCESS;
	int n = va_n[size];
	size_t bytes = (size_t)n * sizeof(float);
	float *a = malloc(bytes), *b = malloc(bytes), *c = malloc(bytes);
	ws_deviceptr d[3]; /* a, b, c */
	int nd = 0;
	ws_function *fn;

	if (!a || !b || !c) {
		rc = bench_fail(NULL, out, WS_ERROR_OUT_OF_MEMORY, "vecadd: host buffers");
		goto done;
	}
	struct bench_rng rng;
	bench_rng_seed(&rng, 1);
	for (int i = 0; i < n; i++) {
		a[i] = bench_rng_float(&rng, -100.0f, 100.0f);
		b[i] = bench_rng_float(&rng, -100.0f, 100.0f);
	}

	BENCH_CALL(wsModuleGetFunction(&fn, mod, "vecadd"));
	for (; nd < 3; nd++)
		BENCH_CALL(wsMemAlloc(sim, &d[nd], bytes));
	BENCH_CALL(wsMemcpyHtoD(sim, d[0], a, bytes));
	BENCH_CALL(wsMemcpyHtoD(sim, d[1], b, bytes));
	void *args[] = {&d[0], &d[1], &d[2], &n};
	BENCH_CALL(wsLaunchKernel(fn, (unsigned)(n + VA_THREADS - 1) / VA_THREADS, 1, 1, VA_THREADS, 1, 1, 0, args));
	out->launches++;
	BENCH_CALL(wsMemcpyDtoH(sim, c, d[2], bytes));

	for (int i = 0; i < n; i++) {
		float expect = a[i] + b[i];
		if (c[i] != expect) {
			rc = bench_mismatch(out, "vecadd: c[%d] = a[%d] + b[%d]: expected %.9g, got %.9g", i, i, i,
			                    (double)expect, (double)c[i]);
			goto done;
		}
	}
	snprintf(out->msg, sizeof out->msg, "vecadd: %d elements verified", n);
done:
	while (nd > 0)
		wsMemFree(sim, d[--nd]);
	free(a);
	free(b);
	free(c);
	return rc;
}

const struct ws_bench_info bench_vecadd = {
    .name = "vecadd",
    .description = "element-wise vector addition c[i] = a[i] + b[i] (float)",
    .sync = "none",
    .paper = "-",
    .ctas_per_sm = 0,
    .warps_per_cta = VA_THREADS / 32,
    .sizes = {"1000 floats (4 CTAs)", "10000 floats (40 CTAs)", "92000 floats (360 CTAs)"},
    .ptx = ws_bench_ptx_vecadd,
    .run = vecadd_run,
};
