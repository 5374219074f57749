/*
 * cuda_abi.h -- the few CUDA runtime types, enums and structures the
 * runtime library (src/cudart/) exchanges with nvcc-built programs, declared
 * here so that the library builds without the CUDA toolkit.
 *
 * Models no hardware.  Values and layouts are those of CUDA 13.0's
 * driver_types.h / vector_types.h (x86-64); the _Static_asserts pin the
 * sizes and offsets that were checked against the real header.
 */
#ifndef WARPSIM_CUDART_CUDA_ABI_H
#define WARPSIM_CUDART_CUDA_ABI_H

#include <stddef.h>

/* E(value, name, description): the error codes the library returns, with
 * the names and strings of NVIDIA's runtime. */
#define CR_ERRORS(E)                                                                                                   \
	E(0, cudaSuccess, "no error")                                                                                  \
	E(1, cudaErrorInvalidValue, "invalid argument")                                                                \
	E(2, cudaErrorMemoryAllocation, "out of memory")                                                               \
	E(3, cudaErrorInitializationError, "initialization error")                                                     \
	E(4, cudaErrorCudartUnloading, "driver shutting down")                                                         \
	E(9, cudaErrorInvalidConfiguration, "invalid configuration argument")                                          \
	E(12, cudaErrorInvalidPitchValue, "invalid pitch argument")                                                    \
	E(13, cudaErrorInvalidSymbol, "invalid device symbol")                                                         \
	E(17, cudaErrorInvalidDevicePointer, "invalid device pointer")                                                 \
	E(21, cudaErrorInvalidMemcpyDirection, "invalid copy direction for memcpy")                                    \
	E(98, cudaErrorInvalidDeviceFunction, "invalid device function")                                               \
	E(100, cudaErrorNoDevice, "no CUDA-capable device is detected")                                                \
	E(101, cudaErrorInvalidDevice, "invalid device ordinal")                                                       \
	E(209, cudaErrorNoKernelImageForDevice, "no kernel image is available for execution on the device")            \
	E(218, cudaErrorInvalidPtx, "a PTX JIT compilation failed")                                                    \
	E(222, cudaErrorUnsupportedPtxVersion, "the provided PTX was compiled with an unsupported toolchain.")         \
	E(400, cudaErrorInvalidResourceHandle, "invalid resource handle")                                              \
	E(500, cudaErrorSymbolNotFound, "named symbol not found")                                                      \
	E(600, cudaErrorNotReady, "device not ready")                                                                  \
	E(700, cudaErrorIllegalAddress, "an illegal memory access was encountered")                                    \
	E(701, cudaErrorLaunchOutOfResources, "too many resources requested for launch")                               \
	E(702, cudaErrorLaunchTimeout, "the launch timed out and was terminated")                                      \
	E(710, cudaErrorAssert, "device-side assert triggered")                                                        \
	E(715, cudaErrorIllegalInstruction, "an illegal instruction was encountered")                                  \
	E(716, cudaErrorMisalignedAddress, "misaligned address")                                                       \
	E(719, cudaErrorLaunchFailure, "unspecified launch failure")                                                   \
	E(720, cudaErrorCooperativeLaunchTooLarge, "too many blocks in cooperative launch")                            \
	E(801, cudaErrorNotSupported, "operation not supported")                                                       \
	E(999, cudaErrorUnknown, "unknown error")

typedef enum cudaError {
#define CR_X(v, n, s) n = v,
	CR_ERRORS(CR_X)
#undef CR_X
} cudaError_t;

enum cudaMemcpyKind {
	cudaMemcpyHostToHost = 0,
	cudaMemcpyHostToDevice = 1,
	cudaMemcpyDeviceToHost = 2,
	cudaMemcpyDeviceToDevice = 3,
	cudaMemcpyDefault = 4
};

/* cudaDeviceAttr values (every one a device answers: cudart/device_attrs.def) */
enum {
#define A(name, id, value) cudaDevAttr##name = id,
#include "cudart/device_attrs.def"
#undef A
};

/* cudaFuncAttribute values accepted by cudaFuncSetAttribute */
enum { cudaFuncAttributeMaxDynamicSharedMemorySize = 8, cudaFuncAttributePreferredSharedMemoryCarveout = 9 };

enum { cudaMemoryTypeUnregistered = 0, cudaMemoryTypeHost = 1, cudaMemoryTypeDevice = 2, cudaMemoryTypeManaged = 3 };

struct cudaPointerAttributes {
	int type; /* enum cudaMemoryType */
	int device;
	void *devicePointer;
	void *hostPointer;
	long reserved[8];
};
_Static_assert(sizeof(struct cudaPointerAttributes) == 88, "CUDA 13.0 cudaPointerAttributes size");
_Static_assert(offsetof(struct cudaPointerAttributes, hostPointer) == 16, "");

struct cudaFuncAttributes {
	size_t sharedSizeBytes, constSizeBytes, localSizeBytes;
	int maxThreadsPerBlock, numRegs, ptxVersion, binaryVersion, cacheModeCA, maxDynamicSharedSizeBytes,
	    preferredShmemCarveout, clusterDimMustBeSet, requiredClusterWidth, requiredClusterHeight,
	    requiredClusterDepth, clusterSchedulingPolicyPreference, nonPortableClusterSizeAllowed;
	int reserved[16];
};
_Static_assert(sizeof(struct cudaFuncAttributes) == 144, "CUDA 13.0 cudaFuncAttributes size");

typedef struct dim3 {
	unsigned x, y, z;
} dim3;
_Static_assert(sizeof(dim3) == 12, "dim3 is three unsigned ints");

struct cr_uuid {
	char bytes[16];
};

/* CUDA 13.0's struct cudaDeviceProp, field for field */
/* cudaLaunchKernelExC's configuration (CUDA 13 driver_types.h layout) */
enum {
	cudaLaunchAttributeIgnore = 0,
	cudaLaunchAttributeAccessPolicyWindow = 1,
	cudaLaunchAttributeCooperative = 2,
	cudaLaunchAttributeSynchronizationPolicy = 3,
	cudaLaunchAttributeClusterDimension = 4,
	cudaLaunchAttributeClusterSchedulingPolicyPreference = 5,
	cudaLaunchAttributeProgrammaticStreamSerialization = 6,
	cudaLaunchAttributeProgrammaticEvent = 7,
	cudaLaunchAttributePriority = 8,
	cudaLaunchAttributeMemSyncDomainMap = 9,
	cudaLaunchAttributeMemSyncDomain = 10,
	cudaLaunchAttributePreferredClusterDimension = 11
};
union cr_launch_attr_value {
	char pad[64];
	int cooperative;
	struct {
		unsigned x, y, z;
	} clusterDim;
	int programmaticStreamSerializationAllowed;
	int priority;
};
struct cudaLaunchAttribute {
	int id;
	char pad[8 - sizeof(int)];
	union cr_launch_attr_value val;
};
_Static_assert(sizeof(struct cudaLaunchAttribute) == 72, "CUDA 13 cudaLaunchAttribute size");

struct cudaDeviceProp {
	char name[256];
	struct cr_uuid uuid;
	char luid[8];
	unsigned int luidDeviceNodeMask;
	size_t totalGlobalMem;
	size_t sharedMemPerBlock;
	int regsPerBlock;
	int warpSize;
	size_t memPitch;
	int maxThreadsPerBlock;
	int maxThreadsDim[3];
	int maxGridSize[3];
	size_t totalConstMem;
	int major;
	int minor;
	size_t textureAlignment;
	size_t texturePitchAlignment;
	int multiProcessorCount;
	int integrated;
	int canMapHostMemory;
	int maxTexture1D;
	int maxTexture1DMipmap;
	int maxTexture2D[2];
	int maxTexture2DMipmap[2];
	int maxTexture2DLinear[3];
	int maxTexture2DGather[2];
	int maxTexture3D[3];
	int maxTexture3DAlt[3];
	int maxTextureCubemap;
	int maxTexture1DLayered[2];
	int maxTexture2DLayered[3];
	int maxTextureCubemapLayered[2];
	int maxSurface1D;
	int maxSurface2D[2];
	int maxSurface3D[3];
	int maxSurface1DLayered[2];
	int maxSurface2DLayered[3];
	int maxSurfaceCubemap;
	int maxSurfaceCubemapLayered[2];
	size_t surfaceAlignment;
	int concurrentKernels;
	int ECCEnabled;
	int pciBusID;
	int pciDeviceID;
	int pciDomainID;
	int tccDriver;
	int asyncEngineCount;
	int unifiedAddressing;
	int memoryBusWidth;
	int l2CacheSize;
	int persistingL2CacheMaxSize;
	int maxThreadsPerMultiProcessor;
	int streamPrioritiesSupported;
	int globalL1CacheSupported;
	int localL1CacheSupported;
	size_t sharedMemPerMultiprocessor;
	int regsPerMultiprocessor;
	int managedMemory;
	int isMultiGpuBoard;
	int multiGpuBoardGroupID;
	int hostNativeAtomicSupported;
	int pageableMemoryAccess;
	int concurrentManagedAccess;
	int computePreemptionSupported;
	int canUseHostPointerForRegisteredMem;
	int cooperativeLaunch;
	size_t sharedMemPerBlockOptin;
	int pageableMemoryAccessUsesHostPageTables;
	int directManagedMemAccessFromHost;
	int maxBlocksPerMultiProcessor;
	int accessPolicyMaxWindowSize;
	size_t reservedSharedMemPerBlock;
	int hostRegisterSupported;
	int sparseCudaArraySupported;
	int hostRegisterReadOnlySupported;
	int timelineSemaphoreInteropSupported;
	int memoryPoolsSupported;
	int gpuDirectRDMASupported;
	unsigned int gpuDirectRDMAFlushWritesOptions;
	int gpuDirectRDMAWritesOrdering;
	unsigned int memoryPoolSupportedHandleTypes;
	int deferredMappingCudaArraySupported;
	int ipcEventSupported;
	int clusterLaunch;
	int unifiedFunctionPointers;
	int deviceNumaConfig;
	int deviceNumaId;
	int mpsEnabled;
	int hostNumaId;
	unsigned int gpuPciDeviceID;
	unsigned int gpuPciSubsystemID;
	int hostNumaMultinodeIpcSupported;
	int reserved[56];
};
_Static_assert(sizeof(struct cudaDeviceProp) == 1008, "CUDA 13.0 cudaDeviceProp size");
_Static_assert(offsetof(struct cudaDeviceProp, totalGlobalMem) == 288, "");
_Static_assert(offsetof(struct cudaDeviceProp, sharedMemPerBlock) == 296, "");
_Static_assert(offsetof(struct cudaDeviceProp, regsPerBlock) == 304, "");
_Static_assert(offsetof(struct cudaDeviceProp, warpSize) == 308, "");
_Static_assert(offsetof(struct cudaDeviceProp, maxThreadsPerBlock) == 320, "");
_Static_assert(offsetof(struct cudaDeviceProp, maxGridSize) == 336, "");
_Static_assert(offsetof(struct cudaDeviceProp, totalConstMem) == 352, "");
_Static_assert(offsetof(struct cudaDeviceProp, major) == 360, "");
_Static_assert(offsetof(struct cudaDeviceProp, multiProcessorCount) == 384, "");
_Static_assert(offsetof(struct cudaDeviceProp, surfaceAlignment) == 552, "");
_Static_assert(offsetof(struct cudaDeviceProp, l2CacheSize) == 596, "");
_Static_assert(offsetof(struct cudaDeviceProp, maxThreadsPerMultiProcessor) == 604, "");
_Static_assert(offsetof(struct cudaDeviceProp, sharedMemPerMultiprocessor) == 624, "");
_Static_assert(offsetof(struct cudaDeviceProp, regsPerMultiprocessor) == 632, "");
_Static_assert(offsetof(struct cudaDeviceProp, managedMemory) == 636, "");
_Static_assert(offsetof(struct cudaDeviceProp, sharedMemPerBlockOptin) == 672, "");
_Static_assert(offsetof(struct cudaDeviceProp, maxBlocksPerMultiProcessor) == 688, "");
_Static_assert(offsetof(struct cudaDeviceProp, reservedSharedMemPerBlock) == 696, "");
_Static_assert(offsetof(struct cudaDeviceProp, hostNumaMultinodeIpcSupported) == 780, "");
_Static_assert(offsetof(struct cudaDeviceProp, reserved) == 784, "");

/* ---- textures, surfaces and arrays (driver_types.h, texture_types.h) ---- */
struct cudaChannelFormatDesc {
	int x, y, z, w;
	int f; /* enum cudaChannelFormatKind: 0 signed, 1 unsigned, 2 float */
};
struct cudaExtent {
	size_t width, height, depth;
};
struct cudaPos {
	size_t x, y, z;
};
struct cudaPitchedPtr {
	void *ptr;
	size_t pitch, xsize, ysize;
};
typedef struct ws_array *cudaArray_t; /* the runtime's opaque cudaArray is warpsim's array */
typedef unsigned long long cudaTextureObject_t, cudaSurfaceObject_t;
struct cudaResourceDesc {
	int resType; /* 0 array, 1 mipmapped array, 2 linear, 3 pitch-2D */
	union {
		struct {
			cudaArray_t array;
		} array;
		struct {
			void *devPtr;
			struct cudaChannelFormatDesc desc;
			size_t sizeInBytes;
		} linear;
		struct {
			void *devPtr;
			struct cudaChannelFormatDesc desc;
			size_t width, height, pitchInBytes;
		} pitch2D;
		int reserved[32];
	} res;
	unsigned flags;
};
_Static_assert(sizeof(struct cudaResourceDesc) == 144, "CUDA 13.0 cudaResourceDesc size");
_Static_assert(offsetof(struct cudaResourceDesc, res.linear.sizeInBytes) == 40, "");
_Static_assert(offsetof(struct cudaResourceDesc, res.pitch2D.pitchInBytes) == 56, "");
_Static_assert(offsetof(struct cudaResourceDesc, flags) == 136, "");
struct cudaTextureDesc {
	int addressMode[3]; /* 0 wrap, 1 clamp, 2 mirror, 3 border */
	int filterMode;     /* 0 point, 1 linear */
	int readMode;       /* 0 element type, 1 normalized float */
	int sRGB;
	float borderColor[4];
	int normalizedCoords;
	unsigned maxAnisotropy;
	int mipmapFilterMode;
	float mipmapLevelBias, minMipmapLevelClamp, maxMipmapLevelClamp;
	int disableTrilinearOptimization;
	int seamlessCubemap;
};
_Static_assert(sizeof(struct cudaTextureDesc) == 72, "CUDA 13.0 cudaTextureDesc size");
_Static_assert(offsetof(struct cudaTextureDesc, borderColor) == 24, "");
_Static_assert(offsetof(struct cudaTextureDesc, normalizedCoords) == 40, "");
struct cudaMemcpy3DParms {
	cudaArray_t srcArray;
	struct cudaPos srcPos;
	struct cudaPitchedPtr srcPtr;
	cudaArray_t dstArray;
	struct cudaPos dstPos;
	struct cudaPitchedPtr dstPtr;
	struct cudaExtent extent;
	int kind;
};
_Static_assert(sizeof(struct cudaMemcpy3DParms) == 160, "CUDA 13.0 cudaMemcpy3DParms size");
_Static_assert(offsetof(struct cudaMemcpy3DParms, dstPtr) == 96, "");
_Static_assert(offsetof(struct cudaMemcpy3DParms, kind) == 152, "");

#endif
