/*
 * ir.c -- tables and helpers of the module IR (ir.h).
 *
 * Models no hardware.  Holds the opcode table generated from opcodes.def,
 * the names and sizes of types, state spaces and special registers, module
 * destruction, name lookup, and ptx_insn_format, which prints an
 * instruction back as PTX-like text for diagnostics and traces.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx/ir.h"

const struct ptx_opcode_info ptx_opcode_table[OP_COUNT] = {
#define X(e, name, unit, lat, flags, fn) {name, UNIT_##unit, LAT_##lat, flags},
#include "opcodes.def"
#undef X
};

enum ptx_opcode ptx_opcode_lookup(const char *name, size_t len)
{
	if (!name)
		return OP_COUNT;
	for (int i = 0; i < OP_COUNT; i++) {
		const char *n = ptx_opcode_table[i].name;
		if (strlen(n) == len && memcmp(n, name, len) == 0)
			return (enum ptx_opcode)i;
	}
	return OP_COUNT;
}

const char *const ptx_type_name[PTX_T_COUNT] = {
#define X(e, n, s) n,
	PTX_TYPES(X)
#undef X
};
const uint8_t ptx_type_size[PTX_T_COUNT] = {
#define X(e, n, s) s,
	PTX_TYPES(X)
#undef X
};

const char *const ptx_tc_shape_name[TC_SHAPE_COUNT] = {
#define X(e, n, m_, n_, k_) n,
	PTX_TC_SHAPES(X)
#undef X
};
const uint16_t ptx_tc_shape_mnk[TC_SHAPE_COUNT][3] = {
#define X(e, n, m_, n_, k_) {m_, n_, k_},
	PTX_TC_SHAPES(X)
#undef X
};
const char *const ptx_tc_type_name[TCT_COUNT] = {
#define X(e, n, s) n,
	PTX_TC_TYPES(X)
#undef X
};
const uint8_t ptx_tc_type_size[TCT_COUNT] = {
#define X(e, n, s) s,
	PTX_TC_TYPES(X)
#undef X
};

const char *const ptx_space_name[SPACE_COUNT] = {
	"", "global", "shared", "local", "const", "param", "tex", "shared::cluster",
};

const char *const ptx_geom_name[GEOM_COUNT] = {
	"", "1d", "2d", "3d", "a1d", "a2d", "cube", "acube", "2dms", "a2dms",
};
static const char *const txq_name[TXQ_COUNT] = {
	"",
#define X(e, n) n,
	PTX_TXQS(X)
#undef X
};

/* The texture/surface modifiers of in (".level.2d", ".b.2d ... .clamp" ...) before or after the types. */
struct out;
static void put_tex_mods(struct out *o, const struct ptx_insn *in, bool after_types);

const char *const ptx_sreg_name[SREG_COUNT] = {
#define X(e, n) n,
	PTX_SREGS(X)
#undef X
};

void ptx_module_destroy(struct ptx_module *m)
{
	if (!m)
		return;
	for (uint32_t i = 0; i < m->nvars; i++) {
		free(m->vars[i].name);
		free(m->vars[i].init);
		free(m->vars[i].init_syms);
	}
	free(m->vars);
	for (uint32_t i = 0; i < m->nfuncs; i++) {
		struct ptx_function *f = &m->funcs[i];
		free(f->name);
		free(f->params);
		free(f->rets);
		for (uint32_t r = 0; r < f->nregs; r++)
			free(f->regs[r].name);
		free(f->regs);
		for (uint32_t k = 0; k < f->ninsns; k++)
			for (int o = 0; o < PTX_MAX_OPDS; o++) {
				free(f->insns[k].opd[o].list);
				free(f->insns[k].opd[o].elem);
			}
		free(f->insns);
		free(f->block_start);
		free(f->block_of);
		free(f->ipdom);
	}
	free(m->funcs);
	free(m->filename);
	free(m);
}

int ptx_module_find_func(const struct ptx_module *m, const char *name)
{
	if (!m || !name)
		return -1;
	for (uint32_t i = 0; i < m->nfuncs; i++)
		if (m->funcs[i].name && strcmp(m->funcs[i].name, name) == 0)
			return (int)i;
	return -1;
}

/* With func >= 0: that function's variables first (the first declared one of
 * that name), then module scope.  With func < 0: module scope only. */
int ptx_module_find_var(const struct ptx_module *m, const char *name, int func)
{
	if (!m || !name)
		return -1;
	if (func >= 0)
		for (uint32_t i = 0; i < m->nvars; i++)
			if (m->vars[i].func == func && m->vars[i].name && strcmp(m->vars[i].name, name) == 0)
				return (int)i;
	for (uint32_t i = 0; i < m->nvars; i++)
		if (m->vars[i].func < 0 && m->vars[i].name && strcmp(m->vars[i].name, name) == 0)
			return (int)i;
	return -1;
}

/* ---- formatting ---- */

struct out {
	char *buf;
	size_t sz, n;
};

static void put(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(struct out *o, const char *fmt, ...)
{
	if (!o->sz || o->n + 1 >= o->sz)
		return;
	va_list ap;
	va_start(ap, fmt);
	int k = vsnprintf(o->buf + o->n, o->sz - o->n, fmt, ap);
	va_end(ap);
	if (k < 0)
		return;
	o->n += (size_t)k;
	if (o->n >= o->sz)
		o->n = o->sz - 1;
}

static const char *const cmp_name[CMP_COUNT] = {
	"", "eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs",
	"equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan",
};
static const char *const bool_name[] = {"", "and", "or", "xor"};
static const char *const rnd_name[] = {"", "rn", "rz", "rm", "rp", "rna", "rni", "rzi", "rmi", "rpi"};
static const char *const aop_name[] = {"", "add", "cas", "exch", "min", "max", "inc", "dec", "and", "or", "xor", "popc"};
static const char *const mode_name[MODE_COUNT] = {
	"", "up", "down", "bfly", "idx", "all", "any", "uni", "ballot",
	"sync", "arrive", "red", "warp.sync", "l", "r", "to",
	"f4e", "b4e", "rc8", "ecl", "ecr", "rc16",
	"finite", "infinite", "number", "notanumber", "normal", "subnormal",
	"lo", "hi", "wide",
	/* issue 16: cp.async / mbarrier */
	[MODE_COMMIT_GROUP] = "commit_group", [MODE_WAIT_GROUP] = "wait_group", [MODE_WAIT_ALL] = "wait_all",
	[MODE_CP_MBAR_ARRIVE] = "mbarrier.arrive", [MODE_INIT] = "init", [MODE_ARRIVE_DROP] = "arrive_drop",
	[MODE_TEST_WAIT] = "test_wait", [MODE_TRY_WAIT] = "try_wait", [MODE_INVAL] = "inval",
	[MODE_PENDING_COUNT] = "pending_count",
};
static const char *const sem_name[] = {"", "relaxed", "acquire", "release", "acq_rel", "sc", "weak", "mmio"};
static const char *const scope_name[] = {"", "cta", "cluster", "gpu", "sys"};
/* flag bit -> suffix, in the order they are printed */
static const struct {
	uint32_t bit;
	const char *name;
} flag_names[] = {
	{FLAG_VOLATILE, "volatile"}, {FLAG_NC, "nc"}, {FLAG_WRAP, "wrap"}, {FLAG_CLAMP, "clamp"},
	{FLAG_SHIFTAMT, "shiftamt"}, {FLAG_ALIGNED, "aligned"}, {FLAG_APPROX, "approx"}, {FLAG_FULL, "full"},
	{FLAG_FTZ, "ftz"}, {FLAG_NOFTZ, "noftz"}, {FLAG_SAT, "sat"}, {FLAG_RELU, "relu"}, {FLAG_XORSIGN, "xorsign"},
	{FLAG_ABS, "abs"}, {FLAG_NAN, "NaN"}, {FLAG_CC, "cc"}, {FLAG_UNI, "uni"}, {FLAG_LEFT, "left"},
	/* issue 16 */
	{FLAG_PACK, "pack"}, {FLAG_SATFINITE, "satfinite"}, {FLAG_PARITY, "parity"}, {FLAG_NOCOMPLETE, "noComplete"},
	{FLAG_NOINC, "noinc"}, {FLAG_CACHE_HINT, "L2::cache_hint"},
};

#define NAME(tab, i) ((size_t)(i) < sizeof(tab) / sizeof(tab[0]) && tab[i] ? tab[i] : "?")

static void put_reg(struct out *o, const struct ptx_function *f, int32_t r)
{
	if (f && r >= 0 && (uint32_t)r < f->nregs && f->regs[r].name)
		put(o, "%s", f->regs[r].name);
	else
		put(o, "%%reg%" PRId32, r);
}

static void put_var(struct out *o, const struct ptx_module *m, int32_t v)
{
	if (m && v >= 0 && (uint32_t)v < m->nvars && m->vars[v].name)
		put(o, "%s", m->vars[v].name);
	else
		put(o, "var%" PRId32, v);
}

static void put_imm(struct out *o, uint8_t kind, uint64_t bits)
{
	if (kind == IMM_F32)
		put(o, "0f%08" PRIX32, (uint32_t)bits);
	else if (kind == IMM_F64)
		put(o, "0d%016" PRIX64, bits);
	else
		put(o, "%" PRId64, (int64_t)bits);
}

static void put_offset(struct out *o, int64_t off)
{
	if (off > 0)
		put(o, "+%" PRId64, off);
	else if (off < 0)
		put(o, "%" PRId64, off);
}

static void put_operand(struct out *o, const struct ptx_module *m, const struct ptx_function *f,
			const struct ptx_insn *in, const struct ptx_operand *op)
{
	switch (op->kind) {
	case OPD_REG:
		if (op->neg)
			put(o, "!");
		put_reg(o, f, op->reg);
		if (op->comp >= 1 && op->comp <= 6 && in && in->op >= OP_VADD && in->op <= OP_VSHR)
			put(o, ".%s", (const char *const[]){"b0", "b1", "b2", "b3", "h0", "h1"}[op->comp - 1]);
		if (op->reg2 >= 0) {
			put(o, "|");
			put_reg(o, f, op->reg2);
		}
		break;
	case OPD_SINK: put(o, "_"); break;
	case OPD_IMM: put_imm(o, op->imm_kind, op->imm); break;
	case OPD_SREG: {
		const char *n = op->sreg < SREG_COUNT ? ptx_sreg_name[op->sreg] : "%sreg?";
		bool vec = op->sreg == SREG_TID || op->sreg == SREG_NTID || op->sreg == SREG_CTAID || op->sreg == SREG_NCTAID;
		if (vec)
			put(o, "%s.%c", n, "xyz?"[op->comp < 3 ? op->comp : 3]);
		else if (ptx_sreg_indexed(op->sreg))
			put(o, "%s%u", n, (unsigned)op->comp);
		else
			put(o, "%s", n);
		break;
	}
	case OPD_SYM:
		put_var(o, m, op->sym);
		put_offset(o, op->offset);
		break;
	case OPD_FUNC:
		if (m && op->func >= 0 && (uint32_t)op->func < m->nfuncs && m->funcs[op->func].name)
			put(o, "%s", m->funcs[op->func].name);
		else
			put(o, "func%" PRId32, op->func);
		break;
	case OPD_LABEL:
		if (op->target >= 0)
			put(o, "$pc%" PRId32, op->target);
		else
			put(o, "<prototype>");
		break;
	case OPD_ADDR:
		put(o, "[");
		if (op->abase == ABASE_REG)
			put_reg(o, f, op->reg);
		else if (op->abase == ABASE_SYM)
			put_var(o, m, op->sym);
		if (op->abase == ABASE_NONE)
			put(o, "%" PRId64, op->offset);
		else
			put_offset(o, op->offset);
		put(o, "]");
		break;
	case OPD_VEC:
		put(o, "{");
		for (unsigned i = 0; i < op->nelem && i < PTX_MAX_VEC; i++) {
			const struct ptx_elem *e = &op->elem[i];
			if (i)
				put(o, ", ");
			if (e->kind == OPD_REG)
				put_reg(o, f, e->reg);
			else if (e->kind == OPD_IMM)
				put_imm(o, e->imm_kind, e->imm);
			else
				put(o, "_");
		}
		put(o, "}");
		if (op->reg2 >= 0) { /* tex/tld4 residency predicate: {...}|%p */
			put(o, "|");
			put_reg(o, f, op->reg2);
		}
		break;
	case OPD_LIST:
		if (in->op == OP_BRX) {
			put(o, "{");
			for (uint32_t i = 0; i < op->nlist && op->list; i++)
				put(o, "%s$pc%" PRId32, i ? ", " : "", op->list[i]);
			put(o, "}");
		} else {
			put(o, "(");
			for (uint32_t i = 0; i < op->nlist && op->list; i++) {
				if (i)
					put(o, ", ");
				if (PTX_LIST_IS_REG(op->list[i]))
					put_reg(o, f, PTX_LIST_REG(op->list[i]));
				else
					put_var(o, m, op->list[i]);
			}
			put(o, ")");
		}
		break;
	default: put(o, "?"); break;
	}
}

/* Suffixes of a tensor-core instruction, in the order PTX writes them. */
static void put_tc_suffixes(struct out *o, const struct ptx_insn *in);

void ptx_insn_format(const struct ptx_module *m, const struct ptx_function *f, const struct ptx_insn *in, char *buf,
		     size_t bufsz)
{
	struct out o = {buf, bufsz, 0};
	if (!buf || !bufsz)
		return;
	buf[0] = 0;
	if (!in)
		return;
	if (in->guard >= 0) {
		put(&o, "@%s", in->guard_neg ? "!" : "");
		put_reg(&o, f, in->guard);
		put(&o, " ");
	}
	put(&o, "%s", in->op < OP_COUNT ? ptx_opcode_table[in->op].name : "?");
	if (in->tc.shape) {
		put_tc_suffixes(&o, in);
		for (unsigned i = 0; i < in->nopd && i < PTX_MAX_OPDS; i++) {
			put(&o, i ? ", " : " ");
			put_operand(&o, m, f, in, &in->opd[i]);
		}
		return;
	}
	if (in->flags & FLAG_ASYNC)
		put(&o, ".async");
	bool warp = in->mode == MODE_WARP_SYNC;
	/* the .sync forms of warp collectives are told apart by operand count */
	if ((in->op == OP_SHFL && in->nopd == 5) || (in->op == OP_VOTE && in->nopd == 3) || in->op == OP_MATCH ||
	    in->op == OP_REDUX)
		put(&o, ".sync");
	if (in->sem)
		put(&o, ".%s", NAME(sem_name, in->sem));
	if (in->scope) {
		if (in->op == OP_MEMBAR && in->scope == SCOPE_GPU)
			put(&o, ".gl");
		else
			put(&o, ".%s", NAME(scope_name, in->scope));
	}
	if (in->mode == MODE_TO)
		put(&o, ".to");
	if (in->space)
		put(&o, ".%s", NAME(ptx_space_name, in->space));
	if (in->op == OP_CP && in->mode == MODE_NONE)
		put(&o, ".global");
	if (in->mode && in->mode != MODE_TO && !warp)
		put(&o, ".%s", NAME(mode_name, in->mode));
	if (warp)
		put(&o, ".warp.sync");
	if (in->cmp)
		put(&o, ".%s", NAME(cmp_name, in->cmp));
	if (in->boolop)
		put(&o, ".%s", NAME(bool_name, in->boolop));
	if (in->atomop)
		put(&o, ".%s", NAME(aop_name, in->atomop));
	if (in->rnd)
		put(&o, ".%s", NAME(rnd_name, in->rnd));
	for (size_t i = 0; i < sizeof(flag_names) / sizeof(flag_names[0]); i++)
		if (in->flags & flag_names[i].bit)
			put(&o, ".%s", flag_names[i].name);
	put_tex_mods(&o, in, false);
	if (in->vec > 1)
		put(&o, ".v%u", in->vec);
	if (in->type && in->type < PTX_T_COUNT)
		put(&o, ".%s", ptx_type_name[in->type]);
	if (in->type2 && in->type2 < PTX_T_COUNT)
		put(&o, ".%s", ptx_type_name[in->type2]);
	put_tex_mods(&o, in, true);
	if (in->type3 && in->type3 < PTX_T_COUNT)
		put(&o, ".%s", ptx_type_name[in->type3]);
	bool first = true;
	for (unsigned i = 0; i < in->nopd && i < PTX_MAX_OPDS; i++) {
		/* call: leave out an empty return or argument list */
		if (in->op == OP_CALL && (i == 0 || i == 2) && in->opd[i].kind == OPD_LIST && !in->opd[i].nlist)
			continue;
		/* texture/surface operands [handle, {coordinates}] were parsed flat */
		bool txop = in->op == OP_TEX || in->op == OP_TLD4 || in->op == OP_SULD || in->op == OP_SUST ||
			    in->op == OP_TXQ || in->op == OP_SUQ;
		unsigned hi = in->op == OP_SUST ? 0 : 1, ce = in->op == OP_TXQ || in->op == OP_SUQ ? hi : hi + 1;
		put(&o, first ? " " : ", ");
		first = false;
		if (txop && i == hi)
			put(&o, "[");
		put_operand(&o, m, f, in, &in->opd[i]);
		if (txop && i == ce)
			put(&o, "]");
	}
	put(&o, ";");
}

static void put_tc_suffixes(struct out *o, const struct ptx_insn *in)
{
	const struct ptx_tc *t = &in->tc;
	const char *sh = t->shape < TC_SHAPE_COUNT ? ptx_tc_shape_name[t->shape] : "?";
#define TN(x) ((x) < TCT_COUNT ? ptx_tc_type_name[x] : "?")
	switch (in->op) {
	case OP_WMMA_LOAD:
	case OP_WMMA_STORE:
		put(o, ".%c.sync.aligned.%s.%s", "?abcd"[t->frag <= TCF_D ? t->frag : 0], t->layout & TCL_ACOL ? "col" : "row",
		    sh);
		if (in->space)
			put(o, ".%s", NAME(ptx_space_name, in->space));
		put(o, ".%s", TN(t->atype));
		break;
	case OP_WMMA_MMA:
		put(o, ".mma.sync.aligned.%s.%s.%s", t->layout & TCL_ACOL ? "col" : "row", t->layout & TCL_BCOL ? "col" : "row",
		    sh);
		if (t->atype == TCT_F16)
			put(o, ".%s.%s", TN(t->dtype), TN(t->ctype));
		else
			put(o, ".%s.%s.%s.%s", TN(t->dtype), TN(t->atype), TN(t->btype), TN(t->ctype));
		if (t->layout & TCL_SATF)
			put(o, ".satfinite");
		break;
	case OP_MMA:
		put(o, ".sync.aligned.%s.%s.%s%s.%s.%s.%s.%s", sh, t->layout & TCL_ACOL ? "col" : "row",
		    t->layout & TCL_BCOL ? "col" : "row", t->layout & TCL_SATF ? ".satfinite" : "", TN(t->dtype), TN(t->atype),
		    TN(t->btype), TN(t->ctype));
		break;
	default: /* ldmatrix, stmatrix */
		put(o, ".sync.aligned.%s.x%u%s", sh, t->num, t->layout & TCL_TRANS ? ".trans" : "");
		if (in->space)
			put(o, ".%s", NAME(ptx_space_name, in->space));
		put(o, ".%s", TN(t->atype));
		break;
	}
#undef TN
}

static void put_tex_mods(struct out *o, const struct ptx_insn *in, bool after_types)
{
	switch (in->op) {
	case OP_TEX:
		if (!after_types) {
			if (in->tx == TX_LEVEL || in->tx == TX_GRAD)
				put(o, in->tx == TX_LEVEL ? ".level" : ".grad");
			put(o, ".%s", NAME(ptx_geom_name, in->geom));
		}
		break;
	case OP_TLD4:
		if (!after_types)
			put(o, ".%c.%s", "rgba"[in->tx & 3], NAME(ptx_geom_name, in->geom));
		break;
	case OP_SULD:
	case OP_SUST:
		if (!after_types)
			put(o, ".%s.%s", in->tx & TX_FORMATTED ? "p" : "b", NAME(ptx_geom_name, in->geom));
		else
			put(o, ".%s", (in->tx & 3) == TX_CLAMP ? "clamp" : (in->tx & 3) == TX_ZERO ? "zero" : "trap");
		break;
	case OP_TXQ:
	case OP_SUQ:
		if (!after_types)
			put(o, "%s.%s", in->nopd == 3 ? ".level" : "", NAME(txq_name, in->tx));
		break;
	default:
		break;
	}
}
