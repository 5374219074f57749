/*
 * parse_insn.c -- PTX parser, instruction syntax: the modifier-word table
 * (`modwords`: every suffix word -> the insn field it sets, in which group)
 * and the per-opcode syntax table (`opsyn`: which modifier groups, which
 * types, how many type suffixes and which operand shapes are valid), the
 * suffix decoding and checking against them (tensor-core mma/wmma/ldmatrix
 * suffixes and texture/surface forms included), and one guarded
 * instruction: [@[!]%p] opcode.suffixes operands ;.  An opcode of
 * opcodes.def without an opsyn entry is parsed permissively.
 *
 * Models no hardware.  Part of the parser of parser.c; shared state and
 * helpers in parse_internal.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx/parse_internal.h"

/* ------------------------------------------------------------------ */
/* modifier words and per-opcode syntax                                */
/* ------------------------------------------------------------------ */

enum mgroup {
	G_TYPE, G_SPACE, G_VEC, G_CMP, G_BOOL, G_RND, G_RNDI, G_ATOM, G_BARRED, G_MUL,
	G_SHFL, G_BRXIDX, G_VOTE, G_MATCH, G_BAR, G_BARWARP, G_SYNC, G_SHF, G_SHFMODE, G_TO,
	G_PRMT, G_TESTP, G_SEM, G_SCOPE, G_MEMBAR, G_CACHE, G_PFLEVEL, G_PMMASK,
	G_VOLATILE, G_NC, G_CC, G_SAT, G_FTZ, G_APPROX, G_FULL, G_UNI, G_SHIFTAMT, G_ALIGNED,
	G_RELU, G_NOFTZ, G_NAN, G_XORSIGN, G_ABS,
	G_GEOM, G_TXLOD, G_TXQLVL, G_TLD4C, G_SUFMT, G_SUCLAMP, G_TXQ, /* textures and surfaces */
	G_CPASYNC, G_MBAR, /* issue 16: cp.async and mbarrier sub-operations */
	G_CVT16,           /* issue 16: cvt .satfinite / .pack */
	G_CPOL,            /* issue 26: createpolicy forms */
	G_COUNT
};
#define G(x) (1ull << G_##x)

enum mfield {
	MF_TYPE, MF_SPACE, MF_VEC, MF_CMP, MF_BOOL, MF_RND, MF_ATOM, MF_MODE, MF_SEM, MF_SCOPE,
	MF_FLAG, MF_IGNORE, MF_SYNC, MF_WARP, MF_GEOM, MF_TX, MF_TXFMT, MF_COUNT
};

struct modword {
	const char *w;
	uint8_t group, field, val;
};

/* Entries with the same word must be adjacent; the first one whose group the
 * opcode accepts is used. */
static const struct modword modwords[] = {
#define X(e, n, s) {n, G_TYPE, MF_TYPE, PTX_T_##e},
	PTX_TYPES(X)
#undef X
	{"global", G_SPACE, MF_SPACE, SPACE_GLOBAL},
	{"shared", G_SPACE, MF_SPACE, SPACE_SHARED},
	{"shared::cta", G_SPACE, MF_SPACE, SPACE_SHARED},
	{"shared::cluster", G_SPACE, MF_SPACE, SPACE_SHARED_CLUSTER},
	{"local", G_SPACE, MF_SPACE, SPACE_LOCAL},
	{"const", G_SPACE, MF_SPACE, SPACE_CONST},
	{"param", G_SPACE, MF_SPACE, SPACE_PARAM},
	{"param::entry", G_SPACE, MF_SPACE, SPACE_PARAM},
	{"param::func", G_SPACE, MF_SPACE, SPACE_PARAM},
	{"v2", G_VEC, MF_VEC, 2},
	{"v4", G_VEC, MF_VEC, 4},
	{"v8", G_VEC, MF_VEC, 8}, /* issue 16: ld/st .v8 (sm_100's 256-bit accesses) */
	{"eq", G_CMP, MF_CMP, CMP_EQ},
	{"ne", G_CMP, MF_CMP, CMP_NE},
	{"lt", G_CMP, MF_CMP, CMP_LT},
	{"le", G_CMP, MF_CMP, CMP_LE},
	{"gt", G_CMP, MF_CMP, CMP_GT},
	{"ge", G_CMP, MF_CMP, CMP_GE},
	{"lo", G_CMP, MF_CMP, CMP_LO},
	{"lo", G_MUL, MF_MODE, MODE_LO},
	{"ls", G_CMP, MF_CMP, CMP_LS},
	{"hi", G_CMP, MF_CMP, CMP_HI},
	{"hi", G_MUL, MF_MODE, MODE_HI},
	{"hs", G_CMP, MF_CMP, CMP_HS},
	{"equ", G_CMP, MF_CMP, CMP_EQU},
	{"neu", G_CMP, MF_CMP, CMP_NEU},
	{"ltu", G_CMP, MF_CMP, CMP_LTU},
	{"leu", G_CMP, MF_CMP, CMP_LEU},
	{"gtu", G_CMP, MF_CMP, CMP_GTU},
	{"geu", G_CMP, MF_CMP, CMP_GEU},
	{"num", G_CMP, MF_CMP, CMP_NUM},
	{"nan", G_CMP, MF_CMP, CMP_NAN},
	{"and", G_BOOL, MF_BOOL, BOOL_AND},
	{"and", G_ATOM, MF_ATOM, AOP_AND},
	{"and", G_BARRED, MF_ATOM, AOP_AND},
	{"or", G_BOOL, MF_BOOL, BOOL_OR},
	{"or", G_ATOM, MF_ATOM, AOP_OR},
	{"or", G_BARRED, MF_ATOM, AOP_OR},
	{"xor", G_BOOL, MF_BOOL, BOOL_XOR},
	{"xor", G_ATOM, MF_ATOM, AOP_XOR},
	{"rn", G_RND, MF_RND, RND_RN},
	{"rz", G_RND, MF_RND, RND_RZ},
	{"rm", G_RND, MF_RND, RND_RM},
	{"rp", G_RND, MF_RND, RND_RP},
	{"rna", G_RND, MF_RND, RND_RNA},
	{"rni", G_RNDI, MF_RND, RND_RNI},
	{"rzi", G_RNDI, MF_RND, RND_RZI},
	{"rmi", G_RNDI, MF_RND, RND_RMI},
	{"rpi", G_RNDI, MF_RND, RND_RPI},
	{"add", G_ATOM, MF_ATOM, AOP_ADD},
	{"cas", G_ATOM, MF_ATOM, AOP_CAS},
	{"exch", G_ATOM, MF_ATOM, AOP_EXCH},
	{"min", G_ATOM, MF_ATOM, AOP_MIN},
	{"max", G_ATOM, MF_ATOM, AOP_MAX},
	{"inc", G_ATOM, MF_ATOM, AOP_INC},
	{"dec", G_ATOM, MF_ATOM, AOP_DEC},
	{"popc", G_BARRED, MF_ATOM, AOP_POPC},
	{"wide", G_MUL, MF_MODE, MODE_WIDE},
	{"up", G_SHFL, MF_MODE, MODE_UP},
	{"down", G_SHFL, MF_MODE, MODE_DOWN},
	{"bfly", G_SHFL, MF_MODE, MODE_BFLY},
	{"idx", G_SHFL, MF_MODE, MODE_IDX},
	{"idx", G_BRXIDX, MF_MODE, MODE_IDX},
	{"all", G_VOTE, MF_MODE, MODE_ALL},
	{"all", G_MATCH, MF_MODE, MODE_ALL},
	{"any", G_VOTE, MF_MODE, MODE_ANY},
	{"any", G_MATCH, MF_MODE, MODE_ANY},
	{"uni", G_VOTE, MF_MODE, MODE_UNI},
	{"uni", G_UNI, MF_FLAG, 5 /* FLAG_UNI */},
	{"ballot", G_VOTE, MF_MODE, MODE_BALLOT},
	{"sync", G_BAR, MF_MODE, MODE_SYNC},
	{"sync", G_SYNC, MF_SYNC, 0},
	{"arrive", G_BAR, MF_MODE, MODE_ARRIVE},
	{"arrive", G_MBAR, MF_MODE, MODE_ARRIVE},
	{"arrive", G_CPASYNC, MF_IGNORE, 0}, /* cp.async.mbarrier.arrive: "mbarrier" sets the mode */
	{"red", G_BAR, MF_MODE, MODE_RED},
	{"warp", G_BARWARP, MF_WARP, 0},
	{"l", G_SHF, MF_MODE, MODE_L},
	{"r", G_SHF, MF_MODE, MODE_R},
	{"r", G_TLD4C, MF_TX, 0},
	{"wrap", G_SHFMODE, MF_FLAG, 10 /* FLAG_WRAP */},
	{"clamp", G_SHFMODE, MF_FLAG, 9 /* FLAG_CLAMP */},
	{"clamp", G_SUCLAMP, MF_TX, TX_CLAMP},
	{"to", G_TO, MF_MODE, MODE_TO},
	{"f4e", G_PRMT, MF_MODE, MODE_PRMT_F4E},
	{"b4e", G_PRMT, MF_MODE, MODE_PRMT_B4E},
	{"rc8", G_PRMT, MF_MODE, MODE_PRMT_RC8},
	{"ecl", G_PRMT, MF_MODE, MODE_PRMT_ECL},
	{"ecr", G_PRMT, MF_MODE, MODE_PRMT_ECR},
	{"rc16", G_PRMT, MF_MODE, MODE_PRMT_RC16},
	{"finite", G_TESTP, MF_MODE, MODE_FINITE},
	{"infinite", G_TESTP, MF_MODE, MODE_INFINITE},
	{"number", G_TESTP, MF_MODE, MODE_NUMBER},
	{"notanumber", G_TESTP, MF_MODE, MODE_NOTANUMBER},
	{"normal", G_TESTP, MF_MODE, MODE_NORMAL},
	{"subnormal", G_TESTP, MF_MODE, MODE_SUBNORMAL},
	{"relaxed", G_SEM, MF_SEM, SEM_RELAXED},
	{"acquire", G_SEM, MF_SEM, SEM_ACQUIRE},
	{"release", G_SEM, MF_SEM, SEM_RELEASE},
	{"acq_rel", G_SEM, MF_SEM, SEM_ACQ_REL},
	{"sc", G_SEM, MF_SEM, SEM_SC},
	{"weak", G_SEM, MF_SEM, SEM_WEAK},
	{"mmio", G_SEM, MF_SEM, SEM_MMIO},
	{"cta", G_SCOPE, MF_SCOPE, SCOPE_CTA},
	{"cta", G_MEMBAR, MF_SCOPE, SCOPE_CTA},
	{"cluster", G_SCOPE, MF_SCOPE, SCOPE_CLUSTER},
	{"gpu", G_SCOPE, MF_SCOPE, SCOPE_GPU},
	{"sys", G_SCOPE, MF_SCOPE, SCOPE_SYS},
	{"sys", G_MEMBAR, MF_SCOPE, SCOPE_SYS},
	{"gl", G_MEMBAR, MF_SCOPE, SCOPE_GPU},
	{"ca", G_CACHE, MF_IGNORE, 0},
	{"cg", G_CACHE, MF_IGNORE, 0},
	{"cs", G_CACHE, MF_IGNORE, 0},
	{"lu", G_CACHE, MF_IGNORE, 0},
	{"cv", G_CACHE, MF_IGNORE, 0},
	{"wb", G_CACHE, MF_IGNORE, 0},
	{"wt", G_CACHE, MF_IGNORE, 0},
	{"unified", G_CACHE, MF_IGNORE, 0},
	{"L1", G_PFLEVEL, MF_IGNORE, 0},
	{"L2", G_PFLEVEL, MF_IGNORE, 0},
	{"mask", G_PMMASK, MF_IGNORE, 0},
	{"volatile", G_VOLATILE, MF_FLAG, 6},
	{"nc", G_NC, MF_FLAG, 7},
	{"cc", G_CC, MF_FLAG, 4},
	{"sat", G_SAT, MF_FLAG, 1},
	{"ftz", G_FTZ, MF_FLAG, 0},
	{"approx", G_APPROX, MF_FLAG, 2},
	{"full", G_FULL, MF_FLAG, 3},
	{"shiftamt", G_SHIFTAMT, MF_FLAG, 8},
	{"aligned", G_ALIGNED, MF_FLAG, 11},
	{"relu", G_RELU, MF_FLAG, 12},
	{"noftz", G_NOFTZ, MF_FLAG, 13},
	{"NaN", G_NAN, MF_FLAG, 14},
	{"xorsign", G_XORSIGN, MF_FLAG, 15},
	{"abs", G_ABS, MF_FLAG, 16},
	/* textures and surfaces */
	{"1d", G_GEOM, MF_GEOM, GEOM_1D},
	{"2d", G_GEOM, MF_GEOM, GEOM_2D},
	{"3d", G_GEOM, MF_GEOM, GEOM_3D},
	{"a1d", G_GEOM, MF_GEOM, GEOM_A1D},
	{"a2d", G_GEOM, MF_GEOM, GEOM_A2D},
	{"cube", G_GEOM, MF_GEOM, GEOM_CUBE},
	{"acube", G_GEOM, MF_GEOM, GEOM_ACUBE},
	{"2dms", G_GEOM, MF_GEOM, GEOM_2DMS},
	{"a2dms", G_GEOM, MF_GEOM, GEOM_A2DMS},
	{"base", G_TXLOD, MF_TX, TX_BASE},
	{"level", G_TXLOD, MF_TX, TX_LEVEL},
	{"level", G_TXQLVL, MF_TXFMT, 0},
	{"grad", G_TXLOD, MF_TX, TX_GRAD},
	{"g", G_TLD4C, MF_TX, 1},
	{"b", G_TLD4C, MF_TX, 2},
	{"b", G_SUFMT, MF_TXFMT, 0},
	{"a", G_TLD4C, MF_TX, 3},
	{"p", G_SUFMT, MF_TXFMT, TX_FORMATTED},
	{"trap", G_SUCLAMP, MF_TX, TX_TRAP},
	{"zero", G_SUCLAMP, MF_TX, TX_ZERO},
#define X(e, n) {n, G_TXQ, MF_TX, TXQ_##e},
	PTX_TXQS(X)
#undef X
	/* issue 16: cp.async and mbarrier */
	{"async", G_CPASYNC, MF_FLAG, 31},
	{"bulk", G_CPASYNC, MF_IGNORE, 1},       /* TMA (sm_90): refused in check_suffixes */
	{"reduce", G_CPASYNC, MF_IGNORE, 1},
	{"expect_tx", G_MBAR, MF_IGNORE, 1},
	{"complete_tx", G_MBAR, MF_IGNORE, 1},
	{"fractional", G_CPOL, MF_MODE, MODE_FRACTIONAL},
	{"range", G_CPOL, MF_MODE, MODE_RANGE},
	{"cvt", G_CPOL, MF_MODE, MODE_CVT},
	{"commit_group", G_CPASYNC, MF_MODE, MODE_COMMIT_GROUP},
	{"wait_group", G_CPASYNC, MF_MODE, MODE_WAIT_GROUP},
	{"wait_all", G_CPASYNC, MF_MODE, MODE_WAIT_ALL},
	{"mbarrier", G_CPASYNC, MF_MODE, MODE_CP_MBAR_ARRIVE},
	{"noinc", G_CPASYNC, MF_FLAG, 30},
	{"init", G_MBAR, MF_MODE, MODE_INIT},
	{"arrive_drop", G_MBAR, MF_MODE, MODE_ARRIVE_DROP},
	{"test_wait", G_MBAR, MF_MODE, MODE_TEST_WAIT},
	{"try_wait", G_MBAR, MF_MODE, MODE_TRY_WAIT},
	{"inval", G_MBAR, MF_MODE, MODE_INVAL},
	{"pending_count", G_MBAR, MF_MODE, MODE_PENDING_COUNT},
	{"parity", G_MBAR, MF_FLAG, 28},
	{"satfinite", G_CVT16, MF_FLAG, 27},
	{"pack", G_CVT16, MF_FLAG, 26},
	{"noComplete", G_MBAR, MF_FLAG, 29},
};
#define NMODWORDS (sizeof(modwords) / sizeof(modwords[0]))

/* Compile-time agreement between the flag bit indices above and ir.h. */
_Static_assert(FLAG_FTZ == 1u << 0 && FLAG_SAT == 1u << 1 && FLAG_APPROX == 1u << 2 && FLAG_FULL == 1u << 3 &&
		       FLAG_CC == 1u << 4 && FLAG_UNI == 1u << 5 && FLAG_VOLATILE == 1u << 6 && FLAG_NC == 1u << 7 &&
		       FLAG_SHIFTAMT == 1u << 8 && FLAG_CLAMP == 1u << 9 && FLAG_WRAP == 1u << 10 &&
		       FLAG_ALIGNED == 1u << 11 && FLAG_RELU == 1u << 12 && FLAG_NOFTZ == 1u << 13 &&
		       FLAG_NAN == 1u << 14 && FLAG_XORSIGN == 1u << 15 && FLAG_ABS == 1u << 16 &&
		       FLAG_PARITY == 1u << 28 && FLAG_NOCOMPLETE == 1u << 29 && FLAG_NOINC == 1u << 30 &&
		       FLAG_ASYNC == 1u << 31 && FLAG_SATFINITE == 1u << 27 && FLAG_PACK == 1u << 26 &&
		       FLAG_CACHE_HINT == 1u << 25,
	       "modwords flag bit indices must match ir.h");
_Static_assert(G_COUNT <= 64, "modifier groups must fit a 64-bit mask");

/* type sets */
#define TM(x) (1u << PTX_T_##x)
#define T_I (TM(U16) | TM(U32) | TM(U64) | TM(S16) | TM(S32) | TM(S64))
#define T_I3264 (TM(U32) | TM(U64) | TM(S32) | TM(S64))
#define T_B (TM(B16) | TM(B32) | TM(B64))
#define T_FH (TM(F16) | TM(F16X2) | TM(BF16) | TM(BF16X2))
#define T_F (TM(F32) | TM(F64))
#define T_FALL (T_FH | T_F)
#define T_CMPT (T_B | T_I | T_FALL)
#define T_DATA (TM(B8) | TM(B16) | TM(B32) | TM(B64) | TM(B128) | TM(U8) | TM(U16) | TM(U32) | TM(U64) | \
		TM(S8) | TM(S16) | TM(S32) | TM(S64) | T_FALL)
#define T_CVT (TM(U8) | TM(U16) | TM(U32) | TM(U64) | TM(S8) | TM(S16) | TM(S32) | TM(S64) | T_FALL)
#define T_I16X2 (TM(U16X2) | TM(S16X2)) /* issue 16: sm_90 packed 16-bit integers */
#define T_CVT16 (TM(E4M3X2) | TM(E5M2X2) | TM(TF32) | TM(F16X2)) /* issue 16: fp8 pairs, tf32 */
#define T_ATOM (TM(B16) | TM(B32) | TM(B64) | TM(B128) | TM(U32) | TM(U64) | TM(S32) | TM(S64) | T_FALL)

enum { NT0, NT1, NT2, NT01 };
enum { REQ_CMP = 1, REQ_MODE = 2, REQ_ATOM = 4, REQ_SCOPE = 8, REQ_SPACE = 16, REQ_GEOM = 32 };

struct opsyn {
	uint64_t groups;
	uint32_t types, types2;
	uint8_t ntypes;
	uint8_t req;
	/* Operand shapes, alternatives separated by '|'.  Per position:
	 *  d dest register or vector   D dest register, "%r|%p" allowed
	 *  s register/immediate/sreg   v like s, plus symbol, function, vector
	 *  y like s, plus symbol/function   p predicate (may be "!%p") or immediate
	 *  a address   i integer immediate   l label   t .branchtargets name
	 * NULL: opcode not described, anything goes. */
	const char *opds;
};

#define ARITH_F (G(RND) | G(FTZ) | G(SAT))
static const struct opsyn opsyn[OP_COUNT] = {
	[OP_ADD] = {G(CC) | ARITH_F | G(RELU), T_I | T_FALL | T_I16X2, 0, NT1, 0, "dss"},
	[OP_ADDC] = {G(CC), T_I3264, 0, NT1, 0, "dss"},
	[OP_SUB] = {G(CC) | ARITH_F | G(RELU), T_I | T_FALL | T_I16X2, 0, NT1, 0, "dss"},
	[OP_SUBC] = {G(CC), T_I3264, 0, NT1, 0, "dss"},
	[OP_MUL] = {G(MUL) | ARITH_F, T_I | T_FALL, 0, NT1, 0, "dss"},
	[OP_MAD] = {G(MUL) | ARITH_F | G(CC), T_I | T_FALL, 0, NT1, 0, "dsss"},
	[OP_MADC] = {G(MUL) | G(CC), T_I3264, 0, NT1, REQ_MODE, "dsss"},
	[OP_MUL24] = {G(MUL), TM(U32) | TM(S32), 0, NT1, REQ_MODE, "dss"},
	[OP_MAD24] = {G(MUL) | G(SAT), TM(U32) | TM(S32), 0, NT1, REQ_MODE, "dsss"},
	[OP_SAD] = {0, T_I, 0, NT1, 0, "dsss"},
	[OP_DIV] = {G(APPROX) | G(FULL) | G(RND) | G(FTZ), T_I | T_F, 0, NT1, 0, "dss"},
	[OP_REM] = {0, T_I, 0, NT1, 0, "dss"},
	[OP_ABS] = {G(FTZ) | G(RELU), TM(S16) | TM(S32) | TM(S64) | T_FALL, 0, NT1, 0, "ds"},
	[OP_NEG] = {G(FTZ), TM(S16) | TM(S32) | TM(S64) | T_FALL, 0, NT1, 0, "ds"},
	[OP_MIN] = {G(FTZ) | G(NAN) | G(XORSIGN) | G(ABS) | G(RELU), T_I | T_FALL | T_I16X2, 0, NT1, 0, "dss|dsss"},
	[OP_MAX] = {G(FTZ) | G(NAN) | G(XORSIGN) | G(ABS) | G(RELU), T_I | T_FALL | T_I16X2, 0, NT1, 0, "dss|dsss"},
	[OP_FMA] = {ARITH_F | G(RELU), T_FALL, 0, NT1, 0, "dsss"},
	[OP_COPYSIGN] = {0, T_F, 0, NT1, 0, "dss"},
	[OP_TESTP] = {G(TESTP), T_F, 0, NT1, REQ_MODE, "ds"},
	[OP_DP4A] = {0, TM(U32) | TM(S32), TM(U32) | TM(S32), NT2, 0, "dsss"},
	[OP_DP2A] = {G(MUL), TM(U32) | TM(S32), TM(U32) | TM(S32), NT2, REQ_MODE, "dsss"},
	[OP_POPC] = {0, TM(B32) | TM(B64), 0, NT1, 0, "ds"},
	[OP_CLZ] = {0, TM(B32) | TM(B64), 0, NT1, 0, "ds"},
	[OP_BREV] = {0, TM(B32) | TM(B64), 0, NT1, 0, "ds"},
	[OP_BFE] = {0, T_I3264, 0, NT1, 0, "dsss"},
	[OP_BFI] = {0, TM(B32) | TM(B64), 0, NT1, 0, "dssss"},
	[OP_BFIND] = {G(SHIFTAMT), T_I3264, 0, NT1, 0, "ds"},
	[OP_FNS] = {0, TM(B32), 0, NT1, 0, "dsss"},
	[OP_PRMT] = {G(PRMT), TM(B32), 0, NT1, 0, "dsss"},
	[OP_AND] = {0, TM(PRED) | T_B, 0, NT1, 0, "dss"},
	[OP_OR] = {0, TM(PRED) | T_B, 0, NT1, 0, "dss"},
	[OP_XOR] = {0, TM(PRED) | T_B, 0, NT1, 0, "dss"},
	[OP_NOT] = {0, TM(PRED) | T_B, 0, NT1, 0, "ds"},
	[OP_CNOT] = {0, T_B, 0, NT1, 0, "ds"},
	[OP_LOP3] = {G(BOOL), TM(B32), 0, NT1, 0, "dsssi|Dsssip"},
	[OP_SHL] = {0, T_B, 0, NT1, 0, "dss"},
	[OP_SHR] = {0, T_B | T_I, 0, NT1, 0, "dss"},
	[OP_SHF] = {G(SHF) | G(SHFMODE), TM(B32), 0, NT1, REQ_MODE, "dsss"},
	[OP_SETP] = {G(CMP) | G(BOOL) | G(FTZ), T_CMPT, 0, NT1, REQ_CMP, "Dss|Dssp"},
	[OP_SET] = {G(CMP) | G(BOOL) | G(FTZ), TM(U32) | TM(S32) | TM(F32) | T_FH, T_CMPT, NT2, REQ_CMP, "dss|dssp"},
	[OP_SELP] = {0, T_B | T_I | T_FALL, 0, NT1, 0, "dssp"},
	[OP_SLCT] = {G(FTZ), T_B | T_I | T_F, TM(S32) | TM(F32), NT2, 0, "dsss"},
	[OP_MOV] = {G(VEC), TM(PRED) | T_B | TM(B128) | T_I | T_FALL, 0, NT1, 0, "dv"},
	[OP_CVT] = {G(RND) | G(RNDI) | G(FTZ) | G(SAT) | G(RELU) | G(CVT16), T_CVT | T_CVT16 | TM(B32), T_CVT | T_CVT16,
		    NT2, 0, "ds|dss|dsss"},
	[OP_CVTA] = {G(TO) | G(SPACE), TM(U32) | TM(U64), 0, NT1, REQ_SPACE, "dy"},
	[OP_ISSPACEP] = {G(SPACE), 0, 0, NT0, REQ_SPACE, "dy"},
	[OP_LD] = {G(SPACE) | G(VEC) | G(VOLATILE) | G(NC) | G(SEM) | G(SCOPE) | G(CACHE), T_DATA, 0, NT1, 0, "da"},
	[OP_LDU] = {G(SPACE) | G(VEC) | G(CACHE), T_DATA, 0, NT1, 0, "da"},
	[OP_ST] = {G(SPACE) | G(VEC) | G(VOLATILE) | G(SEM) | G(SCOPE) | G(CACHE), T_DATA, 0, NT1, 0, "av"},
	[OP_PREFETCH] = {G(SPACE) | G(PFLEVEL) | G(CACHE), 0, 0, NT0, 0, "a"},
	[OP_PREFETCHU] = {G(PFLEVEL), 0, 0, NT0, 0, "a"},
	[OP_ATOM] = {G(SPACE) | G(ATOM) | G(SEM) | G(SCOPE) | G(NOFTZ) | G(CACHE) | G(VEC), T_ATOM, 0, NT1, REQ_ATOM,
		     "das|dass"},
	[OP_RED] = {G(SPACE) | G(ATOM) | G(SEM) | G(SCOPE) | G(NOFTZ) | G(CACHE) | G(VEC), T_ATOM, 0, NT1, REQ_ATOM, "as"},
	/* textures and surfaces: "[h, {c}]" is parsed as two operands h and c (parse_tex_address) */
	[OP_TEX] = {G(GEOM) | G(TXLOD) | G(VEC), TM(F32) | TM(S32) | TM(U32) | TM(F16) | TM(F16X2), TM(F32) | TM(S32),
		    NT2, REQ_GEOM, "dyd|dyds|dydvv"},
	[OP_TLD4] = {G(TLD4C) | G(GEOM) | G(VEC), TM(F32) | TM(S32) | TM(U32), TM(F32), NT2, REQ_GEOM, "dyd"},
	[OP_TXQ] = {G(TXQ) | G(TXQLVL), TM(B32), 0, NT1, 0, "dy|dys"},
	[OP_SULD] = {G(SUFMT) | G(GEOM) | G(VEC) | G(SUCLAMP) | G(CACHE), TM(B8) | TM(B16) | TM(B32) | TM(B64), 0, NT1,
		     REQ_GEOM, "dyd"},
	[OP_SUST] = {G(SUFMT) | G(GEOM) | G(VEC) | G(SUCLAMP) | G(CACHE), TM(B8) | TM(B16) | TM(B32) | TM(B64), 0, NT1,
		     REQ_GEOM, "ydv"},
	[OP_SUQ] = {G(TXQ), TM(B32), 0, NT1, 0, "dy"},
	[OP_RCP] = {G(RND) | G(APPROX) | G(FTZ), T_F, 0, NT1, 0, "ds"},
	[OP_SQRT] = {G(RND) | G(APPROX) | G(FTZ), T_F, 0, NT1, 0, "ds"},
	[OP_RSQRT] = {G(APPROX) | G(FTZ), T_F, 0, NT1, 0, "ds"},
	[OP_SIN] = {G(APPROX) | G(FTZ), TM(F32), 0, NT1, 0, "ds"},
	[OP_COS] = {G(APPROX) | G(FTZ), TM(F32), 0, NT1, 0, "ds"},
	[OP_EX2] = {G(APPROX) | G(FTZ), TM(F32) | T_FH, 0, NT1, 0, "ds"},
	[OP_LG2] = {G(APPROX) | G(FTZ), TM(F32), 0, NT1, 0, "ds"},
	[OP_TANH] = {G(APPROX), TM(F32) | T_FH, 0, NT1, 0, "ds"},
	[OP_SHFL] = {G(SHFL) | G(SYNC), TM(B32), 0, NT1, REQ_MODE, "Dsss|Dssss"},
	[OP_VOTE] = {G(VOTE) | G(SYNC), TM(PRED) | TM(B32), 0, NT1, REQ_MODE, "dp|dps"},
	[OP_ACTIVEMASK] = {0, TM(B32), 0, NT1, 0, "d"},
	[OP_MATCH] = {G(MATCH) | G(SYNC), TM(B32) | TM(B64), 0, NT1, REQ_MODE, "Dss"},
	[OP_REDUX] = {G(ATOM) | G(SYNC) | G(ABS) | G(NAN), TM(U32) | TM(S32) | TM(B32) | TM(F32), 0, NT1, REQ_ATOM, "dss"},
	[OP_BAR] = {G(BAR) | G(BARWARP) | G(BARRED) | G(ALIGNED) | G(SCOPE), TM(U32) | TM(PRED), 0, NT01, REQ_MODE,
		    "s|ss|dsp|dssp"},
	[OP_BARRIER] = {G(BAR) | G(BARRED) | G(ALIGNED) | G(SCOPE), TM(U32) | TM(PRED), 0, NT01, REQ_MODE,
			"s|ss|dsp|dssp"},
	[OP_MEMBAR] = {G(MEMBAR), 0, 0, NT0, REQ_SCOPE, ""},
	[OP_FENCE] = {G(SEM) | G(SCOPE), 0, 0, NT0, REQ_SCOPE, ""},
	[OP_NANOSLEEP] = {0, TM(U32), 0, NT1, 0, "s"},
	[OP_BRA] = {G(UNI), 0, 0, NT0, 0, "l"},
	[OP_BRX] = {G(BRXIDX) | G(UNI), 0, 0, NT0, REQ_MODE, "st"},
	[OP_CALL] = {G(UNI), 0, 0, NT0, 0, ""},
	[OP_RET] = {G(UNI), 0, 0, NT0, 0, ""},
	[OP_EXIT] = {0, 0, 0, NT0, 0, ""},
	[OP_TRAP] = {0, 0, 0, NT0, 0, ""},
	[OP_BRKPT] = {0, 0, 0, NT0, 0, ""},
	[OP_PMEVENT] = {G(PMMASK), 0, 0, NT0, 0, "i"},
	/* issue 16; operand shapes per mode in check_operands */
	/* issue 16: bmsk and video instructions (types checked in check_suffixes) */
	[OP_BMSK] = {G(SHFMODE), TM(B32), 0, NT1, 0, "dss"},
	[OP_VADD] = {G(SAT) | G(ATOM), TM(U32) | TM(S32), TM(U32) | TM(S32), NT2, 0, "dss|dsss"},
	[OP_VSUB] = {G(SAT) | G(ATOM), TM(U32) | TM(S32), TM(U32) | TM(S32), NT2, 0, "dss|dsss"},
	[OP_VABSDIFF] = {G(SAT) | G(ATOM), TM(U32) | TM(S32), TM(U32) | TM(S32), NT2, 0, "dss|dsss"},
	[OP_VMIN] = {G(SAT) | G(ATOM), TM(U32) | TM(S32), TM(U32) | TM(S32), NT2, 0, "dss|dsss"},
	[OP_VMAX] = {G(SAT) | G(ATOM), TM(U32) | TM(S32), TM(U32) | TM(S32), NT2, 0, "dss|dsss"},
	[OP_VSHL] = {G(SAT) | G(ATOM) | G(SHFMODE), TM(U32) | TM(S32), TM(U32) | TM(S32), NT2, 0, "dss|dsss"},
	[OP_VSHR] = {G(SAT) | G(ATOM) | G(SHFMODE), TM(U32) | TM(S32), TM(U32) | TM(S32), NT2, 0, "dss|dsss"},
	[OP_VADD2] = {G(SAT) | G(ATOM), TM(U32) | TM(S32), TM(U32) | TM(S32), NT2, 0, "dsss"},
	[OP_VSUB2] = {G(SAT) | G(ATOM), TM(U32) | TM(S32), TM(U32) | TM(S32), NT2, 0, "dsss"},
	[OP_VAVRG2] = {G(SAT) | G(ATOM), TM(U32) | TM(S32), TM(U32) | TM(S32), NT2, 0, "dsss"},
	[OP_VABSDIFF2] = {G(SAT) | G(ATOM), TM(U32) | TM(S32), TM(U32) | TM(S32), NT2, 0, "dsss"},
	[OP_VMIN2] = {G(SAT) | G(ATOM), TM(U32) | TM(S32), TM(U32) | TM(S32), NT2, 0, "dsss"},
	[OP_VMAX2] = {G(SAT) | G(ATOM), TM(U32) | TM(S32), TM(U32) | TM(S32), NT2, 0, "dsss"},
	[OP_VADD4] = {G(SAT) | G(ATOM), TM(U32) | TM(S32), TM(U32) | TM(S32), NT2, 0, "dsss"},
	[OP_VSUB4] = {G(SAT) | G(ATOM), TM(U32) | TM(S32), TM(U32) | TM(S32), NT2, 0, "dsss"},
	[OP_VAVRG4] = {G(SAT) | G(ATOM), TM(U32) | TM(S32), TM(U32) | TM(S32), NT2, 0, "dsss"},
	[OP_VABSDIFF4] = {G(SAT) | G(ATOM), TM(U32) | TM(S32), TM(U32) | TM(S32), NT2, 0, "dsss"},
	[OP_VMIN4] = {G(SAT) | G(ATOM), TM(U32) | TM(S32), TM(U32) | TM(S32), NT2, 0, "dsss"},
	[OP_VMAX4] = {G(SAT) | G(ATOM), TM(U32) | TM(S32), TM(U32) | TM(S32), NT2, 0, "dsss"},
	[OP_CP] = {G(CPASYNC) | G(SPACE) | G(CACHE) | G(TYPE), TM(B64), 0, NT01, 0, "aai|aais|aaiss|a|i|"},
	[OP_MBARRIER] = {G(MBAR) | G(SPACE) | G(SEM) | G(SCOPE), TM(B64), 0, NT1, REQ_MODE,
			 "as|a|ds|ea|eas|eass"},
	/* createpolicy.fractional.L2::p{.L2::s}.b64 d{, fraction}; .range{.global}.L2::p{.L2::s}.b64 d, [a],
	 * primary-size, total-size; .cvt.L2.b64 d, access-property (operand shapes per mode in check_operands) */
	[OP_CREATEPOLICY] = {G(CPOL) | G(CACHE) | G(SPACE) | G(PFLEVEL), TM(B64), 0, NT1, REQ_MODE, "d|ds|dass"},
};

/* The maps of modifier words (val = first entry of the word) and opcode
 * names (val = opcode). */
bool parse_insn_maps_init(struct parser *p)
{
	for (size_t i = 0; i < NMODWORDS; i++) {
		struct strmap_slot *s = strmap_get(&p->words, modwords[i].w, strlen(modwords[i].w));
		if (!s)
			return fail_oom(p);
		if (s->val < 0)
			s->val = (int32_t)i;
	}
	for (int i = 0; i < OP_COUNT; i++) {
		struct strmap_slot *s = strmap_get(&p->opnames, ptx_opcode_table[i].name, strlen(ptx_opcode_table[i].name));
		if (!s)
			return fail_oom(p);
		s->val = i;
	}
	return true;
}

/* ------------------------------------------------------------------ */
/* instructions                                                        */
/* ------------------------------------------------------------------ */

struct sufstate {
	uint8_t ntypes;
	uint8_t types[3];
	struct ptx_token typetok[3];
	bool saw_sync, saw_warp;
	uint8_t geom, tx, txfmt;             /* texture/surface modifiers (tx, txfmt: value + 1; 0 = absent) */
	struct ptx_token fieldtok[MF_COUNT]; /* where each field was set */
	struct ptx_token flagtok[32];
};

static const char *opname(const struct ptx_insn *in) { return ptx_opcode_table[in->op].name; }

static bool set_field(struct parser *p, uint8_t *field, uint8_t val, const struct ptx_token *t, struct ptx_token *where)
{
	if (*field && *field != val)
		return fail_tok(p, t, "conflicting modifier %s", qtok(t).s);
	if (*field == val && where->kind)
		return fail_tok(p, t, "duplicate modifier %s", qtok(t).s);
	*field = val;
	*where = *t;
	return true;
}

static bool apply_suffix(struct parser *p, struct ptx_insn *in, const struct opsyn *sy, bool described,
			 const struct ptx_token *t, struct sufstate *st)
{
	const char *w = t->text + 1;
	uint32_t wl = t->len - 1;
	struct strmap_slot *s = strmap_find(&p->words, w, wl);
	const struct modword *mw = NULL;
	uint64_t allowed = described ? sy->groups | G(TYPE) : ~0ull;
	if (s) {
		for (size_t i = (size_t)s->val; i < NMODWORDS && strlen(modwords[i].w) == wl &&
						memcmp(modwords[i].w, w, wl) == 0;
		     i++) {
			if (allowed & (1ull << modwords[i].group)) {
				mw = &modwords[i];
				break;
			}
		}
		if (!mw)
			return fail_tok(p, t, "modifier %s is not valid for '%s'", qtok(t).s, opname(in));
	} else {
		bool cache = (wl > 4 && (memcmp(w, "L1::", 4) == 0 || memcmp(w, "L2::", 4) == 0)) ||
			     (wl > 7 && memcmp(w, "level::", 7) == 0);
		if (cache && (allowed & G(CACHE))) {
			if (wl == 14 && memcmp(w, "L2::cache_hint", 14) == 0)
				in->flags |= FLAG_CACHE_HINT; /* a cache-policy operand follows the others */
			return true;
		}
		if (cache)
			return fail_tok(p, t, "modifier %s is not valid for '%s'", qtok(t).s, opname(in));
		return fail_tok(p, t, "unknown modifier %s on '%s'", qtok(t).s, opname(in));
	}
	switch (mw->field) {
	case MF_TYPE:
		if (st->ntypes >= (in->op >= OP_VADD && in->op <= OP_VMAX4 ? 3 : in->op == OP_CVT && (in->flags & FLAG_PACK) ? 3 : 2))
			return fail_tok(p, t, "too many type suffixes for '%s'", opname(in));
		st->typetok[st->ntypes] = *t;
		st->types[st->ntypes++] = mw->val;
		return true;
	case MF_SPACE:
		/* cp.async.ca.shared.global: the destination space, then the source's (always .global) */
		if (in->op == OP_CP && in->space == SPACE_SHARED && mw->val == SPACE_GLOBAL)
			return true;
		return set_field(p, &in->space, mw->val, t, &st->fieldtok[MF_SPACE]);
	case MF_VEC: return set_field(p, &in->vec, mw->val, t, &st->fieldtok[MF_VEC]);
	case MF_CMP: return set_field(p, &in->cmp, mw->val, t, &st->fieldtok[MF_CMP]);
	case MF_BOOL: return set_field(p, &in->boolop, mw->val, t, &st->fieldtok[MF_BOOL]);
	case MF_RND: return set_field(p, &in->rnd, mw->val, t, &st->fieldtok[MF_RND]);
	case MF_ATOM: return set_field(p, &in->atomop, mw->val, t, &st->fieldtok[MF_ATOM]);
	case MF_MODE: return set_field(p, &in->mode, mw->val, t, &st->fieldtok[MF_MODE]);
	case MF_SEM: return set_field(p, &in->sem, mw->val, t, &st->fieldtok[MF_SEM]);
	case MF_SCOPE: return set_field(p, &in->scope, mw->val, t, &st->fieldtok[MF_SCOPE]);
	case MF_FLAG:
		if (in->flags & (1u << mw->val))
			return fail_tok(p, t, "duplicate modifier %s", qtok(t).s);
		in->flags |= 1u << mw->val;
		st->flagtok[mw->val] = *t;
		return true;
	case MF_SYNC:
		if (st->saw_sync)
			return fail_tok(p, t, "duplicate modifier %s", qtok(t).s);
		st->saw_sync = true;
		return true;
	case MF_GEOM: return set_field(p, &st->geom, mw->val, t, &st->fieldtok[MF_GEOM]);
	case MF_TX: return set_field(p, &st->tx, (uint8_t)(mw->val + 1), t, &st->fieldtok[MF_TX]);
	case MF_TXFMT: return set_field(p, &st->txfmt, (uint8_t)(mw->val + 1), t, &st->fieldtok[MF_TXFMT]);
	case MF_WARP:
		if (st->saw_warp)
			return fail_tok(p, t, "duplicate modifier %s", qtok(t).s);
		st->saw_warp = true;
		st->fieldtok[MF_WARP] = *t;
		return true;
	default:
		if (mw->val == 1) /* a known form warpsim does not implement: say so plainly */
			return fail_tok(p, t, "'%s' with %s (sm_90 tensor-memory-accelerator transfers) is not supported",
					opname(in), qtok(t).s);
		return true;
	}
}

/* Texture/surface modifiers: geometry, level-of-detail, component, format, clamp, query. */
static bool check_tex_suffixes(struct parser *p, struct ptx_insn *in, const struct opsyn *sy, const struct sufstate *st,
			       const struct ptx_token *mn)
{
	const char *on = opname(in);
	in->geom = st->geom;
	in->tx = st->tx ? (uint8_t)(st->tx - 1) : 0;
	if ((sy->req & REQ_GEOM) && !st->geom)
		return fail_tok(p, mn, "'%s' needs a geometry (.1d, .2d, .3d, .a1d, .a2d, .cube, .acube, ...)", on);
	switch (in->op) {
	case OP_TLD4:
		if (!st->tx)
			return fail_tok(p, mn, "'tld4' needs a component (.r, .g, .b or .a)");
		if (st->geom != GEOM_2D && st->geom != GEOM_A2D && st->geom != GEOM_CUBE && st->geom != GEOM_ACUBE)
			return fail_tok(p, &st->fieldtok[MF_GEOM], "'tld4' needs geometry .2d, .a2d, .cube or .acube");
		break;
	case OP_SULD:
	case OP_SUST:
		if (!st->txfmt)
			return fail_tok(p, mn, "'%s' needs .b or .p", on);
		if (st->txfmt - 1 == TX_FORMATTED)
			in->tx |= TX_FORMATTED;
		if (st->geom == GEOM_CUBE || st->geom == GEOM_ACUBE || st->geom == GEOM_2DMS || st->geom == GEOM_A2DMS)
			return fail_tok(p, &st->fieldtok[MF_GEOM], "'%s' takes geometry .1d, .2d, .3d, .a1d or .a2d", on);
		break;
	case OP_TXQ:
	case OP_SUQ:
		if (!st->tx)
			return fail_tok(p, mn, "'%s' needs a query (.width, .height, .depth, ...)", on);
		if (st->txfmt && in->tx != TXQ_WIDTH && in->tx != TXQ_HEIGHT && in->tx != TXQ_DEPTH)
			return fail_tok(p, &st->fieldtok[MF_TX], "'txq.level' takes only .width, .height or .depth");
		break;
	default:
		break;
	}
	return true;
}

/* Checks of the suffix combination that the tables cannot express. */
static bool check_suffixes(struct parser *p, struct ptx_insn *in, const struct opsyn *sy, bool described,
			   struct sufstate *st, const struct ptx_token *mn)
{
	const char *on = opname(in);
	if (!in->vec)
		in->vec = 1;
	if (st->ntypes > 0)
		in->type = st->types[0];
	if (st->ntypes > 1)
		in->type2 = st->types[1];
	if (st->ntypes > 2)
		in->type3 = st->types[2];
	if (!described)
		return true;
	/* number and validity of types */
	unsigned want_min = sy->ntypes == NT2 ? 2 : sy->ntypes == NT1 ? 1 : 0;
	unsigned want_max = sy->ntypes == NT2 ? (in->op >= OP_VADD && in->op <= OP_VMAX4 ? 3 : in->op == OP_CVT && (in->flags & FLAG_PACK) ? 3 : 2) : sy->ntypes == NT0 ? 0 : 1;
	if (st->ntypes > want_max) {
		const struct ptx_token *tt = &st->typetok[want_max];
		if (want_max == 0)
			return fail_tok(p, tt, "type %s is not valid for '%s'", qtok(tt).s, on);
		return fail_tok(p, tt, "too many type suffixes for '%s'", on);
	}
	if (st->ntypes < want_min)
		return fail_tok(p, mn, "'%s' needs %s type suffix%s", on, want_min == 2 ? "two" : "a", want_min == 2 ? "es" : "");
	if (st->ntypes >= 1 && !(sy->types & (1u << st->types[0])))
		return fail_tok(p, &st->typetok[0], "type %s is not valid for '%s'", qtok(&st->typetok[0]).s, on);
	if (in->op >= OP_VADD && in->op <= OP_VMAX4) { /* video: dtype.atype.btype, each .u32 or .s32 */
		if (st->ntypes != 3)
			return fail_tok(p, mn, "'%s' needs three types (.dtype.atype.btype, e.g. .u32.u32.u32)", on);
		for (unsigned k = 0; k < 3; k++)
			if (st->types[k] != PTX_T_U32 && st->types[k] != PTX_T_S32)
				return fail_tok(p, &st->typetok[k], "type %s is not valid for '%s' (.u32 or .s32)",
						qtok(&st->typetok[k]).s, on);
	}
	if (st->ntypes >= 2 && !(sy->types2 & (1u << st->types[1])))
		return fail_tok(p, &st->typetok[1], "type %s is not valid for '%s'", qtok(&st->typetok[1]).s, on);
	/* required sub-operations */
	if ((sy->req & REQ_CMP) && !in->cmp)
		return fail_tok(p, mn, "'%s' needs a comparison operator (.eq, .lt, ...)", on);
	if ((sy->req & REQ_ATOM) && !in->atomop)
		return fail_tok(p, mn, "'%s' needs an operation (.add, .min, ...)", on);
	if ((sy->req & REQ_SCOPE) && !in->scope)
		return fail_tok(p, mn, "'%s' needs a scope (.cta, .gpu, .sys%s)", on, in->op == OP_MEMBAR ? ", .gl" : "");
	if ((sy->req & REQ_SPACE) && !in->space)
		return fail_tok(p, mn, "'%s' needs a state space (.global, .shared, ...)", on);
	if (!check_tex_suffixes(p, in, sy, st, mn))
		return false;
	if (in->op == OP_CP && !(in->flags & FLAG_ASYNC))
		return fail_tok(p, mn, "'cp' needs .async (cp.async is the only cp form implemented)");
	if (in->op == OP_CP && in->mode == MODE_NONE && (in->space != SPACE_SHARED || in->type))
		return fail_tok(p, mn, "cp.async copies need .shared.global and no type (cp.async.ca.shared.global)");
	if (in->op == OP_MBARRIER && in->space != SPACE_NONE && in->space != SPACE_SHARED)
		return fail_tok(p, &st->fieldtok[MF_SPACE], "mbarrier objects live in .shared memory");
	if (st->saw_warp) {
		if (in->mode != MODE_SYNC)
			return fail_tok(p, &st->fieldtok[MF_WARP], "'.warp' must be followed by '.sync'");
		in->mode = MODE_WARP_SYNC;
	}
	if ((sy->req & REQ_MODE) && !in->mode) {
		const char *what = "a mode";
		switch (in->op) {
		case OP_SHFL: what = ".up, .down, .bfly or .idx"; break;
		case OP_VOTE: what = ".all, .any, .uni or .ballot"; break;
		case OP_MATCH: what = ".any or .all"; break;
		case OP_BAR:
		case OP_BARRIER: what = ".sync, .arrive or .red"; break;
		case OP_SHF: what = ".l or .r"; break;
		case OP_TESTP: what = ".finite, .infinite, .number, .notanumber, .normal or .subnormal"; break;
		case OP_BRX: what = ".idx"; break;
		case OP_MBARRIER: what = ".init, .arrive, .arrive_drop, .test_wait, .try_wait, .inval or .pending_count"; break;
		default: what = ".lo or .hi"; break;
		}
		return fail_tok(p, mn, "'%s' needs %s", on, what);
	}
	bool flt = ptx_type_is_float(in->type);
	bool single_type = sy->ntypes == NT1;
	/* float-only modifiers on integer instructions */
	if (single_type && !flt && in->type != PTX_T_NONE) {
		if (in->rnd)
			return fail_tok(p, &st->fieldtok[MF_RND], "modifier %s is not valid with type .%s",
					qtok(&st->fieldtok[MF_RND]).s, ptx_type_name[in->type]);
		static const uint8_t fbits[] = {0 /* ftz */, 2 /* approx */, 3 /* full */};
		for (size_t i = 0; i < sizeof(fbits); i++)
			if (in->flags & (1u << fbits[i]) && in->op != OP_ATOM && in->op != OP_RED)
				return fail_tok(p, &st->flagtok[fbits[i]], "modifier %s is not valid with type .%s",
						qtok(&st->flagtok[fbits[i]]).s, ptx_type_name[in->type]);
	}
	if ((in->flags & FLAG_CC) && flt)
		return fail_tok(p, &st->flagtok[4], "modifier '.cc' is not valid with type .%s", ptx_type_name[in->type]);
	switch (in->op) {
	case OP_MUL:
	case OP_MAD:
		if (flt && in->mode)
			return fail_tok(p, &st->fieldtok[MF_MODE], "modifier %s is not valid with type .%s",
					qtok(&st->fieldtok[MF_MODE]).s, ptx_type_name[in->type]);
		if (!flt && !in->mode)
			return fail_tok(p, mn, "'%s' with an integer type needs .lo, .hi or .wide", on);
		if ((in->flags & FLAG_CC) && in->mode == MODE_WIDE)
			return fail_tok(p, &st->flagtok[4], "'.cc' is not valid with '.wide'");
		break;
	case OP_MADC:
	case OP_MUL24:
	case OP_MAD24:
	case OP_DP2A:
		if (in->mode == MODE_WIDE)
			return fail_tok(p, &st->fieldtok[MF_MODE], "modifier '.wide' is not valid for '%s'", on);
		break;
	case OP_SETP:
	case OP_SET: {
		uint8_t ct = in->op == OP_SET ? in->type2 : in->type;
		bool cf = ptx_type_is_float(ct);
		bool float_cmp = in->cmp >= CMP_EQU;
		bool uns_cmp = in->cmp >= CMP_LO && in->cmp <= CMP_HS;
		if ((float_cmp && !cf) || (uns_cmp && cf))
			return fail_tok(p, &st->fieldtok[MF_CMP], "comparison %s is not valid with type .%s",
					qtok(&st->fieldtok[MF_CMP]).s, ptx_type_name[ct]);
		if ((in->flags & FLAG_FTZ) && !cf)
			return fail_tok(p, &st->flagtok[0], "modifier '.ftz' is not valid with type .%s", ptx_type_name[ct]);
		break;
	}
	case OP_CVT:
		if (in->rnd >= RND_RNI && !ptx_type_is_float(in->type2))
			return fail_tok(p, &st->fieldtok[MF_RND], "integer rounding %s needs a floating-point source",
					qtok(&st->fieldtok[MF_RND]).s);
		break;
	case OP_VOTE:
		if ((in->mode == MODE_BALLOT) != (in->type == PTX_T_B32))
			return fail_tok(p, &st->typetok[0], "'vote%s' needs type .%s", in->mode == MODE_BALLOT ? ".ballot" : "",
					in->mode == MODE_BALLOT ? "b32" : "pred");
		break;
	case OP_BAR:
	case OP_BARRIER:
		if (in->mode == MODE_RED) {
			if (!in->atomop)
				return fail_tok(p, mn, "'%s.red' needs .popc, .and or .or", on);
			uint8_t want = in->atomop == AOP_POPC ? PTX_T_U32 : PTX_T_PRED;
			if (in->type != want)
				return fail_tok(p, st->ntypes ? &st->typetok[0] : mn, "'%s.red%s' needs type .%s", on,
						in->atomop == AOP_POPC ? ".popc" : in->atomop == AOP_AND ? ".and" : ".or",
						ptx_type_name[want]);
		} else {
			if (in->atomop)
				return fail_tok(p, &st->fieldtok[MF_ATOM], "modifier %s is only valid with '.red'",
						qtok(&st->fieldtok[MF_ATOM]).s);
			if (st->ntypes)
				return fail_tok(p, &st->typetok[0], "type %s is only valid with '.red'", qtok(&st->typetok[0]).s);
		}
		break;
	case OP_ATOM:
	case OP_RED:
		if (in->space && in->space != SPACE_GLOBAL && in->space != SPACE_SHARED &&
		    in->space != SPACE_SHARED_CLUSTER)
			return fail_tok(p, &st->fieldtok[MF_SPACE], "state space %s is not valid for '%s'",
					qtok(&st->fieldtok[MF_SPACE]).s, on);
		break;
	case OP_CVTA:
	case OP_ISSPACEP:
		if (in->space == SPACE_PARAM && in->op == OP_CVTA)
			break;
		if (in->space != SPACE_GLOBAL && in->space != SPACE_SHARED && in->space != SPACE_LOCAL &&
		    in->space != SPACE_CONST && in->space != SPACE_PARAM && in->space != SPACE_SHARED_CLUSTER)
			return fail_tok(p, &st->fieldtok[MF_SPACE], "state space %s is not valid for '%s'",
					qtok(&st->fieldtok[MF_SPACE]).s, on);
		break;
	default:
		break;
	}
	return true;
}

/* Does operand o fit pattern character c?  Returns NULL if so, else what was expected. */
static const char *opd_fit(char c, const struct ptx_operand *o)
{
	bool reg = o->kind == OPD_REG && !o->neg && o->reg2 < 0;
	bool scal = reg || o->kind == OPD_IMM || o->kind == OPD_SREG;
	switch (c) {
	case 'd': return reg || o->kind == OPD_VEC ? NULL : "a destination register";
	case 'D': return (o->kind == OPD_REG && !o->neg) || (o->kind == OPD_SINK && o->reg2 >= 0) ? NULL : "a destination register";
	case 'e': return reg || o->kind == OPD_SINK ? NULL : "a destination register or '_'";
	case 's': return scal ? NULL : "a register or immediate";
	case 'v': return scal || o->kind == OPD_SYM || o->kind == OPD_FUNC || o->kind == OPD_VEC ? NULL : "a value";
	case 'y': return scal || o->kind == OPD_SYM || o->kind == OPD_FUNC ? NULL : "a register, immediate or symbol";
	case 'p': return (o->kind == OPD_REG && o->reg2 < 0) || o->kind == OPD_IMM ? NULL : "a predicate";
	case 'a': return o->kind == OPD_ADDR ? NULL : "an address [...]";
	case 'i': return o->kind == OPD_IMM && o->imm_kind == IMM_INT ? NULL : "an integer immediate";
	case 'l': return o->kind == OPD_LABEL ? NULL : "a label";
	case 't': return o->kind == OPD_LIST ? NULL : "a .branchtargets name";
	default: return "nothing";
	}
}

struct opdpos {
	uint32_t line, col;
};

static bool check_operands(struct parser *p, struct ptx_insn *in, const char *pat, const struct opdpos *pos,
			   const struct ptx_token *mn)
{
	const char *on = opname(in);
	/* choose the alternatives that apply to this form */
	if (in->op == OP_BAR || in->op == OP_BARRIER) {
		pat = in->mode == MODE_SYNC ? "s|ss" : in->mode == MODE_ARRIVE ? "ss" : in->mode == MODE_RED ? "dsp|dssp" : "s";
	}
	if (in->op == OP_CP) /* cp.async [dst], [src], cp-size{, src-size}{, cache-policy} and the group forms */
		pat = in->mode == MODE_NONE ? "aai|aais|aaiss" : in->mode == MODE_WAIT_GROUP ? "i"
			: in->mode == MODE_CP_MBAR_ARRIVE ? "a" : "";
	if (in->op == OP_CREATEPOLICY)
		pat = in->mode == MODE_RANGE ? "dass" : in->mode == MODE_FRACTIONAL ? "d|ds" : "ds";
	if (in->op == OP_MBARRIER) /* state/done destinations may be "_" */
		pat = in->mode == MODE_INIT ? "as" : in->mode == MODE_INVAL ? "a"
			: in->mode == MODE_PENDING_COUNT ? "ds"
			: in->mode == MODE_TEST_WAIT || in->mode == MODE_TRY_WAIT ? "eas|eass"
			: "ea|eas";
	const char *first_len_match = NULL;
	char counts[64];
	size_t nc = 0;
	counts[0] = 0;
	for (const char *a = pat;;) {
		const char *e = strchr(a, '|');
		size_t n = e ? (size_t)(e - a) : strlen(a);
		if (n == in->nopd) {
			bool ok = true;
			for (size_t i = 0; i < n && ok; i++)
				ok = opd_fit(a[i], &in->opd[i]) == NULL;
			if (ok)
				return true;
			if (!first_len_match)
				first_len_match = a;
		}
		if (nc + 8 < sizeof(counts))
			nc += (size_t)snprintf(counts + nc, sizeof(counts) - nc, "%s%zu", nc ? " or " : "", n);
		if (!e)
			break;
		a = e + 1;
	}
	if (!first_len_match)
		return fail_tok(p, mn, "'%s' expects %s operand%s, got %u", on, counts, strcmp(counts, "1") ? "s" : "",
				in->nopd);
	for (unsigned i = 0; i < in->nopd; i++) {
		const char *why = opd_fit(first_len_match[i], &in->opd[i]);
		if (why) {
			const struct ptx_operand *o = &in->opd[i];
			if (o->kind == OPD_REG && o->reg2 >= 0 && first_len_match[i] != 'D')
				return fail_at(p, pos[i].line, pos[i].col, "operand %u of '%s' cannot be a '|' pair", i + 1, on);
			if (o->kind == OPD_REG && o->neg)
				return fail_at(p, pos[i].line, pos[i].col, "operand %u of '%s' cannot be negated", i + 1, on);
			return fail_at(p, pos[i].line, pos[i].col, "operand %u of '%s' must be %s", i + 1, on, why);
		}
	}
	return true;
}

static bool check_operand_details(struct parser *p, struct ptx_insn *in, const struct opdpos *pos,
				  const struct ptx_token *mn, const struct sufstate *st)
{
	const char *on = opname(in);
	struct ptx_function *f = cur(p);
	switch (in->op) {
	case OP_SETP:
	case OP_SET:
		if ((in->boolop != 0) != (in->nopd == 4))
			return fail_tok(p, mn, in->boolop ? "'%s' with .and/.or/.xor needs a fourth (predicate) operand"
							  : "'%s' takes a fourth operand only with .and/.or/.xor",
					on);
		if (in->op == OP_SETP) {
			if (in->opd[0].kind != OPD_REG || f->regs[in->opd[0].reg].type != PTX_T_PRED)
				return fail_at(p, pos[0].line, pos[0].col, "destination of 'setp' must be a .pred register");
		}
		break;
	case OP_SHFL:
		if (st->saw_sync != (in->nopd == 5))
			return fail_tok(p, mn, st->saw_sync ? "'shfl.sync' needs 5 operands (d, a, b, c, membermask)"
							    : "'shfl' without .sync takes 4 operands");
		break;
	case OP_VOTE:
		if (st->saw_sync != (in->nopd == 3))
			return fail_tok(p, mn, st->saw_sync ? "'vote.sync' needs 3 operands (d, p, membermask)"
							    : "'vote' without .sync takes 2 operands");
		break;
	case OP_MATCH:
	case OP_REDUX:
		if (!st->saw_sync)
			return fail_tok(p, mn, "'%s' needs .sync", on);
		break;
	case OP_LOP3:
		if ((in->boolop != 0) != (in->nopd == 6))
			return fail_tok(p, mn, in->boolop ? "'lop3.%s' needs 6 operands (d|p, a, b, c, immLut, q)"
							  : "'lop3' takes 5 operands%s",
					in->boolop ? (in->boolop == BOOL_AND ? "and" : "or") : "");
		if (in->boolop == BOOL_XOR)
			return fail_tok(p, mn, "'lop3' accepts only .and or .or");
		break;
	case OP_CVT: {
		if (in->flags & FLAG_PACK) { /* cvt.pack.sat.{u8,s8,u16,s16}.s32.b32 d, a, b{, c} */
			bool bytes = in->type == PTX_T_U8 || in->type == PTX_T_S8;
			if (!(in->flags & FLAG_SAT) || in->type2 != PTX_T_S32 ||
			    (!bytes && in->type != PTX_T_U16 && in->type != PTX_T_S16) || (bytes != (in->nopd == 4)) ||
			    (bytes && in->type3 != PTX_T_B32))
				return fail_tok(p, mn, "cvt.pack needs .sat.{u16,s16}.s32 d, a, b or .sat.{u8,s8}.s32.b32 d, a, b, c");
			break;
		}
		bool pack = in->type == PTX_T_F16X2 || in->type == PTX_T_BF16X2 || in->type == PTX_T_E4M3X2 ||
			    in->type == PTX_T_E5M2X2;
		if (pack && (in->type2 == PTX_T_F16X2 || in->type2 == PTX_T_E4M3X2 || in->type2 == PTX_T_E5M2X2))
			pack = false; /* a packed source: one operand */
		if (pack != (in->nopd == 3))
			return fail_tok(p, mn, pack ? "'cvt' to .%s needs two sources" : "'cvt' to .%s takes one source",
					ptx_type_name[in->type]);
		break;
	}
	case OP_ATOM:
		if ((in->atomop == AOP_CAS) != (in->nopd == 4))
			return fail_tok(p, mn, in->atomop == AOP_CAS ? "'atom.cas' needs 4 operands" : "'atom' takes 3 operands");
		break;
	case OP_LD:
	case OP_LDU:
	case OP_ST: {
		unsigned k = in->op == OP_ST ? 1 : 0;
		const struct ptx_operand *o = &in->opd[k];
		if (in->vec > 1 && (o->kind != OPD_VEC || o->nelem != in->vec))
			return fail_at(p, pos[k].line, pos[k].col, "'.v%u' needs a vector of %u elements", in->vec, in->vec);
		if (in->vec == 1 && o->kind == OPD_VEC)
			return fail_at(p, pos[k].line, pos[k].col, "vector operand needs '.v2' or '.v4'");
		if (in->op == OP_ST && o->kind != OPD_VEC && o->kind != OPD_REG && o->kind != OPD_IMM &&
		    !(o->kind == OPD_SREG && o->sreg == SREG_WARP_SZ)) /* WARP_SZ: a constant, as ptxas takes it */
			return fail_at(p, pos[k].line, pos[k].col, "operand 2 of 'st' must be a register, an immediate or WARP_SZ");
		break;
	}
	case OP_TXQ:
		if ((in->nopd == 3) != (st->txfmt != 0))
			return fail_tok(p, mn, st->txfmt ? "'txq.level' needs a level operand" : "'txq' takes a level operand only with .level");
		break;
	case OP_TLD4:
	case OP_SULD:
	case OP_SUST: {
		unsigned k = in->op == OP_SUST ? 1 : 2;
		static const uint8_t need[GEOM_COUNT] = {0, 1, 2, 4, 2, 4, 4, 4, 4, 4};
		if (in->nopd > k && (in->opd[k].kind != OPD_VEC || in->opd[k].nelem != need[in->geom]))
			return fail_at(p, pos[k].line, pos[k].col, "geometry .%s needs %u coordinate%s {...}",
					ptx_geom_name[in->geom], need[in->geom], need[in->geom] > 1 ? "s" : "");
		if (in->op == OP_SUST && in->opd[2].kind != OPD_VEC)
			return fail_at(p, pos[2].line, pos[2].col, "the value of 'sust' must be a vector {...}");
		if (in->op != OP_TEX && in->vec > 1 && in->opd[in->op == OP_SUST ? 2 : 0].nelem != in->vec)
			return fail_tok(p, mn, "'.v%u' needs a vector of %u elements", in->vec, in->vec);
		if (in->op == OP_TLD4 && in->vec != 4)
			return fail_tok(p, mn, "'tld4' needs .v4");
		break;
	}
	case OP_TEX: {
		static const uint8_t need[GEOM_COUNT] = {0, 1, 2, 4, 2, 4, 4, 4, 4, 4};
		if (in->nopd >= 3 && (in->opd[2].kind != OPD_VEC || in->opd[2].nelem != need[in->geom]))
			return fail_at(p, pos[2].line, pos[2].col, "geometry .%s needs %u coordinate%s {...}",
					ptx_geom_name[in->geom], need[in->geom], need[in->geom] > 1 ? "s" : "");
		if (in->vec != 4 || in->opd[0].kind != OPD_VEC || in->opd[0].nelem != 4)
			return fail_at(p, pos[0].line, pos[0].col, "'tex' needs .v4 and a destination vector of 4 elements");
		unsigned want = in->tx == TX_LEVEL ? 4 : in->tx == TX_GRAD ? 5 : 3;
		if (in->nopd != want)
			return fail_tok(p, mn, "'tex%s' expects %u operands ([handle, {coordinates}] counting as two), got %u",
					in->tx == TX_LEVEL ? ".level" : in->tx == TX_GRAD ? ".grad" : "", want, in->nopd);
		break;
	}
	case OP_MOV:
		/* mov.v2/.v4 between vectors (vector registers) copies element-wise */
		if (in->opd[0].kind == OPD_VEC && in->opd[1].kind == OPD_VEC &&
		    (in->vec == 1 || in->opd[0].nelem != in->vec || in->opd[1].nelem != in->vec))
			return fail_at(p, pos[1].line, pos[1].col, "'mov' cannot have vectors on both sides (except mov.v2/.v4 of equal vectors)");
		for (unsigned k = 0; k < 2; k++) {
			const struct ptx_operand *o = &in->opd[k];
			if (o->kind == OPD_VEC && o->nelem != 2 && o->nelem != 4)
				return fail_at(p, pos[k].line, pos[k].col, "vector operand of 'mov' needs 2 or 4 elements");
		}
		break;
	default:
		break;
	}
	/* vector destinations hold registers or sinks only */
	for (unsigned k = 0; k < in->nopd; k++) {
		const struct ptx_operand *o = &in->opd[k];
		if (o->kind != OPD_VEC)
			continue;
		bool dest = (k == 0 && in->op != OP_ST);
		for (unsigned e = 0; e < o->nelem; e++)
			if (dest && o->elem[e].kind == OPD_IMM)
				return fail_at(p, pos[k].line, pos[k].col, "a destination vector cannot contain immediates");
	}
	/* predicate source operands must be .pred registers */
	for (unsigned k = 0; k < in->nopd; k++) {
		const struct ptx_operand *o = &in->opd[k];
		if (o->kind == OPD_REG && o->neg && f->regs[o->reg].type != PTX_T_PRED)
			return fail_at(p, pos[k].line, pos[k].col, "only .pred registers can be negated");
	}
	return true;
}

/* ---- register operand types (PTX ISA "Operand Type Information", "Type
 * Checking Rules") ----
 * A register's declared type must be compatible with the type the
 * instruction gives its operand: the same size, and
 *   .bN instruction type: a register of any kind (.b/.u/.s/.f);
 *   .uN/.sN: a .b, .u or .s register;  .fN (.f16, .bf16, .f16x2...): .b or .f;
 *   .pred: a .pred register, and a .pred register nowhere else.
 * ld, st and cvt relax the size ("Operand Size Exceeding Instruction-Type
 * Size"): a .b, .u or .s register may be wider than the type, a .f register
 * only for a .b type.  Checked only for instructions whose operand types are fixed by
 * the type suffixes (the table in check_operand_types); types with no
 * register of their own (.b128, .tf32, .e4m3x2, .u16x2...) are not checked.
 * Each rule was checked against ptxas (what it rejects with "Arguments
 * mismatch"); no form ptxas accepts is refused. */
enum tkind { TK_SKIP, TK_PRED, TK_B, TK_U, TK_S, TK_F };

static enum tkind type_kind(unsigned t)
{
	switch (t) {
	case PTX_T_PRED: return TK_PRED;
	case PTX_T_B8: case PTX_T_B16: case PTX_T_B32: case PTX_T_B64: return TK_B;
	case PTX_T_U8: case PTX_T_U16: case PTX_T_U32: case PTX_T_U64: return TK_U;
	case PTX_T_S8: case PTX_T_S16: case PTX_T_S32: case PTX_T_S64: return TK_S;
	case PTX_T_F16: case PTX_T_F16X2: case PTX_T_BF16: case PTX_T_BF16X2: case PTX_T_F32: case PTX_T_F64: return TK_F;
	default: return TK_SKIP;
	}
}

/* May a register of type rt stand where the instruction type it goes?  `wider`: ld/st/cvt's relaxation. */
static bool reg_type_fits(unsigned it, unsigned rt, bool wider)
{
	enum tkind ik = type_kind(it), rk = type_kind(rt);
	if (ik == TK_SKIP || rk == TK_SKIP)
		return true;
	if (ik == TK_PRED || rk == TK_PRED)
		return ik == rk;
	if (ik == TK_U || ik == TK_S) {
		if (rk == TK_F)
			return false;
	} else if (ik == TK_F && (rk == TK_U || rk == TK_S)) {
		return false;
	}
	if (wider && (rk != TK_F || ik == TK_B)) /* a .f register only for a .b type (ld.b16 into .f32) */
		return ptx_type_size[rt] >= ptx_type_size[it];
	return ptx_type_size[rt] == ptx_type_size[it];
}

/* The type of twice the size (mul.wide/mad.wide destinations). */
static unsigned wide_type(unsigned t)
{
	switch (t) {
	case PTX_T_U16: return PTX_T_U32;
	case PTX_T_U32: return PTX_T_U64;
	case PTX_T_S16: return PTX_T_S32;
	case PTX_T_S32: return PTX_T_S64;
	default: return PTX_T_NONE;
	}
}

static bool opd_type_fits(struct parser *p, const struct ptx_insn *in, const struct opdpos *pos, unsigned k,
			  unsigned it, bool wider)
{
	const struct ptx_function *f = cur(p);
	const struct ptx_operand *o = &in->opd[k];
	int32_t regs[PTX_MAX_VEC];
	unsigned n = 0;
	if (o->kind == OPD_REG)
		regs[n++] = o->reg;
	else if (o->kind == OPD_VEC)
		for (unsigned e = 0; e < o->nelem; e++)
			if (o->elem[e].kind == OPD_REG)
				regs[n++] = o->elem[e].reg;
	for (unsigned e = 0; e < n; e++) {
		unsigned rt = f->regs[regs[e]].type;
		if (!reg_type_fits(it, rt, wider))
			return fail_at(p, pos[k].line, pos[k].col,
				       "operand %u of '%s' is %s, a .%s register, which does not fit the instruction type .%s%s",
				       k + 1, opname(in), f->regs[regs[e]].name, ptx_type_name[rt], ptx_type_name[it],
				       type_kind(it) == TK_PRED || type_kind(rt) == TK_PRED ? ""
				       : wider ? " (it may be wider, but not narrower or, for a typed load, store or cvt, a wider .f)"
					       : " (the same size is needed)");
	}
	return true;
}

/* Type of operand k of `in` by its position, or PTX_T_NONE when not checked;
 * *wider: ld/st/cvt's relaxation applies. */
static unsigned opd_expected_type(const struct ptx_insn *in, unsigned k, bool *wider)
{
	*wider = false;
	unsigned t = in->type;
	switch (in->op) {
	case OP_ADD: case OP_SUB: case OP_ADDC: case OP_SUBC: case OP_MUL24: case OP_MAD24: case OP_SAD:
	case OP_DIV: case OP_REM: case OP_ABS: case OP_NEG: case OP_MIN: case OP_MAX: case OP_FMA:
	case OP_COPYSIGN: case OP_AND: case OP_OR: case OP_XOR: case OP_NOT: case OP_CNOT: case OP_RCP:
	case OP_SQRT: case OP_RSQRT: case OP_SIN: case OP_COS: case OP_EX2: case OP_LG2: case OP_TANH:
		return t;
	case OP_MUL:
	case OP_MAD: /* .wide: d (and mad's c) twice the size */
		if (in->mode == MODE_WIDE && (k == 0 || k == 3))
			return wide_type(t);
		return t;
	case OP_SHL:
	case OP_SHR: /* the shift amount is 32-bit */
		return k == 2 ? PTX_T_U32 : t;
	case OP_SETP: /* d pred (a '|' pair's second: checked when parsed), a, b, {!}c pred */
		return k == 0 || k == 3 ? PTX_T_PRED : t;
	case OP_SELP:
		return k == 3 ? PTX_T_PRED : t;
	case OP_MOV: /* register to register (vectors pack or unpack: not checked) */
		return in->vec == 1 && in->opd[0].kind == OPD_REG && in->opd[1].kind == OPD_REG ? t : PTX_T_NONE;
	case OP_CVT:
		if ((in->flags & FLAG_PACK) || in->nopd != 2)
			return PTX_T_NONE;
		*wider = true;
		return k == 0 ? t : in->type2;
	case OP_LD:
	case OP_LDU:
		*wider = true;
		return k == 0 ? t : PTX_T_NONE;
	case OP_ST:
		*wider = true;
		return k == 1 ? t : PTX_T_NONE;
	default:
		return PTX_T_NONE;
	}
}

static bool check_operand_types(struct parser *p, const struct ptx_insn *in, const struct opdpos *pos)
{
	for (unsigned k = 0; k < in->nopd; k++) {
		bool wider;
		unsigned it = opd_expected_type(in, k, &wider);
		if (it != PTX_T_NONE && !opd_type_fits(p, in, pos, k, it, wider))
			return false;
	}
	return true;
}

/* Suffixes of the tensor-core instructions (wmma, mma, ldmatrix, stmatrix).
 * They have their own grammar (shapes, layouts, up to four types), so they
 * are read here rather than through the modifier table; which combinations
 * are implemented is checked at load time (func/exec_tensor.c). */
static bool tc_word(const char *w, uint32_t wl, const char *s) { return strlen(s) == wl && memcmp(w, s, wl) == 0; }

static bool parse_tc_suffixes(struct parser *p, struct ptx_insn *in, const struct ptx_token *mn)
{
	struct ptx_tc *tc = &in->tc;
	uint8_t types[4];
	unsigned ntypes = 0, nlayout = 0;
	bool sync = false, aligned = false;
	unsigned nseen = 0;
	const char *on = ptx_opcode_table[in->op].name;
	while (peek(p, 0)->kind == PTX_TOK_DIRECTIVE && !peek(p, 0)->space_before) {
		struct ptx_token t = next(p);
		const char *w = t.text + 1;
		uint32_t wl = t.len - 1;
		if (in->op == OP_WMMA_MMA && nseen++ == 0) {
			if (!tc_word(w, wl, "load") && !tc_word(w, wl, "store") && !tc_word(w, wl, "mma"))
				return fail_tok(p, &t, "'wmma' needs .load, .store or .mma, got %s", qtok(&t).s);
			in->op = tc_word(w, wl, "load") ? OP_WMMA_LOAD : tc_word(w, wl, "store") ? OP_WMMA_STORE : OP_WMMA_MMA;
			in->unit = (uint8_t)ptx_opcode_table[in->op].unit;
			in->lat = (uint8_t)ptx_opcode_table[in->op].lat;
			on = ptx_opcode_table[in->op].name;
			if (in->op == OP_WMMA_MMA)
				tc->num = 1; /* '.mma' seen */
			continue;
		}
		if ((in->op == OP_WMMA_LOAD || in->op == OP_WMMA_STORE) && !tc->frag && wl == 1 && w[0] >= 'a' && w[0] <= 'd') {
			tc->frag = (uint8_t)(TCF_A + (w[0] - 'a'));
			if ((in->op == OP_WMMA_LOAD) != (tc->frag != TCF_D))
				return fail_tok(p, &t, "'%s' cannot move matrix %s", in->op == OP_WMMA_LOAD ? "wmma.load" : "wmma.store",
						qtok(&t).s);
			continue;
		}
		if (tc_word(w, wl, "sync") && !sync) {
			sync = true;
			continue;
		}
		if (tc_word(w, wl, "aligned") && !aligned) {
			aligned = true;
			continue;
		}
		if ((tc_word(w, wl, "row") || tc_word(w, wl, "col")) && in->op != OP_LDMATRIX && in->op != OP_STMATRIX) {
			unsigned maxl = in->op == OP_WMMA_LOAD || in->op == OP_WMMA_STORE ? 1 : 2;
			if (nlayout >= maxl)
				return fail_tok(p, &t, "too many layouts (.row/.col) for '%s'", on);
			if (w[0] == 'c')
				tc->layout |= nlayout == 0 ? TCL_ACOL : TCL_BCOL;
			nlayout++;
			continue;
		}
		if (tc_word(w, wl, "trans") && (in->op == OP_LDMATRIX || in->op == OP_STMATRIX)) {
			if (tc->layout & TCL_TRANS)
				return fail_tok(p, &t, "duplicate modifier %s", qtok(&t).s);
			tc->layout |= TCL_TRANS;
			continue;
		}
		if (tc_word(w, wl, "satfinite") && (in->op == OP_MMA || in->op == OP_WMMA_MMA)) {
			if (tc->layout & TCL_SATF)
				return fail_tok(p, &t, "duplicate modifier %s", qtok(&t).s);
			tc->layout |= TCL_SATF;
			continue;
		}
		if ((in->op == OP_LDMATRIX || in->op == OP_STMATRIX) && !tc->num &&
		    (tc_word(w, wl, "x1") || tc_word(w, wl, "x2") || tc_word(w, wl, "x4"))) {
			tc->num = (uint8_t)(w[1] - '0');
			continue;
		}
		if (tc_word(w, wl, "rn") && in->op == OP_WMMA_MMA) {
			in->rnd = RND_RN; /* f64 wmma.mma: .rn is the only rounding */
			continue;
		}
		if (in->op == OP_WMMA_LOAD || in->op == OP_WMMA_STORE || in->op == OP_LDMATRIX || in->op == OP_STMATRIX) {
			int sp = -1;
			if (tc_word(w, wl, "global"))
				sp = SPACE_GLOBAL;
			else if (tc_word(w, wl, "shared") || tc_word(w, wl, "shared::cta"))
				sp = SPACE_SHARED;
			if (sp >= 0) {
				if (in->space)
					return fail_tok(p, &t, "conflicting modifier %s", qtok(&t).s);
				if (sp == SPACE_GLOBAL && (in->op == OP_LDMATRIX || in->op == OP_STMATRIX))
					return fail_tok(p, &t, "state space %s is not valid for '%s'", qtok(&t).s, on);
				in->space = (uint8_t)sp;
				continue;
			}
		}
		int shape = -1;
		for (int k = 1; k < TC_SHAPE_COUNT; k++)
			if (tc_word(w, wl, ptx_tc_shape_name[k]))
				shape = k;
		if (shape > 0) {
			if (tc->shape)
				return fail_tok(p, &t, "conflicting modifier %s", qtok(&t).s);
			tc->shape = (uint8_t)shape;
			continue;
		}
		int ty = -1;
		for (int k = 1; k < TCT_COUNT; k++)
			if (tc_word(w, wl, ptx_tc_type_name[k]))
				ty = k;
		if (ty > 0) {
			if (ntypes >= 4)
				return fail_tok(p, &t, "too many type suffixes for '%s'", on);
			types[ntypes++] = (uint8_t)ty;
			continue;
		}
		return fail_tok(p, &t, "unknown modifier %s on '%s'", qtok(&t).s, on);
	}
	if (in->op == OP_WMMA_MMA && !tc->num)
		return fail_tok(p, mn, "'wmma' needs .load, .store or .mma");
	if ((in->op == OP_WMMA_LOAD || in->op == OP_WMMA_STORE) && !tc->frag)
		return fail_tok(p, mn, "'%s' needs the matrix: %s", on, in->op == OP_WMMA_LOAD ? ".a, .b or .c" : ".d");
	if (!sync || !aligned)
		return fail_tok(p, mn, "'%s' needs .sync.aligned", on);
	if (!tc->shape)
		return fail_tok(p, mn, "'%s' needs a shape (.m16n16k16, ...)", on);
	if (in->op == OP_LDMATRIX || in->op == OP_STMATRIX) {
		if (!tc->num)
			return fail_tok(p, mn, "'%s' needs .x1, .x2 or .x4", on);
		if (ntypes != 1)
			return fail_tok(p, mn, "'%s' needs one type (.b16)", on);
		tc->atype = tc->dtype = types[0];
		return true;
	}
	if (in->op == OP_WMMA_LOAD || in->op == OP_WMMA_STORE) {
		if (nlayout != 1)
			return fail_tok(p, mn, "'%s' needs a layout (.row or .col)", on);
		if (ntypes != 1)
			return fail_tok(p, mn, "'%s' needs one element type", on);
		tc->atype = tc->dtype = types[0];
		return true;
	}
	tc->num = 0;
	if (nlayout != 2)
		return fail_tok(p, mn, "'%s' needs two layouts (.row/.col for A, then for B)", on);
	if (in->op == OP_WMMA_MMA && ntypes == 2) { /* f16 forms: .dtype.ctype */
		tc->dtype = types[0];
		tc->ctype = types[1];
		tc->atype = tc->btype = TCT_F16;
		return true;
	}
	if (ntypes != 4)
		return fail_tok(p, mn, "'%s' needs the types .dtype.atype.btype.ctype%s", on,
				in->op == OP_WMMA_MMA ? " (or .dtype.ctype for f16)" : "");
	tc->dtype = types[0];
	tc->atype = types[1];
	tc->btype = types[2];
	tc->ctype = types[3];
	return true;
}

/* Operand shapes of the tensor-core instructions. */
static bool check_tc_operands(struct parser *p, struct ptx_insn *in, const struct opdpos *pos, const struct ptx_token *mn)
{
	const char *on = ptx_opcode_table[in->op].name;
	const char *pat;
	switch (in->op) {
	case OP_WMMA_LOAD: pat = in->nopd == 3 ? "fas" : "fa"; break;
	case OP_WMMA_STORE: pat = in->nopd == 3 ? "afs" : "af"; break;
	case OP_LDMATRIX: pat = "fa"; break;
	case OP_STMATRIX: pat = "af"; break;
	default: pat = "ffff"; break;
	}
	size_t want = strlen(pat);
	if (in->nopd != want)
		return fail_tok(p, mn, "'%s' expects %zu operands, got %u", on, want, in->nopd);
	for (unsigned i = 0; i < in->nopd; i++) {
		const struct ptx_operand *o = &in->opd[i];
		bool ok;
		switch (pat[i]) {
		case 'a': ok = o->kind == OPD_ADDR; break;
		case 's': ok = (o->kind == OPD_REG && !o->neg && o->reg2 < 0) || o->kind == OPD_IMM; break;
		default: /* a fragment: {registers} (a lone register for one-register fragments) */
			ok = (o->kind == OPD_VEC) || (o->kind == OPD_REG && !o->neg && o->reg2 < 0);
			if (o->kind == OPD_VEC)
				for (unsigned e = 0; e < o->nelem; e++)
					ok = ok && o->elem[e].kind == OPD_REG;
			break;
		}
		if (!ok)
			return fail_at(p, pos[i].line, pos[i].col, "operand %u of '%s' must be %s", i + 1, on,
				       pat[i] == 'a'   ? "an address [...]"
				       : pat[i] == 's' ? "a register or immediate (the stride)"
						       : "a fragment: a vector of registers");
	}
	return true;
}

static struct ptx_insn *new_insn(struct parser *p, const struct ptx_token *mn)
{
	struct ptx_function *f = cur(p);
	if (!GROW(p, f->insns, p->cap_insns, f->ninsns + 1))
		return NULL;
	struct ptx_insn *in = &f->insns[f->ninsns++];
	memset(in, 0, sizeof(*in));
	in->guard = -1;
	in->reconv = -1;
	in->callee = -1;
	in->line = mn->line;
	in->col = mn->col;
	for (int i = 0; i < PTX_MAX_OPDS; i++)
		opd_init(&in->opd[i]);
	return in;
}

static bool is_tex_op(int op)
{
	return op == OP_TEX || op == OP_TLD4 || op == OP_TXQ || op == OP_SULD || op == OP_SUST || op == OP_SUQ;
}

/* "[h]" or "[h, {c, ...}]" of a texture/surface instruction: appended as the
 * operands h (register or .texref/.surfref symbol) and c (vector).  An
 * independent-mode sampler "[t, s, {c}]" is refused with a clear message. */
static bool parse_tex_address(struct parser *p, struct ptx_insn *in, struct opdpos *pos, uint32_t ii)
{
	next(p); /* '[' */
	const struct ptx_token *t = peek(p, 0);
	if (t->kind != PTX_TOK_IDENT)
		return fail_tok(p, t, "expected a texture or surface handle (register or .texref/.surfref name), got %s",
				qtok(t).s);
	pos[in->nopd] = (struct opdpos){t->line, t->col};
	struct ptx_token ht = *t;
	if (!parse_operand(p, &in->opd[in->nopd], OPM_NORMAL, ii, in->nopd))
		return false;
	struct ptx_operand *h = &in->opd[in->nopd++];
	if (h->kind != OPD_REG && h->kind != OPD_SYM)
		return fail_at(p, ht.line, ht.col, "texture/surface handle must be a register or a .texref/.surfref variable");
	if (h->kind == OPD_REG && h->reg2 >= 0)
		return fail_at(p, ht.line, ht.col, "texture/surface handle cannot be a '|' pair");
	if (h->kind == OPD_REG && ptx_type_size[cur(p)->regs[h->reg].type] != 8)
		return fail_at(p, ht.line, ht.col, "texture/surface handle register must be 64-bit (.u64/.b64)");
	if (h->kind == OPD_SYM && h->offset)
		return fail_at(p, ht.line, ht.col, "texture/surface handle cannot have an offset");
	if (accept(p, ',')) {
		t = peek(p, 0);
		if (t->kind != '{')
			return fail_tok(p, t, "independent texture samplers ([tex, sampler, {...}]) are not supported; "
					      "expected a coordinate vector {...}, got %s", qtok(t).s);
		if (in->nopd >= PTX_MAX_OPDS)
			return fail_tok(p, t, "too many operands (at most %d)", PTX_MAX_OPDS);
		pos[in->nopd] = (struct opdpos){t->line, t->col};
		if (!parse_vector(p, &in->opd[in->nopd]))
			return false;
		in->nopd++;
	}
	return expect(p, ']', "']' after texture/surface coordinates");
}

/* ld/st/atom/red .L2::cache_hint: the last operand is a 64-bit cache policy
 * (from createpolicy).  The hint is not modelled (docs/ptx.md), so the
 * operand is checked and dropped: the instruction is the one without it. */
static bool drop_cache_policy(struct parser *p, struct ptx_insn *in, const struct opdpos *pos)
{
	unsigned k = in->nopd - 1u;
	const struct ptx_operand *o = &in->opd[k];
	if (in->nopd < 3 || o->kind != OPD_REG || o->neg || o->reg2 >= 0 || ptx_type_size[cur(p)->regs[o->reg].type] != 8)
		return fail_at(p, pos[in->nopd ? k : 0].line, pos[in->nopd ? k : 0].col,
			       "'%s' with .L2::cache_hint needs a 64-bit cache-policy register as its last operand", opname(in));
	in->opd[k] = (struct ptx_operand){.kind = OPD_NONE, .reg2 = -1};
	in->nopd--;
	in->flags &= ~FLAG_CACHE_HINT;
	return true;
}

/* "%r2+4" as a source operand (ptxas takes it as the register's value plus
 * the integer, wrapped to the register's width: it compiles `mov.u32 %r1,
 * %r2+4` as `add.u32 %r1, %r2, 4`): lowered into one add per such operand,
 * into a fresh register, placed before the instruction, which then reads
 * that register.  The adds take the instruction's index, so a label on it
 * runs them first; fixups naming the instruction move with it.  Integer
 * registers only (ptxas crashes on a .f32 one). */
static bool lower_reg_plus(struct parser *p, uint32_t ii)
{
	struct ptx_function *f = cur(p);
	unsigned n = 0;
	for (unsigned k = 0; k < f->insns[ii].nopd; k++) {
		struct ptx_operand *o = &f->insns[ii].opd[k];
		if (o->kind != OPD_REG || o->offset == 0)
			continue;
		unsigned rt = f->regs[o->reg].type;
		static const uint8_t add_type[PTX_T_COUNT] = {
		    [PTX_T_B16] = PTX_T_U16, [PTX_T_B32] = PTX_T_U32, [PTX_T_B64] = PTX_T_U64, [PTX_T_U16] = PTX_T_U16,
		    [PTX_T_U32] = PTX_T_U32, [PTX_T_U64] = PTX_T_U64, [PTX_T_S16] = PTX_T_U16, [PTX_T_S32] = PTX_T_U32,
		    [PTX_T_S64] = PTX_T_U64}; /* the same bits as a signed add */
		const struct ptx_insn *in = &f->insns[ii];
		if (!add_type[rt])
			return fail_at(p, in->line, in->col, "'%s+%lld': register + integer needs a 16-, 32- or 64-bit integer register, not .%s",
				       f->regs[o->reg].name, (long long)o->offset, ptx_type_name[rt]);
		size_t nl = strlen(f->regs[o->reg].name) + 48;
		char *nm = malloc(nl);
		if (!nm)
			return fail_oom(p);
		/* not a PTX identifier: cannot clash with a declared name */
		snprintf(nm, nl, "%s+%lld@%u.%u", f->regs[o->reg].name, (long long)o->offset, ii, k);
		if (!declare_reg(p, nm, (uint32_t)strlen(nm), (uint8_t)rt, in->line, in->col))
			return false;
		int32_t tmp = (int32_t)f->nregs - 1;
		struct ptx_insn *add = new_insn(p, &(struct ptx_token){.line = f->insns[ii].line, .col = f->insns[ii].col});
		if (!add)
			return false;
		in = &f->insns[ii];
		o = &f->insns[ii].opd[k];
		add->op = OP_ADD;
		add->type = add_type[rt];
		add->unit = (uint8_t)ptx_opcode_table[OP_ADD].unit;
		add->lat = (uint8_t)ptx_opcode_table[OP_ADD].lat;
		add->guard = in->guard;
		add->guard_neg = in->guard_neg;
		add->nopd = 3;
		add->opd[0].kind = OPD_REG;
		add->opd[0].reg = tmp;
		add->opd[1].kind = OPD_REG;
		add->opd[1].reg = o->reg;
		add->opd[2].kind = OPD_IMM;
		add->opd[2].imm_kind = IMM_INT;
		unsigned bits = ptx_type_bits(add_type[rt]);
		add->opd[2].imm = bits >= 64 ? (uint64_t)o->offset : (uint64_t)o->offset & ((1ull << bits) - 1);
		o->reg = tmp;
		o->offset = 0;
		n++;
	}
	/* the adds were appended after the instruction: rotate it to the end */
	struct ptx_insn moved = f->insns[ii];
	memmove(&f->insns[ii], &f->insns[ii + 1], n * sizeof moved);
	f->insns[ii + n] = moved;
	for (uint32_t r = 0; r < p->nfrefs; r++)
		if (p->frefs[r].a == (uint32_t)p->fi && p->frefs[r].b == ii)
			p->frefs[r].b = ii + n;
	for (uint32_t r = 0; r < p->nmrefs; r++)
		if (p->mrefs[r].what != REF_INIT && p->mrefs[r].a == (uint32_t)p->fi && p->mrefs[r].b == ii)
			p->mrefs[r].b = ii + n;
	return true;
}

static bool parse_instruction_at(struct parser *p, uint32_t *ii);

bool parse_instruction(struct parser *p)
{
	uint32_t ii = UINT32_MAX;
	p->reg_plus = false;
	bool ok = parse_instruction_at(p, &ii);
	if (p->reg_plus && ii != UINT32_MAX) {
		p->reg_plus = false;
		ok = ok && lower_reg_plus(p, ii);
	}
	return ok;
}

/* One instruction; *ii: its index once it exists. */
static bool parse_instruction_at(struct parser *p, uint32_t *iip)
{
	int32_t guard = -1;
	uint8_t guard_neg = 0;
	if (accept(p, '@')) {
		if (accept(p, '!'))
			guard_neg = 1;
		const struct ptx_token *g = peek(p, 0);
		if (!pred_reg_of(p, g, &guard))
			return false;
		next(p);
	}
	const struct ptx_token *t = peek(p, 0);
	if (t->kind != PTX_TOK_IDENT)
		return fail_tok(p, t, "expected an instruction, got %s", qtok(t).s);
	struct ptx_token mn = next(p);
	struct strmap_slot *os = strmap_find(&p->opnames, mn.text, mn.len);
	if (!os)
		return fail_at(p, mn.line, mn.col, "unknown instruction %s", qname(mn.text, mn.len).s);
	int op = os->val;
	uint32_t ii = cur(p)->ninsns;
	struct ptx_insn *in = new_insn(p, &mn);
	if (!in)
		return false;
	*iip = ii;
	in->op = (uint16_t)op;
	in->guard = guard;
	in->guard_neg = guard_neg;
	in->unit = (uint8_t)ptx_opcode_table[op].unit;
	in->lat = (uint8_t)ptx_opcode_table[op].lat;
	const struct opsyn *sy = &opsyn[op];
	bool described = sy->opds != NULL;
	struct sufstate st;
	memset(&st, 0, sizeof(st));
	bool tensor = op == OP_WMMA_MMA || op == OP_MMA || op == OP_LDMATRIX || op == OP_STMATRIX;
	if (tensor && !parse_tc_suffixes(p, in, &mn))
		return false;
	while (!tensor && peek(p, 0)->kind == PTX_TOK_DIRECTIVE && !peek(p, 0)->space_before) {
		struct ptx_token s = next(p);
		if (!apply_suffix(p, in, sy, described, &s, &st))
			return false;
	}
	if (!tensor && !check_suffixes(p, in, sy, described, &st, &mn))
		return false;
	if (tensor)
		in->vec = 1;
	if (op == OP_CALL)
		return parse_call_operands(p, in, ii);
	struct opdpos pos[PTX_MAX_OPDS];
	if (peek(p, 0)->kind != ';') {
		for (;;) {
			const struct ptx_token *ot = peek(p, 0);
			if (in->nopd >= PTX_MAX_OPDS)
				return fail_tok(p, ot, "too many operands (at most %d)", PTX_MAX_OPDS);
			int mode = OPM_NORMAL;
			if (op == OP_BRA)
				mode = OPM_LABEL;
			else if (op == OP_BRX && in->nopd == 1)
				mode = OPM_BTABLE;
			pos[in->nopd] = (struct opdpos){ot->line, ot->col};
			if (ot->kind == '[' && is_tex_op(op)) {
				if (!parse_tex_address(p, in, pos, ii))
					return false;
				if (!accept(p, ','))
					break;
				continue;
			}
			if (!parse_operand(p, &in->opd[in->nopd], mode, ii, in->nopd))
				return false;
			if ((op == OP_TEX || op == OP_TLD4) && in->nopd == 0 && in->opd[0].kind == OPD_VEC && accept(p, '|')) {
				/* {d...}|p: p is set when the texels are resident (sparse textures) */
				const struct ptx_token *pt = peek(p, 0);
				if (!pred_reg_of(p, pt, &in->opd[0].reg2))
					return false;
				next(p);
			}
			in->nopd++;
			if (!accept(p, ','))
				break;
		}
	}
	if (!expect(p, ';', "';' after instruction"))
		return false;
	if (tensor)
		return check_tc_operands(p, in, pos, &mn);
	if (!described)
		return true;
	if ((in->flags & FLAG_CACHE_HINT) && (op == OP_LD || op == OP_LDU || op == OP_ST || op == OP_ATOM || op == OP_RED) &&
	    !drop_cache_policy(p, in, pos))
		return false;
	if (!check_operands(p, in, sy->opds, pos, &mn))
		return false;
	return check_operand_details(p, in, pos, &mn, &st) && check_operand_types(p, in, pos);
}

