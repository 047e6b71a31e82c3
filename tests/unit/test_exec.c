/*
 * test_exec.c: unit tests of the executor: integer edge cases and their
 * documented choices, masks at every boundary, out-of-bounds diagnostics,
 * empty and 3-D grids, 1-element tensors, reduce/scan order, atomics, dot,
 * casts, and bit-identical results for 1 and 2 threads.
 * Over 1000 lines on purpose: one cmocka group per binary (STYLE.md) keeps the tests of
 * the executor in one file, sharing its fixtures; tests/unit/unit_fixture.c holds what files share.
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

#include "fp.h"
#include "interp.h"
#include "ir_parse.h"
#include "ir_verify.h"
#include "unit_run.h"

/* ---- harness (tests/unit/unit_run.c) ---- */
typedef unit_buf buf;

static ttref_status run_kernel(const char *text, int64_t gx, int64_t gy, int64_t gz, buf *bufs, int nbufs,
                               const int64_t *scal, int threads, ttref_error *err, interp_stats *stats)
{
  const int64_t grid[3] = {gx, gy, gz};
  return unit_run_kernel(text, grid, bufs, nbufs, scal, threads, NULL, err, stats);
}

/* run_kernel that must succeed (failing the test with the status and message otherwise) */
static void run_ok(const char *text, int64_t gx, int64_t gy, int64_t gz, buf *bufs, int nbufs, const int64_t *scal,
                   int threads, interp_stats *stats)
{
  ttref_error e;
  memset(&e, 0, sizeof e);
  const ttref_status st = run_kernel(text, gx, gy, gz, bufs, nbufs, scal, threads, &e, stats);
  if (st != TTREF_OK) fail_msg("status %d: %s", (int)st, e.msg);
}

/* A kernel applying `OP` elementwise to two i32 inputs over 1-D blocks of 8. */
static char *binop_kernel(const char *body, const char *ty)
{
  static char text[4096];
  snprintf(text, sizeof text,
           "module {\n"
           "  tt.func public @k(%%x: !tt.ptr<%s>, %%y: !tt.ptr<%s>, %%o: !tt.ptr<%s>) {\n"
           "    %%r = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>\n"
           "    %%xp = tt.splat %%x : !tt.ptr<%s> -> tensor<8x!tt.ptr<%s>>\n"
           "    %%xa = tt.addptr %%xp, %%r : tensor<8x!tt.ptr<%s>>, tensor<8xi32>\n"
           "    %%a = tt.load %%xa : tensor<8x!tt.ptr<%s>>\n"
           "    %%yp = tt.splat %%y : !tt.ptr<%s> -> tensor<8x!tt.ptr<%s>>\n"
           "    %%ya = tt.addptr %%yp, %%r : tensor<8x!tt.ptr<%s>>, tensor<8xi32>\n"
           "    %%b = tt.load %%ya : tensor<8x!tt.ptr<%s>>\n"
           "    %s\n"
           "    %%op = tt.splat %%o : !tt.ptr<%s> -> tensor<8x!tt.ptr<%s>>\n"
           "    %%oa = tt.addptr %%op, %%r : tensor<8x!tt.ptr<%s>>, tensor<8xi32>\n"
           "    tt.store %%oa, %%c : tensor<8x!tt.ptr<%s>>\n"
           "    tt.return\n"
           "  }\n"
           "}\n",
           ty, ty, ty, ty, ty, ty, ty, ty, ty, ty, ty, body, ty, ty, ty, ty);
  return text;
}

static void run_i32_binop(const char *body, const int32_t *x, const int32_t *y, int32_t *o, interp_stats *stats)
{
  int32_t xb[8], yb[8];
  memcpy(xb, x, sizeof xb);
  memcpy(yb, y, sizeof yb);
  memset(o, 0x55, 8 * sizeof(int32_t));
  buf b[3] = {{xb, 32, IR_S_I32}, {yb, 32, IR_S_I32}, {o, 32, IR_S_I32}};
  run_ok(binop_kernel(body, "i32"), 1, 1, 1, b, 3, NULL, 1, stats);
}

/* ---- integer semantics ---- */
static void test_int_div_edge_values(void **state)
{
  (void)state;
  const int32_t x[8] = {7, -7, 7, -7, INT32_MIN, 5, 0, INT32_MIN};
  const int32_t y[8] = {2, 2, -2, -2, -1, 0, 0, 1};
  int32_t o[8];
  interp_stats s;
  run_i32_binop("%c = arith.divsi %a, %b : tensor<8xi32>", x, y, o, &s);
  const int32_t want[8] = {3, -3, -3, 3, INT32_MIN, 0, 0, INT32_MIN}; /* truncating; x/0 = 0; MIN/-1 = MIN */
  assert_memory_equal(o, want, sizeof want);
  assert_int_equal(s.ub_div_zero, 2);
  assert_int_equal(s.ub_div_overflow, 1);
  run_i32_binop("%c = arith.remsi %a, %b : tensor<8xi32>", x, y, o, &s);
  const int32_t wrem[8] = {1, -1, 1, -1, 0, 0, 0, 0};
  assert_memory_equal(o, wrem, sizeof wrem);
  run_i32_binop("%c = arith.divui %a, %b : tensor<8xi32>", x, y, o, &s);
  assert_int_equal(o[1], (int32_t)(((uint32_t)-7) / 2u));
  assert_int_equal(o[5], 0);
}

static void test_int_shift_ge_width(void **state)
{
  (void)state;
  const int32_t x[8] = {1, -8, -8, 1, 0x40000000, -1, 3, -3};
  const int32_t y[8] = {31, 1, 32, 40, 1, 31, -1, 33};
  int32_t o[8];
  interp_stats s;
  run_i32_binop("%c = arith.shli %a, %b : tensor<8xi32>", x, y, o, &s);
  assert_int_equal(o[0], INT32_MIN);
  assert_int_equal(o[2], 0); /* >= width gives 0 */
  assert_int_equal(o[3], 0);
  assert_int_equal(o[4], INT32_MIN);
  assert_int_equal(o[6], 0); /* negative amount is a huge unsigned amount */
  assert_int_equal(s.ub_shift, 4);
  run_i32_binop("%c = arith.shrsi %a, %b : tensor<8xi32>", x, y, o, &s);
  assert_int_equal(o[1], -4);
  assert_int_equal(o[2], -1); /* sign fill */
  assert_int_equal(o[7], -1);
  assert_int_equal(o[3], 0);
  run_i32_binop("%c = arith.shrui %a, %b : tensor<8xi32>", x, y, o, &s);
  assert_int_equal(o[1], (int32_t)(0xFFFFFFF8u >> 1));
  assert_int_equal(o[5], 1);
  assert_int_equal(o[2], 0);
}

static void test_int_wrap_and_compare(void **state)
{
  (void)state;
  const int32_t x[8] = {INT32_MAX, INT32_MIN, -1, 5, -1, 0, 3, 7};
  const int32_t y[8] = {1, -1, 1, 5, 0, -1, 3, 8};
  int32_t o[8];
  run_i32_binop("%c = arith.addi %a, %b : tensor<8xi32>", x, y, o, NULL);
  assert_int_equal(o[0], INT32_MIN);
  assert_int_equal(o[1], INT32_MAX);
  run_i32_binop("%t = arith.cmpi ult, %a, %b : tensor<8xi32>\n    %c = arith.extui %t : tensor<8xi1> to tensor<8xi32>",
                x, y, o, NULL);
  assert_int_equal(o[4], 0); /* 0xFFFFFFFF < 0 unsigned: false */
  assert_int_equal(o[5], 1); /* 0 < 0xFFFFFFFF */
  run_i32_binop("%t = arith.cmpi slt, %a, %b : tensor<8xi32>\n    %c = arith.extsi %t : tensor<8xi1> to tensor<8xi32>",
                x, y, o, NULL);
  assert_int_equal(o[4], -1); /* true sign-extends to -1 */
  assert_int_equal(o[6], 0);
  run_i32_binop("%c = tt.mulhiui %a, %b : tensor<8xi32>", x, y, o, NULL);
  assert_int_equal(o[2], 0);
  assert_int_equal(o[4], 0);
  assert_int_equal(o[1], (int32_t)(((uint64_t)0x80000000u * 0xFFFFFFFFu) >> 32));
}

/* ---- masks and bounds ---- */
static const char *masked_copy = "module {\n"
                                 "  tt.func public @k(%x: !tt.ptr<f32>, %o: !tt.ptr<f32>, %n: i32) {\n"
                                 "    %pid = tt.get_program_id x : i32\n"
                                 "    %c16 = arith.constant 16 : i32\n"
                                 "    %base = arith.muli %pid, %c16 : i32\n"
                                 "    %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>\n"
                                 "    %bs = tt.splat %base : i32 -> tensor<16xi32>\n"
                                 "    %off = arith.addi %bs, %r : tensor<16xi32>\n"
                                 "    %ns = tt.splat %n : i32 -> tensor<16xi32>\n"
                                 "    %m = arith.cmpi slt, %off, %ns : tensor<16xi32>\n"
                                 "    %xp = tt.splat %x : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>\n"
                                 "    %xa = tt.addptr %xp, %off : tensor<16x!tt.ptr<f32>>, tensor<16xi32>\n"
                                 "    %other = arith.constant dense<-1.500000e+00> : tensor<16xf32>\n"
                                 "    %v = tt.load %xa, %m, %other : tensor<16x!tt.ptr<f32>>\n"
                                 "    %op = tt.splat %o : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>\n"
                                 "    %oa = tt.addptr %op, %off : tensor<16x!tt.ptr<f32>>, tensor<16xi32>\n"
                                 "    tt.store %oa, %v, %m : tensor<16x!tt.ptr<f32>>\n"
                                 "    tt.return\n"
                                 "  }\n"
                                 "}\n";

static void test_mask_every_boundary(void **state)
{
  (void)state;
  for (int n = 0; n <= 33; n++) {
    float x[33], o[33];
    for (int i = 0; i < 33; i++) {
      x[i] = (float)i + 0.25f;
      o[i] = -7.0f;
    }
    buf b[2] = {{x, sizeof(float) * (size_t)n, IR_S_F32}, {o, sizeof(float) * (size_t)n, IR_S_F32}};
    int64_t sc[1] = {n};
    ttref_error e;
    memset(&e, 0, sizeof e);
    int64_t grid = (n + 15) / 16;
    ttref_status st = run_kernel(masked_copy, grid, 1, 1, b, 2, sc, 1, &e, NULL);
    if (st) fprintf(stderr, "n=%d: %s\n", n, e.msg);
    assert_int_equal(st, TTREF_OK);
    for (int i = 0; i < n; i++) assert_true(o[i] == x[i]);
    for (int i = n; i < 33; i++) assert_true(o[i] == -7.0f); /* never written */
  }
}

static void test_oob_reports_lane_and_alloc(void **state)
{
  (void)state;
  float x[20], o[20];
  memset(x, 0, sizeof x);
  buf b[2] = {{x, sizeof x, IR_S_F32}, {o, sizeof o, IR_S_F32}};
  int64_t sc[1] = {40}; /* the mask lets lanes 20.. through: out of bounds */
  ttref_error e;
  memset(&e, 0, sizeof e);
  ttref_status st = run_kernel(masked_copy, 3, 1, 1, b, 2, sc, 2, &e, NULL);
  assert_int_equal(st, TTREF_E_FAULT);
  assert_non_null(strstr(e.msg, "t.ttir:14:"));    /* the tt.load line */
  assert_non_null(strstr(e.msg, "pid (1, 0, 0)")); /* first faulting program, whatever the threads */
  assert_non_null(strstr(e.msg, "lane 4 (4)"));
  assert_non_null(strstr(e.msg, "x+80"));
  assert_non_null(strstr(e.msg, "80 bytes"));
}

static void test_empty_grid_runs_nothing(void **state)
{
  (void)state;
  float x[4] = {1, 2, 3, 4}, o[4] = {9, 9, 9, 9};
  buf b[2] = {{x, sizeof x, IR_S_F32}, {o, sizeof o, IR_S_F32}};
  int64_t sc[1] = {4};
  run_ok(masked_copy, 0, 1, 1, b, 2, sc, 1, NULL);
  assert_true(o[0] == 9 && o[3] == 9);
}

static void test_grid3d_program_ids(void **state)
{
  (void)state;
  const char *k = "module {\n"
                  "  tt.func public @k(%o: !tt.ptr<i32>) {\n"
                  "    %x = tt.get_program_id x : i32\n"
                  "    %y = tt.get_program_id y : i32\n"
                  "    %z = tt.get_program_id z : i32\n"
                  "    %nx = tt.get_num_programs x : i32\n"
                  "    %ny = tt.get_num_programs y : i32\n"
                  "    %a = arith.muli %z, %ny : i32\n"
                  "    %b = arith.addi %a, %y : i32\n"
                  "    %c = arith.muli %b, %nx : i32\n"
                  "    %lin = arith.addi %c, %x : i32\n"
                  "    %c100 = arith.constant 100 : i32\n"
                  "    %v0 = arith.muli %z, %c100 : i32\n"
                  "    %c10 = arith.constant 10 : i32\n"
                  "    %v1 = arith.muli %y, %c10 : i32\n"
                  "    %v2 = arith.addi %v0, %v1 : i32\n"
                  "    %v = arith.addi %v2, %x : i32\n"
                  "    %p = tt.addptr %o, %lin : !tt.ptr<i32>, i32\n"
                  "    tt.store %p, %v : !tt.ptr<i32>\n"
                  "    tt.return\n"
                  "  }\n"
                  "}\n";
  int32_t o[24];
  memset(o, 0, sizeof o);
  buf b[1] = {{o, sizeof o, IR_S_I32}};
  run_ok(k, 3, 4, 2, b, 1, NULL, 2, NULL);
  for (int z = 0; z < 2; z++)
    for (int y = 0; y < 4; y++)
      for (int x = 0; x < 3; x++) assert_int_equal(o[(z * 4 + y) * 3 + x], z * 100 + y * 10 + x);
}

/* ---- reductions, scans, dot ---- */
static const char *reduce_sum_1x8 = "module {\n"
                                    "  tt.func public @k(%x: !tt.ptr<f32>, %o: !tt.ptr<f32>) {\n"
                                    "    %r = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>\n"
                                    "    %xp = tt.splat %x : !tt.ptr<f32> -> tensor<8x!tt.ptr<f32>>\n"
                                    "    %xa = tt.addptr %xp, %r : tensor<8x!tt.ptr<f32>>, tensor<8xi32>\n"
                                    "    %v = tt.load %xa : tensor<8x!tt.ptr<f32>>\n"
                                    "    %s = \"tt.reduce\"(%v) <{axis = 0 : i32}> ({\n"
                                    "    ^bb0(%a: f32, %b: f32):\n"
                                    "      %t = arith.addf %a, %b : f32\n"
                                    "      tt.reduce.return %t : f32\n"
                                    "    }) : (tensor<8xf32>) -> f32\n"
                                    "    tt.store %o, %s : !tt.ptr<f32>\n"
                                    "    tt.return\n"
                                    "  }\n"
                                    "}\n";

static void test_reduce_pairwise_order(void **state)
{
  (void)state;
  /* ((x0+x1)+(x2+x3))+((x4+x5)+(x6+x7)) in f32: 1e8 cancels pairwise first */
  float x[8] = {1e8f, 1.0f, -1e8f, 1.0f, 3.0f, 0.5f, 0.25f, 1e-3f}, o[1] = {0};
  buf b[2] = {{x, sizeof x, IR_S_F32}, {o, sizeof o, IR_S_F32}};
  run_ok(reduce_sum_1x8, 1, 1, 1, b, 2, NULL, 1, NULL);
  float p01 = x[0] + x[1], p23 = x[2] + x[3], p45 = x[4] + x[5], p67 = x[6] + x[7];
  float want = (p01 + p23) + (p45 + p67);
  assert_true(memcmp(&o[0], &want, 4) == 0);
}

/* tt.reduce with a one-op combine region runs as a typed pairwise tree (interp_reduce.c); it must
 * give the bits of the general region path (a region with a second op) and of a C oracle, along
 * either axis of a 4x16 tensor (V > 1, outer == 1) and over 64 lanes with swapped maxnumf operands. */
static const char *reduce_forms = "module {\n"
                                  "  tt.func public @k(%x: !tt.ptr<f32>, %o1: !tt.ptr<f32>, %o0: !tt.ptr<f32>, %om: "
                                  "!tt.ptr<f32>, %q1: !tt.ptr<f32>) {\n"
                                  "    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>\n"
                                  "    %xp = tt.splat %x : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>\n"
                                  "    %xa = tt.addptr %xp, %r : tensor<64x!tt.ptr<f32>>, tensor<64xi32>\n"
                                  "    %v = tt.load %xa : tensor<64x!tt.ptr<f32>>\n"
                                  "    %m = tt.reshape %v : tensor<64xf32> -> tensor<4x16xf32>\n"
                                  "    %s1 = \"tt.reduce\"(%m) <{axis = 1 : i32}> ({\n"
                                  "    ^bb0(%a: f32, %b: f32):\n"
                                  "      %t = arith.addf %a, %b : f32\n"
                                  "      tt.reduce.return %t : f32\n"
                                  "    }) : (tensor<4x16xf32>) -> tensor<4xf32>\n"
                                  "    %q = \"tt.reduce\"(%m) <{axis = 1 : i32}> ({\n"
                                  "    ^bb0(%a: f32, %b: f32):\n"
                                  "      %nz = arith.constant -0.000000e+00 : f32\n"
                                  "      %t = arith.addf %a, %b : f32\n"
                                  "      %u = arith.addf %t, %nz : f32\n"
                                  "      tt.reduce.return %u : f32\n"
                                  "    }) : (tensor<4x16xf32>) -> tensor<4xf32>\n"
                                  "    %s0 = \"tt.reduce\"(%m) <{axis = 0 : i32}> ({\n"
                                  "    ^bb0(%a: f32, %b: f32):\n"
                                  "      %t = arith.addf %a, %b : f32\n"
                                  "      tt.reduce.return %t : f32\n"
                                  "    }) : (tensor<4x16xf32>) -> tensor<16xf32>\n"
                                  "    %sm = \"tt.reduce\"(%v) <{axis = 0 : i32}> ({\n"
                                  "    ^bb0(%a: f32, %b: f32):\n"
                                  "      %t = arith.maxnumf %b, %a : f32\n"
                                  "      tt.reduce.return %t : f32\n"
                                  "    }) : (tensor<64xf32>) -> f32\n"
                                  "    %r5 = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>\n"
                                  "    %o1p = tt.splat %o1 : !tt.ptr<f32> -> tensor<4x!tt.ptr<f32>>\n"
                                  "    %o1a = tt.addptr %o1p, %r5 : tensor<4x!tt.ptr<f32>>, tensor<4xi32>\n"
                                  "    tt.store %o1a, %s1 : tensor<4x!tt.ptr<f32>>\n"
                                  "    %q1p = tt.splat %q1 : !tt.ptr<f32> -> tensor<4x!tt.ptr<f32>>\n"
                                  "    %q1a = tt.addptr %q1p, %r5 : tensor<4x!tt.ptr<f32>>, tensor<4xi32>\n"
                                  "    tt.store %q1a, %q : tensor<4x!tt.ptr<f32>>\n"
                                  "    %r13 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>\n"
                                  "    %o0p = tt.splat %o0 : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>\n"
                                  "    %o0a = tt.addptr %o0p, %r13 : tensor<16x!tt.ptr<f32>>, tensor<16xi32>\n"
                                  "    tt.store %o0a, %s0 : tensor<16x!tt.ptr<f32>>\n"
                                  "    tt.store %om, %sm : !tt.ptr<f32>\n"
                                  "    tt.return\n"
                                  "  }\n"
                                  "}\n";

static void tree_f32(float *w, int L, int V, int op_max) /* the documented pairwise order, [L][V] */
{
  for (int len = L; len > 1;) {
    int half = len / 2;
    for (int p = 0; p < half; p++)
      for (int v = 0; v < V; v++) {
        float a = w[2 * p * V + v], b = w[(2 * p + 1) * V + v];
        if (!op_max) w[p * V + v] = a + b;
        else w[p * V + v] = isnan(b) ? a : isnan(a) ? b : (a == b ? (signbit(b) ? a : b) : (b > a ? b : a));
      }
    if (len & 1)
      for (int v = 0; v < V; v++) w[half * V + v] = w[(len - 1) * V + v];
    len = half + (len & 1);
  }
}

static void test_reduce_typed_tree_equals_region(void **state)
{
  (void)state;
  float x[64], o1[4], o0[16], om[1], q1[4];
  for (int i = 0; i < 64; i++) x[i] = (float)((i % 7) - 3) * ldexpf(1.0f, (i * 5) % 31 - 10) + (float)i * 1e-3f;
  x[8] = -0.0f;
  x[20] = NAN;
  buf b[5] = {{x, sizeof x, IR_S_F32},
              {o1, sizeof o1, IR_S_F32},
              {o0, sizeof o0, IR_S_F32},
              {om, sizeof om, IR_S_F32},
              {q1, sizeof q1, IR_S_F32}};
  run_ok(reduce_forms, 1, 1, 1, b, 5, NULL, 1, NULL);
  assert_memory_equal(o1, q1, sizeof o1); /* typed tree == region path, bit for bit */
  float w[64];
  for (int r = 0; r < 4; r++) { /* axis 1: row r's 16 lanes */
    memcpy(w, x + 16 * r, sizeof(float) * 16);
    tree_f32(w, 16, 1, 0);
    if (isnan(w[0])) assert_true(isnan(o1[r]));
    else assert_memory_equal(&o1[r], &w[0], 4);
  }
  memcpy(w, x, sizeof w); /* axis 0: [4][16] */
  tree_f32(w, 4, 16, 0);
  for (int c = 0; c < 16; c++) {
    if (isnan(w[c])) assert_true(isnan(o0[c]));
    else assert_memory_equal(&o0[c], &w[c], 4);
  }
  memcpy(w, x, sizeof w);
  tree_f32(w, 64, 1, 1);
  assert_memory_equal(&om[0], &w[0], 4);
}

static void test_dot_fma_chain_f32(void **state)
{
  (void)state;
  const char *k =
      "module {\n"
      "  tt.func public @k(%a: !tt.ptr<f32>, %b: !tt.ptr<f32>, %o: !tt.ptr<f32>) {\n"
      "    %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>\n"
      "    %ap = tt.splat %a : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>\n"
      "    %aa = tt.addptr %ap, %r : tensor<16x!tt.ptr<f32>>, tensor<16xi32>\n"
      "    %av = tt.load %aa : tensor<16x!tt.ptr<f32>>\n"
      "    %bp = tt.splat %b : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>\n"
      "    %ba = tt.addptr %bp, %r : tensor<16x!tt.ptr<f32>>, tensor<16xi32>\n"
      "    %bv = tt.load %ba : tensor<16x!tt.ptr<f32>>\n"
      "    %A = tt.reshape %av : tensor<16xf32> -> tensor<4x4xf32>\n"
      "    %B = tt.reshape %bv : tensor<16xf32> -> tensor<4x4xf32>\n"
      "    %z = arith.constant dense<0.000000e+00> : tensor<4x4xf32>\n"
      "    %D = tt.dot %A, %B, %z, inputPrecision = ieee : tensor<4x4xf32> * tensor<4x4xf32> -> tensor<4x4xf32>\n"
      "    %Dv = tt.reshape %D : tensor<4x4xf32> -> tensor<16xf32>\n"
      "    %op = tt.splat %o : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>\n"
      "    %oa = tt.addptr %op, %r : tensor<16x!tt.ptr<f32>>, tensor<16xi32>\n"
      "    tt.store %oa, %Dv : tensor<16x!tt.ptr<f32>>\n"
      "    tt.return\n"
      "  }\n"
      "}\n";
  float a[16], bb[16], o[16];
  for (int i = 0; i < 16; i++) {
    a[i] = 1.0f + (float)i * 0.1f;
    bb[i] = (i % 3 ? 1e-7f : 3.0f) * (float)(i + 1);
  }
  buf b[3] = {{a, sizeof a, IR_S_F32}, {bb, sizeof bb, IR_S_F32}, {o, sizeof o, IR_S_F32}};
  run_ok(k, 1, 1, 1, b, 3, NULL, 1, NULL);
  for (int m = 0; m < 4; m++)
    for (int n = 0; n < 4; n++) {
      float acc = 0.0f;
      for (int kk = 0; kk < 4; kk++) acc = fmaf(a[m * 4 + kk], bb[kk * 4 + n], acc);
      assert_true(memcmp(&o[m * 4 + n], &acc, 4) == 0);
    }
}

/* N = 32: the tile kernels' register blocks (16 columns) rather than their remainder loop; f32
 * fused per k in order, i8 x i8 + i32 wrapping, each against a C oracle */
static void test_dot_column_blocks_like_oracle(void **state)
{
  (void)state;
  static char k[4096];
  for (int integer = 0; integer < 2; integer++) {
    const char *et = integer ? "i8" : "f32", *dt = integer ? "i32" : "f32";
    snprintf(
        k, sizeof k,
        "module {\n"
        "  tt.func public @k(%%a: !tt.ptr<%s>, %%b: !tt.ptr<%s>, %%c: !tt.ptr<%s>, %%o: !tt.ptr<%s>) {\n"
        "    %%r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>\n"
        "    %%ap = tt.splat %%a : !tt.ptr<%s> -> tensor<16x!tt.ptr<%s>>\n"
        "    %%aa = tt.addptr %%ap, %%r : tensor<16x!tt.ptr<%s>>, tensor<16xi32>\n"
        "    %%av = tt.load %%aa : tensor<16x!tt.ptr<%s>>\n"
        "    %%r2 = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>\n"
        "    %%bp = tt.splat %%b : !tt.ptr<%s> -> tensor<256x!tt.ptr<%s>>\n"
        "    %%ba = tt.addptr %%bp, %%r2 : tensor<256x!tt.ptr<%s>>, tensor<256xi32>\n"
        "    %%bv = tt.load %%ba : tensor<256x!tt.ptr<%s>>\n"
        "    %%r3 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>\n"
        "    %%cp = tt.splat %%c : !tt.ptr<%s> -> tensor<64x!tt.ptr<%s>>\n"
        "    %%ca = tt.addptr %%cp, %%r3 : tensor<64x!tt.ptr<%s>>, tensor<64xi32>\n"
        "    %%cv = tt.load %%ca : tensor<64x!tt.ptr<%s>>\n"
        "    %%A = tt.reshape %%av : tensor<16x%s> -> tensor<2x8x%s>\n"
        "    %%B = tt.reshape %%bv : tensor<256x%s> -> tensor<8x32x%s>\n"
        "    %%C = tt.reshape %%cv : tensor<64x%s> -> tensor<2x32x%s>\n"
        "    %%D = tt.dot %%A, %%B, %%C, inputPrecision = ieee : tensor<2x8x%s> * tensor<8x32x%s> -> tensor<2x32x%s>\n"
        "    %%Dv = tt.reshape %%D : tensor<2x32x%s> -> tensor<64x%s>\n"
        "    %%op = tt.splat %%o : !tt.ptr<%s> -> tensor<64x!tt.ptr<%s>>\n"
        "    %%oa = tt.addptr %%op, %%r3 : tensor<64x!tt.ptr<%s>>, tensor<64xi32>\n"
        "    tt.store %%oa, %%Dv : tensor<64x!tt.ptr<%s>>\n"
        "    tt.return\n"
        "  }\n"
        "}\n",
        et, et, dt, dt, et, et, et, et, et, et, et, et, dt, dt, dt, dt, et, et, et, et, dt, dt, et, et, dt, dt, dt, dt,
        dt, dt, dt);
    float af[16], bf[256], cf[64], of[64];
    int8_t ai[16], bi[256];
    int32_t ci[64], oi[64];
    for (int i = 0; i < 256; i++) {
      if (i < 16) {
        af[i] = 1.0f + (float)i * 0.37f;
        ai[i] = (int8_t)(i * 37 - 128);
      }
      bf[i] = (i % 3 ? 1e-7f : 3.0f) * (float)(i + 1) * (i % 2 ? -1.0f : 1.0f);
      bi[i] = (int8_t)(i * 91 + 7);
      if (i < 64) {
        cf[i] = (float)i * 0.001f - 0.5f;
        ci[i] = i % 2 ? 2147483000 : -2147483000 + i;
      }
    }
    buf b[4];
    if (integer) {
      b[0] = (buf){ai, sizeof ai, IR_S_I8};
      b[1] = (buf){bi, sizeof bi, IR_S_I8};
      b[2] = (buf){ci, sizeof ci, IR_S_I32};
      b[3] = (buf){oi, sizeof oi, IR_S_I32};
    } else {
      b[0] = (buf){af, sizeof af, IR_S_F32};
      b[1] = (buf){bf, sizeof bf, IR_S_F32};
      b[2] = (buf){cf, sizeof cf, IR_S_F32};
      b[3] = (buf){of, sizeof of, IR_S_F32};
    }
    ttref_error e;
    memset(&e, 0, sizeof e);
    if (run_kernel(k, 1, 1, 1, b, 4, NULL, 1, &e, NULL) != TTREF_OK) fail_msg("%s: %s", et, e.msg);
    for (int m = 0; m < 2; m++)
      for (int n = 0; n < 32; n++) {
        if (integer) {
          uint32_t acc = (uint32_t)ci[m * 32 + n];
          for (int kk = 0; kk < 8; kk++) acc += (uint32_t)((int32_t)ai[m * 8 + kk] * (int32_t)bi[kk * 32 + n]);
          if (oi[m * 32 + n] != (int32_t)acc) fail_msg("i8 [%d,%d]: %d, want %d", m, n, oi[m * 32 + n], (int32_t)acc);
        } else {
          float acc = cf[m * 32 + n];
          for (int kk = 0; kk < 8; kk++) acc = fmaf(af[m * 8 + kk], bf[kk * 32 + n], acc);
          if (memcmp(&of[m * 32 + n], &acc, 4) != 0)
            fail_msg("f32 [%d,%d]: %a, want %a", m, n, (double)of[m * 32 + n], (double)acc);
        }
      }
  }
}

static void test_dot_i8_wraps_like_oracle(void **state)
{
  (void)state;
  const char *k =
      "module {\n"
      "  tt.func public @k(%a: !tt.ptr<i8>, %b: !tt.ptr<i8>, %o: !tt.ptr<i32>) {\n"
      "    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>\n"
      "    %ap = tt.splat %a : !tt.ptr<i8> -> tensor<64x!tt.ptr<i8>>\n"
      "    %aa = tt.addptr %ap, %r : tensor<64x!tt.ptr<i8>>, tensor<64xi32>\n"
      "    %av = tt.load %aa : tensor<64x!tt.ptr<i8>>\n"
      "    %bp = tt.splat %b : !tt.ptr<i8> -> tensor<64x!tt.ptr<i8>>\n"
      "    %ba = tt.addptr %bp, %r : tensor<64x!tt.ptr<i8>>, tensor<64xi32>\n"
      "    %bv = tt.load %ba : tensor<64x!tt.ptr<i8>>\n"
      "    %A = tt.reshape %av : tensor<64xi8> -> tensor<4x16xi8>\n"
      "    %B = tt.reshape %bv : tensor<64xi8> -> tensor<16x4xi8>\n"
      "    %c = arith.constant dense<2147483000> : tensor<4x4xi32>\n"
      "    %D = tt.dot %A, %B, %c, inputPrecision = ieee : tensor<4x16xi8> * tensor<16x4xi8> -> tensor<4x4xi32>\n"
      "    %Dv = tt.reshape %D : tensor<4x4xi32> -> tensor<16xi32>\n"
      "    %r16 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>\n"
      "    %op = tt.splat %o : !tt.ptr<i32> -> tensor<16x!tt.ptr<i32>>\n"
      "    %oa = tt.addptr %op, %r16 : tensor<16x!tt.ptr<i32>>, tensor<16xi32>\n"
      "    tt.store %oa, %Dv : tensor<16x!tt.ptr<i32>>\n"
      "    tt.return\n"
      "  }\n"
      "}\n";
  int8_t a[64], bb[64];
  int32_t o[16];
  for (int i = 0; i < 64; i++) {
    a[i] = (int8_t)(i % 2 ? 127 - i : -128 + 3 * i); /* both signs, the extremes */
    bb[i] = (int8_t)(i % 3 ? -128 + i : 127 - 2 * i);
  }
  buf b[3] = {{a, sizeof a, IR_S_I8}, {bb, sizeof bb, IR_S_I8}, {o, sizeof o, IR_S_I32}};
  run_ok(k, 1, 1, 1, b, 3, NULL, 1, NULL);
  for (int m = 0; m < 4; m++)
    for (int n = 0; n < 4; n++) {
      uint32_t acc = 2147483000u; /* near INT32_MAX: positive sums wrap modulo 2^32 */
      for (int kk = 0; kk < 16; kk++) acc += (uint32_t)((int32_t)a[m * 16 + kk] * (int32_t)bb[kk * 4 + n]);
      assert_int_equal(o[m * 4 + n], (int32_t)acc);
    }
}

/* ---- determinism ---- */
static void test_threads_bit_identical(void **state)
{
  (void)state;
  enum { N = 64 * 37 };
  static float x[N], o1[N], o2[N];
  for (int i = 0; i < N; i++) x[i] = (float)sin(i * 0.37) * 1000.0f;
  for (int t = 1; t <= 2; t++) {
    float *o = t == 1 ? o1 : o2;
    memset(o, 0, sizeof o1);
    buf b[2] = {{x, sizeof x, IR_S_F32}, {o, sizeof o1, IR_S_F32}};
    int64_t sc[1] = {N - 5};
    run_ok(masked_copy, N / 16, 1, 1, b, 2, sc, t, NULL);
  }
  assert_memory_equal(o1, o2, sizeof o1);
}

/* ---- atomics, scans, casts, asserts ---- */
static void test_atomics_sequential_program_order(void **state)
{
  (void)state;
  /* every program does old = atomic_xchg(p, pid); out[pid] = old: the chain of olds pins the order */
  const char *k = "module {\n"
                  "  tt.func public @k(%p: !tt.ptr<i32>, %o: !tt.ptr<i32>) {\n"
                  "    %pid = tt.get_program_id x : i32\n"
                  "    %t = arith.constant true\n"
                  "    %old = tt.atomic_rmw exch, acq_rel, gpu, %p, %pid, %t : (!tt.ptr<i32>, i32, i1) -> i32\n"
                  "    %q = tt.addptr %o, %pid : !tt.ptr<i32>, i32\n"
                  "    tt.store %q, %old : !tt.ptr<i32>\n"
                  "    tt.return\n"
                  "  }\n"
                  "}\n";
  int32_t p[1] = {-1}, o[6];
  buf b[2] = {{p, sizeof p, IR_S_I32}, {o, sizeof o, IR_S_I32}};
  run_ok(k, 6, 1, 1, b, 2, NULL, 2, NULL);
  assert_int_equal(o[0], -1);
  for (int i = 1; i < 6; i++) assert_int_equal(o[i], i - 1);
  assert_int_equal(p[0], 5);
}

static void test_scan_sequential_and_reverse(void **state)
{
  (void)state;
  const char *tmpl = "module {\n"
                     "  tt.func public @k(%x: !tt.ptr<i32>, %o: !tt.ptr<i32>) {\n"
                     "    %r = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>\n"
                     "    %xp = tt.splat %x : !tt.ptr<i32> -> tensor<8x!tt.ptr<i32>>\n"
                     "    %xa = tt.addptr %xp, %r : tensor<8x!tt.ptr<i32>>, tensor<8xi32>\n"
                     "    %v = tt.load %xa : tensor<8x!tt.ptr<i32>>\n"
                     "    %s = \"tt.scan\"(%v) <{axis = 0 : i32, reverse = %s}> ({\n"
                     "    ^bb0(%a: i32, %b: i32):\n"
                     "      %two = arith.constant 2 : i32\n"
                     "      %m = arith.muli %a, %two : i32\n"
                     "      %t = arith.addi %m, %b : i32\n" /* non-commutative: acc*2 + cur */
                     "      tt.scan.return %t : i32\n"
                     "    }) : (tensor<8xi32>) -> tensor<8xi32>\n"
                     "    %op = tt.splat %o : !tt.ptr<i32> -> tensor<8x!tt.ptr<i32>>\n"
                     "    %oa = tt.addptr %op, %r : tensor<8x!tt.ptr<i32>>, tensor<8xi32>\n"
                     "    tt.store %oa, %s : tensor<8x!tt.ptr<i32>>\n"
                     "    tt.return\n"
                     "  }\n"
                     "}\n";
  for (int rev = 0; rev < 2; rev++) {
    char text[2048];
    /* the template has one %s for the reverse flag; escape the rest */
    char esc[2048];
    size_t j = 0;
    for (const char *q = tmpl; *q && j < sizeof esc - 2; q++) {
      if (*q == '%' && strncmp(q, "%s}>", 4) != 0) esc[j++] = '%';
      esc[j++] = *q;
    }
    esc[j] = 0;
    snprintf(text, sizeof text, esc, rev ? "true" : "false");
    int32_t x[8] = {1, 2, 3, 4, 5, 6, 7, 8}, o[8];
    buf b[2] = {{x, sizeof x, IR_S_I32}, {o, sizeof o, IR_S_I32}};
    run_ok(text, 1, 1, 1, b, 2, NULL, 1, NULL);
    int32_t acc = 0;
    for (int s = 0; s < 8; s++) {
      int i = rev ? 7 - s : s;
      acc = s == 0 ? x[i] : acc * 2 + x[i];
      assert_int_equal(o[i], acc);
    }
  }
}

static void test_fp8_downcast_saturates_nan_stays(void **state)
{
  (void)state;
  float x[8] = {1e6f, -1e6f, INFINITY, -INFINITY, NAN, 448.0f, 464.0f, 0.0f};
  uint8_t o[8];
  buf b[3] = {{x, sizeof x, IR_S_F32}, {x, sizeof x, IR_S_F32}, {o, sizeof o, IR_S_F8E4M3FN}};
  ttref_error e;
  memset(&e, 0, sizeof e);
  const char *body = "%c = tt.fp_to_fp %a, rounding = rtne : tensor<8xf32> -> tensor<8xf8E4M3FN>";
  /* binop_kernel uses one type for all pointers; build this one by hand */
  char text[4096];
  snprintf(text, sizeof text,
           "module {\n"
           "  tt.func public @k(%%x: !tt.ptr<f32>, %%y: !tt.ptr<f32>, %%o: !tt.ptr<f8E4M3FN>) {\n"
           "    %%r = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>\n"
           "    %%xp = tt.splat %%x : !tt.ptr<f32> -> tensor<8x!tt.ptr<f32>>\n"
           "    %%xa = tt.addptr %%xp, %%r : tensor<8x!tt.ptr<f32>>, tensor<8xi32>\n"
           "    %%a = tt.load %%xa : tensor<8x!tt.ptr<f32>>\n"
           "    %s\n"
           "    %%op = tt.splat %%o : !tt.ptr<f8E4M3FN> -> tensor<8x!tt.ptr<f8E4M3FN>>\n"
           "    %%oa = tt.addptr %%op, %%r : tensor<8x!tt.ptr<f8E4M3FN>>, tensor<8xi32>\n"
           "    tt.store %%oa, %%c : tensor<8x!tt.ptr<f8E4M3FN>>\n"
           "    tt.return\n"
           "  }\n"
           "}\n",
           body);
  assert_int_equal(run_kernel(text, 1, 1, 1, b, 3, NULL, 1, &e, NULL), TTREF_OK);
  assert_int_equal(o[0], 0x7E); /* +448, max finite */
  assert_int_equal(o[1], 0xFE);
  assert_int_equal(o[2], 0x7E); /* inf saturates too (cvt.rn.satfinite) */
  assert_int_equal(o[3], 0xFE);
  assert_int_equal(o[4] & 0x7F, 0x7F); /* NaN stays NaN */
  assert_int_equal(o[5], 0x7E);
  assert_int_equal(o[6], 0x7E);
  assert_int_equal(o[7], 0x00);
}

static void test_assert_fault_names_lane(void **state)
{
  (void)state;
  const char *k = "module {\n"
                  "  tt.func public @k(%x: !tt.ptr<i32>) {\n"
                  "    %r = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>\n"
                  "    %c2 = arith.constant dense<2> : tensor<4xi32>\n"
                  "    %ok = arith.cmpi slt, %r, %c2 : tensor<4xi32>\n"
                  "    tt.assert %ok, \"r < 2\" : tensor<4xi1>\n"
                  "    tt.return\n"
                  "  }\n"
                  "}\n";
  int32_t x[1] = {0};
  buf b[1] = {{x, sizeof x, IR_S_I32}};
  ttref_error e;
  memset(&e, 0, sizeof e);
  assert_int_equal(run_kernel(k, 1, 1, 1, b, 1, NULL, 1, &e, NULL), TTREF_E_FAULT);
  assert_non_null(strstr(e.msg, "t.ttir:6:"));
  assert_non_null(strstr(e.msg, "r < 2"));
  assert_non_null(strstr(e.msg, "lane 2 (2)"));
}

static void test_one_element_tensor_and_select(void **state)
{
  (void)state;
  const int32_t x[8] = {5, -5, 0, 9, 1, 2, 3, 4};
  const int32_t y[8] = {1, 1, 1, 1, 0, 0, 0, 0};
  int32_t o[8];
  run_i32_binop("%z = arith.constant dense<0> : tensor<8xi32>\n"
                "    %m = arith.cmpi ne, %b, %z : tensor<8xi32>\n"
                "    %c = arith.select %m, %a, %b : tensor<8xi1>, tensor<8xi32>",
                x, y, o, NULL);
  const int32_t want[8] = {5, -5, 0, 9, 0, 0, 0, 0};
  assert_memory_equal(o, want, sizeof want);
  const char *k = "module {\n"
                  "  tt.func public @k(%x: !tt.ptr<f32>, %o: !tt.ptr<f32>) {\n"
                  "    %r = tt.make_range {end = 1 : i32, start = 0 : i32} : tensor<1xi32>\n"
                  "    %xp = tt.splat %x : !tt.ptr<f32> -> tensor<1x!tt.ptr<f32>>\n"
                  "    %xa = tt.addptr %xp, %r : tensor<1x!tt.ptr<f32>>, tensor<1xi32>\n"
                  "    %v = tt.load %xa : tensor<1x!tt.ptr<f32>>\n"
                  "    %s = \"tt.reduce\"(%v) <{axis = 0 : i32}> ({\n"
                  "    ^bb0(%a: f32, %b: f32):\n"
                  "      %t = arith.maxnumf %a, %b : f32\n"
                  "      tt.reduce.return %t : f32\n"
                  "    }) : (tensor<1xf32>) -> f32\n"
                  "    tt.store %o, %s : !tt.ptr<f32>\n"
                  "    tt.return\n"
                  "  }\n"
                  "}\n";
  float xf[1] = {-3.5f}, of[1] = {0};
  buf b2[2] = {{xf, sizeof xf, IR_S_F32}, {of, sizeof of, IR_S_F32}};
  run_ok(k, 1, 1, 1, b2, 2, NULL, 1, NULL);
  assert_true(of[0] == -3.5f);
}

/* ---- dot_scaled ---- */
static double e2m1_ref(unsigned nib) /* OCP MX fp4: 1 sign, 2 exponent, 1 mantissa bits */
{
  static const double mag[8] = {0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0};
  return (nib & 8) ? -mag[nib & 7] : mag[nib & 7];
}

static void test_dot_scaled_e2m1_bf16(void **state)
{
  (void)state;
  const char *k = "module {\n"
                  "  tt.func public @k(%a: !tt.ptr<i8>, %s: !tt.ptr<i8>, %b: !tt.ptr<bf16>, %o: !tt.ptr<f32>) {\n"
                  "    %r32 = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>\n"
                  "    %ap = tt.splat %a : !tt.ptr<i8> -> tensor<32x!tt.ptr<i8>>\n"
                  "    %aa = tt.addptr %ap, %r32 : tensor<32x!tt.ptr<i8>>, tensor<32xi32>\n"
                  "    %av = tt.load %aa : tensor<32x!tt.ptr<i8>>\n"
                  "    %A = tt.reshape %av : tensor<32xi8> -> tensor<2x16xi8>\n"
                  "    %r2 = tt.make_range {end = 2 : i32, start = 0 : i32} : tensor<2xi32>\n"
                  "    %sp = tt.splat %s : !tt.ptr<i8> -> tensor<2x!tt.ptr<i8>>\n"
                  "    %sa = tt.addptr %sp, %r2 : tensor<2x!tt.ptr<i8>>, tensor<2xi32>\n"
                  "    %sv = tt.load %sa : tensor<2x!tt.ptr<i8>>\n"
                  "    %S = tt.reshape %sv : tensor<2xi8> -> tensor<2x1xi8>\n"
                  "    %r64 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>\n"
                  "    %bp = tt.splat %b : !tt.ptr<bf16> -> tensor<64x!tt.ptr<bf16>>\n"
                  "    %ba = tt.addptr %bp, %r64 : tensor<64x!tt.ptr<bf16>>, tensor<64xi32>\n"
                  "    %bv = tt.load %ba : tensor<64x!tt.ptr<bf16>>\n"
                  "    %B = tt.reshape %bv : tensor<64xbf16> -> tensor<32x2xbf16>\n"
                  "    %z = arith.constant dense<0.000000e+00> : tensor<2x2xf32>\n"
                  "    %D = tt.dot_scaled %A scale %S, %B, %z lhs = e2m1 rhs = bf16 {fastMath = false} : "
                  "tensor<2x16xi8>, tensor<2x1xi8> * tensor<32x2xbf16> -> tensor<2x2xf32>\n"
                  "    %Dv = tt.reshape %D : tensor<2x2xf32> -> tensor<4xf32>\n"
                  "    %r4 = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>\n"
                  "    %op = tt.splat %o : !tt.ptr<f32> -> tensor<4x!tt.ptr<f32>>\n"
                  "    %oa = tt.addptr %op, %r4 : tensor<4x!tt.ptr<f32>>, tensor<4xi32>\n"
                  "    tt.store %oa, %Dv : tensor<4x!tt.ptr<f32>>\n"
                  "    tt.return\n"
                  "  }\n"
                  "}\n";
  uint8_t a[32], sc[2] = {127 + 2, 127 - 3};
  uint16_t bb[64];
  float o[4] = {0};
  for (int i = 0; i < 32; i++) a[i] = (uint8_t)((i * 37 + 11) & 0xFF);
  for (int i = 0; i < 64; i++) {
    float v = (float)((i % 7) - 3) * 0.375f; /* exact in bf16 */
    uint32_t u;
    memcpy(&u, &v, 4);
    bb[i] = (uint16_t)(u >> 16);
  }
  buf b[4] = {{a, sizeof a, IR_S_I8}, {sc, sizeof sc, IR_S_I8}, {bb, sizeof bb, IR_S_BF16}, {o, sizeof o, IR_S_F32}};
  run_ok(k, 1, 1, 1, b, 4, NULL, 1, NULL);
  for (int m = 0; m < 2; m++)
    for (int n = 0; n < 2; n++) {
      double acc = 0; /* every product and partial sum here is exact in f32 */
      for (int kk = 0; kk < 32; kk++) {
        uint8_t byte = a[m * 16 + kk / 2];
        double x = e2m1_ref((kk & 1) ? byte >> 4 : byte & 0xF) * ldexp(1.0, sc[m] - 127);
        uint32_t u = (uint32_t)bb[kk * 2 + n] << 16;
        float y;
        memcpy(&y, &u, 4);
        acc += x * (double)y;
      }
      assert_true((double)o[m * 2 + n] == acc);
    }
}

/* ---- descriptor gather / scatter ---- */
static void test_descriptor_gather_scatter_rows(void **state)
{
  (void)state;
  /* x is a 6x8 f32 matrix; gather rows {5, 0, 7(out of bounds), 2} at columns 4..7 (cols 8.. OOB
   * for y=6), scatter them into o at rows {1, 3, 9(out of bounds), 0} */
  const char *k = "module {\n"
                  "  tt.func public @k(%x: !tt.ptr<f32>, %o: !tt.ptr<f32>, %y: i32) {\n"
                  "    %c6 = arith.constant 6 : i32\n"
                  "    %c8 = arith.constant 8 : i32\n"
                  "    %s8 = arith.constant 8 : i64\n"
                  "    %s1 = arith.constant 1 : i64\n"
                  "    %dx = tt.make_tensor_descriptor %x, [%c6, %c8], [%s8, %s1] : <f32>, <tensor<1x4xf32>>\n"
                  "    %do = tt.make_tensor_descriptor %o, [%c6, %c8], [%s8, %s1] : <f32>, <tensor<1x4xf32>>\n"
                  "    %rows = arith.constant dense<[5, 0, 7, 2]> : tensor<4xi32>\n"
                  "    %g = tt.descriptor_gather %dx[%rows, %y] : (!tt.tensordesc<tensor<1x4xf32>>, tensor<4xi32>, "
                  "i32) -> tensor<4x4xf32>\n"
                  "    %orows = arith.constant dense<[1, 3, 9, 0]> : tensor<4xi32>\n"
                  "    tt.descriptor_scatter %do[%orows, %y], %g : !tt.tensordesc<tensor<1x4xf32>>, tensor<4xi32>, "
                  "i32, tensor<4x4xf32>\n"
                  "    tt.return\n"
                  "  }\n"
                  "}\n";
  float x[48], o[48];
  for (int i = 0; i < 48; i++) {
    x[i] = (float)i;
    o[i] = -1.0f;
  }
  buf b[2] = {{x, sizeof x, IR_S_F32}, {o, sizeof o, IR_S_F32}};
  int64_t sc[1] = {6}; /* columns 6..9: 8 and 9 are out of bounds */
  run_ok(k, 1, 1, 1, b, 2, sc, 1, NULL);
  const int src[4] = {5, 0, 7, 2}, dst[4] = {1, 3, 9, 0};
  float want[48];
  for (int i = 0; i < 48; i++) want[i] = -1.0f;
  for (int r = 0; r < 4; r++)
    for (int j = 0; j < 4; j++) {
      int col = (int)sc[0] + j;
      float v = (src[r] < 6 && col < 8) ? x[src[r] * 8 + col] : 0.0f; /* zero padding */
      if (dst[r] < 6 && col < 8) want[dst[r] * 8 + col] = v;
    }
  assert_memory_equal(o, want, sizeof want);
}

/* ---- write-write conflicts between programs ---- */
static const char *racy = "module {\n"
                          "  tt.func public @k(%o: !tt.ptr<i32>) {\n"
                          "    %pid = tt.get_program_id x : i32\n"
                          "    %r = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>\n"
                          "    %op = tt.splat %o : !tt.ptr<i32> -> tensor<4x!tt.ptr<i32>>\n"
                          "    %oa = tt.addptr %op, %r : tensor<4x!tt.ptr<i32>>, tensor<4xi32>\n"
                          "    %v = tt.splat %pid : i32 -> tensor<4xi32>\n"
                          "    tt.store %oa, %v : tensor<4x!tt.ptr<i32>>\n"
                          "    tt.return\n"
                          "  }\n"
                          "}\n";

static void test_racing_stores_end_in_program_order(void **state)
{
  (void)state;
  for (int t = 1; t <= 2; t++) {
    int32_t o[4] = {-1, -1, -1, -1};
    buf b[1] = {{o, sizeof o, IR_S_I32}};
    ttref_error e;
    memset(&e, 0, sizeof e);
    interp_stats s;
    assert_int_equal(run_kernel(racy, 257, 1, 1, b, 1, NULL, t, &e, &s), TTREF_OK);
    for (int i = 0; i < 4; i++) assert_int_equal(o[i], 256); /* the highest program wins, any thread count */
#ifdef _OPENMP
    if (t == 2) assert_true(s.races > 0); /* seen only when programs really ran concurrently */
#endif
  }
}

/* a read-modify-write race: each program does o[0] = f(o[0], pid); the result is the
 * program-order one for any thread count, and a parallel run reports the race */
static const char *racy_rmw = "module {\n"
                              "  tt.func public @k(%o: !tt.ptr<i32>) {\n"
                              "    %pid = tt.get_program_id x : i32\n"
                              "    %v = tt.load %o : !tt.ptr<i32>\n"
                              "    %c3 = arith.constant 3 : i32\n"
                              "    %m = arith.muli %v, %c3 : i32\n"
                              "    %s = arith.addi %m, %pid : i32\n"
                              "    tt.store %o, %s : !tt.ptr<i32>\n"
                              "    tt.return\n"
                              "  }\n"
                              "}\n";

static void test_racing_rmw_same_for_any_thread_count(void **state)
{
  (void)state;
  uint32_t want = 0; /* the sequential recurrence, in 32-bit wrapping arithmetic */
  for (uint32_t p = 0; p < 500; p++) want = want * 3u + p;
  for (int t = 1; t <= 4; t++)
    for (int rep = 0; rep < 3; rep++) {
      int32_t o[1] = {0};
      buf b[1] = {{o, sizeof o, IR_S_I32}};
      ttref_error e;
      memset(&e, 0, sizeof e);
      interp_stats s;
      assert_int_equal(run_kernel(racy_rmw, 500, 1, 1, b, 1, NULL, t, &e, &s), TTREF_OK);
      assert_int_equal((uint32_t)o[0], want);
#ifdef _OPENMP
      if (t > 1) assert_int_equal(s.races, 1); /* found whatever the interleaving */
#endif
      if (t == 1) assert_int_equal(s.races, 0);
    }
}

/* runs of lanes are logged as spans and compared after a parallel launch: program p stores
 * pid into o[p*stride .. p*stride+7]; stride 8 tiles the buffer (no race), stride 4 overlaps each
 * neighbour by 4 lanes (a write-write race between runs) */
static const char *span_store_fmt = "module {\n"
                                    "  tt.func public @k(%%o: !tt.ptr<i32>) {\n"
                                    "    %%pid = tt.get_program_id x : i32\n"
                                    "    %%c = arith.constant %d : i32\n"
                                    "    %%base = arith.muli %%pid, %%c : i32\n"
                                    "    %%r = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>\n"
                                    "    %%b = tt.splat %%base : i32 -> tensor<8xi32>\n"
                                    "    %%idx = arith.addi %%b, %%r : tensor<8xi32>\n"
                                    "    %%op = tt.splat %%o : !tt.ptr<i32> -> tensor<8x!tt.ptr<i32>>\n"
                                    "    %%oa = tt.addptr %%op, %%idx : tensor<8x!tt.ptr<i32>>, tensor<8xi32>\n"
                                    "    %%v = tt.splat %%pid : i32 -> tensor<8xi32>\n"
                                    "    tt.store %%oa, %%v : tensor<8x!tt.ptr<i32>>\n"
                                    "    tt.return\n"
                                    "  }\n"
                                    "}\n";

static void test_span_races_found_after_launch(void **state)
{
  (void)state;
  enum { G = 64 };
  char text[2048];
  for (int stride = 4; stride <= 8; stride += 4) {
    snprintf(text, sizeof text, span_store_fmt, stride);
    for (int t = 1; t <= 4; t++) {
      int32_t o[G * 8 + 8];
      for (int i = 0; i < G * 8 + 8; i++) o[i] = -1;
      buf b[1] = {{o, sizeof o, IR_S_I32}};
      interp_stats s;
      run_ok(text, G, 1, 1, b, 1, NULL, t, &s);
      for (int i = 0; i < G * 8 + 8; i++) {
        int last = -1; /* the highest program whose lanes cover i: program order */
        for (int p = 0; p < G; p++)
          if (i >= p * stride && i < p * stride + 8) last = p;
        assert_int_equal(o[i], last);
      }
#ifdef _OPENMP
      assert_int_equal(s.races, stride == 4 && t > 1 ? 1 : 0); /* whatever the interleaving */
#else
      assert_int_equal(s.races, 0);
#endif
    }
  }
}

/* program p first reads the next program's 8 lanes of o (as one run, or one lane as a scalar
 * load), copies them to q, then writes its own 8 lanes of o: a read-write race between a span and
 * a span, or a span and an element owner; the result is the program-order one */
static const char *span_read_fmt = "module {\n"
                                   "  tt.func public @k(%%o: !tt.ptr<i32>, %%q: !tt.ptr<i32>) {\n"
                                   "    %%pid = tt.get_program_id x : i32\n"
                                   "    %%n = tt.get_num_programs x : i32\n"
                                   "    %%c1 = arith.constant 1 : i32\n"
                                   "    %%c8 = arith.constant 8 : i32\n"
                                   "    %%base = arith.muli %%pid, %%c8 : i32\n"
                                   "    %%nx = arith.addi %%pid, %%c1 : i32\n"
                                   "    %%nxm = arith.remsi %%nx, %%n : i32\n"
                                   "    %%nb = arith.muli %%nxm, %%c8 : i32\n"
                                   "    %%r = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>\n"
                                   "    %%b = tt.splat %%base : i32 -> tensor<8xi32>\n"
                                   "    %%idx = arith.addi %%b, %%r : tensor<8xi32>\n"
                                   "    %%op = tt.splat %%o : !tt.ptr<i32> -> tensor<8x!tt.ptr<i32>>\n"
                                   "    %%qp = tt.splat %%q : !tt.ptr<i32> -> tensor<8x!tt.ptr<i32>>\n"
                                   "    %%qa = tt.addptr %%qp, %%idx : tensor<8x!tt.ptr<i32>>, tensor<8xi32>\n"
                                   "%s"
                                   "    %%oa = tt.addptr %%op, %%idx : tensor<8x!tt.ptr<i32>>, tensor<8xi32>\n"
                                   "    %%v = tt.splat %%pid : i32 -> tensor<8xi32>\n"
                                   "    tt.store %%oa, %%v : tensor<8x!tt.ptr<i32>>\n"
                                   "    tt.return\n"
                                   "  }\n"
                                   "}\n";
static const char *read_run = "    %nbs = tt.splat %nb : i32 -> tensor<8xi32>\n"
                              "    %nidx = arith.addi %nbs, %r : tensor<8xi32>\n"
                              "    %np = tt.addptr %op, %nidx : tensor<8x!tt.ptr<i32>>, tensor<8xi32>\n"
                              "    %nv = tt.load %np : tensor<8x!tt.ptr<i32>>\n"
                              "    tt.store %qa, %nv : tensor<8x!tt.ptr<i32>>\n";
static const char *read_lane = "    %sp = tt.addptr %o, %nb : !tt.ptr<i32>, i32\n"
                               "    %sv = tt.load %sp : !tt.ptr<i32>\n"
                               "    %svs = tt.splat %sv : i32 -> tensor<8xi32>\n"
                               "    tt.store %qa, %svs : tensor<8x!tt.ptr<i32>>\n";

static void test_span_read_write_races(void **state)
{
  (void)state;
  enum { G = 48 };
  char text[4096];
  for (int lane = 0; lane < 2; lane++) {
    snprintf(text, sizeof text, span_read_fmt, lane ? read_lane : read_run);
    for (int t = 1; t <= 4; t++) {
      int32_t o[G * 8], q[G * 8];
      for (int i = 0; i < G * 8; i++) o[i] = 1000 + i, q[i] = -1;
      buf b[2] = {{o, sizeof o, IR_S_I32}, {q, sizeof q, IR_S_I32}};
      interp_stats s;
      run_ok(text, G, 1, 1, b, 2, NULL, t, &s);
      for (int p = 0; p < G; p++)
        for (int j = 0; j < 8; j++) {
          assert_int_equal(o[p * 8 + j], p);
          /* program order: the next program has not written yet, except program 0 for the last */
          const int src = ((p + 1) % G) * 8 + (lane ? 0 : j);
          assert_int_equal(q[p * 8 + j], p == G - 1 ? 0 : 1000 + src);
        }
#ifdef _OPENMP
      assert_int_equal(s.races, t > 1 ? 1 : 0);
#else
      assert_int_equal(s.races, 0);
#endif
    }
  }
}

static void set_max_steps(interp_launch *L, void *ud)
{
  (void)ud;
  L->max_steps = 1000;
}

/* a loop that loads and stores each program's own 8 lanes 1000 times: the span log keeps one span
 * per program and access kind (the recent spans merge), and no race is found */
static const char *span_loop = "module {\n"
                               "  tt.func public @k(%o: !tt.ptr<i32>) {\n"
                               "    %pid = tt.get_program_id x : i32\n"
                               "    %c8 = arith.constant 8 : i32\n"
                               "    %base = arith.muli %pid, %c8 : i32\n"
                               "    %r = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>\n"
                               "    %b = tt.splat %base : i32 -> tensor<8xi32>\n"
                               "    %idx = arith.addi %b, %r : tensor<8xi32>\n"
                               "    %op = tt.splat %o : !tt.ptr<i32> -> tensor<8x!tt.ptr<i32>>\n"
                               "    %oa = tt.addptr %op, %idx : tensor<8x!tt.ptr<i32>>, tensor<8xi32>\n"
                               "    %one = arith.constant dense<1> : tensor<8xi32>\n"
                               "    %c0 = arith.constant 0 : i32\n"
                               "    %c1 = arith.constant 1 : i32\n"
                               "    %n = arith.constant 1000 : i32\n"
                               "    scf.for %i = %c0 to %n step %c1 : i32 {\n"
                               "      %v = tt.load %oa : tensor<8x!tt.ptr<i32>>\n"
                               "      %w = arith.addi %v, %one : tensor<8xi32>\n"
                               "      tt.store %oa, %w : tensor<8x!tt.ptr<i32>>\n"
                               "    }\n"
                               "    tt.return\n"
                               "  }\n"
                               "}\n";

static void test_span_log_merges_loop_accesses(void **state)
{
  (void)state;
  enum { G = 64 };
  for (int t = 1; t <= 2; t++) {
    int32_t o[G * 8];
    for (int i = 0; i < G * 8; i++) o[i] = i;
    buf b[1] = {{o, sizeof o, IR_S_I32}};
    ttref_error e;
    memset(&e, 0, sizeof e);
    interp_stats s;
    unit_alloc_begin(0);
    const ttref_status st = run_kernel(span_loop, G, 1, 1, b, 1, NULL, t, &e, &s);
    const unit_alloc_stats a = unit_alloc_end(); /* before any assertion: a failure leaves the default allocator */
    if (st != TTREF_OK) fail_msg("status %d: %s", (int)st, e.msg);
    for (int i = 0; i < G * 8; i++) assert_int_equal(o[i], i + 1000);
    assert_int_equal(s.races, 0);
    print_message("# threads %d: largest block %zu bytes\n", t, a.max_block);
    /* unmerged, a thread's log would hold 32 programs x 2000 spans (1.5 MB); merged, one block of
     * 1024 spans (24 KiB) holds them (the parser's 64 KiB arena chunks are the largest block then) */
    assert_true(a.max_block < 256 * 1024);
  }
}

/* tt.scan along the contiguous axis with a one-op combine runs as one typed recurrence
 * (interp_fbin_of(...)->scan): bit for bit the region path's result, forward and reverse, with the
 * operands either way round, in f32 (one float rounding) and f16 (rnd) */
static const char *scan_forms_fmt = "module {\n"
                                    "  tt.func public @k(%%x: !tt.ptr<%1$s>, %%o: !tt.ptr<%1$s>) {\n"
                                    "    %%r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>\n"
                                    "    %%xp = tt.splat %%x : !tt.ptr<%1$s> -> tensor<64x!tt.ptr<%1$s>>\n"
                                    "    %%xa = tt.addptr %%xp, %%r : tensor<64x!tt.ptr<%1$s>>, tensor<64xi32>\n"
                                    "    %%xv = tt.load %%xa : tensor<64x!tt.ptr<%1$s>>\n"
                                    "    %%X = tt.reshape %%xv : tensor<64x%1$s> -> tensor<4x16x%1$s>\n"
                                    "    %%one = arith.constant 1.000000e+00 : %1$s\n"
                                    "    %%s0 = \"tt.scan\"(%%X) <{axis = 1 : i32, reverse = false}> ({\n"
                                    "    ^bb0(%%a: %1$s, %%b: %1$s):\n"
                                    "      %%t = arith.addf %%a, %%b : %1$s\n"
                                    "      tt.scan.return %%t : %1$s\n"
                                    "    }) : (tensor<4x16x%1$s>) -> tensor<4x16x%1$s>\n"
                                    "    %%s1 = \"tt.scan\"(%%X) <{axis = 1 : i32, reverse = true}> ({\n"
                                    "    ^bb0(%%a: %1$s, %%b: %1$s):\n"
                                    "      %%t = arith.subf %%b, %%a : %1$s\n"
                                    "      tt.scan.return %%t : %1$s\n"
                                    "    }) : (tensor<4x16x%1$s>) -> tensor<4x16x%1$s>\n"
                                    "    %%s2 = \"tt.scan\"(%%X) <{axis = 1 : i32, reverse = false}> ({\n"
                                    "    ^bb0(%%a: %1$s, %%b: %1$s):\n"
                                    "      %%t = arith.addf %%a, %%b : %1$s\n"
                                    "      %%u = arith.mulf %%t, %%one : %1$s\n"
                                    "      tt.scan.return %%u : %1$s\n"
                                    "    }) : (tensor<4x16x%1$s>) -> tensor<4x16x%1$s>\n"
                                    "    %%s3 = \"tt.scan\"(%%X) <{axis = 1 : i32, reverse = true}> ({\n"
                                    "    ^bb0(%%a: %1$s, %%b: %1$s):\n"
                                    "      %%t = arith.subf %%b, %%a : %1$s\n"
                                    "      %%u = arith.mulf %%t, %%one : %1$s\n"
                                    "      tt.scan.return %%u : %1$s\n"
                                    "    }) : (tensor<4x16x%1$s>) -> tensor<4x16x%1$s>\n"
                                    "    %%c = tt.join %%s0, %%s1 : tensor<4x16x%1$s> -> tensor<4x16x2x%1$s>\n"
                                    "    %%d = tt.join %%s2, %%s3 : tensor<4x16x%1$s> -> tensor<4x16x2x%1$s>\n"
                                    "    %%e = tt.join %%c, %%d : tensor<4x16x2x%1$s> -> tensor<4x16x2x2x%1$s>\n"
                                    "    %%ev = tt.reshape %%e : tensor<4x16x2x2x%1$s> -> tensor<256x%1$s>\n"
                                    "    %%r2 = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>\n"
                                    "    %%op = tt.splat %%o : !tt.ptr<%1$s> -> tensor<256x!tt.ptr<%1$s>>\n"
                                    "    %%oa = tt.addptr %%op, %%r2 : tensor<256x!tt.ptr<%1$s>>, tensor<256xi32>\n"
                                    "    tt.store %%oa, %%ev : tensor<256x!tt.ptr<%1$s>>\n"
                                    "    tt.return\n"
                                    "  }\n"
                                    "}\n";

static void test_scan_typed_recurrence_equals_region(void **state)
{
  (void)state;
  char text[8192];
  for (int h = 0; h < 2; h++) {
    snprintf(text, sizeof text, scan_forms_fmt, h ? "f16" : "f32");
    float x[64];
    uint16_t xh[64];
    for (int i = 0; i < 64; i++) {
      x[i] = (float)((i * 37) % 19 - 9) * ldexpf(1.0f, (i * 5) % 13 - 6) + (float)i * 1e-3f;
      _Float16 v = (_Float16)x[i];
      memcpy(&xh[i], &v, 2);
    }
    x[5] = -0.0f;
    uint8_t o[256 * 4];
    memset(o, 0, sizeof o);
    const int es = h ? 2 : 4;
    buf b[2] = {{h ? (void *)xh : (void *)x, (size_t)(64 * es), h ? IR_S_F16 : IR_S_F32},
                {o, (size_t)(256 * es), h ? IR_S_F16 : IR_S_F32}};
    run_ok(text, 1, 1, 1, b, 2, NULL, 1, NULL);
    /* lane (i, j, p, q) of the joined result is at ((i*16 + j)*2 + p)*2 + q: q 0 = typed, 1 = region */
    int differ = 0, nonzero = 0;
    for (int e = 0; e < 128; e++) {
      if (memcmp(o + (2 * e) * es, o + (2 * e + 1) * es, (size_t)es) != 0) differ++;
      for (int k = 0; k < es; k++) nonzero += o[(2 * e) * es + k] != 0;
    }
    assert_int_equal(differ, 0);
    assert_true(nonzero > 0);
  }
}

/* loops of terminators only are stopped by max_steps */
static void test_max_steps_counts_terminators(void **state)
{
  (void)state;
  static const char *const loops[] = {
      "module {\n  tt.func public @k(%o: !tt.ptr<i32>) {\n    cf.br ^bb1\n  ^bb1:\n    cf.br ^bb1\n  }\n}\n",
      "module {\n  tt.func public @k(%o: !tt.ptr<i32>) {\n    %t = arith.constant true\n"
      "    scf.while : () -> () {\n      scf.condition(%t)\n    } do {\n      scf.yield\n    }\n    tt.return\n  "
      "}\n}\n",
  };
  const unit_hooks hk = {set_max_steps, NULL, NULL};
  const int64_t grid[3] = {1, 1, 1};
  for (int k = 0; k < 2; k++) {
    int32_t o[1] = {0};
    buf b[1] = {{o, sizeof o, IR_S_I32}};
    ttref_error e;
    memset(&e, 0, sizeof e);
    assert_int_equal(unit_run_kernel(loops[k], grid, b, 1, NULL, 1, &hk, &e, NULL), TTREF_E_FAULT);
    assert_non_null(strstr(e.msg, "executed more than 1000 ops"));
  }
}

/* address arithmetic that overflows 64 bits faults instead of wrapping */
static void test_addptr_overflow_faults(void **state)
{
  (void)state;
  const char *k = "module {\n"
                  "  tt.func public @k(%o: !tt.ptr<i32>, %off: i64) {\n"
                  "    %p = tt.addptr %o, %off : !tt.ptr<i32>, i64\n"
                  "    %c = arith.constant 7 : i32\n"
                  "    tt.store %p, %c : !tt.ptr<i32>\n"
                  "    tt.return\n"
                  "  }\n"
                  "}\n";
  int32_t o[2] = {0, 0};
  buf b[1] = {{o, sizeof o, IR_S_I32}};
  ttref_error e;
  memset(&e, 0, sizeof e);
  const int64_t off[1] = {INT64_MIN}; /* -2^63 * 4 wraps to +0 in 64 bits */
  assert_int_equal(run_kernel(k, 1, 1, 1, b, 1, off, 1, &e, NULL), TTREF_E_FAULT);
  assert_non_null(strstr(e.msg, "the address overflowed 64 bits"));
  assert_int_equal(o[0], 0);
}

/* tensor addptr (the vectorised pass, and the checked loop it falls back to) against C: offsets at
 * and beyond +-2^59 (where the pass hands over to the checked loop) give exact addresses, and a lane
 * whose address overflows faults naming that lane, whichever operand is a splat */
static void test_addptr_tensor_matches_checked_oracle(void **state)
{
  (void)state;
  const char *k = "module {\n"
                  "  tt.func public @k(%x: !tt.ptr<i32>, %offs: !tt.ptr<i64>, %o: !tt.ptr<i64>) {\n"
                  "    %r = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>\n"
                  "    %fp = tt.splat %offs : !tt.ptr<i64> -> tensor<8x!tt.ptr<i64>>\n"
                  "    %fa = tt.addptr %fp, %r : tensor<8x!tt.ptr<i64>>, tensor<8xi32>\n"
                  "    %off = tt.load %fa : tensor<8x!tt.ptr<i64>>\n"
                  "    %xp = tt.splat %x : !tt.ptr<i32> -> tensor<8x!tt.ptr<i32>>\n"
                  "    %a = tt.addptr %xp, %off : tensor<8x!tt.ptr<i32>>, tensor<8xi64>\n"
                  "    %b = tt.addptr %a, %r : tensor<8x!tt.ptr<i32>>, tensor<8xi32>\n"
                  "    %ai = tt.ptr_to_int %b : tensor<8x!tt.ptr<i32>> -> tensor<8xi64>\n"
                  "    %op = tt.splat %o : !tt.ptr<i64> -> tensor<8x!tt.ptr<i64>>\n"
                  "    %oa = tt.addptr %op, %r : tensor<8x!tt.ptr<i64>>, tensor<8xi32>\n"
                  "    tt.store %oa, %ai : tensor<8x!tt.ptr<i64>>\n"
                  "    tt.return\n"
                  "  }\n"
                  "}\n";
  const int64_t p59 = INT64_C(1) << 59;
  const int64_t ok_sets[3][8] = {
      {0, 1, -1, 1000, -1000, p59 - 1, -p59, p59},
      {p59 + 12345, -p59 - 7, INT64_C(1) << 60, -(INT64_C(1) << 60), 3, -3, 0, 1 << 30},
      {INT32_MAX, INT32_MIN, 0, 0, 0, 0, 0, 0},
  };
  for (int set = 0; set < 3; set++) {
    int32_t x[1] = {0};
    int64_t offs[8], o[8] = {0};
    memcpy(offs, ok_sets[set], sizeof offs);
    buf b[3] = {{x, sizeof x, IR_S_I32}, {offs, sizeof offs, IR_S_I64}, {o, sizeof o, IR_S_I64}};
    ttref_error e;
    memset(&e, 0, sizeof e);
    if (run_kernel(k, 1, 1, 1, b, 3, NULL, 1, &e, NULL) != TTREF_OK) fail_msg("set %d: %s", set, e.msg);
    /* lane 0 of set 0 is x + 0 + 0: the base address of x */
    static int64_t base;
    if (set == 0) base = o[0];
    for (int i = 0; i < 8; i++) {
      const int64_t want = base + offs[i] * 4 + i * 4; /* no overflow: |offs| <= 2^60, base < 2^45 */
      if (o[i] != want) fail_msg("set %d lane %d: %lld, want %lld", set, i, (long long)o[i], (long long)want);
    }
  }
  /* the first lane whose address overflows is the one named */
  int32_t x[1] = {0};
  int64_t offs[8] = {0, 1, 2, INT64_C(1) << 61, INT64_MAX, 5, 6, 7}, o[8] = {0};
  buf b[3] = {{x, sizeof x, IR_S_I32}, {offs, sizeof offs, IR_S_I64}, {o, sizeof o, IR_S_I64}};
  ttref_error e;
  memset(&e, 0, sizeof e);
  assert_int_equal(run_kernel(k, 1, 1, 1, b, 3, NULL, 1, &e, NULL), TTREF_E_FAULT);
  if (!strstr(e.msg, "the address overflowed 64 bits") || !strstr(e.msg, "lane 3")) fail_msg("%s", e.msg);
  for (int i = 0; i < 8; i++) assert_int_equal(o[i], 0);
}

/* tt.load / tt.store runs with gathered offsets and a loaded mask: runs broken inside and at the
 * edges of the 8-lane blocks the run search tests at once, against a C oracle */
static void test_load_store_runs_break_anywhere(void **state)
{
  (void)state;
  const char *k = "module {\n"
                  "  tt.func public @k(%x: !tt.ptr<f32>, %offs: !tt.ptr<i32>, %msk: !tt.ptr<i8>, %o: !tt.ptr<f32>, "
                  "%o2: !tt.ptr<f32>) {\n"
                  "    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>\n"
                  "    %fp = tt.splat %offs : !tt.ptr<i32> -> tensor<64x!tt.ptr<i32>>\n"
                  "    %fa = tt.addptr %fp, %r : tensor<64x!tt.ptr<i32>>, tensor<64xi32>\n"
                  "    %off = tt.load %fa : tensor<64x!tt.ptr<i32>>\n"
                  "    %mp = tt.splat %msk : !tt.ptr<i8> -> tensor<64x!tt.ptr<i8>>\n"
                  "    %ma = tt.addptr %mp, %r : tensor<64x!tt.ptr<i8>>, tensor<64xi32>\n"
                  "    %mv = tt.load %ma : tensor<64x!tt.ptr<i8>>\n"
                  "    %z = arith.constant dense<0> : tensor<64xi8>\n"
                  "    %m = arith.cmpi ne, %mv, %z : tensor<64xi8>\n"
                  "    %xp = tt.splat %x : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>\n"
                  "    %xa = tt.addptr %xp, %off : tensor<64x!tt.ptr<f32>>, tensor<64xi32>\n"
                  "    %other = arith.constant dense<-1.000000e+00> : tensor<64xf32>\n"
                  "    %v = tt.load %xa, %m, %other : tensor<64x!tt.ptr<f32>>\n"
                  "    %op = tt.splat %o : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>\n"
                  "    %oa = tt.addptr %op, %r : tensor<64x!tt.ptr<f32>>, tensor<64xi32>\n"
                  "    tt.store %oa, %v : tensor<64x!tt.ptr<f32>>\n"
                  "    %o2p = tt.splat %o2 : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>\n"
                  "    %o2a = tt.addptr %o2p, %off : tensor<64x!tt.ptr<f32>>, tensor<64xi32>\n"
                  "    tt.store %o2a, %v, %m : tensor<64x!tt.ptr<f32>>\n"
                  "    tt.return\n"
                  "  }\n"
                  "}\n";
  float x[128], o[64], o2[128];
  int32_t offs[64];
  int8_t msk[64];
  for (int i = 0; i < 128; i++) x[i] = (float)i + 0.5f;
  for (int round = 0; round < 4; round++) {
    int32_t base = 0;
    for (int i = 0; i < 64; i++) { /* contiguous, with jumps at lanes that vary by round */
      if (i == 5 + round || i == 8 || i == 16 + round || i == 23 || i == 40 + 2 * round || i == 63) base += 3;
      offs[i] = base + i;
      msk[i] = !(i == 3 || i == 17 + round || i == 31 || i == 32 || i == 56 + round || (round == 3 && i >= 48));
    }
    for (int i = 0; i < 64; i++) o[i] = 0;
    for (int i = 0; i < 128; i++) o2[i] = 0;
    buf b[5] = {{x, sizeof x, IR_S_F32},
                {offs, sizeof offs, IR_S_I32},
                {msk, sizeof msk, IR_S_I8},
                {o, sizeof o, IR_S_F32},
                {o2, sizeof o2, IR_S_F32}};
    ttref_error e;
    memset(&e, 0, sizeof e);
    if (run_kernel(k, 1, 1, 1, b, 5, NULL, 1, &e, NULL) != TTREF_OK) fail_msg("round %d: %s", round, e.msg);
    float want2[128] = {0};
    for (int i = 0; i < 64; i++) {
      const float want = msk[i] ? x[offs[i]] : -1.0f;
      if (o[i] != want) fail_msg("round %d load lane %d: %g, want %g", round, i, (double)o[i], (double)want);
      if (msk[i]) want2[offs[i]] = want;
    }
    for (int i = 0; i < 128; i++)
      if (o2[i] != want2[i])
        fail_msg("round %d store element %d: %g, want %g", round, i, (double)o2[i], (double)want2[i]);
  }
}

/* ---- calls and branches ---- */
static void test_call_and_cond_br(void **state)
{
  (void)state;
  /* o[i] = f(x[i], 3) where f(a, b) = a * b + 1 is a noinline tt.func; lanes of program 1 return
   * early through cf.cond_br without storing */
  const char *k = "module {\n"
                  "  tt.func private @f(%a: tensor<4xi32>, %b: i32) -> tensor<4xi32> attributes {noinline = true} {\n"
                  "    %bs = tt.splat %b : i32 -> tensor<4xi32>\n"
                  "    %m = arith.muli %a, %bs : tensor<4xi32>\n"
                  "    %one = arith.constant dense<1> : tensor<4xi32>\n"
                  "    %r = arith.addi %m, %one : tensor<4xi32>\n"
                  "    tt.return %r : tensor<4xi32>\n"
                  "  }\n"
                  "  tt.func public @k(%x: !tt.ptr<i32>, %o: !tt.ptr<i32>) {\n"
                  "    %pid = tt.get_program_id x : i32\n"
                  "    %c1 = arith.constant 1 : i32\n"
                  "    %skip = arith.cmpi eq, %pid, %c1 : i32\n"
                  "    cf.cond_br %skip, ^bb2, ^bb1(%pid : i32)\n"
                  "  ^bb1(%p: i32):\n"
                  "    %c4 = arith.constant 4 : i32\n"
                  "    %base = arith.muli %p, %c4 : i32\n"
                  "    %r = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>\n"
                  "    %bs = tt.splat %base : i32 -> tensor<4xi32>\n"
                  "    %off = arith.addi %bs, %r : tensor<4xi32>\n"
                  "    %xp = tt.splat %x : !tt.ptr<i32> -> tensor<4x!tt.ptr<i32>>\n"
                  "    %xa = tt.addptr %xp, %off : tensor<4x!tt.ptr<i32>>, tensor<4xi32>\n"
                  "    %v = tt.load %xa : tensor<4x!tt.ptr<i32>>\n"
                  "    %c3 = arith.constant 3 : i32\n"
                  "    %y = tt.call @f(%v, %c3) : (tensor<4xi32>, i32) -> tensor<4xi32>\n"
                  "    %op = tt.splat %o : !tt.ptr<i32> -> tensor<4x!tt.ptr<i32>>\n"
                  "    %oa = tt.addptr %op, %off : tensor<4x!tt.ptr<i32>>, tensor<4xi32>\n"
                  "    tt.store %oa, %y : tensor<4x!tt.ptr<i32>>\n"
                  "    cf.br ^bb2\n"
                  "  ^bb2:\n"
                  "    tt.return\n"
                  "  }\n"
                  "}\n";
  int32_t x[12], o[12];
  for (int i = 0; i < 12; i++) {
    x[i] = i - 5;
    o[i] = 99;
  }
  buf b[2] = {{x, sizeof x, IR_S_I32}, {o, sizeof o, IR_S_I32}};
  run_ok(k, 3, 1, 1, b, 2, NULL, 2, NULL);
  for (int i = 0; i < 12; i++) assert_int_equal(o[i], (i >= 4 && i < 8) ? 99 : x[i] * 3 + 1);
}

/* ---- NaN payloads through memory and bitcast ---- */
static void test_bitcast_keeps_signaling_nan(void **state)
{
  (void)state;
  const char *k = "module {\n"
                  "  tt.func public @k(%x: !tt.ptr<f32>, %o: !tt.ptr<i32>) {\n"
                  "    %r = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>\n"
                  "    %xp = tt.splat %x : !tt.ptr<f32> -> tensor<4x!tt.ptr<f32>>\n"
                  "    %xa = tt.addptr %xp, %r : tensor<4x!tt.ptr<f32>>, tensor<4xi32>\n"
                  "    %v = tt.load %xa : tensor<4x!tt.ptr<f32>>\n"
                  "    %b = tt.bitcast %v : tensor<4xf32> -> tensor<4xi32>\n"
                  "    %op = tt.splat %o : !tt.ptr<i32> -> tensor<4x!tt.ptr<i32>>\n"
                  "    %oa = tt.addptr %op, %r : tensor<4x!tt.ptr<i32>>, tensor<4xi32>\n"
                  "    tt.store %oa, %b : tensor<4x!tt.ptr<i32>>\n"
                  "    tt.return\n"
                  "  }\n"
                  "}\n";
  const uint32_t bits[4] = {0x7F9E1234u, 0xFFA00001u, 0x7FC00000u, 0x3F800000u}; /* sNaN, -sNaN, qNaN, 1.0 */
  uint32_t x[4], o[4];
  memcpy(x, bits, sizeof x);
  buf b[2] = {{x, sizeof x, IR_S_F32}, {o, sizeof o, IR_S_I32}};
  run_ok(k, 1, 1, 1, b, 2, NULL, 1, NULL);
  assert_memory_equal(o, bits, sizeof bits);
}

/* Triton's test_histogram_out_of_range: [0, 1, 2, 3, 4, 4, 5, -1] into 4 bins is [1, 1, 1, 1]. */
static void test_histogram_drops_out_of_range(void **state)
{
  (void)state;
  const char *k = "module {\n"
                  "  tt.func public @k(%x: !tt.ptr<i32>, %o: !tt.ptr<i32>) {\n"
                  "    %r = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>\n"
                  "    %xp = tt.splat %x : !tt.ptr<i32> -> tensor<8x!tt.ptr<i32>>\n"
                  "    %xa = tt.addptr %xp, %r : tensor<8x!tt.ptr<i32>>, tensor<8xi32>\n"
                  "    %v = tt.load %xa : tensor<8x!tt.ptr<i32>>\n"
                  "    %h = tt.histogram %v : tensor<8xi32> -> tensor<4xi32>\n"
                  "    %r4 = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>\n"
                  "    %op = tt.splat %o : !tt.ptr<i32> -> tensor<4x!tt.ptr<i32>>\n"
                  "    %oa = tt.addptr %op, %r4 : tensor<4x!tt.ptr<i32>>, tensor<4xi32>\n"
                  "    tt.store %oa, %h : tensor<4x!tt.ptr<i32>>\n"
                  "    tt.return\n"
                  "  }\n"
                  "}\n";
  int32_t x[8] = {0, 1, 2, 3, 4, 4, 5, -1}, o[5] = {7, 7, 7, 7, 7};
  buf b[2] = {{x, sizeof x, IR_S_I32}, {o, sizeof o, IR_S_I32}};
  run_ok(k, 1, 1, 1, b, 2, NULL, 1, NULL);
  const int32_t want[5] = {1, 1, 1, 1, 7}; /* nothing written past the bins */
  assert_memory_equal(o, want, sizeof want);
}

/* ---- ops from the table ---- */
/* math.tan (one row of ir_op_list.h, no kernel code of its own): correctly rounded to f32.
 * Oracle: sinl/cosl in long double (independent of fp_math's tan), usable where the ratio is
 * far from an f32 rounding boundary, which is asserted. */
static void test_math_tan_correctly_rounded(void **state)
{
  (void)state;
  const float x[8] = {0.5f, -1.25f, 1.57079637f, 100.0f, 1e-30f, -0.0f, INFINITY, NAN};
  float xin[8], y[8] = {0}, o[8];
  memcpy(xin, x, sizeof xin);
  memset(o, 0x55, sizeof o);
  buf b[3] = {{xin, 32, IR_S_F32}, {y, 32, IR_S_F32}, {o, 32, IR_S_F32}};
  ttref_error e;
  memset(&e, 0, sizeof e);
  ttref_status st =
      run_kernel(binop_kernel("%c = math.tan %a : tensor<8xf32>", "f32"), 1, 1, 1, b, 3, NULL, 1, &e, NULL);
  if (st) fprintf(stderr, "%s\n", e.msg);
  assert_int_equal(st, TTREF_OK);
  for (int i = 0; i < 5; i++) {
    long double t = sinl((long double)x[i]) / cosl((long double)x[i]);
    float want = (float)t;
    /* the nearest f32 boundary (a midpoint) must be much farther than the oracle's error */
    float up = nextafterf(want, INFINITY), dn = nextafterf(want, -INFINITY);
    long double lo = ((long double)want + dn) / 2, hi = ((long double)want + up) / 2;
    assert_true(fminl(fabsl(t - lo), fabsl(t - hi)) > fabsl(t) * 0x1p-56L);
    if (memcmp(&o[i], &want, sizeof want))
      fprintf(stderr, "tan(%a) = %a, want %a\n", (double)x[i], (double)o[i], (double)want);
    assert_memory_equal(&o[i], &want, sizeof want);
  }
  const float mz = -0.0f;
  assert_memory_equal(&o[5], &mz, sizeof mz); /* tan(-0) = -0 */
  assert_true(isnan(o[6]));                   /* tan(inf) = NaN */
  assert_true(isnan(o[7]));
  assert_true(o[2] < -2.0e7f); /* just above pi/2 */
}

/* the launch variants every regular row runs under: default, precise mode (its bound rule runs
 * after the op), --ftz with --contract */
static void variant_launch(interp_launch *L, void *ud)
{
  const int v = *(const int *)ud;
  L->precise = v == 1;
  L->ftz = L->contract = v == 2;
}

/* the operand and result types a row's table type rule accepts (NULL for CUSTOM) */
static void rule_types(ir_type_rule rule, const char **in, const char **out)
{
  *in = *out = NULL;
  switch (rule) {
  case IR_TR_SAME_INT:
  case IR_TR_CMP_INT: *in = *out = "i32"; break;
  case IR_TR_SAME_FLOAT:
  case IR_TR_CMP_FLOAT: *in = *out = "f32"; break;
  case IR_TR_INT_WIDER: *in = "i16", *out = "i32"; break;
  case IR_TR_INT_NARROWER: *in = "i32", *out = "i16"; break;
  case IR_TR_INT_INT: *in = "i32", *out = "i64"; break;
  case IR_TR_FLOAT_WIDER: *in = "f16", *out = "f32"; break;
  case IR_TR_FLOAT_NARROWER: *in = "f32", *out = "f16"; break;
  case IR_TR_INT_FLOAT: *in = "i32", *out = "f32"; break;
  case IR_TR_FLOAT_INT: *in = "f32", *out = "i32"; break;
  case IR_TR_BITCAST: *in = "f32", *out = "i32"; break;
  case IR_TR_CUSTOM: break;
  }
}

/* The line of a row of a table syntax (SAME, CMP, CAST, CAST_RM) on %a[, %b[, %c]] of its
 * rule's operand type (*in), written to line; false for any other row. */
static bool regular_line(ir_opcode c, char *line, size_t n, const char **in)
{
  static const char *const opnd[] = {"%a", "%a, %b", "%a, %b, %c"};
  const ir_syntax syn = ir_op_syntax(c);
  const char *out;
  if (syn == IR_SYN_CUSTOM || syn == IR_SYN_ARROW) return false; /* ARROW ops: shapes, pointers (their own tests) */
  rule_types(ir_op_type_rule(c), in, &out);
  assert_non_null(*in);
  const int k = ir_op_nopnds(c);
  assert_true(k >= 1 && k <= 3);
  if (syn == IR_SYN_CMP)
    snprintf(line, n, "%%r = %s %s, %s : %s", ir_op_name(c), (*in)[0] == 'f' ? "olt" : "slt", opnd[k - 1], *in);
  else if (syn == IR_SYN_SAME) snprintf(line, n, "%%r = %s %s : %s", ir_op_name(c), opnd[k - 1], *in);
  else snprintf(line, n, "%%r = %s %s : %s to %s", ir_op_name(c), opnd[k - 1], *in, out);
  return true;
}

/* Runs line in a kernel of three scalar arguments %a, %b, %c of type in (values 1.5, 0.75, -2 or
 * 7, 3, -2) under the launch variant; fails the test unless it runs. */
static void run_line(const char *line, const char *in, int variant)
{
  const unit_hooks hk = {variant_launch, NULL, &variant};
  char text[1024];
  snprintf(text, sizeof text,
           "module {\n  tt.func public @k(%%a: %s, %%b: %s, %%c: %s) {\n    %s\n    tt.return\n  }\n}\n", in, in, in,
           line);
  int64_t scal[3];
  if (in[0] == 'f') {
    const double v[3] = {1.5, 0.75, -2.0};
    memcpy(scal, v, sizeof scal);
  } else {
    scal[0] = 7, scal[1] = 3, scal[2] = -2;
  }
  ttref_error e;
  memset(&e, 0, sizeof e);
  const int64_t grid[3] = {1, 1, 1};
  ttref_status st = unit_run_kernel(text, grid, NULL, 0, scal, 1, &hk, &e, NULL);
  if (st) fprintf(stderr, "%s (variant %d): %s\n", line, variant, e.msg);
  assert_int_equal(st, TTREF_OK);
}

/* Every regular row of ir_op_list.h executes: the op on scalars of the types its rule accepts
 * runs without error under each launch variant (the dispatch, the row's typed loop and, in
 * precise mode, its bound rule; all generated from the row). */
static void test_regular_rows_execute(void **state)
{
  (void)state;
  int nrun = 0;
  for (int i = 0; i < 3 * IR_OP_COUNT; i++) {
    const int variant = i / IR_OP_COUNT;
    const char *in = NULL;
    char line[256];
    if (!regular_line((ir_opcode)(i % IR_OP_COUNT), line, sizeof line, &in)) continue;
    run_line(line, in, variant);
    nrun++;
  }
  assert_true(nrun >= 3 * 70);
}

/* the kind column of ir_op_list.h, by opcode */
static const char *const row_kind[IR_OP_COUNT] = {
#define X(name, mnem, nopnd, nres, flags, syn, rule, kind, ...) #kind,
#include "ir_op_list.h"
#undef X
};

/* the rows of a table kind (not CALL) whose syntax is not a table one: their lines */
static const struct {
  ir_opcode code;
  const char *in, *line;
} custom_syntax_rows[] = {
    {IR_OP_SELECT, "f32", "%p = arith.cmpf olt, %a, %b : f32\n    %r = arith.select %p, %a, %c : f32"},
    {IR_OP_SELECT, "i32", "%p = arith.cmpi slt, %a, %b : i32\n    %r = arith.select %p, %a, %c : i32"},
    {IR_OP_CLAMPF, "f32", "%r = tt.clampf %a, %b, %c, propagateNan = all : f32"},
    {IR_OP_CLAMPF, "f32", "%r = tt.clampf %a, %b, %c, propagateNan = none : f32"},
    {IR_OP_INT_TO_PTR, "i64", "%r = tt.int_to_ptr %a : i64 -> !tt.ptr<f32>"},
    {IR_OP_TT_BITCAST, "f32", "%r = tt.bitcast %a : f32 -> i32"},
    {IR_OP_TT_BITCAST, "i64",
     "%p = tt.int_to_ptr %a : i64 -> !tt.ptr<f32>\n    %r = tt.bitcast %p : !tt.ptr<f32> -> !tt.ptr<i32>"},
    {IR_OP_PTR_TO_INT, "i64",
     "%p = tt.int_to_ptr %a : i64 -> !tt.ptr<f32>\n    %r = tt.ptr_to_int %p : !tt.ptr<f32> -> i64"},
};

/* Every row of ir_op_list.h whose kind is not CALL (its loop generated from the row) executes
 * under each launch variant, whatever its syntax: a table syntax through its regular line, any
 * other through custom_syntax_rows (a row missing there fails). */
static void test_table_kind_rows_execute(void **state)
{
  (void)state;
  int nrows = 0;
  for (int c = 0; c < IR_OP_COUNT; c++) {
    if (!strcmp(row_kind[c], "CALL")) continue;
    nrows++;
    char line[256];
    const char *in = NULL;
    int nlines = 0;
    for (int variant = 0; variant < 3; variant++) {
      if (regular_line((ir_opcode)c, line, sizeof line, &in)) run_line(line, in, variant), nlines++;
      for (size_t k = 0; k < sizeof custom_syntax_rows / sizeof *custom_syntax_rows; k++)
        if (custom_syntax_rows[k].code == (ir_opcode)c)
          run_line(custom_syntax_rows[k].line, custom_syntax_rows[k].in, variant), nlines++;
    }
    if (!nlines) fprintf(stderr, "%s (kind %s) has no line here\n", ir_op_name((ir_opcode)c), row_kind[c]);
    assert_true(nlines >= 3);
  }
  assert_true(nrows >= 70);
}

/* the predicate spellings of ir_pred_list.h, by value */
#define CMPF(name, spelling, value)
#define CMPI(name, spelling, value) spelling,
static const char *const cmpi_spelling[] = {
#include "ir_pred_list.h"
};
#undef CMPI
#undef CMPF
#define CMPI(name, spelling, value)
#define CMPF(name, spelling, value) spelling,
static const char *const cmpf_spelling[] = {
#include "ir_pred_list.h"
};
#undef CMPI
#undef CMPF

/* MLIR's definitions by spelling: [su]{lt,le,gt,ge}, eq, ne; [ou]{eq,gt,ge,lt,le,ne}, ord, uno,
 * false, true (o: ordered and, u: unordered or) */
static bool rel(const char *r, double x, double y)
{
  if (!strcmp(r, "eq")) return x == y;
  if (!strcmp(r, "ne")) return x != y;
  if (!strcmp(r, "lt")) return x < y;
  if (!strcmp(r, "le")) return x <= y;
  if (!strcmp(r, "gt")) return x > y;
  assert_string_equal(r, "ge");
  return x >= y;
}
static bool cmpi_oracle(const char *p, int32_t a, int32_t b)
{
  if (p[0] == 'u') return rel(p + 1, (double)(uint32_t)a, (double)(uint32_t)b);
  return rel(p[0] == 's' ? p + 1 : p, a, b);
}
static bool cmpf_oracle(const char *p, double a, double b)
{
  const bool uno = isnan(a) || isnan(b);
  if (!strcmp(p, "false") || !strcmp(p, "true")) return p[0] == 't';
  if (!strcmp(p, "ord") || !strcmp(p, "uno")) return uno == (p[0] == 'u');
  return p[0] == 'o' ? !uno && rel(p + 1, a, b) : uno || rel(p + 1, a, b);
}

/* The CMP rows run every predicate of their set (one generated loop each), on tensors and
 * scalars, and give MLIR's value of each on ordered, equal, signed/unsigned and NaN pairs. */
static void test_cmp_every_predicate(void **state)
{
  (void)state;
  const int32_t ia[4] = {7, 3, 3, -2}, ib[4] = {3, 7, 3, 3};
  const float fa[4] = {1.5f, 0.75f, 1.5f, NAN}, fb[4] = {0.75f, 1.5f, 1.5f, 1.5f};
  const int ni = (int)(sizeof cmpi_spelling / sizeof *cmpi_spelling),
            nf = (int)(sizeof cmpf_spelling / sizeof *cmpf_spelling);
  assert_int_equal(ni, 10);
  assert_int_equal(nf, 16);
  for (int k = 0; k < ni + nf; k++) {
    const bool isf = k >= ni;
    const char *p = isf ? cmpf_spelling[k - ni] : cmpi_spelling[k];
    const char *T = isf ? "f32" : "i32";
    char text[2048];
    snprintf(text, sizeof text,
             "module {\n"
             "  tt.func public @k(%%x: !tt.ptr<%s>, %%y: !tt.ptr<%s>, %%o: !tt.ptr<i32>, %%s: !tt.ptr<i32>) {\n"
             "    %%r = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>\n"
             "    %%xp = tt.splat %%x : !tt.ptr<%s> -> tensor<4x!tt.ptr<%s>>\n"
             "    %%xa = tt.addptr %%xp, %%r : tensor<4x!tt.ptr<%s>>, tensor<4xi32>\n"
             "    %%a = tt.load %%xa : tensor<4x!tt.ptr<%s>>\n"
             "    %%yp = tt.splat %%y : !tt.ptr<%s> -> tensor<4x!tt.ptr<%s>>\n"
             "    %%ya = tt.addptr %%yp, %%r : tensor<4x!tt.ptr<%s>>, tensor<4xi32>\n"
             "    %%b = tt.load %%ya : tensor<4x!tt.ptr<%s>>\n"
             "    %%c = %s %s, %%a, %%b : tensor<4x%s>\n"
             "    %%e = arith.extui %%c : tensor<4xi1> to tensor<4xi32>\n"
             "    %%op = tt.splat %%o : !tt.ptr<i32> -> tensor<4x!tt.ptr<i32>>\n"
             "    %%oa = tt.addptr %%op, %%r : tensor<4x!tt.ptr<i32>>, tensor<4xi32>\n"
             "    tt.store %%oa, %%e : tensor<4x!tt.ptr<i32>>\n"
             "    %%a0 = tt.load %%x : !tt.ptr<%s>\n"
             "    %%b0 = tt.load %%y : !tt.ptr<%s>\n"
             "    %%c0 = %s %s, %%a0, %%b0 : %s\n"
             "    %%e0 = arith.extui %%c0 : i1 to i32\n"
             "    tt.store %%s, %%e0 : !tt.ptr<i32>\n"
             "    tt.return\n"
             "  }\n"
             "}\n",
             T, T, T, T, T, T, T, T, T, T, isf ? "arith.cmpf" : "arith.cmpi", p, T, T, T,
             isf ? "arith.cmpf" : "arith.cmpi", p, T);
    int32_t ix[4], iy[4], o[4] = {-1, -1, -1, -1}, so[1] = {-1};
    float fx[4], fy[4];
    memcpy(ix, ia, sizeof ix), memcpy(iy, ib, sizeof iy), memcpy(fx, fa, sizeof fx), memcpy(fy, fb, sizeof fy);
    buf b[4] = {{isf ? (void *)fx : (void *)ix, 16, isf ? IR_S_F32 : IR_S_I32},
                {isf ? (void *)fy : (void *)iy, 16, isf ? IR_S_F32 : IR_S_I32},
                {o, sizeof o, IR_S_I32},
                {so, sizeof so, IR_S_I32}};
    ttref_error e;
    memset(&e, 0, sizeof e);
    assert_int_equal(run_kernel(text, 1, 1, 1, b, 4, NULL, 1, &e, NULL), TTREF_OK);
    for (int i = 0; i < 4; i++) {
      const bool want = isf ? cmpf_oracle(p, fa[i], fb[i]) : cmpi_oracle(p, ia[i], ib[i]);
      if (o[i] != (int32_t)want) fprintf(stderr, "%s lane %d: %d, want %d\n", p, i, o[i], (int)want);
      assert_int_equal(o[i], (int32_t)want);
    }
    assert_int_equal(so[0], (int32_t)(isf ? cmpf_oracle(p, fa[0], fb[0]) : cmpi_oracle(p, ia[0], ib[0])));
  }
}
/* ---- out of memory: parse, verify and execution ---- */
/* a loop carrying a tensor, a reduction region and a masked load and store */
static const char *loop_reduce =
    "module {\n"
    "  tt.func public @k(%x: !tt.ptr<f32>, %o: !tt.ptr<f32>, %n: i32) {\n"
    "    %c0 = arith.constant 0 : i32\n"
    "    %c1 = arith.constant 1 : i32\n"
    "    %r = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>\n"
    "    %ns = tt.splat %n : i32 -> tensor<8xi32>\n"
    "    %m = arith.cmpi slt, %r, %ns : tensor<8xi32>\n"
    "    %xp = tt.splat %x : !tt.ptr<f32> -> tensor<8x!tt.ptr<f32>>\n"
    "    %xa = tt.addptr %xp, %r : tensor<8x!tt.ptr<f32>>, tensor<8xi32>\n"
    "    %v = tt.load %xa, %m : tensor<8x!tt.ptr<f32>>\n"
    "    %acc = scf.for %i = %c0 to %n step %c1 iter_args(%a = %v) -> (tensor<8xf32>) : i32 {\n"
    "      %b = arith.addf %a, %v : tensor<8xf32>\n"
    "      scf.yield %b : tensor<8xf32>\n"
    "    }\n"
    "    %s = \"tt.reduce\"(%acc) <{axis = 0 : i32}> ({\n"
    "    ^bb0(%p: f32, %q: f32):\n"
    "      %t = arith.addf %p, %q : f32\n"
    "      tt.reduce.return %t : f32\n"
    "    }) : (tensor<8xf32>) -> f32\n"
    "    %ss = tt.splat %s : f32 -> tensor<8xf32>\n"
    "    %op = tt.splat %o : !tt.ptr<f32> -> tensor<8x!tt.ptr<f32>>\n"
    "    %oa = tt.addptr %op, %r : tensor<8x!tt.ptr<f32>>, tensor<8xi32>\n"
    "    tt.store %oa, %ss, %m : tensor<8x!tt.ptr<f32>>\n"
    "    tt.return\n"
    "  }\n"
    "}\n";

/* Every allocation request of parse, verify, binding and the launch fails in turn: the status
 * is TTREF_E_NOMEM (never a crash, a fault or a wrong success), nothing leaks, every free names
 * the size allocated; with no failure the kernel computes what the loop says. */
static void test_nomem_parse_and_run_every_allocation(void **state)
{
  (void)state;
  const char *kernels[] = {loop_reduce, reduce_sum_1x8, masked_copy};
  for (size_t k = 0; k < sizeof kernels / sizeof kernels[0]; k++) {
    float x[16], o[16];
    for (int i = 0; i < 16; i++) x[i] = (float)i - 2.5f;
    buf b[2] = {{x, 8 * sizeof(float), IR_S_F32}, {o, 8 * sizeof(float), IR_S_F32}};
    const int64_t grid[3] = {1, 1, 1}, n = 6;
    ttref_error e;
    memset(&e, 0, sizeof e);
    memset(o, 0, sizeof o);
    unit_alloc_begin(0);
    ttref_status st = unit_try_run_kernel(kernels[k], grid, b, 2, &n, 1, &e);
    unit_alloc_stats base = unit_alloc_end();
    if (st != TTREF_OK) fail_msg("kernel %zu: %s", k, e.msg);
    assert_int_equal(base.live, 0);
    assert_false(base.size_mismatch);
    assert_true(base.requests > 10);
    if (k == 0) { /* o = sum over the 6 live lanes of x * (n + 1), in the reduction's order */
      float acc[8];
      for (int i = 0; i < 8; i++) acc[i] = i < n ? x[i] * 7.0f : 0.0f;
      for (int w = 1; w < 8; w *= 2)
        for (int i = 0; i + w < 8; i += 2 * w) acc[i] += acc[i + w];
      for (int i = 0; i < n; i++) assert_true(memcmp(&o[i], &acc[0], 4) == 0);
    }
    for (long f = 1; f <= base.requests; f++) {
      memset(&e, 0, sizeof e);
      unit_alloc_begin(f);
      st = unit_try_run_kernel(kernels[k], grid, b, 2, &n, 1, &e);
      unit_alloc_stats got = unit_alloc_end();
      if (st != TTREF_E_NOMEM || e.code != TTREF_E_NOMEM)
        fail_msg("kernel %zu, request %ld of %ld refused: status %d: %s", k, f, base.requests, (int)st, e.msg);
      if (got.live != 0) fail_msg("kernel %zu, request %ld refused: %zu bytes leaked", k, f, got.live);
      assert_false(got.size_mismatch);
    }
  }
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_int_div_edge_values),
      cmocka_unit_test(test_int_shift_ge_width),
      cmocka_unit_test(test_int_wrap_and_compare),
      cmocka_unit_test(test_mask_every_boundary),
      cmocka_unit_test(test_oob_reports_lane_and_alloc),
      cmocka_unit_test(test_empty_grid_runs_nothing),
      cmocka_unit_test(test_grid3d_program_ids),
      cmocka_unit_test(test_reduce_pairwise_order),
      cmocka_unit_test(test_reduce_typed_tree_equals_region),
      cmocka_unit_test(test_dot_fma_chain_f32),
      cmocka_unit_test(test_dot_i8_wraps_like_oracle),
      cmocka_unit_test(test_threads_bit_identical),
      cmocka_unit_test(test_atomics_sequential_program_order),
      cmocka_unit_test(test_scan_sequential_and_reverse),
      cmocka_unit_test(test_fp8_downcast_saturates_nan_stays),
      cmocka_unit_test(test_assert_fault_names_lane),
      cmocka_unit_test(test_one_element_tensor_and_select),
      cmocka_unit_test(test_dot_scaled_e2m1_bf16),
      cmocka_unit_test(test_descriptor_gather_scatter_rows),
      cmocka_unit_test(test_racing_stores_end_in_program_order),
      cmocka_unit_test(test_racing_rmw_same_for_any_thread_count),
      cmocka_unit_test(test_span_races_found_after_launch),
      cmocka_unit_test(test_span_read_write_races),
      cmocka_unit_test(test_span_log_merges_loop_accesses),
      cmocka_unit_test(test_scan_typed_recurrence_equals_region),
      cmocka_unit_test(test_max_steps_counts_terminators),
      cmocka_unit_test(test_addptr_overflow_faults),
      cmocka_unit_test(test_addptr_tensor_matches_checked_oracle),
      cmocka_unit_test(test_dot_column_blocks_like_oracle),
      cmocka_unit_test(test_load_store_runs_break_anywhere),
      cmocka_unit_test(test_call_and_cond_br),
      cmocka_unit_test(test_bitcast_keeps_signaling_nan),
      cmocka_unit_test(test_histogram_drops_out_of_range),
      cmocka_unit_test(test_math_tan_correctly_rounded),
      cmocka_unit_test(test_regular_rows_execute),
      cmocka_unit_test(test_table_kind_rows_execute),
      cmocka_unit_test(test_cmp_every_predicate),
      cmocka_unit_test(test_nomem_parse_and_run_every_allocation),
  };
  return cmocka_run_group_tests_name("exec", tests, NULL, NULL);
}
