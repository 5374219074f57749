/*
 * sched.h -- the warp-scheduling and fetch-policy interface.
 *
 * Models the decision logic of an SM's warp schedulers and of its fetch
 * arbiter, nothing else.  A policy sees a read-only view of the SM's warp
 * slots and CTAs and returns a priority order; the shared issue loop in
 * src/core/ walks that order and issues the first warp that can issue (its
 * next instruction valid and ready, scoreboard clear, unit free).  Each
 * policy is a struct of function pointers in its own file under src/sched/,
 * registered by name in registry.c.  One policy instance exists per SM and
 * serves all of the SM's schedulers (so a policy may keep per-SM tables,
 * e.g. BAWS's warp priority table).
 */
#ifndef WARPSIM_SCHED_H
#define WARPSIM_SCHED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ptx/unit.h" /* enum ws_unit: the execution-unit class of an I-buffer head */

struct ws_config;

/* Read-only view of one hardware warp slot. */
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
	uint32_t sched_id;      /* scheduler owning this slot (slot % nsched) */
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
	/* Optional acceleration: the valid slots in ascending order (NULL means
	 * "scan warps[0..nslots)"; hand-built views in tests may leave it NULL). */
	const uint32_t *live;
	uint32_t nlive;
	/* Warps the policy holds back (backed off, throttled): held[slot] true
	 * means the issue stage does not issue that warp even if it is ready,
	 * and a cycle lost to it counts as stall_held.  The SM owns the array
	 * and clears a slot's entry when a new warp arrives in it; the policy
	 * writes it in its hooks (never in order()) through
	 * sched_create_args.held.  NULL (hand-built views): nothing held. */
	const bool *held;
	/* Optional acceleration: changes whenever a slot becomes valid or
	 * invalid or a warp's age/warp_in_cta changes (the SM bumps it at CTA
	 * launch and exit).  0 means "unknown": policies must rescan. */
	uint64_t roster_gen;
	/* Free operand collectors at the start of this cycle's issue stage:
	 * coll_free[s * UNIT_COUNT + u] for scheduler s and unit class u.
	 * NULL (hand-built views): unknown. */
	const uint8_t *coll_free;
};

/* Did warp w's scheduler have a free operand collector for w's I-buffer
 * head at the start of this cycle's issue stage?  (False when the view has
 * no collector table.) */
static inline bool sched_head_coll_free(const struct sched_view *v, const struct sched_warp *w)
{
	return v->coll_free && w->sched_id < v->nsched && w->head_unit < UNIT_COUNT &&
	       v->coll_free[w->sched_id * UNIT_COUNT + w->head_unit] != 0;
}

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
	bool *held;          /* [nslots] the SM's held-back flags (see sched_view.held); NULL: cannot hold */
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
	/* The policy includes the KAWS warp-sharing control unit (kaws): the
	 * issue stage shares warps between schedulers as with warp_sharing=1. */
	bool warp_sharing;
	/* Event-driven: the held flags and the *set* of warps order() returns
	 * (the ranks may depend on view.cycle) change only with the view's warp
	 * and CTA flags, in the hooks, and -- for a policy with on_cycle -- at
	 * the cycles its next_event() names; a repeat of on_cycle with an
	 * unchanged view before then changes nothing but counters, which
	 * skip() adds.  Then a scheduler with no issuable warp classifies its
	 * stall the same way every cycle until the next event, and a busy SM
	 * whose warps can only wait may skip those cycles (sleep,
	 * core/sm.h sm_next_event).  A policy with on_cycle must also give
	 * next_event (and skip if on_cycle counts); a wrapper answers for its
	 * inner policy, which must be event-driven too.  Policies defined at
	 * run time leave it false: their SMs tick every cycle. */
	bool event_driven;
	void *(*create)(const struct sched_create_args *a); /* NULL on OOM */
	void (*destroy)(void *st);
	/* Write scheduler `sched_id`'s candidate slots, highest priority first,
	 * into order[] (capacity v->nslots); return how many.  Slots that are not
	 * valid may be omitted; the issue loop re-checks everything.
	 * A pure query: it may be called any number of times per cycle (the
	 * issue stage calls it once per scheduler, fetch policies such as cff
	 * call it too) and changes nothing that any later call or hook could
	 * observe.  (A policy may refresh a memo that is a function of the view
	 * alone, e.g. sched_age_cache, through a pointer in its state.)  Every
	 * state change happens in the hooks below. */
	uint32_t (*order)(const void *st, const struct sched_view *v, uint32_t sched_id, uint32_t *order);
	/* Events (any may be NULL). */
	/* Once per scheduler per cycle, just before the issue stage asks for
	 * scheduler `sched_id`'s order: state that follows the view (pool
	 * maintenance, periodic rotation) is updated here. */
	void (*on_cycle)(void *st, const struct sched_view *v, uint32_t sched_id);
	/* For sleeping SMs (event_driven policies with on_cycle): after this
	 * cycle's on_cycle calls (v->cycle), the first later cycle at which
	 * on_cycle could do more than repeat them if the view stays the same
	 * (a timer: back-off expiry, a window or period boundary); UINT64_MAX
	 * if none. */
	uint64_t (*next_event)(const void *st, const struct sched_view *v);
	/* The SM skipped `cycles` cycles in which on_cycle(sched_id) would have
	 * been repeated with an unchanged view: add what those calls count. */
	void (*skip)(void *st, const struct sched_view *v, uint32_t sched_id, uint64_t cycles);
	void (*on_issue)(void *st, const struct sched_view *v, uint32_t sched_id, uint32_t slot);
	void (*on_barrier_arrive)(void *st, const struct sched_view *v, uint32_t cta_slot, uint32_t slot);
	void (*on_barrier_release)(void *st, const struct sched_view *v, uint32_t cta_slot);
	void (*on_cta_launch)(void *st, const struct sched_view *v, uint32_t cta_slot);
	void (*on_cta_exit)(void *st, const struct sched_view *v, uint32_t cta_slot);
	void (*on_kernel_event)(void *st, const struct sched_view *v, enum sched_kernel_event ev);
	/* Called after every issued instruction of interest (setp and branches) when non-NULL. */
	void (*on_exec)(void *st, const struct sched_view *v, const struct sched_exec_event *e);
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
/* May an SM under this choice sleep through eventless cycles (event_driven,
 * with next_event where there is an on_cycle; for a wrapper, its inner
 * policy too)? */
bool sched_choice_can_sleep(const struct sched_choice *c);
/* Counter i of a choice: its definition, and its stats name "<policy>_<name>" in buf. */
const struct sched_counter *sched_choice_counter(const struct sched_choice *c, uint32_t i, char *buf, size_t bufsz);
const struct fetch_policy *fetch_policy_find(const char *name);
/* NULL-terminated lists, for help text and validation. */
extern const struct sched_policy *const sched_policies[];
extern const struct fetch_policy *const fetch_policies[];

#endif
