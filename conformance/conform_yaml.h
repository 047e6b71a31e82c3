/*
 * conform_yaml.h: typed, located access to a libyaml document for the suite
 * and backend-config readers: every key comes from conform_key_list.h, and
 * every problem becomes "FILE:LINE:COL: error: ..." (libyaml marks + 1).
 * Ownership: a conform_yaml is caller storage released with
 * conform_yaml_free; strings and arrays it returns live in the caller's arena.
 */
#ifndef CONFORM_YAML_H
#define CONFORM_YAML_H

#include <stdbool.h>
#include <stdint.h>
#include <yaml.h>
#include "ir_base.h"

/** Every YAML key of conform_key_list.h, plus CONFORM_KEY_COUNT (<= 64). */
typedef enum conform_key {
#define X(name, str) CONFORM_KEY_##name,
#include "conform_key_list.h"
#undef X
  CONFORM_KEY_COUNT
} conform_key;

#define CONFORM_KEYBIT(k) ((uint64_t)1 << CONFORM_KEY_##k)

/** @return the spelling of @p k, "<invalid>" when out of range. */
const char *conform_key_name(conform_key k);

typedef struct conform_yaml {
  yaml_document_t doc;
  bool loaded;
  const char *file; /* borrowed: used in every message */
  ir_arena *arena;  /* borrowed: where returned strings and arrays live */
  ttref_error *err; /* borrowed: where errors go */
} conform_yaml;

/** One mapping entry: a known key (key >= 0) or a free-form name. */
typedef struct conform_yaml_pair {
  int key;            /* conform_key, or -1 for free-form maps */
  const char *name;   /* the key's text (arena) */
  yaml_node_t *knode; /* for locations */
  yaml_node_t *value;
} conform_yaml_pair;

/** Parse @p file (one document). Syntax errors are located. */
ttref_status conform_yaml_load(conform_yaml *y, const char *file, ir_arena *arena, ttref_error *err);
/** Release the document; NULL-safe and idempotent. */
void conform_yaml_free(conform_yaml *y);
/** The root node, or NULL for an empty document. */
yaml_node_t *conform_yaml_root(conform_yaml *y);
/** The 1-based position of @p n. */
ttref_loc conform_yaml_loc(const conform_yaml *y, const yaml_node_t *n);
/** Set a located TTREF_E_INPUT error at @p n; returns TTREF_E_INPUT. */
ttref_status conform_yaml_fail(conform_yaml *y, const yaml_node_t *n, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/**
 * The entries of mapping @p n (@p what names it in messages). With
 * @p allowed != 0 every key must be a conform_key whose bit is set; with 0,
 * keys are free-form names. Duplicate keys are errors.
 */
ttref_status conform_yaml_map(conform_yaml *y, yaml_node_t *n, const char *what, uint64_t allowed,
                              conform_yaml_pair **out_pairs, int *out_n);
/** The items of sequence @p n. */
ttref_status conform_yaml_seq(conform_yaml *y, yaml_node_t *n, const char *what, yaml_node_t ***out_items, int *out_n);
/** A scalar as a string (copied to the arena). */
ttref_status conform_yaml_str(conform_yaml *y, yaml_node_t *n, const char *what, const char **out);
/** A scalar integer in [lo, hi] (decimal or 0x hex). */
ttref_status conform_yaml_int(conform_yaml *y, yaml_node_t *n, const char *what, int64_t lo, int64_t hi, int64_t *out);
/** A scalar number: decimal, hex float, inf, -inf, nan (also .inf, .nan). */
ttref_status conform_yaml_num(conform_yaml *y, yaml_node_t *n, const char *what, double *out);
/** A scalar true/false. */
ttref_status conform_yaml_bool(conform_yaml *y, yaml_node_t *n, const char *what, bool *out);
/** Whether @p n is a scalar / sequence / mapping. */
bool conform_yaml_is_scalar(const yaml_node_t *n);
bool conform_yaml_is_seq(const yaml_node_t *n);
bool conform_yaml_is_map(const yaml_node_t *n);

#endif
