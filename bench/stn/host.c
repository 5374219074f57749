/*
 * stn/host.c -- host driver of the stn benchmark: `iters` Jacobi
 * iterations of a 5-point stencil on an H x W float grid, all in one
 * launch whose CTAs meet at a software global barrier between iterations.
 *
 * The global barrier needs every CTA resident at once, so the grid never
 * exceeds 2 CTAs per SM (the kernel's registers allow exactly 2 on the
 * GTX480 configuration): the host reads the SM count and per-SM limits
 * from the simulator's configuration and uses min(wanted, fit * num_sms)
 * CTAs, fit = min(2, CTAs of this kernel that fit on an SM), each owning
 * `rows` interior rows, so H = ctas * rows + 2 depends on the
 * configuration at paper size (482 rows on 15 SMs).  The register part of
 * that limit uses STN_REGS, the simulator's estimate for kernel.ptx (or
 * the configuration's regs_per_thread when set); should it still be
 * wrong, the kernel's barrier gives up after a bounded spin and sets a
 * flag that the host reports as an error.
 *
 * Initial values are random floats in [0, 1); boundary rows and columns
 * are fixed and present in both buffers.  The CPU reference applies the
 * same float operations in the same order; results are compared with a
 * small relative tolerance (in case of a different rounding of the
 * final multiply).  Interior outputs are pre-filled with NaN.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"

extern const char ws_bench_ptx_stn[];

#define STN_THREADS 512 /* 16 warps per CTA, as kernel.cu */
#define STN_CTAS_PER_SM 2
#define STN_SHARED 4096   /* static shared memory of the kernel, bytes */
#define STN_REGS 24       /* registers per thread the simulator estimates for kernel.ptx */
#define STN_SYNC_WORDS 96 /* counter [0], generation [32], timeout flag [64] */

static unsigned long stn_cfg(ws_sim *sim, const char *key)
{
	char buf[64];
	const char *v = wsConfigGet(wsSimConfig(sim), key, buf, sizeof buf);
	return v ? strtoul(v, NULL, 10) : 0;
}

/* CTAs of the stn kernel that fit on one SM of the simulator's configuration */
static unsigned stn_fit(ws_sim *sim)
{
	unsigned long ws = stn_cfg(sim, "warp_size"), regs = stn_cfg(sim, "regs_per_thread");
	unsigned long warps = ws ? (STN_THREADS + ws - 1) / ws : 0;
	if (!warps)
		return 0;
	unsigned long limit[5] = {stn_cfg(sim, "max_ctas_per_sm"), stn_cfg(sim, "max_threads_per_sm") / STN_THREADS,
	                          stn_cfg(sim, "max_warps_per_sm") / warps, stn_cfg(sim, "shmem_per_sm") / STN_SHARED,
	                          stn_cfg(sim, "regs_per_sm") / ((regs ? regs : STN_REGS) * STN_THREADS)};
	unsigned long fit = STN_CTAS_PER_SM;
	for (int i = 0; i < 5; i++)
		if (limit[i] < fit)
			fit = limit[i];
	return (unsigned)fit;
}

/* rows must be a multiple of 512 / W (the rows of one chunk) */
static const struct {
	unsigned ctas; /* wanted; at most 2 * num_sms */
	int log2w, rows, iters;
} stn_sizes[WS_SIZE_COUNT] = {
    {2, 6, 8, 3},      /* 64 x 18 grid, 2 CTAs x 1 chunk of 8 rows */
    {8, 7, 8, 4},      /* 128 x 66 grid, 8 CTAs x 2 chunks of 4 rows */
    {1000, 8, 16, 10}, /* 256 x 482 grid on 15 SMs: all 30 co-resident CTAs x 8 chunks of 2 rows */
};

static ws_result stn_run(ws_sim *sim, ws_module *mod, enum ws_bench_size size, struct ws_bench_out *out)
{
	if ((unsigned)size >= WS_SIZE_COUNT)
		return bench_fail(NULL, out, WS_ERROR_INVALID_VALUE, "stn: size");
	ws_result rc = WS_SUCCESS;
	unsigned nsms = (unsigned)stn_cfg(sim, "num_sms"), fit = stn_fit(sim);
	if (nsms == 0 || fit == 0)
		return bench_fail(NULL, out, WS_ERROR_LAUNCH_OUT_OF_RESOURCES, "stn: no CTA fits on an SM");
	unsigned ctas = stn_sizes[size].ctas;
	if (ctas > fit * nsms)
		ctas = fit * nsms;
	int log2w = stn_sizes[size].log2w, rows = stn_sizes[size].rows, iters = stn_sizes[size].iters;
	int w = 1 << log2w, h = (int)ctas * rows + 2;
	size_t cells = (size_t)w * h, bytes = cells * sizeof(float);
	float *cur = malloc(bytes), *nxt = malloc(bytes), *got = malloc(bytes);
	ws_deviceptr d[2]; /* grid (both buffers), sync words */
	const size_t d_bytes[2] = {2 * bytes, STN_SYNC_WORDS * sizeof(uint32_t)};
	uint32_t sync[STN_SYNC_WORDS];
	int nd = 0;
	ws_function *fn;

	if (!cur || !nxt || !got) {
		rc = bench_fail(NULL, out, WS_ERROR_OUT_OF_MEMORY, "stn: host buffers");
		goto done;
	}
	struct bench_rng rng;
	bench_rng_seed(&rng, 7);
	for (size_t i = 0; i < cells; i++)
		cur[i] = bench_rng_float(&rng, 0.0f, 1.0f);

	BENCH_CALL(wsModuleGetFunction(&fn, mod, "stn"));
	for (; nd < 2; nd++)
		BENCH_CALL(wsMemAlloc(sim, &d[nd], d_bytes[nd]));
	/* buffer 0 = initial grid; buffer 1 = the boundary, NaN inside */
	for (size_t i = 0; i < cells; i++) {
		int r = (int)(i / (size_t)w), c = (int)(i % (size_t)w);
		nxt[i] = (r == 0 || r == h - 1 || c == 0 || c == w - 1) ? cur[i] : NAN;
	}
	BENCH_CALL(wsMemcpyHtoD(sim, d[0], cur, bytes));
	BENCH_CALL(wsMemcpyHtoD(sim, d[0] + bytes, nxt, bytes));
	BENCH_CALL(wsMemsetD32(sim, d[1], 0, STN_SYNC_WORDS));
	void *args[] = {&d[0], &log2w, &h, &rows, &iters, &d[1]};
	BENCH_CALL(wsLaunchKernel(fn, ctas, 1, 1, STN_THREADS, 1, 1, 0, args));
	out->launches++;
	BENCH_CALL(wsMemcpyDtoH(sim, got, d[0] + (iters & 1 ? bytes : 0), bytes));
	BENCH_CALL(wsMemcpyDtoH(sim, sync, d[1], sizeof sync));
	if (sync[64]) {
		rc = bench_fail(NULL, out, WS_ERROR_DEADLOCK,
		                "stn: the global barrier timed out (not all CTAs of the grid were resident)");
		goto done;
	}

	/* CPU reference: same operations, same order */
	for (int t = 0; t < iters; t++) {
		for (int r = 1; r < h - 1; r++)
			for (int c = 1; c < w - 1; c++) {
				size_t m = (size_t)r * w + c;
				float v = cur[m] + cur[m - w];
				v = v + cur[m + w];
				v = v + cur[m - 1];
				v = v + cur[m + 1];
				nxt[m] = 0.2f * v;
			}
		float *tmp = cur;
		cur = nxt;
		nxt = tmp;
	}
	for (size_t i = 0; i < cells; i++) {
		if (!bench_close(cur[i], got[i], 1e-6, 1e-7)) {
			rc = bench_mismatch(
			    out,
			    "stn: cell[%zu] (row %zu, column %zu of %dx%d, after %d iterations, %u CTAs): "
			    "expected %.9g, got %.9g",
			    i, i / (size_t)w, i % (size_t)w, h, w, iters, ctas, (double)cur[i], (double)got[i]);
			goto done;
		}
	}
	snprintf(out->msg, sizeof out->msg, "stn: %d Jacobi iterations on a %dx%d grid (%u CTAs) verified", iters, h, w,
	         ctas);
done:
	while (nd > 0)
		wsMemFree(sim, d[--nd]);
	free(cur);
	free(nxt);
	free(got);
	return rc;
}

/* spin-inducing branches (bench.h: DDOS ground truth) */
static const struct ws_sib_note stn_sibs[] = {
    {"stn", 166, "inter-CTA barrier: poll the generation word until the last CTA bumps it (bounded)"},
    {NULL, 0, NULL},
};

const struct ws_bench_info bench_stn = {
    .name = "stn",
    .description = "iterative 2-D 5-point Jacobi stencil, one launch, CTAs meet at a software global barrier",
    .sync = "2 __syncthreads per 512-point chunk (tile load, tile reuse); per iteration a global barrier: "
            "atomicAdd arrival, spin on a volatile generation word, __syncthreads around it",
    .paper = "BAWS",
    .ctas_per_sm = STN_CTAS_PER_SM,
    .warps_per_cta = STN_THREADS / 32,
    .sizes = {"64x18 grid, 3 iterations (2 CTAs)", "128x66 grid, 4 iterations (8 CTAs)",
              "256x482 grid, 10 iterations (30 CTAs = 2 per SM on 15 SMs)"},
    .ptx = ws_bench_ptx_stn,
    .sibs = stn_sibs,
    .run = stn_run,
};
