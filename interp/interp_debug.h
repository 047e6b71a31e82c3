/*
 * interp_debug.h: laptop debugging aids for one launch: --dump (values by
 * TTIR or Python name, tt.print format or .npy), --trace (per-op summaries),
 * --trap nan|inf (first op creating a NaN/inf), --check-uninit (definedness
 * shadow of masked-off load lanes and never-written buffers) and located
 * reports of undefined behaviour (warning, --strict fault, --quiet).
 * Ownership: interp_debug_new's result is owned by the caller
 * (interp_debug_free); the module it is configured with and the memory of the
 * launch it is attached to are borrowed and must outlive it; strings passed to
 * setters are copied; FILEs given to interp_debug_set_out stay the caller's.
 */
#ifndef INTERP_DEBUG_H
#define INTERP_DEBUG_H

#include "interp.h"

/* Undefined-behaviour kinds: X(id, message). */
#define INTERP_UB_LIST(X)                                                                                              \
  X(DIV_ZERO, "integer division by zero")                                                                              \
  X(DIV_OVERFLOW, "integer division overflow (INT_MIN / -1)")                                                          \
  X(SHIFT, "shift amount >= bit width")                                                                                \
  X(FPTOI, "float to integer conversion out of range (or NaN)")                                                        \
  X(OVERFLOW, "integer overflow of an op marked nsw/nuw")

typedef enum interp_ub_kind {
#define X(id, msg) INTERP_UB_##id,
  INTERP_UB_LIST(X)
#undef X
      INTERP_UB_COUNT
} interp_ub_kind;

typedef enum interp_ub_mode {
  INTERP_UB_WARN,   /* default: a warning line for the first few, then a count */
  INTERP_UB_STRICT, /* the first one is a fault (exit 1) */
  INTERP_UB_QUIET,  /* counted in --stats only */
} interp_ub_mode;

enum { INTERP_TRAP_NAN = 1, INTERP_TRAP_INF = 2 };

/* The most UB warning lines printed; the rest are counted. */
#define INTERP_UB_SHOWN 10

typedef struct interp_debug interp_debug;

/* A new, inactive debug state (UB warnings on, to stderr). NULL on OOM. */
interp_debug *interp_debug_new(const ir_module *m, const ir_func *fn);
void interp_debug_free(interp_debug *d);

/*
 * Add a --dump spec "NAME[@PID][[LANES]]": NAME is a TTIR value name (%x_7)
 * or a Python name from the locations (offs; the last definition per block);
 * PID is "*" or X[,Y[,Z]] (default: every program); LANES is "A:B" or "A".
 * TTREF_E_USAGE with a message naming the known names on a bad spec.
 */
ttref_status interp_debug_add_dump(interp_debug *d, const char *spec, ttref_error *err);
/* Dumps go to DIR/NAME.pidX-Y-Z[.itK].npy (created, never overwritten) instead of text. */
ttref_status interp_debug_set_dump_dir(interp_debug *d, const char *dir, ttref_error *err);
/* --trace; pids: NULL = every program, else "X[,Y[,Z]]" or "*"; may be called once per pid. */
ttref_status interp_debug_set_trace(interp_debug *d, const char *pids, ttref_error *err);
void interp_debug_set_trap(interp_debug *d, int mask); /* INTERP_TRAP_* bits */
void interp_debug_set_check_uninit(interp_debug *d, bool on);
void interp_debug_set_ub_mode(interp_debug *d, interp_ub_mode mode);
void interp_debug_set_out(interp_debug *d, FILE *out, FILE *warn); /* text dumps/trace; warnings */
/* Install d on a launch (sets L->debug, and L->debug_ops when per-op hooks are needed). */
void interp_debug_attach(interp_debug *d, interp_launch *L);
/* After interp_run: print the count of UB cases not shown; returns how many were found. */
int64_t interp_debug_finish(interp_debug *d);

/* ---- executor hooks (interp_exec.c only) ------------------------------------------------ */
typedef const interp_elem *(*interp_dbg_get)(void *cx, const ir_value *v, int64_t *out_n);
typedef struct interp_dbg_site {
  const interp_launch *L;
  void *cx;           /* the executor's context, for get */
  interp_dbg_get get; /* current elements of a value of the running frame */
  const int64_t *pid; /* program id (x, y, z) */
  int64_t lin;        /* linear program id */
  int64_t seq;        /* events so far in this program (UB ordering) */
  ttref_error *err;
} interp_dbg_site;

/* Before op runs (ops and block terminators): definedness checks of conditions,
 * bounds and region arguments. TTREF_E_FAULT with a located message. */
ttref_status interp_debug_before(interp_debug *d, const interp_dbg_site *s, const ir_op *op);
/* After op ran: shadows, dumps, trace, traps. */
ttref_status interp_debug_after(interp_debug *d, const interp_dbg_site *s, const ir_op *op);
/* A UB case at lane of op. Returns true when it must become a fault (--strict,
 * an unmasked lane); the executor then calls interp_debug_ub_fault after the op.
 * Thread-safe; warnings are printed by interp_debug_finish in program order. */
bool interp_debug_ub(interp_debug *d, const interp_dbg_site *s, const ir_op *op, interp_ub_kind k, int64_t lane);
ttref_status interp_debug_ub_fault(const interp_dbg_site *s, const ir_op *op, interp_ub_kind k, int64_t lane);

#endif
