/*
 * ir_print_op.c: the custom assembly format of every op in ir_op_list.h,
 * the inverse of ir_parse_custom.c.
 */
#include "config.h"
#include "ir_print_impl.h"

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

/* Regular ops: the format of their syntax column (the inverse of ir_parse_regular.c). */
#pragma GCC diagnostic push
#pragma GCC diagnostic error "-Wswitch-enum"
/* the load/store family's `cacheModifier = ...` and `evictionPolicy = ...` */
static void wcache_evict(W *w, const ir_op *op)
{
  const char *cm = irw_attr_s(op, "cache"), *ev = irw_attr_s(op, "evict");
  if (cm) {
    ws(w, " cacheModifier = ");
    ws(w, cm);
  }
  if (ev) {
    ws(w, " evictionPolicy = ");
    ws(w, ev);
  }
}

/* the cast form `%x {flags} : T to U` (arith casts and tt.reinterpret_tensor_descriptor) */
static void wcast(W *w, const ir_op *op)
{
  NEED(op->nopnds == 1 && op->nres == 1);
  wc(w, ' ');
  irw_wval(w, op->opnds[0]);
  irw_wflags(w, op);
  irw_wattr_dict(w, op->attrs, op->nattrs, SK_FLAGS);
  ws(w, " : ");
  irw_wtype(w, op->opnds[0]->type);
  ws(w, " to ");
  irw_wtype(w, op->res[0].type);
}

static void wregular(W *w, const ir_op *op)
{
  ir_opcode c = op->code;
  ir_value *const *o = op->opnds;
  int n = op->nopnds;
  switch (ir_op_syntax(c)) {
  case IR_SYN_SAME:
    NEED(n == ir_op_nopnds(c) && op->nres == 1);
    wc(w, ' ');
    irw_wvals(w, o, n);
    irw_wflags(w, op);
    irw_wattr_dict(w, op->attrs, op->nattrs, SK_FLAGS);
    ws(w, " : ");
    irw_wtype(w, op->res[0].type);
    return;
  case IR_SYN_CMP:
    NEED(n == 2 && irw_attr_s(op, "predicate"));
    wc(w, ' ');
    ws(w, irw_attr_s(op, "predicate"));
    ws(w, ", ");
    irw_wvals(w, o, 2);
    irw_wflags(w, op);
    irw_wattr_dict(w, op->attrs, op->nattrs, SK_CMP);
    ws(w, " : ");
    irw_wtype(w, o[0]->type);
    return;
  case IR_SYN_CAST:
  case IR_SYN_CAST_RM: wcast(w, op); return;
  case IR_SYN_ARROW:
    NEED(n == 1 && op->nres == 1);
    wc(w, ' ');
    irw_wvals(w, o, n);
    irw_wattr_dict(w, op->attrs, op->nattrs, SK_NONE);
    ws(w, " : ");
    irw_wtype(w, o[0]->type);
    ws(w, " -> ");
    irw_wtype(w, op->res[0].type);
    return;
  case IR_SYN_CUSTOM: irw_wbad(w, "op does not fit its custom syntax"); return;
  }
}

/* One case per irregular op of ir_op_list.h; -Wswitch-enum makes a missing row a build error. */
void irw_wcustom(W *w, const ir_op *op, int ind)
{
  ir_opcode c = op->code;
  ir_value *const *o = op->opnds;
  int n = op->nopnds;
  ws(w, ir_op_name(c));
  switch (c) {
#define X(name, mnem, nopnd, nres, flags, syn, rule, ...) IR_CASE_SYN_##syn(name)
#include "ir_op_list.h"
#undef X
    wregular(w, op);
    return;
  case IR_OP_SELECT:
    NEED(n == 3 && op->nres == 1);
    wc(w, ' ');
    irw_wvals(w, o, 3);
    irw_wattr_dict(w, op->attrs, op->nattrs, SK_NONE);
    ws(w, " : ");
    if (o[0]->type && o[0]->type->kind == IR_T_TENSOR) {
      irw_wtype(w, o[0]->type);
      ws(w, ", ");
    }
    irw_wtype(w, op->res[0].type);
    return;
  case IR_OP_REINTERPRET_DESC: wcast(w, op); return;
  case IR_OP_SPLIT:
  case IR_OP_RESHAPE:
  case IR_OP_FP_TO_FP:
  case IR_OP_HISTOGRAM:
  case IR_OP_CAT:
  case IR_OP_JOIN: {
    int want = (c == IR_OP_CAT || c == IR_OP_JOIN) ? 2 : 1;
    if (c == IR_OP_HISTOGRAM || c == IR_OP_FP_TO_FP) NEED(n == 1 || n == 2);
    else NEED(n == want);
    NEED(op->nres == (c == IR_OP_SPLIT ? 2 : 1));
    wc(w, ' ');
    irw_wvals(w, o, n);
    const char *const *skip = SK_NONE;
    if (c == IR_OP_FP_TO_FP) {
      const char *r = irw_attr_s(op, "rounding");
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
    irw_wattr_dict(w, op->attrs, op->nattrs, skip);
    ws(w, " : ");
    irw_wtype(w, o[0]->type);
    ws(w, " -> ");
    irw_wtype(w, op->res[0].type);
    return;
  }
  case IR_OP_UNSPLAT:
  case IR_OP_ASSUME:
    NEED(n == 1);
    wc(w, ' ');
    irw_wval(w, o[0]);
    irw_wattr_dict(w, op->attrs, op->nattrs, SK_NONE);
    ws(w, " : ");
    irw_wtype(w, o[0]->type);
    return;
  case IR_OP_GET_PROGRAM_ID:
  case IR_OP_GET_NUM_PROGRAMS:
    NEED(irw_attr_s(op, "axis") && op->nres == 1);
    wc(w, ' ');
    ws(w, irw_attr_s(op, "axis"));
    irw_wattr_dict(w, op->attrs, op->nattrs, SK_AXIS);
    ws(w, " : ");
    irw_wtype(w, op->res[0].type);
    return;
  case IR_OP_MAKE_RANGE:
  case IR_OP_POISON:
    NEED(op->nres == 1 && n == 0);
    irw_wattr_dict(w, op->attrs, op->nattrs, SK_NONE);
    ws(w, " : ");
    irw_wtype(w, op->res[0].type);
    return;
  case IR_OP_CONSTANT: {
    const ir_attr *v = ir_op_attr(op, "value");
    NEED(v && op->nres == 1);
    irw_wattr_dict(w, op->attrs, op->nattrs, SK_VALUE);
    wc(w, ' ');
    irw_wattr(w, v);
    if ((v->kind == IR_A_INT || v->kind == IR_A_FLOAT) && !v->type) {
      ws(w, " : ");
      irw_wtype(w, op->res[0].type);
    }
    return;
  }
  case IR_OP_ADDPTR:
    NEED(n == 2 && op->nres == 1);
    wc(w, ' ');
    irw_wvals(w, o, 2);
    irw_wattr_dict(w, op->attrs, op->nattrs, SK_NONE);
    ws(w, " : ");
    irw_wtype(w, op->res[0].type);
    ws(w, ", ");
    irw_wtype(w, o[1]->type);
    return;
  case IR_OP_LOAD:
  case IR_OP_STORE: {
    if (c == IR_OP_LOAD) NEED(n >= 1 && n <= 3 && op->nres == 1);
    else NEED(n >= 2 && n <= 3);
    wc(w, ' ');
    irw_wvals(w, o, n);
    wcache_evict(w, op);
    irw_wattr_dict(w, op->attrs, op->nattrs, SK_LS);
    ws(w, " : ");
    irw_wtype(w, o[0]->type);
    return;
  }
  case IR_OP_ATOMIC_RMW:
  case IR_OP_ATOMIC_CAS:
    NEED(op->nres == 1 && irw_attr_s(op, "sem") && irw_attr_s(op, "scope"));
    if (c == IR_OP_ATOMIC_RMW) {
      NEED(irw_attr_s(op, "atomic_rmw_op") && n >= 2);
      wc(w, ' ');
      ws(w, irw_attr_s(op, "atomic_rmw_op"));
      ws(w, ",");
    }
    wc(w, ' ');
    ws(w, irw_attr_s(op, "sem"));
    ws(w, ", ");
    ws(w, irw_attr_s(op, "scope"));
    ws(w, ", ");
    irw_wvals(w, o, n);
    irw_wattr_dict(w, op->attrs, op->nattrs, SK_ATOM);
    ws(w, " : ");
    irw_wfntype(w, op, 0, n);
    return;
  case IR_OP_DOT: {
    NEED(n == 3 && op->nres == 1);
    wc(w, ' ');
    irw_wvals(w, o, 3);
    const char *pr = irw_attr_s(op, "inputPrecision");
    if (pr) {
      ws(w, ", inputPrecision = ");
      ws(w, pr);
    }
    irw_wattr_dict(w, op->attrs, op->nattrs, SK_DOT);
    ws(w, " : ");
    irw_wtype(w, o[0]->type);
    ws(w, " * ");
    irw_wtype(w, o[1]->type);
    ws(w, " -> ");
    irw_wtype(w, op->res[0].type);
    return;
  }
  case IR_OP_DOT_SCALED: {
    const ir_attr *sg = ir_op_attr(op, "operandSegmentSizes");
    NEED(sg && sg->nints == 5 && n == 3 + (int)(sg->ints[3] + sg->ints[4]) && irw_attr_s(op, "a_elem_type") &&
         irw_attr_s(op, "b_elem_type") && op->nres == 1);
    const ir_value *as = sg->ints[3] ? o[3] : NULL, *bs = sg->ints[4] ? o[3 + sg->ints[3]] : NULL;
    wc(w, ' ');
    irw_wval(w, o[0]);
    if (as) {
      ws(w, " scale ");
      irw_wval(w, as);
    }
    ws(w, ", ");
    irw_wval(w, o[1]);
    if (bs) {
      ws(w, " scale ");
      irw_wval(w, bs);
    }
    ws(w, ", ");
    irw_wval(w, o[2]);
    ws(w, " lhs = ");
    ws(w, irw_attr_s(op, "a_elem_type"));
    ws(w, " rhs = ");
    ws(w, irw_attr_s(op, "b_elem_type"));
    irw_wattr_dict(w, op->attrs, op->nattrs, SK_DOTS);
    ws(w, " : ");
    irw_wtype(w, o[0]->type);
    if (as) {
      ws(w, ", ");
      irw_wtype(w, as->type);
    }
    ws(w, " * ");
    irw_wtype(w, o[1]->type);
    if (bs) {
      ws(w, ", ");
      irw_wtype(w, bs->type);
    }
    ws(w, " -> ");
    irw_wtype(w, op->res[0].type);
    return;
  }
  case IR_OP_MAKE_TENSOR_PTR:
  case IR_OP_ADVANCE:
  case IR_OP_MAKE_TENSOR_DESC: {
    NEED(op->nres == 1 && n >= 1);
    int nl = c == IR_OP_MAKE_TENSOR_PTR ? 3 : c == IR_OP_ADVANCE ? 1 : 2;
    NEED((n - 1) % nl == 0);
    int k = (n - 1) / nl;
    wc(w, ' ');
    irw_wval(w, o[0]);
    for (int l = 0; l < nl; l++) {
      ws(w, ", [");
      irw_wvals(w, o + 1 + l * k, k);
      wc(w, ']');
    }
    irw_wattr_dict(w, op->attrs, op->nattrs, SK_NONE);
    ws(w, " : ");
    if (c == IR_OP_MAKE_TENSOR_DESC) {
      irw_wtype(w, o[0]->type);
      ws(w, ", ");
    }
    irw_wtype(w, op->res[0].type);
    return;
  }
  case IR_OP_DESC_LOAD:
  case IR_OP_XDESC_LOAD:
  case IR_OP_DESC_STORE:
  case IR_OP_XDESC_STORE:
  case IR_OP_DESC_REDUCE: {
    bool store = c != IR_OP_DESC_LOAD && c != IR_OP_XDESC_LOAD;
    NEED(n >= (store ? 2 : 1) && op->nres == (store ? 0 : 1));
    int first = store ? 2 : 1;
    if (c == IR_OP_DESC_REDUCE) {
      NEED(irw_attr_s(op, "kind"));
      wc(w, ' ');
      ws(w, irw_attr_s(op, "kind"));
      wc(w, ',');
    }
    wc(w, ' ');
    irw_wval(w, o[0]);
    wc(w, '[');
    irw_wvals(w, o + first, n - first);
    wc(w, ']');
    if (store) {
      ws(w, ", ");
      irw_wval(w, o[1]);
    }
    wcache_evict(w, op);
    const char *rk = irw_attr_s(op, "reduce_kind");
    if (rk && c == IR_OP_DESC_STORE) {
      ws(w, " reduce_kind = ");
      ws(w, rk);
    }
    irw_wattr_dict(w, op->attrs, op->nattrs, c == IR_OP_DESC_REDUCE ? SK_KIND : SK_DSTORE);
    ws(w, " : ");
    irw_wtype(w, o[0]->type);
    ws(w, store ? ", " : " -> ");
    irw_wtype(w, store ? o[1]->type : op->res[0].type);
    return;
  }
  case IR_OP_DESC_GATHER:
  case IR_OP_XDESC_GATHER:
  case IR_OP_DESC_SCATTER:
  case IR_OP_XDESC_SCATTER: {
    bool sc = c == IR_OP_DESC_SCATTER || c == IR_OP_XDESC_SCATTER;
    NEED(n == (sc ? 4 : 3) && op->nres == (sc ? 0 : 1));
    wc(w, ' ');
    irw_wval(w, o[0]);
    wc(w, '[');
    irw_wvals(w, o + 1, 2);
    wc(w, ']');
    if (sc) {
      ws(w, ", ");
      irw_wval(w, o[3]);
    }
    irw_wattr_dict(w, op->attrs, op->nattrs, SK_NONE);
    ws(w, " : ");
    if (sc) irw_wvtypes(w, o, 4);
    else irw_wfntype(w, op, 0, 3);
    return;
  }
  case IR_OP_GATHER:
    NEED(n == 2 && op->nres == 1);
    wc(w, ' ');
    irw_wval(w, o[0]);
    wc(w, '[');
    irw_wval(w, o[1]);
    wc(w, ']');
    irw_wattr_dict(w, op->attrs, op->nattrs, SK_NONE);
    ws(w, " : ");
    irw_wfntype(w, op, 0, 2);
    return;
  case IR_OP_EXTERN_ELEMENTWISE:
    NEED(op->nres == 1);
    if (n) wc(w, ' ');
    irw_wvals(w, o, n);
    irw_wattr_dict(w, op->attrs, op->nattrs, SK_NONE);
    ws(w, " : ");
    irw_wfntype(w, op, 0, n);
    return;
  case IR_OP_CALL:
    NEED(op->callee);
    wc(w, ' ');
    irw_wsym(w, op->callee);
    wc(w, '(');
    irw_wvals(w, o, n);
    wc(w, ')');
    irw_wattr_dict(w, op->attrs, op->nattrs, SK_NONE);
    ws(w, " : ");
    irw_wfntype(w, op, 0, n);
    return;
  case IR_OP_RETURN:
  case IR_OP_SCF_YIELD:
  case IR_OP_MAP_ELEM_RETURN:
    irw_wattr_dict(w, op->attrs, op->nattrs, SK_NONE);
    if (n) {
      wc(w, ' ');
      irw_wvals(w, o, n);
      ws(w, " : ");
      irw_wvtypes(w, o, n);
    }
    return;
  case IR_OP_REDUCE_RETURN:
  case IR_OP_SCAN_RETURN:
    if (n) {
      wc(w, ' ');
      irw_wvals(w, o, n);
    }
    irw_wattr_dict(w, op->attrs, op->nattrs, SK_NONE);
    if (n) {
      ws(w, " : ");
      irw_wvtypes(w, o, n);
    }
    return;
  case IR_OP_SCF_CONDITION:
    NEED(n >= 1);
    wc(w, '(');
    irw_wval(w, o[0]);
    wc(w, ')');
    irw_wattr_dict(w, op->attrs, op->nattrs, SK_NONE);
    if (n > 1) {
      wc(w, ' ');
      irw_wvals(w, o + 1, n - 1);
      ws(w, " : ");
      irw_wvtypes(w, o + 1, n - 1);
    }
    return;
  case IR_OP_PRINT: {
    const ir_attr *pf = ir_op_attr(op, "prefix");
    NEED(pf && pf->kind == IR_A_STRING);
    wc(w, ' ');
    irw_wstr(w, pf->s, pf->slen);
    irw_wattr_dict(w, op->attrs, op->nattrs, SK_PREFIX);
    if (n) {
      ws(w, " : ");
      irw_wvals(w, o, n);
      ws(w, " : ");
      irw_wvtypes(w, o, n);
    }
    return;
  }
  case IR_OP_ASSERT: {
    const ir_attr *msg = ir_op_attr(op, "message");
    NEED(n == 1 && msg && msg->kind == IR_A_STRING);
    wc(w, ' ');
    irw_wval(w, o[0]);
    ws(w, ", ");
    irw_wstr(w, msg->s, msg->slen);
    const ir_attr *fa = ir_op_attr(op, "file"), *fu = ir_op_attr(op, "func"), *li = ir_op_attr(op, "line");
    if (fa && fu && li && fa->kind == IR_A_STRING && fu->kind == IR_A_STRING && li->kind == IR_A_INT) {
      ws(w, ", ");
      irw_wstr(w, fa->s, fa->slen);
      ws(w, ", ");
      irw_wstr(w, fu->s, fu->slen);
      irw_wf(w, ", %lld", (long long)li->i);
      irw_wattr_dict(w, op->attrs, op->nattrs, SK_ASSERT);
    } else {
      irw_wattr_dict(w, op->attrs, op->nattrs, SK_ASSERT + 0);
    }
    ws(w, " : ");
    irw_wtype(w, o[0]->type);
    return;
  }
  case IR_OP_GPU_BARRIER:
  case IR_OP_TTG_BARRIER: {
    const ir_attr *as = ir_op_attr(op, "addrSpace");
    if (as && c == IR_OP_TTG_BARRIER && as->s) {
      wc(w, ' ');
      wmem(w, as->s, as->slen);
    }
    irw_wattr_dict(w, op->attrs, op->nattrs, c == IR_OP_TTG_BARRIER ? SK_BAR : SK_NONE);
    return;
  }
  case IR_OP_CLAMPF:
    NEED(n == 3 && op->nres == 1 && irw_attr_s(op, "propagateNan"));
    wc(w, ' ');
    irw_wvals(w, o, 3);
    ws(w, ", propagateNan = ");
    ws(w, irw_attr_s(op, "propagateNan"));
    irw_wattr_dict(w, op->attrs, op->nattrs, SK_NAN);
    ws(w, " : ");
    irw_wtype(w, op->res[0].type);
    return;
  case IR_OP_INLINE_ASM: {
    const ir_attr *s = ir_op_attr(op, "asm_string");
    NEED(s && s->kind == IR_A_STRING);
    wc(w, ' ');
    irw_wstr(w, s->s, s->slen);
    irw_wattr_dict(w, op->attrs, op->nattrs, SK_ASM);
    if (n) {
      wc(w, ' ');
      irw_wvals(w, o, n);
      ws(w, " : ");
      irw_wvtypes(w, o, n);
    }
    ws(w, " ->");
    for (int i = 0; i < op->nres; i++) {
      ws(w, i ? ", " : " ");
      irw_wtype(w, op->res[i].type);
    }
    return;
  }
  case IR_OP_CF_BR:
    NEED(op->nsuccs == 1 && n == 0);
    wc(w, ' ');
    irw_wsucc(w, &op->succs[0]);
    irw_wattr_dict(w, op->attrs, op->nattrs, SK_NONE);
    return;
  case IR_OP_CF_COND_BR:
    NEED(op->nsuccs == 2 && n == 1);
    wc(w, ' ');
    irw_wval(w, o[0]);
    ws(w, ", ");
    irw_wsucc(w, &op->succs[0]);
    ws(w, ", ");
    irw_wsucc(w, &op->succs[1]);
    irw_wattr_dict(w, op->attrs, op->nattrs, SK_NONE);
    return;
  case IR_OP_SCF_FOR: {
    NEED(op->nregions == 1 && n >= 3 && op->nres == n - 3 && op->regions[0].nblocks >= 1 &&
         op->regions[0].blocks[0]->nargs == n - 2);
    const ir_block *e = op->regions[0].blocks[0];
    if (ir_op_attr(op, "unsignedCmp")) ws(w, " unsigned");
    wc(w, ' ');
    irw_wval(w, &e->args[0]);
    ws(w, " = ");
    irw_wval(w, o[0]);
    ws(w, " to ");
    irw_wval(w, o[1]);
    ws(w, " step ");
    irw_wval(w, o[2]);
    if (n > 3) {
      ws(w, " iter_args(");
      for (int i = 3; i < n; i++) {
        if (i > 3) ws(w, ", ");
        irw_wval(w, &e->args[i - 2]);
        ws(w, " = ");
        irw_wval(w, o[i]);
      }
      ws(w, ") -> (");
      for (int i = 0; i < op->nres; i++) {
        if (i) ws(w, ", ");
        irw_wtype(w, op->res[i].type);
      }
      wc(w, ')');
    }
    ws(w, "  : ");
    irw_wtype(w, e->args[0].type);
    wc(w, ' ');
    irw_wregion(w, &op->regions[0], ind, false);
    irw_wattr_dict(w, op->attrs, op->nattrs, SK_FOR);
    return;
  }
  case IR_OP_SCF_IF:
    NEED(op->nregions == 2 && n == 1);
    wc(w, ' ');
    irw_wval(w, o[0]);
    if (op->nres) {
      ws(w, " -> (");
      for (int i = 0; i < op->nres; i++) {
        if (i) ws(w, ", ");
        irw_wtype(w, op->res[i].type);
      }
      wc(w, ')');
    }
    wc(w, ' ');
    irw_wregion(w, &op->regions[0], ind, false);
    if (op->regions[1].nblocks) {
      ws(w, " else ");
      irw_wregion(w, &op->regions[1], ind, false);
    }
    irw_wattr_dict(w, op->attrs, op->nattrs, SK_NONE);
    return;
  case IR_OP_SCF_WHILE: {
    NEED(op->nregions == 2 && op->regions[0].nblocks >= 1 && op->regions[0].blocks[0]->nargs == n);
    const ir_block *e = op->regions[0].blocks[0];
    if (n) { /* MLIR omits the empty init list: `scf.while : () -> () {` */
      ws(w, " (");
      for (int i = 0; i < n; i++) {
        if (i) ws(w, ", ");
        irw_wval(w, &e->args[i]);
        ws(w, " = ");
        irw_wval(w, o[i]);
      }
      ws(w, ")");
    }
    ws(w, " : ");
    irw_wfntype(w, op, 0, n);
    wc(w, ' ');
    irw_wregion(w, &op->regions[0], ind, false);
    ws(w, " do ");
    irw_wregion(w, &op->regions[1], ind, true);
    if (op->nattrs) {
      ws(w, " attributes");
      irw_wattr_dict(w, op->attrs, op->nattrs, SK_NONE);
    }
    return;
  }
  case IR_OP_REDUCE:
  case IR_OP_SCAN:
  case IR_OP_MAP_ELEMENTWISE:
  case IR_OP_VENDOR: /* generic form (wop) */
  case IR_OP_COUNT:
  default: irw_wbad(w, "no custom printer"); return;
  }
}
#pragma GCC diagnostic pop
