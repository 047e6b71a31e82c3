/*
 * conform_sys.c: POSIX plumbing for the harness: fork/exec with a process
 * group per child and a SIGKILL'd group on timeout, PR_SET_PDEATHSIG so no
 * child outlives a killed harness, line pipes, and the subreaper that reaps
 * every descendant. (File and path helpers: ir/ir_base_fs.c.)
 */
#define _GNU_SOURCE /* nanosleep, kill, prctl under -std=c11 */
#include "config.h"
#include "conform_sys.h"
#include "ir_base.h"
#include "ir_base_fs.h"

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
  signal(SIGXFSZ, SIG_DFL); /* the harness ignores it; its children get the default */
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
  double t0 = ir_fs_now();
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
    if (s->timeout_s > 0 && ir_fs_now() - t0 > s->timeout_s) {
      kill(-pid, SIGKILL);
      kill(pid, SIGKILL);
      while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
      out->kind = CONFORM_TIMED_OUT;
      out->code = 0;
      out->seconds = ir_fs_now() - t0;
      goto fail;
    }
    nap(wait_ms);
    if (wait_ms < 20) wait_ms *= 2;
  }
  kill(-pid, SIGKILL); /* leftovers of the group (grandchildren) */
  out->seconds = ir_fs_now() - t0;
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
    signal(SIGXFSZ, SIG_DFL); /* the harness ignores it; its children get the default */
    dup2(in[0], 0);
    dup2(outp[1], 1);
    int e = open(err_path ? err_path : "/dev/null", O_WRONLY | O_CREAT | O_APPEND, 0644);
    if (e >= 0) dup2(e, 2);
    close(in[0]);
    close(in[1]);
    close(outp[0]);
    close(outp[1]);
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

ttref_status conform_sys_pipe_send(conform_pipe_child *c, const char *line, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  size_t len = strlen(line);
  if (ir_fs_write_all(c->to_fd, line, len) != TTREF_OK || ir_fs_write_all(c->to_fd, "\n", 1) != TTREF_OK)
    FAIL(IR_ERR(err, TTREF_E_IO, (ttref_loc){0}, "the child closed its input"));
fail:
  return st;
}

ttref_status conform_sys_pipe_readline(conform_pipe_child *c, char *out, size_t n, double deadline, size_t *out_dropped,
                                       ttref_error *err)
{
  ttref_status st = TTREF_OK;
  ttref_loc none = {0};
  *out_dropped = 0;
  if (n) out[0] = 0;
  for (;;) {
    char *nl = memchr(c->buf, '\n', c->nbuf);
    if (nl) {
      size_t l = (size_t)(nl - c->buf);
      if (c->skipping) { /* the end of an over-long line */
        *out_dropped = c->skipped + l;
        c->skipping = false;
        c->skipped = 0;
      } else if (n) {
        size_t k = l < n - 1 ? l : n - 1;
        memcpy(out, c->buf, k);
        out[k] = 0;
      }
      memmove(c->buf, nl + 1, c->nbuf - l - 1);
      c->nbuf -= l + 1;
      break;
    }
    if (c->nbuf == sizeof c->buf) { /* no newline in a full buffer: drop it up to the next newline */
      c->skipping = true;
      c->skipped += c->nbuf;
      c->nbuf = 0;
    }
    double left = deadline > 0 ? deadline - ir_fs_now() : 1e9;
    if (left <= 0) FAIL(IR_ERR(err, TTREF_E_LIMIT, none, "the child did not answer in time"));
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

void conform_sys_become_subreaper(void)
{
#ifdef PR_SET_CHILD_SUBREAPER
  prctl(PR_SET_CHILD_SUBREAPER, 1);
#endif
  signal(SIGXFSZ, SIG_IGN); /* a file-size limit is an EFBIG error, not the harness's death */
}

typedef struct proc_ent {
  pid_t pid, ppid;
  char state;
} proc_ent;

/* Every process of /proc into *v (pid, ppid, state); returns the count (0 when /proc is unreadable). */
static int proc_scan(proc_ent **v, int *cap)
{
  DIR *d = opendir("/proc");
  int n = 0;
  if (!d) return 0;
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    char path[64], buf[512];
    if (e->d_name[0] < '1' || e->d_name[0] > '9') continue;
    snprintf(path, sizeof path, "/proc/%.20s/stat", e->d_name);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) continue;
    ssize_t k = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (k <= 0) continue;
    buf[k] = 0;
    char *rp = strrchr(buf, ')'); /* the command name may hold spaces and ')' */
    char st;
    int ppid;
    if (!rp || sscanf(rp + 1, " %c %d", &st, &ppid) != 2) continue;
    if (n == *cap) {
      int ncap = *cap ? *cap * 2 : 512;
      proc_ent *nv = ir_realloc(*v, sizeof **v * (size_t)*cap, sizeof **v * (size_t)ncap);
      if (!nv) break;
      *v = nv;
      *cap = ncap;
    }
    (*v)[n++] = (proc_ent){(pid_t)atoi(e->d_name), (pid_t)ppid, st};
  }
  closedir(d);
  return n;
}

int conform_sys_reap_descendants(pid_t keep)
{
  const pid_t self = getpid();
  proc_ent *v = NULL;
  pid_t *mine = NULL;
  int cap = 0, mcap = 0, killed = 0;
  for (int round = 0; round < 400; round++) {
    int n = proc_scan(&v, &cap), nm = 0;
    if (mcap < n + 1) {
      pid_t *nm2 = ir_realloc(mine, sizeof *mine * (size_t)mcap, sizeof *mine * (size_t)(n + 1));
      if (!nm2) break;
      mine = nm2;
      mcap = n + 1;
    }
    /* descendants of self, breadth first, not entering keep's subtree */
    mine[nm++] = self;
    for (int h = 0; h < nm; h++)
      for (int i = 0; i < n; i++)
        if (v[i].ppid == mine[h] && v[i].pid != keep && v[i].pid != self && nm < mcap) mine[nm++] = v[i].pid;
    for (int h = 1; h < nm; h++) {
      char s = 0;
      pid_t pp = 0;
      for (int i = 0; i < n; i++)
        if (v[i].pid == mine[h]) s = v[i].state, pp = v[i].ppid;
      if (s != 'Z') {
        kill(mine[h], SIGKILL);
        killed++;
      }
      if (pp == self) { /* our own child: collect it (it is dead or dying) */
        while (waitpid(mine[h], NULL, s == 'Z' ? WNOHANG : 0) < 0 && errno == EINTR) {}
      }
    }
    if (nm == 1) break;
    nap(1); /* killed grandchildren reparent to us (the subreaper) as they die */
  }
  ir_free(v, sizeof *v * (size_t)cap);
  ir_free(mine, sizeof *mine * (size_t)mcap);
  return killed;
}
