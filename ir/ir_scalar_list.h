/*
 * ir_scalar_list.h: every scalar element type TTIR can name, one row each.
 * Columns: X(NAME, "spelling", bits, kind) where kind is 'i' (signless
 * integer), 'f' (float) or 'p' (pointer, 64-bit address). Expanded by ir.h
 * and ir.c. No include guard.
 */
X(I1,         "i1",          1,  'i')
X(I4,         "i4",          4,  'i')
X(I8,         "i8",          8,  'i')
X(I16,        "i16",        16,  'i')
X(I32,        "i32",        32,  'i')
X(I64,        "i64",        64,  'i')
X(F16,        "f16",        16,  'f')
X(BF16,       "bf16",       16,  'f')
X(F32,        "f32",        32,  'f')
X(F64,        "f64",        64,  'f')
X(F8E4M3FN,   "f8E4M3FN",    8,  'f')
X(F8E5M2,     "f8E5M2",      8,  'f')
X(F8E4M3FNUZ, "f8E4M3FNUZ",  8,  'f')
X(F8E5M2FNUZ, "f8E5M2FNUZ",  8,  'f')
X(PTR,        "!tt.ptr",    64,  'p')
