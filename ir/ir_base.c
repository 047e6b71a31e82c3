/*
 * ir_base.c: allocation hook, arena, status strings and the error setter.
 * Every heap byte in ttref passes through ir_alloc/ir_realloc/ir_free.
 */
#include "config.h"
#include "ir_base.h"

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *default_alloc(void *ud, void *ptr, size_t old_size, size_t new_size)
{
  (void)ud;
  (void)old_size;
  if (new_size == 0) {
    free(ptr);
    return NULL;
  }
  return realloc(ptr, new_size);
}

static ttref_alloc_fn alloc_fn = default_alloc;
static void *alloc_ud;

void ttref_set_alloc(ttref_alloc_fn fn, void *ud)
{
  alloc_fn = fn ? fn : default_alloc;
  alloc_ud = fn ? ud : NULL;
}

const char *ttref_version(void) { return PACKAGE_VERSION; }

static const char *const status_names[] = {
#define X(name, desc) desc,
#include "ttref_status_list.h"
#undef X
};

const char *ttref_status_str(ttref_status s)
{
  if ((int)s >= 0 && (int)s < TTREF_STATUS_COUNT) return status_names[s];
  return "<invalid>";
}

void *ir_alloc(size_t n) { return n ? alloc_fn(alloc_ud, NULL, 0, n) : NULL; }

void *ir_calloc(size_t count, size_t n)
{
  if (count && n > SIZE_MAX / count) return NULL;
  void *p = ir_alloc(count * n);
  if (p) memset(p, 0, count * n);
  return p;
}

void *ir_realloc(void *p, size_t old_n, size_t new_n)
{
  if (new_n == 0) {
    ir_free(p, old_n);
    return NULL;
  }
  return alloc_fn(alloc_ud, p, p ? old_n : 0, new_n);
}

void ir_free(void *p, size_t n)
{
  if (p) alloc_fn(alloc_ud, p, n, 0);
}

char *ir_strdup(const char *s)
{
  size_t n = strlen(s) + 1;
  char *d = ir_alloc(n);
  if (d) memcpy(d, s, n);
  return d;
}

ttref_status ir_strs_add(ir_strs *l, const char *s, ttref_error *err)
{
  if (l->n == l->cap) {
    int ncap = l->cap ? l->cap * 2 : 32;
    char **nv = ir_realloc(l->v, sizeof *l->v * (size_t)l->cap, sizeof *l->v * (size_t)ncap);
    if (!nv) return ir_error_set(err, TTREF_E_NOMEM, (ttref_loc){0}, "out of memory");
    l->v = nv;
    l->cap = ncap;
  }
  if (!(l->v[l->n] = ir_strdup(s))) return ir_error_set(err, TTREF_E_NOMEM, (ttref_loc){0}, "out of memory");
  l->n++;
  return TTREF_OK;
}

void ir_strs_free(ir_strs *l)
{
  for (int i = 0; i < l->n; i++) ir_free(l->v[i], strlen(l->v[i]) + 1);
  ir_free(l->v, sizeof *l->v * (size_t)l->cap);
  memset(l, 0, sizeof *l);
}

/* ---- arena ---- */
typedef struct arena_chunk {
  struct arena_chunk *next;
  size_t size, used;
  max_align_t data[];
} arena_chunk;

/* An arena keeps the allocator it was made with: its chunks go back where they came from even
 * when code from another copy of this file grows it (libttref_conform's ttref_kernel_mutate on a
 * kernel of libttref) or the hook changes in between. */
struct ir_arena {
  arena_chunk *head;
  size_t total;
  ttref_alloc_fn fn;
  void *ud;
};

ir_arena *ir_arena_new(void)
{
  ir_arena *a = ir_calloc(1, sizeof(ir_arena));
  if (a) {
    a->fn = alloc_fn;
    a->ud = alloc_ud;
  }
  return a;
}

void ir_arena_free(ir_arena *a)
{
  if (!a) return;
  for (arena_chunk *c = a->head, *n; c; c = n) {
    n = c->next;
    a->fn(a->ud, c, sizeof(arena_chunk) + c->size, 0);
  }
  a->fn(a->ud, a, sizeof *a, 0);
}

void *ir_arena_alloc(ir_arena *a, size_t n)
{
  n = (n + 15) & ~(size_t)15;
  if (n == 0) n = 16;
  arena_chunk *c = a->head;
  if (!c || c->size - c->used < n) {
    size_t sz = n > 65536 ? n : 65536;
    if (a->head && a->head->size >= 65536 && sz < a->head->size * 2 && a->head->size < (64u << 20))
      sz = a->head->size * 2;
    c = a->fn(a->ud, NULL, 0, sizeof(arena_chunk) + sz);
    if (!c) return NULL;
    c->size = sz;
    c->used = 0;
    c->next = a->head;
    a->head = c;
  }
  void *p = (char *)c->data + c->used;
  c->used += n;
  a->total += n;
  memset(p, 0, n);
  return p;
}

char *ir_arena_strndup(ir_arena *a, const char *s, size_t n)
{
  char *d = ir_arena_alloc(a, n + 1);
  if (d) {
    memcpy(d, s, n);
    d[n] = 0;
  }
  return d;
}

size_t ir_arena_used(const ir_arena *a) { return a ? a->total : 0; }

/* ---- errors ---- */
ttref_status ir_error_set(ttref_error *e, ttref_status code, ttref_loc loc, const char *fmt, ...)
{
  if (!e) return code;
  char body[400];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(body, sizeof body, fmt, ap);
  va_end(ap);
  e->code = code;
  e->loc = loc;
  e->note[0] = 0;
  if (loc.line > 0)
    snprintf(e->msg, sizeof e->msg, "%s:%d:%d: error: %s", loc.file ? loc.file : "<input>", loc.line, loc.col, body);
  else snprintf(e->msg, sizeof e->msg, "error: %s", body);
  return code;
}

void ir_error_note(ttref_error *e, const char *fmt, ...)
{
  if (!e) return;
  size_t len = strlen(e->note);
  if (len + 2 >= sizeof e->note) return;
  if (len) e->note[len++] = '\n';
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(e->note + len, sizeof e->note - len, fmt, ap);
  va_end(ap);
}

/* ---- strict numbers (command-line options) ---- */
ttref_status ir_parse_int(const char *what, const char *s, int64_t lo, int64_t hi, int64_t *out, ttref_error *e)
{
  ttref_loc none = {0};
  const char *p = s;
  bool neg = false;
  uint64_t v = 0, lim;
  if (!s || !*s) return ir_error_set(e, TTREF_E_USAGE, none, "%s: needs an integer, got an empty string", what);
  if (*p == '+' || *p == '-') neg = *p++ == '-';
  if (!*p) return ir_error_set(e, TTREF_E_USAGE, none, "%s: '%.40s' is not an integer", what, s);
  lim = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
  bool big = false;
  for (; *p; p++) {
    if (*p < '0' || *p > '9') return ir_error_set(e, TTREF_E_USAGE, none, "%s: '%.40s' is not an integer", what, s);
    unsigned d = (unsigned)(*p - '0');
    if (v > (lim - d) / 10) big = true;
    else v = v * 10 + d;
  }
  if (big)
    return ir_error_set(e, TTREF_E_USAGE, none,
                        "%s: %.40s%s does not fit in 64 bits (allowed: %" PRId64 "..%" PRId64 ")", what, s,
                        strlen(s) > 40 ? "..." : "", lo, hi);
  int64_t x = neg ? (v == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)v) : (int64_t)v;
  if (x < lo || x > hi)
    return ir_error_set(e, TTREF_E_USAGE, none, "%s: %" PRId64 " is out of range (allowed: %" PRId64 "..%" PRId64 ")",
                        what, x, lo, hi);
  *out = x;
  return TTREF_OK;
}

ttref_status ir_parse_real(const char *what, const char *s, double lo, double hi, double *out, ttref_error *e)
{
  ttref_loc none = {0};
  const char *p = s;
  int ndig = 0;
  if (!s || !*s) return ir_error_set(e, TTREF_E_USAGE, none, "%s: needs a number, got an empty string", what);
  /* the grammar first, so strtod never sees inf, nan, hex floats or spaces */
  if (*p == '+' || *p == '-') p++;
  for (; *p >= '0' && *p <= '9'; p++) ndig++;
  if (*p == '.')
    for (p++; *p >= '0' && *p <= '9'; p++) ndig++;
  if (ndig && (*p == 'e' || *p == 'E')) {
    int edig = 0;
    p++;
    if (*p == '+' || *p == '-') p++;
    for (; *p >= '0' && *p <= '9'; p++) edig++;
    if (!edig) ndig = 0;
  }
  if (!ndig || *p) return ir_error_set(e, TTREF_E_USAGE, none, "%s: '%.40s' is not a finite decimal number", what, s);
  errno = 0;
  double v = strtod(s, NULL);
  if (!isfinite(v) || (errno == ERANGE && fabs(v) > 1))
    return ir_error_set(e, TTREF_E_USAGE, none, "%s: %.40s overflows a double", what, s);
  if (!(v >= lo && v <= hi))
    return ir_error_set(e, TTREF_E_USAGE, none, "%s: %.40s is out of range (allowed: %g..%g)", what, s, lo, hi);
  *out = v;
  return TTREF_OK;
}
