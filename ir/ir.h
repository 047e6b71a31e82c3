/*
 * ir.h: ttref's core IR: module -> functions -> regions -> blocks -> ops,
 * SSA values with interned types, attributes and source locations.
 * Ownership: an ir_module owns everything reachable from it (one arena);
 * ir_module_free releases it all. Pointers into a module are borrowed and
 * die with it. Types are interned: two types are equal iff their pointers are.
 */
#ifndef IR_H
#define IR_H

#include <stdbool.h>
#include <stdint.h>
#include "ir_base.h"

/* ---- opcodes (generated from ir_op_list.h) ------------------------------ */
enum {
  IR_F_PURE = 1u << 0,        /* no side effects */
  IR_F_ELEMENTWISE = 1u << 1, /* same shape in and out, lane-independent */
  IR_F_MEM = 1u << 2,         /* reads or writes memory */
  IR_F_REGION = 1u << 3,      /* owns regions */
  IR_F_TERMINATOR = 1u << 4,  /* ends a block */
  IR_F_SIDE_EFFECT = 1u << 5, /* print/assert/call/barrier */
  IR_F_UNSUPPORTED = 1u << 6, /* parsed, but cannot be interpreted */
  IR_F_VENDOR = 1u << 7,      /* a vendor op: name, rule and semantics from op->vdef */
  IR_F_ORDERED = 1u << 8,     /* its effect depends on the programs' order (atomics, print): */
                              /* a launch using it runs its programs in order */
};

/* The syntax column: how a regular op is written (ir_parse_op.c, ir_print_op.c). */
typedef enum ir_syntax {
  IR_SYN_CUSTOM,  /* hand-written format (ir_parse_custom.c, ir_print_op.c) */
  IR_SYN_SAME,    /* op %a[, %b[, %c]] [fastmath|overflow] [attrs] : T          (operands and result T) */
  IR_SYN_CMP,     /* op PRED, %a, %b [fastmath] [attrs] : T                   (result: i1 of T's shape) */
  IR_SYN_CAST,    /* op %x [fastmath|overflow] [attrs] : A to B */
  IR_SYN_CAST_RM, /* op %x [rounding-mode] [fastmath] [attrs] : A to B */
  IR_SYN_ARROW,   /* op %x [attrs] : A -> B                                     (tt one-operand ops) */
} ir_syntax;

/* The type rule column: the verifier's check of a regular op (ir_verify_op.c). */
typedef enum ir_type_rule {
  IR_TR_CUSTOM,         /* hand-written check (ir_verify_op.c, ir_verify_ctl.c) */
  IR_TR_SAME_INT,       /* operands and results: one integer (tensor) type */
  IR_TR_SAME_FLOAT,     /* operands and results: one float (tensor) type */
  IR_TR_CMP_INT,        /* two integer operands of one type; i1 result of their shape; predicate */
  IR_TR_CMP_FLOAT,      /* two float operands of one type; i1 result of their shape; predicate */
  IR_TR_INT_WIDER,      /* integer to a wider integer, same shape */
  IR_TR_INT_NARROWER,   /* integer to a narrower integer */
  IR_TR_INT_INT,        /* integer to an integer of any width */
  IR_TR_FLOAT_WIDER,    /* float to a wider float */
  IR_TR_FLOAT_NARROWER, /* float to a narrower float */
  IR_TR_INT_FLOAT,      /* integer to float */
  IR_TR_FLOAT_INT,      /* float to integer */
  IR_TR_BITCAST,        /* integer or float to integer or float of the same width */
} ir_type_rule;

/* Case labels generated from the table: inside a switch on an opcode,
 *   #define X(name, mnem, nopnd, nres, flags, syn, rule, ...) IR_CASE_SYN_##syn(name)
 *   #include "ir_op_list.h"
 * expands to `case IR_OP_name:` for every op of a regular syntax (likewise
 * IR_CASE_RULE_##rule for every op with a table type rule), so a switch
 * under -Wswitch-enum names its irregular ops by hand and the rest by row. */
#define IR_CASE_SYN_CUSTOM(name)
#define IR_CASE_SYN_SAME(name)    case IR_OP_##name:
#define IR_CASE_SYN_CMP(name)     case IR_OP_##name:
#define IR_CASE_SYN_CAST(name)    case IR_OP_##name:
#define IR_CASE_SYN_CAST_RM(name) case IR_OP_##name:
#define IR_CASE_SYN_ARROW(name)   case IR_OP_##name:
#define IR_CASE_RULE_CUSTOM(name)
#define IR_CASE_RULE_SAME_INT(name)       case IR_OP_##name:
#define IR_CASE_RULE_SAME_FLOAT(name)     case IR_OP_##name:
#define IR_CASE_RULE_CMP_INT(name)        case IR_OP_##name:
#define IR_CASE_RULE_CMP_FLOAT(name)      case IR_OP_##name:
#define IR_CASE_RULE_INT_WIDER(name)      case IR_OP_##name:
#define IR_CASE_RULE_INT_NARROWER(name)   case IR_OP_##name:
#define IR_CASE_RULE_INT_INT(name)        case IR_OP_##name:
#define IR_CASE_RULE_FLOAT_WIDER(name)    case IR_OP_##name:
#define IR_CASE_RULE_FLOAT_NARROWER(name) case IR_OP_##name:
#define IR_CASE_RULE_INT_FLOAT(name)      case IR_OP_##name:
#define IR_CASE_RULE_FLOAT_INT(name)      case IR_OP_##name:
#define IR_CASE_RULE_BITCAST(name)        case IR_OP_##name:

typedef enum ir_opcode {
#define X(name, mnem, nopnd, nres, flags, syn, rule, ...) IR_OP_##name,
#include "ir_op_list.h"
#undef X
  IR_OP_COUNT
} ir_opcode;

const char *ir_op_name(ir_opcode op);       /* mnemonic, or "<invalid>" */
unsigned ir_op_flags(ir_opcode op);         /* 0 for invalid */
int ir_op_nopnds(ir_opcode op);             /* -1 = variable */
int ir_op_nresults(ir_opcode op);           /* -1 = variable */
ir_syntax ir_op_syntax(ir_opcode op);       /* IR_SYN_CUSTOM for invalid */
ir_type_rule ir_op_type_rule(ir_opcode op); /* IR_TR_CUSTOM for invalid */
/* Look up a mnemonic of length n; returns false when unknown. */
bool ir_op_lookup(const char *s, size_t n, ir_opcode *out);

/* ---- types --------------------------------------------------------------- */
typedef enum ir_scalar {
#define X(name, spell, bits, kind) IR_S_##name,
#include "ir_scalar_list.h"
#undef X
  IR_S_COUNT
} ir_scalar;

const char *ir_scalar_name(ir_scalar s);
int ir_scalar_bits(ir_scalar s);
/* whether integer literal v names a bits-wide value (signed or unsigned reading; TTIR's rule) */
bool ir_int_fits(int64_t v, int bits);
bool ir_scalar_is_int(ir_scalar s);
bool ir_scalar_is_float(ir_scalar s);
/* bytes one element occupies in memory (i1 = 1 byte, pointers = 8) */
int ir_scalar_bytes(ir_scalar s);

#define IR_MAX_RANK 8

typedef enum ir_type_kind {
  IR_T_SCALAR, /* int or float: scalar field */
  IR_T_PTR,    /* !tt.ptr<pointee, addrspace>; pointee may be a tensor (block pointer) */
  IR_T_TENSOR, /* tensor<shape x elem>; elem is a scalar or pointer type */
  IR_T_DESC,   /* !tt.tensordesc<block>; elem = block tensor type */
} ir_type_kind;

typedef struct ir_type ir_type;
struct ir_type {
  ir_type_kind kind;
  ir_scalar scalar;    /* SCALAR: itself; PTR: IR_S_PTR; TENSOR/DESC: the element's */
  const ir_type *elem; /* PTR: pointee; TENSOR: element type; DESC: block tensor type */
  int addrspace;       /* PTR only (1 is the default and is elided when printed) */
  int desc_sign;       /* DESC: 0 signless, 1 "si", 2 "ui" element spelling */
  int rank;            /* TENSOR: number of dims (0 allowed); else 0 */
  int64_t shape[IR_MAX_RANK];
  int64_t numel; /* TENSOR: product of shape; scalars and pointers: 1 */
};

typedef struct ir_module ir_module;

/* Interning constructors; NULL on OOM. Shapes are copied. */
const ir_type *ir_type_scalar(ir_module *m, ir_scalar s);
const ir_type *ir_type_ptr(ir_module *m, const ir_type *pointee, int addrspace);
const ir_type *ir_type_tensor(ir_module *m, const ir_type *elem, int rank, const int64_t *shape);
const ir_type *ir_type_desc(ir_module *m, const ir_type *block, int sign);
/* The element type of a tensor, or the type itself. */
const ir_type *ir_type_elem(const ir_type *t);
/* Same shape with another element type (scalar in -> scalar out). */
const ir_type *ir_type_with_elem(ir_module *m, const ir_type *like, const ir_type *elem);
/* Write the MLIR spelling of t into buf (always NUL-terminated); returns length. */
int ir_type_str(const ir_type *t, char *buf, size_t n);

/* ---- locations ------------------------------------------------------------ */
typedef enum ir_loc_kind {
  IR_L_UNKNOWN,  /* loc(unknown) */
  IR_L_FILE,     /* "file":line:col */
  IR_L_NAME,     /* "name"(child) or "name" */
  IR_L_CALLSITE, /* callsite(callee at caller) */
  IR_L_FUSED,    /* fused[a, b, ...] (optionally fused<#meta>[...]) */
  IR_L_ALIAS,    /* #locN: resolved after the whole file is read */
} ir_loc_kind;

typedef struct ir_loc ir_loc;
struct ir_loc {
  ir_loc_kind kind;
  const char *str;      /* FILE: file name; NAME: the name; ALIAS: alias name (without '#') */
  int line, col;        /* FILE */
  const ir_loc *a, *b;  /* NAME: a = child (may be NULL); CALLSITE: a = callee, b = caller; ALIAS: a = target */
  const ir_loc **items; /* FUSED */
  int nitems;
};

/* A resolved kernel-source location for messages: "kernels.py:33:16 (mx)". */
typedef struct ir_srcloc {
  const char *file; /* NULL when unknown */
  int line, col;
  const char *name; /* Python name from a NameLoc, or NULL */
} ir_srcloc;

/* Resolve a loc tree: callsites resolve to the caller (the user's kernel). */
ir_srcloc ir_loc_resolve(const ir_loc *l);
/* "kernels.py:33:16 (mx)" into buf; "" when unknown. */
int ir_srcloc_str(const ir_srcloc *s, char *buf, size_t n);

/* ---- attributes ------------------------------------------------------------ */
typedef enum ir_attr_kind {
  IR_A_UNIT,   /* present, no value (e.g. `allow_reorder`) */
  IR_A_BOOL,   /* true/false: i */
  IR_A_INT,    /* i (type optional: `16 : i32`) */
  IR_A_FLOAT,  /* f (exact value in `type`'s format; type optional) */
  IR_A_STRING, /* s/slen: decoded bytes (MLIR escapes resolved) */
  IR_A_ENUM,   /* keyword spelled in custom syntax (e.g. `rtne`), stored as i with s = spelling */
  IR_A_ARRAY,  /* array<T: v, ...>: ints in ints/nints, element type in type */
  IR_A_DENSE,  /* dense<...> : type; elements in vals (nvals = 1 when splat) */
  IR_A_TYPE,   /* a type: type */
  IR_A_DICT,   /* {k = v, ...}: items/nitems (named) */
  IR_A_LIST,   /* [a, b, ...]: items/nitems (unnamed) */
  IR_A_SYMBOL, /* @name: s */
  IR_A_OPAQUE, /* anything else kept verbatim (e.g. #llvm.loop_annotation<...>): s */
} ir_attr_kind;

/* One element of a constant, faithful to the text: ints as sign-extended
 * int64; floats as the double strtod gives for the decimal spelling (the
 * interpreter rounds it to the element format), or, when the attribute's
 * `hex` flag is set, the raw bit pattern of the element format in .i. */
typedef union ir_scalar_val {
  int64_t i;
  double f;
} ir_scalar_val;

typedef struct ir_attr ir_attr;
struct ir_attr {
  const char *name; /* key; NULL inside lists */
  ir_attr_kind kind;
  const ir_type *type;
  int64_t i; /* INT/BOOL/ENUM value; FLOAT with hex: raw bits */
  double f;  /* FLOAT (decimal spelling) */
  const char *s;
  size_t slen;
  int64_t *ints;
  int nints;
  ir_scalar_val *vals;
  int64_t nvals;
  bool splat;
  bool hex; /* DENSE/FLOAT spelled as hex bit patterns */
  ir_attr *items;
  int nitems;
};

/* ---- SSA values, ops, blocks, regions, functions ---------------------------- */
typedef struct ir_op ir_op;
typedef struct ir_block ir_block;
typedef struct ir_region ir_region;
typedef struct ir_func ir_func;

typedef struct ir_value {
  const ir_type *type;
  uint32_t id;       /* dense index within its function (interpreter slot) */
  const char *name;  /* SSA name without '%', e.g. "x_ptr", "5#1" */
  ir_op *def;        /* defining op; NULL for block arguments */
  ir_block *block;   /* owning block for block arguments */
  uint32_t index;    /* result index or argument index */
  const ir_loc *loc; /* block arguments' loc(...) */
} ir_value;

typedef struct ir_succ {
  ir_block *block;
  ir_value **args;
  int nargs;
} ir_succ;

struct ir_op {
  ir_opcode code;
  int nopnds, nres, nregions, nsuccs, nattrs;
  ir_value **opnds;
  ir_value *res;      /* array of nres values */
  ir_region *regions; /* array of nregions */
  ir_succ *succs;     /* array of nsuccs */
  ir_attr *attrs;     /* named attributes (inherent and discardable) */
  const char *group;  /* "%name:N" result group name, or NULL */
  bool generic;       /* was spelled in generic form */
  int line, col;      /* position of the op in the .ttir text (1-based) */
  const ir_loc *loc;  /* loc(...) tree, or NULL */
  ir_block *parent;
  const char *callee;       /* tt.call: callee symbol */
  ir_func *callee_fn;       /* tt.call: resolved after parsing */
  const ttref_op_def *vdef; /* IR_OP_VENDOR: the registered op (borrowed from its ttref_registry) */
};

struct ir_block {
  const char *label; /* "bb0" (without '^'), or NULL for an implicit entry block */
  ir_value *args;
  int nargs;
  ir_op **ops;
  int nops;
  ir_region *parent;
  int line, col;
};

struct ir_region {
  ir_block **blocks;
  int nblocks;
  ir_op *parent; /* NULL for a function body */
  ir_func *func; /* owning function */
};

typedef struct ir_func {
  const char *name;    /* symbol without '@' */
  bool is_public;      /* `public` (kernel) vs `private` */
  ir_value *args;      /* == body.blocks[0]->args */
  ir_attr **arg_attrs; /* per argument: dict attrs (may be NULL) */
  int *arg_nattrs;
  int nargs;
  const ir_type **res_types;
  int nres;
  ir_attr *attrs; /* `attributes {...}` */
  int nattrs;
  ir_region body;
  uint32_t nvalues; /* number of SSA values (ids 0..nvalues-1) */
  int line, col;
  const ir_loc *loc;
} ir_func;

typedef struct ir_alias { /* top-level `#name = <attr or loc>` definition */
  const char *name;       /* without '#' */
  const char *text;       /* verbatim right-hand side */
  const ir_loc *loc;      /* when the right-hand side is loc(...) */
} ir_alias;

struct ir_module {
  ir_arena *arena;
  const char *filename; /* as given to the parser (for messages) */
  ir_func **funcs;
  int nfuncs;
  ir_attr *attrs; /* `module attributes {...}` */
  int nattrs;
  const ir_loc *loc;
  ir_alias *aliases;
  int naliases;
  void *types; /* interning table (private to ir.c) */
};

ir_module *ir_module_new(const char *filename); /* NULL on OOM */
void ir_module_free(ir_module *m);
ir_func *ir_module_find_func(const ir_module *m, const char *name);
/* The kernel to launch: the first public function (or the only function). */
ir_func *ir_module_entry(const ir_module *m);

/* The op's name for messages: the mnemonic, or a vendor op's registered name. */
const char *ir_op_label(const ir_op *op);

/* Attribute lookup on an op by name; NULL when absent. */
const ir_attr *ir_op_attr(const ir_op *op, const char *name);
/* Integer value of a named attribute (INT, BOOL, ENUM); dflt when absent. */
int64_t ir_op_attr_int(const ir_op *op, const char *name, int64_t dflt);

/* Location helpers for messages. */
ttref_loc ir_op_ttir_loc(const ir_module *m, const ir_op *op);
ir_srcloc ir_op_srcloc(const ir_op *op);

/* ---- Triton enum values (TritonAttrDefs.td; generic forms store these ints) ---- */
enum { IR_CACHE_NONE = 1, IR_CACHE_CA, IR_CACHE_CG, IR_CACHE_WB, IR_CACHE_CS, IR_CACHE_WT, IR_CACHE_CV };
enum { IR_EVICT_NORMAL = 1, IR_EVICT_FIRST, IR_EVICT_LAST };
enum { IR_PAD_ZERO = 1, IR_PAD_NAN = 2 };
enum { IR_SEM_RELAXED = 1, IR_SEM_ACQUIRE, IR_SEM_RELEASE, IR_SEM_ACQ_REL };
enum { IR_SCOPE_GPU = 1, IR_SCOPE_CTA, IR_SCOPE_SYS };
enum {
  IR_RMW_AND = 1,
  IR_RMW_OR,
  IR_RMW_XOR,
  IR_RMW_ADD,
  IR_RMW_FADD,
  IR_RMW_MAX,
  IR_RMW_MIN,
  IR_RMW_UMAX,
  IR_RMW_UMIN,
  IR_RMW_XCHG
};
enum { IR_ROUND_RTZ = 0, IR_ROUND_RTNE = 1 };
enum { IR_PREC_TF32 = 0, IR_PREC_TF32X3 = 1, IR_PREC_IEEE = 2, IR_PREC_BF16X3 = 3, IR_PREC_BF16X6 = 4 };
enum { IR_NAN_NONE = 0, IR_NAN_ALL = 0xFFFF };
enum { IR_SDT_E4M3 = 0, IR_SDT_E5M2, IR_SDT_E2M3, IR_SDT_E3M2, IR_SDT_E2M1, IR_SDT_BF16, IR_SDT_FP16 };
/* arith.cmpi / arith.cmpf predicate numbering (MLIR ArithOps.td), generated from ir_pred_list.h */
enum {
#define CMPI(name, spelling, value) IR_CMPI_##name,
#define CMPF(name, spelling, value)
#include "ir_pred_list.h"
#undef CMPI
#undef CMPF
  IR_CMPI_COUNT
};
enum {
#define CMPI(name, spelling, value)
#define CMPF(name, spelling, value) IR_CMPF_##name,
#include "ir_pred_list.h"
#undef CMPI
#undef CMPF
  IR_CMPF_COUNT
};

/*
 * Canonical attribute names (what the interpreter reads), whatever the spelling:
 *  get_program_id/get_num_programs: "axis" (0..2)   make_range: "start", "end"
 *  expand_dims/reduce/scan/gather/split..: "axis"   scan: "reverse" (BOOL)
 *  trans: "order" (ARRAY)    reshape: "allow_reorder" (UNIT/BOOL), "efficient_layout"
 *  cmpi/cmpf: "predicate" (INT, enum above)         fp_to_fp: "rounding" (INT)
 *  load/store: "cache", "evict", "isVolatile", "boundaryCheck" (ARRAY), "padding"
 *  atomic_rmw: "atomic_rmw_op", "sem", "scope"      atomic_cas: "sem", "scope"
 *  dot: "inputPrecision" (INT), "maxNumImpreciseAcc" (INT)
 *  dot_scaled: "a_elem_type", "b_elem_type" (INT), "fastMath", "lhs_k_pack", "rhs_k_pack"
 *  clampf: "propagateNan" (INT)    map_elementwise: "pack"
 *  histogram: none               print: "prefix" (STRING), "hex" (BOOL), "isSigned" (ARRAY)
 *  assert: "message" (STRING)      extern_elementwise: "symbol", "libname", "libpath", "pure"
 *  make_tensor_ptr: "order"        make_tensor_descriptor: "padding"
 *  descriptor_reduce: "kind" (INT)  constant: "value"
 */

#endif
