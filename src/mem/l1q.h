/*
 * l1q.h -- the L1D latency queue of an SM, as GPGPU-Sim models it
 * (ldst_unit::l1_latency_queue, -gpgpu_l1_latency and -gpgpu_l1_banks).
 *
 * With l1d_latency_queue, every access of the L1D -- a cached load, a store
 * written through it -- enters the queue of its bank when the LD/ST unit
 * sends it and reaches the cache's tags only l1d_latency cycles later: a
 * hit returns its data then, a miss takes its MSHR and leaves for the L2
 * then (without the queue a miss leaves at once and only hits wait out
 * l1d_latency).  GPGPU-Sim's queue is a shift register of l1d_latency
 * stages per bank:
 *   - an access enters the last stage, which takes one access per bank per
 *     cycle (a second one for the same bank in that cycle is a bank
 *     conflict: the LD/ST unit retries it), and moves one stage a cycle;
 *   - the head stage accesses the cache; a reservation fail leaves it
 *     there, and the accesses behind it close up and wait (the queue is
 *     full, taking nothing, when every stage holds one);
 *   - the bank of an access is its 32-byte sector number modulo the banks
 *     (GPGPU-Sim's linear l1_banks hash, 32-byte interleaving).
 * Equivalently, as kept here: a FIFO per bank whose head is served no
 * earlier than l1d_latency cycles after it entered, at most one a cycle,
 * that takes at most one access a cycle and holds at most l1d_latency.
 * The queue only orders and times the accesses; the LD/ST unit (ldst.c)
 * does the cache access when ldst_cycle finds a head due.
 */
#ifndef WARPSIM_MEM_L1Q_H
#define WARPSIM_MEM_L1Q_H

#include <stdbool.h>
#include <stdint.h>

#include "mem/mem.h"

/* One access waiting in the queue. */
struct l1q_entry {
	uint64_t line;           /* line address */
	uint64_t token;          /* a store: its acknowledgement token */
	uint64_t enter;          /* cycle it entered */
	uint32_t sectors;        /* sectors of the line it touches */
	uint32_t entry;          /* the LD/ST unit's load-table entry of its instruction */
	uint32_t bytes;          /* a store: bytes written */
	enum mem_kind kind;      /* MEM_READ or MEM_WRITE */
	bool critical;           /* CACP: the warp was critical when the load started */
};

struct l1q;

struct l1q *l1q_create(unsigned banks, unsigned latency);
void l1q_destroy(struct l1q *q);
/* Enter access e in its bank's queue at cycle now: false (nothing changed)
 * when that bank already took one this cycle or is full. */
bool l1q_push(struct l1q *q, const struct l1q_entry *e, uint64_t now);
/* The head of bank b when it is due at cycle now, else NULL. */
const struct l1q_entry *l1q_head(const struct l1q *q, unsigned b, uint64_t now);
void l1q_pop(struct l1q *q, unsigned b);
unsigned l1q_banks(const struct l1q *q);
/* Whether the bank access e goes to holds l1d_latency accesses: a push
 * there fails until its head is served (l1q_pop), whatever the cycle. */
bool l1q_bank_full(const struct l1q *q, const struct l1q_entry *e);
/* The cycle bank b's head is due (UINT64_MAX when the bank is empty). */
uint64_t l1q_head_due(const struct l1q *q, unsigned b);
/* The first cycle a head is due (UINT64_MAX when every bank is empty). */
uint64_t l1q_next_due(const struct l1q *q);
bool l1q_empty(const struct l1q *q);

#endif
