/*
 * test_verify.c: unit tests for ir/ir_verify: valid snippets verify, every
 * tests/data/ttir/verify/bad_*.ttir fails with the error its first line
 * announces, every real Triton kernel in tests/data/ttir verifies, and every
 * NOMEM path. Data is found through $TTREF_TEST_DATA (default tests/data).
 */
#define _GNU_SOURCE /* strdup, asprintf */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir.h"
#include "ir_base.h"
#include "ir_parse.h"
#include "ir_verify.h"
#include "unit_fixture.h"

/* ---- the counting allocator is unit_alloc (tests/unit/unit_fixture.c) ---- */

/* ---- helpers ---------------------------------------------------------------------------- */
static ir_module *parse_ok(const char *name, const char *text)
{
  ir_module *m = NULL;
  ttref_error err;
  memset(&err, 0, sizeof err);
  ttref_status st = ir_parse_string(name, text, strlen(text), &m, &err);
  if (st != TTREF_OK) print_error("parse of %s failed: %s\n%s\n", name, err.msg, err.note);
  assert_int_equal(st, TTREF_OK);
  assert_non_null(m);
  return m;
}

static void expect_valid(const char *name, const char *text)
{
  ir_module *m = parse_ok(name, text);
  ttref_error err;
  memset(&err, 0, sizeof err);
  ttref_status st = ir_verify_module(m, &err);
  if (st != TTREF_OK) print_error("%s: %s\n%s\n", name, err.msg, err.note);
  assert_int_equal(st, TTREF_OK);
  ir_module_free(m);
}

#define KERNEL_HEAD "module {\n  tt.func public @k("
#define KERNEL_TAIL "    tt.return\n  }\n}\n"

/* ---- valid snippets ------------------------------------------------------------------------ */
static void test_verify_valid_elementwise(void **state)
{
  (void)state;
  expect_valid("elementwise.ttir",
               KERNEL_HEAD "%x: !tt.ptr<f32>, %n: i32) {\n"
                           "    %c = arith.constant 4 : i32\n"
                           "    %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>\n"
                           "    %s = tt.splat %n : i32 -> tensor<16xi32>\n"
                           "    %m = arith.cmpi slt, %r, %s : tensor<16xi32>\n"
                           "    %p = tt.splat %x : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>\n"
                           "    %q = tt.addptr %p, %r : tensor<16x!tt.ptr<f32>>, tensor<16xi32>\n"
                           "    %z = arith.constant dense<0.000000e+00> : tensor<16xf32>\n"
                           "    %v = tt.load %q, %m, %z : tensor<16x!tt.ptr<f32>>\n"
                           "    %w = arith.addf %v, %v : tensor<16xf32>\n"
                           "    %h = arith.truncf %w : tensor<16xf32> to tensor<16xf16>\n"
                           "    %e = arith.extf %h : tensor<16xf16> to tensor<16xf32>\n"
                           "    %b = arith.select %m, %e, %z : tensor<16xi1>, tensor<16xf32>\n"
                           "    %t = arith.constant true\n"
                           "    %b2 = arith.select %t, %b, %z : tensor<16xf32>\n"
                           "    %i = arith.fptosi %b2 : tensor<16xf32> to tensor<16xi32>\n"
                           "    %j = arith.extsi %i : tensor<16xi32> to tensor<16xi64>\n"
                           "    %k2 = arith.trunci %j : tensor<16xi64> to tensor<16xi16>\n"
                           "    %f8 = tt.fp_to_fp %b2, rounding = rtne : tensor<16xf32> -> tensor<16xf8E5M2>\n"
                           "    %bc = tt.bitcast %f8 : tensor<16xf8E5M2> -> tensor<16xi8>\n"
                           "    %ab = arith.bitcast %i : tensor<16xi32> to tensor<16xf32>\n"
                           "    %ex = math.exp %ab : tensor<16xf32>\n"
                           "    %cl = tt.clampf %ex, %z, %z, propagateNan = none : tensor<16xf32>\n"
                           "    tt.store %q, %cl, %m : tensor<16x!tt.ptr<f32>>\n"
                           "    %pid = tt.get_program_id x : i32\n"
                           "    %sum = arith.addi %pid, %c : i32\n" KERNEL_TAIL);
}

static void test_verify_valid_shapes(void **state)
{
  (void)state;
  expect_valid("shapes.ttir", KERNEL_HEAD
               "%x: !tt.ptr<f32>) {\n"
               "    %z = arith.constant dense<1.000000e+00> : tensor<4xf32>\n"
               "    %e = tt.expand_dims %z {axis = 1 : i32} : tensor<4xf32> -> tensor<4x1xf32>\n"
               "    %b = tt.broadcast %e : tensor<4x1xf32> -> tensor<4x8xf32>\n"
               "    %t = tt.trans %b {order = array<i32: 1, 0>} : tensor<4x8xf32> -> tensor<8x4xf32>\n"
               "    %r = tt.reshape %t : tensor<8x4xf32> -> tensor<32xf32>\n"
               "    %c = tt.cat %z, %z : tensor<4xf32> -> tensor<8xf32>\n"
               "    %j = tt.join %z, %z : tensor<4xf32> -> tensor<4x2xf32>\n"
               "    %l, %h = tt.split %j : tensor<4x2xf32> -> tensor<4xf32>\n"
               "    %one = tt.reshape %l : tensor<4xf32> -> tensor<1x4xf32>\n"
               "    %s = tt.make_range {end = 1 : i32, start = 0 : i32} : tensor<1xi32>\n"
               "    %u = tt.unsplat %s : tensor<1xi32>\n"
               "    %idx = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>\n"
               "    %g = tt.gather %z[%idx] {axis = 0 : i32} : (tensor<4xf32>, tensor<4xi32>) -> tensor<4xf32>\n"
               "    %hg = tt.histogram %idx : tensor<4xi32> -> tensor<8xi32>\n" KERNEL_TAIL);
}

static void test_verify_valid_scf(void **state)
{
  (void)state;
  expect_valid("scf.ttir", KERNEL_HEAD "%x: !tt.ptr<i32>, %n: i32) {\n"
                                       "    %c0 = arith.constant 0 : i32\n"
                                       "    %c1 = arith.constant 1 : i32\n"
                                       "    %s = scf.for %i = %c0 to %n step %c1 iter_args(%a = %c0) -> (i32) : i32 {\n"
                                       "      %a2 = arith.addi %a, %i : i32\n"
                                       "      scf.yield %a2 : i32\n"
                                       "    }\n"
                                       "    scf.for %i = %c0 to %n step %c1 : i32 {\n"
                                       "      %p = tt.addptr %x, %i : !tt.ptr<i32>, i32\n"
                                       "      tt.store %p, %s : !tt.ptr<i32>\n"
                                       "    }\n"
                                       "    %w:2 = scf.while (%v = %n, %k = %c0) : (i32, i32) -> (i32, i32) {\n"
                                       "      %go = arith.cmpi sgt, %v, %c0 : i32\n"
                                       "      scf.condition(%go) %v, %k : i32, i32\n"
                                       "    } do {\n"
                                       "    ^bb0(%v: i32, %k: i32):\n"
                                       "      %odd = arith.andi %v, %c1 : i32\n"
                                       "      %isodd = arith.cmpi ne, %odd, %c0 : i32\n"
                                       "      %nv = scf.if %isodd -> (i32) {\n"
                                       "        %d = arith.subi %v, %c1 : i32\n"
                                       "        scf.yield %d : i32\n"
                                       "      } else {\n"
                                       "        %d = arith.shrsi %v, %c1 : i32\n"
                                       "        scf.yield %d : i32\n"
                                       "      }\n"
                                       "      scf.if %isodd {\n"
                                       "        tt.store %x, %k : !tt.ptr<i32>\n"
                                       "      }\n"
                                       "      %k2 = arith.addi %k, %c1 : i32\n"
                                       "      scf.yield %nv, %k2 : i32, i32\n"
                                       "    }\n"
                                       "    tt.store %x, %w#1 : !tt.ptr<i32>\n" KERNEL_TAIL);
}

static void test_verify_valid_reduce_scan(void **state)
{
  (void)state;
  expect_valid("reduce.ttir",
               KERNEL_HEAD "%x: !tt.ptr<f32>) {\n"
                           "    %z = arith.constant dense<1.000000e+00> : tensor<4x8xf32>\n"
                           "    %i = arith.constant dense<1> : tensor<4x8xi32>\n"
                           "    %r = \"tt.reduce\"(%z) <{axis = 1 : i32}> ({\n"
                           "    ^bb0(%a: f32, %b: f32):\n"
                           "      %s = arith.addf %a, %b : f32\n"
                           "      tt.reduce.return %s : f32\n"
                           "    }) : (tensor<4x8xf32>) -> tensor<4xf32>\n"
                           "    %r2 = \"tt.reduce\"(%r) <{axis = 0 : i32}> ({\n"
                           "    ^bb0(%a: f32, %b: f32):\n"
                           "      %s = arith.maxnumf %a, %b : f32\n"
                           "      tt.reduce.return %s : f32\n"
                           "    }) : (tensor<4xf32>) -> f32\n"
                           "    %v:2 = \"tt.reduce\"(%z, %i) <{axis = 0 : i32}> ({\n"
                           "    ^bb0(%a: f32, %ai: i32, %b: f32, %bi: i32):\n"
                           "      %gt = arith.cmpf ogt, %a, %b : f32\n"
                           "      %m = arith.select %gt, %a, %b : f32\n"
                           "      %mi = arith.select %gt, %ai, %bi : i32\n"
                           "      tt.reduce.return %m, %mi : f32, i32\n"
                           "    }) : (tensor<4x8xf32>, tensor<4x8xi32>) -> (tensor<8xf32>, tensor<8xi32>)\n"
                           "    %c = \"tt.scan\"(%z) <{axis = 1 : i32, reverse = false}> ({\n"
                           "    ^bb0(%a: f32, %b: f32):\n"
                           "      %s = arith.addf %a, %b : f32\n"
                           "      tt.scan.return %s : f32\n"
                           "    }) : (tensor<4x8xf32>) -> tensor<4x8xf32>\n"
                           "    tt.store %x, %r2 : !tt.ptr<f32>\n" KERNEL_TAIL);
}

static void test_verify_valid_cfg(void **state)
{
  (void)state;
  /* a diamond plus a loop: %a (entry) dominates everything, ^bb3's args merge */
  expect_valid("cfg.ttir", "module {\n"
                           "  tt.func public @k(%x: !tt.ptr<i32>, %c: i1, %n: i32) {\n"
                           "    %a = arith.constant 1 : i32\n"
                           "    cf.cond_br %c, ^bb1, ^bb2(%a : i32)\n"
                           "  ^bb1:\n"
                           "    %b = arith.addi %a, %n : i32\n"
                           "    cf.br ^bb3(%b : i32)\n"
                           "  ^bb2(%p: i32):\n"
                           "    cf.br ^bb3(%p : i32)\n"
                           "  ^bb3(%m: i32):\n"
                           "    %d = arith.addi %m, %a : i32\n"
                           "    %more = arith.cmpi slt, %d, %n : i32\n"
                           "    cf.cond_br %more, ^bb3(%d : i32), ^bb4\n"
                           "  ^bb4:\n"
                           "    tt.store %x, %d : !tt.ptr<i32>\n"
                           "    tt.return\n"
                           "  ^bb5:\n" /* unreachable: no dominance checks, as MLIR */
                           "    tt.return\n"
                           "  }\n"
                           "}\n");
}

static void test_verify_valid_cfg_forward_reference(void **state)
{
  (void)state;
  /* ^bb2 dominates ^bb1 although it is written after it: %x is a forward reference */
  expect_valid("fwd.ttir", "module {\n"
                           "  tt.func public @k(%p: !tt.ptr<i32>, %n: i32) {\n"
                           "    cf.br ^bb2\n"
                           "  ^bb1:\n"
                           "    tt.store %p, %x : !tt.ptr<i32>\n"
                           "    tt.return\n"
                           "  ^bb2:\n"
                           "    %x = arith.addi %n, %n : i32\n"
                           "    cf.br ^bb1\n"
                           "  }\n"
                           "}\n");
}

static void test_verify_valid_call(void **state)
{
  (void)state;
  expect_valid("call.ttir", "module {\n"
                            "  tt.func private @add(%a: f32, %b: f32) -> f32 attributes {noinline = true} {\n"
                            "    %s = arith.addf %a, %b : f32\n"
                            "    tt.return %s : f32\n"
                            "  }\n"
                            "  tt.func public @k(%x: !tt.ptr<f32>) {\n"
                            "    %v = tt.load %x : !tt.ptr<f32>\n"
                            "    %r = tt.call @add(%v, %v) : (f32, f32) -> f32\n"
                            "    tt.store %x, %r : !tt.ptr<f32>\n"
                            "    tt.return\n"
                            "  }\n"
                            "}\n");
}

static void test_verify_valid_dot_atomics(void **state)
{
  (void)state;
  expect_valid(
      "dot.ttir", KERNEL_HEAD
      "%x: !tt.ptr<i32>, %f: !tt.ptr<f32>) {\n"
      "    %a = arith.constant dense<1.000000e+00> : tensor<16x32xf16>\n"
      "    %b = arith.constant dense<1.000000e+00> : tensor<32x8xf16>\n"
      "    %c = arith.constant dense<0.000000e+00> : tensor<16x8xf32>\n"
      "    %d = tt.dot %a, %b, %c, inputPrecision = tf32 : tensor<16x32xf16> * tensor<32x8xf16> -> tensor<16x8xf32>\n"
      "    %ia = arith.constant dense<1> : tensor<2x16x32xi8>\n"
      "    %ib = arith.constant dense<1> : tensor<2x32x8xi8>\n"
      "    %ic = arith.constant dense<0> : tensor<2x16x8xi32>\n"
      "    %id = tt.dot %ia, %ib, %ic : tensor<2x16x32xi8> * tensor<2x32x8xi8> -> tensor<2x16x8xi32>\n"
      "    %one = arith.constant 1 : i32\n"
      "    %t = arith.constant true\n"
      "    %o = tt.atomic_rmw add, acq_rel, gpu, %x, %one, %t : (!tt.ptr<i32>, i32, i1) -> i32\n"
      "    %fv = arith.constant 1.000000e+00 : f32\n"
      "    %of = tt.atomic_rmw fadd, relaxed, gpu, %f, %fv : (!tt.ptr<f32>, f32) -> f32\n"
      "    %cas = tt.atomic_cas acq_rel, gpu, %x, %one, %o : (!tt.ptr<i32>, i32, i32) -> i32\n" KERNEL_TAIL);
}

static void test_verify_valid_block_ptr(void **state)
{
  (void)state;
  expect_valid(
      "blockptr.ttir", KERNEL_HEAD
      "%arg0: !tt.ptr<f16>) {\n"
      "    %c0_i32 = arith.constant 0 : i32\n"
      "    %c1_i64 = arith.constant 1 : i64\n"
      "    %c32_i64 = arith.constant 32 : i64\n"
      "    %c128_i64 = arith.constant 128 : i64\n"
      "    %0 = tt.make_tensor_ptr %arg0, [%c128_i64, %c32_i64], [%c1_i64, %c1_i64], [%c0_i32, %c0_i32] "
      "{order = array<i32: 1, 0>} : !tt.ptr<tensor<128x32xf16>>\n"
      "    %1 = tt.advance %0, [%c0_i32, %c0_i32] : !tt.ptr<tensor<128x32xf16>>\n"
      "    %load = tt.load %1 {boundaryCheck = array<i32: 1>, padding = 2 : i32} : !tt.ptr<tensor<128x32xf16>>\n"
      "    tt.store %1, %load {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<128x32xf16>>\n" KERNEL_TAIL);
}

static void test_verify_valid_map_elementwise_cfg(void **state)
{
  (void)state;
  /* a multi-block region nested in an op: dominators are per region */
  expect_valid("map.ttir", KERNEL_HEAD "%a: tensor<8xf32>) {\n"
                                       "    %z = arith.constant 0.000000e+00 : f32\n"
                                       "    %0 = \"tt.map_elementwise\"(%a) <{pack = 2 : i32}> ({\n"
                                       "    ^bb0(%x: f32, %y: f32):\n"
                                       "      %neg = arith.cmpf olt, %x, %z : f32\n"
                                       "      cf.cond_br %neg, ^bb1, ^bb2(%x : f32)\n"
                                       "    ^bb1:\n"
                                       "      %n = arith.negf %x : f32\n"
                                       "      cf.br ^bb2(%n : f32)\n"
                                       "    ^bb2(%r: f32):\n"
                                       "      tt.map_elementwise.return %r, %y : f32, f32\n"
                                       "    }) : (tensor<8xf32>) -> tensor<8xf32>\n" KERNEL_TAIL);
}

static void test_verify_valid_descriptors_dot_scaled(void **state)
{
  (void)state;
  expect_valid(
      "desc.ttir", KERNEL_HEAD
      "%p: !tt.ptr<f16>, %s: i32, %st: i64, %o: i32, %x: tensor<8xi32>, "
      "%a: tensor<16x64xf8E4M3FN>, %as: tensor<16x2xi8>, %b: tensor<32x16xi8>, %bs: tensor<16x2xi8>, "
      "%c: tensor<16x16xf32>) {\n"
      "    %d = tt.make_tensor_descriptor %p, [%s, %s], [%st, %st] : <f16>, <tensor<16x64xf16>>\n"
      "    %v = tt.descriptor_load %d[%o, %o] : !tt.tensordesc<tensor<16x64xf16>> -> tensor<16x64xf16>\n"
      "    tt.descriptor_store %d[%o, %o], %v : !tt.tensordesc<tensor<16x64xf16>>, tensor<16x64xf16>\n"
      "    tt.descriptor_reduce add, %d[%o, %o], %v : !tt.tensordesc<tensor<16x64xf16>>, tensor<16x64xf16>\n"
      "    %g = tt.make_tensor_descriptor %p, [%s, %s], [%st, %st] : <f16>, <tensor<1x64xf16>>\n"
      "    %rows = tt.descriptor_gather %g[%x, %o] : (!tt.tensordesc<tensor<1x64xf16>>, tensor<8xi32>, i32) -> "
      "tensor<8x64xf16>\n"
      "    %r = tt.dot_scaled %a scale %as, %b scale %bs, %c lhs = e4m3 rhs = e2m1 {fastMath = false} : "
      "tensor<16x64xf8E4M3FN>, tensor<16x2xi8> * tensor<32x16xi8>, tensor<16x2xi8> -> tensor<16x16xf32>\n" KERNEL_TAIL);
}

static void test_verify_valid_unsupported_op(void **state)
{
  (void)state;
  /* IR_F_UNSUPPORTED ops are the interpreter's to refuse, not the verifier's */
  expect_valid(
      "asm.ttir", KERNEL_HEAD
      "%x: !tt.ptr<i32>) {\n"
      "    %v = tt.load %x : !tt.ptr<i32>\n"
      "    %r = tt.elementwise_inline_asm \"mov.u32 $0, $1;\" {constraints = \"=r,r\", packed_element = 1 : i32, "
      "pure = true} %v : i32 -> i32\n"
      "    tt.store %x, %r : !tt.ptr<i32>\n" KERNEL_TAIL);
}

/* The first error carries the kernel-source location as a note. */
static void test_verify_note_names_kernel_source(void **state)
{
  (void)state;
  const char *text = "#loc = loc(\"kern.py\":3:0)\n"
                     "module {\n"
                     "  tt.func public @k(%x: i32 loc(\"x\"(#loc))) {\n"
                     "    %y = arith.addf %x, %x : i32 loc(#loc2)\n"
                     "    tt.return loc(#loc)\n"
                     "  } loc(#loc)\n"
                     "} loc(#loc)\n"
                     "#loc1 = loc(\"kern.py\":7:12)\n"
                     "#loc2 = loc(\"y\"(#loc1))\n";
  ir_module *m = parse_ok("note.ttir", text);
  ttref_error err;
  memset(&err, 0, sizeof err);
  assert_int_equal(ir_verify_module(m, &err), TTREF_E_VERIFY);
  assert_int_equal(err.code, TTREF_E_VERIFY);
  assert_int_equal(err.loc.line, 4);
  assert_non_null(strstr(err.msg, "note.ttir:4:"));
  assert_non_null(strstr(err.msg, ": error: 'arith.addf' op operand #0 must be floating-point-like"));
  assert_string_equal(err.note, "note: in kernel source kern.py:7:12 (y)");
  /* a NULL error record is allowed */
  assert_int_equal(ir_verify_module(m, NULL), TTREF_E_VERIFY);
  ir_module_free(m);
}

/* Every scratch allocation of the verifier fails in turn: NOMEM, no leak, sizes match. */
static void test_verify_nomem_every_allocation(void **state)
{
  (void)state;
  const char *text = "module {\n"
                     "  tt.func public @k(%c: i1, %n: i32) {\n"
                     "    %a = arith.constant 1 : i32\n"
                     "    cf.cond_br %c, ^bb1, ^bb2\n"
                     "  ^bb1:\n"
                     "    cf.br ^bb2\n"
                     "  ^bb2:\n"
                     "    %s = scf.for %i = %a to %n step %a iter_args(%x = %a) -> (i32) : i32 {\n"
                     "      %y = arith.addi %x, %i : i32\n"
                     "      scf.yield %y : i32\n"
                     "    }\n"
                     "    tt.return\n"
                     "  }\n"
                     "}\n";
  ir_module *m = parse_ok("nomem.ttir", text);
  ttref_error err;
  int saw_nomem = 0;
  for (long k = 1; k < 1000; k++) {
    unit_alloc_begin(k);
    memset(&err, 0, sizeof err);
    ttref_status st = ir_verify_module(m, &err);
    long requests = unit_alloc.requests;
    ttref_set_alloc(NULL, NULL);
    assert_int_equal(unit_alloc.live, 0);
    assert_false(unit_alloc.size_mismatch);
    if (st == TTREF_OK) {
      assert_true(requests < k); /* every allocation up to k-1 was failed once */
      break;
    }
    assert_int_equal(st, TTREF_E_NOMEM);
    assert_int_equal(err.code, TTREF_E_NOMEM);
    saw_nomem++;
  }
  assert_true(saw_nomem >= 10); /* seen, dominator arrays, undo stack */
  ir_module_free(m);
}

/* ---- data-driven tests: verify/bad_ files and the real kernels in tests/data/ttir ---- */
typedef struct file_case {
  char *path;
} file_case;

static char *read_first_line(const char *path)
{
  FILE *f = fopen(path, "r");
  if (!f) return NULL;
  char buf[512];
  char *r = fgets(buf, sizeof buf, f) ? strdup(buf) : NULL;
  fclose(f);
  if (r) r[strcspn(r, "\r\n")] = 0;
  return r;
}

/* bad_*.ttir: line 1 is "// expect-error: LINE:COL: substring". Everything is freed
 * before a failure is reported (cmocka's fail_msg longjmps). */
static void run_bad_file(void **state)
{
  const file_case *fc = *state;
  char why[1400] = "";
  const char *tag = "// expect-error: ";
  char *first = read_first_line(fc->path);
  ir_module *m = NULL;
  ttref_error err;
  memset(&err, 0, sizeof err);
  int line = 0, col = 0, used = 0;
  if (!first || strncmp(first, tag, strlen(tag)) != 0) {
    snprintf(why, sizeof why, "first line lacks '%s'", tag);
  } else if (sscanf(first + strlen(tag), "%d:%d: %n", &line, &col, &used) != 2 || used == 0 ||
             first[strlen(tag) + (size_t)used] == 0) {
    snprintf(why, sizeof why, "malformed expectation '%s'", first);
  } else if (ir_parse_file(fc->path, &m, &err) != TTREF_OK) {
    snprintf(why, sizeof why, "must parse: %s\n%s", err.msg, err.note);
  } else {
    const char *want = first + strlen(tag) + used;
    char where[64];
    snprintf(where, sizeof where, ":%d:%d: error: '", line, col);
    memset(&err, 0, sizeof err);
    ttref_status st = ir_verify_module(m, &err);
    if (st != TTREF_E_VERIFY)
      snprintf(why, sizeof why, "expected a verifier error, got %s (%s)", ttref_status_str(st), err.msg);
    else if (err.code != TTREF_E_VERIFY || err.loc.line != line || err.loc.col != col || !strstr(err.msg, want) ||
             !strstr(err.msg, where) || strncmp(err.msg, fc->path, strlen(fc->path)) != 0)
      snprintf(why, sizeof why, "expected %s%s...%s...\n  got: %s", fc->path, where, want, err.msg);
  }
  ir_module_free(m);
  free(first);
  if (why[0]) fail_msg("%s: %s", fc->path, why);
}

/* real Triton output must verify */
static void run_good_file(void **state)
{
  const file_case *fc = *state;
  char why[1200] = "";
  ir_module *m = NULL;
  ttref_error err;
  memset(&err, 0, sizeof err);
  if (ir_parse_file(fc->path, &m, &err) != TTREF_OK) {
    snprintf(why, sizeof why, "must parse: %s\n%s", err.msg, err.note);
  } else {
    memset(&err, 0, sizeof err);
    if (ir_verify_module(m, &err) != TTREF_OK) snprintf(why, sizeof why, "must verify: %s\n%s", err.msg, err.note);
  }
  ir_module_free(m);
  if (why[0]) fail_msg("%s: %s", fc->path, why);
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Sorted names in dir starting with prefix and ending in ".ttir". */
static int list_ttir(const char *dir, const char *prefix, char ***out)
{
  DIR *d = opendir(dir);
  int n = 0, cap = 0;
  char **v = NULL;
  if (d) {
    for (struct dirent *e; (e = readdir(d));) {
      size_t len = strlen(e->d_name);
      if (len < 5 || strcmp(e->d_name + len - 5, ".ttir") != 0 || strncmp(e->d_name, prefix, strlen(prefix)) != 0)
        continue;
      if (n == cap) v = realloc(v, (size_t)(cap = cap ? 2 * cap : 64) * sizeof *v);
      v[n++] = strdup(e->d_name);
    }
    closedir(d);
  }
  if (n) qsort(v, (size_t)n, sizeof *v, cmp_str);
  *out = v;
  return n;
}

static int nbad, ngood;

static void test_verify_bad_files_cover_rule_families(void **state)
{
  (void)state;
  assert_true(nbad >= 40);
}

static void test_verify_corpus_files_present(void **state)
{
  (void)state;
  assert_true(ngood >= 25);
}

int main(void)
{
  static const struct CMUnitTest fixed[] = {
      cmocka_unit_test(test_verify_valid_elementwise),
      cmocka_unit_test(test_verify_valid_shapes),
      cmocka_unit_test(test_verify_valid_scf),
      cmocka_unit_test(test_verify_valid_reduce_scan),
      cmocka_unit_test(test_verify_valid_cfg),
      cmocka_unit_test(test_verify_valid_cfg_forward_reference),
      cmocka_unit_test(test_verify_valid_call),
      cmocka_unit_test(test_verify_valid_dot_atomics),
      cmocka_unit_test(test_verify_valid_block_ptr),
      cmocka_unit_test(test_verify_valid_map_elementwise_cfg),
      cmocka_unit_test(test_verify_valid_descriptors_dot_scaled),
      cmocka_unit_test(test_verify_valid_unsupported_op),
      cmocka_unit_test(test_verify_note_names_kernel_source),
      cmocka_unit_test(test_verify_nomem_every_allocation),
      cmocka_unit_test(test_verify_bad_files_cover_rule_families),
      cmocka_unit_test(test_verify_corpus_files_present),
  };
  const size_t nfixed = sizeof fixed / sizeof fixed[0];
  char dir_bad[1024], dir_good[1024];
  snprintf(dir_bad, sizeof dir_bad, "%s/ttir/verify", unit_data_dir());
  snprintf(dir_good, sizeof dir_good, "%s/ttir", unit_data_dir());
  char **bad_names, **good_names;
  nbad = list_ttir(dir_bad, "bad_", &bad_names);
  ngood = list_ttir(dir_good, "", &good_names);

  /* one group: the fixed tests, then test_verify_<bad file> and test_verify_corpus_<kernel> */
  size_t n = nfixed + (size_t)nbad + (size_t)ngood;
  struct CMUnitTest *tests = calloc(n, sizeof *tests);
  file_case *cases = calloc((size_t)nbad + (size_t)ngood + 1, sizeof *cases);
  memcpy(tests, fixed, sizeof fixed);
  size_t t = nfixed;
  for (int i = 0; i < nbad + ngood; i++) {
    const char *dir = i < nbad ? dir_bad : dir_good;
    const char *name = i < nbad ? bad_names[i] : good_names[i - nbad];
    size_t stem = strlen(name) - 5;
    char *tname = NULL, *path = NULL;
    if (asprintf(&tname, "test_verify_%s%.*s", i < nbad ? "" : "corpus_", (int)stem, name) < 0 ||
        asprintf(&path, "%s/%s", dir, name) < 0)
      return 2;
    cases[i].path = path;
    tests[t].name = tname;
    tests[t].test_func = i < nbad ? run_bad_file : run_good_file;
    tests[t].initial_state = &cases[i];
    t++;
  }
  int rc = _cmocka_run_group_tests("test_verify", tests, n, NULL, NULL);
  for (int i = 0; i < nbad + ngood; i++) {
    free((void *)tests[nfixed + (size_t)i].name);
    free(cases[i].path);
  }
  for (int i = 0; i < nbad; i++) free(bad_names[i]);
  for (int i = 0; i < ngood; i++) free(good_names[i]);
  free(bad_names);
  free(good_names);
  free(cases);
  free(tests);
  return rc;
}
