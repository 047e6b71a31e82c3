/*
 * test_base_fs.c: unit tests of the base layer's filesystem helpers
 * (ir/ir_base_fs): safe path components, mkdir -p and its messages, rm -rf
 * and opens under a chosen directory that never follow a symbolic link,
 * regular-file opens that refuse FIFOs and links at once (in both message
 * wordings), atomic writes, and report-relative paths. One cmocka group.
 */
#define _GNU_SOURCE /* mkdtemp, realpath under -std=c11 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ir_base.h"
#include "ir_base_fs.h"
#include "unit_fixture.h"

/* The file TMPDIR/@p name holds exactly @p want. */
static void expect_file(const char *name, const char *want)
{
  size_t n;
  char *got = (char *)unit_slurp(unit_tmp_path(name), &n);
  assert_string_equal(got, want);
  free(got);
}

static int setup(void **state)
{
  (void)state;
  if (!unit_tmpdir_new("test_base_fs")) return -1;
  unit_put("k.ttir", "module {\n}\n");
  return 0;
}

static int teardown(void **state)
{
  (void)state;
  return unit_tmpdir_remove() == 0 ? 0 : -1;
}

static void test_fs_component_problem(void **state)
{
  (void)state;
  static const char *const bad[] = {"", ".", "..", ".hidden", "a/b", "/", "a\tb", "a\x7f", "\n"};
  static const char *const good[] = {"a", "a.b", "a..b", "x-1_y=2,z", "a."};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) assert_non_null(ir_fs_component_problem(bad[i]));
  for (size_t i = 0; i < sizeof good / sizeof *good; i++) assert_null(ir_fs_component_problem(good[i]));
  char longname[300];
  memset(longname, 'a', sizeof longname - 1);
  longname[sizeof longname - 1] = 0;
  assert_non_null(ir_fs_component_problem(longname));
}

/* Whether @p rel exists under unit_tmpdir() (lstat: a link counts as itself). */
static bool there(const char *rel)
{
  char path[600];
  struct stat sb;
  snprintf(path, sizeof path, "%s/%s", unit_tmpdir(), rel);
  return lstat(path, &sb) == 0;
}

static void test_fs_rmtree_in_never_follows_links(void **state)
{
  (void)state;
  char root[400], path[600], target[600];
  ttref_error err = {0};
  snprintf(root, sizeof root, "%s/root", unit_tmpdir());
  assert_int_equal(ir_fs_mkdirs_in(root, "t/sub", &err), TTREF_OK);
  assert_int_equal(ir_fs_mkdirs_in(unit_tmpdir(), "outside/x", &err), TTREF_OK);
  unit_put("outside/keep", "keep\n");
  unit_put("root/t/f", "f\n");
  unit_put("root/t/sub/g", "g\n");
  snprintf(target, sizeof target, "%s/outside", unit_tmpdir());
  snprintf(path, sizeof path, "%s/t/link", root);
  assert_int_equal(symlink(target, path), 0);
  snprintf(path, sizeof path, "%s/lnk", root);
  assert_int_equal(symlink(target, path), 0);
  /* the tree goes, the link inside it goes as a link, its target stays */
  assert_int_equal(ir_fs_rmtree_in(root, "t", &err), TTREF_OK);
  assert_false(there("root/t"));
  assert_true(there("outside/keep"));
  assert_true(there("outside/x"));
  /* a link on the way is an error, and nothing behind it is removed */
  assert_int_equal(ir_fs_rmtree_in(root, "lnk/x", &err), TTREF_E_IO);
  assert_non_null(strstr(err.msg, "symbolic link"));
  assert_true(there("outside/x"));
  assert_int_equal(ir_fs_mkdirs_in(root, "lnk/y", &err), TTREF_E_IO);
  assert_false(there("outside/y"));
  assert_int_equal(ir_fs_mkdirs_in(root, "a/../b", &err), TTREF_E_USAGE);
  /* the link itself, as the last component, is removed as a link */
  assert_int_equal(ir_fs_rmtree_in(root, "lnk", &err), TTREF_OK);
  assert_false(there("root/lnk"));
  assert_true(there("outside/keep"));
  /* a missing path is fine */
  assert_int_equal(ir_fs_rmtree_in(root, "no/such/thing", &err), TTREF_OK);
}

static void test_fs_fopen_in_refuses_links_and_fifos(void **state)
{
  (void)state;
  char root[400], path[600], target[600];
  ttref_error err = {0};
  snprintf(root, sizeof root, "%s/root2", unit_tmpdir());
  assert_int_equal(ir_fs_mkdirs_in(root, "d", &err), TTREF_OK);
  unit_put("victim", "victim\n");
  snprintf(target, sizeof target, "%s/victim", unit_tmpdir());
  snprintf(path, sizeof path, "%s/l", root);
  assert_int_equal(symlink(target, path), 0);
  FILE *f = NULL;
  assert_int_equal(ir_fs_fopen_in(root, "l", "w", &f, &err), TTREF_E_IO);
  assert_null(f);
  assert_non_null(strstr(err.msg, "symbolic link"));
  assert_int_equal(ir_fs_fopen_in(root, "l", "a", &f, &err), TTREF_E_IO);
  snprintf(path, sizeof path, "%s/fifo", root);
  assert_int_equal(mkfifo(path, 0644), 0);
  assert_int_equal(ir_fs_fopen_in(root, "fifo", "w", &f, &err), TTREF_E_IO); /* at once: no reader is waited for */
  assert_non_null(strstr(err.msg, "not a regular file"));
  assert_int_not_equal(ir_fs_fopen_in(root, "d", "w", &f, &err), TTREF_OK);
  assert_null(f);
  assert_int_equal(ir_fs_write_file_in(root, "d/ok.txt", "ok\n", 3, &err), TTREF_OK);
  assert_int_equal(ir_fs_write_file_in(root, "d/ok.txt", "x", 1, &err), TTREF_OK); /* truncates */
  char *buf = NULL;
  size_t len = 0;
  snprintf(path, sizeof path, "%s/victim", unit_tmpdir());
  assert_int_equal(ir_fs_read_file(path, &buf, &len, &err), TTREF_OK);
  assert_string_equal(buf, "victim\n");
  ir_free(buf, len + 1);
  snprintf(path, sizeof path, "%s/d/ok.txt", root);
  assert_int_equal(ir_fs_read_file(path, &buf, &len, &err), TTREF_OK);
  assert_string_equal(buf, "x");
  ir_free(buf, len + 1);
}

static void test_fs_open_regular_refuses_fifos_and_links(void **state)
{
  (void)state;
  char fifo[512], link[512], reg[512];
  int fd = -1;
  ttref_error err = {0};
  snprintf(fifo, sizeof fifo, "%s/out.fifo", unit_tmpdir());
  snprintf(link, sizeof link, "%s/out.link", unit_tmpdir());
  snprintf(reg, sizeof reg, "%s/k.ttir", unit_tmpdir());
  assert_int_equal(mkfifo(fifo, 0600), 0);
  assert_int_equal(symlink(reg, link), 0);
  /* no writer: a blocking open would never return */
  assert_int_equal(ir_fs_open_regular(fifo, "out.fifo", IR_FS_FOLLOW, &fd, NULL, &err), TTREF_E_IO);
  assert_non_null(strstr(err.msg, "out.fifo': not a regular file (a FIFO)"));
  assert_int_equal(ir_fs_open_regular(link, NULL, 0, &fd, NULL, &err), TTREF_E_IO);
  assert_non_null(strstr(err.msg, "symbolic link"));
  int64_t size = 0;
  assert_int_equal(ir_fs_open_regular(link, NULL, IR_FS_FOLLOW, &fd, &size, &err), TTREF_OK);
  assert_true(fd >= 0 && size > 0);
  close(fd);
  unlink(fifo);
  unlink(link);
}

static void test_fs_relpath_names_paths_from_the_report_dir(void **state)
{
  (void)state;
  char base[] = "/tmp/ttref_relpath_XXXXXX", rep[200], sub[200], sib[200], abs[4096], out[4096];
  assert_non_null(mkdtemp(base));
  snprintf(rep, sizeof rep, "%s/a/rep", base);
  snprintf(sub, sizeof sub, "%s/a/rep/work", base);
  snprintf(sib, sizeof sib, "%s/b", base);
  char a[200];
  snprintf(a, sizeof a, "%s/a", base);
  assert_int_equal(mkdir(a, 0755), 0);
  assert_int_equal(mkdir(rep, 0755), 0);
  assert_int_equal(mkdir(sub, 0755), 0);
  assert_int_equal(mkdir(sib, 0755), 0);
  assert_non_null(realpath(rep, abs));
  ir_fs_relpath(abs, sib, out, sizeof out);
  assert_string_equal(out, "../../b"); /* a sibling tree */
  ir_fs_relpath(abs, sub, out, sizeof out);
  assert_string_equal(out, "work"); /* below */
  ir_fs_relpath(abs, rep, out, sizeof out);
  assert_string_equal(out, "."); /* itself */
  ir_fs_relpath(abs, a, out, sizeof out);
  assert_string_equal(out, ".."); /* above */
  ir_fs_relpath(abs, "fault:flip-lsb", out, sizeof out);
  assert_string_equal(out, "fault:flip-lsb"); /* not a path: unchanged */
  rmdir(sub);
  rmdir(rep);
  rmdir(a);
  rmdir(sib);
  rmdir(base);
}

static void test_fs_mkdirs_creates_parents_and_names_the_failure(void **state)
{
  (void)state;
  char path[600], want[700];
  ttref_error err = {0};
  snprintf(path, sizeof path, "%s/m/a/b/", unit_tmpdir()); /* a trailing slash is fine */
  assert_int_equal(ir_fs_mkdirs(path, NULL, &err), TTREF_OK);
  assert_true(ir_fs_exists(path));
  assert_int_equal(ir_fs_mkdirs(path, NULL, &err), TTREF_OK); /* existing: fine */
  /* a file in the way: the component that failed, named by the caller's word for it */
  unit_put("m/file", "x\n");
  snprintf(path, sizeof path, "%s/m/file/sub", unit_tmpdir());
  assert_int_equal(ir_fs_mkdirs(path, "output directory", &err), TTREF_E_IO);
  snprintf(want, sizeof want, "error: cannot create output directory '%s/m/file/sub': ", unit_tmpdir());
  if (strncmp(err.msg, want, strlen(want)) != 0) fail_msg("got '%s', want prefix '%s'", err.msg, want);
  assert_int_equal(ir_fs_mkdirs("", "dump directory", &err), TTREF_E_USAGE);
  assert_string_equal(err.msg, "error: bad dump directory name ''");
  assert_int_equal(ir_fs_mkdirs("", NULL, &err), TTREF_E_USAGE);
  assert_string_equal(err.msg, "error: bad directory name ''");
}

static void test_fs_open_regular_name_first_wording(void **state)
{
  (void)state;
  char fifo[512], link[512], missing[512];
  int fd = -1;
  ttref_error err = {0};
  snprintf(fifo, sizeof fifo, "%s/nf.fifo", unit_tmpdir());
  snprintf(link, sizeof link, "%s/nf.link", unit_tmpdir());
  snprintf(missing, sizeof missing, "%s/no-such.npy", unit_tmpdir());
  assert_int_equal(mkfifo(fifo, 0600), 0);
  assert_int_equal(symlink(fifo, link), 0);
  assert_int_equal(ir_fs_open_regular(fifo, "x.npy", IR_FS_NAME_FIRST, &fd, NULL, &err), TTREF_E_IO);
  assert_string_equal(err.msg, "error: x.npy: not a regular file (a FIFO)");
  assert_int_equal(fd, -1);
  assert_int_equal(ir_fs_open_regular(link, "x.npy", IR_FS_NAME_FIRST, &fd, NULL, &err), TTREF_E_IO);
  assert_string_equal(err.msg, "error: x.npy: it is a symbolic link, not a regular file");
  /* following the link reaches the FIFO, still refused at once */
  assert_int_equal(ir_fs_open_regular(link, "x.npy", IR_FS_NAME_FIRST | IR_FS_FOLLOW, &fd, NULL, &err), TTREF_E_IO);
  assert_string_equal(err.msg, "error: x.npy: not a regular file (a FIFO)");
  assert_int_equal(ir_fs_open_regular(missing, "x.npy", IR_FS_NAME_FIRST, &fd, NULL, &err), TTREF_E_IO);
  assert_string_equal(err.msg, "error: x.npy: cannot open: No such file or directory");
  assert_int_equal(ir_fs_open_regular(missing, "x.npy", 0, &fd, NULL, &err), TTREF_E_IO);
  assert_string_equal(err.msg, "error: cannot read 'x.npy': No such file or directory");
  /* a directory is refused too */
  assert_int_equal(ir_fs_open_regular(unit_tmpdir(), "d", 0, &fd, NULL, &err), TTREF_E_IO);
  assert_string_equal(err.msg, "error: cannot read 'd': not a regular file (a directory)");
  unlink(link);
  unlink(fifo);
}

static void test_fs_write_atomic_replaces_whole_and_refuses_links(void **state)
{
  (void)state;
  char path[600], link[600];
  ttref_error err = {0};
  unit_put("victim2", "victim\n");
  snprintf(path, sizeof path, "%s/atomic.txt", unit_tmpdir());
  assert_int_equal(ir_fs_write_atomic(path, "one\n", 4, &err), TTREF_OK);
  expect_file("atomic.txt", "one\n");
  assert_int_equal(ir_fs_write_atomic(path, "2\n", 2, &err), TTREF_OK);
  expect_file("atomic.txt", "2\n");
  char tmp[700];
  snprintf(tmp, sizeof tmp, "%s.tmp.%d", path, (int)getpid());
  assert_false(ir_fs_exists(tmp)); /* no temporary left behind */
  snprintf(link, sizeof link, "%s/alink", unit_tmpdir());
  snprintf(path, sizeof path, "%s/victim2", unit_tmpdir());
  assert_int_equal(symlink(path, link), 0);
  assert_int_equal(ir_fs_write_atomic(link, "evil", 4, &err), TTREF_E_IO);
  assert_non_null(strstr(err.msg, "symbolic link"));
  expect_file("victim2", "victim\n");
  unlink(link);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_fs_component_problem),
      cmocka_unit_test(test_fs_mkdirs_creates_parents_and_names_the_failure),
      cmocka_unit_test(test_fs_rmtree_in_never_follows_links),
      cmocka_unit_test(test_fs_fopen_in_refuses_links_and_fifos),
      cmocka_unit_test(test_fs_open_regular_refuses_fifos_and_links),
      cmocka_unit_test(test_fs_open_regular_name_first_wording),
      cmocka_unit_test(test_fs_write_atomic_replaces_whole_and_refuses_links),
      cmocka_unit_test(test_fs_relpath_names_paths_from_the_report_dir),
  };
  return cmocka_run_group_tests_name("base_fs", tests, setup, teardown);
}
