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
/* Drop the head of a warp's I-buffer (it issued). */
void sm_ibuf_pop(struct sm *s, uint32_t slot);
/* Empty a warp's I-buffer (control flow left the fetched path). */
void sm_ibuf_flush(struct sm *s, uint32_t slot);

#endif
