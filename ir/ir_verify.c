/*
 * ir_verify.c: one walk per function checks each op in text order: arity and
 * types (one switch case per row of ir_op_list.h), block and terminator
 * structure, and SSA dominance (a scope walked along each dominator tree).
 */
#include "config.h"
#include "ir_verify.h"
#include "ir_vendor.h"

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
  const ir_func *fn;   /* function being verified */
  uint8_t *seen;       /* per value id: 1 while the value dominates the walk position */
  uint32_t nseen;
  uint32_t *undo;      /* ids marked in scope, popped when their scope closes */
  size_t nundo, capundo;
  int nodom;           /* > 0 inside unreachable blocks: no dominance checks (as MLIR) */
  char tbuf[4][160];   /* rotating buffers for type spellings in messages */
  int tnext;
} vctx;

/* ---- messages --------------------------------------------------------------- */
static const char *tstr(vctx *c, const ir_type *t)
{
  char *b = c->tbuf[c->tnext++ & 3];
  ir_type_str(t, b, sizeof c->tbuf[0]);
  return b;
}

static void note_src(vctx *c, const ir_srcloc *s)
{
  char sb[256];
  if (ir_srcloc_str(s, sb, sizeof sb) > 0) ir_error_note(c->err, "note: in kernel source %s", sb);
}

static ttref_status bad(vctx *c, const ir_op *op, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static ttref_status bad(vctx *c, const ir_op *op, const char *fmt, ...)
{
  char body[320];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(body, sizeof body, fmt, ap);
  va_end(ap);
  ir_error_set(c->err, TTREF_E_VERIFY, ir_op_ttir_loc(c->m, op), "'%s' op %s", ir_op_label(op), body);
  ir_srcloc s = ir_op_srcloc(op);
  note_src(c, &s);
  return TTREF_E_VERIFY;
}

static ttref_status bad_func(vctx *c, const ir_func *fn, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static ttref_status bad_func(vctx *c, const ir_func *fn, const char *fmt, ...)
{
  char body[320];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(body, sizeof body, fmt, ap);
  va_end(ap);
  ttref_loc l = {c->m->filename, fn->line, fn->col};
  ir_error_set(c->err, TTREF_E_VERIFY, l, "'tt.func' op @%s: %s", fn->name ? fn->name : "?", body);
  ir_srcloc s = ir_loc_resolve(fn->loc);
  note_src(c, &s);
  return TTREF_E_VERIFY;
}

static ttref_status internal(vctx *c, const ir_op *op, const char *what)
{
  ir_error_set(c->err, TTREF_E_INTERNAL, ir_op_ttir_loc(c->m, op), "'%s' op: malformed IR: %s",
               ir_op_name(op->code), what);
  return TTREF_E_INTERNAL;
}

/* ---- type predicates ----------------------------------------------------------- */
static const ir_type *otype(const ir_op *op, int i) { return op->opnds[i]->type; }
static const ir_type *rtype(const ir_op *op, int i) { return op->res[i].type; }
static bool is_tensor(const ir_type *t) { return t->kind == IR_T_TENSOR; }
static const ir_type *elem(const ir_type *t) { return ir_type_elem(t); }
static bool is_int_scalar(const ir_type *e) { return e->kind == IR_T_SCALAR && ir_scalar_is_int(e->scalar); }
static bool is_float_scalar(const ir_type *e) { return e->kind == IR_T_SCALAR && ir_scalar_is_float(e->scalar); }
static bool elem_int(const ir_type *t) { return is_int_scalar(elem(t)); }
static bool elem_float(const ir_type *t) { return is_float_scalar(elem(t)); }
static bool elem_ptr(const ir_type *t) { return elem(t)->kind == IR_T_PTR && elem(t)->elem && elem(t)->elem->kind != IR_T_TENSOR; }
static bool elem_is(const ir_type *t, ir_scalar s) { return elem(t)->kind == IR_T_SCALAR && elem(t)->scalar == s; }
static bool is_scalar_of(const ir_type *t, ir_scalar s) { return t->kind == IR_T_SCALAR && t->scalar == s; }
static bool is_block_ptr(const ir_type *t) { return t->kind == IR_T_PTR && t->elem && t->elem->kind == IR_T_TENSOR; }
static int elem_bits(const ir_type *t)
{
  const ir_type *e = elem(t);
  return e->kind == IR_T_SCALAR ? ir_scalar_bits(e->scalar) : 64;
}

static bool same_shape(const ir_type *a, const ir_type *b)
{
  if (is_tensor(a) != is_tensor(b)) return false;
  if (!is_tensor(a)) return true;
  if (a->rank != b->rank) return false;
  for (int i = 0; i < a->rank; i++)
    if (a->shape[i] != b->shape[i]) return false;
  return true;
}

/* r has like's shape (or is a scalar when like is) and element type e */
static bool shaped_like(const ir_type *r, const ir_type *like, const ir_type *e)
{
  return same_shape(r, like) && elem(r) == e;
}

static bool is_pow2(int64_t n) { return (n & (n - 1)) == 0; }

/* Integers of an INT/BOOL/ENUM attribute list (ARRAY or DENSE); -1 when not one. */
static int attr_ints(const ir_attr *a, int64_t *out, int max)
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

static bool has_attr(const ir_op *op, const char *name) { return ir_op_attr(op, name) != NULL; }

/* Region index of r within its parent op. */
static int region_index(const ir_region *r)
{
  return r->parent ? (int)(r - r->parent->regions) : 0;
}

/* The op owning the region that holds op's block (NULL: function body). */
static const ir_op *parent_op(const ir_op *op, int *ridx)
{
  const ir_region *r = op->parent ? op->parent->parent : NULL;
  if (ridx) *ridx = r ? region_index(r) : 0;
  return r ? r->parent : NULL;
}

/* ---- operand class checks shared by many ops ------------------------------------------ */
typedef enum cls { C_ANY, C_INT, C_FLOAT, C_PTR, C_I1 } cls;

static bool in_class(const ir_type *t, cls k)
{
  switch (k) {
  case C_ANY: return true;
  case C_INT: return elem_int(t);
  case C_FLOAT: return elem_float(t);
  case C_PTR: return elem_ptr(t);
  case C_I1: return elem_is(t, IR_S_I1);
  }
  return false;
}

static const char *class_name(cls k)
{
  switch (k) {
  case C_ANY: return "any type";
  case C_INT: return "signless-integer-like";
  case C_FLOAT: return "floating-point-like";
  case C_PTR: return "ptr or tensor of ptr";
  case C_I1: return "bool-like (i1)";
  }
  return "?";
}

static ttref_status want_opnd(vctx *c, const ir_op *op, int i, cls k)
{
  return in_class(otype(op, i), k)
             ? TTREF_OK
             : bad(c, op, "operand #%d must be %s, but got '%s'", i, class_name(k), tstr(c, otype(op, i)));
}

static ttref_status want_res(vctx *c, const ir_op *op, int i, cls k)
{
  return in_class(rtype(op, i), k)
             ? TTREF_OK
             : bad(c, op, "result #%d must be %s, but got '%s'", i, class_name(k), tstr(c, rtype(op, i)));
}

/* SameOperandsAndResultType with an element class (arith/math/tt elementwise). */
static ttref_status check_same_type(vctx *c, const ir_op *op, cls k)
{
  ttref_status st = TTREF_OK;
  for (int i = 0; i < op->nopnds; i++) TRY(want_opnd(c, op, i, k));
  for (int i = 0; i < op->nres; i++) TRY(want_res(c, op, i, k));
  for (int i = 0; i < op->nopnds; i++)
    if (otype(op, i) != rtype(op, 0))
      FAIL(bad(c, op, "requires the same type for all operands and results (operand #%d is '%s', result is '%s')",
               i, tstr(c, otype(op, i)), tstr(c, rtype(op, 0))));
fail:
  return st;
}

/* cmpi/cmpf: same-typed operands of class k, i1 result of their shape, predicate in range. */
static ttref_status check_cmp(vctx *c, const ir_op *op, cls k, int npred)
{
  ttref_status st = TTREF_OK;
  TRY(want_opnd(c, op, 0, k));
  TRY(want_opnd(c, op, 1, k));
  if (otype(op, 0) != otype(op, 1))
    FAIL(bad(c, op, "requires all operands to have the same type ('%s' vs '%s')", tstr(c, otype(op, 0)),
             tstr(c, otype(op, 1))));
  if (!elem_is(rtype(op, 0), IR_S_I1) || !same_shape(rtype(op, 0), otype(op, 0)))
    FAIL(bad(c, op, "result must be i1 with the operands' shape, but got '%s'", tstr(c, rtype(op, 0))));
  const ir_attr *p = ir_op_attr(op, "predicate");
  if (!p) FAIL(bad(c, op, "requires attribute 'predicate'"));
  int64_t pv = ir_op_attr_int(op, "predicate", -1);
  if (pv < 0 || pv >= npred) FAIL(bad(c, op, "predicate %lld is out of range [0, %d)", (long long)pv, npred));
fail:
  return st;
}

typedef enum width_rule { W_ANY, W_WIDER, W_NARROWER, W_SAME } width_rule;

/* Elementwise casts: same shape, operand/result classes, element width rule. */
static ttref_status check_cast(vctx *c, const ir_op *op, cls from, cls to, width_rule w)
{
  ttref_status st = TTREF_OK;
  const ir_type *s = otype(op, 0), *r = rtype(op, 0);
  TRY(want_opnd(c, op, 0, from));
  TRY(want_res(c, op, 0, to));
  if (!same_shape(s, r))
    FAIL(bad(c, op, "requires the same shape for all operands and results ('%s' vs '%s')", tstr(c, s), tstr(c, r)));
  int sb = elem_bits(s), rb = elem_bits(r);
  if (w == W_WIDER && !(rb > sb))
    FAIL(bad(c, op, "result type '%s' must be wider than operand type '%s'", tstr(c, r), tstr(c, s)));
  if (w == W_NARROWER && !(rb < sb))
    FAIL(bad(c, op, "result type '%s' must be shorter than operand type '%s'", tstr(c, r), tstr(c, s)));
  if (w == W_SAME && rb != sb)
    FAIL(bad(c, op, "operand type '%s' and result type '%s' are cast incompatible (bit widths %d and %d)",
             tstr(c, s), tstr(c, r), sb, rb));
fail:
  return st;
}

/* All operands and results share one shape (Elementwise trait). */
static ttref_status check_same_shape_all(vctx *c, const ir_op *op)
{
  ttref_status st = TTREF_OK;
  const ir_type *ref = op->nopnds ? otype(op, 0) : op->nres ? rtype(op, 0) : NULL;
  for (int i = 0; ref && i < op->nopnds; i++)
    if (!same_shape(otype(op, i), ref))
      FAIL(bad(c, op, "requires the same shape for all operands and results (operand #%d is '%s', expected the shape of '%s')",
               i, tstr(c, otype(op, i)), tstr(c, ref)));
  for (int i = 0; ref && i < op->nres; i++)
    if (!same_shape(rtype(op, i), ref))
      FAIL(bad(c, op, "requires the same shape for all operands and results (result #%d is '%s', expected the shape of '%s')",
               i, tstr(c, rtype(op, i)), tstr(c, ref)));
fail:
  return st;
}

static ttref_status want_scalar(vctx *c, const ir_op *op, int i, ir_scalar s, const char *what)
{
  return is_scalar_of(otype(op, i), s)
             ? TTREF_OK
             : bad(c, op, "%s (operand #%d) must be %s, but got '%s'", what, i, ir_scalar_name(s), tstr(c, otype(op, i)));
}

/* ---- structural helpers ----------------------------------------------------------------- */
static ttref_status want_counts(vctx *c, const ir_op *op, int lo, int hi)
{
  return op->nopnds >= lo && op->nopnds <= hi
             ? TTREF_OK
             : bad(c, op, "expected %d to %d operands, but found %d", lo, hi, op->nopnds);
}

static bool inside_map_elementwise(const ir_op *op)
{
  for (const ir_op *p = parent_op(op, NULL); p; p = parent_op(p, NULL))
    if (p->code == IR_OP_MAP_ELEMENTWISE) return true;
  return false;
}

/* ---- per-op rules ----------------------------------------------------------------------------- */
static ttref_status check_constant(vctx *c, const ir_op *op)
{
  ttref_status st = TTREF_OK;
  const ir_type *r = rtype(op, 0);
  const ir_attr *a = ir_op_attr(op, "value");
  if (!a) FAIL(bad(c, op, "requires attribute 'value'"));
  if (r->kind == IR_T_DESC || r->kind == IR_T_PTR || elem_ptr(r))
    FAIL(bad(c, op, "result must be an integer or float scalar or tensor, but got '%s'", tstr(c, r)));
  switch (a->kind) {
  case IR_A_INT:
  case IR_A_BOOL:
    if (is_tensor(r) || !is_int_scalar(r))
      FAIL(bad(c, op, "integer value does not match the result type '%s'", tstr(c, r)));
    if (a->type && a->type != r)
      FAIL(bad(c, op, "value type '%s' must match the result type '%s'", tstr(c, a->type), tstr(c, r)));
    break;
  case IR_A_FLOAT:
    if (is_tensor(r) || !is_float_scalar(r))
      FAIL(bad(c, op, "float value does not match the result type '%s'", tstr(c, r)));
    if (a->type && a->type != r)
      FAIL(bad(c, op, "value type '%s' must match the result type '%s'", tstr(c, a->type), tstr(c, r)));
    break;
  case IR_A_DENSE:
    if (!is_tensor(r)) FAIL(bad(c, op, "dense value needs a tensor result, but got '%s'", tstr(c, r)));
    if (a->type && a->type != r)
      FAIL(bad(c, op, "value type '%s' must match the result type '%s'", tstr(c, a->type), tstr(c, r)));
    if (!a->splat && a->nvals != r->numel)
      FAIL(bad(c, op, "dense value has %lld elements, but the result type '%s' has %lld", (long long)a->nvals,
               tstr(c, r), (long long)r->numel));
    break;
  default:
    FAIL(bad(c, op, "value must be an integer, float or dense attribute"));
  }
fail:
  return st;
}

static ttref_status check_program_id(vctx *c, const ir_op *op)
{
  ttref_status st = TTREF_OK;
  if (!is_scalar_of(rtype(op, 0), IR_S_I32))
    FAIL(bad(c, op, "result must be i32, but got '%s'", tstr(c, rtype(op, 0))));
  int64_t ax = ir_op_attr_int(op, "axis", -1);
  if (ax < 0 || ax > 2) FAIL(bad(c, op, "axis must be 0, 1 or 2 (x, y, z), but got %lld", (long long)ax));
fail:
  return st;
}

static ttref_status check_make_range(vctx *c, const ir_op *op)
{
  ttref_status st = TTREF_OK;
  const ir_type *r = rtype(op, 0);
  if (!has_attr(op, "start") || !has_attr(op, "end")) FAIL(bad(c, op, "requires attributes 'start' and 'end'"));
  int64_t s = ir_op_attr_int(op, "start", 0), e = ir_op_attr_int(op, "end", 0);
  if (s >= e) FAIL(bad(c, op, "start must be less than end (start = %lld, end = %lld)", (long long)s, (long long)e));
  if (!is_tensor(r) || r->rank != 1) FAIL(bad(c, op, "return type must be a 1D tensor, but got '%s'", tstr(c, r)));
  if (r->shape[0] != e - s)
    FAIL(bad(c, op, "number of elements in returned tensor, %lld, must match size of range [%lld, %lld), which has %lld elements",
             (long long)r->shape[0], (long long)s, (long long)e, (long long)(e - s)));
  if (!elem_is(r, IR_S_I32)) FAIL(bad(c, op, "returned tensor must have i32 elements, but got '%s'", tstr(c, r)));
fail:
  return st;
}

static ttref_status check_splat(vctx *c, const ir_op *op)
{
  ttref_status st = TTREF_OK;
  const ir_type *s = otype(op, 0), *r = rtype(op, 0);
  if (is_tensor(s) || s->kind == IR_T_DESC || is_block_ptr(s))
    FAIL(bad(c, op, "operand must be a scalar or pointer, but got '%s'", tstr(c, s)));
  if (!is_tensor(r)) FAIL(bad(c, op, "result must be a tensor, but got '%s'", tstr(c, r)));
  if (r->elem != s)
    FAIL(bad(c, op, "requires the same element type for operand and result ('%s' vs '%s')", tstr(c, s), tstr(c, r)));
fail:
  return st;
}

static ttref_status check_unsplat(vctx *c, const ir_op *op)
{
  ttref_status st = TTREF_OK;
  const ir_type *s = otype(op, 0), *r = rtype(op, 0);
  if (!is_tensor(s)) FAIL(bad(c, op, "operand must be a tensor, but got '%s'", tstr(c, s)));
  if (s->numel != 1) FAIL(bad(c, op, "source tensor must have exactly one element, but '%s' has %lld", tstr(c, s), (long long)s->numel));
  if (r != s->elem) FAIL(bad(c, op, "result type '%s' must be the element type of '%s'", tstr(c, r), tstr(c, s)));
fail:
  return st;
}

/* Both operand 0 and result 0 are tensors with the same element type. */
static ttref_status tensors_same_elem(vctx *c, const ir_op *op)
{
  ttref_status st = TTREF_OK;
  const ir_type *s = otype(op, 0), *r = rtype(op, 0);
  if (!is_tensor(s)) FAIL(bad(c, op, "operand #0 must be a tensor, but got '%s'", tstr(c, s)));
  if (!is_tensor(r)) FAIL(bad(c, op, "result must be a tensor, but got '%s'", tstr(c, r)));
  if (s->elem != r->elem)
    FAIL(bad(c, op, "requires the same element type for operand and result ('%s' vs '%s')", tstr(c, s), tstr(c, r)));
fail:
  return st;
}

static ttref_status check_broadcast(vctx *c, const ir_op *op)
{
  ttref_status st = TTREF_OK;
  TRY(tensors_same_elem(c, op));
  const ir_type *s = otype(op, 0), *r = rtype(op, 0);
  if (s->rank != r->rank)
    FAIL(bad(c, op, "rank of source must be same as rank of result ('%s' vs '%s')", tstr(c, s), tstr(c, r)));
  for (int i = 0; i < s->rank; i++)
    if (s->shape[i] != 1 && s->shape[i] != r->shape[i])
      FAIL(bad(c, op, "different dimensions at index %d between source and result ('%s' vs '%s'); broadcast requires the source dimension to be 1",
               i, tstr(c, s), tstr(c, r)));
fail:
  return st;
}

static ttref_status check_expand_dims(vctx *c, const ir_op *op)
{
  ttref_status st = TTREF_OK;
  TRY(tensors_same_elem(c, op));
  const ir_type *s = otype(op, 0), *r = rtype(op, 0);
  if (!has_attr(op, "axis")) FAIL(bad(c, op, "requires attribute 'axis'"));
  int64_t ax = ir_op_attr_int(op, "axis", -1);
  if (ax < 0 || ax > s->rank)
    FAIL(bad(c, op, "axis %lld is out of range for a rank-%d operand (must be in [0, %d])", (long long)ax, s->rank, s->rank));
  bool ok = r->rank == s->rank + 1 && r->shape[ax] == 1;
  for (int i = 0, j = 0; ok && i < r->rank; i++) {
    if (i == ax) continue;
    if (r->shape[i] != s->shape[j++]) ok = false;
  }
  if (!ok)
    FAIL(bad(c, op, "result '%s' must be '%s' with a size-1 dimension inserted at axis %lld", tstr(c, r), tstr(c, s),
             (long long)ax));
fail:
  return st;
}

static ttref_status check_reshape(vctx *c, const ir_op *op)
{
  ttref_status st = TTREF_OK;
  TRY(tensors_same_elem(c, op));
  const ir_type *s = otype(op, 0), *r = rtype(op, 0);
  if (s->numel != r->numel)
    FAIL(bad(c, op, "number of src and dst elements of reshape must be the same ('%s' has %lld, '%s' has %lld)",
             tstr(c, s), (long long)s->numel, tstr(c, r), (long long)r->numel));
fail:
  return st;
}

static ttref_status check_trans(vctx *c, const ir_op *op)
{
  ttref_status st = TTREF_OK;
  TRY(tensors_same_elem(c, op));
  const ir_type *s = otype(op, 0), *r = rtype(op, 0);
  int64_t ord[IR_MAX_RANK];
  int n = attr_ints(ir_op_attr(op, "order"), ord, IR_MAX_RANK);
  if (n < 0) FAIL(bad(c, op, "requires an integer array attribute 'order'"));
  if (n != s->rank) FAIL(bad(c, op, "order must have the same size as the source tensor (%d vs rank %d)", n, s->rank));
  bool used[IR_MAX_RANK] = {false};
  for (int i = 0; i < n; i++) {
    if (ord[i] < 0 || ord[i] >= n || used[ord[i]]) FAIL(bad(c, op, "order must be a permutation of 0..%d", n - 1));
    used[ord[i]] = true;
  }
  bool ok = r->rank == n;
  for (int i = 0; ok && i < n; i++)
    if (r->shape[i] != s->shape[ord[i]]) ok = false;
  if (!ok)
    FAIL(bad(c, op, "result shape must match the permutation of the source shape ('%s' permuted is not '%s')",
             tstr(c, s), tstr(c, r)));
fail:
  return st;
}

static ttref_status check_cat(vctx *c, const ir_op *op)
{
  ttref_status st = TTREF_OK;
  TRY(tensors_same_elem(c, op));
  const ir_type *a = otype(op, 0), *b = otype(op, 1), *r = rtype(op, 0);
  if (a != b) FAIL(bad(c, op, "requires all operands to have the same type ('%s' vs '%s')", tstr(c, a), tstr(c, b)));
  if (r->numel != 2 * a->numel)
    FAIL(bad(c, op, "result element count must equal the sum of the operand element counts, expected %lld but got %lld",
             (long long)(2 * a->numel), (long long)r->numel));
fail:
  return st;
}

static ttref_status check_join(vctx *c, const ir_op *op)
{
  ttref_status st = TTREF_OK;
  TRY(tensors_same_elem(c, op));
  const ir_type *a = otype(op, 0), *b = otype(op, 1), *r = rtype(op, 0);
  if (a != b) FAIL(bad(c, op, "requires all operands to have the same type ('%s' vs '%s')", tstr(c, a), tstr(c, b)));
  bool ok = r->rank == a->rank + 1 && r->shape[a->rank] == 2;
  for (int i = 0; ok && i < a->rank; i++)
    if (r->shape[i] != a->shape[i]) ok = false;
  if (!ok) FAIL(bad(c, op, "result shape must be the operand shape followed by 2, but got '%s' from '%s'", tstr(c, r), tstr(c, a)));
fail:
  return st;
}

static ttref_status check_split(vctx *c, const ir_op *op)
{
  ttref_status st = TTREF_OK;
  const ir_type *s = otype(op, 0);
  if (!is_tensor(s) || s->rank == 0 || s->shape[s->rank - 1] != 2)
    FAIL(bad(c, op, "last dimension of input tensor must be 2, but got '%s'", tstr(c, s)));
  for (int k = 0; k < 2; k++) {
    const ir_type *r = rtype(op, k);
    bool ok = is_tensor(r) && r->elem == s->elem && r->rank == s->rank - 1;
    for (int i = 0; ok && i < r->rank; i++)
      if (r->shape[i] != s->shape[i]) ok = false;
    if (!ok)
      FAIL(bad(c, op, "result #%d '%s' must be the operand '%s' without its last dimension", k, tstr(c, r), tstr(c, s)));
  }
fail:
  return st;
}

static ttref_status check_gather(vctx *c, const ir_op *op)
{
  ttref_status st = TTREF_OK;
  const ir_type *s = otype(op, 0), *ix = otype(op, 1), *r = rtype(op, 0);
  if (!is_tensor(s)) FAIL(bad(c, op, "operand #0 must be a tensor, but got '%s'", tstr(c, s)));
  if (!is_tensor(ix) || !elem_int(ix)) FAIL(bad(c, op, "indices must be a tensor of integers, but got '%s'", tstr(c, ix)));
  if (!is_tensor(r) || !same_shape(ix, r)) FAIL(bad(c, op, "indices and output shapes must match ('%s' vs '%s')", tstr(c, ix), tstr(c, r)));
  if (s->elem != r->elem) FAIL(bad(c, op, "input and output element types must match ('%s' vs '%s')", tstr(c, s), tstr(c, r)));
  if (s->rank != ix->rank) FAIL(bad(c, op, "input and indices ranks must match (%d vs %d)", s->rank, ix->rank));
  if (!has_attr(op, "axis")) FAIL(bad(c, op, "requires attribute 'axis'"));
  int64_t ax = ir_op_attr_int(op, "axis", -1);
  if (ax < 0 || ax >= s->rank) FAIL(bad(c, op, "gather dimension %lld must be less than the input rank %d", (long long)ax, s->rank));
  for (int d = 0; d < s->rank; d++)
    if (d != ax && ix->shape[d] != s->shape[d])
      FAIL(bad(c, op, "indices dimension %d must match the corresponding input dimension", d));
fail:
  return st;
}

static ttref_status check_histogram(vctx *c, const ir_op *op)
{
  ttref_status st = TTREF_OK;
  TRY(want_counts(c, op, 1, 2));
  const ir_type *s = otype(op, 0), *r = rtype(op, 0);
  if (!is_tensor(s) || !elem_int(s)) FAIL(bad(c, op, "operand #0 must be a tensor of integers, but got '%s'", tstr(c, s)));
  if (!is_tensor(r) || r->rank != 1 || !elem_int(r))
    FAIL(bad(c, op, "result must be a 1-D tensor of integers (one element per bin), but got '%s'", tstr(c, r)));
  if (op->nopnds == 2 && !(elem_is(otype(op, 1), IR_S_I1) && same_shape(otype(op, 1), s)))
    FAIL(bad(c, op, "mask type '%s' must be i1 with the shape of the source '%s'", tstr(c, otype(op, 1)), tstr(c, s)));
fail:
  return st;
}

static ttref_status check_addptr(vctx *c, const ir_op *op)
{
  ttref_status st = TTREF_OK;
  TRY(want_opnd(c, op, 0, C_PTR));
  TRY(want_opnd(c, op, 1, C_INT));
  if (!same_shape(otype(op, 0), otype(op, 1)))
    FAIL(bad(c, op, "requires the same shape for all operands and results ('%s' vs '%s')", tstr(c, otype(op, 0)),
             tstr(c, otype(op, 1))));
  if (rtype(op, 0) != otype(op, 0))
    FAIL(bad(c, op, "result type '%s' must match the pointer type '%s'", tstr(c, rtype(op, 0)), tstr(c, otype(op, 0))));
fail:
  return st;
}

static ttref_status check_tt_bitcast(vctx *c, const ir_op *op)
{
  ttref_status st = TTREF_OK;
  const ir_type *s = otype(op, 0), *r = rtype(op, 0);
  if (s->kind == IR_T_DESC || r->kind == IR_T_DESC || is_block_ptr(s) || is_block_ptr(r))
    FAIL(bad(c, op, "cannot bitcast '%s' to '%s'", tstr(c, s), tstr(c, r)));
  if (!same_shape(s, r))
    FAIL(bad(c, op, "requires the same shape for all operands and results ('%s' vs '%s')", tstr(c, s), tstr(c, r)));
  bool sp = elem(s)->kind == IR_T_PTR, rp = elem(r)->kind == IR_T_PTR;
  if (sp || rp) {
    if (!(sp && rp)) FAIL(bad(c, op, "cannot bitcast pointer to non-pointer type ('%s' to '%s')", tstr(c, s), tstr(c, r)));
    if (elem(s)->addrspace != elem(r)->addrspace)
      FAIL(bad(c, op, "cannot bitcast pointer between different address spaces ('%s' to '%s')", tstr(c, s), tstr(c, r)));
  } else if (elem_bits(s) != elem_bits(r)) {
    FAIL(bad(c, op, "cannot bitcast data-type of size %d to data-type of size %d", elem_bits(s), elem_bits(r)));
  }
fail:
  return st;
}

static ttref_status check_fp_to_fp(vctx *c, const ir_op *op)
{
  ttref_status st = TTREF_OK;
  TRY(check_cast(c, op, C_FLOAT, C_FLOAT, W_ANY));
  if (elem_bits(rtype(op, 0)) < elem_bits(otype(op, 0)) && !has_attr(op, "rounding"))
    FAIL(bad(c, op, "rounding mode is required for FP downcast ('%s' to '%s')", tstr(c, otype(op, 0)), tstr(c, rtype(op, 0))));
fail:
  return st;
}

static ttref_status check_int_ptr(vctx *c, const ir_op *op, bool to_ptr)
{
  ttref_status st = TTREF_OK;
  const ir_type *s = otype(op, 0), *r = rtype(op, 0);
  const ir_type *i = to_ptr ? s : r, *p = to_ptr ? r : s;
  if (!elem_is(i, IR_S_I64))
    FAIL(bad(c, op, "%s must be i64 or a tensor of i64, but got '%s'", to_ptr ? "operand" : "result", tstr(c, i)));
  if (!elem_ptr(p)) FAIL(bad(c, op, "%s must be ptr or tensor of ptr, but got '%s'", to_ptr ? "result" : "operand", tstr(c, p)));
  if (!same_shape(s, r))
    FAIL(bad(c, op, "requires the same shape for all operands and results ('%s' vs '%s')", tstr(c, s), tstr(c, r)));
fail:
  return st;
}

/* mask operand #i: i1 with the shape of like */
static ttref_status want_mask(vctx *c, const ir_op *op, int i, const ir_type *like)
{
  const ir_type *m = otype(op, i);
  return elem_is(m, IR_S_I1) && same_shape(m, like)
             ? TTREF_OK
             : bad(c, op, "mask type '%s' must be i1 with the shape of '%s'", tstr(c, m), tstr(c, like));
}

static ttref_status check_boundary(vctx *c, const ir_op *op, const ir_type *ptr)
{
  ttref_status st = TTREF_OK;
  const ir_attr *a = ir_op_attr(op, "boundaryCheck");
  int64_t dims[64];
  int n = attr_ints(a, dims, 64);
  if (n > 0 && !is_block_ptr(ptr)) FAIL(bad(c, op, "boundaryCheck is only allowed with a block pointer"));
  for (int i = 0; i < n && i < 64; i++)
    if (dims[i] < 0 || dims[i] >= ptr->elem->rank)
      FAIL(bad(c, op, "boundaryCheck dimension %lld is out of range for '%s'", (long long)dims[i], tstr(c, ptr)));
fail:
  return st;
}

/* The value type a ptr operand loads/stores: tensor for block pointers,
 * pointee for pointers, tensor of pointee for tensors of pointers; NULL if
 * the operand is no pointer. like: the shape of that value. */
static bool pointee_of(const ir_type *p, const ir_type **pointee)
{
  if (is_block_ptr(p)) {
    *pointee = p->elem;
    return true;
  }
  if (elem_ptr(p)) {
    *pointee = elem(p)->elem;
    return true;
  }
  return false;
}

/* v is what pointer p points at (block ptr: the block tensor) */
static bool value_matches_ptr(const ir_type *v, const ir_type *p)
{
  const ir_type *pt;
  if (!pointee_of(p, &pt)) return false;
  if (is_block_ptr(p)) return v == pt;
  return shaped_like(v, p, pt);
}

static ttref_status check_load(vctx *c, const ir_op *op)
{
  ttref_status st = TTREF_OK;
  TRY(want_counts(c, op, 1, 3));
  const ir_type *p = otype(op, 0), *r = rtype(op, 0), *pt;
  if (!pointee_of(p, &pt))
    FAIL(bad(c, op, "operand #0 must be ptr, tensor of ptr or block pointer, but got '%s'", tstr(c, p)));
  if (!value_matches_ptr(r, p))
    FAIL(bad(c, op, "result type '%s' does not match the pointer type '%s'", tstr(c, r), tstr(c, p)));
  if (op->nopnds >= 2) TRY(want_mask(c, op, 1, r));
  if (op->nopnds == 3 && otype(op, 2) != r)
    FAIL(bad(c, op, "other type '%s' must match the result type '%s'", tstr(c, otype(op, 2)), tstr(c, r)));
  TRY(check_boundary(c, op, p));
fail:
  return st;
}

static ttref_status check_store(vctx *c, const ir_op *op)
{
  ttref_status st = TTREF_OK;
  TRY(want_counts(c, op, 2, 3));
  const ir_type *p = otype(op, 0), *v = otype(op, 1), *pt;
  if (!pointee_of(p, &pt))
    FAIL(bad(c, op, "operand #0 must be ptr, tensor of ptr or block pointer, but got '%s'", tstr(c, p)));
  if (!value_matches_ptr(v, p))
    FAIL(bad(c, op, "value type '%s' does not match the pointer type '%s'", tstr(c, v), tstr(c, p)));
  if (op->nopnds == 3) TRY(want_mask(c, op, 2, v));
  TRY(check_boundary(c, op, p));
  if (inside_map_elementwise(op)) FAIL(bad(c, op, "stores are not supported inside map_elementwise"));
fail:
  return st;
}

static ttref_status check_atomic_rmw(vctx *c, const ir_op *op)
{
  ttref_status st = TTREF_OK;
  TRY(want_counts(c, op, 2, 3));
  const ir_type *p = otype(op, 0), *v = otype(op, 1), *r = rtype(op, 0);
  if (!elem_ptr(p)) FAIL(bad(c, op, "operand #0 must be ptr or tensor of ptr, but got '%s'", tstr(c, p)));
  if (!value_matches_ptr(v, p))
    FAIL(bad(c, op, "ptr type '%s' does not match the value type '%s'", tstr(c, p), tstr(c, v)));
  if (op->nopnds == 3) TRY(want_mask(c, op, 2, v));
  if (r != v) FAIL(bad(c, op, "result type '%s' must match the value type '%s'", tstr(c, r), tstr(c, v)));
  int64_t k = ir_op_attr_int(op, "atomic_rmw_op", 0);
  if (k == IR_RMW_FADD && !elem_float(v)) FAIL(bad(c, op, "fadd needs float values, but got '%s'", tstr(c, v)));
  if (k != IR_RMW_FADD && k != IR_RMW_XCHG && k >= IR_RMW_AND && k <= IR_RMW_UMIN && !elem_int(v))
    FAIL(bad(c, op, "integer atomic operation %lld needs integer values, but got '%s'", (long long)k, tstr(c, v)));
  if (inside_map_elementwise(op)) FAIL(bad(c, op, "stores are not supported inside map_elementwise"));
fail:
  return st;
}

static ttref_status check_atomic_cas(vctx *c, const ir_op *op)
{
  ttref_status st = TTREF_OK;
  const ir_type *p = otype(op, 0), *cmp = otype(op, 1), *v = otype(op, 2), *r = rtype(op, 0);
  if (!elem_ptr(p)) FAIL(bad(c, op, "operand #0 must be ptr or tensor of ptr, but got '%s'", tstr(c, p)));
  if (cmp != v || r != v)
    FAIL(bad(c, op, "cmp '%s', val '%s' and result '%s' must have the same type", tstr(c, cmp), tstr(c, v), tstr(c, r)));
  if (!value_matches_ptr(v, p)) FAIL(bad(c, op, "ptr type '%s' does not match the value type '%s'", tstr(c, p), tstr(c, v)));
  if (elem(v)->kind != IR_T_SCALAR) FAIL(bad(c, op, "values must be integers or floats, but got '%s'", tstr(c, v)));
  if (inside_map_elementwise(op)) FAIL(bad(c, op, "stores are not supported inside map_elementwise"));
fail:
  return st;
}

/* operands [from, from+n) are scalars of type s */
static ttref_status want_scalars(vctx *c, const ir_op *op, int from, int n, ir_scalar s, const char *what)
{
  ttref_status st = TTREF_OK;
  for (int i = from; i < from + n; i++) TRY(want_scalar(c, op, i, s, what));
fail:
  return st;
}

static ttref_status check_make_tensor_ptr(vctx *c, const ir_op *op)
{
  ttref_status st = TTREF_OK;
  const ir_type *r = rtype(op, 0), *b = otype(op, 0);
  if (!is_block_ptr(r)) FAIL(bad(c, op, "result must be a pointer to a tensor, but got '%s'", tstr(c, r)));
  int n = r->elem->rank;
  if (op->nopnds != 1 + 3 * n)
    FAIL(bad(c, op, "expected 1 + 3 x %d operands (base, shape, strides, offsets) for '%s', but found %d", n, tstr(c, r), op->nopnds));
  if (b->kind != IR_T_PTR || b->elem != r->elem->elem || b->addrspace != r->addrspace)
    FAIL(bad(c, op, "base '%s' must point to the element type of '%s'", tstr(c, b), tstr(c, r)));
  TRY(want_scalars(c, op, 1, 2 * n, IR_S_I64, "shape and strides"));
  TRY(want_scalars(c, op, 1 + 2 * n, n, IR_S_I32, "offset"));
fail:
  return st;
}

static ttref_status check_advance(vctx *c, const ir_op *op)
{
  ttref_status st = TTREF_OK;
  const ir_type *p = otype(op, 0);
  if (!is_block_ptr(p)) FAIL(bad(c, op, "operand #0 must be a pointer to a tensor, but got '%s'", tstr(c, p)));
  if (rtype(op, 0) != p) FAIL(bad(c, op, "result type '%s' must match the pointer type '%s'", tstr(c, rtype(op, 0)), tstr(c, p)));
  if (op->nopnds != 1 + p->elem->rank)
    FAIL(bad(c, op, "expected %d offsets for '%s', but found %d", p->elem->rank, tstr(c, p), op->nopnds - 1));
  TRY(want_scalars(c, op, 1, p->elem->rank, IR_S_I32, "offset"));
fail:
  return st;
}

static const ir_type *desc_block(const ir_type *t)
{
  return (t->kind == IR_T_DESC && t->elem && t->elem->kind == IR_T_TENSOR) ? t->elem : NULL;
}

static ttref_status check_make_desc(vctx *c, const ir_op *op)
{
  ttref_status st = TTREF_OK;
  const ir_type *r = rtype(op, 0), *b = otype(op, 0), *blk = desc_block(r);
  if (!blk) FAIL(bad(c, op, "result must be a tensor descriptor, but got '%s'", tstr(c, r)));
  int n = blk->rank;
  if (op->nopnds != 1 + 2 * n)
    FAIL(bad(c, op, "expected 1 + 2 x %d operands (base, shape, strides) for '%s', but found %d", n, tstr(c, r), op->nopnds));
  if (b->kind != IR_T_PTR || !b->elem || b->elem->kind == IR_T_TENSOR || b->elem->scalar != blk->scalar)
    FAIL(bad(c, op, "base '%s' must point to the element type of '%s'", tstr(c, b), tstr(c, r)));
  TRY(want_scalars(c, op, 1, n, IR_S_I32, "shape"));
  TRY(want_scalars(c, op, 1 + n, n, IR_S_I64, "stride"));
fail:
  return st;
}

/* Triton <= 3.0 experimental descriptor ops take a raw !tt.ptr<i8> instead. */
static bool raw_desc(const ir_type *t) { return t->kind == IR_T_PTR && !is_block_ptr(t); }

static ttref_status want_desc(vctx *c, const ir_op *op, const ir_type **blk)
{
  *blk = desc_block(otype(op, 0));
  bool x = op->code == IR_OP_XDESC_LOAD || op->code == IR_OP_XDESC_STORE || op->code == IR_OP_XDESC_GATHER ||
           op->code == IR_OP_XDESC_SCATTER;
  return *blk || (x && raw_desc(otype(op, 0)))
             ? TTREF_OK
             : bad(c, op, "operand #0 must be a tensor descriptor, but got '%s'", tstr(c, otype(op, 0)));
}

static ttref_status block_matches(vctx *c, const ir_op *op, const ir_type *blk, const ir_type *t)
{
  ttref_status st = TTREF_OK;
  if (!is_tensor(t)) FAIL(bad(c, op, "expected a tensor, but got '%s'", tstr(c, t)));
  if (blk->elem->kind != IR_T_SCALAR || t->elem->kind != IR_T_SCALAR || blk->scalar != t->scalar)
    FAIL(bad(c, op, "descriptor block and tensor element types must match, but got '%s' and '%s'", tstr(c, blk), tstr(c, t)));
  if (blk->numel != t->numel)
    FAIL(bad(c, op, "descriptor block and tensor must have the same number of elements, but got %lld and %lld",
             (long long)blk->numel, (long long)t->numel));
fail:
  return st;
}

/* descriptor_load / _store / _reduce: desc, [src], indices (src found by kind, any position) */
static ttref_status check_desc_access(vctx *c, const ir_op *op, bool has_src)
{
  ttref_status st = TTREF_OK;
  const ir_type *blk;
  TRY(want_desc(c, op, &blk));
  int src = -1, nidx = 0;
  for (int i = 1; i < op->nopnds; i++) {
    if (has_src && src < 0 && is_tensor(otype(op, i))) {
      src = i;
      continue;
    }
    TRY(want_scalar(c, op, i, IR_S_I32, "index"));
    nidx++;
  }
  if (has_src && src < 0) FAIL(bad(c, op, "expected a source tensor operand"));
  if (blk && nidx != blk->rank)
    FAIL(bad(c, op, "expected %d indices for '%s', but found %d", blk->rank, tstr(c, otype(op, 0)), nidx));
  if (blk) TRY(block_matches(c, op, blk, has_src ? otype(op, src) : rtype(op, 0)));
  if (has_src && inside_map_elementwise(op)) FAIL(bad(c, op, "stores are not supported inside map_elementwise"));
fail:
  return st;
}

/* descriptor_gather: desc, x_offsets, y_offset -> 2-D; scatter adds src */
static ttref_status check_desc_gather(vctx *c, const ir_op *op, bool scatter)
{
  ttref_status st = TTREF_OK;
  const ir_type *blk;
  TRY(want_counts(c, op, scatter ? 4 : 3, scatter ? 4 : 3));
  TRY(want_desc(c, op, &blk));
  const ir_type *x = otype(op, 1), *t = scatter ? otype(op, 3) : rtype(op, 0);
  if (!is_tensor(x) || x->rank != 1 || !elem_int(x))
    FAIL(bad(c, op, "x offsets must be a 1D tensor of integers, but got '%s'", tstr(c, x)));
  TRY(want_scalar(c, op, 2, IR_S_I32, "y offset"));
  if (!is_tensor(t) || t->rank != 2) FAIL(bad(c, op, "%s must be a 2D tensor, but got '%s'", scatter ? "source" : "result", tstr(c, t)));
  if (t->shape[0] != x->shape[0])
    FAIL(bad(c, op, "tensor must have as many rows as indices (%lld), but got '%s'", (long long)x->shape[0], tstr(c, t)));
  if (blk) {
    if (blk->rank != 2 || blk->shape[0] != 1)
      FAIL(bad(c, op, "descriptor block must be a 2D tensor with exactly 1 row, but got '%s'", tstr(c, blk)));
    if (t->shape[1] != blk->shape[1])
      FAIL(bad(c, op, "tensor number of columns must match block (%lld), but got '%s'", (long long)blk->shape[1], tstr(c, t)));
    if (t->scalar != blk->scalar || t->elem->kind != IR_T_SCALAR)
      FAIL(bad(c, op, "tensor element type must match block '%s', but got '%s'", tstr(c, blk), tstr(c, t)));
  }
  if (scatter && inside_map_elementwise(op)) FAIL(bad(c, op, "stores are not supported inside map_elementwise"));
fail:
  return st;
}

static ttref_status check_dot(vctx *c, const ir_op *op)
{
  ttref_status st = TTREF_OK;
  const ir_type *a = otype(op, 0), *b = otype(op, 1), *cc = otype(op, 2), *d = rtype(op, 0);
  for (int i = 0; i < 3; i++)
    if (!is_tensor(otype(op, i)) || !(elem_int(otype(op, i)) || elem_float(otype(op, i))))
      FAIL(bad(c, op, "operand #%d must be a tensor of floats or integers, but got '%s'", i, tstr(c, otype(op, i))));
  if (d != cc) FAIL(bad(c, op, "result type '%s' must match the accumulator type '%s'", tstr(c, d), tstr(c, cc)));
  int n = a->rank;
  if ((n != 2 && n != 3) || b->rank != n || cc->rank != n)
    FAIL(bad(c, op, "operands must all be 2-D or all be 3-D, but got '%s', '%s' and '%s'", tstr(c, a), tstr(c, b), tstr(c, cc)));
  if (n == 3 && (b->shape[0] != a->shape[0] || cc->shape[0] != a->shape[0]))
    FAIL(bad(c, op, "batch dimensions must match ('%s', '%s', '%s')", tstr(c, a), tstr(c, b), tstr(c, cc)));
  if (a->shape[n - 1] != b->shape[n - 2])
    FAIL(bad(c, op, "K dimensions must match: '%s' * '%s'", tstr(c, a), tstr(c, b)));
  if (cc->shape[n - 2] != a->shape[n - 2] || cc->shape[n - 1] != b->shape[n - 1])
    FAIL(bad(c, op, "accumulator '%s' must be [M, N] of '%s' * '%s'", tstr(c, cc), tstr(c, a), tstr(c, b)));
  if (elem_bits(a) != elem_bits(b))
    FAIL(bad(c, op, "element types of operands A and B must have same bit width ('%s' vs '%s')", tstr(c, a), tstr(c, b)));
  if (elem_int(a) != elem_int(b))
    FAIL(bad(c, op, "operands A and B must both be integer or both be float ('%s' vs '%s')", tstr(c, a), tstr(c, b)));
  if (elem_int(a) != elem_int(cc))
    FAIL(bad(c, op, "%s operands need %s accumulator, but got '%s'", elem_int(a) ? "integer" : "float",
             elem_int(a) ? "an integer" : "a float", tstr(c, cc)));
  if (elem_int(a) && elem_bits(cc) < 32)
    FAIL(bad(c, op, "integer dot needs an i32 (or wider) accumulator, but got '%s'", tstr(c, cc)));
fail:
  return st;
}

static ttref_status check_dot_scaled(vctx *c, const ir_op *op)
{
  ttref_status st = TTREF_OK;
  /* MLIR operand order: a, b, c, [a_scale], [b_scale] (AttrSizedOperandSegments) */
  int ia = 0, ib = 1, ic = 2, ias = -1, ibs = -1;
  TRY(want_counts(c, op, 3, 5));
  int64_t seg[8];
  int nseg = attr_ints(ir_op_attr(op, "operandSegmentSizes"), seg, 8);
  if (nseg == 5) {
    if (seg[0] != 1 || seg[1] != 1 || seg[2] != 1 || seg[3] < 0 || seg[3] > 1 || seg[4] < 0 || seg[4] > 1 ||
        3 + seg[3] + seg[4] != op->nopnds)
      FAIL(bad(c, op, "operandSegmentSizes does not match the %d operands", op->nopnds));
    if (seg[3]) ias = 3;
    if (seg[4]) ibs = 3 + (int)seg[3];
  } else if (op->nopnds == 5) {
    ias = 3, ibs = 4;
  } else if (op->nopnds == 4) {
    /* one scale without segment sizes: a's is [.., M, K/32], b's is [.., N, K/32] */
    const ir_type *s3 = otype(op, 3), *cc = otype(op, 2);
    bool is_b = is_tensor(s3) && is_tensor(cc) && s3->rank >= 2 && cc->rank >= 2 &&
                s3->shape[s3->rank - 2] == cc->shape[cc->rank - 1] && s3->shape[s3->rank - 2] != cc->shape[cc->rank - 2];
    if (is_b) ibs = 3;
    else ias = 3;
  }
  for (int i = 0; i < op->nopnds; i++)
    if (!is_tensor(otype(op, i)) || !(elem_float(otype(op, i)) || elem_is(otype(op, i), IR_S_I8)))
      FAIL(bad(c, op, "operand #%d must be a tensor of floats or i8, but got '%s'", i, tstr(c, otype(op, i))));
  const ir_type *a = otype(op, ia), *b = otype(op, ib), *cc = otype(op, ic), *d = rtype(op, 0);
  if (!elem_float(cc)) FAIL(bad(c, op, "accumulator must be a tensor of floats, but got '%s'", tstr(c, cc)));
  if (d != cc) FAIL(bad(c, op, "result type '%s' must match the accumulator type '%s'", tstr(c, d), tstr(c, cc)));
  int n = a->rank;
  if (n < 2 || b->rank != n || cc->rank != n)
    FAIL(bad(c, op, "operands must be at least 2D and of equal rank ('%s', '%s', '%s')", tstr(c, a), tstr(c, b), tstr(c, cc)));
  bool ae2m1 = ir_op_attr_int(op, "a_elem_type", -1) == IR_SDT_E2M1;
  bool be2m1 = ir_op_attr_int(op, "b_elem_type", -1) == IR_SDT_E2M1;
  bool lpack = ir_op_attr_int(op, "lhs_k_pack", 1) != 0, rpack = ir_op_attr_int(op, "rhs_k_pack", 1) != 0;
  int64_t ak = a->shape[n - 1] * (ae2m1 && lpack ? 2 : 1), bk = b->shape[n - 2] * (be2m1 && rpack ? 2 : 1);
  int64_t am = a->shape[n - 2] * (ae2m1 && !lpack ? 2 : 1), bn = b->shape[n - 1] * (be2m1 && !rpack ? 2 : 1);
  if (ak != bk) FAIL(bad(c, op, "K dimensions must match (%lld vs %lld)", (long long)ak, (long long)bk));
  if (am != cc->shape[n - 2] || bn != cc->shape[n - 1])
    FAIL(bad(c, op, "accumulator '%s' must be [M, N] = [%lld, %lld]", tstr(c, cc), (long long)am, (long long)bn));
  const int sidx[2] = {ias, ibs};
  const int64_t mn[2] = {cc->shape[n - 2], cc->shape[n - 1]};
  for (int k = 0; k < 2; k++) {
    if (sidx[k] < 0) continue;
    const ir_type *s = otype(op, sidx[k]);
    if (s->rank != n || s->shape[n - 2] != mn[k] || s->shape[n - 1] == 0 ||
        (ak / s->shape[n - 1] != 32 && ak / s->shape[n - 1] != 16) || ak % s->shape[n - 1] != 0)
      FAIL(bad(c, op, "scale '%s' must be [%s, K / 32 or K / 16] with K = %lld", tstr(c, s), k ? "N" : "M", (long long)ak));
  }
fail:
  return st;
}

/* reduce / scan: operands, axis, results */
static ttref_status check_reduce_scan(vctx *c, const ir_op *op, bool scan)
{
  ttref_status st = TTREF_OK;
  if (op->nopnds < 1) FAIL(bad(c, op, "must have at least 1 operand"));
  if (op->nopnds != op->nres) FAIL(bad(c, op, "must have the same number of inputs as outputs (%d vs %d)", op->nopnds, op->nres));
  const ir_type *s0 = otype(op, 0);
  if (!has_attr(op, "axis")) FAIL(bad(c, op, "requires attribute 'axis'"));
  int64_t ax = ir_op_attr_int(op, "axis", -1);
  for (int i = 0; i < op->nopnds; i++) {
    const ir_type *s = otype(op, i), *r = rtype(op, i);
    if (!is_tensor(s)) FAIL(bad(c, op, "operand #%d must be a tensor, but got '%s'", i, tstr(c, s)));
    if (ax < 0 || ax >= s->rank) FAIL(bad(c, op, "axis %lld out of bounds for operand rank %d", (long long)ax, s->rank));
    if (!same_shape(s, s0)) FAIL(bad(c, op, "requires the same shape for all operands ('%s' vs '%s')", tstr(c, s), tstr(c, s0)));
    if (scan) {
      if (r != s) FAIL(bad(c, op, "result #%d type '%s' must match operand type '%s'", i, tstr(c, r), tstr(c, s)));
      continue;
    }
    bool ok;
    if (s->rank == 1) {
      ok = r == s->elem;
    } else {
      ok = is_tensor(r) && r->elem == s->elem && r->rank == s->rank - 1;
      for (int d = 0, j = 0; ok && d < s->rank; d++) {
        if (d == ax) continue;
        if (r->shape[j++] != s->shape[d]) ok = false;
      }
    }
    if (!ok)
      FAIL(bad(c, op, "result #%d type '%s' must be operand '%s' reduced along axis %lld%s", i, tstr(c, r), tstr(c, s),
               (long long)ax, s->rank == 1 ? " (a scalar)" : ""));
  }
  if (op->nregions != 1 || op->regions[0].nblocks != 1)
    FAIL(bad(c, op, "requires one region with one block (the combine function)"));
  const ir_block *b = op->regions[0].blocks[0];
  int n = op->nopnds;
  if (b->nargs != 2 * n)
    FAIL(bad(c, op, "nested block must take %d arguments, but given block with %d arguments", 2 * n, b->nargs));
  for (int i = 0; i < 2 * n; i++)
    if (b->args[i].type != elem(otype(op, i % n)))
      FAIL(bad(c, op, "type mismatch on combine operation. Expected argument %d to have type '%s' but got '%s'", i,
               tstr(c, elem(otype(op, i % n))), tstr(c, b->args[i].type)));
fail:
  return st;
}

/* tt.reduce.return / tt.scan.return / tt.map_elementwise.return against their parent */
static ttref_status check_region_return(vctx *c, const ir_op *op)
{
  ttref_status st = TTREF_OK;
  const ir_op *p = parent_op(op, NULL);
  if (!p) FAIL(bad(c, op, "must be inside its region op, not directly in a function"));
  if (p->code == IR_OP_MAP_ELEMENTWISE) {
    int pack = (int)ir_op_attr_int(p, "pack", 1);
    if (op->nopnds != p->nres * pack)
      FAIL(bad(c, op, "region return does not match map_elementwise result: expected %d values, got %d", p->nres * pack, op->nopnds));
    for (int i = 0; i < op->nopnds; i++)
      if (otype(op, i) != elem(rtype(p, i / pack)))
        FAIL(bad(c, op, "region return does not match map_elementwise result: value #%d is '%s', expected '%s'", i,
                 tstr(c, otype(op, i)), tstr(c, elem(rtype(p, i / pack)))));
  } else {
    if (op->nopnds != p->nopnds)
      FAIL(bad(c, op, "expected combine operation to return %d values but got %d", p->nopnds, op->nopnds));
    for (int i = 0; i < op->nopnds; i++)
      if (otype(op, i) != elem(otype(p, i)))
        FAIL(bad(c, op, "type mismatch on combine operation. Expected result %d to have type '%s' but got '%s'", i,
                 tstr(c, elem(otype(p, i))), tstr(c, otype(op, i))));
  }
fail:
  return st;
}

static ttref_status check_map_elementwise(vctx *c, const ir_op *op)
{
  ttref_status st = TTREF_OK;
  if (op->nopnds < 1) FAIL(bad(c, op, "must have at least 1 operand"));
  TRY(check_same_shape_all(c, op));
  int64_t pack = ir_op_attr_int(op, "pack", 1);
  if (pack < 1 || !is_pow2(pack) || pack > 1024) FAIL(bad(c, op, "pack must be a power of 2 in [1, 1024], but got %lld", (long long)pack));
  if (op->nregions != 1 || op->regions[0].nblocks < 1) FAIL(bad(c, op, "requires one non-empty region"));
  const ir_block *b = op->regions[0].blocks[0];
  if (b->nargs != op->nopnds * pack)
    FAIL(bad(c, op, "region has wrong number of arguments: expected %lld, got %d", (long long)(op->nopnds * pack), b->nargs));
  for (int i = 0; i < b->nargs; i++)
    if (b->args[i].type != elem(otype(op, (int)(i / pack))))
      FAIL(bad(c, op, "argument types did not match: argument #%d is '%s', expected '%s'", i, tstr(c, b->args[i].type),
               tstr(c, elem(otype(op, (int)(i / pack))))));
fail:
  return st;
}

static ttref_status check_scf_for(vctx *c, const ir_op *op)
{
  ttref_status st = TTREF_OK;
  if (op->nopnds < 3) FAIL(bad(c, op, "expected at least 3 operands (lb, ub, step), but found %d", op->nopnds));
  const ir_type *t = otype(op, 0);
  if (t->kind != IR_T_SCALAR || !is_int_scalar(t) || otype(op, 1) != t || otype(op, 2) != t)
    FAIL(bad(c, op, "lower bound, upper bound and step must have the same integer type ('%s', '%s', '%s')", tstr(c, t),
             tstr(c, otype(op, 1)), tstr(c, otype(op, 2))));
  const ir_op *sd = op->opnds[2]->def;
  if (sd && sd->code == IR_OP_CONSTANT) {
    const ir_attr *v = ir_op_attr(sd, "value");
    if (v && v->kind == IR_A_INT && v->i <= 0) FAIL(bad(c, op, "constant step operand must be positive"));
  }
  int n = op->nopnds - 3;
  if (op->nres != n) FAIL(bad(c, op, "mismatch in number of loop-carried values (%d) and defined values (%d)", n, op->nres));
  for (int i = 0; i < n; i++)
    if (otype(op, 3 + i) != rtype(op, i))
      FAIL(bad(c, op, "type mismatch between init value #%d ('%s') and result #%d ('%s')", i, tstr(c, otype(op, 3 + i)), i,
               tstr(c, rtype(op, i))));
  if (op->nregions != 1 || op->regions[0].nblocks != 1) FAIL(bad(c, op, "requires one region with one block"));
  const ir_block *b = op->regions[0].blocks[0];
  if (b->nargs != 1 + n)
    FAIL(bad(c, op, "region must take the induction variable and %d iter_args, but takes %d arguments", n, b->nargs));
  if (b->args[0].type != t)
    FAIL(bad(c, op, "expected induction variable to be same type as bounds and step ('%s' vs '%s')", tstr(c, b->args[0].type),
             tstr(c, t)));
  for (int i = 0; i < n; i++)
    if (b->args[1 + i].type != rtype(op, i))
      FAIL(bad(c, op, "types mismatch between iter_arg #%d ('%s') and result #%d ('%s')", i, tstr(c, b->args[1 + i].type), i,
               tstr(c, rtype(op, i))));
fail:
  return st;
}

static ttref_status check_scf_if(vctx *c, const ir_op *op)
{
  ttref_status st = TTREF_OK;
  if (!is_scalar_of(otype(op, 0), IR_S_I1))
    FAIL(bad(c, op, "condition must be i1, but got '%s'", tstr(c, otype(op, 0))));
  if (op->nregions < 1 || op->nregions > 2 || op->regions[0].nblocks != 1)
    FAIL(bad(c, op, "requires a 'then' region with one block and an optional 'else' region"));
  bool has_else = op->nregions == 2 && op->regions[1].nblocks > 0;
  if (op->nregions == 2 && op->regions[1].nblocks > 1) FAIL(bad(c, op, "'else' region must have at most one block"));
  if (op->nres > 0 && !has_else) FAIL(bad(c, op, "must have an else block if defining values"));
  for (int r = 0; r < op->nregions; r++)
    if (op->regions[r].nblocks == 1 && op->regions[r].blocks[0]->nargs != 0)
      FAIL(bad(c, op, "region #%d must not take block arguments", r));
fail:
  return st;
}

static ttref_status check_scf_while(vctx *c, const ir_op *op)
{
  ttref_status st = TTREF_OK;
  if (op->nregions != 2 || op->regions[0].nblocks != 1 || op->regions[1].nblocks != 1)
    FAIL(bad(c, op, "requires a 'before' and an 'after' region with one block each"));
  const ir_block *b = op->regions[0].blocks[0], *a = op->regions[1].blocks[0];
  if (b->nargs != op->nopnds)
    FAIL(bad(c, op, "'before' region takes %d arguments, but the op has %d init values", b->nargs, op->nopnds));
  for (int i = 0; i < b->nargs; i++)
    if (b->args[i].type != otype(op, i))
      FAIL(bad(c, op, "'before' region argument #%d is '%s', but init value #%d is '%s'", i, tstr(c, b->args[i].type), i,
               tstr(c, otype(op, i))));
  if (a->nargs != op->nres)
    FAIL(bad(c, op, "'after' region takes %d arguments, but the op has %d results", a->nargs, op->nres));
  for (int i = 0; i < a->nargs; i++)
    if (a->args[i].type != rtype(op, i))
      FAIL(bad(c, op, "'after' region argument #%d is '%s', but result #%d is '%s'", i, tstr(c, a->args[i].type), i,
               tstr(c, rtype(op, i))));
fail:
  return st;
}

/* operands [from, ...) of op have exactly the n types of want (a type array via accessor) */
static ttref_status yield_types(vctx *c, const ir_op *op, int from, const ir_op *p, bool want_results, const char *what)
{
  ttref_status st = TTREF_OK;
  int n = want_results ? p->nres : p->nopnds;
  int got = op->nopnds - from;
  if (got != n) FAIL(bad(c, op, "%s: expected %d values, but got %d", what, n, got));
  for (int i = 0; i < n; i++) {
    const ir_type *w = want_results ? rtype(p, i) : otype(p, i);
    if (otype(op, from + i) != w)
      FAIL(bad(c, op, "%s: value #%d is '%s', but '%s' is expected", what, i, tstr(c, otype(op, from + i)), tstr(c, w)));
  }
fail:
  return st;
}

static ttref_status check_scf_yield(vctx *c, const ir_op *op)
{
  ttref_status st = TTREF_OK;
  int ridx;
  const ir_op *p = parent_op(op, &ridx);
  if (!p || !(p->code == IR_OP_SCF_FOR || p->code == IR_OP_SCF_IF || (p->code == IR_OP_SCF_WHILE && ridx == 1)))
    FAIL(bad(c, op, "expects parent op to be one of 'scf.for, scf.if, scf.while (after region)'"));
  if (p->code == IR_OP_SCF_WHILE) TRY(yield_types(c, op, 0, p, false, "must yield the types of the scf.while init values"));
  else if (p->code == IR_OP_SCF_FOR)
    TRY(yield_types(c, op, 0, p, true, "must yield the types of the scf.for results"));
  else
    TRY(yield_types(c, op, 0, p, true, "must yield the types of the scf.if results"));
fail:
  return st;
}

static ttref_status check_scf_condition(vctx *c, const ir_op *op)
{
  ttref_status st = TTREF_OK;
  int ridx;
  const ir_op *p = parent_op(op, &ridx);
  if (!p || p->code != IR_OP_SCF_WHILE || ridx != 0) FAIL(bad(c, op, "expects parent op 'scf.while' (before region)"));
  if (op->nopnds < 1 || !is_scalar_of(otype(op, 0), IR_S_I1))
    FAIL(bad(c, op, "first operand must be an i1 condition"));
  TRY(yield_types(c, op, 1, p, true, "must forward the types of the scf.while results"));
fail:
  return st;
}

static ttref_status check_return(vctx *c, const ir_op *op)
{
  ttref_status st = TTREF_OK;
  const ir_func *f = c->fn;
  if (parent_op(op, NULL)) FAIL(bad(c, op, "expects parent op 'tt.func'"));
  if (op->nopnds != f->nres)
    FAIL(bad(c, op, "has %d operands, but enclosing function (@%s) returns %d", op->nopnds, f->name, f->nres));
  for (int i = 0; i < f->nres; i++)
    if (otype(op, i) != f->res_types[i])
      FAIL(bad(c, op, "type of return operand %d ('%s') doesn't match function result type ('%s') in function @%s", i,
               tstr(c, otype(op, i)), tstr(c, f->res_types[i]), f->name));
fail:
  return st;
}

static ttref_status check_call(vctx *c, const ir_op *op)
{
  ttref_status st = TTREF_OK;
  const ir_func *f = op->callee_fn;
  if (!f) FAIL(bad(c, op, "'@%s' does not reference a valid function", op->callee ? op->callee : "?"));
  if (f->nargs != op->nopnds) FAIL(bad(c, op, "incorrect number of operands for callee @%s (%d vs %d)", f->name, op->nopnds, f->nargs));
  for (int i = 0; i < f->nargs; i++)
    if (otype(op, i) != f->args[i].type)
      FAIL(bad(c, op, "operand type mismatch: expected operand type '%s', but provided '%s' for operand number %d",
               tstr(c, f->args[i].type), tstr(c, otype(op, i)), i));
  if (f->nres != op->nres) FAIL(bad(c, op, "incorrect number of results for callee @%s (%d vs %d)", f->name, op->nres, f->nres));
  for (int i = 0; i < f->nres; i++)
    if (rtype(op, i) != f->res_types[i])
      FAIL(bad(c, op, "result type mismatch at index %d: '%s' vs the callee's '%s'", i, tstr(c, rtype(op, i)),
               tstr(c, f->res_types[i])));
fail:
  return st;
}

/* cf.br / cf.cond_br: successors in the same region, not the entry block, matching block args */
static ttref_status check_branch(vctx *c, const ir_op *op, int nsucc, int base)
{
  ttref_status st = TTREF_OK;
  if (op->nsuccs != nsucc) FAIL(bad(c, op, "expected %d successors, but found %d", nsucc, op->nsuccs));
  int total = 0;
  for (int s = 0; s < nsucc; s++) total += op->succs[s].nargs;
  if (op->nopnds != base && op->nopnds != base + total)
    FAIL(bad(c, op, "expected %d operands, but found %d", base, op->nopnds));
  if (base == 1 && !is_scalar_of(otype(op, 0), IR_S_I1))
    FAIL(bad(c, op, "condition must be i1, but got '%s'", tstr(c, otype(op, 0))));
  const ir_region *r = op->parent ? op->parent->parent : NULL;
  for (int s = 0; s < nsucc; s++) {
    const ir_succ *sc = &op->succs[s];
    if (!sc->block || sc->block->parent != r)
      FAIL(bad(c, op, "successor #%d must be a block of the same region", s));
    if (r && r->nblocks > 0 && sc->block == r->blocks[0])
      FAIL(bad(c, op, "successor #%d is the entry block of the region, which may not have predecessors", s));
    if (sc->nargs != sc->block->nargs)
      FAIL(bad(c, op, "branch has %d operands for successor #%d, but target block has %d", sc->nargs, s, sc->block->nargs));
    for (int i = 0; i < sc->nargs; i++) {
      if (!sc->args[i] || !sc->args[i]->type) FAIL(internal(c, op, "NULL successor operand"));
      if (sc->args[i]->type != sc->block->args[i].type)
        FAIL(bad(c, op, "type mismatch for bb argument #%d of successor #%d ('%s' vs '%s')", i, s,
                 tstr(c, sc->args[i]->type), tstr(c, sc->block->args[i].type)));
    }
  }
fail:
  return st;
}

static ttref_status check_extern(vctx *c, const ir_op *op)
{
  ttref_status st = TTREF_OK;
  TRY(check_same_shape_all(c, op));
  const ir_attr *s = ir_op_attr(op, "symbol");
  if (!s || s->kind != IR_A_STRING) FAIL(bad(c, op, "requires a string attribute 'symbol'"));
fail:
  return st;
}

/* A vendor op: int/float operands and result, its arity, elementwise shapes, then its own rule
 * (default: one type for all), whose result type must be the declared one. */
static void type_info(const ir_type *t, ttref_type_info *o)
{
  memset(o, 0, sizeof *o);
  o->dtype = ir_scalar_name(ir_type_elem(t)->scalar);
  o->rank = t->kind == IR_T_TENSOR ? t->rank : 0;
  for (int d = 0; d < o->rank; d++) o->shape[d] = t->shape[d];
}

static ttref_status check_vendor(vctx *c, const ir_op *op)
{
  ttref_status st = TTREF_OK;
  const ttref_op_def *d = op->vdef;
  ttref_type_info in[IR_VENDOR_MAX_OPNDS], out;
  char msg[200] = "";
  if (!d) FAIL(internal(c, op, "vendor op without a definition"));
  if (d->nopnds >= 0 && op->nopnds != d->nopnds)
    FAIL(bad(c, op, "expected %d operand%s, but found %d", d->nopnds, d->nopnds == 1 ? "" : "s", op->nopnds));
  if (op->nopnds < (d->nopnds < 0) || op->nopnds > IR_VENDOR_MAX_OPNDS)
    FAIL(bad(c, op, "expected 1 to %d operands, but found %d", IR_VENDOR_MAX_OPNDS, op->nopnds));
  for (int i = 0; i <= op->nopnds; i++) {
    const ir_type *t = i < op->nopnds ? otype(op, i) : rtype(op, 0);
    const ir_type *e = ir_type_elem(t);
    if ((t->kind != IR_T_SCALAR && t->kind != IR_T_TENSOR) || e->kind != IR_T_SCALAR ||
        !(ir_scalar_is_int(e->scalar) || ir_scalar_is_float(e->scalar)))
      FAIL(bad(c, op, "vendor ops take and give ints, floats and tensors of them, but %s #%d is '%s'",
               i < op->nopnds ? "operand" : "result", i < op->nopnds ? i : 0, tstr(c, t)));
  }
  if (d->elementwise) TRY(check_same_shape_all(c, op));
  if (!d->verify) {
    for (int i = 0; i < op->nopnds; i++)
      if (otype(op, i) != rtype(op, 0))
        FAIL(bad(c, op, "requires the same type for all operands and results (operand #%d is '%s', result is '%s')", i,
                 tstr(c, otype(op, i)), tstr(c, rtype(op, 0))));
    goto fail;
  }
  for (int i = 0; i < op->nopnds; i++) type_info(otype(op, i), &in[i]);
  memset(&out, 0, sizeof out);
  if (d->verify(d->ud, (const ttref_op_attrs *)op, op->nopnds, in, &out, msg, sizeof msg) != 0) {
    msg[sizeof msg - 1] = 0;
    FAIL(bad(c, op, "%s", msg[0] ? msg : "rejected by its verifier"));
  }
  ttref_type_info want;
  type_info(rtype(op, 0), &want);
  bool same = out.dtype && strcmp(out.dtype, want.dtype) == 0 && out.rank == want.rank;
  for (int k = 0; same && k < want.rank; k++) same = out.shape[k] == want.shape[k];
  if (!same) {
    char ob[160];
    int n = snprintf(ob, sizeof ob, "%s", out.rank > 0 ? "tensor<" : "");
    for (int k = 0; k < out.rank && k < 8 && n < 100; k++) n += snprintf(ob + n, sizeof ob - (size_t)n, "%lldx", (long long)out.shape[k]);
    snprintf(ob + n, sizeof ob - (size_t)n, "%.20s%s", out.dtype ? out.dtype : "?", out.rank > 0 ? ">" : "");
    FAIL(bad(c, op, "result type '%s' does not match the type its operands give, '%s'", tstr(c, rtype(op, 0)), ob));
  }
fail:
  return st;
}

static ttref_status check_assert(vctx *c, const ir_op *op)
{
  return elem_is(otype(op, 0), IR_S_I1)
             ? TTREF_OK
             : bad(c, op, "condition must be i1 or a tensor of i1, but got '%s'", tstr(c, otype(op, 0)));
}

/* ---- dispatch ------------------------------------------------------------------------ */
#define OP_CASE(name) case IR_OP_##name:
#define OP_BREAK break

/* One case per row of ir_op_list.h; -Wswitch-enum makes a missing row a build error. */
#pragma GCC diagnostic push
#pragma GCC diagnostic error "-Wswitch-enum"
static ttref_status check_op(vctx *c, const ir_op *op)
{
  ttref_status st = TTREF_OK;
  switch (op->code) {
  OP_CASE(GET_PROGRAM_ID)
  OP_CASE(GET_NUM_PROGRAMS)
    st = check_program_id(c, op);
    OP_BREAK;
  OP_CASE(MAKE_RANGE)
    st = check_make_range(c, op);
    OP_BREAK;
  OP_CASE(CONSTANT)
    st = check_constant(c, op);
    OP_BREAK;
  OP_CASE(POISON)
    OP_BREAK; /* any type */
  OP_CASE(SPLAT)
    st = check_splat(c, op);
    OP_BREAK;
  OP_CASE(UNSPLAT)
    st = check_unsplat(c, op);
    OP_BREAK;
  OP_CASE(BROADCAST)
    st = check_broadcast(c, op);
    OP_BREAK;
  OP_CASE(EXPAND_DIMS)
    st = check_expand_dims(c, op);
    OP_BREAK;
  OP_CASE(RESHAPE)
    st = check_reshape(c, op);
    OP_BREAK;
  OP_CASE(TRANS)
    st = check_trans(c, op);
    OP_BREAK;
  OP_CASE(CAT)
    st = check_cat(c, op);
    OP_BREAK;
  OP_CASE(JOIN)
    st = check_join(c, op);
    OP_BREAK;
  OP_CASE(SPLIT)
    st = check_split(c, op);
    OP_BREAK;
  OP_CASE(GATHER)
    st = check_gather(c, op);
    OP_BREAK;
  OP_CASE(HISTOGRAM)
    st = check_histogram(c, op);
    OP_BREAK;
  OP_CASE(ADDPTR)
    st = check_addptr(c, op);
    OP_BREAK;
  OP_CASE(INT_TO_PTR)
    st = check_int_ptr(c, op, true);
    OP_BREAK;
  OP_CASE(PTR_TO_INT)
    st = check_int_ptr(c, op, false);
    OP_BREAK;
  OP_CASE(TT_BITCAST)
    st = check_tt_bitcast(c, op);
    OP_BREAK;
  OP_CASE(FP_TO_FP)
    st = check_fp_to_fp(c, op);
    OP_BREAK;
  OP_CASE(LOAD)
    st = check_load(c, op);
    OP_BREAK;
  OP_CASE(STORE)
    st = check_store(c, op);
    OP_BREAK;
  OP_CASE(MAKE_TENSOR_PTR)
    st = check_make_tensor_ptr(c, op);
    OP_BREAK;
  OP_CASE(ADVANCE)
    st = check_advance(c, op);
    OP_BREAK;
  OP_CASE(ATOMIC_RMW)
    st = check_atomic_rmw(c, op);
    OP_BREAK;
  OP_CASE(ATOMIC_CAS)
    st = check_atomic_cas(c, op);
    OP_BREAK;
  OP_CASE(MAKE_TENSOR_DESC)
    st = check_make_desc(c, op);
    OP_BREAK;
  OP_CASE(DESC_LOAD)
  OP_CASE(XDESC_LOAD)
    st = check_desc_access(c, op, false);
    OP_BREAK;
  OP_CASE(DESC_STORE)
  OP_CASE(DESC_REDUCE)
  OP_CASE(XDESC_STORE)
    st = check_desc_access(c, op, true);
    OP_BREAK;
  OP_CASE(DESC_GATHER)
  OP_CASE(XDESC_GATHER)
    st = check_desc_gather(c, op, false);
    OP_BREAK;
  OP_CASE(DESC_SCATTER)
  OP_CASE(XDESC_SCATTER)
    st = check_desc_gather(c, op, true);
    OP_BREAK;
  OP_CASE(REINTERPRET_DESC)
  OP_CASE(INLINE_ASM)
    OP_BREAK; /* IR_F_UNSUPPORTED: the interpreter refuses them, not the verifier */
  OP_CASE(DOT)
    st = check_dot(c, op);
    OP_BREAK;
  OP_CASE(DOT_SCALED)
    st = check_dot_scaled(c, op);
    OP_BREAK;
  OP_CASE(REDUCE)
    st = check_reduce_scan(c, op, false);
    OP_BREAK;
  OP_CASE(SCAN)
    st = check_reduce_scan(c, op, true);
    OP_BREAK;
  OP_CASE(REDUCE_RETURN)
  OP_CASE(SCAN_RETURN)
  OP_CASE(MAP_ELEM_RETURN)
    st = check_region_return(c, op);
    OP_BREAK;
  OP_CASE(MAP_ELEMENTWISE)
    st = check_map_elementwise(c, op);
    OP_BREAK;
  OP_CASE(EXTERN_ELEMENTWISE)
    st = check_extern(c, op);
    OP_BREAK;
  OP_CASE(VENDOR)
    st = check_vendor(c, op);
    OP_BREAK;
  OP_CASE(CLAMPF)
  OP_CASE(PRECISE_SQRT)
  OP_CASE(PRECISE_DIVF)
    st = check_same_type(c, op, C_FLOAT);
    OP_BREAK;
  OP_CASE(MULHIUI)
    st = check_same_type(c, op, C_INT);
    OP_BREAK;
  OP_CASE(PRINT)
    OP_BREAK; /* any operands */
  OP_CASE(ASSERT)
    st = check_assert(c, op);
    OP_BREAK;
  OP_CASE(ASSUME)
    st = want_scalar(c, op, 0, IR_S_I1, "condition");
    OP_BREAK;
  OP_CASE(GPU_BARRIER)
  OP_CASE(TTG_BARRIER)
    OP_BREAK;
  OP_CASE(CALL)
    st = check_call(c, op);
    OP_BREAK;
  OP_CASE(RETURN)
    st = check_return(c, op);
    OP_BREAK;
  OP_CASE(ADDI)
  OP_CASE(SUBI)
  OP_CASE(MULI)
  OP_CASE(DIVSI)
  OP_CASE(DIVUI)
  OP_CASE(CEILDIVSI)
  OP_CASE(CEILDIVUI)
  OP_CASE(FLOORDIVSI)
  OP_CASE(REMSI)
  OP_CASE(REMUI)
  OP_CASE(ANDI)
  OP_CASE(ORI)
  OP_CASE(XORI)
  OP_CASE(SHLI)
  OP_CASE(SHRSI)
  OP_CASE(SHRUI)
  OP_CASE(MINSI)
  OP_CASE(MINUI)
  OP_CASE(MAXSI)
  OP_CASE(MAXUI)
  OP_CASE(MATH_ABSI)
  OP_CASE(MATH_CTPOP)
  OP_CASE(MATH_CTLZ)
  OP_CASE(MATH_CTTZ)
    st = check_same_type(c, op, C_INT);
    OP_BREAK;
  OP_CASE(CMPI)
    st = check_cmp(c, op, C_INT, 10);
    OP_BREAK;
  OP_CASE(CMPF)
    st = check_cmp(c, op, C_FLOAT, 16);
    OP_BREAK;
  OP_CASE(SELECT) {
    const ir_type *cd = otype(op, 0), *r = rtype(op, 0);
    if (otype(op, 1) != r || otype(op, 2) != r)
      st = bad(c, op, "true value '%s', false value '%s' and result '%s' must have the same type", tstr(c, otype(op, 1)),
               tstr(c, otype(op, 2)), tstr(c, r));
    else if (!elem_is(cd, IR_S_I1) || (is_tensor(cd) && !same_shape(cd, r)))
      st = bad(c, op, "condition '%s' must be i1, or a tensor of i1 with the shape of the result '%s'", tstr(c, cd), tstr(c, r));
    OP_BREAK;
  }
  OP_CASE(EXTSI)
  OP_CASE(EXTUI)
    st = check_cast(c, op, C_INT, C_INT, W_WIDER);
    OP_BREAK;
  OP_CASE(TRUNCI)
    st = check_cast(c, op, C_INT, C_INT, W_NARROWER);
    OP_BREAK;
  OP_CASE(INDEX_CAST)
    st = check_cast(c, op, C_INT, C_INT, W_ANY);
    OP_BREAK;
  OP_CASE(ADDF)
  OP_CASE(SUBF)
  OP_CASE(MULF)
  OP_CASE(DIVF)
  OP_CASE(REMF)
  OP_CASE(NEGF)
  OP_CASE(MAXNUMF)
  OP_CASE(MINNUMF)
  OP_CASE(MAXIMUMF)
  OP_CASE(MINIMUMF)
  OP_CASE(MATH_EXP)
  OP_CASE(MATH_EXP2)
  OP_CASE(MATH_LOG)
  OP_CASE(MATH_LOG2)
  OP_CASE(MATH_SIN)
  OP_CASE(MATH_COS)
  OP_CASE(MATH_SQRT)
  OP_CASE(MATH_RSQRT)
  OP_CASE(MATH_ERF)
  OP_CASE(MATH_FLOOR)
  OP_CASE(MATH_CEIL)
  OP_CASE(MATH_ABSF)
  OP_CASE(MATH_FMA)
  OP_CASE(MATH_TANH)
  OP_CASE(MATH_TRUNC)
  OP_CASE(MATH_ROUND)
  OP_CASE(MATH_ROUNDEVEN)
  OP_CASE(MATH_LOG1P)
  OP_CASE(MATH_EXPM1)
  OP_CASE(MATH_POWF)
    st = check_same_type(c, op, C_FLOAT);
    OP_BREAK;
  OP_CASE(EXTF)
    st = check_cast(c, op, C_FLOAT, C_FLOAT, W_WIDER);
    OP_BREAK;
  OP_CASE(TRUNCF)
    st = check_cast(c, op, C_FLOAT, C_FLOAT, W_NARROWER);
    OP_BREAK;
  OP_CASE(SITOFP)
  OP_CASE(UITOFP)
    st = check_cast(c, op, C_INT, C_FLOAT, W_ANY);
    OP_BREAK;
  OP_CASE(FPTOSI)
  OP_CASE(FPTOUI)
    st = check_cast(c, op, C_FLOAT, C_INT, W_ANY);
    OP_BREAK;
  OP_CASE(BITCAST)
    st = check_cast(c, op, C_ANY, C_ANY, W_SAME);
    if (st == TTREF_OK && (elem_ptr(otype(op, 0)) || elem_ptr(rtype(op, 0)) || elem(otype(op, 0))->kind != IR_T_SCALAR ||
                           elem(rtype(op, 0))->kind != IR_T_SCALAR))
      st = bad(c, op, "operand and result must be integers or floats (use tt.bitcast for pointers)");
    OP_BREAK;
  OP_CASE(SCF_FOR)
    st = check_scf_for(c, op);
    OP_BREAK;
  OP_CASE(SCF_IF)
    st = check_scf_if(c, op);
    OP_BREAK;
  OP_CASE(SCF_WHILE)
    st = check_scf_while(c, op);
    OP_BREAK;
  OP_CASE(SCF_CONDITION)
    st = check_scf_condition(c, op);
    OP_BREAK;
  OP_CASE(SCF_YIELD)
    st = check_scf_yield(c, op);
    OP_BREAK;
  OP_CASE(CF_BR)
    st = check_branch(c, op, 1, 0);
    OP_BREAK;
  OP_CASE(CF_COND_BR)
    st = check_branch(c, op, 2, 1);
    OP_BREAK;
  case IR_OP_COUNT:
  default:
    st = internal(c, op, "unknown opcode");
    OP_BREAK;
  }
  return st;
}
#pragma GCC diagnostic pop

/* ---- rules shared by all ops ----------------------------------------------------------------- */
static ttref_status check_size(vctx *c, const ir_op *op, const ir_type *t, bool pow2, const char *what, int i)
{
  ttref_status st = TTREF_OK;
  if (!is_tensor(t)) goto fail;
  if (t->numel > MAX_NUMEL)
    FAIL(bad(c, op, "%s #%d '%s' has %lld elements, more than the limit of %lld", what, i, tstr(c, t), (long long)t->numel,
             (long long)MAX_NUMEL));
  if (pow2 && !is_pow2(t->numel))
    FAIL(bad(c, op, "number of elements must be power-of-two, but %s #%d '%s' has %lld", what, i, tstr(c, t),
             (long long)t->numel));
fail:
  return st;
}

static ttref_status check_common(vctx *c, const ir_op *op)
{
  ttref_status st = TTREF_OK;
  if ((int)op->code < 0 || op->code >= IR_OP_COUNT) FAIL(internal(c, op, "unknown opcode"));
  for (int i = 0; i < op->nopnds; i++)
    if (!op->opnds || !op->opnds[i] || !op->opnds[i]->type) FAIL(internal(c, op, "NULL operand or operand type"));
  for (int i = 0; i < op->nres; i++)
    if (!op->res || !op->res[i].type) FAIL(internal(c, op, "NULL result type"));
  int no = ir_op_nopnds(op->code), nr = ir_op_nresults(op->code);
  unsigned fl = ir_op_flags(op->code);
  if (no >= 0 && op->nopnds != no && !(fl & IR_F_UNSUPPORTED))
    FAIL(bad(c, op, "expected %d operand%s, but found %d", no, no == 1 ? "" : "s", op->nopnds));
  if (nr >= 0 && op->nres != nr && !(fl & IR_F_UNSUPPORTED))
    FAIL(bad(c, op, "expected %d result%s, but found %d", nr, nr == 1 ? "" : "s", op->nres));
  if (!(fl & IR_F_REGION) && op->nregions != 0 && !(fl & IR_F_UNSUPPORTED)) FAIL(bad(c, op, "requires zero regions"));
  if (op->code != IR_OP_CF_BR && op->code != IR_OP_CF_COND_BR && op->nsuccs != 0)
    FAIL(bad(c, op, "requires zero successors"));
  bool pow2 = strncmp(ir_op_name(op->code), "tt.", 3) == 0; /* Triton's TensorSizeTrait is on tt.* ops only */
  for (int i = 0; i < op->nopnds; i++) TRY(check_size(c, op, otype(op, i), pow2, "operand", i));
  for (int i = 0; i < op->nres; i++) TRY(check_size(c, op, rtype(op, i), pow2, "result", i));
fail:
  return st;
}

/* ---- scopes for dominance --------------------------------------------------------------------- */
static const ir_func *value_func(const ir_value *v)
{
  const ir_block *b = v->def ? v->def->parent : v->block;
  return (b && b->parent) ? b->parent->func : NULL;
}

static ttref_status mark(vctx *c, const ir_value *v)
{
  ttref_status st = TTREF_OK;
  if (v->id >= c->nseen) goto fail; /* reported at its uses */
  if (c->seen[v->id]) /* two values in scope share an interpreter slot */
    FAIL(ir_error_set(c->err, TTREF_E_INTERNAL, (ttref_loc){0}, "malformed IR: value id %u of '%%%s' is not unique",
                      (unsigned)v->id, v->name ? v->name : "?"));
  if (c->nundo == c->capundo) {
    size_t cap = c->capundo ? 2 * c->capundo : 256;
    uint32_t *u = ir_realloc(c->undo, c->capundo * sizeof *u, cap * sizeof *u);
    if (!u) FAIL(ir_error_set(c->err, TTREF_E_NOMEM, (ttref_loc){0}, "out of memory in the verifier"));
    c->undo = u;
    c->capundo = cap;
  }
  c->seen[v->id] = 1;
  c->undo[c->nundo++] = v->id;
fail:
  return st;
}

static void unmark_to(vctx *c, size_t level)
{
  while (c->nundo > level) c->seen[c->undo[--c->nundo]] = 0;
}

static ttref_status check_use(vctx *c, const ir_op *op, const ir_value *v, const char *what, int i)
{
  ttref_status st = TTREF_OK;
  const ir_func *vf = value_func(v);
  if (vf && vf != c->fn) /* tt.func is IsolatedFromAbove */
    FAIL(bad(c, op, "%s #%d ('%%%s') is defined in another function", what, i, v->name ? v->name : "?"));
  if (v->id >= c->nseen) FAIL(internal(c, op, "value id out of range"));
  if (c->nodom == 0 && !c->seen[v->id])
    FAIL(bad(c, op, "%s #%d ('%%%s') does not dominate this use", what, i, v->name ? v->name : "?"));
fail:
  return st;
}

/* ---- walk ------------------------------------------------------------------------------------------ */
static ttref_status verify_region(vctx *c, const ir_region *r);

/* The terminators allowed at the end of a block of region ridx of p (p NULL: function body). */
static bool terminator_ok(const ir_op *p, int ridx, ir_opcode t)
{
  if (!p) return t == IR_OP_RETURN || t == IR_OP_CF_BR || t == IR_OP_CF_COND_BR;
  switch (p->code) {
  case IR_OP_SCF_FOR:
  case IR_OP_SCF_IF:
    return t == IR_OP_SCF_YIELD;
  case IR_OP_SCF_WHILE:
    return t == (ridx == 0 ? IR_OP_SCF_CONDITION : IR_OP_SCF_YIELD);
  case IR_OP_REDUCE:
    return t == IR_OP_REDUCE_RETURN;
  case IR_OP_SCAN:
    return t == IR_OP_SCAN_RETURN;
  case IR_OP_MAP_ELEMENTWISE:
    return t == IR_OP_MAP_ELEM_RETURN || t == IR_OP_CF_BR || t == IR_OP_CF_COND_BR;
  default:
    return false;
  }
}

static const char *terminator_names(const ir_op *p, int ridx)
{
  if (!p) return "'tt.return', 'cf.br' or 'cf.cond_br'";
  switch (p->code) {
  case IR_OP_SCF_FOR:
  case IR_OP_SCF_IF:
    return "'scf.yield'";
  case IR_OP_SCF_WHILE:
    return ridx == 0 ? "'scf.condition'" : "'scf.yield'";
  case IR_OP_REDUCE:
    return "'tt.reduce.return'";
  case IR_OP_SCAN:
    return "'tt.scan.return'";
  case IR_OP_MAP_ELEMENTWISE:
    return "'tt.map_elementwise.return', 'cf.br' or 'cf.cond_br'";
  default:
    return "none";
  }
}

/* Block structure: a terminator ends it (scf.for/scf.if may omit an empty scf.yield), none before. */
static ttref_status check_block(vctx *c, const ir_block *b)
{
  ttref_status st = TTREF_OK;
  const ir_region *r = b->parent;
  int ridx = r ? region_index(r) : 0;
  const ir_op *p = r ? r->parent : NULL;
  for (int i = 0; i < b->nargs; i++)
    if (!b->args[i].type) FAIL(ir_error_set(c->err, TTREF_E_INTERNAL, (ttref_loc){c->m->filename, b->line, b->col},
                                            "malformed IR: block argument without a type"));
  for (int i = 0; i < b->nops; i++)
    if (!b->ops[i]) FAIL(ir_error_set(c->err, TTREF_E_INTERNAL, (ttref_loc){c->m->filename, b->line, b->col},
                                      "malformed IR: NULL op in block"));
  for (int i = 0; i + 1 < b->nops; i++) {
    const ir_op *op = b->ops[i];
    if (ir_op_flags(op->code) & IR_F_TERMINATOR) FAIL(bad(c, op, "must be the last operation in the parent block"));
  }
  const ir_op *last = b->nops ? b->ops[b->nops - 1] : NULL;
  bool implicit = p && (p->code == IR_OP_SCF_FOR || p->code == IR_OP_SCF_IF) && p->nres == 0;
  if (!last || !(ir_op_flags(last->code) & IR_F_TERMINATOR)) {
    if (implicit) goto fail; /* MLIR's implicit empty scf.yield */
    if (!last && p) FAIL(bad(c, p, "region #%d has an empty block: expected at least a terminator (%s)", ridx, terminator_names(p, ridx)));
    if (!last) FAIL(bad_func(c, c->fn, "empty block: expected at least a terminator (%s)", terminator_names(p, ridx)));
    FAIL(bad(c, last, "is not a terminator, but it ends a block (block with no terminator; expected %s)", terminator_names(p, ridx)));
  }
  if (!terminator_ok(p, ridx, last->code))
    FAIL(bad(c, last, "is not a valid terminator %s%s%s (expected %s)", p ? "for '" : "of a function body", p ? ir_op_name(p->code) : "",
             p ? (p->code == IR_OP_SCF_WHILE ? (ridx ? "' after region" : "' before region") : "'") : "",
             terminator_names(p, ridx)));
fail:
  return st;
}

static ttref_status verify_op(vctx *c, const ir_op *op)
{
  ttref_status st = TTREF_OK;
  TRY(check_common(c, op));
  if (!(ir_op_flags(op->code) & IR_F_UNSUPPORTED)) TRY(check_op(c, op));
  for (int i = 0; i < op->nopnds; i++) TRY(check_use(c, op, op->opnds[i], "operand", i));
  for (int s = 0; s < op->nsuccs; s++)
    for (int i = 0; i < op->succs[s].nargs; i++) TRY(check_use(c, op, op->succs[s].args[i], "successor operand", i));
  for (int i = 0; i < op->nregions; i++) TRY(verify_region(c, &op->regions[i]));
  for (int i = 0; i < op->nres; i++) TRY(mark(c, &op->res[i]));
fail:
  return st;
}

static ttref_status verify_block(vctx *c, const ir_block *b)
{
  ttref_status st = TTREF_OK;
  TRY(check_block(c, b));
  for (int i = 0; i < b->nargs; i++) TRY(mark(c, &b->args[i]));
  for (int i = 0; i < b->nops; i++) TRY(verify_op(c, b->ops[i]));
fail:
  return st;
}

typedef struct blk_ix {
  const ir_block *b;
  int i;
} blk_ix;

static int cmp_blk(const void *x, const void *y)
{
  uintptr_t a = (uintptr_t)((const blk_ix *)x)->b, b = (uintptr_t)((const blk_ix *)y)->b;
  return a < b ? -1 : a > b;
}

static int block_index(const blk_ix *ix, int n, const ir_block *b)
{
  blk_ix key = {b, 0};
  const blk_ix *f = bsearch(&key, ix, (size_t)n, sizeof *ix, cmp_blk);
  return f ? f->i : -1;
}

static int nsucc_of(const ir_block *b) { return b->nops ? b->ops[b->nops - 1]->nsuccs : 0; }

static ttref_status oom(vctx *c)
{
  return ir_error_set(c->err, TTREF_E_NOMEM, (ttref_loc){0}, "out of memory in the verifier");
}

/*
 * A region of several blocks: dominators by Cooper, Harvey and Kennedy's
 * iterative algorithm, then a preorder walk of the dominator tree in which a
 * block sees exactly the values of its dominators. Unreachable blocks are
 * verified last, without dominance checks (as MLIR does).
 */
static ttref_status verify_cfg_region(vctx *c, const ir_region *r)
{
  ttref_status st = TTREF_OK;
  int n = r->nblocks;
  size_t szi = (size_t)n * sizeof(int);
  blk_ix *ix = ir_calloc((size_t)n, sizeof *ix);
  int *rpo = ir_alloc(szi), *num = ir_alloc(szi), *idom = ir_alloc(szi), *stk = ir_alloc(szi), *it = ir_alloc(szi);
  int *npred = ir_calloc((size_t)n + 1, sizeof(int)), *preds = NULL, *kids = NULL, *nkid = ir_calloc((size_t)n + 1, sizeof(int));
  size_t *lvl = ir_alloc((size_t)n * sizeof(size_t));
  int npreds = 0, nrpo = 0;
  if (!ix || !rpo || !num || !idom || !stk || !it || !npred || !nkid || !lvl) FAIL(oom(c));
  for (int i = 0; i < n; i++) {
    if (!r->blocks[i]) FAIL(ir_error_set(c->err, TTREF_E_INTERNAL, (ttref_loc){0}, "malformed IR: NULL block"));
    ix[i].b = r->blocks[i];
    ix[i].i = i;
    num[i] = -1;
    idom[i] = -1;
  }
  qsort(ix, (size_t)n, sizeof *ix, cmp_blk);
  /* depth-first postorder from the entry; num[] = postorder number */
  int sp = 0, post = 0;
  stk[sp] = 0, it[sp++] = 0, num[0] = -2;
  while (sp) {
    int b = stk[sp - 1];
    const ir_block *bb = r->blocks[b];
    if (it[sp - 1] < nsucc_of(bb)) {
      const ir_op *t = bb->ops[bb->nops - 1];
      int s = block_index(ix, n, t->succs[it[sp - 1]++].block);
      if (s >= 0 && num[s] == -1) {
        num[s] = -2;
        stk[sp] = s, it[sp++] = 0;
      }
    } else {
      rpo[post] = b;
      num[b] = post++;
      sp--;
    }
  }
  nrpo = post;
  for (int i = 0; i < nrpo / 2; i++) { /* reverse the postorder */
    int t = rpo[i];
    rpo[i] = rpo[nrpo - 1 - i];
    rpo[nrpo - 1 - i] = t;
  }
  /* predecessor lists (CSR) over reachable blocks */
  for (int b = 0; b < n; b++) {
    if (num[b] < 0) continue;
    const ir_block *bb = r->blocks[b];
    for (int k = 0; k < nsucc_of(bb); k++) {
      int s = block_index(ix, n, bb->ops[bb->nops - 1]->succs[k].block);
      if (s >= 0) npred[s + 1]++, npreds++;
    }
  }
  for (int i = 0; i < n; i++) npred[i + 1] += npred[i];
  preds = ir_alloc((size_t)(npreds ? npreds : 1) * sizeof(int));
  if (!preds) FAIL(oom(c));
  for (int i = 0; i < n; i++) it[i] = npred[i];
  for (int b = 0; b < n; b++) {
    if (num[b] < 0) continue;
    const ir_block *bb = r->blocks[b];
    for (int k = 0; k < nsucc_of(bb); k++) {
      int s = block_index(ix, n, bb->ops[bb->nops - 1]->succs[k].block);
      if (s >= 0) preds[it[s]++] = b;
    }
  }
  /* idom by iteration to a fixed point; postorder numbers order the intersection */
  idom[0] = 0;
  for (bool changed = true; changed;) {
    changed = false;
    for (int k = 1; k < nrpo; k++) {
      int b = rpo[k], nd = -1;
      for (int q = npred[b]; q < npred[b + 1]; q++) {
        int p = preds[q];
        if (idom[p] < 0) continue;
        if (nd < 0) {
          nd = p;
          continue;
        }
        int x = p, y = nd;
        while (x != y) {
          while (num[x] < num[y]) x = idom[x];
          while (num[y] < num[x]) y = idom[y];
        }
        nd = x;
      }
      if (nd >= 0 && idom[b] != nd) {
        idom[b] = nd;
        changed = true;
      }
    }
  }
  /* dominator-tree children (CSR, in block order) */
  for (int b = 1; b < n; b++)
    if (num[b] >= 0 && idom[b] >= 0) nkid[idom[b] + 1]++;
  for (int i = 0; i < n; i++) nkid[i + 1] += nkid[i];
  kids = ir_alloc((size_t)n * sizeof(int));
  if (!kids) FAIL(oom(c));
  for (int i = 0; i < n; i++) it[i] = nkid[i];
  for (int b = 1; b < n; b++)
    if (num[b] >= 0 && idom[b] >= 0) kids[it[idom[b]]++] = b;
  /* preorder walk of the dominator tree; lvl[] = undo level when entering the block */
  sp = 0;
  stk[sp] = 0, it[sp++] = nkid[0], lvl[0] = c->nundo;
  TRY(verify_block(c, r->blocks[0]));
  while (sp) {
    int b = stk[sp - 1];
    if (it[sp - 1] < nkid[b + 1]) {
      int k = kids[it[sp - 1]++];
      lvl[sp] = c->nundo;
      stk[sp] = k, it[sp++] = nkid[k];
      TRY(verify_block(c, r->blocks[k]));
    } else {
      unmark_to(c, lvl[--sp]);
    }
  }
  c->nodom++;
  for (int b = 0; b < n && st == TTREF_OK; b++) {
    if (num[b] >= 0) continue;
    size_t l = c->nundo;
    st = verify_block(c, r->blocks[b]);
    unmark_to(c, l);
  }
  c->nodom--;
fail:
  ir_free(kids, (size_t)n * sizeof(int));
  ir_free(preds, (size_t)(npreds ? npreds : 1) * sizeof(int));
  ir_free(lvl, (size_t)n * sizeof(size_t));
  ir_free(nkid, ((size_t)n + 1) * sizeof(int));
  ir_free(npred, ((size_t)n + 1) * sizeof(int));
  ir_free(it, szi);
  ir_free(stk, szi);
  ir_free(idom, szi);
  ir_free(num, szi);
  ir_free(rpo, szi);
  ir_free(ix, (size_t)n * sizeof *ix);
  return st;
}

static ttref_status verify_region(vctx *c, const ir_region *r)
{
  ttref_status st = TTREF_OK;
  size_t level = c->nundo;
  const ir_op *p = r->parent;
  if (r->nblocks > 1 && p && p->code != IR_OP_MAP_ELEMENTWISE)
    FAIL(bad(c, p, "region #%d must have at most one block, but has %d", region_index(r), r->nblocks));
  if (r->nblocks == 1) TRY(verify_block(c, r->blocks[0]));
  else if (r->nblocks > 1)
    TRY(verify_cfg_region(c, r));
fail:
  unmark_to(c, level);
  return st;
}

static ttref_status verify_func(vctx *c, const ir_func *fn)
{
  ttref_status st = TTREF_OK;
  c->fn = fn;
  c->nseen = fn->nvalues;
  c->seen = fn->nvalues ? ir_calloc(fn->nvalues, 1) : NULL;
  if (fn->nvalues && !c->seen) FAIL(oom(c));
  for (int i = 0; i < fn->nres; i++)
    if (!fn->res_types || !fn->res_types[i]) FAIL(bad_func(c, fn, "malformed IR: NULL result type"));
  if (fn->body.nblocks > 0) {
    const ir_block *e = fn->body.blocks[0];
    if (e->nargs != fn->nargs)
      FAIL(bad_func(c, fn, "entry block has %d arguments, but the signature has %d", e->nargs, fn->nargs));
    for (int i = 0; i < fn->nargs; i++)
      if (!fn->args[i].type || e->args[i].type != fn->args[i].type)
        FAIL(bad_func(c, fn, "type of entry block argument #%d does not match the signature", i));
    TRY(verify_region(c, &fn->body));
  }
fail:
  ir_free(c->seen, c->nseen);
  c->seen = NULL;
  c->nseen = 0;
  return st;
}

/* FNV-1a of a NUL-terminated function name */
static uint32_t name_hash(const char *s)
{
  uint32_t h = 2166136261u;
  for (; *s; s++) h = (h ^ (unsigned char)*s) * 16777619u;
  return h;
}

/* true if a function before funcs[i] has its name: an open-addressing set of
 * function indices (slot = -1 when empty), so the check is linear, not
 * quadratic, in the number of functions */
static bool name_seen(const ir_module *m, int *set, size_t mask, int i)
{
  const char *name = m->funcs[i]->name;
  for (size_t k = name_hash(name) & mask;; k = (k + 1) & mask) {
    if (set[k] < 0) {
      set[k] = i;
      return false;
    }
    if (strcmp(m->funcs[set[k]]->name, name) == 0) return true;
  }
}

ttref_status ir_verify_module(const ir_module *m, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  vctx c;
  int *set = NULL;
  size_t cap = 16;
  memset(&c, 0, sizeof c);
  c.m = m;
  c.err = err;
  if (!m) FAIL(ir_error_set(err, TTREF_E_USAGE, (ttref_loc){0}, "ir_verify_module: NULL module"));
  while (cap < 2 * (size_t)m->nfuncs) cap *= 2;
  set = ir_alloc(cap * sizeof *set);
  if (!set) FAIL(oom(&c));
  for (size_t k = 0; k < cap; k++) set[k] = -1;
  for (int i = 0; i < m->nfuncs; i++) {
    const ir_func *f = m->funcs[i];
    if (f->name && name_seen(m, set, cap - 1, i))
      FAIL(bad_func(&c, f, "redefinition of symbol named '%s'", f->name));
    TRY(verify_func(&c, f));
  }
fail:
  ir_free(set, cap * sizeof *set);
  ir_free(c.undo, c.capundo * sizeof *c.undo);
  return st;
}
