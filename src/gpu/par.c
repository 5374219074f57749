/*
 * par.c -- worker threads for the cycle loop (see par.h).
 *
 * One generation counter starts a round: the caller stores the job, then
 * bumps the generation; workers that see the new generation run the job
 * and count themselves done.  A waiting thread spins with a pause
 * instruction for a few microseconds, then yields the CPU in a loop (which
 * costs little when nobody else wants the core, and hands it over when a
 * pool has more threads than cores), and after some 20000 yields -- the
 * caller is between launches or busy elsewhere -- sleeps on a futex.
 * The sleeper counts make wake-ups free when nobody sleeps; every access is
 * sequentially consistent, so a waiter either sees the new value or is
 * woken.
 *
 * WARPSIM_THREADS_PROFILE=1 in the environment prints, when a pool ends,
 * how long its parallel phases took, how busy each thread was in them and
 * how long the calling thread spent between them (the serial phases).
 * It measures host time only; nothing the simulator computes changes.
 */
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "gpu/par.h"

struct par;

struct worker {
	struct par *p;
	unsigned k;
	pthread_t t;
	_Alignas(64) double busy; /* WARPSIM_THREADS_PROFILE: seconds spent in jobs */
	double last;              /* ... in the latest one */
};

struct par {
	unsigned n;
	struct worker *w;
	void (*fn)(void *ctx, unsigned k);
	void *ctx;
	_Atomic uint32_t gen;      /* round number (futex word) */
	_Atomic uint32_t done;     /* workers finished with this round (futex word) */
	_Atomic uint32_t gen_sleepers, done_sleepers;
	_Atomic bool quit;
	/* WARPSIM_THREADS_PROFILE=1: where the time of the parallel phases goes */
	bool profile;
	uint64_t rounds;
	double round_wall, serial_wall, last_end;
	double slowest; /* sum over rounds of the slowest thread's time in the job */
};

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void futex_wait(_Atomic uint32_t *a, uint32_t v)
{
	syscall(SYS_futex, (uint32_t *)a, FUTEX_WAIT_PRIVATE, v, NULL, NULL, 0);
}
static void futex_wake_all(_Atomic uint32_t *a)
{
	syscall(SYS_futex, (uint32_t *)a, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
}

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield");
#endif
}

/* Spin, yield, then sleep until *a != v (when `eq` is false) or *a == v
 * (when it is true).  Returns the value seen. */
static uint32_t wait_for(_Atomic uint32_t *a, uint32_t v, bool eq, _Atomic uint32_t *sleepers)
{
	for (unsigned i = 0;; i++) {
		uint32_t x = atomic_load(a);
		if ((x == v) == eq)
			return x;
		if (i < 128) {
			cpu_relax();
		} else if (i < 128 + 20000) {
			/* a yield returns at once when nothing else wants this core, so
			 * a worker stays awake between cycles (a futex wake-up costs more
			 * than a cycle of the model); with more threads than cores it
			 * lets the thread that is late run */
			sched_yield();
		} else {
			atomic_fetch_add(sleepers, 1);
			x = atomic_load(a);
			if ((x != v) == eq)
				futex_wait(a, x);
			atomic_fetch_sub(sleepers, 1);
		}
	}
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct par *p = w->p;
	uint32_t seen = 0;
	for (;;) {
		seen = wait_for(&p->gen, seen, false, &p->gen_sleepers);
		if (atomic_load(&p->quit))
			return NULL;
		double t0 = p->profile ? now_s() : 0;
		p->fn(p->ctx, w->k);
		if (p->profile) {
			w->last = now_s() - t0;
			w->busy += w->last;
		}
		atomic_fetch_add(&p->done, 1);
		if (atomic_load(&p->done_sleepers))
			futex_wake_all(&p->done);
	}
}

unsigned par_threads_resolve(long threads)
{
	if (threads > 0)
		return (unsigned)threads;
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (unsigned)n : 1;
}

struct par *par_create(unsigned n)
{
	if (n < 2)
		return NULL;
	struct par *p = calloc(1, sizeof *p);
	if (!p)
		return NULL;
	p->n = n;
	const char *prof = getenv("WARPSIM_THREADS_PROFILE");
	p->profile = prof && !strcmp(prof, "1");
	p->w = aligned_alloc(64, n * sizeof *p->w);
	if (p->w)
		memset(p->w, 0, n * sizeof *p->w);
	if (!p->w) {
		free(p);
		return NULL;
	}
	for (unsigned k = 1; k < n; k++) {
		p->w[k].p = p;
		p->w[k].k = k;
		if (pthread_create(&p->w[k].t, NULL, worker_main, &p->w[k]) != 0) {
			p->n = k; /* join the ones started */
			par_destroy(p);
			return NULL;
		}
	}
	return p;
}

void par_destroy(struct par *p)
{
	if (!p)
		return;
	atomic_store(&p->quit, true);
	atomic_fetch_add(&p->gen, 1);
	futex_wake_all(&p->gen);
	for (unsigned k = 1; k < p->n; k++)
		pthread_join(p->w[k].t, NULL);
	if (p->profile && p->rounds) {
		/* busy: each thread's time in jobs; the rest of n x round_wall is
		 * waiting for the slowest thread plus the start/finish handshake */
		double busy = 0;
		for (unsigned k = 0; k < p->n; k++)
			busy += p->w[k].busy;
		fprintf(stderr,
			"warpsim threads profile: %u threads, %llu parallel phases taking %.3f s (%.2f us each) and "
			"%.3f s between them (serial phases); in the parallel phases the slowest thread worked %.3f s "
			"(the rest, %.3f s, is starting and finishing the phases) and the average thread %.3f s "
			"(the difference, %.3f s, is imbalance)\n",
			p->n, (unsigned long long)p->rounds, p->round_wall, 1e6 * p->round_wall / (double)p->rounds,
			p->serial_wall, p->slowest, p->round_wall - p->slowest, busy / p->n, p->slowest - busy / p->n);
	}
	free(p->w);
	free(p);
}

unsigned par_size(const struct par *p) { return p ? p->n : 1; }

void par_run(struct par *p, void (*fn)(void *ctx, unsigned k), void *ctx)
{
	double t0 = 0;
	if (p->profile) {
		t0 = now_s();
		if (p->rounds)
			p->serial_wall += t0 - p->last_end;
	}
	p->fn = fn;
	p->ctx = ctx;
	atomic_store(&p->done, 0);
	atomic_fetch_add(&p->gen, 1);
	if (atomic_load(&p->gen_sleepers))
		futex_wake_all(&p->gen);
	fn(ctx, 0);
	if (p->profile) {
		p->w[0].last = now_s() - t0;
		p->w[0].busy += p->w[0].last;
	}
	wait_for(&p->done, p->n - 1, true, &p->done_sleepers);
	if (p->profile) {
		double m = 0;
		for (unsigned k = 0; k < p->n; k++)
			m = p->w[k].last > m ? p->w[k].last : m;
		p->slowest += m;
		p->last_end = now_s();
		p->round_wall += p->last_end - t0;
		p->rounds++;
	}
}
