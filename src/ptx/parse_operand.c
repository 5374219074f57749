/*
 * parse_operand.c -- PTX parser, operands: names in operands (registers,
 * vector-register components, variables in scope, special registers) and
 * every operand form (registers, "!%p" and "_|%p", immediates, addresses
 * [base+off], vectors {a, b}, symbols, functions, labels and branch
 * tables), plus the operand lists of call.
 *
 * Models no hardware.  Part of the parser of parser.c; shared state and
 * helpers in parse_internal.h.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx/parse_internal.h"

/* ------------------------------------------------------------------ */
/* names in operands                                                   */
/* ------------------------------------------------------------------ */

/* Resolve a name visible here: returns SK_REG/SK_VAR with *idx, or SK_NONE. */
static int lookup(struct parser *p, const char *s, uint32_t n, int32_t *idx)
{
	struct strmap_slot *sl = p->fi >= 0 ? strmap_find(&p->scope, s, n) : NULL;
	if (sl && sl->kind != SK_NONE) {
		*idx = sl->val;
		return sl->kind;
	}
	sl = strmap_find(&p->modvars, s, n);
	if (sl && sl->val >= 0) {
		*idx = sl->val;
		return SK_VAR;
	}
	return SK_NONE;
}

static bool unknown_reg(struct parser *p, const struct ptx_token *t)
{
	uint32_t n = t->len;
	while (n > 1 && t->text[n - 1] >= '0' && t->text[n - 1] <= '9')
		n--;
	if (n < t->len) {
		for (uint32_t i = p->nranges; i-- > 0;) {
			struct rdecl *r = &p->ranges[i];
			if (r->plen == n && memcmp(r->prefix, t->text, n) == 0)
				return fail_tok(p, t, "unknown register %s (declared: %.*s<%u>)", qtok(t).s, (int)(n > 40 ? 40 : n),
						t->text, r->count);
		}
	}
	return fail_tok(p, t, "register %s is not declared", qtok(t).s);
}

/* After a vector register's name (consumed): its .x/.y/.z/.w (or .r/.g/.b/.a)
 * component, if one follows directly; returns the element index, -1 if none,
 * -2 after an error. */
static int vreg_component(struct parser *p, const struct ptx_token *name, int32_t val)
{
	const struct ptx_token *c = peek(p, 0);
	if (c->kind != PTX_TOK_DIRECTIVE || c->space_before)
		return -1;
	unsigned n = (unsigned)val >> 24;
	const char *xyzw = "xyzw", *rgba = "rgba";
	for (unsigned k = 0; k < n; k++)
		if (c->len == 2 && (c->text[1] == xyzw[k] || c->text[1] == rgba[k])) {
			next(p);
			return (int)k;
		}
	fail_tok(p, c, "vector register %s has no component %s", qname(name->text, name->len).s, qtok(c).s);
	return -2;
}

/* a register name token -> index (must be declared) */
static bool reg_of(struct parser *p, const struct ptx_token *t, int32_t *reg)
{
	if (t->kind != PTX_TOK_IDENT)
		return fail_tok(p, t, "expected a register, got %s", qtok(t).s);
	int32_t idx;
	int k = lookup(p, t->text, t->len, &idx);
	if (k == SK_REG) {
		*reg = idx;
		return true;
	}
	if (k == SK_VAR)
		return fail_tok(p, t, "expected a register, got variable %s", qtok(t).s);
	if (k == SK_VREG)
		return fail_tok(p, t, "vector register %s cannot be used here", qtok(t).s);
	if (t->text[0] == '%')
		return unknown_reg(p, t);
	return fail_tok(p, t, "unknown register %s", qtok(t).s);
}

bool pred_reg_of(struct parser *p, const struct ptx_token *t, int32_t *reg)
{
	if (!reg_of(p, t, reg))
		return false;
	if (cur(p)->regs[*reg].type != PTX_T_PRED)
		return fail_tok(p, t, "%s is not a .pred register", qtok(t).s);
	return true;
}

/* After a destination, an optional "|%p": the second, predicate destination
 * (into o->reg2). */
static bool parse_pred_second(struct parser *p, struct ptx_operand *o)
{
	if (!accept(p, '|'))
		return true;
	if (!pred_reg_of(p, peek(p, 0), &o->reg2))
		return false;
	next(p);
	return true;
}

/* ------------------------------------------------------------------ */
/* operands                                                            */
/* ------------------------------------------------------------------ */

/* immediate: [-] INT | FLOAT | F32 | F64 */
static bool parse_imm(struct parser *p, uint8_t *kind, uint64_t *bits)
{
	bool neg = false;
	const struct ptx_token *t = peek(p, 0);
	if (t->kind == '-') {
		neg = true;
		next(p);
		t = peek(p, 0);
	}
	switch (t->kind) {
	case PTX_TOK_INT:
		if (t->overflow || (neg && t->ival > (uint64_t)INT64_MAX + 1))
			return fail_tok(p, t, "immediate out of range");
		*kind = IMM_INT;
		*bits = neg ? 0 - t->ival : t->ival;
		break;
	case PTX_TOK_FLOAT:
		*kind = IMM_F64;
		*bits = d2bits(neg ? -t->fval : t->fval);
		break;
	case PTX_TOK_F32:
		*kind = IMM_F32;
		*bits = t->ival ^ (neg ? 0x80000000ull : 0);
		break;
	case PTX_TOK_F64:
		*kind = IMM_F64;
		*bits = t->ival ^ (neg ? 0x8000000000000000ull : 0);
		break;
	default:
		return fail_tok(p, t, "expected a number, got %s", qtok(t).s);
	}
	next(p);
	return true;
}

static bool add_fref(struct parser *p, uint8_t what, uint32_t insn, unsigned opd, const struct ptx_token *t)
{
	if (!GROW(p, p->frefs, p->cap_frefs, p->nfrefs + 1))
		return false;
	p->frefs[p->nfrefs++] = (struct ref){(uint32_t)p->fi, insn, (uint8_t)opd, what, t->text, t->len, t->line, t->col};
	return true;
}
static bool add_mref(struct parser *p, uint8_t what, uint32_t insn, unsigned opd, const struct ptx_token *t)
{
	if (!GROW(p, p->mrefs, p->cap_mrefs, p->nmrefs + 1))
		return false;
	p->mrefs[p->nmrefs++] = (struct ref){(uint32_t)p->fi, insn, (uint8_t)opd, what, t->text, t->len, t->line, t->col};
	return true;
}

static bool parse_address(struct parser *p, struct ptx_operand *o)
{
	next(p); /* '[' */
	o->kind = OPD_ADDR;
	const struct ptx_token *t = peek(p, 0);
	if (t->kind == PTX_TOK_IDENT) {
		int32_t idx;
		int k = lookup(p, t->text, t->len, &idx);
		if (k == SK_REG) {
			o->abase = ABASE_REG;
			o->reg = idx;
		} else if (k == SK_VAR) {
			o->abase = ABASE_SYM;
			o->sym = idx;
		} else if (k == SK_VREG) {
			return fail_tok(p, t, "vector register %s cannot be an address", qtok(t).s);
		} else if (t->text[0] == '%') {
			return unknown_reg(p, t);
		} else {
			return fail_tok(p, t, "unknown symbol %s", qtok(t).s);
		}
		next(p);
		t = peek(p, 0);
		if (t->kind == '+' || t->kind == '-') {
			bool minus = next(p).kind == '-';
			int64_t v = 0;
			if (!parse_sint(p, &v, "an offset"))
				return false;
			o->offset = minus ? (int64_t)(0 - (uint64_t)v) : v;
		}
	} else if (t->kind == PTX_TOK_INT || t->kind == '-') {
		int64_t v = 0;
		if (!parse_sint(p, &v, "an address"))
			return false;
		o->abase = ABASE_NONE;
		o->offset = v;
	} else {
		return fail_tok(p, t, "expected a register, symbol or constant address, got %s", qtok(t).s);
	}
	return expect(p, ']', "']' after address");
}

bool parse_vector(struct parser *p, struct ptx_operand *o)
{
	next(p); /* '{' */
	o->kind = OPD_VEC;
	o->elem = calloc(PTX_MAX_VEC, sizeof *o->elem); /* freed with the instruction, also on error */
	if (!o->elem)
		return fail_oom(p);
	for (int i = 0; i < PTX_MAX_VEC; i++)
		o->elem[i].reg = -1;
	for (;;) {
		const struct ptx_token *t = peek(p, 0);
		if (o->nelem >= PTX_MAX_VEC)
			return fail_tok(p, t, "too many vector elements (at most %d)", PTX_MAX_VEC);
		struct ptx_elem *e = &o->elem[o->nelem];
		if (tok_is(t, PTX_TOK_IDENT, "_")) {
			e->kind = OPD_SINK;
			next(p);
		} else if (t->kind == PTX_TOK_IDENT) {
			int32_t vv;
			if (lookup(p, t->text, t->len, &vv) == SK_VREG) { /* {%v.x, ...} */
				struct ptx_token nt = next(p);
				int ci = vreg_component(p, &nt, vv);
				if (ci == -2)
					return false;
				if (ci < 0)
					return fail_at(p, nt.line, nt.col, "a vector register in a vector operand needs a component (.x, ...)");
				e->kind = OPD_REG;
				e->reg = (vv & 0xffffff) + ci;
				o->nelem++;
				if (accept(p, ','))
					continue;
				return expect(p, '}', "',' or '}' in vector operand");
			}
			if (!reg_of(p, t, &e->reg))
				return false;
			e->kind = OPD_REG;
			next(p);
		} else if (t->kind == '-' || t->kind == PTX_TOK_INT || t->kind == PTX_TOK_FLOAT || t->kind == PTX_TOK_F32 ||
			   t->kind == PTX_TOK_F64) {
			e->kind = OPD_IMM;
			if (!parse_imm(p, &e->imm_kind, &e->imm))
				return false;
		} else {
			return fail_tok(p, t, "vector elements must be registers, immediates or '_', got %s", qtok(t).s);
		}
		o->nelem++;
		if (accept(p, ','))
			continue;
		return expect(p, '}', "',' or '}' in vector operand");
	}
}

bool parse_operand(struct parser *p, struct ptx_operand *o, int mode, uint32_t insn, unsigned k)
{
	const struct ptx_token *t = peek(p, 0);
	switch (t->kind) {
	case '!': {
		next(p);
		t = peek(p, 0);
		if (!reg_of(p, t, &o->reg))
			return false;
		o->kind = OPD_REG;
		o->neg = 1;
		next(p);
		return true;
	}
	case '{':
		return parse_vector(p, o);
	case '[':
		return parse_address(p, o);
	case '-':
	case PTX_TOK_INT:
	case PTX_TOK_FLOAT:
	case PTX_TOK_F32:
	case PTX_TOK_F64:
		o->kind = OPD_IMM;
		return parse_imm(p, &o->imm_kind, &o->imm);
	case PTX_TOK_IDENT:
		break;
	default:
		return fail_tok(p, t, "expected an operand, got %s", qtok(t).s);
	}
	struct ptx_token nt = *t;
	if (mode == OPM_LABEL) {
		o->kind = OPD_LABEL;
		next(p);
		return add_fref(p, REF_LABEL, insn, k, &nt);
	}
	if (mode == OPM_BTABLE) {
		o->kind = OPD_LIST;
		next(p);
		return add_fref(p, REF_BTABLE, insn, k, &nt);
	}
	if (nt.len == 1 && nt.text[0] == '_') {
		o->kind = OPD_SINK;
		next(p);
		return parse_pred_second(p, o); /* "_|%p": only the predicate destination is wanted */
	}
	int32_t idx;
	int kind = lookup(p, nt.text, nt.len, &idx);
	if (kind == SK_VREG) { /* %v.x: one element; %v: the whole vector */
		next(p);
		int ci = vreg_component(p, &nt, idx);
		if (ci == -2)
			return false;
		if (ci >= 0) {
			o->kind = OPD_REG;
			o->reg = (idx & 0xffffff) + ci;
			return true;
		}
		o->kind = OPD_VEC;
		o->elem = calloc(PTX_MAX_VEC, sizeof *o->elem);
		if (!o->elem)
			return fail_oom(p);
		o->nelem = (uint8_t)((unsigned)idx >> 24);
		for (unsigned k = 0; k < o->nelem; k++)
			o->elem[k] = (struct ptx_elem){.kind = OPD_REG, .reg = (idx & 0xffffff) + (int32_t)k};
		return true;
	}
	if (kind == SK_REG) {
		o->kind = OPD_REG;
		o->reg = idx;
		next(p);
		/* scalar video source selectors: %r1.b0 .. .b3, .h0, .h1 (comp 1..6) */
		unsigned vop = cur(p)->insns[insn].op;
		const struct ptx_token *sel = peek(p, 0);
		if (vop >= OP_VADD && vop <= OP_VSHR && sel->kind == PTX_TOK_DIRECTIVE && !sel->space_before) {
			static const char *const sels[] = {".b0", ".b1", ".b2", ".b3", ".h0", ".h1"};
			unsigned si = 0;
			while (si < 6 && !(sel->len == 3 && memcmp(sel->text, sels[si], 3) == 0))
				si++;
			if (si == 6)
				return fail_tok(p, sel, "unknown operand selector %s (.b0-.b3, .h0, .h1)", qtok(sel).s);
			if (k == 0 || k == 3)
				return fail_tok(p, sel, "selectors on the destination and on c are not supported");
			o->comp = (uint8_t)(si + 1);
			next(p);
		}
		if (k > 0 && peek(p, 0)->kind == '+') { /* "%r2+4": a source of the register's value plus an integer */
			next(p);
			const struct ptx_token it = *peek(p, 0);
			uint8_t ik;
			uint64_t iv;
			if (!parse_imm(p, &ik, &iv))
				return false;
			if (ik != IMM_INT)
				return fail_tok(p, &it, "expected an integer after '%s+', got %s", cur(p)->regs[o->reg].name,
						qtok(&it).s);
			o->offset = (int64_t)iv; /* lowered into an add before the instruction (parse_insn.c) */
			p->reg_plus = p->reg_plus || iv != 0;
			return true;
		}
		return parse_pred_second(p, o);
	}
	int sr;
	unsigned six;
	if (kind == SK_NONE && is_sreg_name_ix(nt.text, nt.len, &sr, &six)) {
		next(p);
		o->kind = OPD_SREG;
		o->sreg = (uint16_t)sr;
		o->comp = (uint8_t)six;
		if (sr >= SREG_RSMEM_BEGIN && sr <= SREG_RSMEM_OFF)
			p->m->uses_rsmem = true;
		if (sr == SREG_ENVREG)
			p->m->uses_envreg = true;
		bool vec = sr == SREG_TID || sr == SREG_NTID || sr == SREG_CTAID || sr == SREG_NCTAID;
		const struct ptx_token *c = peek(p, 0);
		bool has_comp = c->kind == PTX_TOK_DIRECTIVE && !c->space_before;
		if (vec) {
			if (!has_comp || c->len != 2 || c->text[1] < 'x' || c->text[1] > 'z')
				return fail_at(p, nt.line, nt.col, "special register %s needs a component (.x, .y or .z)",
					       qname(nt.text, nt.len).s);
			o->comp = (uint8_t)(c->text[1] - 'x');
			next(p);
		} else if (has_comp) {
			return fail_tok(p, c, "special register %s has no components", qname(nt.text, nt.len).s);
		}
		return true;
	}
	if (kind == SK_NONE && nt.text[0] == '%')
		return unknown_reg(p, &nt);
	next(p);
	if (kind == SK_VAR) {
		o->kind = OPD_SYM;
		o->sym = idx;
	} else {
		struct strmap_slot *fs = strmap_find(&p->funcnames, nt.text, nt.len);
		o->kind = OPD_FUNC;
		if (fs && fs->val >= 0) {
			o->func = fs->val;
		} else if (!add_mref(p, REF_OPD, insn, k, &nt)) {
			return false;
		}
	}
	t = peek(p, 0);
	if (t->kind == '+' || t->kind == '-') {
		bool minus = next(p).kind == '-';
		int64_t v = 0;
		if (!parse_sint(p, &v, "an offset"))
			return false;
		if (o->kind == OPD_FUNC && o->func >= 0)
			return fail_at(p, nt.line, nt.col, "offset added to function %s", qname(nt.text, nt.len).s);
		o->offset = minus ? (int64_t)(0 - (uint64_t)v) : v;
	}
	return true;
}

/* ( name, name, ... ) of .param variables, for call */
static bool parse_param_list(struct parser *p, struct ptx_operand *o)
{
	next(p); /* '(' */
	o->kind = OPD_LIST;
	p->ntmpl = 0;
	if (!accept(p, ')')) {
		for (;;) {
			const struct ptx_token *t = peek(p, 0);
			int32_t idx;
			int sk = t->kind == PTX_TOK_IDENT ? lookup(p, t->text, t->len, &idx) : SK_NONE;
			if (sk == SK_REG || sk == SK_VREG) {
				/* a register argument/result: the callee has register parameters (a vector
				 * register passes its elements, one parameter each) */
				unsigned n = sk == SK_VREG ? (unsigned)idx >> 24 : 1;
				int32_t first = sk == SK_VREG ? idx & 0xffffff : idx;
				if (!GROW(p, p->tmpl, p->cap_tmpl, p->ntmpl + n))
					return false;
				for (unsigned e = 0; e < n; e++)
					p->tmpl[p->ntmpl++] = PTX_LIST_OF_REG(first + (int32_t)e);
				next(p);
				if (accept(p, ','))
					continue;
				if (!expect(p, ')', "',' or ')' in call parameter list"))
					return false;
				break;
			}
			if (t->kind != PTX_TOK_IDENT || lookup(p, t->text, t->len, &idx) != SK_VAR ||
			    p->m->vars[idx].space != SPACE_PARAM) {
				if (t->kind == PTX_TOK_IDENT && lookup(p, t->text, t->len, &idx) == SK_NONE)
					return fail_tok(p, t, "unknown parameter %s", qtok(t).s);
				return fail_tok(p, t, "call arguments must be .param variables, got %s", qtok(t).s);
			}
			if (!GROW(p, p->tmpl, p->cap_tmpl, p->ntmpl + 1))
				return false;
			p->tmpl[p->ntmpl++] = idx;
			next(p);
			if (accept(p, ','))
				continue;
			if (!expect(p, ')', "',' or ')' in call parameter list"))
				return false;
			break;
		}
	}
	if (p->ntmpl) {
		o->list = malloc(p->ntmpl * sizeof(int32_t));
		if (!o->list)
			return fail_oom(p);
		memcpy(o->list, p->tmpl, p->ntmpl * sizeof(int32_t));
		o->nlist = p->ntmpl;
	}
	return true;
}

/* call{.uni} [(rets),] target [, (args)] [, prototype] ; */
bool parse_call_operands(struct parser *p, struct ptx_insn *in, uint32_t ii)
{
	in->nopd = 3;
	in->opd[0].kind = OPD_LIST;
	in->opd[2].kind = OPD_LIST;
	if (peek(p, 0)->kind == '(') {
		if (!parse_param_list(p, &in->opd[0]))
			return false;
		if (!expect(p, ',', "',' after call return list"))
			return false;
	}
	const struct ptx_token *t = peek(p, 0);
	if (t->kind != PTX_TOK_IDENT)
		return fail_tok(p, t, "expected a function name, got %s", qtok(t).s);
	int32_t idx;
	int k = lookup(p, t->text, t->len, &idx);
	struct ptx_operand *tg = &in->opd[1];
	if (k == SK_REG) {
		tg->kind = OPD_REG;
		tg->reg = idx;
	} else if (k == SK_VAR) {
		return fail_tok(p, t, "call target %s is a variable, not a function", qtok(t).s);
	} else if (t->text[0] == '%') {
		return unknown_reg(p, t);
	} else {
		tg->kind = OPD_FUNC;
		struct strmap_slot *fs = strmap_find(&p->funcnames, t->text, t->len);
		if (fs && fs->val >= 0 && p->m->funcs[fs->val].is_entry)
			return fail_tok(p, t, "cannot call kernel %s", qtok(t).s);
		if (fs && fs->val >= 0)
			tg->func = fs->val;
		else if (!add_mref(p, REF_CALL, ii, 1, t))
			return false;
	}
	next(p);
	if (accept(p, ',')) {
		if (peek(p, 0)->kind == '(') {
			if (!parse_param_list(p, &in->opd[2]))
				return false;
			if (!accept(p, ','))
				goto done;
		}
		t = peek(p, 0);
		if (t->kind != PTX_TOK_IDENT)
			return fail_tok(p, t, "expected a call prototype name, got %s", qtok(t).s);
		struct strmap_slot *ps = strmap_find(&p->protos, t->text, t->len);
		if (!ps || ps->val < 0)
			return fail_tok(p, t, "unknown call prototype %s", qtok(t).s);
		if (tg->kind != OPD_REG)
			return fail_tok(p, t, "a call prototype is only allowed for indirect calls");
		in->opd[3].kind = OPD_LABEL;
		in->opd[3].target = -1;
		in->nopd = 4;
		next(p);
	}
done:
	return expect(p, ';', "';' after instruction");
}

