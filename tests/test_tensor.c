/*
 * test_tensor.c -- tensor-core instructions (issue 16): the kernels of
 * tests/cu/tensor.cu (nvcuda::wmma for every shape/type nvcc emits for
 * sm_80, inline mma.sync, ldmatrix) and tests/cu/tensor90.cu (stmatrix),
 * compiled by nvcc into tests/ptx/func/, each run under the functional and
 * the timing model and checked against a CPU reference written here from the
 * PTX ISA's fragment layouts, independent of src/func/exec_tensor.c.
 *
 * The reference sums as docs/ptx.md defines: acc = c, then for k = 0..K-1
 * acc = fma(a, b, acc) in double, then one round-to-nearest-even to D's type.
 * Edge cases: a sum that per-step f32 rounding would get wrong, .satfinite
 * clamping both ways, f16 results that round, a padded leading dimension,
 * column-major loads/stores, partial warps and warp_size != 32 (errors).
 */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "warpsim.h"

#define TENSOR_PTX TEST_DATA_DIR "/ptx/func/tensor.ptx"
#define TENSOR90_PTX TEST_DATA_DIR "/ptx/func/tensor90.ptx"

static const char *const tc_modes[] = {"functional", "timing"};

/* ---- number formats (host side, independent of src/func/fpu.c) ---- */

static double h2d(uint16_t h)
{
	int s = h >> 15, e = (h >> 10) & 31, m = h & 1023;
	double v = e == 0 ? ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexp(1024 + m, e - 25);
	return s ? -v : v;
}
/* round to nearest even (the host's default nearbyint mode) */
static uint16_t d2h(double x)
{
	uint16_t s = signbit(x) ? 0x8000 : 0;
	double a = fabs(x);
	if (isnan(x))
		return 0x7fff;
	if (a == 0)
		return s;
	int ex;
	frexp(a, &ex);
	int E = ex - 1;
	if (E < -14) {
		double q = nearbyint(a / ldexp(1, -24));
		return (uint16_t)(s | (uint16_t)q);
	}
	double r = nearbyint(a / ldexp(1, E - 10));
	if (r == 2048) {
		E++;
		r = 1024;
	}
	if (E > 15)
		return s | 0x7c00;
	return (uint16_t)(s | (uint16_t)((E + 15) << 10) | (uint16_t)(r - 1024));
}
static uint16_t d2bf(double x) /* x exactly representable in bf16 */
{
	float f = (float)x;
	uint32_t u;
	memcpy(&u, &f, 4);
	return (uint16_t)(u >> 16);
}
static uint32_t f2u(float f)
{
	uint32_t u;
	memcpy(&u, &f, 4);
	return u;
}

/* small values exact in f16, bf16 and tf32: multiples of 1/8 in [-4, 4) */
static double val8(unsigned i, unsigned salt)
{
	uint32_t x = i * 2654435761u + salt * 40503u + 12345u;
	x ^= x >> 13;
	x *= 0x5bd1e995u;
	x ^= x >> 15;
	return ((int)(x % 64) - 32) / 8.0;
}
static int ival(unsigned i, unsigned salt, int lo, int hi)
{
	uint32_t x = i * 2246822519u + salt * 3266489917u + 7u;
	x ^= x >> 15;
	x *= 0x27d4eb2du;
	x ^= x >> 13;
	return lo + (int)(x % (uint32_t)(hi - lo + 1));
}

/* D = A x B + C in the documented order; A MxK, B KxN, C/D MxN, row-major. */
static void ref_gemm(unsigned M, unsigned N, unsigned K, const double *a, const double *b, const double *c, double *d)
{
	for (unsigned i = 0; i < M; i++)
		for (unsigned j = 0; j < N; j++) {
			double acc = c[i * N + j];
			for (unsigned k = 0; k < K; k++)
				acc = fma(a[i * K + k], b[k * N + j], acc);
			d[i * N + j] = acc;
		}
}
static void ref_igemm(unsigned M, unsigned N, unsigned K, const int *a, const int *b, const int *c, int64_t *d)
{
	for (unsigned i = 0; i < M; i++)
		for (unsigned j = 0; j < N; j++) {
			int64_t acc = c[i * N + j];
			for (unsigned k = 0; k < K; k++)
				acc += (int64_t)a[i * K + k] * b[k * N + j];
			d[i * N + j] = acc;
		}
}

/* ---- simulator plumbing ---- */

struct tenv {
	ws_sim *sim;
	ws_module *mod;
	ws_deviceptr p[4];
};

static int tenv_open(struct test_ctx *t, struct tenv *e, const char *ptx, const char *mode, const char *key,
		     const char *val)
{
	memset(e, 0, sizeof *e);
	ws_config *cfg = wsConfigCreate();
	char err[256];
	CHECK(wsConfigSet(cfg, "mode", mode, err, sizeof err) == WS_SUCCESS);
	if (key)
		CHECK(wsConfigSet(cfg, key, val, err, sizeof err) == WS_SUCCESS);
	ws_result r = wsSimCreate(&e->sim, cfg);
	wsConfigDestroy(cfg);
	CHECK(r == WS_SUCCESS);
	if (r != WS_SUCCESS)
		return 0;
	r = wsModuleLoad(e->sim, &e->mod, ptx);
	CHECK_MSG(r == WS_SUCCESS, "load %s: %s", ptx, wsSimLastError(e->sim));
	return r == WS_SUCCESS;
}

/* Copy the inputs in, allocate the output, run `name` with one warp (or
 * `threads`), copy the output back.  Returns the launch result. */
static ws_result trun(struct test_ctx *t, struct tenv *e, const char *name, unsigned threads, const void *in0,
		      size_t n0, const void *in1, size_t n1, const void *in2, size_t n2, void *out, size_t nout)
{
	const void *ins[3] = {in0, in1, in2};
	size_t ns[3] = {n0, n1, n2};
	void *args[4];
	unsigned na = 0;
	for (unsigned i = 0; i < 3; i++) {
		if (!ins[i])
			continue;
		wsMemAlloc(e->sim, &e->p[na], ns[i]);
		wsMemcpyHtoD(e->sim, e->p[na], ins[i], ns[i]);
		args[na] = &e->p[na];
		na++;
	}
	wsMemAlloc(e->sim, &e->p[na], nout);
	wsMemcpyHtoD(e->sim, e->p[na], out, nout); /* the output's initial contents too */
	args[na] = &e->p[na];
	ws_function *f;
	ws_result r = wsModuleGetFunction(&f, e->mod, name);
	CHECK_MSG(r == WS_SUCCESS, "no kernel %s", name);
	if (r != WS_SUCCESS)
		return r;
	r = wsLaunchKernel(f, 1, 1, 1, threads, 1, 1, 0, args);
	CHECK_MSG(r == WS_SUCCESS, "%s: %s", name, wsSimLastError(e->sim));
	wsMemcpyDtoH(e->sim, out, e->p[na], nout);
	return r;
}

/* ---- wmma ---- */

enum ety { E_F16, E_BF16, E_S8, E_U8, E_F32, E_S32, E_F64 };
static size_t esz(enum ety t) { return t == E_F16 || t == E_BF16 ? 2 : t == E_S8 || t == E_U8 ? 1 : t == E_F64 ? 8 : 4; }

static void put_elem(void *buf, size_t idx, enum ety t, double v)
{
	uint8_t *p = (uint8_t *)buf + idx * esz(t);
	switch (t) {
	case E_F16: { uint16_t h = d2h(v); memcpy(p, &h, 2); break; }
	case E_BF16: { uint16_t h = d2bf(v); memcpy(p, &h, 2); break; }
	case E_S8: { int8_t x = (int8_t)v; memcpy(p, &x, 1); break; }
	case E_U8: { uint8_t x = (uint8_t)v; memcpy(p, &x, 1); break; }
	case E_F32: { float f = (float)v; memcpy(p, &f, 4); break; }
	case E_S32: { int32_t x = (int32_t)v; memcpy(p, &x, 4); break; }
	default: memcpy(p, &v, 8); break;
	}
}
static double get_elem(const void *buf, size_t idx, enum ety t)
{
	const uint8_t *p = (const uint8_t *)buf + idx * esz(t);
	switch (t) {
	case E_F16: { uint16_t h; memcpy(&h, p, 2); return h2d(h); }
	case E_F32: { float f; memcpy(&f, p, 4); return f; }
	case E_S32: { int32_t x; memcpy(&x, p, 4); return x; }
	default: { double d; memcpy(&d, p, 8); return d; }
	}
}
/* the reference value rounded to the output type */
static double round_to(double v, enum ety t)
{
	switch (t) {
	case E_F16: return h2d(d2h(v));
	case E_F32: return (float)v;
	default: return v;
	}
}

/* One wmma kernel of tensor.cu's wmma_gemm: A row-major (ld K), B column-major
 * (ld K), C and D row-major (ld N). */
static void wmma_case(struct test_ctx *t, const char *mode, const char *name, unsigned M, unsigned N, unsigned K,
		      enum ety at, enum ety ct)
{
	struct tenv e;
	if (!tenv_open(t, &e, TENSOR_PTX, mode, NULL, NULL))
		return;
	double *a = calloc(M * K, sizeof *a), *b = calloc(K * N, sizeof *b), *c = calloc(M * N, sizeof *c);
	double *d = calloc(M * N, sizeof *d);
	void *ha = calloc(M * K, 8), *hb = calloc(K * N, 8), *hc = calloc(M * N, 8), *hd = calloc(M * N, 8);
	bool integer = at == E_S8 || at == E_U8;
	for (unsigned i = 0; i < M * K; i++) {
		a[i] = integer ? ival(i, 1, at == E_S8 ? -128 : 0, at == E_S8 ? 127 : 255) : val8(i, 1);
		put_elem(ha, i, at, a[i]); /* row-major */
	}
	for (unsigned k = 0; k < K; k++)
		for (unsigned j = 0; j < N; j++) {
			double v = integer ? ival(k * N + j, 2, at == E_S8 ? -128 : 0, at == E_S8 ? 127 : 255) : val8(k * N + j, 2);
			b[k * N + j] = v;
			put_elem(hb, j * K + k, at, v); /* column-major */
		}
	for (unsigned i = 0; i < M * N; i++) {
		c[i] = integer ? ival(i, 3, -100000, 100000) : val8(i, 3) * 4;
		put_elem(hc, i, ct, c[i]);
	}
	ref_gemm(M, N, K, a, b, c, d);
	if (trun(t, &e, name, 32, ha, M * K * esz(at), hb, K * N * esz(at), hc, M * N * esz(ct), hd, M * N * esz(ct)) ==
	    WS_SUCCESS) {
		unsigned bad = 0;
		for (unsigned i = 0; i < M * N; i++) {
			double want = round_to(d[i], ct), got = get_elem(hd, i, ct);
			if (got != want && bad++ < 4)
				CHECK_MSG(0, "%s (%s): d[%u][%u] = %.9g, want %.9g", name, mode, i / N, i % N, got, want);
		}
	}
	free(a), free(b), free(c), free(d), free(ha), free(hb), free(hc), free(hd);
	wsSimDestroy(e.sim);
}

TEST(tensor_wmma_shapes_and_types)
{
	for (unsigned mi = 0; mi < 2; mi++) {
		const char *m = tc_modes[mi];
		wmma_case(t, m, "wmma_f16_f32_16x16x16", 16, 16, 16, E_F16, E_F32);
		wmma_case(t, m, "wmma_f16_f16_32x8x16", 32, 8, 16, E_F16, E_F16);
		wmma_case(t, m, "wmma_bf16_f32_8x32x16", 8, 32, 16, E_BF16, E_F32);
		wmma_case(t, m, "wmma_s8_s32_16x16x16", 16, 16, 16, E_S8, E_S32);
		wmma_case(t, m, "wmma_u8_s32_32x8x16", 32, 8, 16, E_U8, E_S32);
		wmma_case(t, m, "wmma_f64_8x8x4", 8, 8, 4, E_F64, E_F64);
		wmma_case(t, m, "wmma_bf16_f32_16x16x16", 16, 16, 16, E_BF16, E_F32);
		wmma_case(t, m, "wmma_bf16_f32_32x8x16", 32, 8, 16, E_BF16, E_F32);
		wmma_case(t, m, "wmma_f16_f32_8x32x16", 8, 32, 16, E_F16, E_F32);
		wmma_case(t, m, "wmma_f16_f16_16x16x16", 16, 16, 16, E_F16, E_F16);
		wmma_case(t, m, "wmma_s8_s32_8x32x16", 8, 32, 16, E_S8, E_S32);
	}
}

/* tf32 (m16n16k8): A row-major ld 8, B row-major ld 16, C column-major ld 16
 * and scaled by 2 element by element, D column-major. */
TEST(tensor_wmma_tf32_col_major)
{
	for (unsigned mi = 0; mi < 2; mi++) {
		struct tenv e;
		if (!tenv_open(t, &e, TENSOR_PTX, tc_modes[mi], NULL, NULL))
			continue;
		float ha[16 * 8], hb[8 * 16], hc[16 * 16], hd[16 * 16] = {0};
		double a[16 * 8], b[8 * 16], c[16 * 16], d[16 * 16];
		for (unsigned i = 0; i < 128; i++) {
			ha[i] = (float)(a[i] = val8(i, 7));
			hb[i] = (float)(b[i] = val8(i, 8));
		}
		for (unsigned i = 0; i < 16; i++)
			for (unsigned j = 0; j < 16; j++) {
				double v = val8(i * 16 + j, 9) * 3;
				hc[j * 16 + i] = (float)v;
				c[i * 16 + j] = 2 * v;
			}
		ref_gemm(16, 16, 8, a, b, c, d);
		if (trun(t, &e, "wmma_tf32_16x16x8", 32, ha, sizeof ha, hb, sizeof hb, hc, sizeof hc, hd, sizeof hd) ==
		    WS_SUCCESS)
			for (unsigned i = 0; i < 16; i++)
				for (unsigned j = 0; j < 16; j++)
					CHECK_MSG(hd[j * 16 + i] == (float)d[i * 16 + j], "%s: d[%u][%u] = %g, want %g",
						  tc_modes[mi], i, j, hd[j * 16 + i], (float)d[i * 16 + j]);
		wsSimDestroy(e.sim);
	}
}

/* Through shared memory with a padded leading dimension: A column-major and
 * B row-major, both ld 24; C filled with 0.5; D row-major with ld 20 (the
 * padding columns stay untouched). */
TEST(tensor_wmma_shared_padded_stride)
{
	for (unsigned mi = 0; mi < 2; mi++) {
		struct tenv e;
		if (!tenv_open(t, &e, TENSOR_PTX, tc_modes[mi], NULL, NULL))
			continue;
		uint16_t ha[16 * 24], hb[16 * 24];
		float hd[16 * 20];
		double a[256], b[256], c[256], d[256];
		for (unsigned i = 0; i < 16 * 24; i++) {
			ha[i] = d2h(val8(i, 11));
			hb[i] = d2h(val8(i, 12));
		}
		for (unsigned i = 0; i < 16; i++)
			for (unsigned k = 0; k < 16; k++) {
				a[i * 16 + k] = h2d(ha[k * 24 + i]); /* column-major, ld 24 */
				b[i * 16 + k] = h2d(hb[i * 24 + k]); /* row-major, ld 24 (b[k=i][n=k]) */
			}
		for (unsigned i = 0; i < 256; i++)
			c[i] = 0.5;
		for (unsigned i = 0; i < 16 * 20; i++)
			hd[i] = -7.0f;
		ref_gemm(16, 16, 16, a, b, c, d);
		if (trun(t, &e, "wmma_f16_shared_stride", 32, ha, sizeof ha, hb, sizeof hb, NULL, 0, hd, sizeof hd) ==
		    WS_SUCCESS)
			for (unsigned i = 0; i < 16; i++)
				for (unsigned j = 0; j < 20; j++) {
					float want = j < 16 ? (float)d[i * 16 + j] : -7.0f;
					CHECK_MSG(hd[i * 20 + j] == want, "%s: d[%u][%u] = %g, want %g", tc_modes[mi], i, j,
						  hd[i * 20 + j], want);
				}
		wsSimDestroy(e.sim);
	}
}

/* ---- mma.sync: fragments built from the PTX ISA's layout tables ---- */

/* groupID g = lane >> 2, threadID_in_group q = lane & 3 */
#define G(l) ((l) >> 2)
#define Q(l) ((l) & 3)

/* m16n8 accumulators c0..c3: row g (c0, c1) or g + 8 (c2, c3), col 2q + (i & 1) */
static unsigned acc_row(unsigned l, unsigned i) { return G(l) + (i >= 2 ? 8 : 0); }
static unsigned acc_col(unsigned l, unsigned i) { return Q(l) * 2 + (i & 1); }

TEST(tensor_mma_m16n8k16_f16)
{
	enum { M = 16, N = 8, K = 16 };
	for (unsigned mi = 0; mi < 2; mi++) {
		for (int f16acc = 0; f16acc < 2; f16acc++) {
			struct tenv e;
			if (!tenv_open(t, &e, TENSOR_PTX, tc_modes[mi], NULL, NULL))
				continue;
			double a[M * K], b[K * N], c[M * N], d[M * N];
			for (unsigned i = 0; i < M * K; i++)
				a[i] = val8(i, 21);
			for (unsigned i = 0; i < K * N; i++)
				b[i] = val8(i, 22);
			for (unsigned i = 0; i < M * N; i++)
				c[i] = val8(i, 23) + 0.25;
			if (!f16acc) {
				/* d[0][0] = (1 + 2^-23) + 2^-25 + 2^-25: one rounding gives 1 + 2^-22,
				 * rounding to f32 after each product would give 1 + 2^-23 */
				for (unsigned k = 0; k < K; k++)
					a[0 * K + k] = 0;
				a[0] = a[1] = ldexp(1, -13);
				b[0 * N + 0] = b[1 * N + 0] = ldexp(1, -12);
				c[0] = 1 + ldexp(1, -23);
			} else {
				/* an f16 result that must round (to nearest even) */
				for (unsigned k = 0; k < K; k++)
					a[0 * K + k] = 0;
				a[0] = 1.0 / 8;
				b[0] = 1.0 / 4; /* 2^-5 */
				c[0] = 1024;    /* 1024 + 2^-5: rounds to 1024 in f16 */
			}
			ref_gemm(M, N, K, a, b, c, d);
			uint32_t fa[32 * 4], fb[32 * 2], fc[32 * 4];
			float fcf[32 * 4], out[32 * 4];
			uint32_t outh[32 * 2];
			memset(out, 0, sizeof out);
			memset(outh, 0, sizeof outh);
			for (unsigned l = 0; l < 32; l++) {
				for (unsigned i = 0; i < 8; i++) { /* a0..a7, two per register */
					unsigned row = G(l) + ((i & 2) ? 8 : 0), col = Q(l) * 2 + (i & 1) + (i >= 4 ? 8 : 0);
					uint32_t h = d2h(a[row * K + col]);
					if (i & 1)
						fa[l * 4 + i / 2] |= h << 16;
					else
						fa[l * 4 + i / 2] = h;
				}
				for (unsigned i = 0; i < 4; i++) { /* b0..b3 */
					unsigned row = Q(l) * 2 + (i & 1) + (i >= 2 ? 8 : 0), col = G(l);
					uint32_t h = d2h(b[row * N + col]);
					if (i & 1)
						fb[l * 2 + i / 2] |= h << 16;
					else
						fb[l * 2 + i / 2] = h;
				}
				for (unsigned i = 0; i < 4; i++) {
					double v = c[acc_row(l, i) * N + acc_col(l, i)];
					fcf[l * 4 + i] = (float)v;
					uint32_t h = d2h(v);
					if (i & 1)
						fc[l * 2 + i / 2] |= h << 16;
					else
						fc[l * 2 + i / 2] = h;
				}
			}
			ws_result r = f16acc ? trun(t, &e, "mma_m16n8k16_f16_f16", 32, fa, sizeof fa, fb, sizeof fb, fc,
						    32 * 2 * 4, outh, sizeof outh)
					     : trun(t, &e, "mma_m16n8k16_f32_f16", 32, fa, sizeof fa, fb, sizeof fb, fcf,
						    sizeof fcf, out, sizeof out);
			if (r == WS_SUCCESS)
				for (unsigned l = 0; l < 32; l++)
					for (unsigned i = 0; i < 4; i++) {
						double want = d[acc_row(l, i) * N + acc_col(l, i)];
						double got = f16acc ? h2d((uint16_t)(outh[l * 2 + i / 2] >> (16 * (i & 1))))
								    : out[l * 4 + i];
						want = f16acc ? h2d(d2h(want)) : (float)want;
						CHECK_MSG(got == want, "%s f16acc=%d: lane %u d%u = %.10g, want %.10g", tc_modes[mi],
							  f16acc, l, i, got, want);
					}
			if (!f16acc && r == WS_SUCCESS)
				CHECK(out[0] == (float)(1 + ldexp(1, -22)));
			wsSimDestroy(e.sim);
		}
	}
}

TEST(tensor_mma_m16n8k8_bf16_and_tf32)
{
	enum { M = 16, N = 8, K = 8 };
	for (unsigned mi = 0; mi < 2; mi++) {
		for (int tf = 0; tf < 2; tf++) {
			struct tenv e;
			if (!tenv_open(t, &e, TENSOR_PTX, tc_modes[mi], NULL, NULL))
				continue;
			double a[M * K], b[K * N], c[M * N], d[M * N];
			for (unsigned i = 0; i < M * K; i++)
				a[i] = val8(i, 31 + tf) * (tf ? 1024 : 1);
			for (unsigned i = 0; i < K * N; i++)
				b[i] = val8(i, 33 + tf);
			for (unsigned i = 0; i < M * N; i++)
				c[i] = val8(i, 35) * 1000;
			ref_gemm(M, N, K, a, b, c, d);
			uint32_t fa[32 * 4] = {0}, fb[32 * 2] = {0};
			float fc[32 * 4], out[32 * 4] = {0};
			for (unsigned l = 0; l < 32; l++) {
				if (tf) {
					for (unsigned i = 0; i < 4; i++) /* a0..a3: row g (+8 for a1, a3), col q (+4 for a2, a3) */
						fa[l * 4 + i] = f2u((float)a[(G(l) + (i & 1) * 8) * K + Q(l) + (i >= 2 ? 4 : 0)]);
					for (unsigned i = 0; i < 2; i++) /* b0, b1: row q (+4), col g */
						fb[l * 2 + i] = f2u((float)b[(Q(l) + 4 * i) * N + G(l)]);
					/* the low 13 bits of a tf32 operand are ignored (warpsim's definition) */
					fa[l * 4] |= 0x1fffu * (l == 5);
				} else {
					for (unsigned i = 0; i < 4; i++) { /* a0..a3: row g (+8 for a2, a3), col 2q + (i & 1) */
						uint32_t h = d2bf(a[(G(l) + (i >= 2 ? 8 : 0)) * K + Q(l) * 2 + (i & 1)]);
						fa[l * 2 + i / 2] |= h << (16 * (i & 1));
					}
					for (unsigned i = 0; i < 2; i++) { /* b0, b1: row 2q + i, col g */
						uint32_t h = d2bf(b[(Q(l) * 2 + i) * N + G(l)]);
						fb[l] |= h << (16 * i);
					}
				}
				for (unsigned i = 0; i < 4; i++)
					fc[l * 4 + i] = (float)c[acc_row(l, i) * N + acc_col(l, i)];
			}
			ws_result r = tf ? trun(t, &e, "mma_m16n8k8_f32_tf32", 32, fa, sizeof fa, fb, sizeof fb, fc, sizeof fc,
						out, sizeof out)
					 : trun(t, &e, "mma_m16n8k8_f32_bf16", 32, fa, 32 * 2 * 4, fb, 32 * 4, fc, sizeof fc,
						out, sizeof out);
			if (r == WS_SUCCESS)
				for (unsigned l = 0; l < 32; l++)
					for (unsigned i = 0; i < 4; i++) {
						float want = (float)d[acc_row(l, i) * N + acc_col(l, i)];
						CHECK_MSG(out[l * 4 + i] == want, "%s %s: lane %u d%u = %.9g, want %.9g", tc_modes[mi],
							  tf ? "tf32" : "bf16", l, i, out[l * 4 + i], want);
					}
			wsSimDestroy(e.sim);
		}
	}
}

/* m16n8k32 .satfinite.s32.s8.u8.s32: A s8, B u8; two accumulators clamp. */
TEST(tensor_mma_m16n8k32_s8_u8_satfinite)
{
	enum { M = 16, N = 8, K = 32 };
	for (unsigned mi = 0; mi < 2; mi++) {
		struct tenv e;
		if (!tenv_open(t, &e, TENSOR_PTX, tc_modes[mi], NULL, NULL))
			continue;
		int a[M * K], b[K * N], c[M * N];
		int64_t d[M * N];
		for (unsigned i = 0; i < M * K; i++)
			a[i] = ival(i, 41, -128, 127);
		for (unsigned i = 0; i < K * N; i++)
			b[i] = ival(i, 42, 0, 255);
		for (unsigned i = 0; i < M * N; i++)
			c[i] = ival(i, 43, -1000000, 1000000);
		/* row 0 all +127 and row 1 all -128 times column 0 all 255 */
		for (unsigned k = 0; k < K; k++) {
			a[0 * K + k] = 127;
			a[1 * K + k] = -128;
			b[k * N + 0] = 255;
		}
		c[0 * N + 0] = INT32_MAX - 10;
		c[1 * N + 0] = INT32_MIN + 5;
		ref_igemm(M, N, K, a, b, c, d);
		uint32_t fa[32 * 4] = {0}, fb[32 * 2] = {0};
		int32_t fc[32 * 4], out[32 * 4] = {0};
		for (unsigned l = 0; l < 32; l++) {
			for (unsigned i = 0; i < 16; i++) { /* a0..a15: row g (+8 for i%8 >= 4), col 4q + i%4 (+16 for i >= 8) */
				unsigned row = G(l) + ((i & 4) ? 8 : 0), col = Q(l) * 4 + (i & 3) + (i >= 8 ? 16 : 0);
				fa[l * 4 + i / 4] |= (uint32_t)(uint8_t)a[row * K + col] << (8 * (i & 3));
			}
			for (unsigned i = 0; i < 8; i++) { /* b0..b7: row 4q + i%4 (+16 for i >= 4), col g */
				unsigned row = Q(l) * 4 + (i & 3) + (i >= 4 ? 16 : 0);
				fb[l * 2 + i / 4] |= (uint32_t)(uint8_t)b[row * N + G(l)] << (8 * (i & 3));
			}
			for (unsigned i = 0; i < 4; i++)
				fc[l * 4 + i] = c[acc_row(l, i) * N + acc_col(l, i)];
		}
		if (trun(t, &e, "mma_m16n8k32_s32_s8", 32, fa, sizeof fa, fb, sizeof fb, fc, sizeof fc, out, sizeof out) ==
		    WS_SUCCESS) {
			for (unsigned l = 0; l < 32; l++)
				for (unsigned i = 0; i < 4; i++) {
					int64_t want = d[acc_row(l, i) * N + acc_col(l, i)];
					want = want > INT32_MAX ? INT32_MAX : want < INT32_MIN ? INT32_MIN : want;
					CHECK_MSG(out[l * 4 + i] == want, "%s: lane %u d%u = %d, want %lld", tc_modes[mi], l, i,
						  out[l * 4 + i], (long long)want);
				}
			CHECK_EQ(out[0], INT32_MAX);       /* lane 0 d0 = d[0][0] */
			CHECK_EQ(out[4 * 4 + 0], INT32_MIN); /* lane 4 (g = 1) d0 = d[1][0] */
		}
		wsSimDestroy(e.sim);
	}
}

TEST(tensor_mma_m8n8k4_f64)
{
	enum { M = 8, N = 8, K = 4 };
	for (unsigned mi = 0; mi < 2; mi++) {
		struct tenv e;
		if (!tenv_open(t, &e, TENSOR_PTX, tc_modes[mi], NULL, NULL))
			continue;
		double a[M * K], b[K * N], c[M * N], d[M * N];
		for (unsigned i = 0; i < M * K; i++)
			a[i] = val8(i, 51) / 3; /* inexact products: fma order matters */
		for (unsigned i = 0; i < K * N; i++)
			b[i] = val8(i, 52) / 7;
		for (unsigned i = 0; i < M * N; i++)
			c[i] = val8(i, 53) / 11;
		ref_gemm(M, N, K, a, b, c, d);
		double fa[32], fb[32], fc[64], out[64] = {0};
		for (unsigned l = 0; l < 32; l++) {
			fa[l] = a[G(l) * K + Q(l)];
			fb[l] = b[Q(l) * N + G(l)];
			for (unsigned i = 0; i < 2; i++)
				fc[l * 2 + i] = c[G(l) * N + Q(l) * 2 + i];
		}
		if (trun(t, &e, "mma_m8n8k4_f64", 32, fa, sizeof fa, fb, sizeof fb, fc, sizeof fc, out, sizeof out) ==
		    WS_SUCCESS)
			for (unsigned l = 0; l < 32; l++)
				for (unsigned i = 0; i < 2; i++)
					CHECK_MSG(out[l * 2 + i] == d[G(l) * N + Q(l) * 2 + i], "%s: lane %u d%u = %.17g, want %.17g",
						  tc_modes[mi], l, i, out[l * 2 + i], d[G(l) * N + Q(l) * 2 + i]);
		wsSimDestroy(e.sim);
	}
}

/* ---- ldmatrix / stmatrix ---- */

TEST(tensor_ldmatrix_x4_and_trans)
{
	for (unsigned mi = 0; mi < 2; mi++) {
		struct tenv e;
		if (!tenv_open(t, &e, TENSOR_PTX, tc_modes[mi], NULL, NULL))
			continue;
		uint16_t m[32 * 8];
		for (unsigned i = 0; i < 32 * 8; i++)
			m[i] = (uint16_t)(i * 7 + 3);
		uint32_t out[32 * 6] = {0};
		if (trun(t, &e, "ldmatrix_b16", 32, m, sizeof m, NULL, 0, NULL, 0, out, sizeof out) == WS_SUCCESS)
			for (unsigned l = 0; l < 32; l++) {
				for (unsigned i = 0; i < 4; i++) { /* matrix i = rows 8i..8i+7; lane l: row l/4, cols 2(l%4), +1 */
					const uint16_t *row = &m[(8 * i + l / 4) * 8];
					uint32_t want = row[2 * (l % 4)] | (uint32_t)row[2 * (l % 4) + 1] << 16;
					CHECK_MSG(out[l * 6 + i] == want, "%s: lane %u r%u = 0x%08x, want 0x%08x", tc_modes[mi], l, i,
						  out[l * 6 + i], want);
				}
				for (unsigned i = 0; i < 2; i++) { /* .trans: lane l gets (2(l%4), l/4) and (2(l%4)+1, l/4) */
					uint32_t want = m[(8 * i + 2 * (l % 4)) * 8 + l / 4] |
							(uint32_t)m[(8 * i + 2 * (l % 4) + 1) * 8 + l / 4] << 16;
					CHECK_MSG(out[l * 6 + 4 + i] == want, "%s: lane %u t%u = 0x%08x, want 0x%08x", tc_modes[mi], l,
						  i, out[l * 6 + 4 + i], want);
				}
			}
		wsSimDestroy(e.sim);
	}
}

TEST(tensor_stmatrix_x4_and_trans)
{
	for (unsigned mi = 0; mi < 2; mi++) {
		struct tenv e;
		if (!tenv_open(t, &e, TENSOR90_PTX, tc_modes[mi], NULL, NULL))
			continue;
		uint32_t in[32 * 4];
		for (unsigned i = 0; i < 32 * 4; i++)
			in[i] = i * 0x00010003u + 0x01000100u;
		uint16_t buf[32 * 8 + 8 * 8] = {0};
		/* two outputs: trun passes one; the kernel takes (in, out, outt) */
		ws_function *f;
		CHECK(wsModuleGetFunction(&f, e.mod, "stmatrix_b16") == WS_SUCCESS);
		ws_deviceptr din, dout, dt;
		wsMemAlloc(e.sim, &din, sizeof in);
		wsMemAlloc(e.sim, &dout, 32 * 8 * 2);
		wsMemAlloc(e.sim, &dt, 8 * 8 * 2);
		wsMemcpyHtoD(e.sim, din, in, sizeof in);
		void *args[] = {&din, &dout, &dt};
		ws_result r = wsLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, args);
		CHECK_MSG(r == WS_SUCCESS, "%s: %s", tc_modes[mi], wsSimLastError(e.sim));
		wsMemcpyDtoH(e.sim, buf, dout, 32 * 8 * 2);
		wsMemcpyDtoH(e.sim, buf + 32 * 8, dt, 8 * 8 * 2);
		if (r == WS_SUCCESS) {
			for (unsigned l = 0; l < 32; l++)
				for (unsigned i = 0; i < 4; i++)
					for (unsigned j = 0; j < 2; j++) {
						uint16_t want = (uint16_t)(in[l * 4 + i] >> (16 * j));
						uint16_t got = buf[(8 * i + l / 4) * 8 + 2 * (l % 4) + j];
						CHECK_MSG(got == want, "%s: matrix %u row %u col %u = 0x%04x, want 0x%04x", tc_modes[mi], i,
							  l / 4, 2 * (l % 4) + j, got, want);
					}
			for (unsigned l = 0; l < 32; l++) /* .x1.trans of r0 */
				for (unsigned j = 0; j < 2; j++) {
					uint16_t want = (uint16_t)(in[l * 4] >> (16 * j));
					uint16_t got = buf[32 * 8 + (2 * (l % 4) + j) * 8 + l / 4];
					CHECK_MSG(got == want, "%s: trans (%u,%u) = 0x%04x, want 0x%04x", tc_modes[mi], 2 * (l % 4) + j,
						  l / 4, got, want);
				}
		}
		wsSimDestroy(e.sim);
	}
}

/* ---- errors ---- */

/* Warp-wide instructions need 32-lane warps, all lanes executing. */
TEST(tensor_errors_partial_warp_and_warp_size)
{
	struct tenv e;
	uint32_t fa[32 * 4] = {0}, fb[32 * 2] = {0};
	float fc[32 * 4] = {0}, out[32 * 4];
	if (tenv_open(t, &e, TENSOR_PTX, "functional", NULL, NULL)) {
		ws_function *f;
		CHECK(wsModuleGetFunction(&f, e.mod, "mma_m16n8k16_f32_f16") == WS_SUCCESS);
		ws_deviceptr p[4];
		for (int i = 0; i < 4; i++)
			wsMemAlloc(e.sim, &p[i], sizeof fa);
		void *args[] = {&p[0], &p[1], &p[2], &p[3]};
		CHECK_EQ(wsLaunchKernel(f, 1, 1, 1, 16, 1, 1, 0, args), WS_ERROR_INVALID_VALUE);
		CHECK_STR_CONTAINS(wsSimLastError(e.sim), "executed by part of a warp (lanes 0x0000ffff)");
		wsSimDestroy(e.sim);
	}
	if (tenv_open(t, &e, TENSOR_PTX, "timing", "warp_size", "16")) {
		ws_function *f;
		CHECK(wsModuleGetFunction(&f, e.mod, "mma_m16n8k16_f32_f16") == WS_SUCCESS);
		ws_deviceptr p[4];
		for (int i = 0; i < 4; i++)
			wsMemAlloc(e.sim, &p[i], sizeof fa);
		wsMemcpyHtoD(e.sim, p[0], fa, sizeof fa);
		wsMemcpyHtoD(e.sim, p[1], fb, sizeof fb);
		wsMemcpyHtoD(e.sim, p[2], fc, sizeof fc);
		void *args[] = {&p[0], &p[1], &p[2], &p[3]};
		CHECK_EQ(wsLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, args), WS_ERROR_INVALID_VALUE);
		CHECK_STR_CONTAINS(wsSimLastError(e.sim), "mma needs 32-thread warps (warp_size is 16)");
		wsSimDestroy(e.sim);
	}
	(void)out;
}

/* Malformed or unimplemented tensor instructions: located load-time errors. */
TEST(tensor_load_errors)
{
	static const struct {
		const char *insn, *want;
	} cases[] = {
	    {"mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f1,%f2,%f3,%f4}, {%r1,%r2,%r3}, {%r5,%r6}, "
	     "{%f1,%f2,%f3,%f4};",
	     "fragment A has 4 registers, got 3"},
	    {"mma.sync.aligned.m16n8k16.row.col.f32.f16.f32 {%f1,%f2,%f3,%f4}, {%r1,%r2,%r3,%r4}, {%r5,%r6}, "
	     "{%f1,%f2,%f3,%f4};",
	     "needs the types .dtype.atype.btype.ctype"},
	    {"mma.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32 {%r1,%r2,%r3,%r4}, {%r1,%r2,%r3,%r4}, {%r5,%r6}, "
	     "{%r1,%r2,%r3,%r4};",
	     "sub-byte, b1, fp8 and sparse forms are not implemented"},
	    {"mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32.bogus {%f1,%f2,%f3,%f4}, {%r1,%r2,%r3,%r4}, {%r5,%r6}, "
	     "{%f1,%f2,%f3,%f4};",
	     "unknown modifier '.bogus' on 'mma'"},
	    {"wmma.load.a.sync.aligned.row.m16n16k16.global.f16 {%r1,%r2,%r3,%r4}, [%rd1];",
	     "this fragment has 8 registers, got 4"},
	    {"wmma.load.d.sync.aligned.row.m16n16k16.global.f32 {%f1,%f2,%f3,%f4,%f5,%f6,%f7,%f8}, [%rd1];",
	     "'wmma.load' cannot move matrix '.d'"},
	    {"ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%r1,%r2}, [%r3];", "ldmatrix .x4 needs 4 registers"},
	    {"ldmatrix.sync.aligned.m8n8.x2.global.b16 {%r1,%r2}, [%rd1];", "state space '.global' is not valid"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char ptx[1024];
		snprintf(ptx, sizeof ptx,
			 ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n"
			 "  .reg .b32 %%r<9>;\n  .reg .f32 %%f<9>;\n  .reg .b64 %%rd<2>;\n  %s\n  ret;\n}\n",
			 cases[i].insn);
		ws_config *cfg = wsConfigCreate();
		ws_sim *sim;
		CHECK(wsSimCreate(&sim, cfg) == WS_SUCCESS);
		wsConfigDestroy(cfg);
		ws_module *mod;
		ws_result r = wsModuleLoadData(sim, &mod, ptx, "tc.ptx");
		CHECK_MSG(r != WS_SUCCESS, "case %zu loaded", i);
		CHECK_STR_CONTAINS(wsSimLastError(sim), cases[i].want);
		CHECK_STR_CONTAINS(wsSimLastError(sim), "tc.ptx:9:");
		wsSimDestroy(sim);
	}
}

/* The tensor unit is a unit of its own: its latency and II come from the
 * config (lat_tensor, ii_tensor) and change the cycle count; with no tensor
 * units, mma runs on the SP units. */
TEST(tensor_timing_unit_params)
{
	uint64_t cyc[3] = {0};
	const char *keys[3] = {"lat_tensor", "lat_tensor", "num_tensor_units"};
	const char *vals[3] = {"64", "400", "0"};
	for (int v = 0; v < 3; v++) {
		struct tenv e;
		if (!tenv_open(t, &e, TENSOR_PTX, "timing", keys[v], vals[v]))
			continue;
		double fa[32] = {0}, fb[32] = {0}, fc[64] = {0}, out[64];
		if (trun(t, &e, "mma_m8n8k4_f64", 32, fa, sizeof fa, fb, sizeof fb, fc, sizeof fc, out, sizeof out) ==
		    WS_SUCCESS) {
			CHECK(wsStatsGet(e.sim, "cycles", &cyc[v]) == WS_SUCCESS);
			/* the mma's 32 threads count as tensor lanes, not into another counter */
			uint64_t kernels = 0, lanes = 0;
			CHECK(wsStatsGet(e.sim, "kernels", &kernels) == WS_SUCCESS);
			CHECK(wsStatsGet(e.sim, "lanes_tensor", &lanes) == WS_SUCCESS);
			CHECK_MSG(kernels == 1, "kernels = %llu after one launch", (unsigned long long)kernels);
			CHECK_MSG(lanes > 0 && lanes % 32 == 0, "lanes_tensor = %llu", (unsigned long long)lanes);
		}
		wsSimDestroy(e.sim);
	}
	CHECK_MSG(cyc[1] >= cyc[0] + 336, "lat_tensor 400 vs 64: %llu vs %llu cycles", (unsigned long long)cyc[1],
		  (unsigned long long)cyc[0]);
	CHECK_MSG(cyc[2] == cyc[0], "num_tensor_units=0 (SP units, same latency): %llu vs %llu cycles",
		  (unsigned long long)cyc[2], (unsigned long long)cyc[0]);
}

/* The load-time check reports every unsupported instruction, not the first. */
TEST(tensor_load_reports_every_unsupported)
{
	const char *ptx = ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n"
			  "  .reg .b32 %r<9>;\n"
			  "  mma.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32 {%r1,%r2,%r3,%r4}, {%r1,%r2}, {%r5}, "
			  "{%r1,%r2,%r3,%r4};\n"
			  "  mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32 {%r1,%r2,%r3,%r4,%r5,%r6,%r7,%r8}, {%r1,%r2}, "
			  "{%r3,%r4}, {%r1,%r2,%r3,%r4,%r5,%r6,%r7,%r8};\n"
			  "  ret;\n}\n";
	ws_config *cfg = wsConfigCreate();
	ws_sim *sim;
	CHECK(wsSimCreate(&sim, cfg) == WS_SUCCESS);
	wsConfigDestroy(cfg);
	ws_module *mod;
	CHECK_EQ(wsModuleLoadData(sim, &mod, ptx, "u.ptx"), WS_ERROR_UNSUPPORTED_PTX);
	CHECK_STR_CONTAINS(wsSimLastError(sim), "u.ptx:7:3: unsupported instruction");
	CHECK_STR_CONTAINS(wsSimLastError(sim), "\nu.ptx:8:3: unsupported instruction");
	CHECK_STR_CONTAINS(wsSimLastError(sim), "the sm_70 .m8n8k4 .f16 form (quad-pair layout) is not implemented");
	wsSimDestroy(sim);
}

/* wmma.load/store reach the memory system with their whole footprint: a
 * 16x16 f16 A and B (4 lines of 128 bytes each) and a 16x16 f32 C (8 lines)
 * are at least 16 L1D accesses. */
TEST(tensor_wmma_memory_footprint)
{
	struct tenv e;
	if (!tenv_open(t, &e, TENSOR_PTX, "timing", NULL, NULL))
		return;
	static uint16_t ha[256], hb[256];
	static float hc[256], hd[256];
	uint64_t acc = 0;
	if (trun(t, &e, "wmma_f16_f32_16x16x16", 32, ha, sizeof ha, hb, sizeof hb, hc, sizeof hc, hd, sizeof hd) ==
	    WS_SUCCESS)
		CHECK(wsStatsGet(e.sim, "l1d_accesses", &acc) == WS_SUCCESS);
	CHECK_MSG(acc >= 16, "l1d_accesses %llu, expected at least 16", (unsigned long long)acc);
	wsSimDestroy(e.sim);
}

/* ---- more mma.sync shapes, from one table of ISA layouts ---- */

enum mk { MK_F16, MK_TF32, MK_S8, MK_U8 };
struct mma_shape {
	const char *kernel;
	unsigned M, N, K, na, nb, nc; /* registers per lane of A, B and C/D */
	enum mk ak, bk;
	/* (row, col) of element i of A / B, for lane l (the PTX ISA's tables) */
	void (*amap)(unsigned l, unsigned i, unsigned *r, unsigned *c);
	void (*bmap)(unsigned l, unsigned i, unsigned *r, unsigned *c);
};
/* m16n8k8 .f16: a0..a3 row g (+8 for a2, a3), col 2q + (i & 1); b0, b1 row 2q + i, col g */
static void a_k8_f16(unsigned l, unsigned i, unsigned *r, unsigned *c) { *r = G(l) + (i >= 2 ? 8 : 0), *c = Q(l) * 2 + (i & 1); }
static void b_k8_f16(unsigned l, unsigned i, unsigned *r, unsigned *c) { *r = Q(l) * 2 + i, *c = G(l); }
/* m16n8k4 .tf32: a0, a1 row g (+8 for a1), col q; b0 row q, col g */
static void a_k4_tf32(unsigned l, unsigned i, unsigned *r, unsigned *c) { *r = G(l) + 8 * i, *c = Q(l); }
static void b_k4_tf32(unsigned l, unsigned i, unsigned *r, unsigned *c) { (void)i, *r = Q(l), *c = G(l); }
/* m16n8k16 .s8/.u8: a0..a7 row g (+8 for a4..a7), col 4q + (i & 3); b0..b3 row 4q + i, col g */
static void a_k16_i8(unsigned l, unsigned i, unsigned *r, unsigned *c) { *r = G(l) + (i >= 4 ? 8 : 0), *c = Q(l) * 4 + (i & 3); }
static void b_k16_i8(unsigned l, unsigned i, unsigned *r, unsigned *c) { *r = Q(l) * 4 + i, *c = G(l); }
/* m8n8k16 .s8: a0..a3 row g, col 4q + i; b0..b3 row 4q + i, col g */
static void a_m8_i8(unsigned l, unsigned i, unsigned *r, unsigned *c) { *r = G(l), *c = Q(l) * 4 + i; }

static unsigned mk_bits(enum mk k) { return k == MK_F16 ? 16 : k == MK_TF32 ? 32 : 8; }
static double mk_val(enum mk k, unsigned i, unsigned salt)
{
	switch (k) {
	case MK_S8: return ival(i, salt, -128, 127);
	case MK_U8: return ival(i, salt, 0, 255);
	default: return val8(i, salt);
	}
}
static uint32_t mk_bits_of(enum mk k, double v)
{
	switch (k) {
	case MK_F16: return d2h(v);
	case MK_TF32: return f2u((float)v);
	default: return (uint32_t)(uint8_t)(int)v;
	}
}

static void mma_shape_case(struct test_ctx *t, const char *mode, const struct mma_shape *s)
{
	struct tenv e;
	if (!tenv_open(t, &e, TENSOR_PTX, mode, NULL, NULL))
		return;
	bool integer = s->ak == MK_S8 || s->ak == MK_U8;
	double a[16 * 16], b[16 * 8], c[16 * 8], d[16 * 8];
	for (unsigned i = 0; i < s->M * s->K; i++)
		a[i] = mk_val(s->ak, i, 61);
	for (unsigned i = 0; i < s->K * s->N; i++)
		b[i] = mk_val(s->bk, i, 62);
	for (unsigned i = 0; i < s->M * s->N; i++)
		c[i] = integer ? ival(i, 63, -5000, 5000) : val8(i, 63) * 16;
	ref_gemm(s->M, s->N, s->K, a, b, c, d); /* integer products and sums are exact in double here */
	uint32_t fa[32 * 4] = {0}, fb[32 * 2] = {0}, fc[32 * 4], out[32 * 4] = {0};
	unsigned abits = mk_bits(s->ak), bbits = mk_bits(s->bk);
	for (unsigned l = 0; l < 32; l++) {
		for (unsigned i = 0; i < s->na * 32 / abits; i++) {
			unsigned r, cc;
			s->amap(l, i, &r, &cc);
			fa[l * s->na + i * abits / 32] |= mk_bits_of(s->ak, a[r * s->K + cc]) << (i * abits % 32);
		}
		for (unsigned i = 0; i < s->nb * 32 / bbits; i++) {
			unsigned r, cc;
			s->bmap(l, i, &r, &cc);
			fb[l * s->nb + i * bbits / 32] |= mk_bits_of(s->bk, b[r * s->N + cc]) << (i * bbits % 32);
		}
		for (unsigned i = 0; i < s->nc; i++) { /* c0..c3 (m16n8) or c0, c1 (m8n8): row g (+8), col 2q + (i & 1) */
			double v = c[(G(l) + (i >= 2 ? 8 : 0)) * s->N + Q(l) * 2 + (i & 1)];
			fc[l * s->nc + i] = integer ? (uint32_t)(int32_t)v : f2u((float)v);
		}
	}
	if (trun(t, &e, s->kernel, 32, fa, 32 * 4 * s->na, fb, 32 * 4 * s->nb, fc, 32 * 4 * s->nc, out,
		 32 * 4 * s->nc) == WS_SUCCESS)
		for (unsigned l = 0; l < 32; l++)
			for (unsigned i = 0; i < s->nc; i++) {
				double want = d[(G(l) + (i >= 2 ? 8 : 0)) * s->N + Q(l) * 2 + (i & 1)];
				uint32_t w = integer ? (uint32_t)(int32_t)want : f2u((float)want), g = out[l * s->nc + i];
				CHECK_MSG(g == w, "%s (%s): lane %u d%u = 0x%08x, want 0x%08x", s->kernel, mode, l, i, g, w);
			}
	wsSimDestroy(e.sim);
}

TEST(tensor_mma_more_shapes)
{
	static const struct mma_shape shapes[] = {
	    {"mma_m16n8k8_f32_f16", 16, 8, 8, 2, 1, 4, MK_F16, MK_F16, a_k8_f16, b_k8_f16},
	    {"mma_m16n8k4_f32_tf32", 16, 8, 4, 2, 1, 4, MK_TF32, MK_TF32, a_k4_tf32, b_k4_tf32},
	    {"mma_m16n8k16_s32_u8s8", 16, 8, 16, 2, 1, 4, MK_U8, MK_S8, a_k16_i8, b_k16_i8},
	    {"mma_m8n8k16_s32_s8", 8, 8, 16, 1, 1, 2, MK_S8, MK_S8, a_m8_i8, b_k16_i8},
	};
	for (unsigned mi = 0; mi < 2; mi++)
		for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++)
			mma_shape_case(t, tc_modes[mi], &shapes[i]);
}

/* Infinities and NaN: inf * 0 gives the canonical NaN 0x7fffffff, inf plus
 * finite products stays inf, inf + -inf is NaN. */
TEST(tensor_mma_inf_nan)
{
	for (unsigned mi = 0; mi < 2; mi++) {
		struct tenv e;
		if (!tenv_open(t, &e, TENSOR_PTX, tc_modes[mi], NULL, NULL))
			continue;
		uint32_t fa[32 * 4] = {0}, fb[32 * 2] = {0};
		float fc[32 * 4] = {0}, out[32 * 4] = {0};
		/* lane 0: a0 = A[0][0], a1 = A[0][1] (low/high half of register 0); b0 = B[0][0], b1 = B[1][0] */
		fa[0] = 0x7c00u | 0x3c00u << 16; /* A[0][0] = +inf, A[0][1] = 1 */
		fb[0] = 0x0000u | 0x4000u << 16; /* B[0][0] = 0, B[1][0] = 2 */
		/* lane 4 (g = 1): a0 = A[1][0] = +inf; b: lane 4 holds B[0..1][1] */
		fa[4 * 4] = 0x7c00u;
		fb[4 * 2] = 0x3c00u; /* B[0][1] = 1 */
		fc[1] = -INFINITY;  /* lane 0 c1 = C[0][1] */
		/* D[0][0] = inf*0 + 1*2 = NaN; D[1][1] = inf*1 = inf; D[0][1] = inf*1 + C[0][1] = inf - inf = NaN */
		if (trun(t, &e, "mma_m16n8k16_f32_f16", 32, fa, sizeof fa, fb, sizeof fb, fc, sizeof fc, out, sizeof out) ==
		    WS_SUCCESS) {
			CHECK_EQ(f2u(out[0]), 0x7fffffffu);      /* lane 0 d0 = D[0][0] */
			CHECK_EQ(f2u(out[1]), 0x7fffffffu);      /* lane 0 d1 = D[0][1] */
			CHECK_EQ(f2u(out[4 * 4 + 1]), 0x7f800000u); /* lane 4 d1 = D[1][1] */
			CHECK_EQ(f2u(out[4 * 4 + 0]), 0x7fffffffu); /* lane 4 d0 = D[1][0] = inf * B[0][0] = inf * 0 */
			CHECK_EQ(f2u(out[2 * 4 + 0]), 0x7fffffffu); /* lane 2 d0 = D[0][4] = inf * B[0][4] = inf * 0 */
			CHECK_EQ(f2u(out[8 * 4 + 0]), 0u);          /* lane 8 d0 = D[2][0]: row 2 of A is zero */
		}
		wsSimDestroy(e.sim);
	}
}

/* ---- ZLUDA's ldmatrix and mma tests, converted (issue 26) ----
 * tests/ptx/func/zluda_*.ptx come from ZLUDA's PTX tests with their expected
 * outputs (ptx/src/test/spirv_run/mod.rs).  ZLUDA's harness launches them
 * with 64 threads, but each writes its output (and ldmatrix its shared data)
 * for 32: thread t writes out[t*2..] / out[t*8..], so threads 32..63 run past
 * the buffer.  Converted with the 32 threads they are written for, they give
 * ZLUDA's expected values; with 64 they fault, as they should. */
static const uint32_t zluda_ldmatrix_out[64] = {
	    340, 7, 122, 619, 527, 998, 693, 930, 958, 773, 394, 749,
	    668, 172, 432, 465, 646, 937, 354, 96, 761, 88, 449, 621,
	    252, 909, 778, 298, 218, 283, 800, 286, 656, 779, 493, 290,
	    659, 429, 787, 930, 672, 25, 203, 687, 343, 423, 845, 200,
	    318, 918, 286, 10, 206, 515, 253, 248, 194, 158, 489, 911,
	    29, 270, 323, 459,
};
static const float zluda_mma_bf16_2x_out[256] = {
	    4448.0f, 11873.0f, 4882.0f, 13331.0f, 5380.0f, 12805.0f, 5942.0f, 14391.0f,
	    19304.0f, 26729.0f, 21786.0f, 30235.0f, 20236.0f, 27661.0f, 22846.0f, 31295.0f,
	    34160.0f, 41585.0f, 38690.0f, 47139.0f, 35092.0f, 42517.0f, 39750.0f, 48199.0f,
	    49016.0f, 56441.0f, 55594.0f, 64043.0f, 49948.0f, 57373.0f, 56654.0f, 65103.0f,
	    11392.0f, 35201.0f, 11826.0f, 36659.0f, 14372.0f, 38181.0f, 14934.0f, 39767.0f,
	    59016.0f, 82825.0f, 61498.0f, 86331.0f, 61996.0f, 85805.0f, 64606.0f, 89439.0f,
	    106640.0f, 130449.0f, 111170.0f, 136003.0f, 109620.0f, 133429.0f, 114278.0f, 139111.0f,
	    154264.0f, 178073.0f, 160842.0f, 185675.0f, 157244.0f, 181053.0f, 163950.0f, 188783.0f,
	    18336.0f, 58529.0f, 18770.0f, 59987.0f, 23364.0f, 63557.0f, 23926.0f, 65143.0f,
	    98728.0f, 138921.0f, 101210.0f, 142427.0f, 103756.0f, 143949.0f, 106366.0f, 147583.0f,
	    179120.0f, 219313.0f, 183650.0f, 224867.0f, 184148.0f, 224341.0f, 188806.0f, 230023.0f,
	    259512.0f, 299705.0f, 266090.0f, 307307.0f, 264540.0f, 304733.0f, 271246.0f, 312463.0f,
	    25280.0f, 81857.0f, 25714.0f, 83315.0f, 32356.0f, 88933.0f, 32918.0f, 90519.0f,
	    138440.0f, 195017.0f, 140922.0f, 198523.0f, 145516.0f, 202093.0f, 148126.0f, 205727.0f,
	    251600.0f, 308177.0f, 256130.0f, 313731.0f, 258676.0f, 315253.0f, 263334.0f, 320935.0f,
	    364760.0f, 421337.0f, 371338.0f, 428939.0f, 371836.0f, 428413.0f, 378542.0f, 436143.0f,
	    32224.0f, 105185.0f, 32658.0f, 106643.0f, 41348.0f, 114309.0f, 41910.0f, 115895.0f,
	    178152.0f, 251113.0f, 180634.0f, 254619.0f, 187276.0f, 260237.0f, 189886.0f, 263871.0f,
	    324080.0f, 397041.0f, 328610.0f, 402595.0f, 333204.0f, 406165.0f, 337862.0f, 411847.0f,
	    470008.0f, 542969.0f, 476586.0f, 550571.0f, 479132.0f, 552093.0f, 485838.0f, 559823.0f,
	    39168.0f, 128513.0f, 39602.0f, 129971.0f, 50340.0f, 139685.0f, 50902.0f, 141271.0f,
	    217864.0f, 307209.0f, 220346.0f, 310715.0f, 229036.0f, 318381.0f, 231646.0f, 322015.0f,
	    396560.0f, 485905.0f, 401090.0f, 491459.0f, 407732.0f, 497077.0f, 412390.0f, 502759.0f,
	    575256.0f, 664601.0f, 581834.0f, 672203.0f, 586428.0f, 675773.0f, 593134.0f, 683503.0f,
	    46112.0f, 151841.0f, 46546.0f, 153299.0f, 59332.0f, 165061.0f, 59894.0f, 166647.0f,
	    257576.0f, 363305.0f, 260058.0f, 366811.0f, 270796.0f, 376525.0f, 273406.0f, 380159.0f,
	    469040.0f, 574769.0f, 473570.0f, 580323.0f, 482260.0f, 587989.0f, 486918.0f, 593671.0f,
	    680504.0f, 786233.0f, 687082.0f, 793835.0f, 693724.0f, 799453.0f, 700430.0f, 807183.0f,
	    53056.0f, 175169.0f, 53490.0f, 176627.0f, 68324.0f, 190437.0f, 68886.0f, 192023.0f,
	    297288.0f, 419401.0f, 299770.0f, 422907.0f, 312556.0f, 434669.0f, 315166.0f, 438303.0f,
	    541520.0f, 663633.0f, 546050.0f, 669187.0f, 556788.0f, 678901.0f, 561446.0f, 684583.0f,
	    785752.0f, 907865.0f, 792330.0f, 915467.0f, 801020.0f, 923133.0f, 807726.0f, 930863.0f,
};

TEST(tensor_zluda_ldmatrix_mma_bf16)
{
	for (unsigned mi = 0; mi < 2; mi++) {
		struct tenv e;
		if (!tenv_open(t, &e, TEST_DATA_DIR "/ptx/func/zluda_ldmatrix.ptx", tc_modes[mi], NULL, NULL))
			return;
		uint32_t out[64] = {0};
		if (trun(t, &e, "ldmatrix", 32, NULL, 0, NULL, 0, NULL, 0, out, sizeof out) == WS_SUCCESS)
			for (unsigned i = 0; i < 64; i++)
				CHECK_MSG(out[i] == zluda_ldmatrix_out[i], "%s: ldmatrix out[%u] = %u, expected %u",
					  tc_modes[mi], i, out[i], zluda_ldmatrix_out[i]);
		/* launched as ZLUDA does, thread 32 writes past the 64-word output */
		ws_function *f;
		CHECK(wsModuleGetFunction(&f, e.mod, "ldmatrix") == WS_SUCCESS);
		void *args[] = {&e.p[0]};
		CHECK_EQ(wsLaunchKernel(f, 1, 1, 1, 64, 1, 1, 0, args), WS_ERROR_ILLEGAL_ADDRESS);
		wsSimDestroy(e.sim);
		if (!tenv_open(t, &e, TEST_DATA_DIR "/ptx/func/zluda_mma_m16n8k16_f32_bf16_bf16_f32_2x.ptx", tc_modes[mi],
			       NULL, NULL))
			return;
		float d[256] = {0};
		if (trun(t, &e, "mma_m16n8k16_f32_bf16_bf16_f32_2x", 32, NULL, 0, NULL, 0, NULL, 0, d, sizeof d) ==
		    WS_SUCCESS)
			for (unsigned i = 0; i < 256; i++)
				CHECK_MSG(d[i] == zluda_mma_bf16_2x_out[i], "%s: mma out[%u] = %g, expected %g",
					  tc_modes[mi], i, (double)d[i], (double)zluda_mma_bf16_2x_out[i]);
		wsSimDestroy(e.sim);
	}
}
