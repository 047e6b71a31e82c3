/*
 * test_rope.c: CMocka test of the rope wrapper against goldens by dispatch key. For every
 * variant of the wrapper's registry it builds the registry's key, finds the goldens under that
 * key in GOLDEN_DIR/index.json (`ttref golden --library MANIFEST.yaml --out GOLDEN_DIR`), runs
 * the wrapper on the golden inputs and judges its output with ttref_compare, using the
 * compliance mode and options the index records. Usage: test_rope GOLDEN_DIR
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ttref.h>

#include "rope.h"

static const char *golden_dir;

/* The index.json line of dispatch key @p key (index.json has one variant per line), or NULL. */
static char *index_line(const char *key)
{
  char path[4096], want[300], *line = NULL;
  size_t cap = 0;
  snprintf(path, sizeof path, "%s/index.json", golden_dir);
  snprintf(want, sizeof want, "\"%s\": {", key);
  FILE *f = fopen(path, "r");
  assert_non_null(f);
  while (getline(&line, &cap, f) > 0)
    if (strncmp(line, want, strlen(want)) == 0) {
      fclose(f);
      return line;
    }
  fclose(f);
  free(line);
  return NULL;
}

/* The string value following @p field ("\"mode\": \"") after @p from in @p line. */
static void field(const char *line, const char *from, const char *name, char *out, size_t n)
{
  const char *p = strstr(line, from);
  assert_non_null(p);
  char pat[64];
  snprintf(pat, sizeof pat, "\"%s\": \"", name);
  p = strstr(p, pat);
  assert_non_null(p);
  p += strlen(pat);
  const char *end = strchr(p, '"');
  snprintf(out, n, "%.*s", (int)(end - p), p);
}

static ttref_array load(const char *dir, const char *rel)
{
  char path[4096];
  ttref_array a;
  ttref_error e;
  snprintf(path, sizeof path, "%s/%s/%s", golden_dir, dir, rel);
  if (ttref_npy_load(path, &a, &e) != TTREF_OK) fail_msg("%s", e.msg);
  return a;
}

/* Run the wrapper on the goldens of @p v; @p corrupt > 0 makes it wrong by corrupt bf16 steps at element 7. */
static ttref_verdict judge(const rope_variant *v, int corrupt)
{
  char key[128], dir[256], mode[32], options[128];
  rope_dispatch_key(v->head_dim, v->dtype, key, sizeof key);
  char *line = index_line(key);
  if (!line) fail_msg("no goldens for dispatch key %s", key);
  field(line, "\"dispatch\"", "dir", dir, sizeof dir);
  field(line, "\"outputs\"", "mode", mode, sizeof mode);
  field(line, "\"outputs\"", "options", options, sizeof options);
  field(line, "\"outputs\"", "dtype", key, sizeof key);
  assert_string_equal(key, v->dtype);
  free(line);
  ttref_array x = load(dir, "inputs/x_ptr.npy"), c = load(dir, "inputs/cos_ptr.npy"),
              s = load(dir, "inputs/sin_ptr.npy");
  ttref_array ref = load(dir, "outputs/o_ptr.npy");
  assert_int_equal(x.rank, 2);
  assert_int_equal(x.shape[1], v->head_dim);
  assert_int_equal(ref.nbytes, x.nbytes);
  uint16_t *o = calloc((size_t)x.numel, 2);
  assert_int_equal(rope_apply(v->head_dim, v->dtype, (int)x.shape[0], x.data, c.data, s.data, o), 0);
  o[7] = (uint16_t)(o[7] + corrupt);
  ttref_verdict verdict;
  ttref_error e;
  if (ttref_compare(mode, v->dtype, o, ref.data, (size_t)ref.numel, NULL, NULL, options, &verdict, &e) != TTREF_OK)
    fail_msg("%s", e.msg);
  free(o);
  ttref_array_free(&x);
  ttref_array_free(&c);
  ttref_array_free(&s);
  ttref_array_free(&ref);
  return verdict;
}

static void test_rope_every_variant_matches_its_goldens(void **state)
{
  (void)state;
  int n;
  const rope_variant *reg = rope_registry(&n);
  assert_int_equal(n, 2);
  for (int i = 0; i < n; i++) {
    ttref_verdict v = judge(&reg[i], 0);
    if (!v.pass) fail_msg("%s: %s", reg[i].variant_key, v.reason);
  }
}

static void test_rope_wrong_output_fails_at_its_element(void **state)
{
  (void)state;
  int n;
  const rope_variant *reg = rope_registry(&n);
  for (int i = 0; i < n; i++) {
    ttref_verdict v = judge(&reg[i], 2); /* two bf16 steps off: beyond ulp=1 */
    assert_false(v.pass);
    assert_int_equal(v.worst_index, 7);
  }
}

static void test_rope_unknown_key_has_no_goldens(void **state)
{
  (void)state;
  char key[128];
  rope_dispatch_key(96, "bf16", key, sizeof key);
  assert_null(index_line(key));
  assert_null(rope_lookup(96, "bf16"));
}

int main(int argc, char **argv)
{
  if (argc != 2) return fprintf(stderr, "usage: test_rope GOLDEN_DIR\n"), 2;
  golden_dir = argv[1];
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_rope_every_variant_matches_its_goldens),
      cmocka_unit_test(test_rope_wrong_output_fails_at_its_element),
      cmocka_unit_test(test_rope_unknown_key_has_no_goldens),
  };
  return cmocka_run_group_tests_name("rope", tests, NULL, NULL);
}
