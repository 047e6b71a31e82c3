/*
 * conform_suite.c: reads and validates suite case files. Each case is parsed
 * with ir_yaml (keys from conform_key_list.h), then every
 * specialization is resolved against its kernel's TTIR signature while the
 * YAML document is still alive, so even type errors point at a line:col.
 */
#define _GNU_SOURCE /* POSIX dirent under -std=c11 */
#include "config.h"
#include "conform_suite.h"
#include "conform_judge.h"
#include "ir_base_fs.h"
#include "conform_key.h"
#include "ir_base_yaml.h"
#include "fp.h"
#include "ir.h"
#include "ir_parse.h"
#include "ir_fx_lower.h"
#include "ir_verify.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <unistd.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const feature_names[] = {
#define X(name, str) str,
#include "conform_feature_list.h"
#undef X
};

const char *conform_feature_name(conform_feature f)
{
  return (int)f >= 0 && f < CONFORM_FEATURE_COUNT ? feature_names[f] : "<invalid>";
}

bool conform_feature_lookup(const char *s, conform_feature *out)
{
  for (int f = 0; f < CONFORM_FEATURE_COUNT; f++)
    if (strcmp(feature_names[f], s) == 0) {
      *out = (conform_feature)f;
      return true;
    }
  return false;
}

const conform_output *conform_case_output(const conform_case *c, const char *name)
{
  for (int i = 0; i < c->noutputs; i++)
    if (strcmp(c->outputs[i].name, name) == 0) return &c->outputs[i];
  return NULL;
}

const char *conform_case_id(const conform_case *c, const conform_spec *s, char *buf, size_t n)
{
  snprintf(buf, n, "%s[%s]", c->name, s->variant_key);
  return buf;
}

#define K(x) CONFORM_KEYBIT(x)
static const uint64_t case_keys = K(NAME) | K(DESCRIPTION) | K(KERNEL) | K(FUNCTION) | K(OP) | K(TAGS) | K(REQUIRES) |
                                  K(GRID) | K(ARGS) | K(OUTPUTS) | K(SPECIALIZATIONS) | K(TIMEOUT) | K(SYMS);
static const uint64_t spec_keys =
    K(VARIANT_KEY) | K(KERNEL) | K(FUNCTION) | K(GRID) | K(ARGS) | K(CONSTEXPRS) | K(DTYPES) | K(SYMS);
static const uint64_t ptr_keys = K(SHAPE) | K(DTYPE) | K(INPUT);
static const uint64_t out_keys = K(MODE) | K(OPTIONS) | K(UNORDERED);
static const uint64_t req_keys = K(DTYPES) | K(FEATURES);

/* Keys each generator accepts (besides gen). */
static uint64_t gen_keys(conform_gen g)
{
  switch (g) {
  case CONFORM_GEN_FILL: return K(VALUE);
  case CONFORM_GEN_ARANGE: return K(START) | K(STEP);
  case CONFORM_GEN_UNIFORM_BITS: return K(SEED) | K(FINITE);
  case CONFORM_GEN_UNIFORM: return K(SEED) | K(RANGE) | K(NONZERO);
  case CONFORM_GEN_INT_VALUED: return K(SEED) | K(RANGE);
  case CONFORM_GEN_SPECIAL: return K(SEED) | K(SET) | K(FRACTION) | K(RANGE);
  case CONFORM_GEN_DOT_PRODUCT: return K(SEED) | K(SET) | K(KS) | K(K_STRIDE) | K(OPERAND) | K(ACC);
  case CONFORM_GEN_FILE: return K(FILE);
  default: return 0;
  }
}

static bool name_ok(const char *s, const char *extra)
{
  if (!*s) return false;
  for (; *s; s++)
    if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') || *s == '_' || *s == '-' ||
          *s == '.' || strchr(extra, *s)))
      return false;
  return true;
}

/* Printable copy of @p s for a message (control characters as '?'). */
static const char *shown(const char *s, char *buf, size_t n)
{
  size_t k = 0;
  for (; *s && k + 1 < n; s++) buf[k++] = (unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s;
  buf[k] = 0;
  return buf;
}

/*
 * The one check of a name that becomes a path component (R/work/NAME/VARIANT,
 * GOLDEN/NAME/VARIANT): the charset, then ir_fs_component_problem
 * (no "." or "..", no leading dot, no '/', no control character).
 * @return NULL when fine, else the phrase for "WHAT 'S' <phrase>".
 */
static const char *name_problem(const char *s, const char *extra)
{
  const char *why = ir_fs_component_problem(s);
  if (why) return why;
  if (strcmp(s, "MANIFEST") == 0) return "is reserved (the golden directory's MANIFEST file)";
  if (!name_ok(s, extra)) return *extra ? "may only use [A-Za-z0-9_.=,-]" : "may only use [A-Za-z0-9_.-]";
  return NULL;
}

/* Whether @p path may be read: inside the case's suite root, or anywhere without a root. */
static ttref_status check_inside(ir_yaml *y, yaml_node_t *v, const conform_case *c, const char *what,
                                 const char *written, const char *path)
{
  ttref_status st = TTREF_OK;
  int e = 0;
  if (!c->root || ir_fs_inside(c->root, path, &e)) goto fail;
  if (e) FAIL(ir_yaml_fail(y, v, "no such %s '%s'", what, written));
  FAIL(ir_yaml_fail(
      y, v, "%s '%s' is outside the suite directory (symbolic links resolved); pass --allow-outside-suite to read it",
      what, written));
fail:
  return st;
}

static const char *join_path(ir_arena *a, const char *dir, const char *rel)
{
  size_t n = strlen(dir) + strlen(rel) + 2;
  char *p = ir_arena_alloc(a, n);
  if (p) snprintf(p, n, "%s/%s", rel[0] == '/' ? "" : dir, rel[0] == '/' ? rel + 1 : rel);
  return p;
}

/* ---- recipes -------------------------------------------------------------- */

/* x as int64, saturated (NaN: 0): a double outside the range is undefined behaviour to cast */
static int64_t sat_i64(double x)
{
  if (!(x == x)) return 0;
  if (x >= 0x1p63) return INT64_MAX;
  if (x < -0x1p63) return INT64_MIN;
  return (int64_t)x;
}

/* An input recipe, before its dtype is known (checked again in check_recipe). */
static ttref_status parse_recipe(ir_yaml *y, yaml_node_t *n, const conform_case *c, conform_recipe *r)
{
  ttref_status st = TTREF_OK;
  ir_yaml_pair *pr;
  int np;
  const char *s;
  conform_recipe_init(r);
  if (ir_yaml_is_scalar(n)) { /* shorthand: `input: zeros` */
    TRY(ir_yaml_str(y, n, "input", &s));
    if (!conform_gen_lookup(s, &r->gen)) FAIL(ir_yaml_fail(y, n, "unknown generator '%s'", s));
    if (gen_keys(r->gen)) FAIL(ir_yaml_fail(y, n, "generator '%s' needs parameters: write {gen: %s, ...}", s, s));
    goto fail;
  }
  TRY(ir_yaml_map(y, n, "input", ((uint64_t)1 << CONFORM_KEY_COUNT) - 1, &pr, &np));
  yaml_node_t *gnode = NULL;
  for (int i = 0; i < np; i++)
    if (pr[i].key == CONFORM_KEY_GEN) gnode = pr[i].value;
  if (!gnode) FAIL(ir_yaml_fail(y, n, "input needs a 'gen' key"));
  TRY(ir_yaml_str(y, gnode, "gen", &s));
  if (!conform_gen_lookup(s, &r->gen)) FAIL(ir_yaml_fail(y, gnode, "unknown generator '%s'", s));
  const uint64_t ok = gen_keys(r->gen) | K(GEN);
  bool has[CONFORM_KEY_COUNT] = {0};
  for (int i = 0; i < np; i++) {
    yaml_node_t *v = pr[i].value;
    if (!(ok & ((uint64_t)1 << pr[i].key)))
      FAIL(
          ir_yaml_fail(y, pr[i].knode, "key '%s' is not used by generator '%s'", pr[i].name, conform_gen_name(r->gen)));
    has[pr[i].key] = true;
    switch (pr[i].key) {
    case CONFORM_KEY_SEED: {
      int64_t v64;
      TRY(ir_yaml_int(y, v, "seed", 0, 4294967295LL, &v64));
      r->seed = (uint64_t)v64;
      r->has_seed = true;
      break;
    }
    case CONFORM_KEY_RANGE: {
      yaml_node_t **it;
      int ni;
      TRY(ir_yaml_seq(y, v, "range", &it, &ni));
      if (ni != 2) FAIL(ir_yaml_fail(y, v, "range must be [lo, hi]"));
      TRY(ir_yaml_num(y, it[0], "range lo", &r->lo));
      TRY(ir_yaml_num(y, it[1], "range hi", &r->hi));
      if (!(r->lo <= r->hi) || !isfinite(r->lo) || !isfinite(r->hi))
        FAIL(ir_yaml_fail(y, v, "range must be finite with lo <= hi"));
      /* exact integers when written as integers (64-bit ranges) */
      ttref_error scratch = {0};
      ttref_error *keep = y->err;
      y->err = &scratch;
      if (ir_yaml_int(y, it[0], "lo", INT64_MIN, INT64_MAX, &r->ilo) != TTREF_OK) r->ilo = sat_i64(ceil(r->lo));
      if (ir_yaml_int(y, it[1], "hi", INT64_MIN, INT64_MAX, &r->ihi) != TTREF_OK) r->ihi = sat_i64(floor(r->hi));
      y->err = keep;
      r->has_range = true;
      break;
    }
    case CONFORM_KEY_VALUE: {
      TRY(ir_yaml_num(y, v, "value", &r->value));
      ttref_error scratch = {0};
      ttref_error *keep = y->err;
      y->err = &scratch;
      if (ir_yaml_int(y, v, "value", INT64_MIN, INT64_MAX, &r->ivalue) != TTREF_OK) r->ivalue = sat_i64(r->value);
      y->err = keep;
      break;
    }
    case CONFORM_KEY_START: TRY(ir_yaml_num(y, v, "start", &r->start)); break;
    case CONFORM_KEY_STEP: TRY(ir_yaml_num(y, v, "step", &r->step)); break;
    case CONFORM_KEY_FINITE: TRY(ir_yaml_bool(y, v, "finite", &r->finite)); break;
    case CONFORM_KEY_NONZERO: TRY(ir_yaml_bool(y, v, "nonzero", &r->nonzero)); break;
    case CONFORM_KEY_FRACTION:
      TRY(ir_yaml_num(y, v, "fraction", &r->fraction));
      if (!(r->fraction >= 0 && r->fraction <= 1)) FAIL(ir_yaml_fail(y, v, "fraction must be in [0, 1]"));
      break;
    case CONFORM_KEY_SET:
      if (r->gen == CONFORM_GEN_DOT_PRODUCT) {
        int64_t v64;
        TRY(ir_yaml_int(y, v, "set", 0, 5, &v64));
        r->set = (int)v64;
      } else {
        TRY(ir_yaml_str(y, v, "set", &s));
        if (strcmp(s, "float") == 0) r->set = CONFORM_SPECIAL_FLOAT;
        else if (strcmp(s, "int") == 0) r->set = CONFORM_SPECIAL_INT;
        else FAIL(ir_yaml_fail(y, v, "special set must be 'float' or 'int', not '%s'", s));
      }
      break;
    case CONFORM_KEY_KS: TRY(ir_yaml_int(y, v, "ks", 1, INT32_MAX, &r->ks)); break;
    case CONFORM_KEY_K_STRIDE: TRY(ir_yaml_int(y, v, "k_stride", 1, INT32_MAX, &r->k_stride)); break;
    case CONFORM_KEY_OPERAND:
      TRY(ir_yaml_str(y, v, "operand", &s));
      if (strcmp(s, "a") == 0) r->operand = CONFORM_OPERAND_A;
      else if (strcmp(s, "b") == 0) r->operand = CONFORM_OPERAND_B;
      else if (strcmp(s, "c") == 0) r->operand = CONFORM_OPERAND_C;
      else FAIL(ir_yaml_fail(y, v, "operand must be a, b or c, not '%s'", s));
      break;
    case CONFORM_KEY_ACC:
      TRY(ir_yaml_str(y, v, "acc", &s));
      if (!conform_dtype_lookup(s, &r->acc) || conform_dtype_fp(r->acc) < 0)
        FAIL(ir_yaml_fail(y, v, "acc must be a float dtype, not '%s'", s));
      break;
    case CONFORM_KEY_FILE:
      TRY(ir_yaml_str(y, v, "file", &s));
      r->file = join_path(y->arena, c->dir, s);
      if (!r->file) FAIL(IR_ERR(y->err, TTREF_E_NOMEM, ir_yaml_loc(y, v), "out of memory"));
      TRY(check_inside(y, v, c, "file", s, r->file));
      if (!ir_fs_exists(r->file)) FAIL(ir_yaml_fail(y, v, "no such file '%s'", r->file));
      break;
    default: break;
    }
  }
  if (conform_gen_needs_seed(r->gen) && !has[CONFORM_KEY_SEED])
    FAIL(ir_yaml_fail(y, n, "generator '%s' needs a 'seed'", conform_gen_name(r->gen)));
  if (r->gen == CONFORM_GEN_FILL && !has[CONFORM_KEY_VALUE])
    FAIL(ir_yaml_fail(y, n, "generator 'fill' needs a 'value'"));
  if (r->gen == CONFORM_GEN_FILE && !has[CONFORM_KEY_FILE]) FAIL(ir_yaml_fail(y, n, "generator 'file' needs a 'file'"));
  if (r->gen == CONFORM_GEN_DOT_PRODUCT && (!has[CONFORM_KEY_SET] || !has[CONFORM_KEY_KS] || !has[CONFORM_KEY_OPERAND]))
    FAIL(ir_yaml_fail(y, n, "generator 'dot_product' needs 'set', 'ks' and 'operand'"));
fail:
  return st;
}

/* The recipe against the argument's dtype. */
static ttref_status check_recipe(ir_yaml *y, yaml_node_t *n, const conform_recipe *r, conform_dtype dt)
{
  ttref_status st = TTREF_OK;
  const bool isf = conform_dtype_fp(dt) >= 0;
  if (r->gen == CONFORM_GEN_DOT_PRODUCT) {
    if (!isf) FAIL(ir_yaml_fail(y, n, "dot_product inputs must be floats, not %s", conform_dtype_name(dt)));
    if (conform_gen_dot_bound(dt, r->acc) <= 0)
      FAIL(ir_yaml_fail(y, n, "dot_product has no bound for %s inputs with a %s accumulator", conform_dtype_name(dt),
                        conform_dtype_name(r->acc)));
  }
  if (r->gen == CONFORM_GEN_SPECIAL && r->set == CONFORM_SPECIAL_FLOAT && !isf)
    FAIL(ir_yaml_fail(y, n, "special set 'float' needs a float dtype, not %s", conform_dtype_name(dt)));
  if (!isf && r->gen == CONFORM_GEN_FILL && (double)r->ivalue != r->value)
    FAIL(ir_yaml_fail(y, n, "fill value for %s must be an integer", conform_dtype_name(dt)));
  if (!isf && r->has_range && (r->gen == CONFORM_GEN_UNIFORM || r->gen == CONFORM_GEN_SPECIAL) &&
      dt != CONFORM_DT_BOOL) {
    int w = conform_dtype_bytes(dt) * 8;
    if (w < 64) {
      int64_t lo = conform_dtype_kind(dt) == 'u' ? 0 : -((int64_t)1 << (w - 1));
      int64_t hi = conform_dtype_kind(dt) == 'u' ? (int64_t)(((uint64_t)1 << w) - 1) : ((int64_t)1 << (w - 1)) - 1;
      if (r->ilo < lo || r->ihi > hi)
        FAIL(ir_yaml_fail(y, n, "range [%lld, %lld] does not fit %s", (long long)r->ilo, (long long)r->ihi,
                          conform_dtype_name(dt)));
    }
  }
fail:
  return st;
}

/* ---- arguments and specializations ------------------------------------------ */

typedef struct raw_arg {
  const char *name;
  yaml_node_t *knode, *value;
} raw_arg;

/* syms: {NAME: INT, ...} merged into "NAME=INT" strings (a later binding replaces an earlier one) */
static ttref_status parse_syms(ir_yaml *y, yaml_node_t *n, const char **syms, int *nsyms, int cap)
{
  ttref_status st = TTREF_OK;
  ir_yaml_pair *pr;
  int np;
  TRY(ir_yaml_map(y, n, "syms", 0, &pr, &np));
  for (int k = 0; k < np; k++) {
    int64_t v;
    TRY(ir_yaml_int(y, pr[k].value, "symbol value", INT32_MIN, INT32_MAX, &v));
    size_t len = strlen(pr[k].name) + 24;
    char *s = ir_arena_alloc(y->arena, len);
    if (!s) FAIL(IR_ERR(y->err, TTREF_E_NOMEM, ir_yaml_loc(y, n), "out of memory"));
    snprintf(s, len, "%s=%lld", pr[k].name, (long long)v);
    int at = *nsyms;
    for (int q = 0; q < *nsyms; q++)
      if (!strncmp(syms[q], pr[k].name, strlen(pr[k].name)) && syms[q][strlen(pr[k].name)] == '=') at = q;
    if (at == *nsyms && *nsyms >= cap) FAIL(ir_yaml_fail(y, n, "more than %d syms", cap));
    syms[at] = s;
    if (at == *nsyms) (*nsyms)++;
  }
fail:
  return st;
}

static ttref_status merge_args(ir_yaml *y, yaml_node_t *n, raw_arg *raw, int *nraw, int cap)
{
  ttref_status st = TTREF_OK;
  ir_yaml_pair *pr;
  int np;
  TRY(ir_yaml_map(y, n, "args", 0, &pr, &np));
  for (int i = 0; i < np; i++) {
    int k = 0;
    while (k < *nraw && strcmp(raw[k].name, pr[i].name) != 0) k++;
    if (k == *nraw) {
      if (*nraw == cap) FAIL(ir_yaml_fail(y, pr[i].knode, "too many arguments"));
      (*nraw)++;
    }
    raw[k].name = pr[i].name;
    raw[k].knode = pr[i].knode;
    raw[k].value = pr[i].value;
  }
fail:
  return st;
}

static ttref_status parse_grid(ir_yaml *y, yaml_node_t *n, int64_t g[3])
{
  ttref_status st = TTREF_OK;
  g[0] = g[1] = g[2] = 1;
  if (ir_yaml_is_scalar(n)) {
    TRY(ir_yaml_int(y, n, "grid", 0, INT32_MAX, &g[0]));
  } else {
    yaml_node_t **it;
    int ni;
    TRY(ir_yaml_seq(y, n, "grid", &it, &ni));
    if (ni < 1 || ni > 3) FAIL(ir_yaml_fail(y, n, "grid must have 1 to 3 dimensions"));
    for (int i = 0; i < ni; i++) TRY(ir_yaml_int(y, it[i], "grid dimension", 0, INT32_MAX, &g[i]));
  }
fail:
  return st;
}

static ttref_status scalar_literal_ok(ir_yaml *y, yaml_node_t *v, const ir_type *t, const char *s)
{
  ttref_status st = TTREF_OK;
  char *end;
  if (ir_scalar_is_float(t->scalar)) {
    if (strcmp(s, "inf") && strcmp(s, "-inf") && strcmp(s, "+inf") && strcmp(s, "nan")) {
      strtod(s, &end);
      if (end == s || *end) FAIL(ir_yaml_fail(y, v, "'%s' is not a %s literal", s, ir_scalar_name(t->scalar)));
    }
  } else {
    int bits = ir_scalar_bits(t->scalar);
    if (bits == 1 && (!strcmp(s, "true") || !strcmp(s, "false"))) goto fail;
    errno = 0;
    if (s[0] == '-') {
      long long v64 = strtoll(s, &end, 0);
      if (end == s || *end || errno || (bits < 64 && v64 < -(1LL << (bits - 1))))
        FAIL(ir_yaml_fail(y, v, "'%s' is not an i%d literal", s, bits));
    } else {
      unsigned long long v64 = strtoull(s, &end, 0);
      if (end == s || *end || errno || (bits < 64 && v64 > ((1ULL << bits) - 1)))
        FAIL(ir_yaml_fail(y, v, "'%s' is not an i%d literal", s, bits));
    }
  }
fail:
  return st;
}

/* A traced kernel (.fx): lower it with the case's syms and pointer dtypes (docs/traced.md). */
static ttref_status lower_traced(ir_yaml *y, yaml_node_t *knode, raw_arg *raw, int nraw, ir_yaml_pair *dtp, int ndtp,
                                 const char **syms, int nsyms, conform_spec *sp, ir_module **m)
{
  ttref_status st = TTREF_OK;
  ttref_error kerr = {0};
  ir_fx *g = NULL;
  char *text = NULL;
  size_t len = 0;
  const char **dts = ir_arena_alloc(y->arena, sizeof *dts * (size_t)(nraw + ndtp + 1));
  int ndts = 0;
  if (!dts) FAIL(IR_ERR(y->err, TTREF_E_NOMEM, ir_yaml_loc(y, knode), "out of memory"));
  for (int k = 0; k < nraw + ndtp; k++) {
    const char *name = k < nraw ? raw[k].name : dtp[k - nraw].name, *dt = NULL;
    if (k >= nraw) {
      TRY(ir_yaml_str(y, dtp[k - nraw].value, "dtype", &dt));
    } else if (ir_yaml_is_map(raw[k].value)) {
      ir_yaml_pair *pr;
      int np;
      TRY(ir_yaml_map(y, raw[k].value, "a pointer argument", ptr_keys, &pr, &np));
      for (int q = 0; q < np; q++)
        if (pr[q].key == CONFORM_KEY_DTYPE) TRY(ir_yaml_str(y, pr[q].value, "dtype", &dt));
    }
    if (!dt) continue;
    size_t n = strlen(name) + strlen(dt) + 2;
    char *s = ir_arena_alloc(y->arena, n);
    if (!s) FAIL(IR_ERR(y->err, TTREF_E_NOMEM, ir_yaml_loc(y, knode), "out of memory"));
    snprintf(s, n, "%s=%s", name, dt);
    dts[ndts++] = s;
  }
  ir_fx_bind b = {syms, nsyms, dts, ndts, IR_FX_OOB_ERROR};
  if (ir_fx_parse_file(sp->kernel, &g, &kerr) != TTREF_OK ||
      ir_fx_lower(g, &b, "kernel", &text, &len, &kerr) != TTREF_OK ||
      ir_parse_string("lowered.ttir", text, len, m, &kerr) != TTREF_OK)
    FAIL(ir_yaml_fail(y, knode, "kernel '%s' is invalid: %s", sp->kernel_rel, kerr.msg));
  ir_fx_relocate(*m, sp->kernel);
  if (!(sp->lowered = ir_arena_strndup(y->arena, text, len)))
    FAIL(IR_ERR(y->err, TTREF_E_NOMEM, ir_yaml_loc(y, knode), "out of memory"));
  sp->lowered_len = len;
fail:
  if (text) ir_free(text, len + 1);
  ir_fx_free(g);
  return st;
}

/*
 * Output file names must not collide: the reference run writes ARG.npy for
 * every pointer argument and, when a compliance mode needs them,
 * ARG.precise.npy and ARG.bound.npy, all into one directory (and goldens keep
 * them side by side), so arguments `a` and `a.precise` would overwrite each other.
 */
static ttref_status check_collisions(ir_yaml *y, yaml_node_t *where, const conform_case *c, const conform_spec *sp)
{
  ttref_status st = TTREF_OK;
  static const char *const sfx[] = {".precise", ".bound"};
  if (!conform_judge_case_wants_precise(c)) goto fail;
  for (int i = 0; i < sp->nargs; i++) {
    const conform_arg *a = &sp->args[i];
    if (!a->is_ptr) continue;
    size_t la = strlen(a->name);
    for (int k = 0; k < sp->nargs; k++) {
      const conform_arg *b = &sp->args[k];
      if (k == i || !b->is_ptr || conform_dtype_fp(b->dtype) < 0) continue;
      size_t lb = strlen(b->name);
      for (int q = 0; q < 2; q++)
        if (la == lb + strlen(sfx[q]) && strncmp(a->name, b->name, lb) == 0 && strcmp(a->name + lb, sfx[q]) == 0)
          FAIL(ir_yaml_fail(y, where,
                            "arguments '%s' and '%s' collide: both would write %s.npy (with --precise); rename one",
                            b->name, a->name, a->name));
    }
  }
fail:
  return st;
}

/* Resolve one launch: parse the kernel and bind every signature argument. */
static ttref_status resolve_spec(ir_yaml *y, yaml_node_t *where, const conform_case *c, raw_arg *raw, int nraw,
                                 yaml_node_t *knode, conform_spec *sp, yaml_node_t *dtypes_node, const char **syms,
                                 int nsyms)
{
  ttref_status st = TTREF_OK;
  ir_module *m = NULL;
  ttref_error kerr = {0};
  int kfd = -1;
  ir_yaml_pair *dtp = NULL;
  int ndtp = 0;
  TRY(check_inside(y, knode, c, "kernel file", sp->kernel_rel, sp->kernel));
  if (!ir_fs_exists(sp->kernel)) FAIL(ir_yaml_fail(y, knode, "no such kernel file '%s'", sp->kernel));
  if (ir_fs_open_regular(sp->kernel, sp->kernel_rel, IR_FS_FOLLOW, &kfd, NULL, &kerr) !=
      TTREF_OK) /* a FIFO would hang */
    FAIL(ir_yaml_fail(y, knode, "%s", strncmp(kerr.msg, "error: ", 7) == 0 ? kerr.msg + 7 : kerr.msg));
  close(kfd);
  kerr = (ttref_error){0};
  if (dtypes_node) TRY(ir_yaml_map(y, dtypes_node, "dtypes", 0, &dtp, &ndtp));
  if (ir_fx_sniff_file(sp->kernel)) TRY(lower_traced(y, knode, raw, nraw, dtp, ndtp, syms, nsyms, sp, &m));
  else if (nsyms) FAIL(ir_yaml_fail(y, knode, "syms are for traced kernels (.fx), but '%s' is TTIR", sp->kernel_rel));
  else if (ir_parse_file(sp->kernel, &m, &kerr) != TTREF_OK)
    FAIL(ir_yaml_fail(y, knode, "kernel '%s' is invalid: %s", sp->kernel_rel, kerr.msg));
  if (ir_verify_module(m, &kerr) != TTREF_OK)
    FAIL(ir_yaml_fail(y, knode, "kernel '%s' is invalid: %s", sp->kernel_rel, kerr.msg));
  const ir_func *fn = sp->function ? ir_module_find_func(m, sp->function) : ir_module_entry(m);
  if (!fn)
    FAIL(ir_yaml_fail(y, knode, "kernel '%s' has no function %s", sp->kernel_rel, sp->function ? sp->function : ""));
  sp->nargs = fn->nargs;
  sp->args = ir_arena_alloc(y->arena, sizeof *sp->args * (size_t)(fn->nargs + 1));
  if (!sp->args) FAIL(IR_ERR(y->err, TTREF_E_NOMEM, ir_yaml_loc(y, where), "out of memory"));
  for (int k = 0; k < nraw; k++) {
    bool found = false;
    for (int i = 0; i < fn->nargs; i++) found |= fn->args[i].name && strcmp(fn->args[i].name, raw[k].name) == 0;
    if (!found) FAIL(ir_yaml_fail(y, raw[k].knode, "kernel '%s' has no argument '%s'", sp->kernel_rel, raw[k].name));
  }
  for (int k = 0; k < ndtp; k++) {
    bool found = false;
    for (int i = 0; i < nraw; i++) found |= strcmp(raw[i].name, dtp[k].name) == 0;
    if (!found) FAIL(ir_yaml_fail(y, dtp[k].knode, "dtypes names '%s', which is not a pointer argument", dtp[k].name));
  }
  for (int i = 0; i < fn->nargs; i++) {
    conform_arg *a = &sp->args[i];
    const ir_type *t = fn->args[i].type;
    char ty[128];
    ir_type_str(t, ty, sizeof ty);
    a->name = ir_arena_strndup(y->arena, fn->args[i].name ? fn->args[i].name : "",
                               strlen(fn->args[i].name ? fn->args[i].name : ""));
    a->ttir_type = ir_arena_strndup(y->arena, ty, strlen(ty));
    conform_recipe_init(&a->input);
    const raw_arg *r = NULL;
    for (int k = 0; k < nraw; k++)
      if (strcmp(raw[k].name, a->name) == 0) r = &raw[k];
    if (!r) FAIL(ir_yaml_fail(y, where, "argument '%s' (%s) of kernel '%s' is not bound", a->name, ty, sp->kernel_rel));
    if (t->kind == IR_T_SCALAR) {
      if (!ir_yaml_is_scalar(r->value))
        FAIL(ir_yaml_fail(y, r->value, "argument '%s' is a scalar (%s): give a value", a->name, ty));
      TRY(ir_yaml_str(y, r->value, "value", &a->value));
      TRY(scalar_literal_ok(y, r->value, t, a->value));
      continue;
    }
    if (t->kind != IR_T_PTR || !t->elem || t->elem->kind != IR_T_SCALAR)
      FAIL(ir_yaml_fail(y, r->knode, "argument '%s' has type %s, which a case cannot bind", a->name, ty));
    a->is_ptr = true;
    ir_yaml_pair *pr;
    int np;
    TRY(ir_yaml_map(y, r->value, "a pointer argument", ptr_keys, &pr, &np));
    if (!conform_dtype_of_scalar(t->elem->scalar, &a->dtype))
      FAIL(ir_yaml_fail(y, r->knode, "argument '%s' points to %s, which has no buffer dtype", a->name, ty));
    bool has_shape = false;
    yaml_node_t *input = NULL, *dtn = NULL;
    for (int k = 0; k < np; k++) {
      if (pr[k].key == CONFORM_KEY_SHAPE) {
        yaml_node_t **it;
        int ni;
        TRY(ir_yaml_seq(y, pr[k].value, "shape", &it, &ni));
        if (ni > NPY_MAX_RANK) FAIL(ir_yaml_fail(y, pr[k].value, "shape has more than %d dimensions", NPY_MAX_RANK));
        a->rank = ni;
        for (int d = 0; d < ni; d++) TRY(ir_yaml_int(y, it[d], "shape dimension", 0, INT32_MAX, &a->shape[d]));
        has_shape = true;
      } else if (pr[k].key == CONFORM_KEY_DTYPE) {
        dtn = pr[k].value;
      } else {
        input = pr[k].value;
      }
    }
    for (int k = 0; k < ndtp; k++)
      if (strcmp(dtp[k].name, a->name) == 0) dtn = dtp[k].value;
    if (dtn) {
      const char *s;
      conform_dtype d;
      TRY(ir_yaml_str(y, dtn, "dtype", &s));
      if (!conform_dtype_lookup(s, &d)) FAIL(ir_yaml_fail(y, dtn, "unknown dtype '%s'", s));
      if (conform_dtype_scalar(d) != t->elem->scalar)
        FAIL(ir_yaml_fail(y, dtn, "dtype %s does not match the kernel's %s", s, ty));
      a->dtype = d;
    }
    if (!has_shape) FAIL(ir_yaml_fail(y, r->value, "pointer argument '%s' needs a 'shape'", a->name));
    if (input) {
      TRY(parse_recipe(y, input, c, &a->input));
      TRY(check_recipe(y, input, &a->input, a->dtype));
    }
  }
  for (int k = 0; k < c->noutputs; k++) {
    bool ok = false;
    for (int i = 0; i < sp->nargs; i++) ok |= sp->args[i].is_ptr && strcmp(sp->args[i].name, c->outputs[k].name) == 0;
    if (!ok) {
      ttref_loc l = c->outputs[k].loc;
      FAIL(ir_error_set(y->err, TTREF_E_INPUT, l, "output '%s' is not a pointer argument of kernel '%s'",
                        c->outputs[k].name, sp->kernel_rel));
    }
  }
  TRY(check_collisions(y, where, c, sp));
fail:
  ir_module_free(m);
  return st;
}

static ttref_status parse_outputs(ir_yaml *y, yaml_node_t *n, conform_case *c)
{
  ttref_status st = TTREF_OK;
  ir_yaml_pair *pr;
  int np;
  TRY(ir_yaml_map(y, n, "outputs", 0, &pr, &np));
  if (np == 0) FAIL(ir_yaml_fail(y, n, "a case needs at least one output"));
  c->outputs = ir_arena_alloc(y->arena, sizeof *c->outputs * (size_t)np);
  if (!c->outputs) FAIL(IR_ERR(y->err, TTREF_E_NOMEM, ir_yaml_loc(y, n), "out of memory"));
  c->noutputs = np;
  for (int i = 0; i < np; i++) {
    conform_output *o = &c->outputs[i];
    o->name = pr[i].name;
    o->loc = ir_yaml_loc(y, pr[i].knode);
    yaml_node_t *mode = pr[i].value, *opts = NULL;
    if (ir_yaml_is_map(pr[i].value)) {
      ir_yaml_pair *op;
      int no;
      TRY(ir_yaml_map(y, pr[i].value, "an output", out_keys, &op, &no));
      mode = NULL;
      for (int k = 0; k < no; k++) {
        if (op[k].key == CONFORM_KEY_MODE) mode = op[k].value;
        else if (op[k].key == CONFORM_KEY_UNORDERED) TRY(ir_yaml_bool(y, op[k].value, "unordered", &o->unordered));
        else opts = op[k].value;
      }
      if (!mode) FAIL(ir_yaml_fail(y, pr[i].value, "output '%s' needs a 'mode'", o->name));
    }
    const char *mname;
    TRY(ir_yaml_str(y, mode, "mode", &mname));
    if (!cmp_mode_lookup(mname, &o->mode)) FAIL(ir_yaml_fail(y, mode, "unknown compliance mode '%s'", mname));
    if (opts) {
      ir_yaml_pair *op;
      int no;
      TRY(ir_yaml_map(y, opts, "options", 0, &op, &no));
      o->options = ir_arena_alloc(y->arena, sizeof *o->options * (size_t)(no + 1));
      if (!o->options) FAIL(IR_ERR(y->err, TTREF_E_NOMEM, ir_yaml_loc(y, opts), "out of memory"));
      o->noptions = no;
      for (int k = 0; k < no; k++) {
        o->options[k].name = op[k].name;
        TRY(ir_yaml_str(y, op[k].value, "option value", &o->options[k].text));
        char why[160];
        if (!conform_judge_option_ok(o->mode, op[k].name, o->options[k].text, why, sizeof why))
          FAIL(ir_yaml_fail(y, op[k].knode, "%s", why));
      }
    }
  }
fail:
  return st;
}

static ttref_status parse_requires(ir_yaml *y, yaml_node_t *n, conform_case *c)
{
  ttref_status st = TTREF_OK;
  ir_yaml_pair *pr;
  int np;
  TRY(ir_yaml_map(y, n, "requires", req_keys, &pr, &np));
  for (int i = 0; i < np; i++) {
    yaml_node_t **it;
    int ni;
    TRY(ir_yaml_seq(y, pr[i].value, pr[i].name, &it, &ni));
    if (pr[i].key == CONFORM_KEY_DTYPES) {
      c->dtypes = ir_arena_alloc(y->arena, sizeof *c->dtypes * (size_t)(ni + 1));
      if (!c->dtypes) FAIL(IR_ERR(y->err, TTREF_E_NOMEM, ir_yaml_loc(y, n), "out of memory"));
      c->ndtypes = ni;
      for (int k = 0; k < ni; k++) {
        const char *s;
        TRY(ir_yaml_str(y, it[k], "dtype", &s));
        if (!conform_dtype_lookup(s, &c->dtypes[k])) FAIL(ir_yaml_fail(y, it[k], "unknown dtype '%s'", s));
      }
    } else {
      for (int k = 0; k < ni; k++) {
        const char *s;
        conform_feature f;
        TRY(ir_yaml_str(y, it[k], "feature", &s));
        if (!conform_feature_lookup(s, &f)) FAIL(ir_yaml_fail(y, it[k], "unknown feature '%s'", s));
        c->features |= 1u << f;
      }
    }
  }
fail:
  return st;
}

ttref_status conform_case_load(const char *file, ir_arena *arena, conform_case *c, ttref_error *err)
{
  return conform_case_load_flags(file, 0, arena, c, err);
}

ttref_status conform_case_load_flags(const char *file, unsigned flags, ir_arena *arena, conform_case *c,
                                     ttref_error *err)
{
  ttref_status st = TTREF_OK;
  ir_yaml y;
  raw_arg base[64], merged[64];
  const char *syms[64], *msyms[64];
  int nbsyms = 0;
  int nbase = 0;
  bool has_name = false;
  char shownbuf[256];
  memset(c, 0, sizeof *c);
  memset(&y, 0, sizeof y); /* ir_yaml_free is a no-op until it is loaded */
  c->path = ir_arena_strndup(arena, file, strlen(file));
  const char *slash = strrchr(file, '/');
  c->dir = slash ? ir_arena_strndup(arena, file, slash == file ? 1 : (size_t)(slash - file)) : ".";
  const char *stem = slash ? slash + 1 : file;
  const char *dot = strrchr(stem, '.');
  c->name = ir_arena_strndup(arena, stem, dot ? (size_t)(dot - stem) : strlen(stem));
  c->op = "misc";
  if (!c->path || !c->dir || !c->name) FAIL(IR_ERR(err, TTREF_E_NOMEM, (ttref_loc){0}, "out of memory"));
  if (!(flags & CONFORM_SUITE_ALLOW_OUTSIDE)) { /* the case file itself must resolve inside its directory */
    char real[PATH_MAX];
    int e = 0;
    if (!realpath(c->dir, real))
      FAIL(IR_ERR(err, TTREF_E_IO, (ttref_loc){0}, "cannot open suite directory '%s': %s", c->dir, strerror(errno)));
    if (!(c->root = ir_arena_strndup(arena, real, strlen(real))))
      FAIL(IR_ERR(err, TTREF_E_NOMEM, (ttref_loc){0}, "out of memory"));
    if (!ir_fs_inside(c->root, file, &e) && e == 0)
      FAIL(IR_ERR(
          err, TTREF_E_INPUT, (ttref_loc){0},
          "case file '%s' is outside the suite directory (a symbolic link); pass --allow-outside-suite to read it",
          file));
  }
  TRY(ir_yaml_load(&y, file, NULL, arena, err));
  y.keys = conform_key_names;
  y.nkeys = CONFORM_KEY_COUNT;
  yaml_node_t *root = ir_yaml_root(&y);
  if (!root) FAIL(ir_error_set(err, TTREF_E_INPUT, (ttref_loc){file, 1, 1}, "empty case file"));
  ir_yaml_pair *pr;
  int np;
  TRY(ir_yaml_map(&y, root, "a case", case_keys, &pr, &np));
  yaml_node_t *kernel = NULL, *grid = NULL, *args = NULL, *outputs = NULL, *specs = NULL, *function = NULL;
  const char *why;
  for (int i = 0; i < np; i++) {
    yaml_node_t *v = pr[i].value;
    switch (pr[i].key) {
    case CONFORM_KEY_NAME:
      TRY(ir_yaml_str(&y, v, "name", &c->name));
      if ((why = name_problem(c->name, "")))
        FAIL(ir_yaml_fail(&y, v, "case name '%s' %s", shown(c->name, shownbuf, sizeof shownbuf), why));
      has_name = true;
      break;
    case CONFORM_KEY_DESCRIPTION: TRY(ir_yaml_str(&y, v, "description", &c->description)); break;
    case CONFORM_KEY_OP: TRY(ir_yaml_str(&y, v, "op", &c->op)); break;
    case CONFORM_KEY_KERNEL: kernel = v; break;
    case CONFORM_KEY_FUNCTION: function = v; break;
    case CONFORM_KEY_GRID: grid = v; break;
    case CONFORM_KEY_ARGS: args = v; break;
    case CONFORM_KEY_OUTPUTS: outputs = v; break;
    case CONFORM_KEY_SPECIALIZATIONS: specs = v; break;
    case CONFORM_KEY_SYMS: TRY(parse_syms(&y, v, syms, &nbsyms, 64)); break;
    case CONFORM_KEY_REQUIRES: TRY(parse_requires(&y, v, c)); break;
    case CONFORM_KEY_TIMEOUT:
      TRY(ir_yaml_num(&y, v, "timeout", &c->timeout));
      if (!(c->timeout > 0 && c->timeout <= 86400)) FAIL(ir_yaml_fail(&y, v, "timeout must be in (0, 86400] seconds"));
      break;
    case CONFORM_KEY_TAGS: {
      yaml_node_t **it;
      int ni;
      TRY(ir_yaml_seq(&y, v, "tags", &it, &ni));
      c->tags = ir_arena_alloc(arena, sizeof *c->tags * (size_t)(ni + 1));
      if (!c->tags) FAIL(IR_ERR(err, TTREF_E_NOMEM, ir_yaml_loc(&y, v), "out of memory"));
      c->ntags = ni;
      for (int k = 0; k < ni; k++) TRY(ir_yaml_str(&y, it[k], "tag", &c->tags[k]));
      break;
    }
    default: break;
    }
  }
  if (!has_name && (why = name_problem(c->name, "")))
    FAIL(ir_yaml_fail(&y, root, "case name '%s' (the file name) %s: add a `name:` key",
                      shown(c->name, shownbuf, sizeof shownbuf), why));
  if (!kernel && !specs) FAIL(ir_yaml_fail(&y, root, "a case needs a 'kernel'"));
  if (!outputs) FAIL(ir_yaml_fail(&y, root, "a case needs 'outputs'"));
  TRY(parse_outputs(&y, outputs, c));
  if (args) TRY(merge_args(&y, args, base, &nbase, 64));
  int64_t base_grid[3] = {1, 1, 1};
  if (grid) TRY(parse_grid(&y, grid, base_grid));
  const char *base_kernel = NULL, *base_fn = NULL;
  if (kernel) TRY(ir_yaml_str(&y, kernel, "kernel", &base_kernel));
  if (function) TRY(ir_yaml_str(&y, function, "function", &base_fn));
  yaml_node_t **sitems = NULL;
  int nspec = 0;
  if (specs) {
    TRY(ir_yaml_seq(&y, specs, "specializations", &sitems, &nspec));
    if (nspec == 0) FAIL(ir_yaml_fail(&y, specs, "specializations must not be empty"));
  }
  c->nspecs = specs ? nspec : 1;
  c->specs = ir_arena_alloc(arena, sizeof *c->specs * (size_t)c->nspecs);
  if (!c->specs) FAIL(IR_ERR(err, TTREF_E_NOMEM, ir_yaml_loc(&y, root), "out of memory"));
  for (int s = 0; s < c->nspecs; s++) {
    conform_spec *sp = &c->specs[s];
    int nm = nbase, nsyms = nbsyms;
    memcpy(merged, base, sizeof *base * (size_t)nbase);
    memcpy(msyms, syms, sizeof *syms * (size_t)nbsyms);
    sp->variant_key = "default";
    sp->kernel_rel = base_kernel;
    sp->function = base_fn;
    sp->constexprs = "";
    memcpy(sp->grid, base_grid, sizeof base_grid);
    yaml_node_t *where = root, *knode = kernel, *dtypes_node = NULL;
    if (specs) {
      ir_yaml_pair *sq;
      int ns;
      bool has_key = false;
      where = sitems[s];
      TRY(ir_yaml_map(&y, sitems[s], "a specialization", spec_keys, &sq, &ns));
      for (int k = 0; k < ns; k++) {
        yaml_node_t *v = sq[k].value;
        switch (sq[k].key) {
        case CONFORM_KEY_VARIANT_KEY:
          TRY(ir_yaml_str(&y, v, "variant_key", &sp->variant_key));
          if ((why = name_problem(sp->variant_key, "=,")))
            FAIL(ir_yaml_fail(&y, v, "variant_key '%s' %s", shown(sp->variant_key, shownbuf, sizeof shownbuf), why));
          for (int o = 0; o < s; o++)
            if (strcmp(c->specs[o].variant_key, sp->variant_key) == 0)
              FAIL(ir_yaml_fail(&y, v, "duplicate variant_key '%s'", sp->variant_key));
          has_key = true;
          break;
        case CONFORM_KEY_KERNEL:
          TRY(ir_yaml_str(&y, v, "kernel", &sp->kernel_rel));
          knode = v;
          break;
        case CONFORM_KEY_FUNCTION: TRY(ir_yaml_str(&y, v, "function", &sp->function)); break;
        case CONFORM_KEY_GRID: TRY(parse_grid(&y, v, sp->grid)); break;
        case CONFORM_KEY_ARGS: TRY(merge_args(&y, v, merged, &nm, 64)); break;
        case CONFORM_KEY_DTYPES: dtypes_node = v; break;
        case CONFORM_KEY_SYMS: TRY(parse_syms(&y, v, msyms, &nsyms, 64)); break;
        case CONFORM_KEY_CONSTEXPRS: {
          ir_yaml_pair *cp;
          int nc;
          char buf[512] = "";
          size_t pos = 0;
          TRY(ir_yaml_map(&y, v, "constexprs", 0, &cp, &nc));
          for (int q = 0; q < nc; q++) {
            const char *val;
            TRY(ir_yaml_str(&y, cp[q].value, "constexpr value", &val));
            if (pos < sizeof buf)
              pos += (size_t)snprintf(buf + pos, sizeof buf - pos, "%s%s=%s", q ? "," : "", cp[q].name, val);
          }
          sp->constexprs = ir_arena_strndup(arena, buf, strlen(buf));
          break;
        }
        default: break;
        }
      }
      if (!has_key) FAIL(ir_yaml_fail(&y, sitems[s], "a specialization needs a 'variant_key'"));
      if (!sp->kernel_rel) FAIL(ir_yaml_fail(&y, sitems[s], "specialization '%s' has no 'kernel'", sp->variant_key));
    }
    sp->kernel = join_path(arena, c->dir, sp->kernel_rel);
    if (!sp->kernel) FAIL(IR_ERR(err, TTREF_E_NOMEM, ir_yaml_loc(&y, root), "out of memory"));
    if (!sp->constexprs[0] && nsyms) { /* traced kernels: the syms are the specialization's constants */
      char buf[512] = "";
      size_t pos = 0;
      for (int q = 0; q < nsyms && pos < sizeof buf; q++)
        pos += (size_t)snprintf(buf + pos, sizeof buf - pos, "%s%s", q ? "," : "", msyms[q]);
      sp->constexprs = ir_arena_strndup(arena, buf, strlen(buf));
    }
    TRY(resolve_spec(&y, where, c, merged, nm, knode ? knode : where, sp, dtypes_node, msyms, nsyms));
  }
fail:
  ir_yaml_free(&y);
  return st;
}

static int cmp_case(const void *a, const void *b)
{
  return strcmp(((const conform_case *)a)->name, ((const conform_case *)b)->name);
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

ttref_status conform_suite_load(const char *path, conform_suite **out, ttref_error *err)
{
  return conform_suite_load_flags(path, 0, out, err);
}

ttref_status conform_suite_load_flags(const char *path, unsigned flags, conform_suite **out, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  ttref_loc none = {0};
  conform_suite *s = NULL;
  DIR *d = NULL;
  char **names = NULL;
  int nnames = 0, cap = 0;
  *out = NULL;
  s = ir_calloc(1, sizeof *s);
  if (!s || !(s->arena = ir_arena_new())) FAIL(IR_ERR(err, TTREF_E_NOMEM, none, "out of memory"));
  size_t plen = strlen(path);
  while (plen > 1 && path[plen - 1] == '/') plen--;
  s->dir = ir_arena_strndup(s->arena, path, plen);
  const char *slash = strrchr(s->dir, '/');
  s->name = slash ? slash + 1 : s->dir;
  d = opendir(s->dir);
  if (!d) {
    if (errno != ENOTDIR) FAIL(IR_ERR(err, TTREF_E_IO, none, "cannot open suite '%s': %s", path, strerror(errno)));
    /* a single case file */
    s->cases = ir_arena_alloc(s->arena, sizeof *s->cases);
    if (!s->cases) FAIL(IR_ERR(err, TTREF_E_NOMEM, none, "out of memory"));
    TRY(conform_case_load_flags(s->dir, flags, s->arena, &s->cases[0], err));
    s->ncases = 1;
    *out = s;
    goto fail; /* done: st is TTREF_OK */
  }
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    size_t l = strlen(e->d_name);
    if (l < 6 || strcmp(e->d_name + l - 5, ".yaml") != 0 || e->d_name[0] == '.') continue;
    if (nnames == cap) {
      int ncap = cap ? cap * 2 : 64;
      char **nn = ir_realloc(names, sizeof *names * (size_t)cap, sizeof *names * (size_t)ncap);
      if (!nn) FAIL(IR_ERR(err, TTREF_E_NOMEM, none, "out of memory"));
      names = nn;
      cap = ncap;
    }
    names[nnames] = ir_arena_strndup(s->arena, e->d_name, l);
    if (!names[nnames++]) FAIL(IR_ERR(err, TTREF_E_NOMEM, none, "out of memory"));
  }
  if (nnames == 0) FAIL(IR_ERR(err, TTREF_E_INPUT, none, "suite '%s' has no *.yaml case files", path));
  if (nnames > 1) qsort(names, (size_t)nnames, sizeof *names, cmp_str);
  s->cases = ir_arena_alloc(s->arena, sizeof *s->cases * (size_t)nnames);
  if (!s->cases) FAIL(IR_ERR(err, TTREF_E_NOMEM, none, "out of memory"));
  for (int i = 0; i < nnames; i++) {
    const char *file = ir_arena_alloc(s->arena, plen + strlen(names[i]) + 2);
    if (!file) FAIL(IR_ERR(err, TTREF_E_NOMEM, none, "out of memory"));
    snprintf((char *)file, plen + strlen(names[i]) + 2, "%s/%s", s->dir, names[i]);
    TRY(conform_case_load_flags(file, flags, s->arena, &s->cases[i], err));
    for (int k = 0; k < i; k++)
      if (strcmp(s->cases[k].name, s->cases[i].name) == 0)
        FAIL(ir_error_set(err, TTREF_E_INPUT, (ttref_loc){file, 1, 1}, "case name '%s' is also used by %s",
                          s->cases[i].name, s->cases[k].path));
    s->ncases++;
  }
  if (s->ncases > 1) qsort(s->cases, (size_t)s->ncases, sizeof *s->cases, cmp_case);
  *out = s;
fail:
  if (d) closedir(d);
  ir_free(names, sizeof *names * (size_t)cap);
  if (st != TTREF_OK) {
    /* the message is complete; its file pointer would dangle once the arena goes */
    if (err) err->loc.file = NULL;
    conform_suite_free(s);
  }
  return st;
}

void conform_suite_free(conform_suite *s)
{
  if (!s) return;
  ir_arena_free(s->arena);
  ir_free(s, sizeof *s);
}
