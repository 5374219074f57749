/*
 * pvc -- page view count (MapReduce style, after the Mars PVC workload):
 * count how often each page (URL) occurs in a web-server log.
 *
 * Input: n log records.  Record e starts at word offs[e] of `log`:
 *     log[offs[e]]            number of URL words u (the URL, 4 bytes a word)
 *     log[offs[e] + 1 .. u]   the URL
 *     then two more words     client address and time stamp (ignored)
 * `limit` <= PVC_SLOTS - PVC_THREADS is the flush threshold (below).
 * Output: an open-addressing hash table in global memory (gmask + 1 slots,
 * a power of two, zeroed before the launch): gtab[s].x is the 32-bit URL
 * hash of a page (0 = empty slot), gtab[s].y its number of views.  URL
 * hashes are non-zero and distinct per page (the host guarantees it).
 *
 * Geometry follows the BAWS paper's PVC: CTAs of 256 threads (8 warps).  CTA
 * b owns records [b * batches * 256, (b + 1) * batches * 256); per batch of
 * 256 records (one per thread):
 *   map:    hash the record's URL (variable length: the work per thread
 *           varies), insert the key into a private shared-memory hash table
 *           (atomicCAS on the key, linear probing) and atomicAdd 1 to its
 *           count (hot pages: many lanes hit the same counter),
 *           __syncthreads();
 *   decide: every thread reads the table's key count, __syncthreads()
 *           (nobody inserts again before all have read it);
 *   reduce: when the shared table holds more than `limit` keys (or after
 *           the last batch) the CTA flushes it: every thread moves its
 *           slots' (key, count) into the global table with atomicCAS /
 *           atomicAdd and clears them, __syncthreads().
 *
 * Shared memory: PVC_SLOTS (key, count) pairs + one counter = 8132 B, so
 * six CTAs fit in 48 KB.
 *
 * Synchronization: two __syncthreads() per batch, one more per flush;
 * shared- and global-memory atomics.
 */

#define PVC_THREADS 256 /* blockDim.x */
#define PVC_SLOTS 1016  /* shared hash-table slots */

/* FNV-1a over the 32-bit words [w, wend), then a final mix */
__device__ static unsigned url_hash(const unsigned *w, const unsigned *wend)
{
	unsigned h = 2166136261u;
#pragma unroll 1
	for (; w < wend; w++)
		h = (h ^ *w) * 16777619u;
	h ^= h >> 15;
	h *= 0x2c1b3c6du;
	h ^= h >> 12;
	return h;
}

extern "C" __global__ void pvc(const unsigned *log, const unsigned *offs, int n, int batches, unsigned limit,
                               uint2 *gtab, unsigned gmask)
{
	__shared__ unsigned skey[PVC_SLOTS];
	__shared__ unsigned scnt[PVC_SLOTS];
	__shared__ unsigned sused; /* occupied slots of skey */
	unsigned tid = threadIdx.x;

	for (unsigned s = tid; s < PVC_SLOTS; s += PVC_THREADS) {
		skey[s] = 0;
		scnt[s] = 0;
	}
	if (tid == 0)
		sused = 0;
	__syncthreads();

	/* this CTA's records: [e0, end), one batch of PVC_THREADS at a time */
	int e0 = blockIdx.x * batches * PVC_THREADS;
	int end = min(n, e0 + batches * PVC_THREADS);
	for (int eb = e0;; eb += PVC_THREADS) {
		/* map: one record per thread into the shared table */
		int e = eb + (int)tid;
		if (e < end) {
			const unsigned *rec = log + offs[e];
			unsigned key = url_hash(rec + 1, rec + 1 + rec[0]);
			unsigned s = key % PVC_SLOTS;
			for (;;) {
				unsigned old = atomicCAS(&skey[s], 0u, key);
				if (old == 0u)
					atomicAdd(&sused, 1u);
				if (old == 0u || old == key)
					break;
				s = s + 1 == PVC_SLOTS ? 0 : s + 1;
			}
			atomicAdd(&scnt[s], 1u);
		}
		__syncthreads();

		/* reduce: flush the shared table to the global one when it
		 * holds more than `limit` keys or this CTA's records are done */
		bool last = eb + PVC_THREADS >= end;
		bool flush = sused > limit || last;
		__syncthreads(); /* every thread has read sused before it changes again */
		if (flush) {
			if (tid == 0)
				sused = 0;
			for (unsigned s = tid; s < PVC_SLOTS; s += PVC_THREADS) {
				unsigned key = skey[s];
				if (key == 0u)
					continue;
				unsigned g = key & gmask;
				for (;;) {
					unsigned old = atomicCAS(&gtab[g].x, 0u, key);
					if (old == 0u || old == key)
						break;
					g = (g + 1) & gmask;
				}
				atomicAdd(&gtab[g].y, scnt[s]);
				skey[s] = 0;
				scnt[s] = 0;
			}
			__syncthreads();
		}
		if (last)
			break;
	}
}
