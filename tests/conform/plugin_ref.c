/*
 * plugin_ref.c: a test backend plugin (conformance/ttref_backend.h) that runs
 * ttref itself: it writes the input buffers the harness hands it to .npy
 * files, runs `$TTREF_BIN run` on them with the launch read from case.yaml,
 * and reads the results back into the output buffers. It checks the tensors
 * against case.yaml, prints to stdout (which must not disturb the harness),
 * and appends one line per init to $TTREF_PLUGIN_INIT_LOG (if set).
 * Built by tests/conform/test_conform.sh: cc -shared -fPIC.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ttref_backend.h"

#define MAX_ARGS 64

typedef struct arg {
  char name[128], kind[16], dtype[16], value[128], shape[128];
} arg;

typedef struct launch {
  char grid[64], function[128];
  arg args[MAX_ARGS];
  int nargs;
} launch;

typedef struct state {
  int runs;
} state;

static const struct {
  const char *dtype, *descr;
} descrs[] = {
    {"bool", "|b1"},       {"i8", "|i1"},         {"i16", "<i2"}, {"i32", "<i4"},      {"i64", "<i8"},
    {"u8", "|u1"},         {"u16", "<u2"},        {"u32", "<u4"}, {"u64", "<u8"},      {"f16", "<f2"},
    {"bf16", "<u2"},       {"f32", "<f4"},        {"f64", "<f8"}, {"f8E4M3FN", "|u1"}, {"f8E5M2", "|u1"},
    {"f8E4M3FNUZ", "|u1"}, {"f8E5M2FNUZ", "|u1"},
};

/* The text after `key` on a line, unquoted (case.yaml quotes with \" and \\ escapes). */
static void value_of(const char *line, const char *key, char *out, size_t n)
{
  const char *p = line + strlen(key);
  size_t k = 0;
  if (*p == '"') {
    for (p++; *p && *p != '"' && k + 1 < n; p++) {
      if (*p == '\\' && p[1]) p++;
      out[k++] = *p;
    }
  } else {
    for (; *p && *p != '\n' && k + 1 < n; p++) out[k++] = *p;
  }
  out[k] = 0;
}

static int read_launch(const char *path, launch *l)
{
  char line[1024];
  FILE *f = fopen(path, "r");
  if (!f) return -1;
  memset(l, 0, sizeof *l);
  arg *a = NULL;
  while (fgets(line, sizeof line, f)) {
    if (strncmp(line, "outputs:", 8) == 0) break;
    if (strncmp(line, "grid: [", 7) == 0) {
      long long x, y, z;
      if (sscanf(line + 7, "%lld, %lld, %lld", &x, &y, &z) == 3)
        snprintf(l->grid, sizeof l->grid, "%lld,%lld,%lld", x, y, z);
    } else if (strncmp(line, "function: ", 10) == 0) {
      value_of(line, "function: ", l->function, sizeof l->function);
    } else if (strncmp(line, "  - name: ", 10) == 0 && l->nargs < MAX_ARGS) {
      a = &l->args[l->nargs++];
      value_of(line, "  - name: ", a->name, sizeof a->name);
    } else if (a && strncmp(line, "    kind: ", 10) == 0) {
      value_of(line, "    kind: ", a->kind, sizeof a->kind);
    } else if (a && strncmp(line, "    dtype: ", 11) == 0) {
      value_of(line, "    dtype: ", a->dtype, sizeof a->dtype);
    } else if (a && strncmp(line, "    shape: ", 11) == 0) {
      value_of(line, "    shape: ", a->shape, sizeof a->shape);
    } else if (a && strncmp(line, "    value: ", 11) == 0) {
      value_of(line, "    value: ", a->value, sizeof a->value);
    }
  }
  fclose(f);
  return l->grid[0] ? 0 : -1;
}

static const char *descr_of(const char *dtype)
{
  for (size_t i = 0; i < sizeof descrs / sizeof descrs[0]; i++)
    if (strcmp(descrs[i].dtype, dtype) == 0) return descrs[i].descr;
  return NULL;
}

static void shape_str(const ttref_backend_tensor *t, char *buf, size_t n)
{
  size_t pos = (size_t)snprintf(buf, n, "[");
  for (int d = 0; d < t->rank && pos < n; d++)
    pos += (size_t)snprintf(buf + pos, n - pos, "%s%lld", d ? ", " : "", (long long)t->shape[d]);
  if (pos < n) snprintf(buf + pos, n - pos, "]");
}

/* NumPy format 1.0: magic, header length, dict padded so the data starts at a multiple of 64. */
static int write_npy(const char *path, const ttref_backend_tensor *t)
{
  char shape[160], dict[256];
  size_t pos = (size_t)snprintf(shape, sizeof shape, "(");
  for (int d = 0; d < t->rank; d++)
    pos += (size_t)snprintf(shape + pos, sizeof shape - pos, "%lld,%s", (long long)t->shape[d],
                            d + 1 < t->rank ? " " : "");
  snprintf(shape + pos, sizeof shape - pos, ")");
  int len =
      snprintf(dict, sizeof dict, "{'descr': '%s', 'fortran_order': False, 'shape': %s, }", descr_of(t->dtype), shape);
  int total = (10 + len + 1 + 63) / 64 * 64;
  FILE *f = fopen(path, "wb");
  if (!f) return -1;
  unsigned hl = (unsigned)(total - 10);
  fwrite("\x93NUMPY\x01\x00", 1, 8, f);
  fputc((int)(hl & 0xff), f);
  fputc((int)(hl >> 8), f);
  fputs(dict, f);
  for (int i = 10 + len; i < total - 1; i++) fputc(' ', f);
  fputc('\n', f);
  if (t->nbytes) fwrite(t->data, 1, t->nbytes, f);
  return fclose(f);
}

/* Read the data of a .npy file into @p t (its size must be t->nbytes). */
static int read_npy(const char *path, ttref_backend_tensor *t)
{
  unsigned char head[12];
  FILE *f = fopen(path, "rb");
  if (!f) return -1;
  int rc = -1;
  if (fread(head, 1, 10, f) == 10 && memcmp(head, "\x93NUMPY", 6) == 0) {
    long hl = head[6] == 1 ? head[8] | head[9] << 8 : -1;
    if (head[6] >= 2 && fread(head + 10, 1, 2, f) == 2)
      hl = head[8] | head[9] << 8 | (long)head[10] << 16 | (long)head[11] << 24;
    struct stat sb;
    long start = head[6] == 1 ? 10 + hl : 12 + hl;
    if (hl >= 0 && fstat(fileno(f), &sb) == 0 && (size_t)(sb.st_size - start) == t->nbytes &&
        fseek(f, start, SEEK_SET) == 0 && (t->nbytes == 0 || fread(t->data, 1, t->nbytes, f) == t->nbytes))
      rc = 0;
  }
  fclose(f);
  return rc;
}

static int init(void **ctx)
{
  const char *log = getenv("TTREF_PLUGIN_INIT_LOG");
  state *s = calloc(1, sizeof *s);
  if (!s) return 1;
  if (log && *log) {
    FILE *f = fopen(log, "a");
    if (f) {
      fprintf(f, "init %ld\n", (long)getpid());
      fclose(f);
    }
  }
  *ctx = s;
  return 0;
}

static void fini(void *ctx) { free(ctx); }

static int run_case(void *ctx, const char *kernel, const char *case_yaml, const ttref_backend_tensor *inputs,
                    int ninputs, ttref_backend_tensor *outputs, int noutputs)
{
  static launch l;
  char dir[4096], scratch[4200], path[4400], shape[160];
  const char *exe = getenv("TTREF_BIN");
  char *argv[2 * MAX_ARGS + 16];
  static char specs[MAX_ARGS][4700];
  int n = 0, k = 0;
  state *s = ctx;
  s->runs++;
  printf("plugin_ref: run %d of this instance: %s\n", s->runs, case_yaml); /* stdout must not disturb the harness */
  if (!exe || !*exe) {
    fprintf(stderr, "plugin_ref: TTREF_BIN is not set\n");
    return 1;
  }
  for (int o = 0; o < noutputs; o++) /* outputs start as the in/out buffer's input contents */
    for (int i = 0; i < ninputs; i++)
      if (strcmp(outputs[o].name, inputs[i].name) == 0 &&
          (outputs[o].nbytes != inputs[i].nbytes || memcmp(outputs[o].data, inputs[i].data, inputs[i].nbytes) != 0)) {
        fprintf(stderr, "plugin_ref: output %s does not start as its input\n", outputs[o].name);
        return 1;
      }
  if (read_launch(case_yaml, &l) != 0) {
    fprintf(stderr, "plugin_ref: cannot read %s\n", case_yaml);
    return 1;
  }
  snprintf(dir, sizeof dir, "%s", case_yaml);
  *strrchr(dir, '/') = 0;
  snprintf(scratch, sizeof scratch, "%s/plugin_ref", dir);
  if (mkdir(scratch, 0755) != 0 && errno != EEXIST) return 1;
  argv[n++] = (char *)exe;
  argv[n++] = "run";
  argv[n++] = (char *)kernel;
  argv[n++] = "--grid";
  argv[n++] = l.grid;
  if (l.function[0]) {
    argv[n++] = "--kernel";
    argv[n++] = l.function;
  }
  for (int i = 0; i < l.nargs; i++) {
    const arg *a = &l.args[i];
    if (strcmp(a->kind, "ptr") == 0) { /* the harness's tensors must be the case's pointer arguments, in order */
      const ttref_backend_tensor *t = k < ninputs ? &inputs[k] : NULL;
      if (t) shape_str(t, shape, sizeof shape);
      if (!t || strcmp(t->name, a->name) != 0 || strcmp(t->dtype, a->dtype) != 0 || strcmp(shape, a->shape) != 0 ||
          !descr_of(t->dtype)) {
        fprintf(stderr, "plugin_ref: input %d is not argument %s (%s %s)\n", k, a->name, a->dtype, a->shape);
        return 1;
      }
      snprintf(path, sizeof path, "%s/in_%s.npy", scratch, a->name);
      if (write_npy(path, t) != 0) return 1;
      snprintf(specs[i], sizeof specs[i], "%s=@%s", a->name, path);
      k++;
    } else {
      snprintf(specs[i], sizeof specs[i], "%s=%s", a->name, a->value);
    }
    argv[n++] = "--arg";
    argv[n++] = specs[i];
  }
  if (k != ninputs) {
    fprintf(stderr, "plugin_ref: %d inputs, but case.yaml has %d pointer arguments\n", ninputs, k);
    return 1;
  }
  argv[n++] = "--out";
  argv[n++] = scratch;
  argv[n] = NULL;
  fflush(NULL);
  pid_t pid = fork();
  if (pid < 0) return 1;
  if (pid == 0) {
    execv(exe, argv);
    _exit(127);
  }
  int status;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    fprintf(stderr, "plugin_ref: ttref run failed\n");
    return 1;
  }
  for (int o = 0; o < noutputs; o++) {
    snprintf(path, sizeof path, "%s/%s.npy", scratch, outputs[o].name);
    if (read_npy(path, &outputs[o]) != 0) {
      fprintf(stderr, "plugin_ref: cannot read %s into output %s\n", path, outputs[o].name);
      return 1;
    }
  }
  return 0;
}

static const ttref_backend_api api = {
    TTREF_BACKEND_ABI_VERSION, "plugin_ref", "1 (runs ttref run)", init, run_case, fini};

const ttref_backend_api *ttref_backend_get_api(void) { return &api; }
