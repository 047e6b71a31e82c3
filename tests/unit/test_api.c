/*
 * test_api.c: unit tests of the public API (ttref.h): loading and signature
 * introspection, launches against C-computed sums, every bad-input path
 * (NULL handles, unknown arguments, bad literals, short buffers, unbound
 * arguments) as a status with a message, options, precise values,
 * ttref_compare, two threads with two launches, and out-of-memory paths.
 * Over 1000 lines on purpose: one cmocka group per binary (STYLE.md) keeps the tests of
 * the public API in one file, sharing its fixtures; tests/unit/unit_fixture.c holds what files share.
 */
#include <setjmp.h>
#include <stdatomic.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ttref.h"
#include "unit_fixture.h"

#define N 4096 /* 4 programs of the vadd kernel's BLOCK 1024 */

static char vadd_path[4096], loop_path[4096], softmax_path[4096];

static int group_setup(void **state)
{
  (void)state;
  snprintf(vadd_path, sizeof vadd_path, "%s", unit_data_path("ttir/vadd_f32.ttir"));
  snprintf(softmax_path, sizeof softmax_path, "%s", unit_data_path("fx/softmax.fx"));
  snprintf(loop_path, sizeof loop_path, "%s", unit_data_path("ttir/infinite_while.ttir"));
  return 0;
}

/* Every test gets a fresh temporary directory and the counting allocator (tests/unit/unit_fixture.c),
 * and must free all it allocated through the hook. */
static int test_setup(void **state)
{
  (void)state;
  if (!unit_tmpdir_new("test_api")) return -1;
  unit_alloc_begin(0);
  return 0;
}

static int test_teardown(void **state)
{
  (void)state;
  const unit_alloc_stats s = unit_alloc_end();
  const int removed = unit_tmpdir_remove();
  return s.live == 0 && !s.size_mismatch && removed == 0 ? 0 : -1;
}

static void assert_has(const ttref_error *e, const char *what)
{
  if (!strstr(e->msg, what) && !strstr(e->note, what))
    fail_msg("'%s' not in message '%s' / '%s'", what, e->msg, e->note);
}

typedef struct vadd {
  float x[N], y[N], o[N];
} vadd;

static void vadd_fill(vadd *v)
{
  for (int i = 0; i < N; i++) {
    v->x[i] = (float)i * 0.37f - 100.0f;
    v->y[i] = 1.0f / (float)(i + 1);
    v->o[i] = -1.0f;
  }
}

static ttref_launch *vadd_launch(const ttref_kernel *k, vadd *v, const char *n)
{
  ttref_error e;
  memset(&e, 0, sizeof e);
  ttref_launch *l = ttref_launch_new(k, &e);
  assert_non_null(l);
  assert_int_equal(ttref_launch_buffer(l, "x_ptr", v->x, sizeof v->x, &e), TTREF_OK);
  assert_int_equal(ttref_launch_buffer(l, "%y_ptr", v->y, sizeof v->y, &e), TTREF_OK);
  assert_int_equal(ttref_launch_buffer(l, "2", v->o, sizeof v->o, &e), TTREF_OK); /* by position */
  assert_int_equal(ttref_launch_scalar(l, "n", n, &e), TTREF_OK);
  return l;
}

/* ---- loading and the signature ---- */

static void test_api_signature(void **state)
{
  (void)state;
  ttref_error e;
  ttref_kernel *k = ttref_kernel_load(vadd_path, NULL, &e);
  assert_non_null(k);
  assert_string_equal(ttref_kernel_name(k), "vadd");
  assert_int_equal(ttref_kernel_nargs(k), 4);
  static const char *const names[] = {"x_ptr", "y_ptr", "o_ptr", "n"};
  for (int i = 0; i < 4; i++) {
    assert_string_equal(ttref_kernel_arg_name(k, i), names[i]);
    assert_int_equal(ttref_kernel_arg_index(k, names[i]), i);
    assert_int_equal(ttref_kernel_arg_kind(k, i), i < 3 ? TTREF_ARG_POINTER : TTREF_ARG_SCALAR);
    assert_string_equal(ttref_kernel_arg_type(k, i), i < 3 ? "f32" : "i32");
    assert_int_equal(ttref_kernel_arg_elem_bytes(k, i), 4);
  }
  assert_int_equal(ttref_kernel_arg_kind(k, 4), TTREF_ARG_INVALID);
  assert_int_equal(ttref_kernel_arg_kind(k, -1), TTREF_ARG_INVALID);
  assert_null(ttref_kernel_arg_name(k, 4));
  assert_null(ttref_kernel_arg_type(k, 9));
  assert_int_equal(ttref_kernel_arg_index(k, "nope"), -1);
  assert_int_equal(ttref_kernel_arg_index(k, "4"), -1);
  char sig[256];
  ttref_kernel_signature(k, sig, sizeof sig);
  assert_non_null(strstr(sig, "%o_ptr: !tt.ptr<f32>"));
  ttref_kernel_free(k);
}

static void test_api_load_errors(void **state)
{
  (void)state;
  ttref_error e;
  memset(&e, 0, sizeof e);
  assert_null(ttref_kernel_load("no/such/kernel.ttir", NULL, &e));
  assert_int_equal(e.code, TTREF_E_IO);
  assert_has(&e, "no/such/kernel.ttir");
  static const char bad[] = "module {\n  tt.func public @k() {\n    %0 = arith.bogus : i32\n  }\n}\n";
  assert_null(ttref_kernel_parse(bad, sizeof bad - 1, "bad.ttir", NULL, &e));
  assert_int_equal(e.code, TTREF_E_SYNTAX);
  assert_int_equal(strncmp(e.msg, "bad.ttir:3:", 11), 0); /* located */
  assert_null(ttref_kernel_load(vadd_path, "@missing", &e));
  assert_int_equal(e.code, TTREF_E_INPUT);
  assert_has(&e, "missing");
  ttref_kernel *k = ttref_kernel_load(vadd_path, "@vadd", &e); /* by name, with '@' */
  assert_non_null(k);
  ttref_kernel_free(k);
  /* a verifier error is a status too */
  static const char unverified[] =
      "module {\n  tt.func public @k(%p: !tt.ptr<f32>) {\n    %0 = arith.constant 1 : i32\n"
      "    %1 = arith.addf %0, %0 : i32\n    tt.return\n  }\n}\n";
  assert_null(ttref_kernel_parse(unverified, sizeof unverified - 1, NULL, NULL, &e));
  assert_true(e.code == TTREF_E_VERIFY || e.code == TTREF_E_SYNTAX);
  assert_int_equal(strncmp(e.msg, "<string>:4:", 11), 0);
}

/* ---- launches ---- */

static void test_api_vadd_sums(void **state)
{
  (void)state;
  ttref_error e;
  static vadd v;
  vadd_fill(&v);
  ttref_kernel *k = ttref_kernel_load(vadd_path, NULL, &e);
  ttref_launch *l = vadd_launch(k, &v, "4000");
  assert_int_equal(ttref_launch_run(l, 4, 1, 1, &e), TTREF_OK);
  for (int i = 0; i < N; i++) { /* f32 + f32 in C is the correctly rounded sum */
    const float want = i < 4000 ? v.x[i] + v.y[i] : -1.0f;
    if (memcmp(&v.o[i], &want, 4) != 0) fail_msg("o[%d] = %a, want %a", i, (double)v.o[i], (double)want);
  }
  ttref_stats s;
  assert_int_equal(ttref_launch_stats(l, &s, &e), TTREF_OK);
  assert_int_equal(s.programs, 4);
  /* the launch is reusable: rebind n and run again */
  assert_int_equal(ttref_launch_scalar(l, "n", "4096", &e), TTREF_OK);
  assert_int_equal(ttref_launch_run(l, 4, 1, 1, &e), TTREF_OK);
  const float last = v.x[N - 1] + v.y[N - 1];
  assert_memory_equal(&v.o[N - 1], &last, 4);
  ttref_launch_free(l);
  ttref_kernel_free(k);
}

static void test_api_fault_past_buffer(void **state)
{
  (void)state;
  ttref_error e;
  static vadd v;
  vadd_fill(&v);
  ttref_kernel *k = ttref_kernel_load(vadd_path, NULL, &e);
  ttref_launch *l = vadd_launch(k, &v, "5000");
  memset(&e, 0, sizeof e);
  assert_int_equal(ttref_launch_run(l, 5, 1, 1, &e), TTREF_E_FAULT);
  assert_int_equal(e.code, TTREF_E_FAULT);
  assert_non_null(strstr(e.msg, "vadd_f32.ttir:18:5: error: out-of-bounds")); /* the op's .ttir position */
  assert_has(&e, "'tt.load'");
  assert_has(&e, "pid (4, 0, 0) lane 0");
  assert_has(&e, "kernels.py:11:16");
  /* the first four programs wrote their sums before the fault */
  const float s0 = v.x[0] + v.y[0];
  assert_memory_equal(&v.o[0], &s0, 4);
  /* a buffer one element short faults in the program that touches it */
  assert_int_equal(ttref_launch_buffer(l, "o_ptr", v.o, sizeof v.o - 4, &e), TTREF_OK);
  assert_int_equal(ttref_launch_scalar(l, "n", "4096", &e), TTREF_OK);
  assert_int_equal(ttref_launch_run(l, 4, 1, 1, &e), TTREF_E_FAULT);
  assert_has(&e, "'tt.store'");
  assert_has(&e, "pid (3, 0, 0) lane 1023");
  ttref_launch_free(l);
  ttref_kernel_free(k);
}

/* Views into one storage (ttref_launch_buffer_at): the pointer is base + offset, and two
 * arguments of one storage share its allocation, so in-place updates and reads past the view
 * within the storage behave as on a GPU; past the storage is a fault. */
static void test_api_buffer_at(void **state)
{
  (void)state;
  ttref_error e;
  static float st[3 * N], y[N], want[3 * N];
  ttref_kernel *k = ttref_kernel_load(vadd_path, NULL, &e);
  assert_non_null(k);
  ttref_launch *l = ttref_launch_new(k, &e);
  for (int i = 0; i < 3 * N; i++) st[i] = want[i] = (float)i * 0.25f - 7.0f;
  for (int i = 0; i < N; i++) y[i] = 1.0f / (float)(i + 3);
  /* o = storage[2N:], x = storage[N:2N]: one allocation, two views */
  assert_int_equal(ttref_launch_buffer_at(l, "x_ptr", st, sizeof st, N * sizeof(float), &e), TTREF_OK);
  assert_int_equal(ttref_launch_buffer(l, "y_ptr", y, sizeof y, &e), TTREF_OK);
  assert_int_equal(ttref_launch_buffer_at(l, "o_ptr", st, sizeof st, 2 * N * sizeof(float), &e), TTREF_OK);
  assert_int_equal(ttref_launch_scalar(l, "n", "4096", &e), TTREF_OK);
  assert_int_equal(ttref_launch_run(l, 4, 1, 1, &e), TTREF_OK);
  for (int i = 0; i < N; i++) want[2 * N + i] = want[N + i] + y[i];
  assert_memory_equal(st, want, sizeof st);
  /* in place: x and o are the same view; with races checked the aliasing is one allocation */
  assert_int_equal(ttref_launch_buffer_at(l, "o_ptr", st, sizeof st, N * sizeof(float), &e), TTREF_OK);
  assert_int_equal(ttref_launch_set(l, TTREF_OPT_CHECK_RACES, 1, &e), TTREF_OK);
  assert_int_equal(ttref_launch_run(l, 4, 1, 1, &e), TTREF_OK);
  for (int i = 0; i < N; i++) want[N + i] = want[N + i] + y[i];
  assert_memory_equal(st, want, sizeof st);
  /* n past the view but inside the storage reads on; past the storage faults */
  assert_int_equal(ttref_launch_buffer(l, "y_ptr", st, sizeof st, &e), TTREF_OK);
  assert_int_equal(ttref_launch_scalar(l, "n", "8192", &e), TTREF_OK);
  assert_int_equal(ttref_launch_buffer_at(l, "x_ptr", st, sizeof st, 0, &e), TTREF_OK);
  assert_int_equal(ttref_launch_buffer_at(l, "o_ptr", st, sizeof st, 0, &e), TTREF_OK);
  assert_int_equal(ttref_launch_run(l, 8, 1, 1, &e), TTREF_OK);
  for (int i = 0; i < 2 * N; i++) want[i] = want[i] + want[i];
  assert_memory_equal(st, want, sizeof st);
  assert_int_equal(ttref_launch_buffer_at(l, "x_ptr", st, sizeof st, 2 * N * sizeof(float), &e), TTREF_OK);
  assert_int_equal(ttref_launch_run(l, 8, 1, 1, &e), TTREF_E_FAULT);
  assert_has(&e, "out-of-bounds");
  assert_has(&e, "pid (4, 0, 0) lane 0");
  assert_int_equal(ttref_launch_buffer_at(l, "x_ptr", st, sizeof st, sizeof st + 4, &e), TTREF_E_INPUT);
  assert_has(&e, "past the end of its");
  assert_int_equal(ttref_launch_buffer_at(NULL, "x_ptr", st, sizeof st, 0, &e), TTREF_E_USAGE);
  ttref_launch_free(l);
  ttref_kernel_free(k);
}

static void test_api_bad_input(void **state)
{
  (void)state;
  ttref_error e;
  static vadd v;
  vadd_fill(&v);
  ttref_kernel *k = ttref_kernel_load(vadd_path, NULL, &e);
  ttref_launch *l = ttref_launch_new(k, &e);
  memset(&e, 0, sizeof e);
  assert_int_equal(ttref_launch_buffer(l, "z_ptr", v.x, sizeof v.x, &e), TTREF_E_INPUT);
  assert_has(&e, "unknown kernel argument 'z_ptr'");
  assert_has(&e, "note: kernel signature: @vadd(");
  assert_int_equal(ttref_launch_buffer(l, "n", v.x, sizeof v.x, &e), TTREF_E_INPUT);
  assert_has(&e, "ttref_launch_scalar");
  assert_int_equal(ttref_launch_scalar(l, "x_ptr", "1", &e), TTREF_E_INPUT);
  assert_has(&e, "ttref_launch_buffer");
  assert_int_equal(ttref_launch_buffer(l, "x_ptr", v.x, 6, &e), TTREF_E_INPUT);
  assert_has(&e, "not a whole number of f32 elements");
  static const char *const bad[] = {"", "1.5", "x", "4294967296", "-2147483649", "12abc"};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    assert_int_equal(ttref_launch_scalar(l, "n", bad[i], &e), TTREF_E_INPUT);
    assert_has(&e, "bad literal for i32 'n'");
  }
  assert_int_equal(ttref_launch_scalar(l, "n", "0xFFFFFFFF", &e), TTREF_OK); /* -1 spelled unsigned */
  assert_int_equal(ttref_launch_buffer(l, "x_ptr", v.x, sizeof v.x, &e), TTREF_OK);
  assert_int_equal(ttref_launch_run(l, 4, 1, 1, &e), TTREF_E_INPUT);
  assert_has(&e, "kernel argument 'y_ptr' is not bound");
  assert_int_equal(ttref_launch_buffer(l, "y_ptr", v.y, sizeof v.y, &e), TTREF_OK);
  assert_int_equal(ttref_launch_buffer(l, "o_ptr", v.o, sizeof v.o, &e), TTREF_OK);
  assert_int_equal(ttref_launch_run(l, 0x80000000u, 1, 1, &e), TTREF_E_INPUT);
  assert_has(&e, "below 2^31");
  assert_int_equal(ttref_launch_run(l, 0, 1, 1, &e), TTREF_OK); /* an empty grid runs nothing */
  assert_int_equal(ttref_launch_set(l, TTREF_OPT_THREADS, -1, &e), TTREF_E_INPUT);
  assert_has(&e, "option threads must be in [0, 4096]");
  assert_int_equal(ttref_launch_set(l, TTREF_OPTION_COUNT, 1, &e), TTREF_E_INPUT);
  assert_int_equal(ttref_launch_set(l, (ttref_option)-3, 1, &e), TTREF_E_INPUT);
  const double *pv, *pb;
  size_t n;
  assert_int_equal(ttref_launch_precise(l, "o_ptr", &pv, &pb, &n, &e), TTREF_E_INPUT);
  assert_has(&e, "no precise run");
  ttref_launch_free(l);
  ttref_kernel_free(k);
}

static void test_api_null_handles(void **state)
{
  (void)state;
  ttref_error e;
  float f = 0;
  const double *pv, *pb;
  size_t n;
  ttref_stats s;
  ttref_verdict vd;
  ttref_kernel_free(NULL);
  ttref_launch_free(NULL);
  assert_null(ttref_kernel_load(NULL, NULL, &e));
  assert_int_equal(e.code, TTREF_E_USAGE);
  assert_null(ttref_kernel_parse(NULL, 0, NULL, NULL, &e));
  assert_null(ttref_launch_new(NULL, &e));
  assert_has(&e, "ttref_launch_new: kernel is NULL");
  assert_int_equal(ttref_launch_buffer(NULL, "x", &f, 4, &e), TTREF_E_USAGE);
  assert_int_equal(ttref_launch_scalar(NULL, "n", "1", &e), TTREF_E_USAGE);
  assert_int_equal(ttref_launch_set(NULL, TTREF_OPT_THREADS, 1, &e), TTREF_E_USAGE);
  assert_int_equal(ttref_launch_run(NULL, 1, 1, 1, &e), TTREF_E_USAGE);
  assert_int_equal(ttref_launch_run(NULL, 1, 1, 1, NULL), TTREF_E_USAGE); /* err may be NULL */
  assert_int_equal(ttref_launch_precise(NULL, "o", &pv, &pb, &n, &e), TTREF_E_USAGE);
  assert_int_equal(ttref_launch_stats(NULL, &s, &e), TTREF_E_USAGE);
  assert_int_equal(ttref_compare(NULL, "f32", &f, &f, 1, NULL, NULL, NULL, &vd, &e), TTREF_E_USAGE);
  assert_int_equal(ttref_compare("exact", "f32", NULL, &f, 1, NULL, NULL, NULL, &vd, &e), TTREF_E_USAGE);
  assert_null(ttref_kernel_name(NULL));
  assert_int_equal(ttref_kernel_nargs(NULL), 0);
  assert_int_equal(ttref_kernel_arg_kind(NULL, 0), TTREF_ARG_INVALID);
  assert_int_equal(ttref_kernel_arg_index(NULL, "x"), -1);
  char sig[8] = "junk";
  ttref_kernel_signature(NULL, sig, sizeof sig);
  assert_string_equal(sig, "");
  ttref_kernel *k = ttref_kernel_load(vadd_path, NULL, &e);
  ttref_launch *l = ttref_launch_new(k, &e);
  assert_int_equal(ttref_launch_buffer(l, NULL, &f, 4, &e), TTREF_E_USAGE);
  assert_int_equal(ttref_launch_buffer(l, "x_ptr", NULL, 4, &e), TTREF_E_USAGE);
  assert_int_equal(ttref_launch_buffer(l, "x_ptr", NULL, 0, &e), TTREF_OK); /* an empty buffer */
  assert_int_equal(ttref_launch_scalar(l, "n", NULL, &e), TTREF_E_USAGE);
  ttref_launch_free(l);
  ttref_kernel_free(k);
  assert_string_equal(ttref_option_name(TTREF_OPT_MAX_STEPS), "max_steps");
  assert_string_equal(ttref_option_name(TTREF_OPTION_COUNT), "<invalid>");
  assert_int_equal(ttref_option_lookup("precise"), TTREF_OPT_PRECISE);
  assert_int_equal(ttref_option_lookup("nope"), -1);
  assert_int_equal(ttref_option_lookup(NULL), -1);
}

/* ---- options ---- */

static void test_api_threads_identical(void **state)
{
  (void)state;
  ttref_error e;
  static vadd a, b;
  vadd_fill(&a);
  vadd_fill(&b);
  ttref_kernel *k = ttref_kernel_load(vadd_path, NULL, &e);
  ttref_launch *la = vadd_launch(k, &a, "4096"), *lb = vadd_launch(k, &b, "4096");
  assert_int_equal(ttref_launch_set(la, TTREF_OPT_THREADS, 1, &e), TTREF_OK);
  assert_int_equal(ttref_launch_set(lb, TTREF_OPT_THREADS, 2, &e), TTREF_OK);
  assert_int_equal(ttref_launch_run(la, 4, 1, 1, &e), TTREF_OK);
  assert_int_equal(ttref_launch_run(lb, 4, 1, 1, &e), TTREF_OK);
  assert_memory_equal(a.o, b.o, sizeof a.o);
  ttref_launch_free(la);
  ttref_launch_free(lb);
  ttref_kernel_free(k);
}

static void test_api_max_steps(void **state)
{
  (void)state;
  ttref_error e;
  ttref_kernel *k = ttref_kernel_load(loop_path, NULL, &e);
  assert_non_null(k);
  ttref_launch *l = ttref_launch_new(k, &e);
  int64_t bufs[8][64];
  memset(bufs, 0, sizeof bufs);
  for (int i = 0; i < ttref_kernel_nargs(k); i++) {
    char pos[16];
    snprintf(pos, sizeof pos, "%d", i);
    if (ttref_kernel_arg_kind(k, i) == TTREF_ARG_POINTER)
      assert_int_equal(ttref_launch_buffer(l, pos, bufs[i], sizeof bufs[i], &e), TTREF_OK);
    else assert_int_equal(ttref_launch_scalar(l, pos, "5", &e), TTREF_OK); /* 5 > 1 forever */
  }
  assert_int_equal(ttref_launch_set(l, TTREF_OPT_MAX_STEPS, 1000, &e), TTREF_OK);
  assert_int_equal(ttref_launch_run(l, 1, 1, 1, &e), TTREF_E_FAULT);
  assert_has(&e, "1000");
  ttref_launch_free(l);
  ttref_kernel_free(k);
}

static void test_api_precise(void **state)
{
  (void)state;
  ttref_error e;
  static vadd v;
  vadd_fill(&v);
  ttref_kernel *k = ttref_kernel_load(vadd_path, NULL, &e);
  ttref_launch *l = vadd_launch(k, &v, "4096");
  assert_int_equal(ttref_launch_set(l, TTREF_OPT_PRECISE, 1, &e), TTREF_OK);
  static float x0[N];
  memcpy(x0, v.x, sizeof x0);
  assert_int_equal(ttref_launch_run(l, 4, 1, 1, &e), TTREF_OK);
  const double *pv, *pb;
  size_t n = 0;
  assert_int_equal(ttref_launch_precise(l, "o_ptr", &pv, &pb, &n, &e), TTREF_OK);
  assert_int_equal(n, N);
  for (int i = 0; i < N; i++) { /* binary64 sum of the f32 inputs, bound sum of magnitudes */
    const double want = (double)x0[i] + (double)v.y[i];
    if (pv[i] != want) fail_msg("precise o[%d] = %a, want %a", i, pv[i], want);
    if (pb[i] < (double)(x0[i] < 0 ? -x0[i] : x0[i])) fail_msg("bound o[%d] = %a", i, pb[i]);
  }
  assert_int_equal(ttref_launch_precise(l, "n", &pv, &pb, &n, &e), TTREF_E_INPUT);
  ttref_launch_free(l);
  ttref_kernel_free(k);
}

/* ---- judging ---- */

static void test_api_compare(void **state)
{
  (void)state;
  ttref_error e;
  ttref_verdict vd;
  float ref[8], got[8];
  for (int i = 0; i < 8; i++) ref[i] = got[i] = 1.0f + (float)i;
  assert_int_equal(ttref_compare("exact", "f32", got, ref, 8, NULL, NULL, NULL, &vd, &e), TTREF_OK);
  assert_true(vd.pass);
  uint32_t bits;
  memcpy(&bits, &got[5], 4);
  bits += 2; /* two ulps off */
  memcpy(&got[5], &bits, 4);
  assert_int_equal(ttref_compare("exact", "f32", got, ref, 8, NULL, NULL, NULL, &vd, &e), TTREF_OK);
  assert_false(vd.pass);
  assert_int_equal(vd.worst_index, 5);
  assert_true(vd.reason[0] != 0);
  assert_int_equal(ttref_compare("ulp", "f32", got, ref, 8, NULL, NULL, "ulp=1", &vd, &e), TTREF_OK);
  assert_false(vd.pass);
  assert_int_equal(vd.worst_index, 5);
  assert_true(vd.worst_err > 0);
  assert_int_equal(ttref_compare("ulp", "f32", got, ref, 8, NULL, NULL, "ulp=2, allow_ftz=true", &vd, &e), TTREF_OK);
  assert_true(vd.pass);
  /* bf16 as raw bits: 0x3f80 is 1.0, 0x3f81 the next value */
  uint16_t rb[2] = {0x3f80, 0x4000}, gb[2] = {0x3f81, 0x4000};
  assert_int_equal(ttref_compare("exact", "bf16", gb, rb, 2, NULL, NULL, NULL, &vd, &e), TTREF_OK);
  assert_false(vd.pass);
  assert_int_equal(vd.worst_index, 0);
  assert_true(vd.worst_got > 1.0 && vd.worst_ref == 1.0);
  int32_t ia[3] = {1, 2, 3}, ib[3] = {1, 2, 3};
  assert_int_equal(ttref_compare("exact", "i32", ia, ib, 3, NULL, NULL, NULL, &vd, &e), TTREF_OK);
  assert_true(vd.pass);
  /* bad input: a status with a message */
  assert_int_equal(ttref_compare("close", "f32", got, ref, 8, NULL, NULL, NULL, &vd, &e), TTREF_E_INPUT);
  assert_has(&e, "unknown compliance mode 'close'");
  assert_int_equal(ttref_compare("exact", "f33", got, ref, 8, NULL, NULL, NULL, &vd, &e), TTREF_E_INPUT);
  assert_has(&e, "unknown dtype 'f33'");
  assert_int_equal(ttref_compare("ulp", "f32", got, ref, 8, NULL, NULL, "ulps=2", &vd, &e), TTREF_E_INPUT);
  assert_has(&e, "ulps");
  assert_int_equal(ttref_compare("ulp", "f32", got, ref, 8, NULL, NULL, "ulp", &vd, &e), TTREF_E_INPUT);
  assert_has(&e, "NAME=VALUE");
  assert_int_equal(ttref_compare("reduce", "f32", got, ref, 8, NULL, NULL, "k=4", &vd, &e), TTREF_E_INPUT);
  assert_has(&e, "precise");
}

/* ---- .npy files ---- */

static void test_api_npy_roundtrip(void **state)
{
  (void)state;
  ttref_error e;
  char path[4096];
  const char *t = getenv("TMPDIR");
  snprintf(path, sizeof path, "%s/test_api.%d.npy", t && *t ? t : "/tmp", (int)getpid());
  uint16_t bits[6] = {0x3f80, 0x4000, 0x7fc0, 0xff80, 0x0001, 0x8000};
  ttref_array a = {'u', 2, 2, {2, 3}, 6, bits, sizeof bits}, b;
  assert_int_equal(ttref_npy_save(path, &a, &e), TTREF_OK);
  assert_int_equal(ttref_npy_load(path, &b, &e), TTREF_OK);
  assert_int_equal(b.kind, 'u');
  assert_int_equal(b.elsize, 2);
  assert_int_equal(b.rank, 2);
  assert_int_equal(b.shape[0], 2);
  assert_int_equal(b.shape[1], 3);
  assert_int_equal(b.numel, 6);
  assert_int_equal(b.nbytes, sizeof bits);
  assert_memory_equal(b.data, bits, sizeof bits);
  ttref_array_free(&b);
  assert_null(b.data);
  ttref_array_free(NULL);
  a.numel = 7; /* inconsistent with the shape */
  assert_int_equal(ttref_npy_save(path, &a, &e), TTREF_E_INPUT);
  assert_int_equal(ttref_npy_load(vadd_path, &b, &e), TTREF_E_INPUT); /* not a .npy file */
  assert_has(&e, "vadd_f32.ttir");
  assert_null(b.data);
  assert_int_equal(ttref_npy_load(NULL, &b, &e), TTREF_E_USAGE);
  assert_int_equal(ttref_npy_load(path, NULL, &e), TTREF_E_USAGE);
  assert_int_equal(ttref_npy_save(path, NULL, &e), TTREF_E_USAGE);
  remove(path);
}

/* ---- threads: two launches of one kernel at once ---- */

typedef struct job {
  const ttref_kernel *k;
  vadd v;
  ttref_status st;
} job;

static void *run_job(void *p)
{
  job *j = p;
  ttref_error e;
  ttref_launch *l = ttref_launch_new(j->k, &e);
  j->st = l ? TTREF_OK : e.code;
  if (j->st == TTREF_OK) j->st = ttref_launch_buffer(l, "x_ptr", j->v.x, sizeof j->v.x, &e);
  if (j->st == TTREF_OK) j->st = ttref_launch_buffer(l, "y_ptr", j->v.y, sizeof j->v.y, &e);
  if (j->st == TTREF_OK) j->st = ttref_launch_buffer(l, "o_ptr", j->v.o, sizeof j->v.o, &e);
  if (j->st == TTREF_OK) j->st = ttref_launch_scalar(l, "n", "4096", &e);
  for (int rep = 0; rep < 20 && j->st == TTREF_OK; rep++) j->st = ttref_launch_run(l, 4, 1, 1, &e);
  ttref_launch_free(l);
  return NULL;
}

static void test_api_two_threads(void **state)
{
  (void)state;
  ttref_error e;
  ttref_kernel *k = ttref_kernel_load(vadd_path, NULL, &e);
  static job jobs[2];
  pthread_t t[2];
  for (int j = 0; j < 2; j++) {
    jobs[j].k = k;
    vadd_fill(&jobs[j].v);
    for (int i = 0; i < N; i++) jobs[j].v.y[i] *= (float)(j + 2); /* different inputs per thread */
  }
  for (int j = 0; j < 2; j++) assert_int_equal(pthread_create(&t[j], NULL, run_job, &jobs[j]), 0);
  for (int j = 0; j < 2; j++) assert_int_equal(pthread_join(t[j], NULL), 0);
  for (int j = 0; j < 2; j++) {
    assert_int_equal(jobs[j].st, TTREF_OK);
    for (int i = 0; i < N; i++) {
      const float want = jobs[j].v.x[i] + jobs[j].v.y[i];
      if (memcmp(&jobs[j].v.o[i], &want, 4) != 0)
        fail_msg("thread %d o[%d] = %a, want %a", j, i, (double)jobs[j].v.o[i], (double)want);
    }
  }
  ttref_kernel_free(k);
}

/* the rest of the public functions with NULL handles and bad arguments */
static void test_api_null_handles_rest(void **state)
{
  (void)state;
  ttref_error e;
  float f = 0;
  const double *pv, *pb;
  size_t n;
  ttref_array a;
  assert_null(ttref_kernel_arg_name(NULL, 0));
  assert_null(ttref_kernel_arg_type(NULL, 0));
  assert_int_equal(ttref_kernel_arg_elem_bytes(NULL, 0), 0);
  assert_int_equal(ttref_launch_buffer_at(NULL, "x_ptr", &f, 4, 0, &e), TTREF_E_USAGE);
  assert_int_equal(ttref_npy_load(NULL, &a, &e), TTREF_E_USAGE);
  assert_int_equal(ttref_npy_load("x.npy", NULL, &e), TTREF_E_USAGE);
  assert_int_equal(ttref_npy_save(NULL, &a, &e), TTREF_E_USAGE);
  assert_int_equal(ttref_npy_save("x.npy", NULL, &e), TTREF_E_USAGE);
  ttref_array_free(NULL);
  assert_string_equal(ttref_status_str((ttref_status)-1), "<invalid>");
  assert_string_equal(ttref_status_str(TTREF_STATUS_COUNT), "<invalid>");
  assert_null(ttref_kernel_load_ex(NULL, NULL, NULL, &e));
  assert_int_equal(e.code, TTREF_E_USAGE);
  assert_null(ttref_kernel_parse_ex(NULL, 0, NULL, NULL, NULL, &e));
  assert_int_equal(e.code, TTREF_E_USAGE);
  ttref_kernel *k = ttref_kernel_load(vadd_path, NULL, &e);
  assert_non_null(k);
  assert_null(ttref_kernel_arg_name(k, -1));
  assert_null(ttref_kernel_arg_name(k, 99));
  assert_null(ttref_kernel_arg_type(k, 99));
  assert_int_equal(ttref_kernel_arg_elem_bytes(k, -1), 0);
  assert_int_equal(ttref_kernel_arg_index(k, NULL), -1);
  ttref_kernel_signature(k, NULL, 10); /* no buffer: nothing written, no crash */
  ttref_launch *l = ttref_launch_new(k, &e);
  assert_non_null(l);
  assert_int_equal(ttref_launch_buffer_at(l, NULL, &f, 4, 0, &e), TTREF_E_USAGE);
  assert_int_equal(ttref_launch_buffer_at(l, "x_ptr", NULL, 4, 0, &e), TTREF_E_USAGE);
  assert_int_equal(ttref_launch_buffer_at(l, "nope", &f, 4, 0, &e), TTREF_E_INPUT);
  assert_int_equal(ttref_launch_scalar(l, NULL, "1", &e), TTREF_E_USAGE);
  assert_int_equal(ttref_launch_set(l, (ttref_option)-1, 1, &e), TTREF_E_INPUT);
  assert_int_equal(ttref_launch_set(l, TTREF_OPTION_COUNT, 1, &e), TTREF_E_INPUT);
  assert_int_equal(ttref_launch_stats(l, NULL, &e), TTREF_E_USAGE);
  assert_int_equal(ttref_launch_precise(l, NULL, &pv, &pb, &n, &e), TTREF_E_USAGE);
  assert_int_equal(ttref_launch_precise(l, "o_ptr", NULL, &pb, &n, &e), TTREF_E_USAGE);
  assert_int_equal(ttref_launch_precise(l, "n", &pv, &pb, &n, &e), TTREF_E_INPUT); /* a scalar */
  ttref_launch_free(l);
  ttref_kernel_free(k);
}

/* traced kernels: bindings, their errors, and a launch whose rows sum to 1 */
static void test_api_traced_kernel(void **state)
{
  (void)state;
  ttref_error e;
  const char *syms[] = {"M=3", "K=16"}, *dts[] = {"input=f64", "output=f64"}, *bad[] = {"M"}, *nul[] = {NULL};
  ttref_fx_options o = {syms, 2, NULL, 0, 0};
  assert_null(ttref_kernel_load_fx(NULL, &o, &e));
  assert_int_equal(e.code, TTREF_E_USAGE);
  ttref_fx_options neg = {syms, -1, NULL, 0, 0};
  assert_null(ttref_kernel_load_fx(softmax_path, &neg, &e));
  assert_int_equal(e.code, TTREF_E_USAGE);
  ttref_fx_options nosyms = {NULL, 2, NULL, 0, 0};
  assert_null(ttref_kernel_load_fx(softmax_path, &nosyms, &e));
  assert_int_equal(e.code, TTREF_E_USAGE);
  ttref_fx_options nulsym = {nul, 1, NULL, 0, 0};
  assert_null(ttref_kernel_load_fx(softmax_path, &nulsym, &e));
  assert_int_equal(e.code, TTREF_E_USAGE);
  assert_null(ttref_kernel_load_fx(vadd_path, &o, &e));
  assert_has(&e, "is not a traced kernel");
  assert_null(ttref_kernel_load_fx(softmax_path, NULL, &e)); /* M and K unbound */
  assert_has(&e, "symbol 'M' is not bound");
  assert_null(ttref_kernel_load(softmax_path, NULL, &e)); /* the plain call takes .fx, without bindings */
  assert_has(&e, "is not bound");
  ttref_fx_options badsym = {bad, 1, NULL, 0, 0};
  assert_null(ttref_kernel_load_fx(softmax_path, &badsym, &e));
  assert_int_equal(e.code, TTREF_E_INPUT);
  ttref_fx_options full = {syms, 2, dts, 2, 1};
  ttref_kernel *k = ttref_kernel_load_fx(softmax_path, &full, &e);
  if (!k) fail_msg("%s", e.msg);
  assert_string_equal(ttref_kernel_arg_type(k, 0), "f64");
  double x[48], y[48] = {0};
  for (int i = 0; i < 48; i++) x[i] = (double)(i % 7) - 2.5;
  ttref_launch *l = ttref_launch_new(k, &e);
  assert_int_equal(ttref_launch_buffer(l, "input", x, sizeof x, &e), TTREF_OK);
  assert_int_equal(ttref_launch_buffer(l, "output", y, sizeof y, &e), TTREF_OK);
  assert_int_equal(ttref_launch_run(l, 3, 1, 1, &e), TTREF_OK);
  for (int r = 0; r < 3; r++) {
    double sum = 0;
    for (int c = 0; c < 16; c++) sum += y[r * 16 + c];
    assert_true(sum > 1 - 1e-12 && sum < 1 + 1e-12);
  }
  ttref_launch_free(l);
  ttref_kernel_free(k);
}

/* ---- vendor ops through the API ---- */

static int axpb(void *ud, const ttref_op_attrs *attrs, int n, const ttref_value *in, ttref_value *out)
{
  double a = 0;
  (void)n;
  if (!ttref_op_attr_float(attrs, "a", &a)) return 1;
  out->f = a * in[0].f + *(const double *)ud + in[1].f;
  return 0;
}
static int boom(void *ud, const ttref_op_attrs *attrs, int n, const ttref_tensor *in, ttref_tensor *out, char *msg,
                size_t msgn)
{
  (void)ud, (void)attrs, (void)n, (void)out;
  snprintf(msg, msgn, "boom on %lld %s elements", (long long)in[0].numel, in[0].type.dtype);
  return 1;
}

#define VTEXT(EXTRA)                                                                                                   \
  "module {\n  tt.func public @v(%x_ptr: !tt.ptr<f32>, %o_ptr: !tt.ptr<f32>) {\n"                                      \
  "    %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>\n"                                        \
  "    %xp = tt.splat %x_ptr : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>\n"                                              \
  "    %xa = tt.addptr %xp, %r : tensor<16x!tt.ptr<f32>>, tensor<16xi32>\n"                                            \
  "    %x = tt.load %xa : tensor<16x!tt.ptr<f32>>\n"                                                                   \
  "    %y = \"acme.axpb\"(%x, %x) {a = 2.5 : f32} : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>\n" EXTRA        \
  "    %op = tt.splat %o_ptr : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>\n"                                              \
  "    %oa = tt.addptr %op, %r : tensor<16x!tt.ptr<f32>>, tensor<16xi32>\n"                                            \
  "    tt.store %oa, %y : tensor<16x!tt.ptr<f32>>\n    tt.return\n  }\n}\n"

static void test_api_vendor_registry(void **state)
{
  (void)state;
  ttref_error e;
  static const double b = 0.125;
  ttref_registry *reg = ttref_registry_new(&e);
  assert_non_null(reg);
  ttref_op_def d = {"acme.axpb", 2, NULL, axpb, NULL, (void *)&b};
  assert_int_equal(ttref_registry_add(NULL, &d, &e), TTREF_E_USAGE);
  assert_int_equal(ttref_registry_add(reg, NULL, &e), TTREF_E_USAGE);
  ttref_op_def bad = d;
  bad.name = NULL;
  assert_int_equal(ttref_registry_add(reg, &bad, &e), TTREF_E_INPUT);
  bad.name = "nodialect";
  assert_int_equal(ttref_registry_add(reg, &bad, &e), TTREF_E_INPUT);
  assert_has(&e, "bad op name 'nodialect'");
  bad.name = "acme.";
  assert_int_equal(ttref_registry_add(reg, &bad, &e), TTREF_E_INPUT);
  bad.name = "acme.a b";
  assert_int_equal(ttref_registry_add(reg, &bad, &e), TTREF_E_INPUT);
  bad.name = "tt.load";
  assert_int_equal(ttref_registry_add(reg, &bad, &e), TTREF_E_INPUT);
  assert_has(&e, "'tt.load' is a built-in op");
  bad.name = "<vendor op>";
  assert_int_equal(ttref_registry_add(reg, &bad, &e), TTREF_E_INPUT);
  bad = d;
  bad.nopnds = 17;
  assert_int_equal(ttref_registry_add(reg, &bad, &e), TTREF_E_INPUT);
  bad.nopnds = -2;
  assert_int_equal(ttref_registry_add(reg, &bad, &e), TTREF_E_INPUT);
  bad = d;
  bad.elementwise = NULL;
  assert_int_equal(ttref_registry_add(reg, &bad, &e), TTREF_E_INPUT);
  assert_has(&e, "exactly one of elementwise and tensor");
  bad.elementwise = axpb;
  bad.tensor = boom;
  assert_int_equal(ttref_registry_add(reg, &bad, &e), TTREF_E_INPUT);
  assert_int_equal(ttref_registry_add(reg, &d, &e), TTREF_OK);
  assert_int_equal(ttref_registry_add(reg, &d, &e), TTREF_E_INPUT);
  assert_has(&e, "'acme.axpb' is already registered");
  ttref_op_def bd = {"acme.boom", 1, NULL, NULL, boom, NULL};
  assert_int_equal(ttref_registry_add(reg, &bd, &e), TTREF_OK);
  assert_int_equal(ttref_registry_load(NULL, "x.so", &e), TTREF_E_USAGE);
  assert_int_equal(ttref_registry_load(reg, NULL, &e), TTREF_E_USAGE);
  assert_int_equal(ttref_registry_load(reg, "/nonexistent/ops.so", &e), TTREF_E_IO);
  assert_has(&e, "cannot load ops plugin /nonexistent/ops.so");
  assert_int_equal(ttref_op_attr_int(NULL, "a", NULL), 0);
  assert_int_equal(ttref_op_attr_float(NULL, "a", NULL), 0);
  ttref_registry_free(NULL);

  static const char good[] = VTEXT("");
  assert_null(ttref_kernel_parse_ex(good, strlen(good), "v.ttir", NULL, NULL, &e)); /* no registry: unknown */
  assert_int_equal(e.code, TTREF_E_SYNTAX);
  assert_has(&e, "v.ttir:7:10: error: unknown op \"acme.axpb\"");
  assert_null(ttref_kernel_parse(good, strlen(good), "v.ttir", NULL, &e)); /* the plain call: built-ins only */
  ttref_kernel *k = ttref_kernel_parse_ex(good, strlen(good), "v.ttir", NULL, reg, &e);
  assert_non_null(k);
  float x[16], o[16];
  for (int i = 0; i < 16; i++) x[i] = (float)i * 0.7f - 3.0f, o[i] = 0;
  ttref_launch *l = ttref_launch_new(k, &e);
  assert_int_equal(ttref_launch_buffer(l, "x_ptr", x, sizeof x, &e), TTREF_OK);
  assert_int_equal(ttref_launch_buffer(l, "o_ptr", o, sizeof o, &e), TTREF_OK);
  assert_int_equal(ttref_launch_run(l, 1, 1, 1, &e), TTREF_OK);
  for (int i = 0; i < 16; i++) assert_true(o[i] == (float)(2.5 * (double)x[i] + b + (double)x[i]));
  ttref_launch_free(l);
  ttref_kernel_free(k);

  static const char bad_arity[] = "module {\n  tt.func public @v(%x: f32) {\n    %0 = \"acme.axpb\"(%x) {a = 1.0 : "
                                  "f32} : (f32) -> f32\n    tt.return\n  }\n}\n";
  assert_null(ttref_kernel_parse_ex(bad_arity, strlen(bad_arity), "a.ttir", NULL, reg, &e));
  assert_int_equal(e.code, TTREF_E_VERIFY);
  assert_has(&e, "a.ttir:3:5: error: 'acme.axpb' op expected 2 operands, but found 1");

  static const char faulty[] = VTEXT("    %z = \"acme.boom\"(%y) : (tensor<16xf32>) -> tensor<16xf32>\n");
  k = ttref_kernel_parse_ex(faulty, strlen(faulty), "f.ttir", NULL, reg, &e);
  assert_non_null(k);
  l = ttref_launch_new(k, &e);
  assert_int_equal(ttref_launch_buffer(l, "x_ptr", x, sizeof x, &e), TTREF_OK);
  assert_int_equal(ttref_launch_buffer(l, "o_ptr", o, sizeof o, &e), TTREF_OK);
  assert_int_equal(ttref_launch_run(l, 1, 1, 1, &e), TTREF_E_FAULT);
  assert_has(&e, "f.ttir:8:5: error: vendor op 'acme.boom' failed: boom on 16 f32 elements: pid (0, 0, 0)");
  ttref_launch_free(l);
  ttref_kernel_free(k);
  ttref_registry_free(reg);
}

/*
 * Runs attempt with allocation request n refused, for n = 1, 2, ... until an attempt succeeds: each
 * failing one must fail with TTREF_E_NOMEM, and every attempt must free all it allocated; at least
 * one must fail.
 * attempt(ud, e) frees what it made before it returns its status.
 */
static void nomem_sweep(ttref_status (*attempt)(void *ud, ttref_error *e), void *ud)
{
  int saw_ok = 0;
  long n = 1;
  for (; n < 100000 && !saw_ok; n++) {
    ttref_error e;
    memset(&e, 0, sizeof e);
    unit_alloc.requests = 0;
    unit_alloc.fail_at = n;
    const ttref_status st = attempt(ud, &e);
    unit_alloc.fail_at = 0;
    if (st == TTREF_OK) saw_ok = 1;
    else if (e.code != TTREF_E_NOMEM)
      fail_msg("allocation %ld failing gave %s: %s", n, ttref_status_str(e.code), e.msg);
    if (unit_alloc.live != 0)
      fail_msg("allocation %ld failing (%s) leaked %zu bytes", n, e.msg, (size_t)unit_alloc.live);
  }
  assert_true(saw_ok);
  assert_true(n > 2); /* at least one attempt met a refused allocation */
}

static ttref_status vendor_load(void *ud, ttref_error *e)
{
  (void)ud;
  static const double b = 0;
  static const char good[] = VTEXT("");
  ttref_status st = TTREF_E_NOMEM;
  ttref_kernel *k = NULL;
  ttref_op_def d = {"acme.axpb", 2, NULL, axpb, NULL, (void *)&b};
  ttref_registry *reg = ttref_registry_new(e);
  if (reg) st = ttref_registry_add(reg, &d, e);
  if (st == TTREF_OK && !(k = ttref_kernel_parse_ex(good, strlen(good), "v.ttir", NULL, reg, e))) st = e->code;
  unit_alloc.fail_at = 0;
  ttref_kernel_free(k);
  ttref_registry_free(reg);
  return st;
}

/* every failing allocation while registering and loading with vendor ops is a status, no leak */
static void test_api_vendor_nomem(void **state)
{
  (void)state;
  nomem_sweep(vendor_load, NULL);
}

/* ---- out of memory: every failing allocation is a status, and nothing leaks ---- */

static ttref_status vadd_run(void *ud, ttref_error *e)
{
  vadd *v = ud;
  ttref_launch *l = NULL;
  ttref_status st = TTREF_E_NOMEM;
  vadd_fill(v);
  ttref_kernel *k = ttref_kernel_load(vadd_path, NULL, e);
  if (k) l = ttref_launch_new(k, e);
  if (l) st = ttref_launch_buffer(l, "x_ptr", v->x, sizeof v->x, e);
  if (st == TTREF_OK) st = ttref_launch_buffer(l, "y_ptr", v->y, sizeof v->y, e);
  if (st == TTREF_OK) st = ttref_launch_buffer(l, "o_ptr", v->o, sizeof v->o, e);
  if (st == TTREF_OK) st = ttref_launch_scalar(l, "n", "4096", e);
  if (st == TTREF_OK) st = ttref_launch_set(l, TTREF_OPT_PRECISE, 1, e);
  if (st == TTREF_OK) st = ttref_launch_set(l, TTREF_OPT_THREADS, 1, e);
  if (st == TTREF_OK) st = ttref_launch_run(l, 4, 1, 1, e);
  unit_alloc.fail_at = 0;
  ttref_launch_free(l);
  ttref_kernel_free(k);
  return st;
}

static void test_api_nomem(void **state)
{
  (void)state;
  static vadd v;
  nomem_sweep(vadd_run, &v);
}

/* ---- API version 2: what `ttref run` is built on ---- */

static void save_f32(const char *name, const float *v, int64_t n)
{
  ttref_error e;
  ttref_array a = {'f', 4, 1, {n}, n, (void *)(uintptr_t)v, (size_t)n * 4};
  if (ttref_npy_save(unit_tmp_path(name), &a, &e) != TTREF_OK) fail_msg("%s", e.msg);
}

/* "NAME=@TMPDIR/FILE" into buf */
static const char *spec_at(char *buf, size_t n, const char *name, const char *file)
{
  snprintf(buf, n, "%s=@%s/%s", name, unit_tmpdir(), file);
  return buf;
}

static void test_api_v2_names(void **state)
{
  (void)state;
  assert_int_equal(ttref_api_version(), TTREF_API_VERSION);
  assert_true(TTREF_API_VERSION >= 2);
  assert_int_equal(TTREF_STAT_COUNT, 9);
  assert_string_equal(ttref_stat_name(TTREF_STAT_DIV_ZERO), "div_zero");
  assert_string_equal(ttref_stat_label(TTREF_STAT_OVERFLOW), "nsw/nuw overflow");
  assert_string_equal(ttref_stat_name((ttref_stat)TTREF_STAT_COUNT), "<invalid>");
  assert_string_equal(ttref_stat_label((ttref_stat)-1), "<invalid>");
  assert_int_equal(ttref_launch_stat(NULL, TTREF_STAT_PROGRAMS), 0);
  /* options of version 1 keep their values; the new ones come after them */
  assert_int_equal(TTREF_OPT_MAX_STEPS, 5);
  assert_int_equal(ttref_option_lookup("trap"), TTREF_OPT_TRAP);
  assert_int_equal(ttref_option_lookup("check_uninit"), TTREF_OPT_CHECK_UNINIT);
  assert_int_equal(ttref_option_lookup("ub"), TTREF_OPT_UB);
  assert_true(ttref_kernel_is_fx(softmax_path));
  assert_false(ttref_kernel_is_fx(vadd_path));
  assert_false(ttref_kernel_is_fx(NULL));
}

static void test_api_bind_args_save(void **state)
{
  (void)state;
  ttref_error e;
  static vadd v;
  char sx[700], sy[700];
  vadd_fill(&v);
  save_f32("x.npy", v.x, N);
  save_f32("y.npy", v.y, N);
  ttref_kernel *k = ttref_kernel_load(vadd_path, NULL, &e);
  ttref_launch *l = ttref_launch_new(k, &e);
  const char *specs[] = {spec_at(sx, sizeof sx, "x_ptr", "x.npy"), spec_at(sy, sizeof sy, "%y_ptr", "y.npy"),
                         "2=@new:f32[4096]", "n=4000"};
  if (ttref_launch_bind_args(l, specs, 4, &e) != TTREF_OK) fail_msg("%s", e.msg);
  assert_int_equal(ttref_launch_scalar(l, "n", "1", &e), TTREF_E_USAGE); /* bound from specs */
  assert_int_equal(ttref_launch_buffer(l, "o_ptr", v.o, sizeof v.o, &e), TTREF_E_USAGE);
  assert_int_equal(ttref_launch_set(l, TTREF_OPT_THREADS, 2, &e), TTREF_OK);
  assert_int_equal(ttref_launch_run(l, 4, 1, 1, &e), TTREF_OK);
  assert_int_equal(ttref_launch_stat(l, TTREF_STAT_PROGRAMS), 4);
  assert_int_equal(ttref_launch_save(l, unit_tmp_path("out/sub"), TTREF_SAVE_CHECK, &e), TTREF_OK);
  assert_int_not_equal(access(unit_tmp_path("out/sub/o_ptr.npy"), F_OK), 0); /* a check writes nothing */
  if (ttref_launch_save(l, unit_tmp_path("out/sub"), 0, &e) != TTREF_OK) fail_msg("%s", e.msg);
  ttref_array o;
  assert_int_equal(ttref_npy_load(unit_tmp_path("out/sub/o_ptr.npy"), &o, &e), TTREF_OK);
  assert_int_equal(o.numel, N);
  assert_int_equal(o.kind, 'f');
  const float *got = o.data;
  for (int i = 0; i < N; i++) { /* the sums, and zeros where the fresh buffer was not written */
    const float want = i < 4000 ? v.x[i] + v.y[i] : 0.0f;
    if (memcmp(&got[i], &want, 4) != 0) fail_msg("o[%d] = %a, want %a", i, (double)got[i], (double)want);
  }
  ttref_array_free(&o);
  assert_int_equal(ttref_npy_load(unit_tmp_path("out/sub/x_ptr.npy"), &o, &e), TTREF_OK);
  assert_memory_equal(o.data, v.x, sizeof v.x);
  ttref_array_free(&o);
  /* a launch bound by buffers has no files to save */
  ttref_launch *lb = vadd_launch(k, &v, "4");
  assert_int_equal(ttref_launch_save(lb, unit_tmpdir(), 0, &e), TTREF_E_USAGE);
  assert_has(&e, "ttref_launch_bind_args");
  ttref_launch_free(lb);
  ttref_launch_free(l);
  ttref_kernel_free(k);
}

/* ttref_launch_set_outputs: only the named buffers are saved; bad names keep the previous choice. */
static void test_api_set_outputs(void **state)
{
  (void)state;
  ttref_error e;
  static vadd v;
  char sx[700], sy[700];
  vadd_fill(&v);
  save_f32("x.npy", v.x, N);
  save_f32("y.npy", v.y, N);
  ttref_kernel *k = ttref_kernel_load(vadd_path, NULL, &e);
  ttref_launch *l = ttref_launch_new(k, &e);
  const char *specs[] = {spec_at(sx, sizeof sx, "x_ptr", "x.npy"), spec_at(sy, sizeof sy, "y_ptr", "y.npy"),
                         "o_ptr=@new:f32[4096]", "n=4096"};
  assert_int_equal(ttref_launch_bind_args(l, specs, 4, &e), TTREF_OK);
  const char *outs[] = {"%o_ptr", "o_ptr"};
  assert_int_equal(ttref_launch_set_outputs(l, outs, 2, &e), TTREF_OK);
  const char *bad1[] = {"q_ptr"}, *bad2[] = {"n"}, *nul[] = {NULL};
  assert_int_equal(ttref_launch_set_outputs(l, bad1, 1, &e), TTREF_E_INPUT);
  assert_has(&e, "output 'q_ptr' is not an argument of the kernel (pointer arguments: x_ptr, y_ptr, o_ptr)");
  assert_int_equal(ttref_launch_set_outputs(l, bad2, 1, &e), TTREF_E_INPUT);
  assert_has(&e, "output 'n' is not a pointer argument");
  assert_int_equal(ttref_launch_set_outputs(l, nul, 1, &e), TTREF_E_USAGE);
  assert_int_equal(ttref_launch_set_outputs(l, NULL, 1, &e), TTREF_E_USAGE);
  assert_int_equal(ttref_launch_set_outputs(l, outs, -1, &e), TTREF_E_USAGE);
  assert_int_equal(ttref_launch_set_outputs(NULL, outs, 1, &e), TTREF_E_USAGE);
  assert_int_equal(ttref_launch_run(l, 4, 1, 1, &e), TTREF_OK);
  assert_int_equal(ttref_launch_save(l, unit_tmp_path("only"), 0, &e), TTREF_OK);
  assert_int_not_equal(access(unit_tmp_path("only/x_ptr.npy"), F_OK), 0); /* not named: not written */
  assert_int_not_equal(access(unit_tmp_path("only/y_ptr.npy"), F_OK), 0);
  ttref_array o;
  assert_int_equal(ttref_npy_load(unit_tmp_path("only/o_ptr.npy"), &o, &e), TTREF_OK);
  const float *got = o.data;
  for (int i = 0; i < N; i++) {
    const float want = v.x[i] + v.y[i];
    if (memcmp(&got[i], &want, 4) != 0) fail_msg("o[%d] = %a, want %a", i, (double)got[i], (double)want);
  }
  ttref_array_free(&o);
  assert_int_equal(ttref_launch_set_outputs(l, NULL, 0, &e), TTREF_OK); /* every buffer again */
  assert_int_equal(ttref_launch_save(l, unit_tmp_path("all"), 0, &e), TTREF_OK);
  assert_int_equal(access(unit_tmp_path("all/x_ptr.npy"), F_OK), 0);
  ttref_launch_free(l);
  ttref_kernel_free(k);
}

static void test_api_bind_args_errors(void **state)
{
  (void)state;
  ttref_error e;
  char sx[700], sy[700], sd[700];
  static float x[16];
  static double d[16];
  save_f32("x.npy", x, 16);
  {
    ttref_array a = {'f', 8, 1, {16}, 16, d, sizeof d};
    assert_int_equal(ttref_npy_save(unit_tmp_path("d.npy"), &a, &e), TTREF_OK);
  }
  ttref_kernel *k = ttref_kernel_load(vadd_path, NULL, &e);
  ttref_launch *l = ttref_launch_new(k, &e);
  spec_at(sx, sizeof sx, "x_ptr", "x.npy");
  spec_at(sy, sizeof sy, "y_ptr", "x.npy");
  const struct {
    const char *specs[5];
    int n;
    const char *want;
  } bad[] = {
      {{sx, sy, "o_ptr=@new:f32[16]", "nope=1"}, 4, "unknown kernel argument 'nope'"},
      {{sx, sy, "o_ptr=@new:f32[16]"}, 3, "missing kernel argument 'n'"},
      {{sx, sy, "o_ptr=@new:f32[16]", "n=1", "n=2"}, 5, "argument 'n' is bound twice"},
      {{sx, sy, "o_ptr=@new:f32[16]", "n=1.5"}, 4, "bad literal for i32: '1.5'"},
      {{sx, sy, "o_ptr=@new:f16[16]", "n=1"}, 4, "bad fresh buffer"},
      {{spec_at(sd, sizeof sd, "x_ptr", "d.npy"), sy, "o_ptr=@new:f32[16]", "n=1"}, 4, "element size mismatch"},
      {{sx, sy, "o_ptr=5", "n=1"}, 4, "needs a file"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    memset(&e, 0, sizeof e);
    assert_int_equal(ttref_launch_bind_args(l, bad[i].specs, bad[i].n, &e), TTREF_E_INPUT);
    assert_has(&e, bad[i].want);
    assert_has(&e, "note: kernel signature: ");
  }
  /* after a failed binding the launch is unbound */
  assert_int_equal(ttref_launch_run(l, 1, 1, 1, &e), TTREF_E_INPUT);
  const char *nul[] = {NULL};
  assert_int_equal(ttref_launch_bind_args(l, nul, 1, &e), TTREF_E_USAGE);
  assert_int_equal(ttref_launch_bind_args(l, NULL, 1, &e), TTREF_E_USAGE);
  assert_int_equal(ttref_launch_bind_args(NULL, NULL, 0, &e), TTREF_E_USAGE);
  assert_int_equal(ttref_launch_save(NULL, unit_tmpdir(), 0, &e), TTREF_E_USAGE);
  assert_int_equal(ttref_launch_save(l, NULL, 0, &e), TTREF_E_USAGE);
  ttref_launch_free(l);
  ttref_kernel_free(k);
  /* with the precise option, X and X.precise would both write X.precise.npy */
  static const char two[] = "module {\n  tt.func public @k(%a: !tt.ptr<f32>, %a.precise: !tt.ptr<f32>) {\n"
                            "    tt.return\n  }\n}\n";
  k = ttref_kernel_parse(two, sizeof two - 1, "two.ttir", NULL, &e);
  if (!k) fail_msg("%s", e.msg);
  l = ttref_launch_new(k, &e);
  const char *ss[] = {spec_at(sx, sizeof sx, "a", "x.npy"), spec_at(sy, sizeof sy, "1", "x.npy")};
  assert_int_equal(ttref_launch_bind_args(l, ss, 2, &e), TTREF_OK);
  assert_int_equal(ttref_launch_save(l, unit_tmpdir(), TTREF_SAVE_CHECK, &e), TTREF_OK);
  assert_int_equal(ttref_launch_set(l, TTREF_OPT_PRECISE, 1, &e), TTREF_OK);
  assert_int_equal(ttref_launch_save(l, unit_tmpdir(), TTREF_SAVE_CHECK, &e), TTREF_E_USAGE);
  assert_has(&e, "collide");
  ttref_launch_free(l);
  ttref_kernel_free(k);
}

static void test_api_bind_args_precise(void **state)
{
  (void)state;
  ttref_error e;
  static vadd v;
  char sx[700], sy[700], so[700];
  vadd_fill(&v);
  save_f32("x.npy", v.x, N);
  save_f32("y.npy", v.y, N);
  save_f32("o.npy", v.o, N);
  ttref_kernel *k = ttref_kernel_load(vadd_path, NULL, &e);
  ttref_launch *l = ttref_launch_new(k, &e);
  const char *specs[] = {spec_at(sx, sizeof sx, "x_ptr", "x.npy"), spec_at(sy, sizeof sy, "y_ptr", "y.npy"),
                         spec_at(so, sizeof so, "o_ptr", "o.npy"), "n=4096"};
  assert_int_equal(ttref_launch_bind_args(l, specs, 4, &e), TTREF_OK);
  const double *pv, *pb;
  size_t n;
  assert_int_equal(ttref_launch_precise(l, "o_ptr", &pv, &pb, &n, &e), TTREF_E_INPUT); /* no run yet */
  assert_int_equal(ttref_launch_set(l, TTREF_OPT_PRECISE, 1, &e), TTREF_OK);
  assert_int_equal(ttref_launch_run(l, 4, 1, 1, &e), TTREF_OK);
  assert_int_equal(ttref_launch_precise(l, "o_ptr", &pv, &pb, &n, &e), TTREF_OK);
  assert_int_equal(n, N);
  for (int i = 0; i < N; i++) { /* binary64 sums and bounds |x| + |y| */
    const double want = (double)v.x[i] + (double)v.y[i], wb = fabs((double)v.x[i]) + fabs((double)v.y[i]);
    if (pv[i] != want || pb[i] != wb) fail_msg("o[%d]: %a / %a, want %a / %a", i, pv[i], pb[i], want, wb);
  }
  assert_int_equal(ttref_launch_save(l, unit_tmpdir(), 0, &e), TTREF_OK);
  ttref_array a;
  assert_int_equal(ttref_npy_load(unit_tmp_path("o_ptr.precise.npy"), &a, &e), TTREF_OK);
  assert_int_equal(a.kind, 'f');
  assert_int_equal(a.elsize, 8);
  assert_memory_equal(a.data, pv, N * sizeof(double));
  ttref_array_free(&a);
  assert_int_equal(ttref_npy_load(unit_tmp_path("o_ptr.bound.npy"), &a, &e), TTREF_OK);
  assert_memory_equal(a.data, pb, N * sizeof(double));
  ttref_array_free(&a);
  ttref_launch_free(l);
  ttref_kernel_free(k);
}

/* A 16-lane kernel of element type T: o = BODY(x), with %x loaded and %y stored. */
#define KTEXT(T, BODY)                                                                                                 \
  "module {\n  tt.func public @k(%x_ptr: !tt.ptr<" T ">, %o_ptr: !tt.ptr<" T ">) {\n"                                  \
  "    %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>\n"                                        \
  "    %xp = tt.splat %x_ptr : !tt.ptr<" T "> -> tensor<16x!tt.ptr<" T ">>\n"                                          \
  "    %xa = tt.addptr %xp, %r : tensor<16x!tt.ptr<" T ">>, tensor<16xi32>\n"                                          \
  "    %x = tt.load %xa : tensor<16x!tt.ptr<" T ">>\n"                                                                 \
  "    " BODY "\n"                                                                                                     \
  "    %op = tt.splat %o_ptr : !tt.ptr<" T "> -> tensor<16x!tt.ptr<" T ">>\n"                                          \
  "    %oa = tt.addptr %op, %r : tensor<16x!tt.ptr<" T ">>, tensor<16xi32>\n"                                          \
  "    tt.store %oa, %y : tensor<16x!tt.ptr<" T ">>\n    tt.return\n  }\n}\n"

/* Run kernel @p text over x (16 elements, all zero but x[3] = @p x3) with option @p o = @p v. */
static ttref_status run16(const char *text, int is_int, double x3, ttref_option o, int64_t v, int64_t *stat,
                          ttref_stat which, ttref_error *e)
{
  float xf[16] = {0}, of[16] = {0};
  int32_t xi[16] = {0}, oi[16] = {0};
  xf[3] = (float)x3;
  xi[3] = (int32_t)x3;
  ttref_kernel *k = ttref_kernel_parse(text, strlen(text), "k16.ttir", NULL, e);
  if (!k) fail_msg("%s", e->msg);
  ttref_launch *l = ttref_launch_new(k, e);
  assert_int_equal(ttref_launch_buffer(l, "x_ptr", is_int ? (void *)xi : (void *)xf, 64, e), TTREF_OK);
  assert_int_equal(ttref_launch_buffer(l, "o_ptr", is_int ? (void *)oi : (void *)of, 64, e), TTREF_OK);
  assert_int_equal(ttref_launch_set(l, o, v, e), TTREF_OK);
  ttref_status st = ttref_launch_run(l, 1, 1, 1, e);
  if (stat) *stat = ttref_launch_stat(l, which);
  ttref_launch_free(l);
  ttref_kernel_free(k);
  return st;
}

static void test_api_debug_options(void **state)
{
  (void)state;
  ttref_error e;
  int64_t c;
  static const char nan_k[] = KTEXT("f32", "%y = arith.divf %x, %x : tensor<16xf32>");
  static const char div_k[] = KTEXT("i32", "%y = arith.divsi %x, %x : tensor<16xi32>");
  static const char nsw_k[] = KTEXT("i32", "%y = arith.muli %x, %x overflow<nsw> : tensor<16xi32>");
  /* trap: 0/0 creates NaN in lane 0 */
  assert_int_equal(run16(nan_k, 0, 1, TTREF_OPT_TRAP, 0, NULL, TTREF_STAT_PROGRAMS, &e), TTREF_OK);
  memset(&e, 0, sizeof e);
  assert_int_equal(run16(nan_k, 0, 1, TTREF_OPT_TRAP, 1, NULL, TTREF_STAT_PROGRAMS, &e), TTREF_E_FAULT);
  assert_has(&e, "k16.ttir:7:5: error: NaN created by 'arith.divf'");
  assert_has(&e, "lane 0");
  assert_int_equal(run16(nan_k, 0, 1, TTREF_OPT_TRAP, 2, NULL, TTREF_STAT_PROGRAMS, &e), TTREF_OK); /* inf only */
  /* UB: division by zero in 15 lanes is counted in every mode, a fault with ub=2 */
  assert_int_equal(run16(div_k, 1, 7, TTREF_OPT_UB, 0, &c, TTREF_STAT_DIV_ZERO, &e), TTREF_OK);
  assert_int_equal(c, 15);
  assert_int_equal(run16(div_k, 1, 7, TTREF_OPT_UB, 3, &c, TTREF_STAT_DIV_ZERO, &e), TTREF_OK);
  assert_int_equal(c, 15);
  assert_int_equal(run16(div_k, 1, 7, TTREF_OPT_UB, 2, NULL, TTREF_STAT_PROGRAMS, &e), TTREF_E_FAULT);
  assert_has(&e, "integer division by zero");
  /* nsw overflow (65536^2) is only checked with a UB mode */
  assert_int_equal(run16(nsw_k, 1, 65536, TTREF_OPT_UB, 0, &c, TTREF_STAT_OVERFLOW, &e), TTREF_OK);
  assert_int_equal(c, 0);
  assert_int_equal(run16(nsw_k, 1, 65536, TTREF_OPT_UB, 3, &c, TTREF_STAT_OVERFLOW, &e), TTREF_OK);
  assert_int_equal(c, 1);
  {
    ttref_kernel *kv = ttref_kernel_load(vadd_path, NULL, &e);
    ttref_launch *lv = ttref_launch_new(kv, &e);
    assert_int_equal(ttref_launch_set(lv, TTREF_OPT_UB, 4, &e), TTREF_E_INPUT);
    assert_int_equal(ttref_launch_set(lv, TTREF_OPT_TRAP, 4, &e), TTREF_E_INPUT);
    assert_int_equal(ttref_launch_set(lv, TTREF_OPT_CHECK_UNINIT, -1, &e), TTREF_E_INPUT);
    ttref_launch_free(lv);
    ttref_kernel_free(kv);
  }
  /* check_uninit: reading a fresh buffer before anything wrote it */
  static const char copy_k[] = KTEXT("f32", "%y = arith.addf %x, %x : tensor<16xf32>");
  ttref_kernel *k = ttref_kernel_parse(copy_k, sizeof copy_k - 1, "copy.ttir", NULL, &e);
  ttref_launch *l = ttref_launch_new(k, &e);
  const char *specs[] = {"x_ptr=@new:f32[16]", "o_ptr=@new:f32[16]"};
  assert_int_equal(ttref_launch_bind_args(l, specs, 2, &e), TTREF_OK);
  assert_int_equal(ttref_launch_run(l, 1, 1, 1, &e), TTREF_OK);
  assert_int_equal(ttref_launch_set(l, TTREF_OPT_CHECK_UNINIT, 1, &e), TTREF_OK);
  memset(&e, 0, sizeof e);
  assert_int_equal(ttref_launch_run(l, 1, 1, 1, &e), TTREF_E_FAULT);
  assert_has(&e, "reading 'x_ptr' before anything was written there");
  ttref_launch_free(l);
  ttref_kernel_free(k);
}

static void test_api_dumps(void **state)
{
  (void)state;
  ttref_error e;
  static vadd v;
  vadd_fill(&v);
  ttref_kernel *k = ttref_kernel_load(vadd_path, NULL, &e);
  ttref_launch *l = vadd_launch(k, &v, "4096");
  memset(&e, 0, sizeof e);
  assert_int_equal(ttref_launch_dump(l, "nope", &e), TTREF_E_USAGE);
  assert_has(&e, "nope");
  assert_int_equal(ttref_launch_dump(l, NULL, &e), TTREF_E_USAGE);
  assert_int_equal(ttref_launch_dump(NULL, "offs", &e), TTREF_E_USAGE);
  assert_int_equal(ttref_launch_trace(NULL, NULL, &e), TTREF_E_USAGE);
  assert_int_equal(ttref_launch_trace(l, "1,2,3,4", &e), TTREF_E_USAGE);
  assert_int_equal(ttref_launch_dump_dir(l, NULL, &e), TTREF_E_USAGE);
  assert_int_equal(ttref_launch_dump(l, "offs@2", &e), TTREF_OK);
  if (ttref_launch_dump_dir(l, unit_tmp_path("dd"), &e) != TTREF_OK) fail_msg("%s", e.msg);
  if (ttref_launch_run(l, 4, 1, 1, &e) != TTREF_OK) fail_msg("%s", e.msg);
  ttref_array a;
  if (ttref_npy_load(unit_tmp_path("dd/offs.pid2-0-0.npy"), &a, &e) != TTREF_OK) fail_msg("%s", e.msg);
  assert_int_equal(a.numel, 1024);
  const int32_t *o = a.data;
  for (int i = 0; i < 1024; i++) assert_int_equal(o[i], 2048 + i); /* pid 2's offsets */
  ttref_array_free(&a);
  /* the dumps stay set: a second run finds its files and never overwrites them */
  assert_int_equal(ttref_launch_run(l, 4, 1, 1, &e), TTREF_E_IO);
  assert_has(&e, "File exists");
  ttref_launch_free(l);
  ttref_kernel_free(k);
}

static void test_api_inject_and_mutate(void **state)
{
  (void)state;
  ttref_error e;
  static vadd v;
  vadd_fill(&v);
  ttref_kernel *k = ttref_kernel_load(vadd_path, NULL, &e);
  ttref_launch *l = vadd_launch(k, &v, "4096");
  assert_int_equal(ttref_launch_inject_fault(l, "math.nope", &e), TTREF_E_INPUT);
  assert_has(&e, "unknown op 'math.nope'");
  assert_int_equal(ttref_launch_inject_fault(NULL, "arith.addf", &e), TTREF_E_USAGE);
  assert_int_equal(ttref_launch_inject_fault(l, "arith.addf", &e), TTREF_OK);
  assert_int_equal(ttref_launch_run(l, 4, 1, 1, &e), TTREF_OK);
  for (int i = 0; i < N; i++) { /* each sum grown by a relative 2^-6, rounded once to f32 */
    const double s = (double)(v.x[i] + v.y[i]);
    const float want = s == 0 ? 0x1p-6f : (float)(s * (1 + 0x1p-6));
    if (memcmp(&v.o[i], &want, 4) != 0) fail_msg("o[%d] = %a, want %a", i, (double)v.o[i], (double)want);
  }
  assert_int_equal(ttref_launch_inject_fault(l, NULL, &e), TTREF_OK); /* off again */
  assert_int_equal(ttref_launch_run(l, 4, 1, 1, &e), TTREF_OK);
  const float s0 = v.x[0] + v.y[0];
  assert_memory_equal(&v.o[0], &s0, 4);
  ttref_launch_free(l);
  /* mutants: unknown names refused; the ftz mutant flushes a subnormal sum */
  assert_int_equal(ttref_kernel_mutate(k, "no-such-mutant", &e), TTREF_E_INPUT);
  assert_has(&e, "unknown mutant 'no-such-mutant'");
  assert_int_equal(ttref_kernel_mutate(NULL, "ftz", &e), TTREF_E_USAGE);
  assert_int_equal(ttref_kernel_mutate(k, NULL, &e), TTREF_E_USAGE);
  vadd_fill(&v);
  v.x[5] = 0x1p-140f;
  v.y[5] = 0;
  l = vadd_launch(k, &v, "4096");
  assert_int_equal(ttref_launch_run(l, 4, 1, 1, &e), TTREF_OK);
  assert_true(v.o[5] == 0x1p-140f);
  ttref_launch_free(l);
  assert_int_equal(ttref_kernel_mutate(k, "ftz", &e), TTREF_OK);
  l = vadd_launch(k, &v, "4096");
  assert_int_equal(ttref_launch_run(l, 4, 1, 1, &e), TTREF_OK);
  assert_true(v.o[5] == 0.0f);
  ttref_launch_free(l);
  ttref_kernel_free(k);
}

static void test_api_launch_file(void **state)
{
  (void)state;
  ttref_error e;
  char path[700];
  int64_t g[3], val;
  snprintf(path, sizeof path, "%s",
           unit_put("launch.yaml", "kernel: k.ttir\nfunction: vadd\ngrid: [4, 2]\nargs:\n  x_ptr: \"@x.npy\"\n  n: 7\n"
                                   "out: o\nthreads: 3\nprecise: true\n"));
  ttref_launch_file *lf = ttref_launch_file_read(path, &e);
  if (!lf) fail_msg("%s", e.msg);
  char want[700];
  snprintf(want, sizeof want, "%s/k.ttir", unit_tmpdir()); /* paths relative to the file */
  assert_string_equal(ttref_launch_file_str(lf, "kernel"), want);
  assert_string_equal(ttref_launch_file_str(lf, "function"), "vadd");
  assert_non_null(strstr(ttref_launch_file_str(lf, "out"), "o"));
  assert_null(ttref_launch_file_str(lf, "grid"));
  assert_int_equal(ttref_launch_file_grid(lf, g), 1);
  assert_int_equal(g[0], 4);
  assert_int_equal(g[1], 2);
  assert_int_equal(g[2], 1);
  assert_int_equal(ttref_launch_file_nargs(lf), 2);
  snprintf(want, sizeof want, "x_ptr=@%s/x.npy", unit_tmpdir());
  assert_string_equal(ttref_launch_file_arg(lf, 0), want);
  assert_string_equal(ttref_launch_file_arg(lf, 1), "n=7");
  assert_null(ttref_launch_file_arg(lf, 2));
  assert_int_equal(ttref_launch_file_option(lf, TTREF_OPT_THREADS, &val), 1);
  assert_int_equal(val, 3);
  assert_int_equal(ttref_launch_file_option(lf, TTREF_OPT_PRECISE, &val), 1);
  assert_int_equal(val, 1);
  assert_int_equal(ttref_launch_file_option(lf, TTREF_OPT_FTZ, &val), 0); /* absent */
  assert_int_equal(ttref_launch_file_option(lf, TTREF_OPT_MAX_STEPS, &val), 0);
  ttref_launch_file_free(lf);
  unit_put("launch.yaml", "kernel: k.ttir\ngrid: 1\nbogus: 1\n");
  memset(&e, 0, sizeof e);
  assert_null(ttref_launch_file_read(path, &e));
  assert_int_equal(e.code, TTREF_E_INPUT);
  assert_has(&e, "launch.yaml:3:1");
  assert_null(ttref_launch_file_read(NULL, &e));
  assert_int_equal(e.code, TTREF_E_USAGE);
  assert_null(ttref_launch_file_str(NULL, "kernel"));
  assert_int_equal(ttref_launch_file_grid(NULL, g), 0);
  assert_int_equal(ttref_launch_file_nargs(NULL), 0);
  ttref_launch_file_free(NULL);
}

static void test_api_fx_shapes_from_files(void **state)
{
  (void)state;
  ttref_error e;
  char sx[700], so[700];
  static float x[48];
  for (int i = 0; i < 48; i++) x[i] = (float)(i % 5) - 1.5f;
  {
    char path[700];
    ttref_array a = {'f', 4, 2, {3, 16}, 48, x, sizeof x};
    assert_int_equal(ttref_npy_save(unit_tmp_path("x.npy"), &a, &e), TTREF_OK);
    snprintf(path, sizeof path, "%s/o.npy", unit_tmpdir());
    assert_int_equal(ttref_npy_save(path, &a, &e), TTREF_OK);
  }
  const char *args[] = {spec_at(sx, sizeof sx, "input", "x.npy"), spec_at(so, sizeof so, "output", "o.npy")};
  assert_null(ttref_kernel_load_fx_ex(softmax_path, NULL, NULL, 0, NULL, &e)); /* M, K unbound */
  assert_has(&e, "is not bound");
  assert_null(ttref_kernel_load_fx_ex(softmax_path, NULL, args, -1, NULL, &e));
  assert_int_equal(e.code, TTREF_E_USAGE);
  ttref_kernel *k = ttref_kernel_load_fx_ex(softmax_path, NULL, args, 2, NULL, &e); /* M=3, K=16 from x.npy */
  if (!k) fail_msg("%s", e.msg);
  ttref_launch *l = ttref_launch_new(k, &e);
  assert_int_equal(ttref_launch_bind_args(l, args, 2, &e), TTREF_OK);
  if (ttref_launch_run(l, 3, 1, 1, &e) != TTREF_OK) fail_msg("%s", e.msg);
  assert_int_equal(ttref_launch_save(l, unit_tmpdir(), 0, &e), TTREF_OK);
  ttref_array a;
  assert_int_equal(ttref_npy_load(unit_tmp_path("output.npy"), &a, &e), TTREF_OK);
  assert_int_equal(a.rank, 2);
  assert_int_equal(a.shape[0], 3);
  const float *y = a.data;
  for (int r = 0; r < 3; r++) {
    double sum = 0;
    for (int c = 0; c < 16; c++) sum += (double)y[r * 16 + c];
    assert_true(sum > 1 - 1e-5 && sum < 1 + 1e-5);
  }
  ttref_array_free(&a);
  ttref_launch_free(l);
  ttref_kernel_free(k);
  /* a file whose shape does not fit the symbols given */
  const char *syms[] = {"M=4", "K=16"};
  ttref_fx_options o = {syms, 2, NULL, 0, 0};
  assert_null(ttref_kernel_load_fx_ex(softmax_path, &o, args, 2, NULL, &e));
  assert_int_equal(e.code, TTREF_E_INPUT);
}

typedef struct v2_job {
  const char *const *specs;
  const char *out;
} v2_job;

static ttref_status v2_run(void *ud, ttref_error *e)
{
  const v2_job *j = ud;
  ttref_launch *l = NULL;
  ttref_status st = TTREF_E_NOMEM;
  ttref_kernel *k = ttref_kernel_load(vadd_path, NULL, e);
  if (k) l = ttref_launch_new(k, e);
  if (l) st = ttref_launch_bind_args(l, j->specs, 4, e);
  if (st == TTREF_OK) st = ttref_launch_set(l, TTREF_OPT_PRECISE, 1, e);
  if (st == TTREF_OK) st = ttref_launch_set_outputs(l, (const char *const[]){"o_ptr", "x_ptr"}, 2, e);
  if (st == TTREF_OK) st = ttref_launch_set(l, TTREF_OPT_UB, 1, e);
  if (st == TTREF_OK) st = ttref_launch_set(l, TTREF_OPT_CHECK_UNINIT, 1, e);
  if (st == TTREF_OK) st = ttref_launch_trace(l, "7", e);
  if (st == TTREF_OK) st = ttref_launch_run(l, 4, 1, 1, e);
  unit_alloc.fail_at = 0;
  if (st == TTREF_OK) st = ttref_launch_save(l, j->out, 0, e);
  ttref_launch_free(l);
  ttref_kernel_free(k);
  return st;
}

/* Every allocation of the `ttref run` path failing in turn: a status, nothing leaked. */
static void test_api_v2_nomem(void **state)
{
  (void)state;
  static vadd v;
  char sx[700], sy[700], path[700];
  vadd_fill(&v);
  save_f32("x.npy", v.x, N);
  save_f32("y.npy", v.y, N);
  snprintf(path, sizeof path, "%s/out", unit_tmpdir());
  const char *specs[] = {spec_at(sx, sizeof sx, "x_ptr", "x.npy"), spec_at(sy, sizeof sy, "y_ptr", "y.npy"),
                         "o_ptr=@new:f32[4096]", "n=4096"};
  v2_job j = {specs, path};
  nomem_sweep(v2_run, &j);
}

static void test_api_check(void **state)
{
  (void)state;
  ttref_error e;
  const char *path;
  static const double b = 0.125;
  assert_int_equal(ttref_check(vadd_path, NULL, NULL, &e), TTREF_OK);
  assert_int_equal(ttref_check(NULL, NULL, NULL, &e), TTREF_E_USAGE);
  assert_int_equal(ttref_check(unit_tmp_path("none.ttir"), NULL, NULL, &e), TTREF_E_IO);
  /* no function to launch is no error for a check (it is for ttref_kernel_load) */
  path = unit_put("empty.ttir", "module {\n}\n");
  assert_int_equal(ttref_check(path, NULL, NULL, &e), TTREF_OK);
  assert_null(ttref_kernel_load(path, NULL, &e));
  path = unit_put("bad.ttir", "module {\n  tt.func public @k() {\n    %0 = arith.constant 1 : i32\n"
                              "    %1 = arith.addf %0, %0 : i32\n    tt.return\n  }\n}\n");
  memset(&e, 0, sizeof e);
  assert_int_not_equal(ttref_check(path, NULL, NULL, &e), TTREF_OK);
  assert_non_null(strstr(e.msg, "bad.ttir:4:"));
  /* vendor ops: unknown without the registry, valid with it */
  path = unit_put("v.ttir", VTEXT(""));
  assert_int_not_equal(ttref_check(path, NULL, NULL, &e), TTREF_OK);
  assert_has(&e, "unknown op \"acme.axpb\"");
  ttref_registry *reg = ttref_registry_new(&e);
  ttref_op_def d = {"acme.axpb", 2, NULL, axpb, NULL, (void *)&b};
  assert_int_equal(ttref_registry_add(reg, &d, &e), TTREF_OK);
  assert_int_equal(ttref_check(path, reg, NULL, &e), TTREF_OK);
  ttref_registry_free(reg);
  /* traced kernels: syntax only without bindings; bound, lowered and verified with them */
  assert_int_equal(ttref_check(softmax_path, NULL, NULL, &e), TTREF_OK);
  const char *syms[] = {"M=3", "K=16"}, *dts[] = {"input=f7"};
  ttref_fx_options o = {syms, 2, NULL, 0, 0};
  assert_int_equal(ttref_check(softmax_path, NULL, &o, &e), TTREF_OK);
  ttref_fx_options bad = {syms, 1, NULL, 0, 0};
  assert_int_not_equal(ttref_check(softmax_path, NULL, &bad, &e), TTREF_OK);
  assert_has(&e, "symbol 'K' is not bound");
  ttref_fx_options baddt = {syms, 2, dts, 1, 0};
  assert_int_not_equal(ttref_check(softmax_path, NULL, &baddt, &e), TTREF_OK);
  ttref_fx_options neg = {syms, -1, NULL, 0, 0};
  assert_int_equal(ttref_check(softmax_path, NULL, &neg, &e), TTREF_E_USAGE);
}

static void test_api_print(void **state)
{
  (void)state;
  ttref_error e;
  char p1[700], p2[700], bad[700];
  size_t na, nb;
  snprintf(p1, sizeof p1, "%s/a.ttir", unit_tmpdir());
  snprintf(p2, sizeof p2, "%s/b.ttir", unit_tmpdir());
  snprintf(bad, sizeof bad, "%s/no/such/dir/x.ttir", unit_tmpdir());
  assert_int_equal(ttref_print(vadd_path, NULL, NULL, 0, p1, &e), TTREF_OK);
  assert_int_equal(ttref_print(p1, NULL, NULL, 0, p2, &e), TTREF_OK); /* canonical: printing it again is the same */
  char *a = (char *)unit_slurp(p1, &na), *b = (char *)unit_slurp(p2, &nb);
  assert_true(na > 100);
  assert_int_equal(na, nb);
  assert_memory_equal(a, b, na);
  assert_int_equal(ttref_check(p1, NULL, NULL, &e), TTREF_OK);
  assert_non_null(strstr(a, "tt.func public @vadd("));
  /* --probes: every probed value stored to a trailing %ttref_probe_K argument; still valid TTIR */
  assert_int_equal(ttref_print(vadd_path, NULL, NULL, TTREF_PRINT_PROBES, p2, &e), TTREF_OK);
  free(b);
  b = (char *)unit_slurp(p2, &nb);
  assert_non_null(strstr(b, "%ttref_probe_0"));
  assert_int_equal(ttref_check(p2, NULL, NULL, &e), TTREF_OK);
  assert_int_equal(ttref_print(unit_put("empty.ttir", "module {\n}\n"), NULL, NULL, TTREF_PRINT_PROBES, p1, &e),
                   TTREF_E_INPUT);
  assert_has(&e, "no function to probe");
  memset(&e, 0, sizeof e);
  assert_int_equal(ttref_print(vadd_path, NULL, NULL, 0, bad, &e), TTREF_E_IO);
  assert_has(&e, "cannot write");
  assert_int_equal(ttref_print(NULL, NULL, NULL, 0, p1, &e), TTREF_E_USAGE);
  /* traced kernels print as their lowering, which verifies as TTIR */
  const char *syms[] = {"M=3", "K=16"};
  ttref_fx_options o = {syms, 2, NULL, 0, 0};
  assert_int_equal(ttref_print(softmax_path, NULL, &o, 0, p1, &e), TTREF_OK);
  free(a);
  a = (char *)unit_slurp(p1, &na);
  assert_non_null(strstr(a, "tt.func"));
  assert_int_equal(ttref_check(p1, NULL, NULL, &e), TTREF_OK);
  assert_int_not_equal(ttref_print(softmax_path, NULL, NULL, 0, p1, &e), TTREF_OK); /* M, K unbound */
  free(a);
  free(b);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_api_signature, test_setup, test_teardown),
      cmocka_unit_test_setup_teardown(test_api_load_errors, test_setup, test_teardown),
      cmocka_unit_test_setup_teardown(test_api_vadd_sums, test_setup, test_teardown),
      cmocka_unit_test_setup_teardown(test_api_fault_past_buffer, test_setup, test_teardown),
      cmocka_unit_test_setup_teardown(test_api_bad_input, test_setup, test_teardown),
      cmocka_unit_test_setup_teardown(test_api_null_handles, test_setup, test_teardown),
      cmocka_unit_test_setup_teardown(test_api_threads_identical, test_setup, test_teardown),
      cmocka_unit_test_setup_teardown(test_api_max_steps, test_setup, test_teardown),
      cmocka_unit_test_setup_teardown(test_api_precise, test_setup, test_teardown),
      cmocka_unit_test_setup_teardown(test_api_compare, test_setup, test_teardown),
      cmocka_unit_test_setup_teardown(test_api_buffer_at, test_setup, test_teardown),
      cmocka_unit_test_setup_teardown(test_api_npy_roundtrip, test_setup, test_teardown),
      cmocka_unit_test_setup_teardown(test_api_two_threads, test_setup, test_teardown),
      cmocka_unit_test_setup_teardown(test_api_nomem, test_setup, test_teardown),
      cmocka_unit_test_setup_teardown(test_api_null_handles_rest, test_setup, test_teardown),
      cmocka_unit_test_setup_teardown(test_api_vendor_registry, test_setup, test_teardown),
      cmocka_unit_test_setup_teardown(test_api_vendor_nomem, test_setup, test_teardown),
      cmocka_unit_test_setup_teardown(test_api_traced_kernel, test_setup, test_teardown),
      cmocka_unit_test_setup_teardown(test_api_v2_names, test_setup, test_teardown),
      cmocka_unit_test_setup_teardown(test_api_bind_args_save, test_setup, test_teardown),
      cmocka_unit_test_setup_teardown(test_api_set_outputs, test_setup, test_teardown),
      cmocka_unit_test_setup_teardown(test_api_bind_args_errors, test_setup, test_teardown),
      cmocka_unit_test_setup_teardown(test_api_bind_args_precise, test_setup, test_teardown),
      cmocka_unit_test_setup_teardown(test_api_debug_options, test_setup, test_teardown),
      cmocka_unit_test_setup_teardown(test_api_dumps, test_setup, test_teardown),
      cmocka_unit_test_setup_teardown(test_api_inject_and_mutate, test_setup, test_teardown),
      cmocka_unit_test_setup_teardown(test_api_launch_file, test_setup, test_teardown),
      cmocka_unit_test_setup_teardown(test_api_fx_shapes_from_files, test_setup, test_teardown),
      cmocka_unit_test_setup_teardown(test_api_v2_nomem, test_setup, test_teardown),
      cmocka_unit_test_setup_teardown(test_api_check, test_setup, test_teardown),
      cmocka_unit_test_setup_teardown(test_api_print, test_setup, test_teardown),
  };
  return cmocka_run_group_tests_name("api", tests, group_setup, NULL);
}
