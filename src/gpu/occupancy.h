/*
 * occupancy.h -- how many CTAs of a launch one SM holds at once.
 *
 * Models the SM's CTA admission: one CTA's needs (warps, registers in whole
 * warps, static plus dynamic shared memory, the reserved shared memory of
 * cooperative groups) against the SM's limits (max_ctas_per_sm,
 * max_threads_per_sm, max_warps_per_sm, regs_per_sm, shmem_per_sm), as
 * GPGPU-Sim's max_cta() does.  The launch (runtime.c) checks and sizes a
 * grid with it; the timing model places CTAs up to that many per SM.
 *
 * Registers per thread: regs_per_thread when set (source "config"); else,
 * with reg_counts = ptxas, the kernel's count as ptxas assigns it when one
 * is known (ptx/regs.h); else the PTX estimate (analysis.c), lowered so
 * that .minnctapersm CTAs fit as ptxas would.  Registers are allocated per
 * whole warp (threads rounded up to warps), registers per thread rounded up
 * to a multiple of reg_alloc_unit (GPGPU-Sim's max_cta(): 4; default 1;
 * docs/timing.md: Occupancy).
 */
#ifndef WARPSIM_GPU_OCCUPANCY_H
#define WARPSIM_GPU_OCCUPANCY_H

#include <stddef.h>
#include <stdint.h>

struct ptx_function;
struct ptx_module;
struct ws_config;

/* One CTA's resources. */
struct cta_resources {
	uint32_t warps;
	uint32_t regs_per_thread; /* registers per thread (occupancy_regs) */
	uint8_t regs_src;         /* enum ptx_regs_src: where they came from */
	uint64_t dyn_shared_off;  /* where the dynamic shared memory starts */
	uint64_t shared_total;    /* static + dynamic (+ reserved) shared memory */
};

/* Resources of one CTA of kernel `k` of module `mod` with `threads` threads
 * and `dyn_shared` bytes of dynamic shared memory under `cfg`, in *r;
 * returns the CTAs that fit on one SM (0, with *why naming the limit, if
 * even one does not). */
uint32_t occupancy_ctas_per_sm(const struct ws_config *cfg, const struct ptx_module *mod, const struct ptx_function *k,
			       uint64_t threads, uint64_t dyn_shared, struct cta_resources *r, const char **why);

/* Registers per thread of kernel `k` under `cfg` and their source (*src,
 * enum ptx_regs_src) for a CTA of `warps` warps (0: no .minnctapersm cap). */
uint32_t occupancy_regs(const struct ws_config *cfg, const struct ptx_function *k, uint32_t warps, uint8_t *src);

/* A launch's occupancy as reported (wsLaunchOccupancy): the CTAs per SM, the
 * limit and the registers it ran with; and, when it ran with the estimate
 * (reg_counts = estimate) and ptxas's count is known, that count and the CTAs
 * per SM it would give (alt_regs 0: none). */
struct occupancy {
	uint32_t ctas_per_sm;
	const char *limit;
	uint32_t regs_per_thread;
	uint8_t regs_src;
	uint8_t alt_src;
	uint32_t alt_regs, alt_ctas_per_sm;
	const char *alt_limit;
	char origin[160]; /* file or architecture of the ptxas count in use or in alt ("" if none) */
};
/* The occupancy of a launch of `k` (as occupancy_ctas_per_sm) into *o. */
void occupancy_report(const struct ws_config *cfg, const struct ptx_module *mod, const struct ptx_function *k,
                      uint64_t threads, uint64_t dyn_shared, struct occupancy *o);
/* *o in words into buf: "2 CTAs/SM, limited by regs_per_sm; regs/thread 60 (...)". */
void occupancy_format(const struct occupancy *o, char *buf, size_t bufsz);

#endif
