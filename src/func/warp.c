/*
 * warp.c -- one SIMT warp: instruction dispatch (through func_ops, op.h),
 * the reconvergence stack, control flow (bra, brx, call, ret, exit, trap)
 * and CTA barriers.
 *
 * Models the pre-Volta SIMT stack of NVIDIA GPUs as GPGPU-Sim does: on a
 * divergent branch the current entry's pc becomes the reconvergence point
 * (the branch's immediate post-dominator), and one entry per path is
 * pushed; an entry is popped when its pc reaches its reconvergence pc or
 * its mask becomes empty.  The taken path runs first.  `call` pushes a call
 * entry with a fresh register frame and local-memory frame (an indirect call
 * whose threads hold different targets first splits into one entry per
 * target, each of which makes the call in turn); `ret` removes
 * the returning threads from every entry of the callee; `exit` removes the
 * exiting threads from every entry.  Exited warps never block a barrier.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "func/devrt.h"
#include "func/func.h"
#include "func/op.h"
#include "func/operand.h"
#include "stats/counters.h"

static inline unsigned popc64(uint64_t m) { return func_popc64(m); }

int32_t func_warp_pc(const struct func_warp *w, int32_t *fn)
{
	if (w->sp == 0) {
		if (fn)
			*fn = -1;
		return -1;
	}
	if (fn)
		*fn = w->stack[w->sp - 1].fn;
	return w->stack[w->sp - 1].pc;
}

int32_t func_warp_where(const struct func_warp *w, int32_t *fn)
{
	if (w->wait == WAIT_BARRIER) {
		if (fn)
			*fn = w->bar_fn;
		return w->bar_pc;
	}
	return func_warp_pc(w, fn);
}

void func_insn_describe(const struct func_launch *L, int32_t fn, int32_t pc, char *buf, size_t bufsz)
{
	char text[160] = "";
	uint32_t line = 0;
	const char *fname = "?";
	if (fn >= 0) {
		const struct ptx_function *f = &L->mod->funcs[fn];
		fname = f->name;
		if (pc >= 0 && (uint32_t)pc < f->ninsns) {
			line = f->insns[pc].line;
			ptx_insn_format(L->mod, f, &f->insns[pc], text, sizeof text);
		}
	}
	snprintf(buf, bufsz, "%s pc %d (line %u: %s)", fname, pc, line, text);
}

void func_warp_describe(const struct func_launch *L, const struct func_cta *c, const struct func_warp *w, char *buf,
			size_t bufsz)
{
	int32_t fn;
	int32_t pc = func_warp_where(w, &fn);
	char where[256];
	func_insn_describe(L, fn, pc, where, sizeof where);
	const char *why = w->wait == WAIT_BARRIER ? "waiting at barrier" : w->wait == WAIT_EXITED ? "exited" : "ready";
	char barinfo[128] = "";
	if (w->wait == WAIT_BARRIER) {
		const struct func_barrier *b = &c->bar[w->bar_id];
		if (b->expected)
			snprintf(barinfo, sizeof barinfo, " %u (%u of %u warps arrived: the barrier expects %u threads)",
				 w->bar_id, b->arrived_warps, (b->expected + L->ws - 1) / L->ws, b->expected);
		else
			snprintf(barinfo, sizeof barinfo, " %u (%u of %u warps arrived)", w->bar_id, b->arrived_warps,
				 c->live_warps);
	}
	snprintf(buf, bufsz, "CTA (%u,%u,%u) warp %u: %s%s at %s, active mask 0x%llx", c->id[0], c->id[1], c->id[2],
		 w->index, why, barinfo, where, w->sp ? (unsigned long long)w->stack[w->sp - 1].mask : 0ull);
}

bool func_fail(struct func_launch *L, struct func_cta *c, struct func_warp *w, int lane, ws_result r,
	       const char *fmt, ...)
{
	if (L->err != WS_SUCCESS)
		return false;
	char detail[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(detail, sizeof detail, fmt, ap);
	va_end(ap);
	L->err = r;
	int32_t fn;
	int32_t pc = func_warp_pc(w, &fn);
	const struct ptx_function *f = fn >= 0 ? &L->mod->funcs[fn] : L->kernel;
	uint32_t line = (pc >= 0 && (uint32_t)pc < f->ninsns) ? f->insns[pc].line : 0;
	char text[160] = "";
	if (pc >= 0 && (uint32_t)pc < f->ninsns)
		ptx_insn_format(L->mod, f, &f->insns[pc], text, sizeof text);
	char thread[96] = "";
	if (lane >= 0) {
		uint32_t t = w->index * L->ws + (uint32_t)lane;
		snprintf(thread, sizeof thread, " thread (%u,%u,%u)", t % L->block[0], (t / L->block[0]) % L->block[1],
			 t / (L->block[0] * L->block[1]));
	}
	snprintf(L->errmsg, sizeof L->errmsg, "%s: kernel %s, CTA (%u,%u,%u)%s, warp %u, %s pc %d, %s:%u: '%s'",
		 detail, L->kernel->name, c->id[0], c->id[1], c->id[2], thread, w->index, f->name, pc,
		 L->mod->filename ? L->mod->filename : "<ptx>", line, text);
	return false;
}

/* ---- CTA / warp creation ---- */

static bool ensure_regs(struct func_warp *w, size_t need)
{
	if (need <= w->regs_cap)
		return true;
	size_t nc = w->regs_cap ? w->regs_cap : 256;
	while (nc < need)
		nc *= 2;
	uint64_t *n = realloc(w->regs, nc * sizeof *n);
	if (!n)
		return false;
	memset(n + w->regs_cap, 0, (nc - w->regs_cap) * sizeof *n);
	w->regs = n;
	w->regs_cap = nc;
	return true;
}

static bool ensure_local(struct func_warp *w, unsigned ws, uint64_t need)
{
	if (need <= w->local_cap)
		return true;
	uint64_t nc = w->local_cap ? w->local_cap : 64;
	while (nc < need)
		nc *= 2;
	if (nc > (1ull << 24)) /* 16 MiB per thread: deep recursion */
		return false;
	uint8_t *n = calloc(ws, nc);
	if (!n)
		return false;
	for (unsigned l = 0; l < ws && w->local; l++)
		memcpy(n + l * nc, w->local + l * w->local_cap, w->local_cap);
	free(w->local);
	w->local = n;
	w->local_cap = nc;
	return true;
}

static bool stack_push(struct func_warp *w, struct simt_entry e)
{
	if (w->sp == w->stack_cap) {
		uint32_t nc = w->stack_cap ? w->stack_cap * 2 : 8;
		if (nc > (1u << 20))
			return false;
		struct simt_entry *n = realloc(w->stack, nc * sizeof *n);
		if (!n)
			return false;
		w->stack = n;
		w->stack_cap = nc;
	}
	w->stack[w->sp++] = e;
	return true;
}

struct func_cta *func_cta_create(struct func_launch *L, uint32_t linear, uint32_t slot, uint32_t sm)
{
	struct func_cta *c = calloc(1, sizeof *c);
	if (!c)
		return NULL;
	c->linear = linear;
	c->id[0] = linear % L->grid[0];
	c->id[1] = (linear / L->grid[0]) % L->grid[1];
	c->id[2] = linear / (L->grid[0] * L->grid[1]);
	c->slot = slot;
	c->sm = sm;
	c->shared_size = L->shared_total;
	c->shared = calloc(1, L->shared_total ? L->shared_total : 1);
	c->nwarps = L->warps_per_cta;
	c->warps = calloc(c->nwarps, sizeof *c->warps);
	if (!c->shared || !c->warps) {
		func_cta_destroy(c);
		return NULL;
	}
	const struct ptx_function *k = L->kernel;
	for (uint32_t i = 0; i < c->nwarps; i++) {
		struct func_warp *w = &c->warps[i];
		w->index = i;
		uint32_t first = i * L->ws;
		uint32_t n = L->threads_per_cta - first < L->ws ? L->threads_per_cta - first : L->ws;
		w->valid = n >= 64 ? ~0ull : (1ull << n) - 1;
		w->bar_red_dst = -1;
		if (!ensure_regs(w, (size_t)k->nregs * L->ws + 1) || !ensure_local(w, L->ws, k->frame_size + 16) ||
		    !stack_push(w, (struct simt_entry){.pc = 0, .rpc = PTX_PC_EXIT, .mask = w->valid,
						       .fn = L->kernel_index, .reg_off = 0, .local_base = 0})) {
			func_cta_destroy(c);
			return NULL;
		}
		c->live_warps++;
	}
	return c;
}

void func_cta_destroy(struct func_cta *c)
{
	if (!c)
		return;
	for (uint32_t i = 0; c->warps && i < c->nwarps; i++) {
		free(c->warps[i].stack);
		free(c->warps[i].regs);
		free(c->warps[i].local);
	}
	free(c->warps);
	free(c->shared);
	free(c);
}

/* ---- barriers ---- */

static void barrier_release_check(struct func_launch *L, struct func_cta *c, unsigned id)
{
	struct func_barrier *b = &c->bar[id];
	if (b->arrived_warps == 0)
		return;
	uint32_t need = b->expected ? (b->expected + L->ws - 1) / L->ws : c->live_warps;
	if (b->arrived_warps < need)
		return;
	uint64_t result_u = b->red_op == AOP_POPC ? b->red_popc : b->red_op == AOP_AND ? b->red_and : b->red_or;
	for (uint32_t i = 0; i < c->nwarps; i++) {
		struct func_warp *w = &c->warps[i];
		if (w->wait != WAIT_BARRIER || w->bar_id != id)
			continue;
		w->wait = WAIT_NONE;
		if (w->bar_red_dst >= 0) {
			uint64_t *d = w->regs + w->bar_red_reg_off + (size_t)w->bar_red_dst * L->ws;
			for (uint64_t m = w->bar_red_mask; m; m &= m - 1)
				d[__builtin_ctzll(m)] = func_trunc(result_u, (enum ptx_type)w->bar_red_type);
			w->bar_red_dst = -1;
		}
	}
	memset(b, 0, sizeof *b);
	b->red_and = 1;
	L->stats->v[STAT_barriers]++;
}

/* A warp lost all its threads: it no longer counts for barriers. */
static void warp_finished(struct func_launch *L, struct func_cta *c, struct func_warp *w)
{
	w->wait = WAIT_EXITED;
	w->sp = 0;
	c->live_warps--;
	for (unsigned id = 0; id < FUNC_MAX_BARRIERS; id++)
		barrier_release_check(L, c, id);
}

static const uint64_t *src_vals(const struct func_exec *x, const struct ptx_operand *o, uint64_t *tmp)
{
	return func_src(x, o, tmp);
}

static uint64_t first_lane_value(const struct func_exec *x, const struct ptx_operand *o, uint64_t mask)
{
	if (o->kind == OPD_IMM) /* bar.sync 0: no copy per lane */
		return o->imm;
	uint64_t tmp[WS_MAX_WARP];
	const uint64_t *v = src_vals(x, o, tmp);
	return v[mask ? __builtin_ctzll(mask) : 0];
}

static bool exec_barrier(struct func_launch *L, struct func_cta *c, struct func_warp *w, const struct func_exec *x,
			 const struct ptx_insn *in, uint64_t active, uint64_t exec, struct func_step_info *info)
{
	if (in->mode == MODE_WARP_SYNC)
		return true;
	if (exec == 0)
		return true;
	/* operands: bar.sync a{, b}; bar.arrive a, b; bar.red.op d, a{, b}, {!}c */
	unsigned first = in->mode == MODE_RED ? 1 : 0;
	uint64_t id = first_lane_value(x, &in->opd[first], exec);
	if (id >= FUNC_MAX_BARRIERS)
		return func_fail(L, c, w, -1, WS_ERROR_ILLEGAL_INSTRUCTION, "barrier id %llu out of range 0..%d",
				 (unsigned long long)id, FUNC_MAX_BARRIERS - 1);
	uint64_t count = 0;
	unsigned nsrc = in->nopd - first - (in->mode == MODE_RED ? 1 : 0);
	if (nsrc >= 2) {
		count = first_lane_value(x, &in->opd[first + 1], exec);
		if (count == 0 || count % L->ws != 0)
			return func_fail(L, c, w, -1, WS_ERROR_ILLEGAL_INSTRUCTION,
					 "barrier thread count %llu is not a positive multiple of the warp size %u",
					 (unsigned long long)count, L->ws);
	}
	struct func_barrier *b = &c->bar[id];
	if (b->arrived_warps == 0) {
		b->red_and = 1;
		b->red_or = 0;
		b->red_popc = 0;
	}
	b->arrived_warps++;
	if (count)
		b->expected = (uint32_t)count;
	if (in->mode == MODE_RED) {
		uint64_t tmp[WS_MAX_WARP];
		const uint64_t *p = src_vals(x, &in->opd[in->nopd - 1], tmp);
		for (uint64_t m = exec; m; m &= m - 1) {
			unsigned l = __builtin_ctzll(m);
			unsigned v = p[l] != 0;
			b->red_popc += v;
			b->red_and &= v;
			b->red_or |= v;
		}
		b->red_op = in->atomop;
		w->bar_red_dst = in->opd[0].kind == OPD_REG ? in->opd[0].reg : -1;
		w->bar_red_reg_off = (uint32_t)(x->regs - w->regs);
		w->bar_red_type = in->type;
		w->bar_red_mask = exec;
	}
	if (in->mode != MODE_ARRIVE) {
		w->wait = WAIT_BARRIER;
		w->bar_id = (uint8_t)id;
		w->bar_fn = w->stack[w->sp - 1].fn;
		w->bar_pc = (int32_t)(in - L->mod->funcs[w->bar_fn].insns);
		info->barrier_wait = true;
	}
	barrier_release_check(L, c, (unsigned)id);
	return true;
}

/* ---- control flow ---- */

/* Remove `lanes` from the top entries down to (and including) the nearest call entry. */
static void remove_from_frame(struct func_warp *w, uint64_t lanes)
{
	for (uint32_t i = w->sp; i-- > 0;) {
		w->stack[i].mask &= ~lanes;
		if (w->stack[i].is_call)
			break;
	}
}

static void finish_call(struct func_launch *L, struct func_warp *w)
{
	/* top is a call entry whose threads all returned (or exited) */
	struct simt_entry *ce = &w->stack[w->sp - 1];
	struct simt_entry *caller = &w->stack[w->sp - 2];
	uint64_t lanes = ce->call_mask & ~w->exited;
	const struct ptx_function *cf = &L->mod->funcs[caller->fn];
	const struct ptx_function *callee = &L->mod->funcs[ce->fn];
	const struct ptx_insn *in = &cf->insns[ce->call_pc];
	const struct ptx_operand *rets = &in->opd[0];
	for (uint32_t i = 0; i < rets->nlist && i < callee->nrets; i++) {
		const struct ptx_var *sv = &L->mod->vars[callee->rets[i]];
		if (PTX_LIST_IS_REG(rets->list[i]) || sv->is_reg) { /* register results */
			if (!PTX_LIST_IS_REG(rets->list[i]) || !sv->is_reg || sv->reg < 0)
				continue; /* mismatched: refused by the load-time check (direct) or the call (indirect) */
			const uint64_t *src = w->regs + ce->reg_off + (size_t)sv->reg * L->ws;
			uint64_t *dst = w->regs + caller->reg_off + (size_t)PTX_LIST_REG(rets->list[i]) * L->ws;
			for (uint64_t m = lanes; m; m &= m - 1)
				dst[__builtin_ctzll(m)] = src[__builtin_ctzll(m)];
			continue;
		}
		const struct ptx_var *dv = &L->mod->vars[rets->list[i]];
		uint64_t n = dv->size < sv->size ? dv->size : sv->size;
		for (uint64_t m = lanes; m; m &= m - 1) {
			unsigned l = __builtin_ctzll(m);
			uint8_t *base = w->local + (uint64_t)l * w->local_cap;
			memcpy(base + caller->local_base + dv->addr, base + ce->local_base + sv->addr, n);
		}
	}
}

/* Pop finished entries: empty masks (all threads returned/exited) and reconverged paths. */
static void settle(struct func_launch *L, struct func_warp *w)
{
	while (w->sp) {
		struct simt_entry *t = &w->stack[w->sp - 1];
		if (t->mask == 0) {
			if (t->is_call && w->sp >= 2)
				finish_call(L, w);
			w->sp--;
			continue;
		}
		if (t->pc == t->rpc && t->rpc != PTX_PC_EXIT) {
			w->sp--;
			continue;
		}
		break;
	}
}

static bool do_exit(struct func_launch *L, struct func_cta *c, struct func_warp *w, uint64_t lanes)
{
	w->exited |= lanes;
	for (uint32_t i = 0; i < w->sp; i++)
		w->stack[i].mask &= ~lanes;
	return true;
}

static bool do_ret(struct func_launch *L, struct func_cta *c, struct func_warp *w, uint64_t lanes)
{
	/* ret from the kernel itself is exit */
	bool in_call = false;
	for (uint32_t i = w->sp; i-- > 0;)
		if (w->stack[i].is_call) {
			in_call = true;
			break;
		}
	if (!in_call)
		return do_exit(L, c, w, lanes);
	remove_from_frame(w, lanes);
	return true;
}

static bool exec_branch(struct func_launch *L, struct func_cta *c, struct func_warp *w, const struct func_exec *x,
			const struct ptx_insn *in, uint64_t active, uint64_t exec, struct func_step_info *info)
{
	struct simt_entry *e = &w->stack[w->sp - 1];
	int32_t pc = e->pc;
	if (in->op == OP_BRA) {
		int32_t target = in->opd[0].target;
		if (exec == active) {
			e->pc = target;
			return true;
		}
		if (exec == 0) {
			e->pc = pc + 1;
			return true;
		}
		/* divergence */
		L->stats->v[STAT_divergent_branches]++;
		info->diverged = true;
		struct simt_entry base = *e;
		e->pc = in->reconv;
		struct simt_entry nt = base, tk = base;
		nt.is_call = 0;
		tk.is_call = 0;
		nt.pc = pc + 1;
		nt.rpc = in->reconv;
		nt.mask = active & ~exec;
		tk.pc = target;
		tk.rpc = in->reconv;
		tk.mask = exec;
		if (!stack_push(w, nt) || !stack_push(w, tk))
			return func_fail(L, c, w, -1, WS_ERROR_OUT_OF_MEMORY, "SIMT stack overflow");
		return true;
	}
	/* brx.idx index, table: per-lane targets */
	const struct ptx_operand *tab = &in->opd[1];
	uint64_t tmp[WS_MAX_WARP];
	const uint64_t *idx = src_vals(x, &in->opd[0], tmp);
	if (exec == 0) {
		e->pc = pc + 1;
		return true;
	}
	for (uint64_t m = exec; m; m &= m - 1) {
		unsigned l = __builtin_ctzll(m);
		if ((idx[l] & 0xffffffffu) >= tab->nlist)
			return func_fail(L, c, w, (int)l, WS_ERROR_ILLEGAL_INSTRUCTION,
					 "brx.idx index %llu out of range (table has %u targets)",
					 (unsigned long long)(idx[l] & 0xffffffffu), tab->nlist);
	}
	/* group lanes by table index; lanes not executing (guard false) fall through */
	uint64_t groups[WS_MAX_WARP];
	int32_t tgt[WS_MAX_WARP];
	unsigned ng = 0;
	for (uint64_t m = exec; m; m &= m - 1) {
		unsigned l = __builtin_ctzll(m);
		int32_t t = tab->list[idx[l] & 0xffffffffu];
		unsigned g;
		for (g = 0; g < ng && tgt[g] != t; g++)
			;
		if (g == ng) {
			tgt[ng] = t;
			groups[ng++] = 0;
		}
		groups[g] |= 1ull << l;
	}
	if (ng == 1 && exec == active) {
		e->pc = tgt[0];
		return true;
	}
	L->stats->v[STAT_divergent_branches]++;
	info->diverged = true;
	struct simt_entry base = *e;
	base.is_call = 0;
	base.rpc = in->reconv;
	e->pc = in->reconv;
	if (active & ~exec) {
		struct simt_entry nt = base;
		nt.pc = pc + 1;
		nt.mask = active & ~exec;
		if (!stack_push(w, nt))
			return func_fail(L, c, w, -1, WS_ERROR_OUT_OF_MEMORY, "SIMT stack overflow");
	}
	for (unsigned g = ng; g-- > 0;) { /* first group on top: runs first */
		struct simt_entry p = base;
		p.pc = tgt[g];
		p.mask = groups[g];
		if (!stack_push(w, p))
			return func_fail(L, c, w, -1, WS_ERROR_OUT_OF_MEMORY, "SIMT stack overflow");
	}
	return true;
}

/* An indirect call whose threads hold different targets: run each target in
 * turn, as hardware does (ptxas compiles it to a loop over the distinct
 * targets).  One SIMT entry per target, the lowest lane's first, re-executes
 * the call with that target's threads and pops when they are back after the
 * call (its reconvergence pc); the current entry waits there, so every
 * thread goes on together after the last target returns. */
static bool split_indirect_call(struct func_launch *L, struct func_cta *c, struct func_warp *w, const uint64_t *fp,
				uint64_t exec, struct func_step_info *info)
{
	uint64_t groups[WS_MAX_WARP];
	unsigned ng = 0;
	for (uint64_t rest = exec; rest;) {
		uint64_t v = fp[__builtin_ctzll(rest)], g = 0;
		for (uint64_t m = rest; m; m &= m - 1)
			if (fp[__builtin_ctzll(m)] == v)
				g |= m & -m;
		groups[ng++] = g;
		rest &= ~g;
	}
	struct simt_entry *e = &w->stack[w->sp - 1];
	struct simt_entry base = *e;
	base.is_call = 0;
	base.rpc = e->pc + 1;
	e->pc = base.rpc;
	info->diverged = true;
	for (unsigned g = ng; g-- > 0;) { /* the first target on top: runs first */
		struct simt_entry p = base;
		p.mask = groups[g];
		if (!stack_push(w, p))
			return func_fail(L, c, w, -1, WS_ERROR_OUT_OF_MEMORY, "SIMT stack overflow");
	}
	return true;
}

static bool exec_call(struct func_launch *L, struct func_cta *c, struct func_warp *w, const struct func_exec *x,
		      const struct ptx_insn *in, uint64_t exec, struct func_step_info *info)
{
	struct simt_entry *e = &w->stack[w->sp - 1];
	int32_t pc = e->pc; /* stays on the call until it succeeds, so that a fault names the call */
	if (exec == 0) {
		e->pc = pc + 1;
		return true;
	}
	int32_t callee = in->callee;
	if (in->opd[1].kind == OPD_REG) { /* indirect call through a function pointer */
		uint64_t tmp[WS_MAX_WARP];
		const uint64_t *fp = src_vals(x, &in->opd[1], tmp);
		uint64_t v0 = fp[__builtin_ctzll(exec)];
		for (uint64_t m = exec; m; m &= m - 1)
			if (fp[__builtin_ctzll(m)] != v0)
				return split_indirect_call(L, c, w, fp, exec, info);
		uint64_t idx = (v0 - WS_FUNC_WINDOW) / 16;
		if (v0 < WS_FUNC_WINDOW || idx >= L->mod->nfuncs || (v0 - WS_FUNC_WINDOW) % 16 ||
		    L->mod->funcs[idx].is_extern || L->mod->funcs[idx].is_entry)
			return func_fail(L, c, w, (int)__builtin_ctzll(exec), WS_ERROR_ILLEGAL_INSTRUCTION,
					 "indirect call to 0x%llx, which is not a device function",
					 (unsigned long long)v0);
		callee = (int32_t)idx;
	}
	const struct ptx_function *cf = &L->mod->funcs[e->fn];
	const struct ptx_function *f = &L->mod->funcs[callee];
	if (f->is_extern) { /* printf / assert: provided by the simulator */
		if (!func_is_builtin(f))
			return func_fail(L, c, w, -1, WS_ERROR_ILLEGAL_INSTRUCTION, "call to %s, which has no body", f->name);
		L->stats->v[STAT_calls]++;
		if (!func_call_builtin(L, c, w, in, f, exec))
			return false;
		w->stack[w->sp - 1].pc = pc + 1;
		return true;
	}
	if (in->opd[2].nlist != f->nparams || in->opd[0].nlist != f->nrets)
		return func_fail(L, c, w, -1, WS_ERROR_ILLEGAL_INSTRUCTION,
				 "call to %s passes %u arguments and %u return values; it takes %u and %u", f->name,
				 in->opd[2].nlist, in->opd[0].nlist, f->nparams, f->nrets);
	uint32_t reg_off = e->reg_off + cf->nregs * L->ws;
	uint64_t local_base = (e->local_base + cf->frame_size + 15) & ~15ull;
	uint64_t caller_local = e->local_base;
	if (w->sp > 4096)
		return func_fail(L, c, w, -1, WS_ERROR_LIMIT_EXCEEDED, "call depth exceeds 4096 (runaway recursion?)");
	if (!ensure_regs(w, reg_off + (size_t)f->nregs * L->ws + 1) ||
	    !ensure_local(w, L->ws, local_base + f->frame_size + 16))
		return func_fail(L, c, w, -1, WS_ERROR_OUT_OF_MEMORY, "out of memory for the call stack of %s", f->name);
	memset(w->regs + reg_off, 0, (size_t)f->nregs * L->ws * sizeof(uint64_t));
	for (uint32_t i = 0; i < f->nrets; i++) /* indirect calls are checked here */
		if (PTX_LIST_IS_REG(in->opd[0].list[i]) != (L->mod->vars[f->rets[i]].is_reg && L->mod->vars[f->rets[i]].reg >= 0))
			return func_fail(L, c, w, -1, WS_ERROR_ILLEGAL_INSTRUCTION,
					 "result %u of the call to %s: a register for a .param result or the reverse", i + 1,
					 f->name);
	/* pass arguments: caller's call-site params (or registers) -> callee's
	 * formal params (or register parameters) */
	for (uint32_t i = 0; i < f->nparams; i++) {
		int32_t a = in->opd[2].list[i];
		const struct ptx_var *dv = &L->mod->vars[f->params[i]];
		if (PTX_LIST_IS_REG(a) != (dv->is_reg && dv->reg >= 0))
			return func_fail(L, c, w, -1, WS_ERROR_ILLEGAL_INSTRUCTION,
					 "argument %u of the call to %s: a register for a .param parameter or the reverse",
					 i + 1, f->name);
		if (PTX_LIST_IS_REG(a)) {
			const uint64_t *src = w->regs + e->reg_off + (size_t)PTX_LIST_REG(a) * L->ws;
			uint64_t *dst = w->regs + reg_off + (size_t)dv->reg * L->ws;
			for (uint64_t m = exec; m; m &= m - 1)
				dst[__builtin_ctzll(m)] = src[__builtin_ctzll(m)];
			continue;
		}
		const struct ptx_var *sv = &L->mod->vars[a];
		uint64_t n = dv->size < sv->size ? dv->size : sv->size;
		for (uint64_t m = exec; m; m &= m - 1) {
			unsigned l = __builtin_ctzll(m);
			uint8_t *base = w->local + (uint64_t)l * w->local_cap;
			memcpy(base + local_base + dv->addr, base + caller_local + sv->addr, n);
		}
	}
	struct simt_entry ce = {.pc = 0, .rpc = PTX_PC_EXIT, .mask = exec, .fn = callee, .reg_off = reg_off,
				.local_base = local_base, .is_call = 1, .call_pc = pc, .call_mask = exec};
	e->pc = pc + 1; /* the caller resumes after the call */
	if (!stack_push(w, ce))
		return func_fail(L, c, w, -1, WS_ERROR_OUT_OF_MEMORY, "SIMT stack overflow");
	L->stats->v[STAT_calls]++;
	return true;
}

/* ---- handlers of control flow and barriers (op.h; opcodes.def's FUNC column) ---- */

static bool ctrl_check(const struct ptx_insn *in, char *why, size_t whysz) { return true; }

static bool step_branch(const struct func_step *s)
{
	s->L->stats->v[STAT_branches]++;
	return exec_branch(s->L, s->c, s->w, s->x, s->in, s->active, s->exec, s->info);
}

static bool step_call(const struct func_step *s)
{
	return exec_call(s->L, s->c, s->w, s->x, s->in, s->exec, s->info);
}

static bool step_bar(const struct func_step *s)
{
	/* checked before the pc moves on, so that a fault names the barrier */
	if (!exec_barrier(s->L, s->c, s->w, s->x, s->in, s->active, s->exec, s->info))
		return false;
	func_step_next(s);
	return true;
}

static bool step_ret(const struct func_step *s)
{
	func_step_next(s);
	do_ret(s->L, s->c, s->w, s->exec);
	return true;
}

static bool step_exit(const struct func_step *s)
{
	func_step_next(s);
	do_exit(s->L, s->c, s->w, s->exec);
	return true;
}

static bool step_trap(const struct func_step *s)
{
	struct func_launch *L = s->L;
	if (!s->exec) {
		func_step_next(s);
		return true;
	}
	/* the error names the trap itself */
	return func_fail(L, s->c, s->w, (int)__builtin_ctzll(s->exec), WS_ERROR_TRAP, "trap executed%s",
			 L->mod->uses_envreg && !L->grid_ws
				 ? " (the kernel reads %envreg, as cooperative groups' grid.sync() does, which "
				   "traps unless the kernel is launched cooperatively: cudaLaunchCooperativeKernel, "
				   "wsLaunchCooperativeKernel, warpsim exec --cooperative)"
				 : "");
}

/* membar, fence, nanosleep, brkpt, pmevent: no architectural effect in this model */
static bool step_nop(const struct func_step *s)
{
	func_step_next(s);
	return true;
}

const struct func_op func_op_branch = {.check = ctrl_check, .step = step_branch};
const struct func_op func_op_call = {.check = ctrl_check, .step = step_call};
const struct func_op func_op_bar = {.check = ctrl_check, .step = step_bar};
const struct func_op func_op_ret = {.check = ctrl_check, .step = step_ret};
const struct func_op func_op_exit = {.check = ctrl_check, .step = step_exit};
const struct func_op func_op_trap = {.check = ctrl_check, .step = step_trap};
const struct func_op func_op_nop = {.check = ctrl_check, .step = step_nop};

/* ---- dispatch ---- */

bool func_warp_step(struct func_launch *L, struct func_cta *c, struct func_warp *w, struct func_step_info *info)
{
	struct simt_entry *e = &w->stack[w->sp - 1];
	const struct ptx_function *fn = &L->mod->funcs[e->fn];
	int32_t pc = e->pc;
	uint64_t active = e->mask;
	info->fn = e->fn;
	info->pc = pc;
	info->active = active;
	info->diverged = info->barrier_wait = info->exited = info->mem_lanes_set = info->deferred = false;
	if (pc < 0 || (uint32_t)pc >= fn->ninsns) {
		/* fell off the end of a function (or reached a reconvergence point at exit): implicit ret */
		info->insn = NULL;
		info->exec = active;
		do_ret(L, c, w, active);
		goto done;
	}
	const struct ptx_insn *in = &fn->insns[pc];
	info->insn = in;
	struct func_exec x = {.regs = w->regs + e->reg_off, .ws = L->ws, .carry = w->carry, .mod = L->mod, .fn = fn,
			      .warp = w, .cta = c, .launch = L, .frame_local_base = e->local_base};
	uint64_t exec = active;
	const uint64_t full = L->ws >= 64 ? ~0ull : (1ull << L->ws) - 1;
	if (in->guard >= 0) {
		const uint64_t *p = x.regs + (size_t)in->guard * L->ws;
		uint64_t m = 0;
		if (active == full) { /* every lane: no mask walk, no branch per lane */
			const uint64_t neg = in->guard_neg ? 1 : 0;
			for (unsigned l = 0; l < L->ws; l++)
				m |= ((uint64_t)(p[l] != 0) ^ neg) << l;
		} else {
			for (uint64_t a = active; a; a &= a - 1) {
				unsigned l = __builtin_ctzll(a);
				if ((p[l] != 0) != in->guard_neg)
					m |= 1ull << l;
			}
		}
		exec = m;
	}
	info->exec = exec;
	struct ws_stats *st = L->stats;
	st->v[STAT_warp_insts]++;
	st->v[STAT_thread_insts] += popc64(active);
	if (exec != active)
		st->v[STAT_pred_off_lanes] += popc64(active & ~exec);
	w->insts++;

	if (exec == full && func_exec_fast(&x, in)) {
		e->pc = pc + 1;
	} else {
		const struct func_step step = {.L = L, .c = c, .w = w, .x = &x, .in = in, .pc = pc, .active = active,
					       .exec = exec, .info = info};
		if (!func_ops[in->op]->step(&step))
			return false;
	}
done:
	settle(L, w);
	if ((w->valid & ~w->exited) == 0 || w->sp == 0) {
		info->exited = true;
		warp_finished(L, c, w);
	}
	return true;
}
