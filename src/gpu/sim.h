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
#include "ptx/ir.h"
#include "sched/sched.h"
#include "stats/stats.h"
#include "stats/trace.h"
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
	/* wsModuleUnload frees the module's contents and leaves this struct and
	 * funcs as a tombstone (freed with the simulator), so that a stale module
	 * or function handle is an error rather than a use after free */
	bool unloaded;
};

struct ws_sim {
	struct ws_config cfg;
	struct dmem *mem;
	struct ws_stats stats;
	struct ws_stats launch_stats; /* counters of the launch in progress (added to stats at its end) */
	uint64_t host_sm_ticks, host_sm_slept, host_cycles_skipped; /* wsSimHostWork (func_launch) */
	struct sim_launch {
		char kernel[64];
		uint64_t v[STAT_ID_LIMIT]; /* the tables' counters (not the policies' run-time ones) */
	} *launches;                  /* per-launch counters since creation / wsStatsReset */
	uint32_t nlaunches, cap_launches;
	struct memsys *tmem;          /* timing model's memory system kept across launches (l2_persist), or NULL */
	struct ws_module **mods;
	uint32_t nmods;
	struct ws_module **dead;      /* unloaded modules' tombstones (wsModuleUnload) */
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
	struct ws_array **arrays;     /* live arrays (wsArrayCreate), freed with the simulator */
	uint32_t narrays, cap_arrays;
	char lasterr[4096];
};

/* Free the texture objects and arrays of sim (texture_api.c). */
void sim_textures_free(ws_sim *sim);

/* Run later launches under `pol` (a wrapper over `inner`) instead of the
 * policy the `sched` setting names -- for policies that are not in the
 * registry (tests, prototypes).  pol NULL: back to the setting.  The
 * policies must outlive the launches. */
void sim_set_sched_policy(ws_sim *sim, const struct sched_policy *pol, const struct sched_policy *inner);

/* Record a detailed error message on sim and return r. */
ws_result sim_error(ws_sim *sim, ws_result r, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
