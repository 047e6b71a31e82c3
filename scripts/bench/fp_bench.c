/*
 * fp_bench.c: throughput of the interpreter's rounding hot path
 * (fp_round_to to f16 and bf16), in ns per call. Built and run by
 * scripts/bench/fp_bench.sh; a benchmark, not a test.
 */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <time.h>
#include "fp.h"

int main(void)
{
  enum { N = 1 << 16, REPS = 300 };
  static double in[N];
  unsigned s = 12345;
  for (int i = 0; i < N; i++) {
    s = s * 1103515245u + 12345u;
    in[i] = ldexp(1.0 + (double)(s >> 8) / 16777216.0, (int)(s % 29) - 14) * ((i & 1) ? -1 : 1);
  }
  const fp_format fmts[2] = {FP_F16, FP_BF16};
  double acc = 0;
  for (int k = 0; k < 2; k++) {
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (int r = 0; r < REPS; r++)
      for (int i = 0; i < N; i++) acc += fp_round_to(fmts[k], in[i], FP_RNE, FP_OVF_INF);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double ns = ((double)(t1.tv_sec - t0.tv_sec) * 1e9 + (double)(t1.tv_nsec - t0.tv_nsec)) / ((double)REPS * N);
    printf("fp_round_to %-5s %.2f ns/op\n", fp_name(fmts[k]), ns);
  }
  printf("(checksum %g)\n", acc);
  return 0;
}
