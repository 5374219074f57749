/*
 * bits.h -- bit counting on masks (lanes, sectors), shared by the
 * functional model, the memory system and the SM.
 *
 * Models no hardware.  The build targets baseline x86-64, where
 * __builtin_popcountll is a call into libgcc; this branch-free SWAR count
 * is inlined instead.
 */
#ifndef WARPSIM_UTIL_BITS_H
#define WARPSIM_UTIL_BITS_H

#include <stdint.h>

static inline unsigned ws_popc64(uint64_t m)
{
	m = m - ((m >> 1) & 0x5555555555555555ull);
	m = (m & 0x3333333333333333ull) + ((m >> 2) & 0x3333333333333333ull);
	m = (m + (m >> 4)) & 0x0f0f0f0f0f0f0f0full;
	return (unsigned)((m * 0x0101010101010101ull) >> 56);
}

#endif
