/*
 * streamcluster -- the gain-evaluation step ("pgain") of streaming
 * k-median clustering: for a candidate facility x, every point i computes
 * the cost of being served by x,
 *     xc_i = weight_i * |p_i - p_x|^2,
 * and compares it with its current cost cost_i (to its assigned centre):
 *   - xc_i <  cost_i: the point would switch to x; it flags itself in
 *     sw[i] and contributes xc_i - cost_i (< 0) to the cost of opening x;
 *   - otherwise it stays, and contributes cost_i - xc_i (<= 0) to the
 *     saving of closing its centre assign[i] (its points would move to x).
 * Each CTA sums these contributions per slot (slot c < ncent: centre c;
 * slot ncent: opening x) with a shared-memory tree reduction over its
 * points and writes its ncent + 1 partial sums to
 * work[blockIdx.x * (ncent + 1) + slot].  The host adds the partials,
 * decides whether opening x (and closing centres) pays, and updates the
 * assignment.
 *
 * Geometry: 1-D grid of SC_THREADS = 256-thread CTAs (8 warps), one point
 * per thread.  Coordinates are stored dimension-major, coord[d * n + i], so
 * a warp's loads of one dimension are coalesced.  At most SC_MAX_SLOTS - 1
 * open centres and SC_MAX_DIM dimensions.
 *
 * Synchronization: one __syncthreads after staging the candidate's
 * coordinates in shared memory, one before the reduction and one per
 * reduction level (8): 10 per CTA.
 */

#define SC_THREADS 256  /* blockDim.x */
#define SC_MAX_SLOTS 7  /* ncent + 1 <= SC_MAX_SLOTS */
#define SC_MAX_DIM 32   /* dim <= SC_MAX_DIM */

extern "C" __global__ void pgain(const float *coord, const float *weight, const float *cost, const int *assign, int n,
                                 int dim, int ncent, int cand, int *sw, float *work)
{
	__shared__ float cx[SC_MAX_DIM];
	__shared__ float acc[SC_MAX_SLOTS][SC_THREADS];
	int tid = threadIdx.x;
	int i = blockIdx.x * SC_THREADS + tid;
	int nslots = ncent + 1;

	if (tid < dim)
		cx[tid] = coord[tid * n + cand];
	for (int s = 0; s < nslots; s++)
		acc[s][tid] = 0.0f;
	__syncthreads();

	if (i < n) {
		float d2 = 0.0f;
		for (int k = 0; k < dim; k++) {
			float diff = coord[k * n + i] - cx[k];
			d2 += diff * diff;
		}
		float xc = d2 * weight[i];
		float cur = cost[i];
		if (xc < cur) {
			sw[i] = 1;
			acc[ncent][tid] = xc - cur;
		} else {
			sw[i] = 0;
			acc[assign[i]][tid] = cur - xc;
		}
	}
	__syncthreads();

	for (int stride = SC_THREADS / 2; stride > 0; stride >>= 1) {
		if (tid < stride)
			for (int s = 0; s < nslots; s++)
				acc[s][tid] += acc[s][tid + stride];
		__syncthreads();
	}
	if (tid < nslots)
		work[blockIdx.x * nslots + tid] = acc[tid][0];
}
