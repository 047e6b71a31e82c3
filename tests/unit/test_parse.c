/*
 * test_parse.c: unit tests of the TTIR front end (ir_lex, ir_parse, ir_print):
 * round trips over every .ttir under $TTREF_TEST_DATA/ttir (default
 * tests/data/ttir), expected errors for the files in bad/, and hostile inputs.
 * The large-file tests write 10 MB files under `make check` and 100 MB ones under
 * `make check-full` (TTREF_CHECK_FULL=1).
 * Over 1000 lines on purpose: one cmocka group per binary (STYLE.md) keeps the tests of
 * the TTIR front end in one file, sharing its fixtures; tests/unit/unit_fixture.c holds what files share.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include "ir.h"
#include "ir_lex.h"
#include "ir_parse.h"
#include "ir_print.h"
#include "ir_verify.h"
#include "unit_fixture.h"

/* ---- helpers ---------------------------------------------------------------- */
/* the size of the generated large files: 100 MB in the full tier, 10 MB in the quick one */
static size_t big_bytes(void)
{
  const char *full = getenv("TTREF_CHECK_FULL");
  return full && *full && strcmp(full, "0") != 0 ? 100u * 1000 * 1000 : 10u * 1000 * 1000;
}

static char *read_all(const char *path, size_t *len)
{
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  size_t cap = 1 << 16, n = 0;
  char *b = malloc(cap);
  size_t k;
  while (b && (k = fread(b + n, 1, cap - n, f)) > 0) {
    n += k;
    if (n == cap) b = realloc(b, cap *= 2);
  }
  fclose(f);
  *len = n;
  return b;
}

/* print a module into a malloc'd string */
static char *print_str(const ir_module *m, size_t *len)
{
  char *buf = NULL;
  size_t n = 0;
  FILE *f = open_memstream(&buf, &n);
  assert_non_null(f);
  ttref_error e = {0};
  ttref_status st = ir_print_module(m, f, &e);
  fclose(f);
  if (st) print_error("print failed: %s\n", e.msg);
  assert_int_equal(st, TTREF_OK);
  *len = n;
  return buf;
}

static ir_module *parse_ok(const char *name, const char *text, size_t len)
{
  ir_module *m = NULL;
  ttref_error e = {0};
  ttref_status st = ir_parse_string(name, text, len, &m, &e);
  if (st) print_error("%s\n%s\n", e.msg, e.note);
  assert_int_equal(st, TTREF_OK);
  assert_non_null(m);
  return m;
}

/* ---- structural equality ------------------------------------------------------- */
static int fails;
#define CHECK(c, ...)                                                                                                  \
  do {                                                                                                                 \
    if (!(c)) {                                                                                                        \
      if (fails++ < 5) print_error(__VA_ARGS__);                                                                       \
      return false;                                                                                                    \
    }                                                                                                                  \
  } while (0)

static bool type_equal(const ir_type *a, const ir_type *b)
{
  char x[512], y[512];
  if (!a || !b) return a == b;
  ir_type_str(a, x, sizeof x);
  ir_type_str(b, y, sizeof y);
  return strcmp(x, y) == 0;
}

static bool str_eq(const char *a, const char *b) { return (!a || !b) ? a == b : strcmp(a, b) == 0; }

static bool loc_equal(const ir_loc *a, const ir_loc *b)
{
  if (!a || !b) return a == b;
  CHECK(a->kind == b->kind, "loc kind %d != %d\n", a->kind, b->kind);
  CHECK(str_eq(a->str, b->str), "loc str differs\n");
  if (a->kind == IR_L_ALIAS) return true; /* compared through the alias table */
  CHECK(a->line == b->line && a->col == b->col, "loc line/col differ\n");
  CHECK(a->nitems == b->nitems, "fused size differs\n");
  for (int i = 0; i < a->nitems; i++)
    if (!loc_equal(a->items[i], b->items[i])) return false;
  return loc_equal(a->a, b->a) && loc_equal(a->b, b->b);
}

static bool attr_equal(const ir_attr *a, const ir_attr *b)
{
  CHECK(str_eq(a->name, b->name), "attr name %s != %s\n", a->name, b->name);
  CHECK(a->kind == b->kind, "attr %s kind %d != %d\n", a->name, a->kind, b->kind);
  CHECK(type_equal(a->type, b->type), "attr %s type differs\n", a->name);
  CHECK(a->i == b->i && memcmp(&a->f, &b->f, sizeof a->f) == 0, "attr %s value differs\n", a->name);
  CHECK(a->slen == b->slen && (!a->slen || memcmp(a->s, b->s, a->slen) == 0), "attr %s string differs\n", a->name);
  CHECK(a->nints == b->nints && (!a->nints || !memcmp(a->ints, b->ints, sizeof(int64_t) * (size_t)a->nints)),
        "attr %s ints differ\n", a->name);
  CHECK(a->nvals == b->nvals && a->splat == b->splat && a->hex == b->hex, "attr %s dense shape differs\n", a->name);
  for (int64_t i = 0; i < a->nvals; i++)
    CHECK(!memcmp(&a->vals[i], &b->vals[i], sizeof a->vals[i]), "attr %s element %lld differs\n", a->name,
          (long long)i);
  CHECK(a->nitems == b->nitems, "attr %s item count differs\n", a->name);
  for (int i = 0; i < a->nitems; i++)
    if (!attr_equal(&a->items[i], &b->items[i])) return false;
  return true;
}

static bool attrs_equal(const ir_attr *a, int na, const ir_attr *b, int nb)
{
  CHECK(na == nb, "attribute count %d != %d\n", na, nb);
  for (int i = 0; i < na; i++)
    if (!attr_equal(&a[i], &b[i])) return false;
  return true;
}

static bool value_equal(const ir_value *a, const ir_value *b)
{
  CHECK(a && b, "null value\n");
  CHECK(str_eq(a->name, b->name), "value name %s != %s\n", a->name, b->name);
  CHECK(type_equal(a->type, b->type), "value %s type differs\n", a->name);
  CHECK(a->index == b->index && a->id == b->id, "value %s index/id differs\n", a->name);
  return loc_equal(a->loc, b->loc);
}

static bool region_equal(const ir_region *a, const ir_region *b);

static bool op_equal(const ir_op *a, const ir_op *b)
{
  CHECK(a->code == b->code, "op %s != %s (line %d)\n", ir_op_name(a->code), ir_op_name(b->code), a->line);
  CHECK(a->nopnds == b->nopnds && a->nres == b->nres && a->nregions == b->nregions && a->nsuccs == b->nsuccs,
        "op %s arity differs (line %d)\n", ir_op_name(a->code), a->line);
  CHECK(str_eq(a->group, b->group) && str_eq(a->callee, b->callee), "op %s group/callee differs\n",
        ir_op_name(a->code));
  for (int i = 0; i < a->nopnds; i++)
    if (!value_equal(a->opnds[i], b->opnds[i])) return false;
  for (int i = 0; i < a->nres; i++)
    if (!value_equal(&a->res[i], &b->res[i])) return false;
  if (!attrs_equal(a->attrs, a->nattrs, b->attrs, b->nattrs)) return false;
  if (!loc_equal(a->loc, b->loc)) return false;
  for (int s = 0; s < a->nsuccs; s++) {
    CHECK(str_eq(a->succs[s].block->label, b->succs[s].block->label), "successor differs\n");
    CHECK(a->succs[s].nargs == b->succs[s].nargs, "successor arg count differs\n");
    for (int i = 0; i < a->succs[s].nargs; i++)
      if (!value_equal(a->succs[s].args[i], b->succs[s].args[i])) return false;
  }
  if (a->callee)
    CHECK(a->callee_fn && b->callee_fn && str_eq(a->callee_fn->name, b->callee_fn->name), "callee unresolved\n");
  for (int r = 0; r < a->nregions; r++)
    if (!region_equal(&a->regions[r], &b->regions[r])) return false;
  return true;
}

static bool region_equal(const ir_region *a, const ir_region *b)
{
  CHECK(a->nblocks == b->nblocks, "block count differs\n");
  for (int k = 0; k < a->nblocks; k++) {
    const ir_block *x = a->blocks[k], *y = b->blocks[k];
    CHECK(x->nargs == y->nargs && x->nops == y->nops, "block shape differs\n");
    if (k) CHECK(str_eq(x->label, y->label), "block label differs\n");
    for (int i = 0; i < x->nargs; i++)
      if (!value_equal(&x->args[i], &y->args[i])) return false;
    for (int i = 0; i < x->nops; i++)
      if (!op_equal(x->ops[i], y->ops[i])) return false;
  }
  return true;
}

static const ir_alias *find_alias(const ir_module *m, const char *name)
{
  for (int i = 0; i < m->naliases; i++)
    if (!strcmp(m->aliases[i].name, name)) return &m->aliases[i];
  return NULL;
}

static bool module_equal(const ir_module *a, const ir_module *b)
{
  fails = 0;
  CHECK(a->nfuncs == b->nfuncs, "function count differs\n");
  if (!attrs_equal(a->attrs, a->nattrs, b->attrs, b->nattrs) || !loc_equal(a->loc, b->loc)) return false;
  for (int f = 0; f < a->nfuncs; f++) {
    const ir_func *x = a->funcs[f], *y = b->funcs[f];
    CHECK(str_eq(x->name, y->name) && x->is_public == y->is_public, "function header differs\n");
    CHECK(x->nargs == y->nargs && x->nres == y->nres && x->nvalues == y->nvalues, "function %s signature differs\n",
          x->name);
    for (int i = 0; i < x->nres; i++) CHECK(type_equal(x->res_types[i], y->res_types[i]), "result type differs\n");
    for (int i = 0; i < x->nargs; i++)
      if (!attrs_equal(x->arg_attrs[i], x->arg_nattrs[i], y->arg_attrs[i], y->arg_nattrs[i])) return false;
    if (!attrs_equal(x->attrs, x->nattrs, y->attrs, y->nattrs) || !loc_equal(x->loc, y->loc)) return false;
    if (!region_equal(&x->body, &y->body)) return false;
  }
  /* every loc alias of a is defined the same way in b (unused ones may be dropped by neither) */
  CHECK(a->naliases == b->naliases, "alias count %d != %d\n", a->naliases, b->naliases);
  for (int i = 0; i < a->naliases; i++) {
    const ir_alias *y = find_alias(b, a->aliases[i].name);
    CHECK(y, "alias #%s missing\n", a->aliases[i].name);
    if (a->aliases[i].loc || y->loc) {
      if (!loc_equal(a->aliases[i].loc, y->loc)) return false;
    } else {
      CHECK(!strcmp(a->aliases[i].text, y->text), "alias #%s text differs\n", a->aliases[i].name);
    }
  }
  return true;
}

/* ---- core IR obligations: dense ids, parents, resolved callees ---------------------- */
static void check_region_links(const ir_region *r, const ir_func *f, unsigned char *seen)
{
  assert_ptr_equal(r->func, f);
  for (int k = 0; k < r->nblocks; k++) {
    const ir_block *b = r->blocks[k];
    assert_ptr_equal(b->parent, r);
    for (int i = 0; i < b->nargs; i++) {
      assert_true(b->args[i].id < f->nvalues);
      assert_false(seen[b->args[i].id]);
      seen[b->args[i].id] = 1;
      assert_ptr_equal(b->args[i].block, b);
    }
    for (int i = 0; i < b->nops; i++) {
      const ir_op *op = b->ops[i];
      assert_ptr_equal(op->parent, b);
      for (int j = 0; j < op->nres; j++) {
        assert_true(op->res[j].id < f->nvalues);
        assert_false(seen[op->res[j].id]);
        seen[op->res[j].id] = 1;
        assert_ptr_equal(op->res[j].def, op);
        assert_non_null(op->res[j].type);
      }
      for (int j = 0; j < op->nopnds; j++) assert_true(op->opnds[j]->id < f->nvalues);
      if (op->code == IR_OP_CALL) assert_non_null(op->callee_fn);
      for (int j = 0; j < op->nregions; j++) {
        assert_ptr_equal(op->regions[j].parent, op);
        check_region_links(&op->regions[j], f, seen);
      }
    }
  }
}

static void check_links(const ir_module *m)
{
  for (int i = 0; i < m->nfuncs; i++) {
    const ir_func *f = m->funcs[i];
    unsigned char *seen = calloc(f->nvalues + 1, 1);
    assert_non_null(seen);
    assert_null(f->body.parent);
    check_region_links(&f->body, f, seen);
    for (uint32_t k = 0; k < f->nvalues; k++) assert_true(seen[k]);
    free(seen);
  }
}

/* parse, print, reparse, reprint: idempotent and structurally equal */
static void roundtrip_file(const char *path)
{
  size_t len, l1, l2;
  char *text = read_all(path, &len);
  assert_non_null(text);
  ir_module *m1 = parse_ok(path, text, len);
  check_links(m1);
  char *p1 = print_str(m1, &l1);
  ir_module *m2 = parse_ok("<printed>", p1, l1);
  check_links(m2);
  char *p2 = print_str(m2, &l2);
  if (l1 != l2 || memcmp(p1, p2, l1) != 0) print_error("%s: fmt(fmt(x)) != fmt(x)\n", path);
  assert_true(l1 == l2 && memcmp(p1, p2, l1) == 0);
  if (!module_equal(m1, m2)) print_error("%s: parse(fmt(x)) differs from parse(x)\n", path);
  assert_true(module_equal(m1, m2));
  ir_module_free(m1);
  ir_module_free(m2);
  free(text);
  free(p1);
  free(p2);
}

static int for_each_ttir(const char *dir, void (*fn)(const char *))
{
  DIR *d = opendir(dir);
  if (!d) return -1;
  struct dirent *e;
  char *names[1024];
  int n = 0;
  while ((e = readdir(d)) && n < 1024) {
    size_t k = strlen(e->d_name);
    if (k > 5 && !strcmp(e->d_name + k - 5, ".ttir")) names[n++] = strdup(e->d_name);
  }
  closedir(d);
  for (int i = 0; i < n; i++) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, names[i]);
    fn(path);
    free(names[i]);
  }
  return n;
}

/* print without cmocka asserts (the corpus test reports every failing file) */
static char *print_soft(const ir_module *m, size_t *len, ttref_error *e)
{
  char *buf = NULL;
  size_t n = 0;
  FILE *f = open_memstream(&buf, &n);
  if (!f) return NULL;
  ttref_status st = ir_print_module(m, f, e);
  fclose(f);
  if (st) {
    free(buf);
    return NULL;
  }
  *len = n;
  return buf;
}

/* parse, verify, print, reparse, reprint one file; "" on success, else why */
static void corpus_check(const char *path, char *why, size_t n)
{
  size_t len = 0, l1 = 0, l2 = 0;
  ir_module *m1 = NULL, *m2 = NULL;
  char *p1 = NULL, *p2 = NULL;
  ttref_error e = {0};
  char *text = read_all(path, &len);
  why[0] = 0;
  if (!text) snprintf(why, n, "unreadable");
  else if (ir_parse_string(path, text, len, &m1, &e)) snprintf(why, n, "parse: %s", e.msg);
  else if (ir_verify_module(m1, &e)) snprintf(why, n, "verify: %s", e.msg);
  else if (!(p1 = print_soft(m1, &l1, &e))) snprintf(why, n, "print: %s", e.msg);
  else if (ir_parse_string("<printed>", p1, l1, &m2, &e)) snprintf(why, n, "reparse: %s", e.msg);
  else if (!(p2 = print_soft(m2, &l2, &e))) snprintf(why, n, "reprint: %s", e.msg);
  else if (l1 != l2 || memcmp(p1, p2, l1) != 0) snprintf(why, n, "fmt(fmt(x)) != fmt(x)");
  else if (!module_equal(m1, m2)) snprintf(why, n, "parse(fmt(x)) differs from parse(x)");
  ir_module_free(m1);
  ir_module_free(m2);
  free(text);
  free(p1);
  free(p2);
}

/* $TTREF_TEST_DATA/corpus/SET/KERNEL/kernel.ttir, sorted; returns the count */
static int list_corpus(char ***out)
{
  char dir[4096];
  snprintf(dir, sizeof dir, "%s/corpus", unit_data_dir());
  int n = 0, cap = 0;
  char **v = NULL;
  DIR *d = opendir(dir);
  if (!d) return 0;
  struct dirent *s;
  while ((s = readdir(d))) {
    if (s->d_name[0] == '.') continue;
    char sub[4352];
    snprintf(sub, sizeof sub, "%s/%s", dir, s->d_name);
    DIR *k = opendir(sub);
    if (!k) continue; /* README.md */
    struct dirent *e;
    while ((e = readdir(k))) {
      if (e->d_name[0] == '.') continue;
      char path[4700];
      snprintf(path, sizeof path, "%s/%s/kernel.ttir", sub, e->d_name);
      if (access(path, R_OK) != 0) continue;
      if (n == cap) {
        cap = cap ? cap * 2 : 512;
        v = realloc(v, sizeof *v * (size_t)cap);
        assert_non_null(v);
      }
      v[n++] = strdup(path);
    }
    closedir(k);
  }
  closedir(d);
  for (int i = 1; i < n; i++) /* insertion sort: stable report order */
    for (int j = i; j > 0 && strcmp(v[j - 1], v[j]) > 0; j--) {
      char *t = v[j];
      v[j] = v[j - 1];
      v[j - 1] = t;
    }
  *out = v;
  return n;
}

/* ---- tests --------------------------------------------------------------------- */
static void test_parse_corpus_roundtrips(void **state)
{
  (void)state;
  char dir[4096];
  snprintf(dir, sizeof dir, "%s/ttir", unit_data_dir());
  int n = for_each_ttir(dir, roundtrip_file);
  assert_true(n >= 25); /* the Triton 3.6 corpus */
}

/* every Triton 3.6 kernel of the regression corpus: parse, verify, print,
 * reparse and reprint give byte-identical prints and equal IR */
static void test_parse_regression_corpus_roundtrips(void **state)
{
  (void)state;
  char **files = NULL;
  int n = list_corpus(&files), bad = 0;
  for (int i = 0; i < n; i++) {
    char why[600];
    corpus_check(files[i], why, sizeof why);
    if (why[0] && bad++ < 50) print_error("%s: %s\n", files[i], why);
    free(files[i]);
  }
  free(files);
  print_message("%d corpus files, %d failing\n", n, bad);
  assert_int_equal(bad, 0);
  assert_true(n >= 500); /* triton-3.6-h100 plus triton-3.6-h100-gen */
}

static void test_parse_every_op_format_roundtrips(void **state)
{
  (void)state;
  char dir[4096];
  snprintf(dir, sizeof dir, "%s/ttir/ops", unit_data_dir());
  assert_true(for_each_ttir(dir, roundtrip_file) >= 8);
}

/* inputs the fuzzer found (tests/data/ttir/fuzz/): they parse (some do not verify) and
 * fmt must still be idempotent and faithful on them */
static void test_parse_fuzz_findings_roundtrip(void **state)
{
  (void)state;
  char dir[4096];
  snprintf(dir, sizeof dir, "%s/ttir/fuzz", unit_data_dir());
  assert_true(for_each_ttir(dir, roundtrip_file) >= 1);
}

/* ---- regular rows of the op table ------------------------------------------------ */
/* Element types a row's type rule accepts (good) and one it must reject (bad). */
typedef struct rule_types {
  const char *in, *out, *bad_in, *bad_out, *pred;
} rule_types;

static rule_types types_for(ir_type_rule r)
{
  switch (r) {
  case IR_TR_SAME_INT: return (rule_types){"i32", "i32", "f32", "f32", NULL};
  case IR_TR_SAME_FLOAT: return (rule_types){"f32", "f32", "i32", "i32", NULL};
  case IR_TR_CMP_INT: return (rule_types){"i32", "i1", "f32", "i1", "slt"};
  case IR_TR_CMP_FLOAT: return (rule_types){"f32", "i1", "i32", "i1", "olt"};
  case IR_TR_INT_WIDER: return (rule_types){"i16", "i32", "i32", "i16", NULL};
  case IR_TR_INT_NARROWER: return (rule_types){"i32", "i16", "i16", "i32", NULL};
  case IR_TR_INT_INT: return (rule_types){"i32", "i64", "f32", "i64", NULL};
  case IR_TR_FLOAT_WIDER: return (rule_types){"f16", "f32", "f32", "f16", NULL};
  case IR_TR_FLOAT_NARROWER: return (rule_types){"f32", "f16", "f16", "f32", NULL};
  case IR_TR_INT_FLOAT: return (rule_types){"i32", "f32", "f32", "f32", NULL};
  case IR_TR_FLOAT_INT: return (rule_types){"f32", "i32", "i32", "i32", NULL};
  case IR_TR_BITCAST: return (rule_types){"f32", "i32", "f32", "i16", NULL};
  case IR_TR_CUSTOM: break;
  }
  return (rule_types){NULL, NULL, NULL, NULL, NULL};
}

/* The op line of a regular row with element types in/out (tensor<4x...>), in canonical form. */
static void regular_op_line(ir_opcode c, const char *pred, const char *in, const char *out, char *b, size_t n)
{
  static const char *const opnd[] = {"%a", "%a, %b", "%a, %b, %c"};
  int k = ir_op_nopnds(c);
  assert_true(k >= 1 && k <= 3);
  ir_syntax syn = ir_op_syntax(c);
  if (syn == IR_SYN_CMP) snprintf(b, n, "%%r = %s %s, %s : tensor<4x%s>", ir_op_name(c), pred, opnd[k - 1], in);
  else if (syn == IR_SYN_SAME) snprintf(b, n, "%%r = %s %s : tensor<4x%s>", ir_op_name(c), opnd[k - 1], in);
  else snprintf(b, n, "%%r = %s %s : tensor<4x%s> to tensor<4x%s>", ir_op_name(c), opnd[k - 1], in, out);
}

static ttref_status regular_module(ir_opcode c, const char *pred, const char *in, const char *out, ir_module **m,
                                   ttref_error *e, char *line, size_t nline)
{
  char text[1024];
  regular_op_line(c, pred, in, out, line, nline);
  snprintf(text, sizeof text,
           "module {\n  tt.func public @f(%%a: tensor<4x%s>, %%b: tensor<4x%s>, %%c: tensor<4x%s>) {\n    %s\n"
           "    tt.return\n  }\n}\n",
           in, in, in, line);
  return ir_parse_string("row.ttir", text, strlen(text), m, e);
}

/* Every row of a regular syntax but ARROW (whose ops keep their own type rules, covered by the
 * files under ops/) is parsed, verified and printed from its row alone: the op
 * written in its class's format with types its rule accepts parses, verifies and prints back
 * as written; with an element type its rule rejects it parses and the verifier refuses it. */
static void test_parse_regular_rows_from_table(void **state)
{
  (void)state;
  int nregular = 0;
  for (int i = 0; i < IR_OP_COUNT; i++) {
    ir_opcode c = (ir_opcode)i;
    if (ir_op_syntax(c) == IR_SYN_CUSTOM || ir_op_syntax(c) == IR_SYN_ARROW) continue; /* ARROW: own type rules */
    nregular++;
    rule_types t = types_for(ir_op_type_rule(c));
    if (!t.in) print_error("%s: a regular syntax needs a table type rule\n", ir_op_name(c));
    assert_non_null(t.in);
    char line[256];
    ir_module *m = NULL;
    ttref_error e = {0};
    ttref_status st = regular_module(c, t.pred, t.in, t.out, &m, &e, line, sizeof line);
    if (st) print_error("%s: %s\n", line, e.msg);
    assert_int_equal(st, TTREF_OK);
    st = ir_verify_module(m, &e);
    if (st) print_error("%s: %s\n", line, e.msg);
    assert_int_equal(st, TTREF_OK);
    size_t len;
    char *printed = print_str(m, &len);
    if (!strstr(printed, line)) print_error("%s: printed as\n%s\n", line, printed);
    assert_non_null(strstr(printed, line));
    free(printed);
    ir_module_free(m);
    m = NULL;
    st = regular_module(c, t.pred, t.bad_in, t.bad_out, &m, &e, line, sizeof line);
    assert_int_equal(st, TTREF_OK);
    st = ir_verify_module(m, &e);
    if (st != TTREF_E_VERIFY) print_error("%s: verifier gave %d\n", line, (int)st);
    assert_int_equal(st, TTREF_E_VERIFY);
    assert_non_null(strstr(e.msg, "row.ttir:3:5: error: "));
    ir_module_free(m);
  }
  assert_true(nregular >= 70);
}

/* every row of ir_op_list.h occurs somewhere in ops/ */
static void count_ops(const ir_region *r, int *seen)
{
  for (int k = 0; k < r->nblocks; k++)
    for (int i = 0; i < r->blocks[k]->nops; i++) {
      const ir_op *op = r->blocks[k]->ops[i];
      seen[op->code] = 1;
      for (int j = 0; j < op->nregions; j++) count_ops(&op->regions[j], seen);
    }
}
static int op_seen[IR_OP_COUNT];
static void mark_file(const char *path)
{
  ir_module *m = NULL;
  ttref_error e = {0};
  assert_int_equal(ir_parse_file(path, &m, &e), TTREF_OK);
  for (int f = 0; f < m->nfuncs; f++) count_ops(&m->funcs[f]->body, op_seen);
  ir_module_free(m);
}
static void test_parse_ops_cover_op_list(void **state)
{
  (void)state;
  char dir[4096];
  snprintf(dir, sizeof dir, "%s/ttir/ops", unit_data_dir());
  memset(op_seen, 0, sizeof op_seen);
  for_each_ttir(dir, mark_file);
  int missing = 0;
  for (int i = 0; i < IR_OP_COUNT; i++)
    if (!op_seen[i] && !(ir_op_flags((ir_opcode)i) & IR_F_VENDOR)) { /* vendor ops: test_parse_vendor_op */
      print_error("op %s has no test snippet\n", ir_op_name((ir_opcode)i));
      missing++;
    }
  assert_int_equal(missing, 0);
}

/* A registered vendor op parses in generic form (its attributes kept) and prints back the same;
 * without the registry it is an unknown op, located. */
static int vendor_neg(void *ud, const ttref_op_attrs *a, int n, const ttref_value *in, ttref_value *out)
{
  (void)ud, (void)a, (void)n;
  out->f = -in[0].f;
  return 0;
}
static void test_parse_vendor_op(void **state)
{
  (void)state;
  static const char text[] = "module {\n  tt.func public @k(%x: f32) {\n"
                             "    %0 = \"acme.neg\"(%x) {mode = 3 : i32} : (f32) -> f32\n    tt.return\n  }\n}\n";
  ttref_error e = {0};
  ir_module *m = NULL;
  assert_int_equal(ir_parse_string_ex("v.ttir", text, strlen(text), NULL, &m, &e), TTREF_E_SYNTAX);
  assert_non_null(strstr(e.msg, "v.ttir:3:10: error: unknown op \"acme.neg\""));
  ttref_registry *reg = ttref_registry_new(&e);
  assert_non_null(reg);
  ttref_op_def d = {"acme.neg", 1, NULL, vendor_neg, NULL, NULL};
  assert_int_equal(ttref_registry_add(reg, &d, &e), TTREF_OK);
  assert_int_equal(ir_parse_string_ex("v.ttir", text, strlen(text), reg, &m, &e), TTREF_OK);
  const ir_op *op = m->funcs[0]->body.blocks[0]->ops[0];
  assert_int_equal(op->code, IR_OP_VENDOR);
  assert_string_equal(ir_op_label(op), "acme.neg");
  int64_t mode = 0;
  assert_int_equal(ttref_op_attr_int((const ttref_op_attrs *)op, "mode", &mode), 1);
  assert_int_equal(mode, 3);
  assert_int_equal(ir_verify_module(m, &e), TTREF_OK);
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  assert_int_equal(ir_print_module(m, f, &e), TTREF_OK);
  fclose(f);
  assert_non_null(strstr(buf, "%0 = \"acme.neg\"(%x) {mode = 3 : i32} : (f32) -> f32"));
  free(buf);
  ir_module_free(m);
  ttref_registry_free(reg);
}

static void expect_error_file(const char *path)
{
  size_t len;
  char *text = read_all(path, &len);
  assert_non_null(text);
  const char *tag = "// expect-error: ";
  assert_true(len > strlen(tag) && !strncmp(text, tag, strlen(tag)));
  char want[256];
  const char *s = text + strlen(tag), *nl = memchr(s, '\n', len - strlen(tag));
  assert_non_null(nl);
  snprintf(want, sizeof want, "%.*s", (int)(nl - s), s);
  int line, col;
  char sub[200];
  assert_int_equal(sscanf(want, "%d:%d: %199[^\n]", &line, &col, sub), 3);
  ir_module *m = NULL;
  ttref_error e = {0};
  ttref_status st = ir_parse_string(path, text, len, &m, &e);
  if (st != TTREF_E_SYNTAX || e.loc.line != line || e.loc.col != col || !strstr(e.msg, sub))
    print_error("%s: want %s, got status %d: %s\n", path, want, st, e.msg);
  assert_int_equal(st, TTREF_E_SYNTAX);
  assert_null(m);
  assert_int_equal(e.loc.line, line);
  assert_int_equal(e.loc.col, col);
  assert_non_null(strstr(e.msg, sub));
  assert_true(strchr(e.note, '^') != NULL); /* caret line */
  char prefix[4200];
  snprintf(prefix, sizeof prefix, "%s:%d:%d: error: ", path, line, col);
  assert_int_equal(strncmp(e.msg, prefix, strlen(prefix)), 0);
  free(text);
}

static void test_parse_bad_inputs_give_located_errors(void **state)
{
  (void)state;
  char dir[4096];
  snprintf(dir, sizeof dir, "%s/ttir/bad", unit_data_dir());
  assert_true(for_each_ttir(dir, expect_error_file) >= 15);
}

static void expect_fail(const char *text, size_t len, const char *sub)
{
  ir_module *m = NULL;
  ttref_error e = {0};
  ttref_status st = ir_parse_string("gen.ttir", text, len, &m, &e);
  if (st == TTREF_OK || !strstr(e.msg, sub)) print_error("want '%s', got %d: %s\n", sub, st, e.msg);
  assert_int_not_equal(st, TTREF_OK);
  assert_null(m);
  assert_non_null(strstr(e.msg, sub));
}

static void test_parse_deep_nesting_is_an_error(void **state)
{
  (void)state;
  const size_t depth = 100000;
  const char *head = "module {\n  tt.func public @k(%c: i1) {\n";
  char *buf = malloc(depth * 40 + 256);
  assert_non_null(buf);
  /* regions */
  size_t n = (size_t)sprintf(buf, "%s", head);
  for (size_t i = 0; i < depth; i++) n += (size_t)sprintf(buf + n, "scf.if %%c {\n");
  expect_fail(buf, n, "nesting too deep");
  /* attributes: [[[[ and (((( and dense<[[[[ */
  static const char *const pre[] = {"", "", "", "dense<"};
  static const char *const open[] = {"[", "(", "{a = ", "["};
  for (int k = 0; k < 4; k++) {
    n = (size_t)sprintf(buf, "%s    tt.return {x = %s", head, pre[k]);
    for (size_t i = 0; i < depth; i++) n += (size_t)sprintf(buf + n, "%s", open[k]);
    expect_fail(buf, n, k == 1 ? "expected attribute value" : "nesting too deep");
  }
  /* types and locations */
  n = (size_t)sprintf(buf, "module {\n  tt.func public @k(%%a: ");
  for (size_t i = 0; i < depth; i++) n += (size_t)sprintf(buf + n, "!tt.ptr<");
  expect_fail(buf, n, "nesting too deep");
  n = (size_t)sprintf(buf, "%s    tt.return loc(", head);
  for (size_t i = 0; i < depth; i++) n += (size_t)sprintf(buf + n, "\"n\"(");
  expect_fail(buf, n, "nesting too deep");
  /* a long alias chain is fine; a long cycle is an error, neither overflows the stack */
  n = (size_t)sprintf(buf, "module {\n} loc(#a0)\n");
  for (size_t i = 0; i < depth; i++) n += (size_t)sprintf(buf + n, "#a%zu = loc(#a%zu)\n", i, i + 1);
  n += (size_t)sprintf(buf + n, "#a%zu = loc(#a0)\n", depth);
  expect_fail(buf, n, "alias cycle");
  free(buf);
}

static void test_parse_truncations_never_crash(void **state)
{
  (void)state;
  char path[4096];
  snprintf(path, sizeof path, "%s/ttir/while_collatz.ttir", unit_data_dir());
  size_t len;
  char *text = read_all(path, &len);
  assert_non_null(text);
  for (size_t cut = 0; cut < len; cut += 7) {
    ir_module *m = NULL;
    ttref_error e = {0};
    ttref_status st = ir_parse_string("cut.ttir", text, cut, &m, &e);
    if (st == TTREF_OK) ir_module_free(m); /* a cut after the module can be complete */
    else assert_true(e.msg[0] != 0);
  }
  free(text);
}

static void test_parse_named_and_grouped_results(void **state)
{
  (void)state;
  const char *src = "module {\n  tt.func public @k(%x: tensor<4x2xf32>) {\n"
                    "    %a, %b = tt.split %x : tensor<4x2xf32> -> tensor<4xf32>\n"
                    "    %s:2 = \"tt.reduce\"(%a, %b) <{axis = 0 : i32}> ({\n"
                    "    ^bb0(%p: f32, %q: f32, %r: f32, %t: f32):\n"
                    "      tt.reduce.return %p, %q : f32, f32\n"
                    "    }) : (tensor<4xf32>, tensor<4xf32>) -> (f32, f32)\n"
                    "    %u = arith.addf %s#0, %s#1 : f32\n"
                    "    tt.return\n  }\n}\n";
  ir_module *m = parse_ok("named.ttir", src, strlen(src));
  const ir_block *b = m->funcs[0]->body.blocks[0];
  assert_string_equal(b->ops[0]->res[0].name, "a");
  assert_string_equal(b->ops[0]->res[1].name, "b");
  assert_null(b->ops[0]->group);
  assert_string_equal(b->ops[1]->group, "s");
  assert_string_equal(b->ops[1]->res[1].name, "s#1");
  assert_ptr_equal(b->ops[2]->opnds[1], &b->ops[1]->res[1]);
  assert_int_equal(m->funcs[0]->nvalues, 1 + 2 + 4 + 2 + 1);
  size_t l;
  char *out = print_str(m, &l);
  assert_non_null(strstr(out, "%a, %b = tt.split"));
  assert_non_null(strstr(out, "%s:2 = \"tt.reduce\""));
  assert_non_null(strstr(out, "arith.addf %s#0, %s#1 : f32"));
  free(out);
  ir_module_free(m);
}

static void test_parse_normalises_enum_spellings(void **state)
{
  (void)state;
  const char *src = "module {\n  tt.func public @k(%a: i32, %p: !tt.ptr<f32>, %x: f32) {\n"
                    "    %0 = arith.cmpi slt, %a, %a : i32\n"
                    "    %1 = \"arith.cmpi\"(%a, %a) <{predicate = 2 : i64}> : (i32, i32) -> i1\n"
                    "    %2 = tt.get_program_id y : i32\n"
                    "    %3 = tt.load %p cacheModifier = ca : !tt.ptr<f32>\n"
                    "    %4 = tt.fp_to_fp %x, rounding = rtne : f32 -> f16\n"
                    "    %5 = tt.atomic_rmw fadd, acq_rel, gpu, %p, %x : (!tt.ptr<f32>, f32) -> f32\n"
                    "    tt.return\n  }\n}\n";
  ir_module *m = parse_ok("enum.ttir", src, strlen(src));
  ir_op **ops = m->funcs[0]->body.blocks[0]->ops;
  assert_int_equal(ir_op_attr_int(ops[0], "predicate", -1), IR_CMPI_SLT);
  assert_int_equal(ir_op_attr_int(ops[1], "predicate", -1), IR_CMPI_SLT);
  assert_true(attr_equal(ir_op_attr(ops[0], "predicate"), ir_op_attr(ops[1], "predicate")));
  assert_string_equal(ir_op_attr(ops[1], "predicate")->s, "slt");
  assert_int_equal(ir_op_attr_int(ops[2], "axis", -1), 1);
  assert_int_equal(ir_op_attr_int(ops[3], "cache", -1), IR_CACHE_CA);
  assert_int_equal(ir_op_attr_int(ops[4], "rounding", -1), IR_ROUND_RTNE);
  assert_int_equal(ir_op_attr_int(ops[5], "atomic_rmw_op", -1), IR_RMW_FADD);
  assert_int_equal(ir_op_attr_int(ops[5], "sem", -1), IR_SEM_ACQ_REL);
  assert_int_equal(ir_op_attr_int(ops[5], "scope", -1), IR_SCOPE_GPU);
  ir_module_free(m);
}

static void test_parse_loc_aliases_both_orders(void **state)
{
  (void)state;
  const char *before = "#l0 = loc(\"k.py\":3:7)\n#l1 = loc(\"x\"(#l0))\nmodule {\n"
                       "  tt.func public @k() {\n    tt.return loc(#l1)\n  } loc(#l0)\n} loc(#l0)\n";
  const char *after = "module {\n  tt.func public @k() {\n    tt.return loc(#l1)\n  } loc(#l0)\n} loc(#l0)\n"
                      "#l1 = loc(\"x\"(#l0))\n#l0 = loc(\"k.py\":3:7)\n";
  ir_module *a = parse_ok("a.ttir", before, strlen(before));
  ir_module *b = parse_ok("b.ttir", after, strlen(after));
  for (int k = 0; k < 2; k++) {
    ir_module *m = k ? b : a;
    ir_srcloc s = ir_op_srcloc(m->funcs[0]->body.blocks[0]->ops[0]);
    assert_string_equal(s.file, "k.py");
    assert_int_equal(s.line, 3);
    assert_int_equal(s.col, 7);
    assert_string_equal(s.name, "x");
  }
  assert_true(module_equal(a, b));
  ir_module_free(a);
  ir_module_free(b);
}

static void test_parse_float_constants_roundtrip_exactly(void **state)
{
  (void)state;
  const char *src = "module {\n  tt.func public @k() {\n"
                    "    %a = arith.constant 0.1 : f32\n"
                    "    %b = arith.constant 1.44269502 : f32\n"
                    "    %c = arith.constant -2.5e-300 : f64\n"
                    "    %d = arith.constant 0xFF800000 : f32\n"
                    "    %e = arith.constant dense<[1.0, 3.14159265358979]> : tensor<2xf64>\n"
                    "    tt.return\n  }\n}\n";
  ir_module *m = parse_ok("f.ttir", src, strlen(src));
  size_t l;
  char *out = print_str(m, &l);
  assert_non_null(strstr(out, "arith.constant 1.000000e-01 : f32"));
  assert_non_null(strstr(out, "arith.constant 1.44269502 : f32"));
  assert_non_null(strstr(out, "arith.constant 0xFF800000 : f32"));
  ir_module *m2 = parse_ok("f2.ttir", out, l);
  assert_true(module_equal(m, m2));
  const ir_attr *v = ir_op_attr(m2->funcs[0]->body.blocks[0]->ops[2], "value");
  assert_true(v->f == -2.5e-300);
  free(out);
  ir_module_free(m);
  ir_module_free(m2);
}

static void test_parse_large_file_parses(void **state)
{
  (void)state;
  char path[] = "/tmp/ttref_big_XXXXXX";
  int fd = mkstemp(path);
  assert_true(fd >= 0);
  FILE *f = fdopen(fd, "w");
  assert_non_null(f);
  fprintf(
      f, "#loc = loc(\"kernels.py\":1:0)\nmodule {\n  tt.func public @big(%%x: tensor<1024xf32> loc(\"x\"(#loc))) {\n");
  size_t n = 0, i = 0;
  const char *prev = "x";
  char cur[32], prevbuf[32];
  const size_t size = big_bytes();
  while (n < size) {
    snprintf(cur, sizeof cur, "v%zu", i++);
    int k = fprintf(f, "    %%%s = arith.addf %%%s, %%%s : tensor<1024xf32> loc(\"kernels.py\":%zu:17)\n", cur, prev,
                    prev, i);
    n += (size_t)k;
    strcpy(prevbuf, cur);
    prev = prevbuf;
  }
  fprintf(f, "    tt.return loc(#loc)\n  } loc(#loc)\n} loc(#loc)\n");
  fclose(f);
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  ir_module *m = NULL;
  ttref_error e = {0};
  ttref_status st = ir_parse_file(path, &m, &e);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  unlink(path);
  double s = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
  print_message("parsed %.0f MB in %.2f s (%.1f MB/s)\n", (double)n / 1e6, s, (double)n / 1e6 / s);
  if (st) print_error("%s\n", e.msg);
  assert_int_equal(st, TTREF_OK);
  /* speed is measured by scripts/bench/parse_bench.sh, never asserted by a unit test */
  assert_int_equal(m->funcs[0]->body.blocks[0]->nops, (int)i + 1);
  ir_module_free(m);
}

static void test_parse_rejects_missing_file_and_nul_names(void **state)
{
  (void)state;
  ir_module *m = NULL;
  ttref_error e = {0};
  assert_int_equal(ir_parse_file("/nonexistent/x.ttir", &m, &e), TTREF_E_IO);
  assert_null(m);
  assert_non_null(strstr(e.msg, "/nonexistent/x.ttir"));
}

/* ---- the checklist through the command line: `ttref check` exits 2 with a
 * located one-line error, and neither crashes nor grows without bound ---- */
static const char *ttref_bin(void)
{
  const char *b = getenv("TTREF_BIN");
  return b && *b ? b : "./ttref";
}

typedef struct check_result {
  int status;       /* exit status, or 128 + signal */
  long maxrss_kb;   /* the child's peak resident set */
  char first[1024]; /* first line of stderr */
} check_result;

static void run_check(const char *path, check_result *r)
{
  char errpath[] = "/tmp/ttref_check_err_XXXXXX";
  int fd = mkstemp(errpath);
  assert_true(fd >= 0);
  pid_t pid = fork();
  assert_true(pid >= 0);
  if (pid == 0) {
    int devnull = open("/dev/null", O_WRONLY);
    if (devnull >= 0) dup2(devnull, 1);
    dup2(fd, 2);
    execl(ttref_bin(), ttref_bin(), "check", path, (char *)NULL);
    _exit(127);
  }
  int status = 0;
  struct rusage ru;
  memset(&ru, 0, sizeof ru);
  assert_int_equal(wait4(pid, &status, 0, &ru), pid);
  r->status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r->maxrss_kb = ru.ru_maxrss;
  r->first[0] = 0;
  FILE *f = fdopen(fd, "r");
  assert_non_null(f);
  rewind(f);
  if (fgets(r->first, sizeof r->first, f)) r->first[strcspn(r->first, "\n")] = 0;
  fclose(f);
  unlink(errpath);
}

/* `ttref check FILE` must fail with exit 2 and "FILE:LINE:COL: error: ..."
 * naming the expected position and containing sub */
static void expect_check_error(const char *path, int line, int col, const char *sub)
{
  check_result r;
  run_check(path, &r);
  char prefix[4200];
  snprintf(prefix, sizeof prefix, "%s:%d:%d: error: ", path, line, col);
  bool ok = r.status == 2 && !strncmp(r.first, prefix, strlen(prefix)) && strstr(r.first, sub);
  if (!ok) print_error("%s: want exit 2, '%s...%s'; got exit %d, '%s'\n", path, prefix, sub, r.status, r.first);
  assert_true(ok);
}

static void expect_check_file(const char *path)
{
  size_t len;
  char *text = read_all(path, &len);
  assert_non_null(text);
  int line, col;
  char sub[200];
  assert_int_equal(sscanf(text, "// expect-error: %d:%d: %199[^\n]", &line, &col, sub), 3);
  free(text);
  expect_check_error(path, line, col, sub);
}

/* every bad/ file (truncation, unknown op and type, bad attribute, undefined
 * and doubly defined values, region arity, unterminated string, binary
 * garbage, ...) and every verify/ file (shape mismatches and other verifier
 * errors) through the command line */
static void test_parse_cli_check_rejects_malformed_files(void **state)
{
  (void)state;
  char dir[4096];
  snprintf(dir, sizeof dir, "%s/ttir/bad", unit_data_dir());
  assert_true(for_each_ttir(dir, expect_check_file) >= 15);
  snprintf(dir, sizeof dir, "%s/ttir/verify", unit_data_dir());
  assert_true(for_each_ttir(dir, expect_check_file) >= 100);
}

/* a shape mismatch is a verifier error, located at the op */
static void test_parse_cli_check_shape_mismatch(void **state)
{
  (void)state;
  char path[] = "/tmp/ttref_shape_XXXXXX";
  int fd = mkstemp(path);
  assert_true(fd >= 0);
  const char *src = "module {\n  tt.func public @k(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>) {\n"
                    "    %0 = arith.mulf %a, %b : tensor<4x8xf32>\n    tt.return\n  }\n}\n";
  assert_int_equal(write(fd, src, strlen(src)), (ssize_t)strlen(src));
  close(fd);
  expect_check_error(path, 3, 25, "has type tensor<8x4xf32> but is used as tensor<4x8xf32>");
  /* generic form: the parser takes the types as written, the verifier objects */
  fd = open(path, O_WRONLY | O_TRUNC);
  assert_true(fd >= 0);
  src = "module {\n  tt.func public @k(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>) {\n"
        "    %0 = \"arith.mulf\"(%a, %b) : (tensor<4x8xf32>, tensor<8x4xf32>) -> tensor<4x8xf32>\n"
        "    tt.return\n  }\n}\n";
  assert_int_equal(write(fd, src, strlen(src)), (ssize_t)strlen(src));
  close(fd);
  expect_check_error(path, 3, 5, "'arith.mulf' op requires the same type");
  unlink(path);
}

/* 100 000-deep nesting and a 100 MB (10 MB in the quick tier) file whose last op is bad: located
 * errors, exit 2, memory proportional to the input */
static void test_parse_cli_check_huge_and_deep_inputs(void **state)
{
  (void)state;
  char path[] = "/tmp/ttref_huge_XXXXXX";
  int fd = mkstemp(path);
  assert_true(fd >= 0);
  FILE *f = fdopen(fd, "w");
  assert_non_null(f);
  fprintf(f, "module {\n  tt.func public @k(%%c: i1) {\n");
  for (int i = 0; i < 100000; i++) fputs("scf.if %c {\n", f);
  fclose(f);
  expect_check_error(path, 3 + IR_PARSE_MAX_DEPTH, 1, "nesting too deep"); /* the first level past the limit */

  /* the process's own footprint (much larger under ASan) on a tiny file with the same error */
  f = fopen(path, "w");
  assert_non_null(f);
  fprintf(f, "module {\n  tt.func public @big(%%x: tensor<1024xf32>) {\n"
             "    %%bad = arith.addf %%x, %%nope : tensor<1024xf32>\n    tt.return\n  }\n}\n");
  fclose(f);
  check_result base;
  run_check(path, &base);
  assert_int_equal(base.status, 2);

  f = fopen(path, "w");
  assert_non_null(f);
  fprintf(f, "module {\n  tt.func public @big(%%x: tensor<1024xf32>) {\n");
  size_t n = 0;
  int line = 2;
  const size_t size = big_bytes();
  for (size_t i = 0; n < size; i++, line++)
    n += (size_t)fprintf(f, "    %%v%zu = arith.addf %%x, %%x : tensor<1024xf32> loc(\"kernels.py\":%zu:17)\n", i, i);
  fprintf(f, "    %%bad = arith.addf %%x, %%nope : tensor<1024xf32>\n    tt.return\n  }\n}\n");
  fclose(f);
  check_result r;
  run_check(path, &r);
  unlink(path);
  char want[64];
  snprintf(want, sizeof want, ":%d:27: error: use of undefined value '%%nope'", line + 1);
  print_message("%zu MB bad file: exit %d, peak RSS %ld MB\n", n / 1000000, r.status, r.maxrss_kb / 1024);
  if (r.status != 2 || !strstr(r.first, want))
    print_error("want exit 2 and '%s', got %d: %s\n", want, r.status, r.first);
  assert_int_equal(r.status, 2);
  assert_non_null(strstr(r.first, want));
  /* bounded: under 32 bytes per input byte (3 GB for 100 MB) above the process's own footprint */
  assert_true((size_t)r.maxrss_kb < (size_t)base.maxrss_kb + n / 1024 * 32);
}

/* random bytes: always a located error, never a crash */
static void test_parse_random_bytes_give_located_errors(void **state)
{
  (void)state;
  uint64_t x = 0x9E3779B97F4A7C15u;
  char buf[4096];
  for (int k = 0; k < 500; k++) {
    size_t len = 1 + (size_t)(k * 37) % sizeof buf;
    for (size_t i = 0; i < len; i++) {
      x ^= x << 13;
      x ^= x >> 7;
      x ^= x << 17;
      buf[i] = k & 1 ? (char)(x >> 24) : "module{}()%@#^!:=<>,\"x0 \n"[(x >> 24) % 25];
    }
    ir_module *m = NULL;
    ttref_error e = {0};
    ttref_status st = ir_parse_string("rand.ttir", buf, len, &m, &e);
    if (st == TTREF_OK) {
      ir_module_free(m);
      continue;
    }
    assert_null(m);
    assert_int_equal(st, TTREF_E_SYNTAX);
    assert_true(e.loc.line >= 1 && e.loc.col >= 1);
    assert_non_null(strstr(e.msg, "rand.ttir:"));
    assert_null(strchr(e.msg, '\n')); /* one line */
  }
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_parse_corpus_roundtrips),
      cmocka_unit_test(test_parse_regression_corpus_roundtrips),
      cmocka_unit_test(test_parse_fuzz_findings_roundtrip),
      cmocka_unit_test(test_parse_every_op_format_roundtrips),
      cmocka_unit_test(test_parse_ops_cover_op_list),
      cmocka_unit_test(test_parse_vendor_op),
      cmocka_unit_test(test_parse_bad_inputs_give_located_errors),
      cmocka_unit_test(test_parse_deep_nesting_is_an_error),
      cmocka_unit_test(test_parse_truncations_never_crash),
      cmocka_unit_test(test_parse_named_and_grouped_results),
      cmocka_unit_test(test_parse_normalises_enum_spellings),
      cmocka_unit_test(test_parse_loc_aliases_both_orders),
      cmocka_unit_test(test_parse_float_constants_roundtrip_exactly),
      cmocka_unit_test(test_parse_large_file_parses),
      cmocka_unit_test(test_parse_rejects_missing_file_and_nul_names),
      cmocka_unit_test(test_parse_cli_check_rejects_malformed_files),
      cmocka_unit_test(test_parse_cli_check_shape_mismatch),
      cmocka_unit_test(test_parse_cli_check_huge_and_deep_inputs),
      cmocka_unit_test(test_parse_random_bytes_give_located_errors),
      cmocka_unit_test(test_parse_regular_rows_from_table),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
