/*
 * cfg.c -- basic blocks, control-flow graphs, dominators and immediate
 * post-dominators of PTX function bodies (see cfg.h).
 *
 * Models the compile-time half of pre-Volta SIMT reconvergence: every
 * branch reconverges at the immediate post-dominator (IPDOM) of its basic
 * block, which the functional model's SIMT stack uses as the reconvergence
 * pc (GPGPU-Sim does the same).
 *
 * Post-dominators are dominators of the reverse CFG rooted at a virtual exit
 * node.  Blocks that cannot reach the exit (infinite loops, including dead
 * ones) would have no post-dominator; we give them one by adding virtual
 * edges to the exit: repeatedly take the highest-numbered block that still
 * cannot reach the exit (for a loop that is normally its back-edge source,
 * the loop's "bottom"), add the edge block -> exit, and mark everything that
 * now reaches the exit.  One virtual edge per independent infinite loop
 * keeps reconvergence inside such loops meaningful (an if/else inside a
 * `while (1)` still reconverges at its join point), while branches that
 * lead into the loop reconverge at the exit.
 */
#include "ptx/cfg.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- graphs */

void cfg_graph_free(struct cfg_graph *g)
{
	free(g->off);
	free(g->adj);
	g->off = NULL;
	g->adj = NULL;
	g->n = 0;
}

bool cfg_graph_from_edges(struct cfg_graph *g, uint32_t n, uint32_t nedges, const uint32_t *src,
			  const uint32_t *dst)
{
	g->n = 0;
	g->off = calloc((size_t)n + 1, sizeof *g->off);
	g->adj = malloc(((size_t)nedges + 1) * sizeof *g->adj);
	if (!g->off || !g->adj) {
		cfg_graph_free(g);
		return false;
	}
	g->n = n;
	for (uint32_t e = 0; e < nedges; e++)
		g->off[src[e] + 1]++;
	for (uint32_t v = 0; v < n; v++)
		g->off[v + 1] += g->off[v];
	/* fill using a cursor per node; off[v] is restored afterwards */
	for (uint32_t e = 0; e < nedges; e++)
		g->adj[g->off[src[e]]++] = dst[e];
	for (uint32_t v = n; v > 0; v--)
		g->off[v] = g->off[v - 1];
	g->off[0] = 0;
	return true;
}

bool cfg_graph_reverse(struct cfg_graph *r, const struct cfg_graph *g)
{
	uint32_t n = g->n, ne = g->off ? g->off[n] : 0;
	uint32_t *src = malloc(((size_t)ne + 1) * sizeof *src);
	uint32_t *dst = malloc(((size_t)ne + 1) * sizeof *dst);
	bool ok = false;
	if (src && dst) {
		for (uint32_t v = 0; v < n; v++)
			for (uint32_t k = g->off[v]; k < g->off[v + 1]; k++) {
				src[k] = g->adj[k];
				dst[k] = v;
			}
		ok = cfg_graph_from_edges(r, n, ne, src, dst);
	}
	free(src);
	free(dst);
	return ok;
}

/* ------------------------------------------------------------ dominators */

bool cfg_idom(const struct cfg_graph *succ, const struct cfg_graph *pred, uint32_t root, int32_t *idom)
{
	uint32_t n = succ->n;
	for (uint32_t v = 0; v < n; v++)
		idom[v] = -1;
	if (root >= n)
		return true;
	uint32_t *po = malloc((size_t)n * sizeof *po);         /* postorder number of each node */
	uint32_t *order = malloc((size_t)n * sizeof *order);   /* nodes in postorder */
	uint32_t *stk = malloc((size_t)n * sizeof *stk);       /* DFS stack: node */
	uint32_t *next = malloc((size_t)n * sizeof *next);     /* DFS stack: next edge to follow */
	uint8_t *seen = calloc(n, 1);
	bool ok = po && order && stk && next && seen;
	if (!ok)
		goto out;

	/* iterative depth-first search from root: postorder */
	uint32_t sp = 0, cnt = 0;
	stk[sp] = root;
	next[sp++] = succ->off[root];
	seen[root] = 1;
	while (sp) {
		uint32_t v = stk[sp - 1];
		if (next[sp - 1] < succ->off[v + 1]) {
			uint32_t w = succ->adj[next[sp - 1]++];
			if (!seen[w]) {
				seen[w] = 1;
				stk[sp] = w;
				next[sp++] = succ->off[w];
			}
		} else {
			po[v] = cnt;
			order[cnt++] = v;
			sp--;
		}
	}

	/* Cooper-Harvey-Kennedy: iterate in reverse postorder to a fixed point */
	idom[root] = (int32_t)root;
	bool changed = true;
	while (changed) {
		changed = false;
		for (uint32_t k = cnt; k-- > 0;) {
			uint32_t b = order[k];
			if (b == root)
				continue;
			int32_t nd = -1;
			for (uint32_t e = pred->off[b]; e < pred->off[b + 1]; e++) {
				uint32_t p = pred->adj[e];
				if (idom[p] < 0)
					continue; /* unreachable or not processed yet */
				if (nd < 0) {
					nd = (int32_t)p;
					continue;
				}
				uint32_t f1 = p, f2 = (uint32_t)nd;
				while (f1 != f2) {
					while (po[f1] < po[f2])
						f1 = (uint32_t)idom[f1];
					while (po[f2] < po[f1])
						f2 = (uint32_t)idom[f2];
				}
				nd = (int32_t)f1;
			}
			if (nd >= 0 && idom[b] != nd) {
				idom[b] = nd;
				changed = true;
			}
		}
	}
out:
	free(po);
	free(order);
	free(stk);
	free(next);
	free(seen);
	return ok;
}

/* ------------------------------------------------------- PTX functions */

uint32_t cfg_branch_targets(const struct ptx_insn *in, const int32_t **targets)
{
	*targets = NULL;
	if (in->op == OP_BRA) {
		for (unsigned k = 0; k < in->nopd && k < PTX_MAX_OPDS; k++)
			if (in->opd[k].kind == OPD_LABEL) {
				*targets = &in->opd[k].target;
				return 1;
			}
		return 0;
	}
	if (in->op == OP_BRX) {
		for (unsigned k = 0; k < in->nopd && k < PTX_MAX_OPDS; k++)
			if (in->opd[k].kind == OPD_LIST) {
				*targets = in->opd[k].list;
				return in->opd[k].list ? in->opd[k].nlist : 0;
			}
		return 0;
	}
	return 0;
}

static bool cfg_fail(const struct ptx_module *m, struct ptx_error *err, uint32_t line, uint32_t col, const char *msg)
{
	if (err) {
		snprintf(err->file, sizeof err->file, "%s", m && m->filename ? m->filename : "<ptx>");
		err->line = line;
		err->col = col;
		snprintf(err->msg, sizeof err->msg, "%s", msg);
	}
	return false;
}

static bool ends_block(const struct ptx_insn *in)
{
	return in->op == OP_BRA || in->op == OP_BRX || in->op == OP_RET || in->op == OP_EXIT || in->op == OP_TRAP;
}

/* Edge list under construction. */
struct edges {
	uint32_t *src, *dst;
	uint32_t n, cap;
};

static bool edge_add(struct edges *e, uint32_t s, uint32_t d)
{
	if (e->n == e->cap) {
		uint32_t nc = e->cap ? e->cap * 2 : 64;
		if (nc < e->cap)
			return false;
		uint32_t *ns = realloc(e->src, (size_t)nc * sizeof *ns);
		if (!ns)
			return false;
		e->src = ns;
		uint32_t *nd = realloc(e->dst, (size_t)nc * sizeof *nd);
		if (!nd)
			return false;
		e->dst = nd;
		e->cap = nc;
	}
	e->src[e->n] = s;
	e->dst[e->n++] = d;
	return true;
}

/* Successor edges of every block (node nblocks = virtual exit); blocks must be valid. */
static bool block_edges(const struct ptx_function *fn, struct edges *E)
{
	uint32_t ni = fn->ninsns, nb = fn->nblocks;
	const uint32_t X = nb;
	for (uint32_t b = 0; b < nb; b++) {
		uint32_t last = (b + 1 < nb ? fn->block_start[b + 1] : ni) - 1;
		const struct ptx_insn *in = &fn->insns[last];
		bool fall = true;
		bool e_ok = true;
		if (in->op == OP_BRA || in->op == OP_BRX) {
			const int32_t *t;
			uint32_t nt = cfg_branch_targets(in, &t);
			for (uint32_t k = 0; k < nt && e_ok; k++)
				e_ok = edge_add(E, b, (uint32_t)t[k] >= ni ? X : fn->block_of[t[k]]);
			fall = in->guard >= 0;
		} else if (in->op == OP_RET || in->op == OP_EXIT || in->op == OP_TRAP) {
			e_ok = edge_add(E, b, X);
			fall = in->guard >= 0;
		}
		if (e_ok && fall)
			e_ok = edge_add(E, b, last + 1 == ni ? X : fn->block_of[last + 1]);
		if (!e_ok)
			return false;
	}
	return true;
}

bool cfg_block_graph(const struct ptx_function *fn, struct cfg_graph *g)
{
	struct edges E = {0};
	bool ok = fn->block_start && fn->block_of && block_edges(fn, &E) &&
		  cfg_graph_from_edges(g, fn->nblocks + 1, E.n, E.src, E.dst);
	free(E.src);
	free(E.dst);
	return ok;
}

bool cfg_function(const struct ptx_module *m, struct ptx_function *fn, struct ptx_error *err)
{
	uint32_t ni = fn->ninsns;
	free(fn->block_start);
	free(fn->block_of);
	free(fn->ipdom);
	fn->block_start = NULL;
	fn->block_of = NULL;
	fn->ipdom = NULL;
	fn->nblocks = 0;
	for (uint32_t i = 0; i < ni; i++)
		fn->insns[i].reconv = -1;
	if (ni == 0)
		return true;

	bool ok = false;
	const char *oom = "out of memory building the control-flow graph";
	uint8_t *leader = calloc((size_t)ni + 1, 1);
	struct edges E = {0};
	struct cfg_graph g = {0}, rg = {0};
	int32_t *pdom = NULL;
	uint8_t *reach = NULL;
	uint32_t *stk = NULL;
	if (!leader)
		return cfg_fail(m, err, fn->line, fn->col, oom);

	/* 1. leaders */
	leader[0] = 1;
	for (uint32_t i = 0; i < ni; i++) {
		const struct ptx_insn *in = &fn->insns[i];
		const int32_t *t;
		uint32_t nt = cfg_branch_targets(in, &t);
		if ((in->op == OP_BRA || in->op == OP_BRX) && nt == 0) {
			cfg_fail(m, err, in->line, in->col, in->op == OP_BRA ? "bra without a target label"
									    : "brx.idx without a target list");
			goto out;
		}
		for (uint32_t k = 0; k < nt; k++) {
			if (t[k] < 0 || (uint32_t)t[k] > ni) {
				cfg_fail(m, err, in->line, in->col, "branch target outside the function body");
				goto out;
			}
			leader[t[k]] = 1;
		}
		if (ends_block(in))
			leader[i + 1] = 1;
	}

	/* 2. blocks */
	uint32_t nb = 0;
	for (uint32_t i = 0; i < ni; i++)
		nb += leader[i];
	fn->block_start = malloc((size_t)nb * sizeof *fn->block_start);
	fn->block_of = malloc((size_t)ni * sizeof *fn->block_of);
	fn->ipdom = malloc((size_t)nb * sizeof *fn->ipdom);
	if (!fn->block_start || !fn->block_of || !fn->ipdom) {
		cfg_fail(m, err, fn->line, fn->col, oom);
		goto out;
	}
	fn->nblocks = nb;
	for (uint32_t i = 0, b = 0; i < ni; i++) {
		if (leader[i])
			fn->block_start[b++] = i;
		fn->block_of[i] = b - 1;
	}

	/* 3. edges; node nb is the virtual exit */
	const uint32_t X = nb;
	if (!block_edges(fn, &E)) {
		cfg_fail(m, err, fn->line, fn->col, oom);
		goto out;
	}

	/* 4. blocks that cannot reach the exit get a virtual edge to it (see top) */
	if (!cfg_graph_from_edges(&g, nb + 1, E.n, E.src, E.dst) || !cfg_graph_reverse(&rg, &g)) {
		cfg_fail(m, err, fn->line, fn->col, oom);
		goto out;
	}
	reach = calloc((size_t)nb + 1, 1);
	stk = malloc(((size_t)nb + 1) * sizeof *stk);
	if (!reach || !stk) {
		cfg_fail(m, err, fn->line, fn->col, oom);
		goto out;
	}
	uint32_t nfake = 0;
	{
		uint32_t sp = 0, cursor = nb; /* blocks >= cursor are known to reach the exit */
		uint32_t start = X;
		for (;;) {
			/* mark everything that reaches `start` (walk predecessors) */
			reach[start] = 1;
			stk[sp++] = start;
			while (sp) {
				uint32_t v = stk[--sp];
				for (uint32_t e = rg.off[v]; e < rg.off[v + 1]; e++) {
					uint32_t p = rg.adj[e];
					if (!reach[p]) {
						reach[p] = 1;
						stk[sp++] = p;
					}
				}
			}
			while (cursor > 0 && reach[cursor - 1])
				cursor--;
			if (cursor == 0)
				break;
			start = cursor - 1; /* highest block that cannot reach the exit */
			if (!edge_add(&E, start, X)) {
				cfg_fail(m, err, fn->line, fn->col, oom);
				goto out;
			}
			nfake++;
		}
	}
	if (nfake) {
		cfg_graph_free(&g);
		cfg_graph_free(&rg);
		if (!cfg_graph_from_edges(&g, nb + 1, E.n, E.src, E.dst) || !cfg_graph_reverse(&rg, &g)) {
			cfg_fail(m, err, fn->line, fn->col, oom);
			goto out;
		}
	}

	/* 5. post-dominators = dominators of the reverse graph rooted at the exit */
	pdom = malloc(((size_t)nb + 1) * sizeof *pdom);
	if (!pdom || !cfg_idom(&rg, &g, X, pdom)) {
		cfg_fail(m, err, fn->line, fn->col, oom);
		goto out;
	}
	for (uint32_t b = 0; b < nb; b++)
		fn->ipdom[b] = (pdom[b] < 0 || (uint32_t)pdom[b] == X) ? -1 : pdom[b];

	/* 6. reconvergence pcs */
	for (uint32_t i = 0; i < ni; i++) {
		struct ptx_insn *in = &fn->insns[i];
		if (in->op != OP_BRA && in->op != OP_BRX)
			continue;
		int32_t p = fn->ipdom[fn->block_of[i]];
		in->reconv = p < 0 ? PTX_PC_EXIT : (int32_t)fn->block_start[p];
	}
	ok = true;
out:
	if (!ok) {
		free(fn->block_start);
		free(fn->block_of);
		free(fn->ipdom);
		fn->block_start = NULL;
		fn->block_of = NULL;
		fn->ipdom = NULL;
		fn->nblocks = 0;
	}
	free(leader);
	free(E.src);
	free(E.dst);
	cfg_graph_free(&g);
	cfg_graph_free(&rg);
	free(pdom);
	free(reach);
	free(stk);
	return ok;
}
