/*
 * unit.h -- the execution-unit classes of the SM, one enum for the whole
 * simulator.
 *
 * Models the kinds of functional unit an instruction can be issued to.  The
 * opcode table (opcodes.def) gives each opcode its class, the front end
 * refines it by type (ptx_analyse: f64 -> DP, integer -> INT, ...), the
 * decode stage maps it onto the units a configuration has (no INT units:
 * INT work runs on SP; likewise SFU, DP and TENSOR), and the operand
 * collectors, the execution units and the schedulers' view (sched.h
 * head_unit, coll_free) are indexed by it.  Control and barrier
 * instructions are SP-class with latency class LAT_CTRL.
 *
 * The order is the operand collectors' layout: [sched][unit][collector].
 */
#ifndef WARPSIM_PTX_UNIT_H
#define WARPSIM_PTX_UNIT_H

enum ws_unit { UNIT_SP, UNIT_SFU, UNIT_DP, UNIT_INT, UNIT_LDST, UNIT_TENSOR, UNIT_COUNT };

#endif
