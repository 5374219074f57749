/*
 * config_api.c -- the configuration calls of the public API that check
 * values (include/warpsim.h): wsConfigSet, wsConfigLoadFile, wsConfigCheck.
 *
 * Models no hardware.  The parameter table (src/config) parses a value and
 * checks its type and range; a few values can only be checked against what
 * the layers above it know -- a scheduling or fetch policy name against the
 * registries, the warp size against the widths the SIMT model implements.
 * config_check_param is that check, one per parameter: wsConfigSet runs it
 * when a value is set (so `--set`, config files and sweep jobs are refused at
 * the line that is wrong) and wsConfigCheck (which wsSimCreate runs) runs it
 * for every parameter, before the checks that involve several parameters.
 */
#include <stdio.h>
#include <string.h>

#include "config/config.h"
#include "config/params.h"
#include "core/core_params.h"
#include "mem/memsys.h"
#include "gpu/sim.h"
#include "sched/sched.h"
#include "util/handles.h"

/* The check of parameter id's value in c that the table cannot make
 * (WS_SUCCESS for every other parameter); a message naming the parameter,
 * the value and the valid choices in err. */
static ws_result config_check_param(const struct ws_config *c, int id, char *err, size_t errsz)
{
	char msg[1024];
	switch (id) {
	case CFG_warp_size: {
		int64_t ws = cfg_int(c, CFG_warp_size);
		if (ws == 8 || ws == 16 || ws == 32 || ws == 64)
			return WS_SUCCESS;
		snprintf(err, errsz, "parameter 'warp_size': %lld is not 8, 16, 32 or 64", (long long)ws);
		return WS_ERROR_INVALID_CONFIG;
	}
	case CFG_sched: {
		struct sched_choice ch;
		if (sched_resolve(cfg_str(c, CFG_sched), &ch, msg, sizeof msg))
			return WS_SUCCESS;
		snprintf(err, errsz, "parameter 'sched': %s", msg);
		return WS_ERROR_INVALID_CONFIG;
	}
	case CFG_fetch: {
		if (fetch_policy_find(cfg_str(c, CFG_fetch)))
			return WS_SUCCESS;
		size_t n = (size_t)snprintf(msg, sizeof msg, "parameter 'fetch': unknown fetch policy '%s' (known:",
					    cfg_str(c, CFG_fetch));
		for (int i = 0; fetch_policies[i] && n < sizeof msg; i++)
			n += (size_t)snprintf(msg + n, sizeof msg - n, " %s", fetch_policies[i]->name);
		if (n < sizeof msg)
			snprintf(msg + n, sizeof msg - n, ")");
		snprintf(err, errsz, "%s", msg);
		return WS_ERROR_INVALID_CONFIG;
	}
	default: return WS_SUCCESS;
	}
}

/* err, or a scratch buffer when the caller passed none. */
#define ERRBUF(err, errsz, scratch)                                                                                  \
	do {                                                                                                         \
		if (!(err) || !(errsz)) {                                                                            \
			(err) = (scratch);                                                                           \
			(errsz) = sizeof(scratch);                                                                   \
		}                                                                                                    \
		(err)[0] = 0;                                                                                        \
	} while (0)

/* WS_SUCCESS if c is a live configuration handle, else the reason in err. */
static ws_result config_handle(const ws_config *c, const char *call, char *err, size_t errsz)
{
	enum handle_type found;
	enum handle_state st = handle_lookup(c, HANDLE_CONFIG, NULL, &found);
	if (st == HANDLE_LIVE)
		return WS_SUCCESS;
	handle_describe(st, HANDLE_CONFIG, found, call, err, errsz);
	return WS_ERROR_INVALID_HANDLE;
}

/* Set one parameter: the table's parse and range check, then its
 * config_check_param; a value that fails leaves the old one. */
static ws_result config_set(struct ws_config *c, const char *key, const char *value, char *err, size_t errsz)
{
	int id = cfg_find(key);
	union cfg_value old;
	if (id >= 0)
		old = c->v[id];
	ws_result r = cfg_set(c, key, value, err, errsz);
	if (r == WS_SUCCESS && (r = config_check_param(c, id, err, errsz)) != WS_SUCCESS)
		c->v[id] = old;
	return r;
}

ws_result wsConfigSet(ws_config *c, const char *key, const char *value, char *err, size_t errsz)
{
	char scratch[8];
	ERRBUF(err, errsz, scratch);
	ws_result r = config_handle(c, "wsConfigSet", err, errsz);
	if (r != WS_SUCCESS)
		return r;
	if (!key || !value) {
		snprintf(err, errsz, "wsConfigSet: NULL %s", key ? "value" : "key");
		return WS_ERROR_INVALID_VALUE;
	}
	return config_set(c, key, value, err, errsz);
}

ws_result wsConfigLoadFile(ws_config *c, const char *path, char *err, size_t errsz)
{
	char scratch[8];
	ERRBUF(err, errsz, scratch);
	ws_result r = config_handle(c, "wsConfigLoadFile", err, errsz);
	if (r != WS_SUCCESS)
		return r;
	if (!path) {
		snprintf(err, errsz, "wsConfigLoadFile: NULL path");
		return WS_ERROR_INVALID_VALUE;
	}
	FILE *f = cfg_open_file(path, &r, err, errsz);
	if (!f)
		return r;
	r = cfg_load_stream(c, f, path, config_set, err, errsz);
	fclose(f);
	return r;
}

ws_result wsConfigCheck(const ws_config *cfg, char *err, size_t errsz)
{
	char scratch[8];
	ERRBUF(err, errsz, scratch);
	ws_result r = config_handle(cfg, "wsConfigCheck", err, errsz);
	if (r != WS_SUCCESS)
		return r;
	r = config_check(cfg, err, errsz);
	if (r != WS_SUCCESS)
		cfg_error_locate(cfg, err, errsz); /* file:line of a parameter a config file set */
	return r;
}

uint64_t wsConfigHash(const ws_config *cfg)
{
	return cfg_handle_ok(cfg) ? cfg_hash(cfg) : 0;
}

ws_result config_check(const struct ws_config *cfg, char *err, size_t errsz)
{
	ws_result r;
	for (int id = 0; id < CFG_ID_LIMIT; id++)
		if (cfg_params[id].name && (r = config_check_param(cfg, id, err, errsz)) != WS_SUCCESS)
			return r;
	int64_t ws = cfg_int(cfg, CFG_warp_size);
	int64_t dwr = cfg_int(cfg, CFG_dwr_max_warp);
	if (dwr && (dwr % ws || dwr / ws < 2 || dwr / ws > 8 || (dwr / ws & (dwr / ws - 1)))) {
		snprintf(err, errsz,
			 "parameter 'dwr_max_warp': %lld is not 2, 4 or 8 times warp_size (%lld) "
			 "(DWR-16/32/64 run with warp_size = 8, the sub-warp)",
			 (long long)dwr, (long long)ws);
		return WS_ERROR_INVALID_CONFIG;
	}
	if (dwr && cfg_int(cfg, CFG_dwr_combine_distance) > dwr / ws) {
		snprintf(err, errsz, "parameter 'dwr_combine_distance': %lld is larger than the partner group (%lld sub-warps)",
			 (long long)cfg_int(cfg, CFG_dwr_combine_distance), (long long)(dwr / ws));
		return WS_ERROR_INVALID_CONFIG;
	}
	if (cfg_int(cfg, CFG_dwr_ilt_entries) % cfg_int(cfg, CFG_dwr_ilt_ways)) {
		snprintf(err, errsz, "parameter 'dwr_ilt_entries': %lld is not a multiple of dwr_ilt_ways (%lld)",
			 (long long)cfg_int(cfg, CFG_dwr_ilt_entries), (long long)cfg_int(cfg, CFG_dwr_ilt_ways));
		return WS_ERROR_INVALID_CONFIG;
	}
	if (core_opcoll_pooled(cfg) && (cfg_int(cfg, CFG_sub_core) || cfg_int(cfg, CFG_opcoll_generic))) {
		snprintf(err, errsz, "parameter 'opcoll_units': per-SM collectors shared by the schedulers cannot be "
			 "combined with %s (set opcoll_units = 0,0,0,0,0,0)",
			 cfg_int(cfg, CFG_sub_core) ? "sub_core, whose collectors belong to a scheduler" : "opcoll_generic");
		return WS_ERROR_INVALID_CONFIG;
	}
	if (!memsys_check_config(cfg, err, errsz))
		return WS_ERROR_INVALID_CONFIG;
	return WS_SUCCESS;
}
