/*
 * test_cmp.c: unit tests of conformance/cmp (compliance modes): hand-made
 * pass/fail cases in f16, bf16, f32, f64, f8E4M3FN and f8E5M2, "shifted"
 * cases exactly at each bound and one representable step past it (built by
 * bit arithmetic on fp_encode patterns), special values, FTZ, NaN policies,
 * TOSA's variance and bias tests, quality warnings and malformed input.
 * Over 1000 lines on purpose: one cmocka group per binary (STYLE.md) keeps the tests of
 * the compliance modes in one file, sharing its fixtures; tests/unit/unit_fixture.c holds what files share.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <gsl/gsl_errno.h>

#include "cmp.h"
#include "fp.h"

#define MAXN 128

static const fp_format FMTS[] = {FP_F16, FP_BF16, FP_F32, FP_F64, FP_F8E4M3FN, FP_F8E5M2};
#define NFMTS ((int)(sizeof FMTS / sizeof FMTS[0]))

/* ---- helpers ------------------------------------------------------------ */

typedef struct tarr {
  npy_array a;
  uint64_t buf[MAXN];
} tarr;

static int ebytes(fp_format f)
{
  int b = fp_bits(f);
  return b <= 8 ? 1 : b <= 16 ? 2 : b <= 32 ? 4 : 8;
}

static void put(void *data, int elsize, int i, uint64_t v)
{
  unsigned char *p = (unsigned char *)data + (size_t)i * (size_t)elsize;
  uint8_t b1 = (uint8_t)v;
  uint16_t b2 = (uint16_t)v;
  uint32_t b4 = (uint32_t)v;
  switch (elsize) {
  case 1: memcpy(p, &b1, 1); break;
  case 2: memcpy(p, &b2, 2); break;
  case 4: memcpy(p, &b4, 4); break;
  default: memcpy(p, &v, 8); break;
  }
}

/* rank-1 array of n raw elements, npy dtype as conform_dtype_list.h writes it */
static void tfill_raw(tarr *t, char kind, int elsize, int n, const uint64_t *v)
{
  memset(t, 0, sizeof *t);
  assert_true(n >= 0 && n <= MAXN);
  t->a.kind = kind;
  t->a.elsize = elsize;
  t->a.rank = 1;
  t->a.shape[0] = n;
  t->a.numel = n;
  t->a.data = t->buf;
  t->a.nbytes = (size_t)n * (size_t)elsize;
  for (int i = 0; i < n; i++) put(t->buf, elsize, i, v[i]);
}

static void tfill(tarr *t, fp_format f, int n, const uint64_t *pats)
{
  char kind = (f == FP_F16 || f == FP_F32 || f == FP_F64) ? 'f' : 'u';
  tfill_raw(t, kind, ebytes(f), n, pats);
}

static uint64_t enc(fp_format f, double v) { return fp_encode(f, v, FP_RNE, FP_OVF_INF); }
static double dec(fp_format f, uint64_t b) { return fp_decode(f, b); }
static uint64_t sign_bit(fp_format f) { return 1ull << (fp_bits(f) - 1); }
static uint64_t neg(fp_format f, uint64_t b) { return b ^ sign_bit(f); }
/* k representable steps away from zero (k < 0: toward zero) of a finite pattern */
static uint64_t step(uint64_t b, int k) { return (uint64_t)((int64_t)b + k); }
static uint64_t max_pat(fp_format f) { return enc(f, fp_max_finite(f)); }
static uint64_t inf_pat(fp_format f) { return enc(f, (double)INFINITY); }
static uint64_t nan_pat(fp_format f) { return enc(f, (double)NAN); }

static cmp_options opts(cmp_mode m)
{
  cmp_options o;
  cmp_options_default(m, &o);
  return o;
}

/* run cmp_check on n elements given as patterns, expecting TTREF_OK */
static cmp_result run(cmp_mode m, fp_format f, int n, const uint64_t *got, const uint64_t *ref, const double *precise,
                      const double *bound, const uint64_t *ftz, const cmp_options *o)
{
  static tarr g, r, z; /* static: keeps the test stack small */
  cmp_result res;
  ttref_error err = {0};
  tfill(&g, f, n, got);
  tfill(&r, f, n, ref);
  if (ftz) tfill(&z, f, n, ftz);
  ttref_status st = cmp_check(m, f, &g.a, &r.a, precise, bound, ftz ? &z.a : NULL, o, &res, &err);
  if (st != TTREF_OK) print_error("%s\n", err.msg);
  assert_int_equal(st, TTREF_OK);
  if (res.pass) assert_string_equal(res.reason, "");
  else assert_true(strlen(res.reason) > 0);
  return res;
}

/* one element */
static cmp_result run1(cmp_mode m, fp_format f, uint64_t got, uint64_t ref, const cmp_options *o)
{
  return run(m, f, 1, &got, &ref, NULL, NULL, NULL, o);
}

static cmp_result run1p(cmp_mode m, fp_format f, uint64_t got, uint64_t ref, double precise, double bound,
                        const cmp_options *o)
{
  return run(m, f, 1, &got, &ref, &precise, &bound, NULL, o);
}

static bool pass1(cmp_mode m, fp_format f, uint64_t got, uint64_t ref, const cmp_options *o)
{
  return run1(m, f, got, ref, o).pass;
}

/* pattern of a NaN with the other payload, or the same pattern if none exists */
static uint64_t nan_other_payload(fp_format f)
{
  uint64_t q = nan_pat(f), alt = q ^ 1;
  return isnan(dec(f, alt)) ? alt : q;
}

/* ---- names, defaults ------------------------------------------------------ */

static void test_cmp_mode_names_roundtrip(void **state)
{
  (void)state;
  for (int m = 0; m < CMP_MODE_COUNT; m++) {
    cmp_mode back;
    assert_true(cmp_mode_lookup(cmp_mode_name((cmp_mode)m), &back));
    assert_int_equal(back, m);
    assert_string_not_equal(cmp_mode_description((cmp_mode)m), "<invalid>");
  }
  cmp_mode x;
  assert_string_equal(cmp_mode_name(CMP_DOT_PRODUCT), "dot_product");
  assert_string_equal(cmp_mode_name(CMP_MODE_COUNT), "<invalid>");
  assert_string_equal(cmp_mode_name((cmp_mode)-1), "<invalid>");
  assert_false(cmp_mode_lookup("ULP", &x));
  assert_false(cmp_mode_lookup(NULL, &x));
  cmp_options o = opts(CMP_ULP);
  assert_true(o.ulp == 0.5 && o.quality_fraction == 0.5 && o.nan == CMP_NAN_ANY);
  assert_true(o.allow_overflow_inf && !o.allow_ftz && o.bias_test && o.k == 0);
  assert_false(opts(CMP_EXACT).allow_overflow_inf);
}

/* ---- cmp_ulp_error ---------------------------------------------------------- */

/* Convention: one representable step is one ulp on both sides of a power of two. */
static void test_cmp_ulp_error_power_of_two(void **state)
{
  (void)state;
  for (int i = 0; i < NFMTS; i++) {
    fp_format f = FMTS[i];
    uint64_t one = enc(f, 1.0);
    assert_true(cmp_ulp_error(f, dec(f, step(one, 1)), 1.0) == 1.0);
    assert_true(cmp_ulp_error(f, dec(f, step(one, -1)), 1.0) == -1.0); /* not -0.5 */
    assert_true(cmp_ulp_error(f, dec(f, step(one, -2)), 1.0) == -2.0);
    assert_true(cmp_ulp_error(f, dec(f, step(one, 2)), 1.0) == 2.0);
    /* negative power of two: the zero side is above */
    assert_true(cmp_ulp_error(f, -dec(f, step(one, -1)), -1.0) == 1.0);
    assert_true(cmp_ulp_error(f, -dec(f, step(one, 1)), -1.0) == -1.0);
    /* a reference just below 2^0 uses its own binade's ulp */
    assert_true(cmp_ulp_error(f, 1.0, dec(f, step(one, -1))) == 1.0);
    if (f != FP_F64) { /* binary64 midpoints of the format's neighbours */
      double up = (1.0 + dec(f, step(one, 1))) / 2, dn = (1.0 + dec(f, step(one, -1))) / 2;
      assert_true(cmp_ulp_error(f, 1.0, up) == -0.5);
      assert_true(cmp_ulp_error(f, dec(f, step(one, 1)), up) == 0.5);
      assert_true(cmp_ulp_error(f, 1.0, dn) == 0.5);
      assert_true(cmp_ulp_error(f, dec(f, step(one, -1)), dn) == -0.5);
      /* a precise reference slightly above 2^0 is not a power of two: the binade's own ulp */
      assert_true(cmp_ulp_error(f, dec(f, step(one, -1)), up) == -1.0);
    }
  }
}

static void test_cmp_ulp_error_denormal_range(void **state)
{
  (void)state;
  for (int i = 0; i < NFMTS; i++) {
    fp_format f = FMTS[i];
    double ms = fp_min_subnormal(f), mn = fp_min_normal(f);
    uint64_t mnp = enc(f, mn);
    assert_true(dec(f, 1) == ms);
    assert_true(cmp_ulp_error(f, dec(f, 2), ms) == 1.0);
    assert_true(cmp_ulp_error(f, 0.0, ms) == -1.0);
    assert_true(cmp_ulp_error(f, dec(f, neg(f, 2)), ms) == -3.0); /* across zero */
    assert_true(cmp_ulp_error(f, ms, 0.0) == 1.0);
    assert_true(cmp_ulp_error(f, -ms, 0.0) == -1.0);
    /* min normal is a power of two, but below it the quantum stays min subnormal */
    assert_true(cmp_ulp_error(f, dec(f, step(mnp, -1)), mn) == -1.0);
    assert_true(cmp_ulp_error(f, dec(f, step(mnp, 1)), mn) == 1.0);
    /* a binary64 reference inside the subnormal range: fraction of min subnormal */
    if (f != FP_F64) assert_true(cmp_ulp_error(f, 0.0, 0.25 * ms) == -0.25);
  }
}

static void test_cmp_ulp_error_max_finite_inf_nan_zero(void **state)
{
  (void)state;
  for (int i = 0; i < NFMTS; i++) {
    fp_format f = FMTS[i];
    double mx = fp_max_finite(f), below = dec(f, step(max_pat(f), -1));
    double inf = (double)INFINITY, nan = (double)NAN;
    assert_true(cmp_ulp_error(f, below, mx) == -1.0);
    assert_true(cmp_ulp_error(f, mx, below) == 1.0);
    if (fp_has_inf(f) || f == FP_F64) { /* inf counts as 2^(emax+1): one ulp past max */
      assert_true(cmp_ulp_error(f, inf, mx) == 1.0);
      assert_true(cmp_ulp_error(f, -inf, -mx) == -1.0);
      assert_true(cmp_ulp_error(f, inf, below) == 2.0);
    }
    assert_true(cmp_ulp_error(f, inf, inf) == 0.0);
    assert_true(cmp_ulp_error(f, -inf, -inf) == 0.0);
    assert_true(isinf(cmp_ulp_error(f, mx, inf)) && cmp_ulp_error(f, mx, inf) < 0);
    assert_true(isinf(cmp_ulp_error(f, -inf, inf)));
    assert_true(cmp_ulp_error(f, nan, nan) == 0.0);
    assert_true(isnan(cmp_ulp_error(f, nan, 1.0)));
    assert_true(isnan(cmp_ulp_error(f, 1.0, nan)));
    assert_true(cmp_ulp_error(f, -0.0, 0.0) == 0.0);
    assert_true(cmp_ulp_error(f, 0.0, -0.0) == 0.0);
  }
  assert_true(isnan(cmp_ulp_error(FP_FORMAT_COUNT, 1.0, 1.0)));
}

/* ---- EXACT ------------------------------------------------------------------ */

static void test_cmp_exact_pass_equal_bits(void **state)
{
  (void)state;
  for (int i = 0; i < NFMTS; i++) {
    fp_format f = FMTS[i];
    uint64_t v[] = {enc(f, 1.0), enc(f, -2.5), max_pat(f), 1, 0, neg(f, 0), nan_pat(f), enc(f, 0.3)};
    cmp_options o = opts(CMP_EXACT);
    cmp_result r = run(CMP_EXACT, f, 8, v, v, NULL, NULL, NULL, &o);
    assert_true(r.pass);
    assert_false(r.quality_warning);
    assert_int_equal(r.n, 8);
    assert_int_equal(r.nfail, 0);
    assert_true(r.max_ratio == 0);
    assert_true(r.max_ulp == 0 && r.mean_ulp == 0);
  }
}

static void test_cmp_exact_fail_one_step(void **state)
{
  (void)state;
  for (int i = 0; i < NFMTS; i++) {
    fp_format f = FMTS[i];
    uint64_t ref[] = {enc(f, 1.0), enc(f, 3.0), enc(f, -0.75), enc(f, 2.0)};
    uint64_t got[4];
    memcpy(got, ref, sizeof got);
    got[2] = step(got[2], 1);
    cmp_result r = run(CMP_EXACT, f, 4, got, ref, NULL, NULL, NULL, NULL);
    assert_false(r.pass);
    assert_int_equal(r.nfail, 1);
    assert_int_equal(r.worst.index, 2);
    assert_true(r.worst.got == dec(f, got[2]) && r.worst.ref == -0.75);
    assert_true(r.max_ratio == 1.0); /* finite: the patterns are one ulp apart (issue 16) */
    assert_non_null(strstr(r.reason, "1 ulp apart"));
    assert_non_null(strstr(r.reason, "exact"));
    assert_non_null(strstr(r.reason, "worst at [2]"));
    assert_non_null(strstr(r.reason, "bit patterns differ"));
    assert_non_null(strstr(r.reason, "1 of 4"));
  }
}

static void test_cmp_exact_signed_zero_differs(void **state)
{
  (void)state;
  for (int i = 0; i < NFMTS; i++) {
    fp_format f = FMTS[i];
    assert_false(pass1(CMP_EXACT, f, neg(f, 0), 0, NULL));
    assert_false(pass1(CMP_EXACT, f, 0, neg(f, 0), NULL));
    assert_true(pass1(CMP_EXACT, f, neg(f, 0), neg(f, 0), NULL));
    /* ULP is numeric: the zeros are equal */
    assert_true(pass1(CMP_ULP, f, neg(f, 0), 0, NULL));
  }
}

static void test_cmp_exact_nan_policies(void **state)
{
  (void)state;
  for (int i = 0; i < NFMTS; i++) {
    fp_format f = FMTS[i];
    uint64_t q = nan_pat(f), nq = neg(f, q), alt = nan_other_payload(f);
    cmp_options any = opts(CMP_EXACT), sgn = any, bits = any;
    sgn.nan = CMP_NAN_SAME_SIGN;
    bits.nan = CMP_NAN_SAME_BITS;
    assert_true(pass1(CMP_EXACT, f, nq, q, &any));
    assert_true(pass1(CMP_EXACT, f, alt, q, &any));
    assert_false(pass1(CMP_EXACT, f, nq, q, &sgn));
    assert_true(pass1(CMP_EXACT, f, alt, q, &sgn));
    assert_false(pass1(CMP_EXACT, f, nq, q, &bits));
    assert_true(pass1(CMP_EXACT, f, q, q, &bits));
    if (alt != q) assert_false(pass1(CMP_EXACT, f, alt, q, &bits));
    /* a NaN never matches a number, and a number never matches a NaN */
    cmp_result r = run1(CMP_EXACT, f, q, enc(f, 1.0), &any);
    assert_false(r.pass);
    assert_non_null(strstr(r.reason, "unexpected NaN"));
    r = run1(CMP_EXACT, f, enc(f, 1.0), q, &any);
    assert_false(r.pass);
    assert_non_null(strstr(r.reason, "expected NaN"));
    /* the same policies in a tolerance mode */
    cmp_options u = opts(CMP_ULP);
    u.nan = CMP_NAN_SAME_SIGN;
    assert_false(pass1(CMP_ULP, f, nq, q, &u));
    assert_true(pass1(CMP_ULP, f, alt, q, &u));
    u.nan = CMP_NAN_SAME_BITS;
    if (alt != q) assert_false(pass1(CMP_ULP, f, alt, q, &u));
    u.nan = CMP_NAN_ANY;
    assert_true(pass1(CMP_ULP, f, nq, q, &u));
  }
}

static void test_cmp_exact_integers_any_mode(void **state)
{
  (void)state;
  tarr g, r;
  cmp_result res;
  ttref_error err = {0};
  uint64_t a[] = {0, 1, (uint64_t)-5, 0x7fffffff}, b[] = {0, 1, (uint64_t)-5, 0x7ffffffe};
  tfill_raw(&g, 'i', 4, 4, a);
  tfill_raw(&r, 'i', 4, 4, a);
  cmp_options o = opts(CMP_ULP);
  o.ulp = 1000; /* ignored: integers compare exactly */
  assert_int_equal(cmp_check(CMP_ULP, FP_F32, &g.a, &r.a, NULL, NULL, NULL, &o, &res, &err), TTREF_OK);
  assert_true(res.pass);
  tfill_raw(&g, 'i', 4, 4, b);
  assert_int_equal(cmp_check(CMP_ULP, FP_F32, &g.a, &r.a, NULL, NULL, NULL, &o, &res, &err), TTREF_OK);
  assert_false(res.pass);
  assert_int_equal(res.worst.index, 3);
  assert_true(res.worst.got == 2147483646.0 && res.worst.ref == 2147483647.0);
  assert_non_null(strstr(res.reason, "integers differ"));
  /* signed values are reported signed; DOT_PRODUCT needs no bound for integers */
  uint64_t c[] = {(uint64_t)-7}, d[] = {(uint64_t)-8};
  tfill_raw(&g, 'i', 2, 1, c);
  tfill_raw(&r, 'i', 2, 1, d);
  assert_int_equal(cmp_check(CMP_DOT_PRODUCT, CMP_FMT_NONE, &g.a, &r.a, NULL, NULL, NULL, NULL, &res, &err), TTREF_OK);
  assert_false(res.pass);
  assert_true(res.worst.got == -7.0 && res.worst.ref == -8.0);
  /* unsigned 'u' arrays are integers when there is no float format */
  uint64_t e[] = {200, 255};
  tfill_raw(&g, 'u', 1, 2, e);
  tfill_raw(&r, 'u', 1, 2, e);
  assert_int_equal(cmp_check(CMP_EXACT, CMP_FMT_NONE, &g.a, &r.a, NULL, NULL, NULL, NULL, &res, &err), TTREF_OK);
  assert_true(res.pass && res.n == 2);
  tfill_raw(&g, 'b', 1, 2, (uint64_t[]){1, 0});
  tfill_raw(&r, 'b', 1, 2, (uint64_t[]){1, 1});
  assert_int_equal(cmp_check(CMP_EXACT, FP_F16, &g.a, &r.a, NULL, NULL, NULL, NULL, &res, &err), TTREF_OK);
  assert_false(res.pass);
  assert_int_equal(res.nfail, 1);
}

/* ---- ULP -------------------------------------------------------------------- */

static void test_cmp_ulp_at_bound_every_format(void **state)
{
  (void)state;
  for (int i = 0; i < NFMTS; i++) {
    fp_format f = FMTS[i];
    /* powers of two: 3 (4) steps up stay in the binade (or end on the next power) in
     * every format, down to E5M2's 4 values per binade */
    uint64_t ref[] = {enc(f, 1.0), enc(f, 0.25), enc(f, -4.0), enc(f, 64.0), enc(f, -0.5), enc(f, 2.0)};
    uint64_t got[6];
    cmp_options o = opts(CMP_ULP);
    o.ulp = 3;
    for (int j = 0; j < 6; j++) got[j] = step(ref[j], 3); /* 3 steps away from zero */
    cmp_result r = run(CMP_ULP, f, 6, got, ref, NULL, NULL, NULL, &o);
    assert_true(r.pass);
    assert_true(r.max_ratio == 1.0);
    assert_true(r.max_ulp == 3.0 && r.mean_ulp == 3.0);
    assert_true(r.quality_warning);
    for (int j = 0; j < 6; j++) { /* one step past, at each position */
      uint64_t g2[6];
      memcpy(g2, got, sizeof g2);
      g2[j] = step(ref[j], 4);
      r = run(CMP_ULP, f, 6, g2, ref, NULL, NULL, NULL, &o);
      assert_false(r.pass);
      assert_int_equal(r.nfail, 1);
      assert_int_equal(r.worst.index, j);
      assert_true(r.max_ratio == 4.0 / 3.0);
      assert_non_null(strstr(r.reason, "4 ulp > 3 ulp"));
    }
    /* toward zero across the power of two 2.0: 3 steps below are -3 ulp */
    assert_true(pass1(CMP_ULP, f, step(ref[5], -3), ref[5], &o));
    assert_false(pass1(CMP_ULP, f, step(ref[5], -4), ref[5], &o));
    assert_true(pass1(CMP_ULP, f, step(ref[0], -3), ref[0], &o));
    assert_false(pass1(CMP_ULP, f, step(ref[0], -4), ref[0], &o));
    if (fp_precision(f) >= 4) { /* inside a binade of 8+ values */
      uint64_t b = enc(f, 1.25);
      assert_true(pass1(CMP_ULP, f, step(b, 3), b, &o));
      assert_false(pass1(CMP_ULP, f, step(b, 4), b, &o));
      assert_true(pass1(CMP_ULP, f, step(b, -2), b, &o)); /* 1.0 + 0 steps below 1.25 - 2 */
    }
    /* ULP(0): bit-exact numerically */
    o.ulp = 0;
    assert_true(pass1(CMP_ULP, f, ref[1], ref[1], &o));
    assert_false(pass1(CMP_ULP, f, step(ref[1], 1), ref[1], &o));
  }
}

static void test_cmp_ulp_half_ulp_against_precise(void **state)
{
  (void)state;
  for (int i = 0; i < NFMTS; i++) {
    fp_format f = FMTS[i];
    if (f == FP_F64) continue;     /* binary64 cannot hold a binary64 midpoint */
    cmp_options o = opts(CMP_ULP); /* ulp = 0.5: correctly rounded */
    uint64_t b = enc(f, 1.25);
    double mid = (dec(f, b) + dec(f, step(b, 1))) / 2;
    assert_true(run1p(CMP_ULP, f, b, b, mid, 0, &o).pass);
    assert_true(run1p(CMP_ULP, f, step(b, 1), b, mid, 0, &o).pass);
    cmp_result r = run1p(CMP_ULP, f, b, b, mid, 0, &o);
    assert_true(r.max_ratio == 1.0 && r.worst.ref == mid);
    assert_false(run1p(CMP_ULP, f, step(b, -1), b, mid, 0, &o).pass); /* 1.5 ulp */
    assert_false(run1p(CMP_ULP, f, step(b, 2), b, mid, 0, &o).pass);
    /* a precise value a quarter ulp above b: only b is within 0.5 */
    double q = dec(f, b) + (dec(f, step(b, 1)) - dec(f, b)) / 4;
    assert_true(run1p(CMP_ULP, f, b, b, q, 0, &o).pass);
    assert_false(run1p(CMP_ULP, f, step(b, 1), b, q, 0, &o).pass);
  }
}

static void test_cmp_ulp_denormal_at_bound(void **state)
{
  (void)state;
  for (int i = 0; i < NFMTS; i++) {
    fp_format f = FMTS[i];
    cmp_options o = opts(CMP_ULP);
    o.ulp = 3;
    assert_true(pass1(CMP_ULP, f, 8, 5, &o));
    assert_false(pass1(CMP_ULP, f, 9, 5, &o));
    assert_true(pass1(CMP_ULP, f, 2, 5, &o));
    assert_false(pass1(CMP_ULP, f, 1, 5, &o));
    assert_true(pass1(CMP_ULP, f, neg(f, 2), 1, &o)); /* -2 ms vs ms: -3 ulp */
    assert_false(pass1(CMP_ULP, f, neg(f, 3), 1, &o));
    assert_true(pass1(CMP_ULP, f, 3, 0, &o));
    assert_false(pass1(CMP_ULP, f, 4, 0, &o));
    /* from min normal down into the subnormals: the same quantum */
    uint64_t mn = enc(f, fp_min_normal(f));
    assert_true(pass1(CMP_ULP, f, step(mn, -3), mn, &o));
    assert_false(pass1(CMP_ULP, f, step(mn, -4), mn, &o));
  }
}

static void test_cmp_ulp_max_finite_and_overflow(void **state)
{
  (void)state;
  for (int i = 0; i < NFMTS; i++) {
    fp_format f = FMTS[i];
    uint64_t mx = max_pat(f);
    cmp_options o = opts(CMP_ULP);
    o.ulp = 1;
    o.allow_overflow_inf = false;
    assert_true(pass1(CMP_ULP, f, step(mx, -1), mx, &o));
    assert_false(pass1(CMP_ULP, f, step(mx, -2), mx, &o));
    if (fp_has_inf(f)) {
      assert_true(pass1(CMP_ULP, f, inf_pat(f), mx, &o)); /* inf = 2^(emax+1): 1 ulp */
      assert_true(pass1(CMP_ULP, f, neg(f, inf_pat(f)), neg(f, mx), &o));
      assert_false(pass1(CMP_ULP, f, inf_pat(f), step(mx, -1), &o)); /* 2 ulp */
      o.ulp = 0.5;
      assert_false(pass1(CMP_ULP, f, inf_pat(f), mx, &o));
      o.allow_overflow_inf = true; /* TOSA: max + 0.5 ulp passes max finite */
      cmp_result r = run1(CMP_ULP, f, inf_pat(f), mx, &o);
      assert_true(r.pass);
      assert_true(r.max_ratio == 1.0);
      assert_false(pass1(CMP_ULP, f, neg(f, inf_pat(f)), mx, &o));  /* wrong sign */
      assert_false(pass1(CMP_ULP, f, inf_pat(f), enc(f, 1.0), &o)); /* far from max */
      if (f != FP_F64) { /* a precise value on the overflow tie rounds to inf: 0.5 ulp */
        double tie = fp_max_finite(f) + (fp_max_finite(f) - dec(f, step(mx, -1))) / 2;
        o.allow_overflow_inf = false;
        assert_true(run1p(CMP_ULP, f, inf_pat(f), inf_pat(f), tie, 0, &o).pass);
        assert_true(run1p(CMP_ULP, f, mx, inf_pat(f), tie, 0, &o).pass);
        assert_false(run1p(CMP_ULP, f, step(mx, -1), inf_pat(f), tie, 0, &o).pass);
      }
    } else { /* f8E4M3FN overflows to NaN */
      o.ulp = 0.5;
      assert_false(pass1(CMP_ULP, f, nan_pat(f), mx, &o));
      o.allow_overflow_inf = true;
      assert_true(pass1(CMP_ULP, f, nan_pat(f), mx, &o));
      assert_false(pass1(CMP_ULP, f, nan_pat(f), enc(f, 1.0), &o));
    }
  }
}

static void test_cmp_ulp_inf_nan_zero(void **state)
{
  (void)state;
  for (int i = 0; i < NFMTS; i++) {
    fp_format f = FMTS[i];
    cmp_options o = opts(CMP_ULP);
    o.ulp = 1;
    if (fp_has_inf(f)) {
      uint64_t inf = inf_pat(f);
      assert_true(pass1(CMP_ULP, f, inf, inf, &o));
      assert_true(pass1(CMP_ULP, f, neg(f, inf), neg(f, inf), &o));
      cmp_result r = run1(CMP_ULP, f, max_pat(f), inf, &o);
      assert_false(r.pass);
      assert_non_null(strstr(r.reason, "expected an infinity"));
      assert_false(pass1(CMP_ULP, f, neg(f, inf), inf, &o));
      assert_false(pass1(CMP_ULP, f, nan_pat(f), inf, &o));
    }
    assert_true(pass1(CMP_ULP, f, nan_pat(f), nan_pat(f), &o));
    assert_false(pass1(CMP_ULP, f, 0, nan_pat(f), &o));
    assert_false(pass1(CMP_ULP, f, nan_pat(f), enc(f, 1.0), &o));
    assert_true(pass1(CMP_ULP, f, neg(f, 0), 0, &o));
    assert_true(pass1(CMP_ULP, f, 1, 0, &o));
    o.ulp = 0.5;
    assert_false(pass1(CMP_ULP, f, 1, 0, &o));
  }
}

/* ---- ABS and REL -------------------------------------------------------------- */

static void test_cmp_abs_at_bound_every_format(void **state)
{
  (void)state;
  for (int i = 0; i < NFMTS; i++) {
    fp_format f = FMTS[i];
    uint64_t b = enc(f, 1.5);
    cmp_options o = opts(CMP_ABS);
    o.abs_tol = dec(f, step(b, 3)) - dec(f, b); /* exact: same binade or Sterbenz */
    cmp_result r = run1(CMP_ABS, f, step(b, 3), b, &o);
    assert_true(r.pass);
    assert_true(r.max_ratio == 1.0 && r.worst.bound == o.abs_tol && r.worst.err == o.abs_tol);
    assert_false(pass1(CMP_ABS, f, step(b, 4), b, &o));
    o.abs_tol = dec(f, b) - dec(f, step(b, -3));
    assert_true(pass1(CMP_ABS, f, step(b, -3), b, &o));
    assert_false(pass1(CMP_ABS, f, step(b, -4), b, &o));
    /* negative values: the same distances */
    assert_true(pass1(CMP_ABS, f, neg(f, step(b, -3)), neg(f, b), &o));
    r = run1(CMP_ABS, f, neg(f, step(b, -4)), neg(f, b), &o);
    assert_false(r.pass);
    assert_non_null(strstr(r.reason, "error exceeds the bound"));
    /* against a precise value: the tolerance is around it */
    o.abs_tol = 0.25;
    double P = dec(f, b) + 0.25;
    assert_true(run1p(CMP_ABS, f, b, b, P, 0, &o).pass);
    assert_false(run1p(CMP_ABS, f, step(b, -1), b, P, 0, &o).pass);
  }
}

static void test_cmp_abs_special_values(void **state)
{
  (void)state;
  for (int i = 0; i < NFMTS; i++) {
    fp_format f = FMTS[i];
    cmp_options o = opts(CMP_ABS);
    o.abs_tol = 1;
    o.allow_overflow_inf = false;
    assert_true(pass1(CMP_ABS, f, nan_pat(f), nan_pat(f), &o));
    assert_false(pass1(CMP_ABS, f, enc(f, 1.0), nan_pat(f), &o));
    assert_false(pass1(CMP_ABS, f, nan_pat(f), enc(f, 1.0), &o));
    assert_true(pass1(CMP_ABS, f, neg(f, 0), 0, &o));
    if (fp_has_inf(f)) {
      assert_true(pass1(CMP_ABS, f, inf_pat(f), inf_pat(f), &o));
      assert_false(pass1(CMP_ABS, f, max_pat(f), inf_pat(f), &o));
      assert_false(pass1(CMP_ABS, f, inf_pat(f), enc(f, 1.0), &o));
      assert_false(pass1(CMP_ABS, f, inf_pat(f), max_pat(f), &o)); /* 1 ulp there is > 1 */
      o.allow_overflow_inf = true;                                 /* max + 1 > max finite */
      assert_true(pass1(CMP_ABS, f, inf_pat(f), max_pat(f), &o));
    }
  }
}

static void test_cmp_rel_at_bound_every_format(void **state)
{
  (void)state;
  for (int i = 0; i < NFMTS; i++) {
    fp_format f = FMTS[i];
    uint64_t b = enc(f, 2.0); /* a power of two keeps rel_tol * |r| exact */
    cmp_options o = opts(CMP_REL);
    o.rel_tol = (dec(f, step(b, 3)) - 2.0) / 2.0;
    cmp_result r = run1(CMP_REL, f, step(b, 3), b, &o);
    assert_true(r.pass && r.max_ratio == 1.0);
    assert_false(pass1(CMP_REL, f, step(b, 4), b, &o));
    assert_true(pass1(CMP_REL, f, neg(f, step(b, 3)), neg(f, b), &o));
    assert_false(pass1(CMP_REL, f, neg(f, step(b, 4)), neg(f, b), &o));
    if (fp_precision(f) >= 4) { /* below 2.0 the steps are half as large: 6 = the same distance */
      assert_true(pass1(CMP_REL, f, step(b, -6), b, &o));
      assert_false(pass1(CMP_REL, f, step(b, -7), b, &o));
    }
  }
}

static void test_cmp_rel_zero_reference(void **state)
{
  (void)state;
  for (int i = 0; i < NFMTS; i++) {
    fp_format f = FMTS[i];
    cmp_options o = opts(CMP_REL);
    o.rel_tol = 0.5;
    assert_true(pass1(CMP_REL, f, 0, 0, &o));
    assert_true(pass1(CMP_REL, f, neg(f, 0), 0, &o));
    cmp_result r = run1(CMP_REL, f, 1, 0, &o);
    assert_false(r.pass);
    assert_true(isinf(r.max_ratio));
  }
}

/* ---- DOT_PRODUCT --------------------------------------------------------------- */

/* T elements with P = 1 and B = 1 (k = 4, abs_bound = 8, out_err_bnd = 2^-p) */
static cmp_result dp_run(fp_format f, int T, const uint64_t *got, const cmp_options *o)
{
  uint64_t ref[MAXN];
  double P[MAXN], B[MAXN];
  for (int j = 0; j < T; j++) {
    ref[j] = enc(f, 1.0);
    P[j] = 1.0;
    B[j] = 1.0;
  }
  return run(CMP_DOT_PRODUCT, f, T, got, ref, P, B, NULL, o);
}

static cmp_options dp_opts(void)
{
  cmp_options o = opts(CMP_DOT_PRODUCT);
  o.k = 4;
  return o;
}

static void test_cmp_dot_product_at_bound_every_format(void **state)
{
  (void)state;
  for (int i = 0; i < NFMTS; i++) {
    fp_format f = FMTS[i];
    uint64_t one = enc(f, 1.0), got[16];
    cmp_options o = dp_opts();
    o.k = 1; /* abs_bound = 2*ksb = 2 */
    for (int j = 0; j < 16; j++) got[j] = one;
    /* allowed |got - P| = 2 * B * 2^-p: one ulp of 1.0 above, two steps below */
    got[5] = step(one, 1);
    cmp_result r = dp_run(f, 16, got, &o);
    assert_true(r.pass);
    assert_true(r.max_ratio == 1.0);
    assert_int_equal(r.worst.index, 5);
    assert_true(r.worst.bound == 2 * ldexp(1.0, -fp_precision(f)));
    assert_true(r.mean_err == 0.125 && r.mean_sq_err == 0.25); /* err_5 = 2 */
    assert_true(r.quality_warning);
    got[5] = step(one, 2);
    r = dp_run(f, 16, got, &o);
    assert_false(r.pass);
    assert_int_equal(r.nfail, 1);
    assert_non_null(strstr(r.reason, "|err_i| 4 > abs_bound 2"));
    got[5] = step(one, -2);
    r = dp_run(f, 16, got, &o);
    assert_true(r.pass && r.mean_err == -0.125);
    got[5] = step(one, -3);
    assert_false(dp_run(f, 16, got, &o).pass);
  }
}

static void test_cmp_dot_product_variance_fails_elements_in_bound(void **state)
{
  (void)state;
  for (int i = 0; i < NFMTS; i++) {
    fp_format f = FMTS[i];
    uint64_t got[16];
    cmp_options o = dp_opts();
    for (int j = 0; j < 16; j++) got[j] = step(enc(f, 1.0), j % 2 ? 2 : -4); /* err_i = +-4 */
    cmp_result r = dp_run(f, 16, got, &o);
    assert_false(r.pass);
    assert_int_equal(r.nfail, 0); /* every element is within its bound */
    assert_true(r.max_ratio == 0.5);
    assert_true(r.mean_sq_err == 16.0 && r.mean_err == 0.0);
    assert_non_null(strstr(r.reason, "variance"));
    assert_non_null(strstr(r.reason, "var_bound 6.4"));
    o.var_bound = 16; /* the caller may widen it (TOSA's varianceErrorBound) */
    assert_true(dp_run(f, 16, got, &o).pass);
    o.var_bound = 15.9;
    assert_false(dp_run(f, 16, got, &o).pass);
  }
}

static void test_cmp_dot_product_bias_fails_elements_in_bound(void **state)
{
  (void)state;
  for (int i = 0; i < NFMTS; i++) {
    fp_format f = FMTS[i];
    uint64_t got[32], one = enc(f, 1.0);
    cmp_options o = dp_opts();
    for (int j = 0; j < 32; j++) got[j] = step(one, 1); /* err_i = +2 each */
    cmp_result r = dp_run(f, 32, got, &o);
    assert_false(r.pass);
    assert_int_equal(r.nfail, 0);
    assert_true(r.mean_err == 2.0 && r.mean_sq_err == 4.0); /* 4 <= 6.4: variance passes */
    assert_non_null(strstr(r.reason, "bias"));
    o.bias_test = false;
    assert_true(dp_run(f, 32, got, &o).pass);
    o.bias_test = true;
    for (int j = 0; j < 32; j += 2) got[j] = step(one, -2); /* unbiased: -2, +2, ... */
    r = dp_run(f, 32, got, &o);
    assert_true(r.pass);
    assert_true(r.mean_err == 0.0);
  }
}

static void test_cmp_dot_product_zero_bound_nan_overflow(void **state)
{
  (void)state;
  for (int i = 0; i < NFMTS; i++) {
    fp_format f = FMTS[i];
    cmp_options o = dp_opts();
    /* B = 0: every product is zero, so must be the result */
    assert_true(run1p(CMP_DOT_PRODUCT, f, 0, 0, 0.0, 0.0, &o).pass);
    assert_true(run1p(CMP_DOT_PRODUCT, f, neg(f, 0), 0, 0.0, 0.0, &o).pass);
    cmp_result r = run1p(CMP_DOT_PRODUCT, f, 1, 0, 0.0, 0.0, &o);
    assert_false(r.pass);
    assert_non_null(strstr(r.reason, "bound is 0"));
    /* P NaN: got must be NaN; B NaN: no requirement */
    assert_true(run1p(CMP_DOT_PRODUCT, f, nan_pat(f), nan_pat(f), (double)NAN, (double)NAN, &o).pass);
    assert_false(run1p(CMP_DOT_PRODUCT, f, enc(f, 1.0), nan_pat(f), (double)NAN, 1.0, &o).pass);
    assert_true(run1p(CMP_DOT_PRODUCT, f, enc(f, 100.0), enc(f, 1.0), 1.0, (double)NAN, &o).pass);
    /* B * (1 + abs_bound 2^-p) overflows: any result (TOSA) unless overflow is refused */
    o.k = 1; /* abs_bound 2: a finite wrong result is out of bounds even in E5M2 */
    double mx = fp_max_finite(f);
    uint64_t wild = fp_has_inf(f) ? inf_pat(f) : nan_pat(f);
    assert_true(run1p(CMP_DOT_PRODUCT, f, wild, enc(f, mx / 2), mx / 2, mx, &o).pass);
    assert_true(run1p(CMP_DOT_PRODUCT, f, enc(f, 1.0), enc(f, mx / 2), mx / 2, mx, &o).pass);
    o.allow_overflow_inf = false;
    assert_false(run1p(CMP_DOT_PRODUCT, f, enc(f, 1.0), enc(f, mx / 2), mx / 2, mx, &o).pass);
    assert_false(run1p(CMP_DOT_PRODUCT, f, wild, enc(f, mx / 2), mx / 2, mx, &o).pass);
    /* the out_err_bnd floor is min normal: a tiny bound still allows abs_bound min normals */
    o = dp_opts();
    o.var_bound = 1000; /* one element: keep the variance test out of the way */
    uint64_t gp = enc(f, 8 * fp_min_normal(f));
    assert_true(run1p(CMP_DOT_PRODUCT, f, gp, 0, 0.0, 0x1p-1074, &o).pass);
    assert_false(run1p(CMP_DOT_PRODUCT, f, step(gp, 1), 0, 0.0, 0x1p-1074, &o).pass);
  }
}

static void test_cmp_dot_product_ksb_from_accumulator(void **state)
{
  (void)state;
  uint64_t one = enc(FP_F16, 1.0);
  cmp_options o = opts(CMP_DOT_PRODUCT);
  o.k = 128;
  o.acc = FP_F32; /* ksb = ceil(128 / 2^((23-10)/2)) = 2: abs_bound 4 */
  double P = 1.0, B = 1.0;
  o.var_bound = 1e6; /* one element: keep the variance test out of the way */
  assert_true(run1p(CMP_DOT_PRODUCT, FP_F16, step(one, 2), one, P, B, &o).max_ratio == 1.0);
  assert_true(run1p(CMP_DOT_PRODUCT, FP_F16, step(one, 2), one, P, B, &o).pass);
  assert_false(run1p(CMP_DOT_PRODUCT, FP_F16, step(one, 3), one, P, B, &o).pass);
  o.acc = CMP_FMT_NONE; /* ksb = k = 128: abs_bound 256 */
  assert_true(run1p(CMP_DOT_PRODUCT, FP_F16, step(one, 128), one, P, B, &o).pass);
  assert_false(run1p(CMP_DOT_PRODUCT, FP_F16, step(one, 129), one, P, B, &o).pass);
  o.abs_bound = 6; /* explicit override */
  assert_true(run1p(CMP_DOT_PRODUCT, FP_F16, step(one, 3), one, P, B, &o).pass);
  assert_false(run1p(CMP_DOT_PRODUCT, FP_F16, step(one, 4), one, P, B, &o).pass);
}

/* ---- REDUCE -------------------------------------------------------------------- */

static void test_cmp_reduce_at_bound_every_format(void **state)
{
  (void)state;
  for (int i = 0; i < NFMTS; i++) {
    fp_format f = FMTS[i];
    uint64_t one = enc(f, 1.0);
    cmp_options o = opts(CMP_REDUCE);
    o.k = 1; /* allowed = B * 2^-p = 2 * 2^-p: one ulp of 1.0 */
    cmp_result r = run1p(CMP_REDUCE, f, step(one, 1), one, 1.0, 2.0, &o);
    assert_true(r.pass && r.max_ratio == 1.0);
    assert_true(r.worst.bound == ldexp(1.0, 1 - fp_precision(f)));
    assert_false(run1p(CMP_REDUCE, f, step(one, 2), one, 1.0, 2.0, &o).pass);
    assert_true(run1p(CMP_REDUCE, f, step(one, -2), one, 1.0, 2.0, &o).pass);
    assert_false(run1p(CMP_REDUCE, f, step(one, -3), one, 1.0, 2.0, &o).pass);
    /* k = 4, B = 1: ((1+u)^4 - 1) = 4u + 6u^2 + ... covers 2 ulps, not 3 */
    o.k = 4;
    r = run1p(CMP_REDUCE, f, step(one, 2), one, 1.0, 1.0, &o);
    assert_true(r.pass && r.max_ratio <= 1.0 && r.max_ratio > 0.8);
    assert_false(run1p(CMP_REDUCE, f, step(one, 3), one, 1.0, 1.0, &o).pass);
  }
}

static void test_cmp_reduce_special_values(void **state)
{
  (void)state;
  for (int i = 0; i < NFMTS; i++) {
    fp_format f = FMTS[i];
    cmp_options o = opts(CMP_REDUCE);
    o.k = 1;
    double inf = (double)INFINITY, mx = fp_max_finite(f);
    assert_true(run1p(CMP_REDUCE, f, nan_pat(f), nan_pat(f), (double)NAN, (double)NAN, &o).pass);
    assert_false(run1p(CMP_REDUCE, f, 0, nan_pat(f), (double)NAN, 1.0, &o).pass);
    if (fp_has_inf(f)) {
      assert_true(run1p(CMP_REDUCE, f, inf_pat(f), inf_pat(f), inf, inf, &o).pass);
      assert_false(run1p(CMP_REDUCE, f, max_pat(f), inf_pat(f), inf, inf, &o).pass);
      /* P = max, B = max: max * 2^-p < one ulp, so inf needs allow_overflow_inf */
      assert_true(run1p(CMP_REDUCE, f, inf_pat(f), max_pat(f), mx, mx, &o).pass);
      o.allow_overflow_inf = false;
      cmp_result r = run1p(CMP_REDUCE, f, inf_pat(f), max_pat(f), mx, mx, &o);
      assert_false(r.pass);
    }
  }
}

/* ---- FP_SPECIAL ----------------------------------------------------------------- */

static void test_cmp_fp_special_judges_only_specials(void **state)
{
  (void)state;
  for (int i = 0; i < NFMTS; i++) {
    fp_format f = FMTS[i];
    uint64_t inf = fp_has_inf(f) ? inf_pat(f) : max_pat(f); /* E4M3FN: a normal stand-in */
    uint64_t ref[] = {enc(f, 1.0), nan_pat(f), inf, neg(f, inf), 0, neg(f, 0), 3, enc(f, 2.0)};
    uint64_t got[] = {enc(f, 1.5), nan_pat(f), inf, neg(f, inf), 0, neg(f, 0), 3, enc(f, 3.0)};
    cmp_result r = run(CMP_FP_SPECIAL, f, 8, got, ref, NULL, NULL, NULL, NULL);
    assert_true(r.pass);
    assert_int_equal(r.n, fp_has_inf(f) ? 6 : 4); /* NaN, (+-inf), +-0, subnormal */
    /* each special, perturbed, fails */
    uint64_t bad[] = {0, enc(f, 1.0), max_pat(f), neg(f, max_pat(f)), neg(f, 0), 0, 4, 0};
    for (int j = 1; j < 7; j++) {
      uint64_t g2[8];
      if (!fp_has_inf(f) && (j == 2 || j == 3)) continue;
      memcpy(g2, got, sizeof g2);
      g2[j] = bad[j];
      r = run(CMP_FP_SPECIAL, f, 8, g2, ref, NULL, NULL, NULL, NULL);
      assert_false(r.pass);
      assert_int_equal(r.nfail, 1);
      assert_int_equal(r.worst.index, j);
    }
    /* FTZ: a subnormal reference accepts a zero of its sign */
    cmp_options o = opts(CMP_FP_SPECIAL);
    o.allow_ftz = true;
    got[6] = 0;
    assert_true(run(CMP_FP_SPECIAL, f, 8, got, ref, NULL, NULL, NULL, &o).pass);
    got[6] = neg(f, 0);
    assert_false(run(CMP_FP_SPECIAL, f, 8, got, ref, NULL, NULL, NULL, &o).pass);
  }
}

/* ---- allow_ftz ------------------------------------------------------------------ */

static void test_cmp_ftz_output_flushed_to_signed_zero(void **state)
{
  (void)state;
  for (int i = 0; i < NFMTS; i++) {
    fp_format f = FMTS[i];
    static const cmp_mode modes[] = {CMP_EXACT, CMP_ULP, CMP_ABS, CMP_REL};
    for (int m = 0; m < 4; m++) {
      cmp_options o = opts(modes[m]);
      o.abs_tol = 0;
      o.rel_tol = 0;
      assert_false(pass1(modes[m], f, 0, 3, &o));
      o.allow_ftz = true;
      assert_true(pass1(modes[m], f, 0, 3, &o));
      assert_true(pass1(modes[m], f, neg(f, 0), neg(f, 3), &o));
      assert_false(pass1(modes[m], f, neg(f, 0), 3, &o));
      assert_false(pass1(modes[m], f, 0, enc(f, fp_min_normal(f)), &o)); /* normal ref */
      assert_false(pass1(modes[m], f, 1, 3, &o));                        /* not a zero */
    }
    /* a precise value below min normal (ref rounded up to min normal) also flushes */
    cmp_options o = opts(CMP_ULP);
    o.allow_ftz = true;
    double tiny = fp_min_normal(f) * 0.99;
    assert_true(run1p(CMP_ULP, f, 0, enc(f, fp_min_normal(f)), tiny, 0, &o).pass);
  }
}

static void test_cmp_ftz_reference_accepted(void **state)
{
  (void)state;
  for (int i = 0; i < NFMTS; i++) {
    fp_format f = FMTS[i];
    uint64_t ref[] = {enc(f, 1.0), enc(f, 3.0)}, ftz[] = {enc(f, 1.25), enc(f, 3.0)};
    uint64_t got[] = {enc(f, 1.25), enc(f, 3.0)};
    cmp_options o = opts(CMP_EXACT);
    assert_false(run(CMP_EXACT, f, 2, got, ref, NULL, NULL, ftz, &o).pass);
    o.allow_ftz = true;
    assert_true(run(CMP_EXACT, f, 2, got, ref, NULL, NULL, ftz, &o).pass);
    assert_false(run(CMP_EXACT, f, 2, got, ref, NULL, NULL, NULL, &o).pass); /* no ftz_ref */
    /* ULP(1) around the FTZ reference */
    o = opts(CMP_ULP);
    o.ulp = 1;
    o.allow_ftz = true;
    got[0] = step(ftz[0], 1);
    assert_true(run(CMP_ULP, f, 2, got, ref, NULL, NULL, ftz, &o).pass);
    got[0] = step(ftz[0], 2);
    assert_false(run(CMP_ULP, f, 2, got, ref, NULL, NULL, ftz, &o).pass);
    /* DOT_PRODUCT: the FTZ reference replaces P, with the same bound */
    o = dp_opts();
    o.allow_ftz = true;
    uint64_t far = step(enc(f, 1.0), 40);
    double P[] = {1.0, 3.0}, B[] = {1.0, 3.0};
    uint64_t g2[] = {far, enc(f, 3.0)}, z2[] = {far, enc(f, 3.0)};
    assert_true(run(CMP_DOT_PRODUCT, f, 2, g2, ref, P, B, z2, &o).pass);
    o.allow_ftz = false;
    assert_false(run(CMP_DOT_PRODUCT, f, 2, g2, ref, P, B, z2, &o).pass);
  }
}

/* ---- quality warning, statistics ---------------------------------------------------- */

static void test_cmp_quality_warning_threshold(void **state)
{
  (void)state;
  for (int i = 0; i < NFMTS; i++) {
    fp_format f = FMTS[i];
    uint64_t b = enc(f, 1.5);
    cmp_options o = opts(CMP_ULP);
    o.ulp = 2;
    cmp_result r = run1(CMP_ULP, f, step(b, 1), b, &o); /* ratio 0.5: not above */
    assert_true(r.pass && r.max_ratio == 0.5 && !r.quality_warning);
    o.ulp = 1.5;
    r = run1(CMP_ULP, f, step(b, 1), b, &o); /* ratio 2/3 */
    assert_true(r.pass && r.quality_warning);
    o.quality_fraction = 0.7;
    r = run1(CMP_ULP, f, step(b, 1), b, &o);
    assert_true(r.pass && !r.quality_warning);
    r = run1(CMP_ULP, f, step(b, 2), b, &o); /* fails: no warning on a failure */
    assert_false(r.pass || r.quality_warning);
  }
}

static void test_cmp_ulp_statistics(void **state)
{
  (void)state;
  uint64_t got[100], ref[100];
  double P[100];
  uint64_t one = enc(FP_F32, 1.0);
  double ulp = ldexp(1.0, -23);
  for (int j = 0; j < 100; j++) { /* |error| = j/100 ulp */
    got[j] = one;
    ref[j] = one;
    P[j] = 1.0 + (j / 100.0) * ulp;
  }
  cmp_options o = opts(CMP_ULP);
  o.ulp = 1;
  cmp_result r = run(CMP_ULP, FP_F32, 100, got, ref, P, NULL, NULL, &o);
  assert_true(r.pass);
  assert_true(fabs(r.mean_ulp - 0.495) < 1e-8);
  assert_true(fabs(r.max_ulp - 0.99) < 1e-8);
  assert_true(r.p99_ulp > 0.95 && r.p99_ulp <= 0.99);
  assert_int_equal(r.worst.index, 99);
  assert_true(fabs(r.max_ratio - 0.99) < 1e-8);
  /* an empty tensor passes with no statistics */
  r = run(CMP_ULP, FP_F32, 0, got, ref, NULL, NULL, NULL, &o);
  assert_true(r.pass && r.n == 0 && r.worst.index == -1 && r.max_ulp == 0);
}

/* ---- layouts -------------------------------------------------------------------------- */

static void test_cmp_exact_nd_index_and_tf32(void **state)
{
  (void)state;
  tarr g, r;
  cmp_result res;
  ttref_error err = {0};
  uint64_t v[6] = {0};
  for (int j = 0; j < 6; j++) v[j] = enc(FP_BF16, j + 1.0);
  tfill(&g, FP_BF16, 6, v);
  tfill(&r, FP_BF16, 6, v);
  put(g.buf, 2, 4, step(v[4], 1));
  g.a.rank = r.a.rank = 2;
  g.a.shape[0] = r.a.shape[0] = 2;
  g.a.shape[1] = r.a.shape[1] = 3;
  assert_int_equal(cmp_check(CMP_EXACT, FP_BF16, &g.a, &r.a, NULL, NULL, NULL, NULL, &res, &err), TTREF_OK);
  assert_false(res.pass);
  assert_non_null(strstr(res.reason, "worst at [1,1]"));
  assert_non_null(strstr(res.reason, "[0x40a1]"));
  /* tf32 patterns sit in the top 19 bits of a 4-byte element */
  uint64_t t[2] = {enc(FP_TF32, 1.5) << 13, enc(FP_TF32, -3.0) << 13};
  tfill_raw(&g, 'u', 4, 2, t);
  tfill_raw(&r, 'u', 4, 2, t);
  put(g.buf, 4, 1, (enc(FP_TF32, -3.0) + 1) << 13);
  cmp_options o = opts(CMP_ULP);
  o.ulp = 1;
  assert_int_equal(cmp_check(CMP_ULP, FP_TF32, &g.a, &r.a, NULL, NULL, NULL, &o, &res, &err), TTREF_OK);
  assert_true(res.pass && res.max_ratio == 1.0 && res.worst.got == -3.0 - ldexp(1.0, -9));
}

/* ---- malformed input -------------------------------------------------------------------- */

static void test_cmp_malformed_input_errors(void **state)
{
  (void)state;
  tarr g, r, z;
  cmp_result res;
  ttref_error err;
  uint64_t v[4] = {enc(FP_F16, 1.0), enc(FP_F16, 2.0), enc(FP_F16, 3.0), enc(FP_F16, 4.0)};
  double P[4] = {1, 2, 3, 4}, B[4] = {1, 2, 3, 4};
  cmp_options o = dp_opts();

#define EXPECT(st_, want, text)                                                                                        \
  do {                                                                                                                 \
    memset(&err, 0, sizeof err);                                                                                       \
    assert_int_equal((st_), (want));                                                                                   \
    assert_int_equal(err.code, (want));                                                                                \
    if (!strstr(err.msg, (text))) print_error("message: %s\n", err.msg);                                               \
    assert_non_null(strstr(err.msg, (text)));                                                                          \
  } while (0)

  tfill(&g, FP_F16, 4, v);
  tfill(&r, FP_F16, 4, v);
  r.a.rank = 2;
  r.a.shape[0] = 2;
  r.a.shape[1] = 2;
  EXPECT(cmp_check(CMP_ULP, FP_F16, &g.a, &r.a, NULL, NULL, NULL, NULL, &res, &err), TTREF_E_INPUT,
         "error: cmp: shape mismatch: got is [4], ref is [2,2]");
  assert_false(res.pass);

  tfill(&r, FP_F16, 4, v);
  tfill_raw(&g, 'u', 2, 4, v);
  EXPECT(cmp_check(CMP_ULP, FP_F16, &g.a, &r.a, NULL, NULL, NULL, NULL, &res, &err), TTREF_E_INPUT,
         "dtype mismatch: got is 'u'2, ref is 'f'2");

  tfill(&g, FP_F16, 4, v);
  EXPECT(cmp_check(CMP_ULP, FP_F32, &g.a, &r.a, NULL, NULL, NULL, NULL, &res, &err), TTREF_E_INPUT,
         "f32 patterns take 4-byte elements, the arrays have 2-byte ones");
  EXPECT(cmp_check(CMP_ULP, CMP_FMT_NONE, &g.a, &r.a, NULL, NULL, NULL, NULL, &res, &err), TTREF_E_INPUT,
         "float array ('f'2) compared without a floating-point format");

  tfill(&z, FP_F16, 3, v);
  EXPECT(cmp_check(CMP_EXACT, FP_F16, &g.a, &r.a, NULL, NULL, &z.a, NULL, &res, &err), TTREF_E_INPUT,
         "shape mismatch: ftz_ref is [3], ref is [4]");

  EXPECT(cmp_check(CMP_DOT_PRODUCT, FP_F16, &g.a, &r.a, P, NULL, NULL, &o, &res, &err), TTREF_E_USAGE,
         "dot_product needs the precise and bound arrays (bound is NULL)");
  EXPECT(cmp_check(CMP_DOT_PRODUCT, FP_F16, &g.a, &r.a, NULL, B, NULL, &o, &res, &err), TTREF_E_USAGE,
         "(precise is NULL)");
  EXPECT(cmp_check(CMP_REDUCE, FP_F16, &g.a, &r.a, P, NULL, NULL, &o, &res, &err), TTREF_E_USAGE,
         "reduce needs the precise and bound arrays");
  EXPECT(cmp_check(CMP_DOT_PRODUCT, FP_F16, &g.a, &r.a, P, B, NULL, NULL, &res, &err), TTREF_E_USAGE,
         "dot_product needs k >= 1 terms per element (k = 0)");
  B[2] = -1;
  EXPECT(cmp_check(CMP_DOT_PRODUCT, FP_F16, &g.a, &r.a, P, B, NULL, &o, &res, &err), TTREF_E_INPUT,
         "bound[2] = -1 is negative");
  B[2] = 3;
  assert_int_equal(cmp_check(CMP_DOT_PRODUCT, FP_F16, &g.a, &r.a, P, B, NULL, &o, &res, &err), TTREF_OK);

  cmp_options bad = opts(CMP_ULP);
  bad.ulp = -1;
  EXPECT(cmp_check(CMP_ULP, FP_F16, &g.a, &r.a, NULL, NULL, NULL, &bad, &res, &err), TTREF_E_USAGE,
         "tolerance option is negative or NaN");
  bad = opts(CMP_ULP);
  bad.rel_tol = (double)NAN;
  EXPECT(cmp_check(CMP_ULP, FP_F16, &g.a, &r.a, NULL, NULL, NULL, &bad, &res, &err), TTREF_E_USAGE, "tolerance option");
  bad = opts(CMP_ULP);
  bad.nan = (cmp_nan_policy)7;
  EXPECT(cmp_check(CMP_ULP, FP_F16, &g.a, &r.a, NULL, NULL, NULL, &bad, &res, &err), TTREF_E_USAGE,
         "nan policy 7 out of range");
  EXPECT(cmp_check(CMP_MODE_COUNT, FP_F16, &g.a, &r.a, NULL, NULL, NULL, NULL, &res, &err), TTREF_E_USAGE,
         "compliance mode 7 out of range");
  EXPECT(cmp_check(CMP_ULP, FP_F16, NULL, &r.a, NULL, NULL, NULL, NULL, &res, &err), TTREF_E_USAGE,
         "got, ref and out must not be NULL");
  EXPECT(cmp_check(CMP_ULP, FP_F16, &g.a, &r.a, NULL, NULL, NULL, NULL, NULL, &err), TTREF_E_USAGE, "must not be NULL");
  g.a.data = NULL;
  EXPECT(cmp_check(CMP_ULP, FP_F16, &g.a, &r.a, NULL, NULL, NULL, NULL, &res, &err), TTREF_E_INPUT, "got has no data");
  tfill(&g, FP_F16, 4, v);
  tfill_raw(&r, 'i', 2, 4, v);
  tfill_raw(&g, 'i', 2, 4, v);
  r.a.elsize = g.a.elsize = 3;
  EXPECT(cmp_check(CMP_EXACT, CMP_FMT_NONE, &g.a, &r.a, NULL, NULL, NULL, NULL, &res, &err), TTREF_E_INPUT,
         "element size 3");
  /* a NULL error struct is allowed */
  assert_int_equal(cmp_check(CMP_ULP, FP_F16, NULL, &r.a, NULL, NULL, NULL, NULL, &res, NULL), TTREF_E_USAGE);
#undef EXPECT
}

static int group_setup(void **state)
{
  (void)state;
  gsl_set_error_handler_off();
  return 0;
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_cmp_mode_names_roundtrip),
      cmocka_unit_test(test_cmp_ulp_error_power_of_two),
      cmocka_unit_test(test_cmp_ulp_error_denormal_range),
      cmocka_unit_test(test_cmp_ulp_error_max_finite_inf_nan_zero),
      cmocka_unit_test(test_cmp_exact_pass_equal_bits),
      cmocka_unit_test(test_cmp_exact_fail_one_step),
      cmocka_unit_test(test_cmp_exact_signed_zero_differs),
      cmocka_unit_test(test_cmp_exact_nan_policies),
      cmocka_unit_test(test_cmp_exact_integers_any_mode),
      cmocka_unit_test(test_cmp_exact_nd_index_and_tf32),
      cmocka_unit_test(test_cmp_ulp_at_bound_every_format),
      cmocka_unit_test(test_cmp_ulp_half_ulp_against_precise),
      cmocka_unit_test(test_cmp_ulp_denormal_at_bound),
      cmocka_unit_test(test_cmp_ulp_max_finite_and_overflow),
      cmocka_unit_test(test_cmp_ulp_inf_nan_zero),
      cmocka_unit_test(test_cmp_ulp_statistics),
      cmocka_unit_test(test_cmp_abs_at_bound_every_format),
      cmocka_unit_test(test_cmp_abs_special_values),
      cmocka_unit_test(test_cmp_rel_at_bound_every_format),
      cmocka_unit_test(test_cmp_rel_zero_reference),
      cmocka_unit_test(test_cmp_dot_product_at_bound_every_format),
      cmocka_unit_test(test_cmp_dot_product_variance_fails_elements_in_bound),
      cmocka_unit_test(test_cmp_dot_product_bias_fails_elements_in_bound),
      cmocka_unit_test(test_cmp_dot_product_zero_bound_nan_overflow),
      cmocka_unit_test(test_cmp_dot_product_ksb_from_accumulator),
      cmocka_unit_test(test_cmp_reduce_at_bound_every_format),
      cmocka_unit_test(test_cmp_reduce_special_values),
      cmocka_unit_test(test_cmp_fp_special_judges_only_specials),
      cmocka_unit_test(test_cmp_ftz_output_flushed_to_signed_zero),
      cmocka_unit_test(test_cmp_ftz_reference_accepted),
      cmocka_unit_test(test_cmp_quality_warning_threshold),
      cmocka_unit_test(test_cmp_malformed_input_errors),
  };
  return cmocka_run_group_tests(tests, group_setup, NULL);
}
