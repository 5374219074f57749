/*
 * ht -- the BOWS paper's HT: a chained hash table filled by many threads,
 * each thread inserting several keys, every insertion a critical section
 * under the lock of its bucket (BOWS Fig. 1a, after CUDA by Example).
 *
 * Thread t inserts keys k = t, t + nthreads, ... (< n): node k is pushed on
 * the front of bucket b = hash(keys[k]) % nbuckets:
 *     next[k] = heads[b];  heads[b] = k;  count[b] += 1;
 * heads[] starts at -1, count[] and locks[] at 0.  The list heads and the
 * counts are plain loads and stores, so a broken lock shows up as lost
 * nodes or wrong counts.  Fewer buckets mean more contention (the paper's
 * Fig. 16 sweeps the bucket count).
 *
 * Synchronization: the lock is acquired (atomicCAS) and released
 * (atomicExch) inside the same iteration of the retry loop, so the holder
 * reaches the release without waiting for lanes of its warp that still
 * spin: the kernel completes under stack-based SIMT reconvergence.  The
 * backward branch of the `while (!done)` retry loop is the spin-inducing
 * branch (SIB); the backward branch of the outer `for` loop over keys is not.
 */

__device__ __forceinline__ unsigned ht_hash(unsigned k)
{
	k ^= k >> 16;
	k *= 0x7feb352du;
	k ^= k >> 15;
	return k;
}

extern "C" __global__ void ht(const unsigned *keys, int n, unsigned nbuckets, volatile int *heads, volatile int *next,
			      volatile unsigned *count, int *locks)
{
	int nthreads = gridDim.x * blockDim.x;
	for (int k = blockIdx.x * blockDim.x + threadIdx.x; k < n; k += nthreads) {
		unsigned b = ht_hash(keys[k]) % nbuckets;
		bool done = false;
		while (!done) {
			if (atomicCAS(&locks[b], 0, 1) == 0) { /* acquired */
				__threadfence();
				next[k] = heads[b];
				heads[b] = k;
				count[b] = count[b] + 1;
				done = true;
				__threadfence(); /* the insertion is visible before the release */
				atomicExch(&locks[b], 0);
			}
		}
	}
}
