/*
 * ir_fx_lower.c: a parsed TK trace with bound symbols becomes TTIR text: one
 * public tt.func whose pointer arguments are the root placeholders; index
 * values are i64 scalars, TK vectors are tensors (rank 0 = scalar) whose dims
 * are rounded up to powers of two (padding lanes are masked where it matters),
 * block loads/stores are pointer tensors with bounds masks, for_loop is scf.for.
 * Size (1.7k lines): one lowering per TK op sharing one emitter state (names,
 * shapes, masks); the next split, when it grows, is the index-expression
 * emitter and the block load/store lowering into files of their own.
 */
#include "config.h"
#include "ir_fx_lower.h"
#include "ir_parse.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FX_MAX_NEST  16
#define FX_MAX_NUMEL ((int64_t)1 << 24)

/* ---- values ------------------------------------------------------------------- */
typedef enum vkind { V_NONE, V_INDEX, V_VEC, V_BUF, V_TUPLE, V_PYINT, V_PYFLOAT } vkind;

typedef struct val val;
struct val {
  vkind k;
  char ref[40]; /* SSA spelling; "" for a constant index not yet materialised */
  bool isc;     /* INDEX: compile-time constant c */
  int64_t c;    /* INDEX constant, PYINT */
  double f;     /* PYFLOAT */
  ir_scalar dt; /* VEC */
  int rank;
  int64_t shape[IR_MAX_RANK];  /* VEC: TK's shape */
  int64_t pshape[IR_MAX_RANK]; /* VEC: the tensor's: each dim rounded up to a power of two */
  int buf;                     /* BUF: index into L->bufs */
  val *items;                  /* TUPLE (arena) */
  int nitems;
};

typedef struct fxbuf {
  const char *name; /* TTIR argument name (placeholder target) */
  const ir_fx_node *node;
  ir_scalar dt;
  int rank;
  int64_t dims[IR_MAX_RANK];
  int64_t strides[IR_MAX_RANK];
} fxbuf;

typedef struct sbuf {
  char *p;
  size_t n, cap;
  bool oom;
} sbuf;

typedef struct lower {
  const ir_fx *g;
  const ir_fx_bind *b;
  ttref_error *err;
  ir_arena *arena;
  sbuf body, locs;
  int nextid, nextloc, indent, curloc;
  int nline, ncol;  /* the node being lowered: where a missing operand is reported */
  const char *base; /* file name for locations (basename) */
  fxbuf bufs[64];
  int nbufs;
  int stack[FX_MAX_NEST]; /* regions being lowered */
  int nstack;
} lower;

static void sb_vadd(sbuf *s, const char *fmt, va_list ap)
{
  if (s->oom) return;
  va_list aq;
  va_copy(aq, ap);
  int n = vsnprintf(NULL, 0, fmt, aq);
  va_end(aq);
  if (n < 0) {
    s->oom = true;
    return;
  }
  if (s->n + (size_t)n + 1 > s->cap) {
    size_t nc = s->cap ? s->cap : 4096;
    while (nc < s->n + (size_t)n + 1) nc *= 2;
    char *np = ir_realloc(s->p, s->cap, nc);
    if (!np) {
      s->oom = true;
      return;
    }
    s->p = np;
    s->cap = nc;
  }
  vsnprintf(s->p + s->n, (size_t)n + 1, fmt, ap);
  s->n += (size_t)n;
}

static void sb_add(sbuf *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb_add(sbuf *s, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  sb_vadd(s, fmt, ap);
  va_end(ap);
}

static ttref_status lerr(lower *L, int line, int col, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static ttref_status lerr(lower *L, int line, int col, const char *fmt, ...)
{
  char body[380];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(body, sizeof body, fmt, ap);
  va_end(ap);
  return ir_error_set(L->err, TTREF_E_INPUT, (ttref_loc){L->g->filename, line, col}, "%s", body);
}

/* an error at argument a; at the node being lowered when a is absent (a missing operand) */
#define AERR(L, a, ...)  lerr((L), (a) ? (a)->line : (L)->nline, (a) ? (a)->col : (L)->ncol, __VA_ARGS__)
#define NERR(L, nd, ...) lerr((L), (nd)->line, (nd)->col, __VA_ARGS__)

/* one op line at the current indentation, located at the current node */
static void emit(lower *L, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void emit(lower *L, const char *fmt, ...)
{
  va_list ap;
  sb_add(&L->body, "%*s", L->indent, "");
  va_start(ap, fmt);
  sb_vadd(&L->body, fmt, ap);
  va_end(ap);
  sb_add(&L->body, " loc(#loc%d)\n", L->curloc);
}

static int newid(lower *L) { return L->nextid++; }

/* a location alias for node @p nd: #locN = loc("name"("file.fx":line:col)) */
static int loc_of(lower *L, const char *name, int line, int col)
{
  int a = ++L->nextloc;
  sb_add(&L->locs, "#loc%d = loc(\"%s\":%d:%d)\n", a, L->base, line, col);
  if (!name) return a;
  int b = ++L->nextloc;
  sb_add(&L->locs, "#loc%d = loc(\"%s\"(#loc%d))\n", b, name, a);
  return b;
}

/* ---- types ------------------------------------------------------------------------ */
static const char *sname(ir_scalar s) { return ir_scalar_name(s); }

static char *tystr(char *buf, size_t n, const char *elem, int rank, const int64_t *shape)
{
  if (rank == 0) {
    snprintf(buf, n, "%s", elem);
    return buf;
  }
  size_t k = (size_t)snprintf(buf, n, "tensor<");
  for (int d = 0; d < rank && k < n; d++) k += (size_t)snprintf(buf + k, n - k, "%" PRId64 "x", shape[d]);
  if (k < n) snprintf(buf + k, n - k, "%s>", elem);
  return buf;
}

static char *vty(char *buf, size_t n, const val *v) { return tystr(buf, n, sname(v->dt), v->rank, v->pshape); }

static int64_t pow2ceil(int64_t x)
{
  int64_t p = 1;
  while (p < x && p < ((int64_t)1 << 40)) p <<= 1;
  return p;
}

static int64_t numel(int rank, const int64_t *shape)
{
  int64_t n = 1;
  for (int d = 0; d < rank; d++) n *= shape[d];
  return n;
}

static const char *shape_str(char *buf, size_t n, int rank, const int64_t *shape)
{
  size_t k = (size_t)snprintf(buf, n, "(");
  for (int d = 0; d < rank && k < n; d++) k += (size_t)snprintf(buf + k, n - k, "%s%" PRId64, d ? ", " : "", shape[d]);
  if (k < n) snprintf(buf + k, n - k, rank == 1 ? ",)" : ")");
  return buf;
}

/* a TK vector becomes a Triton tensor with every dim rounded up to a power of two */
static ttref_status check_shape(lower *L, const ir_fx_node *nd, int rank, const int64_t *shape)
{
  char b[160];
  int64_t n = 1;
  for (int d = 0; d < rank; d++) {
    if (shape[d] < 1)
      return NERR(L, nd, "vector shape %s of %%%s has an empty dimension", shape_str(b, sizeof b, rank, shape),
                  nd->name);
    if (shape[d] > FX_MAX_NUMEL || (n *= pow2ceil(shape[d])) > FX_MAX_NUMEL)
      return NERR(L, nd, "vector shape %s of %%%s is too large", shape_str(b, sizeof b, rank, shape), nd->name);
  }
  return TTREF_OK;
}

static bool dtype_lookup(const char *s, ir_scalar *out)
{
  const char *dot = strrchr(s, '.');
  if (dot) s = dot + 1;
  static const struct {
    const char *n;
    ir_scalar s;
  } t[] = {{"f16", IR_S_F16},       {"float16", IR_S_F16}, {"half", IR_S_F16},    {"bf16", IR_S_BF16},
           {"bfloat16", IR_S_BF16}, {"f32", IR_S_F32},     {"float32", IR_S_F32}, {"float", IR_S_F32},
           {"f64", IR_S_F64},       {"float64", IR_S_F64}, {"i8", IR_S_I8},       {"int8", IR_S_I8},
           {"i16", IR_S_I16},       {"int16", IR_S_I16},   {"i32", IR_S_I32},     {"int32", IR_S_I32},
           {"i64", IR_S_I64},       {"int64", IR_S_I64},   {"bool", IR_S_I1},     {"i1", IR_S_I1}};
  for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
    if (!strcmp(t[i].n, s)) return *out = t[i].s, true;
  return false;
}

/* ---- symbols and static index expressions ------------------------------------------- */
static bool sym_lookup(const lower *L, const char *name, int64_t *out)
{
  size_t n = strlen(name);
  for (int i = L->b ? L->b->nsyms - 1 : -1; i >= 0; i--) {
    const char *s = L->b->syms[i];
    if (!strncmp(s, name, n) && s[n] == '=') {
      char *end;
      long long v = strtoll(s + n + 1, &end, 0);
      if (end == s + n + 1 || *end) return false;
      *out = v;
      return true;
    }
  }
  return false;
}

static ttref_status py_binop(lower *L, const ir_fx_arg *at, const char *op, int64_t a, int64_t b, bool floor_mod,
                             int64_t *out)
{
  ttref_status st = TTREF_OK;
  int64_t r = 0;
  if (!strcmp(op, "+")) {
    if (__builtin_add_overflow(a, b, &r)) FAIL(AERR(L, at, "index arithmetic overflows 64 bits"));
  } else if (!strcmp(op, "-")) {
    if (__builtin_sub_overflow(a, b, &r)) FAIL(AERR(L, at, "index arithmetic overflows 64 bits"));
  } else if (!strcmp(op, "*")) {
    if (__builtin_mul_overflow(a, b, &r)) FAIL(AERR(L, at, "index arithmetic overflows 64 bits"));
  } else {
    if (b == 0) FAIL(AERR(L, at, "division by zero in an index expression"));
    if (a == INT64_MIN && b == -1) FAIL(AERR(L, at, "index arithmetic overflows 64 bits"));
    int64_t q = a / b, m = a % b;
    if (!strcmp(op, "/")) {
      if (m) FAIL(AERR(L, at, "%" PRId64 "/%" PRId64 " is not an integer (use //)", a, b));
      r = q;
    } else if (!strcmp(op, "//")) {
      r = (m != 0 && ((m < 0) != (b < 0))) ? q - 1 : q;
    } else if (!strcmp(op, "ceil")) {
      r = (m != 0 && ((m < 0) == (b < 0))) ? q + 1 : q;
    } else { /* "%": Python (sympy Mod) or C (arith.remsi) remainder */
      r = (floor_mod && m != 0 && ((m < 0) != (b < 0))) ? m + b : m;
    }
  }
  *out = r;
fail:
  return st;
}

/* ---- index values (i64 scalars) ------------------------------------------------------------ */
static val vconst(int64_t c)
{
  val v = {.k = V_INDEX, .isc = true, .c = c};
  return v;
}

static const char *iref(lower *L, val *v)
{
  if (v->k == V_INDEX && v->isc && !v->ref[0]) {
    int id = newid(L);
    emit(L, "%%v%d = arith.constant %" PRId64 " : i64", id, v->c);
    snprintf(v->ref, sizeof v->ref, "%%v%d", id);
  }
  return v->ref;
}

static val idx_new(lower *L, int *id)
{
  val v = {.k = V_INDEX};
  *id = newid(L);
  snprintf(v.ref, sizeof v.ref, "%%v%d", *id);
  return v;
}

/* a OP b on index values: constants fold (Python semantics); else arith on i64.
 * op: + - * // % (floor_mod: Python's sign rule, else remsi) ceil max min */
static ttref_status idx_binop(lower *L, const ir_fx_arg *at, const char *op, val a, val b, bool floor_mod, val *out)
{
  ttref_status st = TTREF_OK;
  if (a.isc && b.isc && strcmp(op, "max") && strcmp(op, "min")) {
    int64_t r = 0;
    TRY(py_binop(L, at, op, a.c, b.c, floor_mod, &r));
    *out = vconst(r);
    goto fail;
  }
  if (!strcmp(op, "max") || !strcmp(op, "min")) {
    if (a.isc && b.isc) {
      *out = vconst(!strcmp(op, "max") ? (a.c > b.c ? a.c : b.c) : (a.c < b.c ? a.c : b.c));
      goto fail;
    }
  }
  if (!strcmp(op, "/")) FAIL(AERR(L, at, "'/' of a runtime index value is not an integer (use //)"));
  /* identities keep the TTIR small */
  if (!strcmp(op, "+") && a.isc && a.c == 0) return *out = b, TTREF_OK;
  if ((!strcmp(op, "+") || !strcmp(op, "-")) && b.isc && b.c == 0) return *out = a, TTREF_OK;
  if (!strcmp(op, "*") && b.isc && b.c == 1) return *out = a, TTREF_OK;
  if (!strcmp(op, "*") && a.isc && a.c == 1) return *out = b, TTREF_OK;
  const char *ra = iref(L, &a), *rb = iref(L, &b);
  int id = 0;
  val r = idx_new(L, &id);
  const char *mn = !strcmp(op, "+")      ? "addi"
                   : !strcmp(op, "-")    ? "subi"
                   : !strcmp(op, "*")    ? "muli"
                   : !strcmp(op, "//")   ? "floordivsi"
                   : !strcmp(op, "ceil") ? "ceildivsi"
                   : !strcmp(op, "max")  ? "maxsi"
                   : !strcmp(op, "min")  ? "minsi"
                                         : "remsi";
  emit(L, "%s = arith.%s %s, %s : i64", r.ref, mn, ra, rb);
  if (!strcmp(op, "%") && floor_mod) { /* ((a rem b) + b) rem b */
    int id2 = 0, id3 = 0;
    val t = idx_new(L, &id2);
    emit(L, "%s = arith.addi %s, %s : i64", t.ref, r.ref, rb);
    val u = idx_new(L, &id3);
    emit(L, "%s = arith.remsi %s, %s : i64", u.ref, t.ref, rb);
    r = u;
  }
  *out = r;
fail:
  return st;
}

static const val *env_by_name(const ir_fx_region *r, const val *env, const char *name)
{
  for (int i = 0; i < r->nnodes; i++)
    if (!strcmp(r->nodes[i].name, name) && env[i].k != V_NONE) return &env[i];
  return NULL;
}

/* an index expression: ints, bound symbols, %index nodes, + - * // % and floor/ceiling/Mod/Max/Min */
static ttref_status eval_index(lower *L, const ir_fx_region *r, const val *env, const ir_fx_arg *a, val *out)
{
  ttref_status st = TTREF_OK;
  if (!a) FAIL(lerr(L, L->nline, L->ncol, "a required operand is missing"));
  switch (a->kind) {
  case IR_FX_A_INT: *out = vconst(a->i); break;
  case IR_FX_A_BOOL: *out = vconst(a->i); break;
  case IR_FX_A_NAME: {
    int64_t v = 0;
    if (sym_lookup(L, a->s, &v)) {
      *out = vconst(v);
      break;
    }
    const val *e = env_by_name(r, env, a->s);
    if (e && e->k == V_INDEX) {
      *out = *e;
      break;
    }
    FAIL(AERR(L, a, "symbol '%s' is not bound (give --sym %s=VALUE)", a->s, a->s));
  }
  case IR_FX_A_REF: {
    const val *e = &env[a->node];
    if (e->k == V_INDEX) *out = *e;
    else if (e->k == V_PYINT) *out = vconst(e->c);
    else FAIL(AERR(L, a, "'%%%s' is not an index value", a->s));
    break;
  }
  case IR_FX_A_NEG: {
    val x = {0};
    TRY(eval_index(L, r, env, a->items[0], &x));
    TRY(idx_binop(L, a, "-", vconst(0), x, false, out));
    break;
  }
  case IR_FX_A_BIN: {
    val x = {0}, y = {0};
    TRY(eval_index(L, r, env, a->items[0], &x));
    TRY(eval_index(L, r, env, a->items[1], &y));
    TRY(idx_binop(L, a, a->s, x, y, true, out));
    break;
  }
  case IR_FX_A_CALL: {
    const char *fn = a->s;
    if ((!strcmp(fn, "floor") || !strcmp(fn, "ceiling")) && a->nitems == 1) {
      const ir_fx_arg *in = a->items[0];
      if (in->kind == IR_FX_A_BIN && !strcmp(in->s, "/")) {
        val x = {0}, y = {0};
        TRY(eval_index(L, r, env, in->items[0], &x));
        TRY(eval_index(L, r, env, in->items[1], &y));
        TRY(idx_binop(L, a, fn[0] == 'f' ? "//" : "ceil", x, y, true, out));
      } else {
        TRY(eval_index(L, r, env, in, out));
      }
    } else if (!strcmp(fn, "Mod") && a->nitems == 2) {
      val x = {0}, y = {0};
      TRY(eval_index(L, r, env, a->items[0], &x));
      TRY(eval_index(L, r, env, a->items[1], &y));
      TRY(idx_binop(L, a, "%", x, y, true, out));
    } else if ((!strcmp(fn, "Max") || !strcmp(fn, "Min")) && a->nitems >= 1) {
      TRY(eval_index(L, r, env, a->items[0], out));
      for (int i = 1; i < a->nitems; i++) {
        val y = {0};
        TRY(eval_index(L, r, env, a->items[i], &y));
        TRY(idx_binop(L, a, fn[1] == 'a' ? "max" : "min", *out, y, false, out));
      }
    } else {
      FAIL(AERR(L, a, "'%s(...)' is not an index expression (floor, ceiling, Mod, Max, Min are)", fn));
    }
    break;
  }
  default: FAIL(AERR(L, a, "expected an index expression"));
  }
fail:
  return st;
}

static ttref_status eval_static(lower *L, const ir_fx_region *r, const val *env, const ir_fx_arg *a, int64_t *out)
{
  ttref_status st = TTREF_OK;
  val v = {0};
  TRY(eval_index(L, r, env, a, &v));
  if (!v.isc) FAIL(AERR(L, a, "a static value is needed here, but this depends on runtime values"));
  *out = v.c;
fail:
  return st;
}

/* a static shape: tuple/list of index expressions */
static ttref_status eval_shape(lower *L, const ir_fx_region *r, const val *env, const ir_fx_arg *a, int *rank,
                               int64_t *shape)
{
  ttref_status st = TTREF_OK;
  if (a->kind != IR_FX_A_TUPLE && a->kind != IR_FX_A_LIST) {
    /* a single size stands for a 1-tuple */
    TRY(eval_static(L, r, env, a, &shape[0]));
    *rank = 1;
  } else {
    if (a->nitems > IR_MAX_RANK) FAIL(AERR(L, a, "more than %d dimensions", IR_MAX_RANK));
    for (int i = 0; i < a->nitems; i++) TRY(eval_static(L, r, env, a->items[i], &shape[i]));
    *rank = a->nitems;
  }
  for (int i = 0; i < *rank; i++)
    if (shape[i] < 0) FAIL(AERR(L, a, "negative size %" PRId64, shape[i]));
fail:
  return st;
}

/* ---- vectors ------------------------------------------------------------------------------ */
static val vec_new(lower *L, ir_scalar dt, int rank, const int64_t *shape)
{
  val v = {.k = V_VEC, .dt = dt, .rank = rank};
  for (int d = 0; d < rank; d++) {
    v.shape[d] = shape[d];
    v.pshape[d] = pow2ceil(shape[d]);
  }
  snprintf(v.ref, sizeof v.ref, "%%v%d", newid(L));
  return v;
}

static void fmt_scalar(char *buf, size_t n, ir_scalar dt, double f, int64_t i, bool isint)
{
  if (dt == IR_S_I1) {
    snprintf(buf, n, "%s", (isint ? i : f != 0) ? "true" : "false");
    return;
  }
  if (ir_scalar_is_int(dt)) {
    snprintf(buf, n, "%" PRId64, isint ? i : (int64_t)f);
    return;
  }
  double x = isint ? (double)i : f;
  if (isfinite(x)) {
    snprintf(buf, n, "%.17g", x);
    if (!strpbrk(buf, ".eEn")) strncat(buf, ".0", n - strlen(buf) - 1);
    return;
  }
  uint64_t bits;
  bool neg = signbit(x) != 0;
  switch (dt) {
  case IR_S_F16: bits = isnan(x) ? 0x7E00 : neg ? 0xFC00 : 0x7C00; break;
  case IR_S_BF16: bits = isnan(x) ? 0x7FC0 : neg ? 0xFF80 : 0x7F80; break;
  case IR_S_F64: bits = isnan(x) ? 0x7FF8000000000000ull : neg ? 0xFFF0000000000000ull : 0x7FF0000000000000ull; break;
  default: bits = isnan(x) ? 0x7FC00000u : neg ? 0xFF800000u : 0x7F800000u; break;
  }
  snprintf(buf, n, "0x%" PRIX64, bits);
}

/* a splat constant of dt over shape (rank 0: scalar constant) */
static val vec_const(lower *L, ir_scalar dt, int rank, const int64_t *shape, double f, int64_t i, bool isint)
{
  val v = vec_new(L, dt, rank, shape);
  char lit[64], ty[160];
  fmt_scalar(lit, sizeof lit, dt, f, i, isint);
  if (rank == 0) emit(L, "%s = arith.constant %s : %s", v.ref, lit, sname(dt));
  else emit(L, "%s = arith.constant dense<%s> : %s", v.ref, lit, vty(ty, sizeof ty, &v));
  return v;
}

/* numpy right-aligned broadcast of two shapes */
static ttref_status bcast_shapes(lower *L, const ir_fx_node *nd, const val *a, const val *b, int *rank, int64_t *shape)
{
  char s1[120], s2[120];
  int R = a->rank > b->rank ? a->rank : b->rank;
  for (int i = 0; i < R; i++) {
    int ia = a->rank - R + i, ib = b->rank - R + i;
    int64_t x = ia >= 0 ? a->shape[ia] : 1, y = ib >= 0 ? b->shape[ib] : 1;
    if (x != y && x != 1 && y != 1)
      return NERR(L, nd, "operands of %%%s do not broadcast: %s and %s", nd->name,
                  shape_str(s1, sizeof s1, a->rank, a->shape), shape_str(s2, sizeof s2, b->rank, b->shape));
    shape[i] = x == 1 ? y : x;
  }
  *rank = R;
  return TTREF_OK;
}

/* v broadcast (numpy rules) to shape; the caller checked compatibility */
static val to_shape(lower *L, val v, int R, const int64_t *shape)
{
  char t1[160], t2[160];
  if (v.rank == R && !memcmp(v.shape, shape, sizeof *shape * (size_t)R)) return v;
  if (v.rank == 0) {
    val o = vec_new(L, v.dt, R, shape);
    emit(L, "%s = tt.splat %s : %s -> %s", o.ref, v.ref, sname(v.dt), vty(t1, sizeof t1, &o));
    return o;
  }
  if (v.rank < R) {
    int64_t s[IR_MAX_RANK];
    for (int i = 0; i < R; i++) s[i] = i < R - v.rank ? 1 : v.shape[i - (R - v.rank)];
    val o = vec_new(L, v.dt, R, s);
    emit(L, "%s = tt.reshape %s : %s -> %s", o.ref, v.ref, vty(t1, sizeof t1, &v), vty(t2, sizeof t2, &o));
    v = o;
  }
  if (memcmp(v.shape, shape, sizeof *shape * (size_t)R)) {
    val o = vec_new(L, v.dt, R, shape);
    emit(L, "%s = tt.broadcast %s : %s -> %s", o.ref, v.ref, vty(t1, sizeof t1, &v), vty(t2, sizeof t2, &o));
    v = o;
  }
  return v;
}

/* reshape keeping the element order (numel equal) */
static val reshape(lower *L, val v, int R, const int64_t *shape)
{
  char t1[160], t2[160];
  if (v.rank == R && !memcmp(v.shape, shape, sizeof *shape * (size_t)R)) return v;
  val o = vec_new(L, v.dt, R, shape);
  if (v.rank == 0) emit(L, "%s = tt.splat %s : %s -> %s", o.ref, v.ref, sname(v.dt), vty(t1, sizeof t1, &o));
  else emit(L, "%s = tt.reshape %s : %s -> %s", o.ref, v.ref, vty(t1, sizeof t1, &v), vty(t2, sizeof t2, &o));
  return o;
}

/* cast v to dtype dt (TK to_dtype rules): float<->float by width, int->float, same type: itself */
static ttref_status convert(lower *L, const ir_fx_node *nd, val v, ir_scalar dt, val *out)
{
  char t1[160], t2[160];
  if (v.dt == dt) return *out = v, TTREF_OK;
  bool fi = ir_scalar_is_float(v.dt), fo = ir_scalar_is_float(dt);
  val o = vec_new(L, dt, v.rank, v.shape);
  vty(t1, sizeof t1, &v);
  vty(t2, sizeof t2, &o);
  if (fi && fo) {
    int bi = ir_scalar_bits(v.dt), bo = ir_scalar_bits(dt);
    if (bi == bo) { /* f16 <-> bf16: through f32, exact then one rounding */
      val m = vec_new(L, IR_S_F32, v.rank, v.shape);
      char tm[160];
      emit(L, "%s = arith.extf %s : %s to %s", m.ref, v.ref, t1, vty(tm, sizeof tm, &m));
      emit(L, "%s = arith.truncf %s : %s to %s", o.ref, m.ref, tm, t2);
    } else {
      emit(L, "%s = arith.%s %s : %s to %s", o.ref, bi < bo ? "extf" : "truncf", v.ref, t1, t2);
    }
  } else if (!fi && fo) {
    emit(L, "%s = arith.sitofp %s : %s to %s", o.ref, v.ref, t1, t2);
  } else if (!fi && !fo) {
    int bi = ir_scalar_bits(v.dt), bo = ir_scalar_bits(dt);
    emit(L, "%s = arith.%s %s : %s to %s", o.ref, bi < bo ? "extsi" : "trunci", v.ref, t1, t2);
  } else {
    return NERR(L, nd, "%%%s: TK has no conversion from %s to %s", nd->name, sname(v.dt), sname(dt));
  }
  *out = o;
  return TTREF_OK;
}

/* an operand as a vector: vectors as they are, index values and Python numbers as rank-0 values of dt */
static ttref_status as_vec(lower *L, const ir_fx_node *nd, const ir_fx_arg *at, val v, ir_scalar dt, val *out)
{
  ttref_status st = TTREF_OK;
  if (v.k == V_VEC) {
    *out = v;
  } else if (v.k == V_PYINT) {
    *out = vec_const(L, dt, 0, NULL, 0, v.c, true);
  } else if (v.k == V_PYFLOAT) {
    if (!ir_scalar_is_float(dt))
      FAIL(AERR(L, at, "float literal in an integer (%s) operation of %%%s", sname(dt), nd->name));
    *out = vec_const(L, dt, 0, NULL, v.f, 0, false);
  } else if (v.k == V_INDEX) {
    if (v.isc) {
      *out = vec_const(L, dt, 0, NULL, 0, v.c, true);
    } else {
      val o = vec_new(L, dt, 0, NULL);
      if (ir_scalar_is_float(dt)) emit(L, "%s = arith.sitofp %s : i64 to %s", o.ref, v.ref, sname(dt));
      else if (dt == IR_S_I64) snprintf(o.ref, sizeof o.ref, "%s", v.ref);
      else emit(L, "%s = arith.trunci %s : i64 to %s", o.ref, v.ref, sname(dt));
      *out = o;
    }
  } else {
    FAIL(AERR(L, at, "operand of %%%s is not a value", nd->name));
  }
fail:
  return st;
}

/* ---- node arguments -------------------------------------------------------------------------- */
typedef struct scope {
  const ir_fx_region *r;
  val *env;
} scope;

/* positional argument i, or keyword @p key; NULL when absent */
static const ir_fx_arg *param(const ir_fx_node *nd, int i, const char *key)
{
  if (i < nd->args->nitems) return nd->args->items[i];
  return key ? ir_fx_kwarg(nd, key) : NULL;
}

static ttref_status value_of(lower *L, const scope *s, const ir_fx_arg *a, val *out)
{
  ttref_status st = TTREF_OK;
  if (!a) FAIL(lerr(L, L->nline, L->ncol, "a required operand is missing"));
  switch (a->kind) {
  case IR_FX_A_REF: *out = s->env[a->node]; break;
  case IR_FX_A_INT:
  case IR_FX_A_BOOL: *out = (val){.k = V_PYINT, .c = a->i}; break;
  case IR_FX_A_FLOAT: *out = (val){.k = V_PYFLOAT, .f = a->f}; break;
  case IR_FX_A_NAME:
  case IR_FX_A_BIN:
  case IR_FX_A_NEG:
  case IR_FX_A_CALL: TRY(eval_index(L, s->r, s->env, a, out)); break;
  default: FAIL(AERR(L, a, "expected a value"));
  }
  if (out->k == V_NONE) FAIL(AERR(L, a, "this value has no lowering (a node without a result)"));
fail:
  return st;
}

static ttref_status want_vec(lower *L, const scope *s, const ir_fx_node *nd, const ir_fx_arg *a, val *out)
{
  ttref_status st = TTREF_OK;
  if (!a) FAIL(lerr(L, nd->tline, nd->tcol, "%%%s: missing vector operand", nd->name));
  TRY(value_of(L, s, a, out));
  if (out->k != V_VEC) FAIL(AERR(L, a, "%%%s needs a vector operand here", nd->name));
fail:
  return st;
}

static ttref_status want_dtype(lower *L, const ir_fx_arg *a, ir_scalar *out)
{
  const ir_fx_arg *x = a;
  if (x && x->kind == IR_FX_A_CALL && x->nitems == 1) x = x->items[0];
  if (!x || (x->kind != IR_FX_A_NAME && x->kind != IR_FX_A_STR) || !dtype_lookup(x->s, out))
    return AERR(L, a, "expected a dtype (f16, bf16, f32, f64, i8, i16, i32, i64)");
  return TTREF_OK;
}

/* ---- buffer access ----------------------------------------------------------------------------- */
typedef struct dimacc {
  val idx;     /* start index */
  int64_t len; /* -1: a scalar index (dim dropped); else a range of len elements */
} dimacc;

/* a binary i1 op on two masks of the same shape; either may be absent (k == V_NONE) */
static val mask_op(lower *L, const char *op, val a, val b)
{
  char t1[200];
  if (a.k == V_NONE) return b;
  if (b.k == V_NONE) return a;
  val o = vec_new(L, IR_S_I1, a.rank, a.shape);
  emit(L, "%s = arith.%s %s, %s : %s", o.ref, op, a.ref, b.ref, vty(t1, sizeof t1, &o));
  return o;
}

/* lanes [0, len) of a range padded to pow2ceil(len), broadcast along axis ax of shape (rank rr):
 * V_NONE when len is a power of two */
static val lane_mask(lower *L, int64_t len, int ax, int rr, const int64_t *pshape)
{
  char t1[200], t2[200];
  int64_t P = pow2ceil(len), ls[1] = {P}, one[IR_MAX_RANK];
  if (P == len) return (val){.k = V_NONE};
  val r = vec_new(L, IR_S_I32, 1, ls), c = vec_const(L, IR_S_I32, 1, ls, 0, len, true), m = vec_new(L, IR_S_I1, 1, ls);
  emit(L, "%s = tt.make_range {end = %" PRId64 " : i32, start = 0 : i32} : %s", r.ref, P, vty(t1, sizeof t1, &r));
  emit(L, "%s = arith.cmpi slt, %s, %s : %s", m.ref, r.ref, c.ref, vty(t2, sizeof t2, &r));
  for (int i = 0; i < rr; i++) one[i] = i == ax ? P : 1;
  return to_shape(L, reshape(L, m, rr, one), rr, pshape);
}

/* i1 tensor over v's tensor shape, true on TK's lanes; V_NONE when v has no padding */
static val valid_mask(lower *L, const val *v)
{
  val m = {.k = V_NONE};
  for (int d = 0; d < v->rank; d++) m = mask_op(L, "andi", m, lane_mask(L, v->shape[d], d, v->rank, v->pshape));
  return m;
}

/* v with its padding lanes set to a constant (f, or i when isint): the identity of a reduction */
static val fill_padding(lower *L, val v, double f, int64_t i, bool isint)
{
  char t1[200], t2[200];
  val m = valid_mask(L, &v);
  if (m.k == V_NONE) return v;
  val pad = vec_const(L, v.dt, v.rank, v.shape, f, i, isint), o = vec_new(L, v.dt, v.rank, v.shape);
  emit(L, "%s = arith.select %s, %s, %s : %s, %s", o.ref, m.ref, v.ref, pad.ref, vty(t1, sizeof t1, &m),
       vty(t2, sizeof t2, &v));
  return o;
}

/* pointers and masks for the block d[0..R) of buffer B: *ptrs has the result's
 * tensor shape; *mask (in bounds and not padding: what to load or store) and
 * *amask (in bounds or padding: what must hold unless --oob zero) are V_NONE
 * when every lane is statically in bounds */
static ttref_status access(lower *L, const ir_fx_node *nd, const fxbuf *B, dimacc *d, val *ptrs, val *mask, val *amask,
                           int *rrank, int64_t *rshape)
{
  ttref_status st = TTREF_OK;
  char t1[200], t2[200], pty[80];
  const ir_fx_arg *at = &(ir_fx_arg){.line = nd->line, .col = nd->col};
  int R = B->rank, rr = 0;
  int64_t ps[IR_MAX_RANK];
  snprintf(pty, sizeof pty, "!tt.ptr<%s>", sname(B->dt));
  for (int k = 0; k < R; k++)
    if (d[k].len >= 0) {
      rshape[rr] = d[k].len;
      ps[rr++] = pow2ceil(d[k].len);
    }
  *rrank = rr;
  TRY(check_shape(L, nd, rr, rshape));
  /* the scalar part: base offset and bounds */
  val base = vconst(0), ok = {.k = V_INDEX, .isc = true, .c = 1};
  for (int k = 0; k < R; k++) {
    if (d[k].len >= 0) continue;
    val t = {0};
    TRY(idx_binop(L, at, "*", d[k].idx, vconst(B->strides[k]), false, &t));
    TRY(idx_binop(L, at, "+", base, t, false, &base));
    if (d[k].idx.isc) {
      if (d[k].idx.c < 0 || d[k].idx.c >= B->dims[k]) ok = vconst(0);
      continue;
    }
    int a = newid(L), b = newid(L), c = newid(L);
    val hi = vconst(B->dims[k]), zero = vconst(0);
    const char *rh = iref(L, &hi), *rz = iref(L, &zero);
    emit(L, "%%v%d = arith.cmpi sge, %s, %s : i64", a, d[k].idx.ref, rz);
    emit(L, "%%v%d = arith.cmpi slt, %s, %s : i64", b, d[k].idx.ref, rh);
    emit(L, "%%v%d = arith.andi %%v%d, %%v%d : i1", c, a, b);
    if (ok.isc && ok.c) {
      ok = (val){.k = V_INDEX};
      snprintf(ok.ref, sizeof ok.ref, "%%v%d", c);
    } else if (!ok.isc) {
      int e = newid(L);
      emit(L, "%%v%d = arith.andi %s, %%v%d : i1", e, ok.ref, c);
      snprintf(ok.ref, sizeof ok.ref, "%%v%d", e);
    }
  }
  /* the scalar condition as an i1 value of the result's tensor shape (V_NONE: always true) */
  val okv = {.k = V_NONE};
  if (!(ok.isc && ok.c)) {
    val so = vec_new(L, IR_S_I1, 0, NULL);
    if (ok.isc) emit(L, "%s = arith.constant false", so.ref);
    else snprintf(so.ref, sizeof so.ref, "%s", ok.ref);
    okv = rr ? to_shape(L, so, rr, ps) : so;
  }
  if (rr == 0) {
    val p = vec_new(L, B->dt, 0, NULL);
    const char *rb = iref(L, &base);
    emit(L, "%s = tt.addptr %%%s, %s : %s, i64", p.ref, B->name, rb, pty);
    *ptrs = p;
    *mask = *amask = okv;
    goto fail;
  }
  /* the block part: one range per kept dim (padded to a power of two), broadcast to the result */
  val off = {.k = V_NONE}, m = okv, am = okv;
  int ax = 0;
  for (int k = 0; k < R; k++) {
    if (d[k].len < 0) continue;
    int64_t P = pow2ceil(d[k].len), ls[1] = {P}, one[IR_MAX_RANK];
    val r32 = vec_new(L, IR_S_I32, 1, ls), r64 = vec_new(L, IR_S_I64, 1, ls);
    emit(L, "%s = tt.make_range {end = %" PRId64 " : i32, start = 0 : i32} : %s", r32.ref, P, vty(t1, sizeof t1, &r32));
    emit(L, "%s = arith.extsi %s : %s to %s", r64.ref, r32.ref, t1, vty(t2, sizeof t2, &r64));
    val pos = r64;
    if (!(d[k].idx.isc && d[k].idx.c == 0)) {
      val sidx = {.k = V_VEC, .dt = IR_S_I64, .rank = 0};
      snprintf(sidx.ref, sizeof sidx.ref, "%s", iref(L, &d[k].idx));
      val sp = to_shape(L, sidx, 1, ls);
      val q = vec_new(L, IR_S_I64, 1, ls);
      emit(L, "%s = arith.addi %s, %s : %s", q.ref, r64.ref, sp.ref, t2);
      pos = q;
    }
    for (int i = 0; i < rr; i++) one[i] = i == ax ? P : 1;
    bool static_ok = d[k].idx.isc && d[k].idx.c >= 0 && d[k].idx.c + d[k].len <= B->dims[k];
    val okj = {.k = V_NONE};
    if (!static_ok) {
      val zero = vec_const(L, IR_S_I64, 1, ls, 0, 0, true), hi = vec_const(L, IR_S_I64, 1, ls, 0, B->dims[k], true);
      val a = vec_new(L, IR_S_I1, 1, ls), b = vec_new(L, IR_S_I1, 1, ls);
      okj = vec_new(L, IR_S_I1, 1, ls);
      emit(L, "%s = arith.cmpi sge, %s, %s : %s", a.ref, pos.ref, zero.ref, t2);
      emit(L, "%s = arith.cmpi slt, %s, %s : %s", b.ref, pos.ref, hi.ref, t2);
      emit(L, "%s = arith.andi %s, %s : %s", okj.ref, a.ref, b.ref, vty(t1, sizeof t1, &okj));
      okj = to_shape(L, reshape(L, okj, rr, one), rr, ps);
    }
    val vj = lane_mask(L, d[k].len, ax, rr, ps);
    m = mask_op(L, "andi", m, mask_op(L, "andi", okj, vj));
    if (okj.k != V_NONE) { /* padding lanes never fault */
      val aj = okj;
      if (vj.k != V_NONE) {
        val t = vec_const(L, IR_S_I1, rr, ps, 0, 1, true), nv = vec_new(L, IR_S_I1, rr, ps);
        emit(L, "%s = arith.xori %s, %s : %s", nv.ref, vj.ref, t.ref, vty(t1, sizeof t1, &nv));
        aj = mask_op(L, "ori", okj, nv);
      }
      am = mask_op(L, "andi", am, aj);
    }
    val offj = pos;
    if (B->strides[k] != 1) {
      val sv = vec_const(L, IR_S_I64, 1, ls, 0, B->strides[k], true);
      offj = vec_new(L, IR_S_I64, 1, ls);
      emit(L, "%s = arith.muli %s, %s : %s", offj.ref, pos.ref, sv.ref, t2);
    }
    offj = to_shape(L, reshape(L, offj, rr, one), rr, ps);
    if (off.k == V_NONE) {
      off = offj;
    } else {
      val s2 = vec_new(L, IR_S_I64, rr, ps);
      emit(L, "%s = arith.addi %s, %s : %s", s2.ref, off.ref, offj.ref, vty(t1, sizeof t1, &s2));
      off = s2;
    }
    ax++;
  }
  if (!(base.isc && base.c == 0)) {
    val sb = {.k = V_VEC, .dt = IR_S_I64, .rank = 0};
    snprintf(sb.ref, sizeof sb.ref, "%s", iref(L, &base));
    val bb = to_shape(L, sb, rr, ps);
    val s2 = vec_new(L, IR_S_I64, rr, ps);
    emit(L, "%s = arith.addi %s, %s : %s", s2.ref, off.ref, bb.ref, vty(t1, sizeof t1, &s2));
    off = s2;
  }
  char pe[200];
  tystr(pe, sizeof pe, pty, rr, ps);
  int sp = newid(L);
  emit(L, "%%v%d = tt.splat %%%s : %s -> %s", sp, B->name, pty, pe);
  val p = vec_new(L, B->dt, rr, rshape);
  emit(L, "%s = tt.addptr %%v%d, %s : %s, %s", p.ref, sp, off.ref, pe, vty(t1, sizeof t1, &off));
  *ptrs = p;
  *mask = m;
  *amask = am;
fail:
  return st;
}

static void oob_assert(lower *L, const ir_fx_node *nd, const fxbuf *B, const val *amask, bool store)
{
  char t1[200], dims[120];
  if (amask->k == V_NONE || L->b->oob == IR_FX_OOB_ZERO) return;
  shape_str(dims, sizeof dims, B->rank, B->dims);
  emit(L, "tt.assert %s, \"%s: out-of-bounds %s of buffer %s, shape %s\" : %s", amask->ref, ir_fx_op_name(nd->op),
       store ? "write" : "read", B->name, dims, vty(t1, sizeof t1, amask));
}

static ttref_status emit_load(lower *L, const ir_fx_node *nd, const fxbuf *B, dimacc *d, val *out)
{
  ttref_status st = TTREF_OK;
  val ptrs = {0}, mask = {0}, amask = {0};
  int rr = 0;
  int64_t rs[IR_MAX_RANK];
  char t1[200], pty[80];
  TRY(access(L, nd, B, d, &ptrs, &mask, &amask, &rr, rs));
  oob_assert(L, nd, B, &amask, false);
  snprintf(pty, sizeof pty, "!tt.ptr<%s>", sname(B->dt));
  val r = vec_new(L, B->dt, rr, rs);
  if (mask.k != V_NONE) {
    val z = vec_const(L, B->dt, rr, rs, 0, 0, true);
    emit(L, "%s = tt.load %s, %s, %s : %s", r.ref, ptrs.ref, mask.ref, z.ref, tystr(t1, sizeof t1, pty, rr, r.pshape));
  } else {
    emit(L, "%s = tt.load %s : %s", r.ref, ptrs.ref, tystr(t1, sizeof t1, pty, rr, r.pshape));
  }
  *out = r;
fail:
  return st;
}

static ttref_status emit_store(lower *L, const ir_fx_node *nd, const fxbuf *B, dimacc *d, val item)
{
  ttref_status st = TTREF_OK;
  val ptrs = {0}, mask = {0}, amask = {0};
  int rr = 0;
  int64_t rs[IR_MAX_RANK];
  char t1[200], pty[80];
  TRY(access(L, nd, B, d, &ptrs, &mask, &amask, &rr, rs));
  oob_assert(L, nd, B, &amask, true);
  snprintf(pty, sizeof pty, "!tt.ptr<%s>", sname(B->dt));
  if (mask.k != V_NONE)
    emit(L, "tt.store %s, %s, %s : %s", ptrs.ref, item.ref, mask.ref, tystr(t1, sizeof t1, pty, rr, ptrs.pshape));
  else emit(L, "tt.store %s, %s : %s", ptrs.ref, item.ref, tystr(t1, sizeof t1, pty, rr, ptrs.pshape));
fail:
  return st;
}

static ttref_status want_buf(lower *L, const scope *s, const ir_fx_node *nd, const ir_fx_arg *a, const fxbuf **out)
{
  ttref_status st = TTREF_OK;
  val v = {0};
  TRY(value_of(L, s, a, &v));
  if (v.k != V_BUF) FAIL(AERR(L, a, "%%%s needs a kernel buffer (a placeholder) here", nd->name));
  *out = &L->bufs[v.buf];
fail:
  return st;
}

/* multi_index: one index per buffer dim; the trailing dims of @p shape are ranges */
static ttref_status multi_index(lower *L, const scope *s, const ir_fx_node *nd, const fxbuf *B, const ir_fx_arg *mi,
                                int rank, const int64_t *shape, dimacc *d)
{
  ttref_status st = TTREF_OK;
  (void)nd;
  char b[120];
  if (mi->kind != IR_FX_A_TUPLE && mi->kind != IR_FX_A_LIST)
    FAIL(AERR(L, mi, "multi_index must be a tuple of indices"));
  if (mi->nitems != B->rank)
    FAIL(AERR(L, mi, "multi_index has %d indices, but buffer %s has rank %d", mi->nitems, B->name, B->rank));
  if (rank > B->rank)
    FAIL(AERR(L, mi, "shape %s has more dims than buffer %s (rank %d)", shape_str(b, sizeof b, rank, shape), B->name,
              B->rank));
  for (int k = 0; k < B->rank; k++) {
    TRY(eval_index(L, s->r, s->env, mi->items[k], &d[k].idx));
    d[k].len = k >= B->rank - rank ? shape[k - (B->rank - rank)] : -1;
  }
fail:
  return st;
}

/* kernel_buffer_getitem/setitem key: one atom per dim, slice(start, stop, step) or an index (size-1 dim) */
static ttref_status slice_key(lower *L, const scope *s, const ir_fx_node *nd, const fxbuf *B, const ir_fx_arg *key,
                              dimacc *d)
{
  ttref_status st = TTREF_OK;
  (void)nd;
  const ir_fx_arg *one[1] = {key};
  const ir_fx_arg *const *atoms = one;
  int n = 1;
  if (key->kind == IR_FX_A_TUPLE) {
    atoms = (const ir_fx_arg *const *)key->items;
    n = key->nitems;
  }
  if (n != B->rank) FAIL(AERR(L, key, "the key has %d entries, but buffer %s has rank %d", n, B->name, B->rank));
  for (int k = 0; k < n; k++) {
    const ir_fx_arg *a = atoms[k];
    if (a->kind == IR_FX_A_CALL && !strcmp(a->s, "slice")) {
      if (a->nitems < 1 || a->nitems > 3) FAIL(AERR(L, a, "slice takes 1 to 3 arguments"));
      const ir_fx_arg *lo = a->nitems >= 2 ? a->items[0] : NULL, *hi = a->nitems >= 2 ? a->items[1] : a->items[0];
      const ir_fx_arg *step = a->nitems == 3 ? a->items[2] : NULL;
      if (step && step->kind != IR_FX_A_NONE) {
        int64_t sv = 0;
        TRY(eval_static(L, s->r, s->env, step, &sv));
        if (sv != 1) FAIL(AERR(L, step, "slice steps other than 1 are not supported (TK: NYI)"));
      }
      int64_t a0 = 0, a1 = B->dims[k];
      if (lo && lo->kind != IR_FX_A_NONE) TRY(eval_static(L, s->r, s->env, lo, &a0));
      if (hi && hi->kind != IR_FX_A_NONE) TRY(eval_static(L, s->r, s->env, hi, &a1));
      if (a1 <= a0) FAIL(AERR(L, a, "empty slice [%" PRId64 ":%" PRId64 "]", a0, a1));
      d[k].idx = vconst(a0);
      d[k].len = a1 - a0;
    } else if (a->kind == IR_FX_A_NONE || (a->kind == IR_FX_A_NAME && !strcmp(a->s, "Ellipsis"))) {
      FAIL(AERR(L, a, "None and ... in a buffer key are not supported"));
    } else {
      TRY(eval_index(L, s->r, s->env, a, &d[k].idx));
      d[k].len = 1;
    }
  }
fail:
  return st;
}

/* ---- reductions ---------------------------------------------------------------------------------- */
static ttref_status emit_reduce(lower *L, const scope *s, const ir_fx_node *nd, bool is_max, val *out)
{
  ttref_status st = TTREF_OK;
  char t1[200], t2[200];
  val v, acc = {.k = V_NONE};
  TRY(want_vec(L, s, nd, param(nd, 0, "vector"), &v));
  const ir_fx_arg *ax = param(nd, 1, "axis"), *ac = param(nd, 2, "acc");
  int64_t axis = -1;
  if (ax && ax->kind != IR_FX_A_NONE) TRY(eval_static(L, s->r, s->env, ax, &axis));
  if (axis < -1) FAIL(AERR(L, ax, "negative axis"));
  if (axis > 0 && axis >= v.rank)
    FAIL(AERR(L, ax, "axis %" PRId64 " is out of range for a rank-%d vector", axis, v.rank));
  bool fl = ir_scalar_is_float(v.dt);
  const char *comb = is_max ? (fl ? "maxnumf" : "maxsi") : (fl ? "addf" : "addi");
  /* padding lanes hold the combiner's identity: NaN for maxnumf, the minimum for maxsi, -0 for addf */
  int bits = ir_scalar_bits(v.dt);
  if (is_max && fl) v = fill_padding(L, v, NAN, 0, false);
  else if (is_max) v = fill_padding(L, v, 0, bits >= 64 ? INT64_MIN : -((int64_t)1 << (bits - 1)), true);
  else if (fl) v = fill_padding(L, v, -0.0, 0, false);
  else v = fill_padding(L, v, 0, 0, true);
  val x = v;
  int keep_axis = (int)axis;
  if (axis <= 0) { /* TK: `if not axis` reduces every dim, also for axis=0 */
    if (v.rank == 0) {
      x = v;
      keep_axis = -2;
    } else {
      int64_t n1[1] = {numel(v.rank, v.pshape)};
      x = reshape(L, v, 1, n1);
      keep_axis = 0;
    }
  }
  val r = x;
  if (keep_axis >= 0) {
    int64_t rs[IR_MAX_RANK];
    int rr = 0;
    for (int i = 0; i < x.rank; i++)
      if (i != keep_axis) rs[rr++] = x.shape[i];
    r = vec_new(L, v.dt, rr, rs);
    int a = newid(L), b = newid(L), c = newid(L);
    sb_add(&L->body, "%*s%s = \"tt.reduce\"(%s) <{axis = %d : i32}> ({\n", L->indent, "", r.ref, x.ref, keep_axis);
    sb_add(&L->body, "%*s^bb0(%%v%d: %s, %%v%d: %s):\n", L->indent, "", a, sname(v.dt), b, sname(v.dt));
    L->indent += 2;
    emit(L, "%%v%d = arith.%s %%v%d, %%v%d : %s", c, comb, a, b, sname(v.dt));
    emit(L, "tt.reduce.return %%v%d : %s", c, sname(v.dt));
    L->indent -= 2;
    emit(L, "}) : (%s) -> %s", vty(t1, sizeof t1, &x), vty(t2, sizeof t2, &r));
  }
  if (ac && ac->kind != IR_FX_A_NONE) {
    TRY(value_of(L, s, ac, &acc));
    if (acc.k != V_VEC || acc.dt != r.dt || acc.rank != r.rank ||
        memcmp(acc.shape, r.shape, sizeof *r.shape * (size_t)r.rank))
      FAIL(AERR(L, ac, "acc of %%%s must be a %s vector of shape %s", nd->name, sname(r.dt),
                shape_str(t1, sizeof t1, r.rank, r.shape)));
  } else {
    acc = vec_const(L, r.dt, r.rank, r.shape, 0, 0, true); /* TK's codegen: the zero accumulator, for max too */
  }
  val o = vec_new(L, r.dt, r.rank, r.shape);
  emit(L, "%s = arith.%s %s, %s : %s", o.ref, comb, acc.ref, r.ref, vty(t1, sizeof t1, &o));
  *out = o;
fail:
  return st;
}

/* ---- regions ---------------------------------------------------------------------------------------- */
static ttref_status lower_region(lower *L, int ri, val *env, val *results, int nresults, const ir_fx_node *loop);

static ttref_status emit_for(lower *L, const scope *s, const ir_fx_node *nd, val *out)
{
  ttref_status st = TTREF_OK;
  val *benv = NULL, *res = NULL;
  int nb = 0, ninit = 0;
  char t1[200];
  const ir_fx_arg *a0 = param(nd, 0, "start"), *a1 = param(nd, 1, "stop"), *a2 = param(nd, 2, "step"),
                  *a3 = param(nd, 3, "init_args");
  val start = vconst(0), stop, step = vconst(1);
  if (nd->args->nitems == 1) {
    TRY(eval_index(L, s->r, s->env, a0, &stop));
    a3 = ir_fx_kwarg(nd, "init_args");
  } else {
    if (!a0 || !a1) FAIL(lerr(L, nd->tline, nd->tcol, "for_loop needs (start, stop, step, init_args)"));
    TRY(eval_index(L, s->r, s->env, a0, &start));
    TRY(eval_index(L, s->r, s->env, a1, &stop));
    if (a2 && a2->kind != IR_FX_A_NONE) TRY(eval_index(L, s->r, s->env, a2, &step));
  }
  if (step.isc && step.c <= 0) FAIL(AERR(L, a2, "for_loop step must be positive, got %" PRId64, step.c));
  const ir_fx_arg *const *inits = NULL;
  if (a3 && a3->kind != IR_FX_A_NONE) {
    if (a3->kind != IR_FX_A_LIST && a3->kind != IR_FX_A_TUPLE) FAIL(AERR(L, a3, "init_args must be a list"));
    ninit = a3->nitems;
    inits = (const ir_fx_arg *const *)a3->items;
  }
  const ir_fx_arg *sg = ir_fx_kwarg(nd, "subgraph"), *cap = ir_fx_kwarg(nd, "implicit_capture");
  int ri = ir_fx_find_region(L->g, sg->s);
  const ir_fx_region *body = &L->g->regions[ri];
  for (int i = 0; i < L->nstack; i++)
    if (L->stack[i] == ri) FAIL(AERR(L, sg, "region '%s' is (indirectly) its own loop body", sg->s));
  if (L->nstack >= FX_MAX_NEST) FAIL(AERR(L, sg, "loops nested deeper than %d", FX_MAX_NEST));
  int ncap = 0;
  const ir_fx_arg *const *caps = NULL;
  if (cap && cap->kind != IR_FX_A_NONE) {
    if (cap->kind != IR_FX_A_LIST && cap->kind != IR_FX_A_TUPLE) FAIL(AERR(L, cap, "implicit_capture must be a list"));
    ncap = cap->nitems;
    caps = (const ir_fx_arg *const *)cap->items;
  }
  int nph = 0;
  for (int i = 0; i < body->nnodes; i++) nph += body->nodes[i].kind == IR_FX_N_PLACEHOLDER;
  if (nph != 1 + ninit + ncap)
    FAIL(
        lerr(L, nd->tline, nd->tcol,
             "loop body %s has %d placeholders, but for_loop passes %d (induction variable, %d init_args, %d captures)",
             body->name, nph, 1 + ninit + ncap, ninit, ncap));
  nb = body->nnodes;
  if (!(benv = ir_calloc((size_t)nb + 1, sizeof *benv)) || !(res = ir_calloc((size_t)ninit + 1, sizeof *res)))
    FAIL(ir_error_set(L->err, TTREF_E_NOMEM, (ttref_loc){L->g->filename, nd->line, nd->col}, "out of memory"));
  /* bind the body's placeholders: iv, iter args, captures */
  int id = newid(L), iv = newid(L);
  int k = 0;
  char iters[4096] = "", types[2048] = "";
  size_t ip = 0, tp = 0;
  const char *rlb = iref(L, &start), *rub = iref(L, &stop), *rst = iref(L, &step);
  char lb[40], ub[40], stp[40];
  snprintf(lb, sizeof lb, "%s", rlb);
  snprintf(ub, sizeof ub, "%s", rub);
  snprintf(stp, sizeof stp, "%s", rst);
  for (int i = 0; i < body->nnodes; i++) {
    if (body->nodes[i].kind != IR_FX_N_PLACEHOLDER) continue;
    val *b = &benv[i];
    if (k == 0) {
      *b = (val){.k = V_INDEX};
      snprintf(b->ref, sizeof b->ref, "%%v%d", iv);
    } else if (k <= ninit) {
      val init = {0};
      TRY(value_of(L, s, inits[k - 1], &init));
      if (init.k == V_PYINT) init = vconst(init.c);
      if (init.k == V_INDEX) {
        const char *ir_ = iref(L, &init);
        int aid = newid(L);
        *b = (val){.k = V_INDEX};
        snprintf(b->ref, sizeof b->ref, "%%v%d", aid);
        ip += (size_t)snprintf(iters + ip, sizeof iters - (ip < sizeof iters ? ip : sizeof iters), "%s%s = %s",
                               k > 1 ? ", " : "", b->ref, ir_);
        tp += (size_t)snprintf(types + tp, sizeof types - (tp < sizeof types ? tp : sizeof types), "%si64",
                               k > 1 ? ", " : "");
      } else if (init.k == V_VEC) {
        *b = vec_new(L, init.dt, init.rank, init.shape);
        ip += (size_t)snprintf(iters + ip, sizeof iters - (ip < sizeof iters ? ip : sizeof iters), "%s%s = %s",
                               k > 1 ? ", " : "", b->ref, init.ref);
        tp += (size_t)snprintf(types + tp, sizeof types - (tp < sizeof types ? tp : sizeof types), "%s%s",
                               k > 1 ? ", " : "", vty(t1, sizeof t1, &init));
      } else {
        FAIL(AERR(L, inits[k - 1], "init_args entries must be vectors or index values"));
      }
      res[k - 1] = *b;
    } else {
      TRY(value_of(L, s, caps[k - 1 - ninit], b));
    }
    k++;
  }
  if (ip >= sizeof iters || tp >= sizeof types) FAIL(lerr(L, nd->line, nd->col, "too many init_args"));
  if (ninit > 1) snprintf(out->ref, sizeof out->ref, "%%v%d", id);
  if (ninit == 0) sb_add(&L->body, "%*sscf.for %%v%d = %s to %s step %s : i64 {\n", L->indent, "", iv, lb, ub, stp);
  else if (ninit == 1)
    sb_add(&L->body, "%*s%%v%d = scf.for %%v%d = %s to %s step %s iter_args(%s) -> (%s) : i64 {\n", L->indent, "", id,
           iv, lb, ub, stp, iters, types);
  else
    sb_add(&L->body, "%*s%%v%d:%d = scf.for %%v%d = %s to %s step %s iter_args(%s) -> (%s) : i64 {\n", L->indent, "",
           id, ninit, iv, lb, ub, stp, iters, types);
  int saved_loc = L->curloc;
  L->indent += 2;
  L->stack[L->nstack++] = ri;
  TRY(lower_region(L, ri, benv, res, ninit, nd));
  L->nstack--;
  L->indent -= 2;
  L->curloc = saved_loc;
  emit(L, "}");
  /* results: the loop's values in init order */
  out->k = V_TUPLE;
  out->nitems = ninit;
  out->items = ninit ? ir_arena_alloc(L->arena, sizeof *out->items * (size_t)ninit) : NULL;
  if (ninit && !out->items)
    FAIL(ir_error_set(L->err, TTREF_E_NOMEM, (ttref_loc){L->g->filename, nd->line, nd->col}, "out of memory"));
  for (int i = 0; i < ninit; i++) {
    out->items[i] = res[i];
    out->items[i].isc = false;
    if (ninit == 1) snprintf(out->items[i].ref, sizeof out->items[i].ref, "%%v%d", id);
    else snprintf(out->items[i].ref, sizeof out->items[i].ref, "%%v%d#%d", id, i);
  }
fail:
  ir_free(benv, sizeof *benv * ((size_t)nb + 1));
  ir_free(res, sizeof *res * ((size_t)ninit + 1));
  return st;
}

static ttref_status binary(lower *L, const scope *s, const ir_fx_node *nd, val *out)
{
  ttref_status st = TTREF_OK;
  char t1[200];
  const ir_fx_arg *aa = param(nd, 0, NULL), *ab = param(nd, 1, NULL);
  val a = {0}, b = {0};
  TRY(value_of(L, s, aa, &a));
  TRY(value_of(L, s, ab, &b));
  static const char *const pyop[] = {[IR_FX_ADD] = "+",     [IR_FX_SUB] = "-",       [IR_FX_MUL] = "*",
                                     [IR_FX_TRUEDIV] = "/", [IR_FX_FLOORDIV] = "//", [IR_FX_MOD] = "%"};
  const char *op = pyop[nd->op];
  bool ia = a.k == V_INDEX || a.k == V_PYINT, ib = b.k == V_INDEX || b.k == V_PYINT;
  if (ia && ib) { /* index arithmetic (TK: arith on index; floordivsi, remsi) */
    if (a.k == V_PYINT) a = vconst(a.c);
    if (b.k == V_PYINT) b = vconst(b.c);
    if (nd->op == IR_FX_TRUEDIV)
      FAIL(lerr(L, nd->tline, nd->tcol, "truediv of index values is not supported (TK has no integer truediv)"));
    TRY(idx_binop(L, aa, op, a, b, a.isc && b.isc, out));
    goto fail;
  }
  if (a.k != V_VEC && b.k != V_VEC) {
    if ((a.k == V_PYFLOAT || a.k == V_PYINT) && (b.k == V_PYFLOAT || b.k == V_PYINT))
      FAIL(lerr(L, nd->tline, nd->tcol, "%%%s: arithmetic on two Python numbers is folded by the tracer, not traced",
                nd->name));
    FAIL(lerr(L, nd->tline, nd->tcol, "%%%s: operands must be vectors, index values or numbers", nd->name));
  }
  if ((a.k == V_INDEX && b.k == V_VEC) || (b.k == V_INDEX && a.k == V_VEC))
    FAIL(lerr(L, nd->tline, nd->tcol, "%%%s mixes an index value with a vector (convert it with to_dtype first)",
              nd->name));
  ir_scalar dt = a.k == V_VEC ? a.dt : b.dt;
  TRY(as_vec(L, nd, aa, a, dt, &a));
  TRY(as_vec(L, nd, ab, b, dt, &b));
  if (a.dt != b.dt)
    FAIL(lerr(L, nd->tline, nd->tcol, "%%%s: element types differ (%s and %s); TK needs to_dtype first", nd->name,
              sname(a.dt), sname(b.dt)));
  int R = 0;
  int64_t shape[IR_MAX_RANK];
  TRY(bcast_shapes(L, nd, &a, &b, &R, shape));
  TRY(check_shape(L, nd, R, shape));
  a = to_shape(L, a, R, shape);
  b = to_shape(L, b, R, shape);
  bool fl = ir_scalar_is_float(dt);
  const char *mn = NULL;
  switch (nd->op) {
  case IR_FX_ADD: mn = fl ? "addf" : "addi"; break;
  case IR_FX_SUB: mn = fl ? "subf" : "subi"; break;
  case IR_FX_MUL: mn = fl ? "mulf" : "muli"; break;
  case IR_FX_TRUEDIV: mn = fl ? "divf" : NULL; break;
  case IR_FX_FLOORDIV: mn = fl ? NULL : "floordivsi"; break;
  case IR_FX_MOD: mn = fl ? "remf" : "remsi"; break;
  default: break;
  }
  if (!mn) FAIL(lerr(L, nd->tline, nd->tcol, "%s of %s values is not defined by TK", ir_fx_op_name(nd->op), sname(dt)));
  val o = vec_new(L, dt, R, shape);
  emit(L, "%s = arith.%s %s, %s : %s", o.ref, mn, a.ref, b.ref, vty(t1, sizeof t1, &o));
  *out = o;
fail:
  return st;
}

/* One case per row of ir_fx_op_list.h; -Wswitch-enum makes a missing row a build error. */
#pragma GCC diagnostic push
#pragma GCC diagnostic error "-Wswitch-enum"
static ttref_status lower_call(lower *L, const scope *s, const ir_fx_node *nd, val *out)
{
  ttref_status st = TTREF_OK;
  char t1[200], t2[200], b1[120];
  dimacc d[IR_MAX_RANK];
  memset(d, 0, sizeof d);
  out->k = V_NONE;
  switch (nd->op) {
  case IR_FX_THREAD_PROGRAM_ID: {
    int64_t axis = 0;
    TRY(eval_static(L, s->r, s->env, param(nd, 0, "axis"), &axis));
    if (axis < 0 || axis > 2)
      FAIL(AERR(L, param(nd, 0, "axis"), "program id axis must be 0, 1 or 2, got %" PRId64, axis));
    int p = newid(L), id;
    *out = idx_new(L, &id);
    emit(L, "%%v%d = tt.get_program_id %c : i32", p, "xyz"[axis]);
    emit(L, "%s = arith.extsi %%v%d : i32 to i64", out->ref, p);
    break;
  }
  case IR_FX_LOAD: {
    const fxbuf *B;
    int rank = 0;
    int64_t shape[IR_MAX_RANK];
    TRY(want_buf(L, s, nd, param(nd, 0, "kb"), &B));
    TRY(eval_shape(L, s->r, s->env, param(nd, 2, "shape"), &rank, shape));
    TRY(multi_index(L, s, nd, B, param(nd, 1, "multi_index"), rank, shape, d));
    TRY(emit_load(L, nd, B, d, out));
    break;
  }
  case IR_FX_STORE:
  case IR_FX_SETITEM_KB: {
    const fxbuf *B;
    val item = {0};
    const ir_fx_arg *ai = param(nd, 2, "item");
    TRY(want_buf(L, s, nd, param(nd, 0, "kb"), &B));
    TRY(value_of(L, s, ai, &item));
    TRY(as_vec(L, nd, ai, item, B->dt, &item));
    TRY(convert(L, nd, item, B->dt, &item)); /* TK casts the item to the buffer's element type */
    if (nd->op == IR_FX_STORE) {
      TRY(multi_index(L, s, nd, B, param(nd, 1, "multi_index"), item.rank, item.shape, d));
    } else {
      TRY(slice_key(L, s, nd, B, param(nd, 1, "key"), d));
      if (item.rank == 0) { /* one element at the key's start */
        for (int k = 0; k < B->rank; k++) d[k].len = -1;
      } else {
        int64_t ks[IR_MAX_RANK];
        for (int k = 0; k < B->rank; k++) ks[k] = d[k].len;
        if (item.rank != B->rank || memcmp(item.shape, ks, sizeof *ks * (size_t)B->rank))
          FAIL(AERR(L, ai, "item of shape %s does not match the key's shape %s",
                    shape_str(t1, sizeof t1, item.rank, item.shape), shape_str(t2, sizeof t2, B->rank, ks)));
      }
    }
    TRY(emit_store(L, nd, B, d, item));
    break;
  }
  case IR_FX_GETITEM_KB: {
    const fxbuf *B;
    TRY(want_buf(L, s, nd, param(nd, 0, "kb"), &B));
    TRY(slice_key(L, s, nd, B, param(nd, 1, "key"), d));
    TRY(emit_load(L, nd, B, d, out));
    break;
  }
  case IR_FX_CONSTANT: {
    int rank = 0;
    int64_t shape[IR_MAX_RANK];
    ir_scalar dt = 0;
    const ir_fx_arg *va = param(nd, 2, "value");
    TRY(eval_shape(L, s->r, s->env, param(nd, 0, "shape"), &rank, shape));
    TRY(want_dtype(L, param(nd, 1, "dtype"), &dt));
    TRY(check_shape(L, nd, rank, shape));
    if (!va) FAIL(lerr(L, nd->tline, nd->tcol, "vector_constant needs a value"));
    if (va->kind == IR_FX_A_FLOAT) {
      if (!ir_scalar_is_float(dt)) FAIL(AERR(L, va, "float value for a %s constant", sname(dt)));
      *out = vec_const(L, dt, rank, shape, va->f, 0, false);
    } else {
      int64_t v = 0;
      TRY(eval_static(L, s->r, s->env, va, &v));
      if (!ir_scalar_is_float(dt) && !ir_int_fits(v, ir_scalar_bits(dt))) /* the range the TTIR parser accepts */
        FAIL(AERR(L, va, "integer value %" PRId64 " does not fit in a %s constant", v, sname(dt)));
      *out = vec_const(L, dt, rank, shape, 0, v, true);
    }
    break;
  }
  case IR_FX_EXP2: {
    val v = {0};
    TRY(want_vec(L, s, nd, param(nd, 0, "val"), &v));
    if (!ir_scalar_is_float(v.dt))
      FAIL(lerr(L, nd->tline, nd->tcol, "exp2 of %s: TK defines exp2 on floats only", sname(v.dt)));
    *out = vec_new(L, v.dt, v.rank, v.shape);
    emit(L, "%s = math.exp2 %s : %s", out->ref, v.ref, vty(t1, sizeof t1, &v));
    break;
  }
  case IR_FX_VECTOR_MAX:
  case IR_FX_VECTOR_SUM: TRY(emit_reduce(L, s, nd, nd->op == IR_FX_VECTOR_MAX, out)); break;
  case IR_FX_VECTOR_DOT: {
    val a = {0}, b = {0}, c = {0};
    const ir_fx_arg *ac = param(nd, 2, "acc");
    TRY(want_vec(L, s, nd, param(nd, 0, "lhs"), &a));
    TRY(want_vec(L, s, nd, param(nd, 1, "rhs"), &b));
    if (!ac || ac->kind == IR_FX_A_NONE)
      FAIL(lerr(L, nd->tline, nd->tcol, "vector_dot needs an accumulator (TK's codegen requires acc)"));
    TRY(want_vec(L, s, nd, ac, &c));
    if (a.rank != 2 || b.rank != 2 || c.rank != 2 || a.shape[1] != b.shape[0] || c.shape[0] != a.shape[0] ||
        c.shape[1] != b.shape[1])
      FAIL(lerr(L, nd->tline, nd->tcol, "vector_dot needs lhs (n, k), rhs (k, m), acc (n, m); got %s, %s, %s",
                shape_str(t1, sizeof t1, a.rank, a.shape), shape_str(t2, sizeof t2, b.rank, b.shape),
                shape_str(b1, sizeof b1, c.rank, c.shape)));
    if (a.dt != b.dt)
      FAIL(lerr(L, nd->tline, nd->tcol, "vector_dot operands differ in type (%s, %s)", sname(a.dt), sname(b.dt)));
    if (ir_scalar_is_float(a.dt) != ir_scalar_is_float(c.dt))
      FAIL(lerr(L, nd->tline, nd->tcol, "vector_dot: %s operands with a %s accumulator", sname(a.dt), sname(c.dt)));
    a = fill_padding(L, a, 0, 0, true); /* padded k lanes must contribute 0 */
    b = fill_padding(L, b, 0, 0, true);
    *out = vec_new(L, c.dt, 2, c.shape);
    char ta[120], tb[120];
    vty(ta, sizeof ta, &a);
    vty(tb, sizeof tb, &b);
    if (ir_scalar_is_float(a.dt))
      emit(L, "%s = tt.dot %s, %s, %s, inputPrecision = ieee : %s * %s -> %s", out->ref, a.ref, b.ref, c.ref, ta, tb,
           vty(t1, sizeof t1, &c));
    else
      emit(L, "%s = tt.dot %s, %s, %s : %s * %s -> %s", out->ref, a.ref, b.ref, c.ref, ta, tb, vty(t1, sizeof t1, &c));
    break;
  }
  case IR_FX_VECTOR_BROADCAST: {
    val v = {0};
    int lr = 0;
    int64_t lead[IR_MAX_RANK], shape[IR_MAX_RANK];
    TRY(want_vec(L, s, nd, param(nd, 0, "v"), &v));
    TRY(eval_shape(L, s->r, s->env, param(nd, 1, "leading_sizes"), &lr, lead));
    if (lr + v.rank > IR_MAX_RANK) FAIL(lerr(L, nd->tline, nd->tcol, "more than %d dimensions", IR_MAX_RANK));
    memcpy(shape, lead, sizeof *lead * (size_t)lr);
    memcpy(shape + lr, v.shape, sizeof *shape * (size_t)v.rank);
    TRY(check_shape(L, nd, lr + v.rank, shape));
    *out = to_shape(L, v, lr + v.rank, shape);
    break;
  }
  case IR_FX_BROADCAST_IN_DIM: {
    val v = {0};
    int R, nb;
    int64_t shape[IR_MAX_RANK], bd[IR_MAX_RANK], pad[IR_MAX_RANK];
    TRY(want_vec(L, s, nd, param(nd, 0, "v"), &v));
    TRY(eval_shape(L, s->r, s->env, param(nd, 1, "shape"), &R, shape));
    const ir_fx_arg *ba = param(nd, 2, "broadcast_dimensions");
    TRY(eval_shape(L, s->r, s->env, ba, &nb, bd));
    if (nb != v.rank) FAIL(AERR(L, ba, "broadcast dims name %d dims, but the vector has rank %d", nb, v.rank));
    TRY(check_shape(L, nd, R, shape));
    int order[IR_MAX_RANK];
    bool used[IR_MAX_RANK] = {0};
    for (int i = 0; i < nb; i++) {
      if (bd[i] >= R || used[bd[i]]) FAIL(AERR(L, ba, "broadcast dim %" PRId64 " is out of range or repeated", bd[i]));
      used[bd[i]] = true;
      if (v.shape[i] != 1 && v.shape[i] != shape[bd[i]])
        FAIL(AERR(L, ba, "vector dim %d (%" PRId64 ") cannot broadcast to %" PRId64, i, v.shape[i], shape[bd[i]]));
      order[i] = i;
    }
    /* sort the source dims by target position (a transpose when bd is not increasing) */
    for (int i = 1; i < nb; i++)
      for (int j = i; j > 0 && bd[order[j - 1]] > bd[order[j]]; j--) {
        int t = order[j];
        order[j] = order[j - 1];
        order[j - 1] = t;
      }
    bool ident = true;
    for (int i = 0; i < nb; i++) ident &= order[i] == i;
    if (!ident) {
      int64_t ts[IR_MAX_RANK];
      char ord[80] = "";
      size_t op = 0;
      for (int i = 0; i < nb; i++) {
        ts[i] = v.shape[order[i]];
        op += (size_t)snprintf(ord + op, sizeof ord - op, "%s%d", i ? ", " : "", order[i]);
      }
      val t = vec_new(L, v.dt, nb, ts);
      emit(L, "%s = tt.trans %s {order = array<i32: %s>} : %s -> %s", t.ref, v.ref, ord, vty(t1, sizeof t1, &v),
           vty(t2, sizeof t2, &t));
      v = t;
    }
    for (int i = 0; i < R; i++) pad[i] = 1;
    for (int i = 0; i < nb; i++) pad[bd[order[i]]] = v.shape[i];
    if (v.rank > 0) v = reshape(L, v, R, pad);
    *out = to_shape(L, v, R, shape);
    break;
  }
  case IR_FX_VECTOR_TRANSPOSE: {
    val v = {0};
    int np = 0;
    int64_t perm[IR_MAX_RANK], shape[IR_MAX_RANK];
    const ir_fx_arg *pa = param(nd, 1, "permutation");
    TRY(want_vec(L, s, nd, param(nd, 0, "v"), &v));
    TRY(eval_shape(L, s->r, s->env, pa, &np, perm));
    bool used[IR_MAX_RANK] = {0}, ident = true;
    if (np != v.rank) FAIL(AERR(L, pa, "permutation of %d dims for a rank-%d vector", np, v.rank));
    char ord[80] = "";
    size_t op = 0;
    for (int i = 0; i < np; i++) {
      if (perm[i] >= np || used[perm[i]]) FAIL(AERR(L, pa, "not a permutation"));
      used[perm[i]] = true;
      ident &= perm[i] == i;
      shape[i] = v.shape[perm[i]];
      op += (size_t)snprintf(ord + op, sizeof ord - op, "%s%" PRId64, i ? ", " : "", perm[i]);
    }
    if (ident) {
      *out = v;
      break;
    }
    *out = vec_new(L, v.dt, np, shape);
    emit(L, "%s = tt.trans %s {order = array<i32: %s>} : %s -> %s", out->ref, v.ref, ord, vty(t1, sizeof t1, &v),
         vty(t2, sizeof t2, out));
    break;
  }
  case IR_FX_TO_DTYPE: {
    val v = {0};
    ir_scalar dt = 0;
    const ir_fx_arg *va = param(nd, 0, "val");
    TRY(value_of(L, s, va, &v));
    TRY(want_dtype(L, param(nd, 1, "dtype"), &dt));
    if (v.k == V_PYFLOAT && !ir_scalar_is_float(dt))
      FAIL(AERR(L, va, "float to %s: TK has no float-to-integer conversion", sname(dt)));
    if (v.k != V_VEC) {
      TRY(as_vec(L, nd, va, v, dt, out));
      break;
    }
    if (ir_scalar_is_float(v.dt) && !ir_scalar_is_float(dt))
      FAIL(lerr(L, nd->tline, nd->tcol, "to_dtype %s -> %s: TK has no float-to-integer conversion", sname(v.dt),
                sname(dt)));
    TRY(convert(L, nd, v, dt, out));
    break;
  }
  case IR_FX_FOR_LOOP: TRY(emit_for(L, s, nd, out)); break;
  case IR_FX_ADD:
  case IR_FX_SUB:
  case IR_FX_MUL:
  case IR_FX_TRUEDIV:
  case IR_FX_FLOORDIV:
  case IR_FX_MOD: TRY(binary(L, s, nd, out)); break;
  case IR_FX_GETITEM: {
    val t = {0};
    int64_t i = 0;
    const ir_fx_arg *ia = param(nd, 1, NULL);
    TRY(value_of(L, s, param(nd, 0, NULL), &t));
    if (t.k != V_TUPLE) FAIL(AERR(L, param(nd, 0, NULL), "getitem needs the result of a for_loop"));
    TRY(eval_static(L, s->r, s->env, ia, &i));
    if (i < 0) i += t.nitems;
    if (i < 0 || i >= t.nitems) FAIL(AERR(L, ia, "index %" PRId64 " is out of range for %d results", i, t.nitems));
    *out = t.items[i];
    break;
  }
  case IR_FX_OP_COUNT:
  default: FAIL(lerr(L, nd->tline, nd->tcol, "no lowering for %s", nd->target));
  }
fail:
  return st;
}
#pragma GCC diagnostic pop

/* Lower region ri with env (placeholders bound by the caller). For a loop body,
 * the return's values become the scf.yield (checked against results[]). */
static ttref_status lower_region(lower *L, int ri, val *env, val *results, int nresults, const ir_fx_node *loop)
{
  ttref_status st = TTREF_OK;
  const ir_fx_region *r = &L->g->regions[ri];
  scope s = {r, env};
  char t1[200];
  bool returned = false;
  for (int i = 0; i < r->nnodes; i++) {
    const ir_fx_node *nd = &r->nodes[i];
    if (nd->kind == IR_FX_N_PLACEHOLDER) continue;
    L->curloc = loc_of(L, nd->name, nd->line, nd->col);
    L->nline = nd->tline, L->ncol = nd->tcol;
    if (nd->kind == IR_FX_N_CALL) {
      TRY(lower_call(L, &s, nd, &env[i]));
      continue;
    }
    returned = true;
    if (!loop) continue; /* the root's return None */
    const ir_fx_arg *ra = nd->args->items[0];
    const ir_fx_arg *one[1] = {ra};
    const ir_fx_arg *const *items = one;
    int n = 1;
    if (ra->kind == IR_FX_A_TUPLE || ra->kind == IR_FX_A_LIST) {
      items = (const ir_fx_arg *const *)ra->items;
      n = ra->nitems;
    } else if (ra->kind == IR_FX_A_NONE) {
      n = 0;
    }
    if (n != nresults)
      FAIL(AERR(L, ra, "the loop body returns %d values, but for_loop %%%s has %d init_args", n, loop->name, nresults));
    char refs[4096] = "", types[2048] = "";
    size_t rp = 0, tp = 0;
    for (int k = 0; k < n; k++) {
      val v = {0};
      TRY(value_of(L, &s, items[k], &v));
      const val *want = &results[k];
      if (v.k == V_PYINT) v = vconst(v.c);
      if (want->k == V_INDEX) {
        if (v.k != V_INDEX) FAIL(AERR(L, items[k], "loop value %d must be an index value", k));
        iref(L, &v);
        tp += (size_t)snprintf(types + tp, tp < sizeof types ? sizeof types - tp : 0, "%si64", k ? ", " : "");
      } else {
        if (v.k == V_PYFLOAT || v.k == V_INDEX) TRY(as_vec(L, nd, items[k], v, want->dt, &v));
        if (v.k != V_VEC || v.dt != want->dt || v.rank != want->rank ||
            memcmp(v.shape, want->shape, sizeof *v.shape * (size_t)v.rank))
          FAIL(AERR(L, items[k], "loop value %d has a different type than its init_arg (%s)", k,
                    vty(t1, sizeof t1, want)));
        tp += (size_t)snprintf(types + tp, tp < sizeof types ? sizeof types - tp : 0, "%s%s", k ? ", " : "",
                               vty(t1, sizeof t1, &v));
      }
      rp += (size_t)snprintf(refs + rp, rp < sizeof refs ? sizeof refs - rp : 0, "%s%s", k ? ", " : "", v.ref);
    }
    if (rp >= sizeof refs || tp >= sizeof types) FAIL(AERR(L, ra, "too many loop values"));
    if (n) emit(L, "scf.yield %s : %s", refs, types);
    else emit(L, "scf.yield");
  }
  if (!returned && loop) FAIL(lerr(L, r->line, r->col, "loop body %s has no return", r->name));
  if (!returned && loop == NULL && nresults) FAIL(lerr(L, r->line, r->col, "%s has no return", r->name));
fail:
  return st;
}

static ttref_status bind_buffers(lower *L, val *env, char *args, size_t argn)
{
  ttref_status st = TTREF_OK;
  const ir_fx_region *r = &L->g->regions[L->g->root];
  size_t ap = 0;
  for (int i = 0; i < r->nnodes; i++) {
    const ir_fx_node *nd = &r->nodes[i];
    if (nd->kind != IR_FX_N_PLACEHOLDER) continue;
    if (nd->buf_kind == IR_FX_BUF_NONE)
      FAIL(NERR(
          L, nd,
          "placeholder %%%s has no buffer type (expected e.g. '%%%s : InputBuffer[M, K] = placeholder[target=...]')",
          nd->name, nd->name));
    if (L->nbufs >= (int)(sizeof L->bufs / sizeof L->bufs[0])) FAIL(NERR(L, nd, "more than 64 kernel buffers"));
    fxbuf *B = &L->bufs[L->nbufs];
    B->node = nd;
    B->name = nd->target;
    for (const char *c = B->name; *c; c++)
      if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || *c == '_'))
        FAIL(lerr(L, nd->tline, nd->tcol, "placeholder target '%s' is not a plain argument name", B->name));
    for (int k = 0; k < L->nbufs; k++)
      if (!strcmp(L->bufs[k].name, B->name))
        FAIL(lerr(L, nd->tline, nd->tcol, "two placeholders have the target '%s'", B->name));
    TRY(eval_shape(L, r, env, nd->dims, &B->rank, B->dims));
    if (B->rank == 0) FAIL(NERR(L, nd, "buffer %s has rank 0", B->name));
    int64_t stride = 1;
    for (int d = B->rank - 1; d >= 0; d--) {
      B->strides[d] = stride;
      if (B->dims[d] && stride > INT64_MAX / B->dims[d]) FAIL(NERR(L, nd, "buffer %s is too large", B->name));
      stride *= B->dims[d];
    }
    B->dt = IR_S_F32; /* TK's default; `.of(dtype)` or --dtype NAME=DT override */
    if (nd->dtype && !dtype_lookup(nd->dtype, &B->dt))
      FAIL(lerr(L, nd->dline, nd->dcol, "unknown dtype '%s'", nd->dtype));
    for (int k = 0; L->b && k < L->b->ndtypes; k++) {
      const char *spec = L->b->dtypes[k], *eq = strchr(spec, '=');
      if (!eq) continue;
      size_t n = (size_t)(eq - spec);
      if ((strlen(B->name) == n && !strncmp(spec, B->name, n)) ||
          (strlen(nd->name) == n && !strncmp(spec, nd->name, n)))
        if (!dtype_lookup(eq + 1, &B->dt))
          FAIL(ir_error_set(L->err, TTREF_E_INPUT, (ttref_loc){0}, "--dtype %s: unknown dtype '%s'", spec, eq + 1));
    }
    env[i] = (val){.k = V_BUF, .buf = L->nbufs};
    int lc = loc_of(L, nd->name, nd->line, nd->col);
    ap += (size_t)snprintf(args + ap, ap < argn ? argn - ap : 0, "%s%%%s: !tt.ptr<%s> loc(#loc%d)",
                           L->nbufs ? ", " : "", B->name, sname(B->dt), lc);
    L->nbufs++;
  }
  if (ap >= argn) FAIL(lerr(L, r->line, r->col, "kernel signature too long"));
  /* every --dtype names a buffer */
  for (int k = 0; L->b && k < L->b->ndtypes; k++) {
    const char *spec = L->b->dtypes[k], *eq = strchr(spec, '=');
    bool found = false;
    size_t n = eq ? (size_t)(eq - spec) : strlen(spec);
    for (int j = 0; j < L->nbufs; j++)
      found |= (strlen(L->bufs[j].name) == n && !strncmp(spec, L->bufs[j].name, n)) ||
               (strlen(L->bufs[j].node->name) == n && !strncmp(spec, L->bufs[j].node->name, n));
    if (!eq || !found)
      FAIL(ir_error_set(L->err, TTREF_E_INPUT, (ttref_loc){0}, "--dtype %s: no kernel buffer named '%.*s'", spec,
                        (int)n, spec));
  }
fail:
  return st;
}

ttref_status ir_fx_lower(const ir_fx *g, const ir_fx_bind *b, const char *kernel_name, char **out_text, size_t *out_len,
                         ttref_error *err)
{
  ttref_status st = TTREF_OK;
  static const ir_fx_bind none = {0};
  lower *L = ir_calloc(1, sizeof *L);
  val *env = NULL;
  char *args = NULL;
  const size_t argn = 16384;
  const ir_fx_region *r = &g->regions[g->root];
  *out_text = NULL;
  *out_len = 0;
  if (!L || !(L->arena = ir_arena_new()) || !(env = ir_calloc((size_t)r->nnodes + 1, sizeof *env)) ||
      !(args = ir_alloc(argn)))
    FAIL(ir_error_set(err, TTREF_E_NOMEM, (ttref_loc){0}, "out of memory"));
  args[0] = 0; /* a kernel may have no buffers */
  L->g = g;
  L->b = b ? b : &none;
  L->err = err;
  const char *slash = strrchr(g->filename, '/');
  L->base = slash ? slash + 1 : g->filename;
  for (const char *c = L->base; *c; c++)
    if (*c == '"' || *c == '\\' || (unsigned char)*c < 0x20) L->base = "kernel.fx";
  for (int i = 0; L->b->syms && i < L->b->nsyms; i++) {
    const char *spec = L->b->syms[i], *eq = strchr(spec, '=');
    char *end = NULL;
    if (eq) strtoll(eq + 1, &end, 0);
    if (!eq || eq == spec || !end || end == eq + 1 || *end)
      FAIL(ir_error_set(err, TTREF_E_INPUT, (ttref_loc){0}, "--sym %s: expected NAME=INTEGER", spec));
  }
  if (L->b->oob != IR_FX_OOB_ERROR && L->b->oob != IR_FX_OOB_ZERO)
    FAIL(ir_error_set(err, TTREF_E_INPUT, (ttref_loc){0}, "unknown out-of-bounds policy %d", L->b->oob));
  int floc = loc_of(L, NULL, r->line, r->col);
  L->curloc = floc;
  L->indent = 4;
  L->stack[L->nstack++] = g->root;
  TRY(bind_buffers(L, env, args, argn));
  TRY(lower_region(L, g->root, env, NULL, 0, NULL));
  L->curloc = floc;
  emit(L, "tt.return");
  sbuf out = {0};
  sb_add(&out, "// lowered by ttref from the TK trace %s\nmodule {\n  tt.func public @%s(%s) {\n", L->base, kernel_name,
         args);
  if (L->body.p) sb_add(&out, "%s", L->body.p);
  sb_add(&out, "  } loc(#loc%d)\n} loc(#loc%d)\n", floc, floc);
  if (L->locs.p) sb_add(&out, "%s", L->locs.p);
  if (out.oom || L->body.oom || L->locs.oom) {
    ir_free(out.p, out.cap);
    FAIL(ir_error_set(err, TTREF_E_NOMEM, (ttref_loc){0}, "out of memory"));
  }
  /* hand back an exactly sized buffer (ir_free(text, len + 1)) */
  char *t = ir_alloc(out.n + 1);
  if (!t) {
    ir_free(out.p, out.cap);
    FAIL(ir_error_set(err, TTREF_E_NOMEM, (ttref_loc){0}, "out of memory"));
  }
  memcpy(t, out.p, out.n + 1);
  ir_free(out.p, out.cap);
  *out_text = t;
  *out_len = out.n;
fail:
  if (L) {
    ir_free(L->body.p, L->body.cap);
    ir_free(L->locs.p, L->locs.cap);
    ir_arena_free(L->arena);
    ir_free(L, sizeof *L);
  }
  ir_free(env, sizeof *env * ((size_t)r->nnodes + 1));
  ir_free(args, argn);
  return st;
}

static void relocate_region(ir_region *r, const char *base)
{
  for (int b = 0; b < r->nblocks; b++)
    for (int i = 0; i < r->blocks[b]->nops; i++) {
      ir_op *op = r->blocks[b]->ops[i];
      ir_srcloc sl = ir_op_srcloc(op);
      if (sl.file && sl.line > 0 && !strcmp(sl.file, base)) {
        op->line = sl.line;
        op->col = sl.col;
      }
      for (int k = 0; k < op->nregions; k++) relocate_region(&op->regions[k], base);
    }
}

void ir_fx_relocate(ir_module *m, const char *fx_path)
{
  const char *slash = strrchr(fx_path, '/');
  const char *base = slash ? slash + 1 : fx_path;
  char *fn_copy = ir_arena_strndup(m->arena, fx_path, strlen(fx_path));
  if (fn_copy) m->filename = fn_copy;
  for (int f = 0; f < m->nfuncs; f++) {
    ir_func *fn = m->funcs[f];
    ir_srcloc sl = fn->loc ? ir_loc_resolve(fn->loc) : (ir_srcloc){0};
    if (sl.file && sl.line > 0) fn->line = sl.line, fn->col = sl.col;
    relocate_region(&fn->body, base);
  }
}

ttref_status ir_fx_load_file(const char *path, const ir_fx_bind *b, ir_module **out, char **out_text, size_t *out_len,
                             ttref_error *err)
{
  ttref_status st = TTREF_OK;
  ir_fx *g = NULL;
  char *text = NULL, name[128];
  size_t len = 0;
  *out = NULL;
  TRY(ir_fx_parse_file(path, &g, err));
  /* the kernel is named after the file: its stem with [A-Za-z0-9_] kept */
  const char *slash = strrchr(path, '/');
  const char *stem = slash ? slash + 1 : path;
  size_t n = 0;
  for (const char *c = stem; *c && *c != '.' && n + 1 < sizeof name; c++)
    name[n++] =
        ((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || *c == '_') ? *c : '_';
  if (n == 0 || (name[0] >= '0' && name[0] <= '9')) {
    memmove(name + 1, name, n < sizeof name - 2 ? n : sizeof name - 2);
    name[0] = 'k';
    n = n + 1 < sizeof name - 1 ? n + 1 : sizeof name - 1;
  }
  name[n] = 0;
  TRY(ir_fx_lower(g, b, name, &text, &len, err));
  TRY(ir_parse_string("lowered.ttir", text, len, out, err));
  ir_fx_relocate(*out, path);
  if (out_text) {
    *out_text = text;
    *out_len = len;
    text = NULL;
  }
fail:
  if (text) ir_free(text, len + 1);
  ir_fx_free(g);
  return st;
}
