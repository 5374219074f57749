/*
 * occupancy.c -- CTAs of a launch per SM (see occupancy.h).
 */
#include "gpu/occupancy.h"

#include <stdio.h>
#include <string.h>

#include "config/config.h"
#include "config/params.h"
#include "ptx/ir.h"

/* CTAs of `warps` warps, `regs_per_thread` registers and `shared` bytes of
 * shared memory that fit on one SM; 0 (with *why) if even one does not. */
static uint32_t sm_limit(const struct ws_config *cfg, uint32_t warps, uint32_t regs_per_thread, uint64_t shared,
			 const char **why)
{
	uint32_t n = (uint32_t)cfg_int(cfg, CFG_max_ctas_per_sm);
	*why = "max_ctas_per_sm";
	uint32_t t = (uint32_t)(cfg_int(cfg, CFG_max_threads_per_sm) / (int64_t)(warps * cfg_int(cfg, CFG_warp_size)));
	if (t < n) {
		n = t;
		*why = "max_threads_per_sm";
	}
	uint32_t w = (uint32_t)(cfg_int(cfg, CFG_max_warps_per_sm) / warps);
	if (w < n) {
		n = w;
		*why = "max_warps_per_sm";
	}
	uint64_t unit = (uint64_t)cfg_int(cfg, CFG_reg_alloc_unit);
	uint64_t regs = (regs_per_thread + unit - 1) / unit * unit * warps * (uint64_t)cfg_int(cfg, CFG_warp_size);
	if (regs) {
		uint64_t r = (uint64_t)cfg_int(cfg, CFG_regs_per_sm) / regs;
		if (r < n) {
			n = (uint32_t)r;
			*why = "regs_per_sm";
		}
	}
	if (shared) {
		uint64_t s = (uint64_t)cfg_int(cfg, CFG_shmem_per_sm) / shared;
		if (s < n) {
			n = (uint32_t)s;
			*why = "shmem_per_sm";
		}
	}
	return n;
}

uint32_t occupancy_regs(const struct ws_config *cfg, const struct ptx_function *k, uint32_t warps, uint8_t *src)
{
	uint32_t rpt = (uint32_t)cfg_int(cfg, CFG_regs_per_thread);
	char mode[16];
	*src = PTX_REGS_CONFIG;
	if (rpt)
		return rpt;
	if (k->regs_src != PTX_REGS_ESTIMATE &&
	    strcmp(cfg_enum_name(cfg, CFG_reg_counts, mode, sizeof mode), "ptxas") == 0) {
		*src = k->regs_src;
		return k->regs_ptxas;
	}
	*src = PTX_REGS_ESTIMATE;
	rpt = k->regs_per_thread;
	/* __launch_bounds__(threads, minBlocks) emits .minnctapersm: like ptxas, limit
	 * registers so that many CTAs fit on an SM */
	uint64_t want = (uint64_t)k->minnctapersm * warps * (uint64_t)cfg_int(cfg, CFG_warp_size);
	if (k->minnctapersm && want && (uint64_t)cfg_int(cfg, CFG_regs_per_sm) / want < rpt)
		rpt = (uint32_t)((uint64_t)cfg_int(cfg, CFG_regs_per_sm) / want);
	return rpt ? rpt : 1;
}

uint32_t occupancy_ctas_per_sm(const struct ws_config *cfg, const struct ptx_module *mod, const struct ptx_function *k,
			       uint64_t threads, uint64_t dyn_shared, struct cta_resources *r, const char **why)
{
	uint32_t ws = (uint32_t)cfg_int(cfg, CFG_warp_size);
	uint32_t warps = (uint32_t)((threads + ws - 1) / ws);
	/* dynamic shared memory starts after the static part, aligned to the
	 * largest .align of the module's .extern .shared variables (at least 16) */
	uint64_t dyn_align = 16;
	for (uint32_t i = 0; i < mod->nvars; i++) {
		const struct ptx_var *v = &mod->vars[i];
		if (v->space == SPACE_SHARED && v->is_extern && v->align > dyn_align)
			dyn_align = v->align;
	}
	uint64_t dyn_off = (k->shared_static + dyn_align - 1) / dyn_align * dyn_align;
	uint64_t shared_total = dyn_off + dyn_shared;
	if (mod->uses_rsmem) /* reserved shared memory (cooperative groups' scratch) after it, 16-aligned */
		shared_total = (shared_total + 15) / 16 * 16 + PTX_RSMEM_BYTES;
	uint8_t src;
	uint32_t rpt = occupancy_regs(cfg, k, warps, &src);
	*r = (struct cta_resources){.warps = warps,
	                            .regs_per_thread = rpt,
	                            .regs_src = src,
	                            .dyn_shared_off = dyn_off,
	                            .shared_total = shared_total};
	return sm_limit(cfg, warps, rpt, shared_total, why);
}

void occupancy_report(const struct ws_config *cfg, const struct ptx_module *mod, const struct ptx_function *k,
                      uint64_t threads, uint64_t dyn_shared, struct occupancy *o)
{
	struct cta_resources r;
	memset(o, 0, sizeof *o);
	o->ctas_per_sm = occupancy_ctas_per_sm(cfg, mod, k, threads, dyn_shared, &r, &o->limit);
	o->regs_per_thread = r.regs_per_thread;
	o->regs_src = r.regs_src;
	o->alt_src = PTX_REGS_ESTIMATE;
	if (r.regs_src == PTX_REGS_ESTIMATE && k->regs_src != PTX_REGS_ESTIMATE) {
		o->alt_regs = k->regs_ptxas;
		o->alt_src = k->regs_src;
		o->alt_ctas_per_sm = sm_limit(cfg, r.warps, k->regs_ptxas, r.shared_total, &o->alt_limit);
	}
	unsigned real = o->alt_regs ? o->alt_src : o->regs_src;
	if (real != PTX_REGS_ESTIMATE && real != PTX_REGS_CONFIG)
		snprintf(o->origin, sizeof o->origin, "%s", mod->regs_origin[real]);
}

void occupancy_format(const struct occupancy *o, char *buf, size_t bufsz)
{
	int n = snprintf(buf, bufsz, "%u CTA%s/SM, limited by %s; regs/thread %u (%s%s%s", o->ctas_per_sm,
	                 o->ctas_per_sm == 1 ? "" : "s", o->limit ? o->limit : "?", o->regs_per_thread,
	                 ptx_regs_src_label(o->regs_src), o->alt_regs || !o->origin[0] ? "" : " ",
	                 o->alt_regs ? "" : o->origin);
	if (n < 0 || (size_t)n >= bufsz)
		return;
	if (o->alt_regs)
		n +=
		    snprintf(buf + n, bufsz - (size_t)n, "; ptxas assigns %u (%s%s%s) -> %u CTA%s/SM, limited by %s",
		             o->alt_regs, ptx_regs_src_name(o->alt_src), o->origin[0] ? " " : "", o->origin,
		             o->alt_ctas_per_sm, o->alt_ctas_per_sm == 1 ? "" : "s", o->alt_limit ? o->alt_limit : "?");
	if (n >= 0 && (size_t)n < bufsz)
		snprintf(buf + n, bufsz - (size_t)n, ")");
}
