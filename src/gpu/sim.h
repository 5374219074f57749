/*
 * sim.h -- the simulator object behind the public API (one simulated GPU
 * with its device memory, loaded modules, configuration and statistics).
 */
#ifndef WARPSIM_GPU_SIM_H
#define WARPSIM_GPU_SIM_H

#include <stdbool.h>

#include "config/config.h"
#include "func/dmem.h"
#include "func/texture.h"
#include "gpu/occupancy.h"
#include "ptx/ir.h"
#include "sched/sched.h"
#include "stats/stats.h"
#include "stats/trace.h"
#include "util/handles.h"
#include "warpsim.h"

struct ws_function {
	struct ws_module *mod;
	int index; /* into mod->ir->funcs */
};

struct ws_module {
	struct ws_sim *sim;
	struct ptx_module *ir;
	uint64_t global_base;  /* device address of the module's .global image (0 if none) */
	uint8_t *const_bank;   /* module .const image */
	uint64_t const_size;
	struct ws_function *funcs; /* one per ir->funcs */
	struct sched_sib *sibs;    /* annotated spin-inducing branches of its functions, sorted by (fn, pc) */
	uint32_t nsibs;
	/* wsModuleUnload frees the module's contents and marks it and its
	 * functions destroyed in the handle registry (util/handles.h); this
	 * struct and funcs stay allocated until the simulator is destroyed
	 * (sim->dead), so no later module reuses their addresses as handles */
};

struct ws_sim {
	char lasterr[20480]; /* room for a parse's 100 errors (ptx_error.more) */
	/* a handle of its own (wsSimConfig), at another address than the
	 * simulator's: not the first member */
	struct ws_config cfg;
	struct dmem *mem;
	struct ws_stats stats;
	struct ws_stats launch_stats; /* counters of the launch in progress (added to stats at its end) */
	uint64_t host_sm_ticks, host_sm_slept, host_cycles_skipped; /* wsSimHostWork (func_launch) */
	struct sim_launch {
		char kernel[64];
		uint64_t v[STAT_ID_LIMIT]; /* the tables' counters (not the policies' run-time ones) */
		struct occupancy occ;      /* CTAs per SM, limit, registers and their source */
	} *launches;                  /* per-launch counters since creation / wsStatsReset */
	uint32_t nlaunches, cap_launches;
	struct memsys *tmem;          /* timing model's memory system kept across launches (l2_persist), or NULL */
	uint32_t cta_rr;              /* cta_rr_persist: the SM the next launch's CTA dispatcher looks at first */
	struct ws_module **mods;
	uint32_t nmods;
	struct ws_module **dead;      /* unloaded modules, kept allocated (wsModuleUnload) */
	uint32_t ndead;
	uint64_t gridid;
	struct phase_trace trace;  /* warp-phase records (config trace_phases) */
	FILE *printf_out;          /* device printf output */
	bool printf_set;           /* printf_out chosen by wsSimSetPrintfStream */
	ws_progress_fn progress;   /* wsSimSetProgress (NULL: none) */
	void *progress_user;
	struct sched_choice sched_override; /* .pol non-NULL: used instead of the `sched` setting */
	struct tex_object *texobjs;   /* texture and surface objects (texture_api.c): handle = index + 1 */
	uint32_t ntexobjs, cap_texobjs;
	struct ws_array **arrays;     /* arrays (wsArrayCreate), destroyed ones too: all freed with the simulator */
	uint32_t narrays, cap_arrays;
};

/* Free the texture objects and arrays of sim (texture_api.c). */
void sim_textures_free(ws_sim *sim);

/* Run later launches under `pol` (a wrapper over `inner`) instead of the
 * policy the `sched` setting names -- for policies that are not in the
 * registry (tests, prototypes).  pol NULL: back to the setting.  The
 * policies must outlive the launches. */
void sim_set_sched_policy(ws_sim *sim, const struct sched_policy *pol, const struct sched_policy *inner);

/* The whole configuration's check (wsConfigCheck without the handle check;
 * config_api.c): each parameter's own check, then those of several. */
ws_result config_check(const struct ws_config *cfg, char *err, size_t errsz);

/* WS_SUCCESS if h is a live handle of type t (util/handles.h); otherwise
 * WS_ERROR_INVALID_HANDLE, with the reason ("call: the module was
 * unloaded ...") recorded on the simulator that owns the handle, when there
 * is one that lives. */
ws_result sim_check_handle(const void *h, enum handle_type t, const char *call);
/* Whether h is a live handle of type t (for calls that return no ws_result). */
bool sim_handle_live(const void *h, enum handle_type t);
/* Return the error of a handle argument that is not a live handle of type t. */
#define RETURN_BAD_HANDLE(h, t, call)                                                                                \
	do {                                                                                                         \
		ws_result check_r_ = sim_check_handle((h), (t), (call));                                             \
		if (check_r_ != WS_SUCCESS)                                                                          \
			return check_r_;                                                                             \
	} while (0)
#define RETURN_BAD_SIM(sim, call) RETURN_BAD_HANDLE(sim, HANDLE_SIM, call)

/* Record a detailed error message on sim and return r. */
ws_result sim_error(ws_sim *sim, ws_result r, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
