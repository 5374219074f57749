/*
 * octp -- octree partitioning of 3-D points, one tree level per pair of
 * launches.
 *
 * Geometry follows the BAWS paper's OCTP (octree partitioning with
 * dynamic load balancing, Cederman and Tsigas): CTAs of OCTP_THREADS =
 * 256 threads (8 warps), 4 CTAs per SM for octp_scatter on the GTX480
 * configuration (its ~10.5 KB of shared memory leave no room for a fifth
 * CTA in 48 KB).  The code is our own.
 *
 * Points are float4 (x, y, z in [0, 1), w = the point's id as int bits).
 * A node of level L is a cube of side 2^-L with integer cell coordinates
 * (ix, iy, iz) and owns a contiguous range of the point array; splitting
 * it reorders that range into its 8 octants, octant o = (x >= cx) |
 * (y >= cy) << 1 | (z >= cz) << 2 around the cube's centre, octant 0
 * first.  The host lists the level's nodes to split, cuts each into
 * chunks of up to OCTP_CHUNK points (one CTA each) and passes
 *     chunk_node[c]: the node of chunk c;
 *     node[n * 8 + 0..6]: start, count, first chunk, number of chunks,
 *                         ix, iy, iz of node n;
 *     half = 2^-(L+1) (the centre is (2 * ix + 1) * half, exact).
 *
 * octp_count: each CTA counts its chunk's points per octant with
 *     shared-memory atomicAdd (barrier before and after) and writes the
 *     8 counts to counts[c * 8 ..].
 * octp_scatter: each CTA computes where its points go: thread (g, o)
 *     sums octant-o counts of the node's chunks g, g + 32, ... (all of
 *     them, and those before this chunk), a shared-memory tree reduction
 *     over g (5 levels, a __syncthreads each) gives the node's octant
 *     totals and this chunk's offsets, and thread 0 turns them into
 *     exclusive prefix sums over the octants while the other warps wait.
 *     The chunk's points are then placed octant by octant in shared
 *     memory (slot within the octant from a shared atomicAdd cursor) and
 *     written out as contiguous runs.  The order within an octant depends
 *     on the order of the atomics.
 *
 * Synchronization: barrier-intensive -- 8 __syncthreads() per chunk in
 * octp_scatter (5 of them in the reduction with ever fewer active warps,
 * one around a single-thread scan), 2 per chunk in octp_count.
 */

#define OCTP_THREADS 256 /* must equal blockDim.x */
#define OCTP_CHUNK 512   /* points per CTA */
#define OCTP_GROUPS (OCTP_THREADS / 8)

__device__ static int octp_octant(float4 p, float cx, float cy, float cz)
{
	return (p.x >= cx) | (p.y >= cy) << 1 | (p.z >= cz) << 2;
}

extern "C" __global__ void octp_count(const float4 *pts, const int *chunk_node, const int *node, float half,
                                      int *counts)
{
	__shared__ int cnt[8];
	int tid = threadIdx.x, c = blockIdx.x;
	const int *nd = node + chunk_node[c] * 8;
	int part = c - nd[2];
	int start = nd[0] + part * OCTP_CHUNK, len = min(OCTP_CHUNK, nd[1] - part * OCTP_CHUNK);
	float cx = (2 * nd[4] + 1) * half, cy = (2 * nd[5] + 1) * half, cz = (2 * nd[6] + 1) * half;

	if (tid < 8)
		cnt[tid] = 0;
	__syncthreads();
	#pragma unroll 1
	for (int k = tid; k < len; k += OCTP_THREADS)
		atomicAdd(&cnt[octp_octant(pts[start + k], cx, cy, cz)], 1);
	__syncthreads();
	if (tid < 8)
		counts[c * 8 + tid] = cnt[tid];
}

extern "C" __global__ void octp_scatter(const float4 *in, float4 *out, const int *chunk_node, const int *node,
                                        float half, const int *counts)
{
	__shared__ float4 stage[OCTP_CHUNK];             /* the chunk, grouped by octant */
	__shared__ unsigned char soct[OCTP_CHUNK];       /* octant of stage[k] */
	__shared__ int before[OCTP_GROUPS][8], total[OCTP_GROUPS][8];
	__shared__ int own[8], base[8], loc[8], cursor[8];
	int tid = threadIdx.x, c = blockIdx.x;
	const int *nd = node + chunk_node[c] * 8;
	int part = c - nd[2];
	int start = nd[0] + part * OCTP_CHUNK, len = min(OCTP_CHUNK, nd[1] - part * OCTP_CHUNK);

	/* node-wide octant totals and this chunk's offsets */
	int o = tid & 7, g = tid >> 3, b = 0, t = 0;
	#pragma unroll 1
	for (int k = g; k < nd[3]; k += OCTP_GROUPS) {
		int v = counts[(nd[2] + k) * 8 + o];
		t += v;
		if (k < part)
			b += v;
		if (k == part)
			own[o] = v;
	}
	before[g][o] = b;
	total[g][o] = t;
	__syncthreads();
	#pragma unroll 1
	for (int s = OCTP_GROUPS / 2; s > 0; s >>= 1) {
		if (g < s) {
			before[g][o] += before[g + s][o];
			total[g][o] += total[g + s][o];
		}
		__syncthreads();
	}
	if (tid == 0) {
		int run = nd[0], lrun = 0;
		#pragma unroll 1
		for (int q = 0; q < 8; q++) {
			base[q] = run + before[0][q]; /* where this chunk's octant-q points go */
			run += total[0][q];
			loc[q] = lrun; /* where they sit in stage[] */
			lrun += own[q];
			cursor[q] = 0;
		}
	}
	__syncthreads();

	float cx = (2 * nd[4] + 1) * half, cy = (2 * nd[5] + 1) * half, cz = (2 * nd[6] + 1) * half;
	#pragma unroll 1
	for (int k = tid; k < len; k += OCTP_THREADS) {
		float4 p = in[start + k];
		int q = octp_octant(p, cx, cy, cz);
		int at = loc[q] + atomicAdd(&cursor[q], 1);
		stage[at] = p;
		soct[at] = (unsigned char)q;
	}
	__syncthreads();
	#pragma unroll 1
	for (int k = tid; k < len; k += OCTP_THREADS) {
		int q = soct[k];
		out[base[q] + k - loc[q]] = stage[k];
	}
}
