/*
 * conform_golden.h: `ttref golden`: runs the reference on every case x
 * specialization of a suite and stores the golden tensors (with precise
 * values and bounds where a mode needs them) plus DIR/MANIFEST (sha256 of
 * every golden file and generated input, ttref and semantics versions);
 * --verify regenerates and names every file that drifted.
 * Ownership: nothing is retained; every argument is borrowed.
 */
#ifndef CONFORM_GOLDEN_H
#define CONFORM_GOLDEN_H

#include "ttref.h"

/** Semantics version recorded in MANIFEST (docs/semantics.md). */
#define CONFORM_SEMANTICS_VERSION 1

/**
 * conform_golden_write flag (beside conform_suite_load_flags' bits): keep only
 * DIR/MANIFEST, the sha256 of every golden file, input, kernel and launch
 * (`golden-store hashes`): --verify regenerates and checks every hash; the
 * files themselves are remade by `ttref golden SUITE --out` (the same lines).
 */
#define CONFORM_GOLDEN_HASHES_ONLY (1u << 16)

/**
 * Write the goldens of @p suite (directory or case file) for items whose id
 * matches @p filter (POSIX ERE, NULL: all) into @p out; @p flags as for
 * conform_suite_load_flags. Nothing below @p out is reached through a symbolic link.
 * @return TTREF_OK; TTREF_E_FAULT when a reference run failed (named on
 * stderr); input errors for a bad suite.
 */
ttref_status conform_golden_write(const char *suite, unsigned flags, const char *out, const char *filter,
                                  ttref_error *err);

/**
 * Recompute into a scratch directory and compare with @p dir: every file
 * whose bits differ, that is missing or extra, and every stored file that no
 * longer matches its MANIFEST line is printed on stderr ("drift: FILE ...").
 * @p out_drift receives their count.
 */
ttref_status conform_golden_verify(const char *suite, unsigned flags, const char *dir, const char *filter,
                                   int *out_drift, ttref_error *err);

/**
 * Check a golden directory before `ttref conform --golden` trusts it: its
 * MANIFEST exists, was written for this semantics version, and every file it
 * lists still has its sha256.
 * @return TTREF_OK, or TTREF_E_INPUT naming the first problem (and how many
 * files do not match).
 */
ttref_status conform_golden_check(const char *dir, ttref_error *err);
#endif
