/*
 * nw1/host.c -- host driver of the BOWS suite's NW1 (lock-based
 * Needleman-Wunsch, top-left to bottom-right); the driver is bench/nw_lock.h.
 */
#include "nw_lock.h"

extern const char ws_bench_ptx_nw1[];

static ws_result nw1_run(ws_sim *sim, ws_module *mod, enum ws_bench_size size, struct ws_bench_out *out)
{
	return nw_lock_run("nw1", false, sim, mod, size, out);
}

static const struct ws_sib_note nw1_sibs[] = {
    {"nw1", 284, "wait loop: lock the row above, read its progress, retry while it is behind"},
    {"nw1", 275, "lock retry loop publishing this row's progress"},
    {NULL, 0, NULL},
};

const struct ws_bench_info bench_nw1 = {
    .name = "nw1",
    .description = "Needleman-Wunsch score matrix, one thread per row, top-left to bottom-right in column blocks",
    .sync = "per-row progress counters under per-row spin locks: a row waits (lock, read, release, retry) until the "
            "row above has finished the block, then publishes its own progress under its lock",
    .paper = "BOWS (NW1)",
    .ctas_per_sm = 0,
    .warps_per_cta = NW_THREADS / 32,
    .sizes = NW_SIZE_WORDS,
    .ptx = ws_bench_ptx_nw1,
    .sibs = nw1_sibs,
    .run = nw1_run,
};
