/*
 * scan/host.c -- host driver of the scan benchmark (CUDA SDK 2.3
 * scanLargeArray, the DWR paper's SC): exclusive prefix sum of n random
 * unsigned values in [0, 1000).
 *
 * Level 0: scan_block over ceil(n/512) CTAs writes the block-wise scans and
 * block totals; if there is more than one block, the totals are scanned
 * the same way (recursively, each level 512 times shorter) and scan_add
 * adds them back, level by level.  The output is pre-filled with
 * 0xffffffff; the result is compared exactly (integer sums, no rounding)
 * with a sequential CPU scan, naming the first wrong element.
 */
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"

extern const char ws_bench_ptx_scan[];

#define SCAN_THREADS 256 /* as kernel.cu */
#define SCAN_ELEMS (2 * SCAN_THREADS)
#define SCAN_LEVELS 3    /* up to 512^3 elements */

static const int scan_n[WS_SIZE_COUNT] = {
    1000,  /* 2 CTAs + 1 (totals) + 2 (add) */
    8000,  /* 16 CTAs + 1 + 16 */
    32768, /* 64 CTAs + 1 + 64: Table 1's grid of 64 CTAs of 256 threads */
};

static ws_result scan_run(ws_sim *sim, ws_module *mod, enum ws_bench_size size, struct ws_bench_out *out)
{
	if ((unsigned)size >= WS_SIZE_COUNT)
		return bench_fail(NULL, out, WS_ERROR_INVALID_VALUE, "scan: size");
	ws_result rc = WS_SUCCESS;
	int n = scan_n[size];
	unsigned *in = malloc((size_t)n * sizeof(unsigned)), *got = malloc((size_t)n * sizeof(unsigned));
	ws_deviceptr d_in = 0, d_lvl[SCAN_LEVELS] = {0}; /* d_lvl[0] = output, [k] = totals of level k-1 */
	int len[SCAN_LEVELS] = {0}, nlvl = 0, have_in = 0, nalloc = 0;
	ws_function *f_scan, *f_add;

	if (!in || !got) {
		rc = bench_fail(NULL, out, WS_ERROR_OUT_OF_MEMORY, "scan: host buffers");
		goto done;
	}
	struct bench_rng rng;
	bench_rng_seed(&rng, 23);
	for (int i = 0; i < n; i++)
		in[i] = bench_rng_u32(&rng, 1000);

	BENCH_CALL(wsModuleGetFunction(&f_scan, mod, "scan_block"));
	BENCH_CALL(wsModuleGetFunction(&f_add, mod, "scan_add"));
	BENCH_CALL(wsMemAlloc(sim, &d_in, (size_t)n * sizeof(unsigned)));
	have_in = 1;
	BENCH_CALL(wsMemcpyHtoD(sim, d_in, in, (size_t)n * sizeof(unsigned)));
	/* level k scans len[k] elements into d_lvl[k]; its block totals are level k+1 */
	for (int m = n; nlvl < SCAN_LEVELS; m = (m + SCAN_ELEMS - 1) / SCAN_ELEMS) {
		len[nlvl] = m;
		BENCH_CALL(wsMemAlloc(sim, &d_lvl[nlvl], (size_t)m * sizeof(unsigned)));
		nalloc++;
		BENCH_CALL(wsMemsetD32(sim, d_lvl[nlvl], 0xffffffffu, (size_t)m));
		nlvl++;
		if (m <= SCAN_ELEMS)
			break;
	}
	if (len[nlvl - 1] > SCAN_ELEMS) {
		rc = bench_fail(NULL, out, WS_ERROR_INVALID_VALUE, "scan: n too large for 3 levels");
		goto done;
	}
	for (int k = 0; k < nlvl; k++) {
		ws_deviceptr src = k == 0 ? d_in : d_lvl[k], dst = d_lvl[k];
		ws_deviceptr sums = k + 1 < nlvl ? d_lvl[k + 1] : 0;
		/* level k > 0 scans the totals in place: they were written into d_lvl[k] */
		void *args[] = {&src, &dst, &sums, &len[k]};
		BENCH_CALL(wsLaunchKernel(f_scan, (unsigned)((len[k] + SCAN_ELEMS - 1) / SCAN_ELEMS), 1, 1,
		                          SCAN_THREADS, 1, 1, 0, args));
		out->launches++;
	}
	for (int k = nlvl - 2; k >= 0; k--) {
		void *args[] = {&d_lvl[k], &d_lvl[k + 1], &len[k]};
		BENCH_CALL(wsLaunchKernel(f_add, (unsigned)((len[k] + SCAN_ELEMS - 1) / SCAN_ELEMS), 1, 1,
		                          SCAN_THREADS, 1, 1, 0, args));
		out->launches++;
	}
	BENCH_CALL(wsMemcpyDtoH(sim, got, d_lvl[0], (size_t)n * sizeof(unsigned)));

	unsigned acc = 0;
	for (int i = 0; i < n; i++) {
		if (got[i] != acc) {
			rc = bench_mismatch(out, "scan: out[%d] of %d: expected %u, got %u", i, n, acc, got[i]);
			goto done;
		}
		acc += in[i];
	}
	snprintf(out->msg, sizeof out->msg, "scan: exclusive prefix sum of %d values exact (total %u, %d levels)", n,
	         acc, nlvl);
done:
	while (nalloc > 0)
		wsMemFree(sim, d_lvl[--nalloc]);
	if (have_in)
		wsMemFree(sim, d_in);
	free(in);
	free(got);
	return rc;
}

const struct ws_bench_info bench_scan = {
    .name = "scan",
    .description = "exclusive prefix sum (CUDA SDK scanLargeArray): Blelloch scan of 512-element blocks, block totals "
                   "scanned recursively and added back",
    .sync = "lightly synchronized: 20 __syncthreads per scan_block CTA (one per tree level), fewer active threads "
            "each level; none in scan_add",
    .paper = "DWR (SC)",
    .ctas_per_sm = 0,
    .warps_per_cta = SCAN_THREADS / 32,
    .sizes = {"1000 values (2 + 1 + 2 CTAs, 3 launches)", "8000 values (16 + 1 + 16 CTAs, 3 launches)",
              "32,768 values (64 + 1 + 64 CTAs of 256, 3 launches)"},
    .ptx = ws_bench_ptx_scan,
    .run = scan_run,
};
