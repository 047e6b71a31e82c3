/*
 * fp_math.c: correctly rounded reference math functions for every format of
 * fp.h: long double first, __float128 second (Ziv's test), exact integer
 * arithmetic at the rounding boundary for the algebraic functions and pow.
 */
#define _GNU_SOURCE /* exp10l, lgammal_r */
#include "fp_math.h"

#include <float.h>
#include <math.h>
#include <quadmath.h>
#include <string.h>

/* the kld bounds of fp_math_list.h assume at least x87's 64-bit significand */
_Static_assert(LDBL_MANT_DIG >= 64, "fp_math needs an 80-bit or wider long double");

typedef struct mfn {
  const char *name;
  int arity;
  fp_math_class cls;
  int kld, kq;
} mfn;

static const mfn fns[FP_MATH_COUNT] = {
#define X(name, str, arity, cls, kld, kq) {str, arity, cls, kld, kq},
#include "fp_math_list.h"
#undef X
};

const char *fp_math_name(fp_math_fn fn)
{
  if ((unsigned)fn >= FP_MATH_COUNT) return "<invalid>";
  return fns[fn].name;
}

int fp_math_arity(fp_math_fn fn)
{
  if ((unsigned)fn >= FP_MATH_COUNT) return 0;
  return fns[fn].arity;
}

fp_math_class fp_math_class_of(fp_math_fn fn)
{
  if ((unsigned)fn >= FP_MATH_COUNT) return FP_MC_EXACT;
  return fns[fn].cls;
}

bool fp_math_lookup(const char *name, fp_math_fn *out)
{
  for (int i = 0; i < FP_MATH_COUNT; i++) {
    if (strcmp(fns[i].name, name) == 0) {
      *out = (fp_math_fn)i;
      return true;
    }
  }
  return false;
}

static uint64_t dbits(double v)
{
  uint64_t u;
  memcpy(&u, &v, sizeof u);
  return u;
}

static double rne(fp_format f, double v) { return fp_round_to(f, v, FP_RNE, FP_OVF_INF); }

/* ---- rounding a wider value once ---------------------------------------- */

/* spacing of f's grid just above the nonnegative value t of f */
static double quantum(fp_format f, double t)
{
  if (t < fp_min_normal(f)) return fp_min_subnormal(f);
  int e;
  (void)frexp(t, &e); /* t in [2^(e-1), 2^e) */
  return ldexp(1.0, e - fp_precision(f));
}

/*
 * RN_f(v) for a long double v, rounded once. For f != F64 every rounding
 * boundary of f (a midpoint, or max + ulp/2) is a double, so v, when it is
 * not a double itself, is compared with the one boundary above the largest
 * value of f below it.
 */
static double round_ld(fp_format f, long double v)
{
  double d = (double)v; /* RN; exact answer for F64 */
  if (f == FP_F64 || isnan(d) || isinf(d) || (long double)d == v) return rne(f, d);
  long double av = fabsl(v);
  double lo = fabs(d);
  if ((long double)lo > av) lo = nextafter(lo, 0.0);
  double t = fp_round_to(f, lo, FP_RTZ, FP_OVF_INF); /* largest of f <= |v| */
  double q = quantum(f, t);
  double r = av > (long double)t + 0.5L * q ? t + q : t;
  return rne(f, copysign(r, d)); /* t + q past max overflows here */
}

static double round_q(fp_format f, __float128 v)
{
  double d = (double)v;
  if (f == FP_F64 || isnan(d) || isinf(d) || (__float128)d == v) return rne(f, d);
  __float128 av = fabsq(v);
  double lo = fabs(d);
  if ((__float128)lo > av) lo = nextafter(lo, 0.0);
  double t = fp_round_to(f, lo, FP_RTZ, FP_OVF_INF);
  double q = quantum(f, t);
  double r = av > (__float128)t + (__float128)(0.5 * q) ? t + q : t;
  return rne(f, copysign(r, d));
}

static double dfrom(uint64_t u)
{
  double v;
  memcpy(&v, &u, sizeof v);
  return v;
}

/* the neighbour of a finite double toward -inf / +inf */
static double next_down(double d)
{
  uint64_t u = dbits(d);
  if (d == 0) return -0x1p-1074;
  return dfrom(d > 0 ? u - 1 : u + 1);
}

static double next_up(double d)
{
  uint64_t u = dbits(d);
  if (d == 0) return 0x1p-1074;
  return dfrom(d > 0 ? u + 1 : u - 1);
}

/*
 * Ziv's test: both ends of y(1 -+ 2^(1-k)) round to the same value of f. For
 * f != F64 the ends are first widened to doubles (RD and RU): RN_f is
 * monotone, so equal results still prove the answer, and the common case
 * costs two conversions and two fp_round_to.
 */
static bool ziv_ld(fp_format f, long double y, int k, double *out)
{
  if (!isfinite(y) || y == 0) {
    *out = round_ld(f, y);
    return true;
  }
  long double e = fabsl(y) * (long double)dfrom((uint64_t)(1023 + 1 - k) << 52);
  long double lo = y - e, hi = y + e;
  double a, b;
  if (f == FP_F64) {
    a = (double)lo;
    b = (double)hi;
  } else {
    double lo_d = (double)lo, hi_d = (double)hi;
    if ((long double)lo_d > lo) lo_d = next_down(lo_d);
    if ((long double)hi_d < hi) hi_d = next_up(hi_d);
    a = rne(f, lo_d);
    b = rne(f, hi_d);
  }
  *out = a;
  return dbits(a) == dbits(b);
}

static bool ziv_q(fp_format f, __float128 y, int k, double *out)
{
  if (isnanq(y) || isinfq(y) || y == 0) {
    *out = round_q(f, y);
    return true;
  }
  __float128 e = fabsq(y) * ldexpq(1.0Q, 1 - k);
  double a = round_q(f, y - e), b = round_q(f, y + e);
  *out = a;
  return dbits(a) == dbits(b);
}

/* ---- function bodies ------------------------------------------------------ */

static double round_half_even(double x)
{
  double t = trunc(x), d = x - t; /* exact */
  if (fabs(d) > 0.5 || (fabs(d) == 0.5 && fmod(t, 2.0) != 0)) return t + copysign(1.0, x);
  return t;
}

static double eval_exact(fp_math_fn fn, fp_format f, double x, double y)
{
  switch (fn) {
  case FP_MATH_FLOOR: return floor(x);
  case FP_MATH_CEIL: return ceil(x);
  case FP_MATH_TRUNC: return trunc(x);
  case FP_MATH_ROUND: return round(x);
  case FP_MATH_RINT:
  case FP_MATH_NEARBYINT:
  case FP_MATH_ROUNDEVEN: return round_half_even(x);
  case FP_MATH_FABS: return fabs(x);
  case FP_MATH_FMOD: return fmod(x, y);
  case FP_MATH_REMAINDER: return remainder(x, y);
  case FP_MATH_FMIN:
    if (isnan(x)) return y;
    if (isnan(y)) return x;
    if (x == y) return signbit(x) ? x : y; /* -0 < +0 */
    return x < y ? x : y;
  case FP_MATH_FMAX:
    if (isnan(x)) return y;
    if (isnan(y)) return x;
    if (x == y) return signbit(x) ? y : x;
    return x > y ? x : y;
  case FP_MATH_COPYSIGN: return copysign(x, y);
  case FP_MATH_FDIM:
    if (f == FP_F64) return fdim(x, y);
    if (isnan(x) || isnan(y)) return x + y;
    return x > y ? x - y : 0.0; /* x - y of two p <= 25 bit values: innocuous */
  default: return NAN;
  }
}

/* ln 10 = LN10_HI + LN10_LO to about 173 bits; LN10_HI has 60 bits so that
 * x * LN10_HI is exact for a double x */
#define LN10_HI 0x1.26bb1bbb55515820000000000000p+1Q
#define LN10_LO 0x1.ba95b58ae0b4c28a38a3fb3e7697p-60Q

static __float128 exp10_q(__float128 x)
{
  if (isnanq(x) || fabsq(x) > 6000) return expq(x * M_LN10q); /* inf, 0, NaN */
  __float128 hi = x * LN10_HI, lo = x * LN10_LO;              /* |lo| < 2^-46 */
  __float128 e = expq(hi);
  return e + e * (lo + lo * lo * 0.5Q);
}

static long double eval_ld(fp_math_fn fn, long double x, long double y)
{
  int sg;
  switch (fn) {
  case FP_MATH_EXP: return expl(x);
  case FP_MATH_EXP2: return exp2l(x);
  case FP_MATH_EXP10: return exp10l(x);
  case FP_MATH_EXPM1: return expm1l(x);
  case FP_MATH_LOG: return logl(x);
  case FP_MATH_LOG2: return log2l(x);
  case FP_MATH_LOG10: return log10l(x);
  case FP_MATH_LOG1P: return log1pl(x);
  case FP_MATH_SIN: return sinl(x);
  case FP_MATH_COS: return cosl(x);
  case FP_MATH_TAN: return tanl(x);
  case FP_MATH_ASIN: return asinl(x);
  case FP_MATH_ACOS: return acosl(x);
  case FP_MATH_ATAN: return atanl(x);
  case FP_MATH_SINH: return sinhl(x);
  case FP_MATH_COSH: return coshl(x);
  case FP_MATH_TANH: return tanhl(x);
  case FP_MATH_ASINH: return asinhl(x);
  case FP_MATH_ACOSH: return acoshl(x);
  case FP_MATH_ATANH: return atanhl(x);
  case FP_MATH_SQRT: return sqrtl(x);
  case FP_MATH_RSQRT: return 1.0L / sqrtl(x);
  case FP_MATH_CBRT: return cbrtl(x);
  case FP_MATH_ERF: return erfl(x);
  case FP_MATH_ERFC: return erfcl(x);
  case FP_MATH_LGAMMA: return lgammal_r(x, &sg);
  case FP_MATH_TGAMMA: return tgammal(x);
  case FP_MATH_ATAN2: return atan2l(x, y);
  case FP_MATH_POW: return powl(x, y);
  case FP_MATH_HYPOT: return hypotl(x, y);
  default: return NAN;
  }
}

static __float128 eval_q(fp_math_fn fn, __float128 x, __float128 y)
{
  switch (fn) {
  case FP_MATH_EXP: return expq(x);
  case FP_MATH_EXP2: return exp2q(x);
  case FP_MATH_EXP10: return exp10_q(x);
  case FP_MATH_EXPM1: return expm1q(x);
  case FP_MATH_LOG: return logq(x);
  case FP_MATH_LOG2: return log2q(x);
  case FP_MATH_LOG10: return log10q(x);
  case FP_MATH_LOG1P: return log1pq(x);
  case FP_MATH_SIN: return sinq(x);
  case FP_MATH_COS: return cosq(x);
  case FP_MATH_TAN: return tanq(x);
  case FP_MATH_ASIN: return asinq(x);
  case FP_MATH_ACOS: return acosq(x);
  case FP_MATH_ATAN: return atanq(x);
  case FP_MATH_SINH: return sinhq(x);
  case FP_MATH_COSH: return coshq(x);
  case FP_MATH_TANH: return tanhq(x);
  case FP_MATH_ASINH: return asinhq(x);
  case FP_MATH_ACOSH: return acoshq(x);
  case FP_MATH_ATANH: return atanhq(x);
  case FP_MATH_SQRT: return sqrtq(x);
  case FP_MATH_RSQRT: return 1 / sqrtq(x);
  case FP_MATH_CBRT: return cbrtq(x);
  case FP_MATH_ERF: return erfq(x);
  case FP_MATH_ERFC: return erfcq(x);
  case FP_MATH_LGAMMA: return lgammaq(x);
  case FP_MATH_TGAMMA: return tgammaq(x);
  case FP_MATH_ATAN2: return atan2q(x, y);
  case FP_MATH_POW: return powq(x, y);
  case FP_MATH_HYPOT: return hypotq(x, y);
  default: return NAN;
  }
}

/* Results that are exact and may sit on a rounding boundary of some format
 * (e.g. log2(512) = 9 is a tie in f8E5M2, 7! = 5040 a tie in bf16). */
static bool exact_case(fp_math_fn fn, fp_format f, double x, double *out)
{
  if (!isfinite(x)) return false;
  switch (fn) {
  case FP_MATH_EXP2:
    if (x != floor(x)) return false;
    *out = rne(f, x > 2000 ? (double)INFINITY : x < -2000 ? 0.0 : ldexp(1.0, (int)x));
    return true;
  case FP_MATH_EXP10:
  case FP_MATH_TGAMMA: {
    if (x != floor(x) || x < (fn == FP_MATH_TGAMMA ? 1 : 0) || x > (fn == FP_MATH_TGAMMA ? 24 : 27)) return false;
    unsigned __int128 p = 1; /* 10^27 and 23! are below 2^91; both exact in quad */
    for (int i = 1; i <= (int)x - (fn == FP_MATH_TGAMMA); i++) p *= fn == FP_MATH_TGAMMA ? (unsigned)i : 10u;
    *out = round_q(f, (__float128)p);
    return true;
  }
  case FP_MATH_LOG2: {
    int e;
    if (x <= 0 || frexp(x, &e) != 0.5) return false;
    *out = rne(f, (double)(e - 1));
    return true;
  }
  case FP_MATH_LOG10: {
    double p = 1;
    for (int k = 0; k <= 22; k++, p *= 10) { /* 10^k exact for k <= 22 */
      if (x == p) {
        *out = rne(f, (double)k);
        return true;
      }
    }
    return false;
  }
  default: return false;
  }
}

/* ---- exact comparisons at a rounding boundary ----------------------------- */

#define BIG_LIMBS 170 /* 10880 bits */

typedef struct big {
  int n; /* limbs in use, little endian; 0 is zero */
  uint64_t w[BIG_LIMBS];
} big;

static void big_set(big *a, unsigned __int128 v)
{
  a->n = 0;
  while (v) {
    a->w[a->n++] = (uint64_t)v;
    v >>= 64;
  }
}

static bool big_mul_u64(big *a, uint64_t m)
{
  unsigned __int128 carry = 0;
  for (int i = 0; i < a->n; i++) {
    carry += (unsigned __int128)a->w[i] * m;
    a->w[i] = (uint64_t)carry;
    carry >>= 64;
  }
  if (carry) {
    if (a->n == BIG_LIMBS) return false;
    a->w[a->n++] = (uint64_t)carry;
  }
  return true;
}

static bool big_pow_u64(big *a, uint64_t m, long k)
{ /* a *= m^k */
  if (m == 1) return true;
  for (long i = 0; i < k; i++)
    if (!big_mul_u64(a, m)) return false;
  return true;
}

static int big_bitlen(const big *a)
{
  if (a->n == 0) return 0;
  return 64 * (a->n - 1) + 64 - __builtin_clzll(a->w[a->n - 1]);
}

static bool big_shl(big *a, long s)
{
  if (a->n == 0 || s == 0) return true;
  if ((big_bitlen(a) + s + 63) / 64 > BIG_LIMBS) return false;
  int limbs = (int)(s / 64), bits = (int)(s % 64);
  int n = a->n + limbs + 1;
  for (int i = n - 1; i >= 0; i--) {
    int src = i - limbs;
    uint64_t hi = src >= 0 && src < a->n ? a->w[src] : 0;
    uint64_t lo = src - 1 >= 0 && src - 1 < a->n ? a->w[src - 1] : 0;
    a->w[i] = bits ? (hi << bits) | (lo >> (64 - bits)) : hi;
  }
  a->n = n;
  while (a->n && a->w[a->n - 1] == 0) a->n--;
  return true;
}

static void big_add(big *a, const big *b)
{
  unsigned __int128 c = 0;
  int n = a->n > b->n ? a->n : b->n;
  for (int i = 0; i < n; i++) {
    c += (unsigned __int128)(i < a->n ? a->w[i] : 0) + (i < b->n ? b->w[i] : 0);
    a->w[i] = (uint64_t)c;
    c >>= 64;
  }
  a->n = n;
  if (c && n < BIG_LIMBS) a->w[a->n++] = (uint64_t)c;
}

/* sign of a*2^ea - b*2^eb, or 2 when it does not fit */
static int big_cmp(big *a, long ea, big *b, long eb)
{
  if (a->n == 0 || b->n == 0) return (a->n != 0) - (b->n != 0);
  long la = big_bitlen(a) + ea, lb = big_bitlen(b) + eb;
  if (la != lb) return la > lb ? 1 : -1;
  if (ea > eb) {
    if (!big_shl(a, ea - eb)) return 2;
  } else if (!big_shl(b, eb - ea)) {
    return 2;
  }
  if (a->n != b->n) return a->n > b->n ? 1 : -1;
  for (int i = a->n - 1; i >= 0; i--)
    if (a->w[i] != b->w[i]) return a->w[i] > b->w[i] ? 1 : -1;
  return 0;
}

/* |x| = m * 2^e with m odd (x finite, nonzero) */
static void split_d(double x, uint64_t *m, int *e)
{
  int ex;
  double fr = frexp(fabs(x), &ex);
  uint64_t mm = (uint64_t)ldexp(fr, 53);
  ex -= 53;
  int tz = __builtin_ctzll(mm);
  *m = mm >> tz;
  *e = ex + tz;
}

static void split_q(__float128 x, unsigned __int128 *m, int *e)
{
  int ex;
  __float128 fr = frexpq(x, &ex);
  unsigned __int128 mm = (unsigned __int128)ldexpq(fr, 113);
  ex -= 113;
  while (!(mm & 1)) {
    mm >>= 1;
    ex++;
  }
  *m = mm;
  *e = ex;
}

/* sign of |fn(x, y)| - m for the boundary m > 0, or 2 if undecidable here */
static int decide(fp_math_fn fn, double x, double y, __float128 m)
{
  static _Thread_local big A, B; /* 2.7 KiB each: off the stack */
  unsigned __int128 M;
  int E;
  split_q(m, &M, &E);
  uint64_t mx, my;
  int ex, ey;
  if (x == 0 || !isfinite(x)) return 2;
  split_d(x, &mx, &ex);
  switch (fn) {
  case FP_MATH_SQRT: /* x vs m^2 */
    big_set(&A, mx);
    big_set(&B, M);
    big_pow_u64(&B, (uint64_t)M, 1);
    return big_cmp(&A, ex, &B, 2L * E);
  case FP_MATH_RSQRT: /* 1 vs m^2 x, reversed */
    big_set(&A, 1);
    big_set(&B, M);
    big_pow_u64(&B, (uint64_t)M, 1);
    big_pow_u64(&B, mx, 1);
    return big_cmp(&A, 0, &B, 2L * E + ex);
  case FP_MATH_CBRT: /* |x| vs m^3 */
    big_set(&A, mx);
    big_set(&B, M);
    big_pow_u64(&B, (uint64_t)M, 2);
    return big_cmp(&A, ex, &B, 3L * E);
  case FP_MATH_HYPOT: { /* x^2 + y^2 vs m^2 */
    if (y == 0 || !isfinite(y)) return 2;
    split_d(y, &my, &ey);
    static _Thread_local big C;
    big_set(&A, mx);
    big_pow_u64(&A, mx, 1);
    big_set(&C, my);
    big_pow_u64(&C, my, 1);
    long ea = 2L * ex, ec = 2L * ey;
    if (ea > ec) {
      if (!big_shl(&A, ea - ec)) return 2;
      ea = ec;
    } else if (!big_shl(&C, ec - ea)) {
      return 2;
    }
    big_add(&A, &C);
    big_set(&B, M);
    big_pow_u64(&B, (uint64_t)M, 1);
    return big_cmp(&A, ea, &B, 2L * E);
  }
  case FP_MATH_POW: { /* y = k / 2^j: x^k vs m^(2^j) */
    if (y == 0 || !isfinite(y)) return 2;
    split_d(y, &my, &ey);
    if (ey >= 0 && 64 - __builtin_clzll(my) + ey > 17) return 2; /* k < 2^17 */
    long k = ey >= 0 ? (long)(my << ey) : (long)my;
    int j = ey >= 0 ? 0 : -ey;
    if (j > 14) return 2;
    long pj = 1L << j;
    int bm = 128 - (M >> 64 ? __builtin_clzll((uint64_t)(M >> 64)) : 64 + __builtin_clzll((uint64_t)M));
    int bx = 64 - __builtin_clzll(mx);
    if ((long)bm * pj + (long)bx * k > 64L * BIG_LIMBS - 128) return 2;
    if (M >> 64) return 2; /* boundaries have at most 54 bits */
    big_set(&B, 1);
    big_pow_u64(&B, (uint64_t)M, pj);
    long eb = (long)E * pj;
    if (y > 0) {
      big_set(&A, 1);
      big_pow_u64(&A, mx, k);
      return big_cmp(&A, (long)ex * k, &B, eb);
    }
    big_pow_u64(&B, mx, k);
    big_set(&A, 1);
    return big_cmp(&A, 0, &B, eb + (long)ex * k);
  }
  case FP_MATH_ATAN2: { /* tiny x/y: atan z = z - z^3/3 + z^5/5 - ..., z = x/y */
    if (!(y > 0) || !isfinite(y)) return 2;
    __float128 X = x, Y = y, zh = X / Y;
    if (fabsq(zh) > 0x1p-30Q) return 2;
    __float128 zl = fmaq(-zh, Y, X) / Y; /* the remainder is exact: z = zh + zl */
    __float128 z2 = zh * zh;
    __float128 corr = zl - zh * z2 / 3 + zh * z2 * z2 / 5;
    __float128 d = (fabsq(zh) - m) + (zh < 0 ? -corr : corr); /* |atan z| - m */
    __float128 az = fabsq(zh), azl = fabsq(zl);               /* error: roundings, z vs zh, z^7 */
    __float128 err = az * z2 * 0x1p-108Q + 4 * z2 * azl + az * z2 * z2 * z2 + azl * 0x1p-112Q;
    if (fabsq(d) <= err) return 2;
    return d > 0 ? 1 : -1;
  }
  default: return 2;
  }
}

/* ---- driver ------------------------------------------------------------- */

/*
 * A cheap first stage for formats of at most 24 bits (f32, f16, bf16, fp8):
 * glibc's binary64 exp, exp2, log and log2 are within 1 ulp (its manual lists
 * < 0.52 ulp), so Ziv's test with a relative margin of 2^-48 around the binary64
 * value (room for its error and for rounding the two ends) proves the correctly
 * rounded result in almost every case; otherwise the long double stage decides,
 * as before. Same results, no x87 on the common path. Inlined into
 * fp_math_try_fast, the executor's per-element first stage (softmax's exp).
 */
static inline __attribute__((always_inline)) bool ziv_d(fp_math_fn fn, fp_format f, double x, double *out)
{
  double y;
  switch (fn) {
  case FP_MATH_EXP: y = exp(x); break;
  case FP_MATH_EXP2: y = exp2(x); break;
  case FP_MATH_LOG: y = log(x); break;
  case FP_MATH_LOG2: y = log2(x); break;
  default: return false;
  }
  if ((isinf(x) || x == 0 || x == 1) && !isnan(y)) { /* exp(-inf) = 0, log(0) = -inf, log(1) = 0, ...: exact */
    *out = rne(f, y);
    return true;
  }
  if (!isfinite(y) || fabs(y) < 0x1p-1000) return false; /* zeros, infinities, NaN, subnormal range: long double */
  /* y is within 2^-52 |y| of the true value; y -+ 2^-48 |y|, each rounded to binary64 (at most
   * 2^-53 |y| more), still bracket it */
  const double e = fabs(y) * 0x1p-48, lo = y - e, hi = y + e;
  /* f32: the hardware conversion is RN with overflow to inf, as rne (lo and hi are finite, not NaN) */
  const double a = f == FP_F32 ? (double)(float)lo : rne(f, lo), b = f == FP_F32 ? (double)(float)hi : rne(f, hi);
  if (dbits(a) != dbits(b)) return false;
  *out = a;
  return true;
}

double fp_math_eval_checked(fp_math_fn fn, fp_format f, double x, double y, bool *out_proven)
{
  bool dummy;
  if (!out_proven) out_proven = &dummy;
  *out_proven = true;
  if ((unsigned)fn >= FP_MATH_COUNT || (unsigned)f >= FP_FORMAT_COUNT) return NAN;
  const mfn *F = &fns[fn];
  if (F->cls == FP_MC_EXACT) return rne(f, eval_exact(fn, f, x, y));
  double r;
  if (exact_case(fn, f, x, &r)) return r;
  if (fn == FP_MATH_SQRT) { /* sqrt of a binary64 value is already RN */
    if (f == FP_F64) return sqrt(x);
    if (fp_precision(f) <= 25 && dbits(rne(f, x)) == dbits(x)) return rne(f, sqrt(x));
  }
  if (f != FP_F64 && fp_precision(f) <= 24 && ziv_d(fn, f, x, &r)) return r;
  long double yl = eval_ld(fn, x, y);
  if (ziv_ld(f, yl, F->kld, &r)) return r;
  __float128 yq = eval_q(fn, x, y);
  if (ziv_q(f, yq, F->kq, &r)) return r;
  { /* exact side of the boundary: FP_MC_ALG, and atan2 of a tiny ratio */
    __float128 e = fabsq(yq) * ldexpq(1.0Q, 1 - F->kq);
    __float128 alo = fabsq(yq) - e, ahi = fabsq(yq) + e;
    double lo = (double)alo;
    if ((__float128)lo > alo) lo = nextafter(lo, 0.0);
    double t = fp_round_to(f, lo, FP_RTZ, FP_OVF_INF); /* largest of f <= alo */
    double q = quantum(f, t);
    __float128 m = (__float128)t + (__float128)q / 2;
    if (ahi < (__float128)t + (__float128)q * 1.5Q) {
      int c = decide(fn, x, y, m);
      if (c != 2) {
        double v;
        if (c < 0) v = t;
        else if (c > 0) v = t + q;
        else if (f != FP_F64) v = (double)m; /* a tie: m is a double, rne breaks it */
        else v = (dbits(t) & 1) ? t + q : t;
        return rne(f, signbit((double)yq) ? -v : v);
      }
    }
  }
  *out_proven = false;
  return round_q(f, yq);
}

bool fp_math_try_fast(fp_math_fn fn, fp_format f, double x, double *out)
{
  /* the same stage fp_math_eval_checked runs; an exact_case it would take first is a value the
   * stage either proves identically (both are the correctly rounded fn(x)) or leaves undecided */
  if (f != FP_F32 && ((unsigned)f >= FP_FORMAT_COUNT || f == FP_F64 || fp_precision(f) > 24)) return false;
  return ziv_d(fn, f, x, out);
}

double fp_math_eval(fp_math_fn fn, fp_format f, double x, double y) { return fp_math_eval_checked(fn, f, x, y, NULL); }
