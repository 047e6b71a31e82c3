/*
 * conform_option_list.h: compliance-mode options a case may set per output
 * (`outputs: {o: {mode: ulp, options: {ulp: 2}}}`), one row each; every row
 * but `precise` is a cmp_options field (cmp.h). Columns: X(NAME, "spelling",
 * type, modes) with type T_NUM (number), T_INT (integer >= 1), T_BOOL, T_NAN
 * (any|same_sign|same_bits) or T_FMT (a float dtype), and modes the CMP_ modes
 * that read it (0: all). Expanded by conform_judge.c. No include guard.
 */
X(ULP,                "ulp",                T_NUM,  MB(ULP))                           /* allowed ulps */
X(ABS_TOL,            "abs_tol",            T_NUM,  MB(ABS))                           /* allowed |got - r| */
X(REL_TOL,            "rel_tol",            T_NUM,  MB(REL))                           /* allowed |got - r| / |r| */
X(K,                  "k",                  T_INT,  MB(DOT_PRODUCT) | MB(REDUCE))      /* terms per output element */
X(ALLOW_FTZ,          "allow_ftz",          T_BOOL, 0)                                 /* accept flushed subnormals */
X(NAN,                "nan",                T_NAN,  0)                                 /* NaN matching policy */
X(ALLOW_OVERFLOW_INF, "allow_overflow_inf", T_BOOL, 0)                                 /* accept inf past max finite */
X(QUALITY_FRACTION,   "quality_fraction",   T_NUM,  0)                                 /* QUALITY_WARNING threshold */
X(ACC,                "acc",                T_FMT,  MB(DOT_PRODUCT))                   /* accumulator format (ksb) */
X(ABS_BOUND,          "abs_bound",          T_NUM,  MB(DOT_PRODUCT))                   /* limit on |err_i| */
X(VAR_BOUND,          "var_bound",          T_NUM,  MB(DOT_PRODUCT))                   /* limit on mean(err_i^2) */
X(BIAS_TEST,          "bias_test",          T_BOOL, MB(DOT_PRODUCT))                   /* TOSA bias test */
X(PRECISE,            "precise",            T_BOOL, MB(ULP) | MB(ABS) | MB(REL))       /* judge against the binary64 precise value, not the golden */
