/*
 * par.c -- worker threads for the cycle loop (see par.h).
 *
 * A round: the caller stores the job and bumps the generation counter; each
 * share k = 1..n-1 of the job is claimed by whoever gets to it first -- its
 * own worker, which sees the new generation, or the caller, which runs its
 * share 0 and then every share still unclaimed -- so the caller never waits
 * for a thread that the operating system has not run (a core kept busy by
 * another process, more threads than cores): it does that thread's work
 * itself, as a single thread would.  A claim is a compare-and-swap of the
 * share's claim word from the previous generation to this one, so a share
 * runs exactly once and a worker that wakes late for a finished round
 * claims nothing.  Which thread runs a share never matters: the job writes
 * only state that belongs to share k (gpu.c: SM i is share sm_thread(i)).
 *
 * Waiting (a worker for the next round, the caller for the claimed shares
 * to finish): spin with a pause instruction for 10 us (a worker sees the
 * next round at once, long before the caller is done with its own share;
 * the serial phase between rounds takes a few microseconds), then yield the
 * CPU (at once back when nothing else wants the core; it hands the core
 * over when a pool thread waits behind this one), and once the wait has
 * lasted the spin limit (50 us; WARPSIM_THREADS_SPIN_US=N sets it, 0 =
 * block at once), block on a futex until woken.  A core cycle's
 * parallel phase takes microseconds, so on idle cores a thread never blocks
 * inside a launch; when it shares its core it gives the core up instead of
 * spinning through the other thread's time slice.  The sleeper counts make
 * wake-ups free when nobody sleeps (only the last share's finisher wakes the
 * caller); every access is sequentially consistent, so a waiter either sees
 * the new value or is woken.
 *
 * When the workers rarely get a core (the caller took over 7/8 of their
 * shares in the last 64 published rounds), the next 4096 rounds run every
 * share in the caller without publishing them -- no claims, no wake-ups,
 * the workers asleep -- and a published round then probes again; on idle
 * cores the workers claim their shares and this never lasts.
 *
 * WARPSIM_THREADS_PROFILE=1 in the environment prints, when a pool ends,
 * how long its parallel phases took, how busy each thread was in them, how
 * long the calling thread spent between them (the serial phases), how many
 * waits blocked, how many shares the caller took over and how many rounds
 * it ran alone.
 * It measures host time only; nothing the simulator computes changes.
 */
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT */
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
#include "util/decimal.h"

struct par;

struct worker {
	struct par *p;
	unsigned k;
	pthread_t t;
	_Alignas(64) _Atomic uint32_t claim; /* the latest generation whose share k someone claimed */
	_Alignas(64) double busy;            /* WARPSIM_THREADS_PROFILE: seconds spent in jobs */
	double last;                         /* ... in the latest generation, `last_gen` */
	uint32_t last_gen;
};

struct par {
	unsigned n;
	struct worker *w;
	void (*fn)(void *ctx, unsigned k);
	void *ctx;
	double spin;           /* seconds a wait spins before it blocks */
	double pause;          /* ... of them with a pause instruction, then yielding */
	_Atomic uint32_t gen;  /* round number (futex word) */
	_Atomic uint32_t done; /* shares 1..n-1 finished in this round (futex word) */
	_Atomic uint32_t gen_sleepers, done_sleepers;
	_Atomic bool quit;
	_Atomic uint64_t blocked; /* waits that blocked on the futex */
	uint64_t taken;           /* shares the caller ran for a worker */
	/* Workers that rarely get a core: when the caller took over at least
	 * PAR_TAKEN_MAX of the last PAR_WINDOW published rounds' worker shares,
	 * the next PAR_ALONE rounds run every share in the caller without
	 * publishing them (the workers sleep), then a published round probes
	 * again. */
	uint32_t window_rounds, window_taken; /* published rounds and takeovers in the current window */
	uint32_t alone;                       /* rounds left to run in the caller alone */
	uint64_t alone_rounds;                /* rounds run that way (profile) */
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

/* Spin, yield, then block until *a != v (when `eq` is false) or *a == v
 * (when it is true).  Returns the value seen. */
static uint32_t wait_for(struct par *p, _Atomic uint32_t *a, uint32_t v, bool eq, _Atomic uint32_t *sleepers)
{
	double t0 = 0, t = 0;
	for (unsigned i = 0;; i++) {
		uint32_t x = atomic_load(a);
		if ((x == v) == eq)
			return x;
		if (p->spin > 0) {
			/* the clock is read every 32nd pause and at every yield */
			if (!(i & 31) || t - t0 >= p->pause) {
				t = now_s();
				if (!i)
					t0 = t;
			}
			if (t - t0 < p->pause) {
				cpu_relax();
				continue;
			}
			if (t - t0 < p->spin) {
				sched_yield();
				continue;
			}
		}
		atomic_fetch_add(sleepers, 1);
		x = atomic_load(a);
		if ((x != v) == eq) {
			atomic_fetch_add_explicit(&p->blocked, 1, memory_order_relaxed);
			futex_wait(a, x);
		}
		atomic_fetch_sub(sleepers, 1);
		t0 = t = now_s(); /* woken: spin again before blocking again */
		i = 1;
	}
}

/* Claim share k of generation g and run it; false if someone else has. */
static bool run_share(struct par *p, unsigned k, uint32_t g, unsigned self)
{
	uint32_t prev = g - 1;
	if (!atomic_compare_exchange_strong(&p->w[k].claim, &prev, g))
		return false;
	double t0 = p->profile ? now_s() : 0;
	p->fn(p->ctx, k);
	if (p->profile) {
		struct worker *me = &p->w[self];
		double t = now_s() - t0;
		me->last = me->last_gen == g ? me->last + t : t;
		me->last_gen = g;
		me->busy += t;
	}
	/* the caller waits for done == n - 1: only the last share wakes it */
	if (atomic_fetch_add(&p->done, 1) + 1 == p->n - 1 && atomic_load(&p->done_sleepers))
		futex_wake_all(&p->done);
	return true;
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct par *p = w->p;
	uint32_t seen = 0;
	for (;;) {
		seen = wait_for(p, &p->gen, seen, false, &p->gen_sleepers);
		if (atomic_load(&p->quit))
			return NULL;
		run_share(p, w->k, seen, w->k);
	}
}

/* The CPU quota of the cgroup at `dir` (a cgroup v2 directory when v2,
 * else v1's cpu controller directory) or of its nearest ancestor that has
 * one, in CPUs; 0 if none is set or readable. */
static double cgroup_quota(char *dir, bool v2)
{
	for (;;) {
		char path[4200];
		snprintf(path, sizeof path, "%s/%s", dir, v2 ? "cpu.max" : "cpu.cfs_quota_us");
		FILE *f = fopen(path, "r");
		double q = 0, per = 0;
		if (f) {
			if (v2) {
				char qs[32];
				if (fscanf(f, "%31s %lf", qs, &per) == 2 && strcmp(qs, "max") != 0)
					q = atof(qs);
			} else if (fscanf(f, "%lf", &q) == 1 && q > 0) {
				snprintf(path, sizeof path, "%s/cpu.cfs_period_us", dir);
				FILE *g = fopen(path, "r");
				if (!g || fscanf(g, "%lf", &per) != 1)
					per = 0;
				if (g)
					fclose(g);
			}
			fclose(f);
		}
		if (q > 0 && per > 0)
			return q / per;
		char *slash = strrchr(dir, '/');
		if (!slash || slash < dir + strlen("/sys/fs/cgroup"))
			return 0;
		*slash = '\0';
	}
}

unsigned par_cores_available(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	cpu_set_t set;
	if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
		n = CPU_COUNT(&set);
	if (n < 1)
		n = 1;
	/* the cgroup's quota: /proc/self/cgroup names this process's cgroup
	 * ("0::/path" in v2, "N:cpu,cpuacct:/path" for v1's cpu controller) */
	FILE *f = fopen("/proc/self/cgroup", "r");
	char line[4096];
	double quota = 0;
	while (f && !quota && fgets(line, sizeof line, f)) {
		line[strcspn(line, "\n")] = '\0';
		char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
		if (!c2)
			continue;
		*c2 = '\0';
		char *ctl = c1 + 1, *rel = c2 + 1;
		char dir[4200];
		if (!*ctl) {
			snprintf(dir, sizeof dir, "/sys/fs/cgroup%s", rel);
			quota = cgroup_quota(dir, true);
			continue;
		}
		for (char *save = NULL, *t = strtok_r(ctl, ",", &save); t; t = strtok_r(NULL, ",", &save))
			if (!strcmp(t, "cpu")) {
				snprintf(dir, sizeof dir, "/sys/fs/cgroup/cpu%s", rel);
				quota = cgroup_quota(dir, false);
				if (!quota) {
					snprintf(dir, sizeof dir, "/sys/fs/cgroup/cpu,cpuacct%s", rel);
					quota = cgroup_quota(dir, false);
				}
				break;
			}
	}
	if (f)
		fclose(f);
	if (quota > 0 && quota < (double)n)
		n = (long)quota + (quota > (double)(long)quota); /* a partial CPU counts */
	return (unsigned)(n < 1 ? 1 : n);
}

unsigned par_threads_resolve(long threads)
{
	return threads > 0 ? (unsigned)threads : par_cores_available();
}

bool par_env_read(struct par_env *e, char *err, size_t errlen)
{
	*e = (struct par_env){.spin_s = 50e-6, .profile = false};
	const char *spin = getenv("WARPSIM_THREADS_SPIN_US");
	if (spin && *spin) {
		unsigned long us;
		if (!util_decimal(spin, 1000000, &us) || us > 1000000) {
			if (err)
				snprintf(err, errlen,
					 "environment variable WARPSIM_THREADS_SPIN_US='%s' is not a whole number of "
					 "microseconds from 0 to 1000000 (unset: 50)",
					 spin);
			return false;
		}
		e->spin_s = (double)us * 1e-6;
	}
	const char *prof = getenv("WARPSIM_THREADS_PROFILE");
	if (prof && *prof) {
		if (strcmp(prof, "0") != 0 && strcmp(prof, "1") != 0) {
			if (err)
				snprintf(err, errlen,
					 "environment variable WARPSIM_THREADS_PROFILE='%s' is neither 0 nor 1", prof);
			return false;
		}
		e->profile = prof[0] == '1';
	}
	return true;
}

struct par *par_create(unsigned n)
{
	if (n < 2)
		return NULL;
	struct par *p = calloc(1, sizeof *p);
	if (!p)
		return NULL;
	p->n = n;
	struct par_env env;
	if (!par_env_read(&env, NULL, 0)) {
		free(p);
		return NULL;
	}
	p->spin = env.spin_s;
	p->pause = p->spin < 10e-6 ? p->spin : 10e-6;
	p->profile = env.profile;
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
			"(the difference, %.3f s, is imbalance); %llu waits blocked, %llu shares the calling thread ran "
			"for a worker not yet started, %llu phases it ran alone because the workers were not getting a "
			"core\n",
			p->n, (unsigned long long)p->rounds, p->round_wall, 1e6 * p->round_wall / (double)p->rounds,
			p->serial_wall, p->slowest, p->round_wall - p->slowest, busy / p->n, p->slowest - busy / p->n,
			(unsigned long long)atomic_load(&p->blocked), (unsigned long long)p->taken,
			(unsigned long long)p->alone_rounds);
	}
	free(p->w);
	free(p);
}

unsigned par_size(const struct par *p) { return p ? p->n : 1; }

void par_counts(const struct par *p, uint64_t *blocked, uint64_t *taken)
{
	*blocked = atomic_load(&((struct par *)p)->blocked);
	*taken = p->taken;
}

enum { PAR_WINDOW = 64, PAR_ALONE = 4096 };

void par_run(struct par *p, void (*fn)(void *ctx, unsigned k), void *ctx)
{
	double t0 = 0;
	if (p->profile) {
		t0 = now_s();
		if (p->rounds)
			p->serial_wall += t0 - p->last_end;
	}
	if (p->alone) { /* the workers did not get a core lately: every share here, as one thread would */
		p->alone--;
		p->alone_rounds++;
		for (unsigned k = 0; k < p->n; k++)
			fn(ctx, k);
		if (p->profile) {
			p->last_end = now_s();
			p->round_wall += p->last_end - t0;
			p->slowest += p->last_end - t0;
			p->w[0].busy += p->last_end - t0;
			p->rounds++;
		}
		return;
	}
	uint64_t taken0 = p->taken;
	p->fn = fn;
	p->ctx = ctx;
	atomic_store(&p->done, 0);
	uint32_t g = atomic_fetch_add(&p->gen, 1) + 1;
	if (atomic_load(&p->gen_sleepers))
		futex_wake_all(&p->gen);
	fn(ctx, 0);
	if (p->profile) {
		p->w[0].last = now_s() - t0;
		p->w[0].last_gen = g;
		p->w[0].busy += p->w[0].last;
	}
	/* the shares no worker has started yet: run them here */
	for (unsigned k = 1; k < p->n && atomic_load(&p->done) != p->n - 1; k++)
		if (atomic_load(&p->w[k].claim) != g && run_share(p, k, g, 0))
			p->taken++;
	wait_for(p, &p->done, p->n - 1, true, &p->done_sleepers);
	p->window_taken += (uint32_t)(p->taken - taken0);
	if (++p->window_rounds == PAR_WINDOW) {
		/* 7/8 of the workers' shares taken over: they are not getting a core */
		if (p->window_taken * 8 >= PAR_WINDOW * (p->n - 1) * 7)
			p->alone = PAR_ALONE;
		p->window_rounds = p->window_taken = 0;
	}
	if (p->profile) {
		double m = 0;
		for (unsigned k = 0; k < p->n; k++)
			if (p->w[k].last_gen == g)
				m = p->w[k].last > m ? p->w[k].last : m;
		p->slowest += m;
		p->last_end = now_s();
		p->round_wall += p->last_end - t0;
		p->rounds++;
	}
}
