/*
 * fatbin.h -- reading the PTX out of an nvcc fat binary (the device code
 * that nvcc embeds in a host executable and registers with
 * __cudaRegisterFatBinary), and the register counts of its SASS.
 *
 * Models no hardware: this is the loader side of the CUDA runtime library
 * (src/cudart/).  The container format facts relied on are listed in
 * fatbin.c and in docs/cuda.md.
 */
#ifndef WARPSIM_CUDART_FATBIN_H
#define WARPSIM_CUDART_FATBIN_H

#include <stddef.h>
#include <stdint.h>

/* One PTX image of a fat binary, decompressed, NUL-terminated (malloc'd). */
struct fatbin_ptx {
	char *text;
	size_t len;
	unsigned arch;                 /* virtual architecture: 75 for compute_75 */
	unsigned isa_major, isa_minor; /* PTX ISA version of the image (9.0) */
	int unit;                      /* 0: the registered fat binary; i > 0: the i-th
	                                  translation unit of an -rdc=true program */
};

/* Every PTX image of the fat binary whose registration wrapper (the
 * argument of __cudaRegisterFatBinary) is `wrapper`, and of the translation
 * units it links (nvcc -rdc=true), ordered by unit, then by descending
 * architecture.  *sass_arch receives the highest SASS (ELF) architecture
 * seen (0 if none), for the "no PTX" error.  Returns 0 (with *out, *n; the
 * caller frees with fatbin_free) or -1 with a message in err. */
int fatbin_read_ptx(const void *wrapper, struct fatbin_ptx **out, int *n, unsigned *sass_arch, char *err, size_t errsz);
void fatbin_free(struct fatbin_ptx *p, int n);

/* Registers per thread of the kernels in the SASS of the registered fat
 * binary (its cubins of the lowest architecture there is, the closest to the
 * simulated GPUs), as "KERNEL REGISTERS" lines in *regs (malloc'd; NULL if
 * there is no SASS) and that architecture in *arch (0 if none).  Returns 0,
 * or -1 if the SASS could not be read (*regs NULL). */
int fatbin_read_regs(const void *wrapper, char **regs, unsigned *arch);

/* LZ4 block format (no frame): decompress src[0..n) into dst[0..cap).
 * Returns the number of bytes written, or -1 if the input is malformed or
 * does not fit. */
long fatbin_lz4_decompress(const uint8_t *src, size_t n, uint8_t *dst, size_t cap);

#endif
