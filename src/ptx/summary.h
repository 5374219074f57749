/*
 * summary.h -- a human-readable summary of a parsed PTX module: version,
 * target, each function's instructions, blocks, registers, frame, shared
 * memory and parameters, and the module-scope variables.
 */
#ifndef WARPSIM_PTX_SUMMARY_H
#define WARPSIM_PTX_SUMMARY_H

#include <stdio.h>

struct ptx_module;

void ptx_module_print_summary(const struct ptx_module *ir, FILE *out);

#endif
