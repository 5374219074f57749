/*
 * sem_check.h -- the hand-made register frame and instruction builders of
 * the ALU semantic tests (test_sem.c, test_sem_cvt.c).
 */
#ifndef WARPSIM_TESTS_SEM_CHECK_H
#define WARPSIM_TESTS_SEM_CHECK_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "func/exec.h"
#include "func/op.h"
#include "test.h"

#define SW 32 /* warp size of the test frame */
#define SNR 16

struct sem {
	uint64_t regs[SNR * SW];
	uint8_t carry[SW];
	struct func_exec x;
};

static inline void sem_init(struct sem *s)
{
	memset(s, 0, sizeof *s);
	s->x.regs = s->regs;
	s->x.ws = SW;
	s->x.carry = s->carry;
}

static inline uint64_t *reg(struct sem *s, int r)
{
	return &s->regs[r * SW];
}

static inline void opd_reg(struct ptx_insn *in, int i, int r)
{
	in->opd[i].kind = OPD_REG;
	in->opd[i].reg = r;
	in->opd[i].reg2 = -1;
	if (in->nopd < i + 1)
		in->nopd = (uint8_t)(i + 1);
}

static inline void opd_imm(struct ptx_insn *in, int i, uint64_t v)
{
	in->opd[i].kind = OPD_IMM;
	in->opd[i].imm = v;
	in->opd[i].reg2 = -1;
	if (in->nopd < i + 1)
		in->nopd = (uint8_t)(i + 1);
}

/* op.type d=r0, sources r1..r<nsrc> */
static inline struct ptx_insn mk(unsigned op, unsigned type, int nsrc)
{
	struct ptx_insn in;
	memset(&in, 0, sizeof in);
	in.op = (uint16_t)op;
	in.type = (uint8_t)type;
	in.guard = -1;
	for (int i = 0; i < PTX_MAX_OPDS; i++)
		in.opd[i].reg2 = -1;
	for (int i = 0; i <= nsrc; i++)
		opd_reg(&in, i, i);
	return in;
}

static inline bool checked_(struct test_ctx *t, const struct ptx_insn *in, const char *file, int line)
{
	char why[256] = "";
	if (!func_alu_check(in, why, sizeof why)) {
		test_fail(t, file, line, "func_alu_check rejected: %s", why);
		return false;
	}
	return true;
}

/* Run on lane 0 with r1..r4 = a, b, c, e; return r0. */
static inline uint64_t run1_(struct test_ctx *t, const struct ptx_insn *in, uint64_t a, uint64_t b, uint64_t c,
                             uint64_t e, const char *file, int line)
{
	struct sem s;
	sem_init(&s);
	reg(&s, 1)[0] = a;
	reg(&s, 2)[0] = b;
	reg(&s, 3)[0] = c;
	reg(&s, 4)[0] = e;
	if (!checked_(t, in, file, line))
		return 0xdeadbeefdeadbeefull;
	func_exec_alu(&s.x, in, 1);
	return reg(&s, 0)[0];
}
#define RUN(in, a, b, c) run1_(t, &(in), (a), (b), (c), 0, __FILE__, __LINE__)
#define RUN4(in, a, b, c, e) run1_(t, &(in), (a), (b), (c), (e), __FILE__, __LINE__)

static inline uint64_t F(float f)
{
	uint32_t u;
	memcpy(&u, &f, 4);
	return u;
}
static inline uint64_t D(double d)
{
	uint64_t u;
	memcpy(&u, &d, 8);
	return u;
}
static inline float toF(uint64_t v)
{
	uint32_t u = (uint32_t)v;
	float f;
	memcpy(&f, &u, 4);
	return f;
}
static inline double toD(uint64_t v)
{
	double d;
	memcpy(&d, &v, 8);
	return d;
}

#endif
