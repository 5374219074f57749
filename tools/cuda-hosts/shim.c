/*
 * shim.c -- the warpsim runtime calls of the bundled benchmarks' host drivers
 * (bench/NAME/host.c, bench/bench_common.c) implemented on the CUDA runtime
 * API, and the main() of every program `make cuda-hosts` builds, so the
 * unmodified host driver runs its kernel (compiled by nvcc from
 * bench/NAME/kernel.cu) on a real GPU, on GPGPU-Sim, or under `warpsim cuda`.
 *
 * What differs from running the benchmark with `warpsim run`:
 *  - wsMemsetD32 with a value whose four bytes differ (the NaN and -1 fills,
 *    sentinels) is a host-to-device cudaMemcpy of the filled words: the CUDA
 *    runtime API has no 32-bit memset.  Simulators that place copied lines in
 *    their L2 (GPGPU-Sim's -gpgpu_perf_sim_memcpy, warpsim's l2_memcpy_fill)
 *    then also place those;
 *  - device addresses are cudaMalloc's;
 *  - wsConfigGet answers from the table of configs/NAME.cfg chosen at start
 *    (config_choose), since there is no simulator configuration to ask;
 *  - the spin-branch notes are not handed to anyone (ws_bench_annotate_sibs
 *    does nothing): only a simulator uses them.
 *
 * usage: NAME [--config CFG] [tiny|small|paper|paper-kaws]     (docs/cuda.md)
 */
#include <cuda_runtime_api.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_host.h"

struct ws_sim {
	char err[512];
};
struct ws_module {
	int unused;
};
struct ws_config {
	const struct cuhost_config *cfg;
};

static struct ws_sim shim_sim;
static struct ws_module shim_module;
static struct ws_config shim_config;

/* the ws_result closest to a CUDA error, with "what: cudaErrorX: text" as the last error */
static ws_result shim_check(const char *what, cudaError_t e)
{
	static const struct {
		cudaError_t cuda;
		ws_result ws;
	} map[] = {
	    {cudaErrorInvalidValue, WS_ERROR_INVALID_VALUE},
	    {cudaErrorMemoryAllocation, WS_ERROR_OUT_OF_MEMORY},
	    {cudaErrorInvalidSymbol, WS_ERROR_NOT_FOUND},
	    {cudaErrorInvalidDeviceFunction, WS_ERROR_NOT_FOUND},
	    {cudaErrorLaunchOutOfResources, WS_ERROR_LAUNCH_OUT_OF_RESOURCES},
	    {cudaErrorInvalidConfiguration, WS_ERROR_INVALID_LAUNCH},
	    {cudaErrorIllegalAddress, WS_ERROR_ILLEGAL_ADDRESS},
	    {cudaErrorMisalignedAddress, WS_ERROR_MISALIGNED_ADDRESS},
	    {cudaErrorIllegalInstruction, WS_ERROR_ILLEGAL_INSTRUCTION},
	    {cudaErrorAssert, WS_ERROR_TRAP},
	    {cudaErrorLaunchTimeout, WS_ERROR_LIMIT_EXCEEDED},
	};
	if (e == cudaSuccess)
		return WS_SUCCESS;
	snprintf(shim_sim.err, sizeof shim_sim.err, "%s: %s: %s", what, cudaGetErrorName(e), cudaGetErrorString(e));
	for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
		if (map[i].cuda == e)
			return map[i].ws;
	return WS_ERROR_INTERNAL;
}

static void *dev(ws_deviceptr p)
{
	return (void *)(uintptr_t)p;
}

const char *wsGetErrorString(ws_result r)
{
	static const char *const text[] = {
#define WS_X(e, s) s,
	    WS_RESULTS(WS_X)
#undef WS_X
	};
	return (unsigned)r < WS_RESULT_COUNT ? text[r] : "unknown ws_result";
}

const char *wsSimLastError(const ws_sim *sim)
{
	return sim ? sim->err : "";
}

const ws_config *wsSimConfig(const ws_sim *sim)
{
	return sim ? &shim_config : NULL;
}

/* value of `key` in "key = value" lines, copied to buf; NULL if absent */
static const char *lines_get(const char *lines, const char *key, char *buf, size_t bufsz)
{
	size_t klen = strlen(key);
	for (const char *l = lines; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		if (strncmp(l, key, klen) != 0 || strncmp(l + klen, " = ", 3) != 0)
			continue;
		const char *v = l + klen + 3, *end = strchr(v, '\n');
		size_t n = end ? (size_t)(end - v) : strlen(v);
		snprintf(buf, bufsz, "%.*s", (int)n, v);
		return buf;
	}
	return NULL;
}

/* value of `key` in WARPSIM_SET ("KEY=VALUE" separated by ';' or newlines, the
 * last one counts, as warpsim applies them in order); NULL if not set there */
static const char *set_get(const char *key, char *buf, size_t bufsz)
{
	const char *s = getenv("WARPSIM_SET"), *found = NULL;
	size_t klen = strlen(key), flen = 0;
	while (s && *s) {
		size_t n = strcspn(s, ";\n");
		const char *eq = memchr(s, '=', n);
		const char *k = s, *kend = eq ? eq : s;
		while (k < kend && (*k == ' ' || *k == '\t'))
			k++;
		while (kend > k && (kend[-1] == ' ' || kend[-1] == '\t'))
			kend--;
		if (eq && (size_t)(kend - k) == klen && strncmp(k, key, klen) == 0) {
			found = eq + 1;
			flen = (size_t)(s + n - found);
			while (flen && (*found == ' ' || *found == '\t'))
				found++, flen--;
			while (flen && (found[flen - 1] == ' ' || found[flen - 1] == '\t'))
				flen--;
		}
		s += n + (s[n] != '\0');
	}
	if (!found)
		return NULL;
	snprintf(buf, bufsz, "%.*s", (int)flen, found);
	return buf;
}

const char *wsConfigGet(const ws_config *cfg, const char *key, char *buf, size_t bufsz)
{
	if (!cfg || !key || !buf || !bufsz)
		return NULL;
	const char *v = set_get(key, buf, bufsz);
	return v ? v : lines_get(cfg->cfg->params, key, buf, bufsz);
}

ws_result wsModuleGetFunction(ws_function **out, ws_module *mod, const char *name)
{
	for (ws_function *f = cuhost_kernels; f->name; f++)
		if (strcmp(f->name, name) == 0) {
			*out = f;
			return WS_SUCCESS;
		}
	snprintf(shim_sim.err, sizeof shim_sim.err, "wsModuleGetFunction: no kernel %s in kernel.cu", name);
	return WS_ERROR_NOT_FOUND;
}

ws_result wsMemcpyToSymbol(ws_module *mod, const char *name, const void *src, size_t bytes, size_t offset)
{
	for (const struct cuhost_variable *v = cuhost_variables; v->name; v++)
		if (strcmp(v->name, name) == 0)
			return shim_check("cudaMemcpyToSymbol",
			                  cudaMemcpyToSymbol(v->shadow, src, bytes, offset, cudaMemcpyHostToDevice));
	snprintf(shim_sim.err, sizeof shim_sim.err, "wsMemcpyToSymbol: no variable %s in kernel.cu", name);
	return WS_ERROR_NOT_FOUND;
}

ws_result wsMemAlloc(ws_sim *sim, ws_deviceptr *dptr, size_t bytes)
{
	void *p = NULL;
	ws_result r = shim_check("cudaMalloc", cudaMalloc(&p, bytes));
	*dptr = (ws_deviceptr)(uintptr_t)p;
	return r;
}

ws_result wsMemFree(ws_sim *sim, ws_deviceptr dptr)
{
	return shim_check("cudaFree", cudaFree(dev(dptr)));
}

ws_result wsMemcpyHtoD(ws_sim *sim, ws_deviceptr dst, const void *src, size_t bytes)
{
	return shim_check("cudaMemcpy (host to device)", cudaMemcpy(dev(dst), src, bytes, cudaMemcpyHostToDevice));
}

ws_result wsMemcpyDtoH(ws_sim *sim, void *dst, ws_deviceptr src, size_t bytes)
{
	return shim_check("cudaMemcpy (device to host)", cudaMemcpy(dst, dev(src), bytes, cudaMemcpyDeviceToHost));
}

ws_result wsMemcpyDtoD(ws_sim *sim, ws_deviceptr dst, ws_deviceptr src, size_t bytes)
{
	return shim_check("cudaMemcpy (device to device)",
	                  cudaMemcpy(dev(dst), dev(src), bytes, cudaMemcpyDeviceToDevice));
}

ws_result wsMemsetD8(ws_sim *sim, ws_deviceptr dst, uint8_t value, size_t count)
{
	return shim_check("cudaMemset", cudaMemset(dev(dst), value, count));
}

ws_result wsMemsetD32(ws_sim *sim, ws_deviceptr dst, uint32_t value, size_t count)
{
	if (value == (value & 0xffu) * 0x01010101u)
		return shim_check("cudaMemset", cudaMemset(dev(dst), (int)(value & 0xffu), count * 4));
	uint32_t *words = malloc(count ? count * 4 : 1);
	if (!words) {
		snprintf(shim_sim.err, sizeof shim_sim.err, "wsMemsetD32: no host memory for %zu words", count);
		return WS_ERROR_OUT_OF_MEMORY;
	}
	for (size_t i = 0; i < count; i++)
		words[i] = value;
	ws_result r = shim_check("cudaMemcpy (wsMemsetD32 of a value with unequal bytes)",
	                         cudaMemcpy(dev(dst), words, count * 4, cudaMemcpyHostToDevice));
	free(words);
	return r;
}

ws_result wsLaunchKernel(ws_function *f, unsigned gridX, unsigned gridY, unsigned gridZ, unsigned blockX,
                         unsigned blockY, unsigned blockZ, unsigned sharedMemBytes, void **params)
{
	dim3 grid = {gridX, gridY, gridZ}, block = {blockX, blockY, blockZ};
	char what[160];
	snprintf(what, sizeof what, "cudaLaunchKernel(%s)", f->name);
	ws_result r = shim_check(what, cudaLaunchKernel(f->stub, grid, block, params, sharedMemBytes, NULL));
	if (r == WS_SUCCESS) {
		snprintf(what, sizeof what, "cudaDeviceSynchronize after %s", f->name);
		r = shim_check(what, cudaDeviceSynchronize());
	}
	return r;
}

/* Only a simulator uses the spin-branch notes (bench.h). */
ws_result ws_bench_annotate_sibs(const struct ws_bench_info *b, ws_module *mod, struct ws_bench_out *out)
{
	return WS_SUCCESS;
}

/* The configuration wsConfigGet answers for: --config NAME, else
 * $WARPSIM_HOST_CONFIG, else the configs/NAME.cfg that $WARPSIM_CONFIG names
 * (set by `warpsim cuda --config`), else gtx480 (warpsim's defaults).  NULL,
 * with the reason on stderr, for a name that has no table. */
static const struct cuhost_config *config_choose(const char *opt, const char **from)
{
	char name[256];
	const char *env = getenv("WARPSIM_HOST_CONFIG"), *path = getenv("WARPSIM_CONFIG");
	if (opt)
		*from = "--config";
	else if (env && *env)
		*from = "WARPSIM_HOST_CONFIG", opt = env;
	else if (path && *path) {
		*from = "WARPSIM_CONFIG";
		const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
		size_t n = strlen(base);
		if (n > 4 && strcmp(base + n - 4, ".cfg") == 0)
			n -= 4;
		snprintf(name, sizeof name, "%.*s", (int)n, base);
		opt = name;
	} else
		*from = "default", opt = "gtx480";
	for (const struct cuhost_config *c = cuhost_configs; c->name; c++)
		if (strcmp(c->name, opt) == 0)
			return c;
	fprintf(stderr, "%s: %s names '%s', which has no configuration table; known:", ws_bench_table[0]->name, *from,
	        opt);
	for (const struct cuhost_config *c = cuhost_configs; c->name; c++)
		fprintf(stderr, " %s", c->name);
	fprintf(stderr, " (configs/NAME.cfg; set WARPSIM_HOST_CONFIG or --config to one of them)\n");
	return NULL;
}

static int usage(const char *name)
{
	fprintf(
	    stderr,
	    "usage: %s [--config CFG] [tiny|small|paper|paper-kaws]\n"
	    "  runs the bundled benchmark %s on the CUDA device (default size: paper) and checks it\n"
	    "  --config CFG  the configuration its configuration queries are answered for (default: the one\n"
	    "                $WARPSIM_HOST_CONFIG or $WARPSIM_CONFIG names, else gtx480); CFG is a configs/CFG.cfg\n",
	    name, name);
	return 2;
}

int main(int argc, char **argv)
{
	const struct ws_bench_info *b = ws_bench_table[0];
	const char *cfg_opt = NULL, *size_arg = NULL, *from = NULL;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--config") == 0 && i + 1 < argc)
			cfg_opt = argv[++i];
		else if (strncmp(argv[i], "--config=", 9) == 0)
			cfg_opt = argv[i] + 9;
		else if (strcmp(argv[i], "--size") == 0 && i + 1 < argc && !size_arg)
			size_arg = argv[++i];
		else if (argv[i][0] != '-' && !size_arg)
			size_arg = argv[i];
		else
			return usage(b->name);
	}
	int size = size_arg ? ws_bench_size_parse(size_arg) : WS_SIZE_PAPER;
	if (size < 0) {
		fprintf(stderr, "%s: unknown size '%s' (tiny, small, paper or paper-kaws)\n", b->name, size_arg);
		return 2;
	}
	shim_config.cfg = config_choose(cfg_opt, &from);
	if (!shim_config.cfg)
		return 2;
	printf("benchmark: %s, size %s (%s)\n", b->name, ws_bench_size_name((enum ws_bench_size)size),
	       b->sizes[size] ? b->sizes[size] : "-");
	printf("configuration queries: %s (%s)\n", shim_config.cfg->name, from);
	fflush(stdout);
	struct ws_bench_out out;
	memset(&out, 0, sizeof out);
	ws_result r = ws_bench_run(b, &shim_sim, &shim_module, (enum ws_bench_size)size, &out);
	printf("kernel launches: %u\n", out.launches);
	if (r == WS_SUCCESS)
		printf("verification: PASSED\n");
	else
		printf("verification: FAILED: %s\n", out.msg);
	return r == WS_SUCCESS ? 0 : 1;
}
