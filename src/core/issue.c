/*
 * issue.c -- the issue stage of an SM: warp schedulers (see issue.h).
 *
 * Each of the num_schedulers schedulers owns the warp slots with
 * slot % num_schedulers == its index.  Every cycle it walks its policy's
 * order (src/sched/) and issues from the first warp whose I-buffer head is
 * decoded, whose scoreboard has no pending source or destination register,
 * and for which the scheduler has a free operand collector of the right
 * unit type.  Dual issue is GPGPU-Sim's (scheduler_unit::cycle with
 * gpgpu_dual_issue_diff_exec_units): with issue_per_sched = 2 the same warp
 * may issue its next instruction in the same cycle if that one is issuable
 * too and goes to a different unit type; a scheduler never issues from two
 * warps in one cycle.  With issue_rotate the schedulers take turns in an
 * order that rotates every cycle (GPGPU-Sim's Issue_Prio), so no scheduler
 * always wins the shared units and register banks; without it scheduler 0
 * goes first every cycle.  With warp sharing (KAWS; warp_sharing=1
 * or sched=kaws) a scheduler that issued nothing of its own may issue the
 * oldest ready warp of another scheduler whose collector for that warp's
 * unit is busy while its own is free (share_issue).  Issue executes the
 * instruction functionally (func_warp_step), reserves its destinations in
 * the scoreboard, records barrier arrivals and exits, and redirects the
 * front end when control flow leaves the fetched path.
 *
 * Stall classification (one reason per scheduler per cycle without issue),
 * as GPGPU-Sim's scheduler_unit::cycle() does it: over the warps the
 * policy ordered for the scheduler (the warps the issue loop walked), by
 * priority: structural (a warp had a ready instruction but no free operand
 * collector / unit port) > held (a ready warp the policy holds back) > data
 * (scoreboard) > control (I-buffer flushed by an unresolved control
 * instruction) > fetch (empty I-buffer, I-cache miss, decode) > barrier.
 * If the walk shows none of these, exit (the scheduler's live warps have
 * finished and wait for their CTA) > idle.  Warps a policy leaves out of its
 * order (tls's pending pool) count for nothing, as in GPGPU-Sim.  The stall,
 * issue and SM-activity counters are per-cycle counters (sm_count_cycle).
 *
 * Issue hands instructions to the operand collectors (opcoll.c) and changes
 * warps and CTAs -- the I-buffer, barriers, exits -- through warpstate.c;
 * it never calls back into the fetch stage or sm.c.
 */
#include <string.h>

#include "core/core_counters.h"
#include "core/core_params.h"
#include "core/dwr.h"
#include "core/issue.h"
#include "core/ldst.h"
#include "core/lockstat.h"
#include "core/opcoll.h"
#include "core/prefetch.h"
#include "core/sm.h"
#include "core/warpstate.h"
#include "func/wlog.h"
#include "sched/sched_util.h"
#include "sched/warp_sharing.h"

enum stall { ST_IDLE, ST_EXIT, ST_BARRIER, ST_FETCH, ST_CONTROL, ST_DATA, ST_HELD, ST_STRUCT };
/* sm.stall_at: the reason depends on more than the warp's own refreshed state */
#define ST_NOW 0xff
static const enum stat_core_id stall_stat[] = {STAT_stall_idle,  STAT_stall_exit,    STAT_stall_barrier,
					       STAT_stall_fetch, STAT_stall_control, STAT_stall_data,
					       STAT_stall_held,  STAT_stall_structural};

static bool head_ready_sb(const struct sm *s, const struct sm_warp *w, const struct dec_insn *d, bool *longlat)
{
	*longlat = false;
	if (!d)
		return true;
	/* a memory fence waits until the warp's earlier stores are acknowledged
	 * (fence_wait=registers: until none of its register writes is pending) */
	if ((d->in->op == OP_MEMBAR || d->in->op == OP_FENCE) && (s->fence_regs ? w->sb.npending : w->pending_stores))
		return false;
	/* atomic_wait: nothing issues while the warp has an atom in flight */
	if (w->pending_atomics) {
		*longlat = true;
		return false;
	}
	/* cp.async.wait_group N waits until the copies of all but the newest N
	 * committed groups have arrived (wait_all: every copy); commit_group
	 * waits for a free group slot */
	if (d->in->op == OP_CP) {
		const struct ptx_insn *in = d->in;
		uint32_t seq = w->cp_seq;
		if (in->mode == MODE_COMMIT_GROUP && w->cp_pending[(seq + 1) % SM_CP_GROUPS])
			return false;
		/* cp.async.mbarrier.arrive arrives when the warp's copies have
		 * landed: the functional model arrives at issue, so issue waits */
		if (in->mode == MODE_WAIT_ALL || in->mode == MODE_CP_MBAR_ARRIVE) {
			for (unsigned k = 0; k < SM_CP_GROUPS; k++)
				if (w->cp_pending[k])
					return false;
		} else if (in->mode == MODE_WAIT_GROUP) {
			uint64_t n = in->opd[0].imm;
			for (uint32_t k = 1; k < SM_CP_GROUPS; k++) /* committed groups seq-1, seq-2, ... */
				if (k > n && k <= seq && w->cp_pending[(seq - k) % SM_CP_GROUPS])
					return false;
		}
	}
	bool ok = true;
	for (unsigned k = 0; k < d->nsrc; k++) {
		uint32_t r = w->frame_base + (uint32_t)d->src[k];
		if (sb_test(&w->sb, r)) {
			ok = false;
			if (sb_test_long(&w->sb, r))
				*longlat = true;
		}
	}
	for (unsigned k = 0; k < d->ndst; k++) {
		uint32_t r = w->frame_base + (uint32_t)d->dst[k];
		if (sb_test(&w->sb, r)) {
			ok = false;
			if (sb_test_long(&w->sb, r))
				*longlat = true;
		}
	}
	return ok;
}

/* Per-warp stall cycles (sched_warp.stall_cycles): close the current run of
 * stall cycles before `now`. */
static inline void stall_run_end(struct sched_warp *v, uint64_t now)
{
	if (v->stall_since) {
		v->stall_cycles += now - v->stall_since;
		v->stall_since = 0;
	}
}

/* The view of warp `slot` says ready = r (sm.ready_bits follows it). */
static inline void set_ready(struct sm *s, uint32_t slot, bool r)
{
	struct sched_warp *v = &s->vw[slot];
	v->ready = r;
	if (r)
		s->ready_bits[v->sched_id][slot >> 6] |= 1ull << (slot & 63);
	else
		s->ready_bits[v->sched_id][slot >> 6] &= ~(1ull << (slot & 63));
}

/* Value of operand `o` in `lane` after the step (registers and immediates; 0 otherwise). */
static uint64_t opd_value(const struct sm *s, const struct sm_warp *w, const struct ptx_operand *o, unsigned lane)
{
	if (o->kind == OPD_IMM)
		return o->imm;
	if (o->kind != OPD_REG || !w->fw->sp)
		return 0;
	const uint64_t *regs = w->fw->regs + w->fw->stack[w->fw->sp - 1].reg_off;
	return regs[(size_t)o->reg * s->ws + lane];
}

/* Tell the policy what a setp or branch did (BOWS/DDOS hooks).  Lane values
 * come from the first active lane, as in the BOWS/DDOS paper. */
static void exec_event(struct sm *s, uint32_t slot, int32_t fn, int32_t pc, const struct dec_insn *d,
		       const struct func_step_info *info)
{
	const struct ptx_insn *in = d->in;
	const struct sm_warp *w = &s->w[slot];
	unsigned lane = info->active ? (unsigned)__builtin_ctzll(info->active) : 0;
	struct sched_exec_event ev = {.slot = slot, .fn = fn, .pc = pc, .opcode = in->op, .active = info->active,
				      .exec = info->exec, .lane = lane, .target = -1};
	if (in->op == OP_SETP) {
		ev.is_setp = true;
		if (info->active) {
			for (unsigned k = 0; k < 2 && k + 1 < in->nopd; k++)
				ev.src_values[k] = opd_value(s, w, &in->opd[k + 1], lane);
			if (in->opd[0].kind == OPD_REG)
				ev.result = opd_value(s, w, &in->opd[0], lane);
		}
	} else {
		ev.is_branch = true;
		ev.diverged = info->diverged;
		if (in->op == OP_BRA) {
			ev.target = in->opd[0].target;
		} else if (info->active && in->nopd > 1) {
			uint64_t idx = opd_value(s, w, &in->opd[0], lane) & 0xffffffffu;
			if (idx < in->opd[1].nlist)
				ev.target = in->opd[1].list[idx];
		}
		ev.backward = ev.target >= 0 && ev.target <= pc;
		ev.taken = in->op == OP_BRA ? info->exec != 0 : true;
	}
	s->pol->on_exec(s->pol_st, &s->view, &ev);
}

/* Lock acquire outcomes and wait-exit attempts (lockstat.h) of an executed instruction. */
static void lock_measure(struct sm *s, const struct sm_warp *w, const struct func_step_info *info,
			 struct ws_stats *st)
{
	enum lockstat_kind k = lockstat_kind(s->env.lock, info->fn, info->pc);
	if (k == LOCKSTAT_WAIT_SIB) {
		lockstat_wait(st, info->active, info->exec);
	} else if (k == LOCKSTAT_ACQUIRE && info->deferred) {
		/* the timing model buffers every atomic (func/wlog.h): it is
		 * measured when it executes, at the end of the cycle (gpu.c) */
		struct wlog_atom *a = wlog_last_atom(s->wlog);
		if (a) {
			a->lock = true;
			a->lock_warp = s->vw[w - s->w].age;
		}
	}
}

/* Execute the head instruction of warp `slot` at issue (functional step
 * into *info) and do the warp's bookkeeping: scoreboard, pending stores,
 * barrier arrival, exit, front-end redirect, policy hooks.  *longlat_out:
 * its destinations are long-latency; *cp_out: a cp.async copy's group.
 * False on a functional error. */
static bool step_one(struct sm *s, uint32_t sched, uint32_t slot, struct func_step_info *info, uint64_t now,
		     bool *longlat_out, uint8_t *cp_out)
{
	struct sm_warp *w = &s->w[slot];
	struct ibuf_entry *e = &w->ib[w->ib_head];
	const struct dec_insn *d = e->d;
	uint32_t frame_base = w->frame_base;
	uint32_t cta = w->cta_slot;
	int32_t e_fn = e->fn, e_pc = e->pc;
	/* what the front end delivered vs what issues: the wait of this entry in the
	 * I-buffer, and whether the scheduler's latest fetch was for this warp */
	s->stats->v[STAT_ibuf_wait_cycles] += now > e->ready ? now - e->ready : 0;
	if (s->last_fetch[sched] != UINT32_MAX) {
		s->stats->v[STAT_fetch_next_issue] += s->last_fetch[sched] == slot;
		s->last_fetch[sched] = UINT32_MAX;
	}
	s->L->clock = now;
	if (!func_warp_step(s->L, w->fc, w->fw, info))
		return false;
	sm_ibuf_pop(s, slot);
	struct ws_stats *st = s->stats;
	if (s->env.lock && d)
		lock_measure(s, w, info, st);
	st->v[STAT_simd_lanes_active] += ws_popc64(info->active);
	if (d) { /* activity for the energy estimate */
		uint64_t lanes = ws_popc64(info->exec);
		/* control and barrier instructions are SP-class with LAT_CTRL: "other" lanes */
		static const enum stat_core_id by_unit[UNIT_COUNT] = {
			[UNIT_SP] = STAT_lanes_sp,	[UNIT_INT] = STAT_lanes_int,	  [UNIT_SFU] = STAT_lanes_sfu,
			[UNIT_DP] = STAT_lanes_dp,	[UNIT_LDST] = STAT_lanes_other, [UNIT_TENSOR] = STAT_lanes_tensor};
		_Static_assert(UNIT_COUNT == 6, "every unit has its lane counter in by_unit");
		st->v[d->in->lat == LAT_CTRL || d->in->unit >= UNIT_COUNT ? STAT_lanes_other : by_unit[d->in->unit]] +=
			lanes;
		st->v[STAT_rf_reads] += lanes * d->nsrc;
		st->v[STAT_rf_writes] += lanes * d->ndst;
	}
	st->v[STAT_simd_lanes_total] += s->ws;
	struct sched_warp *vw = &s->vw[slot];
	vw->insts_issued++;
	stall_run_end(vw, now); /* it issues this cycle: not a stall cycle */
	s->vc[cta].insts_issued++;
	/* scoreboard: destinations pending until writeback */
	bool longlat = false;
	if (d && d->is_mem && d->ndst) {
		enum ptx_space sp = (enum ptx_space)info->space;
		longlat = sp == SPACE_GLOBAL || sp == SPACE_LOCAL || sp == SPACE_NONE;
	}
	if (d && (d->in->op == OP_MEMBAR || d->in->op == OP_FENCE)) /* issues once the warp's stores are acknowledged */
		ldst_fence(s->ldst);
	/* stores and reductions are pending for membar from issue until acknowledged */
	if (d && (d->in->op == OP_ST || d->in->op == OP_RED || d->in->op == OP_WMMA_STORE || d->in->op == OP_STMATRIX))
		w->pending_stores++;
	if (d && d->in->op == OP_ATOM && cfg_int(s->cfg, CFG_atomic_wait))
		w->pending_atomics++;
	/* cp.async: a copy joins the open group until its data arrived (writeback);
	 * commit_group (and wait_all, which commits) opens the next group */
	uint8_t cp_group = 0;
	if (d && d->in->op == OP_CP) {
		if (d->in->mode == MODE_NONE) {
			cp_group = (uint8_t)(w->cp_seq % SM_CP_GROUPS);
			w->cp_pending[cp_group]++;
		} else if (d->in->mode == MODE_COMMIT_GROUP || d->in->mode == MODE_WAIT_ALL) {
			w->cp_seq++;
		}
	}
	if (d)
		for (unsigned k = 0; k < d->ndst; k++)
			if (!sb_set(&w->sb, frame_base + (uint32_t)d->dst[k], longlat))
				s->oom = true;
	w->inflight++;
	sm_warp_mark_dirty(s, slot);
	*longlat_out = longlat;
	*cp_out = cp_group;
	/* barrier arrival */
	if (info->barrier_wait) {
		w->at_barrier = true;
		sm_warp_publish(s, slot);
		w->wait_since = now;
		if (s->vc[cta].first_barrier_hit == UINT64_MAX)
			s->vc[cta].first_barrier_hit = now;
		if (s->pol->on_barrier_arrive)
			s->pol->on_barrier_arrive(s->pol_st, &s->view, cta, slot);
	}
	if (d && (d->is_barrier || info->exited))
		sm_barrier_scan(s, cta, now);
	if (s->dwr && info->barrier_wait && w->at_barrier) /* a partner at bar.sync */
		dwr_partner_event(s->dwr, slot, now);
	if (info->exited)
		sm_warp_finish(s, slot, now);
	else {
		/* redirect the front end when the next pc is not the next I-buffer entry */
		int32_t fn;
		int32_t pc = func_warp_pc(w->fw, &fn);
		int32_t efn = w->fetch_fn, epc = w->fetch_pc;
		if (w->ib_count) {
			efn = w->ib[w->ib_head].fn;
			epc = w->ib[w->ib_head].pc;
		}
		if ((d && d->is_ctrl) || !d || pc != epc || fn != efn) {
			sm_ibuf_flush(s, slot);
			st->v[STAT_ibuf_flushes]++;
			w->fetch_fn = fn;
			w->fetch_pc = pc;
			w->fetch_block_until = now + (uint64_t)cfg_int(s->cfg, CFG_branch_latency);
			w->ctrl_pending = true;
		}
		/* otherwise the I-buffer and the fetch pointer already follow the warp's path */
		sm_warp_sync_frame(s, w);
	}
	if (s->id == 0)
		st->v[STAT_sm0_warp_insts]++;
	if (s->pol->on_issue) /* the warp's own scheduler (differs from `sched` for a shared warp) */
		s->pol->on_issue(s->pol_st, &s->view, vw->sched_id, slot);
	if (s->pol->on_exec && d && (d->in->op == OP_SETP || d->in->op == OP_BRA || d->in->op == OP_BRX))
		exec_event(s, slot, e_fn, e_pc, d, info);
	s->progress = true;
	return true;
}

/* Put the issued instruction into operand collector `coll`. */
static void collect(struct sm *s, uint32_t sched, uint32_t slot, const struct dec_insn *d, uint32_t frame_base,
		    bool longlat, uint8_t cp_group, struct sm_collector *coll, uint64_t now)
{
	s->coll_fifo[s->busy_coll++] = (uint32_t)(coll - s->coll);
	coll->busy = true;
	coll->since = now;
	sm_collector_count(s, coll, -1);
	coll->op = (struct sm_op){.d = d, .slot = slot, .frame_base = frame_base, .sched = (uint8_t)sched,
				  .longlat = longlat, .mem = &coll->info, .cp_group = cp_group};
	if (d) {
		/* sub-core: the issuing scheduler's group of banks (GPGPU-Sim's register_bank) */
		uint32_t bps = s->sub_core && s->nbanks >= s->nsched ? s->nbanks / s->nsched : s->nbanks;
		uint32_t base = bps == s->nbanks ? 0 : sched * bps;
		for (unsigned k = 0; k < d->nsrc; k++)
			coll->op.banks[k] = (int16_t)(base + (frame_base + (uint32_t)d->src[k] + slot) % bps);
		coll->op.nreads = d->nsrc;
		coll->op.reads_left = d->nsrc;
	}
}

/* Issue the head instruction of warp `slot`.  False on a functional error. */
static bool issue_one(struct sm *s, uint32_t sched, uint32_t slot, struct sm_collector *coll, uint64_t now)
{
	struct sm_warp *w = &s->w[slot];
	const struct dec_insn *d = w->ib[w->ib_head].d;
	uint32_t frame_base = w->frame_base;
	bool longlat;
	uint8_t cp_group;
	if (!step_one(s, sched, slot, &coll->info, now, &longlat, &cp_group))
		return false;
	collect(s, sched, slot, d, frame_base, longlat, cp_group, coll, now);
	return true;
}

/* DWR: do the SCO's partners of sub-warp `slot` (dwr_candidates) have
 * their LAT decoded and its operands ready?  The large warp waits for all. */
static bool sco_ready(struct sm *s, uint32_t slot, uint64_t now)
{
	uint32_t cand[DWR_MAX_SUB], lane0, width;
	unsigned nc = dwr_candidates(s->dwr, slot, now, cand, &lane0, &width);
	for (unsigned i = 0; i < nc; i++) {
		const struct sm_warp *p = &s->w[cand[i]];
		if (cand[i] != slot && (!p->ib_count || p->ib_head_ready > now ||
					!head_ready_sb(s, p, p->ib[p->ib_head].d, &(bool){0})))
			return false;
	}
	return true;
}

/* DWR: issue the LAT at the head of sub-warp `slot`, combined by the SCO
 * with its combine-ready partners into one large warp (dwr.h).  Each
 * sub-warp executes functionally; their lanes form one memory access. */
static bool issue_lat(struct sm *s, uint32_t sched, uint32_t slot, struct sm_collector *coll, uint64_t now)
{
	uint32_t cand[DWR_MAX_SUB], lane0, width;
	unsigned nc = dwr_candidates(s->dwr, slot, now, cand, &lane0, &width);
	/* every candidate is ready (sco_ready); the scheduled sub-warp first */
	uint32_t part[DWR_MAX_SUB];
	unsigned n = 0;
	part[n++] = slot;
	for (unsigned i = 0; i < nc; i++)
		if (cand[i] != slot)
			part[n++] = cand[i];
	if (n == 1)
		lane0 = s->vw[slot].warp_in_cta, width = s->ws;
	const struct dec_insn *d = s->w[slot].ib[s->w[slot].ib_head].d;
	uint32_t fb[DWR_MAX_SUB] = {0};
	bool longlat = false, ll;
	uint8_t cp;
	for (unsigned i = 0; i < n; i++) {
		fb[i] = s->w[part[i]].frame_base;
		struct func_step_info *info = i ? dwr_scratch(s->dwr, i) : &coll->info;
		if (!step_one(s, sched, part[i], info, now, i ? &ll : &longlat, &cp))
			return false;
	}
	collect(s, sched, slot, d, fb[0], longlat, 0, coll, now);
	coll->op.lane0_warp = (uint16_t)lane0;
	if (n > 1) {
		/* the large warp's lanes: sub-warp k's lanes at (k - lane0) * warp_size */
		struct func_step_info *big = &coll->info;
		uint32_t ws = s->ws;
		unsigned off0 = (s->vw[slot].warp_in_cta - lane0) * ws;
		if (off0) {
			for (int l = (int)ws - 1; l >= 0; l--) {
				big->addr[off0 + (unsigned)l] = big->addr[l];
				big->lane_space[off0 + (unsigned)l] = big->lane_space[l];
			}
			big->active <<= off0;
			big->exec <<= off0;
		}
		for (unsigned i = 1; i < n; i++) {
			const struct func_step_info *pi = dwr_scratch(s->dwr, i);
			unsigned off = (s->vw[part[i]].warp_in_cta - lane0) * ws;
			for (unsigned l = 0; l < ws; l++) {
				big->addr[off + l] = pi->addr[l];
				big->lane_space[off + l] = pi->lane_space[l];
			}
			big->active |= pi->active << off;
			big->exec |= pi->exec << off;
			coll->op.part_slot[i - 1] = part[i];
			coll->op.part_fb[i - 1] = fb[i];
		}
		coll->op.npart = (uint8_t)(n - 1);
		coll->op.width = (uint8_t)width;
	}
	dwr_issued(s->dwr, part, n);
	for (unsigned i = 1; i < n; i++) /* issued with the large warp: not again this cycle */
		set_ready(s, part[i], false);
	return true;
}

/* Issue the head of `slot` into `c`: a DWR LAT through the SCO, anything
 * else on its own; with issue_simd_passes the scheduler then stays busy one
 * cycle per SIMD-wide sub-warp.  False on a functional error. */
static bool issue_head(struct sm *s, uint32_t sc, uint32_t slot, struct sm_collector *c, uint64_t now)
{
	const struct sm_warp *w = &s->w[slot];
	bool lat = s->dwr && dwr_is_lat(w->ib[w->ib_head].d);
	if (lat ? !issue_lat(s, sc, slot, c, now) : !issue_one(s, sc, slot, c, now))
		return false;
	if (cfg_int(s->cfg, CFG_issue_simd_passes)) {
		uint32_t simd = (uint32_t)cfg_int(s->cfg, CFG_simd_width);
		uint32_t lanes = c->op.npart ? (c->op.npart + 1u) * s->ws : s->ws;
		uint64_t until = now + (lanes + simd - 1) / simd;
		if (s->sched_busy_until[sc] < until)
			s->sched_busy_until[sc] = until;
	}
	return true;
}

/* Can some warp of scheduler sc be ready now?  False only if none is. */
static bool sched_any_ready(const struct sm *s, uint32_t sc)
{
	uint64_t any = 0;
	for (uint32_t wd = 0, nwd = (s->nslots + 63) / 64; wd < nwd; wd++)
		any |= s->ready_bits[sc][wd];
	return any != 0;
}

/* The reasons both classifications below share (finished, barrier, no
 * decoded head): true with *r set, false when the head is decoded. */
static bool front_reason(const struct sm *s, uint32_t slot, uint64_t now, enum stall *r)
{
	const struct sm_warp *w = &s->w[slot];
	if (w->finished)
		*r = ST_EXIT;
	else if (w->at_barrier)
		*r = ST_BARRIER;
	else if (!w->ib_count)
		*r = w->ctrl_pending ? ST_CONTROL : ST_FETCH;
	else if (w->ib_head_ready > now)
		*r = ST_FETCH;
	else
		return false;
	return true;
}

static enum stall warp_reason(struct sm *s, uint32_t slot, uint64_t now)
{
	struct sm_warp *w = &s->w[slot];
	enum stall r;
	if (front_reason(s, slot, now, &r))
		return r;
	if (s->dwr && !dwr_ready(s->dwr, slot, now))
		return ST_BARRIER; /* at a DWR partner barrier */
	if (s->dwr && dwr_is_lat(w->ib[w->ib_head].d) && !sco_ready(s, slot, now))
		return ST_DATA; /* its large warp waits for a partner's operands */
	/* the scoreboard test of this head, as of the last view refresh: the
	 * scoreboard and the head only change with events that mark the warp
	 * dirty -- except the store acknowledgements a fence waits for */
	bool ok = w->head_sb_ok;
	if (w->head_fence)
		ok = head_ready_sb(s, w, w->ib[w->ib_head].d, &(bool){0});
	return ok ? ST_STRUCT : ST_DATA;
}

/* warp_reason() of a warp at its view refresh, for sm.stall_at: what it
 * reads changes only with the events that mark the warp dirty -- the
 * decode latency expiring included (head_at) -- and with fetch resolving
 * the control hazard (sm_issue_ctrl_resolved); a fence head (store
 * acknowledgements) and DWR (partner state) are evaluated each time. */
static uint8_t stall_at_refresh(const struct sm *s, uint32_t slot, uint64_t now)
{
	const struct sm_warp *w = &s->w[slot];
	enum stall r;
	if (front_reason(s, slot, now, &r))
		return (uint8_t)r;
	if (s->dwr || w->head_fence)
		return ST_NOW;
	return w->head_sb_ok ? ST_STRUCT : ST_DATA;
}

void sm_issue_ctrl_resolved(struct sm *s, uint32_t slot)
{
	if (s->stall_at[slot] == ST_CONTROL) {
		s->stall_at[slot] = ST_FETCH;
		s->issue_same = false; /* a reason changed without a dirty mark */
	}
}

/* Would the I-buffer head of warp `slot` pass the issue checks now
 * (decoded, not at a barrier, scoreboard clear)?  Used for the second
 * instruction of a dual issue, after the first changed the warp. */
static bool head_issuable(struct sm *s, uint32_t slot, uint64_t now)
{
	struct sm_warp *w = &s->w[slot];
	return w->ib_count && w->ib[w->ib_head].ready <= now && !w->at_barrier && !w->finished &&
	       head_ready_sb(s, w, w->ib[w->ib_head].d, &(bool){0}) && (!s->dwr || dwr_ready(s->dwr, slot, now));
}

static uint32_t head_cu(const struct sm *s, uint32_t slot)
{
	const struct sm_warp *w = &s->w[slot];
	const struct dec_insn *d = w->ib_count ? w->ib[w->ib_head].d : NULL;
	return d ? d->cu : UNIT_SP;
}

/* Issue from warp `slot` (ready, checked by the caller) through scheduler
 * sc: its head, then -- GPGPU-Sim's dual issue -- up to `per` instructions
 * in all, each the warp's next one and each to a unit type not used yet in
 * this cycle by this warp, while the next one is issuable and sc has a free
 * collector for it.  Returns how many issued; -1 on a functional error. */
static int issue_warp(struct sm *s, uint32_t sc, uint32_t slot, uint32_t per, uint64_t now)
{
	uint32_t used = 0;
	int n = 0;
	while ((uint32_t)n < per) {
		if (n && !head_issuable(s, slot, now))
			break;
		uint32_t cu = head_cu(s, slot);
		if (used & (1u << cu))
			break; /* dual issue goes to different units */
		if (s->dwr && dwr_is_lat(s->w[slot].ib[s->w[slot].ib_head].d) && !sco_ready(s, slot, now))
			break; /* its large warp waits for a partner's operands */
		struct sm_collector *c = sm_collector_free(s, sc, cu);
		if (!c)
			break;
		if (!issue_head(s, sc, slot, c, now))
			return -1;
		used |= 1u << cu;
		n++;
	}
	if (n) /* not again this cycle (the view is refreshed next cycle: the warp is dirty) */
		set_ready(s, slot, false);
	return n;
}

/* KAWS warp sharing, for scheduler sc that issued nothing of its own this
 * cycle: the warp-sharing control unit (src/sched/warp_sharing.c) picks the
 * oldest ready warp of another scheduler that sc can take.  Returns 1 if it
 * issued one, 0 if none qualified, -1 on a functional error. */
static int share_issue(struct sm *s, uint32_t sc, uint64_t now)
{
	uint32_t slot = sched_share_pick(&s->view, s->coll_now, sc);
	if (slot == UINT32_MAX)
		return 0;
	if (s->dwr && dwr_is_lat(s->w[slot].ib[s->w[slot].ib_head].d) && !sco_ready(s, slot, now))
		return 0;
	struct sm_collector *c = sm_collector_free(s, sc, head_cu(s, slot));
	if (!c || !issue_head(s, sc, slot, c, now))
		return c ? -1 : 0;
	set_ready(s, slot, false); /* issued this cycle */
	s->stats->v[STAT_warp_sharing_issues]++;
	return 1;
}

/* Can warp `slot` issue through scheduler sc as far as its published flags
 * and the policy's holds say (sm_warp_publish: the walk touches no struct
 * sm_warp until a warp issues)? */
static inline bool walk_ok(const struct sm *s, uint32_t sc, uint32_t slot)
{
	const struct sched_warp *v = &s->vw[slot];
	return v->sched_id == sc && v->valid && !v->finished && !v->at_barrier && v->ready && !s->held[slot];
}

/* Scheduler sc's walk over the policy's order s->order[0..n): issue from the
 * first ordered warp that walk_ok() lets through and that has a free operand
 * collector for its head's unit (coll_now, kept current; head_unit as of
 * its refresh, which every change of the head marks dirty; with DWR every
 * such warp is tried).  *quiet becomes false when such a warp was found,
 * whether or not it had a collector, and *coll_wait when issue_warp was
 * tried.  The walk passes over the warps outside a bitmap cheaply: `rdy`,
 * a superset of those walk_ok() lets through (ready_bits less held_bits);
 * at the first of them without a free collector (*quiet is false from
 * then on), `can`, those of `rdy` whose head's unit has a free collector
 * (unit_bits), and it stops when that is empty.  Returns how many
 * instructions issued; -1 on a functional error. */
static int issue_walk(struct sm *s, uint32_t sc, uint32_t n, uint32_t per, uint64_t now, bool *quiet,
		      bool *coll_wait)
{
	uint64_t rdy[SM_MAX_SLOTS / 64], can[SM_MAX_SLOTS / 64], any = 0;
	uint32_t nwd = (s->nslots + 63) / 64;
	for (uint32_t wd = 0; wd < nwd; wd++)
		any |= rdy[wd] = s->ready_bits[sc][wd] & ~s->held_bits[wd];
	const uint64_t *mask = rdy;
	const uint8_t *free = s->coll_now + sc * UNIT_COUNT;
	for (uint32_t k = 0; any && k < n; k++) {
		uint32_t slot = s->order[k];
		if (slot >= s->nslots || !(mask[slot >> 6] >> (slot & 63) & 1) || !walk_ok(s, sc, slot))
			continue;
		if (!s->dwr && !free[s->vw[slot].head_unit]) {
			*quiet = false; /* a ready warp waits (sm_issue_tick) */
			if (mask == rdy) { /* from here on only `can` may issue */
				any = 0;
				for (uint32_t wd = 0; wd < nwd; wd++) {
					uint64_t units = 0;
					for (uint32_t u = 0; u < UNIT_COUNT; u++)
						if (free[u])
							units |= s->unit_bits[u][wd];
					any |= can[wd] = rdy[wd] & units;
				}
				mask = can;
			}
			continue;
		}
		int issued = issue_warp(s, sc, slot, per, now);
		*quiet = *coll_wait = false; /* issued, or a ready warp waits for something a repeat might not */
		if (issued)
			return issued;
	}
	return 0;
}

bool sm_issue_tick(struct sm *s, uint64_t now)
{
	s->ncyc_stat = 0; /* the per-cycle counters of this tick (sm_count_cycle) */
	s->cyc_full = false;
	s->view.cycle = now;
	if (s->dwr) /* partner-barrier operations of sub-warps that reached a LAT */
		dwr_tick(s->dwr, now);
	/* operand-collector status at the start of the issue stage (view.coll_free).
	 * coll_now is kept current: collect() takes a collector, the dispatch
	 * stage (opcoll.c) gives it back; with no collector busy every one is
	 * free, which also sets the counts up on the first cycle. */
	uint32_t ngroups = s->nsched * UNIT_COUNT;
	if (!s->busy_coll)
		memcpy(s->coll_now, s->coll_init, ngroups);
	memcpy(s->coll_free, s->coll_now, ngroups);
	/* refresh the per-warp view fields the policies read, for the live warps
	 * marked dirty (sm_warp_mark_dirty) and those whose I-buffer head's
	 * decode latency expires now, without any event (head_at: ib_head_ready
	 * as of the warp's last refresh; it changes only with a dirty mark) */
	if (s->head_next_at <= now) {
		/* mark the warps whose head_at is now, and find the next head_at
		 * after now (the refresh below lowers it for a refreshed warp) */
		uint64_t next = UINT64_MAX;
		for (uint32_t k = 0; k < s->nlive; k++) {
			uint32_t i = s->live[k];
			uint64_t at = s->head_at[i];
			if (at == now)
				sm_warp_mark_dirty(s, i);
			else if (at > now && at < next)
				next = at;
		}
		s->head_next_at = next;
	}
	for (uint32_t wd = 0, nwd = (s->nslots + 63) / 64; wd < nwd; wd++) {
		uint64_t bits = s->dirty_bits[wd];
		s->dirty_bits[wd] = 0;
		s->fetch_dirty[wd] |= bits; /* the fetch stage rechecks them too */
		for (; bits; bits &= bits - 1) {
			uint32_t i = wd * 64 + (uint32_t)__builtin_ctzll(bits);
			struct sched_warp *v = &s->vw[i];
			struct sm_warp *w = &s->w[i];
			if (!w->valid) /* only live warps (a slot freed since it was marked) */
				continue;
			s->head_at[i] = w->ib_head_ready;
			if (w->ib_head_ready > now && w->ib_head_ready < s->head_next_at)
				s->head_next_at = w->ib_head_ready;
			v->ibuf_count = w->ib_count;
			v->ibuf_head_valid = w->ib_head_ready <= now;
			bool ll = false;
			const struct dec_insn *hd = w->ib_count ? w->ib[w->ib_head].d : NULL;
			uint8_t unit = (uint8_t)(hd ? hd->cu : UNIT_SP);
			if (unit != v->head_unit) { /* sm.unit_bits follows it */
				s->unit_bits[v->head_unit][wd] &= ~(1ull << (i & 63));
				s->unit_bits[unit][wd] |= 1ull << (i & 63);
				v->head_unit = unit;
			}
			w->head_sb_ok = w->ib_count && head_ready_sb(s, w, hd, &ll);
			w->head_fence = hd && (hd->in->op == OP_MEMBAR || hd->in->op == OP_FENCE);
			bool eval = v->ibuf_head_valid && !w->at_barrier;
			set_ready(s, i, eval && w->head_sb_ok && (!s->dwr || dwr_ready(s->dwr, i, now)));
			v->long_latency_wait = eval && ll;
			v->partner_wait = s->dwr && dwr_waiting(s->dwr, i, now);
			if (v->ready)
				sm_prefetch_step(s, w, hd);
			s->stall_at[i] = stall_at_refresh(s, i, now);
			/* the warp's state changed only now: a run of stall cycles ends or starts here */
			stall_run_end(v, now);
			if (eval && !w->finished)
				v->stall_since = now;
		}
	}
	uint32_t per = (uint32_t)cfg_int(s->cfg, CFG_issue_per_sched);
	bool any_issued = false;
	enum stall sm_worst = ST_IDLE;
	/* issue_rotate: scheduler priority rotates every cycle (GPGPU-Sim's
	 * Issue_Prio): the first scheduler to pick units and banks changes */
	uint32_t first = cfg_int(s->cfg, CFG_issue_rotate) ? (uint32_t)(now % s->nsched) : 0;
	bool passes = cfg_int(s->cfg, CFG_issue_simd_passes) != 0;
	/* for sleeping (sm_next_event): did anything issue or could it, and the
	 * schedulers whose policy on_cycle ran (the per-cycle counters a repeat
	 * of this cycle would increment are recorded by sm_count_cycle) */
	bool quiet = true;
	/* ...and was it quiet but for ready warps without a free collector
	 * (they stay so while the collectors cannot dispatch: sm_next_event) */
	bool coll_wait = true;
	s->cyc_sched = 0;
	for (uint32_t r = 0; r < s->nsched; r++) {
		uint32_t sc = (first + r) % s->nsched;
		if (passes && s->sched_busy_until[sc] > now) { /* still issuing the last warp's sub-warps */
			sm_count_cycle(s, STAT_issue_cycles);
			any_issued = true;
			continue;
		}
		if (s->pol->on_cycle) {
			s->pol->on_cycle(s->pol_st, &s->view, sc);
			s->cyc_sched |= (uint8_t)(1u << sc);
		}
		uint32_t n = s->pol->order(s->pol_st, &s->view, sc, s->order);
		int issued = 0;
		/* one warp per scheduler per cycle: the first in the policy's
		 * order that can issue, with up to `per` of its instructions
		 * (no walk when none of the scheduler's warps can) */
		if (sched_any_ready(s, sc)) {
			issued = issue_walk(s, sc, n, per, now, &quiet, &coll_wait);
			if (issued < 0)
				return false;
		}
		if (!issued && s->share) {
			issued = share_issue(s, sc, now);
			if (issued < 0)
				return false;
		}
		if (issued) {
			quiet = false;
			sm_count_cycle(s, STAT_issue_cycles);
			if (issued > 1)
				sm_count_cycle(s, STAT_dual_issue_cycles);
			any_issued = true;
			continue;
		}
		/* nothing issued: classify over the warps the loop walked (the
		 * state is unchanged since, as nothing issued) */
		enum stall best = ST_IDLE;
		for (uint32_t k = 0; k < n && best != ST_STRUCT; k++) {
			uint32_t slot = s->order[k];
			if (slot >= s->nslots || s->vw[slot].sched_id != sc || !s->vw[slot].valid)
				continue;
			/* the reason cached at the refresh, unless the warp changed
			 * since (dirty again) or it must be evaluated now */
			uint8_t at = s->stall_at[slot];
			enum stall r = at == ST_NOW || (s->dirty_bits[slot >> 6] >> (slot & 63) & 1) ? warp_reason(s, slot, now)
												    : (enum stall)at;
			if (r == ST_STRUCT && s->held[slot])
				r = ST_HELD;
			if (r > best)
				best = r;
		}
		if (best == ST_IDLE)
			for (uint32_t k = 0; k < s->nlive; k++) {
				uint32_t i = s->live[k];
				if (s->vw[i].sched_id == sc && s->vw[i].finished) {
					best = ST_EXIT;
					break;
				}
			}
		sm_count_cycle(s, stall_stat[best]);
		if (best > sm_worst)
			sm_worst = best;
	}
	/* KAWS Fig. 6: an SM cycle without any issue, by its worst stall */
	if (!any_issued) {
		enum stat_core_id in = sm_worst >= ST_HELD   ? STAT_sm_inactive_pipeline
				       : sm_worst == ST_DATA ? STAT_sm_inactive_scoreboard
							     : STAT_sm_inactive_idle;
		sm_count_cycle(s, in);
	}
	s->issue_quiet = quiet;
	s->issue_coll_wait = !quiet && coll_wait && !s->share;
	/* the next ticks may repeat this one (sm_issue_repeats) on sleep's
	 * terms: a sleep-safe policy; not DWR (partner timers each cycle) or
	 * warp sharing (it reads the collectors, which change meanwhile); one
	 * whose ready warps waited for a collector until a collector is freed
	 * (coll_release) */
	s->issue_same = (quiet || s->issue_coll_wait) && s->sleep_ok && !s->cyc_full && !s->dwr && !s->share;
	return true;
}

bool sm_issue_repeats(const struct sm *s, uint64_t now)
{
	if (!s->issue_same || now >= s->head_next_at)
		return false;
	for (uint32_t wd = 0, nwd = (s->nslots + 63) / 64; wd < nwd; wd++)
		if (s->dirty_bits[wd])
			return false;
	/* a scheduler's SIMD passes end now: it counted issue cycles until now */
	for (uint32_t sc = 0; sc < s->nsched; sc++)
		if (s->sched_busy_until[sc] == now)
			return false;
	const struct sched_timers *tm = s->pol->timers;
	return !tm || !tm->next_event || tm->next_event(s->pol_st, &s->view) > now;
}

void sm_issue_repeat(struct sm *s, uint64_t now)
{
	s->view.cycle = now;
	for (uint32_t i = 0; i < s->ncyc_stat; i++)
		s->stats->v[s->cyc_stat[i]]++;
	const struct sched_timers *tm = s->pol->timers;
	if (tm && tm->skip)
		for (uint32_t sc = 0; sc < s->nsched; sc++)
			if (s->cyc_sched >> sc & 1)
				tm->skip(s->pol_st, &s->view, sc, 1);
}
