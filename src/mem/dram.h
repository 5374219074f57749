/*
 * dram.h -- one GDDR5 DRAM channel with its FR-FCFS memory controller.
 *
 * Models a channel as GPGPU-Sim's dram.cc does for the GTX480: `banks`
 * banks in `bank_groups` groups, each with an open-page row buffer; the
 * commands ACT, PRE, RD, WR (one per command-clock cycle) obey tRCD, tRAS,
 * tRP, tRC, tRRD, tCCD (tCCDL inside a bank group), tCL, tWL, write-to-read
 * tWTR = tWL + burst + tCDLR, read-to-write tRTW = tCL + burst + 2 - tWL,
 * write recovery tWR, read-to-precharge = burst cycles (same bank) and
 * tRTPL (any bank, or with rtpl_group the read's bank group, GPGPU-Sim's).
 * A column command moves one burst: bus_bytes x burst_length bytes (an
 * "atom", 64 B on the GTX480) over burst_length / data_rate command cycles;
 * a request moves one atom per atom-sized piece of the line its sectors
 * touch.
 * Scheduling is FR-FCFS on separate bounded read and write queues: among
 * the queue being served, the oldest request whose row is open and whose
 * column command may issue now goes first; otherwise the oldest request
 * that can make progress gets its ACT (bank closed) or PRE (another row
 * open and no queued request hits that row).  Writes are served in drains:
 * from write_high queued writes (or whenever no read waits) down to
 * write_low.  Read data is returned in completion order through a bounded
 * return queue; writes complete silently.  Refresh is not modelled.
 * Time is the DRAM command-clock cycle number passed in by the caller, so
 * an idle channel need not be ticked at all.
 */
#ifndef WARPSIM_MEM_DRAM_H
#define WARPSIM_MEM_DRAM_H

#include <stdbool.h>
#include <stdint.h>

struct ws_stats;

struct dram_params {
	unsigned banks, bank_groups;
	unsigned bank_interleave; /* bytes mapped to one bank before the next */
	unsigned row_bytes;       /* per bank */
	unsigned bus_bytes, burst_length, data_rate;
	bool sector_cmds;         /* one column command per 32-byte sector (GPGPU-Sim) */
	/* Bit-mask address map (dram_addr_map), 0 when unused: bank and column
	 * bits of the partition-local address; every other bit is a row bit. */
	uint64_t bank_mask, col_mask;
	unsigned tCCD, tCCDL, tRRD, tRCD, tRAS, tRP, tRC, tCL, tWL, tCDLR, tWR, tRTPL;
	bool rtpl_group;          /* tRTPL holds the PREs of the read's bank group (GPGPU-Sim's RTPLc per
	                           * bank group), else of every bank */
	unsigned read_queue, write_queue, write_high, write_low, return_queue;
};

/* A request: the partition-local address of a line and the 32-byte sectors
 * of it to move; `tag` is opaque (returned with read data). */
struct dram_req {
	uint64_t addr;
	uint64_t tag;
	uint32_t sectors;
	bool write;
};

struct dram *dram_create(const struct dram_params *p, struct ws_stats *stats); /* NULL on bad parameters */
void dram_destroy(struct dram *d);

bool dram_can_accept(const struct dram *d, bool write);
/* Queue a request; false if its queue is full. */
bool dram_push(struct dram *d, const struct dram_req *r);
/* Issue at most one command at DRAM cycle `now` (cycles must not decrease). */
void dram_cycle(struct dram *d, uint64_t now);
/* The oldest read whose data has fully arrived by cycle `now`, or NULL. */
const struct dram_req *dram_peek(const struct dram *d, uint64_t now);
/* Remove that read (no effect if there is none). */
void dram_pop(struct dram *d, uint64_t now);
/* Nothing queued, in flight or waiting to be returned. */
bool dram_idle(const struct dram *d);
/* Commands waiting to be scheduled (dram_cycle works every cycle)? */
bool dram_queued(const struct dram *d);
/* The DRAM cycle at which the oldest read's data is ready to return (UINT64_MAX: none). */
uint64_t dram_ret_at(const struct dram *d);

/* Address mapping (pure): partition-local address -> bank, row, column byte. */
void dram_map(const struct dram_params *p, uint64_t addr, unsigned *bank, uint64_t *row, unsigned *col);
/* Parse a GPGPU-Sim-style map of the partition-local address, most significant
 * bit first: R row, B bank, C or S column, '.' ignored; bits above the string
 * are row bits (e.g. "RRRRRRRRRRRRBBBCCCCBCCSSSSSS").  "interleave" leaves the masks 0
 * (interleaved map).  0 on success, -1 with a reason in err. */
int dram_parse_map(const char *s, struct dram_params *p, char *err, unsigned errsz);
/* Bytes per burst (column command). */
unsigned dram_atom_bytes(const struct dram_params *p);
/* Bursts needed to move `sectors` of a line. */
unsigned dram_bursts(const struct dram_params *p, uint32_t sectors);
/* Bursts of dram_bus_bytes x dram_burst_length bytes covering the sectors together
 * (what a write-back takes; reads too unless sector_cmds). */
unsigned dram_bursts_covering(const struct dram_params *p, uint32_t sectors);
/* Parameter check; writes a reason into err.  dram_create runs it too. */
bool dram_params_ok(const struct dram_params *p, char *err, unsigned errsz);

#endif
