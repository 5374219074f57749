/*
 * nw2/host.c -- host driver of the BOWS suite's NW2 (lock-based
 * Needleman-Wunsch, bottom-right to top-left: suffix scores); the driver is bench/nw_lock.h.
 */
#include "nw_lock.h"

extern const char ws_bench_ptx_nw2[];

static ws_result nw2_run(ws_sim *sim, ws_module *mod, enum ws_bench_size size, struct ws_bench_out *out)
{
	return nw_lock_run("nw2", true, sim, mod, size, out);
}

static const struct ws_sib_note nw2_sibs[] = {
    {"nw2", 296, "wait loop: lock the row below, read its progress, retry while it is behind"},
    {"nw2", 287, "lock retry loop publishing this row's progress"},
    {NULL, 0, NULL},
};

const struct ws_bench_info bench_nw2 = {
    .name = "nw2",
    .description = "Needleman-Wunsch suffix scores, one thread per row, bottom-right to top-left in column blocks",
    .sync = "per-row progress counters under per-row spin locks: a row waits (lock, read, release, retry) until the "
            "row below has finished the block, then publishes its own progress under its lock",
    .paper = "BOWS (NW2)",
    .ctas_per_sm = 0,
    .warps_per_cta = NW_THREADS / 32,
    .sizes = NW_SIZE_WORDS,
    .ptx = ws_bench_ptx_nw2,
    .sibs = nw2_sibs,
    .run = nw2_run,
};
