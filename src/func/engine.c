/*
 * engine.c -- functional-only execution of a kernel launch.
 *
 * Models the GPU's CTA residency (how many CTAs run at once, from the
 * occupancy limits) but no timing: resident warps take turns round-robin,
 * each running up to `quantum` instructions or until it blocks at a
 * barrier or finishes.  That interleaving lets warps that communicate
 * through memory (spin locks, global barriers across CTAs) make progress.
 * A round in which no warp can run while warps remain is a deadlock; it is
 * reported with every stuck warp.  The module check (func_check_module)
 * rejects unimplemented instructions at load time, through each opcode's
 * handler (op.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "func/func.h"
#include "func/op.h"
#include "stats/counters.h"

bool func_check_module(const struct ptx_module *m, const char *filename, char *msg, size_t msgsz)
{
	/* every unsupported instruction, one line each, while they fit */
	unsigned nbad = 0, dropped = 0;
	size_t len = 0;
	if (msgsz)
		msg[0] = '\0';
	for (uint32_t fi = 0; fi < m->nfuncs; fi++) {
		const struct ptx_function *f = &m->funcs[fi];
		for (uint32_t pc = 0; pc < f->ninsns; pc++) {
			const struct ptx_insn *in = &f->insns[pc];
			char why[256] = "";
			bool ok = func_ops[in->op]->check(in, why, sizeof why);
			if (!ok) {
				char text[160], line[700];
				ptx_insn_format(m, f, in, text, sizeof text);
				int n = snprintf(line, sizeof line, "%s%s:%u:%u: unsupported instruction '%s' in %s: %s",
						 nbad ? "\n" : "", filename ? filename : "<ptx>", in->line, in->col, text,
						 f->name, why);
				nbad++;
				if (n > 0 && (nbad == 1 || len + (size_t)n + 40 < msgsz)) {
					snprintf(msg + len, msgsz - len, "%s", line);
					len += strlen(msg + len);
				} else {
					dropped++;
				}
			}
		}
	}
	if (dropped && len < msgsz)
		snprintf(msg + len, msgsz - len, "\n... and %u more unsupported instructions", dropped);
	return nbad == 0;
}

static void report_stuck(struct func_launch *L, struct func_cta **slots, uint32_t nslots, const char *what)
{
	size_t len = strlen(L->errmsg);
	len += (size_t)snprintf(L->errmsg + len, sizeof L->errmsg - len, "%s", what);
	unsigned shown = 0, total = 0;
	for (uint32_t s = 0; s < nslots; s++) {
		struct func_cta *c = slots[s];
		if (!c)
			continue;
		for (uint32_t i = 0; i < c->nwarps; i++) {
			struct func_warp *w = &c->warps[i];
			if (w->wait == WAIT_EXITED)
				continue;
			total++;
			if (shown < 8 && len < sizeof L->errmsg - 200) {
				char d[400];
				func_warp_describe(L, c, w, d, sizeof d);
				len += (size_t)snprintf(L->errmsg + len, sizeof L->errmsg - len, "\n  %s", d);
				shown++;
			}
		}
	}
	if (total > shown && len < sizeof L->errmsg)
		snprintf(L->errmsg + len, sizeof L->errmsg - len, "\n  ... and %u more warps", total - shown);
}

ws_result func_run_launch(struct func_launch *L, uint64_t max_warp_insts, uint64_t livelock, uint32_t quantum)
{
	uint32_t nctas = L->grid[0] * L->grid[1] * L->grid[2];
	uint32_t nslots = L->num_sms * L->ctas_per_sm;
	if (nslots > nctas)
		nslots = nctas;
	struct func_cta **slots = calloc(nslots ? nslots : 1, sizeof *slots);
	if (!slots)
		return WS_ERROR_OUT_OF_MEMORY;
	uint32_t next = 0, done = 0;
	uint64_t start_insts = L->stats->v[STAT_warp_insts];
	ws_result rc = WS_SUCCESS;
	struct func_step_info info;
	/* livelock watchdog: L->clock (one tick per warp instruction) when a
	 * warp last finished or a CTA last started or completed.  The window is
	 * livelock_cycles * num_sms warp instructions: about what the timing
	 * model's GPU issues in livelock_cycles cycles (one per SM per cycle), so
	 * that long kernels with many resident warps are not taken for livelock. */
	uint64_t last_retire = L->clock, seen_changes = L->mem_changes;
	uint64_t window = livelock && L->num_sms > UINT64_MAX / livelock ? UINT64_MAX : livelock * L->num_sms;
	/* CTAs are dispatched to SMs round-robin: slot s runs on SM s % num_sms */
	for (uint32_t s = 0; s < nslots && next < nctas; s++, next++) {
		slots[s] = func_cta_create(L, next, s, s % L->num_sms);
		if (!slots[s]) {
			rc = WS_ERROR_OUT_OF_MEMORY;
			goto out;
		}
		L->stats->v[STAT_ctas]++;
		L->stats->v[STAT_warps] += slots[s]->nwarps;
	}
	uint64_t next_report = L->clock + WS_PROGRESS_PERIOD;
	while (done < nctas) {
		bool progress = false;
		if (L->progress && L->clock >= next_report) { /* host-side only (wsSimSetProgress) */
			next_report = L->clock + WS_PROGRESS_PERIOD;
			ws_progress p = {L->launch_no, 0, L->stats->v[STAT_warp_insts] - start_insts, done, nctas};
			L->progress(L->progress_user, &p);
		}
		for (uint32_t s = 0; s < nslots; s++) {
			struct func_cta *c = slots[s];
			if (!c)
				continue;
			for (uint32_t i = 0; i < c->nwarps; i++) {
				struct func_warp *w = &c->warps[i];
				for (uint32_t q = 0; q < quantum && w->wait == WAIT_NONE; q++) {
					L->clock++;
					if (!func_warp_step(L, c, w, &info)) {
						rc = L->err;
						goto out;
					}
					progress = true;
					if (info.exited)
						last_retire = L->clock;
				}
			}
			if (c->live_warps == 0) {
				func_cta_destroy(c);
				slots[s] = NULL;
				done++;
				last_retire = L->clock;
				if (next < nctas) {
					slots[s] = func_cta_create(L, next, s, s % L->num_sms);
					if (!slots[s]) {
						rc = WS_ERROR_OUT_OF_MEMORY;
						goto out;
					}
					next++;
					L->stats->v[STAT_ctas]++;
					L->stats->v[STAT_warps] += slots[s]->nwarps;
					progress = true;
				}
			}
		}
		if (!progress && done < nctas) {
			rc = L->err = WS_ERROR_DEADLOCK;
			snprintf(L->errmsg, sizeof L->errmsg,
				 "kernel %s deadlocked: no warp can make progress (all remaining warps wait at barriers)",
				 L->kernel->name);
			report_stuck(L, slots, nslots, "");
			goto out;
		}
		if (L->mem_changes != seen_changes) {
			seen_changes = L->mem_changes;
			last_retire = L->clock;
		}
		if (livelock && L->clock - last_retire > window) {
			/* the timing model's report (gpu.c) */
			rc = L->err = WS_ERROR_DEADLOCK;
			snprintf(L->errmsg, sizeof L->errmsg,
				 "kernel %s livelocked: warps kept executing but none finished, no CTA started or "
				 "completed and no store or atomic changed memory for livelock_cycles=%llu cycles (functional model: %llu warp instructions, "
				 "num_sms per cycle; a spin loop waiting for something that never happens, e.g. a CTA "
				 "that cannot become resident?); running warps:",
				 L->kernel->name, (unsigned long long)livelock, (unsigned long long)window);
			report_stuck(L, slots, nslots, "");
			goto out;
		}
		if (max_warp_insts && L->stats->v[STAT_warp_insts] - start_insts > max_warp_insts) {
			rc = L->err = WS_ERROR_LIMIT_EXCEEDED;
			snprintf(L->errmsg, sizeof L->errmsg,
				 "kernel %s exceeded max_warp_insts=%llu (livelock or spin loop that never ends?); "
				 "warps still running:",
				 L->kernel->name, (unsigned long long)max_warp_insts);
			report_stuck(L, slots, nslots, "");
			goto out;
		}
	}
out:
	for (uint32_t s = 0; s < nslots; s++)
		func_cta_destroy(slots[s]);
	free(slots);
	return rc;
}
