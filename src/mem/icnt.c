/*
 * icnt.c -- input-queued crossbar, one direction (see icnt.h).
 *
 * Inputs are rings of (packet, destination, flits); outputs are rings of
 * (packet, arrival cycle).  Grants happen in cycle order and an output
 * serializes its packets, so arrivals at an output are monotonic and its
 * ring is a FIFO.  A packet granted at cycle t with serialization s is
 * poppable once the interconnect has completed cycle t + s - 1 + latency.
 *
 * Arbitration: each cycle every output that can take a packet grants, among
 * the free inputs whose head packet is for it, the first one at or after its
 * round-robin pointer, and moves the pointer just past that input.  So an
 * input waiting for an output is granted within `inputs` grants of that
 * output.  (A single pointer that advanced one input per cycle whatever was
 * granted starved inputs whenever an output freed a slot with a period that
 * shares a factor with the number of inputs.)
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "mem/icnt.h"

struct in_ent {
	struct mem_pkt pkt;
	uint32_t out, flits;
};
struct out_ent {
	struct mem_pkt pkt;
	uint64_t arrival;
};
MEM_RING(in_ring, struct in_ent)
MEM_RING(out_ring, struct out_ent)

/* Ports are cache-line aligned: SMs ticked on different threads push to
 * their own request inputs and pop their own reply outputs. */
struct icnt_in {
	_Alignas(64) struct in_ring q;
	uint32_t flits;      /* flits queued */
	uint64_t busy_until; /* first cycle it may start the next packet */
};
struct icnt_out {
	_Alignas(64) struct out_ring q;
	uint64_t busy_until;
	uint32_t rr;        /* input with the highest priority at the next grant */
	uint32_t cand;      /* this cycle's chosen input (valid when cand_dist < inputs) */
	uint32_t cand_dist; /* its distance from rr */
};

struct icnt {
	struct icnt_params p;
	struct icnt_in *in;
	struct icnt_out *out;
	uint64_t now;       /* cycles completed */
	/* packets waiting in input buffers / in output rings: relaxed atomics,
	 * because SMs ticked on several threads push requests and pop replies
	 * (each on its own port) while the counts are shared */
	_Atomic uint32_t queued;
	_Atomic uint32_t delivered;
	uint32_t *touched;  /* outputs with a candidate this cycle [outputs] */
	/* [outputs] the arrival cycle of each output ring's front packet
	 * (UINT64_MAX: empty), in one array: the GPU loop asks every cycle
	 * whether a reply has arrived for each sleeping SM (icnt_peek), and
	 * this answers it without touching the outputs' cache lines */
	uint64_t *front_at;
};

struct icnt *icnt_create(const struct icnt_params *p)
{
	if (!p || !p->inputs || !p->outputs || !p->latency || !p->flit_bytes || !p->flits_per_cycle ||
	    !p->in_buf_flits || !p->out_buf_packets || p->inputs > (1u << 20) || p->outputs > (1u << 20) ||
	    p->latency > 1000000 || p->out_buf_packets > 1000000)
		return NULL;
	struct icnt *n = calloc(1, sizeof *n);
	if (!n)
		return NULL;
	n->p = *p;
	n->in = aligned_alloc(64, p->inputs * sizeof *n->in);
	n->out = aligned_alloc(64, p->outputs * sizeof *n->out);
	if (n->in)
		memset(n->in, 0, p->inputs * sizeof *n->in);
	if (n->out)
		memset(n->out, 0, p->outputs * sizeof *n->out);
	n->touched = calloc(p->outputs, sizeof *n->touched);
	n->front_at = malloc(p->outputs * sizeof *n->front_at);
	if (!n->in || !n->out || !n->touched || !n->front_at) {
		icnt_destroy(n);
		return NULL;
	}
	/* An input holds at most in_buf_flits packets (one flit each, at least),
	 * and never more than 65536. */
	uint32_t in_cap = p->in_buf_flits < 65536 ? p->in_buf_flits : 65536;
	for (unsigned i = 0; i < p->inputs; i++)
		if (!in_ring_init(&n->in[i].q, in_cap)) {
			icnt_destroy(n);
			return NULL;
		}
	/* Credits: the ejection buffer plus the packets the pipeline can hold. */
	for (unsigned o = 0; o < p->outputs; o++) {
		n->front_at[o] = UINT64_MAX;
		n->out[o].cand_dist = UINT32_MAX;
		if (!out_ring_init(&n->out[o].q, p->out_buf_packets + p->latency + 1)) {
			icnt_destroy(n);
			return NULL;
		}
	}
	return n;
}

void icnt_destroy(struct icnt *n)
{
	if (!n)
		return;
	for (unsigned i = 0; n->in && i < n->p.inputs; i++)
		in_ring_free(&n->in[i].q);
	for (unsigned o = 0; n->out && o < n->p.outputs; o++)
		out_ring_free(&n->out[o].q);
	free(n->in);
	free(n->out);
	free(n->touched);
	free(n->front_at);
	free(n);
}

unsigned icnt_flits(const struct icnt *n, unsigned bytes)
{
	unsigned f = (bytes + n->p.flit_bytes - 1) / n->p.flit_bytes;
	return f ? f : 1;
}

bool icnt_can_push(const struct icnt *n, unsigned in, unsigned flits)
{
	if (in >= n->p.inputs)
		return false;
	const struct icnt_in *I = &n->in[in];
	if (in_ring_full(&I->q))
		return false;
	return I->flits == 0 || I->flits + flits <= n->p.in_buf_flits;
}

void icnt_in_occupancy(const struct icnt *n, unsigned in, unsigned *pkts, unsigned *flits, unsigned *max_pkts,
		       unsigned *max_flits)
{
	const struct icnt_in *I = in < n->p.inputs ? &n->in[in] : NULL;
	*pkts = I ? I->q.n : 0;
	*flits = I ? I->flits : 0;
	*max_pkts = I ? I->q.cap : 0;
	*max_flits = n->p.in_buf_flits;
}

bool icnt_push(struct icnt *n, unsigned in, unsigned out, unsigned flits, const struct mem_pkt *pkt)
{
	if (out >= n->p.outputs || !icnt_can_push(n, in, flits))
		return false;
	struct icnt_in *I = &n->in[in];
	struct in_ent *e = in_ring_push(&I->q);
	e->pkt = *pkt;
	e->out = out;
	e->flits = flits ? flits : 1;
	I->flits += e->flits;
	atomic_fetch_add_explicit(&n->queued, 1, memory_order_relaxed);
	return true;
}

void icnt_cycle(struct icnt *n)
{
	uint64_t t = ++n->now;
	if (!atomic_load_explicit(&n->queued, memory_order_relaxed))
		return;
	unsigned ni = n->p.inputs, nt = 0;
	/* each output picks the requesting input closest to its pointer */
	for (unsigned i = 0; i < ni; i++) {
		struct icnt_in *I = &n->in[i];
		if (in_ring_empty(&I->q) || I->busy_until > t)
			continue;
		uint32_t o = in_ring_front(&I->q)->out;
		struct icnt_out *O = &n->out[o];
		if (O->busy_until > t || out_ring_full(&O->q))
			continue;
		uint32_t dist = i >= O->rr ? i - O->rr : i + ni - O->rr;
		if (O->cand_dist >= ni) { /* first candidate this cycle */
			n->touched[nt++] = o;
			O->cand_dist = dist;
			O->cand = i;
		} else if (dist < O->cand_dist) {
			O->cand_dist = dist;
			O->cand = i;
		}
	}
	for (unsigned k = 0; k < nt; k++) {
		struct icnt_out *O = &n->out[n->touched[k]];
		struct icnt_in *I = &n->in[O->cand];
		struct in_ent *e = in_ring_front(&I->q);
		uint64_t ser = (e->flits + n->p.flits_per_cycle - 1) / n->p.flits_per_cycle;
		I->busy_until = O->busy_until = t + ser;
		struct out_ent *d = out_ring_push(&O->q);
		d->pkt = e->pkt;
		d->arrival = t + ser - 1 + n->p.latency;
		if (n->front_at[n->touched[k]] == UINT64_MAX) /* it is the front */
			n->front_at[n->touched[k]] = d->arrival;
		I->flits -= e->flits;
		in_ring_pop(&I->q);
		atomic_fetch_sub_explicit(&n->queued, 1, memory_order_relaxed);
		atomic_fetch_add_explicit(&n->delivered, 1, memory_order_relaxed);
		O->rr = O->cand + 1 == ni ? 0 : O->cand + 1;
		O->cand_dist = UINT32_MAX;
	}
}

const struct mem_pkt *icnt_peek(const struct icnt *n, unsigned out)
{
	if (out >= n->p.outputs || n->front_at[out] > n->now)
		return NULL;
	return &out_ring_front(&n->out[out].q)->pkt;
}

void icnt_pop(struct icnt *n, unsigned out)
{
	if (!icnt_peek(n, out))
		return;
	struct out_ring *q = &n->out[out].q;
	out_ring_pop(q);
	n->front_at[out] = out_ring_empty(q) ? UINT64_MAX : out_ring_front(q)->arrival;
	atomic_fetch_sub_explicit(&n->delivered, 1, memory_order_relaxed);
}

bool icnt_any_delivered(const struct icnt *n) { return atomic_load_explicit(&n->delivered, memory_order_relaxed) != 0; }

bool icnt_idle(const struct icnt *n)
{
	return !atomic_load_explicit(&n->queued, memory_order_relaxed) &&
	       !atomic_load_explicit(&n->delivered, memory_order_relaxed);
}

bool icnt_out_pending(const struct icnt *n, unsigned out)
{
	if (out >= n->p.outputs)
		return false;
	if (!out_ring_empty(&n->out[out].q))
		return true;
	if (!atomic_load_explicit(&n->queued, memory_order_relaxed))
		return false;
	/* not granted yet: still in an input buffer (the caller must wait for
	 * these too; callers are rare -- the GPU asks only for an idle SM) */
	for (unsigned i = 0; i < n->p.inputs; i++) {
		const struct in_ring *q = &n->in[i].q;
		for (uint32_t k = 0; k < q->n; k++)
			if (in_ring_at(q, k)->out == out)
				return true;
	}
	return false;
}

uint64_t icnt_now(const struct icnt *n) { return n->now; }

bool icnt_any_queued(const struct icnt *n) { return atomic_load_explicit(&n->queued, memory_order_relaxed) != 0; }

uint64_t icnt_next_arrival(const struct icnt *n)
{
	uint64_t t = UINT64_MAX;
	if (!atomic_load_explicit(&n->delivered, memory_order_relaxed))
		return t;
	for (unsigned o = 0; o < n->p.outputs; o++)
		if (n->front_at[o] < t)
			t = n->front_at[o];
	return t;
}

void icnt_advance(struct icnt *n, uint64_t cycles) { n->now += cycles; }
