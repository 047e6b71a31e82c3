/*
 * conform_sys.c: POSIX plumbing for the harness: fork/exec with a process
 * group per child and a SIGKILL'd group on timeout, PR_SET_PDEATHSIG so no
 * child outlives a killed harness, and small file helpers.
 */
#define _GNU_SOURCE /* clock_gettime, nanosleep, fdopen, kill, readlink under -std=c11 */
#include "config.h"
#include "conform_sys.h"
#include "ir_base.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

double conform_sys_now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void nap(long ms)
{
  struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
  nanosleep(&ts, NULL);
}

/* In the child: own process group, die with the parent, redirect stdio. */
static void child_setup(const char *cwd, const char *out_path)
{
  setpgid(0, 0);
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  signal(SIGPIPE, SIG_DFL);
  int in = open("/dev/null", O_RDONLY);
  if (in >= 0) {
    dup2(in, 0);
    close(in);
  }
  int out = open(out_path ? out_path : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (out >= 0) {
    dup2(out, 1);
    dup2(out, 2);
    close(out);
  }
  if (cwd && chdir(cwd) != 0) _exit(126);
}

ttref_status conform_sys_run(const conform_spawn *s, conform_exit *out, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  ttref_loc none = {0};
  double t0 = conform_sys_now();
  fflush(NULL);
  pid_t pid = fork();
  if (pid < 0) FAIL(IR_ERR(err, TTREF_E_IO, none, "fork failed: %s", strerror(errno)));
  if (pid == 0) {
    child_setup(s->cwd, s->out_path);
    if (s->argv) {
      execv(s->argv[0], (char *const *)s->argv);
      fprintf(stderr, "error: cannot execute '%s': %s\n", s->argv[0], strerror(errno));
      _exit(127);
    }
    _exit(s->fn(s->arg));
  }
  setpgid(pid, pid); /* also in the parent, so kill(-pid) works at once */
  int status = 0;
  long wait_ms = 1;
  for (;;) {
    pid_t r = waitpid(pid, &status, WNOHANG);
    if (r == pid) break;
    if (r < 0 && errno != EINTR) FAIL(IR_ERR(err, TTREF_E_IO, none, "waitpid failed: %s", strerror(errno)));
    if (s->timeout_s > 0 && conform_sys_now() - t0 > s->timeout_s) {
      kill(-pid, SIGKILL);
      kill(pid, SIGKILL);
      while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
      out->kind = CONFORM_TIMED_OUT;
      out->code = 0;
      out->seconds = conform_sys_now() - t0;
      goto fail;
    }
    nap(wait_ms);
    if (wait_ms < 20) wait_ms *= 2;
  }
  kill(-pid, SIGKILL); /* leftovers of the group (grandchildren) */
  out->seconds = conform_sys_now() - t0;
  if (WIFSIGNALED(status)) {
    out->kind = CONFORM_SIGNALED;
    out->code = WTERMSIG(status);
  } else {
    out->kind = CONFORM_EXITED;
    out->code = WEXITSTATUS(status);
  }
fail:
  return st;
}

/* Start argv (execv) or fn(arg) (a forked copy) with stdin/stdout pipes. */
static ttref_status pipe_spawn(const char *const *argv, int (*fn)(void *), void *arg, const char *err_path,
                               conform_pipe_child *c, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  ttref_loc none = {0};
  int in[2] = {-1, -1}, outp[2] = {-1, -1};
  memset(c, 0, sizeof *c);
  c->pid = -1;
  c->to_fd = c->from_fd = -1;
  if (pipe(in) != 0 || pipe(outp) != 0) FAIL(IR_ERR(err, TTREF_E_IO, none, "pipe failed: %s", strerror(errno)));
  fflush(NULL);
  pid_t pid = fork();
  if (pid < 0) FAIL(IR_ERR(err, TTREF_E_IO, none, "fork failed: %s", strerror(errno)));
  if (pid == 0) {
    setpgid(0, 0);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    signal(SIGPIPE, SIG_DFL);
    dup2(in[0], 0);
    dup2(outp[1], 1);
    int e = open(err_path ? err_path : "/dev/null", O_WRONLY | O_CREAT | O_APPEND, 0644);
    if (e >= 0) dup2(e, 2);
    close(in[0]); close(in[1]); close(outp[0]); close(outp[1]);
    if (!argv) _exit(fn(arg));
    execv(argv[0], (char *const *)argv);
    fprintf(stderr, "error: cannot execute '%s': %s\n", argv[0], strerror(errno));
    _exit(127);
  }
  setpgid(pid, pid);
  close(in[0]);
  close(outp[1]);
  c->pid = pid;
  c->to_fd = in[1];
  c->from_fd = outp[0];
  fcntl(c->to_fd, F_SETFD, FD_CLOEXEC);
  fcntl(c->from_fd, F_SETFD, FD_CLOEXEC);
  return TTREF_OK;
fail:
  for (int k = 0; k < 2; k++) {
    if (in[k] >= 0) close(in[k]);
    if (outp[k] >= 0) close(outp[k]);
  }
  return st;
}

ttref_status conform_sys_pipe_start(const char *const *argv, const char *err_path, conform_pipe_child *c,
                                    ttref_error *err)
{
  return pipe_spawn(argv, NULL, NULL, err_path, c, err);
}

ttref_status conform_sys_pipe_start_fn(int (*fn)(void *arg), void *arg, const char *err_path, conform_pipe_child *c,
                                       ttref_error *err)
{
  return pipe_spawn(NULL, fn, arg, err_path, c, err);
}

ttref_status conform_sys_pipe_ask(conform_pipe_child *c, const char *line, char *reply, size_t n,
                                  double timeout_s, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  ttref_loc none = {0};
  double t0 = conform_sys_now();
  size_t len = strlen(line);
  char *msg = ir_alloc(len + 2);
  if (!msg) FAIL(IR_ERR(err, TTREF_E_NOMEM, none, "out of memory"));
  memcpy(msg, line, len);
  msg[len] = '\n';
  for (size_t off = 0; off < len + 1;) {
    ssize_t w = write(c->to_fd, msg + off, len + 1 - off);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) FAIL(IR_ERR(err, TTREF_E_IO, none, "the child closed its input"));
    off += (size_t)w;
  }
  for (;;) {
    char *nl = memchr(c->buf, '\n', c->nbuf);
    if (nl) {
      size_t l = (size_t)(nl - c->buf);
      size_t k = l < n - 1 ? l : n - 1;
      memcpy(reply, c->buf, k);
      reply[k] = 0;
      memmove(c->buf, nl + 1, c->nbuf - l - 1);
      c->nbuf -= l + 1;
      break;
    }
    if (c->nbuf == sizeof c->buf) c->nbuf = 0; /* an over-long line is dropped */
    double left = timeout_s > 0 ? timeout_s - (conform_sys_now() - t0) : 1e9;
    if (left <= 0) FAIL(IR_ERR(err, TTREF_E_LIMIT, none, "the child did not answer in %.0f s", timeout_s));
    struct pollfd p = {c->from_fd, POLLIN, 0};
    int r = poll(&p, 1, left > 1e6 ? -1 : (int)(left * 1000) + 1);
    if (r < 0 && errno == EINTR) continue;
    if (r == 0) continue;
    ssize_t got = read(c->from_fd, c->buf + c->nbuf, sizeof c->buf - c->nbuf);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) FAIL(IR_ERR(err, TTREF_E_IO, none, "the child closed its output"));
    c->nbuf += (size_t)got;
  }
fail:
  ir_free(msg, len + 2);
  return st;
}

void conform_sys_pipe_stop(conform_pipe_child *c, conform_exit *out)
{
  if (c->to_fd >= 0) close(c->to_fd);
  if (c->from_fd >= 0) close(c->from_fd);
  c->to_fd = c->from_fd = -1;
  if (c->pid > 0) {
    int status = 0;
    /* give a closing adapter a moment to exit on EOF before killing it */
    for (int k = 0; k < 20 && waitpid(c->pid, &status, WNOHANG) == 0; k++) nap(5);
    kill(-c->pid, SIGKILL);
    kill(c->pid, SIGKILL);
    while (waitpid(c->pid, &status, 0) < 0 && errno == EINTR) {}
    if (out) {
      out->kind = WIFSIGNALED(status) ? CONFORM_SIGNALED : CONFORM_EXITED;
      out->code = WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status);
      out->seconds = 0;
    }
  }
  c->pid = -1;
}

ttref_status conform_sys_mkdirs(const char *path, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  ttref_loc none = {0};
  char tmp[4096];
  size_t len = strlen(path);
  if (len == 0 || len >= sizeof tmp) FAIL(IR_ERR(err, TTREF_E_USAGE, none, "bad directory name '%s'", path));
  memcpy(tmp, path, len + 1);
  for (size_t k = 1; k <= len; k++) {
    if (tmp[k] != '/' && tmp[k] != 0) continue;
    char ch = tmp[k];
    tmp[k] = 0;
    if (mkdir(tmp, 0777) != 0 && errno != EEXIST)
      FAIL(IR_ERR(err, TTREF_E_IO, none, "cannot create directory '%s': %s", tmp, strerror(errno)));
    tmp[k] = ch;
  }
fail:
  return st;
}

void conform_sys_rmtree(const char *path)
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
        if ((size_t)snprintf(sub, sizeof sub, "%s/%s", path, e->d_name) < sizeof sub) conform_sys_rmtree(sub);
      }
      closedir(d);
    }
    rmdir(path);
  } else {
    unlink(path);
  }
}

bool conform_sys_exists(const char *path)
{
  struct stat sb;
  return stat(path, &sb) == 0;
}

ttref_status conform_sys_read_file(const char *path, char **out_buf, size_t *out_len, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  ttref_loc none = {0};
  char *buf = NULL;
  size_t len = 0, cap = 0;
  *out_buf = NULL;
  *out_len = 0;
  FILE *f = fopen(path, "rb");
  if (!f) FAIL(IR_ERR(err, TTREF_E_IO, none, "cannot read '%s': %s", path, strerror(errno)));
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
  if (ferror(f)) FAIL(IR_ERR(err, TTREF_E_IO, none, "cannot read '%s'", path));
  /* shrink to len + 1 so the caller frees with ir_free(buf, len + 1) */
  char *fit = ir_realloc(buf, cap, len + 1);
  if (!fit) FAIL(IR_ERR(err, TTREF_E_NOMEM, none, "out of memory reading '%s'", path));
  buf = fit;
  buf[len] = 0;
  *out_buf = buf;
  *out_len = len;
  buf = NULL;
  cap = 0;
fail:
  if (f) fclose(f);
  ir_free(buf, cap);
  return st;
}

ttref_status conform_sys_write_file(const char *path, const void *data, size_t len, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  ttref_loc none = {0};
  FILE *f = fopen(path, "wb");
  if (!f) FAIL(IR_ERR(err, TTREF_E_IO, none, "cannot write '%s': %s", path, strerror(errno)));
  if (len && fwrite(data, 1, len, f) != len) FAIL(IR_ERR(err, TTREF_E_IO, none, "cannot write '%s'", path));
fail:
  if (f && fclose(f) != 0 && st == TTREF_OK) st = IR_ERR(err, TTREF_E_IO, none, "cannot write '%s'", path);
  return st;
}

ttref_status conform_sys_copy_file(const char *src, const char *dst, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  char *buf = NULL;
  size_t len = 0;
  TRY(conform_sys_read_file(src, &buf, &len, err));
  TRY(conform_sys_write_file(dst, buf, len, err));
fail:
  if (buf) ir_free(buf, len + 1);
  return st;
}

bool conform_sys_self_exe(char *buf, size_t n)
{
  ssize_t k = readlink("/proc/self/exe", buf, n - 1);
  if (k <= 0) return false;
  buf[k] = 0;
  return true;
}

/* ---- paths under a chosen directory (no symbolic link is ever followed) ---------------- */

const char *conform_sys_component_problem(const char *s)
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
                  "refusing to %s '%s/%.*s': it is or passes through a symbolic link (ttref never follows links in the directories it writes)",
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
  if (dfd < 0) FAIL(IR_ERR(err, TTREF_E_IO, (ttref_loc){0}, "cannot %s '%s/%s': cannot open '%s': %s", what, root, rel, root,
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

ttref_status conform_sys_mkdirs_in(const char *root, const char *rel, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  int dfd = -1;
  const char *leaf;
  char tmp[4096];
  TRY(conform_sys_mkdirs(root, err));
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

ttref_status conform_sys_rmtree_in(const char *root, const char *rel, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  int dfd = -1;
  const char *leaf;
  struct stat sb;
  bool missing = false;
  if (!conform_sys_exists(root)) goto fail;
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

ttref_status conform_sys_fopen_in(const char *root, const char *rel, const char *mode, FILE **out_f, ttref_error *err)
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

ttref_status conform_sys_write_file_in(const char *root, const char *rel, const void *data, size_t len, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  FILE *f = NULL;
  TRY(conform_sys_fopen_in(root, rel, "w", &f, err));
  if (len && fwrite(data, 1, len, f) != len) FAIL(IR_ERR(err, TTREF_E_IO, (ttref_loc){0}, "cannot write '%s/%s': %s", root, rel, strerror(errno)));
fail:
  if (f && fclose(f) != 0 && st == TTREF_OK)
    st = IR_ERR(err, TTREF_E_IO, (ttref_loc){0}, "cannot write '%s/%s': %s", root, rel, strerror(errno));
  return st;
}

ttref_status conform_sys_copy_file_in(const char *src, const char *root, const char *rel, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  char *buf = NULL;
  size_t len = 0;
  TRY(conform_sys_read_file(src, &buf, &len, err));
  TRY(conform_sys_write_file_in(root, rel, buf, len, err));
fail:
  if (buf) ir_free(buf, len + 1);
  return st;
}

bool conform_sys_inside(const char *root_real, const char *path, int *out_errno)
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
