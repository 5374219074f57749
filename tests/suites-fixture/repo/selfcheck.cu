// selfcheck.cu -- a fixture "suite" program (tests/suites-fixture/test.sh) that checks
// its own result, like the public suites' programs: reads n from the input file named
// by its argument (made by gen_input.sh), fills and squares n ints in two launches,
// compares with the CPU and prints "Result = PASS" or "Result = FAIL".
#include <cstdio>
#include <cstdlib>

__global__ void fill(int *p, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		p[i] = i - n / 2;
}

__global__ void square(int *p, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		p[i] *= p[i];
}

int main(int argc, char **argv)
{
	FILE *f = argc > 1 ? fopen(argv[1], "r") : NULL;
	int n = 0;
	if (!f || fscanf(f, "%d", &n) != 1 || n <= 0) {
		fprintf(stderr, "selfcheck: cannot read a size from %s\n", argc > 1 ? argv[1] : "(no argument)");
		return 1;
	}
	fclose(f);
	int *d, *h = (int *)malloc(n * sizeof(int));
	cudaMalloc(&d, n * sizeof(int));
	fill<<<(n + 127) / 128, 128>>>(d, n);
	square<<<(n + 127) / 128, 128>>>(d, n);
	cudaMemcpy(h, d, n * sizeof(int), cudaMemcpyDeviceToHost);
	int bad = 0;
	for (int i = 0; i < n; i++)
		bad += h[i] != (i - n / 2) * (i - n / 2);
	printf("selfcheck: n=%d, %d wrong\nResult = %s\n", n, bad, bad ? "FAIL" : "PASS");
	return 0;
}
