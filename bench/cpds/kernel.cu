/*
 * cpds -- the BOWS paper's CP-DS: the distance-constraint solver of a cloth
 * simulation (particles on a W x H grid joined by structural and shear
 * constraints), with the two particles of each constraint updated under
 * two nested locks.
 *
 * Thread t handles constraints x = t, t + nthreads, ... (< nc) between
 * particles i = ci[x] and j = cj[x] with rest length rest[x].  From the
 * positions p (read-only, structure of arrays px/py/pz) it computes the
 * Jacobi correction s * d, d = p[j] - p[i], s = 0.5 (|d| - rest) / |d|,
 * and, holding both particles' locks, adds it to particle i's displacement
 * and subtracts it from j's (plain loads and stores), and counts one
 * update on each particle.  The counts are exact and the displacements
 * order-independent up to float rounding, so the host checks both.
 *
 * Synchronization: locks taken in particle order inside one retry loop;
 * if the inner lock is busy the outer one is released in the same
 * iteration, so nobody spins holding a lock and both releases sit inside
 * the loop (completes under stack-based SIMT reconvergence).  The backward
 * branch of `while (!done)` is the spin-inducing branch (SIB).
 */

extern "C" __global__ void cpds(const float *px, const float *py, const float *pz, const int *ci, const int *cj,
				const float *rest, int nc, volatile float *dx, volatile float *dy, volatile float *dz,
				volatile unsigned *cnt, int *locks)
{
	int nthreads = gridDim.x * blockDim.x;
	for (int x = blockIdx.x * blockDim.x + threadIdx.x; x < nc; x += nthreads) {
		int i = ci[x], j = cj[x];
		float ex = px[j] - px[i], ey = py[j] - py[i], ez = pz[j] - pz[i];
		float len = sqrtf(ex * ex + ey * ey + ez * ez);
		float s = 0.5f * (len - rest[x]) / len;
		float cx = s * ex, cy = s * ey, cz = s * ez;
		int lo = min(i, j), hi = max(i, j);
		bool done = false;
		while (!done) {
			if (atomicCAS(&locks[lo], 0, 1) == 0) {
				if (atomicCAS(&locks[hi], 0, 1) == 0) {
					__threadfence();
					dx[i] = dx[i] + cx;
					dy[i] = dy[i] + cy;
					dz[i] = dz[i] + cz;
					dx[j] = dx[j] - cx;
					dy[j] = dy[j] - cy;
					dz[j] = dz[j] - cz;
					cnt[i] = cnt[i] + 1;
					cnt[j] = cnt[j] + 1;
					done = true;
					__threadfence();
					atomicExch(&locks[hi], 0);
				}
				atomicExch(&locks[lo], 0);
			}
		}
	}
}
