/*
 * ttref_stat_list.h: every counter of a launch's last run (ttref_launch_stat),
 * one row each, in the order `ttref run --stats` prints them. Columns:
 * X(NAME, "name", "label in --stats"). New rows go at the end (the enum
 * values are ABI). No include guard: include it only inside an X definition.
 */
X(PROGRAMS,        "programs",        "programs")
X(DIV_ZERO,        "div_zero",        "int div by zero")
X(DIV_OVERFLOW,    "div_overflow",    "int div overflow")
X(SHIFT,           "shift",           "shift >= width")
X(FPTOI,           "fptoi",           "fp->int out of range")
X(MASKED_OTHER,    "masked_other",    "masked load without other")
X(POISON,          "poison",          "poison reads")
X(RACES,           "races",           "races")
X(OVERFLOW,        "overflow",        "nsw/nuw overflow")
