/*
 * conform_key.c: the spelling table of conform_key_list.h.
 */
#include "config.h"
#include "conform_key.h"

_Static_assert(CONFORM_KEY_COUNT <= 64, "ir_yaml_map's allowed set is a 64-bit mask");

const char *const conform_key_names[CONFORM_KEY_COUNT] = {
#define X(name, str) str,
#include "conform_key_list.h"
#undef X
};

const char *conform_key_name(conform_key k)
{
  return (int)k >= 0 && k < CONFORM_KEY_COUNT ? conform_key_names[k] : "<invalid>";
}
