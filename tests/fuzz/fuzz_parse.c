/*
 * fuzz_parse.c: libFuzzer target for the TTIR front end. Parses the input;
 * on success verifies and prints it, re-parses the printed text and aborts
 * unless that parses and prints to the same bytes. Built by scripts/fuzz.sh.
 */
#include "config.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir_parse.h"
#include "ir_print.h"
#include "ir_verify.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* print m into a malloc'd buffer; NULL if the printer refused */
static char *print_str(const ir_module *m, size_t *len, ttref_error *e)
{
  char *buf = NULL;
  size_t n = 0;
  FILE *f = open_memstream(&buf, &n);
  if (!f) abort();
  ttref_status st = ir_print_module(m, f, e);
  if (fclose(f) != 0) abort();
  if (st != TTREF_OK) {
    free(buf);
    return NULL;
  }
  *len = n;
  return buf;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  ir_module *m1 = NULL, *m2 = NULL;
  ttref_error e = {0};
  if (ir_parse_string("fuzz.ttir", (const char *)data, size, &m1, &e) != TTREF_OK) {
    if (m1 || !e.msg[0]) abort(); /* failure must leave no module and say why */
    return 0;
  }
  ttref_error ve = {0};
  ttref_status vst = ir_verify_module(m1, &ve);
  if (vst != TTREF_OK && (vst != TTREF_E_VERIFY || !ve.msg[0])) abort(); /* only located verifier errors */
  size_t l1 = 0, l2 = 0;
  char *p1 = print_str(m1, &l1, &e);
  if (!p1) {
    /* the printer may refuse IR that does not fit an op's syntax (ir_print.h),
     * which the verifier must then have rejected */
    if (vst == TTREF_OK || e.code != TTREF_E_INTERNAL) {
      fprintf(stderr, "print failed: %s\n", e.msg);
      abort();
    }
    ir_module_free(m1);
    return 0;
  }
  /* Ill-typed IR (rejected by the verifier) may print in a custom syntax
   * that does not re-parse (e.g. arith.select with an i32 condition prints
   * no condition type): there the round trip need only not crash, and when
   * it does re-parse, print the same bytes. Verified IR must round trip. */
  bool strict = vst == TTREF_OK;
  memset(&e, 0, sizeof e);
  if (ir_parse_string("printed.ttir", p1, l1, &m2, &e) != TTREF_OK) {
    if (strict) {
      fprintf(stderr, "printed text does not parse: %s\n%s\n--- printed ---\n%.*s\n", e.msg, e.note, (int)l1, p1);
      abort();
    }
    free(p1);
    ir_module_free(m1);
    return 0;
  }
  char *p2 = print_str(m2, &l2, &e);
  if (!p2) {
    fprintf(stderr, "reprint failed: %s\n", e.msg);
    abort();
  }
  if (l1 != l2 || memcmp(p1, p2, l1) != 0) {
    fprintf(stderr, "fmt(parse(fmt(x))) != fmt(x)\n--- first ---\n%.*s\n--- second ---\n%.*s\n", (int)l1, p1, (int)l2,
            p2);
    abort();
  }
  /* verification must not depend on the round trip */
  ttref_error ve2 = {0};
  if (strict && ir_verify_module(m2, &ve2) != TTREF_OK) {
    fprintf(stderr, "verify fails after round trip: %s\n", ve2.msg);
    abort();
  }
  free(p1);
  free(p2);
  ir_module_free(m1);
  ir_module_free(m2);
  return 0;
}
