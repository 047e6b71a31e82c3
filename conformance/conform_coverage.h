/*
 * conform_coverage.h: the coverage matrix of conformance suites (`ttref
 * coverage SUITE...`, `make coverage-matrix`): every op of ir_op_list.h x the
 * dtype it runs on x the attribute values that change its results, with the
 * items (case[variant]) whose kernels contain it, and the cells and ops no
 * item covers.
 * Ownership: nothing is retained; every argument is borrowed.
 */
#ifndef CONFORM_COVERAGE_H
#define CONFORM_COVERAGE_H

#include <stdio.h>
#include "ir_base.h"

/**
 * Load the suites @p suites (@p nsuites directories or case files), walk
 * every op of every item's kernel and write the matrix as Markdown to @p out.
 * @p allow (may be NULL) is an allow-list file: one op mnemonic per line,
 * then a reason (`#` comments and blank lines ignored), for executable ops
 * no item covers yet. *out_missing receives the number of executable ops
 * with no item that the allow-list does not name, plus allow-list entries
 * that are stale (the op is covered) or not ops; each is printed to @p diag.
 * @return TTREF_OK, or an error for a bad suite, kernel or allow-list.
 */
ttref_status conform_coverage(const char *const *suites, int nsuites, const char *allow, FILE *out, FILE *diag,
                              int *out_missing, ttref_error *err);

#endif
