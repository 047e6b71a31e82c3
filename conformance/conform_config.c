/*
 * conform_config.c: reads backend config files with ir_yaml and answers
 * the runner's questions: may this case run, is its failure expected.
 */
#include "config.h"
#include "conform_config.h"
#include "conform_verdict.h"
#include "conform_key.h"
#include "ir_base_yaml.h"

#include <stdio.h>
#include <string.h>

#define K(x) CONFORM_KEYBIT(x)

ttref_status conform_config_default(conform_config **out, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  ttref_loc none = {0};
  conform_config *c = ir_calloc(1, sizeof *c);
  *out = NULL;
  if (!c || !(c->arena = ir_arena_new())) FAIL(IR_ERR(err, TTREF_E_NOMEM, none, "out of memory"));
  c->backend = "";
  c->version = "";
  c->device = "";
  c->features = (1u << CONFORM_FEATURE_COUNT) - 1;
  c->dtypes = (1u << CONFORM_DTYPE_COUNT) - 1;
  *out = c;
  c = NULL;
fail:
  conform_config_free(c);
  return st;
}

void conform_config_free(conform_config *c)
{
  if (!c) return;
  for (int i = 0; i < c->nxfail; i++) conform_pattern_free(&c->xfail[i].pat);
  for (int i = 0; i < c->nskip; i++) conform_pattern_free(&c->skip[i].pat);
  ir_arena_free(c->arena);
  ir_free(c, sizeof *c);
}

static ttref_status parse_list(ir_yaml *y, yaml_node_t *n, const char *what, conform_expect **out, int *nout)
{
  ttref_status st = TTREF_OK;
  yaml_node_t **it;
  int ni;
  TRY(ir_yaml_seq(y, n, what, &it, &ni));
  *out = ir_arena_alloc(y->arena, sizeof **out * (size_t)(ni + 1));
  if (!*out) FAIL(IR_ERR(y->err, TTREF_E_NOMEM, ir_yaml_loc(y, n), "out of memory"));
  memset(*out, 0, sizeof **out * (size_t)(ni + 1));
  for (int i = 0; i < ni; i++) {
    ir_yaml_pair *pr;
    int np;
    conform_expect *e = &(*out)[i];
    e->verdict = -1;
    e->loc = ir_yaml_loc(y, it[i]);
    TRY(ir_yaml_map(y, it[i], what, K(CASE) | K(REASON) | K(VERDICT), &pr, &np));
    for (int k = 0; k < np; k++) {
      if (pr[k].key == CONFORM_KEY_CASE) TRY(ir_yaml_str(y, pr[k].value, "case", &e->pattern));
      else if (pr[k].key == CONFORM_KEY_REASON) TRY(ir_yaml_str(y, pr[k].value, "reason", &e->reason));
      else {
        const char *s;
        conform_verdict v;
        TRY(ir_yaml_str(y, pr[k].value, "verdict", &s));
        if (!conform_verdict_lookup(s, &v) ||
            !(v == CONFORM_V_FAIL || v == CONFORM_V_ERROR || v == CONFORM_V_CRASH || v == CONFORM_V_TIMEOUT))
          FAIL(ir_yaml_fail(y, pr[k].value, "verdict must be FAIL, ERROR, CRASH or TIMEOUT, not '%s'", s));
        e->verdict = (int)v;
      }
    }
    if (!e->pattern) FAIL(ir_yaml_fail(y, it[i], "an entry of %s needs a 'case'", what));
    if (!e->reason || !*e->reason) FAIL(ir_yaml_fail(y, it[i], "an entry of %s needs a 'reason' (an issue URL)", what));
    if (e->pattern[0] == '^' && regcomp(&e->pat.re, e->pattern, REG_EXTENDED | REG_NOSUB) != 0)
      FAIL(ir_yaml_fail(y, it[i], "bad regex '%s' in %s", e->pattern, what));
    e->pat.text = e->pattern;
    e->pat.is_re = e->pattern[0] == '^';
    *nout = i + 1; /* the compiled entries, for conform_config_free */
  }
  *nout = ni;
fail:
  return st;
}

static ttref_status parse_caps(ir_yaml *y, yaml_node_t *n, conform_config *c)
{
  ttref_status st = TTREF_OK;
  ir_yaml_pair *pr;
  int np;
  TRY(ir_yaml_map(y, n, "capabilities", 0, &pr, &np));
  for (int i = 0; i < np; i++) {
    conform_feature f;
    bool b;
    yaml_node_t *v = pr[i].value;
    if (strcmp(pr[i].name, conform_key_name(CONFORM_KEY_FTZ)) == 0) {
      TRY(ir_yaml_bool(y, v, "ftz", &c->ftz));
    } else if (strcmp(pr[i].name, conform_key_name(CONFORM_KEY_DTYPES)) == 0) {
      yaml_node_t **it;
      int ni;
      TRY(ir_yaml_seq(y, v, "dtypes", &it, &ni));
      c->dtypes = 0;
      for (int k = 0; k < ni; k++) {
        const char *s;
        conform_dtype d;
        TRY(ir_yaml_str(y, it[k], "dtype", &s));
        if (!conform_dtype_lookup(s, &d)) FAIL(ir_yaml_fail(y, it[k], "unknown dtype '%s'", s));
        c->dtypes |= 1u << d;
      }
    } else if (conform_feature_lookup(pr[i].name, &f)) {
      if (f == CONFORM_FEAT_FP8 && ir_yaml_is_seq(v)) { /* fp8: [f8E4M3FN, f8E5M2] */
        yaml_node_t **it;
        int ni;
        TRY(ir_yaml_seq(y, v, "fp8", &it, &ni));
        for (int d = 0; d < CONFORM_DTYPE_COUNT; d++)
          if (conform_dtype_bytes((conform_dtype)d) == 1 && conform_dtype_fp((conform_dtype)d) >= 0)
            c->dtypes &= ~(1u << d);
        for (int k = 0; k < ni; k++) {
          const char *s;
          conform_dtype d;
          TRY(ir_yaml_str(y, it[k], "fp8 format", &s));
          if (!conform_dtype_lookup(s, &d) || conform_dtype_bytes(d) != 1 || conform_dtype_fp(d) < 0)
            FAIL(ir_yaml_fail(y, it[k], "'%s' is not an fp8 format", s));
          c->dtypes |= 1u << d;
        }
        b = ni > 0;
      } else {
        TRY(ir_yaml_bool(y, v, pr[i].name, &b));
      }
      if (b) c->features |= 1u << f;
      else c->features &= ~(1u << f);
    } else {
      FAIL(ir_yaml_fail(y, pr[i].knode, "unknown capability '%s'", pr[i].name));
    }
  }
fail:
  return st;
}

ttref_status conform_config_load(const char *path, conform_config **out, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  conform_config *c = NULL;
  ir_yaml y = {0};
  *out = NULL;
  TRY(conform_config_default(&c, err));
  TRY(ir_yaml_load(&y, path, NULL, c->arena, err));
  y.keys = conform_key_names;
  y.nkeys = CONFORM_KEY_COUNT;
  yaml_node_t *root = ir_yaml_root(&y);
  if (!root) FAIL(ir_error_set(err, TTREF_E_INPUT, (ttref_loc){path, 1, 1}, "empty config file"));
  ir_yaml_pair *pr;
  int np;
  TRY(ir_yaml_map(&y, root, "a backend config",
                  K(BACKEND) | K(BACKEND_VERSION) | K(DEVICE) | K(CAPABILITIES) | K(EXPECTED_FAILURES) | K(SKIP) |
                      K(TIMEOUT),
                  &pr, &np));
  for (int i = 0; i < np; i++) {
    yaml_node_t *v = pr[i].value;
    switch (pr[i].key) {
    case CONFORM_KEY_BACKEND: TRY(ir_yaml_str(&y, v, "backend", &c->backend)); break;
    case CONFORM_KEY_BACKEND_VERSION: TRY(ir_yaml_str(&y, v, "version", &c->version)); break;
    case CONFORM_KEY_DEVICE: TRY(ir_yaml_str(&y, v, "device", &c->device)); break;
    case CONFORM_KEY_CAPABILITIES: TRY(parse_caps(&y, v, c)); break;
    case CONFORM_KEY_EXPECTED_FAILURES: TRY(parse_list(&y, v, "expected_failures", &c->xfail, &c->nxfail)); break;
    case CONFORM_KEY_SKIP: TRY(parse_list(&y, v, "skip", &c->skip, &c->nskip)); break;
    case CONFORM_KEY_TIMEOUT:
      TRY(ir_yaml_num(&y, v, "timeout", &c->timeout));
      if (!(c->timeout > 0 && c->timeout <= 86400)) FAIL(ir_yaml_fail(&y, v, "timeout must be in (0, 86400] seconds"));
      break;
    default: break;
    }
  }
  *out = c;
  c = NULL;
fail:
  ir_yaml_free(&y);
  if (st != TTREF_OK && err) err->loc.file = NULL; /* the arena holding it is gone */
  conform_config_free(c);
  return st;
}

/* Glob with '*' and '?' only; linear backtracking over the last '*'. */
static bool glob(const char *p, const char *s)
{
  const char *star = NULL, *resume = NULL;
  while (*s) {
    if (*p == '*') {
      star = p++;
      resume = s;
    } else if (*p && (*p == '?' || *p == *s)) {
      p++;
      s++;
    } else if (star) {
      p = star + 1;
      s = ++resume;
    } else return false;
  }
  while (*p == '*') p++;
  return !*p;
}

ttref_status conform_pattern_compile(const char *text, const char *what, conform_pattern *p, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  memset(p, 0, sizeof *p);
  p->text = text;
  if (text[0] == '^') {
    if (regcomp(&p->re, text, REG_EXTENDED | REG_NOSUB) != 0)
      FAIL(IR_ERR(err, TTREF_E_USAGE, (ttref_loc){0}, "bad %s regex '%s'", what, text));
    p->is_re = true;
  }
fail:
  return st;
}

void conform_pattern_free(conform_pattern *p)
{
  if (p && p->is_re) regfree(&p->re);
  if (p) p->is_re = false;
}

bool conform_pattern_match(const conform_pattern *p, const char *id, const char *case_name)
{
  if (p->is_re) return regexec(&p->re, id, 0, NULL, 0) == 0 || regexec(&p->re, case_name, 0, NULL, 0) == 0;
  return glob(p->text, id) || glob(p->text, case_name);
}

const conform_expect *conform_config_match(const conform_expect *list, int n, const char *id, const char *case_name)
{
  for (int i = 0; i < n; i++)
    if (conform_pattern_match(&list[i].pat, id, case_name)) return &list[i];
  return NULL;
}

static ttref_status check_list(conform_expect *list, int nl, const char *what, const char *const *ids,
                               const char *const *cases, int n, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  for (int i = 0; i < nl; i++) {
    for (int k = 0; k < n && !list[i].used; k++) list[i].used = conform_pattern_match(&list[i].pat, ids[k], cases[k]);
    if (!list[i].used)
      FAIL(ir_error_set(err, TTREF_E_INPUT, list[i].loc,
                        "%s entry '%s' matches no item of the suite (patterns: docs/suite-format.md, Item patterns)",
                        what, list[i].pattern));
  }
fail:
  return st;
}

ttref_status conform_config_check_used(conform_config *cfg, const char *const *ids, const char *const *cases, int n,
                                       ttref_error *err)
{
  ttref_status st = TTREF_OK;
  TRY(check_list(cfg->xfail, cfg->nxfail, "expected_failures", ids, cases, n, err));
  TRY(check_list(cfg->skip, cfg->nskip, "skip", ids, cases, n, err));
fail:
  return st;
}

bool conform_config_supports(const conform_config *cfg, const conform_case *c, char *why, size_t n)
{
  for (int f = 0; f < CONFORM_FEATURE_COUNT; f++)
    if ((c->features & (1u << f)) && !(cfg->features & (1u << f)))
      return snprintf(why, n, "backend lacks feature %s", conform_feature_name((conform_feature)f)), false;
  for (int k = 0; k < c->ndtypes; k++)
    if (!(cfg->dtypes & (1u << c->dtypes[k])))
      return snprintf(why, n, "backend lacks dtype %s", conform_dtype_name(c->dtypes[k])), false;
  return true;
}
