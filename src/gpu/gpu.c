/*
 * gpu.c -- the clocked GPU (see gpu.h): dispatch CTAs, tick the memory
 * system and every SM each core cycle, deliver memory replies, and watch
 * for deadlock, livelock and cycle limits.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/sm.h"
#include "core/lockstat.h"
#include "gpu/gpu.h"
#include "mem/memsys.h"

bool gpu_check_policies(const struct ws_config *cfg, char *msg, size_t msgsz)
{
	struct sched_choice c;
	if (!sched_resolve(cfg_str(cfg, CFG_sched), &c, msg, msgsz))
		return false;
	if (!fetch_policy_find(cfg_str(cfg, CFG_fetch))) {
		size_t n = (size_t)snprintf(msg, msgsz, "unknown fetch policy '%s' (known:", cfg_str(cfg, CFG_fetch));
		for (int i = 0; fetch_policies[i] && n < msgsz; i++)
			n += (size_t)snprintf(msg + n, msgsz - n, " %s", fetch_policies[i]->name);
		if (n < msgsz)
			snprintf(msg + n, msgsz - n, ")");
		return false;
	}
	return true;
}

static void dispatch(struct gpu *g)
{
	if (g->next_cta >= g->nctas)
		return;
	for (uint32_t k = 0; k < g->nsms && g->next_cta < g->nctas; k++) {
		uint32_t i = (g->dispatch_rr + k) % g->nsms;
		struct sm *s = g->sms[i];
		if (!sm_can_accept_cta(s, g->L->warps_per_cta))
			continue;
		struct func_cta *c = func_cta_create(g->L, g->next_cta, i, i);
		if (!c || !sm_launch_cta(s, c, g->cycle)) {
			func_cta_destroy(c);
			g->oom = true;
			return;
		}
		g->stats->v[STAT_ctas]++;
		g->stats->v[STAT_warps] += c->nwarps;
		g->next_cta++;
		g->last_retire = g->cycle;
		if (g->next_cta == g->nctas && !g->last_cta_issued) {
			g->last_cta_issued = true;
			for (uint32_t j = 0; j < g->nsms; j++) {
				struct sm *t = g->sms[j];
				t->view.last_cta_issued = true;
				t->view.cycle = g->cycle;
				if (t->pol->on_kernel_event)
					t->pol->on_kernel_event(t->pol_st, &t->view, SCHED_KERNEL_LAST_CTA_ISSUED);
			}
		}
	}
	g->dispatch_rr = (g->dispatch_rr + 1) % g->nsms;
}

static void report(struct gpu *g, const char *head)
{
	struct func_launch *L = g->L;
	size_t len = (size_t)snprintf(L->errmsg, sizeof L->errmsg, "%s", head);
	unsigned shown = 0, total = 0;
	for (uint32_t i = 0; i < g->nsms; i++)
		sm_describe(g->sms[i], L->errmsg, sizeof L->errmsg, &len, &shown, &total);
	if (total > shown && len < sizeof L->errmsg)
		snprintf(L->errmsg + len, sizeof L->errmsg - len, "\n  ... and %u more warps", total - shown);
}

ws_result gpu_run_launch(struct func_launch *L, const struct ws_config *cfg, uint32_t ctas_per_sm,
			 const struct sched_choice *sched, struct memsys *mem, const struct sched_sib *sibs,
			 uint32_t nsibs)
{
	struct gpu g = {.cfg = cfg, .L = L, .stats = L->stats, .nsms = L->num_sms,
			.nctas = L->grid[0] * L->grid[1] * L->grid[2], .sibs = sibs, .nsibs = nsibs};
	if (sched)
		g.pol = *sched;
	else if (!sched_resolve(cfg_str(cfg, CFG_sched), &g.pol, NULL, 0))
		return WS_ERROR_INVALID_CONFIG;
	g.fpol = fetch_policy_find(cfg_str(cfg, CFG_fetch));
	ws_result rc = WS_SUCCESS;
	if (!g.pol.pol || !g.fpol || (g.pol.pol->wraps && !g.pol.inner))
		return WS_ERROR_INVALID_CONFIG;
	if (!lockstat_create(&g.lock, L->mod, sibs, nsibs))
		return WS_ERROR_OUT_OF_MEMORY;
	g.dec = dec_module_create(L->mod, cfg);
	g.mem = mem ? mem : memsys_create(cfg, L->stats, g.nsms);
	g.sms = calloc(g.nsms, sizeof *g.sms);
	if (!g.dec || !g.mem || !g.sms) {
		rc = WS_ERROR_OUT_OF_MEMORY;
		goto out;
	}
	for (uint32_t i = 0; i < g.nsms; i++) {
		g.sms[i] = sm_create(&g, i, cfg, ctas_per_sm);
		if (!g.sms[i]) {
			rc = WS_ERROR_OUT_OF_MEMORY;
			goto out;
		}
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
	uint64_t last_progress = 0, seen_changes = L->mem_changes;
	while (g.ctas_done < g.nctas || !memsys_idle(g.mem)) {
		g.cycle++;
		dispatch(&g);
		memsys_cycle(g.mem);
		bool progress = false;
		for (uint32_t i = 0; i < g.nsms; i++) {
			struct sm *s = g.sms[i];
			struct mem_reply r;
			while (memsys_pop_reply(g.mem, i, &r)) {
				sm_mem_reply(s, &r, g.cycle);
				progress = true;
			}
			if (!sm_cycle(s, g.cycle)) {
				rc = L->err;
				goto out;
			}
			progress |= s->progress;
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
			char head[256];
			snprintf(head, sizeof head,
				 "kernel %s deadlocked: no warp made progress for %llu cycles (cycle %llu); stuck warps:",
				 L->kernel->name, (unsigned long long)watchdog, (unsigned long long)g.cycle);
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
		    (max_insts && L->stats->v[STAT_warp_insts] - start_insts > max_insts)) {
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
	}
	for (uint32_t i = 0; i < g.nsms; i++) {
		struct sm *s = g.sms[i];
		if (s->pol->on_kernel_event)
			s->pol->on_kernel_event(s->pol_st, &s->view, SCHED_KERNEL_END);
	}
out:
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
	if (!mem)
		memsys_destroy(g.mem);
	dec_module_destroy(g.dec);
	lockstat_destroy(g.lock);
	return rc;
}
