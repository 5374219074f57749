/*
 * nn -- distance stage of a k-nearest-neighbour search over a table of
 * (latitude, longitude) records:
 *     dist[i] = sqrt((lat_i - qlat)^2 + (lng_i - qlng)^2),  i = 0 .. n-1
 * The host then selects the k records with the smallest distances.
 *
 * Geometry: 1-D grid of NN_THREADS = 256-thread CTAs (8 warps), one record
 * per thread, bounds check on the last, partial CTA.  Records are stored
 * as an array of (lat, lng) float pairs, so each thread issues one 8-byte
 * load and one 4-byte store.
 *
 * Synchronization: none (every thread independent).
 *
 * The squares and their sum use the round-to-nearest intrinsics so that
 * nvcc cannot contract them into a fused multiply-add: the host recomputes
 * the same float expression and compares the distances bit for bit.
 */

#define NN_THREADS 256 /* blockDim.x */

extern "C" __global__ void nn(const float2 *rec, float *dist, int n, float qlat, float qlng)
{
	int i = blockIdx.x * NN_THREADS + threadIdx.x;
	if (i < n) {
		float2 r = rec[i];
		float dlat = r.x - qlat;
		float dlng = r.y - qlng;
		dist[i] = sqrtf(__fadd_rn(__fmul_rn(dlat, dlat), __fmul_rn(dlng, dlng)));
	}
}
