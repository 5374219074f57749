/*
 * l1q.c -- the L1D latency queue of an SM (see l1q.h for the model).
 */
#include <stdlib.h>

#include "mem/l1q.h"

struct l1q_bank {
	struct l1q_entry *ring;  /* [latency] */
	unsigned head, n;
	uint64_t last_push;      /* cycle of the last push + 1 (0: none yet) */
};

struct l1q {
	struct l1q_bank *bank;
	unsigned nbanks, latency, used;
};

struct l1q *l1q_create(unsigned banks, unsigned latency)
{
	struct l1q *q = calloc(1, sizeof *q);
	if (!q)
		return NULL;
	q->nbanks = banks ? banks : 1;
	q->latency = latency ? latency : 1;
	q->bank = calloc(q->nbanks, sizeof *q->bank);
	if (!q->bank) {
		l1q_destroy(q);
		return NULL;
	}
	for (unsigned b = 0; b < q->nbanks; b++)
		if (!(q->bank[b].ring = calloc(q->latency, sizeof *q->bank[b].ring))) {
			l1q_destroy(q);
			return NULL;
		}
	return q;
}

void l1q_destroy(struct l1q *q)
{
	if (!q)
		return;
	for (unsigned b = 0; q->bank && b < q->nbanks; b++)
		free(q->bank[b].ring);
	free(q->bank);
	free(q);
}

static unsigned bank_of(const struct l1q *q, const struct l1q_entry *e)
{
	unsigned sector = e->sectors ? (unsigned)__builtin_ctz(e->sectors) : 0;
	return (unsigned)(((e->line / MEM_SECTOR_BYTES) + sector) % q->nbanks);
}

bool l1q_push(struct l1q *q, const struct l1q_entry *e, uint64_t now)
{
	struct l1q_bank *k = &q->bank[bank_of(q, e)];
	if (k->last_push == now + 1 || k->n == q->latency)
		return false;
	k->ring[(k->head + k->n) % q->latency] = *e;
	k->ring[(k->head + k->n) % q->latency].enter = now;
	k->n++;
	k->last_push = now + 1;
	q->used++;
	return true;
}

const struct l1q_entry *l1q_head(const struct l1q *q, unsigned b, uint64_t now)
{
	const struct l1q_bank *k = &q->bank[b];
	if (!k->n || now < k->ring[k->head].enter + q->latency)
		return NULL;
	return &k->ring[k->head];
}

void l1q_pop(struct l1q *q, unsigned b)
{
	struct l1q_bank *k = &q->bank[b];
	if (!k->n)
		return;
	k->head = (k->head + 1) % q->latency;
	k->n--;
	q->used--;
}

unsigned l1q_banks(const struct l1q *q) { return q->nbanks; }

bool l1q_bank_full(const struct l1q *q, const struct l1q_entry *e) { return q->bank[bank_of(q, e)].n == q->latency; }

uint64_t l1q_head_due(const struct l1q *q, unsigned b)
{
	const struct l1q_bank *k = &q->bank[b];
	return k->n ? k->ring[k->head].enter + q->latency : UINT64_MAX;
}

uint64_t l1q_next_due(const struct l1q *q)
{
	uint64_t t = UINT64_MAX;
	for (unsigned b = 0; q->used && b < q->nbanks; b++) {
		const struct l1q_bank *k = &q->bank[b];
		if (k->n && k->ring[k->head].enter + q->latency < t)
			t = k->ring[k->head].enter + q->latency;
	}
	return t;
}

bool l1q_empty(const struct l1q *q) { return q->used == 0; }
