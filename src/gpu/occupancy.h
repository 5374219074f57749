/*
 * occupancy.h -- how many CTAs of a launch one SM holds at once.
 *
 * Models the SM's CTA admission: one CTA's needs (warps, registers in whole
 * warps, static plus dynamic shared memory, the reserved shared memory of
 * cooperative groups) against the SM's limits (max_ctas_per_sm,
 * max_threads_per_sm, max_warps_per_sm, regs_per_sm, shmem_per_sm), as
 * GPGPU-Sim's max_cta() does.  The launch (runtime.c) checks and sizes a
 * grid with it; the timing model places CTAs up to that many per SM.
 */
#ifndef WARPSIM_GPU_OCCUPANCY_H
#define WARPSIM_GPU_OCCUPANCY_H

#include <stdint.h>

struct ptx_function;
struct ptx_module;
struct ws_config;

/* One CTA's resources. */
struct cta_resources {
	uint32_t warps;
	uint32_t regs_per_thread; /* regs_per_thread if set, else the kernel's (capped by .minnctapersm) */
	uint64_t dyn_shared_off;  /* where the dynamic shared memory starts */
	uint64_t shared_total;    /* static + dynamic (+ reserved) shared memory */
};

/* Resources of one CTA of kernel `k` of module `mod` with `threads` threads
 * and `dyn_shared` bytes of dynamic shared memory under `cfg`, in *r;
 * returns the CTAs that fit on one SM (0, with *why naming the limit, if
 * even one does not). */
uint32_t occupancy_ctas_per_sm(const struct ws_config *cfg, const struct ptx_module *mod, const struct ptx_function *k,
			       uint64_t threads, uint64_t dyn_shared, struct cta_resources *r, const char **why);

#endif
