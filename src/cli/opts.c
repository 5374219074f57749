/*
 * opts.c -- table-driven command-line parsing for the `warpsim` tool:
 * option tables to struct cli_args, --help text from the same tables,
 * error reporting, and strict number parsing (whole string, range-checked).
 *
 * Models no hardware.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* ---- errors ---- */

static void vreport(const struct cli_cmd *cmd, const char *fmt, va_list ap)
{
	fflush(stdout);
	if (cmd)
		fprintf(stderr, "warpsim %s: error: ", cmd->name);
	else
		fprintf(stderr, "warpsim: error: ");
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

int cli_usage_error(const struct cli_cmd *cmd, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vreport(cmd, fmt, ap);
	va_end(ap);
	if (cmd)
		fprintf(stderr, "(see 'warpsim %s --help')\n", cmd->name);
	else
		fprintf(stderr, "(see 'warpsim help')\n");
	return CLI_EXIT_USAGE;
}

int cli_fail(const struct cli_cmd *cmd, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vreport(cmd, fmt, ap);
	va_end(ap);
	return CLI_EXIT_FAIL;
}

/* ---- argv parsing ---- */

static int find_opt(const struct cli_cmd *cmd, const char *name, size_t len)
{
	for (int i = 0; cmd->opts && cmd->opts[i].name; i++)
		if (strlen(cmd->opts[i].name) == len && strncmp(cmd->opts[i].name, name, len) == 0)
			return i;
	return -1;
}

void cli_args_free(struct cli_args *a)
{
	free(a->items);
	free((void *)a->pos);
	a->items = NULL;
	a->pos = NULL;
	a->nitems = a->npos = 0;
}

int cli_args_parse(const struct cli_cmd *cmd, int argc, char **argv, struct cli_args *out)
{
	memset(out, 0, sizeof *out);
	out->cmd = cmd;
	size_t n = argc > 0 ? (size_t)argc : 1;
	out->items = calloc(n, sizeof *out->items);
	out->pos = calloc(n, sizeof *out->pos);
	if (!out->items || !out->pos) {
		cli_args_free(out);
		return cli_fail(cmd, "out of memory");
	}
	int only_pos = 0;
	for (int i = 0; i < argc; i++) {
		const char *w = argv[i];
		if (only_pos || w[0] != '-' || w[1] == '\0') {
			out->pos[out->npos++] = w;
			continue;
		}
		if (strcmp(w, "--") == 0) {
			only_pos = 1;
			continue;
		}
		if (strcmp(w, "-h") == 0 || strcmp(w, "--help") == 0) {
			cli_print_cmd_help(cmd, stdout);
			cli_args_free(out);
			return -1;
		}
		if (w[1] != '-') {
			cli_args_free(out);
			return cli_usage_error(cmd, "unknown option '%s'", w);
		}
		const char *name = w + 2;
		const char *eq = strchr(name, '=');
		size_t len = eq ? (size_t)(eq - name) : strlen(name);
		int o = find_opt(cmd, name, len);
		if (o < 0) {
			cli_args_free(out);
			return cli_usage_error(cmd, "unknown option '--%.*s'", (int)len, name);
		}
		const struct cli_opt *opt = &cmd->opts[o];
		const char *value;
		if (!opt->metavar) {
			if (eq) {
				cli_args_free(out);
				return cli_usage_error(cmd, "option '--%s' takes no value (got '%s')", opt->name, w);
			}
			value = "";
		} else if (eq) {
			value = eq + 1;
		} else if (i + 1 < argc) {
			value = argv[++i];
		} else {
			cli_args_free(out);
			return cli_usage_error(cmd, "option '--%s' needs a value (%s)", opt->name, opt->metavar);
		}
		if (opt->metavar && !value[0]) { /* no option has an empty value that means something */
			cli_args_free(out);
			return cli_usage_error(cmd, "option '--%s' has an empty value (expected %s)", opt->name, opt->metavar);
		}
		if (!(opt->flags & CLI_OPT_REPEAT)) {
			for (int k = 0; k < out->nitems; k++)
				if (out->items[k].opt == o) {
					cli_args_free(out);
					return cli_usage_error(cmd, "option '--%s' given more than once", opt->name);
				}
		}
		out->items[out->nitems].opt = o;
		out->items[out->nitems].value = value;
		out->nitems++;
	}
	if (out->npos < cmd->min_pos) {
		int np = out->npos;
		cli_args_free(out);
		if (np == 0)
			return cli_usage_error(cmd, "missing argument %s", cmd->args);
		return cli_usage_error(cmd, "too few arguments (expected %s)", cmd->args);
	}
	if (cmd->max_pos >= 0 && out->npos > cmd->max_pos) {
		const char *extra = out->pos[cmd->max_pos];
		cli_args_free(out);
		if (cmd->max_pos == 0)
			return cli_usage_error(cmd, "unexpected argument '%s' (this command takes no arguments)",
			                       extra);
		return cli_usage_error(cmd, "unexpected argument '%s' (expected %s)", extra, cmd->args);
	}
	/* two outputs into one file: one would overwrite the other */
	for (int i = 0; i < out->nitems; i++)
		for (int k = 0; k < i; k++) {
			const struct cli_opt *oi = &cmd->opts[out->items[i].opt], *ok = &cmd->opts[out->items[k].opt];
			const char *vi = out->items[i].value, *vk = out->items[k].value;
			if ((oi->flags & CLI_OPT_OUTFILE) && (ok->flags & CLI_OPT_OUTFILE) && strcmp(vi, "-") &&
			    cli_same_file(vi, vk)) {
				int rc = cli_usage_error(cmd, "--%s %s and --%s %s name the same file: give each output its own",
				                         ok->name, vk, oi->name, vi);
				cli_args_free(out);
				return rc;
			}
		}
	return CLI_EXIT_OK;
}

int cli_item_is(const struct cli_args *a, int i, const char *name)
{
	return strcmp(a->cmd->opts[a->items[i].opt].name, name) == 0;
}

const char *cli_opt_get(const struct cli_args *a, const char *name)
{
	const char *v = NULL;
	for (int i = 0; i < a->nitems; i++)
		if (cli_item_is(a, i, name))
			v = a->items[i].value;
	return v;
}

void cli_print_cmd_help(const struct cli_cmd *cmd, FILE *out)
{
	fprintf(out, "usage: warpsim %s%s%s%s\n\n%s\n", cmd->name, cmd->args[0] ? " " : "", cmd->args,
	        cmd->opts && cmd->opts[0].name ? " [options]" : "", cmd->summary);
	if (cmd->opts && cmd->opts[0].name) {
		size_t w = 0;
		for (int i = 0; cmd->opts[i].name; i++) {
			size_t l =
			    strlen(cmd->opts[i].name) + (cmd->opts[i].metavar ? strlen(cmd->opts[i].metavar) + 1 : 0);
			if (l > w)
				w = l;
		}
		fprintf(out, "\noptions:\n");
		for (int i = 0; cmd->opts[i].name; i++) {
			const struct cli_opt *o = &cmd->opts[i];
			char left[128];
			snprintf(left, sizeof left, "%s%s%s", o->name, o->metavar ? " " : "",
			         o->metavar ? o->metavar : "");
			fprintf(out, "  --%-*s  %s%s\n", (int)w, left, o->help,
			        (o->flags & CLI_OPT_REPEAT) ? " (repeatable)" : "");
		}
		fprintf(out, "  --%-*s  %s\n", (int)w, "help", "print this help");
	}
	if (cmd->details)
		fprintf(out, "\n%s", cmd->details);
}

/* ---- numbers ---- */

static int set_err(char *err, size_t errsz, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int set_err(char *err, size_t errsz, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, errsz, fmt, ap);
	va_end(ap);
	return -1;
}

/* Digits of an integer: decimal, or hex after 0x/0X.  Rejects empty strings,
 * whitespace and signs (the caller strips one '-' for signed types). */
static int parse_magnitude(const char *s, const char *shown, uint64_t *v, char *err, size_t errsz)
{
	int base = 10;
	const char *d = s;
	s = shown;
	if (d[0] == '0' && (d[1] == 'x' || d[1] == 'X')) {
		base = 16;
		d += 2;
	}
	if (!*d || !(base == 16 ? isxdigit((unsigned char)*d) : isdigit((unsigned char)*d)))
		return set_err(err, errsz, "'%s' is not an integer", s);
	errno = 0;
	char *end;
	unsigned long long x = strtoull(d, &end, base);
	if (*end)
		return set_err(err, errsz, "'%s' is not an integer", s);
	if (errno == ERANGE)
		return set_err(err, errsz, "'%s' is out of range", s);
	*v = x;
	return 0;
}

int cli_parse_u64(const char *s, uint64_t max, uint64_t *v, char *err, size_t errsz)
{
	uint64_t x;
	if (s[0] == '-')
		return set_err(err, errsz, "'%s' is negative (expected 0..%" PRIu64 ")", s, max);
	if (s[0] == '+')
		s++;
	if (parse_magnitude(s, s, &x, err, errsz))
		return -1;
	if (x > max)
		return set_err(err, errsz, "'%s' is out of range (0..%" PRIu64 ")", s, max);
	*v = x;
	return 0;
}

int cli_parse_s64(const char *s, int64_t min, int64_t max, int64_t *v, char *err, size_t errsz)
{
	int neg = 0;
	const char *d = s;
	if (*d == '-' || *d == '+')
		neg = *d++ == '-';
	uint64_t mag;
	if (parse_magnitude(d, s, &mag, err, errsz))
		return -1;
	int64_t x;
	if (neg) {
		if (mag > (uint64_t)INT64_MAX + 1)
			return set_err(err, errsz, "'%s' is out of range (%" PRId64 "..%" PRId64 ")", s, min, max);
		x = mag == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)mag;
	} else {
		if (mag > (uint64_t)INT64_MAX)
			return set_err(err, errsz, "'%s' is out of range (%" PRId64 "..%" PRId64 ")", s, min, max);
		x = (int64_t)mag;
	}
	if (x < min || x > max)
		return set_err(err, errsz, "'%s' is out of range (%" PRId64 "..%" PRId64 ")", s, min, max);
	*v = x;
	return 0;
}

int cli_parse_f64(const char *s, double *v, char *err, size_t errsz)
{
	if (!*s || isspace((unsigned char)*s))
		return set_err(err, errsz, "'%s' is not a number", s);
	errno = 0;
	char *end;
	double x = strtod(s, &end);
	if (*end || end == s)
		return set_err(err, errsz, "'%s' is not a number", s);
	if (errno == ERANGE && isinf(x))
		return set_err(err, errsz, "'%s' is out of range", s);
	*v = x;
	return 0;
}

int cli_parse_dim3(const char *s, unsigned d[3], char *err, size_t errsz)
{
	d[0] = d[1] = d[2] = 1;
	const char *p = s;
	for (int k = 0;; k++) {
		if (k == 3)
			return set_err(err, errsz, "'%s' has more than 3 components (expected X[,Y[,Z]])", s);
		const char *c = strchr(p, ',');
		size_t len = c ? (size_t)(c - p) : strlen(p);
		char part[32];
		if (len == 0 || len >= sizeof part)
			return set_err(err, errsz, "'%s' is not of the form X[,Y[,Z]]", s);
		memcpy(part, p, len);
		part[len] = '\0';
		uint64_t v;
		char why[96];
		if (cli_parse_u64(part, UINT32_MAX, &v, why, sizeof why))
			return set_err(err, errsz, "'%s': %s", s, why);
		if (v == 0)
			return set_err(err, errsz, "'%s': every dimension must be at least 1", s);
		d[k] = (unsigned)v;
		if (!c)
			break;
		p = c + 1;
	}
	return 0;
}
