/*
 * conform_coverage.c: the coverage matrix. Every op of every item's kernel
 * becomes one (op, dtype, attribute) cell paired with the item; the pairs are
 * sorted once, so the matrix costs O(P log P) for P pairs, and written as
 * Markdown with the ops and expected cells nobody covers.
 */
#include "config.h"
#include "conform_coverage.h"
#include "conform_suite.h"
#include "ir_base_fs.h"
#include "ir.h"
#include "ir_parse.h"

#include <stdlib.h>
#include <string.h>

typedef struct pair {
  int op;
  char dtype[40];
  char attr[72];
  int item; /* index into the item names */
} pair;

typedef struct cov {
  pair *v;
  size_t n, cap;
  char **items; /* "suite/case[variant]" */
  int nitems, icap;
  ttref_error *err;
} cov;

static const char *elem_name(const ir_type *t)
{
  if (!t) return "";
  if (t->kind == IR_T_DESC) return "desc";
  if (t->kind == IR_T_PTR) return "ptr";
  const ir_type *e = ir_type_elem(t);
  if (e->kind == IR_T_PTR) return "ptr";
  return ir_scalar_name(e->scalar);
}

/* pointee element of a pointer (or tensor of pointers, or block pointer) */
static const char *pointee_name(const ir_type *t)
{
  const ir_type *p = ir_type_elem(t);
  if (p->kind != IR_T_PTR || !p->elem) return elem_name(t);
  return elem_name(p->elem);
}

/* the conversions, whose dtype cell is "from->to": the rows of a cast syntax (ir_op_list.h),
 * tt.fp_to_fp and tt.bitcast */
static bool is_cast(ir_opcode c)
{
  const ir_syntax s = ir_op_syntax(c);
  return s == IR_SYN_CAST || s == IR_SYN_CAST_RM || c == IR_OP_FP_TO_FP || c == IR_OP_TT_BITCAST;
}

static void cell_dtype(const ir_op *op, char *buf, size_t n)
{
  const ir_type *r = op->nres ? op->res[0].type : NULL;
  const ir_type *a = op->nopnds ? op->opnds[0]->type : NULL;
  if (is_cast(op->code) && r && a) snprintf(buf, n, "%s->%s", elem_name(a), elem_name(r));
  else if ((op->code == IR_OP_DOT || op->code == IR_OP_DOT_SCALED) && r && a)
    snprintf(buf, n, "%s->%s", elem_name(a), elem_name(r));
  else if ((op->code == IR_OP_CMPI || op->code == IR_OP_CMPF) && a) snprintf(buf, n, "%s", elem_name(a));
  else if ((op->code == IR_OP_STORE || op->code == IR_OP_ATOMIC_RMW || op->code == IR_OP_ATOMIC_CAS) && a)
    snprintf(buf, n, "%s", pointee_name(a));
  else if (r) snprintf(buf, n, "%s", elem_name(r));
  else if (a) snprintf(buf, n, "%s", elem_name(a));
  else buf[0] = 0;
}

static size_t attr_text(const ir_op *op, const char *name, const char *dflt, char *buf, size_t n)
{
  const ir_attr *a = ir_op_attr(op, name);
  if (!a) return (size_t)snprintf(buf, n, "%s=%s", name, dflt);
  if (a->kind == IR_A_ENUM && a->s) return (size_t)snprintf(buf, n, "%s=%.*s", name, (int)a->slen, a->s);
  if (a->kind == IR_A_BOOL) return (size_t)snprintf(buf, n, "%s=%s", name, a->i ? "true" : "false");
  if (a->kind == IR_A_UNIT) return (size_t)snprintf(buf, n, "%s=true", name);
  return (size_t)snprintf(buf, n, "%s=%lld", name, (long long)a->i);
}

/* The attribute values that change what @p op computes, as "k=v,k=v" ("" when none). */
static void cell_attr(const ir_op *op, char *buf, size_t n)
{
  static const char *const axes[] = {"x", "y", "z"};
  buf[0] = 0;
  switch (op->code) {
  case IR_OP_CMPI:
  case IR_OP_CMPF: attr_text(op, "predicate", "?", buf, n); break;
  case IR_OP_FP_TO_FP:
    if (ir_op_attr(op, "rounding")) attr_text(op, "rounding", "", buf, n);
    break;
  case IR_OP_DOT: attr_text(op, "inputPrecision", "ieee", buf, n); break;
  case IR_OP_ATOMIC_RMW: attr_text(op, "atomic_rmw_op", "?", buf, n); break;
  case IR_OP_CLAMPF: attr_text(op, "propagateNan", "none", buf, n); break;
  case IR_OP_REDUCE: attr_text(op, "axis", "0", buf, n); break;
  case IR_OP_SCAN: {
    size_t l = attr_text(op, "axis", "0", buf, n);
    if (l < n) attr_text(op, "reverse", "false", buf + l + 1, n - l - 1), buf[l] = ',';
    break;
  }
  case IR_OP_GET_PROGRAM_ID:
  case IR_OP_GET_NUM_PROGRAMS: {
    int64_t ax = ir_op_attr_int(op, "axis", 0);
    snprintf(buf, n, "axis=%s", ax >= 0 && ax < 3 ? axes[ax] : "?");
    break;
  }
  case IR_OP_LOAD: {
    const ir_attr *bc = ir_op_attr(op, "boundaryCheck");
    int64_t pad = ir_op_attr_int(op, "padding", 0);
    snprintf(buf, n, "%s%s%s",
             op->nopnds >= 3   ? "mask+other"
             : op->nopnds == 2 ? "mask"
                               : "unmasked",
             bc && bc->nints ? ",boundaryCheck" : "", pad == IR_PAD_NAN ? ",padding=nan" : "");
    break;
  }
  case IR_OP_STORE: snprintf(buf, n, "%s", op->nopnds >= 3 ? "mask" : "unmasked"); break;
  case IR_OP_HISTOGRAM: snprintf(buf, n, "%s", op->nopnds >= 2 ? "mask" : "unmasked"); break;
  default: break;
  }
}

static ttref_status add_pair(cov *c, const ir_op *op, int item)
{
  ttref_status st = TTREF_OK;
  if (c->n == c->cap) {
    size_t nc = c->cap ? c->cap * 2 : 1024;
    pair *nv = ir_realloc(c->v, sizeof *nv * c->cap, sizeof *nv * nc);
    if (!nv) FAIL(IR_ERR(c->err, TTREF_E_NOMEM, (ttref_loc){0}, "out of memory"));
    c->v = nv;
    c->cap = nc;
  }
  pair *p = &c->v[c->n++];
  memset(p, 0, sizeof *p);
  p->op = (int)op->code;
  p->item = item;
  cell_dtype(op, p->dtype, sizeof p->dtype);
  cell_attr(op, p->attr, sizeof p->attr);
fail:
  return st;
}

static ttref_status walk_region(cov *c, const ir_region *r, int item)
{
  ttref_status st = TTREF_OK;
  for (int b = 0; b < r->nblocks; b++)
    for (int i = 0; i < r->blocks[b]->nops; i++) {
      const ir_op *op = r->blocks[b]->ops[i];
      TRY(add_pair(c, op, item));
      for (int k = 0; k < op->nregions; k++) TRY(walk_region(c, &op->regions[k], item));
    }
fail:
  return st;
}

static int pair_cmp(const void *a, const void *b)
{
  const pair *x = a, *y = b;
  int d;
  if (x->op != y->op) return x->op < y->op ? -1 : 1;
  if ((d = strcmp(x->dtype, y->dtype))) return d;
  if ((d = strcmp(x->attr, y->attr))) return d;
  return (x->item > y->item) - (x->item < y->item);
}

static bool same_cell(const pair *a, const pair *b)
{
  return a->op == b->op && strcmp(a->dtype, b->dtype) == 0 && strcmp(a->attr, b->attr) == 0;
}

/* ---- the expected matrix: dtypes and attribute values an op should be tested with ---- */

static const char *const INT_DT[] = {"i8", "i16", "i32", "i64", NULL};
static const char *const FLOAT_DT[] = {"f16", "bf16", "f32", "f64", NULL};
static const char *const MATH_DT[] = {"f32", "f64", NULL};
/* casts: "src->dst" pairs Triton emits (the dtype column of a cast cell) */
static const char *const EXTF_DT[] = {"f16->f32", "bf16->f32", "f16->f64", "bf16->f64", "f32->f64", NULL};
static const char *const TRUNCF_DT[] = {"f32->f16", "f32->bf16", "f64->f32", "f64->f16", "f64->bf16", NULL};
static const char *const FP8_DT[] = {"f32->f8E4M3FN",
                                     "f32->f8E5M2",
                                     "f16->f8E4M3FN",
                                     "f16->f8E5M2",
                                     "bf16->f8E4M3FN",
                                     "bf16->f8E5M2",
                                     "f8E4M3FN->f16",
                                     "f8E4M3FN->bf16",
                                     "f8E4M3FN->f32",
                                     "f8E5M2->f16",
                                     "f8E5M2->bf16",
                                     "f8E5M2->f32",
                                     NULL};
static const char *const ITOF_DT[] = {"i8->f16",  "i8->bf16",  "i8->f32",  "i8->f64",   "i16->f16", "i16->bf16",
                                      "i16->f32", "i16->f64",  "i32->f16", "i32->bf16", "i32->f32", "i32->f64",
                                      "i64->f16", "i64->bf16", "i64->f32", "i64->f64",  "i1->f32",  NULL};
static const char *const FTOI_DT[] = {"f16->i8",  "bf16->i8",  "f32->i8",  "f64->i8",   "f16->i16", "bf16->i16",
                                      "f32->i16", "f64->i16",  "f16->i32", "bf16->i32", "f32->i32", "f64->i32",
                                      "f16->i64", "bf16->i64", "f32->i64", "f64->i64",  NULL};
static const char *const EXTI_DT[] = {"i1->i32", "i8->i16",  "i8->i32",  "i16->i32",
                                      "i8->i64", "i16->i64", "i32->i64", NULL};
static const char *const TRUNCI_DT[] = {"i32->i1", "i16->i8",  "i32->i8",  "i32->i16",
                                        "i64->i8", "i64->i16", "i64->i32", NULL};
static const char *const CMPI_P[] = {"predicate=eq",
                                     "predicate=ne",
                                     "predicate=slt",
                                     "predicate=sle",
                                     "predicate=sgt",
                                     "predicate=sge",
                                     "predicate=ult",
                                     "predicate=ule",
                                     "predicate=ugt",
                                     "predicate=uge",
                                     NULL};
static const char *const CMPF_P[] = {
    "predicate=oeq", "predicate=ogt", "predicate=oge", "predicate=olt", "predicate=ole",
    "predicate=one", "predicate=ord", "predicate=ueq", "predicate=ugt", "predicate=uge",
    "predicate=ult", "predicate=ule", "predicate=une", "predicate=uno", NULL};
static const char *const RMW_K[] = {"atomic_rmw_op=and",
                                    "atomic_rmw_op=or",
                                    "atomic_rmw_op=xor",
                                    "atomic_rmw_op=add",
                                    "atomic_rmw_op=fadd",
                                    "atomic_rmw_op=max",
                                    "atomic_rmw_op=min",
                                    "atomic_rmw_op=umax",
                                    "atomic_rmw_op=umin",
                                    "atomic_rmw_op=exch",
                                    NULL};
static const char *const ROUND_K[] = {"rounding=rtne", "rounding=rtz", NULL};
static const char *const PREC_K[] = {"inputPrecision=tf32", "inputPrecision=tf32x3", "inputPrecision=ieee", NULL};
static const char *const NAN_K[] = {"propagateNan=none", "propagateNan=all", NULL};

static void expected(ir_opcode c, const char *const **dts, const char *const **attrs)
{
  *dts = NULL;
  *attrs = NULL;
  switch (c) {
  case IR_OP_ADDI:
  case IR_OP_SUBI:
  case IR_OP_MULI:
  case IR_OP_DIVSI:
  case IR_OP_DIVUI:
  case IR_OP_CEILDIVSI:
  case IR_OP_CEILDIVUI:
  case IR_OP_FLOORDIVSI:
  case IR_OP_REMSI:
  case IR_OP_REMUI:
  case IR_OP_ANDI:
  case IR_OP_ORI:
  case IR_OP_XORI:
  case IR_OP_SHLI:
  case IR_OP_SHRSI:
  case IR_OP_SHRUI:
  case IR_OP_MINSI:
  case IR_OP_MINUI:
  case IR_OP_MAXSI:
  case IR_OP_MAXUI:
  case IR_OP_MATH_ABSI:
  case IR_OP_MATH_CTPOP:
  case IR_OP_MATH_CTLZ:
  case IR_OP_MATH_CTTZ: *dts = INT_DT; break;
  case IR_OP_CMPI: *dts = INT_DT, *attrs = CMPI_P; break;
  case IR_OP_ADDF:
  case IR_OP_SUBF:
  case IR_OP_MULF:
  case IR_OP_DIVF:
  case IR_OP_REMF:
  case IR_OP_NEGF:
  case IR_OP_MAXNUMF:
  case IR_OP_MINNUMF:
  case IR_OP_MAXIMUMF:
  case IR_OP_MINIMUMF:
  case IR_OP_MATH_ABSF:
  case IR_OP_MATH_FMA: *dts = FLOAT_DT; break;
  case IR_OP_CMPF: *dts = FLOAT_DT, *attrs = CMPF_P; break;
  case IR_OP_CLAMPF: *dts = FLOAT_DT, *attrs = NAN_K; break;
  case IR_OP_ATOMIC_RMW: *attrs = RMW_K; break;
  case IR_OP_FP_TO_FP: *dts = FP8_DT, *attrs = ROUND_K; break;
  case IR_OP_EXTF: *dts = EXTF_DT; break;
  case IR_OP_TRUNCF: *dts = TRUNCF_DT; break;
  case IR_OP_SITOFP:
  case IR_OP_UITOFP: *dts = ITOF_DT; break;
  case IR_OP_FPTOSI:
  case IR_OP_FPTOUI: *dts = FTOI_DT; break;
  case IR_OP_EXTSI:
  case IR_OP_EXTUI: *dts = EXTI_DT; break;
  case IR_OP_TRUNCI: *dts = TRUNCI_DT; break;
  case IR_OP_DOT: *attrs = PREC_K; break;
  default: /* the math functions (math.* of rule SAME_FLOAT but absf and fma): Triton takes f32 and f64 */
    if (ir_op_type_rule(c) == IR_TR_SAME_FLOAT && strncmp(ir_op_name(c), "math.", 5) == 0) *dts = MATH_DT;
    break;
  }
}

/* ---- allow-list ---------------------------------------------------------------------- */

typedef struct allow_list {
  int reason_of[IR_OP_COUNT]; /* offset+1 of the reason in text, 0: not listed */
  char *text;
  size_t len;
  int nbad;
} allow_list;

static ttref_status allow_read(const char *path, allow_list *a, FILE *diag, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  memset(a, 0, sizeof *a);
  if (!path) goto fail;
  TRY(ir_fs_read_file(path, &a->text, &a->len, err));
  int line = 0;
  for (char *p = a->text; p && *p; line++) {
    char *nl = strchr(p, '\n');
    if (nl) *nl = 0;
    char *q = p + strspn(p, " \t");
    if (*q && *q != '#') {
      size_t l = strcspn(q, " \t");
      ir_opcode oc;
      char *reason = q + l + strspn(q + l, " \t");
      if (!ir_op_lookup(q, l, &oc)) {
        fprintf(diag, "%s:%d: '%.*s' is not an op of ir/ir_op_list.h\n", path, line + 1, (int)l, q);
        a->nbad++;
      } else if (!*reason) {
        fprintf(diag, "%s:%d: %s needs a reason\n", path, line + 1, ir_op_name(oc));
        a->nbad++;
      } else a->reason_of[oc] = (int)(reason - a->text) + 1;
    }
    p = nl ? nl + 1 : NULL;
  }
fail:
  return st;
}

/* ---- the matrix ----------------------------------------------------------------------- */

static void item_list(FILE *out, const cov *c, size_t from, size_t to, int max)
{
  int shown = 0, prev = -1;
  for (size_t i = from; i < to; i++) {
    if (c->v[i].item == prev) continue;
    prev = c->v[i].item;
    if (shown < max) fprintf(out, "%s`%s`", shown ? ", " : "", c->items[c->v[i].item]);
    shown++;
  }
  if (shown > max) fprintf(out, " (+%d more)", shown - max);
}

static bool cell_has(const cov *c, size_t from, size_t to, const char *dt, const char *attr)
{
  for (size_t i = from; i < to; i++)
    if ((!dt || strcmp(c->v[i].dtype, dt) == 0) && (!attr || strcmp(c->v[i].attr, attr) == 0)) return true;
  return false;
}

static ttref_status add_item(cov *c, const char *name, int *out, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  if (c->nitems == c->icap) {
    int nc = c->icap ? c->icap * 2 : 256;
    char **ni = ir_realloc(c->items, sizeof *ni * (size_t)c->icap, sizeof *ni * (size_t)nc);
    if (!ni) FAIL(IR_ERR(err, TTREF_E_NOMEM, (ttref_loc){0}, "out of memory"));
    c->items = ni;
    c->icap = nc;
  }
  c->items[c->nitems] = ir_strdup(name);
  if (!c->items[c->nitems]) FAIL(IR_ERR(err, TTREF_E_NOMEM, (ttref_loc){0}, "out of memory"));
  *out = c->nitems++;
fail:
  return st;
}

ttref_status conform_coverage(const char *const *suites, int nsuites, const char *allow, FILE *out, FILE *diag,
                              int *out_missing, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  cov c = {0};
  allow_list al = {0};
  conform_suite *s = NULL;
  ir_module *m = NULL;
  size_t start[IR_OP_COUNT + 1];
  int nitems_op[IR_OP_COUNT] = {0}, covered = 0, executable = 0, ncells = 0;
  *out_missing = 0;
  c.err = err;
  TRY(allow_read(allow, &al, diag, err));
  for (int k = 0; k < nsuites; k++) {
    TRY(conform_suite_load(suites[k], &s, err));
    for (int i = 0; i < s->ncases; i++)
      for (int v = 0; v < s->cases[i].nspecs; v++) {
        const conform_spec *sp = &s->cases[i].specs[v];
        char id[512], cid[300];
        int item = 0;
        conform_case_id(&s->cases[i], sp, cid, sizeof cid);
        size_t dl = strlen(suites[k]);
        while (dl > 1 && suites[k][dl - 1] == '/') dl--; /* "core/" names the suite "core" */
        const char *base = suites[k] + dl;
        while (base > suites[k] && base[-1] != '/') base--;
        snprintf(id, sizeof id, "%.*s/%s", (int)(suites[k] + dl - base), base, cid);
        TRY(add_item(&c, id, &item, err));
        if (sp->lowered)
          TRY(ir_parse_string(sp->kernel, sp->lowered, strlen(sp->lowered), &m, err)); /* a traced kernel */
        else TRY(ir_parse_file(sp->kernel, &m, err));
        for (int f = 0; f < m->nfuncs; f++) TRY(walk_region(&c, &m->funcs[f]->body, item));
        ir_module_free(m);
        m = NULL;
      }
    conform_suite_free(s);
    s = NULL;
  }
  if (c.n) qsort(c.v, c.n, sizeof *c.v, pair_cmp);
  for (int o = 0, i = 0; o <= IR_OP_COUNT; o++) { /* start[o] .. start[o+1]: the pairs of op o */
    while ((size_t)i < c.n && c.v[i].op < o) i++;
    start[o] = (size_t)i;
  }
  /* distinct items per op (an item shows up in several cells of one op) */
  {
    char *seen = ir_calloc((size_t)c.nitems + 1, 1);
    if (!seen) FAIL(IR_ERR(err, TTREF_E_NOMEM, (ttref_loc){0}, "out of memory"));
    for (int o = 0; o < IR_OP_COUNT; o++) {
      nitems_op[o] = 0;
      for (size_t i = start[o]; i < start[o + 1]; i++)
        if (!seen[c.v[i].item]) seen[c.v[i].item] = 1, nitems_op[o]++;
      for (size_t i = start[o]; i < start[o + 1]; i++) seen[c.v[i].item] = 0;
    }
    ir_free(seen, (size_t)c.nitems + 1);
  }
  for (size_t i = 0; i < c.n; i++) ncells += i == 0 || !same_cell(&c.v[i], &c.v[i - 1]);
  for (int o = 0; o < IR_OP_COUNT; o++) {
    bool exe = !(ir_op_flags((ir_opcode)o) & (IR_F_UNSUPPORTED | IR_F_VENDOR)); /* vendor ops: the vendor's suites */
    executable += exe;
    covered += exe && nitems_op[o] > 0;
    if (exe && !nitems_op[o] && !al.reason_of[o]) {
      fprintf(diag,
              "coverage: executable op %s has no item in any suite (cover it, or list it with a reason in the "
              "allow-list)\n",
              ir_op_name((ir_opcode)o));
      (*out_missing)++;
    }
    if (nitems_op[o] && al.reason_of[o]) {
      fprintf(diag, "coverage: %s is covered by %d item(s): remove it from the allow-list %s\n",
              ir_op_name((ir_opcode)o), nitems_op[o], allow);
      (*out_missing)++;
    }
  }
  *out_missing += al.nbad;

  fprintf(out, "# Coverage matrix\n\n");
  fprintf(out, "Generated by `make coverage-matrix` (`ttref coverage");
  for (int k = 0; k < nsuites; k++) fprintf(out, " %s", suites[k]);
  fprintf(out, "`) from `ir/ir_op_list.h` and the suites; do not edit. A cell is an op × the dtype it runs on "
               "(`src->dst` for casts and dots) × the attribute values that change its result; an item covers a "
               "cell when its kernel contains such an op.\n\n");
  fprintf(out,
          "**%d items; %d of %d executable ops covered; %d cells.** Structural ops (`tt.return`, `scf.yield`, "
          "...) count through the kernels that use them.\n\n",
          c.nitems, covered, executable, ncells);
  fprintf(out, "## Executable ops without an item\n\n");
  bool any = false;
  for (int o = 0; o < IR_OP_COUNT; o++) {
    if ((ir_op_flags((ir_opcode)o) & (IR_F_UNSUPPORTED | IR_F_VENDOR)) || nitems_op[o]) continue;
    any = true;
    if (al.reason_of[o]) fprintf(out, "- `%s`: %s\n", ir_op_name((ir_opcode)o), al.text + al.reason_of[o] - 1);
    else fprintf(out, "- `%s`: **not in the allow-list**\n", ir_op_name((ir_opcode)o));
  }
  if (!any) fprintf(out, "None.\n");
  fprintf(out, "\nOps ttref parses but does not execute (refused with a clear error):");
  for (int o = 0; o < IR_OP_COUNT; o++)
    if (ir_op_flags((ir_opcode)o) & IR_F_UNSUPPORTED) fprintf(out, " `%s`", ir_op_name((ir_opcode)o));
  fprintf(out, ".\n\n## Uncovered cells of the expected matrix\n\n");
  fprintf(out, "Expected: integer ops × i8/i16/i32/i64, float ops × f16/bf16/f32/f64, `math.*` × f32/f64, casts × "
               "the source->destination pairs Triton emits (fp8 both ways for `fp_to_fp`), every `cmpi`/`cmpf` "
               "predicate, atomic kind, `fp_to_fp` rounding, dot `inputPrecision` and clamp NaN policy.\n\n");
  fprintf(out, "| op | missing dtypes | missing attribute values |\n|---|---|---|\n");
  for (int o = 0; o < IR_OP_COUNT; o++) {
    const char *const *dts, *const *attrs;
    expected((ir_opcode)o, &dts, &attrs);
    char miss_d[512] = "", miss_a[1024] = "";
    size_t pd = 0, pa = 0;
    for (int k = 0; dts && dts[k]; k++) {
      bool have = false; /* a cell whose dtype is this one (casts: never in the list) */
      for (size_t i = start[o]; i < start[o + 1] && !have; i++) have = strcmp(c.v[i].dtype, dts[k]) == 0;
      if (!have && pd < sizeof miss_d)
        pd += (size_t)snprintf(miss_d + pd, sizeof miss_d - pd, "%s%s", pd ? ", " : "", dts[k]);
    }
    for (int k = 0; attrs && attrs[k]; k++)
      if (!cell_has(&c, start[o], start[o + 1], NULL, attrs[k]) && pa < sizeof miss_a)
        pa += (size_t)snprintf(miss_a + pa, sizeof miss_a - pa, "%s%s", pa ? ", " : "", strchr(attrs[k], '=') + 1);
    if (pd || pa) fprintf(out, "| `%s` | %s | %s |\n", ir_op_name((ir_opcode)o), pd ? miss_d : "-", pa ? miss_a : "-");
  }
  fprintf(out, "\n## Per op\n\n| op | items | cells: dtype attribute (items) |\n|---|---|---|\n");
  for (int o = 0; o < IR_OP_COUNT; o++) {
    if (ir_op_flags((ir_opcode)o) & IR_F_VENDOR) continue; /* registered at run time, not a row of the list */
    fprintf(out, "| `%s` | %d | ", ir_op_name((ir_opcode)o), nitems_op[o]);
    bool first = true;
    for (size_t i = start[o]; i < start[o + 1];) {
      size_t j = i;
      int n = 0, prev = -1;
      for (; j < start[o + 1] && same_cell(&c.v[j], &c.v[i]); j++) n += c.v[j].item != prev, prev = c.v[j].item;
      fprintf(out, "%s%s%s%s (%d)", first ? "" : ", ", c.v[i].dtype[0] ? c.v[i].dtype : "-", c.v[i].attr[0] ? " " : "",
              c.v[i].attr, n);
      first = false;
      i = j;
    }
    fprintf(out, "%s |\n", first ? (ir_op_flags((ir_opcode)o) & IR_F_UNSUPPORTED ? "not executable" : "**none**") : "");
  }
  fprintf(out, "\n## Cells and the items that cover them\n\n| op | dtype | attribute | items |\n|---|---|---|---|\n");
  for (size_t i = 0; i < c.n;) {
    size_t j = i;
    while (j < c.n && same_cell(&c.v[j], &c.v[i])) j++;
    fprintf(out, "| `%s` | %s | %s | ", ir_op_name((ir_opcode)c.v[i].op), c.v[i].dtype[0] ? c.v[i].dtype : "-",
            c.v[i].attr[0] ? c.v[i].attr : "-");
    item_list(out, &c, i, j, 4);
    fprintf(out, " |\n");
    i = j;
  }
  if (ferror(out)) FAIL(IR_ERR(err, TTREF_E_IO, (ttref_loc){0}, "cannot write the coverage matrix"));
fail:
  ir_module_free(m);
  conform_suite_free(s);
  for (int i = 0; i < c.nitems; i++) ir_free(c.items[i], strlen(c.items[i]) + 1);
  ir_free(c.items, sizeof *c.items * (size_t)c.icap);
  ir_free(c.v, sizeof *c.v * c.cap);
  if (al.text) ir_free(al.text, al.len + 1);
  return st;
}
