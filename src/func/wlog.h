/*
 * wlog.h -- an SM's global-memory write buffer for one core cycle.
 *
 * Models the point at which an SM's global stores and atomics take effect:
 * at the end of the core cycle in which they issue, after every SM has
 * ticked, in SM order and, within an SM, in issue order.  Until then loads
 * of every SM (its own included) see memory as it was at the start of the
 * cycle.  This fixed commit order is what makes the cycle-level model
 * bit-identical whether the SMs of a cycle are ticked by one thread or by
 * several (gpu.c, --threads): an SM's tick reads shared memory state and
 * writes only its own buffer.
 *
 * Stores are buffered as (host pointer, value, size): address checks were
 * done at issue.  Atomics (and reductions) are buffered whole, with their
 * operands captured at issue, and executed at commit: the old values are
 * then written to the destination registers (the scoreboard keeps any
 * reader of those registers waiting far longer than one cycle).
 */
#ifndef WARPSIM_FUNC_WLOG_H
#define WARPSIM_FUNC_WLOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "func/exec.h"
#include "ptx/ir.h"

struct func_warp;

/* One buffered atomic or reduction instruction of a warp. */
struct wlog_atom {
	const struct ptx_insn *in;
	struct func_warp *w;        /* destination registers: w->regs + dst_off + lane */
	size_t dst_off;             /* SIZE_MAX: no destination (red, or atom into a sink) */
	uint8_t tsz;                /* bytes per lane */
	uint8_t dst_type;           /* register type for sign extension (enum ptx_type) */
	uint64_t exec;              /* lanes, executed in ascending order */
	uint8_t *p[WS_MAX_WARP];    /* host pointer per lane */
	uint64_t addr[WS_MAX_WARP]; /* effective address per lane (lock measurement) */
	uint64_t b[WS_MAX_WARP], c[WS_MAX_WARP]; /* operands captured at issue */
	uint64_t old[WS_MAX_WARP];  /* filled at commit */
	/* lock measurement (core/lockstat.h): set by the timing model after issue */
	bool lock;
	uint64_t lock_warp;
};

struct wlog_store {
	uint8_t *p;
	uint64_t v;
	uint8_t n;
};

struct wlog {
	struct wlog_store *st;
	size_t nst, capst;
	struct wlog_atom *at;
	size_t nat, capat;
	/* issue order: bit 0 = kind (1 atomic), rest = index */
	size_t *seq;
	size_t nseq, capseq;
};

struct wlog *wlog_create(void);
void wlog_destroy(struct wlog *g);
static inline bool wlog_empty(const struct wlog *g) { return g->nseq == 0; }
/* Buffer an n-byte store (n <= 8) of v at p.  False on OOM. */
bool wlog_store(struct wlog *g, uint8_t *p, uint64_t v, unsigned n);
/* A new atomic record (zeroed lanes, no destination), or NULL on OOM. */
struct wlog_atom *wlog_atom_new(struct wlog *g);
/* The last atomic record (NULL if none): the timing model marks lock acquires. */
struct wlog_atom *wlog_last_atom(struct wlog *g);
/* Apply everything in issue order and empty the log.  on_atom (may be NULL)
 * sees each atomic after it executed (old values filled).  Returns the
 * number of stored words whose value changed (livelock watchdog progress). */
uint64_t wlog_commit(struct wlog *g, void (*on_atom)(void *ctx, const struct wlog_atom *a), void *ctx);

#endif
