/*
 * conform_report.h: the reports of a conformance run, written from its
 * records and run.json (environment): results.json, junit.xml, results.tap,
 * report.md and a self-contained report.html; and `report merge` of shards.
 * Ownership: nothing is retained; every argument is borrowed.
 */
#ifndef CONFORM_REPORT_H
#define CONFORM_REPORT_H

#include "conform_journal.h"

/** Write every report for @p recs into @p dir (which holds run.json). */
ttref_status conform_report_write(const char *dir, const conform_record_list *recs, ttref_error *err);

/**
 * Combine the journals of the report directories @p dirs (shards) into
 * @p out: journal.jsonl, run.json and every report. The shards must be the
 * complete set 0..N-1 of one --shard I/N split, each once, of one backend,
 * config, suite and ttref version (run.json), with no item twice; otherwise
 * TTREF_E_INPUT naming the problem, unless @p allow_mixed: then run.json and
 * the reports carry a "mixed" label saying what differs or is missing.
 * @p out_unexpected receives the number of unexpected verdicts.
 */
ttref_status conform_report_merge(const char *const *dirs, int ndirs, const char *out, bool allow_mixed,
                                  int *out_unexpected, ttref_error *err);

#endif
