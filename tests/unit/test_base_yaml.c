/*
 * test_base_yaml.c: unit tests of the base layer's YAML reader
 * (ir/ir_base_yaml): located syntax errors and second documents in both
 * wordings, FIFOs refused without a hang, mapping keys checked against a key
 * table (unknown, not allowed, duplicate, also in large maps), the typed
 * scalar getters; and the engine's launch-file reader on top of it
 * (interp_launch_file_read), whose errors keep FILE:LINE:COL. One cmocka group.
 */
#define _GNU_SOURCE /* mkdtemp under -std=c11 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "interp_launch.h"
#include "ir_base.h"
#include "ir_base_fs.h"
#include "ir_base_yaml.h"
#include "unit_fixture.h"

static int setup(void **state)
{
  (void)state;
  return unit_tmpdir_new("test_base_yaml") ? 0 : -1;
}

static int teardown(void **state)
{
  (void)state;
  return unit_tmpdir_remove() == 0 ? 0 : -1;
}

/* err.msg starts with "FILE:WHERE: error: " and contains @p what. */
static void expect_at(const ttref_error *err, const char *file, const char *where, const char *what)
{
  char want[700];
  snprintf(want, sizeof want, "%s:%s: error: ", file, where);
  if (strncmp(err->msg, want, strlen(want)) != 0 || !strstr(err->msg, what))
    fail_msg("got '%s', want prefix '%s' and '%s'", err->msg, want, what);
}

static void test_yaml_syntax_errors_located_in_both_wordings(void **state)
{
  (void)state;
  ir_yaml y;
  ttref_error err = {0};
  const char *f = unit_put("bad.yaml", "a: 1\nb: [1, 2\n");
  assert_int_equal(ir_yaml_load(&y, f, NULL, NULL, &err), TTREF_E_INPUT);
  expect_at(&err, f, "3:1", "yaml: did not find expected ',' or ']'");
  ir_yaml_free(&y);
  assert_int_equal(ir_yaml_load(&y, f, "launch file", NULL, &err), TTREF_E_INPUT);
  expect_at(&err, f, "3:1", "bad YAML: did not find expected ',' or ']'");
  ir_yaml_free(&y);
  ir_yaml_free(&y); /* idempotent */
}

static void test_yaml_second_document_located(void **state)
{
  (void)state;
  ir_yaml y;
  ttref_error err = {0};
  const char *f = unit_put("two.yaml", "a: 1\n---\nb: 2\n");
  assert_int_equal(ir_yaml_load(&y, f, NULL, NULL, &err), TTREF_E_INPUT);
  expect_at(&err, f, "2:1", "a YAML file here holds one document; a second one starts here");
  ir_yaml_free(&y);
  assert_int_equal(ir_yaml_load(&y, f, "launch file", NULL, &err), TTREF_E_INPUT);
  expect_at(&err, f, "2:1", "a launch file holds one YAML document; a second one starts here");
  ir_yaml_free(&y);
  /* one document and an empty file both load */
  f = unit_put("one.yaml", "---\na: 1\n...\n");
  assert_int_equal(ir_yaml_load(&y, f, NULL, NULL, &err), TTREF_OK);
  assert_true(ir_yaml_is_map(ir_yaml_root(&y)));
  ir_yaml_free(&y);
  f = unit_put("empty.yaml", "");
  assert_int_equal(ir_yaml_load(&y, f, NULL, NULL, &err), TTREF_OK);
  assert_null(ir_yaml_root(&y));
  ir_yaml_free(&y);
}

static void test_yaml_fifo_and_missing_file_refused(void **state)
{
  (void)state;
  ir_yaml y;
  ttref_error err = {0};
  char fifo[600];
  snprintf(fifo, sizeof fifo, "%s/fifo.yaml", unit_tmpdir());
  assert_int_equal(mkfifo(fifo, 0600), 0);
  assert_int_equal(ir_yaml_load(&y, fifo, NULL, NULL, &err), TTREF_E_IO); /* at once: no writer is waited for */
  assert_non_null(strstr(err.msg, "fifo.yaml': not a regular file (a FIFO)"));
  ir_yaml_free(&y);
  unlink(fifo);
  snprintf(fifo, sizeof fifo, "%s/none.yaml", unit_tmpdir());
  assert_int_equal(ir_yaml_load(&y, fifo, NULL, NULL, &err), TTREF_E_IO);
  assert_non_null(strstr(err.msg, "none.yaml"));
  ir_yaml_free(&y);
}

static const char *const keys[] = {"alpha", "beta", "gamma"};

static void test_yaml_map_checks_keys_against_the_table(void **state)
{
  (void)state;
  ir_yaml y;
  ttref_error err = {0};
  ir_arena *a = ir_arena_new();
  ir_yaml_pair *pr;
  int n;
  assert_non_null(a);
  const char *f = unit_put("keys.yaml", "alpha: 1\ngamma: x\nfree: {z: 1, y: 2}\n");
  assert_int_equal(ir_yaml_load(&y, f, NULL, a, &err), TTREF_OK);
  y.keys = keys;
  y.nkeys = 3;
  /* "free" is not in the table */
  assert_int_equal(ir_yaml_map(&y, ir_yaml_root(&y), "a test map", 7, &pr, &n), TTREF_E_INPUT);
  expect_at(&err, f, "3:1", "unknown key 'free' in a test map");
  /* free-form: every key, in document order, key -1 */
  assert_int_equal(ir_yaml_map(&y, ir_yaml_root(&y), "a test map", 0, &pr, &n), TTREF_OK);
  assert_int_equal(n, 3);
  assert_string_equal(pr[0].name, "alpha");
  assert_int_equal(pr[0].key, -1);
  assert_string_equal(pr[2].name, "free");
  ir_yaml_pair *inner;
  int ni;
  assert_int_equal(ir_yaml_map(&y, pr[2].value, "free", 0, &inner, &ni), TTREF_OK);
  assert_int_equal(ni, 2);
  assert_string_equal(inner[1].name, "y");
  /* a mapping getter on a scalar names what it found */
  assert_int_equal(ir_yaml_map(&y, pr[0].value, "alpha", 0, &inner, &ni), TTREF_E_INPUT);
  expect_at(&err, f, "1:8", "alpha must be a mapping, not a scalar");
  ir_yaml_free(&y);
  f = unit_put("keys2.yaml", "alpha: 1\ngamma: x\n");
  assert_int_equal(ir_yaml_load(&y, f, NULL, a, &err), TTREF_OK);
  y.keys = keys;
  y.nkeys = 3;
  assert_int_equal(ir_yaml_map(&y, ir_yaml_root(&y), "a test map", 3, &pr, &n), TTREF_E_INPUT);
  expect_at(&err, f, "2:1", "key 'gamma' is not allowed in a test map");
  assert_int_equal(ir_yaml_map(&y, ir_yaml_root(&y), "a test map", 5, &pr, &n), TTREF_OK);
  assert_int_equal(n, 2);
  assert_int_equal(pr[0].key, 0);
  assert_int_equal(pr[1].key, 2);
  ir_yaml_free(&y);
  ir_arena_free(a);
}

static void test_yaml_map_finds_duplicates_small_and_large(void **state)
{
  (void)state;
  ir_yaml y;
  ttref_error err = {0};
  ir_arena *a = ir_arena_new();
  ir_yaml_pair *pr;
  int n;
  assert_non_null(a);
  const char *f = unit_put("dup.yaml", "alpha: 1\nbeta: 2\nalpha: 3\n");
  assert_int_equal(ir_yaml_load(&y, f, NULL, a, &err), TTREF_OK);
  assert_int_equal(ir_yaml_map(&y, ir_yaml_root(&y), "m", 0, &pr, &n), TTREF_E_INPUT);
  expect_at(&err, f, "3:1", "duplicate key 'alpha' in m");
  ir_yaml_free(&y);
  /* more than 32 keys take the sorted path: the first repeat in document order is named */
  char text[4096];
  size_t pos = 0;
  for (int k = 0; k < 40; k++) pos += (size_t)snprintf(text + pos, sizeof text - pos, "k%d: %d\n", k, k);
  pos += (size_t)snprintf(text + pos, sizeof text - pos, "k7: again\nk3: again\n");
  f = unit_put("dup40.yaml", text);
  assert_int_equal(ir_yaml_load(&y, f, NULL, a, &err), TTREF_OK);
  assert_int_equal(ir_yaml_map(&y, ir_yaml_root(&y), "m", 0, &pr, &n), TTREF_E_INPUT);
  expect_at(&err, f, "41:1", "duplicate key 'k7' in m");
  ir_yaml_free(&y);
  ir_arena_free(a);
}

static void test_yaml_scalar_getters(void **state)
{
  (void)state;
  ir_yaml y;
  ttref_error err = {0};
  ir_arena *a = ir_arena_new();
  yaml_node_t **it;
  int n;
  int64_t i;
  double d;
  bool b;
  const char *s;
  assert_non_null(a);
  const char *f = unit_put("scalars.yaml", "[0x1f, -7, 300, 2.5e-1, -inf, .nan, true, nope, \"a\\0b\", [1]]\n");
  assert_int_equal(ir_yaml_load(&y, f, NULL, a, &err), TTREF_OK);
  assert_int_equal(ir_yaml_seq(&y, ir_yaml_root(&y), "list", &it, &n), TTREF_OK);
  assert_int_equal(n, 10);
  assert_int_equal(ir_yaml_int(&y, it[0], "i", 0, 100, &i), TTREF_OK);
  assert_int_equal(i, 31);
  assert_int_equal(ir_yaml_int(&y, it[1], "i", -10, 10, &i), TTREF_OK);
  assert_int_equal(i, -7);
  assert_int_equal(ir_yaml_int(&y, it[2], "i", 0, 255, &i), TTREF_E_INPUT);
  expect_at(&err, f, "1:12", "i must be in [0, 255], not 300");
  assert_int_equal(ir_yaml_int(&y, it[3], "i", 0, 255, &i), TTREF_E_INPUT);
  expect_at(&err, f, "1:17", "i must be an integer, not '2.5e-1'");
  assert_int_equal(ir_yaml_num(&y, it[3], "x", &d), TTREF_OK);
  assert_true(d == 0.25);
  assert_int_equal(ir_yaml_num(&y, it[4], "x", &d), TTREF_OK);
  assert_true(isinf(d) && d < 0);
  assert_int_equal(ir_yaml_num(&y, it[5], "x", &d), TTREF_OK);
  assert_true(isnan(d));
  assert_int_equal(ir_yaml_bool(&y, it[6], "b", &b), TTREF_OK);
  assert_true(b);
  assert_int_equal(ir_yaml_bool(&y, it[7], "b", &b), TTREF_E_INPUT);
  expect_at(&err, f, "1:43", "b must be true or false, not 'nope'");
  assert_int_equal(ir_yaml_str(&y, it[8], "s", &s), TTREF_E_INPUT);
  expect_at(&err, f, "1:49", "s contains a NUL byte");
  assert_int_equal(ir_yaml_str(&y, it[9], "s", &s), TTREF_E_INPUT);
  expect_at(&err, f, "1:57", "s must be a scalar, not a list");
  assert_true(ir_yaml_is_seq(it[9]) && !ir_yaml_is_scalar(it[9]) && !ir_yaml_is_map(it[9]));
  ir_yaml_free(&y);
  ir_arena_free(a);
}

/* ---- the engine's launch files, read through ir_yaml ---------------------------------- */

static void expect_launch_error(const char *name, const char *text, ttref_status code, const char *where,
                                const char *what)
{
  interp_launch_file lf;
  ttref_error err = {0};
  const char *f = unit_put(name, text);
  assert_int_equal(interp_launch_file_read(f, &lf, &err), code);
  assert_null(lf.kernel); /* freed on failure */
  assert_null(lf.specs);
  if (where) expect_at(&err, f, where, what);
  else if (!strstr(err.msg, what)) fail_msg("got '%s', want '%s'", err.msg, what);
}

static void test_launch_file_errors_keep_file_line_col(void **state)
{
  (void)state;
  expect_launch_error("l1.yaml", "kernel: k.ttir\ngrid: [1, 2\n", TTREF_E_INPUT, "3:1", "bad YAML: ");
  expect_launch_error("l2.yaml", "kernel: k.ttir\ngrid: 4\n---\ngrid: 5\n", TTREF_E_INPUT, "3:1",
                      "a launch file holds one YAML document; a second one starts here");
  expect_launch_error("l3.yaml", "kernel: k.ttir\ncolour: red\n", TTREF_E_INPUT, "2:1",
                      "unknown key in launch file: colour");
  expect_launch_error("l4.yaml", "kernel: k.ttir\ngrid: 1\ngrid: 2\n", TTREF_E_INPUT, "3:1", "duplicate key: grid");
  expect_launch_error("l5.yaml", "kernel: k.ttir\nargs: {x: 1, x: 2}\n", TTREF_E_INPUT, "2:14",
                      "duplicate argument: x");
  expect_launch_error("l6.yaml", "kernel: k.ttir\nthreads: 0\n", TTREF_E_INPUT, "2:10",
                      "threads must be an integer in [1, 256]");
  expect_launch_error("l7.yaml", "- 1\n", TTREF_E_INPUT, "1:1", "a launch file is a mapping");
  expect_launch_error("l8.yaml", "grid: 1\n", TTREF_E_INPUT, "1:1", "launch file has no 'kernel'");
  char fifo[600];
  snprintf(fifo, sizeof fifo, "%s/l9.yaml", unit_tmpdir());
  assert_int_equal(mkfifo(fifo, 0600), 0);
  interp_launch_file lf;
  ttref_error err = {0};
  assert_int_equal(interp_launch_file_read(fifo, &lf, &err), TTREF_E_IO); /* never a hang */
  assert_non_null(strstr(err.msg, "not a regular file (a FIFO)"));
  unlink(fifo);
}

static void test_launch_file_resolves_paths_beside_it(void **state)
{
  (void)state;
  interp_launch_file lf;
  ttref_error err = {0};
  char want[700];
  const char *f = unit_put("good.yaml", "kernel: sub/k.ttir\ngrid: [2, 3]\nargs: {x_ptr: \"@x.npy\", n: 8}\nout: o\n"
                                        "threads: 2\nftz: true\n");
  assert_int_equal(interp_launch_file_read(f, &lf, &err), TTREF_OK);
  snprintf(want, sizeof want, "%s/sub/k.ttir", unit_tmpdir());
  assert_string_equal(lf.kernel, want);
  assert_true(lf.has_grid && lf.grid[0] == 2 && lf.grid[1] == 3 && lf.grid[2] == 1);
  assert_int_equal(lf.nspecs, 2);
  snprintf(want, sizeof want, "x_ptr=@%s/x.npy", unit_tmpdir());
  assert_string_equal(lf.specs[0], want);
  assert_string_equal(lf.specs[1], "n=8");
  snprintf(want, sizeof want, "%s/o", unit_tmpdir());
  assert_string_equal(lf.out, want);
  assert_int_equal(lf.threads, 2);
  assert_int_equal(lf.ftz, 1);
  assert_int_equal(lf.contract, -1);
  interp_launch_file_free(&lf);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_yaml_syntax_errors_located_in_both_wordings),
      cmocka_unit_test(test_yaml_second_document_located),
      cmocka_unit_test(test_yaml_fifo_and_missing_file_refused),
      cmocka_unit_test(test_yaml_map_checks_keys_against_the_table),
      cmocka_unit_test(test_yaml_map_finds_duplicates_small_and_large),
      cmocka_unit_test(test_yaml_scalar_getters),
      cmocka_unit_test(test_launch_file_errors_keep_file_line_col),
      cmocka_unit_test(test_launch_file_resolves_paths_beside_it),
  };
  return cmocka_run_group_tests_name("base_yaml", tests, setup, teardown);
}
