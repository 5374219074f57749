/*
 * cudart_device.c -- CUDA runtime library, the device and its queues: host
 * work in stream order (it runs at once: everything before it has
 * completed), settings that have no effect on the simulated device,
 * synchronisation, streams and events (simulated cycles, converted at the
 * configured core clock), and the device's properties and attributes.
 *
 * Models no hardware (see cudart.c); shared state in cudart_internal.h.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cudart/cudart_internal.h"

/* ---- host work in stream order: everything before it has completed, so it runs now ---- */
CR_API(cudaError_t, cudaLaunchHostFunc, (cudaStream_t s, void (*fn)(void *), void *data), (s, fn, data))
{
	if (!fn)
		return ret(cudaErrorInvalidValue);
	if (cr_stream_check(s))
		return ret(cudaErrorInvalidResourceHandle);
	cudaError_t e = cr_ready();
	if (e)
		return ret(e);
	fn(data);
	return cudaSuccess;
}
CR_ALIAS(cudaLaunchHostFunc_ptsz, cudaLaunchHostFunc)

CR_API(cudaError_t, cudaStreamAddCallback,
       (cudaStream_t s, void (*cb)(cudaStream_t, cudaError_t, void *), void *data, unsigned flags),
       (s, cb, data, flags))
{
	if (!cb || flags != 0)
		return ret(cudaErrorInvalidValue);
	if (cr_stream_check(s))
		return ret(cudaErrorInvalidResourceHandle);
	cb(s, G.sticky, data);
	return cudaSuccess;
}
CR_ALIAS(cudaStreamAddCallback_ptsz, cudaStreamAddCallback)

/* ---- settings that have no effect on the simulated device (accepted, documented) ---- */
static const size_t limit_default[3] = {1024, 1 << 20, 8 << 20}; /* stack size, printf FIFO, malloc heap (which sizes the device heap) */

CR_API(cudaError_t, cudaDeviceSetLimit, (int limit, size_t value), (limit, value))
{
	if (limit < 0 || limit > 2) {
		cr_say("cudaDeviceSetLimit: limit %d is not supported", limit);
		return ret(cudaErrorNotSupported);
	}
	if (limit == 2 && G.sim && wsSimSetMallocHeapSize(G.sim, value) != WS_SUCCESS) /* cudaLimitMallocHeapSize */
		return ret(cudaErrorInvalidValue);
	G.limits[limit] = value;
	G.limit_set[limit] = 1;
	return cudaSuccess;
}

CR_API(cudaError_t, cudaDeviceGetLimit, (size_t *value, int limit), (value, limit))
{
	if (!value)
		return ret(cudaErrorInvalidValue);
	if (limit < 0 || limit > 2) {
		cr_say("cudaDeviceGetLimit: limit %d is not supported", limit);
		return ret(cudaErrorNotSupported);
	}
	*value = G.limit_set[limit] ? G.limits[limit] : limit_default[limit];
	return cudaSuccess;
}

CR_API(cudaError_t, cudaSetDeviceFlags, (unsigned flags), (flags))
{
	G.device_flags = flags;
	return cudaSuccess;
}

CR_API(cudaError_t, cudaGetDeviceFlags, (unsigned *flags), (flags))
{
	if (!flags)
		return ret(cudaErrorInvalidValue);
	*flags = G.device_flags;
	return cudaSuccess;
}

CR_API(cudaError_t, cudaFuncSetCacheConfig, (const void *func, int config), (func, config))
{
	return cr_find_func(func) ? cudaSuccess : ret(cudaErrorInvalidDeviceFunction);
}

CR_API(cudaError_t, cudaDeviceSetCacheConfig, (int config), (config))
{
	return cudaSuccess;
}

CR_API(cudaError_t, cudaProfilerStart, (void), ())
{
	return cudaSuccess;
}

CR_API(cudaError_t, cudaProfilerStop, (void), ())
{
	return cudaSuccess;
}

CR_API(cudaError_t, cudaInitDevice, (int dev, unsigned devFlags, unsigned flags), (dev, devFlags, flags))
{
	return dev == 0 ? ret(cr_init()) : ret(cudaErrorInvalidDevice);
}

/* ---- synchronisation, streams, events ---- */
CR_API(cudaError_t, cudaDeviceSynchronize, (void), ())
{
	return ret(cr_ready());
}

CR_API(cudaError_t, cudaStreamCreate, (cudaStream_t *s), (s))
{
	if (!s)
		return ret(cudaErrorInvalidValue);
	if (G.nlive == G.caplive) {
		unsigned nc = G.caplive ? 2 * G.caplive : 16;
		struct cr_stream **nl = realloc(G.live, nc * sizeof *nl);
		if (!nl)
			return ret(cudaErrorMemoryAllocation);
		G.live = nl;
		G.caplive = nc;
	}
	*s = malloc(sizeof **s);
	if (!*s)
		return ret(cudaErrorMemoryAllocation);
	(*s)->id = ++G.nstreams;
	G.live[G.nlive++] = *s;
	return cudaSuccess;
}

CR_API(cudaError_t, cudaStreamCreateWithFlags, (cudaStream_t *s, unsigned flags), (s, flags))
{
	return cudaStreamCreate(s);
}

CR_API(cudaError_t, cudaStreamCreateWithPriority, (cudaStream_t *s, unsigned flags, int prio), (s, flags, prio))
{
	return cudaStreamCreate(s);
}

CR_API(cudaError_t, cudaStreamDestroy, (cudaStream_t s), (s))
{
	if ((uintptr_t)s < 4096 || cr_stream_check(s))
		return ret(cudaErrorInvalidResourceHandle); /* a default stream, or not a live stream */
	for (unsigned i = 0; i < G.nlive; i++)
		if (G.live[i] == s) {
			G.live[i] = G.live[--G.nlive];
			break;
		}
	free(s);
	return cudaSuccess;
}

CR_API(cudaError_t, cudaStreamSynchronize, (cudaStream_t s), (s))
{
	cudaError_t e = cr_stream_check(s);
	return ret(e ? e : cr_ready());
}
CR_ALIAS(cudaStreamSynchronize_ptsz, cudaStreamSynchronize)

CR_API(cudaError_t, cudaStreamQuery, (cudaStream_t s), (s))
{
	cudaError_t e = cr_stream_check(s);
	return ret(e ? e : cr_ready());
}
CR_ALIAS(cudaStreamQuery_ptsz, cudaStreamQuery)

CR_API(cudaError_t, cudaStreamWaitEvent, (cudaStream_t s, cudaEvent_t e, unsigned flags), (s, e, flags))
{
	if (cr_stream_check(s))
		return ret(cudaErrorInvalidResourceHandle);
	return ret(G.sticky); /* every operation has completed already */
}
CR_ALIAS(cudaStreamWaitEvent_ptsz, cudaStreamWaitEvent)

CR_API(cudaError_t, cudaEventCreate, (cudaEvent_t *e), (e))
{
	if (!e)
		return ret(cudaErrorInvalidValue);
	*e = calloc(1, sizeof **e);
	return *e ? cudaSuccess : ret(cudaErrorMemoryAllocation);
}

CR_API(cudaError_t, cudaEventCreateWithFlags, (cudaEvent_t *e, unsigned flags), (e, flags))
{
	return cudaEventCreate(e);
}

CR_API(cudaError_t, cudaEventDestroy, (cudaEvent_t e), (e))
{
	free(e);
	return cudaSuccess;
}

CR_API(cudaError_t, cudaEventRecord, (cudaEvent_t e, cudaStream_t s), (e, s))
{
	if (!e || cr_stream_check(s))
		return ret(cudaErrorInvalidResourceHandle);
	e->cycle = G.now;
	e->recorded = 1;
	return cudaSuccess;
}
CR_ALIAS(cudaEventRecord_ptsz, cudaEventRecord)

CR_API(cudaError_t, cudaEventRecordWithFlags, (cudaEvent_t e, cudaStream_t s, unsigned flags), (e, s, flags))
{
	return cudaEventRecord(e, s);
}
CR_ALIAS(cudaEventRecordWithFlags_ptsz, cudaEventRecordWithFlags)

CR_API(cudaError_t, cudaEventSynchronize, (cudaEvent_t e), (e))
{
	if (!e)
		return ret(cudaErrorInvalidResourceHandle);
	return ret(G.sticky);
}

CR_API(cudaError_t, cudaEventQuery, (cudaEvent_t e), (e))
{
	if (!e)
		return ret(cudaErrorInvalidResourceHandle);
	return ret(G.sticky);
}

CR_API(cudaError_t, cudaEventElapsedTime, (float *ms, cudaEvent_t a, cudaEvent_t b), (ms, a, b))
{
	if (!ms || !a || !b)
		return ret(cudaErrorInvalidValue);
	if (!a->recorded || !b->recorded)
		return ret(cudaErrorInvalidResourceHandle);
	if (cr_init())
		return ret(cudaErrorInitializationError);
	*ms = (float)(((double)b->cycle - (double)a->cycle) / (G.clock_mhz * 1e3));
	return cudaSuccess;
}

/* Hints about managed memory: every managed allocation is already where
 * both the host and the device see it. */
CR_API(cudaError_t, cudaMemPrefetchAsync, (void), ())
{
	return ret(G.sticky);
}
CR_ALIAS(cudaMemPrefetchAsync_ptsz, cudaMemPrefetchAsync)

CR_API(cudaError_t, cudaMemAdvise, (void), ())
{
	return ret(G.sticky);
}

/* a constructor, not a device call (returns a struct by value) */
EXPORT struct cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w, int f)
{
	return (struct cudaChannelFormatDesc){x, y, z, w, f};
}

/* ---- device ---- */
CR_API(cudaError_t, cudaGetDeviceCount, (int *n), (n))
{
	if (!n)
		return ret(cudaErrorInvalidValue);
	*n = 1;
	return cudaSuccess;
}

CR_API(cudaError_t, cudaGetDevice, (int *d), (d))
{
	if (!d)
		return ret(cudaErrorInvalidValue);
	*d = 0;
	return cudaSuccess;
}

CR_API(cudaError_t, cudaSetDevice, (int d), (d))
{
	return d == 0 ? cudaSuccess : ret(cudaErrorInvalidDevice);
}

CR_API(cudaError_t, cudaDeviceReset, (void), ())
{
	G.sticky = cudaSuccess;
	G.last = cudaSuccess;
	return cudaSuccess;
}

CR_API(cudaError_t, cudaDriverGetVersion, (int *v), (v))
{
	if (!v)
		return ret(cudaErrorInvalidValue);
	*v = 13000;
	return cudaSuccess;
}

CR_API(cudaError_t, cudaRuntimeGetVersion, (int *v), (v))
{
	return cudaDriverGetVersion(v);
}

/* The L2 of the configured GPU in bytes: sets x ways x line x slices. */
static long long cr_l2_bytes(void)
{
	return (long long)cr_cfg_int("l2_sets", 64) * cr_cfg_int("l2_ways", 8) * cr_cfg_int("l2_line_bytes", 128) *
	       cr_cfg_int("l2_slices_per_channel", 2) * cr_cfg_int("dram_channels", 6);
}

/* Element k of an integer-list parameter (e.g. "4,13,4,5,39"). */
static long long cr_cfg_list(const char *key, int k, long long dflt)
{
	char buf[64];
	const char *v = G.sim ? wsConfigGet(wsSimConfig(G.sim), key, buf, sizeof buf) : NULL;
	for (int i = 0; v && i < k; i++)
		v = (v = strchr(v, ',')) ? v + 1 : NULL;
	return v ? atoll(v) : dflt;
}

/* Single- to double-precision throughput of the configured SM: FP32 multiply-
 * adds per cycle over FP64 ones (DP on the SP units when it has no DP units). */
static long long cr_sp_dp_ratio(void)
{
	long long sp = cr_cfg_int("num_sp_units", 2), dp = cr_cfg_int("num_dp_units", 0);
	long long ii_sp = cr_cfg_list("ii_fp", 3, 1), ii_dp = cr_cfg_list("ii_dp", 3, 8);
	if (dp <= 0)
		dp = sp;
	long long r = ii_sp > 0 && dp > 0 ? (sp * ii_dp) / (dp * ii_sp) : 32;
	return r > 0 ? r : 1;
}

bool cr_device_attribute(int attr, long long *value)
{
	switch (attr) {
#define A(name, id, v)                                                                                                 \
	case id:                                                                                                       \
		*value = (v);                                                                                          \
		return true;
#include "cudart/device_attrs.def"
#undef A
	}
	return false;
}

/* An attribute as an int (every attribute fits one). */
static int attr_int(int attr)
{
	long long v = 0;
	cr_device_attribute(attr, &v);
	return (int)v;
}

CR_API(cudaError_t, cudaDeviceGetAttribute, (int *v, int attr, int dev), (v, attr, dev))
{
	cudaError_t e = cr_init();
	if (e)
		return ret(e);
	if (!v)
		return ret(cudaErrorInvalidValue);
	if (dev != 0)
		return ret(cudaErrorInvalidDevice);
	long long a;
	if (!cr_device_attribute(attr, &a)) {
		cr_say("cudaDeviceGetAttribute: %d is not a device attribute of CUDA 13 (reserved or unknown)", attr);
		return ret(cudaErrorInvalidValue);
	}
	*v = (int)a;
	return cudaSuccess;
}

CR_API(cudaError_t, cudaGetDeviceProperties, (struct cudaDeviceProp *p, int dev), (p, dev))
{
	cudaError_t e = cr_init();
	if (e)
		return ret(e);
	if (!p)
		return ret(cudaErrorInvalidValue);
	if (dev != 0)
		return ret(cudaErrorInvalidDevice);
	memset(p, 0, sizeof *p);
	snprintf(p->name, sizeof p->name, "warpsim (%d SMs, warp size %d, %.0f MHz)",
	         attr_int(cudaDevAttrMultiProcessorCount), G.warp_size, G.clock_mhz);
	memcpy(p->uuid.bytes, "warpsim-sim-gpu0", 16);
	p->totalGlobalMem = (size_t)cr_cfg_int("device_mem_mb", 4096) << 20;
	p->sharedMemPerBlock = (size_t)attr_int(cudaDevAttrMaxSharedMemoryPerBlock);
	p->regsPerBlock = attr_int(cudaDevAttrMaxRegistersPerBlock);
	p->warpSize = G.warp_size;
	p->memPitch = 2147483647;
	p->maxThreadsPerBlock = attr_int(cudaDevAttrMaxThreadsPerBlock);
	for (int i = 0; i < 3; i++) {
		p->maxThreadsDim[i] = attr_int(cudaDevAttrMaxBlockDimX + i);
		p->maxGridSize[i] = attr_int(cudaDevAttrMaxGridDimX + i);
	}
	p->totalConstMem = 65536;
	p->major = 7;
	p->minor = 5;
	p->textureAlignment = 512;
	p->texturePitchAlignment = 32;
	p->multiProcessorCount = attr_int(cudaDevAttrMultiProcessorCount);
	p->unifiedAddressing = 1;
	p->memoryBusWidth = attr_int(cudaDevAttrGlobalMemoryBusWidth);
	p->l2CacheSize = attr_int(cudaDevAttrL2CacheSize);
	p->maxThreadsPerMultiProcessor = attr_int(cudaDevAttrMaxThreadsPerMultiProcessor);
	p->globalL1CacheSupported = 1;
	p->localL1CacheSupported = 1;
	p->sharedMemPerMultiprocessor = (size_t)attr_int(cudaDevAttrMaxSharedMemoryPerMultiprocessor);
	p->regsPerMultiprocessor = attr_int(cudaDevAttrMaxRegistersPerMultiprocessor);
	p->managedMemory = 1;
	p->cooperativeLaunch = 1;
	p->directManagedMemAccessFromHost = 0;
	p->sharedMemPerBlockOptin = p->sharedMemPerBlock;
	p->maxBlocksPerMultiProcessor = attr_int(cudaDevAttrMaxBlocksPerMultiprocessor);
	p->deviceNumaId = -1;
	p->hostNumaId = -1;
	/* the rest from the same table as cudaDeviceGetAttribute */
	p->integrated = attr_int(cudaDevAttrIntegrated);
	p->canMapHostMemory = attr_int(cudaDevAttrCanMapHostMemory);
	p->maxTexture1D = attr_int(cudaDevAttrMaxTexture1DWidth);
	p->maxTexture1DMipmap = attr_int(cudaDevAttrMaxTexture1DMipmappedWidth);
	p->maxTexture2D[0] = attr_int(cudaDevAttrMaxTexture2DWidth);
	p->maxTexture2D[1] = attr_int(cudaDevAttrMaxTexture2DHeight);
	p->maxTexture2DMipmap[0] = attr_int(cudaDevAttrMaxTexture2DMipmappedWidth);
	p->maxTexture2DMipmap[1] = attr_int(cudaDevAttrMaxTexture2DMipmappedHeight);
	p->maxTexture2DLinear[0] = attr_int(cudaDevAttrMaxTexture2DLinearWidth);
	p->maxTexture2DLinear[1] = attr_int(cudaDevAttrMaxTexture2DLinearHeight);
	p->maxTexture2DLinear[2] = attr_int(cudaDevAttrMaxTexture2DLinearPitch);
	p->maxTexture2DGather[0] = attr_int(cudaDevAttrMaxTexture2DGatherWidth);
	p->maxTexture2DGather[1] = attr_int(cudaDevAttrMaxTexture2DGatherHeight);
	p->maxTexture3D[0] = attr_int(cudaDevAttrMaxTexture3DWidth);
	p->maxTexture3D[1] = attr_int(cudaDevAttrMaxTexture3DHeight);
	p->maxTexture3D[2] = attr_int(cudaDevAttrMaxTexture3DDepth);
	p->maxTexture3DAlt[0] = attr_int(cudaDevAttrMaxTexture3DWidthAlt);
	p->maxTexture3DAlt[1] = attr_int(cudaDevAttrMaxTexture3DHeightAlt);
	p->maxTexture3DAlt[2] = attr_int(cudaDevAttrMaxTexture3DDepthAlt);
	p->maxTextureCubemap = attr_int(cudaDevAttrMaxTextureCubemapWidth);
	p->maxTexture1DLayered[0] = attr_int(cudaDevAttrMaxTexture1DLayeredWidth);
	p->maxTexture1DLayered[1] = attr_int(cudaDevAttrMaxTexture1DLayeredLayers);
	p->maxTexture2DLayered[0] = attr_int(cudaDevAttrMaxTexture2DLayeredWidth);
	p->maxTexture2DLayered[1] = attr_int(cudaDevAttrMaxTexture2DLayeredHeight);
	p->maxTexture2DLayered[2] = attr_int(cudaDevAttrMaxTexture2DLayeredLayers);
	p->maxTextureCubemapLayered[0] = attr_int(cudaDevAttrMaxTextureCubemapLayeredWidth);
	p->maxTextureCubemapLayered[1] = attr_int(cudaDevAttrMaxTextureCubemapLayeredLayers);
	p->maxSurface1D = attr_int(cudaDevAttrMaxSurface1DWidth);
	p->maxSurface2D[0] = attr_int(cudaDevAttrMaxSurface2DWidth);
	p->maxSurface2D[1] = attr_int(cudaDevAttrMaxSurface2DHeight);
	p->maxSurface3D[0] = attr_int(cudaDevAttrMaxSurface3DWidth);
	p->maxSurface3D[1] = attr_int(cudaDevAttrMaxSurface3DHeight);
	p->maxSurface3D[2] = attr_int(cudaDevAttrMaxSurface3DDepth);
	p->maxSurface1DLayered[0] = attr_int(cudaDevAttrMaxSurface1DLayeredWidth);
	p->maxSurface1DLayered[1] = attr_int(cudaDevAttrMaxSurface1DLayeredLayers);
	p->maxSurface2DLayered[0] = attr_int(cudaDevAttrMaxSurface2DLayeredWidth);
	p->maxSurface2DLayered[1] = attr_int(cudaDevAttrMaxSurface2DLayeredHeight);
	p->maxSurface2DLayered[2] = attr_int(cudaDevAttrMaxSurface2DLayeredLayers);
	p->maxSurfaceCubemap = attr_int(cudaDevAttrMaxSurfaceCubemapWidth);
	p->maxSurfaceCubemapLayered[0] = attr_int(cudaDevAttrMaxSurfaceCubemapLayeredWidth);
	p->maxSurfaceCubemapLayered[1] = attr_int(cudaDevAttrMaxSurfaceCubemapLayeredLayers);
	p->surfaceAlignment = (size_t)attr_int(cudaDevAttrSurfaceAlignment);
	p->concurrentKernels = attr_int(cudaDevAttrConcurrentKernels);
	p->ECCEnabled = attr_int(cudaDevAttrEccEnabled);
	p->asyncEngineCount = attr_int(cudaDevAttrAsyncEngineCount);
	p->streamPrioritiesSupported = attr_int(cudaDevAttrStreamPrioritiesSupported);
	p->memoryPoolsSupported = attr_int(cudaDevAttrMemoryPoolsSupported);
	p->memPitch = (size_t)attr_int(cudaDevAttrMaxPitch);
	return cudaSuccess;
}

