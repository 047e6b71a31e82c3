/*
 * ir_verify_impl.h: internals shared by the verifier's files (ir_verify*.c):
 * the walk context vctx, type predicates and the message helpers. Not
 * installed; vctx's buffers are owned by ir_verify_module.
 */
#ifndef IR_VERIFY_IMPL_H
#define IR_VERIFY_IMPL_H

#include "ir_verify.h"
#include "ir_vendor.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * Tensor size limits. Triton's TensorSizeTrait (every tt.* op) requires each
 * tensor operand and result to hold a power-of-two number of elements, at
 * most TRITON_MAX_TENSOR_NUMEL = 2^20. We keep the power-of-two rule for
 * tt.* ops, as Triton does, but report a size error only above 2^26
 * elements (on every op): kernels compiled with a raised limit and
 * hand-written stress cases still run, while anything larger (>= 256 MiB
 * per f32 tensor in every program instance) is surely a mistake in the IR.
 */
#define MAX_NUMEL ((int64_t)1 << 26)

typedef struct vctx {
  const ir_module *m;
  ttref_error *err;
  const ir_func *fn; /* function being verified */
  uint8_t *seen;     /* per value id: 1 while the value dominates the walk position */
  uint32_t nseen;
  uint32_t *undo; /* ids marked in scope, popped when their scope closes */
  size_t nundo, capundo;
  int nodom;         /* > 0 inside unreachable blocks: no dominance checks (as MLIR) */
  char tbuf[4][160]; /* rotating buffers for type spellings in messages */
  int tnext;
} vctx;

/* ---- type predicates ----------------------------------------------------------- */
static inline const ir_type *otype(const ir_op *op, int i) { return op->opnds[i]->type; }
static inline const ir_type *rtype(const ir_op *op, int i) { return op->res[i].type; }
static inline bool is_tensor(const ir_type *t) { return t->kind == IR_T_TENSOR; }
static inline const ir_type *elem(const ir_type *t) { return ir_type_elem(t); }
static inline bool is_int_scalar(const ir_type *e) { return e->kind == IR_T_SCALAR && ir_scalar_is_int(e->scalar); }
static inline bool is_float_scalar(const ir_type *e) { return e->kind == IR_T_SCALAR && ir_scalar_is_float(e->scalar); }
static inline bool elem_int(const ir_type *t) { return is_int_scalar(elem(t)); }
static inline bool elem_float(const ir_type *t) { return is_float_scalar(elem(t)); }
static inline bool elem_ptr(const ir_type *t)
{
  return elem(t)->kind == IR_T_PTR && elem(t)->elem && elem(t)->elem->kind != IR_T_TENSOR;
}
static inline bool elem_is(const ir_type *t, ir_scalar s)
{
  return elem(t)->kind == IR_T_SCALAR && elem(t)->scalar == s;
}
static inline bool is_scalar_of(const ir_type *t, ir_scalar s) { return t->kind == IR_T_SCALAR && t->scalar == s; }
static inline bool is_block_ptr(const ir_type *t)
{
  return t->kind == IR_T_PTR && t->elem && t->elem->kind == IR_T_TENSOR;
}
static inline int elem_bits(const ir_type *t)
{
  const ir_type *e = elem(t);
  return e->kind == IR_T_SCALAR ? ir_scalar_bits(e->scalar) : 64;
}

static inline bool same_shape(const ir_type *a, const ir_type *b)
{
  if (is_tensor(a) != is_tensor(b)) return false;
  if (!is_tensor(a)) return true;
  if (a->rank != b->rank) return false;
  for (int i = 0; i < a->rank; i++)
    if (a->shape[i] != b->shape[i]) return false;
  return true;
}

/* r has like's shape (or is a scalar when like is) and element type e */
static inline bool shaped_like(const ir_type *r, const ir_type *like, const ir_type *e)
{
  return same_shape(r, like) && elem(r) == e;
}

static inline bool is_pow2(int64_t n) { return (n & (n - 1)) == 0; }

/* Integers of an INT/BOOL/ENUM attribute list (ARRAY or DENSE); -1 when not one. */
static inline int attr_ints(const ir_attr *a, int64_t *out, int max)
{
  if (!a) return -1;
  if (a->kind == IR_A_ARRAY) {
    for (int i = 0; i < a->nints && i < max; i++) out[i] = a->ints[i];
    return a->nints;
  }
  if (a->kind == IR_A_DENSE && !a->splat && a->vals) {
    for (int64_t i = 0; i < a->nvals && i < max; i++) out[i] = a->vals[i].i;
    return (int)a->nvals;
  }
  return -1;
}

static inline bool has_attr(const ir_op *op, const char *name) { return ir_op_attr(op, name) != NULL; }

/* Region index of r within its parent op. */
static inline int region_index(const ir_region *r) { return r->parent ? (int)(r - r->parent->regions) : 0; }

/* The op owning the region that holds op's block (NULL: function body). */
static inline const ir_op *parent_op(const ir_op *op, int *ridx)
{
  const ir_region *r = op->parent ? op->parent->parent : NULL;
  if (ridx) *ridx = r ? region_index(r) : 0;
  return r ? r->parent : NULL;
}

typedef enum cls { C_ANY, C_INT, C_FLOAT, C_PTR, C_I1 } cls;
typedef enum width_rule { W_ANY, W_WIDER, W_NARROWER, W_SAME } width_rule;

/* ---- helpers shared by the verifier files ---------------------------------------- */
const char *irv_tstr(vctx *c, const ir_type *t);
ttref_status irv_bad(vctx *c, const ir_op *op, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
ttref_status irv_internal(vctx *c, const ir_op *op, const char *what);
ttref_status irv_check_same_type(vctx *c, const ir_op *op, cls k);
ttref_status irv_check_cmp(vctx *c, const ir_op *op, cls k, int npred);
ttref_status irv_check_cast(vctx *c, const ir_op *op, cls from, cls to, width_rule w);
ttref_status irv_check_same_shape_all(vctx *c, const ir_op *op);
ttref_status irv_want_scalar(vctx *c, const ir_op *op, int i, ir_scalar s, const char *what);
ttref_status irv_check_constant(vctx *c, const ir_op *op);
ttref_status irv_check_program_id(vctx *c, const ir_op *op);
ttref_status irv_check_make_range(vctx *c, const ir_op *op);
ttref_status irv_check_splat(vctx *c, const ir_op *op);
ttref_status irv_check_unsplat(vctx *c, const ir_op *op);
ttref_status irv_check_broadcast(vctx *c, const ir_op *op);
ttref_status irv_check_expand_dims(vctx *c, const ir_op *op);
ttref_status irv_check_reshape(vctx *c, const ir_op *op);
ttref_status irv_check_trans(vctx *c, const ir_op *op);
ttref_status irv_check_cat(vctx *c, const ir_op *op);
ttref_status irv_check_join(vctx *c, const ir_op *op);
ttref_status irv_check_split(vctx *c, const ir_op *op);
ttref_status irv_check_gather(vctx *c, const ir_op *op);
ttref_status irv_check_histogram(vctx *c, const ir_op *op);
ttref_status irv_check_addptr(vctx *c, const ir_op *op);
ttref_status irv_check_tt_bitcast(vctx *c, const ir_op *op);
ttref_status irv_check_fp_to_fp(vctx *c, const ir_op *op);
ttref_status irv_check_int_ptr(vctx *c, const ir_op *op, bool to_ptr);
ttref_status irv_check_load(vctx *c, const ir_op *op);
ttref_status irv_check_store(vctx *c, const ir_op *op);
ttref_status irv_check_atomic_rmw(vctx *c, const ir_op *op);
ttref_status irv_check_atomic_cas(vctx *c, const ir_op *op);
ttref_status irv_check_make_tensor_ptr(vctx *c, const ir_op *op);
ttref_status irv_check_advance(vctx *c, const ir_op *op);
ttref_status irv_check_make_desc(vctx *c, const ir_op *op);
ttref_status irv_check_desc_access(vctx *c, const ir_op *op, bool has_src);
ttref_status irv_check_desc_gather(vctx *c, const ir_op *op, bool scatter);
ttref_status irv_check_dot(vctx *c, const ir_op *op);
ttref_status irv_check_dot_scaled(vctx *c, const ir_op *op);
ttref_status irv_check_op(vctx *c, const ir_op *op);
ttref_status irv_check_rule(vctx *c, const ir_op *op);

#endif
