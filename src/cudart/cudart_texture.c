/*
 * cudart_texture.c -- CUDA runtime library, arrays, textures and surfaces:
 * CUDA arrays and the copies to and from them, texture and surface objects,
 * mapped onto warpsim's texture API (docs/ptx.md).
 *
 * Models no hardware (see cudart.c); shared state in cudart_internal.h.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cudart/cudart_internal.h"

/* ---- arrays, textures and surfaces (warpsim's texture API; docs/ptx.md) ---- */

/* a failed warpsim call: say why, return the CUDA error */
static cudaError_t tex_fail(const char *call, ws_result r)
{
	cr_say("error: %s: %s", call, wsSimLastError(G.sim));
	return ret(r == WS_ERROR_OUT_OF_MEMORY ? cudaErrorMemoryAllocation : cudaErrorInvalidValue);
}

static ws_channel_format tex_fmt(const struct cudaChannelFormatDesc *d)
{
	return (ws_channel_format){d->x, d->y, d->z, d->w, (ws_channel_kind)d->f};
}

CR_API(cudaError_t, cudaMalloc3DArray,
       (cudaArray_t * arr, const struct cudaChannelFormatDesc *desc, struct cudaExtent ext, unsigned flags),
       (arr, desc, ext, flags))
{
	cudaError_t e = cr_ready();
	if (e)
		return ret(e);
	if (!arr || !desc)
		return ret(cudaErrorInvalidValue);
	ws_channel_format f = tex_fmt(desc);
	/* CUDA's texture-gather flag (8) needs nothing here */
	ws_result r = wsArrayCreate(G.sim, arr, &f, ext.width, ext.height, ext.depth, flags & ~8u);
	return r == WS_SUCCESS ? cudaSuccess : tex_fail("cudaMalloc3DArray", r);
}

CR_API(cudaError_t, cudaMallocArray,
       (cudaArray_t * arr, const struct cudaChannelFormatDesc *desc, size_t w, size_t h, unsigned flags),
       (arr, desc, w, h, flags))
{
	return cudaMalloc3DArray(arr, desc, (struct cudaExtent){w, h, 0}, flags);
}

CR_API(cudaError_t, cudaFreeArray, (cudaArray_t arr), (arr))
{
	cudaError_t e = cr_ready();
	if (e)
		return ret(e);
	if (!arr)
		return cudaSuccess;
	ws_result r = wsArrayDestroy(arr);
	return r == WS_SUCCESS ? cudaSuccess : tex_fail("cudaFreeArray", r);
}

CR_API(cudaError_t, cudaArrayGetInfo,
       (struct cudaChannelFormatDesc * desc, struct cudaExtent *ext, unsigned *flags, cudaArray_t arr),
       (desc, ext, flags, arr))
{
	ws_array_info in;
	if (!arr || wsArrayGetInfo(arr, &in) != WS_SUCCESS)
		return ret(cudaErrorInvalidValue);
	if (desc)
		*desc = (struct cudaChannelFormatDesc){in.format.x, in.format.y, in.format.z, in.format.w, (int)in.format.f};
	if (ext)
		*ext = (struct cudaExtent){in.width, in.height, in.depth};
	if (flags)
		*flags = in.flags;
	return cudaSuccess;
}

CR_API(cudaError_t, cudaGetChannelDesc, (struct cudaChannelFormatDesc *desc, cudaArray_t arr), (desc, arr))
{
	return cudaArrayGetInfo(desc, NULL, NULL, arr);
}

/* Copy a box of rows between an array and memory (host or device).  The
 * array side: position (x bytes, y row, z slice), rows of `width` bytes;
 * `mem`/`pitch`/`slice_rows` the other side.  to_array: memory -> array. */
static cudaError_t array_rows(cudaArray_t arr, size_t x, size_t y, size_t z, void *mem, size_t pitch, size_t mem_rows,
                              size_t width, size_t height, size_t depth, int kind, int to_array, const char *call)
{
	cudaError_t e = cr_ready();
	if (e)
		return ret(e);
	ws_array_info in;
	if (!arr || !mem || wsArrayGetInfo(arr, &in) != WS_SUCCESS)
		return ret(cudaErrorInvalidValue);
	int bits = in.format.x + in.format.y + in.format.z + in.format.w;
	size_t row = in.width * (size_t)(bits / 8), rows = in.height ? in.height : 1;
	size_t slices = in.bytes / (row * rows);
	if (x + width > row || y + height > rows || z + depth > slices || width > pitch) {
		cr_say("error: %s: the copy (%zu bytes x %zu rows x %zu at %zu,%zu,%zu) exceeds the array (%zu bytes x %zu x %zu) "
		    "or the pitch %zu",
		    call, width, height, depth, x, y, z, row, rows, slices, pitch);
		return ret(cudaErrorInvalidValue);
	}
	/* the memory side is host memory unless the kind (or, for cudaMemcpyDefault, the pointer) says device */
	int mem_dev = kind == cudaMemcpyDefault ? cr_on_device(mem)
	              : to_array               ? kind == cudaMemcpyDeviceToDevice
	                                       : kind == cudaMemcpyDeviceToDevice;
	if (kind != cudaMemcpyDefault && kind != (to_array ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost) &&
	    kind != cudaMemcpyDeviceToDevice)
		return ret(cudaErrorInvalidMemcpyDirection);
	for (size_t k = 0; k < depth; k++)
		for (size_t j = 0; j < height; j++) {
			ws_deviceptr a = in.dptr + ((z + k) * rows + y + j) * row + x;
			char *m = (char *)mem + (k * mem_rows + j) * pitch;
			ws_result r;
			if (mem_dev)
				r = to_array ? wsMemcpyDtoD(G.sim, a, (uintptr_t)m, width) : wsMemcpyDtoD(G.sim, (uintptr_t)m, a, width);
			else
				r = to_array ? wsMemcpyHtoD(G.sim, a, m, width) : wsMemcpyDtoH(G.sim, m, a, width);
			if (r != WS_SUCCESS)
				return tex_fail(call, r);
		}
	return cudaSuccess;
}

CR_API(cudaError_t, cudaMemcpy2DToArray,
       (cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src, size_t spitch, size_t width, size_t height,
        int kind),
       (dst, wOffset, hOffset, src, spitch, width, height, kind))
{
	return array_rows(dst, wOffset, hOffset, 0, (void *)src, spitch, height, width, height, 1, kind, 1,
	                  "cudaMemcpy2DToArray");
}
CR_ALIAS(cudaMemcpy2DToArray_ptds, cudaMemcpy2DToArray)

CR_API(cudaError_t, cudaMemcpy2DToArrayAsync,
       (cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src, size_t spitch, size_t width, size_t height,
        int kind, cudaStream_t s),
       (dst, wOffset, hOffset, src, spitch, width, height, kind, s))
{
	return cudaMemcpy2DToArray(dst, wOffset, hOffset, src, spitch, width, height, kind);
}
CR_ALIAS(cudaMemcpy2DToArrayAsync_ptsz, cudaMemcpy2DToArrayAsync)

CR_API(cudaError_t, cudaMemcpy2DFromArray,
       (void *dst, size_t dpitch, cudaArray_t src, size_t wOffset, size_t hOffset, size_t width, size_t height,
        int kind),
       (dst, dpitch, src, wOffset, hOffset, width, height, kind))
{
	return array_rows(src, wOffset, hOffset, 0, dst, dpitch, height, width, height, 1, kind, 0,
	                  "cudaMemcpy2DFromArray");
}
CR_ALIAS(cudaMemcpy2DFromArray_ptds, cudaMemcpy2DFromArray)

CR_API(cudaError_t, cudaMemcpy2DFromArrayAsync,
       (void *dst, size_t dpitch, cudaArray_t src, size_t wOffset, size_t hOffset, size_t width, size_t height,
        int kind, cudaStream_t s),
       (dst, dpitch, src, wOffset, hOffset, width, height, kind, s))
{
	return cudaMemcpy2DFromArray(dst, dpitch, src, wOffset, hOffset, width, height, kind);
}
CR_ALIAS(cudaMemcpy2DFromArrayAsync_ptsz, cudaMemcpy2DFromArrayAsync)

/* the deprecated linear forms: `count` bytes from (wOffset bytes, hOffset rows) on, row by row through the array */
static cudaError_t array_linear(cudaArray_t arr, size_t wOffset, size_t hOffset, void *mem, size_t count, int kind,
                                int to_array, const char *call)
{
	ws_array_info in;
	if (!arr || !mem || wsArrayGetInfo(arr, &in) != WS_SUCCESS)
		return ret(cudaErrorInvalidValue);
	size_t row = in.width * (size_t)((in.format.x + in.format.y + in.format.z + in.format.w) / 8);
	size_t off = hOffset * row + wOffset;
	if (wOffset >= row || off + count > in.bytes) {
		cr_say("error: %s: %zu bytes at row %zu, byte %zu exceed the array (%zu bytes)", call, count, hOffset, wOffset,
		    in.bytes);
		return ret(cudaErrorInvalidValue);
	}
	for (size_t done = 0; done < count;) {
		size_t x = (off + done) % row, n = row - x < count - done ? row - x : count - done;
		cudaError_t e = array_rows(arr, x, (off + done) / row, 0, (char *)mem + done, n, 1, n, 1, 1, kind, to_array, call);
		if (e)
			return e;
		done += n;
	}
	return cudaSuccess;
}

CR_API(cudaError_t, cudaMemcpyToArray,
       (cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src, size_t count, int kind),
       (dst, wOffset, hOffset, src, count, kind))
{
	return array_linear(dst, wOffset, hOffset, (void *)src, count, kind, 1, "cudaMemcpyToArray");
}
CR_ALIAS(cudaMemcpyToArray_ptds, cudaMemcpyToArray)

CR_API(cudaError_t, cudaMemcpyFromArray,
       (void *dst, cudaArray_t src, size_t wOffset, size_t hOffset, size_t count, int kind),
       (dst, src, wOffset, hOffset, count, kind))
{
	return array_linear(src, wOffset, hOffset, dst, count, kind, 0, "cudaMemcpyFromArray");
}
CR_ALIAS(cudaMemcpyFromArray_ptds, cudaMemcpyFromArray)

CR_API(cudaError_t, cudaMemcpy3D, (const struct cudaMemcpy3DParms *p), (p))
{
	if (!p)
		return ret(cudaErrorInvalidValue);
	if ((p->srcArray != NULL) == (p->dstArray != NULL)) {
		cr_say("error: cudaMemcpy3D: exactly one side must be an array (array-to-array and pitched-to-pitched copies "
		    "are not supported)");
		return ret(p->srcArray ? cudaErrorNotSupported : cudaErrorInvalidValue);
	}
	int to = p->dstArray != NULL;
	cudaArray_t arr = to ? p->dstArray : p->srcArray;
	ws_array_info in;
	if (wsArrayGetInfo(arr, &in) != WS_SUCCESS)
		return ret(cudaErrorInvalidValue);
	size_t esz = (size_t)(in.format.x + in.format.y + in.format.z + in.format.w) / 8;
	const struct cudaPos *ap = to ? &p->dstPos : &p->srcPos, *mp = to ? &p->srcPos : &p->dstPos;
	const struct cudaPitchedPtr *m = to ? &p->srcPtr : &p->dstPtr;
	size_t h = p->extent.height ? p->extent.height : 1, d = p->extent.depth ? p->extent.depth : 1;
	size_t mrows = m->ysize ? m->ysize : h;
	char *base = (char *)m->ptr + (mp->z * mrows + mp->y) * m->pitch + mp->x;
	return array_rows(arr, ap->x * esz, ap->y, ap->z, base, m->pitch, mrows, p->extent.width * esz, h, d, p->kind, to,
	                  "cudaMemcpy3D");
}
CR_ALIAS(cudaMemcpy3D_ptds, cudaMemcpy3D)

CR_API(cudaError_t, cudaMemcpy3DAsync, (const struct cudaMemcpy3DParms *p, cudaStream_t s), (p, s))
{
	return cudaMemcpy3D(p);
}
CR_ALIAS(cudaMemcpy3DAsync_ptsz, cudaMemcpy3DAsync)

static cudaError_t resource(const struct cudaResourceDesc *rd, ws_resource_desc *out, const char *call)
{
	memset(out, 0, sizeof *out);
	switch (rd->resType) {
	case 0:
		out->type = WS_RESOURCE_ARRAY;
		out->array = rd->res.array.array;
		return cudaSuccess;
	case 2:
		out->type = WS_RESOURCE_LINEAR;
		out->ptr = (uintptr_t)rd->res.linear.devPtr;
		out->format = tex_fmt(&rd->res.linear.desc);
		out->size_bytes = rd->res.linear.sizeInBytes;
		return cudaSuccess;
	case 3:
		out->type = WS_RESOURCE_PITCH2D;
		out->ptr = (uintptr_t)rd->res.pitch2D.devPtr;
		out->format = tex_fmt(&rd->res.pitch2D.desc);
		out->width = rd->res.pitch2D.width;
		out->height = rd->res.pitch2D.height;
		out->pitch_bytes = rd->res.pitch2D.pitchInBytes;
		return cudaSuccess;
	default:
		cr_say("%s: resource type %d (mipmapped arrays) is not supported by warpsim (see docs/cuda.md)", call,
		    rd->resType);
		return ret(cudaErrorNotSupported);
	}
}

CR_API(cudaError_t, cudaCreateTextureObject,
       (cudaTextureObject_t * tex, const struct cudaResourceDesc *rd, const struct cudaTextureDesc *td,
        const void *view),
       (tex, rd, td, view))
{
	cudaError_t e = cr_ready();
	if (e)
		return ret(e);
	if (!tex || !rd || !td)
		return ret(cudaErrorInvalidValue);
	if (view) {
		cr_say("cudaCreateTextureObject: resource views are not supported by warpsim (see docs/cuda.md)");
		return ret(cudaErrorNotSupported);
	}
	ws_resource_desc r;
	if ((e = resource(rd, &r, "cudaCreateTextureObject")) != cudaSuccess)
		return e;
	ws_texture_desc d;
	memset(&d, 0, sizeof d);
	for (int k = 0; k < 3; k++)
		d.address_mode[k] = (ws_address_mode)td->addressMode[k];
	d.filter_mode = (ws_filter_mode)td->filterMode;
	d.read_mode = (ws_read_mode)td->readMode;
	d.normalized_coords = td->normalizedCoords;
	memcpy(d.border_color, td->borderColor, sizeof d.border_color);
	ws_texobject h;
	ws_result wr = wsTextureCreate(G.sim, &h, &r, &d);
	if (wr != WS_SUCCESS)
		return tex_fail("cudaCreateTextureObject", wr);
	*tex = h;
	return cudaSuccess;
}

CR_API(cudaError_t, cudaDestroyTextureObject, (cudaTextureObject_t tex), (tex))
{
	cudaError_t e = cr_ready();
	if (e)
		return ret(e);
	if (!tex)
		return cudaSuccess;
	ws_result r = wsTextureDestroy(G.sim, tex);
	return r == WS_SUCCESS ? cudaSuccess : tex_fail("cudaDestroyTextureObject", r);
}

CR_API(cudaError_t, cudaCreateSurfaceObject, (cudaSurfaceObject_t *surf, const struct cudaResourceDesc *rd), (surf, rd))
{
	cudaError_t e = cr_ready();
	if (e)
		return ret(e);
	if (!surf || !rd)
		return ret(cudaErrorInvalidValue);
	ws_resource_desc r;
	if ((e = resource(rd, &r, "cudaCreateSurfaceObject")) != cudaSuccess)
		return e;
	ws_surfobject h;
	ws_result wr = wsSurfaceCreate(G.sim, &h, &r);
	if (wr != WS_SUCCESS)
		return tex_fail("cudaCreateSurfaceObject", wr);
	*surf = h;
	return cudaSuccess;
}

CR_API(cudaError_t, cudaDestroySurfaceObject, (cudaSurfaceObject_t surf), (surf))
{
	cudaError_t e = cr_ready();
	if (e)
		return ret(e);
	if (!surf)
		return cudaSuccess;
	ws_result r = wsSurfaceDestroy(G.sim, surf);
	return r == WS_SUCCESS ? cudaSuccess : tex_fail("cudaDestroySurfaceObject", r);
}

