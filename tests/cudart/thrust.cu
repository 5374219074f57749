// thrust.cu -- a program written against Thrust (CUDA's C++ template library),
// whose kernels come from CUB: sequence, transform, inclusive scan and reduce
// on a device_vector, sort (CUB's radix sort: bmsk, vshr/vshl video
// instructions) and stable_sort with a comparator (CUB's merge sort, launched
// through cudaLaunchKernelExC with the programmatic-stream-serialization
// attribute).  Thrust queries kernel attributes and occupancy before it
// launches, like much real CUDA code.
#include <algorithm>
#include <cstdio>
#include <vector>
#include <thrust/device_vector.h>
#include <thrust/functional.h>
#include <thrust/host_vector.h>
#include <thrust/reduce.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>
#include <thrust/scan.h>
#include <thrust/transform.h>

struct scramble {
	__host__ __device__ int operator()(int x) const { return (x * 7919) % 1000; }
};
struct by_tens { /* a comparator under which the sort must keep the order of equal keys */
	__host__ __device__ bool operator()(int a, int b) const { return a / 10 < b / 10; }
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
	/* 5000 keys: several tiles, so the merge passes run too */
	const int m = 5000;
	thrust::device_vector<int> w(m);
	thrust::sequence(w.begin(), w.end());
	thrust::transform(w.begin(), w.end(), w.begin(), scramble());
	thrust::stable_sort(w.begin(), w.end(), by_tens());
	thrust::host_vector<int> hw = w;
	std::vector<int> want(m);
	for (int i = 0; i < m; i++)
		want[i] = scramble()(i);
	std::stable_sort(want.begin(), want.end(), by_tens()); /* keys equal by tens keep their input order */
	int stable = 1;
	for (int i = 0; i < m; i++)
		stable &= hw[i] == want[i];
	printf("thrust: sum %ld, scan %d %d, sort %s, stable_sort %s: %s\n", sum, mid, last, sorted ? "ok" : "wrong",
	       stable ? "ok" : "wrong",
	       sum == 499500 && mid == 500 && last == n && sorted && stable ? "PASSED" : "FAILED");
	return 0;
}
