/*
 * parse_decl.c -- PTX parser, declarations: new variables and registers
 * (with the special-register names), the small syntax of directives (type
 * and state-space directives, integers, .align, skipped .file/.loc/.section/
 * .pragma/attributes), variable attributes and array dimensions, and the
 * declaration statements of variables (module and function scope; their
 * initializers are parse_init.c's) and of registers (%r<N> ranges, vectors).
 *
 * Models no hardware.  Part of the parser of parser.c; shared state and
 * helpers in parse_internal.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx/parse_internal.h"

/* ------------------------------------------------------------------ */
/* variables, functions, registers                                     */
/* ------------------------------------------------------------------ */

int32_t new_var(struct parser *p, const char *name, uint32_t len, uint8_t space, uint8_t type, uint32_t line,
		uint32_t col, int32_t func)
{
	struct ptx_module *m = p->m;
	if (!GROW(p, m->vars, p->cap_vars, m->nvars + 1))
		return -1;
	struct ptx_var *v = &m->vars[m->nvars];
	memset(v, 0, sizeof(*v));
	v->name = xstrndup(name, len);
	if (!v->name) {
		fail_oom(p);
		return -1;
	}
	v->space = space;
	v->type = type;
	v->func = func;
	v->reg = -1;
	v->is_reg = 0;
	v->line = line;
	v->col = col;
	return (int32_t)m->nvars++;
}

/* A special register's name; indexed ones (%envreg7, %reserved_smem_offset_1)
 * return their index in *index (0 otherwise). */
bool is_sreg_name_ix(const char *s, uint32_t n, int *which, unsigned *index)
{
	*index = 0;
	for (int i = 0; i < SREG_COUNT; i++) {
		size_t l = strlen(ptx_sreg_name[i]);
		if (ptx_sreg_indexed((unsigned)i)) {
			unsigned lim = i == SREG_ENVREG ? PTX_NENVREG : 2, v = 0;
			if (n <= l || n > l + 2 || memcmp(ptx_sreg_name[i], s, l) != 0)
				continue;
			bool ok = !(n == l + 2 && s[l] == '0');
			for (size_t k = l; k < n && ok; k++) {
				ok = s[k] >= '0' && s[k] <= '9';
				v = v * 10 + (unsigned)(s[k] - '0');
			}
			if (!ok || v >= lim)
				continue;
			*which = i;
			*index = v;
			return true;
		}
		if (l == n && memcmp(ptx_sreg_name[i], s, n) == 0) {
			*which = i;
			return true;
		}
	}
	return false;
}
static bool is_sreg_name(const char *s, uint32_t n, int *which)
{
	unsigned ix;
	return is_sreg_name_ix(s, n, which, &ix);
}

bool declare_reg(struct parser *p, char *name, uint32_t len, uint8_t type, uint32_t line, uint32_t col)
{
	struct ptx_function *f = cur(p);
	if (f->nregs >= MAX_REGS_PER_FUNC || p->module_regs >= MAX_REGS_PER_MODULE) {
		free(name);
		return fail_at(p, line, col, "too many registers (limit %u per function, %u per module)", MAX_REGS_PER_FUNC,
			       MAX_REGS_PER_MODULE);
	}
	if (!GROW(p, f->regs, p->cap_regs, f->nregs + 1)) {
		free(name);
		return false;
	}
	int32_t idx = (int32_t)f->nregs++;
	f->regs[idx].name = name;
	f->regs[idx].type = type;
	p->module_regs++;
	return scope_declare(p, name, len, SK_REG, idx, line, col);
}

/* ------------------------------------------------------------------ */
/* small syntax helpers                                                */
/* ------------------------------------------------------------------ */

int type_of_dir(const struct ptx_token *t)
{
	if (t->kind != PTX_TOK_DIRECTIVE)
		return -1;
	for (int i = 1; i < PTX_T_COUNT; i++) {
		size_t n = strlen(ptx_type_name[i]);
		if (t->len == n + 1 && memcmp(t->text + 1, ptx_type_name[i], n) == 0)
			return i;
	}
	return -1;
}

/* unsigned integer literal (no sign) */
bool parse_uint(struct parser *p, uint64_t *out, const char *what)
{
	const struct ptx_token *t = peek(p, 0);
	if (t->kind != PTX_TOK_INT)
		return fail_tok(p, t, "expected %s, got %s", what, qtok(t).s);
	if (t->overflow)
		return fail_tok(p, t, "number out of range");
	*out = t->ival;
	next(p);
	return true;
}

/* signed integer literal with optional '-', range of int64 */
bool parse_sint(struct parser *p, int64_t *out, const char *what)
{
	bool neg = false;
	const struct ptx_token *t = peek(p, 0);
	if (t->kind == '-') {
		neg = true;
		next(p);
		t = peek(p, 0);
	}
	if (t->kind != PTX_TOK_INT)
		return fail_tok(p, t, "expected %s, got %s", what, qtok(t).s);
	if (t->overflow || (!neg && t->ival > (uint64_t)INT64_MAX) || (neg && t->ival > (uint64_t)INT64_MAX + 1))
		return fail_tok(p, t, "immediate out of range");
	*out = neg ? (int64_t)(0 - t->ival) : (int64_t)t->ival;
	next(p);
	return true;
}

static bool parse_align(struct parser *p, uint32_t *align)
{
	const struct ptx_token t_ = *peek(p, 0); /* copy: used after parsing on */
	uint64_t v = 0;
	if (!parse_uint(p, &v, "an alignment"))
		return false;
	if (v == 0 || (v & (v - 1)) || v > (1u << 16))
		return fail_at(p, t_.line, t_.col, "alignment must be a power of two up to 65536");
	*align = (uint32_t)v;
	return true;
}

/* Skip the rest of the current line (for .loc/.file, which have no ';'). */
bool skip_line(struct parser *p, uint32_t line)
{
	for (;;) {
		const struct ptx_token *t = peek(p, 0);
		if (t->kind == PTX_TOK_ERROR)
			return fail_tok(p, t, "invalid token");
		if (t->kind == PTX_TOK_EOF || t->line != line)
			return true;
		next(p);
	}
}

/* .section NAME { ... } */
bool skip_section(struct parser *p)
{
	struct ptx_token st = next(p);
	while (peek(p, 0)->kind != '{') {
		const struct ptx_token *t = peek(p, 0);
		if (t->kind == PTX_TOK_ERROR || t->kind == PTX_TOK_EOF || t->kind == ';' || t->kind == '}')
			return fail_tok(p, t, "expected '{' after .section, got %s", qtok(t).s);
		next(p);
	}
	next(p);
	unsigned depth = 1;
	while (depth) {
		const struct ptx_token *t = peek(p, 0);
		if (t->kind == PTX_TOK_ERROR)
			return fail_tok(p, t, "invalid token");
		if (t->kind == PTX_TOK_EOF)
			return fail_at(p, st.line, st.col, "unterminated .section");
		if (t->kind == '{')
			depth++;
		else if (t->kind == '}')
			depth--;
		next(p);
	}
	return true;
}

/* .pragma "..." {, "..."} ; */
bool skip_pragma(struct parser *p)
{
	next(p);
	do {
		if (!expect(p, PTX_TOK_STRING, "a string after .pragma"))
			return false;
	} while (accept(p, ','));
	return expect(p, ';', "';' after .pragma");
}

/* .attribute( .managed ) and friends: accepted and ignored */
bool skip_attribute(struct parser *p)
{
	next(p);
	if (!expect(p, '(', "'(' after .attribute"))
		return false;
	while (!accept(p, ')')) {
		const struct ptx_token *t = peek(p, 0);
		if (t->kind != PTX_TOK_DIRECTIVE && t->kind != ',')
			return fail_tok(p, t, "expected ')' in .attribute, got %s", qtok(t).s);
		next(p);
	}
	return true;
}

/* ------------------------------------------------------------------ */
/* declarations of variables                                           */
/* ------------------------------------------------------------------ */

int space_of_dir(const struct ptx_token *t)
{
	if (is_dir(t, ".global"))
		return SPACE_GLOBAL;
	if (is_dir(t, ".shared"))
		return SPACE_SHARED;
	if (is_dir(t, ".local"))
		return SPACE_LOCAL;
	if (is_dir(t, ".const"))
		return SPACE_CONST;
	if (is_dir(t, ".param"))
		return SPACE_PARAM;
	return -1;
}

/* attributes between the state space and the name:
 * .align N, .v2/.v4, .attribute(...), a type, .ptr[.space][.align N] */
bool parse_var_attrs(struct parser *p, struct decl_attrs *a, bool allow_ptr)
{
	bool have_type = false, ptr = false;
	for (;;) {
		const struct ptx_token *t = peek(p, 0);
		if (t->kind != PTX_TOK_DIRECTIVE)
			break;
		int ty = type_of_dir(t);
		if (is_dir(t, ".align")) {
			next(p);
			if (!parse_align(p, &a->align))
				return false;
		} else if (is_dir(t, ".v2") || is_dir(t, ".v4")) {
			a->vec = t->text[2] == '2' ? 2 : 4;
			next(p);
		} else if (is_dir(t, ".attribute")) {
			if (!skip_attribute(p))
				return false;
		} else if (ty >= 0) {
			if (have_type)
				return fail_tok(p, t, "more than one type in declaration");
			if (ty == PTX_T_NONE)
				return fail_tok(p, t, "invalid type");
			have_type = true;
			a->type = (uint8_t)ty;
			a->tline = t->line;
			a->tcol = t->col;
			next(p);
		} else if (is_dir(t, ".texref") || is_dir(t, ".surfref") || is_dir(t, ".samplerref")) {
			/* opaque handle: an 8-byte variable holding the object handle */
			if (have_type)
				return fail_tok(p, t, "more than one type in declaration");
			have_type = true;
			a->type = PTX_T_B64;
			a->opaque = t->text[1] == 't' ? OPAQUE_TEXREF : t->text[2] == 'u' ? OPAQUE_SURFREF : OPAQUE_SAMPLERREF;
			a->tline = t->line;
			a->tcol = t->col;
			next(p);
		} else if (allow_ptr && is_dir(t, ".ptr")) {
			ptr = true;
			next(p);
		} else if (ptr && space_of_dir(t) >= 0 && space_of_dir(t) != SPACE_PARAM) {
			next(p);
		} else {
			return fail_tok(p, t, "unexpected %s in declaration", qtok(t).s);
		}
	}
	if (!have_type)
		return fail_tok(p, peek(p, 0), "expected a type in declaration, got %s", qtok(peek(p, 0)).s);
	return true;
}

/* [N][M]... ; a 0 entry means "[]" */
bool parse_dims(struct parser *p, uint64_t *dims, unsigned *ndims)
{
	*ndims = 0;
	while (peek(p, 0)->kind == '[') {
		struct ptx_token lb = next(p);
		if (*ndims >= MAX_DIMS)
			return fail_at(p, lb.line, lb.col, "too many array dimensions (limit %d)", MAX_DIMS);
		uint64_t n = 0;
		if (peek(p, 0)->kind != ']') {
			const struct ptx_token t_ = *peek(p, 0); /* copy: used after parsing on */
			if (!parse_uint(p, &n, "an array size"))
				return false;
			if (n == 0)
				return fail_at(p, t_.line, t_.col, "array size must be positive");
			if (n > MAX_VAR_SIZE)
				return fail_at(p, t_.line, t_.col, "array too large");
		} else if (*ndims > 0) {
			return fail_at(p, lb.line, lb.col, "only the first array dimension may be left empty");
		}
		if (!expect(p, ']', "']'"))
			return false;
		dims[(*ndims)++] = n;
	}
	return true;
}

/* size in bytes of elsz * dims (dims[0] may be 0 = unknown -> returns 0) */
bool dims_size(struct parser *p, const uint64_t *dims, unsigned nd, uint64_t elsz, uint64_t *out, uint32_t line,
	       uint32_t col)
{
	uint64_t s = elsz;
	for (unsigned i = 0; i < nd; i++) {
		if (dims[i] == 0) {
			s = 0;
			continue;
		}
		if (s && dims[i] > MAX_VAR_SIZE / s)
			return fail_at(p, line, col, "array too large");
		s *= dims[i];
	}
	*out = s;
	return true;
}

bool parse_var_decl(struct parser *p, int32_t func, bool is_extern)
{
	struct ptx_token sp = next(p);
	struct decl_attrs a = {0};
	a.space = (uint8_t)space_of_dir(&sp);
	a.vec = 1;
	a.is_extern = is_extern;
	if (func < 0 && a.space == SPACE_PARAM)
		return fail_at(p, sp.line, sp.col, "'.param' variables must be declared inside a function or parameter list");
	/* .global/.const variables declared in a function (issue 16) have static
	 * storage in the module's images: module variables (func -1) whose name
	 * is visible in the function's scope only */
	bool fn_static = func >= 0 && (a.space == SPACE_GLOBAL || a.space == SPACE_CONST);
	if (!parse_var_attrs(p, &a, false))
		return false;
	if (a.type == PTX_T_PRED && a.space != SPACE_PARAM)
		return fail_at(p, a.tline, a.tcol, "variables of type .pred are not allowed in %.*s", (int)sp.len, sp.text);
	for (;;) {
		const struct ptx_token *t = peek(p, 0);
		if (t->kind != PTX_TOK_IDENT)
			return fail_tok(p, t, "expected a variable name, got %s", qtok(t).s);
		struct ptx_token nt = next(p);
		uint64_t dims[MAX_DIMS];
		unsigned nd;
		if (!parse_dims(p, dims, &nd))
			return false;
		int32_t vi = new_var(p, nt.text, nt.len, a.space, a.type, nt.line, nt.col, fn_static ? -1 : func);
		if (vi < 0)
			return false;
		struct ptx_var *v = &p->m->vars[vi];
		v->is_extern = is_extern;
		v->opaque = a.opaque;
		if (a.opaque && a.space != SPACE_GLOBAL)
			return fail_at(p, a.tline, a.tcol, "%s variables must be .global",
				       a.opaque == OPAQUE_TEXREF ? ".texref" : a.opaque == OPAQUE_SURFREF ? ".surfref" : ".samplerref");
		uint64_t elsz = (uint64_t)ptx_type_size[a.type] * a.vec;
		v->align = a.align ? a.align : (uint32_t)elsz;
		if (!dims_size(p, dims, nd, elsz, &v->size, nt.line, nt.col))
			return false;
		if (func >= 0) {
			if (!scope_declare(p, p->m->vars[vi].name, nt.len, SK_VAR, vi, nt.line, nt.col))
				return false;
		} else {
			struct strmap_slot *s = strmap_get(&p->modvars, p->m->vars[vi].name, nt.len);
			if (!s)
				return fail_oom(p);
			if (s->val >= 0)
				return fail_at(p, nt.line, nt.col, "redefinition of %s", qname(nt.text, nt.len).s);
			s->val = vi;
		}
		if (accept(p, '=')) {
			const struct ptx_token *it = peek(p, 0);
			if (a.space != SPACE_GLOBAL && a.space != SPACE_CONST)
				return fail_tok(p, it, "variables in %.*s cannot be initialized", (int)sp.len, sp.text);
			if (is_extern)
				return fail_tok(p, it, "extern variables cannot be initialized");
			if (a.opaque)
				return fail_tok(p, it, "initializers of .texref/.surfref/.samplerref fields are not supported "
						       "(the texture object carries them)");
			if (!parse_initializer(p, vi, dims, nd, a.vec))
				return false;
		} else if (nd > 0 && dims[0] == 0 && !is_extern) {
			return fail_at(p, nt.line, nt.col, "array %s needs a size or an initializer", qname(nt.text, nt.len).s);
		}
		if (accept(p, ','))
			continue;
		return expect(p, ';', "';' after declaration");
	}
}

/* .reg [.v2|.v4] type name[<N>] {, name[<N>]} ; */
bool parse_reg_decl(struct parser *p)
{
	next(p);
	const struct ptx_token *t = peek(p, 0);
	unsigned vn = 0; /* vector registers (.reg .v4 .f32 %v): elements %v.x .. %v.w */
	if (is_dir(t, ".v2") || is_dir(t, ".v4")) {
		vn = t->text[2] - '0';
		next(p);
		t = peek(p, 0);
	}
	int ty = type_of_dir(t);
	if (ty <= 0)
		return fail_tok(p, t, "expected a register type, got %s", qtok(t).s);
	next(p);
	for (;;) {
		t = peek(p, 0);
		if (t->kind != PTX_TOK_IDENT)
			return fail_tok(p, t, "expected a register name, got %s", qtok(t).s);
		struct ptx_token nt = next(p);
		int sr;
		if (is_sreg_name(nt.text, nt.len, &sr))
			return fail_at(p, nt.line, nt.col, "cannot declare special register %s", qname(nt.text, nt.len).s);
		if (nt.len == 1 && nt.text[0] == '_')
			return fail_at(p, nt.line, nt.col, "'_' cannot be declared as a register");
		if (vn) {
			if (ty == PTX_T_PRED)
				return fail_at(p, nt.line, nt.col, "vector registers cannot be .pred");
			/* %v<N>: the vectors %v0 .. %v(N-1), declared one by one */
			uint64_t count = 0;
			bool range = accept(p, '<');
			if (range) {
				const struct ptx_token ct_ = *peek(p, 0);
				if (!parse_uint(p, &count, "a register count"))
					return false;
				if (count == 0)
					return fail_at(p, ct_.line, ct_.col, "register count must be at least 1");
				if (count * vn > MAX_REGS_PER_FUNC)
					return fail_at(p, ct_.line, ct_.col, "too many registers (limit %u per function)",
						       MAX_REGS_PER_FUNC);
				if (!expect(p, '>', "'>' after register count"))
					return false;
			}
			for (uint64_t i = 0; i < (range ? count : 1); i++) {
				char base[160];
				int bl = range ? snprintf(base, sizeof base, "%.*s%llu", (int)nt.len, nt.text, (unsigned long long)i)
					       : snprintf(base, sizeof base, "%.*s", (int)nt.len, nt.text);
				if (bl <= 0 || (size_t)bl + 3 > sizeof base)
					return fail_at(p, nt.line, nt.col, "register name too long");
				int32_t first = (int32_t)cur(p)->nregs;
				for (unsigned k = 0; k < vn; k++) {
					char *nm = malloc((size_t)bl + 3);
					if (!nm)
						return fail_oom(p);
					memcpy(nm, base, (size_t)bl);
					nm[bl] = '.';
					nm[bl + 1] = "xyzw"[k];
					nm[bl + 2] = 0;
					if (!declare_reg(p, nm, (uint32_t)bl + 2, (uint8_t)ty, nt.line, nt.col))
						return false;
				}
				/* the vector's own name: a prefix of its first element's name */
				if (!scope_declare(p, cur(p)->regs[first].name, (uint32_t)bl, SK_VREG, first | (int32_t)(vn << 24),
						   nt.line, nt.col))
					return false;
			}
			if (accept(p, ','))
				continue;
			return expect(p, ';', "';' after .reg declaration");
		}
		if (accept(p, '<')) {
			const struct ptx_token ct_ = *peek(p, 0); /* copy: used after parsing on */
			uint64_t n = 0;
			if (!parse_uint(p, &n, "a register count"))
				return false;
			if (n == 0)
				return fail_at(p, ct_.line, ct_.col, "register count must be at least 1");
			if (n > MAX_REGS_PER_FUNC)
				return fail_at(p, ct_.line, ct_.col, "too many registers (limit %u per function)", MAX_REGS_PER_FUNC);
			if (!expect(p, '>', "'>'"))
				return false;
			if (cur(p)->nregs + n > MAX_REGS_PER_FUNC || p->module_regs + n > MAX_REGS_PER_MODULE)
				return fail_at(p, ct_.line, ct_.col, "too many registers (limit %u per function, %u per module)",
					       MAX_REGS_PER_FUNC, MAX_REGS_PER_MODULE);
			p->reg_name_bytes += n * (nt.len + 8);
			if (p->reg_name_bytes > MAX_REG_NAME_BYTES)
				return fail_at(p, ct_.line, ct_.col, "too many registers (their names exceed %u bytes)",
					       MAX_REG_NAME_BYTES);
			if (!GROW(p, p->ranges, p->cap_ranges, p->nranges + 1))
				return false;
			p->ranges[p->nranges++] = (struct rdecl){nt.text, nt.len, (uint32_t)n};
			if (!GROW(p, cur(p)->regs, p->cap_regs, cur(p)->nregs + n))
				return false;
			for (uint64_t i = 0; i < n; i++) {
				char *nm = malloc(nt.len + 12);
				if (!nm)
					return fail_oom(p);
				memcpy(nm, nt.text, nt.len);
				int l = snprintf(nm + nt.len, 12, "%u", (unsigned)i);
				if (!declare_reg(p, nm, nt.len + (uint32_t)l, (uint8_t)ty, nt.line, nt.col))
					return false;
			}
		} else {
			char *nm = xstrndup(nt.text, nt.len);
			if (!nm)
				return fail_oom(p);
			if (!declare_reg(p, nm, nt.len, (uint8_t)ty, nt.line, nt.col))
				return false;
		}
		if (accept(p, ','))
			continue;
		return expect(p, ';', "';' after .reg declaration");
	}
}

