/*
 * config.h -- typed access to the simulator configuration.
 *
 * Models no hardware; holds the parameters of the modelled GPU, each
 * declared once in params.def.  Model code reads values with
 * cfg_int(cfg, CFG_warp_size) etc.
 */
#ifndef WARPSIM_CONFIG_H
#define WARPSIM_CONFIG_H

#include <stdint.h>
#include <stdio.h>

#include "warpsim.h"

enum cfg_type { CFGT_INT, CFGT_BOOL, CFGT_FLOAT, CFGT_ENUM, CFGT_STRING, CFGT_INTLIST };

#define CFG_LIST_MAX 8   /* entries of an INTLIST */
#define CFG_STRING_MAX 32 /* bytes of a STRING, with the NUL */

enum cfg_param {
#define P(name, type, def, min, max, help) CFG_##name,
#define E(name, values)
#include "params.def"
#undef P
#undef E
	CFG_COUNT
};

struct cfg_param_info {
	const char *name;
	enum cfg_type type;
	const char *def;
	double min, max;
	const char *help;
};
extern const struct cfg_param_info cfg_params[CFG_COUNT];

union cfg_value {
	int64_t i;                /* INT, BOOL, ENUM (index into the value list) */
	double f;                 /* FLOAT */
	char s[CFG_STRING_MAX];   /* STRING */
	struct {
		int32_t n;
		int32_t v[CFG_LIST_MAX];
	} l;                      /* INTLIST (each entry in MIN..MAX) */
};

struct ws_config {
	union cfg_value v[CFG_COUNT];
};

static inline int64_t cfg_int(const struct ws_config *c, enum cfg_param p) { return c->v[p].i; }
static inline double cfg_float(const struct ws_config *c, enum cfg_param p) { return c->v[p].f; }
static inline const char *cfg_str(const struct ws_config *c, enum cfg_param p) { return c->v[p].s; }
/* Entry k of an INTLIST (the last entry repeats if the list is shorter). */
static inline int32_t cfg_list(const struct ws_config *c, enum cfg_param p, int k)
{
	int n = c->v[p].l.n;
	return c->v[p].l.v[k < n ? k : n - 1];
}
/* Text of an ENUM parameter's current value. */
const char *cfg_enum_name(const struct ws_config *c, enum cfg_param p, char *buf, size_t bufsz);
/* 64-bit FNV-1a hash of the effective configuration (canonical text form). */
uint64_t cfg_hash(const struct ws_config *c);
/* Write the configuration as a JSON object (no trailing newline). */
void cfg_write_json(const struct ws_config *c, FILE *out);
/* The "key = value" lines of an open config file (wsConfigLoadFile after its
 * checks of the file; the config fuzz target's entry point).  path names it
 * in messages. */
ws_result cfg_load_stream(struct ws_config *c, FILE *f, const char *path, char *err, size_t errsz);

#endif
