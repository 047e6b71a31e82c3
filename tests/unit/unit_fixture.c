/*
 * unit_fixture.c: fixtures the unit test binaries share (counting allocator,
 * temporary directory, file helpers, test data folder); see unit_fixture.h.
 */
#define _GNU_SOURCE /* mkdtemp, nftw */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ttref.h"
#include "unit_fixture.h"

/* ---- counting allocator ---- */
unit_alloc_counters unit_alloc;

/* each block carries its size in a 16-byte header, so frees can be checked */
static void *counting_alloc(void *ud, void *ptr, size_t old_size, size_t new_size)
{
  (void)ud;
  unsigned char *base = ptr ? (unsigned char *)ptr - 16 : NULL;
  const size_t had = base ? *(size_t *)base : 0;
  if (base && had != old_size) unit_alloc.size_mismatch = true;
  if (new_size == 0) {
    unit_alloc.live -= had;
    free(base);
    return NULL;
  }
  const long req = ++unit_alloc.requests;
  const long fail_at = unit_alloc.fail_at;
  if (fail_at && req == fail_at) return NULL;
  unsigned char *nb = realloc(base, new_size + 16);
  if (!nb) return NULL;
  unit_alloc.live += new_size - had;
  size_t mb = unit_alloc.max_block;
  while (new_size > mb && !atomic_compare_exchange_weak(&unit_alloc.max_block, &mb, new_size)) {}
  unit_alloc.calls++;
  *(size_t *)nb = new_size;
  return nb + 16;
}

void unit_alloc_begin(long fail_at)
{
  unit_alloc.live = 0;
  unit_alloc.max_block = 0;
  unit_alloc.calls = 0;
  unit_alloc.requests = 0;
  unit_alloc.fail_at = fail_at;
  unit_alloc.size_mismatch = false;
  ttref_set_alloc(counting_alloc, NULL);
}

unit_alloc_stats unit_alloc_now(void)
{
  unit_alloc_stats s = {unit_alloc.live,     unit_alloc.max_block, unit_alloc.calls,
                        unit_alloc.requests, unit_alloc.fail_at,   unit_alloc.size_mismatch};
  return s;
}

unit_alloc_stats unit_alloc_end(void)
{
  ttref_set_alloc(NULL, NULL);
  return unit_alloc_now();
}

/* ---- files ---- */
static char tmpdir[4096];

/* one of four static buffers in turn, so a few results can be used together */
static char *next_buf(char (*ring)[8192], int *at)
{
  *at = (*at + 1) % 4;
  return ring[*at];
}

const char *unit_tmpdir_new(const char *name)
{
  const char *t = getenv("TMPDIR");
  snprintf(tmpdir, sizeof tmpdir, "%s/%s.XXXXXX", t && *t ? t : "/tmp", name);
  if (!mkdtemp(tmpdir)) {
    tmpdir[0] = 0;
    return NULL;
  }
  return tmpdir;
}

const char *unit_tmpdir(void) { return tmpdir; }

static int remove_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
  (void)sb;
  (void)flag;
  (void)ftw;
  return remove(path);
}

int unit_tmpdir_remove(void)
{
  if (!tmpdir[0]) return -1;
  const int rc = nftw(tmpdir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
  tmpdir[0] = 0;
  return rc;
}

const char *unit_tmp_path(const char *name)
{
  static char ring[4][8192];
  static int at;
  char *p = next_buf(ring, &at);
  snprintf(p, sizeof ring[0], "%s/%s", tmpdir, name);
  return p;
}

const char *unit_data_dir(void)
{
  const char *d = getenv("TTREF_TEST_DATA");
  return d && *d ? d : "tests/data";
}

const char *unit_data_path(const char *rel)
{
  static char ring[4][8192];
  static int at;
  char *p = next_buf(ring, &at);
  snprintf(p, sizeof ring[0], "%s/%s", unit_data_dir(), rel);
  return p;
}

void unit_spit(const char *path, const void *data, size_t len)
{
  FILE *f = fopen(path, "wb");
  if (!f) fail_msg("cannot write %s", path);
  assert_int_equal(fwrite(data, 1, len, f), len);
  assert_int_equal(fclose(f), 0);
}

const char *unit_put(const char *name, const char *text)
{
  const char *path = unit_tmp_path(name);
  unit_spit(path, text, strlen(text));
  return path;
}

unsigned char *unit_slurp(const char *path, size_t *len)
{
  FILE *f = fopen(path, "rb");
  if (!f) fail_msg("cannot read %s", path);
  assert_int_equal(fseek(f, 0, SEEK_END), 0);
  long size = ftell(f);
  assert_true(size >= 0);
  rewind(f);
  unsigned char *buf = malloc((size_t)size + 1);
  assert_non_null(buf);
  *len = fread(buf, 1, (size_t)size, f);
  assert_int_equal(*len, (size_t)size);
  fclose(f);
  buf[*len] = 0;
  return buf;
}
