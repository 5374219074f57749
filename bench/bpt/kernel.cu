/*
 * bpt -- B+tree queries in the style of Rodinia's b+tree (the KAWS paper's
 * BT): one CTA per query walking the tree from the root, one thread per
 * key slot of the current node.
 *
 * Node layout (ints, BPT_NODE_INTS per node, host.c builds it):
 *   [0 .. BPT_SLOTS]               keys; unused slots hold INT_MAX
 *   [BPT_SLOTS+1 .. 2*BPT_SLOTS+1] indices: child node (inner node) or
 *                                  record number (leaf)
 *   [2*BPT_SLOTS+2]                number of keys (leaf) / children (inner)
 * Inner node: key[c] is the smallest key under child c (key[0] = INT_MIN),
 * so exactly one thread t sees key[t] <= q < key[t+1] and picks child t.
 * Leaf: sorted keys; slot `num` (one past the last key, key INT_MAX) holds
 * the record number of the next leaf's first key (records are in key
 * order), so lower/upper bounds that fall past a leaf's end still name the
 * right record.
 *
 * bpt_findk (Rodinia findK): the record value stored with query key q, or
 * -1 (the host pre-fills ans with -1) if q is not in the tree.
 * bpt_findrange (Rodinia findRangeK): for a range [start, end], two walks
 * side by side; at the leaves the thread at the lower bound of start
 * writes the first record number, the thread at the upper bound of end
 * the record count (upper - lower).
 *
 * Synchronization: per level, __syncthreads after the test (the matching
 * thread has written the next node to shared memory) and after thread 0
 * moves the current node (as Rodinia does through global memory); threads
 * past the node's key count only compare INT_MAX keys.  CTA = BPT_SLOTS =
 * 256 threads (8 warps).
 */

#define BPT_SLOTS 256
#define BPT_NODE_INTS (2 * BPT_SLOTS + 4)
#define BPT_IDX (BPT_SLOTS + 1)
#define BPT_NUM (2 * BPT_SLOTS + 2)

extern "C" __global__ void bpt_findk(const int *nodes, const int *records, int root, int height, const int *queries,
                                     int *ans)
{
	__shared__ int s_node, s_next;
	int t = threadIdx.x;
	int q = queries[blockIdx.x];
	if (t == 0)
		s_node = root;
	__syncthreads();
	for (int lvl = 1; lvl < height; lvl++) {
		const int *nd = nodes + s_node * BPT_NODE_INTS;
		if (nd[t] <= q && nd[t + 1] > q)
			s_next = nd[BPT_IDX + t];
		__syncthreads();
		if (t == 0)
			s_node = s_next;
		__syncthreads();
	}
	const int *leaf = nodes + s_node * BPT_NODE_INTS;
	if (t < leaf[BPT_NUM] && leaf[t] == q)
		ans[blockIdx.x] = records[leaf[BPT_IDX + t]];
}

extern "C" __global__ void bpt_findrange(const int *nodes, int root, int height, const int *starts, const int *ends,
                                         int *first, int *count)
{
	__shared__ int s_node[2], s_next[2];
	__shared__ int s_lo;
	int t = threadIdx.x;
	int lo = starts[blockIdx.x], hi = ends[blockIdx.x];
	if (t == 0) {
		s_node[0] = root;
		s_node[1] = root;
	}
	__syncthreads();
	for (int lvl = 1; lvl < height; lvl++) {
		const int *a = nodes + s_node[0] * BPT_NODE_INTS;
		const int *b = nodes + s_node[1] * BPT_NODE_INTS;
		if (a[t] <= lo && a[t + 1] > lo)
			s_next[0] = a[BPT_IDX + t];
		if (b[t] <= hi && b[t + 1] > hi)
			s_next[1] = b[BPT_IDX + t];
		__syncthreads();
		if (t == 0) {
			s_node[0] = s_next[0];
			s_node[1] = s_next[1];
		}
		__syncthreads();
	}
	const int *a = nodes + s_node[0] * BPT_NODE_INTS;
	if (t <= a[BPT_NUM] && (t == 0 || a[t - 1] < lo) && a[t] >= lo) {
		s_lo = a[BPT_IDX + t];
		first[blockIdx.x] = s_lo;
	}
	__syncthreads();
	const int *b = nodes + s_node[1] * BPT_NODE_INTS;
	if (t <= b[BPT_NUM] && (t == 0 || b[t - 1] <= hi) && b[t] > hi)
		count[blockIdx.x] = b[BPT_IDX + t] - s_lo;
}
