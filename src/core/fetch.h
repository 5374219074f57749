/*
 * fetch.h -- the front end of an SM: fetch through the L1 I-cache into the
 * per-warp I-buffers (decode latency included), under a fetch policy.
 */
#ifndef WARPSIM_CORE_FETCH_H
#define WARPSIM_CORE_FETCH_H

#include <stdint.h>

struct sm;

/* One cycle of fetch: at most one warp's I-buffer is filled. */
void sm_fetch_tick(struct sm *s, uint64_t now);

#endif
