/*
 * ir_base_yaml.c: libyaml's document API wrapped with located, typed getters
 * and key checking against a caller's key table.
 */
#define _GNU_SOURCE /* strcasecmp under -std=c11 */
#include "config.h"
#include "ir_base_yaml.h"
#include "ir_base_fs.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The index of @p s in the key table, or -1. */
static int key_lookup(const ir_yaml *y, const char *s)
{
  int n = y->keys && y->nkeys > 0 ? (y->nkeys < 64 ? y->nkeys : 64) : 0;
  for (int k = 0; k < n; k++)
    if (y->keys[k] && strcmp(y->keys[k], s) == 0) return k;
  return -1;
}

ttref_loc ir_yaml_loc(const ir_yaml *y, const yaml_node_t *n)
{
  ttref_loc l = {y->file, 0, 0};
  if (n) {
    l.line = (int)n->start_mark.line + 1;
    l.col = (int)n->start_mark.column + 1;
  }
  return l;
}

ttref_status ir_yaml_fail(ir_yaml *y, const yaml_node_t *n, const char *fmt, ...)
{
  char msg[400];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  return ir_error_set(y->err, TTREF_E_INPUT, ir_yaml_loc(y, n), "%s", msg);
}

/* A libyaml parser error at its problem mark. */
static ttref_status syntax_err(ttref_error *err, const char *file, const char *kind, const yaml_parser_t *p)
{
  ttref_loc l = {file, (int)p->problem_mark.line + 1, (int)p->problem_mark.column + 1};
  const char *problem = p->problem ? p->problem : "syntax error";
  if (kind) return ir_error_set(err, TTREF_E_INPUT, l, "bad YAML: %s", problem);
  return ir_error_set(err, TTREF_E_INPUT, l, "yaml: %s%s%s", problem, p->context ? " " : "",
                      p->context ? p->context : "");
}

ttref_status ir_yaml_load(ir_yaml *y, const char *file, const char *kind, ir_arena *arena, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  yaml_parser_t p;
  bool pinit = false;
  memset(y, 0, sizeof *y);
  y->file = file;
  y->arena = arena;
  y->err = err;
  FILE *f = NULL;
  TRY(ir_fs_fopen_regular(file, true, &f, err)); /* a FIFO or device is an error, never a hang */
  if (!yaml_parser_initialize(&p)) {
    ttref_loc none = {0};
    FAIL(IR_ERR(err, TTREF_E_NOMEM, none, "out of memory"));
  }
  pinit = true;
  yaml_parser_set_input_file(&p, f);
  if (!yaml_parser_load(&p, &y->doc)) FAIL(syntax_err(err, file, kind, &p));
  y->loaded = true;
  { /* one document per file: a second one would otherwise be ignored silently */
    yaml_document_t doc2;
    if (!yaml_parser_load(&p, &doc2)) FAIL(syntax_err(err, file, kind, &p));
    ttref_loc l2 = {file, (int)doc2.start_mark.line + 1, (int)doc2.start_mark.column + 1};
    bool more = yaml_document_get_root_node(&doc2) != NULL;
    yaml_document_delete(&doc2);
    if (more && kind)
      FAIL(ir_error_set(err, TTREF_E_INPUT, l2, "a %s holds one YAML document; a second one starts here", kind));
    if (more)
      FAIL(ir_error_set(err, TTREF_E_INPUT, l2, "a YAML file here holds one document; a second one starts here"));
  }
fail:
  if (pinit) yaml_parser_delete(&p);
  if (f) fclose(f);
  return st;
}

void ir_yaml_free(ir_yaml *y)
{
  if (y && y->loaded) yaml_document_delete(&y->doc);
  if (y) y->loaded = false;
}

yaml_node_t *ir_yaml_root(ir_yaml *y) { return y->loaded ? yaml_document_get_root_node(&y->doc) : NULL; }

bool ir_yaml_is_scalar(const yaml_node_t *n) { return n && n->type == YAML_SCALAR_NODE; }
bool ir_yaml_is_seq(const yaml_node_t *n) { return n && n->type == YAML_SEQUENCE_NODE; }
bool ir_yaml_is_map(const yaml_node_t *n) { return n && n->type == YAML_MAPPING_NODE; }

static const char *kind_name(const yaml_node_t *n)
{
  if (!n) return "nothing";
  return n->type == YAML_SCALAR_NODE ? "a scalar" : n->type == YAML_SEQUENCE_NODE ? "a list" : "a mapping";
}

/* by name, then document order */
static int cmp_pair(const void *a, const void *b)
{
  const ir_yaml_pair *p = *(const ir_yaml_pair *const *)a, *q = *(const ir_yaml_pair *const *)b;
  int c = strcmp(p->name, q->name);
  return c ? c : (p > q) - (p < q);
}

ttref_status ir_yaml_map(ir_yaml *y, yaml_node_t *n, const char *what, uint64_t allowed, ir_yaml_pair **out_pairs,
                         int *out_n)
{
  ttref_status st = TTREF_OK;
  *out_pairs = NULL;
  *out_n = 0;
  if (!ir_yaml_is_map(n)) FAIL(ir_yaml_fail(y, n, "%s must be a mapping, not %s", what, kind_name(n)));
  int cnt = (int)(n->data.mapping.pairs.top - n->data.mapping.pairs.start);
  ir_yaml_pair *pairs = ir_arena_alloc(y->arena, sizeof *pairs * (size_t)(cnt + 1));
  if (!pairs) FAIL(IR_ERR(y->err, TTREF_E_NOMEM, ir_yaml_loc(y, n), "out of memory"));
  for (int i = 0; i < cnt; i++) {
    yaml_node_pair_t *pr = n->data.mapping.pairs.start + i;
    yaml_node_t *k = yaml_document_get_node(&y->doc, pr->key);
    yaml_node_t *v = yaml_document_get_node(&y->doc, pr->value);
    if (!ir_yaml_is_scalar(k)) FAIL(ir_yaml_fail(y, k, "keys of %s must be scalars", what));
    const char *name = ir_arena_strndup(y->arena, (const char *)k->data.scalar.value, k->data.scalar.length);
    if (!name) FAIL(IR_ERR(y->err, TTREF_E_NOMEM, ir_yaml_loc(y, k), "out of memory"));
    int key = -1;
    if (allowed) {
      key = key_lookup(y, name);
      if (key < 0) FAIL(ir_yaml_fail(y, k, "unknown key '%s' in %s", name, what));
      if (!(allowed & ((uint64_t)1 << key))) FAIL(ir_yaml_fail(y, k, "key '%s' is not allowed in %s", name, what));
    }
    for (int j = 0; j < i && cnt <= 32; j++)
      if (strcmp(pairs[j].name, name) == 0) FAIL(ir_yaml_fail(y, k, "duplicate key '%s' in %s", name, what));
    pairs[i].key = key;
    pairs[i].name = name;
    pairs[i].knode = k;
    pairs[i].value = v;
  }
  if (cnt > 32) { /* large maps: sort instead of comparing every pair */
    const ir_yaml_pair **by = ir_arena_alloc(y->arena, sizeof *by * (size_t)cnt);
    if (!by) FAIL(IR_ERR(y->err, TTREF_E_NOMEM, ir_yaml_loc(y, n), "out of memory"));
    for (int i = 0; i < cnt; i++) by[i] = &pairs[i];
    if (cnt > 1) qsort(by, (size_t)cnt, sizeof *by, cmp_pair);
    const ir_yaml_pair *dup = NULL; /* the earliest key that repeats an earlier one */
    for (int i = 1; i < cnt; i++)
      if (strcmp(by[i - 1]->name, by[i]->name) == 0 && (!dup || by[i] < dup)) dup = by[i];
    if (dup) FAIL(ir_yaml_fail(y, dup->knode, "duplicate key '%s' in %s", dup->name, what));
  }
  *out_pairs = pairs;
  *out_n = cnt;
fail:
  return st;
}

ttref_status ir_yaml_seq(ir_yaml *y, yaml_node_t *n, const char *what, yaml_node_t ***out_items, int *out_n)
{
  ttref_status st = TTREF_OK;
  *out_items = NULL;
  *out_n = 0;
  if (!ir_yaml_is_seq(n)) FAIL(ir_yaml_fail(y, n, "%s must be a list, not %s", what, kind_name(n)));
  int cnt = (int)(n->data.sequence.items.top - n->data.sequence.items.start);
  yaml_node_t **items = ir_arena_alloc(y->arena, sizeof *items * (size_t)(cnt + 1));
  if (!items) FAIL(IR_ERR(y->err, TTREF_E_NOMEM, ir_yaml_loc(y, n), "out of memory"));
  for (int i = 0; i < cnt; i++) items[i] = yaml_document_get_node(&y->doc, n->data.sequence.items.start[i]);
  *out_items = items;
  *out_n = cnt;
fail:
  return st;
}

ttref_status ir_yaml_str(ir_yaml *y, yaml_node_t *n, const char *what, const char **out)
{
  ttref_status st = TTREF_OK;
  if (!ir_yaml_is_scalar(n)) FAIL(ir_yaml_fail(y, n, "%s must be a scalar, not %s", what, kind_name(n)));
  *out = ir_arena_strndup(y->arena, (const char *)n->data.scalar.value, n->data.scalar.length);
  if (!*out) FAIL(IR_ERR(y->err, TTREF_E_NOMEM, ir_yaml_loc(y, n), "out of memory"));
  if (strlen(*out) != n->data.scalar.length) FAIL(ir_yaml_fail(y, n, "%s contains a NUL byte", what));
fail:
  return st;
}

ttref_status ir_yaml_int(ir_yaml *y, yaml_node_t *n, const char *what, int64_t lo, int64_t hi, int64_t *out)
{
  ttref_status st = TTREF_OK;
  const char *s;
  TRY(ir_yaml_str(y, n, what, &s));
  char *end;
  errno = 0;
  long long v = strtoll(s, &end, 0);
  if (end == s || *end || errno) FAIL(ir_yaml_fail(y, n, "%s must be an integer, not '%s'", what, s));
  if (v < lo || v > hi)
    FAIL(ir_yaml_fail(y, n, "%s must be in [%lld, %lld], not %lld", what, (long long)lo, (long long)hi, v));
  *out = v;
fail:
  return st;
}

ttref_status ir_yaml_num(ir_yaml *y, yaml_node_t *n, const char *what, double *out)
{
  ttref_status st = TTREF_OK;
  const char *s;
  TRY(ir_yaml_str(y, n, what, &s));
  const char *t = s[0] == '+' || s[0] == '-' ? s + 1 : s;
  double sign = s[0] == '-' ? -1.0 : 1.0;
  if (strcasecmp(t, "inf") == 0 || strcasecmp(t, ".inf") == 0) *out = sign * (double)INFINITY;
  else if (strcasecmp(t, "nan") == 0 || strcasecmp(t, ".nan") == 0) *out = sign < 0 ? -(double)NAN : (double)NAN;
  else {
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end) FAIL(ir_yaml_fail(y, n, "%s must be a number, not '%s'", what, s));
    *out = v;
  }
fail:
  return st;
}

ttref_status ir_yaml_bool(ir_yaml *y, yaml_node_t *n, const char *what, bool *out)
{
  ttref_status st = TTREF_OK;
  const char *s;
  TRY(ir_yaml_str(y, n, what, &s));
  if (strcmp(s, "true") == 0) *out = true;
  else if (strcmp(s, "false") == 0) *out = false;
  else FAIL(ir_yaml_fail(y, n, "%s must be true or false, not '%s'", what, s));
fail:
  return st;
}
