/*
 * parse_func.c -- PTX parser, functions: .param lists, .callprototype and
 * .branchtargets/.calltargets, the statements of a body (declarations,
 * labels, nested {} blocks, instructions, skipped debug directives) with
 * their labels and branch tables resolved at the end of each function, and
 * .entry/.func definitions and prototypes with their performance
 * directives (.maxntid, .reqntid, .minnctapersm, ...).
 *
 * Models no hardware.  Part of the parser of parser.c; shared state and
 * helpers in parse_internal.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx/parse_internal.h"

/* ------------------------------------------------------------------ */
/* labels, branch tables, prototypes                                   */
/* ------------------------------------------------------------------ */

/* A parameter's name into d (with its line and column), or "_" where a
 * prototype leaves it out; false (an error) where it is required. */
static bool parse_param_name(struct parser *p, bool name_optional, struct pdesc *d)
{
	const struct ptx_token *t = peek(p, 0);
	if (t->kind == PTX_TOK_IDENT) {
		d->name = t->text;
		d->len = t->len;
		next(p);
	} else if (!name_optional) {
		return fail_tok(p, t, "expected a parameter name, got %s", qtok(t).s);
	} else {
		d->name = "_";
		d->len = 1;
	}
	d->line = t->line;
	d->col = t->col;
	return true;
}

/* .param [attrs] type [.ptr...] name [dims]  -> p->pd (appended) */
static bool parse_param(struct parser *p, bool name_optional)
{
	const struct ptx_token *t = peek(p, 0);
	if (is_dir(t, ".reg")) { /* register parameter: .reg [.v2|.v4] .TYPE name */
		next(p);
		unsigned vn = 0; /* a vector: one register parameter per element (NAME.x, NAME.y, ...) */
		if (is_dir(peek(p, 0), ".v2") || is_dir(peek(p, 0), ".v4")) {
			vn = (unsigned)(peek(p, 0)->text[2] - '0');
			next(p);
		}
		int ty = type_of_dir(peek(p, 0));
		if (ty <= 0)
			return fail_tok(p, peek(p, 0), "expected a register type, got %s", qtok(peek(p, 0)).s);
		next(p);
		struct pdesc d;
		memset(&d, 0, sizeof d);
		if (!parse_param_name(p, name_optional, &d))
			return false;
		d.type = (uint8_t)ty;
		d.is_reg = true;
		d.size = d.align = ptx_type_size[ty];
		if (vn && ty == PTX_T_PRED)
			return fail_at(p, d.line, d.col, "vector registers cannot be .pred");
		for (unsigned k = 0; k < (vn ? vn : 1); k++) {
			if (!GROW(p, p->pd, p->cap_pd, p->npd + 1))
				return false;
			d.vec = (uint8_t)vn;
			d.comp = (uint8_t)k;
			p->pd[p->npd++] = d;
		}
		return true;
	}
	if (!is_dir(t, ".param"))
		return fail_tok(p, t, "expected '.param', got %s", qtok(t).s);
	next(p);
	struct decl_attrs a = {0};
	a.vec = 1;
	if (!parse_var_attrs(p, &a, true))
		return false;
	struct pdesc d;
	memset(&d, 0, sizeof(d));
	if (!parse_param_name(p, name_optional, &d))
		return false;
	uint64_t dims[MAX_DIMS];
	unsigned nd;
	if (!parse_dims(p, dims, &nd))
		return false;
	for (unsigned i = 0; i < nd; i++)
		if (dims[i] == 0)
			return fail_at(p, d.line, d.col, "parameter arrays need a size");
	uint64_t elsz = (uint64_t)ptx_type_size[a.type] * a.vec;
	if (!dims_size(p, dims, nd, elsz, &d.size, d.line, d.col))
		return false;
	d.type = a.type;
	d.align = a.align ? a.align : (uint32_t)elsz;
	if (!GROW(p, p->pd, p->cap_pd, p->npd + 1))
		return false;
	p->pd[p->npd++] = d;
	return true;
}

/* ( param {, param} ) or () */
static bool parse_params(struct parser *p, bool name_optional)
{
	next(p); /* '(' */
	if (accept(p, ')'))
		return true;
	for (;;) {
		if (!parse_param(p, name_optional))
			return false;
		if (accept(p, ','))
			continue;
		return expect(p, ')', "',' or ')' in parameter list");
	}
}

/* name: .callprototype [(ret)] _ (params) ; */
static bool parse_callprototype(struct parser *p, const struct ptx_token *name)
{
	next(p);
	p->npd = 0;
	if (peek(p, 0)->kind == '(' && !parse_params(p, true))
		return false;
	const struct ptx_token *t = peek(p, 0);
	if (!tok_is(t, PTX_TOK_IDENT, "_"))
		return fail_tok(p, t, "expected '_' in .callprototype, got %s", qtok(t).s);
	next(p);
	if (peek(p, 0)->kind == '(' && !parse_params(p, true))
		return false;
	if (is_dir(peek(p, 0), ".noreturn"))
		next(p);
	struct strmap_slot *s = strmap_get(&p->protos, name->text, name->len);
	if (!s)
		return fail_oom(p);
	s->val = 1;
	return expect(p, ';', "';' after .callprototype");
}

/* name: .branchtargets L1, L2 ;   name: .calltargets f1, f2 ; */
static bool parse_targets(struct parser *p, const struct ptx_token *name, bool branch)
{
	next(p);
	uint32_t first = p->nbtl;
	for (;;) {
		const struct ptx_token *t = peek(p, 0);
		if (t->kind != PTX_TOK_IDENT)
			return fail_tok(p, t, "expected a %s name, got %s", branch ? "label" : "function", qtok(t).s);
		if (branch) {
			if (!GROW(p, p->btl, p->cap_btl, p->nbtl + 1))
				return false;
			p->btl[p->nbtl++] = (struct namepos){t->text, t->len, t->line, t->col};
		}
		next(p);
		if (!accept(p, ','))
			break;
	}
	if (!expect(p, ';', branch ? "';' after .branchtargets" : "';' after .calltargets"))
		return false;
	struct strmap_slot *s = strmap_get(branch ? &p->btnames : &p->protos, name->text, name->len);
	if (!s)
		return fail_oom(p);
	if (branch) {
		if (s->val >= 0)
			return fail_tok(p, name, "duplicate .branchtargets name %s", qtok(name).s);
		if (!GROW(p, p->bts, p->cap_bts, p->nbts + 1))
			return false;
		p->bts[p->nbts] = (struct btable){first, p->nbtl - first};
		s->val = (int32_t)p->nbts++;
	} else {
		s->val = 1;
	}
	return true;
}

/* ------------------------------------------------------------------ */
/* function bodies                                                     */
/* ------------------------------------------------------------------ */

static bool parse_block(struct parser *p);

static bool parse_statement(struct parser *p)
{
	const struct ptx_token *t = peek(p, 0);
	switch (t->kind) {
	case '{': {
		struct ptx_token lb = next(p);
		if (!scope_push(p, &lb))
			return false;
		if (!parse_block(p))
			return false;
		scope_pop(p);
		return true;
	}
	case ';':
		next(p);
		return true;
	case '@':
		return parse_instruction(p);
	case PTX_TOK_IDENT:
		if (peek(p, 1)->kind == ':') {
			struct ptx_token name = next(p);
			next(p);
			const struct ptx_token *d = peek(p, 0);
			if (is_dir(d, ".branchtargets"))
				return parse_targets(p, &name, true);
			if (is_dir(d, ".calltargets"))
				return parse_targets(p, &name, false);
			if (is_dir(d, ".callprototype"))
				return parse_callprototype(p, &name);
			struct strmap_slot *s = strmap_get(&p->labels, name.text, name.len);
			if (!s)
				return fail_oom(p);
			if (s->val >= 0)
				return fail_tok(p, &name, "duplicate label %s", qtok(&name).s);
			s->val = (int32_t)cur(p)->ninsns;
			return true;
		}
		return parse_instruction(p);
	case PTX_TOK_DIRECTIVE:
		if (is_dir(t, ".reg"))
			return parse_reg_decl(p);
		if (is_dir(t, ".local") || is_dir(t, ".shared") || is_dir(t, ".param") || is_dir(t, ".global") ||
		    is_dir(t, ".const"))
			return parse_var_decl(p, p->fi, false);
		if (is_dir(t, ".pragma"))
			return skip_pragma(p);
		if (is_dir(t, ".loc") || is_dir(t, ".file")) {
			uint32_t line = t->line;
			next(p);
			return skip_line(p, line);
		}
		if (is_dir(t, ".section"))
			return skip_section(p);
		if (is_dir(t, ".branchtargets") || is_dir(t, ".callprototype") || is_dir(t, ".calltargets"))
			return fail_tok(p, t, "%s needs a label ('name: %.*s ...')", qtok(t).s, (int)t->len, t->text);
		return fail_tok(p, t, "unexpected directive %s in function body", qtok(t).s);
	case PTX_TOK_EOF:
		return fail_tok(p, t, "unexpected end of input: missing '}'");
	default:
		return fail_tok(p, t, "expected an instruction, got %s", qtok(t).s);
	}
}

/* statements up to and including the closing '}' (the '{' is consumed) */
static bool parse_block(struct parser *p)
{
	while (!p->failed) {
		if (peek(p, 0)->kind == '}') {
			next(p);
			return true;
		}
		uint32_t line = peek(p, 0)->line, col = peek(p, 0)->col;
		if (!parse_statement(p) && !recover(p, line, col))
			return false;
	}
	return false;
}

static bool resolve_function_refs(struct parser *p)
{
	struct ptx_function *f = cur(p);
	for (uint32_t i = 0; i < p->nfrefs; i++) {
		struct ref *r = &p->frefs[i];
		struct ptx_operand *o = &f->insns[r->b].opd[r->opd];
		if (r->what == REF_LABEL) {
			struct strmap_slot *s = strmap_find(&p->labels, r->name, r->len);
			if (!s || s->val < 0)
				return fail_at(p, r->line, r->col, "undefined label %s", qname(r->name, r->len).s);
			o->target = s->val;
		} else {
			struct strmap_slot *s = strmap_find(&p->btnames, r->name, r->len);
			if (!s || s->val < 0)
				return fail_at(p, r->line, r->col, "unknown .branchtargets name %s", qname(r->name, r->len).s);
			struct btable *bt = &p->bts[s->val];
			p->brx_targets += bt->count;
			if (p->brx_targets > MAX_BRX_TARGETS)
				return fail_at(p, r->line, r->col, "too many brx targets in module (limit %u)", MAX_BRX_TARGETS);
			o->list = malloc((bt->count ? bt->count : 1) * sizeof(int32_t));
			if (!o->list)
				return fail_oom(p);
			o->nlist = bt->count;
			for (uint32_t k = 0; k < bt->count; k++) {
				struct namepos *np = &p->btl[bt->first + k];
				struct strmap_slot *ls = strmap_find(&p->labels, np->name, np->len);
				if (!ls || ls->val < 0)
					return fail_at(p, np->line, np->col, "undefined label %s", qname(np->name, np->len).s);
				o->list[k] = ls->val;
			}
		}
	}
	return true;
}

void reset_function_state(struct parser *p)
{
	/* give back the unused capacity of the instruction and register arrays
	 * (growth doubles them): loading memory stays proportional to the text */
	if (p->fi >= 0) {
		struct ptx_function *f = cur(p);
		if (f->ninsns && f->ninsns < p->cap_insns) {
			struct ptx_insn *ni = realloc(f->insns, f->ninsns * sizeof *ni);
			if (ni)
				f->insns = ni;
		}
		if (f->nregs && f->nregs < p->cap_regs) {
			struct ptx_reg_info *nr = realloc(f->regs, f->nregs * sizeof *nr);
			if (nr)
				f->regs = nr;
		}
	}
	strmap_free(&p->scope);
	strmap_free(&p->labels);
	strmap_free(&p->btnames);
	strmap_free(&p->protos);
	p->nundo = 0;
	p->depth = 0;
	p->nfrefs = 0;
	p->nbts = 0;
	p->nbtl = 0;
	p->nranges = 0;
	p->cap_insns = 0;
	p->cap_regs = 0;
	p->fi = -1;
}

/* ------------------------------------------------------------------ */
/* functions                                                           */
/* ------------------------------------------------------------------ */

/* The name of parameter d: its own, or NAME.x .. NAME.w for an element of a vector register parameter. */
static const char *param_name(const struct pdesc *d, char *buf, size_t bufsz, uint32_t *len)
{
	if (!d->vec) {
		*len = d->len;
		return d->name;
	}
	int n = snprintf(buf, bufsz, "%.*s.%c", (int)d->len, d->name, "xyzw"[d->comp]);
	*len = n > 0 && (size_t)n < bufsz ? (uint32_t)n : 0;
	return buf;
}

static bool make_param_vars(struct parser *p, int32_t fi, const struct pdesc *d, uint32_t n, bool entry, bool ret,
			    int32_t **out, uint32_t *nout)
{
	if (!n)
		return true;
	*out = malloc(n * sizeof(int32_t));
	if (!*out)
		return fail_oom(p);
	for (uint32_t i = 0; i < n; i++) {
		char nb[256];
		uint32_t nl;
		const char *nm = param_name(&d[i], nb, sizeof nb, &nl);
		int32_t vi = new_var(p, nm, nl, SPACE_PARAM, d[i].type, d[i].line, d[i].col, fi);
		if (vi < 0)
			return false;
		struct ptx_var *v = &p->m->vars[vi];
		v->reg_vec = d[i].comp == 0 ? d[i].vec : 0;
		v->is_kparam = entry;
		v->is_fparam = !entry;
		v->is_retval = ret;
		v->align = d[i].align;
		v->size = d[i].size;
		v->is_reg = d[i].is_reg; /* its register is declared when the body starts */
		if (d[i].is_reg && entry)
			return fail_at(p, d[i].line, d[i].col, "kernel parameters cannot be registers");
		(*out)[i] = vi;
		(*nout)++;
	}
	return true;
}

/* A re-declaration or the definition of an already declared function:
 * the parameter lists must agree; a definition renames the parameters. */
static bool merge_params(struct parser *p, const struct ptx_token *name, const int32_t *vars, uint32_t nvars,
			 const struct pdesc *d, uint32_t n, bool rename)
{
	if (n != nvars)
		return fail_tok(p, name, "conflicting declaration of %s (different number of parameters)", qtok(name).s);
	for (uint32_t i = 0; i < n; i++) {
		struct ptx_var *v = &p->m->vars[vars[i]];
		if (v->size != d[i].size || v->is_reg != d[i].is_reg || v->reg_vec != (d[i].comp == 0 ? d[i].vec : 0))
			return fail_at(p, d[i].line, d[i].col, "conflicting declaration of %s (parameter %u differs)",
				       qtok(name).s, i + 1);
		if (rename) {
			char nb[256];
			uint32_t nl;
			const char *pn = param_name(&d[i], nb, sizeof nb, &nl);
			char *nm = xstrndup(pn, nl);
			if (!nm)
				return fail_oom(p);
			free(v->name);
			v->name = nm;
			v->type = d[i].type;
			v->align = d[i].align;
			v->line = d[i].line;
			v->col = d[i].col;
		}
	}
	return true;
}

static bool parse_perf_directives(struct parser *p, uint32_t *maxntid, uint32_t *reqntid, uint32_t *minncta,
				  uint32_t *maxnreg)
{
	for (;;) {
		const struct ptx_token *t = peek(p, 0);
		uint32_t *dst = NULL;
		unsigned maxn = 1;
		if (is_dir(t, ".maxntid")) {
			dst = maxntid;
			maxn = 3;
		} else if (is_dir(t, ".reqntid")) {
			dst = reqntid;
			maxn = 3;
		} else if (is_dir(t, ".minnctapersm")) {
			dst = minncta;
		} else if (is_dir(t, ".maxnreg")) {
			dst = maxnreg;
		} else if (is_dir(t, ".maxnctapersm") || is_dir(t, ".maxclusterrank")) {
			maxn = 1;
		} else if (is_dir(t, ".reqnctapercluster")) {
			maxn = 3;
		} else if (is_dir(t, ".noreturn") || is_dir(t, ".explicitcluster") || is_dir(t, ".blocksareclusters")) {
			next(p);
			continue;
		} else if (is_dir(t, ".pragma")) {
			if (!skip_pragma(p))
				return false;
			continue;
		} else {
			return true;
		}
		struct ptx_token dt = next(p);
		uint32_t vals[3] = {1, 1, 1};
		for (unsigned i = 0;; i++) {
			const struct ptx_token vt_ = *peek(p, 0); /* copy: used after parsing on */
			uint64_t v = 0;
			if (!parse_uint(p, &v, "a number"))
				return false;
			if (v == 0 || v > UINT32_MAX)
				return fail_at(p, vt_.line, vt_.col, "value of %s out of range", qtok(&dt).s);
			vals[i] = (uint32_t)v;
			if (i + 1 >= maxn || !accept(p, ','))
				break;
		}
		if (dst)
			memcpy(dst, vals, (maxn == 3 ? 3 : 1) * sizeof(uint32_t));
	}
}

/* [.visible ...] .entry/.func ... : the linkage has been consumed */
bool parse_function(struct parser *p, bool visible, bool is_extern)
{
	struct ptx_token kw = next(p);
	bool entry = is_dir(&kw, ".entry");
	while (is_dir(peek(p, 0), ".attribute"))
		if (!skip_attribute(p))
			return false;
	p->npd = 0;
	uint32_t nrets = 0;
	if (!entry && peek(p, 0)->kind == '(') {
		if (!parse_params(p, false))
			return false;
		nrets = p->npd;
	}
	const struct ptx_token *t = peek(p, 0);
	if (t->kind != PTX_TOK_IDENT)
		return fail_tok(p, t, "expected a function name, got %s", qtok(t).s);
	struct ptx_token name = next(p);
	if (peek(p, 0)->kind == '(' && !parse_params(p, false))
		return false;
	uint32_t maxntid[3] = {0}, reqntid[3] = {0}, minncta = 0, maxnreg = 0;
	if (!parse_perf_directives(p, maxntid, reqntid, &minncta, &maxnreg))
		return false;
	t = peek(p, 0);
	bool body = t->kind == '{';
	if (!body && t->kind != ';')
		return fail_tok(p, t, "expected '{' or ';' after function header, got %s", qtok(t).s);
	if (body && is_extern)
		return fail_tok(p, t, "an .extern function cannot have a body");
	next(p); /* '{' or ';' */

	struct strmap_slot *fs = strmap_get(&p->funcnames, name.text, name.len);
	if (!fs)
		return fail_oom(p);
	if (strmap_find(&p->modvars, name.text, name.len))
		return fail_tok(p, &name, "%s is already declared as a variable", qtok(&name).s);
	int32_t fi;
	struct pdesc *rets = p->pd, *params = p->pd ? p->pd + nrets : NULL;
	uint32_t nparams = p->npd - nrets;
	if (fs->val >= 0) {
		fi = fs->val;
		struct ptx_function *f = &p->m->funcs[fi];
		if (f->is_entry != entry)
			return fail_tok(p, &name, "conflicting declaration of %s (.entry vs .func)", qtok(&name).s);
		if (body && !f->is_extern)
			return fail_tok(p, &name, "redefinition of function %s", qtok(&name).s);
		if (!merge_params(p, &name, f->rets, f->nrets, rets, nrets, body) ||
		    !merge_params(p, &name, f->params, f->nparams, params, nparams, body))
			return false;
		f = &p->m->funcs[fi];
		if (body) {
			f->line = name.line;
			f->col = name.col;
		}
	} else {
		struct ptx_module *m = p->m;
		if (!GROW(p, m->funcs, p->cap_funcs, m->nfuncs + 1))
			return false;
		fi = (int32_t)m->nfuncs;
		struct ptx_function *f = &m->funcs[m->nfuncs++];
		memset(f, 0, sizeof(*f));
		f->name = xstrndup(name.text, name.len);
		if (!f->name)
			return fail_oom(p);
		f->is_entry = entry;
		f->is_extern = true;
		f->line = name.line;
		f->col = name.col;
		fs->key = f->name; /* the map key must outlive the source text */
		fs->val = fi;
		if (!make_param_vars(p, fi, rets, nrets, false, true, &m->funcs[fi].rets, &m->funcs[fi].nrets))
			return false;
		if (!make_param_vars(p, fi, params, nparams, entry, false, &m->funcs[fi].params, &m->funcs[fi].nparams))
			return false;
	}
	struct ptx_function *f = &p->m->funcs[fi];
	f->is_visible |= visible;
	for (int i = 0; i < 3; i++) {
		if (maxntid[0])
			f->maxntid[i] = maxntid[i];
		if (reqntid[0])
			f->reqntid[i] = reqntid[i];
	}
	if (minncta)
		f->minnctapersm = minncta;
	if (maxnreg)
		f->maxnreg = maxnreg;
	if (!body)
		return true;
	f->is_extern = false;

	/* body */
	p->fi = fi;
	p->depth = 1;
	p->marks[1] = 0;
	int32_t vec_first = 0;
	unsigned vec_n = 0, vec_left = 0;
	for (uint32_t k = 0; k < f->nrets + f->nparams; k++) {
		int32_t vi = k < f->nrets ? f->rets[k] : f->params[k - f->nrets];
		struct ptx_var *v = &p->m->vars[vi];
		if (v->is_reg) { /* a register parameter: a register of the body */
			char *nm = xstrndup(v->name, strlen(v->name));
			if (!nm)
				return fail_oom(p);
			v->reg = (int32_t)f->nregs;
			if (!declare_reg(p, nm, (uint32_t)strlen(nm), v->type, v->line, v->col))
				return false;
			v = &p->m->vars[vi];
			if (v->reg_vec) { /* the first element of a vector parameter */
				vec_first = v->reg;
				vec_n = vec_left = v->reg_vec;
			}
			/* after its last element, NAME is the vector {NAME.x, ...} (a prefix of NAME.x) */
			if (vec_left && --vec_left == 0 &&
			    !scope_declare(p, f->regs[vec_first].name, (uint32_t)strlen(f->regs[vec_first].name) - 2, SK_VREG,
					   vec_first | (int32_t)(vec_n << 24), v->line, v->col))
				return false;
			continue;
		}
		if (!scope_declare(p, v->name, (uint32_t)strlen(v->name), SK_VAR, vi, v->line, v->col))
			return false;
	}
	if (!parse_block(p))
		return false;
	if (!resolve_function_refs(p))
		return false;
	reset_function_state(p);
	return true;
}

