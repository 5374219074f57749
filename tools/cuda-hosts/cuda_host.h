/*
 * cuda_host.h -- what a CUDA host program of `make cuda-hosts` is made of
 * (docs/cuda.md, "The bundled benchmarks as CUDA programs").
 *
 * build/cuda-hosts/NAME links three parts:
 *  - bench/NAME/host.c and bench/bench_common.c, unmodified: the same object
 *    files `warpsim run` links (same input generator and seed, sizes, grid,
 *    block, dynamic shared memory and CPU check);
 *  - shim.c: the subset of include/warpsim.h that they call, implemented on
 *    the CUDA runtime API, and main();
 *  - build/cuda-hosts/gen/NAME.cu, written by gen.sh: bench/NAME/kernel.cu
 *    and the tables below, whose names gen.sh takes from the .entry kernels
 *    and the module-scope .const/.global variables of the committed
 *    bench/NAME/kernel.ptx, plus ws_bench_table holding bench_NAME;
 *  - build/cuda-hosts/gen/configs.c, also written by gen.sh: the config-query
 *    table, every parameter of every configs/NAME.cfg as `warpsim config`
 *    prints it.
 */
#ifndef WARPSIM_CUDA_HOST_H
#define WARPSIM_CUDA_HOST_H

#ifdef __cplusplus
extern "C" {
#endif

#include "bench.h"

/* A kernel: its .entry name and its host stub (the address cudaLaunchKernel takes). */
struct ws_function {
	const char *name;
	const void *stub;
};

/* A module-scope __constant__ or __device__ variable: its name and its host
 * shadow (the address cudaMemcpyToSymbol takes). */
struct cuhost_variable {
	const char *name;
	const void *shadow;
};

/* A configuration the program can answer wsConfigGet for: configs/NAME.cfg,
 * its effective parameters as "key = value" lines. */
struct cuhost_config {
	const char *name;
	const char *params;
};

/* gen/NAME.cu: terminated by a {NULL, NULL} entry */
extern struct ws_function cuhost_kernels[];
extern const struct cuhost_variable cuhost_variables[];
/* gen/configs.c: terminated by a {NULL, NULL} entry */
extern const struct cuhost_config cuhost_configs[];

#ifdef __cplusplus
}
#endif

#endif
