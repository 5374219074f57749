/*
 * fatbin.c -- reading the PTX out of an nvcc fat binary.
 *
 * Models no hardware.  Format facts relied on (checked against nvcc 13.0
 * output; docs/cuda.md repeats them), all little-endian:
 *
 *   wrapper (the __fatDeviceText object __cudaRegisterFatBinary receives):
 *     u32 magic 0x466243b1, u32 version (1 or 2), const void *data,
 *     void *list: version 2 (nvcc -rdc=true) a NULL-terminated array of the
 *     fat binary headers of the translation units ("prelinked fatbins"),
 *     which hold their PTX (data then holds only linked SASS)
 *   data -> fat binary header (16 bytes):
 *     u32 magic 0xBA55ED50, u16 version (1), u16 header size (16),
 *     u64 size of the entries that follow the header
 *   entry header (64 bytes for ELF, 80 for PTX; the size is in the header):
 *     +0  u16 kind: 1 PTX, 2 ELF (SASS)
 *     +4  u32 size of this entry header (the payload follows it)
 *     +8  u64 payload size (padded; the next entry follows the payload)
 *     +16 u32 compressed size (the meaningful bytes of a compressed payload)
 *     +24 u16 PTX ISA minor, +26 u16 PTX ISA major
 *     +28 u32 architecture (75 = compute_75 / sm_75)
 *     +40 u64 flags: 0x2000 payload is an LZ4 block (nvcc -Xfatbin
 *         -compress-mode=speed), 0x8000 payload is a zstd frame (nvcc's
 *         default in CUDA 13); neither: plain text
 *     +56 u64 decompressed size (compressed payloads)
 *   An uncompressed PTX payload is the text, padded with NUL bytes.
 *
 * LZ4 blocks are decompressed here, zstd frames by zstd.c.
 *
 *   An ELF (SASS) payload is a cubin, an ELF64 file (decompressed like PTX
 *   when flagged).  Registers per thread, as ptxas assigned them, are the
 *   EIATTR_REGCOUNT attributes of its .nv.info section: attributes are a u8
 *   format, a u8 attribute id, then for format 4 (EIFMT_SVAL) a u16 size and
 *   that many bytes, for the other formats a u16 value; EIATTR_REGCOUNT is
 *   id 0x2f, format 4, size 8: u32 index of the kernel's symbol in .symtab,
 *   u32 registers.  (The high byte of sh_info of the kernel's .text.<name>
 *   section holds the same count; nvcc 13.0 writes both.)
 */
#include "cudart/fatbin.h"
#include "cudart/zstd.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WRAPPER_MAGIC 0x466243b1u
#define FATBIN_MAGIC 0xBA55ED50u
#define KIND_PTX 1
#define KIND_ELF 2
#define FLAG_LZ4 0x2000ull
#define FLAG_ZSTD 0x8000ull
#define MAX_IMAGE (1ull << 31) /* largest decompressed PTX accepted */

static uint16_t rd16(const uint8_t *p)
{
	uint16_t v;
	memcpy(&v, p, 2);
	return v;
}
static uint32_t rd32(const uint8_t *p)
{
	uint32_t v;
	memcpy(&v, p, 4);
	return v;
}
static uint64_t rd64(const uint8_t *p)
{
	uint64_t v;
	memcpy(&v, p, 8);
	return v;
}

static int fail(char *err, size_t errsz, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(char *err, size_t errsz, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, errsz, fmt, ap);
	va_end(ap);
	return -1;
}

long fatbin_lz4_decompress(const uint8_t *src, size_t n, uint8_t *dst, size_t cap)
{
	size_t i = 0, o = 0;
	while (i < n) {
		unsigned token = src[i++];
		size_t lit = token >> 4;
		if (lit == 15) {
			unsigned b;
			do {
				if (i >= n)
					return -1;
				b = src[i++];
				lit += b;
			} while (b == 255);
		}
		if (lit > n - i || lit > cap - o)
			return -1;
		memcpy(dst + o, src + i, lit);
		i += lit;
		o += lit;
		if (i == n)
			break; /* the last sequence has literals only */
		if (n - i < 2)
			return -1;
		size_t off = (size_t)src[i] | (size_t)src[i + 1] << 8;
		i += 2;
		if (off == 0 || off > o)
			return -1;
		size_t len = (token & 15u) + 4;
		if ((token & 15u) == 15) {
			unsigned b;
			do {
				if (i >= n)
					return -1;
				b = src[i++];
				len += b;
			} while (b == 255);
		}
		if (len > cap - o)
			return -1;
		for (size_t k = 0; k < len; k++, o++) /* byte by byte: the match may overlap its output */
			dst[o] = dst[o - off];
	}
	return (long)o;
}

/* by translation unit, then by descending architecture */
static int cmp_unit_arch(const void *a, const void *b)
{
	const struct fatbin_ptx *x = a, *y = b;
	if (x->unit != y->unit)
		return x->unit < y->unit ? -1 : 1;
	return x->arch < y->arch ? 1 : x->arch > y->arch ? -1 : 0;
}

void fatbin_free(struct fatbin_ptx *p, int n)
{
	for (int i = 0; i < n; i++)
		free(p[i].text);
	free(p);
}

/* The payload of one entry (PTX or ELF) as bytes, NUL-terminated, into
 * out->text and out->len. */
static int read_entry(const uint8_t *e, uint32_t hsz, uint64_t psize, struct fatbin_ptx *out, char *err, size_t errsz)
{
	const uint8_t *pay = e + hsz;
	uint64_t flags = rd64(e + 40);
	uint64_t csize = rd32(e + 16), dsize = hsz >= 64 ? rd64(e + 56) : 0;
	out->arch = rd32(e + 28);
	out->isa_minor = rd16(e + 24);
	out->isa_major = rd16(e + 26);
	out->len = psize;
	if (flags & (FLAG_LZ4 | FLAG_ZSTD)) {
		if (!csize || csize > psize)
			csize = psize;
		if (!dsize || dsize > MAX_IMAGE)
			return fail(err, errsz, "compute_%u PTX: compressed entry without a valid decompressed size",
			            out->arch);
		out->text = malloc(dsize + 1);
		if (!out->text)
			return fail(err, errsz, "out of memory decompressing the PTX");
		long got = (flags & FLAG_LZ4) ? fatbin_lz4_decompress(pay, csize, (uint8_t *)out->text, dsize)
		                              : zstd_decompress(pay, csize, (uint8_t *)out->text, dsize, err, errsz);
		if (got < 0) {
			if (flags & FLAG_LZ4) {
				fail(err, errsz, "compute_%u PTX: malformed LZ4 data", out->arch);
			} else {
				char why[200];
				snprintf(why, sizeof why, "%s", err);
				fail(err, errsz, "compute_%u PTX: %s (rebuild with --no-compress to avoid compression)",
				     out->arch, why);
			}
			free(out->text);
			out->text = NULL;
			return -1;
		}
		out->text[got] = '\0';
		out->len = (size_t)got;
	} else {
		out->text = malloc(psize + 1);
		if (!out->text)
			return fail(err, errsz, "out of memory reading the PTX");
		memcpy(out->text, pay, psize);
		out->text[psize] = '\0';
	}
	if (rd16(e) == KIND_PTX)
		out->len = strlen(out->text);
	return 0;
}

/* Append "KERNEL REGISTERS" lines of the cubin elf[0..n) to *regs (*len,
 * *cap); malformed ELF adds nothing. */
static void cubin_regs(const uint8_t *elf, size_t n, char **regs, size_t *len, size_t *cap)
{
	if (n < 64 || memcmp(elf, "\177ELF", 4) != 0 || elf[4] != 2 || elf[5] != 1)
		return; /* ELF64 little-endian only */
	uint64_t shoff = rd64(elf + 0x28);
	uint16_t shentsize = rd16(elf + 0x3a), shnum = rd16(elf + 0x3c), shstrndx = rd16(elf + 0x3e);
	if (shentsize < 64 || shoff > n || (uint64_t)shnum * shentsize > n - shoff || shstrndx >= shnum)
		return;
#define SH(i) (elf + shoff + (size_t)(i)*shentsize)
	const uint8_t *shstr = SH(shstrndx);
	uint64_t ss_off = rd64(shstr + 24), ss_size = rd64(shstr + 32);
	if (ss_off > n || ss_size > n - ss_off)
		return;
	int info = -1, symtab = -1;
	for (int i = 0; i < shnum; i++) {
		uint32_t nm = rd32(SH(i));
		if (nm < ss_size && strncmp((const char *)elf + ss_off + nm, ".nv.info", ss_size - nm) == 0)
			info = i;
		if (rd32(SH(i) + 4) == 2 /* SHT_SYMTAB */)
			symtab = i;
	}
	if (info < 0 || symtab < 0)
		return;
	uint64_t io = rd64(SH(info) + 24), isz = rd64(SH(info) + 32);
	uint64_t so = rd64(SH(symtab) + 24), ssz = rd64(SH(symtab) + 32);
	uint32_t strl = rd32(SH(symtab) + 40);
	if (io > n || isz > n - io || so > n || ssz > n - so || strl >= shnum)
		return;
	uint64_t st_off = rd64(SH(strl) + 24), st_size = rd64(SH(strl) + 32);
	if (st_off > n || st_size > n - st_off)
		return;
#undef SH
	for (uint64_t a = 0; a + 4 <= isz;) {
		const uint8_t *at = elf + io + a;
		uint8_t fmt = at[0], id = at[1];
		uint16_t size = fmt == 4 ? rd16(at + 2) : 0;
		if (fmt == 4 && size > isz - a - 4)
			return;
		if (fmt == 4 && id == 0x2f && size >= 8) {
			uint32_t sym = rd32(at + 4), r = rd32(at + 8);
			if ((uint64_t)sym * 24 + 24 <= ssz) {
				uint32_t nm = rd32(elf + so + (uint64_t)sym * 24);
				const char *name = (const char *)elf + st_off + nm;
				size_t nl = nm < st_size ? strnlen(name, st_size - nm) : 0;
				if (nl && nl < st_size - nm && *len + nl + 16 < 1u << 24) {
					if (*len + nl + 16 > *cap) {
						size_t nc = (*cap ? *cap * 2 : 256) + nl + 16;
						char *p = realloc(*regs, nc);
						if (!p)
							return;
						*regs = p;
						*cap = nc;
					}
					*len +=
					    (size_t)snprintf(*regs + *len, *cap - *len, "%.*s %u\n", (int)nl, name, r);
				}
			}
		}
		a += 4 + size;
	}
}

int fatbin_read_regs(const void *wrapper, char **regs, unsigned *arch)
{
	*regs = NULL;
	*arch = 0;
	const uint8_t *w = wrapper;
	if (!w || rd32(w) != WRAPPER_MAGIC)
		return -1;
	const uint8_t *h;
	memcpy(&h, w + 8, sizeof h);
	size_t len = 0, cap = 0;
	/* two passes over the entries: the lowest SASS architecture, then its cubins */
	for (int pass = 0; pass < 2; pass++) {
		if (!h || rd32(h) != FATBIN_MAGIC)
			return -1;
		const uint8_t *e = h + rd16(h + 6), *end = e + rd64(h + 8);
		while (e + 64 <= end) {
			uint32_t ehsz = rd32(e + 4);
			uint64_t psize = rd64(e + 8);
			if (ehsz < 64 || psize > (uint64_t)(end - e) - ehsz)
				break;
			unsigned a = rd32(e + 28);
			if (rd16(e) == KIND_ELF && pass == 0 && (!*arch || a < *arch))
				*arch = a;
			if (rd16(e) == KIND_ELF && pass == 1 && a == *arch) {
				struct fatbin_ptx img = {0};
				char err[64];
				if (read_entry(e, ehsz, psize, &img, err, sizeof err) == 0)
					cubin_regs((const uint8_t *)img.text, img.len, regs, &len, &cap);
				free(img.text);
			}
			e += ehsz + psize;
		}
		if (!*arch)
			return 0;
	}
	return *regs ? 0 : -1;
}

/* Append the PTX images of the fat binary whose header is at h. */
static int read_fatbin(const uint8_t *h, int unit, struct fatbin_ptx **v, int *nv, unsigned *sass_arch, char *err,
                       size_t errsz)
{
	if (!h || rd32(h) != FATBIN_MAGIC)
		return fail(err, errsz, "not an nvcc fat binary (header magic 0x%08x, expected 0x%08x)",
		            h ? rd32(h) : 0, FATBIN_MAGIC);
	uint16_t hsz = rd16(h + 6);
	uint64_t total = rd64(h + 8);
	const uint8_t *e = h + hsz, *end = h + hsz + total;
	while (e + 64 <= end) {
		uint16_t kind = rd16(e);
		uint32_t ehsz = rd32(e + 4);
		uint64_t psize = rd64(e + 8);
		if (ehsz < 64 || psize > (uint64_t)(end - e) - ehsz)
			return fail(err, errsz, "malformed fat binary entry (header %u bytes, payload %llu bytes)",
			            ehsz, (unsigned long long)psize);
		if (kind == KIND_ELF && rd32(e + 28) > *sass_arch)
			*sass_arch = rd32(e + 28);
		if (kind == KIND_PTX) {
			struct fatbin_ptx *nvp = realloc(*v, (size_t)(*nv + 1) * sizeof **v);
			if (!nvp)
				return fail(err, errsz, "out of memory");
			*v = nvp;
			memset(&nvp[*nv], 0, sizeof nvp[*nv]);
			nvp[*nv].unit = unit;
			if (read_entry(e, ehsz, psize, &nvp[*nv], err, errsz) < 0)
				return -1;
			(*nv)++;
		}
		e += ehsz + psize;
	}
	return 0;
}

int fatbin_read_ptx(const void *wrapper, struct fatbin_ptx **out, int *n, unsigned *sass_arch, char *err, size_t errsz)
{
	*out = NULL;
	*n = 0;
	*sass_arch = 0;
	const uint8_t *w = wrapper;
	if (!w || rd32(w) != WRAPPER_MAGIC)
		return fail(err, errsz, "not an nvcc fat binary (wrapper magic 0x%08x, expected 0x%08x)",
		            w ? rd32(w) : 0, WRAPPER_MAGIC);
	const uint8_t *h;
	memcpy(&h, w + 8, sizeof h);
	struct fatbin_ptx *v = NULL;
	int nv = 0;
	int r = read_fatbin(h, 0, &v, &nv, sass_arch, err, errsz);
	/* version 2 (nvcc -rdc=true): the registered fat binary holds the linked
	 * SASS; the PTX stays in each translation unit's own fat binary, listed in
	 * a NULL-terminated array of header pointers */
	const uint8_t *const *list;
	memcpy(&list, w + 16, sizeof list);
	if (r == 0 && rd32(w + 4) == 2 && list)
		for (int i = 0; list[i] && r == 0 && i < 65536; i++)
			r = read_fatbin(list[i], i + 1, &v, &nv, sass_arch, err, errsz);
	if (r < 0) {
		fatbin_free(v, nv);
		return -1;
	}
	if (nv > 1)
		qsort(v, (size_t)nv, sizeof *v, cmp_unit_arch);
	*out = v;
	*n = nv;
	return 0;
}
