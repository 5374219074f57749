/*
 * backprop/host.c -- host driver of the backprop benchmark: one training
 * step of an n_in -> 16 -> 1 perceptron (sigmoid units, unit 0 of the
 * input is the bias input 1.0).
 *
 *   1. bp_forward computes per-CTA partial net inputs of the 16 hidden
 *      units (checked: every partial sum against a double-precision CPU
 *      sum, tolerance scaled by sum |w*x|; the buffer is NaN-filled first);
 *   2. the host (as the application does) adds the partials, applies the
 *      sigmoid, evaluates the output unit, its error against the target
 *      and the hidden deltas, and adjusts the hidden -> output weights;
 *   3. bp_adjust updates the n_in x 16 input -> hidden weights and their
 *      momentum terms (checked against the same float formula on the CPU
 *      using the deltas the host passed to the kernel; relative tolerance
 *      1e-5 covers a fused multiply-add).
 *
 * Inputs and weights are random in [0, 1) and [-0.5, 0.5); the old weight
 * changes (momentum terms) are small random values, as after earlier steps.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"

extern const char ws_bench_ptx_backprop[];

#define BP_HIDDEN 16 /* hidden units; CTA = 16 x 16 threads = 8 warps, as kernel.cu */

static const struct {
	int n_in; /* multiple of BP_HIDDEN, bias input included */
} bp_sizes[WS_SIZE_COUNT] = {
    {64},   /* 4 CTAs per kernel */
    {640},  /* 40 CTAs per kernel */
    {8192}, /* 512 CTAs per kernel (5.7 waves of 6 CTAs/SM on 15 SMs) */
};

static const float bp_eta = 0.3f, bp_momentum = 0.3f, bp_target = 0.9f;

static float bp_sigmoid(float x)
{
	return 1.0f / (1.0f + expf(-x));
}

static ws_result backprop_run(ws_sim *sim, ws_module *mod, enum ws_bench_size size, struct ws_bench_out *out)
{
	if ((unsigned)size >= WS_SIZE_COUNT)
		return bench_fail(NULL, out, WS_ERROR_INVALID_VALUE, "backprop: size");
	ws_result rc = WS_SUCCESS;
	int n_in = bp_sizes[size].n_in, nblk = n_in / BP_HIDDEN;
	size_t nw = (size_t)n_in * BP_HIDDEN;
	const size_t d_bytes[5] = {(size_t)n_in * sizeof(float), nw * sizeof(float), nw * sizeof(float),
	                           (size_t)nblk * BP_HIDDEN * sizeof(float), BP_HIDDEN * sizeof(float)};
	float *x = malloc(d_bytes[0]), *w = malloc(d_bytes[1]), *oldw = malloc(d_bytes[2]);
	float *partial = malloc(d_bytes[3]), *w_got = malloc(d_bytes[1]), *oldw_got = malloc(d_bytes[2]);
	ws_deviceptr d[5]; /* x, w, oldw, partial, delta */
	int nd = 0;
	ws_function *fwd, *adj;

	if (!x || !w || !oldw || !partial || !w_got || !oldw_got) {
		rc = bench_fail(NULL, out, WS_ERROR_OUT_OF_MEMORY, "backprop: host buffers");
		goto done;
	}
	struct bench_rng rng;
	bench_rng_seed(&rng, 32);
	x[0] = 1.0f; /* bias input */
	for (int i = 1; i < n_in; i++)
		x[i] = bench_rng_float(&rng, 0.0f, 1.0f);
	for (size_t k = 0; k < nw; k++) {
		w[k] = bench_rng_float(&rng, -0.5f, 0.5f);
		oldw[k] = bench_rng_float(&rng, -0.01f, 0.01f);
	}
	float w2[BP_HIDDEN + 1]; /* hidden -> output weights, w2[0] from the bias */
	for (int j = 0; j <= BP_HIDDEN; j++)
		w2[j] = bench_rng_float(&rng, -0.5f, 0.5f);

	BENCH_CALL(wsModuleGetFunction(&fwd, mod, "bp_forward"));
	BENCH_CALL(wsModuleGetFunction(&adj, mod, "bp_adjust"));
	for (; nd < 5; nd++)
		BENCH_CALL(wsMemAlloc(sim, &d[nd], d_bytes[nd]));
	BENCH_CALL(wsMemcpyHtoD(sim, d[0], x, d_bytes[0]));
	BENCH_CALL(wsMemcpyHtoD(sim, d[1], w, d_bytes[1]));
	BENCH_CALL(wsMemcpyHtoD(sim, d[2], oldw, d_bytes[2]));
	BENCH_CALL(wsMemsetD32(sim, d[3], 0x7fc00000u, (size_t)nblk * BP_HIDDEN)); /* NaN: unwritten partials */

	/* 1. forward pass, input -> hidden */
	void *fargs[] = {&d[0], &d[1], &d[3]};
	BENCH_CALL(wsLaunchKernel(fwd, (unsigned)nblk, 1, 1, BP_HIDDEN, BP_HIDDEN, 1, 0, fargs));
	out->launches++;
	BENCH_CALL(wsMemcpyDtoH(sim, partial, d[3], d_bytes[3]));
	for (int b = 0; b < nblk; b++) {
		for (int j = 0; j < BP_HIDDEN; j++) {
			double sum = 0.0, mag = 0.0;
			for (int i = b * BP_HIDDEN; i < (b + 1) * BP_HIDDEN; i++) {
				double p = (double)w[(size_t)i * BP_HIDDEN + j] * x[i];
				sum += p;
				mag += fabs(p);
			}
			float got = partial[b * BP_HIDDEN + j];
			if (!bench_close(sum, got, 1e-5, 1e-6 * mag)) {
				rc = bench_mismatch(
				    out,
				    "backprop: partial[%d] (CTA %d, hidden unit %d, inputs %d..%d): expected "
				    "%.9g, got %.9g",
				    b * BP_HIDDEN + j, b, j, b * BP_HIDDEN, (b + 1) * BP_HIDDEN - 1, sum, (double)got);
				goto done;
			}
		}
	}

	/* 2. host: hidden activations, output unit, deltas (float, as the application) */
	float hidden[BP_HIDDEN], delta[BP_HIDDEN];
	for (int j = 0; j < BP_HIDDEN; j++) {
		float net = 0.0f;
		for (int b = 0; b < nblk; b++)
			net += partial[b * BP_HIDDEN + j];
		hidden[j] = bp_sigmoid(net);
	}
	float onet = w2[0];
	for (int j = 0; j < BP_HIDDEN; j++)
		onet += w2[j + 1] * hidden[j];
	float o = bp_sigmoid(onet);
	float delta_o = o * (1.0f - o) * (bp_target - o);
	for (int j = 0; j < BP_HIDDEN; j++)
		delta[j] = hidden[j] * (1.0f - hidden[j]) * w2[j + 1] * delta_o;
	w2[0] += bp_eta * delta_o;
	for (int j = 0; j < BP_HIDDEN; j++)
		w2[j + 1] += bp_eta * delta_o * hidden[j];

	/* 3. weight adjustment, input -> hidden */
	BENCH_CALL(wsMemcpyHtoD(sim, d[4], delta, d_bytes[4]));
	float eta = bp_eta, momentum = bp_momentum;
	void *aargs[] = {&d[4], &d[0], &d[1], &d[2], &eta, &momentum};
	BENCH_CALL(wsLaunchKernel(adj, (unsigned)nblk, 1, 1, BP_HIDDEN, BP_HIDDEN, 1, 0, aargs));
	out->launches++;
	BENCH_CALL(wsMemcpyDtoH(sim, w_got, d[1], d_bytes[1]));
	BENCH_CALL(wsMemcpyDtoH(sim, oldw_got, d[2], d_bytes[2]));
	for (size_t k = 0; k < nw; k++) {
		size_t i = k / BP_HIDDEN, j = k % BP_HIDDEN;
		float dw = bp_eta * delta[j] * x[i] + bp_momentum * oldw[k];
		float nwk = w[k] + dw;
		/* rounding bound of the two products (a fused multiply-add may round differently) */
		double mag = fabs((double)bp_eta * delta[j] * x[i]) + fabs((double)bp_momentum * oldw[k]);
		if (!bench_close(dw, oldw_got[k], 1e-5, 1e-6 * mag)) {
			rc = bench_mismatch(out, "backprop: oldw[%zu] (input %zu, hidden %zu): expected %.9g, got %.9g",
			                    k, i, j, (double)dw, (double)oldw_got[k]);
			goto done;
		}
		if (!bench_close(nwk, w_got[k], 1e-5, 1e-6 * (fabs(w[k]) + mag))) {
			rc = bench_mismatch(out, "backprop: w[%zu] (input %zu, hidden %zu): expected %.9g, got %.9g", k,
			                    i, j, (double)nwk, (double)w_got[k]);
			goto done;
		}
	}
	snprintf(out->msg, sizeof out->msg, "backprop: %d-16-1 training step verified (output %.6f)", n_in, (double)o);
done:
	while (nd > 0)
		wsMemFree(sim, d[--nd]);
	free(x);
	free(w);
	free(oldw);
	free(partial);
	free(w_got);
	free(oldw_got);
	return rc;
}

const struct ws_bench_info bench_backprop = {
    .name = "backprop",
    .description =
        "one training step of an n-16-1 perceptron: forward layer with shared-memory reduction, weight update",
    .sync = "lightly synchronized: 6 __syncthreads per CTA in bp_forward (4-level tree reduction), none in bp_adjust",
    .paper = "BAWS 6.5, DWR (BKP)",
    .ctas_per_sm = 0,
    .warps_per_cta = BP_HIDDEN * BP_HIDDEN / 32,
    .sizes = {"64 inputs (4 CTAs x 2 kernels)", "640 inputs (40 CTAs x 2 kernels)",
              "8192 inputs (512 CTAs x 2 kernels)"},
    .ptx = ws_bench_ptx_backprop,
    .run = backprop_run,
};
