/*
 * interp_launch.c: argument binding for `ttref run`: .npy files become
 * registered allocations, scalar literals are parsed by the signature's type,
 * and outputs are written back with each input file's dtype and shape.
 */
#include "config.h"
#include "interp_launch.h"
#include "fp.h"
#include "ir_base_fs.h"
#include "ir_base_yaml.h"

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

/* `@new:DTYPE[D0,D1,...]`: a zero-filled buffer of the pointee's type (bf16/fp8 as raw
 * bits), declared uninitialised for --check-uninit. */
static ttref_status new_buffer(const ir_func *fn, const char *nm, const char *spec, ir_scalar es, npy_array *out,
                               ttref_error *err)
{
  const char *br = strchr(spec, '[');
  size_t tl = br ? (size_t)(br - spec) : strlen(spec);
  const char *want = ir_scalar_name(es);
  int64_t shape[NPY_MAX_RANK];
  int rank = 0;
  if (!br || strlen(want) != tl || strncmp(spec, want, tl) != 0) {
    char msg[160];
    snprintf(msg, sizeof msg, "%s (argument %s points to %s)", spec, nm, want);
    return bad(err, fn, "bad fresh buffer '@new:%s': want @new:DTYPE[N,...] with DTYPE the pointee type%s", msg, "");
  }
  const char *p = br + 1;
  for (;;) {
    char *e;
    errno = 0;
    long long v = strtoll(p, &e, 10);
    if (e == p || v < 0 || errno || rank >= NPY_MAX_RANK) return bad(err, fn, "bad shape in '@new:%s'%s", spec, "");
    shape[rank++] = v;
    p = e;
    if (*p == ',') {
      p++;
      continue;
    }
    if (p[0] != ']' || p[1]) return bad(err, fn, "bad shape in '@new:%s'%s", spec, "");
    break;
  }
  const bool flt = ir_scalar_is_float(es);
  const int bytes = ir_scalar_bytes(es);
  char kind = es == IR_S_I1 ? 'b' : !flt ? 'i' : (es == IR_S_F16 || es == IR_S_F32 || es == IR_S_F64) ? 'f' : 'u';
  if (es == IR_S_PTR || es == IR_S_I4) kind = 'u';
  return npy_alloc(out, kind, bytes, rank, shape, err);
}

void interp_bound_free(interp_bound *b)
{
  if (!b) return;
  interp_mem_free(b->mem); /* leaves mapped buffers (borrowed) alone: unmapped below */
  for (int i = 0; b->meta && i < b->nargs; i++) npy_release_maps(&b->meta[i]);
  ir_free(b->args, sizeof(interp_elem) * (size_t)(b->nargs + 1));
  ir_free(b->meta, sizeof(npy_array) * (size_t)(b->nargs + 1));
  ir_free(b->alloc_of, sizeof(int) * (size_t)(b->nargs + 1));
  memset(b, 0, sizeof *b);
}

/* Whether a float pointee has a numpy float type of its own (f16, f32, f64). */
static bool native_float(ir_scalar es) { return es == IR_S_F16 || es == IR_S_F32 || es == IR_S_F64; }

/*
 * Whether .npy data of @p kind may back a buffer of @p es (sizes already match):
 * f16/f32/f64 take float data only; bf16 and the fp8 formats take their raw bits as
 * integers (numpy has no such float types), never float data of another format;
 * integers, i1 and pointers take integer or bool data, never floats.
 */
static bool kind_fits(ir_scalar es, char kind)
{
  if (native_float(es)) return kind == 'f';
  return kind == 'i' || kind == 'u' || kind == 'b';
}

ttref_status interp_bind(const ir_module *m, const ir_func *fn, const char *const *specs, int nspecs, interp_bound *out,
                         ttref_error *err)
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
  if (!out->mem || !out->args || !out->meta || !out->alloc_of || !seen)
    FAIL(IR_ERR(err, TTREF_E_NOMEM, none, "out of memory"));
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
      const ir_type *pe = t->elem;
      ir_scalar es = !pe                       ? IR_S_I8
                     : pe->kind == IR_T_PTR    ? IR_S_PTR
                     : pe->kind == IR_T_TENSOR ? pe->scalar
                                               : pe->scalar;
      const bool fresh = strncmp(val, "@new:", 5) == 0;
      if (fresh) TRY(new_buffer(fn, nm, val + 5, es, &arr, err));
      else TRY(npy_read_map(val + 1, &arr, err)); /* large inputs mapped copy-on-write, not copied */
      int want = ir_scalar_bytes(es);
      if (arr.elsize != want) {
        char msg[200];
        snprintf(msg, sizeof msg, "'%s' is %s (%d-byte elements) but %s", val + 1, nm, arr.elsize, ir_scalar_name(es));
        ir_error_set(err, TTREF_E_INPUT, none,
                     "element size mismatch: %s has %d-byte elements, argument %s points to %s (%d bytes)", val + 1,
                     arr.elsize, nm, ir_scalar_name(es), want);
        char sig[400];
        interp_signature(fn, sig, sizeof sig);
        ir_error_note(err, "note: kernel signature: %s", sig);
        FAIL(TTREF_E_INPUT);
      }
      if (!fresh && !kind_fits(es, arr.kind)) {
        ir_error_set(err, TTREF_E_INPUT, none, "dtype mismatch: %s holds %s data but argument %s points to %s (%s)",
                     val + 1,
                     arr.kind == 'f'   ? "float"
                     : arr.kind == 'b' ? "bool"
                                       : "integer",
                     nm, ir_scalar_name(es),
                     native_float(es)         ? "pass float data of that width"
                     : ir_scalar_is_float(es) ? "pass its raw bits as unsigned integers, e.g. <u2 for bf16, |u1 for fp8"
                                              : "pass integer data of that width");
        char sig[400];
        interp_signature(fn, sig, sizeof sig);
        ir_error_note(err, "note: kernel signature: %s", sig);
        FAIL(TTREF_E_INPUT);
      }
      int64_t addr;
      out->meta[i] = arr; /* keeps a mapping (meta[i].map), released by interp_bound_free */
      out->meta[i].data = NULL;
      void *data = arr.data;
      size_t nb = arr.nbytes;
      const bool mapped = arr.map != NULL;
      memset(&arr, 0, sizeof arr);
      if (!data) { /* an empty array still needs a distinct allocation */
        data = ir_alloc(1);
        nb = 0;
        if (!data) FAIL(IR_ERR(err, TTREF_E_NOMEM, none, "out of memory"));
      }
      if (mapped)
        TRY(interp_mem_add_borrowed(out->mem, fn->args[i].name ? fn->args[i].name : nm, data, nb, es, &addr, err));
      else TRY(interp_mem_add_take(out->mem, fn->args[i].name ? fn->args[i].name : nm, data, nb, es, &addr, err));
      if (mapped && out->meta[i].view) /* until the first run stores, the file's bytes are data's */
        out->mem->allocs[out->mem->n - 1].pristine =
            (const uint8_t *)out->meta[i].view + ((const uint8_t *)data - (const uint8_t *)out->meta[i].map);
      out->alloc_of[i] = out->mem->n - 1;
      out->mem->allocs[out->mem->n - 1].uninit = fresh;
      out->mem->allocs[out->mem->n - 1].mapped = mapped;
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

int interp_find_arg(const ir_func *fn, const char *name, size_t len) { return find_arg(fn, name, len); }

ttref_status interp_parse_scalar(const ir_type *t, const char *s, interp_elem *out) { return parse_scalar(t, s, out); }

ir_scalar interp_pointee_scalar(const ir_type *t)
{
  const ir_type *pe = t->elem;
  return !pe ? IR_S_I8 : pe->kind == IR_T_PTR ? IR_S_PTR : pe->scalar;
}

void interp_bound_ran(interp_bound *b)
{
  for (int i = 0; b && b->mem && i < b->mem->n; i++) b->mem->allocs[i].pristine = NULL;
}

ttref_status interp_check_out_names(const interp_bound *b, bool precise, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  static const char *const sfx[] = {".precise", ".bound"};
  if (!precise) goto fail;
  for (int i = 0; i < b->nargs; i++) {
    if (b->alloc_of[i] < 0) continue;
    const char *x = b->mem->allocs[b->alloc_of[i]].name;
    size_t lx = strlen(x);
    for (int k = 0; k < b->nargs; k++) {
      if (k == i || b->alloc_of[k] < 0) continue;
      const char *y = b->mem->allocs[b->alloc_of[k]].name;
      for (int q = 0; q < 2; q++)
        if (strlen(y) == lx + strlen(sfx[q]) && strncmp(y, x, lx) == 0 && strcmp(y + lx, sfx[q]) == 0)
          FAIL(IR_ERR(err, TTREF_E_USAGE, (ttref_loc){0},
                      "arguments '%s' and '%s' collide with --precise: both would write %s.npy; rename one", x, y, y));
    }
  }
fail:
  return st;
}

/* DIR/NAME.npy, or DIR/NAME.SFX.npy, into path (as the writers below name their files). */
static void out_path(char *path, size_t cap, const char *dir, const char *name, const char *sfx)
{
  snprintf(path, cap, "%s/%s%s%s.npy", dir, name, sfx ? "." : "", sfx ? sfx : "");
}

/* Copy mapped buffer @p i of @p b into heap memory and unmap it (its file is about to be rewritten:
 * truncating a mapped file would end the process with SIGBUS). */
static ttref_status unmap_buffer(const interp_bound *b, int i, ttref_error *err)
{
  npy_array *m = &b->meta[i];
  interp_alloc *a = &b->mem->allocs[b->alloc_of[i]];
  uint8_t *copy = ir_alloc(a->nbytes);
  if (!copy) return IR_ERR(err, TTREF_E_NOMEM, (ttref_loc){0}, "out of memory");
  memcpy(copy, a->data, a->nbytes);
  npy_release_maps(m);
  a->data = copy;
  a->borrowed = false;
  a->mapped = false;
  a->pristine = NULL;
  return TTREF_OK;
}

/* Before any file is written: every mapped buffer of @p b whose file is one of the files this save
 * rewrites (the same inode, under any name) becomes a heap copy. */
static ttref_status unmap_rewritten(const interp_bound *b, const interp_bound *pb, const char *dir, const bool *only,
                                    ttref_error *err)
{
  ttref_status st = TTREF_OK;
  bool any = false;
  for (int i = 0; i < b->nargs && !any; i++) any = b->meta[i].map != NULL;
  for (int i = 0; i < b->nargs && any; i++) {
    if (b->alloc_of[i] < 0 || (only && !only[i])) continue;
    static const char *const sfx[] = {NULL, "precise", "bound"};
    const interp_alloc *a = &b->mem->allocs[b->alloc_of[i]];
    const bool prec = pb && pb->alloc_of[i] >= 0 && pb->mem->allocs[pb->alloc_of[i]].pv;
    for (int q = 0; q < (prec ? 3 : 1); q++) {
      char path[4096];
      struct stat sb;
      out_path(path, sizeof path, dir, a->name, sfx[q]);
      if (lstat(path, &sb) != 0 || !S_ISREG(sb.st_mode)) continue;
      for (int k = 0; k < b->nargs; k++)
        if (b->meta[k].map && b->meta[k].map_dev == (uint64_t)sb.st_dev && b->meta[k].map_ino == (uint64_t)sb.st_ino)
          TRY(unmap_buffer(b, k, err));
    }
  }
fail:
  return st;
}

/* Precise mode outputs: DIR/NAME.precise.npy and DIR/NAME.bound.npy (f64, the argument's shape) for
 * every float pointer argument (of @p only, when not NULL) of a launch run with L.precise after
 * interp_mem_make_precise. */
static ttref_status write_precise(const interp_bound *b, const char *dir, const bool *only, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  for (int i = 0; i < b->nargs; i++) {
    if (b->alloc_of[i] < 0 || (only && !only[i])) continue;
    const interp_alloc *a = &b->mem->allocs[b->alloc_of[i]];
    if (!a->pv) continue;
    for (int which = 0; which < 2; which++) {
      npy_array o = b->meta[i];
      o.kind = 'f';
      o.elsize = 8;
      o.nbytes = (size_t)o.numel * 8;
      if ((int64_t)(a->pn - 1) < o.numel) o.nbytes = (size_t)(a->pn - 1) * 8; /* guarded by bind */
      o.data = which ? (void *)a->pb : (void *)a->pv;
      o.map = NULL;
      char path[4096];
      out_path(path, sizeof path, dir, a->name, which ? "bound" : "precise");
      TRY(npy_write(path, &o, err));
    }
  }
fail:
  return st;
}

ttref_status interp_write_outputs(const interp_bound *b, const interp_bound *pb, const char *dir, const bool *only,
                                  ttref_error *err)
{
  ttref_status st = TTREF_OK;
  TRY(ir_fs_mkdirs(dir, "output directory", err));
  TRY(unmap_rewritten(b, pb, dir, only, err));
  for (int i = 0; i < b->nargs; i++) {
    if (b->alloc_of[i] < 0 || (only && !only[i])) continue;
    const interp_alloc *a = &b->mem->allocs[b->alloc_of[i]];
    npy_array o = b->meta[i];
    o.data = a->nbytes ? a->data : NULL;
    o.nbytes = a->nbytes;
    o.map = NULL;
    char path[4096];
    out_path(path, sizeof path, dir, a->name, NULL);
    TRY(npy_write(path, &o, err));
  }
  if (pb) TRY(write_precise(pb, dir, only, err));
fail:
  return st;
}

/* ---- launch files ---------------------------------------------------------------------------- */

/* One launch format: `run --launch` files, the harness's staged case.yaml and the corpus
 * case.json share these keys; the descriptive ones (INFO) are read and ignored. */
#define LAUNCH_KEYS(X)                                                                                                 \
  X(KERNEL, "kernel")                                                                                                  \
  X(FUNCTION, "function") X(GRID, "grid") X(ARGS, "args") X(OUT, "out") X(THREADS, "threads") X(FTZ, "ftz")            \
      X(CONTRACT, "contract") X(PRECISE, "precise") X(INFO_PROTOCOL, "protocol") X(INFO_CASE, "case")                  \
          X(INFO_NAME, "name") X(INFO_VARIANT, "variant_key") X(INFO_CONSTEXPRS, "constexprs")                         \
              X(INFO_OUTPUTS, "outputs") X(INFO_UNORDERED, "unordered") X(INFO_NUM_WARPS, "num_warps")

enum launch_key {
#define X(id, name) LK_##id,
  LAUNCH_KEYS(X)
#undef X
      LK_COUNT
};
static const char *const launch_key_names[] = {
#define X(id, name) name,
    LAUNCH_KEYS(X)
#undef X
};

/* A located error at @p n: "MSG" or "MSG: WHAT". */
static ttref_status yerr(ir_yaml *y, const yaml_node_t *n, const char *msg, const char *what)
{
  return ir_yaml_fail(y, n, "%s%s%s", msg, what ? ": " : "", what ? what : "");
}

static const char *scalar_of(const yaml_node_t *n)
{
  return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

/* dir of path + rel, unless rel is absolute */
static char *resolve(const char *path, const char *rel)
{
  const char *slash = strrchr(path, '/');
  size_t dl = (rel[0] == '/' || !slash) ? 0 : (size_t)(slash - path + 1);
  size_t n = dl + strlen(rel) + 1;
  char *s = ir_alloc(n);
  if (!s) return NULL;
  memcpy(s, path, dl);
  memcpy(s + dl, rel, strlen(rel) + 1);
  return s;
}

static int parse_bool(const char *s)
{
  if (!s) return -1;
  if (!strcmp(s, "true") || !strcmp(s, "yes") || !strcmp(s, "1")) return 1;
  if (!strcmp(s, "false") || !strcmp(s, "no") || !strcmp(s, "0")) return 0;
  return -1;
}

static bool parse_i64(const char *s, int64_t lo, int64_t hi, int64_t *out)
{
  return ir_parse_int("", s, lo, hi, out, NULL) == TTREF_OK; /* the caller words the located error */
}

/* A kernel value naming a file (kernel.ttir, dir/k.mlir) rather than a function (corpus case.json). */
static bool is_path(const char *v)
{
  size_t n = strlen(v);
  return strchr(v, '/') || (n > 5 && (!strcmp(v + n - 5, ".ttir") || !strcmp(v + n - 5, ".mlir")));
}

static ttref_status push_spec(interp_launch_file *lf, const char *path, const char *name, const char *val, bool soft,
                              ttref_error *err)
{
  ttref_loc none = {0};
  char *file = NULL;
  if (val[0] == '@' && strncmp(val, "@new:", 5) != 0 && !(file = resolve(path, val + 1)))
    return IR_ERR(err, TTREF_E_NOMEM, none, "out of memory");
  size_t len =
      (soft ? 1 : 0) + strlen(name) + 1 + (file ? 1 : 0) + strlen(file ? file : val) + 1; /* freed by its strlen */
  char *spec = ir_alloc(len);
  if (!spec) {
    if (file) ir_free(file, strlen(file) + 1);
    return IR_ERR(err, TTREF_E_NOMEM, none, "out of memory");
  }
  snprintf(spec, len, "%s%s=%s%s", soft ? "?" : "", name, file ? "@" : "", file ? file : val);
  if (file) ir_free(file, strlen(file) + 1);
  lf->specs[lf->nspecs++] = spec;
  return TTREF_OK;
}

/*
 * args as a list (case.yaml / case.json): each item has name, kind (ptr|scalar) and file
 * (pointers; without one, a fresh uninitialised buffer of dtype and shape) or value
 * (scalars); type, dtype, shape, output are descriptive. These bindings are "soft": an
 * argument Triton specialised away (constexprs, ints equal to 1) is not in the TTIR
 * signature and is skipped.
 */
static ttref_status list_args(interp_launch_file *lf, const char *path, ir_yaml *y, yaml_node_t *v, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  yaml_document_t *doc = &y->doc;
  int n = (int)(v->data.sequence.items.top - v->data.sequence.items.start);
  lf->specs = ir_calloc((size_t)n + 1, sizeof(char *));
  if (!lf->specs) return IR_ERR(err, TTREF_E_NOMEM, (ttref_loc){0}, "out of memory");
  lf->specs_cap = n;
  for (yaml_node_item_t *it = v->data.sequence.items.start; it < v->data.sequence.items.top; it++) {
    yaml_node_t *e = yaml_document_get_node(doc, *it);
    if (!e || e->type != YAML_MAPPING_NODE)
      FAIL(yerr(y, e, "each argument is a mapping (name:, kind:, file: or value:)", NULL));
    const char *name = NULL, *kind = NULL, *file = NULL, *value = NULL, *dtype = NULL;
    char shape[200] = "";
    for (yaml_node_pair_t *pr = e->data.mapping.pairs.start; pr < e->data.mapping.pairs.top; pr++) {
      yaml_node_t *k = yaml_document_get_node(doc, pr->key), *x = yaml_document_get_node(doc, pr->value);
      const char *ks = scalar_of(k), *xs = scalar_of(x);
      if (!ks) FAIL(yerr(y, k, "argument keys are strings", NULL));
      if (!strcmp(ks, "shape") && x && x->type == YAML_SEQUENCE_NODE) {
        size_t pos = 0;
        for (yaml_node_item_t *si = x->data.sequence.items.start; si < x->data.sequence.items.top; si++) {
          const char *d = scalar_of(yaml_document_get_node(doc, *si));
          if (!d || pos + strlen(d) + 2 >= sizeof shape) FAIL(yerr(y, x, "shape is a list of integers", NULL));
          pos += (size_t)snprintf(shape + pos, sizeof shape - pos, "%s%s", pos ? "," : "", d);
        }
        continue;
      }
      if (!xs) FAIL(yerr(y, x, "expected a scalar value", ks));
      if (!strcmp(ks, "name")) name = xs;
      else if (!strcmp(ks, "kind")) kind = xs;
      else if (!strcmp(ks, "file")) file = xs;
      else if (!strcmp(ks, "value")) value = xs;
      else if (!strcmp(ks, "dtype")) dtype = xs;
      else if (strcmp(ks, "type") && strcmp(ks, "output") && strcmp(ks, "shape"))
        FAIL(yerr(y, k, "unknown key in argument", ks));
    }
    if (!name) FAIL(yerr(y, e, "argument without name", NULL));
    const bool ptr = kind ? !strcmp(kind, "ptr") : file != NULL;
    char buf[320];
    if (ptr && file) snprintf(buf, sizeof buf, "@%s", file);
    else if (ptr && dtype && shape[0]) snprintf(buf, sizeof buf, "@new:%s[%s]", dtype, shape);
    else if (ptr) FAIL(yerr(y, e, "pointer argument needs file: (or dtype: and shape:)", name));
    else if (value) snprintf(buf, sizeof buf, "%s", value);
    else FAIL(yerr(y, e, "scalar argument needs value:", name));
    TRY(push_spec(lf, path, name, buf, true, err));
  }
fail:
  return st;
}

void interp_launch_file_free(interp_launch_file *lf)
{
  if (!lf) return;
  if (lf->kernel) ir_free(lf->kernel, strlen(lf->kernel) + 1);
  if (lf->function) ir_free(lf->function, strlen(lf->function) + 1);
  if (lf->out) ir_free(lf->out, strlen(lf->out) + 1);
  for (int i = 0; i < lf->nspecs; i++) ir_free(lf->specs[i], strlen(lf->specs[i]) + 1);
  ir_free(lf->specs, sizeof(char *) * (size_t)(lf->specs_cap + 1));
  memset(lf, 0, sizeof *lf);
}

ttref_status interp_launch_file_read(const char *path, interp_launch_file *lf, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  ttref_loc none = {0};
  ir_yaml yd, *y = &yd;
  memset(&yd, 0, sizeof yd);
  memset(lf, 0, sizeof *lf);
  lf->ftz = lf->contract = lf->precise = -1;
  TRY(ir_yaml_load(y, path, "launch file", NULL, err)); /* one document, located syntax errors */
  yaml_document_t *doc = &y->doc;
  yaml_node_t *root = ir_yaml_root(y);
  unsigned seen = 0;
  if (!root || root->type != YAML_MAPPING_NODE)
    FAIL(yerr(y, root, "a launch file is a mapping (kernel:, grid:, args:, ...)", NULL));
  for (yaml_node_pair_t *pr = root->data.mapping.pairs.start; pr < root->data.mapping.pairs.top; pr++) {
    yaml_node_t *k = yaml_document_get_node(doc, pr->key), *v = yaml_document_get_node(doc, pr->value);
    const char *ks = scalar_of(k);
    int key = LK_COUNT;
    for (int i = 0; ks && i < LK_COUNT; i++)
      if (!strcmp(ks, launch_key_names[i])) key = i;
    if (key < LK_COUNT && (seen & (1u << key))) FAIL(yerr(y, k, "duplicate key", ks));
    if (key < LK_COUNT) seen |= 1u << key;
    const char *vs = scalar_of(v);
    switch (key) {
    case LK_KERNEL:
      if (!vs) FAIL(yerr(y, v, "kernel must be a path", NULL));
      if (!is_path(vs)) { /* corpus case.json: the function's name; the IR is kernel.ttir beside it */
        if (!lf->function && !(lf->function = ir_strdup(vs[0] == '@' ? vs + 1 : vs)))
          FAIL(IR_ERR(err, TTREF_E_NOMEM, none, "out of memory"));
        break;
      }
      if (!(lf->kernel = resolve(path, vs))) FAIL(IR_ERR(err, TTREF_E_NOMEM, none, "out of memory"));
      break;
    case LK_FUNCTION:
      if (!vs) FAIL(yerr(y, v, "function must be a name", NULL));
      if (lf->function) ir_free(lf->function, strlen(lf->function) + 1);
      if (!(lf->function = ir_strdup(vs[0] == '@' ? vs + 1 : vs)))
        FAIL(IR_ERR(err, TTREF_E_NOMEM, none, "out of memory"));
      break;
    case LK_OUT:
      if (!vs) FAIL(yerr(y, v, "out must be a directory", NULL));
      if (!(lf->out = resolve(path, vs))) FAIL(IR_ERR(err, TTREF_E_NOMEM, none, "out of memory"));
      break;
    case LK_THREADS: {
      int64_t t;
      if (!parse_i64(vs, 1, INTERP_MAX_THREADS, &t)) FAIL(yerr(y, v, "threads must be an integer in [1, 256]", NULL));
      lf->threads = (int)t;
      break;
    }
    case LK_FTZ:
    case LK_CONTRACT:
    case LK_PRECISE: {
      int b = parse_bool(vs);
      if (b < 0) FAIL(yerr(y, v, "expected true or false", NULL));
      if (key == LK_FTZ) lf->ftz = b;
      else if (key == LK_CONTRACT) lf->contract = b;
      else lf->precise = b;
      break;
    }
    case LK_GRID: {
      lf->grid[0] = lf->grid[1] = lf->grid[2] = 1;
      lf->has_grid = true;
      if (vs) {
        if (!parse_i64(vs, 0, INT32_MAX, &lf->grid[0]))
          FAIL(yerr(y, v, "grid must be an integer or a list of up to 3", NULL));
        break;
      }
      if (v->type != YAML_SEQUENCE_NODE) FAIL(yerr(y, v, "grid must be an integer or a list of up to 3", NULL));
      int d = 0;
      for (yaml_node_item_t *it = v->data.sequence.items.start; it < v->data.sequence.items.top; it++, d++) {
        yaml_node_t *e = yaml_document_get_node(doc, *it);
        if (d >= 3 || !parse_i64(scalar_of(e), 0, INT32_MAX, &lf->grid[d]))
          FAIL(yerr(y, e, "grid entries are up to 3 integers in [0, 2^31)", NULL));
      }
      break;
    }
    case LK_ARGS: {
      if (lf->specs) FAIL(yerr(y, k, "duplicate key", "args"));
      if (v->type == YAML_SEQUENCE_NODE) {
        TRY(list_args(lf, path, y, v, err));
        break;
      }
      if (v->type != YAML_MAPPING_NODE)
        FAIL(yerr(y, v, "args must be a mapping NAME: VALUE or a list of {name:, ...}", NULL));
      int n = (int)(v->data.mapping.pairs.top - v->data.mapping.pairs.start);
      if (n > 4096) FAIL(yerr(y, v, "more than 4096 arguments", NULL));
      lf->specs = ir_calloc((size_t)n + 1, sizeof(char *));
      if (!lf->specs) FAIL(IR_ERR(err, TTREF_E_NOMEM, none, "out of memory"));
      lf->specs_cap = n;
      for (yaml_node_pair_t *ap = v->data.mapping.pairs.start; ap < v->data.mapping.pairs.top; ap++) {
        yaml_node_t *an = yaml_document_get_node(doc, ap->key), *av = yaml_document_get_node(doc, ap->value);
        const char *name = scalar_of(an), *val = scalar_of(av);
        if (!name || !val) FAIL(yerr(y, av, "each argument is NAME: VALUE (pointers: \"@FILE.npy\")", NULL));
        for (yaml_node_pair_t *bp = v->data.mapping.pairs.start; bp < ap; bp++) { /* n <= 4096: pairwise is cheap */
          const char *other = scalar_of(yaml_document_get_node(doc, bp->key));
          if (other && !strcmp(other, name)) FAIL(yerr(y, an, "duplicate argument", name));
        }
        char *file = NULL;
        if (val[0] == '@' && strncmp(val, "@new:", 5) != 0 && !(file = resolve(path, val + 1)))
          FAIL(IR_ERR(err, TTREF_E_NOMEM, none, "out of memory"));
        size_t len = strlen(name) + 1 + (file ? 1 : 0) + strlen(file ? file : val) + 1; /* freed by its strlen */
        char *spec = ir_alloc(len);
        if (!spec) {
          if (file) ir_free(file, strlen(file) + 1);
          FAIL(IR_ERR(err, TTREF_E_NOMEM, none, "out of memory"));
        }
        snprintf(spec, len, "%s=%s%s", name, file ? "@" : "", file ? file : val);
        if (file) ir_free(file, strlen(file) + 1);
        lf->specs[lf->nspecs++] = spec;
      }
      break;
    }
    case LK_INFO_PROTOCOL:
    case LK_INFO_CASE:
    case LK_INFO_NAME:
    case LK_INFO_VARIANT:
    case LK_INFO_CONSTEXPRS:
    case LK_INFO_OUTPUTS:
    case LK_INFO_UNORDERED:
    case LK_INFO_NUM_WARPS: break;
    default: FAIL(yerr(y, k, "unknown key in launch file", ks ? ks : "(not a string)"));
    }
  }
  if (!lf->kernel) { /* a case directory: kernel.ttir beside the descriptor */
    char *kp = resolve(path, "kernel.ttir");
    if (!kp) FAIL(IR_ERR(err, TTREF_E_NOMEM, none, "out of memory"));
    if (!ir_fs_exists(kp)) {
      ir_free(kp, strlen(kp) + 1);
      FAIL(yerr(y, root, "launch file has no 'kernel' (and no kernel.ttir beside it)", NULL));
    }
    lf->kernel = kp;
  }
fail:
  ir_yaml_free(y);
  if (st != TTREF_OK) {
    ttref_error keep = err ? *err : (ttref_error){0};
    interp_launch_file_free(lf);
    if (err) *err = keep;
  }
  return st;
}
