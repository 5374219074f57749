/*
 * warpsim.h -- public runtime API of the warpsim GPU simulator.
 *
 * Modelled on the CUDA driver API: a simulator object plays the role of a
 * context, modules are loaded from PTX, functions are looked up by name,
 * device memory is allocated and copied explicitly, and kernels are launched
 * with an array of pointers to their parameters.  A complete program
 * (tests/test_api_misuse.c compiles it; the README's example also runs):
 *
 * --- example: include/warpsim.h ---
 *   #include <stdio.h>
 *   #include "warpsim.h"
 *
 *   // Add two vectors with the vecadd kernel of a PTX file; 0 on success.
 *   int vecadd(const char *ptx_path, const float *a, const float *b, float *c, int n)
 *   {
 *       size_t bytes = (size_t)n * sizeof(float);
 *       char err[512];
 *       ws_sim *sim = NULL;
 *       ws_config *cfg = wsConfigCreate();
 *       if (!cfg || wsConfigSet(cfg, "warp_size", "32", err, sizeof err) != WS_SUCCESS) {
 *           fprintf(stderr, "%s\n", cfg ? err : "out of memory");
 *           wsConfigDestroy(cfg);
 *           return 1;
 *       }
 *       ws_result r = wsSimCreate(&sim, cfg);
 *       wsConfigDestroy(cfg); // the simulator keeps its own copy
 *       ws_module *mod;
 *       ws_function *fn;
 *       ws_deviceptr d[3] = {0, 0, 0};
 *       if (r == WS_SUCCESS) r = wsModuleLoad(sim, &mod, ptx_path);
 *       if (r == WS_SUCCESS) r = wsModuleGetFunction(&fn, mod, "vecadd");
 *       for (int k = 0; k < 3 && r == WS_SUCCESS; k++) r = wsMemAlloc(sim, &d[k], bytes);
 *       if (r == WS_SUCCESS) r = wsMemcpyHtoD(sim, d[0], a, bytes);
 *       if (r == WS_SUCCESS) r = wsMemcpyHtoD(sim, d[1], b, bytes);
 *       void *args[] = {&d[0], &d[1], &d[2], &n};
 *       if (r == WS_SUCCESS) r = wsLaunchKernel(fn, (unsigned)(n + 255) / 256, 1, 1, 256, 1, 1, 0, args);
 *       if (r == WS_SUCCESS) r = wsMemcpyDtoH(sim, c, d[2], bytes);
 *       if (r != WS_SUCCESS)
 *           fprintf(stderr, "%s: %s\n", wsGetErrorName(r), sim ? wsSimLastError(sim) : wsGetErrorString(r));
 *       wsSimDestroy(sim); // frees its modules and device memory
 *       return r != WS_SUCCESS;
 *   }
 * --- end of example ---
 *
 * Every call returns a ws_result.  On failure, wsSimLastError() returns a
 * human-readable message with the details (file:line:col for PTX errors;
 * kernel, CTA, thread, PC, PTX line and address for bad device accesses).
 * The library never exits or aborts on user input.
 *
 * Handles.  ws_config, ws_sim, ws_module, ws_function and ws_array are
 * handles: pointers the library hands out and checks on every call.  A NULL
 * handle, one that was destroyed (wsConfigDestroy, wsSimDestroy,
 * wsModuleUnload -- which also ends its functions --, wsArrayDestroy, or its
 * simulator's wsSimDestroy), or a handle of another type (a ws_config *
 * passed as a ws_sim *) is refused with WS_ERROR_INVALID_HANDLE; where a
 * live simulator owns the handle, wsSimLastError says why ("wsLaunchKernel:
 * the module was unloaded (wsModuleUnload), ...").  Calls that return no
 * ws_result do nothing for a bad handle and return NULL, 0 or "" (the
 * destroy calls: a second destroy does nothing); wsSimLastError of a bad
 * simulator handle says what is wrong with it.  The checks read a
 * process-wide registry of live handles, never the memory a handle points
 * to, so they are safe for any pointer value.  Limits: a handle is an
 * address, so once a simulator or configuration has been destroyed, a later
 * one may be created at the same address and its old handle then names the
 * new object (as with free() and malloc(): do not keep destroyed handles);
 * modules, functions and arrays are never reused while their simulator
 * lives.  The calls may be made from several threads on different
 * simulators; one simulator and its handles are used by one thread at a
 * time, and a handle must not be destroyed while another thread uses it.
 * wsSimConfig's configuration belongs to the simulator: wsConfigDestroy
 * ignores it.  Texture and surface objects (ws_texobject, ws_surfobject)
 * are numbers checked against their simulator's table.
 */
#ifndef WARPSIM_H
#define WARPSIM_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define WS_RESULTS(X)                                                                  \
	X(WS_SUCCESS, "no error")                                                      \
	X(WS_ERROR_INVALID_VALUE, "invalid argument")                                  \
	X(WS_ERROR_OUT_OF_MEMORY, "out of memory")                                     \
	X(WS_ERROR_FILE_NOT_FOUND, "file not found or unreadable")                     \
	X(WS_ERROR_INVALID_PTX, "malformed PTX")                                       \
	X(WS_ERROR_UNSUPPORTED_PTX, "PTX uses an instruction or feature warpsim does not implement") \
	X(WS_ERROR_NOT_FOUND, "named symbol not found")                                \
	X(WS_ERROR_INVALID_CONFIG, "invalid configuration")                            \
	X(WS_ERROR_LAUNCH_OUT_OF_RESOURCES, "launch exceeds the resources of an SM")   \
	X(WS_ERROR_INVALID_LAUNCH, "invalid launch geometry or parameters")            \
	X(WS_ERROR_ILLEGAL_ADDRESS, "out-of-bounds device memory access")              \
	X(WS_ERROR_MISALIGNED_ADDRESS, "misaligned device memory access")              \
	X(WS_ERROR_ILLEGAL_INSTRUCTION, "illegal instruction at run time")             \
	X(WS_ERROR_TRAP, "kernel executed trap")                                       \
	X(WS_ERROR_DEADLOCK, "kernel deadlocked")                                      \
	X(WS_ERROR_LIMIT_EXCEEDED, "simulation limit exceeded")                        \
	X(WS_ERROR_VERIFY_FAILED, "result verification failed")                        \
	X(WS_ERROR_INTERNAL, "internal simulator error")                               \
	X(WS_ERROR_INVALID_HANDLE, "invalid handle (NULL, destroyed, or of another type)") \
	X(WS_ERROR_NOT_A_FILE, "path is a directory, device or other non-regular file")

typedef enum ws_result {
#define WS_X(e, s) e,
	WS_RESULTS(WS_X)
#undef WS_X
	WS_RESULT_COUNT
} ws_result;

typedef uint64_t ws_deviceptr;
typedef struct ws_config ws_config;
typedef struct ws_sim ws_sim;
typedef struct ws_module ws_module;
typedef struct ws_function ws_function;

/* Short description of a result code ("out-of-bounds device memory access"). */
const char *wsGetErrorString(ws_result r);
/* Name of a result code ("WS_ERROR_ILLEGAL_ADDRESS"). */
const char *wsGetErrorName(ws_result r);

/* ---- configuration: every parameter declared once, in src/config/params.def or the .def of its domain ---- */
ws_config *wsConfigCreate(void); /* all parameters at their defaults */
void wsConfigDestroy(ws_config *cfg);
ws_config *wsConfigClone(const ws_config *cfg);
/* Load "key = value" lines (# comments).  Errors name file:line and the key. */
ws_result wsConfigLoadFile(ws_config *cfg, const char *path, char *err, size_t errsz);
/* Set one parameter from text; unknown keys and out-of-range values are
 * errors, and so is a value wsSimCreate would refuse that can be checked on
 * its own: an unknown `sched` or `fetch` policy (or a wrapper without its
 * inner policy, or wrapping a wrapper), a warp_size other than 8, 16, 32 or
 * 64.  The message names the parameter, the value and the valid choices;
 * the parameter keeps its old value.  Config files (wsConfigLoadFile) are
 * read through it, so their errors also give file:line. */
ws_result wsConfigSet(ws_config *cfg, const char *key, const char *value, char *err, size_t errsz);
/* Value of a parameter as text (NULL if unknown). buf must hold 64 bytes. */
const char *wsConfigGet(const ws_config *cfg, const char *key, char *buf, size_t bufsz);
/* Check the configuration as a whole: each parameter's own check (those of
 * wsConfigSet), then those of several parameters (DWR sizes against
 * warp_size, consistent memory geometry...).  wsSimCreate performs the same
 * check and fails with WS_ERROR_INVALID_CONFIG; call this first to get the
 * message. */
ws_result wsConfigCheck(const ws_config *cfg, char *err, size_t errsz);
/* Hash of every parameter's value: the "config_hash" of the stats JSON
 * (wsStatsWriteJSON); equal configurations have equal hashes (0 if cfg is not
 * a live configuration). */
uint64_t wsConfigHash(const ws_config *cfg);
/* Print every parameter (name, type, default, range, help). */
void wsConfigPrintList(FILE *out);
/* Print the effective configuration as "key = value" lines. */
void wsConfigPrint(const ws_config *cfg, FILE *out);
/* Host cores this process may run on: its CPU affinity mask, at most its
 * cgroup's CPU quota (rounded up); at least 1.  `threads = 0` ticks the SMs
 * on this many host threads; a larger `threads` is used as given (the
 * `warpsim` command caps it to this, with a warning, unless --oversubscribe). */
unsigned wsHostCores(void);

/* Names of the registered warp-scheduling (issue) and fetch policies:
 * the i-th name, or NULL past the end.  wsSchedPolicyName lists the plain
 * policies (usable alone); wsSchedWrapperName the wrappers, which are used
 * as WRAPPER:INNER with a plain INNER (e.g. bows:gto). */
const char *wsSchedPolicyName(int i);
const char *wsSchedPolicyDescription(int i);
const char *wsSchedWrapperName(int i);
const char *wsSchedWrapperDescription(int i);
/* WS_SUCCESS if `name` is a valid `sched` setting (NAME or WRAPPER:INNER);
 * otherwise a message naming the problem and the choices in err. */
ws_result wsSchedCheck(const char *name, char *err, size_t errsz);
const char *wsFetchPolicyName(int i);
const char *wsFetchPolicyDescription(int i);
/* The k-th statistic the i-th warp-scheduling policy exports (as wsStatsGet
 * names it; present in the statistics of runs that use the policy):
 * written to buf, 0 past the end. */
int wsSchedPolicyCounterName(int i, int k, char *buf, size_t bufsz);
/* The same for the i-th wrapper's own counters (its inner policy's follow
 * them in a run, under the inner policy's names). */
int wsSchedWrapperCounterName(int i, int k, char *buf, size_t bufsz);

/* ---- simulator (context) ---- */
ws_result wsSimCreate(ws_sim **out, const ws_config *cfg);
void wsSimDestroy(ws_sim *sim);
/* Detailed message for the last failed call on this simulator ("" if none). */
const char *wsSimLastError(const ws_sim *sim);
const ws_config *wsSimConfig(const ws_sim *sim);
/* Where device printf output goes (default stdout; NULL discards it).  Each
 * thread's line is written when its printf executes, warps in simulation
 * order and threads in lane order. */
void wsSimSetPrintfStream(ws_sim *sim, FILE *out);

/* Where a running launch is, for a caller that shows progress (`warpsim run`
 * and `exec` print it on stderr during long runs). */
typedef struct {
	unsigned long long launch;       /* the launch number on this simulator, from 1 */
	unsigned long long cycle;        /* timing model: core cycles of this launch so far; functional: 0 */
	unsigned long long warp_insts;   /* warp instructions of this launch so far */
	unsigned long long ctas_done;    /* CTAs of this launch that have finished ... */
	unsigned long long ctas_total;   /* ... of this many */
} ws_progress;
typedef void (*ws_progress_fn)(void *user, const ws_progress *p);
/* Call fn(user, &p) during every launch, every WS_PROGRESS_PERIOD simulated
 * cycles (functional model: warp instructions), from the thread that called
 * the launch; NULL: never (the default).  Nothing of the simulation depends
 * on it: every statistic is the same with and without. */
#define WS_PROGRESS_PERIOD 4096
void wsSimSetProgress(ws_sim *sim, ws_progress_fn fn, void *user);

/* ---- modules ---- */
/* Largest PTX file wsModuleLoad reads (the environment variable
 * WARPSIM_PTX_MAX_MB, 1..65536, overrides it; another non-empty value makes
 * wsModuleLoad fail with WS_ERROR_INVALID_VALUE).  wsModuleLoad also refuses
 * directories and devices (WS_ERROR_NOT_A_FILE), files with NUL bytes, and
 * text that is not a PTX module (no .version or .target directive). */
#define WS_PTX_MAX_BYTES ((size_t)256 << 20)
ws_result wsModuleLoad(ws_sim *sim, ws_module **out, const char *path);
/* `name` is used in diagnostics (file:line:col); may be NULL. */
ws_result wsModuleLoadData(ws_sim *sim, ws_module **out, const char *ptx, const char *name);
/* wsModuleLoadData with the registers per thread ptxas assigned its kernels
 * (what a fat binary's SASS says): `regs` holds "KERNEL REGISTERS" lines
 * ('#' comments; kernels the PTX lacks are skipped), `regs_origin` names
 * where they came from (e.g. "sm_75").  Used for the occupancy with
 * reg_counts = ptxas and reported with either setting (wsLaunchOccupancy);
 * malformed text is a module warning, not an error.  Register counts are
 * otherwise found as docs/timing.md (Occupancy) says: wsModuleLoad reads
 * KERNEL.regs beside KERNEL.ptx; the bundled benchmarks' are built in. */
ws_result wsModuleLoadDataRegs(ws_sim *sim, ws_module **out, const char *ptx, const char *name, const char *regs,
                               const char *regs_origin);
ws_result wsModuleUnload(ws_module *mod);
/* Warnings of a loaded module, "" if none: "file:line:col: warning: ..."
 * lines, e.g. for a PTX ISA version or target newer than warpsim knows. */
const char *wsModuleWarnings(const ws_module *mod);
/* The kernel (.entry) `name`; WS_ERROR_NOT_FOUND for another name, with a
 * message saying whether it is a device function (.func) and listing the
 * kernels. */
ws_result wsModuleGetFunction(ws_function **out, ws_module *mod, const char *name);
/* Device address and size of a module-scope .global variable (.const
 * variables live in the constant bank, which has no device address: use
 * wsMemcpyToSymbol / wsMemcpyFromSymbol for them). */
ws_result wsModuleGetGlobal(ws_deviceptr *dptr, size_t *bytes, ws_module *mod, const char *name);
/* Copy to / from a module-scope .global or .const variable (cudaMemcpyToSymbol). */
ws_result wsMemcpyToSymbol(ws_module *mod, const char *name, const void *src, size_t bytes, size_t offset);
ws_result wsMemcpyFromSymbol(ws_module *mod, const char *name, void *dst, size_t bytes, size_t offset);

/* Print a summary of a loaded module: each function (kind, parameters with
 * sizes, registers, instructions, static shared/local memory), variables. */
void wsModulePrintSummary(const ws_module *mod, FILE *out);
/* Number of functions / name of function i (entries and device functions). */
int wsModuleFunctionCount(const ws_module *mod);
const char *wsModuleFunctionName(const ws_module *mod, int i);

/* Information about a kernel's parameters. */
int wsFunctionParamCount(const ws_function *f);
/* Size in bytes of parameter i, or 0 if out of range. */
size_t wsFunctionParamSize(const ws_function *f, int i);
const char *wsFunctionName(const ws_function *f);
/* Resources of a kernel as the simulator accounts them (for
 * cudaFuncGetAttributes). */
typedef struct ws_function_info {
	size_t shared_static_bytes;     /* static shared memory per CTA */
	size_t const_bytes;             /* the module's constant bank */
	size_t local_bytes;             /* per-thread frame: locals and call parameters */
	size_t param_bytes;             /* kernel parameter buffer */
	unsigned regs_per_thread;       /* registers per thread for occupancy (regs_per_thread, else see reg_counts) */
	const char *regs_source;        /* their source, as ws_occupancy's regs_source */
	unsigned max_threads_per_block; /* largest CTA it can be launched with (limits, .maxntid/.reqntid, registers) */
} ws_function_info;
ws_result wsFunctionGetInfo(const ws_function *f, ws_function_info *info);
/* Spin-inducing branches (ground truth for BOWS/DDOS, docs/bows.md).  A
 * branch is named by its pc: the index of the instruction in the function's
 * body (0 = first instruction; the numbering of exec events and `warpsim
 * ptx --dump`).  wsFunctionBackwardBranches lists the function's backward
 * branches (bra/brx whose target is at or before them): their pcs and,
 * if lines is not NULL, the PTX source line of each; it returns how many
 * there are (writing at most cap).  wsFunctionSetSpinBranches replaces the
 * function's annotated list (n = 0 clears it); every pc must be one of its
 * backward branches, else WS_ERROR_INVALID_VALUE and nothing changes.
 * Every later launch of the module hands the list to the scheduling policy
 * (sched_create_args.sibs): `--set bows_sib=annotated` backs off on exactly
 * these branches, and DDOS counts its detections against them (TSDR,
 * FSDR).  Only kernel bodies (.entry) can be annotated. */
int wsFunctionBackwardBranches(const ws_function *f, int32_t *pcs, uint32_t *lines, unsigned cap);
ws_result wsFunctionSetSpinBranches(ws_function *f, const int32_t *pcs, unsigned n);
/* The annotated list (sorted by pc): returns its length, writing at most cap pcs. */
int wsFunctionGetSpinBranches(const ws_function *f, int32_t *pcs, unsigned cap);
/* CTAs of blockThreads threads with sharedMemBytes of dynamic shared memory
 * that fit on one SM at once under the simulator's configuration (the limit
 * wsLaunchKernel applies; 0 if even one does not fit).  For
 * cudaOccupancyMaxActiveBlocksPerMultiprocessor. */
ws_result wsFunctionOccupancy(const ws_function *f, unsigned blockThreads, size_t sharedMemBytes, unsigned *ctasPerSM);

/* ---- device memory ---- */
ws_result wsMemAlloc(ws_sim *sim, ws_deviceptr *dptr, size_t bytes);
ws_result wsMemFree(ws_sim *sim, ws_deviceptr dptr);
ws_result wsMemcpyHtoD(ws_sim *sim, ws_deviceptr dst, const void *src, size_t bytes);
ws_result wsMemcpyDtoH(ws_sim *sim, void *dst, ws_deviceptr src, size_t bytes);
ws_result wsMemcpyDtoD(ws_sim *sim, ws_deviceptr dst, ws_deviceptr src, size_t bytes);
ws_result wsMemsetD8(ws_sim *sim, ws_deviceptr dst, uint8_t value, size_t count);
ws_result wsMemsetD32(ws_sim *sim, ws_deviceptr dst, uint32_t value, size_t count);

/* ---- textures and surfaces (CUDA texture and surface objects) ----
 * Shaped like the CUDA runtime's cudaMalloc3DArray / cudaCreateTextureObject /
 * cudaCreateSurfaceObject.  A handle is a nonzero 64-bit value that a kernel
 * receives as a parameter (cudaTextureObject_t) or finds in a .texref /
 * .surfref module variable (write it there with wsMemcpyToSymbol).  Arrays
 * live in device memory, texels packed x fastest, then y, then z or layer
 * (cube maps: 6 faces per layer, in the order +x -x +y -y +z -z). */
typedef uint64_t ws_texobject;
typedef uint64_t ws_surfobject;
typedef struct ws_array ws_array;
typedef enum ws_channel_kind { WS_CHANNEL_SIGNED = 0, WS_CHANNEL_UNSIGNED = 1, WS_CHANNEL_FLOAT = 2 } ws_channel_kind;
/* Bits per channel x, y, z, w (0 = absent; channels present are equal:
 * 8, 16 or 32, float 16 (half) or 32), as cudaChannelFormatDesc. */
typedef struct ws_channel_format {
	int x, y, z, w;
	ws_channel_kind f;
} ws_channel_format;
enum { WS_ARRAY_LAYERED = 1, WS_ARRAY_SURFACE_LDST = 2, WS_ARRAY_CUBEMAP = 4 }; /* = cudaArrayLayered ... */
/* height 0: 1D; depth 0: 1D/2D; LAYERED: depth is the number of layers;
 * CUBEMAP: width == height and depth 6 (6 x layers with LAYERED). */
ws_result wsArrayCreate(ws_sim *sim, ws_array **out, const ws_channel_format *fmt, size_t width, size_t height,
			size_t depth, unsigned flags);
ws_result wsArrayDestroy(ws_array *a);
/* Copy the whole array (bytes must equal its size: texels x element size). */
ws_result wsMemcpyToArray(ws_array *a, const void *src, size_t bytes);
ws_result wsMemcpyFromArray(void *dst, ws_array *a, size_t bytes);
/* What an array is (cudaArrayGetInfo): its texels' device address and size,
 * format, extent and flags as created. */
typedef struct ws_array_info {
	ws_deviceptr dptr;
	size_t bytes;
	ws_channel_format format;
	size_t width, height, depth;
	unsigned flags;
} ws_array_info;
ws_result wsArrayGetInfo(const ws_array *a, ws_array_info *info);

typedef enum ws_resource_type {
	WS_RESOURCE_ARRAY = 0, WS_RESOURCE_LINEAR = 2, WS_RESOURCE_PITCH2D = 3 /* = cudaResourceType */
} ws_resource_type;
typedef struct ws_resource_desc {
	ws_resource_type type;
	ws_array *array;          /* ARRAY */
	ws_deviceptr ptr;         /* LINEAR, PITCH2D */
	ws_channel_format format; /* LINEAR, PITCH2D */
	size_t size_bytes;        /* LINEAR */
	size_t width, height;     /* PITCH2D, in texels */
	size_t pitch_bytes;       /* PITCH2D */
} ws_resource_desc;
typedef enum ws_address_mode {
	WS_ADDRESS_WRAP = 0, WS_ADDRESS_CLAMP = 1, WS_ADDRESS_MIRROR = 2, WS_ADDRESS_BORDER = 3 /* = cudaTextureAddressMode */
} ws_address_mode;
typedef enum ws_filter_mode { WS_FILTER_POINT = 0, WS_FILTER_LINEAR = 1 } ws_filter_mode;
typedef enum ws_read_mode { WS_READ_ELEMENT_TYPE = 0, WS_READ_NORMALIZED_FLOAT = 1 } ws_read_mode;
typedef struct ws_texture_desc {
	ws_address_mode address_mode[3]; /* wrap and mirror act as clamp without normalized coordinates */
	ws_filter_mode filter_mode;      /* linear needs a float result (float format or normalized-float read) */
	ws_read_mode read_mode;          /* normalized float: 8/16-bit integers read as [0,1] or [-1,1] */
	int normalized_coords;
	float border_color[4];
} ws_texture_desc;
ws_result wsTextureCreate(ws_sim *sim, ws_texobject *out, const ws_resource_desc *res, const ws_texture_desc *desc);
ws_result wsTextureDestroy(ws_sim *sim, ws_texobject tex);
/* Surfaces need an array created with WS_ARRAY_SURFACE_LDST. */
ws_result wsSurfaceCreate(ws_sim *sim, ws_surfobject *out, const ws_resource_desc *res);
ws_result wsSurfaceDestroy(ws_sim *sim, ws_surfobject surf);

/* Size of the device heap that device-side malloc/new allocate from (8 MiB
 * by default, as CUDA's cudaLimitMallocHeapSize); not below what is in use. */
ws_result wsSimSetMallocHeapSize(ws_sim *sim, size_t bytes);

/* ---- launch ---- */
/* params[i] points to the value of kernel parameter i (as cuLaunchKernel).
 * Runs to completion (synchronous).  A kernel that is only declared (no body)
 * is WS_ERROR_INVALID_LAUNCH naming its file:line. */
ws_result wsLaunchKernel(ws_function *f, unsigned gridX, unsigned gridY, unsigned gridZ, unsigned blockX,
			 unsigned blockY, unsigned blockZ, unsigned sharedMemBytes, void **params);
/* As wsLaunchKernel, with cudaLaunchCooperativeKernel semantics: every CTA of
 * the grid must fit on the GPU at once (WS_ERROR_INVALID_LAUNCH otherwise,
 * saying how many can), and grid-wide synchronisation (cooperative groups'
 * grid.sync(), which traps in an ordinary launch) works. */
ws_result wsLaunchCooperativeKernel(ws_function *f, unsigned gridX, unsigned gridY, unsigned gridZ, unsigned blockX,
				    unsigned blockY, unsigned blockZ, unsigned sharedMemBytes, void **params);

/* ---- statistics: every counter declared once, in src/stats/counters.def or the .def of its domain ---- */
/* Value of a named counter, accumulated over all launches since creation or
 * the last wsStatsReset.  WS_ERROR_NOT_FOUND for unknown names. */
ws_result wsStatsGet(const ws_sim *sim, const char *name, uint64_t *value);
void wsStatsReset(ws_sim *sim);
/* What the timing model did on the host since creation or the last
 * wsStatsReset -- not a statistic of the simulated GPU: SM ticks it ran,
 * cycles of busy SMs it skipped because nothing could happen in them, and
 * core cycles it skipped whole because nothing could happen anywhere (the
 * `sleep` parameter; the statistics are the same either way).  Any pointer
 * may be NULL. */
void wsSimHostWork(const ws_sim *sim, uint64_t *sm_ticks, uint64_t *sm_slept, uint64_t *cycles_skipped);
/* Value of a named derived metric (ipc, barrier_stall_fraction, rtru_mean, ...:
 * the "derived" section of wsStatsPrint and wsStatsWriteJSON, declared once
 * in src/stats/derived.def), computed from the counters.  WS_ERROR_NOT_FOUND
 * for unknown names. */
ws_result wsStatsGetDerived(const ws_sim *sim, const char *name, double *value);
/* Per launch, in launch order since creation or the last wsStatsReset: how many,
 * the kernel's name (NULL if no such launch), and the value of a counter of
 * the .def files in that launch alone (WS_ERROR_NOT_FOUND for no such
 * launch or counter; policies' exported counters are kept only in total). */
unsigned wsLaunchCount(const ws_sim *sim);
const char *wsLaunchKernelName(const ws_sim *sim, unsigned launch);
ws_result wsLaunchStatsGet(const ws_sim *sim, unsigned launch, const char *name, uint64_t *value);
/* Every counter of the .def files in that launch alone, as one JSON object
 * on one line ({"cycles": N, ...}, the order of wsStatsWriteJSON's "stats";
 * no newline): GPGPU-Sim's per-kernel statistics.  WS_ERROR_NOT_FOUND for
 * no such launch. */
ws_result wsLaunchStatsWriteJSON(const ws_sim *sim, unsigned launch, FILE *out);
/* The occupancy of a launch (as GPGPU-Sim's "CTA/core = N, limited by: regs"):
 * CTAs per SM, the parameter that limits them, and the registers per thread
 * it used with their source -- "config" (regs_per_thread), "estimate" (the
 * PTX estimate), or ptxas's count (reg_counts = ptxas): "sass" (the fat
 * binary's), "file" (a committed KERNEL.regs), "ptxas-cache", "ptxas".  With
 * the estimate, ptxas_regs is ptxas's count when it is known without
 * running ptxas (fat binary, committed file; 0 otherwise) and ptxas_ctas_per_sm
 * the CTAs per SM it would give.  The strings stay valid until
 * wsStatsReset or wsSimDestroy.  WS_ERROR_NOT_FOUND for no such launch. */
typedef struct ws_occupancy {
	unsigned ctas_per_sm;
	const char *limit; /* max_ctas_per_sm, max_threads_per_sm, max_warps_per_sm, regs_per_sm, shmem_per_sm */
	unsigned regs_per_thread;
	const char *regs_source;
	unsigned ptxas_regs;      /* 0: none known, or it is the one in use */
	const char *ptxas_source; /* "" if none */
	unsigned ptxas_ctas_per_sm;
	const char *ptxas_limit; /* "" if none */
	const char *origin;      /* file or architecture of ptxas's count ("" if none) */
	char text[384];          /* all of it in words, as `warpsim run` prints it */
} ws_occupancy;
ws_result wsLaunchOccupancy(const ws_sim *sim, unsigned launch, ws_occupancy *occ);
/* One line per kernel and occupancy of the launches so far, in the order of
 * first launch: "PREFIXKERNEL: TEXT" ("KERNEL (N launches)" when several),
 * TEXT as ws_occupancy's (`warpsim run`'s "occupancy: " lines). */
void wsOccupancyPrint(const ws_sim *sim, FILE *out, const char *prefix);
/* Human-readable summary / JSON with every counter and the effective configuration. */
void wsStatsPrint(const ws_sim *sim, FILE *out);
ws_result wsStatsWriteJSON(const ws_sim *sim, FILE *out);

/* ---- warp-phase timelines (config trace_phases=1 records them) ---- */
/* Warp-phase records kept, and records past trace_max_events that were
 * dropped (either pointer may be NULL). */
ws_result wsTraceInfo(const ws_sim *sim, uint64_t *records, uint64_t *dropped);
/* Chrome trace-event JSON of every recorded warp-phase (open in Perfetto). */
ws_result wsTraceWriteChrome(const ws_sim *sim, FILE *out);
/* SVG timeline: warps (y) against cycles (x) for launch `launch` (0 = the
 * last), SM `sm`, CTAs cta_lo..cta_hi; each warp-phase coloured (with a
 * legend), barrier and exit waits drawn in grey and black, and a visible
 * INCOMPLETE mark when records past trace_max_events were dropped.  When no
 * record matches the selection, the SVG still says why and the call returns
 * WS_ERROR_NOT_FOUND with the reason (which launches, SMs and CTAs have
 * records) in wsSimLastError. */
ws_result wsTimelineWriteSVG(ws_sim *sim, FILE *out, unsigned launch, unsigned sm, unsigned cta_lo, unsigned cta_hi);

#ifdef __cplusplus
}
#endif
#endif
