/*
 * decode.h -- the decode stage's view of an instruction.
 *
 * Models the SM's instruction decoder: for each PTX instruction of a
 * loaded kernel, the registers it reads and writes (for the scoreboard and
 * the operand collectors), the execution unit it goes to, its latency and
 * initiation interval from the configuration, and its address in the
 * instruction memory (8 bytes per instruction; functions start on 128-byte
 * boundaries) for the instruction cache.
 */
#ifndef WARPSIM_CORE_DECODE_H
#define WARPSIM_CORE_DECODE_H

#include <stdbool.h>
#include <stdint.h>

#include "ptx/ir.h"

struct ws_config;

#define DEC_MAX_SRC 32 /* wmma.mma f32: 8 + 8 + 8 fragment registers, guard */
#define DEC_MAX_DST 9 /* ld .v8 writes 8 registers; wmma fragments 8 */
#define CODE_INSN_BYTES 8

struct dec_insn {
	const struct ptx_insn *in;
	uint64_t addr;          /* instruction address */
	int16_t src[DEC_MAX_SRC];
	int16_t dst[DEC_MAX_DST];
	uint8_t nsrc, ndst;
	uint8_t cu;             /* enum ws_unit (ptx/unit.h): the unit it issues to under this config */
	uint8_t is_ctrl;        /* branch/call/ret/exit/trap: flushes the I-buffer */
	uint8_t is_barrier;
	uint8_t is_mem;         /* ld/st/atom/red handled by the LD/ST unit's memory path */
	uint16_t lat, ii;       /* execution latency and initiation interval (non-memory) */
};

struct dec_func {
	struct dec_insn *insns;
	uint32_t n;
	uint64_t base;          /* address of instruction 0 */
};

struct dec_module {
	struct dec_func *f;
	uint32_t nf;
	uint64_t code_size;
};

/* Build the decode tables of a module under a configuration (NULL on OOM). */
struct dec_module *dec_module_create(const struct ptx_module *m, const struct ws_config *cfg);
void dec_module_destroy(struct dec_module *d);

#endif
