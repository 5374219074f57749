/*
 * wlog.c -- an SM's global-memory write buffer for one core cycle (see
 * wlog.h): stores and atomics buffered at issue, applied at the end of the
 * cycle in issue order.
 */
#include <stdlib.h>
#include <string.h>

#include "func/func.h"
#include "func/memop.h"
#include "func/wlog.h"

struct wlog *wlog_create(void) { return calloc(1, sizeof(struct wlog)); }

void wlog_destroy(struct wlog *g)
{
	if (!g)
		return;
	free(g->st);
	free(g->at);
	free(g->seq);
	free(g);
}

static bool grow(void **a, size_t *cap, size_t need, size_t elem)
{
	if (need <= *cap)
		return true;
	size_t n = *cap ? *cap * 2 : 16;
	while (n < need)
		n *= 2;
	void *p = realloc(*a, n * elem);
	if (!p)
		return false;
	*a = p;
	*cap = n;
	return true;
}

static bool push_seq(struct wlog *g, size_t v)
{
	if (!grow((void **)&g->seq, &g->capseq, g->nseq + 1, sizeof *g->seq))
		return false;
	g->seq[g->nseq++] = v;
	return true;
}

bool wlog_store(struct wlog *g, uint8_t *p, uint64_t v, unsigned n)
{
	if (!grow((void **)&g->st, &g->capst, g->nst + 1, sizeof *g->st) || !push_seq(g, g->nst << 1))
		return false;
	g->st[g->nst++] = (struct wlog_store){.p = p, .v = v, .n = (uint8_t)n};
	return true;
}

struct wlog_atom *wlog_atom_new(struct wlog *g)
{
	if (!grow((void **)&g->at, &g->capat, g->nat + 1, sizeof *g->at) || !push_seq(g, g->nat << 1 | 1))
		return NULL;
	struct wlog_atom *a = &g->at[g->nat++];
	a->in = NULL;
	a->w = NULL;
	a->dst_off = SIZE_MAX;
	a->exec = 0;
	a->lock = false;
	return a;
}

struct wlog_atom *wlog_last_atom(struct wlog *g) { return g->nat ? &g->at[g->nat - 1] : NULL; }

uint64_t wlog_commit(struct wlog *g, void (*on_atom)(void *ctx, const struct wlog_atom *a), void *ctx)
{
	uint64_t changed = 0;
	for (size_t k = 0; k < g->nseq; k++) {
		size_t e = g->seq[k] >> 1;
		if (!(g->seq[k] & 1)) {
			const struct wlog_store *s = &g->st[e];
			changed += func_mem_store(s->p, s->v, s->n);
			continue;
		}
		struct wlog_atom *a = &g->at[e];
		for (uint64_t m = a->exec; m; m &= m - 1) {
			unsigned l = (unsigned)__builtin_ctzll(m);
			a->old[l] = func_atom_exec(a->in, a->p[l], a->tsz, a->b[l], a->c[l], &changed);
			if (a->dst_off != SIZE_MAX)
				a->w->regs[a->dst_off + l] = func_atom_result(a->in, a->old[l], a->dst_type);
		}
		if (on_atom)
			on_atom(ctx, a);
	}
	g->nst = g->nat = g->nseq = 0;
	return changed;
}
