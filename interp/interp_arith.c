/*
 * interp_arith.c: elementwise integer and float arithmetic, comparisons,
 * select, math functions and casts. The regular rows of ir_op_list.h get one
 * typed loop each, generated from their kind and kernel columns.
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

/* Scalar kernels of the integer rows of ir_op_list.h (kind IBIN / IUN): x, y raw
 * (sign-extended) elements of a bits-wide type; the result wrapped to bits. The
 * ones with undefined cases note them (interp_note_ub) for lane i. */
static inline int64_t ik_add(int bits, int64_t x, int64_t y)
{
  return wrap_int(bits, (int64_t)((uint64_t)x + (uint64_t)y));
}
static inline int64_t ik_sub(int bits, int64_t x, int64_t y)
{
  return wrap_int(bits, (int64_t)((uint64_t)x - (uint64_t)y));
}
static inline int64_t ik_mul(int bits, int64_t x, int64_t y)
{
  return wrap_int(bits, (int64_t)((uint64_t)x * (uint64_t)y));
}

static inline int64_t ik_mulhiu(int bits, int64_t x, int64_t y)
{
  unsigned __int128 p = (unsigned __int128)uval(bits, x) * uval(bits, y);
  return wrap_int(bits, (int64_t)(uint64_t)(p >> bits));
}

/* shift amount >= width: 0 for shl/shru, sign fill for shrs (like NVPTX's clamped shr.s) */
static inline int64_t ik_shl(ctx *c, const ir_op *op, int64_t i, int bits, int64_t x, int64_t y)
{
  uint64_t s = uval(bits, y);
  if (s < (uint64_t)bits) return wrap_int(bits, (int64_t)((uint64_t)x << s));
  interp_note_ub(c, op, INTERP_UB_SHIFT, i);
  return 0;
}

static inline int64_t ik_shru(ctx *c, const ir_op *op, int64_t i, int bits, int64_t x, int64_t y)
{
  uint64_t s = uval(bits, y);
  if (s < (uint64_t)bits) return wrap_int(bits, (int64_t)(uval(bits, x) >> s));
  interp_note_ub(c, op, INTERP_UB_SHIFT, i);
  return 0;
}

static inline int64_t ik_shrs(ctx *c, const ir_op *op, int64_t i, int bits, int64_t x, int64_t y)
{
  uint64_t s = uval(bits, y);
  if (s >= (uint64_t)bits) {
    interp_note_ub(c, op, INTERP_UB_SHIFT, i);
    s = bits == 1 ? 0 : (uint64_t)bits - 1;
  }
  return wrap_int(bits, sval(bits, x) >> s);
}

/* the four integer divisions: quotient rounded toward zero, up or down, or the remainder */
enum { IK_DIV, IK_CEIL, IK_FLOOR, IK_REM };

/* signed: x/0 = 0 (noted), MIN/-1 = MIN with remainder 0 (noted) */
static inline int64_t ik_sdiv(ctx *c, const ir_op *op, int64_t i, int bits, int64_t x0, int64_t y0, int kind)
{
  const int64_t x = sval(bits, x0), y = sval(bits, y0);
  int64_t q, rm;
  if (y == 0) {
    interp_note_ub(c, op, INTERP_UB_DIV_ZERO, i);
    return 0;
  }
  if (x == smin_of(bits) && y == -1) {
    interp_note_ub(c, op, INTERP_UB_DIV_OVERFLOW, i);
    q = x;
    rm = 0;
  } else {
    q = x / y;
    rm = x % y;
  }
  switch (kind) {
  case IK_REM: return wrap_int(bits, rm);
  case IK_CEIL: return wrap_int(bits, q + (rm != 0 && ((rm > 0) == (y > 0))));
  case IK_FLOOR: return wrap_int(bits, q - (rm != 0 && ((rm < 0) != (y < 0))));
  default: return wrap_int(bits, q);
  }
}

/* unsigned: x/0 = 0 (noted) */
static inline int64_t ik_udiv(ctx *c, const ir_op *op, int64_t i, int bits, int64_t x0, int64_t y0, int kind)
{
  const uint64_t x = uval(bits, x0), y = uval(bits, y0);
  if (y == 0) {
    interp_note_ub(c, op, INTERP_UB_DIV_ZERO, i);
    return 0;
  }
  const uint64_t q = x / y, rm = x % y;
  switch (kind) {
  case IK_REM: return wrap_int(bits, (int64_t)rm);
  case IK_CEIL: return wrap_int(bits, (int64_t)(q + (rm != 0)));
  default: return wrap_int(bits, (int64_t)q);
  }
}

/* ---- float ops ---------------------------------------------------------------------- */

/*
 * --contract models LLVM's FMA contraction (Triton's default enable_fp_fusion):
 * addf/subf whose operand is a mulf with no other use becomes one fused
 * multiply-add, operand 0 tried first (as LLVM's DAG combiner does).
 */
static const ir_op *contractible_mul(const ctx *c, const ir_op *user, const ir_value *v)
{
  const ir_op *d = v->def;
  if (!d || d->code != IR_OP_MULF || d->parent != user->parent) return NULL; /* LLVM fuses within a basic block */
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

/* The float binary rows (kind FBIN/FBINX) share this set-up: --contract fuses an
 * addf/subf with a single-use mulf, and the bound pass adds the magnitudes of
 * a subf. Returns true when that handled the op (its status in *out_st). */
static bool fbin_special(ctx *c, const ir_op *op, ttref_status *out_st)
{
  if (c->L->contract && !c->precise && (op->code == IR_OP_ADDF || op->code == IR_OP_SUBF)) {
    const ir_op *m;
    if ((m = contractible_mul(c, op, op->opnds[0]))) return *out_st = op_contracted(c, op, m, 0), true;
    if ((m = contractible_mul(c, op, op->opnds[1]))) return *out_st = op_contracted(c, op, m, 1), true;
  }
  if (op->code == IR_OP_SUBF && c->bound_pass) { /* magnitudes add */
    const slot *a = SL(op->opnds[0]), *b = SL(op->opnds[1]);
    slot *r = SL(&op->res[0]);
    const int64_t n = LANES2(a, b), sa = a->n > 1, sb = b->n > 1;
    r->n = n;
    for (int64_t i = 0; i < n; i++) r->d[i].f = a->d[i * sa].f + b->d[i * sb].f;
    return *out_st = TTREF_OK, true;
  }
  return false;
}

/* One family of loops per row of ir_op_list.h, specialised by its kind and kernel column. */

/* FBIN/FBINX: R[i] = E(A[i*sa], B[i*sb]) with the rounding hoisted out of the
 * loop, one loop per class: _x exact (precise mode, f64 without --ftz, or an
 * FBINX kernel), _s f32 without --ftz (one conversion through float rounds to
 * nearest even), _g any other format through rnd(). Strides are any
 * (reductions read pairs at stride 2); R may alias A or B at the same or a
 * higher index. fbin_NAME picks the class; interp_k_NAME runs the op. */
#define FBIN_LOOPS(NAME, E, RND)                                                                                       \
  static void fbin_##NAME##_x(interp_elem *R, const interp_elem *A, int64_t sa, const interp_elem *B, int64_t sb,      \
                              int64_t n)                                                                               \
  {                                                                                                                    \
    for (int64_t i = 0; i < n; i++) {                                                                                  \
      const double x = A[i * sa].f, y = B[i * sb].f;                                                                   \
      R[i].f = (E);                                                                                                    \
    }                                                                                                                  \
  }                                                                                                                    \
  static void fbin_##NAME##_s(interp_elem *R, const interp_elem *A, int64_t sa, const interp_elem *B, int64_t sb,      \
                              int64_t n)                                                                               \
  {                                                                                                                    \
    for (int64_t i = 0; i < n; i++) {                                                                                  \
      const double x = A[i * sa].f, y = B[i * sb].f;                                                                   \
      R[i].f = (double)(float)(E);                                                                                     \
    }                                                                                                                  \
  }                                                                                                                    \
  static void fbin_##NAME##_g(const ctx *c, int f, interp_elem *R, const interp_elem *A, int64_t sa,                   \
                              const interp_elem *B, int64_t sb, int64_t n)                                             \
  {                                                                                                                    \
    for (int64_t i = 0; i < n; i++) {                                                                                  \
      const double x = A[i * sa].f, y = B[i * sb].f;                                                                   \
      R[i].f = rnd(c, f, (E));                                                                                         \
    }                                                                                                                  \
  }                                                                                                                    \
  static void fbin_##NAME(const ctx *c, int f, interp_elem *R, const interp_elem *A, int64_t sa, const interp_elem *B, \
                          int64_t sb, int64_t n)                                                                       \
  {                                                                                                                    \
    const bool ftz = c->L->ftz && !c->precise;                                                                         \
    if (!(RND) || c->precise || (f == FP_F64 && !ftz)) fbin_##NAME##_x(R, A, sa, B, sb, n);                            \
    else if (f == FP_F32 && !ftz) fbin_##NAME##_s(R, A, sa, B, sb, n);                                                 \
    else fbin_##NAME##_g(c, f, R, A, sa, B, sb, n);                                                                    \
  }                                                                                                                    \
  static void fbin_##NAME##_scan(const ctx *c, int f, interp_elem *D, const interp_elem *S, int64_t L, bool rev,       \
                                 bool swap)                                                                            \
  {                                                                                                                    \
    const bool ftz = c->L->ftz && !c->precise;                                                                         \
    const int cls = !(RND) || c->precise || (f == FP_F64 && !ftz) ? 0 : f == FP_F32 && !ftz ? 1 : 2;                   \
    int64_t k = rev ? L - 1 : 0;                                                                                       \
    D[k] = S[k];                                                                                                       \
    for (int64_t step = 1; step < L; step++) {                                                                         \
      const int64_t kp = k;                                                                                            \
      k = rev ? L - 1 - step : step;                                                                                   \
      const double x = swap ? S[k].f : D[kp].f, y = swap ? D[kp].f : S[k].f, e = (E);                                  \
      D[k].f = cls == 0 ? e : cls == 1 ? (double)(float)e : rnd(c, f, e);                                              \
    }                                                                                                                  \
  }                                                                                                                    \
  static const interp_fbin_kernels fbk_##NAME = {fbin_##NAME, fbin_##NAME##_scan};                                     \
  ttref_status interp_k_##NAME(ctx *c, const ir_op *op)                                                                \
  {                                                                                                                    \
    ttref_status st;                                                                                                   \
    if (fbin_special(c, op, &st)) return st;                                                                           \
    const slot *a = SL(op->opnds[0]), *b = SL(op->opnds[1]);                                                           \
    slot *r = SL(&op->res[0]);                                                                                         \
    const int64_t n = LANES2(a, b);                                                                                    \
    r->n = n;                                                                                                          \
    fbin_##NAME(c, fmt_of(elem_scalar(&op->res[0])), r->d, a->d, a->n > 1, b->d, b->n > 1, n);                         \
    return TTREF_OK;                                                                                                   \
  }
#define KDEF_FBIN(NAME, E)  FBIN_LOOPS(NAME, E, 1)
#define KDEF_FBINX(NAME, E) FBIN_LOOPS(NAME, E, 0)

/* FUN: R[i] = E(A[i]), x the operand, f the result format (E rounds itself where it must) */
#define KDEF_FUN(NAME, E)                                                                                              \
  ttref_status interp_k_##NAME(ctx *c, const ir_op *op)                                                                \
  {                                                                                                                    \
    const slot *a = SL(op->opnds[0]);                                                                                  \
    slot *r = SL(&op->res[0]);                                                                                         \
    const int f = fmt_of(elem_scalar(&op->res[0]));                                                                    \
    const int64_t n = a->n;                                                                                            \
    const interp_elem *A = a->d;                                                                                       \
    interp_elem *R = r->d;                                                                                             \
    (void)f;                                                                                                           \
    r->n = n;                                                                                                          \
    for (int64_t i = 0; i < n; i++) {                                                                                  \
      const double x = A[i].f;                                                                                         \
      R[i].f = (E);                                                                                                    \
    }                                                                                                                  \
    return TTREF_OK;                                                                                                   \
  }

/* FMATH: the fp_math function, correctly rounded to the result format (binary64 in precise mode) */
#define KDEF_FMATH(NAME, FN)                                                                                           \
  ttref_status interp_k_##NAME(ctx *c, const ir_op *op) { return op_fmath(c, op, FP_MATH_##FN); }

/* IUN: R[i] = E(x = A[i], u = its unsigned view) for a bits-wide integer */
#define KDEF_IUN(NAME, E)                                                                                              \
  ttref_status interp_k_##NAME(ctx *c, const ir_op *op)                                                                \
  {                                                                                                                    \
    const slot *a = SL(op->opnds[0]);                                                                                  \
    slot *r = SL(&op->res[0]);                                                                                         \
    const int bits = elem_bits(op->opnds[0]);                                                                          \
    const int64_t n = a->n;                                                                                            \
    const interp_elem *A = a->d;                                                                                       \
    interp_elem *R = r->d;                                                                                             \
    r->n = n;                                                                                                          \
    for (int64_t i = 0; i < n; i++) {                                                                                  \
      const int64_t x = A[i].i;                                                                                        \
      const uint64_t u = uval(bits, x);                                                                                \
      (void)u;                                                                                                         \
      R[i].i = (E);                                                                                                    \
    }                                                                                                                  \
    return TTREF_OK;                                                                                                   \
  }

/* IBIN: R[i] = E(x = A[i*sa], y = B[i*sb]) for a bits-wide integer; overflow flags checked after */
#define KDEF_IBIN(NAME, E)                                                                                             \
  ttref_status interp_k_##NAME(ctx *c, const ir_op *op)                                                                \
  {                                                                                                                    \
    const slot *a = SL(op->opnds[0]), *b = SL(op->opnds[1]);                                                           \
    slot *r = SL(&op->res[0]);                                                                                         \
    const int bits = elem_bits(op->opnds[0]);                                                                          \
    const int64_t n = LANES2(a, b), sa = a->n > 1, sb = b->n > 1;                                                      \
    const interp_elem *A = a->d, *B = b->d;                                                                            \
    interp_elem *R = r->d;                                                                                             \
    r->n = n;                                                                                                          \
    for (int64_t i = 0; i < n; i++) {                                                                                  \
      const int64_t x = A[i * sa].i, y = B[i * sb].i;                                                                  \
      R[i].i = (E);                                                                                                    \
    }                                                                                                                  \
    if (op->nattrs && c->L->debug) check_overflow(c, op, A, B, sa, sb, n, bits);                                       \
    return TTREF_OK;                                                                                                   \
  }

/* CASTI/CASTF/CASTE: R[i] (its .i, its .f, or the whole element) = E(x = A[i]) converted from type
 * ss to ds (sbits and dbits wide, formats sf and df, sflt and dflt: whether they are floats) */
#define KDEF_CAST(NAME, E, FIELD)                                                                                      \
  ttref_status interp_k_##NAME(ctx *c, const ir_op *op)                                                                \
  {                                                                                                                    \
    const slot *a = SL(op->opnds[0]);                                                                                  \
    slot *r = SL(&op->res[0]);                                                                                         \
    const ir_scalar ss = elem_scalar(op->opnds[0]), ds = elem_scalar(&op->res[0]);                                     \
    const int sbits = ir_scalar_bits(ss), dbits = ir_scalar_bits(ds), sf = fmt_of(ss), df = fmt_of(ds);                \
    const bool sflt = ir_scalar_is_float(ss), dflt = ir_scalar_is_float(ds);                                           \
    const int64_t n = a->n;                                                                                            \
    const interp_elem *A = a->d;                                                                                       \
    interp_elem *R = r->d;                                                                                             \
    (void)sbits, (void)dbits, (void)sf, (void)df, (void)sflt, (void)dflt;                                              \
    r->n = n;                                                                                                          \
    for (int64_t i = 0; i < n; i++) {                                                                                  \
      const interp_elem x = A[i];                                                                                      \
      R[i] FIELD = (E);                                                                                                \
    }                                                                                                                  \
    return TTREF_OK;                                                                                                   \
  }
#define KDEF_CASTI(NAME, E) KDEF_CAST(NAME, E, .i)
#define KDEF_CASTF(NAME, E) KDEF_CAST(NAME, E, .f)
#define KDEF_CASTE(NAME, E) KDEF_CAST(NAME, E, )

/* bitcast (kind CASTE): the operand's bits (a float's encoding in format sf) read as the result
 * type (a float decoded from format df); a pointer keeps its 64-bit address */
static inline interp_elem ek_bitcast(interp_elem x, ir_scalar ss, ir_scalar ds, bool sflt, bool dflt, int sf, int df,
                                     int dbits)
{
  const bool ptr = ss == IR_S_PTR || ds == IR_S_PTR;
  const int64_t bits = sflt ? (int64_t)fp_encode((fp_format)sf, x.f, FP_RNE, FP_OVF_INF) : x.i;
  interp_elem r;
  if (dflt) r.f = fp_decode((fp_format)df, uval(dbits, bits));
  else r.i = ptr ? bits : wrap_int(dbits, bits);
  return r;
}

/* CMP: the predicate set SET (CMPI or CMPF) of ir_pred_list.h; the "predicate" attribute picks
 * one predicate per op, and each has its own loop: R[i] = its value on A[i*sa], B[i*sb] (cmp_CMPI:
 * xs, ys signed and xu, yu unsigned bits-wide views; cmp_CMPF: x, y binary64, uno either NaN). */
#define CMPI_LOOP(P, SPELLING, E)                                                                                      \
  case IR_CMPI_##P:                                                                                                    \
    for (int64_t i = 0; i < n; i++) {                                                                                  \
      const int64_t xs = sval(bits, A[i * sa].i), ys = sval(bits, B[i * sb].i);                                        \
      const uint64_t xu = uval(bits, A[i * sa].i), yu = uval(bits, B[i * sb].i);                                       \
      (void)xs, (void)ys, (void)xu, (void)yu;                                                                          \
      R[i].i = (E);                                                                                                    \
    }                                                                                                                  \
    return true;
#define CMPF_LOOP(P, SPELLING, E)                                                                                      \
  case IR_CMPF_##P:                                                                                                    \
    for (int64_t i = 0; i < n; i++) {                                                                                  \
      const double x = A[i * sa].f, y = B[i * sb].f;                                                                   \
      const bool uno = isnan(x) || isnan(y);                                                                           \
      (void)x, (void)y, (void)uno;                                                                                     \
      R[i].i = (E);                                                                                                    \
    }                                                                                                                  \
    return true;
#define CMPI(P, SPELLING, E) CMPI_LOOP(P, SPELLING, E)
#define CMPF(P, SPELLING, E)
static bool cmp_CMPI(int pred, int bits, interp_elem *R, const interp_elem *A, int64_t sa, const interp_elem *B,
                     int64_t sb, int64_t n)
{
  switch (pred) {
#include "ir_pred_list.h"
  }
  return false;
}
#undef CMPI
#undef CMPF
#define CMPI(P, SPELLING, E)
#define CMPF(P, SPELLING, E) CMPF_LOOP(P, SPELLING, E)
static bool cmp_CMPF(int pred, int bits, interp_elem *R, const interp_elem *A, int64_t sa, const interp_elem *B,
                     int64_t sb, int64_t n)
{
  (void)bits;
  switch (pred) {
#include "ir_pred_list.h"
  }
  return false;
}
#undef CMPI
#undef CMPF
#define KDEF_CMP(NAME, SET)                                                                                            \
  ttref_status interp_k_##NAME(ctx *c, const ir_op *op)                                                                \
  {                                                                                                                    \
    const slot *a = SL(op->opnds[0]), *b = SL(op->opnds[1]);                                                           \
    slot *r = SL(&op->res[0]);                                                                                         \
    const int64_t n = LANES2(a, b);                                                                                    \
    const int pred = (int)ir_op_attr_int(op, "predicate", 0);                                                          \
    r->n = n;                                                                                                          \
    if (!cmp_##SET(pred, elem_bits(op->opnds[0]), r->d, a->d, a->n > 1, b->d, b->n > 1, n))                            \
      return interp_fault(c, op, TTREF_E_INPUT, "unknown %s predicate %d", ir_op_name(op->code), pred);                \
    return TTREF_OK;                                                                                                   \
  }

/* The float ternary kernels (kind FTER): fma rounds once (binary64 in precise mode); clampf's
 * NaN policy (nan_all: propagateNan = all) returns a NaN x, else minNum/maxNum ignore NaNs. */
static inline double fk_fma(const ctx *c, int f, double x, double y, double z)
{
  return rnd(c, f, c->precise ? fma(x, y, z) : fp_fma((fp_format)f, x, y, z));
}
static inline double fk_clamp(double x, double lo, double hi, bool nan_all)
{
  if (nan_all) return isnan(x) ? x : minimum(maximum(x, lo), hi);
  return minnum(maxnum(x, lo), hi);
}

/* FTER: R[i] = E(x = A[i*sa], y = B[i*sb], z = C[i*sc]) in binary64, f the result format (E rounds
 * itself); nan_all is tt.clampf's propagateNan = all, read once per op */
#define KDEF_FTER(NAME, E)                                                                                             \
  ttref_status interp_k_##NAME(ctx *c, const ir_op *op)                                                                \
  {                                                                                                                    \
    const slot *a = SL(op->opnds[0]), *b = SL(op->opnds[1]), *k = SL(op->opnds[2]);                                    \
    slot *r = SL(&op->res[0]);                                                                                         \
    const int f = fmt_of(elem_scalar(&op->res[0]));                                                                    \
    const bool nan_all = op->nattrs && ir_op_attr_int(op, "propagateNan", IR_NAN_NONE) != IR_NAN_NONE;                 \
    int64_t n = LANES2(a, b);                                                                                          \
    if (k->n > n) n = k->n;                                                                                            \
    const int64_t sa = a->n > 1, sb = b->n > 1, sc = k->n > 1;                                                         \
    const interp_elem *A = a->d, *B = b->d, *C = k->d;                                                                 \
    interp_elem *R = r->d;                                                                                             \
    (void)f, (void)nan_all;                                                                                            \
    r->n = n;                                                                                                          \
    for (int64_t i = 0; i < n; i++) {                                                                                  \
      const double x = A[i * sa].f, y = B[i * sb].f, z = C[i * sc].f;                                                  \
      R[i].f = (E);                                                                                                    \
    }                                                                                                                  \
    return TTREF_OK;                                                                                                   \
  }

/* ETER: R[i] = E(x = A[i*sa], y = B[i*sb], z = C[i*sc]) on whole elements of any type */
#define KDEF_ETER(NAME, E)                                                                                             \
  ttref_status interp_k_##NAME(ctx *c, const ir_op *op)                                                                \
  {                                                                                                                    \
    const slot *a = SL(op->opnds[0]), *b = SL(op->opnds[1]), *k = SL(op->opnds[2]);                                    \
    slot *r = SL(&op->res[0]);                                                                                         \
    int64_t n = LANES2(b, k);                                                                                          \
    if (a->n > n) n = a->n;                                                                                            \
    const int64_t sa = a->n > 1, sb = b->n > 1, sc = k->n > 1;                                                         \
    const interp_elem *A = a->d, *B = b->d, *C = k->d;                                                                 \
    interp_elem *R = r->d;                                                                                             \
    r->n = n;                                                                                                          \
    for (int64_t i = 0; i < n; i++) {                                                                                  \
      const interp_elem x = A[i * sa], y = B[i * sb], z = C[i * sc];                                                   \
      R[i] = (E);                                                                                                      \
    }                                                                                                                  \
    return TTREF_OK;                                                                                                   \
  }

#define KDEF_CALL(NAME, FN) /* hand-written: FN is called by the dispatch (interp_exec.c) */

/* ---- conversions ---------------------------------------------------------------------- */
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

/* fptosi/fptoui: truncate toward 0 and saturate like PTX cvt.rzi; NaN gives 0 (documented
 * choice); both noted */
static inline double pow2i(int e) /* 2^e for 0 <= e <= 64, exactly */
{
  const uint64_t u = (uint64_t)(1023 + e) << 52;
  double d;
  memcpy(&d, &u, sizeof d);
  return d;
}

static inline int64_t ik_fptoi(ctx *c, const ir_op *op, int64_t i, int dbits, double x, bool u)
{
  const double lo = u ? 0.0 : (double)smin_of(dbits);
  const double hi = u ? pow2i(dbits) : pow2i(dbits - 1); /* exclusive */
  const double v = trunc(x);
  if (isnan(v)) {
    interp_note_ub(c, op, INTERP_UB_FPTOI, i);
    return 0;
  }
  if (v < lo) {
    interp_note_ub(c, op, INTERP_UB_FPTOI, i);
    return u ? 0 : smin_of(dbits);
  }
  if (v >= hi) {
    interp_note_ub(c, op, INTERP_UB_FPTOI, i);
    return u ? wrap_int(dbits, (int64_t)umax_of(dbits)) : smax_of(dbits);
  }
  return u ? wrap_int(dbits, (int64_t)(uint64_t)v) : wrap_int(dbits, (int64_t)v);
}

/* Unary math: the reference value is the correctly rounded true function; pow is binary. */
static ttref_status op_fmath(ctx *c, const ir_op *op, fp_math_fn fn)
{
  const slot *a = SL(op->opnds[0]);
  slot *r = SL(&op->res[0]);
  const int f = fmt_of(elem_scalar(&op->res[0]));
  const fp_format ef = c->precise ? FP_F64 : (fp_format)f;
  if (fp_math_arity(fn) == 2) {
    const slot *b = SL(op->opnds[1]);
    const int64_t n = LANES2(a, b), sa = a->n > 1, sb = b->n > 1;
    r->n = n;
    for (int64_t i = 0; i < n; i++) r->d[i].f = fp_math_eval(fn, ef, a->d[i * sa].f, b->d[i * sb].f);
    return TTREF_OK;
  }
  const int64_t n = a->n;
  r->n = n;
  for (int64_t i = 0; i < n; i++) {
    double v;
    if (!fp_math_try_fast(fn, ef, a->d[i].f, &v)) v = fp_math_eval(fn, ef, a->d[i].f, 0.0);
    r->d[i].f = rnd(c, f, v);
  }
  return TTREF_OK;
}

#define X(name, mnem, nopnd, nres, flags, syn, rule, kind, kernel, bound, ...) KDEF_##kind(name, kernel)
#include "ir_op_list.h"
#undef X

/* The typed loops of a float binary row (FBIN/FBINX) by opcode, for the reductions' and scans'
 * combine fast path; NULL when code has none. */
#pragma GCC diagnostic push
#pragma GCC diagnostic error "-Wswitch-enum"
#define FBL_FBIN(NAME)                                                                                                 \
  case IR_OP_##NAME:                                                                                                   \
    return &fbk_##NAME;
#define FBL_FBINX(NAME) FBL_FBIN(NAME)
#define FBL_NONE(NAME)                                                                                                 \
  case IR_OP_##NAME:                                                                                                   \
    return NULL;
#define FBL_CALL(NAME)  FBL_NONE(NAME)
#define FBL_FUN(NAME)   FBL_NONE(NAME)
#define FBL_FMATH(NAME) FBL_NONE(NAME)
#define FBL_FTER(NAME)  FBL_NONE(NAME)
#define FBL_IUN(NAME)   FBL_NONE(NAME)
#define FBL_IBIN(NAME)  FBL_NONE(NAME)
#define FBL_CMP(NAME)   FBL_NONE(NAME)
#define FBL_ETER(NAME)  FBL_NONE(NAME)
#define FBL_CASTI(NAME) FBL_NONE(NAME)
#define FBL_CASTF(NAME) FBL_NONE(NAME)
#define FBL_CASTE(NAME) FBL_NONE(NAME)
const interp_fbin_kernels *interp_fbin_of(ir_opcode code)
{
  switch (code) {
#define X(name, mnem, nopnd, nres, flags, syn, rule, kind, kernel, bound, ...) FBL_##kind(name)
#include "ir_op_list.h"
#undef X
  case IR_OP_COUNT: break;
  }
  return NULL;
}
#pragma GCC diagnostic pop

bool interp_fbin_loop(const ctx *c, ir_opcode code, int f, interp_elem *R, const interp_elem *A, int64_t sa,
                      const interp_elem *B, int64_t sb, int64_t n)
{
  const interp_fbin_kernels *k = interp_fbin_of(code);
  if (k && R) k->loop(c, f, R, A, sa, B, sb, n);
  return k != NULL;
}

/* ---- irregular casts ------------------------------------------------------------------ */
/* tt.fp_to_fp: float to float with the rounding attribute; fp8 results saturate */
ttref_status interp_op_fp_to_fp(ctx *c, const ir_op *op)
{
  const slot *a = SL(op->opnds[0]);
  slot *r = SL(&op->res[0]);
  const ir_scalar ss = elem_scalar(op->opnds[0]), ds = elem_scalar(&op->res[0]);
  const int sbits = ir_scalar_bits(ss), dbits = ir_scalar_bits(ds), df = fmt_of(ds);
  const int64_t n = a->n;
  r->n = n;
  const bool down = dbits < sbits || (ds == IR_S_BF16 && ss == IR_S_F16) || (ds == IR_S_F16 && ss == IR_S_BF16) ||
                    (dbits == 8 && sbits == 8);
  const fp_round rm = ir_op_attr_int(op, "rounding", IR_ROUND_RTNE) == IR_ROUND_RTZ ? FP_RTZ : FP_RNE;
  /* NVIDIA converts to fp8 with cvt.rn.satfinite: saturate to max finite, NaN stays NaN.
   * RTZ never rounds a finite value past max finite, and keeps inf (bit truncation). */
  const fp_overflow ov = (dbits == 8 && rm == FP_RNE) ? FP_OVF_SAT : FP_OVF_INF;
  for (int64_t i = 0; i < n; i++)
    r->d[i].f = down && !c->precise ? fp_round_to((fp_format)df, a->d[i].f, rm, ov) : a->d[i].f;
  return TTREF_OK;
}
