/*
 * conform_fault_list.h: the deliberately broken built-in backends
 * (`--backend fault:KIND`) that test the harness itself, one row each.
 * Columns: X(NAME, "kind", "what it does"). Expanded by conform_backend.c.
 * No include guard.
 */
X(NONE,        "none",        "exits 0 and writes no outputs (ERROR)")
X(FLIP_LSB,    "flip-lsb",    "runs the reference, then flips the low bit of every float output element (FAIL)")
X(DROP_STORE,  "drop-store",  "runs the reference, then zeroes the last element of every output (FAIL where it was nonzero)")
X(TRUNCATE,    "truncate",    "runs the reference, then truncates every output .npy to half its size (ERROR)")
X(BAD_SHAPE,   "bad-shape",   "runs the reference, then rewrites every output with one element fewer (ERROR)")
X(CRASH,       "crash",       "aborts (CRASH)")
X(HANG,        "hang",        "sleeps forever (TIMEOUT)")
X(EXIT_ERROR,  "exit-error",  "exits 1 without outputs (ERROR)")
X(UNSUPPORTED, "unsupported", "exits 3: says it cannot run the case (UNSUPPORTED)")
X(PERTURB,     "perturb:OP",  "runs the reference with every float result of op OP made 2^-6 too large, e.g. perturb:math.exp or a vendor op of --ops (FAIL; --localize names OP)")
