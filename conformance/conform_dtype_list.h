/*
 * conform_dtype_list.h: element dtypes of case buffers, one row each.
 * Columns: X(NAME, "spelling", npy kind, bytes, fp format or -1, ir scalar).
 * bf16 and fp8 travel as raw bits ('u'); ints may be read as unsigned ('u').
 * Expanded by conform_gen.h and conform_gen.c. No include guard.
 */
X(BOOL,       "bool",       'b', 1, -1,              IR_S_I1)
X(I8,         "i8",         'i', 1, -1,              IR_S_I8)
X(I16,        "i16",        'i', 2, -1,              IR_S_I16)
X(I32,        "i32",        'i', 4, -1,              IR_S_I32)
X(I64,        "i64",        'i', 8, -1,              IR_S_I64)
X(U8,         "u8",         'u', 1, -1,              IR_S_I8)
X(U16,        "u16",        'u', 2, -1,              IR_S_I16)
X(U32,        "u32",        'u', 4, -1,              IR_S_I32)
X(U64,        "u64",        'u', 8, -1,              IR_S_I64)
X(F16,        "f16",        'f', 2, FP_F16,          IR_S_F16)
X(BF16,       "bf16",       'u', 2, FP_BF16,         IR_S_BF16)
X(F32,        "f32",        'f', 4, FP_F32,          IR_S_F32)
X(F64,        "f64",        'f', 8, FP_F64,          IR_S_F64)
X(F8E4M3FN,   "f8E4M3FN",   'u', 1, FP_F8E4M3FN,     IR_S_F8E4M3FN)
X(F8E5M2,     "f8E5M2",     'u', 1, FP_F8E5M2,       IR_S_F8E5M2)
X(F8E4M3FNUZ, "f8E4M3FNUZ", 'u', 1, FP_F8E4M3FNUZ,   IR_S_F8E4M3FNUZ)
X(F8E5M2FNUZ, "f8E5M2FNUZ", 'u', 1, FP_F8E5M2FNUZ,   IR_S_F8E5M2FNUZ)
