/*
 * resnet/host.c -- host driver of a small ResNet-like network (our own
 * code, in the spirit of the Tango suite's ResNet that the KAWS paper runs
 * as RN): batch 1, CHW floats, one launch per layer:
 *
 *   L0 conv 3x3, 3 -> c channels, h x w, ReLU           (resnet_conv)
 *   b1 residual blocks at h x w, each
 *      conv c -> c, ReLU
 *      conv c -> c, + the block's input (residual), ReLU
 *   2x2 max pool -> h/2 x w/2                            (resnet_pool)
 *   b2 residual blocks at h/2 x w/2
 *   2x2 max pool -> h/4 x w/4 (tiny and small only)
 *
 * Tiny and small run b1 = b2 = 1 (7 launches).  Paper size runs b1 = 8 and
 * b2 = 10 without the last pool: 38 launches, 17 of 256 CTAs at full
 * resolution and 21 of 64 at half (the KAWS paper's RN: 38 kernels of "64
 * or 256 CTAs"; a last pool would have 16).
 *
 * Every activation has its own device buffer (pre-filled with NaN), so
 * after the run each layer is checked on its own against the CPU applied
 * to the device's own input of that layer; a failure names the layer.
 * Input uniform in [0, 1); weights uniform in [-1, 1) / sqrt(9 cin) * 1.5,
 * biases in [-0.1, 0.1).  Paper size: 16 channels of 64 x 64, so the
 * full-resolution layers run 256 CTAs and the half-resolution ones 64.
 *
 * Tolerance: conv relative 1e-5 plus 1e-5 * (|bias| + sum |w * x| +
 * |residual|) -- the float rounding bound; ReLU is 1-Lipschitz so the bound
 * carries through it.  Pooling is exact.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"

extern const char ws_bench_ptx_resnet[];

#define RESNET_THREADS 256 /* as kernel.cu */
#define RESNET_MAX_LAYERS 38 /* the paper size's */
#define RESNET_CIN 3

static const struct {
	int c, h, w;
	int b1, b2, last_pool; /* residual blocks at full and half resolution; a pool after the second stage */
} resnet_sizes[WS_SIZE_COUNT] = {
    {4, 16, 16, 1, 1, 1},   /* 4 / 1 / 1 CTAs at full / half / quarter resolution, 7 launches */
    {8, 32, 32, 1, 1, 1},   /* 32 / 8 / 2, 7 launches */
    {16, 64, 64, 8, 10, 0}, /* 17 launches of 256 CTAs, 21 of 64: 38 launches */
};

/* a layer: kind, input activation, residual activation (-1 none); layer l's output is activation l+1 */
struct resnet_layer {
	int pool, in, res;
};

/* The network of `size` into net (RESNET_MAX_LAYERS entries); returns its number of layers. */
static int resnet_build(enum ws_bench_size size, struct resnet_layer *net)
{
	int n = 0;
	net[n++] = (struct resnet_layer){0, 0, -1};
	for (int stage = 0; stage < 2; stage++) {
		int blocks = stage ? resnet_sizes[size].b2 : resnet_sizes[size].b1;
		for (int b = 0; b < blocks; b++) { /* the block's input is activation n */
			net[n] = (struct resnet_layer){0, n, -1};
			net[n + 1] = (struct resnet_layer){0, n + 1, n};
			n += 2;
		}
		if (stage == 0 || resnet_sizes[size].last_pool) {
			net[n] = (struct resnet_layer){1, n, -1};
			n++;
		}
	}
	return n;
}

static ws_result resnet_run(ws_sim *sim, ws_module *mod, enum ws_bench_size size, struct ws_bench_out *out)
{
	if ((unsigned)size >= WS_SIZE_COUNT)
		return bench_fail(NULL, out, WS_ERROR_INVALID_VALUE, "resnet: size");
	ws_result rc = WS_SUCCESS;
	int c = resnet_sizes[size].c;
	struct resnet_layer net[RESNET_MAX_LAYERS];
	const int nl = resnet_build(size, net);
	/* shape of every activation */
	int ach[RESNET_MAX_LAYERS + 1], ah[RESNET_MAX_LAYERS + 1], aw[RESNET_MAX_LAYERS + 1];
	size_t acnt[RESNET_MAX_LAYERS + 1];
	ach[0] = RESNET_CIN;
	ah[0] = resnet_sizes[size].h;
	aw[0] = resnet_sizes[size].w;
	for (int l = 0; l < nl; l++) {
		int in = net[l].in;
		ach[l + 1] = net[l].pool ? ach[in] : c;
		ah[l + 1] = net[l].pool ? ah[in] / 2 : ah[in];
		aw[l + 1] = net[l].pool ? aw[in] / 2 : aw[in];
	}
	for (int a = 0; a <= nl; a++)
		acnt[a] = (size_t)ach[a] * ah[a] * aw[a];
	float *act[RESNET_MAX_LAYERS + 1] = {0}, *wt[RESNET_MAX_LAYERS] = {0}, *bs[RESNET_MAX_LAYERS] = {0};
	ws_deviceptr dact[RESNET_MAX_LAYERS + 1], dwt[RESNET_MAX_LAYERS] = {0}, dbs[RESNET_MAX_LAYERS] = {0};
	int nact = 0, walloc[RESNET_MAX_LAYERS] = {0}; /* bit 0: dwt[l] allocated, bit 1: dbs[l] */
	ws_function *fconv, *fpool;
	struct bench_rng rng;
	bench_rng_seed(&rng, 1205);

	for (int a = 0; a <= nl; a++)
		if (!(act[a] = malloc(acnt[a] * sizeof(float))))
			goto oom;
	for (int l = 0; l < nl; l++) {
		if (net[l].pool)
			continue;
		int cin = ach[net[l].in];
		size_t nw = (size_t)c * cin * 9;
		if (!(wt[l] = malloc(nw * sizeof(float))) || !(bs[l] = malloc((size_t)c * sizeof(float))))
			goto oom;
		float scale = 1.5f / sqrtf(9.0f * (float)cin);
		for (size_t i = 0; i < nw; i++)
			wt[l][i] = bench_rng_float(&rng, -1.0f, 1.0f) * scale;
		for (int i = 0; i < c; i++)
			bs[l][i] = bench_rng_float(&rng, -0.1f, 0.1f);
	}
	for (size_t i = 0; i < acnt[0]; i++)
		act[0][i] = bench_rng_float(&rng, 0.0f, 1.0f);

	BENCH_CALL(wsModuleGetFunction(&fconv, mod, "resnet_conv"));
	BENCH_CALL(wsModuleGetFunction(&fpool, mod, "resnet_pool"));
	for (; nact <= nl; nact++) {
		BENCH_CALL(wsMemAlloc(sim, &dact[nact], acnt[nact] * sizeof(float)));
		if (nact == 0)
			BENCH_CALL(wsMemcpyHtoD(sim, dact[0], act[0], acnt[0] * sizeof(float)));
		else /* NaN: catches unwritten results */
			BENCH_CALL(wsMemsetD32(sim, dact[nact], 0x7fc00000u, acnt[nact]));
	}
	for (int l = 0; l < nl; l++) {
		if (net[l].pool)
			continue;
		size_t nw = (size_t)c * ach[net[l].in] * 9;
		BENCH_CALL(wsMemAlloc(sim, &dwt[l], nw * sizeof(float)));
		walloc[l] |= 1;
		BENCH_CALL(wsMemAlloc(sim, &dbs[l], (size_t)c * sizeof(float)));
		walloc[l] |= 2;
		BENCH_CALL(wsMemcpyHtoD(sim, dwt[l], wt[l], nw * sizeof(float)));
		BENCH_CALL(wsMemcpyHtoD(sim, dbs[l], bs[l], (size_t)c * sizeof(float)));
	}
	for (int l = 0; l < nl; l++) {
		int in = net[l].in;
		unsigned grid = (unsigned)((acnt[l + 1] + RESNET_THREADS - 1) / RESNET_THREADS);
		if (net[l].pool) {
			void *args[] = {&dact[in], &dact[l + 1], &ach[in], &ah[in], &aw[in]};
			BENCH_CALL(wsLaunchKernel(fpool, grid, 1, 1, RESNET_THREADS, 1, 1, 0, args));
		} else {
			ws_deviceptr res = net[l].res >= 0 ? dact[net[l].res] : 0;
			void *args[] = {&dact[in], &dwt[l], &dbs[l], &res, &dact[l + 1], &ach[in], &c, &ah[in], &aw[in]};
			BENCH_CALL(wsLaunchKernel(fconv, grid, 1, 1, RESNET_THREADS, 1, 1, 0, args));
		}
		out->launches++;
	}
	for (int a = 1; a <= nl; a++)
		BENCH_CALL(wsMemcpyDtoH(sim, act[a], dact[a], acnt[a] * sizeof(float)));

	for (int l = 0; l < nl; l++) {
		int in = net[l].in, r = net[l].res, cin = ach[in], h = ah[in], w = aw[in];
		const float *x = act[in], *y = act[l + 1];
		for (int co = 0; co < ach[l + 1]; co++) {
			for (int oy = 0; oy < ah[l + 1]; oy++) {
				for (int ox = 0; ox < aw[l + 1]; ox++) {
					size_t at = ((size_t)co * ah[l + 1] + oy) * aw[l + 1] + ox;
					double want, tol;
					if (net[l].pool) {
						const float *p = x + ((size_t)co * h + 2 * oy) * w + 2 * ox;
						want = fmax(fmax(p[0], p[1]), fmax(p[w], p[w + 1]));
						tol = 0.0;
					} else {
						double sum = bs[l][co], mag = fabs(bs[l][co]);
						for (int ci = 0; ci < cin; ci++)
							for (int dy = 0; dy < 3; dy++)
								for (int dx = 0; dx < 3; dx++) {
									int yy = oy + dy - 1, xx = ox + dx - 1;
									if (yy < 0 || yy >= h || xx < 0 || xx >= w)
										continue;
									double p = (double)wt[l][((size_t)co * cin + ci) * 9 + dy * 3 + dx] *
									           x[((size_t)ci * h + yy) * w + xx];
									sum += p;
									mag += fabs(p);
								}
						if (r >= 0) {
							sum += act[r][at];
							mag += fabs(act[r][at]);
						}
						want = sum > 0.0 ? sum : 0.0;
						tol = 1e-5 * mag;
					}
					if (!bench_close(want, y[at], 1e-5, tol)) {
						rc = bench_mismatch(out, "resnet: layer %d (%s) output[%d][%d][%d] (index %zu, %dx%dx%d): "
						                    "expected %.9g, got %.9g",
						                    l, net[l].pool ? "max pool" : "conv", co, oy, ox, at,
						                    ach[l + 1], ah[l + 1], aw[l + 1], want, (double)y[at]);
						goto done;
					}
				}
			}
		}
	}
	snprintf(out->msg, sizeof out->msg, "resnet: %d layers on a %dx%dx%d input verified", nl, ach[0],
	         ah[0], aw[0]);
	goto done;
oom:
	rc = bench_fail(NULL, out, WS_ERROR_OUT_OF_MEMORY, "resnet: host buffers");
done:
	for (int l = 0; l < nl; l++) {
		if (walloc[l] & 1)
			wsMemFree(sim, dwt[l]);
		if (walloc[l] & 2)
			wsMemFree(sim, dbs[l]);
	}
	while (nact > 0)
		wsMemFree(sim, dact[--nact]);
	for (int a = 0; a <= nl; a++)
		free(act[a]);
	for (int l = 0; l < nl; l++) {
		free(wt[l]);
		free(bs[l]);
	}
	return rc;
}

const struct ws_bench_info bench_resnet = {
    .name = "resnet",
    .description = "ResNet-like inference: 3x3 conv + bias (+ residual) + ReLU layers and 2x2 max pooling, "
                   "CHW floats, one launch per layer (5 conv + 2 pool)",
    .sync = "none; launch boundaries order the layers",
    .paper = "KAWS (RN)",
    .ctas_per_sm = 0,
    .warps_per_cta = RESNET_THREADS / 32,
    .sizes = {"3x16x16 input, 4 channels (4, 4, 4, 1, 1, 1, 1 CTAs in 7 launches)",
              "3x32x32, 8 channels (32, 32, 32, 8, 8, 8, 2 CTAs in 7 launches)",
              "3x64x64, 16 channels, 18 residual blocks (17 launches of 256 CTAs, 21 of 64: the KAWS paper's RN, "
              "38 kernels)"},
    .ptx = ws_bench_ptx_resnet,
    .run = resnet_run,
};
