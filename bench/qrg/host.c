/*
 * qrg/host.c -- host driver of the quasirandom generator (after the CUDA
 * SDK's quasirandomGenerator, our own code): `iters` rounds of qrg_gen
 * (n 3-D points starting at index seed = round * n) and qrg_icnd (inverse
 * normal CDF of the uniform grid (i+1)/(3n+1), i < 3n), like the SDK's
 * repeated generator + inverse-CND launches (its 42 kernels).  Both use
 * the same 1-D grid of `ctas` CTAs of QRG_THREADS threads and grid-stride
 * loops, so the CTA count per kernel is independent of n (128 at paper
 * size, the KAWS paper's number).
 *
 * Direction numbers (constant memory c_table, copied once): dimension 0 is
 * van der Corput (v_b = 2^(30-b)); dimensions 1 and 2 are Sobol's with
 * the primitive polynomials x + 1 (m = 1) and x^2 + x + 1 (m = 1, 3), the
 * first two of Joe and Kuo's table, extended by the usual recurrence.
 *
 * Verification after every round: the points exactly (integer XOR, then
 * an exact conversion and power-of-two scale); the normal quantiles
 * against Moro's algorithm evaluated in double from the same float grid
 * point and the same float branch test, relative and absolute 2e-5 (float
 * evaluation of the rational / polynomial forms and the hardware log).
 * Outputs are pre-filled with NaN every round.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"

extern const char ws_bench_ptx_qrg[];

#define QRG_THREADS 128 /* as kernel.cu */
#define QRG_DIMS 3
#define QRG_BITS 31

static const struct {
	int ctas, n, iters;
} qrg_sizes[WS_SIZE_COUNT] = {
    {2, 600, 1},      /* 2 CTAs x 2 kernels */
    {16, 6000, 2},    /* 16 CTAs x 4 kernels */
    {128, 65536, 21}, /* 128 CTAs x 42 kernels (KAWS Table 2's QRG) */
};

static void qrg_table(unsigned table[QRG_DIMS][QRG_BITS])
{
	unsigned m1[QRG_BITS + 1], m2[QRG_BITS + 1];
	m1[1] = 1;
	m2[1] = 1;
	m2[2] = 3;
	for (int i = 2; i <= QRG_BITS; i++)
		m1[i] = (m1[i - 1] << 1) ^ m1[i - 1]; /* x + 1: s = 1 */
	for (int i = 3; i <= QRG_BITS; i++)
		m2[i] = (m2[i - 1] << 1) ^ (m2[i - 2] << 2) ^ m2[i - 2]; /* x^2 + x + 1: s = 2, a = 1 */
	for (int b = 0; b < QRG_BITS; b++) {
		table[0][b] = 1u << (QRG_BITS - 1 - b);
		table[1][b] = m1[b + 1] << (QRG_BITS - 1 - b);
		table[2][b] = m2[b + 1] << (QRG_BITS - 1 - b);
	}
}

/* Moro's inverse normal CDF in double, branch chosen on float y as the kernel does */
static double qrg_moro(float p)
{
	const double a1 = 2.50662823884, a2 = -18.61500062529, a3 = 41.39119773534, a4 = -25.44106049637;
	const double b1 = -8.4736109151, b2 = 23.08336743743, b3 = -21.06224101826, b4 = 3.13082909833;
	const double c[9] = {0.337475482272615, 0.976169019091719, 0.160797971491821, 2.76438810333863e-2,
	                     3.8405729373609e-3, 3.951896511919e-4, 3.21767881768e-5,   2.888167364e-7,
	                     3.960315187e-7};
	float yf = p - 0.5f;
	double y = yf;
	if (fabsf(yf) < 0.42f) {
		double r = y * y;
		return y * (((a4 * r + a3) * r + a2) * r + a1) / ((((b4 * r + b3) * r + b2) * r + b1) * r + 1.0);
	}
	double r = yf > 0.0f ? 1.0 - (double)p : (double)p;
	double s = log(-log(r)), z = c[8];
	for (int i = 7; i >= 0; i--)
		z = c[i] + s * z;
	return yf < 0.0f ? -z : z;
}

static ws_result qrg_run(ws_sim *sim, ws_module *mod, enum ws_bench_size size, struct ws_bench_out *out)
{
	if ((unsigned)size >= WS_SIZE_COUNT)
		return bench_fail(NULL, out, WS_ERROR_INVALID_VALUE, "qrg: size");
	ws_result rc = WS_SUCCESS;
	int ctas = qrg_sizes[size].ctas, n = qrg_sizes[size].n, iters = qrg_sizes[size].iters;
	int count = QRG_DIMS * n;
	size_t bytes = (size_t)count * sizeof(float);
	float *pts = malloc(bytes), *nrm = malloc(bytes);
	unsigned table[QRG_DIMS][QRG_BITS];
	ws_deviceptr d[2];
	int nd = 0;
	ws_function *fgen, *ficnd;

	if (!pts || !nrm) {
		rc = bench_fail(NULL, out, WS_ERROR_OUT_OF_MEMORY, "qrg: host buffers");
		goto done;
	}
	qrg_table(table);
	BENCH_CALL(wsModuleGetFunction(&fgen, mod, "qrg_gen"));
	BENCH_CALL(wsModuleGetFunction(&ficnd, mod, "qrg_icnd"));
	BENCH_CALL(wsMemcpyToSymbol(mod, "c_table", table, sizeof table, 0));
	for (; nd < 2; nd++)
		BENCH_CALL(wsMemAlloc(sim, &d[nd], bytes));
	for (int it = 0; it < iters; it++) {
		unsigned seed = (unsigned)it * (unsigned)n;
		BENCH_CALL(wsMemsetD32(sim, d[0], 0x7fc00000u, (size_t)count)); /* NaN: catches unwritten results */
		BENCH_CALL(wsMemsetD32(sim, d[1], 0x7fc00000u, (size_t)count));
		void *ga[] = {&d[0], &seed, &n};
		BENCH_CALL(wsLaunchKernel(fgen, (unsigned)ctas, 1, 1, QRG_THREADS, 1, 1, 0, ga));
		void *ia[] = {&d[1], &count};
		BENCH_CALL(wsLaunchKernel(ficnd, (unsigned)ctas, 1, 1, QRG_THREADS, 1, 1, 0, ia));
		out->launches += 2;
		BENCH_CALL(wsMemcpyDtoH(sim, pts, d[0], bytes));
		BENCH_CALL(wsMemcpyDtoH(sim, nrm, d[1], bytes));
		for (int dim = 0; dim < QRG_DIMS; dim++) {
			for (int pos = 0; pos < n; pos++) {
				unsigned idx = seed + (unsigned)pos, r = 0;
				for (int b = 0; b < QRG_BITS; b++)
					if (idx & (1u << b))
						r ^= table[dim][b];
				float want = (float)r * (1.0f / 2147483648.0f);
				float got = pts[(size_t)dim * n + pos];
				if (!(want == got)) {
					rc = bench_mismatch(out, "qrg: point %u dimension %d (out[%zu], round %d, qrg_gen): "
					                    "expected %.9g, got %.9g",
					                    idx, dim, (size_t)dim * n + pos, it, (double)want, (double)got);
					goto done;
				}
			}
		}
		float step = 1.0f / (float)(count + 1);
		for (int i = 0; i < count; i++) {
			double want = qrg_moro((float)(i + 1) * step);
			if (!bench_close(want, nrm[i], 2e-5, 2e-5)) {
				rc = bench_mismatch(out, "qrg: normal[%d] (q = %.9g, round %d, qrg_icnd): expected %.9g, got %.9g",
				                    i, (double)((float)(i + 1) * step), it, want, (double)nrm[i]);
				goto done;
			}
		}
	}
	snprintf(out->msg, sizeof out->msg, "qrg: %d rounds of %d 3-D points and %d normal quantiles verified", iters,
	         n, count);
done:
	while (nd > 0)
		wsMemFree(sim, d[--nd]);
	free(pts);
	free(nrm);
	return rc;
}

const struct ws_bench_info bench_qrg = {
    .name = "qrg",
    .description = "quasirandom generator (CUDA SDK style): 3-D Sobol points from constant-memory direction "
                   "numbers, then Moro's inverse normal CDF, grid-stride loops",
    .sync = "none",
    .paper = "KAWS (QRG)",
    .ctas_per_sm = 0,
    .warps_per_cta = QRG_THREADS / 32,
    .sizes = {"600 points x 3 dims, 1 round (2 CTAs x 2 kernels)", "6000 x 3, 2 rounds (16 CTAs x 4 kernels)",
              "65,536 x 3, 21 rounds (128 CTAs x 42 kernels, the KAWS paper's QRG)"},
    .ptx = ws_bench_ptx_qrg,
    .run = qrg_run,
};
