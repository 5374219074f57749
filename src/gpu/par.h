/*
 * par.h -- worker threads for the cycle loop (deterministic parallel SMs).
 *
 * Models no hardware.  A pool of threads that runs one function on every
 * thread (the caller's included) and returns when all are done: the GPU
 * loop uses it once per core cycle to tick that cycle's SMs, each of which
 * writes only its own state (core/sm.h); everything shared is then folded
 * in on the calling thread, in SM order, so results do not depend on the
 * number of threads or on which thread ticked which SM.
 *
 * Waiting threads spin briefly and then yield the CPU, so more threads than
 * cores (e.g. the determinism test's 3 threads on a 2-core machine) is slow
 * but correct.
 */
#ifndef WARPSIM_GPU_PAR_H
#define WARPSIM_GPU_PAR_H

#include <stdbool.h>

struct par;

/* The worker count `threads` asks for: 0 = every online core; at least 1. */
unsigned par_threads_resolve(long threads);
/* A pool of n threads in all (n - 1 started here; n >= 2).  NULL on failure. */
struct par *par_create(unsigned n);
void par_destroy(struct par *p);
unsigned par_size(const struct par *p);
/* Run fn(ctx, k) on every thread k = 0..n-1 (k = 0 is the caller) and wait
 * for all of them. */
void par_run(struct par *p, void (*fn)(void *ctx, unsigned k), void *ctx);

#endif
