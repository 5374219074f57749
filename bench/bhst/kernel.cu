/*
 * bhst -- Barnes-Hut sort (the BOWS paper's BH-ST, after Burtscher and
 * Pingali's CUDA BarnesHut sort kernel): bodies are written out in the
 * order of an in-order walk of the quadtree, so bodies close in space are
 * close in the output.  Wait-and-signal synchronization.
 *
 * Input (built by the host): child[c*4 + q] (-1 empty, body b < n, or cell
 * n + c'), cells numbered so that every cell's index is below its parent's
 * (the root is ncells - 1), and count[c], the number of bodies under cell
 * c.  start[c] is the first output position of cell c's bodies: the host
 * sets the root's to 0 and every other to -1.
 *
 * Thread t processes cells k = ncells-1-t, then k - nthreads, ... (from the
 * root downwards).  It waits until start[k] has been set by the thread that
 * processed k's parent (wait), then hands each child cell its start
 * (signal: start[child] = s) and writes each child body to sorted[s],
 * advancing s by the child's count.  Threads that find start[k] unset
 * simply try again in the next iteration of the same loop; its backward
 * branch is the spin-inducing branch (SIB, a wait-exit attempt per
 * iteration).  All threads must be resident at once (the host sizes the
 * grid), since a parent may belong to any thread.
 */

extern "C" __global__ void bhst(const int *child, const int *count, int n, int ncells, volatile int *start,
				int *sorted)
{
	int dec = gridDim.x * blockDim.x;
	int k = ncells - 1 - (int)(blockIdx.x * blockDim.x + threadIdx.x);
	while (k >= 0) {
		int s = start[k];
		if (s >= 0) {
			for (int q = 0; q < 4; q++) {
				int ch = child[k * 4 + q];
				if (ch >= n) {
					start[ch - n] = s;
					s += count[ch - n];
				} else if (ch >= 0) {
					sorted[s++] = ch;
				}
			}
			k -= dec;
		}
	}
}
