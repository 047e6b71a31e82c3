/*
 * interp_fbin_list.h: the float binary ops that share one typed loop
 * (interp_arith.c): X(NAME, expression of x and y, rounded). NAME is the
 * IR_OP_ suffix; rounded = 1 when the binary64 result is rounded once to the
 * result format, 0 when it is exact (a choice of x or y). No include guard.
 */
X(ADDF,         x + y,           1) /* arith.addf */
X(SUBF,         x - y,           1) /* arith.subf */
X(MULF,         x * y,           1) /* arith.mulf */
X(DIVF,         x / y,           1) /* arith.divf */
X(PRECISE_DIVF, x / y,           1) /* tt.precise_divf: binary64 quotient rounded once is correctly rounded */
X(REMF,         fmod(x, y),      1) /* arith.remf: fmod is exact, so rounding changes nothing */
X(MAXNUMF,      maxnum(x, y),    0) /* arith.maxnumf: NaN loses, +0 over -0 */
X(MINNUMF,      minnum(x, y),    0) /* arith.minnumf */
X(MAXIMUMF,     maximum(x, y),   0) /* arith.maximumf: NaN wins */
X(MINIMUMF,     minimum(x, y),   0) /* arith.minimumf */
