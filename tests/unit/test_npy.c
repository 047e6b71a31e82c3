/*
 * test_npy.c: unit tests for interp/npy_io (.npy read/write): round trips,
 * numpy-written fixtures (tests/data/npy, found through $TTREF_TEST_DATA),
 * every malformed-input diagnostic, streams, and every NOMEM path.
 * Over 1000 lines on purpose: one cmocka group per binary (STYLE.md) keeps the tests of
 * interp/npy_io in one file, sharing its fixtures; tests/unit/unit_fixture.c holds what files share.
 */
#define _GNU_SOURCE /* mkdtemp, mkfifo, fork, memmem */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ir_base.h"
#include "npy_io.h"
#include "unit_fixture.h"

/*
 * Fixtures in tests/data/npy were written by numpy 1.24.2:
 *   np.save('f4_2x3.npy', np.arange(6, dtype='<f4').reshape(2,3) * 0.5 - 1)
 *   np.save('i8_scalar.npy', np.array(-7, dtype='<i8'))
 *   np.save('u1_5.npy', np.array([0, 1, 127, 128, 255], dtype='u1'))
 *   np.save('b1_4.npy', np.array([True, False, False, True]))
 *   np.save('f8_fortran_2x3x4.npy', np.asfortranarray(np.arange(24.0).reshape(2,3,4)))
 *   np.save('i4_be_3x2.npy', (np.arange(6, dtype='>i4').reshape(3,2) - 3) * 100000)
 *   np.save('f2_empty_0x3.npy', np.zeros((0,3), dtype='<f2'))
 *   np.save('f2_7.npy', np.array([0, 1, -2, 0.5, 65504, np.inf, -0.0], dtype='<f2'))
 *   np.lib.format.write_array(f, np.array([1.5, -2, 3, 4], dtype='<f4'), version=(2,0))  # f4_v2_4
 *   np.lib.format.write_array(f, np.array([[1, 2], [65535, 40000]], dtype='<u2'),
 *                             version=(3,0))                                         # u2_v3_2x2
 *   np.lib.format.write_array_header_1_0(f, {'descr': '|u1', 'fortran_order': False,
 *       'shape': (0, 10**9, 10**9, 10**9, 10**9)})  # u1_empty_wide: growth padding crosses 64
 */

/* ---- fixture (tests/unit/unit_fixture.c): the counting allocator around every test, a temporary directory ---- */

static int group_setup(void **state)
{
  (void)state;
  return unit_tmpdir_new("test_npy") ? 0 : -1;
}

static int group_teardown(void **state)
{
  (void)state;
  return unit_tmpdir_remove();
}

static int test_setup(void **state)
{
  (void)state;
  unit_alloc_begin(0);
  return 0;
}

/* Every test must leave no live bytes and free with the right sizes. */
static int test_teardown(void **state)
{
  (void)state;
  unit_alloc_stats s = unit_alloc_end();
  assert_int_equal(s.live, 0);
  assert_false(s.size_mismatch);
  return 0;
}

/* ---- helpers ---- */

static const char *data_path(const char *name)
{
  char rel[256];
  snprintf(rel, sizeof rel, "npy/%s", name);
  return unit_data_path(rel);
}

/*
 * Build a .npy image: magic, version major.minor, header length field
 * (strlen(header) unless hlen_field >= 0), header verbatim, data.
 */
static size_t build_npy(unsigned char *buf, size_t cap, int major, int minor, const char *header, long hlen_field,
                        const void *data, size_t ndata)
{
  size_t hl = strlen(header), lf = major == 1 ? 2 : 4, n = 0;
  uint32_t field = hlen_field >= 0 ? (uint32_t)hlen_field : (uint32_t)hl;
  assert_true(8 + lf + hl + ndata <= cap);
  memcpy(buf, "\x93NUMPY", 6);
  buf[6] = (unsigned char)major;
  buf[7] = (unsigned char)minor;
  for (size_t k = 0; k < lf; k++) buf[8 + k] = (unsigned char)(field >> (8 * k));
  n = 8 + lf;
  memcpy(buf + n, header, hl);
  n += hl;
  if (ndata) memcpy(buf + n, data, ndata);
  return n + ndata;
}

/* Assert that msg contains every NULL-terminated word. */
static void assert_msg_has(const ttref_error *err, ...)
{
  va_list ap;
  va_start(ap, err);
  for (const char *w; (w = va_arg(ap, const char *)) != NULL;) {
    if (!strstr(err->msg, w)) fail_msg("message \"%s\" lacks \"%s\"", err->msg, w);
  }
  va_end(ap);
  assert_null(strchr(err->msg, '\n')); /* one line */
}

static void assert_zeroed(const npy_array *a)
{
  npy_array z;
  memset(&z, 0, sizeof z);
  assert_memory_equal(a, &z, sizeof z);
}

/* Parse header+data from memory as "x.npy"; expect failure with code and words. */
#define EXPECT_BAD(buf, len, want, ...)                                                                                \
  do {                                                                                                                 \
    npy_array a_;                                                                                                      \
    ttref_error e_;                                                                                                    \
    memset(&e_, 0, sizeof e_);                                                                                         \
    assert_int_equal(npy_read_mem("x.npy", (buf), (len), &a_, &e_), (want));                                           \
    assert_int_equal(e_.code, (want));                                                                                 \
    assert_msg_has(&e_, "x.npy: ", __VA_ARGS__, (const char *)NULL);                                                   \
    assert_zeroed(&a_);                                                                                                \
  } while (0)

/* The image fails with want and msg both from memory (as "x.npy") and from the file TMPDIR/name. */
static void expect_bad_mem_and_file(const unsigned char *buf, size_t n, const char *name, ttref_status want,
                                    const char *msg)
{
  EXPECT_BAD(buf, n, want, msg);
  unit_spit(unit_tmp_path(name), buf, n);
  npy_array a;
  ttref_error e;
  memset(&e, 0, sizeof e);
  assert_int_equal(npy_read(unit_tmp_path(name), &a, &e), want);
  assert_msg_has(&e, unit_tmp_path(name), msg, (const char *)NULL);
  assert_zeroed(&a);
}

/* Build a v1 file from a header and check it is rejected. */
static void expect_bad_header(const char *header, ttref_status code, const char *w1, const char *w2)
{
  unsigned char buf[1024];
  static const unsigned char data[64];
  size_t n = build_npy(buf, sizeof buf, 1, 0, header, -1, data, sizeof data);
  npy_array a;
  ttref_error e;
  memset(&e, 0, sizeof e);
  ttref_status st = npy_read_mem("x.npy", buf, n, &a, &e);
  if (st != code) fail_msg("header %s: status %d (%s), want %d", header, st, e.msg, code);
  assert_msg_has(&e, "x.npy: ", w1, w2, (const char *)NULL);
  assert_zeroed(&a);
}

/* Read a good v1 header+data from memory. */
static void read_good(const char *header, int major, const void *data, size_t ndata, npy_array *a)
{
  unsigned char buf[4096];
  size_t n = build_npy(buf, sizeof buf, major, 0, header, -1, data, ndata);
  ttref_error e;
  memset(&e, 0, sizeof e);
  ttref_status st = npy_read_mem("x.npy", buf, n, a, &e);
  if (st != TTREF_OK) fail_msg("header %s: %s", header, e.msg);
}

static void assert_shape(const npy_array *a, char kind, int elsize, int rank, const int64_t *shape)
{
  int64_t numel = 1;
  assert_int_equal(a->kind, kind);
  assert_int_equal(a->elsize, elsize);
  assert_int_equal(a->rank, rank);
  for (int d = 0; d < rank; d++) {
    assert_int_equal(a->shape[d], shape[d]);
    numel *= shape[d];
  }
  for (int d = rank; d < NPY_MAX_RANK; d++) assert_int_equal(a->shape[d], 0);
  assert_int_equal(a->numel, numel);
  assert_int_equal(a->nbytes, (size_t)numel * (size_t)elsize);
  if (a->nbytes) assert_non_null(a->data);
}

/* ---- round trips ---- */

static const struct {
  char kind;
  int elsize;
  const char *descr;
} dtypes[] = {
    {'b', 1, "|b1"}, {'i', 1, "|i1"}, {'i', 2, "<i2"}, {'i', 4, "<i4"}, {'i', 8, "<i8"}, {'u', 1, "|u1"},
    {'u', 2, "<u2"}, {'u', 4, "<u4"}, {'u', 8, "<u8"}, {'f', 2, "<f2"}, {'f', 4, "<f4"}, {'f', 8, "<f8"},
};

static void test_npy_roundtrip_every_dtype_rank0_to_3(void **state)
{
  (void)state;
  static const int64_t shapes[4][3] = {{0}, {5}, {3, 4}, {2, 3, 2}};
  for (size_t t = 0; t < sizeof dtypes / sizeof dtypes[0]; t++)
    for (int rank = 0; rank <= 3; rank++) {
      npy_array a, b;
      ttref_error e;
      char descr[8];
      assert_int_equal(npy_alloc(&a, dtypes[t].kind, dtypes[t].elsize, rank, shapes[rank], &e), TTREF_OK);
      assert_string_equal(npy_descr(&a, descr), dtypes[t].descr);
      unsigned char *p = a.data;
      for (size_t k = 0; k < a.nbytes; k++)
        p[k] = dtypes[t].kind == 'b' ? (unsigned char)(k % 3 == 0) : (unsigned char)(k * 37 + 11);
      const char *path = unit_tmp_path("rt.npy");
      assert_int_equal(npy_write(path, &a, &e), TTREF_OK);

      size_t len = 0;
      unsigned char *raw = unit_slurp(path, &len);
      assert_memory_equal(raw, "\x93NUMPY\x01\x00", 8);
      size_t off = 10 + (size_t)(raw[8] | raw[9] << 8);
      assert_int_equal(off % 64, 0);
      assert_int_equal(len, off + a.nbytes);
      assert_int_equal(raw[off - 1], '\n');
      assert_non_null(memmem(raw, off, descr, 3));
      free(raw);

      memset(&e, 0, sizeof e);
      if (npy_read(path, &b, &e) != TTREF_OK) fail_msg("%s rank %d: %s", descr, rank, e.msg);
      assert_shape(&b, a.kind, a.elsize, a.rank, a.shape);
      assert_memory_equal(b.data, a.data, a.nbytes);
      npy_free(&a);
      npy_free(&b);
    }
}

static void test_npy_roundtrip_rank8_and_zero_size(void **state)
{
  (void)state;
  static const int64_t s8[8] = {2, 1, 2, 1, 3, 1, 1, 2};
  static const int64_t s0[3] = {4, 0, 3};
  npy_array a, b;
  ttref_error e;
  assert_int_equal(npy_alloc(&a, 'f', 4, 8, s8, &e), TTREF_OK);
  for (int64_t k = 0; k < a.numel; k++) ((float *)a.data)[k] = (float)k * 0.25f;
  assert_int_equal(npy_write(unit_tmp_path("r8.npy"), &a, &e), TTREF_OK);
  assert_int_equal(npy_read(unit_tmp_path("r8.npy"), &b, &e), TTREF_OK);
  assert_shape(&b, 'f', 4, 8, s8);
  assert_memory_equal(a.data, b.data, a.nbytes);
  npy_free(&a);
  npy_free(&b);

  assert_int_equal(npy_alloc(&a, 'i', 2, 3, s0, &e), TTREF_OK);
  assert_null(a.data);
  assert_int_equal(npy_write(unit_tmp_path("z.npy"), &a, &e), TTREF_OK);
  assert_int_equal(npy_read(unit_tmp_path("z.npy"), &b, &e), TTREF_OK);
  assert_shape(&b, 'i', 2, 3, s0);
  assert_null(b.data);
  npy_free(&a);
  npy_free(&b);
}

static void test_npy_write_new_refuses_existing_files_and_links(void **state)
{
  (void)state;
  static const int64_t s3[1] = {3};
  npy_array a, b;
  ttref_error e;
  assert_int_equal(npy_alloc(&a, 'i', 4, 1, s3, &e), TTREF_OK);
  for (int k = 0; k < 3; k++) ((int32_t *)a.data)[k] = 7 * k - 1;
  char fresh[8300], victim[8300], link_path[8300];
  snprintf(fresh, sizeof fresh, "%s", unit_tmp_path("new.npy"));
  snprintf(victim, sizeof victim, "%s", unit_tmp_path("victim.txt"));
  snprintf(link_path, sizeof link_path, "%s", unit_tmp_path("link.npy"));
  assert_int_equal(npy_write_new(fresh, &a, &e), TTREF_OK);
  assert_int_equal(npy_read(fresh, &b, &e), TTREF_OK);
  assert_memory_equal(a.data, b.data, a.nbytes);
  npy_free(&b);
  assert_int_equal(npy_write_new(fresh, &a, &e), TTREF_E_IO); /* exists: not overwritten */
  assert_int_equal(npy_read(fresh, &b, &e), TTREF_OK);
  npy_free(&b);
  unit_spit(victim, (const unsigned char *)"keep", 4);
  assert_int_equal(symlink(victim, link_path), 0);
  assert_int_equal(npy_write_new(link_path, &a, &e), TTREF_E_IO); /* never through a link */
  size_t n = 0;
  unsigned char *v = unit_slurp(victim, &n);
  assert_int_equal(n, 4);
  assert_memory_equal(v, "keep", 4);
  free(v);
  npy_free(&a);
}

static void test_npy_descr_strings(void **state)
{
  (void)state;
  char buf[8];
  npy_array a;
  memset(&a, 0, sizeof a);
  a.kind = 'f', a.elsize = 4;
  assert_string_equal(npy_descr(&a, buf), "<f4");
  a.kind = 'u', a.elsize = 1;
  assert_string_equal(npy_descr(&a, buf), "|u1");
  a.kind = 'b', a.elsize = 1;
  assert_string_equal(npy_descr(&a, buf), "|b1");
  a.kind = 'b', a.elsize = 2;
  assert_string_equal(npy_descr(&a, buf), "<invalid>");
  a.kind = 'c', a.elsize = 8;
  assert_string_equal(npy_descr(&a, buf), "<invalid>");
  a.kind = 'f', a.elsize = 1;
  assert_string_equal(npy_descr(&a, buf), "<invalid>");
  assert_string_equal(npy_descr(NULL, buf), "<invalid>");
}

/* ---- numpy-written fixtures ---- */

static void read_fixture(const char *name, npy_array *a)
{
  ttref_error e;
  memset(&e, 0, sizeof e);
  if (npy_read(data_path(name), a, &e) != TTREF_OK)
    fail_msg("%s: %s (set TTREF_TEST_DATA to the tests/data folder)", name, e.msg);
}

static void test_npy_numpy_fixtures_values(void **state)
{
  (void)state;
  npy_array a;

  read_fixture("f4_2x3.npy", &a);
  static const float f4[6] = {-1.0f, -0.5f, 0.0f, 0.5f, 1.0f, 1.5f};
  assert_shape(&a, 'f', 4, 2, (const int64_t[]){2, 3});
  assert_memory_equal(a.data, f4, sizeof f4);
  npy_free(&a);

  read_fixture("i8_scalar.npy", &a);
  assert_shape(&a, 'i', 8, 0, NULL);
  assert_int_equal(*(int64_t *)a.data, -7);
  npy_free(&a);

  read_fixture("u1_5.npy", &a);
  assert_shape(&a, 'u', 1, 1, (const int64_t[]){5});
  assert_memory_equal(a.data, "\x00\x01\x7f\x80\xff", 5);
  npy_free(&a);

  read_fixture("b1_4.npy", &a);
  assert_shape(&a, 'b', 1, 1, (const int64_t[]){4});
  assert_memory_equal(a.data, "\x01\x00\x00\x01", 4);
  npy_free(&a);

  read_fixture("f8_fortran_2x3x4.npy", &a);
  assert_shape(&a, 'f', 8, 3, (const int64_t[]){2, 3, 4});
  for (int k = 0; k < 24; k++) assert_true(((double *)a.data)[k] == (double)k);
  npy_free(&a);

  read_fixture("i4_be_3x2.npy", &a);
  assert_shape(&a, 'i', 4, 2, (const int64_t[]){3, 2});
  for (int k = 0; k < 6; k++) assert_int_equal(((int32_t *)a.data)[k], (k - 3) * 100000);
  npy_free(&a);

  read_fixture("f2_empty_0x3.npy", &a);
  assert_shape(&a, 'f', 2, 2, (const int64_t[]){0, 3});
  assert_null(a.data);
  npy_free(&a);

  read_fixture("f2_7.npy", &a);
  static const uint16_t f2[7] = {0x0000, 0x3c00, 0xc000, 0x3800, 0x7bff, 0x7c00, 0x8000};
  assert_shape(&a, 'f', 2, 1, (const int64_t[]){7});
  assert_memory_equal(a.data, f2, sizeof f2);
  npy_free(&a);
}

static void test_npy_numpy_fixtures_v2_v3(void **state)
{
  (void)state;
  npy_array a;
  read_fixture("f4_v2_4.npy", &a);
  static const float f4[4] = {1.5f, -2.0f, 3.0f, 4.0f};
  assert_shape(&a, 'f', 4, 1, (const int64_t[]){4});
  assert_memory_equal(a.data, f4, sizeof f4);
  npy_free(&a);

  read_fixture("u2_v3_2x2.npy", &a);
  static const uint16_t u2[4] = {1, 2, 65535, 40000};
  assert_shape(&a, 'u', 2, 2, (const int64_t[]){2, 2});
  assert_memory_equal(a.data, u2, sizeof u2);
  npy_free(&a);
}

/* npy_write's output is byte-identical to np.save's for little-endian C-order arrays. */
static void test_npy_write_matches_numpy_bytes(void **state)
{
  (void)state;
  static const char *const names[] = {"f4_2x3.npy",       "i8_scalar.npy", "u1_5.npy",         "b1_4.npy",
                                      "f2_empty_0x3.npy", "f2_7.npy",      "u1_empty_wide.npy"};
  for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
    npy_array a;
    ttref_error e;
    size_t n1 = 0, n2 = 0;
    read_fixture(names[k], &a);
    assert_int_equal(npy_write(unit_tmp_path("same.npy"), &a, &e), TTREF_OK);
    unsigned char *want = unit_slurp(data_path(names[k]), &n1);
    unsigned char *got = unit_slurp(unit_tmp_path("same.npy"), &n2);
    if (n1 != n2 || memcmp(want, got, n1)) fail_msg("%s: npy_write differs from numpy", names[k]);
    free(want);
    free(got);
    npy_free(&a);
  }
}

/* ---- accepted variants ---- */

static void test_npy_v2_v3_headers(void **state)
{
  (void)state;
  static const int32_t d[3] = {-1, 2, 70000};
  npy_array a;
  read_good("{'descr': '<i4', 'fortran_order': False, 'shape': (3,), }", 2, d, sizeof d, &a);
  assert_shape(&a, 'i', 4, 1, (const int64_t[]){3});
  assert_memory_equal(a.data, d, sizeof d);
  npy_free(&a);
  read_good("{'descr': '<i4', 'fortran_order': False, 'shape': (3,), }\n", 3, d, sizeof d, &a);
  assert_shape(&a, 'i', 4, 1, (const int64_t[]){3});
  assert_memory_equal(a.data, d, sizeof d);
  npy_free(&a);
}

static void test_npy_big_endian_swapped(void **state)
{
  (void)state;
  npy_array a;
  read_good("{'descr': '>f4', 'fortran_order': False, 'shape': (2,)}", 1, "\x3f\x80\x00\x00\xc0\x20\x00\x00", 8, &a);
  assert_shape(&a, 'f', 4, 1, (const int64_t[]){2});
  assert_true(((float *)a.data)[0] == 1.0f && ((float *)a.data)[1] == -2.5f);
  npy_free(&a);

  read_good("{'descr': '>i2', 'fortran_order': False, 'shape': (2,)}", 1, "\x01\x02\xff\xfe", 4, &a);
  assert_int_equal(((int16_t *)a.data)[0], 0x0102);
  assert_int_equal(((int16_t *)a.data)[1], -2);
  npy_free(&a);

  read_good("{'descr': '>u8', 'fortran_order': False, 'shape': ()}", 1, "\x01\x02\x03\x04\x05\x06\x07\x08", 8, &a);
  assert_true(*(uint64_t *)a.data == 0x0102030405060708ull);
  npy_free(&a);

  read_good("{'descr': '>f8', 'fortran_order': False, 'shape': (1,)}", 1, "\x40\x09\x21\xfb\x54\x44\x2d\x18", 8, &a);
  assert_true(*(double *)a.data == 3.141592653589793);
  npy_free(&a);

  read_good("{'descr': '>f2', 'fortran_order': False, 'shape': (2,)}", 1, "\x3c\x00\x7b\xff", 4, &a);
  assert_int_equal(((uint16_t *)a.data)[0], 0x3c00);
  assert_int_equal(((uint16_t *)a.data)[1], 0x7bff);
  npy_free(&a);

  read_good("{'descr': '>i1', 'fortran_order': False, 'shape': (2,)}", 1, "\x80\x7f", 2, &a);
  assert_shape(&a, 'i', 1, 1, (const int64_t[]){2});
  assert_memory_equal(a.data, "\x80\x7f", 2);
  npy_free(&a);
}

static void test_npy_native_and_not_applicable_descr(void **state)
{
  (void)state;
  npy_array a;
  static const int32_t i4[2] = {5, -6};
  read_good("{'descr': '=i4', 'fortran_order': False, 'shape': (2,)}", 1, i4, 8, &a);
  assert_shape(&a, 'i', 4, 1, (const int64_t[]){2});
  assert_memory_equal(a.data, i4, 8);
  npy_free(&a);
  read_good("{'descr': '|i1', 'fortran_order': False, 'shape': (1,)}", 1, "\xfe", 1, &a);
  assert_int_equal(((int8_t *)a.data)[0], -2);
  npy_free(&a);
  read_good("{'descr': '|b1', 'fortran_order': False, 'shape': (2,)}", 1, "\x00\x01", 2, &a);
  assert_shape(&a, 'b', 1, 1, (const int64_t[]){2});
  npy_free(&a);
  read_good("{'descr': '<u1', 'fortran_order': False, 'shape': (1,)}", 1, "\xff", 1, &a);
  assert_shape(&a, 'u', 1, 1, (const int64_t[]){1});
  npy_free(&a);
}

static void test_npy_fortran_order_transposed(void **state)
{
  (void)state;
  npy_array a;
  /* 2x3 in Fortran order: columns (0,3) (1,4) (2,5) */
  read_good("{'descr': '|u1', 'fortran_order': True, 'shape': (2, 3)}", 1, "\x00\x03\x01\x04\x02\x05", 6, &a);
  assert_shape(&a, 'u', 1, 2, (const int64_t[]){2, 3});
  assert_memory_equal(a.data, "\x00\x01\x02\x03\x04\x05", 6);
  npy_free(&a);

  /* 3x2 big-endian i2, Fortran order: swap and transpose together */
  read_good("{'descr': '>i2', 'fortran_order': True, 'shape': (3, 2)}", 1,
            "\x00\x00\x00\x02\x00\x04\x00\x01\x00\x03\x00\x05", 12, &a);
  for (int k = 0; k < 6; k++) assert_int_equal(((int16_t *)a.data)[k], k);
  npy_free(&a);

  /* 2x2x2 f4: C index (i,j,k) holds 4i+2j+k, stored at i + 2j + 4k */
  float f[8];
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 2; j++)
      for (int k = 0; k < 2; k++) f[i + 2 * j + 4 * k] = (float)(4 * i + 2 * j + k);
  read_good("{'descr': '<f4', 'fortran_order': True, 'shape': (2, 2, 2)}", 1, f, sizeof f, &a);
  for (int k = 0; k < 8; k++) assert_true(((float *)a.data)[k] == (float)k);
  npy_free(&a);

  /* rank 1, rank 0 and empty: nothing to transpose */
  read_good("{'descr': '|u1', 'fortran_order': True, 'shape': (3,)}", 1, "abc", 3, &a);
  assert_memory_equal(a.data, "abc", 3);
  npy_free(&a);
  read_good("{'descr': '|u1', 'fortran_order': True, 'shape': ()}", 1, "z", 1, &a);
  assert_memory_equal(a.data, "z", 1);
  npy_free(&a);
  read_good("{'descr': '<f4', 'fortran_order': True, 'shape': (0, 4)}", 1, "", 0, &a);
  assert_shape(&a, 'f', 4, 2, (const int64_t[]){0, 4});
  npy_free(&a);

  /* rank 8 with dims > 1 on several axes */
  static const int64_t s8[8] = {2, 1, 3, 1, 1, 2, 1, 2};
  uint8_t src[24];
  int64_t fs[8], cs[8];
  fs[0] = 1;
  cs[7] = 1;
  for (int d = 1; d < 8; d++) fs[d] = fs[d - 1] * s8[d - 1];
  for (int d = 6; d >= 0; d--) cs[d] = cs[d + 1] * s8[d + 1];
  for (int64_t lin = 0; lin < 24; lin++) { /* C linear index -> F offset */
    int64_t r = lin, off = 0;
    for (int d = 0; d < 8; d++) off += (r / cs[d]) * fs[d], r %= cs[d];
    src[off] = (uint8_t)lin;
  }
  read_good("{'descr': '|u1', 'fortran_order': True, 'shape': (2, 1, 3, 1, 1, 2, 1, 2)}", 1, src, 24, &a);
  for (int k = 0; k < 24; k++) assert_int_equal(((uint8_t *)a.data)[k], k);
  npy_free(&a);
}

static void test_npy_header_syntax_variants(void **state)
{
  (void)state;
  static const char *const headers[] = {
      "{'descr': '<i2', 'fortran_order': False, 'shape': (2, 3), }",
      "{\"shape\": (2, 3), \"descr\": \"<i2\", \"fortran_order\": False}",
      "{'fortran_order':False,'shape':(2,3,),'descr':'<i2'}",
      " \t{ 'shape' :\n( 2 ,\t3 ) , 'fortran_order' : False , 'descr' : '<i2' , }  \n\n   ",
      "{'descr': '<i2', 'fortran_order': False, 'shape': (2L, 3L), }\n", /* Python 2 numpy */
      "{'descr': '<i2', 'fortran_order': False, 'shape': (+2, 3), }",
  };
  static const int16_t d[6] = {1, 2, 3, 4, 5, 6};
  for (size_t k = 0; k < sizeof headers / sizeof headers[0]; k++) {
    npy_array a;
    read_good(headers[k], 1, d, sizeof d, &a);
    assert_shape(&a, 'i', 2, 2, (const int64_t[]){2, 3});
    assert_memory_equal(a.data, d, sizeof d);
    npy_free(&a);
  }
}

static void test_npy_shape_forms(void **state)
{
  (void)state;
  npy_array a;
  read_good("{'descr': '<f8', 'fortran_order': False, 'shape': ()}", 1, "\0\0\0\0\0\0\xf0\x3f", 8, &a);
  assert_shape(&a, 'f', 8, 0, NULL);
  assert_true(*(double *)a.data == 1.0);
  npy_free(&a);
  read_good("{'descr': '|u1', 'fortran_order': False, 'shape': (5,)}", 1, "abcde", 5, &a);
  assert_shape(&a, 'u', 1, 1, (const int64_t[]){5});
  npy_free(&a);
  read_good("{'descr': '|u1', 'fortran_order': False, 'shape': (3, 4)}", 1, "abcdefghijkl", 12, &a);
  assert_shape(&a, 'u', 1, 2, (const int64_t[]){3, 4});
  npy_free(&a);
  read_good("{'descr': '<f4', 'fortran_order': False, 'shape': (0,)}", 1, "", 0, &a);
  assert_shape(&a, 'f', 4, 1, (const int64_t[]){0});
  assert_null(a.data);
  npy_free(&a);
  /* a zero dim makes huge other dims harmless (numel 0), as in numpy */
  read_good("{'descr': '<f8', 'fortran_order': False, 'shape': (9223372036854775807, 0, 4)}", 1, "", 0, &a);
  assert_int_equal(a.numel, 0);
  npy_free(&a);
}

static void test_npy_trailing_garbage_ignored(void **state)
{
  (void)state;
  npy_array a;
  ttref_error e;
  read_good("{'descr': '|u1', 'fortran_order': False, 'shape': (2,)}", 1, "ABgarbage", 9, &a);
  assert_int_equal(a.nbytes, 2);
  assert_memory_equal(a.data, "AB", 2);
  npy_free(&a);
  /* same through a real file */
  unsigned char buf[256];
  size_t n =
      build_npy(buf, sizeof buf, 1, 0, "{'descr': '|u1', 'fortran_order': False, 'shape': (2,)}", -1, "ABgarbage", 9);
  unit_spit(unit_tmp_path("garbage.npy"), buf, n);
  assert_int_equal(npy_read(unit_tmp_path("garbage.npy"), &a, &e), TTREF_OK);
  assert_memory_equal(a.data, "AB", 2);
  npy_free(&a);
}

/* ---- malformed input ---- */

static void test_npy_short_or_missing_magic(void **state)
{
  (void)state;
  EXPECT_BAD("", 0, TTREF_E_INPUT, "not a .npy file", "too short");
  EXPECT_BAD("\x93NU", 3, TTREF_E_INPUT, "not a .npy file", "too short");
  EXPECT_BAD("PK\x03\x04 this is a zip", 20, TTREF_E_INPUT, "not a .npy file", "magic");
  EXPECT_BAD("\x93NUMPX\x01\x00\x10\x00", 10, TTREF_E_INPUT, "not a .npy file", "magic");
  EXPECT_BAD("ab", 2, TTREF_E_INPUT, "not a .npy file", "magic");
  EXPECT_BAD("\x93NUMPY", 6, TTREF_E_INPUT, "truncated", "version");
  EXPECT_BAD("\x93NUMPY\x01", 7, TTREF_E_INPUT, "truncated", "version");
}

static void test_npy_unknown_version(void **state)
{
  (void)state;
  EXPECT_BAD("\x93NUMPY\x04\x00\x10\x00\x00\x00", 12, TTREF_E_INPUT, "unknown", "version 4.0");
  EXPECT_BAD("\x93NUMPY\x00\x00\x10\x00", 10, TTREF_E_INPUT, "unknown", "version 0.0");
  EXPECT_BAD("\x93NUMPY\x01\x01\x10\x00", 10, TTREF_E_INPUT, "unknown", "version 1.1");
}

static void test_npy_truncated_header(void **state)
{
  (void)state;
  EXPECT_BAD("\x93NUMPY\x01\x00\x10", 9, TTREF_E_INPUT, "truncated", "header length");
  EXPECT_BAD("\x93NUMPY\x02\x00\x10\x00\x00", 11, TTREF_E_INPUT, "truncated", "header length");
  unsigned char buf[256];
  const char *h = "{'descr': '<f4', 'fortran_order': False, 'shape': (1,)}";
  size_t n = build_npy(buf, sizeof buf, 1, 0, h, -1, NULL, 0);
  EXPECT_BAD(buf, n - 10, TTREF_E_INPUT, "header length 55", "beyond the end of the file");
}

static void test_npy_header_length_beyond_file(void **state)
{
  (void)state;
  unsigned char buf[256];
  const char *h = "{'descr': '<f4', 'fortran_order': False, 'shape': (1,)}";
  size_t n = build_npy(buf, sizeof buf, 1, 0, h, 65535, "abcd", 4);
  EXPECT_BAD(buf, n, TTREF_E_INPUT, "header length 65535", "beyond the end of the file");
  n = build_npy(buf, sizeof buf, 2, 0, h, 0xfffffff0L, "abcd", 4);
  EXPECT_BAD(buf, n, TTREF_E_INPUT, "header length 4294967280", "beyond the end of the file");
  assert_true(unit_alloc.max_block < 4096); /* nothing sized by the bogus length */
}

static void test_npy_header_too_long(void **state)
{
  (void)state;
  size_t hl = (2u << 20) + 3, n = 12 + hl;
  unsigned char *buf = malloc(n);
  assert_non_null(buf);
  memcpy(buf, "\x93NUMPY\x02\x00", 8);
  for (int k = 0; k < 4; k++) buf[8 + k] = (unsigned char)(hl >> (8 * k));
  memset(buf + 12, ' ', hl);
  memcpy(buf + 12, "{'descr': '|u1', 'fortran_order': False, 'shape': (0,)}", 55);
  EXPECT_BAD(buf, n, TTREF_E_LIMIT, "header length 2097155", "exceeds the limit");
  assert_true(unit_alloc.max_block < 4096);
  free(buf);
}

static void test_npy_malformed_dict(void **state)
{
  (void)state;
  expect_bad_header("", TTREF_E_INPUT, "malformed header", "dict");
  expect_bad_header("['descr', '<f4']", TTREF_E_INPUT, "malformed header", "dict");
  expect_bad_header("{'descr': '<f4', 'fortran_order': False, 'shape': (1,)", TTREF_E_INPUT, "malformed header",
                    "expected ',' or '}'");
  expect_bad_header("{'descr' '<f4', 'fortran_order': False, 'shape': (1,)}", TTREF_E_INPUT, "malformed header",
                    "expected ':'");
  expect_bad_header("{'descr': '<f4' 'fortran_order': False, 'shape': (1,)}", TTREF_E_INPUT, "malformed header",
                    "expected ',' or '}'");
  expect_bad_header("{'descr: '<f4', 'fortran_order': False, 'shape': (1,)}", TTREF_E_INPUT, "malformed header",
                    "expected ':'");
  expect_bad_header("{'descr': '<f4, 'fortran_order': False, 'shape': (1,)}", TTREF_E_INPUT, "malformed header", "");
  expect_bad_header("{'descr': '<f4', 'fortran_order': False, 'shape': (1,), 'x': 1}", TTREF_E_INPUT,
                    "malformed header", "unknown key 'x'");
  expect_bad_header("{'descr': '<f4', 'shape': (1,)}", TTREF_E_INPUT, "malformed header",
                    "missing key 'fortran_order'");
  expect_bad_header("{'fortran_order': False, 'shape': (1,)}", TTREF_E_INPUT, "malformed header",
                    "missing key 'descr'");
  expect_bad_header("{'descr': '<f4', 'fortran_order': False}", TTREF_E_INPUT, "malformed header",
                    "missing key 'shape'");
  expect_bad_header("{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (1,)}", TTREF_E_INPUT,
                    "malformed header", "duplicate key 'descr'");
  expect_bad_header("{'descr': '<f4', 'fortran_order': False, 'shape': (1,)} x", TTREF_E_INPUT, "malformed header",
                    "after the dict");
  expect_bad_header("{'descr': '<f4', 'fortran_order': 0, 'shape': (1,)}", TTREF_E_INPUT, "malformed header",
                    "fortran_order");
  expect_bad_header("{'descr': '<f4', 'fortran_order': Falsey, 'shape': (1,)}", TTREF_E_INPUT, "malformed header",
                    "fortran_order");
  expect_bad_header("{'descr': '<f4', 'fortran_order': False, 'shape': [1]}", TTREF_E_INPUT, "malformed header",
                    "shape is not a tuple");
  expect_bad_header("{'descr': '<f4', 'fortran_order': False, 'shape': (1)}", TTREF_E_INPUT, "malformed header",
                    "trailing comma");
  expect_bad_header("{'descr': '<f4', 'fortran_order': False, 'shape': (1 2)}", TTREF_E_INPUT, "malformed header",
                    "expected ',' or ')'");
  expect_bad_header("{'descr': '<f4', 'fortran_order': False, 'shape': (1,", TTREF_E_INPUT, "non-integer", "shape");
  expect_bad_header("{'descr': 'x\\y', 'fortran_order': False, 'shape': (1,)}", TTREF_E_INPUT, "malformed header",
                    "string");
  expect_bad_header("{'descr': '<f4xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx', 'fortran_order': False, "
                    "'shape': (1,)}",
                    TTREF_E_INPUT, "malformed header", "string too long");
  expect_bad_header("{'descr': None, 'fortran_order': False, 'shape': (1,)}", TTREF_E_INPUT, "malformed header",
                    "quoted string");
  expect_bad_header("{descr: '<f4', 'fortran_order': False, 'shape': (1,)}", TTREF_E_INPUT, "malformed header",
                    "quoted string");
  /* an embedded NUL is not whitespace */
  unsigned char buf[256];
  static const char h[] = "{'descr': '<f4', 'fortran_order': False, 'shape': (1,)}\0   ";
  size_t n = build_npy(buf, sizeof buf, 1, 0, "", (long)sizeof h - 1, NULL, 0);
  memcpy(buf + n, h, sizeof h - 1);
  memcpy(buf + n + sizeof h - 1, "abcd", 4);
  EXPECT_BAD(buf, n + sizeof h - 1 + 4, TTREF_E_INPUT, "malformed header", "after the dict");
}

static void test_npy_unsupported_descr(void **state)
{
  (void)state;
  static const struct {
    const char *descr, *why;
  } cases[] = {
      {"<c8", "complex"},      {"<c16", "complex"},     {"|O", "object"},          {"|O8", "object"},
      {"<U5", "unicode"},      {"|S3", "byte string"},  {"|V8", "void"},           {"<M8[ns]", "datetime"},
      {"<m8[s]", "timedelta"}, {"<f16", "unsupported"}, {"<i3", "unsupported"},    {"<f1", "unsupported"},
      {"|b2", "unsupported"},  {"", "unsupported"},     {"<", "unsupported"},      {"zz", "unsupported"},
      {"<f", "unsupported"},   {"<i4 ", "unsupported"}, {"<f0004", "unsupported"}, {"?", "unsupported"},
  };
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    char h[160], quoted[40];
    snprintf(h, sizeof h, "{'descr': '%s', 'fortran_order': False, 'shape': (1,)}", cases[k].descr);
    snprintf(quoted, sizeof quoted, "'%s'", cases[k].descr);
    expect_bad_header(h, TTREF_E_INPUT, quoted, cases[k].why);
  }
  expect_bad_header("{'descr': [('a', '<f4'), ('b', '<i4')], 'fortran_order': False, 'shape': (1,)}", TTREF_E_INPUT,
                    "unsupported descr", "structured");
}

/* a NUL (or any control character) inside a header string is refused, not a string end */
static void test_npy_control_char_in_string(void **state)
{
  (void)state;
  static const unsigned char data[64];
  static const char *const headers[] = {
      "{'descr': '<f4#', 'fortran_order': False, 'shape': (1,)}",
      "{'descr': '<f4', 'fortran_order': False, 'shape': (1,), 'x#': 1}",
  };
  for (int h = 0; h < 2; h++)
    for (int ch = 0; ch < 0x20; ch += 0x1f) { /* NUL and 0x1f */
      unsigned char buf[1024];
      size_t n = build_npy(buf, sizeof buf, 1, 0, headers[h], -1, data, sizeof data);
      unsigned char *hash = memchr(buf, '#', n);
      assert_non_null(hash);
      *hash = (unsigned char)ch;
      npy_array a;
      ttref_error e;
      memset(&e, 0, sizeof e);
      assert_int_equal(npy_read_mem("x.npy", buf, n, &a, &e), TTREF_E_INPUT);
      assert_msg_has(&e, "x.npy: ", "control character", (const char *)NULL);
      assert_zeroed(&a);
    }
}

static void test_npy_negative_dim(void **state)
{
  (void)state;
  expect_bad_header("{'descr': '<f4', 'fortran_order': False, 'shape': (-3,)}", TTREF_E_INPUT, "negative dimension",
                    "-3");
  expect_bad_header("{'descr': '<f4', 'fortran_order': False, 'shape': (2, -1)}", TTREF_E_INPUT, "negative dimension",
                    "-1");
  expect_bad_header("{'descr': '<f4', 'fortran_order': False, 'shape': (-99999999999999999999,)}", TTREF_E_INPUT,
                    "negative dimension", "-9999");
}

static void test_npy_non_integer_dim(void **state)
{
  (void)state;
  static const char *const shapes[] = {"(2.5,)",   "(2, 3.0)", "('a',)", "(None,)", "(1e3,)", "(0x10,)",
                                       "(1_000,)", "(2j,)",    "(,)",    "(True,)", "(3L,)"};
  for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; k++) {
    char h[160];
    snprintf(h, sizeof h, "{'descr': '<f4', 'fortran_order': False, 'shape': %s}", shapes[k]);
    unsigned char buf[512];
    size_t n = build_npy(buf, sizeof buf, k == 10 ? 3 : 1, 0, h, -1, NULL, 0); /* 'L' only before 3.0 */
    EXPECT_BAD(buf, n, TTREF_E_INPUT, "shape", "non-integer dimension");
  }
}

static void test_npy_rank_over_8(void **state)
{
  (void)state;
  expect_bad_header("{'descr': '<f4', 'fortran_order': False, 'shape': (1, 1, 1, 1, 1, 1, 1, 1, 1)}", TTREF_E_LIMIT,
                    "more than 8 dimensions", "rank");
  /* exactly 8 is fine */
  npy_array a;
  read_good("{'descr': '<f4', 'fortran_order': False, 'shape': (1, 1, 1, 1, 1, 1, 1, 1)}", 1, "abcd", 4, &a);
  assert_int_equal(a.rank, 8);
  npy_free(&a);
}

static void test_npy_size_overflow(void **state)
{
  (void)state;
  expect_bad_header("{'descr': '<f8', 'fortran_order': False, 'shape': (4611686018427387904, 4)}", TTREF_E_LIMIT,
                    "too large", "overflows");
  expect_bad_header("{'descr': '<f8', 'fortran_order': False, 'shape': (1152921504606846976,)}", TTREF_E_LIMIT,
                    "too large", "overflows"); /* 2^60 * 8 bytes */
  expect_bad_header("{'descr': '|u1', 'fortran_order': False, 'shape': (99999999999999999999,)}", TTREF_E_LIMIT,
                    "dimension", "larger than 2^63-1");
  expect_bad_header("{'descr': '|u1', 'fortran_order': False, 'shape': (9223372036854775808,)}", TTREF_E_LIMIT,
                    "dimension", "larger than 2^63-1");
  assert_true(unit_alloc.max_block < 4096);
}

static void test_npy_huge_claim_rejected_before_alloc(void **state)
{
  (void)state;
  unsigned char buf[512];
  size_t n = build_npy(buf, sizeof buf, 1, 0, "{'descr': '|u1', 'fortran_order': False, 'shape': (1099511627776,)}", -1,
                       "0123456789", 10);
  expect_bad_mem_and_file(buf, n, "huge.npy", TTREF_E_INPUT,
                          "header claims 1099511627776 bytes of data but the file has 10");
  assert_true(unit_alloc.max_block < 4096);
}

static void test_npy_truncated_data(void **state)
{
  (void)state;
  unsigned char buf[512];
  size_t n = build_npy(buf, sizeof buf, 1, 0, "{'descr': '<f4', 'fortran_order': False, 'shape': (10,)}", -1,
                       "0123456789ab", 12);
  expect_bad_mem_and_file(buf, n, "trunc.npy", TTREF_E_INPUT, "header claims 40 bytes of data but the file has 12");
}

/* Every proper prefix of a valid file fails cleanly; single-byte corruptions never crash or leak. */
static void test_npy_truncations_and_corruptions_fail_cleanly(void **state)
{
  (void)state;
  static const char *const names[] = {"f8_fortran_2x3x4.npy", "u2_v3_2x2.npy", "i4_be_3x2.npy"};
  for (size_t f = 0; f < sizeof names / sizeof names[0]; f++) {
    size_t len = 0;
    unsigned char *raw = unit_slurp(data_path(names[f]), &len);
    npy_array a;
    ttref_error e;
    for (size_t cut = 0; cut < len; cut++) {
      memset(&e, 0, sizeof e);
      ttref_status st = npy_read_mem("cut.npy", raw, cut, &a, &e);
      if (st != TTREF_E_INPUT) fail_msg("%s cut at %zu: status %d", names[f], cut, st);
      assert_non_null(strstr(e.msg, "cut.npy: "));
      assert_zeroed(&a);
    }
    static const unsigned char subst[] = {0, ' ', '\'', '"', ',', ':', '(', ')', '{', '}', '-', '9', 0xff};
    for (size_t pos = 0; pos < len && pos < 140; pos++)
      for (size_t s = 0; s < sizeof subst; s++) {
        unsigned char save = raw[pos];
        raw[pos] = subst[s];
        memset(&e, 0, sizeof e);
        ttref_status st = npy_read_mem("bad.npy", raw, len, &a, &e);
        if (st == TTREF_OK) npy_free(&a);
        else {
          assert_true(st == TTREF_E_INPUT || st == TTREF_E_LIMIT);
          assert_non_null(strstr(e.msg, "bad.npy: "));
          assert_zeroed(&a);
        }
        raw[pos] = save;
      }
    free(raw);
  }
  assert_true(unit_alloc.max_block < (1u << 20) + 64);
}

/* ---- files and streams ---- */

static void test_npy_open_errors(void **state)
{
  (void)state;
  npy_array a;
  ttref_error e;
  assert_int_equal(npy_read(unit_tmp_path("does-not-exist.npy"), &a, &e), TTREF_E_IO);
  assert_msg_has(&e, unit_tmp_path("does-not-exist.npy"), "cannot open", "No such file", (const char *)NULL);
  assert_zeroed(&a);
  assert_int_equal(npy_read(unit_tmpdir(), &a, &e), TTREF_E_IO);
  assert_msg_has(&e, unit_tmpdir(), "directory", (const char *)NULL);
  assert_zeroed(&a);
  assert_int_equal(npy_read(NULL, &a, &e), TTREF_E_USAGE);
  assert_int_equal(npy_read_mem("m", NULL, 4, &a, &e), TTREF_E_USAGE);
  assert_int_equal(npy_read_mem(NULL, "", 0, &a, &e), TTREF_E_INPUT);
  assert_msg_has(&e, "<memory>: ", "not a .npy file", (const char *)NULL);
}

/* Feed buf to npy_read through a FIFO (size unknown: the streaming path). */
static ttref_status read_via_fifo(const void *buf, size_t len, npy_array *a, ttref_error *e)
{
  const char *p = unit_tmp_path("fifo");
  char path[8192];
  snprintf(path, sizeof path, "%s", p);
  remove(path);
  assert_int_equal(mkfifo(path, 0600), 0);
  pid_t pid = fork();
  assert_true(pid >= 0);
  if (pid == 0) {
    FILE *f = fopen(path, "wb");
    if (f) {
      fwrite(buf, 1, len, f);
      fclose(f);
    }
    _exit(0);
  }
  ttref_status st = npy_read(path, a, e); /* a writer cut short by EPIPE just dies */
  waitpid(pid, NULL, 0);
  remove(path);
  return st;
}

static void test_npy_stream_input(void **state)
{
  (void)state;
  /* 3 MiB of data: the stream buffer grows past its first chunk */
  size_t nd = 3u << 20, cap = nd + 256;
  unsigned char *buf = malloc(cap), *d = malloc(nd);
  assert_non_null(buf);
  assert_non_null(d);
  for (size_t k = 0; k < nd; k++) d[k] = (unsigned char)(k * 131 + 7);
  size_t n = build_npy(buf, cap, 1, 0, "{'descr': '|u1', 'fortran_order': False, 'shape': (3145728,)}", -1, d, nd);
  npy_array a;
  ttref_error e;
  memset(&e, 0, sizeof e);
  if (read_via_fifo(buf, n, &a, &e) != TTREF_OK) fail_msg("%s", e.msg);
  assert_int_equal(a.nbytes, nd);
  assert_memory_equal(a.data, d, nd);
  npy_free(&a);

  /* a lying header on a stream: the buffer only grows with what arrives */
  unit_alloc.max_block = 0;
  n = build_npy(buf, cap, 1, 0, "{'descr': '|u1', 'fortran_order': False, 'shape': (1099511627776,)}", -1, d, 100);
  assert_int_equal(read_via_fifo(buf, n, &a, &e), TTREF_E_INPUT);
  assert_msg_has(&e, "fifo: ", "header claims 1099511627776 bytes of data but the file has 100", (const char *)NULL);
  assert_true(unit_alloc.max_block <= (1u << 20));
  assert_zeroed(&a);

  /* ... also after the first chunk fills: growth doubles, never jumps to the claim */
  unit_alloc.max_block = 0;
  n = build_npy(buf, cap, 1, 0, "{'descr': '|u1', 'fortran_order': False, 'shape': (1099511627776,)}", -1, d,
                (1u << 20) + 100);
  assert_int_equal(read_via_fifo(buf, n, &a, &e), TTREF_E_INPUT);
  assert_msg_has(&e, "header claims 1099511627776 bytes of data but the file has 1048676", (const char *)NULL);
  assert_true(unit_alloc.max_block <= (2u << 20));

  n = build_npy(buf, cap, 1, 0, "{'descr': '|u1', 'fortran_order': False, 'shape': (3145728,)}", -1, d, (2u << 20) + 5);
  assert_int_equal(read_via_fifo(buf, n, &a, &e), TTREF_E_INPUT);
  assert_msg_has(&e, "header claims 3145728 bytes of data but the file has 2097157", (const char *)NULL);

  /* header shorter than its length field says */
  n = build_npy(buf, cap, 1, 0, "{'descr': '|u1', 'fortran_order': False, 'shape': (1,)}", 200, NULL, 0);
  assert_int_equal(read_via_fifo(buf, n, &a, &e), TTREF_E_INPUT);
  assert_msg_has(&e, "truncated header", (const char *)NULL);
  free(buf);
  free(d);
}

/* ---- npy_alloc / npy_free / npy_write argument checks ---- */

static void test_npy_alloc_and_free(void **state)
{
  (void)state;
  npy_array a;
  ttref_error e;
  assert_int_equal(npy_alloc(&a, 'f', 8, 2, (const int64_t[]){3, 5}, &e), TTREF_OK);
  assert_shape(&a, 'f', 8, 2, (const int64_t[]){3, 5});
  for (size_t k = 0; k < a.nbytes; k++) assert_int_equal(((unsigned char *)a.data)[k], 0);
  npy_free(&a);
  assert_zeroed(&a);
  npy_free(&a); /* twice is fine once zeroed */
  npy_free(NULL);

  assert_int_equal(npy_alloc(&a, 'u', 2, 0, NULL, &e), TTREF_OK);
  assert_int_equal(a.numel, 1);
  assert_int_equal(a.nbytes, 2);
  npy_free(&a);

  assert_int_equal(npy_alloc(&a, 'c', 8, 1, (const int64_t[]){1}, &e), TTREF_E_INPUT);
  assert_msg_has(&e, "invalid dtype", (const char *)NULL);
  assert_zeroed(&a);
  assert_int_equal(npy_alloc(&a, 'f', 3, 1, (const int64_t[]){1}, &e), TTREF_E_INPUT);
  assert_int_equal(npy_alloc(&a, 'b', 4, 1, (const int64_t[]){1}, &e), TTREF_E_INPUT);
  assert_int_equal(npy_alloc(&a, 'i', 4, 9, (const int64_t[]){1, 1, 1, 1, 1, 1, 1, 1, 1}, &e), TTREF_E_INPUT);
  assert_msg_has(&e, "rank 9", (const char *)NULL);
  assert_int_equal(npy_alloc(&a, 'i', 4, -1, NULL, &e), TTREF_E_INPUT);
  assert_int_equal(npy_alloc(&a, 'i', 4, 2, NULL, &e), TTREF_E_INPUT);
  assert_int_equal(npy_alloc(&a, 'i', 4, 2, (const int64_t[]){2, -2}, &e), TTREF_E_INPUT);
  assert_msg_has(&e, "negative", (const char *)NULL);
  assert_int_equal(npy_alloc(&a, 'i', 4, 2, (const int64_t[]){INT64_MAX, 2}, &e), TTREF_E_LIMIT);
  assert_int_equal(npy_alloc(&a, 'i', 8, 1, (const int64_t[]){INT64_MAX / 4}, &e), TTREF_E_LIMIT);
  assert_msg_has(&e, "too large", (const char *)NULL);
  assert_zeroed(&a);
  assert_int_equal(npy_alloc(NULL, 'i', 4, 0, NULL, &e), TTREF_E_USAGE);
  assert_int_equal(npy_alloc(&a, 'i', 4, 0, NULL, NULL), TTREF_OK); /* err may be NULL */
  npy_free(&a);
}

static void test_npy_write_rejects_bad_arrays(void **state)
{
  (void)state;
  npy_array a;
  ttref_error e;
  char p[8192];
  snprintf(p, sizeof p, "%s", unit_tmp_path("w.npy")); /* tmp_path's buffer is reused below */
  assert_int_equal(npy_alloc(&a, 'i', 4, 1, (const int64_t[]){4}, &e), TTREF_OK);
  a.numel = 5;
  remove(p);
  assert_int_equal(npy_write(p, &a, &e), TTREF_E_INPUT);
  assert_msg_has(&e, p, "inconsistent", (const char *)NULL);
  assert_int_equal(access(p, F_OK), -1); /* nothing created */
  a.numel = 4;
  a.kind = 'x';
  assert_int_equal(npy_write(p, &a, &e), TTREF_E_INPUT);
  assert_msg_has(&e, "invalid dtype", (const char *)NULL);
  a.kind = 'i';
  a.rank = 9;
  assert_int_equal(npy_write(p, &a, &e), TTREF_E_INPUT);
  a.rank = 1;
  a.shape[0] = -4;
  assert_int_equal(npy_write(p, &a, &e), TTREF_E_INPUT);
  a.shape[0] = INT64_MAX;
  assert_int_equal(npy_write(p, &a, &e), TTREF_E_LIMIT);
  a.shape[0] = 4;
  void *keep = a.data;
  a.data = NULL;
  assert_int_equal(npy_write(p, &a, &e), TTREF_E_INPUT);
  a.data = keep;
  assert_int_equal(npy_write(NULL, &a, &e), TTREF_E_USAGE);
  assert_int_equal(npy_write(p, NULL, &e), TTREF_E_USAGE);
  assert_int_equal(npy_write(unit_tmp_path("no/such/dir.npy"), &a, &e), TTREF_E_IO);
  assert_msg_has(&e, "no/such/dir.npy", "cannot create", (const char *)NULL);
  assert_int_equal(npy_write(p, &a, &e), TTREF_OK);
  npy_free(&a);
}

static void test_npy_write_error_removes_partial_file(void **state)
{
  (void)state;
  npy_array a;
  ttref_error e;
  struct rlimit old, small;
  const char *p = unit_tmp_path("partial.npy");
  assert_int_equal(npy_alloc(&a, 'u', 1, 1, (const int64_t[]){100000}, &e), TTREF_OK);

  /* a 4 KiB file size limit makes the data write fail with EFBIG */
  void (*old_handler)(int) = signal(SIGXFSZ, SIG_IGN);
  assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
  small = old;
  small.rlim_cur = 4096;
  assert_int_equal(setrlimit(RLIMIT_FSIZE, &small), 0);
  ttref_status st = npy_write(p, &a, &e);
  assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
  signal(SIGXFSZ, old_handler);
  assert_int_equal(st, TTREF_E_IO);
  assert_msg_has(&e, p, "write error", (const char *)NULL);
  assert_int_equal(access(p, F_OK), -1); /* the partial file is gone */

  /* a device that fails writes (ENOSPC) is reported and left in place */
  if (access("/dev/full", W_OK) != 0) fail_msg("/dev/full is needed for this test");
  assert_int_equal(npy_write("/dev/full", &a, &e), TTREF_E_IO);
  assert_msg_has(&e, "/dev/full", "write error", (const char *)NULL);
  assert_int_equal(access("/dev/full", F_OK), 0);
  npy_free(&a);
}

/* ---- OOM: every allocation failure gives TTREF_E_NOMEM and leaks nothing ---- */

static void test_npy_nomem_every_allocation(void **state)
{
  (void)state;
  size_t len = 0;
  unsigned char *raw = unit_slurp(data_path("f8_fortran_2x3x4.npy"), &len);
  unit_spit(unit_tmp_path("oom.npy"), raw, len);
  for (int which = 0; which < 3; which++) {
    int saw_ok = 0;
    for (long k = 1; k < 20 && !saw_ok; k++) {
      npy_array a;
      ttref_error e;
      memset(&e, 0, sizeof e);
      unit_alloc.requests = 0;
      unit_alloc.fail_at = k;
      ttref_status st = which == 0   ? npy_read_mem("oom.npy", raw, len, &a, &e)
                        : which == 1 ? npy_read(unit_tmp_path("oom.npy"), &a, &e)
                                     : npy_alloc(&a, 'f', 4, 2, (const int64_t[]){8, 8}, &e);
      unit_alloc.fail_at = 0;
      if (st == TTREF_OK) {
        saw_ok = 1;
        assert_true(k > 1); /* at least one allocation was exercised */
        npy_free(&a);
      } else {
        assert_int_equal(st, TTREF_E_NOMEM);
        assert_msg_has(&e, "out of memory", (const char *)NULL);
        assert_zeroed(&a);
      }
      assert_int_equal(unit_alloc.live, 0);
    }
    assert_true(saw_ok);
  }
  /* streaming path: the first buffer and a growth step */
  static const int64_t big[1] = {(3 << 20)};
  npy_array src;
  ttref_error e;
  assert_int_equal(npy_alloc(&src, 'u', 1, 1, big, &e), TTREF_OK);
  assert_int_equal(npy_write(unit_tmp_path("big.npy"), &src, &e), TTREF_OK);
  npy_free(&src);
  free(raw);
  raw = unit_slurp(unit_tmp_path("big.npy"), &len);
  int saw_ok = 0;
  for (long k = 1; k < 20 && !saw_ok; k++) {
    npy_array a;
    memset(&e, 0, sizeof e);
    unit_alloc.requests = 0;
    unit_alloc.fail_at = k;
    ttref_status st = read_via_fifo(raw, len, &a, &e);
    unit_alloc.fail_at = 0;
    if (st == TTREF_OK) {
      saw_ok = 1;
      assert_true(k > 3); /* header, first chunk, two growth steps */
      npy_free(&a);
    } else assert_int_equal(st, TTREF_E_NOMEM);
    assert_int_equal(unit_alloc.live, 0);
  }
  assert_true(saw_ok);
  free(raw);
}

/* ---- npy_read_map: large inputs mapped copy-on-write ---- */

/* A v1 file of n f32 values i*0.25 with a header padded so the data starts at @p data_off. */
static void write_f32_file(const char *path, size_t n, size_t data_off, const char *descr, int fortran_2d)
{
  char hdr[256];
  int w = fortran_2d
              ? snprintf(hdr, sizeof hdr, "{'descr': '%s', 'fortran_order': True, 'shape': (%zu, 2), }", descr, n / 2)
              : snprintf(hdr, sizeof hdr, "{'descr': '%s', 'fortran_order': False, 'shape': (%zu,), }", descr, n);
  assert_true(w > 0 && (size_t)w + 11 <= data_off && data_off - 10 < sizeof hdr);
  memset(hdr + w, ' ', data_off - 10 - (size_t)w);
  hdr[data_off - 11] = '\n';
  hdr[data_off - 10] = 0;
  size_t len = data_off + n * 4;
  unsigned char *buf = malloc(len);
  assert_non_null(buf);
  assert_int_equal(build_npy(buf, len, 1, 0, hdr, -1, NULL, 0), data_off);
  for (size_t i = 0; i < n; i++) {
    float f = (float)i * 0.25f;
    memcpy(buf + data_off + 4 * i, &f, 4);
    if (descr[0] == '>') {
      unsigned char *p = buf + data_off + 4 * i, t0 = p[0], t1 = p[1];
      p[0] = p[3], p[1] = p[2], p[2] = t1, p[3] = t0;
    }
  }
  unit_spit(path, buf, len);
  free(buf);
}

static void test_npy_map_large_file_private_copy(void **state)
{
  (void)state;
  const size_t n = NPY_MAP_MIN / 4 * 2; /* 2 * NPY_MAP_MIN bytes */
  write_f32_file(unit_tmp_path("map.npy"), n, 128, "<f4", 0);
  size_t len0 = 0;
  unsigned char *before = unit_slurp(unit_tmp_path("map.npy"), &len0);
  npy_array r, m;
  ttref_error e;
  memset(&e, 0, sizeof e);
  assert_int_equal(npy_read(unit_tmp_path("map.npy"), &r, &e), TTREF_OK);
  assert_null(r.map);
  assert_int_equal(npy_read_map(unit_tmp_path("map.npy"), &m, &e), TTREF_OK);
  assert_non_null(m.map);
  assert_true(m.map_len >= 128 + n * 4);
  assert_ptr_equal(m.data, (unsigned char *)m.map + 128);
  assert_int_equal((uintptr_t)m.data % 16, 0);
  struct stat sb;
  assert_int_equal(stat(unit_tmp_path("map.npy"), &sb), 0);
  assert_true(m.map_dev == (uint64_t)sb.st_dev && m.map_ino == (uint64_t)sb.st_ino);
  assert_int_equal(m.kind, 'f');
  assert_int_equal(m.nbytes, r.nbytes);
  assert_int_equal(m.numel, (int64_t)n);
  assert_memory_equal(m.data, r.data, r.nbytes);
  assert_int_equal(unit_alloc.live, r.nbytes); /* the mapping is not heap memory */
  memset(m.data, 0xab, m.nbytes);         /* a store changes this process's pages, never the file */
  assert_non_null(m.view);                /* ... and not the read-only view of it */
  assert_memory_equal((unsigned char *)m.view + 128, r.data, r.nbytes);
  npy_free(&m);
  assert_zeroed(&m);
  size_t len1 = 0;
  unsigned char *after = unit_slurp(unit_tmp_path("map.npy"), &len1);
  assert_int_equal(len0, len1);
  assert_memory_equal(before, after, len0);
  npy_free(&r);
  free(before);
  free(after);
}

/* Big-endian data, an unaligned data offset, Fortran order and small files are read, with the
 * same result as npy_read. */
static void test_npy_map_falls_back_to_reading(void **state)
{
  (void)state;
  static const struct {
    const char *name, *descr;
    size_t n, off;
    int fortran;
  } cases[] = {
      {"be.npy", ">f4", NPY_MAP_MIN / 4 * 2, 128, 0},
      {"unaligned.npy", "<f4", NPY_MAP_MIN / 4 * 2, 136, 0},
      {"fortran.npy", "<f4", NPY_MAP_MIN / 4 * 2, 128, 1},
      {"small.npy", "<f4", NPY_MAP_MIN / 4 - 4, 128, 0},
  };
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    write_f32_file(unit_tmp_path(cases[c].name), cases[c].n, cases[c].off, cases[c].descr, cases[c].fortran);
    npy_array r, m;
    ttref_error e;
    memset(&e, 0, sizeof e);
    assert_int_equal(npy_read(unit_tmp_path(cases[c].name), &r, &e), TTREF_OK);
    assert_int_equal(npy_read_map(unit_tmp_path(cases[c].name), &m, &e), TTREF_OK);
    if (m.map) fail_msg("%s was mapped", cases[c].name);
    assert_int_equal(m.nbytes, r.nbytes);
    assert_int_equal(m.rank, r.rank);
    assert_memory_equal(m.data, r.data, r.nbytes);
    float f;
    memcpy(&f, (unsigned char *)m.data + 4 * 3, 4);
    if (!cases[c].fortran) assert_true(f == 0.75f);
    npy_free(&r);
    npy_free(&m);
  }
}

/* Hostile and truncated files: npy_read_map fails exactly as npy_read does (status and message),
 * leaves the array zeroed and leaks nothing. */
static void test_npy_map_hostile_files_fail_as_read(void **state)
{
  (void)state;
  write_f32_file(unit_tmp_path("whole.npy"), NPY_MAP_MIN / 4 * 2, 128, "<f4", 0);
  size_t len = 0;
  unsigned char *raw = unit_slurp(unit_tmp_path("whole.npy"), &len);
  size_t cuts[] = {0, 5, 9, 60, 127, 128, 129, 4096, len / 2, len - 1};
  for (size_t c = 0; c < sizeof cuts / sizeof cuts[0]; c++) {
    unit_spit(unit_tmp_path("cut.npy"), raw, cuts[c]);
    npy_array r, m;
    ttref_error er, em;
    memset(&er, 0, sizeof er);
    memset(&em, 0, sizeof em);
    ttref_status sr = npy_read(unit_tmp_path("cut.npy"), &r, &er), sm = npy_read_map(unit_tmp_path("cut.npy"), &m, &em);
    assert_int_equal(sr, TTREF_E_INPUT);
    assert_int_equal(sm, sr);
    assert_string_equal(em.msg, er.msg);
    assert_zeroed(&m);
  }
  /* a header that claims more than the file holds, past NPY_MAP_MIN */
  char *shape = strstr((char *)raw + 10, "'shape': (");
  assert_non_null(shape);
  shape[10] = '9'; /* (32768,) -> (92768,) */
  unit_spit(unit_tmp_path("claims.npy"), raw, len);
  npy_array m;
  ttref_error e;
  memset(&e, 0, sizeof e);
  assert_int_equal(npy_read_map(unit_tmp_path("claims.npy"), &m, &e), TTREF_E_INPUT);
  assert_msg_has(&e, "claims.npy: ", "header claims", "but the file has", (const char *)NULL);
  assert_zeroed(&m);
  assert_int_equal(npy_read_map(unit_tmpdir(), &m, &e), TTREF_E_IO);
  assert_msg_has(&e, "directory", (const char *)NULL);
  assert_int_equal(npy_read_map(NULL, &m, &e), TTREF_E_USAGE);
  free(raw);
}

#define T(name) cmocka_unit_test_setup_teardown(name, test_setup, test_teardown)

int main(void)
{
  const struct CMUnitTest tests[] = {
      T(test_npy_roundtrip_every_dtype_rank0_to_3),
      T(test_npy_roundtrip_rank8_and_zero_size),
      T(test_npy_write_new_refuses_existing_files_and_links),
      T(test_npy_descr_strings),
      T(test_npy_numpy_fixtures_values),
      T(test_npy_numpy_fixtures_v2_v3),
      T(test_npy_write_matches_numpy_bytes),
      T(test_npy_v2_v3_headers),
      T(test_npy_big_endian_swapped),
      T(test_npy_native_and_not_applicable_descr),
      T(test_npy_fortran_order_transposed),
      T(test_npy_header_syntax_variants),
      T(test_npy_shape_forms),
      T(test_npy_trailing_garbage_ignored),
      T(test_npy_short_or_missing_magic),
      T(test_npy_unknown_version),
      T(test_npy_truncated_header),
      T(test_npy_header_length_beyond_file),
      T(test_npy_header_too_long),
      T(test_npy_malformed_dict),
      T(test_npy_unsupported_descr),
      T(test_npy_control_char_in_string),
      T(test_npy_negative_dim),
      T(test_npy_non_integer_dim),
      T(test_npy_rank_over_8),
      T(test_npy_size_overflow),
      T(test_npy_huge_claim_rejected_before_alloc),
      T(test_npy_truncated_data),
      T(test_npy_truncations_and_corruptions_fail_cleanly),
      T(test_npy_open_errors),
      T(test_npy_stream_input),
      T(test_npy_alloc_and_free),
      T(test_npy_write_rejects_bad_arrays),
      T(test_npy_write_error_removes_partial_file),
      T(test_npy_nomem_every_allocation),
      T(test_npy_map_large_file_private_copy),
      T(test_npy_map_falls_back_to_reading),
      T(test_npy_map_hostile_files_fail_as_read),
  };
  return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
