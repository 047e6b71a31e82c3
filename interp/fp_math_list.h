/*
 * fp_math_list.h: every math function fp_math_eval knows, one row each.
 * Columns: X(NAME, "name", arity, class, kld, kq): class FP_MC_EXACT (the
 * binary64 result is exact, or rounding it again is innocuous), FP_MC_ZIV
 * (long double, then __float128, Ziv's test) or FP_MC_ALG (Ziv, then an
 * exact integer comparison at the rounding boundary); kld/kq: the relative
 * error assumed for the long double / __float128 libm evaluation is at most
 * 2^-kld / 2^-kq (measured maxima are about 2^-61 and 2^-110, see
 * docs/numerics.md). The comment is the reference definition. No include guard.
 */
X(EXP,       "exp",       1, FP_MC_ZIV,   57, 104) /* e^x */
X(EXP2,      "exp2",      1, FP_MC_ZIV,   57, 104) /* 2^x; integer x exact */
X(EXP10,     "exp10",     1, FP_MC_ZIV,   57, 104) /* 10^x; integer 0 <= x <= 27 exact */
X(EXPM1,     "expm1",     1, FP_MC_ZIV,   57, 104) /* e^x - 1 */
X(LOG,       "log",       1, FP_MC_ZIV,   57, 104) /* ln x; log(+-0) = -inf, x < 0 NaN */
X(LOG2,      "log2",      1, FP_MC_ZIV,   57, 104) /* log2 x; powers of two exact */
X(LOG10,     "log10",     1, FP_MC_ZIV,   57, 104) /* log10 x; 10^k (k <= 22) exact */
X(LOG1P,     "log1p",     1, FP_MC_ZIV,   57, 104) /* ln(1 + x) */
X(SIN,       "sin",       1, FP_MC_ZIV,   57, 104) /* sin x, x in radians, exact argument reduction */
X(COS,       "cos",       1, FP_MC_ZIV,   57, 104) /* cos x */
X(TAN,       "tan",       1, FP_MC_ZIV,   57, 104) /* tan x */
X(ASIN,      "asin",      1, FP_MC_ZIV,   57, 104) /* arcsin x in [-pi/2, pi/2]; |x| > 1 NaN */
X(ACOS,      "acos",      1, FP_MC_ZIV,   57, 104) /* arccos x in [0, pi] */
X(ATAN,      "atan",      1, FP_MC_ZIV,   57, 104) /* arctan x */
X(SINH,      "sinh",      1, FP_MC_ZIV,   57, 104) /* hyperbolic sine */
X(COSH,      "cosh",      1, FP_MC_ZIV,   57, 104) /* hyperbolic cosine */
X(TANH,      "tanh",      1, FP_MC_ZIV,   57, 104) /* hyperbolic tangent */
X(ASINH,     "asinh",     1, FP_MC_ZIV,   57, 104) /* inverse hyperbolic sine */
X(ACOSH,     "acosh",     1, FP_MC_ZIV,   57, 104) /* inverse hyperbolic cosine; x < 1 NaN */
X(ATANH,     "atanh",     1, FP_MC_ZIV,   57, 104) /* inverse hyperbolic tangent; atanh(+-1) = +-inf */
X(SQRT,      "sqrt",      1, FP_MC_ALG,   60, 108) /* square root; sqrt(-0) = -0, x < 0 NaN */
X(RSQRT,     "rsqrt",     1, FP_MC_ALG,   60, 108) /* 1/sqrt(x); rsqrt(+-0) = +-inf (IEEE rSqrt, C23) */
X(CBRT,      "cbrt",      1, FP_MC_ALG,   57, 104) /* real cube root, odd */
X(ERF,       "erf",       1, FP_MC_ZIV,   57, 104) /* error function */
X(ERFC,      "erfc",      1, FP_MC_ZIV,   57, 104) /* 1 - erf(x) without cancellation */
X(LGAMMA,    "lgamma",    1, FP_MC_ZIV,   52,  98) /* ln|Gamma(x)|; +inf at poles */
X(TGAMMA,    "tgamma",    1, FP_MC_ZIV,   52,  98) /* Gamma(x); NaN at negative integers, tgamma(+-0) = +-inf */
X(FLOOR,     "floor",     1, FP_MC_EXACT,  0,   0) /* largest integer <= x */
X(CEIL,      "ceil",      1, FP_MC_EXACT,  0,   0) /* smallest integer >= x */
X(TRUNC,     "trunc",     1, FP_MC_EXACT,  0,   0) /* integer toward zero */
X(ROUND,     "round",     1, FP_MC_EXACT,  0,   0) /* nearest integer, halfway away from zero */
X(RINT,      "rint",      1, FP_MC_EXACT,  0,   0) /* nearest integer, halfway to even (default mode) */
X(NEARBYINT, "nearbyint", 1, FP_MC_EXACT,  0,   0) /* as rint */
X(ROUNDEVEN, "roundeven", 1, FP_MC_EXACT,  0,   0) /* nearest integer, halfway to even (C23) */
X(FABS,      "fabs",      1, FP_MC_EXACT,  0,   0) /* |x| */
X(ATAN2,     "atan2",     2, FP_MC_ZIV,   57, 104) /* angle of (x=second, y=first) in [-pi, pi], C99 F.9.1.4 */
X(POW,       "pow",       2, FP_MC_ALG,   55, 102) /* x^y, C99 F.9.4.4 special cases */
X(HYPOT,     "hypot",     2, FP_MC_ALG,   60, 108) /* sqrt(x^2 + y^2) without overflow; inf beats NaN */
X(FMOD,      "fmod",      2, FP_MC_EXACT,  0,   0) /* x - n*y, n = trunc(x/y); exact */
X(REMAINDER, "remainder", 2, FP_MC_EXACT,  0,   0) /* x - n*y, n = x/y rounded to even; exact */
X(FMIN,      "fmin",      2, FP_MC_EXACT,  0,   0) /* minimum, NaN ignored, -0 < +0 */
X(FMAX,      "fmax",      2, FP_MC_EXACT,  0,   0) /* maximum, NaN ignored, -0 < +0 */
X(COPYSIGN,  "copysign",  2, FP_MC_EXACT,  0,   0) /* |x| with the sign of y */
X(FDIM,      "fdim",      2, FP_MC_EXACT,  0,   0) /* x - y if x > y, else +0 */
