/*
 * dmem.c -- device memory allocator and bounds-checked lookup (see dmem.h).
 */
#include <stdlib.h>
#include <string.h>

#include "func/dmem.h"

struct dmem *dmem_create(uint64_t capacity)
{
	struct dmem *m = calloc(1, sizeof *m);
	if (!m)
		return NULL;
	m->next = WS_GLOBAL_BASE;
	m->capacity = capacity;
	m->heap_limit = 8ull << 20; /* CUDA's default malloc heap */
	return m;
}

void dmem_destroy(struct dmem *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->n; i++)
		free(m->a[i].data);
	free(m->a);
	free(m);
}

int dmem_alloc(struct dmem *m, uint64_t size, uint64_t *addr)
{
	if (size == 0)
		size = 1;
	if (size > m->capacity - m->used || m->next + size + 256 >= WS_FUNC_WINDOW)
		return -1;
	if (m->n == m->cap) {
		size_t nc = m->cap ? m->cap * 2 : 16;
		struct dmem_alloc *na = realloc(m->a, nc * sizeof *na);
		if (!na)
			return -1;
		m->a = na;
		m->cap = nc;
	}
	uint8_t *data = calloc(1, size);
	if (!data)
		return -1;
	/* addresses only grow, so appending keeps the array sorted */
	m->a[m->n] = (struct dmem_alloc){m->next, size, data, 0};
	*addr = m->next;
	m->n++;
	m->used += size;
	m->next = (m->next + size + 255) & ~255ull;
	return 0;
}

static int free_at(struct dmem *m, uint64_t addr, uint8_t heap)
{
	for (size_t i = 0; i < m->n; i++)
		if (m->a[i].addr == addr) {
			if (m->a[i].heap != heap)
				return -1;
			if (heap)
				m->heap_used -= m->a[i].size;
			free(m->a[i].data);
			m->used -= m->a[i].size;
			memmove(&m->a[i], &m->a[i + 1], (m->n - i - 1) * sizeof m->a[0]);
			m->n--;
			m->last = 0;
			return 0;
		}
	return -1;
}

int dmem_free(struct dmem *m, uint64_t addr) { return free_at(m, addr, 0); }

int dmem_heap_alloc(struct dmem *m, uint64_t size, uint64_t *addr)
{
	if (size == 0)
		size = 1;
	if (size > m->heap_limit - m->heap_used || dmem_alloc(m, size, addr))
		return -1;
	m->a[m->n - 1].heap = 1; /* dmem_alloc appended it */
	m->heap_used += size;
	return 0;
}

int dmem_heap_free(struct dmem *m, uint64_t addr) { return free_at(m, addr, 1); }

const struct dmem_alloc *dmem_find(const struct dmem *m, uint64_t addr)
{
	for (size_t i = 0; i < m->n; i++)
		if (addr >= m->a[i].addr && addr - m->a[i].addr < m->a[i].size)
			return &m->a[i];
	return NULL;
}
