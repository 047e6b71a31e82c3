/*
 * conform_verdict_list.h: every verdict of a case x specialization, one row
 * each. Columns: X(NAME, "spelling", unexpected) where unexpected = 1 makes
 * the run exit 1. Expanded by conform_verdict.h and conform_verdict.c.
 * No include guard.
 */
X(PASS,            "PASS",            0) /* every output within its compliance bound */
X(FAIL,            "FAIL",            1) /* some output outside its bound */
X(XFAIL,           "XFAIL",           0) /* failed (or crashed/timed out) as the backend config expects */
X(XPASS,           "XPASS",           1) /* expected to fail but passed: strict, update the config */
X(UNSUPPORTED,     "UNSUPPORTED",     0) /* the backend said it cannot run the case (exit 3) */
X(SKIP,            "SKIP",            0) /* a requirement the backend lacks, or a config skip */
X(ERROR,           "ERROR",           1) /* harness or adapter fault: bad exit, missing or malformed output */
X(CRASH,           "CRASH",           1) /* the backend died from a signal */
X(TIMEOUT,         "TIMEOUT",         1) /* the backend exceeded its time limit */
X(QUALITY_WARNING, "QUALITY_WARNING", 0) /* passes but uses more than half of its error budget */
