/*
 * hashtable -- concurrent insertion into a chained hash table, each
 * insertion a critical section guarded by a spin lock.
 *
 * Thread i inserts key keys[i] into bucket hash(keys[i]) % nbuckets by
 * pushing node i on the front of that bucket's list:
 *     next[i] = heads[b];  heads[b] = i;  count[b] += 1;
 * heads[] must start at -1 and count[] at 0.  The list heads and the
 * per-bucket counts are updated with plain (non-atomic) loads and stores,
 * so a broken lock shows up as lost nodes or wrong counts.
 *
 * The lock protecting bucket b is locks[b % nlocks] (all 0 initially):
 * nlocks == 1 is a single global lock (every insertion in the grid is
 * serialized), nlocks == nbuckets is one lock per bucket.
 *
 * Synchronization: busy-wait spin lock written as in the BOWS paper's
 * Figure 1a (after CUDA by Example).  The release is inside the retry
 * loop, on the same path as the successful acquire, so the lock holder
 * reaches the release without waiting for the lanes of its warp that are
 * still spinning: the kernel completes under stack-based (immediate
 * post-dominator) SIMT reconvergence.  A naive
 *     while (atomicCAS(lock, 0, 1) != 0) ;  ...;  atomicExch(lock, 0);
 * would deadlock there (SIMT-induced deadlock).
 */

__device__ __forceinline__ unsigned hash_key(unsigned k)
{
	/* integer mix (multiply-xorshift) so that nearby keys spread out */
	k ^= k >> 16;
	k *= 0x7feb352du;
	k ^= k >> 15;
	return k;
}

extern "C" __global__ void hashtable(const unsigned *keys, int n, unsigned nbuckets, volatile int *heads,
				     int *next, volatile unsigned *count, int *locks, unsigned nlocks)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	unsigned b = hash_key(keys[i]) % nbuckets;
	int *lock = &locks[b % nlocks];

	bool done = false;
	while (!done) {
		if (atomicCAS(lock, 0, 1) == 0) { /* acquired */
			__threadfence();
			next[i] = heads[b];
			heads[b] = i;
			count[b] = count[b] + 1;
			done = true;
			__threadfence(); /* make the insertion visible before the release */
			atomicExch(lock, 0);
		}
		/* else: lock busy, retry */
	}
}
