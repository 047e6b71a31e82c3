/*
 * ttref_option_list.h: every launch option of the public API
 * (ttref_launch_set), one row each. Columns: X(NAME, "spelling", lo, hi,
 * "meaning"); values are int64 in [lo, hi] (booleans 0/1). Expanded by
 * ttref.h (enum ttref_option) and interp/ttref_api.c (names, ranges).
 * New rows go at the end (the enum values are ABI).
 * No include guard: include it only inside an X definition.
 */
X(THREADS,     "threads",     0, 4096,            "OpenMP threads for the programs of a launch; 0 = OpenMP default (outputs never depend on it)")
X(PRECISE,     "precise",     0, 1,               "also run in binary64 without rounding: values and magnitude bounds per float buffer (ttref_launch_precise)")
X(FTZ,         "ftz",         0, 1,               "flush float subnormal results to zero (compare with FTZ hardware)")
X(CONTRACT,    "contract",    0, 1,               "fuse a single-use mulf into its addf/subf (LLVM FMA contraction)")
X(CHECK_RACES, "check_races", 0, 1,               "fault at the first cross-program conflict (programs then run in order)")
X(MAX_STEPS,   "max_steps",   0, INT64_C(1) << 62, "ops one program may execute before the launch stops with a fault; 0 = no limit")
X(TRAP,         "trap",         0, 3,               "fault at the first op whose result is NaN (1) or inf (2) from operands without one; since API 2")
X(CHECK_UNINIT, "check_uninit", 0, 1,               "fault when a masked-off load lane or a never-written @new buffer element is used; since API 2")
X(UB,           "ub",           0, 3,               "undefined behaviour: 0 counted only (nsw/nuw overflow not checked), 1 a located warning each, 2 the first is a fault, 3 counted with nsw/nuw; since API 2")
