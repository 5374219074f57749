/*
 * cmd_exec.c -- the `warpsim exec` subcommand: run any kernel of a PTX file
 * without a host program.  Kernel parameters come from --arg specs (typed
 * scalars, raw bytes, or device buffers that are allocated, initialised and
 * passed by their device address); after the run, buffers can be written to
 * files (--out) or printed (--print).  The spec grammar is documented in
 * docs/cli.md.
 *
 * Models no hardware: this is the "host program" side of a kernel launch.
 *
 * Processing order (so that every command-line mistake is found before any
 * work is done): parse every spec (exit 2 on error), build the configuration,
 * create the simulator, load the module (exit 1), find the kernel and check
 * the number and sizes of its parameters (exit 2), read input files (exit 1),
 * allocate and fill buffers, launch (exit 1), copy back and write outputs.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define NAME_MAX_LEN 63
#define HEX_MAX_BYTES 4096 /* CUDA's limit on the parameter space of a kernel */

enum buf_init { INIT_ZERO, INIT_LIST, INIT_IOTA, INIT_FILL, INIT_FILE };

struct xbuf {
	char name[NAME_MAX_LEN + 1];
	const char *spec;
	const struct cli_type *type;
	size_t count; /* elements (for INIT_FILE: known after reading) */
	enum buf_init init;
	const char *init_text; /* list, iota arguments, fill value or file path */
	unsigned char *host;   /* count * type->size bytes */
	ws_deviceptr dptr;
	int allocated;
};

struct xarg {
	const char *spec;
	int buf;              /* index of the buffer, or -1 for a scalar */
	const char *what;     /* type name, "hex" or "buffer" for messages */
	unsigned char *bytes; /* scalar value */
	size_t size;
};

enum out_fmt { OUT_BIN, OUT_HEX, OUT_TXT };
struct xout {
	int buf;
	char *path;
	enum out_fmt fmt;
};
struct xprint {
	int buf;
	size_t count; /* 0: all */
	const char *spec;
};

struct xstate {
	const struct cli_cmd *cmd;
	ws_module *mod;
	struct xbuf *bufs;
	int nbufs;
	struct xarg *args;
	int nargs;
	struct xout *outs;
	int nouts;
	struct xprint *prints;
	int nprints;
};

static int find_buf(const struct xstate *st, const char *name, size_t len)
{
	for (int i = 0; i < st->nbufs; i++)
		if (strlen(st->bufs[i].name) == len && strncmp(st->bufs[i].name, name, len) == 0)
			return i;
	return -1;
}

static int valid_name(const char *s, size_t len)
{
	if (len == 0 || len > NAME_MAX_LEN)
		return 0;
	for (size_t i = 0; i < len; i++) {
		char c = s[i];
		int ok =
		    (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || (i > 0 && c >= '0' && c <= '9');
		if (!ok)
			return 0;
	}
	return 1;
}

/* Fill the elements of b from its init spec; with dst == NULL only check the
 * spec's syntax and element count.  Returns 0 or -1 with a reason. */
static int fill_init(const struct xbuf *b, unsigned char *dst, char *err, size_t errsz)
{
	const struct cli_type *t = b->type;
	unsigned char v[8], step[8];
	char part[128];
	switch (b->init) {
	case INIT_ZERO:
	case INIT_FILE: return 0;
	case INIT_FILL:
		if (cli_value_parse(t, b->init_text, v, err, errsz))
			return -1;
		if (dst)
			for (size_t i = 0; i < b->count; i++)
				memcpy(dst + i * t->size, v, t->size);
		return 0;
	case INIT_IOTA: {
		/* init_text: "" or "START" or "START:STEP" */
		memset(v, 0, sizeof v);
		memset(step, 0, sizeof step);
		if (t->kind == CLI_K_FLOAT)
			cli_value_set_f64(t, 1.0, step);
		else
			cli_value_set_bits(t, 1, step);
		const char *s = b->init_text;
		if (*s) {
			const char *c = strchr(s, ':');
			size_t len = c ? (size_t)(c - s) : strlen(s);
			if (len >= sizeof part) {
				snprintf(err, errsz, "iota start too long");
				return -1;
			}
			memcpy(part, s, len);
			part[len] = '\0';
			if (cli_value_parse(t, part, v, err, errsz))
				return -1;
			if (c && cli_value_parse(t, c + 1, step, err, errsz))
				return -1;
		}
		if (!dst)
			return 0;
		if (t->kind == CLI_K_FLOAT) {
			double d0 = cli_value_get_f64(t, v), ds = cli_value_get_f64(t, step);
			for (size_t i = 0; i < b->count; i++)
				cli_value_set_f64(t, d0 + (double)i * ds, dst + i * t->size);
		} else {
			uint64_t u0 = cli_value_get_bits(t, v), us = cli_value_get_bits(t, step);
			for (size_t i = 0; i < b->count; i++) /* wraps modulo 2^bits */
				cli_value_set_bits(t, u0 + (uint64_t)i * us, dst + i * t->size);
		}
		return 0;
	}
	case INIT_LIST: {
		const char *s = b->init_text;
		size_t i = 0;
		for (;;) {
			const char *c = strchr(s, ',');
			size_t len = c ? (size_t)(c - s) : strlen(s);
			if (len == 0) {
				snprintf(err, errsz, "empty element %zu in the value list", i);
				return -1;
			}
			if (len >= sizeof part) {
				snprintf(err, errsz, "element %zu of the value list is too long", i);
				return -1;
			}
			if (i >= b->count) {
				snprintf(err, errsz, "more than %zu values for a buffer of %zu elements", b->count,
				         b->count);
				return -1;
			}
			memcpy(part, s, len);
			part[len] = '\0';
			if (cli_value_parse(t, part, dst ? dst + i * t->size : v, err, errsz))
				return -1;
			i++;
			if (!c)
				break;
			s = c + 1;
		}
		return 0;
	}
	}
	return 0;
}

/* buf:NAME:TYPE:COUNT[=INIT] | buf:NAME:TYPE:file=PATH  (rest = after "buf:") */
static int parse_buf(struct xstate *st, const char *spec, const char *rest, struct xarg *arg)
{
	const struct cli_cmd *cmd = st->cmd;
	const char *c1 = strchr(rest, ':');
	const char *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
	if (!c1 || !c2)
		return cli_usage_error(
		    cmd, "--arg '%s': expected buf:NAME:TYPE:COUNT[=INIT] or buf:NAME:TYPE:file=PATH", spec);
	size_t nlen = (size_t)(c1 - rest);
	if (!valid_name(rest, nlen))
		return cli_usage_error(cmd,
		                       "--arg '%s': buffer name '%.*s' must be 1-%d letters, digits or '_', not "
		                       "starting with a digit",
		                       spec, (int)(nlen > 80 ? 80 : nlen), rest, NAME_MAX_LEN);
	if (find_buf(st, rest, nlen) >= 0)
		return cli_usage_error(cmd, "--arg '%s': buffer '%.*s' is already defined", spec, (int)nlen, rest);
	const struct cli_type *t = cli_type_find(c1 + 1, (size_t)(c2 - c1 - 1));
	if (!t)
		return cli_usage_error(cmd, "--arg '%s': unknown element type '%.*s' (expected one of %s)", spec,
		                       (int)((c2 - c1 - 1) > 80 ? 80 : (c2 - c1 - 1)), c1 + 1, cli_type_names());
	struct xbuf *b = &st->bufs[st->nbufs];
	memset(b, 0, sizeof *b);
	memcpy(b->name, rest, nlen);
	b->name[nlen] = '\0';
	b->spec = spec;
	b->type = t;
	const char *r = c2 + 1;
	if (strncmp(r, "file=", 5) == 0) {
		if (!r[5])
			return cli_usage_error(cmd, "--arg '%s': file= needs a path", spec);
		b->init = INIT_FILE;
		b->init_text = r + 5;
	} else {
		const char *eq = strchr(r, '=');
		size_t clen = eq ? (size_t)(eq - r) : strlen(r);
		char num[32], why[160];
		uint64_t count;
		if (clen == 0 || clen >= sizeof num)
			return cli_usage_error(cmd, "--arg '%s': expected an element count after the type", spec);
		memcpy(num, r, clen);
		num[clen] = '\0';
		if (cli_parse_u64(num, SIZE_MAX / t->size, &count, why, sizeof why))
			return cli_usage_error(cmd, "--arg '%s': element count %s", spec, why);
		if (count == 0)
			return cli_usage_error(cmd, "--arg '%s': a buffer needs at least one element", spec);
		b->count = (size_t)count;
		b->init = INIT_ZERO;
		if (eq) {
			const char *init = eq + 1;
			if (strcmp(init, "iota") == 0) {
				b->init = INIT_IOTA;
				b->init_text = "";
			} else if (strncmp(init, "iota:", 5) == 0) {
				b->init = INIT_IOTA;
				b->init_text = init + 5;
			} else if (strncmp(init, "fill:", 5) == 0) {
				b->init = INIT_FILL;
				b->init_text = init + 5;
			} else {
				b->init = INIT_LIST;
				b->init_text = init;
			}
			if (fill_init(b, NULL, why, sizeof why))
				return cli_usage_error(cmd, "--arg '%s': %s", spec, why);
		}
	}
	arg->buf = st->nbufs++;
	arg->what = "buffer";
	arg->size = sizeof(ws_deviceptr);
	return CLI_EXIT_OK;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static int parse_arg(struct xstate *st, const char *spec)
{
	const struct cli_cmd *cmd = st->cmd;
	struct xarg *arg = &st->args[st->nargs];
	memset(arg, 0, sizeof *arg);
	arg->spec = spec;
	arg->buf = -1;
	const char *colon = strchr(spec, ':');
	if (!colon)
		return cli_usage_error(cmd,
		                       "--arg '%s': expected TYPE:VALUE, hex:BYTES, buf:NAME:TYPE:COUNT[=INIT] "
		                       "or buf:NAME:TYPE:file=PATH",
		                       spec);
	size_t tl = (size_t)(colon - spec);
	int rc;
	if (tl == 3 && strncmp(spec, "buf", 3) == 0) {
		rc = parse_buf(st, spec, colon + 1, arg);
	} else if (tl == 3 && strncmp(spec, "hex", 3) == 0) {
		const char *h = colon + 1;
		size_t n = strlen(h);
		if (n == 0 || n % 2 || n / 2 > HEX_MAX_BYTES)
			return cli_usage_error(cmd,
			                       "--arg '%.80s': hex: needs an even number of hex digits (1 to %d bytes)",
			                       spec, HEX_MAX_BYTES);
		arg->bytes = malloc(n / 2);
		if (!arg->bytes)
			return cli_fail(cmd, "out of memory");
		arg->size = n / 2;
		arg->what = "hex";
		for (size_t i = 0; i < n / 2; i++) {
			int hi = hexval(h[2 * i]), lo = hexval(h[2 * i + 1]);
			if (hi < 0 || lo < 0) {
				free(arg->bytes);
				arg->bytes = NULL;
				return cli_usage_error(cmd, "--arg '%.80s': '%c%c' is not a hex byte", spec, h[2 * i],
				                       h[2 * i + 1]);
			}
			arg->bytes[i] = (unsigned char)(hi << 4 | lo);
		}
		rc = CLI_EXIT_OK;
	} else {
		const struct cli_type *t = cli_type_find(spec, tl);
		if (!t)
			return cli_usage_error(cmd, "--arg '%s': unknown type '%.*s' (expected one of %s, hex, buf)",
			                       spec, (int)(tl > 80 ? 80 : tl), spec, cli_type_names());
		arg->bytes = malloc(t->size);
		if (!arg->bytes)
			return cli_fail(cmd, "out of memory");
		arg->size = t->size;
		arg->what = t->name;
		char why[160];
		if (cli_value_parse(t, colon + 1, arg->bytes, why, sizeof why)) {
			free(arg->bytes);
			arg->bytes = NULL;
			return cli_usage_error(cmd, "--arg '%s': %s value %s", spec, t->name, why);
		}
		rc = CLI_EXIT_OK;
	}
	if (rc == CLI_EXIT_OK)
		st->nargs++;
	return rc;
}

/* --out NAME=PATH[:bin|:hex|:txt] */
static int parse_out(struct xstate *st, const char *spec)
{
	const struct cli_cmd *cmd = st->cmd;
	const char *eq = strchr(spec, '=');
	if (!eq || eq == spec)
		return cli_usage_error(cmd, "--out '%s': expected NAME=PATH[:bin|:hex|:txt]", spec);
	int b = find_buf(st, spec, (size_t)(eq - spec));
	if (b < 0)
		return cli_usage_error(cmd, "--out '%s': no buffer named '%.*s' (define it with --arg buf:NAME:...)",
		                       spec, (int)((eq - spec) > 80 ? 80 : (eq - spec)), spec);
	const char *path = eq + 1;
	size_t plen = strlen(path);
	enum out_fmt fmt = OUT_BIN;
	static const struct {
		const char *suffix;
		enum out_fmt fmt;
	} fmts[] = {{":bin", OUT_BIN}, {":hex", OUT_HEX}, {":txt", OUT_TXT}};
	/* the text after the last ':' is the format, unless it looks like part of a path (has a '/') */
	const char *colon = strrchr(path, ':');
	if (colon && !strchr(colon, '/')) {
		size_t i;
		for (i = 0; i < sizeof fmts / sizeof fmts[0]; i++)
			if (strcmp(colon, fmts[i].suffix) == 0)
				break;
		if (i == sizeof fmts / sizeof fmts[0])
			return cli_usage_error(cmd, "--out '%s': unknown output format '%s' (expected bin, hex or txt; "
			                            "for a file name with ':' add the format: PATH:bin)",
			                       spec, colon + 1);
		fmt = fmts[i].fmt;
		plen = (size_t)(colon - path);
	}
	if (plen == 0)
		return cli_usage_error(cmd, "--out '%s': empty file name", spec);
	struct xout *o = &st->outs[st->nouts];
	o->path = malloc(plen + 1);
	if (!o->path)
		return cli_fail(cmd, "out of memory");
	memcpy(o->path, path, plen);
	o->path[plen] = '\0';
	o->buf = b;
	o->fmt = fmt;
	st->nouts++;
	return CLI_EXIT_OK;
}

/* --print NAME[:COUNT] */
static int parse_print(struct xstate *st, const char *spec)
{
	const struct cli_cmd *cmd = st->cmd;
	const char *c = strchr(spec, ':');
	size_t nlen = c ? (size_t)(c - spec) : strlen(spec);
	int b = find_buf(st, spec, nlen);
	if (b < 0)
		return cli_usage_error(cmd, "--print '%s': no buffer named '%.*s' (define it with --arg buf:NAME:...)",
		                       spec, (int)(nlen > 80 ? 80 : nlen), spec);
	struct xprint *p = &st->prints[st->nprints];
	p->buf = b;
	p->count = 0;
	p->spec = spec;
	if (c) {
		uint64_t n;
		char why[160];
		if (cli_parse_u64(c + 1, SIZE_MAX, &n, why, sizeof why))
			return cli_usage_error(cmd, "--print '%s': count %s", spec, why);
		if (n == 0)
			return cli_usage_error(cmd, "--print '%s': count must be at least 1", spec);
		p->count = (size_t)n;
	}
	st->nprints++;
	return CLI_EXIT_OK;
}

static void state_free(struct xstate *st, ws_sim *sim)
{
	for (int i = 0; i < st->nbufs; i++) {
		if (st->bufs[i].allocated && sim)
			wsMemFree(sim, st->bufs[i].dptr);
		free(st->bufs[i].host);
	}
	for (int i = 0; i < st->nargs; i++)
		free(st->args[i].bytes);
	for (int i = 0; i < st->nouts; i++)
		free(st->outs[i].path);
	free(st->bufs);
	free(st->args);
	free(st->outs);
	free(st->prints);
}

/* Read a whole binary file. Returns 0, or -1 with errno-based reason. */
static int read_file(const char *path, unsigned char **data, size_t *size, char *err, size_t errsz)
{
	*data = NULL;
	*size = 0;
	FILE *f = fopen(path, "rb");
	if (!f) {
		snprintf(err, errsz, "cannot open '%s': %s", path, strerror(errno));
		return -1;
	}
	size_t cap = 0, n = 0;
	unsigned char *buf = NULL;
	for (;;) {
		if (n == cap) {
			size_t ncap = cap ? cap * 2 : 65536;
			unsigned char *nb = ncap > cap ? realloc(buf, ncap) : NULL;
			if (!nb) {
				free(buf);
				fclose(f);
				snprintf(err, errsz, "'%s' is too large to read", path);
				return -1;
			}
			buf = nb;
			cap = ncap;
		}
		size_t got = fread(buf + n, 1, cap - n, f);
		n += got;
		if (got == 0)
			break;
	}
	int bad = ferror(f);
	fclose(f);
	if (bad) {
		free(buf);
		snprintf(err, errsz, "error reading '%s'", path);
		return -1;
	}
	*data = buf;
	*size = n;
	return 0;
}

static int write_out(const struct xstate *st, const struct xout *o)
{
	const struct xbuf *b = &st->bufs[o->buf];
	const struct cli_type *t = b->type;
	FILE *f = fopen(o->path, o->fmt == OUT_BIN ? "wb" : "w");
	if (!f)
		return cli_fail(st->cmd, "--out %s=%s: cannot open for writing: %s", b->name, o->path, strerror(errno));
	if (o->fmt == OUT_BIN) {
		fwrite(b->host, t->size, b->count, f);
	} else {
		for (size_t i = 0; i < b->count; i++) {
			if (o->fmt == OUT_HEX)
				cli_value_print_hex(t, b->host + i * t->size, f);
			else
				cli_value_print(t, b->host + i * t->size, f);
			fputc('\n', f);
		}
	}
	int bad = ferror(f);
	if (fclose(f) != 0 || bad)
		return cli_fail(st->cmd, "--out %s=%s: write failed", b->name, o->path);
	return CLI_EXIT_OK;
}

static int exec_run(struct xstate *st, const struct cli_args *a, ws_sim **simp)
{
	const struct cli_cmd *cmd = st->cmd;
	const char *path = a->pos[0], *kname = a->pos[1];
	unsigned grid[3], block[3];
	char why[200];
	const char *g = cli_opt_get(a, "grid"), *bl = cli_opt_get(a, "block"), *sh = cli_opt_get(a, "shared");
	if (!g)
		return cli_usage_error(cmd, "missing required option --grid X[,Y,Z]");
	if (!bl)
		return cli_usage_error(cmd, "missing required option --block X[,Y,Z]");
	if (cli_parse_dim3(g, grid, why, sizeof why))
		return cli_usage_error(cmd, "--grid %s", why);
	if (cli_parse_dim3(bl, block, why, sizeof why))
		return cli_usage_error(cmd, "--block %s", why);
	uint64_t shared = 0;
	if (sh && cli_parse_u64(sh, UINT32_MAX, &shared, why, sizeof why))
		return cli_usage_error(cmd, "--shared %s", why);
	const char *stats_path = cli_opt_get(a, "stats");
	if (stats_path && !stats_path[0])
		return cli_usage_error(cmd, "--stats needs a file name");

	int rc;
	for (int i = 0; i < a->nitems; i++)
		if (cli_item_is(a, i, "arg") && (rc = parse_arg(st, a->items[i].value)) != CLI_EXIT_OK)
			return rc;
	for (int i = 0; i < a->nitems; i++) {
		if (cli_item_is(a, i, "out") && (rc = parse_out(st, a->items[i].value)) != CLI_EXIT_OK)
			return rc;
		if (cli_item_is(a, i, "print") && (rc = parse_print(st, a->items[i].value)) != CLI_EXIT_OK)
			return rc;
	}

	ws_config *cfg;
	if ((rc = cli_build_config(a, &cfg)) != CLI_EXIT_OK)
		return rc;
	ws_result r = wsSimCreate(simp, cfg);
	wsConfigDestroy(cfg);
	if (r != WS_SUCCESS) {
		const char *detail = *simp ? wsSimLastError(*simp) : "";
		if (r == WS_ERROR_INVALID_CONFIG)
			return cli_usage_error(cmd, "invalid configuration: %s",
			                       detail[0] ? detail : wsGetErrorString(r));
		return cli_fail(cmd, "cannot create the simulator: %s", detail[0] ? detail : wsGetErrorString(r));
	}
	ws_sim *sim = *simp;
	r = wsModuleLoad(sim, &st->mod, path);
	if (r != WS_SUCCESS) {
		const char *detail = wsSimLastError(sim);
		st->mod = NULL;
		return cli_fail(cmd, "%s: %s", wsGetErrorName(r), detail[0] ? detail : wsGetErrorString(r));
	}
	ws_module *mod = st->mod;
	cli_print_module_warnings(cmd, mod);
	ws_function *fn = NULL;
	if (wsModuleGetFunction(&fn, mod, kname) != WS_SUCCESS) {
		fflush(stdout);
		fprintf(stderr, "warpsim exec: error: no kernel named '%s' in %s; it has:", kname, path);
		int nf = wsModuleFunctionCount(mod);
		for (int i = 0; i < nf; i++)
			fprintf(stderr, " %s", wsModuleFunctionName(mod, i));
		fprintf(stderr, "%s\n", nf ? "" : " (none)");
		return CLI_EXIT_USAGE;
	}
	int np = wsFunctionParamCount(fn);
	if (np != st->nargs)
		return cli_usage_error(cmd, "kernel '%s' takes %d parameter%s but %d --arg %s given", kname, np,
		                       np == 1 ? "" : "s", st->nargs, st->nargs == 1 ? "was" : "were");
	for (int i = 0; i < np; i++) {
		size_t ps = wsFunctionParamSize(fn, i);
		const struct xarg *x = &st->args[i];
		if (ps == x->size)
			continue;
		if (x->buf >= 0)
			return cli_usage_error(
			    cmd,
			    "--arg '%s' (parameter %d, counting from 0): the parameter is %zu bytes, "
			    "but a buffer passes its 8-byte device address",
			    x->spec, i, ps);
		return cli_usage_error(cmd,
		                       "--arg '%s' (parameter %d, counting from 0): the parameter is %zu bytes, "
		                       "but %s is %zu byte%s",
		                       x->spec, i, ps, x->what, x->size, x->size == 1 ? "" : "s");
	}

	/* input files decide the size of their buffers */
	for (int i = 0; i < st->nbufs; i++) {
		struct xbuf *b = &st->bufs[i];
		if (b->init != INIT_FILE)
			continue;
		unsigned char *data;
		size_t size;
		if (read_file(b->init_text, &data, &size, why, sizeof why))
			return cli_fail(cmd, "--arg '%s': %s", b->spec, why);
		if (size == 0 || size % b->type->size) {
			free(data);
			return cli_fail(cmd,
			                "--arg '%s': file size %zu is not a positive multiple of %u (the size of %s)",
			                b->spec, size, b->type->size, b->type->name);
		}
		b->host = data;
		b->count = size / b->type->size;
	}
	for (int i = 0; i < st->nprints; i++) {
		const struct xbuf *b = &st->bufs[st->prints[i].buf];
		if (st->prints[i].count > b->count)
			return cli_usage_error(cmd, "--print '%s': buffer '%s' has only %zu elements",
			                       st->prints[i].spec, b->name, b->count);
	}
	for (int i = 0; i < st->nbufs; i++) {
		struct xbuf *b = &st->bufs[i];
		size_t bytes = b->count * b->type->size;
		r = wsMemAlloc(sim, &b->dptr, bytes);
		if (r != WS_SUCCESS) {
			const char *detail = wsSimLastError(sim);
			if (detail[0])
				return cli_fail(cmd, "--arg '%s': %s", b->spec, detail);
			return cli_fail(cmd, "--arg '%s': cannot allocate %zu bytes of device memory: %s", b->spec,
			                bytes, wsGetErrorString(r));
		}
		b->allocated = 1;
		if (!b->host) {
			b->host = calloc(b->count, b->type->size);
			if (!b->host)
				return cli_fail(cmd, "--arg '%s': out of host memory (%zu bytes)", b->spec, bytes);
			if (fill_init(b, b->host, why, sizeof why))
				return cli_usage_error(cmd, "--arg '%s': %s", b->spec, why);
		}
		r = wsMemcpyHtoD(sim, b->dptr, b->host, bytes);
		if (r != WS_SUCCESS)
			return cli_fail(cmd, "--arg '%s': copy to the device failed: %s", b->spec, wsSimLastError(sim));
	}

	void **params = calloc((size_t)np + 1, sizeof *params);
	if (!params)
		return cli_fail(cmd, "out of memory");
	for (int i = 0; i < np; i++)
		params[i] = st->args[i].buf >= 0 ? (void *)&st->bufs[st->args[i].buf].dptr : (void *)st->args[i].bytes;
	double t0 = cli_now();
	r = (cli_opt_get(a, "cooperative") ? wsLaunchCooperativeKernel : wsLaunchKernel)(
		fn, grid[0], grid[1], grid[2], block[0], block[1], block[2], (unsigned)shared, params);
	double t1 = cli_now();
	free(params);
	if (r != WS_SUCCESS) {
		const char *detail = wsSimLastError(sim);
		return cli_fail(cmd, "launch of '%s' failed: %s: %s", kname, wsGetErrorName(r),
		                detail[0] ? detail : wsGetErrorString(r));
	}

	for (int i = 0; i < st->nbufs; i++) {
		struct xbuf *b = &st->bufs[i];
		r = wsMemcpyDtoH(sim, b->host, b->dptr, b->count * b->type->size);
		if (r != WS_SUCCESS)
			return cli_fail(cmd, "copying buffer '%s' back failed: %s", b->name, wsSimLastError(sim));
	}
	for (int i = 0; i < st->nouts; i++)
		if ((rc = write_out(st, &st->outs[i])) != CLI_EXIT_OK)
			return rc;
	for (int i = 0; i < st->nprints; i++) {
		const struct xbuf *b = &st->bufs[st->prints[i].buf];
		size_t n = st->prints[i].count ? st->prints[i].count : b->count;
		printf("%s =", b->name);
		for (size_t k = 0; k < n; k++) {
			putchar(' ');
			cli_value_print(b->type, b->host + k * b->type->size, stdout);
		}
		putchar('\n');
	}
	if (cli_opt_get(a, "counters")) {
		struct cli_speed s;
		cli_speed_collect(sim, t1 - t0, &s);
		printf("\n");
		wsStatsPrint(sim, stdout);
		printf("\n");
		cli_speed_print(&s, stdout);
	}
	if (stats_path) {
		FILE *f = fopen(stats_path, "w");
		if (!f)
			return cli_fail(cmd, "--stats %s: cannot open for writing: %s", stats_path, strerror(errno));
		r = wsStatsWriteJSON(sim, f);
		if (fclose(f) != 0 || r != WS_SUCCESS)
			return cli_fail(cmd, "--stats %s: writing failed", stats_path);
	}
	return CLI_EXIT_OK;
}

int cli_cmd_exec(const struct cli_args *a)
{
	struct xstate st;
	memset(&st, 0, sizeof st);
	st.cmd = a->cmd;
	size_t n = (size_t)a->nitems + 1;
	st.bufs = calloc(n, sizeof *st.bufs);
	st.args = calloc(n, sizeof *st.args);
	st.outs = calloc(n, sizeof *st.outs);
	st.prints = calloc(n, sizeof *st.prints);
	ws_sim *sim = NULL;
	int rc;
	if (!st.bufs || !st.args || !st.outs || !st.prints)
		rc = cli_fail(a->cmd, "out of memory");
	else
		rc = exec_run(&st, a, &sim);
	state_free(&st, sim);
	if (st.mod)
		wsModuleUnload(st.mod);
	if (sim)
		wsSimDestroy(sim);
	return rc;
}
