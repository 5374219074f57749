/*
 * hash.h -- the 64-bit FNV-1a hash of a byte string.
 *
 * Models no hardware.  Used where a content hash names something stored
 * outside the process: the PTX a register-count file was made from
 * (src/ptx/regs.c, bench/<b>/kernel.regs, the ptxas cache) and the build
 * tool that writes those files' headers (tools/embed.c), and the
 * configuration hash (src/config/config.c).
 */
#ifndef WARPSIM_UTIL_HASH_H
#define WARPSIM_UTIL_HASH_H

#include <stddef.h>
#include <stdint.h>

#define HASH_FNV1A64_INIT 14695981039346656037ull

/* h continued over n more bytes (start from HASH_FNV1A64_INIT) */
static inline uint64_t hash_fnv1a64_add(uint64_t h, const void *data, size_t n)
{
	const unsigned char *p = data;
	for (size_t i = 0; i < n; i++) {
		h ^= p[i];
		h *= 1099511628211ull;
	}
	return h;
}

static inline uint64_t hash_fnv1a64(const void *data, size_t n) { return hash_fnv1a64_add(HASH_FNV1A64_INIT, data, n); }

#endif
