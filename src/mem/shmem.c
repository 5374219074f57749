/*
 * shmem.c -- shared-memory bank-conflict degree (see shmem.h).
 *
 * The common conflict-free case is recognised in one pass over the lanes
 * (each lane within one bank word, all words within a window of fewer than
 * nbanks words).  Otherwise, for each group of lanes, every distinct word
 * accessed is chained into a per-bank list (stack arrays, no allocation);
 * a bank's conflict degree is the length of its list, the group's cost the
 * largest degree.  For atomics the same word is chained once per lane.
 */
#include "mem/shmem.h"

#include <stdbool.h>

#define MAX_WORDS_PER_LANE 17 /* 16 bytes, 1-byte banks, misaligned */

/* Passes of a warp access.  rmw: read-modify-write (atomics), where lanes
 * on the same word do not share a pass, so every lane's word is chained
 * even when it repeats. */
static unsigned shmem_passes(const uint64_t *addr, uint64_t active, unsigned nlanes, unsigned size, unsigned nbanks,
			     unsigned bank_bytes, bool rmw)
{
	if (!addr)
		return 0;
	if (nlanes > 64)
		nlanes = 64;
	if (nlanes < 64)
		active &= (1ull << nlanes) - 1;
	if (!active)
		return 0;
	if (size < 1)
		size = 1;
	if (size > 16)
		size = 16;
	if (nbanks < 1)
		nbanks = 1;
	if (nbanks > SHMEM_MAX_BANKS)
		nbanks = SHMEM_MAX_BANKS;
	if (bank_bytes < 1)
		bank_bytes = 1;
	if (bank_bytes > 16)
		bank_bytes = 16;
	unsigned group = nlanes;
	if (size > bank_bytes) {
		group = nbanks * bank_bytes / size;
		if (group < 1)
			group = 1;
	}
	/* Fast path, the common case (power-of-two banks and bank width): one
	 * group, each lane's access within one bank word, and every bank holding at most one distinct word (lanes on
	 * the same word share it) -- one pass.  Anything else takes the general
	 * walk below. */
	if (!rmw && group >= nlanes && nbanks <= 64 && !(nbanks & (nbanks - 1)) && !(bank_bytes & (bank_bytes - 1))) {
		unsigned shift = (unsigned)__builtin_ctz(bank_bytes), bmask = nbanks - 1;
		/* Cheapest test first, one straight loop: every lane's bytes in one
		 * bank word (a and its last byte a + size - 1 in the same word; a
		 * wrap fails this too) and all the words within a window of fewer
		 * than nbanks consecutive words, where distinct words are in
		 * distinct banks. */
		uint64_t lo = UINT64_MAX, hi = 0, split = 0;
		if (active == (nlanes >= 64 ? ~0ull : (1ull << nlanes) - 1)) {
			for (unsigned l = 0; l < nlanes; l++) {
				uint64_t a = addr[l];
				split |= a ^ (a + size - 1);
				lo = a < lo ? a : lo;
				hi = a > hi ? a : hi;
			}
		} else {
			for (uint64_t m = active; m; m &= m - 1) {
				uint64_t a = addr[__builtin_ctzll(m)];
				split |= a ^ (a + size - 1);
				lo = a < lo ? a : lo;
				hi = a > hi ? a : hi;
			}
		}
		if (!(split >> shift) && (hi >> shift) - (lo >> shift) < nbanks)
			return 1;
		uint64_t used = 0, word_of[64];
		bool simple = true;
		for (uint64_t m = active; m && simple; m &= m - 1) {
			uint64_t a = addr[__builtin_ctzll(m)];
			uint64_t w0 = a >> shift;
			unsigned b = (unsigned)w0 & bmask;
			if ((a + size - 1) >> shift != w0 || a + size - 1 < a || ((used >> b & 1) && word_of[b] != w0)) {
				simple = false;
			} else {
				used |= 1ull << b;
				word_of[b] = w0;
			}
		}
		if (simple)
			return 1;
	}
	uint64_t W[64 * MAX_WORDS_PER_LANE];
	int16_t N[64 * MAX_WORDS_PER_LANE];
	int16_t head[SHMEM_MAX_BANKS];
	unsigned cnt[SHMEM_MAX_BANKS];
	const unsigned maxw = 64 * MAX_WORDS_PER_LANE;
	unsigned total = 0;
	for (unsigned g0 = 0; g0 < nlanes; g0 += group) {
		unsigned g1 = g0 + group < nlanes ? g0 + group : nlanes;
		uint64_t gmask = (g1 - g0 >= 64 ? ~0ull : ((1ull << (g1 - g0)) - 1)) << g0;
		uint64_t lanes = active & gmask;
		if (!lanes)
			continue;
		for (unsigned b = 0; b < nbanks; b++) {
			head[b] = -1;
			cnt[b] = 0;
		}
		unsigned nw = 0, deg = 0;
		while (lanes) {
			unsigned lane = (unsigned)__builtin_ctzll(lanes);
			lanes &= lanes - 1;
			uint64_t w0 = addr[lane] / bank_bytes;
			uint64_t w1 = (addr[lane] + size - 1) / bank_bytes;
			if (w1 < w0)
				w1 = w0;
			for (uint64_t w = w0; w <= w1; w++) {
				unsigned b = (unsigned)(w % nbanks);
				int16_t i = head[b];
				while (!rmw && i >= 0 && W[i] != w)
					i = N[i];
				if ((!rmw && i >= 0) || nw >= maxw)
					continue;
				W[nw] = w;
				N[nw] = head[b];
				head[b] = (int16_t)nw++;
				if (++cnt[b] > deg)
					deg = cnt[b];
			}
		}
		total += deg;
	}
	return total;
}

unsigned shmem_cycles(const uint64_t *addr, uint64_t active, unsigned nlanes, unsigned size, unsigned nbanks,
		      unsigned bank_bytes)
{
	return shmem_passes(addr, active, nlanes, size, nbanks, bank_bytes, false);
}

unsigned shmem_atomic_passes(const uint64_t *addr, uint64_t active, unsigned nlanes, unsigned size, unsigned nbanks,
			     unsigned bank_bytes)
{
	return shmem_passes(addr, active, nlanes, size, nbanks, bank_bytes, true);
}
