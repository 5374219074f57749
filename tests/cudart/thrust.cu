// thrust.cu -- a program written against Thrust (CUDA's C++ template library),
// whose kernels come from CUB: sequence, transform, inclusive scan and reduce
// on a device_vector.  Thrust queries kernel attributes and occupancy before
// it launches, like much real CUDA code.  (thrust::sort is left out: CUB's
// radix sort uses the PTX instruction bmsk, which warpsim does not implement.)
#include <cstdio>
#include <thrust/device_vector.h>
#include <thrust/functional.h>
#include <thrust/reduce.h>
#include <thrust/sequence.h>
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
	printf("thrust: sum %ld, scan %d %d: %s\n", sum, mid, last,
	       sum == 499500 && mid == 500 && last == n ? "PASSED" : "FAILED");
	return 0;
}
