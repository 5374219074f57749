/*
 * energy.c -- the event-energy estimate (see energy.h).  Models no hardware.
 */
#include "stats/energy.h"

#include "config/config.h"
#include "core/core_counters.h"
#include "mem/mem_counters.h"
#include "mem/mem_params.h"
#include "stats/counters.h"
#include "stats/energy_params.h"
#include "stats/stats.h"

void energy_estimate(const uint64_t *v, const struct ws_config *cfg, struct energy_estimate *e)
{
	/* picojoules per event (energy_params.def) in joules */
#define EPJ(p) (cfg_float(cfg, CFG_##p) * 1e-12)
	e->core_j = EPJ(energy_warp_inst_pj) * (double)v[STAT_warp_insts] +
		    EPJ(energy_int_pj) * (double)v[STAT_lanes_int] + EPJ(energy_sp_pj) * (double)v[STAT_lanes_sp] +
		    EPJ(energy_dp_pj) * (double)v[STAT_lanes_dp] + EPJ(energy_sfu_pj) * (double)v[STAT_lanes_sfu] +
		    EPJ(energy_other_pj) * (double)v[STAT_lanes_other] +
		    EPJ(energy_tensor_pj) * (double)v[STAT_lanes_tensor];
	e->rf_j = EPJ(energy_rf_pj) * (double)(v[STAT_rf_reads] + v[STAT_rf_writes]);
	e->shmem_j = EPJ(energy_shmem_pj) * (double)(v[STAT_shared_loads] + v[STAT_shared_stores]);
	e->l1_j = EPJ(energy_l1_pj) * (double)(v[STAT_l1d_accesses] + v[STAT_l1i_accesses]);
	e->l2_j = EPJ(energy_l2_pj) * (double)v[STAT_l2_accesses] +
		  EPJ(energy_icnt_flit_pj) * (double)(v[STAT_icnt_req_flits] + v[STAT_icnt_reply_flits]);
	e->dram_j = EPJ(energy_dram_bit_pj) * 8.0 * (double)v[STAT_dram_bytes] +
		    EPJ(energy_dram_act_pj) * (double)v[STAT_dram_activates];
#undef EPJ
	double seconds = (double)v[STAT_cycles] / (cfg_float(cfg, CFG_clock_core) * 1e6);
	e->static_j = cfg_float(cfg, CFG_energy_static_w) * seconds;
	e->dynamic_j = e->core_j + e->rf_j + e->shmem_j + e->l1_j + e->l2_j + e->dram_j;
	e->total_j = e->dynamic_j + e->static_j;
}
