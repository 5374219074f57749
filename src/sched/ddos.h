/*
 * ddos.h -- Dynamic Detection Of Spinning (ElTantawy and Aamodt, HPCA 2018,
 * Sec. IV), the per-SM spin-loop detector that BOWS uses.
 *
 * Models, per warp, a Path History Register (hashed pcs of the setp
 * instructions of the warp's first active lane) and a Value History Register
 * (the hashed two source operands of those setps), the match-pointer /
 * remaining-matches repetition detector that classifies the warp as
 * spinning, and the SM's spin-inducing-branch prediction table (SIB-PT)
 * with its confidence counters.  Optionally one register set is
 * time-shared by the SM's warps.  Also keeps, as measurement only (no
 * hardware), the accuracy bookkeeping against a ground-truth list of
 * annotated SIBs: TSDR, FSDR and DPR of the paper's Table I.
 * docs/bows.md describes the mechanism and every choice the paper leaves
 * open.
 */
#ifndef WARPSIM_DDOS_H
#define WARPSIM_DDOS_H

#include <stdbool.h>
#include <stdint.h>

#include "sched/sched.h"

/* Per-SIB diagnostics (measurement only): for each of the first
 * DDOS_SIB_DIAG annotated SIBs of the launch, in (function, pc) order (the
 * order of the benchmark's ws_sib_note table), DDOS_SIB_NDIAG counters at
 * DDOS_C_SIB_DIAG + k * DDOS_SIB_NDIAG + j.  They say why a true SIB is
 * or is not confirmed: does it run, is its warp ever classified spinning
 * when it does, and is its loop short enough (<= l setps per iteration)
 * for the history registers to see an iteration repeat. */
#define DDOS_SIB_DIAG 4
enum {
	DDOS_SIB_EXECS,       /* warp executions of the SIB */
	DDOS_SIB_SPINNING,    /* ... with the warp classified spinning (each raises the SIB-PT confidence) */
	DDOS_SIB_REPEATABLE,  /* ... at most l setps after the same warp's previous execution of it */
	DDOS_SIB_DETECTED_SMS,/* SMs on which it was confirmed */
	DDOS_SIB_NDIAG
};
/* Accuracy counters (appended to the owning policy's counters; see ddos_counters). */
enum {
	DDOS_C_TRUE_SEEN,      /* annotated backward branches executed (per SM) */
	DDOS_C_TRUE_DETECTED,  /* ... of them confirmed as SIB on that SM */
	DDOS_C_FALSE_SEEN,     /* other backward branches executed */
	DDOS_C_FALSE_DETECTED, /* ... of them confirmed as SIB (false detections) */
	DDOS_C_TRUE_DPR_PPM,   /* sum over true detections of the detection-phase ratio, in millionths */
	DDOS_C_FALSE_DPR_PPM,  /* the same over false detections */
	DDOS_C_CONFIRMATIONS,  /* times an SIB-PT entry reached the threshold */
	DDOS_C_SPIN_SETPS,     /* setps after which the profiled lane was classified spinning */
	DDOS_C_SIB_DIAG,       /* first per-SIB diagnostic counter: DDOS_SIB_DIAG x DDOS_SIB_NDIAG follow (above) */
	DDOS_NCOUNTERS = DDOS_C_SIB_DIAG + DDOS_SIB_DIAG * DDOS_SIB_NDIAG
};
#define DDOS_SIB_INITS(PFX, K)                                                                                         \
	{PFX "sib" #K "_execs", "insts",                                                                               \
	 "warp executions of the launch's annotated SIB number " #K " (in function, pc order; diagnostic)"},          \
	    {PFX "sib" #K "_spinning", "insts",                                                                        \
	     "of those, executions by a warp DDOS classified as spinning (each raises the SIB-PT confidence)"},        \
	    {PFX "sib" #K "_repeatable", "insts",                                                                      \
	     "of those, executions at most ddos_history setps after the same warp's previous execution of this "       \
	     "SIB: iterations short enough for the history registers to see one repeat"},                             \
	    {PFX "sib" #K "_detected_sms", "SMs", "SMs on which annotated SIB number " #K " was confirmed by DDOS"},
/* The DDOS counters' definitions (name, unit, help), in enum order, names
 * prefixed with PFX; a policy that embeds DDOS lists them after its own
 * with this macro (bows: PFX "ddos_", so bows_ddos_true_seen). */
#define DDOS_COUNTER_INITS(PFX)                                                                                        \
	{PFX "true_seen", "branches",                                                                                  \
	 "annotated spin-inducing backward branches executed, counted once per SM (TSDR denominator)"},                \
	    {PFX "true_detected", "branches",                                                                          \
	     "of those, confirmed as spin-inducing by DDOS on that SM (TSDR numerator)"},                              \
	    {PFX "false_seen", "branches",                                                                             \
	     "non-annotated backward branches executed, counted once per SM (FSDR denominator)"},                      \
	    {PFX "false_detected", "branches",                                                                         \
	     "of those, confirmed as spin-inducing on that SM: false detections (FSDR numerator)"},                    \
	    {PFX "true_dpr_ppm", "ppm",                                                                                \
	     "sum over true detections of (confirmation - first execution) / (last - first execution) cycles, in "     \
	     "millionths (average DPR = this / 1e6 / ddos_true_detected)"},                                            \
	    {PFX "false_dpr_ppm", "ppm", "the same sum over false detections"},                                        \
	    {PFX "confirmations", "events", "times an SIB-PT entry's confidence reached the threshold"},               \
	    {PFX "spin_setps", "insts", "setps after which the warp's profiled lane was classified as spinning"},       \
	    DDOS_SIB_INITS(PFX, 0) DDOS_SIB_INITS(PFX, 1) DDOS_SIB_INITS(PFX, 2) DDOS_SIB_INITS(PFX, 3)
extern const struct sched_counter ddos_counters[DDOS_NCOUNTERS];

struct ddos_params {
	bool xor_hash;      /* XOR folding, else MODULO (low bits) */
	uint32_t width;     /* m = k, bits (1..32) */
	uint32_t history;   /* l, entries */
	uint32_t threshold; /* t */
	uint32_t entries;   /* SIB-PT entries */
	uint64_t share;     /* time-sharing interval in cycles; 0 = one register set per warp */
};

/* Parameters from the configuration (cfg NULL: the declared defaults). */
struct ddos_params ddos_params_from(const struct ws_config *cfg);

struct ddos;

/* One detector per SM.  sibs/nsibs: the ground truth (sorted by fn, pc; may
 * be empty), kept by pointer.  ctr: DDOS_NCOUNTERS counters or NULL. */
struct ddos *ddos_create(const struct ddos_params *p, uint32_t nslots, const struct sched_sib *sibs, uint32_t nsibs,
                         uint64_t *ctr);
void ddos_destroy(struct ddos *d);
/* Forget everything (kernel start). */
void ddos_reset(struct ddos *d);
/* Per cycle: time-sharing hand-over (no-op without sharing). */
void ddos_on_cycle(struct ddos *d, const struct sched_view *v);
/* The next cycle at which ddos_on_cycle does more than repeat itself with an
 * unchanged view (the next time-sharing epoch); UINT64_MAX without time
 * sharing. */
uint64_t ddos_next_event(const struct ddos *d, uint64_t now);
/* An executed setp or branch: update the warp's histories and the SIB-PT.
 * Returns true if the event is a backward branch that the SIB-PT predicts
 * spin-inducing (after this event's update). */
bool ddos_on_exec(struct ddos *d, const struct sched_view *v, const struct sched_exec_event *e);
/* Kernel end: add the accuracy counters (TSDR/FSDR/DPR inputs). */
void ddos_finish(struct ddos *d);

/* Introspection for tests. */
bool ddos_warp_spinning(const struct ddos *d, uint32_t slot);
bool ddos_is_sib(const struct ddos *d, int32_t fn, int32_t pc);
uint32_t ddos_confidence(const struct ddos *d, int32_t fn, int32_t pc);
/* Hash of a value into `width` bits (exposed for tests). */
uint32_t ddos_hash(const struct ddos_params *p, uint64_t x);

/* Is (fn, pc) in the sorted annotation list? */
bool sched_sib_listed(const struct sched_sib *sibs, uint32_t n, int32_t fn, int32_t pc);

#endif
