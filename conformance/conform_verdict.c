/*
 * conform_verdict.c: verdict names and the strict-xfail decision table.
 */
#include "config.h"
#include "conform_verdict.h"

#include <string.h>

static const struct {
  const char *name;
  int unexpected;
} verdicts[] = {
#define X(name, str, unexpected) {str, unexpected},
#include "conform_verdict_list.h"
#undef X
};

const char *conform_verdict_name(conform_verdict v)
{
  return (int)v >= 0 && v < CONFORM_VERDICT_COUNT ? verdicts[v].name : "<invalid>";
}

bool conform_verdict_lookup(const char *s, conform_verdict *out)
{
  for (int v = 0; v < CONFORM_VERDICT_COUNT; v++)
    if (strcmp(verdicts[v].name, s) == 0) {
      *out = (conform_verdict)v;
      return true;
    }
  return false;
}

bool conform_verdict_unexpected(conform_verdict v)
{
  return (int)v >= 0 && v < CONFORM_VERDICT_COUNT && verdicts[v].unexpected;
}

bool conform_verdict_passed(conform_verdict v) { return v == CONFORM_V_PASS || v == CONFORM_V_QUALITY_WARNING; }

conform_verdict conform_verdict_decide(conform_verdict raw, bool expected_fail, int expected_verdict)
{
  if (!expected_fail || raw == CONFORM_V_UNSUPPORTED || raw == CONFORM_V_SKIP) return raw;
  if (raw == CONFORM_V_PASS || raw == CONFORM_V_QUALITY_WARNING) return CONFORM_V_XPASS;
  if (expected_verdict >= 0 && (int)raw != expected_verdict) return raw; /* a different failure than declared */
  return CONFORM_V_XFAIL;
}
