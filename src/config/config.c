/*
 * config.c -- parameter table, config-file reader and --set overrides.
 *
 * Models no hardware.  Everything is generated from the domains' .def
 * files (config.h): the table of names/types/ranges/help, default values,
 * text parsing with range checks, listing and printing.  The one file that
 * includes every domain's parameters.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config/config.h"
#include "config/params.h"
#include "core/core_params.h"
#include "mem/mem_params.h"
#include "sched/sched_params.h"
#include "util/hash.h"
#include "stats/energy_params.h"
#include "util/handles.h"

/* Every domain's parameters at their ids (the order of the lines does not matter). */
const struct cfg_param_info cfg_params[CFG_ID_LIMIT] = {
#define P(name, type, def, min, max, help) [CFG_##name] = {#name, CFGT_##type, def, (double)(min), (double)(max), help},
#define E(name, values)
#include "config/params.def"
#include "core/core_params.def"
#include "mem/mem_params.def"
#include "sched/sched_params.def"
#include "stats/energy_params.def"
#undef P
#undef E
};

/* Enum value lists, separately so E() lines can follow their P() lines. */
static const char *enum_values(int p)
{
	switch (p) {
#define P(name, type, def, min, max, help)
#define E(name, values)                                                                                             \
	case CFG_##name:                                                                                             \
		return values;
#include "config/params.def"
#include "core/core_params.def"
#include "mem/mem_params.def"
#include "sched/sched_params.def"
#include "stats/energy_params.def"
#undef P
#undef E
	default:
		return NULL;
	}
}

static const char *type_name(enum cfg_type t)
{
	switch (t) {
	case CFGT_INT: return "int";
	case CFGT_BOOL: return "bool";
	case CFGT_FLOAT: return "float";
	case CFGT_ENUM: return "enum";
	case CFGT_STRING: return "string";
	case CFGT_INTLIST: return "list";
	}
	return "?";
}

/* Index of `val` in "a|b|c", or -1. */
static int enum_index(const char *list, const char *val)
{
	size_t n = strlen(val);
	int idx = 0;
	for (const char *p = list; p && *p;) {
		const char *bar = strchr(p, '|');
		size_t len = bar ? (size_t)(bar - p) : strlen(p);
		if (len == n && strncmp(p, val, n) == 0)
			return idx;
		idx++;
		p = bar ? bar + 1 : NULL;
	}
	return -1;
}

const char *cfg_enum_name(const struct ws_config *c, int p, char *buf, size_t bufsz)
{
	const char *list = enum_values(p);
	int64_t want = c->v[p].i, idx = 0;
	for (const char *s = list; s && *s;) {
		const char *bar = strchr(s, '|');
		size_t len = bar ? (size_t)(bar - s) : strlen(s);
		if (idx == want) {
			if (len >= bufsz)
				len = bufsz - 1;
			memcpy(buf, s, len);
			buf[len] = 0;
			return buf;
		}
		idx++;
		s = bar ? bar + 1 : NULL;
	}
	snprintf(buf, bufsz, "?");
	return buf;
}

/* An integer as the command line writes it (docs/cli.md): an optional sign,
 * then decimal digits or 0x and hex digits, and nothing else -- no
 * whitespace, and a leading 0 is not octal ("010" is ten).  *end points
 * after the digits; false if there are none or the value overflows. */
static bool parse_int(const char *s, long long *v, const char **end)
{
	const char *d = s;
	bool neg = false;
	if (*d == '-' || *d == '+')
		neg = *d++ == '-';
	int base = 10;
	if (d[0] == '0' && (d[1] == 'x' || d[1] == 'X')) {
		base = 16;
		d += 2;
	}
	if (!(base == 16 ? isxdigit((unsigned char)*d) : isdigit((unsigned char)*d)))
		return false;
	errno = 0;
	char *e;
	unsigned long long m = strtoull(d, &e, base);
	if (errno == ERANGE || m > (unsigned long long)LLONG_MAX + (neg ? 1 : 0))
		return false;
	*v = neg ? (m == (unsigned long long)LLONG_MAX + 1 ? LLONG_MIN : -(long long)m) : (long long)m;
	*end = e;
	return true;
}

/* Edit distance of two short names, capped at 9 (for "did you mean"). */
static unsigned name_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	if (la > 40 || lb > 40)
		return 9;
	unsigned row[41];
	for (size_t j = 0; j <= lb; j++)
		row[j] = (unsigned)j;
	for (size_t i = 1; i <= la; i++) {
		unsigned diag = row[0];
		row[0] = (unsigned)i;
		for (size_t j = 1; j <= lb; j++) {
			unsigned up = row[j];
			unsigned best = diag + (a[i - 1] != b[j - 1]);
			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	return row[lb] > 9 ? 9 : row[lb];
}

static int find_param(const char *key)
{
	for (int i = 0; i < CFG_ID_LIMIT; i++)
		if (cfg_params[i].name && strcmp(cfg_params[i].name, key) == 0)
			return i;
	return -1;
}

/* Number of comma-separated values in an INTLIST's text. */
static int list_count(const char *text)
{
	int n = 1;
	for (const char *s = text; *s; s++)
		n += *s == ',';
	return n;
}

/* Parse `text` into parameter p; on error write a message into err. */
static ws_result parse_value(struct ws_config *c, int p, const char *text, char *err, size_t errsz)
{
	const struct cfg_param_info *pi = &cfg_params[p];
	char *end;
	errno = 0;
	switch (pi->type) {
	case CFGT_INT: {
		long long v;
		const char *e;
		if (!parse_int(text, &v, &e) || *e) {
			snprintf(err, errsz, "parameter '%s': '%s' is not an integer (decimal, or hex with 0x)", pi->name,
				 text);
			return WS_ERROR_INVALID_CONFIG;
		}
		if ((double)v < pi->min || (double)v > pi->max) {
			snprintf(err, errsz, "parameter '%s': %lld is out of range [%.0f, %.0f]", pi->name, v, pi->min,
				 pi->max);
			return WS_ERROR_INVALID_CONFIG;
		}
		c->v[p].i = v;
		return WS_SUCCESS;
	}
	case CFGT_BOOL:
		if (!strcmp(text, "1") || !strcmp(text, "true") || !strcmp(text, "yes") || !strcmp(text, "on"))
			c->v[p].i = 1;
		else if (!strcmp(text, "0") || !strcmp(text, "false") || !strcmp(text, "no") || !strcmp(text, "off"))
			c->v[p].i = 0;
		else {
			snprintf(err, errsz, "parameter '%s': '%s' is not a boolean (expected 1, true, yes, on, 0, false, no or off)",
				 pi->name, text);
			return WS_ERROR_INVALID_CONFIG;
		}
		return WS_SUCCESS;
	case CFGT_FLOAT: {
		double v = strtod(text, &end);
		if (end == text || *end || errno || isnan(v) || isspace((unsigned char)text[0])) {
			snprintf(err, errsz, "parameter '%s': '%s' is not a number", pi->name, text);
			return WS_ERROR_INVALID_CONFIG;
		}
		if (v < pi->min || v > pi->max) {
			snprintf(err, errsz, "parameter '%s': %g is out of range [%g, %g]", pi->name, v, pi->min,
				 pi->max);
			return WS_ERROR_INVALID_CONFIG;
		}
		c->v[p].f = v;
		return WS_SUCCESS;
	}
	case CFGT_STRING: {
		size_t n = strlen(text);
		if (n == 0 || n >= CFG_STRING_MAX) {
			snprintf(err, errsz, "parameter '%s': '%s' must be 1 to %d characters", pi->name, text,
				 CFG_STRING_MAX - 1);
			return WS_ERROR_INVALID_CONFIG;
		}
		for (size_t k = 0; k < n; k++)
			if (!isalnum((unsigned char)text[k]) && text[k] != '-' && text[k] != '_' && text[k] != '.' &&
			    text[k] != ':') { /* ':' for WRAPPER:INNER scheduling policies */
				snprintf(err, errsz,
					 "parameter '%s': '%s' may only contain letters, digits, '-', '_', '.', ':'",
					 pi->name, text);
				return WS_ERROR_INVALID_CONFIG;
			}
		memcpy(c->v[p].s, text, n + 1);
		return WS_SUCCESS;
	}
	case CFGT_INTLIST: {
		/* exactly as many values as the default has (one per operation
		 * the help names): a short list is not padded, a long one not cut */
		int want = list_count(pi->def), given = list_count(text);
		if (want > CFG_LIST_MAX) { /* a bug in a .def file; wsConfigCreate's test catches it */
			snprintf(err, errsz, "parameter '%s': default has more than %d values", pi->name, CFG_LIST_MAX);
			return WS_ERROR_INTERNAL;
		}
		if (given != want) {
			snprintf(err, errsz, "parameter '%s': '%s' has %d value%s, expected %d (%s)", pi->name, text,
				 given, given == 1 ? "" : "s", want, pi->help);
			return WS_ERROR_INVALID_CONFIG;
		}
		int32_t vals[CFG_LIST_MAX] = {0};
		int n = 0;
		const char *s = text;
		for (;;) {
			long long v;
			const char *e;
			bool ok = parse_int(s, &v, &e);
			end = (char *)(uintptr_t)e;
			if (!ok || (*end && *end != ',')) {
				snprintf(err, errsz, "parameter '%s': '%s' is not a comma-separated list of integers",
					 pi->name, text);
				return WS_ERROR_INVALID_CONFIG;
			}
			if ((double)v < pi->min || (double)v > pi->max) {
				snprintf(err, errsz, "parameter '%s': %lld is out of range [%.0f, %.0f]", pi->name, v,
					 pi->min, pi->max);
				return WS_ERROR_INVALID_CONFIG;
			}
			vals[n++] = (int32_t)v;
			if (!*end)
				break;
			s = end + 1;
		}
		c->v[p].l.n = n;
		memcpy(c->v[p].l.v, vals, sizeof vals);
		return WS_SUCCESS;
	}
	case CFGT_ENUM: {
		int idx = enum_index(enum_values(p), text);
		if (idx < 0) {
			snprintf(err, errsz, "parameter '%s': '%s' is not one of %s", pi->name, text,
				 enum_values(p));
			return WS_ERROR_INVALID_CONFIG;
		}
		c->v[p].i = idx;
		return WS_SUCCESS;
	}
	}
	return WS_ERROR_INTERNAL;
}

/* parse_value, and the value no longer comes from a config file line
 * (cfg_load_stream records its line after this) */
static ws_result set_value(struct ws_config *c, int p, const char *text, char *err, size_t errsz)
{
	ws_result r = parse_value(c, p, text, err, errsz);
	if (r == WS_SUCCESS)
		c->line[p] = 0;
	return r;
}

ws_config *wsConfigCreate(void)
{
	struct ws_config *c = calloc(1, sizeof *c);
	if (!c)
		return NULL;
	char err[256];
	for (int i = 0; i < CFG_ID_LIMIT; i++)
		if (cfg_params[i].name && parse_value(c, i, cfg_params[i].def, err, sizeof err) != WS_SUCCESS) {
			free(c); /* a bad default is a bug in params.def; tests catch it */
			return NULL;
		}
	if (!handle_add(c, HANDLE_CONFIG, NULL)) {
		free(c);
		return NULL;
	}
	return c;
}

bool cfg_handle_ok(const struct ws_config *c)
{
	return handle_lookup(c, HANDLE_CONFIG, NULL, NULL) == HANDLE_LIVE;
}

void wsConfigDestroy(ws_config *c)
{
	void *owner;
	/* a simulator's own configuration (wsSimConfig) goes with the simulator */
	if (handle_lookup(c, HANDLE_CONFIG, &owner, NULL) != HANDLE_LIVE || owner)
		return;
	if (handle_kill(c, HANDLE_CONFIG, NULL) == HANDLE_LIVE) /* of two destroys at once, one frees */
		free(c);
}

ws_config *wsConfigClone(const ws_config *c)
{
	if (!cfg_handle_ok(c))
		return NULL;
	struct ws_config *n = malloc(sizeof *n);
	if (!n)
		return NULL;
	*n = *c;
	if (!handle_add(n, HANDLE_CONFIG, NULL)) {
		free(n);
		return NULL;
	}
	return n;
}

int cfg_find(const char *key) { return find_param(key); }

ws_result cfg_set(struct ws_config *c, const char *key, const char *value, char *err, size_t errsz)
{
	int p = find_param(key);
	if (p < 0) {
		/* the closest parameter name, if one is close */
		int best = -1;
		unsigned bd = 3;
		for (int i = 0; i < CFG_ID_LIMIT; i++) {
			if (!cfg_params[i].name)
				continue;
			unsigned d = name_distance(key, cfg_params[i].name);
			if (d < bd) {
				bd = d;
				best = i;
			}
		}
		if (best >= 0)
			snprintf(err, errsz, "unknown parameter '%s'; did you mean '%s'? (see `warpsim config --list`)", key,
				 cfg_params[best].name);
		else
			snprintf(err, errsz, "unknown parameter '%s' (see `warpsim config --list`)", key);
		return WS_ERROR_INVALID_CONFIG;
	}
	return set_value(c, p, value, err, errsz);
}

static char *trim(char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	char *e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = 0;
	return s;
}

/* How long a config file that is a FIFO may keep its reader waiting. */
#define CFG_FIFO_WAIT_MS 5000

FILE *cfg_open_file(const char *path, ws_result *r, char *err, size_t errsz)
{
	/* O_NONBLOCK: opening a FIFO that no process writes must not block */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	*r = WS_ERROR_FILE_NOT_FOUND;
	if (fd < 0) {
		snprintf(err, errsz, "%s: cannot open config file: %s", path, strerror(errno));
		return NULL;
	}
	struct stat st;
	if (fstat(fd, &st) != 0 || (!S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode))) {
		snprintf(err, errsz, "%s: not a config file (%s)", path,
			 S_ISDIR(st.st_mode) ? "a directory" : "not a regular file");
		close(fd);
		return NULL;
	}
	if (S_ISFIFO(st.st_mode)) {
		/* a pipe (e.g. --config <(...)): wait a while for its writer */
		struct pollfd p = {fd, POLLIN, 0};
		if (poll(&p, 1, CFG_FIFO_WAIT_MS) <= 0) {
			snprintf(err, errsz, "%s: a FIFO that nothing wrote to within %d s", path, CFG_FIFO_WAIT_MS / 1000);
			close(fd);
			return NULL;
		}
	}
	int fl = fcntl(fd, F_GETFL);
	if (fl != -1)
		(void)fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
	FILE *f = fdopen(fd, "r");
	if (!f) {
		snprintf(err, errsz, "%s: cannot open config file: %s", path, strerror(errno));
		close(fd);
		*r = WS_ERROR_OUT_OF_MEMORY;
		return NULL;
	}
	*r = WS_SUCCESS;
	return f;
}

ws_result cfg_load_stream(struct ws_config *c, FILE *f, const char *path, cfg_setter set, char *err, size_t errsz)
{
	char line[1024], msg[512];
	unsigned lineno = 0;
	ws_result r = WS_SUCCESS;
	uint32_t seen[CFG_ID_LIMIT] = {0}; /* the line of this file that set each key */
	for (;;) {
		/* read one line by hand: fgets cannot tell a NUL byte from the end of the line */
		size_t n = 0;
		int ch = EOF;
		bool nul = false;
		while (n + 1 < sizeof line && (ch = getc(f)) != EOF) {
			nul |= ch == 0;
			line[n++] = (char)ch;
			if (ch == '\n')
				break;
		}
		line[n] = 0;
		if (n == 0 && ch == EOF)
			break;
		lineno++;
		if (nul) {
			snprintf(err, errsz, "%s:%u: contains a NUL byte: not a text file", path, lineno);
			r = WS_ERROR_INVALID_CONFIG;
			break;
		}
		if (n + 1 == sizeof line && line[n - 1] != '\n') {
			snprintf(err, errsz, "%s:%u: line longer than %zu bytes", path, lineno, sizeof line - 2);
			r = WS_ERROR_INVALID_CONFIG;
			break;
		}
		char *hash = strchr(line, '#');
		if (hash)
			*hash = 0;
		char *s = trim(line);
		if (!*s)
			continue;
		char *eq = strchr(s, '=');
		if (!eq) {
			snprintf(err, errsz, "%s:%u: expected 'key = value', got '%s'", path, lineno, s);
			r = WS_ERROR_INVALID_CONFIG;
			break;
		}
		*eq = 0;
		char *key = trim(s), *val = trim(eq + 1);
		int p = find_param(key);
		if (p >= 0 && seen[p]) {
			/* not "the later line wins": one of the two is a mistake */
			snprintf(err, errsz, "%s:%u: '%s' is set again (first set at %s:%u); give each key once", path,
				 lineno, key, path, (unsigned)seen[p]);
			r = WS_ERROR_INVALID_CONFIG;
			break;
		}
		r = set(c, key, val, msg, sizeof msg);
		if (r != WS_SUCCESS) {
			snprintf(err, errsz, "%s:%u: %s", path, lineno, msg);
			break;
		}
		seen[p] = c->line[p] = lineno;
		snprintf(c->file, sizeof c->file, "%s", path);
	}
	return r;
}

void cfg_error_locate(const struct ws_config *c, char *err, size_t errsz)
{
	if (!c || !err || !errsz || !c->file[0])
		return;
	char first[400] = "", more[400] = "";
	size_t mlen = 0;
	int done[8], ndone = 0;
	/* every word of the message that is a parameter set by the file */
	for (const char *s = err; *s;) {
		if (!(isalnum((unsigned char)*s) || *s == '_')) {
			s++;
			continue;
		}
		const char *w = s;
		while (isalnum((unsigned char)*s) || *s == '_')
			s++;
		char key[64];
		if ((size_t)(s - w) >= sizeof key)
			continue;
		memcpy(key, w, (size_t)(s - w));
		key[s - w] = 0;
		int p = find_param(key);
		bool dup = false;
		for (int k = 0; k < ndone; k++)
			dup |= done[k] == p;
		if (p < 0 || dup || ndone == 8)
			continue;
		done[ndone++] = p;
		if (!c->line[p])
			continue;
		if (ndone == 1) /* the message is about this one: its line goes first */
			snprintf(first, sizeof first, "%s:%u: ", c->file, (unsigned)c->line[p]);
		else if (mlen < sizeof more)
			mlen += (size_t)snprintf(more + mlen, sizeof more - mlen, "%s%s at %s:%u", mlen ? ", " : "",
						 key, c->file, (unsigned)c->line[p]);
	}
	if (!first[0] && !more[0])
		return;
	char msg[1024];
	snprintf(msg, sizeof msg, "%s%s%s%s%s", first, err, more[0] ? " (" : "", more, more[0] ? ")" : "");
	snprintf(err, errsz, "%s", msg);
}

static void format_value(const struct ws_config *c, int p, char *buf, size_t bufsz)
{
	switch (cfg_params[p].type) {
	case CFGT_INT: snprintf(buf, bufsz, "%lld", (long long)c->v[p].i); break;
	case CFGT_BOOL: snprintf(buf, bufsz, "%s", c->v[p].i ? "true" : "false"); break;
	case CFGT_FLOAT: snprintf(buf, bufsz, "%.17g", c->v[p].f); break;
	case CFGT_ENUM: cfg_enum_name(c, p, buf, bufsz); break;
	case CFGT_STRING: snprintf(buf, bufsz, "%s", c->v[p].s); break;
	case CFGT_INTLIST: {
		size_t len = 0;
		buf[0] = 0;
		for (int k = 0; k < c->v[p].l.n && len < bufsz; k++)
			len += (size_t)snprintf(buf + len, bufsz - len, "%s%d", k ? "," : "", (int)c->v[p].l.v[k]);
		break;
	}
	}
}

const char *wsConfigGet(const ws_config *c, const char *key, char *buf, size_t bufsz)
{
	if (!cfg_handle_ok(c) || !key || !buf || bufsz == 0)
		return NULL;
	int p = find_param(key);
	if (p < 0)
		return NULL;
	format_value(c, p, buf, bufsz);
	return buf;
}

void wsConfigPrintList(FILE *out)
{
	if (!out)
		return;
	fprintf(out, "%-22s %-6s %-12s %-28s %s\n", "parameter", "type", "default", "range", "description");
	for (int i = 0; i < CFG_ID_LIMIT; i++) {
		const struct cfg_param_info *pi = &cfg_params[i];
		if (!pi->name)
			continue;
		char range[64];
		if (pi->type == CFGT_ENUM)
			snprintf(range, sizeof range, "%s", enum_values(i));
		else if (pi->type == CFGT_BOOL)
			snprintf(range, sizeof range, "true|false");
		else if (pi->type == CFGT_STRING)
			snprintf(range, sizeof range, "name");
		else
			snprintf(range, sizeof range, "[%.15g, %.15g]", pi->min, pi->max);
		fprintf(out, "%-22s %-6s %-12s %-28s %s\n", pi->name, type_name(pi->type), pi->def, range, pi->help);
	}
}

void wsConfigPrint(const ws_config *c, FILE *out)
{
	if (!cfg_handle_ok(c) || !out)
		return;
	char buf[64];
	for (int i = 0; i < CFG_ID_LIMIT; i++) {
		if (!cfg_params[i].name)
			continue;
		format_value(c, i, buf, sizeof buf);
		fprintf(out, "%s = %s\n", cfg_params[i].name, buf);
	}
}

uint64_t cfg_hash(const struct ws_config *c)
{
	uint64_t h = HASH_FNV1A64_INIT;
	char buf[96], val[64];
	for (int i = 0; i < CFG_ID_LIMIT; i++) {
		/* how many host threads simulate, and whether busy SMs skip
		 * eventless cycles: not part of the model (same results) */
		if (!cfg_params[i].name || i == CFG_threads || i == CFG_sleep)
			continue;
		format_value(c, i, val, sizeof val);
		int n = snprintf(buf, sizeof buf, "%s=%s\n", cfg_params[i].name, val);
		h = hash_fnv1a64_add(h, buf, n < 0 ? 0 : n < (int)sizeof buf ? (size_t)n : sizeof buf);
	}
	return h;
}

void cfg_write_json(const struct ws_config *c, FILE *out)
{
	char buf[64];
	const char *sep = "";
	fputc('{', out);
	for (int i = 0; i < CFG_ID_LIMIT; i++) {
		if (!cfg_params[i].name)
			continue;
		format_value(c, i, buf, sizeof buf);
		if (cfg_params[i].type == CFGT_ENUM || cfg_params[i].type == CFGT_STRING)
			fprintf(out, "%s\"%s\": \"%s\"", sep, cfg_params[i].name, buf);
		else if (cfg_params[i].type == CFGT_INTLIST)
			fprintf(out, "%s\"%s\": [%s]", sep, cfg_params[i].name, buf);
		else
			fprintf(out, "%s\"%s\": %s", sep, cfg_params[i].name, buf);
		sep = ", ";
	}
	fputc('}', out);
}
