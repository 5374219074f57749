/*
 * test_cfg.c -- tests of the PTX analysis pass (src/ptx/analysis.c, cfg.c):
 * basic blocks, immediate post-dominators and branch reconvergence pcs
 * (if/else, nested if, loops with break/continue, early return, brx
 * switch, infinite and unreachable code, labels at the end), call
 * resolution, immediate typing, unit/latency classes and memory layout,
 * on IR built by hand; test_cfg_ptx.c runs the same pass on parsed PTX
 * text.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ptx/cfg.h"
#include "ptx/ir.h"
#include "test.h"

/* ------------------------------------------------ hand-built IR helpers */

#define HB_MAX 256

struct hb {
	struct ptx_module m;
	struct ptx_function f[4];
	struct ptx_insn in[4][HB_MAX];
	struct ptx_var v[16];
	struct ptx_reg_info regs[8];
	int32_t lists[8][8];
	int32_t plist[4][4];
	struct ptx_error err;
};

static void hb_init(struct hb *h, unsigned nfuncs)
{
	memset(h, 0, sizeof *h);
	h->m.filename = (char *)"hand.ptx";
	h->m.address_size = 64;
	h->m.funcs = h->f;
	h->m.nfuncs = nfuncs;
	h->m.vars = h->v;
	for (unsigned f = 0; f < 4; f++) {
		h->f[f].insns = h->in[f];
		h->f[f].name = (char *)(f == 0 ? "k0" : f == 1 ? "f1" : f == 2 ? "f2" : "f3");
	}
	h->f[0].is_entry = true;
}

static void hb_free(struct hb *h)
{
	for (unsigned f = 0; f < 4; f++) {
		free(h->f[f].block_start);
		free(h->f[f].block_of);
		free(h->f[f].ipdom);
		h->f[f].block_start = NULL;
		h->f[f].block_of = NULL;
		h->f[f].ipdom = NULL;
	}
}

static struct ptx_insn *hb_add(struct hb *h, unsigned f, enum ptx_opcode op, enum ptx_type t)
{
	struct ptx_function *fn = &h->f[f];
	struct ptx_insn *in = &fn->insns[fn->ninsns];
	memset(in, 0, sizeof *in);
	in->op = (uint16_t)op;
	in->type = (uint8_t)t;
	in->vec = 1;
	in->guard = -1;
	in->reconv = -7;
	in->callee = -7;
	in->line = fn->ninsns + 10;
	in->col = 3;
	for (unsigned k = 0; k < PTX_MAX_OPDS; k++) {
		in->opd[k].reg2 = -1;
		in->opd[k].func = -1;
		in->opd[k].sym = -1;
	}
	fn->ninsns++;
	return in;
}

static struct ptx_elem hb_elems[16][4]; /* storage of OPD_VEC operands (the IR keeps them out of line) */
static unsigned hb_nelems;

static struct ptx_operand *opd(struct ptx_insn *in, enum ptx_opd_kind kind)
{
	struct ptx_operand *o = &in->opd[in->nopd++];
	o->kind = (uint8_t)kind;
	if (kind == OPD_VEC) {
		o->elem = hb_elems[hb_nelems++ % 16];
		memset(o->elem, 0, 4 * sizeof *o->elem);
	}
	return o;
}

static void o_reg(struct ptx_insn *in, int32_t r) { opd(in, OPD_REG)->reg = r; }

static struct ptx_operand *o_imm(struct ptx_insn *in, enum ptx_imm_kind k, uint64_t bits)
{
	struct ptx_operand *o = opd(in, OPD_IMM);
	o->imm_kind = (uint8_t)k;
	o->imm = bits;
	return o;
}

static uint64_t dbits(double d)
{
	uint64_t b;
	memcpy(&b, &d, sizeof b);
	return b;
}

static uint64_t fbits(float f)
{
	uint32_t b;
	memcpy(&b, &f, sizeof b);
	return b;
}

/*
 * A control-flow skeleton: one row per instruction.
 *   'o' plain instruction        'b' unguarded bra   'B' guarded bra
 *   'r' ret  'R' guarded ret      'x' exit  't' trap  'X' guarded exit
 *   's' brx.idx to the row's list (set separately)
 */
struct row {
	char kind;
	int32_t target;
};

static void hb_rows(struct hb *h, unsigned f, const struct row *rows, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		struct ptx_insn *in;
		switch (rows[i].kind) {
		case 'b': case 'B':
			in = hb_add(h, f, OP_BRA, PTX_T_NONE);
			opd(in, OPD_LABEL)->target = rows[i].target;
			break;
		case 'r': case 'R': in = hb_add(h, f, OP_RET, PTX_T_NONE); break;
		case 'x': case 'X': in = hb_add(h, f, OP_EXIT, PTX_T_NONE); break;
		case 't': in = hb_add(h, f, OP_TRAP, PTX_T_NONE); break;
		case 's':
			in = hb_add(h, f, OP_BRX, PTX_T_NONE);
			o_reg(in, 0);
			break;
		default:
			in = hb_add(h, f, OP_ADD, PTX_T_S32);
			o_reg(in, 0);
			o_reg(in, 0);
			o_reg(in, 0);
			break;
		}
		if (rows[i].kind == 'B' || rows[i].kind == 'R' || rows[i].kind == 'X')
			in->guard = 1;
	}
}

static void set_brx(struct hb *h, unsigned f, unsigned pc, unsigned li, const int32_t *t, unsigned n)
{
	memcpy(h->lists[li], t, n * sizeof *t);
	struct ptx_operand *o = opd(&h->f[f].insns[pc], OPD_LIST);
	o->list = h->lists[li];
	o->nlist = n;
}

#define E PTX_PC_EXIT
#define N (-1)
/* Check reconv of every instruction against want[] (N = not a branch). */
static void check_reconv(struct test_ctx *t, const struct ptx_function *fn, const int32_t *want, unsigned n)
{
	CHECK_EQ(fn->ninsns, n);
	for (unsigned i = 0; i < n && i < fn->ninsns; i++)
		CHECK_MSG(fn->insns[i].reconv == want[i], "pc %u: reconv %d, want %d", i, fn->insns[i].reconv,
			  want[i]);
}

static bool analyse_rows(struct test_ctx *t, struct hb *h, const struct row *rows, unsigned n)
{
	hb_init(h, 1);
	hb_rows(h, 0, rows, n);
	bool ok = ptx_analyse(&h->m, &h->err);
	CHECK_MSG(ok, "analyse: %s", h->err.msg);
	return ok;
}

/* ------------------------------------------------------ dominators */

TEST(cfg_idom_chk_paper_example)
{
	/* Figure 4 of Cooper/Harvey/Kennedy: an irreducible graph whose idoms are all the root. */
	uint32_t src[] = {6, 6, 5, 4, 4, 1, 2, 2, 3};
	uint32_t dst[] = {5, 4, 1, 2, 3, 2, 1, 3, 2};
	struct cfg_graph g, r;
	CHECK(cfg_graph_from_edges(&g, 7, 9, src, dst));
	CHECK(cfg_graph_reverse(&r, &g));
	int32_t idom[7];
	CHECK(cfg_idom(&g, &r, 6, idom));
	CHECK_EQ(idom[0], -1); /* node 0 is unreachable */
	for (int v = 1; v <= 6; v++)
		CHECK_EQ(idom[v], 6);
	cfg_graph_free(&g);
	cfg_graph_free(&r);
}

TEST(cfg_idom_diamond_chain)
{
	/* 0 -> {1,2} -> 3 -> {4,5} -> 6 */
	uint32_t src[] = {0, 0, 1, 2, 3, 3, 4, 5};
	uint32_t dst[] = {1, 2, 3, 3, 4, 5, 6, 6};
	struct cfg_graph g, r;
	CHECK(cfg_graph_from_edges(&g, 7, 8, src, dst));
	CHECK(cfg_graph_reverse(&r, &g));
	int32_t idom[7], pdom[7];
	CHECK(cfg_idom(&g, &r, 0, idom));
	int32_t want[7] = {0, 0, 0, 0, 3, 3, 3};
	for (int v = 0; v < 7; v++)
		CHECK_EQ(idom[v], want[v]);
	CHECK(cfg_idom(&r, &g, 6, pdom)); /* post-dominators */
	int32_t wantp[7] = {3, 3, 3, 6, 6, 6, 6};
	for (int v = 0; v < 7; v++)
		CHECK_EQ(pdom[v], wantp[v]);
	cfg_graph_free(&g);
	cfg_graph_free(&r);
}

/* ----------------------------------------- reconvergence, hand-built IR */

TEST(cfg_hand_if_else)
{
	struct hb h;
	struct row rows[] = {{'o', 0}, {'B', 4}, {'o', 0}, {'b', 5}, {'o', 0}, {'o', 0}, {'r', 0}};
	if (analyse_rows(t, &h, rows, 7)) {
		const struct ptx_function *fn = &h.f[0];
		CHECK_EQ(fn->nblocks, 4);
		CHECK_EQ(fn->block_start[0], 0);
		CHECK_EQ(fn->block_start[1], 2);
		CHECK_EQ(fn->block_start[2], 4);
		CHECK_EQ(fn->block_start[3], 5);
		CHECK_EQ(fn->block_of[3], 1);
		CHECK_EQ(fn->block_of[6], 3);
		CHECK_EQ(fn->ipdom[0], 3);
		CHECK_EQ(fn->ipdom[1], 3);
		CHECK_EQ(fn->ipdom[3], -1);
		int32_t want[] = {N, 5, N, 5, N, N, N};
		check_reconv(t, fn, want, 7);
	}
	hb_free(&h);
}

TEST(cfg_hand_nested_if)
{
	struct hb h;
	struct row rows[] = {{'B', 6}, {'B', 4}, {'o', 0}, {'b', 5}, {'o', 0}, {'o', 0}, {'r', 0}};
	if (analyse_rows(t, &h, rows, 7)) {
		int32_t want[] = {6, 5, N, 5, N, N, N};
		check_reconv(t, &h.f[0], want, 7);
	}
	hb_free(&h);
}

TEST(cfg_hand_loop_break_continue)
{
	struct hb h;
	/* 1: loop head; 2: break to 8; 4: continue to 7; 7: latch back to 1 */
	struct row rows[] = {{'o', 0}, {'o', 0}, {'B', 8}, {'o', 0}, {'B', 7},
			     {'o', 0}, {'o', 0}, {'B', 1}, {'r', 0}};
	if (analyse_rows(t, &h, rows, 9)) {
		CHECK_EQ(h.f[0].nblocks, 6);
		int32_t want[] = {N, N, 8, N, 7, N, N, 8, N};
		check_reconv(t, &h.f[0], want, 9);
	}
	hb_free(&h);
}

TEST(cfg_hand_early_return)
{
	struct hb h;
	struct row rows[] = {{'o', 0}, {'B', 4}, {'o', 0}, {'r', 0}, {'o', 0}, {'r', 0}};
	if (analyse_rows(t, &h, rows, 6)) {
		int32_t want[] = {N, E, N, N, N, N};
		check_reconv(t, &h.f[0], want, 6);
	}
	hb_free(&h);
	/* a guarded ret ends its block and also falls through */
	struct row rows2[] = {{'o', 0}, {'R', 0}, {'o', 0}, {'B', 5}, {'o', 0}, {'r', 0}};
	if (analyse_rows(t, &h, rows2, 6)) {
		CHECK_EQ(h.f[0].nblocks, 4);
		CHECK_EQ(h.f[0].block_start[1], 2);
		int32_t want[] = {N, N, N, 5, N, N};
		check_reconv(t, &h.f[0], want, 6);
	}
	hb_free(&h);
	/* a guarded exit inside an if: the exiting path bypasses the join, so the
	 * branch reconverges only at the exit; without it, at the join */
	struct row rows3[] = {{'B', 3}, {'X', 0}, {'o', 0}, {'o', 0}, {'t', 0}};
	if (analyse_rows(t, &h, rows3, 5)) {
		int32_t want[] = {E, N, N, N, N};
		check_reconv(t, &h.f[0], want, 5);
	}
	hb_free(&h);
	struct row rows4[] = {{'B', 3}, {'o', 0}, {'o', 0}, {'o', 0}, {'t', 0}};
	if (analyse_rows(t, &h, rows4, 5)) {
		int32_t want[] = {3, N, N, N, N};
		check_reconv(t, &h.f[0], want, 5);
	}
	hb_free(&h);
}

TEST(cfg_hand_brx_switch)
{
	struct hb h;
	hb_init(&h, 1);
	struct row rows[] = {{'o', 0}, {'s', 0}, {'b', 9}, {'o', 0}, {'b', 9},
			     {'o', 0}, {'b', 9}, {'o', 0}, {'o', 0}, {'r', 0}};
	hb_rows(&h, 0, rows, 10);
	int32_t tg[] = {3, 5, 7, 5};
	set_brx(&h, 0, 1, 0, tg, 4);
	bool ok = ptx_analyse(&h.m, &h.err);
	CHECK_MSG(ok, "%s", h.err.msg);
	if (ok) {
		CHECK_EQ(h.f[0].nblocks, 6);
		/* pc 2 is unreachable (brx does not fall through) but still post-dominated by 9 */
		int32_t want[] = {N, 9, 9, N, 9, N, 9, N, N, N};
		check_reconv(t, &h.f[0], want, 10);
	}
	hb_free(&h);
	/* a guarded brx also falls through */
	hb_init(&h, 1);
	struct row rows2[] = {{'s', 0}, {'o', 0}, {'b', 4}, {'o', 0}, {'o', 0}, {'r', 0}};
	hb_rows(&h, 0, rows2, 6);
	h.f[0].insns[0].guard = 2;
	int32_t tg2[] = {3};
	set_brx(&h, 0, 0, 0, tg2, 1);
	ok = ptx_analyse(&h.m, &h.err);
	CHECK_MSG(ok, "%s", h.err.msg);
	if (ok) {
		int32_t want[] = {4, N, 4, N, N, N};
		check_reconv(t, &h.f[0], want, 6);
	}
	hb_free(&h);
}

TEST(cfg_hand_infinite_loop)
{
	struct hb h;
	/* 0-1: if (p) goto 4 else return; 4..7: while (1) { if (q) {6} } */
	struct row rows[] = {{'o', 0}, {'B', 4}, {'o', 0}, {'r', 0}, {'o', 0}, {'B', 7}, {'o', 0}, {'b', 4}};
	if (analyse_rows(t, &h, rows, 8)) {
		/* the if inside the endless loop still reconverges at its join (7) */
		int32_t want[] = {N, E, N, N, N, 7, N, E};
		check_reconv(t, &h.f[0], want, 8);
	}
	hb_free(&h);
	/* a self loop with no way out and nothing else */
	struct row rows2[] = {{'o', 0}, {'b', 0}};
	if (analyse_rows(t, &h, rows2, 2)) {
		int32_t want[] = {N, E};
		check_reconv(t, &h.f[0], want, 2);
		CHECK_EQ(h.f[0].ipdom[0], -1);
	}
	hb_free(&h);
	/* two separate endless loops behind an if/else */
	struct row rows3[] = {{'B', 3}, {'o', 0}, {'b', 1}, {'o', 0}, {'B', 3}, {'b', 3}};
	if (analyse_rows(t, &h, rows3, 6)) {
		int32_t want[] = {E, N, E, N, 5, E};
		check_reconv(t, &h.f[0], want, 6);
	}
	hb_free(&h);
}

TEST(cfg_hand_unreachable_code)
{
	struct hb h;
	struct row rows[] = {{'b', 3}, {'o', 0}, {'o', 0}, {'r', 0}};
	if (analyse_rows(t, &h, rows, 4)) {
		CHECK_EQ(h.f[0].nblocks, 3);
		CHECK_EQ(h.f[0].ipdom[1], 2);
		int32_t want[] = {3, N, N, N};
		check_reconv(t, &h.f[0], want, 4);
	}
	hb_free(&h);
	/* dead code after ret that loops forever */
	struct row rows2[] = {{'r', 0}, {'o', 0}, {'B', 1}, {'b', 1}};
	if (analyse_rows(t, &h, rows2, 4)) {
		int32_t want[] = {N, N, 3, E};
		check_reconv(t, &h.f[0], want, 4);
	}
	hb_free(&h);
}

TEST(cfg_hand_label_at_end_and_fallthrough)
{
	struct hb h;
	/* bra to pc == ninsns (label before the closing brace) goes to the exit */
	struct row rows[] = {{'B', 3}, {'o', 0}, {'o', 0}};
	if (analyse_rows(t, &h, rows, 3)) {
		CHECK_EQ(h.f[0].nblocks, 2);
		int32_t want[] = {E, N, N};
		check_reconv(t, &h.f[0], want, 3);
	}
	hb_free(&h);
	/* falling off the end without ret */
	struct row rows2[] = {{'B', 2}, {'o', 0}, {'o', 0}};
	if (analyse_rows(t, &h, rows2, 3)) {
		int32_t want[] = {2, N, N};
		check_reconv(t, &h.f[0], want, 3);
	}
	hb_free(&h);
}

TEST(cfg_hand_bad_target)
{
	struct hb h;
	hb_init(&h, 1);
	struct row rows[] = {{'o', 0}, {'B', 9}, {'r', 0}};
	hb_rows(&h, 0, rows, 3);
	CHECK(!ptx_analyse(&h.m, &h.err));
	CHECK_EQ(h.err.line, 11);
	CHECK_EQ(h.err.col, 3);
	CHECK_STR_CONTAINS(h.err.msg, "branch target");
	CHECK_STR_CONTAINS(h.err.file, "hand.ptx");
	CHECK(h.f[0].block_start == NULL);
	hb_free(&h);
	hb_init(&h, 1);
	struct row rows2[] = {{'B', -1}, {'r', 0}};
	hb_rows(&h, 0, rows2, 2);
	CHECK(!ptx_analyse(&h.m, &h.err));
	hb_free(&h);
}

TEST(cfg_hand_empty_body)
{
	struct hb h;
	hb_init(&h, 1);
	CHECK(ptx_analyse(&h.m, &h.err));
	CHECK_EQ(h.f[0].nblocks, 0);
	hb_free(&h);
}

TEST(cfg_hand_large_function)
{
	/* 40k instructions: a long chain of diamonds inside a loop, with a
	 * nested loop in every diamond; must be fast and exact. */
	enum { REP = 5000, LEN = 8, NI = REP * LEN + 2 };
	struct ptx_module m;
	struct ptx_function fn;
	memset(&m, 0, sizeof m);
	memset(&fn, 0, sizeof fn);
	m.filename = (char *)"big.ptx";
	m.funcs = &fn;
	m.nfuncs = 1;
	fn.is_entry = true;
	fn.name = (char *)"big";
	fn.insns = calloc(NI, sizeof *fn.insns);
	CHECK(fn.insns != NULL);
	if (!fn.insns)
		return;
	fn.ninsns = NI;
	for (uint32_t i = 0; i < NI; i++) {
		fn.insns[i].op = OP_ADD;
		fn.insns[i].type = PTX_T_S32;
		fn.insns[i].guard = -1;
	}
	/* block r: b = r*LEN:  b+0: @p bra b+4 | b+1 add | b+2 @p bra b+1 (inner loop) | b+3 bra b+5 | b+4 add | b+5 add,
	 * b+6 add, b+7 add */
	for (uint32_t r = 0; r < REP; r++) {
		uint32_t b = r * LEN;
		struct ptx_insn *x = &fn.insns[b];
		x[0].op = OP_BRA, x[0].guard = 1, x[0].nopd = 1, x[0].opd[0].kind = OPD_LABEL, x[0].opd[0].target = (int32_t)b + 4;
		x[2].op = OP_BRA, x[2].guard = 1, x[2].nopd = 1, x[2].opd[0].kind = OPD_LABEL, x[2].opd[0].target = (int32_t)b + 1;
		x[3].op = OP_BRA, x[3].nopd = 1, x[3].opd[0].kind = OPD_LABEL, x[3].opd[0].target = (int32_t)b + 5;
	}
	/* outer loop back edge and ret */
	fn.insns[NI - 2].op = OP_BRA, fn.insns[NI - 2].guard = 1, fn.insns[NI - 2].nopd = 1;
	fn.insns[NI - 2].opd[0].kind = OPD_LABEL, fn.insns[NI - 2].opd[0].target = 0;
	fn.insns[NI - 1].op = OP_RET;
	struct ptx_error err;
	bool ok = ptx_analyse(&m, &err);
	CHECK_MSG(ok, "%s", err.msg);
	if (ok) {
		for (uint32_t r = 0; r < REP; r++) {
			uint32_t b = r * LEN;
			CHECK_EQ(fn.insns[b].reconv, b + 5);
			CHECK_EQ(fn.insns[b + 2].reconv, b + 3);
			CHECK_EQ(fn.insns[b + 3].reconv, b + 5);
		}
		CHECK_EQ(fn.insns[NI - 2].reconv, NI - 1);
	}
	free(fn.insns);
	free(fn.block_start);
	free(fn.block_of);
	free(fn.ipdom);
}

/* ------------------------------------------------------------ calls */

static void hb_param(struct hb *h, unsigned vi, unsigned f, bool ret, enum ptx_type t)
{
	struct ptx_var *v = &h->v[vi];
	v->name = (char *)"p";
	v->space = SPACE_PARAM;
	v->type = (uint8_t)t;
	v->size = ptx_type_size[t];
	v->func = (int32_t)f;
	v->is_kparam = h->f[f].is_entry;
	v->is_fparam = !h->f[f].is_entry;
	v->is_retval = ret;
	if (vi + 1 > h->m.nvars)
		h->m.nvars = vi + 1;
}

/* k0 calls f1(a, b) -> r; f1: 2 params, 1 ret */
static void build_call(struct hb *h, unsigned nargs, unsigned nrets)
{
	hb_init(h, 2);
	hb_param(h, 0, 1, false, PTX_T_U32);
	hb_param(h, 1, 1, false, PTX_T_U64);
	hb_param(h, 2, 1, true, PTX_T_F32);
	h->plist[1][0] = 0;
	h->plist[1][1] = 1;
	h->plist[2][0] = 2;
	h->f[1].params = h->plist[1];
	h->f[1].nparams = 2;
	h->f[1].rets = h->plist[2];
	h->f[1].nrets = 1;
	hb_add(h, 1, OP_RET, PTX_T_NONE);
	/* call-site params of k0 */
	for (unsigned i = 0; i < 3; i++) {
		struct ptx_var *v = &h->v[3 + i];
		v->name = (char *)"cs";
		v->space = SPACE_PARAM;
		v->type = PTX_T_B64;
		v->size = 8;
		v->func = 0;
		h->lists[0][i] = 3 + (int32_t)i;
	}
	h->m.nvars = 6;
	struct ptx_insn *c = hb_add(h, 0, OP_CALL, PTX_T_NONE);
	struct ptx_operand *r = opd(c, OPD_LIST);
	r->list = h->lists[0];
	r->nlist = nrets;
	opd(c, OPD_FUNC)->func = 1;
	struct ptx_operand *a = opd(c, OPD_LIST);
	a->list = h->lists[0] + 1;
	a->nlist = nargs;
	hb_add(h, 0, OP_RET, PTX_T_NONE);
}

TEST(cfg_call_resolution)
{
	struct hb h;
	build_call(&h, 2, 1);
	CHECK_MSG(ptx_analyse(&h.m, &h.err), "%s", h.err.msg);
	CHECK_EQ(h.f[0].insns[0].callee, 1);
	CHECK_EQ(h.f[0].insns[1].callee, -1);
	CHECK_EQ(h.f[0].insns[0].reconv, -1);
	hb_free(&h);

	build_call(&h, 1, 1);
	CHECK(!ptx_analyse(&h.m, &h.err));
	CHECK_STR_CONTAINS(h.err.msg, "f1");
	CHECK_STR_CONTAINS(h.err.msg, "argument");
	CHECK_EQ(h.err.line, 10);
	hb_free(&h);

	build_call(&h, 2, 0);
	CHECK(!ptx_analyse(&h.m, &h.err));
	CHECK_STR_CONTAINS(h.err.msg, "return");
	hb_free(&h);

	build_call(&h, 2, 1);
	h.f[1].is_extern = true;
	h.f[1].ninsns = 0;
	CHECK(!ptx_analyse(&h.m, &h.err));
	CHECK_STR_CONTAINS(h.err.msg, "no body");
	hb_free(&h);

	/* indirect call: callee stays -1 */
	build_call(&h, 2, 1);
	h.f[0].insns[0].opd[1].kind = OPD_REG;
	h.f[0].insns[0].opd[1].reg = 0;
	CHECK_MSG(ptx_analyse(&h.m, &h.err), "%s", h.err.msg);
	CHECK_EQ(h.f[0].insns[0].callee, -1);
	hb_free(&h);

	/* calling a kernel is an error */
	build_call(&h, 2, 1);
	h.f[0].insns[0].opd[1].func = 0;
	CHECK(!ptx_analyse(&h.m, &h.err));
	hb_free(&h);
}

TEST(cfg_call_frame_layout)
{
	struct hb h;
	build_call(&h, 2, 1);
	/* a .local array in k0 */
	struct ptx_var *lv = &h.v[6];
	lv->name = (char *)"depot";
	lv->space = SPACE_LOCAL;
	lv->type = PTX_T_B8;
	lv->align = 8;
	lv->size = 40;
	lv->func = 0;
	h.m.nvars = 7;
	CHECK_MSG(ptx_analyse(&h.m, &h.err), "%s", h.err.msg);
	/* f1 frame: u32 param at 0, u64 param at 8, f32 ret at 16 -> 20 -> 32 */
	CHECK_EQ(h.v[0].addr, 0);
	CHECK_EQ(h.v[1].addr, 8);
	CHECK_EQ(h.v[2].addr, 16);
	CHECK_EQ(h.f[1].frame_size, 32);
	/* k0 frame: three b64 call-site params then the 8-aligned local */
	CHECK_EQ(h.v[3].addr, 0);
	CHECK_EQ(h.v[4].addr, 8);
	CHECK_EQ(h.v[5].addr, 16);
	CHECK_EQ(h.v[6].addr, 24);
	CHECK_EQ(h.f[0].frame_size, 64);
	CHECK_EQ(h.f[0].kparam_size, 0);
	hb_free(&h);
}

/* ------------------------------------------------------- immediates */

static uint64_t imm_after(struct test_ctx *t, enum ptx_opcode op, enum ptx_type ty, enum ptx_type ty2, unsigned pos,
			  enum ptx_imm_kind k, uint64_t bits, unsigned mode)
{
	struct hb h;
	hb_init(&h, 1);
	struct ptx_insn *in = hb_add(&h, 0, op, ty);
	in->type2 = (uint8_t)ty2;
	in->mode = (uint8_t)mode;
	for (unsigned p = 0; p <= pos || p < 3; p++) {
		if (p == pos)
			o_imm(in, k, bits);
		else if (op == OP_ST && p == 0)
			opd(in, OPD_ADDR)->abase = ABASE_REG;
		else
			o_reg(in, 0);
	}
	hb_add(&h, 0, OP_RET, PTX_T_NONE);
	bool ok = ptx_analyse(&h.m, &h.err);
	CHECK_MSG(ok, "%s %u: %s", ptx_opcode_table[op].name, pos, h.err.msg);
	uint64_t r = h.f[0].insns[0].opd[pos].imm;
	hb_free(&h);
	return ok ? r : 0xdeadbeefdeadbeefull;
}

static bool imm_fails(enum ptx_opcode op, enum ptx_type ty, unsigned pos, enum ptx_imm_kind k, uint64_t bits,
		      char *msg, size_t msgsz)
{
	struct hb h;
	hb_init(&h, 1);
	struct ptx_insn *in = hb_add(&h, 0, op, ty);
	for (unsigned p = 0; p <= pos || p < 2; p++) {
		if (p == pos)
			o_imm(in, k, bits);
		else
			o_reg(in, 0);
	}
	bool ok = ptx_analyse(&h.m, &h.err);
	snprintf(msg, msgsz, "%u:%u %s", h.err.line, h.err.col, h.err.msg);
	hb_free(&h);
	return !ok;
}

TEST(cfg_imm_float_conversion)
{
	/* f32 position: f64 literal rounds to nearest, int literal by value, 0f kept */
	CHECK_EQ(imm_after(t, OP_ADD, PTX_T_F32, 0, 2, IMM_F64, dbits(1.1), 0), fbits(1.1f));
	CHECK_EQ(imm_after(t, OP_ADD, PTX_T_F32, 0, 2, IMM_INT, 3, 0), fbits(3.0f));
	CHECK_EQ(imm_after(t, OP_ADD, PTX_T_F32, 0, 2, IMM_INT, (uint64_t)-2, 0), fbits(-2.0f));
	CHECK_EQ(imm_after(t, OP_MUL, PTX_T_F32, 0, 1, IMM_F32, 0x7fc00001u, 0), 0x7fc00001u);
	/* f64 position: 0f literal widens */
	CHECK_EQ(imm_after(t, OP_ADD, PTX_T_F64, 0, 2, IMM_F32, 0x3fc00000u, 0), dbits(1.5));
	CHECK_EQ(imm_after(t, OP_FMA, PTX_T_F64, 0, 3, IMM_INT, 7, 0), dbits(7.0));
	CHECK_EQ(imm_after(t, OP_ADD, PTX_T_F64, 0, 2, IMM_F64, dbits(0.1), 0), dbits(0.1));
	/* f16: round to nearest even, overflow, subnormals */
	CHECK_EQ(imm_after(t, OP_ADD, PTX_T_F16, 0, 2, IMM_F64, dbits(1.0), 0), 0x3c00);
	CHECK_EQ(imm_after(t, OP_ADD, PTX_T_F16, 0, 2, IMM_F64, dbits(-2.5), 0), 0xc100);
	CHECK_EQ(imm_after(t, OP_ADD, PTX_T_F16, 0, 2, IMM_F64, dbits(65504.0), 0), 0x7bff);
	CHECK_EQ(imm_after(t, OP_ADD, PTX_T_F16, 0, 2, IMM_F64, dbits(65519.0), 0), 0x7bff);
	CHECK_EQ(imm_after(t, OP_ADD, PTX_T_F16, 0, 2, IMM_F64, dbits(65520.0), 0), 0x7c00);
	CHECK_EQ(imm_after(t, OP_ADD, PTX_T_F16, 0, 2, IMM_F64, dbits(ldexp(1, -24)), 0), 0x0001);
	CHECK_EQ(imm_after(t, OP_ADD, PTX_T_F16, 0, 2, IMM_F64, dbits(ldexp(1, -25)), 0), 0x0000);
	CHECK_EQ(imm_after(t, OP_ADD, PTX_T_F16, 0, 2, IMM_F64, dbits(ldexp(3, -25)), 0), 0x0002);
	CHECK_EQ(imm_after(t, OP_ADD, PTX_T_F16, 0, 2, IMM_F64, dbits(ldexp(1023, -24)), 0), 0x03ff);
	CHECK_EQ(imm_after(t, OP_ADD, PTX_T_F16, 0, 2, IMM_F64, dbits(ldexp(2047, -25)), 0), 0x0400);
	CHECK_EQ(imm_after(t, OP_ADD, PTX_T_F16, 0, 2, IMM_F64, dbits(1.0 + ldexp(1, -11)), 0), 0x3c00); /* tie: even */
	CHECK_EQ(imm_after(t, OP_ADD, PTX_T_F16, 0, 2, IMM_F64, dbits(1.0 + ldexp(3, -11)), 0), 0x3c02);
	CHECK_EQ(imm_after(t, OP_ADD, PTX_T_F16, 0, 2, IMM_F32, 0x7f800000u, 0), 0x7c00);
	CHECK_EQ(imm_after(t, OP_ADD, PTX_T_F16, 0, 2, IMM_F32, 0xff800000u, 0), 0xfc00);
	CHECK_EQ(imm_after(t, OP_ADD, PTX_T_F16, 0, 2, IMM_F32, 0x7fc00000u, 0) & 0x7e00, 0x7e00);
	CHECK_EQ(imm_after(t, OP_ADD, PTX_T_F16, 0, 2, IMM_INT, 2, 0), 0x4000);
	/* bf16 */
	CHECK_EQ(imm_after(t, OP_FMA, PTX_T_BF16, 0, 1, IMM_F32, 0x3f800000u, 0), 0x3f80);
	CHECK_EQ(imm_after(t, OP_FMA, PTX_T_BF16, 0, 1, IMM_F32, 0x3f808000u, 0), 0x3f80);
	CHECK_EQ(imm_after(t, OP_FMA, PTX_T_BF16, 0, 1, IMM_F32, 0x3f818000u, 0), 0x3f82);
	CHECK_EQ(imm_after(t, OP_FMA, PTX_T_BF16, 0, 1, IMM_F32, 0x3f808001u, 0), 0x3f81);
	/* bit types take float literals as the float of their width */
	CHECK_EQ(imm_after(t, OP_MOV, PTX_T_B32, 0, 1, IMM_F32, 0x3f800000u, 0), 0x3f800000u);
	CHECK_EQ(imm_after(t, OP_MOV, PTX_T_B64, 0, 1, IMM_F64, dbits(2.0), 0), dbits(2.0));
	CHECK_EQ(imm_after(t, OP_MOV, PTX_T_B16, 0, 1, IMM_F64, dbits(1.0), 0), 0x3c00);
	/* f32 from an f64 NaN stays a quiet NaN */
	uint64_t nan32 = imm_after(t, OP_ADD, PTX_T_F32, 0, 2, IMM_F64, 0x7ff0000000000001ull, 0);
	CHECK_EQ(nan32 & 0x7fc00000u, 0x7fc00000u);
}

TEST(cfg_imm_integer_positions)
{
	CHECK_EQ(imm_after(t, OP_ADD, PTX_T_S32, 0, 2, IMM_INT, (uint64_t)-1, 0), 0xffffffffu);
	CHECK_EQ(imm_after(t, OP_ADD, PTX_T_S64, 0, 2, IMM_INT, (uint64_t)-4, 0), (uint64_t)-4);
	CHECK_EQ(imm_after(t, OP_ADD, PTX_T_U16, 0, 2, IMM_INT, 0x12345, 0), 0x2345);
	/* shift amounts are u32 whatever the data type */
	CHECK_EQ(imm_after(t, OP_SHL, PTX_T_B64, 0, 2, IMM_INT, (uint64_t)-1, 0), 0xffffffffu);
	CHECK_EQ(imm_after(t, OP_SHR, PTX_T_B16, 0, 2, IMM_INT, 17, 0), 17);
	CHECK_EQ(imm_after(t, OP_SHF, PTX_T_B32, 0, 3, IMM_INT, 3, 0), 3);
	/* bfe/bfi positions and lengths */
	CHECK_EQ(imm_after(t, OP_BFE, PTX_T_U64, 0, 2, IMM_INT, 40, 0), 40);
	CHECK_EQ(imm_after(t, OP_BFI, PTX_T_B64, 0, 4, IMM_INT, 32, 0), 32);
	CHECK_EQ(imm_after(t, OP_BFI, PTX_T_B64, 0, 1, IMM_INT, (uint64_t)-1, 0), (uint64_t)-1);
	/* mul.wide sources use the type; mad.wide's c is twice as wide */
	CHECK_EQ(imm_after(t, OP_MUL, PTX_T_S32, 0, 2, IMM_INT, (uint64_t)-4, MODE_WIDE), 0xfffffffcu);
	CHECK_EQ(imm_after(t, OP_MAD, PTX_T_S32, 0, 3, IMM_INT, (uint64_t)-1, MODE_WIDE), (uint64_t)-1);
	CHECK_EQ(imm_after(t, OP_MAD, PTX_T_S32, 0, 3, IMM_INT, (uint64_t)-1, MODE_LO), 0xffffffffu);
	/* setp/set sources, selp/slct selectors */
	CHECK_EQ(imm_after(t, OP_SETP, PTX_T_F32, 0, 2, IMM_INT, 1, 0), fbits(1.0f));
	CHECK_EQ(imm_after(t, OP_SET, PTX_T_U32, PTX_T_F64, 2, IMM_INT, 1, 0), dbits(1.0));
	CHECK_EQ(imm_after(t, OP_SELP, PTX_T_F32, 0, 1, IMM_F64, dbits(0.5), 0), fbits(0.5f));
	CHECK_EQ(imm_after(t, OP_SELP, PTX_T_U32, 0, 3, IMM_INT, 5, 0), 1);
	CHECK_EQ(imm_after(t, OP_SLCT, PTX_T_U32, PTX_T_F32, 3, IMM_INT, 2, 0), fbits(2.0f));
	CHECK_EQ(imm_after(t, OP_SLCT, PTX_T_F32, PTX_T_S32, 1, IMM_INT, 2, 0), fbits(2.0f));
	/* cvt source uses type2 */
	CHECK_EQ(imm_after(t, OP_CVT, PTX_T_F32, PTX_T_F64, 1, IMM_F32, 0x3f800000u, 0), dbits(1.0));
	/* st value and atom operands use the type */
	CHECK_EQ(imm_after(t, OP_ST, PTX_T_F32, 0, 1, IMM_INT, 1, 0), fbits(1.0f));
	CHECK_EQ(imm_after(t, OP_ATOM, PTX_T_F64, 0, 2, IMM_F32, 0x3f800000u, 0), dbits(1.0));
	CHECK_EQ(imm_after(t, OP_ATOM, PTX_T_B32, 0, 3, IMM_INT, (uint64_t)-1, 0), 0xffffffffu);
	CHECK_EQ(imm_after(t, OP_RED, PTX_T_U64, 0, 1, IMM_INT, (uint64_t)-1, 0), (uint64_t)-1);
	/* prmt selector, shfl operands, vote/redux membermask */
	CHECK_EQ(imm_after(t, OP_PRMT, PTX_T_B32, 0, 3, IMM_INT, 0x3210, 0), 0x3210);
	CHECK_EQ(imm_after(t, OP_SHFL, PTX_T_B32, 0, 3, IMM_INT, 0x1f, MODE_DOWN), 0x1f);
	CHECK_EQ(imm_after(t, OP_SHFL, PTX_T_B32, 0, 4, IMM_INT, (uint64_t)-1, MODE_DOWN), 0xffffffffu);
	CHECK_EQ(imm_after(t, OP_VOTE, PTX_T_PRED, 0, 2, IMM_INT, (uint64_t)-1, MODE_ALL), 0xffffffffu);
	/* dp4a: a uses type, b type2, c s32 if either is signed */
	CHECK_EQ(imm_after(t, OP_DP4A, PTX_T_U32, PTX_T_S32, 3, IMM_INT, (uint64_t)-1, 0), 0xffffffffu);
	CHECK_EQ(imm_after(t, OP_DP4A, PTX_T_U32, PTX_T_U32, 3, IMM_INT, 7, 0), 7);
	/* bar.sync id, bar.red's u32 operands */
	CHECK_EQ(imm_after(t, OP_BAR, PTX_T_NONE, 0, 0, IMM_INT, 0, MODE_SYNC), 0);
	CHECK_EQ(imm_after(t, OP_BAR, PTX_T_U32, 0, 1, IMM_INT, 0, MODE_RED), 0);
	CHECK_EQ(imm_after(t, OP_BAR, PTX_T_NONE, 0, 0, IMM_INT, (uint64_t)-1, MODE_WARP_SYNC), 0xffffffffu);
	/* testp and copysign take the float type */
	CHECK_EQ(imm_after(t, OP_TESTP, PTX_T_F32, 0, 1, IMM_INT, 0, MODE_FINITE), 0);
	CHECK_EQ(imm_after(t, OP_COPYSIGN, PTX_T_F64, 0, 1, IMM_INT, (uint64_t)-1, 0), dbits(-1.0));
}

TEST(cfg_imm_vectors)
{
	struct hb h;
	hb_init(&h, 1);
	/* mov.b64 %rd, {1, 0f3F800000} packs two b32 */
	struct ptx_insn *in = hb_add(&h, 0, OP_MOV, PTX_T_B64);
	o_reg(in, 0);
	struct ptx_operand *v = opd(in, OPD_VEC);
	v->nelem = 2;
	v->elem[0].kind = OPD_IMM, v->elem[0].imm_kind = IMM_INT, v->elem[0].imm = (uint64_t)-1;
	v->elem[1].kind = OPD_IMM, v->elem[1].imm_kind = IMM_F32, v->elem[1].imm = 0x3f800000u;
	/* st.v4.f32 [a], {1, %f, 0d3FF8000000000000, _} */
	in = hb_add(&h, 0, OP_ST, PTX_T_F32);
	in->vec = 4;
	opd(in, OPD_ADDR)->abase = ABASE_REG;
	v = opd(in, OPD_VEC);
	v->nelem = 4;
	v->elem[0].kind = OPD_IMM, v->elem[0].imm_kind = IMM_INT, v->elem[0].imm = 1;
	v->elem[1].kind = OPD_REG;
	v->elem[2].kind = OPD_IMM, v->elem[2].imm_kind = IMM_F64, v->elem[2].imm = dbits(1.5);
	v->elem[3].kind = OPD_SINK;
	hb_add(&h, 0, OP_RET, PTX_T_NONE);
	CHECK_MSG(ptx_analyse(&h.m, &h.err), "%s", h.err.msg);
	CHECK_EQ(h.f[0].insns[0].opd[1].elem[0].imm, 0xffffffffu);
	CHECK_EQ(h.f[0].insns[0].opd[1].elem[1].imm, 0x3f800000u);
	CHECK_EQ(h.f[0].insns[1].opd[1].elem[0].imm, fbits(1.0f));
	CHECK_EQ(h.f[0].insns[1].opd[1].elem[2].imm, fbits(1.5f));
	hb_free(&h);
}

TEST(cfg_imm_errors)
{
	char msg[600];
	CHECK(imm_fails(OP_ADD, PTX_T_S32, 2, IMM_F64, dbits(1.5), msg, sizeof msg));
	CHECK_STR_CONTAINS(msg, "10:3");
	CHECK_STR_CONTAINS(msg, "integer");
	CHECK(imm_fails(OP_SHL, PTX_T_B32, 2, IMM_F32, 0x3f800000u, msg, sizeof msg));
	CHECK(imm_fails(OP_ADD, PTX_T_F16X2, 2, IMM_F64, dbits(1.0), msg, sizeof msg));
	CHECK(imm_fails(OP_ADD, PTX_T_S32, 0, IMM_INT, 1, msg, sizeof msg)); /* destination */
	CHECK_STR_CONTAINS(msg, "immediate");
	CHECK(imm_fails(OP_SELP, PTX_T_F32, 3, IMM_F32, 0x3f800000u, msg, sizeof msg)); /* float predicate */
	CHECK(!imm_fails(OP_ADD, PTX_T_F16X2, 2, IMM_INT, 0x3c003c00u, msg, sizeof msg));
}

/* ---------------------------------------------------- unit / latency */

static void check_class(struct test_ctx *t, enum ptx_opcode op, enum ptx_type ty, enum ptx_type ty2, uint32_t flags,
			enum ptx_rnd rnd, enum ws_unit unit, enum ptx_lat lat)
{
	struct hb h;
	hb_init(&h, 1);
	struct ptx_insn *in = hb_add(&h, 0, op, ty);
	in->type2 = (uint8_t)ty2;
	in->flags = flags;
	in->rnd = (uint8_t)rnd;
	if (op == OP_BRA)
		opd(in, OPD_LABEL)->target = 1;
	hb_add(&h, 0, OP_RET, PTX_T_NONE);
	CHECK_MSG(ptx_analyse(&h.m, &h.err), "%s", h.err.msg);
	CHECK_MSG(h.f[0].insns[0].unit == unit && h.f[0].insns[0].lat == lat, "%s.%s: unit %u lat %u, want %u %u",
		  ptx_opcode_table[op].name, ptx_type_name[ty], h.f[0].insns[0].unit, h.f[0].insns[0].lat, unit, lat);
	hb_free(&h);
}

TEST(cfg_unit_latency_classes)
{
	check_class(t, OP_ADD, PTX_T_F32, 0, 0, RND_NONE, UNIT_SP, LAT_ADD);
	check_class(t, OP_ADD, PTX_T_F64, 0, 0, RND_NONE, UNIT_DP, LAT_ADD);
	check_class(t, OP_ADD, PTX_T_S32, 0, 0, RND_NONE, UNIT_INT, LAT_ADD);
	check_class(t, OP_ADD, PTX_T_F16X2, 0, 0, RND_NONE, UNIT_SP, LAT_ADD);
	check_class(t, OP_MUL, PTX_T_S32, 0, 0, RND_NONE, UNIT_INT, LAT_MUL);
	check_class(t, OP_MAD, PTX_T_U32, 0, 0, RND_NONE, UNIT_INT, LAT_MAD);
	check_class(t, OP_FMA, PTX_T_F64, 0, 0, RND_RN, UNIT_DP, LAT_MAD);
	check_class(t, OP_MAX, PTX_T_S32, 0, 0, RND_NONE, UNIT_INT, LAT_MAX);
	check_class(t, OP_MIN, PTX_T_F64, 0, 0, RND_NONE, UNIT_DP, LAT_MAX);
	check_class(t, OP_DIV, PTX_T_S32, 0, 0, RND_NONE, UNIT_INT, LAT_DIV);
	check_class(t, OP_REM, PTX_T_U64, 0, 0, RND_NONE, UNIT_INT, LAT_DIV);
	check_class(t, OP_DIV, PTX_T_F32, 0, 0, RND_RN, UNIT_SP, LAT_DIV);
	check_class(t, OP_DIV, PTX_T_F32, 0, FLAG_FULL, RND_NONE, UNIT_SP, LAT_DIV);
	check_class(t, OP_DIV, PTX_T_F32, 0, FLAG_APPROX, RND_NONE, UNIT_SFU, LAT_SFU);
	check_class(t, OP_DIV, PTX_T_F64, 0, 0, RND_RN, UNIT_DP, LAT_DIV);
	check_class(t, OP_SQRT, PTX_T_F64, 0, 0, RND_RN, UNIT_DP, LAT_DIV);
	check_class(t, OP_RCP, PTX_T_F64, 0, 0, RND_RN, UNIT_DP, LAT_DIV);
	check_class(t, OP_RSQRT, PTX_T_F64, 0, FLAG_APPROX, RND_NONE, UNIT_SFU, LAT_SFU);
	check_class(t, OP_SQRT, PTX_T_F32, 0, 0, RND_RN, UNIT_SP, LAT_DIV);
	check_class(t, OP_SQRT, PTX_T_F32, 0, FLAG_APPROX, RND_NONE, UNIT_SFU, LAT_SFU);
	check_class(t, OP_EX2, PTX_T_F32, 0, FLAG_APPROX, RND_NONE, UNIT_SFU, LAT_SFU);
	check_class(t, OP_TANH, PTX_T_F16, 0, FLAG_APPROX, RND_NONE, UNIT_SFU, LAT_SFU);
	check_class(t, OP_SETP, PTX_T_F64, 0, 0, RND_NONE, UNIT_DP, LAT_ADD);
	check_class(t, OP_SETP, PTX_T_S32, 0, 0, RND_NONE, UNIT_INT, LAT_ADD);
	check_class(t, OP_SET, PTX_T_U32, PTX_T_F64, 0, RND_NONE, UNIT_DP, LAT_ADD);
	check_class(t, OP_CVT, PTX_T_F32, PTX_T_F64, 0, RND_RN, UNIT_DP, LAT_ADD);
	check_class(t, OP_CVT, PTX_T_F32, PTX_T_S32, 0, RND_RN, UNIT_SP, LAT_ADD);
	check_class(t, OP_CVT, PTX_T_U64, PTX_T_U32, 0, RND_NONE, UNIT_INT, LAT_ADD);
	check_class(t, OP_AND, PTX_T_PRED, 0, 0, RND_NONE, UNIT_INT, LAT_ADD);
	check_class(t, OP_MOV, PTX_T_F64, 0, 0, RND_NONE, UNIT_SP, LAT_ADD);
	check_class(t, OP_SELP, PTX_T_F64, 0, 0, RND_NONE, UNIT_SP, LAT_ADD);
	check_class(t, OP_LD, PTX_T_F64, 0, 0, RND_NONE, UNIT_LDST, LAT_MEM);
	check_class(t, OP_BRA, PTX_T_NONE, 0, 0, RND_NONE, UNIT_SP, LAT_CTRL);
	check_class(t, OP_BAR, PTX_T_NONE, 0, 0, RND_NONE, UNIT_SP, LAT_CTRL);
	check_class(t, OP_SHFL, PTX_T_B32, 0, 0, RND_NONE, UNIT_SP, LAT_ADD);
}

/* ------------------------------------------------------------ layout */

static void hb_var(struct hb *h, unsigned vi, const char *name, enum ptx_space sp, enum ptx_type ty, uint64_t size,
		   uint32_t align, int32_t func)
{
	struct ptx_var *v = &h->v[vi];
	memset(v, 0, sizeof *v);
	v->name = (char *)name;
	v->space = (uint8_t)sp;
	v->type = (uint8_t)ty;
	v->size = size;
	v->align = align;
	v->func = func;
	v->line = 100 + vi;
	if (vi + 1 > h->m.nvars)
		h->m.nvars = vi + 1;
}

TEST(cfg_layout_module)
{
	struct hb h;
	hb_init(&h, 4); /* k0 (entry) calls f1; f1 calls f2; f3 is an entry calling nothing */
	h.f[3].is_entry = true;
	hb_var(&h, 0, "g1", SPACE_GLOBAL, PTX_T_U32, 4, 0, -1);
	hb_var(&h, 1, "c1", SPACE_CONST, PTX_T_B8, 16, 4, -1);
	hb_var(&h, 2, "g2", SPACE_GLOBAL, PTX_T_B8, 24, 8, -1);
	hb_var(&h, 3, "s_mod", SPACE_SHARED, PTX_T_B8, 100, 4, -1);
	hb_var(&h, 4, "dyn", SPACE_SHARED, PTX_T_B8, 0, 16, -1);
	h.v[4].is_extern = 1;
	hb_var(&h, 5, "s_k0", SPACE_SHARED, PTX_T_B8, 64, 16, 0);
	hb_var(&h, 6, "s_k3", SPACE_SHARED, PTX_T_B8, 1000, 8, 3);
	hb_var(&h, 7, "s_f2", SPACE_SHARED, PTX_T_F64, 8, 0, 2);
	hb_var(&h, 8, "kp0", SPACE_PARAM, PTX_T_U32, 4, 0, 0);
	hb_var(&h, 9, "kp1", SPACE_PARAM, PTX_T_U64, 8, 0, 0);
	hb_var(&h, 10, "kp2", SPACE_PARAM, PTX_T_B8, 3, 1, 0);
	for (int i = 8; i <= 10; i++)
		h.v[i].is_kparam = 1;
	h.plist[0][0] = 8, h.plist[0][1] = 9, h.plist[0][2] = 10;
	h.f[0].params = h.plist[0];
	h.f[0].nparams = 3;
	hb_var(&h, 11, "c2", SPACE_CONST, PTX_T_F64, 8, 0, -1);
	/* k0: call f1; ret.  f1: call f2; ret.  f2: ret. */
	struct ptx_insn *c = hb_add(&h, 0, OP_CALL, PTX_T_NONE);
	opd(c, OPD_LIST);
	opd(c, OPD_FUNC)->func = 1;
	opd(c, OPD_LIST);
	hb_add(&h, 0, OP_RET, PTX_T_NONE);
	c = hb_add(&h, 1, OP_CALL, PTX_T_NONE);
	opd(c, OPD_LIST);
	opd(c, OPD_FUNC)->func = 2;
	opd(c, OPD_LIST);
	hb_add(&h, 1, OP_RET, PTX_T_NONE);
	hb_add(&h, 2, OP_RET, PTX_T_NONE);
	hb_add(&h, 3, OP_RET, PTX_T_NONE);
	/* registers of k0: 3 x b32, 2 x b64, 4 preds, 1 x b16 -> 3 + 4 + 0 + 1 = 8 */
	enum ptx_type rt[] = {PTX_T_B32, PTX_T_U32, PTX_T_F32, PTX_T_B64, PTX_T_F64, PTX_T_PRED, PTX_T_B16};
	for (int i = 0; i < 7; i++)
		h.regs[i].type = (uint8_t)rt[i];
	h.f[0].regs = h.regs;
	h.f[0].nregs = 7;
	CHECK_MSG(ptx_analyse(&h.m, &h.err), "%s", h.err.msg);
	/* global image: g1 @0 (4), g2 @8 (24) -> 32 */
	CHECK_EQ(h.v[0].addr, 0);
	CHECK_EQ(h.v[2].addr, 8);
	CHECK_EQ(h.m.global_image_size, 32);
	/* const image: c1 @0 (16), c2 @16 */
	CHECK_EQ(h.v[1].addr, 0);
	CHECK_EQ(h.v[11].addr, 16);
	CHECK_EQ(h.m.const_image_size, 24);
	/* shared: module 100 bytes; k0's own 64 @112; f2's var after the largest
	 * (module + own) of kernels reaching it (k0: 176) -> 176; k3 overlaps k0 */
	CHECK_EQ(h.v[3].addr, 0);
	CHECK_EQ(h.m.shared_module_size, 100);
	CHECK_EQ(h.v[5].addr, 112);
	CHECK_EQ(h.v[6].addr, 104);
	CHECK_EQ(h.v[7].addr, 176);
	CHECK_EQ(h.f[0].shared_static, 184);
	CHECK_EQ(h.f[3].shared_static, 1104);
	CHECK_EQ(h.v[4].addr, 0); /* extern shared: relative to the dynamic base */
	/* kernel params: u32 @0, u64 @8, b8[3] @16 -> 19 */
	CHECK_EQ(h.v[8].addr, 0);
	CHECK_EQ(h.v[9].addr, 8);
	CHECK_EQ(h.v[10].addr, 16);
	CHECK_EQ(h.f[0].kparam_size, 19);
	CHECK_EQ(h.f[0].frame_size, 0);
	CHECK_EQ(h.f[0].regs_per_thread, 1); /* no instruction touches a register */
	CHECK_EQ(h.f[0].insns[0].callee, 1);
	CHECK_EQ(h.f[1].insns[0].callee, 2);
	hb_free(&h);
}

TEST(cfg_layout_limits)
{
	struct hb h;
	hb_init(&h, 1);
	hb_var(&h, 0, "huge", SPACE_GLOBAL, PTX_T_B8, 1ull << 62, 0, -1);
	hb_add(&h, 0, OP_RET, PTX_T_NONE);
	CHECK(!ptx_analyse(&h.m, &h.err));
	CHECK_STR_CONTAINS(h.err.msg, "huge");
	CHECK_EQ(h.err.line, 100);
	hb_free(&h);
	/* module-scope .local is rejected */
	hb_init(&h, 1);
	hb_var(&h, 0, "ml", SPACE_LOCAL, PTX_T_U32, 4, 0, -1);
	CHECK(!ptx_analyse(&h.m, &h.err));
	hb_free(&h);
	/* register estimate is capped at 255 and at .maxnreg: 300 values live at once */
	enum { NV = 300 };
	struct ptx_module m;
	struct ptx_function fn;
	memset(&m, 0, sizeof m);
	memset(&fn, 0, sizeof fn);
	m.funcs = &fn;
	m.nfuncs = 1;
	fn.is_entry = true;
	fn.regs = calloc(NV, sizeof *fn.regs);
	fn.insns = calloc(2 * NV, sizeof *fn.insns);
	CHECK(fn.regs && fn.insns);
	if (fn.regs && fn.insns) {
		fn.nregs = NV;
		for (int i = 0; i < NV; i++) {
			fn.regs[i].type = PTX_T_B32;
			struct ptx_insn *d = &fn.insns[i]; /* mov.u32 %ri, i */
			d->op = OP_MOV, d->type = PTX_T_U32, d->guard = -1, d->nopd = 2;
			d->opd[0].kind = OPD_REG, d->opd[0].reg = i, d->opd[0].reg2 = -1;
			d->opd[1].kind = OPD_IMM, d->opd[1].imm = (uint64_t)i;
			struct ptx_insn *u = &fn.insns[NV + i]; /* add.s32 %r0, %r0, %ri */
			u->op = OP_ADD, u->type = PTX_T_S32, u->guard = -1, u->nopd = 3;
			u->opd[0].kind = OPD_REG, u->opd[0].reg = 0, u->opd[0].reg2 = -1;
			u->opd[1].kind = OPD_REG, u->opd[1].reg = 0, u->opd[1].reg2 = -1;
			u->opd[2].kind = OPD_REG, u->opd[2].reg = i, u->opd[2].reg2 = -1;
		}
		fn.ninsns = 2 * NV;
		struct ptx_error err;
		CHECK(ptx_analyse(&m, &err));
		CHECK_EQ(ptx_reg_pressure(&m, &fn), NV);
		CHECK_EQ(fn.regs_per_thread, 255);
		fn.maxnreg = 40;
		for (int i = 0; i < NV; i++) /* immediates were already converted: keep them valid */
			fn.insns[i].opd[1].imm_kind = IMM_INT;
		CHECK(ptx_analyse(&m, &err));
		CHECK_EQ(fn.regs_per_thread, 40);
	}
	free(fn.regs);
	free(fn.insns);
	free(fn.block_start);
	free(fn.block_of);
	free(fn.ipdom);
}

TEST(cfg_layout_indirect_call_reach)
{
	/* k0 takes f1's address and calls through a register: f1's shared
	 * variable counts towards k0's static shared memory; f2 (never named)
	 * does not */
	struct hb h;
	hb_init(&h, 3);
	hb_var(&h, 0, "s_f1", SPACE_SHARED, PTX_T_B8, 32, 16, 1);
	hb_var(&h, 1, "s_f2", SPACE_SHARED, PTX_T_B8, 64, 16, 2);
	struct ptx_insn *mv = hb_add(&h, 0, OP_MOV, PTX_T_U64);
	o_reg(mv, 0);
	opd(mv, OPD_FUNC)->func = 1;
	struct ptx_insn *c = hb_add(&h, 0, OP_CALL, PTX_T_NONE);
	opd(c, OPD_LIST);
	o_reg(c, 0);
	opd(c, OPD_LIST);
	hb_add(&h, 0, OP_RET, PTX_T_NONE);
	hb_add(&h, 1, OP_RET, PTX_T_NONE);
	hb_add(&h, 2, OP_RET, PTX_T_NONE);
	h.regs[0].type = PTX_T_U64;
	h.f[0].regs = h.regs;
	h.f[0].nregs = 1;
	CHECK_MSG(ptx_analyse(&h.m, &h.err), "%s", h.err.msg);
	CHECK_EQ(h.f[0].insns[1].callee, -1);
	CHECK_EQ(h.v[0].addr, 0);
	CHECK_EQ(h.v[1].addr, 32);
	CHECK_EQ(h.f[0].shared_static, 32);
	CHECK_EQ(h.f[0].regs_per_thread, 2); /* the u64 function pointer */
	hb_free(&h);
}
