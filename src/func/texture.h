/*
 * texture.h -- texture and surface objects and the instructions that use
 * them (tex, tld4, txq, suld, sust, suq) in the functional model.
 *
 * Models what a CUDA texture/surface object describes to the hardware
 * (its descriptor: resource, format, addressing, filtering, read mode) and
 * the texture unit's arithmetic as the CUDA Programming Guide's "Texture
 * Fetching" appendix defines it: nearest-point and linear filtering with
 * 8-bit fixed-point weights, wrap/clamp/mirror/border addressing, cube-map
 * face selection, normalized-integer reads.  The runtime (gpu/texture_api.c)
 * owns the table of objects; a handle is its index + 1.
 */
#ifndef WARPSIM_FUNC_TEXTURE_H
#define WARPSIM_FUNC_TEXTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ptx/ir.h"

struct func_launch;
struct func_cta;
struct func_warp;
struct func_exec;
struct func_step_info;

enum { TEXOBJ_FREE, TEXOBJ_TEXTURE, TEXOBJ_SURFACE };
enum { TEXFMT_SIGNED = 0, TEXFMT_UNSIGNED = 1, TEXFMT_FLOAT = 2 };          /* = ws_channel_kind */
enum { TEXADDR_WRAP = 0, TEXADDR_CLAMP = 1, TEXADDR_MIRROR = 2, TEXADDR_BORDER = 3 }; /* = ws_address_mode */
enum { TEXRES_ARRAY = 0, TEXRES_LINEAR = 2, TEXRES_PITCH2D = 3 };          /* = ws_resource_type */

/* One texture or surface object: the descriptor the hardware reads. */
struct tex_object {
	uint8_t kind;          /* TEXOBJ_* (FREE: destroyed) */
	uint8_t res;           /* TEXRES_* */
	uint8_t dims;          /* 1, 2 or 3 (of one layer / face) */
	uint8_t layered, cubemap;
	uint8_t nch;           /* channels 1..4 */
	uint8_t ch_bits;       /* bits per channel: 8, 16, 32 */
	uint8_t fmt;           /* TEXFMT_* */
	uint8_t linear, normalized_coords, read_normalized;
	uint8_t addr[3];       /* TEXADDR_* per dimension */
	float border[4];
	uint64_t base;         /* device address of texel (0,0,0) of layer 0 */
	uint64_t width, height, depth; /* texels (height, depth 1 when unused) */
	uint64_t layers;       /* layers (cube maps: faces x layers); 1 if not layered */
	uint64_t pitch;        /* bytes per row */
	uint64_t slice;        /* bytes per 2D slice (a z plane or a layer/face of a 2D array) */
};

static inline unsigned tex_elem_bytes(const struct tex_object *o) { return o->nch * o->ch_bits / 8u; }

/* Load-time check of a texture/surface instruction; false with a reason. */
bool func_texop_check(const struct ptx_insn *in, char *why, size_t whysz);
/* Execute tex/tld4/txq/suld/sust/suq for the lanes in exec.  Fills
 * info->addr (the first texel each lane touches), space and access_size for
 * the timing model.  False on a run-time error (recorded in L). */
bool func_exec_texop(struct func_launch *L, struct func_cta *c, struct func_warp *w, const struct func_exec *x,
		     const struct ptx_insn *in, uint64_t exec, struct func_step_info *info);

/* ---- the arithmetic, exposed for the semantic tests ---- */
/* Linear-filtering weight of the fractional part f in [0,1): 9-bit fixed
 * point with 8 fractional bits (round to nearest), as the hardware uses. */
float tex_weight(float f);
/* Texel index after the addressing mode for index i of a dimension of n
 * texels: -1 when it falls outside and the mode is border. */
int64_t tex_address(int64_t i, uint64_t n, unsigned mode, bool normalized);
/* Cube-map face (0..5: +x -x +y -y +z -z) and face coordinates u, v in [0,1]
 * for the direction (x, y, z). */
unsigned tex_cube_face(float x, float y, float z, float *u, float *v);

#endif
