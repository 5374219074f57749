/*
 * cp -- Coulombic potential on a 2-D lattice slice (the cuenergy kernel of
 * GPGPU-Sim's CP benchmark, written from scratch): every lattice point
 * (x, y) of one z-plane accumulates sum_j q_j / r_ij over all atoms j.
 *
 * Atoms live in __constant__ memory as float4 (x, y, dz^2, q) -- dz^2 is
 * the squared distance of the atom from the plane, precomputed by the host.
 * Every thread of a 16 x 8 CTA computes CP_UNROLLX = 8 points of one lattice
 * row, spaced CP_BLOCKX = 16 points apart, so a warp's stores stay
 * contiguous; each atom is read once (one broadcast constant load per warp)
 * and feeds the 8 points.  The host launches once per chunk of at most
 * CP_MAXATOMS atoms and the kernel adds its partial sums into the grid.
 *
 * Synchronization: none; no divergence (compute-bound, the paper's
 * "insensitive to warp size" example).
 */

#define CP_BLOCKX 16
#define CP_BLOCKY 8
#define CP_UNROLLX 8
#define CP_MAXATOMS 64

__constant__ float4 cp_atoms[CP_MAXATOMS];

extern "C" __global__ void cp(int natoms, float spacing, int width, float *grid)
{
	int x0 = blockIdx.x * (CP_BLOCKX * CP_UNROLLX) + threadIdx.x;
	int y = blockIdx.y * CP_BLOCKY + threadIdx.y;
	float cy = spacing * (float)y;
	float e[CP_UNROLLX];
	float cx[CP_UNROLLX];
#pragma unroll
	for (int u = 0; u < CP_UNROLLX; u++) {
		e[u] = 0.0f;
		cx[u] = spacing * (float)(x0 + u * CP_BLOCKX);
	}
	for (int j = 0; j < natoms; j++) {
		float4 a = cp_atoms[j];
		float dy = cy - a.y;
		float dyz2 = dy * dy + a.z;
#pragma unroll
		for (int u = 0; u < CP_UNROLLX; u++) {
			float dx = cx[u] - a.x;
			e[u] += a.w * rsqrtf(dx * dx + dyz2);
		}
	}
	float *row = grid + (size_t)y * width + x0;
#pragma unroll
	for (int u = 0; u < CP_UNROLLX; u++)
		row[u * CP_BLOCKX] += e[u];
}
