/*
 * test_warp.c -- tests of the warp-level collectives (src/func/exec_warp.c):
 * shfl.sync in every mode with clamp and segment-mask edge cases,
 * out-of-range source lanes and the predicate output; vote all/any/uni/
 * ballot with partial masks; activemask; match.any/all on 32- and 64-bit
 * values; redux.sync; the load-time check; warp sizes 8, 16, 32 and 64.
 * Instructions and register frames are built by hand (registers and
 * immediates only).
 */
#include <stdlib.h>
#include <string.h>

#include "func/exec_warp.h"
#include "func/op.h"
#include "test.h"

#define NREG 8
enum { RA = 0, RB = 1, RC = 2, RD = 3, RP = 4, RQ = 5, RX = 6 };
#define UNSET 0xaaaaaaaaaaaaaaaaull

struct wenv {
	uint64_t regs[NREG * WS_MAX_WARP];
	uint8_t carry[WS_MAX_WARP];
	struct func_exec x;
};

static void wenv_init(struct wenv *e, unsigned ws)
{
	memset(e, 0, sizeof *e);
	for (unsigned i = 0; i < NREG * WS_MAX_WARP; i++)
		e->regs[i] = UNSET;
	e->x.regs = e->regs;
	e->x.ws = ws;
	e->x.carry = e->carry;
}

static uint64_t *R(struct wenv *e, int r) { return e->regs + (size_t)r * e->x.ws; }

static struct ptx_insn mk(enum ptx_opcode op, enum ptx_type ty, enum ptx_mode mode)
{
	struct ptx_insn in;
	memset(&in, 0, sizeof in);
	in.op = (uint16_t)op;
	in.type = (uint8_t)ty;
	in.mode = (uint8_t)mode;
	in.vec = 1;
	in.guard = -1;
	for (unsigned k = 0; k < PTX_MAX_OPDS; k++)
		in.opd[k].reg2 = -1;
	return in;
}

static void a_reg(struct ptx_insn *in, int r)
{
	in->opd[in->nopd].kind = OPD_REG;
	in->opd[in->nopd++].reg = r;
}

static void a_imm(struct ptx_insn *in, uint64_t v)
{
	in->opd[in->nopd].kind = OPD_IMM;
	in->opd[in->nopd++].imm = v;
}

static uint64_t all_lanes(unsigned ws) { return ws >= 64 ? ~0ull : (1ull << ws) - 1; }

/* shfl.sync.mode.b32 RD|RP, RA, b, c, -1 with immediate b and c; a[l] = 100 + l */
static void run_shfl(struct wenv *e, unsigned ws, enum ptx_mode mode, uint32_t b, uint32_t c, uint64_t mask)
{
	wenv_init(e, ws);
	for (unsigned l = 0; l < ws; l++)
		R(e, RA)[l] = 100 + l;
	struct ptx_insn in = mk(OP_SHFL, PTX_T_B32, mode);
	a_reg(&in, RD);
	in.opd[0].reg2 = RP;
	a_reg(&in, RA);
	a_imm(&in, b);
	a_imm(&in, c);
	a_imm(&in, 0xffffffffu);
	char why[128];
	bool ok = func_warpop_check(&in, why, sizeof why);
	(void)ok;
	func_exec_warpop(&e->x, &in, mask, all_lanes(ws));
}

/* expected source lane of `lane`, or -1 for "out of range" (own value, p = 0) */
static void expect_shfl(struct test_ctx *t, struct wenv *e, unsigned lane, int src, const char *what)
{
	uint64_t d = R(e, RD)[lane], p = R(e, RP)[lane];
	uint64_t want = 100 + (unsigned)(src < 0 ? (int)lane : src);
	CHECK_MSG(d == want && p == (src >= 0), "%s ws=%u lane %u: d=%llu p=%llu, want %llu p=%d", what, e->x.ws,
		  lane, (unsigned long long)d, (unsigned long long)p, (unsigned long long)want, src >= 0);
}

TEST(warp_shfl_full_warp_modes)
{
	struct wenv e;
	run_shfl(&e, 32, MODE_DOWN, 1, 0x1f, ~0ull);
	for (unsigned l = 0; l < 32; l++)
		expect_shfl(t, &e, l, l < 31 ? (int)l + 1 : -1, "down 1");
	run_shfl(&e, 32, MODE_DOWN, 16, 0x1f, ~0ull);
	for (unsigned l = 0; l < 32; l++)
		expect_shfl(t, &e, l, l < 16 ? (int)l + 16 : -1, "down 16");
	run_shfl(&e, 32, MODE_UP, 1, 0, ~0ull);
	for (unsigned l = 0; l < 32; l++)
		expect_shfl(t, &e, l, l >= 1 ? (int)l - 1 : -1, "up 1");
	run_shfl(&e, 32, MODE_UP, 5, 0, ~0ull);
	for (unsigned l = 0; l < 32; l++)
		expect_shfl(t, &e, l, l >= 5 ? (int)l - 5 : -1, "up 5");
	run_shfl(&e, 32, MODE_BFLY, 2, 0x1f, ~0ull);
	for (unsigned l = 0; l < 32; l++)
		expect_shfl(t, &e, l, (int)(l ^ 2), "bfly 2");
	run_shfl(&e, 32, MODE_BFLY, 31, 0x1f, ~0ull);
	for (unsigned l = 0; l < 32; l++)
		expect_shfl(t, &e, l, (int)(31 - l), "bfly 31");
	run_shfl(&e, 32, MODE_IDX, 5, 0x1f, ~0ull);
	for (unsigned l = 0; l < 32; l++)
		expect_shfl(t, &e, l, 5, "idx 5");
	/* only b[4:0] is used at ws = 32 */
	run_shfl(&e, 32, MODE_IDX, 37, 0x1f, ~0ull);
	for (unsigned l = 0; l < 32; l++)
		expect_shfl(t, &e, l, 5, "idx 37");
	run_shfl(&e, 32, MODE_DOWN, 33, 0x1f, ~0ull);
	for (unsigned l = 0; l < 32; l++)
		expect_shfl(t, &e, l, l < 31 ? (int)l + 1 : -1, "down 33");
}

TEST(warp_shfl_segments_and_clamp)
{
	struct wenv e;
	/* width 8: c = ((32 - 8) << 8) | 0x1f for down/idx/bfly, (32 - 8) << 8 for up */
	uint32_t cw = (24u << 8) | 0x1f, cu = 24u << 8;
	run_shfl(&e, 32, MODE_DOWN, 4, cw, ~0ull);
	for (unsigned l = 0; l < 32; l++)
		expect_shfl(t, &e, l, (l % 8) < 4 ? (int)l + 4 : -1, "down 4 width 8");
	run_shfl(&e, 32, MODE_UP, 2, cu, ~0ull);
	for (unsigned l = 0; l < 32; l++)
		expect_shfl(t, &e, l, (l % 8) >= 2 ? (int)l - 2 : -1, "up 2 width 8");
	run_shfl(&e, 32, MODE_IDX, 3, cw, ~0ull);
	for (unsigned l = 0; l < 32; l++)
		expect_shfl(t, &e, l, (int)(l & ~7u) + 3, "idx 3 width 8");
	/* idx beyond the segment: only the bits outside segmask count -> 11 & 7 = 3 */
	run_shfl(&e, 32, MODE_IDX, 11, cw, ~0ull);
	for (unsigned l = 0; l < 32; l++)
		expect_shfl(t, &e, l, (int)(l & ~7u) + 3, "idx 11 width 8");
	run_shfl(&e, 32, MODE_BFLY, 4, cw, ~0ull);
	for (unsigned l = 0; l < 32; l++)
		expect_shfl(t, &e, l, (int)(l ^ 4), "bfly 4 width 8");
	run_shfl(&e, 32, MODE_BFLY, 8, cw, ~0ull);
	for (unsigned l = 0; l < 32; l++)
		/* the ISA only clamps from above: a lane may read the segment below */
		expect_shfl(t, &e, l, (l & 8) ? (int)(l ^ 8) : -1, "bfly 8 width 8");
	/* width 16 */
	run_shfl(&e, 32, MODE_DOWN, 1, (16u << 8) | 0x1f, ~0ull);
	for (unsigned l = 0; l < 32; l++)
		expect_shfl(t, &e, l, (l % 16) != 15 ? (int)l + 1 : -1, "down 1 width 16");
	/* a clamp below 31 without segments: down stops at lane 15 */
	run_shfl(&e, 32, MODE_DOWN, 2, 0x0f, ~0ull);
	for (unsigned l = 0; l < 32; l++)
		expect_shfl(t, &e, l, l + 2 <= 15 ? (int)l + 2 : -1, "down 2 clamp 15");
	/* up with a non-zero clamp: source must be >= clamp */
	run_shfl(&e, 32, MODE_UP, 1, 4, ~0ull);
	for (unsigned l = 0; l < 32; l++)
		expect_shfl(t, &e, l, l >= 5 ? (int)l - 1 : -1, "up 1 clamp 4");
	/* idx above the clamp */
	run_shfl(&e, 32, MODE_IDX, 20, 0x0f, ~0ull);
	for (unsigned l = 0; l < 32; l++)
		expect_shfl(t, &e, l, -1, "idx 20 clamp 15");
}

TEST(warp_shfl_partial_mask_and_aliasing)
{
	struct wenv e;
	/* only even lanes execute: odd lanes keep their destination; sources are
	 * read from every lane, executing or not */
	uint64_t even = 0x5555555555555555ull;
	run_shfl(&e, 32, MODE_DOWN, 1, 0x1f, even);
	for (unsigned l = 0; l < 32; l++) {
		if (l & 1) {
			CHECK_EQ(R(&e, RD)[l], UNSET);
			CHECK_EQ(R(&e, RP)[l], UNSET);
		} else {
			expect_shfl(t, &e, l, (int)l + 1, "down 1 even lanes");
		}
	}
	/* destination == source, predicate output absent */
	wenv_init(&e, 32);
	for (unsigned l = 0; l < 32; l++)
		R(&e, RA)[l] = l * 3;
	struct ptx_insn in = mk(OP_SHFL, PTX_T_B32, MODE_BFLY);
	a_reg(&in, RA);
	a_reg(&in, RA);
	a_imm(&in, 1);
	a_imm(&in, 0x1f);
	a_imm(&in, 0xffffffffu);
	func_exec_warpop(&e.x, &in, ~0ull, ~0ull);
	for (unsigned l = 0; l < 32; l++)
		CHECK_EQ(R(&e, RA)[l], (l ^ 1) * 3);
	CHECK_EQ(R(&e, RP)[0], UNSET);
	/* per-lane b from a register; 64-bit values are truncated to 32 bits */
	wenv_init(&e, 32);
	for (unsigned l = 0; l < 32; l++) {
		R(&e, RA)[l] = 0xff00000000ull | l;
		R(&e, RB)[l] = 31 - l;
	}
	in = mk(OP_SHFL, PTX_T_B32, MODE_IDX);
	a_reg(&in, RD);
	a_reg(&in, RA);
	a_reg(&in, RB);
	a_imm(&in, 0x1f);
	func_exec_warpop(&e.x, &in, ~0ull, ~0ull); /* old form without membermask */
	for (unsigned l = 0; l < 32; l++)
		CHECK_EQ(R(&e, RD)[l], 31 - l);
}

TEST(warp_shfl_other_warp_sizes)
{
	struct wenv e;
	/* ws = 8: lanes >= 8 do not exist */
	run_shfl(&e, 8, MODE_DOWN, 1, 0x1f, ~0ull);
	for (unsigned l = 0; l < 8; l++)
		expect_shfl(t, &e, l, l < 7 ? (int)l + 1 : -1, "down 1");
	run_shfl(&e, 8, MODE_DOWN, 16, 0x1f, ~0ull);
	for (unsigned l = 0; l < 8; l++)
		expect_shfl(t, &e, l, -1, "down 16");
	run_shfl(&e, 8, MODE_BFLY, 4, 0x1f, ~0ull);
	for (unsigned l = 0; l < 8; l++)
		expect_shfl(t, &e, l, (int)(l ^ 4), "bfly 4");
	run_shfl(&e, 8, MODE_BFLY, 16, 0x1f, ~0ull);
	for (unsigned l = 0; l < 8; l++)
		expect_shfl(t, &e, l, -1, "bfly 16");
	run_shfl(&e, 8, MODE_IDX, 9, 0x1f, ~0ull);
	for (unsigned l = 0; l < 8; l++)
		expect_shfl(t, &e, l, -1, "idx 9");
	run_shfl(&e, 8, MODE_UP, 3, 0, ~0ull);
	for (unsigned l = 0; l < 8; l++)
		expect_shfl(t, &e, l, l >= 3 ? (int)l - 3 : -1, "up 3");
	/* ws = 16 with width-4 segments */
	run_shfl(&e, 16, MODE_DOWN, 2, (28u << 8) | 0x1f, ~0ull);
	for (unsigned l = 0; l < 16; l++)
		expect_shfl(t, &e, l, (l % 4) < 2 ? (int)l + 2 : -1, "down 2 width 4");
	/* ws = 64: the whole warp is one segment for c = 0x1f */
	run_shfl(&e, 64, MODE_DOWN, 1, 0x1f, ~0ull);
	for (unsigned l = 0; l < 64; l++)
		expect_shfl(t, &e, l, l < 63 ? (int)l + 1 : -1, "down 1");
	run_shfl(&e, 64, MODE_DOWN, 32, 0x1f, ~0ull);
	for (unsigned l = 0; l < 64; l++)
		expect_shfl(t, &e, l, l < 32 ? (int)l + 32 : -1, "down 32");
	run_shfl(&e, 64, MODE_UP, 1, 0, ~0ull);
	for (unsigned l = 0; l < 64; l++)
		expect_shfl(t, &e, l, l >= 1 ? (int)l - 1 : -1, "up 1");
	run_shfl(&e, 64, MODE_IDX, 40, 0x1f, ~0ull);
	for (unsigned l = 0; l < 64; l++)
		expect_shfl(t, &e, l, 40, "idx 40");
	run_shfl(&e, 64, MODE_BFLY, 32, 0x1f, ~0ull);
	for (unsigned l = 0; l < 64; l++)
		expect_shfl(t, &e, l, (int)(l ^ 32), "bfly 32");
	/* width 16 segments keep their width at ws = 64 */
	run_shfl(&e, 64, MODE_DOWN, 1, (16u << 8) | 0x1f, ~0ull);
	for (unsigned l = 0; l < 64; l++)
		expect_shfl(t, &e, l, (l % 16) != 15 ? (int)l + 1 : -1, "down 1 width 16");
	run_shfl(&e, 64, MODE_IDX, 3, (16u << 8) | 0x1f, ~0ull);
	for (unsigned l = 0; l < 64; l++)
		expect_shfl(t, &e, l, (int)(l & ~15u) + 3, "idx 3 width 16");
	run_shfl(&e, 64, MODE_UP, 1, 16u << 8, ~0ull);
	for (unsigned l = 0; l < 64; l++)
		expect_shfl(t, &e, l, (l % 16) ? (int)l - 1 : -1, "up 1 width 16");
}

static void run_vote(struct wenv *e, unsigned ws, enum ptx_mode mode, const uint8_t *pred, bool neg, uint64_t mask,
		     uint64_t active)
{
	wenv_init(e, ws);
	for (unsigned l = 0; l < ws; l++)
		R(e, RP)[l] = pred[l];
	struct ptx_insn in = mk(OP_VOTE, mode == MODE_BALLOT ? PTX_T_B32 : PTX_T_PRED, mode);
	a_reg(&in, RD);
	a_reg(&in, RP);
	in.opd[1].neg = neg;
	a_imm(&in, 0xffffffffu);
	func_exec_warpop(&e->x, &in, mask, active);
}

TEST(warp_vote)
{
	struct wenv e;
	uint8_t p[64];
	for (unsigned l = 0; l < 64; l++)
		p[l] = (l % 3) == 0;
	uint64_t m = 0x0000000000000249ull; /* lanes 0, 3, 6, 9: all have p = 1 */
	run_vote(&e, 32, MODE_ALL, p, false, m, ~0ull);
	CHECK_EQ(R(&e, RD)[0], 1);
	CHECK_EQ(R(&e, RD)[9], 1);
	CHECK_EQ(R(&e, RD)[1], UNSET);
	run_vote(&e, 32, MODE_ALL, p, false, m | 2, ~0ull);
	CHECK_EQ(R(&e, RD)[0], 0);
	run_vote(&e, 32, MODE_ANY, p, false, 0x6, ~0ull); /* lanes 1, 2: both 0 */
	CHECK_EQ(R(&e, RD)[1], 0);
	CHECK_EQ(R(&e, RD)[2], 0);
	run_vote(&e, 32, MODE_ANY, p, false, 0xe, ~0ull);
	CHECK_EQ(R(&e, RD)[1], 1);
	run_vote(&e, 32, MODE_ANY, p, true, m, ~0ull); /* !p over lanes with p = 1 */
	CHECK_EQ(R(&e, RD)[3], 0);
	run_vote(&e, 32, MODE_UNI, p, false, m, ~0ull);
	CHECK_EQ(R(&e, RD)[3], 1);
	run_vote(&e, 32, MODE_UNI, p, false, 0x6, ~0ull);
	CHECK_EQ(R(&e, RD)[2], 1);
	run_vote(&e, 32, MODE_UNI, p, false, 0x7, ~0ull);
	CHECK_EQ(R(&e, RD)[2], 0);
	/* ballot: non-executing lanes contribute 0 */
	run_vote(&e, 32, MODE_BALLOT, p, false, 0xffffffffull, ~0ull);
	CHECK_EQ(R(&e, RD)[5], 0x49249249u);
	run_vote(&e, 32, MODE_BALLOT, p, false, 0x0000ffffull, ~0ull);
	CHECK_EQ(R(&e, RD)[0], 0x9249u);
	CHECK_EQ(R(&e, RD)[16], UNSET);
	run_vote(&e, 32, MODE_BALLOT, p, true, 0x0000000full, ~0ull);
	CHECK_EQ(R(&e, RD)[0], 0x6u);
	/* ws = 8 */
	run_vote(&e, 8, MODE_BALLOT, p, false, ~0ull, ~0ull);
	CHECK_EQ(R(&e, RD)[7], 0x49u);
	/* ws = 64: ballot gives each lane its own 32-lane half; all covers the warp */
	run_vote(&e, 64, MODE_BALLOT, p, false, ~0ull, ~0ull);
	uint64_t full = 0;
	for (unsigned l = 0; l < 64; l++)
		full |= (uint64_t)p[l] << l;
	CHECK_EQ(R(&e, RD)[3], full & 0xffffffffu);
	CHECK_EQ(R(&e, RD)[40], full >> 32);
	run_vote(&e, 64, MODE_ALL, p, false, (1ull << 63) | 1, ~0ull); /* lanes 0, 63: p = 1, 1 */
	CHECK_EQ(R(&e, RD)[63], 1);
	run_vote(&e, 64, MODE_ANY, p, false, (1ull << 62) | 2, ~0ull);
	CHECK_EQ(R(&e, RD)[62], 0);
}

TEST(warp_activemask)
{
	struct wenv e;
	wenv_init(&e, 32);
	struct ptx_insn in = mk(OP_ACTIVEMASK, PTX_T_B32, MODE_NONE);
	a_reg(&in, RD);
	char why[128];
	CHECK(func_warpop_check(&in, why, sizeof why));
	func_exec_warpop(&e.x, &in, 0x0000f0f0ull, 0x0000fff0ull); /* guard false on some active lanes */
	CHECK_EQ(R(&e, RD)[4], 0xfff0u);
	CHECK_EQ(R(&e, RD)[8], UNSET);
	wenv_init(&e, 64);
	func_exec_warpop(&e.x, &in, ~0ull, 0x8000000100000003ull);
	CHECK_EQ(R(&e, RD)[0], 0x3u);
	CHECK_EQ(R(&e, RD)[32], 0x80000001u);
	/* lanes beyond the warp size are ignored */
	wenv_init(&e, 16);
	func_exec_warpop(&e.x, &in, ~0ull, ~0ull);
	CHECK_EQ(R(&e, RD)[15], 0xffffu);
}

TEST(warp_match)
{
	struct wenv e;
	wenv_init(&e, 32);
	for (unsigned l = 0; l < 32; l++)
		R(&e, RA)[l] = ((uint64_t)(l & 1) << 40) | (l / 4); /* high bits differ by parity */
	struct ptx_insn in = mk(OP_MATCH, PTX_T_B32, MODE_ANY);
	a_reg(&in, RD);
	a_reg(&in, RA);
	a_imm(&in, 0xffffffffu);
	char why[128];
	CHECK(func_warpop_check(&in, why, sizeof why));
	func_exec_warpop(&e.x, &in, 0xffffffffull, 0xffffffffull);
	CHECK_EQ(R(&e, RD)[0], 0xfu);
	CHECK_EQ(R(&e, RD)[6], 0xf0u);
	CHECK_EQ(R(&e, RD)[31], 0xf0000000u);
	/* b64: parity splits the groups */
	in.type = PTX_T_B64;
	func_exec_warpop(&e.x, &in, 0xffffffffull, 0xffffffffull);
	CHECK_EQ(R(&e, RD)[0], 0x5u);
	CHECK_EQ(R(&e, RD)[5], 0xa0u);
	/* only executing lanes take part */
	in.type = PTX_T_B32;
	func_exec_warpop(&e.x, &in, 0x0000000dull, 0xffffffffull);
	CHECK_EQ(R(&e, RD)[0], 0xdu);
	/* match.all with predicate */
	in = mk(OP_MATCH, PTX_T_B32, MODE_ALL);
	a_reg(&in, RD);
	in.opd[0].reg2 = RP;
	a_reg(&in, RA);
	a_imm(&in, 0xffffffffu);
	func_exec_warpop(&e.x, &in, 0x000000f0ull, 0xffffffffull);
	CHECK_EQ(R(&e, RD)[4], 0xf0u);
	CHECK_EQ(R(&e, RP)[4], 1);
	func_exec_warpop(&e.x, &in, 0x000001f0ull, 0xffffffffull);
	CHECK_EQ(R(&e, RD)[8], 0);
	CHECK_EQ(R(&e, RP)[8], 0);
	in.type = PTX_T_B64; /* lanes 4..7 differ in bit 40 */
	func_exec_warpop(&e.x, &in, 0x000000f0ull, 0xffffffffull);
	CHECK_EQ(R(&e, RD)[4], 0);
	CHECK_EQ(R(&e, RP)[5], 0);
	/* ws = 64: halves match separately */
	wenv_init(&e, 64);
	for (unsigned l = 0; l < 64; l++)
		R(&e, RA)[l] = 7;
	in = mk(OP_MATCH, PTX_T_B32, MODE_ANY);
	a_reg(&in, RD);
	a_reg(&in, RA);
	a_imm(&in, 0xffffffffu);
	func_exec_warpop(&e.x, &in, 0x0000000300000005ull, ~0ull);
	CHECK_EQ(R(&e, RD)[0], 0x5u);
	CHECK_EQ(R(&e, RD)[33], 0x3u);
}

static uint64_t run_redux(struct wenv *e, unsigned ws, enum ptx_atomop aop, enum ptx_type ty, const int32_t *v,
			  uint64_t mask, unsigned lane)
{
	wenv_init(e, ws);
	for (unsigned l = 0; l < ws; l++)
		R(e, RA)[l] = (uint32_t)v[l];
	struct ptx_insn in = mk(OP_REDUX, ty, MODE_NONE);
	in.atomop = (uint8_t)aop;
	a_reg(&in, RD);
	a_reg(&in, RA);
	a_imm(&in, 0xffffffffu);
	func_exec_warpop(&e->x, &in, mask, ~0ull);
	return R(e, RD)[lane];
}

TEST(warp_redux)
{
	struct wenv e;
	int32_t v[64];
	for (int l = 0; l < 64; l++)
		v[l] = (l % 2) ? -l : l * 1000;
	CHECK_EQ(run_redux(&e, 32, AOP_ADD, PTX_T_U32, v, 0xffffffffull, 0), 240000u - 256u);
	CHECK_EQ(run_redux(&e, 32, AOP_ADD, PTX_T_S32, v, 0x3ull, 1), (uint32_t)(0 - 1));
	CHECK_EQ(run_redux(&e, 32, AOP_MIN, PTX_T_S32, v, 0xffffffffull, 7), (uint32_t)-31);
	CHECK_EQ(run_redux(&e, 32, AOP_MIN, PTX_T_U32, v, 0xffffffffull, 7), 0);
	CHECK_EQ(run_redux(&e, 32, AOP_MAX, PTX_T_S32, v, 0xffffffffull, 7), 30000);
	CHECK_EQ(run_redux(&e, 32, AOP_MAX, PTX_T_U32, v, 0xffffffffull, 7), (uint32_t)-1);
	CHECK_EQ(run_redux(&e, 32, AOP_MAX, PTX_T_S32, v, 0xaull, 1), (uint32_t)-1);
	CHECK_EQ(run_redux(&e, 32, AOP_AND, PTX_T_B32, v, 0x3ull, 0), 0);
	CHECK_EQ(run_redux(&e, 32, AOP_OR, PTX_T_B32, v, 0x6ull, 2), (uint32_t)(2000 | -1));
	CHECK_EQ(run_redux(&e, 32, AOP_XOR, PTX_T_B32, v, 0xcull, 2), (uint32_t)(2000 ^ -3));
	CHECK_EQ(run_redux(&e, 32, AOP_ADD, PTX_T_U32, v, 0x1ull, 1), UNSET); /* lane 1 not executing */
	int32_t big[64];
	for (int l = 0; l < 64; l++)
		big[l] = 0x7fffffff;
	CHECK_EQ(run_redux(&e, 64, AOP_ADD, PTX_T_S32, big, ~0ull, 63), (uint32_t)(64u * 0x7fffffffu));
	CHECK_EQ(run_redux(&e, 8, AOP_ADD, PTX_T_U32, v, ~0ull, 0), 0u + 2000 + 4000 + 6000 - 1 - 3 - 5 - 7);
}

TEST(warp_check)
{
	char why[128];
	struct ptx_insn in = mk(OP_SHFL, PTX_T_B32, MODE_IDX);
	a_reg(&in, RD);
	a_reg(&in, RA);
	a_imm(&in, 1);
	a_imm(&in, 0x1f);
	a_imm(&in, 0xffffffffu);
	CHECK(func_warpop_check(&in, why, sizeof why));
	in.type = PTX_T_B64;
	CHECK(!func_warpop_check(&in, why, sizeof why));
	CHECK_STR_CONTAINS(why, "shfl");
	in.type = PTX_T_B32;
	in.mode = MODE_NONE;
	CHECK(!func_warpop_check(&in, why, sizeof why));

	in = mk(OP_REDUX, PTX_T_F32, MODE_NONE);
	in.atomop = AOP_MIN;
	a_reg(&in, RD);
	a_reg(&in, RA);
	a_imm(&in, 0xffffffffu);
	CHECK(!func_warpop_check(&in, why, sizeof why));
	CHECK_STR_CONTAINS(why, "redux.sync.min.f32");
	in.type = PTX_T_S32;
	CHECK(func_warpop_check(&in, why, sizeof why));
	in.atomop = AOP_AND;
	CHECK(func_warpop_check(&in, why, sizeof why));
	in.atomop = AOP_CAS;
	CHECK(!func_warpop_check(&in, why, sizeof why));
	in.atomop = AOP_ADD;
	in.flags = FLAG_ABS;
	CHECK(!func_warpop_check(&in, why, sizeof why));

	in = mk(OP_VOTE, PTX_T_PRED, MODE_BALLOT);
	a_reg(&in, RD);
	a_reg(&in, RP);
	CHECK(!func_warpop_check(&in, why, sizeof why));
	in.type = PTX_T_B32;
	CHECK(func_warpop_check(&in, why, sizeof why));
	in.mode = MODE_UNI;
	CHECK(!func_warpop_check(&in, why, sizeof why));
	in.type = PTX_T_PRED;
	CHECK(func_warpop_check(&in, why, sizeof why));

	in = mk(OP_MATCH, PTX_T_F32, MODE_ANY);
	a_reg(&in, RD);
	a_reg(&in, RA);
	a_imm(&in, 0xffffffffu);
	CHECK(!func_warpop_check(&in, why, sizeof why));
	in.type = PTX_T_B64;
	CHECK(func_warpop_check(&in, why, sizeof why));
	in.type = PTX_T_B16;
	CHECK(!func_warpop_check(&in, why, sizeof why));

	in = mk(OP_ADD, PTX_T_S32, MODE_NONE);
	CHECK(!func_warpop_check(&in, why, sizeof why));
	CHECK((func_ops[OP_SHFL]->check == func_warpop_check) && (func_ops[OP_VOTE]->check == func_warpop_check) && (func_ops[OP_ACTIVEMASK]->check == func_warpop_check) &&
	      (func_ops[OP_MATCH]->check == func_warpop_check) && (func_ops[OP_REDUX]->check == func_warpop_check));
	CHECK(!(func_ops[OP_ADD]->check == func_warpop_check) && !(func_ops[OP_BAR]->check == func_warpop_check));
}
