// spmv.cu -- the irregular-memory correlation probe: y = A x for a random CSR
// sparse matrix with the scalar kernel (one thread per row), so a warp's loads of
// its rows' column indices and values are 32 different segments and its gathers
// of x are 32 random lines (docs/correlation.md, "Irregular memory: the spmv probe").
//
//   spmv [ROWS]     (default 24576; the references ran the default)
//
// A deterministic generator (a 64-bit LCG, fixed seed) gives every row a length
// of 2..30 non-zeros, one row in 16 a long one of 48..111, and random columns over
// the whole x (ROWS floats: 96 KB at the default, larger than the L1D, within the
// L2).  The host checks y against a CPU product and prints "spmv: PASSED" or
// "spmv: FAILED" (exit 1).  Built as GPGPU-Sim reads programs (Makefile beside
// it); the committed executable bin/spmv runs under `warpsim cuda` without nvcc.
#include <cmath>
#include <cstdio>
#include <cstdlib>

__global__ void spmv_csr_scalar(int rows, const int *rowptr, const int *cols, const float *vals, const float *x,
				float *y)
{
	int r = blockIdx.x * blockDim.x + threadIdx.x;
	if (r < rows) {
		float s = 0.0f;
		int end = rowptr[r + 1];
		for (int j = rowptr[r]; j < end; j++)
			s += vals[j] * x[cols[j]];
		y[r] = s;
	}
}

#define CHECK(x)                                                                                                \
	do {                                                                                                    \
		cudaError_t e_ = (x);                                                                           \
		if (e_ != cudaSuccess) {                                                                        \
			printf("spmv: %s failed: %s\n", #x, cudaGetErrorString(e_));                           \
			return 1;                                                                               \
		}                                                                                               \
	} while (0)

static unsigned long long lcg_state = 0x5eed5eedULL;
static unsigned lcg_next(void)
{
	lcg_state = lcg_state * 6364136223846793005ULL + 1442695040888963407ULL;
	return (unsigned)(lcg_state >> 33);
}

int main(int argc, char **argv)
{
	int rows = argc > 1 ? atoi(argv[1]) : 24576;
	if (rows < 1 || rows > (1 << 22)) {
		printf("spmv: ROWS must be 1..4194304, not '%s'\n", argv[1]);
		return 2;
	}
	int *rowptr = (int *)malloc((rows + 1) * sizeof(int));
	rowptr[0] = 0;
	for (int r = 0; r < rows; r++) {
		int len = lcg_next() % 16 == 0 ? 48 + (int)(lcg_next() % 64) : 2 + (int)(lcg_next() % 29);
		rowptr[r + 1] = rowptr[r] + len;
	}
	int nnz = rowptr[rows];
	int *cols = (int *)malloc(nnz * sizeof(int));
	float *vals = (float *)malloc(nnz * sizeof(float));
	float *x = (float *)malloc(rows * sizeof(float));
	float *y = (float *)malloc(rows * sizeof(float));
	for (int j = 0; j < nnz; j++) {
		cols[j] = (int)(lcg_next() % (unsigned)rows);
		vals[j] = (float)(lcg_next() % 2001) / 1000.0f - 1.0f;
	}
	for (int i = 0; i < rows; i++)
		x[i] = (float)(lcg_next() % 1001) / 500.0f - 1.0f;

	int *d_rowptr, *d_cols;
	float *d_vals, *d_x, *d_y;
	CHECK(cudaMalloc(&d_rowptr, (rows + 1) * sizeof(int)));
	CHECK(cudaMalloc(&d_cols, nnz * sizeof(int)));
	CHECK(cudaMalloc(&d_vals, nnz * sizeof(float)));
	CHECK(cudaMalloc(&d_x, rows * sizeof(float)));
	CHECK(cudaMalloc(&d_y, rows * sizeof(float)));
	CHECK(cudaMemcpy(d_rowptr, rowptr, (rows + 1) * sizeof(int), cudaMemcpyHostToDevice));
	CHECK(cudaMemcpy(d_cols, cols, nnz * sizeof(int), cudaMemcpyHostToDevice));
	CHECK(cudaMemcpy(d_vals, vals, nnz * sizeof(float), cudaMemcpyHostToDevice));
	CHECK(cudaMemcpy(d_x, x, rows * sizeof(float), cudaMemcpyHostToDevice));
	const int threads = 128;
	spmv_csr_scalar<<<(rows + threads - 1) / threads, threads>>>(rows, d_rowptr, d_cols, d_vals, d_x, d_y);
	CHECK(cudaGetLastError());
	CHECK(cudaMemcpy(y, d_y, rows * sizeof(float), cudaMemcpyDeviceToHost));

	int bad = 0;
	for (int r = 0; r < rows; r++) {
		float s = 0.0f;
		for (int j = rowptr[r]; j < rowptr[r + 1]; j++)
			s += vals[j] * x[cols[j]];
		if (fabsf(s - y[r]) > 1e-3f * (1.0f + fabsf(s))) {
			if (bad++ < 5)
				printf("spmv: row %d: %g, expected %g\n", r, y[r], s);
		}
	}
	printf("spmv: %d rows, %d non-zeros, %d wrong\n", rows, nnz, bad);
	printf("spmv: %s\n", bad ? "FAILED" : "PASSED");
	return bad ? 1 : 0;
}
