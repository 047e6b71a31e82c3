/*
 * test_base.c: unit tests for the strict number parsers of ir/ir_base
 * (ir_parse_int, ir_parse_real): the full int64 range, every malformed or
 * out-of-range spelling refused with "error: WHAT: ...", *out untouched.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "ir_base.h"

static void test_parse_int_accepts_the_int64_range(void **state)
{
  (void)state;
  static const struct {
    const char *s;
    int64_t v;
  } good[] = {
      {"0", 0}, {"-0", 0}, {"+7", 7}, {"256", 256}, {"007", 7},
      {"9223372036854775807", INT64_MAX}, {"-9223372036854775808", INT64_MIN},
  };
  for (size_t k = 0; k < sizeof good / sizeof good[0]; k++) {
    int64_t v = 42;
    ttref_error e;
    memset(&e, 0, sizeof e);
    assert_int_equal(ir_parse_int("--n", good[k].s, INT64_MIN, INT64_MAX, &v, &e), TTREF_OK);
    assert_true(v == good[k].v);
  }
}

static void test_parse_int_refuses_malformed_and_out_of_range(void **state)
{
  (void)state;
  static const char *const bad[] = {
      "", "2abc", " 2", "2 ", "0x10", "1e3", "2.0", "inf", "nan", "-", "+", "--1", "1-",
      "9223372036854775808", "-9223372036854775809", "99999999999999999999", "257", "0", "-1",
  };
  for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
    int64_t v = 42;
    ttref_error e;
    memset(&e, 0, sizeof e);
    if (ir_parse_int("--threads", bad[k], 1, 256, &v, &e) != TTREF_E_USAGE) fail_msg("'%s' accepted", bad[k]);
    assert_int_equal(v, 42);
    assert_true(strncmp(e.msg, "error: --threads: ", 18) == 0);
  }
  int64_t v;
  assert_int_equal(ir_parse_int("--x", NULL, 0, 1, &v, NULL), TTREF_E_USAGE); /* NULL string, NULL err */
}

static void test_parse_real_finite_decimals_only(void **state)
{
  (void)state;
  static const struct {
    const char *s;
    double v;
  } good[] = {{"60", 60}, {"0.5", 0.5}, {".5", 0.5}, {"5.", 5}, {"1e3", 1000}, {"2.5E-1", 0.25}, {"+3", 3}};
  for (size_t k = 0; k < sizeof good / sizeof good[0]; k++) {
    double v = -1;
    assert_int_equal(ir_parse_real("--timeout", good[k].s, 0.001, 86400, &v, NULL), TTREF_OK);
    assert_true(v == good[k].v);
  }
  static const char *const bad[] = {
      "", "inf", "-inf", "nan", "infinity", "1e400", "1e-400", "0x10", "0x1p3", "1s", " 1", "1 ", ".", "e3",
      "1e", "1e+", "-1", "0", "86401", "1..2",
  };
  for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
    double v = -1;
    ttref_error e;
    memset(&e, 0, sizeof e);
    if (ir_parse_real("--timeout", bad[k], 0.001, 86400, &v, &e) != TTREF_E_USAGE) fail_msg("'%s' accepted", bad[k]);
    assert_true(v == -1);
    assert_true(strncmp(e.msg, "error: --timeout: ", 18) == 0);
  }
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_parse_int_accepts_the_int64_range),
      cmocka_unit_test(test_parse_int_refuses_malformed_and_out_of_range),
      cmocka_unit_test(test_parse_real_finite_decimals_only),
  };
  return cmocka_run_group_tests_name("base", tests, NULL, NULL);
}
