/*
 * ir_base_yaml.h: typed, located access to a libyaml document, the base
 * layer's one YAML reader (launch files, suite cases, backend configs, golden
 * libraries): every problem becomes "FILE:LINE:COL: error: ..." (libyaml
 * marks + 1), and mapping keys can be checked against a caller's key table.
 * Ownership: an ir_yaml is caller storage released with ir_yaml_free; nodes
 * are borrowed from it; strings and arrays it returns live in the caller's
 * arena; the key table is borrowed.
 */
#ifndef IR_BASE_YAML_H
#define IR_BASE_YAML_H

#include <stdbool.h>
#include <stdint.h>
#include <yaml.h>
#include "ir_base.h"

typedef struct ir_yaml {
  yaml_document_t doc;
  bool loaded;
  const char *file; /* borrowed: used in every message */
  ir_arena *arena;  /* borrowed: where returned strings and arrays live */
  ttref_error *err; /* borrowed: where errors go */
  /* The spellings ir_yaml_map's allowed bits index: keys[k] is key k (nkeys <= 64).
   * Set them after ir_yaml_load; NULL: no key table (every key is unknown). */
  const char *const *keys;
  int nkeys;
} ir_yaml;

/** One mapping entry: a known key (key >= 0) or a free-form name. */
typedef struct ir_yaml_pair {
  int key;            /* index into the key table, or -1 for free-form maps */
  const char *name;   /* the key's text (arena) */
  yaml_node_t *knode; /* for locations */
  yaml_node_t *value;
} ir_yaml_pair;

/**
 * Parse @p file, a regular file holding one document (a FIFO or device is
 * TTREF_E_IO, never a hang). @p kind names such a file in messages ("launch
 * file": "bad YAML: ...", "a launch file holds one YAML document; ..."; NULL:
 * "yaml: ...", "a YAML file here holds one document; ..."). @p arena may be
 * NULL when only root, loc, fail and is_* are used. @return TTREF_OK;
 * TTREF_E_IO (cannot read); TTREF_E_INPUT located at the syntax error or the
 * second document; TTREF_E_NOMEM. ir_yaml_free is safe after any result.
 */
ttref_status ir_yaml_load(ir_yaml *y, const char *file, const char *kind, ir_arena *arena, ttref_error *err);
/** Release the document; NULL-safe and idempotent. */
void ir_yaml_free(ir_yaml *y);
/** The root node, or NULL for an empty document. */
yaml_node_t *ir_yaml_root(ir_yaml *y);
/** The 1-based position of @p n. */
ttref_loc ir_yaml_loc(const ir_yaml *y, const yaml_node_t *n);
/** Set a located TTREF_E_INPUT error at @p n; returns TTREF_E_INPUT. */
ttref_status ir_yaml_fail(ir_yaml *y, const yaml_node_t *n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/**
 * The entries of mapping @p n (@p what names it in messages). With
 * @p allowed != 0 every key must be in the key table (y->keys) with its bit
 * set; with 0, keys are free-form names. Duplicate keys are errors.
 */
ttref_status ir_yaml_map(ir_yaml *y, yaml_node_t *n, const char *what, uint64_t allowed, ir_yaml_pair **out_pairs,
                         int *out_n);
/** The items of sequence @p n. */
ttref_status ir_yaml_seq(ir_yaml *y, yaml_node_t *n, const char *what, yaml_node_t ***out_items, int *out_n);
/** A scalar as a string (copied to the arena). */
ttref_status ir_yaml_str(ir_yaml *y, yaml_node_t *n, const char *what, const char **out);
/** A scalar integer in [lo, hi] (decimal or 0x hex). */
ttref_status ir_yaml_int(ir_yaml *y, yaml_node_t *n, const char *what, int64_t lo, int64_t hi, int64_t *out);
/** A scalar number: decimal, hex float, inf, -inf, nan (also .inf, .nan). */
ttref_status ir_yaml_num(ir_yaml *y, yaml_node_t *n, const char *what, double *out);
/** A scalar true/false. */
ttref_status ir_yaml_bool(ir_yaml *y, yaml_node_t *n, const char *what, bool *out);
/** Whether @p n is a scalar / sequence / mapping. */
bool ir_yaml_is_scalar(const yaml_node_t *n);
bool ir_yaml_is_seq(const yaml_node_t *n);
bool ir_yaml_is_map(const yaml_node_t *n);

#endif
