/*
 * summary.c -- a parsed module in words (see summary.h): what
 * wsModulePrintSummary and `warpsim ptx FILE` print.  Models no hardware.
 */
#include "ptx/summary.h"

#include "ptx/ir.h"

void ptx_module_print_summary(const struct ptx_module *ir, FILE *out)
{
	fprintf(out, "module %s: PTX %u.%u, target %s, %u-bit addresses\n", ir->filename ? ir->filename : "<ptx>",
		ir->version_major, ir->version_minor, ir->target, ir->address_size);
	for (uint32_t i = 0; i < ir->nfuncs; i++) {
		const struct ptx_function *f = &ir->funcs[i];
		fprintf(out, "  %s %s%s\n", f->is_entry ? ".entry" : ".func", f->name,
			f->is_extern ? " (declaration)" : "");
		if (f->is_extern)
			continue;
		fprintf(out, "    %u instructions, %u basic blocks, %u virtual registers (~%u 32-bit), frame %llu B",
			f->ninsns, f->nblocks, f->nregs, f->regs_per_thread, (unsigned long long)f->frame_size);
		if (f->is_entry)
			fprintf(out, ", static shared %llu B, params %llu B", (unsigned long long)f->shared_static,
				(unsigned long long)f->kparam_size);
		if (f->regs_src != PTX_REGS_ESTIMATE) /* ptxas's count (ptx/regs.h) */
			fprintf(out, ", ptxas %u registers (%s %s)", f->regs_ptxas, ptx_regs_src_name(f->regs_src),
				ir->regs_origin[f->regs_src]);
		fputc('\n', out);
		for (uint32_t p = 0; p < f->nparams; p++) {
			const struct ptx_var *v = &ir->vars[f->params[p]];
			fprintf(out, "    param %u: %s .%s, %llu B\n", p, v->name, ptx_type_name[v->type],
				(unsigned long long)v->size);
		}
		for (uint32_t p = 0; p < f->nrets; p++) {
			const struct ptx_var *v = &ir->vars[f->rets[p]];
			fprintf(out, "    return %u: %s .%s, %llu B\n", p, v->name, ptx_type_name[v->type],
				(unsigned long long)v->size);
		}
	}
	for (uint32_t i = 0; i < ir->nvars; i++) {
		const struct ptx_var *v = &ir->vars[i];
		if (v->func >= 0)
			continue;
		static const char *const opaque[] = {"", " .texref", " .surfref", " .samplerref"};
		fprintf(out, "  .%s%s %s: %llu B%s\n", ptx_space_name[v->space], opaque[v->opaque & 3], v->name,
			(unsigned long long)v->size, v->is_extern ? " (extern, dynamic)" : "");
	}
}
