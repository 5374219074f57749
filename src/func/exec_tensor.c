/*
 * exec_tensor.c -- tensor-core instructions of the functional model:
 * wmma.load / wmma.store / wmma.mma, mma.sync, ldmatrix and stmatrix.
 *
 * Models the warp-wide matrix multiply-accumulate of NVIDIA tensor cores
 * (sm_70-sm_90) as the PTX ISA defines it: D = A x B + C for an MxK matrix
 * A, a KxN matrix B and MxN matrices C and D, each distributed over the 32
 * lanes of a warp as "fragments" (registers holding one or more elements).
 *
 * Fragment layouts:
 *  - mma.sync: exactly the PTX ISA's layouts (groupID = lane >> 2,
 *    threadID_in_group = lane & 3; see frag_map_mma).
 *  - wmma: the ISA leaves the layout unspecified (programs may only apply
 *    the same operation to every element of a fragment).  warpsim uses:
 *    slot s of lane l holds element e = (s * 32 + l) mod (rows * cols) of
 *    the matrix in row-major order, where the slots of a register are its
 *    elements from the least significant bits up.  f16 A/B fragments have
 *    8 registers as on hardware, so small matrices are held twice.
 *
 * Arithmetic (docs/ptx.md, "Tensor cores"): every element of A, B and C is
 * converted exactly to double (tf32: the f32 register with its low 13 bits
 * ignored); for each d[i][j], acc = c[i][j], then for k = 0 .. K-1 in order
 * acc = fma(a[i][k], b[k][j], acc) in IEEE double; the result is rounded
 * once, to nearest-even, to the type of D (f16, f32 or f64; NaN becomes the
 * format's canonical NaN).  Products of f16/bf16/tf32 are exact in double,
 * so this is a sum of exact products in a fixed order.  Integer forms sum in
 * 64 bits and wrap to 32 bits, or clamp to the s32 range with .satfinite.
 *
 * Warp-wide instructions: every lane of the warp must execute them (as the
 * ISA's .sync.aligned requires) and the warp must have 32 lanes; both are
 * checked at run time with a clear error.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "func/fpu.h"
#include "func/func.h"
#include "func/memop.h"
#include "func/op.h"
#include "stats/counters.h"

enum { ROLE_A, ROLE_B, ROLE_C, ROLE_D };

/* The shape of one fragment operand. */
struct frag {
	unsigned rows, cols;  /* logical matrix */
	uint8_t type;         /* enum ptx_tc_type */
	unsigned ebits;       /* bits per element */
	unsigned regbits;     /* 32, or 64 for f64 */
	unsigned nregs;       /* registers per lane */
	unsigned epr;         /* elements per register */
	bool wmma;            /* warpsim's wmma layout, else the ISA's mma layout */
	uint8_t shape;
};

static unsigned type_bits(uint8_t t)
{
	return t < TCT_COUNT ? 8u * ptx_tc_type_size[t] : 0;
}

static bool is_int_type(uint8_t t) { return t == TCT_S8 || t == TCT_U8 || t == TCT_S32; }

/* Fragment of matrix `role` of a wmma or mma instruction (shape and types
 * from in->tc).  False if the combination is not one warpsim implements. */
static bool frag_of(const struct ptx_insn *in, int role, struct frag *f)
{
	const struct ptx_tc *t = &in->tc;
	unsigned M = ptx_tc_shape_mnk[t->shape][0], N = ptx_tc_shape_mnk[t->shape][1], K = ptx_tc_shape_mnk[t->shape][2];
	memset(f, 0, sizeof *f);
	f->shape = t->shape;
	f->wmma = in->op != OP_MMA;
	switch (role) {
	case ROLE_A: f->rows = M, f->cols = K, f->type = t->atype; break;
	case ROLE_B: f->rows = K, f->cols = N, f->type = t->btype; break;
	case ROLE_C: f->rows = M, f->cols = N, f->type = t->ctype; break;
	default: f->rows = M, f->cols = N, f->type = t->dtype; break;
	}
	f->ebits = type_bits(f->type);
	if (!f->ebits || !M)
		return false;
	f->regbits = f->type == TCT_F64 ? 64 : 32;
	f->epr = f->regbits / f->ebits;
	unsigned total = f->rows * f->cols * f->ebits;
	if (total % (32 * f->regbits))
		return false;
	f->nregs = total / (32 * f->regbits);
	if (f->wmma && (role == ROLE_A || role == ROLE_B) && f->type == TCT_F16)
		f->nregs = 8; /* as on hardware: 16 halves per lane */
	return true;
}

/* Is the type combination of a wmma.mma / mma implemented? */
static const char *combo_check(const struct ptx_insn *in)
{
	const struct ptx_tc *t = &in->tc;
	uint8_t a = t->atype, b = t->btype, c = t->ctype, d = t->dtype, s = t->shape;
	bool satf = (t->layout & TCL_SATF) != 0;
	if (in->op == OP_WMMA_MMA || in->op == OP_WMMA_LOAD || in->op == OP_WMMA_STORE) {
		bool big = s == TC_M16N16K16 || s == TC_M32N8K16 || s == TC_M8N32K16;
		uint8_t ty = in->op == OP_WMMA_MMA ? a : t->atype;
		if (in->op != OP_WMMA_MMA) {
			/* which types a fragment of this matrix may have */
			bool ab = t->frag == TCF_A || t->frag == TCF_B;
			if (ab && big && (ty == TCT_F16 || ty == TCT_BF16 || ty == TCT_S8 || ty == TCT_U8))
				return NULL;
			if (!ab && big && (ty == TCT_F16 || ty == TCT_F32 || ty == TCT_S32))
				return NULL;
			if (s == TC_M16N16K8 && (ab ? ty == TCT_TF32 : ty == TCT_F32))
				return NULL;
			if (s == TC_M8N8K4 && ty == TCT_F64)
				return NULL;
			return "shape/type combination is not supported (wmma: .m16n16k16/.m32n8k16/.m8n32k16 with "
			       ".f16/.bf16/.s8/.u8 and .f16/.f32/.s32 accumulators, .m16n16k8 .tf32, .m8n8k4 .f64)";
		}
		if (big && a == TCT_F16 && b == TCT_F16 && (d == TCT_F16 || d == TCT_F32) && (c == TCT_F16 || c == TCT_F32) && !satf)
			return NULL;
		if (big && a == TCT_BF16 && b == TCT_BF16 && d == TCT_F32 && c == TCT_F32 && !satf)
			return NULL;
		if (big && (a == TCT_S8 || a == TCT_U8) && b == a && d == TCT_S32 && c == TCT_S32)
			return NULL;
		if (s == TC_M16N16K8 && a == TCT_TF32 && b == TCT_TF32 && d == TCT_F32 && c == TCT_F32 && !satf)
			return NULL;
		if (s == TC_M8N8K4 && a == TCT_F64 && b == TCT_F64 && d == TCT_F64 && c == TCT_F64 && !satf)
			return NULL;
		return "shape/type combination is not supported (wmma.mma: f16, bf16, tf32, s8/u8 and f64 forms; "
		       "sub-byte and b1 forms are not implemented)";
	}
	bool f16ab = a == TCT_F16 && b == TCT_F16, bf = a == TCT_BF16 && b == TCT_BF16;
	bool i8 = (a == TCT_S8 || a == TCT_U8) && (b == TCT_S8 || b == TCT_U8);
	if ((s == TC_M16N8K16 || s == TC_M16N8K8) && f16ab && !satf &&
	    ((d == TCT_F32 && c == TCT_F32) || (d == TCT_F16 && c == TCT_F16)))
		return NULL;
	if ((s == TC_M16N8K16 || s == TC_M16N8K8) && bf && d == TCT_F32 && c == TCT_F32 && !satf)
		return NULL;
	if ((s == TC_M16N8K8 || s == TC_M16N8K4) && a == TCT_TF32 && b == TCT_TF32 && d == TCT_F32 && c == TCT_F32 && !satf)
		return NULL;
	if ((s == TC_M16N8K32 || s == TC_M16N8K16 || s == TC_M8N8K16) && i8 && d == TCT_S32 && c == TCT_S32)
		return NULL;
	if (s == TC_M8N8K4 && a == TCT_F64 && b == TCT_F64 && d == TCT_F64 && c == TCT_F64 && !satf)
		return NULL;
	if (s == TC_M8N8K4 && f16ab)
		return "the sm_70 .m8n8k4 .f16 form (quad-pair layout) is not implemented";
	return "shape/type combination is not supported (mma.sync: .m16n8k16/.m16n8k8 .f16/.bf16, .m16n8k8/.m16n8k4 "
	       ".tf32, .m16n8k32/.m16n8k16/.m8n8k16 .s8/.u8, .m8n8k4 .f64; sub-byte, b1, fp8 and sparse forms are not "
	       "implemented)";
}

/* (row, col) of slot s of lane l in fragment f. */
static void frag_map(const struct frag *f, int role, unsigned l, unsigned s, unsigned *r, unsigned *c)
{
	if (f->wmma) {
		unsigned e = (s * 32 + l) % (f->rows * f->cols);
		*r = e / f->cols;
		*c = e % f->cols;
		return;
	}
	unsigned g = l >> 2, t = l & 3;
	if (role == ROLE_C || role == ROLE_D) {
		if (f->rows == 8) { /* m8n8kX: c0, c1 */
			*r = g;
			*c = t * 2 + s;
		} else {            /* m16n8kX: c0..c3 */
			*r = g + 8 * (s >> 1);
			*c = t * 2 + (s & 1);
		}
		return;
	}
	unsigned K = role == ROLE_A ? f->cols : f->rows;
	unsigned mn; /* row of A, or column of B */
	unsigned k;
	switch (f->type) {
	case TCT_F16:
	case TCT_BF16:
		if (role == ROLE_A) {
			mn = g + 8 * ((s >> 1) & 1);
			k = t * 2 + (s & 1) + 8 * (s >> 2);
		} else {
			mn = g;
			k = t * 2 + (s & 1) + 8 * (s >> 1);
		}
		break;
	case TCT_TF32:
		if (role == ROLE_A) {
			mn = g + 8 * (s & 1);
			k = t + 4 * (s >> 1);
			if (K == 4) { /* m16n8k4: a0, a1 */
				mn = g + 8 * s;
				k = t;
			}
		} else {
			mn = g;
			k = t + 4 * s;
		}
		break;
	case TCT_F64: /* m8n8k4 */
		mn = g;
		k = t;
		break;
	default: /* s8/u8: four per register */
		if (role == ROLE_A) {
			mn = f->rows == 8 ? g : g + 8 * ((s >> 2) & 1);
			k = t * 4 + (s & 3) + 16 * (s >> 3);
		} else {
			mn = g;
			k = t * 4 + (s & 3) + 16 * (s >> 2);
		}
		break;
	}
	if (role == ROLE_A) {
		*r = mn;
		*c = k;
	} else {
		*r = k;
		*c = mn;
	}
}

/* Register index of register i of a fragment operand. */
static int32_t frag_reg(const struct ptx_operand *o, unsigned i)
{
	if (o->kind == OPD_VEC)
		return i < o->nelem && o->elem[i].kind == OPD_REG ? o->elem[i].reg : -1;
	return i == 0 && o->kind == OPD_REG ? o->reg : -1;
}
static unsigned frag_nregs(const struct ptx_operand *o) { return o->kind == OPD_VEC ? o->nelem : 1; }

/* Element value (as double, or as an integer in *iv) from raw bits. */
static double elem_value(uint8_t type, uint64_t bits, int64_t *iv)
{
	switch (type) {
	case TCT_F16: return fpu_f16_to_double((uint16_t)bits);
	case TCT_BF16: return fpu_bf16_to_double((uint16_t)bits);
	case TCT_TF32: return (double)fpu_f32(bits & 0xffffe000u);
	case TCT_F32: return (double)fpu_f32(bits);
	case TCT_F64: return fpu_f64(bits);
	case TCT_S8: *iv = (int8_t)(uint8_t)bits; return 0;
	case TCT_U8: *iv = (uint8_t)bits; return 0;
	case TCT_S32: *iv = (int32_t)(uint32_t)bits; return 0;
	default: *iv = 0; return 0;
	}
}

static void say(char *why, size_t whysz, const char *fmt, const char *a)
{
	snprintf(why, whysz, fmt, a);
}

/* All 32 lanes must execute a warp-wide matrix instruction. */
static bool check_warp(struct func_launch *L, struct func_cta *c, struct func_warp *w, const struct ptx_insn *in,
		       uint64_t exec)
{
	if (L->ws != 32)
		return func_fail(L, c, w, -1, WS_ERROR_INVALID_VALUE,
				 "%s needs 32-thread warps (warp_size is %u)", ptx_opcode_table[in->op].name, L->ws);
	if (exec != 0xffffffffull)
		return func_fail(L, c, w, exec ? (int)__builtin_ctzll(~exec & 0xffffffffull) : 0, WS_ERROR_INVALID_VALUE,
				 "%s.sync.aligned executed by part of a warp (lanes 0x%08llx): all 32 lanes must execute it",
				 ptx_opcode_table[in->op].name, (unsigned long long)exec);
	return true;
}

/* ---- wmma.mma / mma.sync ---- */

#define TC_MAX_DIM 32

/* wmma.mma, mma: implemented shape/types, every fragment's register count */
static bool check_mma(const struct ptx_insn *in, char *why, size_t whysz)
{
	const char *c = combo_check(in);
	if (c) {
		say(why, whysz, "%s", c);
		return false;
	}
	static const char *const names[] = {"A", "B", "C", "D"};
	static const unsigned opd_of_role[] = {1, 2, 3, 0};
	for (int role = 0; role < 4; role++) {
		struct frag f;
		if (!frag_of(in, role, &f)) {
			say(why, whysz, "%s", "shape/type combination is not supported");
			return false;
		}
		unsigned n = frag_nregs(&in->opd[opd_of_role[role]]);
		if (n != f.nregs) {
			snprintf(why, whysz, "fragment %s has %u register%s, got %u", names[role], f.nregs,
				 f.nregs > 1 ? "s" : "", n);
			return false;
		}
	}
	return true;
}

static bool exec_mma(struct func_launch *L, struct func_cta *c, struct func_warp *w, const struct func_exec *x,
		     const struct ptx_insn *in, struct func_step_info *info)
{
	struct frag fr[4];
	for (int role = 0; role < 4; role++)
		frag_of(in, role, &fr[role]);
	unsigned M = fr[ROLE_D].rows, N = fr[ROLE_D].cols, K = fr[ROLE_A].cols;
	static const unsigned opd_of_role[] = {1, 2, 3, 0};
	/* gather A, B, C (slot by slot; duplicated wmma slots hold the same element) */
	double fa[TC_MAX_DIM][TC_MAX_DIM], fb[TC_MAX_DIM][TC_MAX_DIM], fc[TC_MAX_DIM][TC_MAX_DIM];
	int64_t ia[TC_MAX_DIM][TC_MAX_DIM], ib[TC_MAX_DIM][TC_MAX_DIM], ic[TC_MAX_DIM][TC_MAX_DIM];
	bool seen[3][TC_MAX_DIM][TC_MAX_DIM];
	memset(seen, 0, sizeof seen);
	for (int role = ROLE_A; role <= ROLE_C; role++) {
		const struct frag *f = &fr[role];
		const struct ptx_operand *o = &in->opd[opd_of_role[role]];
		double(*fv)[TC_MAX_DIM] = role == ROLE_A ? fa : role == ROLE_B ? fb : fc;
		int64_t(*iv)[TC_MAX_DIM] = role == ROLE_A ? ia : role == ROLE_B ? ib : ic;
		for (unsigned i = 0; i < f->nregs; i++) {
			const uint64_t *rv = func_reg(x, frag_reg(o, i));
			for (unsigned l = 0; l < 32; l++)
				for (unsigned j = 0; j < f->epr; j++) {
					unsigned s = i * f->epr + j, r, cc;
					frag_map(f, role, l, s, &r, &cc);
					if (seen[role][r][cc])
						continue; /* the first copy of a duplicated wmma element */
					seen[role][r][cc] = true;
					uint64_t bits = f->ebits >= 64 ? rv[l] : (rv[l] >> (j * f->ebits)) & ((1ull << f->ebits) - 1);
					fv[r][cc] = elem_value(f->type, bits, &iv[r][cc]);
				}
		}
	}
	/* D = A x B + C: k in order, see the header */
	uint64_t dbits[TC_MAX_DIM][TC_MAX_DIM];
	bool integer = is_int_type(in->tc.atype);
	for (unsigned i = 0; i < M; i++)
		for (unsigned j = 0; j < N; j++) {
			if (integer) {
				int64_t acc = ic[i][j];
				for (unsigned k = 0; k < K; k++)
					acc += ia[i][k] * ib[k][j];
				if (in->tc.layout & TCL_SATF)
					acc = acc > INT32_MAX ? INT32_MAX : acc < INT32_MIN ? INT32_MIN : acc;
				dbits[i][j] = (uint32_t)acc;
				continue;
			}
			double acc = fc[i][j];
			for (unsigned k = 0; k < K; k++)
				acc = fma(fa[i][k], fb[k][j], acc);
			switch (in->tc.dtype) {
			case TCT_F16: dbits[i][j] = fpu_from_double(acc, 0, FPU_F16, RND_RN); break;
			case TCT_F32: dbits[i][j] = fpu_from_double(acc, 0, FPU_F32, RND_RN); break;
			default: dbits[i][j] = isnan(acc) ? FPU_NAN64 : fpu_b64(acc); break;
			}
		}
	/* scatter D (after every source was read: D may alias A, B or C) */
	const struct frag *f = &fr[ROLE_D];
	for (unsigned i = 0; i < f->nregs; i++) {
		uint64_t *rv = func_reg(x, frag_reg(&in->opd[0], i));
		for (unsigned l = 0; l < 32; l++) {
			uint64_t v = 0;
			for (unsigned j = 0; j < f->epr; j++) {
				unsigned r, cc;
				frag_map(f, ROLE_D, l, i * f->epr + j, &r, &cc);
				uint64_t b = dbits[r][cc];
				v |= f->ebits >= 64 ? b : (b & ((1ull << f->ebits) - 1)) << (j * f->ebits);
			}
			rv[l] = v;
		}
	}
	(void)L;
	(void)c;
	(void)w;
	return true;
}

/* ---- wmma.load / wmma.store ---- */

/* wmma.load, wmma.store: an implemented fragment, its register count */
static bool check_wmma_mem(const struct ptx_insn *in, char *why, size_t whysz)
{
	const struct ptx_tc *t = &in->tc;
	const char *c = combo_check(in);
	if (c) {
		say(why, whysz, "%s", c);
		return false;
	}
	struct frag f;
	int role = t->frag == TCF_A ? ROLE_A : t->frag == TCF_B ? ROLE_B : ROLE_C;
	struct ptx_insn tmp = *in;
	tmp.tc.btype = tmp.tc.ctype = tmp.tc.dtype = t->atype;
	frag_of(&tmp, role, &f);
	const struct ptx_operand *v = &in->opd[in->op == OP_WMMA_LOAD ? 0 : 1];
	if (frag_nregs(v) != f.nregs) {
		snprintf(why, whysz, "this fragment has %u register%s, got %u", f.nregs, f.nregs > 1 ? "s" : "",
			 frag_nregs(v));
		return false;
	}
	return true;
}

static bool exec_wmma_mem(struct func_launch *L, struct func_cta *c, struct func_warp *w, const struct func_exec *x,
			  const struct ptx_insn *in, struct func_step_info *info)
{
	bool store = in->op == OP_WMMA_STORE;
	const struct ptx_tc *t = &in->tc;
	int role = t->frag == TCF_A ? ROLE_A : t->frag == TCF_B ? ROLE_B : ROLE_C;
	struct ptx_insn tmp = *in;
	tmp.tc.btype = tmp.tc.ctype = tmp.tc.dtype = t->atype;
	struct frag f;
	frag_of(&tmp, role, &f);
	bool colmajor = (t->layout & TCL_ACOL) != 0;
	const struct ptx_operand *aop = &in->opd[store ? 0 : 1], *vop = &in->opd[store ? 1 : 0];
	uint64_t base[WS_MAX_WARP];
	enum ptx_space space = func_mem_addresses(x, in, aop, base, 0xffffffffull);
	uint64_t stride[WS_MAX_WARP];
	if (in->nopd == 3) {
		uint64_t tmpv[WS_MAX_WARP];
		const uint64_t *sv = func_src(x, &in->opd[2], tmpv);
		for (unsigned l = 0; l < 32; l++)
			stride[l] = (uint32_t)sv[l];
	} else {
		for (unsigned l = 0; l < 32; l++)
			stride[l] = colmajor ? f.rows : f.cols;
	}
	unsigned esz = f.ebits / 8;
	L->stats->v[STAT_mem_insts]++;
	for (unsigned i = 0; i < f.nregs; i++) {
		uint64_t *rv = func_reg(x, frag_reg(vop, i));
		for (unsigned l = 0; l < 32; l++) {
			uint64_t v = store ? rv[l] : 0;
			for (unsigned j = 0; j < f.epr; j++) {
				unsigned r, cc;
				frag_map(&f, role, l, i * f.epr + j, &r, &cc);
				uint64_t off = colmajor ? (uint64_t)cc * stride[l] + r : (uint64_t)r * stride[l] + cc;
				enum ptx_space rsp;
				uint8_t *p = func_mem_ptr(L, c, w, l, space, base[l] + off * esz, esz, store, &rsp);
				if (!p)
					return false;
				if (store) {
					uint64_t e = esz == 8 ? v : (v >> (j * f.ebits)) & ((1ull << f.ebits) - 1);
					if (!func_mem_write(L, c, w, l, p, rsp, e, esz))
						return false;
				} else {
					uint64_t e = 0;
					memcpy(&e, p, esz);
					v |= esz == 8 ? e : e << (j * f.ebits);
				}
			}
			if (!store)
				rv[l] = v;
		}
	}
	/* for the timing model: the matrix as its contiguous lines (rows of a
	 * row-major matrix, columns of a column-major one), each line split
	 * evenly over 32 / lines lanes.  The LD/ST model takes at most 16 bytes
	 * per lane; a 32-byte piece is represented by its first 16 bytes, which
	 * touch the same 32-byte sectors and cache lines. */
	unsigned nlines = colmajor ? f.cols : f.rows, line_elems = colmajor ? f.rows : f.cols;
	unsigned lanes_per_line = nlines >= 32 ? 1 : 32 / nlines;
	unsigned chunk = line_elems * esz / lanes_per_line;
	info->space = (uint8_t)space;
	info->access_size = (uint8_t)(chunk > 16 ? 16 : chunk);
	info->mem_lanes_set = true;
	info->mem_lanes = 0;
	for (unsigned l = 0; l < 32 && l / lanes_per_line < nlines; l++) {
		uint64_t a = base[l] + ((uint64_t)(l / lanes_per_line) * stride[l] * esz) + (l % lanes_per_line) * chunk;
		info->mem_lanes |= 1ull << l;
		info->addr[l] = a;
		if (space == SPACE_NONE) {
			enum ptx_space sp;
			if (!func_mem_ptr(L, c, w, l, SPACE_NONE, a, 1, false, &sp))
				return false;
			info->lane_space[l] = (uint8_t)sp;
		}
	}
	return true;
}

/* ---- ldmatrix / stmatrix ---- */

/* ldmatrix, stmatrix: .m8n8 .b16, .x1/.x2/.x4 registers */
static bool check_matrix(const struct ptx_insn *in, char *why, size_t whysz)
{
	const struct ptx_tc *t = &in->tc;
	if (t->shape != TC_M8N8 || t->atype != TCT_B16) {
		say(why, whysz, "%s: only .m8n8 with .b16 is implemented", ptx_opcode_table[in->op].name);
		return false;
	}
	const struct ptx_operand *v = &in->opd[in->op == OP_LDMATRIX ? 0 : 1];
	if (frag_nregs(v) != t->num) {
		snprintf(why, whysz, "%s .x%u needs %u register%s", ptx_opcode_table[in->op].name, t->num, t->num,
			 t->num > 1 ? "s" : "");
		return false;
	}
	return true;
}

static bool exec_matrix_mem(struct func_launch *L, struct func_cta *c, struct func_warp *w, const struct func_exec *x,
			    const struct ptx_insn *in, struct func_step_info *info)
{
	bool store = in->op == OP_STMATRIX;
	bool trans = (in->tc.layout & TCL_TRANS) != 0;
	unsigned num = in->tc.num;
	const struct ptx_operand *aop = &in->opd[store ? 0 : 1], *vop = &in->opd[store ? 1 : 0];
	uint64_t rowaddr[WS_MAX_WARP];
	enum ptx_space space = func_mem_addresses(x, in, aop, rowaddr, 0xffffffffull);
	L->stats->v[STAT_mem_insts]++;
	/* lane l, register i holds elements (l/4, 2*(l%4)+j), j = 0, 1 of matrix i
	 * (transposed: (2*(l%4)+j, l/4)); row r of matrix i starts at the address
	 * of lane 8*i + r */
	uint32_t out[4][WS_MAX_WARP];
	for (unsigned i = 0; i < num; i++) {
		const uint64_t *rv = func_reg(x, frag_reg(vop, i));
		for (unsigned l = 0; l < 32; l++) {
			uint32_t v = store ? (uint32_t)rv[l] : 0;
			for (unsigned j = 0; j < 2; j++) {
				unsigned r = trans ? 2 * (l % 4) + j : l / 4, col = trans ? l / 4 : 2 * (l % 4) + j;
				enum ptx_space rsp;
				uint8_t *p = func_mem_ptr(L, c, w, 8 * i + r, space, rowaddr[8 * i + r] + 2 * col, 2, store, &rsp);
				if (!p)
					return false;
				if (store) {
					if (!func_mem_write(L, c, w, 8 * i + r, p, rsp, (uint16_t)(v >> (16 * j)), 2))
						return false;
				} else {
					uint16_t h;
					memcpy(&h, p, 2);
					v |= (uint32_t)h << (16 * j);
				}
			}
			out[i][l] = v;
		}
	}
	if (!store)
		for (unsigned i = 0; i < num; i++) {
			uint64_t *rv = func_reg(x, frag_reg(vop, i));
			for (unsigned l = 0; l < 32; l++)
				rv[l] = out[i][l];
		}
	/* timing: the 8 * num lanes that supply row addresses, 16 bytes each */
	info->space = (uint8_t)space;
	info->access_size = 16;
	info->mem_lanes_set = true;
	info->mem_lanes = num * 8 >= 64 ? ~0ull : (1ull << (num * 8)) - 1;
	for (unsigned l = 0; l < num * 8; l++) {
		info->addr[l] = rowaddr[l];
		if (space == SPACE_NONE) {
			enum ptx_space sp;
			if (!func_mem_ptr(L, c, w, l, SPACE_NONE, rowaddr[l], 1, false, &sp))
				return false;
			info->lane_space[l] = (uint8_t)sp;
		}
	}
	return true;
}

/* The step of every tensor handler: the warp check, then the instruction. */
static bool tensor_step(const struct func_step *s,
			bool (*run)(struct func_launch *L, struct func_cta *c, struct func_warp *w,
				    const struct func_exec *x, const struct ptx_insn *in, struct func_step_info *info))
{
	s->info->mem_lanes_set = false;
	if (!check_warp(s->L, s->c, s->w, s->in, s->exec) || !run(s->L, s->c, s->w, s->x, s->in, s->info))
		return false;
	func_step_next(s);
	return true;
}

static bool step_mma(const struct func_step *s) { return tensor_step(s, exec_mma); }
static bool step_wmma_mem(const struct func_step *s) { return tensor_step(s, exec_wmma_mem); }
static bool step_matrix(const struct func_step *s) { return tensor_step(s, exec_matrix_mem); }

const struct func_op func_op_mma = {.check = check_mma, .step = step_mma};                /* wmma.mma, mma */
const struct func_op func_op_wmma_mem = {.check = check_wmma_mem, .step = step_wmma_mem}; /* wmma.load/store */
const struct func_op func_op_matrix = {.check = check_matrix, .step = step_matrix};       /* ldmatrix, stmatrix */
