/*
 * cudart_module.c -- CUDA runtime library: what nvcc's host code registers
 * (__cudaRegisterFatBinary, __cudaRegisterFunction, __cudaRegisterVar,
 * __cudaRegisterManagedVar), the PTX of a fat binary loaded on first use
 * (highest virtual architecture first, a lower one if the simulator rejects
 * it) with the register counts of its SASS when it has any, host stubs
 * resolved to functions, and device symbols
 * (cudaMemcpyToSymbol, cudaGetSymbolAddress, ...).
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

/* ---- modules ---- */
static cudaError_t module_prepare(struct cr_module *m)
{
	if (m->nunits)
		return cudaSuccess;
	if (m->load_failed)
		return (cudaError_t)m->load_failed;
	if (m->read_err) {
		cr_say("error: reading the program's fat binary: %s", m->read_err);
		m->load_failed = cudaErrorInvalidPtx;
		return cudaErrorInvalidPtx;
	}
	if (m->nptx == 0) {
		unsigned a = m->sass_arch ? m->sass_arch : 75;
		if (a < 75)
			a = 75;
		cr_say("error: the program contains no PTX%s%.0u; warpsim simulates PTX: rebuild with "
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
		char origin[48];
		snprintf(origin, sizeof origin, "sm_%u", m->regs_arch);
		ws_result r = wsModuleLoadDataRegs(G.sim, &m->units[u], m->ptx[i].text, name, m->sass_regs, origin);
		if (r == WS_SUCCESS) {
			m->unit_arch[u] = m->ptx[i].arch;
			/* the register counts' warnings (ptx/regs.h): ptxas failed, the estimate is used */
			const char *w = wsModuleWarnings(m->units[u]);
			for (const char *nl; *w; w = nl ? nl + 1 : w + strlen(w)) {
				nl = strchr(w, '\n');
				if (strstr(w, "ptxas") && (!nl || strstr(w, "ptxas") < nl))
					cr_say("%.*s", nl ? (int)(nl - w) : (int)strlen(w), w);
			}
			return cudaSuccess;
		}
		m->units[u] = NULL;
		const char *msg = wsSimLastError(G.sim);
		cr_say("%s PTX (compute_%u, embedded in the program): %s%s", last ? "error: the" : "note: cannot use the",
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
		cr_say("error: out of memory registering the program's fat binary");
		return NULL;
	}
	G.mods = nm;
	G.mods[G.nmods++] = m;
	m->wrapper = wrapper;
	char err[512];
	if (fatbin_read_ptx(wrapper, &m->ptx, &m->nptx, &m->sass_arch, err, sizeof err) < 0)
		m->read_err = strdup(err);
	else if (fatbin_read_regs(wrapper, &m->sass_regs, &m->regs_arch) < 0 && m->regs_arch)
		cr_say("warning: the register counts of the program's sm_%u SASS could not be read; the occupancy "
		       "falls back (docs/timing.md: Occupancy)",
		       m->regs_arch);
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
		cr_say("error: __managed__ variable %s: %s", v->name, wsSimLastError(G.sim));
		e = cudaErrorInvalidSymbol;
	}
	for (uint64_t pg = e ? 1 : d / PAGE * PAGE; !e && pg < d + n; pg += PAGE)
		if (map_page(pg) < 0) {
			cr_say("error: __managed__ variable %s: cannot map host memory at device address 0x%llx", v->name,
			    (unsigned long long)pg);
			e = cudaErrorMemoryAllocation;
		}
	if (!e && (wsMemcpyDtoH(G.sim, (void *)(uintptr_t)d, d, n) != WS_SUCCESS || /* its initial value */
	           cr_add_alloc((struct cr_alloc){A_MANAGED, 0, d, n, 0}) != cudaSuccess))
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
	cudaError_t e = cr_ready();
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
		cr_say("error: out of memory registering kernel %s", deviceName ? deviceName : "?");
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
		cr_say("error: out of memory registering variable %s", deviceName ? deviceName : "?");
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

struct cr_func *cr_find_func(const void *host)
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
	struct cr_func *f = cr_find_func(hostFun);
	if (kernel)
		*kernel = f;
	return f ? cudaSuccess : ret(cudaErrorInvalidDeviceFunction);
}

cudaError_t cr_get_function(struct cr_func *f)
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
	cr_say("error: kernel %s is registered but not in the program's PTX", f->name);
	return cudaErrorInvalidDeviceFunction;
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
		cr_say("error: %s: variable %s is registered but not in the program's PTX", call, v->name);
		return cudaErrorInvalidSymbol;
	}
	return cudaSuccess;
}

static cudaError_t symbol(const void *sym, struct cr_var **out, const char *call)
{
	cudaError_t e = cr_ready();
	if (e)
		return e;
	struct cr_var *v = find_var(sym);
	if (!v) {
		cr_say("error: %s: %p is not a __device__ or __constant__ variable of the program", call, sym);
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
		cr_say("error: %s(%s): %zu bytes at offset %zu exceed the variable's %zu bytes", call, v->name, n, off,
		    v->size);
		return ret(cudaErrorInvalidValue);
	}
	int dev_side = (to ? kind == cudaMemcpyDeviceToDevice : kind == cudaMemcpyDeviceToDevice) ||
	               (kind == cudaMemcpyDefault && cr_on_device(host));
	if (kind != cudaMemcpyDefault && kind != cudaMemcpyDeviceToDevice &&
	    kind != (to ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost))
		return ret(cudaErrorInvalidMemcpyDirection);
	if (v->managed && *v->managed) { /* the host copy is current between launches */
		uint8_t *shadow = (uint8_t *)*v->managed + off;
		return cr_copy(to ? (void *)shadow : host, to ? host : (void *)shadow, n,
		            dev_side ? (to ? cudaMemcpyDeviceToHost : cudaMemcpyHostToDevice) : cudaMemcpyHostToHost,
		            call);
	}
	void *buf = host;
	if (dev_side && cr_on_device(host)) {
		if (!(buf = malloc(n ? n : 1)))
			return ret(cudaErrorMemoryAllocation);
		if (to && wsMemcpyDtoH(G.sim, buf, (uintptr_t)host, n) != WS_SUCCESS) {
			free(buf);
			cr_say("error: %s: %s", call, wsSimLastError(G.sim));
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
		cr_say("error: %s(%s): %s", call, v->name, wsSimLastError(G.sim));
		return ret(cudaErrorInvalidSymbol);
	}
	return cudaSuccess;
}

CR_API(cudaError_t, cudaMemcpyToSymbol, (const void *sym, const void *src, size_t n, size_t off, int kind),
       (sym, src, n, off, kind))
{
	return symbol_copy(sym, (void *)(uintptr_t)src, n, off, 1, kind, "cudaMemcpyToSymbol");
}
CR_ALIAS(cudaMemcpyToSymbol_ptds, cudaMemcpyToSymbol)

CR_API(cudaError_t, cudaMemcpyFromSymbol, (void *dst, const void *sym, size_t n, size_t off, int kind),
       (dst, sym, n, off, kind))
{
	return symbol_copy(sym, dst, n, off, 0, kind, "cudaMemcpyFromSymbol");
}
CR_ALIAS(cudaMemcpyFromSymbol_ptds, cudaMemcpyFromSymbol)

CR_API(cudaError_t, cudaMemcpyToSymbolAsync,
       (const void *sym, const void *src, size_t n, size_t off, int kind, cudaStream_t s), (sym, src, n, off, kind, s))
{
	return symbol_copy(sym, (void *)(uintptr_t)src, n, off, 1, kind, "cudaMemcpyToSymbolAsync");
}
CR_ALIAS(cudaMemcpyToSymbolAsync_ptsz, cudaMemcpyToSymbolAsync)

CR_API(cudaError_t, cudaMemcpyFromSymbolAsync,
       (void *dst, const void *sym, size_t n, size_t off, int kind, cudaStream_t s), (dst, sym, n, off, kind, s))
{
	return symbol_copy(sym, dst, n, off, 0, kind, "cudaMemcpyFromSymbolAsync");
}
CR_ALIAS(cudaMemcpyFromSymbolAsync_ptsz, cudaMemcpyFromSymbolAsync)

CR_API(cudaError_t, cudaGetSymbolAddress, (void **p, const void *sym), (p, sym))
{
	struct cr_var *v;
	cudaError_t e = symbol(sym, &v, "cudaGetSymbolAddress");
	if (e)
		return ret(e);
	ws_deviceptr d;
	size_t n;
	if (wsModuleGetGlobal(&d, &n, v->mod, v->name) != WS_SUCCESS) {
		cr_say("error: cudaGetSymbolAddress(%s): %s", v->name, wsSimLastError(G.sim));
		return ret(cudaErrorInvalidSymbol);
	}
	if (!cr_find_alloc(d, 1) && cr_add_alloc((struct cr_alloc){A_DEVICE, 0, d, n, 0}))
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

