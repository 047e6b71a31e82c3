/*
 * ir_pred_list.h: the predicates of arith.cmpi and arith.cmpf, one row each, in MLIR's
 * numbering (ArithOps.td: a row's position in its set is its attribute value); the single
 * source of the IR_CMPI_* and IR_CMPF_* values (ir.h), the parser's spellings
 * (ir_parse_attr.c), the mutator's (conform_mutant.c) and the executor's evaluation
 * (interp/interp_arith.c: an op of kind CMP in ir_op_list.h names its set in the kernel
 * column; the predicate is chosen once per op, one loop per predicate).
 * Columns: CMPI(NAME, "spelling", value of xs, ys (signed) and xu, yu (unsigned views))
 *          CMPF(NAME, "spelling", value of x, y (binary64) and uno (x or y is NaN))
 * Each expansion site defines both macros. No include guard.
 */
CMPI(EQ,    "eq",    xu == yu)         /* equal */
CMPI(NE,    "ne",    xu != yu)         /* not equal */
CMPI(SLT,   "slt",   xs < ys)          /* signed less than */
CMPI(SLE,   "sle",   xs <= ys)         /* signed less or equal */
CMPI(SGT,   "sgt",   xs > ys)          /* signed greater than */
CMPI(SGE,   "sge",   xs >= ys)         /* signed greater or equal */
CMPI(ULT,   "ult",   xu < yu)          /* unsigned less than */
CMPI(ULE,   "ule",   xu <= yu)         /* unsigned less or equal */
CMPI(UGT,   "ugt",   xu > yu)          /* unsigned greater than */
CMPI(UGE,   "uge",   xu >= yu)         /* unsigned greater or equal */
CMPF(FALSE, "false", false)            /* always false */
CMPF(OEQ,   "oeq",   !uno && x == y)   /* ordered and equal */
CMPF(OGT,   "ogt",   !uno && x > y)    /* ordered and greater */
CMPF(OGE,   "oge",   !uno && x >= y)   /* ordered and greater or equal */
CMPF(OLT,   "olt",   !uno && x < y)    /* ordered and less */
CMPF(OLE,   "ole",   !uno && x <= y)   /* ordered and less or equal */
CMPF(ONE,   "one",   !uno && x != y)   /* ordered and not equal */
CMPF(ORD,   "ord",   !uno)             /* neither is NaN */
CMPF(UEQ,   "ueq",   uno || x == y)    /* unordered or equal */
CMPF(UGT,   "ugt",   uno || x > y)     /* unordered or greater */
CMPF(UGE,   "uge",   uno || x >= y)    /* unordered or greater or equal */
CMPF(ULT,   "ult",   uno || x < y)     /* unordered or less */
CMPF(ULE,   "ule",   uno || x <= y)    /* unordered or less or equal */
CMPF(UNE,   "une",   uno || x != y)    /* unordered or not equal */
CMPF(UNO,   "uno",   uno)              /* either is NaN */
CMPF(TRUE,  "true",  true)             /* always true */
