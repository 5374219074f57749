/*
 * pvr -- page view rank (MapReduce style, after the Mars PVR workload):
 * rank the pages of each web site by their view counts.
 *
 * Input: pages grouped by site; site s owns global page indices
 * [site_start[s], site_start[s + 1]), 1 to PVR_MAXP of them, and
 * views[p] < 2^24 is page p's view count.
 * Output, for site s with first page s0 and np pages:
 *     order[s0 + i] = page in place i of the site's ranking (i < np):
 *                     views descending, ties by page index ascending;
 *     rank[p]       = competition rank of page p within its site:
 *                     1 + the number of its pages with more views.
 *
 * Geometry follows the BAWS paper's PVR: CTAs of 256 threads (8 warps), one
 * site per CTA, one page per thread.  The CTA sorts L keys, L the smallest
 * power of two >= np, so for a small site the warps past L only meet the
 * barriers.  Phases, all in shared memory:
 *   load:  key[i] = views << 8 | (255 - i) for the site's pages (one 32-bit
 *          key orders by views, then by page), 0 for the padding up to L;
 *          __syncthreads();
 *   sort:  bitonic sort of the L keys into descending order:
 *          log2(L) * (log2(L) + 1) / 2 stages, a __syncthreads() after
 *          each; in every stage the lower element of each pair
 *          (i, i ^ j) does the compare-exchange, so for j >= 32 half of
 *          the working warps idle;
 *   rank:  run[i] = i where a run of equal view counts starts, else 0;
 *          an inclusive max-scan (Hillis-Steele, log2(L) steps of
 *          read; __syncthreads(); write; __syncthreads()) turns it into
 *          the first place of each page's run = its rank - 1;
 *   store: order[] and rank[].
 *
 * Shared memory: 2 * PVR_MAXP words = 2 KB.
 *
 * Synchronization: barrier-intensive -- 2 + 36 + 2 * 8 = 54 __syncthreads()
 * per CTA for L = 256, a few instructions per thread between them.
 */

#define PVR_THREADS 256         /* blockDim.x */
#define PVR_MAXP PVR_THREADS    /* most pages per site: one per thread */

extern "C" __global__ void pvr(const unsigned *views, const int *site_start, unsigned *order, unsigned *rank)
{
	__shared__ unsigned key[PVR_MAXP];
	__shared__ unsigned run[PVR_MAXP];
	int i = threadIdx.x;
	int s0 = site_start[blockIdx.x];
	int np = site_start[blockIdx.x + 1] - s0;
	int L = np <= 2 ? 2 : 1 << (32 - __clz(np - 1));

	/* load */
	if (i < L)
		key[i] = i < np ? views[s0 + i] << 8 | (PVR_MAXP - 1 - i) : 0u;
	__syncthreads();

	/* bitonic sort, descending */
	for (int k = 2; k <= L; k <<= 1) {
		for (int j = k >> 1; j > 0; j >>= 1) {
			int ixj = i ^ j;
			if (i < L && ixj > i) {
				unsigned a = key[i], b = key[ixj];
				if ((a < b) == ((i & k) == 0)) {
					key[i] = b;
					key[ixj] = a;
				}
			}
			__syncthreads();
		}
	}

	/* rank: first place of each run of equal view counts, by a max-scan */
	if (i < L)
		run[i] = i == 0 || key[i] >> 8 != key[i - 1] >> 8 ? i : 0;
	__syncthreads();
	for (int d = 1; d < L; d <<= 1) {
		unsigned t = i >= d && i < L ? run[i - d] : 0u;
		__syncthreads();
		if (i < L)
			run[i] = max(run[i], t);
		__syncthreads();
	}

	/* store */
	if (i < np) {
		int page = s0 + (PVR_MAXP - 1 - (int)(key[i] & (PVR_MAXP - 1)));
		order[s0 + i] = page;
		rank[page] = run[i] + 1;
	}
}
