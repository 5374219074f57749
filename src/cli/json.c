/*
 * json.c -- the JSON reader of the `warpsim` tool (see json.h): a recursive
 * descent parser over a byte buffer with line/column error reporting.
 *
 * Models no hardware.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"

struct jparser {
	const char *s;
	size_t len, pos;
	char *err;
	size_t errsz;
	int failed;
};

static void jfail(struct jparser *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void jfail(struct jparser *p, const char *fmt, ...)
{
	if (p->failed)
		return;
	p->failed = 1;
	int line = 1, col = 1;
	for (size_t i = 0; i < p->pos && i < p->len; i++) {
		if (p->s[i] == '\n') {
			line++;
			col = 1;
		} else {
			col++;
		}
	}
	char msg[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (p->errsz)
		snprintf(p->err, p->errsz, "line %d, column %d: %s", line, col, msg);
}

static void skip_ws(struct jparser *p)
{
	while (p->pos < p->len) {
		char c = p->s[p->pos];
		if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
			break;
		p->pos++;
	}
}

static int peek(struct jparser *p) { return p->pos < p->len ? (unsigned char)p->s[p->pos] : -1; }

static void free_contents(struct json *j)
{
	if (!j)
		return;
	free(j->str);
	for (int i = 0; i < j->n; i++) {
		if (j->keys)
			free(j->keys[i]);
		if (j->items)
			free_contents(&j->items[i]);
	}
	free(j->keys);
	free(j->items);
	memset(j, 0, sizeof *j);
}

void json_free(struct json *j)
{
	if (!j)
		return;
	free_contents(j);
	free(j);
}

/* Append a UTF-8 encoding of code point cp. */
static size_t put_utf8(char *d, uint32_t cp)
{
	if (cp < 0x80) {
		d[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		d[0] = (char)(0xC0 | (cp >> 6));
		d[1] = (char)(0x80 | (cp & 0x3F));
		return 2;
	}
	if (cp < 0x10000) {
		d[0] = (char)(0xE0 | (cp >> 12));
		d[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
		d[2] = (char)(0x80 | (cp & 0x3F));
		return 3;
	}
	d[0] = (char)(0xF0 | (cp >> 18));
	d[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
	d[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
	d[3] = (char)(0x80 | (cp & 0x3F));
	return 4;
}

static int hex4(struct jparser *p, uint32_t *v)
{
	if (p->len - p->pos < 4) {
		jfail(p, "truncated \\u escape");
		return -1;
	}
	uint32_t x = 0;
	for (int i = 0; i < 4; i++) {
		char c = p->s[p->pos++];
		x <<= 4;
		if (c >= '0' && c <= '9')
			x |= (uint32_t)(c - '0');
		else if (c >= 'a' && c <= 'f')
			x |= (uint32_t)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			x |= (uint32_t)(c - 'A' + 10);
		else {
			p->pos--;
			jfail(p, "bad hex digit in \\u escape");
			return -1;
		}
	}
	*v = x;
	return 0;
}

/* Parse a string starting at '"'; returns malloc'd decoded text or NULL. */
static char *parse_string(struct jparser *p)
{
	p->pos++; /* opening quote */
	size_t start = p->pos;
	/* decoded text is never longer than the source */
	size_t end = start;
	while (end < p->len && p->s[end] != '"') {
		if (p->s[end] == '\\')
			end++;
		end++;
	}
	if (end >= p->len) {
		jfail(p, "unterminated string");
		return NULL;
	}
	char *out = malloc(end - start + 1);
	if (!out) {
		jfail(p, "out of memory");
		return NULL;
	}
	size_t n = 0;
	while (p->pos < p->len) {
		unsigned char c = (unsigned char)p->s[p->pos];
		if (c == '"') {
			p->pos++;
			out[n] = '\0';
			return out;
		}
		if (c < 0x20) {
			jfail(p, "control character in string");
			free(out);
			return NULL;
		}
		if (c != '\\') {
			out[n++] = (char)c;
			p->pos++;
			continue;
		}
		p->pos++;
		if (p->pos >= p->len)
			break;
		char e = p->s[p->pos++];
		switch (e) {
		case '"': out[n++] = '"'; break;
		case '\\': out[n++] = '\\'; break;
		case '/': out[n++] = '/'; break;
		case 'b': out[n++] = '\b'; break;
		case 'f': out[n++] = '\f'; break;
		case 'n': out[n++] = '\n'; break;
		case 'r': out[n++] = '\r'; break;
		case 't': out[n++] = '\t'; break;
		case 'u': {
			uint32_t cp;
			if (hex4(p, &cp)) {
				free(out);
				return NULL;
			}
			if (cp >= 0xD800 && cp < 0xDC00 && p->len - p->pos >= 6 && p->s[p->pos] == '\\' &&
			    p->s[p->pos + 1] == 'u') {
				size_t save = p->pos;
				p->pos += 2;
				uint32_t lo;
				if (hex4(p, &lo)) {
					free(out);
					return NULL;
				}
				if (lo >= 0xDC00 && lo < 0xE000)
					cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
				else
					p->pos = save;
			}
			if (cp >= 0xD800 && cp < 0xE000)
				cp = 0xFFFD; /* lone surrogate */
			/* \uXXXX is 6 source bytes, at most 4 decoded: fits */
			n += put_utf8(out + n, cp);
			break;
		}
		default:
			p->pos--;
			jfail(p, "bad escape '\\%c' in string", e);
			free(out);
			return NULL;
		}
	}
	jfail(p, "unterminated string");
	free(out);
	return NULL;
}

static int parse_number(struct jparser *p, struct json *j)
{
	size_t start = p->pos;
	if (peek(p) == '-')
		p->pos++;
	int c = peek(p);
	if (c == '0') {
		p->pos++;
	} else if (c >= '1' && c <= '9') {
		while ((c = peek(p)) >= '0' && c <= '9')
			p->pos++;
	} else {
		jfail(p, "malformed number");
		return -1;
	}
	if (peek(p) == '.') {
		p->pos++;
		if (!((c = peek(p)) >= '0' && c <= '9')) {
			jfail(p, "malformed number: digit expected after '.'");
			return -1;
		}
		while ((c = peek(p)) >= '0' && c <= '9')
			p->pos++;
	}
	if (peek(p) == 'e' || peek(p) == 'E') {
		p->pos++;
		if (peek(p) == '+' || peek(p) == '-')
			p->pos++;
		if (!((c = peek(p)) >= '0' && c <= '9')) {
			jfail(p, "malformed number: digit expected in exponent");
			return -1;
		}
		while ((c = peek(p)) >= '0' && c <= '9')
			p->pos++;
	}
	size_t n = p->pos - start;
	j->str = malloc(n + 1);
	if (!j->str) {
		jfail(p, "out of memory");
		return -1;
	}
	memcpy(j->str, p->s + start, n);
	j->str[n] = '\0';
	j->type = JSON_NUMBER;
	errno = 0;
	j->num = strtod(j->str, NULL);
	return 0;
}

static int literal(struct jparser *p, const char *word)
{
	size_t n = strlen(word);
	if (p->len - p->pos >= n && memcmp(p->s + p->pos, word, n) == 0) {
		p->pos += n;
		return 1;
	}
	return 0;
}

static int parse_value(struct jparser *p, struct json *j, int depth);

/* Grow a container's arrays to hold one more element. */
static int grow(struct jparser *p, struct json *j, int *cap, int with_keys)
{
	if (j->n < *cap)
		return 0;
	int nc = *cap ? *cap * 2 : 8;
	struct json *ni = realloc(j->items, (size_t)nc * sizeof *ni);
	if (!ni) {
		jfail(p, "out of memory");
		return -1;
	}
	j->items = ni;
	if (with_keys) {
		char **nk = realloc(j->keys, (size_t)nc * sizeof *nk);
		if (!nk) {
			jfail(p, "out of memory");
			return -1;
		}
		j->keys = nk;
	}
	*cap = nc;
	return 0;
}

static int parse_container(struct jparser *p, struct json *j, int depth, int is_obj)
{
	char close = is_obj ? '}' : ']';
	j->type = is_obj ? JSON_OBJECT : JSON_ARRAY;
	p->pos++;
	int cap = 0;
	skip_ws(p);
	if (peek(p) == close) {
		p->pos++;
		return 0;
	}
	for (;;) {
		skip_ws(p);
		if (grow(p, j, &cap, is_obj))
			return -1;
		char *key = NULL;
		if (is_obj) {
			if (peek(p) != '"') {
				jfail(p, "member name (a string) expected");
				return -1;
			}
			key = parse_string(p);
			if (!key)
				return -1;
			skip_ws(p);
			if (peek(p) != ':') {
				free(key);
				jfail(p, "':' expected after member name");
				return -1;
			}
			p->pos++;
			skip_ws(p);
		}
		struct json *item = &j->items[j->n];
		memset(item, 0, sizeof *item);
		if (is_obj)
			j->keys[j->n] = key;
		j->n++;
		if (parse_value(p, item, depth + 1))
			return -1;
		skip_ws(p);
		int c = peek(p);
		if (c == ',') {
			p->pos++;
			continue;
		}
		if (c == close) {
			p->pos++;
			return 0;
		}
		jfail(p, "',' or '%c' expected", close);
		return -1;
	}
}

static int parse_value(struct jparser *p, struct json *j, int depth)
{
	if (depth > JSON_MAX_DEPTH) {
		jfail(p, "nesting deeper than %d", JSON_MAX_DEPTH);
		return -1;
	}
	skip_ws(p);
	int c = peek(p);
	switch (c) {
	case -1: jfail(p, "unexpected end of input"); return -1;
	case '{': return parse_container(p, j, depth, 1);
	case '[': return parse_container(p, j, depth, 0);
	case '"':
		j->type = JSON_STRING;
		j->str = parse_string(p);
		return j->str ? 0 : -1;
	case 't':
	case 'f':
	case 'n':
		if (literal(p, "true")) {
			j->type = JSON_BOOL;
			j->num = 1;
			return 0;
		}
		if (literal(p, "false")) {
			j->type = JSON_BOOL;
			return 0;
		}
		if (literal(p, "null")) {
			j->type = JSON_NULL;
			return 0;
		}
		jfail(p, "unexpected character '%c'", c);
		return -1;
	default:
		if (c == '-' || (c >= '0' && c <= '9'))
			return parse_number(p, j);
		if (c >= 0x20 && c < 0x7f)
			jfail(p, "unexpected character '%c'", c);
		else
			jfail(p, "unexpected byte 0x%02x", c);
		return -1;
	}
}

struct json *json_parse(const char *text, size_t len, char *err, size_t errsz)
{
	struct jparser p = {text, len, 0, err, errsz, 0};
	if (errsz)
		err[0] = '\0';
	struct json *j = calloc(1, sizeof *j);
	if (!j) {
		if (errsz)
			snprintf(err, errsz, "out of memory");
		return NULL;
	}
	if (!text || parse_value(&p, j, 0)) {
		if (!text)
			jfail(&p, "no input");
		json_free(j);
		return NULL;
	}
	skip_ws(&p);
	if (p.pos != p.len) {
		jfail(&p, "unexpected text after the JSON value");
		json_free(j);
		return NULL;
	}
	return j;
}

struct json *json_parse_file(const char *path, char *err, size_t errsz)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		snprintf(err, errsz, "%s: cannot open: %s", path, strerror(errno));
		return NULL;
	}
	size_t cap = 1 << 16, n = 0;
	char *buf = malloc(cap);
	while (buf) {
		if (n == cap) {
			char *nb = cap < ((size_t)1 << 30) ? realloc(buf, cap * 2) : NULL;
			if (!nb) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = nb;
			cap *= 2;
		}
		size_t got = fread(buf + n, 1, cap - n, f);
		n += got;
		if (got == 0)
			break;
	}
	int rerr = ferror(f);
	fclose(f);
	if (!buf || rerr) {
		free(buf);
		snprintf(err, errsz, "%s: %s", path, buf ? "read error" : "out of memory (or file larger than 1 GiB)");
		return NULL;
	}
	char why[300];
	struct json *j = json_parse(buf, n, why, sizeof why);
	free(buf);
	if (!j)
		snprintf(err, errsz, "%s: malformed JSON: %s", path, why);
	return j;
}

const struct json *json_get(const struct json *obj, const char *key)
{
	if (!obj || obj->type != JSON_OBJECT)
		return NULL;
	for (int i = obj->n - 1; i >= 0; i--)
		if (strcmp(obj->keys[i], key) == 0)
			return &obj->items[i];
	return NULL;
}

const char *json_get_str(const struct json *obj, const char *key)
{
	const struct json *v = json_get(obj, key);
	return v && v->type == JSON_STRING ? v->str : NULL;
}
