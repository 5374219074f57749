/*
 * cmd_exec.c -- the `warpsim exec` subcommand: run any kernel of a PTX file
 * without a host program.  Kernel parameters come from --arg specs (typed
 * scalars, raw bytes, or device buffers that are allocated, initialised and
 * passed by their device address); after the run, buffers can be written to
 * files (--out) or printed (--print).  The spec grammar is documented in
 * docs/cli.md.
 *
 * Textures and surfaces (--tex) are buffers too: their texels are
 * initialised the same way, they become an array (or linear memory) with a
 * texture or surface object, and --arg tex:NAME passes the object's handle.
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
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

#define NAME_MAX_LEN 63

/* The options of `warpsim exec` (here, not in main.c's tables, so that the
 * fuzz target of the argument parsing, tests/fuzz/fuzz_exec.c, parses with
 * the same table). */
const struct cli_opt cli_exec_opts[] = {
    {"grid", "X[,Y,Z]", 0, "grid dimensions in CTAs (required)"},
    {"block", "X[,Y,Z]", 0, "CTA dimensions in threads (required)"},
    {"shared", "BYTES", 0, "dynamic shared memory per CTA (default 0)"},
    {"arg", "SPEC", CLI_OPT_REPEAT, "next kernel parameter: TYPE:VALUE[,...], hex:BYTES, file:PATH, buf:NAME:TYPE:COUNT[=INIT], tex:NAME, ..."},
    {"set-var", "NAME=VALUE", CLI_OPT_REPEAT, "before the launch, set module .global/.const variable NAME: TYPE:V[,...], hex:BYTES or file:PATH"},
    {"tex", "SPEC", CLI_OPT_REPEAT, "a texture or surface object (see below); pass it with --arg tex:NAME"},
    {"out", "NAME=PATH[:bin|:hex|:txt]", CLI_OPT_REPEAT, "after the run, write buffer NAME to PATH"},
    {"print", "NAME[:COUNT]", CLI_OPT_REPEAT, "after the run, print (the first COUNT) elements of NAME"},
    {"config", "FILE", 0, "load parameters from FILE"},
    {"set", "KEY=VALUE", CLI_OPT_REPEAT, "set one parameter, applied after --config, in order"},
    {"functional", NULL, 0, "functional simulation only (sets mode=functional)"},
    {"cooperative", NULL, 0, "launch as cudaLaunchCooperativeKernel: all CTAs resident, grid.sync() works"},
    {"counters", NULL, 0, "print the counters and the simulator's speed after the run"},
    {"stats", "FILE.json", CLI_OPT_OUTFILE, "write every counter and the configuration as JSON"},
    {"max-ctas", "N", 0, "refuse a grid of more than N CTAs (default 1048576; 0: no limit)"},
    {"quiet", NULL, 0, "print no progress lines on stderr during a long run"},
    {"oversubscribe", NULL, 0, "keep --set threads=N above the cores this process may use (default: lowered to them, with a warning)"},
    {NULL, NULL, 0, NULL},
};

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
	/* --tex: a texture or surface over these elements */
	int is_tex;
	unsigned nch;          /* channels per texel */
	size_t ext[3];         /* width, height, depth (0 = absent) */
	int filter_linear, addr_mode, normalized, readnorm, layered, cube, surface;
	int res;               /* 0 array, 1 linear memory, 2 pitch-2D */
	char ref[NAME_MAX_LEN + 1]; /* .texref/.surfref variable to bind ("" none) */
	ws_array *arr;
	uint64_t handle;
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

/* --set-var NAME=VALUE: a module .global/.const variable set before the launch */
struct xvar {
	const char *spec;
	char name[NAME_MAX_LEN + 1];
	unsigned char *bytes;
	size_t size;
};

struct xstate {
	const struct cli_cmd *cmd;
	struct xvar *vars;
	int nvars;
	ws_module *mod;
	struct xbuf *bufs;
	int nbufs;
	struct xarg *args;
	int nargs;
	struct xout *outs;
	int nouts;
	struct xprint *prints;
	int nprints;
	size_t dev_bytes; /* device memory: the largest input file a buffer can take */
	const char *ptx_path, *stats_path; /* files --out must not overwrite */
	struct cli_progress progress;      /* progress lines of a long run */
};

/* The most CTAs a launch of `exec` has without --max-ctas: about what
 * simulates in minutes, not the hours a mistyped --grid asks for. */
#define EXEC_MAX_CTAS_DEFAULT (1u << 20)

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
/* The initializer after '=' of a buffer (--arg buf:...) or texture (--tex ...):
 * iota[:START[:STEP]], fill:V, file=PATH (textures only, allow_file) or a list. */
static void set_init(struct xbuf *b, const char *init, bool allow_file)
{
	if (allow_file && strncmp(init, "file=", 5) == 0) {
		b->init = INIT_FILE;
		b->init_text = init + 5;
	} else if (strcmp(init, "iota") == 0) {
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
}

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
			set_init(b, eq + 1, false);
			if (fill_init(b, NULL, why, sizeof why))
				return cli_usage_error(cmd, "--arg '%s': %s", spec, why);
		}
	}
	arg->buf = st->nbufs++;
	arg->what = "buffer";
	arg->size = sizeof(ws_deviceptr);
	return CLI_EXIT_OK;
}

/* --tex NAME:TYPE[xN]:W[xH[xD]][:OPT,...][=INIT]  (docs/cli.md) */
static int parse_tex(struct xstate *st, const char *spec)
{
	const struct cli_cmd *cmd = st->cmd;
	const char *eq = strchr(spec, '=');
	size_t head_len = eq ? (size_t)(eq - spec) : strlen(spec);
	char head[256];
	if (head_len >= sizeof head)
		return cli_usage_error(cmd, "--tex '%.80s...': too long", spec);
	memcpy(head, spec, head_len);
	head[head_len] = '\0';
	char *parts[4] = {NULL, NULL, NULL, NULL};
	int np = 0;
	for (char *p = head; np < 4;) {
		parts[np++] = p;
		char *c = strchr(p, ':');
		if (!c)
			break;
		*c = '\0';
		p = c + 1;
	}
	if (np < 3)
		return cli_usage_error(cmd, "--tex '%.80s': expected NAME:TYPE[xN]:W[xH[xD]][:OPTIONS][=INIT]", spec);
	if (!valid_name(parts[0], strlen(parts[0])))
		return cli_usage_error(cmd, "--tex '%.80s': name '%.63s' must be 1-%d letters, digits or '_'", spec,
		                       parts[0], NAME_MAX_LEN);
	if (find_buf(st, parts[0], strlen(parts[0])) >= 0)
		return cli_usage_error(cmd, "--tex '%.80s': '%s' is already defined", spec, parts[0]);
	struct xbuf *b = &st->bufs[st->nbufs];
	memset(b, 0, sizeof *b);
	strcpy(b->name, parts[0]);
	b->spec = spec;
	b->is_tex = 1;
	b->addr_mode = WS_ADDRESS_CLAMP;
	/* TYPE[xN] */
	char *x = strchr(parts[1], 'x');
	b->nch = 1;
	if (x) {
		if (strcmp(x, "x1") && strcmp(x, "x2") && strcmp(x, "x4"))
			return cli_usage_error(cmd, "--tex '%.80s': channels '%s' must be x1, x2 or x4", spec, x);
		b->nch = (unsigned)(x[1] - '0');
	}
	size_t tl = x ? (size_t)(x - parts[1]) : strlen(parts[1]);
	b->type = cli_type_find(parts[1], tl);
	if (!b->type || b->type->size > 4 || parts[1][0] == 'b')
		return cli_usage_error(cmd, "--tex '%.80s': element type must be u8, s8, u16, s16, u32, s32 or f32", spec);
	/* extent */
	char *e = parts[2];
	for (int d = 0; d < 3 && *e; d++) {
		char *end;
		errno = 0;
		unsigned long long v = strtoull(e, &end, 10);
		if (end == e || errno || v == 0 || v > 65536 || (*end && *end != 'x'))
			return cli_usage_error(cmd, "--tex '%.80s': extent '%s' must be W, WxH or WxHxD (1..65536 each)", spec,
			                       parts[2]);
		b->ext[d] = (size_t)v;
		e = *end ? end + 1 : end;
		if (*end == 'x' && d == 2)
			return cli_usage_error(cmd, "--tex '%.80s': at most three dimensions", spec);
	}
	/* options */
	if (np == 4 && parts[3][0]) {
		char *o = parts[3];
		for (;;) {
			char *c = strchr(o, ',');
			if (c)
				*c = '\0';
			if (!strcmp(o, "point")) b->filter_linear = 0;
			else if (!strcmp(o, "linear")) b->filter_linear = 1;
			else if (!strcmp(o, "clamp")) b->addr_mode = WS_ADDRESS_CLAMP;
			else if (!strcmp(o, "wrap")) b->addr_mode = WS_ADDRESS_WRAP;
			else if (!strcmp(o, "mirror")) b->addr_mode = WS_ADDRESS_MIRROR;
			else if (!strcmp(o, "border")) b->addr_mode = WS_ADDRESS_BORDER;
			else if (!strcmp(o, "normalized")) b->normalized = 1;
			else if (!strcmp(o, "readnorm")) b->readnorm = 1;
			else if (!strcmp(o, "layered")) b->layered = 1;
			else if (!strcmp(o, "cube")) b->cube = 1;
			else if (!strcmp(o, "memory")) b->res = 1;
			else if (!strcmp(o, "pitch")) b->res = 2;
			else if (!strcmp(o, "surface")) b->surface = 1;
			else if (o[0] == '@' && valid_name(o + 1, strlen(o + 1))) strcpy(b->ref, o + 1);
			else
				return cli_usage_error(cmd,
				                       "--tex '%.80s': unknown option '%.40s' (point linear clamp wrap mirror border "
				                       "normalized readnorm layered cube memory pitch surface @VAR)",
				                       spec, o);
			if (!c)
				break;
			o = c + 1;
		}
	}
	if (b->res == 1 && b->ext[1])
		return cli_usage_error(cmd, "--tex '%.80s': 'memory' (linear memory) is one-dimensional", spec);
	if (b->res == 2 && (!b->ext[1] || b->ext[2]))
		return cli_usage_error(cmd, "--tex '%.80s': 'pitch' needs a 2D extent WxH", spec);
	if (b->res && (b->surface || b->layered || b->cube))
		return cli_usage_error(cmd, "--tex '%.80s': surfaces, layered and cube textures need an array (no memory/pitch)",
		                       spec);
	size_t texels = b->ext[0] * (b->ext[1] ? b->ext[1] : 1) * (b->ext[2] ? b->ext[2] : 1);
	b->count = texels * b->nch;
	b->init = INIT_ZERO;
	if (eq) {
		char why[160];
		set_init(b, eq + 1, true);
		if (fill_init(b, NULL, why, sizeof why))
			return cli_usage_error(cmd, "--tex '%.80s': %s", spec, why);
	}
	st->nbufs++;
	return CLI_EXIT_OK;
}

/* Create the array or linear memory of texture/surface b, fill it from b->host and make the object. */
static int tex_create(struct xstate *st, ws_sim *sim, struct xbuf *b)
{
	const struct cli_cmd *cmd = st->cmd;
	size_t bytes = b->count * b->type->size;
	int bits = (int)b->type->size * 8;
	ws_channel_format f = {bits, b->nch >= 2 ? bits : 0, b->nch >= 4 ? bits : 0, b->nch >= 4 ? bits : 0,
	                       b->type->kind == CLI_K_FLOAT ? WS_CHANNEL_FLOAT
	                       : b->type->kind == CLI_K_SIGNED ? WS_CHANNEL_SIGNED : WS_CHANNEL_UNSIGNED};
	ws_resource_desc rd;
	memset(&rd, 0, sizeof rd);
	ws_result r;
	if (b->res) {
		if ((r = wsMemAlloc(sim, &b->dptr, bytes)) != WS_SUCCESS)
			return cli_fail(cmd, "--tex '%s': %s", b->spec, wsSimLastError(sim));
		b->allocated = 1;
		if ((r = wsMemcpyHtoD(sim, b->dptr, b->host, bytes)) != WS_SUCCESS)
			return cli_fail(cmd, "--tex '%s': %s", b->spec, wsSimLastError(sim));
		rd.type = b->res == 1 ? WS_RESOURCE_LINEAR : WS_RESOURCE_PITCH2D;
		rd.ptr = b->dptr;
		rd.format = f;
		rd.size_bytes = bytes;
		rd.width = b->ext[0];
		rd.height = b->ext[1];
		rd.pitch_bytes = b->ext[0] * b->nch * b->type->size;
	} else {
		unsigned flags = (b->layered ? WS_ARRAY_LAYERED : 0) | (b->cube ? WS_ARRAY_CUBEMAP : 0) |
		                 (b->surface ? WS_ARRAY_SURFACE_LDST : 0);
		if ((r = wsArrayCreate(sim, &b->arr, &f, b->ext[0], b->ext[1], b->ext[2], flags)) != WS_SUCCESS ||
		    (r = wsMemcpyToArray(b->arr, b->host, bytes)) != WS_SUCCESS)
			return cli_fail(cmd, "--tex '%s': %s", b->spec, wsSimLastError(sim));
		rd.type = WS_RESOURCE_ARRAY;
		rd.array = b->arr;
	}
	if (b->surface) {
		r = wsSurfaceCreate(sim, &b->handle, &rd);
	} else {
		ws_texture_desc td;
		memset(&td, 0, sizeof td);
		td.address_mode[0] = td.address_mode[1] = td.address_mode[2] = (ws_address_mode)b->addr_mode;
		td.filter_mode = b->filter_linear ? WS_FILTER_LINEAR : WS_FILTER_POINT;
		td.read_mode = b->readnorm ? WS_READ_NORMALIZED_FLOAT : WS_READ_ELEMENT_TYPE;
		td.normalized_coords = b->normalized;
		r = wsTextureCreate(sim, &b->handle, &rd, &td);
	}
	if (r != WS_SUCCESS)
		return cli_fail(cmd, "--tex '%s': %s", b->spec, wsSimLastError(sim));
	if (b->ref[0] && wsMemcpyToSymbol(st->mod, b->ref, &b->handle, sizeof b->handle, 0) != WS_SUCCESS)
		return cli_fail(cmd, "--tex '%s': cannot bind @%s: %s", b->spec, b->ref, wsSimLastError(sim));
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

/* Read a whole regular file of at most `max` bytes. Returns 0, or -1 with
 * the reason (not a regular file: a directory, device or FIFO; too large;
 * an errno). */
static int read_file(const char *path, size_t max, unsigned char **data, size_t *size, char *err, size_t errsz);
/* The largest file:PATH value of --arg (by value) or --set-var: a kernel
 * parameter or a module variable, never near this. */
#define XVALUE_FILE_MAX ((size_t)64 << 20)

/* The bytes of a value spec (what --arg passes by value and --set-var
 * stores): hex:BYTES (any even number of digits), file:PATH (a file's raw
 * bytes) or TYPE:V[,V...] (one or more elements of a scalar type).  `opt`
 * names the option in messages.  Returns CLI_EXIT_OK with *bytes malloc'd. */
static int parse_value(const struct cli_cmd *cmd, const char *opt, const char *spec, const char *value,
		       unsigned char **bytes, size_t *size, const char **what)
{
	const char *colon = strchr(value, ':');
	*bytes = NULL;
	*size = 0;
	if (!colon)
		return cli_usage_error(cmd, "%s '%.80s': expected TYPE:VALUE[,VALUE...], hex:BYTES or file:PATH", opt, spec);
	size_t tl = (size_t)(colon - value);
	const char *v = colon + 1;
	char why[160];
	if (tl == 3 && strncmp(value, "hex", 3) == 0) {
		size_t n = strlen(v);
		if (n == 0)
			return cli_usage_error(cmd, "%s '%.80s': hex: needs at least one byte (two hex digits)", opt, spec);
		if (n % 2)
			return cli_usage_error(cmd, "%s '%.80s': hex: odd number of hex digits (%zu)", opt, spec, n);
		*bytes = malloc(n / 2);
		if (!*bytes)
			return cli_fail(cmd, "out of memory");
		for (size_t i = 0; i < n / 2; i++) {
			int hi = hexval(v[2 * i]), lo = hexval(v[2 * i + 1]);
			if (hi < 0 || lo < 0) {
				free(*bytes);
				*bytes = NULL;
				return cli_usage_error(cmd, "%s '%.80s': '%c%c' is not a hex byte (byte %zu)", opt, spec, v[2 * i],
						       v[2 * i + 1], i);
			}
			(*bytes)[i] = (unsigned char)(hi << 4 | lo);
		}
		*size = n / 2;
		*what = "hex";
		return CLI_EXIT_OK;
	}
	if (tl == 4 && strncmp(value, "file", 4) == 0) {
		if (read_file(v, XVALUE_FILE_MAX, bytes, size, why, sizeof why))
			return cli_fail(cmd, "%s '%.80s': %s", opt, spec, why);
		if (*size == 0) {
			free(*bytes);
			*bytes = NULL;
			return cli_usage_error(cmd, "%s '%.80s': file '%s' is empty", opt, spec, v);
		}
		*what = "the file";
		return CLI_EXIT_OK;
	}
	const struct cli_type *t = cli_type_find(value, tl);
	if (!t)
		return cli_usage_error(cmd, "%s '%.80s': unknown type '%.*s' (expected one of %s, hex, file%s)", opt, spec,
				       (int)(tl > 80 ? 80 : tl), value, cli_type_names(),
				       strcmp(opt, "--arg") == 0 ? ", buf" : "");
	size_t n = 1;
	for (const char *c = v; *c; c++)
		n += *c == ',';
	*bytes = malloc(n * t->size);
	if (!*bytes)
		return cli_fail(cmd, "out of memory");
	const char *e = v;
	for (size_t i = 0; i < n; i++) {
		const char *end = strchr(e, ',');
		size_t len = end ? (size_t)(end - e) : strlen(e);
		char part[128];
		if (len >= sizeof part) {
			free(*bytes);
			*bytes = NULL;
			return cli_usage_error(cmd, "%s '%.80s': element %zu is too long", opt, spec, i);
		}
		memcpy(part, e, len);
		part[len] = '\0';
		if (cli_value_parse(t, part, *bytes + i * t->size, why, sizeof why)) {
			free(*bytes);
			*bytes = NULL;
			if (n == 1)
				return cli_usage_error(cmd, "%s '%s': %s value %s", opt, spec, t->name, why);
			return cli_usage_error(cmd, "%s '%.80s': element %zu: %s value %s", opt, spec, i, t->name, why);
		}
		e = end ? end + 1 : e + len;
	}
	*size = n * t->size;
	*what = t->name;
	return CLI_EXIT_OK;
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
		                       "--arg '%s': expected TYPE:VALUE, hex:BYTES, file:PATH, buf:NAME:TYPE:COUNT[=INIT] "
		                       "or buf:NAME:TYPE:file=PATH",
		                       spec);
	size_t tl = (size_t)(colon - spec);
	int rc;
	if (tl == 3 && strncmp(spec, "buf", 3) == 0)
		rc = parse_buf(st, spec, colon + 1, arg);
	else if (tl == 3 && strncmp(spec, "tex", 3) == 0) {
		int b = find_buf(st, colon + 1, strlen(colon + 1));
		if (b < 0 || !st->bufs[b].is_tex)
			return cli_usage_error(cmd, "--arg '%.80s': no texture or surface named '%.63s' (define it with --tex)",
			                       spec, colon + 1);
		arg->buf = b;
		arg->what = "texture handle";
		arg->size = sizeof(uint64_t);
		rc = CLI_EXIT_OK;
	} else
		rc = parse_value(cmd, "--arg", spec, spec, &arg->bytes, &arg->size, &arg->what);
	if (rc == CLI_EXIT_OK)
		st->nargs++;
	return rc;
}

/* --set-var NAME=VALUE */
static int parse_set_var(struct xstate *st, const char *spec)
{
	const struct cli_cmd *cmd = st->cmd;
	struct xvar *v = &st->vars[st->nvars];
	memset(v, 0, sizeof *v);
	v->spec = spec;
	const char *eq = strchr(spec, '=');
	size_t nl = eq ? (size_t)(eq - spec) : 0;
	if (!eq || !nl)
		return cli_usage_error(cmd, "--set-var '%.80s': expected NAME=TYPE:VALUE[,VALUE...], NAME=hex:BYTES or "
					    "NAME=file:PATH",
				       spec);
	if (nl > NAME_MAX_LEN)
		return cli_usage_error(cmd, "--set-var '%.80s': variable name longer than %d characters", spec,
				       NAME_MAX_LEN);
	memcpy(v->name, spec, nl);
	v->name[nl] = '\0';
	const char *what;
	int rc = parse_value(cmd, "--set-var", spec, eq + 1, &v->bytes, &v->size, &what);
	if (rc == CLI_EXIT_OK)
		st->nvars++;
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
	/* one file per output ("f", "./f" and a link to f are one file), and never the PTX input */
	for (int i = 0; i < st->nouts - 1; i++)
		if (cli_same_file(st->outs[i].path, o->path))
			return cli_usage_error(cmd, "--out '%s': file '%s' is already the output of --out %s=...: one file "
			                            "per output",
			                       spec, o->path, st->bufs[st->outs[i].buf].name);
	if (st->stats_path && cli_same_file(st->stats_path, o->path))
		return cli_usage_error(cmd, "--out '%s': file '%s' is already the output of --stats: one file per output",
		                       spec, o->path);
	if (cli_same_file(st->ptx_path, o->path))
		return cli_usage_error(cmd, "--out '%s': file '%s' is the PTX file being run", spec, o->path);
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
	for (int i = 0; i < st->nvars; i++)
		free(st->vars[i].bytes);
	free(st->vars);
	for (int i = 0; i < st->nouts; i++)
		free(st->outs[i].path);
	free(st->bufs);
	free(st->args);
	free(st->outs);
	free(st->prints);
}

static int read_file(const char *path, size_t max, unsigned char **data, size_t *size, char *err, size_t errsz)
{
	*data = NULL;
	*size = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		snprintf(err, errsz, "cannot open '%s': %s", path, strerror(errno));
		return -1;
	}
	struct stat st;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		snprintf(err, errsz, "'%s' is not a regular file (%s)", path,
		         S_ISDIR(st.st_mode) ? "a directory" : S_ISFIFO(st.st_mode) ? "a FIFO" : "a device or socket");
		close(fd);
		return -1;
	}
	if ((uint64_t)st.st_size > max) {
		snprintf(err, errsz, "'%s' is %llu bytes; the most this input can take is %zu bytes", path,
		         (unsigned long long)st.st_size, max);
		close(fd);
		return -1;
	}
	size_t n = (size_t)st.st_size;
	unsigned char *buf = malloc(n ? n : 1);
	if (!buf) {
		close(fd);
		snprintf(err, errsz, "'%s' (%zu bytes): out of memory", path, n);
		return -1;
	}
	size_t got = 0;
	while (got < n) {
		ssize_t k = read(fd, buf + got, n - got);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {
			snprintf(err, errsz, "error reading '%s': %s", path, k < 0 ? strerror(errno) : "it shrank while read");
			free(buf);
			close(fd);
			return -1;
		}
		got += (size_t)k;
	}
	close(fd);
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

/* The launch shape and every spec of the command line, checked: --grid,
 * --block, --shared, --tex, --arg, --set-var, --out, --print (values given
 * by file:PATH are read here).  Nothing needs the module or a simulator. */
static int exec_parse(struct xstate *st, const struct cli_args *a, unsigned grid[3], unsigned block[3],
                      uint64_t *shared)
{
	const struct cli_cmd *cmd = st->cmd;
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
	*shared = 0;
	if (sh && cli_parse_u64(sh, UINT32_MAX, shared, why, sizeof why))
		return cli_usage_error(cmd, "--shared %s", why);
	uint64_t max_ctas = EXEC_MAX_CTAS_DEFAULT, nctas = (uint64_t)grid[0] * grid[1] * grid[2];
	const char *mc = cli_opt_get(a, "max-ctas");
	if (mc && cli_parse_u64(mc, UINT64_MAX, &max_ctas, why, sizeof why))
		return cli_usage_error(cmd, "--max-ctas %s", why);
	if (max_ctas && nctas > max_ctas)
		return cli_usage_error(cmd, "--grid %s is %llu CTAs, more than the %llu that exec runs without --max-ctas "
		                            "(a simulation of hours or days); give --max-ctas %llu (or 0) to run it anyway",
		                       g, (unsigned long long)nctas, (unsigned long long)max_ctas,
		                       (unsigned long long)nctas);
	st->ptx_path = a->npos > 0 ? a->pos[0] : "";
	st->stats_path = cli_opt_get(a, "stats");
	if (st->stats_path && !st->stats_path[0])
		return cli_usage_error(cmd, "--stats needs a file name");

	int rc;
	for (int i = 0; i < a->nitems; i++)
		if (cli_item_is(a, i, "tex") && (rc = parse_tex(st, a->items[i].value)) != CLI_EXIT_OK)
			return rc;
	for (int i = 0; i < a->nitems; i++) {
		if (cli_item_is(a, i, "arg") && (rc = parse_arg(st, a->items[i].value)) != CLI_EXIT_OK)
			return rc;
		if (cli_item_is(a, i, "set-var") && (rc = parse_set_var(st, a->items[i].value)) != CLI_EXIT_OK)
			return rc;
	}
	for (int i = 0; i < a->nitems; i++) {
		if (cli_item_is(a, i, "out") && (rc = parse_out(st, a->items[i].value)) != CLI_EXIT_OK)
			return rc;
		if (cli_item_is(a, i, "print") && (rc = parse_print(st, a->items[i].value)) != CLI_EXIT_OK)
			return rc;
	}
	return CLI_EXIT_OK;
}

/* Read the input files of buf:NAME:TYPE:file=PATH buffers (at most
 * st->dev_bytes each): they decide the size of their buffers. */
static int exec_read_inputs(struct xstate *st)
{
	const struct cli_cmd *cmd = st->cmd;
	char why[200];
	for (int i = 0; i < st->nbufs; i++) {
		struct xbuf *b = &st->bufs[i];
		if (b->init != INIT_FILE)
			continue;
		unsigned char *data;
		size_t size;
		if (read_file(b->init_text, st->dev_bytes, &data, &size, why, sizeof why))
			return cli_fail(cmd, "--arg '%s': %s", b->spec, why);
		if (b->is_tex && size != b->count * b->type->size) {
			free(data);
			return cli_fail(cmd, "--arg '%s': file size %zu is not the %zu bytes of the texture", b->spec, size,
			                b->count * b->type->size);
		}
		if (size == 0 || size % b->type->size) {
			free(data);
			return cli_fail(cmd,
			                "--arg '%s': file size %zu is not a positive multiple of %u (the size of %s)",
			                b->spec, size, b->type->size, b->type->name);
		}
		b->host = data;
		b->count = size / b->type->size;
	}
	return CLI_EXIT_OK;
}

static int exec_run(struct xstate *st, const struct cli_args *a, ws_sim **simp)
{
	const struct cli_cmd *cmd = st->cmd;
	const char *path = a->pos[0], *kname = a->pos[1];
	unsigned grid[3], block[3];
	uint64_t shared;
	char why[200];
	int rc = exec_parse(st, a, grid, block, &shared);
	if (rc != CLI_EXIT_OK)
		return rc;
	const char *stats_path = st->stats_path;

	ws_config *cfg;
	if ((rc = cli_build_config(a, &cfg)) != CLI_EXIT_OK)
		return rc;
	char mb[64];
	const char *dm = wsConfigGet(cfg, "device_mem_mb", mb, sizeof mb);
	st->dev_bytes = (size_t)(dm ? strtoull(dm, NULL, 10) : 4096) << 20;
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
	char label[96];
	snprintf(label, sizeof label, "exec %.80s", kname);
	cli_progress_init(&st->progress, label);
	if (!cli_opt_get(a, "quiet"))
		wsSimSetProgress(sim, cli_progress_report, &st->progress);
	r = wsModuleLoad(sim, &st->mod, path);
	if (r != WS_SUCCESS) {
		const char *detail = wsSimLastError(sim);
		st->mod = NULL;
		return cli_fail(cmd, "%s: %s", wsGetErrorName(r), detail[0] ? detail : wsGetErrorString(r));
	}
	ws_module *mod = st->mod;
	cli_print_module_warnings(cmd, mod);
	ws_function *fn = NULL;
	if (wsModuleGetFunction(&fn, mod, kname) != WS_SUCCESS) /* says what the name is, lists the kernels */
		return cli_usage_error(cmd, "%s", wsSimLastError(sim));
	int np = wsFunctionParamCount(fn);
	if (np != st->nargs)
		return cli_usage_error(cmd, "kernel '%s' takes %d parameter%s but %d --arg %s given", kname, np,
		                       np == 1 ? "" : "s", st->nargs, st->nargs == 1 ? "was" : "were");
	for (int i = 0; i < np; i++) {
		size_t ps = wsFunctionParamSize(fn, i);
		const struct xarg *x = &st->args[i];
		if (ps == x->size)
			continue;
		if (x->buf >= 0 && st->bufs[x->buf].is_tex)
			return cli_usage_error(cmd, "--arg '%s' (parameter %d, counting from 0): the parameter is %zu bytes, "
			                            "but a texture/surface handle is 8 bytes", x->spec, i, ps);
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

	/* module variables, in command-line order (a later one may overwrite part of an earlier one) */
	for (int i = 0; i < st->nvars; i++) {
		const struct xvar *v = &st->vars[i];
		r = wsMemcpyToSymbol(mod, v->name, v->bytes, v->size, 0);
		if (r != WS_SUCCESS)
			return cli_usage_error(cmd, "--set-var '%.80s': %s", v->spec, wsSimLastError(sim));
	}

	/* input files decide the size of their buffers */
	if ((rc = exec_read_inputs(st)) != CLI_EXIT_OK)
		return rc;
	for (int i = 0; i < st->nprints; i++) {
		const struct xbuf *b = &st->bufs[st->prints[i].buf];
		if (st->prints[i].count > b->count)
			return cli_usage_error(cmd, "--print '%s': buffer '%s' has only %zu elements",
			                       st->prints[i].spec, b->name, b->count);
	}
	for (int i = 0; i < st->nbufs; i++) {
		struct xbuf *b = &st->bufs[i];
		size_t bytes = b->count * b->type->size;
		if (b->is_tex) {
			if (!b->host) {
				b->host = calloc(b->count, b->type->size);
				if (!b->host)
					return cli_fail(cmd, "--tex '%s': out of host memory (%zu bytes)", b->spec, bytes);
				if (fill_init(b, b->host, why, sizeof why))
					return cli_usage_error(cmd, "--tex '%s': %s", b->spec, why);
			}
			if ((rc = tex_create(st, sim, b)) != CLI_EXIT_OK)
				return rc;
			continue;
		}
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
		params[i] = st->args[i].buf < 0                    ? (void *)st->args[i].bytes
		            : st->bufs[st->args[i].buf].is_tex ? (void *)&st->bufs[st->args[i].buf].handle
		                                               : (void *)&st->bufs[st->args[i].buf].dptr;
	double t0 = speed_now();
	r = (cli_opt_get(a, "cooperative") ? wsLaunchCooperativeKernel : wsLaunchKernel)(
		fn, grid[0], grid[1], grid[2], block[0], block[1], block[2], (unsigned)shared, params);
	double t1 = speed_now();
	free(params);
	if (r != WS_SUCCESS) {
		const char *detail = wsSimLastError(sim);
		return cli_fail(cmd, "launch of '%s' failed: %s: %s", kname, wsGetErrorName(r),
		                detail[0] ? detail : wsGetErrorString(r));
	}

	for (int i = 0; i < st->nbufs; i++) {
		struct xbuf *b = &st->bufs[i];
		if (b->arr)
			r = wsMemcpyFromArray(b->host, b->arr, b->count * b->type->size);
		else
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
	wsOccupancyPrint(sim, stdout, "occupancy: ");
	if (cli_opt_get(a, "counters")) {
		struct speed s;
		speed_collect(sim, t1 - t0, &s);
		printf("\n");
		wsStatsPrint(sim, stdout);
		printf("\n");
		speed_print(&s, stdout);
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

/* room for every spec of the command line; -1 if memory runs out */
static int state_init(struct xstate *st, const struct cli_args *a)
{
	memset(st, 0, sizeof *st);
	st->cmd = a->cmd;
	size_t n = (size_t)a->nitems + 1;
	st->bufs = calloc(n, sizeof *st->bufs);
	st->args = calloc(n, sizeof *st->args);
	st->outs = calloc(n, sizeof *st->outs);
	st->prints = calloc(n, sizeof *st->prints);
	st->vars = calloc(n, sizeof *st->vars);
	return st->bufs && st->args && st->outs && st->prints && st->vars ? 0 : -1;
}

int cli_exec_check(const struct cli_args *a, size_t max_bytes)
{
	struct xstate st;
	unsigned grid[3], block[3];
	uint64_t shared;
	char why[200];
	int rc = state_init(&st, a) ? cli_fail(a->cmd, "out of memory") : exec_parse(&st, a, grid, block, &shared);
	st.dev_bytes = max_bytes;
	if (rc == CLI_EXIT_OK)
		rc = exec_read_inputs(&st);
	/* the initial values of the buffers that are not too large */
	for (int i = 0; rc == CLI_EXIT_OK && i < st.nbufs; i++) {
		struct xbuf *b = &st.bufs[i];
		if (b->host || b->count > max_bytes / b->type->size)
			continue;
		b->host = calloc(b->count ? b->count : 1, b->type->size);
		if (b->host && fill_init(b, b->host, why, sizeof why))
			rc = cli_usage_error(a->cmd, "--arg '%s': %s", b->spec, why);
	}
	state_free(&st, NULL);
	return rc;
}

int cli_cmd_exec(const struct cli_args *a)
{
	struct xstate st;
	ws_sim *sim = NULL;
	int rc;
	if (state_init(&st, a))
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
