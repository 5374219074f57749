// tensor.cu -- tensor-core test kernels for warpsim (issue 16): the
// nvcuda::wmma API for every shape/type nvcc emits for sm_80 and inline
// mma.sync / ldmatrix.  nvcc -arch=compute_80 -ptx -> tests/ptx/func/tensor.ptx
// (stmatrix, sm_90: tensor90.cu).  Each kernel is run by one warp; tests/test_tensor.c
// checks every result against a CPU reference (docs/ptx.md: products exact,
// summed in order k = 0..K-1 in double starting from c, rounded once).
#include <mma.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <stdint.h>
using namespace nvcuda;

// D = A*B + C with A row-major (lda = K), B col-major (ldb = K), C/D row-major (ld = N)
template <int M, int N, int K, typename TA, typename TC, typename BL>
__device__ void wmma_gemm(const TA *a, const TA *b, const TC *c, TC *d)
{
	wmma::fragment<wmma::matrix_a, M, N, K, TA, wmma::row_major> fa;
	wmma::fragment<wmma::matrix_b, M, N, K, TA, BL> fb;
	wmma::fragment<wmma::accumulator, M, N, K, TC> fc;
	wmma::load_matrix_sync(fa, a, K);
	wmma::load_matrix_sync(fb, b, K);
	wmma::load_matrix_sync(fc, c, N, wmma::mem_row_major);
	wmma::mma_sync(fc, fa, fb, fc);
	wmma::store_matrix_sync(d, fc, N, wmma::mem_row_major);
}

extern "C" __global__ void wmma_f16_f32_16x16x16(const half *a, const half *b, const float *c, float *d)
{ wmma_gemm<16, 16, 16, half, float, wmma::col_major>(a, b, c, d); }
extern "C" __global__ void wmma_f16_f16_32x8x16(const half *a, const half *b, const half *c, half *d)
{ wmma_gemm<32, 8, 16, half, half, wmma::col_major>(a, b, c, d); }
extern "C" __global__ void wmma_bf16_f32_8x32x16(const __nv_bfloat16 *a, const __nv_bfloat16 *b, const float *c, float *d)
{ wmma_gemm<8, 32, 16, __nv_bfloat16, float, wmma::col_major>(a, b, c, d); }
extern "C" __global__ void wmma_s8_s32_16x16x16(const signed char *a, const signed char *b, const int *c, int *d)
{ wmma_gemm<16, 16, 16, signed char, int, wmma::col_major>(a, b, c, d); }
extern "C" __global__ void wmma_u8_s32_32x8x16(const unsigned char *a, const unsigned char *b, const int *c, int *d)
{ wmma_gemm<32, 8, 16, unsigned char, int, wmma::col_major>(a, b, c, d); }
extern "C" __global__ void wmma_f64_8x8x4(const double *a, const double *b, const double *c, double *d)
{ wmma_gemm<8, 8, 4, double, double, wmma::col_major>(a, b, c, d); }

// tf32: fragments hold float; the inputs are already tf32 values (low 13
// bits zero).  B row-major here, C loaded and D stored column-major, the
// accumulator fragment scaled element by element.
extern "C" __global__ void wmma_tf32_16x16x8(const float *a, const float *b, const float *c, float *d)
{
	wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> fa;
	wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::row_major> fb;
	wmma::fragment<wmma::accumulator, 16, 16, 8, float> fc;
	wmma::load_matrix_sync(fa, a, 8);
	wmma::load_matrix_sync(fb, b, 16);
	wmma::fill_fragment(fc, 0.0f);
	wmma::load_matrix_sync(fc, c, 16, wmma::mem_col_major);
	for (int i = 0; i < fc.num_elements; i++)
		fc.x[i] *= 2.0f;
	wmma::mma_sync(fc, fa, fb, fc);
	wmma::store_matrix_sync(d, fc, 16, wmma::mem_col_major);
}

// wmma through shared memory with a padded leading dimension (stride != cols)
extern "C" __global__ void wmma_f16_shared_stride(const half *a, const half *b, float *d)
{
	__shared__ half sa[16 * 24], sb[16 * 24];
	for (int i = threadIdx.x; i < 16 * 24; i += 32) {
		sa[i] = a[i];
		sb[i] = b[i];
	}
	__syncwarp();
	wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::col_major> fa;
	wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> fb;
	wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
	wmma::fill_fragment(fc, 0.5f);
	wmma::load_matrix_sync(fa, sa, 24);
	wmma::load_matrix_sync(fb, sb, 24);
	wmma::mma_sync(fc, fa, fb, fc);
	wmma::store_matrix_sync(d, fc, 20, wmma::mem_row_major);
}

// ---- mma.sync (fragment layouts of the PTX ISA) ----
// Every thread passes its raw fragment registers, read from in[lane * NA ...];
// the test builds the fragments from matrices with the ISA's layouts.
extern "C" __global__ void mma_m16n8k16_f32_f16(const uint32_t *a, const uint32_t *b, const float *c, float *d)
{
	unsigned l = threadIdx.x;
	uint32_t a0 = a[l * 4], a1 = a[l * 4 + 1], a2 = a[l * 4 + 2], a3 = a[l * 4 + 3], b0 = b[l * 2], b1 = b[l * 2 + 1];
	float c0 = c[l * 4], c1 = c[l * 4 + 1], c2 = c[l * 4 + 2], c3 = c[l * 4 + 3], d0, d1, d2, d3;
	asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
		     "{%10,%11,%12,%13};"
		     : "=f"(d0), "=f"(d1), "=f"(d2), "=f"(d3)
		     : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1), "f"(c0), "f"(c1), "f"(c2), "f"(c3));
	d[l * 4] = d0; d[l * 4 + 1] = d1; d[l * 4 + 2] = d2; d[l * 4 + 3] = d3;
}
extern "C" __global__ void mma_m16n8k16_f16_f16(const uint32_t *a, const uint32_t *b, const uint32_t *c, uint32_t *d)
{
	unsigned l = threadIdx.x;
	uint32_t a0 = a[l * 4], a1 = a[l * 4 + 1], a2 = a[l * 4 + 2], a3 = a[l * 4 + 3], b0 = b[l * 2], b1 = b[l * 2 + 1];
	uint32_t c0 = c[l * 2], c1 = c[l * 2 + 1], d0, d1;
	asm volatile("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0,%1}, {%2,%3,%4,%5}, {%6,%7}, {%8,%9};"
		     : "=r"(d0), "=r"(d1)
		     : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1), "r"(c0), "r"(c1));
	d[l * 2] = d0; d[l * 2 + 1] = d1;
}
extern "C" __global__ void mma_m16n8k8_f32_bf16(const uint32_t *a, const uint32_t *b, const float *c, float *d)
{
	unsigned l = threadIdx.x;
	uint32_t a0 = a[l * 2], a1 = a[l * 2 + 1], b0 = b[l];
	float c0 = c[l * 4], c1 = c[l * 4 + 1], c2 = c[l * 4 + 2], c3 = c[l * 4 + 3], d0, d1, d2, d3;
	asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10};"
		     : "=f"(d0), "=f"(d1), "=f"(d2), "=f"(d3)
		     : "r"(a0), "r"(a1), "r"(b0), "f"(c0), "f"(c1), "f"(c2), "f"(c3));
	d[l * 4] = d0; d[l * 4 + 1] = d1; d[l * 4 + 2] = d2; d[l * 4 + 3] = d3;
}
extern "C" __global__ void mma_m16n8k8_f32_tf32(const uint32_t *a, const uint32_t *b, const float *c, float *d)
{
	unsigned l = threadIdx.x;
	uint32_t a0 = a[l * 4], a1 = a[l * 4 + 1], a2 = a[l * 4 + 2], a3 = a[l * 4 + 3], b0 = b[l * 2], b1 = b[l * 2 + 1];
	float c0 = c[l * 4], c1 = c[l * 4 + 1], c2 = c[l * 4 + 2], c3 = c[l * 4 + 3], d0, d1, d2, d3;
	asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
		     "{%10,%11,%12,%13};"
		     : "=f"(d0), "=f"(d1), "=f"(d2), "=f"(d3)
		     : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1), "f"(c0), "f"(c1), "f"(c2), "f"(c3));
	d[l * 4] = d0; d[l * 4 + 1] = d1; d[l * 4 + 2] = d2; d[l * 4 + 3] = d3;
}
extern "C" __global__ void mma_m16n8k32_s32_s8(const uint32_t *a, const uint32_t *b, const int *c, int *d)
{
	unsigned l = threadIdx.x;
	uint32_t a0 = a[l * 4], a1 = a[l * 4 + 1], a2 = a[l * 4 + 2], a3 = a[l * 4 + 3], b0 = b[l * 2], b1 = b[l * 2 + 1];
	int c0 = c[l * 4], c1 = c[l * 4 + 1], c2 = c[l * 4 + 2], c3 = c[l * 4 + 3], d0, d1, d2, d3;
	asm volatile("mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.u8.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
		     "{%10,%11,%12,%13};"
		     : "=r"(d0), "=r"(d1), "=r"(d2), "=r"(d3)
		     : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1), "r"(c0), "r"(c1), "r"(c2), "r"(c3));
	d[l * 4] = d0; d[l * 4 + 1] = d1; d[l * 4 + 2] = d2; d[l * 4 + 3] = d3;
}
extern "C" __global__ void mma_m8n8k4_f64(const double *a, const double *b, const double *c, double *d)
{
	unsigned l = threadIdx.x;
	double a0 = a[l], b0 = b[l], c0 = c[l * 2], c1 = c[l * 2 + 1], d0, d1;
	asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0,%1}, {%2}, {%3}, {%4,%5};"
		     : "=d"(d0), "=d"(d1)
		     : "d"(a0), "d"(b0), "d"(c0), "d"(c1));
	d[l * 2] = d0; d[l * 2 + 1] = d1;
}

// ldmatrix: a 32x8 b16 matrix in shared memory (four 8x8 matrices stacked),
// loaded with .x4 and .x2.trans; every thread writes its registers out.
extern "C" __global__ void ldmatrix_b16(const unsigned short *m, uint32_t *out)
{
	__shared__ unsigned short s[32 * 8];
	unsigned l = threadIdx.x;
	for (int i = l; i < 32 * 8; i += 32)
		s[i] = m[i];
	__syncwarp();
	unsigned addr = (unsigned)__cvta_generic_to_shared(&s[l * 8]);
	uint32_t r0, r1, r2, r3, t0, t1;
	asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
		     : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(addr));
	asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0,%1}, [%2];"
		     : "=r"(t0), "=r"(t1) : "r"(addr));
	out[l * 6] = r0; out[l * 6 + 1] = r1; out[l * 6 + 2] = r2; out[l * 6 + 3] = r3;
	out[l * 6 + 4] = t0; out[l * 6 + 5] = t1;
}

// More mma.sync shapes: fragments of NA, NB .b32 registers and NC
// accumulators per lane, passed in and out as in the kernels above.
#define MMA_KERNEL(name, NA, NB, NC, CT, CC, ASM, ...)                                                   \
	extern "C" __global__ void name(const uint32_t *a, const uint32_t *b, const CT *c, CT *d)        \
	{                                                                                                \
		unsigned l = threadIdx.x;                                                                \
		uint32_t ra[NA], rb[NB];                                                                 \
		CT rc[4], rd[4];                                                                         \
		for (int i = 0; i < NA; i++) ra[i] = a[l * NA + i];                                      \
		for (int i = 0; i < NB; i++) rb[i] = b[l * NB + i];                                      \
		for (int i = 0; i < NC; i++) rc[i] = c[l * NC + i];                                      \
		asm volatile(ASM : __VA_ARGS__);                                                         \
		for (int i = 0; i < NC; i++) d[l * NC + i] = rd[i];                                      \
	}
MMA_KERNEL(mma_m16n8k8_f32_f16, 2, 1, 4, float, "f",
	   "mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10};",
	   "=f"(rd[0]), "=f"(rd[1]), "=f"(rd[2]), "=f"(rd[3]) : "r"(ra[0]), "r"(ra[1]), "r"(rb[0]), "f"(rc[0]),
	   "f"(rc[1]), "f"(rc[2]), "f"(rc[3]))
MMA_KERNEL(mma_m16n8k4_f32_tf32, 2, 1, 4, float, "f",
	   "mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10};",
	   "=f"(rd[0]), "=f"(rd[1]), "=f"(rd[2]), "=f"(rd[3]) : "r"(ra[0]), "r"(ra[1]), "r"(rb[0]), "f"(rc[0]),
	   "f"(rc[1]), "f"(rc[2]), "f"(rc[3]))
MMA_KERNEL(mma_m16n8k16_s32_u8s8, 2, 1, 4, int, "r",
	   "mma.sync.aligned.m16n8k16.row.col.s32.u8.s8.s32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10};",
	   "=r"(rd[0]), "=r"(rd[1]), "=r"(rd[2]), "=r"(rd[3]) : "r"(ra[0]), "r"(ra[1]), "r"(rb[0]), "r"(rc[0]),
	   "r"(rc[1]), "r"(rc[2]), "r"(rc[3]))
MMA_KERNEL(mma_m8n8k16_s32_s8, 1, 1, 2, int, "r",
	   "mma.sync.aligned.m8n8k16.row.col.s32.s8.s8.s32 {%0,%1}, {%2}, {%3}, {%4,%5};",
	   "=r"(rd[0]), "=r"(rd[1]) : "r"(ra[0]), "r"(rb[0]), "r"(rc[0]), "r"(rc[1]))

// The other wmma shapes of the same types (same layout rules as above)
extern "C" __global__ void wmma_bf16_f32_16x16x16(const __nv_bfloat16 *a, const __nv_bfloat16 *b, const float *c, float *d)
{ wmma_gemm<16, 16, 16, __nv_bfloat16, float, wmma::col_major>(a, b, c, d); }
extern "C" __global__ void wmma_bf16_f32_32x8x16(const __nv_bfloat16 *a, const __nv_bfloat16 *b, const float *c, float *d)
{ wmma_gemm<32, 8, 16, __nv_bfloat16, float, wmma::col_major>(a, b, c, d); }
extern "C" __global__ void wmma_f16_f32_8x32x16(const half *a, const half *b, const float *c, float *d)
{ wmma_gemm<8, 32, 16, half, float, wmma::col_major>(a, b, c, d); }
extern "C" __global__ void wmma_f16_f16_16x16x16(const half *a, const half *b, const half *c, half *d)
{ wmma_gemm<16, 16, 16, half, half, wmma::col_major>(a, b, c, d); }
extern "C" __global__ void wmma_s8_s32_8x32x16(const signed char *a, const signed char *b, const int *c, int *d)
{ wmma_gemm<8, 32, 16, signed char, int, wmma::col_major>(a, b, c, d); }
