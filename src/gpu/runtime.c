/*
 * runtime.c -- the public runtime API (include/warpsim.h): simulator
 * objects, module loading, device memory, kernel launch and statistics.
 *
 * Models the host side of the CUDA driver: it loads PTX (parse, analyse,
 * check that every instruction is implemented), places module variables
 * in device memory and the constant bank, builds the kernel parameter
 * buffer, checks a launch against the SM's resources (gpu/occupancy.c),
 * and hands the launch to the functional engine or the timing model.  The
 * statistics calls read the counters; the derived metrics and the reports
 * are the statistics stage's (stats/derived.def, stats/report.c).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "config/config.h"
#include "config/params.h"
#include "core/core_params.h"
#include "func/func.h"
#include "gpu/gpu.h"
#include "gpu/occupancy.h"
#include "gpu/par.h"
#include "gpu/sim.h"
#include "mem/mem_params.h"
#include "mem/memsys.h"
#include "ptx/summary.h"
#include "stats/counters.h"
#include "stats/derived.h"
#include "stats/report.h"
#include "stats/stats.h"
#include "util/decimal.h"
#include "util/hash.h"

static const char *const result_strings[WS_RESULT_COUNT] = {
#define WS_X(e, s) s,
	WS_RESULTS(WS_X)
#undef WS_X
};
static const char *const result_names[WS_RESULT_COUNT] = {
#define WS_X(e, s) #e,
	WS_RESULTS(WS_X)
#undef WS_X
};

const char *wsGetErrorString(ws_result r) { return (unsigned)r < WS_RESULT_COUNT ? result_strings[r] : "unknown error"; }
const char *wsGetErrorName(ws_result r) { return (unsigned)r < WS_RESULT_COUNT ? result_names[r] : "WS_ERROR_UNKNOWN"; }

ws_result sim_error(ws_sim *sim, ws_result r, const char *fmt, ...)
{
	if (!sim)
		return r;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(sim->lasterr, sizeof sim->lasterr, fmt, ap);
	va_end(ap);
	return r;
}

static ws_result ok(ws_sim *sim)
{
	sim->lasterr[0] = 0;
	return WS_SUCCESS;
}

ws_result sim_check_handle(const void *h, enum handle_type t, const char *call)
{
	void *owner;
	enum handle_type found = t;
	enum handle_state st = handle_lookup(h, t, &owner, &found);
	if (st == HANDLE_LIVE)
		return WS_SUCCESS;
	if (owner) {
		char why[256];
		handle_describe(st, t, found, call, why, sizeof why);
		sim_error(owner, WS_ERROR_INVALID_HANDLE, "%s", why);
	}
	return WS_ERROR_INVALID_HANDLE;
}

bool sim_handle_live(const void *h, enum handle_type t) { return handle_lookup(h, t, NULL, NULL) == HANDLE_LIVE; }



/* (Re)create the memory system kept across launches when the timing model
 * runs with l2_persist; false if memory runs out. */
static bool sim_tmem_reset(ws_sim *s)
{
	memsys_destroy(s->tmem);
	s->tmem = NULL;
	char mode[32];
	if (strcmp(cfg_enum_name(&s->cfg, CFG_mode, mode, sizeof mode), "timing") || !cfg_int(&s->cfg, CFG_l2_persist))
		return true;
	s->tmem = memsys_create(&s->cfg, &s->launch_stats, (unsigned)cfg_int(&s->cfg, CFG_num_sms));
	return s->tmem != NULL;
}

/* A host<->device copy touched [addr, addr+n): GPGPU-Sim's L2 fill (l2_memcpy_fill). */
static void sim_host_copy(ws_sim *s, ws_deviceptr addr, size_t n)
{
	if (s->tmem && cfg_int(&s->cfg, CFG_l2_memcpy_fill))
		memsys_host_copy(s->tmem, addr, n);
}

ws_result wsSimCreate(ws_sim **out, const ws_config *cfg)
{
	if (!out)
		return WS_ERROR_INVALID_VALUE;
	*out = NULL;
	if (cfg && !cfg_handle_ok(cfg))
		return WS_ERROR_INVALID_HANDLE;
	struct ws_sim *s = calloc(1, sizeof *s);
	if (!s)
		return WS_ERROR_OUT_OF_MEMORY;
	if (cfg)
		s->cfg = *cfg;
	else {
		ws_config *d = wsConfigCreate();
		if (!d) {
			free(s);
			return WS_ERROR_OUT_OF_MEMORY;
		}
		s->cfg = *d;
		wsConfigDestroy(d);
	}
	if (config_check(&s->cfg, NULL, 0) != WS_SUCCESS) {
		free(s);
		return WS_ERROR_INVALID_CONFIG;
	}
	s->mem = dmem_create((uint64_t)cfg_int(&s->cfg, CFG_device_mem_mb) << 20);
	/* the simulator and its configuration (wsSimConfig) become handles */
	if (!s->mem || !sim_tmem_reset(s) || !handle_add(&s->cfg, HANDLE_CONFIG, s) || !handle_add(s, HANDLE_SIM, NULL)) {
		handle_forget_owned(s);
		memsys_destroy(s->tmem);
		dmem_destroy(s->mem);
		free(s);
		return WS_ERROR_OUT_OF_MEMORY;
	}
	*out = s;
	return WS_SUCCESS;
}

static void module_free_contents(struct ws_module *m);

void wsSimDestroy(ws_sim *sim)
{
	/* a second destroy, or one of a foreign handle, does nothing; of two at once, one frees */
	if (handle_kill(sim, HANDLE_SIM, NULL) != HANDLE_LIVE)
		return;
	while (sim->nmods && wsModuleUnload(sim->mods[sim->nmods - 1]) == WS_SUCCESS)
		;
	for (uint32_t i = 0; i < sim->nmods; i++) { /* out of memory for the tombstone list: free them here */
		module_free_contents(sim->mods[i]);
		free(sim->mods[i]->funcs);
		free(sim->mods[i]);
	}
	free(sim->mods);
	for (uint32_t i = 0; i < sim->ndead; i++) {
		free(sim->dead[i]->funcs);
		free(sim->dead[i]);
	}
	free(sim->dead);
	sim_textures_free(sim);
	trace_free(&sim->trace);
	memsys_destroy(sim->tmem);
	free(sim->launches);
	dmem_destroy(sim->mem);
	handle_forget_owned(sim); /* its configuration, modules, functions and arrays */
	free(sim);
}

const char *wsSimLastError(const ws_sim *sim)
{
	enum handle_type found;
	switch (handle_lookup(sim, HANDLE_SIM, NULL, &found)) {
	case HANDLE_LIVE: return sim->lasterr;
	case HANDLE_NULL: return "wsSimLastError: NULL ws_sim handle";
	case HANDLE_DEAD: return "wsSimLastError: the simulator was destroyed (wsSimDestroy)";
	default: return "wsSimLastError: not a ws_sim handle";
	}
}

void wsSimSetPrintfStream(ws_sim *sim, FILE *out)
{
	if (!sim_handle_live(sim, HANDLE_SIM))
		return;
	sim->printf_out = out;
	sim->printf_set = true;
}
void wsSimSetProgress(ws_sim *sim, ws_progress_fn fn, void *user)
{
	if (!sim_handle_live(sim, HANDLE_SIM))
		return;
	sim->progress = fn;
	sim->progress_user = user;
}

const ws_config *wsSimConfig(const ws_sim *sim) { return sim_handle_live(sim, HANDLE_SIM) ? &sim->cfg : NULL; }

/* The i-th registered policy with wraps == w, or NULL. */
static const struct sched_policy *nth_policy(int i, bool w)
{
	if (i < 0)
		return NULL;
	for (size_t k = 0; sched_policies[k]; k++)
		if (sched_policies[k]->wraps == w && i-- == 0)
			return sched_policies[k];
	return NULL;
}
static int policy_counter_name(const struct sched_policy *p, int k, char *buf, size_t bufsz)
{
	if (!p || k < 0)
		return 0;
	struct sched_choice c = {p, NULL};
	return sched_choice_counter(&c, (uint32_t)k, buf, bufsz) != NULL;
}
const char *wsSchedPolicyName(int i)
{
	const struct sched_policy *p = nth_policy(i, false);
	return p ? p->name : NULL;
}
int wsSchedPolicyCounterName(int i, int k, char *buf, size_t bufsz)
{
	return policy_counter_name(nth_policy(i, false), k, buf, bufsz);
}
const char *wsSchedPolicyDescription(int i)
{
	const struct sched_policy *p = nth_policy(i, false);
	return p ? p->description : NULL;
}
const char *wsSchedWrapperName(int i)
{
	const struct sched_policy *p = nth_policy(i, true);
	return p ? p->name : NULL;
}
const char *wsSchedWrapperDescription(int i)
{
	const struct sched_policy *p = nth_policy(i, true);
	return p ? p->description : NULL;
}
int wsSchedWrapperCounterName(int i, int k, char *buf, size_t bufsz)
{
	return policy_counter_name(nth_policy(i, true), k, buf, bufsz);
}
ws_result wsSchedCheck(const char *name, char *err, size_t errsz)
{
	struct sched_choice c;
	return sched_resolve(name, &c, err, errsz) ? WS_SUCCESS : WS_ERROR_INVALID_CONFIG;
}
const char *wsFetchPolicyName(int i)
{
	if (i < 0)
		return NULL;
	for (int k = 0; k <= i; k++)
		if (!fetch_policies[k])
			return NULL;
	return fetch_policies[i]->name;
}
const char *wsFetchPolicyDescription(int i) { return wsFetchPolicyName(i) ? fetch_policies[i]->description : NULL; }

/* ---- modules ---- */

/* Value of a symbol named in an initializer: generic(name) is the generic
 * address; a bare name the address in the symbol's own state space, the
 * value `mov` gives for it (a .const address is an offset in the bank). */
static uint64_t symbol_value(const struct ws_module *m, int32_t sym, int32_t func, bool generic)
{
	if (func >= 0)
		return WS_FUNC_WINDOW + (uint64_t)func * 16;
	const struct ptx_var *v = &m->ir->vars[sym];
	switch (v->space) {
	case SPACE_GLOBAL: return m->global_base + v->addr;
	case SPACE_CONST: return (generic ? WS_CONST_WINDOW : 0) + v->addr;
	case SPACE_SHARED: return (generic ? WS_SHARED_WINDOW : 0) + v->addr;
	default: return v->addr;
	}
}

static ws_result place_variables(ws_sim *sim, struct ws_module *m)
{
	struct ptx_module *ir = m->ir;
	if (ir->global_image_size) {
		if (dmem_alloc(sim->mem, ir->global_image_size, &m->global_base))
			return sim_error(sim, WS_ERROR_OUT_OF_MEMORY, "out of device memory for module globals");
	}
	m->const_size = ir->const_image_size;
	m->const_bank = calloc(1, m->const_size ? m->const_size : 1);
	if (!m->const_bank)
		return sim_error(sim, WS_ERROR_OUT_OF_MEMORY, "out of memory for the constant bank");
	uint8_t *gimg = ir->global_image_size ? dmem_ptr(sim->mem, m->global_base, ir->global_image_size) : NULL;
	for (uint32_t i = 0; i < ir->nvars; i++) {
		const struct ptx_var *v = &ir->vars[i];
		if (v->func >= 0 || (v->space != SPACE_GLOBAL && v->space != SPACE_CONST))
			continue;
		uint8_t *dst = v->space == SPACE_GLOBAL ? gimg : m->const_bank;
		if (!dst)
			continue;
		dst += v->addr;
		if (v->init)
			memcpy(dst, v->init, v->size);
		for (uint32_t k = 0; k < v->ninit_syms; k++) {
			const struct ptx_init_sym *is = &v->init_syms[k];
			uint64_t val = symbol_value(m, is->sym, is->func, is->generic) + (uint64_t)is->add;
			unsigned wdt = is->width ? is->width : 8;
			if (is->byte_off + wdt <= v->size)
				memcpy(dst + is->byte_off, &val, wdt);
		}
	}
	return WS_SUCCESS;
}

/* Load PTX text `ptx` (named `name`, read from file `path` or NULL) with
 * the register counts `regs` (.regs text of a fat binary's SASS, from
 * `regs_origin`; NULL if none), then the rest of the register-count chain
 * (ptx/regs.h). */
static ws_result module_load(ws_sim *sim, ws_module **out, const char *ptx, const char *name, const char *path,
                             const char *regs, const char *regs_origin, const char *call)
{
	RETURN_BAD_SIM(sim, call);
	if (!out || !ptx)
		return sim_error(sim, WS_ERROR_INVALID_VALUE, "%s: NULL %s", call, !out ? "out" : "ptx");
	*out = NULL;
	const char *fname = name ? name : "<ptx>";
	struct ptx_error err;
	memset(&err, 0, sizeof err);
	struct ptx_module *ir = ptx_parse(ptx, strlen(ptx), fname, &err);
	if (!ir) { /* every error the parser found: the first, then one line each */
		size_t n = strlen(err.more);
		return sim_error(sim, WS_ERROR_INVALID_PTX, "%s:%u:%u: error: %s%s%.*s", err.file[0] ? err.file : fname,
				 err.line, err.col, err.msg, n ? "\n" : "", n ? (int)n - 1 : 0, err.more);
	}
	if (!ptx_analyse(ir, &err)) {
		ptx_module_destroy(ir);
		return sim_error(sim, WS_ERROR_INVALID_PTX, "%s:%u:%u: error: %s", err.file[0] ? err.file : fname,
				 err.line, err.col, err.msg);
	}
	char msg[3072];
	if (!func_check_module(ir, fname, msg, sizeof msg)) {
		ptx_module_destroy(ir);
		return sim_error(sim, WS_ERROR_UNSUPPORTED_PTX, "%s", msg);
	}
	size_t len = strlen(ptx);
	char rerr[256], mode[16];
	if (regs &&
	    ptx_regs_apply(ir, regs, PTX_REGS_SASS, regs_origin, hash_fnv1a64(ptx, len), false, rerr, sizeof rerr) < 0)
		ptx_module_warn(ir, "register counts of %s: %s; ignored", regs_origin ? regs_origin : "the SASS", rerr);
	ptx_regs_resolve(ir, path, ptx, len,
	                 strcmp(cfg_enum_name(&sim->cfg, CFG_reg_counts, mode, sizeof mode), "ptxas") == 0);
	struct ws_module *m = calloc(1, sizeof *m);
	if (!m) {
		ptx_module_destroy(ir);
		return sim_error(sim, WS_ERROR_OUT_OF_MEMORY, "out of memory");
	}
	m->sim = sim;
	m->ir = ir;
	m->funcs = calloc(ir->nfuncs ? ir->nfuncs : 1, sizeof *m->funcs);
	struct ws_module **nm = realloc(sim->mods, (sim->nmods + 1) * sizeof *nm);
	if (!m->funcs || !nm) {
		free(nm == sim->mods ? NULL : nm);
		free(m->funcs);
		free(m);
		ptx_module_destroy(ir);
		return sim_error(sim, WS_ERROR_OUT_OF_MEMORY, "out of memory");
	}
	sim->mods = nm;
	sim->mods[sim->nmods++] = m;
	bool handles = handle_add(m, HANDLE_MODULE, sim);
	for (uint32_t i = 0; i < ir->nfuncs; i++) {
		m->funcs[i].mod = m;
		m->funcs[i].index = (int)i;
		handles = handles && handle_add(&m->funcs[i], HANDLE_FUNCTION, sim);
	}
	if (!handles) { /* entries made are marked destroyed: they name the module's owner, never its memory */
		handle_kill(m, HANDLE_MODULE, NULL);
		for (uint32_t i = 0; i < ir->nfuncs; i++)
			handle_kill(&m->funcs[i], HANDLE_FUNCTION, NULL);
		sim->nmods--;
		free(m->funcs);
		free(m);
		ptx_module_destroy(ir);
		return sim_error(sim, WS_ERROR_OUT_OF_MEMORY, "out of memory");
	}
	ws_result r = place_variables(sim, m);
	if (r != WS_SUCCESS) {
		wsModuleUnload(m);
		return r;
	}
	*out = m;
	return ok(sim);
}

ws_result wsModuleLoadData(ws_sim *sim, ws_module **out, const char *ptx, const char *name)
{
	return module_load(sim, out, ptx, name, NULL, NULL, NULL, "wsModuleLoadData");
}

ws_result wsModuleLoadDataRegs(ws_sim *sim, ws_module **out, const char *ptx, const char *name, const char *regs,
                               const char *regs_origin)
{
	return module_load(sim, out, ptx, name, NULL, regs, regs_origin, "wsModuleLoadDataRegs");
}

/* The largest PTX file wsModuleLoad reads into *limit: WS_PTX_MAX_BYTES, or
 * $WARPSIM_PTX_MAX_MB MiB when that is set and not empty; a value that is not
 * a decimal number from 1 to 65536 is an error naming the variable, not the
 * default. */
static ws_result ptx_size_limit(ws_sim *sim, size_t *limit)
{
	*limit = WS_PTX_MAX_BYTES;
	const char *e = getenv("WARPSIM_PTX_MAX_MB");
	if (!e || !*e)
		return WS_SUCCESS;
	unsigned long mb;
	const char *why = !util_decimal(e, 65536, &mb) ? "is not a whole number of MiB" : mb > 65536 ? "is larger than 65536"
	                  : mb == 0                                     ? "is zero"
	                                                                : NULL;
	if (why)
		return sim_error(sim, WS_ERROR_INVALID_VALUE,
				 "environment variable WARPSIM_PTX_MAX_MB='%s' %s (expected 1 to 65536, or unset for %zu)",
				 e, why, WS_PTX_MAX_BYTES >> 20);
	*limit = (size_t)mb << 20;
	return WS_SUCCESS;
}

static const char *file_kind(mode_t m)
{
	return S_ISDIR(m) ? "a directory" : S_ISCHR(m) ? "a character device" : S_ISBLK(m) ? "a block device"
	       : S_ISSOCK(m) ? "a socket" : "not a regular file";
}

ws_result wsModuleLoad(ws_sim *sim, ws_module **out, const char *path)
{
	RETURN_BAD_SIM(sim, "wsModuleLoad");
	if (!out || !path)
		return sim_error(sim, WS_ERROR_INVALID_VALUE, "wsModuleLoad: NULL %s", !out ? "out" : "path");
	*out = NULL;
	FILE *f = fopen(path, "rb");
	if (!f)
		return sim_error(sim, WS_ERROR_FILE_NOT_FOUND, "%s: cannot open: %s", path, strerror(errno));
	struct stat st;
	if (fstat(fileno(f), &st) != 0) {
		int e = errno;
		fclose(f);
		return sim_error(sim, WS_ERROR_FILE_NOT_FOUND, "%s: cannot read: %s", path, strerror(e));
	}
	/* a regular file, or a pipe (/dev/stdin, <(...)); never a directory or a device */
	if (!S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode)) {
		fclose(f);
		return sim_error(sim, WS_ERROR_NOT_A_FILE, "%s: is %s, not a PTX file", path, file_kind(st.st_mode));
	}
	size_t limit;
	if (ptx_size_limit(sim, &limit) != WS_SUCCESS) {
		fclose(f);
		return WS_ERROR_INVALID_VALUE;
	}
	if (S_ISREG(st.st_mode) && (uint64_t)st.st_size > (uint64_t)limit) {
		fclose(f);
		return sim_error(sim, WS_ERROR_INVALID_PTX,
				 "%s: file of %llu bytes is larger than the PTX size limit of %zu MiB "
				 "(set WARPSIM_PTX_MAX_MB to raise it)", path, (unsigned long long)st.st_size, limit >> 20);
	}
	/* bounded read: at most limit + 1 bytes, in growing chunks */
	size_t cap = S_ISREG(st.st_mode) && st.st_size > 0 ? (size_t)st.st_size + 2 : (size_t)1 << 16, n = 0;
	char *buf = malloc(cap);
	ws_result r = WS_SUCCESS;
	const char *why = NULL;
	while (buf) {
		if (n + 1 >= cap) {
			size_t nc = cap * 2 > limit + 2 ? limit + 2 : cap * 2;
			char *nb = nc > cap ? realloc(buf, nc) : NULL;
			if (!nb) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = nb;
			cap = nc;
		}
		size_t k = fread(buf + n, 1, cap - n - 1, f);
		if (k == 0)
			break;
		if (memchr(buf + n, 0, k)) {
			r = WS_ERROR_INVALID_PTX;
			why = "file contains NUL bytes; not PTX text";
			break;
		}
		n += k;
		if (n > limit) {
			r = WS_ERROR_INVALID_PTX;
			break;
		}
	}
	int rerr = buf && ferror(f) ? errno : 0;
	fclose(f);
	if (!buf)
		return sim_error(sim, WS_ERROR_OUT_OF_MEMORY, "%s: out of memory reading the file", path);
	if (r == WS_SUCCESS && rerr) {
		free(buf);
		return sim_error(sim, WS_ERROR_FILE_NOT_FOUND, "%s: cannot read: %s", path, strerror(rerr));
	}
	if (r != WS_SUCCESS) {
		free(buf);
		if (why)
			return sim_error(sim, r, "%s: %s", path, why);
		return sim_error(sim, r, "%s: more than the PTX size limit of %zu MiB; stopped reading "
				 "(set WARPSIM_PTX_MAX_MB to raise it)", path, limit >> 20);
	}
	buf[n] = 0;
	r = module_load(sim, out, buf, path, path, NULL, NULL, "wsModuleLoad");
	free(buf);
	return r;
}

const char *wsModuleWarnings(const ws_module *mod)
{
	return sim_handle_live(mod, HANDLE_MODULE) ? mod->ir->warnings : "";
}

/* Free what a module holds (its IR, globals, constant bank, annotations);
 * the struct and its funcs stay. */
static void module_free_contents(struct ws_module *m)
{
	if (m->global_base)
		dmem_free(m->sim->mem, m->global_base);
	ptx_module_destroy(m->ir);
	free(m->const_bank);
	free(m->sibs);
	m->ir = NULL;
	m->const_bank = NULL;
	m->sibs = NULL;
	m->nsibs = 0;
	m->global_base = 0;
}

ws_result wsModuleUnload(ws_module *m)
{
	RETURN_BAD_HANDLE(m, HANDLE_MODULE, "wsModuleUnload");
	ws_sim *sim = m->sim;
	struct ws_module **nd = realloc(sim->dead, (sim->ndead + 1) * sizeof *nd);
	if (!nd)
		return sim_error(sim, WS_ERROR_OUT_OF_MEMORY, "wsModuleUnload: out of memory");
	sim->dead = nd;
	/* of two unloads at once, one goes on */
	if (handle_kill(m, HANDLE_MODULE, NULL) != HANDLE_LIVE)
		return sim_error(sim, WS_ERROR_INVALID_HANDLE, "wsModuleUnload: the module was unloaded (wsModuleUnload)");
	for (uint32_t i = 0; i < m->ir->nfuncs; i++)
		handle_kill(&m->funcs[i], HANDLE_FUNCTION, NULL);
	sim->dead[sim->ndead++] = m;
	for (uint32_t i = 0; i < sim->nmods; i++)
		if (sim->mods[i] == m) {
			memmove(&sim->mods[i], &sim->mods[i + 1], (sim->nmods - i - 1) * sizeof *sim->mods);
			sim->nmods--;
			break;
		}
	if (sim->tmem) /* the SMs' kept L1Is hold this module's code addresses */
		memsys_l1i_forget(sim->tmem, m->ir);
	module_free_contents(m);
	return ok(sim);
}

ws_result wsModuleGetFunction(ws_function **out, ws_module *m, const char *name)
{
	RETURN_BAD_HANDLE(m, HANDLE_MODULE, "wsModuleGetFunction");
	if (!out || !name)
		return sim_error(m->sim, WS_ERROR_INVALID_VALUE, "wsModuleGetFunction: NULL %s", !out ? "out" : "name");
	int i = ptx_module_find_func(m->ir, name);
	if (i < 0 || !m->ir->funcs[i].is_entry) {
		*out = NULL;
		/* what the name is, and the kernels that can be launched */
		char list[1024];
		size_t len = 0;
		unsigned nk = 0, shown = 0;
		list[0] = '\0';
		for (uint32_t k = 0; k < m->ir->nfuncs; k++) {
			if (!m->ir->funcs[k].is_entry)
				continue;
			nk++;
			int n = snprintf(list + len, sizeof list - len, " %s", m->ir->funcs[k].name);
			if (n < 0 || len + (size_t)n + 32 >= sizeof list)
				continue; /* counted below */
			len += (size_t)n;
			shown++;
		}
		if (nk > shown)
			snprintf(list + len, sizeof list - len, " (and %u more)", nk - shown);
		const char *file = m->ir->filename ? m->ir->filename : "module";
		if (i >= 0)
			return sim_error(m->sim, WS_ERROR_NOT_FOUND,
					 "'%s' is a device function (.func at %s:%u), not a kernel; the kernels (.entry) of %s:%s",
					 name, file, m->ir->funcs[i].line, file, nk ? list : " (none)");
		return sim_error(m->sim, WS_ERROR_NOT_FOUND, "no kernel named '%s' in %s; its kernels (.entry):%s", name,
				 file, nk ? list : " (none)");
	}
	*out = &m->funcs[i];
	return ok(m->sim);
}

ws_result wsModuleGetGlobal(ws_deviceptr *dptr, size_t *bytes, ws_module *m, const char *name)
{
	RETURN_BAD_HANDLE(m, HANDLE_MODULE, "wsModuleGetGlobal");
	if (!name)
		return sim_error(m->sim, WS_ERROR_INVALID_VALUE, "wsModuleGetGlobal: NULL name");
	int i = ptx_module_find_var(m->ir, name, -1);
	if (i < 0 || (m->ir->vars[i].space != SPACE_GLOBAL && m->ir->vars[i].space != SPACE_CONST))
		return sim_error(m->sim, WS_ERROR_NOT_FOUND, "no module-scope .global or .const variable named '%s'",
				 name);
	const struct ptx_var *v = &m->ir->vars[i];
	if (v->space == SPACE_CONST)
		return sim_error(m->sim, WS_ERROR_NOT_FOUND,
				 "'%s' is a .const variable; the constant bank has no device address: use "
				 "wsMemcpyToSymbol / wsMemcpyFromSymbol",
				 name);
	if (dptr)
		*dptr = m->global_base + v->addr;
	if (bytes)
		*bytes = v->size;
	return ok(m->sim);
}

/* Host pointer to bytes [offset, offset+bytes) of module variable `name`. */
static uint8_t *symbol_ptr(ws_module *m, const char *name, size_t bytes, size_t offset, const char *what,
			   ws_result *r, ws_deviceptr *dev)
{
	if ((*r = sim_check_handle(m, HANDLE_MODULE, what)) != WS_SUCCESS)
		return NULL;
	if (!name) {
		*r = sim_error(m->sim, WS_ERROR_INVALID_VALUE, "%s: NULL name", what);
		return NULL;
	}
	int i = ptx_module_find_var(m->ir, name, -1);
	if (i < 0 || (m->ir->vars[i].space != SPACE_GLOBAL && m->ir->vars[i].space != SPACE_CONST)) {
		*r = sim_error(m->sim, WS_ERROR_NOT_FOUND, "%s: no module-scope .global or .const variable named '%s'",
			       what, name);
		return NULL;
	}
	const struct ptx_var *v = &m->ir->vars[i];
	if (offset > v->size || bytes > v->size - offset) {
		*r = sim_error(m->sim, WS_ERROR_INVALID_VALUE, "%s: [%zu, +%zu) is outside '%s' (%llu bytes)", what, offset,
			       bytes, name, (unsigned long long)v->size);
		return NULL;
	}
	*dev = 0;
	if (v->space == SPACE_CONST)
		return m->const_bank + v->addr + offset;
	*dev = m->global_base + v->addr + offset;
	uint8_t *p = dmem_ptr(m->sim->mem, m->global_base + v->addr + offset, bytes ? bytes : 1);
	if (!p)
		*r = sim_error(m->sim, WS_ERROR_INTERNAL, "%s: '%s' is not in device memory", what, name);
	return p;
}

ws_result wsMemcpyToSymbol(ws_module *m, const char *name, const void *src, size_t bytes, size_t offset)
{
	ws_result r;
	ws_deviceptr dev;
	uint8_t *p = symbol_ptr(m, name, bytes, offset, "wsMemcpyToSymbol", &r, &dev);
	if (!p)
		return r;
	if (bytes && !src)
		return sim_error(m->sim, WS_ERROR_INVALID_VALUE, "wsMemcpyToSymbol: NULL source");
	if (bytes)
		memcpy(p, src, bytes);
	if (dev)
		sim_host_copy(m->sim, dev, bytes);
	return ok(m->sim);
}

ws_result wsMemcpyFromSymbol(ws_module *m, const char *name, void *dst, size_t bytes, size_t offset)
{
	ws_result r;
	ws_deviceptr dev;
	uint8_t *p = symbol_ptr(m, name, bytes, offset, "wsMemcpyFromSymbol", &r, &dev);
	if (!p)
		return r;
	if (bytes && !dst)
		return sim_error(m->sim, WS_ERROR_INVALID_VALUE, "wsMemcpyFromSymbol: NULL destination");
	if (bytes)
		memcpy(dst, p, bytes);
	if (dev)
		sim_host_copy(m->sim, dev, bytes);
	return ok(m->sim);
}

static bool mod_live(const ws_module *m) { return sim_handle_live(m, HANDLE_MODULE); }
static bool fn_live(const ws_function *f) { return sim_handle_live(f, HANDLE_FUNCTION); }

int wsModuleFunctionCount(const ws_module *m) { return mod_live(m) ? (int)m->ir->nfuncs : 0; }
const char *wsModuleFunctionName(const ws_module *m, int i)
{
	return mod_live(m) && i >= 0 && (uint32_t)i < m->ir->nfuncs ? m->ir->funcs[i].name : NULL;
}

int wsFunctionParamCount(const ws_function *f) { return fn_live(f) ? (int)f->mod->ir->funcs[f->index].nparams : 0; }
size_t wsFunctionParamSize(const ws_function *f, int i)
{
	if (!fn_live(f) || i < 0)
		return 0;
	const struct ptx_function *pf = &f->mod->ir->funcs[f->index];
	if ((uint32_t)i >= pf->nparams)
		return 0;
	return f->mod->ir->vars[pf->params[i]].size;
}
const char *wsFunctionName(const ws_function *f) { return fn_live(f) ? f->mod->ir->funcs[f->index].name : NULL; }

/* ---- spin-inducing branch annotations (BOWS/DDOS ground truth) ---- */

static bool backward_branch(const struct ptx_function *pf, int32_t pc)
{
	if (pc < 0 || (uint32_t)pc >= pf->ninsns)
		return false;
	const struct ptx_insn *in = &pf->insns[pc];
	if (in->op == OP_BRA)
		return in->nopd > 0 && in->opd[0].kind == OPD_LABEL && in->opd[0].target <= pc;
	if (in->op == OP_BRX && in->nopd > 1)
		for (uint32_t k = 0; k < in->opd[1].nlist; k++)
			if (in->opd[1].list[k] <= pc)
				return true;
	return false;
}

int wsFunctionBackwardBranches(const ws_function *f, int32_t *pcs, uint32_t *lines, unsigned cap)
{
	if (!fn_live(f))
		return 0;
	const struct ptx_function *pf = &f->mod->ir->funcs[f->index];
	int n = 0;
	for (uint32_t pc = 0; pc < pf->ninsns; pc++)
		if (backward_branch(pf, (int32_t)pc)) {
			if ((unsigned)n < cap) {
				if (pcs)
					pcs[n] = (int32_t)pc;
				if (lines)
					lines[n] = pf->insns[pc].line;
			}
			n++;
		}
	return n;
}

static int cmp_sib(const void *a, const void *b)
{
	const struct sched_sib *x = a, *y = b;
	if (x->fn != y->fn)
		return x->fn < y->fn ? -1 : 1;
	return x->pc < y->pc ? -1 : x->pc > y->pc;
}

ws_result wsFunctionSetSpinBranches(ws_function *f, const int32_t *pcs, unsigned n)
{
	RETURN_BAD_HANDLE(f, HANDLE_FUNCTION, "wsFunctionSetSpinBranches");
	struct ws_module *m = f->mod;
	const struct ptx_function *pf = &m->ir->funcs[f->index];
	if (n && !pcs)
		return sim_error(m->sim, WS_ERROR_INVALID_VALUE, "wsFunctionSetSpinBranches(%s): pcs is NULL", pf->name);
	for (unsigned i = 0; i < n; i++)
		if (!backward_branch(pf, pcs[i]))
			return sim_error(m->sim, WS_ERROR_INVALID_VALUE,
					 "wsFunctionSetSpinBranches(%s): pc %d is not a backward branch of the function "
					 "(it has %u instructions; see wsFunctionBackwardBranches)",
					 pf->name, (int)pcs[i], pf->ninsns);
	/* the other functions' entries, then this one's, sorted, without duplicates */
	uint32_t keep = 0;
	for (uint32_t i = 0; i < m->nsibs; i++)
		keep += m->sibs[i].fn != f->index;
	struct sched_sib *ns = malloc(((size_t)keep + n + 1) * sizeof *ns);
	if (!ns)
		return sim_error(m->sim, WS_ERROR_OUT_OF_MEMORY, "out of memory");
	uint32_t k = 0;
	for (uint32_t i = 0; i < m->nsibs; i++)
		if (m->sibs[i].fn != f->index)
			ns[k++] = m->sibs[i];
	for (unsigned i = 0; i < n; i++)
		ns[k++] = (struct sched_sib){.fn = f->index, .pc = pcs[i]};
	qsort(ns, k, sizeof *ns, cmp_sib);
	uint32_t u = 0;
	for (uint32_t i = 0; i < k; i++)
		if (u == 0 || cmp_sib(&ns[u - 1], &ns[i]) != 0)
			ns[u++] = ns[i];
	free(m->sibs);
	m->sibs = ns;
	m->nsibs = u;
	return WS_SUCCESS;
}

int wsFunctionGetSpinBranches(const ws_function *f, int32_t *pcs, unsigned cap)
{
	if (!fn_live(f))
		return 0;
	int n = 0;
	for (uint32_t i = 0; i < f->mod->nsibs; i++)
		if (f->mod->sibs[i].fn == f->index) {
			if ((unsigned)n < cap && pcs)
				pcs[n] = f->mod->sibs[i].pc;
			n++;
		}
	return n;
}

void wsModulePrintSummary(const ws_module *m, FILE *out)
{
	if (mod_live(m) && out)
		ptx_module_print_summary(m->ir, out);
}

/* ---- device memory ---- */

ws_result wsMemAlloc(ws_sim *sim, ws_deviceptr *dptr, size_t bytes)
{
	RETURN_BAD_SIM(sim, "wsMemAlloc");
	if (!dptr)
		return sim_error(sim, WS_ERROR_INVALID_VALUE, "wsMemAlloc: NULL dptr");
	if (bytes == 0)
		return sim_error(sim, WS_ERROR_INVALID_VALUE, "wsMemAlloc: 0 bytes (nothing to allocate)");
	if (dmem_alloc(sim->mem, bytes, dptr))
		return sim_error(sim, WS_ERROR_OUT_OF_MEMORY, "cannot allocate %zu bytes of device memory (%llu of %llu used)",
				 bytes, (unsigned long long)sim->mem->used, (unsigned long long)sim->mem->capacity);
	return ok(sim);
}

ws_result wsSimSetMallocHeapSize(ws_sim *sim, size_t bytes)
{
	RETURN_BAD_SIM(sim, "wsSimSetMallocHeapSize");
	if (bytes > sim->mem->capacity)
		return sim_error(sim, WS_ERROR_INVALID_VALUE,
				 "wsSimSetMallocHeapSize: %zu bytes is more than the device memory (%llu bytes, device_mem_mb)",
				 bytes, (unsigned long long)sim->mem->capacity);
	if (bytes < sim->mem->heap_used)
		return sim_error(sim, WS_ERROR_INVALID_VALUE,
				 "wsSimSetMallocHeapSize: %zu bytes is less than the %llu the device heap holds", bytes,
				 (unsigned long long)sim->mem->heap_used);
	sim->mem->heap_limit = bytes;
	return ok(sim);
}

ws_result wsMemFree(ws_sim *sim, ws_deviceptr dptr)
{
	RETURN_BAD_SIM(sim, "wsMemFree");
	for (uint32_t i = 0; i < sim->nmods; i++)
		if (sim->mods[i]->global_base && sim->mods[i]->global_base == dptr)
			return sim_error(sim, WS_ERROR_INVALID_VALUE, "0x%llx belongs to a module; unload the module instead",
					 (unsigned long long)dptr);
	if (dmem_free(sim->mem, dptr))
		return sim_error(sim, WS_ERROR_INVALID_VALUE, "wsMemFree: 0x%llx is not the start of a live allocation",
				 (unsigned long long)dptr);
	return ok(sim);
}

static uint8_t *range(ws_sim *sim, ws_deviceptr p, size_t n, const char *what, ws_result *r)
{
	uint8_t *h = dmem_ptr(sim->mem, p, n ? n : 1);
	if (!h) {
		*r = sim_error(sim, WS_ERROR_ILLEGAL_ADDRESS, "%s: [0x%llx, +%zu) is not inside one device allocation",
			       what, (unsigned long long)p, n);
	}
	return h;
}

ws_result wsMemcpyHtoD(ws_sim *sim, ws_deviceptr dst, const void *src, size_t n)
{
	RETURN_BAD_SIM(sim, "wsMemcpyHtoD");
	if (!src && n)
		return sim_error(sim, WS_ERROR_INVALID_VALUE, "wsMemcpyHtoD: NULL src");
	ws_result r = WS_SUCCESS;
	uint8_t *d = range(sim, dst, n, "wsMemcpyHtoD", &r);
	if (!d)
		return r;
	if (n)
		memcpy(d, src, n);
	sim_host_copy(sim, dst, n);
	return ok(sim);
}

ws_result wsMemcpyDtoH(ws_sim *sim, void *dst, ws_deviceptr src, size_t n)
{
	RETURN_BAD_SIM(sim, "wsMemcpyDtoH");
	if (!dst && n)
		return sim_error(sim, WS_ERROR_INVALID_VALUE, "wsMemcpyDtoH: NULL dst");
	ws_result r = WS_SUCCESS;
	uint8_t *s = range(sim, src, n, "wsMemcpyDtoH", &r);
	if (!s)
		return r;
	if (n)
		memcpy(dst, s, n);
	sim_host_copy(sim, src, n);
	return ok(sim);
}

ws_result wsMemcpyDtoD(ws_sim *sim, ws_deviceptr dst, ws_deviceptr src, size_t n)
{
	RETURN_BAD_SIM(sim, "wsMemcpyDtoD");
	ws_result r = WS_SUCCESS;
	uint8_t *s = range(sim, src, n, "wsMemcpyDtoD source", &r);
	if (!s)
		return r;
	uint8_t *d = range(sim, dst, n, "wsMemcpyDtoD destination", &r);
	if (!d)
		return r;
	if (n)
		memmove(d, s, n);
	return ok(sim);
}

ws_result wsMemsetD8(ws_sim *sim, ws_deviceptr dst, uint8_t v, size_t count)
{
	RETURN_BAD_SIM(sim, "wsMemsetD8");
	ws_result r = WS_SUCCESS;
	uint8_t *d = range(sim, dst, count, "wsMemsetD8", &r);
	if (!d)
		return r;
	memset(d, v, count);
	return ok(sim);
}

ws_result wsMemsetD32(ws_sim *sim, ws_deviceptr dst, uint32_t v, size_t count)
{
	RETURN_BAD_SIM(sim, "wsMemsetD32");
	if (count > SIZE_MAX / 4)
		return sim_error(sim, WS_ERROR_INVALID_VALUE, "wsMemsetD32: count too large");
	if (dst % 4)
		return sim_error(sim, WS_ERROR_MISALIGNED_ADDRESS, "wsMemsetD32: 0x%llx is not 4-byte aligned",
				 (unsigned long long)dst);
	ws_result r = WS_SUCCESS;
	uint8_t *d = range(sim, dst, count * 4, "wsMemsetD32", &r);
	if (!d)
		return r;
	for (size_t i = 0; i < count; i++)
		memcpy(d + 4 * i, &v, 4);
	return ok(sim);
}

/* ---- launch ---- */

/* Whether launches a and b are of one kernel at one occupancy. */
static bool same_occupancy(const struct sim_launch *a, const struct sim_launch *b)
{
	const struct occupancy *x = &a->occ, *y = &b->occ;
	return strcmp(a->kernel, b->kernel) == 0 && x->ctas_per_sm == y->ctas_per_sm && x->limit == y->limit &&
	       x->regs_per_thread == y->regs_per_thread && x->regs_src == y->regs_src && x->alt_regs == y->alt_regs &&
	       x->alt_src == y->alt_src && x->alt_ctas_per_sm == y->alt_ctas_per_sm && x->alt_limit == y->alt_limit &&
	       strcmp(x->origin, y->origin) == 0;
}

/* Keep this launch's counters and occupancy (a failed allocation only loses
 * the record). */
static void record_launch(ws_sim *sim, const char *kernel, const struct ws_stats *st, const struct occupancy *occ)
{
	if (sim->nlaunches == sim->cap_launches) {
		uint32_t cap = sim->cap_launches ? 2 * sim->cap_launches : 8;
		struct sim_launch *n = realloc(sim->launches, (size_t)cap * sizeof *n);
		if (!n)
			return;
		sim->launches = n;
		sim->cap_launches = cap;
	}
	struct sim_launch *l = &sim->launches[sim->nlaunches++];
	snprintf(l->kernel, sizeof l->kernel, "%s", kernel);
	memcpy(l->v, st->v, sizeof l->v);
	l->occ = *occ;
}

ws_result wsFunctionGetInfo(const ws_function *fn, ws_function_info *info)
{
	RETURN_BAD_HANDLE(fn, HANDLE_FUNCTION, "wsFunctionGetInfo");
	if (!info)
		return sim_error(fn->mod->sim, WS_ERROR_INVALID_VALUE, "wsFunctionGetInfo: NULL info");
	const struct ws_module *m = fn->mod;
	const struct ptx_function *k = &m->ir->funcs[fn->index];
	const struct ws_config *cfg = &m->sim->cfg;
	memset(info, 0, sizeof *info);
	info->shared_static_bytes = (size_t)k->shared_static;
	info->const_bytes = (size_t)m->const_size;
	info->local_bytes = (size_t)k->frame_size;
	info->param_bytes = (size_t)k->kparam_size;
	uint8_t src;
	info->regs_per_thread = occupancy_regs(cfg, k, 0, &src);
	info->regs_source = ptx_regs_src_name(src);
	uint64_t max = (uint64_t)cfg_int(cfg, CFG_max_threads_per_cta);
	const uint32_t *lim = k->reqntid[0] ? k->reqntid : k->maxntid;
	if (lim[0]) {
		uint64_t t = (uint64_t)lim[0] * (lim[1] ? lim[1] : 1) * (lim[2] ? lim[2] : 1);
		if (t < max)
			max = t;
	}
	uint64_t ws = (uint64_t)cfg_int(cfg, CFG_warp_size);
	if (info->regs_per_thread) { /* one CTA must fit in the register file, in whole warps */
		uint64_t t = (uint64_t)cfg_int(cfg, CFG_regs_per_sm) / ((uint64_t)info->regs_per_thread * ws) * ws;
		if (t < max)
			max = t;
	}
	info->max_threads_per_block = (unsigned)max;
	return WS_SUCCESS;
}

ws_result wsFunctionOccupancy(const ws_function *fn, unsigned blockThreads, size_t sharedMemBytes, unsigned *ctasPerSM)
{
	RETURN_BAD_HANDLE(fn, HANDLE_FUNCTION, "wsFunctionOccupancy");
	if (!ctasPerSM || blockThreads == 0)
		return sim_error(fn->mod->sim, WS_ERROR_INVALID_VALUE, "wsFunctionOccupancy: %s",
				 !ctasPerSM ? "NULL ctasPerSM" : "blockThreads is 0");
	struct cta_resources res;
	const char *why;
	*ctasPerSM = occupancy_ctas_per_sm(&fn->mod->sim->cfg, fn->mod->ir, &fn->mod->ir->funcs[fn->index], blockThreads,
					   sharedMemBytes, &res, &why);
	return WS_SUCCESS;
}

static ws_result launch(ws_function *fn, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
		        unsigned shared_bytes, void **params, bool coop);

ws_result wsLaunchKernel(ws_function *fn, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
			 unsigned bz, unsigned shared_bytes, void **params)
{
	return launch(fn, gx, gy, gz, bx, by, bz, shared_bytes, params, false);
}

ws_result wsLaunchCooperativeKernel(ws_function *fn, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
				    unsigned bz, unsigned shared_bytes, void **params)
{
	return launch(fn, gx, gy, gz, bx, by, bz, shared_bytes, params, true);
}

/* A launch; `coop`: cudaLaunchCooperativeKernel semantics -- every CTA of the
 * grid must be resident at once (else an error saying how many can be), and
 * the kernel gets a zeroed grid-sync workspace through %envreg1:%envreg2. */
static ws_result launch(ws_function *fn, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
		        unsigned shared_bytes, void **params, bool coop)
{
	RETURN_BAD_HANDLE(fn, HANDLE_FUNCTION, coop ? "wsLaunchCooperativeKernel" : "wsLaunchKernel");
	struct ws_module *m = fn->mod;
	ws_sim *sim = m->sim;
	const struct ptx_function *k = &m->ir->funcs[fn->index];
	const struct ws_config *cfg = &sim->cfg;
	if (k->is_extern)
		return sim_error(sim, WS_ERROR_INVALID_LAUNCH,
				 "launch of %s: the kernel is only declared (%s:%u), it has no body to run",
				 k->name, m->ir->filename ? m->ir->filename : "<ptx>", k->line);
	if (!gx || !gy || !gz || !bx || !by || !bz)
		return sim_error(sim, WS_ERROR_INVALID_LAUNCH, "launch of %s: grid (%u,%u,%u) and block (%u,%u,%u) must be non-zero",
				 k->name, gx, gy, gz, bx, by, bz);
	uint64_t threads = (uint64_t)bx * by * bz, nctas = (uint64_t)gx * gy * gz;
	if (threads > (uint64_t)cfg_int(cfg, CFG_max_threads_per_cta))
		return sim_error(sim, WS_ERROR_INVALID_LAUNCH, "launch of %s: %llu threads per CTA exceeds max_threads_per_cta=%lld",
				 k->name, (unsigned long long)threads, (long long)cfg_int(cfg, CFG_max_threads_per_cta));
	if (nctas > 0xffffffffull || gy > 65535 || gz > 65535)
		return sim_error(sim, WS_ERROR_INVALID_LAUNCH, "launch of %s: grid (%u,%u,%u) is too large", k->name, gx, gy, gz);
	for (int d = 0; d < 3; d++) {
		unsigned b = d == 0 ? bx : d == 1 ? by : bz;
		if (k->reqntid[d] && k->reqntid[d] != b)
			return sim_error(sim, WS_ERROR_INVALID_LAUNCH, "launch of %s: block dimension %c=%u but .reqntid requires %u",
					 k->name, "xyz"[d], b, k->reqntid[d]);
	}
	if (k->nparams && !params)
		return sim_error(sim, WS_ERROR_INVALID_VALUE, "launch of %s: kernel takes %u parameters but params is NULL",
				 k->name, k->nparams);
	uint32_t ws = (uint32_t)cfg_int(cfg, CFG_warp_size);
	struct cta_resources res;
	const char *why;
	uint32_t per_sm = occupancy_ctas_per_sm(cfg, m->ir, k, threads, shared_bytes, &res, &why);
	uint32_t warps = res.warps;
	uint64_t dyn_off = res.dyn_shared_off, shared_total = res.shared_total;
	if (per_sm == 0) {
		/* what the limiting parameter would have to be, so the user knows what runs it */
		uint64_t unit = (uint64_t)cfg_int(cfg, CFG_reg_alloc_unit);
		uint64_t rpt = (res.regs_per_thread + unit - 1) / unit * unit;
		uint64_t need = strcmp(why, "regs_per_sm") == 0 ? rpt * warps * ws
				: strcmp(why, "shmem_per_sm") == 0     ? shared_total
				: strcmp(why, "max_threads_per_sm") == 0 ? (uint64_t)warps * ws
				: strcmp(why, "max_warps_per_sm") == 0   ? warps
									 : 1;
		uint64_t pow2 = 1;
		while (pow2 < need)
			pow2 <<= 1;
		char cur[64];
		const char *curv = wsConfigGet(cfg, why, cur, sizeof cur);
		return sim_error(sim, WS_ERROR_LAUNCH_OUT_OF_RESOURCES,
				 "launch of %s: one CTA (%llu threads, %u warps, %u registers/thread, %llu B shared) does not fit "
				 "on an SM (limit: %s = %s; one CTA needs %llu: run it with --set %s=%llu, or on a "
				 "configuration with larger SMs, e.g. configs/gtx1080ti.cfg or configs/titanx-pascal.cfg)",
				 k->name, (unsigned long long)threads, warps, res.regs_per_thread,
				 (unsigned long long)shared_total, why, curv ? curv : "?",
				 (unsigned long long)need, why, (unsigned long long)pow2);
	}
	uint64_t resident = (uint64_t)per_sm * (uint64_t)cfg_int(cfg, CFG_num_sms);
	if (coop && nctas > resident)
		return sim_error(sim, WS_ERROR_INVALID_LAUNCH,
				 "cooperative launch of %s: grid of %llu CTAs cannot be resident at once (at most %u per SM x "
				 "%lld SMs = %llu with %llu threads and %llu B shared per CTA)",
				 k->name, (unsigned long long)nctas, per_sm, (long long)cfg_int(cfg, CFG_num_sms),
				 (unsigned long long)resident, (unsigned long long)threads, (unsigned long long)shared_total);
	struct par_env penv; /* the thread pool's environment: a bad value fails here, not silently */
	char perr[160];
	if (!par_env_read(&penv, perr, sizeof perr))
		return sim_error(sim, WS_ERROR_INVALID_VALUE, "%s", perr);
	ws_deviceptr grid_ws = 0;
	if (coop) { /* struct grid_workspace { u32 wsSize; u32 barrier; } */
		if (dmem_alloc(sim->mem, 16, &grid_ws))
			return sim_error(sim, WS_ERROR_OUT_OF_MEMORY, "out of device memory for the grid-sync workspace");
		uint32_t init[4] = {16, 0, 0, 0};
		memcpy(dmem_ptr(sim->mem, grid_ws, 16), init, 16);
	}
	uint8_t *kp = calloc(1, k->kparam_size ? k->kparam_size : 1);
	if (!kp) {
		if (grid_ws)
			dmem_free(sim->mem, grid_ws);
		return sim_error(sim, WS_ERROR_OUT_OF_MEMORY, "out of memory");
	}
	for (uint32_t i = 0; i < k->nparams; i++) {
		const struct ptx_var *v = &m->ir->vars[k->params[i]];
		if (!params[i]) {
			free(kp);
			if (grid_ws)
				dmem_free(sim->mem, grid_ws);
			return sim_error(sim, WS_ERROR_INVALID_VALUE, "launch of %s: params[%u] (%s) is NULL", k->name, i,
					 v->name);
		}
		memcpy(kp + v->addr, params[i], v->size);
	}
	struct occupancy occ;
	occupancy_report(cfg, m->ir, k, threads, shared_bytes, &occ);
	struct ws_stats *st = &sim->launch_stats;
	memset(st, 0, sizeof *st);
	struct func_launch L = {
		.mod = m->ir, .kernel = k, .kernel_index = fn->index, .mem = sim->mem, .kparams = kp,
		.kparam_size = k->kparam_size, .const_bank = m->const_bank, .const_size = m->const_size,
		.global_base = m->global_base, .texobjs = sim->texobjs, .ntexobjs = sim->ntexobjs, .grid = {gx, gy, gz}, .block = {bx, by, bz}, .ws = ws,
		.threads_per_cta = (uint32_t)threads, .warps_per_cta = warps, .shared_static = k->shared_static,
		.dyn_shared_off = dyn_off, .shared_total = shared_total, .num_sms = (uint32_t)cfg_int(cfg, CFG_num_sms),
		.ctas_per_sm = per_sm, .max_warps_per_sm = (uint32_t)cfg_int(cfg, CFG_max_warps_per_sm),
		.gridid = ++sim->gridid, .stats = st,
		.trace = cfg_int(cfg, CFG_trace_phases) ? &sim->trace : NULL, .launch_no = (uint32_t)sim->gridid,
		.printf_out = sim->printf_set ? sim->printf_out : stdout,
		.progress = sim->progress, .progress_user = sim->progress_user,
		.grid_ws = grid_ws, .rsmem = m->ir->uses_rsmem, .rsmem_off = shared_total - PTX_RSMEM_BYTES,
	};
	sim->trace.max = (size_t)cfg_int(cfg, CFG_trace_max_events);
	char mode[32];
	ws_result r = strcmp(cfg_enum_name(cfg, CFG_mode, mode, sizeof mode), "timing") == 0
			      ? gpu_run_launch(&L, cfg, per_sm, sim->sched_override.pol ? &sim->sched_override : NULL,
					       sim->tmem, m->sibs, m->nsibs, &sim->cta_rr)
			      : func_run_launch(&L, (uint64_t)cfg_int(cfg, CFG_max_warp_insts),
						(uint64_t)cfg_int(cfg, CFG_livelock_cycles),
						(uint32_t)cfg_int(cfg, CFG_func_quantum));
	free(kp);
	if (grid_ws)
		dmem_free(sim->mem, grid_ws);
	sim->host_sm_ticks += L.host_sm_ticks;
	sim->host_sm_slept += L.host_sm_slept;
	sim->host_cycles_skipped += L.host_cycles_skipped;
	stats_add(&sim->stats, st);
	uint32_t rec = sim->nlaunches;
	record_launch(sim, k->name, st, &occ);
	if (r != WS_SUCCESS && sim->tmem && !sim_tmem_reset(sim)) /* requests may still be in flight */
		return sim_error(sim, WS_ERROR_OUT_OF_MEMORY, "out of host memory");
	if (r != WS_SUCCESS)
		return sim_error(sim, r, "%s", L.errmsg[0] ? L.errmsg : wsGetErrorString(r));
	sim->stats.v[STAT_kernels]++;
	if (sim->nlaunches > rec) /* the launch's own record counts its one completed kernel too */
		sim->launches[rec].v[STAT_kernels] = 1;
	return ok(sim);
}

/* ---- statistics ---- */

void sim_set_sched_policy(ws_sim *sim, const struct sched_policy *pol, const struct sched_policy *inner)
{
	if (sim)
		sim->sched_override = (struct sched_choice){pol, pol && pol->wraps ? inner : NULL};
}

/* The last error of a call that takes a const simulator (a getter): the
 * error text is diagnostic state of the caller's simulator object, which the
 * caller created writable (wsSimCreate), so recording it is allowed.  A
 * getter that succeeds leaves the last error alone (a program reads the
 * counters of a launch that failed, then its error). */
static ws_result getter_error(const ws_sim *sim, ws_result r, const char *fmt, const char *name)
{
	return sim_error((ws_sim *)sim, r, fmt, name ? name : "(null)");
}

ws_result wsStatsGet(const ws_sim *sim, const char *name, uint64_t *value)
{
	RETURN_BAD_SIM(sim, "wsStatsGet");
	if (!name)
		return getter_error(sim, WS_ERROR_INVALID_VALUE, "wsStatsGet: NULL name%.0s", name);
	int i = stats_find(name);
	if (i < 0) {
		/* a counter exported by a scheduling policy that ran */
		const struct stat_extra *e = stats_extra_find(&sim->stats, name);
		if (!e)
			return getter_error(sim, WS_ERROR_NOT_FOUND, "wsStatsGet: no counter named '%s'", name);
		if (value)
			*value = e->v;
		return WS_SUCCESS;
	}
	if (value)
		*value = sim->stats.v[i];
	return WS_SUCCESS;
}

void wsStatsReset(ws_sim *sim)
{
	if (!sim_handle_live(sim, HANDLE_SIM))
		return;
	memset(&sim->stats, 0, sizeof sim->stats);
	sim->nlaunches = 0;
	sim->host_sm_ticks = sim->host_sm_slept = sim->host_cycles_skipped = 0;
}

void wsSimHostWork(const ws_sim *sim, uint64_t *sm_ticks, uint64_t *sm_slept, uint64_t *cycles_skipped)
{
	if (!sim_handle_live(sim, HANDLE_SIM))
		sim = NULL;
	if (sm_ticks)
		*sm_ticks = sim ? sim->host_sm_ticks : 0;
	if (sm_slept)
		*sm_slept = sim ? sim->host_sm_slept : 0;
	if (cycles_skipped)
		*cycles_skipped = sim ? sim->host_cycles_skipped : 0;
}

unsigned wsHostCores(void) { return par_cores_available(); }

unsigned wsLaunchCount(const ws_sim *sim) { return sim_handle_live(sim, HANDLE_SIM) ? sim->nlaunches : 0; }

const char *wsLaunchKernelName(const ws_sim *sim, unsigned launch)
{
	return sim_handle_live(sim, HANDLE_SIM) && launch < sim->nlaunches ? sim->launches[launch].kernel : NULL;
}

ws_result wsLaunchStatsGet(const ws_sim *sim, unsigned launch, const char *name, uint64_t *value)
{
	RETURN_BAD_SIM(sim, "wsLaunchStatsGet");
	if (!name)
		return getter_error(sim, WS_ERROR_INVALID_VALUE, "wsLaunchStatsGet: NULL name%.0s", name);
	int i = stats_find(name);
	if (i < 0)
		return getter_error(sim, WS_ERROR_NOT_FOUND, "wsLaunchStatsGet: no counter named '%s'", name);
	if (launch >= sim->nlaunches)
		return getter_error(sim, WS_ERROR_NOT_FOUND, "wsLaunchStatsGet: no such launch (asked for '%s')", name);
	if (value)
		*value = sim->launches[launch].v[i];
	return WS_SUCCESS;
}

ws_result wsLaunchStatsWriteJSON(const ws_sim *sim, unsigned launch, FILE *out)
{
	RETURN_BAD_SIM(sim, "wsLaunchStatsWriteJSON");
	if (!out)
		return getter_error(sim, WS_ERROR_INVALID_VALUE, "wsLaunchStatsWriteJSON: NULL file%.0s", NULL);
	if (launch >= sim->nlaunches)
		return getter_error(sim, WS_ERROR_NOT_FOUND, "wsLaunchStatsWriteJSON: no such launch%.0s", NULL);
	fputc('{', out);
	stats_write_json_values(sim->launches[launch].v, out);
	fputc('}', out);
	return ferror(out) ? WS_ERROR_INVALID_VALUE : WS_SUCCESS;
}

ws_result wsLaunchOccupancy(const ws_sim *sim, unsigned launch, ws_occupancy *occ)
{
	RETURN_BAD_SIM(sim, "wsLaunchOccupancy");
	if (!occ)
		return getter_error(sim, WS_ERROR_INVALID_VALUE, "wsLaunchOccupancy: NULL occ%.0s", NULL);
	if (launch >= sim->nlaunches)
		return getter_error(sim, WS_ERROR_NOT_FOUND, "wsLaunchOccupancy: no such launch%.0s", NULL);
	const struct occupancy *o = &sim->launches[launch].occ;
	*occ = (ws_occupancy){.ctas_per_sm = o->ctas_per_sm,
	                      .limit = o->limit,
	                      .regs_per_thread = o->regs_per_thread,
	                      .regs_source = ptx_regs_src_name(o->regs_src),
	                      .ptxas_regs = o->alt_regs,
	                      .ptxas_source = o->alt_regs ? ptx_regs_src_name(o->alt_src) : "",
	                      .ptxas_ctas_per_sm = o->alt_ctas_per_sm,
	                      .ptxas_limit = o->alt_regs ? o->alt_limit : "",
	                      .origin = o->origin};
	occupancy_format(o, occ->text, sizeof occ->text);
	return WS_SUCCESS;
}

ws_result wsStatsGetDerived(const ws_sim *sim, const char *name, double *value)
{
	RETURN_BAD_SIM(sim, "wsStatsGetDerived");
	if (!name)
		return getter_error(sim, WS_ERROR_INVALID_VALUE, "wsStatsGetDerived: NULL name%.0s", name);
	if (!derived_get(&sim->stats, &sim->cfg, name, value))
		return getter_error(sim, WS_ERROR_NOT_FOUND, "wsStatsGetDerived: no derived metric named '%s'", name);
	return WS_SUCCESS;
}

void wsStatsPrint(const ws_sim *sim, FILE *out)
{
	if (sim_handle_live(sim, HANDLE_SIM) && out)
		stats_report_print(&sim->stats, &sim->cfg, out);
}

ws_result wsTraceWriteChrome(const ws_sim *sim, FILE *out)
{
	RETURN_BAD_SIM(sim, "wsTraceWriteChrome");
	if (!out)
		return sim_error((ws_sim *)sim, WS_ERROR_INVALID_VALUE, "wsTraceWriteChrome: NULL file");
	trace_write_chrome(&sim->trace, out);
	return ferror(out) ? WS_ERROR_INVALID_VALUE : WS_SUCCESS;
}

ws_result wsTraceInfo(const ws_sim *sim, uint64_t *records, uint64_t *dropped)
{
	RETURN_BAD_SIM(sim, "wsTraceInfo");
	if (records)
		*records = sim->trace.n;
	if (dropped)
		*dropped = sim->trace.dropped;
	return WS_SUCCESS;
}

ws_result wsTimelineWriteSVG(ws_sim *sim, FILE *out, unsigned launch, unsigned sm, unsigned cta_lo, unsigned cta_hi)
{
	RETURN_BAD_SIM(sim, "wsTimelineWriteSVG");
	if (!out || cta_lo > cta_hi)
		return sim_error(sim, WS_ERROR_INVALID_VALUE, "wsTimelineWriteSVG: %s",
				 !out ? "NULL file" : "empty CTA range (cta_lo > cta_hi)");
	char why[512];
	size_t drawn = trace_write_svg(&sim->trace, out, launch, sm, cta_lo, cta_hi, why, sizeof why);
	if (ferror(out))
		return sim_error(sim, WS_ERROR_INVALID_VALUE, "wsTimelineWriteSVG: write error");
	if (!drawn)
		return sim_error(sim, WS_ERROR_NOT_FOUND, "nothing to draw: %s", why);
	return WS_SUCCESS;
}

static void json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++)
		if (*s == '"' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else if ((unsigned char)*s < 32)
			fprintf(f, "\\u%04x", (unsigned char)*s);
		else
			fputc(*s, f);
	fputc('"', f);
}

/* The launches grouped by kernel and occupancy, in the order of first
 * launch: the first launch of each group in (*head)[g], its launches in
 * (*count)[g] (both malloc'd); returns the groups (0 when out of memory). */
static uint32_t occupancy_groups(const ws_sim *sim, uint32_t **head, uint32_t **count)
{
	uint32_t ng = 0, n = sim->nlaunches ? sim->nlaunches : 1;
	*head = malloc(n * sizeof **head);
	*count = calloc(n, sizeof **count);
	for (uint32_t i = 0; *head && *count && i < sim->nlaunches; i++) {
		uint32_t g = 0;
		while (g < ng && !same_occupancy(&sim->launches[(*head)[g]], &sim->launches[i]))
			g++;
		if (g == ng)
			(*head)[ng++] = i;
		(*count)[g]++;
	}
	return *head && *count ? ng : 0;
}

void wsOccupancyPrint(const ws_sim *sim, FILE *out, const char *prefix)
{
	if (!sim_handle_live(sim, HANDLE_SIM) || !out)
		return;
	uint32_t *head, *count, ng = occupancy_groups(sim, &head, &count);
	for (uint32_t g = 0; g < ng; g++) {
		ws_occupancy o;
		if (wsLaunchOccupancy(sim, head[g], &o) != WS_SUCCESS)
			continue;
		fprintf(out, "%s%s", prefix ? prefix : "", sim->launches[head[g]].kernel);
		if (count[g] > 1)
			fprintf(out, " (%u launches)", count[g]);
		fprintf(out, ": %s\n", o.text);
	}
	free(head);
	free(count);
}

/* "occupancy": one entry per kernel and occupancy, in the order of first
 * launch, with the count of its launches. */
static void occupancy_write_json(const ws_sim *sim, FILE *f)
{
	uint32_t *head, *count, ng = occupancy_groups(sim, &head, &count);
	fprintf(f, "\"occupancy\": [");
	for (uint32_t g = 0; g < ng; g++) {
		const struct sim_launch *l = &sim->launches[head[g]];
		const struct occupancy *o = &l->occ;
		fprintf(f, "%s\n    {\"kernel\": ", g ? "," : "");
		json_str(f, l->kernel);
		fprintf(f,
		        ", \"launches\": %u, \"ctas_per_sm\": %u, \"limit\": \"%s\", \"regs_per_thread\": %u, "
		        "\"regs_source\": \"%s\", \"ptxas_regs\": %u, \"ptxas_source\": \"%s\", "
		        "\"ptxas_ctas_per_sm\": %u, \"ptxas_limit\": \"%s\", \"origin\": ",
		        count[g], o->ctas_per_sm, o->limit ? o->limit : "", o->regs_per_thread,
		        ptx_regs_src_name(o->regs_src), o->alt_regs, o->alt_regs ? ptx_regs_src_name(o->alt_src) : "",
		        o->alt_ctas_per_sm, o->alt_regs && o->alt_limit ? o->alt_limit : "");
		json_str(f, o->origin);
		fputc('}', f);
	}
	fprintf(f, "%s]", ng ? "\n  " : "");
	free(head);
	free(count);
}

ws_result wsStatsWriteJSON(const ws_sim *sim, FILE *out)
{
	RETURN_BAD_SIM(sim, "wsStatsWriteJSON");
	if (!out)
		return sim_error((ws_sim *)sim, WS_ERROR_INVALID_VALUE, "wsStatsWriteJSON: NULL file");
	char *occ = NULL;
	size_t occn = 0;
	FILE *mf = sim->nlaunches ? open_memstream(&occ, &occn) : NULL;
	if (mf) {
		occupancy_write_json(sim, mf);
		if (fclose(mf) != 0) {
			free(occ);
			occ = NULL;
		}
	}
	stats_report_write_json(&sim->stats, &sim->cfg, &sim->trace, occ, out);
	free(occ);
	return ferror(out) ? WS_ERROR_INVALID_VALUE : WS_SUCCESS;
}
