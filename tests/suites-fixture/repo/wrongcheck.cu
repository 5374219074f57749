// wrongcheck.cu -- a fixture "suite" program (tests/suites-fixture/test.sh) whose own
// check fails: it sums 0..n-1 with atomicAdd, compares with a wrong expectation
// (one too many) and prints "Result = FAIL", exiting 0 as many suite programs do.
#include <cstdio>
#include <cstdlib>

__global__ void sum(int *s, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		atomicAdd(s, i);
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 1000, h = 0, *d;
	cudaMalloc(&d, sizeof(int));
	cudaMemset(d, 0, sizeof(int));
	sum<<<(n + 127) / 128, 128>>>(d, n);
	cudaMemcpy(&h, d, sizeof(int), cudaMemcpyDeviceToHost);
	int want = n * (n - 1) / 2 + 1; /* deliberately wrong */
	printf("wrongcheck: sum %d, expected %d\nResult = %s\n", h, want, h == want ? "PASS" : "FAIL");
	return 0;
}
