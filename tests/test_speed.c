/*
 * test_speed.c -- tests of the simulator-speed report (`warpsim bench
 * --table`, src/cli/bench_table.c, what `make bench` prints) and of the
 * activity-proportional cycle loop (src/gpu/gpu.c) it measures.
 *
 * The table's timings are not tested (they depend on the machine); its
 * shape, its verification of every run, and the idle-scaling rows are: one
 * warp of work simulates the same number of cycles whatever the number of
 * idle SMs beside it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "mem/shmem.h"
#include "cli_check.h"
#include "test.h"

/* Run `warpsim ARGS` (stderr merged), return its exit status; *out: output. */
static int run(const char *args, char **out) { return cli_run(args, 1, out); }

/* The line of out that starts with `head` followed by a space, or NULL. */
static const char *row(const char *out, const char *head)
{
	size_t len = strlen(head);
	for (const char *l = out; l && *l;) {
		if (strncmp(l, head, len) == 0 && l[len] == ' ')
			return l;
		l = strchr(l, '\n');
		l = l ? l + 1 : NULL;
	}
	return NULL;
}

TEST(bench_table_rows)
{
	char *out;
	int rc = run("bench --table vecadd --size tiny --paper none --idle-sms 1,4,64 --load-mb 0", &out);
	CHECK_MSG(rc == 0, "bench --table: exit status %d; output:\n%s", rc, out ? out : "");
	/* vecadd tiny: verified in both models, thread instructions and cycles counted */
	const char *r = row(out, "vecadd");
	char size[16], ver[16];
	unsigned long long ti = 0, cyc = 0;
	CHECK_MSG(r && sscanf(r, "vecadd %15s %15s %llu %llu", size, ver, &ti, &cyc) == 4,
		  "no vecadd row in:\n%s", out ? out : "");
	if (r) {
		CHECK_MSG(strcmp(size, "tiny") == 0 && strcmp(ver, "yes") == 0 && ti > 0 && cyc > 0,
			  "vecadd row: size %s verified %s thread insts %llu cycles %llu", size, ver, ti, cyc);
	}
	/* idle scaling: one warp on 1, 4 and 64 SMs, same simulated cycles */
	unsigned long long c[3] = {0, 0, 0};
	const char *heads[3] = {"1", "4", "64"};
	for (int k = 0; k < 3; k++) {
		r = row(out, heads[k]);
		char v[16];
		CHECK_MSG(r && sscanf(r + strlen(heads[k]), "%15s %llu", v, &c[k]) == 2 && strcmp(v, "yes") == 0,
			  "idle-scaling row for %s SMs missing or not verified in:\n%s", heads[k], out ? out : "");
	}
	CHECK_MSG(c[0] > 1000 && c[0] == c[1] && c[1] == c[2],
		  "one warp of work took %llu, %llu and %llu cycles on 1, 4 and 64 SMs (expected equal)", c[0], c[1],
		  c[2]);
	free(out);
}

TEST(bench_table_usage)
{
	char *out;
	int rc = run("bench --table vecadd --size tiny --idle-sms 4,x --load-mb 0", &out);
	CHECK_MSG(rc == 2 && strstr(out, "--idle-sms '4,x'"), "--idle-sms 4,x: status %d, output:\n%s", rc, out);
	free(out);
	rc = run("bench --table vecadd --size tiny --idle-sms 2000 --load-mb 0", &out);
	CHECK_MSG(rc == 2 && strstr(out, "1 to 1024"), "--idle-sms 2000: status %d, output:\n%s", rc, out);
	free(out);
	rc = run("bench --table vecadd --size tiny --paper nosuch --load-mb 0", &out);
	CHECK_MSG(rc == 2 && strstr(out, "'nosuch' is not a bundled benchmark"), "--paper nosuch: status %d, output:\n%s",
		  rc, out);
	free(out);
}

/* Reference bank-conflict degree: for each group of lanes, the largest
 * number of distinct bank words any bank serves (the definition in shmem.h). */
static unsigned ref_passes(const uint64_t *addr, uint64_t active, unsigned nlanes, unsigned size, unsigned nbanks,
			   unsigned bank_bytes)
{
	unsigned group = size > bank_bytes ? nbanks * bank_bytes / size : nlanes;
	if (group < 1)
		group = 1;
	unsigned total = 0;
	for (unsigned g0 = 0; g0 < nlanes; g0 += group) {
		uint64_t words[64 * 17];
		unsigned nw = 0, deg = 0;
		for (unsigned l = g0; l < g0 + group && l < nlanes; l++) {
			if (!(active >> l & 1))
				continue;
			for (uint64_t w = addr[l] / bank_bytes; w <= (addr[l] + size - 1) / bank_bytes; w++) {
				unsigned k;
				for (k = 0; k < nw && words[k] != w; k++)
					;
				if (k == nw)
					words[nw++] = w;
			}
		}
		for (unsigned b = 0; b < nbanks; b++) {
			unsigned c = 0;
			for (unsigned k = 0; k < nw; k++)
				c += words[k] % nbanks == b;
			if (c > deg)
				deg = c;
		}
		total += deg;
	}
	return total;
}

TEST(shmem_fast_path_matches_reference)
{
	/* patterns that take shmem.c's one-pass fast path (distinct banks,
	 * broadcasts) and that leave it (conflicts, straddling words, wide
	 * accesses), on random active masks */
	uint64_t rng = 12345;
	unsigned bad = 0;
	for (unsigned it = 0; it < 20000; it++) {
		rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
		uint64_t r = rng;
		unsigned nlanes = (r & 1) ? 32 : (r & 2) ? 64 : 16;
		static const unsigned sizes[] = {1, 2, 4, 8, 16};
		unsigned size = sizes[(r >> 2) % 5];
		unsigned bank_bytes = (r >> 5) & 1 ? 8 : 4;
		unsigned nbanks = (r >> 6) & 1 ? 32 : 16;
		unsigned pattern = (unsigned)((r >> 8) % 6), stride = 1 + (unsigned)((r >> 12) % 5);
		uint64_t base = ((r >> 16) % 4096) & ~(uint64_t)((r >> 28) & 1 ? 0 : size - 1);
		uint64_t addr[64];
		for (unsigned l = 0; l < 64; l++) {
			rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
			switch (pattern) {
			case 0: addr[l] = base + (uint64_t)l * size; break;                 /* consecutive */
			case 1: addr[l] = base + (uint64_t)l * size * stride; break;        /* strided */
			case 2: addr[l] = base; break;                                       /* broadcast */
			case 3: addr[l] = base + (uint64_t)(l / 16) * size; break;           /* a few words */
			case 4: addr[l] = (rng % 8192) & ~(uint64_t)(size - 1); break;       /* random aligned */
			default: addr[l] = rng % 8192; break;                                /* random, may straddle */
			}
		}
		uint64_t active = it % 3 == 0 ? ~0ull : rng;
		uint64_t act = nlanes < 64 ? active & ((1ull << nlanes) - 1) : active;
		unsigned want = act ? ref_passes(addr, act, nlanes, size, nbanks, bank_bytes) : 0;
		unsigned got = shmem_cycles(addr, active, nlanes, size, nbanks, bank_bytes);
		if (got != want && bad++ < 5)
			CHECK_MSG(0, "pattern %u size %u banks %u x %u B lanes %u: %u passes, reference %u", pattern, size,
				  nbanks, bank_bytes, nlanes, got, want);
	}
	CHECK_MSG(bad == 0, "%u of 20000 access patterns differ from the reference", bad);
}
