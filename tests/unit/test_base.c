/*
 * test_base.c: unit tests for the strict number parsers of ir/ir_base
 * (ir_parse_int, ir_parse_real): the full int64 range, every malformed or
 * out-of-range spelling refused with "error: WHAT: ...", *out untouched; and
 * the arena, which returns every chunk to the allocator it was made with.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "ir_base.h"

static void test_parse_int_accepts_the_int64_range(void **state)
{
  (void)state;
  static const struct {
    const char *s;
    int64_t v;
  } good[] = {
      {"0", 0},
      {"-0", 0},
      {"+7", 7},
      {"256", 256},
      {"007", 7},
      {"9223372036854775807", INT64_MAX},
      {"-9223372036854775808", INT64_MIN},
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
      "",
      "2abc",
      " 2",
      "2 ",
      "0x10",
      "1e3",
      "2.0",
      "inf",
      "nan",
      "-",
      "+",
      "--1",
      "1-",
      "9223372036854775808",
      "-9223372036854775809",
      "99999999999999999999",
      "257",
      "0",
      "-1",
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
      "",   "inf", "-inf", "nan", "infinity", "1e400", "1e-400", "0x10", "0x1p3", "1s",
      " 1", "1 ",  ".",    "e3",  "1e",       "1e+",   "-1",     "0",    "86401", "1..2",
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

/* a counting allocator: the blocks and bytes outstanding through the hook whose ud it is */
typedef struct counter {
  long blocks;
  long bytes;
} counter;

static void *counting_alloc(void *ud, void *ptr, size_t old_size, size_t new_size)
{
  counter *c = ud;
  if (ptr) {
    c->blocks--;
    c->bytes -= (long)old_size;
  }
  if (new_size == 0) {
    free(ptr);
    return NULL;
  }
  void *p = realloc(ptr, new_size);
  if (p) {
    c->blocks++;
    c->bytes += (long)new_size;
  }
  return p;
}

/* libttref_conform's private copy of the engine grows arenas of kernels libttref made
 * (ttref_kernel_mutate), and the hook may change while an arena lives: its chunks must still
 * come from, and go back to, the allocator that was current when the arena was made. */
static void test_arena_keeps_its_allocator(void **state)
{
  (void)state;
  counter a = {0, 0}, b = {0, 0};
  ttref_set_alloc(counting_alloc, &a);
  ir_arena *ar = ir_arena_new();
  assert_non_null(ar);
  assert_non_null(ir_arena_alloc(ar, 100));
  const long blocks_a = a.blocks;
  assert_true(blocks_a >= 2); /* the arena and its first chunk */
  ttref_set_alloc(counting_alloc, &b);
  for (int i = 0; i < 8; i++) assert_non_null(ir_arena_alloc(ar, 100000)); /* new chunks */
  assert_true(a.blocks > blocks_a);
  assert_int_equal(b.blocks, 0);
  ir_arena_free(ar);
  assert_int_equal(a.blocks, 0);
  assert_int_equal(a.bytes, 0);
  assert_int_equal(b.blocks, 0);
  assert_int_equal(b.bytes, 0);
  ttref_set_alloc(NULL, NULL);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_parse_int_accepts_the_int64_range),
      cmocka_unit_test(test_parse_int_refuses_malformed_and_out_of_range),
      cmocka_unit_test(test_parse_real_finite_decimals_only),
      cmocka_unit_test(test_arena_keeps_its_allocator),
  };
  return cmocka_run_group_tests_name("base", tests, NULL, NULL);
}
