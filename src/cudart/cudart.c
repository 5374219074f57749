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
 *    launch, printed at exit, appended as JSON lines (WARPSIM_STATS) and as a
 *    Perfetto trace of the launches (WARPSIM_TRACE); every counter over all
 *    launches with the effective configuration (WARPSIM_SUMMARY).
 *
 *  - `warpsim cuda` learns whether the program's CUDA work went through the
 *    library from the file named by WARPSIM_CUDART_REPORT (below).
 *
 * The library never exits the program; unsupported calls print one line
 * naming the call and return cudaErrorNotSupported (unsupported.def).
 *
 * This file holds the context, its lock, the report to `warpsim cuda`, the
 * errors, the creation of the simulator and the unsupported calls; the other areas are in
 * cudart_module.c, cudart_memory.c, cudart_launch.c, cudart_device.c and
 * cudart_texture.c (cudart_internal.h lists them).
 */
#define _GNU_SOURCE /* dl_iterate_phdr */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cudart/cudart_internal.h"

struct cr_ctx G = {.once = PTHREAD_ONCE_INIT, .stats_fd = -1};

/* ---- the report to `warpsim cuda` ----
 * `warpsim cuda` preloads this library into the program (and every process
 * it starts) and names an empty file in WARPSIM_CUDART_REPORT.  A process
 * whose CUDA calls reach this library appends the line "call PID EXE" at
 * its first call (any entry point, registration included); at exit, a
 * process that has another CUDA runtime or the CUDA driver loaded (a
 * libcudart.so of another version or opened by its path, the driver that a
 * statically linked runtime opens) appends "other PID EXE LIBRARY" for each.
 * A line has four tab-separated fields (LIBRARY empty for "call") and is one
 * write() to the file, opened for appending.  After the run the command
 * tells from the lines whether the program's CUDA work went through the
 * simulator (cmd_cuda.c). */
static void report_line(const char *kind, const char *lib)
{
	const char *path = getenv("WARPSIM_CUDART_REPORT");
	if (!path || !*path)
		return;
	int fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC); /* never created here: it is the command's */
	if (fd < 0)
		return;
	char exe[PATH_MAX] = "?", other[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (n > 0)
		exe[n] = '\0';
	snprintf(other, sizeof other, "%s", lib ? lib : "");
	for (char *c = exe; *c; c++) /* a tab or newline in a path would break the format */
		*c = *c == '\t' || *c == '\n' ? '?' : *c;
	for (char *c = other; *c; c++)
		*c = *c == '\t' || *c == '\n' ? '?' : *c;
	char line[2 * PATH_MAX + 64];
	int len = snprintf(line, sizeof line, "%s\t%ld\t%s\t%s\n", kind, (long)getpid(), exe, other);
	if (len > 0 && (size_t)len < sizeof line && write(fd, line, (size_t)len) < 0) {
		/* nothing to do: the command then says that no call reached warpsim */
	}
	close(fd);
}

/* dl_iterate_phdr callback: report a loaded CUDA runtime or driver other than this library */
static int report_other(struct dl_phdr_info *info, size_t size, void *data)
{
	uintptr_t self = (uintptr_t)&report_other; /* this library is the object that holds this function */
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		if (ph->p_type == PT_LOAD && self - (uintptr_t)(info->dlpi_addr + ph->p_vaddr) < ph->p_memsz)
			return 0;
	}
	const char *name = info->dlpi_name ? info->dlpi_name : "";
	const char *base = strrchr(name, '/') ? strrchr(name, '/') + 1 : name;
	if (strncmp(base, "libcudart.so", 12) == 0 || strncmp(base, "libcuda.so", 10) == 0)
		report_line("other", name);
	return 0;
}

__attribute__((destructor)) static void report_at_exit(void)
{
	if (getenv("WARPSIM_CUDART_REPORT"))
		dl_iterate_phdr(report_other, NULL);
}

static void lock_init(void)
{
	pthread_mutexattr_t a;
	pthread_mutexattr_init(&a);
	pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
	pthread_mutex_init(&G.lock, &a);
	pthread_mutexattr_destroy(&a);
}

void cr_lock(void)
{
	pthread_once(&G.once, lock_init);
	pthread_mutex_lock(&G.lock);
	if (!G.reported) {
		G.reported = 1;
		report_line("call", NULL);
	}
}

void cr_unlock(void) { pthread_mutex_unlock(&G.lock); }

void cr_say(const char *fmt, ...)
{
	va_list ap;
	fflush(stdout);
	fputs(PFX, stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
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

static int config_from_env(ws_config *cfg)
{
	char err[512];
	const char *file = getenv("WARPSIM_CONFIG");
	if (file && *file && wsConfigLoadFile(cfg, file, err, sizeof err) != WS_SUCCESS) {
		cr_say("error: WARPSIM_CONFIG=%s: %s", file, err);
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
				cr_say("error: WARPSIM_SET: '%s' is not KEY=VALUE", kv);
				free(copy);
				return -1;
			}
			*eq = '\0';
			if (wsConfigSet(cfg, kv, eq + 1, err, sizeof err) != WS_SUCCESS) {
				cr_say("error: WARPSIM_SET: %s", err);
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
			cr_say("error: %s=%s: %s", shortcut[i][0], v, err);
			return -1;
		}
	}
	if (wsConfigCheck(cfg, err, sizeof err) != WS_SUCCESS) {
		cr_say("error: configuration: %s", err);
		return -1;
	}
	return 0;
}

/* Create the simulator on first use.  cudaSuccess or the error to return. */
cudaError_t cr_init(void)
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
		cr_say("error: the simulated device could not be created; every CUDA call fails");
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
		cr_say("error: creating the simulator: %s", wsGetErrorString(r));
		return cudaErrorInitializationError;
	}
	G.quiet = getenv("WARPSIM_QUIET") && strcmp(getenv("WARPSIM_QUIET"), "0") != 0;
	G.stats_path = getenv("WARPSIM_STATS");
	G.trace_path = getenv("WARPSIM_TRACE");
	G.summary_path = getenv("WARPSIM_SUMMARY");
	if (G.stats_path && *G.stats_path) { /* appended to: concurrent runs each add their records whole */
		G.stats_fd = open(G.stats_path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0666);
		if (G.stats_fd < 0)
			cr_say("warning: WARPSIM_STATS=%s: cannot write (%s); no per-launch statistics file",
			       G.stats_path, strerror(errno));
	}
	G.state = 1;
	atexit(cr_at_exit);
	return cudaSuccess;
}

/* cr_init() and the sticky fault, for calls that touch the device */
cudaError_t cr_ready(void)
{
	cudaError_t e = cr_init();
	if (e)
		return e;
	return G.sticky;
}

int cr_cfg_int(const char *key, int dflt)
{
	char buf[64];
	const char *v = G.sim ? wsConfigGet(wsSimConfig(G.sim), key, buf, sizeof buf) : NULL;
	return v ? atoi(v) : dflt;
}

/* ---- calls that are not implemented: one line naming the call, cudaErrorNotSupported ---- */
#define U(name)                                                                                                        \
	CR_API(cudaError_t, name, (void), ())                                                                          \
	{                                                                                                              \
		cr_say("%s is not supported by warpsim (see docs/cuda.md)", #name);                                       \
		return ret(cudaErrorNotSupported);                                                                     \
	}
#include "cudart/unsupported.def"
#undef U

