/*
 * conform_verdict.h: the verdicts of conform_verdict_list.h and how a raw
 * outcome plus the backend config's expectation becomes the final verdict
 * (strict xfail: an expected failure that passes is XPASS and fails the run).
 * Ownership: nothing is allocated; names are static strings.
 */
#ifndef CONFORM_VERDICT_H
#define CONFORM_VERDICT_H

#include <stdbool.h>

/** Every verdict of conform_verdict_list.h, plus CONFORM_VERDICT_COUNT. */
typedef enum conform_verdict {
#define X(name, str, unexpected) CONFORM_V_##name,
#include "conform_verdict_list.h"
#undef X
  CONFORM_VERDICT_COUNT
} conform_verdict;

/** @return the spelling ("PASS"), "<invalid>" when out of range. */
const char *conform_verdict_name(conform_verdict v);
/** @return the verdict spelled @p s in *out (true), or false. */
bool conform_verdict_lookup(const char *s, conform_verdict *out);
/** Whether @p v makes the run exit 1 (FAIL, XPASS, ERROR, CRASH, TIMEOUT). */
bool conform_verdict_unexpected(conform_verdict v);
/** Whether @p v counts as a pass in pass rates (PASS, QUALITY_WARNING, XFAIL counts only "with xfails"). */
bool conform_verdict_passed(conform_verdict v);

/**
 * The final verdict of a raw outcome @p raw (PASS, QUALITY_WARNING, FAIL,
 * UNSUPPORTED, SKIP, ERROR, CRASH or TIMEOUT). With @p expected_fail, a
 * passing outcome becomes XPASS and a failing one XFAIL, unless
 * @p expected_verdict (a raw verdict, or -1 for any failure) names a
 * different failure, in which case @p raw stands. UNSUPPORTED and SKIP are
 * never changed.
 */
conform_verdict conform_verdict_decide(conform_verdict raw, bool expected_fail, int expected_verdict);

#endif
