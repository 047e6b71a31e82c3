/*
 * ir_base.h: foundations shared by every ttref module: the one allocation
 * hook, the arena, the error setter and the TRY/one-exit macros.
 * Ownership: ir_arena_new's result is owned by the caller (ir_arena_free);
 * memory from ir_arena_alloc lives until its arena is freed.
 */
#ifndef IR_BASE_H
#define IR_BASE_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include "ttref.h"

/* One exit per function: TRY jumps to the function's `fail:` label. */
#define TRY(expr)                                                                                                      \
  do {                                                                                                                 \
    st = (expr);                                                                                                       \
    if (st != TTREF_OK) goto fail;                                                                                     \
  } while (0)
#define FAIL(code)                                                                                                     \
  do {                                                                                                                 \
    st = (code);                                                                                                       \
    goto fail;                                                                                                         \
  } while (0)

#ifdef TTREF_DEBUG
#include <assert.h>
#define TTREF_ASSERT(c) assert(c)
#else
#define TTREF_ASSERT(c) ((void)0)
#endif

/* All heap use goes through these (they call the ttref_set_alloc hook). */
void *ir_alloc(size_t n);                /* NULL on failure */
void *ir_calloc(size_t count, size_t n); /* zeroed; NULL on failure or overflow */
void *ir_realloc(void *p, size_t old_n, size_t new_n);
void ir_free(void *p, size_t n);
char *ir_strdup(const char *s); /* free with ir_free(s, strlen(s)+1) */

/* A growable list of owned strings (ir_strs_free frees them and the list; {0} is empty). */
typedef struct ir_strs {
  char **v;
  int n, cap;
} ir_strs;
ttref_status ir_strs_add(ir_strs *l, const char *s, ttref_error *err); /* appends a copy of s */
void ir_strs_free(ir_strs *l);

/* Arena: bump allocation, freed all at once. */
typedef struct ir_arena ir_arena;
ir_arena *ir_arena_new(void);
void ir_arena_free(ir_arena *a);
void *ir_arena_alloc(ir_arena *a, size_t n); /* 16-byte aligned, zeroed; NULL on OOM */
char *ir_arena_strndup(ir_arena *a, const char *s, size_t n);
size_t ir_arena_used(const ir_arena *a);

/*
 * The only place a location is attached to an error message:
 * sets e->code, e->loc and e->msg = "file:line:col: error: <fmt>"
 * (or "error: <fmt>" when loc.line == 0). Returns @p code for chaining.
 * e may be NULL (the error is then dropped).
 */
ttref_status ir_error_set(ttref_error *e, ttref_status code, ttref_loc loc, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* Append one line (no trailing newline needed) to e->note. */
void ir_error_note(ttref_error *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * Strict number parsing for command-line options and config values: the whole
 * string must be the number. ir_parse_int takes [+|-]digits (decimal only: no
 * spaces, hex, suffix or exponent) within [lo, hi]; ir_parse_real takes a
 * finite decimal [+|-]digits[.digits][(e|E)[+|-]digits] within [lo, hi]
 * (never inf, nan or a value that overflows a double). On failure returns
 * TTREF_E_USAGE with e->msg = "error: WHAT: ..." (WHAT names the option, e.g.
 * "--threads"); *out is only written on success. e may be NULL.
 */
ttref_status ir_parse_int(const char *what, const char *s, int64_t lo, int64_t hi, int64_t *out, ttref_error *e);
ttref_status ir_parse_real(const char *what, const char *s, double lo, double hi, double *out, ttref_error *e);

#define IR_ERR(e, code, loc, ...) ir_error_set((e), (code), (loc), __VA_ARGS__)

#endif
