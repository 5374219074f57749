/*
 * parser.c -- PTX parser: source text -> module IR (ir.h).
 *
 * Models no hardware.  A recursive-descent parser over the token stream of
 * lexer.c, covering the PTX that nvcc (CUDA 13, .version 9.0, compute_75 and
 * newer) emits: module directives, variables with initializers, .entry/.func
 * definitions and prototypes, register declarations with %r<N> ranges,
 * nested scoped blocks, labels, .branchtargets/.callprototype, guarded
 * instructions with every operand form, and debug directives (skipped).
 *
 * The parser is split by what it parses (the list is in parse_internal.h,
 * with the state all parts share): this file holds the errors, tokens,
 * memory and scopes every part uses and the module level (.version,
 * .target, .address_size, module items, ptx_parse()); declarations are in
 * parse_decl.c, initializers in parse_init.c, operands in parse_operand.c,
 * instruction syntax in parse_insn.c and functions in parse_func.c.  Its
 * name maps are util/strmap.h.
 *
 * Instruction suffixes are decoded through two const tables: `modwords`
 * (every modifier word -> the insn field it sets, in which group) and
 * `opsyn` (per opcode: which modifier groups, which types, how many type
 * suffixes and which operand shapes are valid).  An opcode of opcodes.def
 * without an opsyn entry is parsed permissively.
 *
 * Name resolution: registers and function-scope variables live in a scoped
 * symbol table (hash map + undo log, innermost binding wins); module
 * variables and functions in plain maps.  Labels and branch tables are
 * resolved at the end of each function, function references (calls, mov of
 * a function address, initializers) at the end of the module.
 *
 * Errors: the first error is recorded with file:line:col and the parse
 * returns NULL after freeing everything.  Work is linear in input size;
 * nesting depths and register counts are capped.
 *
 * IR conventions where ir.h leaves room:
 *  - call: opd[0] OPD_LIST of return .param vars (nlist 0 if none), opd[1]
 *    OPD_FUNC or OPD_REG (indirect), opd[2] OPD_LIST of argument vars,
 *    nopd 3; with a prototype nopd 4 and opd[3] is OPD_LABEL, target -1.
 *  - brx.idx: opd[1] is OPD_LIST whose list holds the pcs of the labels of
 *    the .branchtargets, in order.  A label at the end of a body has pc
 *    ninsns.
 *  - immediates: integers as 64-bit two's complement (IMM_INT); 0fXXXXXXXX
 *    IMM_F32 bits; 0d... and decimal literals (1.5, 1e-3) IMM_F64 bits; a '-'
 *    before a float literal flips its sign bit.
 *  - .sync of shfl/vote is not recorded: the operand count tells (5/3 with
 *    .sync, 4/2 without); match and redux always have it.  bar.sync does not
 *    imply FLAG_ALIGNED.  membar.gl is SCOPE_GPU.  Cache and eviction hints
 *    (.ca, .L1::evict_last, .L2::128B, ...) are accepted and dropped.
 *  - "_|%p" destinations: OPD_SINK with reg2 = the predicate.
 *  - variables: type is the element type, size = element size * vector
 *    width * array dims, align defaults to element size * vector width; an
 *    initializer sizes a "[]" array; 0xFF<<8k(generic(x)+a) byte masks of
 *    one address (in order) become one init_sym of width 8 (or 4).
 *  - a function declared before it is defined keeps its parameter variables;
 *    the definition renames them (types and sizes must agree).
 *  - module.target is the first name of .target (e.g. "sm_75").
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx/parse_internal.h"

/* ------------------------------------------------------------------ */
/* errors                                                              */
/* ------------------------------------------------------------------ */

/* errors shown in err (docs/ptx.md); parsing goes on to count the rest */
#define PARSE_MAX_ERRORS 100

/* The first error fills err; later ones (after recovery, see recover())
 * are appended to err->more while they fit and PARSE_MAX_ERRORS are not yet
 * shown; the rest are only counted (more_dropped). */
static bool vfail(struct parser *p, uint32_t line, uint32_t col, const char *fmt, va_list ap)
{
	if (p->failed)
		return false;
	p->failed = true;
	p->nerrors++;
	if (p->err) {
		p->err->count = p->nerrors;
		if (p->nerrors == 1) {
			snprintf(p->err->file, sizeof(p->err->file), "%s", p->filename);
			p->err->line = line;
			p->err->col = col;
			vsnprintf(p->err->msg, sizeof(p->err->msg), fmt, ap);
		} else if (p->nerrors > PARSE_MAX_ERRORS) {
			p->more_dropped++;
		} else {
			char msg[512], ln[900];
			vsnprintf(msg, sizeof msg, fmt, ap);
			int n = snprintf(ln, sizeof ln, "%s:%u:%u: error: %s\n", p->filename, line, col, msg);
			size_t used = strlen(p->err->more);
			if (n > 0 && used + (size_t)n + 48 < sizeof(p->err->more))
				memcpy(p->err->more + used, ln, (size_t)n + 1);
			else
				p->more_dropped++;
		}
	}
	return false;
}

bool fail_at(struct parser *p, uint32_t line, uint32_t col, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vfail(p, line, col, fmt, ap);
	va_end(ap);
	return false;
}

/* Report an error at token t; a lexer error token reports its own message. */
bool fail_tok(struct parser *p, const struct ptx_token *t, const char *fmt, ...)
{
	if (t->kind == PTX_TOK_ERROR)
		return fail_at(p, t->line, t->col, "%s", p->lx.msg);
	va_list ap;
	va_start(ap, fmt);
	vfail(p, t->line, t->col, fmt, ap);
	va_end(ap);
	return false;
}

bool fail_oom(struct parser *p)
{
	p->oom = true;
	return fail_at(p, p->lx.line, 1, "out of memory");
}

/* Quoted, printable, length-limited rendering of a name for messages. */
struct qbuf qname(const char *s, size_t n)
{
	struct qbuf q;
	size_t o = 0;
	q.s[o++] = '\'';
	for (size_t i = 0; i < n && o < 60; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c >= 0x20 && c < 0x7f) {
			q.s[o++] = (char)c;
		} else {
			snprintf(q.s + o, sizeof(q.s) - o, "\\x%02x", c);
			o += 4;
		}
	}
	if (n > 0 && o >= 60) {
		memcpy(q.s + o, "...", 3);
		o += 3;
	}
	q.s[o++] = '\'';
	q.s[o] = 0;
	return q;
}
struct qbuf qtok(const struct ptx_token *t)
{
	if (t->kind == PTX_TOK_EOF) {
		struct qbuf q;
		snprintf(q.s, sizeof(q.s), "end of input");
		return q;
	}
	return qname(t->text, t->len);
}

/* ------------------------------------------------------------------ */
/* tokens                                                              */
/* ------------------------------------------------------------------ */

/* After a failed statement in a function body that began at (line, col):
 * skip to the end of that statement (its ';', unless the error was found
 * after it, or a '}' that starts a later line: the end of the block) and go
 * on, so that one run reports every error.  False when parsing must stop
 * (out of memory, end of input or a lexer error). */
bool recover(struct parser *p, uint32_t line, uint32_t col)
{
	if (p->oom)
		return false;
	const struct ptx_token *t = peek(p, 0);
	bool moved = t->line != line || t->col != col;
	if (moved && p->last_kind == ';') { /* the statement was complete */
		p->failed = false;
		return true;
	}
	uint32_t prev_line = t->line;
	if (!moved && t->kind != PTX_TOK_EOF && t->kind != PTX_TOK_ERROR && t->kind != '}')
		next(p); /* at least one token, or the same error again */
	for (;;) {
		t = peek(p, 0);
		if (t->kind == PTX_TOK_EOF || t->kind == PTX_TOK_ERROR)
			return false;
		if (t->kind == ';') {
			next(p);
			break;
		}
		if (t->kind == '}' && t->line > prev_line)
			break;
		prev_line = t->line;
		next(p);
	}
	p->failed = false;
	return true;
}

/* A directive that starts a module-level item. */
static bool starts_module_item(const struct ptx_token *t)
{
	static const char *const dirs[] = {".version", ".target", ".address_size", ".visible", ".extern", ".weak",
					   ".common", ".entry", ".func", ".global", ".const", ".shared", ".local",
					   ".tex", ".texref", ".surfref", ".samplerref", ".file", ".section", ".pragma"};
	if (t->kind != PTX_TOK_DIRECTIVE)
		return false;
	for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++)
		if (t->len == strlen(dirs[i]) && memcmp(t->text, dirs[i], t->len) == 0)
			return true;
	return false;
}

/* After a failed module-level item (a declaration, directive or function
 * header) that began at token index `start`: skip to the end of the item --
 * its ';' outside braces, the '}' that closes a body it opened, or the next
 * line that starts another module-level item -- and go on, so that one run
 * reports every error.  False when parsing must stop (as recover()). */
static bool recover_module(struct parser *p, uint32_t line)
{
	if (p->oom)
		return false;
	int depth = 0;
	uint32_t prev_line = line;
	bool first = true;
	for (;;) {
		const struct ptx_token *t = peek(p, 0);
		if (t->kind == PTX_TOK_EOF || t->kind == PTX_TOK_ERROR)
			return false;
		if (!first && depth == 0 && t->line > prev_line && starts_module_item(t))
			break;
		first = false;
		prev_line = t->line;
		next(p);
		if (t->kind == '{')
			depth++;
		else if (t->kind == '}' && --depth <= 0)
			break;
		else if (t->kind == ';' && depth == 0)
			break;
	}
	p->failed = false;
	return true;
}

/* ------------------------------------------------------------------ */
/* memory                                                              */
/* ------------------------------------------------------------------ */

bool grow_impl(struct parser *p, void *arr, uint32_t *cap, uint64_t need, size_t elsz)
{
	if (need > UINT32_MAX / 2)
		return fail_oom(p);
	uint64_t nc = *cap ? *cap : 8;
	while (nc < need)
		nc *= 2;
	void *n = realloc(arr, (size_t)(nc * elsz));
	if (!n)
		return fail_oom(p);
	p->growtmp = n;
	*cap = (uint32_t)nc;
	return true;
}

char *xstrndup(const char *s, size_t n)
{
	char *d = malloc(n + 1);
	if (d) {
		memcpy(d, s, n);
		d[n] = 0;
	}
	return d;
}

/* ------------------------------------------------------------------ */
/* scopes                                                              */
/* ------------------------------------------------------------------ */

bool scope_declare(struct parser *p, const char *name, uint32_t len, uint8_t kind, int32_t idx, uint32_t line,
		   uint32_t col)
{
	struct strmap_slot *s = strmap_get(&p->scope, name, len);
	if (!s)
		return fail_oom(p);
	if (s->kind != SK_NONE && s->depth == p->depth)
		return fail_at(p, line, col, "redefinition of %s", qname(name, len).s);
	if (!GROW(p, p->undo, p->cap_undo, p->nundo + 1))
		return false;
	p->undo[p->nundo++] = (struct undo){s->key, s->len, s->val, s->depth, s->kind};
	s->kind = kind;
	s->val = idx;
	s->depth = p->depth;
	return true;
}

bool scope_push(struct parser *p, const struct ptx_token *at)
{
	if (p->depth >= MAX_BLOCK_DEPTH)
		return fail_tok(p, at, "blocks nested too deeply (limit %d)", MAX_BLOCK_DEPTH);
	p->depth++;
	p->marks[p->depth] = p->nundo;
	return true;
}

void scope_pop(struct parser *p)
{
	uint32_t mark = p->marks[p->depth];
	while (p->nundo > mark) {
		struct undo *u = &p->undo[--p->nundo];
		struct strmap_slot *s = strmap_find(&p->scope, u->key, u->len);
		if (s) {
			s->kind = u->kind;
			s->val = u->val;
			s->depth = u->depth;
		}
	}
	p->depth--;
}

/* ------------------------------------------------------------------ */
/* module                                                              */
/* ------------------------------------------------------------------ */

/*
 * The PTX ISA versions and targets warpsim knows (docs/cli.md, "PTX files").
 * A module outside them loads with a warning when the version or target is
 * plausible (a newer ISA of the next major version, an unknown sm_NN with two
 * or three digits below 200) and is an error when it cannot be PTX
 * (.version 0.x or 11.0 and up, a minor version above 99, sm_1000, sm_x).
 */
#define PTX_ISA_MAX_MAJOR 9
#define PTX_ISA_MAX_MINOR 0
#define PTX_ISA_RANGE "1.0 to 9.0"
static const unsigned known_sm[] = {10, 11, 12, 13, 20, 21, 30, 32, 35, 37, 50, 52, 53, 60, 61, 62, 70, 72,
				    75, 80, 86, 87, 88, 89, 90, 100, 101, 103, 110, 120, 121};
#define PTX_SM_RANGE "sm_10 to sm_121"
/* .target options that are not a GPU name */
static const char *const target_options[] = {"debug", "texmode_unified", "texmode_independent", "map_f64_to_f32"};

static void warn_at(struct parser *p, uint32_t line, uint32_t col, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void warn_at(struct parser *p, uint32_t line, uint32_t col, const char *fmt, ...)
{
	char msg[300];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	char *w = p->m->warnings;
	size_t n = strlen(w);
	if (n < sizeof p->m->warnings)
		snprintf(w + n, sizeof p->m->warnings - n, "%s:%u:%u: warning: %s\n", p->filename, line, col, msg);
}

static bool parse_version(struct parser *p)
{
	const struct ptx_token d = *peek(p, 0);
	next(p);
	const struct ptx_token *t = peek(p, 0);
	unsigned maj = 0, min = 0;
	uint32_t i = 0;
	bool ok = t->kind == PTX_TOK_FLOAT;
	while (ok && i < t->len && t->text[i] >= '0' && t->text[i] <= '9' && maj < 10000)
		maj = maj * 10 + (unsigned)(t->text[i++] - '0');
	ok = ok && i > 0 && i < t->len && t->text[i] == '.';
	uint32_t j = ++i;
	while (ok && i < t->len && t->text[i] >= '0' && t->text[i] <= '9' && min < 10000)
		min = min * 10 + (unsigned)(t->text[i++] - '0');
	if (!ok || i != t->len || i == j)
		return fail_tok(p, t, "malformed .version (expected MAJOR.MINOR), got %s", qtok(t).s);
	if (p->version_line)
		return fail_at(p, d.line, d.col, "a second .version directive (the first is at line %u)", p->version_line);
	if (maj == 0 || maj > PTX_ISA_MAX_MAJOR + 1 || min > 99)
		return fail_tok(p, t, "PTX ISA version %u.%u does not exist (warpsim knows %s)", maj, min,
				PTX_ISA_RANGE);
	if (maj > PTX_ISA_MAX_MAJOR || (maj == PTX_ISA_MAX_MAJOR && min > PTX_ISA_MAX_MINOR))
		warn_at(p, t->line, t->col, "PTX ISA version %u.%u is newer than warpsim knows (%s); loading it anyway",
			maj, min, PTX_ISA_RANGE);
	p->version_line = d.line;
	p->m->version_major = maj;
	p->m->version_minor = min;
	next(p);
	return true;
}

/* sm_NN, sm_NNa, sm_NNf: its number, or 0 if the name is not of that form. */
static unsigned sm_number(const struct ptx_token *t)
{
	if (t->len < 4 || memcmp(t->text, "sm_", 3) != 0)
		return 0;
	unsigned n = 0;
	uint32_t i = 3;
	while (i < t->len && t->text[i] >= '0' && t->text[i] <= '9' && n < 100000)
		n = n * 10 + (unsigned)(t->text[i++] - '0');
	if (i == 3 || t->text[3] == '0')
		return 0;
	if (i < t->len && (t->text[i] == 'a' || t->text[i] == 'f'))
		i++;
	return i == t->len ? n : 0;
}

static bool parse_target(struct parser *p)
{
	const struct ptx_token d = *peek(p, 0);
	next(p);
	if (p->target_line)
		return fail_at(p, d.line, d.col, "a second .target directive (the first is at line %u)", p->target_line);
	p->target_line = d.line;
	bool first = true;
	for (;;) {
		const struct ptx_token *t = peek(p, 0);
		if (t->kind != PTX_TOK_IDENT)
			return fail_tok(p, t, "expected a target name, got %s", qtok(t).s);
		bool option = false;
		for (size_t k = 0; k < sizeof target_options / sizeof target_options[0]; k++)
			option |= tok_is(t, PTX_TOK_IDENT, target_options[k]);
		unsigned sm = option ? 0 : sm_number(t);
		if (first && !sm)
			return fail_tok(p, t, "unknown target %s: expected sm_NN, a GPU architecture (warpsim knows %s)",
					qtok(t).s, PTX_SM_RANGE);
		if (!first && !option)
			return fail_tok(p, t, "unknown .target option %s (expected debug, texmode_unified, "
					      "texmode_independent or map_f64_to_f32)", qtok(t).s);
		if (first) {
			if (sm < 10 || sm >= 200)
				return fail_tok(p, t, "target %s does not exist (warpsim knows %s)", qtok(t).s, PTX_SM_RANGE);
			bool known = false;
			for (size_t k = 0; k < sizeof known_sm / sizeof known_sm[0]; k++)
				known |= known_sm[k] == sm;
			if (!known)
				warn_at(p, t->line, t->col, "target %s is not an architecture warpsim knows (%s); loading it anyway",
					qtok(t).s, PTX_SM_RANGE);
			size_t n = t->len < sizeof(p->m->target) - 1 ? t->len : sizeof(p->m->target) - 1;
			memcpy(p->m->target, t->text, n);
			p->m->target[n] = 0;
			first = false;
		}
		next(p);
		if (!accept(p, ','))
			return true;
	}
}

static bool parse_address_size(struct parser *p)
{
	next(p);
	const struct ptx_token t_ = *peek(p, 0); /* copy: used after parsing on */
	uint64_t v = 0;
	if (!parse_uint(p, &v, "32 or 64"))
		return false;
	if (v != 32 && v != 64)
		return fail_at(p, t_.line, t_.col, ".address_size must be 32 or 64");
	p->m->address_size = (uint32_t)v;
	return true;
}

static bool resolve_module_refs(struct parser *p)
{
	struct ptx_module *m = p->m;
	for (uint32_t i = 0; i < p->nmrefs; i++) {
		struct ref *r = &p->mrefs[i];
		struct strmap_slot *fs = strmap_find(&p->funcnames, r->name, r->len);
		int32_t fidx = fs ? fs->val : -1;
		struct strmap_slot *vs = strmap_find(&p->modvars, r->name, r->len);
		int32_t vidx = vs ? vs->val : -1;
		if (r->what == REF_INIT) {
			struct ptx_init_sym *is = &m->vars[r->a].init_syms[r->b];
			if (fidx >= 0) {
				if (is->add)
					return fail_at(p, r->line, r->col, "offset added to function %s", qname(r->name, r->len).s);
				is->func = fidx;
			} else if (vidx >= 0) {
				is->sym = vidx;
			} else {
				return fail_at(p, r->line, r->col, "unknown symbol %s in initializer", qname(r->name, r->len).s);
			}
			continue;
		}
		struct ptx_operand *o = &m->funcs[r->a].insns[r->b].opd[r->opd];
		if (r->what == REF_CALL) {
			if (fidx < 0)
				return fail_at(p, r->line, r->col, "call to undefined function %s", qname(r->name, r->len).s);
			if (m->funcs[fidx].is_entry)
				return fail_at(p, r->line, r->col, "cannot call kernel %s", qname(r->name, r->len).s);
			o->func = fidx;
		} else if (fidx >= 0) {
			if (o->offset)
				return fail_at(p, r->line, r->col, "offset added to function %s", qname(r->name, r->len).s);
			o->func = fidx;
		} else if (vidx >= 0) {
			o->kind = OPD_SYM;
			o->sym = vidx;
		} else {
			return fail_at(p, r->line, r->col, "unknown symbol %s", qname(r->name, r->len).s);
		}
	}
	return true;
}

/* One module-level item: a directive, a variable declaration or a function.
 * False after an error (recorded by fail_tok & co). */
static bool parse_module_item(struct parser *p)
{
	const struct ptx_token *t = peek(p, 0);
	if (t->kind != PTX_TOK_DIRECTIVE)
		return fail_tok(p, t, "expected a directive, got %s", qtok(t).s);
	if (is_dir(t, ".version")) {
		if (!parse_version(p))
			return false;
	} else if (is_dir(t, ".target")) {
		if (!parse_target(p))
			return false;
	} else if (is_dir(t, ".address_size")) {
		if (!parse_address_size(p))
			return false;
	} else if (is_dir(t, ".file") || is_dir(t, ".loc")) {
		uint32_t line = t->line;
		next(p);
		if (!skip_line(p, line))
			return false;
	} else if (is_dir(t, ".section")) {
		if (!skip_section(p))
			return false;
	} else if (is_dir(t, ".pragma")) {
		if (!skip_pragma(p))
			return false;
	} else {
		bool visible = false, ext = false;
		for (;;) {
			t = peek(p, 0);
			if (is_dir(t, ".visible"))
				visible = true;
			else if (is_dir(t, ".extern"))
				ext = true;
			else if (!is_dir(t, ".weak") && !is_dir(t, ".common"))
				break;
			next(p);
		}
		if (is_dir(t, ".entry") || is_dir(t, ".func")) {
			if (!parse_function(p, visible, ext))
				return false;
		} else if (space_of_dir(t) >= 0) {
			if (!parse_var_decl(p, -1, ext))
				return false;
		} else if (t->kind == PTX_TOK_DIRECTIVE) {
			return fail_tok(p, t, "unknown directive %s", qtok(t).s);
		} else {
			return fail_tok(p, t, "expected .entry, .func or a variable declaration, got %s", qtok(t).s);
		}
	}
	return !p->failed;
}

static bool parse_module(struct parser *p)
{
	for (;;) {
		const struct ptx_token *t = peek(p, 0);
		if (t->kind == PTX_TOK_EOF)
			break;
		if (t->kind == ';') {
			next(p);
			continue;
		}
		uint32_t line = t->line;
		if (parse_module_item(p))
			continue;
		if (p->fi >= 0) /* a function failed inside its body: drop its parse state */
			reset_function_state(p);
		if (!recover_module(p, line))
			return false;
	}
	if (p->failed || p->nerrors) /* module-level references of a module with errors are not resolved */
		return false;
	if (!p->version_line || !p->target_line) {
		const struct ptx_token *t = peek(p, 0);
		bool empty = t->line == 1 && t->col == 1 && p->m->nfuncs == 0 && p->m->nvars == 0;
		return fail_at(p, 1, 1, "%s: not a PTX module (a PTX module starts with .version and .target)",
			       empty ? "empty file" : !p->version_line ? "no .version directive" : "no .target directive");
	}
	return resolve_module_refs(p);
}

static void parser_free(struct parser *p)
{
	strmap_free(&p->modvars);
	strmap_free(&p->funcnames);
	strmap_free(&p->words);
	strmap_free(&p->opnames);
	strmap_free(&p->scope);
	strmap_free(&p->labels);
	strmap_free(&p->btnames);
	strmap_free(&p->protos);
	free(p->mrefs);
	free(p->undo);
	free(p->frefs);
	free(p->bts);
	free(p->btl);
	free(p->ranges);
	free(p->pd);
	free(p->tmpl);
}

struct ptx_module *ptx_parse(const char *text, size_t len, const char *filename, struct ptx_error *err)
{
	struct parser *p = calloc(1, sizeof(*p));
	if (err)
		memset(err, 0, sizeof(*err));
	if (!filename)
		filename = "<input>";
	if (!p) {
		if (err) {
			snprintf(err->file, sizeof(err->file), "%s", filename);
			snprintf(err->msg, sizeof(err->msg), "out of memory");
		}
		return NULL;
	}
	if (!text)
		len = 0;
	ptx_lexer_init(&p->lx, text ? text : "", len);
	p->err = err;
	p->filename = filename;
	p->fi = -1;
	p->m = calloc(1, sizeof(*p->m));
	if (!p->m) {
		fail_oom(p);
		free(p);
		return NULL;
	}
	p->m->filename = xstrndup(filename, strlen(filename));
	p->m->address_size = 64;
	bool ok = p->m->filename != NULL || fail_oom(p);
	if (ok)
		ok = parse_insn_maps_init(p);
	if (ok)
		ok = parse_module(p);
	if (p->nerrors) { /* also errors recovered from */
		ok = false;
		if (err && p->more_dropped) {
			size_t used = strlen(err->more);
			snprintf(err->more + used, sizeof(err->more) - used, "... and %u more errors\n", p->more_dropped);
		}
	}
	struct ptx_module *m = p->m;
	parser_free(p);
	free(p);
	if (!ok) {
		ptx_module_destroy(m);
		return NULL;
	}
	return m;
}

