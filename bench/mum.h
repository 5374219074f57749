/*
 * mum.h -- inputs and CPU reference shared by the two MUMmer-like
 * benchmarks (bench/mp: suffix-trie walk after GPGPU-Sim's MUM; bench/mu:
 * suffix-array search after MUMmerGPU++).  Included by their host.c only.
 *
 * Reference: n random bases 0..3.  Queries: nq strings of qlen bases, three
 * in four copied from a random reference position with each base mutated
 * with probability 1/8, one in four uniformly random -- so match lengths,
 * and with them the GPU's loop trip counts, vary from query to query and
 * from position to position.  Query q occupies bytes [q*qlen, (q+1)*qlen)
 * (one query per thread, so a warp's query reads are strided, as in
 * MUMmerGPU).
 *
 * Both kernels compute, for every query q and every start i with
 * i + minmatch <= qlen, the matching statistic ms(q, i): the length of the
 * longest prefix of q[i..qlen) that occurs anywhere in the reference (mp
 * caps it at its trie depth).  Output per query: the sum of the ms(q, i)
 * that reach minmatch (the "match length found") and the largest ms(q, i).
 *
 * The CPU reference gets ms from a suffix array (merge-sorted here) by a
 * plain lower-bound binary search and the longest common prefix with the
 * two suffixes around the insertion point.
 */
#ifndef WARPSIM_BENCH_MUM_H
#define WARPSIM_BENCH_MUM_H

#include <stdlib.h>
#include <string.h>

#include "bench.h"

struct mum_input {
	int n, nq, qlen;
	unsigned char *ref, *q;
	int *sa; /* suffix array of ref: start positions in lexicographic order (a prefix sorts first) */
};

/* <0, 0, >0 as suffix a of ref sorts before, equal to (a == b), after suffix b */
static int mum_suffix_cmp(const unsigned char *ref, int n, int a, int b)
{
	int la = n - a, lb = n - b, m = la < lb ? la : lb;
	int c = memcmp(ref + a, ref + b, (size_t)m);
	return c ? c : la - lb;
}

/* Bottom-up merge sort of the suffix start positions.  0 or -1 (no memory). */
static int mum_build_sa(struct mum_input *in)
{
	int n = in->n;
	int *a = malloc((size_t)n * sizeof *a), *b = malloc((size_t)n * sizeof *b);
	if (!a || !b) {
		free(a);
		free(b);
		return -1;
	}
	for (int i = 0; i < n; i++)
		a[i] = i;
	for (int w = 1; w < n; w *= 2) {
		for (int lo = 0; lo < n; lo += 2 * w) {
			int mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
			int i = lo, j = mid, k = lo;
			while (i < mid && j < hi)
				b[k++] = mum_suffix_cmp(in->ref, n, a[i], a[j]) <= 0 ? a[i++] : a[j++];
			while (i < mid)
				b[k++] = a[i++];
			while (j < hi)
				b[k++] = a[j++];
		}
		int *t = a;
		a = b;
		b = t;
	}
	free(b);
	in->sa = a;
	return 0;
}

static void mum_free(struct mum_input *in)
{
	free(in->ref);
	free(in->q);
	free(in->sa);
	memset(in, 0, sizeof *in);
}

/* Random reference and queries (see the header comment) and the suffix array.  0 or -1. */
static int mum_make(struct mum_input *in, int n, int nq, int qlen, uint64_t seed)
{
	memset(in, 0, sizeof *in);
	in->n = n;
	in->nq = nq;
	in->qlen = qlen;
	in->ref = malloc((size_t)n);
	in->q = malloc((size_t)nq * (size_t)qlen);
	if (!in->ref || !in->q) {
		mum_free(in);
		return -1;
	}
	struct bench_rng rng;
	bench_rng_seed(&rng, seed);
	for (int i = 0; i < n; i++)
		in->ref[i] = (unsigned char)bench_rng_u32(&rng, 4);
	for (int q = 0; q < nq; q++) {
		unsigned char *s = in->q + (size_t)q * qlen;
		if (bench_rng_u32(&rng, 4) == 0) {
			for (int i = 0; i < qlen; i++)
				s[i] = (unsigned char)bench_rng_u32(&rng, 4);
			continue;
		}
		int at = (int)bench_rng_u32(&rng, (uint32_t)(n - qlen + 1));
		for (int i = 0; i < qlen; i++) {
			s[i] = in->ref[at + i];
			if (bench_rng_u32(&rng, 8) == 0)
				s[i] = (unsigned char)((s[i] + 1 + bench_rng_u32(&rng, 3)) & 3);
		}
	}
	if (mum_build_sa(in) < 0) {
		mum_free(in);
		return -1;
	}
	return 0;
}

/* common prefix length of ref[p..n) and s[0..len) */
static int mum_lcp(const struct mum_input *in, int p, const unsigned char *s, int len)
{
	int k = 0;
	while (k < len && p + k < in->n && in->ref[p + k] == s[k])
		k++;
	return k;
}

/* ms: the longest prefix of s[0..len) that occurs in the reference */
static int mum_ms(const struct mum_input *in, const unsigned char *s, int len)
{
	int lo = 0, hi = in->n; /* first suffix that is >= s (s as a string; a suffix with prefix s counts as >=) */
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2, p = in->sa[mid];
		int k = mum_lcp(in, p, s, len);
		int less = k < len && (p + k == in->n || in->ref[p + k] < s[k]);
		if (less)
			lo = mid + 1;
		else
			hi = mid;
	}
	int best = 0;
	if (lo < in->n)
		best = mum_lcp(in, in->sa[lo], s, len);
	if (lo > 0) {
		int k = mum_lcp(in, in->sa[lo - 1], s, len);
		best = k > best ? k : best;
	}
	return best;
}

/* CPU reference of query q: *sum (ms >= minmatch, each capped at cap) and *best (capped). */
static void mum_query_ref(const struct mum_input *in, int q, int minmatch, int cap, int *sum, int *best)
{
	const unsigned char *s = in->q + (size_t)q * in->qlen;
	*sum = 0;
	*best = 0;
	for (int i = 0; i + minmatch <= in->qlen; i++) {
		int m = mum_ms(in, s + i, in->qlen - i);
		if (m > cap)
			m = cap;
		if (m >= minmatch)
			*sum += m;
		if (m > *best)
			*best = m;
	}
}

#endif
