/*
 * bt -- B+tree point search: for each query key q, the value stored with
 * q in a B+tree, or -1 if q is not in the tree.
 *
 * Geometry follows the BAWS paper's BT (Rodinia b+tree): CTAs of
 * BT_THREADS = 256 threads (8 warps), one thread per key slot of a node;
 * 5 CTAs per SM on the GTX480 configuration (its ~22 registers per
 * thread leave no room for a sixth CTA of 256 threads in 32768).  The
 * code is our own.
 *
 * Tree layout (built by the host): node i occupies ints i*512 .. i*512+511
 * of one array, 256 key slots key[] followed by 256 pointer slots ptr[].
 * An inner node with c children holds c-1 ascending separators
 * key[0..c-2] (separator s is the smallest key under child s+1), INT_MAX
 * in the remaining slots, and the children's node indices in ptr[0..c-1].
 * A leaf holds its ascending keys (INT_MAX after them) and their values
 * in ptr.  The root is node 0; all leaves are at depth height-1.
 *
 * CTA b takes the batch of BT_BATCH = 4 queries b*4 .. b*4+3 and walks
 * them down the tree together, three __syncthreads() per level:
 *   1. the CTA copies the 4 current nodes' keys into shared memory, each
 *      thread one slot of every node (4 loads in flight);
 *   2. thread t checks, for every query, whether key[t-1] <= q < key[t]
 *      (exactly one slot matches, as key[255] is INT_MAX) and records t;
 *   3. threads 0..3 (one warp) follow the pointer in the recorded slot of
 *      their query -- a global load -- to the next level's node, or, at a
 *      leaf, write the value of key[t-1] if that is q, else -1, while the
 *      other seven warps wait at the barrier.
 * Synchronization: barrier-intensive -- the pointer-chasing warp makes
 * the other seven wait a global-memory latency at every level.
 */

#include <limits.h>

#define BT_THREADS 256 /* must equal blockDim.x; = slots per node */
#define BT_BATCH 4     /* queries walked together by one CTA */
#define BT_NODE 512    /* ints per node: 256 keys, then 256 pointers */

extern "C" __global__ void bt_search(const int *tree, int height, const int *query, int nq, int *result)
{
	__shared__ int skey[BT_BATCH][BT_THREADS]; /* the batch's current nodes */
	__shared__ int node[BT_BATCH], slot[BT_BATCH], q[BT_BATCH];
	unsigned tid = threadIdx.x;
	int first = blockIdx.x * BT_BATCH;

	if (tid < BT_BATCH) {
		/* a missing query of a partial batch walks the tree with INT_MIN
		 * and writes nothing */
		q[tid] = first + (int)tid < nq ? query[first + tid] : INT_MIN;
		node[tid] = 0; /* the root */
	}
	__syncthreads();

	#pragma unroll 1
	for (int below = height - 1; below >= 0; below--) { /* levels below this one */
		#pragma unroll
		for (int j = 0; j < BT_BATCH; j++)
			skey[j][tid] = tree[(unsigned)node[j] * BT_NODE + tid];
		__syncthreads();

		#pragma unroll 1
		for (int j = 0; j < BT_BATCH; j++) {
			int lo = tid ? skey[j][tid - 1] : INT_MIN, qj = q[j];
			if (lo <= qj && qj < skey[j][tid])
				slot[j] = tid;
		}
		__syncthreads();

		if (tid < BT_BATCH) {
			int s = slot[tid];
			unsigned p = node[tid] * BT_NODE + BT_THREADS + s; /* ptr[s] */
			if (below > 0)
				node[tid] = tree[p]; /* child covering q */
			else if (first + (int)tid < nq) /* leaf: value of key[s-1] if that is q */
				result[first + tid] = s > 0 && skey[tid][s - 1] == q[tid] ? tree[p - 1] : -1;
		}
		__syncthreads();
	}
}
