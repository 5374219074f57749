/*
 * parser.c -- PTX parser: source text -> module IR (ir.h).
 *
 * Models no hardware.  A recursive-descent parser over the token stream of
 * lexer.c, covering the PTX that nvcc (CUDA 13, .version 9.0, compute_75 and
 * newer) emits: module directives, variables with initializers, .entry/.func
 * definitions and prototypes, register declarations with %r<N> ranges,
 * nested scoped blocks, labels, .branchtargets/.callprototype, guarded
 * instructions with every operand form, and debug directives (skipped).
 *
 * Instruction suffixes are decoded through two const tables: `modwords`
 * (every modifier word -> the insn field it sets, in which group) and
 * `opsyn` (per opcode: which modifier groups, which types, how many type
 * suffixes and which operand shapes are valid).  An opcode of opcodes.def
 * without an opsyn entry is parsed permissively.
 *
 * Name resolution: registers and function-scope variables live in a scoped
 * symbol table (hash map + undo log, innermost binding wins); module
 * variables and functions in plain maps.  Labels and branch tables are
 * resolved at the end of each function, function references (calls, mov of
 * a function address, initializers) at the end of the module.
 *
 * Errors: the first error is recorded with file:line:col and the parse
 * returns NULL after freeing everything.  Work is linear in input size;
 * nesting depths and register counts are capped.
 *
 * IR conventions where ir.h leaves room:
 *  - call: opd[0] OPD_LIST of return .param vars (nlist 0 if none), opd[1]
 *    OPD_FUNC or OPD_REG (indirect), opd[2] OPD_LIST of argument vars,
 *    nopd 3; with a prototype nopd 4 and opd[3] is OPD_LABEL, target -1.
 *  - brx.idx: opd[1] is OPD_LIST whose list holds the pcs of the labels of
 *    the .branchtargets, in order.  A label at the end of a body has pc
 *    ninsns.
 *  - immediates: integers as 64-bit two's complement (IMM_INT); 0fXXXXXXXX
 *    IMM_F32 bits; 0d... and decimal literals (1.5, 1e-3) IMM_F64 bits; a '-'
 *    before a float literal flips its sign bit.
 *  - .sync of shfl/vote is not recorded: the operand count tells (5/3 with
 *    .sync, 4/2 without); match and redux always have it.  bar.sync does not
 *    imply FLAG_ALIGNED.  membar.gl is SCOPE_GPU.  Cache and eviction hints
 *    (.ca, .L1::evict_last, .L2::128B, ...) are accepted and dropped.
 *  - "_|%p" destinations: OPD_SINK with reg2 = the predicate.
 *  - variables: type is the element type, size = element size * vector
 *    width * array dims, align defaults to element size * vector width; an
 *    initializer sizes a "[]" array; 0xFF<<8k(generic(x)+a) byte masks of
 *    one address (in order) become one init_sym of width 8 (or 4).
 *  - a function declared before it is defined keeps its parameter variables;
 *    the definition renames them (types and sizes must agree).
 *  - module.target is the first name of .target (e.g. "sm_75").
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx/ir.h"
#include "ptx/lexer.h"

#define MAX_BLOCK_DEPTH 64
#define MAX_DIMS 8
#define MAX_REGS_PER_FUNC (1u << 20)
#define MAX_REGS_PER_MODULE (1u << 22)
#define MAX_INIT_BYTES (64u << 20)      /* per variable and per module */
#define MAX_REG_NAME_BYTES (64u << 20)  /* register names of a %r<N> range, per module */
#define MAX_BRX_TARGETS (1u << 24)      /* brx target-list entries per module */
#define MAX_VAR_SIZE (1ull << 48)

/* ------------------------------------------------------------------ */
/* string hash map                                                     */
/* ------------------------------------------------------------------ */

struct sm_slot {
	const char *key; /* NULL = empty slot */
	uint32_t len;
	uint32_t hash;
	int32_t val;
	int32_t depth;
	uint8_t kind;
};
struct strmap {
	struct sm_slot *s;
	uint32_t cap, n;
};

static uint32_t hash_str(const char *s, size_t n)
{
	uint32_t h = 2166136261u;
	for (size_t i = 0; i < n; i++) {
		h ^= (unsigned char)s[i];
		h *= 16777619u;
	}
	/* avalanche, so that the low bits used for the slot index depend on all bytes */
	h ^= h >> 16;
	h *= 0x85ebca6bu;
	h ^= h >> 13;
	h *= 0xc2b2ae35u;
	h ^= h >> 16;
	return h;
}

static struct sm_slot *sm_find(const struct strmap *m, const char *k, size_t n)
{
	if (!m->cap)
		return NULL;
	uint32_t h = hash_str(k, n), i = h & (m->cap - 1);
	while (m->s[i].key) {
		if (m->s[i].hash == h && m->s[i].len == n && memcmp(m->s[i].key, k, n) == 0)
			return &m->s[i];
		i = (i + 1) & (m->cap - 1);
	}
	return NULL;
}

static bool sm_grow(struct strmap *m)
{
	uint32_t nc = m->cap ? m->cap * 2 : 64;
	if (nc < m->cap)
		return false;
	struct sm_slot *ns = calloc(nc, sizeof(*ns));
	if (!ns)
		return false;
	for (uint32_t i = 0; i < m->cap; i++) {
		if (!m->s[i].key)
			continue;
		uint32_t j = m->s[i].hash & (nc - 1);
		while (ns[j].key)
			j = (j + 1) & (nc - 1);
		ns[j] = m->s[i];
	}
	free(m->s);
	m->s = ns;
	m->cap = nc;
	return true;
}

/* Find or insert `k` (which must stay valid while the map lives).
 * A new slot has kind 0, val -1, depth -1.  NULL on out-of-memory. */
static struct sm_slot *sm_get(struct strmap *m, const char *k, size_t n)
{
	struct sm_slot *s = sm_find(m, k, n);
	if (s)
		return s;
	if ((m->n + 1) * 4 >= m->cap * 3 && !sm_grow(m))
		return NULL;
	uint32_t h = hash_str(k, n), i = h & (m->cap - 1);
	while (m->s[i].key)
		i = (i + 1) & (m->cap - 1);
	m->s[i].key = k;
	m->s[i].len = (uint32_t)n;
	m->s[i].hash = h;
	m->s[i].val = -1;
	m->s[i].depth = -1;
	m->s[i].kind = 0;
	m->n++;
	return &m->s[i];
}

static void sm_free(struct strmap *m)
{
	free(m->s);
	m->s = NULL;
	m->cap = m->n = 0;
}

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
};

/* ------------------------------------------------------------------ */
/* parser state                                                        */
/* ------------------------------------------------------------------ */

enum { SK_NONE, SK_REG, SK_VAR, SK_VREG /* vector register: val = first element | count << 24 */ };

struct undo {
	const char *key;
	uint32_t len;
	int32_t val, depth;
	uint8_t kind;
};

/* a use of a name resolved later */
struct ref {
	uint32_t a, b; /* fi + insn (operands), var + init_sym (initializers) */
	uint8_t opd;
	uint8_t what; /* REF_* */
	const char *name;
	uint32_t len, line, col;
};
enum { REF_CALL, REF_OPD, REF_INIT, REF_LABEL, REF_BTABLE };

struct btable {
	uint32_t first, count; /* into btl */
};
struct namepos {
	const char *name;
	uint32_t len, line, col;
};
struct rdecl {
	const char *prefix;
	uint32_t plen, count;
};

/* a parameter declaration before it becomes a variable */
struct pdesc {
	const char *name;
	uint32_t len, line, col;
	uint8_t type;
	bool is_reg; /* .reg parameter */
	uint32_t align;
	uint64_t size;
};

/* pending address-byte initializers (0xFF00(generic(x)+4) ...) */
struct maskrun {
	bool active;
	uint32_t nbytes;
	uint64_t byte_off;
	const char *name;
	uint32_t len, line, col;
	int64_t add;
	bool generic;
};

struct parser {
	struct ptx_lexer lx;
	struct ptx_token la[4];
	unsigned la_head, la_n;
	struct ptx_error *err;
	bool failed;
	const char *filename;
	void *growtmp;
	struct ptx_module *m;
	uint32_t cap_vars, cap_funcs;
	struct strmap modvars, funcnames, words, opnames;
	struct ref *mrefs; /* module-level references */
	uint32_t nmrefs, cap_mrefs;
	uint64_t module_regs;
	uint64_t init_bytes, reg_name_bytes, brx_targets; /* against the caps above */
	/* current function */
	int32_t fi;
	uint32_t cap_insns, cap_regs;
	struct strmap scope, labels, btnames, protos;
	struct undo *undo;
	uint32_t nundo, cap_undo;
	uint32_t marks[MAX_BLOCK_DEPTH + 2];
	int depth;
	struct ref *frefs; /* label / branch-table references */
	uint32_t nfrefs, cap_frefs;
	struct btable *bts;
	uint32_t nbts, cap_bts;
	struct namepos *btl;
	uint32_t nbtl, cap_btl;
	struct rdecl *ranges;
	uint32_t nranges, cap_ranges;
	/* scratch */
	struct pdesc *pd;
	uint32_t npd, cap_pd;
	int32_t *tmpl;
	uint32_t ntmpl, cap_tmpl;
	/* module header: where .version and .target were (line 0: not seen) */
	uint32_t version_line, target_line;
	/* errors (recover()) */
	uint32_t nerrors, more_dropped;
	bool oom;
	int last_kind; /* of the last token consumed */
};

/* ------------------------------------------------------------------ */
/* errors                                                              */
/* ------------------------------------------------------------------ */

/* The first error fills err; later ones (after recovery, see recover())
 * are appended to err->more while they fit. */
static bool vfail(struct parser *p, uint32_t line, uint32_t col, const char *fmt, va_list ap)
{
	if (p->failed)
		return false;
	p->failed = true;
	p->nerrors++;
	if (p->err) {
		p->err->count = p->nerrors;
		if (p->nerrors == 1) {
			snprintf(p->err->file, sizeof(p->err->file), "%s", p->filename);
			p->err->line = line;
			p->err->col = col;
			vsnprintf(p->err->msg, sizeof(p->err->msg), fmt, ap);
		} else {
			char msg[512], ln[900];
			vsnprintf(msg, sizeof msg, fmt, ap);
			int n = snprintf(ln, sizeof ln, "%s:%u:%u: error: %s\n", p->filename, line, col, msg);
			size_t used = strlen(p->err->more);
			if (n > 0 && used + (size_t)n + 48 < sizeof(p->err->more))
				memcpy(p->err->more + used, ln, (size_t)n + 1);
			else
				p->more_dropped++;
		}
	}
	return false;
}

static bool fail_at(struct parser *p, uint32_t line, uint32_t col, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static bool fail_at(struct parser *p, uint32_t line, uint32_t col, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vfail(p, line, col, fmt, ap);
	va_end(ap);
	return false;
}

/* Report an error at token t; a lexer error token reports its own message. */
static bool fail_tok(struct parser *p, const struct ptx_token *t, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static bool fail_tok(struct parser *p, const struct ptx_token *t, const char *fmt, ...)
{
	if (t->kind == PTX_TOK_ERROR)
		return fail_at(p, t->line, t->col, "%s", p->lx.msg);
	va_list ap;
	va_start(ap, fmt);
	vfail(p, t->line, t->col, fmt, ap);
	va_end(ap);
	return false;
}

static bool fail_oom(struct parser *p)
{
	p->oom = true;
	return fail_at(p, p->lx.line, 1, "out of memory");
}

/* Quoted, printable, length-limited rendering of a name for messages. */
struct qbuf {
	char s[80];
};
static struct qbuf qname(const char *s, size_t n)
{
	struct qbuf q;
	size_t o = 0;
	q.s[o++] = '\'';
	for (size_t i = 0; i < n && o < 60; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c >= 0x20 && c < 0x7f) {
			q.s[o++] = (char)c;
		} else {
			snprintf(q.s + o, sizeof(q.s) - o, "\\x%02x", c);
			o += 4;
		}
	}
	if (n > 0 && o >= 60) {
		memcpy(q.s + o, "...", 3);
		o += 3;
	}
	q.s[o++] = '\'';
	q.s[o] = 0;
	return q;
}
static struct qbuf qtok(const struct ptx_token *t)
{
	if (t->kind == PTX_TOK_EOF) {
		struct qbuf q;
		snprintf(q.s, sizeof(q.s), "end of input");
		return q;
	}
	return qname(t->text, t->len);
}

/* ------------------------------------------------------------------ */
/* tokens                                                              */
/* ------------------------------------------------------------------ */

static const struct ptx_token *peek(struct parser *p, unsigned k)
{
	while (p->la_n <= k) {
		ptx_lexer_next(&p->lx, &p->la[(p->la_head + p->la_n) & 3]);
		p->la_n++;
	}
	return &p->la[(p->la_head + k) & 3];
}

static struct ptx_token next(struct parser *p)
{
	struct ptx_token t = *peek(p, 0);
	if (t.kind != PTX_TOK_EOF && t.kind != PTX_TOK_ERROR) {
		p->la_head = (p->la_head + 1) & 3;
		p->la_n--;
	}
	p->last_kind = t.kind;
	return t;
}

#define PARSE_MAX_ERRORS 100

/* After a failed statement in a function body that began at (line, col):
 * skip to the end of that statement (its ';', unless the error was found
 * after it, or a '}' that starts a later line: the end of the block) and go
 * on, so that one run reports every error.  False when parsing must stop
 * (out of memory, end of input, a lexer error, or PARSE_MAX_ERRORS errors). */
static bool recover(struct parser *p, uint32_t line, uint32_t col)
{
	if (p->oom || p->nerrors >= PARSE_MAX_ERRORS)
		return false;
	const struct ptx_token *t = peek(p, 0);
	bool moved = t->line != line || t->col != col;
	if (moved && p->last_kind == ';') { /* the statement was complete */
		p->failed = false;
		return true;
	}
	uint32_t prev_line = t->line;
	if (!moved && t->kind != PTX_TOK_EOF && t->kind != PTX_TOK_ERROR && t->kind != '}')
		next(p); /* at least one token, or the same error again */
	for (;;) {
		t = peek(p, 0);
		if (t->kind == PTX_TOK_EOF || t->kind == PTX_TOK_ERROR)
			return false;
		if (t->kind == ';') {
			next(p);
			break;
		}
		if (t->kind == '}' && t->line > prev_line)
			break;
		prev_line = t->line;
		next(p);
	}
	p->failed = false;
	return true;
}

/* A directive that starts a module-level item. */
static bool starts_module_item(const struct ptx_token *t)
{
	static const char *const dirs[] = {".version", ".target", ".address_size", ".visible", ".extern", ".weak",
					   ".common", ".entry", ".func", ".global", ".const", ".shared", ".local",
					   ".tex", ".texref", ".surfref", ".samplerref", ".file", ".section", ".pragma"};
	if (t->kind != PTX_TOK_DIRECTIVE)
		return false;
	for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++)
		if (t->len == strlen(dirs[i]) && memcmp(t->text, dirs[i], t->len) == 0)
			return true;
	return false;
}

/* After a failed module-level item (a declaration, directive or function
 * header) that began at token index `start`: skip to the end of the item --
 * its ';' outside braces, the '}' that closes a body it opened, or the next
 * line that starts another module-level item -- and go on, so that one run
 * reports every error.  False when parsing must stop (as recover()). */
static bool recover_module(struct parser *p, uint32_t line)
{
	if (p->oom || p->nerrors >= PARSE_MAX_ERRORS)
		return false;
	int depth = 0;
	uint32_t prev_line = line;
	bool first = true;
	for (;;) {
		const struct ptx_token *t = peek(p, 0);
		if (t->kind == PTX_TOK_EOF || t->kind == PTX_TOK_ERROR)
			return false;
		if (!first && depth == 0 && t->line > prev_line && starts_module_item(t))
			break;
		first = false;
		prev_line = t->line;
		next(p);
		if (t->kind == '{')
			depth++;
		else if (t->kind == '}' && --depth <= 0)
			break;
		else if (t->kind == ';' && depth == 0)
			break;
	}
	p->failed = false;
	return true;
}

static bool tok_is(const struct ptx_token *t, int kind, const char *s)
{
	size_t n = strlen(s);
	return t->kind == kind && t->len == n && memcmp(t->text, s, n) == 0;
}
static bool is_dir(const struct ptx_token *t, const char *s) { return tok_is(t, PTX_TOK_DIRECTIVE, s); }

static bool accept(struct parser *p, int kind)
{
	if (peek(p, 0)->kind == kind) {
		next(p);
		return true;
	}
	return false;
}

static bool expect(struct parser *p, int kind, const char *what)
{
	const struct ptx_token *t = peek(p, 0);
	if (t->kind == kind) {
		next(p);
		return true;
	}
	return fail_tok(p, t, "expected %s, got %s", what, qtok(t).s);
}

/* ------------------------------------------------------------------ */
/* memory                                                              */
/* ------------------------------------------------------------------ */

static bool grow_impl(struct parser *p, void *arr, uint32_t *cap, uint64_t need, size_t elsz)
{
	if (need > UINT32_MAX / 2)
		return fail_oom(p);
	uint64_t nc = *cap ? *cap : 8;
	while (nc < need)
		nc *= 2;
	void *n = realloc(arr, (size_t)(nc * elsz));
	if (!n)
		return fail_oom(p);
	p->growtmp = n;
	*cap = (uint32_t)nc;
	return true;
}
#define GROW(p, arr, cap, need) \
	((uint64_t)(need) <= (cap) ? true : grow_impl((p), (arr), &(cap), (need), sizeof(*(arr))) ? ((arr) = (p)->growtmp, true) : false)

static char *xstrndup(const char *s, size_t n)
{
	char *d = malloc(n + 1);
	if (d) {
		memcpy(d, s, n);
		d[n] = 0;
	}
	return d;
}

static struct ptx_function *cur(struct parser *p) { return &p->m->funcs[p->fi]; }

/* ------------------------------------------------------------------ */
/* scopes                                                              */
/* ------------------------------------------------------------------ */

static bool scope_declare(struct parser *p, const char *name, uint32_t len, uint8_t kind, int32_t idx, uint32_t line,
			  uint32_t col)
{
	struct sm_slot *s = sm_get(&p->scope, name, len);
	if (!s)
		return fail_oom(p);
	if (s->kind != SK_NONE && s->depth == p->depth)
		return fail_at(p, line, col, "redefinition of %s", qname(name, len).s);
	if (!GROW(p, p->undo, p->cap_undo, p->nundo + 1))
		return false;
	p->undo[p->nundo++] = (struct undo){s->key, s->len, s->val, s->depth, s->kind};
	s->kind = kind;
	s->val = idx;
	s->depth = p->depth;
	return true;
}

static bool scope_push(struct parser *p, const struct ptx_token *at)
{
	if (p->depth >= MAX_BLOCK_DEPTH)
		return fail_tok(p, at, "blocks nested too deeply (limit %d)", MAX_BLOCK_DEPTH);
	p->depth++;
	p->marks[p->depth] = p->nundo;
	return true;
}

static void scope_pop(struct parser *p)
{
	uint32_t mark = p->marks[p->depth];
	while (p->nundo > mark) {
		struct undo *u = &p->undo[--p->nundo];
		struct sm_slot *s = sm_find(&p->scope, u->key, u->len);
		if (s) {
			s->kind = u->kind;
			s->val = u->val;
			s->depth = u->depth;
		}
	}
	p->depth--;
}

/* ------------------------------------------------------------------ */
/* variables, functions, registers                                     */
/* ------------------------------------------------------------------ */

static int32_t new_var(struct parser *p, const char *name, uint32_t len, uint8_t space, uint8_t type, uint32_t line,
		       uint32_t col, int32_t func)
{
	struct ptx_module *m = p->m;
	if (!GROW(p, m->vars, p->cap_vars, m->nvars + 1))
		return -1;
	struct ptx_var *v = &m->vars[m->nvars];
	memset(v, 0, sizeof(*v));
	v->name = xstrndup(name, len);
	if (!v->name) {
		fail_oom(p);
		return -1;
	}
	v->space = space;
	v->type = type;
	v->func = func;
	v->reg = -1;
	v->is_reg = 0;
	v->line = line;
	v->col = col;
	return (int32_t)m->nvars++;
}

/* A special register's name; indexed ones (%envreg7, %reserved_smem_offset_1)
 * return their index in *index (0 otherwise). */
static bool is_sreg_name_ix(const char *s, uint32_t n, int *which, unsigned *index)
{
	*index = 0;
	for (int i = 0; i < SREG_COUNT; i++) {
		size_t l = strlen(ptx_sreg_name[i]);
		if (ptx_sreg_indexed((unsigned)i)) {
			unsigned lim = i == SREG_ENVREG ? PTX_NENVREG : 2, v = 0;
			if (n <= l || n > l + 2 || memcmp(ptx_sreg_name[i], s, l) != 0)
				continue;
			bool ok = !(n == l + 2 && s[l] == '0');
			for (size_t k = l; k < n && ok; k++) {
				ok = s[k] >= '0' && s[k] <= '9';
				v = v * 10 + (unsigned)(s[k] - '0');
			}
			if (!ok || v >= lim)
				continue;
			*which = i;
			*index = v;
			return true;
		}
		if (l == n && memcmp(ptx_sreg_name[i], s, n) == 0) {
			*which = i;
			return true;
		}
	}
	return false;
}
static bool is_sreg_name(const char *s, uint32_t n, int *which)
{
	unsigned ix;
	return is_sreg_name_ix(s, n, which, &ix);
}

static bool declare_reg(struct parser *p, char *name, uint32_t len, uint8_t type, uint32_t line, uint32_t col)
{
	struct ptx_function *f = cur(p);
	if (f->nregs >= MAX_REGS_PER_FUNC || p->module_regs >= MAX_REGS_PER_MODULE) {
		free(name);
		return fail_at(p, line, col, "too many registers (limit %u per function, %u per module)", MAX_REGS_PER_FUNC,
			       MAX_REGS_PER_MODULE);
	}
	if (!GROW(p, f->regs, p->cap_regs, f->nregs + 1)) {
		free(name);
		return false;
	}
	int32_t idx = (int32_t)f->nregs++;
	f->regs[idx].name = name;
	f->regs[idx].type = type;
	p->module_regs++;
	return scope_declare(p, name, len, SK_REG, idx, line, col);
}

/* ------------------------------------------------------------------ */
/* small syntax helpers                                                */
/* ------------------------------------------------------------------ */

static int type_of_dir(const struct ptx_token *t)
{
	if (t->kind != PTX_TOK_DIRECTIVE)
		return -1;
	for (int i = 1; i < PTX_T_COUNT; i++) {
		size_t n = strlen(ptx_type_name[i]);
		if (t->len == n + 1 && memcmp(t->text + 1, ptx_type_name[i], n) == 0)
			return i;
	}
	return -1;
}

/* unsigned integer literal (no sign) */
static bool parse_uint(struct parser *p, uint64_t *out, const char *what)
{
	const struct ptx_token *t = peek(p, 0);
	if (t->kind != PTX_TOK_INT)
		return fail_tok(p, t, "expected %s, got %s", what, qtok(t).s);
	if (t->overflow)
		return fail_tok(p, t, "number out of range");
	*out = t->ival;
	next(p);
	return true;
}

/* signed integer literal with optional '-', range of int64 */
static bool parse_sint(struct parser *p, int64_t *out, const char *what)
{
	bool neg = false;
	const struct ptx_token *t = peek(p, 0);
	if (t->kind == '-') {
		neg = true;
		next(p);
		t = peek(p, 0);
	}
	if (t->kind != PTX_TOK_INT)
		return fail_tok(p, t, "expected %s, got %s", what, qtok(t).s);
	if (t->overflow || (!neg && t->ival > (uint64_t)INT64_MAX) || (neg && t->ival > (uint64_t)INT64_MAX + 1))
		return fail_tok(p, t, "immediate out of range");
	*out = neg ? (int64_t)(0 - t->ival) : (int64_t)t->ival;
	next(p);
	return true;
}

static bool parse_align(struct parser *p, uint32_t *align)
{
	const struct ptx_token t_ = *peek(p, 0); /* copy: used after parsing on */
	uint64_t v = 0;
	if (!parse_uint(p, &v, "an alignment"))
		return false;
	if (v == 0 || (v & (v - 1)) || v > (1u << 16))
		return fail_at(p, t_.line, t_.col, "alignment must be a power of two up to 65536");
	*align = (uint32_t)v;
	return true;
}

/* Skip the rest of the current line (for .loc/.file, which have no ';'). */
static bool skip_line(struct parser *p, uint32_t line)
{
	for (;;) {
		const struct ptx_token *t = peek(p, 0);
		if (t->kind == PTX_TOK_ERROR)
			return fail_tok(p, t, "invalid token");
		if (t->kind == PTX_TOK_EOF || t->line != line)
			return true;
		next(p);
	}
}

/* .section NAME { ... } */
static bool skip_section(struct parser *p)
{
	struct ptx_token st = next(p);
	while (peek(p, 0)->kind != '{') {
		const struct ptx_token *t = peek(p, 0);
		if (t->kind == PTX_TOK_ERROR || t->kind == PTX_TOK_EOF || t->kind == ';' || t->kind == '}')
			return fail_tok(p, t, "expected '{' after .section, got %s", qtok(t).s);
		next(p);
	}
	next(p);
	unsigned depth = 1;
	while (depth) {
		const struct ptx_token *t = peek(p, 0);
		if (t->kind == PTX_TOK_ERROR)
			return fail_tok(p, t, "invalid token");
		if (t->kind == PTX_TOK_EOF)
			return fail_at(p, st.line, st.col, "unterminated .section");
		if (t->kind == '{')
			depth++;
		else if (t->kind == '}')
			depth--;
		next(p);
	}
	return true;
}

/* .pragma "..." {, "..."} ; */
static bool skip_pragma(struct parser *p)
{
	next(p);
	do {
		if (!expect(p, PTX_TOK_STRING, "a string after .pragma"))
			return false;
	} while (accept(p, ','));
	return expect(p, ';', "';' after .pragma");
}

/* .attribute( .managed ) and friends: accepted and ignored */
static bool skip_attribute(struct parser *p)
{
	next(p);
	if (!expect(p, '(', "'(' after .attribute"))
		return false;
	while (!accept(p, ')')) {
		const struct ptx_token *t = peek(p, 0);
		if (t->kind != PTX_TOK_DIRECTIVE && t->kind != ',')
			return fail_tok(p, t, "expected ')' in .attribute, got %s", qtok(t).s);
		next(p);
	}
	return true;
}

/* ------------------------------------------------------------------ */
/* declarations of variables                                           */
/* ------------------------------------------------------------------ */

struct decl_attrs {
	uint8_t space, type, vec;
	uint8_t opaque; /* OPAQUE_*: .texref/.surfref/.samplerref */
	uint32_t align;
	bool is_extern;
	uint32_t tline, tcol;
};

static int space_of_dir(const struct ptx_token *t)
{
	if (is_dir(t, ".global"))
		return SPACE_GLOBAL;
	if (is_dir(t, ".shared"))
		return SPACE_SHARED;
	if (is_dir(t, ".local"))
		return SPACE_LOCAL;
	if (is_dir(t, ".const"))
		return SPACE_CONST;
	if (is_dir(t, ".param"))
		return SPACE_PARAM;
	return -1;
}

/* attributes between the state space and the name:
 * .align N, .v2/.v4, .attribute(...), a type, .ptr[.space][.align N] */
static bool parse_var_attrs(struct parser *p, struct decl_attrs *a, bool allow_ptr)
{
	bool have_type = false, ptr = false;
	for (;;) {
		const struct ptx_token *t = peek(p, 0);
		if (t->kind != PTX_TOK_DIRECTIVE)
			break;
		int ty = type_of_dir(t);
		if (is_dir(t, ".align")) {
			next(p);
			if (!parse_align(p, &a->align))
				return false;
		} else if (is_dir(t, ".v2") || is_dir(t, ".v4")) {
			a->vec = t->text[2] == '2' ? 2 : 4;
			next(p);
		} else if (is_dir(t, ".attribute")) {
			if (!skip_attribute(p))
				return false;
		} else if (ty >= 0) {
			if (have_type)
				return fail_tok(p, t, "more than one type in declaration");
			if (ty == PTX_T_NONE)
				return fail_tok(p, t, "invalid type");
			have_type = true;
			a->type = (uint8_t)ty;
			a->tline = t->line;
			a->tcol = t->col;
			next(p);
		} else if (is_dir(t, ".texref") || is_dir(t, ".surfref") || is_dir(t, ".samplerref")) {
			/* opaque handle: an 8-byte variable holding the object handle */
			if (have_type)
				return fail_tok(p, t, "more than one type in declaration");
			have_type = true;
			a->type = PTX_T_B64;
			a->opaque = t->text[1] == 't' ? OPAQUE_TEXREF : t->text[2] == 'u' ? OPAQUE_SURFREF : OPAQUE_SAMPLERREF;
			a->tline = t->line;
			a->tcol = t->col;
			next(p);
		} else if (allow_ptr && is_dir(t, ".ptr")) {
			ptr = true;
			next(p);
		} else if (ptr && space_of_dir(t) >= 0 && space_of_dir(t) != SPACE_PARAM) {
			next(p);
		} else {
			return fail_tok(p, t, "unexpected %s in declaration", qtok(t).s);
		}
	}
	if (!have_type)
		return fail_tok(p, peek(p, 0), "expected a type in declaration, got %s", qtok(peek(p, 0)).s);
	return true;
}

/* [N][M]... ; a 0 entry means "[]" */
static bool parse_dims(struct parser *p, uint64_t *dims, unsigned *ndims)
{
	*ndims = 0;
	while (peek(p, 0)->kind == '[') {
		struct ptx_token lb = next(p);
		if (*ndims >= MAX_DIMS)
			return fail_at(p, lb.line, lb.col, "too many array dimensions (limit %d)", MAX_DIMS);
		uint64_t n = 0;
		if (peek(p, 0)->kind != ']') {
			const struct ptx_token t_ = *peek(p, 0); /* copy: used after parsing on */
			if (!parse_uint(p, &n, "an array size"))
				return false;
			if (n == 0)
				return fail_at(p, t_.line, t_.col, "array size must be positive");
			if (n > MAX_VAR_SIZE)
				return fail_at(p, t_.line, t_.col, "array too large");
		} else if (*ndims > 0) {
			return fail_at(p, lb.line, lb.col, "only the first array dimension may be left empty");
		}
		if (!expect(p, ']', "']'"))
			return false;
		dims[(*ndims)++] = n;
	}
	return true;
}

/* size in bytes of elsz * dims (dims[0] may be 0 = unknown -> returns 0) */
static bool dims_size(struct parser *p, const uint64_t *dims, unsigned nd, uint64_t elsz, uint64_t *out, uint32_t line,
		      uint32_t col)
{
	uint64_t s = elsz;
	for (unsigned i = 0; i < nd; i++) {
		if (dims[i] == 0) {
			s = 0;
			continue;
		}
		if (s && dims[i] > MAX_VAR_SIZE / s)
			return fail_at(p, line, col, "array too large");
		s *= dims[i];
	}
	*out = s;
	return true;
}

/* ---- initializers ---- */

struct initctx {
	int32_t vi;
	uint8_t type;
	uint32_t elsz;
	uint64_t sub[MAX_DIMS + 2]; /* elements spanned by a list at depth d */
	unsigned ndims;             /* including a vector dimension */
	bool unbounded;             /* first dimension from the initializer */
	uint64_t cursor, extent;
	uint8_t *buf;
	uint64_t cap;
	struct maskrun mr;
	uint32_t cap_syms;
};

static bool init_reserve(struct parser *p, struct initctx *c, uint64_t elems, uint32_t line, uint32_t col)
{
	uint64_t need = elems * c->elsz;
	if (elems > MAX_INIT_BYTES || need > MAX_INIT_BYTES)
		return fail_at(p, line, col, "initialized variable too large (limit %u bytes)", MAX_INIT_BYTES);
	if (p->init_bytes + need > MAX_INIT_BYTES)
		return fail_at(p, line, col, "too much initialized data in module (limit %u bytes)", MAX_INIT_BYTES);
	if (need <= c->cap)
		return true;
	uint64_t nc = c->cap ? c->cap : 64;
	while (nc < need)
		nc *= 2;
	uint8_t *nb = realloc(c->buf, nc);
	if (!nb)
		return fail_oom(p);
	memset(nb + c->cap, 0, nc - c->cap);
	c->buf = nb;
	c->cap = nc;
	return true;
}

/* n bytes little-endian; bytes past the 8th (.b128) repeat the sign of a negative value */
static void put_le(uint8_t *d, uint64_t v, unsigned n, bool neg)
{
	for (unsigned i = 0; i < n; i++)
		d[i] = i < 8 ? (uint8_t)(v >> (8 * i)) : neg ? 0xff : 0;
}

static uint64_t f2bits(float f)
{
	uint32_t u;
	memcpy(&u, &f, 4);
	return u;
}
static uint64_t d2bits(double d)
{
	uint64_t u;
	memcpy(&u, &d, 8);
	return u;
}
static double bits2d(uint64_t u)
{
	double d;
	memcpy(&d, &u, 8);
	return d;
}
static float bits2f(uint32_t u)
{
	float f;
	memcpy(&f, &u, 4);
	return f;
}

static bool add_init_sym(struct parser *p, struct initctx *c, uint64_t byte_off, const char *name, uint32_t len,
			 uint32_t line, uint32_t col, int64_t add, uint8_t width, bool generic)
{
	struct ptx_var *v = &p->m->vars[c->vi];
	if (!GROW(p, v->init_syms, c->cap_syms, v->ninit_syms + 1))
		return false;
	v->init_syms[v->ninit_syms] = (struct ptx_init_sym){byte_off, -1, -1, add, width, generic};
	if (!GROW(p, p->mrefs, p->cap_mrefs, p->nmrefs + 1))
		return false;
	p->mrefs[p->nmrefs++] = (struct ref){(uint32_t)c->vi, v->ninit_syms, 0, REF_INIT, name, len, line, col};
	v->ninit_syms++;
	return true;
}

static bool flush_maskrun(struct parser *p, struct initctx *c)
{
	struct maskrun *r = &c->mr;
	if (!r->active)
		return true;
	r->active = false;
	if (r->nbytes != 8 && r->nbytes != 4)
		return fail_at(p, r->line, r->col, "incomplete address initializer (bytes of an address must appear in order)");
	return add_init_sym(p, c, r->byte_off, r->name, r->len, r->line, r->col, r->add, (uint8_t)r->nbytes, r->generic);
}

/* symbol expression: name | generic(name), then optional +N / -N */
static bool parse_symexpr(struct parser *p, struct namepos *np, int64_t *add, bool *is_generic)
{
	bool generic = false;
	const struct ptx_token *t = peek(p, 0);
	if (tok_is(t, PTX_TOK_IDENT, "generic") && peek(p, 1)->kind == '(') {
		generic = true;
		next(p);
		next(p);
		t = peek(p, 0);
	}
	if (t->kind != PTX_TOK_IDENT)
		return fail_tok(p, t, "expected a symbol name, got %s", qtok(t).s);
	*np = (struct namepos){t->text, t->len, t->line, t->col};
	next(p);
	if (generic && !expect(p, ')', "')' after generic(name"))
		return false;
	*is_generic = generic;
	*add = 0;
	if (peek(p, 0)->kind == '+' || peek(p, 0)->kind == '-') {
		bool minus = next(p).kind == '-';
		int64_t v = 0;
		if (!parse_sint(p, &v, "an offset"))
			return false;
		*add = minus ? (int64_t)(0 - (uint64_t)v) : v;
	}
	return true;
}

static bool init_scalar(struct parser *p, struct initctx *c)
{
	const struct ptx_token *t = peek(p, 0);
	uint32_t line = t->line, col = t->col;
	if (!c->unbounded && c->cursor >= c->sub[0])
		return fail_at(p, line, col, "too many initializers");
	if (!init_reserve(p, c, c->cursor + 1, line, col))
		return false;
	uint64_t off = c->cursor * c->elsz;
	uint8_t *dst = c->buf + off;
	enum ptx_type ty = c->type;
	/* address-byte form: 0xFF00(generic(sym)+4) */
	if (t->kind == PTX_TOK_INT && peek(p, 1)->kind == '(') {
		uint64_t mask = t->ival;
		int k = -1;
		for (int i = 0; i < 8; i++)
			if (mask == 0xffull << (8 * i))
				k = i;
		if (k < 0 || t->overflow)
			return fail_at(p, line, col, "address byte mask must be 0xFF shifted by whole bytes");
		if (c->elsz != 1)
			return fail_at(p, line, col, "address byte initializers need a byte-sized element type");
		next(p);
		next(p);
		struct namepos np;
		int64_t add;
		bool gen;
		if (!parse_symexpr(p, &np, &add, &gen))
			return false;
		if (!expect(p, ')', "')'"))
			return false;
		struct maskrun *r = &c->mr;
		bool cont = r->active && (uint32_t)k == r->nbytes && r->byte_off + r->nbytes == off && r->add == add &&
			    r->generic == gen &&
			    r->len == np.len && memcmp(r->name, np.name, np.len) == 0;
		if (!cont) {
			if (!flush_maskrun(p, c))
				return false;
			if (k != 0)
				return fail_at(p, line, col, "incomplete address initializer (bytes of an address must appear in order)");
			*r = (struct maskrun){true, 0, off, np.name, np.len, np.line, np.col, add, gen};
		}
		r->nbytes++;
		if (r->nbytes == 8 && !flush_maskrun(p, c))
			return false;
		c->cursor++;
		return true;
	}
	if (!flush_maskrun(p, c))
		return false;
	if (t->kind == PTX_TOK_IDENT) {
		struct namepos np;
		int64_t add;
		bool gen;
		if (c->elsz != 4 && c->elsz != 8)
			return fail_at(p, line, col, "symbol initializers need a 32- or 64-bit element type");
		if (!parse_symexpr(p, &np, &add, &gen))
			return false;
		if (!add_init_sym(p, c, off, np.name, np.len, np.line, np.col, add, (uint8_t)c->elsz, gen))
			return false;
		c->cursor++;
		return true;
	}
	bool neg = false;
	if (t->kind == '-') {
		neg = true;
		next(p);
		t = peek(p, 0);
	}
	uint64_t bits;
	if (ty == PTX_T_PRED)
		return fail_at(p, line, col, "predicate variables cannot be initialized");
	if (t->kind == PTX_TOK_INT) {
		if (t->overflow || (neg && t->ival > (uint64_t)INT64_MAX + 1))
			return fail_tok(p, t, "immediate out of range");
		uint64_t v = neg ? 0 - t->ival : t->ival;
		if (ty == PTX_T_F32) {
			bits = f2bits(neg ? (float)(int64_t)v : (float)v);
		} else if (ty == PTX_T_F64) {
			bits = d2bits(neg ? (double)(int64_t)v : (double)v);
		} else {
			unsigned b = 8 * c->elsz;
			if (b < 64) {
				bool fits = neg ? (int64_t)v >= -(int64_t)(1ull << (b - 1)) : v < (1ull << b);
				if (!fits)
					return fail_tok(p, t, "initializer value out of range for .%s", ptx_type_name[ty]);
			}
			bits = v;
		}
	} else if (t->kind == PTX_TOK_FLOAT || t->kind == PTX_TOK_F32 || t->kind == PTX_TOK_F64) {
		double d = t->kind == PTX_TOK_FLOAT ? t->fval
			   : t->kind == PTX_TOK_F32 ? (double)bits2f((uint32_t)t->ival)
						     : bits2d(t->ival);
		if (neg)
			d = -d;
		if (ty == PTX_T_F32)
			bits = t->kind == PTX_TOK_F32 ? (t->ival ^ (neg ? 0x80000000ull : 0)) : f2bits((float)d);
		else if (ty == PTX_T_F64)
			bits = t->kind == PTX_TOK_F64 ? (t->ival ^ (neg ? 0x8000000000000000ull : 0)) : d2bits(d);
		else if (t->kind == PTX_TOK_F32 && c->elsz == 4 && !neg)
			bits = t->ival;
		else if (t->kind == PTX_TOK_F64 && c->elsz == 8 && !neg)
			bits = t->ival;
		else
			return fail_tok(p, t, "floating-point initializer for .%s variable", ptx_type_name[ty]);
	} else {
		return fail_tok(p, t, "expected an initializer value, got %s", qtok(t).s);
	}
	bool sext = neg && t->kind == PTX_TOK_INT;
	next(p);
	put_le(dst, bits, c->elsz, sext);
	c->cursor++;
	return true;
}

static bool init_list(struct parser *p, struct initctx *c, unsigned depth)
{
	next(p); /* '{' */
	uint64_t start = c->cursor;
	uint64_t span = c->sub[depth];
	bool bounded = !(depth == 0 && c->unbounded);
	if (peek(p, 0)->kind == '}')
		return fail_tok(p, peek(p, 0), "empty initializer list");
	for (;;) {
		const struct ptx_token *t = peek(p, 0);
		if (t->kind == '{') {
			if (depth + 1 >= c->ndims)
				return fail_tok(p, t, "too many nested braces in initializer");
			uint64_t s = c->sub[depth + 1];
			uint64_t at = (c->cursor + s - 1) / s * s;
			if (bounded && at + s > start + span)
				return fail_tok(p, t, "too many initializers");
			if (!flush_maskrun(p, c))
				return false;
			c->cursor = at;
			if (!init_list(p, c, depth + 1))
				return false;
			c->cursor = at + s;
		} else {
			if (bounded && c->cursor >= start + span)
				return fail_tok(p, t, "too many initializers");
			if (!init_scalar(p, c))
				return false;
		}
		if (c->cursor > c->extent)
			c->extent = c->cursor;
		if (accept(p, ','))
			continue;
		if (peek(p, 0)->kind == '}')
			break;
		return fail_tok(p, peek(p, 0), "expected ',' or '}' in initializer list, got %s", qtok(peek(p, 0)).s);
	}
	next(p);
	return true;
}

/* '=' already consumed.  dims[0] == 0 means the size comes from the initializer. */
static bool parse_initializer(struct parser *p, int32_t vi, uint64_t *dims, unsigned nd, uint8_t vec)
{
	struct initctx c;
	memset(&c, 0, sizeof(c));
	c.vi = vi;
	struct ptx_var *v = &p->m->vars[vi];
	c.type = v->type;
	c.elsz = ptx_type_size[v->type];
	uint64_t ed[MAX_DIMS + 1];
	unsigned n = 0;
	for (unsigned i = 0; i < nd; i++)
		ed[n++] = dims[i];
	if (vec > 1)
		ed[n++] = vec;
	c.ndims = n;
	c.sub[n] = 1;
	for (unsigned i = n; i-- > 0;)
		c.sub[i] = ed[i] ? ed[i] * c.sub[i + 1] : 0;
	c.unbounded = n > 0 && ed[0] == 0;
	const struct ptx_token *t = peek(p, 0);
	uint32_t line = t->line, col = t->col;
	if (!c.unbounded && c.sub[0] * c.elsz > MAX_INIT_BYTES)
		return fail_at(p, line, col, "initialized variable too large (limit %u bytes)", MAX_INIT_BYTES);
	bool ok;
	if (t->kind == '{') {
		if (n == 0)
			return fail_tok(p, t, "initializer list for a scalar variable");
		ok = init_list(p, &c, 0);
	} else {
		if (n > 0)
			ok = fail_tok(p, t, "array initializer must be a list in braces");
		else
			ok = init_scalar(p, &c);
	}
	if (ok)
		ok = flush_maskrun(p, &c);
	v = &p->m->vars[vi];
	if (!ok) {
		free(c.buf);
		return false;
	}
	uint64_t total;
	if (c.unbounded) {
		uint64_t per = c.sub[1];
		uint64_t items = (c.extent + per - 1) / per;
		dims[0] = items;
		total = items * per;
	} else {
		total = c.sub[0] ? c.sub[0] : 1;
	}
	if (!init_reserve(p, &c, total, line, col)) {
		free(c.buf);
		return false;
	}
	v->init = c.buf;
	v->size = total * c.elsz;
	p->init_bytes += v->size;
	return true;
}

/* One declaration statement: [space] attrs declarator {, declarator} ;
 * `func` is the owning function or -1. */
static bool parse_var_decl(struct parser *p, int32_t func, bool is_extern)
{
	struct ptx_token sp = next(p);
	struct decl_attrs a = {0};
	a.space = (uint8_t)space_of_dir(&sp);
	a.vec = 1;
	a.is_extern = is_extern;
	if (func < 0 && a.space == SPACE_PARAM)
		return fail_at(p, sp.line, sp.col, "'.param' variables must be declared inside a function or parameter list");
	/* .global/.const variables declared in a function (issue 16) have static
	 * storage in the module's images: module variables (func -1) whose name
	 * is visible in the function's scope only */
	bool fn_static = func >= 0 && (a.space == SPACE_GLOBAL || a.space == SPACE_CONST);
	if (!parse_var_attrs(p, &a, false))
		return false;
	if (a.type == PTX_T_PRED && a.space != SPACE_PARAM)
		return fail_at(p, a.tline, a.tcol, "variables of type .pred are not allowed in %.*s", (int)sp.len, sp.text);
	for (;;) {
		const struct ptx_token *t = peek(p, 0);
		if (t->kind != PTX_TOK_IDENT)
			return fail_tok(p, t, "expected a variable name, got %s", qtok(t).s);
		struct ptx_token nt = next(p);
		uint64_t dims[MAX_DIMS];
		unsigned nd;
		if (!parse_dims(p, dims, &nd))
			return false;
		int32_t vi = new_var(p, nt.text, nt.len, a.space, a.type, nt.line, nt.col, fn_static ? -1 : func);
		if (vi < 0)
			return false;
		struct ptx_var *v = &p->m->vars[vi];
		v->is_extern = is_extern;
		v->opaque = a.opaque;
		if (a.opaque && a.space != SPACE_GLOBAL)
			return fail_at(p, a.tline, a.tcol, "%s variables must be .global",
				       a.opaque == OPAQUE_TEXREF ? ".texref" : a.opaque == OPAQUE_SURFREF ? ".surfref" : ".samplerref");
		uint64_t elsz = (uint64_t)ptx_type_size[a.type] * a.vec;
		v->align = a.align ? a.align : (uint32_t)elsz;
		if (!dims_size(p, dims, nd, elsz, &v->size, nt.line, nt.col))
			return false;
		if (func >= 0) {
			if (!scope_declare(p, p->m->vars[vi].name, nt.len, SK_VAR, vi, nt.line, nt.col))
				return false;
		} else {
			struct sm_slot *s = sm_get(&p->modvars, p->m->vars[vi].name, nt.len);
			if (!s)
				return fail_oom(p);
			if (s->val >= 0)
				return fail_at(p, nt.line, nt.col, "redefinition of %s", qname(nt.text, nt.len).s);
			s->val = vi;
		}
		if (accept(p, '=')) {
			const struct ptx_token *it = peek(p, 0);
			if (a.space != SPACE_GLOBAL && a.space != SPACE_CONST)
				return fail_tok(p, it, "variables in %.*s cannot be initialized", (int)sp.len, sp.text);
			if (is_extern)
				return fail_tok(p, it, "extern variables cannot be initialized");
			if (a.opaque)
				return fail_tok(p, it, "initializers of .texref/.surfref/.samplerref fields are not supported "
						       "(the texture object carries them)");
			if (!parse_initializer(p, vi, dims, nd, a.vec))
				return false;
		} else if (nd > 0 && dims[0] == 0 && !is_extern) {
			return fail_at(p, nt.line, nt.col, "array %s needs a size or an initializer", qname(nt.text, nt.len).s);
		}
		if (accept(p, ','))
			continue;
		return expect(p, ';', "';' after declaration");
	}
}

/* .reg [.v2|.v4] type name[<N>] {, name[<N>]} ; */
static bool parse_reg_decl(struct parser *p)
{
	next(p);
	const struct ptx_token *t = peek(p, 0);
	unsigned vn = 0; /* vector registers (.reg .v4 .f32 %v): elements %v.x .. %v.w */
	if (is_dir(t, ".v2") || is_dir(t, ".v4")) {
		vn = t->text[2] - '0';
		next(p);
		t = peek(p, 0);
	}
	int ty = type_of_dir(t);
	if (ty <= 0)
		return fail_tok(p, t, "expected a register type, got %s", qtok(t).s);
	next(p);
	for (;;) {
		t = peek(p, 0);
		if (t->kind != PTX_TOK_IDENT)
			return fail_tok(p, t, "expected a register name, got %s", qtok(t).s);
		struct ptx_token nt = next(p);
		int sr;
		if (is_sreg_name(nt.text, nt.len, &sr))
			return fail_at(p, nt.line, nt.col, "cannot declare special register %s", qname(nt.text, nt.len).s);
		if (nt.len == 1 && nt.text[0] == '_')
			return fail_at(p, nt.line, nt.col, "'_' cannot be declared as a register");
		if (vn) {
			if (peek(p, 0)->kind == '<')
				return fail_tok(p, peek(p, 0), "vector registers cannot be declared as a range");
			if (ty == PTX_T_PRED)
				return fail_at(p, nt.line, nt.col, "vector registers cannot be .pred");
			int32_t first = (int32_t)cur(p)->nregs;
			for (unsigned k = 0; k < vn; k++) {
				char *nm = malloc(nt.len + 3);
				if (!nm)
					return fail_oom(p);
				memcpy(nm, nt.text, nt.len);
				nm[nt.len] = '.';
				nm[nt.len + 1] = "xyzw"[k];
				nm[nt.len + 2] = 0;
				if (!declare_reg(p, nm, nt.len + 2, (uint8_t)ty, nt.line, nt.col))
					return false;
			}
			/* the vector's own name: a prefix of its first element's name */
			if (!scope_declare(p, cur(p)->regs[first].name, nt.len, SK_VREG, first | (int32_t)(vn << 24), nt.line,
					   nt.col))
				return false;
			if (accept(p, ','))
				continue;
			return expect(p, ';', "';' after .reg declaration");
		}
		if (accept(p, '<')) {
			const struct ptx_token ct_ = *peek(p, 0); /* copy: used after parsing on */
			uint64_t n = 0;
			if (!parse_uint(p, &n, "a register count"))
				return false;
			if (n == 0)
				return fail_at(p, ct_.line, ct_.col, "register count must be at least 1");
			if (n > MAX_REGS_PER_FUNC)
				return fail_at(p, ct_.line, ct_.col, "too many registers (limit %u per function)", MAX_REGS_PER_FUNC);
			if (!expect(p, '>', "'>'"))
				return false;
			if (cur(p)->nregs + n > MAX_REGS_PER_FUNC || p->module_regs + n > MAX_REGS_PER_MODULE)
				return fail_at(p, ct_.line, ct_.col, "too many registers (limit %u per function, %u per module)",
					       MAX_REGS_PER_FUNC, MAX_REGS_PER_MODULE);
			p->reg_name_bytes += n * (nt.len + 8);
			if (p->reg_name_bytes > MAX_REG_NAME_BYTES)
				return fail_at(p, ct_.line, ct_.col, "too many registers (their names exceed %u bytes)",
					       MAX_REG_NAME_BYTES);
			if (!GROW(p, p->ranges, p->cap_ranges, p->nranges + 1))
				return false;
			p->ranges[p->nranges++] = (struct rdecl){nt.text, nt.len, (uint32_t)n};
			if (!GROW(p, cur(p)->regs, p->cap_regs, cur(p)->nregs + n))
				return false;
			for (uint64_t i = 0; i < n; i++) {
				char *nm = malloc(nt.len + 12);
				if (!nm)
					return fail_oom(p);
				memcpy(nm, nt.text, nt.len);
				int l = snprintf(nm + nt.len, 12, "%u", (unsigned)i);
				if (!declare_reg(p, nm, nt.len + (uint32_t)l, (uint8_t)ty, nt.line, nt.col))
					return false;
			}
		} else {
			char *nm = xstrndup(nt.text, nt.len);
			if (!nm)
				return fail_oom(p);
			if (!declare_reg(p, nm, nt.len, (uint8_t)ty, nt.line, nt.col))
				return false;
		}
		if (accept(p, ','))
			continue;
		return expect(p, ';', "';' after .reg declaration");
	}
}

/* ------------------------------------------------------------------ */
/* names in operands                                                   */
/* ------------------------------------------------------------------ */

/* Resolve a name visible here: returns SK_REG/SK_VAR with *idx, or SK_NONE. */
static int lookup(struct parser *p, const char *s, uint32_t n, int32_t *idx)
{
	struct sm_slot *sl = p->fi >= 0 ? sm_find(&p->scope, s, n) : NULL;
	if (sl && sl->kind != SK_NONE) {
		*idx = sl->val;
		return sl->kind;
	}
	sl = sm_find(&p->modvars, s, n);
	if (sl && sl->val >= 0) {
		*idx = sl->val;
		return SK_VAR;
	}
	return SK_NONE;
}

static bool unknown_reg(struct parser *p, const struct ptx_token *t)
{
	uint32_t n = t->len;
	while (n > 1 && t->text[n - 1] >= '0' && t->text[n - 1] <= '9')
		n--;
	if (n < t->len) {
		for (uint32_t i = p->nranges; i-- > 0;) {
			struct rdecl *r = &p->ranges[i];
			if (r->plen == n && memcmp(r->prefix, t->text, n) == 0)
				return fail_tok(p, t, "unknown register %s (declared: %.*s<%u>)", qtok(t).s, (int)(n > 40 ? 40 : n),
						t->text, r->count);
		}
	}
	return fail_tok(p, t, "register %s is not declared", qtok(t).s);
}

/* After a vector register's name (consumed): its .x/.y/.z/.w (or .r/.g/.b/.a)
 * component, if one follows directly; returns the element index, -1 if none,
 * -2 after an error. */
static int vreg_component(struct parser *p, const struct ptx_token *name, int32_t val)
{
	const struct ptx_token *c = peek(p, 0);
	if (c->kind != PTX_TOK_DIRECTIVE || c->space_before)
		return -1;
	unsigned n = (unsigned)val >> 24;
	const char *xyzw = "xyzw", *rgba = "rgba";
	for (unsigned k = 0; k < n; k++)
		if (c->len == 2 && (c->text[1] == xyzw[k] || c->text[1] == rgba[k])) {
			next(p);
			return (int)k;
		}
	fail_tok(p, c, "vector register %s has no component %s", qname(name->text, name->len).s, qtok(c).s);
	return -2;
}

/* a register name token -> index (must be declared) */
static bool reg_of(struct parser *p, const struct ptx_token *t, int32_t *reg)
{
	if (t->kind != PTX_TOK_IDENT)
		return fail_tok(p, t, "expected a register, got %s", qtok(t).s);
	int32_t idx;
	int k = lookup(p, t->text, t->len, &idx);
	if (k == SK_REG) {
		*reg = idx;
		return true;
	}
	if (k == SK_VAR)
		return fail_tok(p, t, "expected a register, got variable %s", qtok(t).s);
	if (k == SK_VREG)
		return fail_tok(p, t, "vector register %s cannot be used here", qtok(t).s);
	if (t->text[0] == '%')
		return unknown_reg(p, t);
	return fail_tok(p, t, "unknown register %s", qtok(t).s);
}

static bool pred_reg_of(struct parser *p, const struct ptx_token *t, int32_t *reg)
{
	if (!reg_of(p, t, reg))
		return false;
	if (cur(p)->regs[*reg].type != PTX_T_PRED)
		return fail_tok(p, t, "%s is not a .pred register", qtok(t).s);
	return true;
}

/* ------------------------------------------------------------------ */
/* operands                                                            */
/* ------------------------------------------------------------------ */

enum { OPM_NORMAL, OPM_LABEL, OPM_BTABLE };

static void opd_init(struct ptx_operand *o)
{
	memset(o, 0, sizeof(*o));
	o->reg = o->reg2 = o->sym = o->func = o->target = -1;
}

/* immediate: [-] INT | FLOAT | F32 | F64 */
static bool parse_imm(struct parser *p, uint8_t *kind, uint64_t *bits)
{
	bool neg = false;
	const struct ptx_token *t = peek(p, 0);
	if (t->kind == '-') {
		neg = true;
		next(p);
		t = peek(p, 0);
	}
	switch (t->kind) {
	case PTX_TOK_INT:
		if (t->overflow || (neg && t->ival > (uint64_t)INT64_MAX + 1))
			return fail_tok(p, t, "immediate out of range");
		*kind = IMM_INT;
		*bits = neg ? 0 - t->ival : t->ival;
		break;
	case PTX_TOK_FLOAT:
		*kind = IMM_F64;
		*bits = d2bits(neg ? -t->fval : t->fval);
		break;
	case PTX_TOK_F32:
		*kind = IMM_F32;
		*bits = t->ival ^ (neg ? 0x80000000ull : 0);
		break;
	case PTX_TOK_F64:
		*kind = IMM_F64;
		*bits = t->ival ^ (neg ? 0x8000000000000000ull : 0);
		break;
	default:
		return fail_tok(p, t, "expected a number, got %s", qtok(t).s);
	}
	next(p);
	return true;
}

static bool add_fref(struct parser *p, uint8_t what, uint32_t insn, unsigned opd, const struct ptx_token *t)
{
	if (!GROW(p, p->frefs, p->cap_frefs, p->nfrefs + 1))
		return false;
	p->frefs[p->nfrefs++] = (struct ref){(uint32_t)p->fi, insn, (uint8_t)opd, what, t->text, t->len, t->line, t->col};
	return true;
}
static bool add_mref(struct parser *p, uint8_t what, uint32_t insn, unsigned opd, const struct ptx_token *t)
{
	if (!GROW(p, p->mrefs, p->cap_mrefs, p->nmrefs + 1))
		return false;
	p->mrefs[p->nmrefs++] = (struct ref){(uint32_t)p->fi, insn, (uint8_t)opd, what, t->text, t->len, t->line, t->col};
	return true;
}

static bool parse_address(struct parser *p, struct ptx_operand *o)
{
	next(p); /* '[' */
	o->kind = OPD_ADDR;
	const struct ptx_token *t = peek(p, 0);
	if (t->kind == PTX_TOK_IDENT) {
		int32_t idx;
		int k = lookup(p, t->text, t->len, &idx);
		if (k == SK_REG) {
			o->abase = ABASE_REG;
			o->reg = idx;
		} else if (k == SK_VAR) {
			o->abase = ABASE_SYM;
			o->sym = idx;
		} else if (k == SK_VREG) {
			return fail_tok(p, t, "vector register %s cannot be an address", qtok(t).s);
		} else if (t->text[0] == '%') {
			return unknown_reg(p, t);
		} else {
			return fail_tok(p, t, "unknown symbol %s", qtok(t).s);
		}
		next(p);
		t = peek(p, 0);
		if (t->kind == '+' || t->kind == '-') {
			bool minus = next(p).kind == '-';
			int64_t v = 0;
			if (!parse_sint(p, &v, "an offset"))
				return false;
			o->offset = minus ? (int64_t)(0 - (uint64_t)v) : v;
		}
	} else if (t->kind == PTX_TOK_INT || t->kind == '-') {
		int64_t v = 0;
		if (!parse_sint(p, &v, "an address"))
			return false;
		o->abase = ABASE_NONE;
		o->offset = v;
	} else {
		return fail_tok(p, t, "expected a register, symbol or constant address, got %s", qtok(t).s);
	}
	return expect(p, ']', "']' after address");
}

static bool parse_vector(struct parser *p, struct ptx_operand *o)
{
	next(p); /* '{' */
	o->kind = OPD_VEC;
	o->elem = calloc(PTX_MAX_VEC, sizeof *o->elem); /* freed with the instruction, also on error */
	if (!o->elem)
		return fail_oom(p);
	for (int i = 0; i < PTX_MAX_VEC; i++)
		o->elem[i].reg = -1;
	for (;;) {
		const struct ptx_token *t = peek(p, 0);
		if (o->nelem >= PTX_MAX_VEC)
			return fail_tok(p, t, "too many vector elements (at most %d)", PTX_MAX_VEC);
		struct ptx_elem *e = &o->elem[o->nelem];
		if (tok_is(t, PTX_TOK_IDENT, "_")) {
			e->kind = OPD_SINK;
			next(p);
		} else if (t->kind == PTX_TOK_IDENT) {
			int32_t vv;
			if (lookup(p, t->text, t->len, &vv) == SK_VREG) { /* {%v.x, ...} */
				struct ptx_token nt = next(p);
				int ci = vreg_component(p, &nt, vv);
				if (ci == -2)
					return false;
				if (ci < 0)
					return fail_at(p, nt.line, nt.col, "a vector register in a vector operand needs a component (.x, ...)");
				e->kind = OPD_REG;
				e->reg = (vv & 0xffffff) + ci;
				o->nelem++;
				if (accept(p, ','))
					continue;
				return expect(p, '}', "',' or '}' in vector operand");
			}
			if (!reg_of(p, t, &e->reg))
				return false;
			e->kind = OPD_REG;
			next(p);
		} else if (t->kind == '-' || t->kind == PTX_TOK_INT || t->kind == PTX_TOK_FLOAT || t->kind == PTX_TOK_F32 ||
			   t->kind == PTX_TOK_F64) {
			e->kind = OPD_IMM;
			if (!parse_imm(p, &e->imm_kind, &e->imm))
				return false;
		} else {
			return fail_tok(p, t, "vector elements must be registers, immediates or '_', got %s", qtok(t).s);
		}
		o->nelem++;
		if (accept(p, ','))
			continue;
		return expect(p, '}', "',' or '}' in vector operand");
	}
}

static bool parse_operand(struct parser *p, struct ptx_operand *o, int mode, uint32_t insn, unsigned k)
{
	const struct ptx_token *t = peek(p, 0);
	switch (t->kind) {
	case '!': {
		next(p);
		t = peek(p, 0);
		if (!reg_of(p, t, &o->reg))
			return false;
		o->kind = OPD_REG;
		o->neg = 1;
		next(p);
		return true;
	}
	case '{':
		return parse_vector(p, o);
	case '[':
		return parse_address(p, o);
	case '-':
	case PTX_TOK_INT:
	case PTX_TOK_FLOAT:
	case PTX_TOK_F32:
	case PTX_TOK_F64:
		o->kind = OPD_IMM;
		return parse_imm(p, &o->imm_kind, &o->imm);
	case PTX_TOK_IDENT:
		break;
	default:
		return fail_tok(p, t, "expected an operand, got %s", qtok(t).s);
	}
	struct ptx_token nt = *t;
	if (mode == OPM_LABEL) {
		o->kind = OPD_LABEL;
		next(p);
		return add_fref(p, REF_LABEL, insn, k, &nt);
	}
	if (mode == OPM_BTABLE) {
		o->kind = OPD_LIST;
		next(p);
		return add_fref(p, REF_BTABLE, insn, k, &nt);
	}
	if (nt.len == 1 && nt.text[0] == '_') {
		o->kind = OPD_SINK;
		next(p);
		if (accept(p, '|')) { /* "_|%p": only the predicate destination is wanted */
			const struct ptx_token *t2 = peek(p, 0);
			if (!pred_reg_of(p, t2, &o->reg2))
				return false;
			next(p);
		}
		return true;
	}
	int32_t idx;
	int kind = lookup(p, nt.text, nt.len, &idx);
	if (kind == SK_VREG) { /* %v.x: one element; %v: the whole vector */
		next(p);
		int ci = vreg_component(p, &nt, idx);
		if (ci == -2)
			return false;
		if (ci >= 0) {
			o->kind = OPD_REG;
			o->reg = (idx & 0xffffff) + ci;
			return true;
		}
		o->kind = OPD_VEC;
		o->elem = calloc(PTX_MAX_VEC, sizeof *o->elem);
		if (!o->elem)
			return fail_oom(p);
		o->nelem = (uint8_t)((unsigned)idx >> 24);
		for (unsigned k = 0; k < o->nelem; k++)
			o->elem[k] = (struct ptx_elem){.kind = OPD_REG, .reg = (idx & 0xffffff) + (int32_t)k};
		return true;
	}
	if (kind == SK_REG) {
		o->kind = OPD_REG;
		o->reg = idx;
		next(p);
		/* scalar video source selectors: %r1.b0 .. .b3, .h0, .h1 (comp 1..6) */
		unsigned vop = cur(p)->insns[insn].op;
		const struct ptx_token *sel = peek(p, 0);
		if (vop >= OP_VADD && vop <= OP_VSHR && sel->kind == PTX_TOK_DIRECTIVE && !sel->space_before) {
			static const char *const sels[] = {".b0", ".b1", ".b2", ".b3", ".h0", ".h1"};
			unsigned si = 0;
			while (si < 6 && !(sel->len == 3 && memcmp(sel->text, sels[si], 3) == 0))
				si++;
			if (si == 6)
				return fail_tok(p, sel, "unknown operand selector %s (.b0-.b3, .h0, .h1)", qtok(sel).s);
			if (k == 0 || k == 3)
				return fail_tok(p, sel, "selectors on the destination and on c are not supported");
			o->comp = (uint8_t)(si + 1);
			next(p);
		}
		if (accept(p, '|')) {
			const struct ptx_token *t2 = peek(p, 0);
			if (!pred_reg_of(p, t2, &o->reg2))
				return false;
			next(p);
		}
		return true;
	}
	int sr;
	unsigned six;
	if (kind == SK_NONE && is_sreg_name_ix(nt.text, nt.len, &sr, &six)) {
		next(p);
		o->kind = OPD_SREG;
		o->sreg = (uint16_t)sr;
		o->comp = (uint8_t)six;
		if (sr >= SREG_RSMEM_BEGIN && sr <= SREG_RSMEM_OFF)
			p->m->uses_rsmem = true;
		if (sr == SREG_ENVREG)
			p->m->uses_envreg = true;
		bool vec = sr == SREG_TID || sr == SREG_NTID || sr == SREG_CTAID || sr == SREG_NCTAID;
		const struct ptx_token *c = peek(p, 0);
		bool has_comp = c->kind == PTX_TOK_DIRECTIVE && !c->space_before;
		if (vec) {
			if (!has_comp || c->len != 2 || c->text[1] < 'x' || c->text[1] > 'z')
				return fail_at(p, nt.line, nt.col, "special register %s needs a component (.x, .y or .z)",
					       qname(nt.text, nt.len).s);
			o->comp = (uint8_t)(c->text[1] - 'x');
			next(p);
		} else if (has_comp) {
			return fail_tok(p, c, "special register %s has no components", qname(nt.text, nt.len).s);
		}
		return true;
	}
	if (kind == SK_NONE && nt.text[0] == '%')
		return unknown_reg(p, &nt);
	next(p);
	if (kind == SK_VAR) {
		o->kind = OPD_SYM;
		o->sym = idx;
	} else {
		struct sm_slot *fs = sm_find(&p->funcnames, nt.text, nt.len);
		o->kind = OPD_FUNC;
		if (fs && fs->val >= 0) {
			o->func = fs->val;
		} else if (!add_mref(p, REF_OPD, insn, k, &nt)) {
			return false;
		}
	}
	t = peek(p, 0);
	if (t->kind == '+' || t->kind == '-') {
		bool minus = next(p).kind == '-';
		int64_t v = 0;
		if (!parse_sint(p, &v, "an offset"))
			return false;
		if (o->kind == OPD_FUNC && o->func >= 0)
			return fail_at(p, nt.line, nt.col, "offset added to function %s", qname(nt.text, nt.len).s);
		o->offset = minus ? (int64_t)(0 - (uint64_t)v) : v;
	}
	return true;
}

/* ( name, name, ... ) of .param variables, for call */
static bool parse_param_list(struct parser *p, struct ptx_operand *o)
{
	next(p); /* '(' */
	o->kind = OPD_LIST;
	p->ntmpl = 0;
	if (!accept(p, ')')) {
		for (;;) {
			const struct ptx_token *t = peek(p, 0);
			int32_t idx;
			if (t->kind == PTX_TOK_IDENT && lookup(p, t->text, t->len, &idx) == SK_REG) {
				/* a register argument/result: the callee has register parameters */
				if (!GROW(p, p->tmpl, p->cap_tmpl, p->ntmpl + 1))
					return false;
				p->tmpl[p->ntmpl++] = PTX_LIST_OF_REG(idx);
				next(p);
				if (accept(p, ','))
					continue;
				if (!expect(p, ')', "',' or ')' in call parameter list"))
					return false;
				break;
			}
			if (t->kind != PTX_TOK_IDENT || lookup(p, t->text, t->len, &idx) != SK_VAR ||
			    p->m->vars[idx].space != SPACE_PARAM) {
				if (t->kind == PTX_TOK_IDENT && lookup(p, t->text, t->len, &idx) == SK_NONE)
					return fail_tok(p, t, "unknown parameter %s", qtok(t).s);
				return fail_tok(p, t, "call arguments must be .param variables, got %s", qtok(t).s);
			}
			if (!GROW(p, p->tmpl, p->cap_tmpl, p->ntmpl + 1))
				return false;
			p->tmpl[p->ntmpl++] = idx;
			next(p);
			if (accept(p, ','))
				continue;
			if (!expect(p, ')', "',' or ')' in call parameter list"))
				return false;
			break;
		}
	}
	if (p->ntmpl) {
		o->list = malloc(p->ntmpl * sizeof(int32_t));
		if (!o->list)
			return fail_oom(p);
		memcpy(o->list, p->tmpl, p->ntmpl * sizeof(int32_t));
		o->nlist = p->ntmpl;
	}
	return true;
}

/* call{.uni} [(rets),] target [, (args)] [, prototype] ; */
static bool parse_call_operands(struct parser *p, struct ptx_insn *in, uint32_t ii)
{
	in->nopd = 3;
	in->opd[0].kind = OPD_LIST;
	in->opd[2].kind = OPD_LIST;
	if (peek(p, 0)->kind == '(') {
		if (!parse_param_list(p, &in->opd[0]))
			return false;
		if (!expect(p, ',', "',' after call return list"))
			return false;
	}
	const struct ptx_token *t = peek(p, 0);
	if (t->kind != PTX_TOK_IDENT)
		return fail_tok(p, t, "expected a function name, got %s", qtok(t).s);
	int32_t idx;
	int k = lookup(p, t->text, t->len, &idx);
	struct ptx_operand *tg = &in->opd[1];
	if (k == SK_REG) {
		tg->kind = OPD_REG;
		tg->reg = idx;
	} else if (k == SK_VAR) {
		return fail_tok(p, t, "call target %s is a variable, not a function", qtok(t).s);
	} else if (t->text[0] == '%') {
		return unknown_reg(p, t);
	} else {
		tg->kind = OPD_FUNC;
		struct sm_slot *fs = sm_find(&p->funcnames, t->text, t->len);
		if (fs && fs->val >= 0 && p->m->funcs[fs->val].is_entry)
			return fail_tok(p, t, "cannot call kernel %s", qtok(t).s);
		if (fs && fs->val >= 0)
			tg->func = fs->val;
		else if (!add_mref(p, REF_CALL, ii, 1, t))
			return false;
	}
	next(p);
	if (accept(p, ',')) {
		if (peek(p, 0)->kind == '(') {
			if (!parse_param_list(p, &in->opd[2]))
				return false;
			if (!accept(p, ','))
				goto done;
		}
		t = peek(p, 0);
		if (t->kind != PTX_TOK_IDENT)
			return fail_tok(p, t, "expected a call prototype name, got %s", qtok(t).s);
		struct sm_slot *ps = sm_find(&p->protos, t->text, t->len);
		if (!ps || ps->val < 0)
			return fail_tok(p, t, "unknown call prototype %s", qtok(t).s);
		if (tg->kind != OPD_REG)
			return fail_tok(p, t, "a call prototype is only allowed for indirect calls");
		in->opd[3].kind = OPD_LABEL;
		in->opd[3].target = -1;
		in->nopd = 4;
		next(p);
	}
done:
	return expect(p, ';', "';' after instruction");
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
	struct sm_slot *s = sm_find(&p->words, w, wl);
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
		if (in->op == OP_ST && o->kind != OPD_VEC && o->kind != OPD_REG && o->kind != OPD_IMM)
			return fail_at(p, pos[k].line, pos[k].col, "operand 2 of 'st' must be a register or immediate");
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

static bool parse_instruction(struct parser *p)
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
	struct sm_slot *os = sm_find(&p->opnames, mn.text, mn.len);
	if (!os)
		return fail_at(p, mn.line, mn.col, "unknown instruction %s", qname(mn.text, mn.len).s);
	int op = os->val;
	uint32_t ii = cur(p)->ninsns;
	struct ptx_insn *in = new_insn(p, &mn);
	if (!in)
		return false;
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
	if (!check_operands(p, in, sy->opds, pos, &mn))
		return false;
	return check_operand_details(p, in, pos, &mn, &st);
}

/* ------------------------------------------------------------------ */
/* labels, branch tables, prototypes                                   */
/* ------------------------------------------------------------------ */

/* .param [attrs] type [.ptr...] name [dims]  -> p->pd (appended) */
static bool parse_param(struct parser *p, bool name_optional)
{
	const struct ptx_token *t = peek(p, 0);
	if (is_dir(t, ".reg")) { /* register parameter: .reg .TYPE name */
		next(p);
		int ty = type_of_dir(peek(p, 0));
		if (ty <= 0)
			return fail_tok(p, peek(p, 0), "expected a register type, got %s", qtok(peek(p, 0)).s);
		next(p);
		struct pdesc d;
		memset(&d, 0, sizeof d);
		t = peek(p, 0);
		if (t->kind == PTX_TOK_IDENT) {
			d.name = t->text;
			d.len = t->len;
			next(p);
		} else if (!name_optional) {
			return fail_tok(p, t, "expected a parameter name, got %s", qtok(t).s);
		} else {
			d.name = "_";
			d.len = 1;
		}
		d.line = t->line;
		d.col = t->col;
		d.type = (uint8_t)ty;
		d.is_reg = true;
		d.size = d.align = ptx_type_size[ty];
		if (!GROW(p, p->pd, p->cap_pd, p->npd + 1))
			return false;
		p->pd[p->npd++] = d;
		return true;
	}
	if (!is_dir(t, ".param"))
		return fail_tok(p, t, "expected '.param', got %s", qtok(t).s);
	next(p);
	struct decl_attrs a = {0};
	a.vec = 1;
	if (!parse_var_attrs(p, &a, true))
		return false;
	struct pdesc d;
	memset(&d, 0, sizeof(d));
	t = peek(p, 0);
	if (t->kind == PTX_TOK_IDENT) {
		d.name = t->text;
		d.len = t->len;
		d.line = t->line;
		d.col = t->col;
		next(p);
	} else if (!name_optional) {
		return fail_tok(p, t, "expected a parameter name, got %s", qtok(t).s);
	} else {
		d.name = "_";
		d.len = 1;
		d.line = t->line;
		d.col = t->col;
	}
	uint64_t dims[MAX_DIMS];
	unsigned nd;
	if (!parse_dims(p, dims, &nd))
		return false;
	for (unsigned i = 0; i < nd; i++)
		if (dims[i] == 0)
			return fail_at(p, d.line, d.col, "parameter arrays need a size");
	uint64_t elsz = (uint64_t)ptx_type_size[a.type] * a.vec;
	if (!dims_size(p, dims, nd, elsz, &d.size, d.line, d.col))
		return false;
	d.type = a.type;
	d.align = a.align ? a.align : (uint32_t)elsz;
	if (!GROW(p, p->pd, p->cap_pd, p->npd + 1))
		return false;
	p->pd[p->npd++] = d;
	return true;
}

/* ( param {, param} ) or () */
static bool parse_params(struct parser *p, bool name_optional)
{
	next(p); /* '(' */
	if (accept(p, ')'))
		return true;
	for (;;) {
		if (!parse_param(p, name_optional))
			return false;
		if (accept(p, ','))
			continue;
		return expect(p, ')', "',' or ')' in parameter list");
	}
}

/* name: .callprototype [(ret)] _ (params) ; */
static bool parse_callprototype(struct parser *p, const struct ptx_token *name)
{
	next(p);
	p->npd = 0;
	if (peek(p, 0)->kind == '(' && !parse_params(p, true))
		return false;
	const struct ptx_token *t = peek(p, 0);
	if (!tok_is(t, PTX_TOK_IDENT, "_"))
		return fail_tok(p, t, "expected '_' in .callprototype, got %s", qtok(t).s);
	next(p);
	if (peek(p, 0)->kind == '(' && !parse_params(p, true))
		return false;
	if (is_dir(peek(p, 0), ".noreturn"))
		next(p);
	struct sm_slot *s = sm_get(&p->protos, name->text, name->len);
	if (!s)
		return fail_oom(p);
	s->val = 1;
	return expect(p, ';', "';' after .callprototype");
}

/* name: .branchtargets L1, L2 ;   name: .calltargets f1, f2 ; */
static bool parse_targets(struct parser *p, const struct ptx_token *name, bool branch)
{
	next(p);
	uint32_t first = p->nbtl;
	for (;;) {
		const struct ptx_token *t = peek(p, 0);
		if (t->kind != PTX_TOK_IDENT)
			return fail_tok(p, t, "expected a %s name, got %s", branch ? "label" : "function", qtok(t).s);
		if (branch) {
			if (!GROW(p, p->btl, p->cap_btl, p->nbtl + 1))
				return false;
			p->btl[p->nbtl++] = (struct namepos){t->text, t->len, t->line, t->col};
		}
		next(p);
		if (!accept(p, ','))
			break;
	}
	if (!expect(p, ';', branch ? "';' after .branchtargets" : "';' after .calltargets"))
		return false;
	struct sm_slot *s = sm_get(branch ? &p->btnames : &p->protos, name->text, name->len);
	if (!s)
		return fail_oom(p);
	if (branch) {
		if (s->val >= 0)
			return fail_tok(p, name, "duplicate .branchtargets name %s", qtok(name).s);
		if (!GROW(p, p->bts, p->cap_bts, p->nbts + 1))
			return false;
		p->bts[p->nbts] = (struct btable){first, p->nbtl - first};
		s->val = (int32_t)p->nbts++;
	} else {
		s->val = 1;
	}
	return true;
}

/* ------------------------------------------------------------------ */
/* function bodies                                                     */
/* ------------------------------------------------------------------ */

static bool parse_block(struct parser *p);

static bool parse_statement(struct parser *p)
{
	const struct ptx_token *t = peek(p, 0);
	switch (t->kind) {
	case '{': {
		struct ptx_token lb = next(p);
		if (!scope_push(p, &lb))
			return false;
		if (!parse_block(p))
			return false;
		scope_pop(p);
		return true;
	}
	case ';':
		next(p);
		return true;
	case '@':
		return parse_instruction(p);
	case PTX_TOK_IDENT:
		if (peek(p, 1)->kind == ':') {
			struct ptx_token name = next(p);
			next(p);
			const struct ptx_token *d = peek(p, 0);
			if (is_dir(d, ".branchtargets"))
				return parse_targets(p, &name, true);
			if (is_dir(d, ".calltargets"))
				return parse_targets(p, &name, false);
			if (is_dir(d, ".callprototype"))
				return parse_callprototype(p, &name);
			struct sm_slot *s = sm_get(&p->labels, name.text, name.len);
			if (!s)
				return fail_oom(p);
			if (s->val >= 0)
				return fail_tok(p, &name, "duplicate label %s", qtok(&name).s);
			s->val = (int32_t)cur(p)->ninsns;
			return true;
		}
		return parse_instruction(p);
	case PTX_TOK_DIRECTIVE:
		if (is_dir(t, ".reg"))
			return parse_reg_decl(p);
		if (is_dir(t, ".local") || is_dir(t, ".shared") || is_dir(t, ".param") || is_dir(t, ".global") ||
		    is_dir(t, ".const"))
			return parse_var_decl(p, p->fi, false);
		if (is_dir(t, ".pragma"))
			return skip_pragma(p);
		if (is_dir(t, ".loc") || is_dir(t, ".file")) {
			uint32_t line = t->line;
			next(p);
			return skip_line(p, line);
		}
		if (is_dir(t, ".section"))
			return skip_section(p);
		if (is_dir(t, ".branchtargets") || is_dir(t, ".callprototype") || is_dir(t, ".calltargets"))
			return fail_tok(p, t, "%s needs a label ('name: %.*s ...')", qtok(t).s, (int)t->len, t->text);
		return fail_tok(p, t, "unexpected directive %s in function body", qtok(t).s);
	case PTX_TOK_EOF:
		return fail_tok(p, t, "unexpected end of input: missing '}'");
	default:
		return fail_tok(p, t, "expected an instruction, got %s", qtok(t).s);
	}
}

/* statements up to and including the closing '}' (the '{' is consumed) */
static bool parse_block(struct parser *p)
{
	while (!p->failed) {
		if (peek(p, 0)->kind == '}') {
			next(p);
			return true;
		}
		uint32_t line = peek(p, 0)->line, col = peek(p, 0)->col;
		if (!parse_statement(p) && !recover(p, line, col))
			return false;
	}
	return false;
}

static bool resolve_function_refs(struct parser *p)
{
	struct ptx_function *f = cur(p);
	for (uint32_t i = 0; i < p->nfrefs; i++) {
		struct ref *r = &p->frefs[i];
		struct ptx_operand *o = &f->insns[r->b].opd[r->opd];
		if (r->what == REF_LABEL) {
			struct sm_slot *s = sm_find(&p->labels, r->name, r->len);
			if (!s || s->val < 0)
				return fail_at(p, r->line, r->col, "undefined label %s", qname(r->name, r->len).s);
			o->target = s->val;
		} else {
			struct sm_slot *s = sm_find(&p->btnames, r->name, r->len);
			if (!s || s->val < 0)
				return fail_at(p, r->line, r->col, "unknown .branchtargets name %s", qname(r->name, r->len).s);
			struct btable *bt = &p->bts[s->val];
			p->brx_targets += bt->count;
			if (p->brx_targets > MAX_BRX_TARGETS)
				return fail_at(p, r->line, r->col, "too many brx targets in module (limit %u)", MAX_BRX_TARGETS);
			o->list = malloc((bt->count ? bt->count : 1) * sizeof(int32_t));
			if (!o->list)
				return fail_oom(p);
			o->nlist = bt->count;
			for (uint32_t k = 0; k < bt->count; k++) {
				struct namepos *np = &p->btl[bt->first + k];
				struct sm_slot *ls = sm_find(&p->labels, np->name, np->len);
				if (!ls || ls->val < 0)
					return fail_at(p, np->line, np->col, "undefined label %s", qname(np->name, np->len).s);
				o->list[k] = ls->val;
			}
		}
	}
	return true;
}

static void reset_function_state(struct parser *p)
{
	/* give back the unused capacity of the instruction and register arrays
	 * (growth doubles them): loading memory stays proportional to the text */
	if (p->fi >= 0) {
		struct ptx_function *f = cur(p);
		if (f->ninsns && f->ninsns < p->cap_insns) {
			struct ptx_insn *ni = realloc(f->insns, f->ninsns * sizeof *ni);
			if (ni)
				f->insns = ni;
		}
		if (f->nregs && f->nregs < p->cap_regs) {
			struct ptx_reg_info *nr = realloc(f->regs, f->nregs * sizeof *nr);
			if (nr)
				f->regs = nr;
		}
	}
	sm_free(&p->scope);
	sm_free(&p->labels);
	sm_free(&p->btnames);
	sm_free(&p->protos);
	p->nundo = 0;
	p->depth = 0;
	p->nfrefs = 0;
	p->nbts = 0;
	p->nbtl = 0;
	p->nranges = 0;
	p->cap_insns = 0;
	p->cap_regs = 0;
	p->fi = -1;
}

/* ------------------------------------------------------------------ */
/* functions                                                           */
/* ------------------------------------------------------------------ */

static bool make_param_vars(struct parser *p, int32_t fi, const struct pdesc *d, uint32_t n, bool entry, bool ret,
			    int32_t **out, uint32_t *nout)
{
	if (!n)
		return true;
	*out = malloc(n * sizeof(int32_t));
	if (!*out)
		return fail_oom(p);
	for (uint32_t i = 0; i < n; i++) {
		int32_t vi = new_var(p, d[i].name, d[i].len, SPACE_PARAM, d[i].type, d[i].line, d[i].col, fi);
		if (vi < 0)
			return false;
		struct ptx_var *v = &p->m->vars[vi];
		v->is_kparam = entry;
		v->is_fparam = !entry;
		v->is_retval = ret;
		v->align = d[i].align;
		v->size = d[i].size;
		v->is_reg = d[i].is_reg; /* its register is declared when the body starts */
		if (d[i].is_reg && entry)
			return fail_at(p, d[i].line, d[i].col, "kernel parameters cannot be registers");
		(*out)[i] = vi;
		(*nout)++;
	}
	return true;
}

/* A re-declaration or the definition of an already declared function:
 * the parameter lists must agree; a definition renames the parameters. */
static bool merge_params(struct parser *p, const struct ptx_token *name, const int32_t *vars, uint32_t nvars,
			 const struct pdesc *d, uint32_t n, bool rename)
{
	if (n != nvars)
		return fail_tok(p, name, "conflicting declaration of %s (different number of parameters)", qtok(name).s);
	for (uint32_t i = 0; i < n; i++) {
		struct ptx_var *v = &p->m->vars[vars[i]];
		if (v->size != d[i].size || v->is_reg != d[i].is_reg)
			return fail_at(p, d[i].line, d[i].col, "conflicting declaration of %s (parameter %u differs)",
				       qtok(name).s, i + 1);
		if (rename) {
			char *nm = xstrndup(d[i].name, d[i].len);
			if (!nm)
				return fail_oom(p);
			free(v->name);
			v->name = nm;
			v->type = d[i].type;
			v->align = d[i].align;
			v->line = d[i].line;
			v->col = d[i].col;
		}
	}
	return true;
}

static bool parse_perf_directives(struct parser *p, uint32_t *maxntid, uint32_t *reqntid, uint32_t *minncta,
				  uint32_t *maxnreg)
{
	for (;;) {
		const struct ptx_token *t = peek(p, 0);
		uint32_t *dst = NULL;
		unsigned maxn = 1;
		if (is_dir(t, ".maxntid")) {
			dst = maxntid;
			maxn = 3;
		} else if (is_dir(t, ".reqntid")) {
			dst = reqntid;
			maxn = 3;
		} else if (is_dir(t, ".minnctapersm")) {
			dst = minncta;
		} else if (is_dir(t, ".maxnreg")) {
			dst = maxnreg;
		} else if (is_dir(t, ".maxnctapersm") || is_dir(t, ".maxclusterrank")) {
			maxn = 1;
		} else if (is_dir(t, ".reqnctapercluster")) {
			maxn = 3;
		} else if (is_dir(t, ".noreturn") || is_dir(t, ".explicitcluster") || is_dir(t, ".blocksareclusters")) {
			next(p);
			continue;
		} else if (is_dir(t, ".pragma")) {
			if (!skip_pragma(p))
				return false;
			continue;
		} else {
			return true;
		}
		struct ptx_token dt = next(p);
		uint32_t vals[3] = {1, 1, 1};
		for (unsigned i = 0;; i++) {
			const struct ptx_token vt_ = *peek(p, 0); /* copy: used after parsing on */
			uint64_t v = 0;
			if (!parse_uint(p, &v, "a number"))
				return false;
			if (v == 0 || v > UINT32_MAX)
				return fail_at(p, vt_.line, vt_.col, "value of %s out of range", qtok(&dt).s);
			vals[i] = (uint32_t)v;
			if (i + 1 >= maxn || !accept(p, ','))
				break;
		}
		if (dst)
			memcpy(dst, vals, (maxn == 3 ? 3 : 1) * sizeof(uint32_t));
	}
}

/* [.visible ...] .entry/.func ... : the linkage has been consumed */
static bool parse_function(struct parser *p, bool visible, bool is_extern)
{
	struct ptx_token kw = next(p);
	bool entry = is_dir(&kw, ".entry");
	while (is_dir(peek(p, 0), ".attribute"))
		if (!skip_attribute(p))
			return false;
	p->npd = 0;
	uint32_t nrets = 0;
	if (!entry && peek(p, 0)->kind == '(') {
		if (!parse_params(p, false))
			return false;
		nrets = p->npd;
	}
	const struct ptx_token *t = peek(p, 0);
	if (t->kind != PTX_TOK_IDENT)
		return fail_tok(p, t, "expected a function name, got %s", qtok(t).s);
	struct ptx_token name = next(p);
	if (peek(p, 0)->kind == '(' && !parse_params(p, false))
		return false;
	uint32_t maxntid[3] = {0}, reqntid[3] = {0}, minncta = 0, maxnreg = 0;
	if (!parse_perf_directives(p, maxntid, reqntid, &minncta, &maxnreg))
		return false;
	t = peek(p, 0);
	bool body = t->kind == '{';
	if (!body && t->kind != ';')
		return fail_tok(p, t, "expected '{' or ';' after function header, got %s", qtok(t).s);
	if (body && is_extern)
		return fail_tok(p, t, "an .extern function cannot have a body");
	next(p); /* '{' or ';' */

	struct sm_slot *fs = sm_get(&p->funcnames, name.text, name.len);
	if (!fs)
		return fail_oom(p);
	if (sm_find(&p->modvars, name.text, name.len))
		return fail_tok(p, &name, "%s is already declared as a variable", qtok(&name).s);
	int32_t fi;
	struct pdesc *rets = p->pd, *params = p->pd ? p->pd + nrets : NULL;
	uint32_t nparams = p->npd - nrets;
	if (fs->val >= 0) {
		fi = fs->val;
		struct ptx_function *f = &p->m->funcs[fi];
		if (f->is_entry != entry)
			return fail_tok(p, &name, "conflicting declaration of %s (.entry vs .func)", qtok(&name).s);
		if (body && !f->is_extern)
			return fail_tok(p, &name, "redefinition of function %s", qtok(&name).s);
		if (!merge_params(p, &name, f->rets, f->nrets, rets, nrets, body) ||
		    !merge_params(p, &name, f->params, f->nparams, params, nparams, body))
			return false;
		f = &p->m->funcs[fi];
		if (body) {
			f->line = name.line;
			f->col = name.col;
		}
	} else {
		struct ptx_module *m = p->m;
		if (!GROW(p, m->funcs, p->cap_funcs, m->nfuncs + 1))
			return false;
		fi = (int32_t)m->nfuncs;
		struct ptx_function *f = &m->funcs[m->nfuncs++];
		memset(f, 0, sizeof(*f));
		f->name = xstrndup(name.text, name.len);
		if (!f->name)
			return fail_oom(p);
		f->is_entry = entry;
		f->is_extern = true;
		f->line = name.line;
		f->col = name.col;
		fs->key = f->name; /* the map key must outlive the source text */
		fs->val = fi;
		if (!make_param_vars(p, fi, rets, nrets, false, true, &m->funcs[fi].rets, &m->funcs[fi].nrets))
			return false;
		if (!make_param_vars(p, fi, params, nparams, entry, false, &m->funcs[fi].params, &m->funcs[fi].nparams))
			return false;
	}
	struct ptx_function *f = &p->m->funcs[fi];
	f->is_visible |= visible;
	for (int i = 0; i < 3; i++) {
		if (maxntid[0])
			f->maxntid[i] = maxntid[i];
		if (reqntid[0])
			f->reqntid[i] = reqntid[i];
	}
	if (minncta)
		f->minnctapersm = minncta;
	if (maxnreg)
		f->maxnreg = maxnreg;
	if (!body)
		return true;
	f->is_extern = false;

	/* body */
	p->fi = fi;
	p->depth = 1;
	p->marks[1] = 0;
	for (uint32_t k = 0; k < f->nrets + f->nparams; k++) {
		int32_t vi = k < f->nrets ? f->rets[k] : f->params[k - f->nrets];
		struct ptx_var *v = &p->m->vars[vi];
		if (v->is_reg) { /* a register parameter: a register of the body */
			char *nm = xstrndup(v->name, strlen(v->name));
			if (!nm)
				return fail_oom(p);
			v->reg = (int32_t)f->nregs;
			if (!declare_reg(p, nm, (uint32_t)strlen(nm), v->type, v->line, v->col))
				return false;
			v = &p->m->vars[vi];
			continue;
		}
		if (!scope_declare(p, v->name, (uint32_t)strlen(v->name), SK_VAR, vi, v->line, v->col))
			return false;
	}
	if (!parse_block(p))
		return false;
	if (!resolve_function_refs(p))
		return false;
	reset_function_state(p);
	return true;
}

/* ------------------------------------------------------------------ */
/* module                                                              */
/* ------------------------------------------------------------------ */

/*
 * The PTX ISA versions and targets warpsim knows (docs/cli.md, "PTX files").
 * A module outside them loads with a warning when the version or target is
 * plausible (a newer ISA of the next major version, an unknown sm_NN with two
 * or three digits below 200) and is an error when it cannot be PTX
 * (.version 0.x or 11.0 and up, a minor version above 99, sm_1000, sm_x).
 */
#define PTX_ISA_MAX_MAJOR 9
#define PTX_ISA_MAX_MINOR 0
#define PTX_ISA_RANGE "1.0 to 9.0"
static const unsigned known_sm[] = {10, 11, 12, 13, 20, 21, 30, 32, 35, 37, 50, 52, 53, 60, 61, 62, 70, 72,
				    75, 80, 86, 87, 88, 89, 90, 100, 101, 103, 110, 120, 121};
#define PTX_SM_RANGE "sm_10 to sm_121"
/* .target options that are not a GPU name */
static const char *const target_options[] = {"debug", "texmode_unified", "texmode_independent", "map_f64_to_f32"};

static void warn_at(struct parser *p, uint32_t line, uint32_t col, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void warn_at(struct parser *p, uint32_t line, uint32_t col, const char *fmt, ...)
{
	char msg[300];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	char *w = p->m->warnings;
	size_t n = strlen(w);
	if (n < sizeof p->m->warnings)
		snprintf(w + n, sizeof p->m->warnings - n, "%s:%u:%u: warning: %s\n", p->filename, line, col, msg);
}

static bool parse_version(struct parser *p)
{
	const struct ptx_token d = *peek(p, 0);
	next(p);
	const struct ptx_token *t = peek(p, 0);
	unsigned maj = 0, min = 0;
	uint32_t i = 0;
	bool ok = t->kind == PTX_TOK_FLOAT;
	while (ok && i < t->len && t->text[i] >= '0' && t->text[i] <= '9' && maj < 10000)
		maj = maj * 10 + (unsigned)(t->text[i++] - '0');
	ok = ok && i > 0 && i < t->len && t->text[i] == '.';
	uint32_t j = ++i;
	while (ok && i < t->len && t->text[i] >= '0' && t->text[i] <= '9' && min < 10000)
		min = min * 10 + (unsigned)(t->text[i++] - '0');
	if (!ok || i != t->len || i == j)
		return fail_tok(p, t, "malformed .version (expected MAJOR.MINOR), got %s", qtok(t).s);
	if (p->version_line)
		return fail_at(p, d.line, d.col, "a second .version directive (the first is at line %u)", p->version_line);
	if (maj == 0 || maj > PTX_ISA_MAX_MAJOR + 1 || min > 99)
		return fail_tok(p, t, "PTX ISA version %u.%u does not exist (warpsim knows %s)", maj, min,
				PTX_ISA_RANGE);
	if (maj > PTX_ISA_MAX_MAJOR || (maj == PTX_ISA_MAX_MAJOR && min > PTX_ISA_MAX_MINOR))
		warn_at(p, t->line, t->col, "PTX ISA version %u.%u is newer than warpsim knows (%s); loading it anyway",
			maj, min, PTX_ISA_RANGE);
	p->version_line = d.line;
	p->m->version_major = maj;
	p->m->version_minor = min;
	next(p);
	return true;
}

/* sm_NN, sm_NNa, sm_NNf: its number, or 0 if the name is not of that form. */
static unsigned sm_number(const struct ptx_token *t)
{
	if (t->len < 4 || memcmp(t->text, "sm_", 3) != 0)
		return 0;
	unsigned n = 0;
	uint32_t i = 3;
	while (i < t->len && t->text[i] >= '0' && t->text[i] <= '9' && n < 100000)
		n = n * 10 + (unsigned)(t->text[i++] - '0');
	if (i == 3 || t->text[3] == '0')
		return 0;
	if (i < t->len && (t->text[i] == 'a' || t->text[i] == 'f'))
		i++;
	return i == t->len ? n : 0;
}

static bool parse_target(struct parser *p)
{
	const struct ptx_token d = *peek(p, 0);
	next(p);
	if (p->target_line)
		return fail_at(p, d.line, d.col, "a second .target directive (the first is at line %u)", p->target_line);
	p->target_line = d.line;
	bool first = true;
	for (;;) {
		const struct ptx_token *t = peek(p, 0);
		if (t->kind != PTX_TOK_IDENT)
			return fail_tok(p, t, "expected a target name, got %s", qtok(t).s);
		bool option = false;
		for (size_t k = 0; k < sizeof target_options / sizeof target_options[0]; k++)
			option |= tok_is(t, PTX_TOK_IDENT, target_options[k]);
		unsigned sm = option ? 0 : sm_number(t);
		if (first && !sm)
			return fail_tok(p, t, "unknown target %s: expected sm_NN, a GPU architecture (warpsim knows %s)",
					qtok(t).s, PTX_SM_RANGE);
		if (!first && !option)
			return fail_tok(p, t, "unknown .target option %s (expected debug, texmode_unified, "
					      "texmode_independent or map_f64_to_f32)", qtok(t).s);
		if (first) {
			if (sm < 10 || sm >= 200)
				return fail_tok(p, t, "target %s does not exist (warpsim knows %s)", qtok(t).s, PTX_SM_RANGE);
			bool known = false;
			for (size_t k = 0; k < sizeof known_sm / sizeof known_sm[0]; k++)
				known |= known_sm[k] == sm;
			if (!known)
				warn_at(p, t->line, t->col, "target %s is not an architecture warpsim knows (%s); loading it anyway",
					qtok(t).s, PTX_SM_RANGE);
			size_t n = t->len < sizeof(p->m->target) - 1 ? t->len : sizeof(p->m->target) - 1;
			memcpy(p->m->target, t->text, n);
			p->m->target[n] = 0;
			first = false;
		}
		next(p);
		if (!accept(p, ','))
			return true;
	}
}

static bool parse_address_size(struct parser *p)
{
	next(p);
	const struct ptx_token t_ = *peek(p, 0); /* copy: used after parsing on */
	uint64_t v = 0;
	if (!parse_uint(p, &v, "32 or 64"))
		return false;
	if (v != 32 && v != 64)
		return fail_at(p, t_.line, t_.col, ".address_size must be 32 or 64");
	p->m->address_size = (uint32_t)v;
	return true;
}

static bool resolve_module_refs(struct parser *p)
{
	struct ptx_module *m = p->m;
	for (uint32_t i = 0; i < p->nmrefs; i++) {
		struct ref *r = &p->mrefs[i];
		struct sm_slot *fs = sm_find(&p->funcnames, r->name, r->len);
		int32_t fidx = fs ? fs->val : -1;
		struct sm_slot *vs = sm_find(&p->modvars, r->name, r->len);
		int32_t vidx = vs ? vs->val : -1;
		if (r->what == REF_INIT) {
			struct ptx_init_sym *is = &m->vars[r->a].init_syms[r->b];
			if (fidx >= 0) {
				if (is->add)
					return fail_at(p, r->line, r->col, "offset added to function %s", qname(r->name, r->len).s);
				is->func = fidx;
			} else if (vidx >= 0) {
				is->sym = vidx;
			} else {
				return fail_at(p, r->line, r->col, "unknown symbol %s in initializer", qname(r->name, r->len).s);
			}
			continue;
		}
		struct ptx_operand *o = &m->funcs[r->a].insns[r->b].opd[r->opd];
		if (r->what == REF_CALL) {
			if (fidx < 0)
				return fail_at(p, r->line, r->col, "call to undefined function %s", qname(r->name, r->len).s);
			if (m->funcs[fidx].is_entry)
				return fail_at(p, r->line, r->col, "cannot call kernel %s", qname(r->name, r->len).s);
			o->func = fidx;
		} else if (fidx >= 0) {
			if (o->offset)
				return fail_at(p, r->line, r->col, "offset added to function %s", qname(r->name, r->len).s);
			o->func = fidx;
		} else if (vidx >= 0) {
			o->kind = OPD_SYM;
			o->sym = vidx;
		} else {
			return fail_at(p, r->line, r->col, "unknown symbol %s", qname(r->name, r->len).s);
		}
	}
	return true;
}

/* One module-level item: a directive, a variable declaration or a function.
 * False after an error (recorded by fail_tok & co). */
static bool parse_module_item(struct parser *p)
{
	const struct ptx_token *t = peek(p, 0);
	if (t->kind != PTX_TOK_DIRECTIVE)
		return fail_tok(p, t, "expected a directive, got %s", qtok(t).s);
	if (is_dir(t, ".version")) {
		if (!parse_version(p))
			return false;
	} else if (is_dir(t, ".target")) {
		if (!parse_target(p))
			return false;
	} else if (is_dir(t, ".address_size")) {
		if (!parse_address_size(p))
			return false;
	} else if (is_dir(t, ".file") || is_dir(t, ".loc")) {
		uint32_t line = t->line;
		next(p);
		if (!skip_line(p, line))
			return false;
	} else if (is_dir(t, ".section")) {
		if (!skip_section(p))
			return false;
	} else if (is_dir(t, ".pragma")) {
		if (!skip_pragma(p))
			return false;
	} else {
		bool visible = false, ext = false;
		for (;;) {
			t = peek(p, 0);
			if (is_dir(t, ".visible"))
				visible = true;
			else if (is_dir(t, ".extern"))
				ext = true;
			else if (!is_dir(t, ".weak") && !is_dir(t, ".common"))
				break;
			next(p);
		}
		if (is_dir(t, ".entry") || is_dir(t, ".func")) {
			if (!parse_function(p, visible, ext))
				return false;
		} else if (space_of_dir(t) >= 0) {
			if (!parse_var_decl(p, -1, ext))
				return false;
		} else if (t->kind == PTX_TOK_DIRECTIVE) {
			return fail_tok(p, t, "unknown directive %s", qtok(t).s);
		} else {
			return fail_tok(p, t, "expected .entry, .func or a variable declaration, got %s", qtok(t).s);
		}
	}
	return !p->failed;
}

static bool parse_module(struct parser *p)
{
	for (;;) {
		const struct ptx_token *t = peek(p, 0);
		if (t->kind == PTX_TOK_EOF)
			break;
		if (t->kind == ';') {
			next(p);
			continue;
		}
		uint32_t line = t->line;
		if (parse_module_item(p))
			continue;
		if (p->fi >= 0) /* a function failed inside its body: drop its parse state */
			reset_function_state(p);
		if (!recover_module(p, line))
			return false;
	}
	if (p->failed || p->nerrors) /* module-level references of a module with errors are not resolved */
		return false;
	if (!p->version_line || !p->target_line) {
		const struct ptx_token *t = peek(p, 0);
		bool empty = t->line == 1 && t->col == 1 && p->m->nfuncs == 0 && p->m->nvars == 0;
		return fail_at(p, 1, 1, "%s: not a PTX module (a PTX module starts with .version and .target)",
			       empty ? "empty file" : !p->version_line ? "no .version directive" : "no .target directive");
	}
	return resolve_module_refs(p);
}

static void parser_free(struct parser *p)
{
	sm_free(&p->modvars);
	sm_free(&p->funcnames);
	sm_free(&p->words);
	sm_free(&p->opnames);
	sm_free(&p->scope);
	sm_free(&p->labels);
	sm_free(&p->btnames);
	sm_free(&p->protos);
	free(p->mrefs);
	free(p->undo);
	free(p->frefs);
	free(p->bts);
	free(p->btl);
	free(p->ranges);
	free(p->pd);
	free(p->tmpl);
}

struct ptx_module *ptx_parse(const char *text, size_t len, const char *filename, struct ptx_error *err)
{
	struct parser *p = calloc(1, sizeof(*p));
	if (err)
		memset(err, 0, sizeof(*err));
	if (!filename)
		filename = "<input>";
	if (!p) {
		if (err) {
			snprintf(err->file, sizeof(err->file), "%s", filename);
			snprintf(err->msg, sizeof(err->msg), "out of memory");
		}
		return NULL;
	}
	if (!text)
		len = 0;
	ptx_lexer_init(&p->lx, text ? text : "", len);
	p->err = err;
	p->filename = filename;
	p->fi = -1;
	p->m = calloc(1, sizeof(*p->m));
	if (!p->m) {
		fail_oom(p);
		free(p);
		return NULL;
	}
	p->m->filename = xstrndup(filename, strlen(filename));
	p->m->address_size = 64;
	bool ok = p->m->filename != NULL || fail_oom(p);
	/* modifier words (val = first entry) and opcode names (val = opcode) */
	for (size_t i = 0; ok && i < NMODWORDS; i++) {
		struct sm_slot *s = sm_get(&p->words, modwords[i].w, strlen(modwords[i].w));
		if (!s)
			ok = fail_oom(p);
		else if (s->val < 0)
			s->val = (int32_t)i;
	}
	for (int i = 0; ok && i < OP_COUNT; i++) {
		struct sm_slot *s = sm_get(&p->opnames, ptx_opcode_table[i].name, strlen(ptx_opcode_table[i].name));
		if (!s)
			ok = fail_oom(p);
		else
			s->val = i;
	}
	if (ok)
		ok = parse_module(p);
	if (p->nerrors) { /* also errors recovered from */
		ok = false;
		if (err && p->more_dropped) {
			size_t used = strlen(err->more);
			snprintf(err->more + used, sizeof(err->more) - used, "... and %u more errors\n", p->more_dropped);
		}
	}
	struct ptx_module *m = p->m;
	parser_free(p);
	free(p);
	if (!ok) {
		ptx_module_destroy(m);
		return NULL;
	}
	return m;
}
