/*
 * mu -- sequence alignment seeding after MUMmerGPU++ (the DWR paper's MU;
 * written from scratch): exact matching of short queries against a
 * reference through its suffix array instead of a suffix tree (the space
 * trade-off MUMmerGPU++ made).
 *
 * One thread per query (MU_THREADS = 256 per CTA).  For every start i of
 * its query, the thread binary-searches the suffix array `sa` for the
 * query suffix q[i..qlen): at each step it compares the query with the
 * reference suffix sa[mid] base by base -- starting after min(llo, lhi),
 * the common prefix already known with both ends of the interval (the
 * classical mlr speed-up) -- and moves lo or hi.  The longest comparison
 * seen is the matching statistic ms(i) (the search always visits the two
 * suffixes around the insertion point).  The thread sums the ms(i) >=
 * minmatch and keeps the largest.
 *
 * Character: two nested data-dependent loops (about log2(n) search steps,
 * each with a compare loop whose length differs per lane and per step),
 * irregular loads of sa[mid] and of the reference at random suffixes,
 * strided query reads -- divergent and memory-bound like MP, but with the
 * divergence in the inner compare loop of a fixed-length outer search.
 */

#define MU_THREADS 256

extern "C" __global__ void mu(const int *sa, const unsigned char *ref, int n, const unsigned char *queries, int nq,
                              int qlen, int minmatch, int *sum, int *best)
{
	int q = blockIdx.x * blockDim.x + threadIdx.x;
	if (q >= nq)
		return;
	const unsigned char *s = queries + (size_t)q * qlen;
	int total = 0, longest = 0;
	for (int i = 0; i + minmatch <= qlen; i++) {
		int len = qlen - i;
		int lo = 0, hi = n, llo = 0, lhi = 0, ms = 0;
		while (lo < hi) {
			int mid = lo + ((hi - lo) >> 1);
			int p = sa[mid];
			int k = llo < lhi ? llo : lhi;
			while (k < len && p + k < n && ref[p + k] == s[i + k])
				k++;
			if (k > ms)
				ms = k;
			if (k < len && (p + k == n || ref[p + k] < s[i + k])) {
				lo = mid + 1;
				llo = k;
			} else {
				hi = mid;
				lhi = k;
			}
		}
		if (ms >= minmatch)
			total += ms;
		if (ms > longest)
			longest = ms;
	}
	sum[q] = total;
	best[q] = longest;
}
