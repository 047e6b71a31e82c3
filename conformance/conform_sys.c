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
