/* bench_common.c -- shared helpers for the bundled benchmarks' host drivers.
 * Uses only the public API (include/warpsim.h), so the CUDA host programs of
 * `make cuda-hosts` (tools/cuda-hosts/) link it unchanged; the spin-branch
 * notes, which need the simulator's PTX, are resolved in bench_sib.c. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

static const char *const size_names[WS_SIZE_COUNT] = {"tiny", "small", "paper", "paper-kaws"};

const char *const ws_bench_suite_barrier[] = {"sp", "ms", "fwt", "mm", "stn", "octp", "bt",
					      "pvc", "pvr", "ss", "mg", "histo", "srad2", NULL};
const char *const ws_bench_suite_syncfree[] = {"hotspot", "backprop", "pathfinder", "bfs", "kmeans", "nw",
					       "gaussian", "streamcluster", "nn", "lud", "srad1", "3mm", NULL};

const char *const ws_bench_suite_bows[] = {"ht", "atm", "bhtb", "bhst", "cpds", "nw1", "nw2", "tsp", NULL};
/* KAWS paper, section 5 (SC PF BT HS MRI QRG 3DCV 3MM RN) */
const char *const ws_bench_suite_kaws[] = {"streamcluster", "pathfinder", "bpt", "hotspot", "mriq", "qrg",
					   "conv3d", "3mm", "resnet", NULL};
/* DWR paper, Table 1 (BFS BKP CP DYN GAS HSPT FWAL MP MTM MU NNC NQU SC NW); DYN is Rodinia dynproc = pathfinder, SC the SDK scan,
 * NNC the early, text-parsing form of the nearest-neighbour search (nnc; nn is its later form, in syncfree) */
const char *const ws_bench_suite_dwr[] = {"bfs", "backprop", "cp", "pathfinder", "gaussian", "hotspot", "fwt",
					  "mp", "mm", "mu", "nnc", "nqu", "scan", "nw", NULL};
const char *const ws_bench_suite_names[] = {"barrier", "syncfree", "bows", "kaws", "dwr", NULL};

const char *const *ws_bench_suite(const char *name)
{
	if (strcmp(name, "barrier") == 0)
		return ws_bench_suite_barrier;
	if (strcmp(name, "syncfree") == 0)
		return ws_bench_suite_syncfree;
	if (strcmp(name, "bows") == 0)
		return ws_bench_suite_bows;
	if (strcmp(name, "kaws") == 0)
		return ws_bench_suite_kaws;
	if (strcmp(name, "dwr") == 0)
		return ws_bench_suite_dwr;
	return NULL;
}

const char *ws_bench_size_name(enum ws_bench_size s) { return (unsigned)s < WS_SIZE_COUNT ? size_names[s] : "?"; }

int ws_bench_size_parse(const char *s)
{
	for (int i = 0; i < WS_SIZE_COUNT; i++)
		if (strcmp(s, size_names[i]) == 0)
			return i;
	return -1;
}

enum ws_bench_size ws_bench_size_resolve(const struct ws_bench_info *b, enum ws_bench_size s)
{
	return s == WS_SIZE_PAPER_KAWS && !b->sizes[WS_SIZE_PAPER_KAWS] ? WS_SIZE_PAPER : s;
}

const struct ws_bench_info *ws_bench_find(const char *name)
{
	for (int i = 0; ws_bench_table[i]; i++)
		if (strcmp(ws_bench_table[i]->name, name) == 0)
			return ws_bench_table[i];
	return NULL;
}

const char *ws_bench_names(char *buf, size_t sz)
{
	size_t n = 0;
	if (sz)
		buf[0] = '\0';
	for (int i = 0; ws_bench_table[i] && n < sz; i++) {
		int k = snprintf(buf + n, sz - n, "%s%s", i ? " " : "", ws_bench_table[i]->name);
		if (k < 0 || (size_t)k >= sz - n)
			break;
		n += (size_t)k;
	}
	return buf;
}

ws_result bench_fail(ws_sim *sim, struct ws_bench_out *out, ws_result r, const char *what)
{
	const char *detail = sim ? wsSimLastError(sim) : "";
	snprintf(out->msg, sizeof out->msg, "%s: %s%s%s", what, wsGetErrorString(r), *detail ? ": " : "", detail);
	return r;
}

ws_result ws_bench_run(const struct ws_bench_info *info, ws_sim *sim, ws_module *mod, enum ws_bench_size size,
		       struct ws_bench_out *out)
{
	ws_result ar = ws_bench_annotate_sibs(info, mod, out);
	if (ar != WS_SUCCESS)
		return ar;
	char buf[32];
	const char *v = wsConfigGet(wsSimConfig(sim), "warp_size", buf, sizeof buf);
	unsigned ws = v ? (unsigned)strtoul(v, NULL, 10) : 32;
	if (ws >= info->min_warp_size)
		return info->run(sim, mod, ws_bench_size_resolve(info, size), out);
	snprintf(out->msg, sizeof out->msg,
		 "%s: its kernels are warp-synchronous (written for %u-thread warps: shuffles, ballots, one warp per "
		 "item) and need warp_size >= %u; this configuration has warp_size = %u",
		 info->name, info->min_warp_size, info->min_warp_size, ws);
	return WS_ERROR_INVALID_VALUE;
}

ws_result bench_mismatch(struct ws_bench_out *out, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(out->msg, sizeof out->msg, fmt, ap);
	va_end(ap);
	return WS_ERROR_VERIFY_FAILED;
}

int bench_close(double expect, double got, double rel, double abs)
{
	if (isnan(expect) || isnan(got))
		return isnan(expect) && isnan(got);
	double d = fabs(expect - got);
	return d <= abs || d <= rel * fabs(expect);
}
