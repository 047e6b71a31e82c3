/*
 * cmp.c: the compliance modes of cmp.h. Each element is judged on its bit
 * pattern (EXACT, FP_SPECIAL) or on a tolerance around a binary64 reference
 * (ULP, ABS, REL, DOT_PRODUCT, REDUCE), then FTZ and overflow allowances.
 * Formulas and their sources: docs/compliance.md.
 */
#include "cmp.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <gsl/gsl_rstat.h>

#include "ir_base.h"

static const char *const mode_names[] = {
#define X(name, str, desc) str,
#include "cmp_mode_list.h"
#undef X
};

static const char *const mode_descs[] = {
#define X(name, str, desc) desc,
#include "cmp_mode_list.h"
#undef X
};

#define FMT_OK(f) ((unsigned)(f) < FP_FORMAT_COUNT)
#define D_INF     ((double)INFINITY)
#define D_NAN     ((double)NAN)

const char *cmp_mode_name(cmp_mode m) { return (unsigned)m < CMP_MODE_COUNT ? mode_names[m] : "<invalid>"; }

const char *cmp_mode_description(cmp_mode m) { return (unsigned)m < CMP_MODE_COUNT ? mode_descs[m] : "<invalid>"; }

bool cmp_mode_lookup(const char *name, cmp_mode *out)
{
  if (!name) return false;
  for (int i = 0; i < CMP_MODE_COUNT; i++) {
    if (strcmp(mode_names[i], name) == 0) {
      if (out) *out = (cmp_mode)i;
      return true;
    }
  }
  return false;
}

void cmp_options_default(cmp_mode m, cmp_options *o)
{
  if (!o) return;
  memset(o, 0, sizeof *o);
  o->ulp = 0.5;      /* TOSA's ADD/SUB/MUL: correctly rounded against the precise value */
  o->abs_tol = 1e-4; /* IREE check.expect_almost_eq's atol */
  o->rel_tol = 1e-3; /* ONNX backend tests' rtol */
  o->k = 0;          /* DOT_PRODUCT/REDUCE callers must say how many terms */
  o->allow_ftz = false;
  o->nan = CMP_NAN_ANY;
  o->allow_overflow_inf = m != CMP_EXACT && m != CMP_FP_SPECIAL; /* TOSA tosaCheckFloatBound */
  o->quality_fraction = 0.5;                                     /* dEQP QualityWarning: over half of the budget */
  o->acc = CMP_FMT_NONE;
  o->abs_bound = 0;
  o->var_bound = 0;
  o->bias_test = true;
}

/* ---- ulp ------------------------------------------------------------- */

/* log2 of the ulp of r toward g, for precision p and min normal 2^emin */
static int ulp_exp(int p, int emin, double r, double g)
{
  if (r == 0) return emin - p + 1;
  int e = ilogb(r);
  if (e <= emin) return emin - p + 1; /* subnormal range: one fixed quantum */
  int q = e - p + 1;
  if (fabs(r) == ldexp(1.0, e) && (r > 0 ? g < r : g > r))
    q--; /* a power of two seen from its zero side: the binade below is twice as fine */
  return q;
}

/* 2^(emax+1): the value an infinite result stands for (OpenCL Ulp_Error) */
static double over_value(fp_format f) { return ldexp(1.0, ilogb(fp_max_finite(f)) + 1); }

double cmp_ulp_error(fp_format fmt, double got, double ref)
{
  if (!FMT_OK(fmt)) return D_NAN;
  if (isnan(got) || isnan(ref)) return (isnan(got) && isnan(ref)) ? 0.0 : D_NAN;
  if (isinf(ref)) return got == ref ? 0.0 : got - ref;
  int q = ulp_exp(fp_precision(fmt), ilogb(fp_min_normal(fmt)), ref, got);
  if (isinf(got)) /* scaled before subtracting: 2^(emax+1) is inf in binary64 for f64 */
    return copysign(ldexp(1.0, ilogb(fp_max_finite(fmt)) + 1 - q), got) - ldexp(ref, -q);
  return ldexp(got - ref, -q);
}

/* ---- per-element judgement ---------------------------------------------- */

typedef struct jctx {
  cmp_mode mode;
  fp_format fmt;
  const cmp_options *o;
  int p, emin;
  bool has_inf;
  double u;      /* 2^-p, the unit roundoff of the output format */
  double minn;   /* min normal */
  double maxf;   /* max finite */
  double over;   /* 2^(emax+1) */
  double dp_abs; /* DOT_PRODUCT: limit on |err_i| */
  double dp_var; /* DOT_PRODUCT: limit on mean(err_i^2) */
  double gk;     /* REDUCE: (1 + u)^k - 1 */
  int bits;      /* width of a pattern (after pattern_shift) */
} jctx;

/* one element's inputs: values and patterns of got, ref (and the FTZ ref) */
typedef struct elem {
  double got, refv, r, B; /* r: the reference value the mode judges against */
  uint64_t gb, rb;
  bool has_ftz;
  double fv;
  uint64_t fb;
} elem;

typedef struct verdict {
  bool pass;
  double err, allowed, ratio; /* absolute error, allowed error, err/allowed */
  double dp;                  /* DOT_PRODUCT: signed TOSA err_i (0 where not measured) */
  double ulp;                 /* signed ulp error (NaN: not counted in the statistics) */
  const char *why;            /* failure cause */
} verdict;

static bool same_sign(double a, double b) { return !signbit(a) == !signbit(b); }

static bool is_subnormal(const jctx *c, double x) { return isfinite(x) && x != 0 && fabs(x) < c->minn; }

static bool is_special(const jctx *c, double x) { return !isfinite(x) || x == 0 || fabs(x) < c->minn; }

/* got (pattern gb) is a NaN that matches the NaN reference under the policy;
 * refv/rb is the ref array's element, r the value judged against */
static bool nan_ok(const jctx *c, double got, uint64_t gb, double refv, uint64_t rb, double r)
{
  if (!isnan(got)) return false;
  switch (c->o->nan) {
  case CMP_NAN_ANY: return true;
  case CMP_NAN_SAME_SIGN: return same_sign(got, isnan(refv) ? refv : r);
  case CMP_NAN_SAME_BITS: return isnan(refv) ? gb == rb : same_sign(got, r);
  }
  return false;
}

static const char *nan_why(double got)
{
  return isnan(got) ? "NaN does not match under the nan policy" : "expected NaN";
}

static verdict fail_special(verdict v, const char *why)
{
  v.pass = false;
  v.err = D_INF;
  v.ratio = D_INF;
  v.why = why;
  return v;
}

/* Distance of two patterns in ulps: both mapped onto the ordered integer line
   (negative patterns below positive ones, -0 next to +0); finite for NaN and inf too. */
static double pattern_distance(int bits, uint64_t a, uint64_t b)
{
  const uint64_t sign = (uint64_t)1 << (bits - 1);
  int64_t x = (a & sign) ? -(int64_t)(a & (sign - 1)) - 1 : (int64_t)(a & (sign - 1));
  int64_t y = (b & sign) ? -(int64_t)(b & (sign - 1)) - 1 : (int64_t)(b & (sign - 1));
  return x > y ? (double)((uint64_t)x - (uint64_t)y) : (double)((uint64_t)y - (uint64_t)x);
}

/* EXACT and FP_SPECIAL: patterns equal, or both NaN under the policy. A failing
   element's ratio is its pattern distance in ulps (allowed: 0), so the worst
   element is the farthest one, not the first */
static verdict judge_bits(const jctx *c, double got, uint64_t gb, double refv, uint64_t rb)
{
  verdict v = {.pass = true, .ulp = cmp_ulp_error(c->fmt, got, refv)};
  if (isnan(refv)) {
    if (!nan_ok(c, got, gb, refv, rb, refv)) v = fail_special(v, nan_why(got));
  } else if (gb != rb) {
    v = fail_special(v, isnan(got) ? "unexpected NaN" : "bit patterns differ");
    if (!isnan(got)) {
      double gv = isinf(got) ? copysign(c->over, got) : got;
      v.err = isinf(refv) ? D_INF : fabs(gv - refv);
    }
  }
  if (!v.pass && c->bits > 0) v.ratio = pattern_distance(c->bits, gb, rb);
  return v;
}

/* allowed |got - r| of the tolerance modes; g gives the ULP direction */
static double allowed(const jctx *c, double r, double g, double B, double *oeb)
{
  switch (c->mode) {
  case CMP_ULP: return c->o->ulp * ldexp(1.0, ulp_exp(c->p, c->emin, r, g));
  case CMP_ABS: return c->o->abs_tol;
  case CMP_REL: return c->o->rel_tol * fabs(r);
  case CMP_DOT_PRODUCT:
    *oeb = fmax(B * c->u, c->minn); /* TOSA out_err_bnd */
    return c->dp_abs * *oeb;
  case CMP_REDUCE: return fmax(B, c->minn) * c->gk;
  default: return 0;
  }
}

/* ULP, ABS, REL, DOT_PRODUCT, REDUCE */
static verdict judge_tol(const jctx *c, double got, uint64_t gb, double r, double refv, uint64_t rb, double B)
{
  const cmp_options *o = c->o;
  verdict v = {.pass = true, .ulp = cmp_ulp_error(c->fmt, got, r)};
  if (isnan(r)) {
    if (!nan_ok(c, got, gb, refv, rb, r)) v = fail_special(v, nan_why(got));
    return v;
  }
  if ((c->mode == CMP_DOT_PRODUCT || c->mode == CMP_REDUCE) && isnan(B))
    return v; /* TOSA: a NaN bound sets no accuracy requirement */
  if (c->mode == CMP_DOT_PRODUCT) {
    if (o->allow_overflow_inf && !isfinite(fp_round_to(c->fmt, B * (1 + c->dp_abs * c->u), FP_RNE, FP_OVF_INF)))
      return v;   /* TOSA: the sum may overflow, so there is no accuracy limit */
    if (B == 0) { /* every product is zero */
      if (!(r == 0 && got == 0)) v = fail_special(v, "bound is 0, so result and reference must be 0");
      return v;
    }
  }
  if (isinf(r)) {
    if (got != r) v = fail_special(v, "expected an infinity of the same sign");
    return v;
  }
  double oeb = 1, away = copysign(c->over, r);
  double a_away = allowed(c, r, away, B, &oeb); /* toward overflow: the larger ulp */
  /* r + a past max finite, written so that a small a is not absorbed (Sterbenz: exact) */
  bool may_overflow = o->allow_overflow_inf && a_away > c->maxf - fabs(r);
  if (isnan(got)) {
    if (may_overflow && !c->has_inf) { /* formats without inf overflow to NaN */
      v.ratio = 1;
      v.ulp = D_NAN;
      return v;
    }
    return fail_special(v, "unexpected NaN");
  }
  double gv = isinf(got) ? copysign(c->over, got) : got;
  double a = allowed(c, r, gv, B, &oeb);
  v.err = fabs(gv - r);
  v.allowed = a;
  if (c->mode == CMP_DOT_PRODUCT) {
    v.dp = (gv - r) / oeb;
    v.pass = fabs(v.dp) <= c->dp_abs;
    v.ratio = fabs(v.dp) / c->dp_abs;
  } else if (c->mode == CMP_ULP) { /* |cmp_ulp_error| <= n, exact in ulps */
    v.pass = fabs(v.ulp) <= o->ulp;
    v.ratio = o->ulp > 0 ? fabs(v.ulp) / o->ulp : (v.ulp == 0 ? 0 : D_INF);
  } else {
    v.pass = v.err <= a;
    v.ratio = a > 0 ? v.err / a : (v.err == 0 ? 0 : D_INF);
  }
  if (!v.pass && isinf(got) && may_overflow && same_sign(got, r)) {
    v.pass = true; /* TOSA: an upper end past max finite becomes +inf */
    v.ratio = 1;
    v.dp = 0;
    v.ulp = D_NAN;
  }
  if (!v.pass) v.why = "error exceeds the bound";
  return v;
}

static verdict judge_elem(const jctx *c, const elem *e)
{
  bool bits = c->mode == CMP_EXACT || c->mode == CMP_FP_SPECIAL;
  verdict v =
      bits ? judge_bits(c, e->got, e->gb, e->refv, e->rb) : judge_tol(c, e->got, e->gb, e->r, e->refv, e->rb, e->B);
  if (v.pass || !c->o->allow_ftz) return v;
  double sub = is_subnormal(c, e->refv) ? e->refv : is_subnormal(c, e->r) ? e->r : 0;
  if (sub != 0 && e->got == 0 && same_sign(e->got, sub)) {
    verdict z = {.pass = true, .ulp = D_NAN}; /* output flushed: OpenCL FTZ rule */
    return z;
  }
  if (e->has_ftz) { /* inputs flushed: judged against the FTZ reference */
    verdict w =
        bits ? judge_bits(c, e->got, e->gb, e->fv, e->fb) : judge_tol(c, e->got, e->gb, e->fv, e->fv, e->fb, e->B);
    if (w.pass) return w;
  }
  return v;
}

/* ---- loading ------------------------------------------------------------ */

static uint64_t load_raw(const npy_array *a, int64_t i)
{
  const unsigned char *p = (const unsigned char *)a->data + (size_t)i * (size_t)a->elsize;
  uint8_t b1;
  uint16_t b2;
  uint32_t b4;
  uint64_t b8 = 0;
  switch (a->elsize) {
  case 1: memcpy(&b1, p, 1); return b1;
  case 2: memcpy(&b2, p, 2); return b2;
  case 4: memcpy(&b4, p, 4); return b4;
  default: memcpy(&b8, p, 8); return b8;
  }
}

/* integer element as a double (for reports), signed for kind 'i' */
static double int_value(const npy_array *a, uint64_t raw)
{
  if (a->kind != 'i') return (double)raw;
  int sh = 64 - 8 * a->elsize;
  return (double)((int64_t)(raw << sh) >> sh);
}

static int container_bytes(fp_format f)
{
  int b = fp_bits(f);
  return b <= 8 ? 1 : b <= 16 ? 2 : b <= 32 ? 4 : 8;
}

/* tf32 travels in the top 19 bits of a binary32 container */
static int pattern_shift(fp_format f) { return f == FP_TF32 ? 13 : 0; }

static void dtype_str(char *buf, size_t n, const npy_array *a)
{
  snprintf(buf, n, "'%c'%d", a->kind ? a->kind : '?', a->elsize);
}

static void shape_str(char *buf, size_t n, const npy_array *a)
{
  size_t len = (size_t)snprintf(buf, n, "[");
  for (int d = 0; d < a->rank && d < NPY_MAX_RANK && len < n; d++)
    len += (size_t)snprintf(buf + len, n - len, "%s%" PRId64, d ? "," : "", a->shape[d]);
  if (len < n) snprintf(buf + len, n - len, "]");
}

/* the N-d index of flat index i in a's shape, "[i,j,..]" */
static void index_str(char *buf, size_t n, const npy_array *a, int64_t i)
{
  int64_t idx[NPY_MAX_RANK];
  for (int d = a->rank - 1; d >= 0; d--) {
    int64_t s = a->shape[d] > 0 ? a->shape[d] : 1;
    idx[d] = i % s;
    i /= s;
  }
  size_t len = (size_t)snprintf(buf, n, "[");
  for (int d = 0; d < a->rank && len < n; d++)
    len += (size_t)snprintf(buf + len, n - len, "%s%" PRId64, d ? "," : "", idx[d]);
  if (len < n) snprintf(buf + len, n - len, "]");
}

static const ttref_loc noloc = {NULL, 0, 0};

static bool same_layout(const npy_array *a, const npy_array *b)
{
  if (a->kind != b->kind || a->elsize != b->elsize || a->rank != b->rank) return false;
  for (int d = 0; d < a->rank && d < NPY_MAX_RANK; d++)
    if (a->shape[d] != b->shape[d]) return false;
  return true;
}

static ttref_status check_array(const npy_array *a, const npy_array *ref, const char *what, ttref_error *err)
{
  char s1[96], s2[96];
  if (a->rank < 0 || a->rank > NPY_MAX_RANK || a->numel < 0)
    return ir_error_set(err, TTREF_E_INPUT, noloc, "cmp: %s has an invalid rank or size", what);
  if (a->kind != ref->kind || a->elsize != ref->elsize) {
    dtype_str(s1, sizeof s1, a);
    dtype_str(s2, sizeof s2, ref);
    return ir_error_set(err, TTREF_E_INPUT, noloc, "cmp: dtype mismatch: %s is %s, ref is %s", what, s1, s2);
  }
  if (!same_layout(a, ref)) {
    shape_str(s1, sizeof s1, a);
    shape_str(s2, sizeof s2, ref);
    return ir_error_set(err, TTREF_E_INPUT, noloc, "cmp: shape mismatch: %s is %s, ref is %s", what, s1, s2);
  }
  if (a->numel > 0 && !a->data) return ir_error_set(err, TTREF_E_INPUT, noloc, "cmp: %s has no data", what);
  return TTREF_OK;
}

static bool bad_tol(double x) { return isnan(x) || x < 0; }

static ttref_status check_args(cmp_mode mode, fp_format fmt, const npy_array *got, const npy_array *ref,
                               const double *precise, const double *bound, const npy_array *ftz_ref,
                               const cmp_options *o, bool is_int, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  bool needs_pb = !is_int && (mode == CMP_DOT_PRODUCT || mode == CMP_REDUCE);
  if ((unsigned)mode >= CMP_MODE_COUNT)
    FAIL(ir_error_set(err, TTREF_E_USAGE, noloc, "cmp: compliance mode %d out of range", (int)mode));
  TRY(check_array(ref, ref, "ref", err));
  TRY(check_array(got, ref, "got", err));
  if (ftz_ref) TRY(check_array(ftz_ref, ref, "ftz_ref", err));
  if (ref->elsize != 1 && ref->elsize != 2 && ref->elsize != 4 && ref->elsize != 8)
    FAIL(ir_error_set(err, TTREF_E_INPUT, noloc, "cmp: element size %d is not 1, 2, 4 or 8", ref->elsize));
  if (!is_int) {
    if (ref->kind != 'f' && ref->kind != 'u')
      FAIL(ir_error_set(err, TTREF_E_INPUT, noloc, "cmp: %s patterns must be in a 'f' or 'u' array, not '%c'",
                        fp_name(fmt), ref->kind));
    if (ref->elsize != container_bytes(fmt))
      FAIL(ir_error_set(err, TTREF_E_INPUT, noloc,
                        "cmp: %s patterns take %d-byte elements, the arrays have %d-byte ones", fp_name(fmt),
                        container_bytes(fmt), ref->elsize));
  } else if (ref->kind == 'f') {
    FAIL(ir_error_set(err, TTREF_E_INPUT, noloc, "cmp: float array ('f'%d) compared without a floating-point format",
                      ref->elsize));
  }
  if (needs_pb && (!precise || !bound))
    FAIL(ir_error_set(err, TTREF_E_USAGE, noloc, "cmp: %s needs the precise and bound arrays (%s is NULL)",
                      cmp_mode_name(mode), !precise ? "precise" : "bound"));
  if (needs_pb && o->k < 1)
    FAIL(ir_error_set(err, TTREF_E_USAGE, noloc, "cmp: %s needs k >= 1 terms per element (k = %" PRId64 ")",
                      cmp_mode_name(mode), o->k));
  if (bad_tol(o->ulp) || bad_tol(o->abs_tol) || bad_tol(o->rel_tol) || bad_tol(o->quality_fraction) ||
      bad_tol(o->abs_bound) || bad_tol(o->var_bound))
    FAIL(ir_error_set(err, TTREF_E_USAGE, noloc, "cmp: a tolerance option is negative or NaN"));
  if ((unsigned)o->nan > CMP_NAN_SAME_BITS)
    FAIL(ir_error_set(err, TTREF_E_USAGE, noloc, "cmp: nan policy %d out of range", (int)o->nan));
  if (needs_pb) {
    for (int64_t i = 0; i < ref->numel; i++)
      if (bound[i] < 0)
        FAIL(ir_error_set(err, TTREF_E_INPUT, noloc, "cmp: bound[%" PRId64 "] = %g is negative", i, bound[i]));
  }
fail:
  return st;
}

/* (1 + u)^k - 1 without cancellation for small k*u (binomial series) */
static double growth(int64_t k, double u)
{
  if ((double)k * u > 0.5) return pow(1.0 + u, (double)k) - 1.0;
  double g = 0, t = 1;
  for (int64_t j = 1; j <= k; j++) {
    t *= (double)(k - j + 1) / (double)j * u;
    g += t;
    if (t <= g * 0x1p-60) break;
  }
  return g;
}

static void init_ctx(jctx *c, cmp_mode mode, fp_format fmt, const cmp_options *o)
{
  memset(c, 0, sizeof *c);
  c->mode = mode;
  c->fmt = fmt;
  c->o = o;
  if (!FMT_OK(fmt)) return;
  c->p = fp_precision(fmt);
  c->emin = ilogb(fp_min_normal(fmt));
  c->has_inf = fp_has_inf(fmt);
  c->u = ldexp(1.0, -c->p);
  c->minn = fp_min_normal(fmt);
  c->maxf = fp_max_finite(fmt);
  c->over = over_value(fmt);
  if (mode == CMP_DOT_PRODUCT) {
    int fo = c->p - 1, fa = FMT_OK(o->acc) ? fp_precision(o->acc) - 1 : fo;
    double ksb = ceil((double)o->k / exp2((fa - fo) / 2.0)); /* TOSA tensorComplianceMetaData */
    c->dp_abs = o->abs_bound > 0 ? o->abs_bound : 2 * ksb;
    c->dp_var = o->var_bound > 0 ? o->var_bound : 4.0 * 0.4 * ksb;
  }
  if (mode == CMP_REDUCE) c->gk = growth(o->k, c->u);
}

/* out->reason = the formatted line, truncated to its 255 characters */
static void set_reason(cmp_result *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void set_reason(cmp_result *out, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(out->reason, sizeof out->reason, fmt, ap);
  va_end(ap);
}

/* one-line description of the worst failing element */
static void describe_fail(cmp_result *out, const jctx *c, const npy_array *ref, bool is_int, uint64_t gb,
                          const verdict *v)
{
  char where[160], gs[64], rs[64], detail[96];
  index_str(where, sizeof where, ref, out->worst.index);
  int dig = c->fmt == FP_F64 || is_int ? 17 : 9;
  if (is_int) {
    snprintf(gs, sizeof gs, "%.*g", dig, out->worst.got);
  } else {
    snprintf(gs, sizeof gs, "%.*g [0x%0*" PRIx64 "]", dig, out->worst.got, 2 * ref->elsize, gb);
  }
  snprintf(rs, sizeof rs, "%.*g", dig, out->worst.ref);
  detail[0] = 0;
  if (!is_int && (c->mode == CMP_EXACT || c->mode == CMP_FP_SPECIAL) && isfinite(v->ratio))
    snprintf(detail, sizeof detail, " (%.17g ulp apart)", v->ratio);
  if (v->why && strcmp(v->why, "error exceeds the bound") == 0) {
    if (c->mode == CMP_ULP) snprintf(detail, sizeof detail, " (%.4g ulp > %.4g ulp)", fabs(v->ulp), c->o->ulp);
    else if (c->mode == CMP_DOT_PRODUCT)
      snprintf(detail, sizeof detail, " (|err_i| %.4g > abs_bound %.4g)", fabs(v->dp), c->dp_abs);
    else snprintf(detail, sizeof detail, " (|err| %.4g > %.4g)", v->err, v->allowed);
  }
  set_reason(out, "%s %s: %" PRId64 " of %" PRId64 " elements fail; worst at %s: got %s, ref %s: %s%s",
             cmp_mode_name(c->mode), is_int ? "int" : fp_name(c->fmt), out->nfail, out->n, where, gs, rs,
             v->why ? v->why : "mismatch", detail);
}

ttref_status cmp_check(cmp_mode mode, fp_format fmt, const npy_array *got, const npy_array *ref, const double *precise,
                       const double *bound, const npy_array *ftz_ref, const cmp_options *o, cmp_result *out,
                       ttref_error *err)
{
  ttref_status st = TTREF_OK;
  /* gsl_rstat's structs are public and _reset initialises every field: on the
   * stack they need no heap, so cmp_check allocates nothing (STYLE rule 13) */
  gsl_rstat_quantile_workspace med = {.p = 0.5}, q99 = {.p = 0.99};
  gsl_rstat_workspace rs = {.median_workspace_p = &med};
  cmp_options def;
  jctx c;
  double sum = 0, sumsq = 0;
  verdict worst_v = {.pass = true};
  uint64_t worst_gb = 0;

  if (!got || !ref || !out) FAIL(ir_error_set(err, TTREF_E_USAGE, noloc, "cmp: got, ref and out must not be NULL"));
  memset(out, 0, sizeof *out);
  out->worst.index = -1;
  if (!o) {
    cmp_options_default(mode, &def);
    o = &def;
  }
  bool is_int = ref->kind == 'i' || ref->kind == 'b' || !FMT_OK(fmt);
  TRY(check_args(mode, fmt, got, ref, precise, bound, ftz_ref, o, is_int, err));
  init_ctx(&c, mode, fmt, o);
  if (!is_int) c.bits = fp_bits(fmt);
  gsl_rstat_reset(&rs); /* also resets med */
  gsl_rstat_quantile_reset(&q99);

  bool use_precise = precise && mode != CMP_EXACT && mode != CMP_FP_SPECIAL;
  bool use_bound = mode == CMP_DOT_PRODUCT || mode == CMP_REDUCE;
  int sh = is_int ? 0 : pattern_shift(fmt);
  for (int64_t i = 0; i < ref->numel; i++) {
    verdict v;
    elem e = {0};
    e.gb = load_raw(got, i) >> sh;
    e.rb = load_raw(ref, i) >> sh;
    if (is_int) { /* integers: exact, whatever the mode */
      e.got = int_value(got, e.gb);
      e.r = int_value(ref, e.rb);
      v = (verdict){.pass = e.gb == e.rb, .ulp = D_NAN};
      if (!v.pass) {
        v.err = fabs(e.got - e.r);
        v.ratio = v.err; /* the absolute difference (allowed: 0): the worst element is the farthest */
        v.why = "integers differ";
      }
    } else {
      e.got = fp_decode(fmt, e.gb);
      e.refv = fp_decode(fmt, e.rb);
      if (mode == CMP_FP_SPECIAL && !is_special(&c, e.refv)) continue; /* judged elsewhere */
      e.r = use_precise ? precise[i] : e.refv;
      e.B = use_bound ? bound[i] : D_NAN;
      if (ftz_ref && o->allow_ftz) {
        e.has_ftz = true;
        e.fb = load_raw(ftz_ref, i) >> sh;
        e.fv = fp_decode(fmt, e.fb);
      }
      v = judge_elem(&c, &e);
    }
    out->n++;
    if (!v.pass) out->nfail++;
    if (isfinite(v.ulp)) {
      gsl_rstat_add(fabs(v.ulp), &rs); /* finite only: GSL rejects NaN */
      gsl_rstat_quantile_add(fabs(v.ulp), &q99);
    }
    sum += v.dp;
    sumsq += v.dp * v.dp;
    if (out->n == 1 || v.ratio > out->max_ratio) {
      out->max_ratio = v.ratio;
      out->worst = (cmp_element){i, e.got, e.r, v.allowed, v.err};
      worst_v = v;
      worst_gb = e.gb;
    }
  }

  out->pass = out->nfail == 0;
  if (gsl_rstat_n(&rs) > 0) {
    out->mean_ulp = gsl_rstat_mean(&rs);
    out->max_ulp = gsl_rstat_max(&rs);
    out->p99_ulp = gsl_rstat_quantile_get(&q99);
  }
  if (!out->pass) {
    describe_fail(out, &c, ref, is_int, worst_gb, &worst_v);
  } else if (mode == CMP_DOT_PRODUCT && !is_int && out->n > 0) {
    double T = (double)out->n;
    out->mean_err = sum / T;
    out->mean_sq_err = sumsq / T;
    double max_bias = sqrt(10 * c.dp_var * T); /* 4 sigma of normally distributed errors */
    if (sumsq > c.dp_var * T) {
      out->pass = false;
      set_reason(out,
                 "dot_product %s: error variance mean(err_i^2) = %.4g exceeds var_bound %.4g over %" PRId64
                 " elements (err_i = (got-P)/max(B*2^-p, min_normal))",
                 fp_name(fmt), out->mean_sq_err, c.dp_var, out->n);
    } else if (o->bias_test && fabs(sum) > max_bias) {
      out->pass = false;
      set_reason(out,
                 "dot_product %s: error bias |sum err_i| = %.4g exceeds sqrt(10*var_bound*T) = %.4g "
                 "(mean err_i %.4g over %" PRId64 " elements)",
                 fp_name(fmt), fabs(sum), max_bias, out->mean_err, out->n);
    }
  }
  if (mode == CMP_DOT_PRODUCT && !is_int && out->n > 0) {
    out->mean_err = sum / (double)out->n;
    out->mean_sq_err = sumsq / (double)out->n;
  }
  out->quality_warning = out->pass && out->max_ratio > o->quality_fraction;

fail:
  return st;
}
