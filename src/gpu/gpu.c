/*
 * gpu.c -- the clocked GPU (see gpu.h): dispatch CTAs, tick the memory
 * system and every SM with work each core cycle (an SM with nothing in it
 * and no reply on its way is skipped until a CTA or a reply arrives, which
 * is exact: its cycle would change nothing), deliver memory replies, and
 * watch for deadlock, livelock and cycle limits.
 *
 * A core cycle has three phases: (1) CTA dispatch and the memory system,
 * (2) the SMs with work, each reading shared state and writing only its
 * own (core/sm.h) -- on `threads` worker threads when asked (par.h) --
 * and (3) folding in, in SM order: the SMs' buffered global stores and
 * atomics (func/wlog.h), errors, trace records, printf output and
 * watchdog progress.  Phase 3 is what makes every statistic independent of
 * the number of threads.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/params.h"
#include "core/core_params.h"
#include "core/lockstat.h"
#include "core/sm.h"
#include "func/wlog.h"
#include "gpu/gpu.h"
#include "gpu/par.h"
#include "mem/memsys.h"
#include "stats/counters.h"

static void dispatch(struct gpu *g)
{
	if (g->next_cta >= g->nctas)
		return;
	uint32_t start = g->dispatch_rr;
	for (uint32_t k = 0; k < g->nsms && g->next_cta < g->nctas; k++) {
		uint32_t i = (start + k) % g->nsms;
		struct sm *s = g->sms[i];
		if (!sm_can_accept_cta(s, g->L->warps_per_cta))
			continue;
		struct func_cta *c = func_cta_create(g->L, g->next_cta, i, i);
		sm_wake(s, g->cycle); /* a sleeping SM's skipped cycles end before its new CTA */
		if (!c || !sm_launch_cta(s, c, g->cycle)) {
			func_cta_destroy(c);
			g->oom = true;
			return;
		}
		if (g->active)
			g->active[i >> 6] |= 1ull << (i & 63);
		g->stats->v[STAT_ctas]++;
		g->stats->v[STAT_warps] += c->nwarps;
		g->next_cta++;
		g->last_retire = g->cycle;
		g->last_sm = i;
		if (g->rr_last) /* GPGPU-Sim: the next cycle starts after the last SM given a CTA */
			g->dispatch_rr = (i + 1) % g->nsms;
		if (g->next_cta == g->nctas && !g->last_cta_issued) {
			g->last_cta_issued = true;
			for (uint32_t j = 0; j < g->nsms; j++) {
				struct sm *t = g->sms[j];
				sm_wake(t, g->cycle); /* the policy changes: no SM sleeps across it */
				t->issue_same = false; /* nor repeats an issue stage from before it */
				t->view.last_cta_issued = true;
				t->view.cycle = g->cycle;
				if (t->pol->on_kernel_event)
					t->pol->on_kernel_event(t->pol_st, &t->view, SCHED_KERNEL_LAST_CTA_ISSUED);
			}
		}
	}
	if (!g->rr_last)
		g->dispatch_rr = (g->dispatch_rr + 1) % g->nsms;
}

/* warps at one instruction, for the stuck-warp report's census */
struct pc_group {
	int32_t fn, pc;
	uint32_t warps, sms, last_sm; /* last_sm: 1 + the last SM counted in sms */
};
#define REPORT_GROUPS 32 /* instructions the census tells apart */

/* The unfinished warps grouped by the instruction they are at, the largest
 * groups first, when there are more than the report lists one by one: where
 * a lock holder or a straggler stands apart from a thousand spinners.
 * at[0 .. *nat) gets the groups' (fn, pc), largest first (none with fewer
 * than two groups). */
static size_t report_census(struct gpu *g, size_t len, int32_t (*at)[2], unsigned *nat)
{
	*nat = 0;
	enum { NGROUPS = REPORT_GROUPS, SHOWN = 6, LISTED = SM_DESCRIBE_WARPS };
	struct pc_group grp[NGROUPS];
	unsigned ng = 0, total = 0, other = 0;
	for (uint32_t i = 0; i < g->nsms; i++) {
		const struct sm *s = g->sms[i];
		for (uint32_t j = 0; j < s->nslots; j++) {
			const struct sm_warp *w = &s->w[j];
			if (!w->valid || w->finished || !w->fw)
				continue;
			int32_t fn;
			int32_t pc = func_warp_where(w->fw, &fn);
			total++;
			unsigned k = 0;
			while (k < ng && (grp[k].fn != fn || grp[k].pc != pc))
				k++;
			if (k == ng) {
				if (ng == NGROUPS) {
					other++;
					continue;
				}
				grp[ng].fn = fn;
				grp[ng].pc = pc;
				grp[ng].warps = grp[ng].sms = grp[ng].last_sm = 0;
				ng++;
			}
			grp[k].warps++;
			if (grp[k].last_sm != i + 1) {
				grp[k].sms++;
				grp[k].last_sm = i + 1;
			}
		}
	}
	if (total <= LISTED)
		return len;
	for (unsigned a = 1; a < ng; a++) /* by warps, descending; first seen first among equals */
		for (unsigned b = a; b > 0 && grp[b].warps > grp[b - 1].warps; b--) {
			struct pc_group t = grp[b];
			grp[b] = grp[b - 1];
			grp[b - 1] = t;
		}
	for (unsigned k = 0; ng > 1 && k < ng; k++) { /* the groups, largest first, for the listing */
		at[k][0] = grp[k].fn;
		at[k][1] = grp[k].pc;
		*nat = ng;
	}
	char *buf = g->L->errmsg;
	size_t sz = sizeof g->L->errmsg;
	if (len + 80 < sz)
		len += (size_t)snprintf(buf + len, sz - len, "\n  the %u unfinished warps by instruction:", total);
	unsigned shown = 0;
	for (unsigned k = 0; k < ng && shown < SHOWN && len + 300 < sz; k++, shown++) {
		char where[256];
		func_insn_describe(g->L, grp[k].fn, grp[k].pc, where, sizeof where);
		len += (size_t)snprintf(buf + len, sz - len, "\n    %u on %u SM%s at %s", grp[k].warps, grp[k].sms,
					grp[k].sms == 1 ? "" : "s", where);
	}
	unsigned rest = other;
	for (unsigned k = shown; k < ng; k++)
		rest += grp[k].warps;
	if (rest && len + 80 < sz)
		len += (size_t)snprintf(buf + len, sz - len, "\n    %u at other instructions", rest);
	if (len + 60 < sz)
		len += (size_t)snprintf(buf + len, sz - len, "\n  the first of them%s:",
					ng > 1 ? ", those of the smallest groups first" : "");
	return len;
}

static void report(struct gpu *g, const char *head)
{
	struct func_launch *L = g->L;
	size_t len = (size_t)snprintf(L->errmsg, sizeof L->errmsg, "%s", head);
	/* the warps of the smallest groups first: the few that hold the rest up stand there */
	int32_t at[REPORT_GROUPS][2];
	unsigned nat = 0;
	len = report_census(g, len < sizeof L->errmsg ? len : sizeof L->errmsg, at, &nat);
	struct sm_describe_filter f = {.which = SM_DESCRIBE_ALL, .at = at, .nat = nat};
	f.ldst_done = nat ? calloc((g->nsms + 63) / 64, sizeof *f.ldst_done) : NULL;
	unsigned shown = 0, total = 0;
	if (f.ldst_done) {
		/* finished warps holding their CTA, and warps in no group, then each group, smallest first */
		f.which = SM_DESCRIBE_NONE_OF;
		for (uint32_t i = 0; i < g->nsms; i++)
			sm_describe(g->sms[i], &f, L->errmsg, sizeof L->errmsg, &len, &shown, &total);
		f.which = SM_DESCRIBE_AT;
		for (unsigned k = nat; k-- > 0;) {
			f.at = &at[k];
			for (uint32_t i = 0; i < g->nsms; i++)
				sm_describe(g->sms[i], &f, L->errmsg, sizeof L->errmsg, &len, &shown, &total);
		}
	} else {
		for (uint32_t i = 0; i < g->nsms; i++)
			sm_describe(g->sms[i], NULL, L->errmsg, sizeof L->errmsg, &len, &shown, &total);
	}
	free(f.ldst_done);
	if (total > shown && len < sizeof L->errmsg)
		snprintf(L->errmsg + len, sizeof L->errmsg - len, "\n  ... and %u more warps", total - shown);
	if (total || len >= sizeof L->errmsg)
		return;
	/* no warp left: what holds the launch is below the SMs */
	len += (size_t)snprintf(L->errmsg + len, sizeof L->errmsg - len,
				"\n  none: %u of %u CTAs completed, %u dispatched; the memory system has not drained%s",
				g->ctas_done, g->nctas, g->next_cta, memsys_idle(g->mem) ? " (it has: no request in flight)" : "");
	for (uint32_t i = 0, n = 0; i < g->nsms && len < sizeof L->errmsg; i++)
		if (memsys_reply_pending(g->mem, i))
			len += (size_t)snprintf(L->errmsg + len, sizeof L->errmsg - len, "%s%u", n++ ? ", " : "; replies pending for SM ", i);
}

/* Phase 2 of a cycle: the SMs in `list`, shared among nthreads threads. */
struct tick_job {
	struct gpu *g;
	const uint32_t *list;
	uint32_t n, nthreads;
};

/* The share (gpu/par.h) that creates and ticks SM i: (i + 1) mod threads,
 * so that with an uneven split the calling thread's share 0 (the calling
 * thread also runs the serial phases) is the smaller one. */
static inline unsigned sm_thread(uint32_t i, unsigned nthreads) { return (i + 1) % nthreads; }

static void tick_sm(struct gpu *g, struct sm *s)
{
	struct mem_reply r;
	bool popped = false;
	sm_wake(s, g->cycle); /* asleep until now, or woken early by a reply */
	while (memsys_pop_reply(g->mem, s->id, &r)) {
		sm_mem_reply(s, &r, g->cycle);
		popped = true;
	}
	s->failed = !sm_cycle(s, g->cycle);
	s->progress |= popped;
	/* nothing can change before its next event: sleep until then (sm.h) */
	if (s->sleep_ok && !s->failed) {
		uint64_t t = sm_next_event(s, g->cycle);
		if (t > g->cycle + 1)
			sm_sleep(s, t, g->cycle);
	}
}

static void tick_worker(void *ctx, unsigned k)
{
	struct tick_job *j = ctx;
	/* SM i always in share sm_thread(i), which its own thread runs unless the
	 * caller takes it over (par.h): its state stays in one core's caches */
	for (uint32_t i = 0; i < j->n; i++)
		if (sm_thread(j->list[i], j->nthreads) == k)
			tick_sm(j->g, j->g->sms[j->list[i]]);
}

/* SM creation, each SM on the thread that will tick it. */
struct create_job {
	struct gpu *g;
	const struct sm_env *env;
	uint32_t nthreads;
};
static void create_worker(void *ctx, unsigned k)
{
	struct create_job *j = ctx;
	for (uint32_t i = 0; i < j->g->nsms; i++)
		if (sm_thread(i, j->nthreads) == k)
			j->g->sms[i] = sm_create(j->env, i);
}

/* A buffered atomic has executed: measure it if it is a lock acquire. */
struct commit_ctx {
	struct gpu *g;
	struct sm *s;
};
static void on_atom(void *ctx, const struct wlog_atom *a)
{
	struct commit_ctx *c = ctx;
	if (!a->lock || !c->g->lock)
		return;
	bool cas = a->in->atomop == AOP_CAS;
	uint64_t cmp[WS_MAX_WARP], nw[WS_MAX_WARP];
	for (uint64_t m = a->exec; m; m &= m - 1) {
		unsigned l = (unsigned)__builtin_ctzll(m);
		cmp[l] = cas ? a->b[l] : 0;
		nw[l] = cas ? a->c[l] : a->b[l];
	}
	lockstat_acquire(c->g->lock, c->s->stats, a->lock_warp, cas, a->exec, a->addr, a->old, cmp, nw);
}

/* Phase 3 for SM s: fold in what its tick left.  False if it stopped on an
 * error (copied into the launch). */
static bool commit_sm(struct gpu *g, struct sm *s, bool *progress)
{
	struct func_launch *L = g->L;
	if (s->failed) {
		L->err = s->L->err;
		memcpy(L->errmsg, s->L->errmsg, sizeof L->errmsg);
		return false;
	}
	if (!wlog_empty(s->wlog)) {
		struct commit_ctx c = {g, s};
		L->mem_changes += wlog_commit(s->wlog, on_atom, &c);
	}
	L->mem_changes += s->L->mem_changes;
	s->L->mem_changes = 0;
	if (s->trace.n) {
		for (size_t k = 0; k < s->trace.n; k++)
			trace_add(L->trace, &s->trace.ev[k]);
		s->trace.n = 0;
	}
	if (s->printf_buf && !fflush(s->printf_buf) && s->printf_len) {
		fwrite(s->printf_mem, 1, s->printf_len, L->printf_out);
		fseeko(s->printf_buf, 0, SEEK_SET);
		s->printf_len = 0;
	}
	if (s->ctas_done) {
		g->ctas_done += s->ctas_done;
		s->ctas_done = 0;
	}
	if (s->retired) {
		g->last_retire = g->cycle;
		s->retired = false;
	}
	/* the SMs' instructions so far, for max_warp_insts (only a ticked SM's count moves) */
	g->sm_warp_insts += s->stats->v[STAT_warp_insts] - s->warp_insts_seen;
	s->warp_insts_seen = s->stats->v[STAT_warp_insts];
	g->oom |= s->oom;
	*progress |= s->progress;
	if (!sm_busy(s) && !memsys_reply_pending(g->mem, s->id))
		g->active[s->id >> 6] &= ~(1ull << (s->id & 63));
	return true;
}

/* No SM ticked in cycle g->cycle (all with work asleep): skip the cycles
 * after it in which nothing can happen anywhere -- no SM wakes, no CTA can
 * be dispatched, the memory system only waits out latencies
 * (memsys_quiet_cycles) -- stopping before a watchdog or limit would fire.
 * Exact: a skipped cycle would have changed nothing but clocks, the
 * dispatcher's round-robin start (without cta_rr_last) and the sleeping SMs' stall counters
 * (added when they wake, sm_wake). */
static void skip_quiet(struct gpu *g, uint64_t last_progress, uint64_t watchdog, uint64_t livelock,
		       uint64_t max_cycles)
{
	if (g->ctas_done >= g->nctas && memsys_idle(g->mem))
		return; /* the launch ends with this cycle */
	uint64_t k = memsys_quiet_cycles(g->mem), nactive = 0;
	for (uint32_t wd = 0, nw = (g->nsms + 63) / 64; wd < nw && k; wd++)
		for (uint64_t bits = g->active[wd]; bits; bits &= bits - 1) {
			const struct sm *s = g->sms[wd * 64 + (uint32_t)__builtin_ctzll(bits)];
			uint64_t q = s->sleep_until > g->cycle ? s->sleep_until - g->cycle - 1 : 0;
			k = q < k ? q : k;
			nactive++;
		}
	for (uint32_t i = 0; k && g->next_cta < g->nctas && i < g->nsms; i++)
		if (sm_can_accept_cta(g->sms[i], g->L->warps_per_cta))
			k = 0;
	/* the first cycle a watchdog or limit fires at is simulated */
	uint64_t lim = last_progress + watchdog - g->cycle;
	k = lim < k ? lim : k;
	if (livelock && g->last_retire + livelock - g->cycle < k)
		k = g->last_retire + livelock - g->cycle;
	if (max_cycles && max_cycles - 1 - g->cycle < k)
		k = max_cycles - 1 - g->cycle;
	if (!k || k == UINT64_MAX)
		return;
	memsys_skip(g->mem, k);
	if (g->next_cta < g->nctas && !g->rr_last) /* with cta_rr_last it moves only with a CTA */
		g->dispatch_rr = (uint32_t)((g->dispatch_rr + k) % g->nsms);
	g->L->host_sm_slept += k * nactive;
	g->L->host_cycles_skipped += k;
	g->cycle += k;
}

/* Device malloc/free change the allocation table every SM reads: a launch
 * that may call them ticks its SMs on one thread (same results). */
static bool module_uses_heap(const struct ptx_module *m)
{
	for (uint32_t i = 0; i < m->nfuncs; i++)
		if (m->funcs[i].is_extern && (!strcmp(m->funcs[i].name, "malloc") || !strcmp(m->funcs[i].name, "free")))
			return true;
	return false;
}

ws_result gpu_run_launch(struct func_launch *L, const struct ws_config *cfg, uint32_t ctas_per_sm,
			 const struct sched_choice *sched, struct memsys *mem, const struct sched_sib *sibs,
			 uint32_t nsibs, uint32_t *dispatch_start)
{
	struct gpu g = {.cfg = cfg, .L = L, .stats = L->stats, .nsms = L->num_sms,
			.nctas = L->grid[0] * L->grid[1] * L->grid[2], .sibs = sibs, .nsibs = nsibs};
	if (sched)
		g.pol = *sched;
	else if (!sched_resolve(cfg_str(cfg, CFG_sched), &g.pol, NULL, 0))
		return WS_ERROR_INVALID_CONFIG;
	g.fpol = fetch_policy_find(cfg_str(cfg, CFG_fetch));
	g.sleep = cfg_int(cfg, CFG_sleep) != 0;
	g.rr_persist = cfg_int(cfg, CFG_cta_rr_persist) != 0 && dispatch_start;
	g.rr_last = cfg_int(cfg, CFG_cta_rr_last) != 0;
	if (g.rr_persist && g.nsms)
		g.dispatch_rr = *dispatch_start % g.nsms;
	g.last_sm = g.nsms ? (g.dispatch_rr + g.nsms - 1) % g.nsms : 0;
	ws_result rc = WS_SUCCESS;
	if (!g.pol.pol || !g.fpol || (g.pol.pol->wraps && !g.pol.inner))
		return WS_ERROR_INVALID_CONFIG;
	if (!lockstat_create(&g.lock, L->mod, sibs, nsibs))
		return WS_ERROR_OUT_OF_MEMORY;
	g.dec = dec_module_create(L->mod, cfg);
	g.mem = mem ? mem : memsys_create(cfg, L->stats, g.nsms);
	g.sms = calloc(g.nsms, sizeof *g.sms);
	uint32_t nwords = (g.nsms + 63) / 64;
	g.active = calloc(nwords ? nwords : 1, sizeof *g.active);
	struct par *pool = NULL;
	uint32_t *list = NULL;
	if (!g.dec || !g.mem || !g.sms || !g.active) {
		rc = WS_ERROR_OUT_OF_MEMORY;
		goto out;
	}
	unsigned nthreads = par_threads_resolve((long)cfg_int(cfg, CFG_threads));
	if (nthreads > g.nsms)
		nthreads = g.nsms;
	if (nthreads > 1 && module_uses_heap(L->mod))
		nthreads = 1;
	if (nthreads > 1 && !(pool = par_create(nthreads)))
		nthreads = 1;
	/* each SM is created in the share that will tick it, normally by that
	 * share's thread: its memory comes from that thread's malloc arena, not
	 * interleaved with other threads' SMs */
	/* what the SMs take from the GPU (core/sm.h); the ages of launched
	 * warps come from g.next_age, advanced only by dispatch() */
	struct sm_env env = {.cfg = cfg, .ctas_per_sm = ctas_per_sm, .L = L, .nctas = g.nctas, .dec = g.dec,
			     .mem = g.mem, .lock = g.lock, .pol = &g.pol, .fpol = g.fpol, .sibs = sibs, .nsibs = nsibs,
			     .next_age = &g.next_age};
	struct create_job cj = {.g = &g, .env = &env, .nthreads = nthreads};
	if (pool)
		par_run(pool, create_worker, &cj);
	else
		create_worker(&cj, 0);
	for (uint32_t i = 0; i < g.nsms; i++)
		if (!g.sms[i] || !memsys_set_sm_stats(g.mem, i, g.sms[i]->stats)) {
			rc = WS_ERROR_OUT_OF_MEMORY;
			goto out;
		}
	if (pool) {
		for (uint32_t i = 0; L->printf_out && i < g.nsms; i++) {
			struct sm *s = g.sms[i];
			if (!(s->printf_buf = open_memstream(&s->printf_mem, &s->printf_len))) {
				rc = WS_ERROR_OUT_OF_MEMORY;
				goto out;
			}
			s->L->printf_out = s->printf_buf;
		}
	}
	list = malloc(g.nsms * sizeof *list);
	if (!list) {
		rc = WS_ERROR_OUT_OF_MEMORY;
		goto out;
	}
	for (uint32_t i = 0; i < g.nsms; i++) {
		struct sm *s = g.sms[i];
		if (s->pol->on_kernel_event)
			s->pol->on_kernel_event(s->pol_st, &s->view, SCHED_KERNEL_START);
	}
	uint64_t watchdog = (uint64_t)cfg_int(cfg, CFG_watchdog_cycles);
	uint64_t max_cycles = (uint64_t)cfg_int(cfg, CFG_max_cycles);
	uint64_t max_insts = (uint64_t)cfg_int(cfg, CFG_max_warp_insts);
	uint64_t livelock = (uint64_t)cfg_int(cfg, CFG_livelock_cycles);
	uint64_t start_insts = L->stats->v[STAT_warp_insts];
	uint64_t last_progress = 0, seen_changes = L->mem_changes, next_report = WS_PROGRESS_PERIOD;
	memsys_set_reply_wake(g.mem, g.active);
	while (g.ctas_done < g.nctas || !memsys_idle(g.mem)) {
		g.cycle++;
		if (L->progress && g.cycle >= next_report) { /* host-side only (wsSimSetProgress) */
			next_report = g.cycle + WS_PROGRESS_PERIOD;
			ws_progress p = {L->launch_no, g.cycle, L->stats->v[STAT_warp_insts] + g.sm_warp_insts - start_insts,
					 g.ctas_done, g.nctas};
			L->progress(L->progress_user, &p);
		}
		dispatch(&g);
		memsys_cycle(g.mem);
		bool progress = false;
		/* Only the SMs with something to do, in SM order.  An SM leaves the
		 * set when it has no CTA, nothing in its pipeline or LD/ST unit and
		 * no reply on its way: until a CTA is dispatched to it (dispatch())
		 * or a reply for it enters the network (the memory system sets its
		 * bit), popping replies finds none and sm_cycle() does nothing. */
		uint32_t n = 0;
		for (uint32_t wd = 0; wd < nwords; wd++)
			for (uint64_t bits = g.active[wd]; bits; bits &= bits - 1) {
				uint32_t i = wd * 64 + (uint32_t)__builtin_ctzll(bits);
				/* a busy SM asleep until a later cycle, with no reply arrived and
				 * no room come in its interconnect input (sm_next_event) */
				if (g.sms[i]->sleep_until > g.cycle && !memsys_reply_ready(g.mem, i) &&
				    !sm_input_wake(g.sms[i])) {
					L->host_sm_slept++;
					continue;
				}
				list[n++] = i;
			}
		L->host_sm_ticks += n;
		if (pool && n > 1) {
			struct tick_job j = {.g = &g, .list = list, .n = n, .nthreads = nthreads};
			par_run(pool, tick_worker, &j);
		} else {
			for (uint32_t k = 0; k < n; k++)
				tick_sm(&g, g.sms[list[k]]);
		}
		for (uint32_t k = 0; k < n; k++)
			if (!commit_sm(&g, g.sms[list[k]], &progress)) {
				rc = L->err;
				goto out;
			}
		if (g.oom) {
			rc = L->err = WS_ERROR_OUT_OF_MEMORY;
			snprintf(L->errmsg, sizeof L->errmsg, "out of host memory while simulating %s", L->kernel->name);
			goto out;
		}
		if (progress)
			last_progress = g.cycle;
		else if (g.cycle - last_progress > watchdog) {
			rc = L->err = WS_ERROR_DEADLOCK;
			char head[448];
			snprintf(head, sizeof head,
				 "kernel %s deadlocked: the watchdog fired at cycle %llu: for watchdog_cycles=%llu cycles no "
				 "warp issued an instruction, wrote back a result or received a memory reply (raise "
				 "watchdog_cycles if the kernel only waits that long); stuck warps:",
				 L->kernel->name, (unsigned long long)g.cycle, (unsigned long long)watchdog);
			report(&g, head);
			goto out;
		}
		if (L->mem_changes != seen_changes) { /* a store or atomic changed memory: not a spin loop */
			seen_changes = L->mem_changes;
			g.last_retire = g.cycle;
		}
		if (livelock && g.cycle - g.last_retire > livelock) {
			rc = L->err = WS_ERROR_DEADLOCK;
			char head[320];
			snprintf(head, sizeof head,
				 "kernel %s livelocked: warps kept executing but none finished, no CTA started or "
				 "completed and no store or atomic changed memory for livelock_cycles=%llu cycles (cycle %llu; a spin loop waiting for something "
				 "that never happens, e.g. a CTA that cannot become resident?); running warps:",
				 L->kernel->name, (unsigned long long)livelock, (unsigned long long)g.cycle);
			report(&g, head);
			goto out;
		}
		if ((max_cycles && g.cycle >= max_cycles) ||
		    (max_insts && L->stats->v[STAT_warp_insts] + g.sm_warp_insts - start_insts > max_insts)) {
			rc = L->err = WS_ERROR_LIMIT_EXCEEDED;
			char head[256];
			bool by_cycles = max_cycles && g.cycle >= max_cycles;
			snprintf(head, sizeof head,
				 "kernel %s exceeded %s=%llu (livelock or spin loop that never ends?) at cycle %llu; "
				 "warps still running:",
				 L->kernel->name, by_cycles ? "max_cycles" : "max_warp_insts",
				 (unsigned long long)(by_cycles ? max_cycles : max_insts), (unsigned long long)g.cycle);
			report(&g, head);
			goto out;
		}
		/* Nothing ticked: every SM with work sleeps.  If the memory system
		 * has nothing but latencies to wait out too, jump to the first
		 * cycle in which anything can happen (sleep). */
		if (!n && g.sleep)
			skip_quiet(&g, last_progress, watchdog, livelock, max_cycles);
	}
	for (uint32_t i = 0; i < g.nsms; i++) {
		struct sm *s = g.sms[i];
		if (s->pol->on_kernel_event)
			s->pol->on_kernel_event(s->pol_st, &s->view, SCHED_KERNEL_END);
	}
out:
	if (g.rr_persist && g.nsms)
		*dispatch_start = (g.last_sm + 1) % g.nsms;
	/* SMs asleep at an error or limit: their cycles up to this one count */
	for (uint32_t i = 0; g.sms && i < g.nsms; i++)
		if (g.sms[i])
			sm_wake(g.sms[i], g.cycle + 1);
	par_destroy(pool);
	free(list);
	if (g.mem)
		memsys_set_reply_wake(g.mem, NULL);
	/* the SMs' counters and their memory-system counters, into the launch's */
	for (uint32_t i = 0; g.sms && i < g.nsms; i++)
		if (g.sms[i]) {
			stats_add(L->stats, g.sms[i]->stats);
			if (g.mem)
				memsys_set_sm_stats(g.mem, i, NULL);
		}
	L->stats->v[STAT_cycles] += g.cycle;
	/* the policy's exported counters, summed over SMs */
	for (uint32_t k = 0, nc = sched_choice_ncounters(&g.pol); k < nc; k++) {
		char name[64];
		const struct sched_counter *c = sched_choice_counter(&g.pol, k, name, sizeof name);
		uint64_t sum = 0;
		for (uint32_t i = 0; g.sms && i < g.nsms; i++)
			sum += g.sms[i] && g.sms[i]->pol_ctr ? g.sms[i]->pol_ctr[k] : 0;
		if (c)
			stats_extra_add(L->stats, name, c->unit, c->help, sum);
	}
	for (uint32_t i = 0; g.sms && i < g.nsms; i++)
		sm_destroy(g.sms[i]);
	free(g.sms);
	free(g.active);
	if (!mem)
		memsys_destroy(g.mem);
	dec_module_destroy(g.dec);
	lockstat_destroy(g.lock);
	return rc;
}
