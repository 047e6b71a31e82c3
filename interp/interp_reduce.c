/*
 * interp_reduce.c: combine regions (tt.reduce, tt.scan, tt.map_elementwise)
 * and matrix multiply (tt.dot, tt.dot_scaled), each in its canonical order.
 */
#include "config.h"
#include "interp_exec.h"

/* ---- combine regions (reduce, scan, map_elementwise) ------------------------------------------ */
/* A region is run vectorised (all lanes at once) when its body is a single block of
 * elementwise ops; otherwise lane by lane. Both give identical results. */
static bool region_is_vector(const ir_region *r)
{
  if (r->nblocks != 1) return false;
  const ir_block *b = r->blocks[0];
  for (int i = 0; i < b->nops; i++) {
    unsigned fl = ir_op_flags(b->ops[i]->code);
    if (!(fl & (IR_F_ELEMENTWISE | IR_F_TERMINATOR)) && b->ops[i]->code != IR_OP_CONSTANT) return false;
  }
  return true;
}

/*
 * Run region r on `len` lanes: block argument j takes in[j][0..len), and the
 * terminator's operand j is written to out[j][0..len). in/out may alias.
 */
static ttref_status run_combine(ctx *c, const ir_region *r, const interp_elem *const *in, int nin,
                                interp_elem *const *out, int nout, int64_t len)
{
  ttref_status st = TTREF_OK;
  const ir_block *b = r->blocks[0];
  const ir_op *term = NULL;
  if (b->nargs != nin)
    return interp_fault(c, r->parent, TTREF_E_INPUT, "combine region takes %d arguments, got %d", b->nargs, nin);
  const bool vec = region_is_vector(r);
  const int64_t step = vec ? len : 1;
  for (int64_t base = 0; base < len; base += step) {
    for (int j = 0; j < nin; j++) {
      slot *s = SL(&b->args[j]);
      memcpy(s->d, in[j] + base, sizeof(interp_elem) * (size_t)step);
      s->n = step;
    }
    c->wdepth++;
    st = interp_run_region(c, r, &term);
    c->wdepth--;
    if (st != TTREF_OK) goto fail;
    if (!term || term->nopnds != nout)
      return interp_fault(c, r->parent, TTREF_E_INPUT, "combine region must return %d values", nout);
    for (int j = 0; j < nout; j++) {
      const slot *s = SL(term->opnds[j]);
      if (s->n == 1)
        for (int64_t k = 0; k < step; k++) out[j][base + k] = s->d[0];
      else memcpy(out[j] + base, s->d, sizeof(interp_elem) * (size_t)step);
    }
  }
fail:
  return st;
}

/* Work buffers for reduce/scan: per operand, the tensor transposed to [axis][rest]. */
typedef struct axis_view {
  int64_t L, outer, inner;
} axis_view;

static axis_view view_of(const ir_type *t, int axis)
{
  axis_view v = {1, 1, 1};
  for (int d = 0; d < t->rank; d++) {
    if (d < axis) v.outer *= t->shape[d];
    else if (d == axis) v.L = t->shape[d];
    else v.inner *= t->shape[d];
  }
  return v;
}

/* Work space of the combine op at the current nesting level (nested combine ops,
 * e.g. a reduce inside a scalar-mode region, use the next level). */
static ttref_status work_get(ctx *c, const ir_op *op, int64_t need, interp_elem **out)
{
  int k = c->wdepth;
  if (k >= 8) return interp_fault(c, op, TTREF_E_LIMIT, "reduce/scan/map_elementwise nested more than 8 deep");
  if (need > c->work_cap[k]) {
    interp_elem *nw =
        ir_realloc(c->work[k], sizeof(interp_elem) * (size_t)c->work_cap[k], sizeof(interp_elem) * (size_t)need);
    if (!nw) return ir_error_set(c->err, TTREF_E_NOMEM, (ttref_loc){0}, "out of memory");
    c->work[k] = nw;
    c->work_cap[k] = need;
  }
  *out = c->work[k];
  return TTREF_OK;
}

/*
 * A combine region that is one float binary op of the two block arguments
 * (`%r = arith.addf %a, %b; tt.reduce.return %r`, maxnumf, ...) runs as the typed
 * loop of that op (interp_fbin_loop) instead of through the region's slots: the
 * same op on the same pairs in the same order. Not when anything observes the
 * region's ops: precise mode (bounds), debug hooks, --inject-fault, --max-steps.
 * *swap is 1 when the op takes (rhs, lhs).
 */
static const ir_op *simple_combine(const ctx *c, const ir_region *r, ir_opcode ret, int *swap)
{
  if (c->precise || c->hook || c->step_limit != INT64_MAX || r->nblocks != 1) return NULL;
  const ir_block *b = r->blocks[0];
  if (b->nargs != 2 || b->nops != 2) return NULL;
  const ir_op *o = b->ops[0], *t = b->ops[1];
  if (t->code != ret || t->nopnds != 1 || t->opnds[0] != &o->res[0]) return NULL;
  if (o->nopnds != 2 || o->nres != 1 || o->nregions != 0 || !is_float_value(&o->res[0])) return NULL;
  if (c->L->inject_op == (int)o->code + 1 || c->L->inject_op == (int)t->code + 1) return NULL;
  if (!interp_fbin_loop(c, o->code, FP_F64, NULL, NULL, 0, NULL, 0, 0)) return NULL; /* not in the typed list */
  if (o->opnds[0] == &b->args[0] && o->opnds[1] == &b->args[1]) *swap = 0;
  else if (o->opnds[0] == &b->args[1] && o->opnds[1] == &b->args[0]) *swap = 1;
  else return NULL;
  return o;
}

/* The pairwise tree of op_reduce on one work array w ([L][V]) with a simple combine op o. */
static void reduce_tree(const ctx *c, const ir_op *o, int swap, interp_elem *w, int64_t L, int64_t V)
{
  const int f = fmt_of(elem_scalar(&o->res[0]));
  for (int64_t len = L; len > 1;) {
    const int64_t half = len / 2;
    if (V == 1) /* lanes 2k and 2k+1 at stride 2; writing lane k never overtakes the reads */
      interp_fbin_loop(c, o->code, f, w, w + swap, 2, w + 1 - swap, 2, half);
    else
      for (int64_t p = 0; p < half; p++)
        interp_fbin_loop(c, o->code, f, w + p * V, w + (2 * p + swap) * V, 1, w + (2 * p + 1 - swap) * V, 1, V);
    if (len & 1) memmove(w + half * V, w + (len - 1) * V, sizeof(interp_elem) * (size_t)V);
    len = half + (len & 1);
  }
}

#define MAX_COMBINE 16

/*
 * tt.reduce: canonical order = adjacent pairwise tree along the axis. Level by
 * level, lane k of the next level is combine(lane 2k, lane 2k+1) (lower index on
 * the left, so only associativity is assumed); an odd last lane is carried up.
 */
ttref_status interp_op_reduce(ctx *c, const ir_op *op)
{
  ttref_status st = TTREF_OK;
  const int N = op->nopnds;
  if (N < 1 || N > MAX_COMBINE || op->nregions != 1) return interp_fault(c, op, TTREF_E_INPUT, "bad 'tt.reduce'");
  const ir_type *t = op->opnds[0]->type;
  const int axis = (int)ir_op_attr_int(op, "axis", 0);
  if (t->kind != IR_T_TENSOR || axis < 0 || axis >= t->rank)
    return interp_fault(c, op, TTREF_E_INPUT, "bad reduce axis %d", axis);
  const axis_view v = view_of(t, axis);
  const int64_t V = v.outer * v.inner, numel = t->numel;
  /* scratch: N work arrays of numel + 2N lhs/rhs staging arrays of numel/2 + N outputs */
  const int64_t half_cap = (v.L / 2 + 1) * V;
  interp_elem *ws;
  TRY(work_get(c, op, N * numel + 3 * N * half_cap, &ws));
  interp_elem *W[MAX_COMBINE], *lhs[MAX_COMBINE], *rhs[MAX_COMBINE], *res[MAX_COMBINE], *in[2 * MAX_COMBINE];
  for (int j = 0; j < N; j++) {
    W[j] = ws + j * numel;
    lhs[j] = ws + N * numel + j * half_cap;
    rhs[j] = ws + N * numel + (N + j) * half_cap;
    res[j] = ws + N * numel + (2 * N + j) * half_cap;
    const interp_elem *src = SL(op->opnds[j])->d;
    if (v.outer == 1) /* already [axis][rest] */
      memcpy(W[j], src, sizeof(interp_elem) * (size_t)numel);
    else if (v.inner == 1) /* the last axis: a transpose */
      for (int64_t o = 0; o < v.outer; o++)
        for (int64_t k = 0; k < v.L; k++) W[j][k * V + o] = src[o * v.L + k];
    else
      for (int64_t o = 0; o < v.outer; o++) /* W[k][o*inner+i] = src[(o*L+k)*inner+i] */
        for (int64_t k = 0; k < v.L; k++)
          memcpy(W[j] + k * V + o * v.inner, src + (o * v.L + k) * v.inner, sizeof(interp_elem) * (size_t)v.inner);
  }
  int swap = 0;
  const ir_op *simple = N == 1 ? simple_combine(c, &op->regions[0], IR_OP_REDUCE_RETURN, &swap) : NULL;
  if (simple) reduce_tree(c, simple, swap, W[0], v.L, V);
  for (int64_t len = simple ? 1 : v.L; len > 1;) {
    int64_t half = len / 2;
    for (int j = 0; j < N; j++)
      for (int64_t p = 0; p < half; p++) {
        memcpy(lhs[j] + p * V, W[j] + (2 * p) * V, sizeof(interp_elem) * (size_t)V);
        memcpy(rhs[j] + p * V, W[j] + (2 * p + 1) * V, sizeof(interp_elem) * (size_t)V);
      }
    for (int j = 0; j < N; j++) {
      in[j] = lhs[j];
      in[N + j] = rhs[j];
    }
    TRY(run_combine(c, &op->regions[0], (const interp_elem *const *)in, 2 * N, res, N, half * V));
    for (int j = 0; j < N; j++) {
      memcpy(W[j], res[j], sizeof(interp_elem) * (size_t)(half * V));
      if (len & 1) memcpy(W[j] + half * V, W[j] + (len - 1) * V, sizeof(interp_elem) * (size_t)V);
    }
    len = half + (len & 1);
  }
  for (int j = 0; j < N; j++) {
    slot *r = SL(&op->res[j]);
    memcpy(r->d, W[j], sizeof(interp_elem) * (size_t)V);
    r->n = V;
  }
fail:
  return st;
}

/* tt.scan: canonical order = sequential inclusive scan along the axis (reverse: from the end). */
ttref_status interp_op_scan(ctx *c, const ir_op *op)
{
  ttref_status st = TTREF_OK;
  const int N = op->nopnds;
  if (N < 1 || N > MAX_COMBINE || op->nregions != 1) return interp_fault(c, op, TTREF_E_INPUT, "bad 'tt.scan'");
  const ir_type *t = op->opnds[0]->type;
  const int axis = (int)ir_op_attr_int(op, "axis", 0);
  const bool rev = ir_op_attr_int(op, "reverse", 0) != 0;
  if (t->kind != IR_T_TENSOR || axis < 0 || axis >= t->rank)
    return interp_fault(c, op, TTREF_E_INPUT, "bad scan axis %d", axis);
  const axis_view v = view_of(t, axis);
  const int64_t V = v.outer * v.inner;
  interp_elem *ws;
  TRY(work_get(c, op, 3 * N * V, &ws));
  interp_elem *acc[MAX_COMBINE], *cur[MAX_COMBINE], *nxt[MAX_COMBINE], *in[2 * MAX_COMBINE];
  for (int j = 0; j < N; j++) {
    acc[j] = ws + j * V;
    cur[j] = ws + (N + j) * V;
    nxt[j] = ws + (2 * N + j) * V;
  }
  int swap = 0;
  const ir_op *simple = N == 1 ? simple_combine(c, &op->regions[0], IR_OP_SCAN_RETURN, &swap) : NULL;
  if (simple) { /* acc = combine(acc, cur) as one typed loop per outer index, in the same step order */
    const int f = fmt_of(elem_scalar(&simple->res[0]));
    const interp_elem *src = SL(op->opnds[0])->d;
    interp_elem *dst = SL(&op->res[0])->d;
    if (v.inner == 1) /* along the contiguous axis: each row's recurrence, one typed loop */
      for (int64_t o = 0; o < v.outer; o++)
        interp_fbin_of(simple->code)->scan(c, f, dst + o * v.L, src + o * v.L, v.L, rev, swap);
    for (int64_t step = 0; step < (v.inner == 1 ? 0 : v.L); step++) {
      const int64_t k = rev ? v.L - 1 - step : step;
      for (int64_t o = 0; o < v.outer; o++) {
        const interp_elem *s = src + (o * v.L + k) * v.inner;
        interp_elem *a = acc[0] + o * v.inner;
        if (step == 0) memcpy(a, s, sizeof(interp_elem) * (size_t)v.inner);
        else interp_fbin_loop(c, simple->code, f, a, swap ? s : a, 1, swap ? a : s, 1, v.inner);
        memcpy(dst + (o * v.L + k) * v.inner, a, sizeof(interp_elem) * (size_t)v.inner);
      }
    }
  }
  for (int64_t step = 0; step < (simple ? 0 : v.L); step++) {
    int64_t k = rev ? v.L - 1 - step : step;
    for (int j = 0; j < N; j++) {
      const interp_elem *src = SL(op->opnds[j])->d;
      for (int64_t o = 0; o < v.outer; o++)
        memcpy(cur[j] + o * v.inner, src + (o * v.L + k) * v.inner, sizeof(interp_elem) * (size_t)v.inner);
    }
    if (step == 0) {
      for (int j = 0; j < N; j++) memcpy(acc[j], cur[j], sizeof(interp_elem) * (size_t)V);
    } else {
      for (int j = 0; j < N; j++) {
        in[j] = acc[j];
        in[N + j] = cur[j];
      }
      TRY(run_combine(c, &op->regions[0], (const interp_elem *const *)in, 2 * N, nxt, N, V));
      for (int j = 0; j < N; j++) memcpy(acc[j], nxt[j], sizeof(interp_elem) * (size_t)V);
    }
    for (int j = 0; j < N; j++) {
      interp_elem *dst = SL(&op->res[j])->d;
      for (int64_t o = 0; o < v.outer; o++)
        memcpy(dst + (o * v.L + k) * v.inner, acc[j] + o * v.inner, sizeof(interp_elem) * (size_t)v.inner);
    }
  }
  for (int j = 0; j < N; j++) SL(&op->res[j])->n = t->numel;
fail:
  return st;
}

/* tt.map_elementwise: block args are each operand's lanes p = 0..pack-1, operand-major. */
ttref_status interp_op_map_elementwise(ctx *c, const ir_op *op)
{
  ttref_status st = TTREF_OK;
  const int N = op->nopnds, R = op->nres;
  const int64_t P = ir_op_attr_int(op, "pack", 1);
  if (N < 1 || P < 1 || N * P > 2 * MAX_COMBINE || R * P > MAX_COMBINE || op->nregions != 1)
    return interp_fault(c, op, TTREF_E_INPUT, "bad 'tt.map_elementwise'");
  const int64_t numel = op->opnds[0]->type->numel, V = numel / P;
  interp_elem *ws;
  TRY(work_get(c, op, (N * P + R * P) * V, &ws));
  interp_elem *in[2 * MAX_COMBINE], *out[MAX_COMBINE];
  for (int j = 0; j < N; j++)
    for (int64_t p = 0; p < P; p++) {
      interp_elem *b = ws + (j * P + p) * V;
      const interp_elem *src = SL(op->opnds[j])->d;
      for (int64_t k = 0; k < V; k++) b[k] = src[k * P + p];
      in[j * P + p] = b;
    }
  for (int j = 0; j < R * P; j++) out[j] = ws + (N * P + j) * V;
  TRY(run_combine(c, &op->regions[0], (const interp_elem *const *)in, (int)(N * P), out, (int)(R * P), V));
  for (int j = 0; j < R; j++) {
    slot *r = SL(&op->res[j]);
    for (int64_t p = 0; p < P; p++)
      for (int64_t k = 0; k < V; k++) r->d[k * P + p] = out[j * P + p][k];
    r->n = numel;
  }
fail:
  return st;
}

/* ---- matrix multiply ---------------------------------------------------------------------------- */
/*
 * Tile micro-kernels of tt.dot: for each output row m and each k ascending,
 * acc[m, n] = step(a[m, k], b[k, n], acc[m, n]) across n, so the loop runs
 * across N and every accumulator keeps its own k order (never vectorised across
 * K: docs/numerics.md §8). One call per (batch of a) dot, not per row and k.
 * On x86-64 GCC they are cloned for FMA/AVX2 hardware (fmaf becomes one vfmadd
 * lane; the result is the same correctly rounded fmaf either way) and vectorised,
 * each clone starting a 64-byte line (its loops' placement, and so its speed, then
 * no longer depends on the code linked before it).
 */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && !defined(__SANITIZE_ADDRESS__)
#define DOT_KERNEL(isa)                                                                                                \
  __attribute__((target_clones(isa, "default"), aligned(64), optimize("tree-vectorize", "vect-cost-model=dynamic")))
#else
#define DOT_KERNEL(isa)
#endif

/* Columns per register block: the accumulators of DOT_COLS columns stay in registers across k. */
#define DOT_COLS 16

/* One tile loop for both accumulator types T: STEP(x, y, v) is one accumulation step v <- x*y + v */
#define DOT_TILE(NAME, T, STEP)                                                                                        \
  static void NAME(T *restrict acc, const T *restrict a, const T *restrict b, int64_t M, int64_t K, int64_t N)         \
  {                                                                                                                    \
    const int64_t nfull = N - N % DOT_COLS;                                                                            \
    for (int64_t m = 0; m < M; m++) {                                                                                  \
      T *restrict row = acc + m * N;                                                                                   \
      const T *restrict am = a + m * K;                                                                                \
      for (int64_t j0 = 0; j0 < nfull; j0 += DOT_COLS) {                                                               \
        T v[DOT_COLS];                                                                                                 \
        for (int t = 0; t < DOT_COLS; t++) v[t] = row[j0 + t];                                                         \
        for (int64_t k = 0; k < K; k++) {                                                                              \
          const T x = am[k];                                                                                           \
          const T *restrict bk = b + k * N + j0;                                                                       \
          for (int t = 0; t < DOT_COLS; t++) v[t] = STEP(x, bk[t], v[t]);                                              \
        }                                                                                                              \
        for (int t = 0; t < DOT_COLS; t++) row[j0 + t] = v[t];                                                         \
      }                                                                                                                \
      for (int64_t k = 0; k < K && nfull < N; k++) {                                                                   \
        const T x = am[k];                                                                                             \
        const T *restrict bk = b + k * N;                                                                              \
        for (int64_t j = nfull; j < N; j++) row[j] = STEP(x, bk[j], row[j]);                                           \
      }                                                                                                                \
    }                                                                                                                  \
  }

/* f32: one fmaf per step, correctly rounded; i32: products and sums modulo 2^32 (wrapping once
 * at the end equals wrapping each step) */
#define DOT_STEP_F32(x, y, v) fmaf(x, y, v)
#define DOT_STEP_U32(x, y, v) ((v) + (x) * (y))
DOT_KERNEL("fma")
DOT_TILE(dot_tile_f32, float, DOT_STEP_F32)
DOT_KERNEL("avx2")
DOT_TILE(dot_tile_u32, uint32_t, DOT_STEP_U32)

/*
 * The f32-accumulator and i32-accumulator dots (all but precise mode and f64/f16
 * accumulators): A, B and the accumulators C are converted once per op to packed
 * float / uint32 copies in the work space, the tile micro-kernel accumulates,
 * and D is written once. Bit-identical to the generic loop in op_dot.
 */
static ttref_status dot_packed(ctx *c, const ir_op *op, int64_t nb, int64_t M, int64_t K, int64_t N, bool tf32)
{
  ttref_status st = TTREF_OK;
  const slot *A = SL(op->opnds[0]), *B = SL(op->opnds[1]), *C = SL(op->opnds[2]);
  slot *D = SL(&op->res[0]);
  const ir_scalar as = elem_scalar(op->opnds[0]), bs = elem_scalar(op->opnds[1]);
  const bool integer = ir_scalar_is_int(elem_scalar(&op->res[0]));
  const int64_t sc = C->n > 1; /* a splat accumulator is one element */
  const int abits = ir_scalar_bits(as), bbits = ir_scalar_bits(bs);
  interp_elem *ws;
  /* packed B (K*N), A (M*K) and accumulators (M*N), 4 bytes each */
  TRY(work_get(c, op, (K * N + M * K + M * N) / 2 + 2, &ws));
  float *bf = (float *)(void *)ws, *af = bf + K * N, *accf = af + M * K;
  uint32_t *bu = (uint32_t *)(void *)ws, *au = bu + K * N, *accu = au + M * K;
  for (int64_t b = 0; b < nb; b++) {
    const interp_elem *bsrc = B->d + b * K * N, *asrc = A->d + b * M * K, *cc = C->d + sc * b * M * N;
    interp_elem *dd = D->d + b * M * N;
    if (integer) {
      for (int64_t i = 0; i < K * N; i++) bu[i] = (uint32_t)sval(bbits, bsrc[i].i);
      for (int64_t i = 0; i < M * K; i++) au[i] = (uint32_t)sval(abits, asrc[i].i);
      for (int64_t i = 0; i < M * N; i++) accu[i] = (uint32_t)cc[i * sc].i;
      dot_tile_u32(accu, au, bu, M, K, N);
      for (int64_t i = 0; i < M * N; i++) dd[i].i = (int32_t)accu[i];
    } else {
      for (int64_t i = 0; i < K * N; i++) {
        double y = bsrc[i].f;
        if (tf32 && bs == IR_S_F32) y = fp_round_to(FP_TF32, y, FP_RTZ, FP_OVF_INF);
        bf[i] = (float)y;
      }
      for (int64_t i = 0; i < M * K; i++) {
        double x = asrc[i].f;
        if (tf32 && as == IR_S_F32) x = fp_round_to(FP_TF32, x, FP_RTZ, FP_OVF_INF);
        af[i] = (float)x;
      }
      for (int64_t i = 0; i < M * N; i++) accf[i] = (float)cc[i * sc].f;
      dot_tile_f32(accf, af, bf, M, K, N);
      for (int64_t i = 0; i < M * N; i++) dd[i].f = (double)accf[i];
    }
  }
fail:
  return st;
}
/*
 * tt.dot canonical order: D[b,m,n] = C[b,m,n]; for k = 0..K-1 ascending:
 * D = round_acc(A[b,m,k] * B[b,k,n] + D), the product exact and each step a
 * single (fused) rounding to the accumulator type. i8 x i8 -> i32 wraps.
 * inputPrecision tf32: f32 inputs are first reduced to tf32 (1-8-10) by
 * truncation, as the H100 does (measured: scripts/gpu/probe_tf32.py).
 * tf32x3 and bf16x3/x6 are computed as ieee (their error is below the bound).
 */
ttref_status interp_op_dot(ctx *c, const ir_op *op)
{
  const ir_type *ta = op->opnds[0]->type, *tb = op->opnds[1]->type, *td = op->res[0].type;
  const slot *A = SL(op->opnds[0]), *B = SL(op->opnds[1]), *C = SL(op->opnds[2]);
  slot *D = SL(&op->res[0]);
  const int r = ta->rank;
  if (r < 2 || r > 3 || tb->rank != r || td->rank != r)
    return interp_fault(c, op, TTREF_E_INPUT, "'tt.dot' needs 2-D or 3-D operands");
  const int64_t nb = r == 3 ? ta->shape[0] : 1, M = ta->shape[r - 2], K = ta->shape[r - 1], N = tb->shape[r - 1];
  const ir_scalar as = elem_scalar(op->opnds[0]), bs = elem_scalar(op->opnds[1]), ds = td->elem->scalar;
  const int prec = (int)ir_op_attr_int(op, "inputPrecision", IR_PREC_IEEE);
  const bool tf32 = prec == IR_PREC_TF32; /* part of the op's definition: precise mode keeps it */
  const int f = c->precise ? FP_F64 : fmt_of(ds);
  const bool integer = ir_scalar_is_int(ds);
  const int dbits = ir_scalar_bits(ds);
  D->n = td->numel;
  if ((f == FP_F32 && !integer) || (integer && dbits == 32 && ir_scalar_bits(as) <= 32 && ir_scalar_bits(bs) <= 32))
    return dot_packed(c, op, nb, M, K, N, tf32); /* reads C itself */
  memcpy(D->d, C->d, sizeof(interp_elem) * (size_t)td->numel);
  if (C->n == 1)
    for (int64_t i = 0; i < td->numel; i++) D->d[i] = C->d[0];
  for (int64_t b = 0; b < nb; b++)
    for (int64_t m = 0; m < M; m++) {
      interp_elem *drow = D->d + (b * M + m) * N;
      for (int64_t k = 0; k < K; k++) {
        interp_elem av = A->d[(b * M + m) * K + k];
        const interp_elem *brow = B->d + (b * K + k) * N;
        if (integer) {
          int64_t x = sval(ir_scalar_bits(as), av.i);
          for (int64_t n = 0; n < N; n++)
            drow[n].i =
                wrap_int(dbits, (int64_t)((uint64_t)drow[n].i + (uint64_t)(x * sval(ir_scalar_bits(bs), brow[n].i))));
          continue;
        }
        double x = av.f;
        if (tf32 && as == IR_S_F32) x = fp_round_to(FP_TF32, x, FP_RTZ, FP_OVF_INF);
        if (f == FP_F32) {
          float xf = (float)x;
          for (int64_t n = 0; n < N; n++) {
            double y = brow[n].f;
            if (tf32 && bs == IR_S_F32) y = fp_round_to(FP_TF32, y, FP_RTZ, FP_OVF_INF);
            drow[n].f = (double)fmaf(xf, (float)y, (float)drow[n].f);
          }
        } else if (f == FP_F64) {
          const bool ty = tf32 && bs == IR_S_F32;
          for (int64_t n = 0; n < N; n++)
            drow[n].f = fma(x, ty ? fp_round_to(FP_TF32, brow[n].f, FP_RTZ, FP_OVF_INF) : brow[n].f, drow[n].f);
        } else {
          for (int64_t n = 0; n < N; n++) drow[n].f = fp_fma((fp_format)f, x, brow[n].f, drow[n].f);
        }
      }
    }
  return TTREF_OK;
}

/*
 * tt.dot_scaled: D = (A * 2^(sa - 127)) . (B * 2^(sb - 127)) + C with e8m0
 * scales, one per group of K / scale_shape[-1] elements (32 for MX formats),
 * a's scale [M, K/g], b's [N, K/g]. Operands in i8 containers are decoded by
 * a_elem_type / b_elem_type (e2m1 packed two per byte along K when *_k_pack,
 * low nibble first). Canonical order and rounding as tt.dot (fused steps in
 * the accumulator type, k ascending).
 */
static double mx_elem(int sdt, const ir_value *v, const interp_elem *d, int64_t idx, bool packed_pair_hi)
{
  const ir_scalar s = elem_scalar(v);
  if (ir_scalar_is_float(s)) return d[idx].f; /* bf16 / fp16 / f8 tensors hold values */
  uint64_t byte = (uint64_t)d[idx].i & 0xFF;
  switch (sdt) {
  case IR_SDT_E4M3: return fp_decode(FP_F8E4M3FN, byte);
  case IR_SDT_E5M2: return fp_decode(FP_F8E5M2, byte);
  case IR_SDT_E2M3: return fp_decode(FP_E2M3, byte & 0x3F);
  case IR_SDT_E3M2: return fp_decode(FP_E3M2, byte & 0x3F);
  case IR_SDT_E2M1: return fp_decode(FP_E2M1, packed_pair_hi ? (byte >> 4) & 0xF : byte & 0xF);
  default: return fp_decode(FP_F16, byte);
  }
}

ttref_status interp_op_dot_scaled(ctx *c, const ir_op *op)
{
  int ias = -1, ibs = -1;
  const ir_attr *segs = ir_op_attr(op, "operandSegmentSizes");
  if (segs && segs->nints == 5) {
    if (segs->ints[3]) ias = 3;
    if (segs->ints[4]) ibs = 3 + (int)segs->ints[3];
  } else if (op->nopnds == 5) {
    ias = 3;
    ibs = 4;
  } else if (op->nopnds == 4) {
    return interp_fault(c, op, TTREF_E_INPUT, "'tt.dot_scaled' with one scale needs operandSegmentSizes");
  }
  const ir_value *av = op->opnds[0], *bv = op->opnds[1];
  const ir_type *ta = av->type, *tb = bv->type, *td = op->res[0].type;
  const int r = td->rank;
  if (r != 2 || ta->rank != 2 || tb->rank != 2)
    return interp_fault(c, op, TTREF_E_UNSUPPORTED, "'tt.dot_scaled' on batched (3-D) operands is not supported");
  const int at = (int)ir_op_attr_int(op, "a_elem_type", IR_SDT_BF16),
            bt = (int)ir_op_attr_int(op, "b_elem_type", IR_SDT_BF16);
  const bool lpack = ir_op_attr_int(op, "lhs_k_pack", 1) != 0, rpack = ir_op_attr_int(op, "rhs_k_pack", 1) != 0;
  if ((at == IR_SDT_E2M1 && !lpack) || (bt == IR_SDT_E2M1 && !rpack))
    return interp_fault(c, op, TTREF_E_UNSUPPORTED, "'tt.dot_scaled' with e2m1 packed along M/N is not supported");
  const bool apk = at == IR_SDT_E2M1 && !ir_scalar_is_float(elem_scalar(av));
  const bool bpk = bt == IR_SDT_E2M1 && !ir_scalar_is_float(elem_scalar(bv));
  const int64_t M = td->shape[0], N = td->shape[1], K = ta->shape[1] * (apk ? 2 : 1);
  const int64_t acols = ta->shape[1], bcols = tb->shape[1];
  const slot *A = SL(av), *B = SL(bv), *C = SL(op->opnds[2]);
  const slot *AS = ias >= 0 ? SL(op->opnds[ias]) : NULL, *BS = ibs >= 0 ? SL(op->opnds[ibs]) : NULL;
  const int64_t ag = AS ? K / op->opnds[ias]->type->shape[1] : K, bg = BS ? K / op->opnds[ibs]->type->shape[1] : K;
  slot *D = SL(&op->res[0]);
  const int f = c->precise ? FP_F64 : fmt_of(td->elem->scalar);
  for (int64_t i = 0; i < M * N; i++) D->d[i] = C->d[C->n > 1 ? i : 0];
  D->n = M * N;
  for (int64_t m = 0; m < M; m++)
    for (int64_t n = 0; n < N; n++) {
      double acc = D->d[m * N + n].f;
      for (int64_t k = 0; k < K; k++) {
        double x = mx_elem(at, av, A->d, m * acols + (apk ? k / 2 : k), apk && (k & 1));
        double y = mx_elem(bt, bv, B->d, (bpk ? k / 2 : k) * bcols + n, bpk && (k & 1));
        if (AS) x = ldexp(x, (int)(((uint64_t)AS->d[m * (K / ag) + k / ag].i & 0xFF)) - 127);
        if (BS) y = ldexp(y, (int)(((uint64_t)BS->d[n * (K / bg) + k / bg].i & 0xFF)) - 127);
        if (AS && ((uint64_t)AS->d[m * (K / ag) + k / ag].i & 0xFF) == 0xFF) x = NAN;
        if (BS && ((uint64_t)BS->d[n * (K / bg) + k / bg].i & 0xFF) == 0xFF) y = NAN;
        if (c->bound_pass) { /* magnitudes (i8-coded operands are not swapped to bounds) */
          x = fabs(x);
          y = fabs(y);
        }
        acc = f == FP_F64   ? fma(x, y, acc)
              : f == FP_F32 ? (double)fmaf((float)x, (float)y, (float)acc)
                            : fp_fma((fp_format)f, x, y, acc);
      }
      D->d[m * N + n].f = acc;
    }
  return TTREF_OK;
}
