/*
 * test_fp.c: unit tests of interp/fp_round.c against independent oracles:
 * GCC's _Float16 conversions, an enumerate-and-search reference rounding
 * written here, and MPFR (fma).
 * `make check` runs the random sweeps shortened (a tenth of the f16 conversions, a quarter of the
 * fma triples) and the value sweep of formats above 16 bits (tf32) on every 8th value and both
 * ends; `make check-full` (TTREF_CHECK_FULL=1) runs them whole.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <math.h>
#include <float.h>
#include <cmocka.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_rng.h>
#include <mpfr.h>

#include "fp.h"
#include "unit_fixture.h"

static uint16_t hbits(_Float16 h)
{
  uint16_t u;
  memcpy(&u, &h, sizeof u);
  return u;
}

static float ffrom(uint32_t u)
{
  float v;
  memcpy(&v, &u, sizeof v);
  return v;
}

/* bitwise equality, except that any two NaNs are equal */
static int same(double a, double b)
{
  if (isnan(a) || isnan(b)) return isnan(a) && isnan(b);
  return unit_dbits(a) == unit_dbits(b);
}

static gsl_rng *rng;

/* make check-full sets TTREF_CHECK_FULL=1: the whole sweeps instead of shortened ones */
static bool full_tier;

static uint64_t rbits64(void)
{
  uint64_t hi = gsl_rng_get(rng), lo = gsl_rng_get(rng);
  return (hi << 32) | lo;
}

/* a double that is dense near the format's grid: random sign, exponent in
 * [emin-4, emax+2] of the format, random 52-bit mantissa */
static double rand_near(fp_format f)
{
  int lo = (int)floor(log2(fp_min_subnormal(f))) - 3;
  int hi = (int)floor(log2(fp_max_finite(f))) + 2;
  int e = lo + (int)gsl_rng_uniform_int(rng, (unsigned long)(hi - lo + 1));
  uint64_t u = ((uint64_t)(e + 1023) << 52) | (rbits64() & 0x000fffffffffffffull);
  if (gsl_rng_get(rng) & 1) u |= 1ull << 63;
  return unit_dfrom(u);
}

/* ---- independent reference rounding: enumerate, sort, search ---------- */

typedef struct ref_fmt {
  fp_format f;
  int n;         /* number of positive finite values */
  double *val;   /* ascending */
  uint64_t *pat; /* their patterns */
  double beyond; /* the grid point after the max (unbounded exponent) */
  int beyond_odd;
  uint64_t sign_bit, inf_pat;
} ref_fmt;

static int cmp_pair(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* Builds the table from the decoder only where the decoder is itself
 * checked: every value is also recomputed from its fields here. */
static void ref_build(ref_fmt *R, fp_format f, int ebits, int mbits, int bias, int sgn, int subn)
{
  int nb = fp_bits(f);
  R->f = f;
  R->val = malloc(sizeof(double) * ((size_t)1 << nb));
  R->pat = malloc(sizeof(uint64_t) * ((size_t)1 << nb));
  double(*pairs)[2] = malloc(sizeof(double[2]) * ((size_t)1 << nb));
  int n = 0;
  for (uint64_t b = 0; b < (1ull << (ebits + mbits)); b++) {
    uint64_t field = b >> mbits, mant = b & ((1ull << mbits) - 1);
    double v;
    if (subn && field == 0) v = ldexp((double)mant, 1 - bias - mbits);
    else v = ldexp(1.0 + ldexp((double)mant, -mbits), (int)field - bias);
    double d = fp_decode(f, b);
    if (isnan(d) || isinf(d)) continue; /* specials come from the decoder */
    assert_true(same(d, v));            /* decoder agrees with the fields */
    if (v == 0) continue;
    pairs[n][0] = v;
    pairs[n][1] = (double)b;
    n++;
  }
  qsort(pairs, (size_t)n, sizeof pairs[0], cmp_pair);
  for (int i = 0; i < n; i++) {
    R->val[i] = pairs[i][0];
    R->pat[i] = (uint64_t)pairs[i][1];
  }
  R->n = n;
  free(pairs);
  double mx = R->val[n - 1];
  double ulp = n >= 2 && mbits > 0 ? mx - R->val[n - 2] : mx;
  R->beyond = mx + ulp;
  R->beyond_odd = (int)((R->pat[n - 1] + 1) & 1);
  R->sign_bit = sgn ? 1ull << (ebits + mbits) : 0;
  R->inf_pat = ((1ull << ebits) - 1) << mbits;
  assert_true(mx == fp_max_finite(f));
}

static void ref_free(ref_fmt *R)
{
  free(R->val);
  free(R->pat);
}

static int ref_isnan_pat(const ref_fmt *R, uint64_t p) { return isnan(fp_decode(R->f, p)); }

/* reference encode of finite nonzero-or-zero v; returns the pattern, with
 * *is_nan set where any NaN pattern is acceptable */
static uint64_t ref_encode(const ref_fmt *R, double v, fp_round r, fp_overflow o, int *is_nan)
{
  fp_format f = R->f;
  *is_nan = 0;
  int neg = signbit(v) != 0;
  double a = fabs(v);
  uint64_t sb = neg ? R->sign_bit : 0;
  uint64_t maxp = R->pat[R->n - 1];
  if (f == FP_E8M0) {
    if (isnan(v) || v <= 0) return 0xff;
    if (isinf(v)) return o == FP_OVF_SAT ? 0xfe : 0xff;
  }
  if (isnan(v)) {
    *is_nan = fp_has_nan(f);
    return fp_has_nan(f) ? 0 : maxp;
  }
  int ovf = 0;
  uint64_t res = 0;
  if (isinf(a)) {
    if (o == FP_OVF_SAT) return sb | maxp;
    ovf = 1;
    r = FP_RNE; /* inf stays inf where it can */
  } else {
    /* lower: largest grid value <= a (0 if none); upper: smallest >= a */
    int lo = -1, hi = R->n; /* index of lower, or -1 for zero */
    int L = 0, H = R->n - 1;
    while (L <= H) {
      int mid = (L + H) / 2;
      if (R->val[mid] <= a) {
        lo = mid;
        L = mid + 1;
      } else {
        H = mid - 1;
      }
    }
    double lower = lo >= 0 ? R->val[lo] : 0.0;
    uint64_t lowp = lo >= 0 ? R->pat[lo] : 0;
    if (f == FP_E8M0 && lo < 0) return 0x00; /* no zero */
    double upper;
    uint64_t upp;
    int up_beyond = 0;
    if (lower == a) {
      upper = a;
      upp = lowp;
      hi = lo;
    } else if (lo + 1 < R->n) {
      hi = lo + 1;
      upper = R->val[hi];
      upp = R->pat[hi];
    } else {
      upper = R->beyond;
      upp = (uint64_t)R->beyond_odd;
      up_beyond = 1;
    }
    if (a > R->beyond) {
      ovf = 1;
    } else if (r == FP_RTZ) {
      res = lowp;
    } else {
      long double dl = (long double)a - lower, du = (long double)upper - a;
      int take_up;
      if (dl < du) take_up = 0;
      else if (du < dl) take_up = 1;
      else take_up = (int)(lowp & 1); /* tie: even pattern */
      if (take_up && up_beyond) ovf = 1;
      res = take_up ? upp : lowp;
    }
    if (!ovf) {
      if (res == 0 && fp_has_nan(f) && !fp_has_neg_zero(f)) return 0; /* FNUZ */
      return sb | res;
    }
  }
  /* overflow */
  if (r == FP_RTZ || o == FP_OVF_SAT || !fp_has_nan(f)) return sb | maxp;
  if (fp_has_inf(f)) return sb | R->inf_pat;
  *is_nan = 1;
  return 0;
}

static void check_ref(const ref_fmt *R, double v, fp_round r, fp_overflow o)
{
  int is_nan;
  uint64_t want = ref_encode(R, v, r, o, &is_nan);
  uint64_t got = fp_encode(R->f, v, r, o);
  if (is_nan) {
    if (!ref_isnan_pat(R, got))
      fail_msg("%s: v=%a r=%d o=%d: got 0x%llx, want NaN", fp_name(R->f), v, r, o, (unsigned long long)got);
  } else if (got != want) {
    fail_msg("%s: v=%a r=%d o=%d: got 0x%llx, want 0x%llx", fp_name(R->f), v, r, o, (unsigned long long)got,
             (unsigned long long)want);
  }
  double rt = fp_round_to(R->f, v, r, o);
  if (!same(rt, fp_decode(R->f, got)))
    fail_msg("%s: round_to(%a) = %a != decode(encode) %a", fp_name(R->f), v, rt, fp_decode(R->f, got));
}

/* every value, every midpoint and its neighbours, random doubles near the
 * grid, overflow region, specials; all modes */
static void ref_sweep(const ref_fmt *R, int nrand)
{
  static const fp_round rs[2] = {FP_RNE, FP_RTZ};
  static const fp_overflow os[2] = {FP_OVF_INF, FP_OVF_SAT};
  for (int ri = 0; ri < 2; ri++) {
    for (int oi = 0; oi < 2; oi++) {
      fp_round r = rs[ri];
      fp_overflow o = os[oi];
      for (int s = 0; s < 2; s++) {
        double sg = s ? -1.0 : 1.0;
        for (int i = 0; i <= R->n; i++) {
          if (!full_tier && R->n > 70000 && i % 8 != 0 && i > 4096 && i < R->n - 4096) continue;
          double lower = i == 0 ? 0.0 : R->val[i - 1];
          double upper = i < R->n ? R->val[i] : R->beyond;
          double mid = lower + (upper - lower) / 2;
          double pts[] = {lower,
                          upper,
                          mid,
                          nextafter(mid, 0),
                          nextafter(mid, INFINITY),
                          nextafter(upper, 0),
                          nextafter(lower, INFINITY)};
          for (size_t k = 0; k < sizeof pts / sizeof pts[0]; k++) check_ref(R, sg * pts[k], r, o);
        }
        double sp[] = {0.0, INFINITY, NAN, R->beyond * 2, 1e300, 1e-300, 0x1p-1074};
        for (size_t k = 0; k < sizeof sp / sizeof sp[0]; k++) check_ref(R, sg * sp[k], r, o);
      }
      for (int i = 0; i < nrand; i++) check_ref(R, rand_near(R->f), r, o);
    }
  }
}

static void test_fp_table_consistent(void **state)
{
  (void)state;
  for (int i = 0; i < FP_FORMAT_COUNT; i++) {
    fp_format f = (fp_format)i, g;
    assert_true(fp_lookup(fp_name(f), &g));
    assert_int_equal(f, g);
    assert_true(fp_bits(f) > 0);
    assert_true(fp_min_subnormal(f) <= fp_min_normal(f));
    assert_true(fp_min_normal(f) < fp_max_finite(f));
  }
  assert_string_equal(fp_name(FP_FORMAT_COUNT), "<invalid>");
  assert_int_equal(fp_bits(FP_FORMAT_COUNT), 0);
  fp_format g;
  assert_false(fp_lookup("f17", &g));
  assert_int_equal(fp_bits(FP_F16), 16);
  assert_int_equal(fp_bits(FP_TF32), 19);
  assert_int_equal(fp_bits(FP_E2M1), 4);
  assert_int_equal(fp_bits(FP_E3M2), 6);
  assert_int_equal(fp_bits(FP_E8M0), 8);
  assert_true(fp_max_finite(FP_F16) == 65504.0);
  assert_true(fp_max_finite(FP_F8E4M3FN) == 448.0);
  assert_true(fp_max_finite(FP_F8E4M3FNUZ) == 240.0);
  assert_true(fp_max_finite(FP_F8E5M2) == 57344.0);
  assert_true(fp_max_finite(FP_E2M1) == 6.0);
  assert_true(fp_max_finite(FP_F32) == (double)FLT_MAX);
  assert_true(fp_min_subnormal(FP_F16) == 0x1p-24);
  assert_true(fp_min_subnormal(FP_F8E4M3FNUZ) == 0x1p-10);
  assert_true(fp_min_subnormal(FP_E8M0) == 0x1p-127);
  assert_true(fp_min_normal(FP_F32) == 0x1p-126);
  /* the max_finite column matches the encoding */
  assert_true(fp_decode(FP_F16, 0x7bff) == fp_max_finite(FP_F16));
  assert_true(fp_decode(FP_BF16, 0x7f7f) == fp_max_finite(FP_BF16));
  assert_true(fp_decode(FP_F32, 0x7f7fffff) == fp_max_finite(FP_F32));
  assert_true(fp_decode(FP_F64, 0x7fefffffffffffffull) == fp_max_finite(FP_F64));
  assert_true(fp_decode(FP_F8E4M3FN, 0x7e) == fp_max_finite(FP_F8E4M3FN));
  assert_true(fp_decode(FP_F8E5M2, 0x7b) == fp_max_finite(FP_F8E5M2));
  assert_true(fp_decode(FP_F8E4M3FNUZ, 0x7f) == fp_max_finite(FP_F8E4M3FNUZ));
  assert_true(fp_decode(FP_F8E5M2FNUZ, 0x7f) == fp_max_finite(FP_F8E5M2FNUZ));
  assert_true(fp_decode(FP_E2M1, 0x7) == fp_max_finite(FP_E2M1));
  assert_true(fp_decode(FP_E2M3, 0x1f) == fp_max_finite(FP_E2M3));
  assert_true(fp_decode(FP_E3M2, 0x1f) == fp_max_finite(FP_E3M2));
  assert_true(fp_decode(FP_E8M0, 0xfe) == fp_max_finite(FP_E8M0));
  assert_true(fp_decode(FP_TF32, 0x3fbff) == fp_max_finite(FP_TF32));
}

static void test_fp_f16_decode_exhaustive(void **state)
{
  (void)state;
  for (uint32_t b = 0; b < 65536; b++) {
    _Float16 h;
    uint16_t hb = (uint16_t)b;
    memcpy(&h, &hb, sizeof h);
    double got = fp_decode(FP_F16, b);
    if (isnan((double)h)) {
      /* the oracle quiets NaNs, so check the payload placement by hand */
      uint64_t want = ((uint64_t)(b >> 15) << 63) | 0x7ff0000000000000ull | ((uint64_t)(b & 0x3ff) << 42);
      assert_true(unit_dbits(got) == want);
    } else {
      assert_true(unit_dbits(got) == unit_dbits((double)h));
    }
  }
}

/* encode(decode(b)) == b for every pattern of every format up to 19 bits,
 * in every mode (finite values are exact, so the mode cannot matter) */
static void test_fp_roundtrip_every_pattern(void **state)
{
  (void)state;
  for (int i = 0; i < FP_FORMAT_COUNT; i++) {
    fp_format f = (fp_format)i;
    if (fp_bits(f) > 19) continue;
    for (uint64_t b = 0; b < (1ull << fp_bits(f)); b++) {
      double v = fp_decode(f, b);
      for (int r = 0; r < 2; r++) {
        uint64_t e = fp_encode(f, v, (fp_round)r, FP_OVF_INF);
        if (e != b) fail_msg("%s: 0x%llx -> %a -> 0x%llx", fp_name(f), (unsigned long long)b, v, (unsigned long long)e);
        assert_true(unit_dbits(fp_round_to(f, v, (fp_round)r, FP_OVF_INF)) == unit_dbits(v));
        if (!isinf(v)) {
          assert_true(fp_encode(f, v, (fp_round)r, FP_OVF_SAT) == b);
          assert_true(unit_dbits(fp_round_to(f, v, (fp_round)r, FP_OVF_SAT)) == unit_dbits(v));
        }
      }
    }
  }
  /* FNUZ: no -0, and 0x80 is the only NaN */
  assert_true(fp_encode(FP_F8E4M3FNUZ, -0.0, FP_RNE, FP_OVF_INF) == 0);
  assert_true(fp_encode(FP_F8E5M2FNUZ, -0x1p-40, FP_RNE, FP_OVF_INF) == 0);
  assert_true(isnan(fp_decode(FP_F8E5M2FNUZ, 0x80)));
  assert_true(fp_encode(FP_F8E5M2FNUZ, -NAN, FP_RNE, FP_OVF_INF) == 0x80);
}

static void test_fp_f32_f64_roundtrip_random(void **state)
{
  (void)state;
  uint32_t sp32[] = {0,           0x80000000u, 1,           0x807fffffu, 0x7f800000u,
                     0xff800000u, 0x7f800001u, 0xffbfffffu, 0x7fc00000u, 0x7f7fffffu};
  for (size_t i = 0; i < sizeof sp32 / sizeof sp32[0]; i++)
    assert_true(fp_encode(FP_F32, fp_decode(FP_F32, sp32[i]), FP_RNE, FP_OVF_INF) == sp32[i]);
  for (int i = 0; i < 4000000; i++) {
    uint32_t b = (uint32_t)gsl_rng_get(rng);
    double v = fp_decode(FP_F32, b);
    if (!isnan(v)) assert_true(unit_dbits(v) == unit_dbits((double)ffrom(b)));
    assert_true(fp_encode(FP_F32, v, FP_RNE, FP_OVF_INF) == b);
    assert_true(fp_encode(FP_F32, v, FP_RTZ, FP_OVF_INF) == b);
    assert_true(same(fp_round_to(FP_F32, v, FP_RNE, FP_OVF_INF), v));
    uint64_t d = rbits64();
    assert_true(fp_encode(FP_F64, fp_decode(FP_F64, d), FP_RNE, FP_OVF_INF) == d);
  }
}

/* f32 -> f16 RNE against GCC's (_Float16) conversion of the float */
static void test_fp_f32_to_f16_matches_gcc(void **state)
{
  (void)state;
  for (int i = 0; i < (full_tier ? 10000000 : 1000000); i++) {
    uint32_t b = (uint32_t)gsl_rng_get(rng);
    if (i & 1) b = (b & 0x87ffffffu) | 0x30000000u; /* f16 range and below */
    float x = ffrom(b);
    _Float16 h = (_Float16)x;
    uint64_t got = fp_encode(FP_F16, (double)x, FP_RNE, FP_OVF_INF);
    if (isnan(x)) {
      assert_true(isnan(fp_decode(FP_F16, got)));
      assert_true((got >> 15) == (b >> 31));
      continue;
    }
    if (got != hbits(h)) fail_msg("f32 %a: got 0x%04llx, gcc 0x%04x", (double)x, (unsigned long long)got, hbits(h));
    assert_true(unit_dbits(fp_round_to(FP_F16, (double)x, FP_RNE, FP_OVF_INF)) == unit_dbits((double)h));
  }
  /* every halfway case between adjacent f16 values (incl. subnormals and the
   * overflow threshold 65520), and the floats on either side of it */
  for (uint32_t b = 0; b < 0x7c00; b++) {
    double lo = fp_decode(FP_F16, b), hi = b == 0x7bff ? 65536.0 : fp_decode(FP_F16, b + 1);
    float mid = (float)((lo + hi) / 2); /* exact: 12 significant bits */
    assert_true((double)mid == (lo + hi) / 2);
    float pts[3] = {mid, nextafterf(mid, 0), nextafterf(mid, INFINITY)};
    for (int k = 0; k < 3; k++) {
      for (int s = 0; s < 2; s++) {
        float x = s ? -pts[k] : pts[k];
        _Float16 h = (_Float16)x;
        assert_true(fp_encode(FP_F16, (double)x, FP_RNE, FP_OVF_INF) == hbits(h));
        assert_true(unit_dbits(fp_round_to(FP_F16, (double)x, FP_RNE, FP_OVF_INF)) == unit_dbits((double)h));
      }
    }
  }
}

/* f64 -> f16 directly (libgcc __truncdfhf2 rounds once) */
static void test_fp_f64_to_f16_matches_gcc(void **state)
{
  (void)state;
  for (int i = 0; i < (full_tier ? 2000000 : 200000); i++) {
    double x = rand_near(FP_F16);
    _Float16 h = (_Float16)x;
    assert_true(fp_encode(FP_F16, x, FP_RNE, FP_OVF_INF) == hbits(h));
  }
  /* a double just above an f16 midpoint: float first would round it down to
   * the midpoint and then to even; one rounding goes up */
  double x = 1.0 + 0x1p-11 + 0x1p-40;
  assert_true(fp_encode(FP_F16, x, FP_RNE, FP_OVF_INF) == 0x3c01);
  assert_true(hbits((_Float16)(float)x) == 0x3c00); /* the double rounding */
}

static void test_fp_small_formats_match_reference(void **state)
{
  (void)state;
  static const struct {
    fp_format f;
    int e, m, bias, sgn, subn;
  } T[] = {
      {FP_BF16, 8, 7, 127, 1, 1},  {FP_F16, 5, 10, 15, 1, 1},      {FP_F8E4M3FN, 4, 3, 7, 1, 1},
      {FP_F8E5M2, 5, 2, 15, 1, 1}, {FP_F8E4M3FNUZ, 4, 3, 8, 1, 1}, {FP_F8E5M2FNUZ, 5, 2, 16, 1, 1},
      {FP_E2M1, 2, 1, 1, 1, 1},    {FP_E2M3, 2, 3, 1, 1, 1},       {FP_E3M2, 3, 2, 3, 1, 1},
      {FP_E8M0, 8, 0, 127, 0, 0},  {FP_TF32, 8, 10, 127, 1, 1},
  };
  for (size_t i = 0; i < sizeof T / sizeof T[0]; i++) {
    ref_fmt R;
    ref_build(&R, T[i].f, T[i].e, T[i].m, T[i].bias, T[i].sgn, T[i].subn);
    ref_sweep(&R, fp_bits(T[i].f) >= 16 ? 200000 : 50000);
    ref_free(&R);
  }
}

static void test_fp_rtz_cases(void **state)
{
  (void)state;
  assert_true(fp_encode(FP_F16, 1.0 + 0x1p-10 - 0x1p-30, FP_RTZ, FP_OVF_INF) == 0x3c00);
  assert_true(fp_encode(FP_F16, -(1.0 + 0x1p-10 - 0x1p-30), FP_RTZ, FP_OVF_INF) == 0xbc00);
  assert_true(fp_encode(FP_F16, 65519.0, FP_RTZ, FP_OVF_INF) == 0x7bff);
  assert_true(fp_encode(FP_F16, 1e10, FP_RTZ, FP_OVF_INF) == 0x7bff); /* never inf */
  assert_true(fp_encode(FP_F16, INFINITY, FP_RTZ, FP_OVF_INF) == 0x7c00);
  assert_true(fp_encode(FP_F16, 0x1p-25, FP_RTZ, FP_OVF_INF) == 0x0000);
  assert_true(fp_encode(FP_F16, 0x1.fp-24, FP_RTZ, FP_OVF_INF) == 0x0001);
  assert_true(fp_encode(FP_BF16, 1.0 + 0x1.fep-8, FP_RTZ, FP_OVF_INF) == 0x3f80);
  assert_true(fp_encode(FP_F8E4M3FN, 470.0, FP_RTZ, FP_OVF_INF) == 0x7e);
  assert_true(fp_encode(FP_F8E4M3FN, 500.0, FP_RTZ, FP_OVF_INF) == 0x7e);
  assert_true(fp_encode(FP_F32, 1.0 + 0x1p-23 - 0x1p-50, FP_RTZ, FP_OVF_INF) == 0x3f800000u);
  assert_true(fp_encode(FP_E8M0, 3.9, FP_RTZ, FP_OVF_INF) == 128);
  assert_true(fp_round_to(FP_E2M1, 5.9, FP_RTZ, FP_OVF_INF) == 4.0);
  assert_true(fp_round_to(FP_E2M1, -0.49, FP_RTZ, FP_OVF_INF) == 0.0 &&
              signbit(fp_round_to(FP_E2M1, -0.49, FP_RTZ, FP_OVF_INF)));
}

static void test_fp_saturation_cases(void **state)
{
  (void)state;
  /* SAT: +-inf and overflow to +-max, NaN stays NaN */
  assert_true(fp_encode(FP_F8E4M3FN, INFINITY, FP_RNE, FP_OVF_SAT) == 0x7e);
  assert_true(fp_encode(FP_F8E4M3FN, -INFINITY, FP_RNE, FP_OVF_SAT) == 0xfe);
  assert_true(fp_encode(FP_F8E4M3FN, 1e30, FP_RNE, FP_OVF_SAT) == 0x7e);
  assert_true(fp_encode(FP_F8E4M3FN, NAN, FP_RNE, FP_OVF_SAT) == 0x7f);
  assert_true(fp_encode(FP_F8E4M3FN, -NAN, FP_RNE, FP_OVF_SAT) == 0xff);
  assert_true(fp_encode(FP_F8E5M2, INFINITY, FP_RNE, FP_OVF_SAT) == 0x7b);
  assert_true(fp_encode(FP_F8E5M2, -1e6, FP_RNE, FP_OVF_SAT) == 0xfb);
  assert_true(fp_encode(FP_F16, INFINITY, FP_RNE, FP_OVF_SAT) == 0x7bff);
  assert_true(fp_round_to(FP_F64, -INFINITY, FP_RNE, FP_OVF_SAT) == -DBL_MAX);
  assert_true(fp_round_to(FP_F32, 1e39, FP_RNE, FP_OVF_SAT) == (double)FLT_MAX);
  assert_true(isnan(fp_round_to(FP_F8E5M2, NAN, FP_RNE, FP_OVF_SAT)));
  /* OVF_INF: to inf, or NaN where there is no inf, or max where neither */
  assert_true(fp_encode(FP_F8E4M3FN, 1e30, FP_RNE, FP_OVF_INF) == 0x7f);
  assert_true(fp_encode(FP_F8E4M3FN, -1e30, FP_RNE, FP_OVF_INF) == 0xff);
  assert_true(fp_encode(FP_F8E4M3FN, INFINITY, FP_RNE, FP_OVF_INF) == 0x7f);
  assert_true(fp_encode(FP_F8E4M3FNUZ, 1e30, FP_RNE, FP_OVF_INF) == 0x80);
  assert_true(fp_encode(FP_F8E5M2FNUZ, -INFINITY, FP_RNE, FP_OVF_INF) == 0x80);
  assert_true(fp_encode(FP_F8E5M2, 1e30, FP_RNE, FP_OVF_INF) == 0x7c);
  assert_true(fp_encode(FP_E2M1, 1e30, FP_RNE, FP_OVF_INF) == 0x7);
  assert_true(fp_encode(FP_E2M1, -INFINITY, FP_RNE, FP_OVF_INF) == 0xf);
  assert_true(fp_encode(FP_E2M1, NAN, FP_RNE, FP_OVF_INF) == 0x7);
  assert_true(fp_encode(FP_E8M0, 1e300, FP_RNE, FP_OVF_INF) == 0xff);
  assert_true(fp_encode(FP_E8M0, 1e300, FP_RNE, FP_OVF_SAT) == 0xfe);
  /* thresholds: RNE overflows at max + half ulp (ties to even beyond max) */
  assert_true(fp_encode(FP_F16, 65520.0, FP_RNE, FP_OVF_INF) == 0x7c00);
  assert_true(fp_encode(FP_F16, nextafter(65520.0, 0), FP_RNE, FP_OVF_INF) == 0x7bff);
  assert_true(fp_encode(FP_F8E5M2, 61440.0, FP_RNE, FP_OVF_INF) == 0x7c);
  assert_true(fp_encode(FP_F8E5M2, 61439.0, FP_RNE, FP_OVF_INF) == 0x7b);
  assert_true(fp_encode(FP_F8E4M3FNUZ, 248.0, FP_RNE, FP_OVF_INF) == 0x80);
  assert_true(fp_encode(FP_F8E4M3FNUZ, 247.9, FP_RNE, FP_OVF_INF) == 0x7f);
  /* E4M3FN: 448 = 1.110b*2^8 has an even significand, so the tie 464 stays */
  assert_true(fp_encode(FP_F8E4M3FN, 464.0, FP_RNE, FP_OVF_INF) == 0x7e);
  assert_true(fp_encode(FP_F8E4M3FN, 464.5, FP_RNE, FP_OVF_INF) == 0x7f);
  assert_true(fp_encode(FP_F8E4M3FN, 464.5, FP_RNE, FP_OVF_SAT) == 0x7e);
  assert_true(fp_encode(FP_E3M2, 30.0, FP_RNE, FP_OVF_INF) == 0x1f); /* no NaN */
}

static void test_fp_nan_encodings(void **state)
{
  (void)state;
  assert_true(fp_encode(FP_F16, NAN, FP_RNE, FP_OVF_INF) == 0x7e00);
  assert_true(fp_encode(FP_F16, -NAN, FP_RNE, FP_OVF_INF) == 0xfe00);
  assert_true(fp_encode(FP_BF16, NAN, FP_RNE, FP_OVF_INF) == 0x7fc0);
  assert_true(fp_encode(FP_F32, NAN, FP_RNE, FP_OVF_INF) == 0x7fc00000u);
  assert_true(fp_encode(FP_F8E5M2, NAN, FP_RNE, FP_OVF_INF) == 0x7e);
  assert_true(fp_encode(FP_TF32, NAN, FP_RNE, FP_OVF_INF) == 0x3fe00);
  /* payload kept in the top bits; a signalling NaN whose payload would be
   * lost becomes quiet rather than inf */
  assert_true(fp_encode(FP_F16, unit_dfrom(0x7ff4000000000000ull), FP_RNE, FP_OVF_INF) == 0x7d00);
  assert_true(fp_encode(FP_F16, unit_dfrom(0x7ff0000000000001ull), FP_RNE, FP_OVF_INF) == 0x7e00);
  assert_true(fp_encode(FP_F8E4M3FN, NAN, FP_RNE, FP_OVF_INF) == 0x7f);
  assert_true(fp_encode(FP_F8E4M3FNUZ, NAN, FP_RNE, FP_OVF_INF) == 0x80);
  assert_true(fp_encode(FP_E8M0, NAN, FP_RNE, FP_OVF_INF) == 0xff);
  assert_true(fp_encode(FP_E8M0, -1.0, FP_RNE, FP_OVF_INF) == 0xff);
  assert_true(fp_encode(FP_E8M0, 0x1p-200, FP_RNE, FP_OVF_INF) == 0x00);
  assert_true(fp_encode(FP_E8M0, 1.5, FP_RNE, FP_OVF_INF) == 128); /* tie: even field */
  assert_true(fp_encode(FP_E8M0, 3.0, FP_RNE, FP_OVF_INF) == 128);
  assert_true(fp_encode(FP_E8M0, 3.01, FP_RNE, FP_OVF_INF) == 129);
  assert_true(fp_decode(FP_E8M0, 127) == 1.0 && fp_decode(FP_E8M0, 0) == 0x1p-127);
  assert_true(signbit(fp_decode(FP_F16, 0xfe00)) && isnan(fp_decode(FP_F16, 0xfe00)));
  assert_true(isnan(fp_decode(FP_F8E4M3FN, 0xff)) && fp_decode(FP_F8E4M3FN, 0x7e) == 448);
  assert_true(fp_decode(FP_F8E4M3FN, 0x78) == 256.0); /* S.1111.000 is finite */
}

/* round_to == decode(encode) on random doubles, all formats and modes */
static void test_fp_round_to_matches_encode(void **state)
{
  (void)state;
  for (int i = 0; i < FP_FORMAT_COUNT; i++) {
    fp_format f = (fp_format)i;
    for (int k = 0; k < 100000; k++) {
      double v = (k & 3) ? rand_near(f) : unit_dfrom(rbits64());
      for (int r = 0; r < 2; r++) {
        for (int o = 0; o < 2; o++) {
          double a = fp_round_to(f, v, (fp_round)r, (fp_overflow)o);
          double b = fp_decode(f, fp_encode(f, v, (fp_round)r, (fp_overflow)o));
          if (unit_dbits(a) != unit_dbits(b)) fail_msg("%s %a r%d o%d: %a vs %a", fp_name(f), v, r, o, a, b);
        }
      }
    }
  }
}

/* ---- fma against MPFR ------------------------------------------------- */

/* v correctly rounded (RNDN) to f with overflow to inf/NaN per fp_encode:
 * MPFR at the format's precision with its subnormal range, then the
 * unbounded-exponent result checked against the max */
static double mpfr_to_fmt(fp_format f, int (*op)(mpfr_ptr, mpfr_srcptr, mpfr_srcptr, mpfr_srcptr, mpfr_rnd_t), double a,
                          double b, double c)
{
  int p = fp_precision(f);
  mpfr_exp_t emin_save = mpfr_get_emin();
  int e_minsub = (int)log2(fp_min_subnormal(f));
  mpfr_set_emin(e_minsub + 1);
  mpfr_t x, y, z, r;
  mpfr_inits2(53, x, y, z, (mpfr_ptr)0);
  mpfr_init2(r, p);
  mpfr_set_d(x, a, MPFR_RNDN);
  mpfr_set_d(y, b, MPFR_RNDN);
  mpfr_set_d(z, c, MPFR_RNDN);
  int t = op(r, x, y, z, MPFR_RNDN);
  t = mpfr_check_range(r, t, MPFR_RNDN);
  mpfr_subnormalize(r, t, MPFR_RNDN);
  double d = mpfr_get_d(r, MPFR_RNDN);
  mpfr_clears(x, y, z, r, (mpfr_ptr)0);
  mpfr_set_emin(emin_save);
  return fp_decode(f, fp_encode(f, d, FP_RNE, FP_OVF_INF)); /* d is on the grid */
}

static void test_fp_fma_single_rounding(void **state)
{
  (void)state;
  /* crafted f16: ab = 1 + 2^-9 + 2^-20; ab + c lies just above a tie that
   * RN(ab) + c would hit exactly */
  double a = 1.0 + 0x1p-10, b = 1.0 + 0x1p-10, c = 0x1p-11;
  double once = fp_fma(FP_F16, a, b, c);
  double twice = fp_round_to(FP_F16, fp_round_to(FP_F16, a * b, FP_RNE, FP_OVF_INF) + c, FP_RNE, FP_OVF_INF);
  assert_true(once == 1.0 + 0x3p-10);
  assert_true(twice == 1.0 + 0x1p-9);
  /* f32: ab = 1 + 2^-11 + 2^-24 is an f32 tie; c = +-2^-80 is below the
   * double's precision, so RN_double(ab + c) is the tie itself */
  a = 1.0 + 0x1p-12;
  b = 1.0 + 0x1p-12;
  assert_true(fp_fma(FP_F32, a, b, 0x1p-80) == 1.0 + 0x1p-11 + 0x1p-23);
  assert_true(fp_fma(FP_F32, a, b, -0x1p-80) == 1.0 + 0x1p-11);
  assert_true(fp_round_to(FP_F32, fma(a, b, 0x1p-80), FP_RNE, FP_OVF_INF) == 1.0 + 0x1p-11);
  assert_true(fp_fma(FP_F32, a, b, 0x1p-80) == mpfr_to_fmt(FP_F32, mpfr_fma, a, b, 0x1p-80));
  /* f32: sticky below a tie, within the double */
  a = 1.0 + 0x1p-23;
  b = 1.0 + 0x1p-23; /* ab = 1 + 2^-22 + 2^-46 */
  assert_true(fp_fma(FP_F32, a, b, 0x1p-24) == 1.0 + 0x1p-22 + 0x1p-23);
  /* random triples in several formats */
  static const fp_format fs[] = {FP_F16,    FP_BF16,       FP_F32,  FP_TF32, FP_F8E4M3FN,
                                 FP_F8E5M2, FP_F8E4M3FNUZ, FP_E2M1, FP_E3M2};
  long differ = 0;
  for (size_t i = 0; i < sizeof fs / sizeof fs[0]; i++) {
    fp_format f = fs[i];
    int n = (f == FP_F32 ? 300000 : 100000) / (full_tier ? 1 : 4);
    for (int k = 0; k < n; k++) {
      double x = fp_round_to(f, rand_near(f), FP_RNE, FP_OVF_INF);
      double y = fp_round_to(f, rand_near(f), FP_RNE, FP_OVF_INF);
      double z =
          fp_round_to(f, (k & 1) ? -x * y * (1 + 0x1p-8 * gsl_rng_uniform(rng)) : rand_near(f), FP_RNE, FP_OVF_INF);
      if (isnan(x) || isnan(y) || isnan(z)) continue;
      double want = mpfr_to_fmt(f, mpfr_fma, x, y, z);
      double g = fp_fma(f, x, y, z);
      if (!same(g, want)) fail_msg("fma %s(%a,%a,%a) = %a, want %a", fp_name(f), x, y, z, g, want);
      double two = fp_round_to(f, fp_round_to(f, x * y, FP_RNE, FP_OVF_INF) + z, FP_RNE, FP_OVF_INF);
      if (!same(two, want)) differ++;
    }
  }
  assert_true(differ > 1000); /* the test inputs do exercise single rounding */
  print_message("# fma: %ld random cases where two roundings differ\n", differ);
  /* specials and f64 */
  assert_true(isnan(fp_fma(FP_F16, INFINITY, 0.0, 1.0)));
  assert_true(fp_fma(FP_F16, 65504.0, 2.0, -65504.0) == 65504.0);
  assert_true(isinf(fp_fma(FP_F16, 65504.0, 2.0, 0.0)));
  assert_true(fp_fma(FP_F64, 0.1, 10.0, -1.0) == fma(0.1, 10.0, -1.0));
  assert_true(signbit(fp_fma(FP_F32, -0.0, 1.0, -0.0)));
  assert_true(!signbit(fp_fma(FP_F32, 1.0, 1.0, -1.0)));
}

static void test_fp_ftz_flushes_subnormals(void **state)
{
  (void)state;
  assert_true(fp_ftz(FP_F16, 0x1p-15) == 0.0 && !signbit(fp_ftz(FP_F16, 0x1p-15)));
  assert_true(fp_ftz(FP_F16, -0x1p-24) == 0.0 && signbit(fp_ftz(FP_F16, -0x1p-24)));
  assert_true(fp_ftz(FP_F16, 0x1p-14) == 0x1p-14);
  assert_true(fp_ftz(FP_F32, 0x1p-127) == 0.0);
  assert_true(fp_ftz(FP_F32, 0x1p-126) == 0x1p-126);
  assert_true(fp_ftz(FP_BF16, -0x1p-130) == 0.0 && signbit(fp_ftz(FP_BF16, -0x1p-130)));
  assert_true(fp_ftz(FP_F8E4M3FNUZ, -0x1p-9) == 0.0 && !signbit(fp_ftz(FP_F8E4M3FNUZ, -0x1p-9)));
  assert_true(fp_ftz(FP_F8E4M3FN, 0x1p-7) == 0.0 && fp_ftz(FP_F8E4M3FN, 0x1p-6) == 0x1p-6);
  assert_true(fp_ftz(FP_F64, 0x1p-1030) == 0.0);
  assert_true(fp_ftz(FP_E8M0, 0x1p-127) == 0x1p-127);
  assert_true(isnan(fp_ftz(FP_F16, NAN)) && isinf(fp_ftz(FP_F16, -INFINITY)));
  assert_true(signbit(fp_ftz(FP_F16, -0.0)));
  /* every f16 pattern: flushed iff exponent field 0 */
  for (uint32_t b = 0; b < 0x10000; b++) {
    double v = fp_decode(FP_F16, b), z = fp_ftz(FP_F16, v);
    if (((b >> 10) & 0x1f) == 0) assert_true(z == 0 && !!signbit(z) == !!(b >> 15));
    else assert_true(same(z, v));
  }
}

static int setup(void **state)
{
  (void)state;
  gsl_set_error_handler_off();
  const char *full = getenv("TTREF_CHECK_FULL");
  full_tier = full && *full && strcmp(full, "0") != 0;
  rng = gsl_rng_alloc(gsl_rng_mt19937);
  gsl_rng_set(rng, 20240601);
  return 0;
}

static int teardown(void **state)
{
  (void)state;
  gsl_rng_free(rng);
  mpfr_free_cache();
  return 0;
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_fp_table_consistent),
      cmocka_unit_test(test_fp_f16_decode_exhaustive),
      cmocka_unit_test(test_fp_roundtrip_every_pattern),
      cmocka_unit_test(test_fp_f32_f64_roundtrip_random),
      cmocka_unit_test(test_fp_f32_to_f16_matches_gcc),
      cmocka_unit_test(test_fp_f64_to_f16_matches_gcc),
      cmocka_unit_test(test_fp_small_formats_match_reference),
      cmocka_unit_test(test_fp_rtz_cases),
      cmocka_unit_test(test_fp_saturation_cases),
      cmocka_unit_test(test_fp_nan_encodings),
      cmocka_unit_test(test_fp_round_to_matches_encode),
      cmocka_unit_test(test_fp_fma_single_rounding),
      cmocka_unit_test(test_fp_ftz_flushes_subnormals),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
