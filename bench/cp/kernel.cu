/*
 * cp -- Coulombic potential on a 2-D lattice slice (the cenergy kernel of
 * GPGPU-Sim's ISPASS-2009 CP benchmark, its cuda_short build, written from
 * scratch): every lattice point (x, y) of one z-plane accumulates
 * sum_j q_j / r_ij over all atoms j.
 *
 * Atoms live in __constant__ memory as float4 (x, y, dz^2, q) -- dz^2 is
 * the squared distance of the atom from the plane, precomputed by the host.
 * Every thread of a 16 x 8 CTA computes CP_UNROLLX = 2 points of one lattice
 * row, CP_BLOCKX = 16 points apart, so a warp's loads and stores stay
 * contiguous; each atom is read once (one broadcast constant load per warp)
 * and feeds both points, through 1 / sqrtf as the original (not rsqrtf).
 * The host launches once per chunk of at most CP_MAXATOMS atoms (the
 * original's constant buffer; every bundled size fits one launch) and the
 * kernel adds its sums into the grid: 2 global loads and 2 stores, the
 * original's 4 global memory instructions.
 *
 * Synchronization: none; no divergence (compute-bound, the paper's
 * "insensitive to warp size" example).
 */

#define CP_BLOCKX 16
#define CP_BLOCKY 8
#define CP_UNROLLX 2
#define CP_MAXATOMS 4000

__constant__ float4 cp_atoms[CP_MAXATOMS];

extern "C" __global__ void cp(int natoms, float spacing, int width, float *grid)
{
	int x0 = blockIdx.x * (CP_BLOCKX * CP_UNROLLX) + threadIdx.x;
	int y = blockIdx.y * CP_BLOCKY + threadIdx.y;
	float cy = spacing * (float)y;
	float cx = spacing * (float)x0;
	float step = spacing * (float)CP_BLOCKX;
	float e0 = 0.0f, e1 = 0.0f;
	for (int j = 0; j < natoms; j++) {
		float4 a = cp_atoms[j];
		float dy = cy - a.y;
		float dyz2 = dy * dy + a.z;
		float dx0 = cx - a.x;
		float dx1 = dx0 + step;
		e0 += a.w * (1.0f / sqrtf(dx0 * dx0 + dyz2));
		e1 += a.w * (1.0f / sqrtf(dx1 * dx1 + dyz2));
	}
	float *row = grid + (size_t)y * width + x0;
	row[0] += e0;
	row[CP_BLOCKX] += e1;
}
