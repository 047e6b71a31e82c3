/*
 * conform_gen_list.h: input generator recipes, one row each.
 * Columns: X(NAME, "spelling", needs_seed). Expanded by conform_gen.h and
 * conform_gen.c; docs/suite-format.md describes each. No include guard.
 */
X(ZEROS,        "zeros",        0) /* every element +0 / 0 */
X(FILL,         "fill",         0) /* every element `value` (number, inf, -inf, nan) */
X(ARANGE,       "arange",       0) /* start + i * step, rounded to the dtype */
X(UNIFORM_BITS, "uniform_bits", 1) /* raw mt19937 bits; `finite` redraws NaN/inf */
X(UNIFORM,      "uniform",      1) /* uniform in range [lo, hi) (ints: [lo, hi]), RNE to the dtype */
X(INT_VALUED,   "int_valued",   1) /* uniform integers in [lo, hi] stored in the dtype (floats exact) */
X(SPECIAL,      "special",      1) /* special values (set: float|int) mixed with uniform by `fraction` */
X(DOT_PRODUCT,  "dot_product",  0) /* TOSA dot-product test set S0..S5 (portable LCG; seed optional) */
X(FILE,         "file",         0) /* a .npy file next to the case (shape and size must match) */
