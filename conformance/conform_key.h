/*
 * conform_key.h: the YAML keys the harness reads (suite cases, backend
 * configs, golden libraries), from conform_key_list.h: the enum, the bit
 * for ir_yaml_map's allowed set, and the spelling table an ir_yaml checks
 * keys against (set y.keys = conform_key_names, y.nkeys = CONFORM_KEY_COUNT).
 * Ownership: the names are static and borrowed.
 */
#ifndef CONFORM_KEY_H
#define CONFORM_KEY_H

#include <stdint.h>

/** Every YAML key of conform_key_list.h, plus CONFORM_KEY_COUNT (<= 64). */
typedef enum conform_key {
#define X(name, str) CONFORM_KEY_##name,
#include "conform_key_list.h"
#undef X
  CONFORM_KEY_COUNT
} conform_key;

#define CONFORM_KEYBIT(k) ((uint64_t)1 << CONFORM_KEY_##k)

/** The spelling of each key, indexed by conform_key. */
extern const char *const conform_key_names[CONFORM_KEY_COUNT];

/** @return the spelling of @p k, "<invalid>" when out of range. */
const char *conform_key_name(conform_key k);

#endif
