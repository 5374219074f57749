/*
 * bench_sib.c -- the bundled benchmarks' spin-inducing branch notes (struct
 * ws_sib_note, bench.h) located in the simulator's PTX of a loaded module:
 * each note must name a backward bra of its function, and ws_bench_run hands
 * them to the simulator before every run.  Kept apart from bench_common.c
 * because it reads the module's IR (gpu/sim.h); the CUDA host programs
 * (tools/cuda-hosts/) have no simulator and define ws_bench_annotate_sibs
 * themselves.
 */
#include <stdio.h>
#include <string.h>

#include "bench.h"
#include "gpu/sim.h"

int ws_bench_sib_pcs(const struct ws_bench_info *b, const ws_module *mod, struct ws_sib_pc *pcs, int max, char *err,
		     size_t errsz)
{
	int n = 0;
	if (errsz)
		err[0] = '\0';
	for (const struct ws_sib_note *s = b->sibs; s && s->func; s++, n++) {
		const struct ptx_module *ir = mod->ir;
		int fi = -1;
		for (uint32_t f = 0; f < ir->nfuncs; f++)
			if (strcmp(ir->funcs[f].name, s->func) == 0)
				fi = (int)f;
		if (fi < 0) {
			snprintf(err, errsz, "%s/kernel.ptx:%u: SIB note names function '%s', which the PTX lacks", b->name,
				 s->line, s->func);
			return -1;
		}
		const struct ptx_function *fn = &ir->funcs[fi];
		int pc = -1;
		for (uint32_t k = 0; k < fn->ninsns; k++)
			if (fn->insns[k].line == s->line)
				pc = (int)k;
		if (pc < 0 || fn->insns[pc].op != OP_BRA) {
			snprintf(err, errsz, "%s/kernel.ptx:%u: SIB note (%s): expected a bra instruction of %s on this line",
				 b->name, s->line, s->loop, s->func);
			return -1;
		}
		int32_t target = -1;
		for (unsigned k = 0; k < fn->insns[pc].nopd; k++)
			if (fn->insns[pc].opd[k].kind == OPD_LABEL)
				target = fn->insns[pc].opd[k].target;
		if (target < 0 || target > pc) {
			snprintf(err, errsz,
				 "%s/kernel.ptx:%u: SIB note (%s): the bra goes forward (pc %d -> %d), a SIB is a backward "
				 "branch",
				 b->name, s->line, s->loop, pc, target);
			return -1;
		}
		for (int k = 0; k < n && k < max; k++)
			if (pcs[k].fn == fi && pcs[k].pc == pc) {
				snprintf(err, errsz, "%s/kernel.ptx:%u: SIB noted twice", b->name, s->line);
				return -1;
			}
		if (n < max)
			pcs[n] = (struct ws_sib_pc){.fn = fi, .pc = pc, .line = s->line};
	}
	return n;
}

ws_result ws_bench_annotate_sibs(const struct ws_bench_info *info, ws_module *mod, struct ws_bench_out *out)
{
	enum { MAXSIB = 64 };
	struct ws_sib_pc pcs[MAXSIB];
	char err[256];
	int n = ws_bench_sib_pcs(info, mod, pcs, MAXSIB, err, sizeof err);
	if (n < 0 || n > MAXSIB) {
		snprintf(out->msg, sizeof out->msg, "%s", n < 0 ? err : "too many spin-branch notes");
		return WS_ERROR_INVALID_VALUE;
	}
	for (int i = 0; i < n; i++) {
		int first = 1;
		for (int j = 0; j < i; j++)
			first &= pcs[j].fn != pcs[i].fn;
		if (!first)
			continue;
		int32_t list[MAXSIB];
		unsigned m = 0;
		for (int j = i; j < n; j++)
			if (pcs[j].fn == pcs[i].fn)
				list[m++] = pcs[j].pc;
		ws_function *f;
		ws_result r = wsModuleGetFunction(&f, mod, info->sibs[i].func);
		if (r == WS_SUCCESS)
			r = wsFunctionSetSpinBranches(f, list, m);
		if (r != WS_SUCCESS) {
			snprintf(out->msg, sizeof out->msg, "%s: spin-branch notes of %s: %s", info->name, info->sibs[i].func,
				 wsGetErrorString(r));
			return r;
		}
	}
	return WS_SUCCESS;
}
