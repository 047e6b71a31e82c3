/*
 * fp_math.h: reference values of the math functions of TTIR (math.*, libdevice
 * names), correctly rounded (RNE) to a format of fp.h.
 * Ownership: nothing is allocated; every function is pure and thread-safe.
 *
 * Strategy (Ziv): evaluate in x87 long double (64-bit significand) and round
 * both ends of the error interval y(1 -+ 2^-kld) to the target format; if they
 * agree, that is the correctly rounded result. Otherwise evaluate again in
 * __float128 (libquadmath, 113 bits) with bound 2^-kq. If that is still
 * undecided, FP_MC_ALG functions (sqrt, rsqrt, cbrt, hypot, pow) decide the
 * side of the rounding boundary exactly with integer arithmetic; FP_MC_ZIV
 * functions return the __float128 value rounded and report "unproven".
 * Exact special results that can sit on a rounding boundary (exp2 and exp10
 * of integers, log2 of powers of two, log10 of powers of ten, tgamma of small
 * integers) are computed exactly first. FP_MC_EXACT functions are computed
 * in binary64, where their result is exact or rounding it again is innocuous.
 *
 * Guarantees (docs/numerics.md has the per-function table):
 *  - FP_MC_EXACT and FP_MC_ALG: correctly rounded for every format and input
 *    (pow: unless the undecided case also has a huge exponent numerator; never
 *    observed);
 *  - FP_MC_ZIV: correctly rounded whenever the result is "proven", assuming
 *    libm's long double and libquadmath's errors stay below 2^-kld and 2^-kq
 *    (16x to 256x above the measured maxima). f16, bf16 and the fp8/fp6/fp4
 *    formats are checked against MPFR for every input (unary), f32 on 10^6
 *    inputs per function; f64 is best effort (an undecided case, probability
 *    about 2^-47 per input, may be off by one ulp at a near-tie).
 * Special values follow C99 Annex F (NaN in, NaN out unless Annex F says
 * otherwise, exp(-inf) = +0, log(0) = -inf, sqrt(-1) = NaN, pow(1, NaN) = 1,
 * hypot(inf, NaN) = inf). Overflow follows fp_round_to(f, ., FP_RNE,
 * FP_OVF_INF): inf, or NaN where the format has no inf, or max finite.
 */
#ifndef FP_MATH_H
#define FP_MATH_H

#include <stdbool.h>

#include "fp.h"

/** How a function's correct rounding is obtained (column class). */
typedef enum fp_math_class { FP_MC_EXACT, FP_MC_ZIV, FP_MC_ALG } fp_math_class;

/** Every function of fp_math_list.h, plus FP_MATH_COUNT. */
typedef enum fp_math_fn {
#define X(name, str, arity, cls, kld, kq) FP_MATH_##name,
#include "fp_math_list.h"
#undef X
  FP_MATH_COUNT
} fp_math_fn;

/** @return the plain C name ("tanh"), "<invalid>" when out of range. */
const char *fp_math_name(fp_math_fn fn);

/** @return 1 or 2, the number of arguments; 0 when out of range. */
int fp_math_arity(fp_math_fn fn);

/** @return the function's class; FP_MC_EXACT when out of range. */
fp_math_class fp_math_class_of(fp_math_fn fn);

/** Finds a function by its plain name ("tanh", not "math.tanh" or "__nv_tanhf").
 *  @param[out] out set when found. @return whether it was found. */
bool fp_math_lookup(const char *name, fp_math_fn *out);

/**
 * fn(x) or fn(x, y) (argument order of C: atan2(x, y) is C's atan2(x, y) =
 * angle of the point (y, x)) rounded correctly (RNE) to @p f. @p y is ignored
 * for unary functions. @p x and @p y should be values of @p f (the EXACT class
 * relies on it; the other classes round the exact fn(x, y) for any doubles).
 * An out-of-range @p fn or @p f gives NaN.
 */
double fp_math_eval(fp_math_fn fn, fp_format f, double x, double y);

/**
 * As fp_math_eval; @p *out_proven (if not NULL) is set to false when Ziv's
 * test did not decide and no exact decision was possible, true otherwise.
 */
double fp_math_eval_checked(fp_math_fn fn, fp_format f, double x, double y, bool *out_proven);

/**
 * The cheap first stage of fp_math_eval alone, for typed loops: exp, exp2, log
 * and log2 to formats of at most 24 bits, decided in binary64. @return true
 * with @p *out = fp_math_eval(fn, f, x, 0) when that stage decides; false
 * otherwise (then call fp_math_eval).
 */
bool fp_math_try_fast(fp_math_fn fn, fp_format f, double x, double *out);

#endif /* FP_MATH_H */
