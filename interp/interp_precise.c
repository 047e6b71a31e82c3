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

/* The bound column of ir_op_list.h. */
typedef enum bound_rule {
  BOUND_ABS,       /* |value| */
  BOUND_ADD,       /* bound(a) + bound(b): addf, subf */
  BOUND_MUL,       /* bound(a) * bound(b) */
  BOUND_DIV,       /* bound(a) / |b| */
  BOUND_FMA,       /* bound(a) * bound(b) + bound(c) */
  BOUND_KEEP,      /* the float operand's bound (else |value|) */
  BOUND_SELECT,    /* the chosen operand's bound */
  BOUND_RERUN,     /* the op re-run on the bound buffers */
  BOUND_RERUN_MEM, /* as RERUN; float operands are stored to memory */
  BOUND_NONE,      /* results took their bounds from the yielded / returned values */
} bound_rule;

static const unsigned char bound_rules[IR_OP_COUNT] = {
#define X(name, mnem, nopnd, nres, flags, syn, rule, kind, kernel, bound, ...) BOUND_##bound,
#include "ir_op_list.h"
#undef X
};

#pragma GCC diagnostic push
#pragma GCC diagnostic error "-Wswitch-enum"
ttref_status interp_bound_op(ctx *c, const ir_op *op)
{
  ttref_status st = TTREF_OK;
  if ((int)op->code < 0 || op->code >= IR_OP_COUNT) return TTREF_OK;
  const bound_rule br = (bound_rule)bound_rules[op->code];
  bool any = false;
  for (int i = 0; i < op->nres; i++) any |= is_float_value(&op->res[i]);
  bool mem_float = false;
  if (br == BOUND_RERUN_MEM)
    for (int i = 0; i < op->nopnds; i++) mem_float |= is_float_value(op->opnds[i]);
  if (!any && !mem_float) return TTREF_OK;
  const slot *a = op->nopnds > 0 ? SL(op->opnds[0]) : NULL;
  const slot *b = op->nopnds > 1 ? SL(op->opnds[1]) : NULL;
  slot *r = op->nres > 0 ? SL(&op->res[0]) : NULL;
  switch (br) {
  case BOUND_ADD:
  case BOUND_MUL:
  case BOUND_DIV: {
    const int64_t n = r->n, sa = a->n > 1, sb = b->n > 1;
    if (br == BOUND_MUL)
      for (int64_t i = 0; i < n; i++) r->b[i].f = a->b[i * sa].f * b->b[i * sb].f;
    else if (br == BOUND_DIV)
      for (int64_t i = 0; i < n; i++) r->b[i].f = a->b[i * sa].f / fabs(b->d[i * sb].f);
    else
      for (int64_t i = 0; i < n; i++) r->b[i].f = a->b[i * sa].f + b->b[i * sb].f;
    return TTREF_OK;
  }
  case BOUND_FMA: {
    const slot *z = SL(op->opnds[2]);
    const int64_t n = r->n, sa = a->n > 1, sb = b->n > 1, sz = z->n > 1;
    for (int64_t i = 0; i < n; i++) r->b[i].f = a->b[i * sa].f * b->b[i * sb].f + z->b[i * sz].f;
    return TTREF_OK;
  }
  case BOUND_KEEP:
    if (is_float_value(op->opnds[0])) {
      for (int64_t i = 0; i < r->n; i++) r->b[i].f = a->b[i].f;
      return TTREF_OK;
    }
    break;
  case BOUND_NONE: return TTREF_OK;
  case BOUND_SELECT: {
    const slot *k = SL(op->opnds[0]), *x = SL(op->opnds[1]), *y = SL(op->opnds[2]);
    const int64_t sk = k->n > 1, sx = x->n > 1, sy = y->n > 1;
    for (int64_t i = 0; i < r->n; i++) r->b[i] = k->d[i * sk].i ? x->b[i * sx] : y->b[i * sy];
    return TTREF_OK;
  }
  case BOUND_RERUN:
  case BOUND_RERUN_MEM: {
    slot *sw[MAX_SWAP];
    int n = swap_floats(c, op, sw);
    c->bound_pass = true;
    st = interp_exec_op_value(c, op);
    c->bound_pass = false;
    unswap(sw, n);
    return st;
  }
  case BOUND_ABS: break;
  }
  for (int j = 0; j < op->nres; j++) {
    if (!is_float_value(&op->res[j])) continue;
    slot *o = SL(&op->res[j]);
    for (int64_t i = 0; i < o->n; i++) o->b[i].f = fabs(o->d[i].f);
  }
  return st;
}
#pragma GCC diagnostic pop
