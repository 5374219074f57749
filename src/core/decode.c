/*
 * decode.c -- builds the decode tables (see decode.h).
 */
#include <stdlib.h>

#include "core/core_params.h"
#include "core/decode.h"

static bool writes_opd0(const struct ptx_insn *in)
{
	unsigned fl = ptx_opcode_table[in->op].flags;
	if (fl & OPF_NODST) /* stores, control flow, fences, cp.async, ... */
		return false;
	if (fl & OPF_BARRIER) /* bar.red writes its result */
		return in->mode == MODE_RED;
	if (in->op == OP_MBARRIER) /* mbarrier.init/inval write memory only */
		return in->mode != MODE_INIT && in->mode != MODE_INVAL;
	return in->nopd > 0;
}

static void add_reg(int16_t *list, uint8_t *n, unsigned cap, int32_t r)
{
	if (r < 0 || r > INT16_MAX)
		return;
	for (unsigned i = 0; i < *n; i++)
		if (list[i] == r)
			return;
	if (*n < cap)
		list[(*n)++] = (int16_t)r;
}

static void operand_regs(const struct ptx_operand *o, int16_t *list, uint8_t *n, unsigned cap)
{
	switch (o->kind) {
	case OPD_REG: add_reg(list, n, cap, o->reg); if (o->reg2 >= 0) add_reg(list, n, cap, o->reg2); break;
	case OPD_ADDR: if (o->abase == ABASE_REG) add_reg(list, n, cap, o->reg); break;
	case OPD_VEC:
		for (unsigned k = 0; k < o->nelem; k++)
			if (o->elem[k].kind == OPD_REG)
				add_reg(list, n, cap, o->elem[k].reg);
		if (o->reg2 >= 0) /* {...}|%p: a texture fetch's residency predicate */
			add_reg(list, n, cap, o->reg2);
		break;
	default: break;
	}
}

/* index into the add,max,mul,mad,div latency lists */
static int lat_index(enum ptx_lat l)
{
	switch (l) {
	case LAT_MAX: return 1;
	case LAT_MUL: return 2;
	case LAT_MAD: return 3;
	case LAT_DIV: return 4;
	default: return 0;
	}
}

/* lat_other: an add-class instruction that is not an add, sub or shfl (logic, shifts,
 * compares, moves, conversions, ...) takes lat_other cycles when it is set, as GPGPU-Sim's
 * default latency of the opcodes its set_opcode_and_latency does not list; else the add
 * latency (shfl keeps it: GPGPU-Sim gives shfl a latency of its own) */
static uint16_t lat_add_class(const struct ptx_insn *in, const struct ws_config *cfg, int64_t add_lat)
{
	int64_t other = cfg_int(cfg, CFG_lat_other);
	bool keep = in->op == OP_ADD || in->op == OP_ADDC || in->op == OP_SUB || in->op == OP_SUBC || in->op == OP_SHFL;
	return (uint16_t)(in->lat == LAT_ADD && !keep && other ? other : add_lat);
}

static void classify(struct dec_insn *d, const struct ptx_insn *in, const struct ws_config *cfg)
{
	enum ws_unit u = (enum ws_unit)in->unit;
	unsigned fl = ptx_opcode_table[in->op].flags;
	d->is_ctrl = (fl & (OPF_BRANCH | OPF_CALL | OPF_RET | OPF_EXIT)) != 0;
	d->is_barrier = (fl & OPF_BARRIER) != 0;
	d->is_mem = (fl & OPF_MEM) != 0;
	int li = lat_index((enum ptx_lat)in->lat);
	enum ptx_type t = (enum ptx_type)in->type;
	bool fp = t == PTX_T_F32 || t == PTX_T_F16 || t == PTX_T_F16X2 || t == PTX_T_BF16 || t == PTX_T_BF16X2;
	if (in->lat == LAT_CTRL) { /* branches, calls, barriers: the SP units at the branch latency */
		d->cu = UNIT_SP;
		d->lat = (uint16_t)cfg_int(cfg, CFG_lat_branch);
		d->ii = 1;
		return;
	}
	switch (u) {
	case UNIT_LDST:
		d->cu = UNIT_LDST;
		d->lat = 1;
		d->ii = 1;
		return;
	case UNIT_SFU:
		d->cu = cfg_int(cfg, CFG_num_sfu_units) ? UNIT_SFU : UNIT_SP;
		d->lat = (uint16_t)cfg_int(cfg, CFG_lat_sfu);
		d->ii = (uint16_t)cfg_int(cfg, CFG_ii_sfu);
		return;
	case UNIT_DP:
		d->cu = cfg_int(cfg, CFG_num_dp_units) ? UNIT_DP : UNIT_SP;
		d->lat = lat_add_class(in, cfg, cfg_list(cfg, CFG_lat_dp, li));
		d->ii = (uint16_t)cfg_list(cfg, CFG_ii_dp, li);
		return;
	case UNIT_TENSOR: /* mma, wmma.mma: a tensor-core unit, or the SP units when there is none */
		d->cu = cfg_int(cfg, CFG_num_tensor_units) ? UNIT_TENSOR : UNIT_SP;
		d->lat = (uint16_t)cfg_int(cfg, CFG_lat_tensor);
		d->ii = (uint16_t)cfg_int(cfg, CFG_ii_tensor);
		return;
	default: /* SP and INT classes: by the type computed in */
		if (fp) {
			d->cu = UNIT_SP;
			d->lat = lat_add_class(in, cfg, cfg_list(cfg, CFG_lat_fp, li));
			d->ii = (uint16_t)cfg_list(cfg, CFG_ii_fp, li);
		} else {
			d->cu = cfg_int(cfg, CFG_num_int_units) ? UNIT_INT : UNIT_SP;
			d->lat = lat_add_class(in, cfg, cfg_list(cfg, CFG_lat_int, li));
			d->ii = (uint16_t)cfg_list(cfg, CFG_ii_int, li);
		}
	}
}

struct dec_module *dec_module_create(const struct ptx_module *m, const struct ws_config *cfg)
{
	struct dec_module *d = calloc(1, sizeof *d);
	if (!d)
		return NULL;
	d->nf = m->nfuncs;
	d->f = calloc(m->nfuncs ? m->nfuncs : 1, sizeof *d->f);
	if (!d->f) {
		free(d);
		return NULL;
	}
	uint64_t addr = 0;
	for (uint32_t fi = 0; fi < m->nfuncs; fi++) {
		const struct ptx_function *f = &m->funcs[fi];
		struct dec_func *df = &d->f[fi];
		df->base = addr;
		df->n = f->ninsns;
		df->insns = calloc(f->ninsns ? f->ninsns : 1, sizeof *df->insns);
		if (!df->insns) {
			dec_module_destroy(d);
			return NULL;
		}
		for (uint32_t pc = 0; pc < f->ninsns; pc++) {
			const struct ptx_insn *in = &f->insns[pc];
			struct dec_insn *di = &df->insns[pc];
			di->in = in;
			di->addr = addr + (uint64_t)pc * CODE_INSN_BYTES;
			bool w0 = writes_opd0(in);
			for (unsigned k = 0; k < in->nopd; k++) {
				if (k == 0 && w0) {
					operand_regs(&in->opd[0], di->dst, &di->ndst, DEC_MAX_DST);
					/* an address operand in position 0 is still a source */
					continue;
				}
				operand_regs(&in->opd[k], di->src, &di->nsrc, DEC_MAX_SRC);
			}
			if (in->guard >= 0)
				add_reg(di->src, &di->nsrc, DEC_MAX_SRC, in->guard);
			if (in->flags & FLAG_CC || in->op == OP_ADDC || in->op == OP_SUBC || in->op == OP_MADC) {
				/* the carry flag is a register too: model it as a dependence on the destination */
				for (unsigned k = 0; k < di->ndst; k++)
					add_reg(di->src, &di->nsrc, DEC_MAX_SRC, di->dst[k]);
			}
			classify(di, in, cfg);
		}
		addr = (addr + (uint64_t)f->ninsns * CODE_INSN_BYTES + 127) & ~127ull;
	}
	d->code_size = addr;
	return d;
}

void dec_module_destroy(struct dec_module *d)
{
	if (!d)
		return;
	for (uint32_t i = 0; i < d->nf; i++)
		free(d->f[i].insns);
	free(d->f);
	free(d);
}
