/*
 * analysis.c -- ptx_analyse: the semantic pass between the PTX parser and
 * everything that executes a module.
 *
 * Models no hardware by itself; it prepares what the models need:
 *   1. call resolution: insn.callee of every direct `call`, with argument
 *      and return counts checked against the callee's signature;
 *   2. immediates: every OPD_IMM (and immediate OPD_VEC element) is
 *      converted to the bit format of the type its operand position has
 *      (table imm_roles below); afterwards imm_kind means nothing and all
 *      later stages read `imm` as bits of that type, zero-extended;
 *   3. execution-unit and latency classes (insn.unit, insn.lat), refined
 *      from ptx_opcode_table by type (rules at refine_class);
 *   4. memory layout: module .global/.const images, static shared memory
 *      per kernel, kernel parameter buffers and per-thread frames (rules at
 *      layout_module);
 *   5. basic blocks, immediate post-dominators and branch reconvergence pcs
 *      (cfg.c);
 *   6. registers per thread from a liveness analysis (ptx_reg_pressure,
 *      assign_regs).
 * ptx_analyse must be called exactly once per parsed module (step 2 is not
 * idempotent: it rewrites immediates in place).
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx/cfg.h"
#include "ptx/ir.h"

/* Largest state-space image / frame / buffer we lay out (1 TiB); keeps every
 * offset computation far from uint64_t overflow on absurd declarations. */
#define LAYOUT_LIMIT (1ull << 40)

static bool afail(const struct ptx_module *m, struct ptx_error *err, uint32_t line, uint32_t col, const char *fmt,
		  ...) __attribute__((format(printf, 5, 6)));

static bool afail(const struct ptx_module *m, struct ptx_error *err, uint32_t line, uint32_t col, const char *fmt, ...)
{
	if (!err)
		return false;
	snprintf(err->file, sizeof err->file, "%s", m->filename ? m->filename : "<ptx>");
	err->line = line;
	err->col = col;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof err->msg, fmt, ap);
	va_end(ap);
	return false;
}

static const char *op_name(unsigned op)
{
	return op < OP_COUNT && ptx_opcode_table[op].name ? ptx_opcode_table[op].name : "?";
}

/* ================================================================ calls */

/*
 * Operand layout of call (as the parser builds it):
 *   call (rets), func, (args)[, prototype-or-calltargets];
 *   opd[0] = OPD_LIST of return params (OPD_NONE or an empty list if none),
 *   opd[1] = OPD_FUNC (direct) or OPD_REG (indirect), opd[2] = OPD_LIST args.
 * A call whose target is opd[0] (no return list at all) is accepted too.
 */
static bool resolve_calls(struct ptx_module *m, struct ptx_function *fn, struct ptx_error *err)
{
	for (uint32_t i = 0; i < fn->ninsns; i++) {
		struct ptx_insn *in = &fn->insns[i];
		in->callee = -1;
		if (in->op != OP_CALL)
			continue;
		int ci = -1;
		if (in->nopd > 1 && (in->opd[1].kind == OPD_FUNC || in->opd[1].kind == OPD_REG))
			ci = 1;
		else if (in->nopd > 0 && (in->opd[0].kind == OPD_FUNC || in->opd[0].kind == OPD_REG))
			ci = 0;
		if (ci < 0)
			return afail(m, err, in->line, in->col, "call without a function or register target");
		if (in->opd[ci].kind == OPD_REG)
			continue; /* indirect call: resolved at run time */
		const struct ptx_operand *rets = ci == 1 ? &in->opd[0] : NULL;
		const struct ptx_operand *args = ci + 1 < in->nopd ? &in->opd[ci + 1] : NULL;
		uint32_t nr = rets && rets->kind == OPD_LIST ? rets->nlist : 0;
		uint32_t na = args && args->kind == OPD_LIST ? args->nlist : 0;
		int32_t f = in->opd[ci].func;
		if (f < 0 || (uint32_t)f >= m->nfuncs)
			return afail(m, err, in->line, in->col, "call to an undefined function");
		const struct ptx_function *cf = &m->funcs[f];
		if (cf->is_entry)
			return afail(m, err, in->line, in->col, "call to kernel %s: .entry functions cannot be called",
				     cf->name);
		/* device-runtime functions the functional model provides (func/devrt.c):
		 * printf, assert, malloc/free (C++ new/delete lower to them) */
		bool builtin = cf->is_extern && (strcmp(cf->name, "vprintf") == 0 || strcmp(cf->name, "__assertfail") == 0 ||
						 strcmp(cf->name, "malloc") == 0 || strcmp(cf->name, "free") == 0);
		if (cf->is_extern && strncmp(cf->name, "__cudaCDP", 9) == 0)
			return afail(m, err, in->line, in->col,
				     "call to %s: dynamic parallelism (launching kernels from the device) is not supported",
				     cf->name);
		if (cf->is_extern && strncmp(cf->name, "cudaGraph", 9) == 0)
			return afail(m, err, in->line, in->col,
				     "call to %s: device-side CUDA graph calls are not supported", cf->name);
		if (cf->is_extern && !builtin)
			return afail(m, err, in->line, in->col,
				     "call to %s, which is declared but has no body (warpsim provides vprintf, "
				     "__assertfail, malloc and free only)",
				     cf->name);
		if (nr != cf->nrets || na != cf->nparams)
			return afail(m, err, in->line, in->col,
				     "call to %s with %u argument(s) and %u return value(s); it takes %u and returns %u",
				     cf->name, na, nr, cf->nparams, cf->nrets);
		/* register arguments for register parameters, .param ones for .param ones */
		for (uint32_t k = 0; k < nr + na; k++) {
			int32_t e = k < nr ? rets->list[k] : args->list[k - nr];
			int32_t fv = k < nr ? cf->rets[k] : cf->params[k - nr];
			bool want_reg = m->vars[fv].is_reg;
			if (PTX_LIST_IS_REG(e) != want_reg)
				return afail(m, err, in->line, in->col, "%s %u of the call to %s must be a %s", k < nr ? "result" : "argument",
					     k < nr ? k + 1 : k - nr + 1, cf->name,
					     want_reg ? "register (it is a register parameter)" : ".param variable");
			if (want_reg && ptx_type_size[fn->regs[PTX_LIST_REG(e)].type] != ptx_type_size[m->vars[fv].type])
				return afail(m, err, in->line, in->col, "%s %u of the call to %s: register size differs from the parameter's",
					     k < nr ? "result" : "argument", k < nr ? k + 1 : k - nr + 1, cf->name);
		}
		in->callee = f;
	}
	return true;
}

/* =========================================================== immediates */

/*
 * Type of each operand position, per opcode (opd[0] is the first operand
 * as written in PTX; a "d|p" destination is one operand).  One character
 * per position; positions past the end of the string use the last one.
 *   d  destination: an immediate here is an error
 *   a  address, label, function or list: not an immediate (an integer
 *      literal is kept as an address-size integer)
 *   T  the instruction type          2  the second type (type2)
 *   c  mad/madc c operand: type, or twice its width for mad.wide
 *   V  mov source: type; vector elements {a,b} are the bit type of
 *      size(type)/nelem (mov.b64 %rd, {%r1, %r2})
 *   u  .u32    b  .b32    s  .s32    p  .pred    q  .u64 (addresses)
 *   x  dp4a/dp2a c: .s32 if either source type is signed, else .u32
 *   P  createpolicy: by its mode (operand_type)
 *   R  bar/barrier: .u32 operands; bar.red: d, .u32..., .pred last;
 *      bar.warp.sync: .b32 member mask
 */
static const char *const imm_roles[OP_COUNT] = {
	[OP_ADD] = "dTT",       [OP_ADDC] = "dTT",     [OP_SUB] = "dTT",       [OP_SUBC] = "dTT",
	[OP_MUL] = "dTT",       [OP_MAD] = "dTTc",     [OP_MADC] = "dTTc",     [OP_MUL24] = "dTT",
	[OP_MAD24] = "dTTT",    [OP_SAD] = "dTTT",     [OP_DIV] = "dTT",       [OP_REM] = "dTT",
	[OP_ABS] = "dT",        [OP_NEG] = "dT",       [OP_MIN] = "dTTT",      [OP_MAX] = "dTTT",
	[OP_FMA] = "dTTT",      [OP_COPYSIGN] = "dTT", [OP_TESTP] = "dT",      [OP_DP4A] = "dT2x",
	[OP_DP2A] = "dT2x",      [OP_CREATEPOLICY] = "dP",
	[OP_POPC] = "dT",       [OP_CLZ] = "dT",       [OP_BREV] = "dT",       [OP_BFE] = "dTuu",
	[OP_BFI] = "dTTuu",     [OP_BFIND] = "dT",     [OP_FNS] = "dbus",      [OP_PRMT] = "dbbb",
	[OP_AND] = "dTT",       [OP_OR] = "dTT",       [OP_XOR] = "dTT",       [OP_NOT] = "dT",
	[OP_CNOT] = "dT",       [OP_LOP3] = "dbbbbp",  [OP_SHL] = "dTu",       [OP_SHR] = "dTu",
	[OP_SHF] = "dTTu",
	[OP_SETP] = "dTTp",     [OP_SET] = "d22p",     [OP_SELP] = "dTTp",     [OP_SLCT] = "dTT2",
	[OP_MOV] = "dV",        [OP_CVT] = "d2",       [OP_CVTA] = "dq",       [OP_ISSPACEP] = "dq",
	[OP_LD] = "da",         [OP_LDU] = "da",       [OP_ST] = "aT",         [OP_PREFETCH] = "a",
	[OP_PREFETCHU] = "a",   [OP_ATOM] = "daTT",    [OP_RED] = "aT",
	[OP_WMMA_LOAD] = "dau", [OP_WMMA_STORE] = "aau", [OP_WMMA_MMA] = "daaa", [OP_MMA] = "daaa",
	[OP_LDMATRIX] = "da",   [OP_STMATRIX] = "aa",
	[OP_TEX] = "da222",     [OP_TLD4] = "da2",     [OP_TXQ] = "das",       [OP_SULD] = "das",
	[OP_SUST] = "asT",      [OP_SUQ] = "da",
	[OP_RCP] = "dT",        [OP_SQRT] = "dT",      [OP_RSQRT] = "dT",      [OP_SIN] = "dT",
	[OP_COS] = "dT",        [OP_EX2] = "dT",       [OP_LG2] = "dT",        [OP_TANH] = "dT",
	[OP_SHFL] = "dTbbb",    [OP_VOTE] = "dpb",     [OP_ACTIVEMASK] = "d",  [OP_MATCH] = "dTb",
	[OP_REDUX] = "dTb",
	[OP_BAR] = "R",         [OP_BARRIER] = "R",    [OP_MEMBAR] = "a",      [OP_FENCE] = "a",
	[OP_NANOSLEEP] = "u",
	[OP_BRA] = "a",         [OP_BRX] = "ua",       [OP_CALL] = "a",        [OP_RET] = "a",
	[OP_EXIT] = "a",        [OP_TRAP] = "a",       [OP_BRKPT] = "a",       [OP_PMEVENT] = "u",
};

static enum ptx_type double_width(enum ptx_type t)
{
	switch (t) {
	case PTX_T_U8: return PTX_T_U16;
	case PTX_T_U16: return PTX_T_U32;
	case PTX_T_U32: return PTX_T_U64;
	case PTX_T_S8: return PTX_T_S16;
	case PTX_T_S16: return PTX_T_S32;
	case PTX_T_S32: return PTX_T_S64;
	case PTX_T_B8: return PTX_T_B16;
	case PTX_T_B16: return PTX_T_B32;
	case PTX_T_B32: return PTX_T_B64;
	default: return t;
	}
}

static enum ptx_type bit_type_of_size(unsigned bytes)
{
	switch (bytes) {
	case 1: return PTX_T_B8;
	case 2: return PTX_T_B16;
	case 4: return PTX_T_B32;
	case 8: return PTX_T_B64;
	case 16: return PTX_T_B128;
	default: return PTX_T_NONE;
	}
}

/*
 * Round a double to a binary floating-point format with `mbits` explicit
 * mantissa bits and `ebits` exponent bits (f16: 10/5, bf16: 7/8), round to
 * nearest even, with subnormals, overflow to infinity and quiet NaNs.  One
 * rounding step, so f32 and f64 literals convert without double rounding.
 */
static uint64_t f64_to_small_float(double d, int mbits, int ebits)
{
	uint64_t b;
	memcpy(&b, &d, sizeof b);
	uint64_t sign = (b >> 63) << (mbits + ebits);
	int exp = (int)((b >> 52) & 0x7ff);
	uint64_t mant = b & ((1ull << 52) - 1);
	uint64_t emax = (1ull << ebits) - 1; /* all-ones exponent field */
	if (exp == 0x7ff) {
		if (mant == 0)
			return sign | (emax << mbits);
		return sign | (emax << mbits) | (1ull << (mbits - 1)) | (mant >> (52 - mbits));
	}
	if (exp == 0)
		return sign; /* zero or f64 subnormal: far below the smallest target subnormal */
	int bias = (int)(emax >> 1);
	int e = exp - 1023;          /* value = m * 2^(e - 52), m has 53 bits */
	uint64_t m = mant | (1ull << 52);
	int shift;
	int64_t E = (int64_t)e + bias; /* target exponent field if normal */
	if (E >= 1)
		shift = 52 - mbits;
	else
		shift = 52 - mbits + (int)(1 - E); /* subnormal: value = q * 2^(1 - bias - mbits) */
	if (shift > 60)
		return sign; /* below half of the smallest subnormal */
	uint64_t q = m >> shift, rem = m & ((1ull << shift) - 1), half = 1ull << (shift - 1);
	if (rem > half || (rem == half && (q & 1)))
		q++;
	uint64_t r;
	if (E >= 1)
		r = ((uint64_t)(E - 1) << mbits) + q; /* a carry out of q bumps the exponent */
	else
		r = q; /* may round up into the smallest normal: same encoding */
	if (r >= (emax << mbits))
		r = emax << mbits; /* overflow: infinity */
	return sign | r;
}

/* Convert immediate bits written as `kind` into the format of type t. */
static bool imm_convert(uint64_t *bits, unsigned kind, enum ptx_type t, const char **why)
{
	uint64_t v = *bits;
	if (kind == IMM_INT) {
		if (t == PTX_T_PRED) {
			*bits = v != 0;
			return true;
		}
		if (t == PTX_T_F32 || t == PTX_T_F64 || t == PTX_T_F16 || t == PTX_T_BF16) {
			double d = (double)(int64_t)v; /* integer literal in a float position: by value */
			if (t == PTX_T_F64) {
				memcpy(bits, &d, sizeof d);
			} else if (t == PTX_T_F32) {
				float f = (float)d;
				uint32_t u;
				memcpy(&u, &f, sizeof u);
				*bits = u;
			} else {
				*bits = f64_to_small_float(d, t == PTX_T_F16 ? 10 : 7, t == PTX_T_F16 ? 5 : 8);
			}
			return true;
		}
		/* integers, bit types, packed halves (f16x2/bf16x2: raw bits), none */
		if (t != PTX_T_NONE && ptx_type_size[t] < 8)
			*bits = v & ((1ull << (8 * ptx_type_size[t])) - 1);
		return true;
	}
	/* a floating-point literal: 0fXXXXXXXX (bits of an f32) or 0dXXXXXXXXXXXXXXXX / decimal (f64) */
	double d;
	if (kind == IMM_F32) {
		uint32_t u = (uint32_t)v;
		float f;
		memcpy(&f, &u, sizeof f);
		d = f;
	} else {
		memcpy(&d, &v, sizeof d);
	}
	enum ptx_type ft;
	switch (t) {
	case PTX_T_F16: case PTX_T_B16: ft = PTX_T_F16; break;
	case PTX_T_BF16: ft = PTX_T_BF16; break;
	case PTX_T_F32: case PTX_T_B32: ft = PTX_T_F32; break;
	case PTX_T_F64: case PTX_T_B64: ft = PTX_T_F64; break;
	default:
		*why = t == PTX_T_F16X2 || t == PTX_T_BF16X2 ? "a floating-point immediate cannot be a packed operand"
							     : "floating-point immediate where an integer is expected";
		return false;
	}
	if (ft == PTX_T_F64) {
		if (kind == IMM_F64)
			return true; /* keep the bits exactly (NaN payloads) */
		memcpy(bits, &d, sizeof d);
	} else if (ft == PTX_T_F32) {
		if (kind == IMM_F32) {
			*bits = v & 0xffffffffu;
			return true;
		}
		float f = (float)d; /* round to nearest (default environment) */
		uint32_t u;
		memcpy(&u, &f, sizeof u);
		if (isnan(d))
			u |= 0x00400000u; /* quiet */
		*bits = u;
	} else {
		*bits = f64_to_small_float(d, ft == PTX_T_F16 ? 10 : 7, ft == PTX_T_F16 ? 5 : 8);
	}
	return true;
}

/* Type of operand position k of instruction `in`; PTX_T_COUNT = destination, PTX_T_COUNT + 1 = address. */
#define ROLE_DEST PTX_T_COUNT
#define ROLE_ADDR (PTX_T_COUNT + 1)
static unsigned operand_type(const struct ptx_module *m, const struct ptx_insn *in, unsigned k, bool *is_mov)
{
	const char *r = in->op < OP_COUNT ? imm_roles[in->op] : NULL;
	*is_mov = false;
	if (!r || !*r)
		return ROLE_ADDR;
	size_t len = strlen(r);
	char c = r[k < len ? k : len - 1];
	enum ptx_type t = (enum ptx_type)in->type, t2 = (enum ptx_type)in->type2;
	if (t >= PTX_T_COUNT)
		t = PTX_T_NONE;
	if (t2 >= PTX_T_COUNT)
		t2 = PTX_T_NONE;
	switch (c) {
	case 'd': return ROLE_DEST;
	case 'a': return ROLE_ADDR;
	case 'T': return t;
	case '2': return t2;
	case 'c': return in->mode == MODE_WIDE ? double_width(t) : t;
	case 'V': *is_mov = true; return t;
	case 'u': return PTX_T_U32;
	case 'b': return PTX_T_B32;
	case 's': return PTX_T_S32;
	case 'p': return PTX_T_PRED;
	case 'q': return m->address_size == 32 ? PTX_T_U32 : PTX_T_U64;
	case 'x': return ptx_type_is_signed(t) || ptx_type_is_signed(t2) ? PTX_T_S32 : PTX_T_U32;
	case 'P': /* createpolicy: fraction .f32; [a], primary-size, total-size .u32; access property .b64 */
		return in->mode == MODE_FRACTIONAL ? PTX_T_F32 : in->mode == MODE_CVT ? PTX_T_B64 : k == 1 ? ROLE_ADDR : PTX_T_U32;
	case 'R':
		if (in->mode == MODE_WARP_SYNC)
			return PTX_T_B32;
		if (in->mode == MODE_RED) {
			if (k == 0)
				return ROLE_DEST;
			if (k + 1 == in->nopd)
				return PTX_T_PRED;
		}
		return PTX_T_U32;
	default: return t;
	}
}

static bool resolve_imms(const struct ptx_module *m, struct ptx_function *fn, struct ptx_error *err)
{
	for (uint32_t i = 0; i < fn->ninsns; i++) {
		struct ptx_insn *in = &fn->insns[i];
		unsigned nopd = in->nopd < PTX_MAX_OPDS ? in->nopd : PTX_MAX_OPDS;
		for (unsigned k = 0; k < nopd; k++) {
			struct ptx_operand *o = &in->opd[k];
			if (o->kind != OPD_IMM && o->kind != OPD_VEC)
				continue;
			bool is_mov;
			unsigned t = operand_type(m, in, k, &is_mov);
			const char *why = NULL;
			if (o->kind == OPD_IMM) {
				if (t == ROLE_DEST)
					return afail(m, err, in->line, in->col, "%s: operand %u cannot be an immediate",
						     op_name(in->op), k + 1);
				if (t == ROLE_ADDR)
					t = m->address_size == 32 ? PTX_T_U32 : PTX_T_U64;
				if (!imm_convert(&o->imm, o->imm_kind, (enum ptx_type)t, &why))
					return afail(m, err, in->line, in->col, "%s: operand %u: %s", op_name(in->op),
						     k + 1, why);
				o->imm_kind = IMM_INT;
				continue;
			}
			/* vector operand: convert immediate elements */
			unsigned ne = o->nelem < PTX_MAX_VEC ? o->nelem : PTX_MAX_VEC;
			for (unsigned e = 0; e < ne; e++) {
				struct ptx_elem *el = &o->elem[e];
				if (el->kind != OPD_IMM)
					continue;
				if (t == ROLE_DEST || t == ROLE_ADDR)
					return afail(m, err, in->line, in->col,
						     "%s: operand %u: a vector destination cannot hold an immediate",
						     op_name(in->op), k + 1);
				unsigned et = t;
				if (is_mov && ne > 0 && t != PTX_T_NONE)
					et = bit_type_of_size(ptx_type_size[t] / ne);
				if (!imm_convert(&el->imm, el->imm_kind, (enum ptx_type)et, &why))
					return afail(m, err, in->line, in->col, "%s: operand %u element %u: %s",
						     op_name(in->op), k + 1, e + 1, why);
				el->imm_kind = IMM_INT;
			}
		}
	}
	return true;
}

/* ==================================================== unit and latency */

/*
 * Classes (the timing model maps (unit, lat) to a pipeline and a latency):
 *  - arithmetic, logic, bit and compare instructions (OPF_TYPED in
 *    opcodes.def) are classified by the type they compute in (setp: type;
 *    set: type2; cvt: f64 if either side is f64, else float if either side
 *    is float, else integer):
 *      f64 -> UNIT_DP; other floats -> UNIT_SP; integers/bits/pred -> UNIT_INT.
 *    UNIT_INT selects the integer latency row (GPGPU-Sim's int vs fp rows);
 *    a configuration without dedicated integer units issues UNIT_INT to SP.
 *  - data movement and collectives (mov, selp, slct, cvta, isspacep, shfl,
 *    vote, activemask, match, redux) keep the table's UNIT_SP / LAT_ADD.
 *  - div/rem: integer -> UNIT_INT, LAT_DIV.  div.f32 .rn/.rz/.rm/.rp and
 *    div.full.f32 -> UNIT_SP, LAT_DIV (an instruction sequence in ptxas).
 *    div.approx.f32 -> UNIT_SFU, LAT_SFU (one MUFU.RCP and a multiply).
 *    div.f64 -> UNIT_DP, LAT_DIV.
 *  - rcp/sqrt/rsqrt/sin/cos/ex2/lg2/tanh (UNIT_SFU in opcodes.def): .approx
 *    (and any non-f32/f64 type) -> UNIT_SFU, LAT_SFU; IEEE-rounded f32 forms (rcp.rn.f32,
 *    sqrt.rn.f32) -> UNIT_SP, LAT_DIV; rounded f64 forms (rcp.rn.f64,
 *    sqrt.rn.f64) -> UNIT_DP, LAT_DIV; .approx f64 forms
 *    (rcp.approx.ftz.f64, rsqrt.approx.f64) -> UNIT_SFU, LAT_SFU.
 *  - mul/mad/min/max/... keep the table's latency class (LAT_MUL, LAT_MAD,
 *    LAT_MAX) on the unit chosen above.
 *  - everything else (memory, control, barriers) keeps the table entry.
 */
static void refine_class(struct ptx_insn *in)
{
	if (in->op >= OP_COUNT)
		return;
	enum ptx_opcode op = (enum ptx_opcode)in->op;
	enum ws_unit unit = ptx_opcode_table[op].unit;
	enum ptx_lat lat = ptx_opcode_table[op].lat;
	enum ptx_type t = in->type < PTX_T_COUNT ? (enum ptx_type)in->type : PTX_T_NONE;
	enum ptx_type t2 = in->type2 < PTX_T_COUNT ? (enum ptx_type)in->type2 : PTX_T_NONE;
	bool approx = (in->flags & FLAG_APPROX) != 0;

	if (ptx_opcode_table[op].flags & OPF_TYPED) {
		enum ptx_type ct = op == OP_SET ? t2 : t;
		bool f64 = ct == PTX_T_F64, flt = ptx_type_is_float(ct);
		if (op == OP_CVT) {
			f64 = t == PTX_T_F64 || t2 == PTX_T_F64;
			flt = ptx_type_is_float(t) || ptx_type_is_float(t2);
		}
		unit = f64 ? UNIT_DP : flt ? UNIT_SP : UNIT_INT;
		if (op == OP_DIV && t == PTX_T_F32 && approx) {
			unit = UNIT_SFU;
			lat = LAT_SFU;
		}
	} else if (ptx_opcode_table[op].unit == UNIT_SFU) { /* rcp, sqrt, rsqrt, sin, cos, ex2, lg2, tanh */
		if (t == PTX_T_F64 && !approx) {
			unit = UNIT_DP;
			lat = LAT_DIV;
		} else if (t == PTX_T_F32 && !approx) {
			unit = UNIT_SP;
			lat = LAT_DIV;
		} else {
			unit = UNIT_SFU;
			lat = LAT_SFU;
		}
	}
	in->unit = (uint8_t)unit;
	in->lat = (uint8_t)lat;
}

/* =============================================================== layout */

static uint64_t var_align(const struct ptx_var *v)
{
	uint64_t a = v->align ? v->align : (v->type < PTX_T_COUNT ? ptx_type_size[v->type] : 1);
	return a ? a : 1;
}

static uint64_t align_up(uint64_t x, uint64_t a)
{
	return a <= 1 ? x : (x + a - 1) / a * a;
}

/* Place v at the next suitably aligned offset of a region whose end is *end. */
/* A module's .const variables share one 64 KiB constant bank (the PTX ISA's
 * .const space; ptxas: "too much global constant data"). */
#define PTX_CONST_BANK_BYTES 65536u

static bool place(const struct ptx_module *m, struct ptx_var *v, uint64_t *end, const char *what,
		  struct ptx_error *err)
{
	uint64_t a = var_align(v);
	if (a > LAYOUT_LIMIT || v->size > LAYOUT_LIMIT || *end > LAYOUT_LIMIT ||
	    align_up(*end, a) + v->size > LAYOUT_LIMIT)
		return afail(m, err, v->line, v->col, "%s %s is too large (over %llu bytes)", what,
			     v->name ? v->name : "?", (unsigned long long)LAYOUT_LIMIT);
	v->addr = align_up(*end, a);
	*end = v->addr + v->size;
	return true;
}

static bool is_static_shared(const struct ptx_var *v)
{
	return v->space == SPACE_SHARED && !v->is_extern;
}

/*
 * Call graph.  Nodes 0..nf-1 are the module's functions; node nf stands for
 * "any function whose address is taken" (an OPD_FUNC operand outside a call
 * target, or a function named in a variable initializer): it has an edge to
 * each such function, and every function with an indirect call has an edge
 * to it.  So function g is reachable from e exactly when an indirect call
 * may reach it or a chain of direct calls does.
 *
 * What the layout and the register count need is never the reachable set
 * itself but a maximum over it (reach_max), which one pass of Tarjan's
 * strongly-connected-components algorithm computes for every node in
 * O(nodes + edges).  (A reachability matrix is quadratic in the number of
 * functions: a 50 MB module of 90 000 small kernels spent seconds and
 * hundreds of MB on it.)
 */
struct edge_list {
	uint32_t *src, *dst;
	size_t n, cap;
};

static bool edge_push(struct edge_list *E, uint32_t s, uint32_t d)
{
	if (E->n == E->cap) {
		size_t nc = E->cap ? 2 * E->cap : 64;
		if (nc > UINT32_MAX)
			return false;
		uint32_t *ns = realloc(E->src, nc * sizeof *ns);
		if (!ns)
			return false;
		E->src = ns;
		uint32_t *nd = realloc(E->dst, nc * sizeof *nd);
		if (!nd)
			return false;
		E->dst = nd;
		E->cap = nc;
	}
	E->src[E->n] = s;
	E->dst[E->n++] = d;
	return true;
}

static bool call_graph(const struct ptx_module *m, struct cfg_graph *g)
{
	uint32_t nf = m->nfuncs;
	uint8_t *taken = calloc((size_t)nf + 1, 1);
	uint32_t *last = malloc(((size_t)nf + 1) * sizeof *last); /* dedup: last caller that added g */
	struct edge_list E = {0};
	bool ok = taken && last;
	for (uint32_t f = 0; ok && f < nf; f++)
		last[f] = UINT32_MAX;
	/* direct call edges (each caller -> callee once), indirect calls and address-taken functions */
	for (uint32_t f = 0; ok && f < nf; f++) {
		const struct ptx_function *fn = &m->funcs[f];
		bool indirect = false;
		for (uint32_t i = 0; ok && i < fn->ninsns; i++) {
			const struct ptx_insn *in = &fn->insns[i];
			for (unsigned k = 0; k < in->nopd && k < PTX_MAX_OPDS; k++) {
				const struct ptx_operand *o = &in->opd[k];
				if (in->op == OP_CALL && k <= 1 && o->kind == OPD_REG)
					indirect = true;
				if (o->kind == OPD_FUNC && in->op != OP_CALL && o->func >= 0 && (uint32_t)o->func < nf)
					taken[o->func] = 1;
			}
			int32_t c = in->callee;
			if (in->op != OP_CALL || c < 0 || (uint32_t)c >= nf || last[c] == f)
				continue;
			last[c] = f;
			ok = edge_push(&E, f, (uint32_t)c);
		}
		if (ok && indirect)
			ok = edge_push(&E, f, nf);
	}
	for (uint32_t v = 0; ok && v < m->nvars; v++)
		for (uint32_t k = 0; k < m->vars[v].ninit_syms; k++) {
			int32_t f = m->vars[v].init_syms[k].func;
			if (f >= 0 && (uint32_t)f < nf)
				taken[f] = 1;
		}
	for (uint32_t f = 0; ok && f < nf; f++)
		if (taken[f])
			ok = edge_push(&E, nf, f);
	ok = ok && E.n <= UINT32_MAX && cfg_graph_from_edges(g, nf + 1, (uint32_t)E.n, E.src, E.dst);
	free(taken);
	free(last);
	free(E.src);
	free(E.dst);
	return ok;
}

/* out[v] = the largest val[w] over every node w reachable from v in g (v
 * included).  Iterative Tarjan: a strongly connected component is finished
 * after every component it reaches, so its maximum is final when it is
 * popped.  O(nodes + edges); false on allocation failure. */
static bool reach_max(const struct cfg_graph *g, const uint64_t *val, uint64_t *out)
{
	uint32_t n = g->n;
	uint32_t *idx = malloc(((size_t)n + 1) * sizeof *idx), *low = malloc(((size_t)n + 1) * sizeof *low);
	uint32_t *stk = malloc(((size_t)n + 1) * sizeof *stk); /* Tarjan's stack of open nodes */
	uint32_t *cs = malloc(((size_t)n + 1) * sizeof *cs);   /* depth-first path */
	uint32_t *pos = malloc(((size_t)n + 1) * sizeof *pos); /* next edge of each node on the path */
	uint8_t *open = calloc((size_t)n + 1, 1);
	bool ok = idx && low && stk && cs && pos && open;
	uint32_t counter = 0, ns = 0;
	for (uint32_t v = 0; ok && v < n; v++) {
		idx[v] = UINT32_MAX;
		out[v] = val[v];
	}
	for (uint32_t r = 0; ok && r < n; r++) {
		if (idx[r] != UINT32_MAX)
			continue;
		uint32_t nc = 0;
		idx[r] = low[r] = counter++;
		stk[ns++] = r;
		open[r] = 1;
		cs[nc] = r;
		pos[nc++] = g->off[r];
		while (nc) {
			uint32_t v = cs[nc - 1];
			if (pos[nc - 1] < g->off[v + 1]) {
				uint32_t w = g->adj[pos[nc - 1]++];
				if (idx[w] == UINT32_MAX) {
					idx[w] = low[w] = counter++;
					stk[ns++] = w;
					open[w] = 1;
					cs[nc] = w;
					pos[nc++] = g->off[w];
				} else {
					if (open[w] && idx[w] < low[v])
						low[v] = idx[w];
					if (out[w] > out[v])
						out[v] = out[w];
				}
				continue;
			}
			nc--;
			if (low[v] == idx[v]) {
				/* v roots a component: its members are stk[k..ns) */
				uint32_t k = ns;
				uint64_t mx = 0;
				do {
					k--;
					if (out[stk[k]] > mx)
						mx = out[stk[k]];
				} while (stk[k] != v);
				for (uint32_t j = k; j < ns; j++) {
					out[stk[j]] = mx;
					open[stk[j]] = 0;
				}
				ns = k;
			}
			if (nc) {
				uint32_t u = cs[nc - 1];
				if (low[v] < low[u])
					low[u] = low[v];
				if (out[v] > out[u])
					out[u] = out[v];
			}
		}
	}
	free(idx);
	free(low);
	free(stk);
	free(cs);
	free(pos);
	free(open);
	return ok;
}

/*
 * Layout rules.
 *  - Module .global and .const variables (and .global/.const declared
 *    inside a function, which are static) get offsets in the module's
 *    global / const image, in declaration order, each aligned to its .align
 *    (default: element size): m->global_image_size, m->const_image_size.
 *  - Static shared memory.  Module-scope .shared variables are placed from
 *    offset 0 (m->shared_module_size = their end).  Each kernel's own
 *    function-scope .shared variables follow, from shared_module_size;
 *    different kernels overlap (they never share a CTA).  Function-scope
 *    .shared variables of .func functions need one address valid in every
 *    kernel that reaches them, so they are placed after the largest
 *    [module + own] extent of the kernels that reach any such function, in
 *    function order.  A kernel's shared_static = the end of the last static
 *    shared variable it can touch (module, its own, and every .func
 *    reachable from it through the call graph).  A .func's shared_static is
 *    the end of its own shared variables (0 if none).
 *  - Dynamic shared memory: every .extern .shared variable has addr = 0,
 *    relative to the launch's dynamic-shared base.  The LOADER must compute
 *    that base per kernel as
 *        dyn_base = align_up(kernel->shared_static, max(16, A))
 *    where A is the largest .align of the module's .extern .shared
 *    variables, and add it to var.addr, so that all extern shared arrays
 *    alias one region, as in CUDA.
 *  - Kernel parameters (is_kparam) of an entry, in declaration order, each
 *    aligned to its .align (default: its size), from 0: fn->kparam_size.
 *  - Per-thread frame of every function: [formal params (.func), then
 *    return values][call-site .param variables declared in its body][.local
 *    variables], each aligned; fn->frame_size rounded up to 16.  Module-
 *    scope .local variables are rejected.
 *  (regs_per_thread: see assign_regs.)
 */
static bool layout_module(struct ptx_module *m, const struct cfg_graph *cg, struct ptx_error *err)
{
	uint32_t nf = m->nfuncs;
	uint64_t gend = 0, cend = 0, send = 0;
	bool ok = false;
	uint64_t *fend = calloc((size_t)nf + 1, sizeof *fend);   /* per-function running frame offset */
	uint64_t *own = calloc((size_t)nf + 1, sizeof *own);     /* entries: end of module + own shared */
	uint64_t *has_shared = calloc((size_t)nf + 1, sizeof *has_shared); /* .func with shared vars (call graph node nf: 0) */
	uint64_t *reached = calloc((size_t)nf + 1, sizeof *reached);       /* reach_max of has_shared, then of shared ends */
	if (!fend || !own || !has_shared || !reached) {
		afail(m, err, 0, 0, "out of memory in layout");
		goto out;
	}

	/* module images and module shared */
	for (uint32_t i = 0; i < m->nvars; i++) {
		struct ptx_var *v = &m->vars[i];
		if (v->space == SPACE_GLOBAL) {
			if (!place(m, v, &gend, ".global variable", err))
				goto out;
		} else if (v->space == SPACE_CONST) {
			if (!place(m, v, &cend, ".const variable", err))
				goto out;
			if (cend > PTX_CONST_BANK_BYTES) {
				afail(m, err, v->line, v->col,
				      ".const variable %s (%llu bytes at offset %llu) takes the module's constant data to %llu "
				      "bytes; the constant bank holds %u (64 KiB, as ptxas allows)",
				      v->name ? v->name : "?", (unsigned long long)v->size, (unsigned long long)v->addr,
				      (unsigned long long)cend, PTX_CONST_BANK_BYTES);
				goto out;
			}
		} else if (v->space == SPACE_SHARED && v->is_extern) {
			v->addr = 0;
		} else if (v->func < 0 || (uint32_t)v->func >= nf) {
			if (v->space == SPACE_SHARED) {
				if (!place(m, v, &send, ".shared variable", err))
					goto out;
			} else if (v->space == SPACE_LOCAL) {
				afail(m, err, v->line, v->col, "module-scope .local variable %s is not supported",
				      v->name ? v->name : "?");
				goto out;
			}
		}
	}
	m->global_image_size = gend;
	m->const_image_size = cend;
	m->shared_module_size = send;

	/* function-scope shared: kernels' own vars */
	for (uint32_t f = 0; f < nf; f++)
		own[f] = send;
	for (uint32_t i = 0; i < m->nvars; i++) {
		struct ptx_var *v = &m->vars[i];
		if (!is_static_shared(v) || v->func < 0 || (uint32_t)v->func >= nf)
			continue;
		if (m->funcs[v->func].is_entry) {
			if (!place(m, v, &own[v->func], ".shared variable", err))
				goto out;
		} else {
			has_shared[v->func] = 1;
		}
	}
	/* .func shared vars: after every kernel that reaches one of them */
	uint64_t fbase = send;
	if (!reach_max(cg, has_shared, reached)) {
		afail(m, err, 0, 0, "out of memory in layout");
		goto out;
	}
	for (uint32_t e = 0; e < nf; e++)
		if (m->funcs[e].is_entry && reached[e] && own[e] > fbase)
			fbase = own[e];
	for (uint32_t f = 0; f < nf; f++)
		m->funcs[f].shared_static = 0;
	for (uint32_t i = 0; i < m->nvars; i++) {
		struct ptx_var *v = &m->vars[i];
		if (!is_static_shared(v) || v->func < 0 || (uint32_t)v->func >= nf || m->funcs[v->func].is_entry)
			continue;
		if (!place(m, v, &fbase, ".shared variable", err))
			goto out;
		if (v->addr + v->size > m->funcs[v->func].shared_static)
			m->funcs[v->func].shared_static = v->addr + v->size;
	}
	/* a kernel's extent: the largest end of the .func shared variables it reaches (a
	 * kernel itself has none of those: has_shared is 0 for it) */
	for (uint32_t g = 0; g < nf; g++)
		has_shared[g] = has_shared[g] ? m->funcs[g].shared_static : 0;
	if (!reach_max(cg, has_shared, reached)) {
		afail(m, err, 0, 0, "out of memory in layout");
		goto out;
	}
	for (uint32_t e = 0; e < nf; e++) {
		struct ptx_function *fn = &m->funcs[e];
		if (fn->is_entry)
			fn->shared_static = own[e] > reached[e] ? own[e] : reached[e];
	}

	/* kernel parameter buffers and formal parameters in frames */
	for (uint32_t f = 0; f < nf; f++) {
		struct ptx_function *fn = &m->funcs[f];
		uint64_t kend = 0;
		fend[f] = 0;
		for (int pass = 0; pass < 2; pass++) {
			const int32_t *list = pass == 0 ? fn->params : fn->rets;
			uint32_t n = pass == 0 ? fn->nparams : fn->nrets;
			for (uint32_t k = 0; k < n; k++) {
				if (!list || list[k] < 0 || (uint32_t)list[k] >= m->nvars)
					continue;
				struct ptx_var *v = &m->vars[list[k]];
				if (v->is_kparam || fn->is_entry) {
					if (!place(m, v, &kend, "kernel parameter", err))
						goto out;
				} else if (!place(m, v, &fend[f], "parameter", err)) {
					goto out;
				}
			}
		}
		fn->kparam_size = fn->is_entry ? kend : 0;
	}
	/* call-site .param variables, then .local variables */
	for (int pass = 0; pass < 2; pass++) {
		for (uint32_t i = 0; i < m->nvars; i++) {
			struct ptx_var *v = &m->vars[i];
			if (v->func < 0 || (uint32_t)v->func >= nf)
				continue;
			bool want = pass == 0 ? (v->space == SPACE_PARAM && !v->is_kparam && !v->is_fparam)
					      : v->space == SPACE_LOCAL;
			if (want && !place(m, v, &fend[v->func], pass == 0 ? ".param variable" : ".local variable", err))
				goto out;
		}
	}
	for (uint32_t f = 0; f < nf; f++) {
		struct ptx_function *fn = &m->funcs[f];
		fn->frame_size = align_up(fend[f], 16);
	}
	ok = true;
out:
	free(fend);
	free(own);
	free(has_shared);
	free(reached);
	return ok;
}

/* ===================================================== register pressure */

#define MAX_INSN_REGS (PTX_MAX_OPDS * (PTX_MAX_VEC + 2) + 1)

/* Registers an instruction defines and uses (duplicates possible). */
static void insn_regs(const struct ptx_module *m, const struct ptx_insn *in, int32_t *defs, unsigned *nd,
		      int32_t *uses, unsigned *nu)
{
	*nd = *nu = 0;
	if (in->guard >= 0)
		uses[(*nu)++] = in->guard;
	unsigned nopd = in->nopd < PTX_MAX_OPDS ? in->nopd : PTX_MAX_OPDS;
	for (unsigned k = 0; k < nopd; k++) {
		const struct ptx_operand *o = &in->opd[k];
		bool is_mov;
		bool def = operand_type(m, in, k, &is_mov) == ROLE_DEST;
		int32_t *set = def ? defs : uses;
		unsigned *n = def ? nd : nu;
		switch (o->kind) {
		case OPD_REG:
			if (o->reg >= 0)
				set[(*n)++] = o->reg;
			if (o->reg2 >= 0)
				set[(*n)++] = o->reg2;
			break;
		case OPD_ADDR:
			if (o->abase == ABASE_REG && o->reg >= 0)
				uses[(*nu)++] = o->reg;
			break;
		case OPD_VEC:
			for (unsigned e = 0; e < o->nelem && e < PTX_MAX_VEC; e++)
				if (o->elem[e].kind == OPD_REG && o->elem[e].reg >= 0)
					set[(*n)++] = o->elem[e].reg;
			break;
		default:
			break;
		}
	}
}

static unsigned reg_slots(const struct ptx_function *fn, int32_t r)
{
	unsigned t = fn->regs[r].type;
	return t == PTX_T_PRED || t >= PTX_T_COUNT ? 0 : (ptx_type_size[t] + 3u) / 4u;
}

uint32_t ptx_reg_pressure(const struct ptx_module *m, const struct ptx_function *fn)
{
	uint64_t sum = 0;
	for (uint32_t r = 0; r < fn->nregs && fn->regs; r++)
		sum += reg_slots(fn, (int32_t)r);
	uint32_t fallback = sum > UINT32_MAX ? UINT32_MAX : (uint32_t)sum;
	uint32_t nb = fn->nblocks, nr = fn->nregs;
	if (fn->ninsns == 0)
		return 0;
	if (nb == 0 || !fn->block_start || !fn->block_of || (nr && !fn->regs))
		return fallback; /* no CFG (not analysed) */
	size_t W = ((size_t)nr + 63) / 64;
	if ((uint64_t)(nb + 2) * (W ? W : 1) > (1ull << 24))
		return fallback;
	struct cfg_graph g = {0};
	uint64_t *in = calloc((size_t)(nb + 1) * W + 1, sizeof *in); /* live-in per block (+ exit: empty) */
	uint64_t *cur = malloc((W + 1) * sizeof *cur);
	uint32_t *order = malloc(((size_t)nb + 1) * sizeof *order);
	uint8_t *seen = calloc((size_t)nb + 1, 1);
	uint32_t *stk = malloc(((size_t)nb + 1) * sizeof *stk), *nxt = malloc(((size_t)nb + 1) * sizeof *nxt);
	uint32_t result = fallback;
	if (!in || !cur || !order || !seen || !stk || !nxt || !cfg_block_graph(fn, &g))
		goto out;
	/* postorder of the blocks (from the entry; unreachable blocks appended) */
	uint32_t cnt = 0;
	for (uint32_t root = 0; root < nb; root++) {
		if (seen[root])
			continue;
		uint32_t sp = 0;
		seen[root] = 1;
		stk[sp] = root;
		nxt[sp++] = g.off[root];
		while (sp) {
			uint32_t v = stk[sp - 1];
			if (nxt[sp - 1] < g.off[v + 1]) {
				uint32_t w = g.adj[nxt[sp - 1]++];
				if (w < nb && !seen[w]) {
					seen[w] = 1;
					stk[sp] = w;
					nxt[sp++] = g.off[w];
				}
			} else {
				order[cnt++] = v;
				sp--;
			}
		}
	}
	int32_t defs[MAX_INSN_REGS], uses[MAX_INSN_REGS];
	unsigned nd, nu;
	/* iterate live-in sets to a fixed point (postorder: successors first) */
	bool changed = true;
	while (changed) {
		changed = false;
		for (uint32_t k = 0; k < cnt; k++) {
			uint32_t b = order[k];
			memset(cur, 0, W * sizeof *cur);
			for (uint32_t e = g.off[b]; e < g.off[b + 1]; e++) {
				const uint64_t *s = in + (size_t)g.adj[e] * W;
				for (size_t w = 0; w < W; w++)
					cur[w] |= s[w];
			}
			uint32_t first = fn->block_start[b], end = b + 1 < nb ? fn->block_start[b + 1] : fn->ninsns;
			for (uint32_t i = end; i-- > first;) {
				const struct ptx_insn *x = &fn->insns[i];
				insn_regs(m, x, defs, &nd, uses, &nu);
				if (x->guard < 0)
					for (unsigned d = 0; d < nd; d++)
						if ((uint32_t)defs[d] < nr)
							cur[defs[d] >> 6] &= ~(1ull << (defs[d] & 63));
				for (unsigned u = 0; u < nu; u++)
					if ((uint32_t)uses[u] < nr)
						cur[uses[u] >> 6] |= 1ull << (uses[u] & 63);
			}
			uint64_t *bi = in + (size_t)b * W;
			if (memcmp(bi, cur, W * sizeof *cur) != 0) {
				memcpy(bi, cur, W * sizeof *cur);
				changed = true;
			}
		}
	}
	/* final pass: the largest weight live at any instruction */
	uint64_t best = 0;
	for (uint32_t b = 0; b < nb; b++) {
		memset(cur, 0, W * sizeof *cur);
		for (uint32_t e = g.off[b]; e < g.off[b + 1]; e++) {
			const uint64_t *s = in + (size_t)g.adj[e] * W;
			for (size_t w = 0; w < W; w++)
				cur[w] |= s[w];
		}
		uint64_t wt = 0;
		for (uint32_t r = 0; r < nr; r++)
			if (cur[r >> 6] >> (r & 63) & 1)
				wt += reg_slots(fn, (int32_t)r);
		if (wt > best)
			best = wt;
		uint32_t first = fn->block_start[b], end = b + 1 < nb ? fn->block_start[b + 1] : fn->ninsns;
		for (uint32_t i = end; i-- > first;) {
			const struct ptx_insn *x = &fn->insns[i];
			insn_regs(m, x, defs, &nd, uses, &nu);
			/* live-out plus dead definitions */
			uint64_t extra = 0;
			for (unsigned d = 0; d < nd; d++) {
				int32_t r = defs[d];
				if ((uint32_t)r >= nr || (cur[r >> 6] >> (r & 63) & 1))
					continue;
				bool dup = false;
				for (unsigned e2 = 0; e2 < d; e2++)
					dup |= defs[e2] == r;
				if (!dup)
					extra += reg_slots(fn, r);
			}
			if (wt + extra > best)
				best = wt + extra;
			if (x->guard < 0)
				for (unsigned d = 0; d < nd; d++) {
					int32_t r = defs[d];
					if ((uint32_t)r < nr && (cur[r >> 6] >> (r & 63) & 1)) {
						cur[r >> 6] &= ~(1ull << (r & 63));
						wt -= reg_slots(fn, r);
					}
				}
			for (unsigned u = 0; u < nu; u++) {
				int32_t r = uses[u];
				if ((uint32_t)r < nr && !(cur[r >> 6] >> (r & 63) & 1)) {
					cur[r >> 6] |= 1ull << (r & 63);
					wt += reg_slots(fn, r);
				}
			}
			if (wt > best)
				best = wt;
		}
	}
	result = best > UINT32_MAX ? UINT32_MAX : (uint32_t)best;
out:
	cfg_graph_free(&g);
	free(in);
	free(cur);
	free(order);
	free(seen);
	free(stk);
	free(nxt);
	return result;
}

/*
 * regs_per_thread (the occupancy input): the register pressure of the
 * function (ptx_reg_pressure: most 32-bit slots live at once, predicates
 * excluded) and, for a function that calls others, the largest pressure of
 * any function reachable from it through the call graph; at least 1, capped
 * at 255 and at .maxnreg.  Values live across a call are not added (the
 * PTX calling convention saves them in the frame).  Counting every declared
 * virtual register instead (the plain sum of ceil(size / 4)) overestimates
 * ptxas several times over for nvcc output (bench mm: 134 vs 24 live) and
 * would make ordinary CTAs fail to fit on an SM; ptx_reg_pressure falls
 * back to that sum only for functions too large to analyse.  A declaration
 * without body gets the sum of its declared registers (normally 0).
 */
static void assign_regs(struct ptx_module *m, const struct cfg_graph *cg)
{
	uint32_t nf = m->nfuncs;
	uint64_t *own = calloc((size_t)nf + 1, sizeof *own); /* call graph node nf: 0 */
	uint64_t *most = own ? malloc(((size_t)nf + 1) * sizeof *most) : NULL;
	for (uint32_t f = 0; f < nf; f++) {
		uint32_t p = ptx_reg_pressure(m, &m->funcs[f]);
		if (own)
			own[f] = p;
		else
			m->funcs[f].regs_per_thread = p;
	}
	bool have = own && most && reach_max(cg, own, most);
	for (uint32_t f = 0; f < nf; f++) {
		struct ptx_function *fn = &m->funcs[f];
		uint64_t r = have ? most[f] : own ? own[f] : fn->regs_per_thread;
		if (r < 1)
			r = 1;
		if (r > 255)
			r = 255;
		if (fn->maxnreg && r > fn->maxnreg)
			r = fn->maxnreg;
		fn->regs_per_thread = (uint32_t)r;
	}
	free(own);
	free(most);
}

/* ============================================================ entry point */

bool ptx_analyse(struct ptx_module *m, struct ptx_error *err)
{
	if (!m)
		return false;
	for (uint32_t f = 0; f < m->nfuncs; f++) {
		struct ptx_function *fn = &m->funcs[f];
		if (!resolve_calls(m, fn, err) || !resolve_imms(m, fn, err))
			return false;
		for (uint32_t i = 0; i < fn->ninsns; i++)
			refine_class(&fn->insns[i]);
	}
	struct cfg_graph cg = {0};
	if (!call_graph(m, &cg))
		return afail(m, err, 0, 0, "out of memory analysing the call graph");
	bool ok = layout_module(m, &cg, err);
	for (uint32_t f = 0; ok && f < m->nfuncs; f++) {
		struct ptx_function *fn = &m->funcs[f];
		if (!fn->is_extern)
			ok = cfg_function(m, fn, err);
	}
	if (ok)
		assign_regs(m, &cg);
	cfg_graph_free(&cg);
	return ok;
}
