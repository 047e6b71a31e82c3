/*
 * test_conform.c: unit tests of the conformance harness: SHA-256 against the
 * FIPS 180-4 example vectors, located YAML validation errors, generator
 * determinism, the journal (torn lines, resume de-duplication), the
 * verdict table, plugin backend requests and load errors, and --localize's
 * probe instrumentation (every corpus kernel instrumented still verifies;
 * undefined lanes and loop bodies are guarded), suites confined to their
 * directory, npy_read_bounded refusing FIFOs and links, unordered (multiset)
 * judging and the mutant rewrites (each finds sites in the shipped kernels
 * and leaves IR that verifies). The safe-path helpers themselves:
 * test_base_fs.c.
 * One cmocka group.
 * Over 1000 lines on purpose: one cmocka group per binary (STYLE.md) keeps the tests of
 * the harness in one file, sharing its fixtures; tests/unit/unit_fixture.c holds what files share.
 */
#define _GNU_SOURCE /* mkdtemp under -std=c11 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "conform_backend.h"
#include "conform_config.h"
#include "conform_gen.h"
#include "conform_journal.h"
#include "conform_judge.h"
#include "conform_localize.h"
#include "conform_mutant.h"
#include "conform_plugin.h"
#include "conform_reply.h"
#include "npy_io.h"
#include "conform_sha256.h"
#include "conform_suite.h"
#include "conform_sys.h"
#include "ir_base_fs.h"
#include "conform_verdict.h"
#include "ir_base.h"
#include "ir_parse.h"
#include "ir_verify.h"
#include "unit_fixture.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>

static int setup(void **state)
{
  (void)state;
  if (!unit_tmpdir_new("test_conform")) return -1;
  unit_put("k.ttir", "module {\n  tt.func public @k(%x_ptr: !tt.ptr<f32>, %n: i32) {\n    tt.return\n  }\n}\n");
  return 0;
}

static int teardown(void **state)
{
  (void)state;
  return unit_tmpdir_remove() == 0 ? 0 : -1;
}

/* ---- SHA-256 (FIPS 180-4 / NIST example vectors) --------------------------------- */

static void test_sha256_fips_vectors(void **state)
{
  (void)state;
  char hex[65];
  conform_sha256_hex("abc", 3, hex);
  assert_string_equal(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  conform_sha256_hex("", 0, hex);
  assert_string_equal(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  const char *two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
  conform_sha256_hex(two, strlen(two), hex);
  assert_string_equal(hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  const char *four = "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrs"
                     "mnopqrstnopqrstu";
  conform_sha256_hex(four, strlen(four), hex);
  assert_string_equal(hex, "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
}

static void test_sha256_million_a_incremental(void **state)
{
  (void)state;
  conform_sha256 c;
  uint8_t d[32], chunk[997];
  memset(chunk, 'a', sizeof chunk);
  conform_sha256_init(&c);
  size_t left = 1000000;
  while (left) { /* odd chunk size: exercises partial blocks */
    size_t n = left < sizeof chunk ? left : sizeof chunk;
    conform_sha256_update(&c, chunk, n);
    left -= n;
  }
  conform_sha256_final(&c, d);
  static const uint8_t want[32] = {0xcd, 0xc7, 0x6e, 0x5c, 0x99, 0x14, 0xfb, 0x92, 0x81, 0xa1, 0xc7,
                                   0xe2, 0x84, 0xd7, 0x3e, 0x67, 0xf1, 0x80, 0x9a, 0x48, 0xa4, 0x97,
                                   0x20, 0x0e, 0x04, 0x6d, 0x39, 0xcc, 0xc7, 0x11, 0x2c, 0xd0};
  assert_memory_equal(d, want, 32);
}

/* ---- YAML validation: every error is FILE:LINE:COL ---------------------------------- */

static void expect_case_error(const char *yaml, const char *where, const char *what)
{
  char path[512], want[600];
  ttref_error err = {0};
  conform_suite *s = NULL;
  unit_put("case.yaml", yaml);
  snprintf(path, sizeof path, "%s/case.yaml", unit_tmpdir());
  ttref_status st = conform_suite_load(path, &s, &err);
  assert_int_not_equal(st, TTREF_OK);
  assert_null(s);
  snprintf(want, sizeof want, "%s:%s: error: ", path, where);
  if (strncmp(err.msg, want, strlen(want)) != 0 || !strstr(err.msg, what))
    fail_msg("got '%s', want prefix '%s' and '%s'", err.msg, want, what);
}

#define GOOD_HEAD "kernel: k.ttir\ngrid: [2]\n"

static void test_yaml_unknown_key_located(void **state)
{
  (void)state;
  expect_case_error(GOOD_HEAD "colour: red\n", "3:1", "unknown key 'colour'");
}

static void test_yaml_syntax_error_located(void **state)
{
  (void)state;
  expect_case_error(GOOD_HEAD "args: {x_ptr: [1, 2\n", "4:1", "yaml:");
}

static void test_yaml_bad_generator_located(void **state)
{
  (void)state;
  expect_case_error(GOOD_HEAD "args:\n  x_ptr: {shape: [4], input: {gen: gaussian, seed: 1}}\n  n: 4\n"
                              "outputs: {x_ptr: exact}\n",
                    "4:36", "unknown generator 'gaussian'");
}

static void test_yaml_missing_seed_located(void **state)
{
  (void)state;
  expect_case_error(GOOD_HEAD "args:\n  x_ptr: {shape: [4], input: {gen: uniform}}\n  n: 4\noutputs: {x_ptr: exact}\n",
                    "4:30", "needs a 'seed'");
}

static void test_yaml_unbound_and_unknown_args(void **state)
{
  (void)state;
  expect_case_error(GOOD_HEAD "args:\n  x_ptr: {shape: [4]}\n  m: 4\noutputs: {x_ptr: exact}\n", "5:3",
                    "has no argument 'm'");
  expect_case_error(GOOD_HEAD "args:\n  x_ptr: {shape: [4]}\noutputs: {x_ptr: exact}\n", "1:1", "'n' (i32)");
  expect_case_error(GOOD_HEAD "args:\n  x_ptr: {shape: [4]}\n  n: 2.5\noutputs: {x_ptr: exact}\n", "5:6",
                    "not an i32 literal");
}

static void test_yaml_bad_mode_and_option(void **state)
{
  (void)state;
  expect_case_error(GOOD_HEAD "args: {x_ptr: {shape: [4]}, n: 4}\noutputs: {x_ptr: roughly}\n", "4:18",
                    "unknown compliance mode 'roughly'");
  expect_case_error(GOOD_HEAD "args: {x_ptr: {shape: [4]}, n: 4}\noutputs: {x_ptr: {mode: exact, options: {ulp: 2}}}\n",
                    "4:42", "has no option 'ulp'");
}

static void test_yaml_duplicate_variant_key(void **state)
{
  (void)state;
  expect_case_error(GOOD_HEAD "args: {x_ptr: {shape: [4]}, n: 4}\noutputs: {x_ptr: exact}\n"
                              "specializations:\n  - variant_key: a\n  - variant_key: a\n",
                    "7:18", "duplicate variant_key 'a'");
}

static void test_yaml_good_case_loads(void **state)
{
  (void)state;
  char path[512];
  ttref_error err = {0};
  conform_suite *s = NULL;
  unit_put("case.yaml",
           GOOD_HEAD "args:\n  x_ptr: {shape: [2, 3], dtype: f32, input: {gen: special, seed: 3, set: float}}\n"
                     "  n: 6\noutputs: {x_ptr: {mode: ulp, options: {ulp: 1}}}\n"
                     "specializations:\n  - variant_key: six\n  - variant_key: two\n    args: {n: 2}\n");
  snprintf(path, sizeof path, "%s/case.yaml", unit_tmpdir());
  assert_int_equal(conform_suite_load(path, &s, &err), TTREF_OK);
  assert_int_equal(s->ncases, 1);
  assert_string_equal(s->cases[0].name, "case");
  assert_int_equal(s->cases[0].nspecs, 2);
  assert_string_equal(s->cases[0].specs[1].args[1].value, "2");
  assert_int_equal(s->cases[0].specs[0].grid[0], 2);
  assert_int_equal(s->cases[0].specs[0].args[0].rank, 2);
  conform_suite_free(s);
}

/* ---- safe paths (docs/security.md, Files and paths) ------------------------------- */

static void test_yaml_unsafe_names_located(void **state)
{
  (void)state;
  expect_case_error("name: \"..\"\n" GOOD_HEAD "args: {x_ptr: {shape: [4]}, n: 4}\noutputs: {x_ptr: exact}\n", "1:7",
                    "case name '..' starts with '.'");
  expect_case_error("name: .x\n" GOOD_HEAD "args: {x_ptr: {shape: [4]}, n: 4}\noutputs: {x_ptr: exact}\n", "1:7",
                    "case name '.x' starts with '.'");
  expect_case_error("name: \"a\\x01\"\n" GOOD_HEAD "args: {x_ptr: {shape: [4]}, n: 4}\noutputs: {x_ptr: exact}\n",
                    "1:7", "case name 'a?' contains a control character");
  expect_case_error("name: MANIFEST\n" GOOD_HEAD "args: {x_ptr: {shape: [4]}, n: 4}\noutputs: {x_ptr: exact}\n", "1:7",
                    "is reserved");
  expect_case_error(GOOD_HEAD "args: {x_ptr: {shape: [4]}, n: 4}\noutputs: {x_ptr: exact}\n"
                              "specializations:\n  - variant_key: \".\"\n",
                    "6:18", "variant_key '.' starts with '.'");
}

static void test_suite_reads_only_inside(void **state)
{
  (void)state;
  char dir[400], path[600];
  ttref_error err = {0};
  conform_suite *s = NULL;
  snprintf(dir, sizeof dir, "%s/suite", unit_tmpdir());
  assert_int_equal(ir_fs_mkdirs_in(unit_tmpdir(), "suite", &err), TTREF_OK);
  unit_put("suite/c.yaml",
           "kernel: ../k.ttir\ngrid: [2]\nargs: {x_ptr: {shape: [4]}, n: 4}\noutputs: {x_ptr: exact}\n");
  assert_int_equal(conform_suite_load(dir, &s, &err), TTREF_E_INPUT);
  assert_null(s);
  assert_non_null(strstr(err.msg, "c.yaml:1:9: error: kernel file '../k.ttir' is outside the suite directory"));
  assert_int_equal(conform_suite_load_flags(dir, CONFORM_SUITE_ALLOW_OUTSIDE, &s, &err), TTREF_OK);
  assert_int_equal(s->ncases, 1);
  conform_suite_free(s);
  s = NULL;
  /* a case file that is a link out of the suite is refused before it is read */
  snprintf(path, sizeof path, "%s/suite/c.yaml", unit_tmpdir());
  assert_int_equal(unlink(path), 0);
  unit_put("evil.yaml", "SECRET: [\n");
  char target[600];
  snprintf(target, sizeof target, "%s/evil.yaml", unit_tmpdir());
  assert_int_equal(symlink(target, path), 0);
  assert_int_not_equal(conform_suite_load(dir, &s, &err), TTREF_OK);
  assert_non_null(strstr(err.msg, "outside the suite directory"));
  assert_null(strstr(err.msg, "SECRET"));
  assert_int_equal(unlink(path), 0);
}

static void test_config_errors_located(void **state)
{
  (void)state;
  char path[512];
  ttref_error err = {0};
  conform_config *c = NULL;
  unit_put("cfg.yaml", "backend: gpu\ncapabilities: {tf32: false, warp_size: 32}\n");
  snprintf(path, sizeof path, "%s/cfg.yaml", unit_tmpdir());
  assert_int_equal(conform_config_load(path, &c, &err), TTREF_E_INPUT);
  assert_non_null(strstr(err.msg, "cfg.yaml:2:29: error: unknown capability 'warp_size'"));
  unit_put("cfg.yaml", "expected_failures:\n  - case: 'dot_*'\n");
  assert_int_equal(conform_config_load(path, &c, &err), TTREF_E_INPUT);
  assert_non_null(strstr(err.msg, "cfg.yaml:2:5: error:"));
  assert_non_null(strstr(err.msg, "reason"));
  unit_put("cfg.yaml",
           "capabilities: {fp8: [f8E5M2]}\nexpected_failures:\n  - {case: 'dot_*', reason: 'https://x/1'}\n");
  assert_int_equal(conform_config_load(path, &c, &err), TTREF_OK);
  assert_non_null(conform_config_match(c->xfail, c->nxfail, "dot_f16[default]", "dot_f16"));
  assert_null(conform_config_match(c->xfail, c->nxfail, "vadd[default]", "vadd"));
  assert_true(c->dtypes & (1u << CONFORM_DT_F8E5M2));
  assert_false(c->dtypes & (1u << CONFORM_DT_F8E4M3FN));
  conform_config_free(c);
}

/* ---- generators: same recipe, same bits -------------------------------------------- */

static void test_recipe_same_seed_same_bits(void **state)
{
  (void)state;
  ttref_error err = {0};
  conform_recipe r;
  npy_array a = {0}, b = {0}, c = {0};
  int64_t shape[1] = {1000};
  conform_recipe_init(&r);
  r.gen = CONFORM_GEN_UNIFORM_BITS;
  r.seed = 0; /* GSL: seed 0 is mt19937's default 4357 */
  assert_int_equal(conform_gen_fill(&r, CONFORM_DT_U32, 1, shape, &a, &err), TTREF_OK);
  /* GSL's own regression value: the 1000th draw of mt19937 seeded 4357 */
  assert_int_equal(((uint32_t *)a.data)[999], 1186927261u);
  r.gen = CONFORM_GEN_UNIFORM;
  r.seed = 42;
  r.has_range = true;
  r.lo = -2;
  r.hi = 2;
  assert_int_equal(conform_gen_fill(&r, CONFORM_DT_BF16, 1, shape, &b, &err), TTREF_OK);
  assert_int_equal(conform_gen_fill(&r, CONFORM_DT_BF16, 1, shape, &c, &err), TTREF_OK);
  assert_memory_equal(b.data, c.data, b.nbytes);
  npy_free(&c);
  r.seed = 43;
  assert_int_equal(conform_gen_fill(&r, CONFORM_DT_BF16, 1, shape, &c, &err), TTREF_OK);
  assert_true(memcmp(b.data, c.data, b.nbytes) != 0);
  npy_free(&a);
  npy_free(&b);
  npy_free(&c);
}

static void test_uniform_nonzero_redraws_zeros(void **state)
{
  (void)state;
  ttref_error err = {0};
  conform_recipe r;
  npy_array a = {0};
  int64_t shape[1] = {4000};
  conform_recipe_init(&r);
  r.gen = CONFORM_GEN_UNIFORM;
  r.seed = 7;
  r.has_range = true;
  r.ilo = -2, r.ihi = 2, r.lo = -2, r.hi = 2;
  int zeros = 0, neg = 0;
  assert_int_equal(conform_gen_fill(&r, CONFORM_DT_I32, 1, shape, &a, &err), TTREF_OK);
  for (int i = 0; i < 4000; i++) zeros += ((int32_t *)a.data)[i] == 0;
  assert_true(zeros > 400); /* about a fifth without nonzero */
  npy_free(&a);
  r.nonzero = true;
  zeros = 0;
  assert_int_equal(conform_gen_fill(&r, CONFORM_DT_I32, 1, shape, &a, &err), TTREF_OK);
  for (int i = 0; i < 4000; i++) zeros += ((int32_t *)a.data)[i] == 0, neg += ((int32_t *)a.data)[i] < 0;
  assert_int_equal(zeros, 0);
  assert_true(neg > 1500); /* negatives stay */
  npy_free(&a);
  /* floats that round to +-0 are redrawn too: all of [-1e-10, 1e-10] rounds to +-0 in f8E4M3FN */
  r.lo = -1e-10, r.hi = 1e-10;
  assert_int_equal(conform_gen_fill(&r, CONFORM_DT_F8E4M3FN, 1, shape, &a, &err), TTREF_E_INPUT);
  assert_non_null(strstr(err.msg, "only zeros"));
  npy_free(&a);
  r.ilo = 0, r.ihi = 0, r.lo = 0, r.hi = 0;
  assert_int_equal(conform_gen_fill(&r, CONFORM_DT_I8, 1, shape, &a, &err), TTREF_E_INPUT);
  npy_free(&a);
}

static void test_special_sets_cover_the_edges(void **state)
{
  (void)state;
  uint64_t v[64];
  int n = conform_gen_specials(CONFORM_DT_F16, CONFORM_SPECIAL_AUTO, v, 64);
  const uint64_t want[] = {0x0000, 0x8000, 0x7c00, 0xfc00, 0x0001, 0x03ff, 0x0400, 0x7bff, 0x7e00, 0x7c01};
  for (size_t k = 0; k < sizeof want / sizeof want[0]; k++) {
    bool found = false;
    for (int i = 0; i < n; i++) found |= v[i] == want[k];
    if (!found) fail_msg("f16 special set lacks 0x%04llx", (unsigned long long)want[k]);
  }
  n = conform_gen_specials(CONFORM_DT_F8E4M3FN, CONFORM_SPECIAL_AUTO, v, 64);
  bool nan = false, inf = false;
  for (int i = 0; i < n; i++) {
    nan |= v[i] == 0x7f;
    inf |= v[i] == 0x78; /* 256: a value, not inf, in E4M3FN: must not be mistaken for one */
  }
  assert_true(nan);
  assert_false(inf);
  n = conform_gen_specials(CONFORM_DT_I8, CONFORM_SPECIAL_AUTO, v, 64);
  bool min = false, max = false;
  for (int i = 0; i < n; i++) {
    min |= v[i] == 0x80;
    max |= v[i] == 0x7f;
  }
  assert_true(min && max);
}

static void test_dot_set0_products_are_zero(void **state)
{
  (void)state;
  ttref_error err = {0};
  conform_recipe r;
  npy_array a = {0}, b = {0};
  int64_t sa[2] = {4, 16}, sb[2] = {16, 4};
  conform_recipe_init(&r);
  r.gen = CONFORM_GEN_DOT_PRODUCT;
  r.set = 0;
  r.ks = 16;
  r.operand = CONFORM_OPERAND_A;
  assert_int_equal(conform_gen_fill(&r, CONFORM_DT_F32, 2, sa, &a, &err), TTREF_OK);
  r.operand = CONFORM_OPERAND_B;
  r.k_stride = 4;
  assert_int_equal(conform_gen_fill(&r, CONFORM_DT_F32, 2, sb, &b, &err), TTREF_OK);
  /* S0: for every k exactly one of a[m][k] and b[k][n] is zero, so every
     product, and every dot product, is zero */
  const float *pa = a.data, *pb = b.data;
  int zeros = 0;
  for (int m = 0; m < 4; m++)
    for (int nn = 0; nn < 4; nn++)
      for (int k = 0; k < 16; k++) {
        assert_true(pa[m * 16 + k] * pb[k * 4 + nn] == 0.0f);
        zeros += m == 0 && nn == 0 && pa[k] == 0.0f;
      }
  assert_true(zeros > 0 && zeros < 16);
  npy_free(&a);
  npy_free(&b);
}

/* ---- journal and resume ----------------------------------------------------------- */

static void test_journal_torn_line_and_dedup(void **state)
{
  (void)state;
  char path[512];
  ttref_error err = {0};
  conform_record r;
  conform_record_list l = {0};
  snprintf(path, sizeof path, "%s/journal.jsonl", unit_tmpdir());
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  conform_record_init(&r);
  snprintf(r.id, sizeof r.id, "a[default]");
  snprintf(r.reason, sizeof r.reason, "quote \" backslash \\ newline \n tab \t");
  r.verdict = CONFORM_V_FAIL;
  r.worst_got = 1.5;
  r.worst_ref = (double)NAN;
  r.hist[4] = 7;
  assert_int_equal(conform_journal_append(f, &r, &err), TTREF_OK);
  snprintf(r.id, sizeof r.id, "b[default]");
  r.verdict = CONFORM_V_PASS;
  assert_int_equal(conform_journal_append(f, &r, &err), TTREF_OK);
  snprintf(r.id, sizeof r.id, "a[default]"); /* a retried item: the later record wins */
  r.verdict = CONFORM_V_XFAIL;
  assert_int_equal(conform_journal_append(f, &r, &err), TTREF_OK);
  fputs("{\"id\": \"c[default]\", \"verd", f); /* killed mid-write */
  fclose(f);
  assert_int_equal(conform_journal_read(path, true, &l, &err), TTREF_OK);
  assert_int_equal(l.n, 2);
  assert_string_equal(l.v[0].id, "a[default]");
  assert_int_equal(l.v[0].verdict, CONFORM_V_XFAIL);
  assert_string_equal(l.v[0].reason, "quote \" backslash \\ newline \n tab \t");
  assert_true(l.v[0].worst_got == 1.5);
  assert_true(l.v[0].worst_ref != l.v[0].worst_ref); /* NaN round-trips as null */
  assert_int_equal(l.v[0].hist[4], 7);
  conform_record_list_free(&l);
  char *text = NULL;
  size_t len = 0;
  assert_int_equal(ir_fs_read_file(path, &text, &len, &err), TTREF_OK);
  assert_true(len > 0 && text[len - 1] == '\n'); /* the torn line was cut off */
  ir_free(text, len + 1);
}

static void test_record_parse_rejects_garbage(void **state)
{
  (void)state;
  ttref_error err = {0};
  conform_record r;
  const char *bad[] = {
      "", "[]", "{\"id\": 3}", "{\"id\": \"x\", \"verdict\": \"MAYBE\"}", "{\"nope\": 1}", "{\"id\": \"x\""};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
    assert_int_equal(conform_record_parse_json(bad[i], strlen(bad[i]), &r, &err), TTREF_E_INPUT);
}

/* ---- hostile adapters, files and disks (issue #17) ----------------------------------- */

static void test_reply_parse_names_the_case_in_flight(void **state)
{
  (void)state;
  const char *dir = "/r/work/a/v";
  static const struct {
    const char *line;
    conform_reply_kind kind;
    const char *reason;
  } rows[] = {
      {"ok /r/work/a/v", CONFORM_REPLY_OK, ""},
      {"unsupported /r/work/a/v fp8 dot", CONFORM_REPLY_UNSUPPORTED, "fp8 dot"},
      {"error /r/work/a/v boom", CONFORM_REPLY_ERROR, "boom"},
      {"ok /r/work/b/v", CONFORM_REPLY_OTHER, ""},      /* a late or doubled reply */
      {"ok /r/work/a/v2", CONFORM_REPLY_OTHER, ""},     /* a prefix is not the directory */
      {"okay /r/work/a/v", CONFORM_REPLY_BAD, ""},      /* the case in flight, an unknown word */
      {"compiling kernel...", CONFORM_REPLY_NOISE, ""}, /* a log line on stdout */
      {"ok", CONFORM_REPLY_NOISE, ""},
      {"", CONFORM_REPLY_NOISE, ""},
      {"ok relative/dir", CONFORM_REPLY_NOISE, ""},
  };
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
    const char *reason = NULL;
    conform_reply_kind k = conform_reply_parse(rows[i].line, strlen(rows[i].line), dir, &reason);
    if (k != rows[i].kind) fail_msg("'%s': kind %d, expected %d", rows[i].line, (int)k, (int)rows[i].kind);
    assert_string_equal(reason, rows[i].reason);
  }
}

static void test_npy_read_bounded_refuses_fifos_and_links(void **state)
{
  (void)state;
  char fifo[512], link[512], reg[512];
  ttref_error err = {0};
  npy_array a = {0};
  snprintf(fifo, sizeof fifo, "%s/o.fifo", unit_tmpdir());
  snprintf(link, sizeof link, "%s/o.link", unit_tmpdir());
  snprintf(reg, sizeof reg, "%s/k.ttir", unit_tmpdir());
  assert_int_equal(mkfifo(fifo, 0600), 0);
  assert_int_equal(symlink(reg, link), 0);
  /* the .npy readers word it "NAME: WHY" (docs/adapter-protocol.md); no writer: a blocking open would hang */
  assert_int_equal(npy_read_bounded(fifo, "outputs/o.npy", 64, &a, &err), TTREF_E_IO);
  assert_non_null(strstr(err.msg, "outputs/o.npy: not a regular file (a FIFO)"));
  assert_int_equal(npy_read_bounded(link, "outputs/l.npy", 64, &a, &err), TTREF_E_IO);
  assert_non_null(strstr(err.msg, "outputs/l.npy: it is a symbolic link, not a regular file"));
  assert_int_equal(npy_read_bounded(reg, NULL, 64, &a, &err), TTREF_E_INPUT); /* a regular file: read, not npy */
  assert_non_null(strstr(err.msg, "k.ttir"));
  assert_null(a.data);
  unlink(fifo);
  unlink(link);
}

static void test_npy_read_bounded_refuses_big_headers(void **state)
{
  (void)state;
  char path[512];
  ttref_error err = {0};
  npy_array a = {0}, b = {0};
  int64_t shape[1] = {1000};
  snprintf(path, sizeof path, "%s/big.npy", unit_tmpdir());
  assert_int_equal(npy_alloc(&a, 'f', 4, 1, shape, &err), TTREF_OK);
  assert_int_equal(npy_write(path, &a, &err), TTREF_OK);
  assert_int_equal(npy_read_bounded(path, "big.npy", 3999, &b, &err), TTREF_E_LIMIT);
  assert_non_null(strstr(err.msg, "big.npy: header claims 4000 bytes of data, expected 3999"));
  assert_null(b.data);
  assert_int_equal(npy_read_bounded(path, NULL, 4000, &b, &err), TTREF_OK);
  assert_int_equal(b.numel, 1000);
  npy_free(&a);
  npy_free(&b);
}

static void test_journal_append_never_leaves_a_torn_line(void **state)
{
  (void)state;
  char path[512];
  ttref_error err = {0};
  conform_record r;
  struct rlimit old, lim;
  snprintf(path, sizeof path, "%s/torn.jsonl", unit_tmpdir());
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  conform_record_init(&r);
  snprintf(r.id, sizeof r.id, "a[default]");
  assert_int_equal(conform_journal_append(f, &r, &err), TTREF_OK);
  struct stat sb;
  assert_int_equal(stat(path, &sb), 0);
  /* a file-size limit 100 bytes past the first record: the second one fits only in part */
  void (*prev)(int) = signal(SIGXFSZ, SIG_IGN);
  assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
  lim = old;
  lim.rlim_cur = (rlim_t)sb.st_size + 100;
  assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
  snprintf(r.id, sizeof r.id, "b[default]");
  ttref_status st = conform_journal_append(f, &r, &err);
  setrlimit(RLIMIT_FSIZE, &old);
  signal(SIGXFSZ, prev);
  fclose(f);
  assert_int_equal(st, TTREF_E_IO);
  assert_non_null(strstr(err.msg, strerror(EFBIG)));
  struct stat sa;
  assert_int_equal(stat(path, &sa), 0);
  assert_int_equal(sa.st_size, sb.st_size); /* the partial record was cut off again */
  f = fopen("/dev/full", "w");
  if (f) { /* ENOSPC names itself too */
    assert_int_equal(conform_journal_append(f, &r, &err), TTREF_E_IO);
    assert_non_null(strstr(err.msg, strerror(ENOSPC)));
    fclose(f);
  }
}

static void test_reap_descendants_kills_setsid_daemons(void **state)
{
  (void)state;
  int p[2];
  pid_t daemon = -1;
  conform_sys_become_subreaper();
  assert_int_equal(pipe(p), 0);
  pid_t child = fork();
  assert_true(child >= 0);
  if (child == 0) { /* double fork + setsid: the daemon reparents to us, the subreaper */
    pid_t g = fork();
    if (g == 0) {
      setsid();
      for (;;) pause();
    }
    if (write(p[1], &g, sizeof g) != (ssize_t)sizeof g) _exit(1);
    _exit(0);
  }
  assert_int_equal(read(p[0], &daemon, sizeof daemon), (ssize_t)sizeof daemon);
  close(p[0]);
  close(p[1]);
  waitpid(child, NULL, 0);
  assert_int_equal(kill(daemon, 0), 0); /* still running */
  assert_true(conform_sys_reap_descendants(-1) >= 1);
  assert_int_equal(kill(daemon, 0), -1); /* killed and reaped: no zombie either */
  assert_int_equal(conform_sys_reap_descendants(-1), 0);
}

/* ---- verdicts ------------------------------------------------------------------------ */

static void test_verdict_strict_xfail(void **state)
{
  (void)state;
  assert_int_equal(conform_verdict_decide(CONFORM_V_PASS, false, -1), CONFORM_V_PASS);
  assert_int_equal(conform_verdict_decide(CONFORM_V_FAIL, false, -1), CONFORM_V_FAIL);
  assert_int_equal(conform_verdict_decide(CONFORM_V_FAIL, true, -1), CONFORM_V_XFAIL);
  assert_int_equal(conform_verdict_decide(CONFORM_V_CRASH, true, -1), CONFORM_V_XFAIL);
  assert_int_equal(conform_verdict_decide(CONFORM_V_PASS, true, -1), CONFORM_V_XPASS);
  assert_int_equal(conform_verdict_decide(CONFORM_V_QUALITY_WARNING, true, -1), CONFORM_V_XPASS);
  assert_int_equal(conform_verdict_decide(CONFORM_V_TIMEOUT, true, CONFORM_V_CRASH), CONFORM_V_TIMEOUT);
  assert_int_equal(conform_verdict_decide(CONFORM_V_SKIP, true, -1), CONFORM_V_SKIP);
  assert_int_equal(conform_verdict_decide(CONFORM_V_UNSUPPORTED, true, -1), CONFORM_V_UNSUPPORTED);
  assert_true(conform_verdict_unexpected(CONFORM_V_XPASS));
  assert_true(conform_verdict_unexpected(CONFORM_V_TIMEOUT));
  assert_false(conform_verdict_unexpected(CONFORM_V_QUALITY_WARNING));
  assert_false(conform_verdict_unexpected(CONFORM_V_XFAIL));
  assert_string_equal(conform_verdict_name(CONFORM_VERDICT_COUNT), "<invalid>");
  conform_verdict v;
  assert_true(conform_verdict_lookup("QUALITY_WARNING", &v) && v == CONFORM_V_QUALITY_WARNING);
}

/* ---- plugin backends ------------------------------------------------------------------ */

static void test_plugin_request_lists_pointer_args(void **state)
{
  (void)state;
  char path[512];
  char *line = NULL;
  size_t len = 0;
  ttref_error err = {0};
  conform_suite *s = NULL;
  unit_put("req.yaml", GOOD_HEAD "args:\n  x_ptr: {shape: [4]}\n  n: 4\noutputs: {x_ptr: exact}\n");
  snprintf(path, sizeof path, "%s/req.yaml", unit_tmpdir());
  assert_int_equal(conform_suite_load(path, &s, &err), TTREF_OK);
  const conform_case *c = &s->cases[0];
  assert_int_equal(conform_plugin_request(c, &c->specs[0], "/w/req/default", &line, &len, &err), TTREF_OK);
  assert_string_equal(line, "/w/req/default\tx_ptr:f32:o"); /* scalars travel in case.yaml only */
  ir_free(line, len + 1);
  assert_int_equal(conform_plugin_request(c, &c->specs[0], "/w/a\tb", &line, &len, &err), TTREF_E_INPUT);
  assert_null(line);
  conform_suite_free(s);
}

static void test_plugin_open_rejects_bad_plugins(void **state)
{
  (void)state;
  char spec[600];
  conform_backend b;
  ttref_error err = {0};
  assert_int_equal(conform_backend_open("plugin:", &b, &err), TTREF_E_USAGE);
  err = (ttref_error){0};
  snprintf(spec, sizeof spec, "plugin:%s/missing.so", unit_tmpdir());
  assert_int_equal(conform_backend_open(spec, &b, &err), TTREF_E_USAGE);
  assert_non_null(strstr(err.msg, "missing.so"));
  err = (ttref_error){0};
  unit_put("junk.so", "not an ELF file\n");
  snprintf(spec, sizeof spec, "plugin:%s/junk.so", unit_tmpdir());
  assert_int_equal(conform_backend_open(spec, &b, &err), TTREF_E_USAGE); /* loaded in a child: the test survives */
  assert_non_null(strstr(err.msg, "cannot load it"));
}

/* ---- --localize instrumentation ------------------------------------------------------ */

/* Instrument @p path's kernel as `ttref fmt --probes` does (every value --localize
 * probes); the text must parse and verify, with one more argument per probe.
 * Returns the instrumented text (caller frees). */
static char *instrument(const char *path, int *nprobes)
{
  ir_module *m = NULL, *m2 = NULL;
  ttref_error err = {0};
  char *text = NULL;
  size_t len = 0;
  if (ir_parse_file(path, &m, &err) != TTREF_OK) fail_msg("%s: %s", path, err.msg);
  const ir_func *f = ir_module_entry(m);
  assert_non_null(f);
  FILE *out = open_memstream(&text, &len);
  assert_non_null(out);
  if (conform_localize_print_all(m, f, out, nprobes, &err) != TTREF_OK) fail_msg("%s: print: %s", path, err.msg);
  fclose(out);
  if (ir_parse_string(path, text, len, &m2, &err) != TTREF_OK || ir_verify_module(m2, &err) != TTREF_OK)
    fail_msg("%s: the instrumented kernel does not verify: %s", path, err.msg);
  const ir_func *f2 = ir_module_entry(m2);
  assert_int_equal(f2->nargs, f->nargs + *nprobes);
  ir_module_free(m);
  ir_module_free(m2);
  return text;
}

/* unit_put(name, text) then instrument it */
static char *instrument_text(const char *name, const char *ttir, int *nprobes)
{
  char path[512];
  unit_put(name, ttir);
  snprintf(path, sizeof path, "%s/%s", unit_tmpdir(), name);
  return instrument(path, nprobes);
}

static void test_localize_instrumented_corpus_verifies(void **state)
{
  (void)state;
  const char *data = getenv("TTREF_TEST_DATA");
  const char *sets[] = {"corpus/triton-3.6-h100", "corpus/triton-3.6-h100-gen"};
  int kernels = 0, probes = 0;
  assert_non_null(data);
  for (int s = 0; s < 2; s++) {
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/%s", data, sets[s]);
    DIR *d = opendir(dir);
    assert_non_null(d);
    struct dirent *e;
    while ((e = readdir(d))) {
      char path[2048];
      snprintf(path, sizeof path, "%s/%s/kernel.ttir", dir, e->d_name);
      if (e->d_name[0] == '.' || access(path, R_OK) != 0) continue;
      int n = 0;
      free(instrument(path, &n));
      kernels++;
      probes += n;
    }
    closedir(d);
  }
  print_message("instrumented %d corpus kernels with %d probes\n", kernels, probes);
  assert_true(kernels >= 500);
  assert_true(probes > kernels * 3);
}

static void test_localize_masks_undefined_lanes(void **state)
{
  (void)state;
  int n = 0;
  char *t = instrument_text("masked.ttir",
                            "module {\n"
                            "  tt.func public @k(%x_ptr: !tt.ptr<f32>, %o_ptr: !tt.ptr<f32>, %n: i32) {\n"
                            "    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>\n"
                            "    %nn = tt.splat %n : i32 -> tensor<64xi32>\n"
                            "    %mask = arith.cmpi slt, %r, %nn : tensor<64xi32>\n"
                            "    %p = tt.splat %x_ptr : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>\n"
                            "    %q = tt.addptr %p, %r : tensor<64x!tt.ptr<f32>>, tensor<64xi32>\n"
                            "    %x = tt.load %q, %mask : tensor<64x!tt.ptr<f32>>\n"
                            "    %y = arith.mulf %x, %x : tensor<64xf32>\n"
                            "    %z = tt.expand_dims %y {axis = 0 : i32} : tensor<64xf32> -> tensor<1x64xf32>\n"
                            "    %w = tt.broadcast %z : tensor<1x64xf32> -> tensor<4x64xf32>\n"
                            "    %o = tt.splat %o_ptr : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>\n"
                            "    %oq = tt.addptr %o, %r : tensor<64x!tt.ptr<f32>>, tensor<64xi32>\n"
                            "    tt.store %oq, %y, %mask : tensor<64x!tt.ptr<f32>>\n"
                            "    tt.return\n"
                            "  }\n"
                            "}\n",
                            &n);
  /* the load's probe and its lane-wise consumer's keep the load's mask; shape ops carry it along */
  assert_non_null(strstr(t, ", %x, %mask : tensor<64x!tt.ptr<f32>>"));
  assert_non_null(strstr(t, ", %y, %mask : tensor<64x!tt.ptr<f32>>"));
  assert_non_null(strstr(t, "tt.expand_dims %mask {axis = 0 : i32} : tensor<64xi1> -> tensor<1x64xi1>"));
  assert_non_null(strstr(t, "tt.broadcast %ttref_m0 : tensor<1x64xi1> -> tensor<4x64xi1>"));
  /* a defined value (the comparison) is stored unmasked */
  assert_null(strstr(t, ", %mask, %mask"));
  free(t);
}

static void test_localize_loop_bodies_store_the_first_iteration(void **state)
{
  (void)state;
  int n = 0;
  char *t =
      instrument_text("loop.ttir",
                      "module {\n"
                      "  tt.func public @k(%o_ptr: !tt.ptr<f32>, %lo: i32, %hi: i32) {\n"
                      "    %c1 = arith.constant 1 : i32\n"
                      "    %z = arith.constant dense<0.0> : tensor<8xf32>\n"
                      "    %one = arith.constant dense<1.5> : tensor<8xf32>\n"
                      "    %acc = scf.for %i = %lo to %hi step %c1 iter_args(%a = %z) -> (tensor<8xf32>)  : i32 {\n"
                      "      %b = arith.addf %a, %one : tensor<8xf32>\n"
                      "      scf.yield %b : tensor<8xf32>\n"
                      "    }\n"
                      "    %r = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>\n"
                      "    %o = tt.splat %o_ptr : !tt.ptr<f32> -> tensor<8x!tt.ptr<f32>>\n"
                      "    %oq = tt.addptr %o, %r : tensor<8x!tt.ptr<f32>>, tensor<8xi32>\n"
                      "    tt.store %oq, %acc : tensor<8x!tt.ptr<f32>>\n"
                      "    tt.return\n"
                      "  }\n"
                      "}\n",
                      &n);
  assert_int_equal(n, 2); /* %b in the body, %acc after the loop (constants and make_range are not probed) */
  assert_non_null(strstr(t, "arith.cmpi eq, %i, %lo : i32"));
  assert_non_null(strstr(t, "tt.store %ttref_a0, %b, %ttref_g0 : tensor<8x!tt.ptr<f32>>"));
  assert_non_null(strstr(t, "tt.store %ttref_a1, %acc : tensor<8x!tt.ptr<f32>>"));
  free(t);
}

static void test_localize_default_modes(void **state)
{
  (void)state;
  double u;
  assert_int_equal(conform_opmode_default(IR_OP_ADDF, 32, &u), CMP_EXACT);
  assert_int_equal(conform_opmode_default(IR_OP_MATH_EXP, 32, &u), CMP_ULP);
  assert_true(u == 4);
  assert_int_equal(conform_opmode_default(IR_OP_DIVF, 64, &u), CMP_EXACT); /* f64 division is IEEE on GPUs */
  assert_int_equal(conform_opmode_default(IR_OP_DIVF, 16, &u), CMP_ULP);
  assert_true(u == 1);
  assert_int_equal(conform_opmode_default(IR_OP_DOT, 32, &u), CMP_DOT_PRODUCT);
  assert_int_equal(conform_opmode_default(IR_OP_SCAN, 16, &u), CMP_REDUCE);
}

/* ---- unordered outputs and mutants --------------------------------------------- */

static void f32_array(npy_array *a, const float *v, int n)
{
  int64_t shape[1] = {n};
  ttref_error err = {0};
  assert_int_equal(npy_alloc(a, 'f', 4, 1, shape, &err), TTREF_OK);
  memcpy(a->data, v, sizeof *v * (size_t)n);
}

/* float @p v moved @p k ulps up (bit pattern + k) */
static float ulps_up(float v, int k)
{
  uint32_t b;
  memcpy(&b, &v, 4);
  b += (uint32_t)k;
  memcpy(&v, &b, 4);
  return v;
}

static void test_judge_exact_worst_is_the_farthest(void **state)
{
  (void)state;
  const float ref[] = {1.0f, 2.0f, 3.0f, 4.0f, 5.0f};
  const float bad[] = {ulps_up(1.0f, 2), 2.0f, ulps_up(3.0f, 1023), 4.0f, ulps_up(5.0f, 7)};
  npy_array r = {0}, g = {0};
  conform_output out = {"o_ptr", CMP_EXACT, NULL, 0, false, {0}};
  conform_judgement j;
  ttref_error err = {0};
  f32_array(&r, ref, 5);
  f32_array(&g, bad, 5);
  assert_int_equal(conform_judge_output(&out, CONFORM_DT_F32, &g, &r, NULL, NULL, false, &j, &err), TTREF_OK);
  assert_false(j.pass);
  assert_int_equal(j.worst_index, 2); /* not the first failing element [0] */
  assert_true(isfinite(j.max_ratio)); /* a measure, not inf/nan */
  assert_true(j.max_ratio == 1023);   /* ulps apart */
  assert_non_null(strstr(j.reason, "1023 ulp apart"));
  npy_free(&r);
  npy_free(&g);
}

static void test_judge_ftz_reference_applies(void **state)
{
  (void)state;
  const float ref[] = {1.0f, 0x1p-140f, 2.0f}; /* an input was subnormal: the reference kept it */
  const float fz[] = {1.0f, 0.0f, 7.0f};       /* the reference run with subnormals flushed */
  const float got[] = {1.0f, 0.0f, 2.0f};
  const float got_bad[] = {1.0f, 0.0f, 7.5f};
  npy_array r = {0}, f = {0}, g = {0}, b = {0};
  conform_output out = {"o_ptr", CMP_EXACT, NULL, 0, false, {0}};
  conform_judgement j;
  ttref_error err = {0};
  f32_array(&r, ref, 3);
  f32_array(&f, fz, 3);
  f32_array(&g, got, 3);
  f32_array(&b, got_bad, 3);
  /* element 1: the result got flushed: a zero where the reference is subnormal passes under ftz */
  assert_int_equal(conform_judge_output_ftz(&out, CONFORM_DT_F32, &g, &r, NULL, NULL, true, &f, &j, &err), TTREF_OK);
  assert_true(j.pass);
  const float got2[] = {1.0f, 0.0f,
                        7.0f}; /* element 2 computed from flushed inputs: only the FTZ reference allows it */
  npy_array g2 = {0};
  f32_array(&g2, got2, 3);
  assert_int_equal(conform_judge_output_ftz(&out, CONFORM_DT_F32, &g2, &r, NULL, NULL, true, &f, &j, &err), TTREF_OK);
  assert_true(j.pass);
  assert_int_equal(conform_judge_output_ftz(&out, CONFORM_DT_F32, &g2, &r, NULL, NULL, false, &f, &j, &err), TTREF_OK);
  assert_false(j.pass); /* without ftz: a failure */
  assert_int_equal(conform_judge_output_ftz(&out, CONFORM_DT_F32, &b, &r, NULL, NULL, true, &f, &j, &err), TTREF_OK);
  assert_false(j.pass); /* neither reference */
  npy_free(&r);
  npy_free(&f);
  npy_free(&g);
  npy_free(&g2);
  npy_free(&b);
}

static void test_pattern_glob_ids_and_regex(void **state)
{
  (void)state;
  conform_pattern p;
  ttref_error err = {0};
  assert_int_equal(conform_pattern_compile("float_add[f32]", "test", &p, &err), TTREF_OK);
  assert_true(conform_pattern_match(&p, "float_add[f32]", "float_add")); /* a report id matches itself */
  assert_false(conform_pattern_match(&p, "float_add[f16]", "float_add"));
  conform_pattern_free(&p);
  assert_int_equal(conform_pattern_compile("int_*", "test", &p, &err), TTREF_OK);
  assert_true(conform_pattern_match(&p, "int_add_i32[default]", "int_add_i32"));
  assert_false(conform_pattern_match(&p, "xint_add[default]", "xint_add")); /* whole string */
  conform_pattern_free(&p);
  assert_int_equal(conform_pattern_compile("f?oat_*[e*]", "test", &p, &err), TTREF_OK);
  assert_true(conform_pattern_match(&p, "float_mod_f32[edge]", "float_mod_f32"));
  conform_pattern_free(&p);
  assert_int_equal(conform_pattern_compile("^(vadd|int_add)", "test", &p, &err), TTREF_OK);
  assert_true(conform_pattern_match(&p, "vadd_f32[default]", "vadd_f32"));
  assert_false(conform_pattern_match(&p, "float_add[f32]", "float_add"));
  conform_pattern_free(&p);
  assert_int_equal(conform_pattern_compile("^(", "--filter", &p, &err), TTREF_E_USAGE);
}

static void test_judge_unordered_is_a_multiset(void **state)
{
  (void)state;
  const float ref[] = {1.0f, 2.0f, NAN, -0.0f, 3.0f, 2.0f};
  const float perm[] = {3.0f, NAN, 2.0f, -0.0f, 2.0f, 1.0f};
  const float other[] = {3.0f, NAN, 2.0f, -0.0f, 2.5f, 1.0f};
  const float signz[] = {3.0f, NAN, 2.0f, 0.0f, 2.0f, 1.0f};
  npy_array r = {0}, g = {0}, o = {0}, z = {0};
  conform_output out = {"o_ptr", CMP_EXACT, NULL, 0, false, {0}};
  conform_judgement j;
  ttref_error err = {0};
  f32_array(&r, ref, 6);
  f32_array(&g, perm, 6);
  f32_array(&o, other, 6);
  f32_array(&z, signz, 6);
  assert_int_equal(conform_judge_output(&out, CONFORM_DT_F32, &g, &r, NULL, NULL, false, &j, &err), TTREF_OK);
  assert_false(j.pass); /* in order, a permutation is wrong */
  out.unordered = true;
  assert_int_equal(conform_judge_output(&out, CONFORM_DT_F32, &g, &r, NULL, NULL, false, &j, &err), TTREF_OK);
  assert_true(j.pass);
  assert_int_equal(conform_judge_output(&out, CONFORM_DT_F32, &o, &r, NULL, NULL, false, &j, &err), TTREF_OK);
  assert_false(j.pass);               /* another multiset */
  assert_int_equal(j.worst_index, 4); /* reported at got's own position */
  assert_int_equal(conform_judge_output(&out, CONFORM_DT_F32, &z, &r, NULL, NULL, false, &j, &err), TTREF_OK);
  assert_false(j.pass); /* -0 and +0 are different elements under EXACT */
  npy_free(&r);
  npy_free(&g);
  npy_free(&o);
  npy_free(&z);
}

/* Sites of every mutant over the kernels in DIR/ * /kernel.ttir (or DIR/ *.ttir): adds into sites[]. */
static void mutant_sites(const char *dir, bool flat, int sites[CONFORM_MUTANT_COUNT], char first[][2048])
{
  DIR *d = opendir(dir);
  struct dirent *e;
  assert_non_null(d);
  while ((e = readdir(d))) {
    char path[2048];
    ir_module *m = NULL;
    ttref_error err = {0};
    if (flat) snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    else snprintf(path, sizeof path, "%s/%s/kernel.ttir", dir, e->d_name);
    if (e->d_name[0] == '.' || (flat && !strstr(e->d_name, ".ttir")) || access(path, R_OK) != 0) continue;
    assert_int_equal(ir_parse_file(path, &m, &err), TTREF_OK);
    for (int k = 0; k < CONFORM_MUTANT_COUNT; k++) {
      conform_mutant_opts mo;
      int n = 0;
      assert_int_equal(conform_mutant_apply(m, k, false, &mo, &n, &err), TTREF_OK);
      if (n && !sites[k]) snprintf(first[k], sizeof first[k], "%s", path);
      sites[k] += n;
    }
    ir_module_free(m);
  }
  closedir(d);
}

static void test_mutants_apply_to_shipped_kernels_and_verify(void **state)
{
  (void)state;
  const char *data = getenv("TTREF_TEST_DATA");
  const char *src = getenv("TTREF_SRCDIR");
  int sites[CONFORM_MUTANT_COUNT] = {0};
  static char first[CONFORM_MUTANT_COUNT][2048];
  char dir[1024];
  int k;
  assert_non_null(data);
  assert_true(CONFORM_MUTANT_COUNT >= 20);
  snprintf(dir, sizeof dir, "%s/corpus/triton-3.6-h100-gen", data);
  mutant_sites(dir, false, sites, first);
  snprintf(dir, sizeof dir, "%s/conformance/suite/core/kernels", src && *src ? src : ".");
  mutant_sites(dir, true, sites, first);
  snprintf(dir, sizeof dir, "%s/conformance/suite/ops/kernels", src && *src ? src : "."); /* e.g. unordered cmpf */
  mutant_sites(dir, true, sites, first);
  for (k = 0; k < CONFORM_MUTANT_COUNT; k++) {
    ir_module *m = NULL;
    ttref_error err = {0};
    conform_mutant_opts mo;
    int n = 0, again = 0;
    if (!sites[k]) print_message("mutant %s has no site\n", conform_mutant_name(k));
    assert_true(sites[k] > 0);
    /* applied, it rewrites as many sites as the dry run counted, and the result still verifies */
    assert_int_equal(ir_parse_file(first[k], &m, &err), TTREF_OK);
    assert_int_equal(conform_mutant_apply(m, k, false, &mo, &n, &err), TTREF_OK);
    assert_int_equal(conform_mutant_apply(m, k, true, &mo, &again, &err), TTREF_OK);
    assert_int_equal(n, again);
    if (ir_verify_module(m, &err) != TTREF_OK)
      print_message("%s on %s: %s\n", conform_mutant_name(k), first[k], err.msg);
    assert_int_equal(ir_verify_module(m, &err), TTREF_OK);
    assert_int_equal(mo.ftz, k == CONFORM_MUT_FTZ);
    assert_int_equal(mo.contract, k == CONFORM_MUT_FMA_CONTRACT);
    ir_module_free(m);
  }
  assert_true(conform_mutant_lookup("extsi-as-extui", &k) && k == CONFORM_MUT_EXTSI_ZERO);
  assert_false(conform_mutant_lookup("no-such", &k));
}

static void test_mutant_list_parsing(void **state)
{
  (void)state;
  int ids[CONFORM_MUTANT_COUNT + 1], n = 0;
  ttref_error err = {0};
  assert_int_equal(conform_mutant_parse_list("all", ids, &n, &err), TTREF_OK);
  assert_int_equal(n, CONFORM_MUTANT_COUNT);
  assert_int_equal(conform_mutant_parse_list("ftz,cmpi-slt-as-sle,ftz", ids, &n, &err), TTREF_OK);
  assert_int_equal(n, 2);
  assert_int_equal(ids[0], CONFORM_MUT_FTZ);
  assert_int_equal(ids[1], CONFORM_MUT_CMPI_SLT_SLE);
  assert_int_equal(conform_mutant_parse_list("ftz,bogus", ids, &n, &err), TTREF_E_USAGE);
  assert_non_null(strstr(err.msg, "unknown mutant 'bogus'"));
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_sha256_fips_vectors),
      cmocka_unit_test(test_sha256_million_a_incremental),
      cmocka_unit_test(test_yaml_unknown_key_located),
      cmocka_unit_test(test_yaml_syntax_error_located),
      cmocka_unit_test(test_yaml_bad_generator_located),
      cmocka_unit_test(test_yaml_missing_seed_located),
      cmocka_unit_test(test_yaml_unbound_and_unknown_args),
      cmocka_unit_test(test_yaml_bad_mode_and_option),
      cmocka_unit_test(test_yaml_duplicate_variant_key),
      cmocka_unit_test(test_yaml_good_case_loads),
      cmocka_unit_test(test_yaml_unsafe_names_located),
      cmocka_unit_test(test_suite_reads_only_inside),
      cmocka_unit_test(test_config_errors_located),
      cmocka_unit_test(test_recipe_same_seed_same_bits),
      cmocka_unit_test(test_uniform_nonzero_redraws_zeros),
      cmocka_unit_test(test_special_sets_cover_the_edges),
      cmocka_unit_test(test_dot_set0_products_are_zero),
      cmocka_unit_test(test_journal_torn_line_and_dedup),
      cmocka_unit_test(test_record_parse_rejects_garbage),
      cmocka_unit_test(test_reply_parse_names_the_case_in_flight),
      cmocka_unit_test(test_npy_read_bounded_refuses_fifos_and_links),
      cmocka_unit_test(test_npy_read_bounded_refuses_big_headers),
      cmocka_unit_test(test_journal_append_never_leaves_a_torn_line),
      cmocka_unit_test(test_reap_descendants_kills_setsid_daemons),
      cmocka_unit_test(test_verdict_strict_xfail),
      cmocka_unit_test(test_plugin_request_lists_pointer_args),
      cmocka_unit_test(test_plugin_open_rejects_bad_plugins),
      cmocka_unit_test(test_localize_instrumented_corpus_verifies),
      cmocka_unit_test(test_localize_masks_undefined_lanes),
      cmocka_unit_test(test_localize_loop_bodies_store_the_first_iteration),
      cmocka_unit_test(test_localize_default_modes),
      cmocka_unit_test(test_judge_unordered_is_a_multiset),
      cmocka_unit_test(test_judge_exact_worst_is_the_farthest),
      cmocka_unit_test(test_judge_ftz_reference_applies),
      cmocka_unit_test(test_pattern_glob_ids_and_regex),
      cmocka_unit_test(test_mutants_apply_to_shipped_kernels_and_verify),
      cmocka_unit_test(test_mutant_list_parsing),
  };
  return cmocka_run_group_tests_name("conform", tests, setup, teardown);
}
