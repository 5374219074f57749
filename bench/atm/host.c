/*
 * atm/host.c -- host driver of the BOWS suite's ATM: transfers between two
 * accounts, each under the locks of both accounts.  Transactions (from, to,
 * amount) are random with from != to; the CPU applies them in any order
 * (the kernel's transfers are unconditional, so the order does not matter)
 * and the check compares every final balance and every account's number
 * of transfers, and that every lock is released.
 */
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"

extern const char ws_bench_ptx_atm[];

#define ATM_THREADS 256

static const struct {
	int ntx, ctas, accounts;
} atm_sizes[WS_SIZE_COUNT] = {
    {1024, 1, 100},     /* 256 threads x 4 transactions */
    {8192, 4, 1000},    /* 1024 threads x 8 */
    {122880, 96, 1000}, /* the paper: 122K transactions by 24K threads on 1000 accounts (5 each) */
};

static ws_result atm_run(ws_sim *sim, ws_module *mod, enum ws_bench_size size, struct ws_bench_out *out)
{
	if ((unsigned)size >= WS_SIZE_COUNT)
		return bench_fail(NULL, out, WS_ERROR_INVALID_VALUE, "atm: size");
	ws_result rc = WS_SUCCESS;
	int ntx = atm_sizes[size].ntx, na = atm_sizes[size].accounts;
	unsigned grid = (unsigned)atm_sizes[size].ctas;
	/* device buffers: from, to, amount, balance, ops, locks */
	const size_t d_bytes[6] = {(size_t)ntx * 4, (size_t)ntx * 4, (size_t)ntx * 4,
	                           (size_t)na * 4,  (size_t)na * 4,  (size_t)na * 4};
	int32_t *from = malloc(d_bytes[0]), *to = malloc(d_bytes[1]), *amount = malloc(d_bytes[2]);
	int32_t *bal = malloc(d_bytes[3]), *want = malloc(d_bytes[3]), *locks = malloc(d_bytes[5]);
	uint32_t *ops = malloc(d_bytes[4]), *want_ops = calloc((size_t)na, 4);
	ws_deviceptr d[6];
	int nd = 0;
	ws_function *fn;

	if (!from || !to || !amount || !bal || !want || !locks || !ops || !want_ops) {
		rc = bench_fail(NULL, out, WS_ERROR_OUT_OF_MEMORY, "atm: host buffers");
		goto done;
	}
	struct bench_rng rng;
	bench_rng_seed(&rng, 12);
	for (int a = 0; a < na; a++)
		want[a] = bal[a] = 1000 + (int32_t)bench_rng_u32(&rng, 9000);
	for (int x = 0; x < ntx; x++) {
		from[x] = (int32_t)bench_rng_u32(&rng, (uint32_t)na);
		to[x] = (int32_t)bench_rng_u32(&rng, (uint32_t)na - 1);
		if (to[x] >= from[x])
			to[x]++; /* from != to */
		amount[x] = 1 + (int32_t)bench_rng_u32(&rng, 500);
		want[from[x]] -= amount[x];
		want[to[x]] += amount[x];
		want_ops[from[x]]++;
		want_ops[to[x]]++;
	}

	BENCH_CALL(wsModuleGetFunction(&fn, mod, "atm"));
	for (; nd < 6; nd++)
		BENCH_CALL(wsMemAlloc(sim, &d[nd], d_bytes[nd]));
	BENCH_CALL(wsMemcpyHtoD(sim, d[0], from, d_bytes[0]));
	BENCH_CALL(wsMemcpyHtoD(sim, d[1], to, d_bytes[1]));
	BENCH_CALL(wsMemcpyHtoD(sim, d[2], amount, d_bytes[2]));
	BENCH_CALL(wsMemcpyHtoD(sim, d[3], bal, d_bytes[3]));
	BENCH_CALL(wsMemsetD32(sim, d[4], 0, (size_t)na));
	BENCH_CALL(wsMemsetD32(sim, d[5], 0, (size_t)na));
	void *args[] = {&d[0], &d[1], &d[2], &ntx, &d[3], &d[4], &d[5]};
	BENCH_CALL(wsLaunchKernel(fn, grid, 1, 1, ATM_THREADS, 1, 1, 0, args));
	out->launches++;
	BENCH_CALL(wsMemcpyDtoH(sim, bal, d[3], d_bytes[3]));
	BENCH_CALL(wsMemcpyDtoH(sim, ops, d[4], d_bytes[4]));
	BENCH_CALL(wsMemcpyDtoH(sim, locks, d[5], d_bytes[5]));

	for (int a = 0; a < na; a++) {
		if (locks[a] != 0) {
			rc = bench_mismatch(out, "atm: locks[%d]: expected 0 (released), got %d", a, locks[a]);
			goto done;
		}
		if (ops[a] != want_ops[a]) {
			rc = bench_mismatch(out, "atm: account %d transfers: expected %u, got %u", a, want_ops[a],
			                    ops[a]);
			goto done;
		}
		if (bal[a] != want[a]) {
			rc = bench_mismatch(out, "atm: account %d balance: expected %d, got %d", a, want[a], bal[a]);
			goto done;
		}
	}
	snprintf(out->msg, sizeof out->msg, "atm: %d transfers by %u threads on %d accounts verified", ntx,
	         grid * ATM_THREADS, na);
done:
	while (nd > 0)
		wsMemFree(sim, d[--nd]);
	free(from);
	free(to);
	free(amount);
	free(bal);
	free(want);
	free(locks);
	free(ops);
	free(want_ops);
	return rc;
}

static const struct ws_sib_note atm_sibs[] = {
    {"atm", 110, "two-lock retry loop (while (!done))"},
    {NULL, 0, NULL},
};

const struct ws_bench_info bench_atm = {
    .name = "atm",
    .description = "bank transfers between two random accounts, each under both accounts' locks",
    .sync = "two nested spin locks taken in account order; the outer one is released in the same iteration when "
            "the inner one is busy",
    .paper = "BOWS (ATM)",
    .ctas_per_sm = 0,
    .warps_per_cta = ATM_THREADS / 32,
    .sizes = {"1024 transfers by 256 threads, 100 accounts (1 CTA)",
              "8192 transfers by 1024 threads, 1000 accounts (4 CTAs)",
              "122,880 transfers by 24,576 threads, 1000 accounts (96 CTAs)"},
    .ptx = ws_bench_ptx_atm,
    .sibs = atm_sibs,
    .run = atm_run,
};
