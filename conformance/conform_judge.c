/*
 * conform_judge.c: maps a case output's mode and options (text, from the
 * suite) onto cmp_check, and adds the bit-pattern ULP-distance histogram the
 * reports draw.
 */
#include "config.h"
#include "conform_judge.h"
#include "cmp.h"
#include "fp.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir_base_fs.h"

enum opt_type { T_NUM, T_INT, T_BOOL, T_NAN, T_FMT };
#define MB(m) (1u << CMP_##m)

typedef enum conform_opt {
#define X(name, str, type, modes) OPT_##name,
#include "conform_option_list.h"
#undef X
  OPT_COUNT
} conform_opt;

static const struct {
  const char *name;
  int type;
  unsigned modes;
} opts[] = {
#define X(name, str, type, modes) {str, type, modes},
#include "conform_option_list.h"
#undef X
};

bool conform_judge_needs_bound(cmp_mode mode) { return mode == CMP_DOT_PRODUCT || mode == CMP_REDUCE; }

bool conform_judge_case_wants_precise(const conform_case *c)
{
  for (int k = 0; k < c->noutputs; k++) {
    if (conform_judge_needs_bound(c->outputs[k].mode)) return true;
    for (int i = 0; i < c->outputs[k].noptions; i++)
      if (strcmp(c->outputs[k].options[i].name, "precise") == 0 && strcmp(c->outputs[k].options[i].text, "true") == 0)
        return true;
  }
  return false;
}

static int opt_lookup(const char *s)
{
  for (int i = 0; i < OPT_COUNT; i++)
    if (strcmp(opts[i].name, s) == 0) return i;
  return -1;
}

/* Parse @p text as option @p i; false when it does not fit the option's type. */
static bool parse_opt(int i, const char *text, double *num, fp_format *fmt, cmp_nan_policy *nan)
{
  char *end;
  switch (opts[i].type) {
  case T_BOOL:
    if (strcmp(text, "true") == 0) *num = 1;
    else if (strcmp(text, "false") == 0) *num = 0;
    else return false;
    return true;
  case T_FMT: {
    conform_dtype d;
    if (!conform_dtype_lookup(text, &d) || conform_dtype_fp(d) < 0) return false;
    *fmt = (fp_format)conform_dtype_fp(d);
    return true;
  }
  case T_NAN:
    if (strcmp(text, "any") == 0) *nan = CMP_NAN_ANY;
    else if (strcmp(text, "same_sign") == 0) *nan = CMP_NAN_SAME_SIGN;
    else if (strcmp(text, "same_bits") == 0) *nan = CMP_NAN_SAME_BITS;
    else return false;
    return true;
  case T_INT: {
    long long v = strtoll(text, &end, 0);
    if (end == text || *end || v < 1) return false;
    *num = (double)v;
    return true;
  }
  default: *num = strtod(text, &end); return end != text && !*end && *num >= 0 && !isnan(*num);
  }
}

bool conform_judge_option_ok(cmp_mode m, const char *opt, const char *text, char *why, size_t n)
{
  double num;
  fp_format fmt;
  cmp_nan_policy nan;
  int i = opt_lookup(opt);
  if ((unsigned)m >= CMP_MODE_COUNT) return snprintf(why, n, "unknown compliance mode %d", (int)m), false;
  if (i < 0) return snprintf(why, n, "unknown option '%s'", opt), false;
  if (opts[i].modes && !(opts[i].modes & (1u << m)))
    return snprintf(why, n, "mode %s has no option '%s'", cmp_mode_name(m), opt), false;
  if (!parse_opt(i, text, &num, &fmt, &nan))
    return snprintf(why, n, "bad value '%s' for option '%s'", text, opt), false;
  return true;
}

/* Bit pattern as an ordered integer (negative patterns below positive). */
static int64_t ordered(uint64_t b, int bits)
{
  uint64_t sign = (uint64_t)1 << (bits - 1);
  return (b & sign) ? -(int64_t)(b & (sign - 1)) : (int64_t)b;
}

static uint64_t raw(const npy_array *a, int64_t i)
{
  const uint8_t *p = (const uint8_t *)a->data + i * a->elsize;
  switch (a->elsize) {
  case 1: return p[0];
  case 2: {
    uint16_t v;
    memcpy(&v, p, 2);
    return v;
  }
  case 4: {
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
  }
  default: {
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
  }
  }
}

static void histogram(conform_dtype dt, const npy_array *got, const npy_array *ref, int64_t hist[CONFORM_HIST_BINS])
{
  const int fmt = conform_dtype_fp(dt);
  const int bits = got->elsize * 8;
  for (int64_t i = 0; i < got->numel; i++) {
    uint64_t g = raw(got, i), r = raw(ref, i);
    uint64_t d;
    if (fmt >= 0) {
      bool gn = isnan(fp_decode((fp_format)fmt, g)), rn = isnan(fp_decode((fp_format)fmt, r));
      if (gn || rn) {
        hist[gn && rn ? 0 : 5]++;
        continue;
      }
      int64_t a = ordered(g, bits), b = ordered(r, bits);
      d = a > b ? (uint64_t)(a - b) : (uint64_t)(b - a);
    } else {
      int64_t a = (int64_t)g, b = (int64_t)r;
      d = a > b ? (uint64_t)a - (uint64_t)b : (uint64_t)b - (uint64_t)a;
    }
    hist[d >= 4 ? 4 : d]++;
  }
}

/* ---- unordered outputs: judged as multisets, both sides sorted by value ---- */

typedef struct skey {
  int64_t key, idx;
} skey;

static int skey_cmp(const void *a, const void *b)
{
  const skey *x = a, *y = b;
  if (x->key != y->key) return x->key < y->key ? -1 : 1;
  return (x->idx > y->idx) - (x->idx < y->idx); /* stable: a deterministic order for equal keys */
}

/* The sort key of element i: the value order (floats by ordered bit pattern, every NaN last). */
static int64_t sort_key(conform_dtype dt, const npy_array *a, int64_t i)
{
  const int fmt = conform_dtype_fp(dt);
  uint64_t b = raw(a, i);
  if (fmt >= 0) return isnan(fp_decode((fp_format)fmt, b)) ? INT64_MAX : ordered(b, a->elsize * 8);
  if (a->kind == 'i' && a->elsize < 8) { /* sign-extend */
    uint64_t sign = (uint64_t)1 << (a->elsize * 8 - 1);
    return (int64_t)((b ^ sign) - sign);
  }
  return (int64_t)b;
}

/* @p out = @p a permuted by @p perm (a copy owned by the caller, released with npy_free). */
static ttref_status permuted(const npy_array *a, const skey *perm, npy_array *out, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  *out = *a;
  out->data = NULL;
  if (a->nbytes == 0) goto fail;
  out->data = ir_alloc(a->nbytes);
  if (!out->data) FAIL(IR_ERR(err, TTREF_E_NOMEM, (ttref_loc){0}, "out of memory"));
  for (int64_t i = 0; i < a->numel; i++)
    memcpy((uint8_t *)out->data + i * a->elsize, (const uint8_t *)a->data + perm[i].idx * a->elsize, (size_t)a->elsize);
fail:
  return st;
}

static ttref_status sort_perm(conform_dtype dt, const npy_array *a, skey **out, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  skey *k = ir_calloc((size_t)a->numel + 1, sizeof *k);
  if (!k) FAIL(IR_ERR(err, TTREF_E_NOMEM, (ttref_loc){0}, "out of memory"));
  for (int64_t i = 0; i < a->numel; i++) k[i] = (skey){sort_key(dt, a, i), i};
  if (a->numel > 1) qsort(k, (size_t)a->numel, sizeof *k, skey_cmp);
fail:
  *out = k;
  return st;
}

static ttref_status judge_one(const conform_output *o, conform_dtype dt, const npy_array *got, const npy_array *ref,
                              const npy_array *precise, const npy_array *bound, bool ftz, const npy_array *ftz_ref,
                              conform_judgement *j, ttref_error *err);

ttref_status conform_judge_output(const conform_output *o, conform_dtype dt, const npy_array *got, const npy_array *ref,
                                  const npy_array *precise, const npy_array *bound, bool ftz, conform_judgement *j,
                                  ttref_error *err)
{
  return conform_judge_output_ftz(o, dt, got, ref, precise, bound, ftz, NULL, j, err);
}

ttref_status conform_judge_output_ftz(const conform_output *o, conform_dtype dt, const npy_array *got,
                                      const npy_array *ref, const npy_array *precise, const npy_array *bound, bool ftz,
                                      const npy_array *ftz_ref, conform_judgement *j, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  skey *pg = NULL, *pr = NULL;
  npy_array g = {0}, r = {0}, p = {0}, b = {0}, fz = {0};
  if (ftz_ref && (!ftz_ref->data || ftz_ref->numel != ref->numel || ftz_ref->elsize != ref->elsize)) ftz_ref = NULL;
  if (!o->unordered || got->numel != ref->numel)
    return judge_one(o, dt, got, ref, precise, bound, ftz, ftz_ref, j, err);
  /* got and ref each sorted by value; precise and bound follow ref's permutation */
  TRY(sort_perm(dt, got, &pg, err));
  TRY(sort_perm(dt, ref, &pr, err));
  TRY(permuted(got, pg, &g, err));
  TRY(permuted(ref, pr, &r, err));
  if (precise && precise->data && precise->numel == ref->numel) TRY(permuted(precise, pr, &p, err));
  if (bound && bound->data && bound->numel == ref->numel) TRY(permuted(bound, pr, &b, err));
  if (ftz_ref) { /* sorted by its own values: flushing keeps the order of the others */
    skey *pf = NULL;
    TRY(sort_perm(dt, ftz_ref, &pf, err));
    st = permuted(ftz_ref, pf, &fz, err);
    ir_free(pf, sizeof *pf * ((size_t)ftz_ref->numel + 1));
    TRY(st);
  }
  TRY(judge_one(o, dt, &g, &r, p.data ? &p : precise, b.data ? &b : bound, ftz, fz.data ? &fz : ftz_ref, j, err));
  if (j->worst_index >= 0) j->worst_index = pg[j->worst_index].idx; /* back to got's own position */
fail:
  npy_free(&g);
  npy_free(&r);
  npy_free(&p);
  npy_free(&b);
  npy_free(&fz);
  ir_free(pg, sizeof *pg * ((size_t)got->numel + 1));
  ir_free(pr, sizeof *pr * ((size_t)ref->numel + 1));
  return st;
}

static ttref_status judge_one(const conform_output *o, conform_dtype dt, const npy_array *got, const npy_array *ref,
                              const npy_array *precise, const npy_array *bound, bool ftz, const npy_array *ftz_ref,
                              conform_judgement *j, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  ttref_loc none = {0};
  cmp_mode m;
  cmp_options co;
  cmp_result r;
  bool use_precise = false;
  memset(j, 0, sizeof *j);
  j->worst_index = -1;
  m = o->mode;
  if ((unsigned)m >= CMP_MODE_COUNT) FAIL(IR_ERR(err, TTREF_E_INTERNAL, none, "unknown compliance mode %d", (int)m));
  cmp_options_default(m, &co);
  co.allow_ftz = ftz;
  for (int k = 0; k < o->noptions; k++) {
    int i = opt_lookup(o->options[k].name);
    double num = 0;
    fp_format fmt = CMP_FMT_NONE;
    cmp_nan_policy nan = CMP_NAN_ANY;
    if (i < 0 || !parse_opt(i, o->options[k].text, &num, &fmt, &nan))
      FAIL(IR_ERR(err, TTREF_E_INPUT, none, "bad option %s: %s", o->options[k].name, o->options[k].text));
    switch ((conform_opt)i) {
    case OPT_ULP: co.ulp = num; break;
    case OPT_ABS_TOL: co.abs_tol = num; break;
    case OPT_REL_TOL: co.rel_tol = num; break;
    case OPT_K: co.k = (int64_t)num; break;
    case OPT_ALLOW_FTZ: co.allow_ftz = num != 0; break;
    case OPT_NAN: co.nan = nan; break;
    case OPT_ALLOW_OVERFLOW_INF: co.allow_overflow_inf = num != 0; break;
    case OPT_QUALITY_FRACTION: co.quality_fraction = num; break;
    case OPT_ACC: co.acc = fmt; break;
    case OPT_ABS_BOUND: co.abs_bound = num; break;
    case OPT_VAR_BOUND: co.var_bound = num; break;
    case OPT_BIAS_TEST: co.bias_test = num != 0; break;
    case OPT_PRECISE: use_precise = num != 0; break;
    default: break;
    }
  }
  const bool needs = m == CMP_DOT_PRODUCT || m == CMP_REDUCE;
  if (needs && (co.k < 1))
    FAIL(IR_ERR(err, TTREF_E_INPUT, none, "mode %s of output '%s' needs option k", cmp_mode_name(m), o->name));
  if ((needs || use_precise) && (!precise || !precise->data || precise->numel != ref->numel))
    FAIL(IR_ERR(err, TTREF_E_INPUT, none, "output '%s' (mode %s) needs precise reference values", o->name,
                cmp_mode_name(m)));
  if (needs && (!bound || !bound->data || bound->numel != ref->numel))
    FAIL(IR_ERR(err, TTREF_E_INPUT, none, "output '%s' (mode %s) needs reference bounds", o->name, cmp_mode_name(m)));
  const int fmt = conform_dtype_fp(dt);
  TRY(cmp_check(m, fmt >= 0 ? (fp_format)fmt : CMP_FMT_NONE, got, ref,
                (needs || use_precise) ? (const double *)precise->data : NULL,
                needs ? (const double *)bound->data : NULL, co.allow_ftz ? ftz_ref : NULL, &co, &r, err));
  j->pass = r.pass;
  j->quality_warning = r.quality_warning;
  j->worst_index = r.worst.index;
  j->worst_got = r.worst.got;
  j->worst_ref = r.worst.ref;
  j->worst_bound = r.worst.bound;
  j->worst_err = r.worst.err;
  j->max_ratio = r.max_ratio;
  j->mean_ulp = r.mean_ulp;
  j->max_ulp = r.max_ulp;
  j->p99_ulp = r.p99_ulp;
  snprintf(j->reason, sizeof j->reason, "%s", r.reason);
  histogram(dt, got, ref, j->hist);
fail:
  return st;
}

void conform_judge_read_precise(const char *refdir, const char *name, npy_array *pre, npy_array *bnd)
{
  char path[4400];
  ttref_error e = {0};
  snprintf(path, sizeof path, "%s/%s.precise.npy", refdir, name);
  if (ir_fs_exists(path) && npy_read_bounded(path, NULL, SIZE_MAX, pre, &e) != TTREF_OK) npy_free(pre);
  snprintf(path, sizeof path, "%s/%s.bound.npy", refdir, name);
  if (ir_fs_exists(path) && npy_read_bounded(path, NULL, SIZE_MAX, bnd, &e) != TTREF_OK) npy_free(bnd);
}
