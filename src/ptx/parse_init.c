/*
 * parse_init.c -- PTX parser, variable initializers: "= value" and nested
 * "{...}" lists of integers, floats and symbol expressions (generic(x)+a,
 * 0xFF<<8k byte masks of one address), laid out as the variable's bytes
 * (ptx_var.init) and symbol slots (init_sym, resolved at the end of the
 * module); a "[]" array takes its size from the initializer.
 *
 * Models no hardware.  Part of the parser of parser.c; shared state and
 * helpers in parse_internal.h.
 */
#include <stdlib.h>
#include <string.h>

#include "ptx/parse_internal.h"

/* ---- initializers ---- */

struct initctx {
	int32_t vi;
	uint8_t type;
	uint32_t elsz;
	uint64_t sub[MAX_DIMS + 2]; /* elements spanned by a list at depth d */
	unsigned ndims;             /* including a vector dimension */
	bool unbounded;             /* first dimension from the initializer */
	uint64_t cursor, extent;
	uint8_t *buf;
	uint64_t cap;
	struct maskrun mr;
	uint32_t cap_syms;
};

static bool init_reserve(struct parser *p, struct initctx *c, uint64_t elems, uint32_t line, uint32_t col)
{
	uint64_t need = elems * c->elsz;
	if (elems > MAX_INIT_BYTES || need > MAX_INIT_BYTES)
		return fail_at(p, line, col, "initialized variable too large (limit %u bytes)", MAX_INIT_BYTES);
	if (p->init_bytes + need > MAX_INIT_BYTES)
		return fail_at(p, line, col, "too much initialized data in module (limit %u bytes)", MAX_INIT_BYTES);
	if (need <= c->cap)
		return true;
	uint64_t nc = c->cap ? c->cap : 64;
	while (nc < need)
		nc *= 2;
	uint8_t *nb = realloc(c->buf, nc);
	if (!nb)
		return fail_oom(p);
	memset(nb + c->cap, 0, nc - c->cap);
	c->buf = nb;
	c->cap = nc;
	return true;
}

/* n bytes little-endian; bytes past the 8th (.b128) repeat the sign of a negative value */
static void put_le(uint8_t *d, uint64_t v, unsigned n, bool neg)
{
	for (unsigned i = 0; i < n; i++)
		d[i] = i < 8 ? (uint8_t)(v >> (8 * i)) : neg ? 0xff : 0;
}

static uint64_t f2bits(float f)
{
	uint32_t u;
	memcpy(&u, &f, 4);
	return u;
}
uint64_t d2bits(double d)
{
	uint64_t u;
	memcpy(&u, &d, 8);
	return u;
}
static double bits2d(uint64_t u)
{
	double d;
	memcpy(&d, &u, 8);
	return d;
}
static float bits2f(uint32_t u)
{
	float f;
	memcpy(&f, &u, 4);
	return f;
}

static bool add_init_sym(struct parser *p, struct initctx *c, uint64_t byte_off, const char *name, uint32_t len,
			 uint32_t line, uint32_t col, int64_t add, uint8_t width, bool generic)
{
	struct ptx_var *v = &p->m->vars[c->vi];
	if (!GROW(p, v->init_syms, c->cap_syms, v->ninit_syms + 1))
		return false;
	v->init_syms[v->ninit_syms] = (struct ptx_init_sym){byte_off, -1, -1, add, width, generic};
	if (!GROW(p, p->mrefs, p->cap_mrefs, p->nmrefs + 1))
		return false;
	p->mrefs[p->nmrefs++] = (struct ref){(uint32_t)c->vi, v->ninit_syms, 0, REF_INIT, name, len, line, col};
	v->ninit_syms++;
	return true;
}

static bool flush_maskrun(struct parser *p, struct initctx *c)
{
	struct maskrun *r = &c->mr;
	if (!r->active)
		return true;
	r->active = false;
	if (r->nbytes != 8 && r->nbytes != 4)
		return fail_at(p, r->line, r->col, "incomplete address initializer (bytes of an address must appear in order)");
	return add_init_sym(p, c, r->byte_off, r->name, r->len, r->line, r->col, r->add, (uint8_t)r->nbytes, r->generic);
}

/* symbol expression: name | generic(name), then optional +N / -N */
static bool parse_symexpr(struct parser *p, struct namepos *np, int64_t *add, bool *is_generic)
{
	bool generic = false;
	const struct ptx_token *t = peek(p, 0);
	if (tok_is(t, PTX_TOK_IDENT, "generic") && peek(p, 1)->kind == '(') {
		generic = true;
		next(p);
		next(p);
		t = peek(p, 0);
	}
	if (t->kind != PTX_TOK_IDENT)
		return fail_tok(p, t, "expected a symbol name, got %s", qtok(t).s);
	*np = (struct namepos){t->text, t->len, t->line, t->col};
	next(p);
	if (generic && !expect(p, ')', "')' after generic(name"))
		return false;
	*is_generic = generic;
	*add = 0;
	if (peek(p, 0)->kind == '+' || peek(p, 0)->kind == '-') {
		bool minus = next(p).kind == '-';
		int64_t v = 0;
		if (!parse_sint(p, &v, "an offset"))
			return false;
		*add = minus ? (int64_t)(0 - (uint64_t)v) : v;
	}
	return true;
}

static bool init_scalar(struct parser *p, struct initctx *c)
{
	const struct ptx_token *t = peek(p, 0);
	uint32_t line = t->line, col = t->col;
	if (!c->unbounded && c->cursor >= c->sub[0])
		return fail_at(p, line, col, "too many initializers");
	if (!init_reserve(p, c, c->cursor + 1, line, col))
		return false;
	uint64_t off = c->cursor * c->elsz;
	uint8_t *dst = c->buf + off;
	enum ptx_type ty = c->type;
	/* address-byte form: 0xFF00(generic(sym)+4) */
	if (t->kind == PTX_TOK_INT && peek(p, 1)->kind == '(') {
		uint64_t mask = t->ival;
		int k = -1;
		for (int i = 0; i < 8; i++)
			if (mask == 0xffull << (8 * i))
				k = i;
		if (k < 0 || t->overflow)
			return fail_at(p, line, col, "address byte mask must be 0xFF shifted by whole bytes");
		if (c->elsz != 1)
			return fail_at(p, line, col, "address byte initializers need a byte-sized element type");
		next(p);
		next(p);
		struct namepos np;
		int64_t add;
		bool gen;
		if (!parse_symexpr(p, &np, &add, &gen))
			return false;
		if (!expect(p, ')', "')'"))
			return false;
		struct maskrun *r = &c->mr;
		bool cont = r->active && (uint32_t)k == r->nbytes && r->byte_off + r->nbytes == off && r->add == add &&
			    r->generic == gen &&
			    r->len == np.len && memcmp(r->name, np.name, np.len) == 0;
		if (!cont) {
			if (!flush_maskrun(p, c))
				return false;
			if (k != 0)
				return fail_at(p, line, col, "incomplete address initializer (bytes of an address must appear in order)");
			*r = (struct maskrun){true, 0, off, np.name, np.len, np.line, np.col, add, gen};
		}
		r->nbytes++;
		if (r->nbytes == 8 && !flush_maskrun(p, c))
			return false;
		c->cursor++;
		return true;
	}
	if (!flush_maskrun(p, c))
		return false;
	if (t->kind == PTX_TOK_IDENT) {
		struct namepos np;
		int64_t add;
		bool gen;
		if (c->elsz != 4 && c->elsz != 8)
			return fail_at(p, line, col, "symbol initializers need a 32- or 64-bit element type");
		if (!parse_symexpr(p, &np, &add, &gen))
			return false;
		if (!add_init_sym(p, c, off, np.name, np.len, np.line, np.col, add, (uint8_t)c->elsz, gen))
			return false;
		c->cursor++;
		return true;
	}
	bool neg = false;
	if (t->kind == '-') {
		neg = true;
		next(p);
		t = peek(p, 0);
	}
	uint64_t bits;
	if (ty == PTX_T_PRED)
		return fail_at(p, line, col, "predicate variables cannot be initialized");
	if (t->kind == PTX_TOK_INT) {
		if (t->overflow || (neg && t->ival > (uint64_t)INT64_MAX + 1))
			return fail_tok(p, t, "immediate out of range");
		uint64_t v = neg ? 0 - t->ival : t->ival;
		if (ty == PTX_T_F32) {
			bits = f2bits(neg ? (float)(int64_t)v : (float)v);
		} else if (ty == PTX_T_F64) {
			bits = d2bits(neg ? (double)(int64_t)v : (double)v);
		} else {
			unsigned b = 8 * c->elsz;
			if (b < 64) {
				bool fits = neg ? (int64_t)v >= -(int64_t)(1ull << (b - 1)) : v < (1ull << b);
				if (!fits)
					return fail_tok(p, t, "initializer value out of range for .%s", ptx_type_name[ty]);
			}
			bits = v;
		}
	} else if (t->kind == PTX_TOK_FLOAT || t->kind == PTX_TOK_F32 || t->kind == PTX_TOK_F64) {
		double d = t->kind == PTX_TOK_FLOAT ? t->fval
			   : t->kind == PTX_TOK_F32 ? (double)bits2f((uint32_t)t->ival)
						     : bits2d(t->ival);
		if (neg)
			d = -d;
		if (ty == PTX_T_F32)
			bits = t->kind == PTX_TOK_F32 ? (t->ival ^ (neg ? 0x80000000ull : 0)) : f2bits((float)d);
		else if (ty == PTX_T_F64)
			bits = t->kind == PTX_TOK_F64 ? (t->ival ^ (neg ? 0x8000000000000000ull : 0)) : d2bits(d);
		else if (t->kind == PTX_TOK_F32 && c->elsz == 4 && !neg)
			bits = t->ival;
		else if (t->kind == PTX_TOK_F64 && c->elsz == 8 && !neg)
			bits = t->ival;
		else
			return fail_tok(p, t, "floating-point initializer for .%s variable", ptx_type_name[ty]);
	} else {
		return fail_tok(p, t, "expected an initializer value, got %s", qtok(t).s);
	}
	bool sext = neg && t->kind == PTX_TOK_INT;
	next(p);
	put_le(dst, bits, c->elsz, sext);
	c->cursor++;
	return true;
}

static bool init_list(struct parser *p, struct initctx *c, unsigned depth)
{
	next(p); /* '{' */
	uint64_t start = c->cursor;
	uint64_t span = c->sub[depth];
	bool bounded = !(depth == 0 && c->unbounded);
	if (peek(p, 0)->kind == '}')
		return fail_tok(p, peek(p, 0), "empty initializer list");
	for (;;) {
		const struct ptx_token *t = peek(p, 0);
		if (t->kind == '{') {
			if (depth + 1 >= c->ndims)
				return fail_tok(p, t, "too many nested braces in initializer");
			uint64_t s = c->sub[depth + 1];
			uint64_t at = (c->cursor + s - 1) / s * s;
			if (bounded && at + s > start + span)
				return fail_tok(p, t, "too many initializers");
			if (!flush_maskrun(p, c))
				return false;
			c->cursor = at;
			if (!init_list(p, c, depth + 1))
				return false;
			c->cursor = at + s;
		} else {
			if (bounded && c->cursor >= start + span)
				return fail_tok(p, t, "too many initializers");
			if (!init_scalar(p, c))
				return false;
		}
		if (c->cursor > c->extent)
			c->extent = c->cursor;
		if (accept(p, ','))
			continue;
		if (peek(p, 0)->kind == '}')
			break;
		return fail_tok(p, peek(p, 0), "expected ',' or '}' in initializer list, got %s", qtok(peek(p, 0)).s);
	}
	next(p);
	return true;
}

/* '=' already consumed.  dims[0] == 0 means the size comes from the initializer. */
bool parse_initializer(struct parser *p, int32_t vi, uint64_t *dims, unsigned nd, uint8_t vec)
{
	struct initctx c;
	memset(&c, 0, sizeof(c));
	c.vi = vi;
	struct ptx_var *v = &p->m->vars[vi];
	c.type = v->type;
	c.elsz = ptx_type_size[v->type];
	uint64_t ed[MAX_DIMS + 1];
	unsigned n = 0;
	for (unsigned i = 0; i < nd; i++)
		ed[n++] = dims[i];
	if (vec > 1)
		ed[n++] = vec;
	c.ndims = n;
	c.sub[n] = 1;
	for (unsigned i = n; i-- > 0;)
		c.sub[i] = ed[i] ? ed[i] * c.sub[i + 1] : 0;
	c.unbounded = n > 0 && ed[0] == 0;
	const struct ptx_token *t = peek(p, 0);
	uint32_t line = t->line, col = t->col;
	if (!c.unbounded && c.sub[0] * c.elsz > MAX_INIT_BYTES)
		return fail_at(p, line, col, "initialized variable too large (limit %u bytes)", MAX_INIT_BYTES);
	bool ok;
	if (t->kind == '{') {
		if (n == 0)
			return fail_tok(p, t, "initializer list for a scalar variable");
		ok = init_list(p, &c, 0);
	} else {
		if (n > 0)
			ok = fail_tok(p, t, "array initializer must be a list in braces");
		else
			ok = init_scalar(p, &c);
	}
	if (ok)
		ok = flush_maskrun(p, &c);
	v = &p->m->vars[vi];
	if (!ok) {
		free(c.buf);
		return false;
	}
	uint64_t total;
	if (c.unbounded) {
		uint64_t per = c.sub[1];
		uint64_t items = (c.extent + per - 1) / per;
		dims[0] = items;
		total = items * per;
	} else {
		total = c.sub[0] ? c.sub[0] : 1;
	}
	if (!init_reserve(p, &c, total, line, col)) {
		free(c.buf);
		return false;
	}
	v->init = c.buf;
	v->size = total * c.elsz;
	p->init_bytes += v->size;
	return true;
}

/* One declaration statement: [space] attrs declarator {, declarator} ;
 * `func` is the owning function or -1. */
