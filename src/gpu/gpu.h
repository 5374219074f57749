/*
 * gpu.h -- the whole GPU of the cycle-level model.
 *
 * Models the chip: SMs, the CTA dispatcher (at most one CTA per SM per
 * cycle, within the SM's limits on CTA slots, warps, threads, registers and
 * shared memory), the memory system below the L1s with its clock domains,
 * and the launch-level watchdog that turns "no progress" into a deadlock
 * report listing every stuck warp.  Each SM is handed what it needs of the
 * GPU as its environment (struct sm_env, core/sm.h); the core does not
 * include this header.
 */
#ifndef WARPSIM_GPU_GPU_H
#define WARPSIM_GPU_GPU_H

#include <stdbool.h>
#include <stdint.h>

#include "core/decode.h"
#include "func/func.h"
#include "sched/sched.h"

struct sm;
struct memsys;
struct ws_config;
struct ws_stats;

struct gpu {
	const struct ws_config *cfg;
	struct func_launch *L;
	struct dec_module *dec;
	struct memsys *mem;
	struct sm **sms;
	uint32_t nsms;
	uint64_t *active;             /* bitmap [ceil(nsms/64)]: SMs the cycle loop ticks (gpu.c) */
	struct ws_stats *stats;
	struct sched_choice pol;      /* the issue policy (and a wrapper's inner policy) */
	const struct fetch_policy *fpol;
	uint64_t cycle;
	bool sleep;              /* the `sleep` parameter: SMs, partitions and whole cycles skipped when eventless */
	uint64_t next_age;            /* age of the next warp launched (the SMs' sm_env.next_age; advanced in dispatch()) */
	uint32_t next_cta, nctas, ctas_done;
	uint32_t dispatch_rr;     /* SM the dispatcher looks at first */
	bool rr_persist;          /* cta_rr_persist: the next launch starts after last_sm (gpu_run_launch's dispatch_start) */
	bool rr_last;             /* cta_rr_last: dispatch_rr follows the last SM given a CTA */
	uint32_t last_sm;         /* the SM that received the last CTA dispatched (dispatch_rr - 1 before any) */
	bool last_cta_issued;
	bool oom;
	uint64_t last_retire;     /* last cycle a warp finished or a CTA started or completed */
	uint64_t sm_warp_insts;   /* warp instructions in the SMs' own counters so far (not yet in L->stats) */
	const struct sched_sib *sibs; /* the launch's annotated spin-inducing branches (sorted), for the policy */
	uint32_t nsibs;
	struct lockstat *lock;        /* lock/wait outcome measurement (NULL without annotations) */
};

/* Run a launch on the cycle-level model (the functional state in L is
 * driven by the timing model).  ctas_per_sm: occupancy computed by the
 * caller.  sched: the issue policy, NULL for the one cfg's `sched` names.
 * The policy's exported counters are added to L->stats at the end.
 * mem: the memory system below the L1s to run on, kept by the caller from one
 * launch to the next (L2 contents persist; its counters go to L->stats, which
 * must be the stats object mem was created with); NULL: a fresh one for this
 * launch only.
 * sibs/nsibs: the launch's annotated spin-inducing branches (sorted by fn,
 * pc; wsFunctionSetSpinBranches), handed to the policy instances.
 * dispatch_start: with cta_rr_persist, the SM the dispatcher looks at first,
 * kept by the caller from one launch to the next (0 for a new simulator) and
 * set at the launch's end to the SM after the one that received its last CTA;
 * unused otherwise. */
ws_result gpu_run_launch(struct func_launch *L, const struct ws_config *cfg, uint32_t ctas_per_sm,
			 const struct sched_choice *sched, struct memsys *mem, const struct sched_sib *sibs,
			 uint32_t nsibs, uint32_t *dispatch_start);

#endif
