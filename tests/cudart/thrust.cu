// thrust.cu -- a program written against Thrust (CUDA's C++ template library),
// whose kernels come from CUB: sequence, transform, inclusive scan and reduce
// on a device_vector, and sort (CUB's radix sort: bmsk, vshr/vshl video
// instructions).  Thrust queries kernel attributes and occupancy before it
// launches, like much real CUDA code.
#include <cstdio>
#include <thrust/device_vector.h>
#include <thrust/functional.h>
#include <thrust/reduce.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>
#include <thrust/scan.h>
#include <thrust/transform.h>

struct scramble {
	__host__ __device__ int operator()(int x) const { return (x * 7919) % 1000; }
};

int main()
{
	const int n = 1000;
	thrust::device_vector<int> v(n);
	thrust::sequence(v.begin(), v.end());
	thrust::transform(v.begin(), v.end(), v.begin(), scramble());
	long sum = thrust::reduce(v.begin(), v.end(), 0L, thrust::plus<long>());
	thrust::device_vector<int> ones(n, 1), prefix(n);
	thrust::inclusive_scan(ones.begin(), ones.end(), prefix.begin());
	int last = prefix[n - 1], mid = prefix[499];
	thrust::sort(v.begin(), v.end()); /* the scrambled values are a permutation of 0..n-1 */
	int sorted = 1;
	for (int i = 0; i < n; i += 97)
		sorted &= v[i] == i;
	sorted &= v[n - 1] == n - 1;
	printf("thrust: sum %ld, scan %d %d, sort %s: %s\n", sum, mid, last, sorted ? "ok" : "wrong",
	       sum == 499500 && mid == 500 && last == n && sorted ? "PASSED" : "FAILED");
	return 0;
}
