/*
 * lexer.c -- tokenizer for PTX source text.
 *
 * Models no hardware.  See lexer.h for the token set.  The lexer never reads
 * outside [text, text+len): every look-ahead is bounds-checked, so input
 * need not be NUL-terminated and may contain NUL bytes (which are errors
 * outside comments and strings).  Time is linear in the input size.
 */
#include "ptx/lexer.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void ptx_lexer_init(struct ptx_lexer *lx, const char *text, size_t len)
{
	memset(lx, 0, sizeof(*lx));
	lx->p = text;
	lx->end = text + len;
	lx->line_start = text;
	lx->line = 1;
	/* a UTF-8 byte-order mark is not part of the text */
	if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0) {
		lx->p += 3;
		lx->line_start += 3;
	}
}

const char *ptx_tok_kind_name(int kind)
{
	switch (kind) {
	case PTX_TOK_EOF: return "end of input";
	case PTX_TOK_ERROR: return "invalid token";
	case PTX_TOK_IDENT: return "identifier";
	case PTX_TOK_DIRECTIVE: return "directive";
	case PTX_TOK_INT: return "integer";
	case PTX_TOK_FLOAT:
	case PTX_TOK_F32:
	case PTX_TOK_F64: return "floating-point number";
	case PTX_TOK_STRING: return "string";
	default: return "punctuation";
	}
}

static int peekc(const struct ptx_lexer *lx, size_t k)
{
	return (size_t)(lx->end - lx->p) > k ? (unsigned char)lx->p[k] : -1;
}

static bool is_ident_char(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '$';
}
static bool is_ident_start(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$';
}
static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static uint32_t col_of(const struct ptx_lexer *lx, const char *at)
{
	size_t c = (size_t)(at - lx->line_start) + 1;
	return c > UINT32_MAX ? UINT32_MAX : (uint32_t)c;
}

static void lex_error(struct ptx_lexer *lx, struct ptx_token *t, uint32_t line, uint32_t col, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
static void lex_error(struct ptx_lexer *lx, struct ptx_token *t, uint32_t line, uint32_t col, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(lx->msg, sizeof(lx->msg), fmt, ap);
	va_end(ap);
	lx->failed = true;
	memset(&lx->err_tok, 0, sizeof(lx->err_tok));
	lx->err_tok.kind = PTX_TOK_ERROR;
	lx->err_tok.line = line;
	lx->err_tok.col = col;
	lx->err_tok.text = lx->p;
	lx->err_tok.len = 0;
	lx->err_tok.space_before = true;
	*t = lx->err_tok;
}

static void newline(struct ptx_lexer *lx)
{
	/* lx->p points just past a '\n' */
	if (lx->line < UINT32_MAX)
		lx->line++;
	lx->line_start = lx->p;
}

/* Skip whitespace and comments.  Returns false (with *t set) on an
 * unterminated block comment. */
static bool skip_space(struct ptx_lexer *lx, struct ptx_token *t, bool *space)
{
	for (;;) {
		int c = peekc(lx, 0);
		if (c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f') {
			lx->p++;
			*space = true;
		} else if (c == '\n') {
			lx->p++;
			newline(lx);
			*space = true;
		} else if (c == '/' && peekc(lx, 1) == '/') {
			const char *nl = memchr(lx->p, '\n', (size_t)(lx->end - lx->p));
			lx->p = nl ? nl : lx->end;
			*space = true;
		} else if (c == '/' && peekc(lx, 1) == '*') {
			uint32_t line = lx->line, col = col_of(lx, lx->p);
			lx->p += 2;
			for (;;) {
				if (lx->p >= lx->end) {
					lex_error(lx, t, line, col, "unterminated block comment");
					return false;
				}
				if (*lx->p == '*' && peekc(lx, 1) == '/') {
					lx->p += 2;
					break;
				}
				if (*lx->p++ == '\n')
					newline(lx);
			}
			*space = true;
		} else {
			return true;
		}
	}
}

/* Printable rendering of one byte for messages. */
static void byte_repr(int c, char *buf, size_t n)
{
	if (c >= 0x21 && c < 0x7f && c != '\'')
		snprintf(buf, n, "%c", c);
	else
		snprintf(buf, n, "\\x%02x", (unsigned)c & 0xffu);
}

static void lex_number(struct ptx_lexer *lx, struct ptx_token *t)
{
	const char *s = lx->p;
	int c0 = peekc(lx, 0), c1 = peekc(lx, 1);
	size_t i;
	if (c0 == '0' && (c1 == 'f' || c1 == 'F' || c1 == 'd' || c1 == 'D')) {
		size_t want = (c1 == 'f' || c1 == 'F') ? 8 : 16;
		uint64_t v = 0;
		for (i = 2; hexval(peekc(lx, i)) >= 0; i++)
			v = (v << 4) | (uint64_t)hexval(peekc(lx, i));
		if (i - 2 != want || is_ident_char(peekc(lx, i))) {
			while (is_ident_char(peekc(lx, i)))
				i++;
			lex_error(lx, t, lx->line, col_of(lx, s), "malformed floating-point literal '%.*s' (0%c needs exactly %zu hex digits)",
				  (int)(i > 40 ? 40 : i), s, (char)c1, want);
			return;
		}
		t->kind = want == 8 ? PTX_TOK_F32 : PTX_TOK_F64;
		t->ival = v;
		lx->p += i;
		return;
	}
	uint64_t v = 0;
	bool ovf = false;
	int base = 10;
	i = 0;
	if (c0 == '0' && (c1 == 'x' || c1 == 'X')) {
		base = 16;
		i = 2;
	} else if (c0 == '0' && (c1 == 'b' || c1 == 'B')) {
		base = 2;
		i = 2;
	} else if (c0 == '0' && c1 >= '0' && c1 <= '9') {
		base = 8;
		i = 1;
	}
	if (base == 10) {
		/* decimal integer, or decimal float */
		size_t j = 0;
		while (peekc(lx, j) >= '0' && peekc(lx, j) <= '9')
			j++;
		bool is_float = false;
		size_t k = j;
		if (peekc(lx, k) == '.' && peekc(lx, k + 1) >= '0' && peekc(lx, k + 1) <= '9') {
			is_float = true;
			k++;
			while (peekc(lx, k) >= '0' && peekc(lx, k) <= '9')
				k++;
		}
		if (peekc(lx, k) == 'e' || peekc(lx, k) == 'E') {
			size_t e = k + 1;
			if (peekc(lx, e) == '+' || peekc(lx, e) == '-')
				e++;
			if (peekc(lx, e) >= '0' && peekc(lx, e) <= '9') {
				while (peekc(lx, e) >= '0' && peekc(lx, e) <= '9')
					e++;
				is_float = true;
				k = e;
			}
		}
		if (is_float) {
			if (is_ident_char(peekc(lx, k)) || peekc(lx, k) == '.') {
				while (is_ident_char(peekc(lx, k)) || peekc(lx, k) == '.')
					k++;
				lex_error(lx, t, lx->line, col_of(lx, s), "malformed number '%.*s'", (int)(k > 40 ? 40 : k), s);
				return;
			}
			char buf[128];
			if (k >= sizeof(buf)) {
				lex_error(lx, t, lx->line, col_of(lx, s), "floating-point literal too long");
				return;
			}
			memcpy(buf, s, k);
			buf[k] = 0;
			t->kind = PTX_TOK_FLOAT;
			t->fval = strtod(buf, NULL);
			lx->p += k;
			return;
		}
	}
	size_t start = i;
	for (;; i++) {
		int c = peekc(lx, i);
		int d = hexval(c);
		if (d < 0 || d >= base)
			break;
		if (v > (UINT64_MAX - (uint64_t)d) / (uint64_t)base)
			ovf = true;
		v = v * (uint64_t)base + (uint64_t)d;
	}
	if (i == start && base != 8) {
		lex_error(lx, t, lx->line, col_of(lx, s), "malformed number '%.*s'", (int)(i + 1), s);
		return;
	}
	if (peekc(lx, i) == 'U' || peekc(lx, i) == 'u')
		i++;
	if (is_ident_char(peekc(lx, i))) {
		while (is_ident_char(peekc(lx, i)))
			i++;
		lex_error(lx, t, lx->line, col_of(lx, s), "malformed number '%.*s'", (int)(i > 40 ? 40 : i), s);
		return;
	}
	t->kind = PTX_TOK_INT;
	t->ival = v;
	t->overflow = ovf;
	lx->p += i;
}

void ptx_lexer_next(struct ptx_lexer *lx, struct ptx_token *t)
{
	if (lx->failed) {
		*t = lx->err_tok;
		return;
	}
	memset(t, 0, sizeof(*t));
	bool space = lx->p == lx->line_start;
	if (!skip_space(lx, t, &space))
		return;
	t->space_before = space;
	t->line = lx->line;
	t->col = col_of(lx, lx->p);
	t->text = lx->p;
	if (lx->p >= lx->end) {
		t->kind = PTX_TOK_EOF;
		t->len = 0;
		return;
	}
	int c = (unsigned char)*lx->p;
	if (is_ident_start(c) || (c == '%' && is_ident_char(peekc(lx, 1)))) {
		size_t i = 1;
		while (is_ident_char(peekc(lx, i)))
			i++;
		t->kind = PTX_TOK_IDENT;
		lx->p += i;
	} else if (c == '.' && is_ident_char(peekc(lx, 1))) {
		size_t i = 1;
		for (;;) {
			while (is_ident_char(peekc(lx, i)))
				i++;
			if (peekc(lx, i) == ':' && peekc(lx, i + 1) == ':' && is_ident_char(peekc(lx, i + 2)))
				i += 2;
			else
				break;
		}
		t->kind = PTX_TOK_DIRECTIVE;
		lx->p += i;
	} else if (c >= '0' && c <= '9') {
		lex_number(lx, t);
		if (t->kind == PTX_TOK_ERROR)
			return;
	} else if (c == '"') {
		size_t i = 1;
		for (;;) {
			int d = peekc(lx, i);
			if (d < 0 || d == '\n') {
				lex_error(lx, t, t->line, t->col, "unterminated string");
				return;
			}
			if (d == '\\' && peekc(lx, i + 1) >= 0 && peekc(lx, i + 1) != '\n') {
				i += 2;
				continue;
			}
			i++;
			if (d == '"')
				break;
		}
		t->kind = PTX_TOK_STRING;
		lx->p += i;
	} else if (strchr("{}[]()<>,;:@!|+-=", c) && c != 0) {
		t->kind = c;
		lx->p++;
	} else {
		char rb[8];
		byte_repr(c, rb, sizeof(rb));
		lex_error(lx, t, t->line, t->col, "unexpected character '%s'", rb);
		return;
	}
	size_t n = (size_t)(lx->p - t->text);
	t->len = n > UINT32_MAX ? UINT32_MAX : (uint32_t)n;
}
