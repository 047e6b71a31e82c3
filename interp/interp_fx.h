/*
 * interp_fx.h: the command-line side of traced kernels (TK fx traces):
 * --sym/--dtype/--oob options, symbols inferred from .npy argument shapes,
 * lowering plus verification, and .npy shape/dtype checks against the
 * trace's buffers.
 * Ownership: interp_fx_opts arrays are owned by the opts (interp_fx_opts_free);
 * the module from interp_fx_load is owned by the caller (ir_module_free) and
 * *out_text by the caller (ir_free(text, len + 1)); everything else is borrowed.
 */
#ifndef INTERP_FX_H
#define INTERP_FX_H

#include <stdbool.h>
#include "ir.h"
#include "ir_fx_lower.h"

typedef struct interp_fx_opts {
  const char **syms; /* "NAME=INT" */
  int nsyms;
  const char **dtypes; /* "BUFFER=DTYPE" */
  int ndtypes;
  int oob;  /* IR_FX_OOB_ERROR / IR_FX_OOB_ZERO */
  bool any; /* some traced-kernel option was given */
} interp_fx_opts;

/* True for a traced kernel: a .fx path or fx text (ir_fx_sniff_file). */
bool interp_fx_is(const char *path);

/*
 * If argv[*i] is --sym NAME=INT, --dtype BUF=DT or --oob error|zero, consume
 * it (and its value; *i advances) and return 1; return 0 for other options;
 * return -1 after printing an error for a malformed one.
 */
int interp_fx_option(int argc, char **argv, int *i, interp_fx_opts *o);
void interp_fx_opts_free(interp_fx_opts *o);

/*
 * Parse, lower and verify the trace at @p path with @p o. Symbols that --sym
 * does not bind are taken from the shapes of the .npy files that @p specs
 * ("NAME=@FILE.npy", may be NULL) bind to buffers whose dims name them; then
 * every such file's shape and dtype must match the buffer (TTREF_E_INPUT).
 * @p out_text (may be NULL) receives the lowered TTIR.
 */
ttref_status interp_fx_load(const char *path, const interp_fx_opts *o, const char *const *specs, int nspecs,
                            ir_module **out, char **out_text, size_t *out_len, ttref_error *err);

/* Parse only (names, targets, arity, regions): `ttref check` without --sym. */
ttref_status interp_fx_check_syntax(const char *path, ttref_error *err);

#endif
