/*
 * interp_shape.c: shapes and data movement (splat, broadcast, trans, reshape,
 * cat/join/split, gather, histogram) and constants.
 */
#include "config.h"
#include "interp_exec.h"

/* ---- shapes and data movement ----------------------------------------------------------- */
static void strides_of(const ir_type *t, int64_t *st)
{
  int64_t s = 1;
  for (int d = t->rank - 1; d >= 0; d--) {
    st[d] = s;
    s *= t->shape[d];
  }
}

/*
 * The one strided copy of the shape ops: dst[i] = src[o(i)] over the row-major
 * index space of shape[0..rank), o advancing by st[d] per step of dimension d.
 * broadcast (stride 0 on broadcast dimensions) and trans (permuted strides) use
 * it; the innermost dimension is one typed run (fill, memcpy or strided).
 */
static void strided_copy(interp_elem *dst, const interp_elem *src, int rank, const int64_t *shape, const int64_t *st)
{
  if (rank == 0) {
    dst[0] = src[0];
    return;
  }
  const int64_t inner = shape[rank - 1], is = st[rank - 1];
  int64_t numel = 1, idx[IR_MAX_RANK] = {0}, base = 0;
  for (int d = 0; d < rank; d++) numel *= shape[d];
  if (inner <= 0 || numel <= 0) return;
  for (int64_t done = 0; done < numel; done += inner, dst += inner) {
    const interp_elem *s = src + base;
    if (is == 0)
      for (int64_t j = 0; j < inner; j++) dst[j] = s[0];
    else if (is == 1) memcpy(dst, s, sizeof(interp_elem) * (size_t)inner);
    else
      for (int64_t j = 0; j < inner; j++) dst[j] = s[j * is];
    for (int d = rank - 2; d >= 0; d--) { /* odometer over the outer dimensions */
      idx[d]++;
      base += st[d];
      if (idx[d] < shape[d]) break;
      base -= st[d] * idx[d];
      idx[d] = 0;
    }
  }
}

ttref_status interp_op_splat(ctx *c, const ir_op *op)
{
  const slot *a = SL(op->opnds[0]);
  slot *r = SL(&op->res[0]);
  int64_t n = op->res[0].type->numel;
  if (n > 0) r->d[0] = a->d[0];
  for (int64_t k = 1; k < n; k *= 2) /* doubling copies: log2(n) memcpy calls fill the slot */
    memcpy(r->d + k, r->d, sizeof(interp_elem) * (size_t)(n - k < k ? n - k : k));
  r->n = n;
  return TTREF_OK;
}

ttref_status interp_op_copy(ctx *c, const ir_op *op) /* reshape, expand_dims, unsplat: row-major relabel */
{
  copy_slot(SL(&op->res[0]), SL(op->opnds[0]));
  return TTREF_OK;
}

ttref_status interp_op_broadcast(ctx *c, const ir_op *op)
{
  const ir_type *it = op->opnds[0]->type, *ot = op->res[0].type;
  const slot *a = SL(op->opnds[0]);
  slot *r = SL(&op->res[0]);
  if (it->kind != IR_T_TENSOR) return interp_op_splat(c, op);
  int64_t ist[IR_MAX_RANK];
  strides_of(it, ist);
  for (int d = 0; d < ot->rank; d++)
    if (it->shape[d] == 1 && ot->shape[d] != 1) ist[d] = 0;
  strided_copy(r->d, a->d, ot->rank, ot->shape, ist);
  r->n = ot->numel;
  return TTREF_OK;
}

ttref_status interp_op_trans(ctx *c, const ir_op *op)
{
  const ir_type *it = op->opnds[0]->type, *ot = op->res[0].type;
  const ir_attr *ord = ir_op_attr(op, "order");
  const slot *a = SL(op->opnds[0]);
  slot *r = SL(&op->res[0]);
  int64_t ist[IR_MAX_RANK], pst[IR_MAX_RANK];
  if (!ord || ord->nints != ot->rank)
    return interp_fault(c, op, TTREF_E_INPUT, "'tt.trans' needs an order of rank %d", ot->rank);
  strides_of(it, ist);
  for (int d = 0; d < ot->rank; d++) pst[d] = ist[ord->ints[d]];
  strided_copy(r->d, a->d, ot->rank, ot->shape, pst);
  r->n = ot->numel;
  return TTREF_OK;
}

ttref_status interp_op_cat(ctx *c, const ir_op *op)
{
  const slot *a = SL(op->opnds[0]), *b = SL(op->opnds[1]);
  slot *r = SL(&op->res[0]);
  memcpy(r->d, a->d, sizeof(interp_elem) * (size_t)a->n);
  memcpy(r->d + a->n, b->d, sizeof(interp_elem) * (size_t)b->n);
  r->n = a->n + b->n;
  return TTREF_OK;
}

ttref_status interp_op_join(ctx *c, const ir_op *op)
{
  const slot *a = SL(op->opnds[0]), *b = SL(op->opnds[1]);
  slot *r = SL(&op->res[0]);
  for (int64_t i = 0; i < a->n; i++) {
    r->d[2 * i] = a->d[i];
    r->d[2 * i + 1] = b->d[i];
  }
  r->n = 2 * a->n;
  return TTREF_OK;
}

ttref_status interp_op_split(ctx *c, const ir_op *op)
{
  const slot *a = SL(op->opnds[0]);
  slot *r0 = SL(&op->res[0]), *r1 = SL(&op->res[1]);
  int64_t h = a->n / 2;
  for (int64_t i = 0; i < h; i++) {
    r0->d[i] = a->d[2 * i];
    r1->d[i] = a->d[2 * i + 1];
  }
  r0->n = r1->n = h;
  return TTREF_OK;
}

ttref_status interp_op_gather(ctx *c, const ir_op *op)
{
  const ir_type *st = op->opnds[0]->type, *it = op->opnds[1]->type;
  const slot *src = SL(op->opnds[0]), *ix = SL(op->opnds[1]);
  slot *r = SL(&op->res[0]);
  const int axis = (int)ir_op_attr_int(op, "axis", 0);
  const int ibits = elem_bits(op->opnds[1]);
  int64_t sst[IR_MAX_RANK], idx[IR_MAX_RANK] = {0};
  strides_of(st, sst);
  for (int64_t i = 0; i < it->numel; i++) {
    int64_t k = sval(ibits, ix->d[i].i);
    if (k < 0 || k >= st->shape[axis]) return interp_fault_at(c, op, it, i, "gather index out of range");
    int64_t off = 0;
    for (int d = 0; d < it->rank; d++) off += (d == axis ? k : idx[d]) * sst[d];
    r->d[i] = src->d[off];
    for (int d = it->rank - 1; d >= 0; d--) {
      if (++idx[d] < it->shape[d]) break;
      idx[d] = 0;
    }
  }
  r->n = it->numel;
  return TTREF_OK;
}

ttref_status interp_op_histogram(ctx *c, const ir_op *op)
{
  const slot *a = SL(op->opnds[0]);
  const slot *m = op->nopnds > 1 ? SL(op->opnds[1]) : NULL;
  slot *r = SL(&op->res[0]);
  const int64_t bins = op->res[0].type->numel;
  const int bits = elem_bits(op->opnds[0]);
  for (int64_t b = 0; b < bins; b++) r->d[b].i = 0;
  for (int64_t i = 0; i < a->n; i++) {
    if (m && !m->d[m->n > 1 ? i : 0].i) continue;
    uint64_t v = uval(bits, a->d[i].i);
    /* a value outside [0, bins) (negative ones too) is not counted: the GPU drops it (Triton 3.6 on
     * the H100; test_histogram_out_of_range, test_histogram_silent_data_corruption) */
    if (v >= (uint64_t)bins) continue;
    r->d[v].i = wrap_int(32, r->d[v].i + 1);
  }
  r->n = bins;
  return TTREF_OK;
}

ttref_status interp_op_make_range(ctx *c, const ir_op *op)
{
  slot *r = SL(&op->res[0]);
  int64_t s = ir_op_attr_int(op, "start", 0), n = op->res[0].type->numel;
  for (int64_t i = 0; i < n; i++) r->d[i].i = wrap_int(32, s + i);
  r->n = n;
  return TTREF_OK;
}

ttref_status interp_op_constant(ctx *c, const ir_op *op)
{
  slot *r = SL(&op->res[0]);
  if (r->filled) return TTREF_OK; /* SSA: nothing else writes this slot */
  const ir_attr *v = ir_op_attr(op, "value");
  const ir_type *t = op->res[0].type;
  const ir_scalar s = ir_type_elem(t)->scalar;
  const int64_t n = t->numel;
  if (!v) return interp_fault(c, op, TTREF_E_INPUT, "'arith.constant' has no value");
  const bool flt = ir_scalar_is_float(s);
  const int f = fmt_of(s), bits = ir_scalar_bits(s);
  for (int64_t i = 0; i < n; i++) {
    ir_scalar_val e;
    bool hex = v->hex;
    if (v->kind == IR_A_DENSE) {
      if (v->nvals < 1) return interp_fault(c, op, TTREF_E_INPUT, "empty dense constant");
      e = v->vals[v->splat || v->nvals == 1 ? 0 : (i < v->nvals ? i : v->nvals - 1)];
    } else if (v->kind == IR_A_FLOAT) {
      if (hex) e.i = v->i;
      else e.f = v->f;
    } else {
      e.i = v->i;
      hex = false;
    }
    if (flt) {
      if (hex) r->d[i].f = fp_decode((fp_format)f, uval(bits, e.i));
      else if (v->kind == IR_A_INT || v->kind == IR_A_BOOL) r->d[i].f = rnd(c, f, (double)e.i);
      else r->d[i].f = fp_round_to((fp_format)f, e.f, FP_RNE, FP_OVF_INF);
    } else {
      r->d[i].i = wrap_int(bits, e.i);
    }
  }
  r->n = n;
  r->filled = 1;
  return TTREF_OK;
}
