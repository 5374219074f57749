/*
 * cudart_launch.c -- CUDA runtime library, launches: <<<>>> configurations
 * (one stack, each host thread pops its own), cudaLaunchKernel and its
 * variants with managed memory synchronised around them, device faults as
 * sticky errors, occupancy and function attributes; and the per-launch
 * statistics (counter deltas around each launch) printed at exit,
 * appended as JSON lines, and written as a Perfetto trace and a summary.
 *
 * Models no hardware (see cudart.c); shared state in cudart_internal.h.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cudart/cudart_internal.h"
#include "stats/speed.h"

/* counters whose per-launch deltas are reported, in the order of K_CYCLES ... (cudart_internal.h) */
static const char *const K_NAMES[] = {"cycles",        "warp_insts",  "thread_insts",     "issue_cycles",
                                      "stall_control", "stall_data",  "stall_structural", "stall_barrier",
                                      "stall_exit",    "stall_fetch", "stall_idle"};
_Static_assert(sizeof K_NAMES / sizeof K_NAMES[0] == NK, "K_NAMES and NK disagree");

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

/* Append the launch's JSON line to WARPSIM_STATS: formatted whole, then one
 * write() to the file opened with O_APPEND, so lines of concurrent runs (or
 * of several processes of one run) never interleave.  Each line carries the
 * process id that wrote it. */
static void write_stats_line(const struct cr_launch *L, int idx)
{
	if (G.stats_fd < 0)
		return;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f)
		return;
	fprintf(f, "{\"launch\":%d,\"pid\":%ld,\"kernel\":", idx, (long)getpid());
	json_str(f, L->name);
	fprintf(f, ",\"ptx\":\"compute_%u\"", L->arch);
	fprintf(f, ",\"grid\":[%u,%u,%u],\"block\":[%u,%u,%u],\"shared_bytes\":%zu,\"stream\":%u,\"start_cycle\":%llu",
	        L->grid[0], L->grid[1], L->grid[2], L->block[0], L->block[1], L->block[2], L->shared, L->stream,
	        (unsigned long long)L->start);
	for (int i = 0; i < NK; i++)
		fprintf(f, ",\"%s\":%llu", K_NAMES[i], (unsigned long long)L->k[i]);
	ws_occupancy o;
	if (L->occ_launch >= 0 && wsLaunchOccupancy(G.sim, (unsigned)L->occ_launch, &o) == WS_SUCCESS) {
		fprintf(f, ",\"ctas_per_sm\":%u,\"limit\":\"%s\",\"regs_per_thread\":%u,\"regs_source\":\"%s\"",
		        o.ctas_per_sm, o.limit, o.regs_per_thread, o.regs_source);
		if (o.ptxas_regs)
			fprintf(f, ",\"ptxas_regs\":%u,\"ptxas_ctas_per_sm\":%u", o.ptxas_regs, o.ptxas_ctas_per_sm);
	}
	if (L->occ_launch >= 0) { /* every counter of the launch alone, as `warpsim run --launch-stats` */
		fputs(",\"stats\":", f);
		if (wsLaunchStatsWriteJSON(G.sim, (unsigned)L->occ_launch, f) != WS_SUCCESS)
			fputs("null", f);
	}
	fprintf(f, ",\"ipc\":%.6g,\"error\":", ipc(L));
	if (L->err)
		json_str(f, cudaGetErrorName((cudaError_t)L->err));
	else
		fputs("null", f);
	fputs("}\n", f);
	int bad = fclose(f) != 0 || !buf;
	const char *p = buf;
	ssize_t w = 0;
	while (!bad && len > 0) {
		w = write(G.stats_fd, p, len);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			bad = 1;
		else
			p += w, len -= (size_t)w;
	}
	free(buf);
	if (bad) {
		cr_say("error: WARPSIM_STATS=%s: writing failed (%s); no more per-launch statistics are written",
		       G.stats_path, w < 0 ? strerror(errno) : "out of memory");
		close(G.stats_fd);
		G.stats_fd = -1;
	}
}

/* A whole file written at exit (WARPSIM_TRACE, WARPSIM_SUMMARY): into
 * PATH.tmp.PID, renamed into place when complete, so that a reader, or
 * another run writing the same file, never sees half of it.  A path that
 * exists and is not a regular file (/dev/stderr, a FIFO) is written
 * directly.  *tmp is the temporary's name to pass to out_commit (NULL when
 * written directly). */
static FILE *out_open(const char *path, char **tmp)
{
	struct stat st;
	*tmp = NULL;
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
		return fopen(path, "w");
	size_t n = strlen(path) + 32;
	if (!(*tmp = malloc(n)))
		return NULL;
	snprintf(*tmp, n, "%s.tmp.%ld", path, (long)getpid());
	FILE *f = fopen(*tmp, "w");
	if (!f) {
		free(*tmp);
		*tmp = NULL;
	}
	return f;
}

/* Close, rename into place; on failure say so (naming `var`), leaving nothing behind. */
static void out_commit(FILE *f, char *tmp, const char *var, const char *path)
{
	int bad = ferror(f);
	if (fclose(f) != 0)
		bad = 1;
	int e = errno;
	if (!bad && tmp && rename(tmp, path) != 0) {
		bad = 1;
		e = errno;
	}
	if (bad) {
		cr_say("error: %s=%s: writing failed: %s", var, path, strerror(e));
		if (tmp)
			unlink(tmp);
	}
	free(tmp);
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
cudaError_t cr_stream_check(cudaStream_t s)
{
	if ((uintptr_t)s < 4096)
		return cudaSuccess;
	for (unsigned i = 0; i < G.nlive; i++)
		if (G.live[i] == s)
			return cudaSuccess;
	return cudaErrorInvalidResourceHandle;
}

unsigned cr_stream_id(cudaStream_t s)
{
	return (uintptr_t)s < 4096 || cr_stream_check(s) != cudaSuccess ? 0 : s->id;
}

cudaError_t cr_launch_kernel(struct cr_func *f, dim3 g, dim3 b, void **args, size_t shared, cudaStream_t s, int coop)
{
	cudaError_t e = cr_ready();
	if (e)
		return ret(e);
	if ((e = cr_stream_check(s))) {
		cr_say("error: kernel launch on stream %p: not a stream of this program (destroyed, or never created)",
		       (void *)s);
		return ret(e);
	}
	if (!f)
		return ret(cudaErrorInvalidDeviceFunction);
	if ((e = cr_get_function(f)))
		return ret(e);
	if (shared > (size_t)f->max_dyn_shared) {
		cr_say("error: launch of %s: %zu bytes of dynamic shared memory exceed the %d allowed (raise it with "
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
	L->stream = cr_stream_id(s);
	L->arch = f->arch;
	L->start = G.now;
	uint64_t k0[NK], k1[NK];
	managed_sync(1);
	counters(k0);
	unsigned nsim = wsLaunchCount(G.sim);
	double t0 = speed_now();
	ws_result r = (coop ? wsLaunchCooperativeKernel : wsLaunchKernel)(f->fn, g.x, g.y, g.z, b.x, b.y, b.z,
									 (unsigned)shared, args);
	G.wall += speed_now() - t0;
	counters(k1);
	L->occ_launch = wsLaunchCount(G.sim) > nsim ? (int)nsim : -1;
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
		cr_say("error: kernel %s <<<(%u,%u,%u),(%u,%u,%u)>>> failed: %s", f->name, g.x, g.y, g.z, b.x, b.y, b.z,
		    msg);
		if (fault) {
			cr_say("the fault is reported as %s (\"%s\") by the next synchronizing call", cudaGetErrorName(e),
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
	return cr_launch_kernel(k, g, b, args, shared, s, 0);
}

CR_API(cudaError_t, __cudaLaunchKernel_ptsz,
       (cudaKernel_t k, dim3 g, dim3 b, void **args, size_t shared, cudaStream_t s), (k, g, b, args, shared, s))
{
	return cr_launch_kernel(k, g, b, args, shared, s, 0);
}

CR_API(cudaError_t, cudaLaunchKernel, (const void *func, dim3 g, dim3 b, void **args, size_t shared, cudaStream_t s),
       (func, g, b, args, shared, s))
{
	struct cr_func *f = cr_find_func(func);
	if (!f) {
		cr_say("error: cudaLaunchKernel(%p): not a kernel of the program", func);
		return ret(cudaErrorInvalidDeviceFunction);
	}
	return cr_launch_kernel(f, g, b, args, shared, s, 0);
}
CR_ALIAS(cudaLaunchKernel_ptsz, cudaLaunchKernel)

/* cudaLaunchKernelExC: a launch with attributes.  Cooperative launches are
 * honoured; hints about scheduling that cannot change a result on a
 * simulator that runs one launch at a time (programmatic stream
 * serialization, priority, synchronization policy, memory-sync domains, an
 * access-policy window) are accepted and ignored; clusters larger than one
 * CTA and programmatic events are refused with a message naming them. */
struct cr_launch_config {
	dim3 gridDim, blockDim;
	size_t dynamicSmemBytes;
	cudaStream_t stream;
	const struct cudaLaunchAttribute *attrs;
	unsigned numAttrs;
};
_Static_assert(sizeof(struct cr_launch_config) == 56, "CUDA 13 cudaLaunchConfig_t size");

CR_API(cudaError_t, cudaLaunchKernelExC, (const struct cr_launch_config *c, const void *func, void **args),
       (c, func, args))
{
	if (!c || (c->numAttrs && !c->attrs))
		return ret(cudaErrorInvalidValue);
	struct cr_func *f = cr_find_func(func);
	if (!f) {
		cr_say("error: cudaLaunchKernelExC(%p): not a kernel of the program", func);
		return ret(cudaErrorInvalidDeviceFunction);
	}
	int coop = 0;
	for (unsigned i = 0; i < c->numAttrs; i++) {
		const struct cudaLaunchAttribute *a = &c->attrs[i];
		switch (a->id) {
		case cudaLaunchAttributeCooperative:
			coop = a->val.cooperative != 0;
			break;
		case cudaLaunchAttributeClusterDimension:
		case cudaLaunchAttributePreferredClusterDimension:
			if (a->val.clusterDim.x * a->val.clusterDim.y * a->val.clusterDim.z > 1) {
				cr_say("error: cudaLaunchKernelExC: thread-block clusters (%ux%ux%u) are not supported by "
				       "warpsim (see docs/cuda.md)",
				       a->val.clusterDim.x, a->val.clusterDim.y, a->val.clusterDim.z);
				return ret(cudaErrorNotSupported);
			}
			break;
		case cudaLaunchAttributeIgnore:
		case cudaLaunchAttributeAccessPolicyWindow:
		case cudaLaunchAttributeSynchronizationPolicy:
		case cudaLaunchAttributeClusterSchedulingPolicyPreference:
		case cudaLaunchAttributeProgrammaticStreamSerialization:
		case cudaLaunchAttributePriority:
		case cudaLaunchAttributeMemSyncDomainMap:
		case cudaLaunchAttributeMemSyncDomain:
			break; /* scheduling hints: launches run one at a time anyway */
		case cudaLaunchAttributeProgrammaticEvent:
			cr_say("error: cudaLaunchKernelExC: programmatic events (launch attribute %d) are not supported by "
			       "warpsim (see docs/cuda.md)",
			       a->id);
			return ret(cudaErrorNotSupported);
		default:
			cr_say("error: cudaLaunchKernelExC: unknown launch attribute %d", a->id);
			return ret(cudaErrorInvalidValue);
		}
	}
	return cr_launch_kernel(f, c->gridDim, c->blockDim, args, c->dynamicSmemBytes, c->stream, coop);
}
CR_ALIAS(cudaLaunchKernelExC_ptsz, cudaLaunchKernelExC)

/* cudaLaunchCooperativeKernel: every CTA resident at once (else
 * cudaErrorCooperativeLaunchTooLarge), grid.sync() works */
CR_API(cudaError_t, cudaLaunchCooperativeKernel,
       (const void *func, dim3 g, dim3 b, void **args, size_t shared, cudaStream_t s), (func, g, b, args, shared, s))
{
	struct cr_func *f = cr_find_func(func);
	if (!f) {
		cr_say("error: cudaLaunchCooperativeKernel(%p): not a kernel of the program", func);
		return ret(cudaErrorInvalidDeviceFunction);
	}
	return cr_launch_kernel(f, g, b, args, shared, s, 1);
}
CR_ALIAS(cudaLaunchCooperativeKernel_ptsz, cudaLaunchCooperativeKernel)

CR_API(cudaError_t, cudaFuncSetAttribute, (const void *func, int attr, int value), (func, attr, value))
{
	struct cr_func *f = cr_find_func(func);
	if (!f)
		return ret(cudaErrorInvalidDeviceFunction);
	cudaError_t e = cr_init();
	if (e)
		return ret(e);
	if (attr == cudaFuncAttributeMaxDynamicSharedMemorySize) {
		if (value < 0 || value > cr_cfg_int("shmem_per_sm", 49152))
			return ret(cudaErrorInvalidValue);
		f->max_dyn_shared = value;
		return cudaSuccess;
	}
	if (attr == cudaFuncAttributePreferredSharedMemoryCarveout)
		return value >= -1 && value <= 100 ? cudaSuccess
		                                   : ret(cudaErrorInvalidValue); /* a hint; no carveout modelled */
	cr_say("cudaFuncSetAttribute: attribute %d is not supported", attr);
	return ret(cudaErrorNotSupported);
}

CR_API(cudaError_t, cudaFuncGetAttributes, (struct cudaFuncAttributes *a, const void *func), (a, func))
{
	struct cr_func *f = cr_find_func(func);
	cudaError_t e = cr_ready();
	if (e)
		return ret(e);
	if (!f)
		return ret(cudaErrorInvalidDeviceFunction);
	if (!a)
		return ret(cudaErrorInvalidValue);
	if ((e = cr_get_function(f)))
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
	struct cr_func *f = cr_find_func(func);
	cudaError_t e = cr_ready();
	if (e)
		return ret(e);
	if (!f)
		return ret(cudaErrorInvalidDeviceFunction);
	if (!n || blockSize <= 0)
		return ret(cudaErrorInvalidValue);
	if ((e = cr_get_function(f)))
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
	        (double)G.now / (G.clock_mhz * 1e3), G.clock_mhz, cr_cfg_int("num_sms", 0), sched, fetch);
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
	wsOccupancyPrint(G.sim, out, "occupancy: ");
	struct speed s;
	speed_collect(G.sim, G.wall, &s);
	speed_print_for(&s, "the kernel launches", out);
}

static void write_trace(void)
{
	char *tmp;
	FILE *f = out_open(G.trace_path, &tmp);
	if (!f) {
		cr_say("error: WARPSIM_TRACE=%s: cannot write: %s", G.trace_path, strerror(errno));
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
	out_commit(f, tmp, "WARPSIM_TRACE", G.trace_path);
}

void cr_at_exit(void)
{
	fflush(stdout); /* the program's output first */
	if (G.state != 1)
		return;
	if (!G.quiet)
		print_stats(stderr);
	if (G.trace_path && *G.trace_path)
		write_trace();
	if (G.summary_path && *G.summary_path) {
		char *tmp;
		FILE *f = out_open(G.summary_path, &tmp);
		if (!f)
			cr_say("error: WARPSIM_SUMMARY=%s: cannot write: %s", G.summary_path, strerror(errno));
		else if (wsStatsWriteJSON(G.sim, f) != WS_SUCCESS) {
			cr_say("error: WARPSIM_SUMMARY=%s: cannot write: %s", G.summary_path, wsSimLastError(G.sim));
			fclose(f);
			if (tmp)
				unlink(tmp);
			free(tmp);
		} else {
			out_commit(f, tmp, "WARPSIM_SUMMARY", G.summary_path);
		}
	}
	if (G.stats_fd >= 0)
		close(G.stats_fd);
	G.stats_fd = -1;
	/* managed memory stays mapped: later exit handlers of the program may read it */
	G.nallocs = 0;
	for (int i = 0; i < G.nmods; i++) { /* wsSimDestroy unloads the modules */
		struct cr_module *m = G.mods[i];
		free(m->units);
		free(m->unit_arch);
		free(m->unit_first);
		free(m->unit_err);
		free(m->sass_regs);
		m->sass_regs = NULL;
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

