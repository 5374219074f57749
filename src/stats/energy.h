/*
 * energy.h -- the event-energy estimate: counted events times per-event
 * energies (the coefficients of energy_params.def), plus static power times
 * the run time.
 *
 * Models no hardware; it reads the activity counters the pipeline and the
 * memory system keep (core_counters.def "activity for the energy estimate",
 * mem_counters.def) after a run.  docs/bows.md "Energy" gives the sources of
 * the coefficients and what is not modelled.  The estimate is reported as
 * the energy_* derived metrics (derived.def).
 */
#ifndef WARPSIM_STATS_ENERGY_H
#define WARPSIM_STATS_ENERGY_H

#include <stdint.h>

struct ws_config;

/* Joules, by component. */
struct energy_estimate {
	double core_j;    /* pipeline per warp instruction and datapath per thread operation */
	double rf_j;      /* register-file reads and writes */
	double shmem_j;   /* shared-memory accesses */
	double l1_j;      /* L1D and L1I accesses */
	double l2_j;      /* L2 accesses and interconnect flits */
	double dram_j;    /* DRAM data transfer and activates */
	double dynamic_j; /* the six above */
	double static_j;  /* static power x run time (cycles / clock_core) */
	double total_j;   /* dynamic + static */
};

/* The estimate for the counters `v` (indexed by counter id, STAT_<name>) of a run under `cfg`. */
void energy_estimate(const uint64_t *v, const struct ws_config *cfg, struct energy_estimate *e);

#endif
