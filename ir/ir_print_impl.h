/*
 * ir_print_impl.h: internals shared by the printer's files (ir_print*.c): the
 * buffered writer W and the helpers each file lends the other. Not
 * installed; the writer is owned by ir_print_module's caller frame.
 */
#ifndef IR_PRINT_IMPL_H
#define IR_PRINT_IMPL_H

#include "ir_print.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct W {
  FILE *f;
  size_t n;
  int bad;      /* write error */
  int internal; /* inexpressible IR */
  const char *why;
  const ir_print_hooks *h; /* may be NULL */
  char buf[1 << 16];
} W;

#define NEED(cond)                                                                                                     \
  do {                                                                                                                 \
    if (!(cond)) {                                                                                                     \
      irw_wbad(w, "op does not fit its custom syntax");                                                                \
      return;                                                                                                          \
    }                                                                                                                  \
  } while (0)

static const char *const SK_NONE[] __attribute__((unused)) = {NULL};

/* ---- helpers shared by the printer files ---------------------------------------- */
void irw_wf(W *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void irw_wbad(W *w, const char *why);
void irw_wtype(W *w, const ir_type *t);
void irw_wstr(W *w, const char *s, size_t n);
void irw_wsym(W *w, const char *s);
void irw_wval(W *w, const ir_value *v);
void irw_wvals(W *w, ir_value *const *v, int n);
void irw_wvtypes(W *w, ir_value *const *v, int n);
void irw_wattr(W *w, const ir_attr *a);
void irw_wattr_dict(W *w, const ir_attr *attrs, int n, const char *const *skip);
void irw_wfntype(W *w, const ir_op *op, int first, int n);
const char *irw_attr_s(const ir_op *op, const char *name);
void irw_wflags(W *w, const ir_op *op);
void irw_wsucc(W *w, const ir_succ *s);
void irw_wregion(W *w, const ir_region *r, int ind, bool entry_args);
void irw_wcustom(W *w, const ir_op *op, int ind);

static inline void wflush(W *w)
{
  if (w->n && fwrite(w->buf, 1, w->n, w->f) != w->n) w->bad = 1;
  w->n = 0;
}
static inline void wmem(W *w, const char *s, size_t n)
{
  if (n > sizeof w->buf - w->n) {
    wflush(w);
    if (n > sizeof w->buf) {
      if (fwrite(s, 1, n, w->f) != n) w->bad = 1;
      return;
    }
  }
  memcpy(w->buf + w->n, s, n);
  w->n += n;
}
static inline void ws(W *w, const char *s) { wmem(w, s, strlen(s)); }
static inline void wc(W *w, char c)
{
  if (w->n == sizeof w->buf) wflush(w);
  w->buf[w->n++] = c;
}

#endif
