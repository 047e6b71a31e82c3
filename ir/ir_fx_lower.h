/*
 * ir_fx_lower.h: lowering of a parsed TK trace (ir_fx.h) with launch-time
 * bindings (--sym, --dtype, --oob) to TTIR text, parsed by ir_parse into the
 * same core IR as .ttir kernels.
 * Ownership: *out_text is owned by the caller (ir_free(text, len + 1)) and
 * *out modules by the caller (ir_module_free); bindings are borrowed for the
 * duration of the call.
 */
#ifndef IR_FX_LOWER_H
#define IR_FX_LOWER_H

#include "ir_fx.h"

/* What a kernel_buffer load/store/getitem/setitem does out of bounds. */
enum { IR_FX_OOB_ERROR = 0, IR_FX_OOB_ZERO = 1 };

/* Launch-time bindings of a trace. */
typedef struct ir_fx_bind {
  const char *const *syms; /* "NAME=INT" per symbol */
  int nsyms;
  const char *const *dtypes; /* "BUFFER=DTYPE" (placeholder target or node name) */
  int ndtypes;
  int oob; /* IR_FX_OOB_ERROR (default) or IR_FX_OOB_ZERO */
} ir_fx_bind;

/**
 * Lower @p g with bindings @p b to TTIR text: one public tt.func named
 * @p kernel_name whose arguments are the root placeholders (named by their
 * targets) as pointers, every op located at its fx node
 * (loc("NODE"("FILE.fx":LINE:COL))). Unbound symbols, shape and dtype errors,
 * non-power-of-two vector sizes: TTREF_E_INPUT at the node's line:col.
 */
ttref_status ir_fx_lower(const ir_fx *g, const ir_fx_bind *b, const char *kernel_name, char **out_text, size_t *out_len,
                         ttref_error *err);

/* Give every op of @p m (parsed from ir_fx_lower's text) the line:col of its fx
 * node and make (a copy of) @p fx_path the module's file name, so
 * diagnostics point into the trace. */
void ir_fx_relocate(ir_module *m, const char *fx_path);

/**
 * Parse the file at @p path, lower it with @p b and parse the result into a
 * core IR module (not yet verified). *out_text (may be NULL) receives the TTIR.
 */
ttref_status ir_fx_load_file(const char *path, const ir_fx_bind *b, ir_module **out, char **out_text, size_t *out_len,
                             ttref_error *err);
#endif
