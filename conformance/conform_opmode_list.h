/*
 * conform_opmode_list.h: the default compliance mode of an op's float result,
 * one row per op whose GPU lowering may legitimately differ from ttref's
 * correctly rounded reference. Every op not listed (and every integer result)
 * is EXACT. Used by `ttref conform --localize` for its probes and tabled in
 * docs/compliance.md (section "Default mode per op"); keep the two together.
 * Columns: X(IR opcode, mode (a cmp_mode_list.h name), ulp for f64, f32, f16/bf16 results, why).
 * A ulp of 0 means EXACT for that format. DOT_PRODUCT and REDUCE take their
 * k from the op (contraction length, reduced extent). No include guard.
 */
X(DIVF,               ULP,           0, 2, 1, "div.full.f32 is not correctly rounded (OpenCL: 2.5 ulp)")
X(MATH_EXP,           ULP,           2, 4, 1, "ex2.approx-based; OpenCL exp: 3 ulp")
X(MATH_EXP2,          ULP,           2, 4, 1, "ex2.approx.f32; OpenCL exp2: 3 ulp")
X(MATH_LOG,           ULP,           2, 4, 1, "lg2.approx-based; OpenCL log: 3 ulp")
X(MATH_LOG2,          ULP,           2, 4, 1, "lg2.approx.f32; OpenCL log2: 3 ulp")
X(MATH_SIN,           ULP,           2, 4, 1, "sin.approx / libdevice; OpenCL sin: 4 ulp")
X(MATH_COS,           ULP,           2, 4, 1, "cos.approx / libdevice; OpenCL cos: 4 ulp")
X(MATH_SQRT,          ULP,           0, 3, 1, "sqrt.approx.f32; OpenCL sqrt: 3 ulp (tt.precise_sqrt is exact)")
X(MATH_RSQRT,         ULP,           2, 2, 1, "rsqrt.approx; OpenCL rsqrt: 2 ulp")
X(MATH_ERF,           ULP,           2, 4, 1, "libdevice erf: 2 ulp; OpenCL erf: 16 ulp")
X(MATH_TANH,          ULP,           2, 8, 2, "tanh.approx or libdevice; OpenCL tanh: 5 ulp")
X(MATH_TAN,           ULP,           2, 5, 1, "libdevice tan: 2 ulp, tanf: 4 ulp; OpenCL tan: 5 ulp")
X(MATH_LOG1P,         ULP,           2, 4, 1, "libdevice log1p: 1 ulp; OpenCL: 2 ulp")
X(MATH_EXPM1,         ULP,           2, 4, 1, "libdevice expm1: 1 ulp; OpenCL: 3 ulp")
X(MATH_POWF,          ULP,           2, 8, 2, "libdevice pow: 2 ulp; OpenCL pow: 16 ulp")
X(EXTERN_ELEMENTWISE, ULP,           2, 4, 2, "libdevice / ocml functions: at most a few ulp")
X(DOT,                DOT_PRODUCT,   0, 0, 0, "tensor cores reorder and may truncate the accumulation (TOSA bound)")
X(DOT_SCALED,         DOT_PRODUCT,   0, 0, 0, "as tt.dot")
X(REDUCE,             REDUCE,        0, 0, 0, "reduction trees differ between backends")
X(SCAN,               REDUCE,        0, 0, 0, "scan order differs between backends")
