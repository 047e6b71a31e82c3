/*
 * conform_library.c: goldens by dispatch key. The manifest is read with the
 * suite's YAML helpers, each kernel is a suite-format case, inputs come from
 * the case's generator recipes, and the reference runs in process through the
 * public API (ttref.h). index.json is written one variant per line.
 */
#define _GNU_SOURCE /* getpid under -std=c11 */
#include "config.h"
#include "conform_library.h"
#include "conform_golden.h"
#include "conform_journal.h"
#include "conform_judge.h"
#include "conform_sha256.h"
#include "conform_suite.h"
#include "ir_base_fs.h"
#include "conform_key.h"
#include "ir_base_yaml.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Keys of a library manifest: X(ID, "spelling"). */
#define LIB_KEYS(X)                                                                                                    \
  X(LIBRARY, "library")                                                                                                \
  X(DESCRIPTION, "description") X(DISPATCH, "dispatch") X(KERNELS, "kernels") X(VARIANTS, "variants") X(NAME, "name")  \
      X(TYPE, "type") X(KERNEL, "kernel") X(VARIANT_KEY, "variant_key")

enum lib_key {
#define X(id, str) LK_##id,
  LIB_KEYS(X)
#undef X
      LK_COUNT
};
static const char *const lib_key_names[] = {
#define X(id, str) str,
    LIB_KEYS(X)
#undef X
};

/* Types of dispatch fields: X(ID, "spelling"). */
#define FIELD_TYPES(X) X(INT, "int") X(STR, "str") X(DTYPE, "dtype") X(BOOL, "bool")
enum field_type {
#define X(id, str) FT_##id,
  FIELD_TYPES(X)
#undef X
      FT_COUNT
};
static const char *const field_type_names[] = {
#define X(id, str) str,
    FIELD_TYPES(X)
#undef X
};

typedef struct field {
  const char *name;
  int type;
} field;

typedef struct kentry {
  const char *name;
  conform_case c;
} kentry;

typedef struct variant {
  int kernel; /* index into library.kernels */
  const conform_spec *sp;
  const char *key;      /* canonical dispatch key "f1=v1,f2=v2" (schema order) */
  const char *dispatch; /* the same as a JSON object */
  ttref_loc loc;
} variant;

typedef struct library {
  ir_arena *arena;
  const char *name;
  field *fields;
  int nfields;
  kentry *kernels;
  int nkernels;
  variant *vars;
  int nvars;
} library;

static bool strs_has(const ir_strs *l, const char *s)
{
  for (int i = 0; i < l->n; i++)
    if (strcmp(l->v[i], s) == 0) return true;
  return false;
}

/* ---- reading the manifest ---- */

static int lib_key(const char *s)
{
  for (int i = 0; i < LK_COUNT; i++)
    if (strcmp(s, lib_key_names[i]) == 0) return i;
  return -1;
}

/* The entries of mapping @p n whose keys must be among @p allowed (bits of lib_key). */
static ttref_status lib_map(ir_yaml *y, yaml_node_t *n, const char *what, unsigned allowed, ir_yaml_pair **pr, int *np)
{
  ttref_status st = TTREF_OK;
  TRY(ir_yaml_map(y, n, what, 0, pr, np));
  for (int i = 0; i < *np; i++) {
    int k = lib_key((*pr)[i].name);
    if (k < 0 || !(allowed & (1u << k)))
      FAIL(ir_yaml_fail(y, (*pr)[i].knode, "unknown key '%s' in %s", (*pr)[i].name, what));
    (*pr)[i].key = k;
  }
fail:
  return st;
}

static bool ident_ok(const char *s)
{
  if (!*s) return false;
  for (; *s; s++)
    if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') || *s == '_' || *s == '-' ||
          *s == '.'))
      return false;
  return true;
}

#define B(k) (1u << LK_##k)

static ttref_status read_dispatch(ir_yaml *y, yaml_node_t *n, library *L)
{
  ttref_status st = TTREF_OK;
  yaml_node_t **items;
  TRY(ir_yaml_seq(y, n, "dispatch", &items, &L->nfields));
  if (L->nfields == 0) FAIL(ir_yaml_fail(y, n, "dispatch needs at least one field"));
  L->fields = ir_arena_alloc(L->arena, sizeof *L->fields * (size_t)L->nfields);
  if (!L->fields) FAIL(IR_ERR(y->err, TTREF_E_NOMEM, (ttref_loc){0}, "out of memory"));
  for (int i = 0; i < L->nfields; i++) {
    ir_yaml_pair *pr;
    int np;
    const char *type = NULL;
    field *f = &L->fields[i];
    f->name = NULL;
    TRY(lib_map(y, items[i], "a dispatch field", B(NAME) | B(TYPE), &pr, &np));
    for (int k = 0; k < np; k++) {
      if (pr[k].key == LK_NAME) TRY(ir_yaml_str(y, pr[k].value, "name", &f->name));
      else TRY(ir_yaml_str(y, pr[k].value, "type", &type));
    }
    if (!f->name || !type)
      FAIL(ir_yaml_fail(y, items[i], "a dispatch field is {name: NAME, type: int|str|dtype|bool}"));
    if (!ident_ok(f->name))
      FAIL(ir_yaml_fail(y, items[i], "dispatch field name '%s' may only use [A-Za-z0-9_.-]", f->name));
    for (int k = 0; k < i; k++)
      if (strcmp(L->fields[k].name, f->name) == 0)
        FAIL(ir_yaml_fail(y, items[i], "duplicate dispatch field '%s'", f->name));
    f->type = -1;
    for (int t = 0; t < FT_COUNT; t++)
      if (strcmp(type, field_type_names[t]) == 0) f->type = t;
    if (f->type < 0) FAIL(ir_yaml_fail(y, items[i], "unknown field type '%s' (int, str, dtype or bool)", type));
  }
fail:
  return st;
}

static ttref_status read_kernels(ir_yaml *y, yaml_node_t *n, const char *mdir, library *L)
{
  ttref_status st = TTREF_OK;
  ir_yaml_pair *pr;
  TRY(ir_yaml_map(y, n, "kernels", 0, &pr, &L->nkernels));
  if (L->nkernels == 0) FAIL(ir_yaml_fail(y, n, "kernels needs at least one entry NAME: CASE.yaml"));
  L->kernels = ir_arena_alloc(L->arena, sizeof *L->kernels * (size_t)L->nkernels);
  if (!L->kernels) FAIL(IR_ERR(y->err, TTREF_E_NOMEM, (ttref_loc){0}, "out of memory"));
  for (int i = 0; i < L->nkernels; i++) {
    const char *rel;
    char path[4400];
    if (!ident_ok(pr[i].name))
      FAIL(ir_yaml_fail(y, pr[i].knode, "kernel name '%s' may only use [A-Za-z0-9_.-]", pr[i].name));
    TRY(ir_yaml_str(y, pr[i].value, "a case file", &rel));
    snprintf(path, sizeof path, "%s/%s", rel[0] == '/' ? "" : mdir, rel[0] == '/' ? rel + 1 : rel);
    L->kernels[i].name = pr[i].name;
    if (!ir_fs_exists(path)) FAIL(ir_yaml_fail(y, pr[i].value, "case file '%s' not found", rel));
    TRY(conform_case_load(path, L->arena, &L->kernels[i].c, y->err));
  }
fail:
  return st;
}

/* One dispatch value of field @p f from @p v into the key and JSON buffers. */
static ttref_status dispatch_value(ir_yaml *y, yaml_node_t *v, const field *f, char *key, size_t kn, char *js,
                                   size_t jn)
{
  ttref_status st = TTREF_OK;
  const char *s = NULL;
  char val[200];
  switch (f->type) {
  case FT_INT: {
    int64_t i;
    TRY(ir_yaml_int(y, v, f->name, INT64_MIN, INT64_MAX, &i));
    snprintf(val, sizeof val, "%lld", (long long)i);
    break;
  }
  case FT_BOOL: {
    bool b;
    TRY(ir_yaml_bool(y, v, f->name, &b));
    snprintf(val, sizeof val, "%s", b ? "true" : "false");
    break;
  }
  default:
    TRY(ir_yaml_str(y, v, f->name, &s));
    if (f->type == FT_DTYPE) {
      conform_dtype dt;
      if (!conform_dtype_lookup(s, &dt)) FAIL(ir_yaml_fail(y, v, "'%s' is not a dtype (field %s)", s, f->name));
    }
    if (strlen(s) > 100 || strpbrk(s, ",=\"\\\n"))
      FAIL(ir_yaml_fail(y, v, "value of %s may not contain , = \" or \\", f->name));
    snprintf(val, sizeof val, "%s", s);
  }
  size_t kl = strlen(key), jl = strlen(js);
  snprintf(key + kl, kn - kl, "%s%s=%s", kl ? "," : "", f->name, val);
  if (f->type == FT_INT || f->type == FT_BOOL)
    snprintf(js + jl, jn - jl, "%s\"%s\": %s", jl > 1 ? ", " : "", f->name, val);
  else snprintf(js + jl, jn - jl, "%s\"%s\": \"%s\"", jl > 1 ? ", " : "", f->name, val);
fail:
  return st;
}

static ttref_status read_variants(ir_yaml *y, yaml_node_t *n, library *L)
{
  ttref_status st = TTREF_OK;
  yaml_node_t **items;
  TRY(ir_yaml_seq(y, n, "variants", &items, &L->nvars));
  if (L->nvars == 0) FAIL(ir_yaml_fail(y, n, "variants needs at least one entry"));
  L->vars = ir_arena_alloc(L->arena, sizeof *L->vars * (size_t)L->nvars);
  if (!L->vars) FAIL(IR_ERR(y->err, TTREF_E_NOMEM, (ttref_loc){0}, "out of memory"));
  for (int i = 0; i < L->nvars; i++) {
    ir_yaml_pair *pr, *dp = NULL;
    int np, ndp = 0;
    const char *kname = NULL, *vk = NULL;
    yaml_node_t *knode = NULL, *vknode = NULL, *dnode = NULL;
    variant *v = &L->vars[i];
    v->loc = ir_yaml_loc(y, items[i]);
    TRY(lib_map(y, items[i], "a variant", B(KERNEL) | B(VARIANT_KEY) | B(DISPATCH), &pr, &np));
    for (int k = 0; k < np; k++) {
      if (pr[k].key == LK_KERNEL) TRY(ir_yaml_str(y, knode = pr[k].value, "kernel", &kname));
      else if (pr[k].key == LK_VARIANT_KEY) TRY(ir_yaml_str(y, vknode = pr[k].value, "variant_key", &vk));
      else dnode = pr[k].value;
    }
    if (!dnode) FAIL(ir_yaml_fail(y, items[i], "a variant needs 'dispatch' (one value per field)"));
    if (!kname && L->nkernels == 1) kname = L->kernels[0].name;
    if (!kname) FAIL(ir_yaml_fail(y, items[i], "a variant needs 'kernel' (the library has several)"));
    v->kernel = -1;
    for (int k = 0; k < L->nkernels; k++)
      if (strcmp(L->kernels[k].name, kname) == 0) v->kernel = k;
    if (v->kernel < 0) FAIL(ir_yaml_fail(y, knode ? knode : items[i], "unknown kernel '%s'", kname));
    const conform_case *c = &L->kernels[v->kernel].c;
    if (!vk && c->nspecs == 1) vk = c->specs[0].variant_key;
    if (!vk)
      FAIL(ir_yaml_fail(y, items[i], "a variant needs 'variant_key' (case '%s' has several specializations)", c->name));
    v->sp = NULL;
    for (int k = 0; k < c->nspecs; k++)
      if (strcmp(c->specs[k].variant_key, vk) == 0) v->sp = &c->specs[k];
    if (!v->sp) FAIL(ir_yaml_fail(y, vknode ? vknode : items[i], "case '%s' has no specialization '%s'", c->name, vk));
    for (int k = 0; k < i; k++)
      if (L->vars[k].kernel == v->kernel && L->vars[k].sp == v->sp)
        FAIL(ir_yaml_fail(y, vknode ? vknode : items[i], "variant %s/%s is listed twice", kname, vk));
    TRY(ir_yaml_map(y, dnode, "dispatch values", 0, &dp, &ndp));
    char key[1024] = "", js[1400] = "{";
    for (int f = 0; f < L->nfields; f++) {
      yaml_node_t *val = NULL;
      for (int k = 0; k < ndp; k++)
        if (strcmp(dp[k].name, L->fields[f].name) == 0) val = dp[k].value;
      if (!val) FAIL(ir_yaml_fail(y, dnode, "dispatch has no value for field '%s'", L->fields[f].name));
      TRY(dispatch_value(y, val, &L->fields[f], key, sizeof key, js, sizeof js));
    }
    for (int k = 0; k < ndp; k++) {
      bool known = false;
      for (int f = 0; f < L->nfields; f++) known |= strcmp(dp[k].name, L->fields[f].name) == 0;
      if (!known) FAIL(ir_yaml_fail(y, dp[k].knode, "'%s' is not a dispatch field", dp[k].name));
    }
    strncat(js, "}", sizeof js - strlen(js) - 1);
    for (int k = 0; k < i; k++)
      if (strcmp(L->vars[k].key, key) == 0)
        FAIL(ir_yaml_fail(y, dnode, "dispatch key %s is already taken by variant %s/%s", key,
                          L->kernels[L->vars[k].kernel].name, L->vars[k].sp->variant_key));
    v->key = ir_arena_strndup(L->arena, key, strlen(key));
    v->dispatch = ir_arena_strndup(L->arena, js, strlen(js));
    if (!v->key || !v->dispatch) FAIL(IR_ERR(y->err, TTREF_E_NOMEM, (ttref_loc){0}, "out of memory"));
  }
fail:
  return st;
}

static ttref_status library_load(const char *path, library *L, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  ir_yaml y;
  bool loaded = false;
  memset(L, 0, sizeof *L);
  L->arena = ir_arena_new();
  if (!L->arena) FAIL(IR_ERR(err, TTREF_E_NOMEM, (ttref_loc){0}, "out of memory"));
  TRY(ir_yaml_load(&y, path, NULL, L->arena, err));
  y.keys = conform_key_names;
  y.nkeys = CONFORM_KEY_COUNT;
  loaded = true;
  yaml_node_t *root = ir_yaml_root(&y);
  if (!root) FAIL(ir_error_set(err, TTREF_E_INPUT, (ttref_loc){path, 1, 1}, "empty library manifest"));
  ir_yaml_pair *pr;
  int np;
  yaml_node_t *dispatch = NULL, *kernels = NULL, *variants = NULL;
  TRY(lib_map(&y, root, "a library manifest", B(LIBRARY) | B(DESCRIPTION) | B(DISPATCH) | B(KERNELS) | B(VARIANTS), &pr,
              &np));
  for (int i = 0; i < np; i++) {
    switch (pr[i].key) {
    case LK_LIBRARY: TRY(ir_yaml_str(&y, pr[i].value, "library", &L->name)); break;
    case LK_DISPATCH: dispatch = pr[i].value; break;
    case LK_KERNELS: kernels = pr[i].value; break;
    case LK_VARIANTS: variants = pr[i].value; break;
    default: break;
    }
  }
  if (!L->name || !dispatch || !kernels || !variants)
    FAIL(ir_yaml_fail(&y, root, "a library manifest needs 'library', 'dispatch', 'kernels' and 'variants'"));
  const char *slash = strrchr(path, '/');
  char mdir[4096];
  snprintf(mdir, sizeof mdir, "%.*s", slash ? (int)(slash - path) : 1, slash ? path : ".");
  TRY(read_dispatch(&y, dispatch, L));
  TRY(read_kernels(&y, kernels, mdir, L));
  TRY(read_variants(&y, variants, L));
fail:
  if (loaded) ir_yaml_free(&y);
  return st;
}

static void library_free(library *L)
{
  ir_arena_free(L->arena);
  memset(L, 0, sizeof *L);
}

/* ---- generating ---- */

static void json_shape(FILE *f, const npy_array *a)
{
  fputc('[', f);
  for (int d = 0; d < a->rank; d++) fprintf(f, "%s%lld", d ? ", " : "", (long long)a->shape[d]);
  fputc(']', f);
}

/* Write @p a to DIR/REL, record REL in @p files and print `"sha256": "..."` to @p f. */
static ttref_status put(const char *dir, const char *rel, const npy_array *a, ir_strs *files, FILE *f, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  char path[8400], hex[65];
  snprintf(path, sizeof path, "%s/%s", dir, rel);
  TRY(npy_write(path, a, err));
  TRY(conform_sha256_file(path, hex, err));
  TRY(ir_strs_add(files, rel, err));
  fprintf(f, "\"file\": ");
  conform_json_str(f, rel);
  fprintf(f, ", \"sha256\": \"%s\"", hex);
fail:
  return st;
}

/* Run one variant and write its files under OUT/kernel/variant_key and its index line to @p f. */
static ttref_status gen_variant(const library *L, const variant *v, const char *out, ir_strs *files, FILE *f,
                                ttref_error *err)
{
  ttref_status st = TTREF_OK;
  const kentry *ke = &L->kernels[v->kernel];
  const conform_case *c = &ke->c;
  const conform_spec *sp = v->sp;
  ttref_kernel *k = NULL;
  ttref_launch *l = NULL;
  npy_array *arr = NULL;
  char vdir[4400], sub[4600], rel[4800];
  const bool precise = conform_judge_case_wants_precise(c);
  snprintf(vdir, sizeof vdir, "%s/%s/%s", out, ke->name, sp->variant_key);
  ir_fs_rmtree(vdir);
  snprintf(sub, sizeof sub, "%s/inputs", vdir);
  TRY(ir_fs_mkdirs(sub, NULL, err));
  snprintf(sub, sizeof sub, "%s/outputs", vdir);
  TRY(ir_fs_mkdirs(sub, NULL, err));
  arr = ir_calloc((size_t)sp->nargs + 1, sizeof *arr);
  if (!arr) FAIL(IR_ERR(err, TTREF_E_NOMEM, (ttref_loc){0}, "out of memory"));
  if (!(k = ttref_kernel_load(sp->kernel, sp->function, err))) FAIL(err ? err->code : TTREF_E_INPUT);
  if (!(l = ttref_launch_new(k, err))) FAIL(err ? err->code : TTREF_E_NOMEM);
  fprintf(f, "\"%s\": {\"dispatch\": %s, \"kernel\": ", v->key, v->dispatch);
  conform_json_str(f, ke->name);
  fprintf(f, ", \"variant_key\": ");
  conform_json_str(f, sp->variant_key);
  fprintf(f, ", \"dir\": ");
  snprintf(rel, sizeof rel, "%s/%s", ke->name, sp->variant_key);
  conform_json_str(f, rel);
  fprintf(f, ", \"function\": ");
  conform_json_str(f, ttref_kernel_name(k));
  fprintf(f, ", \"grid\": [%lld, %lld, %lld], \"constexprs\": ", (long long)sp->grid[0], (long long)sp->grid[1],
          (long long)sp->grid[2]);
  conform_json_str(f, sp->constexprs);
  fprintf(f, ", \"args\": {");
  for (int i = 0; i < sp->nargs; i++) {
    const conform_arg *a = &sp->args[i];
    fprintf(f, "%s", i ? ", " : "");
    conform_json_str(f, a->name);
    if (!a->is_ptr) {
      TRY(ttref_launch_scalar(l, a->name, a->value, err));
      fprintf(f, ": {\"value\": ");
      conform_json_str(f, a->value);
      fputc('}', f);
      continue;
    }
    TRY(conform_gen_fill(&a->input, a->dtype, a->rank, a->shape, &arr[i], err));
    fprintf(f, ": {\"dtype\": \"%s\", \"shape\": ", conform_dtype_name(a->dtype));
    json_shape(f, &arr[i]);
    fprintf(f, ", ");
    snprintf(rel, sizeof rel, "%s/%s/inputs/%s.npy", ke->name, sp->variant_key, a->name);
    TRY(put(out, rel, &arr[i], files, f, err));
    fputc('}', f);
    TRY(ttref_launch_buffer(l, a->name, arr[i].data, arr[i].nbytes, err));
  }
  fprintf(f, "}");
  if (precise) TRY(ttref_launch_set(l, TTREF_OPT_PRECISE, 1, err));
  for (int g = 0; g < 3; g++)
    if (sp->grid[g] < 0 || sp->grid[g] > INT32_MAX)
      FAIL(ir_error_set(err, TTREF_E_INPUT, v->loc, "grid of %s/%s is out of range", ke->name, sp->variant_key));
  st = ttref_launch_run(l, (uint32_t)sp->grid[0], (uint32_t)sp->grid[1], (uint32_t)sp->grid[2], err);
  if (st != TTREF_OK) {
    ir_error_note(err, "note: while generating variant %s/%s (dispatch %s)", ke->name, sp->variant_key, v->key);
    goto fail;
  }
  fprintf(f, ", \"outputs\": {");
  for (int o = 0; o < c->noutputs; o++) {
    const conform_output *out_o = &c->outputs[o];
    int i = -1;
    for (int a = 0; a < sp->nargs; a++)
      if (strcmp(sp->args[a].name, out_o->name) == 0) i = a;
    if (i < 0 || !sp->args[i].is_ptr) continue; /* the case loader already refuses these */
    fprintf(f, "%s", o ? ", " : "");
    conform_json_str(f, out_o->name);
    fprintf(f, ": {\"dtype\": \"%s\", \"mode\": ", conform_dtype_name(sp->args[i].dtype));
    conform_json_str(f, cmp_mode_name(out_o->mode));
    char opts[600] = "";
    for (int q = 0; q < out_o->noptions; q++) {
      size_t ol = strlen(opts);
      snprintf(opts + ol, sizeof opts - ol, "%s%s=%s", q ? "," : "", out_o->options[q].name, out_o->options[q].text);
    }
    fprintf(f, ", \"options\": ");
    conform_json_str(f, opts);
    fprintf(f, ", ");
    snprintf(rel, sizeof rel, "%s/%s/outputs/%s.npy", ke->name, sp->variant_key, out_o->name);
    TRY(put(out, rel, &arr[i], files, f, err));
    const double *pv, *pb;
    size_t n = 0;
    if (precise && conform_dtype_fp(sp->args[i].dtype) >= 0 &&
        ttref_launch_precise(l, out_o->name, &pv, &pb, &n, NULL) == TTREF_OK) {
      for (int q = 0; q < 2; q++) {
        npy_array pa = arr[i];
        pa.kind = 'f';
        pa.elsize = 8;
        pa.data = (void *)(q ? pb : pv);
        pa.nbytes = n * 8;
        fprintf(f, ", \"%s\": {", q ? "bound" : "precise");
        snprintf(rel, sizeof rel, "%s/%s/outputs/%s.%s.npy", ke->name, sp->variant_key, out_o->name,
                 q ? "bound" : "precise");
        TRY(put(out, rel, &pa, files, f, err));
        fputc('}', f);
      }
    }
    fputc('}', f);
  }
  fprintf(f, "}}");
fail:
  for (int i = 0; arr && i < sp->nargs; i++) npy_free(&arr[i]);
  ir_free(arr, sizeof *arr * ((size_t)sp->nargs + 1));
  ttref_launch_free(l);
  ttref_kernel_free(k);
  return st;
}

/* Generate the whole library into @p out; every written file's relative path goes to @p files. */
static ttref_status generate(const char *manifest, const char *out, ir_strs *files, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  library L;
  FILE *f = NULL;
  char path[4400], tmp[4500];
  TRY(library_load(manifest, &L, err));
  TRY(ir_fs_mkdirs(out, NULL, err));
  snprintf(path, sizeof path, "%s/index.json", out);
  snprintf(tmp, sizeof tmp, "%s/index.json.tmp", out);
  if (!(f = fopen(tmp, "w"))) FAIL(IR_ERR(err, TTREF_E_IO, (ttref_loc){0}, "cannot write '%s'", tmp));
  fprintf(f, "{\n\"library\": ");
  conform_json_str(f, L.name);
  fprintf(f, ",\n\"ttref_version\": \"%s\",\n\"semantics_version\": %d,\n\"dispatch\": [", ttref_version(),
          CONFORM_SEMANTICS_VERSION);
  for (int i = 0; i < L.nfields; i++) {
    fprintf(f, "%s{\"name\": ", i ? ", " : "");
    conform_json_str(f, L.fields[i].name);
    fprintf(f, ", \"type\": \"%s\"}", field_type_names[L.fields[i].type]);
  }
  fprintf(f, "],\n\"variants\": {");
  for (int i = 0; i < L.nvars; i++) {
    fputs(i ? ",\n" : "\n", f);
    TRY(gen_variant(&L, &L.vars[i], out, files, f, err));
  }
  fprintf(f, "\n}\n}\n");
  if (fclose(f) != 0) {
    f = NULL;
    FAIL(IR_ERR(err, TTREF_E_IO, (ttref_loc){0}, "cannot write '%s'", tmp));
  }
  f = NULL;
  if (rename(tmp, path) != 0) FAIL(IR_ERR(err, TTREF_E_IO, (ttref_loc){0}, "cannot write '%s'", path));
fail:
  if (f) {
    fclose(f);
    remove(tmp);
  }
  if (L.arena) library_free(&L);
  return st;
}

ttref_status conform_library_write(const char *manifest, const char *out, ttref_error *err)
{
  ir_strs files = {0};
  char tmp[4200];
  ir_fs_dir_tmp(out, tmp, sizeof tmp); /* built whole in OUT.tmp.PID, then renamed onto OUT */
  ir_fs_rmtree(tmp);
  ttref_status st = generate(manifest, tmp, &files, err);
  if (st == TTREF_OK) st = ir_fs_replace_dir(tmp, out, err);
  ir_fs_rmtree(tmp);
  ir_strs_free(&files);
  return st;
}

/* The lines of @p path (NUL-separated in place), into @p out. */
static ttref_status read_lines(const char *path, char **buf, size_t *len, ir_strs *out, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  TRY(ir_fs_read_file(path, buf, len, err));
  for (char *p = *buf, *nl; p < *buf + *len; p = nl + 1) {
    nl = strchr(p, '\n');
    if (!nl) nl = *buf + *len;
    *nl = 0;
    size_t n = strlen(p);
    if (n && p[n - 1] == ',') p[n - 1] = 0; /* the separator is no part of an entry */
    if (strncmp(p, "\"ttref_version\"", 15) != 0) TRY(ir_strs_add(out, p, err));
  }
fail:
  return st;
}

static bool same_file(const char *a, const char *b)
{
  char *x = NULL, *y = NULL;
  size_t nx = 0, ny = 0;
  bool same = ir_fs_read_file(a, &x, &nx, NULL) == TTREF_OK && ir_fs_read_file(b, &y, &ny, NULL) == TTREF_OK &&
              nx == ny && memcmp(x, y, nx) == 0;
  if (x) ir_free(x, nx + 1);
  if (y) ir_free(y, ny + 1);
  return same;
}

ttref_status conform_library_verify(const char *manifest, const char *dir, int *out_drift, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  ir_strs files = {0}, old = {0}, now = {0};
  char scratch[4200], a[8400], b[8400];
  char *ob = NULL, *nb = NULL;
  size_t ol = 0, nl = 0;
  *out_drift = 0;
  snprintf(a, sizeof a, "%s/index.json", dir);
  if (!ir_fs_exists(a))
    FAIL(IR_ERR(err, TTREF_E_INPUT, (ttref_loc){0},
                "'%s' has no index.json (make it with `ttref golden --library MANIFEST --out %s`)", dir, dir));
  snprintf(scratch, sizeof scratch, "%s/.verify.%d", dir, (int)getpid());
  ir_fs_rmtree(scratch);
  TRY(generate(manifest, scratch, &files, err));
  TRY(read_lines(a, &ob, &ol, &old, err));
  snprintf(b, sizeof b, "%s/index.json", scratch);
  TRY(read_lines(b, &nb, &nl, &now, err));
  for (int i = 0; i < now.n; i++)
    if (!strs_has(&old, now.v[i])) {
      fprintf(stderr, "drift: index.json entry %.120s is new or changed\n", now.v[i]);
      (*out_drift)++;
    }
  for (int i = 0; i < old.n; i++)
    if (!strs_has(&now, old.v[i])) {
      fprintf(stderr, "drift: index.json entry %.120s is no longer generated\n", old.v[i]);
      (*out_drift)++;
    }
  for (int i = 0; i < files.n; i++) {
    snprintf(a, sizeof a, "%s/%s", dir, files.v[i]);
    snprintf(b, sizeof b, "%s/%s", scratch, files.v[i]);
    if (!same_file(a, b)) {
      fprintf(stderr, "drift: %s %s\n", files.v[i], ir_fs_exists(a) ? "differs from a fresh run" : "is missing");
      (*out_drift)++;
    }
  }
fail:
  ir_fs_rmtree(scratch);
  if (ob) ir_free(ob, ol + 1);
  if (nb) ir_free(nb, nl + 1);
  ir_strs_free(&files);
  ir_strs_free(&old);
  ir_strs_free(&now);
  return st;
}
