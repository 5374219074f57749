/*
 * memop.c -- memory instructions of the functional model: ld, ldu, st,
 * atom, red, cvta, isspacep, cp.async, mbarrier and createpolicy (prefetch
 * is a no-op: warp.c).  Each opcode's handler (op.h) is defined here beside its check.
 *
 * Models the state spaces as software sees them: global (device memory,
 * bounds-checked per allocation), shared (per CTA), local (per thread,
 * frames of the call stack), const (the module's constant bank), param
 * (kernel parameter buffer; .func parameters live in the caller's frame)
 * and generic addresses decoded through fixed windows (dmem.h).  Atomics
 * are performed lane by lane in lane order, which is one of the orders the
 * hardware may choose, so results are deterministic.  Effective addresses
 * are reported in func_step_info for the timing model's coalescer.
 */
#include <math.h>
#include <string.h>

#include "func/func.h"
#include "func/memop.h"
#include "func/wlog.h"
#include "func/op.h"
#include "func/operand.h"
#include "stats/counters.h"

static bool type_ok_for_mem(enum ptx_type t) { return t != PTX_T_NONE && t != PTX_T_PRED && t != PTX_T_B128; }

/* ld, ldu, st: a sized type, .v1/.v2/.v4 (.v8 of 32-bit), not .tex or .shared::cluster */
static bool check_ldst(const struct ptx_insn *in, char *why, size_t whysz)
{
	enum ptx_type t = (enum ptx_type)in->type;
	if (!type_ok_for_mem(t)) {
		snprintf(why, whysz, "%s with type .%s is not supported", ptx_opcode_table[in->op].name,
			 ptx_type_name[t]);
		return false;
	}
	if (in->vec != 1 && in->vec != 2 && in->vec != 4 && !(in->vec == 8 && ptx_type_size[t] == 4)) {
		snprintf(why, whysz, "vector width .v%u is not supported", in->vec);
		return false;
	}
	if (in->space == SPACE_TEX || in->space == SPACE_SHARED_CLUSTER) {
		snprintf(why, whysz, "state space .%s is not supported", ptx_space_name[in->space]);
		return false;
	}
	return true;
}

/* atom, red: .global/.shared/generic, scalar, the operations each type has */
static bool check_atom(const struct ptx_insn *in, char *why, size_t whysz)
{
	enum ptx_type t = (enum ptx_type)in->type;
	if (in->space != SPACE_NONE && in->space != SPACE_GLOBAL && in->space != SPACE_SHARED) {
		snprintf(why, whysz, "atomics on .%s are not supported", ptx_space_name[in->space]);
		return false;
	}
	if (in->vec != 1) {
		snprintf(why, whysz, "vector atomics are not supported");
		return false;
	}
	switch (t) {
	case PTX_T_B32: case PTX_T_B64: case PTX_T_U32: case PTX_T_U64: case PTX_T_S32: case PTX_T_S64:
		if (in->atomop == AOP_NONE || in->atomop == AOP_POPC)
			break;
		return true;
	case PTX_T_F32: case PTX_T_F64:
		if (in->atomop == AOP_ADD || in->atomop == AOP_EXCH || in->atomop == AOP_MIN ||
		    in->atomop == AOP_MAX || in->atomop == AOP_CAS)
			return true;
		break;
	default:
		break;
	}
	snprintf(why, whysz, "atomic operation with type .%s is not supported", ptx_type_name[t]);
	return false;
}

static uint64_t window_of(enum ptx_space s)
{
	switch (s) {
	case SPACE_SHARED: return WS_SHARED_WINDOW;
	case SPACE_LOCAL: return WS_LOCAL_WINDOW;
	case SPACE_CONST: return WS_CONST_WINDOW;
	case SPACE_PARAM: return WS_PARAM_WINDOW;
	default: return 0;
	}
}

/* Decode a generic address into (space, address in that space). */
static enum ptx_space generic_decode(uint64_t a, uint64_t *off)
{
	static const enum ptx_space spaces[] = {SPACE_SHARED, SPACE_LOCAL, SPACE_CONST, SPACE_PARAM};
	for (unsigned i = 0; i < sizeof spaces / sizeof spaces[0]; i++) {
		uint64_t w = window_of(spaces[i]);
		if (a - w < WS_WINDOW_SIZE) {
			*off = a - w;
			return spaces[i];
		}
	}
	*off = a;
	return SPACE_GLOBAL;
}

/* Host pointer for `size` bytes at `addr` in `space` for lane `lane`, or
 * NULL when they are not all inside it (or it is read-only and `write`). */
static uint8_t *space_ptr(struct func_launch *L, struct func_cta *c, struct func_warp *w, unsigned lane,
			  enum ptx_space space, uint64_t addr, unsigned size, bool write)
{
	uint8_t *p = NULL;
	switch (space) {
	case SPACE_GLOBAL:
		p = dmem_ptr_cached(L->mem, &L->dmem_last, addr, size);
		break;
	case SPACE_SHARED:
		if (addr < c->shared_size && size <= c->shared_size - addr)
			p = c->shared + addr;
		break;
	case SPACE_LOCAL:
		if (addr < w->local_cap && size <= w->local_cap - addr)
			p = w->local + (uint64_t)lane * w->local_cap + addr;
		break;
	case SPACE_CONST:
		if (write)
			break;
		if (addr < L->const_size && size <= L->const_size - addr)
			p = (uint8_t *)(uintptr_t)(L->const_bank + addr);
		break;
	case SPACE_PARAM:
		if (write)
			break;
		if (addr < L->kparam_size && size <= L->kparam_size - addr)
			p = (uint8_t *)(uintptr_t)(L->kparams + addr);
		break;
	default:
		break;
	}
	return p;
}

/* Host pointer for `size` bytes at `addr` in `space` for lane `lane`, or NULL after recording an error. */
static uint8_t *resolve(struct func_launch *L, struct func_cta *c, struct func_warp *w, unsigned lane,
			enum ptx_space space, uint64_t addr, uint64_t orig, unsigned size, bool write)
{
	const char *what = ptx_space_name[space];
	uint8_t *p = space_ptr(L, c, w, lane, space, addr, size, write);
	if (!p) {
		if (write && (space == SPACE_CONST || space == SPACE_PARAM))
			func_fail(L, c, w, (int)lane, WS_ERROR_ILLEGAL_ADDRESS, "write to read-only .%s space at 0x%llx",
				  what, (unsigned long long)orig);
		else
			func_fail(L, c, w, (int)lane, WS_ERROR_ILLEGAL_ADDRESS,
				  "out-of-bounds %s of %u bytes at %s address 0x%llx", write ? "write" : "read", size,
				  what, (unsigned long long)orig);
		return NULL;
	}
	if (size > 1 && (addr & (uint64_t)(size - 1)) && (size & (size - 1)) == 0) {
		func_fail(L, c, w, (int)lane, WS_ERROR_MISALIGNED_ADDRESS,
			  "misaligned %u-byte %s at %s address 0x%llx", size, write ? "write" : "read", what,
			  (unsigned long long)orig);
		return NULL;
	}
	return p;
}

/* Little-endian host, as the GPU.  Fixed-size copies so the compiler inlines them. */
static inline uint64_t load_bytes(const uint8_t *p, unsigned n)
{
	switch (n) {
	case 1: return *p;
	case 2: { uint16_t v; memcpy(&v, p, 2); return v; }
	case 4: { uint32_t v; memcpy(&v, p, 4); return v; }
	default: { uint64_t v; memcpy(&v, p, 8); return v; }
	}
}
/* the bits of a value that an n-byte store writes */
static inline uint64_t size_mask(unsigned n) { return n >= 8 ? ~(uint64_t)0 : ((uint64_t)1 << (8 * n)) - 1; }
static inline void store_bytes(uint8_t *p, uint64_t v, unsigned n)
{
	switch (n) {
	case 1: *p = (uint8_t)v; break;
	case 2: { uint16_t x = (uint16_t)v; memcpy(p, &x, 2); break; }
	case 4: { uint32_t x = (uint32_t)v; memcpy(p, &x, 4); break; }
	default: memcpy(p, &v, 8); break;
	}
}

/* The common case without a function call: an aligned, in-bounds shared or
 * global access.  NULL means "take the slow path" (resolve), which also
 * produces the error message when the access is bad. */
static inline uint8_t *fast_ptr(struct func_launch *L, struct func_cta *c, enum ptx_space space, uint64_t addr,
				unsigned size)
{
	if ((addr & (uint64_t)(size - 1)) && (size & (size - 1)) == 0)
		return NULL;
	if (space == SPACE_SHARED)
		return addr < c->shared_size && size <= c->shared_size - addr ? c->shared + addr : NULL;
	if (space == SPACE_GLOBAL)
		return dmem_ptr_cached(L->mem, &L->dmem_last, addr, size);
	return NULL;
}

/* The lanes of a warp of ws lanes, all of them (a full mask, the common
 * case: a straight loop the compiler can unroll and vectorize) or those set
 * in mask (lane order).  `l` is declared by the macro. */
#define MEM_LANES(l, mask, ws, ...)                                                                                    \
	do {                                                                                                           \
		if ((mask) == ((ws) >= 64 ? ~0ull : (1ull << (ws)) - 1)) {                                            \
			for (unsigned l = 0; l < (ws); l++) {                                                          \
				__VA_ARGS__                                                                            \
			}                                                                                              \
		} else {                                                                                               \
			for (uint64_t mem_m_ = (mask); mem_m_; mem_m_ &= mem_m_ - 1) {                                 \
				unsigned l = (unsigned)__builtin_ctzll(mem_m_);                                        \
				__VA_ARGS__                                                                            \
			}                                                                                              \
		}                                                                                                      \
	} while (0)

/* Per-lane effective addresses of an [address] operand; returns the space to use. */
static enum ptx_space effective_addresses(const struct func_exec *x, const struct ptx_insn *in,
					  const struct ptx_operand *a, uint64_t *out, uint64_t mask)
{
	enum ptx_space space = (enum ptx_space)in->space;
	if (a->abase == ABASE_REG) {
		const uint64_t *r = x->regs + (size_t)a->reg * x->ws;
		const uint64_t off = (uint64_t)a->offset;
		/* A 32-bit base register adds its displacement in 32 bits, as the
		 * hardware does: [%r4+68] with %r4 = buf-64 is buf+4, not 2^32+buf+4
		 * (Rodinia's needle addresses its shared tile this way). */
		if (ptx_type_size[x->fn->regs[a->reg].type] == 4)
			MEM_LANES(l, mask, x->ws, out[l] = (uint32_t)(r[l] + off););
		else
			MEM_LANES(l, mask, x->ws, out[l] = r[l] + off;);
	} else {
		uint64_t base = 0;
		if (a->abase == ABASE_SYM) {
			const struct ptx_var *v = &x->mod->vars[a->sym];
			base = func_var_addr(x, a->sym);
			/* .func parameters and call-site params live in the thread's frame */
			if (v->space == SPACE_PARAM && !v->is_kparam)
				space = SPACE_LOCAL;
			if (space == SPACE_NONE) { /* generic access naming a variable: use its own space */
				space = (enum ptx_space)v->space;
				if (space == SPACE_PARAM && !v->is_kparam)
					space = SPACE_LOCAL;
			}
		}
		for (uint64_t m = mask; m; m &= m - 1)
			out[__builtin_ctzll(m)] = base + (uint64_t)a->offset;
	}
	return space;
}

static uint64_t sext_to(uint64_t v, enum ptx_type from, enum ptx_type reg_type)
{
	uint64_t s = (uint64_t)func_sext(v, from);
	return reg_type == PTX_T_NONE ? s : func_trunc(s, reg_type);
}

static uint64_t atom_apply(const struct ptx_insn *in, uint64_t old, uint64_t b, uint64_t cv, bool *store)
{
	enum ptx_type t = (enum ptx_type)in->type;
	unsigned bits = ptx_type_bits(t);
	*store = true;
	switch (in->atomop) {
	case AOP_ADD:
		if (t == PTX_T_F32) {
			float fo, fb;
			uint32_t o32 = (uint32_t)old, b32 = (uint32_t)b;
			memcpy(&fo, &o32, 4);
			memcpy(&fb, &b32, 4);
			float r = fo + fb;
			uint32_t r32;
			memcpy(&r32, &r, 4);
			return r32;
		}
		if (t == PTX_T_F64) {
			double fo, fb;
			memcpy(&fo, &old, 8);
			memcpy(&fb, &b, 8);
			double r = fo + fb;
			uint64_t r64;
			memcpy(&r64, &r, 8);
			return r64;
		}
		return func_trunc(old + b, t);
	case AOP_EXCH: return b;
	case AOP_CAS:
		if (func_trunc(old, t) == func_trunc(b, t))
			return cv;
		*store = false;
		return old;
	case AOP_AND: return old & b;
	case AOP_OR: return old | b;
	case AOP_XOR: return old ^ b;
	case AOP_INC: {
		uint64_t o = func_trunc(old, t), bb = func_trunc(b, t);
		return o >= bb ? 0 : o + 1;
	}
	case AOP_DEC: {
		uint64_t o = func_trunc(old, t), bb = func_trunc(b, t);
		return (o == 0 || o > bb) ? bb : o - 1;
	}
	case AOP_MIN:
	case AOP_MAX: {
		bool mx = in->atomop == AOP_MAX;
		if (t == PTX_T_F32 || t == PTX_T_F64) {
			double fo, fb;
			if (t == PTX_T_F32) {
				float a1, b1;
				uint32_t o32 = (uint32_t)old, b32 = (uint32_t)b;
				memcpy(&a1, &o32, 4);
				memcpy(&b1, &b32, 4);
				fo = a1;
				fb = b1;
			} else {
				memcpy(&fo, &old, 8);
				memcpy(&fb, &b, 8);
			}
			if (isnan(fb))
				return old;
			if (isnan(fo))
				return b;
			return (mx ? fb > fo : fb < fo) ? b : old;
		}
		if (ptx_type_is_signed(t)) {
			int64_t so = func_sext(old, t), sb = func_sext(b, t);
			return func_trunc((uint64_t)(mx ? (sb > so ? sb : so) : (sb < so ? sb : so)), t);
		}
		uint64_t o = func_trunc(old, t), bb = func_trunc(b, t);
		return mx ? (bb > o ? bb : o) : (bb < o ? bb : o);
	}
	default:
		(void)bits;
		*store = false;
		return old;
	}
}

/* ---- sm_80 asynchronous copies and mbarrier objects (issue 16) ----
 *
 * cp.async.{ca,cg}.shared.global [dst], [src], cp-size{, src-size}: copies
 * src-size (default cp-size) bytes from global memory and zero-fills the
 * rest of cp-size bytes in shared memory.  The PTX memory model lets the
 * copy complete at any time before the cp.async.wait_group/wait_all (or the
 * mbarrier arrival) that covers it; the functional model completes it when
 * it executes, which is one of those orders.  The timing model sends it
 * through the LD/ST unit as a global read and makes wait_group/wait_all
 * wait for the reads of the groups they cover (core/issue.c); commit_group
 * and the waits have no functional effect.
 *
 * mbarrier objects are 8 bytes of shared memory, opaque to software; ours
 * hold pending arrivals (bits 0-19), the expected count (20-39) and the
 * phase number (40-62).  init sets pending = expected = count, phase 0.
 * Every executing thread's arrive takes `count` (default 1) arrivals, in
 * lane order; the arrival that brings pending to 0 completes the phase:
 * phase + 1, pending = expected.  arrive_drop also lowers the expected
 * count.  The state an arrive returns is (phase at arrival << 40) | pending
 * after it; test_wait/try_wait(state) is true once that phase completed,
 * .parity forms take the phase's parity instead (true once the phase of that
 * parity completed).  try_wait does not suspend the thread (a time limit of
 * zero, which PTX allows).  cp.async.mbarrier.arrive.noinc is an arrival
 * (its copies completed already); without .noinc it is pending-count
 * neutral.  Errors: arrivals beyond the pending count, completing a phase
 * with .noComplete, a count outside 1..2^20-1, an object not in shared
 * memory or misaligned. */
#define MBAR_PENDING(v) ((v) & 0xfffffull)
#define MBAR_EXPECTED(v) (((v) >> 20) & 0xfffffull)
#define MBAR_PHASE(v) ((v) >> 40 & 0x7fffffull)
#define MBAR_MAKE(pend, exp, ph) ((pend) | ((uint64_t)(exp) << 20) | ((uint64_t)((ph) & 0x7fffff) << 40))

/* The shared-memory word of an mbarrier operand for lane l (NULL after an error). */
static uint8_t *mbar_ptr(struct func_launch *L, struct func_cta *c, struct func_warp *w, const struct ptx_insn *in,
			 unsigned l, uint64_t addr, struct func_step_info *info)
{
	enum ptx_space sp = in->space == SPACE_NONE ? SPACE_NONE : SPACE_SHARED;
	uint64_t a = addr;
	if (sp == SPACE_NONE)
		sp = generic_decode(addr, &a);
	if (sp != SPACE_SHARED) {
		func_fail(L, c, w, (int)l, WS_ERROR_ILLEGAL_ADDRESS, "%s on a .%s address 0x%llx (mbarrier objects live in shared memory)",
			  ptx_opcode_table[in->op].name, ptx_space_name[sp], (unsigned long long)addr);
		return NULL;
	}
	info->addr[l] = a;
	info->lane_space[l] = SPACE_SHARED;
	return resolve(L, c, w, l, SPACE_SHARED, a, addr, 8, true);
}

/* One thread's arrival(s) on the mbarrier word at p; returns false on an error. */
static bool mbar_arrive(struct func_launch *L, struct func_cta *c, struct func_warp *w, unsigned l, uint8_t *p,
			uint64_t count, bool drop, bool nocomplete, uint64_t *state)
{
	uint64_t v = load_bytes(p, 8), pend = MBAR_PENDING(v), exp = MBAR_EXPECTED(v), ph = MBAR_PHASE(v);
	if (count == 0 || count > pend)
		return func_fail(L, c, w, (int)l, WS_ERROR_ILLEGAL_INSTRUCTION,
				 "mbarrier arrival of %llu on a barrier with %llu pending arrivals (not initialised, or "
				 "more arrivals than its count)",
				 (unsigned long long)count, (unsigned long long)pend);
	if (drop)
		exp -= count < exp ? count : exp;
	pend -= count;
	if (state)
		*state = (ph << 40) | pend;
	if (pend == 0) {
		if (nocomplete)
			return func_fail(L, c, w, (int)l, WS_ERROR_ILLEGAL_INSTRUCTION,
					 "mbarrier.arrive.noComplete completed the phase");
		ph++;
		pend = exp;
	}
	store_bytes(p, MBAR_MAKE(pend, exp, ph), 8);
	return true;
}

/* cp.async copies 4, 8 or 16 bytes; its group forms and mbarrier take what the parser accepts */
static bool check_async(const struct ptx_insn *in, char *why, size_t whysz)
{
	if (in->op == OP_CP && in->mode == MODE_NONE &&
	    (in->opd[2].kind != OPD_IMM || (in->opd[2].imm != 4 && in->opd[2].imm != 8 && in->opd[2].imm != 16))) {
		snprintf(why, whysz, "cp.async copies 4, 8 or 16 bytes");
		return false;
	}
	return true;
}

static bool exec_async(struct func_launch *L, struct func_cta *c, struct func_warp *w, const struct func_exec *x,
		       const struct ptx_insn *in, uint64_t exec, struct func_step_info *info)
{
	struct ws_stats *st = L->stats;
	uint64_t ta[WS_MAX_WARP], tb[WS_MAX_WARP];
	info->space = SPACE_NONE; /* no memory access unless set below */
	info->access_size = 0;
	if (in->op == OP_CP && in->mode != MODE_NONE && in->mode != MODE_CP_MBAR_ARRIVE)
		return true; /* commit_group, wait_group, wait_all: ordering only (timing model) */
	st->v[STAT_mem_insts]++;
	if (in->op == OP_CP && in->mode == MODE_NONE) {
		unsigned size = (unsigned)in->opd[2].imm;
		/* [dst], [src], cp-size{, src-size}{, cache-policy with .L2::cache_hint} */
		unsigned nsz = in->nopd - ((in->flags & FLAG_CACHE_HINT) ? 1u : 0u);
		const uint64_t *srcsz = nsz > 3 ? func_src(x, &in->opd[3], tb) : NULL;
		uint64_t dst[WS_MAX_WARP];
		struct ptx_insn sh = *in, gl = *in;
		sh.space = SPACE_SHARED;
		gl.space = SPACE_GLOBAL;
		enum ptx_space dsp = effective_addresses(x, &sh, &in->opd[0], dst, exec);
		enum ptx_space ssp = effective_addresses(x, &gl, &in->opd[1], info->addr, exec);
		info->space = SPACE_GLOBAL; /* the timing model's view: a global read */
		info->access_size = (uint8_t)size;
		for (uint64_t m = exec; m; m &= m - 1) {
			unsigned l = __builtin_ctzll(m);
			uint64_t n = srcsz ? srcsz[l] : size;
			if (n > size)
				return func_fail(L, c, w, (int)l, WS_ERROR_ILLEGAL_INSTRUCTION,
						 "cp.async src-size %llu exceeds cp-size %u", (unsigned long long)n, size);
			uint8_t *d = resolve(L, c, w, l, dsp, dst[l], dst[l], size, true);
			if (!d)
				return false;
			uint8_t buf[16] = {0};
			if (n) {
				const uint8_t *s = resolve(L, c, w, l, ssp, info->addr[l], info->addr[l], size, false);
				if (!s)
					return false;
				memcpy(buf, s, n);
			}
			memcpy(d, buf, size);
			st->v[STAT_global_loads]++;
			st->v[STAT_shared_stores]++;
		}
		return true;
	}
	/* mbarrier operations and cp.async.mbarrier.arrive: one 8-byte shared word per lane */
	const struct ptx_operand *aop = in->op == OP_CP || in->mode == MODE_INIT || in->mode == MODE_INVAL
						? &in->opd[0] : &in->opd[1];
	if (in->mode == MODE_PENDING_COUNT) { /* count, state: no memory access */
		const uint64_t *sv = func_src(x, &in->opd[1], ta);
		uint64_t *d = func_reg(x, in->opd[0].reg);
		for (uint64_t m = exec; m; m &= m - 1) {
			unsigned l = __builtin_ctzll(m);
			d[l] = MBAR_PENDING(sv[l]);
		}
		return true;
	}
	uint64_t addr[WS_MAX_WARP];
	effective_addresses(x, in, aop, addr, exec);
	info->space = SPACE_SHARED;
	info->access_size = 8;
	const struct ptx_operand *dop = &in->opd[0];
	uint64_t *d = dop->kind == OPD_REG ? func_reg(x, dop->reg) : NULL;
	const uint64_t *arg = NULL;
	if (in->op == OP_MBARRIER && in->mode == MODE_INIT)
		arg = func_src(x, &in->opd[1], ta);
	else if (in->op == OP_MBARRIER && in->nopd > 2)
		arg = func_src(x, &in->opd[2], ta);
	for (uint64_t m = exec; m; m &= m - 1) {
		unsigned l = __builtin_ctzll(m);
		uint8_t *p = mbar_ptr(L, c, w, in, l, addr[l], info);
		if (!p)
			return false;
		st->v[STAT_shared_stores]++;
		if (in->op == OP_CP) { /* cp.async.mbarrier.arrive: its copies are complete */
			if ((in->flags & FLAG_NOINC) && !mbar_arrive(L, c, w, l, p, 1, false, false, NULL))
				return false;
			continue;
		}
		uint64_t v = load_bytes(p, 8), state = 0;
		switch (in->mode) {
		case MODE_INIT: {
			uint64_t n = arg[l] & 0xffffffffu;
			if (n < 1 || n > 0xfffff)
				return func_fail(L, c, w, (int)l, WS_ERROR_ILLEGAL_INSTRUCTION,
						 "mbarrier.init count %llu is outside 1..1048575", (unsigned long long)n);
			store_bytes(p, MBAR_MAKE(n, n, 0), 8);
			break;
		}
		case MODE_INVAL: store_bytes(p, 0, 8); break;
		case MODE_ARRIVE:
		case MODE_ARRIVE_DROP:
			if (!mbar_arrive(L, c, w, l, p, arg ? arg[l] & 0xffffffffu : 1, in->mode == MODE_ARRIVE_DROP,
					 (in->flags & FLAG_NOCOMPLETE) != 0, &state))
				return false;
			if (d)
				d[l] = state;
			break;
		case MODE_TEST_WAIT:
		case MODE_TRY_WAIT: {
			uint64_t ph = MBAR_PHASE(v), tok = arg ? arg[l] : 0;
			bool done = (in->flags & FLAG_PARITY) ? (ph & 1) != (tok & 1) : ph != ((tok >> 40) & 0x7fffff);
			if (d)
				d[l] = done;
			break;
		}
		default:
			return func_fail(L, c, w, (int)l, WS_ERROR_ILLEGAL_INSTRUCTION, "mbarrier form not implemented");
		}
	}
	return true;
}

/* ld/ldu of one address for every lane ([symbol+offset] or [immediate] in
 * .param (kernel parameters), .const, .shared or .global): checked once,
 * read once, the value given to every executing lane.  Declines (nothing
 * done, *handled false) for anything that might fault and for symbols
 * whose own space differs (generic accesses, .func parameters in the
 * thread's frame): the per-lane path then does exactly what it did. */
static void ld_uniform(struct func_launch *L, struct func_cta *c, const struct func_exec *x, const struct ptx_insn *in,
		       uint64_t exec, struct func_step_info *info, bool *handled)
{
	const struct ptx_operand *aop = &in->opd[1], *vop = &in->opd[0];
	const enum ptx_space space = (enum ptx_space)in->space;
	const enum ptx_type t = (enum ptx_type)in->type;
	const unsigned size = ptx_type_size[t];
	uint64_t a = (uint64_t)aop->offset;
	if (aop->abase == ABASE_SYM) {
		const struct ptx_var *v = &x->mod->vars[aop->sym];
		if (v->space != space || (space == SPACE_PARAM && !v->is_kparam))
			return;
		a += func_var_addr(x, aop->sym);
	}
	/* local memory is per thread: one address is not one value */
	if ((a & (size - 1)) || (space != SPACE_SHARED && space != SPACE_GLOBAL && space != SPACE_PARAM &&
				 space != SPACE_CONST))
		return;
	const uint8_t *p = space_ptr(L, c, x->warp, 0, space, a, size, false);
	if (!p)
		return;
	*handled = true;
	info->access_size = (uint8_t)size;
	info->space = (uint8_t)space;
	if (space == SPACE_SHARED || space == SPACE_GLOBAL)
		L->stats->v[space == SPACE_GLOBAL ? STAT_global_loads : STAT_shared_loads] += func_popc64(exec);
	uint64_t val = load_bytes(p, size);
	if (ptx_type_is_signed(t))
		val = sext_to(val, t, (enum ptx_type)x->fn->regs[vop->reg].type);
	uint64_t *d = func_reg(x, vop->reg), *addr = info->addr;
	MEM_LANES(l, exec, x->ws, {
		addr[l] = a;
		d[l] = val;
	});
}

/* The fast path of ld/ldu/st (issue 14): a scalar access to .shared or
 * .global through a register address whose executing lanes are all aligned
 * and all inside the CTA's shared memory / inside one device allocation
 * (the one the launch's lookup cache holds, or finds for the first lane).
 * One loop over the lanes computes the effective addresses (into
 * info->addr) with their largest offset into that memory and the OR of all
 * of them; then a second straight loop moves the data and the statistics
 * are counted once.  When any lane might fault (or the form is not the
 * simple one) no memory or register is touched and *handled stays false:
 * the per-lane path then performs the access exactly as before (addresses
 * recomputed) and reports the first faulting lane.  Returns false after a
 * run-time error (out of memory buffering a store), like func_mem_write. */
static bool ldst_fast(struct func_launch *L, struct func_cta *c, struct func_warp *w, const struct func_exec *x,
		      const struct ptx_insn *in, uint64_t exec, struct func_step_info *info, bool *handled)
{
	const bool is_store = in->op == OP_ST;
	const struct ptx_operand *aop = is_store ? &in->opd[0] : &in->opd[1];
	const struct ptx_operand *vop = is_store ? &in->opd[1] : &in->opd[0];
	const enum ptx_space space = (enum ptx_space)in->space;
	const enum ptx_type t = (enum ptx_type)in->type;
	const unsigned size = ptx_type_size[t], ws = x->ws;
	if (in->vec != 1 || !exec || !size || (size & (size - 1)) || size > 8)
		return true; /* (types without a size are refused at load: check_ldst) */
	if (aop->abase != ABASE_REG) {
		if (!is_store && vop->kind == OPD_REG)
			ld_uniform(L, c, x, in, exec, info, handled);
		return true;
	}
	if ((space != SPACE_SHARED && space != SPACE_GLOBAL) || (is_store ? vop->kind == OPD_VEC : vop->kind != OPD_REG))
		return true;
	const uint64_t *r = x->regs + (size_t)aop->reg * ws;
	const uint64_t off = (uint64_t)aop->offset;
	uint8_t *data;
	uint64_t base, lim;
	if (space == SPACE_SHARED) {
		data = c->shared;
		base = 0;
		lim = c->shared_size;
	} else {
		const struct dmem *m = L->mem;
		const uint64_t a0 = r[__builtin_ctzll(exec)] + off;
		if (L->dmem_last >= m->n || a0 - m->a[L->dmem_last].addr >= m->a[L->dmem_last].size) {
			if (!dmem_ptr_cached(m, &L->dmem_last, a0, size))
				return true; /* the first lane faults: the per-lane path says so */
		}
		const struct dmem_alloc *al = &m->a[L->dmem_last];
		data = al->data;
		base = al->addr;
		lim = al->size;
	}
	if (size > lim)
		return true;
	uint64_t *addr = info->addr, top = 0, any = 0;
	MEM_LANES(l, exec, ws, {
		const uint64_t a = r[l] + off, u = a - base; /* u wraps for a < base: too large */
		addr[l] = a;
		top = u > top ? u : top;
		any |= a;
	});
	if ((any & (size - 1)) || top > lim - size)
		return true; /* a misaligned lane, or one outside: per lane */
	info->access_size = (uint8_t)size;
	info->space = (uint8_t)space;
	*handled = true;
	struct ws_stats *st = L->stats;
	const uint64_t n = func_popc64(exec);
	if (is_store) {
		uint64_t tmp[WS_MAX_WARP];
		const uint64_t *v = func_src(x, vop, tmp);
		if (space == SPACE_GLOBAL) {
			st->v[STAT_global_stores] += n;
			if (L->wlog) {
				for (uint64_t mm = exec; mm; mm &= mm - 1) {
					unsigned l = (unsigned)__builtin_ctzll(mm);
					if (!wlog_store(L->wlog, data + (addr[l] - base), v[l], size))
						return func_fail(L, c, w, (int)l, WS_ERROR_OUT_OF_MEMORY,
								 "out of host memory buffering a store");
				}
				return true;
			}
		} else {
			st->v[STAT_shared_stores] += n;
		}
		uint64_t changed = 0;
		switch (size) {
		case 1: MEM_LANES(l, exec, ws, changed += func_mem_store(data + (addr[l] - base), v[l], 1);); break;
		case 2: MEM_LANES(l, exec, ws, changed += func_mem_store(data + (addr[l] - base), v[l], 2);); break;
		case 4: MEM_LANES(l, exec, ws, changed += func_mem_store(data + (addr[l] - base), v[l], 4);); break;
		default: MEM_LANES(l, exec, ws, changed += func_mem_store(data + (addr[l] - base), v[l], 8);); break;
		}
		L->mem_changes += changed;
		return true;
	}
	st->v[space == SPACE_GLOBAL ? STAT_global_loads : STAT_shared_loads] += n;
	uint64_t *d = func_reg(x, vop->reg);
	if (ptx_type_is_signed(t)) {
		const enum ptx_type rt = (enum ptx_type)x->fn->regs[vop->reg].type;
		MEM_LANES(l, exec, ws, d[l] = sext_to(load_bytes(data + (addr[l] - base), size), t, rt););
		return true;
	}
	switch (size) {
	case 1: MEM_LANES(l, exec, ws, d[l] = load_bytes(data + (addr[l] - base), 1);); break;
	case 2: MEM_LANES(l, exec, ws, d[l] = load_bytes(data + (addr[l] - base), 2);); break;
	case 4: MEM_LANES(l, exec, ws, d[l] = load_bytes(data + (addr[l] - base), 4);); break;
	default: MEM_LANES(l, exec, ws, d[l] = load_bytes(data + (addr[l] - base), 8);); break;
	}
	return true;
}

static bool exec_memop(struct func_launch *L, struct func_cta *c, struct func_warp *w, const struct func_exec *x,
		       const struct ptx_insn *in, uint64_t exec, struct func_step_info *info)
{
	struct ws_stats *st = L->stats;
	enum ptx_type t = (enum ptx_type)in->type;
	unsigned tsz = ptx_type_size[t];
	uint64_t tmp[WS_MAX_WARP];

	st->v[STAT_mem_insts]++;
	if (in->op == OP_LD || in->op == OP_LDU || in->op == OP_ST) {
		bool handled = false, ok = ldst_fast(L, c, w, x, in, exec, info, &handled);
		if (handled)
			return ok;
	}
	bool is_store = in->op == OP_ST;
	const struct ptx_operand *aop = is_store || in->op == OP_RED ? &in->opd[0] : &in->opd[1];
	uint64_t *addr = info->addr;
	enum ptx_space space = effective_addresses(x, in, aop, addr, exec);
	unsigned size = tsz * in->vec;
	info->access_size = (uint8_t)size;
	info->space = (uint8_t)space;

	if (in->op == OP_LD || in->op == OP_LDU || in->op == OP_ST) {
		const struct ptx_operand *vop = is_store ? &in->opd[1] : &in->opd[0];
		/* source values for stores */
		const uint64_t *sv[PTX_MAX_VEC] = {0};
		uint64_t stmp[PTX_MAX_VEC][WS_MAX_WARP];
		if (is_store) {
			if (vop->kind == OPD_VEC) {
				for (unsigned k = 0; k < vop->nelem; k++) {
					struct ptx_operand e = {.kind = vop->elem[k].kind, .reg = vop->elem[k].reg,
								.imm = vop->elem[k].imm};
					if (e.kind == OPD_SINK)
						e.kind = OPD_IMM;
					sv[k] = func_src(x, &e, stmp[k]);
				}
			} else {
				sv[0] = func_src(x, vop, stmp[0]);
			}
		}
		for (uint64_t m = exec; m; m &= m - 1) {
			unsigned l = __builtin_ctzll(m);
			enum ptx_space sp = space;
			uint64_t a = addr[l];
			if (sp == SPACE_NONE) {
				sp = generic_decode(a, &a);
				info->lane_space[l] = (uint8_t)sp;
			}
			uint8_t *p = fast_ptr(L, c, sp, a, size);
			if (!p && !(p = resolve(L, c, w, l, sp, a, addr[l], size, is_store)))
				return false;
			switch (sp) {
			case SPACE_GLOBAL: st->v[is_store ? STAT_global_stores : STAT_global_loads]++; break;
			case SPACE_SHARED: st->v[is_store ? STAT_shared_stores : STAT_shared_loads]++; break;
			case SPACE_LOCAL: st->v[STAT_local_accesses]++; break;
			default: break;
			}
			for (unsigned k = 0; k < in->vec; k++) {
				if (is_store) {
					if (!func_mem_write(L, c, w, l, p + k * tsz, sp, sv[k][l], tsz))
						return false;
					continue;
				}
				int32_t reg = vop->kind == OPD_VEC ? (vop->elem[k].kind == OPD_REG ? vop->elem[k].reg : -1)
								   : vop->reg;
				if (reg < 0)
					continue;
				uint64_t v = load_bytes(p + k * tsz, tsz);
				if (ptx_type_is_signed(t))
					v = sext_to(v, t, (enum ptx_type)x->fn->regs[reg].type);
				func_reg(x, reg)[l] = v;
			}
		}
		return true;
	}

	/* atom / red: executed now, or (L->wlog: the timing model) buffered with
	 * their operands and executed at the end of the cycle (wlog.h) */
	const uint64_t *bv = func_src(x, &in->opd[in->op == OP_RED ? 1 : 2], tmp);
	uint64_t ctmp[WS_MAX_WARP];
	const uint64_t *cvv = (in->atomop == AOP_CAS) ? func_src(x, &in->opd[3], ctmp) : NULL;
	bool has_dst = in->op == OP_ATOM && in->opd[0].kind == OPD_REG;
	uint64_t *d = has_dst ? func_reg(x, in->opd[0].reg) : NULL;
	uint8_t dst_type = has_dst ? (uint8_t)x->fn->regs[in->opd[0].reg].type : 0;
	struct wlog_atom *rec = NULL;
	if (L->wlog && exec) {
		if (!(rec = wlog_atom_new(L->wlog)))
			return func_fail(L, c, w, -1, WS_ERROR_OUT_OF_MEMORY, "out of host memory buffering an atomic");
		rec->in = in;
		rec->w = w;
		rec->tsz = (uint8_t)tsz;
		rec->dst_type = dst_type;
		rec->dst_off = has_dst ? (size_t)(d - w->regs) : SIZE_MAX;
		info->deferred = true;
	}
	for (uint64_t m = exec; m; m &= m - 1) {
		unsigned l = __builtin_ctzll(m);
		enum ptx_space sp = space;
		uint64_t a = addr[l];
		if (sp == SPACE_NONE)
			sp = generic_decode(a, &a);
		info->lane_space[l] = (uint8_t)sp;
		if (sp != SPACE_GLOBAL && sp != SPACE_SHARED)
			return func_fail(L, c, w, (int)l, WS_ERROR_ILLEGAL_ADDRESS,
					 "atomic on a .%s address 0x%llx (only global and shared are allowed)",
					 ptx_space_name[sp], (unsigned long long)addr[l]);
		uint8_t *p = resolve(L, c, w, l, sp, a, addr[l], tsz, true);
		if (!p)
			return false;
		st->v[STAT_atomics]++;
		if (rec) {
			rec->exec |= 1ull << l;
			rec->p[l] = p;
			rec->addr[l] = addr[l];
			rec->b[l] = bv[l];
			rec->c[l] = cvv ? cvv[l] : 0;
			continue;
		}
		uint64_t old = func_atom_exec(in, p, tsz, bv[l], cvv ? cvv[l] : 0, &L->mem_changes);
		if (d)
			d[l] = func_atom_result(in, old, dst_type);
	}
	return true;
}

uint64_t func_atom_exec(const struct ptx_insn *in, uint8_t *p, unsigned tsz, uint64_t b, uint64_t cv,
			uint64_t *changed)
{
	uint64_t old = load_bytes(p, tsz);
	bool store;
	uint64_t nv = atom_apply(in, old, b, cv, &store);
	if (store) {
		if ((nv & size_mask(tsz)) != old)
			++*changed;
		store_bytes(p, nv, tsz);
	}
	return old;
}

uint64_t func_atom_result(const struct ptx_insn *in, uint64_t old, uint8_t dst_type)
{
	enum ptx_type t = (enum ptx_type)in->type;
	return ptx_type_is_signed(t) ? sext_to(old, t, (enum ptx_type)dst_type) : old;
}

unsigned func_mem_store(uint8_t *p, uint64_t v, unsigned n)
{
	unsigned changed = load_bytes(p, n) != (v & size_mask(n));
	store_bytes(p, v, n);
	return changed;
}

bool func_mem_write(struct func_launch *L, struct func_cta *c, struct func_warp *w, unsigned lane, uint8_t *p,
		    enum ptx_space space, uint64_t v, unsigned n)
{
	if (space == SPACE_GLOBAL && L->wlog) {
		if (!wlog_store(L->wlog, p, v, n))
			return func_fail(L, c, w, (int)lane, WS_ERROR_OUT_OF_MEMORY, "out of host memory buffering a store");
		return true;
	}
	if (space == SPACE_GLOBAL || space == SPACE_SHARED)
		L->mem_changes += func_mem_store(p, v, n);
	else
		store_bytes(p, v, n);
	return true;
}

bool func_read_generic(struct func_launch *L, struct func_cta *c, struct func_warp *w, unsigned lane, uint64_t addr,
		       void *dst, unsigned n)
{
	uint64_t a;
	enum ptx_space sp = generic_decode(addr, &a);
	for (unsigned k = 0; k < n; k++) { /* byte by byte: printf arguments need not be aligned to n */
		uint8_t *p = resolve(L, c, w, lane, sp, a + k, addr + k, 1, false);
		if (!p)
			return false;
		((uint8_t *)dst)[k] = *p;
	}
	return true;
}

enum ptx_space func_mem_addresses(const struct func_exec *x, const struct ptx_insn *in, const struct ptx_operand *a,
				  uint64_t *out, uint64_t mask)
{
	return effective_addresses(x, in, a, out, mask);
}

uint8_t *func_mem_ptr(struct func_launch *L, struct func_cta *c, struct func_warp *w, unsigned lane,
		      enum ptx_space space, uint64_t addr, unsigned size, bool write, enum ptx_space *resolved)
{
	uint64_t a = addr;
	if (space == SPACE_NONE)
		space = generic_decode(addr, &a);
	if (resolved)
		*resolved = space;
	uint8_t *p = fast_ptr(L, c, space, a, size);
	return p ? p : resolve(L, c, w, lane, space, a, addr, size, write);
}

static bool memop_step(const struct func_step *s)
{
	if (!exec_memop(s->L, s->c, s->w, s->x, s->in, s->exec, s->info))
		return false;
	func_step_next(s);
	return true;
}

static bool async_step(const struct func_step *s)
{
	if (!exec_async(s->L, s->c, s->w, s->x, s->in, s->exec, s->info))
		return false;
	func_step_next(s);
	return true;
}

/* cvta{.to}.space: generic <-> space addresses */
static bool cvta_step(const struct func_step *s)
{
	const struct func_exec *x = s->x;
	const struct ptx_insn *in = s->in;
	const enum ptx_type t = (enum ptx_type)in->type;
	const uint64_t exec = s->exec;
	uint64_t tmp[WS_MAX_WARP];
	const uint64_t *a = func_src(x, &in->opd[1], tmp);
	uint64_t *d = func_reg(x, in->opd[0].reg);
	uint64_t win = window_of((enum ptx_space)in->space);
	for (uint64_t m = exec; m; m &= m - 1) {
		unsigned l = __builtin_ctzll(m);
		uint64_t v = a[l];
		if (in->mode == MODE_TO)
			v = (win && v - win < WS_WINDOW_SIZE) ? v - win : v;
		else
			v = win ? func_trunc(v, t) + win : v;
		d[l] = func_trunc(v, t);
	}
	func_step_next(s);
	return true;
}

/* isspacep.space: does a generic address fall in the space */
static bool isspacep_step(const struct func_step *s)
{
	const struct func_exec *x = s->x;
	const struct ptx_insn *in = s->in;
	const uint64_t exec = s->exec;
	uint64_t tmp[WS_MAX_WARP];
	const uint64_t *a = func_src(x, &in->opd[1], tmp);
	uint64_t *d = func_reg(x, in->opd[0].reg);
	for (uint64_t m = exec; m; m &= m - 1) {
		unsigned l = __builtin_ctzll(m);
		uint64_t off;
		d[l] = generic_decode(a[l], &off) == (enum ptx_space)in->space;
	}
	func_step_next(s);
	return true;
}

/* createpolicy: an L2 cache policy for .L2::cache_hint.  Hardware encodes
 * the priorities and fraction or range in an opaque 64-bit value; warpsim
 * does not model the hint (the parser drops the consuming operand), so the
 * value only has to be deterministic: the form in the top 4 bits (1
 * fractional, 2 range) over the fraction's f32 bits (1.0 when absent) or the
 * range (address + primary size << 32 ^ total size); .cvt passes its access
 * property through. */
static bool createpolicy_step(const struct func_step *s)
{
	const struct func_exec *x = s->x;
	const struct ptx_insn *in = s->in;
	uint64_t t1[WS_MAX_WARP], t2[WS_MAX_WARP], t3[WS_MAX_WARP];
	const uint64_t *a = in->nopd > 1 ? func_src(x, &in->opd[1], t1) : NULL;
	const uint64_t *b = in->nopd > 3 ? func_src(x, &in->opd[2], t2) : NULL;
	const uint64_t *c = in->nopd > 3 ? func_src(x, &in->opd[3], t3) : NULL;
	uint64_t *d = func_reg(x, in->opd[0].reg);
	for (uint64_t m = s->exec; m; m &= m - 1) {
		unsigned l = __builtin_ctzll(m);
		uint64_t v;
		if (in->mode == MODE_CVT)
			v = a[l];
		else if (in->mode == MODE_RANGE)
			v = 2ull << 60 | ((a[l] + ((b[l] & 0xffffffffu) << 32)) ^ (c[l] & 0xffffffffu)) >> 4;
		else
			v = 1ull << 60 | (a ? a[l] & 0xffffffffu : 0x3f800000u);
		d[l] = v;
	}
	func_step_next(s);
	return true;
}

static bool check_any(const struct ptx_insn *in, char *why, size_t whysz) { return true; }

const struct func_op func_op_ldst = {.check = check_ldst, .step = memop_step};      /* ld, ldu, st */
const struct func_op func_op_atom = {.check = check_atom, .step = memop_step};      /* atom, red */
const struct func_op func_op_async = {.check = check_async, .step = async_step};    /* cp.async, mbarrier */
const struct func_op func_op_cvta = {.check = check_any, .step = cvta_step};
const struct func_op func_op_isspacep = {.check = check_any, .step = isspacep_step};
const struct func_op func_op_createpolicy = {.check = check_any, .step = createpolicy_step};
