/*
 * kmeans -- the assignment step of k-means clustering: every point joins
 * the nearest of nclusters centroids (squared Euclidean distance, ties to
 * the lowest cluster index).
 *
 * Points are stored feature-major (features[f * npoints + p]) so that a
 * warp's loads of one feature are coalesced; the centroids
 * (centroids[k * nfeatures + f]) are read-only global data (ld.global.nc)
 * that every lane of a warp reads at the same address.  (CUDA codes often
 * keep them in __constant__ memory written with cudaMemcpyToSymbol;
 * warpsim's runtime cannot write a .const variable from the host, so they
 * live in an ordinary device buffer.)  The host copies them in before each
 * launch and recomputes them from the memberships between launches.
 *
 * One thread per point, CTAs of KM_THREADS = 256 threads (8 warps).  The
 * distance is accumulated with explicit fmaf() in feature order so that
 * the CPU reference (C fmaf, same order) is bit-identical.
 *
 * The feature loop is not unrolled: nvcc's 4-way unrolling raises the
 * register estimate from ~23 to ~35 per thread, which would cut the CTAs
 * per SM on a GTX480 from 5 to 3.
 *
 * Synchronization: none (the kernel boundary separates iterations).
 */

#define KM_THREADS 256 /* blockDim.x */

extern "C" __global__ void kmeans_assign(const float *__restrict__ features, const float *__restrict__ centroids,
                                         int *__restrict__ membership, int npoints, int nclusters, int nfeatures)
{
	int p = blockIdx.x * blockDim.x + threadIdx.x;
	if (p >= npoints)
		return;
	int best = 0;
	float best_d = 3.402823466e38f;
	for (int k = 0; k < nclusters; k++) {
		float d = 0.0f;
#pragma unroll 1
		for (int f = 0; f < nfeatures; f++) {
			float diff = features[f * npoints + p] - centroids[k * nfeatures + f];
			d = fmaf(diff, diff, d);
		}
		if (d < best_d) {
			best_d = d;
			best = k;
		}
	}
	membership[p] = best;
}
