/*
 * conform_backend.c: runs a staged case on a backend. Built-in backends run
 * in a forked copy of the harness (the reference itself through
 * conform_stage_reference), adapters through execv, plugins in a forked
 * host per worker (conform_plugin); all get their own process group, a time
 * limit, and PR_SET_PDEATHSIG.
 */
#define _GNU_SOURCE /* realpath, truncate, strsignal under -std=c11 */
#include "config.h"
#include "conform_backend.h"
#include "ir_base_fs.h"
#include "ir_vendor.h"
#include "conform_plugin.h"
#include "conform_reply.h"
#include "conform_stage.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum {
#define X(name, str, desc) FAULT_##name,
#include "conform_fault_list.h"
#undef X
  FAULT_COUNT
};

static const struct {
  const char *name, *desc;
} faults[] = {
#define X(name, str, desc) {str, desc},
#include "conform_fault_list.h"
#undef X
};

void conform_backend_list(FILE *f)
{
  fprintf(f, "reference          ttref itself (passes 100%% of a suite by construction)\n");
  for (int i = 0; i < FAULT_COUNT; i++) fprintf(f, "fault:%-12s %s\n", faults[i].name, faults[i].desc);
  fprintf(f, "PATH               a process adapter run once per case directory (docs/adapter-protocol.md)\n");
  fprintf(f, "batch:PATH         a batch adapter: `PATH --batch`, case directories on stdin, one reply line each\n");
  fprintf(f, "plugin:PATH.so     a C plugin (ttref_backend.h), loaded with dlopen in one child per worker\n");
}

ttref_status conform_backend_open(const char *spec, conform_backend *b, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  ttref_loc none = {0};
  memset(b, 0, sizeof *b);
  snprintf(b->name, sizeof b->name, "%s", spec);
  if (strcmp(spec, "reference") == 0) {
    b->kind = CONFORM_BK_REFERENCE;
  } else if (strncmp(spec, "fault:", 6) == 0) {
    b->kind = CONFORM_BK_FAULT;
    b->fault = -1;
    for (int i = 0; i < FAULT_COUNT; i++)
      if (strcmp(faults[i].name, spec + 6) == 0) b->fault = i;
    if (strncmp(spec + 6, "perturb:", 8) == 0) {
      ir_opcode oc;
      const char *op = spec + 14;
      if ((!ir_op_lookup(op, strlen(op), &oc) || oc == IR_OP_VENDOR) &&
          !ir_vendor_find(ir_vendor_process(), op, strlen(op)))
        FAIL(IR_ERR(err, TTREF_E_USAGE, none,
                    "fault:perturb: unknown op '%s' (an op mnemonic such as math.exp, or a vendor op of --ops)", op));
      b->fault = FAULT_PERTURB;
      snprintf(b->fault_op, sizeof b->fault_op, "%s", op);
    } else if (b->fault == FAULT_PERTURB) b->fault = -1;
    if (b->fault < 0) FAIL(IR_ERR(err, TTREF_E_USAGE, none, "unknown fault backend '%s' (see --list-backends)", spec));
  } else if (strncmp(spec, "plugin:", 7) == 0) {
    b->kind = CONFORM_BK_PLUGIN;
    if (!spec[7]) FAIL(IR_ERR(err, TTREF_E_USAGE, none, "plugin: needs a path to a shared object"));
    if (!realpath(spec + 7, b->path))
      FAIL(IR_ERR(err, TTREF_E_USAGE, none, "plugin '%s': %s", spec + 7, strerror(errno)));
    TRY(conform_plugin_probe(b->path, 30, b->plugin_desc, sizeof b->plugin_desc, err));
  } else {
    const char *path = spec;
    b->kind = CONFORM_BK_ADAPTER;
    if (strncmp(spec, "batch:", 6) == 0) {
      b->kind = CONFORM_BK_BATCH;
      path = spec + 6;
    }
    if (!strchr(path, '/'))
      FAIL(IR_ERR(err, TTREF_E_USAGE, none,
                  "unknown backend '%s': not built in; an adapter needs a path with '/' (see --list-backends)", spec));
    if (!realpath(path, b->path)) FAIL(IR_ERR(err, TTREF_E_USAGE, none, "adapter '%s': %s", path, strerror(errno)));
    if (access(b->path, X_OK) != 0) FAIL(IR_ERR(err, TTREF_E_USAGE, none, "adapter '%s' is not executable", path));
  }
fail:
  return st;
}

void conform_backend_close(conform_backend *b)
{
  if (b && b->pipe_up) conform_sys_pipe_stop(&b->pipe, NULL);
  if (b) b->pipe_up = false;
}

/* ---- fault backends (in a forked child) ---------------------------------------- */

typedef struct fault_job {
  const conform_case *c;
  const conform_spec *s;
  const char *dir;
  int fault;
  const char *op; /* FAULT_PERTURB */
  double timeout;
} fault_job;

static int mutate(const fault_job *j)
{
  char path[4200];
  ttref_error err = {0};
  for (int k = 0; k < j->c->noutputs; k++) {
    npy_array a = {0};
    /* the fault is in what the kernel stores: --localize's probes (conform_localize.h) stay right */
    if (strncmp(j->c->outputs[k].name, "ttref_probe_", 12) == 0) continue;
    const conform_arg *arg = NULL;
    for (int i = 0; i < j->s->nargs; i++)
      if (strcmp(j->s->args[i].name, j->c->outputs[k].name) == 0) arg = &j->s->args[i];
    snprintf(path, sizeof path, "%s/outputs/%s.npy", j->dir, j->c->outputs[k].name);
    if (j->fault == FAULT_TRUNCATE) {
      struct stat sb;
      if (stat(path, &sb) != 0 || truncate(path, sb.st_size / 2) != 0) return 1;
      continue;
    }
    if (npy_read(path, &a, &err) != TTREF_OK) return 1;
    uint8_t *d = a.data;
    if (j->fault == FAULT_FLIP_LSB && arg && conform_dtype_fp(arg->dtype) >= 0) {
      for (int64_t i = 0; i < a.numel; i++) d[i * a.elsize] ^= 1; /* little-endian: byte 0 holds the lsb */
    } else if (j->fault == FAULT_DROP_STORE && a.numel > 0) {
      memset(d + (a.numel - 1) * a.elsize, 0, (size_t)a.elsize);
    } else if (j->fault == FAULT_BAD_SHAPE && a.numel > 0) {
      a.rank = 1;
      a.shape[0] = a.numel - 1;
      for (int r = 1; r < NPY_MAX_RANK; r++) a.shape[r] = 0;
      a.numel -= 1;
      a.nbytes -= (size_t)a.elsize;
    }
    ttref_status st = npy_write(path, &a, &err);
    if (j->fault == FAULT_BAD_SHAPE) a.nbytes += (size_t)a.elsize;
    npy_free(&a);
    if (st != TTREF_OK) return 1;
  }
  return 0;
}

static int fault_main(void *arg)
{
  const fault_job *j = arg;
  switch (j->fault) {
  case FAULT_NONE: return 0;
  case FAULT_CRASH: abort();
  case FAULT_HANG:
    for (;;) pause();
  case FAULT_EXIT_ERROR: return 1;
  case FAULT_UNSUPPORTED: return 3;
  default: break;
  }
  char out[4200];
  conform_exit ex;
  ttref_error err = {0};
  snprintf(out, sizeof out, "%s/outputs", j->dir);
  if (conform_stage_reference_inject(j->s, j->dir, out, j->fault == FAULT_PERTURB ? j->op : NULL, j->timeout, &ex,
                                     &err) != TTREF_OK)
    return 1;
  if (ex.kind != CONFORM_EXITED || ex.code != 0) return 1;
  return j->fault == FAULT_PERTURB ? 0 : mutate(j);
}

/* ---- running ------------------------------------------------------------------------ */

static void from_exit(const conform_exit *ex, const char *who, conform_backend_result *r)
{
  r->seconds = ex->seconds;
  if (ex->kind == CONFORM_TIMED_OUT) {
    r->raw = CONFORM_V_TIMEOUT;
    snprintf(r->detail, sizeof r->detail, "%s exceeded its time limit (%.1f s)", who, ex->seconds);
  } else if (ex->kind == CONFORM_SIGNALED) {
    r->raw = CONFORM_V_CRASH;
    snprintf(r->detail, sizeof r->detail, "%s died from signal %d (%s)", who, ex->code, strsignal(ex->code));
  } else if (ex->code == 0) {
    r->raw = CONFORM_V_PASS;
  } else if (ex->code == 3) {
    r->raw = CONFORM_V_UNSUPPORTED;
    snprintf(r->detail, sizeof r->detail, "%s: unsupported", who);
  } else {
    r->raw = CONFORM_V_ERROR;
    snprintf(r->detail, sizeof r->detail, "%s exited %d", who, ex->code);
  }
}

/* Append one line to the worker's batch log (best effort: a full disk shows up elsewhere). */
static void log_line(const conform_backend *b, const char *what, const char *line, size_t dropped)
{
  char buf[4400];
  int k;
  if (!b->errlog[0]) return;
  if (dropped) k = snprintf(buf, sizeof buf, "ttref: discarded a stdout line of %zu bytes (over 4095)\n", dropped);
  else k = snprintf(buf, sizeof buf, "ttref: %s: %.4000s\n", what, line);
  int fd = open(b->errlog, O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd < 0) return;
  (void)ir_fs_write_all(fd, buf, (size_t)k < sizeof buf ? (size_t)k : sizeof buf - 1);
  close(fd);
}

/*
 * One item through a long-lived child (batch adapter or plugin host): send
 * @p request, then read lines until the reply naming @p dir. Other lines
 * (logs, late or doubled replies, over-long lines) go to the batch log and
 * are ignored; a reply naming @p dir with an unknown word is a protocol
 * error, and after it (or a timeout, or a death) the child is restarted.
 */
static ttref_status run_pipe(conform_backend *b, const char *request, const char *dir, double timeout_s,
                             conform_backend_result *r, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  char reply[4300];
  ttref_error perr = {0};
  const char *who = b->kind == CONFORM_BK_PLUGIN ? "plugin" : "batch adapter";
  double t0 = ir_fs_now();
  if (!b->pipe_up && b->kind == CONFORM_BK_PLUGIN) {
    TRY(conform_sys_pipe_start_fn(conform_plugin_host, b->path, NULL, &b->pipe, err));
    b->pipe_up = true;
  } else if (!b->pipe_up) {
    const char *argv[] = {b->path, "--batch", NULL};
    TRY(conform_sys_pipe_start(argv, b->errlog[0] ? b->errlog : NULL, &b->pipe, err));
    b->pipe_up = true;
  }
  ttref_status ps = conform_sys_pipe_send(&b->pipe, request, &perr);
  conform_reply_kind kind = CONFORM_REPLY_NOISE;
  const char *reason = "";
  while (ps == TTREF_OK) {
    size_t dropped = 0;
    ps = conform_sys_pipe_readline(&b->pipe, reply, sizeof reply, timeout_s > 0 ? t0 + timeout_s : 0, &dropped, &perr);
    if (ps != TTREF_OK) break;
    if (dropped) {
      log_line(b, NULL, NULL, dropped);
      continue;
    }
    kind = conform_reply_parse(reply, strlen(reply), dir, &reason);
    if (kind == CONFORM_REPLY_OTHER) log_line(b, "ignored a reply for another case", reply, 0);
    else if (kind == CONFORM_REPLY_NOISE) log_line(b, "ignored a stdout line", reply, 0);
    else break;
  }
  r->seconds = ir_fs_now() - t0;
  if (ps == TTREF_E_LIMIT) {
    conform_sys_pipe_stop(&b->pipe, NULL);
    b->pipe_up = false;
    r->raw = CONFORM_V_TIMEOUT;
    snprintf(r->detail, sizeof r->detail, "%s exceeded its time limit (%.1f s)", who, r->seconds);
  } else if (ps != TTREF_OK) {
    conform_exit ex = {CONFORM_EXITED, 0, 0};
    conform_sys_pipe_stop(&b->pipe, &ex);
    b->pipe_up = false;
    from_exit(&ex, who, r);
    if (r->raw == CONFORM_V_PASS || r->raw == CONFORM_V_UNSUPPORTED) {
      r->raw = CONFORM_V_ERROR;
      snprintf(r->detail, sizeof r->detail, "%s quit without answering (exit %d)", who, ex.code);
    }
  } else if (kind == CONFORM_REPLY_OK) {
    r->raw = CONFORM_V_PASS;
  } else if (kind == CONFORM_REPLY_UNSUPPORTED) {
    r->raw = CONFORM_V_UNSUPPORTED;
    snprintf(r->detail, sizeof r->detail, "%s: unsupported%s%.200s", who, reason[0] ? ": " : "", reason);
  } else if (kind == CONFORM_REPLY_ERROR) {
    r->raw = CONFORM_V_ERROR;
    snprintf(r->detail, sizeof r->detail, "%s: error%s%.200s", who, reason[0] ? ": " : "", reason);
  } else { /* CONFORM_REPLY_BAD: it is out of step with us; start a fresh one for the next item */
    log_line(b, "protocol error, restarting the adapter after", reply, 0);
    conform_sys_pipe_stop(&b->pipe, NULL);
    b->pipe_up = false;
    r->raw = CONFORM_V_ERROR;
    snprintf(r->detail, sizeof r->detail, "%s protocol error: reply '%.150s' (expected ok, unsupported or error)", who,
             reply);
  }
fail:
  return st;
}

ttref_status conform_backend_run(conform_backend *b, const conform_case *c, const conform_spec *s, const char *dir,
                                 double timeout_s, conform_backend_result *r, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  conform_exit ex;
  char out[4200], log[4200];
  char *request = NULL;
  size_t request_len = 0;
  memset(r, 0, sizeof *r);
  snprintf(out, sizeof out, "%s/outputs", dir);
  snprintf(log, sizeof log, "%s/backend.log", dir);
  snprintf(r->log, sizeof r->log, "%s", b->kind == CONFORM_BK_BATCH && b->errlog[0] ? b->errlog : log);
  switch (b->kind) {
  case CONFORM_BK_REFERENCE:
    TRY(conform_stage_reference(s, dir, out, false, false, timeout_s, &ex, err));
    from_exit(&ex, "reference", r);
    break;
  case CONFORM_BK_FAULT: {
    fault_job j = {c, s, dir, b->fault, b->fault_op, timeout_s};
    conform_spawn sp = {NULL, fault_main, &j, dir, log, timeout_s};
    TRY(conform_sys_run(&sp, &ex, err));
    from_exit(&ex, b->name, r);
    break;
  }
  case CONFORM_BK_ADAPTER: {
    const char *argv[] = {b->path, dir, NULL};
    conform_spawn sp = {argv, NULL, NULL, dir, log, timeout_s};
    TRY(conform_sys_run(&sp, &ex, err));
    from_exit(&ex, "adapter", r);
    break;
  }
  case CONFORM_BK_BATCH: TRY(run_pipe(b, dir, dir, timeout_s, r, err)); break;
  case CONFORM_BK_PLUGIN:
    TRY(conform_plugin_request(c, s, dir, &request, &request_len, err));
    TRY(run_pipe(b, request, dir, timeout_s, r, err));
    break;
  }
fail:
  if (request) ir_free(request, request_len + 1);
  return st;
}

void conform_backend_version(const conform_backend *b, const char *scratch, char *buf, size_t n)
{
  snprintf(buf, n, "ttref %s", ttref_version());
  if (b->kind == CONFORM_BK_PLUGIN) snprintf(buf, n, "%s", b->plugin_desc);
  if (b->kind != CONFORM_BK_ADAPTER && b->kind != CONFORM_BK_BATCH) return;
  const char *argv[] = {b->path, "--version", NULL};
  conform_spawn sp = {argv, NULL, NULL, NULL, scratch, 10};
  conform_exit ex;
  ttref_error err = {0};
  char *text = NULL;
  size_t len = 0;
  snprintf(buf, n, "unknown");
  if (conform_sys_run(&sp, &ex, &err) == TTREF_OK && ex.kind == CONFORM_EXITED && ex.code == 0 &&
      ir_fs_read_regular(scratch, &text, &len, &err) == TTREF_OK) {
    size_t l = strcspn(text, "\n");
    snprintf(buf, n, "%.*s", (int)(l < 200 ? l : 200), text);
  }
  if (text) ir_free(text, len + 1);
  unlink(scratch);
}
