/*
 * bench_base.c: plain-C baselines for scripts/bench/bench.sh, plus the input
 * generator and the output comparison it uses. Each baseline reads the same
 * .npy inputs as `ttref run` (through the project's npy_io), computes the same
 * result with a straightforward -O2 loop nest, and writes the same .npy
 * outputs: its wall time includes the I/O, as ttref's does.
 * Ownership: every array read here is owned by the mode that read it and freed
 * before it returns (the process exits right after).
 *
 * Usage: bench_base MODE ARGS...
 *   gen DTYPE D0[xD1...] SEED OUT.npy   uniform random f32/f16 in [-2,2), i8, i32 in [-1000,1000]
 *   cmp GOT.npy REF.npy ATOL RTOL       exit 1 (and print the worst element) when not close
 *   vadd DIR | softmax DIR | matmul DIR | layernorm DIR EPS | lnt DIR EPS | attn DIR SCALE
 *   dot_i8 DIR REPS | scan DIR REPS | atomics DIR | matmul_i8 DIR | scan_rows DIR
 * DIR holds the inputs under the kernel's argument names (x_ptr.npy, ...); outputs overwrite them.
 * Built with -fopenmp, the grid-parallel baselines (every mode but dot_i8, scan and atomics)
 * split their rows (elements, heads) over OMP_NUM_THREADS threads: the same result, and the
 * speed-up a plain C program gets on this machine with the same I/O (bench.py's "C N thr"
 * column, the ceiling for ttref's thread scaling).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "npy_io.h"

static const char *dir;
static float h2f[65536]; /* f16 bits -> f32: without -mf16c each _Float16 conversion is a libgcc call */

static void h2f_init(void)
{
  for (uint32_t i = 0; i < 65536; i++) {
    uint16_t b = (uint16_t)i;
    _Float16 h;
    memcpy(&h, &b, sizeof h);
    h2f[i] = (float)h;
  }
}

#define H(p, i) h2f[((const uint16_t *)(p))[i]]

static npy_array rd(const char *name)
{
  char p[4096];
  snprintf(p, sizeof p, "%s/%s.npy", dir, name);
  npy_array a;
  ttref_error err = {0};
  if (npy_read(p, &a, &err) != TTREF_OK) {
    fprintf(stderr, "bench_base: cannot read %s\n", p);
    exit(2);
  }
  return a;
}

static void wr(const char *name, npy_array *a)
{
  char p[4096];
  snprintf(p, sizeof p, "%s/%s.npy", dir, name);
  ttref_error err = {0};
  if (npy_write(p, a, &err) != TTREF_OK) {
    fprintf(stderr, "bench_base: cannot write %s\n", p);
    exit(2);
  }
  npy_free(a);
}

static double elem(const npy_array *a, int64_t i)
{
  switch (a->kind * 16 + a->elsize) {
  case 'f' * 16 + 4: return ((const float *)a->data)[i];
  case 'f' * 16 + 2: return H(a->data, i);
  case 'f' * 16 + 8: return ((const double *)a->data)[i];
  case 'i' * 16 + 1: return ((const int8_t *)a->data)[i];
  case 'i' * 16 + 4: return ((const int32_t *)a->data)[i];
  case 'i' * 16 + 8: return (double)((const int64_t *)a->data)[i];
  default: fprintf(stderr, "bench_base: unsupported dtype\n"); exit(2);
  }
}

static uint64_t rng_state;
static uint64_t rng(void) /* xorshift64* */
{
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return rng_state * 2685821657736338717ull;
}

static int gen(char **v)
{
  npy_array a;
  int64_t shape[NPY_MAX_RANK];
  int rank = 0;
  for (char *s = v[1]; *s && rank < NPY_MAX_RANK; s += *s == 'x') shape[rank++] = strtoll(s, &s, 10);
  char kind = v[0][0] == 'f' ? 'f' : 'i';
  int es = atoi(v[0] + 1) / 8;
  ttref_error err = {0};
  if (npy_alloc(&a, kind, es, rank, shape, &err) != TTREF_OK) return 2;
  rng_state = strtoull(v[2], NULL, 10) * 0x9E3779B97F4A7C15ull + 1;
  for (int64_t i = 0; i < a.numel; i++) {
    uint64_t r = rng() >> 40; /* 24 random bits */
    float f = (float)r * (4.0f / 16777216.0f) - 2.0f;
    if (kind == 'f' && es == 4) ((float *)a.data)[i] = f;
    else if (kind == 'f' && es == 2) ((_Float16 *)a.data)[i] = (_Float16)f;
    else if (es == 1) ((int8_t *)a.data)[i] = (int8_t)(r & 0xff);
    else ((int32_t *)a.data)[i] = (int32_t)(r % 2001) - 1000;
  }
  if (npy_write(v[3], &a, &err) != TTREF_OK) return 2;
  npy_free(&a);
  return 0;
}

static int cmp(char **v)
{
  npy_array g, r;
  ttref_error err = {0};
  if (npy_read(v[0], &g, &err) != TTREF_OK || npy_read(v[1], &r, &err) != TTREF_OK) return 2;
  double atol = atof(v[2]), rtol = atof(v[3]);
  if (g.numel != r.numel) return fprintf(stderr, "cmp: %s: size differs\n", v[0]), 1;
  for (int64_t i = 0; i < g.numel; i++) {
    double a = elem(&g, i), b = elem(&r, i);
    if (!(fabs(a - b) <= atol + rtol * fabs(b)) && !(isnan(a) && isnan(b)))
      return fprintf(stderr, "cmp: %s[%lld] = %.9g, baseline %.9g\n", v[0], (long long)i, a, b), 1;
  }
  npy_free(&g);
  npy_free(&r);
  return 0;
}

static int vadd(void)
{
  npy_array x = rd("x_ptr"), y = rd("y_ptr"), o = rd("o_ptr");
  const float *a = x.data, *b = y.data;
  float *c = o.data;
#pragma omp parallel for schedule(static)
  for (int64_t i = 0; i < o.numel; i++) c[i] = a[i] + b[i];
  wr("o_ptr", &o);
  npy_free(&x);
  npy_free(&y);
  return 0;
}

static int softmax(void)
{
  npy_array x = rd("x_ptr"), o = rd("o_ptr");
  int64_t m = x.shape[0], n = x.shape[1];
#pragma omp parallel for schedule(dynamic, 16)
  for (int64_t r = 0; r < m; r++) {
    const float *a = (const float *)x.data + r * n;
    float *c = (float *)o.data + r * n, mx = -INFINITY, s = 0;
    for (int64_t j = 0; j < n; j++) mx = fmaxf(mx, a[j]);
    for (int64_t j = 0; j < n; j++) s += (c[j] = expf(a[j] - mx));
    for (int64_t j = 0; j < n; j++) c[j] /= s;
  }
  wr("o_ptr", &o);
  npy_free(&x);
  return 0;
}

/* acc[j] = fma(a, b[j], acc[j]): one fused step, as ttref's documented dot (docs/numerics.md §8);
 * cloned for FMA hardware so fmaf is an instruction, not a libm call */
__attribute__((target_clones("fma", "default"))) static void axpy(float *restrict acc, float a, const float *restrict b,
                                                                  int64_t n)
{
  for (int64_t j = 0; j < n; j++) acc[j] = fmaf(a, b[j], acc[j]);
}

/* C = A B, f32 accumulation in k order with one fused multiply-add per step (the documented dot
 * order: bit-identical to ttref), vectorised across N */
static int matmul(void)
{
  npy_array a = rd("a_ptr"), b = rd("b_ptr"), c = rd("c_ptr");
  int64_t M = a.shape[0], K = a.shape[1], N = b.shape[1];
  float *bf = b.data;
  if (b.elsize == 2) { /* f16 operands: widened once (exact) */
    bf = malloc(sizeof *bf * (size_t)(K * N));
    for (int64_t e = 0; e < K * N; e++) bf[e] = H(b.data, e);
  }
#pragma omp parallel
  {
  float *acc = calloc((size_t)N, sizeof *acc);
#pragma omp for schedule(dynamic, 4)
  for (int64_t i = 0; i < M; i++) {
    memset(acc, 0, sizeof *acc * (size_t)N);
    for (int64_t k = 0; k < K; k++) axpy(acc, (float)elem(&a, i * K + k), bf + k * N, N);
    for (int64_t j = 0; j < N; j++) {
      if (c.elsize == 4) ((float *)c.data)[i * N + j] = acc[j];
      else ((_Float16 *)c.data)[i * N + j] = (_Float16)acc[j];
    }
  }
  free(acc);
  }
  if (bf != b.data) free(bf);
  wr("c_ptr", &c);
  npy_free(&a);
  npy_free(&b);
  return 0;
}

/* layernorm_f16 (x, y f16; w, b f32) and the tutorial's (wf16 = 1: w, b f16) */
static int layernorm(const char *xs, const char *ys, const char *ws, const char *bs, const char *ms, const char *rs,
                     float eps)
{
  npy_array x = rd(xs), w = rd(ws), b = rd(bs), y = rd(ys), mean = rd(ms), rstd = rd(rs);
  int64_t m = x.shape[0], n = x.shape[1];
  float *wf = malloc(sizeof *wf * (size_t)n), *bf = malloc(sizeof *bf * (size_t)n);
  for (int64_t j = 0; j < n; j++) wf[j] = (float)elem(&w, j), bf[j] = (float)elem(&b, j);
#pragma omp parallel for schedule(dynamic, 16)
  for (int64_t r = 0; r < m; r++) {
    const uint16_t *a = (const uint16_t *)x.data + r * n;
    _Float16 *o = (_Float16 *)y.data + r * n;
    float s = 0, v = 0;
    for (int64_t j = 0; j < n; j++) s += h2f[a[j]];
    float mu = s / (float)n;
    for (int64_t j = 0; j < n; j++) v += (h2f[a[j]] - mu) * (h2f[a[j]] - mu);
    float rs = 1.0f / sqrtf(v / (float)n + eps);
    for (int64_t j = 0; j < n; j++) o[j] = (_Float16)((h2f[a[j]] - mu) * rs * wf[j] + bf[j]);
    ((float *)mean.data)[r] = mu;
    ((float *)rstd.data)[r] = rs;
  }
  free(wf);
  free(bf);
  wr(ys, &y);
  wr(ms, &mean);
  wr(rs, &rstd);
  npy_free(&x);
  npy_free(&w);
  npy_free(&b);
  return 0;
}

/* causal attention, q/k/v/o [H, S, D] f16: softmax(q k^T * scale) v in f32, p rounded to f16 */
static int attn(float scale)
{
  npy_array q = rd("q_ptr"), k = rd("k_ptr"), v = rd("v_ptr"), o = rd("o_ptr");
  int64_t H = q.shape[0], S = q.shape[1], D = q.shape[2];
#pragma omp parallel
  {
  float *p = malloc(sizeof *p * (size_t)S), *acc = malloc(sizeof *acc * (size_t)D);
#pragma omp for schedule(dynamic, 1)
  for (int64_t h = 0; h < H; h++)
    for (int64_t i = 0; i < S; i++) {
      const uint16_t *qi = (const uint16_t *)q.data + (h * S + i) * D;
      float mx = -INFINITY, l = 0;
      for (int64_t j = 0; j <= i; j++) {
        const uint16_t *kj = (const uint16_t *)k.data + (h * S + j) * D;
        float s = 0;
        for (int64_t d = 0; d < D; d++) s += h2f[qi[d]] * h2f[kj[d]];
        p[j] = s * scale;
        mx = fmaxf(mx, p[j]);
      }
      memset(acc, 0, sizeof *acc * (size_t)D);
      for (int64_t j = 0; j <= i; j++) {
        float e = expf(p[j] - mx);
        l += e;
        float e16 = (float)(_Float16)e;
        const uint16_t *vj = (const uint16_t *)v.data + (h * S + j) * D;
        for (int64_t d = 0; d < D; d++) acc[d] += e16 * h2f[vj[d]];
      }
      _Float16 *oi = (_Float16 *)o.data + (h * S + i) * D;
      for (int64_t d = 0; d < D; d++) oi[d] = (_Float16)(acc[d] / l);
    }
  free(p);
  free(acc);
  }
  wr("o_ptr", &o);
  npy_free(&q);
  npy_free(&k);
  npy_free(&v);
  return 0;
}

/* dot_i8_64x32x64_acc repeated REPS times (the TTIR's programs all compute the same tile): o = c + a b */
static int dot_i8(long reps)
{
  npy_array a = rd("a_ptr"), b = rd("b_ptr"), c = rd("c_ptr"), o = rd("o_ptr");
  int64_t M = a.shape[0], K = a.shape[1], N = b.shape[1];
  int32_t *acc = malloc(sizeof *acc * (size_t)(M * N));
  for (long r = 0; r < reps; r++) {
    memcpy(acc, c.data, sizeof *acc * (size_t)(M * N));
    for (int64_t i = 0; i < M; i++)
      for (int64_t k2 = 0; k2 < K; k2++) {
        int32_t av = ((const int8_t *)a.data)[i * K + k2];
        const int8_t *br = (const int8_t *)b.data + k2 * N;
        for (int64_t j = 0; j < N; j++) acc[i * N + j] += av * br[j];
      }
    memcpy(o.data, acc, sizeof *acc * (size_t)(M * N));
    __asm__ volatile("" : : "r"(o.data) : "memory"); /* each repetition's store is kept */
  }
  free(acc);
  wr("o_ptr", &o);
  npy_free(&a);
  npy_free(&b);
  npy_free(&c);
  return 0;
}

/* scan_op0 (inclusive cumsum of 256 f32) repeated REPS times */
static int scan(long reps)
{
  npy_array x = rd("x_ptr"), o = rd("o_ptr");
  for (long r = 0; r < reps; r++) {
    float s = 0;
    for (int64_t i = 0; i < x.numel; i++) ((float *)o.data)[i] = s += ((const float *)x.data)[i];
    __asm__ volatile("" : : "r"(o.data) : "memory");
  }
  wr("o_ptr", &o);
  npy_free(&x);
  return 0;
}

/* bench_matmul_i8: c = a b with int8 operands and an int32 accumulator (modulo 2^32, as ttref's
 * i32 dot), vectorised across N */
static int matmul_i8(void)
{
  npy_array a = rd("a_ptr"), b = rd("b_ptr"), c = rd("c_ptr");
  int64_t M = a.shape[0], K = a.shape[1], N = b.shape[1];
#pragma omp parallel
  {
  uint32_t *acc = malloc(sizeof *acc * (size_t)N);
#pragma omp for schedule(dynamic, 4)
  for (int64_t i = 0; i < M; i++) {
    memset(acc, 0, sizeof *acc * (size_t)N);
    for (int64_t k = 0; k < K; k++) {
      const uint32_t av = (uint32_t)(int32_t)((const int8_t *)a.data)[i * K + k];
      const int8_t *br = (const int8_t *)b.data + k * N;
      for (int64_t j = 0; j < N; j++) acc[j] += av * (uint32_t)(int32_t)br[j];
    }
    memcpy((int32_t *)c.data + i * N, acc, sizeof *acc * (size_t)N);
  }
  free(acc);
  }
  wr("c_ptr", &c);
  npy_free(&a);
  npy_free(&b);
  return 0;
}

/* bench_scan_rows_f32: inclusive cumsum of each row of x, left to right */
static int scan_rows(void)
{
  npy_array x = rd("x_ptr"), o = rd("o_ptr");
  const int64_t n = x.rank > 1 ? x.shape[x.rank - 1] : x.numel, R = n ? x.numel / n : 0;
#pragma omp parallel for schedule(dynamic, 16)
  for (int64_t r = 0; r < R; r++) {
    float s = 0;
    for (int64_t i = 0; i < n; i++) ((float *)o.data)[r * n + i] = s += ((const float *)x.data)[r * n + i];
  }
  wr("o_ptr", &o);
  npy_free(&x);
  return 0;
}

/* atomics_i32: acc[i % 7] += x[i], mx[i % 5] = max(mx[i % 5], x[i]) */
static int atomics(void)
{
  npy_array x = rd("x_ptr"), acc = rd("acc_ptr"), mx = rd("mx_ptr");
  const int32_t *a = x.data;
  int32_t *s = acc.data, *m = mx.data;
  for (int64_t i = 0; i < x.numel; i++) {
    s[i % 7] = (int32_t)((uint32_t)s[i % 7] + (uint32_t)a[i]);
    if (a[i] > m[i % 5]) m[i % 5] = a[i];
  }
  wr("acc_ptr", &acc);
  wr("mx_ptr", &mx);
  npy_free(&x);
  return 0;
}

int main(int argc, char **argv)
{
  if (argc < 3) return fputs("usage: bench_base MODE ARGS... (see the header)\n", stderr), 2;
  const char *m = argv[1];
  h2f_init();
  if (!strcmp(m, "gen") && argc == 6) return gen(argv + 2);
  if (!strcmp(m, "cmp") && argc == 6) return cmp(argv + 2);
  dir = argv[2];
  if (!strcmp(m, "vadd")) return vadd();
  if (!strcmp(m, "softmax")) return softmax();
  if (!strcmp(m, "matmul")) return matmul();
  if (!strcmp(m, "layernorm") && argc == 4)
    return layernorm("x_ptr", "y_ptr", "w_ptr", "b_ptr", "mean_ptr", "rstd_ptr", (float)atof(argv[3]));
  if (!strcmp(m, "lnt") && argc == 4) return layernorm("X", "Y", "W", "B", "Mean", "Rstd", (float)atof(argv[3]));
  if (!strcmp(m, "attn") && argc == 4) return attn((float)atof(argv[3]));
  if (!strcmp(m, "dot_i8") && argc == 4) return dot_i8(atol(argv[3]));
  if (!strcmp(m, "scan") && argc == 4) return scan(atol(argv[3]));
  if (!strcmp(m, "atomics")) return atomics();
  if (!strcmp(m, "matmul_i8")) return matmul_i8();
  if (!strcmp(m, "scan_rows")) return scan_rows();
  return fprintf(stderr, "bench_base: bad mode or arguments: %s\n", m), 2;
}
