/*
 * bench_parse.c: times ir_parse_file, ir_verify_module and ir_print_module
 * on one file and prints "parse", "parse+verify" and "parse+print" MB/s
 * (best of N runs).
 * Usage: bench_parse FILE [RUNS]
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "ir_parse.h"
#include "ir_print.h"
#include "ir_verify.h"

static double now(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(int argc, char **argv)
{
  if (argc < 2) {
    fprintf(stderr, "usage: %s FILE [RUNS]\n", argv[0]);
    return 2;
  }
  int runs = argc > 2 ? atoi(argv[2]) : 3;
  FILE *f = fopen(argv[1], "rb");
  if (!f) return 2;
  fseek(f, 0, SEEK_END);
  double mb = (double)ftell(f) / 1e6;
  fclose(f);
  double best_p = 1e30, best_pv = 1e30, best_pp = 1e30;
  for (int r = 0; r < runs; r++) {
    ir_module *m = NULL;
    ttref_error e = {0};
    double t0 = now();
    if (ir_parse_file(argv[1], &m, &e)) {
      fprintf(stderr, "%s\n%s\n", e.msg, e.note);
      return 1;
    }
    double t1 = now();
    if (ir_verify_module(m, &e)) {
      fprintf(stderr, "verify: %s\n", e.msg);
      return 1;
    }
    double tv = now();
    FILE *null = fopen("/dev/null", "w");
    if (!null || ir_print_module(m, null, &e)) {
      fprintf(stderr, "print: %s\n", e.msg);
      return 1;
    }
    fclose(null);
    double t2 = now();
    ir_module_free(m);
    if (t1 - t0 < best_p) best_p = t1 - t0;
    if (tv - t0 < best_pv) best_pv = tv - t0;
    if (t1 - t0 + t2 - tv < best_pp) best_pp = t1 - t0 + t2 - tv;
  }
  printf("%.1f MB: parse %.3f s = %.1f MB/s; parse+verify %.3f s = %.1f MB/s; parse+print %.3f s = %.1f MB/s\n", mb,
         best_p, mb / best_p, best_pv, mb / best_pv, best_pp, mb / best_pp);
  return 0;
}
