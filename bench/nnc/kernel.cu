/*
 * nnc -- the DWR paper's NNC: the distance stage of a nearest-neighbour
 * search over hurricane records held as fixed-length text lines, parsed on
 * the GPU (the early Rodinia nn form; bench/nn is its later form, which
 * parses on the host and hands the GPU (lat, lng) float pairs).
 *
 * Record (NNC_REC_LEN = 49 bytes, newline-terminated): date, time, storm
 * number and name in the first 28 bytes, then the latitude as a
 * right-aligned "%8.4f" field at byte 28, a space, the longitude as a
 * right-aligned "%9.4f" field at byte 37, a space, a category digit and the
 * newline.  Each thread parses its record's two fields and writes the
 * distance to the query and the parsed (lat, lng) pair:
 *     dist[i] = sqrt((lat_i - qlat)^2 + (lng_i - qlng)^2)
 *
 * Geometry: 1-D grid of NNC_THREADS = 16-thread CTAs (Table 1: 4 x (938)
 * CTAs of 16 threads), one record per thread, bounds check on the last,
 * partial CTA; the host launches once per window of records.
 *
 * Global memory instructions (the paper's LATs, 17 in Table 1): each field
 * is read right to left, its four decimals and units digit always (5 byte
 * loads), then one byte load per further position for as long as digits
 * go on (at most 2 for the latitude, 3 for the longitude).  Every thread
 * makes the first of those (it tests the tens position), so only the others
 * (1 and 2) sit on data-dependent paths, side by side, taken by the threads
 * whose number has that many digits; 7 + 8 loads and 2 stores.
 *
 * Exactness: a field's value is an integer count of 1e-4 degrees (below
 * 2^24, so exact in float), scaled by 1e-4f; the squares and their sum use
 * the round-to-nearest intrinsics so that nvcc cannot contract them into a
 * fused multiply-add, and the host recomputes the same float expression.
 */

#define NNC_THREADS 16 /* blockDim.x */
#define NNC_REC_LEN 49
#define NNC_LAT_POS 28 /* "%8.4f" */
#define NNC_LNG_POS 37 /* "%9.4f" */

/* A right-aligned "%w.4f" field in units of 1e-4, read right to left. */
template <int W> __device__ __forceinline__ int nnc_field(const char *f)
{
	int v = (f[W - 1] - '0') + 10 * (f[W - 2] - '0') + 100 * (f[W - 3] - '0') + 1000 * (f[W - 4] - '0') +
		10000 * (f[W - 6] - '0');
	int scale = 100000;
	bool neg = false;
#pragma unroll
	for (int k = W - 7; k >= 0; k--) {
		int c = f[k];
		if (c < '0' || c > '9') {
			neg = c == '-';
			break;
		}
		v += scale * (c - '0');
		scale *= 10;
	}
	return neg ? -v : v;
}

extern "C" __global__ void nnc(const char *rec, float *dist, float2 *loc, int n, float qlat, float qlng)
{
	int i = blockIdx.x * NNC_THREADS + threadIdx.x;
	if (i < n) {
		const char *r = rec + (size_t)i * NNC_REC_LEN;
		float lat = __fmul_rn((float)nnc_field<8>(r + NNC_LAT_POS), 1e-4f);
		float lng = __fmul_rn((float)nnc_field<9>(r + NNC_LNG_POS), 1e-4f);
		float dlat = lat - qlat;
		float dlng = lng - qlng;
		dist[i] = sqrtf(__fadd_rn(__fmul_rn(dlat, dlat), __fmul_rn(dlng, dlng)));
		loc[i] = make_float2(lat, lng);
	}
}
