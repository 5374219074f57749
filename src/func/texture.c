/*
 * texture.c -- the texture unit of the functional model: tex, tld4, txq
 * (texture objects) and suld, sust, suq (surface objects).  See texture.h.
 *
 * Filtering follows the CUDA Programming Guide, appendix "Texture
 * Fetching": with N texels and coordinate x (scaled by N when normalized),
 * nearest-point returns T[floor(x)]; linear returns (1-a)T[i] + aT[i+1] with
 * xB = x - 0.5, i = floor(xB) and a = frac(xB) held in 9-bit fixed point
 * with 8 fractional bits (bilinear and trilinear likewise per dimension).
 * Addressing acts on texel indices: clamp to [0, N-1]; border returns the
 * border colour (zero by default); wrap and mirror (period N and 2N) only
 * with normalized coordinates, otherwise they clamp.  Integer coordinates
 * (.s32) fetch one texel without filtering; on linear memory an index out
 * of range returns zero (tex1Dfetch).  Cube maps select a face by the major
 * axis of the direction (the guide's cube-map table) and clamp within it.
 * Resources have one mipmap level, so tex.level and tex.grad read level 0.
 *
 * Surface accesses (.b forms) address x in bytes; .trap faults on an
 * out-of-range access, .clamp moves it to the nearest element, .zero reads
 * zero and drops stores.
 */
#include <math.h>
#include <string.h>

#include "func/fpu.h"
#include "func/func.h"
#include "func/memop.h"
#include "func/op.h"
#include "func/operand.h"
#include "func/texture.h"

bool func_texop_check(const struct ptx_insn *in, char *why, size_t whysz)
{
	if (in->geom == GEOM_2DMS || in->geom == GEOM_A2DMS) {
		snprintf(why, whysz, "multi-sample geometry .%s is not supported", ptx_geom_name[in->geom]);
		return false;
	}
	switch (in->op) {
	case OP_TEX:
	case OP_TLD4:
		if (in->type != PTX_T_F32 && in->type != PTX_T_S32 && in->type != PTX_T_U32) {
			snprintf(why, whysz, "%s with result type .%s is not supported (only .f32, .s32, .u32)",
				 ptx_opcode_table[in->op].name, ptx_type_name[in->type]);
			return false;
		}
		if (in->op == OP_TEX && in->type2 == PTX_T_S32 && in->tx != TX_BASE) {
			snprintf(why, whysz, "integer coordinates take no level of detail");
			return false;
		}
		return true;
	case OP_SULD:
	case OP_SUST:
		if (in->tx & TX_FORMATTED) {
			snprintf(why, whysz, "formatted surface access (.p) is not supported; nvcc emits .b");
			return false;
		}
		return true;
	case OP_TXQ:
	case OP_SUQ:
		return true;
	default:
		snprintf(why, whysz, "not a texture instruction");
		return false;
	}
}

/* ---- arithmetic ---- */

float tex_weight(float f)
{
	if (!(f > 0.0f))
		return 0.0f;
	if (f >= 1.0f)
		return 1.0f;
	return (float)(long)(f * 256.0f + 0.5f) / 256.0f;
}

/* floor to an integer index, safe for huge values and NaN */
static int64_t ifloor(float x)
{
	if (x != x)
		return 0;
	if (x < -1e15f)
		return -(int64_t)1000000000000000ll;
	if (x > 1e15f)
		return 1000000000000000ll;
	return (int64_t)floorf(x);
}

int64_t tex_address(int64_t i, uint64_t n, unsigned mode, bool normalized)
{
	int64_t N = (int64_t)n;
	if (!normalized && (mode == TEXADDR_WRAP || mode == TEXADDR_MIRROR))
		mode = TEXADDR_CLAMP;
	switch (mode) {
	case TEXADDR_WRAP: {
		int64_t m = i % N;
		return m < 0 ? m + N : m;
	}
	case TEXADDR_MIRROR: {
		int64_t m = i % (2 * N);
		if (m < 0)
			m += 2 * N;
		return m >= N ? 2 * N - 1 - m : m;
	}
	case TEXADDR_BORDER:
		return i < 0 || i >= N ? -1 : i;
	case TEXADDR_CLAMP:
	default:
		return i < 0 ? 0 : i >= N ? N - 1 : i;
	}
}

unsigned tex_cube_face(float x, float y, float z, float *u, float *v)
{
	float ax = fabsf(x), ay = fabsf(y), az = fabsf(z), s, t, m;
	unsigned face;
	if (ax >= ay && ax >= az) {
		face = x >= 0 ? 0 : 1;
		m = ax;
		s = x >= 0 ? -z : z;
		t = -y;
	} else if (ay >= az) {
		face = y >= 0 ? 2 : 3;
		m = ay;
		s = x;
		t = y >= 0 ? z : -z;
	} else {
		face = z >= 0 ? 4 : 5;
		m = az;
		s = z >= 0 ? x : -x;
		t = -y;
	}
	if (!(m > 0)) {
		*u = *v = 0.5f;
		return face;
	}
	*u = (s / m + 1.0f) * 0.5f;
	*v = (t / m + 1.0f) * 0.5f;
	return face;
}

/* ---- texel access ---- */

struct fetch {
	struct func_launch *L;
	struct func_cta *c;
	struct func_warp *w;
	unsigned lane;
	const struct tex_object *o;
	bool float_result;   /* the texture returns floats (float format or normalized read) */
	uint64_t first_addr; /* address of the first texel read (for the timing model) */
	bool have_addr;
};

static float half_to_float(uint16_t h) { return (float)fpu_f16_to_double(h); }

/* Channel values of the texel at (i, j, k) of layer `layer` (indices already
 * addressed; -1 anywhere: the border colour).  Float results in f[], integer
 * results (element-type reads of integer formats) in n[]. */
static bool texel(struct fetch *F, int64_t i, int64_t j, int64_t k, uint64_t layer, float f[4], int64_t n[4])
{
	const struct tex_object *o = F->o;
	if (i < 0 || j < 0 || k < 0) {
		for (int ch = 0; ch < 4; ch++) {
			f[ch] = o->border[ch];
			n[ch] = (int64_t)o->border[ch];
		}
		return true;
	}
	unsigned esz = tex_elem_bytes(o);
	uint64_t a = o->base + layer * (o->dims == 3 ? o->slice * o->depth : o->slice) + (uint64_t)k * o->slice +
		     (uint64_t)j * o->pitch + (uint64_t)i * esz;
	uint8_t *p = dmem_ptr_cached(F->L->mem, &F->L->dmem_last, a, esz);
	if (!p)
		return func_fail(F->L, F->c, F->w, (int)F->lane, WS_ERROR_ILLEGAL_ADDRESS,
				 "texture fetch outside device memory at 0x%llx (texel %lld,%lld,%lld layer %llu)",
				 (unsigned long long)a, (long long)i, (long long)j, (long long)k,
				 (unsigned long long)layer);
	if (!F->have_addr) {
		F->first_addr = a;
		F->have_addr = true;
	}
	for (unsigned ch = 0; ch < 4; ch++) {
		if (ch >= o->nch) {
			f[ch] = ch == 3 ? 1.0f : 0.0f;
			n[ch] = ch == 3 ? 1 : 0;
			continue;
		}
		const uint8_t *q = p + ch * (o->ch_bits / 8u);
		uint64_t raw = 0;
		memcpy(&raw, q, o->ch_bits / 8u); /* little-endian host */
		if (o->fmt == TEXFMT_FLOAT) {
			if (o->ch_bits == 16)
				f[ch] = half_to_float((uint16_t)raw);
			else {
				uint32_t u = (uint32_t)raw;
				memcpy(&f[ch], &u, 4);
			}
			n[ch] = (int64_t)(uint32_t)raw;
			continue;
		}
		int64_t v;
		unsigned b = o->ch_bits;
		if (o->fmt == TEXFMT_SIGNED)
			v = b >= 64 ? (int64_t)raw : (int64_t)((raw ^ (1ull << (b - 1))) - (1ull << (b - 1)));
		else
			v = (int64_t)raw;
		n[ch] = v;
		if (o->read_normalized && b <= 16) {
			if (o->fmt == TEXFMT_SIGNED) {
				float r = (float)v / (float)((1 << (b - 1)) - 1);
				f[ch] = r < -1.0f ? -1.0f : r;
			} else {
				f[ch] = (float)v / (float)((1u << b) - 1);
			}
		} else {
			f[ch] = (float)v;
		}
	}
	return true;
}

/* Sample with float coordinates u (x, y, z; as many as dims) on one layer. */
static bool sample(struct fetch *F, const float *u, uint64_t layer, bool force_norm, float out_f[4], int64_t out_n[4])
{
	const struct tex_object *o = F->o;
	uint64_t size[3] = {o->width, o->height, o->depth};
	bool norm = o->normalized_coords || force_norm;
	int64_t i0[3] = {0, 0, 0}, i1[3] = {0, 0, 0};
	float a[3] = {0, 0, 0};
	for (unsigned d = 0; d < o->dims; d++) {
		float x = u[d];
		float s = norm ? x * (float)size[d] : x;
		unsigned mode = force_norm ? TEXADDR_CLAMP : o->addr[d];
		if (o->linear) {
			float xb = s - 0.5f;
			int64_t i = ifloor(xb);
			a[d] = tex_weight(xb - floorf(xb));
			i0[d] = tex_address(i, size[d], mode, norm);
			i1[d] = tex_address(i + 1, size[d], mode, norm);
		} else {
			i0[d] = tex_address(ifloor(s), size[d], mode, norm);
		}
	}
	if (!o->linear)
		return texel(F, i0[0], i0[1], i0[2], layer, out_f, out_n);
	float acc[4] = {0, 0, 0, 0};
	unsigned corners = 1u << o->dims;
	for (unsigned cidx = 0; cidx < corners; cidx++) {
		float wgt = 1.0f;
		int64_t idx[3] = {0, 0, 0};
		for (unsigned d = 0; d < o->dims; d++) {
			bool hi = (cidx >> d) & 1;
			idx[d] = hi ? i1[d] : i0[d];
			wgt *= hi ? a[d] : 1.0f - a[d];
		}
		float f[4];
		int64_t n[4];
		if (!texel(F, idx[0], idx[1], idx[2], layer, f, n))
			return false;
		for (int ch = 0; ch < 4; ch++)
			acc[ch] += wgt * f[ch];
	}
	for (int ch = 0; ch < 4; ch++) {
		out_f[ch] = acc[ch];
		out_n[ch] = (int64_t)acc[ch];
	}
	return true;
}

/* ---- operands ---- */

static uint64_t elem_val(const struct func_exec *x, const struct ptx_operand *o, unsigned e, unsigned lane)
{
	if (o->kind == OPD_VEC) {
		if (e >= o->nelem)
			return 0;
		const struct ptx_elem *el = &o->elem[e];
		if (el->kind == OPD_REG)
			return func_reg(x, el->reg)[lane];
		return el->kind == OPD_IMM ? el->imm : 0;
	}
	if (o->kind == OPD_REG)
		return func_reg(x, o->reg)[lane];
	return o->kind == OPD_IMM ? o->imm : 0;
}

static float as_f32(uint64_t v)
{
	uint32_t u = (uint32_t)v;
	float f;
	memcpy(&f, &u, 4);
	return f;
}

static uint32_t f32_bits(float f)
{
	uint32_t u;
	memcpy(&u, &f, 4);
	return u;
}

static void write_dst(const struct func_exec *x, const struct ptx_operand *o, unsigned e, unsigned lane, uint64_t v)
{
	if (o->kind == OPD_VEC) {
		if (e < o->nelem && o->elem[e].kind == OPD_REG)
			func_reg(x, o->elem[e].reg)[lane] = v;
		return;
	}
	if (e == 0 && o->kind == OPD_REG)
		func_reg(x, o->reg)[lane] = v;
}

/* The object a lane's handle names, or NULL after recording an error. */
static const struct tex_object *object_of(struct func_launch *L, struct func_cta *c, struct func_warp *w,
					  const struct func_exec *x, const struct ptx_operand *h, unsigned lane,
					  unsigned want)
{
	uint64_t handle;
	if (h->kind == OPD_SYM) { /* .texref / .surfref variable: holds the handle */
		uint64_t a = func_var_addr(x, h->sym);
		const uint8_t *p = dmem_ptr_cached(L->mem, &L->dmem_last, a, 8);
		if (!p) {
			func_fail(L, c, w, (int)lane, WS_ERROR_ILLEGAL_ADDRESS, "cannot read handle variable %s",
				  L->mod->vars[h->sym].name);
			return NULL;
		}
		memcpy(&handle, p, 8);
	} else {
		handle = func_reg(x, h->reg)[lane];
		/* "mov.u64 %rd, my_texref": a pointer to an opaque variable holds no handle but points at one */
		if (handle > L->ntexobjs)
			for (uint32_t v = 0; v < L->mod->nvars; v++) {
				const struct ptx_var *pv = &L->mod->vars[v];
				if (pv->opaque && pv->func < 0 && pv->space == SPACE_GLOBAL && handle == L->global_base + pv->addr) {
					const uint8_t *p = dmem_ptr_cached(L->mem, &L->dmem_last, handle, 8);
					if (p)
						memcpy(&handle, p, 8);
					break;
				}
			}
	}
	const char *what = want == TEXOBJ_TEXTURE ? "texture" : "surface";
	if (handle == 0 || handle > L->ntexobjs || L->texobjs[handle - 1].kind == TEXOBJ_FREE) {
		func_fail(L, c, w, (int)lane, WS_ERROR_ILLEGAL_INSTRUCTION, "invalid %s object handle %llu%s", what,
			  (unsigned long long)handle, handle && handle <= L->ntexobjs ? " (destroyed)" : "");
		return NULL;
	}
	const struct tex_object *o = &L->texobjs[handle - 1];
	if (o->kind != want) {
		func_fail(L, c, w, (int)lane, WS_ERROR_ILLEGAL_INSTRUCTION, "handle %llu is a %s object, not a %s object",
			  (unsigned long long)handle, o->kind == TEXOBJ_TEXTURE ? "texture" : "surface", what);
		return NULL;
	}
	return o;
}

static bool geom_fits(const struct tex_object *o, unsigned geom)
{
	switch (geom) {
	case GEOM_1D: return o->dims == 1 && !o->layered && !o->cubemap;
	case GEOM_2D: return o->dims == 2 && !o->layered && !o->cubemap;
	case GEOM_3D: return o->dims == 3;
	case GEOM_A1D: return o->dims == 1 && o->layered;
	case GEOM_A2D: return o->dims == 2 && o->layered && !o->cubemap;
	case GEOM_CUBE: return o->cubemap && !o->layered;
	case GEOM_ACUBE: return o->cubemap && o->layered;
	default: return false;
	}
}

static const char *obj_shape(const struct tex_object *o)
{
	if (o->cubemap)
		return o->layered ? "layered cube map" : "cube map";
	static const char *const n[2][4] = {{"", "1D", "2D", "3D"}, {"", "layered 1D", "layered 2D", "layered 3D"}};
	return n[o->layered ? 1 : 0][o->dims & 3];
}

/* Result words of a tex/tld4 for one lane: 4 values in the destination type. */
static bool tex_lane(struct fetch *F, const struct func_exec *x, const struct ptx_insn *in, unsigned lane,
		     uint32_t res[4])
{
	const struct tex_object *o = F->o;
	const struct ptx_operand *co = &in->opd[2];
	bool icoord = in->type2 == PTX_T_S32;
	unsigned g = in->geom, first = (g == GEOM_A1D || g == GEOM_A2D || g == GEOM_ACUBE) ? 1 : 0;
	uint64_t layer = 0;
	if (first) { /* the layer index is an unsigned 32-bit integer; clamped to the layers there are */
		uint64_t li = (uint32_t)elem_val(x, co, 0, lane);
		uint64_t nl = g == GEOM_ACUBE ? o->layers / 6 : o->layers;
		layer = li >= nl ? nl - 1 : li;
	}
	float f[4];
	int64_t n[4];
	if (g == GEOM_CUBE || g == GEOM_ACUBE) {
		float d[3];
		for (unsigned k = 0; k < 3; k++)
			d[k] = icoord ? (float)(int32_t)elem_val(x, co, first + k, lane) : as_f32(elem_val(x, co, first + k, lane));
		float uv[2];
		unsigned face = tex_cube_face(d[0], d[1], d[2], &uv[0], &uv[1]);
		if (!sample(F, uv, layer * 6 + face, true, f, n))
			return false;
	} else if (in->op == OP_TLD4) {
		float u[2];
		for (unsigned k = 0; k < 2; k++)
			u[k] = as_f32(elem_val(x, co, first + k, lane));
		/* the 2x2 footprint of bilinear filtering, component tx of each texel:
		 * x = T[i, j+1], y = T[i+1, j+1], z = T[i+1, j], w = T[i, j] */
		uint64_t size[2] = {o->width, o->height};
		int64_t i0[2], i1[2];
		for (unsigned d = 0; d < 2; d++) {
			float s = o->normalized_coords ? u[d] * (float)size[d] : u[d];
			int64_t i = ifloor(s - 0.5f);
			i0[d] = tex_address(i, size[d], o->addr[d], o->normalized_coords);
			i1[d] = tex_address(i + 1, size[d], o->addr[d], o->normalized_coords);
		}
		const int64_t pick[4][2] = {{i0[0], i1[1]}, {i1[0], i1[1]}, {i1[0], i0[1]}, {i0[0], i0[1]}};
		unsigned comp = in->tx & 3;
		for (unsigned k = 0; k < 4; k++) {
			float tf[4];
			int64_t tn[4];
			if (!texel(F, pick[k][0], pick[k][1], 0, layer, tf, tn))
				return false;
			f[k] = tf[comp];
			n[k] = tn[comp];
		}
	} else if (icoord) {
		int64_t idx[3] = {0, 0, 0};
		uint64_t size[3] = {o->width, o->height, o->depth};
		for (unsigned d = 0; d < o->dims; d++) {
			int64_t i = (int32_t)elem_val(x, co, first + d, lane);
			if (o->res == TEXRES_LINEAR) /* tex1Dfetch: out of range reads zero */
				idx[d] = i < 0 || (uint64_t)i >= size[d] ? -2 : i;
			else
				idx[d] = tex_address(i, size[d], o->addr[d], false);
		}
		if (idx[0] == -2) {
			for (int ch = 0; ch < 4; ch++) {
				f[ch] = 0;
				n[ch] = 0;
			}
		} else if (!texel(F, idx[0], idx[1], idx[2], layer, f, n)) {
			return false;
		}
	} else {
		float u[3];
		for (unsigned d = 0; d < o->dims; d++)
			u[d] = as_f32(elem_val(x, co, first + d, lane));
		if (!sample(F, u, layer, false, f, n))
			return false;
	}
	for (unsigned k = 0; k < 4; k++)
		res[k] = in->type == PTX_T_F32 ? (F->float_result ? f32_bits(f[k]) : f32_bits((float)n[k]))
						: (F->float_result ? (uint32_t)(int32_t)f[k] : (uint32_t)n[k]);
	return true;
}

/* Surface element address for one lane; *skip when a .zero access is out of range. */
static bool surf_addr(struct fetch *F, const struct func_exec *x, const struct ptx_insn *in, const struct ptx_operand *co,
		      unsigned size, uint64_t *addr, bool *skip)
{
	const struct tex_object *o = F->o;
	unsigned g = in->geom, first = (g == GEOM_A1D || g == GEOM_A2D) ? 1 : 0;
	int64_t c[4] = {0, 0, 0, 0};
	uint64_t lim[4] = {o->width * tex_elem_bytes(o), o->height, o->depth, o->layers};
	for (unsigned d = 0; d < o->dims; d++)
		c[d] = (int32_t)elem_val(x, co, first + d, F->lane);
	if (first)
		c[3] = (int64_t)(uint32_t)elem_val(x, co, 0, F->lane);
	*skip = false;
	if (size > lim[0])
		return func_fail(F->L, F->c, F->w, (int)F->lane, WS_ERROR_ILLEGAL_INSTRUCTION,
				 "%u-byte surface access is wider than the surface's %llu-byte rows", size,
				 (unsigned long long)lim[0]);
	if (c[0] % size)
		return func_fail(F->L, F->c, F->w, (int)F->lane, WS_ERROR_MISALIGNED_ADDRESS,
				 "surface x coordinate %lld (bytes) is not a multiple of the %u-byte access", (long long)c[0],
				 size);
	for (unsigned d = 0; d < 4; d++) {
		int64_t hi = d == 0 ? (int64_t)lim[0] - (int64_t)size : (int64_t)lim[d] - 1;
		if (c[d] >= 0 && c[d] <= hi)
			continue;
		switch (in->tx & 3) {
		case TX_CLAMP:
			c[d] = c[d] < 0 ? 0 : hi;
			break;
		case TX_ZERO:
			*skip = true;
			return true;
		default:
			return func_fail(F->L, F->c, F->w, (int)F->lane, WS_ERROR_ILLEGAL_ADDRESS,
					 "surface access out of range (.trap): %c = %lld, size %llu%s", "xyzl"[d],
					 (long long)c[d], (unsigned long long)lim[d], d == 0 ? " bytes" : "");
		}
	}
	*addr = o->base + (uint64_t)c[3] * (o->dims == 3 ? o->slice * o->depth : o->slice) + (uint64_t)c[2] * o->slice +
		(uint64_t)c[1] * o->pitch + (uint64_t)c[0];
	return true;
}

static uint32_t query(const struct tex_object *o, unsigned q)
{
	static const uint32_t cl_type[3][3] = {
		/* signed, unsigned, float (OpenCL CL_* channel data types) by 8/16/32 bits */
		{0x10D7, 0x10D8, 0x10D9}, {0x10DA, 0x10DB, 0x10DC}, {0x10DD, 0x10DD, 0x10DE}};
	unsigned bi = o->ch_bits == 8 ? 0 : o->ch_bits == 16 ? 1 : 2;
	switch (q) {
	case TXQ_WIDTH: return (uint32_t)o->width;
	case TXQ_HEIGHT: return (uint32_t)o->height;
	case TXQ_DEPTH: return (uint32_t)o->depth;
	case TXQ_CHANNEL_DATA_TYPE:
		if (o->read_normalized && o->fmt != TEXFMT_FLOAT && bi < 2) /* CL_SNORM_INT8.. CL_UNORM_INT16 */
			return (o->fmt == TEXFMT_SIGNED ? 0x10D0 : 0x10D2) + bi;
		return o->fmt == TEXFMT_FLOAT ? (bi == 1 ? 0x10DD : 0x10DE) : cl_type[o->fmt][bi];
	case TXQ_CHANNEL_ORDER: return o->nch == 1 ? 0x10B0 : o->nch == 2 ? 0x10B2 : o->nch == 3 ? 0x10B4 : 0x10B5;
	case TXQ_NORMALIZED_COORDS: return o->normalized_coords;
	case TXQ_FILTER_MODE: return o->linear;
	case TXQ_ADDR_MODE_0:
	case TXQ_ADDR_MODE_1:
	case TXQ_ADDR_MODE_2: {
		/* PTX's enumeration order: wrap, mirror, clamp_ogl, clamp_to_edge, clamp_to_border */
		static const uint8_t ptx_mode[4] = {[TEXADDR_WRAP] = 0, [TEXADDR_MIRROR] = 1, [TEXADDR_CLAMP] = 3,
						    [TEXADDR_BORDER] = 4};
		return ptx_mode[o->addr[q - TXQ_ADDR_MODE_0] & 3];
	}
	case TXQ_ARRAY_SIZE: return (uint32_t)(o->cubemap ? o->layers / 6 : o->layers);
	case TXQ_NUM_MIPMAP_LEVELS: return 1;
	case TXQ_NUM_SAMPLES: return 0;
	case TXQ_MEMORY_LAYOUT: return o->res == TEXRES_ARRAY ? 0 : 1;
	default: return 0;
	}
}

bool func_exec_texop(struct func_launch *L, struct func_cta *c, struct func_warp *w, const struct func_exec *x,
		     const struct ptx_insn *in, uint64_t exec, struct func_step_info *info)
{
	enum ptx_opcode op = (enum ptx_opcode)in->op;
	bool surf = op == OP_SULD || op == OP_SUST || op == OP_SUQ;
	unsigned want = surf ? TEXOBJ_SURFACE : TEXOBJ_TEXTURE;
	const struct ptx_operand *h = &in->opd[op == OP_SUST ? 0 : 1];
	info->space = SPACE_GLOBAL;
	unsigned vec = in->vec ? in->vec : 1;
	unsigned tsz = ptx_type_size[in->type];
	info->access_size = (uint8_t)(op == OP_SULD || op == OP_SUST ? vec * tsz : 4);
	for (uint64_t m = exec; m; m &= m - 1) {
		unsigned lane = (unsigned)__builtin_ctzll(m);
		const struct tex_object *o = object_of(L, c, w, x, h, lane, want);
		if (!o)
			return false;
		if (op == OP_TXQ || op == OP_SUQ) {
			uint32_t v = query(o, in->tx);
			if (in->nopd == 3) { /* txq.level: the size of a mipmap level; one level here */
				uint32_t lod = (uint32_t)elem_val(x, &in->opd[2], 0, lane);
				if (lod != 0)
					v = 0;
			}
			write_dst(x, &in->opd[0], 0, lane, v);
			continue;
		}
		if (!geom_fits(o, in->geom))
			return func_fail(L, c, w, (int)lane, WS_ERROR_ILLEGAL_INSTRUCTION,
					 "%s.%s on a %s %s object", ptx_opcode_table[op].name, ptx_geom_name[in->geom],
					 obj_shape(o), surf ? "surface" : "texture");
		struct fetch F = {.L = L, .c = c, .w = w, .lane = lane, .o = o,
				  .float_result = o->fmt == TEXFMT_FLOAT || (o->read_normalized && o->ch_bits <= 16)};
		if (op == OP_TEX || op == OP_TLD4) {
			uint32_t res[4];
			if (!tex_lane(&F, x, in, lane, res))
				return false;
			for (unsigned k = 0; k < 4; k++)
				write_dst(x, &in->opd[0], k, lane, res[k]);
			if (in->opd[0].reg2 >= 0) /* residency predicate: every texel is resident */
				func_reg(x, in->opd[0].reg2)[lane] = 1;
			/* a lane that read no texel (border, out of range) still passes the texture cache */
			info->addr[lane] = F.have_addr ? F.first_addr : o->base;
			continue;
		}
		/* suld.b / sust.b: raw elements */
		unsigned size = vec * tsz;
		uint64_t a = 0;
		bool skip;
		if (!surf_addr(&F, x, in, &in->opd[op == OP_SUST ? 1 : 2], size, &a, &skip))
			return false;
		if (skip) {
			info->addr[lane] = o->base;
			if (op == OP_SULD)
				for (unsigned k = 0; k < vec; k++)
					write_dst(x, &in->opd[0], k, lane, 0);
			continue;
		}
		uint8_t *p = dmem_ptr_cached(L->mem, &L->dmem_last, a, size);
		if (!p)
			return func_fail(L, c, w, (int)lane, WS_ERROR_ILLEGAL_ADDRESS,
					 "surface access outside device memory at 0x%llx", (unsigned long long)a);
		for (unsigned k = 0; k < vec; k++) {
			uint64_t v = 0;
			if (op == OP_SULD) {
				memcpy(&v, p + k * tsz, tsz);
				write_dst(x, &in->opd[0], k, lane, v);
			} else {
				v = elem_val(x, &in->opd[2], k, lane);
				if (!func_mem_write(L, c, w, lane, p + k * tsz, SPACE_GLOBAL, v, tsz))
					return false;
			}
		}
		info->addr[lane] = a;
	}
	return true;
}

static bool texop_step(const struct func_step *s)
{
	if (!func_exec_texop(s->L, s->c, s->w, s->x, s->in, s->exec, s->info))
		return false;
	func_step_next(s);
	return true;
}

/* tex, tld4, txq, suld, sust, suq */
const struct func_op func_op_tex = {.check = func_texop_check, .step = texop_step};
