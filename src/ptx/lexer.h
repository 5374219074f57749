/*
 * lexer.h -- tokenizer for PTX source text (front end of src/ptx/).
 *
 * Models no hardware.  Turns a byte buffer (not necessarily NUL-terminated,
 * possibly containing NUL bytes) into tokens on demand: identifiers
 * (foo, %r1, $L__BB0_2, _), dotted names (.reg, .u32, .L1::evict_last),
 * integer and floating-point literals, strings and single-character
 * punctuation.  Comments (// and block comments) and whitespace are skipped;
 * every token records its 1-based line and byte column and whether
 * whitespace preceded it (instruction suffixes must be adjacent).
 *
 * Errors (unterminated comment or string, malformed number, stray byte)
 * produce a PTX_TOK_ERROR token whose position is the error position and
 * whose message is in lexer.msg; after an error the lexer keeps returning
 * that same error token.
 */
#ifndef WARPSIM_PTX_LEXER_H
#define WARPSIM_PTX_LEXER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Punctuation tokens use their character as kind:  { } [ ] ( ) < > , ; : @ ! | + - =
 * Everything else uses these kinds (all above any ASCII value). */
enum ptx_tok_kind {
	PTX_TOK_EOF = 256,
	PTX_TOK_ERROR,
	PTX_TOK_IDENT,     /* foo, %r1, %tid, $L__BB0_2, _ */
	PTX_TOK_DIRECTIVE, /* .reg, .u32, .L1::evict_last: text includes the leading dot */
	PTX_TOK_INT,       /* integer literal: ival (overflow set if it exceeds 64 bits) */
	PTX_TOK_FLOAT,     /* decimal floating-point literal (1.5, 1e-3): fval */
	PTX_TOK_F32,       /* 0fXXXXXXXX: ival = the 32 bits */
	PTX_TOK_F64,       /* 0dXXXXXXXXXXXXXXXX: ival = the 64 bits */
	PTX_TOK_STRING,    /* "...": text includes the quotes */
};

struct ptx_token {
	int kind;          /* a punctuation character or enum ptx_tok_kind */
	const char *text;  /* points into the source buffer */
	uint32_t len;
	uint32_t line, col; /* 1-based; col counts bytes */
	bool space_before; /* whitespace, a comment or the start of input precedes it */
	bool overflow;     /* PTX_TOK_INT: value does not fit in 64 bits */
	uint64_t ival;
	double fval;
};

struct ptx_lexer {
	const char *p, *end, *line_start;
	uint32_t line;
	bool failed;
	struct ptx_token err_tok; /* returned again after an error */
	char msg[160];            /* error message for PTX_TOK_ERROR */
};

void ptx_lexer_init(struct ptx_lexer *lx, const char *text, size_t len);
/* Produce the next token into *t. */
void ptx_lexer_next(struct ptx_lexer *lx, struct ptx_token *t);
/* Name of a token kind for messages ("identifier", "';'", ...). */
const char *ptx_tok_kind_name(int kind);

#endif
