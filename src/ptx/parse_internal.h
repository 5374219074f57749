/*
 * parse_internal.h -- the state and the shared helpers of the PTX parser,
 * private to src/ptx/parser.c and src/ptx/parse_*.c (the public entry point
 * is ptx_parse() in ir.h).
 *
 * Models no hardware.  One `struct parser` lives for one ptx_parse() call:
 * the lexer and its look-ahead, the module being built, the symbol maps
 * (util/strmap.h), the state of the function being parsed, the references
 * resolved at the end of a function or of the module, and the errors.
 *
 * Which file parses what:
 *   parser.c         errors, tokens, memory, scopes; module directives
 *                    (.version/.target/.address_size) and ptx_parse()
 *   parse_decl.c     variables, registers, directives' small syntax (types,
 *                    spaces, attributes, array dimensions), declarations
 *   parse_init.c     variable initializers
 *   parse_operand.c  names in operands and operands
 *   parse_insn.c     modifier words, per-opcode syntax, instructions
 *   parse_func.c     labels, branch tables, prototypes, function bodies and
 *                    functions
 */
#ifndef WARPSIM_PTX_PARSE_INTERNAL_H
#define WARPSIM_PTX_PARSE_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "ptx/ir.h"
#include "ptx/lexer.h"
#include "util/strmap.h"

#define MAX_BLOCK_DEPTH 64
#define MAX_DIMS 8
#define MAX_REGS_PER_FUNC (1u << 20)
#define MAX_REGS_PER_MODULE (1u << 22)
#define MAX_INIT_BYTES (64u << 20)      /* per variable and per module */
#define MAX_REG_NAME_BYTES (64u << 20)  /* register names of a %r<N> range, per module */
#define MAX_BRX_TARGETS (1u << 24)      /* brx target-list entries per module */
#define MAX_VAR_SIZE (1ull << 48)

enum { SK_NONE, SK_REG, SK_VAR, SK_VREG /* vector register: val = first element | count << 24 */ };

struct undo {
	const char *key;
	uint32_t len;
	int32_t val, depth;
	uint8_t kind;
};

/* a use of a name resolved later */
struct ref {
	uint32_t a, b; /* fi + insn (operands), var + init_sym (initializers) */
	uint8_t opd;
	uint8_t what; /* REF_* */
	const char *name;
	uint32_t len, line, col;
};
enum { REF_CALL, REF_OPD, REF_INIT, REF_LABEL, REF_BTABLE };

struct btable {
	uint32_t first, count; /* into btl */
};
struct namepos {
	const char *name;
	uint32_t len, line, col;
};
struct rdecl {
	const char *prefix;
	uint32_t plen, count;
};

/* a parameter declaration before it becomes a variable */
struct pdesc {
	const char *name;
	uint32_t len, line, col;
	uint8_t type;
	bool is_reg; /* .reg parameter */
	uint8_t vec, comp; /* element comp of a .reg .v2/.v4 parameter of vec elements (vec 0: scalar) */
	uint32_t align;
	uint64_t size;
};

/* pending address-byte initializers (0xFF00(generic(x)+4) ...) */
struct maskrun {
	bool active;
	uint32_t nbytes;
	uint64_t byte_off;
	const char *name;
	uint32_t len, line, col;
	int64_t add;
	bool generic;
};

struct parser {
	struct ptx_lexer lx;
	struct ptx_token la[4];
	unsigned la_head, la_n;
	struct ptx_error *err;
	bool failed;
	const char *filename;
	void *growtmp;
	struct ptx_module *m;
	uint32_t cap_vars, cap_funcs;
	struct strmap modvars, funcnames, words, opnames;
	struct ref *mrefs; /* module-level references */
	uint32_t nmrefs, cap_mrefs;
	uint64_t module_regs;
	uint64_t init_bytes, reg_name_bytes, brx_targets; /* against the caps above */
	/* current function */
	int32_t fi;
	uint32_t cap_insns, cap_regs;
	struct strmap scope, labels, btnames, protos;
	struct undo *undo;
	uint32_t nundo, cap_undo;
	uint32_t marks[MAX_BLOCK_DEPTH + 2];
	int depth;
	struct ref *frefs; /* label / branch-table references */
	uint32_t nfrefs, cap_frefs;
	struct btable *bts;
	uint32_t nbts, cap_bts;
	struct namepos *btl;
	uint32_t nbtl, cap_btl;
	struct rdecl *ranges;
	uint32_t nranges, cap_ranges;
	/* scratch */
	struct pdesc *pd;
	uint32_t npd, cap_pd;
	int32_t *tmpl;
	uint32_t ntmpl, cap_tmpl;
	/* module header: where .version and .target were (line 0: not seen) */
	uint32_t version_line, target_line;
	/* errors (recover()) */
	uint32_t nerrors, more_dropped;
	bool reg_plus;          /* the instruction being parsed has a "%r+imm" source (lower_reg_plus) */
	bool oom;
	int last_kind; /* of the last token consumed */
};

/* ---- errors (parser.c): false, after recording the error at (line, col) or at token t ---- */

bool fail_at(struct parser *p, uint32_t line, uint32_t col, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* a lexer error token reports its own message */
bool fail_tok(struct parser *p, const struct ptx_token *t, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
bool fail_oom(struct parser *p);
/* After a failed statement of a function body that began at (line, col): skip to its end and go on; false
 * when parsing must stop. */
bool recover(struct parser *p, uint32_t line, uint32_t col);

/* Quoted, printable, length-limited rendering of a name for messages (qname, qtok). */
struct qbuf {
	char s[80];
};

struct qbuf qname(const char *s, size_t n);
struct qbuf qtok(const struct ptx_token *t); /* "end of input" at the end */

/* ---- tokens (parser.c) ---- */

static inline const struct ptx_token *peek(struct parser *p, unsigned k)
{
	while (p->la_n <= k) {
		ptx_lexer_next(&p->lx, &p->la[(p->la_head + p->la_n) & 3]);
		p->la_n++;
	}
	return &p->la[(p->la_head + k) & 3];
}

static inline struct ptx_token next(struct parser *p)
{
	struct ptx_token t = *peek(p, 0);
	if (t.kind != PTX_TOK_EOF && t.kind != PTX_TOK_ERROR) {
		p->la_head = (p->la_head + 1) & 3;
		p->la_n--;
	}
	p->last_kind = t.kind;
	return t;
}

static inline bool tok_is(const struct ptx_token *t, int kind, const char *s)
{
	size_t n = strlen(s);
	return t->kind == kind && t->len == n && memcmp(t->text, s, n) == 0;
}
static inline bool is_dir(const struct ptx_token *t, const char *s) { return tok_is(t, PTX_TOK_DIRECTIVE, s); }

static inline bool accept(struct parser *p, int kind)
{
	if (peek(p, 0)->kind == kind) {
		next(p);
		return true;
	}
	return false;
}

static inline bool expect(struct parser *p, int kind, const char *what)
{
	const struct ptx_token *t = peek(p, 0);
	if (t->kind == kind) {
		next(p);
		return true;
	}
	return fail_tok(p, t, "expected %s, got %s", what, qtok(t).s);
}

static inline struct ptx_function *cur(struct parser *p) { return &p->m->funcs[p->fi]; }

/* ---- memory and scopes (parser.c) ---- */

bool grow_impl(struct parser *p, void *arr, uint32_t *cap, uint64_t need, size_t elsz);
/* Make room for `need` elements of arr (capacity cap); false after an out-of-memory error. */
#define GROW(p, arr, cap, need) \
	((uint64_t)(need) <= (cap) ? true : grow_impl((p), (arr), &(cap), (need), sizeof(*(arr))) ? ((arr) = (p)->growtmp, true) : false)
char *xstrndup(const char *s, size_t n);
bool scope_declare(struct parser *p, const char *name, uint32_t len, uint8_t kind, int32_t idx, uint32_t line,
		   uint32_t col);
bool scope_push(struct parser *p, const struct ptx_token *at);
void scope_pop(struct parser *p);

/* ---- variables, registers, directives' small syntax, declarations (parse_decl.c) ---- */

struct decl_attrs {
	uint8_t space, type, vec;
	uint8_t opaque; /* OPAQUE_*: .texref/.surfref/.samplerref */
	uint32_t align;
	bool is_extern;
	uint32_t tline, tcol;
};

int32_t new_var(struct parser *p, const char *name, uint32_t len, uint8_t space, uint8_t type, uint32_t line,
		uint32_t col, int32_t func);
bool is_sreg_name_ix(const char *s, uint32_t n, int *which, unsigned *index);
bool declare_reg(struct parser *p, char *name, uint32_t len, uint8_t type, uint32_t line, uint32_t col);
int type_of_dir(const struct ptx_token *t);
int space_of_dir(const struct ptx_token *t);
bool parse_uint(struct parser *p, uint64_t *out, const char *what);
bool parse_sint(struct parser *p, int64_t *out, const char *what);
bool skip_line(struct parser *p, uint32_t line);
bool skip_section(struct parser *p);
bool skip_pragma(struct parser *p);
bool skip_attribute(struct parser *p);
bool parse_var_attrs(struct parser *p, struct decl_attrs *a, bool allow_ptr);
bool parse_dims(struct parser *p, uint64_t *dims, unsigned *ndims);
bool dims_size(struct parser *p, const uint64_t *dims, unsigned nd, uint64_t elsz, uint64_t *out, uint32_t line,
	       uint32_t col);
bool parse_var_decl(struct parser *p, int32_t func, bool is_extern);
bool parse_reg_decl(struct parser *p);

/* ---- initializers (parse_init.c) ---- */

uint64_t d2bits(double d);
bool parse_initializer(struct parser *p, int32_t vi, uint64_t *dims, unsigned nd, uint8_t vec);

/* ---- operands (parse_operand.c) ---- */

enum { OPM_NORMAL, OPM_LABEL, OPM_BTABLE };

static inline void opd_init(struct ptx_operand *o)
{
	memset(o, 0, sizeof(*o));
	o->reg = o->reg2 = o->sym = o->func = o->target = -1;
}

bool pred_reg_of(struct parser *p, const struct ptx_token *t, int32_t *reg);
bool parse_vector(struct parser *p, struct ptx_operand *o);
bool parse_operand(struct parser *p, struct ptx_operand *o, int mode, uint32_t insn, unsigned k);
bool parse_call_operands(struct parser *p, struct ptx_insn *in, uint32_t ii);

/* ---- instructions (parse_insn.c) ---- */

/* Fill the maps of modifier words and opcode names; false after an out-of-memory error. */
bool parse_insn_maps_init(struct parser *p);
bool parse_instruction(struct parser *p);

/* ---- functions (parse_func.c) ---- */

void reset_function_state(struct parser *p);
bool parse_function(struct parser *p, bool visible, bool is_extern);

#endif
