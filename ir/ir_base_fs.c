/*
 * ir_base_fs.c: filesystem and path helpers of the base layer: mkdir -p and
 * rm -rf, whole files, paths under a chosen directory walked with
 * openat(O_NOFOLLOW), regular-file opens that never wait on a FIFO, files and
 * directories written whole or not at all, and a monotonic clock.
 */
#define _GNU_SOURCE /* fdopen, fstatat, mkdirat, posix_fallocate, readlink, realpath under -std=c11 */
#include "config.h"
#include "ir_base_fs.h"
#include "ir_base.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

double ir_fs_now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

ttref_status ir_fs_mkdirs(const char *path, const char *what, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  ttref_loc none = {0};
  char tmp[4096];
  size_t len = strlen(path);
  if (!what) what = "directory";
  if (len == 0 || len >= sizeof tmp) FAIL(IR_ERR(err, TTREF_E_USAGE, none, "bad %s name '%s'", what, path));
  memcpy(tmp, path, len + 1);
  for (size_t k = 1; k <= len; k++) {
    if (tmp[k] != '/' && tmp[k] != 0) continue;
    char ch = tmp[k];
    tmp[k] = 0;
    if (mkdir(tmp, 0777) != 0 && errno != EEXIST)
      FAIL(IR_ERR(err, TTREF_E_IO, none, "cannot create %s '%s': %s", what, tmp, strerror(errno)));
    tmp[k] = ch;
  }
fail:
  return st;
}

void ir_fs_rmtree(const char *path)
{
  struct stat sb;
  if (lstat(path, &sb) != 0) return;
  if (S_ISDIR(sb.st_mode)) {
    DIR *d = opendir(path);
    if (d) {
      struct dirent *e;
      while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
        char sub[4096];
        if ((size_t)snprintf(sub, sizeof sub, "%s/%s", path, e->d_name) < sizeof sub) ir_fs_rmtree(sub);
      }
      closedir(d);
    }
    rmdir(path);
  } else {
    unlink(path);
  }
}

bool ir_fs_exists(const char *path)
{
  struct stat sb;
  return stat(path, &sb) == 0;
}

/* Read all of @p f (owned: closed here) into a NUL-terminated buffer freed with ir_free(buf, len + 1). */
static ttref_status read_all(FILE *f, const char *path, char **out_buf, size_t *out_len, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  ttref_loc none = {0};
  char *buf = NULL;
  size_t len = 0, cap = 0;
  for (;;) {
    if (len + 4096 + 1 > cap) {
      size_t ncap = cap ? cap * 2 : 8192;
      char *nb = ir_realloc(buf, cap, ncap);
      if (!nb) FAIL(IR_ERR(err, TTREF_E_NOMEM, none, "out of memory reading '%s'", path));
      buf = nb;
      cap = ncap;
    }
    size_t n = fread(buf + len, 1, cap - len - 1, f);
    len += n;
    if (n == 0) break;
  }
  if (ferror(f)) FAIL(IR_ERR(err, TTREF_E_IO, none, "cannot read '%s': %s", path, strerror(errno)));
  char *fit = ir_realloc(buf, cap, len + 1); /* shrink to len + 1 */
  if (!fit) FAIL(IR_ERR(err, TTREF_E_NOMEM, none, "out of memory reading '%s'", path));
  buf = fit;
  buf[len] = 0;
  *out_buf = buf;
  *out_len = len;
  buf = NULL;
  cap = 0;
fail:
  fclose(f);
  ir_free(buf, cap);
  return st;
}

ttref_status ir_fs_read_file(const char *path, char **out_buf, size_t *out_len, ttref_error *err)
{
  *out_buf = NULL;
  *out_len = 0;
  FILE *f = fopen(path, "rb");
  if (!f) return IR_ERR(err, TTREF_E_IO, (ttref_loc){0}, "cannot read '%s': %s", path, strerror(errno));
  return read_all(f, path, out_buf, out_len, err);
}

ttref_status ir_fs_write_file(const char *path, const void *data, size_t len, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  ttref_loc none = {0};
  FILE *f = fopen(path, "wb");
  if (!f) FAIL(IR_ERR(err, TTREF_E_IO, none, "cannot write '%s': %s", path, strerror(errno)));
  if (len && fwrite(data, 1, len, f) != len)
    FAIL(IR_ERR(err, TTREF_E_IO, none, "cannot write '%s': %s", path, strerror(errno)));
fail:
  if (f && fclose(f) != 0 && st == TTREF_OK)
    st = IR_ERR(err, TTREF_E_IO, none, "cannot write '%s': %s", path, strerror(errno));
  return st;
}

ttref_status ir_fs_copy_file(const char *src, const char *dst, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  char *buf = NULL;
  size_t len = 0;
  TRY(ir_fs_read_file(src, &buf, &len, err));
  TRY(ir_fs_write_file(dst, buf, len, err));
fail:
  if (buf) ir_free(buf, len + 1);
  return st;
}

bool ir_fs_self_exe(char *buf, size_t n)
{
  ssize_t k = readlink("/proc/self/exe", buf, n - 1);
  if (k <= 0) return false;
  buf[k] = 0;
  return true;
}

/* ---- paths under a chosen directory (no symbolic link is ever followed) ---------------- */

const char *ir_fs_component_problem(const char *s)
{
  size_t n = strlen(s);
  if (n == 0) return "is empty";
  if (n > 200) return "is longer than 200 bytes";
  if (s[0] == '.') return "starts with '.'";
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    if (*p == '/') return "contains '/'";
    if (*p < 0x20 || *p == 0x7f) return "contains a control character";
  }
  return NULL;
}

static bool is_link_at(int dfd, const char *name)
{
  struct stat sb;
  return fstatat(dfd, name, &sb, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(sb.st_mode);
}

static ttref_status path_err(ttref_error *err, const char *root, const char *rel, const char *what, int e)
{
  ttref_loc none = {0};
  int n = (int)strlen(rel);
  if (n > 0 && rel[n - 1] == '/') n--; /* mkdirs_in's walk adds one */
  if (e == ELOOP)
    return IR_ERR(err, TTREF_E_IO, none,
                  "refusing to %s '%s/%.*s': it is or passes through a symbolic link (ttref never follows links in the "
                  "directories it writes)",
                  what, root, n, rel);
  if (e == ENOTDIR)
    return IR_ERR(err, TTREF_E_IO, none, "cannot %s '%s/%.*s': a component is not a directory", what, root, n, rel);
  return IR_ERR(err, TTREF_E_IO, none, "cannot %s '%s/%.*s': %s", what, root, n, rel, strerror(e));
}

/*
 * Open ROOT (following links: the user named it) and walk REL's directory
 * components with O_NOFOLLOW, creating them when @p create. On success
 * *out_dir is the directory fd holding the last component and *out_leaf points
 * into @p rel at that component ("" when REL names ROOT itself).
 */
static ttref_status walk_in(const char *root, const char *rel, bool create, const char *what, int *out_dir,
                            const char **out_leaf, bool *out_missing, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  char comp[256];
  int dfd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  *out_dir = -1;
  if (dfd < 0)
    FAIL(IR_ERR(err, TTREF_E_IO, (ttref_loc){0}, "cannot %s '%s/%s': cannot open '%s': %s", what, root, rel, root,
                strerror(errno)));
  const char *p = rel;
  while (*p == '/') p++;
  for (;;) {
    const char *slash = strchr(p, '/');
    if (!slash) break;
    size_t len = (size_t)(slash - p);
    if (len == 0 || len >= sizeof comp || (len == 1 && p[0] == '.') || (len == 2 && p[0] == '.' && p[1] == '.'))
      FAIL(IR_ERR(err, TTREF_E_USAGE, (ttref_loc){0}, "cannot %s '%s/%s': bad path component", what, root, rel));
    memcpy(comp, p, len);
    comp[len] = 0;
    if (create && mkdirat(dfd, comp, 0777) != 0 && errno != EEXIST) FAIL(path_err(err, root, rel, what, errno));
    int nfd = openat(dfd, comp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (nfd < 0 && errno == ENOENT && out_missing) {
      *out_missing = true;
      goto fail;
    }
    if (nfd < 0) FAIL(path_err(err, root, rel, what, errno == ENOTDIR && is_link_at(dfd, comp) ? ELOOP : errno));
    close(dfd);
    dfd = nfd;
    p = slash + 1;
    while (*p == '/') p++;
  }
  if (strcmp(p, ".") == 0 || strcmp(p, "..") == 0)
    FAIL(IR_ERR(err, TTREF_E_USAGE, (ttref_loc){0}, "cannot %s '%s/%s': bad path component", what, root, rel));
  *out_dir = dfd;
  *out_leaf = p;
  dfd = -1;
fail:
  if (dfd >= 0) close(dfd);
  return st;
}

ttref_status ir_fs_mkdirs_in(const char *root, const char *rel, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  int dfd = -1;
  const char *leaf;
  char tmp[4096];
  TRY(ir_fs_mkdirs(root, NULL, err));
  if ((size_t)snprintf(tmp, sizeof tmp, "%s/", rel) >= sizeof tmp)
    FAIL(IR_ERR(err, TTREF_E_USAGE, (ttref_loc){0}, "path too long: '%s/%s'", root, rel));
  TRY(walk_in(root, tmp, true, "create directory", &dfd, &leaf, NULL, err));
fail:
  if (dfd >= 0) close(dfd);
  return st;
}

/* Remove every entry of directory @p dfd (which this closes), links as links. */
static int clear_dir(int dfd, int depth)
{
  int rc = 0;
  DIR *d = fdopendir(dfd);
  if (!d) {
    int e = errno;
    close(dfd);
    return e;
  }
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
    if (unlinkat(dfd, e->d_name, 0) == 0) continue;
    if (errno != EISDIR && errno != EPERM) { /* EPERM: Linux answers a directory unlink so */
      if (!rc) rc = errno;
      continue;
    }
    int sub = depth < 256 ? openat(dfd, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) : -1;
    if (sub < 0) {
      if (!rc) rc = depth < 256 ? errno : ENAMETOOLONG;
      continue;
    }
    int r = clear_dir(sub, depth + 1);
    if (r == 0 && unlinkat(dfd, e->d_name, AT_REMOVEDIR) != 0) r = errno;
    if (r && !rc) rc = r;
  }
  closedir(d);
  return rc;
}

ttref_status ir_fs_rmtree_in(const char *root, const char *rel, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  int dfd = -1;
  const char *leaf;
  struct stat sb;
  bool missing = false;
  if (!ir_fs_exists(root)) goto fail;
  TRY(walk_in(root, rel, false, "remove", &dfd, &leaf, &missing, err));
  if (missing) goto fail;
  if (!*leaf) FAIL(IR_ERR(err, TTREF_E_USAGE, (ttref_loc){0}, "cannot remove '%s/%s': no name", root, rel));
  if (fstatat(dfd, leaf, &sb, AT_SYMLINK_NOFOLLOW) != 0) {
    if (errno != ENOENT) FAIL(path_err(err, root, rel, "remove", errno));
    goto fail;
  }
  if (S_ISDIR(sb.st_mode)) {
    int sub = openat(dfd, leaf, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    int r = sub < 0 ? errno : clear_dir(sub, 0);
    if (r == 0 && unlinkat(dfd, leaf, AT_REMOVEDIR) != 0) r = errno;
    if (r) FAIL(path_err(err, root, rel, "remove", r));
  } else if (unlinkat(dfd, leaf, 0) != 0) {
    FAIL(path_err(err, root, rel, "remove", errno));
  }
fail:
  if (dfd >= 0) close(dfd);
  return st;
}

ttref_status ir_fs_fopen_in(const char *root, const char *rel, const char *mode, FILE **out_f, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  int dfd = -1, fd = -1;
  const char *leaf;
  FILE *f = NULL;
  const bool append = mode[0] == 'a';
  struct stat sb;
  TRY(walk_in(root, rel, false, "write", &dfd, &leaf, NULL, err));
  if (!*leaf) FAIL(IR_ERR(err, TTREF_E_USAGE, (ttref_loc){0}, "cannot write '%s/%s': no file name", root, rel));
  /* O_NONBLOCK: opening a FIFO must not wait for a reader; no O_TRUNC before the type is known */
  fd = openat(dfd, leaf, O_WRONLY | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | (append ? O_APPEND : 0), 0644);
  if (fd < 0) {
    int e = is_link_at(dfd, leaf) ? ELOOP : errno;
    if (e != ENXIO) FAIL(path_err(err, root, rel, "write", e));
  }
  if (fd >= 0 && fstat(fd, &sb) != 0) FAIL(path_err(err, root, rel, "write", errno));
  if (fd < 0 || !S_ISREG(sb.st_mode)) /* ENXIO: a FIFO without a reader */
    FAIL(IR_ERR(err, TTREF_E_IO, (ttref_loc){0}, "refusing to write '%s/%s': it is not a regular file", root, rel));
  if (!append && ftruncate(fd, 0) != 0) FAIL(path_err(err, root, rel, "write", errno));
  int fl = fcntl(fd, F_GETFL);
  if (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) != 0) FAIL(path_err(err, root, rel, "write", errno));
  f = fdopen(fd, append ? "a" : "w");
  if (!f) FAIL(path_err(err, root, rel, "write", errno));
  fd = -1;
fail:
  if (fd >= 0) close(fd);
  if (dfd >= 0) close(dfd);
  *out_f = f;
  return st;
}

ttref_status ir_fs_write_file_in(const char *root, const char *rel, const void *data, size_t len, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  FILE *f = NULL;
  TRY(ir_fs_fopen_in(root, rel, "w", &f, err));
  if (len && fwrite(data, 1, len, f) != len)
    FAIL(IR_ERR(err, TTREF_E_IO, (ttref_loc){0}, "cannot write '%s/%s': %s", root, rel, strerror(errno)));
fail:
  if (f && fclose(f) != 0 && st == TTREF_OK)
    st = IR_ERR(err, TTREF_E_IO, (ttref_loc){0}, "cannot write '%s/%s': %s", root, rel, strerror(errno));
  return st;
}

ttref_status ir_fs_copy_file_in(const char *src, const char *root, const char *rel, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  char *buf = NULL;
  size_t len = 0;
  TRY(ir_fs_read_file(src, &buf, &len, err));
  TRY(ir_fs_write_file_in(root, rel, buf, len, err));
fail:
  if (buf) ir_free(buf, len + 1);
  return st;
}

bool ir_fs_inside(const char *root_real, const char *path, int *out_errno)
{
  char real[PATH_MAX];
  *out_errno = 0;
  if (!realpath(path, real)) {
    *out_errno = errno;
    return false;
  }
  size_t n = strlen(root_real);
  if (n == 1 && root_real[0] == '/') return true;
  return strncmp(real, root_real, n) == 0 && real[n] == '/';
}

/* ---- hostile files and full disks (issue #17) ----------------------------------------- */

static const char *file_kind(mode_t m)
{
  if (S_ISFIFO(m)) return "a FIFO";
  if (S_ISCHR(m)) return "a character device";
  if (S_ISBLK(m)) return "a block device";
  if (S_ISDIR(m)) return "a directory";
  if (S_ISSOCK(m)) return "a socket";
  return "not a plain file";
}

ttref_status ir_fs_open_regular(const char *path, const char *name, unsigned flags, int *out_fd, int64_t *out_size,
                                ttref_error *err)
{
  ttref_status st = TTREF_OK;
  ttref_loc none = {0};
  struct stat sb;
  const char *shown = name ? name : path;
  const bool follow = flags & IR_FS_FOLLOW, name_first = flags & IR_FS_NAME_FIRST;
  /* O_NONBLOCK: opening a FIFO without a writer must not wait; O_NOFOLLOW: no symlink to /dev/stdin */
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | (follow ? 0 : O_NOFOLLOW));
  *out_fd = -1;
  if (fd < 0 && errno == ELOOP && !follow)
    FAIL(IR_ERR(err, TTREF_E_IO, none, name_first ? "%s: %s" : "cannot read '%s': %s", shown,
                "it is a symbolic link, not a regular file"));
  if (fd < 0)
    FAIL(IR_ERR(err, TTREF_E_IO, none, name_first ? "%s: cannot open: %s" : "cannot read '%s': %s", shown,
                strerror(errno)));
  if (fstat(fd, &sb) != 0)
    FAIL(IR_ERR(err, TTREF_E_IO, none, name_first ? "%s: cannot stat: %s" : "cannot stat '%s': %s", shown,
                strerror(errno)));
  if (!S_ISREG(sb.st_mode))
    FAIL(IR_ERR(err, TTREF_E_IO, none,
                name_first ? "%s: not a regular file (%s)" : "cannot read '%s': not a regular file (%s)", shown,
                file_kind(sb.st_mode)));
  int fl = fcntl(fd, F_GETFL);
  if (fl >= 0) fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
  if (out_size) *out_size = (int64_t)sb.st_size;
  *out_fd = fd;
  fd = -1;
fail:
  if (fd >= 0) close(fd);
  return st;
}

ttref_status ir_fs_fopen_regular(const char *path, bool follow, FILE **out, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  int fd = -1;
  *out = NULL;
  TRY(ir_fs_open_regular(path, NULL, follow ? IR_FS_FOLLOW : 0, &fd, NULL, err));
  *out = fdopen(fd, "rb");
  if (!*out) FAIL(IR_ERR(err, TTREF_E_NOMEM, (ttref_loc){0}, "cannot read '%s': %s", path, strerror(errno)));
  fd = -1;
fail:
  if (fd >= 0) close(fd);
  return st;
}

ttref_status ir_fs_read_regular(const char *path, char **out_buf, size_t *out_len, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  FILE *f = NULL;
  *out_buf = NULL;
  *out_len = 0;
  TRY(ir_fs_fopen_regular(path, true, &f, err));
  st = read_all(f, path, out_buf, out_len, err);
fail:
  return st;
}

ttref_status ir_fs_write_all(int fd, const void *data, size_t len)
{
  const char *p = data;
  while (len > 0) {
    ssize_t w = write(fd, p, len);
    if (w < 0 && errno == EINTR) continue;
    if (w < 0) return TTREF_E_IO;
    if (w == 0) {
      errno = ENOSPC;
      return TTREF_E_IO;
    }
    p += w;
    len -= (size_t)w;
  }
  return TTREF_OK;
}

ttref_status ir_fs_atomic_open(const char *path, ir_fs_atomic *a, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  ttref_loc none = {0};
  memset(a, 0, sizeof *a);
  if ((size_t)snprintf(a->tmp, sizeof a->tmp, "%s.tmp.%d", path, (int)getpid()) >= sizeof a->tmp)
    FAIL(IR_ERR(err, TTREF_E_USAGE, none, "file name too long: '%s'", path));
  snprintf(a->path, sizeof a->path, "%s", path);
  struct stat sb; /* a link or FIFO where the file goes is someone else's: refused, never replaced */
  if (lstat(path, &sb) == 0 && S_ISLNK(sb.st_mode))
    FAIL(
        IR_ERR(err, TTREF_E_IO, none,
               "refusing to write '%s': it is a symbolic link (ttref never follows links in the directories it writes)",
               path));
  if (lstat(path, &sb) == 0 && !S_ISREG(sb.st_mode))
    FAIL(IR_ERR(err, TTREF_E_IO, none, "refusing to write '%s': it is not a regular file", path));
  unlink(a->tmp); /* a leftover of a killed run with the same pid */
  int fd = open(a->tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd < 0) FAIL(IR_ERR(err, TTREF_E_IO, none, "cannot write '%s': %s", a->tmp, strerror(errno)));
  a->f = fdopen(fd, "w");
  if (!a->f) {
    close(fd);
    unlink(a->tmp);
    FAIL(IR_ERR(err, TTREF_E_NOMEM, none, "cannot write '%s': %s", a->tmp, strerror(errno)));
  }
fail:
  return st;
}

ttref_status ir_fs_atomic_commit(ir_fs_atomic *a, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  ttref_loc none = {0};
  int e = 0;
  if (!a->f) return TTREF_OK;
  if (fflush(a->f) != 0 || ferror(a->f)) e = errno ? errno : EIO;
  if (!e && fsync(fileno(a->f)) != 0) e = errno;
  if (fclose(a->f) != 0 && !e) e = errno;
  a->f = NULL;
  if (!e && rename(a->tmp, a->path) != 0) e = errno;
  if (e) {
    unlink(a->tmp);
    FAIL(IR_ERR(err, TTREF_E_IO, none, "cannot write '%s': %s", a->path, strerror(e)));
  }
fail:
  return st;
}

ttref_status ir_fs_atomic_close(FILE *f, const char *path, ttref_error *err)
{
  ir_fs_atomic a = {f, "", ""};
  snprintf(a.path, sizeof a.path, "%s", path);
  snprintf(a.tmp, sizeof a.tmp, "%s.tmp.%d", path, (int)getpid()); /* as ir_fs_atomic_open names it */
  return ir_fs_atomic_commit(&a, err);
}

ttref_status ir_fs_write_atomic(const char *path, const void *data, size_t len, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  ir_fs_atomic a;
  TRY(ir_fs_atomic_open(path, &a, err));
  if (len) fwrite(data, 1, len, a.f); /* a short write shows up as ferror in the commit */
  TRY(ir_fs_atomic_commit(&a, err));
fail:
  return st;
}

/* fsync every file under @p dir (and the directories): the golden is on disk before it is renamed into place. */
static ttref_status sync_tree(const char *dir, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  DIR *d = opendir(dir);
  struct dirent *e;
  if (!d) FAIL(IR_ERR(err, TTREF_E_IO, (ttref_loc){0}, "cannot read '%s': %s", dir, strerror(errno)));
  while ((e = readdir(d)) != NULL) {
    char sub[4400];
    struct stat sb;
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
    snprintf(sub, sizeof sub, "%s/%s", dir, e->d_name);
    if (lstat(sub, &sb) != 0) continue;
    if (S_ISDIR(sb.st_mode)) {
      TRY(sync_tree(sub, err));
    } else if (S_ISREG(sb.st_mode)) {
      int fd = open(sub, O_RDONLY | O_CLOEXEC);
      if (fd < 0 || fsync(fd) != 0) {
        int en = errno;
        if (fd >= 0) close(fd);
        FAIL(IR_ERR(err, TTREF_E_IO, (ttref_loc){0}, "cannot write '%s': %s", sub, strerror(en)));
      }
      close(fd);
    }
  }
  int dfd = dirfd(d);
  if (dfd >= 0 && fsync(dfd) != 0)
    FAIL(IR_ERR(err, TTREF_E_IO, (ttref_loc){0}, "cannot write '%s': %s", dir, strerror(errno)));
fail:
  if (d) closedir(d);
  return st;
}

void ir_fs_dir_tmp(const char *dir, char *buf, size_t n)
{
  size_t l = strlen(dir);
  while (l > 1 && dir[l - 1] == '/') l--;
  snprintf(buf, n, "%.*s.tmp.%d", (int)l, dir, (int)getpid());
}

ttref_status ir_fs_replace_dir(const char *tmp, const char *dir, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  char old[4200];
  size_t l = strlen(dir);
  while (l > 1 && dir[l - 1] == '/') l--;
  snprintf(old, sizeof old, "%.*s.old.%d", (int)l, dir, (int)getpid());
  TRY(sync_tree(tmp, err));
  ir_fs_rmtree(old);
  if (ir_fs_exists(dir) && rename(dir, old) != 0)
    FAIL(IR_ERR(err, TTREF_E_IO, (ttref_loc){0}, "cannot replace '%s': %s", dir, strerror(errno)));
  if (rename(tmp, dir) != 0) {
    int e = errno;
    if (ir_fs_exists(old) && rename(old, dir) != 0) {} /* put the old one back */
    FAIL(IR_ERR(err, TTREF_E_IO, (ttref_loc){0}, "cannot rename '%s' to '%s': %s", tmp, dir, strerror(e)));
  }
  ir_fs_rmtree(old);
fail:
  return st;
}

void ir_fs_atomic_abort(ir_fs_atomic *a)
{
  if (!a->f) return;
  fclose(a->f);
  a->f = NULL;
  unlink(a->tmp);
}

ttref_status ir_fs_space_probe(const char *dir, size_t bytes, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  char path[4200];
  snprintf(path, sizeof path, "%s/.ttref-space-probe.%d", dir, (int)getpid());
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd < 0) FAIL(IR_ERR(err, TTREF_E_IO, (ttref_loc){0}, "cannot write in '%s': %s", dir, strerror(errno)));
  /* reserve the blocks (ENOSPC, EDQUOT; EFBIG past ulimit -f) without writing them; glibc emulates it where unsupported */
  int e = posix_fallocate(fd, 0, (off_t)bytes);
  if (e != 0)
    FAIL(IR_ERR(err, TTREF_E_IO, (ttref_loc){0}, "cannot write %zu bytes in '%s': %s", bytes, dir, strerror(e)));
fail:
  if (fd >= 0) {
    close(fd);
    unlink(path);
  }
  return st;
}

void ir_fs_relpath(const char *report, const char *path, char *out, size_t n)
{
  char abs[4096];
  snprintf(out, n, "%s", path);
  if (!realpath(path, abs)) return;
  size_t common = 0;
  for (size_t i = 0; abs[i] && report[i] && abs[i] == report[i]; i++)
    if (abs[i] == '/') common = i;
  size_t la = strlen(abs), lr = strlen(report);
  if (strncmp(abs, report, lr) == 0 && (abs[lr] == '/' || !abs[lr])) common = lr; /* inside the report directory */
  else if (strncmp(abs, report, la) == 0 && report[la] == '/') common = la;       /* above it */
  size_t pos = 0;
  out[0] = 0;
  for (const char *p = report + common; *p; p++) /* one ".." per component of the report directory below common */
    if (*p == '/' && pos + 4 < n) pos += (size_t)snprintf(out + pos, n - pos, "../");
  const char *rest = abs + common;
  if (*rest == '/') rest++;
  if (pos < n) snprintf(out + pos, n - pos, "%s", *rest ? rest : (pos ? "" : "."));
  if (pos && !*rest && pos < n) out[pos - 1] = 0; /* "../.." not "../../" */
}
