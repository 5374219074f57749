/*
 * strmap.c -- a string-keyed hash map (see strmap.h).
 *
 * Models no hardware.  Open addressing with linear probing over a
 * power-of-two table that doubles when it is three quarters full; the hash
 * is FNV-1a followed by an avalanche step.
 */
#include <stdlib.h>
#include <string.h>

#include "util/strmap.h"

static uint32_t strmap_hash(const char *s, size_t n)
{
	uint32_t h = 2166136261u;
	for (size_t i = 0; i < n; i++) {
		h ^= (unsigned char)s[i];
		h *= 16777619u;
	}
	/* avalanche, so that the low bits used for the slot index depend on all bytes */
	h ^= h >> 16;
	h *= 0x85ebca6bu;
	h ^= h >> 13;
	h *= 0xc2b2ae35u;
	h ^= h >> 16;
	return h;
}

struct strmap_slot *strmap_find(const struct strmap *m, const char *k, size_t n)
{
	if (!m->cap)
		return NULL;
	uint32_t h = strmap_hash(k, n), i = h & (m->cap - 1);
	while (m->s[i].key) {
		if (m->s[i].hash == h && m->s[i].len == n && memcmp(m->s[i].key, k, n) == 0)
			return &m->s[i];
		i = (i + 1) & (m->cap - 1);
	}
	return NULL;
}

static bool strmap_grow(struct strmap *m)
{
	uint32_t nc = m->cap ? m->cap * 2 : 64;
	if (nc < m->cap)
		return false;
	struct strmap_slot *ns = calloc(nc, sizeof(*ns));
	if (!ns)
		return false;
	for (uint32_t i = 0; i < m->cap; i++) {
		if (!m->s[i].key)
			continue;
		uint32_t j = m->s[i].hash & (nc - 1);
		while (ns[j].key)
			j = (j + 1) & (nc - 1);
		ns[j] = m->s[i];
	}
	free(m->s);
	m->s = ns;
	m->cap = nc;
	return true;
}

struct strmap_slot *strmap_get(struct strmap *m, const char *k, size_t n)
{
	struct strmap_slot *s = strmap_find(m, k, n);
	if (s)
		return s;
	if ((m->n + 1) * 4 >= m->cap * 3 && !strmap_grow(m))
		return NULL;
	uint32_t h = strmap_hash(k, n), i = h & (m->cap - 1);
	while (m->s[i].key)
		i = (i + 1) & (m->cap - 1);
	m->s[i].key = k;
	m->s[i].len = (uint32_t)n;
	m->s[i].hash = h;
	m->s[i].val = -1;
	m->s[i].depth = -1;
	m->s[i].kind = 0;
	m->n++;
	return &m->s[i];
}

void strmap_free(struct strmap *m)
{
	free(m->s);
	m->s = NULL;
	m->cap = m->n = 0;
}
