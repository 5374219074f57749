/*
 * nn_dist.h -- host side shared by nn and nnc, the two forms of the
 * nearest-neighbour search (bench/README.md): the CPU's distance of a record
 * to the query, evaluated with the same float operations as both kernels,
 * and a float's bits, so the kernels' distances are checked bit for bit.
 */
#ifndef WARPSIM_BENCH_NN_DIST_H
#define WARPSIM_BENCH_NN_DIST_H
#include <math.h>
#include <stdint.h>
#include <string.h>

/* Same float operations as the kernels, one per statement (no contraction). */
static inline float nn_distance(float lat, float lng, float qlat, float qlng)
{
	float dlat = lat - qlat;
	float dlng = lng - qlng;
	float sq_lat = dlat * dlat;
	float sq_lng = dlng * dlng;
	float sum = sq_lat + sq_lng;
	return sqrtf(sum);
}

static inline uint32_t nn_bits(float f)
{
	uint32_t u;
	memcpy(&u, &f, sizeof u);
	return u;
}

#endif
