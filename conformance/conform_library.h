/*
 * conform_library.h: goldens by dispatch key (`ttref golden --library
 * MANIFEST.yaml`): a library manifest declares a dispatch schema (ordered,
 * typed fields), kernels (suite-format case files: kernel per specialization,
 * constexprs, dtypes, input recipes, outputs) and variants (kernel +
 * variant_key + one value per field). Each variant's inputs and reference
 * outputs go to DIR/<kernel>/<variant_key>/{inputs,outputs}/ and DIR/index.json
 * maps every dispatch key to them (docs/golden.md).
 * Ownership: nothing is retained; every argument is borrowed.
 */
#ifndef CONFORM_LIBRARY_H
#define CONFORM_LIBRARY_H

#include "ttref.h"

/**
 * Generate every variant of @p manifest into @p out (created; a variant's
 * directory is replaced, DIR/index.json rewritten). Same manifest, same bits.
 * @return TTREF_OK; TTREF_E_INPUT with FILE:LINE:COL for a bad manifest or
 * case; TTREF_E_FAULT naming the variant when a reference run faults;
 * TTREF_E_IO.
 */
ttref_status conform_library_write(const char *manifest, const char *out, ttref_error *err);

/**
 * Regenerate into a scratch directory and compare with @p dir: every file
 * whose bytes differ, that is missing, and every index entry that changed is
 * printed on stderr ("drift: ..."); @p out_drift receives their count.
 */
ttref_status conform_library_verify(const char *manifest, const char *dir, int *out_drift, ttref_error *err);

#endif
