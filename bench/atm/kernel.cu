/*
 * atm -- the BOWS paper's ATM: bank transfers between two accounts, each
 * transfer a critical section under the locks of both accounts (two nested
 * locks, after Fung et al.'s ATM benchmark).
 *
 * Thread t performs transactions x = t, t + nthreads, ... (< ntx):
 *     balance[from[x]] -= amount[x];  balance[to[x]] += amount[x];
 *     ops[from[x]] += 1;  ops[to[x]] += 1;
 * with plain loads and stores, so a broken lock loses updates.  The
 * transfer is unconditional, so the final balances do not depend on the
 * order of the transactions (the host checks them against a CPU sum).
 *
 * Synchronization: the two locks are taken in account order (lower index
 * first) inside one retry loop.  If the inner lock is busy the outer one is
 * released in the same iteration and the whole attempt is retried, so no
 * thread spins while holding a lock, and both releases sit inside the loop
 * (the kernel completes under stack-based SIMT reconvergence).  The
 * backward branch of `while (!done)` is the spin-inducing branch (SIB).
 */

extern "C" __global__ void atm(const int *from, const int *to, const int *amount, int ntx, volatile int *balance,
			       volatile unsigned *ops, int *locks)
{
	int nthreads = gridDim.x * blockDim.x;
	for (int x = blockIdx.x * blockDim.x + threadIdx.x; x < ntx; x += nthreads) {
		int a = from[x], b = to[x], amt = amount[x];
		int lo = min(a, b), hi = max(a, b);
		bool done = false;
		while (!done) {
			if (atomicCAS(&locks[lo], 0, 1) == 0) {
				if (atomicCAS(&locks[hi], 0, 1) == 0) {
					__threadfence();
					balance[a] = balance[a] - amt;
					balance[b] = balance[b] + amt;
					ops[a] = ops[a] + 1;
					ops[b] = ops[b] + 1;
					done = true;
					__threadfence();
					atomicExch(&locks[hi], 0);
				}
				atomicExch(&locks[lo], 0);
			}
		}
	}
}
