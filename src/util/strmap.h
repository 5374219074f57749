/*
 * strmap.h -- a string-keyed hash map (strmap.c): open addressing with
 * linear probing, FNV-1a hashed, keys borrowed (not copied).
 *
 * Models no hardware.  Each slot carries three small payload fields whose
 * meaning belongs to the caller: the PTX parser (src/ptx/parse_*.c) keeps
 * a symbol's index in `val`, the block depth of its binding in `depth` and
 * its symbol kind in `kind`.  Slots are never removed; a map is freed
 * whole.
 */
#ifndef WARPSIM_UTIL_STRMAP_H
#define WARPSIM_UTIL_STRMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct strmap_slot {
	const char *key; /* NULL = empty slot */
	uint32_t len;
	uint32_t hash;
	int32_t val;
	int32_t depth;
	uint8_t kind;
};
struct strmap {
	struct strmap_slot *s;
	uint32_t cap, n; /* cap: 0 or a power of two */
};

/* The slot of the n bytes at k, or NULL if absent. */
struct strmap_slot *strmap_find(const struct strmap *m, const char *k, size_t n);
/* Find or insert `k` (which must stay valid while the map lives).
 * A new slot has kind 0, val -1, depth -1.  NULL on out-of-memory. */
struct strmap_slot *strmap_get(struct strmap *m, const char *k, size_t n);
/* Free the slots; the map is empty (and usable) again. */
void strmap_free(struct strmap *m);

#endif
