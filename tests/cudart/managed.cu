// managed.cu -- cudaMallocManaged memory that the host reads and writes directly
// around kernel launches, __managed__ variables (with an initializer, written by
// the host, by kernels and by cudaMemcpyToSymbol), and pinned host memory from
// cudaMallocHost.
#include <cstdio>

__managed__ int hits = 100;
__managed__ float weights[4];

__global__ void count(int n)
{
	atomicAdd(&hits, n);
	if (threadIdx.x < 4)
		weights[threadIdx.x] *= 2;
}

struct node {
	int value;
	node *next; // a pointer inside managed memory, followed on the device
};

__global__ void bump(int *x, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		x[i] += 10 * i;
}
__global__ void walk(node *head, int *sum)
{
	int s = 0;
	for (node *p = head; p; p = p->next)
		s += p->value;
	*sum = s;
}

#define CHECK(x)                                                                                   \
	do {                                                                                       \
		cudaError_t e_ = (x);                                                              \
		if (e_ != cudaSuccess) {                                                           \
			printf("%s failed: %s (%s)\n", #x, cudaGetErrorString(e_), cudaGetErrorName(e_)); \
			return 1;                                                                  \
		}                                                                                  \
	} while (0)

int main()
{
	const int n = 300;
	int *x;
	CHECK(cudaMallocManaged(&x, n * sizeof(int)));
	for (int i = 0; i < n; i++)
		x[i] = i;
	bump<<<3, 128>>>(x, n);
	CHECK(cudaDeviceSynchronize());
	for (int i = 0; i < n; i++)
		if (x[i] != 11 * i) {
			printf("managed: FAILED at %d: %d\n", i, x[i]);
			return 1;
		}
	node *list;
	int *sum;
	CHECK(cudaMallocManaged(&list, 4 * sizeof(node)));
	CHECK(cudaMallocManaged(&sum, sizeof(int)));
	for (int i = 0; i < 4; i++) {
		list[i].value = i + 1;
		list[i].next = i < 3 ? &list[i + 1] : 0;
	}
	walk<<<1, 1>>>(list, sum);
	CHECK(cudaDeviceSynchronize());
	int *pinned;
	CHECK(cudaMallocHost(&pinned, n * sizeof(int)));
	CHECK(cudaMemcpy(pinned, x, n * sizeof(int), cudaMemcpyDefault));
	printf("managed: list sum %d, pinned[7] %d\n", *sum, pinned[7]);
	if (*sum != 10 || pinned[7] != 77)
		return 1;
	weights[0] = 1.5f;
	weights[3] = 4;
	count<<<1, 32>>>(1);
	CHECK(cudaDeviceSynchronize());
	int seven = 7;
	CHECK(cudaMemcpyToSymbol(weights, &seven, sizeof seven, sizeof(float))); /* weights[1] = bits of 7 */
	int back;
	CHECK(cudaMemcpyFromSymbol(&back, weights, sizeof back, sizeof(float)));
	printf("managed: __managed__ hits %d, weights %g %g, symbol copy %d\n", hits, weights[0], weights[3], back);
	if (hits != 132 || weights[0] != 3 || weights[3] != 8 || back != 7)
		return 1;
	CHECK(cudaFreeHost(pinned));
	CHECK(cudaFree(x));
	CHECK(cudaFree(list));
	CHECK(cudaFree(sum));
	printf("managed: PASSED\n");
	return 0;
}
