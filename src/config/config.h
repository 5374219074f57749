/*
 * config.h -- typed access to the simulator configuration.
 *
 * Models no hardware; holds the parameters of the modelled GPU, each
 * declared once in the .def file of its domain, with its own header of ids:
 *
 *   CFG_DOM_GPU     config/params.def        ids in config/params.h
 *   CFG_DOM_MEM     mem/mem_params.def       ids in mem/mem_params.h
 *   CFG_DOM_CORE    core/core_params.def     ids in core/core_params.h
 *   CFG_DOM_SCHED   sched/sched_params.def   ids in sched/sched_params.h
 *   CFG_DOM_ENERGY  stats/energy_params.def  ids in stats/energy_params.h
 *
 * Model code reads values with cfg_int(cfg, CFG_warp_size) etc.  Domain d
 * owns the ids [d * CFG_DOM_CAP, (d + 1) * CFG_DOM_CAP), so the ids of one
 * domain do not depend on the others: a line added to a domain's .def file
 * recompiles only the files that include its header (and config.c).  The
 * value array has gaps; listing, printing, the JSON dump, the hash and the
 * name lookup walk the ids upwards, skipping the gaps (cfg_params[id].name
 * NULL): the domains in the order above, each in its .def file's order.
 */
#ifndef WARPSIM_CONFIG_H
#define WARPSIM_CONFIG_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "warpsim.h"

enum cfg_type { CFGT_INT, CFGT_BOOL, CFGT_FLOAT, CFGT_ENUM, CFGT_STRING, CFGT_INTLIST };

#define CFG_LIST_MAX 8   /* entries of an INTLIST, at most (each list has exactly its default's count) */
#define CFG_STRING_MAX 32 /* bytes of a STRING, with the NUL */

enum cfg_domain { CFG_DOM_GPU, CFG_DOM_MEM, CFG_DOM_CORE, CFG_DOM_SCHED, CFG_DOM_ENERGY, CFG_DOM_COUNT };

#define CFG_DOM_CAP 128 /* ids per domain (each domain's header asserts that its parameters fit) */
/* Every parameter id (a domain's CFG_<name>) is below CFG_ID_LIMIT; not
 * every id below it is a parameter. */
#define CFG_ID_LIMIT (CFG_DOM_COUNT * CFG_DOM_CAP)

struct cfg_param_info {
	const char *name; /* NULL: no parameter has this id */
	enum cfg_type type;
	const char *def;
	double min, max;
	const char *help;
};
extern const struct cfg_param_info cfg_params[CFG_ID_LIMIT];

union cfg_value {
	int64_t i;                /* INT, BOOL, ENUM (index into the value list) */
	double f;                 /* FLOAT */
	char s[CFG_STRING_MAX];   /* STRING */
	struct {
		int32_t n;
		int32_t v[CFG_LIST_MAX];
	} l;                      /* INTLIST (each entry in MIN..MAX; n is the default's count) */
};

struct ws_config {
	union cfg_value v[CFG_ID_LIMIT];
	/* where a config file set each value, for messages (no model code
	 * reads it): the line in `file`, 0 if the value is a default or was
	 * set otherwise (wsConfigSet) */
	uint32_t line[CFG_ID_LIMIT];
	char file[256];
};

/* p: a parameter id, CFG_<name> of a domain's header */
static inline int64_t cfg_int(const struct ws_config *c, int p) { return c->v[p].i; }
static inline double cfg_float(const struct ws_config *c, int p) { return c->v[p].f; }
static inline const char *cfg_str(const struct ws_config *c, int p) { return c->v[p].s; }
/* Entry k of an INTLIST, k below its default's count of entries (a value
 * with another count is refused when it is set). */
static inline int32_t cfg_list(const struct ws_config *c, int p, int k) { return c->v[p].l.v[k]; }
/* Text of an ENUM parameter's current value. */
const char *cfg_enum_name(const struct ws_config *c, int p, char *buf, size_t bufsz);
/* 64-bit FNV-1a hash of the effective configuration (canonical text form). */
uint64_t cfg_hash(const struct ws_config *c);
/* Write the configuration as a JSON object (no trailing newline). */
void cfg_write_json(const struct ws_config *c, FILE *out);
/* Whether c is a live ws_config handle (util/handles.h): made by
 * wsConfigCreate or wsConfigClone and not destroyed, or a live simulator's
 * configuration (wsSimConfig). */
bool cfg_handle_ok(const struct ws_config *c);
/* The id of the parameter named key, or -1. */
int cfg_find(const char *key);
/* Parse `value` into parameter `key` of c: an unknown key, a value of the
 * wrong type or out of the table's range is an error with a message in err.
 * Only what the table knows: wsConfigSet (gpu/config_api.c) adds the checks
 * of values that need the policy registries (config_check_param). */
ws_result cfg_set(struct ws_config *c, const char *key, const char *value, char *err, size_t errsz);
/* Open a config file for reading (wsConfigLoadFile): a regular file, or a
 * FIFO whose writer writes within a few seconds; NULL with *r and a message
 * in err otherwise. */
FILE *cfg_open_file(const char *path, ws_result *r, char *err, size_t errsz);
/* How cfg_load_stream sets each line's parameter (wsConfigSet). */
typedef ws_result (*cfg_setter)(struct ws_config *c, const char *key, const char *value, char *err, size_t errsz);
/* The "key = value" lines of an open config file (wsConfigLoadFile after its
 * checks of the file; the config fuzz target's entry point), each set with
 * `set`.  path names it in messages. */
ws_result cfg_load_stream(struct ws_config *c, FILE *f, const char *path, cfg_setter set, char *err, size_t errsz);
/* Prefix a whole-configuration error message (wsConfigCheck's) with the
 * file:line that set the first parameter it names, if a config file set it,
 * and add where a config file set the other parameters it names. */
void cfg_error_locate(const struct ws_config *c, char *err, size_t errsz);

#endif
