/*
 * backprop -- one training step of a two-layer perceptron with n_in input
 * units (unit 0 is the constant bias input 1.0), BP_HIDDEN = 16 hidden
 * units and one output unit.  The two wide layers run on the GPU:
 *
 *   bp_forward: the input -> hidden layer.  w is n_in x 16 (row-major,
 *   w[i*16 + j] = weight from input i to hidden j).  CTA b (16 x 16 threads,
 *   8 warps) handles inputs 16b .. 16b+15: thread (tx=j, ty=i) forms the
 *   product w[16b+i][j] * x[16b+i] in shared memory, then the CTA reduces
 *   the 16 rows with a tree (8, 4, 2, 1 active rows, __syncthreads after
 *   each level) and row 0 writes partial[b*16 + j], the CTA's share of
 *   hidden unit j's net input.  The host adds the partial sums, applies the
 *   sigmoid, runs the small hidden -> output layer and computes the hidden
 *   deltas.
 *
 *   bp_adjust: weight update with momentum, one thread per weight:
 *       dw = eta * delta[j] * x[i] + momentum * oldw[i][j];
 *       w[i][j] += dw;  oldw[i][j] = dw;
 *
 * n_in must be a multiple of 16; both kernels use a grid of n_in/16 CTAs
 * of 16 x 16 threads.
 *
 * Synchronization: lightly synchronized -- bp_forward has 6 __syncthreads
 * per CTA (input staged, products stored, 4 reduction levels); bp_adjust
 * has none.
 */

#define BP_HIDDEN 16 /* hidden units == blockDim.x == blockDim.y */

extern "C" __global__ void bp_forward(const float *x, const float *w, float *partial)
{
	__shared__ float xs[BP_HIDDEN];
	__shared__ float prod[BP_HIDDEN][BP_HIDDEN];
	int j = threadIdx.x, r = threadIdx.y;
	int i = blockIdx.x * BP_HIDDEN + r;

	if (j == 0)
		xs[r] = x[i];
	__syncthreads();
	prod[r][j] = w[i * BP_HIDDEN + j] * xs[r];
	__syncthreads();
	for (int s = BP_HIDDEN / 2; s > 0; s >>= 1) {
		if (r < s)
			prod[r][j] += prod[r + s][j];
		__syncthreads();
	}
	if (r == 0)
		partial[blockIdx.x * BP_HIDDEN + j] = prod[0][j];
}

extern "C" __global__ void bp_adjust(const float *delta, const float *x, float *w, float *oldw, float eta,
                                     float momentum)
{
	int j = threadIdx.x;
	int k = (blockIdx.x * BP_HIDDEN + threadIdx.y) * BP_HIDDEN + j;
	float dw = eta * delta[j] * x[blockIdx.x * BP_HIDDEN + threadIdx.y] + momentum * oldw[k];
	w[k] += dw;
	oldw[k] = dw;
}
