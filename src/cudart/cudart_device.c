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
	*s = malloc(sizeof **s);
	if (!*s)
		return ret(cudaErrorMemoryAllocation);
	(*s)->id = ++G.nstreams;
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
	if (cr_stream_id(s) == 0)
		return ret(cudaErrorInvalidResourceHandle); /* the default stream cannot be destroyed */
	free(s);
	return cudaSuccess;
}

CR_API(cudaError_t, cudaStreamSynchronize, (cudaStream_t s), (s))
{
	return ret(cr_ready());
}
CR_ALIAS(cudaStreamSynchronize_ptsz, cudaStreamSynchronize)

CR_API(cudaError_t, cudaStreamQuery, (cudaStream_t s), (s))
{
	return ret(cr_ready());
}
CR_ALIAS(cudaStreamQuery_ptsz, cudaStreamQuery)

CR_API(cudaError_t, cudaStreamWaitEvent, (cudaStream_t s, cudaEvent_t e, unsigned flags), (s, e, flags))
{
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
	if (!e)
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

/* the value of a cudaDeviceAttr, -1 if not answered */
long long cr_device_attribute(int attr)
{
	int ws = G.warp_size;
	switch (attr) {
	case cudaDevAttrMaxThreadsPerBlock:
	case cudaDevAttrMaxBlockDimX:
	case cudaDevAttrMaxBlockDimY: return cr_cfg_int("max_threads_per_cta", 1024);
	case cudaDevAttrMaxBlockDimZ: return 64;
	case cudaDevAttrMaxGridDimX: return 2147483647;
	case cudaDevAttrMaxGridDimY:
	case cudaDevAttrMaxGridDimZ: return 65535;
	case cudaDevAttrMaxSharedMemoryPerBlock:
	case cudaDevAttrMaxSharedMemoryPerBlockOptin:
	case cudaDevAttrMaxSharedMemoryPerMultiprocessor: return cr_cfg_int("shmem_per_sm", 49152);
	case cudaDevAttrTotalConstantMemory: return 65536;
	case cudaDevAttrWarpSize: return ws;
	case cudaDevAttrCooperativeLaunch: return 1;
	case cudaDevAttrMaxRegistersPerBlock:
	case cudaDevAttrMaxRegistersPerMultiprocessor: return cr_cfg_int("regs_per_sm", 32768);
	case cudaDevAttrClockRate: return (long long)(G.clock_mhz * 1000);
	case cudaDevAttrMultiProcessorCount: return cr_cfg_int("num_sms", 15);
	case cudaDevAttrMemoryClockRate: return (long long)cr_cfg_int("clock_dram", 924) * 1000;
	case cudaDevAttrGlobalMemoryBusWidth: return 32LL * cr_cfg_int("dram_channels", 6);
	case cudaDevAttrL2CacheSize: {
		long long l2 = (long long)cr_cfg_int("l2_size_kb", 0) * 1024;
		return l2 > 0 ? l2 : 786432;
	}
	case cudaDevAttrMaxThreadsPerMultiProcessor: return cr_cfg_int("max_threads_per_sm", 1536);
	case cudaDevAttrComputeCapabilityMajor: return 7;
	case cudaDevAttrComputeCapabilityMinor: return 5;
	case cudaDevAttrManagedMemory: return 1;
	case cudaDevAttrMaxBlocksPerMultiprocessor: return cr_cfg_int("max_ctas_per_sm", 8);
	}
	return -1;
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
	long long a = cr_device_attribute(attr);
	if (a < 0) {
		cr_say("cudaDeviceGetAttribute: attribute %d is not supported", attr);
		return ret(cudaErrorNotSupported);
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
	         (int)cr_device_attribute(cudaDevAttrMultiProcessorCount), G.warp_size, G.clock_mhz);
	memcpy(p->uuid.bytes, "warpsim-sim-gpu0", 16);
	p->totalGlobalMem = (size_t)cr_cfg_int("device_mem_mb", 4096) << 20;
	p->sharedMemPerBlock = (size_t)cr_device_attribute(cudaDevAttrMaxSharedMemoryPerBlock);
	p->regsPerBlock = (int)cr_device_attribute(cudaDevAttrMaxRegistersPerBlock);
	p->warpSize = G.warp_size;
	p->memPitch = 2147483647;
	p->maxThreadsPerBlock = (int)cr_device_attribute(cudaDevAttrMaxThreadsPerBlock);
	for (int i = 0; i < 3; i++) {
		p->maxThreadsDim[i] = (int)cr_device_attribute(cudaDevAttrMaxBlockDimX + i);
		p->maxGridSize[i] = (int)cr_device_attribute(cudaDevAttrMaxGridDimX + i);
	}
	p->totalConstMem = 65536;
	p->major = 7;
	p->minor = 5;
	p->textureAlignment = 512;
	p->texturePitchAlignment = 32;
	p->multiProcessorCount = (int)cr_device_attribute(cudaDevAttrMultiProcessorCount);
	p->unifiedAddressing = 1;
	p->memoryBusWidth = (int)cr_device_attribute(cudaDevAttrGlobalMemoryBusWidth);
	p->l2CacheSize = (int)cr_device_attribute(cudaDevAttrL2CacheSize);
	p->maxThreadsPerMultiProcessor = (int)cr_device_attribute(cudaDevAttrMaxThreadsPerMultiProcessor);
	p->globalL1CacheSupported = 1;
	p->localL1CacheSupported = 1;
	p->sharedMemPerMultiprocessor = (size_t)cr_device_attribute(cudaDevAttrMaxSharedMemoryPerMultiprocessor);
	p->regsPerMultiprocessor = (int)cr_device_attribute(cudaDevAttrMaxRegistersPerMultiprocessor);
	p->managedMemory = 1;
	p->cooperativeLaunch = 1;
	p->directManagedMemAccessFromHost = 0;
	p->sharedMemPerBlockOptin = p->sharedMemPerBlock;
	p->maxBlocksPerMultiProcessor = (int)cr_device_attribute(cudaDevAttrMaxBlocksPerMultiprocessor);
	p->deviceNumaId = -1;
	p->hostNumaId = -1;
	return cudaSuccess;
}

