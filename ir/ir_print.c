/*
 * ir_print.c: core IR to canonical TTIR text. Output goes through one
 * buffered writer; loc aliases keep their names and are placed so that
 * MLIR's parser sees each definition before any nested use. The custom
 * format of each op is in ir_print_op.c.
 */
#include "config.h"
#include "ir_print_impl.h"
void irw_wf(W *w, const char *fmt, ...)
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
void irw_wbad(W *w, const char *why)
{
  if (!w->internal) w->why = why;
  w->internal = 1;
}

/* ---- types ------------------------------------------------------------------ */
void irw_wtype(W *w, const ir_type *t)
{
  if (!t) {
    irw_wbad(w, "value without a type");
    ws(w, "none");
    return;
  }
  switch (t->kind) {
  case IR_T_SCALAR: ws(w, ir_scalar_name(t->scalar)); return;
  case IR_T_PTR:
    ws(w, "!tt.ptr<");
    irw_wtype(w, t->elem);
    if (t->addrspace != 1) irw_wf(w, ", %d", t->addrspace);
    wc(w, '>');
    return;
  case IR_T_TENSOR:
    ws(w, "tensor<");
    for (int i = 0; i < t->rank; i++) irw_wf(w, "%lldx", (long long)t->shape[i]);
    irw_wtype(w, t->elem);
    wc(w, '>');
    return;
  case IR_T_DESC:
    ws(w, "!tt.tensordesc<");
    if (t->desc_sign && t->elem && t->elem->kind == IR_T_TENSOR) {
      ws(w, "tensor<");
      for (int i = 0; i < t->elem->rank; i++) irw_wf(w, "%lldx", (long long)t->elem->shape[i]);
      ws(w, t->desc_sign == 1 ? "si" : "ui");
      ws(w, ir_scalar_name(t->elem->scalar) + 1);
      wc(w, '>');
    } else {
      irw_wtype(w, t->elem);
    }
    wc(w, '>');
    return;
  }
  irw_wbad(w, "invalid type");
}

/* ---- strings, names -------------------------------------------------------------- */
void irw_wstr(W *w, const char *s, size_t n)
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
    if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') || *s == '_' || *s == '$' ||
          *s == '.'))
      return false;
  return true;
}
void irw_wsym(W *w, const char *s)
{
  wc(w, '@');
  if (bare_id(s)) ws(w, s);
  else irw_wstr(w, s, strlen(s));
}
void irw_wval(W *w, const ir_value *v)
{
  wc(w, '%');
  ws(w, v && v->name ? v->name : "<null>");
  if (!v) irw_wbad(w, "null operand");
}
void irw_wvals(W *w, ir_value *const *v, int n)
{
  for (int i = 0; i < n; i++) {
    if (i) ws(w, ", ");
    irw_wval(w, v[i]);
  }
}
void irw_wvtypes(W *w, ir_value *const *v, int n)
{
  for (int i = 0; i < n; i++) {
    if (i) ws(w, ", ");
    irw_wtype(w, v[i] ? v[i]->type : NULL);
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
    irw_wbad(w, "non-finite decimal float");
    ws(w, "0.0");
    return;
  }
  fmt_double(d, b, sizeof b);
  ws(w, b);
}
static void whex(W *w, int64_t bits) { irw_wf(w, "0x%" PRIX64, (uint64_t)bits); }

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
    irw_wstr(w, l->str, strlen(l->str));
    irw_wf(w, ":%d:%d", l->line, l->col);
    return;
  case IR_L_NAME:
    irw_wstr(w, l->str, strlen(l->str));
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

static void wdense_elem(W *w, const ir_attr *a, int64_t i)
{
  const ir_type *et = a->type && a->type->kind == IR_T_TENSOR ? a->type->elem : NULL;
  ir_scalar s = et ? et->scalar : IR_S_I64;
  if (a->hex) whex(w, a->vals[i].i);
  else if (ir_scalar_is_float(s)) wdouble(w, a->vals[i].f);
  else if (s == IR_S_I1) ws(w, a->vals[i].i ? "true" : "false");
  else irw_wf(w, "%lld", (long long)a->vals[i].i);
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

void irw_wattr(W *w, const ir_attr *a)
{
  switch (a->kind) {
  case IR_A_UNIT: ws(w, "unit"); return;
  case IR_A_BOOL: ws(w, a->i ? "true" : "false"); return;
  case IR_A_INT:
    irw_wf(w, "%lld", (long long)a->i);
    if (a->type) {
      ws(w, " : ");
      irw_wtype(w, a->type);
    }
    return;
  case IR_A_FLOAT:
    if (a->hex) whex(w, a->i);
    else wdouble(w, a->f);
    if (a->type) {
      ws(w, " : ");
      irw_wtype(w, a->type);
    }
    return;
  case IR_A_STRING: irw_wstr(w, a->s, a->slen); return;
  case IR_A_ENUM: irw_wf(w, "%lld : i32", (long long)a->i); return;
  case IR_A_ARRAY:
    ws(w, "array<");
    irw_wtype(w, a->type);
    for (int i = 0; i < a->nints; i++) {
      ws(w, i ? ", " : ": ");
      if (a->type && a->type->scalar == IR_S_I1) ws(w, a->ints[i] ? "true" : "false");
      else irw_wf(w, "%lld", (long long)a->ints[i]);
    }
    wc(w, '>');
    return;
  case IR_A_DENSE: {
    ws(w, "dense<");
    if (!a->type || a->type->kind != IR_T_TENSOR) {
      irw_wbad(w, "dense attribute without a tensor type");
    } else if (a->nvals == 1 && (a->splat || a->type->numel == 1) && a->type->rank == 0) {
      wdense_elem(w, a, 0);
    } else if (a->splat || (a->nvals == 1 && a->type->numel != 1)) {
      wdense_elem(w, a, 0);
    } else if (a->nvals != a->type->numel) {
      irw_wbad(w, "dense attribute element count does not match its type");
    } else if (a->nvals == 1) {
      wdense_elem(w, a, 0);
    } else {
      int64_t idx = 0;
      wdense_rec(w, a, 0, &idx);
    }
    ws(w, "> : ");
    irw_wtype(w, a->type);
    return;
  }
  case IR_A_TYPE: irw_wtype(w, a->type); return;
  case IR_A_DICT:
    wc(w, '{');
    for (int i = 0; i < a->nitems; i++) {
      if (i) ws(w, ", ");
      const ir_attr *it = &a->items[i];
      if (bare_id(it->name)) ws(w, it->name);
      else irw_wstr(w, it->name, strlen(it->name));
      if (it->kind != IR_A_UNIT) {
        ws(w, " = ");
        irw_wattr(w, it);
      }
    }
    wc(w, '}');
    return;
  case IR_A_LIST:
    wc(w, '[');
    for (int i = 0; i < a->nitems; i++) {
      if (i) ws(w, ", ");
      irw_wattr(w, &a->items[i]);
    }
    wc(w, ']');
    return;
  case IR_A_SYMBOL: irw_wsym(w, a->s); return;
  case IR_A_OPAQUE: wmem(w, a->s, a->slen); return;
  }
  irw_wbad(w, "invalid attribute");
}

/* ' {a = 1, b}' without the names in skip (NULL-terminated) */
void irw_wattr_dict(W *w, const ir_attr *attrs, int n, const char *const *skip)
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
    else irw_wstr(w, a->name, strlen(a->name));
    if (a->kind != IR_A_UNIT) {
      ws(w, " = ");
      irw_wattr(w, a);
    }
  }
  if (open) wc(w, '}');
}

/* ---- ops -------------------------------------------------------------------- */
static void wop(W *w, const ir_op *op, int ind);

static void wfntype_res(W *w, const ir_op *op)
{
  if (op->nres == 1 && op->res[0].type) {
    irw_wtype(w, op->res[0].type);
    return;
  }
  wc(w, '(');
  for (int i = 0; i < op->nres; i++) {
    if (i) ws(w, ", ");
    irw_wtype(w, op->res[i].type);
  }
  wc(w, ')');
}
void irw_wfntype(W *w, const ir_op *op, int first, int n)
{
  wc(w, '(');
  for (int i = 0; i < n; i++) {
    if (i) ws(w, ", ");
    irw_wtype(w, op->opnds[first + i]->type);
  }
  ws(w, ") -> ");
  wfntype_res(w, op);
}

const char *irw_attr_s(const ir_op *op, const char *name)
{
  const ir_attr *a = ir_op_attr(op, name);
  return a && a->s ? a->s : NULL;
}

void irw_wflags(W *w, const ir_op *op)
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
      irw_wbad(w, "unexpected arith flag attribute");
    }
  }
}

void irw_wsucc(W *w, const ir_succ *s)
{
  wc(w, '^');
  ws(w, s->block && s->block->label ? s->block->label : "<null>");
  if (!s->block || !s->block->label) irw_wbad(w, "successor without label");
  if (s->nargs) {
    wc(w, '(');
    irw_wvals(w, s->args, s->nargs);
    ws(w, " : ");
    irw_wvtypes(w, s->args, s->nargs);
    wc(w, ')');
  }
}

static bool implicit_yield(const ir_op *op)
{
  return op->code == IR_OP_SCF_YIELD && op->nopnds == 0 && !op->loc && op->nattrs == 0;
}

static bool is_prop(ir_opcode c, const char *name)
{
  if (c == IR_OP_REDUCE) return !strcmp(name, "axis") || !strcmp(name, "reduction_ordering");
  if (c == IR_OP_SCAN) return !strcmp(name, "axis") || !strcmp(name, "reverse");
  if (c == IR_OP_MAP_ELEMENTWISE) return !strcmp(name, "pack");
  return false;
}

static void wgeneric(W *w, const ir_op *op, int ind)
{
  wc(w, '"');
  ws(w, ir_op_label(op));
  ws(w, "\"(");
  irw_wvals(w, op->opnds, op->nopnds);
  wc(w, ')');
  bool open = false;
  for (int i = 0; i < op->nattrs; i++) {
    if (!is_prop(op->code, op->attrs[i].name)) continue;
    ws(w, open ? ", " : " <{");
    open = true;
    ws(w, op->attrs[i].name);
    if (op->attrs[i].kind != IR_A_UNIT) {
      ws(w, " = ");
      irw_wattr(w, &op->attrs[i]);
    }
  }
  if (open) ws(w, "}>");
  if (op->nregions) {
    ws(w, " (");
    for (int r = 0; r < op->nregions; r++) {
      if (r) ws(w, ", ");
      irw_wregion(w, &op->regions[r], ind, true);
    }
    wc(w, ')');
  }
  open = false;
  for (int i = 0; i < op->nattrs; i++) {
    if (is_prop(op->code, op->attrs[i].name)) continue;
    ws(w, open ? ", " : " {");
    open = true;
    if (bare_id(op->attrs[i].name)) ws(w, op->attrs[i].name);
    else irw_wstr(w, op->attrs[i].name, strlen(op->attrs[i].name));
    if (op->attrs[i].kind != IR_A_UNIT) {
      ws(w, " = ");
      irw_wattr(w, &op->attrs[i]);
    }
  }
  if (open) wc(w, '}');
  ws(w, " : ");
  irw_wfntype(w, op, 0, op->nopnds);
  if (op->nsuccs) irw_wbad(w, "generic op with successors");
}

static void wop(W *w, const ir_op *op, int ind)
{
  wind(w, ind);
  if (op->nres) {
    if (op->group) {
      wc(w, '%');
      ws(w, op->group);
      irw_wf(w, ":%d", op->nres);
    } else {
      for (int i = 0; i < op->nres; i++) {
        if (i) ws(w, ", ");
        irw_wval(w, &op->res[i]);
      }
    }
    ws(w, " = ");
  }
  if (op->code == IR_OP_REDUCE || op->code == IR_OP_SCAN || op->code == IR_OP_MAP_ELEMENTWISE ||
      op->code == IR_OP_VENDOR)
    wgeneric(w, op, ind);
  else irw_wcustom(w, op, ind);
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
    irw_wval(w, &b->args[i]);
    ws(w, ": ");
    irw_wtype(w, b->args[i].type);
    wloc(w, b->args[i].loc);
  }
  wc(w, ')');
}

/* region -> '{' NL blocks '}' ; ind is the indentation of the owning op */
void irw_wregion(W *w, const ir_region *r, int ind, bool entry_args)
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
      else irw_wf(w, "bb%d", b);
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
  irw_wsym(w, f->name);
  wc(w, '(');
  for (int i = 0; i < f->nargs; i++) {
    if (i) ws(w, ", ");
    irw_wval(w, &f->args[i]);
    ws(w, ": ");
    irw_wtype(w, f->args[i].type);
    if (f->arg_nattrs && f->arg_nattrs[i]) irw_wattr_dict(w, f->arg_attrs[i], f->arg_nattrs[i], SK_NONE);
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
      irw_wtype(w, f->res_types[i]);
    }
    if (f->nres > 1) wc(w, ')');
  }
  if (f->nattrs) {
    ws(w, " attributes");
    irw_wattr_dict(w, f->attrs, f->nattrs, SK_NONE);
  }
  wc(w, ' ');
  irw_wregion(w, &f->body, 2, false);
  wloc(w, f->loc);
  wc(w, '\n');
}

/* ---- alias placement -------------------------------------------------------- */
typedef struct AP {
  const ir_module *m;
  int *slot; /* name hash -> alias index */
  size_t cap;
  char *early; /* alias must precede the module (nested use) */
  char *done;  /* printed */
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
    irw_wattr_dict(w, m->attrs, m->nattrs, SK_NONE);
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
