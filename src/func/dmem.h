/*
 * dmem.h -- device (global) memory: the GPU's DRAM contents as the
 * functional model sees them.
 *
 * Models the device address space, not DRAM timing.  Allocations live at
 * 256-byte-aligned addresses from WS_GLOBAL_BASE upward and are never
 * reused, so a stale pointer faults instead of aliasing new data.  Every
 * access is bounds-checked against the allocation it falls in.
 *
 * Generic addresses (cvta, isspacep, generic ld/st) use fixed windows for
 * the other state spaces, as on NVIDIA GPUs: an address inside a window is
 * an offset into that space; anything else is global.
 */
#ifndef WARPSIM_FUNC_DMEM_H
#define WARPSIM_FUNC_DMEM_H

#include <stddef.h>
#include <stdint.h>

#define WS_GLOBAL_BASE    0x0000000100000000ull /* first device allocation (4 GiB: catches 32-bit truncation) */
#define WS_SHARED_WINDOW  0x00007e0000000000ull /* generic window of shared memory */
#define WS_LOCAL_WINDOW   0x00007d0000000000ull /* generic window of per-thread local memory */
#define WS_CONST_WINDOW   0x00007c0000000000ull /* generic window of the constant bank */
#define WS_PARAM_WINDOW   0x00007b0000000000ull /* generic window of the kernel parameter buffer */
#define WS_FUNC_WINDOW    0x00007a0000000000ull /* "addresses" of functions (function pointers) */
#define WS_WINDOW_SIZE    0x0000010000000000ull /* each window spans 1 TiB */

struct dmem_alloc {
	uint64_t addr, size;
	uint8_t *data;
	uint8_t heap;         /* made by device malloc (freed only by device free) */
};

struct dmem {
	struct dmem_alloc *a; /* sorted by addr */
	size_t n, cap;
	uint64_t next;        /* next free address */
	uint64_t used, capacity;
	uint64_t heap_used, heap_limit; /* device malloc heap (cudaLimitMallocHeapSize) */
	size_t last;          /* index of the last allocation hit (lookup cache of dmem_ptr) */
};

struct dmem *dmem_create(uint64_t capacity_bytes);
void dmem_destroy(struct dmem *m);
/* 0 on success; -1 out of memory. */
int dmem_alloc(struct dmem *m, uint64_t size, uint64_t *addr);
/* 0 on success; -1 if addr is not the start of a live allocation (or a
 * device-heap one, which only device free releases). */
int dmem_free(struct dmem *m, uint64_t addr);
/* Device malloc/free (the device heap, heap_limit bytes in all): 0 on
 * success, -1 when the heap is exhausted / addr is not a live heap block. */
int dmem_heap_alloc(struct dmem *m, uint64_t size, uint64_t *addr);
int dmem_heap_free(struct dmem *m, uint64_t addr);
/* Host pointer for [addr, addr+size) if it lies inside one allocation, else
 * NULL.  *last: the caller's lookup cache (index of its last hit): each SM
 * of the timing model keeps its own, so SMs ticked on several threads share
 * nothing writable here. */
static inline uint8_t *dmem_ptr_cached(const struct dmem *m, size_t *last, uint64_t addr, uint64_t size)
{
	if (*last < m->n) {
		const struct dmem_alloc *x = &m->a[*last];
		if (addr >= x->addr && addr - x->addr + size <= x->size && size <= x->size)
			return x->data + (addr - x->addr);
	}
	/* binary search for the last allocation with start <= addr */
	size_t lo = 0, hi = m->n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (m->a[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return NULL;
	const struct dmem_alloc *x = &m->a[lo - 1];
	if (addr - x->addr >= x->size || size > x->size - (addr - x->addr))
		return NULL;
	*last = lo - 1;
	return x->data + (addr - x->addr);
}
/* The same with the allocation table's own cache (host-side users). */
static inline uint8_t *dmem_ptr(struct dmem *m, uint64_t addr, uint64_t size)
{
	return dmem_ptr_cached(m, &m->last, addr, size);
}
/* The allocation containing addr (for error messages), or NULL. */
const struct dmem_alloc *dmem_find(const struct dmem *m, uint64_t addr);

#endif
