/*
 * vadd_api.c: a program written only against the public contract of ttref.h,
 * built by tests/api/test_api.sh against an installed prefix via pkg-config:
 * load a vector-add kernel, bind three float buffers and n, run a grid of 4,
 * check the sums; rerun with n past the buffers and expect a located fault.
 * Usage: vadd_api KERNEL.ttir; prints TAP lines, exits 0 when all pass.
 */
#include <stdio.h>
#include <string.h>
#include <ttref.h>

#define N 4096

static float x[N], y[N], o[N];
static int n_tests, n_fail;

static void check(int cond, const char *what, const ttref_error *e)
{
  n_tests++;
  printf("%s %d - %s\n", cond ? "ok" : "not ok", n_tests, what);
  if (!cond) {
    n_fail++;
    if (e) printf("# %s\n# %s\n", e->msg, e->note);
  }
}

int main(int argc, char **argv)
{
  ttref_error err;
  memset(&err, 0, sizeof err);
  if (argc != 2) return fprintf(stderr, "usage: vadd_api KERNEL.ttir\n"), 2;
  ttref_kernel *k = ttref_kernel_load(argv[1], NULL, &err);
  check(k != NULL, "ttref_kernel_load", &err);
  if (!k) return 1;
  check(ttref_kernel_nargs(k) == 4 && ttref_kernel_arg_kind(k, 0) == TTREF_ARG_POINTER &&
            strcmp(ttref_kernel_arg_type(k, 0), "f32") == 0 && strcmp(ttref_kernel_arg_name(k, 3), "n") == 0,
        "signature: 3 f32 pointers and n", NULL);
  for (int i = 0; i < N; i++) {
    x[i] = (float)i * 0.25f;
    y[i] = 3.0f - (float)i;
    o[i] = 0.0f;
  }
  ttref_launch *l = ttref_launch_new(k, &err);
  check(l != NULL, "ttref_launch_new", &err);
  if (!l) return 1;
  int bound = ttref_launch_buffer(l, "x_ptr", x, sizeof x, &err) == TTREF_OK &&
              ttref_launch_buffer(l, "y_ptr", y, sizeof y, &err) == TTREF_OK &&
              ttref_launch_buffer(l, "o_ptr", o, sizeof o, &err) == TTREF_OK &&
              ttref_launch_scalar(l, "n", "4096", &err) == TTREF_OK;
  check(bound, "bind x_ptr, y_ptr, o_ptr and n", &err);
  ttref_status st = ttref_launch_run(l, 4, 1, 1, &err);
  check(st == TTREF_OK, "run a grid of 4", &err);
  int sums = 1;
  for (int i = 0; i < N; i++) sums &= o[i] == x[i] + y[i];
  check(sums, "o = x + y for all 4096 elements", NULL);
  memset(&err, 0, sizeof err);
  ttref_launch_scalar(l, "n", "5000", &err);
  st = ttref_launch_run(l, 5, 1, 1, &err);
  check(st != TTREF_OK, "n past the buffers: non-OK status", &err);
  check(st == TTREF_E_FAULT && strstr(err.msg, "vadd_f32.ttir:") && strstr(err.msg, "out-of-bounds") &&
            strstr(err.msg, "lane"),
        "the fault is located (file:line:col, op, lane)", &err);
  printf("# %s\n", err.msg);
  ttref_launch_free(l);
  ttref_kernel_free(k);
  printf("1..%d\n", n_tests);
  return n_fail != 0;
}
