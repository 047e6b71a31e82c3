/*
 * interp_launch.c: argument binding for `ttref run`: .npy files become
 * registered allocations, scalar literals are parsed by the signature's type,
 * and outputs are written back with each input file's dtype and shape.
 */
#include "config.h"
#include "interp_launch.h"
#include "fp.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

void interp_signature(const ir_func *fn, char *buf, size_t n)
{
  size_t pos = (size_t)snprintf(buf, n, "@%s(", fn->name);
  for (int i = 0; i < fn->nargs && pos < n; i++) {
    char t[256];
    ir_type_str(fn->args[i].type, t, sizeof t);
    pos += (size_t)snprintf(buf + pos, n - pos, "%s%d: %%%s: %s", i ? ", " : "", i,
                            fn->args[i].name ? fn->args[i].name : "?", t);
  }
  if (pos < n) snprintf(buf + pos, n - pos, ")");
}

static int find_arg(const ir_func *fn, const char *name, size_t len)
{
  if (len && name[0] == '%') {
    name++;
    len--;
  }
  for (int i = 0; i < fn->nargs; i++)
    if (fn->args[i].name && strlen(fn->args[i].name) == len && memcmp(fn->args[i].name, name, len) == 0) return i;
  /* 0-based position */
  if (len > 0 && len < 6) {
    int v = 0;
    for (size_t k = 0; k < len; k++) {
      if (name[k] < '0' || name[k] > '9') return -1;
      v = v * 10 + (name[k] - '0');
    }
    return v < fn->nargs ? v : -1;
  }
  return -1;
}

static ttref_status bad(ttref_error *err, const ir_func *fn, const char *fmt, const char *a, const char *b)
{
  ttref_loc none = {0};
  char sig[400];
  ir_error_set(err, TTREF_E_INPUT, none, fmt, a, b);
  interp_signature(fn, sig, sizeof sig);
  ir_error_note(err, "note: kernel signature: %s", sig);
  return TTREF_E_INPUT;
}

static ttref_status parse_scalar(const ir_type *t, const char *s, interp_elem *out)
{
  char *end = NULL;
  const ir_scalar sc = t->scalar;
  if (t->kind != IR_T_SCALAR) return TTREF_E_INPUT;
  if (ir_scalar_is_float(sc)) {
    fp_format f;
    switch (sc) {
    case IR_S_F16: f = FP_F16; break;
    case IR_S_BF16: f = FP_BF16; break;
    case IR_S_F32: f = FP_F32; break;
    default: f = FP_F64; break;
    }
    double v;
    if (strcmp(s, "inf") == 0 || strcmp(s, "+inf") == 0) v = INFINITY;
    else if (strcmp(s, "-inf") == 0) v = -INFINITY;
    else if (strcmp(s, "nan") == 0) v = NAN;
    else {
      errno = 0;
      v = strtod(s, &end);
      if (end == s || *end) return TTREF_E_INPUT;
    }
    out->f = fp_round_to(f, v, FP_RNE, FP_OVF_INF);
    return TTREF_OK;
  }
  const int bits = ir_scalar_bits(sc);
  if (bits == 1 && (strcmp(s, "true") == 0 || strcmp(s, "false") == 0)) {
    out->i = s[0] == 't';
    return TTREF_OK;
  }
  errno = 0;
  if (s[0] == '-') {
    long long v = strtoll(s, &end, 0);
    if (end == s || *end || errno) return TTREF_E_INPUT;
    if (bits < 64 && v < -(1LL << (bits - 1))) return TTREF_E_INPUT;
    out->i = bits == 1 ? (v & 1) : v;
  } else {
    unsigned long long v = strtoull(s, &end, 0);
    if (end == s || *end || errno) return TTREF_E_INPUT;
    if (bits < 64 && v > ((1ULL << bits) - 1)) return TTREF_E_INPUT;
    /* accept unsigned spellings of the full width (0xFFFFFFFF for i32) */
    int64_t w = (int64_t)v;
    if (bits < 64 && bits > 1) {
      int sh = 64 - bits;
      w = (int64_t)((uint64_t)w << sh) >> sh;
    }
    out->i = w;
  }
  return TTREF_OK;
}

void interp_bound_free(interp_bound *b)
{
  if (!b) return;
  interp_mem_free(b->mem);
  ir_free(b->args, sizeof(interp_elem) * (size_t)(b->nargs + 1));
  ir_free(b->meta, sizeof(npy_array) * (size_t)(b->nargs + 1));
  ir_free(b->alloc_of, sizeof(int) * (size_t)(b->nargs + 1));
  memset(b, 0, sizeof *b);
}

ttref_status interp_bind(const ir_module *m, const ir_func *fn, const char *const *specs, int nspecs,
                         interp_bound *out, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  ttref_loc none = {0};
  npy_array arr = {0};
  char *seen = NULL;
  memset(out, 0, sizeof *out);
  out->nargs = fn->nargs;
  out->mem = interp_mem_new();
  out->args = ir_calloc((size_t)fn->nargs + 1, sizeof(interp_elem));
  out->meta = ir_calloc((size_t)fn->nargs + 1, sizeof(npy_array));
  out->alloc_of = ir_calloc((size_t)fn->nargs + 1, sizeof(int));
  seen = ir_calloc((size_t)fn->nargs + 1, 1);
  if (!out->mem || !out->args || !out->meta || !out->alloc_of || !seen) FAIL(IR_ERR(err, TTREF_E_NOMEM, none, "out of memory"));
  for (int i = 0; i < fn->nargs; i++) out->alloc_of[i] = -1;
  for (int k = 0; k < nspecs; k++) {
    const char *s = specs[k], *eq = strchr(s, '=');
    if (!eq) FAIL(bad(err, fn, "argument '%s' must be NAME=VALUE%s", s, ""));
    int i = find_arg(fn, s, (size_t)(eq - s));
    char nm[128];
    snprintf(nm, sizeof nm, "%.*s", (int)(eq - s < 100 ? eq - s : 100), s);
    if (i < 0) FAIL(bad(err, fn, "unknown kernel argument '%s'%s", nm, ""));
    if (seen[i]) FAIL(bad(err, fn, "argument '%s' is bound twice%s", nm, ""));
    seen[i] = 1;
    const ir_type *t = fn->args[i].type;
    const char *val = eq + 1;
    if (t->kind == IR_T_PTR) {
      if (val[0] != '@') FAIL(bad(err, fn, "pointer argument '%s' needs a file: %s=@FILE.npy", nm, nm));
      TRY(npy_read(val + 1, &arr, err));
      const ir_type *pe = t->elem;
      ir_scalar es = !pe ? IR_S_I8 : pe->kind == IR_T_PTR ? IR_S_PTR : pe->kind == IR_T_TENSOR ? pe->scalar : pe->scalar;
      int want = ir_scalar_bytes(es);
      if (arr.elsize != want) {
        char msg[200];
        snprintf(msg, sizeof msg, "'%s' is %s (%d-byte elements) but %s", val + 1, nm, arr.elsize,
                 ir_scalar_name(es));
        ir_error_set(err, TTREF_E_INPUT, none, "element size mismatch: %s has %d-byte elements, argument %s points to %s (%d bytes)",
                     val + 1, arr.elsize, nm, ir_scalar_name(es), want);
        char sig[400];
        interp_signature(fn, sig, sizeof sig);
        ir_error_note(err, "note: kernel signature: %s", sig);
        FAIL(TTREF_E_INPUT);
      }
      int64_t addr;
      out->meta[i] = arr;
      out->meta[i].data = NULL;
      void *data = arr.data;
      size_t nb = arr.nbytes;
      arr.data = NULL;
      arr.nbytes = 0;
      if (!data) { /* an empty array still needs a distinct allocation */
        data = ir_alloc(1);
        nb = 0;
        if (!data) FAIL(IR_ERR(err, TTREF_E_NOMEM, none, "out of memory"));
      }
      TRY(interp_mem_add_take(out->mem, fn->args[i].name ? fn->args[i].name : nm, data, nb, es, &addr, err));
      out->alloc_of[i] = out->mem->n - 1;
      out->args[i].i = addr;
    } else if (t->kind == IR_T_SCALAR) {
      if (parse_scalar(t, val, &out->args[i]) != TTREF_OK) {
        char ty[64];
        ir_type_str(t, ty, sizeof ty);
        FAIL(bad(err, fn, "bad literal for %s: '%s'", ty, val));
      }
    } else {
      char ty[128];
      ir_type_str(t, ty, sizeof ty);
      FAIL(bad(err, fn, "argument of type %s cannot be bound from the command line (%s)", ty, nm));
    }
  }
  for (int i = 0; i < fn->nargs; i++)
    if (!seen[i]) FAIL(bad(err, fn, "missing kernel argument '%s'%s", fn->args[i].name ? fn->args[i].name : "?", ""));
  out->L.mod = m;
  out->L.fn = fn;
  out->L.args = out->args;
  out->L.mem = out->mem;
  ir_free(seen, (size_t)fn->nargs + 1);
  return TTREF_OK;
fail:
  npy_free(&arr);
  ir_free(seen, (size_t)fn->nargs + 1);
  interp_bound_free(out);
  return st;
}

ttref_status interp_write_outputs(const interp_bound *b, const char *dir, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  ttref_loc none = {0};
  {
    /* mkdir -p */
    char tmp[4096];
    size_t len = strlen(dir);
    if (len == 0 || len >= sizeof tmp) FAIL(IR_ERR(err, TTREF_E_USAGE, none, "bad output directory '%s'", dir));
    memcpy(tmp, dir, len + 1);
    for (size_t k = 1; k <= len; k++) {
      if (tmp[k] != '/' && tmp[k] != 0) continue;
      char ch = tmp[k];
      tmp[k] = 0;
      if (mkdir(tmp, 0777) != 0 && errno != EEXIST)
        FAIL(IR_ERR(err, TTREF_E_IO, none, "cannot create output directory '%s': %s", tmp, strerror(errno)));
      tmp[k] = ch;
    }
  }
  for (int i = 0; i < b->nargs; i++) {
    if (b->alloc_of[i] < 0) continue;
    const interp_alloc *a = &b->mem->allocs[b->alloc_of[i]];
    npy_array o = b->meta[i];
    o.data = a->nbytes ? a->data : NULL;
    o.nbytes = a->nbytes;
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.npy", dir, a->name);
    TRY(npy_write(path, &o, err));
  }
fail:
  return st;
}

ttref_status interp_write_precise(const interp_bound *b, const char *dir, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  for (int i = 0; i < b->nargs; i++) {
    if (b->alloc_of[i] < 0) continue;
    const interp_alloc *a = &b->mem->allocs[b->alloc_of[i]];
    if (!a->pv) continue;
    for (int which = 0; which < 2; which++) {
      npy_array o = b->meta[i];
      o.kind = 'f';
      o.elsize = 8;
      o.nbytes = (size_t)o.numel * 8;
      if ((int64_t)(a->pn - 1) < o.numel) o.nbytes = (size_t)(a->pn - 1) * 8; /* guarded by bind */
      o.data = which ? (void *)a->pb : (void *)a->pv;
      char path[4096];
      snprintf(path, sizeof path, "%s/%s.%s.npy", dir, a->name, which ? "bound" : "precise");
      TRY(npy_write(path, &o, err));
    }
  }
fail:
  return st;
}
