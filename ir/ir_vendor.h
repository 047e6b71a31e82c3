/*
 * ir_vendor.h: vendor-op registries (ttref_registry of ttref.h): the
 * registered op definitions the parser, verifier and executor consult.
 * Ownership: a registry owns copies of its definitions and its plugin
 * handles; what ir_vendor_find returns is borrowed from the registry.
 */
#ifndef IR_VENDOR_H
#define IR_VENDOR_H

#include <stddef.h>
#include "ir.h"

/* Most operands a vendor op may have. */
#define IR_VENDOR_MAX_OPNDS 16

/* The op named by the @p n bytes at @p name in @p reg; NULL when none (or @p reg is NULL). */
const ttref_op_def *ir_vendor_find(const ttref_registry *reg, const char *name, size_t n);

/* The registry of the `ttref` program (--ops, TTREF_OPS), used by ir_parse_file and
 * ir_parse_string; NULL in a library user's process (the API passes registries explicitly). */
const ttref_registry *ir_vendor_process(void);
/* Set it (the ttref program only; borrowed, NULL to clear). Not thread safe. */
void ir_vendor_set_process(const ttref_registry *reg);

#endif
