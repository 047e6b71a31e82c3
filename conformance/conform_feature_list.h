/*
 * conform_feature_list.h: hardware/compiler features a case may require and
 * a backend config may declare, one row each. Columns: X(NAME, "spelling").
 * Expanded by conform_suite.h and conform_suite.c. No include guard.
 */
X(FP8,     "fp8")      /* 8-bit float loads, casts and dot operands */
X(TF32,    "tf32")     /* tt.dot inputPrecision tf32 / tf32x3 */
X(ATOMICS, "atomics")  /* tt.atomic_rmw / tt.atomic_cas */
X(I64,     "64bit")    /* 64-bit integer and float arithmetic */
X(DOT,     "dot")      /* tt.dot at all */
X(BLOCKPTR,"block_ptr") /* tt.make_tensor_ptr / tensor descriptors */
