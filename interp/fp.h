/*
 * fp.h: low-precision floating-point formats: bit-exact decode, correctly
 * rounded encode (RNE or RTZ, overflow to inf or saturating), fused
 * multiply-add rounded once, and flush-to-zero. See docs/numerics.md.
 * Ownership: nothing is allocated; every function is pure and thread-safe.
 */
#ifndef FP_H
#define FP_H

#include <stdbool.h>
#include <stdint.h>

/** NaN encodings (column nan_kind of fp_format_list.h). */
typedef enum fp_nan_kind {
  FP_NAN_IEEE, /**< exponent all ones, mantissa != 0; all ones + 0 is inf */
  FP_NAN_FN,   /**< only exponent and mantissa all ones (E4M3FN, E8M0) */
  FP_NAN_FNUZ, /**< only sign 1 with all other bits 0 (0x80); no -0 */
  FP_NAN_NONE  /**< no NaN encoding (E2M1, E2M3, E3M2) */
} fp_nan_kind;

/** Every format of fp_format_list.h, plus FP_FORMAT_COUNT. */
typedef enum fp_format {
#define X(name, str, ebits, mbits, bias, inf, nan, sgn, subn, maxf) FP_##name,
#include "fp_format_list.h"
#undef X
  FP_FORMAT_COUNT
} fp_format;

/** Rounding direction: to nearest, ties to even; or toward zero. */
typedef enum fp_round { FP_RNE, FP_RTZ } fp_round;

/**
 * Overflow policy. FP_OVF_INF: a finite value that rounds past the largest
 * finite one becomes inf (RNE), or NaN where the format has no inf, or the
 * largest finite value where it has neither; RTZ never overflows (IEEE).
 * Infinite inputs stay infinite where the format has inf.
 * FP_OVF_SAT: overflow and +-inf both become +-max finite (PTX
 * cvt.rn.satfinite); NaN stays NaN.
 */
typedef enum fp_overflow { FP_OVF_INF, FP_OVF_SAT } fp_overflow;

/** @return the format's name ("f16", "f8E4M3FN", ...), "<invalid>" if out of range. */
const char *fp_name(fp_format f);

/** @return the width of the encoding in bits (TF32: 19), 0 if out of range. */
int fp_bits(fp_format f);

/** @return the format with name @p name in @p *out (true), or false. */
bool fp_lookup(const char *name, fp_format *out);

/**
 * Exact value of the pattern @p bits (low fp_bits(f) bits; higher bits are
 * ignored). NaN keeps its sign, and its mantissa bits become the top
 * mantissa bits of the double (0x80 of FNUZ decodes as -NaN; E8M0 0xFF as a
 * positive quiet NaN). FNUZ never yields -0.
 */
double fp_decode(fp_format f, uint64_t bits);

/**
 * Pattern of @p v rounded once, correctly, to @p f with direction @p r and
 * overflow policy @p o. NaN keeps sign and the top mantissa bits (quiet stays
 * quiet; the quiet bit is set if nothing else would remain); FNUZ NaN is 0x80,
 * E4M3FN NaN is S.1111.111; formats without NaN encode NaN as +max finite.
 * -0 encodes as +0 in FNUZ. E8M0 (no sign, no zero): v <= 0 or NaN gives
 * 0xFF, values below 2^-127 give 2^-127. For all b, fp_encode(f,
 * fp_decode(f, b), r, o) == b (FNUZ and E8M0 have no second encoding).
 */
uint64_t fp_encode(fp_format f, double v, fp_round r, fp_overflow o);

/**
 * The same as fp_decode(f, fp_encode(f, v, r, o)), with fast paths (F64 is
 * the identity, F32 RNE/OVF_INF a float cast, F16/BF16 pure integer code).
 */
double fp_round_to(fp_format f, double v, fp_round r, fp_overflow o);

/**
 * @p a * @p b + @p c rounded once (RNE, overflow to inf) to @p f. @p a, @p b
 * and @p c must be values of @p f (true for F64 always); NaN and inf follow
 * IEEE fma.
 */
double fp_fma(fp_format f, double a, double b, double c);

/** @p v with nonzero values below fp_min_normal(f) in magnitude replaced by a
 *  zero of the same sign (+0 for FNUZ); identity for E8M0 and non-finite. */
double fp_ftz(fp_format f, double v);

/** Largest finite value of @p f (column max_finite). */
double fp_max_finite(fp_format f);
/** Smallest positive normal value of @p f (2^(1-bias); E8M0: 2^-127). */
double fp_min_normal(fp_format f);
/** Smallest positive value of @p f (E8M0: 2^-127). */
double fp_min_subnormal(fp_format f);

/** @return whether @p f has an infinity / a NaN / negative zero. */
bool fp_has_inf(fp_format f);
bool fp_has_nan(fp_format f);
bool fp_has_neg_zero(fp_format f);

/** Precision p (significand bits including the implicit one). */
int fp_precision(fp_format f);

/* An out-of-range format gives NaN (values), 0 (patterns, counts), false
 * (predicates) or v unchanged (fp_ftz). */

#endif /* FP_H */
