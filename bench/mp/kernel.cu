/*
 * mp -- MUMmer-style exact matching of short queries against a reference
 * by walking a suffix trie (after GPGPU-Sim's MUM benchmark, the DWR
 * paper's MP; written from scratch).
 *
 * The host builds a depth-limited suffix trie of the reference: node v has
 * four child indices trie[4v + base] (0 = none; node 0 is the root), and
 * every reference substring of length <= depth is a root path.  One thread
 * per query (MP_THREADS = 256 per CTA): for every start i of its query it
 * walks down from the root, one dependent global load of a child pointer
 * and one byte load of the query per matched base, until a base has no
 * child or the query ends -- the matching statistic ms(i), capped at the
 * trie depth.  It sums the ms(i) >= minmatch and keeps the largest, and
 * writes both at the end.
 *
 * Character: data-dependent, divergent loops (lanes leave the walk at
 * different depths, every position restarts it); irregular pointer-chasing
 * loads that scatter over the trie; strided (uncoalesced) query reads.
 * This is what the DWR paper's MP shows: many memory instructions under
 * divergence, most of them non-benefiting LATs.  Unlike MUMmerGPU's suffix
 * tree the trie has one node per base (no edge labels to compare), which
 * keeps the host simple and the walk a pure pointer chase.
 */

#define MP_THREADS 256

extern "C" __global__ void mp(const int *trie, const unsigned char *queries, int nq, int qlen, int minmatch,
                              int *sum, int *best)
{
	int q = blockIdx.x * blockDim.x + threadIdx.x;
	if (q >= nq)
		return;
	const unsigned char *s = queries + (size_t)q * qlen;
	int total = 0, longest = 0;
	for (int i = 0; i + minmatch <= qlen; i++) {
		int node = 0, d = 0;
		while (i + d < qlen) {
			int next = trie[4 * node + s[i + d]];
			if (next == 0)
				break;
			node = next;
			d++;
		}
		if (d >= minmatch)
			total += d;
		if (d > longest)
			longest = d;
	}
	sum[q] = total;
	best[q] = longest;
}
