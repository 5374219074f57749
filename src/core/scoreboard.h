/*
 * scoreboard.h -- per-warp scoreboard.
 *
 * Models the SM's scoreboard: one pending bit per register of a warp,
 * set when an instruction that writes the register issues and cleared at
 * its writeback.  An instruction may issue only when none of its source
 * (RAW) or destination (WAW) registers is pending.  A second bit marks
 * registers waiting on long-latency loads (global/local memory, atomics),
 * which two-level scheduling uses to demote warps.  Register ids are
 * frame-relative: frame base register + register index, so the frames of
 * nested calls do not alias.
 */
#ifndef WARPSIM_CORE_SCOREBOARD_H
#define WARPSIM_CORE_SCOREBOARD_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct scoreboard {
	uint64_t *pending; /* bit per register id */
	uint64_t *longlat; /* bit per register id: pending on a long-latency load */
	uint32_t words;
	uint32_t npending;
};

static inline void sb_clear(struct scoreboard *s)
{
	if (s->words) {
		memset(s->pending, 0, s->words * sizeof(uint64_t));
		memset(s->longlat, 0, s->words * sizeof(uint64_t));
	}
	s->npending = 0;
}

static inline void sb_destroy(struct scoreboard *s)
{
	free(s->pending);
	free(s->longlat);
	memset(s, 0, sizeof *s);
}

/* Make room for register ids < n.  False on OOM. */
static inline bool sb_reserve(struct scoreboard *s, uint32_t n)
{
	uint32_t w = (n + 63) / 64;
	if (w <= s->words)
		return true;
	uint64_t *p = realloc(s->pending, w * sizeof *p), *l;
	if (!p)
		return false;
	s->pending = p;
	l = realloc(s->longlat, w * sizeof *l);
	if (!l)
		return false;
	s->longlat = l;
	memset(p + s->words, 0, (w - s->words) * sizeof *p);
	memset(l + s->words, 0, (w - s->words) * sizeof *l);
	s->words = w;
	return true;
}

static inline bool sb_test(const struct scoreboard *s, uint32_t r)
{
	return r / 64 < s->words && (s->pending[r / 64] >> (r % 64)) & 1;
}
static inline bool sb_test_long(const struct scoreboard *s, uint32_t r)
{
	return r / 64 < s->words && (s->longlat[r / 64] >> (r % 64)) & 1;
}
/* Mark register r pending (growing the bitmap for deep call frames).  False on OOM. */
static inline bool sb_set(struct scoreboard *s, uint32_t r, bool longlat)
{
	if (r / 64 >= s->words && !sb_reserve(s, r + 64))
		return false;
	if (!sb_test(s, r))
		s->npending++;
	s->pending[r / 64] |= 1ull << (r % 64);
	if (longlat)
		s->longlat[r / 64] |= 1ull << (r % 64);
	return true;
}
static inline void sb_release(struct scoreboard *s, uint32_t r)
{
	if (r / 64 >= s->words)
		return;
	if (sb_test(s, r))
		s->npending--;
	s->pending[r / 64] &= ~(1ull << (r % 64));
	s->longlat[r / 64] &= ~(1ull << (r % 64));
}

#endif
