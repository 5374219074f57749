/*
 * regs.h -- registers per thread as ptxas assigns them, for the occupancy
 * (gpu/occupancy.c), from every source warpsim knows, in this order:
 *   1. the SASS of a program's fat binary (EIATTR_REGCOUNT of its cubin;
 *      src/cudart/fatbin.c reads it and hands it to the load as .regs text);
 *   2. a committed register file: KERNEL.regs beside a PTX file loaded by
 *      path, or for the bundled benchmarks bench/<b>/kernel.regs (written by
 *      `make regs`, compiled in and found by the PTX's hash);
 *   3. ptxas, when the configuration asks for it (reg_counts = ptxas): its
 *      result cached per PTX hash in $XDG_CACHE_HOME/warpsim (or
 *      ~/.cache/warpsim), else ptxas run now ($WARPSIM_PTXAS, else ptxas on
 *      PATH, else /usr/local/cuda/bin/ptxas);
 *   4. else the PTX estimate (analysis.c's regs_per_thread), with a warning
 *      when ptxas counts were asked for.
 * Models no hardware: this is the loader's knowledge of what the real
 * compiler does.  A failure of any source (a malformed or stale file, a
 * cache that cannot be read or written, ptxas failing) is a module warning
 * (wsModuleWarnings) and the next source is tried; never an error.
 *
 * The .regs text format (files, cache, SASS hand-over): '#' comments; a
 * comment holding "fnv1a64 HEX" names the hash of the PTX the counts were
 * made from (hash_fnv1a64 of the whole text) and is checked when present;
 * every other line is "KERNEL REGISTERS".
 */
#ifndef WARPSIM_PTX_REGS_H
#define WARPSIM_PTX_REGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ptx_module;

enum ptx_regs_src {
#define R(id, name, label) PTX_REGS_##id,
#include "ptx/regs_sources.def"
#undef R
	PTX_REGS_NSRC
};

/* The architecture ptxas is run for (and `make regs` ran it for): the lowest
 * CUDA 13 supports (sm_75; the GTX480's sm_20 is long gone), or the PTX's
 * own .target when that is higher. */
#define PTX_REGS_PTXAS_ARCH 75
/* How long ptxas may run before it is killed (WARPSIM_PTXAS_TIMEOUT_S sets it). */
#define PTX_REGS_PTXAS_TIMEOUT_S 120

const char *ptx_regs_src_name(unsigned src);
const char *ptx_regs_src_label(unsigned src);

/* Give m's kernels without a count yet (regs_src ESTIMATE) the counts of
 * .regs text `text`, marked `src` with `origin` (a file name, "sm_75"; kept
 * in m->regs_origin[src]).  ptx_hash: the module's PTX hash, checked against
 * the text's "fnv1a64" comment.  strict: a kernel the module lacks is an
 * error (files); otherwise it is skipped (a fat binary's SASS covers every
 * translation unit).  Returns the kernels given a count, or -1 with err (and
 * nothing applied). */
int ptx_regs_apply(struct ptx_module *m, const char *text, enum ptx_regs_src src, const char *origin, uint64_t ptx_hash,
                   bool strict, char *err, size_t errsz);

/* Whether some defined kernel of m has no real count yet. */
bool ptx_regs_missing(const struct ptx_module *m);

/* Every source of the chain after the SASS (the caller applies that first):
 * `path` the PTX file's path (NULL for text), `ptx`/`n` its text; `ptxas`:
 * whether to use the ptxas cache and ptxas (reg_counts = ptxas).  Problems
 * become warnings of m. */
void ptx_regs_resolve(struct ptx_module *m, const char *path, const char *ptx, size_t n, bool ptxas);

/* Append one "FILE: warning: ..." line to m's warnings (truncated when full). */
void ptx_module_warn(struct ptx_module *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
