/*
 * ir_fx.h: the traced-graph front end: TK (Turbine Kernel) torch.fx-style
 * printed traces (`region_N:graph():` sections) parsed, then lowered with
 * launch-time symbol bindings (ir_fx_lower.h) to the core IR.
 * Ownership: an ir_fx from ir_fx_parse_* is owned by the caller (ir_fx_free)
 * and owns every node, argument and string reachable from it; the text and
 * name passed in are borrowed, except that err->loc.file and g->filename
 * point at the caller's name string.
 */
#ifndef IR_FX_H
#define IR_FX_H

#include <stdbool.h>
#include <stddef.h>
#include "ir.h"

/* ---- the parsed trace ------------------------------------------------------ */
typedef enum ir_fx_opcode {
#define X(name, target, amin, amax) IR_FX_##name,
#include "ir_fx_op_list.h"
#undef X
  IR_FX_OP_COUNT
} ir_fx_opcode;

const char *ir_fx_op_name(ir_fx_opcode op); /* the fx target, or "<invalid>" */

typedef enum ir_fx_arg_kind {
  IR_FX_A_NONE,  /* None */
  IR_FX_A_INT,   /* i */
  IR_FX_A_FLOAT, /* f (inf and nan spelled as names become floats) */
  IR_FX_A_BOOL,  /* i = 0/1 */
  IR_FX_A_NAME,  /* s: a symbol, dtype or region name (dotted names keep their dots) */
  IR_FX_A_STR,   /* s: a quoted string */
  IR_FX_A_REF,   /* s: %node (node = the node it names in the same region) */
  IR_FX_A_BIN,   /* s = "+", "-", "*", "/", "//", "%"; items[0], items[1] */
  IR_FX_A_NEG,   /* -items[0] */
  IR_FX_A_CALL,  /* s(items...): slice(...), floor(...), Mod(...), Max(...), Min(...), ceiling(...) */
  IR_FX_A_TUPLE, /* (items...) */
  IR_FX_A_LIST,  /* [items...] */
  IR_FX_A_DICT,  /* {keys[i]: items[i]} */
} ir_fx_arg_kind;

typedef struct ir_fx_arg ir_fx_arg;
struct ir_fx_arg {
  ir_fx_arg_kind kind;
  int line, col;
  int64_t i;
  double f;
  const char *s;
  int node; /* REF: index of the node in its region */
  ir_fx_arg **items;
  const char **keys; /* DICT */
  int nitems;
};

typedef enum ir_fx_node_kind { IR_FX_N_PLACEHOLDER, IR_FX_N_CALL, IR_FX_N_OUTPUT } ir_fx_node_kind;

/* Buffer kinds of placeholder annotations. */
enum { IR_FX_BUF_NONE = 0, IR_FX_BUF_INPUT, IR_FX_BUF_OUTPUT, IR_FX_BUF_TEMP };

typedef struct ir_fx_node {
  ir_fx_node_kind kind;
  const char *name;   /* without '%' ("output" for return) */
  int line, col;      /* of the '%' (or of `return`) */
  const char *target; /* as written */
  int tline, tcol;
  ir_fx_opcode op;   /* CALL */
  ir_fx_arg *args;   /* TUPLE (positional), never NULL */
  ir_fx_arg *kwargs; /* DICT, never NULL */
  /* annotation */
  int buf_kind;      /* IR_FX_BUF_* for `InputBuffer[...]` and short spellings */
  ir_fx_arg *dims;   /* TUPLE of the buffer's symbolic dims (NULL without) */
  const char *dtype; /* `.of(dtype)` spelling, or NULL */
  int dline, dcol;   /* where the dtype is */
  bool sym_index;    /* SymIndex annotation */
  int num_users;     /* -1 when absent */
} ir_fx_node;

typedef struct ir_fx_region {
  const char *name; /* "region_0"; "graph" for an unlabelled graph */
  int line, col;
  bool root_mark;   /* `region_1 [root]:` */
  bool is_subgraph; /* referenced by a for_loop */
  ir_fx_node *nodes;
  int nnodes;
} ir_fx_region;

typedef struct ir_fx {
  ir_arena *arena;
  const char *filename; /* as given */
  ir_fx_region *regions;
  int nregions;
  int root; /* index of the root region */
} ir_fx;

/* The region named @p name, or -1. */
int ir_fx_find_region(const ir_fx *g, const char *name);
/* The value of keyword @p key of a node, or NULL. */
const ir_fx_arg *ir_fx_kwarg(const ir_fx_node *n, const char *key);

/* True when @p path ends in ".fx" or the text starts (after blank and comment
 * lines) like a printed fx graph (`NAME:graph():`, `NAME:` or `graph():`). */
bool ir_fx_sniff(const char *path, const char *text, size_t len);
/* ir_fx_sniff on a file's first 4 KiB; false when unreadable. */
bool ir_fx_sniff_file(const char *path);

/**
 * Parse the printed trace in @p text (@p len bytes; @p name is used in
 * messages). Checks structure and names: every %ref defined earlier in its
 * region or as a placeholder, known targets, argument counts, subgraph
 * references, exactly one root region.
 * @return TTREF_OK, TTREF_E_SYNTAX ("FILE:LINE:COL: error: ..."), TTREF_E_NOMEM.
 */
ttref_status ir_fx_parse_string(const char *name, const char *text, size_t len, ir_fx **out, ttref_error *err);
/* The same for a file (TTREF_E_IO when unreadable). */
ttref_status ir_fx_parse_file(const char *path, ir_fx **out, ttref_error *err);
void ir_fx_free(ir_fx *g);

#endif
