/*
 * stn -- iterative 2-D Jacobi stencil with a grid-wide barrier:
 *     for t in 0 .. iters-1:
 *         next[r][c] = 0.2 * (cur[r][c] + cur[r-1][c] + cur[r+1][c]
 *                             + cur[r][c-1] + cur[r][c+1])
 *     on the interior of an H x W grid (boundary rows and columns fixed),
 *     ping-ponging between two buffers.
 *
 * Geometry follows the BAWS paper's STN (a stencil with inter-block
 * barrier synchronization): CTAs of STN_THREADS = 512 threads (16 warps),
 * 2 CTAs per SM on the GTX480 configuration (the kernel's ~24 registers
 * per thread leave no room for a third CTA of 512 threads in 32768).
 * The code is our own.
 *
 * One launch runs all iterations.  CTA b owns `rows` interior rows
 * starting at row 1 + b * rows and walks them in chunks of 512 / W rows,
 * one point per thread: the chunk plus one halo row above and below is
 * copied into shared memory (__syncthreads), every thread updates its
 * point from the tile and writes it to the other buffer (__syncthreads
 * before the tile is reused).  Between iterations the whole grid meets at
 * a software global barrier: thread 0 of each CTA arrives with an
 * atomicAdd on a counter; the last to arrive resets the counter and bumps
 * a generation word, the others spin on a volatile load of the generation
 * word until it changes, while the rest of their CTA waits at
 * __syncthreads().  This only works if every CTA of the grid is resident
 * at once: the host launches at most 2 CTAs per SM, fewer if the
 * configuration fits fewer.
 *
 * Synchronization: barrier-intensive -- 2 __syncthreads() per chunk (one
 * point per thread between them), plus a global barrier (2 more
 * __syncthreads around one spinning thread) per iteration.
 */

#define STN_THREADS 512 /* must equal blockDim.x */
#define STN_WMAX 256    /* widest grid row, in floats (at least 2 rows per chunk) */
#define STN_TILE (STN_THREADS + 2 * STN_WMAX)
#define STN_SPIN_LIMIT 4096 /* polls of the generation word before the barrier gives up */

/* sync[0]: arrival counter; sync[32]: generation (its own 128-byte line);
 * sync[64]: set to 1 if a CTA gave up waiting (the host reports an error).
 * A CTA polls at most STN_SPIN_LIMIT times -- a hundred times more than a
 * paper-size run needs -- so that a grid whose CTAs are not all resident
 * (the barrier can never complete) ends with an error instead of
 * spinning forever. */
__device__ static void stn_grid_sync(unsigned *sync, unsigned nctas)
{
	__syncthreads();
	if (threadIdx.x == 0) {
		volatile unsigned *gen = sync + 32;
		unsigned g = *gen; /* cannot change before this CTA arrives */
		__threadfence();   /* this CTA's stores before its arrival */
		if (atomicAdd(sync, 1u) == nctas - 1) {
			atomicExch(sync, 0u);
			__threadfence();
			atomicAdd(sync + 32, 1u);
		} else {
			unsigned n = 0;
			#pragma unroll 1
			while (*gen == g)
				if (++n == STN_SPIN_LIMIT) { /* some CTA is not resident: give up, tell the host */
					atomicExch(sync + 64, 1u);
					break;
				}
		}
		__threadfence();
	}
	__syncthreads();
}

/* grid: two H x W buffers back to back (buffer 0 holds iteration 0);
 * W = 2^log2w, 64 <= W <= STN_WMAX; rows: interior rows per CTA, a
 * multiple of STN_THREADS / W. */
extern "C" __global__ void stn(float *grid, int log2w, int h, int rows, int iters, unsigned *sync)
{
	__shared__ float tile[STN_TILE]; /* a chunk plus a halo row above and below */
	int tid = threadIdx.x;
	int w = 1 << log2w, ch = STN_THREADS >> log2w; /* rows per chunk: one point per thread */
	int first = 1 + blockIdx.x * rows, last = min(first + rows, h - 1); /* own rows [first, last) */
	int c = tid & (w - 1);

	#pragma unroll 1
	for (int t = 0; t < iters; t++) {
		int src = (t & 1) ? h << log2w : 0, dst = (t & 1) ? 0 : h << log2w; /* buffer offsets */
		#pragma unroll 1
		for (int r0 = first; r0 < last; r0 += ch) {
			int top = src + ((r0 - 1) << log2w); /* first halo row */
			tile[tid] = grid[top + tid];
			if (tid < 2 * w)
				tile[tid + STN_THREADS] = grid[top + tid + STN_THREADS];
			__syncthreads();
			if (c > 0 && c < w - 1) {
				int m = tid + w; /* the thread's point in the tile */
				float v = tile[m] + tile[m - w];
				v = v + tile[m + w];
				v = v + tile[m - 1];
				v = v + tile[m + 1];
				grid[dst + (r0 << log2w) + tid] = 0.2f * v;
			}
			__syncthreads();
		}
		if (t + 1 < iters)
			stn_grid_sync(sync, gridDim.x);
	}
}
