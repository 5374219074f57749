/*
 * cudart_memory.c -- CUDA runtime library, memory: device, managed (a host
 * shadow mapped at the device address) and host allocations, copies and
 * memset in every direction, memory information, pitched 2D memory and the
 * stream-ordered allocator.
 *
 * Models no hardware (see cudart.c); shared state in cudart_internal.h.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cudart/cudart_internal.h"

/* ---- memory ---- */
struct cr_alloc *cr_find_alloc(uint64_t p, int exact)
{
	for (int i = 0; i < G.nallocs; i++) {
		struct cr_alloc *a = &G.allocs[i];
		if (exact ? a->ptr == p : (p >= a->ptr && p - a->ptr < (a->size ? a->size : 1)))
			return a;
	}
	return NULL;
}

cudaError_t cr_add_alloc(struct cr_alloc a)
{
	struct cr_alloc *na = realloc(G.allocs, (size_t)(G.nallocs + 1) * sizeof *na);
	if (!na)
		return cudaErrorMemoryAllocation;
	G.allocs = na;
	G.allocs[G.nallocs++] = a;
	return cudaSuccess;
}

static void del_alloc(struct cr_alloc *a)
{
	*a = G.allocs[--G.nallocs];
}

CR_API(cudaError_t, cudaMalloc, (void **p, size_t size), (p, size))
{
	cudaError_t e = cr_ready();
	if (e)
		return ret(e);
	if (!p)
		return ret(cudaErrorInvalidValue);
	ws_deviceptr d;
	if (wsMemAlloc(G.sim, &d, size) != WS_SUCCESS)
		return ret(cudaErrorMemoryAllocation);
	if (cr_add_alloc((struct cr_alloc){A_DEVICE, d, d, size, 0})) {
		wsMemFree(G.sim, d);
		return ret(cudaErrorMemoryAllocation);
	}
	*p = (void *)(uintptr_t)d;
	return cudaSuccess;
}

CR_API(cudaError_t, cudaMallocManaged, (void **p, size_t size, unsigned flags), (p, size, flags))
{
	cudaError_t e = cr_ready();
	if (e)
		return ret(e);
	if (!p || size == 0)
		return ret(cudaErrorInvalidValue);
	size_t len = (size + PAGE - 1) / PAGE * PAGE;
	ws_deviceptr d;
	if (wsMemAlloc(G.sim, &d, len + PAGE) != WS_SUCCESS)
		return ret(cudaErrorMemoryAllocation);
	uint64_t at = (d + PAGE - 1) / PAGE * PAGE; /* a page range inside the allocation */
	void *h = mmap((void *)(uintptr_t)at, len, PROT_READ | PROT_WRITE,
	               MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	if (h == MAP_FAILED || (uint64_t)(uintptr_t)h != at) {
		if (h != MAP_FAILED)
			munmap(h, len);
		wsMemFree(G.sim, d);
		cr_say("error: cudaMallocManaged(%zu): cannot map host memory at device address 0x%llx", size,
		    (unsigned long long)at);
		return ret(cudaErrorMemoryAllocation);
	}
	if (cr_add_alloc((struct cr_alloc){A_MANAGED, d, at, size, len})) {
		munmap(h, len);
		wsMemFree(G.sim, d);
		return ret(cudaErrorMemoryAllocation);
	}
	*p = h;
	return cudaSuccess;
}

CR_API(cudaError_t, cudaMallocHost, (void **p, size_t size), (p, size))
{
	if (!p)
		return ret(cudaErrorInvalidValue);
	void *h = NULL;
	if (posix_memalign(&h, PAGE, size ? size : 1) != 0)
		return ret(cudaErrorMemoryAllocation);
	if (cr_add_alloc((struct cr_alloc){A_HOST, 0, (uint64_t)(uintptr_t)h, size, 0})) {
		free(h);
		return ret(cudaErrorMemoryAllocation);
	}
	*p = h;
	return cudaSuccess;
}

CR_API(cudaError_t, cudaHostAlloc, (void **p, size_t size, unsigned flags), (p, size, flags))
{
	return cudaMallocHost(p, size);
}

CR_API(cudaError_t, cudaFreeHost, (void *p), (p))
{
	if (!p)
		return cudaSuccess;
	struct cr_alloc *a = cr_find_alloc((uint64_t)(uintptr_t)p, 1);
	if (!a || a->kind != A_HOST)
		return ret(cudaErrorInvalidValue);
	free(p);
	del_alloc(a);
	return cudaSuccess;
}

CR_API(cudaError_t, cudaFree, (void *p), (p))
{
	if (!p)
		return cudaSuccess;
	cudaError_t e = cr_ready();
	if (e)
		return ret(e);
	struct cr_alloc *a = cr_find_alloc((uint64_t)(uintptr_t)p, 1);
	if (!a || a->kind == A_HOST || !a->base) {
		cr_say("error: cudaFree(%p): not a pointer returned by cudaMalloc or cudaMallocManaged", p);
		return ret(cudaErrorInvalidDevicePointer);
	}
	if (a->kind == A_MANAGED)
		munmap(p, a->maplen);
	wsMemFree(G.sim, a->base);
	del_alloc(a);
	return cudaSuccess;
}

CR_API(cudaError_t, cudaMemGetInfo, (size_t *free_bytes, size_t *total), (free_bytes, total))
{
	cudaError_t e = cr_ready();
	if (e)
		return ret(e);
	size_t tot = (size_t)cr_cfg_int("device_mem_mb", 4096) << 20, used = 0;
	for (int i = 0; i < G.nallocs; i++)
		if (G.allocs[i].kind != A_HOST)
			used += G.allocs[i].size;
	if (free_bytes)
		*free_bytes = used < tot ? tot - used : 0;
	if (total)
		*total = tot;
	return cudaSuccess;
}

CR_API(cudaError_t, cudaPointerGetAttributes, (struct cudaPointerAttributes *attr, const void *p), (attr, p))
{
	if (!attr)
		return ret(cudaErrorInvalidValue);
	memset(attr, 0, sizeof *attr);
	struct cr_alloc *a = cr_find_alloc((uint64_t)(uintptr_t)p, 0);
	attr->device = 0;
	if (!a) {
		attr->type = cudaMemoryTypeUnregistered;
		attr->device = -2;
		return cudaSuccess;
	}
	attr->type = a->kind == A_DEVICE    ? cudaMemoryTypeDevice
	             : a->kind == A_MANAGED ? cudaMemoryTypeManaged
	                                    : cudaMemoryTypeHost;
	attr->devicePointer = a->kind == A_HOST ? NULL : (void *)(uintptr_t)p;
	attr->hostPointer = a->kind == A_DEVICE ? NULL : (void *)(uintptr_t)p;
	return cudaSuccess;
}

/* Is p device memory that only the simulator holds (not host or managed)? */
int cr_on_device(const void *p)
{
	struct cr_alloc *a = cr_find_alloc((uint64_t)(uintptr_t)p, 0);
	return a && a->kind == A_DEVICE;
}

static int is_host_side(const void *p)
{
	struct cr_alloc *a = cr_find_alloc((uint64_t)(uintptr_t)p, 0);
	return a && a->kind != A_DEVICE;
}

cudaError_t cr_copy(void *dst, const void *src, size_t n, int kind, const char *call)
{
	cudaError_t e = cr_ready();
	if (e)
		return ret(e);
	if (n == 0)
		return cudaSuccess;
	if (!dst || !src)
		return ret(cudaErrorInvalidValue);
	int ddev, sdev;
	switch (kind) {
	case cudaMemcpyHostToHost: ddev = sdev = 0; break;
	case cudaMemcpyHostToDevice: ddev = !is_host_side(dst), sdev = 0; break;
	case cudaMemcpyDeviceToHost: ddev = 0, sdev = !is_host_side(src); break;
	case cudaMemcpyDeviceToDevice: ddev = !is_host_side(dst), sdev = !is_host_side(src); break;
	case cudaMemcpyDefault: ddev = cr_on_device(dst), sdev = cr_on_device(src); break;
	default: return ret(cudaErrorInvalidMemcpyDirection);
	}
	ws_result r;
	if (ddev && sdev)
		r = wsMemcpyDtoD(G.sim, (uintptr_t)dst, (uintptr_t)src, n);
	else if (ddev)
		r = wsMemcpyHtoD(G.sim, (uintptr_t)dst, src, n);
	else if (sdev)
		r = wsMemcpyDtoH(G.sim, dst, (uintptr_t)src, n);
	else {
		memmove(dst, src, n);
		r = WS_SUCCESS;
	}
	if (r != WS_SUCCESS) {
		cr_say("error: %s: %s", call, wsSimLastError(G.sim));
		return ret(cudaErrorInvalidValue);
	}
	return cudaSuccess;
}

CR_API(cudaError_t, cudaMemcpy, (void *dst, const void *src, size_t n, int kind), (dst, src, n, kind))
{
	return cr_copy(dst, src, n, kind, "cudaMemcpy");
}
CR_ALIAS(cudaMemcpy_ptds, cudaMemcpy)

CR_API(cudaError_t, cudaMemcpyAsync, (void *dst, const void *src, size_t n, int kind, cudaStream_t s),
       (dst, src, n, kind, s))
{
	if (cr_stream_check(s))
		return ret(cudaErrorInvalidResourceHandle);
	return cr_copy(dst, src, n, kind, "cudaMemcpyAsync");
}
CR_ALIAS(cudaMemcpyAsync_ptsz, cudaMemcpyAsync)

CR_API(cudaError_t, cudaMemset, (void *p, int value, size_t n), (p, value, n))
{
	cudaError_t e = cr_ready();
	if (e)
		return ret(e);
	if (n == 0)
		return cudaSuccess;
	if (!cr_on_device(p)) {
		if (!is_host_side(p)) {
			cr_say("error: cudaMemset(%p): not device or managed memory", p);
			return ret(cudaErrorInvalidValue);
		}
		memset(p, value, n);
		return cudaSuccess;
	}
	if (wsMemsetD8(G.sim, (uintptr_t)p, (uint8_t)value, n) != WS_SUCCESS) {
		cr_say("error: cudaMemset: %s", wsSimLastError(G.sim));
		return ret(cudaErrorInvalidValue);
	}
	return cudaSuccess;
}
CR_ALIAS(cudaMemset_ptds, cudaMemset)

CR_API(cudaError_t, cudaMemsetAsync, (void *p, int value, size_t n, cudaStream_t s), (p, value, n, s))
{
	if (cr_stream_check(s))
		return ret(cudaErrorInvalidResourceHandle);
	return cudaMemset(p, value, n);
}
CR_ALIAS(cudaMemsetAsync_ptsz, cudaMemsetAsync)

/* ---- pitched and stream-ordered memory ---- */
CR_API(cudaError_t, cudaMallocPitch, (void **p, size_t *pitch, size_t width, size_t height), (p, pitch, width, height))
{
	if (!pitch)
		return ret(cudaErrorInvalidValue);
	size_t pt = (width + 255) / 256 * 256;
	cudaError_t e = cudaMalloc(p, pt * height);
	if (e == cudaSuccess)
		*pitch = pt;
	return e;
}

CR_API(cudaError_t, cudaMemcpy2D,
       (void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height, int kind),
       (dst, dpitch, src, spitch, width, height, kind))
{
	if (width > dpitch || width > spitch)
		return ret(cudaErrorInvalidPitchValue);
	for (size_t r = 0; r < height; r++) {
		cudaError_t e =
		    cr_copy((char *)dst + r * dpitch, (const char *)src + r * spitch, width, kind, "cudaMemcpy2D");
		if (e)
			return e;
	}
	return cudaSuccess;
}
CR_ALIAS(cudaMemcpy2D_ptds, cudaMemcpy2D)

CR_API(cudaError_t, cudaMemcpy2DAsync,
       (void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height, int kind,
        cudaStream_t s),
       (dst, dpitch, src, spitch, width, height, kind, s))
{
	return cudaMemcpy2D(dst, dpitch, src, spitch, width, height, kind);
}
CR_ALIAS(cudaMemcpy2DAsync_ptsz, cudaMemcpy2DAsync)

CR_API(cudaError_t, cudaMemset2D, (void *p, size_t pitch, int value, size_t width, size_t height),
       (p, pitch, value, width, height))
{
	if (width > pitch)
		return ret(cudaErrorInvalidPitchValue);
	for (size_t r = 0; r < height; r++) {
		cudaError_t e = cudaMemset((char *)p + r * pitch, value, width);
		if (e)
			return e;
	}
	return cudaSuccess;
}
CR_ALIAS(cudaMemset2D_ptds, cudaMemset2D)

CR_API(cudaError_t, cudaMemset2DAsync, (void *p, size_t pitch, int value, size_t width, size_t height, cudaStream_t s),
       (p, pitch, value, width, height, s))
{
	return cudaMemset2D(p, pitch, value, width, height);
}
CR_ALIAS(cudaMemset2DAsync_ptsz, cudaMemset2DAsync)

CR_API(cudaError_t, cudaMallocAsync, (void **p, size_t size, cudaStream_t s), (p, size, s))
{
	return cudaMalloc(p, size);
}
CR_ALIAS(cudaMallocAsync_ptsz, cudaMallocAsync)

CR_API(cudaError_t, cudaFreeAsync, (void *p, cudaStream_t s), (p, s))
{
	return cudaFree(p);
}
CR_ALIAS(cudaFreeAsync_ptsz, cudaFreeAsync)

