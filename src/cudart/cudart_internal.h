/*
 * cudart_internal.h -- the state and the shared helpers of the CUDA runtime
 * library (src/cudart/), private to it.
 *
 * Models no hardware (see cudart.c for what the library does).  Which file
 * implements what:
 *   cudart.c          the context G, its lock, errors, creating the
 *                     simulator on first use, the unsupported calls
 *   cudart_module.c   fat-binary registration, modules, functions, symbols
 *   cudart_memory.c   device, managed and host memory, copies, memset,
 *                     pitched and stream-ordered memory
 *   cudart_launch.c   launches, <<<>>> configurations, occupancy, function
 *                     attributes; the per-launch statistics printed and
 *                     written at exit
 *   cudart_device.c   host work in stream order, settings, synchronisation,
 *                     streams, events, device properties
 *   cudart_texture.c  arrays, textures and surfaces
 */
#ifndef WARPSIM_CUDART_INTERNAL_H
#define WARPSIM_CUDART_INTERNAL_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cudart/cuda_abi.h"
#include "cudart/fatbin.h"
#include "warpsim.h"

#define EXPORT __attribute__((visibility("default")))
#define PFX "warpsim cudart: "
#define MAX_PTX_ARCH 120 /* highest virtual architecture warpsim takes (compute_120) */
#define PAGE 4096u
#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000 /* Linux 4.17; older kernels ignore it and the address is checked */
#endif

typedef struct cr_stream *cudaStream_t;
typedef struct cr_event *cudaEvent_t;
typedef struct cr_func *cudaKernel_t;

struct cr_module {
	const void *wrapper;
	struct fatbin_ptx *ptx;
	int nptx;
	unsigned sass_arch;
	char *sass_regs;     /* registers per kernel of its SASS ("KERNEL REGISTERS" lines; NULL if none) */
	unsigned regs_arch;  /* the SASS architecture they are from */
	char *read_err;      /* reading the fat binary failed */
	ws_module **units;   /* loaded on first use: one module per translation unit */
	unsigned *unit_arch; /* architecture of each loaded PTX */
	int *unit_first;     /* index in ptx[] of each unit's first image; [nunits] = nptx */
	int *unit_err;       /* cudaError_t of a unit that failed to load */
	int nunits;
	int load_failed; /* cudaError_t, 0 if not tried or loaded */
};

struct cr_func {
	struct cr_module *m;
	const void *host; /* host stub address */
	char *name;       /* PTX name */
	ws_function *fn;
	unsigned arch; /* of the PTX that defines it */
	int max_dyn_shared;
};

struct cr_var {
	struct cr_module *m;
	const void *host;
	char *name;
	size_t size;
	int constant;
	ws_module *mod; /* the module that defines it, once found */
	void **managed; /* __managed__: where the host code reads the variable's address */
	void *fallback; /* __managed__ that could not be set up: zeroed host memory */
};

enum { A_DEVICE, A_MANAGED, A_HOST };
struct cr_alloc {
	int kind;
	uint64_t base; /* what wsMemAlloc returned (A_DEVICE, A_MANAGED); 0: a module variable, not freed */
	uint64_t ptr;  /* what the program got */
	size_t size;
	size_t maplen; /* A_MANAGED: bytes of the host shadow mapping */
};

struct cr_stream {
	unsigned id;
};
struct cr_event {
	uint64_t cycle;
	int recorded;
};

/* counters whose per-launch deltas are reported (K_NAMES, cudart_launch.c) */
enum { K_CYCLES, K_WARP, K_THREAD, K_ISSUE, K_STALL0, NK = 11 };

struct cr_launch {
	char *name;
	unsigned grid[3], block[3];
	size_t shared;
	unsigned stream;
	unsigned arch;  /* virtual architecture of the PTX it ran */
	uint64_t start; /* simulated cycle at which it started */
	uint64_t k[NK]; /* counter deltas */
	int err;
	int occ_launch; /* the simulator's launch index, for wsLaunchOccupancy (-1: it never ran) */
};

struct cr_call {
	dim3 grid, block;
	size_t shared;
	void *stream;
	pthread_t thread; /* each host thread pops its own configuration */
};

/* The runtime's one process-wide context (cudart.c). */
struct cr_ctx {
	int state; /* 0 not initialised, 1 ready, -1 failed, 2 torn down at exit */
	ws_sim *sim;
	double clock_mhz;
	int warp_size;
	struct cr_module **mods;
	int nmods;
	struct cr_func **funcs;
	int nfuncs;
	struct cr_var *vars;
	int nvars;
	struct cr_alloc *allocs;
	int nallocs;
	struct cr_launch *launches;
	int nlaunches;
	struct cr_call calls[64]; /* __cudaPushCallConfiguration stack (all host threads) */
	int ncalls;
	unsigned nstreams;              /* streams ever created (their ids) */
	struct cr_stream **live;        /* streams created and not destroyed: the valid handles */
	unsigned nlive, caplive;
	uint64_t now; /* simulated cycles so far */
	double wall;  /* host seconds spent in launches */
	cudaError_t last, sticky;
	int stats_fd; /* WARPSIM_STATS, opened for appending; -1 if none */
	const char *stats_path, *trace_path, *summary_path;
	int reported; /* this process's first call was recorded in WARPSIM_CUDART_REPORT */
	int quiet;
	uint64_t *mapped; /* host pages mapped for __managed__ variables */
	int nmapped;
	size_t limits[3]; /* cudaDeviceSetLimit values (no effect on the simulation) */
	int limit_set[3];
	unsigned device_flags;
	pthread_once_t once;  /* initialises lock */
	pthread_mutex_t lock; /* recursive: every entry point holds it (CR_API) */
};
extern struct cr_ctx G;

/* Take the lock; the first time in a process, also record in the file
 * named by WARPSIM_CUDART_REPORT (set by `warpsim cuda`) that the program's
 * CUDA calls reach this library. */
void cr_lock(void);
void cr_unlock(void);

/*
 * An entry point of the runtime, the one place that takes the lock:
 *
 *	CR_API(cudaError_t, cudaFree, (void *p), (p))
 *	{
 *		...body...
 *	}
 *
 * defines the exported cudaFree(void *p), which holds G's recursive lock
 * while the body (the static cudaFree_locked) runs: host threads may call the
 * runtime concurrently; they are serialised.  CR_API_VOID is the same for a
 * function that returns nothing.  The last argument lists the parameters'
 * names, in order.
 */
#define CR_API(type, name, params, args)                                                                               \
	static type name##_locked params;                                                                              \
	EXPORT type name params                                                                                        \
	{                                                                                                              \
		cr_lock();                                                                                             \
		type r_ = name##_locked args;                                                                          \
		cr_unlock();                                                                                           \
		return r_;                                                                                             \
	}                                                                                                              \
	static type name##_locked params
#define CR_API_VOID(name, params, args)                                                                                \
	static void name##_locked params;                                                                              \
	EXPORT void name params                                                                                        \
	{                                                                                                              \
		cr_lock();                                                                                             \
		name##_locked args;                                                                                    \
		cr_unlock();                                                                                           \
	}                                                                                                              \
	static void name##_locked params

/* a per-thread-default-stream variant (_ptsz, _ptds) of an implemented call:
 * the same function (warpsim has one in-order queue) */
#define CR_ALIAS(name, base) EXPORT __typeof__(base) name __attribute__((alias(#base)));

/* One line on stderr, prefixed "warpsim cudart: ". */
void cr_say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Record a failure as the last error; returns e. */
static inline cudaError_t ret(cudaError_t e)
{
	if (e != cudaSuccess)
		G.last = e;
	return e;
}

/* ---- context (cudart.c) ---- */

EXPORT const char *cudaGetErrorString(cudaError_t e);
EXPORT const char *cudaGetErrorName(cudaError_t e);

/* Create the simulator on first use.  cudaSuccess or the error to return. */
cudaError_t cr_init(void);
/* cr_init(), then the sticky error of a device fault */
cudaError_t cr_ready(void);
/* an integer configuration value of the simulator, or dflt */
int cr_cfg_int(const char *key, int dflt);

/* ---- modules (cudart_module.c) ---- */

struct cr_func *cr_find_func(const void *host);
cudaError_t cr_get_function(struct cr_func *f);

/* ---- memory (cudart_memory.c) ---- */

cudaError_t cr_add_alloc(struct cr_alloc a);
struct cr_alloc *cr_find_alloc(uint64_t p, int exact);
int cr_on_device(const void *p);
cudaError_t cr_copy(void *dst, const void *src, size_t n, int kind, const char *call);

/* ---- launches and exit (cudart_launch.c) ---- */

/* A stream handle's id (0 for the default streams: 0, cudaStreamLegacy,
 * cudaStreamPerThread); the handle must be valid (cr_stream_check). */
unsigned cr_stream_id(cudaStream_t s);
/* cudaSuccess for a default stream or a live stream created here, else
 * cudaErrorInvalidResourceHandle (a destroyed, foreign or garbage handle is
 * never dereferenced). */
cudaError_t cr_stream_check(cudaStream_t s);
cudaError_t cr_launch_kernel(struct cr_func *f, dim3 g, dim3 b, void **args, size_t shared, cudaStream_t s, int coop);
/* the exit handler: per-launch statistics, trace, summary, teardown */
void cr_at_exit(void);

/* ---- device (cudart_device.c) ---- */

/* The value of a cudaDeviceAttr (device_attrs.def); false if no device has it. */
bool cr_device_attribute(int attr, long long *value);

#endif
