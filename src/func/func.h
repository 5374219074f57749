/*
 * func.h -- the functional SIMT model: warps, CTAs and kernel launches.
 *
 * Models the architectural state of a pre-Volta NVIDIA GPU as software
 * sees it: per-thread registers and local memory, per-CTA shared memory and
 * barriers, and each warp's SIMT reconvergence stack with immediate-post-
 * dominator reconvergence (as in GPGPU-Sim).  It executes one warp
 * instruction at a time when asked (func_warp_step); whoever asks -- the
 * functional engine (engine.c) or the timing model -- decides the order.
 * Semantics run exactly once per issued instruction ("timing-directed
 * functional execution"); func_step_info tells the caller what happened
 * (memory addresses, branch outcome, barrier arrival, exit).
 */
#ifndef WARPSIM_FUNC_H
#define WARPSIM_FUNC_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "func/dmem.h"
#include "func/exec.h"
#include "func/texture.h"
#include "ptx/ir.h"
#include "stats/trace.h"
#include "warpsim.h"

struct ws_stats;

#define FUNC_MAX_BARRIERS 16

/* One entry of a warp's SIMT reconvergence stack. */
struct simt_entry {
	int32_t pc;          /* next instruction of this entry */
	int32_t rpc;         /* reconvergence pc (pop when pc == rpc), PTX_PC_EXIT = none */
	uint64_t mask;       /* threads executing this path */
	int32_t fn;          /* function being executed */
	uint32_t reg_off;    /* register frame: offset into warp->regs */
	uint64_t local_base; /* per-thread local-memory frame base (local-space address) */
	/* call entries only (is_call=1): pushed by `call`, popped when all its threads returned */
	uint8_t is_call;
	int32_t call_pc;     /* pc of the call instruction in the caller */
	uint64_t call_mask;  /* threads that entered the call */
};

/* Why a warp is not runnable. */
enum func_wait { WAIT_NONE, WAIT_BARRIER, WAIT_EXITED };

struct func_warp {
	uint32_t index;            /* warp index within its CTA */
	uint64_t valid;            /* lanes that hold threads (partial last warp) */
	uint64_t exited;           /* threads that executed exit/trap */
	enum func_wait wait;
	uint8_t bar_id;            /* barrier waited on */
	int32_t bar_fn, bar_pc;    /* the bar.sync/bar.red it waits at (the stack's pc has moved past it) */
	/* bar.red result pending for this warp (written at release) */
	int32_t bar_red_dst;       /* register index or -1 */
	uint32_t bar_red_reg_off;
	uint8_t bar_red_type;
	uint64_t bar_red_mask;
	/* SIMT stack */
	struct simt_entry *stack;
	uint32_t sp, stack_cap;    /* sp = number of entries; top = stack[sp-1] */
	/* registers of all frames: frame at reg_off holds fn->nregs * ws values */
	uint64_t *regs;
	size_t regs_cap;           /* in uint64_t */
	uint8_t carry[WS_MAX_WARP];
	/* per-thread local memory (frames of the call stack), lane-major */
	uint8_t *local;
	uint64_t local_cap;        /* bytes per thread */
	uint64_t insts;            /* warp instructions executed */
};

struct func_barrier {
	uint32_t arrived_warps;    /* warps arrived (bar.sync/bar.red/bar.arrive) */
	uint32_t expected;         /* thread count given by the instruction, 0 = all CTA warps */
	uint64_t red_popc;         /* bar.red accumulators */
	uint8_t red_and, red_or;
	uint8_t red_op;
};

struct func_cta {
	uint32_t id[3];            /* %ctaid */
	uint32_t linear;           /* linear CTA index in the grid */
	uint32_t slot;             /* hardware slot (SM * max CTAs + k); %smid = slot / ctas per SM */
	uint32_t sm;
	uint8_t *shared;           /* static + dynamic shared memory */
	uint64_t shared_size;
	struct func_warp *warps;
	uint32_t nwarps;
	uint32_t live_warps;       /* warps with threads not yet exited */
	struct func_barrier bar[FUNC_MAX_BARRIERS];
};

/* What one executed warp instruction did (for the timing model and stats). */
struct func_step_info {
	const struct ptx_insn *insn;
	int32_t fn, pc;            /* where it was */
	uint64_t active;           /* SIMT active mask */
	uint64_t exec;             /* active & guard: threads that executed it */
	uint8_t space;             /* resolved space of a memory access (per lane in lane_space when generic) */
	uint8_t access_size;       /* bytes per lane per access (vec * type size) */
	bool diverged;             /* branch split the warp */
	bool barrier_wait;         /* warp now waits at a barrier */
	bool exited;               /* warp has no live threads left */
	bool deferred;             /* an atomic buffered in L->wlog: destinations written at commit */
	/* tensor-core loads/stores (exec_tensor.c): the lanes whose addr[] stand
	 * for the access, each access_size bytes (the timing model uses these
	 * instead of exec when mem_lanes_set) */
	bool mem_lanes_set;
	uint64_t mem_lanes;
	uint64_t addr[WS_MAX_WARP];      /* per-lane effective address (state-space address) */
	uint8_t lane_space[WS_MAX_WARP]; /* per-lane resolved space for generic accesses */
};

/* A kernel launch in progress: everything shared by its CTAs. */
struct func_launch {
	const struct ptx_module *mod;
	const struct ptx_function *kernel;
	int32_t kernel_index;
	struct dmem *mem;
	size_t dmem_last;           /* dmem_ptr_cached's lookup cache (each SM's copy of the launch has its own) */
	/* host-side work of the timing model (not statistics of the model): SM
	 * ticks run, and busy-SM cycles skipped asleep (sleep) */
	uint64_t host_sm_ticks, host_sm_slept, host_cycles_skipped;
	const uint8_t *kparams;     /* kernel parameter buffer */
	uint64_t kparam_size;
	const uint8_t *const_bank;  /* module .const image */
	uint64_t const_size;
	uint64_t global_base;       /* device address of the module .global image */
	const struct tex_object *texobjs; /* texture/surface objects: handle h is texobjs[h - 1] */
	uint32_t ntexobjs;
	uint32_t grid[3], block[3];
	uint32_t ws;
	uint32_t threads_per_cta, warps_per_cta;
	uint64_t shared_static;     /* bytes of static shared memory */
	uint64_t dyn_shared_off;    /* offset of dynamic (extern) shared memory */
	uint64_t shared_total;
	uint32_t num_sms, ctas_per_sm, max_warps_per_sm;
	/* cooperative launch (cudaLaunchCooperativeKernel): device address of the
	 * grid-sync workspace cooperative groups find through %envreg1:%envreg2
	 * (0 for an ordinary launch, where grid.sync() traps, as on hardware) */
	uint64_t grid_ws;
	bool rsmem;                 /* reserved shared memory (%reserved_smem_*) follows the CTA's own ... */
	uint64_t rsmem_off;         /* ... at this offset, PTX_RSMEM_BYTES long */
	uint64_t gridid;
	uint64_t clock;             /* value of %clock64 (cycles in timing mode, instructions in functional) */
	uint64_t mem_changes;       /* stores and atomics that changed a global or shared word: progress for the
	                               livelock watchdogs (a spin loop only reads, or writes back what is there) */
	struct ws_stats *stats;
	struct wlog *wlog;          /* global stores and atomics buffered to the end of the cycle (timing
	                               model, one per SM: func/wlog.h); NULL: executed at once */
	struct phase_trace *trace;  /* warp-phase records (NULL: not recorded) */
	FILE *printf_out;           /* device printf output (NULL: discarded) */
	uint32_t launch_no;         /* 1-based launch number on this simulator */
	/* wsSimSetProgress: called every WS_PROGRESS_PERIOD cycles (functional
	 * model: warp instructions) with where the launch is; host-side only,
	 * nothing of the model reads what it does (NULL: none) */
	ws_progress_fn progress;
	void *progress_user;
	/* first run-time error */
	ws_result err;
	char errmsg[4096];
};

/* Create/destroy a CTA's state (warps, registers, shared memory).  Returns NULL on OOM. */
struct func_cta *func_cta_create(struct func_launch *L, uint32_t linear, uint32_t slot, uint32_t sm);
void func_cta_destroy(struct func_cta *c);

/* Execute the next instruction of warp w.  Returns false if a run-time error
 * occurred (L->err/L->errmsg set).  The warp must be runnable (wait == WAIT_NONE). */
bool func_warp_step(struct func_launch *L, struct func_cta *c, struct func_warp *w, struct func_step_info *info);

/* Current pc/function of a warp (top of its stack), -1 if finished. */
int32_t func_warp_pc(const struct func_warp *w, int32_t *fn);
/* Where a stuck-warp report places w: func_warp_pc, or for a warp waiting at
 * a barrier the barrier instruction (not the one after it). */
int32_t func_warp_where(const struct func_warp *w, int32_t *fn);
/* "ht pc 37 (line 72: setp.eq.s32 %p1, %r20, 0;)" for instruction pc of function fn. */
void func_insn_describe(const struct func_launch *L, int32_t fn, int32_t pc, char *buf, size_t bufsz);

/* Record a run-time error at warp w's current instruction (formats location). */
bool func_fail(struct func_launch *L, struct func_cta *c, struct func_warp *w, int lane, ws_result r,
	       const char *fmt, ...) __attribute__((format(printf, 6, 7)));

/* Describe where a warp is (for deadlock reports): "CTA (x,y,z) warp N: pc P (line L: text), waits on ..." */
void func_warp_describe(const struct func_launch *L, const struct func_cta *c, const struct func_warp *w, char *buf,
			size_t bufsz);

/* Run a whole launch functionally (engine.c): CTAs resident by occupancy,
 * round-robin warps with a quantum.  Detects barrier deadlock, the
 * instruction limit and livelock: no warp finished and no CTA started or
 * completed for `livelock` cycles of num_sms warp instructions each (0 =
 * off), reported like the timing model's livelock_cycles watchdog. */
ws_result func_run_launch(struct func_launch *L, uint64_t max_warp_insts, uint64_t livelock, uint32_t quantum);

/* Loader-time check that every instruction of the module is implemented.
 * Returns false with a located message. */
bool func_check_module(const struct ptx_module *m, const char *filename, char *msg, size_t msgsz);

#endif
