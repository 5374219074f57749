/*
 * nw -- Needleman-Wunsch global sequence alignment: the score matrix of two
 * sequences of length n (n a multiple of NW_TILE), (n+1) x (n+1) ints,
 * row-major, row 0 and column 0 already holding the gap penalties:
 *     score[i][j] = max(score[i-1][j-1] + ref[i-1][j-1],
 *                       score[i-1][j] - penalty,
 *                       score[i][j-1] - penalty)       1 <= i, j <= n
 * where ref[a][b] (n x n) is the substitution score of residue a of the
 * first sequence against residue b of the second.
 *
 * The interior is cut into NW_TILE x NW_TILE tiles; tile (bi, bj) needs
 * the tiles above and to the left, so the host launches one kernel per
 * anti-diagonal of tiles (bi + bj = diag), one CTA per tile.  A CTA has
 * NW_TILE = 16 threads (one half-populated warp), as in the usual CUDA
 * implementation: it loads the tile's top and left borders and its ref
 * block into shared memory, __syncthreads(), then sweeps the tile's
 * 2*NW_TILE-1 inner anti-diagonals -- thread t computes row t's cell on
 * the diagonal when there is one -- with a __syncthreads() after each, and
 * finally writes the tile back row by row.
 *
 * Synchronization: 2*NW_TILE __syncthreads() per CTA, with 1..16 of the 16
 * threads active between them.
 */

#define NW_TILE 16 /* blockDim.x; tile side */

extern "C" __global__ void nw(int *score, const int *ref, int n, int diag, int penalty)
{
	__shared__ int s[NW_TILE + 1][NW_TILE + 1];
	__shared__ int r[NW_TILE][NW_TILE];
	int tx = threadIdx.x;
	int tiles = n / NW_TILE;
	int bi = (diag < tiles ? 0 : diag - tiles + 1) + blockIdx.x; /* tile row */
	int bj = diag - bi;                                          /* tile column */
	int w = n + 1;
	int row0 = bi * NW_TILE, col0 = bj * NW_TILE; /* score[row0][col0]: the tile's top-left border corner */

	/* issue every global load before the first shared store, so that the
	 * loads overlap (one warp per CTA has nothing else to hide them with) */
	int corner = tx == 0 ? score[row0 * w + col0] : 0;
	int top = score[row0 * w + col0 + 1 + tx];
	int left = score[(row0 + 1 + tx) * w + col0];
	int rv[NW_TILE];
#pragma unroll
	for (int i = 0; i < NW_TILE; i++)
		rv[i] = ref[(row0 + i) * n + col0 + tx];
	if (tx == 0)
		s[0][0] = corner;
	s[0][tx + 1] = top;
	s[tx + 1][0] = left;
#pragma unroll
	for (int i = 0; i < NW_TILE; i++)
		r[i][tx] = rv[i];
	__syncthreads();

	for (int m = 0; m < 2 * NW_TILE - 1; m++) {
		int j = m - tx; /* this thread's cell on inner diagonal m: s[tx+1][j+1] */
		if (j >= 0 && j < NW_TILE) {
			int a = s[tx][j] + r[tx][j];
			int b = s[tx][j + 1] - penalty;
			int c = s[tx + 1][j] - penalty;
			s[tx + 1][j + 1] = max(a, max(b, c));
		}
		__syncthreads();
	}

	for (int i = 0; i < NW_TILE; i++)
		score[(row0 + 1 + i) * w + col0 + 1 + tx] = s[i + 1][tx + 1];
}
