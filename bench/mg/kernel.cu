/*
 * mg -- MRI Cartesian gridding (after Parboil's mri-gridding): scatter
 * non-uniform k-space samples onto a Cartesian grid through a window,
 *     grid[c] = sum over samples s with |c - pos_s| < MG_W of
 *               w(|c - pos_s|^2) * value_s,
 *     w(r2) = (1 - r2 / MG_W^2)^2   (a smooth stand-in for the
 *                                    Kaiser-Bessel window),
 * for grid points c at integer coordinates; the grid is complex (float2).
 *
 * Input: binned[bin_start[t] .. bin_start[t + 1]) holds, as (x, y, re,
 * im), every sample whose window reaches output tile t: the host bins the
 * samples by tile (Parboil bins them too), so a sample near a tile edge is
 * copied into each tile it touches.  Positions are grid coordinates, x in
 * [0, tiles_x * MG_TILE).  Output: the grid in tile-major order: cell
 * (ox + cx, oy + cy) of tile t (origin (ox, oy)) is
 * grid[t * MG_TILE^2 + cy * MG_TILE + cx].
 *
 * Geometry follows the BAWS paper's MG: CTAs of 512 threads (16 warps),
 * one MG_TILE x MG_TILE tile of the grid per CTA, accumulated in shared
 * memory.  The CTA walks its bin in batches of MG_BATCH = 32 samples:
 *     threads 0..127 stage the batch (one float each) in shared memory;
 *     __syncthreads();
 *     16 threads per sample, one per cell of its 4 x 4 window (a sample
 *     reaches the cells within MG_W = 2 of it, columns and rows
 *     floor(pos) - 1 .. floor(pos) + 2): a thread whose cell is inside
 *     the tile and within reach adds the weighted value to it with
 *     shared-memory atomicAdd (re and im) -- which threads work depends
 *     on where the samples lie (window corners out of reach, cells
 *     outside the tile) and lanes hitting the same cell serialize;
 *     __syncthreads() (before the batch buffer is overwritten).
 * Finally the tile is written out.
 *
 * Shared memory: 32 x 32 float2 tile (8 KB) + 32 samples (512 B) =
 * 8.5 KB; at 512 threads per CTA three CTAs fit on an SM.
 *
 * Synchronization: two __syncthreads() per batch of 32 samples, shared-
 * memory float atomics.
 */

#define MG_THREADS 512 /* blockDim.x */
#define MG_TILE 32     /* grid cells per tile side */
#define MG_W 2.0f      /* window radius in grid cells ... */
#define MG_WIN 4       /* ... so a sample reaches at most 4 x 4 cells */
#define MG_BATCH (MG_THREADS / (MG_WIN * MG_WIN)) /* 32 samples per batch: a thread per window cell */

extern "C" __global__ void mg(const float4 *binned, const int *bin_start, int tiles_x, float2 *grid)
{
	__shared__ float2 acc[MG_TILE * MG_TILE];
	__shared__ float batch[4][MG_BATCH]; /* x, y, re, im of the batch's samples */
	unsigned tid = threadIdx.x;
	int ox = (blockIdx.x % tiles_x) * MG_TILE, oy = (blockIdx.x / tiles_x) * MG_TILE;

#pragma unroll 1
	for (int c = tid; c < MG_TILE * MG_TILE; c += MG_THREADS)
		acc[c] = make_float2(0.0f, 0.0f);

	/* this tile's samples: `left` floats (4 per sample) from bin */
	const float *bin = (const float *)(binned + bin_start[blockIdx.x]);
#pragma unroll 1
	for (int left = 4 * (bin_start[blockIdx.x + 1] - bin_start[blockIdx.x]); left > 0;
	     left -= 4 * MG_BATCH, bin += 4 * MG_BATCH) {
		/* stage the batch, one float per thread */
		if (tid < 4 * MG_BATCH && (int)tid < left)
			batch[tid % 4][tid / 4] = bin[tid];
		__syncthreads();

		/* thread: sample tid % MG_BATCH, window cell tid / MG_BATCH */
		int s = tid % MG_BATCH;
		if (4 * s < left) {
			float x = batch[0][s] - ox, y = batch[1][s] - oy; /* tile-local position */
			int cx = (int)floorf(x) - 1 + tid / MG_BATCH % MG_WIN;
			int cy = (int)floorf(y) - 1 + tid / (MG_BATCH * MG_WIN);
			float dx = cx - x, dy = cy - y;
			float r2 = dx * dx + dy * dy;
			if (cx >= 0 && cx < MG_TILE && cy >= 0 && cy < MG_TILE && r2 < MG_W * MG_W) {
				float w = 1.0f - r2 * (1.0f / (MG_W * MG_W));
				w *= w;
				atomicAdd(&acc[cy * MG_TILE + cx].x, w * batch[2][s]);
				atomicAdd(&acc[cy * MG_TILE + cx].y, w * batch[3][s]);
			}
		}
		__syncthreads();
	}

#pragma unroll 1
	for (int c = tid; c < MG_TILE * MG_TILE; c += MG_THREADS)
		grid[blockIdx.x * MG_TILE * MG_TILE + c] = acc[c];
}
