/*
 * ss/host.c -- host driver of the ss benchmark (similarity score): cosine
 * similarity of every pair of documents (upper-triangle tiles, as
 * (pair, score) records).
 *
 * Documents are block-sparse term vectors: each block of SS_T features is
 * used by a document with probability 1/2 (at least one block per
 * document), and within a used block 1/4 of the terms are zero, the others
 * weights in (0, 1).  The CPU computes cosines in double from the original
 * vectors; the GPU normalizes in float and sums unit-vector products in
 * float, so results are compared with an absolute tolerance of 2e-5 (the
 * cosines lie in [0, 1]) plus a relative 1e-5.
 *
 * Launches: ss_norm (one warp per document), then ss (one CTA per tile).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"

extern const char ws_bench_ptx_ss[];

#define SS_T 16 /* ss: 16 x 16 = 256 threads (8 warps) per CTA, as kernel.cu */
#define SS_NORM_THREADS 256

static const struct {
	int ndocs, nfeat; /* multiples of SS_T; nfeat <= 32 * SS_T */
} ss_sizes[WS_SIZE_COUNT] = {
    {32, 32},   /* 2 x 2 tiles: 3 CTAs */
    {96, 128},  /* 6 x 6 tiles: 21 CTAs */
    {368, 192}, /* 23 x 23 tiles: 276 CTAs, 3 waves of 6 CTAs/SM on 15 SMs */
};

static void ss_make_docs(struct bench_rng *rng, int ndocs, int nfeat, float *docs)
{
	int nblk = nfeat / SS_T;
	for (int i = 0; i < ndocs; i++) {
		float *d = docs + (size_t)i * nfeat;
		uint32_t used = 0;
		for (int c = 0; c < nblk; c++)
			used |= (uint32_t)bench_rng_u32(rng, 2) << c;
		if (!used)
			used = 1u << bench_rng_u32(rng, (uint32_t)nblk);
		for (int c = 0; c < nblk; c++) {
			for (int k = c * SS_T; k < (c + 1) * SS_T; k++) {
				if (!(used >> c & 1) || bench_rng_u32(rng, 4) == 0)
					d[k] = 0.0f;
				else
					d[k] = bench_rng_float(rng, 0.01f, 1.0f);
			}
			if (used >> c & 1)
				d[c * SS_T + (int)bench_rng_u32(rng, SS_T)] = 0.5f; /* a used block is never all zero */
		}
	}
}

static ws_result ss_run(ws_sim *sim, ws_module *mod, enum ws_bench_size size, struct ws_bench_out *out)
{
	if ((unsigned)size >= WS_SIZE_COUNT)
		return bench_fail(NULL, out, WS_ERROR_INVALID_VALUE, "ss: size");
	ws_result rc = WS_SUCCESS;
	int ndocs = ss_sizes[size].ndocs, nfeat = ss_sizes[size].nfeat, nt = ndocs / SS_T;
	int ntiles = nt * (nt + 1) / 2;
	size_t doc_bytes = (size_t)ndocs * nfeat * sizeof(float), score_n = (size_t)ntiles * SS_T * SS_T;
	float *docs = malloc(doc_bytes), *score = malloc(score_n * sizeof *score);
	double *norm = malloc((size_t)ndocs * sizeof *norm);
	int32_t *tiles = malloc((size_t)ntiles * 2 * sizeof *tiles);
	ws_deviceptr d[5]; /* docs, unit, blocks, tiles, score */
	const size_t d_bytes[5] = {doc_bytes, doc_bytes, (size_t)ndocs * sizeof(uint32_t),
	                           (size_t)ntiles * 2 * sizeof(int32_t), score_n * sizeof(float)};
	int nd = 0;
	ws_function *fnorm, *fss;

	if (!docs || !score || !norm || !tiles) {
		rc = bench_fail(NULL, out, WS_ERROR_OUT_OF_MEMORY, "ss: host buffers");
		goto done;
	}
	struct bench_rng rng;
	bench_rng_seed(&rng, 7);
	ss_make_docs(&rng, ndocs, nfeat, docs);
	int b = 0;
	for (int x = 0; x < nt; x++)
		for (int y = x; y < nt; y++, b++) {
			tiles[2 * b] = x;
			tiles[2 * b + 1] = y;
		}

	BENCH_CALL(wsModuleGetFunction(&fnorm, mod, "ss_norm"));
	BENCH_CALL(wsModuleGetFunction(&fss, mod, "ss"));
	for (; nd < 5; nd++)
		BENCH_CALL(wsMemAlloc(sim, &d[nd], d_bytes[nd]));
	BENCH_CALL(wsMemcpyHtoD(sim, d[0], docs, doc_bytes));
	BENCH_CALL(wsMemcpyHtoD(sim, d[3], tiles, d_bytes[3]));
	BENCH_CALL(wsMemsetD32(sim, d[4], 0x7fc00000u, score_n)); /* NaN: catches unwritten scores */
	void *nargs[] = {&d[0], &ndocs, &nfeat, &d[1], &d[2]};
	BENCH_CALL(wsLaunchKernel(fnorm, (unsigned)(ndocs * 32 + SS_NORM_THREADS - 1) / SS_NORM_THREADS, 1, 1,
	                          SS_NORM_THREADS, 1, 1, 0, nargs));
	out->launches++;
	void *args[] = {&d[1], &d[2], &nfeat, &d[3], &d[4]};
	BENCH_CALL(wsLaunchKernel(fss, (unsigned)ntiles, 1, 1, SS_T, SS_T, 1, 0, args));
	out->launches++;
	BENCH_CALL(wsMemcpyDtoH(sim, score, d[4], d_bytes[4]));

	for (int i = 0; i < ndocs; i++) {
		double s = 0.0;
		for (int k = 0; k < nfeat; k++)
			s += (double)docs[(size_t)i * nfeat + k] * docs[(size_t)i * nfeat + k];
		norm[i] = sqrt(s);
	}
	for (b = 0; b < ntiles; b++) {
		for (int ty = 0; ty < SS_T; ty++) {
			for (int tx = 0; tx < SS_T; tx++) {
				int i = tiles[2 * b] * SS_T + ty, j = tiles[2 * b + 1] * SS_T + tx;
				double dot = 0.0;
				for (int k = 0; k < nfeat; k++)
					dot += (double)docs[(size_t)i * nfeat + k] * docs[(size_t)j * nfeat + k];
				double expect = dot / (norm[i] * norm[j]);
				size_t at = ((size_t)b * SS_T + ty) * SS_T + tx;
				if (!bench_close(expect, score[at], 1e-5, 2e-5)) {
					rc = bench_mismatch(out,
					                    "ss: score[%zu] (tile %d, cosine of documents %d and %d): "
					                    "expected %.9g, got %.9g",
					                    at, b, i, j, expect, (double)score[at]);
					goto done;
				}
			}
		}
	}
	snprintf(out->msg, sizeof out->msg, "ss: %d cosines of %d documents x %d features verified",
	         ntiles * SS_T * SS_T, ndocs, nfeat);
done:
	while (nd > 0)
		wsMemFree(sim, d[--nd]);
	free(docs);
	free(score);
	free(norm);
	free(tiles);
	return rc;
}

const struct ws_bench_info bench_ss = {
    .name = "ss",
    .description = "similarity score: cosine of every document pair, 16x16 shared-memory tiles of term vectors",
    .sync = "two __syncthreads per block of 16 features; the multiply-adds of a block that is zero in the row "
            "document are skipped, so warps reach the barriers at different times",
    .paper = "BAWS",
    .ctas_per_sm = 6,
    .warps_per_cta = SS_T * SS_T / 32,
    .sizes = {"32 documents x 32 features (3 CTAs)", "96 documents x 128 features (21 CTAs)",
              "368 documents x 192 features (276 CTAs)"},
    .ptx = ws_bench_ptx_ss,
    .run = ss_run,
    .min_warp_size = 32, /* ss_norm: one 32-thread warp per document, shuffle reduction, ballot */
};
