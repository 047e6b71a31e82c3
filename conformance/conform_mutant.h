/*
 * conform_mutant.h: built-in mutant backends (conform_mutant_list.h) for the
 * mutation score of a suite (`ttref conform SUITE --mutants`): each rewrites
 * the parsed kernel IR or the run options of the reference, like a backend
 * bug, and the score says how many of them the suite catches.
 * Ownership: conform_mutant_apply rewrites the module it is given in place
 * (new ops and attributes live in its arena); other arguments are borrowed.
 */
#ifndef CONFORM_MUTANT_H
#define CONFORM_MUTANT_H

#include <stdbool.h>
#include <stdio.h>
#include "conform_journal.h"
#include "conform_suite.h"
#include "ir.h"

typedef enum conform_mutant_id {
#define X(name, str, ops, desc) CONFORM_MUT_##name,
#include "conform_mutant_list.h"
#undef X
  CONFORM_MUTANT_COUNT
} conform_mutant_id;

const char *conform_mutant_name(int k);    /**< "<invalid>" when out of range */
const char *conform_mutant_targets(int k); /**< the op(s) it targets, "" when out of range */
const char *conform_mutant_desc(int k);    /**< one line, "" when out of range */
bool conform_mutant_lookup(const char *name, int *out);
/** Print every mutant with its targets and description. */
void conform_mutant_list(FILE *f);

/** Run options a mutant sets (the reference's `ttref run` flags). */
typedef struct conform_mutant_opts {
  bool ftz;
  bool contract;
} conform_mutant_opts;

/**
 * Mutant @p k on module @p m: with @p apply, rewrite every site in place;
 * without, only count them. *out_sites receives the number of ops the
 * mutant rewrites (run-option mutants: the ops it can affect), so 0 means
 * the kernel cannot show the mutant. @p opts receives its run options.
 * @return TTREF_OK, TTREF_E_NOMEM, or TTREF_E_USAGE for a bad @p k.
 */
ttref_status conform_mutant_apply(ir_module *m, int k, bool apply, conform_mutant_opts *opts, int *out_sites,
                                  ttref_error *err);

/**
 * Parse @p list ("" or "all": every mutant; else comma-separated names) into
 * @p ids (room for CONFORM_MUTANT_COUNT entries, duplicates dropped).
 * @return TTREF_OK or TTREF_E_USAGE naming the unknown mutant.
 */
ttref_status conform_mutant_parse_list(const char *list, int *ids, int *out_n, ttref_error *err);

/* Per item and mutant, one character of conform_record.mutants (in the run's mutant order). */
enum {
  CONFORM_MUT_NOT_APPLIED = '-', /* the kernel has no site of the mutant */
  CONFORM_MUT_SAME = '=',        /* rewritten, outputs bit-identical to the reference */
  CONFORM_MUT_CHANGED = 'c',     /* outputs differ, the judge passed them (survived here) */
  CONFORM_MUT_CAUGHT = 'K',      /* outputs differ (or the run failed) and the verdict is not PASS */
};

/**
 * Aggregate the mutant results of @p recs (runs over @p ids, @p nids) into
 * DIR/mutants.json and DIR/mutants.md, print a summary line to @p out and
 * store the mutation score (killed / mutants; 1 when there are none) in
 * *out_score. Items tagged `mutant:NAME` target mutant NAME.
 */
ttref_status conform_mutant_report(const char *dir, const char *suite, const int *ids, int nids,
                                   const conform_record_list *recs, FILE *out, double *out_score, ttref_error *err);

#endif
