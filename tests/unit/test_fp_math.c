/*
 * test_fp_math.c: every fp_math function against MPFR, rounded by MPFR to
 * the format's precision and subnormal range (mpfr_subnormalize): 0 ulp is
 * required everywhere. Two worker threads share the inputs of each job.
 * `make check` samples the sweeps deterministically (every input near zero,
 * the subnormals, the top binades, inf and NaN, one in 8 of the others, in
 * formats wider than 8 bits and in pairs; a fortieth of the large random sweeps); `make check-full` (TTREF_CHECK_FULL=1) runs
 * them whole.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <pthread.h>
#include <time.h>
#include <cmocka.h>
#include <mpfr.h>

#include "fp.h"
#include "unit_fixture.h"
#include "fp_math.h"

#define PI 3.14159265358979323846

static uint64_t mix(uint64_t z)
{ /* splitmix64: inputs depend only on the index */
  z += 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/* make check-full sets TTREF_CHECK_FULL=1: the whole sweeps instead of samples */
static bool full_tier;

/* the sampled tier keeps every input of format f with bits i near a special
 * value, and a fixed pseudo-random one in 8 of the others */
static bool sampled(fp_format f, uint64_t i)
{
  if ((mix(i ^ 0x5eedull) & 7) == 0) return true;
  double x = fabs(fp_decode(f, i));
  return x == 0 || isnan(x) || isinf(x) || x < 4 * fp_min_normal(f) || x >= fp_max_finite(f) / 4 ||
         (x >= 0.5 && x <= 2);
}

/* ---- MPFR oracle ---------------------------------------------------------- */

static int mp_eval(fp_math_fn fn, mpfr_ptr r, mpfr_srcptr x, mpfr_srcptr y, mpfr_rnd_t N)
{
  int s;
  switch (fn) {
  case FP_MATH_EXP: return mpfr_exp(r, x, N);
  case FP_MATH_EXP2: return mpfr_exp2(r, x, N);
  case FP_MATH_EXP10: return mpfr_exp10(r, x, N);
  case FP_MATH_EXPM1: return mpfr_expm1(r, x, N);
  case FP_MATH_LOG: return mpfr_log(r, x, N);
  case FP_MATH_LOG2: return mpfr_log2(r, x, N);
  case FP_MATH_LOG10: return mpfr_log10(r, x, N);
  case FP_MATH_LOG1P: return mpfr_log1p(r, x, N);
  case FP_MATH_SIN: return mpfr_sin(r, x, N);
  case FP_MATH_COS: return mpfr_cos(r, x, N);
  case FP_MATH_TAN: return mpfr_tan(r, x, N);
  case FP_MATH_ASIN: return mpfr_asin(r, x, N);
  case FP_MATH_ACOS: return mpfr_acos(r, x, N);
  case FP_MATH_ATAN: return mpfr_atan(r, x, N);
  case FP_MATH_SINH: return mpfr_sinh(r, x, N);
  case FP_MATH_COSH: return mpfr_cosh(r, x, N);
  case FP_MATH_TANH: return mpfr_tanh(r, x, N);
  case FP_MATH_ASINH: return mpfr_asinh(r, x, N);
  case FP_MATH_ACOSH: return mpfr_acosh(r, x, N);
  case FP_MATH_ATANH: return mpfr_atanh(r, x, N);
  case FP_MATH_SQRT: return mpfr_sqrt(r, x, N);
  case FP_MATH_RSQRT:
    if (mpfr_zero_p(x)) { /* IEEE rSqrt / C23: rsqrt(-0) = -inf (MPFR: +inf) */
      mpfr_set_inf(r, mpfr_signbit(x) ? -1 : 1);
      return 0;
    }
    return mpfr_rec_sqrt(r, x, N);
  case FP_MATH_CBRT: return mpfr_cbrt(r, x, N);
  case FP_MATH_ERF: return mpfr_erf(r, x, N);
  case FP_MATH_ERFC: return mpfr_erfc(r, x, N);
  case FP_MATH_LGAMMA: return mpfr_lgamma(r, &s, x, N);
  case FP_MATH_TGAMMA: return mpfr_gamma(r, x, N);
  case FP_MATH_FLOOR: return mpfr_floor(r, x);
  case FP_MATH_CEIL: return mpfr_ceil(r, x);
  case FP_MATH_TRUNC: return mpfr_trunc(r, x);
  case FP_MATH_ROUND: return mpfr_round(r, x);
  case FP_MATH_RINT:
  case FP_MATH_NEARBYINT: return mpfr_rint(r, x, MPFR_RNDN);
  case FP_MATH_ROUNDEVEN: return mpfr_roundeven(r, x);
  case FP_MATH_FABS: return mpfr_abs(r, x, N);
  case FP_MATH_ATAN2: return mpfr_atan2(r, x, y, N);
  case FP_MATH_POW: return mpfr_pow(r, x, y, N);
  case FP_MATH_HYPOT: return mpfr_hypot(r, x, y, N);
  case FP_MATH_FMOD: return mpfr_fmod(r, x, y, N);
  case FP_MATH_REMAINDER: return mpfr_remainder(r, x, y, N);
  case FP_MATH_FMIN: return mpfr_min(r, x, y, N);
  case FP_MATH_FMAX: return mpfr_max(r, x, y, N);
  case FP_MATH_COPYSIGN: return mpfr_copysign(r, x, y, N);
  case FP_MATH_FDIM: return mpfr_dim(r, x, y, N);
  default: mpfr_set_nan(r); return 0;
  }
}

typedef struct oracle {
  mpfr_t x, y, r;
} oracle;

/*
 * fn(x, y) correctly rounded to f (overflow as fp_encode RNE/OVF_INF). MPFR
 * computes fn rounded to odd at p+2 bits (RNDZ, then the last bit forced to 1
 * when inexact); rounding that to nearest at p bits, or fewer in f's
 * subnormal range, is then exact (round-to-odd theorem). The whole exponent
 * range stays enabled (MPFR 4.2.0 mpfr_exp misbehaves with emin = 0).
 */
static double mp_ref(oracle *o, fp_math_fn fn, fp_format f, double x, double y)
{
  int p = fp_precision(f);
  mpfr_set_d(o->x, x, MPFR_RNDN);
  mpfr_set_d(o->y, y, MPFR_RNDN);
  if (isnan(x)) mpfr_setsign(o->x, o->x, signbit(x) != 0, MPFR_RNDN);
  if (isnan(y)) mpfr_setsign(o->y, o->y, signbit(y) != 0, MPFR_RNDN); /* copysign */
  mpfr_set_prec(o->r, p + 2);
  int t = mp_eval(fn, o->r, o->x, o->y, MPFR_RNDZ);
  if (fp_math_class_of(fn) == FP_MC_EXACT && fn != FP_MATH_FDIM)
    t = 0; /* exact for values of f; integer functions return other ternaries */
  if (t != 0 && mpfr_regular_p(o->r) && mpfr_min_prec(o->r) < (mpfr_prec_t)(p + 2)) {
    if (mpfr_sgn(o->r) > 0) mpfr_nextabove(o->r);
    else mpfr_nextbelow(o->r);
  }
  if (mpfr_regular_p(o->r)) {
    /* o->r = 0.1b...b * 2^E; f's quantum below the normals is 2^qe */
    long qe = lround(log2(fp_min_subnormal(f)));
    long pe = mpfr_get_exp(o->r) - qe; /* bits available down to 2^qe */
    if (pe >= p) {
      mpfr_prec_round(o->r, p, MPFR_RNDN);
    } else if (pe >= 1) {
      mpfr_prec_round(o->r, pe, MPFR_RNDN);
    } else { /* below the smallest subnormal */
      mpfr_t h;
      mpfr_init2(h, 2);
      mpfr_set_ui_2exp(h, 1, qe - 1, MPFR_RNDN); /* half the smallest subnormal */
      int cmp = mpfr_cmpabs(o->r, h);
      mpfr_clear(h);
      double v = (pe == 0 && cmp > 0) ? ldexp(1.0, (int)qe) : 0.0; /* a tie goes to 0 */
      return fp_decode(f, fp_encode(f, mpfr_sgn(o->r) < 0 ? -v : v, FP_RNE, FP_OVF_INF));
    }
  }
  double d = mpfr_get_d(o->r, MPFR_RNDN);                   /* exact: p <= 53; inf beyond range */
  return fp_decode(f, fp_encode(f, d, FP_RNE, FP_OVF_INF)); /* overflow, FNUZ -0 */
}

/* position of a value in f's order (for ulp distances) */
static int64_t ord(fp_format f, double v)
{
  uint64_t p = fp_encode(f, v, FP_RNE, FP_OVF_INF);
  int nb = fp_bits(f);
  uint64_t sb = 1ull << (nb - 1), mag = p & (sb - 1);
  if (f == FP_E8M0) return (int64_t)p;
  return (p & sb) ? -(int64_t)mag : (int64_t)mag;
}

/* ---- inputs --------------------------------------------------------------- */

enum gen_kind { GEN_ALL, GEN_PAIRS, GEN_RAND, GEN_EXACT };

/* log-uniform magnitude 2^[lo, hi), random sign, rounded to f */
static double lu(fp_format f, uint64_t u, double lo, double hi)
{
  double e = lo + (hi - lo) * (double)(u >> 11) * 0x1p-53;
  double v = exp2(e);
  return fp_round_to(f, (u & 1) ? -v : v, FP_RNE, FP_OVF_INF);
}

static double rbits(fp_format f, uint64_t u)
{
  if (f == FP_F64) return unit_dfrom(u);
  return fp_decode(f, u & ((1ull << fp_bits(f)) - 1));
}

static void gen(fp_math_fn fn, fp_format f, int kind, uint64_t i, double *x, double *y)
{
  uint64_t u = mix(i * 0x9e37 + (uint64_t)fn * 1000003u + (uint64_t)f * 7919u);
  uint64_t v = mix(u), w = mix(v);
  *y = 0;
  if (kind == GEN_ALL) {
    *x = fp_decode(f, i);
    return;
  }
  if (kind == GEN_PAIRS) { /* every (x, y) of an 8-bit or smaller format */
    *x = fp_decode(f, i >> fp_bits(f));
    *y = fp_decode(f, i & ((1ull << fp_bits(f)) - 1));
    return;
  }
  int sel = (int)(w % 8);
  if (kind == GEN_EXACT) sel = 100;
  if (sel < 3) { /* raw bit patterns: specials, huge and tiny values */
    *x = rbits(f, u);
    *y = rbits(f, v);
  } else if (sel < 6) {
    *x = lu(f, u, -14, 8);
    *y = lu(f, v, -14, 8);
  } else { /* function-specific region */
    double a = lu(f, u, -30, 3), b = lu(f, v, -12, 12);
    switch (fn) {
    case FP_MATH_LGAMMA:
    case FP_MATH_TGAMMA: /* the negative axis, near poles and zeros */
      *x = fp_round_to(f, -40.0 * (double)(u >> 11) * 0x1p-53, FP_RNE, FP_OVF_INF);
      break;
    case FP_MATH_ACOSH: *x = fp_round_to(f, 1 + fabs(a), FP_RNE, FP_OVF_INF); break;
    case FP_MATH_LOG:
    case FP_MATH_LOG2:
    case FP_MATH_LOG10:
    case FP_MATH_LOG1P:
    case FP_MATH_POW: *x = fp_round_to(f, 1 + a, FP_RNE, FP_OVF_INF); break;
    case FP_MATH_EXP:
    case FP_MATH_EXP2:
    case FP_MATH_EXP10:
    case FP_MATH_EXPM1:
    case FP_MATH_SINH:
    case FP_MATH_COSH: *x = fp_round_to(f, 200.0 * ((double)(u >> 11) * 0x1p-53 - 0.5), FP_RNE, FP_OVF_INF); break;
    default: *x = a;
    }
    *y = b;
    if (fn == FP_MATH_POW) /* integer and half-integer exponents */
      *y = fp_round_to(f, (double)((int64_t)(v % 81) - 40) / ((w >> 8) & 1 ? 2 : 1), FP_RNE, FP_OVF_INF);
    if (fn == FP_MATH_HYPOT || fn == FP_MATH_ATAN2 || fn == FP_MATH_FMOD || fn == FP_MATH_REMAINDER)
      *y = fp_round_to(f, *x * (1 + 0x1p-4 * (double)(v >> 11) * 0x1p-53), FP_RNE, FP_OVF_INF);
  }
  if (sel == 100) { /* exact results that may be ties */
    int p = fp_precision(f);
    switch (fn) {
    case FP_MATH_POW: { /* small odd integer to a small integer power */
      int k = 2 + (int)(v % 4);
      double m = (double)(2 * (u % (1u << (p / k + 1))) + 1);
      *x = fp_round_to(f, ldexp(m, (int)(w % 7) - 3), FP_RNE, FP_OVF_INF);
      *y = (w >> 20) & 1 ? k : 1.0 / (1 << (w % 3));
      if (*y < 1) *x = fp_round_to(f, pow(*x, 1.0 / *y), FP_RNE, FP_OVF_INF);
      break;
    }
    case FP_MATH_HYPOT: { /* Pythagorean triples with a hypotenuse of p+1 bits */
      uint64_t lim = 1ull << ((p + 1) / 2);
      uint64_t a = lim / 2 + u % (lim / 2), b = 1 + v % a;
      *x = fp_round_to(f, (double)(a * a - b * b), FP_RNE, FP_OVF_INF);
      *y = fp_round_to(f, (double)(2 * a * b), FP_RNE, FP_OVF_INF);
      break;
    }
    default: *x = fp_round_to(f, (double)((int64_t)(u % 80) - 30), FP_RNE, FP_OVF_INF);
    }
  }
}

/* ---- parallel runner ---------------------------------------------------- */

typedef struct job {
  fp_math_fn fn;
  fp_format f;
  int kind;
  uint64_t lo, hi;
  /* results */
  uint64_t n, bad, unproven, maxulp;
  double bx, by, bgot, bwant, ux, uy;
} job;

static void *worker(void *arg)
{
  job *J = arg;
  oracle o;
  mpfr_inits2(53, o.x, o.y, o.r, (mpfr_ptr)0);
  int ar = fp_math_arity(J->fn);
  const uint64_t half = J->kind == GEN_PAIRS ? fp_bits(J->f) : 0;
  for (uint64_t i = J->lo; i < J->hi; i++) {
    double x, y;
    if (!full_tier && J->kind == GEN_ALL && fp_bits(J->f) > 8 && !sampled(J->f, i)) continue;
    if (!full_tier && J->kind == GEN_PAIRS && !sampled(J->f, i >> half) && !sampled(J->f, i & ((1ull << half) - 1)))
      continue;
    gen(J->fn, J->f, J->kind, i, &x, &y);
    if (ar == 1) y = 0;
    bool proven;
    double got = fp_math_eval_checked(J->fn, J->f, x, y, &proven);
    double want = mp_ref(&o, J->fn, J->f, x, y);
    double fast;
    /* the executor's first stage (fp_math_try_fast), where it decides, gives the same bits */
    if (ar == 1 && fp_math_try_fast(J->fn, J->f, x, &fast) && unit_dbits(fast) != unit_dbits(got)) got = fast;
    J->n++;
    if (!proven && J->unproven++ == 0) {
      J->ux = x;
      J->uy = y;
    }
    if (isnan(got) && isnan(want)) continue;
    uint64_t d;
    if (isnan(got) || isnan(want) || unit_dbits(fp_round_to(J->f, got, FP_RNE, FP_OVF_INF)) != unit_dbits(got)) {
      d = UINT64_MAX;
    } else {
      int64_t a = ord(J->f, got), b = ord(J->f, want);
      d = (uint64_t)(a > b ? a - b : b - a);
      if (d == 0 && unit_dbits(got) != unit_dbits(want)) d = 1; /* sign of zero */
    }
    if (d) {
      if (J->bad == 0) {
        J->bx = x;
        J->by = y;
        J->bgot = got;
        J->bwant = want;
      }
      J->bad++;
      if (d > J->maxulp) J->maxulp = d;
    }
  }
  mpfr_clears(o.x, o.y, o.r, (mpfr_ptr)0);
  mpfr_free_cache();
  return NULL;
}

/* runs n inputs of one function and format on two threads; reports a TAP
 * comment; returns the number of wrong results */
static uint64_t run(fp_math_fn fn, fp_format f, int kind, uint64_t n, uint64_t *unproven)
{
  job J[2];
  if (!full_tier && kind == GEN_RAND && n >= 100000) n /= 40; /* the large random sweeps: a fixed prefix */
  pthread_t th[2];
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int t = 0; t < 2; t++) {
    memset(&J[t], 0, sizeof J[t]);
    J[t].fn = fn;
    J[t].f = f;
    J[t].kind = kind;
    J[t].lo = n * (uint64_t)t / 2;
    J[t].hi = n * (uint64_t)(t + 1) / 2;
    assert_int_equal(pthread_create(&th[t], NULL, worker, &J[t]), 0);
  }
  for (int t = 0; t < 2; t++) pthread_join(th[t], NULL);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double secs = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
  uint64_t bad = J[0].bad + J[1].bad, up = J[0].unproven + J[1].unproven;
  uint64_t mu = J[0].maxulp > J[1].maxulp ? J[0].maxulp : J[1].maxulp;
  const char *what = kind == GEN_ALL || kind == GEN_PAIRS ? (full_tier ? "all" : "sampled")
                     : kind == GEN_EXACT                  ? "exact-cases"
                                                          : "random";
  n = J[0].n + J[1].n; /* the inputs checked */
  if (mu == UINT64_MAX)
    print_message("# %s %s: max ulp inf/NaN mismatch (%s %llu, bad %llu, unproven %llu)\n", fp_math_name(fn),
                  fp_name(f), what, (unsigned long long)n, (unsigned long long)bad, (unsigned long long)up);
  else
    print_message("# %s %s: max ulp %llu (%s %llu, bad %llu, unproven %llu, %.1f s)\n", fp_math_name(fn), fp_name(f),
                  (unsigned long long)mu, what, (unsigned long long)n, (unsigned long long)bad, (unsigned long long)up,
                  secs);
  for (int t = 0; t < 2; t++)
    if (J[t].bad)
      print_message("#   first bad: %s(%a, %a) = %a, want %a\n", fp_math_name(fn), J[t].bx, J[t].by, J[t].bgot,
                    J[t].bwant);
  for (int t = 0; t < 2; t++)
    if (J[t].unproven) print_message("#   first unproven: %s(%a, %a)\n", fp_math_name(fn), J[t].ux, J[t].uy);
  *unproven += up;
  return bad;
}

/* ---- tests ---------------------------------------------------------------- */

static void test_fp_math_names_lookup(void **state)
{
  (void)state;
  for (int i = 0; i < FP_MATH_COUNT; i++) {
    fp_math_fn g;
    assert_true(fp_math_lookup(fp_math_name((fp_math_fn)i), &g));
    assert_int_equal(g, i);
    assert_true(fp_math_arity((fp_math_fn)i) == 1 || fp_math_arity((fp_math_fn)i) == 2);
  }
  fp_math_fn g;
  assert_true(fp_math_lookup("tanh", &g) && g == FP_MATH_TANH);
  assert_false(fp_math_lookup("math.tanh", &g));
  assert_string_equal(fp_math_name(FP_MATH_COUNT), "<invalid>");
  assert_int_equal(fp_math_arity(FP_MATH_COUNT), 0);
  assert_true(isnan(fp_math_eval(FP_MATH_COUNT, FP_F32, 1, 1)));
  assert_int_equal(FP_MATH_COUNT, 44);
}

/* C99 Annex F special values (f32 and f16) */
static void test_fp_math_annex_f_specials(void **state)
{
  (void)state;
  const fp_format fs[2] = {FP_F32, FP_F16};
  for (int k = 0; k < 2; k++) {
    fp_format f = fs[k];
#define E1(fn, x)    fp_math_eval(FP_MATH_##fn, f, x, 0)
#define E2(fn, x, y) fp_math_eval(FP_MATH_##fn, f, x, y)
    double inf = INFINITY, nan = NAN;
    for (int i = 0; i < FP_MATH_COUNT; i++) /* NaN in, NaN out (except below) */
      if (i != FP_MATH_POW && i != FP_MATH_HYPOT && i != FP_MATH_FMIN && i != FP_MATH_FMAX && i != FP_MATH_COPYSIGN)
        assert_true(isnan(fp_math_eval((fp_math_fn)i, f, nan, 1.0)));
    assert_true(E1(EXP, -inf) == 0 && !signbit(E1(EXP, -inf)));
    assert_true(E1(EXP, inf) == inf && E1(EXP, 0.0) == 1.0 && E1(EXP, 1000.0) == inf);
    assert_true(E1(EXPM1, -inf) == -1 && signbit(E1(EXPM1, -0.0)));
    assert_true(E1(LOG, 0.0) == -inf && E1(LOG, -0.0) == -inf && isnan(E1(LOG, -1.0)));
    assert_true(E1(LOG, 1.0) == 0 && !signbit(E1(LOG, 1.0)) && E1(LOG, inf) == inf);
    assert_true(E1(LOG1P, -1.0) == -inf && isnan(E1(LOG1P, -2.0)) && signbit(E1(LOG1P, -0.0)));
    assert_true(E1(LOG2, 0.0) == -inf && E1(LOG10, 0.0) == -inf);
    assert_true(isnan(E1(SQRT, -1.0)) && signbit(E1(SQRT, -0.0)) && E1(SQRT, inf) == inf);
    assert_true(E1(RSQRT, 0.0) == inf && E1(RSQRT, -0.0) == -inf && E1(RSQRT, inf) == 0);
    assert_true(isnan(E1(RSQRT, -4.0)) && E1(RSQRT, 4.0) == 0.5);
    assert_true(isnan(E1(SIN, inf)) && isnan(E1(COS, -inf)) && isnan(E1(TAN, inf)));
    assert_true(signbit(E1(SIN, -0.0)) && signbit(E1(TAN, -0.0)) && E1(COS, -0.0) == 1);
    assert_true(isnan(E1(ASIN, 2.0)) && isnan(E1(ACOS, -2.0)) && E1(ACOS, 1.0) == 0);
    assert_true(E1(ATAN, inf) == fp_round_to(f, PI / 2, FP_RNE, FP_OVF_INF));
    assert_true(E1(ATANH, 1.0) == inf && E1(ATANH, -1.0) == -inf && isnan(E1(ATANH, 2.0)));
    assert_true(isnan(E1(ACOSH, 0.5)) && E1(ACOSH, 1.0) == 0);
    assert_true(E1(COSH, -inf) == inf && E1(SINH, -inf) == -inf && E1(TANH, -inf) == -1);
    assert_true(E1(ERF, -inf) == -1 && E1(ERFC, inf) == 0 && E1(ERFC, -inf) == 2);
    assert_true(E1(LGAMMA, 1.0) == 0 && E1(LGAMMA, 2.0) == 0 && E1(LGAMMA, 0.0) == inf);
    assert_true(E1(LGAMMA, -3.0) == inf && E1(LGAMMA, -inf) == inf);
    assert_true(E1(TGAMMA, 0.0) == inf && E1(TGAMMA, -0.0) == -inf);
    assert_true(isnan(E1(TGAMMA, -2.0)) && isnan(E1(TGAMMA, -inf)) && E1(TGAMMA, inf) == inf);
    assert_true(E1(TGAMMA, 5.0) == 24 && E1(CBRT, -27.0) == -3);
    assert_true(E2(POW, 1.0, nan) == 1 && E2(POW, nan, 0.0) == 1 && E2(POW, -1.0, inf) == 1);
    assert_true(E2(POW, 0.0, -1.0) == inf && E2(POW, -0.0, -1.0) == -inf);
    assert_true(E2(POW, -0.0, 3.0) == 0 && signbit(E2(POW, -0.0, 3.0)));
    assert_true(isnan(E2(POW, -2.0, 0.5)) && E2(POW, -2.0, 3.0) == -8);
    assert_true(E2(POW, 0.5, inf) == 0 && E2(POW, 2.0, -inf) == 0 && E2(POW, -inf, -3.0) == 0);
    assert_true(E2(HYPOT, inf, nan) == inf && E2(HYPOT, nan, -inf) == inf && isnan(E2(HYPOT, nan, 1.0)));
    assert_true(E2(HYPOT, 3.0, 4.0) == 5);
    assert_true(E2(ATAN2, 0.0, -1.0) == fp_round_to(f, PI, FP_RNE, FP_OVF_INF));
    assert_true(signbit(E2(ATAN2, -0.0, 1.0)) && E2(ATAN2, 1.0, inf) == 0);
    assert_true(isnan(E2(FMOD, 1.0, 0.0)) && isnan(E2(FMOD, inf, 1.0)) && E2(FMOD, 5.0, inf) == 5);
    assert_true(E2(FMOD, -5.0, 3.0) == -2 && E2(REMAINDER, 5.0, 3.0) == -1);
    assert_true(isnan(E2(REMAINDER, 1.0, 0.0)));
    assert_true(E2(FMIN, nan, 2.0) == 2 && E2(FMAX, 2.0, nan) == 2 && isnan(E2(FMIN, nan, nan)));
    assert_true(signbit(E2(FMIN, 0.0, -0.0)) && !signbit(E2(FMAX, -0.0, 0.0)));
    assert_true(signbit(E2(COPYSIGN, 2.0, -nan)) && E2(COPYSIGN, -3.0, 0.0) == 3);
    assert_true(E2(FDIM, 1.0, 3.0) == 0 && !signbit(E2(FDIM, 1.0, 3.0)) && E2(FDIM, 3.0, 1.0) == 2);
    assert_true(isnan(E2(FDIM, nan, 1.0)));
    assert_true(E1(ROUND, -2.5) == -3 && E1(RINT, -2.5) == -2 && E1(ROUNDEVEN, 3.5) == 4);
    assert_true(E1(NEARBYINT, 0.5) == 0 && signbit(E1(RINT, -0.5)) && signbit(E1(CEIL, -0.5)));
    assert_true(E1(FLOOR, -0.5) == -1 && E1(TRUNC, -1.5) == -1 && E1(FABS, -inf) == inf);
#undef E1
#undef E2
  }
  /* formats without inf: overflow is NaN (E4M3FN) or max (E2M1) */
  assert_true(isnan(fp_math_eval(FP_MATH_EXP, FP_F8E4M3FN, 100.0, 0)));
  assert_true(fp_math_eval(FP_MATH_EXP, FP_E2M1, 6.0, 0) == 6.0);
  assert_true(isinf(fp_math_eval(FP_MATH_EXP, FP_F8E5M2, 100.0, 0)));
}

/* results that sit exactly on a rounding boundary of the target format */
static void test_fp_math_exact_ties(void **state)
{
  (void)state;
  /* f16: 63^2 = 3969 lies between 3968 and 3970: to even 3968 */
  assert_true(fp_math_eval(FP_MATH_POW, FP_F16, 63.0, 2.0) == 3968.0);
  assert_true(fp_math_eval(FP_MATH_POW, FP_F16, 65.0, 2.0) == 4224.0);
  /* f8E5M2: log2(512) = 9 between 8 and 10: to even 8 */
  assert_true(fp_math_eval(FP_MATH_LOG2, FP_F8E5M2, 512.0, 0) == 8.0);
  /* bf16: tgamma(8) = 7! = 5040 = 157.5 * 32 lies between 5024 and 5056:
   * to the even significand, 5056 */
  assert_true(fp_math_eval(FP_MATH_TGAMMA, FP_BF16, 8.0, 0) == 5056.0);
  /* f64: 10^23 is a tie between two doubles; TF32: 10^5 a tie too */
  assert_true(fp_math_eval(FP_MATH_EXP10, FP_F64, 23.0, 0) == 1e23);
  assert_true(fp_math_eval(FP_MATH_EXP10, FP_TF32, 5.0, 0) == 99968.0); /* 1562.5 * 64 */
  /* f16: 2^-25 is half the smallest subnormal: to even 0 */
  assert_true(fp_math_eval(FP_MATH_EXP2, FP_F16, -25.0, 0) == 0.0);
  assert_true(fp_math_eval(FP_MATH_POW, FP_F16, 2.0, -25.0) == 0.0);
  /* f16: 0.5^24.5 = 2^-24.5 is just below 2^-24 and above the tie 2^-25 */
  assert_true(fp_math_eval(FP_MATH_POW, FP_F16, 0.5, 24.5) == 0x1p-24);
  /* hypot of a scaled (3, 4, 5); ties from larger triples are generated below */
  assert_true(fp_math_eval(FP_MATH_HYPOT, FP_F32, 0x3p20, 0x4p20) == 0x5p20);
  /* f64 rsqrt and cbrt decided exactly */
  assert_true(fp_math_eval(FP_MATH_RSQRT, FP_F64, 0.25, 0) == 2.0);
  assert_true(fp_math_eval(FP_MATH_CBRT, FP_F64, 0x1p-1074, 0) == cbrt(0x1p-1074));
  uint64_t unproven = 0, bad = 0;
  const fp_format fs[] = {FP_F16, FP_BF16, FP_F32, FP_TF32, FP_F8E4M3FN, FP_F8E5M2, FP_E3M2, FP_F64};
  const fp_math_fn fns[] = {FP_MATH_POW,   FP_MATH_HYPOT,  FP_MATH_EXP2, FP_MATH_EXP10, FP_MATH_LOG2,
                            FP_MATH_LOG10, FP_MATH_TGAMMA, FP_MATH_SQRT, FP_MATH_CBRT};
  for (size_t i = 0; i < sizeof fs / sizeof fs[0]; i++)
    for (size_t j = 0; j < sizeof fns / sizeof fns[0]; j++) bad += run(fns[j], fs[i], GEN_EXACT, 20000, &unproven);
  assert_true(bad == 0);
  assert_true(unproven == 0);
}

static const fp_format small_fmts[] = {FP_F8E4M3FN, FP_F8E5M2, FP_F8E4M3FNUZ, FP_F8E5M2FNUZ, FP_E2M1, FP_E2M3, FP_E3M2};

/* every input of every 16-bit and smaller format, unary functions */
static void test_fp_math_unary_16bit_exhaustive(void **state)
{
  (void)state;
  uint64_t bad = 0, unproven = 0;
  for (int i = 0; i < FP_MATH_COUNT; i++) {
    if (fp_math_arity((fp_math_fn)i) != 1) continue;
    bad += run((fp_math_fn)i, FP_F16, GEN_ALL, 65536, &unproven);
    bad += run((fp_math_fn)i, FP_BF16, GEN_ALL, 65536, &unproven);
  }
  assert_true(bad == 0);
  assert_true(unproven == 0);
}

static void test_fp_math_unary_fp8_exhaustive(void **state)
{
  (void)state;
  uint64_t bad = 0, unproven = 0;
  for (int i = 0; i < FP_MATH_COUNT; i++) {
    if (fp_math_arity((fp_math_fn)i) != 1) continue;
    for (size_t k = 0; k < sizeof small_fmts / sizeof small_fmts[0]; k++)
      bad += run((fp_math_fn)i, small_fmts[k], GEN_ALL, 1ull << fp_bits(small_fmts[k]), &unproven);
  }
  assert_true(bad == 0);
  assert_true(unproven == 0);
}

static void test_fp_math_binary_small_formats(void **state)
{
  (void)state;
  uint64_t bad = 0, unproven = 0;
  for (int i = 0; i < FP_MATH_COUNT; i++) {
    if (fp_math_arity((fp_math_fn)i) != 2) continue;
    bad += run((fp_math_fn)i, FP_F16, GEN_RAND, 200000, &unproven);
    bad += run((fp_math_fn)i, FP_BF16, GEN_RAND, 200000, &unproven);
    for (size_t k = 0; k < sizeof small_fmts / sizeof small_fmts[0]; k++) /* all pairs */
      bad += run((fp_math_fn)i, small_fmts[k], GEN_PAIRS, 1ull << (2 * fp_bits(small_fmts[k])), &unproven);
  }
  assert_true(bad == 0);
  assert_true(unproven == 0);
}

/* 10^6 inputs per function in f32 (10^5 in make check) */
static void test_fp_math_f32_random(void **state)
{
  (void)state;
  uint64_t bad = 0, unproven = 0;
  for (int i = 0; i < FP_MATH_COUNT; i++) bad += run((fp_math_fn)i, FP_F32, GEN_RAND, 1000000, &unproven);
  assert_true(bad == 0);
  assert_true(unproven == 0);
}

/* TF32 and f64 samples (f64 is best effort, but no failure is expected) */
static void test_fp_math_tf32_f64_sample(void **state)
{
  (void)state;
  uint64_t bad = 0, unproven = 0;
  for (int i = 0; i < FP_MATH_COUNT; i++) {
    bad += run((fp_math_fn)i, FP_TF32, GEN_RAND, 10000, &unproven);
    bad += run((fp_math_fn)i, FP_F64, GEN_RAND, 10000, &unproven);
  }
  assert_true(bad == 0);
}

static int setup(void **state)
{
  (void)state;
  if (!mpfr_buildopt_tls_p()) return -1; /* per-thread exponent range needed */
  const char *full = getenv("TTREF_CHECK_FULL");
  full_tier = full && *full && strcmp(full, "0") != 0;
  return 0;
}

int main(int argc, char **argv)
{
  if (argc > 1) cmocka_set_test_filter(argv[1]);
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_fp_math_names_lookup),         cmocka_unit_test(test_fp_math_annex_f_specials),
      cmocka_unit_test(test_fp_math_exact_ties),           cmocka_unit_test(test_fp_math_unary_16bit_exhaustive),
      cmocka_unit_test(test_fp_math_unary_fp8_exhaustive), cmocka_unit_test(test_fp_math_binary_small_formats),
      cmocka_unit_test(test_fp_math_f32_random),           cmocka_unit_test(test_fp_math_tf32_f64_sample),
  };
  return cmocka_run_group_tests(tests, setup, NULL);
}
