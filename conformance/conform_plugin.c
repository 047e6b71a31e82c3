/*
 * conform_plugin.c: loads C plugin backends (ttref_backend.h) with dlopen,
 * only ever in child processes: a probe that checks the ABI when the backend
 * is opened, and a per-worker host that runs items for the harness.
 */
#define _GNU_SOURCE /* mkstemp, fdopen, dup2 under -std=c11 */
#include "config.h"
#include "conform_plugin.h"
#include "conform_sys.h"
#include "ir_base_fs.h"
#include "npy_io.h"
#include "ttref_backend.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PROBE_OK  "ttref-plugin-ok: "
#define PROBE_ERR "ttref-plugin-error: "

/* dlopen @p path and fetch and check its api table; the error says what is wrong. */
static ttref_status load(const char *path, const ttref_backend_api **out_api, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  ttref_loc none = {0};
  ttref_backend_get_api_fn get = NULL;
  const ttref_backend_api *api = NULL;
  *out_api = NULL;
  void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL); /* never dlclose'd: the child exits */
  if (!h) FAIL(IR_ERR(err, TTREF_E_INPUT, none, "cannot load it: %s", dlerror()));
  void *sym = dlsym(h, TTREF_BACKEND_ENTRY);
  if (!sym)
    FAIL(IR_ERR(err, TTREF_E_INPUT, none, "it does not export %s() (not a ttref backend plugin? see ttref_backend.h)",
                TTREF_BACKEND_ENTRY));
  memcpy(&get, &sym, sizeof get); /* POSIX: a data pointer from dlsym converts to a function pointer */
  api = get();
  if (!api) FAIL(IR_ERR(err, TTREF_E_INPUT, none, "%s() returned NULL", TTREF_BACKEND_ENTRY));
  if (api->abi_version != TTREF_BACKEND_ABI_VERSION)
    FAIL(IR_ERR(err, TTREF_E_INPUT, none,
                "it was built for backend ABI version %d, but this ttref supports version %d (rebuild it against this "
                "ttref_backend.h)",
                api->abi_version, TTREF_BACKEND_ABI_VERSION));
  if (!api->run_case) FAIL(IR_ERR(err, TTREF_E_INPUT, none, "its api table has no run_case"));
  *out_api = api;
fail:
  return st;
}

/* An error message without its "error: " prefix, to relay inside another message. */
static const char *detail(const ttref_error *err)
{
  return strncmp(err->msg, "error: ", 7) == 0 ? err->msg + 7 : err->msg;
}

/* ---- probe (in a child) ---------------------------------------------------------- */

static int probe_main(void *arg)
{
  const ttref_backend_api *api;
  ttref_error err = {0};
  int rc = 0;
  if (load(arg, &api, &err) == TTREF_OK) {
    printf("\n" PROBE_OK "%s %s\n", api->name ? api->name : "unnamed", api->version ? api->version : "unknown");
  } else {
    printf("\n" PROBE_ERR "%s\n", detail(&err));
    rc = 2;
  }
  fflush(stdout); /* the child ends with _exit */
  return rc;
}

ttref_status conform_plugin_probe(const char *path, double timeout_s, char *desc, size_t n, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  ttref_loc none = {0};
  const char *tmp = getenv("TMPDIR");
  char scratch[4096];
  char *text = NULL;
  size_t len = 0;
  conform_exit ex;
  snprintf(scratch, sizeof scratch, "%s/ttref-plugin-probe.XXXXXX", tmp && *tmp ? tmp : "/tmp");
  int fd = mkstemp(scratch);
  if (fd < 0) {
    scratch[0] = 0;
    FAIL(IR_ERR(err, TTREF_E_IO, none, "cannot create a temporary file: %s", strerror(errno)));
  }
  close(fd);
  conform_spawn sp = {NULL, probe_main, (void *)path, NULL, scratch, timeout_s};
  TRY(conform_sys_run(&sp, &ex, err));
  TRY(ir_fs_read_file(scratch, &text, &len, err));
  const char *ok = strstr(text, "\n" PROBE_OK), *bad = strstr(text, "\n" PROBE_ERR);
  if (ex.kind == CONFORM_TIMED_OUT)
    FAIL(IR_ERR(err, TTREF_E_USAGE, none, "plugin '%s': loading it took longer than %.0f s", path, timeout_s));
  if (ex.kind == CONFORM_SIGNALED)
    FAIL(IR_ERR(err, TTREF_E_USAGE, none, "plugin '%s': loading it crashed (signal %d, %s)", path, ex.code,
                strsignal(ex.code)));
  if (ex.code == 0 && ok) {
    ok += strlen("\n" PROBE_OK);
    snprintf(desc, n, "%.*s", (int)strcspn(ok, "\n"), ok);
  } else if (bad) {
    bad += strlen("\n" PROBE_ERR);
    FAIL(IR_ERR(err, TTREF_E_USAGE, none, "plugin '%s': %.*s", path, (int)strcspn(bad, "\n"), bad));
  } else {
    FAIL(IR_ERR(err, TTREF_E_USAGE, none, "plugin '%s': loading it exited %d", path, ex.code));
  }
fail:
  if (text) ir_free(text, len + 1);
  if (scratch[0]) unlink(scratch);
  return st;
}

/* ---- requests --------------------------------------------------------------------- */

ttref_status conform_plugin_request(const conform_case *c, const conform_spec *s, const char *dir, char **out_line,
                                    size_t *out_len, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  ttref_loc none = {0};
  size_t len = strlen(dir), pos = 0;
  char *line = NULL;
  *out_line = NULL;
  *out_len = 0;
  if (strpbrk(dir, "\t\n")) FAIL(IR_ERR(err, TTREF_E_INPUT, none, "case directory '%s' holds a tab or newline", dir));
  for (int i = 0; i < s->nargs; i++)
    if (s->args[i].is_ptr) len += strlen(s->args[i].name) + 32;
  line = ir_alloc(len + 1);
  if (!line) FAIL(IR_ERR(err, TTREF_E_NOMEM, none, "out of memory"));
  pos = (size_t)snprintf(line, len + 1, "%s", dir);
  for (int i = 0; i < s->nargs; i++) {
    const conform_arg *a = &s->args[i];
    if (!a->is_ptr) continue;
    pos += (size_t)snprintf(line + pos, len + 1 - pos, "\t%s:%s:%c", a->name, conform_dtype_name(a->dtype),
                            conform_case_output(c, a->name) ? 'o' : 'i');
  }
  *out_line = line;
  *out_len = len;
  line = NULL;
fail:
  if (line) ir_free(line, len + 1);
  return st;
}

/* ---- host (in a child) -------------------------------------------------------------- */

typedef struct host_item {
  npy_array *in, *out;
  ttref_backend_tensor *tin, *tout;
  int nin, nout, cap;
} host_item;

static void item_free(host_item *it)
{
  for (int i = 0; i < it->nin; i++) npy_free(&it->in[i]);
  for (int i = 0; i < it->nout; i++) npy_free(&it->out[i]);
  ir_free(it->in, sizeof *it->in * (size_t)it->cap);
  ir_free(it->out, sizeof *it->out * (size_t)it->cap);
  ir_free(it->tin, sizeof *it->tin * (size_t)it->cap);
  ir_free(it->tout, sizeof *it->tout * (size_t)it->cap);
}

static void tensor_of(const npy_array *a, const char *name, const char *dtype, ttref_backend_tensor *t)
{
  t->name = name;
  t->dtype = dtype;
  t->rank = a->rank;
  t->shape = a->shape;
  t->data = a->data;
  t->nbytes = a->nbytes;
}

/* DIR/SUB/NAME into @p buf; false if it does not fit. */
static bool join(char *buf, size_t n, const char *dir, const char *sub, const char *name)
{
  int l = snprintf(buf, n, "%s/%s%s", dir, sub, name);
  return l >= 0 && (size_t)l < n;
}

/* Point stdout and stderr at DIR/backend.log for this item's plugin output. */
static void log_to(const char *dir)
{
  char path[4200];
  fflush(NULL);
  if (!join(path, sizeof path, dir, "", "backend.log")) return;
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) return;
  dup2(fd, 1);
  dup2(fd, 2);
  close(fd);
}

/* Run one request (the line is cut up in place); the reply word, with detail in @p msg. */
static const char *run_item(const ttref_backend_api *api, void *ctx, char *line, char *msg, size_t n)
{
  const char *word = "error";
  host_item it = {0};
  char path[4200], kernel[4200], yaml[4200];
  ttref_error err = {0};
  char *dir = line, *field = strchr(line, '\t');
  int nfields = 0;
  for (const char *p = line; *p; p++) nfields += *p == '\t';
  if (field) *field++ = 0;
  log_to(dir);
  it.cap = nfields + 1;
  it.in = ir_calloc((size_t)it.cap, sizeof *it.in);
  it.out = ir_calloc((size_t)it.cap, sizeof *it.out);
  it.tin = ir_calloc((size_t)it.cap, sizeof *it.tin);
  it.tout = ir_calloc((size_t)it.cap, sizeof *it.tout);
  if (!it.in || !it.out || !it.tin || !it.tout) {
    snprintf(msg, n, "harness: out of memory");
    goto done;
  }
  while (field) { /* NAME:DTYPE:i|o */
    char *next = strchr(field, '\t');
    if (next) *next++ = 0;
    char *io = strrchr(field, ':');
    char *dtype = io ? (*io = 0, strrchr(field, ':')) : NULL;
    if (!io || !dtype) {
      snprintf(msg, n, "harness: bad request field '%.100s'", field);
      goto done;
    }
    *dtype++ = 0;
    io++;
    char file[4200];
    if (!join(file, sizeof file, "inputs", field, ".npy") || !join(path, sizeof path, dir, "", file)) {
      snprintf(msg, n, "harness: path too long");
      goto done;
    }
    if (npy_read(path, &it.in[it.nin], &err) != TTREF_OK) {
      snprintf(msg, n, "harness: %.300s", detail(&err));
      goto done;
    }
    tensor_of(&it.in[it.nin], field, dtype, &it.tin[it.nin]);
    if (*io == 'o') {
      const npy_array *a = &it.in[it.nin];
      npy_array *o = &it.out[it.nout];
      if (npy_alloc(o, a->kind, a->elsize, a->rank, a->shape, &err) != TTREF_OK) {
        snprintf(msg, n, "harness: %.300s", detail(&err));
        goto done;
      }
      if (a->nbytes) memcpy(o->data, a->data, a->nbytes); /* in/out: the buffer before the launch */
      tensor_of(o, field, dtype, &it.tout[it.nout]);
      it.nout++;
    }
    it.nin++;
    field = next;
  }
  if (!join(kernel, sizeof kernel, dir, "", "kernel.ttir") || !join(yaml, sizeof yaml, dir, "", "case.yaml")) {
    snprintf(msg, n, "harness: path too long");
    goto done;
  }
  int rc = api->run_case(ctx, kernel, yaml, it.tin, it.nin, it.tout, it.nout);
  fflush(NULL);
  if (rc == TTREF_BACKEND_UNSUPPORTED) {
    word = "unsupported";
    goto done;
  }
  if (rc != TTREF_BACKEND_OK) {
    snprintf(msg, n, "run_case returned %d", rc);
    goto done;
  }
  for (int k = 0; k < it.nout; k++) {
    char file[4200];
    if (!join(file, sizeof file, "outputs", it.tout[k].name, ".npy") || !join(path, sizeof path, dir, "", file)) {
      snprintf(msg, n, "harness: path too long");
      goto done;
    }
    if (npy_write(path, &it.out[k], &err) != TTREF_OK) {
      snprintf(msg, n, "harness: %.300s", detail(&err));
      goto done;
    }
  }
  word = "ok";
done:
  item_free(&it);
  return word;
}

int conform_plugin_host(void *path)
{
  static char line[65536];
  char why[512] = "", msg[512];
  ttref_error err = {0};
  const ttref_backend_api *api = NULL;
  void *ctx = NULL;
  int proto = dup(1); /* replies only: the plugin's own stdout goes to the item's log */
  FILE *out = proto >= 0 ? fdopen(proto, "w") : NULL;
  if (!out) return 1;
  dup2(2, 1);
  if (load(path, &api, &err) != TTREF_OK) snprintf(why, sizeof why, "%s", detail(&err));
  else if (api->init) {
    int rc = api->init(&ctx);
    if (rc != TTREF_BACKEND_OK) {
      snprintf(why, sizeof why, "init returned %d", rc);
      api = NULL;
    }
  }
  while (fgets(line, sizeof line, stdin)) {
    size_t l = strlen(line);
    const char *word = "error";
    msg[0] = 0;
    if (l && line[l - 1] == '\n') {
      line[--l] = 0;
      if (!api) snprintf(msg, sizeof msg, "%s", why);
      else word = run_item(api, ctx, line, msg, sizeof msg);
    } else { /* over-long request: drop the rest of it */
      int ch;
      while ((ch = getchar()) != EOF && ch != '\n') {}
      snprintf(msg, sizeof msg, "harness: request line too long");
    }
    line[strcspn(line, "\t")] = 0; /* the case directory */
    fprintf(out, "%s %s%s%s\n", word, line, msg[0] ? " " : "", msg);
    fflush(out);
  }
  if (api && api->fini) api->fini(ctx);
  fclose(out);
  return 0;
}
