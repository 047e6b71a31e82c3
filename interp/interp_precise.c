/*
 * interp_precise.c: precise mode's magnitude bound pass, run after every op
 * when the launch is precise (never on the default path).
 */
#include "config.h"
#include "interp_exec.h"

/* ---- precise mode: magnitude bounds -------------------------------------------------------------- */
/*
 * Every float value carries a bound: the value the computation would have if
 * every operand were replaced by its magnitude and every subtraction by an
 * addition (sum |a_i b_i| for a dot, sum |x_i| for a sum). Arithmetic ops
 * combine their operands' bounds; data movement, memory, dot and combine ops
 * are re-run on the bound buffers (the "bound pass"); any other float result's
 * bound is |value|.
 */
#define MAX_SWAP 64
static int swap_floats(ctx *c, const ir_op *op, slot **sw)
{
  int n = 0;
  for (int pass = 0; pass < 2; pass++) {
    int cnt = pass ? op->nres : op->nopnds;
    for (int i = 0; i < cnt; i++) {
      const ir_value *v = pass ? &op->res[i] : op->opnds[i];
      if (!is_float_value(v)) continue;
      slot *s = SL(v);
      bool dup = false;
      for (int k = 0; k < n; k++) dup |= sw[k] == s;
      if (dup || n >= MAX_SWAP) continue;
      interp_elem *t = s->d;
      s->d = s->b;
      s->b = t;
      sw[n++] = s;
    }
  }
  return n;
}

static void unswap(slot **sw, int n)
{
  for (int k = 0; k < n; k++) {
    interp_elem *t = sw[k]->d;
    sw[k]->d = sw[k]->b;
    sw[k]->b = t;
  }
}

ttref_status interp_bound_op(ctx *c, const ir_op *op)
{
  ttref_status st = TTREF_OK;
  bool any = false;
  for (int i = 0; i < op->nres; i++) any |= is_float_value(&op->res[i]);
  bool mem_float = false;
  if (op->code == IR_OP_STORE || op->code == IR_OP_ATOMIC_RMW || op->code == IR_OP_ATOMIC_CAS ||
      op->code == IR_OP_DESC_STORE || op->code == IR_OP_DESC_REDUCE || op->code == IR_OP_XDESC_STORE ||
      op->code == IR_OP_DESC_SCATTER || op->code == IR_OP_XDESC_SCATTER)
    for (int i = 0; i < op->nopnds; i++) mem_float |= is_float_value(op->opnds[i]);
  if (!any && !mem_float) return TTREF_OK;
  const slot *a = op->nopnds > 0 ? SL(op->opnds[0]) : NULL;
  const slot *b = op->nopnds > 1 ? SL(op->opnds[1]) : NULL;
  slot *r = op->nres > 0 ? SL(&op->res[0]) : NULL;
  switch (op->code) {
  case IR_OP_ADDF:
  case IR_OP_SUBF:
  case IR_OP_MULF:
  case IR_OP_DIVF:
  case IR_OP_PRECISE_DIVF: {
    const int64_t n = r->n, sa = a->n > 1, sb = b->n > 1;
    for (int64_t i = 0; i < n; i++) {
      double x = a->b[i * sa].f, y = b->b[i * sb].f;
      switch (op->code) {
      case IR_OP_MULF: r->b[i].f = x * y; break;
      case IR_OP_DIVF:
      case IR_OP_PRECISE_DIVF: r->b[i].f = x / fabs(b->d[i * sb].f); break;
      default: r->b[i].f = x + y; break;
      }
    }
    return TTREF_OK;
  }
  case IR_OP_MATH_FMA: {
    const slot *z = SL(op->opnds[2]);
    const int64_t n = r->n, sa = a->n > 1, sb = b->n > 1, sz = z->n > 1;
    for (int64_t i = 0; i < n; i++) r->b[i].f = a->b[i * sa].f * b->b[i * sb].f + z->b[i * sz].f;
    return TTREF_OK;
  }
  case IR_OP_NEGF:
  case IR_OP_EXTF:
  case IR_OP_TRUNCF:
  case IR_OP_FP_TO_FP:
    if (is_float_value(op->opnds[0])) {
      for (int64_t i = 0; i < r->n; i++) r->b[i].f = a->b[i].f;
      return TTREF_OK;
    }
    break;
  case IR_OP_SCF_FOR:
  case IR_OP_SCF_IF:
  case IR_OP_SCF_WHILE:
  case IR_OP_CALL:
    return TTREF_OK; /* results took their bounds from the yielded / returned values */
  case IR_OP_SELECT: {
    const slot *k = SL(op->opnds[0]), *x = SL(op->opnds[1]), *y = SL(op->opnds[2]);
    const int64_t sk = k->n > 1, sx = x->n > 1, sy = y->n > 1;
    for (int64_t i = 0; i < r->n; i++) r->b[i] = k->d[i * sk].i ? x->b[i * sx] : y->b[i * sy];
    return TTREF_OK;
  }
  case IR_OP_SPLAT: case IR_OP_UNSPLAT: case IR_OP_BROADCAST: case IR_OP_EXPAND_DIMS: case IR_OP_RESHAPE:
  case IR_OP_TRANS: case IR_OP_CAT: case IR_OP_JOIN: case IR_OP_SPLIT: case IR_OP_GATHER:
  case IR_OP_LOAD: case IR_OP_STORE: case IR_OP_ATOMIC_RMW: case IR_OP_ATOMIC_CAS: case IR_OP_DOT:
  case IR_OP_REDUCE: case IR_OP_SCAN: case IR_OP_MAP_ELEMENTWISE:
  case IR_OP_DESC_LOAD: case IR_OP_DESC_STORE: case IR_OP_DESC_REDUCE: case IR_OP_XDESC_LOAD: case IR_OP_XDESC_STORE:
  case IR_OP_DESC_GATHER: case IR_OP_DESC_SCATTER: case IR_OP_XDESC_GATHER: case IR_OP_XDESC_SCATTER: case IR_OP_DOT_SCALED: {
    if (op->code == IR_OP_ATOMIC_CAS) break; /* bound of the old value: |value| */
    slot *sw[MAX_SWAP];
    int n = swap_floats(c, op, sw);
    c->bound_pass = true;
    st = interp_exec_op_value(c, op);
    c->bound_pass = false;
    unswap(sw, n);
    return st;
  }
  default:
    break;
  }
  for (int j = 0; j < op->nres; j++) {
    if (!is_float_value(&op->res[j])) continue;
    slot *o = SL(&op->res[j]);
    for (int64_t i = 0; i < o->n; i++) o->b[i].f = fabs(o->d[i].f);
  }
  return st;
}
