/*
 * cmp.h: compliance modes of the conformance harness: judge a backend's
 * output tensor against ttref's golden (EXACT, ULP, ABS, REL, TOSA
 * DOT_PRODUCT, REDUCE, FP_SPECIAL). Formulas and reasons: docs/compliance.md.
 * Ownership: nothing is retained; every pointer argument is borrowed for the
 * call, and results are written into caller-owned structs.
 */
#ifndef CMP_H
#define CMP_H

#include <stdbool.h>
#include <stdint.h>

#include "fp.h"
#include "npy_io.h"
#include "ttref.h"

/** Every mode of cmp_mode_list.h, plus CMP_MODE_COUNT. */
typedef enum cmp_mode {
#define X(name, str, desc) CMP_##name,
#include "cmp_mode_list.h"
#undef X
  CMP_MODE_COUNT
} cmp_mode;

/** @return the mode's name ("ulp", ...), "<invalid>" if out of range. */
const char *cmp_mode_name(cmp_mode m);

/** @return the mode's one-line description, "<invalid>" if out of range. */
const char *cmp_mode_description(cmp_mode m);

/** @return true and the mode named @p name (exact, case-sensitive) in @p *out. */
bool cmp_mode_lookup(const char *name, cmp_mode *out);

/**
 * "No floating-point format" (the -1 of conformance/conform_dtype_list.h).
 * As cmp_check's @p fmt: the tensors hold integers. As cmp_options.acc: the
 * accumulator is the output format. Any value outside [0, FP_FORMAT_COUNT)
 * is read the same way.
 */
#define CMP_FMT_NONE ((fp_format)-1)

/** How a NaN result must match a NaN reference. */
typedef enum cmp_nan_policy {
  CMP_NAN_ANY,       /**< any NaN matches any NaN */
  CMP_NAN_SAME_SIGN, /**< and the sign bits are equal */
  CMP_NAN_SAME_BITS  /**< and the whole bit patterns are equal (payload too) */
} cmp_nan_policy;

/** Parameters of a check; cmp_options_default fills every field. */
typedef struct cmp_options {
  double ulp;              /**< ULP: allowed |error| in ulps of the output format (default 0.5) */
  double abs_tol;          /**< ABS: allowed |got - r| (default 1e-4, IREE's atol) */
  double rel_tol;          /**< REL: allowed |got - r| / |r| (default 1e-3, ONNX's rtol) */
  int64_t k;               /**< DOT_PRODUCT/REDUCE: terms per output element, >= 1; a
                                 nonzero accumulator input counts as a term (TOSA KS+1) */
  bool allow_ftz;          /**< also accept got == the FTZ reference, or a zero of the
                                 same sign where the reference is subnormal */
  cmp_nan_policy nan;      /**< NaN matching (default CMP_NAN_ANY) */
  bool allow_overflow_inf; /**< accept +-inf (NaN in formats without inf) where the reference
                                 is finite but r + allowed passes max finite; DOT_PRODUCT also
                                 skips elements whose bound can overflow (TOSA). Default true
                                 for tolerance modes */
  double quality_fraction; /**< QUALITY_WARNING when max_ratio exceeds it (default 0.5) */
  fp_format acc;           /**< DOT_PRODUCT: accumulator format for TOSA's ksb
                                 (CMP_FMT_NONE: the output format, so ksb = k) */
  double abs_bound;        /**< DOT_PRODUCT: limit on |err_i|; 0 means TOSA's 2*ksb */
  double var_bound;        /**< DOT_PRODUCT: limit on mean(err_i^2); 0 means TOSA's 1.6*ksb */
  bool bias_test;          /**< DOT_PRODUCT: also |sum err_i| <= sqrt(10*var_bound*T)
                                 (TOSA runs it for its data sets 3..5; default true) */
} cmp_options;

/** Fill @p o with the defaults of mode @p m (see the field comments). */
void cmp_options_default(cmp_mode m, cmp_options *o);

/** One judged element. Values are binary64; err and bound are absolute. */
typedef struct cmp_element {
  int64_t index; /**< flat C-order index; -1 when no element was judged */
  double got;    /**< decoded result (integers converted) */
  double ref;    /**< the reference value the mode used (precise when given) */
  double bound;  /**< allowed |got - ref| (0 for EXACT/FP_SPECIAL/integers) */
  double err;    /**< |got - ref| (+-inf results valued as +-2^(emax+1)) */
} cmp_element;

/** Outcome of cmp_check. */
typedef struct cmp_result {
  bool pass;                         /**< every judged element and (DOT_PRODUCT) the aggregate tests pass */
  bool quality_warning;              /**< pass, but max_ratio > quality_fraction */
  int64_t n;                         /**< elements judged (FP_SPECIAL: those with a special reference) */
  int64_t nfail;                     /**< judged elements that failed */
  cmp_element worst;                 /**< the element with the largest err/bound ratio (first on ties) */
  double max_ratio;                  /**< max of err/bound (x/0 = inf, 0/0 = 0); <= 1 for passing elements */
  double mean_ulp, max_ulp, p99_ulp; /**< |cmp_ulp_error| over judged elements with a finite
                                          error (gsl_rstat; p99 is the P^2 estimate) */
  double mean_err;                   /**< DOT_PRODUCT: mean of TOSA's err_i = (got-P)/max(B 2^-p, min_normal) */
  double mean_sq_err;                /**< DOT_PRODUCT: mean of err_i^2 (the variance test's statistic) */
  char reason[256];                  /**< one line when !pass: what failed and where; "" otherwise */
} cmp_result;

/**
 * Judge @p got against @p ref under @p mode.
 * @param[in] mode     compliance mode
 * @param[in] fmt      element format of float tensors, whose npy elements are the format's
 *                     bit patterns (kind 'f' or 'u', 1/2/4/8 bytes; tf32 sits in the top 19
 *                     bits of 4); CMP_FMT_NONE for integer tensors. Kind 'i'/'b' arrays are
 *                     integers whatever @p fmt is. Integers always compare exactly.
 * @param[in] got      the backend's tensor
 * @param[in] ref      ttref's golden: same kind, element size and shape as @p got
 * @param[in] precise  numel binary64 values computed without intermediate rounding, or NULL.
 *                     ULP/ABS/REL judge against it when given (else against @p ref);
 *                     DOT_PRODUCT and REDUCE require it
 * @param[in] bound    numel magnitude bounds B >= 0 (sum |terms|, TOSA bounds run), or NULL;
 *                     required by DOT_PRODUCT and REDUCE, unused by the other modes
 * @param[in] ftz_ref  the reference computed with subnormals flushed (same dtype/shape), or
 *                     NULL; used only when o->allow_ftz
 * @param[in] o        options, or NULL for cmp_options_default(mode)
 * @param[out] out     the result (overwritten)
 * @param[out] err     detail on failure (may be NULL)
 * @return TTREF_OK whether or not the tensor complies (see out->pass);
 *         TTREF_E_USAGE: NULL got/ref/out, mode out of range, DOT_PRODUCT/REDUCE without
 *         precise or bound, k < 1, negative or NaN tolerances;
 *         TTREF_E_INPUT: shape or dtype mismatch, element size not the format's, float data
 *         without a format, missing data, a negative bound element.
 *         Nothing is allocated (the gsl_rstat workspaces live on the stack).
 */
ttref_status cmp_check(cmp_mode mode, fp_format fmt, const npy_array *got, const npy_array *ref, const double *precise,
                       const double *bound, const npy_array *ftz_ref, const cmp_options *o, cmp_result *out,
                       ttref_error *err);

/**
 * Signed, fractional error of @p got against the reference value @p ref in ulps of @p fmt
 * (OpenCL's Ulp_Error generalised to every format): (got - ref) / ulp, where ulp =
 * 2^(max(e, emin) - p + 1), e = ilogb(ref) (emin for ref = 0), except that when ref is an
 * exact power of two above min normal and got lies on its zero side, ulp is the binade
 * below's 2^(e - p). So one representable step is one ulp on both sides of 2^e.
 * An infinite @p got against a finite @p ref counts as +-2^(emax+1). Special cases: both
 * NaN: 0; one NaN: NaN; ref infinite: 0 when got == ref, else got - ref (+-inf).
 * @p ref need not be a value of @p fmt (a binary64 precise value). Invalid fmt: NaN.
 */
double cmp_ulp_error(fp_format fmt, double got, double ref);

#endif /* CMP_H */
