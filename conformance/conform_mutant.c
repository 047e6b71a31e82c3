/*
 * conform_mutant.c: the mutant backends: one rewrite of the parsed kernel IR
 * (or of the run options) per row of conform_mutant_list.h, applied to every
 * site of the kernel, and the mutation-score report over a suite's items.
 */
#include "config.h"
#include "conform_mutant.h"
#include "ir_base_fs.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* conform_record.mutants holds one code per mutant and a NUL */
_Static_assert(CONFORM_MUTANT_COUNT < sizeof(((conform_record *)0)->mutants), "conform_record.mutants is too short");

static const struct {
  const char *name, *ops, *desc;
} mutants[] = {
#define X(name, str, ops, desc) {str, ops, desc},
#include "conform_mutant_list.h"
#undef X
};

const char *conform_mutant_name(int k) { return k >= 0 && k < CONFORM_MUTANT_COUNT ? mutants[k].name : "<invalid>"; }
const char *conform_mutant_targets(int k) { return k >= 0 && k < CONFORM_MUTANT_COUNT ? mutants[k].ops : ""; }
const char *conform_mutant_desc(int k) { return k >= 0 && k < CONFORM_MUTANT_COUNT ? mutants[k].desc : ""; }

bool conform_mutant_lookup(const char *name, int *out)
{
  for (int k = 0; k < CONFORM_MUTANT_COUNT; k++)
    if (strcmp(mutants[k].name, name) == 0) {
      *out = k;
      return true;
    }
  return false;
}

void conform_mutant_list(FILE *f)
{
  for (int k = 0; k < CONFORM_MUTANT_COUNT; k++)
    fprintf(f, "%-30s %-32s %s\n", mutants[k].name, mutants[k].ops, mutants[k].desc);
}

ttref_status conform_mutant_parse_list(const char *list, int *ids, int *out_n, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  int n = 0;
  if (!list || !*list || strcmp(list, "all") == 0) {
    for (int k = 0; k < CONFORM_MUTANT_COUNT; k++) ids[n++] = k;
    goto fail;
  }
  for (const char *p = list; *p;) {
    size_t l = strcspn(p, ",");
    char name[64];
    int k;
    snprintf(name, sizeof name, "%.*s", (int)(l < 63 ? l : 63), p);
    if (!conform_mutant_lookup(name, &k))
      FAIL(
          IR_ERR(err, TTREF_E_USAGE, (ttref_loc){0}, "unknown mutant '%s' (see `ttref conform --list-mutants`)", name));
    bool dup = false;
    for (int i = 0; i < n; i++) dup |= ids[i] == k;
    if (!dup) ids[n++] = k;
    p += l;
    if (*p == ',') p++;
  }
fail:
  *out_n = n;
  return st;
}

/* ---- rewrites --------------------------------------------------------------------- */

typedef struct mctx {
  ir_module *m;
  ir_func *fn;
  int k;
  bool apply;
  uint32_t *uses; /* per value id of fn (FMA_CONTRACT) */
  int sites;
  ir_op *tail; /* ops inserted after the mutated op follow this one */
  ttref_status st;
  ttref_error *err;
} mctx;

static ir_attr *attr_mut(ir_op *op, const char *name)
{
  for (int i = 0; i < op->nattrs; i++)
    if (op->attrs[i].name && strcmp(op->attrs[i].name, name) == 0) return &op->attrs[i];
  return NULL;
}

/* Add (or find) attribute @p name on @p op; NULL on OOM. */
static ir_attr *attr_add(ir_module *m, ir_op *op, const char *name)
{
  ir_attr *a = attr_mut(op, name);
  if (a) return a;
  ir_attr *na = ir_arena_alloc(m->arena, sizeof *na * (size_t)(op->nattrs + 1));
  if (!na) return NULL;
  if (op->nattrs) memcpy(na, op->attrs, sizeof *na * (size_t)op->nattrs);
  a = &na[op->nattrs];
  a->name = name;
  op->attrs = na;
  op->nattrs++;
  return a;
}

static void set_enum(ir_attr *a, int64_t v, const char *spelling)
{
  a->kind = IR_A_ENUM;
  a->i = v;
  a->s = spelling;
  a->slen = strlen(spelling);
}

/* the predicate spellings by value (ir_pred_list.h) */
#define CMPF(name, spelling, value)
#define CMPI(name, spelling, value) spelling,
static const char *const CMPI_NAMES[] = {
#include "ir_pred_list.h"
};
#undef CMPI
#define CMPI(name, spelling, value)
#undef CMPF
#define CMPF(name, spelling, value) spelling,
static const char *const CMPF_NAMES[] = {
#include "ir_pred_list.h"
};
#undef CMPI
#undef CMPF

/* Predicate rewrite through @p map (pairs from, to; -1 ends). */
static bool predicate(mctx *x, ir_op *op, const int *map, const char *const *names, int nnames)
{
  ir_attr *a = attr_mut(op, "predicate");
  if (!a) return false;
  for (int i = 0; map[i] >= 0; i += 2)
    if (a->i == map[i]) {
      if (x->apply && map[i + 1] < nnames) set_enum(a, map[i + 1], names[map[i + 1]]);
      return true;
    }
  return false;
}

static bool recode(mctx *x, ir_op *op, ir_opcode from, ir_opcode to)
{
  if (op->code != from) return false;
  if (x->apply) op->code = to;
  return true;
}

static bool swap_opnds(mctx *x, ir_op *op, int i, int j)
{
  if (op->nopnds <= i || op->nopnds <= j) return false;
  if (x->apply) {
    ir_value *t = op->opnds[i];
    op->opnds[i] = op->opnds[j];
    op->opnds[j] = t;
  }
  return true;
}

static bool is_float_value(const ir_value *v)
{
  const ir_type *t = ir_type_elem(v->type);
  return t->kind == IR_T_SCALAR && ir_scalar_is_float(t->scalar);
}

static bool is_block_ptr_access(const ir_op *op)
{
  const ir_type *pt = ir_type_elem(op->opnds[0]->type);
  return pt->kind == IR_T_PTR && pt->elem && pt->elem->kind == IR_T_TENSOR;
}

static void nomem(mctx *x) { x->st = IR_ERR(x->err, TTREF_E_NOMEM, (ttref_loc){0}, "out of memory"); }

/* A new op before (or, with @p after, after) @p op in its block, with @p nopnds zeroed operands and one
   result of type @p t; NULL on OOM. */
static ir_op *insert_at(mctx *x, ir_op *op, bool after, ir_opcode code, int nopnds, const ir_type *t)
{
  ir_block *bl = op->parent;
  ir_op *nop = ir_arena_alloc(x->m->arena, sizeof *nop);
  ir_value **opnds = nopnds ? ir_arena_alloc(x->m->arena, sizeof *opnds * (size_t)nopnds) : NULL;
  ir_value *res = ir_arena_alloc(x->m->arena, sizeof *res);
  ir_op **ops = ir_arena_alloc(x->m->arena, sizeof *ops * (size_t)(bl->nops + 1));
  if (!nop || (nopnds && !opnds) || !res || !ops || !t) {
    nomem(x);
    return NULL;
  }
  memset(nop, 0, sizeof *nop);
  memset(res, 0, sizeof *res);
  if (nopnds) memset(opnds, 0, sizeof *opnds * (size_t)nopnds);
  res->type = t;
  res->id = x->fn->nvalues++;
  res->name = "ttref_mutant";
  res->def = nop;
  nop->code = code;
  nop->nopnds = nopnds;
  nop->opnds = opnds;
  nop->nres = 1;
  nop->res = res;
  nop->line = op->line;
  nop->col = op->col;
  nop->loc = op->loc;
  nop->parent = bl;
  ir_op *at = after && x->tail && x->tail->parent == bl ? x->tail : op;
  int n = 0;
  for (int i = 0; i < bl->nops; i++) {
    if (bl->ops[i] == at && !after) ops[n++] = nop;
    ops[n++] = bl->ops[i];
    if (bl->ops[i] == at && after) ops[n++] = nop;
  }
  if (after) x->tail = nop;
  bl->ops = ops;
  bl->nops = n;
  return nop;
}

static ir_op *insert_before(mctx *x, ir_op *op, ir_opcode code, int nopnds, const ir_type *t)
{
  return insert_at(x, op, false, code, nopnds, t);
}

/* A binary op @p code (a, b) -> @p t before (or after) @p op; its result, NULL on OOM. */
static ir_value *binop(mctx *x, ir_op *op, bool after, ir_opcode code, ir_value *a, ir_value *b, const ir_type *t)
{
  ir_op *n = insert_at(x, op, after, code, b ? 2 : 1, t);
  if (!n) return NULL;
  n->opnds[0] = a;
  if (b) n->opnds[1] = b;
  return &n->res[0];
}

/* A splat constant of type @p t (an integer @p i, or a float @p f) before @p op; NULL on OOM. */
static ir_value *splat_const(mctx *x, ir_op *op, const ir_type *t, int64_t i, double f)
{
  ir_op *z = insert_before(x, op, IR_OP_CONSTANT, 0, t);
  ir_attr *a = z ? ir_arena_alloc(x->m->arena, sizeof *a) : NULL;
  ir_scalar_val *val = a ? ir_arena_alloc(x->m->arena, sizeof *val) : NULL;
  if (!val) {
    nomem(x);
    return NULL;
  }
  const bool flt = ir_scalar_is_float(ir_type_elem(t)->scalar);
  memset(a, 0, sizeof *a);
  a->name = "value";
  a->type = t;
  if (t->kind != IR_T_TENSOR) { /* a scalar constant: `arith.constant 1.0 : f32` */
    a->kind = flt ? IR_A_FLOAT : IR_A_INT;
    a->f = f;
    a->i = i;
  } else {
    a->kind = IR_A_DENSE;
    a->splat = true;
    a->nvals = 1;
    if (flt) val->f = f;
    else val->i = i;
    a->vals = val;
  }
  z->attrs = a;
  z->nattrs = 1;
  return &z->res[0];
}

/* A comparison (cmpi or cmpf @p pred) of @p a and @p b before (or after) @p op, as an i1 of a's shape. */
static ir_value *compare(mctx *x, ir_op *op, bool after, ir_opcode code, int pred, ir_value *a, ir_value *b)
{
  const ir_type *i1 = ir_type_with_elem(x->m, a->type, ir_type_scalar(x->m, IR_S_I1));
  ir_value *r = i1 ? binop(x, op, after, code, a, b, i1) : (nomem(x), NULL);
  ir_attr *p = r ? ir_arena_alloc(x->m->arena, sizeof *p) : NULL;
  if (!p) {
    if (r) nomem(x);
    return NULL;
  }
  memset(p, 0, sizeof *p);
  p->name = "predicate";
  set_enum(p, pred, code == IR_OP_CMPI ? CMPI_NAMES[pred] : CMPF_NAMES[pred]);
  r->def->attrs = p;
  r->def->nattrs = 1;
  return r;
}

/* An arith.select (c ? a : b) after @p op; NULL on OOM. */
static ir_value *select3(mctx *x, ir_op *op, ir_value *c, ir_value *a, ir_value *b)
{
  ir_op *n = insert_at(x, op, true, IR_OP_SELECT, 3, a->type);
  if (!n) return NULL;
  n->opnds[0] = c;
  n->opnds[1] = a;
  n->opnds[2] = b;
  return &n->res[0];
}

/* Every use of @p from in region @p r (nested regions and branch arguments too) reads @p to. */
static void replace_uses(ir_region *r, const ir_value *from, ir_value *to)
{
  for (int b = 0; b < r->nblocks; b++) {
    ir_block *bl = r->blocks[b];
    for (int i = 0; i < bl->nops; i++) {
      ir_op *op = bl->ops[i];
      for (int k = 0; k < op->nopnds; k++)
        if (op->opnds[k] == from) op->opnds[k] = to;
      for (int s = 0; s < op->nsuccs; s++)
        for (int k = 0; k < op->succs[s].nargs; k++)
          if (op->succs[s].args[k] == from) op->succs[s].args[k] = to;
      for (int k = 0; k < op->nregions; k++) replace_uses(&op->regions[k], from, to);
    }
  }
}

/* Whether value @p v has a use in region @p r. */
static bool has_use(const ir_region *r, const ir_value *v)
{
  for (int b = 0; b < r->nblocks; b++) {
    const ir_block *bl = r->blocks[b];
    for (int i = 0; i < bl->nops; i++) {
      const ir_op *op = bl->ops[i];
      for (int k = 0; k < op->nopnds; k++)
        if (op->opnds[k] == v) return true;
      for (int s = 0; s < op->nsuccs; s++)
        for (int k = 0; k < op->succs[s].nargs; k++)
          if (op->succs[s].args[k] == v) return true;
      for (int k = 0; k < op->nregions; k++)
        if (has_use(&op->regions[k], v)) return true;
    }
  }
  return false;
}

/* loops stop one step early: scf.for lb, ub, step -> lb, ub - step, step (an arith.subi before the loop) */
static bool drop_last_iteration(mctx *x, ir_op *op)
{
  if (op->nopnds < 3) return false;
  if (!x->apply) return true;
  ir_op *sub = insert_before(x, op, IR_OP_SUBI, 2, op->opnds[1]->type);
  if (!sub) return false;
  sub->opnds[0] = op->opnds[1];
  sub->opnds[1] = op->opnds[2];
  op->opnds[1] = &sub->res[0];
  return true;
}

/* dots ignore C: tt.dot a, b, c -> tt.dot a, b, zeros (an arith.constant dense<0> before the dot) */
static bool drop_accumulator(mctx *x, ir_op *op)
{
  if (op->nopnds < 3) return false;
  const ir_op *d = op->opnds[2]->def;
  const ir_attr *v = d && d->code == IR_OP_CONSTANT ? ir_op_attr(d, "value") : NULL;
  if (v && v->kind == IR_A_DENSE && (v->splat || v->nvals == 1) && v->vals && v->vals[0].i == 0)
    return false; /* C is 0 already */
  if (!x->apply) return true;
  ir_op *z = insert_before(x, op, IR_OP_CONSTANT, 0, op->opnds[2]->type);
  ir_attr *a = z ? ir_arena_alloc(x->m->arena, sizeof *a) : NULL;
  ir_scalar_val *val = a ? ir_arena_alloc(x->m->arena, sizeof *val) : NULL;
  if (!val) {
    x->st = IR_ERR(x->err, TTREF_E_NOMEM, (ttref_loc){0}, "out of memory");
    return false;
  }
  a->name = "value";
  a->kind = IR_A_DENSE;
  a->type = op->opnds[2]->type;
  a->splat = true;
  a->nvals = 1;
  a->vals = val; /* zeroed: +0 and integer 0 */
  z->attrs = a;
  z->nattrs = 1;
  op->opnds[2] = &z->res[0];
  return true;
}

/* fma a, b, c -> addf (mulf a, b), c: two roundings */
static bool split_fma(mctx *x, ir_op *op)
{
  if (op->nopnds != 3) return false;
  if (!x->apply) return true;
  ir_value *m = binop(x, op, false, IR_OP_MULF, op->opnds[0], op->opnds[1], op->res[0].type);
  if (!m) return false;
  op->code = IR_OP_ADDF;
  op->opnds[0] = m;
  op->opnds[1] = op->opnds[2];
  op->nopnds = 2;
  return true;
}

/* divf a, b -> mulf a, (divf 1, b) */
static bool reciprocal_div(mctx *x, ir_op *op)
{
  if (op->nopnds != 2) return false;
  if (!x->apply) return true;
  const ir_type *t = op->res[0].type;
  ir_value *one = splat_const(x, op, t, 0, 1.0);
  ir_value *r = one ? binop(x, op, false, IR_OP_DIVF, one, op->opnds[1], t) : NULL;
  if (!r) return false;
  op->code = IR_OP_MULF;
  op->opnds[1] = r;
  return true;
}

/* math.sqrt x -> mulf x, (math.rsqrt x) */
static bool sqrt_by_rsqrt(mctx *x, ir_op *op)
{
  if (op->nopnds != 1) return false;
  if (!x->apply) return true;
  ir_value **o = ir_arena_alloc(x->m->arena, sizeof *o * 2);
  ir_value *r = o ? binop(x, op, false, IR_OP_MATH_RSQRT, op->opnds[0], NULL, op->res[0].type) : NULL;
  if (!r) {
    if (!o) nomem(x);
    return false;
  }
  o[0] = op->opnds[0];
  o[1] = r;
  op->code = IR_OP_MULF;
  op->opnds = o;
  op->nopnds = 2;
  return true;
}

/* math.exp x -> math.exp2 (mulf x, log2(e)) */
static bool exp_by_exp2(mctx *x, ir_op *op)
{
  if (op->nopnds != 1) return false;
  if (!x->apply) return true;
  const ir_type *t = op->res[0].type;
  ir_value *c = splat_const(x, op, t, 0, 1.4426950408889634074);
  ir_value *m = c ? binop(x, op, false, IR_OP_MULF, op->opnds[0], c, t) : NULL;
  if (!m) return false;
  op->code = IR_OP_MATH_EXP2;
  op->opnds[0] = m;
  return true;
}

/* math.exp2 of f32/f64: the result's significand cut to 12 bits (bitcast, andi, bitcast) */
static bool coarse_exp2(mctx *x, ir_op *op)
{
  const ir_scalar s = ir_type_elem(op->res[0].type)->scalar;
  if (s != IR_S_F32 && s != IR_S_F64) return false;
  if (!x->apply) return true;
  ir_value *r = &op->res[0];
  const ir_type *it = ir_type_with_elem(x->m, r->type, ir_type_scalar(x->m, s == IR_S_F32 ? IR_S_I32 : IR_S_I64));
  if (!it) {
    nomem(x);
    return false;
  }
  const int64_t mask = s == IR_S_F32 ? (int64_t)(int32_t)0xFFFFF000u : (int64_t)(~(uint64_t)0 << 41);
  ir_value *msk = splat_const(x, op, it, mask, 0);
  ir_value *b = msk ? binop(x, op, true, IR_OP_BITCAST, r, NULL, it) : NULL;
  ir_value *a = b ? binop(x, op, true, IR_OP_ANDI, b, msk, it) : NULL;
  ir_value *f = a ? binop(x, op, true, IR_OP_BITCAST, a, NULL, r->type) : NULL;
  if (!f) return false;
  b->def->opnds[0] = NULL; /* rewire every use of r to f, then let the chain read r */
  replace_uses(&x->fn->body, r, f);
  b->def->opnds[0] = r;
  return true;
}

/* trunci x -> trunci (minsi (maxsi x, MIN), MAX) of the narrow type */
static bool saturate_trunci(mctx *x, ir_op *op)
{
  const int w = ir_scalar_bits(ir_type_elem(op->res[0].type)->scalar);
  if (op->nopnds != 1 || w < 2 || w > 32) return false; /* i1 results are booleans, not numbers */
  if (!x->apply) return true;
  const ir_type *t = op->opnds[0]->type;
  const int64_t hi = ((int64_t)1 << (w - 1)) - 1;
  ir_value *lo_c = splat_const(x, op, t, -hi - 1, 0), *hi_c = lo_c ? splat_const(x, op, t, hi, 0) : NULL;
  ir_value *a = hi_c ? binop(x, op, false, IR_OP_MAXSI, op->opnds[0], lo_c, t) : NULL;
  ir_value *b = a ? binop(x, op, false, IR_OP_MINSI, a, hi_c, t) : NULL;
  if (!b) return false;
  op->opnds[0] = b;
  return true;
}

/* truncf -> f16/bf16: a result below the smallest normal becomes a zero of its sign */
static bool flush_truncf(mctx *x, ir_op *op)
{
  const ir_scalar s = ir_type_elem(op->res[0].type)->scalar;
  if (s != IR_S_F16 && s != IR_S_BF16) return false;
  if (!x->apply) return true;
  ir_value *r = &op->res[0];
  const ir_type *t = r->type;
  ir_value *mn = splat_const(x, op, t, 0, s == IR_S_F16 ? 0x1p-14 : 0x1p-126);
  ir_value *zero = mn ? splat_const(x, op, t, 0, 0.0) : NULL;
  ir_value *a = zero ? binop(x, op, true, IR_OP_MATH_ABSF, r, NULL, t) : NULL;
  ir_value *lt = a ? compare(x, op, true, IR_OP_CMPF, IR_CMPF_OLT, a, mn) : NULL;
  ir_value *z = lt ? binop(x, op, true, IR_OP_MULF, r, zero, t) : NULL; /* +-0 with r's sign */
  ir_value *f = z ? select3(x, op, lt, z, r) : NULL;
  if (!f) return false;
  ir_op *uses[] = {a->def, z->def, f->def};
  for (int i = 0; i < 3; i++) /* rewire every use of r to f, then let the new ops read r */
    for (int k = 0; k < uses[i]->nopnds; k++)
      if (uses[i]->opnds[k] == r) uses[i]->opnds[k] = NULL;
  replace_uses(&x->fn->body, r, f);
  a->def->opnds[0] = r;
  z->def->opnds[0] = r;
  f->def->opnds[2] = r;
  return true;
}

/* fp_to_fp rtne -> fp8: |x| at or past the rounding boundary of the max finite gives +-inf (NaN without inf) */
static bool unsaturated_fp8(mctx *x, ir_op *op)
{
  const ir_scalar s = ir_type_elem(op->res[0].type)->scalar;
  const ir_attr *rd = ir_op_attr(op, "rounding");
  if (op->nopnds != 1 || !rd || rd->i != IR_ROUND_RTNE || !is_float_value(op->opnds[0])) return false;
  double thr;
  int pred = IR_CMPF_OGE;
  switch (s) {
  case IR_S_F8E4M3FN: thr = 464, pred = IR_CMPF_OGT; break; /* 448 has an even significand: the tie rounds down */
  case IR_S_F8E4M3FNUZ: thr = 248; break;
  case IR_S_F8E5M2:
  case IR_S_F8E5M2FNUZ: thr = 61440; break;
  default: return false;
  }
  if (!x->apply) return true;
  ir_value *r = &op->res[0], *v = op->opnds[0];
  const ir_type *t = r->type, *st = v->type;
  ir_value *th = splat_const(x, op, st, 0, thr), *zero = th ? splat_const(x, op, st, 0, 0.0) : NULL;
  ir_value *pinf = zero ? splat_const(x, op, t, 0, HUGE_VAL) : NULL,
           *ninf = pinf ? splat_const(x, op, t, 0, -HUGE_VAL) : NULL;
  ir_value *a = ninf ? binop(x, op, true, IR_OP_MATH_ABSF, v, NULL, st) : NULL;
  ir_value *big = a ? compare(x, op, true, IR_OP_CMPF, pred, a, th) : NULL;
  ir_value *neg = big ? compare(x, op, true, IR_OP_CMPF, IR_CMPF_OLT, v, zero) : NULL;
  ir_value *ov = neg ? select3(x, op, neg, ninf, pinf) : NULL;
  ir_value *f = ov ? select3(x, op, big, ov, r) : NULL;
  if (!f) return false;
  f->def->opnds[2] = NULL;
  replace_uses(&x->fn->body, r, f);
  f->def->opnds[2] = r;
  return true;
}

/* tt.reduce whose combiner returns a max: the combined value is also maxed with 0 */
static bool max_from_zero(mctx *x, ir_op *op)
{
  if (op->nregions != 1 || op->nres != 1 || op->regions[0].nblocks != 1) return false;
  ir_block *bl = op->regions[0].blocks[0];
  ir_op *ret = bl->nops ? bl->ops[bl->nops - 1] : NULL;
  if (!ret || ret->code != IR_OP_REDUCE_RETURN || ret->nopnds != 1 || !ret->opnds[0]->def) return false;
  const ir_opcode c = ret->opnds[0]->def->code;
  if (c != IR_OP_MAXNUMF && c != IR_OP_MAXIMUMF && c != IR_OP_MAXSI) return false;
  if (!x->apply) return true;
  ir_value *v = ret->opnds[0];
  ir_value *zero = splat_const(x, ret, v->type, 0, 0.0);
  ir_value *m = zero ? binop(x, ret, false, c, v, zero, v->type) : NULL;
  if (!m) return false;
  ret->opnds[0] = m;
  return true;
}

/* atomic add: the result is old + val (the new value) */
static bool atomic_new_value(mctx *x, ir_op *op)
{
  ir_attr *k = attr_mut(op, "atomic_rmw_op");
  if (!k || (k->i != IR_RMW_ADD && k->i != IR_RMW_FADD) || op->nopnds < 2 || op->nres != 1) return false;
  if (!has_use(&x->fn->body, &op->res[0])) return false; /* the old value is never read */
  if (!x->apply) return true;
  ir_value *r = &op->res[0];
  ir_value *n = binop(x, op, true, is_float_value(r) ? IR_OP_ADDF : IR_OP_ADDI, NULL, op->opnds[1], r->type);
  if (!n) return false;
  replace_uses(&x->fn->body, r, n);
  n->def->opnds[0] = r;
  return true;
}

/* tt.mulhiui a, b -> the signed high product: hi_u - (a < 0 ? b : 0) - (b < 0 ? a : 0) */
static bool signed_mulhi(mctx *x, ir_op *op)
{
  if (op->nopnds != 2) return false;
  if (!x->apply) return true;
  ir_value *r = &op->res[0], *a = op->opnds[0], *b = op->opnds[1];
  const ir_type *t = r->type;
  ir_value *zero = splat_const(x, op, t, 0, 0);
  ir_value *na = zero ? compare(x, op, true, IR_OP_CMPI, IR_CMPI_SLT, a, zero) : NULL;
  ir_value *nb = na ? compare(x, op, true, IR_OP_CMPI, IR_CMPI_SLT, b, zero) : NULL;
  ir_value *sa = nb ? select3(x, op, na, b, zero) : NULL;
  ir_value *sb = sa ? select3(x, op, nb, a, zero) : NULL;
  ir_value *t1 = sb ? binop(x, op, true, IR_OP_SUBI, NULL, sa, t) : NULL;
  ir_value *t2 = t1 ? binop(x, op, true, IR_OP_SUBI, t1, sb, t) : NULL;
  if (!t2) return false;
  replace_uses(&x->fn->body, r, t2);
  t1->def->opnds[0] = r;
  return true;
}

static bool mutate_op(mctx *x, ir_op *op)
{
  static const int signed_cmpi[] = {IR_CMPI_SLT, IR_CMPI_ULT, IR_CMPI_SLE, IR_CMPI_ULE, IR_CMPI_SGT,
                                    IR_CMPI_UGT, IR_CMPI_SGE, IR_CMPI_UGE, -1};
  static const int lt_le[] = {IR_CMPI_SLT, IR_CMPI_SLE, IR_CMPI_ULT, IR_CMPI_ULE, -1};
  static const int ordered[] = {IR_CMPF_OEQ, IR_CMPF_UEQ, IR_CMPF_OGT, IR_CMPF_UGT, IR_CMPF_OGE,
                                IR_CMPF_UGE, IR_CMPF_OLT, IR_CMPF_ULT, IR_CMPF_OLE, IR_CMPF_ULE,
                                IR_CMPF_ONE, IR_CMPF_UNE, -1};
  static const int une[] = {IR_CMPF_UNE, IR_CMPF_ONE, -1};
  static const int unsigned_cmpi[] = {IR_CMPI_ULT, IR_CMPI_SLT, IR_CMPI_ULE, IR_CMPI_SLE, IR_CMPI_UGT,
                                      IR_CMPI_SGT, IR_CMPI_UGE, IR_CMPI_SGE, -1};
  static const int unordered[] = {IR_CMPF_UEQ, IR_CMPF_OEQ, IR_CMPF_UGT, IR_CMPF_OGT, IR_CMPF_UGE, IR_CMPF_OGE,
                                  IR_CMPF_ULT, IR_CMPF_OLT, IR_CMPF_ULE, IR_CMPF_OLE, -1};
  const int ncmpi = (int)(sizeof CMPI_NAMES / sizeof *CMPI_NAMES),
            ncmpf = (int)(sizeof CMPF_NAMES / sizeof *CMPF_NAMES);
  switch ((conform_mutant_id)x->k) {
  case CONFORM_MUT_CMPI_SIGNED: return op->code == IR_OP_CMPI && predicate(x, op, signed_cmpi, CMPI_NAMES, ncmpi);
  case CONFORM_MUT_CMPI_SLT_SLE: return op->code == IR_OP_CMPI && predicate(x, op, lt_le, CMPI_NAMES, ncmpi);
  case CONFORM_MUT_CMPF_UNORDERED: return op->code == IR_OP_CMPF && predicate(x, op, ordered, CMPF_NAMES, ncmpf);
  case CONFORM_MUT_CMPF_UNE_ONE: return op->code == IR_OP_CMPF && predicate(x, op, une, CMPF_NAMES, ncmpf);
  case CONFORM_MUT_DIVSI_UNSIGNED: return recode(x, op, IR_OP_DIVSI, IR_OP_DIVUI);
  case CONFORM_MUT_REMSI_UNSIGNED: return recode(x, op, IR_OP_REMSI, IR_OP_REMUI);
  case CONFORM_MUT_SHRSI_LOGICAL: return recode(x, op, IR_OP_SHRSI, IR_OP_SHRUI);
  case CONFORM_MUT_EXTSI_ZERO: return recode(x, op, IR_OP_EXTSI, IR_OP_EXTUI);
  case CONFORM_MUT_SITOFP_UNSIGNED: return recode(x, op, IR_OP_SITOFP, IR_OP_UITOFP);
  case CONFORM_MUT_FPTOSI_UNSIGNED: return recode(x, op, IR_OP_FPTOSI, IR_OP_FPTOUI);
  case CONFORM_MUT_MINMAXSI_UNSIGNED:
    return recode(x, op, IR_OP_MINSI, IR_OP_MINUI) || recode(x, op, IR_OP_MAXSI, IR_OP_MAXUI);
  case CONFORM_MUT_FLOORDIV_TRUNC: return recode(x, op, IR_OP_FLOORDIVSI, IR_OP_DIVSI);
  case CONFORM_MUT_MAXIMUM_AS_NUM:
    return recode(x, op, IR_OP_MAXIMUMF, IR_OP_MAXNUMF) || recode(x, op, IR_OP_MINIMUMF, IR_OP_MINNUMF);
  case CONFORM_MUT_MAXNUM_AS_MAXIMUM:
    return recode(x, op, IR_OP_MAXNUMF, IR_OP_MAXIMUMF) || recode(x, op, IR_OP_MINNUMF, IR_OP_MINIMUMF);
  case CONFORM_MUT_CLAMPF_NAN: {
    ir_attr *a = op->code == IR_OP_CLAMPF ? attr_mut(op, "propagateNan") : NULL;
    if (!a) return false;
    if (x->apply) set_enum(a, a->i == IR_NAN_NONE ? IR_NAN_ALL : IR_NAN_NONE, a->i == IR_NAN_NONE ? "all" : "none");
    return true;
  }
  case CONFORM_MUT_TRUNCF_RTZ: {
    if (op->code != IR_OP_TRUNCF) return false;
    if (!x->apply) return true;
    ir_attr *a = attr_add(x->m, op, "rounding");
    if (!a) {
      x->st = IR_ERR(x->err, TTREF_E_NOMEM, (ttref_loc){0}, "out of memory");
      return false;
    }
    set_enum(a, IR_ROUND_RTZ, "rtz");
    op->code = IR_OP_FP_TO_FP; /* tt.fp_to_fp rounding = rtz: the same cast, truncating */
    return true;
  }
  case CONFORM_MUT_FP_TO_FP_RTZ: {
    ir_attr *a = op->code == IR_OP_FP_TO_FP ? attr_mut(op, "rounding") : NULL;
    if (!a || a->i != IR_ROUND_RTNE) return false;
    if (x->apply) set_enum(a, IR_ROUND_RTZ, "rtz");
    return true;
  }
  case CONFORM_MUT_ROUND_AS_EVEN: return recode(x, op, IR_OP_MATH_ROUND, IR_OP_MATH_ROUNDEVEN);
  case CONFORM_MUT_FTZ:
    return (op->nres == 1 && is_float_value(&op->res[0]) && (ir_op_flags(op->code) & (IR_F_ELEMENTWISE | IR_F_MEM))) ||
           (op->code == IR_OP_DOT || op->code == IR_OP_REDUCE || op->code == IR_OP_SCAN);
  case CONFORM_MUT_FMA_CONTRACT: {
    if (op->code != IR_OP_ADDF && op->code != IR_OP_SUBF) return false;
    for (int i = 0; i < 2; i++) {
      const ir_op *d = op->opnds[i]->def;
      if (d && d->code == IR_OP_MULF && d->parent == op->parent && x->uses[op->opnds[i]->id] == 1) return true;
    }
    return false;
  }
  case CONFORM_MUT_LOAD_MASK:
    if (op->code != IR_OP_LOAD || op->nopnds < 2 || is_block_ptr_access(op)) return false;
    if (x->apply) op->nopnds = 1;
    return true;
  case CONFORM_MUT_LOAD_OTHER:
    if (op->code != IR_OP_LOAD || op->nopnds < 3 || is_block_ptr_access(op)) return false;
    if (x->apply) op->nopnds = 2;
    return true;
  case CONFORM_MUT_STORE_MASK:
    if (op->code != IR_OP_STORE || op->nopnds < 3 || is_block_ptr_access(op)) return false;
    if (x->apply) op->nopnds = 2;
    return true;
  case CONFORM_MUT_BOUNDARY_CHECK: {
    ir_attr *a = (op->code == IR_OP_LOAD || op->code == IR_OP_STORE) ? attr_mut(op, "boundaryCheck") : NULL;
    if (!a || a->nints == 0) return false;
    if (x->apply) a->nints = 0;
    return true;
  }
  case CONFORM_MUT_SCAN_REVERSE: {
    ir_attr *a = op->code == IR_OP_SCAN ? attr_mut(op, "reverse") : NULL;
    if (!a || ir_op_attr_int(op, "reverse", 0) == 0) return false;
    if (x->apply) {
      a->kind = IR_A_BOOL;
      a->i = 0;
    }
    return true;
  }
  case CONFORM_MUT_DOT_TF32: {
    if (op->code != IR_OP_DOT || ir_type_elem(op->opnds[0]->type)->scalar != IR_S_F32) return false;
    if (ir_op_attr_int(op, "inputPrecision", IR_PREC_IEEE) != IR_PREC_IEEE) return false;
    if (!x->apply) return true;
    ir_attr *a = attr_add(x->m, op, "inputPrecision");
    if (!a) {
      x->st = IR_ERR(x->err, TTREF_E_NOMEM, (ttref_loc){0}, "out of memory");
      return false;
    }
    set_enum(a, IR_PREC_TF32, "tf32");
    return true;
  }
  case CONFORM_MUT_ATOMIC_ADD_MAX:
  case CONFORM_MUT_ATOMIC_MAX_UMAX: {
    ir_attr *a = op->code == IR_OP_ATOMIC_RMW ? attr_mut(op, "atomic_rmw_op") : NULL;
    if (!a) return false;
    int64_t from = a->i, to = -1;
    const char *sp = NULL;
    if (x->k == CONFORM_MUT_ATOMIC_ADD_MAX && from == IR_RMW_ADD) to = IR_RMW_MAX, sp = "max";
    else if (x->k == CONFORM_MUT_ATOMIC_ADD_MAX && from == IR_RMW_MAX) to = IR_RMW_ADD, sp = "add";
    else if (x->k == CONFORM_MUT_ATOMIC_MAX_UMAX && from == IR_RMW_MAX) to = IR_RMW_UMAX, sp = "umax";
    else if (x->k == CONFORM_MUT_ATOMIC_MAX_UMAX && from == IR_RMW_MIN) to = IR_RMW_UMIN, sp = "umin";
    if (to < 0 || is_float_value(op->opnds[1])) return false; /* float max is not an integer max */
    if (x->apply) set_enum(a, to, sp);
    return true;
  }
  case CONFORM_MUT_ATOMIC_CAS_SWAP: return op->code == IR_OP_ATOMIC_CAS && swap_opnds(x, op, 1, 2);
  case CONFORM_MUT_SELECT_SWAP: return op->code == IR_OP_SELECT && swap_opnds(x, op, 1, 2);
  case CONFORM_MUT_JOIN_SWAP: return op->code == IR_OP_JOIN && swap_opnds(x, op, 0, 1);
  case CONFORM_MUT_TRANS_AS_RESHAPE: {
    const ir_attr *a = op->code == IR_OP_TRANS ? ir_op_attr(op, "order") : NULL;
    bool identity = true;
    for (int i = 0; a && i < a->nints; i++) identity &= a->ints[i] == i;
    if (op->code != IR_OP_TRANS || identity) return false;
    if (x->apply) op->code = IR_OP_RESHAPE; /* the result type keeps the transposed shape */
    return true;
  }
  case CONFORM_MUT_DOT_ACC_DROPPED: return op->code == IR_OP_DOT && drop_accumulator(x, op);
  case CONFORM_MUT_PID_XY_SWAPPED: {
    ir_attr *a = (op->code == IR_OP_GET_PROGRAM_ID || op->code == IR_OP_GET_NUM_PROGRAMS) ? attr_mut(op, "axis") : NULL;
    if (!a || (a->i != 0 && a->i != 1)) return false;
    if (x->apply) {
      a->i = 1 - a->i;
      if (a->kind == IR_A_ENUM) a->s = a->i ? "y" : "x", a->slen = 1;
    }
    return true;
  }
  case CONFORM_MUT_FOR_LAST_ITER: return op->code == IR_OP_SCF_FOR && drop_last_iteration(x, op);
  case CONFORM_MUT_CMPI_UNSIGNED: return op->code == IR_OP_CMPI && predicate(x, op, unsigned_cmpi, CMPI_NAMES, ncmpi);
  case CONFORM_MUT_CMPF_ORDERED: return op->code == IR_OP_CMPF && predicate(x, op, unordered, CMPF_NAMES, ncmpf);
  case CONFORM_MUT_DIVSI_FLOOR: return recode(x, op, IR_OP_DIVSI, IR_OP_FLOORDIVSI);
  case CONFORM_MUT_DIVUI_SIGNED: return recode(x, op, IR_OP_DIVUI, IR_OP_DIVSI);
  case CONFORM_MUT_REMUI_SIGNED: return recode(x, op, IR_OP_REMUI, IR_OP_REMSI);
  case CONFORM_MUT_SHRUI_ARITH: return recode(x, op, IR_OP_SHRUI, IR_OP_SHRSI);
  case CONFORM_MUT_EXTUI_SIGN: return recode(x, op, IR_OP_EXTUI, IR_OP_EXTSI);
  case CONFORM_MUT_UITOFP_SIGNED: return recode(x, op, IR_OP_UITOFP, IR_OP_SITOFP);
  case CONFORM_MUT_FPTOUI_SIGNED: return recode(x, op, IR_OP_FPTOUI, IR_OP_FPTOSI);
  case CONFORM_MUT_MINMAXUI_SIGNED:
    return recode(x, op, IR_OP_MINUI, IR_OP_MINSI) || recode(x, op, IR_OP_MAXUI, IR_OP_MAXSI);
  case CONFORM_MUT_TRUNCI_SAT: return op->code == IR_OP_TRUNCI && saturate_trunci(x, op);
  case CONFORM_MUT_ROUNDEVEN_AS_ROUND: return recode(x, op, IR_OP_MATH_ROUNDEVEN, IR_OP_MATH_ROUND);
  case CONFORM_MUT_FMA_SPLIT: return op->code == IR_OP_MATH_FMA && split_fma(x, op);
  case CONFORM_MUT_DIVF_RCP: return op->code == IR_OP_DIVF && reciprocal_div(x, op);
  case CONFORM_MUT_SQRT_RSQRT: return op->code == IR_OP_MATH_SQRT && sqrt_by_rsqrt(x, op);
  case CONFORM_MUT_EXP_VIA_EXP2: return op->code == IR_OP_MATH_EXP && exp_by_exp2(x, op);
  case CONFORM_MUT_EXP2_APPROX: return op->code == IR_OP_MATH_EXP2 && coarse_exp2(x, op);
  case CONFORM_MUT_TRUNCF_FTZ: return op->code == IR_OP_TRUNCF && flush_truncf(x, op);
  case CONFORM_MUT_FP8_NO_SAT: return op->code == IR_OP_FP_TO_FP && unsaturated_fp8(x, op);
  case CONFORM_MUT_REDUCE_MAX_INIT0: return op->code == IR_OP_REDUCE && max_from_zero(x, op);
  case CONFORM_MUT_ATOMIC_RET_NEW: return op->code == IR_OP_ATOMIC_RMW && atomic_new_value(x, op);
  case CONFORM_MUT_MULHI_SIGNED: return op->code == IR_OP_MULHIUI && signed_mulhi(x, op);
  case CONFORM_MUTANT_COUNT: break;
  }
  return false;
}

static void walk_region(mctx *x, ir_region *r);

static void walk_block(mctx *x, ir_block *bl)
{
  for (int i = 0; i < bl->nops && x->st == TTREF_OK; i++) {
    ir_op *op = bl->ops[i], *next = i + 1 < bl->nops ? bl->ops[i + 1] : NULL;
    int before = bl->nops;
    x->tail = op;
    if (mutate_op(x, op)) x->sites++;
    for (int k = 0; k < op->nregions; k++) walk_region(x, &op->regions[k]);
    if (bl->nops != before) { /* ops inserted before or after this one are not visited */
      i = bl->nops - 1;
      for (int j = 0; j < bl->nops; j++)
        if (bl->ops[j] == next) {
          i = j - 1;
          break;
        }
    }
  }
}

static void walk_region(mctx *x, ir_region *r)
{
  for (int b = 0; b < r->nblocks && x->st == TTREF_OK; b++) walk_block(x, r->blocks[b]);
}

static void count_uses_region(uint32_t *uses, uint32_t n, const ir_region *r)
{
  for (int b = 0; b < r->nblocks; b++) {
    const ir_block *bl = r->blocks[b];
    for (int i = 0; i < bl->nops; i++) {
      const ir_op *op = bl->ops[i];
      for (int k = 0; k < op->nopnds; k++)
        if (op->opnds[k]->id < n) uses[op->opnds[k]->id]++;
      for (int s = 0; s < op->nsuccs; s++)
        for (int k = 0; k < op->succs[s].nargs; k++)
          if (op->succs[s].args[k]->id < n) uses[op->succs[s].args[k]->id]++;
      for (int k = 0; k < op->nregions; k++) count_uses_region(uses, n, &op->regions[k]);
    }
  }
}

ttref_status conform_mutant_apply(ir_module *m, int k, bool apply, conform_mutant_opts *opts, int *out_sites,
                                  ttref_error *err)
{
  ttref_status st = TTREF_OK;
  mctx x = {m, NULL, k, apply, NULL, 0, NULL, TTREF_OK, err};
  *out_sites = 0;
  memset(opts, 0, sizeof *opts);
  if (k < 0 || k >= CONFORM_MUTANT_COUNT) FAIL(IR_ERR(err, TTREF_E_USAGE, (ttref_loc){0}, "bad mutant index %d", k));
  opts->ftz = k == CONFORM_MUT_FTZ;
  opts->contract = k == CONFORM_MUT_FMA_CONTRACT;
  for (int f = 0; f < m->nfuncs && x.st == TTREF_OK; f++) {
    x.fn = m->funcs[f];
    if (k == CONFORM_MUT_FMA_CONTRACT) {
      x.uses = ir_calloc(x.fn->nvalues + 1, sizeof *x.uses);
      if (!x.uses) FAIL(IR_ERR(err, TTREF_E_NOMEM, (ttref_loc){0}, "out of memory"));
      count_uses_region(x.uses, x.fn->nvalues, &x.fn->body);
    }
    walk_region(&x, &x.fn->body);
    ir_free(x.uses, sizeof *x.uses * (x.fn->nvalues + 1));
    x.uses = NULL;
  }
  st = x.st;
  *out_sites = x.sites;
fail:
  return st;
}

/* ---- the report --------------------------------------------------------------------- */

static bool targets(const conform_record *r, const char *name)
{
  const char *t = r->tags;
  size_t nl = strlen(name);
  while (*t) {
    size_t l = strcspn(t, ",");
    if (l == 7 + nl && strncmp(t, "mutant:", 7) == 0 && strncmp(t + 7, name, nl) == 0) return true;
    t += l;
    if (*t == ',') t++;
  }
  return false;
}

typedef struct mstat {
  int applied, changed, caught, targeted, caught_by_target;
  const char *status;
} mstat;

static void id_list(FILE *f, const conform_record_list *recs, int pos, int want, const char *name, bool json)
{
  bool first = true;
  for (int i = 0; i < recs->n; i++) {
    const conform_record *r = &recs->v[i];
    char c = (int)strlen(r->mutants) > pos ? r->mutants[pos] : 0;
    bool in = want == 't'   ? targets(r, name)
              : want == 'c' ? (c == CONFORM_MUT_CHANGED || c == CONFORM_MUT_CAUGHT)
                            : c == CONFORM_MUT_CAUGHT;
    if (!in) continue;
    if (json) {
      fputs(first ? "" : ", ", f);
      conform_json_str(f, r->id);
    } else fprintf(f, "%s`%s`", first ? "" : ", ", r->id);
    first = false;
  }
  if (!json && first) fputs("-", f);
}

ttref_status conform_mutant_report(const char *dir, const char *suite, const int *ids, int nids,
                                   const conform_record_list *recs, FILE *out, double *out_score, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  char path[4200];
  FILE *jf = NULL, *mf = NULL;
  mstat *ms = ir_calloc((size_t)nids + 1, sizeof *ms);
  int killed = 0, survived = 0, unexercised = 0, by_target = 0;
  if (!ms) FAIL(IR_ERR(err, TTREF_E_NOMEM, (ttref_loc){0}, "out of memory"));
  for (int p = 0; p < nids; p++) {
    const char *name = conform_mutant_name(ids[p]);
    for (int i = 0; i < recs->n; i++) {
      const conform_record *r = &recs->v[i];
      char c = (int)strlen(r->mutants) > p ? r->mutants[p] : 0;
      bool t = targets(r, name);
      ms[p].applied += c && c != CONFORM_MUT_NOT_APPLIED;
      ms[p].changed += c == CONFORM_MUT_CHANGED || c == CONFORM_MUT_CAUGHT;
      ms[p].caught += c == CONFORM_MUT_CAUGHT;
      ms[p].targeted += t;
      ms[p].caught_by_target += t && c == CONFORM_MUT_CAUGHT;
    }
    ms[p].status = ms[p].caught ? "killed" : ms[p].changed ? "survived" : "unexercised";
    killed += ms[p].caught > 0;
    by_target += ms[p].caught_by_target > 0;
    survived += !ms[p].caught && ms[p].changed;
    unexercised += !ms[p].caught && !ms[p].changed;
  }
  double score = nids ? (double)killed / nids : 1.0;
  *out_score = score;
  snprintf(path, sizeof path, "%s/mutants.json", dir);
  TRY(ir_fs_fopen_in(dir, "mutants.json", "w", &jf, err)); /* never through a symbolic link */
  fprintf(jf, "{\"suite\": ");
  conform_json_str(jf, suite);
  fprintf(jf,
          ", \"items\": %d, \"mutants\": %d, \"killed\": %d, \"killed_by_target\": %d, \"survived\": %d, "
          "\"unexercised\": %d, \"score\": ",
          recs->n, nids, killed, by_target, survived, unexercised);
  conform_json_num(jf, score);
  fprintf(jf, ",\n \"results\": [\n");
  for (int p = 0; p < nids; p++) {
    const char *name = conform_mutant_name(ids[p]);
    fprintf(jf, "  {\"name\": ");
    conform_json_str(jf, name);
    fprintf(jf, ", \"targets\": ");
    conform_json_str(jf, conform_mutant_targets(ids[p]));
    fprintf(jf, ", \"description\": ");
    conform_json_str(jf, conform_mutant_desc(ids[p]));
    fprintf(jf, ", \"status\": \"%s\", \"applied\": %d, \"killed_by_target\": %s,\n   \"changed\": [", ms[p].status,
            ms[p].applied, ms[p].caught_by_target ? "true" : "false");
    id_list(jf, recs, p, 'c', name, true);
    fprintf(jf, "],\n   \"caught\": [");
    id_list(jf, recs, p, 'k', name, true);
    fprintf(jf, "],\n   \"targeted_by\": [");
    id_list(jf, recs, p, 't', name, true);
    fprintf(jf, "]}%s\n", p + 1 < nids ? "," : "");
  }
  fprintf(jf, " ]}\n");
  if (fclose(jf) != 0) {
    jf = NULL;
    FAIL(IR_ERR(err, TTREF_E_IO, (ttref_loc){0}, "cannot write '%s'", path));
  }
  jf = NULL;
  snprintf(path, sizeof path, "%s/mutants.md", dir);
  TRY(ir_fs_fopen_in(dir, "mutants.md", "w", &mf, err));
  fprintf(mf, "# Mutation score of %s\n\n", suite);
  fprintf(mf,
          "**%d of %d mutants killed (%.1f%%)**: %d survived, %d unexercised, over %d items. A mutant is a "
          "realistic backend bug (docs/compliance.md, Mutation score); *changed* items are those whose outputs "
          "differ from the reference, *caught* those whose verdict is not PASS.\n\n",
          killed, nids, 100.0 * score, survived, unexercised, recs->n);
  fprintf(mf, "| mutant | targets | status | applied | changed | caught | caught by a targeting item "
              "|\n|---|---|---|---|---|---|---|\n");
  for (int p = 0; p < nids; p++)
    fprintf(mf, "| `%s` | %s | %s | %d | %d | %d | %s |\n", conform_mutant_name(ids[p]), conform_mutant_targets(ids[p]),
            ms[p].status, ms[p].applied, ms[p].changed, ms[p].caught,
            ms[p].targeted ? (ms[p].caught_by_target ? "yes" : "no") : "no item targets it");
  fprintf(mf, "\n## Per mutant\n\n");
  for (int p = 0; p < nids; p++) {
    const char *name = conform_mutant_name(ids[p]);
    fprintf(mf, "### `%s` (%s)\n\n%s.\n\n- caught by: ", name, ms[p].status, conform_mutant_desc(ids[p]));
    id_list(mf, recs, p, 'k', name, false);
    fprintf(mf, "\n- changed: ");
    id_list(mf, recs, p, 'c', name, false);
    fprintf(mf, "\n- targeted by: ");
    id_list(mf, recs, p, 't', name, false);
    fprintf(mf, "\n\n");
  }
  if (fclose(mf) != 0) {
    mf = NULL;
    FAIL(IR_ERR(err, TTREF_E_IO, (ttref_loc){0}, "cannot write '%s'", path));
  }
  mf = NULL;
  fprintf(out,
          "mutation score: %d of %d mutants killed (%.1f%%; %d by an item that targets them), %d survived, %d "
          "unexercised\n",
          killed, nids, 100.0 * score, by_target, survived, unexercised);
  for (int p = 0; p < nids; p++)
    if (!ms[p].caught)
      fprintf(out, "  %s %s: %s\n", ms[p].status, conform_mutant_name(ids[p]), conform_mutant_desc(ids[p]));
fail:
  if (jf) fclose(jf);
  if (mf) fclose(mf);
  ir_free(ms, sizeof *ms * ((size_t)nids + 1));
  return st;
}
