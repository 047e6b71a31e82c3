/*
 * ir_op_list.h: every op ttref knows, one row each; the single source of the
 * opcode enum, mnemonic table, arity and flag tables, the parser's, printer's
 * and verifier's handling of regular ops, and the executor's dispatch, scalar
 * kernels and precise-mode bounds, and the harness's default compliance modes.
 * Columns: X(NAME, "mnemonic", operands, results, flags, syntax, type rule,
 *            kind, kernel, bound, mode)
 * - operands and results: exact counts or -1 (variable; the verifier checks the rest);
 * - syntax: the op's assembly format (ir_syntax: SAME, CMP, CAST, CAST_RM,
 *   ARROW, or CUSTOM for a hand-written one in ir_parse_custom.c and ir_print_op.c);
 * - type rule: the verifier's check (ir_type_rule, or CUSTOM for a
 *   hand-written one in ir_verify_*.c);
 * - kind and kernel: how the executor runs it (interp/interp_arith.c expands
 *   them into one typed loop per op; the IR layer ignores them):
 *     CALL  kernel = a hand-written executor function ttref_status f(ctx *, const ir_op *)
 *     FUN   float unary: kernel = expression of x (binary64 operand), c, f (result format);
 *           exact unless it rounds itself (rnd(c, f, ...))
 *     FMATH float unary or binary: kernel = an fp_math_list.h row, correctly rounded once
 *     FBIN  float binary: kernel = expression of x, y, rounded once to the result format
 *     FBINX float binary: kernel = expression of x, y that is exact (one of them)
 *     FTER  float ternary: kernel = expression of x, y, z (binary64), c, f; rounds itself;
 *           nan_all = the op's propagateNan is all (tt.clampf), read once per op
 *     IUN   integer unary: kernel = expression of x (raw), u (unsigned view), bits
 *     IBIN  integer binary: kernel = expression of x, y (raw), bits; c, op, i for UB notes
 *     CMP   comparison, i1 result: kernel = CMPI or CMPF, the predicate set of ir_pred_list.h
 *           (one loop per predicate, the "predicate" attribute picks one per op)
 *     ETER  ternary on whole elements of any type: kernel = expression of x, y, z (interp_elem)
 *     CASTI, CASTF, CASTE  conversion to an integer / a float / any element: kernel =
 *           expression of the element x (interp_elem), ss, ds (operand and result types),
 *           sbits, dbits (their widths), sf, df (their formats), sflt, dflt (float or not);
 *           c, op, i
 *   Every loop takes a scalar operand (one element) against a tensor one; a new kind is an
 *   INTERP_FN_ line in interp/interp_exec.h and its KDEF_ and FBL_ macros in interp_arith.c.
 * - bound: its magnitude bound in precise mode (interp/interp_precise.c): ABS
 *   (|value|), ADD (|a|+|b| bounds), MUL, DIV (bound(a)/|b|), FMA, KEEP (the
 *   operand's bound), SELECT, RERUN (the op re-run on the bounds), RERUN_MEM
 *   (re-run; float operands are stored), NONE (results got theirs from a region);
 * - mode: the default compliance mode of its float results, where a GPU may
 *   legitimately differ from the correctly rounded reference (conformance:
 *   `ttref conform --localize` probes; tabled with the reasons in
 *   docs/compliance.md): EXACT, ULP(f64, f32, f16/bf16 ulps; 0 = exact for
 *   that format), DOT_PRODUCT or REDUCE (k from the op).
 * A regular op (SAME/CMP/CAST syntax, a non-CUSTOM rule, a kind other than CALL)
 * is parsed, printed, verified and executed from its row alone; any row of a kind
 * other than CALL executes from its row whatever its syntax (tests/unit/test_exec.c
 * runs each). The comment on each row is the op's semantics in one line; the full
 * text is docs/semantics.md. No include guard.
 */
/* ---- programs, ranges, constants ---------------------------------------- */
X(GET_PROGRAM_ID,     "tt.get_program_id",     0,  1, IR_F_PURE,                      CUSTOM,  CUSTOM,        CALL,  interp_op_program_id,                            ABS,       EXACT)           /* i32 index of this program along axis x|y|z */
X(GET_NUM_PROGRAMS,   "tt.get_num_programs",   0,  1, IR_F_PURE,                      CUSTOM,  CUSTOM,        CALL,  interp_op_program_id,                            ABS,       EXACT)           /* i32 grid size along axis */
X(MAKE_RANGE,         "tt.make_range",         0,  1, IR_F_PURE,                      CUSTOM,  CUSTOM,        CALL,  interp_op_make_range,                            ABS,       EXACT)           /* 1-D i32 tensor [start, end) */
X(CONSTANT,           "arith.constant",        0,  1, IR_F_PURE,                      CUSTOM,  CUSTOM,        CALL,  interp_op_constant,                              ABS,       EXACT)           /* scalar or dense tensor constant */
X(POISON,             "ub.poison",             0,  1, IR_F_PURE,                      CUSTOM,  CUSTOM,        CALL,  interp_op_poison,                                ABS,       EXACT)           /* placeholder value on dead paths; reads as 0 */
/* ---- shape and data movement --------------------------------------------- */
X(SPLAT,              "tt.splat",              1,  1, IR_F_PURE,                      ARROW,   CUSTOM,        CALL,  interp_op_splat,                                 RERUN,     EXACT)           /* scalar copied to every element */
X(UNSPLAT,            "tt.unsplat",            1,  1, IR_F_PURE,                      CUSTOM,  CUSTOM,        CALL,  interp_op_copy,                                  RERUN,     EXACT)           /* numel-1 tensor to scalar */
X(BROADCAST,          "tt.broadcast",          1,  1, IR_F_PURE,                      ARROW,   CUSTOM,        CALL,  interp_op_broadcast,                             RERUN,     EXACT)           /* replicate size-1 dims */
X(EXPAND_DIMS,        "tt.expand_dims",        1,  1, IR_F_PURE,                      ARROW,   CUSTOM,        CALL,  interp_op_copy,                                  RERUN,     EXACT)           /* insert size-1 dim at axis */
X(RESHAPE,            "tt.reshape",            1,  1, IR_F_PURE,                      CUSTOM,  CUSTOM,        CALL,  interp_op_copy,                                  RERUN,     EXACT)           /* row-major relabel (allow_reorder keeps order) */
X(TRANS,              "tt.trans",              1,  1, IR_F_PURE,                      ARROW,   CUSTOM,        CALL,  interp_op_trans,                                 RERUN,     EXACT)           /* permute dims: out.shape[i] = in.shape[order[i]] */
X(CAT,                "tt.cat",                2,  1, IR_F_PURE,                      CUSTOM,  CUSTOM,        CALL,  interp_op_cat,                                   RERUN,     EXACT)           /* concatenate along dim 0 */
X(JOIN,               "tt.join",               2,  1, IR_F_PURE,                      CUSTOM,  CUSTOM,        CALL,  interp_op_join,                                  RERUN,     EXACT)           /* new minor dim: [...,0]=a, [...,1]=b */
X(SPLIT,              "tt.split",              1,  2, IR_F_PURE,                      CUSTOM,  CUSTOM,        CALL,  interp_op_split,                                 RERUN,     EXACT)           /* inverse of join: minor dim of size 2 */
X(GATHER,             "tt.gather",             2,  1, IR_F_PURE,                      CUSTOM,  CUSTOM,        CALL,  interp_op_gather,                                RERUN,     EXACT)           /* take_along_axis(src, idx, axis) */
X(HISTOGRAM,          "tt.histogram",         -1,  1, IR_F_PURE,                      CUSTOM,  CUSTOM,        CALL,  interp_op_histogram,                             ABS,       EXACT)           /* i32 counts of values in [0, B) (optional mask) */
/* ---- pointers and casts -------------------------------------------------- */
X(ADDPTR,             "tt.addptr",             2,  1, IR_F_PURE | IR_F_ELEMENTWISE,   CUSTOM,  CUSTOM,        CALL,  interp_op_addptr,                                ABS,       EXACT)           /* p + off * sizeof(pointee), off signed */
X(INT_TO_PTR,         "tt.int_to_ptr",         1,  1, IR_F_PURE | IR_F_ELEMENTWISE,   ARROW,   CUSTOM,        CASTI, x.i,                                             ABS,       EXACT)           /* i64 address to pointer */
X(PTR_TO_INT,         "tt.ptr_to_int",         1,  1, IR_F_PURE | IR_F_ELEMENTWISE,   ARROW,   CUSTOM,        CASTI, wrap_int(dbits, x.i),                            ABS,       EXACT)           /* pointer to i64 address */
X(TT_BITCAST,         "tt.bitcast",            1,  1, IR_F_PURE | IR_F_ELEMENTWISE,   ARROW,   CUSTOM,        CASTE, ek_bitcast(x, ss, ds, sflt, dflt, sf, df, dbits), ABS,       EXACT)           /* same-width reinterpretation, pointers too */
X(FP_TO_FP,           "tt.fp_to_fp",           1,  1, IR_F_PURE | IR_F_ELEMENTWISE,   CUSTOM,  CUSTOM,        CALL,  interp_op_fp_to_fp,                              KEEP,      EXACT)           /* float conversion with rounding attr; fp8 saturates */
/* ---- memory -------------------------------------------------------------- */
X(LOAD,               "tt.load",              -1,  1, IR_F_MEM,                       CUSTOM,  CUSTOM,        CALL,  interp_op_load,                                  RERUN,     EXACT)           /* masked load; masked-off lanes = other or 0 */
X(STORE,              "tt.store",             -1,  0, IR_F_MEM,                       CUSTOM,  CUSTOM,        CALL,  interp_op_store,                                 RERUN_MEM, EXACT)           /* masked store; masked-off lanes untouched */
X(MAKE_TENSOR_PTR,    "tt.make_tensor_ptr",   -1,  1, IR_F_PURE,                      CUSTOM,  CUSTOM,        CALL,  interp_op_make_tensor_ptr,                       ABS,       EXACT)           /* block pointer (base, shape, strides, offsets) */
X(ADVANCE,            "tt.advance",           -1,  1, IR_F_PURE,                      CUSTOM,  CUSTOM,        CALL,  interp_op_advance,                               ABS,       EXACT)           /* block pointer with offsets + deltas */
X(ATOMIC_RMW,         "tt.atomic_rmw",        -1,  1, IR_F_MEM | IR_F_ORDERED,        CUSTOM,  CUSTOM,        CALL,  interp_op_atomic_rmw,                            RERUN_MEM, EXACT)           /* old = *p; *p = old OP v (per lane, element order) */
X(ATOMIC_CAS,         "tt.atomic_cas",         3,  1, IR_F_MEM | IR_F_ORDERED,        CUSTOM,  CUSTOM,        CALL,  interp_op_atomic_cas,                            ABS,       EXACT)           /* old = *p; if old == cmp: *p = val */
X(MAKE_TENSOR_DESC,   "tt.make_tensor_descriptor", -1, 1, IR_F_PURE,                      CUSTOM,  CUSTOM,        CALL,  interp_op_make_desc,                             ABS,       EXACT)           /* tensor descriptor (base, shape, strides) */
X(DESC_LOAD,          "tt.descriptor_load",   -1,  1, IR_F_MEM,                       CUSTOM,  CUSTOM,        CALL,  interp_op_desc_access,                           RERUN,     EXACT)           /* block load, out of bounds = padding */
X(DESC_STORE,         "tt.descriptor_store",  -1,  0, IR_F_MEM,                       CUSTOM,  CUSTOM,        CALL,  interp_op_desc_access,                           RERUN_MEM, EXACT)           /* block store, in-bounds elements only */
X(DESC_REDUCE,        "tt.descriptor_reduce", -1,  0, IR_F_MEM | IR_F_ORDERED,        CUSTOM,  CUSTOM,        CALL,  interp_op_desc_access,                           RERUN_MEM, EXACT)           /* block atomic reduction into memory */
X(DESC_GATHER,        "tt.descriptor_gather", -1,  1, IR_F_MEM,                       CUSTOM,  CUSTOM,        CALL,  interp_op_desc_rows,                             RERUN,     EXACT)           /* row gather through a descriptor */
X(DESC_SCATTER,       "tt.descriptor_scatter",-1,  0, IR_F_MEM,                       CUSTOM,  CUSTOM,        CALL,  interp_op_desc_rows,                             RERUN_MEM, EXACT)           /* row scatter through a descriptor */
X(XDESC_LOAD,         "tt.experimental_descriptor_load",  -1, 1, IR_F_MEM,                       CUSTOM,  CUSTOM,        CALL,  interp_op_desc_access,                           RERUN,     EXACT)           /* <=3.3 spelling of descriptor_load */
X(XDESC_STORE,        "tt.experimental_descriptor_store", -1, 0, IR_F_MEM,                       CUSTOM,  CUSTOM,        CALL,  interp_op_desc_access,                           RERUN_MEM, EXACT)           /* <=3.3 spelling of descriptor_store */
X(XDESC_GATHER,       "tt.experimental_descriptor_gather",-1, 1, IR_F_MEM,                       CUSTOM,  CUSTOM,        CALL,  interp_op_desc_rows,                             RERUN,     EXACT)           /* <=3.3 spelling of descriptor_gather */
X(XDESC_SCATTER,      "tt.experimental_descriptor_scatter",-1,0, IR_F_MEM,                       CUSTOM,  CUSTOM,        CALL,  interp_op_desc_rows,                             RERUN_MEM, EXACT)           /* <=3.3 spelling of descriptor_scatter */
X(REINTERPRET_DESC,   "tt.reinterpret_tensor_descriptor", 1, 1, IR_F_UNSUPPORTED,               CUSTOM,  CUSTOM,        CALL,  interp_op_unsupported,                           ABS,       EXACT)           /* raw TMA pointer to descriptor: needs host metadata */
/* ---- matrix multiply ----------------------------------------------------- */
X(DOT,                "tt.dot",                3,  1, IR_F_PURE,                      CUSTOM,  CUSTOM,        CALL,  interp_op_dot,                                   RERUN,     DOT_PRODUCT)     /* D = A.B + C, canonical accumulation order */
X(DOT_SCALED,         "tt.dot_scaled",        -1,  1, IR_F_PURE,                      CUSTOM,  CUSTOM,        CALL,  interp_op_dot_scaled,                            RERUN,     DOT_PRODUCT)     /* microscaled D = (A*2^sa).(B*2^sb) + C */
/* ---- regions ------------------------------------------------------------- */
X(REDUCE,             "tt.reduce",            -1, -1, IR_F_PURE | IR_F_REGION,        CUSTOM,  CUSTOM,        CALL,  interp_op_reduce,                                RERUN,     REDUCE)          /* combine region folded along axis */
X(REDUCE_RETURN,      "tt.reduce.return",     -1,  0, IR_F_TERMINATOR,                CUSTOM,  CUSTOM,        CALL,  interp_op_terminator,                            ABS,       EXACT)           /* yields combined values */
X(SCAN,               "tt.scan",              -1, -1, IR_F_PURE | IR_F_REGION,        CUSTOM,  CUSTOM,        CALL,  interp_op_scan,                                  RERUN,     REDUCE)          /* inclusive scan along axis (reverse) */
X(SCAN_RETURN,        "tt.scan.return",       -1,  0, IR_F_TERMINATOR,                CUSTOM,  CUSTOM,        CALL,  interp_op_terminator,                            ABS,       EXACT)           /* yields the scan step values */
X(MAP_ELEMENTWISE,    "tt.map_elementwise",   -1, -1, IR_F_PURE | IR_F_REGION,        CUSTOM,  CUSTOM,        CALL,  interp_op_map_elementwise,                       RERUN,     EXACT)           /* scalar region applied per pack of elements */
X(MAP_ELEM_RETURN,    "tt.map_elementwise.return", -1, 0, IR_F_TERMINATOR,                CUSTOM,  CUSTOM,        CALL,  interp_op_terminator,                            ABS,       EXACT)           /* yields per-element results */
/* ---- external code ------------------------------------------------------- */
X(EXTERN_ELEMENTWISE, "tt.extern_elementwise",-1,  1, IR_F_PURE | IR_F_ELEMENTWISE,   CUSTOM,  CUSTOM,        CALL,  interp_op_extern,                                ABS,       ULP(2, 4, 2))    /* libdevice/ocml call by symbol name */
X(INLINE_ASM,         "tt.elementwise_inline_asm", -1, -1, IR_F_UNSUPPORTED,               CUSTOM,  CUSTOM,        CALL,  interp_op_unsupported,                           ABS,       EXACT)           /* inline PTX/GCN: refused */
X(VENDOR,             "<vendor op>",         -1,  1, IR_F_PURE | IR_F_VENDOR,        CUSTOM,  CUSTOM,        CALL,  interp_op_vendor,                                ABS,       EXACT)           /* a registered vendor op (ttref_registry): its C callbacks */
/* ---- float helpers ------------------------------------------------------- */
X(CLAMPF,             "tt.clampf",             3,  1, IR_F_PURE | IR_F_ELEMENTWISE,   CUSTOM,  SAME_FLOAT,    FTER,  fk_clamp(x, y, z, nan_all),                      ABS,       EXACT)           /* min(max(x, lo), hi), NaN policy attr */
X(PRECISE_SQRT,       "tt.precise_sqrt",       1,  1, IR_F_PURE | IR_F_ELEMENTWISE,   SAME,    SAME_FLOAT,    FUN,   rnd(c, f, sqrt(x)),                              ABS,       EXACT)           /* correctly rounded sqrt */
X(PRECISE_DIVF,       "tt.precise_divf",       2,  1, IR_F_PURE | IR_F_ELEMENTWISE,   SAME,    SAME_FLOAT,    FBIN,  x / y,                                           DIV,       EXACT)           /* correctly rounded division */
X(MULHIUI,            "tt.mulhiui",            2,  1, IR_F_PURE | IR_F_ELEMENTWISE,   SAME,    SAME_INT,      IBIN,  ik_mulhiu(bits, x, y),                           ABS,       EXACT)           /* high half of unsigned 2N-bit product */
/* ---- debugging ----------------------------------------------------------- */
X(PRINT,              "tt.print",             -1,  0, IR_F_SIDE_EFFECT | IR_F_ORDERED, CUSTOM,  CUSTOM,        CALL,  interp_op_print,                                 ABS,       EXACT)           /* device print, GPU line format */
X(ASSERT,             "tt.assert",             1,  0, IR_F_SIDE_EFFECT,               CUSTOM,  CUSTOM,        CALL,  interp_op_assert,                                ABS,       EXACT)           /* fault if any element is false */
X(ASSUME,             "llvm.intr.assume",      1,  0, IR_F_SIDE_EFFECT,               CUSTOM,  CUSTOM,        CALL,  interp_op_assert,                                ABS,       EXACT)           /* checked assumption */
X(GPU_BARRIER,        "gpu.barrier",           0,  0, IR_F_SIDE_EFFECT,               CUSTOM,  CUSTOM,        CALL,  interp_op_nop,                                   ABS,       EXACT)           /* no-op: programs run one block at a time */
X(TTG_BARRIER,        "ttg.barrier",           0,  0, IR_F_SIDE_EFFECT,               CUSTOM,  CUSTOM,        CALL,  interp_op_nop,                                   ABS,       EXACT)           /* no-op (newer spelling) */
/* ---- functions ----------------------------------------------------------- */
X(CALL,               "tt.call",              -1, -1, IR_F_SIDE_EFFECT,               CUSTOM,  CUSTOM,        CALL,  interp_op_call,                                  NONE,      EXACT)           /* direct call of a tt.func */
X(RETURN,             "tt.return",            -1,  0, IR_F_TERMINATOR,                CUSTOM,  CUSTOM,        CALL,  interp_op_terminator,                            ABS,       EXACT)           /* return from tt.func */
/* ---- integer arithmetic (two's complement, signless) --------------------- */
X(ADDI,               "arith.addi",            2,  1, IR_F_PURE | IR_F_ELEMENTWISE,   SAME,    SAME_INT,      IBIN,  ik_add(bits, x, y),                              ABS,       EXACT)           /* wrap-around add */
X(SUBI,               "arith.subi",            2,  1, IR_F_PURE | IR_F_ELEMENTWISE,   SAME,    SAME_INT,      IBIN,  ik_sub(bits, x, y),                              ABS,       EXACT)           /* wrap-around subtract */
X(MULI,               "arith.muli",            2,  1, IR_F_PURE | IR_F_ELEMENTWISE,   SAME,    SAME_INT,      IBIN,  ik_mul(bits, x, y),                              ABS,       EXACT)           /* wrap-around multiply */
X(DIVSI,              "arith.divsi",           2,  1, IR_F_PURE | IR_F_ELEMENTWISE,   SAME,    SAME_INT,      IBIN,  ik_sdiv(c, op, i, bits, x, y, IK_DIV),           ABS,       EXACT)           /* signed truncating division; x/0 = 0, MIN/-1 = MIN */
X(DIVUI,              "arith.divui",           2,  1, IR_F_PURE | IR_F_ELEMENTWISE,   SAME,    SAME_INT,      IBIN,  ik_udiv(c, op, i, bits, x, y, IK_DIV),           ABS,       EXACT)           /* unsigned division; x/0 = 0 */
X(CEILDIVSI,          "arith.ceildivsi",       2,  1, IR_F_PURE | IR_F_ELEMENTWISE,   SAME,    SAME_INT,      IBIN,  ik_sdiv(c, op, i, bits, x, y, IK_CEIL),          ABS,       EXACT)           /* signed division rounding up */
X(CEILDIVUI,          "arith.ceildivui",       2,  1, IR_F_PURE | IR_F_ELEMENTWISE,   SAME,    SAME_INT,      IBIN,  ik_udiv(c, op, i, bits, x, y, IK_CEIL),          ABS,       EXACT)           /* unsigned division rounding up */
X(FLOORDIVSI,         "arith.floordivsi",      2,  1, IR_F_PURE | IR_F_ELEMENTWISE,   SAME,    SAME_INT,      IBIN,  ik_sdiv(c, op, i, bits, x, y, IK_FLOOR),         ABS,       EXACT)           /* signed division rounding down */
X(REMSI,              "arith.remsi",           2,  1, IR_F_PURE | IR_F_ELEMENTWISE,   SAME,    SAME_INT,      IBIN,  ik_sdiv(c, op, i, bits, x, y, IK_REM),           ABS,       EXACT)           /* signed remainder, dividend's sign; x%0 = 0 */
X(REMUI,              "arith.remui",           2,  1, IR_F_PURE | IR_F_ELEMENTWISE,   SAME,    SAME_INT,      IBIN,  ik_udiv(c, op, i, bits, x, y, IK_REM),           ABS,       EXACT)           /* unsigned remainder; x%0 = 0 */
X(ANDI,               "arith.andi",            2,  1, IR_F_PURE | IR_F_ELEMENTWISE,   SAME,    SAME_INT,      IBIN,  x & y,                                           ABS,       EXACT)           /* bitwise and */
X(ORI,                "arith.ori",             2,  1, IR_F_PURE | IR_F_ELEMENTWISE,   SAME,    SAME_INT,      IBIN,  x | y,                                           ABS,       EXACT)           /* bitwise or */
X(XORI,               "arith.xori",            2,  1, IR_F_PURE | IR_F_ELEMENTWISE,   SAME,    SAME_INT,      IBIN,  wrap_int(bits, x ^ y),                           ABS,       EXACT)           /* bitwise xor */
X(SHLI,               "arith.shli",            2,  1, IR_F_PURE | IR_F_ELEMENTWISE,   SAME,    SAME_INT,      IBIN,  ik_shl(c, op, i, bits, x, y),                    ABS,       EXACT)           /* shift left; amount >= width gives 0 */
X(SHRSI,              "arith.shrsi",           2,  1, IR_F_PURE | IR_F_ELEMENTWISE,   SAME,    SAME_INT,      IBIN,  ik_shrs(c, op, i, bits, x, y),                   ABS,       EXACT)           /* arithmetic shift right; >= width gives sign fill */
X(SHRUI,              "arith.shrui",           2,  1, IR_F_PURE | IR_F_ELEMENTWISE,   SAME,    SAME_INT,      IBIN,  ik_shru(c, op, i, bits, x, y),                   ABS,       EXACT)           /* logical shift right; >= width gives 0 */
X(MINSI,              "arith.minsi",           2,  1, IR_F_PURE | IR_F_ELEMENTWISE,   SAME,    SAME_INT,      IBIN,  sval(bits, x) <= sval(bits, y) ? x : y,          ABS,       EXACT)           /* signed min */
X(MINUI,              "arith.minui",           2,  1, IR_F_PURE | IR_F_ELEMENTWISE,   SAME,    SAME_INT,      IBIN,  uval(bits, x) <= uval(bits, y) ? x : y,          ABS,       EXACT)           /* unsigned min */
X(MAXSI,              "arith.maxsi",           2,  1, IR_F_PURE | IR_F_ELEMENTWISE,   SAME,    SAME_INT,      IBIN,  sval(bits, x) >= sval(bits, y) ? x : y,          ABS,       EXACT)           /* signed max */
X(MAXUI,              "arith.maxui",           2,  1, IR_F_PURE | IR_F_ELEMENTWISE,   SAME,    SAME_INT,      IBIN,  uval(bits, x) >= uval(bits, y) ? x : y,          ABS,       EXACT)           /* unsigned max */
X(CMPI,               "arith.cmpi",            2,  1, IR_F_PURE | IR_F_ELEMENTWISE,   CMP,     CMP_INT,       CMP,   CMPI,                                            ABS,       EXACT)           /* integer compare by predicate, i1 result */
X(SELECT,             "arith.select",          3,  1, IR_F_PURE | IR_F_ELEMENTWISE,   CUSTOM,  CUSTOM,        ETER,  x.i ? y : z,                                     SELECT,    EXACT)           /* c ? a : b (scalar or per-element c) */
X(EXTSI,              "arith.extsi",           1,  1, IR_F_PURE | IR_F_ELEMENTWISE,   CAST,    INT_WIDER,     CASTI, wrap_int(dbits, sval(sbits, x.i)),               ABS,       EXACT)           /* sign extend (i1 true -> -1) */
X(EXTUI,              "arith.extui",           1,  1, IR_F_PURE | IR_F_ELEMENTWISE,   CAST,    INT_WIDER,     CASTI, wrap_int(dbits, (int64_t)uval(sbits, x.i)),      ABS,       EXACT)           /* zero extend */
X(TRUNCI,             "arith.trunci",          1,  1, IR_F_PURE | IR_F_ELEMENTWISE,   CAST,    INT_NARROWER,  CASTI, wrap_int(dbits, x.i),                            ABS,       EXACT)           /* keep low bits */
X(INDEX_CAST,         "arith.index_cast",      1,  1, IR_F_PURE | IR_F_ELEMENTWISE,   CAST,    INT_INT,       CASTI, wrap_int(dbits, sval(sbits, x.i)),               ABS,       EXACT)           /* signed int width change (index = i64) */
/* ---- float arithmetic (binary64, rounded once to the result format) ------ */
X(ADDF,               "arith.addf",            2,  1, IR_F_PURE | IR_F_ELEMENTWISE,   SAME,    SAME_FLOAT,    FBIN,  x + y,                                           ADD,       EXACT)           /* r = a + b, rounded to result type */
X(SUBF,               "arith.subf",            2,  1, IR_F_PURE | IR_F_ELEMENTWISE,   SAME,    SAME_FLOAT,    FBIN,  x - y,                                           ADD,       EXACT)           /* r = a - b, rounded to result type */
X(MULF,               "arith.mulf",            2,  1, IR_F_PURE | IR_F_ELEMENTWISE,   SAME,    SAME_FLOAT,    FBIN,  x * y,                                           MUL,       EXACT)           /* r = a * b, rounded to result type */
X(DIVF,               "arith.divf",            2,  1, IR_F_PURE | IR_F_ELEMENTWISE,   SAME,    SAME_FLOAT,    FBIN,  x / y,                                           DIV,       ULP(0, 2, 1))    /* r = a / b, correctly rounded (GPU: approximate) */
X(REMF,               "arith.remf",            2,  1, IR_F_PURE | IR_F_ELEMENTWISE,   SAME,    SAME_FLOAT,    FBIN,  fmod(x, y),                                      ABS,       EXACT)           /* C fmod, exact then rounded */
X(NEGF,               "arith.negf",            1,  1, IR_F_PURE | IR_F_ELEMENTWISE,   SAME,    SAME_FLOAT,    FUN,   c->bound_pass ? x : -x,                          KEEP,      EXACT)           /* sign flip, NaN too */
X(MAXNUMF,            "arith.maxnumf",         2,  1, IR_F_PURE | IR_F_ELEMENTWISE,   SAME,    SAME_FLOAT,    FBINX, maxnum(x, y),                                    ABS,       EXACT)           /* IEEE maxNum: NaN ignored */
X(MINNUMF,            "arith.minnumf",         2,  1, IR_F_PURE | IR_F_ELEMENTWISE,   SAME,    SAME_FLOAT,    FBINX, minnum(x, y),                                    ABS,       EXACT)           /* IEEE minNum: NaN ignored */
X(MAXIMUMF,           "arith.maximumf",        2,  1, IR_F_PURE | IR_F_ELEMENTWISE,   SAME,    SAME_FLOAT,    FBINX, maximum(x, y),                                   ABS,       EXACT)           /* IEEE-2019 maximum: NaN wins, -0 < +0 */
X(MINIMUMF,           "arith.minimumf",        2,  1, IR_F_PURE | IR_F_ELEMENTWISE,   SAME,    SAME_FLOAT,    FBINX, minimum(x, y),                                   ABS,       EXACT)           /* IEEE-2019 minimum: NaN wins, -0 < +0 */
X(CMPF,               "arith.cmpf",            2,  1, IR_F_PURE | IR_F_ELEMENTWISE,   CMP,     CMP_FLOAT,     CMP,   CMPF,                                            ABS,       EXACT)           /* float compare (ordered/unordered) */
X(EXTF,               "arith.extf",            1,  1, IR_F_PURE | IR_F_ELEMENTWISE,   CAST,    FLOAT_WIDER,   CASTF, x.f,                                             KEEP,      EXACT)           /* exact widening */
X(TRUNCF,             "arith.truncf",          1,  1, IR_F_PURE | IR_F_ELEMENTWISE,   CAST_RM, FLOAT_NARROWER,CASTF, rnd(c, df, x.f),                                 KEEP,      EXACT)           /* RTNE narrowing, overflow to inf */
X(SITOFP,             "arith.sitofp",          1,  1, IR_F_PURE | IR_F_ELEMENTWISE,   CAST,    INT_FLOAT,     CASTF, int_to_float(c->precise ? FP_F64 : df, x.i, false, sbits), ABS,       EXACT)           /* signed int to float, RTNE once */
X(UITOFP,             "arith.uitofp",          1,  1, IR_F_PURE | IR_F_ELEMENTWISE,   CAST,    INT_FLOAT,     CASTF, int_to_float(c->precise ? FP_F64 : df, x.i, true, sbits), ABS,       EXACT)           /* unsigned int to float, RTNE once */
X(FPTOSI,             "arith.fptosi",          1,  1, IR_F_PURE | IR_F_ELEMENTWISE,   CAST,    FLOAT_INT,     CASTI, ik_fptoi(c, op, i, dbits, x.f, false),           ABS,       EXACT)           /* truncate toward 0; saturate, NaN -> 0 */
X(FPTOUI,             "arith.fptoui",          1,  1, IR_F_PURE | IR_F_ELEMENTWISE,   CAST,    FLOAT_INT,     CASTI, ik_fptoi(c, op, i, dbits, x.f, true),            ABS,       EXACT)           /* truncate toward 0; saturate, NaN -> 0 */
X(BITCAST,            "arith.bitcast",         1,  1, IR_F_PURE | IR_F_ELEMENTWISE,   CAST,    BITCAST,       CASTE, ek_bitcast(x, ss, ds, sflt, dflt, sf, df, dbits), ABS,       EXACT)           /* same-width reinterpretation */
/* ---- math (correctly rounded reference values) --------------------------- */
X(MATH_EXP,           "math.exp",              1,  1, IR_F_PURE | IR_F_ELEMENTWISE,   SAME,    SAME_FLOAT,    FMATH, EXP,                                             ABS,       ULP(2, 4, 1))    /* e^x */
X(MATH_EXP2,          "math.exp2",             1,  1, IR_F_PURE | IR_F_ELEMENTWISE,   SAME,    SAME_FLOAT,    FMATH, EXP2,                                            ABS,       ULP(2, 4, 1))    /* 2^x */
X(MATH_LOG,           "math.log",              1,  1, IR_F_PURE | IR_F_ELEMENTWISE,   SAME,    SAME_FLOAT,    FMATH, LOG,                                             ABS,       ULP(2, 4, 1))    /* natural log */
X(MATH_LOG2,          "math.log2",             1,  1, IR_F_PURE | IR_F_ELEMENTWISE,   SAME,    SAME_FLOAT,    FMATH, LOG2,                                            ABS,       ULP(2, 4, 1))    /* log base 2 */
X(MATH_SIN,           "math.sin",              1,  1, IR_F_PURE | IR_F_ELEMENTWISE,   SAME,    SAME_FLOAT,    FMATH, SIN,                                             ABS,       ULP(2, 4, 1))    /* sine */
X(MATH_COS,           "math.cos",              1,  1, IR_F_PURE | IR_F_ELEMENTWISE,   SAME,    SAME_FLOAT,    FMATH, COS,                                             ABS,       ULP(2, 4, 1))    /* cosine */
X(MATH_SQRT,          "math.sqrt",             1,  1, IR_F_PURE | IR_F_ELEMENTWISE,   SAME,    SAME_FLOAT,    FUN,   rnd(c, f, sqrt(x)),                              ABS,       ULP(0, 3, 1))    /* square root (GPU: may be approximate) */
X(MATH_RSQRT,         "math.rsqrt",            1,  1, IR_F_PURE | IR_F_ELEMENTWISE,   SAME,    SAME_FLOAT,    FMATH, RSQRT,                                           ABS,       ULP(2, 2, 1))    /* 1/sqrt(x) */
X(MATH_ERF,           "math.erf",              1,  1, IR_F_PURE | IR_F_ELEMENTWISE,   SAME,    SAME_FLOAT,    FMATH, ERF,                                             ABS,       ULP(2, 4, 1))    /* error function */
X(MATH_FLOOR,         "math.floor",            1,  1, IR_F_PURE | IR_F_ELEMENTWISE,   SAME,    SAME_FLOAT,    FUN,   floor(x),                                        ABS,       EXACT)           /* round down */
X(MATH_CEIL,          "math.ceil",             1,  1, IR_F_PURE | IR_F_ELEMENTWISE,   SAME,    SAME_FLOAT,    FUN,   ceil(x),                                         ABS,       EXACT)           /* round up */
X(MATH_ABSF,          "math.absf",             1,  1, IR_F_PURE | IR_F_ELEMENTWISE,   SAME,    SAME_FLOAT,    FUN,   fabs(x),                                         ABS,       EXACT)           /* clear sign bit */
X(MATH_ABSI,          "math.absi",             1,  1, IR_F_PURE | IR_F_ELEMENTWISE,   SAME,    SAME_INT,      IUN,   wrap_int(bits, x < 0 ? (int64_t)(0 - (uint64_t)x) : x), ABS,       EXACT)           /* |x|, MIN stays MIN */
X(MATH_FMA,           "math.fma",              3,  1, IR_F_PURE | IR_F_ELEMENTWISE,   SAME,    SAME_FLOAT,    FTER,  fk_fma(c, f, x, y, z),                            FMA,       EXACT)           /* a*b+c with one rounding */
X(MATH_TANH,          "math.tanh",             1,  1, IR_F_PURE | IR_F_ELEMENTWISE,   SAME,    SAME_FLOAT,    FMATH, TANH,                                            ABS,       ULP(2, 8, 2))    /* hyperbolic tangent */
X(MATH_TAN,           "math.tan",              1,  1, IR_F_PURE | IR_F_ELEMENTWISE,   SAME,    SAME_FLOAT,    FMATH, TAN,                                             ABS,       ULP(2, 5, 1))    /* tangent (x in radians) */
X(MATH_LOG10,         "math.log10",            1,  1, IR_F_PURE | IR_F_ELEMENTWISE,   SAME,    SAME_FLOAT,    FMATH, LOG10,                                           ABS,       ULP(2, 4, 1))    /* log base 10; powers of ten exact */
X(MATH_TRUNC,         "math.trunc",            1,  1, IR_F_PURE | IR_F_ELEMENTWISE,   SAME,    SAME_FLOAT,    FUN,   trunc(x),                                        ABS,       EXACT)           /* round toward zero */
X(MATH_ROUND,         "math.round",            1,  1, IR_F_PURE | IR_F_ELEMENTWISE,   SAME,    SAME_FLOAT,    FUN,   round(x),                                        ABS,       EXACT)           /* round half away from zero */
X(MATH_ROUNDEVEN,     "math.roundeven",        1,  1, IR_F_PURE | IR_F_ELEMENTWISE,   SAME,    SAME_FLOAT,    FUN,   nearbyint(x),                                    ABS,       EXACT)           /* round half to even */
X(MATH_LOG1P,         "math.log1p",            1,  1, IR_F_PURE | IR_F_ELEMENTWISE,   SAME,    SAME_FLOAT,    FMATH, LOG1P,                                           ABS,       ULP(2, 4, 1))    /* log(1+x) */
X(MATH_EXPM1,         "math.expm1",            1,  1, IR_F_PURE | IR_F_ELEMENTWISE,   SAME,    SAME_FLOAT,    FMATH, EXPM1,                                           ABS,       ULP(2, 4, 1))    /* e^x - 1 */
X(MATH_POWF,          "math.powf",             2,  1, IR_F_PURE | IR_F_ELEMENTWISE,   SAME,    SAME_FLOAT,    FMATH, POW,                                             ABS,       ULP(2, 8, 2))    /* a^b */
X(MATH_CTPOP,         "math.ctpop",            1,  1, IR_F_PURE | IR_F_ELEMENTWISE,   SAME,    SAME_INT,      IUN,   __builtin_popcountll(u),                         ABS,       EXACT)           /* population count */
X(MATH_CTLZ,          "math.ctlz",             1,  1, IR_F_PURE | IR_F_ELEMENTWISE,   SAME,    SAME_INT,      IUN,   u ? __builtin_clzll(u) - (64 - bits) : bits,     ABS,       EXACT)           /* count leading zeros (width for 0) */
X(MATH_CTTZ,          "math.cttz",             1,  1, IR_F_PURE | IR_F_ELEMENTWISE,   SAME,    SAME_INT,      IUN,   u ? __builtin_ctzll(u) : bits,                   ABS,       EXACT)           /* count trailing zeros (width for 0) */
/* ---- structured and unstructured control flow ---------------------------- */
X(SCF_FOR,            "scf.for",              -1, -1, IR_F_REGION,                    CUSTOM,  CUSTOM,        CALL,  interp_op_scf_for,                               NONE,      EXACT)           /* for (iv = lb; iv < ub; iv += step), signed */
X(SCF_IF,             "scf.if",                1, -1, IR_F_REGION,                    CUSTOM,  CUSTOM,        CALL,  interp_op_scf_if,                                NONE,      EXACT)           /* then/else regions yielding results */
X(SCF_WHILE,          "scf.while",            -1, -1, IR_F_REGION,                    CUSTOM,  CUSTOM,        CALL,  interp_op_scf_while,                             NONE,      EXACT)           /* before region tests, after region yields */
X(SCF_CONDITION,      "scf.condition",        -1,  0, IR_F_TERMINATOR,                CUSTOM,  CUSTOM,        CALL,  interp_op_terminator,                            ABS,       EXACT)           /* while: continue flag + forwarded values */
X(SCF_YIELD,          "scf.yield",            -1,  0, IR_F_TERMINATOR,                CUSTOM,  CUSTOM,        CALL,  interp_op_terminator,                            ABS,       EXACT)           /* region results */
X(CF_BR,              "cf.br",                -1,  0, IR_F_TERMINATOR,                CUSTOM,  CUSTOM,        CALL,  interp_op_terminator,                            ABS,       EXACT)           /* jump to successor with block args */
X(CF_COND_BR,         "cf.cond_br",           -1,  0, IR_F_TERMINATOR,                CUSTOM,  CUSTOM,        CALL,  interp_op_terminator,                            ABS,       EXACT)           /* two-way branch on i1 */
