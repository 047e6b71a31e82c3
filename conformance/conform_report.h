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
 * @p out: journal.jsonl, run.json (of the first) and every report.
 * @p out_unexpected receives the number of unexpected verdicts.
 */
ttref_status conform_report_merge(const char *const *dirs, int ndirs, const char *out, int *out_unexpected,
                                  ttref_error *err);

#endif
