/*
 * sched.h -- the warp-scheduling and fetch-policy interface.
 *
 * Models the decision logic of an SM's warp schedulers and of its fetch
 * arbiter, nothing else.  A policy sees a read-only view of the SM's warp
 * slots and CTAs and returns a priority order; the shared issue loop in
 * src/core/ walks that order and issues the first warp that can issue (its
 * next instruction valid and ready, scoreboard clear, unit free).  Each
 * policy is a struct of function pointers in its own file under src/sched/,
 * which registers it by name (WS_POLICY below; docs/policies.md, "Writing a
 * policy", has a complete example).  One policy instance exists per SM and
 * per launch, built by create() and never reset; it serves all of the SM's
 * schedulers (so a policy may keep per-SM tables, e.g. BAWS's warp priority
 * table).  A warp never changes scheduler (slot % nsched).
 */
#ifndef WARPSIM_SCHED_H
#define WARPSIM_SCHED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ptx/unit.h" /* enum ws_unit: the execution-unit class of an I-buffer head */

struct ws_config;

/* Read-only view of one hardware warp slot.  The SM owns every field and
 * writes it; valid, finished and at_barrier are copies of the SM's own warp
 * state (core/sm.h struct sm_warp), published by the SM whenever that state
 * changes and never read back by it. */
struct sched_warp {
	bool valid;             /* slot holds a warp of a resident CTA */
	bool finished;          /* all threads exited; waits at the CTA's exit */
	bool at_barrier;        /* waits at a CTA barrier */
	bool ibuf_head_valid;   /* the oldest I-buffer entry holds a decoded instruction */
	bool ready;             /* head instruction would pass the scoreboard now */
	bool long_latency_wait; /* head instruction depends on a pending long-latency (global/local) load */
	bool partner_wait;      /* DWR: locked at (or in the latency of) a partner barrier (src/core/dwr.h) */
	uint8_t ibuf_count;     /* valid I-buffer entries */
	uint8_t ibuf_depth;     /* I-buffer capacity */
	uint32_t slot;          /* index of this slot in the SM */
	uint32_t sched_id;      /* scheduler owning this slot (slot % nsched; fixed) */
	uint64_t age;           /* dynamic warp id: order of launch on the GPU (smaller = older) */
	uint32_t cta_slot;      /* CTA slot on this SM */
	uint32_t cta_id;        /* linear CTA id in the grid */
	uint32_t warp_in_cta;   /* warp index within its CTA */
	uint64_t insts_issued;  /* warp instructions issued so far */
	/* The unit class (enum ws_unit) of the I-buffer head, when
	 * ibuf_count > 0.  Whether the warp's scheduler had a free operand
	 * collector for it at the start of this cycle's issue stage:
	 * sched_head_coll_free(). */
	uint8_t head_unit;
	/* Stall cycles, kept lazily (read them with sched_warp_stall_cycles):
	 * the cycles in which this warp, at the start of the issue stage, had a
	 * decoded instruction at its I-buffer head and was neither at a barrier
	 * nor finished, but did not issue -- whatever the reason: scoreboard,
	 * busy unit, another warp chosen, held back by the policy. */
	uint64_t stall_cycles;  /* such cycles before stall_since */
	uint64_t stall_since;   /* first cycle of the current run of such cycles; 0 if none (cycles start at 1) */
};

/* Stall cycles of warp w before cycle `now` (pass view->cycle). */
static inline uint64_t sched_warp_stall_cycles(const struct sched_warp *w, uint64_t now)
{
	return w->stall_cycles + (w->stall_since && now > w->stall_since ? now - w->stall_since : 0);
}

/* Read-only view of one CTA slot. */
struct sched_cta {
	bool valid;
	uint32_t cta_id;            /* linear CTA id */
	uint32_t nwarps;            /* warps of the CTA */
	uint32_t warps_at_barrier;  /* warps currently waiting at a barrier */
	uint32_t warps_finished;    /* warps waiting at the exit */
	uint64_t launch_cycle;
	uint64_t insts_issued;      /* CTA progress: warp instructions issued by its warps */
	uint64_t first_barrier_hit; /* cycle the first warp hit the current barrier (UINT64_MAX if none waits) */
};

struct sched_view {
	uint64_t cycle;
	uint32_t nsched;              /* schedulers in the SM */
	uint32_t nslots;              /* warp slots in the SM */
	const struct sched_warp *warps; /* [nslots] */
	uint32_t nctas;               /* CTA slots in the SM */
	const struct sched_cta *ctas; /* [nctas] */
	bool last_cta_issued;         /* the kernel's last CTA has been dispatched to some SM */
	/* Each scheduler's warps by age: age_sorted[s * nslots + i] for
	 * i < age_count[s] are the valid slots scheduler s owns (finished warps
	 * included), oldest first (sched_older in sched_util.h: smaller age,
	 * then warp_in_cta, then slot).  The SM keeps them as CTAs launch and
	 * exit (the only times a slot's warp changes); read them with
	 * sched_by_age().  A hand-built view (tests) fills them with
	 * sched_view_sort_ages() (sched_util.h) after changing its warps. */
	const uint32_t *age_sorted;
	const uint32_t *age_count;
	/* The same lists without the finished warps -- each scheduler's
	 * candidates (sched_candidate in sched_util.h), oldest first:
	 * cand_sorted[s * nslots + i] for i < cand_count[s].  The SM keeps them
	 * as CTAs launch and exit and as warps finish; read them with
	 * sched_cands_by_age().  NULL (hand-built views): not kept, and a
	 * policy filters sched_by_age's list itself. */
	const uint32_t *cand_sorted;
	const uint32_t *cand_count;
	/* Warps held back (backed off, throttled): held[slot] true means the
	 * issue stage does not issue that warp even if it is ready, and a cycle
	 * lost to it counts as stall_held.  The SM owns the flags and clears a
	 * slot's when a new warp arrives in it; a policy sets and clears them
	 * only with sched_hold() in its hooks (never in order()).  NULL
	 * (hand-built views): nothing held. */
	const bool *held;
	/* The port sched_hold() goes through (NULL: the view cannot hold). */
	const struct sched_hold_port *hold;
	/* Free operand collectors at the start of this cycle's issue stage:
	 * coll_free[s * UNIT_COUNT + u] for scheduler s and unit class u.
	 * NULL (hand-built views): unknown. */
	const uint8_t *coll_free;
};

/* How a policy holds warps back: the SM implements set(owner, slot, held)
 * on its own held flags (sched_view.held). */
struct sched_hold_port {
	void (*set)(void *owner, uint32_t slot, bool held);
	void *owner;
};

/* Hold back (held = true) or let go the warp in `slot`, from a hook.  A
 * no-op when the view has no hold port. */
static inline void sched_hold(const struct sched_view *v, uint32_t slot, bool held)
{
	if (v->hold && slot < v->nslots)
		v->hold->set(v->hold->owner, slot, held);
}

/* Is the warp in `slot` held back? */
static inline bool sched_held(const struct sched_view *v, uint32_t slot)
{
	return v->held && v->held[slot];
}

/* Scheduler sched_id's warps, oldest first (sched_view.age_sorted); *n gets
 * their count (0 for a view without age lists). */
static inline const uint32_t *sched_by_age(const struct sched_view *v, uint32_t sched_id, uint32_t *n)
{
	if (!v->age_sorted || !v->age_count || sched_id >= v->nsched) {
		*n = 0;
		return v->age_sorted;
	}
	*n = v->age_count[sched_id];
	return v->age_sorted + (size_t)sched_id * v->nslots;
}

/* Scheduler sched_id's candidates (valid, unfinished warps), oldest first
 * (sched_view.cand_sorted); *n gets their count.  NULL when the view does
 * not keep them (then use sched_by_age and skip the finished warps). */
static inline const uint32_t *sched_cands_by_age(const struct sched_view *v, uint32_t sched_id, uint32_t *n)
{
	*n = 0;
	if (!v->cand_sorted || !v->cand_count || sched_id >= v->nsched)
		return NULL;
	*n = v->cand_count[sched_id];
	return v->cand_sorted + (size_t)sched_id * v->nslots;
}

/* Did warp w's scheduler have a free operand collector for w's I-buffer
 * head at the start of this cycle's issue stage?  (False when the view has
 * no collector table.) */
static inline bool sched_head_coll_free(const struct sched_view *v, const struct sched_warp *w)
{
	return v->coll_free && w->sched_id < v->nsched && w->head_unit < UNIT_COUNT &&
	       v->coll_free[w->sched_id * UNIT_COUNT + w->head_unit] != 0;
}

/* SCHED_KERNEL_START comes once, right after create() and before any CTA
 * (the instance is new: there is nothing to reset); LAST_CTA_ISSUED when
 * the grid's last CTA has been dispatched to some SM; END when the launch's
 * cycle loop is over. */
enum sched_kernel_event { SCHED_KERNEL_START, SCHED_KERNEL_LAST_CTA_ISSUED, SCHED_KERNEL_END };

struct sched_policy;

/* A statistic a policy exports (declared in a static table of the policy):
 * it appears in the stats text and JSON output and in wsStatsGet as
 * "<policy>_<name>" (the policy's name with '-' as '_'), summed over SMs
 * and launches, with its unit and help text like every other counter. */
struct sched_counter {
	const char *name, *unit, *help;
};

/* A branch annotated as spin-inducing (the ground truth of a benchmark,
 * given with wsFunctionSetSpinBranches): function index in the module and
 * instruction index (pc) of the branch, as in sched_exec_event. */
struct sched_sib {
	int32_t fn, pc;
};

/* Arguments for creating a policy instance (one per SM). */
struct sched_create_args {
	const struct ws_config *cfg;
	uint32_t sm;
	uint32_t nsched;
	uint32_t nslots;
	uint32_t nctas;
	/* [policy's ncounters] this instance's counters (zeroed), which it
	 * increments in its hooks; for a wrapper, its own counters followed by
	 * its inner policy's (sched_inner_create passes the inner its part).
	 * NULL: counting disabled (policies must then count nothing). */
	uint64_t *counters;
	/* A wrapper's inner policy (NAME:INNER), NULL otherwise. */
	const struct sched_policy *inner;
	/* The policy being created (so that create() can read self->user). */
	const struct sched_policy *self;
	/* The launch's annotated spin-inducing branches (ground truth; sorted
	 * by fn then pc; may be empty).  BOWS uses them in bows_sib=annotated
	 * mode, DDOS measures its accuracy against them.  Valid for the
	 * lifetime of the instance (one launch). */
	const struct sched_sib *sibs;
	uint32_t nsibs;
	/* Static instruction count of the launched kernel (its .entry body;
	 * CAWA's initial remaining-instruction estimate).  0 if unknown. */
	uint32_t kernel_insts;
};

/* What an issued setp or branch did, for policies that watch execution
 * (BOWS back-off and DDOS spin detection watch setp and backward branches).
 * Raised by the issue stage after the instruction executed functionally
 * (and after on_issue).  Per-lane values are taken from the first *active*
 * lane (lowest set bit of `active`), as the BOWS/DDOS paper does, whether or
 * not its guard predicate let it execute. */
struct sched_exec_event {
	uint32_t slot;
	int32_t fn, pc;          /* where the instruction was */
	uint16_t opcode;         /* enum ptx_opcode */
	bool is_setp;
	bool is_branch;          /* bra or brx */
	bool backward;           /* branch whose target is at or before pc (a loop edge) */
	bool taken;              /* branch: some executing thread took it */
	bool diverged;           /* branch: it split the warp's active mask (pushed reconvergence entries) */
	int32_t target;          /* branch: target pc (brx: the first active lane's table entry); -1 if unknown */
	uint32_t lane;           /* the first active lane (the one the values below come from) */
	uint64_t active, exec;   /* SIMT active mask, and active & guard */
	uint64_t src_values[2];  /* setp: its two source operands in the first active lane (raw register bits) */
	uint64_t result;         /* setp: the predicate register in the first active lane after execution
				  * (unchanged if that lane's guard was false) */
};

/*
 * Timers, for a policy whose on_cycle does time-driven work (back-off
 * expiry, a window or a period).  They serve only the simulator's speed: an
 * SM whose warps can only wait skips the cycles until its next event
 * (sleeping; core/sm.h sm_next_event) instead of ticking them, and must not
 * miss a cycle in which on_cycle would do more than repeat itself.
 *
 * The sleep rule:
 *  - a policy without on_cycle may always be slept through: its state
 *    changes only in the event hooks, and order() is a pure query whose
 *    *set* of warps depends on the view and that state (ranks may depend on
 *    view.cycle; which warps it returns, and the holds, may not);
 *  - a policy with on_cycle may be slept through only if it has timers with
 *    a next_event: after this cycle's on_cycle calls, a repeat of on_cycle
 *    with an unchanged view before next_event() changes nothing but
 *    counters, which skip() adds (skip is needed only if on_cycle counts);
 *  - a policy with on_cycle and no timers (tls, policies defined at run time
 *    in tests) makes its SMs tick every cycle;
 *  - a wrapper's timers answer for its inner policy too, and the inner
 *    policy must itself be sleep-safe.
 */
struct sched_timers {
	/* After this cycle's on_cycle calls (v->cycle), the first later cycle at
	 * which on_cycle could do more than repeat them if the view stays the
	 * same; UINT64_MAX if none. */
	uint64_t (*next_event)(const void *st, const struct sched_view *v);
	/* The SM skipped `cycles` cycles in which on_cycle(sched_id) would have
	 * been repeated with an unchanged view: add what those calls count.
	 * May be NULL when on_cycle counts nothing. */
	void (*skip)(void *st, const struct sched_view *v, uint32_t sched_id, uint64_t cycles);
};

/* A parameter value that comes with a policy's name (see
 * sched_policy.presets): `param` is a parameter name of
 * src/config/params.def or core_params.def. */
struct sched_preset {
	const char *param;
	int64_t value;
};

/* A warp-scheduling (issue) policy.  Only create, destroy and order are
 * required; every hook may be NULL. */
struct sched_policy {
	const char *name;
	const char *description;
	/* A wrapper orders on top of another policy, chosen as "NAME:INNER"
	 * (e.g. a back-off policy over gto or lrr): create() gets the inner
	 * policy in sched_create_args.inner and delegates to it (sched_util.h:
	 * sched_inner_*).  A wrapper cannot be used without an inner policy, and
	 * a plain policy cannot take one. */
	bool wraps;
	/* Exported counters (may be NULL / 0). */
	const struct sched_counter *counters;
	uint32_t ncounters;
	/* Free for policies defined at run time (tests, prototypes run with
	 * sim_set_sched_policy): reaches create() as a->self->user.  NULL for
	 * the registered policies. */
	void *user;
	/* Parameters of the rest of the SM that the policy's name implies,
	 * ended by {NULL}; NULL for none.  For the SMs that run the policy, a
	 * preset replaces the configured value of its parameter; the
	 * configuration itself (and its echo in the statistics) is unchanged.
	 * E.g. kaws is ka's order with the issue stage's warp sharing on:
	 * {"warp_sharing", 1}.  Read with sched_choice_preset(). */
	const struct sched_preset *presets;
	/* NULL unless on_cycle does time-driven work and the SM may sleep
	 * (see struct sched_timers for the rule). */
	const struct sched_timers *timers;
	void *(*create)(const struct sched_create_args *a); /* NULL on OOM */
	void (*destroy)(void *st);
	/* Write scheduler `sched_id`'s candidate slots, highest priority first,
	 * into order[] (capacity v->nslots); return how many.  Slots that are not
	 * valid may be omitted; the issue loop re-checks everything.
	 * A pure query: it may be called any number of times per cycle (the
	 * issue stage calls it once per scheduler, fetch policies such as cff
	 * call it too) and changes nothing that any later call or hook could
	 * observe: every state change happens in the hooks below.  The
	 * scheduler's warps by age are in the view (sched_by_age). */
	uint32_t (*order)(const void *st, const struct sched_view *v, uint32_t sched_id, uint32_t *order);
	/* Events (any may be NULL). */
	/* Once per scheduler per cycle, just before the issue stage asks for
	 * scheduler `sched_id`'s order: state that follows the view (pool
	 * maintenance, periodic rotation) is updated here. */
	void (*on_cycle)(void *st, const struct sched_view *v, uint32_t sched_id);
	void (*on_issue)(void *st, const struct sched_view *v, uint32_t sched_id, uint32_t slot);
	void (*on_barrier_arrive)(void *st, const struct sched_view *v, uint32_t cta_slot, uint32_t slot);
	void (*on_barrier_release)(void *st, const struct sched_view *v, uint32_t cta_slot);
	void (*on_cta_launch)(void *st, const struct sched_view *v, uint32_t cta_slot);
	void (*on_cta_exit)(void *st, const struct sched_view *v, uint32_t cta_slot);
	void (*on_kernel_event)(void *st, const struct sched_view *v, enum sched_kernel_event ev);
	/* Called after every issued instruction of interest (setp and branches) when non-NULL. */
	void (*on_exec)(void *st, const struct sched_view *v, const struct sched_exec_event *e);
	/* A policy with a warp-criticality predictor (CAWA's CPL) says whether
	 * the warp in `slot` is critical now.  A pure query, like order().  The
	 * SM's LD/ST unit asks it once per cached global load when the L1D runs
	 * CAWA's cache prioritization (l1d_cacp; src/mem/cacp.h), and the
	 * answer travels with that load's L1D accesses: the only way
	 * criticality reaches the memory system.  NULL: the policy predicts no
	 * criticality, and l1d_cacp has no effect under it. */
	bool (*critical)(const void *st, const struct sched_view *v, uint32_t slot);
};

/* A fetch policy: picks the warp whose next instruction is fetched this cycle. */
struct fetch_policy {
	const char *name;
	const char *description;
	void *(*create)(const struct sched_create_args *a);
	void (*destroy)(void *st);
	/* Return the slot to fetch for, or -1.  eligible[slot] says whether a
	 * slot may fetch now (valid, free I-buffer entry, no fetch in flight, no
	 * unresolved control instruction).  `issue` / `issue_st` give access to
	 * the issue policy (for critical-fetch-first, which fetches for the warp
	 * the issue policy would pick next). */
	int32_t (*choose)(void *st, const struct sched_view *v, const bool *eligible, const struct sched_policy *issue,
			  void *issue_st);
	void (*on_fetch)(void *st, const struct sched_view *v, uint32_t slot);
};

/*
 * Registration.  A policy is defined in its own file under src/sched/ with
 *
 *     WS_POLICY(ident, rank) = { .name = "...", ... };        (a warp-scheduling policy)
 *     WS_FETCH_POLICY(ident, rank) = { .name = "...", ... };  (a fetch policy)
 *
 * at the start of a line, and nothing else is edited: the Makefile collects
 * these lines from the .c files of src/sched/ into $(BUILD)/gen/sched_registry.inc, which
 * registry.c includes to build sched_policies[] and fetch_policies[].  The
 * lists are ordered by rank, then by ident; ident is a C identifier (the
 * object is sched_<ident> / fetch_<ident>), rank a decimal number.  Ranks
 * 10-120 (issue) and 10-30 (fetch) hold the policies the simulator started
 * with, in their historical order; a new policy takes rank 1000 and so
 * sorts after them by name.  The order shows in `warpsim policies`.
 */
#define WS_POLICY(ident, rank) const struct sched_policy sched_##ident
#define WS_FETCH_POLICY(ident, rank) const struct fetch_policy fetch_##ident

/* Registry (registry.c): look up by name; NULL if unknown. */
const struct sched_policy *sched_policy_find(const char *name);

/* A resolved `sched` setting: a policy, or a wrapper and its inner policy. */
struct sched_choice {
	const struct sched_policy *pol;
	const struct sched_policy *inner; /* NULL unless pol->wraps */
};
/* Resolve "NAME" or "WRAPPER:INNER" against the NULL-terminated list
 * `list` (sched_policies for the registry).  False with a message that
 * names the problem and lists the choices (unknown name, unknown inner
 * policy, a wrapper without an inner policy, a plain policy given one). */
bool sched_resolve_in(const struct sched_policy *const *list, const char *name, struct sched_choice *out, char *msg,
		      size_t msgsz);
bool sched_resolve(const char *name, struct sched_choice *out, char *msg, size_t msgsz);
/* Counters of a choice: the policy's, then its inner policy's. */
uint32_t sched_choice_ncounters(const struct sched_choice *c);
/* May an SM under this choice sleep through eventless cycles (the rule at
 * struct sched_timers; for a wrapper, its inner policy too)? */
bool sched_choice_can_sleep(const struct sched_choice *c);
/* The value the choice presets for parameter `param` (the wrapper's preset
 * first, then its inner policy's): true with *value set, false if none. */
bool sched_choice_preset(const struct sched_choice *c, const char *param, int64_t *value);
/* Counter i of a choice: its definition, and its stats name "<policy>_<name>" in buf. */
const struct sched_counter *sched_choice_counter(const struct sched_choice *c, uint32_t i, char *buf, size_t bufsz);
const struct fetch_policy *fetch_policy_find(const char *name);
/* NULL-terminated lists, for help text and validation. */
extern const struct sched_policy *const sched_policies[];
extern const struct fetch_policy *const fetch_policies[];

#endif
