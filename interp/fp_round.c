/*
 * fp_round.c: decode, encode and round-once for every format of
 * fp_format_list.h, all on integer bit patterns of binary64 (STYLE rule 15).
 * Rounding works in place on the double's bits: the format's quantum at the
 * value's exponent decides how many low bits go, and a carry simply moves up.
 */
#include "fp.h"

#include <math.h>
#include <string.h>

#define D_SIGN  0x8000000000000000ull
#define D_EXP   0x7ff0000000000000ull
#define D_MANT  0x000fffffffffffffull
#define D_QUIET 0x0008000000000000ull

typedef struct fmt {
  const char *name;
  int ebits, mbits, bias;
  bool inf;
  fp_nan_kind nan;
  bool sgn, subn;
  double maxf;
  int nbits;        /* width of the encoding */
  int emin;         /* unbiased exponent of the smallest normal */
  uint64_t max_pat; /* magnitude pattern of the largest finite value */
} fmt;

#define MAX_PAT(e, m, nan)                                                                                             \
  ((nan) == FP_NAN_IEEE ? ((((1ull << (e)) - 2) << (m)) | ((1ull << (m)) - 1))                                         \
   : (nan) == FP_NAN_FN ? ((1ull << ((e) + (m))) - 2)                                                                  \
                        : ((1ull << ((e) + (m))) - 1))

static const fmt fmts[FP_FORMAT_COUNT] = {
#define X(name, str, e, m, b, inf, nan, sgn, subn, maxf)                                                               \
  {str, e, m, b, inf, nan, sgn, subn, maxf, (sgn) + (e) + (m), (subn) ? 1 - (b) : -(b), MAX_PAT(e, m, nan)},
#include "fp_format_list.h"
#undef X
};

static uint64_t dbits(double v)
{
  uint64_t u;
  memcpy(&u, &v, sizeof u);
  return u;
}

static double dfrom(uint64_t u)
{
  double v;
  memcpy(&v, &u, sizeof v);
  return v;
}

const char *fp_name(fp_format f)
{
  if ((unsigned)f >= FP_FORMAT_COUNT) return "<invalid>";
  return fmts[f].name;
}

int fp_bits(fp_format f)
{
  if ((unsigned)f >= FP_FORMAT_COUNT) return 0;
  return fmts[f].nbits;
}

bool fp_lookup(const char *name, fp_format *out)
{
  for (int i = 0; i < FP_FORMAT_COUNT; i++) {
    if (strcmp(fmts[i].name, name) == 0) {
      *out = (fp_format)i;
      return true;
    }
  }
  return false;
}

#define VALID(f) ((unsigned)(f) < FP_FORMAT_COUNT)

int fp_precision(fp_format f) { return VALID(f) ? fmts[f].mbits + 1 : 0; }
bool fp_has_inf(fp_format f) { return VALID(f) && fmts[f].inf; }
bool fp_has_nan(fp_format f) { return VALID(f) && fmts[f].nan != FP_NAN_NONE; }
bool fp_has_neg_zero(fp_format f) { return VALID(f) && fmts[f].sgn && fmts[f].nan != FP_NAN_FNUZ; }
double fp_max_finite(fp_format f) { return VALID(f) ? fmts[f].maxf : (double)NAN; }
double fp_min_normal(fp_format f) { return VALID(f) ? ldexp(1.0, fmts[f].emin) : (double)NAN; }
double fp_min_subnormal(fp_format f)
{
  if (!VALID(f)) return NAN;
  const fmt *F = &fmts[f];
  return ldexp(1.0, F->subn ? F->emin - F->mbits : F->emin);
}

/* ---- decode ----------------------------------------------------------- */

double fp_decode(fp_format f, uint64_t bits)
{
  if (!VALID(f)) return NAN;
  const fmt *F = &fmts[f];
  if (f == FP_F64) return dfrom(bits);
  bits &= (1ull << F->nbits) - 1;
  const int m = F->mbits;
  const uint64_t emask = (1ull << F->ebits) - 1, mmask = (1ull << m) - 1;
  uint64_t sign = F->sgn ? ((bits >> (F->ebits + m)) & 1) << 63 : 0;
  uint64_t field = (bits >> m) & emask, mant = bits & mmask;
  if (F->nan == FP_NAN_FNUZ && bits == 1ull << (F->ebits + m)) return dfrom(D_SIGN | D_EXP | D_QUIET);
  if (field == emask) {
    if (F->nan == FP_NAN_IEEE) return dfrom(sign | D_EXP | (mant << (52 - m))); /* inf when mant == 0 */
    if (F->nan == FP_NAN_FN && mant == mmask) return dfrom(sign | D_EXP | (m ? mant << (52 - m) : D_QUIET));
  }
  if (field == 0 && F->subn) {
    if (mant == 0) return dfrom(sign);
    int k = 63 - __builtin_clzll(mant); /* top set bit: value mant*2^(emin-m) */
    int e = F->emin - m + k;
    return dfrom(sign | ((uint64_t)(e + 1023) << 52) | ((mant << (52 - k)) & D_MANT));
  }
  int e = (int)field - F->bias;
  return dfrom(sign | ((uint64_t)(e + 1023) << 52) | (mant << (52 - m)));
}

/* ---- encode ----------------------------------------------------------- */

/*
 * Magnitude bits of the finite, nonnegative double with bits a, rounded to
 * the grid of F with an unbounded exponent range (the caller checks
 * overflow). Valid for every format except F64 and E8M0: their subnormals
 * are far inside binary64's normal range, so the result is a normal double.
 */
static inline uint64_t round_mag(const fmt *F, uint64_t a, fp_round r)
{
  int E = (int)(a >> 52) - 1023; /* -1023 for double zero/subnormal: s huge */
  int s = 52 - F->mbits + (E < F->emin ? F->emin - E : 0);
  if (s > 53) return 0; /* below half the smallest subnormal */
  if (s == 53)          /* [2^E, 2^(E+1)) with quantum 2^(E+1): half rounds to 0 (even) */
    return (r == FP_RNE && (a & D_MANT)) ? (uint64_t)(E + 1 + 1023) << 52 : 0;
  uint64_t mask = (1ull << s) - 1;
  if (r == FP_RTZ) return a & ~mask;
  uint64_t odd = s < 52 ? (a >> s) & 1 : 1; /* s == 52: the implicit bit */
  return (a + (mask >> 1) + odd) & ~mask;
}

static uint64_t nan_pat(const fmt *F, uint64_t u)
{
  const int m = F->mbits, w = F->ebits + m;
  uint64_t sign = F->sgn ? (u >> 63) << w : 0;
  switch (F->nan) {
  case FP_NAN_IEEE: {
    uint64_t mant = (u & D_MANT) >> (52 - m);
    if (mant == 0) mant = 1ull << (m - 1); /* payload lost: make it quiet */
    return sign | (((1ull << F->ebits) - 1) << m) | mant;
  }
  case FP_NAN_FN: return sign | ((1ull << w) - 1);
  case FP_NAN_FNUZ: return 1ull << w;
  case FP_NAN_NONE: return F->max_pat; /* no NaN: +max finite */
  }
  return 0;
}

static uint64_t encode_e8m0(double v, fp_round r, fp_overflow o)
{
  uint64_t a = dbits(v);
  if (isnan(v) || v <= 0) return 0xff;
  if (isinf(v)) return o == FP_OVF_SAT ? 0xfe : 0xff;
  int E = (int)(a >> 52) - 1023;
  if (E < -127) return 0x00; /* no zero: the smallest value */
  uint64_t mant = a & D_MANT;
  int k = E + 127;
  if (r == FP_RNE && (mant > (1ull << 51) || (mant == (1ull << 51) && (k & 1))))
    k++; /* nearest power of two; a tie goes to the even exponent field */
  if (k > 254) return (r == FP_RTZ || o == FP_OVF_SAT) ? 0xfe : 0xff;
  return (uint64_t)k;
}

/* Overflowed magnitude with sign bit `sign` (already shifted into place). */
static uint64_t overflow_pat(const fmt *F, uint64_t sign, uint64_t u, fp_round r, fp_overflow o)
{
  if (r == FP_RTZ || o == FP_OVF_SAT || F->nan == FP_NAN_NONE) return sign | F->max_pat;
  if (F->inf) return sign | ((((1ull << F->ebits) - 1)) << F->mbits);
  return nan_pat(F, u);
}

uint64_t fp_encode(fp_format f, double v, fp_round r, fp_overflow o)
{
  if (!VALID(f)) return 0;
  const fmt *F = &fmts[f];
  uint64_t u = dbits(v), a = u & ~D_SIGN;
  if (f == FP_E8M0) return encode_e8m0(v, r, o);
  const int m = F->mbits, w = F->ebits + m;
  uint64_t sign = (u >> 63) << w;
  if (a > D_EXP) return nan_pat(F, u);
  if (a == D_EXP) {
    if (o == FP_OVF_SAT) return sign | F->max_pat;
    if (F->inf) return sign | (((1ull << F->ebits) - 1) << m);
    return F->nan == FP_NAN_NONE ? sign | F->max_pat : nan_pat(F, u);
  }
  if (f == FP_F64) return u;
  uint64_t ra = round_mag(F, a, r);
  if (ra > dbits(F->maxf)) return overflow_pat(F, sign, u, r, o);
  if (ra == 0) return F->nan == FP_NAN_FNUZ ? 0 : sign;
  int E = (int)(ra >> 52) - 1023;
  if (E >= F->emin) return sign | ((uint64_t)(E + F->bias) << m) | ((ra & D_MANT) >> (52 - m));
  /* subnormal of F: the quantum is 2^(emin-m) */
  return sign | (((ra & D_MANT) | (1ull << 52)) >> (52 - m + F->emin - E));
}

/* ---- round to a value ------------------------------------------------- */

static double round_slow(fp_format f, double v, fp_round r, fp_overflow o)
{
  return fp_decode(f, fp_encode(f, v, r, o));
}

/* Fast path shared by all formats with a normal-double grid; NaN, inf,
 * overflow and FNUZ zero take the slow path. Inlined with constant F. */
static inline double round_fast(fp_format f, const fmt *F, double v, fp_round r, fp_overflow o)
{
  uint64_t u = dbits(v), a = u & ~D_SIGN;
  if (a >= D_EXP) return round_slow(f, v, r, o);
  uint64_t ra = round_mag(F, a, r);
  if (ra > dbits(F->maxf) || (ra == 0 && F->nan == FP_NAN_FNUZ)) return round_slow(f, v, r, o);
  return dfrom((u & D_SIGN) | ra);
}

double fp_round_to(fp_format f, double v, fp_round r, fp_overflow o)
{
  switch (f) {
  case FP_F64: return (o == FP_OVF_SAT && isinf(v)) ? copysign(fmts[f].maxf, v) : v;
  case FP_F32:
    if (r == FP_RNE && o == FP_OVF_INF && !isnan(v)) return (double)(float)v;
    return round_fast(f, &fmts[FP_F32], v, r, o);
  case FP_F16: return round_fast(f, &fmts[FP_F16], v, r, o);
  case FP_BF16: return round_fast(f, &fmts[FP_BF16], v, r, o);
  case FP_E8M0: return round_slow(f, v, r, o);
  default:
    if ((unsigned)f >= FP_FORMAT_COUNT) return NAN;
    return round_fast(f, &fmts[f], v, r, o);
  }
}

/* ---- fused multiply-add and flush-to-zero ----------------------------- */

double fp_fma(fp_format f, double a, double b, double c)
{
  if (!VALID(f)) return NAN;
  if (f == FP_F64) return fma(a, b, c);
  double p = a * b; /* exact: a and b have at most 24 significant bits */
  if (!isfinite(p) || !isfinite(c)) return fp_round_to(f, fma(a, b, c), FP_RNE, FP_OVF_INF);
  /* TwoSum: s + t == p + c exactly; then round s to odd, which makes the
   * final rounding to p' <= 51 bits exact (round-to-odd, Boldo-Melquiond). */
  double s = p + c;
  double bb = s - p;
  double t = (p - (s - bb)) + (c - bb);
  uint64_t us = dbits(s);
  if (t != 0 && !(us & 1)) {
    bool away = (t > 0) == (s > 0); /* exact value lies farther from zero */
    us = away ? us + 1 : us - 1;
    s = dfrom(us);
  }
  return fp_round_to(f, s, FP_RNE, FP_OVF_INF);
}

double fp_ftz(fp_format f, double v)
{
  if (!VALID(f)) return v;
  const fmt *F = &fmts[f];
  if (!F->subn || !isfinite(v) || v == 0) return v;
  if (fabs(v) < fp_min_normal(f)) return F->nan == FP_NAN_FNUZ ? 0.0 : copysign(0.0, v);
  return v;
}
