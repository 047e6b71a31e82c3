/*
 * ir_verify_ctl.c: per-op type rules of region and control-flow ops (reduce,
 * scan, map_elementwise, scf, cf, calls, extern and vendor ops) and check_op,
 * the dispatch with one case per row of ir_op_list.h.
 */
#include "config.h"
#include "ir_verify_impl.h"
static ttref_status check_reduce_scan(vctx *c, const ir_op *op, bool scan)
{
  ttref_status st = TTREF_OK;
  if (op->nopnds < 1) FAIL(irv_bad(c, op, "must have at least 1 operand"));
  if (op->nopnds != op->nres)
    FAIL(irv_bad(c, op, "must have the same number of inputs as outputs (%d vs %d)", op->nopnds, op->nres));
  const ir_type *s0 = otype(op, 0);
  if (!has_attr(op, "axis")) FAIL(irv_bad(c, op, "requires attribute 'axis'"));
  int64_t ax = ir_op_attr_int(op, "axis", -1);
  for (int i = 0; i < op->nopnds; i++) {
    const ir_type *s = otype(op, i), *r = rtype(op, i);
    if (!is_tensor(s)) FAIL(irv_bad(c, op, "operand #%d must be a tensor, but got '%s'", i, irv_tstr(c, s)));
    if (ax < 0 || ax >= s->rank)
      FAIL(irv_bad(c, op, "axis %lld out of bounds for operand rank %d", (long long)ax, s->rank));
    if (!same_shape(s, s0))
      FAIL(irv_bad(c, op, "requires the same shape for all operands ('%s' vs '%s')", irv_tstr(c, s), irv_tstr(c, s0)));
    if (scan) {
      if (r != s)
        FAIL(irv_bad(c, op, "result #%d type '%s' must match operand type '%s'", i, irv_tstr(c, r), irv_tstr(c, s)));
      continue;
    }
    bool ok;
    if (s->rank == 1) {
      ok = r == s->elem;
    } else {
      ok = is_tensor(r) && r->elem == s->elem && r->rank == s->rank - 1;
      for (int d = 0, j = 0; ok && d < s->rank; d++) {
        if (d == ax) continue;
        if (r->shape[j++] != s->shape[d]) ok = false;
      }
    }
    if (!ok)
      FAIL(irv_bad(c, op, "result #%d type '%s' must be operand '%s' reduced along axis %lld%s", i, irv_tstr(c, r),
                   irv_tstr(c, s), (long long)ax, s->rank == 1 ? " (a scalar)" : ""));
  }
  if (op->nregions != 1 || op->regions[0].nblocks != 1)
    FAIL(irv_bad(c, op, "requires one region with one block (the combine function)"));
  const ir_block *b = op->regions[0].blocks[0];
  int n = op->nopnds;
  if (b->nargs != 2 * n)
    FAIL(irv_bad(c, op, "nested block must take %d arguments, but given block with %d arguments", 2 * n, b->nargs));
  for (int i = 0; i < 2 * n; i++)
    if (b->args[i].type != elem(otype(op, i % n)))
      FAIL(irv_bad(c, op, "type mismatch on combine operation. Expected argument %d to have type '%s' but got '%s'", i,
                   irv_tstr(c, elem(otype(op, i % n))), irv_tstr(c, b->args[i].type)));
fail:
  return st;
}

/* tt.reduce.return / tt.scan.return / tt.map_elementwise.return against their parent */
static ttref_status check_region_return(vctx *c, const ir_op *op)
{
  ttref_status st = TTREF_OK;
  const ir_op *p = parent_op(op, NULL);
  if (!p) FAIL(irv_bad(c, op, "must be inside its region op, not directly in a function"));
  if (p->code == IR_OP_MAP_ELEMENTWISE) {
    int pack = (int)ir_op_attr_int(p, "pack", 1);
    if (op->nopnds != p->nres * pack)
      FAIL(irv_bad(c, op, "region return does not match map_elementwise result: expected %d values, got %d",
                   p->nres * pack, op->nopnds));
    for (int i = 0; i < op->nopnds; i++)
      if (otype(op, i) != elem(rtype(p, i / pack)))
        FAIL(irv_bad(c, op, "region return does not match map_elementwise result: value #%d is '%s', expected '%s'", i,
                     irv_tstr(c, otype(op, i)), irv_tstr(c, elem(rtype(p, i / pack)))));
  } else {
    if (op->nopnds != p->nopnds)
      FAIL(irv_bad(c, op, "expected combine operation to return %d values but got %d", p->nopnds, op->nopnds));
    for (int i = 0; i < op->nopnds; i++)
      if (otype(op, i) != elem(otype(p, i)))
        FAIL(irv_bad(c, op, "type mismatch on combine operation. Expected result %d to have type '%s' but got '%s'", i,
                     irv_tstr(c, elem(otype(p, i))), irv_tstr(c, otype(op, i))));
  }
fail:
  return st;
}

static ttref_status check_map_elementwise(vctx *c, const ir_op *op)
{
  ttref_status st = TTREF_OK;
  if (op->nopnds < 1) FAIL(irv_bad(c, op, "must have at least 1 operand"));
  TRY(irv_check_same_shape_all(c, op));
  int64_t pack = ir_op_attr_int(op, "pack", 1);
  if (pack < 1 || !is_pow2(pack) || pack > 1024)
    FAIL(irv_bad(c, op, "pack must be a power of 2 in [1, 1024], but got %lld", (long long)pack));
  if (op->nregions != 1 || op->regions[0].nblocks < 1) FAIL(irv_bad(c, op, "requires one non-empty region"));
  const ir_block *b = op->regions[0].blocks[0];
  if (b->nargs != op->nopnds * pack)
    FAIL(irv_bad(c, op, "region has wrong number of arguments: expected %lld, got %d", (long long)(op->nopnds * pack),
                 b->nargs));
  for (int i = 0; i < b->nargs; i++)
    if (b->args[i].type != elem(otype(op, (int)(i / pack))))
      FAIL(irv_bad(c, op, "argument types did not match: argument #%d is '%s', expected '%s'", i,
                   irv_tstr(c, b->args[i].type), irv_tstr(c, elem(otype(op, (int)(i / pack))))));
fail:
  return st;
}

static ttref_status check_scf_for(vctx *c, const ir_op *op)
{
  ttref_status st = TTREF_OK;
  if (op->nopnds < 3) FAIL(irv_bad(c, op, "expected at least 3 operands (lb, ub, step), but found %d", op->nopnds));
  const ir_type *t = otype(op, 0);
  if (t->kind != IR_T_SCALAR || !is_int_scalar(t) || otype(op, 1) != t || otype(op, 2) != t)
    FAIL(irv_bad(c, op, "lower bound, upper bound and step must have the same integer type ('%s', '%s', '%s')",
                 irv_tstr(c, t), irv_tstr(c, otype(op, 1)), irv_tstr(c, otype(op, 2))));
  const ir_op *sd = op->opnds[2]->def;
  if (sd && sd->code == IR_OP_CONSTANT) {
    const ir_attr *v = ir_op_attr(sd, "value");
    if (v && v->kind == IR_A_INT && v->i <= 0) FAIL(irv_bad(c, op, "constant step operand must be positive"));
  }
  int n = op->nopnds - 3;
  if (op->nres != n)
    FAIL(irv_bad(c, op, "mismatch in number of loop-carried values (%d) and defined values (%d)", n, op->nres));
  for (int i = 0; i < n; i++)
    if (otype(op, 3 + i) != rtype(op, i))
      FAIL(irv_bad(c, op, "type mismatch between init value #%d ('%s') and result #%d ('%s')", i,
                   irv_tstr(c, otype(op, 3 + i)), i, irv_tstr(c, rtype(op, i))));
  if (op->nregions != 1 || op->regions[0].nblocks != 1) FAIL(irv_bad(c, op, "requires one region with one block"));
  const ir_block *b = op->regions[0].blocks[0];
  if (b->nargs != 1 + n)
    FAIL(irv_bad(c, op, "region must take the induction variable and %d iter_args, but takes %d arguments", n,
                 b->nargs));
  if (b->args[0].type != t)
    FAIL(irv_bad(c, op, "expected induction variable to be same type as bounds and step ('%s' vs '%s')",
                 irv_tstr(c, b->args[0].type), irv_tstr(c, t)));
  for (int i = 0; i < n; i++)
    if (b->args[1 + i].type != rtype(op, i))
      FAIL(irv_bad(c, op, "types mismatch between iter_arg #%d ('%s') and result #%d ('%s')", i,
                   irv_tstr(c, b->args[1 + i].type), i, irv_tstr(c, rtype(op, i))));
fail:
  return st;
}

static ttref_status check_scf_if(vctx *c, const ir_op *op)
{
  ttref_status st = TTREF_OK;
  if (!is_scalar_of(otype(op, 0), IR_S_I1))
    FAIL(irv_bad(c, op, "condition must be i1, but got '%s'", irv_tstr(c, otype(op, 0))));
  if (op->nregions < 1 || op->nregions > 2 || op->regions[0].nblocks != 1)
    FAIL(irv_bad(c, op, "requires a 'then' region with one block and an optional 'else' region"));
  bool has_else = op->nregions == 2 && op->regions[1].nblocks > 0;
  if (op->nregions == 2 && op->regions[1].nblocks > 1)
    FAIL(irv_bad(c, op, "'else' region must have at most one block"));
  if (op->nres > 0 && !has_else) FAIL(irv_bad(c, op, "must have an else block if defining values"));
  for (int r = 0; r < op->nregions; r++)
    if (op->regions[r].nblocks == 1 && op->regions[r].blocks[0]->nargs != 0)
      FAIL(irv_bad(c, op, "region #%d must not take block arguments", r));
fail:
  return st;
}

static ttref_status check_scf_while(vctx *c, const ir_op *op)
{
  ttref_status st = TTREF_OK;
  if (op->nregions != 2 || op->regions[0].nblocks != 1 || op->regions[1].nblocks != 1)
    FAIL(irv_bad(c, op, "requires a 'before' and an 'after' region with one block each"));
  const ir_block *b = op->regions[0].blocks[0], *a = op->regions[1].blocks[0];
  if (b->nargs != op->nopnds)
    FAIL(irv_bad(c, op, "'before' region takes %d arguments, but the op has %d init values", b->nargs, op->nopnds));
  for (int i = 0; i < b->nargs; i++)
    if (b->args[i].type != otype(op, i))
      FAIL(irv_bad(c, op, "'before' region argument #%d is '%s', but init value #%d is '%s'", i,
                   irv_tstr(c, b->args[i].type), i, irv_tstr(c, otype(op, i))));
  if (a->nargs != op->nres)
    FAIL(irv_bad(c, op, "'after' region takes %d arguments, but the op has %d results", a->nargs, op->nres));
  for (int i = 0; i < a->nargs; i++)
    if (a->args[i].type != rtype(op, i))
      FAIL(irv_bad(c, op, "'after' region argument #%d is '%s', but result #%d is '%s'", i,
                   irv_tstr(c, a->args[i].type), i, irv_tstr(c, rtype(op, i))));
fail:
  return st;
}

/* operands [from, ...) of op have exactly the n types of want (a type array via accessor) */
static ttref_status yield_types(vctx *c, const ir_op *op, int from, const ir_op *p, bool want_results, const char *what)
{
  ttref_status st = TTREF_OK;
  int n = want_results ? p->nres : p->nopnds;
  int got = op->nopnds - from;
  if (got != n) FAIL(irv_bad(c, op, "%s: expected %d values, but got %d", what, n, got));
  for (int i = 0; i < n; i++) {
    const ir_type *w = want_results ? rtype(p, i) : otype(p, i);
    if (otype(op, from + i) != w)
      FAIL(irv_bad(c, op, "%s: value #%d is '%s', but '%s' is expected", what, i, irv_tstr(c, otype(op, from + i)),
                   irv_tstr(c, w)));
  }
fail:
  return st;
}

static ttref_status check_scf_yield(vctx *c, const ir_op *op)
{
  ttref_status st = TTREF_OK;
  int ridx;
  const ir_op *p = parent_op(op, &ridx);
  if (!p || !(p->code == IR_OP_SCF_FOR || p->code == IR_OP_SCF_IF || (p->code == IR_OP_SCF_WHILE && ridx == 1)))
    FAIL(irv_bad(c, op, "expects parent op to be one of 'scf.for, scf.if, scf.while (after region)'"));
  if (p->code == IR_OP_SCF_WHILE)
    TRY(yield_types(c, op, 0, p, false, "must yield the types of the scf.while init values"));
  else if (p->code == IR_OP_SCF_FOR) TRY(yield_types(c, op, 0, p, true, "must yield the types of the scf.for results"));
  else TRY(yield_types(c, op, 0, p, true, "must yield the types of the scf.if results"));
fail:
  return st;
}

static ttref_status check_scf_condition(vctx *c, const ir_op *op)
{
  ttref_status st = TTREF_OK;
  int ridx;
  const ir_op *p = parent_op(op, &ridx);
  if (!p || p->code != IR_OP_SCF_WHILE || ridx != 0)
    FAIL(irv_bad(c, op, "expects parent op 'scf.while' (before region)"));
  if (op->nopnds < 1 || !is_scalar_of(otype(op, 0), IR_S_I1))
    FAIL(irv_bad(c, op, "first operand must be an i1 condition"));
  TRY(yield_types(c, op, 1, p, true, "must forward the types of the scf.while results"));
fail:
  return st;
}

static ttref_status check_return(vctx *c, const ir_op *op)
{
  ttref_status st = TTREF_OK;
  const ir_func *f = c->fn;
  if (parent_op(op, NULL)) FAIL(irv_bad(c, op, "expects parent op 'tt.func'"));
  if (op->nopnds != f->nres)
    FAIL(irv_bad(c, op, "has %d operands, but enclosing function (@%s) returns %d", op->nopnds, f->name, f->nres));
  for (int i = 0; i < f->nres; i++)
    if (otype(op, i) != f->res_types[i])
      FAIL(irv_bad(c, op, "type of return operand %d ('%s') doesn't match function result type ('%s') in function @%s",
                   i, irv_tstr(c, otype(op, i)), irv_tstr(c, f->res_types[i]), f->name));
fail:
  return st;
}

static ttref_status check_call(vctx *c, const ir_op *op)
{
  ttref_status st = TTREF_OK;
  const ir_func *f = op->callee_fn;
  if (!f) FAIL(irv_bad(c, op, "'@%s' does not reference a valid function", op->callee ? op->callee : "?"));
  if (f->nargs != op->nopnds)
    FAIL(irv_bad(c, op, "incorrect number of operands for callee @%s (%d vs %d)", f->name, op->nopnds, f->nargs));
  for (int i = 0; i < f->nargs; i++)
    if (otype(op, i) != f->args[i].type)
      FAIL(irv_bad(c, op, "operand type mismatch: expected operand type '%s', but provided '%s' for operand number %d",
                   irv_tstr(c, f->args[i].type), irv_tstr(c, otype(op, i)), i));
  if (f->nres != op->nres)
    FAIL(irv_bad(c, op, "incorrect number of results for callee @%s (%d vs %d)", f->name, op->nres, f->nres));
  for (int i = 0; i < f->nres; i++)
    if (rtype(op, i) != f->res_types[i])
      FAIL(irv_bad(c, op, "result type mismatch at index %d: '%s' vs the callee's '%s'", i, irv_tstr(c, rtype(op, i)),
                   irv_tstr(c, f->res_types[i])));
fail:
  return st;
}

/* cf.br / cf.cond_br: successors in the same region, not the entry block, matching block args */
static ttref_status check_branch(vctx *c, const ir_op *op, int nsucc, int base)
{
  ttref_status st = TTREF_OK;
  if (op->nsuccs != nsucc) FAIL(irv_bad(c, op, "expected %d successors, but found %d", nsucc, op->nsuccs));
  int total = 0;
  for (int s = 0; s < nsucc; s++) total += op->succs[s].nargs;
  if (op->nopnds != base && op->nopnds != base + total)
    FAIL(irv_bad(c, op, "expected %d operands, but found %d", base, op->nopnds));
  if (base == 1 && !is_scalar_of(otype(op, 0), IR_S_I1))
    FAIL(irv_bad(c, op, "condition must be i1, but got '%s'", irv_tstr(c, otype(op, 0))));
  const ir_region *r = op->parent ? op->parent->parent : NULL;
  for (int s = 0; s < nsucc; s++) {
    const ir_succ *sc = &op->succs[s];
    if (!sc->block || sc->block->parent != r)
      FAIL(irv_bad(c, op, "successor #%d must be a block of the same region", s));
    if (r && r->nblocks > 0 && sc->block == r->blocks[0])
      FAIL(irv_bad(c, op, "successor #%d is the entry block of the region, which may not have predecessors", s));
    if (sc->nargs != sc->block->nargs)
      FAIL(irv_bad(c, op, "branch has %d operands for successor #%d, but target block has %d", sc->nargs, s,
                   sc->block->nargs));
    for (int i = 0; i < sc->nargs; i++) {
      if (!sc->args[i] || !sc->args[i]->type) FAIL(irv_internal(c, op, "NULL successor operand"));
      if (sc->args[i]->type != sc->block->args[i].type)
        FAIL(irv_bad(c, op, "type mismatch for bb argument #%d of successor #%d ('%s' vs '%s')", i, s,
                     irv_tstr(c, sc->args[i]->type), irv_tstr(c, sc->block->args[i].type)));
    }
  }
fail:
  return st;
}

static ttref_status check_extern(vctx *c, const ir_op *op)
{
  ttref_status st = TTREF_OK;
  TRY(irv_check_same_shape_all(c, op));
  const ir_attr *s = ir_op_attr(op, "symbol");
  if (!s || s->kind != IR_A_STRING) FAIL(irv_bad(c, op, "requires a string attribute 'symbol'"));
fail:
  return st;
}

/* A vendor op: int/float operands and result, its arity, elementwise shapes, then its own rule
 * (default: one type for all), whose result type must be the declared one. */
static void type_info(const ir_type *t, ttref_type_info *o)
{
  memset(o, 0, sizeof *o);
  o->dtype = ir_scalar_name(ir_type_elem(t)->scalar);
  o->rank = t->kind == IR_T_TENSOR ? t->rank : 0;
  for (int d = 0; d < o->rank; d++) o->shape[d] = t->shape[d];
}

static ttref_status check_vendor(vctx *c, const ir_op *op)
{
  ttref_status st = TTREF_OK;
  const ttref_op_def *d = op->vdef;
  ttref_type_info in[IR_VENDOR_MAX_OPNDS], out;
  char msg[200] = "";
  if (!d) FAIL(irv_internal(c, op, "vendor op without a definition"));
  if (d->nopnds >= 0 && op->nopnds != d->nopnds)
    FAIL(irv_bad(c, op, "expected %d operand%s, but found %d", d->nopnds, d->nopnds == 1 ? "" : "s", op->nopnds));
  if (op->nopnds < (d->nopnds < 0) || op->nopnds > IR_VENDOR_MAX_OPNDS)
    FAIL(irv_bad(c, op, "expected 1 to %d operands, but found %d", IR_VENDOR_MAX_OPNDS, op->nopnds));
  for (int i = 0; i <= op->nopnds; i++) {
    const ir_type *t = i < op->nopnds ? otype(op, i) : rtype(op, 0);
    const ir_type *e = ir_type_elem(t);
    if ((t->kind != IR_T_SCALAR && t->kind != IR_T_TENSOR) || e->kind != IR_T_SCALAR ||
        !(ir_scalar_is_int(e->scalar) || ir_scalar_is_float(e->scalar)))
      FAIL(irv_bad(c, op, "vendor ops take and give ints, floats and tensors of them, but %s #%d is '%s'",
                   i < op->nopnds ? "operand" : "result", i < op->nopnds ? i : 0, irv_tstr(c, t)));
  }
  if (d->elementwise) TRY(irv_check_same_shape_all(c, op));
  if (!d->verify) {
    for (int i = 0; i < op->nopnds; i++)
      if (otype(op, i) != rtype(op, 0))
        FAIL(irv_bad(c, op, "requires the same type for all operands and results (operand #%d is '%s', result is '%s')",
                     i, irv_tstr(c, otype(op, i)), irv_tstr(c, rtype(op, 0))));
    goto fail;
  }
  for (int i = 0; i < op->nopnds; i++) type_info(otype(op, i), &in[i]);
  memset(&out, 0, sizeof out);
  if (d->verify(d->ud, (const ttref_op_attrs *)op, op->nopnds, in, &out, msg, sizeof msg) != 0) {
    msg[sizeof msg - 1] = 0;
    FAIL(irv_bad(c, op, "%s", msg[0] ? msg : "rejected by its verifier"));
  }
  ttref_type_info want;
  type_info(rtype(op, 0), &want);
  bool same = out.dtype && strcmp(out.dtype, want.dtype) == 0 && out.rank == want.rank;
  for (int k = 0; same && k < want.rank; k++) same = out.shape[k] == want.shape[k];
  if (!same) {
    char ob[160];
    int n = snprintf(ob, sizeof ob, "%s", out.rank > 0 ? "tensor<" : "");
    for (int k = 0; k < out.rank && k < 8 && n < 100; k++)
      n += snprintf(ob + n, sizeof ob - (size_t)n, "%lldx", (long long)out.shape[k]);
    snprintf(ob + n, sizeof ob - (size_t)n, "%.20s%s", out.dtype ? out.dtype : "?", out.rank > 0 ? ">" : "");
    FAIL(irv_bad(c, op, "result type '%s' does not match the type its operands give, '%s'", irv_tstr(c, rtype(op, 0)),
                 ob));
  }
fail:
  return st;
}

static ttref_status check_assert(vctx *c, const ir_op *op)
{
  return elem_is(otype(op, 0), IR_S_I1)
             ? TTREF_OK
             : irv_bad(c, op, "condition must be i1 or a tensor of i1, but got '%s'", irv_tstr(c, otype(op, 0)));
}

/* ---- dispatch ------------------------------------------------------------------------ */

/* One case per op of ir_op_list.h without a table type rule; -Wswitch-enum makes a missing row a
 * build error. */
#pragma GCC diagnostic push
#pragma GCC diagnostic error "-Wswitch-enum"
ttref_status irv_check_op(vctx *c, const ir_op *op)
{
  ttref_status st = TTREF_OK;
  switch (op->code) {
    /* regular ops: the type rule column of ir_op_list.h (irv_check_rule) */
#define X(name, mnem, nopnd, nres, flags, syn, rule, ...) IR_CASE_RULE_##rule(name)
#include "ir_op_list.h"
#undef X
    st = irv_check_rule(c, op);
    break;
  case IR_OP_GET_PROGRAM_ID:
  case IR_OP_GET_NUM_PROGRAMS: st = irv_check_program_id(c, op); break;
  case IR_OP_MAKE_RANGE: st = irv_check_make_range(c, op); break;
  case IR_OP_CONSTANT: st = irv_check_constant(c, op); break;
  case IR_OP_POISON: break; /* any type */
  case IR_OP_SPLAT: st = irv_check_splat(c, op); break;
  case IR_OP_UNSPLAT: st = irv_check_unsplat(c, op); break;
  case IR_OP_BROADCAST: st = irv_check_broadcast(c, op); break;
  case IR_OP_EXPAND_DIMS: st = irv_check_expand_dims(c, op); break;
  case IR_OP_RESHAPE: st = irv_check_reshape(c, op); break;
  case IR_OP_TRANS: st = irv_check_trans(c, op); break;
  case IR_OP_CAT: st = irv_check_cat(c, op); break;
  case IR_OP_JOIN: st = irv_check_join(c, op); break;
  case IR_OP_SPLIT: st = irv_check_split(c, op); break;
  case IR_OP_GATHER: st = irv_check_gather(c, op); break;
  case IR_OP_HISTOGRAM: st = irv_check_histogram(c, op); break;
  case IR_OP_ADDPTR: st = irv_check_addptr(c, op); break;
  case IR_OP_INT_TO_PTR: st = irv_check_int_ptr(c, op, true); break;
  case IR_OP_PTR_TO_INT: st = irv_check_int_ptr(c, op, false); break;
  case IR_OP_TT_BITCAST: st = irv_check_tt_bitcast(c, op); break;
  case IR_OP_FP_TO_FP: st = irv_check_fp_to_fp(c, op); break;
  case IR_OP_LOAD: st = irv_check_load(c, op); break;
  case IR_OP_STORE: st = irv_check_store(c, op); break;
  case IR_OP_MAKE_TENSOR_PTR: st = irv_check_make_tensor_ptr(c, op); break;
  case IR_OP_ADVANCE: st = irv_check_advance(c, op); break;
  case IR_OP_ATOMIC_RMW: st = irv_check_atomic_rmw(c, op); break;
  case IR_OP_ATOMIC_CAS: st = irv_check_atomic_cas(c, op); break;
  case IR_OP_MAKE_TENSOR_DESC: st = irv_check_make_desc(c, op); break;
  case IR_OP_DESC_LOAD:
  case IR_OP_XDESC_LOAD: st = irv_check_desc_access(c, op, false); break;
  case IR_OP_DESC_STORE:
  case IR_OP_DESC_REDUCE:
  case IR_OP_XDESC_STORE: st = irv_check_desc_access(c, op, true); break;
  case IR_OP_DESC_GATHER:
  case IR_OP_XDESC_GATHER: st = irv_check_desc_gather(c, op, false); break;
  case IR_OP_DESC_SCATTER:
  case IR_OP_XDESC_SCATTER: st = irv_check_desc_gather(c, op, true); break;
  case IR_OP_REINTERPRET_DESC:
  case IR_OP_INLINE_ASM: break; /* IR_F_UNSUPPORTED: the interpreter refuses them, not the verifier */
  case IR_OP_DOT: st = irv_check_dot(c, op); break;
  case IR_OP_DOT_SCALED: st = irv_check_dot_scaled(c, op); break;
  case IR_OP_REDUCE: st = check_reduce_scan(c, op, false); break;
  case IR_OP_SCAN: st = check_reduce_scan(c, op, true); break;
  case IR_OP_REDUCE_RETURN:
  case IR_OP_SCAN_RETURN:
  case IR_OP_MAP_ELEM_RETURN: st = check_region_return(c, op); break;
  case IR_OP_MAP_ELEMENTWISE: st = check_map_elementwise(c, op); break;
  case IR_OP_EXTERN_ELEMENTWISE: st = check_extern(c, op); break;
  case IR_OP_VENDOR: st = check_vendor(c, op); break;
  case IR_OP_PRINT: break; /* any operands */
  case IR_OP_ASSERT: st = check_assert(c, op); break;
  case IR_OP_ASSUME: st = irv_want_scalar(c, op, 0, IR_S_I1, "condition"); break;
  case IR_OP_GPU_BARRIER:
  case IR_OP_TTG_BARRIER: break;
  case IR_OP_CALL: st = check_call(c, op); break;
  case IR_OP_RETURN: st = check_return(c, op); break;
  case IR_OP_SELECT: {
    const ir_type *cd = otype(op, 0), *r = rtype(op, 0);
    if (otype(op, 1) != r || otype(op, 2) != r)
      st = irv_bad(c, op, "true value '%s', false value '%s' and result '%s' must have the same type",
                   irv_tstr(c, otype(op, 1)), irv_tstr(c, otype(op, 2)), irv_tstr(c, r));
    else if (!elem_is(cd, IR_S_I1) || (is_tensor(cd) && !same_shape(cd, r)))
      st = irv_bad(c, op, "condition '%s' must be i1, or a tensor of i1 with the shape of the result '%s'",
                   irv_tstr(c, cd), irv_tstr(c, r));
    break;
  }
  case IR_OP_SCF_FOR: st = check_scf_for(c, op); break;
  case IR_OP_SCF_IF: st = check_scf_if(c, op); break;
  case IR_OP_SCF_WHILE: st = check_scf_while(c, op); break;
  case IR_OP_SCF_CONDITION: st = check_scf_condition(c, op); break;
  case IR_OP_SCF_YIELD: st = check_scf_yield(c, op); break;
  case IR_OP_CF_BR: st = check_branch(c, op, 1, 0); break;
  case IR_OP_CF_COND_BR: st = check_branch(c, op, 2, 1); break;
  case IR_OP_COUNT:
  default: st = irv_internal(c, op, "unknown opcode"); break;
  }
  return st;
}
#pragma GCC diagnostic pop
