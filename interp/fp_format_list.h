/*
 * fp_format_list.h: every floating-point format ttref can round to, one row
 * each; the single source of fp_format and of the format table in fp_round.c.
 * Columns: X(NAME, "name", ebits, mbits, bias, has_inf, nan_kind, sgn, subn,
 * max_finite): exponent and stored-mantissa bits, exponent bias, whether
 * S.1..1.0..0 is infinity, the NaN encoding (FP_NAN_IEEE: exponent all ones,
 * mantissa != 0; FP_NAN_FN: only exponent and mantissa all ones; FP_NAN_FNUZ:
 * only 1.0..0.0..0, no -0; FP_NAN_NONE), whether there is a sign bit, whether
 * exponent field 0 holds zero and subnormals, and the largest finite value
 * (checked against the encoding by tests/unit/test_fp.c). No include guard.
 */
X(F16,        "f16",        5, 10,   15, 1, FP_NAN_IEEE, 1, 1, 0x1.ffcp15)              /* IEEE binary16 */
X(BF16,       "bf16",       8,  7,  127, 1, FP_NAN_IEEE, 1, 1, 0x1.fep127)              /* bfloat16: binary32 with 16 mantissa bits dropped */
X(F32,        "f32",        8, 23,  127, 1, FP_NAN_IEEE, 1, 1, 0x1.fffffep127)          /* IEEE binary32 */
X(F64,        "f64",       11, 52, 1023, 1, FP_NAN_IEEE, 1, 1, 0x1.fffffffffffffp1023)  /* IEEE binary64, the interpreter's working format */
X(F8E4M3FN,   "f8E4M3FN",   4,  3,    7, 0, FP_NAN_FN,   1, 1, 0x1.cp8)                 /* OCP E4M3 (tl.float8e4nv): no inf, NaN S.1111.111, max 448 */
X(F8E5M2,     "f8E5M2",     5,  2,   15, 1, FP_NAN_IEEE, 1, 1, 0x1.cp15)                /* OCP E5M2 (tl.float8e5): IEEE-like, max 57344 */
X(F8E4M3FNUZ, "f8E4M3FNUZ", 4,  3,    8, 0, FP_NAN_FNUZ, 1, 1, 0x1.ep7)                 /* AMD E4M3 (tl.float8e4b8): NaN 0x80, no -0, max 240 */
X(F8E5M2FNUZ, "f8E5M2FNUZ", 5,  2,   16, 0, FP_NAN_FNUZ, 1, 1, 0x1.cp15)                /* AMD E5M2 (tl.float8e5b16): NaN 0x80, no -0, max 57344 */
X(E2M1,       "e2m1",       2,  1,    1, 0, FP_NAN_NONE, 1, 1, 0x1.8p2)                 /* OCP MX FP4 (dot_scaled): no inf, no NaN, max 6 */
X(E2M3,       "e2m3",       2,  3,    1, 0, FP_NAN_NONE, 1, 1, 0x1.ep2)                 /* OCP MX FP6 E2M3: no inf, no NaN, max 7.5 */
X(E3M2,       "e3m2",       3,  2,    3, 0, FP_NAN_NONE, 1, 1, 0x1.cp4)                 /* OCP MX FP6 E3M2: no inf, no NaN, max 28 */
X(E8M0,       "e8m0",       8,  0,  127, 0, FP_NAN_FN,   0, 0, 0x1p127)                 /* OCP MX scale: unsigned 2^(b-127), 0xFF NaN, no zero */
X(TF32,       "tf32",       8, 10,  127, 1, FP_NAN_IEEE, 1, 1, 0x1.ffcp127)             /* tensor-core input: binary32 range, 10 mantissa bits (19-bit pattern) */
