/*
 * test_debug.c: unit tests of interp_debug: UB reports exclude masked lanes,
 * come in program order for any thread count and fault under --strict;
 * --check-uninit follows select, loops and the origin load; --trap ignores
 * masked lanes; --dump prints every loop iteration; bad specs are usage errors.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "interp.h"
#include "interp_debug.h"
#include "ir_parse.h"
#include "ir_verify.h"
#include "unit_run.h"

typedef unit_buf buf;

typedef void (*setup_fn)(interp_debug *d);

typedef struct result {
  ttref_status st;
  ttref_error err;
  interp_stats stats;
  int64_t ub;      /* interp_debug_finish */
  char out[8192];  /* dumps and traces */
  char warn[8192]; /* UB warnings */
} result;

static void slurp(FILE *f, char *text, size_t n)
{
  rewind(f);
  size_t k = fread(text, 1, n - 1, f);
  text[k] = 0;
  fclose(f);
}

typedef struct debug_run {
  setup_fn setup;
  FILE *out, *warn;
  interp_debug *d;
  result *r;
} debug_run;

static void debug_before(interp_launch *L, void *ud)
{
  debug_run *dr = ud;
  dr->d = interp_debug_new(L->mod, L->fn);
  assert_non_null(dr->d);
  interp_debug_set_out(dr->d, dr->out, dr->warn);
  if (dr->setup) dr->setup(dr->d);
  interp_debug_attach(dr->d, L);
}

static void debug_after(interp_launch *L, void *ud)
{
  debug_run *dr = ud;
  dr->r->ub = interp_debug_finish(dr->d);
  interp_debug_free(dr->d); /* it borrows the module and memory freed next */
  dr->d = NULL;
  (void)L;
}

/* Run the entry kernel of text with bufs (copied back) and scalars, debug state set up by setup. */
static void run(const char *text, int64_t grid, buf *bufs, int nbufs, const int64_t *scal, int threads, setup_fn setup,
                result *r)
{
  memset(r, 0, sizeof *r);
  debug_run dr = {setup, tmpfile(), tmpfile(), NULL, r};
  assert_non_null(dr.out);
  assert_non_null(dr.warn);
  const unit_hooks hooks = {debug_before, debug_after, &dr};
  const int64_t g[3] = {grid, 1, 1};
  r->st = unit_run_kernel(text, g, bufs, nbufs, scal, threads, &hooks, &r->err, &r->stats);
  fflush(dr.out);
  fflush(dr.warn);
  slurp(dr.out, r->out, sizeof r->out);
  slurp(dr.warn, r->warn, sizeof r->warn);
}

/* o = x / y over 8 lanes; y is loaded under lanes < n without `other`. */
static const char *div_masked = "module {\n"
                                "  tt.func public @k(%x: !tt.ptr<i32>, %y: !tt.ptr<i32>, %o: !tt.ptr<i32>, %n: i32) {\n"
                                "    %pid = tt.get_program_id x : i32\n"
                                "    %c8 = arith.constant 8 : i32\n"
                                "    %base = arith.muli %pid, %c8 : i32\n"
                                "    %r = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>\n"
                                "    %bs = tt.splat %base : i32 -> tensor<8xi32>\n"
                                "    %off = arith.addi %bs, %r : tensor<8xi32>\n"
                                "    %ns = tt.splat %n : i32 -> tensor<8xi32>\n"
                                "    %m = arith.cmpi slt, %off, %ns : tensor<8xi32>\n"
                                "    %xp = tt.splat %x : !tt.ptr<i32> -> tensor<8x!tt.ptr<i32>>\n"
                                "    %xa = tt.addptr %xp, %off : tensor<8x!tt.ptr<i32>>, tensor<8xi32>\n"
                                "    %xv = tt.load %xa, %m : tensor<8x!tt.ptr<i32>>\n"
                                "    %yp = tt.splat %y : !tt.ptr<i32> -> tensor<8x!tt.ptr<i32>>\n"
                                "    %ya = tt.addptr %yp, %off : tensor<8x!tt.ptr<i32>>, tensor<8xi32>\n"
                                "    %yv = tt.load %ya, %m : tensor<8x!tt.ptr<i32>>\n"
                                "    %q = arith.divsi %xv, %yv : tensor<8xi32>\n"
                                "    %op = tt.splat %o : !tt.ptr<i32> -> tensor<8x!tt.ptr<i32>>\n"
                                "    %oa = tt.addptr %op, %off : tensor<8x!tt.ptr<i32>>, tensor<8xi32>\n"
                                "    tt.store %oa, %q, %m : tensor<8x!tt.ptr<i32>>\n"
                                "    tt.return\n"
                                "  }\n"
                                "}\n";

static void test_ub_masked_lanes_not_reported(void **state)
{
  (void)state;
  int32_t x[16], y[16], o[16] = {0};
  for (int i = 0; i < 16; i++) x[i] = 100 + i, y[i] = i + 1;
  buf b[3] = {{x, sizeof x, IR_S_I32}, {y, sizeof y, IR_S_I32}, {o, sizeof o, IR_S_I32}};
  int64_t n = 11; /* program 1 has lanes 3..7 masked off: y reads 0 there */
  result r;
  run(div_masked, 2, b, 3, &n, 1, NULL, &r);
  assert_int_equal(r.st, TTREF_OK);
  assert_int_equal(r.stats.ub_div_zero, 5); /* counted */
  assert_int_equal(r.ub, 0);                /* not reported */
  assert_string_equal(r.warn, "");
}

static void strict(interp_debug *d) { interp_debug_set_ub_mode(d, INTERP_UB_STRICT); }

static void test_ub_reported_in_program_order_for_any_thread_count(void **state)
{
  (void)state;
  char first[8192];
  for (int threads = 1; threads <= 2; threads++) {
    int32_t x[32], y[32], o[32] = {0};
    for (int i = 0; i < 32; i++) x[i] = i, y[i] = (i % 8 == 1 || i % 8 == 6) ? 0 : 3;
    buf b[3] = {{x, sizeof x, IR_S_I32}, {y, sizeof y, IR_S_I32}, {o, sizeof o, IR_S_I32}};
    int64_t n = 32;
    result r;
    run(div_masked, 4, b, 3, &n, threads, NULL, &r);
    assert_int_equal(r.st, TTREF_OK);
    assert_int_equal(r.ub, 8);
    const char *a = strstr(r.warn, "pid (0, 0, 0) lane 1 (1)"), *z = strstr(r.warn, "pid (3, 0, 0) lane 6 (6)");
    assert_non_null(a);
    assert_non_null(z);
    assert_true(a < z);
    assert_non_null(strstr(r.warn, "t.ttir:17:5: warning: integer division by zero in 'arith.divsi'"));
    if (threads == 1) strcpy(first, r.warn);
    else assert_string_equal(first, r.warn);
  }
}

static void test_ub_strict_faults_at_first_unmasked_lane(void **state)
{
  (void)state;
  int32_t x[16], y[16], o[16] = {0};
  for (int i = 0; i < 16; i++) x[i] = i, y[i] = i == 12 ? 0 : 2;
  buf b[3] = {{x, sizeof x, IR_S_I32}, {y, sizeof y, IR_S_I32}, {o, sizeof o, IR_S_I32}};
  int64_t n = 14;
  result r;
  run(div_masked, 2, b, 3, &n, 2, strict, &r);
  assert_int_equal(r.st, TTREF_E_FAULT);
  assert_non_null(strstr(r.err.msg, "t.ttir:17:5: error: undefined behaviour (--strict): integer division by zero"));
  assert_non_null(strstr(r.err.msg, "pid (1, 0, 0) lane 4 (4)"));
}

/* sum(where(m, x, 0)) with x loaded without other: defined; sum(x) alone is not. */
static const char *masked_sum = "module {\n"
                                "  tt.func public @k(%x: !tt.ptr<f32>, %o: !tt.ptr<f32>, %n: i32, %guard: i32) {\n"
                                "    %r = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>\n"
                                "    %ns = tt.splat %n : i32 -> tensor<8xi32>\n"
                                "    %m = arith.cmpi slt, %r, %ns : tensor<8xi32>\n"
                                "    %xp = tt.splat %x : !tt.ptr<f32> -> tensor<8x!tt.ptr<f32>>\n"
                                "    %xa = tt.addptr %xp, %r : tensor<8x!tt.ptr<f32>>, tensor<8xi32>\n"
                                "    %xv = tt.load %xa, %m : tensor<8x!tt.ptr<f32>>\n"
                                "    %z = arith.constant dense<0.000000e+00> : tensor<8xf32>\n"
                                "    %c0 = arith.constant 0 : i32\n"
                                "    %g = arith.cmpi ne, %guard, %c0 : i32\n"
                                "    %w = arith.select %m, %xv, %z : tensor<8xi1>, tensor<8xf32>\n"
                                "    %v = scf.if %g -> (tensor<8xf32>) {\n"
                                "      scf.yield %w : tensor<8xf32>\n"
                                "    } else {\n"
                                "      scf.yield %xv : tensor<8xf32>\n"
                                "    }\n"
                                "    %s = \"tt.reduce\"(%v) <{axis = 0 : i32}> ({\n"
                                "    ^bb0(%a: f32, %b: f32):\n"
                                "      %t = arith.addf %a, %b : f32\n"
                                "      tt.reduce.return %t : f32\n"
                                "    }) : (tensor<8xf32>) -> f32\n"
                                "    tt.store %o, %s : !tt.ptr<f32>\n"
                                "    tt.return\n"
                                "  }\n"
                                "}\n";

static void uninit(interp_debug *d) { interp_debug_set_check_uninit(d, true); }

static void test_uninit_select_defines_and_scf_if_propagates(void **state)
{
  (void)state;
  float x[8] = {1, 2, 3, 4, 5, 6, 7, 8}, o[1] = {0};
  buf b[2] = {{x, sizeof x, IR_S_F32}, {o, sizeof o, IR_S_F32}};
  int64_t sc[2] = {5, 1};
  result r;
  run(masked_sum, 1, b, 2, sc, 1, uninit, &r);
  assert_int_equal(r.st, TTREF_OK);
  assert_true(o[0] == 15.0f);
  sc[1] = 0; /* the branch yielding the raw load */
  run(masked_sum, 1, b, 2, sc, 1, uninit, &r);
  assert_int_equal(r.st, TTREF_E_FAULT);
  assert_non_null(
      strstr(r.err.msg,
             "t.ttir:18:5: error: undefined value reduced in 'tt.reduce' (--check-uninit): pid (0, 0, 0) lane 5 (5)"));
  assert_non_null(strstr(r.err.msg, "masked-off lane of 'tt.load' at t.ttir:8:5"));
  sc[0] = 8; /* nothing masked: defined */
  run(masked_sum, 1, b, 2, sc, 1, uninit, &r);
  assert_int_equal(r.st, TTREF_OK);
}

/* acc carried through scf.for: printed per iteration; 1/x traps only on active lanes. */
static const char *loop_acc =
    "#loc1 = loc(\"k.py\":3:10)\n"
    "module {\n"
    "  tt.func public @k(%x: !tt.ptr<f32>, %o: !tt.ptr<f32>, %n: i32) {\n"
    "    %r = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>\n"
    "    %ns = tt.splat %n : i32 -> tensor<4xi32>\n"
    "    %m = arith.cmpi slt, %r, %ns : tensor<4xi32>\n"
    "    %xp = tt.splat %x : !tt.ptr<f32> -> tensor<4x!tt.ptr<f32>>\n"
    "    %xa = tt.addptr %xp, %r : tensor<4x!tt.ptr<f32>>, tensor<4xi32>\n"
    "    %zero = arith.constant dense<0.000000e+00> : tensor<4xf32>\n"
    "    %xv = tt.load %xa, %m, %zero : tensor<4x!tt.ptr<f32>>\n"
    "    %one = arith.constant dense<1.000000e+00> : tensor<4xf32>\n"
    "    %inv = arith.divf %one, %xv : tensor<4xf32>\n"
    "    %c0 = arith.constant 0 : i32\n"
    "    %c1 = arith.constant 1 : i32\n"
    "    %c3 = arith.constant 3 : i32\n"
    "    %acc = scf.for %i = %c0 to %c3 step %c1 iter_args(%a = %zero) -> (tensor<4xf32>) : i32 {\n"
    "      %a2 = arith.addf %a, %inv : tensor<4xf32> loc(\"acc\"(#loc1))\n"
    "      scf.yield %a2 : tensor<4xf32>\n"
    "    }\n"
    "    %op = tt.splat %o : !tt.ptr<f32> -> tensor<4x!tt.ptr<f32>>\n"
    "    %oa = tt.addptr %op, %r : tensor<4x!tt.ptr<f32>>, tensor<4xi32>\n"
    "    tt.store %oa, %acc, %m : tensor<4x!tt.ptr<f32>>\n"
    "    tt.return\n"
    "  }\n"
    "}\n";

static void dump_acc(interp_debug *d)
{
  ttref_error e;
  memset(&e, 0, sizeof e);
  assert_int_equal(interp_debug_add_dump(d, "acc[1:3]", &e), TTREF_OK);
}

static void trap_inf(interp_debug *d) { interp_debug_set_trap(d, INTERP_TRAP_INF); }

static void test_dump_every_iteration_and_trap_only_active_lanes(void **state)
{
  (void)state;
  float x[4] = {1, 2, 4, 8}, o[4] = {0};
  buf b[2] = {{x, sizeof x, IR_S_F32}, {o, sizeof o, IR_S_F32}};
  int64_t n = 3; /* lane 3 loads other = 0: 1/0 = inf in a masked-off lane */
  result r;
  run(loop_acc, 1, b, 2, &n, 1, dump_acc, &r);
  assert_int_equal(r.st, TTREF_OK);
  char want[600] = "";
  for (int it = 0; it < 3; it++)
    for (int l = 1; l < 3; l++) {
      char line[100];
      snprintf(line, sizeof line, "pid (0, 0, 0) idx (%d) acc[iter %d]: %f\n", l, it, (double)((float)(it + 1) / x[l]));
      strcat(want, line);
    }
  assert_string_equal(r.out, want);
  run(loop_acc, 1, b, 2, &n, 1, trap_inf, &r);
  assert_int_equal(r.st, TTREF_OK); /* the inf is in a masked-off lane */
  x[1] = 0;                         /* an active zero */
  run(loop_acc, 1, b, 2, &n, 1, trap_inf, &r);
  assert_int_equal(r.st, TTREF_E_FAULT);
  assert_non_null(strstr(r.err.msg, "t.ttir:12:5: error: infinity created by 'arith.divf'"));
  assert_non_null(strstr(r.err.msg, "lane 1 (1)"));
}

static void test_dump_bad_specs_are_usage_errors(void **state)
{
  (void)state;
  ir_module *m = unit_parse_ok(loop_acc);
  ttref_error e;
  interp_debug *d = interp_debug_new(m, ir_module_entry(m));
  const char *bad[] = {"", "acc@1,2,3,4", "acc@x", "acc[2:1]", "acc[1", "nosuch", "%nosuch", "acc@*[a]", "%a", "%n"};
  for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
    memset(&e, 0, sizeof e);
    assert_int_equal(interp_debug_add_dump(d, bad[k], &e), TTREF_E_USAGE);
    assert_true(e.msg[0] != 0);
  }
  memset(&e, 0, sizeof e);
  assert_int_equal(interp_debug_add_dump(d, "%inv@*[0:]", &e), TTREF_OK);
  assert_int_equal(interp_debug_set_trace(d, "1,2,3,4", &e), TTREF_E_USAGE);
  interp_debug_free(d);
  ir_module_free(m);
}

/* One scalar program: a << s, INT_MIN / d, fptosi(f): each undefined case once. */
static const char *scalar_ub = "module {\n"
                               "  tt.func public @k(%o: !tt.ptr<i32>, %a: i32, %s: i32, %d: i32, %f: f32) {\n"
                               "    %x = arith.shli %a, %s : i32\n"
                               "    %min = arith.constant -2147483648 : i32\n"
                               "    %q = arith.divsi %min, %d : i32\n"
                               "    %c = arith.fptosi %f : f32 to i32\n"
                               "    %t = arith.addi %x, %q : i32\n"
                               "    %u = arith.addi %t, %c : i32\n"
                               "    tt.store %o, %u : !tt.ptr<i32>\n"
                               "    tt.return\n"
                               "  }\n"
                               "}\n";

static void test_ub_kinds_are_located(void **state)
{
  (void)state;
  int32_t o[1] = {0};
  buf b[1] = {{o, sizeof o, IR_S_I32}};
  double big = 1e10;
  int64_t sc[4] = {1, 40, -1, 0};
  memcpy(&sc[3], &big, sizeof big);
  result r;
  run(scalar_ub, 1, b, 1, sc, 1, NULL, &r);
  assert_int_equal(r.st, TTREF_OK);
  assert_int_equal(r.ub, 3);
  assert_non_null(
      strstr(r.warn, "t.ttir:3:5: warning: shift amount >= bit width in 'arith.shli': pid (0, 0, 0) scalar"));
  assert_non_null(strstr(r.warn, "t.ttir:5:5: warning: integer division overflow (INT_MIN / -1) in 'arith.divsi'"));
  assert_non_null(
      strstr(r.warn, "t.ttir:6:5: warning: float to integer conversion out of range (or NaN) in 'arith.fptosi'"));
  sc[1] = 31; /* in range: no report */
  sc[2] = 2;
  big = 1e9;
  memcpy(&sc[3], &big, sizeof big);
  run(scalar_ub, 1, b, 1, sc, 1, NULL, &r);
  assert_int_equal(r.ub, 0);
  assert_string_equal(r.warn, "");
}

/* x[2][4] loaded under col < n without other, transposed, stored under the transposed mask
 * (or, with %all != 0, everywhere). */
static const char *trans_store =
    "module {\n"
    "  tt.func public @k(%x: !tt.ptr<f32>, %o: !tt.ptr<f32>, %n: i32, %all: i32) {\n"
    "    %r = tt.make_range {end = 2 : i32, start = 0 : i32} : tensor<2xi32>\n"
    "    %c = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>\n"
    "    %r1 = tt.expand_dims %r {axis = 1 : i32} : tensor<2xi32> -> tensor<2x1xi32>\n"
    "    %c1 = tt.expand_dims %c {axis = 0 : i32} : tensor<4xi32> -> tensor<1x4xi32>\n"
    "    %c4 = arith.constant dense<4> : tensor<2x1xi32>\n"
    "    %rr = arith.muli %r1, %c4 : tensor<2x1xi32>\n"
    "    %rb = tt.broadcast %rr : tensor<2x1xi32> -> tensor<2x4xi32>\n"
    "    %cb = tt.broadcast %c1 : tensor<1x4xi32> -> tensor<2x4xi32>\n"
    "    %off = arith.addi %rb, %cb : tensor<2x4xi32>\n"
    "    %ns = tt.splat %n : i32 -> tensor<2x4xi32>\n"
    "    %m = arith.cmpi slt, %cb, %ns : tensor<2x4xi32>\n"
    "    %xp = tt.splat %x : !tt.ptr<f32> -> tensor<2x4x!tt.ptr<f32>>\n"
    "    %xa = tt.addptr %xp, %off : tensor<2x4x!tt.ptr<f32>>, tensor<2x4xi32>\n"
    "    %v = tt.load %xa, %m : tensor<2x4x!tt.ptr<f32>>\n"
    "    %vt = tt.trans %v {order = array<i32: 1, 0>} : tensor<2x4xf32> -> tensor<4x2xf32>\n"
    "    %mt = tt.trans %m {order = array<i32: 1, 0>} : tensor<2x4xi1> -> tensor<4x2xi1>\n"
    "    %ot = tt.trans %off {order = array<i32: 1, 0>} : tensor<2x4xi32> -> tensor<4x2xi32>\n"
    "    %z = arith.constant 0 : i32\n"
    "    %a = arith.cmpi ne, %all, %z : i32\n"
    "    %as = tt.splat %a : i1 -> tensor<4x2xi1>\n"
    "    %mm = arith.ori %mt, %as : tensor<4x2xi1>\n"
    "    %op = tt.splat %o : !tt.ptr<f32> -> tensor<4x2x!tt.ptr<f32>>\n"
    "    %oa = tt.addptr %op, %ot : tensor<4x2x!tt.ptr<f32>>, tensor<4x2xi32>\n"
    "    tt.store %oa, %vt, %mm : tensor<4x2x!tt.ptr<f32>>\n"
    "    tt.return\n"
    "  }\n"
    "}\n";

static void test_uninit_follows_trans(void **state)
{
  (void)state;
  float x[8] = {1, 2, 3, 4, 5, 6, 7, 8}, o[8] = {0};
  buf b[2] = {{x, sizeof x, IR_S_F32}, {o, sizeof o, IR_S_F32}};
  int64_t sc[2] = {3, 0};
  result r;
  run(trans_store, 1, b, 2, sc, 1, uninit, &r);
  assert_int_equal(r.st, TTREF_OK);
  assert_true(o[0] == 1 && o[6] == 7 && o[3] == 0);
  sc[1] = 1; /* store every lane: the first undefined one is column 3 of row 0 = lane 6 (3, 0) of the transpose */
  run(trans_store, 1, b, 2, sc, 1, uninit, &r);
  assert_int_equal(r.st, TTREF_E_FAULT);
  assert_non_null(strstr(
      r.err.msg, "undefined value stored to memory in 'tt.store' (--check-uninit): pid (0, 0, 0) lane 6 (3, 0)"));
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_ub_masked_lanes_not_reported),
      cmocka_unit_test(test_ub_reported_in_program_order_for_any_thread_count),
      cmocka_unit_test(test_ub_strict_faults_at_first_unmasked_lane),
      cmocka_unit_test(test_uninit_select_defines_and_scf_if_propagates),
      cmocka_unit_test(test_dump_every_iteration_and_trap_only_active_lanes),
      cmocka_unit_test(test_dump_bad_specs_are_usage_errors),
      cmocka_unit_test(test_ub_kinds_are_located),
      cmocka_unit_test(test_uninit_follows_trans),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
