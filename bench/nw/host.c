/*
 * nw/host.c -- host driver of the nw benchmark: Needleman-Wunsch score
 * matrix of two random sequences of length n over a 24-letter alphabet.
 *
 * The substitution table is our own: a random symmetric 24 x 24 table with
 * matches scoring 4..11 and mismatches -4..1; the gap penalty is 10.  The
 * host builds ref[i][j] = table[seq1[i]][seq2[j]], initialises row 0 and
 * column 0 of the (n+1) x (n+1) score matrix to -penalty * index and fills
 * the interior with a sentinel (NW_SENTINEL; real scores are far from it),
 * then launches the kernel once per anti-diagonal of 16 x 16 tiles
 * (2 * n/16 - 1 launches, 1, 2, .., n/16, .., 1 CTAs).  The whole matrix is
 * compared exactly with a CPU run of the recurrence.
 */
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"

extern const char ws_bench_ptx_nw[];

#define NW_TILE 16 /* tile side == threads per CTA (1 warp, half populated), as kernel.cu */
#define NW_ALPHABET 24
#define NW_PENALTY 10
#define NW_SENTINEL (-1000000007)

static const struct {
	int n; /* sequence length, a multiple of NW_TILE */
} nw_sizes[WS_SIZE_COUNT] = {
    {48},   /* 3 x 3 tiles: 9 CTAs in 5 launches */
    {160},  /* 10 x 10 tiles: 100 CTAs in 19 launches */
    {1024}, /* 64 x 64 tiles: 4096 CTAs in 127 launches (at most 64 CTAs per launch) */
};

static ws_result nw_run(ws_sim *sim, ws_module *mod, enum ws_bench_size size, struct ws_bench_out *out)
{
	if ((unsigned)size >= WS_SIZE_COUNT)
		return bench_fail(NULL, out, WS_ERROR_INVALID_VALUE, "nw: size");
	ws_result rc = WS_SUCCESS;
	int n = nw_sizes[size].n, w = n + 1, penalty = NW_PENALTY;
	size_t score_cells = (size_t)w * w;
	const size_t d_bytes[2] = {score_cells * sizeof(int), (size_t)n * n * sizeof(int)};
	int *score = malloc(d_bytes[0]), *expect = malloc(d_bytes[0]), *ref = malloc(d_bytes[1]);
	unsigned char *seq1 = malloc((size_t)n), *seq2 = malloc((size_t)n);
	int table[NW_ALPHABET][NW_ALPHABET];
	ws_deviceptr d[2]; /* score, ref */
	int nd = 0;
	ws_function *fn;

	if (!score || !expect || !ref || !seq1 || !seq2) {
		rc = bench_fail(NULL, out, WS_ERROR_OUT_OF_MEMORY, "nw: host buffers");
		goto done;
	}
	struct bench_rng rng;
	bench_rng_seed(&rng, 36);
	for (int a = 0; a < NW_ALPHABET; a++) {
		table[a][a] = 4 + (int)bench_rng_u32(&rng, 8);
		for (int b = 0; b < a; b++)
			table[a][b] = table[b][a] = -4 + (int)bench_rng_u32(&rng, 6);
	}
	for (int i = 0; i < n; i++) {
		seq1[i] = (unsigned char)bench_rng_u32(&rng, NW_ALPHABET);
		/* second sequence: a mutated copy of the first, so the alignment is not trivial */
		seq2[i] = bench_rng_u32(&rng, 3) ? seq1[i] : (unsigned char)bench_rng_u32(&rng, NW_ALPHABET);
	}
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++)
			ref[(size_t)i * n + j] = table[seq1[i]][seq2[j]];
	for (size_t k = 0; k < score_cells; k++)
		score[k] = NW_SENTINEL;
	for (int i = 0; i < w; i++) {
		score[(size_t)i * w] = -penalty * i;
		score[i] = -penalty * i;
	}

	BENCH_CALL(wsModuleGetFunction(&fn, mod, "nw"));
	for (; nd < 2; nd++)
		BENCH_CALL(wsMemAlloc(sim, &d[nd], d_bytes[nd]));
	BENCH_CALL(wsMemcpyHtoD(sim, d[0], score, d_bytes[0]));
	BENCH_CALL(wsMemcpyHtoD(sim, d[1], ref, d_bytes[1]));
	int tiles = n / NW_TILE;
	for (int diag = 0; diag < 2 * tiles - 1; diag++) {
		unsigned ctas = (unsigned)(diag < tiles ? diag + 1 : 2 * tiles - 1 - diag);
		void *args[] = {&d[0], &d[1], &n, &diag, &penalty};
		BENCH_CALL(wsLaunchKernel(fn, ctas, 1, 1, NW_TILE, 1, 1, 0, args));
		out->launches++;
	}
	BENCH_CALL(wsMemcpyDtoH(sim, score, d[0], d_bytes[0]));

	for (int j = 0; j < w; j++)
		expect[j] = -penalty * j;
	for (int i = 1; i < w; i++) {
		expect[(size_t)i * w] = -penalty * i;
		for (int j = 1; j < w; j++) {
			int a = expect[(size_t)(i - 1) * w + j - 1] + ref[(size_t)(i - 1) * n + j - 1];
			int b = expect[(size_t)(i - 1) * w + j] - penalty;
			int c = expect[(size_t)i * w + j - 1] - penalty;
			int m = a > b ? a : b;
			expect[(size_t)i * w + j] = m > c ? m : c;
		}
	}
	for (size_t k = 0; k < score_cells; k++) {
		if (score[k] != expect[k]) {
			rc = bench_mismatch(out, "nw: score[%zu][%zu] (index %zu, n=%d): expected %d, got %d",
			                    k / (size_t)w, k % (size_t)w, k, n, expect[k], score[k]);
			goto done;
		}
	}
	snprintf(out->msg, sizeof out->msg, "nw: %dx%d score matrix verified (alignment score %d)", w, w,
	         expect[score_cells - 1]);
done:
	while (nd > 0)
		wsMemFree(sim, d[--nd]);
	free(score);
	free(expect);
	free(ref);
	free(seq1);
	free(seq2);
	return rc;
}

const struct ws_bench_info bench_nw = {
    .name = "nw",
    .description =
        "Needleman-Wunsch alignment scores: wavefront of 16x16 shared-memory tiles, one launch per tile diagonal",
    .sync = "lightly synchronized: __syncthreads after the tile load and after each of 31 inner anti-diagonals",
    .paper = "BAWS 6.5, DWR (NW)",
    .ctas_per_sm = 0,
    .warps_per_cta = 1,
    .sizes = {"48x48 (9 CTAs in 5 launches)", "160x160 (100 CTAs in 19 launches)",
              "1024x1024 (4096 CTAs in 127 launches)"},
    .ptx = ws_bench_ptx_nw,
    .run = nw_run,
};
