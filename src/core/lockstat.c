/*
 * lockstat.c -- lock acquire outcomes and wait-exit attempts (BOWS paper
 * Figs. 2 and 12); see lockstat.h for the definitions.
 */
#include "core/core_counters.h"
#include "core/lockstat.h"

#include <stdlib.h>

#include "util/bits.h"

/* open addressing, nonzero key -> value (key 0 = empty slot) */
struct map {
	uint64_t *key, *val;
	uint64_t cap, used;
	bool full; /* out of memory while growing: no new keys recorded */
};

struct lockstat {
	uint32_t nfuncs;
	uint8_t **kind; /* [nfuncs][ninsns] enum lockstat_kind, NULL for functions without annotations */
	uint32_t *nins; /* [nfuncs] */
	struct map hold;  /* lock holders: address -> warp + 1 (addresses are never 0) */
	struct map retry; /* warp + 1 -> mask of lanes whose last acquire attempt failed */
};

static bool reads_reg(const struct ptx_operand *o, int32_t r)
{
	return o->kind == OPD_REG && o->reg == r;
}

bool lockstat_create(struct lockstat **out, const struct ptx_module *mod, const struct sched_sib *sibs, uint32_t nsibs)
{
	*out = NULL;
	if (!nsibs)
		return true;
	struct lockstat *ls = calloc(1, sizeof *ls);
	if (!ls)
		return false;
	ls->nfuncs = mod->nfuncs;
	ls->kind = calloc(mod->nfuncs ? mod->nfuncs : 1, sizeof *ls->kind);
	ls->nins = calloc(mod->nfuncs ? mod->nfuncs : 1, sizeof *ls->nins);
	struct map *m[2] = {&ls->hold, &ls->retry};
	for (int i = 0; i < 2; i++) {
		m[i]->cap = 64;
		m[i]->key = calloc(m[i]->cap, sizeof *m[i]->key);
		m[i]->val = calloc(m[i]->cap, sizeof *m[i]->val);
	}
	if (!ls->kind || !ls->nins || !ls->hold.key || !ls->hold.val || !ls->retry.key || !ls->retry.val) {
		lockstat_destroy(ls);
		return false;
	}
	for (uint32_t i = 0; i < nsibs; i++) {
		int32_t fn = sibs[i].fn, pc = sibs[i].pc;
		if (fn < 0 || (uint32_t)fn >= mod->nfuncs)
			continue;
		const struct ptx_function *f = &mod->funcs[fn];
		if (pc < 0 || (uint32_t)pc >= f->ninsns || f->insns[pc].op != OP_BRA ||
		    f->insns[pc].opd[0].kind != OPD_LABEL)
			continue;
		int32_t lo = f->insns[pc].opd[0].target;
		if (lo < 0 || lo > pc)
			continue;
		if (!ls->kind[fn]) {
			ls->kind[fn] = calloc(f->ninsns, 1);
			ls->nins[fn] = f->ninsns;
			if (!ls->kind[fn]) {
				lockstat_destroy(ls);
				return false;
			}
		}
		bool any = false;
		for (int32_t a = lo; a <= pc; a++) {
			const struct ptx_insn *in = &f->insns[a];
			if (in->op != OP_ATOM || (in->atomop != AOP_CAS && in->atomop != AOP_EXCH) || in->nopd < 3 ||
			    in->opd[0].kind != OPD_REG)
				continue;
			int32_t r = in->opd[0].reg;
			for (int32_t b = lo; b <= pc; b++) {
				const struct ptx_insn *sp = &f->insns[b];
				if (sp->op == OP_SETP && sp->nopd >= 3 &&
				    (reads_reg(&sp->opd[1], r) || reads_reg(&sp->opd[2], r))) {
					ls->kind[fn][a] = LOCKSTAT_ACQUIRE;
					any = true;
					break;
				}
			}
		}
		if (!any)
			ls->kind[fn][pc] = LOCKSTAT_WAIT_SIB;
	}
	*out = ls;
	return true;
}

void lockstat_destroy(struct lockstat *ls)
{
	if (!ls)
		return;
	for (uint32_t i = 0; ls->kind && i < ls->nfuncs; i++)
		free(ls->kind[i]);
	free(ls->kind);
	free(ls->nins);
	free(ls->hold.key);
	free(ls->hold.val);
	free(ls->retry.key);
	free(ls->retry.val);
	free(ls);
}

enum lockstat_kind lockstat_kind(const struct lockstat *ls, int32_t fn, int32_t pc)
{
	if (!ls || fn < 0 || (uint32_t)fn >= ls->nfuncs || !ls->kind[fn] || pc < 0 || (uint32_t)pc >= ls->nins[fn])
		return LOCKSTAT_NONE;
	return (enum lockstat_kind)ls->kind[fn][pc];
}

static uint64_t *slot_of(uint64_t *key, uint64_t cap, uint64_t a)
{
	uint64_t h = (a * 0x9e3779b97f4a7c15ull) >> 17;
	for (uint64_t i = 0;; i++) {
		uint64_t *k = &key[(h + i) & (cap - 1)];
		if (*k == a || *k == 0)
			return k;
	}
}

static bool grow(struct map *m)
{
	uint64_t nc = m->cap * 2;
	uint64_t *nk = calloc(nc, sizeof *nk), *nv = calloc(nc, sizeof *nv);
	if (!nk || !nv) {
		free(nk);
		free(nv);
		return false;
	}
	for (uint64_t i = 0; i < m->cap; i++)
		if (m->key[i]) {
			uint64_t *k = slot_of(nk, nc, m->key[i]);
			*k = m->key[i];
			nv[k - nk] = m->val[i];
		}
	free(m->key);
	free(m->val);
	m->key = nk;
	m->val = nv;
	m->cap = nc;
	return true;
}

/* The value cell of key `a` (nonzero), inserted with value 0 if absent; NULL if the map is full. */
static uint64_t *map_cell(struct map *m, uint64_t a)
{
	uint64_t *k = slot_of(m->key, m->cap, a);
	if (*k == 0) {
		if (m->full)
			return NULL;
		if (2 * (m->used + 1) > m->cap) {
			if (!grow(m)) {
				m->full = true;
				return NULL;
			}
			k = slot_of(m->key, m->cap, a);
		}
		*k = a;
		m->val[k - m->key] = 0;
		m->used++;
	}
	return &m->val[k - m->key];
}

void lockstat_acquire(struct lockstat *ls, struct ws_stats *st, uint64_t warp, bool cas, uint64_t exec,
                      const uint64_t *addr, const uint64_t *old, const uint64_t *cmp, const uint64_t *nw)
{
	uint64_t *retry = map_cell(&ls->retry, warp + 1);
	for (unsigned lane = 0; exec; lane++, exec >>= 1) {
		if (!(exec & 1))
			continue;
		uint64_t a = addr[lane] ? addr[lane] : 1;
		bool ok = cas ? old[lane] == cmp[lane] && cmp[lane] != nw[lane] : old[lane] != nw[lane];
		uint64_t bit = (uint64_t)1 << lane;
		if (ok) {
			st->v[STAT_lock_acquire_success]++;
			uint64_t *h = map_cell(&ls->hold, a);
			if (h)
				*h = warp + 1;
			if (retry)
				*retry &= ~bit;
			continue;
		}
		uint64_t *k = slot_of(ls->hold.key, ls->hold.cap, a);
		if (*k && ls->hold.val[k - ls->hold.key] == warp + 1)
			st->v[STAT_lock_fail_intra_warp]++;
		else
			st->v[STAT_lock_fail_inter_warp]++;
		if (retry) {
			if (!(*retry & bit))
				st->v[STAT_lock_fail_first]++;
			*retry |= bit;
		}
	}
}

void lockstat_wait(struct ws_stats *st, uint64_t active, uint64_t exec)
{
	st->v[STAT_wait_exit_fail] += ws_popc64(active & exec);
	st->v[STAT_wait_exit_success] += ws_popc64(active & ~exec);
}
