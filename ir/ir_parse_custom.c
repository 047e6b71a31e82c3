/*
 * ir_parse_custom.c: the custom assembly format of every op in ir_op_list.h
 * (the text make_ttir prints), after the mnemonic.
 */
#include "config.h"
#include "ir_parse_impl.h"
/* One case per irregular op of ir_op_list.h; -Wswitch-enum makes a missing row a build error. */
#pragma GCC diagnostic push
#pragma GCC diagnostic error "-Wswitch-enum"
/* ':' types: one per value of the n uses from um (pushed from tm on), each value checked against its type */
static ttref_status use_types(P *p, size_t n, size_t um, size_t tm)
{
  ttref_status st = TTREF_OK;
  size_t nin = 0;
  TRY(irp_expect(p, IR_TK_COLON, "':'"));
  const int l1 = p->tok.line, c1 = p->tok.col;
  TRY(irp_parse_types(p, HINT_NONE, &nin));
  if (nin != n) FAIL(irp_perr(p, l1, c1, "%zu types for %zu values", nin, n));
  for (size_t i = 0; i < n; i++) TRY(irp_opnd(p, &VAT(p->uses, use, um + i), VAT(p->tys, const ir_type *, tm + i)));
fail:
  return st;
}

/* a string token, kept as the op's string attribute @p name (tt.print's prefix, the asm of tt.elementwise_inline_asm) */
static ttref_status string_attr(P *p, const char *name)
{
  ttref_status st = TTREF_OK;
  ir_attr a = {0};
  char *s;
  TRY(irp_parse_string_tok(p, &s, &a.slen));
  a.name = name;
  a.kind = IR_A_STRING;
  a.s = s;
  PUSH(p->attrs, ir_attr, a);
fail:
  return st;
}

ttref_status irp_parse_custom(P *p, opb *b)
{
  ttref_status st = TTREF_OK;
  ir_op *op = b->op;
  ir_opcode code = op->code;
  use u[8];
  const ir_type *t1 = NULL, *t2 = NULL, *t3 = NULL;
  int l1, c1, l2, c2;
  size_t n, nin, nout;
  bool got;

  switch (code) {
    /* regular ops: their format comes from the syntax column (irp_parse_regular) */
#define X(name, mnem, nopnd, nres, flags, syn, rule, ...) IR_CASE_SYN_##syn(name)
#include "ir_op_list.h"
#undef X
    FAIL(irp_perr(p, b->line, b->col, "internal: '%s' has a table syntax", ir_op_name(code)));

  case IR_OP_SELECT:
    for (int i = 0; i < 3; i++) {
      if (i) TRY(irp_expect(p, IR_TK_COMMA, "','"));
      TRY(irp_parse_use(p, &u[i]));
    }
    TRY(irp_parse_opt_attr_dict(p));
    TRY(irp_expect(p, IR_TK_COLON, "':'"));
    TRY(irp_parse_type(p, HINT_NONE, &t1));
    TRY(irp_accept(p, IR_TK_COMMA, &got));
    if (got) TRY(irp_parse_type(p, HINT_NONE, &t2));
    else {
      t2 = t1;
      t1 = p->t_i1;
    }
    TRY(irp_opnd(p, &u[0], t1));
    TRY(irp_opnd(p, &u[1], t2));
    TRY(irp_opnd(p, &u[2], t2));
    TRY(irp_result(p, t2));
    break;

  /* ---- op %x [attrs] : A (to | ->) !tt.tensordesc<...> ---- */
  case IR_OP_REINTERPRET_DESC:
    TRY(irp_parse_use(p, &u[0]));
    TRY(irp_parse_opt_attr_dict(p));
    TRY(irp_expect(p, IR_TK_COLON, "':'"));
    TRY(irp_parse_type(p, HINT_NONE, &t1));
    if (is(p, IR_TK_ARROW)) TRY(irp_next(p));
    else TRY(irp_expect_kw(p, "to"));
    TRY(irp_parse_type(p, HINT_DESC, &t2));
    TRY(irp_opnd(p, &u[0], t1));
    TRY(irp_result(p, t2));
    break;

  /* ---- tt one-operand A -> B ---- */
  case IR_OP_SPLIT:
  case IR_OP_RESHAPE:
  case IR_OP_FP_TO_FP:
  case IR_OP_HISTOGRAM:
  case IR_OP_CAT:
  case IR_OP_JOIN: {
    int nu = 1;
    TRY(irp_parse_use(p, &u[0]));
    if (code == IR_OP_CAT || code == IR_OP_JOIN) {
      TRY(irp_expect(p, IR_TK_COMMA, "','"));
      TRY(irp_parse_use(p, &u[nu++]));
    }
    if (code == IR_OP_HISTOGRAM && is(p, IR_TK_COMMA)) {
      TRY(irp_next(p));
      TRY(irp_parse_use(p, &u[nu++]));
    }
    if (code == IR_OP_FP_TO_FP) {
      while (is(p, IR_TK_COMMA)) {
        TRY(irp_next(p));
        if (is(p, IR_TK_PERCENT) && nu == 1) TRY(irp_parse_use(p, &u[nu++]));
        else {
          TRY(irp_expect_kw(p, "rounding"));
          TRY(irp_expect(p, IR_TK_EQUAL, "'='"));
          TRY(irp_push_enum_kw(p, code, "rounding"));
        }
      }
    }
    if (code == IR_OP_RESHAPE) {
      while (is_kw(p, "allow_reorder") || is_kw(p, "efficient_layout")) {
        ir_attr a = {0};
        a.name = is_kw(p, "allow_reorder") ? "allow_reorder" : "efficient_layout";
        a.kind = IR_A_UNIT;
        PUSH(p->attrs, ir_attr, a);
        TRY(irp_next(p));
      }
    }
    TRY(irp_parse_opt_attr_dict(p));
    TRY(irp_expect(p, IR_TK_COLON, "':'"));
    TRY(irp_parse_type(p, HINT_NONE, &t1));
    TRY(irp_expect(p, IR_TK_ARROW, "'->'"));
    TRY(irp_parse_type(p, HINT_NONE, &t2));
    TRY(irp_opnd(p, &u[0], t1));
    if (code == IR_OP_CAT || code == IR_OP_JOIN) TRY(irp_opnd(p, &u[1], t1));
    else if (code == IR_OP_HISTOGRAM && nu == 2) TRY(irp_opnd(p, &u[1], i1_like(p, t1)));
    else if (code == IR_OP_FP_TO_FP && nu == 2) TRY(irp_opnd(p, &u[1], NULL));
    TRY(irp_result(p, t2));
    if (code == IR_OP_SPLIT) TRY(irp_result(p, t2));
    break;
  }

  case IR_OP_UNSPLAT:
    TRY(irp_parse_use(p, &u[0]));
    TRY(irp_parse_opt_attr_dict(p));
    TRY(irp_expect(p, IR_TK_COLON, "':'"));
    TRY(irp_type_at(p, HINT_NONE, &t1, &l1, &c1));
    if (t1->kind != IR_T_TENSOR) FAIL(irp_perr(p, l1, c1, "tt.unsplat needs a tensor operand"));
    TRY(irp_opnd(p, &u[0], t1));
    TRY(irp_result(p, t1->elem));
    break;

  case IR_OP_GET_PROGRAM_ID:
  case IR_OP_GET_NUM_PROGRAMS:
    if (is(p, IR_TK_IDENT)) TRY(irp_push_enum_kw(p, code, "axis"));
    /* fallthrough */
  case IR_OP_MAKE_RANGE:
  case IR_OP_POISON:
    TRY(irp_parse_opt_attr_dict(p));
    TRY(irp_expect(p, IR_TK_COLON, "':'"));
    TRY(irp_parse_type(p, HINT_NONE, &t1));
    TRY(irp_result(p, t1));
    break;

  case IR_OP_CONSTANT: {
    TRY(irp_parse_opt_attr_dict(p));
    ir_attr a = {0};
    int la = p->tok.line, ca = p->tok.col;
    TRY(irp_parse_attr(p, &a));
    a.name = "value";
    if (a.kind == IR_A_INT && !a.type) a.type = p->t_i64;
    if (a.kind == IR_A_FLOAT && !a.type) a.type = ir_type_scalar(p->m, IR_S_F64);
    if (a.kind != IR_A_INT && a.kind != IR_A_FLOAT && a.kind != IR_A_BOOL && a.kind != IR_A_DENSE)
      FAIL(irp_perr(p, la, ca, "unsupported arith.constant value"));
    PUSH(p->attrs, ir_attr, a);
    TRY(irp_result(p, a.type));
    break;
  }

  case IR_OP_ADDPTR:
    TRY(irp_parse_use(p, &u[0]));
    TRY(irp_expect(p, IR_TK_COMMA, "','"));
    TRY(irp_parse_use(p, &u[1]));
    TRY(irp_parse_opt_attr_dict(p));
    TRY(irp_expect(p, IR_TK_COLON, "':'"));
    TRY(irp_parse_type(p, HINT_NONE, &t1));
    TRY(irp_expect(p, IR_TK_COMMA, "','"));
    TRY(irp_parse_type(p, HINT_NONE, &t2));
    TRY(irp_opnd(p, &u[0], t1));
    TRY(irp_opnd(p, &u[1], t2));
    TRY(irp_result(p, t1));
    break;

  case IR_OP_LOAD:
  case IR_OP_STORE: {
    int nu = 0, first_opt = code == IR_OP_LOAD ? 1 : 2;
    TRY(irp_parse_use(p, &u[nu++]));
    if (code == IR_OP_STORE) {
      TRY(irp_expect(p, IR_TK_COMMA, "','"));
      TRY(irp_parse_use(p, &u[nu++]));
    }
    while (is(p, IR_TK_COMMA) && nu < first_opt + (code == IR_OP_LOAD ? 2 : 1)) {
      TRY(irp_next(p));
      TRY(irp_parse_use(p, &u[nu++]));
    }
    TRY(irp_parse_cache_evict(p, code));
    TRY(irp_parse_opt_attr_dict(p));
    TRY(irp_expect(p, IR_TK_COLON, "':'"));
    TRY(irp_type_at(p, HINT_NONE, &t1, &l1, &c1));
    const ir_type *pt = irp_pointee_of(p, t1);
    if (!pt) FAIL(irp_perr(p, l1, c1, "%s needs a pointer or tensor-of-pointers type", ir_op_name(code)));
    TRY(irp_opnd(p, &u[0], t1));
    for (int i = 1; i < nu; i++) {
      bool is_mask = (code == IR_OP_LOAD && i == 1) || (code == IR_OP_STORE && i == 2);
      TRY(irp_opnd(p, &u[i], is_mask ? i1_like(p, pt) : pt));
    }
    if (code == IR_OP_LOAD) TRY(irp_result(p, pt));
    break;
  }

  case IR_OP_ATOMIC_RMW:
  case IR_OP_ATOMIC_CAS: {
    if (code == IR_OP_ATOMIC_RMW) {
      TRY(irp_push_enum_kw(p, code, "atomic_rmw_op"));
      TRY(irp_expect(p, IR_TK_COMMA, "','"));
    }
    TRY(irp_push_enum_kw(p, code, "sem"));
    TRY(irp_expect(p, IR_TK_COMMA, "','"));
    TRY(irp_push_enum_kw(p, code, "scope"));
    TRY(irp_expect(p, IR_TK_COMMA, "','"));
    size_t um = p->uses.n, tm = p->tys.n;
    TRY(irp_parse_uses(p, &n));
    TRY(irp_parse_opt_attr_dict(p));
    TRY(irp_expect(p, IR_TK_COLON, "':'"));
    l1 = p->tok.line;
    c1 = p->tok.col;
    TRY(irp_parse_fn_type(p, &nin, &nout));
    if (nin != n || nout != 1) FAIL(irp_perr(p, l1, c1, "type list does not match %zu operands and 1 result", n));
    for (size_t i = 0; i < n; i++) TRY(irp_opnd(p, &VAT(p->uses, use, um + i), VAT(p->tys, const ir_type *, tm + i)));
    TRY(irp_result(p, VAT(p->tys, const ir_type *, tm + nin)));
    p->uses.n = um;
    p->tys.n = tm;
    break;
  }

  case IR_OP_DOT:
    for (int i = 0; i < 3; i++) {
      if (i) TRY(irp_expect(p, IR_TK_COMMA, "','"));
      TRY(irp_parse_use(p, &u[i]));
    }
    if (is(p, IR_TK_COMMA)) {
      TRY(irp_next(p));
      TRY(irp_expect_kw(p, "inputPrecision"));
      TRY(irp_expect(p, IR_TK_EQUAL, "'='"));
      TRY(irp_push_enum_kw(p, code, "inputPrecision"));
    }
    TRY(irp_parse_opt_attr_dict(p));
    TRY(irp_expect(p, IR_TK_COLON, "':'"));
    TRY(irp_parse_type(p, HINT_NONE, &t1));
    TRY(irp_expect(p, IR_TK_STAR, "'*'"));
    TRY(irp_parse_type(p, HINT_NONE, &t2));
    TRY(irp_expect(p, IR_TK_ARROW, "'->'"));
    TRY(irp_parse_type(p, HINT_NONE, &t3));
    TRY(irp_opnd(p, &u[0], t1));
    TRY(irp_opnd(p, &u[1], t2));
    TRY(irp_opnd(p, &u[2], t3));
    TRY(irp_result(p, t3));
    break;

  case IR_OP_DOT_SCALED: {
    bool has_as = false, has_bs = false;
    const ir_type *tas = NULL, *tbs = NULL;
    TRY(irp_parse_use(p, &u[0]));
    if (is_kw(p, "scale")) {
      TRY(irp_next(p));
      TRY(irp_parse_use(p, &u[3]));
      has_as = true;
    }
    TRY(irp_expect(p, IR_TK_COMMA, "','"));
    TRY(irp_parse_use(p, &u[1]));
    if (is_kw(p, "scale")) {
      TRY(irp_next(p));
      TRY(irp_parse_use(p, &u[4]));
      has_bs = true;
    }
    TRY(irp_expect(p, IR_TK_COMMA, "','"));
    TRY(irp_parse_use(p, &u[2]));
    TRY(irp_expect_kw(p, "lhs"));
    TRY(irp_expect(p, IR_TK_EQUAL, "'='"));
    TRY(irp_push_enum_kw(p, code, "a_elem_type"));
    TRY(irp_expect_kw(p, "rhs"));
    TRY(irp_expect(p, IR_TK_EQUAL, "'='"));
    TRY(irp_push_enum_kw(p, code, "b_elem_type"));
    TRY(irp_parse_opt_attr_dict(p));
    TRY(irp_expect(p, IR_TK_COLON, "':'"));
    TRY(irp_parse_type(p, HINT_NONE, &t1));
    if (has_as) {
      TRY(irp_expect(p, IR_TK_COMMA, "','"));
      TRY(irp_parse_type(p, HINT_NONE, &tas));
    }
    TRY(irp_expect(p, IR_TK_STAR, "'*'"));
    TRY(irp_parse_type(p, HINT_NONE, &t2));
    if (has_bs) {
      TRY(irp_expect(p, IR_TK_COMMA, "','"));
      TRY(irp_parse_type(p, HINT_NONE, &tbs));
    }
    TRY(irp_expect(p, IR_TK_ARROW, "'->'"));
    TRY(irp_parse_type(p, HINT_NONE, &t3));
    TRY(irp_opnd(p, &u[0], t1));
    TRY(irp_opnd(p, &u[1], t2));
    TRY(irp_opnd(p, &u[2], t3));
    if (has_as) TRY(irp_opnd(p, &u[3], tas));
    if (has_bs) TRY(irp_opnd(p, &u[4], tbs));
    TRY(irp_result(p, t3));
    ir_attr a = {0};
    a.name = "operandSegmentSizes";
    a.kind = IR_A_ARRAY;
    a.type = p->t_i32;
    a.nints = 5;
    NEW(a.ints, 5 * sizeof(int64_t));
    a.ints[0] = a.ints[1] = a.ints[2] = 1;
    a.ints[3] = has_as;
    a.ints[4] = has_bs;
    PUSH(p->attrs, ir_attr, a);
    break;
  }

  case IR_OP_MAKE_TENSOR_PTR:
  case IR_OP_ADVANCE:
  case IR_OP_MAKE_TENSOR_DESC: {
    size_t um = p->uses.n, cnt[3] = {0, 0, 0};
    int nlists = code == IR_OP_MAKE_TENSOR_PTR ? 3 : code == IR_OP_ADVANCE ? 1 : 2;
    TRY(irp_parse_use(p, &u[0]));
    for (int k = 0; k < nlists; k++) {
      TRY(irp_expect(p, IR_TK_COMMA, "','"));
      TRY(irp_expect(p, IR_TK_LBRACKET, "'['"));
      TRY(irp_parse_uses(p, &cnt[k]));
      TRY(irp_expect(p, IR_TK_RBRACKET, "']'"));
    }
    TRY(irp_parse_opt_attr_dict(p));
    TRY(irp_expect(p, IR_TK_COLON, "':'"));
    TRY(irp_type_at(p, HINT_PTR, &t1, &l1, &c1));
    if (code == IR_OP_MAKE_TENSOR_DESC) {
      TRY(irp_expect(p, IR_TK_COMMA, "','"));
      TRY(irp_type_at(p, HINT_DESC, &t2, &l2, &c2));
      if (t2->kind != IR_T_DESC) FAIL(irp_perr(p, l2, c2, "expected a tensor descriptor type"));
      TRY(irp_opnd(p, &u[0], t1));
    } else {
      if (t1->kind != IR_T_PTR || t1->elem->kind != IR_T_TENSOR)
        FAIL(irp_perr(p, l1, c1, "expected a block pointer type"));
      if (code == IR_OP_MAKE_TENSOR_PTR) {
        const ir_type *base = ir_type_ptr(p->m, t1->elem->elem, t1->addrspace);
        TRY(irp_opnd(p, &u[0], base));
      } else {
        TRY(irp_opnd(p, &u[0], t1));
      }
    }
    size_t k = um;
    for (int li = 0; li < nlists; li++) {
      const ir_type *lt = p->t_i32;
      if (code == IR_OP_MAKE_TENSOR_PTR && li < 2) lt = p->t_i64;
      if (code == IR_OP_MAKE_TENSOR_DESC && li == 1) lt = p->t_i64;
      for (size_t i = 0; i < cnt[li]; i++, k++) TRY(irp_opnd(p, &VAT(p->uses, use, k), lt));
    }
    p->uses.n = um;
    TRY(irp_result(p, code == IR_OP_MAKE_TENSOR_DESC ? t2 : t1));
    break;
  }

  case IR_OP_DESC_LOAD:
  case IR_OP_XDESC_LOAD:
  case IR_OP_DESC_STORE:
  case IR_OP_XDESC_STORE:
  case IR_OP_DESC_REDUCE: {
    size_t um = p->uses.n;
    bool store = code != IR_OP_DESC_LOAD && code != IR_OP_XDESC_LOAD;
    if (code == IR_OP_DESC_REDUCE) {
      TRY(irp_push_enum_kw(p, code, "kind"));
      TRY(irp_expect(p, IR_TK_COMMA, "','"));
    }
    TRY(irp_parse_use(p, &u[0]));
    TRY(irp_expect(p, IR_TK_LBRACKET, "'['"));
    TRY(irp_parse_uses(p, &n));
    TRY(irp_expect(p, IR_TK_RBRACKET, "']'"));
    if (store) {
      TRY(irp_expect(p, IR_TK_COMMA, "','"));
      TRY(irp_parse_use(p, &u[1]));
    }
    TRY(irp_parse_cache_evict(p, code));
    TRY(irp_parse_opt_attr_dict(p));
    TRY(irp_expect(p, IR_TK_COLON, "':'"));
    TRY(irp_parse_type(p, HINT_DESC, &t1));
    if (store) TRY(irp_expect(p, IR_TK_COMMA, "','"));
    else TRY(irp_expect(p, IR_TK_ARROW, "'->'"));
    TRY(irp_parse_type(p, HINT_NONE, &t2));
    TRY(irp_opnd(p, &u[0], t1));
    if (store) TRY(irp_opnd(p, &u[1], t2));
    for (size_t i = 0; i < n; i++) TRY(irp_opnd(p, &VAT(p->uses, use, um + i), p->t_i32));
    p->uses.n = um;
    if (!store) TRY(irp_result(p, t2));
    break;
  }

  case IR_OP_DESC_GATHER:
  case IR_OP_XDESC_GATHER:
  case IR_OP_DESC_SCATTER:
  case IR_OP_XDESC_SCATTER: {
    bool scatter = code == IR_OP_DESC_SCATTER || code == IR_OP_XDESC_SCATTER;
    size_t tm = p->tys.n;
    TRY(irp_parse_use(p, &u[0]));
    TRY(irp_expect(p, IR_TK_LBRACKET, "'['"));
    TRY(irp_parse_use(p, &u[1]));
    TRY(irp_expect(p, IR_TK_COMMA, "','"));
    TRY(irp_parse_use(p, &u[2]));
    TRY(irp_expect(p, IR_TK_RBRACKET, "']'"));
    if (scatter) {
      TRY(irp_expect(p, IR_TK_COMMA, "','"));
      TRY(irp_parse_use(p, &u[3]));
    }
    TRY(irp_parse_opt_attr_dict(p));
    TRY(irp_expect(p, IR_TK_COLON, "':'"));
    l1 = p->tok.line;
    c1 = p->tok.col;
    if (scatter) {
      TRY(irp_parse_types(p, HINT_DESC, &nin));
      if (nin != 4) FAIL(irp_perr(p, l1, c1, "expected 4 operand types"));
      for (int i = 0; i < 4; i++) TRY(irp_opnd(p, &u[i], VAT(p->tys, const ir_type *, tm + (size_t)i)));
    } else {
      TRY(irp_parse_fn_type(p, &nin, &nout));
      if (nin != 3 || nout != 1) FAIL(irp_perr(p, l1, c1, "expected (desc, offsets, offset) -> result"));
      for (int i = 0; i < 3; i++) TRY(irp_opnd(p, &u[i], VAT(p->tys, const ir_type *, tm + (size_t)i)));
      TRY(irp_result(p, VAT(p->tys, const ir_type *, tm + 3)));
    }
    p->tys.n = tm;
    break;
  }

  case IR_OP_GATHER:
    TRY(irp_parse_use(p, &u[0]));
    TRY(irp_expect(p, IR_TK_LBRACKET, "'['"));
    TRY(irp_parse_use(p, &u[1]));
    TRY(irp_expect(p, IR_TK_RBRACKET, "']'"));
    /* fallthrough */
  case IR_OP_EXTERN_ELEMENTWISE:
  case IR_OP_CALL: {
    size_t um = p->uses.n, tm = p->tys.n, nu = 2;
    if (code == IR_OP_CALL) {
      if (!is(p, IR_TK_AT)) FAIL(TERR("expected callee symbol"));
      if (p->tok.p[1] == '"') {
        char *s;
        NEW(s, p->tok.n);
        s[ir_lex_unescape(p->tok.p + 2, p->tok.n - 3, s)] = 0;
        op->callee = s;
      } else {
        op->callee = astr(p, p->tok.p + 1, p->tok.n - 1);
        if (!op->callee) FAIL(irp_nomem(p));
      }
      TRY(irp_next(p));
      TRY(irp_expect(p, IR_TK_LPAREN, "'('"));
    }
    if (code != IR_OP_GATHER) TRY(irp_parse_uses(p, &nu));
    if (code == IR_OP_CALL) TRY(irp_expect(p, IR_TK_RPAREN, "')'"));
    TRY(irp_parse_opt_attr_dict(p));
    TRY(irp_expect(p, IR_TK_COLON, "':'"));
    l1 = p->tok.line;
    c1 = p->tok.col;
    TRY(irp_parse_fn_type(p, &nin, &nout));
    if (nin != nu) FAIL(irp_perr(p, l1, c1, "%zu operand types for %zu operands", nin, nu));
    for (size_t i = 0; i < nu; i++)
      TRY(irp_opnd(p, code == IR_OP_GATHER ? &u[i] : &VAT(p->uses, use, um + i), VAT(p->tys, const ir_type *, tm + i)));
    for (size_t i = 0; i < nout; i++) TRY(irp_result(p, VAT(p->tys, const ir_type *, tm + nin + i)));
    p->uses.n = um;
    p->tys.n = tm;
    if (code == IR_OP_CALL) PUSH(p->calls, ir_op *, op);
    break;
  }

  /* ---- terminators with value lists: [attrs] [uses ':' types] [attrs] ---- */
  case IR_OP_RETURN:
  case IR_OP_SCF_YIELD:
  case IR_OP_REDUCE_RETURN:
  case IR_OP_SCAN_RETURN:
  case IR_OP_MAP_ELEM_RETURN:
  case IR_OP_SCF_CONDITION: {
    size_t um = p->uses.n, tm = p->tys.n;
    if (code == IR_OP_SCF_CONDITION) {
      TRY(irp_expect(p, IR_TK_LPAREN, "'('"));
      TRY(irp_parse_use(p, &u[0]));
      TRY(irp_expect(p, IR_TK_RPAREN, "')'"));
      TRY(irp_opnd(p, &u[0], p->t_i1));
    }
    TRY(irp_parse_opt_attr_dict(p));
    TRY(irp_parse_uses(p, &n));
    if (n) {
      TRY(irp_parse_opt_attr_dict(p));
      TRY(use_types(p, n, um, tm));
    }
    p->uses.n = um;
    p->tys.n = tm;
    break;
  }

  case IR_OP_PRINT: {
    TRY(string_attr(p, "prefix"));
    TRY(irp_parse_opt_attr_dict(p));
    if (is(p, IR_TK_COLON)) {
      size_t um = p->uses.n, tm = p->tys.n;
      TRY(irp_next(p));
      TRY(irp_parse_uses(p, &n));
      TRY(use_types(p, n, um, tm));
      p->uses.n = um;
      p->tys.n = tm;
    }
    break;
  }

  case IR_OP_ASSERT: {
    TRY(irp_parse_use(p, &u[0]));
    TRY(irp_expect(p, IR_TK_COMMA, "','"));
    static const char *const names[] = {"message", "file", "func"};
    for (int i = 0; i < 4; i++) {
      ir_attr a = {0};
      if (i == 3) {
        a.name = "line";
        a.kind = IR_A_INT;
        if (!is(p, IR_TK_INT)) FAIL(TERR("expected line number"));
        bool hx;
        TRY(irp_tok_int(p, &p->tok, &a.i, &hx));
        a.type = p->t_i32;
        TRY(irp_next(p));
      } else {
        char *s;
        TRY(irp_parse_string_tok(p, &s, &a.slen));
        a.name = names[i];
        a.kind = IR_A_STRING;
        a.s = s;
      }
      PUSH(p->attrs, ir_attr, a);
      if (!is(p, IR_TK_COMMA)) break;
      TRY(irp_next(p));
    }
    TRY(irp_parse_opt_attr_dict(p));
    TRY(irp_expect(p, IR_TK_COLON, "':'"));
    TRY(irp_parse_type(p, HINT_NONE, &t1));
    TRY(irp_opnd(p, &u[0], t1));
    break;
  }

  case IR_OP_ASSUME:
    TRY(irp_parse_use(p, &u[0]));
    TRY(irp_parse_opt_attr_dict(p));
    TRY(irp_expect(p, IR_TK_COLON, "':'"));
    TRY(irp_parse_type(p, HINT_NONE, &t1));
    TRY(irp_opnd(p, &u[0], t1));
    break;

  case IR_OP_GPU_BARRIER:
  case IR_OP_TTG_BARRIER:
    if (code == IR_OP_TTG_BARRIER && is(p, IR_TK_IDENT) && !is_kw(p, "loc")) {
      const char *s = p->tok.p;
      TRY(irp_next(p));
      while (is(p, IR_TK_VBAR)) {
        TRY(irp_next(p));
        if (!is(p, IR_TK_IDENT)) FAIL(TERR("expected barrier address space"));
        TRY(irp_next(p));
      }
      ir_attr a = {0};
      a.name = "addrSpace";
      a.kind = IR_A_ENUM;
      a.s = astr(p, s, (size_t)(p->last_end - s));
      a.slen = (size_t)(p->last_end - s);
      if (!a.s) FAIL(irp_nomem(p));
      PUSH(p->attrs, ir_attr, a);
    }
    TRY(irp_parse_opt_attr_dict(p));
    break;

  case IR_OP_CLAMPF:
    for (int i = 0; i < 3; i++) {
      if (i) TRY(irp_expect(p, IR_TK_COMMA, "','"));
      TRY(irp_parse_use(p, &u[i]));
    }
    TRY(irp_expect(p, IR_TK_COMMA, "','"));
    TRY(irp_expect_kw(p, "propagateNan"));
    TRY(irp_expect(p, IR_TK_EQUAL, "'='"));
    TRY(irp_push_enum_kw(p, code, "propagateNan"));
    TRY(irp_parse_opt_attr_dict(p));
    TRY(irp_expect(p, IR_TK_COLON, "':'"));
    TRY(irp_parse_type(p, HINT_NONE, &t1));
    for (int i = 0; i < 3; i++) TRY(irp_opnd(p, &u[i], t1));
    TRY(irp_result(p, t1));
    break;

  case IR_OP_INLINE_ASM: {
    TRY(string_attr(p, "asm_string"));
    TRY(irp_parse_opt_attr_dict(p));
    size_t um = p->uses.n, tm = p->tys.n;
    TRY(irp_parse_uses(p, &n));
    if (n) {
      TRY(use_types(p, n, um, tm));
      p->tys.n = tm;
    }
    TRY(irp_expect(p, IR_TK_ARROW, "'->'"));
    if (irp_is_type_start(p)) {
      TRY(irp_parse_types(p, HINT_NONE, &nout));
      for (size_t i = 0; i < nout; i++) TRY(irp_result(p, VAT(p->tys, const ir_type *, tm + i)));
    }
    p->uses.n = um;
    p->tys.n = tm;
    break;
  }

  case IR_OP_CF_BR:
    TRY(irp_parse_succ(p, b, true));
    TRY(irp_parse_opt_attr_dict(p));
    break;
  case IR_OP_CF_COND_BR:
    TRY(irp_parse_use(p, &u[0]));
    TRY(irp_opnd(p, &u[0], p->t_i1));
    TRY(irp_expect(p, IR_TK_COMMA, "','"));
    TRY(irp_parse_succ(p, b, true));
    TRY(irp_expect(p, IR_TK_COMMA, "','"));
    TRY(irp_parse_succ(p, b, true));
    TRY(irp_parse_opt_attr_dict(p));
    break;

  /* scf.for [unsigned] %iv = %lb to %ub step %s [iter_args(%a = %x, ..) -> (T..)] [: T] region [attrs] */
  case IR_OP_SCF_FOR: {
    size_t lm = p->lnames.n, um = p->uses.n, tm = p->tys.n;
    if (is_kw(p, "unsigned")) {
      ir_attr a = {0};
      a.name = "unsignedCmp";
      a.kind = IR_A_UNIT;
      PUSH(p->attrs, ir_attr, a);
      TRY(irp_next(p));
    }
    argdecl iv = {0};
    TRY(irp_parse_use(p, &iv.name));
    TRY(irp_expect(p, IR_TK_EQUAL, "'='"));
    TRY(irp_parse_use(p, &u[0]));
    TRY(irp_expect_kw(p, "to"));
    TRY(irp_parse_use(p, &u[1]));
    TRY(irp_expect_kw(p, "step"));
    TRY(irp_parse_use(p, &u[2]));
    size_t nit = 0;
    if (is_kw(p, "iter_args")) {
      TRY(irp_next(p));
      TRY(irp_expect(p, IR_TK_LPAREN, "'('"));
      while (!is(p, IR_TK_RPAREN)) {
        argdecl d = {0};
        use init;
        TRY(irp_parse_use(p, &d.name));
        TRY(irp_expect(p, IR_TK_EQUAL, "'='"));
        TRY(irp_parse_use(p, &init));
        PUSH(p->uses, use, init);
        PUSH(p->lnames, argdecl, d);
        nit++;
        if (!is(p, IR_TK_RPAREN)) TRY(irp_expect(p, IR_TK_COMMA, "',' or ')'"));
      }
      TRY(irp_next(p));
      TRY(irp_expect(p, IR_TK_ARROW, "'->'"));
      l1 = p->tok.line;
      c1 = p->tok.col;
      TRY(irp_accept(p, IR_TK_LPAREN, &got));
      size_t nt = 0;
      if (got) {
        if (!is(p, IR_TK_RPAREN)) TRY(irp_parse_types(p, HINT_NONE, &nt));
        TRY(irp_expect(p, IR_TK_RPAREN, "')'"));
      } else {
        TRY(irp_parse_types(p, HINT_NONE, &nt));
      }
      if (nt != nit) FAIL(irp_perr(p, l1, c1, "%zu result types for %zu iter_args", nt, nit));
    }
    if (!is(p, IR_TK_COLON)) FAIL(TERR("scf.for needs ': i32' or ': i64' (index loops are not supported)"));
    TRY(irp_next(p));
    TRY(irp_parse_type(p, HINT_NONE, &t1));
    for (int i = 0; i < 3; i++) TRY(irp_opnd(p, &u[i], t1));
    for (size_t i = 0; i < nit; i++) {
      const ir_type *it = VAT(p->tys, const ir_type *, tm + i);
      TRY(irp_opnd(p, &VAT(p->uses, use, um + i), it));
      VAT(p->lnames, argdecl, lm + i).type = it;
      TRY(irp_result(p, it));
    }
    iv.type = t1;
    /* entry args: iv first, then the iter args */
    PUSH(p->lnames, argdecl, iv);
    argdecl *base = &VAT(p->lnames, argdecl, lm);
    memmove(base + 1, base, sizeof(argdecl) * nit);
    base[0] = iv;
    ir_value *args;
    const char **keys;
    size_t *klens;
    TRY(irp_make_args(p, lm, nit + 1, &args, &keys, &klens));
    p->lnames.n = lm;
    p->uses.n = um;
    p->tys.n = tm;
    b->nregs = 1;
    TRY(irp_parse_region(p, &b->regs[0], args, (int)nit + 1, true, keys, klens));
    if (nit == 0) TRY(irp_ensure_yield(p, &b->regs[0], b));
    TRY(irp_parse_opt_attr_dict(p));
    break;
  }

  /* scf.if %c [-> (T..)] region [else region] [attrs] */
  case IR_OP_SCF_IF: {
    size_t tm = p->tys.n;
    TRY(irp_parse_use(p, &u[0]));
    TRY(irp_opnd(p, &u[0], p->t_i1));
    if (is(p, IR_TK_ARROW)) {
      TRY(irp_next(p));
      TRY(irp_accept(p, IR_TK_LPAREN, &got));
      if (got) {
        if (!is(p, IR_TK_RPAREN)) TRY(irp_parse_types(p, HINT_NONE, &n));
        TRY(irp_expect(p, IR_TK_RPAREN, "')'"));
      } else {
        TRY(irp_parse_types(p, HINT_NONE, &n));
      }
      for (size_t i = tm; i < p->tys.n; i++) TRY(irp_result(p, VAT(p->tys, const ir_type *, i)));
    }
    p->tys.n = tm;
    b->nregs = 2;
    memset(&b->regs[1], 0, sizeof b->regs[1]);
    TRY(irp_parse_region(p, &b->regs[0], NULL, 0, false, NULL, NULL));
    if (is_kw(p, "else")) {
      TRY(irp_next(p));
      TRY(irp_parse_region(p, &b->regs[1], NULL, 0, false, NULL, NULL));
    }
    if (p->types.n == b->tmark) {
      TRY(irp_ensure_yield(p, &b->regs[0], b));
      TRY(irp_ensure_yield(p, &b->regs[1], b));
    }
    TRY(irp_parse_opt_attr_dict(p));
    break;
  }

  /* scf.while (%a = %x, ..) : (T..) -> (R..) region do region [attributes dict] */
  case IR_OP_SCF_WHILE: {
    size_t lm = p->lnames.n, um = p->uses.n, tm = p->tys.n, nini = 0;
    /* while -> "scf.while" ["(" (%arg "=" %init),* ")"] ":" fntype region "do" region */
    bool has_inits = is(p, IR_TK_LPAREN);
    if (has_inits) TRY(irp_next(p));
    while (has_inits && !is(p, IR_TK_RPAREN)) {
      argdecl d = {0};
      use init;
      TRY(irp_parse_use(p, &d.name));
      TRY(irp_expect(p, IR_TK_EQUAL, "'='"));
      TRY(irp_parse_use(p, &init));
      PUSH(p->uses, use, init);
      PUSH(p->lnames, argdecl, d);
      nini++;
      if (!is(p, IR_TK_RPAREN)) TRY(irp_expect(p, IR_TK_COMMA, "',' or ')'"));
    }
    if (has_inits) TRY(irp_next(p));
    TRY(irp_expect(p, IR_TK_COLON, "':'"));
    l1 = p->tok.line;
    c1 = p->tok.col;
    TRY(irp_parse_fn_type(p, &nin, &nout));
    if (nin != nini) FAIL(irp_perr(p, l1, c1, "%zu types for %zu initial values", nin, nini));
    for (size_t i = 0; i < nini; i++) {
      const ir_type *it = VAT(p->tys, const ir_type *, tm + i);
      TRY(irp_opnd(p, &VAT(p->uses, use, um + i), it));
      VAT(p->lnames, argdecl, lm + i).type = it;
    }
    for (size_t i = 0; i < nout; i++) TRY(irp_result(p, VAT(p->tys, const ir_type *, tm + nin + i)));
    ir_value *args;
    const char **keys;
    size_t *klens;
    TRY(irp_make_args(p, lm, nini, &args, &keys, &klens));
    p->lnames.n = lm;
    p->uses.n = um;
    p->tys.n = tm;
    b->nregs = 2;
    TRY(irp_parse_region(p, &b->regs[0], args, (int)nini, true, keys, klens));
    TRY(irp_expect_kw(p, "do"));
    TRY(irp_parse_region(p, &b->regs[1], NULL, 0, false, NULL, NULL));
    if (is_kw(p, "attributes")) {
      TRY(irp_next(p));
      if (!is(p, IR_TK_LBRACE)) FAIL(TERR("expected '{'"));
      TRY(irp_parse_opt_attr_dict(p));
    }
    break;
  }

  case IR_OP_REDUCE:
  case IR_OP_SCAN:
  case IR_OP_MAP_ELEMENTWISE:
    FAIL(irp_perr(p, b->line, b->col, "'%s' has no custom form: write it in generic form \"%s\"(...)", ir_op_name(code),
                  ir_op_name(code)));

  case IR_OP_VENDOR: /* generic form only */
  case IR_OP_COUNT:
  default: FAIL(irp_perr(p, b->line, b->col, "no custom syntax known for '%s'", ir_op_name(code)));
  }
fail:
  return st;
}
#pragma GCC diagnostic pop

/* succ -> ^label ['(' uses ':' types ')'] */
