/*
 * ttref.h: public C API of ttref, the reference interpreter for Triton TTIR.
 * Ownership: objects returned by ttref_*_new are owned by the caller and
 * released with the matching ttref_*_free (free(NULL) is a no-op); every
 * other pointer argument is borrowed for the duration of the call.
 */
#ifndef TTREF_H
#define TTREF_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Status of every fallible call; TTREF_OK is 0. */
typedef enum ttref_status {
#define X(name, desc) TTREF_##name,
#include "ttref_status_list.h"
#undef X
  TTREF_STATUS_COUNT
} ttref_status;

/** @return a static description of @p s ("<invalid>" when out of range). */
const char *ttref_status_str(ttref_status s);

/** A 1-based source position; line 0 means "unknown". */
typedef struct ttref_loc {
  const char *file; /**< borrowed; NULL when unknown */
  int line;
  int col;
} ttref_loc;

/** Error detail. msg holds the complete "file:line:col: error: ..." text. */
typedef struct ttref_error {
  ttref_status code;
  ttref_loc loc;
  char msg[512];
  char note[512]; /**< optional follow-up lines (source line, caret, notes) */
} ttref_error;

/**
 * Allocation hook (lua_Alloc): new_size 0 frees @p ptr and returns NULL;
 * otherwise behaves like realloc. @p old_size is the size of @p ptr (0 if NULL).
 */
typedef void *(*ttref_alloc_fn)(void *ud, void *ptr, size_t old_size, size_t new_size);

/** Replace the process-wide allocator (NULL restores malloc/free). Not thread safe. */
void ttref_set_alloc(ttref_alloc_fn fn, void *ud);

/** @return the library version string, e.g. "0.1.0". */
const char *ttref_version(void);

#ifdef __cplusplus
}
#endif
#endif
