/*
 * conform_journal.h: one result record per case x specialization, written as
 * one JSON line and fsync'd as soon as the case completes (journal.jsonl in
 * the report directory), and read back for --resume and `report merge`.
 * A torn last line (the harness was killed mid-write) is dropped.
 * Ownership: records are plain caller storage; a record list from
 * conform_journal_read is owned by the caller (conform_journal_list_free).
 */
#ifndef CONFORM_JOURNAL_H
#define CONFORM_JOURNAL_H

#include <stdint.h>
#include <stdio.h>
#include "conform_judge.h"
#include "conform_verdict.h"

typedef struct conform_record {
  char id[256]; /* "case[variant]" */
  char case_name[128];
  char variant[128];
  char op[64];
  char dtype[24]; /* first required dtype ("" if none) */
  char kernel[256];
  char tags[256]; /* comma-separated */
  char constexprs[256];
  conform_verdict verdict;
  conform_verdict raw; /* before the expectation was applied */
  char mode[24];       /* mode of the worst output */
  char output[64];     /* worst output */
  int64_t worst_index; /* flat index, -1: none */
  char worst_at[64];   /* N-d index "[i,j]" */
  double worst_got, worst_ref, worst_bound, worst_err;
  double max_ratio, mean_ulp, max_ulp, p99_ulp;
  double seconds;
  int64_t hist[CONFORM_HIST_BINS];
  char reason[512];
  char expected_reason[256];
  /* --localize (conform_localize.h): "" when not localised */
  char localized_op[48];  /* mnemonic of the first divergent op */
  char localized_at[256]; /* "kernel.ttir:LINE:COL (source.py:L:C)" */
  char localized[1024];   /* the finding in one sentence */
  /* --mutants (conform_mutant.h): one character per mutant of the run; "" otherwise */
  char mutants[96];
} conform_record;

/** A record with every number zero, worst_index -1 and verdict ERROR. */
void conform_record_init(conform_record *r);

/** Write @p r as one JSON object on one line (with the newline) to @p f. */
void conform_record_write_json(FILE *f, const conform_record *r);
/** Parse one JSON line. @return TTREF_OK or TTREF_E_INPUT (malformed). */
ttref_status conform_record_parse_json(const char *line, size_t len, conform_record *r, ttref_error *err);

/** Print @p s as a JSON string literal (quotes and escapes). */
void conform_json_str(FILE *f, const char *s);
/** Print @p v as a JSON number, or null when not finite. */
void conform_json_num(FILE *f, double v);
/** The string value of "key" in a flat JSON text such as run.json ("" when absent; @p json may be NULL). */
void conform_json_get(const char *json, const char *key, char *out, size_t n);

typedef struct conform_record_list {
  conform_record *v;
  int n, cap;
} conform_record_list;

/** Append a copy of @p r. */
ttref_status conform_record_list_add(conform_record_list *l, const conform_record *r, ttref_error *err);
void conform_record_list_free(conform_record_list *l);

/**
 * Read every complete record of the journal at @p path into @p out (appended;
 * a later record with the same id replaces the earlier one). A missing file
 * is an empty journal. With @p repair, a torn last line is cut off the file.
 */
ttref_status conform_journal_read(const char *path, bool repair, conform_record_list *out, ttref_error *err);

/**
 * Append @p r to the journal file @p f (unbuffered use: the record is one
 * write() of the whole line) and fsync it. A write that fails part-way is cut
 * off again, so the journal never holds a torn line. @return TTREF_OK or
 * TTREF_E_IO naming @p path with strerror(errno).
 */
ttref_status conform_journal_append(FILE *f, const conform_record *r, ttref_error *err);

/**
 * Whether @p r records a failure of the harness rather than a verdict on the
 * backend (a dead worker, a failed staging or reference run, an unreadable
 * record): `--resume` runs such items again.
 */
bool conform_record_is_harness_error(const conform_record *r);

#endif
