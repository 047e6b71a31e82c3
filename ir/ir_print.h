/*
 * ir_print.h: canonical TTIR text from the core IR: each op in the custom
 * assembly format Triton prints (generic form for tt.reduce, tt.scan and
 * tt.map_elementwise), 2-space indentation, original SSA names and loc aliases.
 * Ownership: the module and the stream are borrowed; nothing is retained.
 */
#ifndef IR_PRINT_H
#define IR_PRINT_H

#include <stdio.h>
#include "ir.h"

/**
 * Print @p m to @p out. The output re-parses (ir_parse_string) to the same
 * IR, printing it again gives the same bytes, and it is valid MLIR for
 * Triton's own parser.
 * @return TTREF_OK, TTREF_E_IO on a write error, TTREF_E_NOMEM, or
 *         TTREF_E_INTERNAL for IR the printer cannot express (e.g. an op
 *         whose operand count does not fit its syntax); err may be NULL.
 */
ttref_status ir_print_module(const ir_module *m, FILE *out, ttref_error *err);

/** Text inserted while printing (instrumentation, e.g. `ttref conform --localize`). */
typedef struct ir_print_hooks {
  void *ctx;
  /** Appended to @p f's argument list (e.g. ", %p: !tt.ptr<f32>"), or NULL. */
  const char *(*extra_args)(void *ctx, const ir_func *f);
  /** Whole lines printed first in @p f's entry block, or NULL. */
  const char *(*prologue)(void *ctx, const ir_func *f);
  /** Whole lines printed right after @p op, or NULL. */
  const char *(*after_op)(void *ctx, const ir_op *op);
} ir_print_hooks;

/**
 * ir_print_module with @p h's text inserted (h may be NULL). The returned
 * strings are borrowed until the next call of the same hook; the printer
 * copies them. Whether the result parses is the hooks' responsibility.
 */
ttref_status ir_print_module_hooked(const ir_module *m, FILE *out, const ir_print_hooks *h, ttref_error *err);

#endif
