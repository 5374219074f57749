/*
 * tsp -- the BOWS paper's TSP: independent hill climbers for the travelling
 * salesman problem that publish their result into one global best under a
 * single lock.
 *
 * Climber c (one thread) runs `restarts` climbs.  Each climb starts from a
 * random tour (Fisher-Yates shuffle with the climber's own xorshift32
 * stream) and tries `trials` random 2-opt moves (reverse tour[i+1..j]),
 * keeping a move when it shortens the tour.  Distances are integers
 * (dist[a * ncity + b]), so every climb is exact and the host replays it.
 * The climber's tour lives in tours[k * nclimbers + c] (coalesced).
 *
 * After each climb the climber enters the critical section under the
 * global lock: if its cost is below *best it stores the cost and copies
 * its tour to best_tour.  The lock is acquired and released in the same
 * iteration of the `while (!done)` retry loop, whose backward branch is
 * the spin-inducing branch (SIB); the loops over restarts, trials, the
 * shuffle, the reversal and the copies are not.
 */

__device__ __forceinline__ unsigned tsp_rand(unsigned *s)
{
	unsigned x = *s;
	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	*s = x;
	return x;
}

extern "C" __global__ void tsp(const int *dist, int ncity, int nclimbers, int restarts, int trials, unsigned seed,
			       int *tours, volatile int *best, volatile int *best_tour, int *lock)
{
	int c = blockIdx.x * blockDim.x + threadIdx.x;
	if (c >= nclimbers)
		return;
	unsigned s = seed ^ ((unsigned)c * 0x9E3779B9u);
	if (s == 0)
		s = 1;
	int *t = tours + c;
	for (int r = 0; r < restarts; r++) {
		for (int k = 0; k < ncity; k++)
			t[k * nclimbers] = k;
		for (int k = ncity - 1; k > 0; k--) {
			int j = (int)(tsp_rand(&s) % (unsigned)(k + 1));
			int tmp = t[k * nclimbers];
			t[k * nclimbers] = t[j * nclimbers];
			t[j * nclimbers] = tmp;
		}
		int cost = 0;
		for (int k = 0; k < ncity; k++)
			cost += dist[t[k * nclimbers] * ncity + t[((k + 1) % ncity) * nclimbers]];
		for (int q = 0; q < trials; q++) {
			int i = (int)(tsp_rand(&s) % (unsigned)(ncity - 1));
			int j = (int)(tsp_rand(&s) % (unsigned)(ncity - 1));
			if (i > j) {
				int tmp = i;
				i = j;
				j = tmp;
			}
			if (j - i < 2)
				continue;
			/* reverse tour[i+1..j]: edges (i,i+1) and (j,j+1) become (i,j) and (i+1,j+1) */
			int a = t[i * nclimbers], b = t[(i + 1) * nclimbers];
			int cc = t[j * nclimbers], d = t[((j + 1) % ncity) * nclimbers];
			int delta = dist[a * ncity + cc] + dist[b * ncity + d] - dist[a * ncity + b] - dist[cc * ncity + d];
			if (delta < 0) {
				cost += delta;
				for (int lo = i + 1, hi = j; lo < hi; lo++, hi--) {
					int tmp = t[lo * nclimbers];
					t[lo * nclimbers] = t[hi * nclimbers];
					t[hi * nclimbers] = tmp;
				}
			}
		}
		bool done = false;
		while (!done) {
			if (atomicCAS(lock, 0, 1) == 0) {
				__threadfence();
				if (cost < *best) {
					*best = cost;
					for (int k = 0; k < ncity; k++)
						best_tour[k] = t[k * nclimbers];
				}
				__threadfence();
				/* we hold the lock, so the release returns 1: deriving `done` from it keeps
				 * the release inside the loop.  With a constant `done = true`, nvcc (which
				 * assumes Volta's independent thread scheduling) sinks the release below
				 * the loop, and lanes that failed to acquire would spin forever under a
				 * SIMT stack while the holder waits for them at the loop exit. */
				done = atomicExch(lock, 0) == 1;
			}
		}
	}
}
