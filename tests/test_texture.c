/*
 * test_texture.c -- textures and surfaces: our CUDA kernels (tests/cu/texture.cu,
 * compiled into tests/ptx/func/texture.ptx) against a CPU reference written
 * from the CUDA Programming Guide's "Texture Fetching" appendix, in both the
 * functional and the timing model; hardware-defined edge cases with hand-
 * computed values; txq/suq and .texref variables from hand-written PTX;
 * the texture cache's counters; API and run-time errors.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "warpsim.h"

#define TEX_PTX TEST_DATA_DIR "/ptx/func/texture.ptx"

static const char *const modes[] = {"functional", "timing"};

struct tenv {
	ws_sim *sim;
	ws_module *mod;
};

static int topen(struct test_ctx *t, struct tenv *e, const char *mode, const char *ptx_path, const char *ptx_text)
{
	memset(e, 0, sizeof *e);
	ws_config *cfg = wsConfigCreate();
	char err[256];
	CHECK(wsConfigSet(cfg, "mode", mode, err, sizeof err) == WS_SUCCESS);
	ws_result r = wsSimCreate(&e->sim, cfg);
	wsConfigDestroy(cfg);
	CHECK(r == WS_SUCCESS);
	if (r != WS_SUCCESS)
		return 0;
	r = ptx_path ? wsModuleLoad(e->sim, &e->mod, ptx_path) : wsModuleLoadData(e->sim, &e->mod, ptx_text, "inline.ptx");
	CHECK_MSG(r == WS_SUCCESS, "load: %s", wsSimLastError(e->sim));
	return r == WS_SUCCESS;
}

static ws_deviceptr upload(struct tenv *e, const void *data, size_t n)
{
	ws_deviceptr p = 0;
	wsMemAlloc(e->sim, &p, n);
	if (data)
		wsMemcpyHtoD(e->sim, p, data, n);
	else
		wsMemsetD8(e->sim, p, 0, n);
	return p;
}

static ws_result run(struct tenv *e, const char *kernel, unsigned n, void **args)
{
	ws_function *f;
	ws_result r = wsModuleGetFunction(&f, e->mod, kernel);
	if (r != WS_SUCCESS)
		return r;
	return wsLaunchKernel(f, (n + 63) / 64, 1, 1, 64, 1, 1, 0, args);
}

/* ---- CPU reference (CUDA Programming Guide, "Texture Fetching") ---- */

struct reftex {
	const float *v;   /* texel channel values as the texture returns them (already normalized) */
	int nch, w, h, d; /* d: depth (3D) */
	int layers;       /* layers (cube: faces x layers) */
	int dims;
	int addr, linear, norm;
	float border;
};

static long ref_addr(long i, long n, int mode, int norm)
{
	if (!norm && (mode == WS_ADDRESS_WRAP || mode == WS_ADDRESS_MIRROR))
		mode = WS_ADDRESS_CLAMP;
	if (mode == WS_ADDRESS_WRAP)
		return ((i % n) + n) % n;
	if (mode == WS_ADDRESS_MIRROR) {
		long m = ((i % (2 * n)) + 2 * n) % (2 * n);
		return m < n ? m : 2 * n - 1 - m;
	}
	if (mode == WS_ADDRESS_BORDER)
		return i < 0 || i >= n ? -1 : i;
	return i < 0 ? 0 : i >= n ? n - 1 : i;
}

static float ref_texel(const struct reftex *T, long i, long j, long k, int layer, int ch)
{
	if (i < 0 || j < 0 || k < 0)
		return T->border;
	if (ch >= T->nch)
		return ch == 3 ? 1.0f : 0.0f;
	long idx = (((long)layer * T->d + k) * T->h + j) * T->w + i;
	return T->v[idx * T->nch + ch];
}

/* frac quantised to 8 fractional bits (9-bit fixed point: 1.0 representable) */
static float ref_alpha(float f) { return floorf(f * 256.0f + 0.5f) / 256.0f; }

static void ref_sample(const struct reftex *T, const float *c, int layer, int force_norm, float out[4])
{
	long n[3] = {T->w, T->h, T->d}, i0[3] = {0, 0, 0}, i1[3] = {0, 0, 0};
	float a[3] = {0, 0, 0};
	int norm = T->norm || force_norm, mode = force_norm ? WS_ADDRESS_CLAMP : T->addr;
	for (int d = 0; d < T->dims; d++) {
		float x = norm ? c[d] * (float)n[d] : c[d];
		if (T->linear) {
			float xb = x - 0.5f;
			long i = (long)floorf(xb);
			a[d] = ref_alpha(xb - floorf(xb));
			i0[d] = ref_addr(i, n[d], mode, norm);
			i1[d] = ref_addr(i + 1, n[d], mode, norm);
		} else {
			i0[d] = ref_addr((long)floorf(x), n[d], mode, norm);
		}
	}
	for (int ch = 0; ch < 4; ch++) {
		if (!T->linear) {
			out[ch] = ref_texel(T, i0[0], i0[1], i0[2], layer, ch);
			continue;
		}
		float acc = 0;
		for (int corner = 0; corner < (1 << T->dims); corner++) {
			float wgt = 1;
			long idx[3] = {0, 0, 0};
			for (int d = 0; d < T->dims; d++) {
				int hi = (corner >> d) & 1;
				idx[d] = hi ? i1[d] : i0[d];
				wgt *= hi ? a[d] : 1 - a[d];
			}
			acc += wgt * ref_texel(T, idx[0], idx[1], idx[2], layer, ch);
		}
		out[ch] = acc;
	}
}

/* cube-map face selection (the guide's table): face, and face coordinates in [0,1] */
static int ref_cube(float x, float y, float z, float *u, float *v)
{
	float ax = fabsf(x), ay = fabsf(y), az = fabsf(z), s, t, m;
	int face;
	if (ax >= ay && ax >= az) {
		face = x >= 0 ? 0 : 1, m = ax, s = x >= 0 ? -z : z, t = -y;
	} else if (ay >= az) {
		face = y >= 0 ? 2 : 3, m = ay, s = x, t = y >= 0 ? z : -z;
	} else {
		face = z >= 0 ? 4 : 5, m = az, s = z >= 0 ? x : -x, t = -y;
	}
	*u = (s / m + 1) / 2;
	*v = (t / m + 1) / 2;
	return face;
}

static int close_enough(float a, float b) { return fabsf(a - b) <= 1e-4f * (1 + fabsf(b)); }

static uint32_t lcg(uint32_t *s)
{
	*s = *s * 1664525u + 1013904223u;
	return *s >> 8;
}

static float frand(uint32_t *s, float lo, float hi) { return lo + (hi - lo) * (float)(lcg(s) & 0xffff) / 65535.0f; }

static ws_texture_desc tdesc(int addr, int linear, int norm, int readnorm)
{
	ws_texture_desc d;
	memset(&d, 0, sizeof d);
	d.address_mode[0] = d.address_mode[1] = d.address_mode[2] = (ws_address_mode)addr;
	d.filter_mode = linear ? WS_FILTER_LINEAR : WS_FILTER_POINT;
	d.read_mode = readnorm ? WS_READ_NORMALIZED_FLOAT : WS_READ_ELEMENT_TYPE;
	d.normalized_coords = norm;
	return d;
}

static ws_texobject make_tex(struct test_ctx *t, struct tenv *e, ws_array *a, ws_texture_desc d)
{
	ws_resource_desc rd;
	memset(&rd, 0, sizeof rd);
	rd.type = WS_RESOURCE_ARRAY;
	rd.array = a;
	ws_texobject h = 0;
	ws_result r = wsTextureCreate(e->sim, &h, &rd, &d);
	CHECK_MSG(r == WS_SUCCESS, "wsTextureCreate: %s", wsSimLastError(e->sim));
	return h;
}

/* ---- hardware-defined edge cases, hand-computed ---- */
TEST(texture_edge_cases_filter_weights_and_addressing)
{
	for (int mi = 0; mi < 2; mi++) {
		struct tenv e;
		if (!topen(t, &e, modes[mi], TEX_PTX, NULL))
			return;
		ws_channel_format f = {32, 0, 0, 0, WS_CHANNEL_FLOAT};
		ws_array *a;
		CHECK(wsArrayCreate(e.sim, &a, &f, 4, 0, 0, 0) == WS_SUCCESS);
		float texels[4] = {0, 256, 512, 768};
		CHECK(wsMemcpyToArray(a, texels, sizeof texels) == WS_SUCCESS);
		struct {
			int addr, linear, norm;
			float x, want, wantw; /* wantw: the alpha channel (1 unless the border colour enters) */
		} cases[] = {
		    /* linear: x - 0.5 = 0.3 -> a = round(0.3 * 256) / 256 = 77/256 -> 77, not 76.8 */
		    {WS_ADDRESS_CLAMP, 1, 0, 0.8f, 77.0f, 1.0f},
		    /* frac 1/1024 rounds to a weight of 0; frac 1/512 to 1/256 */
		    {WS_ADDRESS_CLAMP, 1, 0, 0.5f + 1.0f / 1024, 0.0f, 1.0f},
		    {WS_ADDRESS_CLAMP, 1, 0, 0.5f + 1.0f / 512, 1.0f, 1.0f},
		    /* frac 0.999 rounds up to a weight of exactly 1.0 (9 bits) */
		    {WS_ADDRESS_CLAMP, 1, 0, 1.499f, 256.0f, 1.0f},
		    /* clamp at both ends, point and linear */
		    {WS_ADDRESS_CLAMP, 0, 0, -7.0f, 0.0f, 1.0f},
		    {WS_ADDRESS_CLAMP, 0, 0, 99.0f, 768.0f, 1.0f},
		    {WS_ADDRESS_CLAMP, 1, 0, 3.9f, 768.0f, 1.0f},
		    /* border returns 0; linear blends with it */
		    {WS_ADDRESS_BORDER, 0, 0, -0.5f, 0.0f, 0.0f},
		    {WS_ADDRESS_BORDER, 0, 0, 4.0f, 0.0f, 0.0f},
		    {WS_ADDRESS_BORDER, 1, 0, 4.0f, 384.0f, 0.5f},
		    /* wrap and mirror without normalized coordinates clamp */
		    {WS_ADDRESS_WRAP, 0, 0, 5.5f, 768.0f, 1.0f},
		    {WS_ADDRESS_MIRROR, 0, 0, -1.5f, 0.0f, 1.0f},
		    /* normalized: wrap 1.25 -> texel 1; mirror 1.25 -> texel 5 of 8 -> 2; -0.1 -> texel -1 -> 0 */
		    {WS_ADDRESS_WRAP, 0, 1, 1.25f, 256.0f, 1.0f},
		    {WS_ADDRESS_MIRROR, 0, 1, 1.25f, 512.0f, 1.0f},
		    {WS_ADDRESS_MIRROR, 0, 1, -0.1f, 0.0f, 1.0f},
		    {WS_ADDRESS_WRAP, 0, 1, -0.1f, 768.0f, 1.0f},
		    /* normalized linear wrap across the edge: x*4 - 0.5 = -0.5 -> texels 3 and 0 at a = 1/2 */
		    {WS_ADDRESS_WRAP, 1, 1, 0.0f, 384.0f, 1.0f},
		};
		int nc = (int)(sizeof cases / sizeof cases[0]);
		for (int k = 0; k < nc; k++) {
			ws_texobject h = make_tex(t, &e, a, tdesc(cases[k].addr, cases[k].linear, cases[k].norm, 0));
			ws_deviceptr c = upload(&e, &cases[k].x, 4), o = upload(&e, NULL, 16);
			int n = 1;
			void *args[] = {&h, &c, &o, &n};
			CHECK_MSG(run(&e, "_Z5tex1dyPKfP6float4i", 1, args) == WS_SUCCESS, "%s", wsSimLastError(e.sim));
			float got[4];
			wsMemcpyDtoH(e.sim, got, o, 16);
			float ww = cases[k].wantw;
			CHECK_MSG(got[0] == cases[k].want && got[1] == 0 && got[2] == 0 && got[3] == ww,
				  "%s case %d (addr %d linear %d norm %d x %g): got %g %g %g %g, want %g", modes[mi], k,
				  cases[k].addr, cases[k].linear, cases[k].norm, cases[k].x, got[0], got[1], got[2], got[3],
				  cases[k].want);
		}
		/* normalized-integer reads: s8 -128 reads as -1.0 (not -128/127); u8 255 as 1.0; u16 */
		ws_channel_format f8 = {8, 0, 0, 0, WS_CHANNEL_SIGNED};
		ws_array *a8;
		CHECK(wsArrayCreate(e.sim, &a8, &f8, 4, 0, 0, 0) == WS_SUCCESS);
		int8_t s8[4] = {-128, -127, 64, 127};
		wsMemcpyToArray(a8, s8, 4);
		ws_texobject h8 = make_tex(t, &e, a8, tdesc(WS_ADDRESS_CLAMP, 0, 0, 1));
		float xs[4] = {0.5f, 1.5f, 2.5f, 3.5f};
		ws_deviceptr c = upload(&e, xs, 16), o = upload(&e, NULL, 64);
		int n = 4;
		void *args[] = {&h8, &c, &o, &n};
		CHECK(run(&e, "_Z5tex1dyPKfP6float4i", 4, args) == WS_SUCCESS);
		float got[16];
		wsMemcpyDtoH(e.sim, got, o, 64);
		CHECK(got[0] == -1.0f && got[4] == -1.0f && got[8] == 64.0f / 127.0f && got[12] == 1.0f);
		ws_channel_format fu = {16, 16, 0, 0, WS_CHANNEL_UNSIGNED};
		ws_array *au;
		CHECK(wsArrayCreate(e.sim, &au, &fu, 1, 0, 0, 0) == WS_SUCCESS);
		uint16_t u16[2] = {65535, 32768};
		wsMemcpyToArray(au, u16, 4);
		ws_texobject hu = make_tex(t, &e, au, tdesc(WS_ADDRESS_CLAMP, 0, 0, 1));
		void *args2[] = {&hu, &c, &o, &n};
		CHECK(run(&e, "_Z5tex1dyPKfP6float4i", 1, args2) == WS_SUCCESS);
		wsMemcpyDtoH(e.sim, got, o, 16);
		CHECK_MSG(got[0] == 1.0f && got[1] == 32768.0f / 65535.0f && got[2] == 0 && got[3] == 1, "u16x2: %g %g %g %g",
			  got[0], got[1], got[2], got[3]);
		wsSimDestroy(e.sim);
	}
}

/* tex1Dfetch on linear memory: integer indices, out of range reads zero */
TEST(texture_fetch_linear_memory)
{
	for (int mi = 0; mi < 2; mi++) {
		struct tenv e;
		if (!topen(t, &e, modes[mi], TEX_PTX, NULL))
			return;
		float data[16];
		for (int i = 0; i < 16; i++)
			data[i] = 1.5f * (float)i + 1;
		ws_resource_desc rd;
		memset(&rd, 0, sizeof rd);
		rd.type = WS_RESOURCE_LINEAR;
		rd.ptr = upload(&e, data, sizeof data);
		rd.format = (ws_channel_format){32, 0, 0, 0, WS_CHANNEL_FLOAT};
		rd.size_bytes = sizeof data;
		ws_texture_desc td = tdesc(WS_ADDRESS_CLAMP, 0, 0, 0);
		ws_texobject h;
		CHECK(wsTextureCreate(e.sim, &h, &rd, &td) == WS_SUCCESS);
		int idx[24];
		for (int i = 0; i < 24; i++)
			idx[i] = i - 4;
		ws_deviceptr di = upload(&e, idx, sizeof idx), o = upload(&e, NULL, 24 * 4);
		int n = 24;
		void *args[] = {&h, &di, &o, &n};
		CHECK_MSG(run(&e, "_Z7fetch1dyPKiPfi", 24, args) == WS_SUCCESS, "%s", wsSimLastError(e.sim));
		float got[24];
		wsMemcpyDtoH(e.sim, got, o, sizeof got);
		for (int i = 0; i < 24; i++) {
			float want = idx[i] >= 0 && idx[i] < 16 ? data[idx[i]] : 0.0f;
			CHECK_MSG(got[i] == want, "%s idx %d: %g != %g", modes[mi], idx[i], got[i], want);
		}
		/* linear filtering on linear memory is refused like cudaCreateTextureObject does */
		td.filter_mode = WS_FILTER_LINEAR;
		CHECK(wsTextureCreate(e.sim, &h, &rd, &td) == WS_ERROR_INVALID_VALUE);
		wsSimDestroy(e.sim);
	}
}

/* 2D: every addressing mode x filter x coordinate normalization, float4 and normalized uchar4 */
TEST(texture_2d_modes_against_reference)
{
	enum { W = 5, H = 4, N = 48 };
	uint32_t seed = 7;
	float fv[W * H * 4];
	uint8_t u8v[W * H * 4];
	float u8n[W * H * 4];
	for (int i = 0; i < W * H * 4; i++) {
		fv[i] = frand(&seed, -10, 10);
		u8v[i] = (uint8_t)(lcg(&seed) & 0xff);
		u8n[i] = (float)u8v[i] / 255.0f;
	}
	for (int mi = 0; mi < 2; mi++) {
		struct tenv e;
		if (!topen(t, &e, modes[mi], TEX_PTX, NULL))
			return;
		ws_channel_format ff = {32, 32, 32, 32, WS_CHANNEL_FLOAT}, fu = {8, 8, 8, 8, WS_CHANNEL_UNSIGNED};
		ws_array *af, *au;
		CHECK(wsArrayCreate(e.sim, &af, &ff, W, H, 0, 0) == WS_SUCCESS);
		CHECK(wsArrayCreate(e.sim, &au, &fu, W, H, 0, 0) == WS_SUCCESS);
		wsMemcpyToArray(af, fv, sizeof fv);
		wsMemcpyToArray(au, u8v, sizeof u8v);
		ws_deviceptr dc = upload(&e, NULL, N * 8), dout = upload(&e, NULL, N * 16);
		int bad = 0;
		for (int fmt = 0; fmt < 2; fmt++)
			for (int addr = 0; addr < 4; addr++)
				for (int lin = 0; lin < 2; lin++)
					for (int norm = 0; norm < 2; norm++) {
						ws_texobject h = make_tex(t, &e, fmt ? au : af, tdesc(addr, lin, norm, fmt));
						float c[N * 2];
						for (int i = 0; i < N; i++) {
							c[2 * i] = norm ? frand(&seed, -1.6f, 1.6f) : frand(&seed, -3, W + 3);
							c[2 * i + 1] = norm ? frand(&seed, -1.6f, 1.6f) : frand(&seed, -3, H + 3);
						}
						wsMemcpyHtoD(e.sim, dc, c, sizeof c);
						int n = N;
						void *args[] = {&h, &dc, &dout, &n};
						CHECK_MSG(run(&e, "_Z5tex2dyPK6float2P6float4i", N, args) == WS_SUCCESS, "%s",
							  wsSimLastError(e.sim));
						float got[N * 4];
						wsMemcpyDtoH(e.sim, got, dout, sizeof got);
						struct reftex T = {fmt ? u8n : fv, 4, W, H, 1, 1, 2, addr, lin, norm, 0};
						for (int i = 0; i < N && bad < 5; i++) {
							float want[4];
							ref_sample(&T, &c[2 * i], 0, 0, want);
							for (int ch = 0; ch < 4; ch++)
								if (!close_enough(got[4 * i + ch], want[ch])) {
									bad++;
									CHECK_MSG(0, "%s fmt %d addr %d linear %d norm %d (%g,%g) ch %d: %g != %g",
										  modes[mi], fmt, addr, lin, norm, c[2 * i], c[2 * i + 1], ch,
										  got[4 * i + ch], want[ch]);
								}
						}
						wsTextureDestroy(e.sim, h);
					}
		/* the sparse-texture form {...}|%p: resident, so the texel itself */
		{
			ws_texobject h = make_tex(t, &e, af, tdesc(WS_ADDRESS_CLAMP, 0, 0, 0));
			float c[4] = {0.5f, 0.5f, 3.5f, 2.5f}, got[2];
			wsMemcpyHtoD(e.sim, dc, c, sizeof c);
			int n = 2;
			void *args[] = {&h, &dc, &dout, &n};
			CHECK_MSG(run(&e, "_Z8residentyPK6float2Pfi", 2, args) == WS_SUCCESS, "%s", wsSimLastError(e.sim));
			wsMemcpyDtoH(e.sim, got, dout, sizeof got);
			CHECK_MSG(got[0] == fv[0] && got[1] == fv[(2 * W + 3) * 4], "%s resident: %g %g", modes[mi], got[0], got[1]);
		}
		/* integer texture read as its element type (point only) */
		ws_channel_format fi = {32, 0, 0, 0, WS_CHANNEL_SIGNED};
		ws_array *ai;
		CHECK(wsArrayCreate(e.sim, &ai, &fi, W, H, 0, 0) == WS_SUCCESS);
		int iv[W * H];
		for (int i = 0; i < W * H; i++)
			iv[i] = (int)(lcg(&seed) % 2001) - 1000;
		wsMemcpyToArray(ai, iv, sizeof iv);
		CHECK(wsTextureCreate(e.sim, &(ws_texobject){0},
				      &(ws_resource_desc){.type = WS_RESOURCE_ARRAY, .array = ai},
				      &(ws_texture_desc){.filter_mode = WS_FILTER_LINEAR}) == WS_ERROR_INVALID_VALUE);
		CHECK_STR_CONTAINS(wsSimLastError(e.sim), "linear filtering needs a float result");
		ws_texobject hi = make_tex(t, &e, ai, tdesc(WS_ADDRESS_BORDER, 0, 0, 0));
		float c[N * 2];
		for (int i = 0; i < N; i++) {
			c[2 * i] = frand(&seed, -2, W + 2);
			c[2 * i + 1] = frand(&seed, -2, H + 2);
		}
		wsMemcpyHtoD(e.sim, dc, c, sizeof c);
		int n = N;
		void *args[] = {&hi, &dc, &dout, &n};
		CHECK(run(&e, "_Z6tex2diyPK6float2Pii", N, args) == WS_SUCCESS);
		int goti[N];
		wsMemcpyDtoH(e.sim, goti, dout, sizeof goti);
		for (int i = 0; i < N; i++) {
			long x = (long)floorf(c[2 * i]), y = (long)floorf(c[2 * i + 1]);
			int want = x < 0 || x >= W || y < 0 || y >= H ? 0 : iv[y * W + x];
			CHECK_MSG(goti[i] == want, "%s int (%g,%g): %d != %d", modes[mi], c[2 * i], c[2 * i + 1], goti[i], want);
		}
		wsSimDestroy(e.sim);
	}
}

/* 3D, layered 1D/2D, cube maps, explicit LOD/gradients and tld4 */
TEST(texture_3d_layered_cube_lod_gather)
{
	uint32_t seed = 99;
	float v[4 * 3 * 6 * 2];
	for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
		v[i] = frand(&seed, 0, 100);
	enum { N = 40 };
	for (int mi = 0; mi < 2; mi++) {
		struct tenv e;
		if (!topen(t, &e, modes[mi], TEX_PTX, NULL))
			return;
		ws_channel_format f1 = {32, 0, 0, 0, WS_CHANNEL_FLOAT}, f2 = {32, 32, 0, 0, WS_CHANNEL_FLOAT};
		ws_deviceptr dc = upload(&e, NULL, N * 16), dout = upload(&e, NULL, N * 32);
		float c[N * 4], got[N * 8];
		int n = N;
		struct {
			const char *kernel;
			int w, h, d, flags, dims, layers, linear, norm, cube;
		} k[] = {
		    {"_Z5tex3dyPK6float4Pfi", 4, 3, 2, 0, 3, 1, 1, 0, 0},
		    {"_Z5tex3dyPK6float4Pfi", 4, 3, 2, 0, 3, 1, 0, 1, 0},
		    {"_Z12tex1dlayeredyPK6float4Pfi", 4, 0, 3, WS_ARRAY_LAYERED, 1, 3, 1, 0, 0},
		    {"_Z12tex2dlayeredyPK6float4Pfi", 4, 3, 2, WS_ARRAY_LAYERED, 2, 2, 1, 1, 0},
		    {"_Z7texcubeyPK6float4Pfi", 3, 3, 6, WS_ARRAY_CUBEMAP, 2, 6, 0, 0, 1},
		    {"_Z7texcubeyPK6float4Pfi", 3, 3, 6, WS_ARRAY_CUBEMAP, 2, 6, 1, 0, 1},
		    {"_Z14texcubelayeredyPK6float4Pfi", 2, 2, 12, WS_ARRAY_CUBEMAP | WS_ARRAY_LAYERED, 2, 12, 0, 0, 1},
		};
		for (size_t ki = 0; ki < sizeof k / sizeof k[0]; ki++) {
			ws_array *a;
			CHECK_MSG(wsArrayCreate(e.sim, &a, &f1, (size_t)k[ki].w, (size_t)k[ki].h, (size_t)k[ki].d, (unsigned)k[ki].flags) ==
					  WS_SUCCESS,
				  "%s", wsSimLastError(e.sim));
			size_t texels = (size_t)k[ki].w * (size_t)(k[ki].h ? k[ki].h : 1) * (size_t)k[ki].d;
			wsMemcpyToArray(a, v, texels * 4);
			ws_texobject h = make_tex(t, &e, a, tdesc(WS_ADDRESS_CLAMP, k[ki].linear, k[ki].norm, 0));
			for (int i = 0; i < N; i++) {
				float s = k[ki].norm ? 1.0f : (float)k[ki].w;
				c[4 * i] = k[ki].cube ? frand(&seed, -1, 1) : frand(&seed, -0.3f * s, 1.3f * s);
				c[4 * i + 1] = k[ki].cube ? frand(&seed, -1, 1) : frand(&seed, -0.3f * s, 1.3f * s);
				c[4 * i + 2] = k[ki].cube ? frand(&seed, -1, 1) : frand(&seed, -0.3f * s, 1.3f * s);
				int nl = k[ki].cube ? k[ki].layers / 6 : k[ki].layers;
				c[4 * i + 3] = (float)(lcg(&seed) % (unsigned)nl);
			}
			wsMemcpyHtoD(e.sim, dc, c, sizeof c);
			void *args[] = {&h, &dc, &dout, &n};
			CHECK_MSG(run(&e, k[ki].kernel, N, args) == WS_SUCCESS, "%s: %s", k[ki].kernel, wsSimLastError(e.sim));
			wsMemcpyDtoH(e.sim, got, dout, N * 4);
			struct reftex T = {v, 1, k[ki].w, k[ki].h ? k[ki].h : 1, k[ki].dims == 3 ? k[ki].d : 1, k[ki].layers,
					   k[ki].dims, WS_ADDRESS_CLAMP, k[ki].linear, k[ki].norm, 0};
			for (int i = 0; i < N; i++) {
				float want[4];
				if (k[ki].cube) {
					float uv[2];
					int face = ref_cube(c[4 * i], c[4 * i + 1], c[4 * i + 2], &uv[0], &uv[1]);
					int layer = k[ki].layers > 6 ? (int)c[4 * i + 3] : 0;
					ref_sample(&T, uv, layer * 6 + face, 1, want);
				} else {
					ref_sample(&T, &c[4 * i], k[ki].dims == 3 ? 0 : (int)c[4 * i + 3], 0, want);
				}
				CHECK_MSG(close_enough(got[i], want[0]), "%s %s linear %d (%g,%g,%g,%g): %g != %g", modes[mi],
					  k[ki].kernel, k[ki].linear, c[4 * i], c[4 * i + 1], c[4 * i + 2], c[4 * i + 3], got[i],
					  want[0]);
			}
		}
		/* tex.level and tex.grad read the only level; tld4 gathers the 2x2 footprint */
		ws_array *a2;
		CHECK(wsArrayCreate(e.sim, &a2, &f2, 4, 3, 0, 0) == WS_SUCCESS);
		wsMemcpyToArray(a2, v, 4 * 3 * 8);
		ws_texobject h2 = make_tex(t, &e, a2, tdesc(WS_ADDRESS_WRAP, 1, 1, 0));
		for (int i = 0; i < N; i++) {
			c[2 * i] = frand(&seed, -1, 2);
			c[2 * i + 1] = frand(&seed, -1, 2);
		}
		wsMemcpyHtoD(e.sim, dc, c, N * 8);
		void *args[] = {&h2, &dc, &dout, &n};
		CHECK(run(&e, "_Z8tex2dlodyPK6float2Pfi", N, args) == WS_SUCCESS);
		wsMemcpyDtoH(e.sim, got, dout, N * 4);
		struct reftex T2 = {v, 2, 4, 3, 1, 1, 2, WS_ADDRESS_WRAP, 1, 1, 0};
		for (int i = 0; i < N; i++) {
			float want[4];
			ref_sample(&T2, &c[2 * i], 0, 0, want);
			CHECK_MSG(close_enough(got[i], 11 * want[0]), "%s lod (%g,%g): %g != %g", modes[mi], c[2 * i], c[2 * i + 1],
				  got[i], 11 * want[0]);
		}
		CHECK(run(&e, "_Z6gatheryPK6float2P6float4i", N, args) == WS_SUCCESS);
		wsMemcpyDtoH(e.sim, got, dout, N * 32);
		for (int i = 0; i < N; i++) {
			long ii[2][2];
			long nn[2] = {4, 3};
			for (int d = 0; d < 2; d++) {
				long b = (long)floorf(c[2 * i + d] * (float)nn[d] - 0.5f);
				ii[d][0] = ref_addr(b, nn[d], WS_ADDRESS_WRAP, 1);
				ii[d][1] = ref_addr(b + 1, nn[d], WS_ADDRESS_WRAP, 1);
			}
			/* x = T[i, j+1], y = T[i+1, j+1], z = T[i+1, j], w = T[i, j] */
			long px[4] = {ii[0][0], ii[0][1], ii[0][1], ii[0][0]}, py[4] = {ii[1][1], ii[1][1], ii[1][0], ii[1][0]};
			for (int comp = 0; comp < 2; comp++)
				for (int q = 0; q < 4; q++) {
					float want = v[(py[q] * 4 + px[q]) * 2 + comp];
					CHECK_MSG(got[8 * i + 4 * comp + q] == want, "%s gather comp %d q %d: %g != %g", modes[mi], comp, q,
						  got[8 * i + 4 * comp + q], want);
				}
		}
		wsSimDestroy(e.sim);
	}
}

/* surfaces: byte-addressed x, boundary modes zero / clamp / trap, 3D and layered */
TEST(texture_surfaces)
{
	enum { W = 8, H = 4, PAD = 1 };
	for (int mi = 0; mi < 2; mi++) {
		struct tenv e;
		if (!topen(t, &e, modes[mi], TEX_PTX, NULL))
			return;
		ws_channel_format f = {32, 0, 0, 0, WS_CHANNEL_FLOAT};
		float in[W * H];
		for (int i = 0; i < W * H; i++)
			in[i] = (float)i * 0.5f;
		for (int mode = 0; mode < 3; mode++) {
			ws_array *ai, *ao;
			CHECK(wsArrayCreate(e.sim, &ai, &f, W, H, 0, WS_ARRAY_SURFACE_LDST) == WS_SUCCESS);
			CHECK(wsArrayCreate(e.sim, &ao, &f, W, H, 0, WS_ARRAY_SURFACE_LDST) == WS_SUCCESS);
			wsMemcpyToArray(ai, in, sizeof in);
			ws_resource_desc ri = {.type = WS_RESOURCE_ARRAY, .array = ai}, ro = {.type = WS_RESOURCE_ARRAY, .array = ao};
			ws_surfobject si, so;
			CHECK(wsSurfaceCreate(e.sim, &si, &ri) == WS_SUCCESS);
			CHECK(wsSurfaceCreate(e.sim, &so, &ro) == WS_SUCCESS);
			int w = W, h = H, pad = mode == 2 ? 0 : PAD, m = mode;
			void *args[] = {&si, &so, &w, &h, &pad, &m};
			ws_function *fn;
			CHECK(wsModuleGetFunction(&fn, e.mod, "_Z6surf2dyyiiii") == WS_SUCCESS);
			ws_result r = wsLaunchKernel(fn, 1, (unsigned)(H + 2 * pad), 1, (unsigned)(W + 2 * pad), 1, 1, 0, args);
			CHECK_MSG(r == WS_SUCCESS, "%s mode %d: %s", modes[mi], mode, wsSimLastError(e.sim));
			float out[W * H];
			wsMemcpyFromArray(out, ao, sizeof out);
			for (int i = 0; i < W * H; i++)
				CHECK_MSG(out[i] == 2 * in[i] + 1, "%s mode %d [%d]: %g", modes[mi], mode, i, out[i]);
			if (mode == 2) { /* .trap faults on an out-of-range access */
				pad = 1;
				r = wsLaunchKernel(fn, 1, H + 2, 1, W + 2, 1, 1, 0, args);
				CHECK(r == WS_ERROR_ILLEGAL_ADDRESS);
				CHECK_STR_CONTAINS(wsSimLastError(e.sim), "surface access out of range (.trap)");
			}
		}
		/* clamp reads the nearest element: the corner (-1,-1) reads in(0,0) */
		ws_channel_format f4 = {8, 8, 8, 8, WS_CHANNEL_UNSIGNED}, f16 = {16, 0, 0, 0, WS_CHANNEL_SIGNED},
				  f32 = {32, 0, 0, 0, WS_CHANNEL_SIGNED};
		ws_array *a4, *a3, *al;
		CHECK(wsArrayCreate(e.sim, &a4, &f4, 4, 2, 0, WS_ARRAY_SURFACE_LDST) == WS_SUCCESS);
		CHECK(wsArrayCreate(e.sim, &a3, &f16, 4, 2, 2, WS_ARRAY_SURFACE_LDST) == WS_SUCCESS);
		CHECK(wsArrayCreate(e.sim, &al, &f32, 4, 2, 3, WS_ARRAY_SURFACE_LDST | WS_ARRAY_LAYERED) == WS_SUCCESS);
		uint8_t b4[32];
		int16_t s3[16];
		int32_t il[24];
		for (int i = 0; i < 32; i++)
			b4[i] = (uint8_t)(i * 7);
		for (int i = 0; i < 16; i++)
			s3[i] = (int16_t)(i - 5);
		for (int i = 0; i < 24; i++)
			il[i] = i * 11;
		wsMemcpyToArray(a4, b4, sizeof b4);
		wsMemcpyToArray(a3, s3, sizeof s3);
		wsMemcpyToArray(al, il, sizeof il);
		ws_surfobject s[3];
		ws_array *arr[3] = {a4, a3, al};
		for (int i = 0; i < 3; i++)
			CHECK(wsSurfaceCreate(e.sim, &s[i], &(ws_resource_desc){.type = WS_RESOURCE_ARRAY, .array = arr[i]}) ==
			      WS_SUCCESS);
		int w = 4;
		void *args[] = {&s[0], &s[1], &s[2], &w};
		ws_function *fn;
		CHECK(wsModuleGetFunction(&fn, e.mod, "_Z7surfmixyyyi") == WS_SUCCESS);
		CHECK_MSG(wsLaunchKernel(fn, 2, 1, 1, 4, 1, 1, 0, args) == WS_SUCCESS, "%s", wsSimLastError(e.sim));
		uint8_t g4[32];
		int16_t g3[16];
		int32_t gl[24];
		wsMemcpyFromArray(g4, a4, sizeof g4);
		wsMemcpyFromArray(g3, a3, sizeof g3);
		wsMemcpyFromArray(gl, al, sizeof gl);
		for (int i = 0; i < 32; i++)
			CHECK(g4[i] == b4[(i & ~3) + 3 - (i & 3)]);
		for (int i = 0; i < 16; i++)
			CHECK(g3[i] == (i >= 8 ? (int16_t)(s3[i] * 3) : s3[i]));
		for (int i = 0; i < 24; i++)
			CHECK(gl[i] == (i >= 16 ? il[i] + 1000 : il[i]));
		/* an access wider than a row is refused, not clamped into the next row */
		ws_channel_format fb = {8, 0, 0, 0, WS_CHANNEL_UNSIGNED};
		ws_array *narrow;
		CHECK(wsArrayCreate(e.sim, &narrow, &fb, 2, 2, 0, WS_ARRAY_SURFACE_LDST) == WS_SUCCESS);
		CHECK(wsSurfaceCreate(e.sim, &s[0], &(ws_resource_desc){.type = WS_RESOURCE_ARRAY, .array = narrow}) ==
		      WS_SUCCESS);
		CHECK(wsLaunchKernel(fn, 1, 1, 1, 1, 1, 1, 0, args) == WS_ERROR_ILLEGAL_INSTRUCTION);
		CHECK_STR_CONTAINS(wsSimLastError(e.sim), "4-byte surface access is wider than the surface's 2-byte rows");
		/* a surface needs an array made for it */
		ws_array *plain;
		CHECK(wsArrayCreate(e.sim, &plain, &f, 4, 4, 0, 0) == WS_SUCCESS);
		ws_surfobject sp;
		CHECK(wsSurfaceCreate(e.sim, &sp, &(ws_resource_desc){.type = WS_RESOURCE_ARRAY, .array = plain}) ==
		      WS_ERROR_INVALID_VALUE);
		wsSimDestroy(e.sim);
	}
}

/* hand-written PTX: a .texref module variable, txq and suq, and run-time errors */
static const char *const txq_ptx =
    ".version 7.0\n.target sm_75\n.address_size 64\n"
    ".global .texref gtex;\n"
    ".visible .entry q(.param .u64 s, .param .u64 out)\n{\n"
    "  .reg .b32 %r<12>;\n  .reg .b64 %rd<4>;\n  .reg .f32 %f<8>;\n"
    "  ld.param.u64 %rd1, [s];\n  ld.param.u64 %rd2, [out];\n"
    "  txq.width.b32 %r1, [gtex];\n  txq.height.b32 %r2, [gtex];\n  txq.normalized_coords.b32 %r3, [gtex];\n"
    "  txq.filter_mode.b32 %r4, [gtex];\n  txq.addr_mode_0.b32 %r5, [gtex];\n  txq.level.width.b32 %r6, [gtex], 0;\n"
    "  suq.width.b32 %r7, [%rd1];\n  suq.height.b32 %r8, [%rd1];\n  txq.channel_order.b32 %r9, [gtex];\n"
    "  mov.u64 %rd3, gtex;\n  txq.height.b32 %r11, [%rd3];\n  st.global.u32 [%rd2+40], %r11;\n"
    "  mov.f32 %f1, 0f3FC00000;\n"
    "  tex.2d.v4.f32.f32 {%f2, %f3, %f4, %f5}, [gtex, {%f1, %f1}];\n  mov.b32 %r10, %f2;\n"
    "  st.global.v4.u32 [%rd2], {%r1, %r2, %r3, %r4};\n  st.global.v4.u32 [%rd2+16], {%r5, %r6, %r7, %r8};\n"
    "  st.global.v2.u32 [%rd2+32], {%r9, %r10};\n  ret;\n}\n"
    ".visible .entry bad(.param .u64 h)\n{\n  .reg .b64 %rd<2>;\n  .reg .f32 %f<6>;\n"
    "  ld.param.u64 %rd1, [h];\n  mov.f32 %f1, 0f00000000;\n"
    "  tex.2d.v4.f32.f32 {%f2, %f3, %f4, %f5}, [%rd1, {%f1, %f1}];\n  ret;\n}\n";

TEST(texture_texref_txq_suq_and_errors)
{
	for (int mi = 0; mi < 2; mi++) {
		struct tenv e;
		if (!topen(t, &e, modes[mi], NULL, txq_ptx))
			return;
		ws_channel_format f = {32, 0, 0, 0, WS_CHANNEL_FLOAT};
		ws_array *a, *as, *a1;
		CHECK(wsArrayCreate(e.sim, &a, &f, 3, 2, 0, 0) == WS_SUCCESS);
		CHECK(wsArrayCreate(e.sim, &as, &f, 7, 5, 0, WS_ARRAY_SURFACE_LDST) == WS_SUCCESS);
		CHECK(wsArrayCreate(e.sim, &a1, &f, 3, 0, 0, 0) == WS_SUCCESS);
		float tv[6] = {1, 2, 3, 4, 5, 6};
		wsMemcpyToArray(a, tv, sizeof tv);
		ws_texobject h = make_tex(t, &e, a, tdesc(WS_ADDRESS_MIRROR, 1, 0, 0));
		ws_surfobject s;
		CHECK(wsSurfaceCreate(e.sim, &s, &(ws_resource_desc){.type = WS_RESOURCE_ARRAY, .array = as}) == WS_SUCCESS);
		CHECK(wsMemcpyToSymbol(e.mod, "gtex", &h, 8, 0) == WS_SUCCESS);
		ws_deviceptr o = upload(&e, NULL, 44);
		ws_function *fn;
		CHECK(wsModuleGetFunction(&fn, e.mod, "q") == WS_SUCCESS);
		void *args[] = {&s, &o};
		CHECK_MSG(wsLaunchKernel(fn, 1, 1, 1, 1, 1, 1, 0, args) == WS_SUCCESS, "%s", wsSimLastError(e.sim));
		uint32_t got[11];
		wsMemcpyDtoH(e.sim, got, o, sizeof got);
		float texel;
		memcpy(&texel, &got[9], 4);
		/* (1.5, 1.5) unnormalized linear = centre of texel (1,1) = 5 */
		/* addr_mode in PTX's order (wrap 0, mirror 1, clamp_ogl 2, clamp_to_edge 3, clamp_to_border 4); a
		 * pointer to the .texref (mov.u64 %rd, gtex) works as a handle */
		CHECK_MSG(got[0] == 3 && got[1] == 2 && got[2] == 0 && got[3] == 1 && got[4] == 1 && got[5] == 3 &&
			      got[6] == 7 && got[7] == 5 && got[8] == 0x10B0 && texel == 5.0f && got[10] == 2,
			  "%s: %u %u %u %u %u %u %u %u %x %g %u", modes[mi], got[0], got[1], got[2], got[3], got[4], got[5],
			  got[6], got[7], got[8], texel, got[10]);
		/* errors: handle 0, a surface handle used as a texture, a 1D texture read as 2D, a destroyed one */
		CHECK(wsModuleGetFunction(&fn, e.mod, "bad") == WS_SUCCESS);
		ws_texobject h1 = make_tex(t, &e, a1, tdesc(WS_ADDRESS_CLAMP, 0, 0, 0)), zero = 0;
		struct {
			uint64_t *h;
			const char *msg;
		} errs[] = {{&zero, "invalid texture object handle 0"},
			    {&s, "is a surface object, not a texture object"},
			    {&h1, "tex.2d on a 1D texture object"}};
		for (int k = 0; k < 3; k++) {
			void *a2[] = {errs[k].h};
			CHECK(wsLaunchKernel(fn, 1, 1, 1, 1, 1, 1, 0, a2) == WS_ERROR_ILLEGAL_INSTRUCTION);
			CHECK_STR_CONTAINS(wsSimLastError(e.sim), errs[k].msg);
		}
		CHECK(wsTextureDestroy(e.sim, h) == WS_SUCCESS);
		CHECK(wsTextureDestroy(e.sim, h) == WS_ERROR_INVALID_VALUE);
		void *a3[] = {&h};
		CHECK(wsLaunchKernel(fn, 1, 1, 1, 1, 1, 1, 0, a3) == WS_ERROR_ILLEGAL_INSTRUCTION);
		CHECK_STR_CONTAINS(wsSimLastError(e.sim), "(destroyed)");
		wsSimDestroy(e.sim);
	}
}

/* the parser's located errors for malformed texture instructions */
TEST(texture_parse_errors)
{
	static const struct {
		const char *body, *msg;
	} cases[] = {
	    {"tex.v4.f32.f32 {%f1, %f1, %f1, %f1}, [%rd1, {%f1, %f1}];", "needs a geometry"},
	    {"tex.2d.v4.f32.f32 {%f1, %f1, %f1, %f1}, [%rd1, {%f1}];", "geometry .2d needs 2 coordinates"},
	    {"tex.2d.v4.f32.f32 {%f1, %f1, %f1, %f1}, [%rd1, %rd1, {%f1, %f1}];", "independent texture samplers"},
	    {"tld4.2d.v4.f32.f32 {%f1, %f1, %f1, %f1}, [%rd1, {%f1, %f1}];", "needs a component"},
	    {"suld.2d.b32.trap {%r1}, [%rd1, {%r1, %r1}];", "needs .b or .p"},
	    {"sust.b.cube.b32.trap [%rd1, {%r1, %r1, %r1, %r1}], {%r1};", "takes geometry"},
	    {"txq.b32 %r1, [%rd1];", "needs a query"},
	    {"txq.level.filter_mode.b32 %r1, [%rd1], 0;", "takes only .width, .height or .depth"},
	    {"tex.1d.v4.f32.f32 {%f1, %f1, %f1, %f1}, [%f1, {%f1}];", "handle register must be 64-bit"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char ptx[1024];
		snprintf(ptx, sizeof ptx,
			 ".version 7.0\n.target sm_75\n.address_size 64\n.entry k()\n{\n .reg .b32 %%r<3>;\n .reg .b64 "
			 "%%rd<3>;\n .reg .f32 %%f<3>;\n %s\n ret;\n}\n",
			 cases[i].body);
		ws_sim *sim;
		CHECK(wsSimCreate(&sim, NULL) == WS_SUCCESS);
		ws_module *m;
		CHECK(wsModuleLoadData(sim, &m, ptx, "t.ptx") == WS_ERROR_INVALID_PTX);
		CHECK_STR_CONTAINS(wsSimLastError(sim), "t.ptx:9:");
		CHECK_STR_CONTAINS(wsSimLastError(sim), cases[i].msg);
		wsSimDestroy(sim);
	}
}

/* timing: texture reads go through the per-SM texture cache; repeats hit */
TEST(texture_cache_timing)
{
	struct tenv e;
	if (!topen(t, &e, "timing", TEX_PTX, NULL))
		return;
	enum { N = 256 };
	float data[N];
	for (int i = 0; i < N; i++)
		data[i] = (float)i;
	ws_resource_desc rd = {.type = WS_RESOURCE_LINEAR, .ptr = upload(&e, data, sizeof data),
			       .format = {32, 0, 0, 0, WS_CHANNEL_FLOAT}, .size_bytes = sizeof data};
	ws_texture_desc td = tdesc(WS_ADDRESS_CLAMP, 0, 0, 0);
	ws_texobject h;
	CHECK(wsTextureCreate(e.sim, &h, &rd, &td) == WS_SUCCESS);
	int idx[N];
	for (int i = 0; i < N; i++)
		idx[i] = i % 32; /* every warp reads the same 128 bytes */
	ws_deviceptr di = upload(&e, idx, sizeof idx), o = upload(&e, NULL, sizeof data);
	int n = N;
	void *args[] = {&h, &di, &o, &n};
	ws_function *f;
	CHECK(wsModuleGetFunction(&f, e.mod, "_Z7fetch1dyPKiPfi") == WS_SUCCESS);
	CHECK(wsLaunchKernel(f, 1, 1, 1, N, 1, 1, 0, args) == WS_SUCCESS);
	uint64_t acc = 0, hits = 0, miss = 0, res = 0, l1d = 0;
	wsStatsGet(e.sim, "tex_accesses", &acc);
	wsStatsGet(e.sim, "tex_hits", &hits);
	wsStatsGet(e.sim, "tex_misses", &miss);
	wsStatsGet(e.sim, "tex_hit_reserved", &res);
	wsStatsGet(e.sim, "l1d_accesses", &l1d);
	/* 8 warps, one 128-byte line each: one miss, the rest hit or wait for it */
	CHECK_MSG(acc == 8 && miss == 1 && hits + res == 7, "tex accesses %llu hits %llu misses %llu reserved %llu",
		  (unsigned long long)acc, (unsigned long long)hits, (unsigned long long)miss, (unsigned long long)res);
	/* the idx loads and result stores use the L1D, not the texture cache */
	CHECK(l1d >= 16);
	float got[N];
	wsMemcpyDtoH(e.sim, got, o, sizeof got);
	for (int i = 0; i < N; i++)
		CHECK(got[i] == (float)(i % 32));
	wsSimDestroy(e.sim);
}

/* pointer chase through tex1Dfetch: a dependent chain of texture-cache hits
 * costs tex_latency per hop (changing it by 10 changes every hit by 10) */
static const char *const chase_ptx =
    ".version 7.0\n.target sm_75\n.address_size 64\n"
    ".visible .entry chase(.param .u64 t, .param .u32 n, .param .u64 out)\n{\n"
    "  .reg .pred %p<2>;\n  .reg .b32 %r<10>;\n  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [t];\n  ld.param.u32 %r1, [n];\n  ld.param.u64 %rd2, [out];\n"
    "  mov.u32 %r2, 0;\n  mov.u32 %r3, 0;\n"
    "LOOP:\n  tex.1d.v4.s32.s32 {%r2, %r4, %r5, %r6}, [%rd1, {%r2}];\n"
    "  add.u32 %r3, %r3, 1;\n  setp.lt.u32 %p1, %r3, %r1;\n  @%p1 bra LOOP;\n"
    "  st.global.u32 [%rd2], %r2;\n  ret;\n}\n";

static uint64_t chase_cycles(struct test_ctx *t, const char *latency, unsigned hops, int *last)
{
	ws_config *cfg = wsConfigCreate();
	char err[128];
	wsConfigSet(cfg, "num_sms", "1", err, sizeof err);
	wsConfigSet(cfg, "tex_latency", latency, err, sizeof err);
	ws_sim *sim;
	CHECK(wsSimCreate(&sim, cfg) == WS_SUCCESS);
	wsConfigDestroy(cfg);
	ws_module *m;
	CHECK(wsModuleLoadData(sim, &m, chase_ptx, "chase.ptx") == WS_SUCCESS);
	int ring[32]; /* one 128-byte line: i -> (i + 7) % 32 */
	for (int i = 0; i < 32; i++)
		ring[i] = (i + 7) % 32;
	ws_deviceptr d, o;
	wsMemAlloc(sim, &d, sizeof ring);
	wsMemcpyHtoD(sim, d, ring, sizeof ring);
	wsMemAlloc(sim, &o, 4);
	ws_resource_desc rd = {.type = WS_RESOURCE_LINEAR, .ptr = d, .format = {32, 0, 0, 0, WS_CHANNEL_SIGNED},
			       .size_bytes = sizeof ring};
	ws_texture_desc td = tdesc(WS_ADDRESS_CLAMP, 0, 0, 0);
	ws_texobject h;
	CHECK(wsTextureCreate(sim, &h, &rd, &td) == WS_SUCCESS);
	ws_function *f;
	CHECK(wsModuleGetFunction(&f, m, "chase") == WS_SUCCESS);
	void *args[] = {&h, &hops, &o};
	CHECK_MSG(wsLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, args) == WS_SUCCESS, "%s", wsSimLastError(sim));
	uint64_t cyc = 0;
	wsStatsGet(sim, "cycles", &cyc);
	wsMemcpyDtoH(sim, last, o, 4);
	wsSimDestroy(sim);
	return cyc;
}

TEST(texture_cache_latency)
{
	int l0, l1, l2;
	uint64_t a = chase_cycles(t, "35", 64, &l0), b = chase_cycles(t, "45", 64, &l1), c = chase_cycles(t, "35", 128, &l2);
	/* the chain itself: 64 hops of +7 mod 32 end at 64 * 7 % 32 = 0 */
	CHECK(l0 == 0 && l1 == 0 && l2 == 0);
	/* one miss, 63 hits: +10 cycles per hit */
	CHECK_MSG(b == a + 10u * 63, "tex_latency 35 -> 45: %llu -> %llu cycles for 63 hits", (unsigned long long)a,
		  (unsigned long long)b);
	/* 64 more hops are 64 more hits of tex_latency plus the loop's own cycles */
	double per_hop = (double)(c - a) / 64;
	CHECK_MSG(per_hop >= 35 && per_hop <= 35 + 10, "texture hop %.2f cycles, tex_latency 35", per_hop);
}
