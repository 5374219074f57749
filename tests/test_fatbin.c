/*
 * test_fatbin.c -- unit tests of the fat binary reader of the CUDA runtime
 * library (src/cudart/fatbin.c): LZ4 block decompression (literal and match
 * length extensions, overlapping matches, malformed input) and reading PTX
 * images out of synthetic fat binaries laid out as nvcc 13.0 lays them out
 * (docs/cuda.md): plain, LZ4-compressed, several architectures, SASS only,
 * -rdc=true's version-2 wrapper, bad magic numbers; and the Zstandard
 * decompressor (src/cudart/zstd.c) on the reference tool's output
 * (tests/zstd/) and on corrupted input.
 */
#include <stdlib.h>
#include <string.h>

#include "cudart/fatbin.h"
#include "cudart/zstd.h"
#include "test.h"

static uint8_t *zslurp(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	*n = 0;
	if (!f)
		return NULL;
	size_t cap = 1 << 16;
	uint8_t *b = malloc(cap);
	size_t got;
	while (b && (got = fread(b + *n, 1, cap - *n, f)) > 0) {
		*n += got;
		if (*n == cap) {
			uint8_t *nb = realloc(b, cap *= 2);
			if (!nb) {
				free(b);
				b = NULL;
			}
			b = nb;
		}
	}
	fclose(f);
	return b;
}

TEST(fatbin_zstd_reference_vectors)
{
	size_t on;
	uint8_t *orig = zslurp(TEST_DATA_DIR "/zstd/sample.ptx", &on);
	CHECK_MSG(orig && on > 30000, "tests/zstd/sample.ptx unreadable");
	if (!orig)
		return;
	static const char *const vec[] = {"sample.ptx.1.zst", "sample.ptx.19.zst", "sample.ptx.22.zst",
	                                  "sample.ptx.b4k.zst", "sample.ptx.multi.zst"};
	uint8_t *out = malloc(on + 64);
	char err[256], path[128];
	for (unsigned i = 0; out && i < sizeof vec / sizeof vec[0]; i++) {
		snprintf(path, sizeof path, TEST_DATA_DIR "/zstd/%s", vec[i]);
		size_t zn;
		uint8_t *z = zslurp(path, &zn);
		CHECK_MSG(z, "%s unreadable", path);
		if (!z)
			continue;
		err[0] = '\0';
		long r = zstd_decompress(z, zn, out, on + 64, err, sizeof err);
		CHECK_MSG(r == (long)on && memcmp(out, orig, on) == 0, "%s: %ld bytes (want %zu) %s", vec[i], r, on,
		          err);
		/* too small an output buffer is an error, not an overflow */
		CHECK_MSG(zstd_decompress(z, zn, out, on / 2, err, sizeof err) == -1, "%s into half the space", vec[i]);
		/* corrupted input: an error or wrong bytes, never a crash (make asan checks) */
		for (size_t k = 0; k < 200; k++) {
			uint8_t *c = malloc(zn);
			if (!c)
				break;
			memcpy(c, z, zn);
			c[(k * 7919) % zn] ^= (uint8_t)(1 + k % 255);
			c[(k * 104729 + 13) % zn] ^= 0x5a;
			(void)zstd_decompress(c, zn - (k % 3), out, on + 64, err, sizeof err);
			free(c);
		}
		free(z);
	}
	size_t zn;
	uint8_t *z = zslurp(TEST_DATA_DIR "/zstd/tiny.zst", &zn);
	CHECK(z && zstd_decompress(z, zn, out, 16, err, sizeof err) == 1 && out[0] == 'a');
	free(z);
	uint8_t *zeros = calloc(1, 65536), *big = malloc(65536);
	z = zslurp(TEST_DATA_DIR "/zstd/zeros64k.zst", &zn);
	CHECK(z && zeros && big && zstd_decompress(z, zn, big, 65536, err, sizeof err) == 65536 &&
	      memcmp(big, zeros, 65536) == 0);
	free(z);
	free(zeros);
	free(big);
	static const uint8_t notzstd[] = {1, 2, 3, 4, 5, 6, 7, 8};
	CHECK_EQ(zstd_decompress(notzstd, sizeof notzstd, out, 16, err, sizeof err), (unsigned long long)-1);
	CHECK_STR_CONTAINS(err, "not a zstd frame");
	free(out);
	free(orig);
}

TEST(fatbin_lz4_blocks)
{
	uint8_t out[256];
	/* token 0x13: 1 literal 'a', match offset 1 length 3+4=7 (overlapping: aaaaaaaa), then 2 literals "bc" */
	static const uint8_t b1[] = {0x13, 'a', 1, 0, 0x20, 'b', 'c'};
	long n = fatbin_lz4_decompress(b1, sizeof b1, out, sizeof out);
	CHECK_EQ(n, 10);
	CHECK(n == 10 && memcmp(out, "aaaaaaaabc", 10) == 0);
	/* 20 literals (15 + extension byte 5), match offset 20 length 15+4+1=20 (extension byte 1) */
	uint8_t b2[64];
	size_t k = 0;
	b2[k++] = 0xff;
	b2[k++] = 5;
	for (int i = 0; i < 20; i++)
		b2[k++] = (uint8_t)('A' + i);
	b2[k++] = 20;
	b2[k++] = 0;
	b2[k++] = 1;
	b2[k++] = 0x00; /* last sequence: no literals */
	n = fatbin_lz4_decompress(b2, k, out, sizeof out);
	CHECK_EQ(n, 40);
	CHECK(n == 40 && memcmp(out, out + 20, 20) == 0 && out[0] == 'A' && out[19] == 'T');
	/* malformed: offset 0, offset beyond the output, truncated, output too small */
	static const uint8_t bad1[] = {0x10, 'a', 0, 0, 0x00};
	static const uint8_t bad2[] = {0x10, 'a', 5, 0, 0x00};
	static const uint8_t bad3[] = {0x50, 'a', 'b'};
	CHECK_EQ(fatbin_lz4_decompress(bad1, sizeof bad1, out, sizeof out), (unsigned long long)-1);
	CHECK_EQ(fatbin_lz4_decompress(bad2, sizeof bad2, out, sizeof out), (unsigned long long)-1);
	CHECK_EQ(fatbin_lz4_decompress(bad3, sizeof bad3, out, sizeof out), (unsigned long long)-1);
	CHECK_EQ(fatbin_lz4_decompress(b1, sizeof b1, out, 5), (unsigned long long)-1);
}

/* a synthetic fat binary: header + entries, 8-byte aligned buffer */
struct fb {
	uint64_t mem[512];
	size_t n; /* bytes used */
};

static uint8_t *fb_bytes(struct fb *f)
{
	return (uint8_t *)f->mem;
}

static void fb_header(struct fb *f)
{
	memset(f, 0, sizeof *f);
	uint8_t *b = fb_bytes(f);
	uint32_t magic = 0xBA55ED50u;
	uint16_t ver = 1, hsz = 16;
	memcpy(b, &magic, 4);
	memcpy(b + 4, &ver, 2);
	memcpy(b + 6, &hsz, 2);
	f->n = 16;
}

static void fb_entry(struct fb *f, uint16_t kind, uint32_t arch, uint64_t flags, const void *payload, size_t len,
                     uint64_t dsize)
{
	uint8_t *e = fb_bytes(f) + f->n;
	uint32_t ehsz = kind == 1 ? 80 : 64, csize = flags ? (uint32_t)len : 0;
	uint64_t psize = (len + 7) / 8 * 8;
	uint16_t major = 9, minor = 0;
	memcpy(e, &kind, 2);
	memcpy(e + 4, &ehsz, 4);
	memcpy(e + 8, &psize, 8);
	memcpy(e + 16, &csize, 4);
	memcpy(e + 24, &minor, 2);
	memcpy(e + 26, &major, 2);
	memcpy(e + 28, &arch, 4);
	memcpy(e + 40, &flags, 8);
	memcpy(e + 56, &dsize, 8);
	memcpy(e + ehsz, payload, len);
	f->n += ehsz + psize;
	uint64_t total = f->n - 16;
	memcpy(fb_bytes(f) + 8, &total, 8);
}

struct wrapper {
	uint32_t magic, version;
	const void *data;
	const void *list;
};

TEST(fatbin_read_ptx_images)
{
	static const char ptx75[] = ".version 9.0\n.target sm_75\n", ptx80[] = ".version 9.0\n.target sm_80\n";
	struct fb f;
	fb_header(&f);
	fb_entry(&f, 2, 75, 0x11, "\177ELF", 4, 0);
	fb_entry(&f, 1, 75, 0x11, ptx75, sizeof ptx75 - 1, 0);
	/* the compute_80 PTX as one LZ4 block of literals only */
	uint8_t lz[64];
	size_t n80 = sizeof ptx80 - 1;
	lz[0] = 0xf0;
	lz[1] = (uint8_t)(n80 - 15);
	memcpy(lz + 2, ptx80, n80);
	fb_entry(&f, 1, 80, 0x2011, lz, n80 + 2, n80);
	struct wrapper w = {0x466243b1u, 1, f.mem, NULL};
	struct fatbin_ptx *p;
	int n;
	unsigned sass;
	char err[256] = "";
	CHECK_EQ(fatbin_read_ptx(&w, &p, &n, &sass, err, sizeof err), 0);
	CHECK_EQ(n, 2);
	CHECK_EQ(sass, 75);
	if (n == 2) {
		CHECK_EQ(p[0].arch, 80); /* highest first */
		CHECK(strcmp(p[0].text, ptx80) == 0);
		CHECK_EQ(p[1].arch, 75);
		CHECK(strcmp(p[1].text, ptx75) == 0);
		CHECK_EQ(p[1].isa_major, 9);
	}
	fatbin_free(p, n);

	/* SASS only: no PTX, the SASS architecture reported */
	struct fb s;
	fb_header(&s);
	fb_entry(&s, 2, 86, 0x11, "\177ELF", 4, 0);
	struct wrapper ws = {0x466243b1u, 1, s.mem, NULL};
	CHECK_EQ(fatbin_read_ptx(&ws, &p, &n, &sass, err, sizeof err), 0);
	CHECK_EQ(n, 0);
	CHECK_EQ(sass, 86);
	fatbin_free(p, n);

	/* -rdc=true: version 2, the linked fat binary has SASS, the units' PTX is listed */
	const void *list[] = {f.mem, NULL};
	struct wrapper w2 = {0x466243b1u, 2, s.mem, list};
	CHECK_EQ(fatbin_read_ptx(&w2, &p, &n, &sass, err, sizeof err), 0);
	CHECK_EQ(n, 2);
	if (n == 2)
		CHECK(p[0].unit == 1 && p[1].unit == 1 && p[0].arch == 80);
	fatbin_free(p, n);

	/* bad magic numbers: a message, no images */
	struct wrapper bad = {0x12345678u, 1, f.mem, NULL};
	CHECK_EQ(fatbin_read_ptx(&bad, &p, &n, &sass, err, sizeof err), (unsigned long long)-1);
	CHECK_STR_CONTAINS(err, "wrapper magic 0x12345678");
	uint64_t junk[4] = {0};
	struct wrapper badh = {0x466243b1u, 1, junk, NULL};
	CHECK_EQ(fatbin_read_ptx(&badh, &p, &n, &sass, err, sizeof err), (unsigned long long)-1);
	CHECK_STR_CONTAINS(err, "header magic");
	/* a malformed LZ4 payload */
	struct fb m;
	fb_header(&m);
	static const uint8_t badlz[] = {0x10, 'a', 9, 0, 0};
	fb_entry(&m, 1, 75, 0x2011, badlz, sizeof badlz, 100);
	struct wrapper wm = {0x466243b1u, 1, m.mem, NULL};
	CHECK_EQ(fatbin_read_ptx(&wm, &p, &n, &sass, err, sizeof err), (unsigned long long)-1);
	CHECK_STR_CONTAINS(err, "malformed LZ4");
}

/* The registers per thread of a fat binary's SASS (fatbin_read_regs): the
 * cubins of tests/cudart/bin/vecadd_default (nvcc 13.0's defaults: sm_75
 * SASS), whose .nv.info says vecadd uses 12; the lowest SASS architecture
 * is read; corrupted cubins give an error or other counts, never a crash
 * (make asan checks). */
TEST(fatbin_sass_register_counts)
{
	size_t n;
	uint8_t *exe = zslurp(TEST_DATA_DIR "/cudart/bin/vecadd_default", &n);
	CHECK_MSG(exe != NULL, "tests/cudart/bin/vecadd_default unreadable");
	int found = 0;
	static const uint8_t fbmagic[4] = {0x50, 0xed, 0x55, 0xba};
	for (size_t i = 0; exe && i + 16 <= n; i++) {
		if (memcmp(exe + i, fbmagic, 4) != 0)
			continue;
		uint64_t total;
		memcpy(&total, exe + i + 8, 8);
		for (size_t e = i + 16; total <= n - i - 16 && e + 64 <= i + 16 + total;) {
			uint16_t kind;
			uint32_t ehsz, arch;
			uint64_t psize;
			memcpy(&kind, exe + e, 2);
			memcpy(&ehsz, exe + e + 4, 4);
			memcpy(&psize, exe + e + 8, 8);
			memcpy(&arch, exe + e + 28, 4);
			if (ehsz < 64 || psize > n - e - ehsz)
				break;
			struct fb f;
			if (kind == 2 && psize + 64 + 16 + 64 + 8 <= sizeof f.mem) {
				fb_header(&f);
				fb_entry(&f, 2, 86, 0x11, "\177ELF", 4, 0); /* a higher architecture: not read */
				fb_entry(&f, 2, arch, 0x11, exe + e + ehsz, psize, 0);
				struct wrapper w = {0x466243b1u, 1, f.mem, NULL};
				char *regs = NULL;
				unsigned a = 0;
				if (fatbin_read_regs(&w, &regs, &a) == 0 && regs && strcmp(regs, "_Z6vecaddPKfS0_Pfi 12\n") == 0)
					found = a == 75;
				free(regs);
				/* corrupted: bytes of the cubin flipped */
				uint8_t *cubin = fb_bytes(&f) + f.n - (psize + 7) / 8 * 8;
				for (size_t k = 0; k < 300; k++) {
					struct fb c = f;
					uint8_t *cc = fb_bytes(&c) + (cubin - fb_bytes(&f));
					cc[(k * 7919) % psize] ^= (uint8_t)(1 + k % 255);
					cc[(k * 104729 + 13) % psize] ^= 0x5a;
					struct wrapper wc = {0x466243b1u, 1, c.mem, NULL};
					regs = NULL;
					(void)fatbin_read_regs(&wc, &regs, &a);
					free(regs);
				}
			}
			e += ehsz + psize;
		}
	}
	CHECK_MSG(found, "no cubin of vecadd_default gave '_Z6vecaddPKfS0_Pfi 12' at sm_75");
	/* no SASS: nothing, and no error */
	struct fb p;
	fb_header(&p);
	fb_entry(&p, 1, 75, 0x11, ".version 9.0\n", 13, 0);
	struct wrapper w = {0x466243b1u, 1, p.mem, NULL};
	char *regs = (char *)1;
	unsigned a = 1;
	CHECK_EQ(fatbin_read_regs(&w, &regs, &a), 0);
	CHECK(regs == NULL && a == 0);
	free(exe);
}
