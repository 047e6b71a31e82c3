/*
 * interp_arith.c: elementwise integer and float arithmetic, comparisons,
 * select, math functions and casts.
 */
#include "config.h"
#include "interp_exec.h"

/* ---- integer ops ------------------------------------------------------------------ */

/* addi/subi/muli with `overflow<nsw>` / `overflow<nuw>`: a wrapped result is
 * poison in LLVM; the value stays the wrapped one, the case is reported. */
static void check_overflow(ctx *c, const ir_op *op, const interp_elem *A, const interp_elem *B, int64_t sa, int64_t sb,
                           int64_t n, int bits)
{
  const ir_attr *fl = ir_op_attr(op, "overflowFlags");
  if (!fl || !fl->s || (op->code != IR_OP_ADDI && op->code != IR_OP_SUBI && op->code != IR_OP_MULI)) return;
  const bool nsw = strstr(fl->s, "nsw") != NULL, nuw = strstr(fl->s, "nuw") != NULL;
  for (int64_t i = 0; i < n; i++) {
    __int128 x = sval(bits, A[i * sa].i), y = sval(bits, B[i * sb].i);
    unsigned __int128 ux = uval(bits, A[i * sa].i), uy = uval(bits, B[i * sb].i);
    __int128 r = op->code == IR_OP_ADDI ? x + y : op->code == IR_OP_SUBI ? x - y : x * y;
    bool bad = nsw && (r < smin_of(bits) || r > smax_of(bits));
    if (nuw && !bad) {
      if (op->code == IR_OP_SUBI) bad = ux < uy;
      else bad = (op->code == IR_OP_ADDI ? ux + uy : ux * uy) > umax_of(bits);
    }
    if (bad) interp_note_ub(c, op, INTERP_UB_OVERFLOW, i);
  }
}

ttref_status interp_op_int_binary(ctx *c, const ir_op *op)
{
  const slot *a = SL(op->opnds[0]), *b = SL(op->opnds[1]);
  slot *r = SL(&op->res[0]);
  const int bits = elem_bits(op->opnds[0]);
  const int64_t n = LANES2(a, b);
  const int64_t sa = a->n > 1, sb = b->n > 1;
  const interp_elem *A = a->d, *B = b->d;
  interp_elem *R = r->d;
  r->n = n;
  switch (op->code) {
  case IR_OP_ADDI:
    for (int64_t i = 0; i < n; i++) R[i].i = wrap_int(bits, (int64_t)((uint64_t)A[i * sa].i + (uint64_t)B[i * sb].i));
    break;
  case IR_OP_SUBI:
    for (int64_t i = 0; i < n; i++) R[i].i = wrap_int(bits, (int64_t)((uint64_t)A[i * sa].i - (uint64_t)B[i * sb].i));
    break;
  case IR_OP_MULI:
    for (int64_t i = 0; i < n; i++) R[i].i = wrap_int(bits, (int64_t)((uint64_t)A[i * sa].i * (uint64_t)B[i * sb].i));
    break;
  case IR_OP_ANDI:
    for (int64_t i = 0; i < n; i++) R[i].i = A[i * sa].i & B[i * sb].i;
    break;
  case IR_OP_ORI:
    for (int64_t i = 0; i < n; i++) R[i].i = A[i * sa].i | B[i * sb].i;
    break;
  case IR_OP_XORI:
    for (int64_t i = 0; i < n; i++) R[i].i = wrap_int(bits, A[i * sa].i ^ B[i * sb].i);
    break;
  case IR_OP_MINSI:
    for (int64_t i = 0; i < n; i++) R[i].i = sval(bits, A[i * sa].i) <= sval(bits, B[i * sb].i) ? A[i * sa].i : B[i * sb].i;
    break;
  case IR_OP_MAXSI:
    for (int64_t i = 0; i < n; i++) R[i].i = sval(bits, A[i * sa].i) >= sval(bits, B[i * sb].i) ? A[i * sa].i : B[i * sb].i;
    break;
  case IR_OP_MINUI:
    for (int64_t i = 0; i < n; i++) R[i].i = uval(bits, A[i * sa].i) <= uval(bits, B[i * sb].i) ? A[i * sa].i : B[i * sb].i;
    break;
  case IR_OP_MAXUI:
    for (int64_t i = 0; i < n; i++) R[i].i = uval(bits, A[i * sa].i) >= uval(bits, B[i * sb].i) ? A[i * sa].i : B[i * sb].i;
    break;
  case IR_OP_SHLI:
    for (int64_t i = 0; i < n; i++) {
      uint64_t s = uval(bits, B[i * sb].i);
      if (s >= (uint64_t)bits) {
        interp_note_ub(c, op, INTERP_UB_SHIFT, i);
        R[i].i = 0;
      } else {
        R[i].i = wrap_int(bits, (int64_t)((uint64_t)A[i * sa].i << s));
      }
    }
    break;
  case IR_OP_SHRUI:
    for (int64_t i = 0; i < n; i++) {
      uint64_t s = uval(bits, B[i * sb].i);
      if (s >= (uint64_t)bits) {
        interp_note_ub(c, op, INTERP_UB_SHIFT, i);
        R[i].i = 0;
      } else {
        R[i].i = wrap_int(bits, (int64_t)(uval(bits, A[i * sa].i) >> s));
      }
    }
    break;
  case IR_OP_SHRSI:
    for (int64_t i = 0; i < n; i++) {
      uint64_t s = uval(bits, B[i * sb].i);
      int64_t x = sval(bits, A[i * sa].i);
      if (s >= (uint64_t)bits) {
        interp_note_ub(c, op, INTERP_UB_SHIFT, i);
        s = (uint64_t)bits - 1; /* sign fill, like NVPTX's clamped shr.s */
        if (bits == 1) s = 0;
      }
      R[i].i = wrap_int(bits, x >> s);
    }
    break;
  case IR_OP_DIVSI:
  case IR_OP_REMSI:
  case IR_OP_CEILDIVSI:
  case IR_OP_FLOORDIVSI:
    for (int64_t i = 0; i < n; i++) {
      int64_t x = sval(bits, A[i * sa].i), y = sval(bits, B[i * sb].i), q, rm;
      if (y == 0) {
        interp_note_ub(c, op, INTERP_UB_DIV_ZERO, i);
        R[i].i = 0;
        continue;
      }
      if (x == smin_of(bits) && y == -1) {
        interp_note_ub(c, op, INTERP_UB_DIV_OVERFLOW, i);
        q = x; /* wraps to MIN; remainder 0 */
        rm = 0;
      } else {
        q = x / y;
        rm = x % y;
      }
      if (op->code == IR_OP_REMSI) R[i].i = wrap_int(bits, rm);
      else if (op->code == IR_OP_DIVSI) R[i].i = wrap_int(bits, q);
      else if (op->code == IR_OP_CEILDIVSI) R[i].i = wrap_int(bits, q + (rm != 0 && ((rm > 0) == (y > 0))));
      else R[i].i = wrap_int(bits, q - (rm != 0 && ((rm < 0) != (y < 0))));
    }
    break;
  case IR_OP_DIVUI:
  case IR_OP_REMUI:
  case IR_OP_CEILDIVUI:
    for (int64_t i = 0; i < n; i++) {
      uint64_t x = uval(bits, A[i * sa].i), y = uval(bits, B[i * sb].i);
      if (y == 0) {
        interp_note_ub(c, op, INTERP_UB_DIV_ZERO, i);
        R[i].i = 0;
        continue;
      }
      uint64_t q = x / y, rm = x % y;
      if (op->code == IR_OP_REMUI) R[i].i = wrap_int(bits, (int64_t)rm);
      else if (op->code == IR_OP_DIVUI) R[i].i = wrap_int(bits, (int64_t)q);
      else R[i].i = wrap_int(bits, (int64_t)(q + (rm != 0)));
    }
    break;
  case IR_OP_MULHIUI:
    for (int64_t i = 0; i < n; i++) {
      unsigned __int128 p = (unsigned __int128)uval(bits, A[i * sa].i) * uval(bits, B[i * sb].i);
      R[i].i = wrap_int(bits, (int64_t)(uint64_t)(p >> bits));
    }
    break;
  default:
    return interp_fault(c, op, TTREF_E_INTERNAL, "internal: '%s' is not an integer binary op", ir_op_name(op->code));
  }
  if (op->nattrs && c->L->debug) check_overflow(c, op, A, B, sa, sb, n, bits);
  return TTREF_OK;
}

/* cmpi: the predicate chosen once per op, one loop per predicate (xs/ys signed, xu/yu unsigned views) */
#define CMPI_LIST(X)                                                                                        \
  X(EQ, xu == yu) X(NE, xu != yu) X(SLT, xs < ys) X(SLE, xs <= ys) X(SGT, xs > ys) X(SGE, xs >= ys)          \
  X(ULT, xu < yu) X(ULE, xu <= yu) X(UGT, xu > yu) X(UGE, xu >= yu)

ttref_status interp_op_cmpi(ctx *c, const ir_op *op)
{
  const slot *a = SL(op->opnds[0]), *b = SL(op->opnds[1]);
  slot *r = SL(&op->res[0]);
  const int bits = elem_bits(op->opnds[0]);
  const int64_t n = LANES2(a, b), sa = a->n > 1, sb = b->n > 1;
  const int pred = (int)ir_op_attr_int(op, "predicate", 0);
  const interp_elem *A = a->d, *B = b->d;
  interp_elem *R = r->d;
  r->n = n;
  switch (pred) {
#define X(P, E)                                                                    \
  case IR_CMPI_##P:                                                                \
    for (int64_t i = 0; i < n; i++) {                                              \
      const int64_t xs = sval(bits, A[i * sa].i), ys = sval(bits, B[i * sb].i);    \
      const uint64_t xu = uval(bits, A[i * sa].i), yu = uval(bits, B[i * sb].i);   \
      (void)xs, (void)ys, (void)xu, (void)yu;                                      \
      R[i].i = (E);                                                                \
    }                                                                              \
    break;
    CMPI_LIST(X)
#undef X
  default: return interp_fault(c, op, TTREF_E_INPUT, "unknown cmpi predicate %d", pred);
  }
  return TTREF_OK;
}

/* ---- float ops ---------------------------------------------------------------------- */

/*
 * --contract models LLVM's FMA contraction (Triton's default enable_fp_fusion):
 * addf/subf whose operand is a mulf with no other use becomes one fused
 * multiply-add, operand 0 tried first (as LLVM's DAG combiner does).
 */
static const ir_op *contractible_mul(const ctx *c, const ir_op *user, const ir_value *v)
{
  if (v->def && v->def->parent != user->parent) return NULL; /* LLVM fuses within a basic block */
  const ir_op *d = v->def;
  if (!d || d->code != IR_OP_MULF || d->parent != v->def->parent) return NULL;
  return c->fr->fp->uses[v->id] == 1 ? d : NULL;
}

static ttref_status op_contracted(ctx *c, const ir_op *op, const ir_op *mul, int mul_pos)
{
  const slot *x = SL(mul->opnds[0]), *y = SL(mul->opnds[1]), *z = SL(op->opnds[1 - mul_pos]);
  slot *r = SL(&op->res[0]);
  const int f = fmt_of(elem_scalar(&op->res[0]));
  int64_t n = LANES2(x, y);
  if (z->n > n) n = z->n;
  const int64_t sx = x->n > 1, sy = y->n > 1, sz = z->n > 1;
  /* a*b + z; a*b - z = fma(a, b, -z); z - a*b = fma(-a, b, z) */
  const double zs = (op->code == IR_OP_SUBF && mul_pos == 0) ? -1.0 : 1.0;
  const double xs = (op->code == IR_OP_SUBF && mul_pos == 1) ? -1.0 : 1.0;
  r->n = n;
  for (int64_t i = 0; i < n; i++)
    r->d[i].f = rnd(c, f, fp_fma((fp_format)f, xs * x->d[i * sx].f, y->d[i * sy].f, zs * z->d[i * sz].f));
  return TTREF_OK;
}

/*
 * One typed loop per (float binary op, rounding class), expanded from
 * interp_fbin_list.h: R[i] = op(A[i*sa], B[i*sb]) with the rounding hoisted out
 * of the loop. Classes: _x exact (precise mode, f64 without --ftz, or an exact
 * op), _s f32 without --ftz (one conversion through float rounds to nearest
 * even), _g any other format through rnd(). Strides are any (reductions read
 * pairs at stride 2); R may alias A or B at the same or a higher index.
 */
#define X(NAME, E, RND)                                                                                          \
  static void fbin_##NAME##_x(interp_elem *R, const interp_elem *A, int64_t sa, const interp_elem *B, int64_t sb, \
                              int64_t n)                                                                         \
  {                                                                                                              \
    for (int64_t i = 0; i < n; i++) {                                                                            \
      const double x = A[i * sa].f, y = B[i * sb].f;                                                             \
      R[i].f = (E);                                                                                              \
    }                                                                                                            \
  }                                                                                                              \
  static void fbin_##NAME##_s(interp_elem *R, const interp_elem *A, int64_t sa, const interp_elem *B, int64_t sb, \
                              int64_t n)                                                                         \
  {                                                                                                              \
    for (int64_t i = 0; i < n; i++) {                                                                            \
      const double x = A[i * sa].f, y = B[i * sb].f;                                                             \
      R[i].f = RND ? (double)(float)(E) : (E);                                                                   \
    }                                                                                                            \
  }                                                                                                              \
  static void fbin_##NAME##_g(const ctx *c, int f, interp_elem *R, const interp_elem *A, int64_t sa,             \
                              const interp_elem *B, int64_t sb, int64_t n)                                       \
  {                                                                                                              \
    for (int64_t i = 0; i < n; i++) {                                                                            \
      const double x = A[i * sa].f, y = B[i * sb].f;                                                             \
      R[i].f = RND ? rnd(c, f, (E)) : (E);                                                                       \
    }                                                                                                            \
  }
#include "interp_fbin_list.h"
#undef X

bool interp_fbin_loop(const ctx *c, ir_opcode code, int f, interp_elem *R, const interp_elem *A, int64_t sa,
                      const interp_elem *B, int64_t sb, int64_t n)
{
  const bool ftz = c->L->ftz && !c->precise;
  const int cls = (c->precise || (f == FP_F64 && !ftz)) ? 0 : (f == FP_F32 && !ftz) ? 1 : 2;
  switch (code) {
#define X(NAME, E, RND)                                                   \
  case IR_OP_##NAME:                                                      \
    if (cls == 0 || !(RND)) fbin_##NAME##_x(R, A, sa, B, sb, n);          \
    else if (cls == 1) fbin_##NAME##_s(R, A, sa, B, sb, n);               \
    else fbin_##NAME##_g(c, f, R, A, sa, B, sb, n);                       \
    return true;
#include "interp_fbin_list.h"
#undef X
  default:
    return false;
  }
}

ttref_status interp_op_float_binary(ctx *c, const ir_op *op)
{
  if (c->L->contract && !c->precise && (op->code == IR_OP_ADDF || op->code == IR_OP_SUBF)) {
    const ir_op *m;
    if ((m = contractible_mul(c, op, op->opnds[0]))) return op_contracted(c, op, m, 0);
    if ((m = contractible_mul(c, op, op->opnds[1]))) return op_contracted(c, op, m, 1);
  }
  const slot *a = SL(op->opnds[0]), *b = SL(op->opnds[1]);
  slot *r = SL(&op->res[0]);
  const int f = fmt_of(elem_scalar(&op->res[0]));
  const int64_t n = LANES2(a, b), sa = a->n > 1, sb = b->n > 1;
  const interp_elem *A = a->d, *B = b->d;
  interp_elem *R = r->d;
  r->n = n;
  if (op->code == IR_OP_SUBF && c->bound_pass) { /* magnitudes add */
    for (int64_t i = 0; i < n; i++) R[i].f = A[i * sa].f + B[i * sb].f;
    return TTREF_OK;
  }
  if (interp_fbin_loop(c, op->code, f, R, A, sa, B, sb, n)) return TTREF_OK;
  if (op->code == IR_OP_MATH_POWF) {
    for (int64_t i = 0; i < n; i++) R[i].f = fp_math_eval(FP_MATH_POW, c->precise ? FP_F64 : (fp_format)f, A[i * sa].f, B[i * sb].f);
    return TTREF_OK;
  }
  return interp_fault(c, op, TTREF_E_INTERNAL, "internal: '%s' is not a float binary op", ir_op_name(op->code));
}

ttref_status interp_op_cmpf(ctx *c, const ir_op *op)
{
  const slot *a = SL(op->opnds[0]), *b = SL(op->opnds[1]);
  slot *r = SL(&op->res[0]);
  const int64_t n = LANES2(a, b), sa = a->n > 1, sb = b->n > 1;
  const int pred = (int)ir_op_attr_int(op, "predicate", 0);
  r->n = n;
  for (int64_t i = 0; i < n; i++) {
    double x = a->d[i * sa].f, y = b->d[i * sb].f;
    bool uno = isnan(x) || isnan(y), v;
    switch (pred) {
    case IR_CMPF_FALSE: v = false; break;
    case IR_CMPF_OEQ: v = !uno && x == y; break;
    case IR_CMPF_OGT: v = !uno && x > y; break;
    case IR_CMPF_OGE: v = !uno && x >= y; break;
    case IR_CMPF_OLT: v = !uno && x < y; break;
    case IR_CMPF_OLE: v = !uno && x <= y; break;
    case IR_CMPF_ONE: v = !uno && x != y; break;
    case IR_CMPF_ORD: v = !uno; break;
    case IR_CMPF_UEQ: v = uno || x == y; break;
    case IR_CMPF_UGT: v = uno || x > y; break;
    case IR_CMPF_UGE: v = uno || x >= y; break;
    case IR_CMPF_ULT: v = uno || x < y; break;
    case IR_CMPF_ULE: v = uno || x <= y; break;
    case IR_CMPF_UNE: v = uno || x != y; break;
    case IR_CMPF_UNO: v = uno; break;
    case IR_CMPF_TRUE: v = true; break;
    default: return interp_fault(c, op, TTREF_E_INPUT, "unknown cmpf predicate %d", pred);
    }
    r->d[i].i = v;
  }
  return TTREF_OK;
}

ttref_status interp_op_select(ctx *c, const ir_op *op)
{
  const slot *k = SL(op->opnds[0]), *a = SL(op->opnds[1]), *b = SL(op->opnds[2]);
  slot *r = SL(&op->res[0]);
  int64_t n = LANES2(a, b);
  if (k->n > n) n = k->n;
  const int64_t sk = k->n > 1, sa = a->n > 1, sb = b->n > 1;
  r->n = n;
  for (int64_t i = 0; i < n; i++) r->d[i] = k->d[i * sk].i ? a->d[i * sa] : b->d[i * sb];
  return TTREF_OK;
}

ttref_status interp_op_clampf(ctx *c, const ir_op *op)
{
  const slot *x = SL(op->opnds[0]), *lo = SL(op->opnds[1]), *hi = SL(op->opnds[2]);
  slot *r = SL(&op->res[0]);
  int64_t n = LANES2(x, lo);
  if (hi->n > n) n = hi->n;
  const int64_t sx = x->n > 1, sl = lo->n > 1, sh = hi->n > 1;
  const bool prop = ir_op_attr_int(op, "propagateNan", IR_NAN_NONE) != IR_NAN_NONE;
  r->n = n;
  for (int64_t i = 0; i < n; i++) {
    double v = x->d[i * sx].f;
    if (prop) r->d[i].f = isnan(v) ? v : minimum(maximum(v, lo->d[i * sl].f), hi->d[i * sh].f);
    else r->d[i].f = minnum(maxnum(v, lo->d[i * sl].f), hi->d[i * sh].f);
  }
  return TTREF_OK;
}

ttref_status interp_op_fma(ctx *c, const ir_op *op)
{
  const slot *a = SL(op->opnds[0]), *b = SL(op->opnds[1]), *z = SL(op->opnds[2]);
  slot *r = SL(&op->res[0]);
  const int f = fmt_of(elem_scalar(&op->res[0]));
  int64_t n = LANES2(a, b);
  if (z->n > n) n = z->n;
  const int64_t sa = a->n > 1, sb = b->n > 1, sz = z->n > 1;
  r->n = n;
  for (int64_t i = 0; i < n; i++) {
    double v = c->precise ? fma(a->d[i * sa].f, b->d[i * sb].f, z->d[i * sz].f)
                          : fp_fma((fp_format)f, a->d[i * sa].f, b->d[i * sb].f, z->d[i * sz].f);
    r->d[i].f = rnd(c, f, v);
  }
  return TTREF_OK;
}

/* Unary float math: reference value = the correctly rounded true function. */
ttref_status interp_op_float_unary(ctx *c, const ir_op *op)
{
  const slot *a = SL(op->opnds[0]);
  slot *r = SL(&op->res[0]);
  const int f = fmt_of(elem_scalar(&op->res[0]));
  const int64_t n = a->n;
  fp_math_fn fn;
  r->n = n;
  switch (op->code) {
  case IR_OP_NEGF:
    for (int64_t i = 0; i < n; i++) r->d[i].f = c->bound_pass ? a->d[i].f : -a->d[i].f;
    return TTREF_OK;
  case IR_OP_MATH_ABSF:
    for (int64_t i = 0; i < n; i++) r->d[i].f = fabs(a->d[i].f);
    return TTREF_OK;
  case IR_OP_MATH_FLOOR:
    for (int64_t i = 0; i < n; i++) r->d[i].f = floor(a->d[i].f);
    return TTREF_OK;
  case IR_OP_MATH_CEIL:
    for (int64_t i = 0; i < n; i++) r->d[i].f = ceil(a->d[i].f);
    return TTREF_OK;
  case IR_OP_MATH_TRUNC:
    for (int64_t i = 0; i < n; i++) r->d[i].f = trunc(a->d[i].f);
    return TTREF_OK;
  case IR_OP_MATH_ROUND:
    for (int64_t i = 0; i < n; i++) r->d[i].f = round(a->d[i].f);
    return TTREF_OK;
  case IR_OP_MATH_ROUNDEVEN:
    for (int64_t i = 0; i < n; i++) r->d[i].f = nearbyint(a->d[i].f); /* default mode is RNE */
    return TTREF_OK;
  case IR_OP_MATH_SQRT:
  case IR_OP_PRECISE_SQRT: /* binary64 sqrt rounded once is correctly rounded for every narrower format */
    for (int64_t i = 0; i < n; i++) r->d[i].f = rnd(c, f, sqrt(a->d[i].f));
    return TTREF_OK;
  case IR_OP_MATH_EXP: fn = FP_MATH_EXP; break;
  case IR_OP_MATH_EXP2: fn = FP_MATH_EXP2; break;
  case IR_OP_MATH_LOG: fn = FP_MATH_LOG; break;
  case IR_OP_MATH_LOG2: fn = FP_MATH_LOG2; break;
  case IR_OP_MATH_SIN: fn = FP_MATH_SIN; break;
  case IR_OP_MATH_COS: fn = FP_MATH_COS; break;
  case IR_OP_MATH_RSQRT: fn = FP_MATH_RSQRT; break;
  case IR_OP_MATH_ERF: fn = FP_MATH_ERF; break;
  case IR_OP_MATH_TANH: fn = FP_MATH_TANH; break;
  case IR_OP_MATH_TAN: fn = FP_MATH_TAN; break;
  case IR_OP_MATH_LOG1P: fn = FP_MATH_LOG1P; break;
  case IR_OP_MATH_EXPM1: fn = FP_MATH_EXPM1; break;
  default:
    return interp_fault(c, op, TTREF_E_INTERNAL, "internal: '%s' is not a float unary op", ir_op_name(op->code));
  }
  const fp_format ef = c->precise ? FP_F64 : (fp_format)f;
  for (int64_t i = 0; i < n; i++) {
    double v;
    if (!fp_math_try_fast(fn, ef, a->d[i].f, &v)) v = fp_math_eval(fn, ef, a->d[i].f, 0.0);
    r->d[i].f = rnd(c, f, v);
  }
  return TTREF_OK;
}

ttref_status interp_op_int_unary(ctx *c, const ir_op *op)
{
  const slot *a = SL(op->opnds[0]);
  slot *r = SL(&op->res[0]);
  const int bits = elem_bits(op->opnds[0]);
  r->n = a->n;
  for (int64_t i = 0; i < a->n; i++) {
    int64_t x = a->d[i].i;
    uint64_t u = uval(bits, x);
    switch (op->code) {
    case IR_OP_MATH_ABSI: r->d[i].i = wrap_int(bits, x < 0 ? (int64_t)(0 - (uint64_t)x) : x); break;
    case IR_OP_MATH_CTPOP: r->d[i].i = __builtin_popcountll(u); break;
    case IR_OP_MATH_CTLZ: r->d[i].i = u ? __builtin_clzll(u) - (64 - bits) : bits; break;
    case IR_OP_MATH_CTTZ: r->d[i].i = u ? __builtin_ctzll(u) : bits; break;
    default:
      return interp_fault(c, op, TTREF_E_INTERNAL, "internal: '%s' is not an int unary op", ir_op_name(op->code));
    }
  }
  return TTREF_OK;
}

/* ---- casts --------------------------------------------------------------------------- */
/* Round-to-odd conversion of a 64-bit integer magnitude to binary64: exact when it
 * fits in 53 bits, otherwise the sticky bit is kept in the last place so that one
 * further rounding to any format of <= 51 bits is correct (no double rounding). */
static double u64_to_double_rto(uint64_t u)
{
  if (u < (UINT64_C(1) << 53)) return (double)u;
  int lz = __builtin_clzll(u);
  int drop = 11 - lz; /* bits below the 53-bit significand */
  uint64_t keep = u >> drop;
  if (u & ((UINT64_C(1) << drop) - 1)) keep |= 1;
  return ldexp((double)keep, drop);
}

static double int_to_float(int f, int64_t v, bool is_unsigned, int bits)
{
  uint64_t mag;
  bool neg = false;
  if (is_unsigned) mag = uval(bits, v);
  else {
    int64_t s = sval(bits, v);
    neg = s < 0;
    mag = neg ? 0 - (uint64_t)s : (uint64_t)s;
  }
  double d;
  if (f == FP_F64) d = (double)mag; /* one rounding */
  else d = fp_round_to((fp_format)f, u64_to_double_rto(mag), FP_RNE, FP_OVF_INF);
  return neg ? -d : d;
}

ttref_status interp_op_cast(ctx *c, const ir_op *op)
{
  const slot *a = SL(op->opnds[0]);
  slot *r = SL(&op->res[0]);
  const ir_scalar ss = elem_scalar(op->opnds[0]), ds = elem_scalar(&op->res[0]);
  const int sbits = ir_scalar_bits(ss), dbits = ir_scalar_bits(ds);
  const int sf = fmt_of(ss), df = fmt_of(ds);
  const int64_t n = a->n;
  r->n = n;
  switch (op->code) {
  case IR_OP_EXTSI:
  case IR_OP_INDEX_CAST:
    for (int64_t i = 0; i < n; i++) r->d[i].i = wrap_int(dbits, sval(sbits, a->d[i].i));
    break;
  case IR_OP_EXTUI:
    for (int64_t i = 0; i < n; i++) r->d[i].i = wrap_int(dbits, (int64_t)uval(sbits, a->d[i].i));
    break;
  case IR_OP_TRUNCI:
    for (int64_t i = 0; i < n; i++) r->d[i].i = wrap_int(dbits, a->d[i].i);
    break;
  case IR_OP_EXTF: /* exact */
    for (int64_t i = 0; i < n; i++) r->d[i].f = a->d[i].f;
    break;
  case IR_OP_TRUNCF:
    for (int64_t i = 0; i < n; i++) r->d[i].f = rnd(c, df, a->d[i].f);
    break;
  case IR_OP_FP_TO_FP: {
    bool down = ir_scalar_bits(ds) < ir_scalar_bits(ss) || (ds == IR_S_BF16 && ss == IR_S_F16) ||
                (ds == IR_S_F16 && ss == IR_S_BF16) || (dbits == 8 && sbits == 8);
    fp_round rm = ir_op_attr_int(op, "rounding", IR_ROUND_RTNE) == IR_ROUND_RTZ ? FP_RTZ : FP_RNE;
    /* NVIDIA converts to fp8 with cvt.rn.satfinite: saturate to max finite, NaN stays NaN.
     * RTZ never rounds a finite value past max finite, and keeps inf (bit truncation). */
    fp_overflow ov = (dbits == 8 && rm == FP_RNE) ? FP_OVF_SAT : FP_OVF_INF;
    for (int64_t i = 0; i < n; i++) r->d[i].f = down && !c->precise ? fp_round_to((fp_format)df, a->d[i].f, rm, ov) : a->d[i].f;
    break;
  }
  case IR_OP_SITOFP:
  case IR_OP_UITOFP:
    for (int64_t i = 0; i < n; i++) r->d[i].f = int_to_float(c->precise ? FP_F64 : df, a->d[i].i, op->code == IR_OP_UITOFP, sbits);
    break;
  case IR_OP_FPTOSI:
  case IR_OP_FPTOUI: {
    const bool u = op->code == IR_OP_FPTOUI;
    /* saturate like PTX cvt.rzi; NaN gives 0 (documented choice + counted) */
    const double lo = u ? 0.0 : (double)smin_of(dbits);
    const double hi = u ? ldexp(1.0, dbits) : ldexp(1.0, dbits - 1); /* exclusive */
    for (int64_t i = 0; i < n; i++) {
      double v = trunc(a->d[i].f);
      if (isnan(v)) {
        interp_note_ub(c, op, INTERP_UB_FPTOI, i);
        r->d[i].i = 0;
      } else if (v < lo) {
        interp_note_ub(c, op, INTERP_UB_FPTOI, i);
        r->d[i].i = u ? 0 : smin_of(dbits);
      } else if (v >= hi) {
        interp_note_ub(c, op, INTERP_UB_FPTOI, i);
        r->d[i].i = u ? wrap_int(dbits, (int64_t)umax_of(dbits)) : smax_of(dbits);
      } else if (u) {
        r->d[i].i = wrap_int(dbits, (int64_t)(uint64_t)v);
      } else {
        r->d[i].i = wrap_int(dbits, (int64_t)v);
      }
    }
    break;
  }
  case IR_OP_BITCAST:
  case IR_OP_TT_BITCAST: {
    const bool sflt = ir_scalar_is_float(ss), dflt = ir_scalar_is_float(ds);
    for (int64_t i = 0; i < n; i++) {
      int64_t bitsv = sflt ? (int64_t)fp_encode((fp_format)sf, a->d[i].f, FP_RNE, FP_OVF_INF) : a->d[i].i;
      if (dflt) r->d[i].f = fp_decode((fp_format)df, uval(dbits, bitsv));
      else r->d[i].i = (ss == IR_S_PTR || ds == IR_S_PTR) ? bitsv : wrap_int(dbits, bitsv);
    }
    break;
  }
  case IR_OP_PTR_TO_INT:
  case IR_OP_INT_TO_PTR:
    for (int64_t i = 0; i < n; i++) r->d[i].i = op->code == IR_OP_PTR_TO_INT ? wrap_int(dbits, a->d[i].i) : a->d[i].i;
    break;
  default:
    return interp_fault(c, op, TTREF_E_INTERNAL, "internal: '%s' is not a cast", ir_op_name(op->code));
  }
  return TTREF_OK;
}
