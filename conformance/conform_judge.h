/*
 * conform_judge.h: the harness side of the compliance-mode library
 * (conform/cmp.h): validates mode and option names for the suite reader, and
 * judges one output buffer against its golden (with precise values and
 * bounds where the mode needs them), adding an ULP-distance histogram.
 * Ownership: nothing is retained; every argument is borrowed.
 */
#ifndef CONFORM_JUDGE_H
#define CONFORM_JUDGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "conform_gen.h"
#include "conform_suite.h"
#include "npy_io.h"

#define CONFORM_HIST_BINS 6 /* ULP distance 0, 1, 2, 3, >= 4, NaN/kind mismatch */

/** What judging one output found. */
typedef struct conform_judgement {
  bool pass;
  bool quality_warning;
  int64_t worst_index; /* -1: none */
  double worst_got, worst_ref, worst_bound, worst_err;
  double max_ratio; /* worst error / allowed error */
  double mean_ulp, max_ulp;
  double p99_ulp; /* 99th percentile of the bit-pattern ULP distance (GSL rstat) */
  int64_t hist[CONFORM_HIST_BINS];
  char reason[256];
} conform_judgement;

/** Whether @p opt = @p text is a valid option of @p mode; else a reason in @p why. */
bool conform_judge_option_ok(cmp_mode mode, const char *opt, const char *text, char *why, size_t n);
/** Whether @p mode needs the precise/bound tensors of `ttref run --precise`. */
bool conform_judge_needs_bound(cmp_mode mode);

/** Whether some output of @p c needs the precise reference run (bounds, or option precise). */
bool conform_judge_case_wants_precise(const conform_case *c);

/**
 * Read the precise-mode companions of reference output @p name from @p refdir
 * (NAME.precise.npy, NAME.bound.npy) into @p pre and @p bnd; one that is
 * absent or unreadable stays empty (data NULL), and modes that need it then
 * report the missing bound themselves.
 */
void conform_judge_read_precise(const char *refdir, const char *name, npy_array *pre, npy_array *bnd);

/**
 * Judge @p got against @p ref (same dtype and shape required: a mismatch is a
 * failing judgement, not an error). @p precise and @p bound (f64, may be
 * NULL) come from the precise reference run; @p ftz allows flushed
 * subnormals.
 * @return TTREF_OK (see j->pass), or an error for a harness problem
 * (unknown mode or option: TTREF_E_INPUT).
 */
ttref_status conform_judge_output(const conform_output *o, conform_dtype dt, const npy_array *got, const npy_array *ref,
                                  const npy_array *precise, const npy_array *bound, bool ftz, conform_judgement *j,
                                  ttref_error *err);

/**
 * conform_judge_output with @p ftz_ref, the reference run with subnormals
 * flushed (`ttref run --ftz`; same dtype and shape, or NULL): with @p ftz an
 * element equal to it also passes ("the backend flushed its inputs").
 */
ttref_status conform_judge_output_ftz(const conform_output *o, conform_dtype dt, const npy_array *got,
                                      const npy_array *ref, const npy_array *precise, const npy_array *bound, bool ftz,
                                      const npy_array *ftz_ref, conform_judgement *j, ttref_error *err);

#endif
