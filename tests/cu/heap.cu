// heap.cu -- device-side malloc/free and C++ new/delete for warpsim's tests
// (issue 16).  Compiled into tests/ptx/func/heap.ptx by:
//   nvcc -arch=compute_75 -ptx -O3 heap.cu
#include <cstdlib>

// every thread builds a list of n nodes with new, sums it and deletes it;
// a malloc'ed array per thread holds the squares of 0..n-1
struct node {
	int v;
	node *next;
};

extern "C" __global__ void heap_lists(int *out, int n)
{
	int t = blockIdx.x * blockDim.x + threadIdx.x;
	node *head = nullptr;
	for (int i = 0; i < n; i++) {
		node *x = new node;
		x->v = t + i;
		x->next = head;
		head = x;
	}
	int *sq = (int *)malloc(n * sizeof(int));
	for (int i = 0; i < n; i++)
		sq[i] = i * i;
	int s = 0;
	while (head) {
		node *x = head;
		head = x->next;
		s += x->v + sq[x->v - t];
		delete x;
	}
	free(sq);
	out[t] = s;
}

// blocks that survive the launch: keep[t] = malloc(bytes), filled with t
extern "C" __global__ void heap_keep(int **keep, size_t bytes)
{
	int t = blockIdx.x * blockDim.x + threadIdx.x;
	int *p = (int *)malloc(bytes);
	if (p)
		for (size_t i = 0; i < bytes / sizeof(int); i++)
			p[i] = t;
	keep[t] = p;
}

// a later launch reads and frees them
extern "C" __global__ void heap_release(int **keep, int *sum, size_t bytes)
{
	int t = blockIdx.x * blockDim.x + threadIdx.x;
	int *p = keep[t];
	int s = -1;
	if (p) {
		s = 0;
		for (size_t i = 0; i < bytes / sizeof(int); i++)
			s += p[i];
		free(p);
	}
	sum[t] = s;
}

// free of a pointer that malloc did not return
extern "C" __global__ void heap_bad_free(int *p)
{
	free(p + 1);
}
