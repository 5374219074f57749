/*
 * operand.c -- reading source operands for a whole warp: registers,
 * immediates, special registers (%tid, %laneid, %lanemask_*, ...) and
 * symbol addresses.  Models the operand-read datapath functionally.
 */
#include "func/func.h"
#include "func/operand.h"

uint64_t func_var_addr(const struct func_exec *x, int32_t sym)
{
	const struct ptx_var *v = &x->mod->vars[sym];
	const struct func_launch *L = x->launch;
	switch (v->space) {
	case SPACE_GLOBAL: return L->global_base + v->addr;
	case SPACE_CONST: return v->addr;
	case SPACE_SHARED: return v->is_extern ? L->dyn_shared_off : v->addr;
	case SPACE_LOCAL: return x->frame_local_base + v->addr;
	case SPACE_PARAM: return v->is_kparam ? v->addr : x->frame_local_base + v->addr;
	default: return v->addr;
	}
}

static uint64_t sreg_value(const struct func_exec *x, unsigned sreg, unsigned comp, unsigned lane)
{
	const struct func_launch *L = x->launch;
	const struct func_cta *c = x->cta;
	const struct func_warp *w = x->warp;
	uint32_t t = w->index * L->ws + lane; /* linear thread id in CTA */
	switch (sreg) {
	case SREG_TID:
		return comp == 0 ? t % L->block[0] : comp == 1 ? (t / L->block[0]) % L->block[1]
							   : t / (L->block[0] * L->block[1]);
	case SREG_NTID: return L->block[comp < 3 ? comp : 0];
	case SREG_CTAID: return c->id[comp < 3 ? comp : 0];
	case SREG_NCTAID: return L->grid[comp < 3 ? comp : 0];
	case SREG_LANEID: return lane & 31; /* a PTX warp has at most 32 lanes: ws = 64 holds two */
	case SREG_WARPID: return w->index;
	case SREG_NWARPID: return L->max_warps_per_sm;
	case SREG_SMID: return c->sm;
	case SREG_NSMID: return L->num_sms;
	case SREG_GRIDID: return L->gridid;
	case SREG_CLOCK: return L->clock & 0xffffffffu;
	case SREG_CLOCK_HI: return L->clock >> 32;
	case SREG_CLOCK64: return L->clock;
	case SREG_GLOBALTIMER: return L->clock;
	case SREG_GLOBALTIMER_LO: return L->clock & 0xffffffffu;
	case SREG_GLOBALTIMER_HI: return L->clock >> 32;
	/* 32-bit masks within the lane's PTX warp (its 32-lane half when ws = 64),
	 * consistent with ballot/activemask/match */
	case SREG_LANEMASK_EQ: return 1u << (lane & 31);
	case SREG_LANEMASK_LT: return (1u << (lane & 31)) - 1;
	case SREG_LANEMASK_LE: return (uint32_t)((2ull << (lane & 31)) - 1);
	case SREG_LANEMASK_GT: return (uint32_t)~((2ull << (lane & 31)) - 1);
	case SREG_LANEMASK_GE: return (uint32_t)~((1ull << (lane & 31)) - 1);
	case SREG_DYNAMIC_SMEM_SIZE: return (L->rsmem ? L->rsmem_off : L->shared_total) - L->dyn_shared_off;
	case SREG_TOTAL_SMEM_SIZE: return L->rsmem ? L->rsmem_off : L->shared_total;
	/* WARP_SZ: threads per PTX warp -- the configured warp size, at most 32:
	 * a 64-lane warp holds two PTX warps, as %laneid and the lane masks say */
	case SREG_WARP_SZ: return L->ws < 32 ? L->ws : 32;
	/* %envreg1:%envreg2 (high:low) hold the grid-sync workspace address of a
	 * cooperative launch; the other driver registers read 0 */
	case SREG_ENVREG: return comp == 1 ? L->grid_ws >> 32 : comp == 2 ? L->grid_ws & 0xffffffffu : 0;
	case SREG_RSMEM_BEGIN: return L->rsmem_off;
	case SREG_RSMEM_END: return L->rsmem_off + PTX_RSMEM_BYTES;
	case SREG_RSMEM_CAP: return PTX_RSMEM_BYTES;
	case SREG_RSMEM_OFF: return L->rsmem_off + comp * (PTX_RSMEM_BYTES / 2);
	default: return 0;
	}
}

const uint64_t *func_src_any(const struct func_exec *x, const struct ptx_operand *o, uint64_t *tmp)
{
	unsigned ws = x->ws;
	switch (o->kind) {
	case OPD_REG:
		if (!o->neg)
			return x->regs + (size_t)o->reg * ws;
		{
			const uint64_t *r = x->regs + (size_t)o->reg * ws;
			for (unsigned l = 0; l < ws; l++)
				tmp[l] = !r[l];
			return tmp;
		}
	case OPD_IMM:
		for (unsigned l = 0; l < ws; l++)
			tmp[l] = o->imm;
		return tmp;
	case OPD_SREG:
		for (unsigned l = 0; l < ws; l++)
			tmp[l] = sreg_value(x, o->sreg, o->comp, l);
		return tmp;
	case OPD_SYM: {
		uint64_t a = func_var_addr(x, o->sym) + (uint64_t)o->offset;
		for (unsigned l = 0; l < ws; l++)
			tmp[l] = a;
		return tmp;
	}
	case OPD_FUNC:
		for (unsigned l = 0; l < ws; l++)
			tmp[l] = WS_FUNC_WINDOW + (uint64_t)o->func * 16;
		return tmp;
	default:
		for (unsigned l = 0; l < ws; l++)
			tmp[l] = 0;
		return tmp;
	}
}
