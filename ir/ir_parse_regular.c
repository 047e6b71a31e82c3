/*
 * ir_parse_regular.c: the formats of regular ops, chosen by the syntax
 * column of ir_op_list.h (ir_syntax); a new op of an existing class needs no
 * code here. Irregular ops are in ir_parse_custom.c.
 */
#include "config.h"
#include "ir_parse_impl.h"

/* regular -> same | cmp | cast | arrow (after the mnemonic) */
#pragma GCC diagnostic push
#pragma GCC diagnostic error "-Wswitch-enum"
ttref_status irp_parse_regular(P *p, opb *b)
{
  ttref_status st = TTREF_OK;
  ir_opcode code = b->op->code;
  ir_syntax syn = ir_op_syntax(code);
  use u[3];
  const ir_type *t1 = NULL, *t2 = NULL;
  int nfix = ir_op_nopnds(code);

  switch (syn) {
  /* same -> use (',' use)* [fastmath|overflow] [dict] ':' type */
  case IR_SYN_SAME:
    if (nfix < 1 || nfix > 3)
      FAIL(irp_perr(p, b->line, b->col, "internal: '%s' has %d operands", ir_op_name(code), nfix));
    for (int i = 0; i < nfix; i++) {
      if (i) TRY(irp_expect(p, IR_TK_COMMA, "','"));
      TRY(irp_parse_use(p, &u[i]));
    }
    TRY(irp_parse_arith_flags(p, false));
    TRY(irp_parse_opt_attr_dict(p));
    TRY(irp_expect(p, IR_TK_COLON, "':'"));
    TRY(irp_parse_type(p, HINT_NONE, &t1));
    for (int i = 0; i < nfix; i++) TRY(irp_opnd(p, &u[i], t1));
    TRY(irp_result(p, t1));
    break;

  /* cmp -> PREDICATE ',' use ',' use [fastmath] [dict] ':' type ; result i1 of type's shape */
  case IR_SYN_CMP:
    TRY(irp_push_enum_kw(p, code, "predicate"));
    TRY(irp_expect(p, IR_TK_COMMA, "','"));
    TRY(irp_parse_use(p, &u[0]));
    TRY(irp_expect(p, IR_TK_COMMA, "','"));
    TRY(irp_parse_use(p, &u[1]));
    TRY(irp_parse_arith_flags(p, false));
    TRY(irp_parse_opt_attr_dict(p));
    TRY(irp_expect(p, IR_TK_COLON, "':'"));
    TRY(irp_parse_type(p, HINT_NONE, &t1));
    TRY(irp_opnd(p, &u[0], t1));
    TRY(irp_opnd(p, &u[1], t1));
    TRY(irp_result(p, i1_like(p, t1)));
    break;

  /* cast -> use [rounding-mode (CAST_RM)] [fastmath|overflow] [dict] ':' type 'to' type */
  case IR_SYN_CAST:
  case IR_SYN_CAST_RM:
    TRY(irp_parse_use(p, &u[0]));
    TRY(irp_parse_arith_flags(p, syn == IR_SYN_CAST_RM));
    TRY(irp_parse_opt_attr_dict(p));
    TRY(irp_expect(p, IR_TK_COLON, "':'"));
    TRY(irp_parse_type(p, HINT_NONE, &t1));
    TRY(irp_expect_kw(p, "to"));
    TRY(irp_parse_type(p, HINT_NONE, &t2));
    TRY(irp_opnd(p, &u[0], t1));
    TRY(irp_result(p, t2));
    break;

  /* arrow -> use [dict] ':' type '->' type */
  case IR_SYN_ARROW:
    TRY(irp_parse_use(p, &u[0]));
    TRY(irp_parse_opt_attr_dict(p));
    TRY(irp_expect(p, IR_TK_COLON, "':'"));
    TRY(irp_parse_type(p, HINT_NONE, &t1));
    TRY(irp_expect(p, IR_TK_ARROW, "'->'"));
    TRY(irp_parse_type(p, HINT_NONE, &t2));
    TRY(irp_opnd(p, &u[0], t1));
    TRY(irp_result(p, t2));
    break;

  case IR_SYN_CUSTOM: TRY(irp_parse_custom(p, b)); break;
  }
fail:
  return st;
}
#pragma GCC diagnostic pop
