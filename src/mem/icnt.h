/*
 * icnt.h -- one direction of the SM <-> memory-partition crossbar.
 *
 * Models an input-queued crossbar (GPGPU-Sim's Fermi interconnect is a
 * single-stage "fly" crossbar): `inputs` injection ports, `outputs`
 * ejection ports.  A packet is split into flits of flit_bytes; a port moves
 * flits_per_cycle flits per interconnect cycle, so a packet of F flits holds
 * its input and its output for ceil(F / flits_per_cycle) cycles and is
 * available at the output `latency` cycles after its last flit left.
 * Input buffers are bounded in flits (push refuses when full); output
 * buffers are bounded in packets, with credits reserved at switch
 * allocation (a packet in the pipeline counts against its output).
 * Switch allocation: each cycle the inputs are visited in a rotating order
 * (the start moves by one every cycle) and each head packet whose input and
 * output are free and whose output has a credit is granted.  Only head
 * packets compete (head-of-line blocking, as a single-VC crossbar).
 * The memory system uses two instances: requests (SMs -> L2 slices) and
 * replies (L2 slices -> SMs).  Idle cycles cost O(1).
 */
#ifndef WARPSIM_MEM_ICNT_H
#define WARPSIM_MEM_ICNT_H

#include <stdbool.h>
#include <stdint.h>

#include "mem/mem.h"

struct icnt_params {
	unsigned inputs, outputs;
	unsigned latency;         /* cycles, >= 1 */
	unsigned flit_bytes;
	unsigned flits_per_cycle;
	unsigned in_buf_flits;    /* per input */
	unsigned out_buf_packets; /* per output, beyond the pipeline */
};

struct icnt *icnt_create(const struct icnt_params *p); /* NULL on bad parameters / no memory */
void icnt_destroy(struct icnt *n);

/* Flits of a packet carrying `bytes` bytes (header included). */
unsigned icnt_flits(const struct icnt *n, unsigned bytes);
/* Room in input `in` for a packet of `flits` flits?  (A packet larger than
 * the whole buffer is accepted into an empty buffer.) */
bool icnt_can_push(const struct icnt *n, unsigned in, unsigned flits);
/* Input `in`'s occupancy: packets and flits queued, and its capacity in each. */
void icnt_in_occupancy(const struct icnt *n, unsigned in, unsigned *pkts, unsigned *flits, unsigned *max_pkts,
		       unsigned *max_flits);
/* Queue a packet at input `in` for output `out`; false (nothing queued) if full. */
bool icnt_push(struct icnt *n, unsigned in, unsigned out, unsigned flits, const struct mem_pkt *pkt);
/* One interconnect cycle: switch allocation and traversal. */
void icnt_cycle(struct icnt *n);
/* The packet at the head of output `out` if it has arrived, else NULL. */
const struct mem_pkt *icnt_peek(const struct icnt *n, unsigned out);
void icnt_pop(struct icnt *n, unsigned out);
/* Packets sitting in (or on their way to) the outputs?  O(1). */
bool icnt_any_delivered(const struct icnt *n);
/* Nothing queued or in flight anywhere. */
bool icnt_idle(const struct icnt *n);
/* Packets for output `out` not yet popped: waiting in an input buffer, or
 * granted to it (arrived or still in the pipeline). */
bool icnt_out_pending(const struct icnt *n, unsigned out);
/* Interconnect cycles elapsed. */
uint64_t icnt_now(const struct icnt *n);
/* For skipping eventless cycles: is a packet waiting in an input buffer
 * (arbitrated every cycle)?  The earliest arrival cycle of a packet in an
 * output ring (UINT64_MAX: none).  Advance the clock by `cycles` cycles in
 * which nothing is queued (what icnt_cycle would do). */
bool icnt_any_queued(const struct icnt *n);
uint64_t icnt_next_arrival(const struct icnt *n);
void icnt_advance(struct icnt *n, uint64_t cycles);

#endif
