/*
 * ir_print.c: core IR to canonical TTIR text. Output goes through one
 * buffered writer; loc aliases keep their names and are placed so that
 * MLIR's parser sees each definition before any nested use.
 */
#include "config.h"
#include "ir_print.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

typedef struct W {
  FILE *f;
  size_t n;
  int bad;        /* write error */
  int internal;   /* inexpressible IR */
  const char *why;
  const ir_print_hooks *h; /* may be NULL */
  char buf[1 << 16];
} W;

static void wflush(W *w)
{
  if (w->n && fwrite(w->buf, 1, w->n, w->f) != w->n) w->bad = 1;
  w->n = 0;
}
static void wmem(W *w, const char *s, size_t n)
{
  if (n > sizeof w->buf - w->n) {
    wflush(w);
    if (n > sizeof w->buf) {
      if (fwrite(s, 1, n, w->f) != n) w->bad = 1;
      return;
    }
  }
  memcpy(w->buf + w->n, s, n);
  w->n += n;
}
static void ws(W *w, const char *s) { wmem(w, s, strlen(s)); }
static void wc(W *w, char c)
{
  if (w->n == sizeof w->buf) wflush(w);
  w->buf[w->n++] = c;
}
static void wf(W *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void wf(W *w, const char *fmt, ...)
{
  char b[128];
  va_list ap;
  va_start(ap, fmt);
  int k = vsnprintf(b, sizeof b, fmt, ap);
  va_end(ap);
  if (k > 0) wmem(w, b, (size_t)k < sizeof b ? (size_t)k : sizeof b - 1);
}
static void wind(W *w, int n)
{
  for (int i = 0; i < n; i++) wc(w, ' ');
}
static void wbad(W *w, const char *why)
{
  if (!w->internal) w->why = why;
  w->internal = 1;
}

/* ---- types ------------------------------------------------------------------ */
static void wtype(W *w, const ir_type *t)
{
  if (!t) {
    wbad(w, "value without a type");
    ws(w, "none");
    return;
  }
  switch (t->kind) {
  case IR_T_SCALAR: ws(w, ir_scalar_name(t->scalar)); return;
  case IR_T_PTR:
    ws(w, "!tt.ptr<");
    wtype(w, t->elem);
    if (t->addrspace != 1) wf(w, ", %d", t->addrspace);
    wc(w, '>');
    return;
  case IR_T_TENSOR:
    ws(w, "tensor<");
    for (int i = 0; i < t->rank; i++) wf(w, "%lldx", (long long)t->shape[i]);
    wtype(w, t->elem);
    wc(w, '>');
    return;
  case IR_T_DESC:
    ws(w, "!tt.tensordesc<");
    if (t->desc_sign && t->elem && t->elem->kind == IR_T_TENSOR) {
      ws(w, "tensor<");
      for (int i = 0; i < t->elem->rank; i++) wf(w, "%lldx", (long long)t->elem->shape[i]);
      ws(w, t->desc_sign == 1 ? "si" : "ui");
      ws(w, ir_scalar_name(t->elem->scalar) + 1);
      wc(w, '>');
    } else {
      wtype(w, t->elem);
    }
    wc(w, '>');
    return;
  }
  wbad(w, "invalid type");
}

/* ---- strings, names -------------------------------------------------------------- */
static void wstr(W *w, const char *s, size_t n)
{
  static const char hx[] = "0123456789ABCDEF";
  wc(w, '"');
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') {
      wc(w, (char)c);
    } else {
      wc(w, '\\');
      wc(w, hx[c >> 4]);
      wc(w, hx[c & 15]);
    }
  }
  wc(w, '"');
}
static bool bare_id(const char *s)
{
  if (!s || !((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_')) return false;
  for (; *s; s++)
    if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') || *s == '_' ||
          *s == '$' || *s == '.'))
      return false;
  return true;
}
static void wsym(W *w, const char *s)
{
  wc(w, '@');
  if (bare_id(s)) ws(w, s);
  else wstr(w, s, strlen(s));
}
static void wval(W *w, const ir_value *v)
{
  wc(w, '%');
  ws(w, v && v->name ? v->name : "<null>");
  if (!v) wbad(w, "null operand");
}
static void wvals(W *w, ir_value *const *v, int n)
{
  for (int i = 0; i < n; i++) {
    if (i) ws(w, ", ");
    wval(w, v[i]);
  }
}
static void wvtypes(W *w, ir_value *const *v, int n)
{
  for (int i = 0; i < n; i++) {
    if (i) ws(w, ", ");
    wtype(w, v[i] ? v[i]->type : NULL);
  }
}

/* ---- numbers ---------------------------------------------------------------- */
static bool same_double(double a, double b) { return memcmp(&a, &b, sizeof a) == 0; }

/* MLIR-style: %.6e when exact, else the shortest round-trip decimal; always has a '.' */
static void fmt_double(double d, char *buf, size_t n)
{
  snprintf(buf, n, "%.6e", d);
  if (!same_double(strtod(buf, NULL), d)) {
    for (int prec = 1; prec <= 17; prec++) {
      snprintf(buf, n, "%.*g", prec, d);
      if (same_double(strtod(buf, NULL), d)) break;
    }
    if (!strchr(buf, '.')) {
      char tmp[80];
      char *e = strchr(buf, 'e');
      if (e) snprintf(tmp, sizeof tmp, "%.*s.0%s", (int)(e - buf), buf, e);
      else snprintf(tmp, sizeof tmp, "%s.0", buf);
      size_t k = strlen(tmp) < n - 1 ? strlen(tmp) : n - 1;
      memcpy(buf, tmp, k);
      buf[k] = 0;
    }
  }
}
static void wdouble(W *w, double d)
{
  char b[64];
  if (!isfinite(d)) {
    wbad(w, "non-finite decimal float");
    ws(w, "0.0");
    return;
  }
  fmt_double(d, b, sizeof b);
  ws(w, b);
}
static void whex(W *w, int64_t bits) { wf(w, "0x%" PRIX64, (uint64_t)bits); }

/* ---- locations ------------------------------------------------------------- */
static void wlocinst(W *w, const ir_loc *l)
{
  if (!l) {
    ws(w, "unknown");
    return;
  }
  switch (l->kind) {
  case IR_L_UNKNOWN: ws(w, "unknown"); return;
  case IR_L_FILE:
    wstr(w, l->str, strlen(l->str));
    wf(w, ":%d:%d", l->line, l->col);
    return;
  case IR_L_NAME:
    wstr(w, l->str, strlen(l->str));
    if (l->a) {
      wc(w, '(');
      wlocinst(w, l->a);
      wc(w, ')');
    }
    return;
  case IR_L_CALLSITE:
    ws(w, "callsite(");
    wlocinst(w, l->a);
    ws(w, " at ");
    wlocinst(w, l->b);
    wc(w, ')');
    return;
  case IR_L_FUSED:
    ws(w, "fused");
    if (l->str) {
      wc(w, '<');
      ws(w, l->str);
      wc(w, '>');
    }
    wc(w, '[');
    for (int i = 0; i < l->nitems; i++) {
      if (i) ws(w, ", ");
      wlocinst(w, l->items[i]);
    }
    wc(w, ']');
    return;
  case IR_L_ALIAS:
    wc(w, '#');
    ws(w, l->str);
    return;
  }
}
static void wloc(W *w, const ir_loc *l)
{
  if (!l) return;
  ws(w, " loc(");
  wlocinst(w, l);
  wc(w, ')');
}

/* ---- attributes ------------------------------------------------------------- */
static void wattr(W *w, const ir_attr *a);

static void wdense_elem(W *w, const ir_attr *a, int64_t i)
{
  const ir_type *et = a->type && a->type->kind == IR_T_TENSOR ? a->type->elem : NULL;
  ir_scalar s = et ? et->scalar : IR_S_I64;
  if (a->hex) whex(w, a->vals[i].i);
  else if (ir_scalar_is_float(s)) wdouble(w, a->vals[i].f);
  else if (s == IR_S_I1) ws(w, a->vals[i].i ? "true" : "false");
  else wf(w, "%lld", (long long)a->vals[i].i);
}

static void wdense_rec(W *w, const ir_attr *a, int dim, int64_t *idx)
{
  const ir_type *t = a->type;
  if (dim == t->rank) {
    wdense_elem(w, a, (*idx)++);
    return;
  }
  wc(w, '[');
  for (int64_t k = 0; k < t->shape[dim]; k++) {
    if (k) ws(w, ", ");
    wdense_rec(w, a, dim + 1, idx);
  }
  wc(w, ']');
}

static void wattr(W *w, const ir_attr *a)
{
  switch (a->kind) {
  case IR_A_UNIT: ws(w, "unit"); return;
  case IR_A_BOOL: ws(w, a->i ? "true" : "false"); return;
  case IR_A_INT:
    wf(w, "%lld", (long long)a->i);
    if (a->type) {
      ws(w, " : ");
      wtype(w, a->type);
    }
    return;
  case IR_A_FLOAT:
    if (a->hex) whex(w, a->i);
    else wdouble(w, a->f);
    if (a->type) {
      ws(w, " : ");
      wtype(w, a->type);
    }
    return;
  case IR_A_STRING: wstr(w, a->s, a->slen); return;
  case IR_A_ENUM: wf(w, "%lld : i32", (long long)a->i); return;
  case IR_A_ARRAY:
    ws(w, "array<");
    wtype(w, a->type);
    for (int i = 0; i < a->nints; i++) {
      ws(w, i ? ", " : ": ");
      if (a->type && a->type->scalar == IR_S_I1) ws(w, a->ints[i] ? "true" : "false");
      else wf(w, "%lld", (long long)a->ints[i]);
    }
    wc(w, '>');
    return;
  case IR_A_DENSE: {
    ws(w, "dense<");
    if (!a->type || a->type->kind != IR_T_TENSOR) {
      wbad(w, "dense attribute without a tensor type");
    } else if (a->nvals == 1 && (a->splat || a->type->numel == 1) && a->type->rank == 0) {
      wdense_elem(w, a, 0);
    } else if (a->splat || (a->nvals == 1 && a->type->numel != 1)) {
      wdense_elem(w, a, 0);
    } else if (a->nvals != a->type->numel) {
      wbad(w, "dense attribute element count does not match its type");
    } else if (a->nvals == 1) {
      wdense_elem(w, a, 0);
    } else {
      int64_t idx = 0;
      wdense_rec(w, a, 0, &idx);
    }
    ws(w, "> : ");
    wtype(w, a->type);
    return;
  }
  case IR_A_TYPE: wtype(w, a->type); return;
  case IR_A_DICT:
    wc(w, '{');
    for (int i = 0; i < a->nitems; i++) {
      if (i) ws(w, ", ");
      const ir_attr *it = &a->items[i];
      if (bare_id(it->name)) ws(w, it->name);
      else wstr(w, it->name, strlen(it->name));
      if (it->kind != IR_A_UNIT) {
        ws(w, " = ");
        wattr(w, it);
      }
    }
    wc(w, '}');
    return;
  case IR_A_LIST:
    wc(w, '[');
    for (int i = 0; i < a->nitems; i++) {
      if (i) ws(w, ", ");
      wattr(w, &a->items[i]);
    }
    wc(w, ']');
    return;
  case IR_A_SYMBOL: wsym(w, a->s); return;
  case IR_A_OPAQUE: wmem(w, a->s, a->slen); return;
  }
  wbad(w, "invalid attribute");
}

/* ' {a = 1, b}' without the names in skip (NULL-terminated) */
static void wattr_dict(W *w, const ir_attr *attrs, int n, const char *const *skip)
{
  bool open = false;
  for (int i = 0; i < n; i++) {
    const ir_attr *a = &attrs[i];
    bool sk = false;
    for (int k = 0; skip && skip[k]; k++)
      if (!strcmp(skip[k], a->name)) sk = true;
    if (sk) continue;
    ws(w, open ? ", " : " {");
    open = true;
    if (bare_id(a->name)) ws(w, a->name);
    else wstr(w, a->name, strlen(a->name));
    if (a->kind != IR_A_UNIT) {
      ws(w, " = ");
      wattr(w, a);
    }
  }
  if (open) wc(w, '}');
}

/* ---- ops -------------------------------------------------------------------- */
static void wregion(W *w, const ir_region *r, int ind, bool entry_args);
static void wop(W *w, const ir_op *op, int ind);

static void wfntype_res(W *w, const ir_op *op)
{
  if (op->nres == 1 && op->res[0].type) {
    wtype(w, op->res[0].type);
    return;
  }
  wc(w, '(');
  for (int i = 0; i < op->nres; i++) {
    if (i) ws(w, ", ");
    wtype(w, op->res[i].type);
  }
  wc(w, ')');
}
static void wfntype(W *w, const ir_op *op, int first, int n)
{
  wc(w, '(');
  for (int i = 0; i < n; i++) {
    if (i) ws(w, ", ");
    wtype(w, op->opnds[first + i]->type);
  }
  ws(w, ") -> ");
  wfntype_res(w, op);
}

static const char *attr_s(const ir_op *op, const char *name)
{
  const ir_attr *a = ir_op_attr(op, name);
  return a && a->s ? a->s : NULL;
}

static void wflags(W *w, const ir_op *op)
{
  const ir_attr *a = ir_op_attr(op, "roundingmode");
  if (a && a->s) {
    wc(w, ' ');
    wmem(w, a->s, a->slen);
  }
  static const char *const names[] = {"fastmath", "overflowFlags"};
  static const char *const pre[] = {"#arith.fastmath", "#arith.overflow"};
  static const char *const kw[] = {" fastmath", " overflow"};
  for (int i = 0; i < 2; i++) {
    a = ir_op_attr(op, names[i]);
    if (!a) continue;
    size_t pl = strlen(pre[i]);
    if (a->kind == IR_A_OPAQUE && a->slen > pl && !memcmp(a->s, pre[i], pl)) {
      ws(w, kw[i]);
      wmem(w, a->s + pl, a->slen - pl);
    } else {
      wbad(w, "unexpected arith flag attribute");
    }
  }
}

static void wsucc(W *w, const ir_succ *s)
{
  wc(w, '^');
  ws(w, s->block && s->block->label ? s->block->label : "<null>");
  if (!s->block || !s->block->label) wbad(w, "successor without label");
  if (s->nargs) {
    wc(w, '(');
    wvals(w, s->args, s->nargs);
    ws(w, " : ");
    wvtypes(w, s->args, s->nargs);
    wc(w, ')');
  }
}

static bool implicit_yield(const ir_op *op)
{
  return op->code == IR_OP_SCF_YIELD && op->nopnds == 0 && !op->loc && op->nattrs == 0;
}

#define NEED(cond)                                                             \
  do {                                                                         \
    if (!(cond)) {                                                             \
      wbad(w, "op does not fit its custom syntax");                            \
      return;                                                                  \
    }                                                                          \
  } while (0)

static const char *const SK_NONE[] = {NULL};
static const char *const SK_FLAGS[] = {"fastmath", "overflowFlags", "roundingmode", NULL};
static const char *const SK_CMP[] = {"predicate", "fastmath", NULL};
static const char *const SK_AXIS[] = {"axis", NULL};
static const char *const SK_VALUE[] = {"value", NULL};
static const char *const SK_LS[] = {"cache", "evict", NULL};
static const char *const SK_ATOM[] = {"atomic_rmw_op", "sem", "scope", NULL};
static const char *const SK_DOT[] = {"inputPrecision", NULL};
static const char *const SK_DOTS[] = {"a_elem_type", "b_elem_type", "operandSegmentSizes", NULL};
static const char *const SK_RND[] = {"rounding", NULL};
static const char *const SK_RESHAPE[] = {"allow_reorder", "efficient_layout", NULL};
static const char *const SK_NAN[] = {"propagateNan", NULL};
static const char *const SK_PREFIX[] = {"prefix", NULL};
static const char *const SK_ASSERT[] = {"message", "file", "func", "line", NULL};
static const char *const SK_ASM[] = {"asm_string", NULL};
static const char *const SK_KIND[] = {"kind", NULL};
static const char *const SK_DSTORE[] = {"reduce_kind", "cache", "evict", NULL};
static const char *const SK_BAR[] = {"addrSpace", NULL};
static const char *const SK_FOR[] = {"unsignedCmp", NULL};

static void wcustom(W *w, const ir_op *op, int ind)
{
  ir_opcode c = op->code;
  ir_value *const *o = op->opnds;
  int n = op->nopnds;
  ws(w, ir_op_name(c));
  switch (c) {
  case IR_OP_ADDI: case IR_OP_SUBI: case IR_OP_MULI: case IR_OP_DIVSI: case IR_OP_DIVUI:
  case IR_OP_CEILDIVSI: case IR_OP_CEILDIVUI: case IR_OP_FLOORDIVSI: case IR_OP_REMSI: case IR_OP_REMUI:
  case IR_OP_ANDI: case IR_OP_ORI: case IR_OP_XORI: case IR_OP_SHLI: case IR_OP_SHRSI: case IR_OP_SHRUI:
  case IR_OP_MINSI: case IR_OP_MINUI: case IR_OP_MAXSI: case IR_OP_MAXUI:
  case IR_OP_ADDF: case IR_OP_SUBF: case IR_OP_MULF: case IR_OP_DIVF: case IR_OP_REMF: case IR_OP_NEGF:
  case IR_OP_MAXNUMF: case IR_OP_MINNUMF: case IR_OP_MAXIMUMF: case IR_OP_MINIMUMF:
  case IR_OP_MATH_EXP: case IR_OP_MATH_EXP2: case IR_OP_MATH_LOG: case IR_OP_MATH_LOG2: case IR_OP_MATH_SIN:
  case IR_OP_MATH_COS: case IR_OP_MATH_SQRT: case IR_OP_MATH_RSQRT: case IR_OP_MATH_ERF: case IR_OP_MATH_FLOOR:
  case IR_OP_MATH_CEIL: case IR_OP_MATH_ABSF: case IR_OP_MATH_ABSI: case IR_OP_MATH_FMA: case IR_OP_MATH_TANH:
  case IR_OP_MATH_TRUNC: case IR_OP_MATH_ROUND: case IR_OP_MATH_ROUNDEVEN: case IR_OP_MATH_LOG1P:
  case IR_OP_MATH_EXPM1: case IR_OP_MATH_POWF: case IR_OP_MATH_CTPOP: case IR_OP_MATH_CTLZ: case IR_OP_MATH_CTTZ:
  case IR_OP_PRECISE_SQRT: case IR_OP_PRECISE_DIVF: case IR_OP_MULHIUI:
    NEED(n == ir_op_nopnds(c) && op->nres == 1);
    wc(w, ' ');
    wvals(w, o, n);
    wflags(w, op);
    wattr_dict(w, op->attrs, op->nattrs, SK_FLAGS);
    ws(w, " : ");
    wtype(w, op->res[0].type);
    return;
  case IR_OP_CMPI: case IR_OP_CMPF:
    NEED(n == 2 && attr_s(op, "predicate"));
    wc(w, ' ');
    ws(w, attr_s(op, "predicate"));
    ws(w, ", ");
    wvals(w, o, 2);
    wflags(w, op);
    wattr_dict(w, op->attrs, op->nattrs, SK_CMP);
    ws(w, " : ");
    wtype(w, o[0]->type);
    return;
  case IR_OP_SELECT:
    NEED(n == 3 && op->nres == 1);
    wc(w, ' ');
    wvals(w, o, 3);
    wattr_dict(w, op->attrs, op->nattrs, SK_NONE);
    ws(w, " : ");
    if (o[0]->type && o[0]->type->kind == IR_T_TENSOR) {
      wtype(w, o[0]->type);
      ws(w, ", ");
    }
    wtype(w, op->res[0].type);
    return;
  case IR_OP_EXTSI: case IR_OP_EXTUI: case IR_OP_TRUNCI: case IR_OP_INDEX_CAST: case IR_OP_EXTF:
  case IR_OP_TRUNCF: case IR_OP_SITOFP: case IR_OP_UITOFP: case IR_OP_FPTOSI: case IR_OP_FPTOUI:
  case IR_OP_BITCAST: case IR_OP_REINTERPRET_DESC:
    NEED(n == 1 && op->nres == 1);
    wc(w, ' ');
    wval(w, o[0]);
    wflags(w, op);
    wattr_dict(w, op->attrs, op->nattrs, SK_FLAGS);
    ws(w, " : ");
    wtype(w, o[0]->type);
    ws(w, " to ");
    wtype(w, op->res[0].type);
    return;
  case IR_OP_SPLAT: case IR_OP_BROADCAST: case IR_OP_EXPAND_DIMS: case IR_OP_INT_TO_PTR:
  case IR_OP_PTR_TO_INT: case IR_OP_TT_BITCAST: case IR_OP_TRANS: case IR_OP_SPLIT:
  case IR_OP_RESHAPE: case IR_OP_FP_TO_FP: case IR_OP_HISTOGRAM: case IR_OP_CAT: case IR_OP_JOIN: {
    int want = (c == IR_OP_CAT || c == IR_OP_JOIN) ? 2 : 1;
    if (c == IR_OP_HISTOGRAM || c == IR_OP_FP_TO_FP) NEED(n == 1 || n == 2);
    else NEED(n == want);
    NEED(op->nres == (c == IR_OP_SPLIT ? 2 : 1));
    wc(w, ' ');
    wvals(w, o, n);
    const char *const *skip = SK_NONE;
    if (c == IR_OP_FP_TO_FP) {
      const char *r = attr_s(op, "rounding");
      if (r) {
        ws(w, ", rounding = ");
        ws(w, r);
      }
      skip = SK_RND;
    }
    if (c == IR_OP_RESHAPE) {
      if (ir_op_attr(op, "allow_reorder")) ws(w, " allow_reorder");
      if (ir_op_attr(op, "efficient_layout")) ws(w, " efficient_layout");
      skip = SK_RESHAPE;
    }
    wattr_dict(w, op->attrs, op->nattrs, skip);
    ws(w, " : ");
    wtype(w, o[0]->type);
    ws(w, " -> ");
    wtype(w, op->res[0].type);
    return;
  }
  case IR_OP_UNSPLAT:
    NEED(n == 1);
    wc(w, ' ');
    wval(w, o[0]);
    wattr_dict(w, op->attrs, op->nattrs, SK_NONE);
    ws(w, " : ");
    wtype(w, o[0]->type);
    return;
  case IR_OP_GET_PROGRAM_ID: case IR_OP_GET_NUM_PROGRAMS:
    NEED(attr_s(op, "axis") && op->nres == 1);
    wc(w, ' ');
    ws(w, attr_s(op, "axis"));
    wattr_dict(w, op->attrs, op->nattrs, SK_AXIS);
    ws(w, " : ");
    wtype(w, op->res[0].type);
    return;
  case IR_OP_MAKE_RANGE: case IR_OP_POISON:
    NEED(op->nres == 1 && n == 0);
    wattr_dict(w, op->attrs, op->nattrs, SK_NONE);
    ws(w, " : ");
    wtype(w, op->res[0].type);
    return;
  case IR_OP_CONSTANT: {
    const ir_attr *v = ir_op_attr(op, "value");
    NEED(v && op->nres == 1);
    wattr_dict(w, op->attrs, op->nattrs, SK_VALUE);
    wc(w, ' ');
    wattr(w, v);
    if ((v->kind == IR_A_INT || v->kind == IR_A_FLOAT) && !v->type) {
      ws(w, " : ");
      wtype(w, op->res[0].type);
    }
    return;
  }
  case IR_OP_ADDPTR:
    NEED(n == 2 && op->nres == 1);
    wc(w, ' ');
    wvals(w, o, 2);
    wattr_dict(w, op->attrs, op->nattrs, SK_NONE);
    ws(w, " : ");
    wtype(w, op->res[0].type);
    ws(w, ", ");
    wtype(w, o[1]->type);
    return;
  case IR_OP_LOAD: case IR_OP_STORE: {
    if (c == IR_OP_LOAD) NEED(n >= 1 && n <= 3 && op->nres == 1);
    else NEED(n >= 2 && n <= 3);
    wc(w, ' ');
    wvals(w, o, n);
    const char *cm = attr_s(op, "cache"), *ev = attr_s(op, "evict");
    if (cm) { ws(w, " cacheModifier = "); ws(w, cm); }
    if (ev) { ws(w, " evictionPolicy = "); ws(w, ev); }
    wattr_dict(w, op->attrs, op->nattrs, SK_LS);
    ws(w, " : ");
    wtype(w, o[0]->type);
    return;
  }
  case IR_OP_ATOMIC_RMW: case IR_OP_ATOMIC_CAS:
    NEED(op->nres == 1 && attr_s(op, "sem") && attr_s(op, "scope"));
    if (c == IR_OP_ATOMIC_RMW) {
      NEED(attr_s(op, "atomic_rmw_op") && n >= 2);
      wc(w, ' ');
      ws(w, attr_s(op, "atomic_rmw_op"));
      ws(w, ",");
    }
    wc(w, ' ');
    ws(w, attr_s(op, "sem"));
    ws(w, ", ");
    ws(w, attr_s(op, "scope"));
    ws(w, ", ");
    wvals(w, o, n);
    wattr_dict(w, op->attrs, op->nattrs, SK_ATOM);
    ws(w, " : ");
    wfntype(w, op, 0, n);
    return;
  case IR_OP_DOT: {
    NEED(n == 3 && op->nres == 1);
    wc(w, ' ');
    wvals(w, o, 3);
    const char *pr = attr_s(op, "inputPrecision");
    if (pr) { ws(w, ", inputPrecision = "); ws(w, pr); }
    wattr_dict(w, op->attrs, op->nattrs, SK_DOT);
    ws(w, " : ");
    wtype(w, o[0]->type);
    ws(w, " * ");
    wtype(w, o[1]->type);
    ws(w, " -> ");
    wtype(w, op->res[0].type);
    return;
  }
  case IR_OP_DOT_SCALED: {
    const ir_attr *sg = ir_op_attr(op, "operandSegmentSizes");
    NEED(sg && sg->nints == 5 && n == 3 + (int)(sg->ints[3] + sg->ints[4]) && attr_s(op, "a_elem_type") &&
         attr_s(op, "b_elem_type") && op->nres == 1);
    const ir_value *as = sg->ints[3] ? o[3] : NULL, *bs = sg->ints[4] ? o[3 + sg->ints[3]] : NULL;
    wc(w, ' ');
    wval(w, o[0]);
    if (as) { ws(w, " scale "); wval(w, as); }
    ws(w, ", ");
    wval(w, o[1]);
    if (bs) { ws(w, " scale "); wval(w, bs); }
    ws(w, ", ");
    wval(w, o[2]);
    ws(w, " lhs = ");
    ws(w, attr_s(op, "a_elem_type"));
    ws(w, " rhs = ");
    ws(w, attr_s(op, "b_elem_type"));
    wattr_dict(w, op->attrs, op->nattrs, SK_DOTS);
    ws(w, " : ");
    wtype(w, o[0]->type);
    if (as) { ws(w, ", "); wtype(w, as->type); }
    ws(w, " * ");
    wtype(w, o[1]->type);
    if (bs) { ws(w, ", "); wtype(w, bs->type); }
    ws(w, " -> ");
    wtype(w, op->res[0].type);
    return;
  }
  case IR_OP_MAKE_TENSOR_PTR: case IR_OP_ADVANCE: case IR_OP_MAKE_TENSOR_DESC: {
    NEED(op->nres == 1 && n >= 1);
    int nl = c == IR_OP_MAKE_TENSOR_PTR ? 3 : c == IR_OP_ADVANCE ? 1 : 2;
    NEED((n - 1) % nl == 0);
    int k = (n - 1) / nl;
    wc(w, ' ');
    wval(w, o[0]);
    for (int l = 0; l < nl; l++) {
      ws(w, ", [");
      wvals(w, o + 1 + l * k, k);
      wc(w, ']');
    }
    wattr_dict(w, op->attrs, op->nattrs, SK_NONE);
    ws(w, " : ");
    if (c == IR_OP_MAKE_TENSOR_DESC) {
      wtype(w, o[0]->type);
      ws(w, ", ");
    }
    wtype(w, op->res[0].type);
    return;
  }
  case IR_OP_DESC_LOAD: case IR_OP_XDESC_LOAD: case IR_OP_DESC_STORE: case IR_OP_XDESC_STORE:
  case IR_OP_DESC_REDUCE: {
    bool store = c != IR_OP_DESC_LOAD && c != IR_OP_XDESC_LOAD;
    NEED(n >= (store ? 2 : 1) && op->nres == (store ? 0 : 1));
    int first = store ? 2 : 1;
    if (c == IR_OP_DESC_REDUCE) {
      NEED(attr_s(op, "kind"));
      wc(w, ' ');
      ws(w, attr_s(op, "kind"));
      wc(w, ',');
    }
    wc(w, ' ');
    wval(w, o[0]);
    wc(w, '[');
    wvals(w, o + first, n - first);
    wc(w, ']');
    if (store) { ws(w, ", "); wval(w, o[1]); }
    const char *cm = attr_s(op, "cache"), *ev = attr_s(op, "evict"), *rk = attr_s(op, "reduce_kind");
    if (cm) { ws(w, " cacheModifier = "); ws(w, cm); }
    if (ev) { ws(w, " evictionPolicy = "); ws(w, ev); }
    if (rk && c == IR_OP_DESC_STORE) { ws(w, " reduce_kind = "); ws(w, rk); }
    wattr_dict(w, op->attrs, op->nattrs, c == IR_OP_DESC_REDUCE ? SK_KIND : SK_DSTORE);
    ws(w, " : ");
    wtype(w, o[0]->type);
    ws(w, store ? ", " : " -> ");
    wtype(w, store ? o[1]->type : op->res[0].type);
    return;
  }
  case IR_OP_DESC_GATHER: case IR_OP_XDESC_GATHER: case IR_OP_DESC_SCATTER: case IR_OP_XDESC_SCATTER: {
    bool sc = c == IR_OP_DESC_SCATTER || c == IR_OP_XDESC_SCATTER;
    NEED(n == (sc ? 4 : 3) && op->nres == (sc ? 0 : 1));
    wc(w, ' ');
    wval(w, o[0]);
    wc(w, '[');
    wvals(w, o + 1, 2);
    wc(w, ']');
    if (sc) { ws(w, ", "); wval(w, o[3]); }
    wattr_dict(w, op->attrs, op->nattrs, SK_NONE);
    ws(w, " : ");
    if (sc) wvtypes(w, o, 4);
    else wfntype(w, op, 0, 3);
    return;
  }
  case IR_OP_GATHER:
    NEED(n == 2 && op->nres == 1);
    wc(w, ' ');
    wval(w, o[0]);
    wc(w, '[');
    wval(w, o[1]);
    wc(w, ']');
    wattr_dict(w, op->attrs, op->nattrs, SK_NONE);
    ws(w, " : ");
    wfntype(w, op, 0, 2);
    return;
  case IR_OP_EXTERN_ELEMENTWISE:
    NEED(op->nres == 1);
    if (n) wc(w, ' ');
    wvals(w, o, n);
    wattr_dict(w, op->attrs, op->nattrs, SK_NONE);
    ws(w, " : ");
    wfntype(w, op, 0, n);
    return;
  case IR_OP_CALL:
    NEED(op->callee);
    wc(w, ' ');
    wsym(w, op->callee);
    wc(w, '(');
    wvals(w, o, n);
    wc(w, ')');
    wattr_dict(w, op->attrs, op->nattrs, SK_NONE);
    ws(w, " : ");
    wfntype(w, op, 0, n);
    return;
  case IR_OP_RETURN: case IR_OP_SCF_YIELD: case IR_OP_MAP_ELEM_RETURN:
    wattr_dict(w, op->attrs, op->nattrs, SK_NONE);
    if (n) {
      wc(w, ' ');
      wvals(w, o, n);
      ws(w, " : ");
      wvtypes(w, o, n);
    }
    return;
  case IR_OP_REDUCE_RETURN: case IR_OP_SCAN_RETURN:
    if (n) {
      wc(w, ' ');
      wvals(w, o, n);
    }
    wattr_dict(w, op->attrs, op->nattrs, SK_NONE);
    if (n) {
      ws(w, " : ");
      wvtypes(w, o, n);
    }
    return;
  case IR_OP_SCF_CONDITION:
    NEED(n >= 1);
    wc(w, '(');
    wval(w, o[0]);
    wc(w, ')');
    wattr_dict(w, op->attrs, op->nattrs, SK_NONE);
    if (n > 1) {
      wc(w, ' ');
      wvals(w, o + 1, n - 1);
      ws(w, " : ");
      wvtypes(w, o + 1, n - 1);
    }
    return;
  case IR_OP_PRINT: {
    const ir_attr *pf = ir_op_attr(op, "prefix");
    NEED(pf && pf->kind == IR_A_STRING);
    wc(w, ' ');
    wstr(w, pf->s, pf->slen);
    wattr_dict(w, op->attrs, op->nattrs, SK_PREFIX);
    if (n) {
      ws(w, " : ");
      wvals(w, o, n);
      ws(w, " : ");
      wvtypes(w, o, n);
    }
    return;
  }
  case IR_OP_ASSERT: {
    const ir_attr *msg = ir_op_attr(op, "message");
    NEED(n == 1 && msg && msg->kind == IR_A_STRING);
    wc(w, ' ');
    wval(w, o[0]);
    ws(w, ", ");
    wstr(w, msg->s, msg->slen);
    const ir_attr *fa = ir_op_attr(op, "file"), *fu = ir_op_attr(op, "func"), *li = ir_op_attr(op, "line");
    if (fa && fu && li && fa->kind == IR_A_STRING && fu->kind == IR_A_STRING && li->kind == IR_A_INT) {
      ws(w, ", ");
      wstr(w, fa->s, fa->slen);
      ws(w, ", ");
      wstr(w, fu->s, fu->slen);
      wf(w, ", %lld", (long long)li->i);
      wattr_dict(w, op->attrs, op->nattrs, SK_ASSERT);
    } else {
      wattr_dict(w, op->attrs, op->nattrs, SK_ASSERT + 0);
    }
    ws(w, " : ");
    wtype(w, o[0]->type);
    return;
  }
  case IR_OP_ASSUME:
    NEED(n == 1);
    wc(w, ' ');
    wval(w, o[0]);
    wattr_dict(w, op->attrs, op->nattrs, SK_NONE);
    ws(w, " : ");
    wtype(w, o[0]->type);
    return;
  case IR_OP_GPU_BARRIER: case IR_OP_TTG_BARRIER: {
    const ir_attr *as = ir_op_attr(op, "addrSpace");
    if (as && c == IR_OP_TTG_BARRIER && as->s) {
      wc(w, ' ');
      wmem(w, as->s, as->slen);
    }
    wattr_dict(w, op->attrs, op->nattrs, c == IR_OP_TTG_BARRIER ? SK_BAR : SK_NONE);
    return;
  }
  case IR_OP_CLAMPF:
    NEED(n == 3 && op->nres == 1 && attr_s(op, "propagateNan"));
    wc(w, ' ');
    wvals(w, o, 3);
    ws(w, ", propagateNan = ");
    ws(w, attr_s(op, "propagateNan"));
    wattr_dict(w, op->attrs, op->nattrs, SK_NAN);
    ws(w, " : ");
    wtype(w, op->res[0].type);
    return;
  case IR_OP_INLINE_ASM: {
    const ir_attr *s = ir_op_attr(op, "asm_string");
    NEED(s && s->kind == IR_A_STRING);
    wc(w, ' ');
    wstr(w, s->s, s->slen);
    wattr_dict(w, op->attrs, op->nattrs, SK_ASM);
    if (n) {
      wc(w, ' ');
      wvals(w, o, n);
      ws(w, " : ");
      wvtypes(w, o, n);
    }
    ws(w, " ->");
    for (int i = 0; i < op->nres; i++) {
      ws(w, i ? ", " : " ");
      wtype(w, op->res[i].type);
    }
    return;
  }
  case IR_OP_CF_BR:
    NEED(op->nsuccs == 1 && n == 0);
    wc(w, ' ');
    wsucc(w, &op->succs[0]);
    wattr_dict(w, op->attrs, op->nattrs, SK_NONE);
    return;
  case IR_OP_CF_COND_BR:
    NEED(op->nsuccs == 2 && n == 1);
    wc(w, ' ');
    wval(w, o[0]);
    ws(w, ", ");
    wsucc(w, &op->succs[0]);
    ws(w, ", ");
    wsucc(w, &op->succs[1]);
    wattr_dict(w, op->attrs, op->nattrs, SK_NONE);
    return;
  case IR_OP_SCF_FOR: {
    NEED(op->nregions == 1 && n >= 3 && op->nres == n - 3 && op->regions[0].nblocks >= 1 &&
         op->regions[0].blocks[0]->nargs == n - 2);
    const ir_block *e = op->regions[0].blocks[0];
    if (ir_op_attr(op, "unsignedCmp")) ws(w, " unsigned");
    wc(w, ' ');
    wval(w, &e->args[0]);
    ws(w, " = ");
    wval(w, o[0]);
    ws(w, " to ");
    wval(w, o[1]);
    ws(w, " step ");
    wval(w, o[2]);
    if (n > 3) {
      ws(w, " iter_args(");
      for (int i = 3; i < n; i++) {
        if (i > 3) ws(w, ", ");
        wval(w, &e->args[i - 2]);
        ws(w, " = ");
        wval(w, o[i]);
      }
      ws(w, ") -> (");
      for (int i = 0; i < op->nres; i++) {
        if (i) ws(w, ", ");
        wtype(w, op->res[i].type);
      }
      wc(w, ')');
    }
    ws(w, "  : ");
    wtype(w, e->args[0].type);
    wc(w, ' ');
    wregion(w, &op->regions[0], ind, false);
    wattr_dict(w, op->attrs, op->nattrs, SK_FOR);
    return;
  }
  case IR_OP_SCF_IF:
    NEED(op->nregions == 2 && n == 1);
    wc(w, ' ');
    wval(w, o[0]);
    if (op->nres) {
      ws(w, " -> (");
      for (int i = 0; i < op->nres; i++) {
        if (i) ws(w, ", ");
        wtype(w, op->res[i].type);
      }
      wc(w, ')');
    }
    wc(w, ' ');
    wregion(w, &op->regions[0], ind, false);
    if (op->regions[1].nblocks) {
      ws(w, " else ");
      wregion(w, &op->regions[1], ind, false);
    }
    wattr_dict(w, op->attrs, op->nattrs, SK_NONE);
    return;
  case IR_OP_SCF_WHILE: {
    NEED(op->nregions == 2 && op->regions[0].nblocks >= 1 && op->regions[0].blocks[0]->nargs == n);
    const ir_block *e = op->regions[0].blocks[0];
    if (n) { /* MLIR omits the empty init list: `scf.while : () -> () {` */
      ws(w, " (");
      for (int i = 0; i < n; i++) {
        if (i) ws(w, ", ");
        wval(w, &e->args[i]);
        ws(w, " = ");
        wval(w, o[i]);
      }
      ws(w, ")");
    }
    ws(w, " : ");
    wfntype(w, op, 0, n);
    wc(w, ' ');
    wregion(w, &op->regions[0], ind, false);
    ws(w, " do ");
    wregion(w, &op->regions[1], ind, true);
    if (op->nattrs) {
      ws(w, " attributes");
      wattr_dict(w, op->attrs, op->nattrs, SK_NONE);
    }
    return;
  }
  default:
    wbad(w, "no custom printer");
    return;
  }
}

static bool is_prop(ir_opcode c, const char *name)
{
  switch (c) {
  case IR_OP_REDUCE: return !strcmp(name, "axis") || !strcmp(name, "reduction_ordering");
  case IR_OP_SCAN: return !strcmp(name, "axis") || !strcmp(name, "reverse");
  case IR_OP_MAP_ELEMENTWISE: return !strcmp(name, "pack");
  default: return false;
  }
}

static void wgeneric(W *w, const ir_op *op, int ind)
{
  wc(w, '"');
  ws(w, ir_op_label(op));
  ws(w, "\"(");
  wvals(w, op->opnds, op->nopnds);
  wc(w, ')');
  bool open = false;
  for (int i = 0; i < op->nattrs; i++) {
    if (!is_prop(op->code, op->attrs[i].name)) continue;
    ws(w, open ? ", " : " <{");
    open = true;
    ws(w, op->attrs[i].name);
    if (op->attrs[i].kind != IR_A_UNIT) {
      ws(w, " = ");
      wattr(w, &op->attrs[i]);
    }
  }
  if (open) ws(w, "}>");
  if (op->nregions) {
    ws(w, " (");
    for (int r = 0; r < op->nregions; r++) {
      if (r) ws(w, ", ");
      wregion(w, &op->regions[r], ind, true);
    }
    wc(w, ')');
  }
  open = false;
  for (int i = 0; i < op->nattrs; i++) {
    if (is_prop(op->code, op->attrs[i].name)) continue;
    ws(w, open ? ", " : " {");
    open = true;
    if (bare_id(op->attrs[i].name)) ws(w, op->attrs[i].name);
    else wstr(w, op->attrs[i].name, strlen(op->attrs[i].name));
    if (op->attrs[i].kind != IR_A_UNIT) {
      ws(w, " = ");
      wattr(w, &op->attrs[i]);
    }
  }
  if (open) wc(w, '}');
  ws(w, " : ");
  wfntype(w, op, 0, op->nopnds);
  if (op->nsuccs) wbad(w, "generic op with successors");
}

static void wop(W *w, const ir_op *op, int ind)
{
  wind(w, ind);
  if (op->nres) {
    if (op->group) {
      wc(w, '%');
      ws(w, op->group);
      wf(w, ":%d", op->nres);
    } else {
      for (int i = 0; i < op->nres; i++) {
        if (i) ws(w, ", ");
        wval(w, &op->res[i]);
      }
    }
    ws(w, " = ");
  }
  if (op->code == IR_OP_REDUCE || op->code == IR_OP_SCAN || op->code == IR_OP_MAP_ELEMENTWISE || op->code == IR_OP_VENDOR)
    wgeneric(w, op, ind);
  else wcustom(w, op, ind);
  wloc(w, op->loc);
  wc(w, '\n');
  if (w->h && w->h->after_op) {
    const char *t = w->h->after_op(w->h->ctx, op);
    if (t) ws(w, t);
  }
}

static void wblock_args(W *w, const ir_block *b)
{
  wc(w, '(');
  for (int i = 0; i < b->nargs; i++) {
    if (i) ws(w, ", ");
    wval(w, &b->args[i]);
    ws(w, ": ");
    wtype(w, b->args[i].type);
    wloc(w, b->args[i].loc);
  }
  wc(w, ')');
}

/* region -> '{' NL blocks '}' ; ind is the indentation of the owning op */
static void wregion(W *w, const ir_region *r, int ind, bool entry_args)
{
  ws(w, "{\n");
  /* MLIR elides an empty scf.yield that ends the only block of a result-less scf.for / scf.if;
   * with more blocks, or another yield before it (invalid IR), printing it keeps fmt idempotent */
  bool elide_term = r->parent && (r->parent->code == IR_OP_SCF_FOR || r->parent->code == IR_OP_SCF_IF) &&
                    r->parent->nres == 0 && r->nblocks == 1;
  if (elide_term)
    for (int i = 0; i + 1 < r->blocks[0]->nops; i++)
      if (r->blocks[0]->ops[i]->code == IR_OP_SCF_YIELD) elide_term = false;
  for (int b = 0; b < r->nblocks; b++) {
    const ir_block *blk = r->blocks[b];
    if (b > 0 || (entry_args && (blk->nargs || blk->label))) {
      wind(w, ind);
      wc(w, '^');
      if (blk->label) ws(w, blk->label);
      else wf(w, "bb%d", b);
      if (blk->nargs) wblock_args(w, blk);
      ws(w, ":\n");
    }
    if (b == 0 && !r->parent && w->h && w->h->prologue) {
      const char *t = w->h->prologue(w->h->ctx, r->func);
      if (t) ws(w, t);
    }
    for (int i = 0; i < blk->nops; i++) {
      const ir_op *op = blk->ops[i];
      if (elide_term && i == blk->nops - 1 && implicit_yield(op)) continue;
      wop(w, op, ind + 2);
    }
  }
  wind(w, ind);
  wc(w, '}');
}

static void wfunc(W *w, const ir_func *f)
{
  ws(w, "  tt.func ");
  ws(w, f->is_public ? "public " : "private ");
  wsym(w, f->name);
  wc(w, '(');
  for (int i = 0; i < f->nargs; i++) {
    if (i) ws(w, ", ");
    wval(w, &f->args[i]);
    ws(w, ": ");
    wtype(w, f->args[i].type);
    if (f->arg_nattrs && f->arg_nattrs[i]) wattr_dict(w, f->arg_attrs[i], f->arg_nattrs[i], SK_NONE);
    wloc(w, f->args[i].loc);
  }
  if (w->h && w->h->extra_args) {
    const char *t = w->h->extra_args(w->h->ctx, f);
    if (t) ws(w, t);
  }
  wc(w, ')');
  if (f->nres) {
    ws(w, " -> ");
    if (f->nres > 1) wc(w, '(');
    for (int i = 0; i < f->nres; i++) {
      if (i) ws(w, ", ");
      wtype(w, f->res_types[i]);
    }
    if (f->nres > 1) wc(w, ')');
  }
  if (f->nattrs) {
    ws(w, " attributes");
    wattr_dict(w, f->attrs, f->nattrs, SK_NONE);
  }
  wc(w, ' ');
  wregion(w, &f->body, 2, false);
  wloc(w, f->loc);
  wc(w, '\n');
}

/* ---- alias placement -------------------------------------------------------- */
typedef struct AP {
  const ir_module *m;
  int *slot;    /* name hash -> alias index */
  size_t cap;
  char *early;  /* alias must precede the module (nested use) */
  char *done;   /* printed */
  int *stack;
  int oom;
} AP;

static uint32_t h32(const char *s)
{
  uint32_t h = 2166136261u;
  for (; *s; s++) h = (h ^ (unsigned char)*s) * 16777619u;
  return h;
}
static int ap_find(const AP *a, const char *name)
{
  if (!a->cap) return -1;
  for (size_t i = h32(name) & (a->cap - 1);; i = (i + 1) & (a->cap - 1)) {
    int k = a->slot[i];
    if (k < 0) return -1;
    if (!strcmp(a->m->aliases[k].name, name)) return k;
  }
}

/* mark aliases referenced at nested positions of a loc tree (top = the whole loc) */
static void ap_mark(AP *a, const ir_loc *l, bool top, int depth)
{
  if (!l || depth > 300) return;
  switch (l->kind) {
  case IR_L_ALIAS:
    if (!top) {
      int k = ap_find(a, l->str);
      if (k >= 0) a->early[k] = 1;
    }
    return;
  case IR_L_NAME: ap_mark(a, l->a, false, depth + 1); return;
  case IR_L_CALLSITE:
    ap_mark(a, l->a, false, depth + 1);
    ap_mark(a, l->b, false, depth + 1);
    return;
  case IR_L_FUSED:
    for (int i = 0; i < l->nitems; i++) ap_mark(a, l->items[i], false, depth + 1);
    return;
  default: return;
  }
}

static void ap_region(AP *a, const ir_region *r)
{
  for (int b = 0; b < r->nblocks; b++) {
    const ir_block *blk = r->blocks[b];
    for (int i = 0; i < blk->nargs; i++) ap_mark(a, blk->args[i].loc, true, 0);
    for (int i = 0; i < blk->nops; i++) {
      ap_mark(a, blk->ops[i]->loc, true, 0);
      for (int k = 0; k < blk->ops[i]->nregions; k++) ap_region(a, &blk->ops[i]->regions[k]);
    }
  }
}

/* visit alias dependencies (refs inside a definition) */
typedef void (*ap_fn)(AP *a, int k, void *ud);
static void ap_deps(AP *a, const ir_loc *l, int depth, int *out, int *nout, int cap)
{
  if (!l || depth > 300) return;
  switch (l->kind) {
  case IR_L_ALIAS: {
    int k = ap_find(a, l->str);
    if (k >= 0 && *nout < cap) out[(*nout)++] = k;
    return;
  }
  case IR_L_NAME: ap_deps(a, l->a, depth + 1, out, nout, cap); return;
  case IR_L_CALLSITE:
    ap_deps(a, l->a, depth + 1, out, nout, cap);
    ap_deps(a, l->b, depth + 1, out, nout, cap);
    return;
  case IR_L_FUSED:
    for (int i = 0; i < l->nitems; i++) ap_deps(a, l->items[i], depth + 1, out, nout, cap);
    return;
  default: return;
  }
}

static void walias(W *w, const ir_alias *al)
{
  wc(w, '#');
  ws(w, al->name);
  ws(w, " = ");
  if (al->loc) {
    ws(w, "loc(");
    wlocinst(w, al->loc);
    wc(w, ')');
  } else {
    ws(w, al->text ? al->text : "unit");
  }
  wc(w, '\n');
}

/* print loc alias k after its dependencies (iterative DFS, post-order) */
static void ap_print(AP *a, W *w, int root, bool want_early)
{
  if (a->done[root] || !!a->early[root] != want_early || !a->m->aliases[root].loc) return;
  int sp = 0;
  enum { DEPCAP = 64 };
  /* stack frames: alias index; deps recomputed on revisit (cheap, trees are small) */
  a->stack[sp++] = root;
  a->done[root] = 2; /* in progress */
  while (sp) {
    int k = a->stack[sp - 1];
    int deps[DEPCAP], nd = 0;
    ap_deps(a, a->m->aliases[k].loc, 0, deps, &nd, DEPCAP);
    int pushed = 0;
    for (int i = 0; i < nd; i++) {
      int d = deps[i];
      if (!a->done[d] && a->m->aliases[d].loc) {
        a->done[d] = 2;
        a->stack[sp++] = d;
        pushed = 1;
        break;
      }
    }
    if (pushed) continue;
    sp--;
    a->done[k] = 1;
    walias(w, &a->m->aliases[k]);
  }
}

/* early = nested-use aliases plus everything they depend on */
static void ap_close_early(AP *a)
{
  int n = a->m->naliases, sp = 0;
  for (int k = 0; k < n; k++)
    if (a->early[k]) a->stack[sp++] = k;
  while (sp) {
    int k = a->stack[--sp];
    int deps[64], nd = 0;
    ap_deps(a, a->m->aliases[k].loc, 0, deps, &nd, 64);
    for (int i = 0; i < nd; i++)
      if (!a->early[deps[i]]) {
        a->early[deps[i]] = 1;
        a->stack[sp++] = deps[i];
      }
  }
}

ttref_status ir_print_module(const ir_module *m, FILE *out, ttref_error *err)
{
  return ir_print_module_hooked(m, out, NULL, err);
}

ttref_status ir_print_module_hooked(const ir_module *m, FILE *out, const ir_print_hooks *h, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  ttref_loc nl = {m ? m->filename : NULL, 0, 0};
  AP a = {0};
  W *w = ir_alloc(sizeof(W));
  if (!w) FAIL(ir_error_set(err, TTREF_E_NOMEM, nl, "out of memory"));
  w->f = out;
  w->n = 0;
  w->bad = w->internal = 0;
  w->why = NULL;
  w->h = h;
  int na = m->naliases;
  a.m = m;
  if (na) {
    a.cap = 16;
    while (a.cap < (size_t)na * 2) a.cap *= 2;
    a.slot = ir_alloc(a.cap * sizeof(int));
    a.early = ir_calloc((size_t)na, 1);
    a.done = ir_calloc((size_t)na, 1);
    a.stack = ir_alloc(sizeof(int) * (size_t)na);
    if (!a.slot || !a.early || !a.done || !a.stack) FAIL(ir_error_set(err, TTREF_E_NOMEM, nl, "out of memory"));
    for (size_t i = 0; i < a.cap; i++) a.slot[i] = -1;
    for (int k = 0; k < na; k++) {
      size_t i = h32(m->aliases[k].name) & (a.cap - 1);
      while (a.slot[i] >= 0) i = (i + 1) & (a.cap - 1);
      a.slot[i] = k;
    }
    ap_mark(&a, m->loc, true, 0);
    for (int f = 0; f < m->nfuncs; f++) {
      ap_mark(&a, m->funcs[f]->loc, true, 0);
      ap_region(&a, &m->funcs[f]->body);
    }
    ap_close_early(&a);
    for (int k = 0; k < na; k++)
      if (!m->aliases[k].loc) walias(w, &m->aliases[k]);
    for (int k = 0; k < na; k++) ap_print(&a, w, k, true);
  }
  ws(w, "module");
  if (m->nattrs) {
    ws(w, " attributes");
    wattr_dict(w, m->attrs, m->nattrs, SK_NONE);
  }
  ws(w, " {\n");
  for (int f = 0; f < m->nfuncs; f++) wfunc(w, m->funcs[f]);
  wc(w, '}');
  wloc(w, m->loc);
  wc(w, '\n');
  for (int k = 0; k < na; k++) ap_print(&a, w, k, false);
  wflush(w);
  if (fflush(out) != 0) w->bad = 1;
  if (w->internal) FAIL(ir_error_set(err, TTREF_E_INTERNAL, nl, "cannot print module: %s", w->why));
  if (w->bad) FAIL(ir_error_set(err, TTREF_E_IO, nl, "write error while printing"));
fail:
  if (w) ir_free(w, sizeof(W));
  ir_free(a.slot, a.cap * sizeof(int));
  ir_free(a.early, (size_t)(m ? m->naliases : 0));
  ir_free(a.done, (size_t)(m ? m->naliases : 0));
  ir_free(a.stack, sizeof(int) * (size_t)(m ? m->naliases : 0));
  return st;
}
