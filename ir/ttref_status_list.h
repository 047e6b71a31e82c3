/*
 * ttref_status_list.h: every status code ttref returns, one row each.
 * Columns: X(NAME, "description"). Expanded by ttref.h (enum) and ir_base.c
 * (strings). No include guard: include it only inside an X definition.
 */
X(OK,          "ok")
X(E_USAGE,     "usage error")
X(E_IO,        "i/o error")
X(E_NOMEM,     "out of memory")
X(E_SYNTAX,    "syntax error")
X(E_VERIFY,    "verification failed")
X(E_UNSUPPORTED, "unsupported construct")
X(E_INPUT,     "bad input")
X(E_FAULT,     "kernel fault")
X(E_LIMIT,     "resource limit exceeded")
X(E_INTERNAL,  "internal error")
