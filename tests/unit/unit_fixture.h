/*
 * unit_fixture.h: fixtures the unit test binaries share: a counting allocator
 * (checks the sizes given back, counts live bytes, refuses one request to
 * inject out-of-memory), a temporary directory per binary, whole-file read and
 * write helpers that fail the cmocka test on error, the test data folder, and
 * double <-> bits conversions.
 * Ownership: unit_slurp's buffer is the caller's (free); every returned path
 * is static storage, valid until the fourth next call of the same function.
 */
#ifndef UNIT_FIXTURE_H
#define UNIT_FIXTURE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* ---- counting allocator (lua_Alloc style, installed with ttref_set_alloc) ---- */

/* A snapshot of the counters. */
typedef struct unit_alloc_stats {
  size_t live;        /* bytes allocated and not freed */
  size_t max_block;   /* the largest block handed out */
  long calls;         /* successful allocations (new or resized blocks) */
  long requests;      /* allocation requests (new or resized blocks) */
  long fail_at;       /* the request refused (1-based); 0: none */
  bool size_mismatch; /* a free or realloc named the wrong old size */
} unit_alloc_stats;

/* The live counters: atomic, since launches allocate on OpenMP and test threads. Tests may read
 * them, and reset requests, max_block and fail_at while the allocator is installed. */
typedef struct unit_alloc_counters {
  _Atomic size_t live, max_block;
  _Atomic long calls, requests, fail_at;
  atomic_bool size_mismatch;
} unit_alloc_counters;

extern unit_alloc_counters unit_alloc;

/* Zeroes the counters and installs the counting allocator, refusing request fail_at (0: none). */
void unit_alloc_begin(long fail_at);
/* The counters now. */
unit_alloc_stats unit_alloc_now(void);
/* Restores the default allocator; returns the counters since unit_alloc_begin. */
unit_alloc_stats unit_alloc_end(void);

/* ---- files ---- */

/* Makes the directory $TMPDIR/NAME.XXXXXX (/tmp without TMPDIR) and returns its path, NULL on failure. */
const char *unit_tmpdir_new(const char *name);
/* The directory unit_tmpdir_new made last ("" before). */
const char *unit_tmpdir(void);
/* Removes that directory and everything below it (links are removed, never followed); 0 when all went. */
int unit_tmpdir_remove(void);
/* "TMPDIR/name" */
const char *unit_tmp_path(const char *name);
/* $TTREF_TEST_DATA, or "tests/data" when it is unset or empty. */
const char *unit_data_dir(void);
/* "DATA_DIR/rel" */
const char *unit_data_path(const char *rel);

/* Writes len bytes to path (created or truncated); a failure fails the test. */
void unit_spit(const char *path, const void *data, size_t len);
/* unit_spit of a NUL-terminated text to "TMPDIR/name"; returns that path. */
const char *unit_put(const char *name, const char *text);
/* The whole file, with plain malloc (not counted), NUL-terminated; its length in *len. Fails the test
 * when the file cannot be read. */
unsigned char *unit_slurp(const char *path, size_t *len);

/* ---- bit patterns ---- */

/* The bits of a double, and the double of some bits. */
static inline uint64_t unit_dbits(double v)
{
  uint64_t u;
  memcpy(&u, &v, sizeof u);
  return u;
}

static inline double unit_dfrom(uint64_t u)
{
  double v;
  memcpy(&v, &u, sizeof v);
  return v;
}

#endif
