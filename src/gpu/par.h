/*
 * par.h -- worker threads for the cycle loop (deterministic parallel SMs).
 *
 * Models no hardware.  A pool of threads that runs one function for every
 * share k = 0..n-1 (the caller's included) and returns when all are done: the GPU
 * loop uses it once per core cycle to tick that cycle's SMs, each of which
 * writes only its own state (core/sm.h); everything shared is then folded
 * in on the calling thread, in SM order, so results do not depend on the
 * number of threads or on which thread ticked which SM.
 *
 * A share whose thread has not started yet is run by the caller, and
 * waiting threads spin only briefly before they block, so more threads than
 * free cores (a core kept busy by another process, the determinism test's 3
 * threads on a 2-core machine) cost little more than one thread.
 */
#ifndef WARPSIM_GPU_PAR_H
#define WARPSIM_GPU_PAR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct par;

/* Cores this process may run on: its CPU affinity, at most its cgroup's CPU
 * quota (rounded up); at least 1. */
unsigned par_cores_available(void);
/* The worker count `threads` asks for: 0 = par_cores_available(); at least 1. */
unsigned par_threads_resolve(long threads);
/* The thread pool's environment: $WARPSIM_THREADS_SPIN_US (how long a wait
 * spins before it blocks, 0 to 1000000 us; unset or empty: 50) and
 * $WARPSIM_THREADS_PROFILE (1: print the phase profile; 0, unset or empty:
 * not).  Any other value is an error: false, with a message naming the
 * variable in err.  par_create reads the same values. */
struct par_env {
	double spin_s; /* seconds a wait spins before it blocks */
	bool profile;
};
bool par_env_read(struct par_env *e, char *err, size_t errlen);
/* A pool of n threads in all (n - 1 started here; n >= 2).  NULL on failure
 * (also when par_env_read fails: check it first to report why). */
struct par *par_create(unsigned n);
void par_destroy(struct par *p);
unsigned par_size(const struct par *p);
/* Run fn(ctx, k) for every share k = 0..n-1 and wait for all of them: share
 * 0 on the caller, share k on worker k or, if that worker has not started
 * it by the time the caller is done with its own, on the caller.  fn must
 * write only what belongs to share k. */
void par_run(struct par *p, void (*fn)(void *ctx, unsigned k), void *ctx);
/* So far: waits that blocked on the futex, and shares the caller ran for a
 * worker (WARPSIM_THREADS_PROFILE prints them; the tests check them). */
void par_counts(const struct par *p, uint64_t *blocked, uint64_t *taken);

#endif
