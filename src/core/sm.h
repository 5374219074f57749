/*
 * sm.h -- one streaming multiprocessor of the cycle-level model.
 *
 * Models a Fermi-style SM (BAWS paper Section 2, docs/design.md):
 *   fetch (fetch policy, L1 I-cache) -> decode into per-warp I-buffers ->
 *   issue (N schedulers, each walking its policy's order; scoreboard;
 *   operand-collector availability) -> operand collectors reading register
 *   banks -> execution units (SP, SFU, DP, INT; latency and initiation
 *   interval per opcode) and the LD/ST unit (coalescer, shared-memory banks,
 *   L1D with MSHRs, the memory system) -> writeback over result buses.
 * Stages tick back to front each cycle, so each reads last cycle's state.
 * Instructions execute functionally when they issue (func_warp_step).
 * CTAs occupy CTA slots and warp slots; finished warps wait at the exit
 * until their CTA completes.
 */
#ifndef WARPSIM_CORE_SM_H
#define WARPSIM_CORE_SM_H

#include <stdbool.h>
#include <stdint.h>

#include "core/decode.h"
#include "core/scoreboard.h"
#include "func/func.h"
#include "mem/mem.h"
#include "sched/sched.h"
#include "stats/stats.h"

struct ldst;
struct lockstat;
struct memsys;
struct ws_config;

#define SM_IBUF_MAX 16
/* warp slots per SM: the upper end of max_warps_per_sm's range (src/config/params.def) */
#define SM_MAX_SLOTS 1024
/* schedulers per SM: the upper end of num_schedulers's range (src/core/core_params.def) */
#define SM_MAX_SCHED 8
/* per-cycle counter increments one tick records (sm_count_cycle): each
 * scheduler's issue or stall classification and a dual issue, and the
 * SM's activity class, with room to spare */
#define SM_CYC_STAT_MAX (4 * SM_MAX_SCHED)

struct ibuf_entry {
	const struct dec_insn *d;
	int32_t fn, pc;
	uint64_t ready;         /* cycle the decoded instruction becomes available */
};

struct sm_warp {
	/* hot fields first: the issue and fetch stages read them for every live
	 * warp every cycle, so they share the first cache line */
	bool valid;
	bool finished;          /* all threads exited; waits at the CTA's exit */
	bool at_barrier;        /* waits at a CTA barrier */
	bool fetch_pending;     /* I-cache miss outstanding */
	bool ctrl_pending;      /* I-buffer flushed by a control instruction not yet resolved */
	bool head_sb_ok;        /* scoreboard clear for the I-buffer head (as of the last view refresh) */
	bool head_fence;        /* the I-buffer head is a membar/fence (as of the last view refresh) */
	uint8_t ib_head, ib_count;
	uint64_t ib_head_ready;       /* ready cycle of the I-buffer head; UINT64_MAX when empty */
	int32_t fetch_fn, fetch_pc;   /* next instruction to fetch */
	uint64_t fetch_block_until;   /* control hazard: no fetch before this cycle */
	struct func_warp *fw;
	struct func_cta *fc;
	uint32_t cta_slot;
	/* back end */
	uint32_t inflight;            /* issued, not yet written back */
	uint32_t pending_stores;      /* stores sent to memory, not yet acknowledged (membar waits) */
	uint32_t pending_atomics;     /* atomic_wait: atom instructions issued, not yet written back (the warp waits) */
	/* cp.async groups (issue 16): copies in flight per group, a ring of
	 * SM_CP_GROUPS indexed by group number; cp_seq is the open group */
	uint32_t cp_pending[8];
	uint32_t cp_seq;
	uint32_t frame_base;          /* register-id base of the current frame (reg_off / warp size) */
	struct scoreboard sb;
	/* accounting */
	uint64_t launch_cycle;
	uint64_t wait_since;          /* cycle it started waiting at a barrier */
	uint64_t finish_cycle;
	/* front end: the I-buffer (ring of SM_IBUF_MAX, ibuf_depth used) */
	struct ibuf_entry ib[SM_IBUF_MAX];
};

struct sm_cta {
	bool valid;
	struct func_cta *fc;
	uint32_t *slots;
	uint32_t nwarps;
	uint32_t finished_warps;
	uint64_t launch_cycle;
	uint64_t phase_start;         /* cycle the current warp-phase began (launch or last release) */
	uint32_t phase;               /* index of the current warp-phase */
};

/* An instruction in an operand collector or an execution pipeline. */
struct sm_op {
	const struct dec_insn *d;
	uint32_t slot;                /* warp slot */
	uint32_t frame_base;          /* register-id base at issue */
	uint32_t reads_left;          /* operand reads still to perform */
	int16_t banks[DEC_MAX_SRC];   /* register bank of each read */
	uint8_t nreads;
	uint8_t sched;
	bool longlat;                 /* destinations are long-latency (global/local load, atomic) */
	uint64_t ready;               /* completion cycle (writeback no earlier) */
	struct func_step_info *mem;   /* memory instructions: addresses etc. (owned by LD/ST) */
	uint8_t cp_group;             /* cp.async copy: its group's slot in sm_warp.cp_pending */
	/* DWR (dwr.h): a large warp of sub-warps issued as one LAT.  Lanes
	 * [r*warp_size, (r+1)*warp_size) belong to CTA warp lane0_warp + r;
	 * the partners beyond `slot` are released at writeback too. */
	uint8_t npart;                /* partner sub-warps beyond `slot` */
	uint8_t width;                /* lanes of the access (0: warp_size) */
	uint16_t lane0_warp;          /* under DWR: CTA warp index of the sub-warp in the first lanes */
	uint32_t part_slot[7], part_fb[7];
};
#define SM_CP_GROUPS 8

struct sm_collector {
	bool busy;
	struct sm_op op;
	uint64_t since;
	struct func_step_info info;   /* what the functional step reported (addresses for the LD/ST unit) */
};

struct sm_unit {
	uint64_t busy_until;          /* next cycle it accepts an instruction */
};

struct sm_wb_ent {
	uint64_t ready;
	uint32_t idx;                 /* the instruction: sm_wb_queue.q[idx] */
};
struct sm_wb_queue {
	/* one allocation (free q frees it all): q [cap] instructions, h [cap] a
	 * binary min-heap on ready of (ready, index into q), fl [cap - n] free
	 * indices of q (writeback.c) */
	struct sm_op *q;
	struct sm_wb_ent *h;
	uint32_t *fl;
	uint32_t n, cap;
	/* ldst_wb_ports: the ready results one cycle sets aside [held_cap] */
	struct sm_op *held;
	uint32_t held_cap;
};

/* What an SM takes from the GPU it belongs to (sm_create): the launch and
 * the shared structures around the core.  The GPU builds one per launch;
 * the SMs only read it, except *next_age, which only sm_launch_cta()
 * advances -- called by the GPU's CTA dispatcher, on one thread, in SM
 * order, so warp ages do not depend on how many threads tick the SMs. */
struct sm_env {
	const struct ws_config *cfg;
	uint32_t ctas_per_sm;             /* CTA slots (occupancy, computed by the GPU's caller) */
	const struct func_launch *L;      /* the launch (each SM works on a copy of it: sm.L) */
	uint32_t nctas;                   /* CTAs in the grid */
	const struct dec_module *dec;     /* the launch's decoded code (fetch stage) */
	struct memsys *mem;               /* the memory system below the L1s (LD/ST unit) */
	const struct lockstat *lock;      /* lock/wait outcome measurement, NULL without annotations (issue stage) */
	const struct sched_choice *pol;   /* the issue policy (and a wrapper's inner policy) */
	const struct fetch_policy *fpol;  /* the fetch policy */
	const struct sched_sib *sibs;     /* the launch's annotated spin-inducing branches (sorted), for the policy */
	uint32_t nsibs;
	uint64_t *next_age;               /* the age source: each warp launched takes (*next_age)++ */
};

struct sm {
	uint32_t id;
	struct sm_env env;            /* a copy of what sm_create was given */
	const struct ws_config *cfg;
	uint32_t ws, nsched, nslots, nctaslots;
	uint32_t ibuf_depth;
	/* warps and CTAs */
	struct sm_warp *w;            /* [nslots] */
	struct sm_cta *cta;           /* [nctaslots] */
	uint32_t live_ctas, used_slots;
	/* scheduler views and policies */
	struct sched_warp *vw;        /* [nslots] view */
	struct sched_cta *vc;         /* [nctaslots] view */
	struct sched_view view;
	const struct sched_policy *pol;
	void *pol_st;
	uint64_t *pol_ctr;            /* [sched_choice_ncounters] the policy's exported counters */
	const struct fetch_policy *fpol;
	void *fpol_st;
	bool *held;                   /* [nslots] warps the policy holds back (view.held; set through view.hold) */
	struct sched_hold_port hold;  /* view.hold: sched_hold() sets held[] */
	uint32_t *age_sorted;         /* [nsched][nslots] each scheduler's warps by age (view.age_sorted) */
	uint32_t *age_count;          /* [nsched] (view.age_count) */
	uint32_t *cand_sorted;        /* [nsched][nslots] the same without finished warps (view.cand_sorted) */
	uint32_t *cand_count;         /* [nsched] (view.cand_count) */
	uint32_t *order;              /* scratch [nslots] */
	uint32_t *live;               /* valid slots, ascending: live[0..nlive) */
	uint32_t nlive;
	uint32_t busy_coll;           /* operand collectors holding an instruction */
	uint32_t *coll_fifo;          /* busy collectors in issue order (oldest first) [busy_coll] */
	bool *eligible;               /* scratch [nslots] */
	uint64_t *sched_busy_until;   /* [nsched] issue_simd_passes: the scheduler still issues sub-warps until then */
	uint32_t *last_fetch;         /* [nsched] slot of the scheduler's warp fetched for last, not yet
	                                 followed by an issue (UINT32_MAX: none); fetch_next_issue */
	/* operand collectors: [nsched][UNIT_COUNT][ncoll_per] (opcoll_generic: only unit type 0's
	 * group of each scheduler is used, for every unit type; coll_pooled: only scheduler 0's groups,
	 * shared by every scheduler, coll_count[cu] of unit type cu's) */
	struct sm_collector *coll;
	uint32_t ncoll_per;           /* collectors a group has room for: opcoll_per_unit, or the largest coll_count */
	bool coll_generic;            /* opcoll_generic: a scheduler's collectors serve every unit type */
	bool coll_pooled;             /* opcoll_units: per-SM collectors per unit type, shared by the schedulers */
	uint8_t coll_count[UNIT_COUNT]; /* collectors of a group of each unit type (ncoll_per unless coll_pooled) */
	uint8_t *coll_init;           /* [nsched][UNIT_COUNT] coll_now with no collector busy */
	uint32_t coll_reads;           /* opcoll_reads_per_cycle: reads per collector per cycle, 0 = no limit */
	uint32_t exec_reg_cycles;      /* exec_reg_cycles: pipeline-register cycles a unit adds to its latency */
	uint8_t *coll_free;           /* [nsched][UNIT_COUNT] free collectors at the start of the issue stage (view.coll_free) */
	uint8_t *coll_now;            /* [nsched][UNIT_COUNT] free collectors now (during the issue stage;
	                                 opcoll_generic: the scheduler's free count, in each unit type's entry;
	                                 coll_pooled: the SM's free count of the type, in every scheduler's entry) */
	bool sub_core;                /* units and register banks partitioned among the schedulers (sub_core) */
	bool fence_regs;              /* fence_wait=registers: a fence waits for the warp's register writes, not its stores */
	bool share;                   /* KAWS warp sharing on (warp_sharing, or a policy's preset of it: kaws) */
	/* execution units */
	struct sm_unit *units[UNIT_COUNT];
	uint32_t nunits[UNIT_COUNT];
	uint64_t *bank_busy;          /* [reg_banks]: cycle the bank was last read */
	uint32_t nbanks;
	struct sm_wb_queue wb;
	/* LD/ST unit and L1 caches */
	struct ldst *ldst;
	/* warps whose scheduler view the issue stage must refresh (I-buffer head
	 * or scoreboard changed): bitmap [ceil(nslots / 64)], set with
	 * sm_warp_mark_dirty(); head_at[slot]: the warp's ib_head_ready as of its
	 * last refresh (refreshed again when that cycle comes: decode latency
	 * expires without an event).  See sm_issue_tick(). */
	uint64_t *dirty_bits;
	uint64_t *head_at;
	/* no live warp's head_at lies in (head_next_at's last walk, head_next_at):
	 * the issue stage walks the live warps for head_at == now only when
	 * now >= head_next_at (0 at creation: the first cycle walks) */
	uint64_t head_next_at;
	/* fetch stage (fetch.c), over slots [0, SM_MAX_SLOTS): fetch_dirty, the
	 * warps whose fetch eligibility may have changed since the last fetch
	 * tick other than by being marked dirty for the issue stage (the issue
	 * stage adds the dirty warps it refreshes); fetch_cand, the warps that
	 * pass every fetch condition but the control-hazard wait, as of their
	 * last change (a slot freed since is dropped when seen) */
	uint64_t fetch_dirty[SM_MAX_SLOTS / 64];
	uint64_t fetch_cand[SM_MAX_SLOTS / 64];
	/* issue stage, per scheduler: a superset of its slots whose view says
	 * ready (set where issue.c sets ready, cleared where it clears it; a
	 * slot freed or relaunched may stay in) */
	uint64_t ready_bits[SM_MAX_SCHED][SM_MAX_SLOTS / 64];
	/* issue stage: the slots whose view's head_unit is u, unit_bits[u]
	 * (exact: moved where issue.c's refresh changes a head_unit; every slot
	 * starts in UNIT_SP's, the head_unit of a zeroed view) */
	uint64_t unit_bits[UNIT_COUNT][SM_MAX_SLOTS / 64];
	/* issue stage: held[] as a bitmap (kept with it: sm_hold_set, a new warp) */
	uint64_t held_bits[SM_MAX_SLOTS / 64];
	/* issue stage: each slot's stall reason as of its last view refresh,
	 * kept current for a control hazard resolved by the fetch stage
	 * (issue.c enum stall; ST_NOW: evaluate it each time) */
	uint8_t stall_at[SM_MAX_SLOTS];
	/* dynamic warp resizing (dwr.h); NULL when dwr_max_warp = 0 */
	struct dwr *dwr;
	/* What the SM's tick may write besides its own hardware state: its own
	 * counters, its own view of the launch and a buffer of its global
	 * stores and atomics, so that SMs of one cycle can tick on several
	 * threads; the GPU loop folds them in, in SM order, after every SM
	 * ticked (gpu.c). */
	struct ws_stats *stats;       /* this SM's counters (added to the launch's at its end) */
	struct func_launch *L;        /* the launch as this SM executes it: own stats, clock, error,
	                                 write buffer, trace and printf buffer; the rest shared */
	struct wlog *wlog;            /* global stores and atomics of this cycle (func/wlog.h) */
	struct phase_trace trace;     /* warp-phase records of this cycle (when tracing) */
	FILE *printf_buf;             /* device printf output of this cycle (threads > 1) */
	char *printf_mem;
	size_t printf_len;
	/* accounting */
	bool progress;                /* something happened this cycle (watchdog) */
	bool retired;                 /* a warp finished or a CTA completed this cycle (livelock watchdog) */
	bool oom;                     /* host memory ran out */
	bool failed;                  /* this cycle's tick stopped on a functional error (in L->err) */
	uint32_t ctas_done;           /* CTAs completed this cycle */
	uint64_t warp_insts_seen;     /* stats->v[STAT_warp_insts] when the GPU loop last counted it */
	/* Sleeping while busy (sleep; sm_next_event, sm_wake): a tick whose
	 * issue and fetch stages changed nothing, whose operand collectors only
	 * wait for busy units and whose LD/ST pipelines only wait (a timer, or
	 * a retry that fails until a reply or room in the interconnect input),
	 * is repeated exactly by every later tick until a timer expires or an
	 * outside event arrives, so those ticks are skipped and only their
	 * per-cycle counters are added, in one step: the tick records each
	 * per-cycle counter it increments (sm_count_cycle; the LD/ST unit's own,
	 * ldst_skip). */
	bool sleep_ok;                /* the SM may sleep while busy (sleep, and a policy that can: sched.h) */
	bool issue_quiet;             /* this tick's issue stage issued nothing and left no issuable warp */
	bool issue_coll_wait;         /* ...or issued nothing, its ready warps all waiting for a free collector */
	/* The issue stage alone (sm_issue_repeats): its last tick was quiet (or
	 * waited for collectors only) and nothing it reads has changed since
	 * except through dirty marks and its timers -- cleared by the events
	 * that change its view without a dirty mark (warps added or removed, a
	 * control hazard resolved, kernel events, a collector freed after a
	 * tick that waited for one) */
	bool issue_same;
	bool fetch_quiet;             /* this tick's fetch stage found no warp to fetch for */
	bool cyc_full;                /* this tick counted more than cyc_stat holds: it may not sleep */
	uint8_t ncyc_stat;
	uint8_t cyc_sched;            /* schedulers whose policy on_cycle ran in this tick (bit per scheduler) */
	uint16_t cyc_stat[SM_CYC_STAT_MAX]; /* the per-cycle counters this tick incremented, once per increment */
	uint64_t sleep_until;         /* 0: awake; else the next cycle it must tick */
	uint64_t slept_from;          /* the cycle of its last tick (while asleep) */
	bool sleep_input;             /* asleep, and an LD/ST pipeline waits for room in its interconnect input */
};

/* Count one occurrence of per-cycle counter `id` (core_counters.def) in
 * this tick: the only way to increment a counter that a tick increments
 * because of the state the SM is in rather than an event (issue cycles,
 * stall reasons, SM activity).  It both increments the counter and records
 * it, so that a sleeping SM adds it again for every cycle it skips
 * (sm_wake); an increment made otherwise would be missed by sleeping. */
static inline void sm_count_cycle(struct sm *s, int id)
{
	s->stats->v[id]++;
	if (s->ncyc_stat < SM_CYC_STAT_MAX)
		s->cyc_stat[s->ncyc_stat++] = (uint16_t)id;
	else
		s->cyc_full = true;
}

/* SM number `id` of a GPU, in environment env (copied). */
struct sm *sm_create(const struct sm_env *env, uint32_t id);
void sm_destroy(struct sm *s);
/* Can the SM accept one more CTA of the current launch? */
bool sm_can_accept_cta(const struct sm *s, uint32_t warps_per_cta);
/* Launch a CTA (its func_cta already created).  False on OOM. */
bool sm_launch_cta(struct sm *s, struct func_cta *fc, uint64_t now);
/* One core cycle.  False on a functional error (recorded in the launch). */
bool sm_cycle(struct sm *s, uint64_t now);
bool sm_busy(const struct sm *s);
/* After the tick of cycle `now`: the first cycle whose tick may differ
 * from a repeat of this one's stall accounting -- the next expiring timer
 * (writeback, decode, control hazard, SIMD passes, DWR partner barriers,
 * the policy's next_event, a busy execution unit a collector waits for,
 * the LD/ST unit's shared-memory passes) -- or now + 1 when the SM cannot
 * sleep.  UINT64_MAX: nothing but an outside event (a memory reply, a CTA,
 * a kernel event, room in its interconnect input: sm_input_wake) can change it. */
uint64_t sm_next_event(const struct sm *s, uint64_t now);
/* Sleep after the tick of cycle `now` until cycle `until` (sm_next_event's answer, > now + 1). */
void sm_sleep(struct sm *s, uint64_t until, uint64_t now);
/* A sleeping SM whose LD/ST unit retries a request its interconnect input
 * had no room for: does the input have room now?  (It must tick then.) */
bool sm_input_wake(const struct sm *s);
/* The SM slept since its last tick (s->slept_from) and is to tick at
 * `now`, or an outside event reaches it at `now`: add the skipped cycles'
 * counters and wake it. */
void sm_wake(struct sm *s, uint64_t now);
/* Append a description of the live warps (for deadlock reports): at most
 * SM_DESCRIBE_WARPS in all the calls that share *shown, each SM's LD/ST unit after its warps.
 * Which warps sm_describe lists: every one (SM_DESCRIBE_ALL), only those at
 * instruction at[0] (SM_DESCRIBE_AT), or only those at none of at[0 .. nat)
 * (SM_DESCRIBE_NONE_OF; a finished warp is at none); ldst_done (a bit per
 * SM, or NULL): SMs whose LD/ST unit an earlier call described, so that a
 * later pass does not repeat it. */
enum sm_describe_which { SM_DESCRIBE_ALL, SM_DESCRIBE_AT, SM_DESCRIBE_NONE_OF };
#define SM_DESCRIBE_WARPS 8 /* warps listed in detail, in all the calls that share *shown */
struct sm_describe_filter {
	enum sm_describe_which which;
	const int32_t (*at)[2]; /* (fn, pc) pairs */
	unsigned nat;
	uint64_t *ldst_done;
};
void sm_describe(const struct sm *s, const struct sm_describe_filter *f, char *buf, size_t bufsz, size_t *len,
		 unsigned *shown, unsigned *total);
/* A memory reply for this SM (from the memory system). */
void sm_mem_reply(struct sm *s, const struct mem_reply *r, uint64_t now);

#endif
