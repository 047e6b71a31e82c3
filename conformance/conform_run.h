/*
 * conform_run.h: `ttref conform`: runs a suite's case x specialization items
 * on a backend in parallel worker processes, judges every output against the
 * reference, journals each verdict as it completes (resumable after SIGKILL)
 * and writes the reports.
 * Ownership: options are borrowed; nothing is retained after conform_run.
 */
#ifndef CONFORM_RUN_H
#define CONFORM_RUN_H

#include <stdbool.h>
#include "conform_config.h"
#include "conform_journal.h"
#include "conform_suite.h"

typedef struct conform_run_opts {
  const char *suite;          /* suite directory or case file */
  const char *backend;        /* conform_backend_open spec */
  const char *config;         /* backend config YAML, or NULL */
  const char *report_dir;     /* where journal and reports go */
  const char *golden_dir;     /* stored goldens (`ttref golden --out`), or NULL: run the reference */
  const char *filter;         /* POSIX extended regex over "case[variant]", or NULL */
  int jobs;                   /* parallel workers (>= 1) */
  int shard_i, shard_n;       /* run items with index % shard_n == shard_i */
  bool resume;                /* keep the journal and run only what it lacks */
  bool force;                 /* without resume: replace a journal already in the report directory */
  bool keep_work;             /* keep case directories of passing items too */
  int progress;               /* 1 bar, 0 plain lines, -1 auto (bar on a terminal) */
  double timeout;             /* seconds per backend run (default 60) */
  bool localize;              /* find the first divergent op of each FAIL (conform_localize.h) */
  const char *mutants;        /* --mutants: NULL off; "" or "all" every mutant; else a comma list (conform_mutant.h) */
  double *out_mutation_score; /* with mutants: receives killed / mutants (may be NULL) */
  bool allow_outside_suite;   /* let the suite read files outside its directory (CONFORM_SUITE_ALLOW_OUTSIDE) */
} conform_run_opts;

/**
 * Run. @p out_unexpected receives the number of unexpected verdicts (the
 * command exits 0 iff it is 0). @return TTREF_OK, or an error for bad input
 * (suite, config, backend, options) or I/O.
 */
ttref_status conform_run(const conform_run_opts *o, int *out_unexpected, ttref_error *err);

/** The fields of @p r that describe the item itself (id, case, op, tags, ...). */
void conform_run_describe(const conform_case *c, const conform_spec *s, conform_record *r);

#endif
