/*
 * zstd.c -- a Zstandard (RFC 8878) decompressor for the PTX images that
 * nvcc 13 compresses in fat binaries, so the CUDA runtime library needs no
 * libzstd.
 *
 * Models no hardware.  Decoding only, one or more frames into a buffer of
 * known capacity: raw, RLE and compressed blocks; raw, RLE, Huffman and
 * treeless literals (1 or 4 streams, direct or FSE-compressed weights);
 * sequences with predefined, RLE, FSE-compressed and repeated tables and
 * the three repeat offsets; skippable frames.  Dictionaries are not
 * supported (nvcc does not use them) and checksums are not verified.
 * Every read is bounds-checked: malformed input is an error, never a crash.
 * The structure follows the RFC and zstd's educational decoder.
 */
#include "cudart/zstd.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define MAX_HUF_BITS 11
#define MAX_FSE_LOG 9
#define MAX_SYMBOLS 256

struct fse {
	int log; /* accuracy log; the table has 1 << log states */
	uint8_t sym[1 << MAX_FSE_LOG], bits[1 << MAX_FSE_LOG];
	uint16_t base[1 << MAX_FSE_LOG];
};

struct huf {
	int max_bits; /* 0: no table yet */
	uint8_t sym[1 << MAX_HUF_BITS], bits[1 << MAX_HUF_BITS];
};

struct zctx {
	const uint8_t *in;
	size_t n, pos;
	uint8_t *out;
	size_t cap, len;
	struct huf huf;
	struct fse ll, of, ml; /* the tables of the previous block, for repeat mode */
	int have_ll, have_of, have_ml;
	uint64_t rep[3];
	char *err;
	size_t errsz;
};

static int fail(struct zctx *z, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(struct zctx *z, const char *fmt, ...)
{
	if (z->err && z->errsz) {
		va_list ap;
		va_start(ap, fmt);
		int k = snprintf(z->err, z->errsz, "zstd: ");
		vsnprintf(z->err + k, z->errsz - (size_t)k, fmt, ap);
		va_end(ap);
	}
	return -1;
}

static int highbit(uint32_t v) /* index of the highest set bit; v > 0 */
{
	return 31 - __builtin_clz(v);
}

/* ---- backward bit streams (Huffman, FSE data): read from the end ---- */
struct bwd {
	const uint8_t *p;
	int64_t off; /* bits left; reads past the start yield zeros */
};

static int bwd_init(struct bwd *b, const uint8_t *p, size_t n)
{
	if (n == 0 || p[n - 1] == 0)
		return -1;
	b->p = p;
	b->off = (int64_t)n * 8 - (8 - highbit(p[n - 1]));
	return 0;
}

static uint64_t bwd_read(struct bwd *b, int nbits)
{
	if (nbits == 0)
		return 0;
	b->off -= nbits;
	int64_t o = b->off;
	int k = nbits;
	if (o < 0) {
		k += (int)o;
		o = 0;
	}
	uint64_t v = 0;
	for (int i = 0; i < k; i++) {
		int64_t bit = o + i;
		v |= (uint64_t)((b->p[bit >> 3] >> (bit & 7)) & 1) << i;
	}
	if (b->off < 0)
		v = -b->off >= 64 ? 0 : v << -b->off;
	return v;
}

/* ---- forward bit reader (FSE table descriptions) ---- */
struct fwd {
	const uint8_t *p;
	size_t n;
	size_t bit;
};

static int fwd_read(struct fwd *f, int nbits, uint32_t *v)
{
	if (f->bit + (size_t)nbits > f->n * 8)
		return -1;
	uint32_t r = 0;
	for (int i = 0; i < nbits; i++, f->bit++)
		r |= (uint32_t)((f->p[f->bit >> 3] >> (f->bit & 7)) & 1) << i;
	*v = r;
	return 0;
}

/* ---- FSE ---- */
static int fse_build(struct zctx *z, struct fse *t, const int16_t *freq, int nsym, int log)
{
	int size = 1 << log, high = size - 1;
	uint16_t next[MAX_SYMBOLS];
	t->log = log;
	for (int s = 0; s < nsym; s++)
		if (freq[s] == -1) {
			t->sym[high--] = (uint8_t)s;
			next[s] = 1;
		}
	int step = (size >> 1) + (size >> 3) + 3, mask = size - 1, pos = 0;
	for (int s = 0; s < nsym; s++) {
		if (freq[s] <= 0)
			continue;
		next[s] = (uint16_t)freq[s];
		for (int i = 0; i < freq[s]; i++) {
			t->sym[pos] = (uint8_t)s;
			do
				pos = (pos + step) & mask;
			while (pos > high);
		}
	}
	if (pos != 0)
		return fail(z, "corrupt FSE distribution");
	for (int i = 0; i < size; i++) {
		uint16_t d = next[t->sym[i]]++;
		t->bits[i] = (uint8_t)(log - highbit(d));
		t->base[i] = (uint16_t)((d << t->bits[i]) - size);
	}
	return 0;
}

/* Read an FSE table description at p[0..n); *used receives its size in bytes. */
static int fse_read(struct zctx *z, struct fse *t, const uint8_t *p, size_t n, int max_log, size_t *used)
{
	struct fwd f = {p, n, 0};
	uint32_t v;
	if (fwd_read(&f, 4, &v) < 0)
		return fail(z, "truncated FSE table");
	int log = (int)v + 5;
	if (log > max_log)
		return fail(z, "FSE accuracy %d too large", log);
	int remaining = 1 << log, nsym = 0;
	int16_t freq[MAX_SYMBOLS];
	while (remaining > 0 && nsym < MAX_SYMBOLS) {
		int bits = highbit((uint32_t)remaining + 1) + 1;
		if (fwd_read(&f, bits, &v) < 0)
			return fail(z, "truncated FSE table");
		uint32_t lower = (1u << (bits - 1)) - 1, threshold = (1u << bits) - 1 - ((uint32_t)remaining + 1);
		if ((v & lower) < threshold) {
			f.bit--;
			v &= lower;
		} else if (v > lower) {
			v -= threshold;
		}
		int prob = (int)v - 1;
		remaining -= prob < 0 ? -prob : prob;
		freq[nsym++] = (int16_t)prob;
		if (prob == 0) {
			uint32_t rep;
			do {
				if (fwd_read(&f, 2, &rep) < 0)
					return fail(z, "truncated FSE table");
				for (uint32_t i = 0; i < rep && nsym < MAX_SYMBOLS; i++)
					freq[nsym++] = 0;
			} while (rep == 3);
		}
	}
	if (remaining != 0)
		return fail(z, "corrupt FSE table");
	*used = (f.bit + 7) / 8;
	return fse_build(z, t, freq, nsym, log);
}

static void fse_rle(struct fse *t, uint8_t sym)
{
	t->log = 0;
	t->sym[0] = sym;
	t->bits[0] = 0;
	t->base[0] = 0;
}

static uint16_t fse_init_state(const struct fse *t, struct bwd *b)
{
	return (uint16_t)bwd_read(b, t->log);
}

static uint16_t fse_update(const struct fse *t, uint16_t state, struct bwd *b)
{
	return (uint16_t)(t->base[state] + bwd_read(b, t->bits[state]));
}

/* ---- Huffman ---- */
static int huf_build(struct zctx *z, const uint8_t *w, int nw)
{
	/* the last symbol's weight is implied: it completes a power of two */
	uint32_t total = 0;
	for (int i = 0; i < nw; i++) {
		if (w[i] > MAX_HUF_BITS)
			return fail(z, "Huffman weight %u too large", w[i]);
		if (w[i])
			total += 1u << (w[i] - 1);
	}
	if (total == 0 || nw + 1 > MAX_SYMBOLS)
		return fail(z, "corrupt Huffman weights");
	int max_bits = highbit(total) + 1;
	uint32_t left = (1u << max_bits) - total;
	if (left & (left - 1) || max_bits > MAX_HUF_BITS)
		return fail(z, "corrupt Huffman weights");
	uint8_t bits[MAX_SYMBOLS];
	int n = nw + 1;
	for (int i = 0; i < nw; i++)
		bits[i] = (uint8_t)(w[i] ? max_bits + 1 - w[i] : 0);
	bits[nw] = (uint8_t)(max_bits + 1 - (highbit(left) + 1));
	int count[MAX_HUF_BITS + 2] = {0};
	for (int i = 0; i < n; i++)
		count[bits[i]]++;
	int start[MAX_HUF_BITS + 2];
	start[max_bits] = 0;
	for (int b = max_bits; b >= 1; b--) {
		start[b - 1] = start[b] + count[b] * (1 << (max_bits - b));
		for (int k = start[b]; k < start[b - 1]; k++)
			z->huf.bits[k] = (uint8_t)b;
	}
	if (start[0] != 1 << max_bits)
		return fail(z, "corrupt Huffman table");
	for (int i = 0; i < n; i++)
		if (bits[i]) {
			int len = 1 << (max_bits - bits[i]);
			memset(&z->huf.sym[start[bits[i]]], i, (size_t)len);
			start[bits[i]] += len;
		}
	z->huf.max_bits = max_bits;
	return 0;
}

/* Huffman tree description at p[0..n); *used receives its size. */
static int huf_read(struct zctx *z, const uint8_t *p, size_t n, size_t *used)
{
	if (n < 1)
		return fail(z, "truncated Huffman tree");
	uint8_t w[MAX_SYMBOLS];
	int nw = 0;
	int hb = p[0];
	if (hb >= 128) { /* direct: 4-bit weights */
		nw = hb - 127;
		size_t bytes = (size_t)(nw + 1) / 2;
		if (1 + bytes > n)
			return fail(z, "truncated Huffman tree");
		for (int i = 0; i < nw; i++)
			w[i] = (uint8_t)(i % 2 == 0 ? p[1 + i / 2] >> 4 : p[1 + i / 2] & 15);
		*used = 1 + bytes;
	} else { /* FSE-compressed weights, two interleaved states */
		if ((size_t)hb + 1 > n || hb == 0)
			return fail(z, "truncated Huffman tree");
		static const int max_log = 6;
		struct fse t;
		size_t hdr = 0;
		if (fse_read(z, &t, p + 1, (size_t)hb, max_log, &hdr) < 0)
			return -1;
		struct bwd b;
		if (hdr >= (size_t)hb || bwd_init(&b, p + 1 + hdr, (size_t)hb - hdr) < 0)
			return fail(z, "corrupt Huffman weight stream");
		uint16_t s1 = fse_init_state(&t, &b), s2 = fse_init_state(&t, &b);
		for (;;) {
			if (nw + 2 > MAX_SYMBOLS - 1)
				return fail(z, "too many Huffman weights");
			w[nw++] = t.sym[s1];
			s1 = fse_update(&t, s1, &b);
			if (b.off < 0) {
				w[nw++] = t.sym[s2];
				break;
			}
			w[nw++] = t.sym[s2];
			s2 = fse_update(&t, s2, &b);
			if (b.off < 0) {
				w[nw++] = t.sym[s1];
				break;
			}
		}
		*used = 1 + (size_t)hb;
	}
	return huf_build(z, w, nw);
}

static int huf_stream(struct zctx *z, const uint8_t *p, size_t n, uint8_t *out, size_t count)
{
	struct bwd b;
	if (bwd_init(&b, p, n) < 0)
		return fail(z, "corrupt Huffman stream");
	int mb = z->huf.max_bits;
	uint16_t state = (uint16_t)bwd_read(&b, mb), mask = (uint16_t)((1u << mb) - 1);
	for (size_t i = 0; i < count; i++) {
		out[i] = z->huf.sym[state];
		int nb = z->huf.bits[state];
		state = (uint16_t)(((state << nb) + bwd_read(&b, nb)) & mask);
	}
	if (b.off != -mb) /* every bit consumed, the state's own bits past the start */
		return fail(z, "corrupt Huffman stream (length)");
	return 0;
}

/* ---- literals section: *nlit literals into z->lit; returns bytes used ---- */
static long literals(struct zctx *z, const uint8_t *p, size_t n, size_t *nlit, uint8_t *litbuf, size_t litcap)
{
	if (n < 1)
		return fail(z, "truncated literals");
	int type = p[0] & 3, fmt = (p[0] >> 2) & 3;
	size_t regen, comp = 0, hsz;
	if (type < 2) {
		if ((fmt & 1) == 0) {
			hsz = 1;
			regen = p[0] >> 3;
		} else if (fmt == 1) {
			hsz = 2;
			if (n < 2)
				return fail(z, "truncated literals");
			regen = (p[0] >> 4) + ((size_t)p[1] << 4);
		} else {
			hsz = 3;
			if (n < 3)
				return fail(z, "truncated literals");
			regen = (p[0] >> 4) + ((size_t)p[1] << 4) + ((size_t)p[2] << 12);
		}
	} else {
		hsz = fmt < 2 ? 3 : fmt == 2 ? 4 : 5;
		if (n < hsz)
			return fail(z, "truncated literals");
		uint64_t h = 0;
		for (size_t i = 0; i < hsz; i++)
			h |= (uint64_t)p[i] << (8 * i);
		int sb = fmt < 2 ? 10 : fmt == 2 ? 14 : 18;
		regen = (size_t)((h >> 4) & ((1u << sb) - 1));
		comp = (size_t)((h >> (4 + sb)) & ((1u << sb) - 1));
	}
	if (regen > litcap)
		return fail(z, "literals too large");
	*nlit = regen;
	if (type == 0) {
		if (hsz + regen > n)
			return fail(z, "truncated raw literals");
		memcpy(litbuf, p + hsz, regen);
		return (long)(hsz + regen);
	}
	if (type == 1) {
		if (hsz + 1 > n)
			return fail(z, "truncated RLE literals");
		memset(litbuf, p[hsz], regen);
		return (long)(hsz + 1);
	}
	if (hsz + comp > n)
		return fail(z, "truncated compressed literals");
	const uint8_t *q = p + hsz;
	size_t qn = comp;
	if (type == 2) {
		size_t used = 0;
		if (huf_read(z, q, qn, &used) < 0)
			return -1;
		q += used;
		qn -= used;
	} else if (!z->huf.max_bits) {
		return fail(z, "treeless literals without a previous Huffman table");
	}
	if (fmt == 0) { /* one stream */
		if (huf_stream(z, q, qn, litbuf, regen) < 0)
			return -1;
	} else { /* four streams after a jump table */
		if (qn < 6)
			return fail(z, "truncated jump table");
		size_t s1 = q[0] | (size_t)q[1] << 8, s2 = q[2] | (size_t)q[3] << 8, s3 = q[4] | (size_t)q[5] << 8;
		if (6 + s1 + s2 + s3 > qn)
			return fail(z, "corrupt jump table");
		size_t s4 = qn - 6 - s1 - s2 - s3, seg = (regen + 3) / 4;
		if (regen < 3 * seg)
			return fail(z, "corrupt literal sizes");
		const uint8_t *d = q + 6;
		if (huf_stream(z, d, s1, litbuf, seg) < 0 || huf_stream(z, d + s1, s2, litbuf + seg, seg) < 0 ||
		    huf_stream(z, d + s1 + s2, s3, litbuf + 2 * seg, seg) < 0 ||
		    huf_stream(z, d + s1 + s2 + s3, s4, litbuf + 3 * seg, regen - 3 * seg) < 0)
			return -1;
	}
	return (long)(hsz + comp);
}

/* ---- sequences ---- */
static const uint32_t LL_BASE[36] = {0,  1,  2,   3,   4,   5,    6,    7,    8,    9,     10,    11,
                                     12, 13, 14,  15,  16,  18,   20,   22,   24,   28,    32,    40,
                                     48, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536};
static const uint8_t LL_BITS[36] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,  0,  0,  0,  0,  1,  1,
                                    1, 1, 2, 2, 3, 3, 4, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
static const uint32_t ML_BASE[53] = {3,  4,   5,   6,   7,    8,    9,    10,   11,    12,    13,   14, 15, 16,
                                     17, 18,  19,  20,  21,   22,   23,   24,   25,    26,    27,   28, 29, 30,
                                     31, 32,  33,  34,  35,   37,   39,   41,   43,    47,    51,   59, 67, 83,
                                     99, 131, 259, 515, 1027, 2051, 4099, 8195, 16387, 32771, 65539};
static const uint8_t ML_BITS[53] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,  0,  0,  0,  0,  0,  0, 0,
                                    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,  0,  0,  0,  1,  1,  1, 1,
                                    2, 2, 3, 3, 4, 4, 5, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
static const int16_t LL_DEF[36] = {4, 3, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 1,  1,  2,  2,
                                   2, 2, 2, 2, 2, 2, 2, 3, 2, 1, 1, 1, 1, 1, -1, -1, -1, -1};
static const int16_t ML_DEF[53] = {1, 4, 3, 2, 2, 2, 2, 2, 2, 1, 1,  1,  1,  1,  1,  1,  1, 1,
                                   1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,  1,  1,  1,  1,  1,  1, 1,
                                   1, 1, 1, 1, 1, 1, 1, 1, 1, 1, -1, -1, -1, -1, -1, -1, -1};
static const int16_t OF_DEF[29] = {1, 1, 1, 1, 1, 1, 2, 2, 2, 1,  1,  1,  1,  1, 1,
                                   1, 1, 1, 1, 1, 1, 1, 1, 1, -1, -1, -1, -1, -1};

/* One table of the sequences section header; returns bytes used or -1. */
static long seq_table(struct zctx *z, int mode, struct fse *t, int *have, const int16_t *def, int ndef, int def_log,
                      int max_log, int max_sym, const uint8_t *p, size_t n)
{
	size_t used = 0;
	switch (mode) {
	case 0:
		if (fse_build(z, t, def, ndef, def_log) < 0)
			return -1;
		break;
	case 1:
		if (n < 1 || p[0] > max_sym)
			return fail(z, "corrupt RLE sequence table");
		fse_rle(t, p[0]);
		used = 1;
		break;
	case 2:
		if (fse_read(z, t, p, n, max_log, &used) < 0)
			return -1;
		break;
	default:
		if (!*have)
			return fail(z, "repeated sequence table without a previous one");
		break;
	}
	*have = 1;
	return (long)used;
}

static int copy_match(struct zctx *z, uint64_t offset, uint32_t len)
{
	if (offset == 0 || offset > z->len)
		return fail(z, "match offset %llu beyond the output", (unsigned long long)offset);
	if (len > z->cap - z->len)
		return fail(z, "output larger than expected");
	for (uint32_t i = 0; i < len; i++, z->len++)
		z->out[z->len] = z->out[z->len - offset];
	return 0;
}

static int block(struct zctx *z, const uint8_t *p, size_t n)
{
	uint8_t lit[1 << 17]; /* a block's literals: at most 128 KiB */
	size_t nlit = 0;
	long used = literals(z, p, n, &nlit, lit, sizeof lit);
	if (used < 0)
		return -1;
	p += used;
	n -= (size_t)used;
	if (n < 1)
		return fail(z, "truncated sequences");
	uint32_t nseq = p[0];
	size_t h = 1;
	if (nseq >= 128) {
		if (nseq < 255) {
			if (n < 2)
				return fail(z, "truncated sequences");
			nseq = ((nseq - 128) << 8) + p[1];
			h = 2;
		} else {
			if (n < 3)
				return fail(z, "truncated sequences");
			nseq = p[1] + ((uint32_t)p[2] << 8) + 0x7F00;
			h = 3;
		}
	}
	const uint8_t *lp = lit;
	if (nseq == 0) {
		if (nlit > z->cap - z->len)
			return fail(z, "output larger than expected");
		memcpy(z->out + z->len, lp, nlit);
		z->len += nlit;
		return 0;
	}
	if (n < h + 1)
		return fail(z, "truncated sequences");
	int modes = p[h];
	p += h + 1;
	n -= h + 1;
	long u;
	if ((u = seq_table(z, modes >> 6, &z->ll, &z->have_ll, LL_DEF, 36, 6, 9, 35, p, n)) < 0)
		return -1;
	p += u, n -= (size_t)u;
	if ((u = seq_table(z, (modes >> 4) & 3, &z->of, &z->have_of, OF_DEF, 29, 5, 8, 31, p, n)) < 0)
		return -1;
	p += u, n -= (size_t)u;
	if ((u = seq_table(z, (modes >> 2) & 3, &z->ml, &z->have_ml, ML_DEF, 53, 6, 9, 52, p, n)) < 0)
		return -1;
	p += u, n -= (size_t)u;
	struct bwd b;
	if (bwd_init(&b, p, n) < 0)
		return fail(z, "corrupt sequence stream");
	uint16_t sl = fse_init_state(&z->ll, &b), so = fse_init_state(&z->of, &b), sm = fse_init_state(&z->ml, &b);
	const uint8_t *lend = lit + nlit;
	for (uint32_t i = 0; i < nseq; i++) {
		uint8_t lc = z->ll.sym[sl], oc = z->of.sym[so], mc = z->ml.sym[sm];
		if (lc > 35 || mc > 52 || oc > 31)
			return fail(z, "corrupt sequence codes");
		uint64_t ofv = ((uint64_t)1 << oc) + bwd_read(&b, oc);
		uint32_t ml = ML_BASE[mc] + (uint32_t)bwd_read(&b, ML_BITS[mc]);
		uint32_t ll = LL_BASE[lc] + (uint32_t)bwd_read(&b, LL_BITS[lc]);
		if (i + 1 < nseq) {
			sl = fse_update(&z->ll, sl, &b);
			sm = fse_update(&z->ml, sm, &b);
			so = fse_update(&z->of, so, &b);
		}
		uint64_t offset;
		if (ofv > 3) {
			offset = ofv - 3;
			z->rep[2] = z->rep[1];
			z->rep[1] = z->rep[0];
			z->rep[0] = offset;
		} else {
			uint32_t idx = (uint32_t)ofv - 1 + (ll == 0);
			if (idx == 0) {
				offset = z->rep[0];
			} else {
				offset = idx < 3 ? z->rep[idx] : z->rep[0] - 1;
				if (idx > 1)
					z->rep[2] = z->rep[1];
				z->rep[1] = z->rep[0];
				z->rep[0] = offset;
			}
		}
		if (ll > (size_t)(lend - lp) || ll > z->cap - z->len)
			return fail(z, "corrupt literal length");
		memcpy(z->out + z->len, lp, ll);
		z->len += ll;
		lp += ll;
		if (copy_match(z, offset, ml) < 0)
			return -1;
	}
	size_t rest = (size_t)(lend - lp);
	if (rest > z->cap - z->len)
		return fail(z, "output larger than expected");
	memcpy(z->out + z->len, lp, rest);
	z->len += rest;
	return 0;
}

static int frame(struct zctx *z)
{
	const uint8_t *p = z->in + z->pos;
	size_t n = z->n - z->pos;
	if (n < 5)
		return fail(z, "truncated frame header");
	uint8_t fhd = p[4];
	int fcs_flag = fhd >> 6, single = (fhd >> 5) & 1, checksum = (fhd >> 2) & 1, dict = fhd & 3;
	if (fhd & 8)
		return fail(z, "reserved frame header bit set");
	size_t dsz = dict == 3 ? 4 : (size_t)dict, did = 5 + (size_t)!single;
	size_t h = did + dsz + (size_t)(fcs_flag == 0 ? single : fcs_flag == 1 ? 2 : fcs_flag == 2 ? 4 : 8);
	if (h > n)
		return fail(z, "truncated frame header");
	for (size_t i = 0; i < dsz; i++)
		if (p[did + i])
			return fail(z, "dictionaries are not supported");
	size_t pos = h;
	z->rep[0] = 1, z->rep[1] = 4, z->rep[2] = 8;
	z->have_ll = z->have_of = z->have_ml = 0;
	z->huf.max_bits = 0;
	for (;;) {
		if (pos + 3 > n)
			return fail(z, "truncated block header");
		uint32_t bh = p[pos] | (uint32_t)p[pos + 1] << 8 | (uint32_t)p[pos + 2] << 16;
		pos += 3;
		int last = bh & 1, type = (bh >> 1) & 3;
		size_t size = bh >> 3;
		if (type == 1) { /* RLE: one byte, repeated */
			if (pos + 1 > n || size > z->cap - z->len)
				return fail(z, "corrupt RLE block");
			memset(z->out + z->len, p[pos], size);
			z->len += size;
			pos += 1;
		} else {
			if (pos + size > n)
				return fail(z, "truncated block");
			if (type == 0) {
				if (size > z->cap - z->len)
					return fail(z, "output larger than expected");
				memcpy(z->out + z->len, p + pos, size);
				z->len += size;
			} else if (type == 2) {
				if (block(z, p + pos, size) < 0)
					return -1;
			} else {
				return fail(z, "reserved block type");
			}
			pos += size;
		}
		if (last)
			break;
	}
	if (checksum)
		pos += 4;
	if (pos > n)
		return fail(z, "truncated checksum");
	z->pos += pos;
	return 0;
}

long zstd_decompress(const uint8_t *src, size_t n, uint8_t *dst, size_t cap, char *err, size_t errsz)
{
	struct zctx z;
	memset(&z, 0, sizeof z);
	z.in = src;
	z.n = n;
	z.out = dst;
	z.cap = cap;
	z.err = err;
	z.errsz = errsz;
	while (z.pos + 4 <= n) {
		uint32_t magic = src[z.pos] | (uint32_t)src[z.pos + 1] << 8 | (uint32_t)src[z.pos + 2] << 16 |
		                 (uint32_t)src[z.pos + 3] << 24;
		if (magic == 0xFD2FB528u) {
			if (frame(&z) < 0)
				return -1;
		} else if ((magic & 0xFFFFFFF0u) == 0x184D2A50u) { /* skippable frame */
			if (z.pos + 8 > n)
				return fail(&z, "truncated skippable frame");
			uint32_t size = src[z.pos + 4] | (uint32_t)src[z.pos + 5] << 8 |
			                (uint32_t)src[z.pos + 6] << 16 | (uint32_t)src[z.pos + 7] << 24;
			if (size > n - z.pos - 8)
				return fail(&z, "truncated skippable frame");
			z.pos += 8 + (size_t)size;
		} else {
			return z.pos == 0 ? fail(&z, "not a zstd frame (magic 0x%08x)", magic) : (long)z.len;
		}
	}
	return (long)z.len;
}
