/*
 * zstd.h -- Zstandard decompression (RFC 8878) for the compressed PTX in
 * nvcc fat binaries (zstd.c).
 *
 * Models no hardware.
 */
#ifndef WARPSIM_CUDART_ZSTD_H
#define WARPSIM_CUDART_ZSTD_H

#include <stddef.h>
#include <stdint.h>

/* Decompress the zstd frame(s) src[0..n) into dst[0..cap).  Returns the
 * number of bytes written, or -1 with a message in err (malformed input,
 * output larger than cap, a dictionary). */
long zstd_decompress(const uint8_t *src, size_t n, uint8_t *dst, size_t cap, char *err, size_t errsz);

#endif
