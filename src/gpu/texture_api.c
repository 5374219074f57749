/*
 * texture_api.c -- the public texture and surface API (include/warpsim.h):
 * arrays, texture objects and surface objects.
 *
 * Models the host side of CUDA's cudaMalloc3DArray / cudaCreateTextureObject
 * / cudaCreateSurfaceObject: it checks a resource and texture description
 * the way the CUDA runtime does (formats, sizes, filtering only with float
 * results) and turns it into the descriptor the texture unit reads
 * (func/texture.h).  Arrays are device allocations with texels packed row
 * by row (the hardware's tiled layout is not modelled).  Texture and
 * surface handles are table indices + 1 and are never reused, so a destroyed
 * handle faults.  Array handles are registered (util/handles.h); a destroyed
 * array's device memory is freed at once, its struct stays in sim->arrays
 * until the simulator is destroyed so that no later array reuses its address.
 */
#include <stdlib.h>
#include <string.h>

#include "gpu/sim.h"

struct ws_array {
	ws_sim *sim;
	ws_deviceptr base;
	ws_channel_format fmt;
	unsigned nch, ch_bits;
	size_t width, height, depth; /* as created (0 = absent) */
	unsigned flags;
	uint64_t bytes;
	uint64_t layers;             /* layers (cube maps: faces) */
};

void sim_textures_free(ws_sim *sim)
{
	for (uint32_t i = 0; i < sim->narrays; i++)
		free(sim->arrays[i]);
	free(sim->arrays);
	free(sim->texobjs);
	sim->arrays = NULL;
	sim->texobjs = NULL;
	sim->narrays = sim->cap_arrays = sim->ntexobjs = sim->cap_texobjs = 0;
}

/* Channels and bits of a format; false with a message on sim. */
static bool check_format(ws_sim *sim, const ws_channel_format *f, unsigned *nch, unsigned *bits, const char *who)
{
	int b[4] = {f->x, f->y, f->z, f->w};
	unsigned n = 0;
	for (unsigned i = 0; i < 4; i++) {
		if (b[i] == 0)
			break;
		if (b[i] != b[0]) {
			sim_error(sim, WS_ERROR_INVALID_VALUE, "%s: channels of a format must have the same size (%d, %d, %d, %d bits)",
				  who, f->x, f->y, f->z, f->w);
			return false;
		}
		n++;
	}
	for (unsigned i = n; i < 4; i++)
		if (b[i] != 0) {
			sim_error(sim, WS_ERROR_INVALID_VALUE, "%s: channels must be x, xy, xyz or xyzw (%d, %d, %d, %d bits)", who,
				  f->x, f->y, f->z, f->w);
			return false;
		}
	bool ok = n > 0 && (b[0] == 8 || b[0] == 16 || b[0] == 32);
	if (ok && f->f == WS_CHANNEL_FLOAT && b[0] == 8)
		ok = false;
	if (ok && f->f != WS_CHANNEL_FLOAT && f->f != WS_CHANNEL_SIGNED && f->f != WS_CHANNEL_UNSIGNED)
		ok = false;
	if (!ok) {
		sim_error(sim, WS_ERROR_INVALID_VALUE,
			  "%s: unsupported channel format (%d, %d, %d, %d bits, kind %d): channels of 8, 16 or 32 bits, "
			  "float 16 or 32",
			  who, f->x, f->y, f->z, f->w, (int)f->f);
		return false;
	}
	*nch = n;
	*bits = (unsigned)b[0];
	return true;
}

ws_result wsArrayCreate(ws_sim *sim, ws_array **out, const ws_channel_format *fmt, size_t width, size_t height,
			size_t depth, unsigned flags)
{
	RETURN_BAD_SIM(sim, "wsArrayCreate");
	if (!out || !fmt)
		return sim_error(sim, WS_ERROR_INVALID_VALUE, "wsArrayCreate: NULL %s", !out ? "out" : "fmt");
	*out = NULL;
	unsigned nch, bits;
	if (!check_format(sim, fmt, &nch, &bits, "wsArrayCreate"))
		return WS_ERROR_INVALID_VALUE;
	if (flags & ~(unsigned)(WS_ARRAY_LAYERED | WS_ARRAY_SURFACE_LDST | WS_ARRAY_CUBEMAP))
		return sim_error(sim, WS_ERROR_INVALID_VALUE, "wsArrayCreate: unknown flags 0x%x", flags);
	const size_t lim = (size_t)1 << 16;
	if (width == 0 || width > lim || height > lim || depth > lim || (height == 0 && depth != 0 && !(flags & WS_ARRAY_LAYERED)))
		return sim_error(sim, WS_ERROR_INVALID_VALUE,
				 "wsArrayCreate: extent %zux%zux%zu is not valid (width 1..65536; a depth needs a height)", width,
				 height, depth);
	uint64_t layers = 1;
	if (flags & WS_ARRAY_CUBEMAP) {
		bool lay = flags & WS_ARRAY_LAYERED;
		if (height != width || depth == 0 || depth % 6 || (!lay && depth != 6))
			return sim_error(sim, WS_ERROR_INVALID_VALUE,
					 "wsArrayCreate: a cube map needs width == height and depth 6 (a multiple of 6 when layered), got "
					 "%zux%zux%zu",
					 width, height, depth);
		layers = depth;
	} else if (flags & WS_ARRAY_LAYERED) {
		if (depth == 0)
			return sim_error(sim, WS_ERROR_INVALID_VALUE, "wsArrayCreate: a layered array needs depth = layers >= 1");
		layers = depth;
	}
	struct ws_array *a = calloc(1, sizeof *a);
	if (!a)
		return sim_error(sim, WS_ERROR_OUT_OF_MEMORY, "out of host memory");
	a->sim = sim;
	a->fmt = *fmt;
	a->nch = nch;
	a->ch_bits = bits;
	a->width = width;
	a->height = height;
	a->depth = depth;
	a->flags = flags;
	a->layers = layers;
	uint64_t h = height ? height : 1, d = (flags & (WS_ARRAY_LAYERED | WS_ARRAY_CUBEMAP)) ? layers : depth ? depth : 1;
	a->bytes = (uint64_t)width * h * d * (nch * bits / 8);
	if (sim->narrays == sim->cap_arrays) {
		uint32_t nc = sim->cap_arrays ? sim->cap_arrays * 2 : 8;
		struct ws_array **na = realloc(sim->arrays, nc * sizeof *na);
		if (!na) {
			free(a);
			return sim_error(sim, WS_ERROR_OUT_OF_MEMORY, "out of host memory");
		}
		sim->arrays = na;
		sim->cap_arrays = nc;
	}
	if (dmem_alloc(sim->mem, a->bytes, &a->base)) {
		unsigned long long want = a->bytes;
		free(a);
		return sim_error(sim, WS_ERROR_OUT_OF_MEMORY, "wsArrayCreate: out of device memory (%llu bytes)", want);
	}
	if (!handle_add(a, HANDLE_ARRAY, sim)) {
		dmem_free(sim->mem, a->base);
		free(a);
		return sim_error(sim, WS_ERROR_OUT_OF_MEMORY, "out of host memory");
	}
	sim->arrays[sim->narrays++] = a;
	*out = a;
	sim->lasterr[0] = 0;
	return WS_SUCCESS;
}

ws_result wsArrayDestroy(ws_array *a)
{
	RETURN_BAD_HANDLE(a, HANDLE_ARRAY, "wsArrayDestroy");
	if (handle_kill(a, HANDLE_ARRAY, NULL) != HANDLE_LIVE) /* of two destroys at once, one goes on */
		return sim_error(a->sim, WS_ERROR_INVALID_HANDLE, "wsArrayDestroy: the array was destroyed (wsArrayDestroy)");
	dmem_free(a->sim->mem, a->base);
	a->sim->lasterr[0] = 0;
	return WS_SUCCESS;
}

ws_result wsArrayGetInfo(const ws_array *a, ws_array_info *info)
{
	RETURN_BAD_HANDLE(a, HANDLE_ARRAY, "wsArrayGetInfo");
	if (!info)
		return sim_error(a->sim, WS_ERROR_INVALID_VALUE, "wsArrayGetInfo: NULL info");
	*info = (ws_array_info){.dptr = a->base, .bytes = (size_t)a->bytes, .format = a->fmt, .width = a->width,
				.height = a->height, .depth = a->depth, .flags = a->flags};
	return WS_SUCCESS;
}

static ws_result array_copy(ws_array *a, void *host, size_t bytes, bool to_array)
{
	const char *who = to_array ? "wsMemcpyToArray" : "wsMemcpyFromArray";
	RETURN_BAD_HANDLE(a, HANDLE_ARRAY, who);
	if (!host && bytes)
		return sim_error(a->sim, WS_ERROR_INVALID_VALUE, "%s: NULL %s", who, to_array ? "src" : "dst");
	if (bytes != a->bytes)
		return sim_error(a->sim, WS_ERROR_INVALID_VALUE, "%s: %zu bytes, but the array holds %llu", who, bytes,
				 (unsigned long long)a->bytes);
	return to_array ? wsMemcpyHtoD(a->sim, a->base, host, bytes) : wsMemcpyDtoH(a->sim, host, a->base, bytes);
}

ws_result wsMemcpyToArray(ws_array *a, const void *src, size_t bytes) { return array_copy(a, (void *)src, bytes, true); }
ws_result wsMemcpyFromArray(void *dst, ws_array *a, size_t bytes) { return array_copy(a, dst, bytes, false); }

/* Fill the resource part of a descriptor. */
static ws_result resource(ws_sim *sim, const ws_resource_desc *r, struct tex_object *o, const char *who)
{
	unsigned nch, bits;
	switch (r->type) {
	case WS_RESOURCE_ARRAY: {
		const struct ws_array *a = r->array;
		if (!sim_handle_live(a, HANDLE_ARRAY) || a->sim != sim)
			return sim_error(sim, sim_handle_live(a, HANDLE_ARRAY) ? WS_ERROR_INVALID_VALUE : WS_ERROR_INVALID_HANDLE,
					 "%s: resource array is not a live array of this simulator", who);
		o->res = TEXRES_ARRAY;
		o->nch = (uint8_t)a->nch;
		o->ch_bits = (uint8_t)a->ch_bits;
		o->fmt = (uint8_t)a->fmt.f;
		o->base = a->base;
		o->layered = (a->flags & WS_ARRAY_LAYERED) != 0;
		o->cubemap = (a->flags & WS_ARRAY_CUBEMAP) != 0;
		o->width = a->width;
		o->height = a->height ? a->height : 1;
		o->depth = 1;
		o->layers = 1;
		if (o->cubemap || o->layered) {
			o->dims = a->height ? 2 : 1;
			o->layers = a->layers;
		} else {
			o->dims = a->depth ? 3 : a->height ? 2 : 1;
			o->depth = a->depth ? a->depth : 1;
		}
		o->pitch = a->width * tex_elem_bytes(o);
		o->slice = o->pitch * o->height;
		return WS_SUCCESS;
	}
	case WS_RESOURCE_LINEAR:
	case WS_RESOURCE_PITCH2D: {
		if (!check_format(sim, &r->format, &nch, &bits, who))
			return WS_ERROR_INVALID_VALUE;
		o->res = (uint8_t)r->type;
		o->nch = (uint8_t)nch;
		o->ch_bits = (uint8_t)bits;
		o->fmt = (uint8_t)r->format.f;
		o->base = r->ptr;
		o->layers = o->depth = 1;
		unsigned esz = tex_elem_bytes(o);
		uint64_t need;
		if (r->type == WS_RESOURCE_LINEAR) {
			if (r->size_bytes < esz || r->size_bytes % esz)
				return sim_error(sim, WS_ERROR_INVALID_VALUE, "%s: linear size %zu is not a multiple of the %u-byte element",
						 who, r->size_bytes, esz);
			o->dims = 1;
			o->width = r->size_bytes / esz;
			o->height = 1;
			o->pitch = r->size_bytes;
			need = r->size_bytes;
		} else {
			if (!r->width || !r->height || r->pitch_bytes < r->width * esz)
				return sim_error(sim, WS_ERROR_INVALID_VALUE, "%s: pitch-2D %zux%zu with pitch %zu bytes is not valid", who,
						 r->width, r->height, r->pitch_bytes);
			o->dims = 2;
			o->width = r->width;
			o->height = r->height;
			o->pitch = r->pitch_bytes;
			need = (uint64_t)r->pitch_bytes * (r->height - 1) + r->width * esz;
		}
		o->slice = o->pitch * o->height;
		if (!dmem_ptr(sim->mem, r->ptr, need))
			return sim_error(sim, WS_ERROR_INVALID_VALUE, "%s: resource 0x%llx (+%llu bytes) is not inside one allocation",
					 who, (unsigned long long)r->ptr, (unsigned long long)need);
		return WS_SUCCESS;
	}
	default:
		return sim_error(sim, WS_ERROR_INVALID_VALUE, "%s: unsupported resource type %d (array, linear or pitch-2D)", who,
				 (int)r->type);
	}
}

static ws_result add_object(ws_sim *sim, const struct tex_object *o, uint64_t *out)
{
	if (sim->ntexobjs == sim->cap_texobjs) {
		uint32_t nc = sim->cap_texobjs ? sim->cap_texobjs * 2 : 16;
		struct tex_object *n = realloc(sim->texobjs, nc * sizeof *n);
		if (!n)
			return sim_error(sim, WS_ERROR_OUT_OF_MEMORY, "out of host memory");
		sim->texobjs = n;
		sim->cap_texobjs = nc;
	}
	sim->texobjs[sim->ntexobjs++] = *o;
	*out = sim->ntexobjs;
	sim->lasterr[0] = 0;
	return WS_SUCCESS;
}

ws_result wsTextureCreate(ws_sim *sim, ws_texobject *out, const ws_resource_desc *res, const ws_texture_desc *desc)
{
	RETURN_BAD_SIM(sim, "wsTextureCreate");
	if (!out || !res || !desc)
		return sim_error(sim, WS_ERROR_INVALID_VALUE, "wsTextureCreate: NULL %s", !out ? "out" : !res ? "res" : "desc");
	*out = 0;
	struct tex_object o;
	memset(&o, 0, sizeof o);
	o.kind = TEXOBJ_TEXTURE;
	ws_result r = resource(sim, res, &o, "wsTextureCreate");
	if (r != WS_SUCCESS)
		return r;
	for (int d = 0; d < 3; d++) {
		if ((unsigned)desc->address_mode[d] > WS_ADDRESS_BORDER)
			return sim_error(sim, WS_ERROR_INVALID_VALUE, "wsTextureCreate: address mode %d of dimension %d is not valid",
					 (int)desc->address_mode[d], d);
		o.addr[d] = (uint8_t)desc->address_mode[d];
	}
	if ((unsigned)desc->filter_mode > WS_FILTER_LINEAR || (unsigned)desc->read_mode > WS_READ_NORMALIZED_FLOAT)
		return sim_error(sim, WS_ERROR_INVALID_VALUE, "wsTextureCreate: filter mode %d / read mode %d is not valid",
				 (int)desc->filter_mode, (int)desc->read_mode);
	o.linear = desc->filter_mode == WS_FILTER_LINEAR;
	o.normalized_coords = desc->normalized_coords != 0;
	o.read_normalized = desc->read_mode == WS_READ_NORMALIZED_FLOAT && o.fmt != TEXFMT_FLOAT;
	if (o.read_normalized && o.ch_bits == 32)
		return sim_error(sim, WS_ERROR_INVALID_VALUE,
				 "wsTextureCreate: normalized-float reads need 8- or 16-bit integer channels");
	bool float_result = o.fmt == TEXFMT_FLOAT || o.read_normalized;
	if (o.linear && !float_result)
		return sim_error(sim, WS_ERROR_INVALID_VALUE,
				 "wsTextureCreate: linear filtering needs a float result (a float format or normalized-float reads)");
	if (o.res == TEXRES_LINEAR && (o.linear || o.normalized_coords))
		return sim_error(sim, WS_ERROR_INVALID_VALUE,
				 "wsTextureCreate: a linear-memory texture takes no filtering and no normalized coordinates "
				 "(tex1Dfetch)");
	memcpy(o.border, desc->border_color, sizeof o.border);
	return add_object(sim, &o, out);
}

ws_result wsSurfaceCreate(ws_sim *sim, ws_surfobject *out, const ws_resource_desc *res)
{
	RETURN_BAD_SIM(sim, "wsSurfaceCreate");
	if (!out || !res)
		return sim_error(sim, WS_ERROR_INVALID_VALUE, "wsSurfaceCreate: NULL %s", !out ? "out" : "res");
	*out = 0;
	if (res->type != WS_RESOURCE_ARRAY)
		return sim_error(sim, WS_ERROR_INVALID_VALUE, "wsSurfaceCreate: a surface needs an array resource");
	struct tex_object o;
	memset(&o, 0, sizeof o);
	o.kind = TEXOBJ_SURFACE;
	ws_result r = resource(sim, res, &o, "wsSurfaceCreate");
	if (r != WS_SUCCESS)
		return r;
	if (!(res->array->flags & WS_ARRAY_SURFACE_LDST))
		return sim_error(sim, WS_ERROR_INVALID_VALUE,
				 "wsSurfaceCreate: the array was not created with WS_ARRAY_SURFACE_LDST");
	o.addr[0] = o.addr[1] = o.addr[2] = TEXADDR_CLAMP;
	return add_object(sim, &o, out);
}

static ws_result destroy(ws_sim *sim, uint64_t h, unsigned kind, const char *who)
{
	RETURN_BAD_SIM(sim, who);
	if (h == 0 || h > sim->ntexobjs || sim->texobjs[h - 1].kind != kind)
		return sim_error(sim, WS_ERROR_INVALID_VALUE, "%s: %llu is not a live %s object", who, (unsigned long long)h,
				 kind == TEXOBJ_TEXTURE ? "texture" : "surface");
	sim->texobjs[h - 1].kind = TEXOBJ_FREE;
	sim->lasterr[0] = 0;
	return WS_SUCCESS;
}

ws_result wsTextureDestroy(ws_sim *sim, ws_texobject tex) { return destroy(sim, tex, TEXOBJ_TEXTURE, "wsTextureDestroy"); }
ws_result wsSurfaceDestroy(ws_sim *sim, ws_surfobject s) { return destroy(sim, s, TEXOBJ_SURFACE, "wsSurfaceDestroy"); }
