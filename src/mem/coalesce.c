/*
 * coalesce.c -- Fermi (CC 2.x) global-memory coalescer (see coalesce.h).
 *
 * One pass over the active lanes; each lane's byte range is split at line
 * boundaries and merged into the transaction of its line (for atomics: the
 * first transaction of its line whose bytes it does not overlap).  The
 * search checks the previous lane's transaction first (for loads and
 * stores without a call: that transaction is kept in locals while lanes
 * stay in its line), so the common fully coalesced case is O(lanes).
 */
#include "mem/coalesce.h"

#include <stdbool.h>
#include "mem/mem.h"

/* Set bits lo..hi (inclusive, 0..127) of a 128-bit mask. */
static inline void range_mask(unsigned lo, unsigned hi, uint64_t m[2])
{
	m[0] = m[1] = 0;
	for (unsigned w = 0; w < 2; w++) {
		unsigned wlo = w * 64, whi = wlo + 63;
		if (hi < wlo || lo > whi)
			continue;
		unsigned a = lo > wlo ? lo - wlo : 0, b = hi < whi ? hi - wlo : 63;
		uint64_t bits = (b - a == 63) ? ~0ull : (((1ull << (b - a + 1)) - 1) << a);
		m[w] = bits;
	}
}

/* Bits lo..hi (inclusive, hi - lo <= 63) of one 64-bit word. */
static inline uint64_t span64(unsigned lo, unsigned hi) { return ((2ull << (hi - lo)) - 1) << lo; }

static inline unsigned sector_range(unsigned lo, unsigned hi)
{
	unsigned s0 = lo / MEM_SECTOR_BYTES, s1 = hi / MEM_SECTOR_BYTES;
	return ((1u << (s1 + 1)) - 1) & ~((1u << s0) - 1);
}

/* A transaction's lanes and bytes held in locals by coal_warp, stored back;
 * the 32-byte sectors its bytes touch are exactly the sectors of the parts
 * merged into it. */
_Static_assert(MEM_SECTOR_BYTES == 32 && MEM_MAX_LINE_BYTES == 128, "write_back: four 32-byte sectors in 128 bits");
static inline void write_back(struct coal_txn *t, uint64_t lanes, uint64_t b0, uint64_t b1)
{
	t->lanes = lanes;
	t->byte_mask[0] = b0;
	t->byte_mask[1] = b1;
	t->sectors |= (uint32_t)((uint32_t)b0 != 0) | (uint32_t)((b0 >> 32) != 0) << 1 |
		      (uint32_t)((uint32_t)b1 != 0) << 2 | (uint32_t)((b1 >> 32) != 0) << 3;
}

/* Merge lane `lane`'s bytes [lo, hi] of `line` into the transactions. */
static unsigned add_part(struct coal_txn *out, unsigned n, unsigned *hint, uint64_t line, unsigned lo, unsigned hi,
			 unsigned lane, int atomic)
{
	uint64_t m[2];
	range_mask(lo, hi, m);
	unsigned found = n;
	if (!atomic) {
		if (*hint < n && out[*hint].line == line)
			found = *hint;
		else
			for (unsigned i = 0; i < n; i++)
				if (out[i].line == line) {
					found = i;
					break;
				}
	} else {
		for (unsigned i = 0; i < n; i++)
			if (out[i].line == line && !(out[i].byte_mask[0] & m[0]) && !(out[i].byte_mask[1] & m[1])) {
				found = i;
				break;
			}
	}
	if (found == n) {
		if (n >= COAL_MAX_TXNS)
			return n; /* cannot happen: each lane adds at most two */
		struct coal_txn *t = &out[n++];
		t->line = line;
		t->lanes = 0;
		t->byte_mask[0] = t->byte_mask[1] = 0;
		t->sectors = 0;
		t->bytes = 0;
	}
	struct coal_txn *t = &out[found];
	t->lanes |= 1ull << lane;
	t->byte_mask[0] |= m[0];
	t->byte_mask[1] |= m[1];
	t->sectors |= sector_range(lo, hi);
	*hint = found;
	return n;
}

unsigned coal_warp(const uint64_t *addr, uint64_t active, unsigned nlanes, unsigned size, enum coal_kind kind,
		   unsigned line_bytes, struct coal_txn *out)
{
	if (!addr || !out || size < 1 || size > 32 || line_bytes < 32 || line_bytes > MEM_MAX_LINE_BYTES ||
	    (line_bytes & (line_bytes - 1)))
		return 0;
	if (nlanes > 64)
		nlanes = 64;
	if (nlanes < 64)
		active &= (1ull << nlanes) - 1;
	int atomic = kind == COAL_ATOMIC;
	uint64_t lmask = ~(uint64_t)(line_bytes - 1);
	unsigned n = 0, hint = 0;
	/* Loads and stores: while lanes stay in the line of the previous lane's
	 * transaction out[hint] (what add_part would find first), it is kept
	 * in locals (held) and each lane only ORs its bit and bytes into them;
	 * it is written back, its sectors derived from its bytes, before the
	 * general search runs and at the end. */
	bool held = false;
	uint64_t h_line = 0, h_lanes = 0, h_b0 = 0, h_b1 = 0;
	while (active) {
		unsigned lane = (unsigned)__builtin_ctzll(active);
		active &= active - 1;
		uint64_t a = addr[lane];
		uint64_t e = a + size - 1;
		if (e < a)
			e = UINT64_MAX; /* wraps: clip at the top of the address space */
		uint64_t l0 = a & lmask, l1 = e & lmask;
		if (held && l0 == h_line && l0 == l1) {
			unsigned lo = (unsigned)(a - l0), hi = (unsigned)(e - l0);
			h_lanes |= 1ull << lane;
			if (hi < 64) {
				h_b0 |= span64(lo, hi);
			} else if (lo >= 64) {
				h_b1 |= span64(lo - 64, hi - 64);
			} else {
				h_b0 |= span64(lo, 63);
				h_b1 |= span64(0, hi - 64);
			}
			continue;
		}
		if (held)
			write_back(&out[hint], h_lanes, h_b0, h_b1);
		if (l0 == l1) {
			n = add_part(out, n, &hint, l0, (unsigned)(a - l0), (unsigned)(e - l0), lane, atomic);
		} else {
			n = add_part(out, n, &hint, l0, (unsigned)(a - l0), line_bytes - 1, lane, atomic);
			n = add_part(out, n, &hint, l1, 0, (unsigned)(e - l1), lane, atomic);
		}
		held = !atomic && hint < n;
		if (held) {
			h_line = out[hint].line;
			h_lanes = out[hint].lanes;
			h_b0 = out[hint].byte_mask[0];
			h_b1 = out[hint].byte_mask[1];
		}
	}
	if (held)
		write_back(&out[hint], h_lanes, h_b0, h_b1);
	for (unsigned i = 0; i < n; i++)
		out[i].bytes = kind == COAL_LOAD_CACHED ? line_bytes : MEM_SECTOR_BYTES * mem_popcount(out[i].sectors);
	return n;
}
