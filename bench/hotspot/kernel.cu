/*
 * hotspot -- transient 2-D thermal simulation of a chip (explicit finite
 * differences on a rows x cols grid, row-major floats):
 *     T'(r,c) = T + sdc * ( P(r,c)
 *                         + (T(r-1,c) + T(r+1,c) - 2T) * ry
 *                         + (T(r,c-1) + T(r,c+1) - 2T) * rx
 *                         + (amb - T) * rz )
 * where a neighbour outside the grid is replaced by the cell itself (no
 * heat flows across the chip's edge).
 *
 * Geometry: CTAs of HS_BLOCK x HS_BLOCK = 16 x 16 = 256 threads (8 warps),
 * the usual CUDA tiling of this stencil.  One launch advances the whole
 * grid by HS_STEPS time steps using a "ghost zone": a CTA loads a 16 x 16
 * tile of temperatures and power that overlaps its neighbours by HS_STEPS
 * cells on every side into shared memory, then repeats HS_STEPS times
 *     compute the next temperature of every cell still valid (the valid
 *     region shrinks by one cell per side each step); __syncthreads();
 *     copy it back into the current tile;               __syncthreads();
 * (the copy and second barrier are skipped after the last step) and
 * writes the central (16 - 2*HS_STEPS)^2 cells it owns.  CTA (bx, by)
 * owns rows by*HS_OUT .. by*HS_OUT + HS_OUT - 1, columns likewise.
 *
 * Synchronization: lightly synchronized -- 2*HS_STEPS __syncthreads() per
 * launch, with threads of the shrinking border idle between barriers.
 */

#define HS_BLOCK 16                      /* blockDim.x == blockDim.y */
#define HS_STEPS 2                       /* time steps per launch (ghost-zone width) */
#define HS_OUT (HS_BLOCK - 2 * HS_STEPS) /* cells per side a CTA writes */

extern "C" __global__ void hotspot(const float *power, const float *t_in, float *t_out, int rows, int cols, float sdc,
                                   float rx, float ry, float rz, float amb)
{
	__shared__ float tcur[HS_BLOCK][HS_BLOCK];
	__shared__ float tnext[HS_BLOCK][HS_BLOCK];
	__shared__ float pw[HS_BLOCK][HS_BLOCK];
	int tx = threadIdx.x, ty = threadIdx.y;
	int r = blockIdx.y * HS_OUT - HS_STEPS + ty; /* grid cell of this thread */
	int c = blockIdx.x * HS_OUT - HS_STEPS + tx;
	bool in = r >= 0 && r < rows && c >= 0 && c < cols;

	if (in) {
		tcur[ty][tx] = t_in[r * cols + c];
		pw[ty][tx] = power[r * cols + c];
	}
	__syncthreads();

	/* neighbours inside the tile; at the grid's edge the cell itself */
	int yn = r == 0 ? ty : ty - 1;
	int ys = r == rows - 1 ? ty : ty + 1;
	int xw = c == 0 ? tx : tx - 1;
	int xe = c == cols - 1 ? tx : tx + 1;

#pragma unroll
	for (int s = 1; s <= HS_STEPS; s++) {
		/* cells whose whole neighbourhood was valid after step s-1 */
		bool compute = in && ty >= s && ty < HS_BLOCK - s && tx >= s && tx < HS_BLOCK - s;
		if (compute) {
			float t = tcur[ty][tx];
			tnext[ty][tx] = t + sdc * (pw[ty][tx] + (tcur[yn][tx] + tcur[ys][tx] - 2.0f * t) * ry +
			                           (tcur[ty][xw] + tcur[ty][xe] - 2.0f * t) * rx + (amb - t) * rz);
		}
		__syncthreads();
		if (s < HS_STEPS) {
			if (compute)
				tcur[ty][tx] = tnext[ty][tx];
			__syncthreads();
		}
	}

	if (in && ty >= HS_STEPS && ty < HS_BLOCK - HS_STEPS && tx >= HS_STEPS && tx < HS_BLOCK - HS_STEPS)
		t_out[r * cols + c] = tnext[ty][tx];
}
