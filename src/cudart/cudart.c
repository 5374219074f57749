/*
 * cudart.c -- a CUDA runtime library (libcudart.so.13) backed by warpsim, so
 * that a program built with `nvcc -cudart shared` runs unmodified on the
 * simulator (`warpsim cuda -- ./app`, or LD_LIBRARY_PATH=build).
 *
 * Models the CUDA runtime's host-side behaviour, not hardware: device
 * memory, copies, launches, streams and events are mapped onto warpsim's
 * public API (include/warpsim.h).  What it relies on and what it supports is
 * in docs/cuda.md.
 *
 *  - Registration: __cudaRegisterFatBinary hands over the fat binary; its
 *    PTX is read (fatbin.c) and loaded on first use, highest virtual
 *    architecture first (a lower one is tried if the simulator rejects it).
 *    __cudaRegisterFunction / __cudaRegisterVar map host stubs and shadow
 *    variables to PTX names.
 *  - The simulator is created on the first runtime call from the WARPSIM_*
 *    environment (set by `warpsim cuda`).  It holds the one process-wide
 *    context (struct cr_ctx G): a CUDA runtime is process-wide state by
 *    definition.  Host threads may call the runtime concurrently: every
 *    entry point holds G's recursive lock (CR_API), and each thread pops
 *    its own <<<>>> configuration.
 *  - Every operation completes before the call returns (the simulator is
 *    synchronous), so streams are trivially in order.  Simulated time
 *    advances only with kernels: events record the simulated cycle count
 *    and cudaEventElapsedTime converts it at the configured core clock.
 *  - Device faults (out-of-bounds access, trap, failed assert, deadlock)
 *    print warpsim's located report on stderr at the launch and become a
 *    sticky error returned by the next call, as on a GPU.
 *  - Managed memory (cudaMallocManaged, __managed__ variables) is device
 *    memory whose host shadow is mapped at the same address; the shadow is
 *    copied to the device before every launch and back after it.
 *  - Per-launch statistics: deltas of the simulator's counters around each
 *    launch, printed at exit, written as JSON lines (WARPSIM_STATS) and as a
 *    Perfetto trace of the launches (WARPSIM_TRACE); every counter over all
 *    launches with the effective configuration (WARPSIM_SUMMARY).
 *
 * The library never exits the program; unsupported calls print one line
 * naming the call and return cudaErrorNotSupported (unsupported.def).
 */
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cudart/cuda_abi.h"
#include "cudart/fatbin.h"
#include "stats/speed.h"
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

/* counters whose per-launch deltas are reported */
static const char *const K_NAMES[] = {"cycles",        "warp_insts",  "thread_insts",     "issue_cycles",
                                      "stall_control", "stall_data",  "stall_structural", "stall_barrier",
                                      "stall_exit",    "stall_fetch", "stall_idle"};
enum { K_CYCLES, K_WARP, K_THREAD, K_ISSUE, K_STALL0, NK = sizeof K_NAMES / sizeof K_NAMES[0] };

struct cr_launch {
	char *name;
	unsigned grid[3], block[3];
	size_t shared;
	unsigned stream;
	unsigned arch;  /* virtual architecture of the PTX it ran */
	uint64_t start; /* simulated cycle at which it started */
	uint64_t k[NK]; /* counter deltas */
	int err;
};

struct cr_call {
	dim3 grid, block;
	size_t shared;
	void *stream;
	pthread_t thread; /* each host thread pops its own configuration */
};

static struct cr_ctx {
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
	unsigned nstreams;
	uint64_t now; /* simulated cycles so far */
	double wall;  /* host seconds spent in launches */
	cudaError_t last, sticky;
	FILE *stats;
	const char *stats_path, *trace_path, *summary_path;
	int quiet;
	uint64_t *mapped; /* host pages mapped for __managed__ variables */
	int nmapped;
	size_t limits[3]; /* cudaDeviceSetLimit values (no effect on the simulation) */
	int limit_set[3];
	unsigned device_flags;
	pthread_once_t once;  /* initialises lock */
	pthread_mutex_t lock; /* recursive: every entry point holds it (CR_API) */
} G = {.once = PTHREAD_ONCE_INIT};

static void lock_init(void)
{
	pthread_mutexattr_t a;
	pthread_mutexattr_init(&a);
	pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
	pthread_mutex_init(&G.lock, &a);
	pthread_mutexattr_destroy(&a);
}

static void cr_lock(void)
{
	pthread_once(&G.once, lock_init);
	pthread_mutex_lock(&G.lock);
}

static void cr_unlock(void) { pthread_mutex_unlock(&G.lock); }

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

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
	va_list ap;
	fflush(stdout);
	fputs(PFX, stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static cudaError_t ret(cudaError_t e)
{
	if (e != cudaSuccess)
		G.last = e;
	return e;
}

/* ---- errors ---- */
EXPORT const char *cudaGetErrorString(cudaError_t e)
{
	switch ((int)e) {
#define CR_X(v, n, s)                                                                                                  \
	case v: return s;
		CR_ERRORS(CR_X)
#undef CR_X
	}
	return "unrecognized error code";
}

EXPORT const char *cudaGetErrorName(cudaError_t e)
{
	switch ((int)e) {
#define CR_X(v, n, s)                                                                                                  \
	case v: return #n;
		CR_ERRORS(CR_X)
#undef CR_X
	}
	return "cudaErrorUnknown";
}

CR_API(cudaError_t, cudaGetLastError, (void), ())
{
	cudaError_t e = G.sticky ? G.sticky : G.last;
	G.last = cudaSuccess;
	return e;
}

CR_API(cudaError_t, cudaPeekAtLastError, (void), ())
{
	return G.sticky ? G.sticky : G.last;
}

/* ---- context ---- */
static void at_exit(void);

static int config_from_env(ws_config *cfg)
{
	char err[512];
	const char *file = getenv("WARPSIM_CONFIG");
	if (file && *file && wsConfigLoadFile(cfg, file, err, sizeof err) != WS_SUCCESS) {
		say("error: WARPSIM_CONFIG=%s: %s", file, err);
		return -1;
	}
	const char *set = getenv("WARPSIM_SET");
	if (set && *set) {
		char *copy = strdup(set);
		if (!copy)
			return -1;
		for (char *save, *kv = strtok_r(copy, ";\n", &save); kv; kv = strtok_r(NULL, ";\n", &save)) {
			char *eq = strchr(kv, '=');
			if (!eq) {
				say("error: WARPSIM_SET: '%s' is not KEY=VALUE", kv);
				free(copy);
				return -1;
			}
			*eq = '\0';
			if (wsConfigSet(cfg, kv, eq + 1, err, sizeof err) != WS_SUCCESS) {
				say("error: WARPSIM_SET: %s", err);
				free(copy);
				return -1;
			}
		}
		free(copy);
	}
	static const char *const shortcut[][2] = {{"WARPSIM_SCHED", "sched"}, {"WARPSIM_FETCH", "fetch"}};
	for (int i = 0; i < 2; i++) {
		const char *v = getenv(shortcut[i][0]);
		if (v && *v && wsConfigSet(cfg, shortcut[i][1], v, err, sizeof err) != WS_SUCCESS) {
			say("error: %s=%s: %s", shortcut[i][0], v, err);
			return -1;
		}
	}
	if (wsConfigCheck(cfg, err, sizeof err) != WS_SUCCESS) {
		say("error: configuration: %s", err);
		return -1;
	}
	return 0;
}

/* Create the simulator on first use.  cudaSuccess or the error to return. */
static cudaError_t init(void)
{
	if (G.state == 1)
		return cudaSuccess;
	if (G.state == 2)
		return cudaErrorCudartUnloading; /* after the exit handler */
	if (G.state < 0)
		return cudaErrorInitializationError;
	G.state = -1;
	ws_config *cfg = wsConfigCreate();
	if (!cfg || config_from_env(cfg) < 0) {
		wsConfigDestroy(cfg);
		say("error: the simulated device could not be created; every CUDA call fails");
		return cudaErrorInitializationError;
	}
	ws_result r = wsSimCreate(&G.sim, cfg);
	char buf[64];
	G.clock_mhz = atof(wsConfigGet(cfg, "clock_core", buf, sizeof buf) ? buf : "0");
	if (G.clock_mhz <= 0)
		G.clock_mhz = 1000;
	if (r == WS_SUCCESS && G.limit_set[2]) /* cudaDeviceSetLimit(cudaLimitMallocHeapSize) before the first call */
		wsSimSetMallocHeapSize(G.sim, G.limits[2]);
	G.warp_size = atoi(wsConfigGet(cfg, "warp_size", buf, sizeof buf) ? buf : "32");
	if (G.warp_size > 32) /* the warp size programs see, as WARP_SZ: a 64-lane warp holds two 32-thread PTX warps */
		G.warp_size = 32;
	wsConfigDestroy(cfg);
	if (r != WS_SUCCESS) {
		say("error: creating the simulator: %s", wsGetErrorString(r));
		return cudaErrorInitializationError;
	}
	G.quiet = getenv("WARPSIM_QUIET") && strcmp(getenv("WARPSIM_QUIET"), "0") != 0;
	G.stats_path = getenv("WARPSIM_STATS");
	G.trace_path = getenv("WARPSIM_TRACE");
	G.summary_path = getenv("WARPSIM_SUMMARY");
	if (G.stats_path && *G.stats_path) {
		G.stats = fopen(G.stats_path, "w");
		if (!G.stats)
			say("warning: WARPSIM_STATS=%s: cannot write; no per-launch statistics file", G.stats_path);
	}
	G.state = 1;
	atexit(at_exit);
	return cudaSuccess;
}

/* init() and the sticky fault, for calls that touch the device */
static cudaError_t ready(void)
{
	cudaError_t e = init();
	if (e)
		return e;
	return G.sticky;
}

static int cfg_int(const char *key, int dflt)
{
	char buf[64];
	const char *v = G.sim ? wsConfigGet(wsSimConfig(G.sim), key, buf, sizeof buf) : NULL;
	return v ? atoi(v) : dflt;
}

/* ---- modules ---- */
static cudaError_t module_prepare(struct cr_module *m)
{
	if (m->nunits)
		return cudaSuccess;
	if (m->load_failed)
		return (cudaError_t)m->load_failed;
	if (m->read_err) {
		say("error: reading the program's fat binary: %s", m->read_err);
		m->load_failed = cudaErrorInvalidPtx;
		return cudaErrorInvalidPtx;
	}
	if (m->nptx == 0) {
		unsigned a = m->sass_arch ? m->sass_arch : 75;
		if (a < 75)
			a = 75;
		say("error: the program contains no PTX%s%.0u; warpsim simulates PTX: rebuild with "
		    "'-gencode arch=compute_%u,code=compute_%u' (next to your -gencode flags) or '-arch=compute_%u'",
		    m->sass_arch ? ", only SASS for sm_" : "", m->sass_arch, a, a, a);
		m->load_failed = cudaErrorNoKernelImageForDevice;
		return cudaErrorNoKernelImageForDevice;
	}
	/* one module per translation unit (one unless nvcc -rdc=true), loaded
	 * when a kernel or variable of it is first needed */
	int nunits = 0;
	for (int i = 0; i < m->nptx; i++)
		if (i == 0 || m->ptx[i].unit != m->ptx[i - 1].unit)
			nunits++;
	m->units = calloc((size_t)nunits, sizeof *m->units);
	m->unit_arch = calloc((size_t)nunits, sizeof *m->unit_arch);
	m->unit_first = calloc((size_t)nunits + 1, sizeof *m->unit_first);
	m->unit_err = calloc((size_t)nunits, sizeof *m->unit_err);
	if (!m->units || !m->unit_arch || !m->unit_first || !m->unit_err) {
		free(m->units);
		free(m->unit_arch);
		free(m->unit_first);
		free(m->unit_err);
		return cudaErrorMemoryAllocation;
	}
	for (int i = 0, u = 0; i < m->nptx; i++)
		if (i == 0 || m->ptx[i].unit != m->ptx[i - 1].unit)
			m->unit_first[u++] = i;
	m->unit_first[nunits] = m->nptx;
	m->nunits = nunits;
	return cudaSuccess;
}

/* Load translation unit u: its PTX of the highest architecture up to
 * MAX_PTX_ARCH, else the next lower one.  cudaSuccess or the load error
 * (reported once). */
static cudaError_t unit_load(struct cr_module *m, int u)
{
	if (m->units[u])
		return cudaSuccess;
	if (m->unit_err[u])
		return (cudaError_t)m->unit_err[u];
	char name[64];
	int lo = m->unit_first[u], hi = m->unit_first[u + 1];
	for (int i = lo; i < hi; i++) {
		int last = i + 1 == hi;
		if (m->ptx[i].arch > MAX_PTX_ARCH && !last)
			continue; /* a lower one exists */
		if (m->ptx[i].unit)
			snprintf(name, sizeof name, "unit%d.compute_%u.ptx", m->ptx[i].unit, m->ptx[i].arch);
		else
			snprintf(name, sizeof name, "compute_%u.ptx", m->ptx[i].arch);
		ws_result r = wsModuleLoadData(G.sim, &m->units[u], m->ptx[i].text, name);
		if (r == WS_SUCCESS) {
			m->unit_arch[u] = m->ptx[i].arch;
			return cudaSuccess;
		}
		m->units[u] = NULL;
		const char *msg = wsSimLastError(G.sim);
		say("%s PTX (compute_%u, embedded in the program): %s%s", last ? "error: the" : "note: cannot use the",
		    m->ptx[i].arch, msg,
		    m->ptx[i].unit && strstr(msg, "has no body")
		        ? " (nvcc -rdc=true: warpsim loads the PTX of each translation unit on its own and does not "
		          "link device code across them)"
		        : "");
		if (last)
			m->unit_err[u] =
			    r == WS_ERROR_UNSUPPORTED_PTX ? cudaErrorUnsupportedPtxVersion : cudaErrorInvalidPtx;
	}
	return (cudaError_t)m->unit_err[u];
}

/* Does the PTX of unit u mention `name` as a whole word? */
static int unit_mentions(const struct cr_module *m, int u, const char *name)
{
	const char *text = m->ptx[m->unit_first[u]].text;
	size_t n = strlen(name);
	for (const char *p = text; (p = strstr(p, name)); p += n) {
		char before = p == text ? ' ' : p[-1], after = p[n];
		int word = !(before == '_' || before == '$' || (before >= '0' && before <= '9') ||
		             ((before | 32) >= 'a' && (before | 32) <= 'z'));
		if (word && !(after == '_' || after == '$' || (after >= '0' && after <= '9') ||
		              ((after | 32) >= 'a' && (after | 32) <= 'z')))
			return 1;
	}
	return 0;
}

CR_API(void **, __cudaRegisterFatBinary, (void *wrapper), (wrapper))
{
	struct cr_module *m = calloc(1, sizeof *m);
	struct cr_module **nm = realloc(G.mods, (size_t)(G.nmods + 1) * sizeof *nm);
	if (!m || !nm) {
		free(m);
		say("error: out of memory registering the program's fat binary");
		return NULL;
	}
	G.mods = nm;
	G.mods[G.nmods++] = m;
	m->wrapper = wrapper;
	char err[512];
	if (fatbin_read_ptx(wrapper, &m->ptx, &m->nptx, &m->sass_arch, err, sizeof err) < 0)
		m->read_err = strdup(err);
	return (void **)m;
}

CR_API_VOID(__cudaRegisterFatBinaryEnd, (void **handle), (handle))
{
	(void)handle;
}

CR_API_VOID(__cudaUnregisterFatBinary, (void **handle), (handle))
{
	(void)handle; /* the modules stay loaded: the simulator is torn down by the exit handler */
}

static cudaError_t symbol_of(struct cr_var *v, const char *call);
static cudaError_t add_alloc(struct cr_alloc a);

/* Map the host page at `page` (page-aligned) unless this library mapped it
 * already.  0, or -1 if the address is taken by something else. */
static int map_page(uint64_t page)
{
	for (int i = 0; i < G.nmapped; i++)
		if (G.mapped[i] == page)
			return 0;
	uint64_t *nm = realloc(G.mapped, (size_t)(G.nmapped + 1) * sizeof *nm);
	if (!nm)
		return -1;
	G.mapped = nm;
	void *h = mmap((void *)(uintptr_t)page, PAGE, PROT_READ | PROT_WRITE,
	               MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	if (h == MAP_FAILED || (uint64_t)(uintptr_t)h != page) {
		if (h != MAP_FAILED)
			munmap(h, PAGE);
		return -1;
	}
	G.mapped[G.nmapped++] = page;
	return 0;
}

/* A __managed__ variable: its device address, with a host copy mapped at
 * the same address and synchronised around launches like cudaMallocManaged
 * memory; the host code reads the address from *v->managed. */
static cudaError_t managed_var_setup(struct cr_var *v)
{
	cudaError_t e = symbol_of(v, "__managed__ variable");
	ws_deviceptr d;
	size_t n;
	if (!e && wsModuleGetGlobal(&d, &n, v->mod, v->name) != WS_SUCCESS) {
		say("error: __managed__ variable %s: %s", v->name, wsSimLastError(G.sim));
		e = cudaErrorInvalidSymbol;
	}
	for (uint64_t pg = e ? 1 : d / PAGE * PAGE; !e && pg < d + n; pg += PAGE)
		if (map_page(pg) < 0) {
			say("error: __managed__ variable %s: cannot map host memory at device address 0x%llx", v->name,
			    (unsigned long long)pg);
			e = cudaErrorMemoryAllocation;
		}
	if (!e && (wsMemcpyDtoH(G.sim, (void *)(uintptr_t)d, d, n) != WS_SUCCESS || /* its initial value */
	           add_alloc((struct cr_alloc){A_MANAGED, 0, d, n, 0}) != cudaSuccess))
		e = cudaErrorMemoryAllocation;
	if (e) { /* the host code dereferences *v->managed regardless: give it memory */
		if (!v->fallback)
			v->fallback = calloc(1, v->size ? v->size : 1);
		*v->managed = v->fallback;
		return e;
	}
	*v->managed = (void *)(uintptr_t)d;
	return cudaSuccess;
}

/* Called by nvcc's host code before the first host access to a __managed__
 * variable of the module: set up every __managed__ variable of it. */
CR_API(char, __cudaInitModule, (void **handle), (handle))
{
	cudaError_t e = ready();
	for (int i = 0; i < G.nvars; i++) {
		struct cr_var *v = &G.vars[i];
		if (v->m != (struct cr_module *)handle || !v->managed || (*v->managed && *v->managed != v->fallback))
			continue;
		if (e) {
			if (!v->fallback)
				v->fallback = calloc(1, v->size ? v->size : 1);
			*v->managed = v->fallback;
		} else {
			managed_var_setup(v);
		}
	}
	return 1;
}

CR_API_VOID(__cudaRegisterFunction,
            (void **handle, const char *hostFun, char *deviceFun, const char *deviceName, int thread_limit, void *tid,
             void *bid, void *bDim, void *gDim, int *wSize),
            (handle, hostFun, deviceFun, deviceName, thread_limit, tid, bid, bDim, gDim, wSize))
{
	struct cr_func *f = calloc(1, sizeof *f);
	struct cr_func **nf = realloc(G.funcs, (size_t)(G.nfuncs + 1) * sizeof *nf);
	if (!f || !nf || !(f->name = strdup(deviceName ? deviceName : deviceFun))) {
		free(f);
		say("error: out of memory registering kernel %s", deviceName ? deviceName : "?");
		return;
	}
	G.funcs = nf;
	G.funcs[G.nfuncs++] = f;
	f->m = (struct cr_module *)handle;
	f->host = hostFun;
	f->max_dyn_shared = 48 * 1024;
}

CR_API_VOID(__cudaRegisterVar,
            (void **handle, char *hostVar, char *deviceAddress, const char *deviceName, int ext, size_t size,
             int constant, int global),
            (handle, hostVar, deviceAddress, deviceName, ext, size, constant, global))
{
	struct cr_var *nv = realloc(G.vars, (size_t)(G.nvars + 1) * sizeof *nv);
	char *name = strdup(deviceName ? deviceName : deviceAddress);
	if (!nv || !name) {
		free(nv == G.vars ? NULL : nv);
		free(name);
		say("error: out of memory registering variable %s", deviceName ? deviceName : "?");
		return;
	}
	G.vars = nv;
	G.vars[G.nvars++] =
	    (struct cr_var){(struct cr_module *)handle, hostVar, name, size, constant, NULL, NULL, NULL};
}

CR_API_VOID(__cudaRegisterManagedVar,
            (void **handle, void **hostVarPtrAddress, char *deviceAddress, const char *deviceName, int ext, size_t size,
             int constant, int global),
            (handle, hostVarPtrAddress, deviceAddress, deviceName, ext, size, constant, global))
{
	__cudaRegisterVar(handle, (char *)hostVarPtrAddress, deviceAddress, deviceName, ext, size, constant, global);
	if (G.nvars && G.vars[G.nvars - 1].host == (const void *)hostVarPtrAddress)
		G.vars[G.nvars - 1].managed = hostVarPtrAddress;
}

static struct cr_func *find_func(const void *host)
{
	for (int i = 0; i < G.nfuncs; i++)
		if (G.funcs[i]->host == host)
			return G.funcs[i];
	return NULL;
}

static struct cr_var *find_var(const void *host)
{
	for (int i = 0; i < G.nvars; i++) /* a __managed__ variable is named by its storage in host code */
		if (G.vars[i].host == host || (G.vars[i].managed && host && *G.vars[i].managed == host))
			return &G.vars[i];
	return NULL;
}

CR_API(cudaError_t, __cudaGetKernel, (cudaKernel_t *kernel, const void *hostFun), (kernel, hostFun))
{
	struct cr_func *f = find_func(hostFun);
	if (kernel)
		*kernel = f;
	return f ? cudaSuccess : ret(cudaErrorInvalidDeviceFunction);
}

static cudaError_t get_function(struct cr_func *f)
{
	if (f->fn)
		return cudaSuccess;
	struct cr_module *m = f->m;
	cudaError_t e = module_prepare(m), first = cudaSuccess;
	if (e)
		return e;
	for (int u = 0; u < m->nunits; u++) {
		if (!unit_mentions(m, u, f->name))
			continue;
		if ((e = unit_load(m, u))) {
			if (!first)
				first = e;
			continue;
		}
		if (wsModuleGetFunction(&f->fn, m->units[u], f->name) == WS_SUCCESS) {
			f->arch = m->unit_arch[u];
			return cudaSuccess;
		}
	}
	f->fn = NULL;
	if (first)
		return first; /* its PTX did not load: reported */
	say("error: kernel %s is registered but not in the program's PTX", f->name);
	return cudaErrorInvalidDeviceFunction;
}

/* ---- memory ---- */
static struct cr_alloc *find_alloc(uint64_t p, int exact)
{
	for (int i = 0; i < G.nallocs; i++) {
		struct cr_alloc *a = &G.allocs[i];
		if (exact ? a->ptr == p : (p >= a->ptr && p - a->ptr < (a->size ? a->size : 1)))
			return a;
	}
	return NULL;
}

static cudaError_t add_alloc(struct cr_alloc a)
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
	cudaError_t e = ready();
	if (e)
		return ret(e);
	if (!p)
		return ret(cudaErrorInvalidValue);
	ws_deviceptr d;
	if (wsMemAlloc(G.sim, &d, size) != WS_SUCCESS)
		return ret(cudaErrorMemoryAllocation);
	if (add_alloc((struct cr_alloc){A_DEVICE, d, d, size, 0})) {
		wsMemFree(G.sim, d);
		return ret(cudaErrorMemoryAllocation);
	}
	*p = (void *)(uintptr_t)d;
	return cudaSuccess;
}

CR_API(cudaError_t, cudaMallocManaged, (void **p, size_t size, unsigned flags), (p, size, flags))
{
	cudaError_t e = ready();
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
		say("error: cudaMallocManaged(%zu): cannot map host memory at device address 0x%llx", size,
		    (unsigned long long)at);
		return ret(cudaErrorMemoryAllocation);
	}
	if (add_alloc((struct cr_alloc){A_MANAGED, d, at, size, len})) {
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
	if (add_alloc((struct cr_alloc){A_HOST, 0, (uint64_t)(uintptr_t)h, size, 0})) {
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
	struct cr_alloc *a = find_alloc((uint64_t)(uintptr_t)p, 1);
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
	cudaError_t e = ready();
	if (e)
		return ret(e);
	struct cr_alloc *a = find_alloc((uint64_t)(uintptr_t)p, 1);
	if (!a || a->kind == A_HOST || !a->base) {
		say("error: cudaFree(%p): not a pointer returned by cudaMalloc or cudaMallocManaged", p);
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
	cudaError_t e = ready();
	if (e)
		return ret(e);
	size_t tot = (size_t)cfg_int("device_mem_mb", 4096) << 20, used = 0;
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
	struct cr_alloc *a = find_alloc((uint64_t)(uintptr_t)p, 0);
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
static int on_device(const void *p)
{
	struct cr_alloc *a = find_alloc((uint64_t)(uintptr_t)p, 0);
	return a && a->kind == A_DEVICE;
}

static int is_host_side(const void *p)
{
	struct cr_alloc *a = find_alloc((uint64_t)(uintptr_t)p, 0);
	return a && a->kind != A_DEVICE;
}

static cudaError_t copy(void *dst, const void *src, size_t n, int kind, const char *call)
{
	cudaError_t e = ready();
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
	case cudaMemcpyDefault: ddev = on_device(dst), sdev = on_device(src); break;
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
		say("error: %s: %s", call, wsSimLastError(G.sim));
		return ret(cudaErrorInvalidValue);
	}
	return cudaSuccess;
}

CR_API(cudaError_t, cudaMemcpy, (void *dst, const void *src, size_t n, int kind), (dst, src, n, kind))
{
	return copy(dst, src, n, kind, "cudaMemcpy");
}

CR_API(cudaError_t, cudaMemcpyAsync, (void *dst, const void *src, size_t n, int kind, cudaStream_t s),
       (dst, src, n, kind, s))
{
	return copy(dst, src, n, kind, "cudaMemcpyAsync");
}

CR_API(cudaError_t, cudaMemset, (void *p, int value, size_t n), (p, value, n))
{
	cudaError_t e = ready();
	if (e)
		return ret(e);
	if (n == 0)
		return cudaSuccess;
	if (!on_device(p)) {
		if (!is_host_side(p)) {
			say("error: cudaMemset(%p): not device or managed memory", p);
			return ret(cudaErrorInvalidValue);
		}
		memset(p, value, n);
		return cudaSuccess;
	}
	if (wsMemsetD8(G.sim, (uintptr_t)p, (uint8_t)value, n) != WS_SUCCESS) {
		say("error: cudaMemset: %s", wsSimLastError(G.sim));
		return ret(cudaErrorInvalidValue);
	}
	return cudaSuccess;
}

CR_API(cudaError_t, cudaMemsetAsync, (void *p, int value, size_t n, cudaStream_t s), (p, value, n, s))
{
	return cudaMemset(p, value, n);
}

/* ---- symbols ---- */
/* Find the loaded module that defines v (loading its unit). */
static cudaError_t symbol_of(struct cr_var *v, const char *call)
{
	struct cr_module *m = v->m;
	cudaError_t e = module_prepare(m);
	if (e)
		return e;
	cudaError_t first = cudaSuccess;
	for (int u = 0; !v->mod && u < m->nunits; u++) {
		if (!unit_mentions(m, u, v->name))
			continue;
		if ((e = unit_load(m, u))) {
			if (!first)
				first = e;
			continue;
		}
		if (wsMemcpyFromSymbol(m->units[u], v->name, NULL, 0, 0) == WS_SUCCESS)
			v->mod = m->units[u];
	}
	if (!v->mod && first)
		return first;
	if (!v->mod) {
		say("error: %s: variable %s is registered but not in the program's PTX", call, v->name);
		return cudaErrorInvalidSymbol;
	}
	return cudaSuccess;
}

static cudaError_t symbol(const void *sym, struct cr_var **out, const char *call)
{
	cudaError_t e = ready();
	if (e)
		return e;
	struct cr_var *v = find_var(sym);
	if (!v) {
		say("error: %s: %p is not a __device__ or __constant__ variable of the program", call, sym);
		return cudaErrorInvalidSymbol;
	}
	if (v->managed && !*v->managed)
		__cudaInitModule((void **)v->m);
	if ((e = symbol_of(v, call)))
		return e;
	*out = v;
	return cudaSuccess;
}

static cudaError_t symbol_copy(const void *sym, void *host, size_t n, size_t off, int to, int kind, const char *call)
{
	struct cr_var *v;
	cudaError_t e = symbol(sym, &v, call);
	if (e)
		return ret(e);
	if (off > v->size || n > v->size - off) {
		say("error: %s(%s): %zu bytes at offset %zu exceed the variable's %zu bytes", call, v->name, n, off,
		    v->size);
		return ret(cudaErrorInvalidValue);
	}
	int dev_side = (to ? kind == cudaMemcpyDeviceToDevice : kind == cudaMemcpyDeviceToDevice) ||
	               (kind == cudaMemcpyDefault && on_device(host));
	if (kind != cudaMemcpyDefault && kind != cudaMemcpyDeviceToDevice &&
	    kind != (to ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost))
		return ret(cudaErrorInvalidMemcpyDirection);
	if (v->managed && *v->managed) { /* the host copy is current between launches */
		uint8_t *shadow = (uint8_t *)*v->managed + off;
		return copy(to ? (void *)shadow : host, to ? host : (void *)shadow, n,
		            dev_side ? (to ? cudaMemcpyDeviceToHost : cudaMemcpyHostToDevice) : cudaMemcpyHostToHost,
		            call);
	}
	void *buf = host;
	if (dev_side && on_device(host)) {
		if (!(buf = malloc(n ? n : 1)))
			return ret(cudaErrorMemoryAllocation);
		if (to && wsMemcpyDtoH(G.sim, buf, (uintptr_t)host, n) != WS_SUCCESS) {
			free(buf);
			say("error: %s: %s", call, wsSimLastError(G.sim));
			return ret(cudaErrorInvalidValue);
		}
	}
	ws_result r =
	    to ? wsMemcpyToSymbol(v->mod, v->name, buf, n, off) : wsMemcpyFromSymbol(v->mod, v->name, buf, n, off);
	if (r == WS_SUCCESS && !to && buf != host)
		r = wsMemcpyHtoD(G.sim, (uintptr_t)host, buf, n);
	if (buf != host)
		free(buf);
	if (r != WS_SUCCESS) {
		say("error: %s(%s): %s", call, v->name, wsSimLastError(G.sim));
		return ret(cudaErrorInvalidSymbol);
	}
	return cudaSuccess;
}

CR_API(cudaError_t, cudaMemcpyToSymbol, (const void *sym, const void *src, size_t n, size_t off, int kind),
       (sym, src, n, off, kind))
{
	return symbol_copy(sym, (void *)(uintptr_t)src, n, off, 1, kind, "cudaMemcpyToSymbol");
}

CR_API(cudaError_t, cudaMemcpyFromSymbol, (void *dst, const void *sym, size_t n, size_t off, int kind),
       (dst, sym, n, off, kind))
{
	return symbol_copy(sym, dst, n, off, 0, kind, "cudaMemcpyFromSymbol");
}

CR_API(cudaError_t, cudaMemcpyToSymbolAsync,
       (const void *sym, const void *src, size_t n, size_t off, int kind, cudaStream_t s), (sym, src, n, off, kind, s))
{
	return symbol_copy(sym, (void *)(uintptr_t)src, n, off, 1, kind, "cudaMemcpyToSymbolAsync");
}

CR_API(cudaError_t, cudaMemcpyFromSymbolAsync,
       (void *dst, const void *sym, size_t n, size_t off, int kind, cudaStream_t s), (dst, sym, n, off, kind, s))
{
	return symbol_copy(sym, dst, n, off, 0, kind, "cudaMemcpyFromSymbolAsync");
}

CR_API(cudaError_t, cudaGetSymbolAddress, (void **p, const void *sym), (p, sym))
{
	struct cr_var *v;
	cudaError_t e = symbol(sym, &v, "cudaGetSymbolAddress");
	if (e)
		return ret(e);
	ws_deviceptr d;
	size_t n;
	if (wsModuleGetGlobal(&d, &n, v->mod, v->name) != WS_SUCCESS) {
		say("error: cudaGetSymbolAddress(%s): %s", v->name, wsSimLastError(G.sim));
		return ret(cudaErrorInvalidSymbol);
	}
	if (!find_alloc(d, 1) && add_alloc((struct cr_alloc){A_DEVICE, 0, d, n, 0}))
		return ret(cudaErrorMemoryAllocation);
	if (p)
		*p = (void *)(uintptr_t)d;
	return cudaSuccess;
}

CR_API(cudaError_t, cudaGetSymbolSize, (size_t *size, const void *sym), (size, sym))
{
	struct cr_var *v;
	cudaError_t e = symbol(sym, &v, "cudaGetSymbolSize");
	if (e)
		return ret(e);
	if (size)
		*size = v->size;
	return cudaSuccess;
}

/* ---- launches ---- */
static void managed_sync(int to_device)
{
	for (int i = 0; i < G.nallocs; i++) {
		struct cr_alloc *a = &G.allocs[i];
		if (a->kind != A_MANAGED)
			continue;
		if (to_device)
			wsMemcpyHtoD(G.sim, a->ptr, (void *)(uintptr_t)a->ptr, a->size);
		else
			wsMemcpyDtoH(G.sim, (void *)(uintptr_t)a->ptr, a->ptr, a->size);
	}
}

static void counters(uint64_t *k)
{
	for (int i = 0; i < NK; i++)
		if (wsStatsGet(G.sim, K_NAMES[i], &k[i]) != WS_SUCCESS)
			k[i] = 0;
}

static void json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			fprintf(f, "\\u%04x", *s);
		else
			fputc(*s, f);
	}
	fputc('"', f);
}

static double ipc(const struct cr_launch *L)
{
	return L->k[K_CYCLES] ? (double)L->k[K_THREAD] / (double)L->k[K_CYCLES] : 0;
}

static void write_stats_line(const struct cr_launch *L, int idx)
{
	FILE *f = G.stats;
	if (!f)
		return;
	fprintf(f, "{\"launch\":%d,\"kernel\":", idx);
	json_str(f, L->name);
	fprintf(f, ",\"ptx\":\"compute_%u\"", L->arch);
	fprintf(f, ",\"grid\":[%u,%u,%u],\"block\":[%u,%u,%u],\"shared_bytes\":%zu,\"stream\":%u,\"start_cycle\":%llu",
	        L->grid[0], L->grid[1], L->grid[2], L->block[0], L->block[1], L->block[2], L->shared, L->stream,
	        (unsigned long long)L->start);
	for (int i = 0; i < NK; i++)
		fprintf(f, ",\"%s\":%llu", K_NAMES[i], (unsigned long long)L->k[i]);
	fprintf(f, ",\"ipc\":%.6g,\"error\":", ipc(L));
	if (L->err)
		json_str(f, cudaGetErrorName((cudaError_t)L->err));
	else
		fputs("null", f);
	fputs("}\n", f);
	fflush(f);
}

/* the CUDA error of a failed launch, and whether it is a sticky device fault */
static cudaError_t launch_error(ws_result r, const char *msg, int *fault)
{
	*fault = 1;
	switch (r) {
	case WS_ERROR_ILLEGAL_ADDRESS: return cudaErrorIllegalAddress;
	case WS_ERROR_MISALIGNED_ADDRESS: return cudaErrorMisalignedAddress;
	case WS_ERROR_ILLEGAL_INSTRUCTION: return cudaErrorIllegalInstruction;
	case WS_ERROR_TRAP: return strstr(msg, "assertion") ? cudaErrorAssert : cudaErrorLaunchFailure;
	case WS_ERROR_DEADLOCK:
	case WS_ERROR_LIMIT_EXCEEDED: return cudaErrorLaunchTimeout;
	default: break;
	}
	*fault = 0;
	switch (r) {
	case WS_ERROR_LAUNCH_OUT_OF_RESOURCES: return cudaErrorLaunchOutOfResources;
	case WS_ERROR_INVALID_LAUNCH: return cudaErrorInvalidConfiguration;
	case WS_ERROR_INVALID_VALUE: return cudaErrorInvalidValue;
	case WS_ERROR_OUT_OF_MEMORY: return cudaErrorMemoryAllocation;
	default: return cudaErrorUnknown;
	}
}

/* 0 for the default stream and the special handles cudaStreamLegacy (1)
 * and cudaStreamPerThread (2), else the creation number */
static unsigned stream_id(cudaStream_t s)
{
	return (uintptr_t)s < 4096 ? 0 : s->id;
}

static cudaError_t launch(struct cr_func *f, dim3 g, dim3 b, void **args, size_t shared, cudaStream_t s, int coop)
{
	cudaError_t e = ready();
	if (e)
		return ret(e);
	if (!f)
		return ret(cudaErrorInvalidDeviceFunction);
	if ((e = get_function(f)))
		return ret(e);
	if (shared > (size_t)f->max_dyn_shared) {
		say("error: launch of %s: %zu bytes of dynamic shared memory exceed the %d allowed (raise it with "
		    "cudaFuncSetAttribute(..., cudaFuncAttributeMaxDynamicSharedMemorySize, ...))",
		    f->name, shared, f->max_dyn_shared);
		return ret(cudaErrorInvalidValue);
	}
	struct cr_launch *nl = realloc(G.launches, (size_t)(G.nlaunches + 1) * sizeof *nl);
	if (!nl)
		return ret(cudaErrorMemoryAllocation);
	G.launches = nl;
	struct cr_launch *L = &G.launches[G.nlaunches];
	memset(L, 0, sizeof *L);
	L->name = f->name;
	L->grid[0] = g.x, L->grid[1] = g.y, L->grid[2] = g.z;
	L->block[0] = b.x, L->block[1] = b.y, L->block[2] = b.z;
	L->shared = shared;
	L->stream = stream_id(s);
	L->arch = f->arch;
	L->start = G.now;
	uint64_t k0[NK], k1[NK];
	managed_sync(1);
	counters(k0);
	double t0 = speed_now();
	ws_result r = (coop ? wsLaunchCooperativeKernel : wsLaunchKernel)(f->fn, g.x, g.y, g.z, b.x, b.y, b.z,
									 (unsigned)shared, args);
	G.wall += speed_now() - t0;
	counters(k1);
	managed_sync(0);
	for (int i = 0; i < NK; i++)
		L->k[i] = k1[i] - k0[i];
	G.now += L->k[K_CYCLES];
	if (r != WS_SUCCESS) {
		const char *msg = wsSimLastError(G.sim);
		int fault;
		e = launch_error(r, msg, &fault);
		if (coop && r == WS_ERROR_INVALID_LAUNCH && strstr(msg, "cannot be resident"))
			e = cudaErrorCooperativeLaunchTooLarge;
		L->err = e;
		say("error: kernel %s <<<(%u,%u,%u),(%u,%u,%u)>>> failed: %s", f->name, g.x, g.y, g.z, b.x, b.y, b.z,
		    msg);
		if (fault) {
			say("the fault is reported as %s (\"%s\") by the next synchronizing call", cudaGetErrorName(e),
			    cudaGetErrorString(e));
			G.sticky = e;
			e = cudaSuccess; /* asynchronous: the launch itself succeeded */
		}
	}
	write_stats_line(L, G.nlaunches);
	G.nlaunches++;
	return ret(e);
}

CR_API(unsigned, __cudaPushCallConfiguration, (dim3 grid, dim3 block, size_t shared, void *stream),
       (grid, block, shared, stream))
{
	if (G.ncalls == (int)(sizeof G.calls / sizeof G.calls[0]))
		return 1;
	G.calls[G.ncalls++] = (struct cr_call){grid, block, shared, stream, pthread_self()};
	return 0;
}

CR_API(cudaError_t, __cudaPopCallConfiguration, (dim3 * grid, dim3 *block, size_t *shared, void *stream),
       (grid, block, shared, stream))
{
	int i = G.ncalls - 1;
	while (i >= 0 && !pthread_equal(G.calls[i].thread, pthread_self()))
		i--;
	if (i < 0)
		return ret(cudaErrorInvalidConfiguration);
	struct cr_call c = G.calls[i];
	memmove(&G.calls[i], &G.calls[i + 1], (size_t)(G.ncalls - i - 1) * sizeof G.calls[0]);
	G.ncalls--;
	*grid = c.grid;
	*block = c.block;
	*shared = c.shared;
	memcpy(stream, &c.stream, sizeof c.stream);
	return cudaSuccess;
}

CR_API(cudaError_t, __cudaLaunchKernel, (cudaKernel_t k, dim3 g, dim3 b, void **args, size_t shared, cudaStream_t s),
       (k, g, b, args, shared, s))
{
	return launch(k, g, b, args, shared, s, 0);
}

CR_API(cudaError_t, __cudaLaunchKernel_ptsz,
       (cudaKernel_t k, dim3 g, dim3 b, void **args, size_t shared, cudaStream_t s), (k, g, b, args, shared, s))
{
	return launch(k, g, b, args, shared, s, 0);
}

CR_API(cudaError_t, cudaLaunchKernel, (const void *func, dim3 g, dim3 b, void **args, size_t shared, cudaStream_t s),
       (func, g, b, args, shared, s))
{
	struct cr_func *f = find_func(func);
	if (!f) {
		say("error: cudaLaunchKernel(%p): not a kernel of the program", func);
		return ret(cudaErrorInvalidDeviceFunction);
	}
	return launch(f, g, b, args, shared, s, 0);
}

/* cudaLaunchCooperativeKernel: every CTA resident at once (else
 * cudaErrorCooperativeLaunchTooLarge), grid.sync() works */
CR_API(cudaError_t, cudaLaunchCooperativeKernel,
       (const void *func, dim3 g, dim3 b, void **args, size_t shared, cudaStream_t s), (func, g, b, args, shared, s))
{
	struct cr_func *f = find_func(func);
	if (!f) {
		say("error: cudaLaunchCooperativeKernel(%p): not a kernel of the program", func);
		return ret(cudaErrorInvalidDeviceFunction);
	}
	return launch(f, g, b, args, shared, s, 1);
}

CR_API(cudaError_t, cudaFuncSetAttribute, (const void *func, int attr, int value), (func, attr, value))
{
	struct cr_func *f = find_func(func);
	if (!f)
		return ret(cudaErrorInvalidDeviceFunction);
	cudaError_t e = init();
	if (e)
		return ret(e);
	if (attr == cudaFuncAttributeMaxDynamicSharedMemorySize) {
		if (value < 0 || value > cfg_int("shmem_per_sm", 49152))
			return ret(cudaErrorInvalidValue);
		f->max_dyn_shared = value;
		return cudaSuccess;
	}
	if (attr == cudaFuncAttributePreferredSharedMemoryCarveout)
		return value >= -1 && value <= 100 ? cudaSuccess
		                                   : ret(cudaErrorInvalidValue); /* a hint; no carveout modelled */
	say("cudaFuncSetAttribute: attribute %d is not supported", attr);
	return ret(cudaErrorNotSupported);
}

CR_API(cudaError_t, cudaFuncGetAttributes, (struct cudaFuncAttributes *a, const void *func), (a, func))
{
	struct cr_func *f = find_func(func);
	cudaError_t e = ready();
	if (e)
		return ret(e);
	if (!f)
		return ret(cudaErrorInvalidDeviceFunction);
	if (!a)
		return ret(cudaErrorInvalidValue);
	if ((e = get_function(f)))
		return ret(e);
	ws_function_info info;
	if (wsFunctionGetInfo(f->fn, &info) != WS_SUCCESS)
		return ret(cudaErrorInvalidValue);
	memset(a, 0, sizeof *a);
	a->sharedSizeBytes = info.shared_static_bytes;
	a->constSizeBytes = info.const_bytes;
	a->localSizeBytes = info.local_bytes;
	a->maxThreadsPerBlock = (int)info.max_threads_per_block;
	a->numRegs = (int)info.regs_per_thread;
	a->ptxVersion = (int)f->arch;    /* e.g. 75 for compute_75, as NVIDIA's runtime reports it */
	a->binaryVersion = (int)f->arch; /* the "binary" warpsim runs is that PTX */
	a->maxDynamicSharedSizeBytes = f->max_dyn_shared;
	a->preferredShmemCarveout = -1;
	return cudaSuccess;
}

CR_API(cudaError_t, cudaOccupancyMaxActiveBlocksPerMultiprocessor,
       (int *n, const void *func, int blockSize, size_t dynSmem), (n, func, blockSize, dynSmem))
{
	struct cr_func *f = find_func(func);
	cudaError_t e = ready();
	if (e)
		return ret(e);
	if (!f)
		return ret(cudaErrorInvalidDeviceFunction);
	if (!n || blockSize <= 0)
		return ret(cudaErrorInvalidValue);
	if ((e = get_function(f)))
		return ret(e);
	unsigned c;
	if (wsFunctionOccupancy(f->fn, (unsigned)blockSize, dynSmem, &c) != WS_SUCCESS)
		return ret(cudaErrorInvalidValue);
	*n = (int)c;
	return cudaSuccess;
}

CR_API(cudaError_t, cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags,
       (int *n, const void *func, int blockSize, size_t dynSmem, unsigned flags), (n, func, blockSize, dynSmem, flags))
{
	return cudaOccupancyMaxActiveBlocksPerMultiprocessor(n, func, blockSize, dynSmem);
}

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
		    copy((char *)dst + r * dpitch, (const char *)src + r * spitch, width, kind, "cudaMemcpy2D");
		if (e)
			return e;
	}
	return cudaSuccess;
}

CR_API(cudaError_t, cudaMemcpy2DAsync,
       (void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height, int kind,
        cudaStream_t s),
       (dst, dpitch, src, spitch, width, height, kind, s))
{
	return cudaMemcpy2D(dst, dpitch, src, spitch, width, height, kind);
}

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

CR_API(cudaError_t, cudaMemset2DAsync, (void *p, size_t pitch, int value, size_t width, size_t height, cudaStream_t s),
       (p, pitch, value, width, height, s))
{
	return cudaMemset2D(p, pitch, value, width, height);
}

CR_API(cudaError_t, cudaMallocAsync, (void **p, size_t size, cudaStream_t s), (p, size, s))
{
	return cudaMalloc(p, size);
}

CR_API(cudaError_t, cudaFreeAsync, (void *p, cudaStream_t s), (p, s))
{
	return cudaFree(p);
}

/* ---- host work in stream order: everything before it has completed, so it runs now ---- */
CR_API(cudaError_t, cudaLaunchHostFunc, (cudaStream_t s, void (*fn)(void *), void *data), (s, fn, data))
{
	if (!fn)
		return ret(cudaErrorInvalidValue);
	cudaError_t e = ready();
	if (e)
		return ret(e);
	fn(data);
	return cudaSuccess;
}

CR_API(cudaError_t, cudaStreamAddCallback,
       (cudaStream_t s, void (*cb)(cudaStream_t, cudaError_t, void *), void *data, unsigned flags),
       (s, cb, data, flags))
{
	if (!cb || flags != 0)
		return ret(cudaErrorInvalidValue);
	cb(s, G.sticky, data);
	return cudaSuccess;
}

/* ---- settings that have no effect on the simulated device (accepted, documented) ---- */
static const size_t limit_default[3] = {1024, 1 << 20, 8 << 20}; /* stack size, printf FIFO, malloc heap (which sizes the device heap) */

CR_API(cudaError_t, cudaDeviceSetLimit, (int limit, size_t value), (limit, value))
{
	if (limit < 0 || limit > 2) {
		say("cudaDeviceSetLimit: limit %d is not supported", limit);
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
		say("cudaDeviceGetLimit: limit %d is not supported", limit);
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
	return find_func(func) ? cudaSuccess : ret(cudaErrorInvalidDeviceFunction);
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
	return dev == 0 ? ret(init()) : ret(cudaErrorInvalidDevice);
}

/* ---- synchronisation, streams, events ---- */
CR_API(cudaError_t, cudaDeviceSynchronize, (void), ())
{
	return ret(ready());
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
	if (stream_id(s) == 0)
		return ret(cudaErrorInvalidResourceHandle); /* the default stream cannot be destroyed */
	free(s);
	return cudaSuccess;
}

CR_API(cudaError_t, cudaStreamSynchronize, (cudaStream_t s), (s))
{
	return ret(ready());
}

CR_API(cudaError_t, cudaStreamQuery, (cudaStream_t s), (s))
{
	return ret(ready());
}

CR_API(cudaError_t, cudaStreamWaitEvent, (cudaStream_t s, cudaEvent_t e, unsigned flags), (s, e, flags))
{
	return ret(G.sticky); /* every operation has completed already */
}

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

CR_API(cudaError_t, cudaEventRecordWithFlags, (cudaEvent_t e, cudaStream_t s, unsigned flags), (e, s, flags))
{
	return cudaEventRecord(e, s);
}

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
	if (init())
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
static long long attribute(int attr)
{
	int ws = G.warp_size;
	switch (attr) {
	case cudaDevAttrMaxThreadsPerBlock:
	case cudaDevAttrMaxBlockDimX:
	case cudaDevAttrMaxBlockDimY: return cfg_int("max_threads_per_cta", 1024);
	case cudaDevAttrMaxBlockDimZ: return 64;
	case cudaDevAttrMaxGridDimX: return 2147483647;
	case cudaDevAttrMaxGridDimY:
	case cudaDevAttrMaxGridDimZ: return 65535;
	case cudaDevAttrMaxSharedMemoryPerBlock:
	case cudaDevAttrMaxSharedMemoryPerBlockOptin:
	case cudaDevAttrMaxSharedMemoryPerMultiprocessor: return cfg_int("shmem_per_sm", 49152);
	case cudaDevAttrTotalConstantMemory: return 65536;
	case cudaDevAttrWarpSize: return ws;
	case cudaDevAttrCooperativeLaunch: return 1;
	case cudaDevAttrMaxRegistersPerBlock:
	case cudaDevAttrMaxRegistersPerMultiprocessor: return cfg_int("regs_per_sm", 32768);
	case cudaDevAttrClockRate: return (long long)(G.clock_mhz * 1000);
	case cudaDevAttrMultiProcessorCount: return cfg_int("num_sms", 15);
	case cudaDevAttrMemoryClockRate: return (long long)cfg_int("clock_dram", 924) * 1000;
	case cudaDevAttrGlobalMemoryBusWidth: return 32LL * cfg_int("dram_channels", 6);
	case cudaDevAttrL2CacheSize: {
		long long l2 = (long long)cfg_int("l2_size_kb", 0) * 1024;
		return l2 > 0 ? l2 : 786432;
	}
	case cudaDevAttrMaxThreadsPerMultiProcessor: return cfg_int("max_threads_per_sm", 1536);
	case cudaDevAttrComputeCapabilityMajor: return 7;
	case cudaDevAttrComputeCapabilityMinor: return 5;
	case cudaDevAttrManagedMemory: return 1;
	case cudaDevAttrMaxBlocksPerMultiprocessor: return cfg_int("max_ctas_per_sm", 8);
	}
	return -1;
}

CR_API(cudaError_t, cudaDeviceGetAttribute, (int *v, int attr, int dev), (v, attr, dev))
{
	cudaError_t e = init();
	if (e)
		return ret(e);
	if (!v)
		return ret(cudaErrorInvalidValue);
	if (dev != 0)
		return ret(cudaErrorInvalidDevice);
	long long a = attribute(attr);
	if (a < 0) {
		say("cudaDeviceGetAttribute: attribute %d is not supported", attr);
		return ret(cudaErrorNotSupported);
	}
	*v = (int)a;
	return cudaSuccess;
}

CR_API(cudaError_t, cudaGetDeviceProperties, (struct cudaDeviceProp *p, int dev), (p, dev))
{
	cudaError_t e = init();
	if (e)
		return ret(e);
	if (!p)
		return ret(cudaErrorInvalidValue);
	if (dev != 0)
		return ret(cudaErrorInvalidDevice);
	memset(p, 0, sizeof *p);
	snprintf(p->name, sizeof p->name, "warpsim (%d SMs, warp size %d, %.0f MHz)",
	         (int)attribute(cudaDevAttrMultiProcessorCount), G.warp_size, G.clock_mhz);
	memcpy(p->uuid.bytes, "warpsim-sim-gpu0", 16);
	p->totalGlobalMem = (size_t)cfg_int("device_mem_mb", 4096) << 20;
	p->sharedMemPerBlock = (size_t)attribute(cudaDevAttrMaxSharedMemoryPerBlock);
	p->regsPerBlock = (int)attribute(cudaDevAttrMaxRegistersPerBlock);
	p->warpSize = G.warp_size;
	p->memPitch = 2147483647;
	p->maxThreadsPerBlock = (int)attribute(cudaDevAttrMaxThreadsPerBlock);
	for (int i = 0; i < 3; i++) {
		p->maxThreadsDim[i] = (int)attribute(cudaDevAttrMaxBlockDimX + i);
		p->maxGridSize[i] = (int)attribute(cudaDevAttrMaxGridDimX + i);
	}
	p->totalConstMem = 65536;
	p->major = 7;
	p->minor = 5;
	p->textureAlignment = 512;
	p->texturePitchAlignment = 32;
	p->multiProcessorCount = (int)attribute(cudaDevAttrMultiProcessorCount);
	p->unifiedAddressing = 1;
	p->memoryBusWidth = (int)attribute(cudaDevAttrGlobalMemoryBusWidth);
	p->l2CacheSize = (int)attribute(cudaDevAttrL2CacheSize);
	p->maxThreadsPerMultiProcessor = (int)attribute(cudaDevAttrMaxThreadsPerMultiProcessor);
	p->globalL1CacheSupported = 1;
	p->localL1CacheSupported = 1;
	p->sharedMemPerMultiprocessor = (size_t)attribute(cudaDevAttrMaxSharedMemoryPerMultiprocessor);
	p->regsPerMultiprocessor = (int)attribute(cudaDevAttrMaxRegistersPerMultiprocessor);
	p->managedMemory = 1;
	p->cooperativeLaunch = 1;
	p->directManagedMemAccessFromHost = 0;
	p->sharedMemPerBlockOptin = p->sharedMemPerBlock;
	p->maxBlocksPerMultiProcessor = (int)attribute(cudaDevAttrMaxBlocksPerMultiprocessor);
	p->deviceNumaId = -1;
	p->hostNumaId = -1;
	return cudaSuccess;
}

/* ---- exit: per-launch statistics, trace, teardown ---- */
static void print_stats(FILE *out)
{
	char sched[64] = "?", fetch[64] = "?";
	wsConfigGet(wsSimConfig(G.sim), "sched", sched, sizeof sched);
	wsConfigGet(wsSimConfig(G.sim), "fetch", fetch, sizeof fetch);
	fprintf(out,
	        "\n== warpsim: %d kernel launch%s, %llu simulated cycles (%.6f ms at %.0f MHz; %d SMs, sched %s, fetch "
	        "%s)\n",
	        G.nlaunches, G.nlaunches == 1 ? "" : "es", (unsigned long long)G.now,
	        (double)G.now / (G.clock_mhz * 1e3), G.clock_mhz, cfg_int("num_sms", 0), sched, fetch);
	if (G.nlaunches == 0)
		return;
	int nw = 6; /* width of the kernel-name column */
	for (int i = 0; i < G.nlaunches; i++)
		if ((int)strlen(G.launches[i].name) > nw)
			nw = (int)strlen(G.launches[i].name);
	if (nw > 60)
		nw = 60;
	fprintf(out, "%4s %-*s %-14s %-12s %10s %7s | stall breakdown, %% of scheduler-cycles:\n", "#", nw, "kernel",
	        "grid", "block", "cycles", "IPC");
	fprintf(out, "%4s %-*s %-14s %-12s %10s %7s | %5s %5s %5s %6s %7s %5s %5s %5s\n", "", nw, "", "", "", "", "",
	        "issue", "ctrl", "data", "struct", "barrier", "exit", "fetch", "idle");
	for (int i = 0; i < G.nlaunches; i++) {
		const struct cr_launch *L = &G.launches[i];
		char grid[40], block[40];
		snprintf(grid, sizeof grid, "%u,%u,%u", L->grid[0], L->grid[1], L->grid[2]);
		snprintf(block, sizeof block, "%u,%u,%u", L->block[0], L->block[1], L->block[2]);
		uint64_t tot = 0;
		for (int k = K_ISSUE; k < NK; k++)
			tot += L->k[k];
		char name[64];
		if ((int)strlen(L->name) > nw)
			snprintf(name, sizeof name, "%.*s...", nw - 3, L->name); /* the JSON lines have it whole */
		else
			snprintf(name, sizeof name, "%s", L->name);
		fprintf(out, "%4d %-*s %-14s %-12s %10llu %7.2f |", i, nw, name, grid, block,
		        (unsigned long long)L->k[K_CYCLES], ipc(L));
		static const int w[] = {5, 5, 5, 6, 7, 5, 5, 5};
		for (int k = K_ISSUE; k < NK; k++)
			fprintf(out, " %*.1f", w[k - K_ISSUE], tot ? 100.0 * (double)L->k[k] / (double)tot : 0.0);
		if (L->err)
			fprintf(out, "  %s", cudaGetErrorName((cudaError_t)L->err));
		fputc('\n', out);
	}
	struct speed s;
	speed_collect(G.sim, G.wall, &s);
	speed_print_for(&s, "the kernel launches", out);
}

static void write_trace(void)
{
	FILE *f = fopen(G.trace_path, "w");
	if (!f) {
		say("error: WARPSIM_TRACE=%s: cannot write", G.trace_path);
		return;
	}
	fprintf(f, "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n");
	fprintf(f,
	        "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":1,\"args\":{\"name\":\"warpsim (simulated time)\"}}");
	for (int i = 0; i < G.nlaunches; i++) {
		const struct cr_launch *L = &G.launches[i];
		fprintf(f, ",\n{\"name\":");
		json_str(f, L->name);
		fprintf(f,
		        ",\"cat\":\"kernel\",\"ph\":\"X\",\"pid\":1,\"tid\":%u,\"ts\":%.4f,\"dur\":%.4f,\"args\":{"
		        "\"launch\":%d,"
		        "\"grid\":\"%u,%u,%u\",\"block\":\"%u,%u,%u\",\"cycles\":%llu,\"ipc\":%.4f}}",
		        L->stream, (double)L->start / G.clock_mhz, (double)L->k[K_CYCLES] / G.clock_mhz, i, L->grid[0],
		        L->grid[1], L->grid[2], L->block[0], L->block[1], L->block[2],
		        (unsigned long long)L->k[K_CYCLES], ipc(L));
	}
	fprintf(f, "\n]}\n");
	if (fclose(f) != 0)
		say("error: WARPSIM_TRACE=%s: writing failed", G.trace_path);
}

static void at_exit(void)
{
	fflush(stdout); /* the program's output first */
	if (G.state != 1)
		return;
	if (!G.quiet)
		print_stats(stderr);
	if (G.trace_path && *G.trace_path)
		write_trace();
	if (G.summary_path && *G.summary_path) {
		FILE *f = fopen(G.summary_path, "w");
		if (!f || wsStatsWriteJSON(G.sim, f) != WS_SUCCESS)
			say("error: WARPSIM_SUMMARY=%s: cannot write", G.summary_path);
		if (f && fclose(f) != 0)
			say("error: WARPSIM_SUMMARY=%s: writing failed", G.summary_path);
	}
	if (G.stats)
		fclose(G.stats);
	G.stats = NULL;
	/* managed memory stays mapped: later exit handlers of the program may read it */
	G.nallocs = 0;
	for (int i = 0; i < G.nmods; i++) { /* wsSimDestroy unloads the modules */
		struct cr_module *m = G.mods[i];
		free(m->units);
		free(m->unit_arch);
		free(m->unit_first);
		free(m->unit_err);
		m->units = NULL;
		m->nunits = 0;
	}
	for (int i = 0; i < G.nvars; i++)
		G.vars[i].mod = NULL;
	for (int i = 0; i < G.nfuncs; i++)
		G.funcs[i]->fn = NULL;
	wsSimDestroy(G.sim);
	G.sim = NULL;
	G.state = 2; /* calls from later exit handlers return cudaErrorCudartUnloading */
}

/* ---- arrays, textures and surfaces (warpsim's texture API; docs/ptx.md) ---- */

/* a failed warpsim call: say why, return the CUDA error */
static cudaError_t tex_fail(const char *call, ws_result r)
{
	say("error: %s: %s", call, wsSimLastError(G.sim));
	return ret(r == WS_ERROR_OUT_OF_MEMORY ? cudaErrorMemoryAllocation : cudaErrorInvalidValue);
}

static ws_channel_format tex_fmt(const struct cudaChannelFormatDesc *d)
{
	return (ws_channel_format){d->x, d->y, d->z, d->w, (ws_channel_kind)d->f};
}

CR_API(cudaError_t, cudaMalloc3DArray,
       (cudaArray_t * arr, const struct cudaChannelFormatDesc *desc, struct cudaExtent ext, unsigned flags),
       (arr, desc, ext, flags))
{
	cudaError_t e = ready();
	if (e)
		return ret(e);
	if (!arr || !desc)
		return ret(cudaErrorInvalidValue);
	ws_channel_format f = tex_fmt(desc);
	/* CUDA's texture-gather flag (8) needs nothing here */
	ws_result r = wsArrayCreate(G.sim, arr, &f, ext.width, ext.height, ext.depth, flags & ~8u);
	return r == WS_SUCCESS ? cudaSuccess : tex_fail("cudaMalloc3DArray", r);
}

CR_API(cudaError_t, cudaMallocArray,
       (cudaArray_t * arr, const struct cudaChannelFormatDesc *desc, size_t w, size_t h, unsigned flags),
       (arr, desc, w, h, flags))
{
	return cudaMalloc3DArray(arr, desc, (struct cudaExtent){w, h, 0}, flags);
}

CR_API(cudaError_t, cudaFreeArray, (cudaArray_t arr), (arr))
{
	cudaError_t e = ready();
	if (e)
		return ret(e);
	if (!arr)
		return cudaSuccess;
	ws_result r = wsArrayDestroy(arr);
	return r == WS_SUCCESS ? cudaSuccess : tex_fail("cudaFreeArray", r);
}

CR_API(cudaError_t, cudaArrayGetInfo,
       (struct cudaChannelFormatDesc * desc, struct cudaExtent *ext, unsigned *flags, cudaArray_t arr),
       (desc, ext, flags, arr))
{
	ws_array_info in;
	if (!arr || wsArrayGetInfo(arr, &in) != WS_SUCCESS)
		return ret(cudaErrorInvalidValue);
	if (desc)
		*desc = (struct cudaChannelFormatDesc){in.format.x, in.format.y, in.format.z, in.format.w, (int)in.format.f};
	if (ext)
		*ext = (struct cudaExtent){in.width, in.height, in.depth};
	if (flags)
		*flags = in.flags;
	return cudaSuccess;
}

CR_API(cudaError_t, cudaGetChannelDesc, (struct cudaChannelFormatDesc *desc, cudaArray_t arr), (desc, arr))
{
	return cudaArrayGetInfo(desc, NULL, NULL, arr);
}

/* Copy a box of rows between an array and memory (host or device).  The
 * array side: position (x bytes, y row, z slice), rows of `width` bytes;
 * `mem`/`pitch`/`slice_rows` the other side.  to_array: memory -> array. */
static cudaError_t array_rows(cudaArray_t arr, size_t x, size_t y, size_t z, void *mem, size_t pitch, size_t mem_rows,
                              size_t width, size_t height, size_t depth, int kind, int to_array, const char *call)
{
	cudaError_t e = ready();
	if (e)
		return ret(e);
	ws_array_info in;
	if (!arr || !mem || wsArrayGetInfo(arr, &in) != WS_SUCCESS)
		return ret(cudaErrorInvalidValue);
	int bits = in.format.x + in.format.y + in.format.z + in.format.w;
	size_t row = in.width * (size_t)(bits / 8), rows = in.height ? in.height : 1;
	size_t slices = in.bytes / (row * rows);
	if (x + width > row || y + height > rows || z + depth > slices || width > pitch) {
		say("error: %s: the copy (%zu bytes x %zu rows x %zu at %zu,%zu,%zu) exceeds the array (%zu bytes x %zu x %zu) "
		    "or the pitch %zu",
		    call, width, height, depth, x, y, z, row, rows, slices, pitch);
		return ret(cudaErrorInvalidValue);
	}
	/* the memory side is host memory unless the kind (or, for cudaMemcpyDefault, the pointer) says device */
	int mem_dev = kind == cudaMemcpyDefault ? on_device(mem)
	              : to_array               ? kind == cudaMemcpyDeviceToDevice
	                                       : kind == cudaMemcpyDeviceToDevice;
	if (kind != cudaMemcpyDefault && kind != (to_array ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost) &&
	    kind != cudaMemcpyDeviceToDevice)
		return ret(cudaErrorInvalidMemcpyDirection);
	for (size_t k = 0; k < depth; k++)
		for (size_t j = 0; j < height; j++) {
			ws_deviceptr a = in.dptr + ((z + k) * rows + y + j) * row + x;
			char *m = (char *)mem + (k * mem_rows + j) * pitch;
			ws_result r;
			if (mem_dev)
				r = to_array ? wsMemcpyDtoD(G.sim, a, (uintptr_t)m, width) : wsMemcpyDtoD(G.sim, (uintptr_t)m, a, width);
			else
				r = to_array ? wsMemcpyHtoD(G.sim, a, m, width) : wsMemcpyDtoH(G.sim, m, a, width);
			if (r != WS_SUCCESS)
				return tex_fail(call, r);
		}
	return cudaSuccess;
}

CR_API(cudaError_t, cudaMemcpy2DToArray,
       (cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src, size_t spitch, size_t width, size_t height,
        int kind),
       (dst, wOffset, hOffset, src, spitch, width, height, kind))
{
	return array_rows(dst, wOffset, hOffset, 0, (void *)src, spitch, height, width, height, 1, kind, 1,
	                  "cudaMemcpy2DToArray");
}

CR_API(cudaError_t, cudaMemcpy2DToArrayAsync,
       (cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src, size_t spitch, size_t width, size_t height,
        int kind, cudaStream_t s),
       (dst, wOffset, hOffset, src, spitch, width, height, kind, s))
{
	return cudaMemcpy2DToArray(dst, wOffset, hOffset, src, spitch, width, height, kind);
}

CR_API(cudaError_t, cudaMemcpy2DFromArray,
       (void *dst, size_t dpitch, cudaArray_t src, size_t wOffset, size_t hOffset, size_t width, size_t height,
        int kind),
       (dst, dpitch, src, wOffset, hOffset, width, height, kind))
{
	return array_rows(src, wOffset, hOffset, 0, dst, dpitch, height, width, height, 1, kind, 0,
	                  "cudaMemcpy2DFromArray");
}

CR_API(cudaError_t, cudaMemcpy2DFromArrayAsync,
       (void *dst, size_t dpitch, cudaArray_t src, size_t wOffset, size_t hOffset, size_t width, size_t height,
        int kind, cudaStream_t s),
       (dst, dpitch, src, wOffset, hOffset, width, height, kind, s))
{
	return cudaMemcpy2DFromArray(dst, dpitch, src, wOffset, hOffset, width, height, kind);
}

/* the deprecated linear forms: `count` bytes from (wOffset bytes, hOffset rows) on, row by row through the array */
static cudaError_t array_linear(cudaArray_t arr, size_t wOffset, size_t hOffset, void *mem, size_t count, int kind,
                                int to_array, const char *call)
{
	ws_array_info in;
	if (!arr || !mem || wsArrayGetInfo(arr, &in) != WS_SUCCESS)
		return ret(cudaErrorInvalidValue);
	size_t row = in.width * (size_t)((in.format.x + in.format.y + in.format.z + in.format.w) / 8);
	size_t off = hOffset * row + wOffset;
	if (wOffset >= row || off + count > in.bytes) {
		say("error: %s: %zu bytes at row %zu, byte %zu exceed the array (%zu bytes)", call, count, hOffset, wOffset,
		    in.bytes);
		return ret(cudaErrorInvalidValue);
	}
	for (size_t done = 0; done < count;) {
		size_t x = (off + done) % row, n = row - x < count - done ? row - x : count - done;
		cudaError_t e = array_rows(arr, x, (off + done) / row, 0, (char *)mem + done, n, 1, n, 1, 1, kind, to_array, call);
		if (e)
			return e;
		done += n;
	}
	return cudaSuccess;
}

CR_API(cudaError_t, cudaMemcpyToArray,
       (cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src, size_t count, int kind),
       (dst, wOffset, hOffset, src, count, kind))
{
	return array_linear(dst, wOffset, hOffset, (void *)src, count, kind, 1, "cudaMemcpyToArray");
}

CR_API(cudaError_t, cudaMemcpyFromArray,
       (void *dst, cudaArray_t src, size_t wOffset, size_t hOffset, size_t count, int kind),
       (dst, src, wOffset, hOffset, count, kind))
{
	return array_linear(src, wOffset, hOffset, dst, count, kind, 0, "cudaMemcpyFromArray");
}

CR_API(cudaError_t, cudaMemcpy3D, (const struct cudaMemcpy3DParms *p), (p))
{
	if (!p)
		return ret(cudaErrorInvalidValue);
	if ((p->srcArray != NULL) == (p->dstArray != NULL)) {
		say("error: cudaMemcpy3D: exactly one side must be an array (array-to-array and pitched-to-pitched copies "
		    "are not supported)");
		return ret(p->srcArray ? cudaErrorNotSupported : cudaErrorInvalidValue);
	}
	int to = p->dstArray != NULL;
	cudaArray_t arr = to ? p->dstArray : p->srcArray;
	ws_array_info in;
	if (wsArrayGetInfo(arr, &in) != WS_SUCCESS)
		return ret(cudaErrorInvalidValue);
	size_t esz = (size_t)(in.format.x + in.format.y + in.format.z + in.format.w) / 8;
	const struct cudaPos *ap = to ? &p->dstPos : &p->srcPos, *mp = to ? &p->srcPos : &p->dstPos;
	const struct cudaPitchedPtr *m = to ? &p->srcPtr : &p->dstPtr;
	size_t h = p->extent.height ? p->extent.height : 1, d = p->extent.depth ? p->extent.depth : 1;
	size_t mrows = m->ysize ? m->ysize : h;
	char *base = (char *)m->ptr + (mp->z * mrows + mp->y) * m->pitch + mp->x;
	return array_rows(arr, ap->x * esz, ap->y, ap->z, base, m->pitch, mrows, p->extent.width * esz, h, d, p->kind, to,
	                  "cudaMemcpy3D");
}

CR_API(cudaError_t, cudaMemcpy3DAsync, (const struct cudaMemcpy3DParms *p, cudaStream_t s), (p, s))
{
	return cudaMemcpy3D(p);
}

static cudaError_t resource(const struct cudaResourceDesc *rd, ws_resource_desc *out, const char *call)
{
	memset(out, 0, sizeof *out);
	switch (rd->resType) {
	case 0:
		out->type = WS_RESOURCE_ARRAY;
		out->array = rd->res.array.array;
		return cudaSuccess;
	case 2:
		out->type = WS_RESOURCE_LINEAR;
		out->ptr = (uintptr_t)rd->res.linear.devPtr;
		out->format = tex_fmt(&rd->res.linear.desc);
		out->size_bytes = rd->res.linear.sizeInBytes;
		return cudaSuccess;
	case 3:
		out->type = WS_RESOURCE_PITCH2D;
		out->ptr = (uintptr_t)rd->res.pitch2D.devPtr;
		out->format = tex_fmt(&rd->res.pitch2D.desc);
		out->width = rd->res.pitch2D.width;
		out->height = rd->res.pitch2D.height;
		out->pitch_bytes = rd->res.pitch2D.pitchInBytes;
		return cudaSuccess;
	default:
		say("%s: resource type %d (mipmapped arrays) is not supported by warpsim (see docs/cuda.md)", call,
		    rd->resType);
		return ret(cudaErrorNotSupported);
	}
}

CR_API(cudaError_t, cudaCreateTextureObject,
       (cudaTextureObject_t * tex, const struct cudaResourceDesc *rd, const struct cudaTextureDesc *td,
        const void *view),
       (tex, rd, td, view))
{
	cudaError_t e = ready();
	if (e)
		return ret(e);
	if (!tex || !rd || !td)
		return ret(cudaErrorInvalidValue);
	if (view) {
		say("cudaCreateTextureObject: resource views are not supported by warpsim (see docs/cuda.md)");
		return ret(cudaErrorNotSupported);
	}
	ws_resource_desc r;
	if ((e = resource(rd, &r, "cudaCreateTextureObject")) != cudaSuccess)
		return e;
	ws_texture_desc d;
	memset(&d, 0, sizeof d);
	for (int k = 0; k < 3; k++)
		d.address_mode[k] = (ws_address_mode)td->addressMode[k];
	d.filter_mode = (ws_filter_mode)td->filterMode;
	d.read_mode = (ws_read_mode)td->readMode;
	d.normalized_coords = td->normalizedCoords;
	memcpy(d.border_color, td->borderColor, sizeof d.border_color);
	ws_texobject h;
	ws_result wr = wsTextureCreate(G.sim, &h, &r, &d);
	if (wr != WS_SUCCESS)
		return tex_fail("cudaCreateTextureObject", wr);
	*tex = h;
	return cudaSuccess;
}

CR_API(cudaError_t, cudaDestroyTextureObject, (cudaTextureObject_t tex), (tex))
{
	cudaError_t e = ready();
	if (e)
		return ret(e);
	if (!tex)
		return cudaSuccess;
	ws_result r = wsTextureDestroy(G.sim, tex);
	return r == WS_SUCCESS ? cudaSuccess : tex_fail("cudaDestroyTextureObject", r);
}

CR_API(cudaError_t, cudaCreateSurfaceObject, (cudaSurfaceObject_t *surf, const struct cudaResourceDesc *rd), (surf, rd))
{
	cudaError_t e = ready();
	if (e)
		return ret(e);
	if (!surf || !rd)
		return ret(cudaErrorInvalidValue);
	ws_resource_desc r;
	if ((e = resource(rd, &r, "cudaCreateSurfaceObject")) != cudaSuccess)
		return e;
	ws_surfobject h;
	ws_result wr = wsSurfaceCreate(G.sim, &h, &r);
	if (wr != WS_SUCCESS)
		return tex_fail("cudaCreateSurfaceObject", wr);
	*surf = h;
	return cudaSuccess;
}

CR_API(cudaError_t, cudaDestroySurfaceObject, (cudaSurfaceObject_t surf), (surf))
{
	cudaError_t e = ready();
	if (e)
		return ret(e);
	if (!surf)
		return cudaSuccess;
	ws_result r = wsSurfaceDestroy(G.sim, surf);
	return r == WS_SUCCESS ? cudaSuccess : tex_fail("cudaDestroySurfaceObject", r);
}

/* ---- calls that are not implemented: one line naming the call, cudaErrorNotSupported ---- */
#define U(name)                                                                                                        \
	CR_API(cudaError_t, name, (void), ())                                                                          \
	{                                                                                                              \
		say("%s is not supported by warpsim (see docs/cuda.md)", #name);                                       \
		return ret(cudaErrorNotSupported);                                                                     \
	}
#define A(name, base) EXPORT __typeof__(base) name __attribute__((alias(#base)));
#include "cudart/unsupported.def"
#undef U
#undef A
