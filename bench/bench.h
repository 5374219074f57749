/*
 * bench.h -- interface between the bundled benchmarks (bench/NAME/host.c)
 * and whoever runs them (CLI, tests, sweeps).
 *
 * Each benchmark directory holds kernel.cu (our CUDA source), kernel.ptx
 * (committed nvcc output, embedded into the binary at build time as
 * ws_bench_ptx_NAME) and host.c, which defines
 *     const struct ws_bench_info bench_NAME = { ... };
 * The build collects every bench/NAME/host.c into ws_bench_table.
 *
 * run() makes its inputs from a fixed seed (bench_rng), loads nothing itself
 * (the module is loaded by the caller from info->ptx), launches the
 * kernel(s), copies results back and checks them against a CPU reference.
 * On mismatch it returns WS_ERROR_VERIFY_FAILED with a message naming the
 * first wrong element, its expected and actual value.
 */
#ifndef WARPSIM_BENCH_H
#define WARPSIM_BENCH_H

#include <stdint.h>
#include "warpsim.h"

/* Input sizes.  WS_SIZE_PAPER_KAWS ("paper-kaws") is the KAWS paper's input (its Table 2: kernels, CTAs per
 * kernel) for a benchmark that other papers also run at `paper` with an input of their own (hotspot,
 * pathfinder, streamcluster, 3mm); a benchmark without one (sizes[WS_SIZE_PAPER_KAWS] == NULL) runs its
 * `paper` input there (ws_bench_size_resolve), so the KAWS specs name one size for the whole suite. */
enum ws_bench_size { WS_SIZE_TINY, WS_SIZE_SMALL, WS_SIZE_PAPER, WS_SIZE_PAPER_KAWS, WS_SIZE_COUNT };

struct ws_bench_out {
	char msg[4096];       /* verification detail or error message (a deadlock report lists up to 8 stuck warps) */
	unsigned launches;    /* kernel launches performed */
};

/* Ground truth for spin detection (BOWS/DDOS paper): one spin-inducing
 * backward branch (SIB) of a benchmark's committed kernel.ptx.  A SIB is the
 * backward branch that closes an iteration of a busy-wait loop -- a lock
 * acquire retry or a wait-for-signal poll -- i.e. an iteration that can
 * make no progress until another thread acts.  Every other backward branch
 * of the PTX (counted loops, tree descents, a loop's progress edges) is
 * not spin-inducing; DDOS's true and false spin detection rates (TSDR,
 * FSDR) are measured against this table.  Located by PTX line because the
 * branch instruction is what DDOS sees; tests/test_sib.c checks that every
 * note names a backward `bra` of its function, so the table cannot rot
 * silently when `make ptx` regenerates the PTX (update the lines then). */
struct ws_sib_note {
	const char *func; /* PTX function (kernel) the branch is in */
	unsigned line;    /* 1-based line of the `bra` instruction in kernel.ptx */
	const char *loop; /* which loop it closes, for people */
};

struct ws_bench_info {
	const char *name;          /* directory name, e.g. "vecadd" */
	const char *description;   /* one line: what it computes */
	const char *sync;          /* synchronization pattern */
	const char *paper;         /* which paper(s) use it, e.g. "BAWS" or "-" */
	unsigned ctas_per_sm;      /* paper geometry on GTX480 (0 = not applicable) */
	unsigned warps_per_cta;
	const char *sizes[WS_SIZE_COUNT]; /* input size of tiny, small, paper, paper-kaws in words (paper-kaws:
	                                     NULL = its paper input) */
	unsigned min_warp_size;    /* smallest warp_size its kernels are correct at (warp-synchronous
	                              code written for 32-thread warps); 0 = any */
	const char *ptx;           /* embedded kernel.ptx text */
	const struct ws_sib_note *sibs; /* its spin-inducing branches, terminated by {NULL}; NULL = none */
	ws_result (*run)(ws_sim *sim, ws_module *mod, enum ws_bench_size size, struct ws_bench_out *out);
};

/* NULL-terminated table of every bundled benchmark, sorted by name. */
extern const struct ws_bench_info *const ws_bench_table[];
const struct ws_bench_info *ws_bench_find(const char *name);
/* Every benchmark name, space-separated, into buf (for error messages). */
const char *ws_bench_names(char *buf, size_t sz);
const char *ws_bench_size_name(enum ws_bench_size s);
int ws_bench_size_parse(const char *s); /* -1 if unknown */
/* The size b's run() gets for a requested size: WS_SIZE_PAPER_KAWS becomes WS_SIZE_PAPER where b has no
 * KAWS input of its own; every other size is itself. */
enum ws_bench_size ws_bench_size_resolve(const struct ws_bench_info *b, enum ws_bench_size s);

/* The papers' suites, by name (NULL-terminated).  A name may not be built
 * yet (ws_bench_find returns NULL); users skip those with a note.
 *   barrier:  the BAWS paper's 13 barrier-intensive benchmarks (Table 2)
 *   syncfree: the synchronization-free / lightly synchronized set (BAWS 6.5, KAWS, DWR)
 *   bows:     the BOWS paper's 8 busy-wait synchronization kernels (section V) */
extern const char *const ws_bench_suite_barrier[];
extern const char *const ws_bench_suite_syncfree[];
extern const char *const ws_bench_suite_bows[];
extern const char *const ws_bench_suite_kaws[]; /* KAWS paper's 9 (section 5) */
extern const char *const ws_bench_suite_dwr[];  /* DWR paper's 14 (Table 1) */
/* Every suite name, NULL-terminated ("barrier", "syncfree", "bows"). */
extern const char *const ws_bench_suite_names[];
/* The suite named `name`, or NULL. */
const char *const *ws_bench_suite(const char *name);

/* A spin-inducing branch as the simulator names instructions: the index of
 * its function in the loaded module and its pc (instruction index), the
 * same (fn, pc) a policy sees in struct sched_exec_event. */
struct ws_sib_pc {
	int32_t fn, pc;
	unsigned line; /* its PTX line */
};
/* The annotated SIBs of benchmark b, located in mod (b->ptx loaded with
 * wsModuleLoadData): writes up to max entries to pcs and returns how many
 * b has (0 if none).  Returns -1 with a message in err ("NAME/kernel.ptx:LINE:
 * ...") if a note does not name a backward bra of its function -- the
 * annotation table and the PTX disagree.  For policies that use the ground
 * truth (DDOS's annotated mode) and for the TSDR/FSDR statistics. */
int ws_bench_sib_pcs(const struct ws_bench_info *b, const ws_module *mod, struct ws_sib_pc *pcs, int max, char *err,
		     size_t errsz);
/* Hand b's spin-inducing branches to the simulator (wsFunctionSetSpinBranches
 * on each noted function of mod), so `bows_sib=annotated`, DDOS's TSDR/FSDR
 * and the lock statistics see them; WS_SUCCESS, or the error with a message
 * in out.  ws_bench_run calls it first.  bench_sib.c defines it for the
 * simulator; a CUDA host program (tools/cuda-hosts/) has no simulator and
 * defines it as doing nothing. */
ws_result ws_bench_annotate_sibs(const struct ws_bench_info *b, ws_module *mod, struct ws_bench_out *out);
/* Run benchmark b (its PTX already loaded as mod): ws_bench_annotate_sibs, then b->run, after checking
 * that the simulator's warp_size is at least b->min_warp_size -- otherwise
 * WS_ERROR_INVALID_VALUE with a clear message in out, since warp-synchronous
 * kernels would silently compute garbage.  Every caller goes through this. */
ws_result ws_bench_run(const struct ws_bench_info *b, ws_sim *sim, ws_module *mod, enum ws_bench_size size,
		       struct ws_bench_out *out);

/* ---- helpers for host.c ---- */
/* Deterministic generator (xorshift64*), seeded per benchmark. */
struct bench_rng { uint64_t s; };
static inline void bench_rng_seed(struct bench_rng *r, uint64_t seed) { r->s = seed * 0x9E3779B97F4A7C15ull + 1; }
static inline uint64_t bench_rng_next(struct bench_rng *r)
{
	r->s ^= r->s >> 12;
	r->s ^= r->s << 25;
	r->s ^= r->s >> 27;
	return r->s * 0x2545F4914F6CDD1Dull;
}
static inline uint32_t bench_rng_u32(struct bench_rng *r, uint32_t bound) { return (uint32_t)(bench_rng_next(r) % bound); }
/* uniform float in [lo, hi) */
static inline float bench_rng_float(struct bench_rng *r, float lo, float hi)
{
	return lo + (hi - lo) * (float)((bench_rng_next(r) >> 40) * (1.0 / 16777216.0));
}

/* Record a failed call: fills out->msg with "what: <error> (<detail>)" and returns r. */
ws_result bench_fail(ws_sim *sim, struct ws_bench_out *out, ws_result r, const char *what);
/* Record a verification failure (printf-style message) and return WS_ERROR_VERIFY_FAILED. */
ws_result bench_mismatch(struct ws_bench_out *out, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Compare floats with relative+absolute tolerance. */
int bench_close(double expect, double got, double rel, double abs);

/* Convenience: CHECK a ws call inside run(); jumps to label `fail` on error. */
#define BENCH_CALL(call)                                                   \
	do {                                                               \
		ws_result r_ = (call);                                     \
		if (r_ != WS_SUCCESS) {                                    \
			rc = bench_fail(sim, out, r_, #call);              \
			goto done;                                         \
		}                                                          \
	} while (0)

#endif
