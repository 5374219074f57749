/*
 * opcoll.c -- operand collectors and dispatch to the execution units of an
 * SM (see opcoll.h).
 *
 * Each scheduler owns opcoll_per_unit collectors per unit type, or with
 * opcoll_generic opcoll_per_unit collectors that serve every unit type
 * (GPGPU-Sim's generic collectors, split evenly among the sub-cores'
 * schedulers: SM6_TITANX's 8 are 2 per scheduler).  With opcoll_units the
 * SM has a number of collectors per unit type that every scheduler issues
 * into (GPGPU-Sim's specialized collector units without sub_core_model:
 * SM2_GTX480's 6 SP, 8 SFU and 2 memory units); they live in scheduler
 * 0's groups.  An issued
 * instruction waits in its collector until every source operand has been
 * read; each register bank serves one read per cycle (a second read of the
 * same bank in a cycle is a register-bank conflict).  Ready collectors
 * dispatch oldest first: to a free unit of their type (SP, SFU, DP, INT),
 * which is then busy for the instruction's initiation interval times the
 * passes a warp needs (warp_size / simd_width), or to the LD/ST unit.
 * A unit's result is written back its latency plus exec_reg_cycles after
 * dispatch (GPGPU-Sim's OC_EX, dispatch and EX_WB pipeline registers).
 *
 * Sub-core model (sub_core=1, GPGPU-Sim's sub_core_model for Pascal and
 * Volta): a collector of scheduler s dispatches only to the units k with
 * k mod num_schedulers == s (with fewer units than schedulers, to unit
 * s mod units, shared), and the register banks are split into
 * num_schedulers groups of reg_banks/num_schedulers; an instruction reads
 * the group of the scheduler that issued it (issue.c).  The LD/ST unit
 * stays one per SM, as in GPGPU-Sim.
 */
#include "core/core_counters.h"
#include "core/core_params.h"
#include "core/ldst.h"
#include "core/opcoll.h"
#include "core/sm.h"
#include "core/writeback.h"

struct sm_collector *sm_collector_at(struct sm *s, uint32_t sched, uint32_t cu, uint32_t k)
{
	if (s->coll_pooled)
		sched = 0;
	return &s->coll[((size_t)sched * UNIT_COUNT + (s->coll_generic ? 0 : cu)) * s->ncoll_per + k];
}

void sm_collector_count(struct sm *s, const struct sm_collector *c, int delta)
{
	uint32_t g = (uint32_t)(c - s->coll) / s->ncoll_per;
	if (s->coll_pooled) { /* g is scheduler 0's group of the type: every scheduler's entry */
		for (uint32_t sc = 0; sc < s->nsched; sc++)
			s->coll_now[sc * UNIT_COUNT + g] = (uint8_t)(s->coll_now[sc * UNIT_COUNT + g] + delta);
		return;
	}
	if (!s->coll_generic) {
		s->coll_now[g] = (uint8_t)(s->coll_now[g] + delta);
		return;
	}
	for (uint32_t cu = 0; cu < UNIT_COUNT; cu++) /* g is the scheduler's unit type 0 group */
		s->coll_now[g + cu] = (uint8_t)(s->coll_now[g + cu] + delta);
}

/* Collector c is free again; an issue stage whose ready warps waited for
 * a collector may not be repeated (sm_issue_repeats). */
static inline void coll_release(struct sm *s, struct sm_collector *c)
{
	c->busy = false;
	sm_collector_count(s, c, +1);
	if (s->issue_coll_wait)
		s->issue_same = false;
}

/* The units of type cu collector c may dispatch to: k0, k0 + step, ...
 * below nunits[cu] (the first unit returned; all of them, or with sub_core
 * this scheduler's share). */
static inline uint32_t unit_share(const struct sm *s, const struct sm_collector *c, uint32_t cu, uint32_t *step)
{
	uint32_t nu = s->nunits[cu];
	*step = 1;
	if (!s->sub_core || !nu)
		return 0;
	*step = s->nsched;
	return c->op.sched % (nu < s->nsched ? nu : s->nsched);
}

void sm_dispatch_tick(struct sm *s, uint64_t now)
{
	if (!s->busy_coll)
		return;
	uint32_t simd = (uint32_t)cfg_int(s->cfg, CFG_simd_width);
	uint32_t passes = (s->ws + simd - 1) / simd;
	/* oldest instruction first (collectors in issue order) */
	for (uint32_t i = 0; i < s->busy_coll; i++) {
		struct sm_collector *c = &s->coll[s->coll_fifo[i]];
		if (!c->busy || c->op.reads_left || c->since >= now)
			continue;
		const struct dec_insn *d = c->op.d;
		uint32_t cu = d ? d->cu : UNIT_SP;
		if (cu == UNIT_LDST && d && d->is_mem) {
			if (!ldst_accept(s->ldst, &c->op, now))
				continue;
			coll_release(s, c);
			continue;
		}
		uint32_t nu = s->nunits[cu], step, k0 = unit_share(s, c, cu, &step);
		struct sm_unit *u = NULL;
		for (uint32_t k = k0; k < nu; k += step)
			if (s->units[cu][k].busy_until <= now) {
				u = &s->units[cu][k];
				break;
			}
		if (!u)
			continue;
		uint32_t ii = d ? d->ii : 1, lat = d ? d->lat : 1;
		u->busy_until = now + (uint64_t)ii * passes;
		sm_writeback_push(s, &c->op, now + lat + (uint64_t)(passes - 1) * ii + s->exec_reg_cycles);
		coll_release(s, c);
	}
	/* drop the dispatched collectors from the issue-order list */
	uint32_t k = 0;
	for (uint32_t i = 0; i < s->busy_coll; i++)
		if (s->coll[s->coll_fifo[i]].busy)
			s->coll_fifo[k++] = s->coll_fifo[i];
	s->busy_coll = k;
}

/* The first cycle after `now` in which a busy collector may read an operand
 * or dispatch (sleeping, sm_next_event): now + 1 while one has reads left
 * or could dispatch next cycle; else the first cycle a unit it waits for is
 * free.  One waiting for the LD/ST unit (every pipeline busy or the load
 * table full) waits for the LD/ST unit's own events, which the caller takes
 * from ldst_next_event and replies (UINT64_MAX here). */
uint64_t sm_collectors_next_event(const struct sm *s, uint64_t now)
{
	uint64_t t = UINT64_MAX;
	for (uint32_t i = 0; i < s->busy_coll; i++) {
		const struct sm_collector *c = &s->coll[s->coll_fifo[i]];
		if (!c->busy)
			continue;
		if (c->op.reads_left || c->since > now)
			return now + 1;
		const struct dec_insn *d = c->op.d;
		uint32_t cu = d ? d->cu : UNIT_SP;
		if (cu == UNIT_LDST && d && d->is_mem) {
			if (ldst_can_accept(s->ldst))
				return now + 1;
			continue;
		}
		/* the units sm_dispatch_tick would try */
		uint32_t nu = s->nunits[cu], step, k0 = unit_share(s, c, cu, &step);
		for (uint32_t k = k0; k < nu; k += step) {
			uint64_t b = s->units[cu][k].busy_until;
			if (b <= now + 1)
				return now + 1;
			if (b < t)
				t = b;
		}
	}
	return t;
}

/* ---- operand collection: one read per register bank per cycle, at most
 * opcoll_reads_per_cycle reads per collector (0: no limit) ---- */

void sm_operands_tick(struct sm *s, uint64_t now)
{
	if (!s->busy_coll)
		return;
	for (uint32_t i = 0; i < s->busy_coll; i++) {
		struct sm_collector *c = &s->coll[s->coll_fifo[i]];
		if (!c->busy || !c->op.reads_left || c->since >= now)
			continue;
		for (unsigned r = 0, got = 0; r < c->op.nreads && (!s->coll_reads || got < s->coll_reads); r++) {
			int16_t b = c->op.banks[r];
			if (b < 0)
				continue;
			if (s->bank_busy[b] == now + 1) { /* bank already read this cycle */
				s->stats->v[STAT_regbank_conflicts]++;
				continue;
			}
			s->bank_busy[b] = now + 1;
			c->op.banks[r] = -1;
			c->op.reads_left--;
			got++;
		}
	}
}

struct sm_collector *sm_collector_free(struct sm *s, uint32_t sched, uint32_t cu)
{
	for (uint32_t k = 0, n = s->coll_count[s->coll_generic ? 0 : cu]; k < n; k++) {
		struct sm_collector *c = sm_collector_at(s, sched, cu, k);
		if (!c->busy)
			return c;
	}
	return NULL;
}
