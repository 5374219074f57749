/*
 * ir.h -- the in-memory form of a PTX module (warpsim's "module IR").
 *
 * Models no hardware: this is the contract between the PTX front end
 * (lexer/parser/analysis, src/ptx/) and everything that executes code
 * (functional model src/func/, timing model src/core/).
 *
 * A module holds variables (module-scope .global/.const/.shared) and
 * functions (.entry kernels and .func device functions).  A function holds
 * a flat array of instructions; labels are resolved to instruction indices
 * ("pc" in this project means an index into ptx_function.insns).
 *
 * Register model: every virtual register of a function gets an index in
 * [0, nregs); at run time a warp keeps, per function frame, an array
 * regs[index * warp_size + lane] of uint64_t.  Values are stored zero-
 * extended to 64 bits in the width of the instruction type that wrote them;
 * predicates hold 0 or 1.
 */
#ifndef WARPSIM_PTX_IR_H
#define WARPSIM_PTX_IR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ptx/regs.h"
#include "ptx/unit.h"

/* ---- opcodes (generated from opcodes.def) ---- */
enum ptx_lat {
	LAT_ADD, LAT_MUL, LAT_MAD, LAT_MAX, LAT_DIV, LAT_SFU, LAT_MEM, LAT_CTRL, LAT_TENSOR, LAT_COUNT
};
enum {
	OPF_MEM = 1u << 0,
	OPF_LOAD = 1u << 1,
	OPF_STORE = 1u << 2,
	OPF_ATOMIC = 1u << 3,
	OPF_BARRIER = 1u << 4,
	OPF_FENCE = 1u << 5,
	OPF_BRANCH = 1u << 6,
	OPF_CALL = 1u << 7,
	OPF_RET = 1u << 8,
	OPF_EXIT = 1u << 9,
	OPF_NODST = 1u << 10, /* operand 0 is not a destination register (bar/barrier and mbarrier: by mode, decode.c) */
	OPF_TYPED = 1u << 11, /* the unit class follows the type computed in (ptx_analyse: f64 DP, float SP, else INT) */
};

enum ptx_opcode {
#define X(e, name, unit, lat, flags, fn) OP_##e,
#include "opcodes.def"
#undef X
	OP_COUNT
};

struct ptx_opcode_info {
	const char *name;
	enum ws_unit unit;
	enum ptx_lat lat;
	unsigned flags;
};
extern const struct ptx_opcode_info ptx_opcode_table[OP_COUNT];
/* Look up a base mnemonic ("add", "ld", ...); returns OP_COUNT if unknown. */
enum ptx_opcode ptx_opcode_lookup(const char *name, size_t len);

/* ---- data types ---- */
#define PTX_TYPES(X)                                                     \
	X(NONE, "", 0) X(PRED, "pred", 1) X(B8, "b8", 1) X(B16, "b16", 2)     \
	X(B32, "b32", 4) X(B64, "b64", 8) X(B128, "b128", 16)               \
	X(U8, "u8", 1) X(U16, "u16", 2) X(U32, "u32", 4) X(U64, "u64", 8)     \
	X(S8, "s8", 1) X(S16, "s16", 2) X(S32, "s32", 4) X(S64, "s64", 8)     \
	X(F16, "f16", 2) X(F16X2, "f16x2", 4) X(BF16, "bf16", 2)            \
	X(BF16X2, "bf16x2", 4) X(F32, "f32", 4) X(F64, "f64", 8)                 \
	/* issue 16: cvt-only types: fp8 pairs, tf32 (in a .b32 register) */   \
	X(E4M3X2, "e4m3x2", 2) X(E5M2X2, "e5m2x2", 2) X(TF32, "tf32", 4)    \
	X(U16X2, "u16x2", 4) X(S16X2, "s16x2", 4) /* sm_90 add/sub/min/max */
enum ptx_type {
#define X(e, n, s) PTX_T_##e,
	PTX_TYPES(X)
#undef X
	PTX_T_COUNT
};
extern const char *const ptx_type_name[PTX_T_COUNT];
extern const uint8_t ptx_type_size[PTX_T_COUNT]; /* bytes; pred = 1 */
static inline bool ptx_type_is_signed(enum ptx_type t) { return t >= PTX_T_S8 && t <= PTX_T_S64; }
static inline bool ptx_type_is_float(enum ptx_type t) { return t >= PTX_T_F16 && t <= PTX_T_F64; }
static inline unsigned ptx_type_bits(enum ptx_type t) { return 8u * ptx_type_size[t]; }

/* ---- modifiers ---- */
enum ptx_space {
	SPACE_NONE, /* generic addressing */
	SPACE_GLOBAL, SPACE_SHARED, SPACE_LOCAL, SPACE_CONST, SPACE_PARAM,
	SPACE_TEX, SPACE_SHARED_CLUSTER,
	SPACE_COUNT
};
extern const char *const ptx_space_name[SPACE_COUNT];

enum ptx_cmp {
	CMP_NONE, CMP_EQ, CMP_NE, CMP_LT, CMP_LE, CMP_GT, CMP_GE,
	CMP_LO, CMP_LS, CMP_HI, CMP_HS,                      /* unsigned */
	CMP_EQU, CMP_NEU, CMP_LTU, CMP_LEU, CMP_GTU, CMP_GEU, /* unordered */
	CMP_NUM, CMP_NAN,
	CMP_COUNT
};
enum ptx_boolop { BOOL_NONE, BOOL_AND, BOOL_OR, BOOL_XOR };
enum ptx_rnd {
	RND_NONE, RND_RN, RND_RZ, RND_RM, RND_RP, RND_RNA, /* float rounding */
	RND_RNI, RND_RZI, RND_RMI, RND_RPI                 /* round to integer */
};
/* Atomic / reduction operation (atom, red, redux, bar.red, vote op). */
enum ptx_atomop {
	AOP_NONE, AOP_ADD, AOP_CAS, AOP_EXCH, AOP_MIN, AOP_MAX, AOP_INC, AOP_DEC,
	AOP_AND, AOP_OR, AOP_XOR, AOP_POPC
};
/*
 * Per-opcode sub-operation ("mode"):
 *   shfl:  MODE_UP/DOWN/BFLY/IDX      vote: MODE_ALL/ANY/UNI/BALLOT
 *   bar/barrier: MODE_SYNC/ARRIVE/RED/WARP_SYNC
 *   match: MODE_ANY/MODE_ALL          shf:  MODE_L/MODE_R (+ FLAG_CLAMP/FLAG_WRAP)
 *   cvta: MODE_TO (cvta.to.space) or MODE_NONE (generic from space)
 *   prmt: MODE_PRMT_F4E..MODE_PRMT_RC16, MODE_NONE = default
 *   testp: MODE_FINITE..MODE_SUBNORMAL
 *   mul/mad: MODE_LO/HI/WIDE (integer forms)
 */
enum ptx_mode {
	MODE_NONE,
	MODE_UP, MODE_DOWN, MODE_BFLY, MODE_IDX,
	MODE_ALL, MODE_ANY, MODE_UNI, MODE_BALLOT,
	MODE_SYNC, MODE_ARRIVE, MODE_RED, MODE_WARP_SYNC,
	MODE_L, MODE_R,
	MODE_TO,
	MODE_PRMT_F4E, MODE_PRMT_B4E, MODE_PRMT_RC8, MODE_PRMT_ECL, MODE_PRMT_ECR, MODE_PRMT_RC16,
	MODE_FINITE, MODE_INFINITE, MODE_NUMBER, MODE_NOTANUMBER, MODE_NORMAL, MODE_SUBNORMAL,
	MODE_LO, MODE_HI, MODE_WIDE,
	/* issue 16 -- cp: MODE_NONE = cp.async copy; mbarrier: MODE_INIT..MODE_PENDING_COUNT (+ MODE_ARRIVE) */
	MODE_COMMIT_GROUP, MODE_WAIT_GROUP, MODE_WAIT_ALL, MODE_CP_MBAR_ARRIVE,
	MODE_INIT, MODE_ARRIVE_DROP, MODE_TEST_WAIT, MODE_TRY_WAIT, MODE_INVAL, MODE_PENDING_COUNT,
	/* issue 26 -- createpolicy */
	MODE_FRACTIONAL, MODE_RANGE, MODE_CVT,
	MODE_COUNT
};
/* Boolean modifiers. */
enum {
	FLAG_FTZ = 1u << 0,
	FLAG_SAT = 1u << 1,
	FLAG_APPROX = 1u << 2,
	FLAG_FULL = 1u << 3,
	FLAG_CC = 1u << 4,       /* add.cc / sub.cc / mad.cc: write carry flag */
	FLAG_UNI = 1u << 5,      /* bra.uni / call.uni */
	FLAG_VOLATILE = 1u << 6,
	FLAG_NC = 1u << 7,       /* ld.global.nc */
	FLAG_SHIFTAMT = 1u << 8, /* bfind.shiftamt */
	FLAG_CLAMP = 1u << 9,    /* shf.clamp */
	FLAG_WRAP = 1u << 10,    /* shf.wrap */
	FLAG_ALIGNED = 1u << 11, /* bar.sync.aligned, barrier.sync.aligned */
	FLAG_RELU = 1u << 12,
	FLAG_NOFTZ = 1u << 13,
	FLAG_NAN = 1u << 14,     /* min.NaN / max.NaN */
	FLAG_XORSIGN = 1u << 15, /* min.xorsign.abs (accepted, f16 only) */
	FLAG_ABS = 1u << 16,     /* redux .abs / min.abs */
	FLAG_LEFT = 1u << 17,    /* unused by nvcc; reserved */
	/* issue 16 (cp.async / mbarrier), kept at the top to stay clear of others */
	FLAG_PARITY = 1u << 28,     /* mbarrier.test_wait.parity / try_wait.parity */
	FLAG_NOCOMPLETE = 1u << 29, /* mbarrier.arrive.noComplete */
	FLAG_NOINC = 1u << 30,      /* cp.async.mbarrier.arrive.noinc */
	FLAG_ASYNC = 1u << 31,      /* cp.async (the only cp form implemented) */
	FLAG_SATFINITE = 1u << 27,  /* cvt .satfinite (fp8, tf32) */
	FLAG_PACK = 1u << 26,       /* cvt.pack.sat */
	FLAG_CACHE_HINT = 1u << 25, /* .L2::cache_hint: the last operand is a cache policy */
};
/*
 * Textures and surfaces (tex, tld4, txq, suld, sust, suq).  `geom` is the
 * geometry; `tx` holds, per opcode:
 *   tex:  TX_BASE / TX_LEVEL / TX_GRAD (level of detail)
 *   tld4: component 0..3 (.r .g .b .a)
 *   suld/sust: clamp mode TX_TRAP / TX_CLAMP / TX_ZERO, | TX_FORMATTED for .p
 *   txq/suq: the query (enum ptx_txq)
 */
enum ptx_geom { GEOM_NONE, GEOM_1D, GEOM_2D, GEOM_3D, GEOM_A1D, GEOM_A2D, GEOM_CUBE, GEOM_ACUBE,
		GEOM_2DMS, GEOM_A2DMS, GEOM_COUNT };
extern const char *const ptx_geom_name[GEOM_COUNT];
enum { TX_BASE = 0, TX_LEVEL = 1, TX_GRAD = 2 };
enum { TX_TRAP = 0, TX_CLAMP = 1, TX_ZERO = 2, TX_FORMATTED = 0x80 };
#define PTX_TXQS(X)                                                                                  \
	X(WIDTH, "width") X(HEIGHT, "height") X(DEPTH, "depth") X(CHANNEL_DATA_TYPE, "channel_data_type") \
	X(CHANNEL_ORDER, "channel_order") X(NORMALIZED_COORDS, "normalized_coords")                       \
	X(FILTER_MODE, "filter_mode") X(ADDR_MODE_0, "addr_mode_0") X(ADDR_MODE_1, "addr_mode_1")          \
	X(ADDR_MODE_2, "addr_mode_2") X(ARRAY_SIZE, "array_size") X(NUM_MIPMAP_LEVELS, "num_mipmap_levels") \
	X(NUM_SAMPLES, "num_samples") X(MEMORY_LAYOUT, "memory_layout")
enum ptx_txq {
	TXQ_NONE,
#define X(e, n) TXQ_##e,
	PTX_TXQS(X)
#undef X
	TXQ_COUNT
};
/* Opaque module variables (.texref, .surfref, .samplerref): 8-byte .global
 * variables that hold an object handle (see docs/ptx.md). */
enum { OPAQUE_NONE, OPAQUE_TEXREF, OPAQUE_SURFREF, OPAQUE_SAMPLERREF };

/* Memory ordering qualifiers are parsed and recorded, functionally no-ops. */
enum ptx_sem { SEM_NONE, SEM_RELAXED, SEM_ACQUIRE, SEM_RELEASE, SEM_ACQ_REL, SEM_SC, SEM_WEAK, SEM_MMIO };
enum ptx_scope { SCOPE_NONE, SCOPE_CTA, SCOPE_CLUSTER, SCOPE_GPU, SCOPE_SYS };

/* Special registers. */
#define PTX_SREGS(X)                                                                       \
	X(TID, "%tid") X(NTID, "%ntid") X(CTAID, "%ctaid") X(NCTAID, "%nctaid")                 \
	X(LANEID, "%laneid") X(WARPID, "%warpid") X(NWARPID, "%nwarpid") X(SMID, "%smid")      \
	X(NSMID, "%nsmid") X(GRIDID, "%gridid") X(CLOCK, "%clock") X(CLOCK_HI, "%clock_hi")    \
	X(CLOCK64, "%clock64") X(GLOBALTIMER, "%globaltimer")                                  \
	X(GLOBALTIMER_LO, "%globaltimer_lo") X(GLOBALTIMER_HI, "%globaltimer_hi")              \
	X(LANEMASK_EQ, "%lanemask_eq") X(LANEMASK_LT, "%lanemask_lt")                          \
	X(LANEMASK_LE, "%lanemask_le") X(LANEMASK_GT, "%lanemask_gt")                          \
	X(LANEMASK_GE, "%lanemask_ge") X(DYNAMIC_SMEM_SIZE, "%dynamic_smem_size")              \
	X(TOTAL_SMEM_SIZE, "%total_smem_size")                                                 \
	/* issue 16: the warp-size constant, driver registers, reserved shared */              \
	X(WARP_SZ, "WARP_SZ") X(ENVREG, "%envreg")                                             \
	X(RSMEM_BEGIN, "%reserved_smem_offset_begin") X(RSMEM_END, "%reserved_smem_offset_end") \
	X(RSMEM_CAP, "%reserved_smem_offset_cap") X(RSMEM_OFF, "%reserved_smem_offset_")
enum ptx_sreg {
#define X(e, n) SREG_##e,
	PTX_SREGS(X)
#undef X
	SREG_COUNT
};
/* %envreg<0..31> and %reserved_smem_offset_<0..1> are indexed: the index is
 * the operand's comp.  Reserved shared memory (cooperative groups' scratch)
 * is PTX_RSMEM_BYTES per CTA, placed after the CTA's static and dynamic
 * shared memory when a module reads any %reserved_smem_* register. */
#define PTX_NENVREG 32
#define PTX_RSMEM_BYTES 1024u
static inline bool ptx_sreg_indexed(unsigned s) { return s == SREG_ENVREG || s == SREG_RSMEM_OFF; }
extern const char *const ptx_sreg_name[SREG_COUNT];

/* ---- operands ---- */
enum ptx_opd_kind {
	OPD_NONE,
	OPD_REG,   /* reg; for "%r|%p" outputs reg2 holds the predicate (else -1) */
	OPD_SINK,  /* "_" */
	OPD_IMM,   /* imm holds bits: after ptx_analyse, in the instruction type's format */
	OPD_SREG,  /* sreg + comp (0=x,1=y,2=z; 0 for scalar sregs) */
	OPD_SYM,   /* the address of variable `sym` (in its own space) + offset */
	OPD_FUNC,  /* a function name (call target); func = index in module */
	OPD_LABEL, /* branch target: target = pc (after resolution) */
	OPD_ADDR,  /* memory address [base + offset]; base is a reg, a sym, or none */
	OPD_VEC,   /* {a, b, c, d}: elem[0..nelem) (each OPD_REG, OPD_IMM or OPD_SINK) */
	OPD_LIST,  /* (a, b, ...) for call: list[0..nlist) of OPD_SYM param names */
};
/* What an immediate was written as (before resolution). */
enum ptx_imm_kind { IMM_INT, IMM_F32, IMM_F64 };

/* A call's argument/return list (OPD_LIST) holds .param variable indices,
 * or registers (calls of functions with register parameters) encoded as
 * values <= -2. */
#define PTX_LIST_IS_REG(e) ((e) <= -2)
#define PTX_LIST_REG(e) (-(e) - 2)
#define PTX_LIST_OF_REG(r) (-(r) - 2)

/* Base of an address expression. */
enum ptx_addr_base { ABASE_NONE, ABASE_REG, ABASE_SYM };

struct ptx_elem {
	uint8_t kind; /* OPD_REG, OPD_IMM or OPD_SINK */
	uint8_t imm_kind;
	int32_t reg;
	uint64_t imm;
};

struct ptx_operand {
	uint8_t kind;      /* enum ptx_opd_kind */
	uint8_t imm_kind;  /* enum ptx_imm_kind, for OPD_IMM before resolution */
	uint8_t comp;      /* sreg component */
	uint8_t abase;     /* enum ptx_addr_base for OPD_ADDR */
	uint8_t nelem;     /* OPD_VEC element count */
	uint8_t neg;       /* "!%p" as a source operand (setp c operand, selp...) */
	uint16_t sreg;     /* enum ptx_sreg */
	int32_t reg;       /* OPD_REG / ABASE_REG register index */
	int32_t reg2;      /* second (predicate) destination of "%r|%p", or -1 */
	int32_t sym;       /* OPD_SYM / ABASE_SYM: index into ptx_module.vars */
	int32_t func;      /* OPD_FUNC */
	int32_t target;    /* OPD_LABEL: pc */
	uint32_t nlist;    /* OPD_LIST: entries of list */
	int64_t offset;    /* OPD_ADDR / OPD_SYM displacement (OPD_REG: 0; "%r+imm" is lowered by the parser) */
	uint64_t imm;      /* OPD_IMM bits */
	/* OPD_VEC: elem[0..nelem), an array of PTX_MAX_VEC owned by the operand (NULL
	 * otherwise).  Kept out of line so that an operand is 64 bytes: vector
	 * operands are rare and every instruction has PTX_MAX_OPDS operands, so
	 * this is what keeps a loaded module small (docs/cli.md, "Limits"). */
	struct ptx_elem *elem;
	/* OPD_LIST (call arguments/returns): indices into ptx_module.vars, owned */
	int32_t *list;
};

#define PTX_MAX_OPDS 6
#define PTX_MAX_VEC 8 /* elements of a vector operand (wmma fragments, {a, ..., h} of ld/st .v8) */
_Static_assert(sizeof(struct ptx_operand) <= 64, "an operand must stay 64 bytes: loading memory scales with it");

/* ---- tensor-core instructions (wmma, mma, ldmatrix, stmatrix) ---- */
/* Matrix shapes: X(enum, "name", M, N, K). ldmatrix/stmatrix use TC_M8N8. */
#define PTX_TC_SHAPES(X)                                                                   \
	X(NONE, "", 0, 0, 0) X(M16N16K16, "m16n16k16", 16, 16, 16)                           \
	X(M32N8K16, "m32n8k16", 32, 8, 16) X(M8N32K16, "m8n32k16", 8, 32, 16)                \
	X(M16N16K8, "m16n16k8", 16, 16, 8) X(M8N8K4, "m8n8k4", 8, 8, 4)                      \
	X(M16N8K4, "m16n8k4", 16, 8, 4) X(M16N8K8, "m16n8k8", 16, 8, 8)                      \
	X(M16N8K16, "m16n8k16", 16, 8, 16) X(M16N8K32, "m16n8k32", 16, 8, 32)                \
	X(M8N8K16, "m8n8k16", 8, 8, 16) X(M8N8K32, "m8n8k32", 8, 8, 32)                      \
	X(M16N8K64, "m16n8k64", 16, 8, 64) X(M8N8K128, "m8n8k128", 8, 8, 128)                \
	X(M16N8K128, "m16n8k128", 16, 8, 128) X(M16N8K256, "m16n8k256", 16, 8, 256)          \
	X(M8N8, "m8n8", 8, 8, 0) X(M16N16, "m16n16", 16, 16, 0) X(M8N16, "m8n16", 8, 16, 0)
enum ptx_tc_shape {
#define X(e, n, m_, n_, k_) TC_##e,
	PTX_TC_SHAPES(X)
#undef X
	TC_SHAPE_COUNT
};
/* Element types of tensor-core matrices (tf32 has no PTX register type). */
#define PTX_TC_TYPES(X)                                                                       \
	X(NONE, "", 0) X(F16, "f16", 2) X(BF16, "bf16", 2) X(TF32, "tf32", 4) X(F32, "f32", 4) \
	X(F64, "f64", 8) X(S8, "s8", 1) X(U8, "u8", 1) X(S32, "s32", 4) X(B16, "b16", 2)         \
	X(B8, "b8", 1) X(S4, "s4", 0) X(U4, "u4", 0) X(B1, "b1", 0) X(E4M3, "e4m3", 1)         \
	X(E5M2, "e5m2", 1)
enum ptx_tc_type {
#define X(e, n, s) TCT_##e,
	PTX_TC_TYPES(X)
#undef X
	TCT_COUNT
};
/* Which matrix a wmma.load/wmma.store moves. */
enum ptx_tc_frag { TCF_NONE, TCF_A, TCF_B, TCF_C, TCF_D };
enum {
	TCL_ACOL = 1u << 0,  /* A (or a wmma.load/store's matrix) is column-major */
	TCL_BCOL = 1u << 1,  /* B is column-major */
	TCL_TRANS = 1u << 2, /* ldmatrix/stmatrix .trans */
	TCL_SATF = 1u << 3,  /* .satfinite */
};
struct ptx_tc {
	uint8_t shape;   /* enum ptx_tc_shape */
	uint8_t layout;  /* TCL_* */
	uint8_t frag;    /* enum ptx_tc_frag (wmma.load/store) */
	uint8_t num;     /* ldmatrix/stmatrix: matrices (.x1/.x2/.x4) */
	uint8_t dtype, atype, btype, ctype; /* enum ptx_tc_type; wmma.load/store: atype = element type */
};
extern const char *const ptx_tc_shape_name[TC_SHAPE_COUNT];
extern const uint16_t ptx_tc_shape_mnk[TC_SHAPE_COUNT][3];
extern const char *const ptx_tc_type_name[TCT_COUNT];
extern const uint8_t ptx_tc_type_size[TCT_COUNT]; /* bytes; 0 for sub-byte types */

struct ptx_insn {
	uint16_t op;      /* enum ptx_opcode */
	uint8_t type;     /* primary type (destination type for cvt) */
	uint8_t type2;    /* second type: cvt source, dp4a/dp2a second, etc. */
	uint8_t space;    /* enum ptx_space (ld/st/atom/red/cvta/isspacep/prefetch) */
	uint8_t vec;      /* 1, 2, 4 or 8 */
	uint8_t cmp;      /* enum ptx_cmp */
	uint8_t boolop;   /* enum ptx_boolop */
	uint8_t rnd;      /* enum ptx_rnd */
	uint8_t atomop;   /* enum ptx_atomop (atom/red/redux/bar.red) */
	uint8_t mode;     /* enum ptx_mode */
	uint8_t sem;      /* enum ptx_sem */
	uint8_t scope;    /* enum ptx_scope */
	uint8_t nopd;
	uint8_t guard_neg;   /* @!%p */
	uint8_t unit;        /* enum ws_unit after refinement by type */
	uint8_t lat;         /* enum ptx_lat after refinement */
	uint8_t geom;        /* tex/tld4/suld/sust: enum ptx_geom */
	uint8_t tx;          /* texture/surface sub-operation: see enum ptx_geom */
	uint8_t type3;       /* third type suffix (video dtype.atype.btype: btype) */
	uint32_t flags;      /* FLAG_* */
	int32_t guard;       /* predicate register index, or -1 */
	uint32_t line, col;  /* source position of the mnemonic */
	struct ptx_tc tc;    /* tensor-core instructions only (zero otherwise) */
	/* Filled by ptx_analyse: */
	int32_t reconv;      /* for branches: immediate post-dominator pc, or PTX_PC_EXIT */
	int32_t callee;      /* OP_CALL: module function index */
	struct ptx_operand opd[PTX_MAX_OPDS];
};
#define PTX_PC_EXIT INT32_MAX /* reconvergence at function exit */

/* ---- variables (state-space symbols) ---- */
struct ptx_var {
	char *name;
	uint8_t space;       /* enum ptx_space */
	uint8_t type;        /* element type */
	uint8_t is_extern;   /* .extern .shared dynamic shared memory */
	uint8_t is_kparam;   /* kernel formal parameter (lives in the kernel param buffer) */
	uint8_t is_fparam;   /* .func formal parameter or return value */
	uint8_t is_retval;   /* .func return parameter */
	uint8_t opaque;      /* OPAQUE_*: a .texref/.surfref/.samplerref handle (type .b64) */
	uint32_t align;      /* bytes (defaults to the element size) */
	uint64_t size;       /* bytes; 0 for extern unsized arrays */
	int32_t func;        /* owning function index, or -1 for module scope */
	/* Address assigned by the loader/analysis:
	 *   global/const module vars: offset in the module's global/const image
	 *   shared: offset in the CTA's shared memory (static part)
	 *   local / .func params / call-site params: offset in the function's frame
	 *   kernel params: offset in the kernel parameter buffer */
	uint64_t addr;
	uint8_t *init;       /* initializer bytes (size bytes) or NULL */
	/* Initializers that name other symbols ("{ a, b }" of addresses) */
	/* register parameter of a .func (".func (.reg .b32 %r) f(.reg .b32 %a)",
	 * issue 16): is_reg set, reg = the owning function's register holding it
	 * (from the definition on) */
	uint8_t is_reg;
	uint8_t reg_vec;     /* a .reg .v2/.v4 parameter: its elements are parameters of their own, named
			      * NAME.x ..; the first holds the element count (NAME is the vector in the body) */
	int32_t reg;
	uint32_t ninit_syms;
	/* generic: written generic(name) -- the generic address; otherwise the
	 * address in the variable's own state space (what mov gives) */
	struct ptx_init_sym { uint64_t byte_off; int32_t sym; int32_t func; int64_t add; uint8_t width, generic; } *init_syms;
	uint32_t line, col;
};

/* ---- functions ---- */
struct ptx_reg_info {
	char *name;      /* full name, e.g. "%r12" */
	uint8_t type;    /* declared type */
};

struct ptx_function {
	char *name;
	bool is_entry;     /* .entry (kernel) vs .func */
	bool is_extern;    /* declaration only (.extern .func or prototype without body) */
	bool is_visible;
	uint32_t line, col;
	/* formal parameters and return values: indices into module vars */
	int32_t *params;
	uint32_t nparams;
	int32_t *rets;
	uint32_t nrets;
	/* registers */
	struct ptx_reg_info *regs;
	uint32_t nregs;
	/* instructions */
	struct ptx_insn *insns;
	uint32_t ninsns;
	/* performance-tuning directives (0 = absent) */
	uint32_t maxntid[3], reqntid[3], minnctapersm, maxnreg;
	/* computed by analysis/loader */
	uint64_t frame_size;     /* bytes of per-thread frame: params, call-site params, locals */
	uint64_t shared_static;  /* bytes of static shared memory used (entry: incl. module shared) */
	uint64_t kparam_size;    /* entry: bytes of kernel parameter buffer */
	uint32_t regs_per_thread;/* estimate of physical registers (for occupancy) */
	uint32_t regs_ptxas;     /* entry: registers per thread as ptxas assigns them (0 = unknown; ptx/regs.h) */
	uint8_t regs_src;        /* enum ptx_regs_src of regs_ptxas (PTX_REGS_ESTIMATE while unknown) */
	/* CFG (analysis) */
	uint32_t nblocks;
	uint32_t *block_start;   /* pc of each basic block's first insn; [nblocks] */
	uint32_t *block_of;      /* block index of each pc; [ninsns] */
	int32_t *ipdom;          /* immediate post-dominator block of each block, -1 = exit */
};

struct ptx_module {
	char *filename;        /* for diagnostics */
	uint32_t version_major, version_minor;
	char target[32];
	uint32_t address_size; /* 32 or 64 */
	struct ptx_var *vars;
	uint32_t nvars;
	struct ptx_function *funcs;
	uint32_t nfuncs;
	/* layout computed by analysis */
	uint64_t global_image_size; /* bytes of module .global variables */
	uint64_t const_image_size;  /* bytes of module .const variables */
	uint64_t shared_module_size;/* bytes of module-scope .shared variables */
	bool uses_rsmem;           /* some function reads a %reserved_smem_* register */
	bool uses_envreg;          /* some function reads a %envreg register (grid.sync()) */
	/* "file:line:col: warning: ...\n" lines of the parser ("" if none): a PTX
	 * ISA version or target newer than warpsim knows */
	char warnings[768];
	/* where its kernels' ptxas register counts came from, by enum
	 * ptx_regs_src: a file name, an architecture ("sm_75"); ptx/regs.h */
	char regs_origin[PTX_REGS_NSRC][160];
};

/* ---- diagnostics ---- */
struct ptx_error {
	char file[256];
	uint32_t line, col;
	char msg[512];       /* the first error */
	uint32_t count;      /* errors found (the parser recovers at the next statement) */
	/* errors 2..100, one "file:line:col: error: msg" line each (the last
	 * line says how many more there were); "" when count <= 1 */
	char more[16384];
};

/* Parse PTX text.  On failure returns NULL and fills *err (file:line:col + message).
 * `filename` is only used for messages.  Never crashes or hangs on any input. */
struct ptx_module *ptx_parse(const char *text, size_t len, const char *filename, struct ptx_error *err);
/* Resolve types of immediates, compute unit/latency classes, frame layout,
 * the CFG and immediate post-dominators.  Returns false with *err on error
 * (e.g. an undefined call target). */
bool ptx_analyse(struct ptx_module *m, struct ptx_error *err);
void ptx_module_destroy(struct ptx_module *m);

/* Find a function / variable by name; -1 if absent. */
int ptx_module_find_func(const struct ptx_module *m, const char *name);
int ptx_module_find_var(const struct ptx_module *m, const char *name, int func);

/* Format an instruction back to PTX-like text (for diagnostics and traces). */
void ptx_insn_format(const struct ptx_module *m, const struct ptx_function *f, const struct ptx_insn *in,
		     char *buf, size_t bufsz);

#endif
