/*
 * ir_parse.h: TTIR text (Triton 3.0-3.8 make_ttir output, lit-test
 * spellings, generic op forms) to the core IR of ir.h.
 * Ownership: *out is owned by the caller (ir_module_free); the text and
 * names passed in are borrowed for the duration of the call only, except
 * that err->loc.file points at the caller's `path`/`name` string.
 */
#ifndef IR_PARSE_H
#define IR_PARSE_H

#include <stddef.h>
#include "ir.h"

/* Largest input accepted (bytes). */
#define IR_PARSE_MAX_BYTES ((size_t)1 << 30)
/* Deepest nesting of regions, attributes, types and locations. */
#define IR_PARSE_MAX_DEPTH 256

/**
 * Parse the file at @p path.
 * @param[out] out  the module on success, NULL on failure.
 * @param[out] err  on failure: code, "FILE:LINE:COL: error: ..." in msg and
 *                  the source line with a caret in note. May be NULL.
 * @return TTREF_OK, TTREF_E_IO (unreadable), TTREF_E_LIMIT (> 1 GiB),
 *         TTREF_E_SYNTAX (any malformed input; the first error stops parsing)
 *         or TTREF_E_NOMEM.
 */
ttref_status ir_parse_file(const char *path, ir_module **out, ttref_error *err);

/**
 * Parse @p len bytes of @p text (no NUL terminator needed; NUL bytes are an
 * error). @p name is the file name used in messages and module->filename.
 * Same results as ir_parse_file.
 */
ttref_status ir_parse_string(const char *name, const char *text, size_t len, ir_module **out, ttref_error *err);

/* ir_parse_file/_string read ops of the ttref program's registry (ir_vendor_process()); the
 * _ex forms take the registry of vendor ops to accept (NULL: built-in ops only). The module's
 * vendor ops borrow their definitions from @p reg. */
ttref_status ir_parse_file_ex(const char *path, const ttref_registry *reg, ir_module **out, ttref_error *err);
ttref_status ir_parse_string_ex(const char *name, const char *text, size_t len, const ttref_registry *reg,
                                ir_module **out, ttref_error *err);

#endif
