/*
 * ir_verify_op.c: per-op type rules of data ops: operand classes, shapes,
 * casts, pointers and memory, descriptors, dot.
 */
#include "config.h"
#include "ir_verify_impl.h"
/* ---- operand class checks shared by many ops ------------------------------------------ */

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
             : irv_bad(c, op, "operand #%d must be %s, but got '%s'", i, class_name(k), irv_tstr(c, otype(op, i)));
}

static ttref_status want_res(vctx *c, const ir_op *op, int i, cls k)
{
  return in_class(rtype(op, i), k)
             ? TTREF_OK
             : irv_bad(c, op, "result #%d must be %s, but got '%s'", i, class_name(k), irv_tstr(c, rtype(op, i)));
}

/* SameOperandsAndResultType with an element class (arith/math/tt elementwise). */
ttref_status irv_check_same_type(vctx *c, const ir_op *op, cls k)
{
  ttref_status st = TTREF_OK;
  for (int i = 0; i < op->nopnds; i++) TRY(want_opnd(c, op, i, k));
  for (int i = 0; i < op->nres; i++) TRY(want_res(c, op, i, k));
  for (int i = 0; i < op->nopnds; i++)
    if (otype(op, i) != rtype(op, 0))
      FAIL(irv_bad(c, op, "requires the same type for all operands and results (operand #%d is '%s', result is '%s')",
                   i, irv_tstr(c, otype(op, i)), irv_tstr(c, rtype(op, 0))));
fail:
  return st;
}

/* cmpi/cmpf: same-typed operands of class k, i1 result of their shape, predicate in range. */
ttref_status irv_check_cmp(vctx *c, const ir_op *op, cls k, int npred)
{
  ttref_status st = TTREF_OK;
  TRY(want_opnd(c, op, 0, k));
  TRY(want_opnd(c, op, 1, k));
  if (otype(op, 0) != otype(op, 1))
    FAIL(irv_bad(c, op, "requires all operands to have the same type ('%s' vs '%s')", irv_tstr(c, otype(op, 0)),
                 irv_tstr(c, otype(op, 1))));
  if (!elem_is(rtype(op, 0), IR_S_I1) || !same_shape(rtype(op, 0), otype(op, 0)))
    FAIL(irv_bad(c, op, "result must be i1 with the operands' shape, but got '%s'", irv_tstr(c, rtype(op, 0))));
  const ir_attr *p = ir_op_attr(op, "predicate");
  if (!p) FAIL(irv_bad(c, op, "requires attribute 'predicate'"));
  int64_t pv = ir_op_attr_int(op, "predicate", -1);
  if (pv < 0 || pv >= npred) FAIL(irv_bad(c, op, "predicate %lld is out of range [0, %d)", (long long)pv, npred));
fail:
  return st;
}

/* Elementwise casts: same shape, operand/result classes, element width rule. */
ttref_status irv_check_cast(vctx *c, const ir_op *op, cls from, cls to, width_rule w)
{
  ttref_status st = TTREF_OK;
  const ir_type *s = otype(op, 0), *r = rtype(op, 0);
  TRY(want_opnd(c, op, 0, from));
  TRY(want_res(c, op, 0, to));
  if (!same_shape(s, r))
    FAIL(irv_bad(c, op, "requires the same shape for all operands and results ('%s' vs '%s')", irv_tstr(c, s),
                 irv_tstr(c, r)));
  int sb = elem_bits(s), rb = elem_bits(r);
  if (w == W_WIDER && !(rb > sb))
    FAIL(irv_bad(c, op, "result type '%s' must be wider than operand type '%s'", irv_tstr(c, r), irv_tstr(c, s)));
  if (w == W_NARROWER && !(rb < sb))
    FAIL(irv_bad(c, op, "result type '%s' must be shorter than operand type '%s'", irv_tstr(c, r), irv_tstr(c, s)));
  if (w == W_SAME && rb != sb)
    FAIL(irv_bad(c, op, "operand type '%s' and result type '%s' are cast incompatible (bit widths %d and %d)",
                 irv_tstr(c, s), irv_tstr(c, r), sb, rb));
fail:
  return st;
}

/* The type rule column of ir_op_list.h: the check of every regular op. */
#pragma GCC diagnostic push
#pragma GCC diagnostic error "-Wswitch-enum"
ttref_status irv_check_rule(vctx *c, const ir_op *op)
{
  ttref_status st = TTREF_OK;
  switch (ir_op_type_rule(op->code)) {
  case IR_TR_SAME_INT: return irv_check_same_type(c, op, C_INT);
  case IR_TR_SAME_FLOAT: return irv_check_same_type(c, op, C_FLOAT);
  case IR_TR_CMP_INT: return irv_check_cmp(c, op, C_INT, 10);
  case IR_TR_CMP_FLOAT: return irv_check_cmp(c, op, C_FLOAT, 16);
  case IR_TR_INT_WIDER: return irv_check_cast(c, op, C_INT, C_INT, W_WIDER);
  case IR_TR_INT_NARROWER: return irv_check_cast(c, op, C_INT, C_INT, W_NARROWER);
  case IR_TR_INT_INT: return irv_check_cast(c, op, C_INT, C_INT, W_ANY);
  case IR_TR_FLOAT_WIDER: return irv_check_cast(c, op, C_FLOAT, C_FLOAT, W_WIDER);
  case IR_TR_FLOAT_NARROWER: return irv_check_cast(c, op, C_FLOAT, C_FLOAT, W_NARROWER);
  case IR_TR_INT_FLOAT: return irv_check_cast(c, op, C_INT, C_FLOAT, W_ANY);
  case IR_TR_FLOAT_INT: return irv_check_cast(c, op, C_FLOAT, C_INT, W_ANY);
  case IR_TR_BITCAST:
    st = irv_check_cast(c, op, C_ANY, C_ANY, W_SAME);
    if (st == TTREF_OK && (elem_ptr(otype(op, 0)) || elem_ptr(rtype(op, 0)) ||
                           elem(otype(op, 0))->kind != IR_T_SCALAR || elem(rtype(op, 0))->kind != IR_T_SCALAR))
      st = irv_bad(c, op, "operand and result must be integers or floats (use tt.bitcast for pointers)");
    return st;
  case IR_TR_CUSTOM: break;
  }
  return irv_internal(c, op, "no table type rule");
}
#pragma GCC diagnostic pop

/* All operands and results share one shape (Elementwise trait). */
ttref_status irv_check_same_shape_all(vctx *c, const ir_op *op)
{
  ttref_status st = TTREF_OK;
  const ir_type *ref = op->nopnds ? otype(op, 0) : op->nres ? rtype(op, 0) : NULL;
  for (int i = 0; ref && i < op->nopnds; i++)
    if (!same_shape(otype(op, i), ref))
      FAIL(irv_bad(
          c, op,
          "requires the same shape for all operands and results (operand #%d is '%s', expected the shape of '%s')", i,
          irv_tstr(c, otype(op, i)), irv_tstr(c, ref)));
  for (int i = 0; ref && i < op->nres; i++)
    if (!same_shape(rtype(op, i), ref))
      FAIL(irv_bad(
          c, op,
          "requires the same shape for all operands and results (result #%d is '%s', expected the shape of '%s')", i,
          irv_tstr(c, rtype(op, i)), irv_tstr(c, ref)));
fail:
  return st;
}

ttref_status irv_want_scalar(vctx *c, const ir_op *op, int i, ir_scalar s, const char *what)
{
  return is_scalar_of(otype(op, i), s) ? TTREF_OK
                                       : irv_bad(c, op, "%s (operand #%d) must be %s, but got '%s'", what, i,
                                                 ir_scalar_name(s), irv_tstr(c, otype(op, i)));
}

/* ---- structural helpers ----------------------------------------------------------------- */
static ttref_status want_counts(vctx *c, const ir_op *op, int lo, int hi)
{
  return op->nopnds >= lo && op->nopnds <= hi
             ? TTREF_OK
             : irv_bad(c, op, "expected %d to %d operands, but found %d", lo, hi, op->nopnds);
}

static bool inside_map_elementwise(const ir_op *op)
{
  for (const ir_op *p = parent_op(op, NULL); p; p = parent_op(p, NULL))
    if (p->code == IR_OP_MAP_ELEMENTWISE) return true;
  return false;
}

/* ---- per-op rules ----------------------------------------------------------------------------- */
ttref_status irv_check_constant(vctx *c, const ir_op *op)
{
  ttref_status st = TTREF_OK;
  const ir_type *r = rtype(op, 0);
  const ir_attr *a = ir_op_attr(op, "value");
  if (!a) FAIL(irv_bad(c, op, "requires attribute 'value'"));
  if (r->kind == IR_T_DESC || r->kind == IR_T_PTR || elem_ptr(r))
    FAIL(irv_bad(c, op, "result must be an integer or float scalar or tensor, but got '%s'", irv_tstr(c, r)));
  switch (a->kind) {
  case IR_A_INT:
  case IR_A_BOOL:
    if (is_tensor(r) || !is_int_scalar(r))
      FAIL(irv_bad(c, op, "integer value does not match the result type '%s'", irv_tstr(c, r)));
    if (a->type && a->type != r)
      FAIL(irv_bad(c, op, "value type '%s' must match the result type '%s'", irv_tstr(c, a->type), irv_tstr(c, r)));
    break;
  case IR_A_FLOAT:
    if (is_tensor(r) || !is_float_scalar(r))
      FAIL(irv_bad(c, op, "float value does not match the result type '%s'", irv_tstr(c, r)));
    if (a->type && a->type != r)
      FAIL(irv_bad(c, op, "value type '%s' must match the result type '%s'", irv_tstr(c, a->type), irv_tstr(c, r)));
    break;
  case IR_A_DENSE:
    if (!is_tensor(r)) FAIL(irv_bad(c, op, "dense value needs a tensor result, but got '%s'", irv_tstr(c, r)));
    if (a->type && a->type != r)
      FAIL(irv_bad(c, op, "value type '%s' must match the result type '%s'", irv_tstr(c, a->type), irv_tstr(c, r)));
    if (!a->splat && a->nvals != r->numel)
      FAIL(irv_bad(c, op, "dense value has %lld elements, but the result type '%s' has %lld", (long long)a->nvals,
                   irv_tstr(c, r), (long long)r->numel));
    break;
  default: FAIL(irv_bad(c, op, "value must be an integer, float or dense attribute"));
  }
fail:
  return st;
}

ttref_status irv_check_program_id(vctx *c, const ir_op *op)
{
  ttref_status st = TTREF_OK;
  if (!is_scalar_of(rtype(op, 0), IR_S_I32))
    FAIL(irv_bad(c, op, "result must be i32, but got '%s'", irv_tstr(c, rtype(op, 0))));
  int64_t ax = ir_op_attr_int(op, "axis", -1);
  if (ax < 0 || ax > 2) FAIL(irv_bad(c, op, "axis must be 0, 1 or 2 (x, y, z), but got %lld", (long long)ax));
fail:
  return st;
}

ttref_status irv_check_make_range(vctx *c, const ir_op *op)
{
  ttref_status st = TTREF_OK;
  const ir_type *r = rtype(op, 0);
  if (!has_attr(op, "start") || !has_attr(op, "end")) FAIL(irv_bad(c, op, "requires attributes 'start' and 'end'"));
  int64_t s = ir_op_attr_int(op, "start", 0), e = ir_op_attr_int(op, "end", 0);
  if (s >= e)
    FAIL(irv_bad(c, op, "start must be less than end (start = %lld, end = %lld)", (long long)s, (long long)e));
  if (!is_tensor(r) || r->rank != 1)
    FAIL(irv_bad(c, op, "return type must be a 1D tensor, but got '%s'", irv_tstr(c, r)));
  if (r->shape[0] != e - s)
    FAIL(irv_bad(
        c, op,
        "number of elements in returned tensor, %lld, must match size of range [%lld, %lld), which has %lld elements",
        (long long)r->shape[0], (long long)s, (long long)e, (long long)(e - s)));
  if (!elem_is(r, IR_S_I32))
    FAIL(irv_bad(c, op, "returned tensor must have i32 elements, but got '%s'", irv_tstr(c, r)));
fail:
  return st;
}

ttref_status irv_check_splat(vctx *c, const ir_op *op)
{
  ttref_status st = TTREF_OK;
  const ir_type *s = otype(op, 0), *r = rtype(op, 0);
  if (is_tensor(s) || s->kind == IR_T_DESC || is_block_ptr(s))
    FAIL(irv_bad(c, op, "operand must be a scalar or pointer, but got '%s'", irv_tstr(c, s)));
  if (!is_tensor(r)) FAIL(irv_bad(c, op, "result must be a tensor, but got '%s'", irv_tstr(c, r)));
  if (r->elem != s)
    FAIL(irv_bad(c, op, "requires the same element type for operand and result ('%s' vs '%s')", irv_tstr(c, s),
                 irv_tstr(c, r)));
fail:
  return st;
}

ttref_status irv_check_unsplat(vctx *c, const ir_op *op)
{
  ttref_status st = TTREF_OK;
  const ir_type *s = otype(op, 0), *r = rtype(op, 0);
  if (!is_tensor(s)) FAIL(irv_bad(c, op, "operand must be a tensor, but got '%s'", irv_tstr(c, s)));
  if (s->numel != 1)
    FAIL(irv_bad(c, op, "source tensor must have exactly one element, but '%s' has %lld", irv_tstr(c, s),
                 (long long)s->numel));
  if (r != s->elem)
    FAIL(irv_bad(c, op, "result type '%s' must be the element type of '%s'", irv_tstr(c, r), irv_tstr(c, s)));
fail:
  return st;
}

/* Both operand 0 and result 0 are tensors with the same element type. */
static ttref_status tensors_same_elem(vctx *c, const ir_op *op)
{
  ttref_status st = TTREF_OK;
  const ir_type *s = otype(op, 0), *r = rtype(op, 0);
  if (!is_tensor(s)) FAIL(irv_bad(c, op, "operand #0 must be a tensor, but got '%s'", irv_tstr(c, s)));
  if (!is_tensor(r)) FAIL(irv_bad(c, op, "result must be a tensor, but got '%s'", irv_tstr(c, r)));
  if (s->elem != r->elem)
    FAIL(irv_bad(c, op, "requires the same element type for operand and result ('%s' vs '%s')", irv_tstr(c, s),
                 irv_tstr(c, r)));
fail:
  return st;
}

ttref_status irv_check_broadcast(vctx *c, const ir_op *op)
{
  ttref_status st = TTREF_OK;
  TRY(tensors_same_elem(c, op));
  const ir_type *s = otype(op, 0), *r = rtype(op, 0);
  if (s->rank != r->rank)
    FAIL(
        irv_bad(c, op, "rank of source must be same as rank of result ('%s' vs '%s')", irv_tstr(c, s), irv_tstr(c, r)));
  for (int i = 0; i < s->rank; i++)
    if (s->shape[i] != 1 && s->shape[i] != r->shape[i])
      FAIL(irv_bad(c, op,
                   "different dimensions at index %d between source and result ('%s' vs '%s'); broadcast requires the "
                   "source dimension to be 1",
                   i, irv_tstr(c, s), irv_tstr(c, r)));
fail:
  return st;
}

ttref_status irv_check_expand_dims(vctx *c, const ir_op *op)
{
  ttref_status st = TTREF_OK;
  TRY(tensors_same_elem(c, op));
  const ir_type *s = otype(op, 0), *r = rtype(op, 0);
  if (!has_attr(op, "axis")) FAIL(irv_bad(c, op, "requires attribute 'axis'"));
  int64_t ax = ir_op_attr_int(op, "axis", -1);
  if (ax < 0 || ax > s->rank)
    FAIL(irv_bad(c, op, "axis %lld is out of range for a rank-%d operand (must be in [0, %d])", (long long)ax, s->rank,
                 s->rank));
  bool ok = r->rank == s->rank + 1 && r->shape[ax] == 1;
  for (int i = 0, j = 0; ok && i < r->rank; i++) {
    if (i == ax) continue;
    if (r->shape[i] != s->shape[j++]) ok = false;
  }
  if (!ok)
    FAIL(irv_bad(c, op, "result '%s' must be '%s' with a size-1 dimension inserted at axis %lld", irv_tstr(c, r),
                 irv_tstr(c, s), (long long)ax));
fail:
  return st;
}

ttref_status irv_check_reshape(vctx *c, const ir_op *op)
{
  ttref_status st = TTREF_OK;
  TRY(tensors_same_elem(c, op));
  const ir_type *s = otype(op, 0), *r = rtype(op, 0);
  if (s->numel != r->numel)
    FAIL(irv_bad(c, op, "number of src and dst elements of reshape must be the same ('%s' has %lld, '%s' has %lld)",
                 irv_tstr(c, s), (long long)s->numel, irv_tstr(c, r), (long long)r->numel));
fail:
  return st;
}

ttref_status irv_check_trans(vctx *c, const ir_op *op)
{
  ttref_status st = TTREF_OK;
  TRY(tensors_same_elem(c, op));
  const ir_type *s = otype(op, 0), *r = rtype(op, 0);
  int64_t ord[IR_MAX_RANK];
  int n = attr_ints(ir_op_attr(op, "order"), ord, IR_MAX_RANK);
  if (n < 0) FAIL(irv_bad(c, op, "requires an integer array attribute 'order'"));
  if (n != s->rank)
    FAIL(irv_bad(c, op, "order must have the same size as the source tensor (%d vs rank %d)", n, s->rank));
  bool used[IR_MAX_RANK] = {false};
  for (int i = 0; i < n; i++) {
    if (ord[i] < 0 || ord[i] >= n || used[ord[i]]) FAIL(irv_bad(c, op, "order must be a permutation of 0..%d", n - 1));
    used[ord[i]] = true;
  }
  bool ok = r->rank == n;
  for (int i = 0; ok && i < n; i++)
    if (r->shape[i] != s->shape[ord[i]]) ok = false;
  if (!ok)
    FAIL(irv_bad(c, op, "result shape must match the permutation of the source shape ('%s' permuted is not '%s')",
                 irv_tstr(c, s), irv_tstr(c, r)));
fail:
  return st;
}

ttref_status irv_check_cat(vctx *c, const ir_op *op)
{
  ttref_status st = TTREF_OK;
  TRY(tensors_same_elem(c, op));
  const ir_type *a = otype(op, 0), *b = otype(op, 1), *r = rtype(op, 0);
  if (a != b)
    FAIL(irv_bad(c, op, "requires all operands to have the same type ('%s' vs '%s')", irv_tstr(c, a), irv_tstr(c, b)));
  if (r->numel != 2 * a->numel)
    FAIL(irv_bad(c, op,
                 "result element count must equal the sum of the operand element counts, expected %lld but got %lld",
                 (long long)(2 * a->numel), (long long)r->numel));
fail:
  return st;
}

ttref_status irv_check_join(vctx *c, const ir_op *op)
{
  ttref_status st = TTREF_OK;
  TRY(tensors_same_elem(c, op));
  const ir_type *a = otype(op, 0), *b = otype(op, 1), *r = rtype(op, 0);
  if (a != b)
    FAIL(irv_bad(c, op, "requires all operands to have the same type ('%s' vs '%s')", irv_tstr(c, a), irv_tstr(c, b)));
  bool ok = r->rank == a->rank + 1 && r->shape[a->rank] == 2;
  for (int i = 0; ok && i < a->rank; i++)
    if (r->shape[i] != a->shape[i]) ok = false;
  if (!ok)
    FAIL(irv_bad(c, op, "result shape must be the operand shape followed by 2, but got '%s' from '%s'", irv_tstr(c, r),
                 irv_tstr(c, a)));
fail:
  return st;
}

ttref_status irv_check_split(vctx *c, const ir_op *op)
{
  ttref_status st = TTREF_OK;
  const ir_type *s = otype(op, 0);
  if (!is_tensor(s) || s->rank == 0 || s->shape[s->rank - 1] != 2)
    FAIL(irv_bad(c, op, "last dimension of input tensor must be 2, but got '%s'", irv_tstr(c, s)));
  for (int k = 0; k < 2; k++) {
    const ir_type *r = rtype(op, k);
    bool ok = is_tensor(r) && r->elem == s->elem && r->rank == s->rank - 1;
    for (int i = 0; ok && i < r->rank; i++)
      if (r->shape[i] != s->shape[i]) ok = false;
    if (!ok)
      FAIL(irv_bad(c, op, "result #%d '%s' must be the operand '%s' without its last dimension", k, irv_tstr(c, r),
                   irv_tstr(c, s)));
  }
fail:
  return st;
}

ttref_status irv_check_gather(vctx *c, const ir_op *op)
{
  ttref_status st = TTREF_OK;
  const ir_type *s = otype(op, 0), *ix = otype(op, 1), *r = rtype(op, 0);
  if (!is_tensor(s)) FAIL(irv_bad(c, op, "operand #0 must be a tensor, but got '%s'", irv_tstr(c, s)));
  if (!is_tensor(ix) || !elem_int(ix))
    FAIL(irv_bad(c, op, "indices must be a tensor of integers, but got '%s'", irv_tstr(c, ix)));
  if (!is_tensor(r) || !same_shape(ix, r))
    FAIL(irv_bad(c, op, "indices and output shapes must match ('%s' vs '%s')", irv_tstr(c, ix), irv_tstr(c, r)));
  if (s->elem != r->elem)
    FAIL(irv_bad(c, op, "input and output element types must match ('%s' vs '%s')", irv_tstr(c, s), irv_tstr(c, r)));
  if (s->rank != ix->rank) FAIL(irv_bad(c, op, "input and indices ranks must match (%d vs %d)", s->rank, ix->rank));
  if (!has_attr(op, "axis")) FAIL(irv_bad(c, op, "requires attribute 'axis'"));
  int64_t ax = ir_op_attr_int(op, "axis", -1);
  if (ax < 0 || ax >= s->rank)
    FAIL(irv_bad(c, op, "gather dimension %lld must be less than the input rank %d", (long long)ax, s->rank));
  for (int d = 0; d < s->rank; d++)
    if (d != ax && ix->shape[d] != s->shape[d])
      FAIL(irv_bad(c, op, "indices dimension %d must match the corresponding input dimension", d));
fail:
  return st;
}

ttref_status irv_check_histogram(vctx *c, const ir_op *op)
{
  ttref_status st = TTREF_OK;
  TRY(want_counts(c, op, 1, 2));
  const ir_type *s = otype(op, 0), *r = rtype(op, 0);
  if (!is_tensor(s) || !elem_int(s))
    FAIL(irv_bad(c, op, "operand #0 must be a tensor of integers, but got '%s'", irv_tstr(c, s)));
  if (!is_tensor(r) || r->rank != 1 || !elem_int(r))
    FAIL(irv_bad(c, op, "result must be a 1-D tensor of integers (one element per bin), but got '%s'", irv_tstr(c, r)));
  if (op->nopnds == 2 && !(elem_is(otype(op, 1), IR_S_I1) && same_shape(otype(op, 1), s)))
    FAIL(irv_bad(c, op, "mask type '%s' must be i1 with the shape of the source '%s'", irv_tstr(c, otype(op, 1)),
                 irv_tstr(c, s)));
fail:
  return st;
}

ttref_status irv_check_addptr(vctx *c, const ir_op *op)
{
  ttref_status st = TTREF_OK;
  TRY(want_opnd(c, op, 0, C_PTR));
  TRY(want_opnd(c, op, 1, C_INT));
  if (!same_shape(otype(op, 0), otype(op, 1)))
    FAIL(irv_bad(c, op, "requires the same shape for all operands and results ('%s' vs '%s')",
                 irv_tstr(c, otype(op, 0)), irv_tstr(c, otype(op, 1))));
  if (rtype(op, 0) != otype(op, 0))
    FAIL(irv_bad(c, op, "result type '%s' must match the pointer type '%s'", irv_tstr(c, rtype(op, 0)),
                 irv_tstr(c, otype(op, 0))));
fail:
  return st;
}

ttref_status irv_check_tt_bitcast(vctx *c, const ir_op *op)
{
  ttref_status st = TTREF_OK;
  const ir_type *s = otype(op, 0), *r = rtype(op, 0);
  if (s->kind == IR_T_DESC || r->kind == IR_T_DESC || is_block_ptr(s) || is_block_ptr(r))
    FAIL(irv_bad(c, op, "cannot bitcast '%s' to '%s'", irv_tstr(c, s), irv_tstr(c, r)));
  if (!same_shape(s, r))
    FAIL(irv_bad(c, op, "requires the same shape for all operands and results ('%s' vs '%s')", irv_tstr(c, s),
                 irv_tstr(c, r)));
  bool sp = elem(s)->kind == IR_T_PTR, rp = elem(r)->kind == IR_T_PTR;
  if (sp || rp) {
    if (!(sp && rp))
      FAIL(irv_bad(c, op, "cannot bitcast pointer to non-pointer type ('%s' to '%s')", irv_tstr(c, s), irv_tstr(c, r)));
    if (elem(s)->addrspace != elem(r)->addrspace)
      FAIL(irv_bad(c, op, "cannot bitcast pointer between different address spaces ('%s' to '%s')", irv_tstr(c, s),
                   irv_tstr(c, r)));
  } else if (elem_bits(s) != elem_bits(r)) {
    FAIL(irv_bad(c, op, "cannot bitcast data-type of size %d to data-type of size %d", elem_bits(s), elem_bits(r)));
  }
fail:
  return st;
}

ttref_status irv_check_fp_to_fp(vctx *c, const ir_op *op)
{
  ttref_status st = TTREF_OK;
  TRY(irv_check_cast(c, op, C_FLOAT, C_FLOAT, W_ANY));
  if (elem_bits(rtype(op, 0)) < elem_bits(otype(op, 0)) && !has_attr(op, "rounding"))
    FAIL(irv_bad(c, op, "rounding mode is required for FP downcast ('%s' to '%s')", irv_tstr(c, otype(op, 0)),
                 irv_tstr(c, rtype(op, 0))));
fail:
  return st;
}

ttref_status irv_check_int_ptr(vctx *c, const ir_op *op, bool to_ptr)
{
  ttref_status st = TTREF_OK;
  const ir_type *s = otype(op, 0), *r = rtype(op, 0);
  const ir_type *i = to_ptr ? s : r, *p = to_ptr ? r : s;
  if (!elem_is(i, IR_S_I64))
    FAIL(irv_bad(c, op, "%s must be i64 or a tensor of i64, but got '%s'", to_ptr ? "operand" : "result",
                 irv_tstr(c, i)));
  if (!elem_ptr(p))
    FAIL(
        irv_bad(c, op, "%s must be ptr or tensor of ptr, but got '%s'", to_ptr ? "result" : "operand", irv_tstr(c, p)));
  if (!same_shape(s, r))
    FAIL(irv_bad(c, op, "requires the same shape for all operands and results ('%s' vs '%s')", irv_tstr(c, s),
                 irv_tstr(c, r)));
fail:
  return st;
}

/* mask operand #i: i1 with the shape of like */
static ttref_status want_mask(vctx *c, const ir_op *op, int i, const ir_type *like)
{
  const ir_type *m = otype(op, i);
  return elem_is(m, IR_S_I1) && same_shape(m, like)
             ? TTREF_OK
             : irv_bad(c, op, "mask type '%s' must be i1 with the shape of '%s'", irv_tstr(c, m), irv_tstr(c, like));
}

static ttref_status check_boundary(vctx *c, const ir_op *op, const ir_type *ptr)
{
  ttref_status st = TTREF_OK;
  const ir_attr *a = ir_op_attr(op, "boundaryCheck");
  int64_t dims[64];
  int n = attr_ints(a, dims, 64);
  if (n > 0 && !is_block_ptr(ptr)) FAIL(irv_bad(c, op, "boundaryCheck is only allowed with a block pointer"));
  for (int i = 0; i < n && i < 64; i++)
    if (dims[i] < 0 || dims[i] >= ptr->elem->rank)
      FAIL(irv_bad(c, op, "boundaryCheck dimension %lld is out of range for '%s'", (long long)dims[i],
                   irv_tstr(c, ptr)));
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

ttref_status irv_check_load(vctx *c, const ir_op *op)
{
  ttref_status st = TTREF_OK;
  TRY(want_counts(c, op, 1, 3));
  const ir_type *p = otype(op, 0), *r = rtype(op, 0), *pt;
  if (!pointee_of(p, &pt))
    FAIL(irv_bad(c, op, "operand #0 must be ptr, tensor of ptr or block pointer, but got '%s'", irv_tstr(c, p)));
  if (!value_matches_ptr(r, p))
    FAIL(irv_bad(c, op, "result type '%s' does not match the pointer type '%s'", irv_tstr(c, r), irv_tstr(c, p)));
  if (op->nopnds >= 2) TRY(want_mask(c, op, 1, r));
  if (op->nopnds == 3 && otype(op, 2) != r)
    FAIL(irv_bad(c, op, "other type '%s' must match the result type '%s'", irv_tstr(c, otype(op, 2)), irv_tstr(c, r)));
  TRY(check_boundary(c, op, p));
fail:
  return st;
}

ttref_status irv_check_store(vctx *c, const ir_op *op)
{
  ttref_status st = TTREF_OK;
  TRY(want_counts(c, op, 2, 3));
  const ir_type *p = otype(op, 0), *v = otype(op, 1), *pt;
  if (!pointee_of(p, &pt))
    FAIL(irv_bad(c, op, "operand #0 must be ptr, tensor of ptr or block pointer, but got '%s'", irv_tstr(c, p)));
  if (!value_matches_ptr(v, p))
    FAIL(irv_bad(c, op, "value type '%s' does not match the pointer type '%s'", irv_tstr(c, v), irv_tstr(c, p)));
  if (op->nopnds == 3) TRY(want_mask(c, op, 2, v));
  TRY(check_boundary(c, op, p));
  if (inside_map_elementwise(op)) FAIL(irv_bad(c, op, "stores are not supported inside map_elementwise"));
fail:
  return st;
}

ttref_status irv_check_atomic_rmw(vctx *c, const ir_op *op)
{
  ttref_status st = TTREF_OK;
  TRY(want_counts(c, op, 2, 3));
  const ir_type *p = otype(op, 0), *v = otype(op, 1), *r = rtype(op, 0);
  if (!elem_ptr(p)) FAIL(irv_bad(c, op, "operand #0 must be ptr or tensor of ptr, but got '%s'", irv_tstr(c, p)));
  if (!value_matches_ptr(v, p))
    FAIL(irv_bad(c, op, "ptr type '%s' does not match the value type '%s'", irv_tstr(c, p), irv_tstr(c, v)));
  if (op->nopnds == 3) TRY(want_mask(c, op, 2, v));
  if (r != v) FAIL(irv_bad(c, op, "result type '%s' must match the value type '%s'", irv_tstr(c, r), irv_tstr(c, v)));
  int64_t k = ir_op_attr_int(op, "atomic_rmw_op", 0);
  if (k == IR_RMW_FADD && !elem_float(v)) FAIL(irv_bad(c, op, "fadd needs float values, but got '%s'", irv_tstr(c, v)));
  if (k != IR_RMW_FADD && k != IR_RMW_XCHG && k >= IR_RMW_AND && k <= IR_RMW_UMIN && !elem_int(v))
    FAIL(irv_bad(c, op, "integer atomic operation %lld needs integer values, but got '%s'", (long long)k,
                 irv_tstr(c, v)));
  if (inside_map_elementwise(op)) FAIL(irv_bad(c, op, "stores are not supported inside map_elementwise"));
fail:
  return st;
}

ttref_status irv_check_atomic_cas(vctx *c, const ir_op *op)
{
  ttref_status st = TTREF_OK;
  const ir_type *p = otype(op, 0), *cmp = otype(op, 1), *v = otype(op, 2), *r = rtype(op, 0);
  if (!elem_ptr(p)) FAIL(irv_bad(c, op, "operand #0 must be ptr or tensor of ptr, but got '%s'", irv_tstr(c, p)));
  if (cmp != v || r != v)
    FAIL(irv_bad(c, op, "cmp '%s', val '%s' and result '%s' must have the same type", irv_tstr(c, cmp), irv_tstr(c, v),
                 irv_tstr(c, r)));
  if (!value_matches_ptr(v, p))
    FAIL(irv_bad(c, op, "ptr type '%s' does not match the value type '%s'", irv_tstr(c, p), irv_tstr(c, v)));
  if (elem(v)->kind != IR_T_SCALAR)
    FAIL(irv_bad(c, op, "values must be integers or floats, but got '%s'", irv_tstr(c, v)));
  if (inside_map_elementwise(op)) FAIL(irv_bad(c, op, "stores are not supported inside map_elementwise"));
fail:
  return st;
}

/* operands [from, from+n) are scalars of type s */
static ttref_status want_scalars(vctx *c, const ir_op *op, int from, int n, ir_scalar s, const char *what)
{
  ttref_status st = TTREF_OK;
  for (int i = from; i < from + n; i++) TRY(irv_want_scalar(c, op, i, s, what));
fail:
  return st;
}

ttref_status irv_check_make_tensor_ptr(vctx *c, const ir_op *op)
{
  ttref_status st = TTREF_OK;
  const ir_type *r = rtype(op, 0), *b = otype(op, 0);
  if (!is_block_ptr(r)) FAIL(irv_bad(c, op, "result must be a pointer to a tensor, but got '%s'", irv_tstr(c, r)));
  int n = r->elem->rank;
  if (op->nopnds != 1 + 3 * n)
    FAIL(irv_bad(c, op, "expected 1 + 3 x %d operands (base, shape, strides, offsets) for '%s', but found %d", n,
                 irv_tstr(c, r), op->nopnds));
  if (b->kind != IR_T_PTR || b->elem != r->elem->elem || b->addrspace != r->addrspace)
    FAIL(irv_bad(c, op, "base '%s' must point to the element type of '%s'", irv_tstr(c, b), irv_tstr(c, r)));
  TRY(want_scalars(c, op, 1, 2 * n, IR_S_I64, "shape and strides"));
  TRY(want_scalars(c, op, 1 + 2 * n, n, IR_S_I32, "offset"));
fail:
  return st;
}

ttref_status irv_check_advance(vctx *c, const ir_op *op)
{
  ttref_status st = TTREF_OK;
  const ir_type *p = otype(op, 0);
  if (!is_block_ptr(p)) FAIL(irv_bad(c, op, "operand #0 must be a pointer to a tensor, but got '%s'", irv_tstr(c, p)));
  if (rtype(op, 0) != p)
    FAIL(
        irv_bad(c, op, "result type '%s' must match the pointer type '%s'", irv_tstr(c, rtype(op, 0)), irv_tstr(c, p)));
  if (op->nopnds != 1 + p->elem->rank)
    FAIL(irv_bad(c, op, "expected %d offsets for '%s', but found %d", p->elem->rank, irv_tstr(c, p), op->nopnds - 1));
  TRY(want_scalars(c, op, 1, p->elem->rank, IR_S_I32, "offset"));
fail:
  return st;
}

static const ir_type *desc_block(const ir_type *t)
{
  return (t->kind == IR_T_DESC && t->elem && t->elem->kind == IR_T_TENSOR) ? t->elem : NULL;
}

ttref_status irv_check_make_desc(vctx *c, const ir_op *op)
{
  ttref_status st = TTREF_OK;
  const ir_type *r = rtype(op, 0), *b = otype(op, 0), *blk = desc_block(r);
  if (!blk) FAIL(irv_bad(c, op, "result must be a tensor descriptor, but got '%s'", irv_tstr(c, r)));
  int n = blk->rank;
  if (op->nopnds != 1 + 2 * n)
    FAIL(irv_bad(c, op, "expected 1 + 2 x %d operands (base, shape, strides) for '%s', but found %d", n, irv_tstr(c, r),
                 op->nopnds));
  if (b->kind != IR_T_PTR || !b->elem || b->elem->kind == IR_T_TENSOR || b->elem->scalar != blk->scalar)
    FAIL(irv_bad(c, op, "base '%s' must point to the element type of '%s'", irv_tstr(c, b), irv_tstr(c, r)));
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
             : irv_bad(c, op, "operand #0 must be a tensor descriptor, but got '%s'", irv_tstr(c, otype(op, 0)));
}

static ttref_status block_matches(vctx *c, const ir_op *op, const ir_type *blk, const ir_type *t)
{
  ttref_status st = TTREF_OK;
  if (!is_tensor(t)) FAIL(irv_bad(c, op, "expected a tensor, but got '%s'", irv_tstr(c, t)));
  if (blk->elem->kind != IR_T_SCALAR || t->elem->kind != IR_T_SCALAR || blk->scalar != t->scalar)
    FAIL(irv_bad(c, op, "descriptor block and tensor element types must match, but got '%s' and '%s'", irv_tstr(c, blk),
                 irv_tstr(c, t)));
  if (blk->numel != t->numel)
    FAIL(irv_bad(c, op, "descriptor block and tensor must have the same number of elements, but got %lld and %lld",
                 (long long)blk->numel, (long long)t->numel));
fail:
  return st;
}

/* descriptor_load / _store / _reduce: desc, [src], indices (src found by kind, any position) */
ttref_status irv_check_desc_access(vctx *c, const ir_op *op, bool has_src)
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
    TRY(irv_want_scalar(c, op, i, IR_S_I32, "index"));
    nidx++;
  }
  if (has_src && src < 0) FAIL(irv_bad(c, op, "expected a source tensor operand"));
  if (blk && nidx != blk->rank)
    FAIL(irv_bad(c, op, "expected %d indices for '%s', but found %d", blk->rank, irv_tstr(c, otype(op, 0)), nidx));
  if (blk) TRY(block_matches(c, op, blk, has_src ? otype(op, src) : rtype(op, 0)));
  if (has_src && inside_map_elementwise(op)) FAIL(irv_bad(c, op, "stores are not supported inside map_elementwise"));
fail:
  return st;
}

/* descriptor_gather: desc, x_offsets, y_offset -> 2-D; scatter adds src */
ttref_status irv_check_desc_gather(vctx *c, const ir_op *op, bool scatter)
{
  ttref_status st = TTREF_OK;
  const ir_type *blk;
  TRY(want_counts(c, op, scatter ? 4 : 3, scatter ? 4 : 3));
  TRY(want_desc(c, op, &blk));
  const ir_type *x = otype(op, 1), *t = scatter ? otype(op, 3) : rtype(op, 0);
  if (!is_tensor(x) || x->rank != 1 || !elem_int(x))
    FAIL(irv_bad(c, op, "x offsets must be a 1D tensor of integers, but got '%s'", irv_tstr(c, x)));
  TRY(irv_want_scalar(c, op, 2, IR_S_I32, "y offset"));
  if (!is_tensor(t) || t->rank != 2)
    FAIL(irv_bad(c, op, "%s must be a 2D tensor, but got '%s'", scatter ? "source" : "result", irv_tstr(c, t)));
  if (t->shape[0] != x->shape[0])
    FAIL(irv_bad(c, op, "tensor must have as many rows as indices (%lld), but got '%s'", (long long)x->shape[0],
                 irv_tstr(c, t)));
  if (blk) {
    if (blk->rank != 2 || blk->shape[0] != 1)
      FAIL(irv_bad(c, op, "descriptor block must be a 2D tensor with exactly 1 row, but got '%s'", irv_tstr(c, blk)));
    if (t->shape[1] != blk->shape[1])
      FAIL(irv_bad(c, op, "tensor number of columns must match block (%lld), but got '%s'", (long long)blk->shape[1],
                   irv_tstr(c, t)));
    if (t->scalar != blk->scalar || t->elem->kind != IR_T_SCALAR)
      FAIL(irv_bad(c, op, "tensor element type must match block '%s', but got '%s'", irv_tstr(c, blk), irv_tstr(c, t)));
  }
  if (scatter && inside_map_elementwise(op)) FAIL(irv_bad(c, op, "stores are not supported inside map_elementwise"));
fail:
  return st;
}

ttref_status irv_check_dot(vctx *c, const ir_op *op)
{
  ttref_status st = TTREF_OK;
  const ir_type *a = otype(op, 0), *b = otype(op, 1), *cc = otype(op, 2), *d = rtype(op, 0);
  for (int i = 0; i < 3; i++)
    if (!is_tensor(otype(op, i)) || !(elem_int(otype(op, i)) || elem_float(otype(op, i))))
      FAIL(irv_bad(c, op, "operand #%d must be a tensor of floats or integers, but got '%s'", i,
                   irv_tstr(c, otype(op, i))));
  if (d != cc)
    FAIL(irv_bad(c, op, "result type '%s' must match the accumulator type '%s'", irv_tstr(c, d), irv_tstr(c, cc)));
  int n = a->rank;
  if ((n != 2 && n != 3) || b->rank != n || cc->rank != n)
    FAIL(irv_bad(c, op, "operands must all be 2-D or all be 3-D, but got '%s', '%s' and '%s'", irv_tstr(c, a),
                 irv_tstr(c, b), irv_tstr(c, cc)));
  if (n == 3 && (b->shape[0] != a->shape[0] || cc->shape[0] != a->shape[0]))
    FAIL(irv_bad(c, op, "batch dimensions must match ('%s', '%s', '%s')", irv_tstr(c, a), irv_tstr(c, b),
                 irv_tstr(c, cc)));
  if (a->shape[n - 1] != b->shape[n - 2])
    FAIL(irv_bad(c, op, "K dimensions must match: '%s' * '%s'", irv_tstr(c, a), irv_tstr(c, b)));
  if (cc->shape[n - 2] != a->shape[n - 2] || cc->shape[n - 1] != b->shape[n - 1])
    FAIL(irv_bad(c, op, "accumulator '%s' must be [M, N] of '%s' * '%s'", irv_tstr(c, cc), irv_tstr(c, a),
                 irv_tstr(c, b)));
  if (elem_bits(a) != elem_bits(b))
    FAIL(irv_bad(c, op, "element types of operands A and B must have same bit width ('%s' vs '%s')", irv_tstr(c, a),
                 irv_tstr(c, b)));
  if (elem_int(a) != elem_int(b))
    FAIL(irv_bad(c, op, "operands A and B must both be integer or both be float ('%s' vs '%s')", irv_tstr(c, a),
                 irv_tstr(c, b)));
  if (elem_int(a) != elem_int(cc))
    FAIL(irv_bad(c, op, "%s operands need %s accumulator, but got '%s'", elem_int(a) ? "integer" : "float",
                 elem_int(a) ? "an integer" : "a float", irv_tstr(c, cc)));
  if (elem_int(a) && elem_bits(cc) < 32)
    FAIL(irv_bad(c, op, "integer dot needs an i32 (or wider) accumulator, but got '%s'", irv_tstr(c, cc)));
fail:
  return st;
}

ttref_status irv_check_dot_scaled(vctx *c, const ir_op *op)
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
      FAIL(irv_bad(c, op, "operandSegmentSizes does not match the %d operands", op->nopnds));
    if (seg[3]) ias = 3;
    if (seg[4]) ibs = 3 + (int)seg[3];
  } else if (op->nopnds == 5) {
    ias = 3, ibs = 4;
  } else if (op->nopnds == 4) {
    /* one scale without segment sizes: a's is [.., M, K/32], b's is [.., N, K/32] */
    const ir_type *s3 = otype(op, 3), *cc = otype(op, 2);
    bool is_b = is_tensor(s3) && is_tensor(cc) && s3->rank >= 2 && cc->rank >= 2 &&
                s3->shape[s3->rank - 2] == cc->shape[cc->rank - 1] &&
                s3->shape[s3->rank - 2] != cc->shape[cc->rank - 2];
    if (is_b) ibs = 3;
    else ias = 3;
  }
  for (int i = 0; i < op->nopnds; i++)
    if (!is_tensor(otype(op, i)) || !(elem_float(otype(op, i)) || elem_is(otype(op, i), IR_S_I8)))
      FAIL(irv_bad(c, op, "operand #%d must be a tensor of floats or i8, but got '%s'", i, irv_tstr(c, otype(op, i))));
  const ir_type *a = otype(op, ia), *b = otype(op, ib), *cc = otype(op, ic), *d = rtype(op, 0);
  if (!elem_float(cc)) FAIL(irv_bad(c, op, "accumulator must be a tensor of floats, but got '%s'", irv_tstr(c, cc)));
  if (d != cc)
    FAIL(irv_bad(c, op, "result type '%s' must match the accumulator type '%s'", irv_tstr(c, d), irv_tstr(c, cc)));
  int n = a->rank;
  if (n < 2 || b->rank != n || cc->rank != n)
    FAIL(irv_bad(c, op, "operands must be at least 2D and of equal rank ('%s', '%s', '%s')", irv_tstr(c, a),
                 irv_tstr(c, b), irv_tstr(c, cc)));
  bool ae2m1 = ir_op_attr_int(op, "a_elem_type", -1) == IR_SDT_E2M1;
  bool be2m1 = ir_op_attr_int(op, "b_elem_type", -1) == IR_SDT_E2M1;
  bool lpack = ir_op_attr_int(op, "lhs_k_pack", 1) != 0, rpack = ir_op_attr_int(op, "rhs_k_pack", 1) != 0;
  int64_t ak = a->shape[n - 1] * (ae2m1 && lpack ? 2 : 1), bk = b->shape[n - 2] * (be2m1 && rpack ? 2 : 1);
  int64_t am = a->shape[n - 2] * (ae2m1 && !lpack ? 2 : 1), bn = b->shape[n - 1] * (be2m1 && !rpack ? 2 : 1);
  if (ak != bk) FAIL(irv_bad(c, op, "K dimensions must match (%lld vs %lld)", (long long)ak, (long long)bk));
  if (am != cc->shape[n - 2] || bn != cc->shape[n - 1])
    FAIL(irv_bad(c, op, "accumulator '%s' must be [M, N] = [%lld, %lld]", irv_tstr(c, cc), (long long)am,
                 (long long)bn));
  const int sidx[2] = {ias, ibs};
  const int64_t mn[2] = {cc->shape[n - 2], cc->shape[n - 1]};
  for (int k = 0; k < 2; k++) {
    if (sidx[k] < 0) continue;
    const ir_type *s = otype(op, sidx[k]);
    if (s->rank != n || s->shape[n - 2] != mn[k] || s->shape[n - 1] == 0 ||
        (ak / s->shape[n - 1] != 32 && ak / s->shape[n - 1] != 16) || ak % s->shape[n - 1] != 0)
      FAIL(irv_bad(c, op, "scale '%s' must be [%s, K / 32 or K / 16] with K = %lld", irv_tstr(c, s), k ? "N" : "M",
                   (long long)ak));
  }
fail:
  return st;
}

/* reduce / scan: operands, axis, results */
