/*
 * fwt/host.c -- host driver of the fwt benchmark: in-place fast
 * Walsh-Hadamard transforms of a batch of vectors of random integers in
 * [-100, 100], each vector 1024 * 2^log2h elements long, stored back to
 * back.
 *
 * fwt_local does the 10 low-bit stages (one 1024-element block per CTA),
 * then fwt_global the log2h high-bit stages of every vector (one slab of
 * columns per CTA, at most 5 bits per launch so that tile rows are at
 * least 32 contiguous ints); every launch has N / 1024 CTAs.  The CPU
 * reference is the textbook in-place radix-2 loop over every stage of
 * each vector in 64-bit arithmetic; |X[k]| <= 100 * length fits in an
 * int, so the check is exact.
 */
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"

extern const char ws_bench_ptx_fwt[];

#define FWT_THREADS 512 /* 16 warps per CTA, as kernel.cu */
#define FWT_BLOCK 1024  /* elements per CTA, as kernel.cu */
#define FWT_MAXBITS 5   /* high bits per fwt_global launch, as kernel.cu allows */

static const struct {
	int vectors, log2h; /* a batch of vectors of 1024 << log2h elements each */
} fwt_sizes[WS_SIZE_COUNT] = {
    {1, 1}, /* 1 x 2048: 2 CTAs per launch, 1 high-bit stage */
    {2, 3}, /* 2 x 8192: 16 CTAs per launch, 3 high-bit stages */
    {8, 5}, /* 8 x 32,768: 256 CTAs per launch (5.7 waves of 3 CTAs/SM on 15 SMs), 5 high-bit stages */
};

static ws_result fwt_run(ws_sim *sim, ws_module *mod, enum ws_bench_size size, struct ws_bench_out *out)
{
	if ((unsigned)size >= WS_SIZE_COUNT)
		return bench_fail(NULL, out, WS_ERROR_INVALID_VALUE, "fwt: size");
	ws_result rc = WS_SUCCESS;
	int log2h = fwt_sizes[size].log2h, vectors = fwt_sizes[size].vectors;
	size_t len = (size_t)FWT_BLOCK << log2h, n = len * (size_t)vectors, bytes = n * sizeof(int32_t);
	unsigned ctas = (unsigned)(n / FWT_BLOCK);
	int32_t *x = malloc(bytes);
	int64_t *expect = malloc(n * sizeof *expect);
	ws_deviceptr d = 0;
	int have_d = 0;
	ws_function *local, *global;

	if (!x || !expect) {
		rc = bench_fail(NULL, out, WS_ERROR_OUT_OF_MEMORY, "fwt: host buffers");
		goto done;
	}
	struct bench_rng rng;
	bench_rng_seed(&rng, 6);
	for (size_t i = 0; i < n; i++) {
		x[i] = (int32_t)bench_rng_u32(&rng, 201) - 100;
		expect[i] = x[i];
	}
	for (size_t v = 0; v < n; v += len)
		for (size_t s = 1; s < len; s <<= 1)
			for (size_t i = v; i < v + len; i += 2 * s)
				for (size_t k = i; k < i + s; k++) {
					int64_t a = expect[k], b = expect[k + s];
					expect[k] = a + b;
					expect[k + s] = a - b;
				}

	BENCH_CALL(wsModuleGetFunction(&local, mod, "fwt_local"));
	BENCH_CALL(wsModuleGetFunction(&global, mod, "fwt_global"));
	BENCH_CALL(wsMemAlloc(sim, &d, bytes));
	have_d = 1;
	BENCH_CALL(wsMemcpyHtoD(sim, d, x, bytes));
	void *largs[] = {&d};
	BENCH_CALL(wsLaunchKernel(local, ctas, 1, 1, FWT_THREADS, 1, 1, 0, largs));
	out->launches++;
	/* the log2h high bits in launches of at most FWT_MAXBITS, as even as possible */
	int passes = (log2h + FWT_MAXBITS - 1) / FWT_MAXBITS;
	for (int lowbit = 10, left = log2h; left > 0; passes--) {
		int nbits = (left + passes - 1) / passes;
		void *gargs[] = {&d, &lowbit, &nbits};
		BENCH_CALL(wsLaunchKernel(global, ctas, 1, 1, FWT_THREADS, 1, 1, 0, gargs));
		out->launches++;
		lowbit += nbits;
		left -= nbits;
	}
	for (size_t i = 0; i < n; i++)
		x[i] = INT32_MIN; /* a value no output can take: catches a failed copy */
	BENCH_CALL(wsMemcpyDtoH(sim, x, d, bytes));

	for (size_t i = 0; i < n; i++) {
		if (x[i] != expect[i]) {
			rc = bench_mismatch(
			    out, "fwt: X[%zu] (element %zu of vector %zu, length %zu): expected %lld, got %d", i,
			    i % len, i / len, len, (long long)expect[i], x[i]);
			goto done;
		}
	}
	snprintf(out->msg, sizeof out->msg, "fwt: %d Walsh-Hadamard transforms of length %zu verified (exact)", vectors,
	         len);
done:
	if (have_d)
		wsMemFree(sim, d);
	free(x);
	free(expect);
	return rc;
}

const struct ws_bench_info bench_fwt = {
    .name = "fwt",
    .description = "fast Walsh-Hadamard transforms of integer vectors: shared-memory butterflies on low, then high "
                   "index bits",
    .sync = "__syncthreads after every radix-2 butterfly stage (one butterfly per thread): 11 per CTA in fwt_local, "
            "(high bits) + 1 in fwt_global",
    .paper = "BAWS, DWR (FWAL)",
    .ctas_per_sm = 3,
    .warps_per_cta = FWT_THREADS / 32,
    .sizes = {"1 vector of 2048 ints (2 CTAs x 2 launches)", "2 vectors of 8192 ints (16 CTAs x 2 launches)",
              "8 vectors of 32,768 ints (256 CTAs x 2 launches)"},
    .ptx = ws_bench_ptx_fwt,
    .run = fwt_run,
};
