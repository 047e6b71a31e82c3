/*
 * cmp_mode_list.h: every compliance mode of the comparison library, one row
 * each; the single source of cmp_mode and of the name table in cmp.c.
 * Columns: X(NAME, "name", "description"). Formulas: docs/compliance.md.
 * No include guard: include it only inside an X definition.
 */
X(EXACT,       "exact",       "bit equality; NaN per nan policy; -0 != +0")                       /* data movement, min/max, ints */
X(ULP,         "ulp",         "|got - r| <= ulp * ulp_toward(r, got) in the output format")        /* OpenCL signed fractional ULP */
X(ABS,         "abs",         "|got - r| <= abs_tol")                                              /* IREE/StableHLO atol */
X(REL,         "rel",         "|got - r| <= rel_tol * |r|")                                        /* ONNX rtol without atol */
X(DOT_PRODUCT, "dot_product", "TOSA: |got - P| <= abs_bound * max(B 2^-p, min_normal), plus variance and bias") /* tt.dot */
X(REDUCE,      "reduce",      "|got - P| <= max(B, min_normal) * ((1 + 2^-p)^k - 1)")              /* tt.reduce/scan add, mul */
X(FP_SPECIAL,  "fp_special",  "where ref is NaN, inf, zero or subnormal, got matches it exactly")  /* combined with another mode */
