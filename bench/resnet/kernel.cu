/*
 * resnet -- a small ResNet-like inference network (batch 1, float, CHW
 * layout), one launch per layer (the host chains them, see host.c):
 *
 *   resnet_conv: 3 x 3 convolution, stride 1, zero padding 1, cin -> cout
 *     channels, plus bias, plus an optional residual input (same shape as
 *     the output; NULL for none), then ReLU:
 *       out[co][y][x] = max(0, bias[co] + sum_{ci,dy,dx} W[co][ci][dy][dx]
 *                            * in[ci][y+dy-1][x+dx-1] (+ res[co][y][x]))
 *   resnet_pool: 2 x 2 max pooling, stride 2 (h, w even).
 *
 * Both use a 1-D grid of RESNET_THREADS = 256-thread CTAs (8 warps), one
 * output element per thread, x fastest, so a warp reads consecutive input
 * pixels and all its threads read the same weight (one address).  The
 * channel loop is not unrolled (the 3 x 3 window is).
 *
 * Synchronization: none; launch boundaries order the layers.
 */

#define RESNET_THREADS 256

extern "C" __global__ void resnet_conv(const float *in, const float *W, const float *bias, const float *res,
                                       float *out, int cin, int cout, int h, int w)
{
	int t = blockIdx.x * RESNET_THREADS + threadIdx.x;
	if (t >= cout * h * w)
		return;
	int x = t % w, y = (t / w) % h, co = t / (w * h);
	float acc = bias[co];
#pragma unroll 1
	for (int ci = 0; ci < cin; ci++) {
		const float *ip = in + ci * h * w;
		const float *wp = W + (co * cin + ci) * 9;
#pragma unroll
		for (int dy = 0; dy < 3; dy++) {
			int yy = y + dy - 1;
			if (yy < 0 || yy >= h)
				continue;
#pragma unroll
			for (int dx = 0; dx < 3; dx++) {
				int xx = x + dx - 1;
				if (xx >= 0 && xx < w)
					acc += wp[dy * 3 + dx] * ip[yy * w + xx];
			}
		}
	}
	if (res)
		acc += res[t];
	out[t] = acc > 0.0f ? acc : 0.0f;
}

extern "C" __global__ void resnet_pool(const float *in, float *out, int c, int h, int w)
{
	int oh = h / 2, ow = w / 2;
	int t = blockIdx.x * RESNET_THREADS + threadIdx.x;
	if (t >= c * oh * ow)
		return;
	int x = t % ow, y = (t / ow) % oh, ch = t / (ow * oh);
	const float *p = in + (ch * h + 2 * y) * w + 2 * x;
	out[t] = fmaxf(fmaxf(p[0], p[1]), fmaxf(p[w], p[w + 1]));
}
