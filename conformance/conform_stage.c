/*
 * conform_stage.c: materialises a case directory from a suite case and runs
 * `ttref run` on it. Reference runs always go through the CLI in a child
 * process, so the golden path is the path users run, and a reference crash
 * cannot take the harness down.
 */
#define _GNU_SOURCE /* POSIX process and file calls under -std=c11 */
#include "config.h"
#include "conform_stage.h"
#include "ir_base_fs.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool conform_stage_exe(char *buf, size_t n)
{
  const char *env = getenv("TTREF_REFERENCE_EXE");
  if (env && *env) {
    snprintf(buf, n, "%s", env);
    return true;
  }
  return ir_fs_self_exe(buf, n);
}

static void yaml_str(FILE *f, const char *s)
{
  fputc('"', f);
  for (; *s; s++) {
    if (*s == '"' || *s == '\\') fputc('\\', f);
    fputc(*s, f);
  }
  fputc('"', f);
}

static void shape_list(FILE *f, const conform_arg *a)
{
  fputc('[', f);
  for (int d = 0; d < a->rank; d++) fprintf(f, "%s%lld", d ? ", " : "", (long long)a->shape[d]);
  fputc(']', f);
}

static ttref_status write_case_yaml(const conform_case *c, const conform_spec *s, const char *dir, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  ttref_loc none = {0};
  const char *path = "case.yaml";
  FILE *f = NULL;
  TRY(ir_fs_fopen_in(dir, path, "w", &f, err));
  fprintf(f, "# ttref case directory (docs/adapter-protocol.md); generated, do not edit\n");
  fprintf(f, "protocol: %d\ncase: ", CONFORM_PROTOCOL_VERSION);
  yaml_str(f, c->name);
  fprintf(f, "\nvariant_key: ");
  yaml_str(f, s->variant_key);
  fprintf(f, "\nkernel: kernel.ttir\n");
  if (s->lowered) fprintf(f, "traced: kernel.fx\n");
  if (s->function) {
    fprintf(f, "function: ");
    yaml_str(f, s->function);
    fputc('\n', f);
  }
  fprintf(f, "grid: [%lld, %lld, %lld]\nconstexprs: ", (long long)s->grid[0], (long long)s->grid[1],
          (long long)s->grid[2]);
  yaml_str(f, s->constexprs);
  fprintf(f, "\nargs:\n");
  for (int i = 0; i < s->nargs; i++) {
    const conform_arg *a = &s->args[i];
    fprintf(f, "  - name: ");
    yaml_str(f, a->name);
    if (a->is_ptr) {
      fprintf(f, "\n    kind: ptr\n    dtype: %s\n    shape: ", conform_dtype_name(a->dtype));
      shape_list(f, a);
      fprintf(f, "\n    file: inputs/%s.npy\n    output: %s\n", a->name,
              conform_case_output(c, a->name) ? "true" : "false");
    } else {
      fprintf(f, "\n    kind: scalar\n    type: %s\n    value: ", a->ttir_type);
      yaml_str(f, a->value);
      fputc('\n', f);
    }
  }
  fprintf(f, "outputs:\n");
  for (int k = 0; k < c->noutputs; k++) {
    const conform_output *o = &c->outputs[k];
    for (int i = 0; i < s->nargs; i++) {
      const conform_arg *a = &s->args[i];
      if (strcmp(a->name, o->name) != 0) continue;
      fprintf(f, "  - name: ");
      yaml_str(f, o->name);
      fprintf(f, "\n    dtype: %s\n    shape: ", conform_dtype_name(a->dtype));
      shape_list(f, a);
      fprintf(f, "\n    file: outputs/%s.npy\n    mode: %s\n", o->name, cmp_mode_name(o->mode));
      if (o->unordered) fprintf(f, "    unordered: true\n");
    }
  }
  if (ferror(f)) FAIL(IR_ERR(err, TTREF_E_IO, none, "cannot write '%s': %s", path, strerror(errno)));
fail:
  if (f && fclose(f) != 0 && st == TTREF_OK)
    st = IR_ERR(err, TTREF_E_IO, none, "cannot write '%s': %s", path, strerror(errno));
  return st;
}

ttref_status conform_stage_case(const conform_case *c, const conform_spec *s, const char *dir, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  npy_array arr = {0};
  char path[4096];
  /* below DIR nothing is reached through a symbolic link (docs/security.md) */
  TRY(ir_fs_mkdirs_in(dir, "inputs", err));
  TRY(ir_fs_mkdirs_in(dir, "outputs", err));
  if (s->lowered) { /* a traced kernel: the trace as kernel.fx, its lowering as kernel.ttir */
    TRY(ir_fs_write_file_in(dir, "kernel.ttir", s->lowered, s->lowered_len, err));
    TRY(ir_fs_copy_file_in(s->kernel, dir, "kernel.fx", err));
  } else {
    TRY(ir_fs_copy_file_in(s->kernel, dir, "kernel.ttir", err));
  }
  TRY(write_case_yaml(c, s, dir, err));
  for (int i = 0; i < s->nargs; i++) {
    const conform_arg *a = &s->args[i];
    if (!a->is_ptr) continue;
    TRY(conform_gen_fill(&a->input, a->dtype, a->rank, a->shape, &arr, err));
    snprintf(path, sizeof path, "%s/inputs/%s.npy", dir, a->name);
    TRY(npy_write(path, &arr, err));
    npy_free(&arr);
  }
fail:
  npy_free(&arr);
  return st;
}

static ttref_status stage_ref(const conform_spec *s, const char *dir, const char *outdir, bool precise, bool ftz,
                              const char *inject_op, const char *mutant, double timeout_s, conform_exit *ex,
                              ttref_error *err)
{
  ttref_status st = TTREF_OK;
  ttref_loc none = {0};
  char exe[4096], kernel[4096], grid[96], log[4200];
  const char **argv = ir_calloc((size_t)s->nargs * 2 + 16, sizeof *argv);
  char **specs = ir_calloc((size_t)s->nargs + 1, sizeof *specs);
  int n = 0;
  if (!argv || !specs) FAIL(IR_ERR(err, TTREF_E_NOMEM, none, "out of memory"));
  if (!conform_stage_exe(exe, sizeof exe)) FAIL(IR_ERR(err, TTREF_E_IO, none, "cannot find the ttref executable"));
  snprintf(kernel, sizeof kernel, "%s/kernel.ttir", dir);
  snprintf(grid, sizeof grid, "%lld,%lld,%lld", (long long)s->grid[0], (long long)s->grid[1], (long long)s->grid[2]);
  snprintf(log, sizeof log, "%s.log", outdir);
  argv[n++] = exe;
  argv[n++] = "run";
  argv[n++] = kernel;
  argv[n++] = "--grid";
  argv[n++] = grid;
  if (s->function) {
    argv[n++] = "--kernel";
    argv[n++] = s->function;
  }
  for (int i = 0; i < s->nargs; i++) {
    const conform_arg *a = &s->args[i];
    size_t len = strlen(a->name) + strlen(dir) + (a->value ? strlen(a->value) : 0) + 32;
    specs[i] = ir_alloc(len);
    if (!specs[i]) FAIL(IR_ERR(err, TTREF_E_NOMEM, none, "out of memory"));
    if (a->is_ptr) snprintf(specs[i], len, "%s=@%s/inputs/%s.npy", a->name, dir, a->name);
    else snprintf(specs[i], len, "%s=%s", a->name, a->value);
    argv[n++] = "--arg";
    argv[n++] = specs[i];
  }
  argv[n++] = "--out";
  argv[n++] = outdir;
  if (precise) argv[n++] = "--precise";
  if (ftz) argv[n++] = "--ftz";
  if (inject_op) {
    argv[n++] = "--inject-fault";
    argv[n++] = inject_op;
  }
  if (mutant) {
    argv[n++] = "--mutant";
    argv[n++] = mutant;
  }
  argv[n] = NULL;
  conform_spawn sp = {argv, NULL, NULL, NULL, log, timeout_s};
  TRY(conform_sys_run(&sp, ex, err));
fail:
  if (specs)
    for (int i = 0; i < s->nargs; i++)
      if (specs[i])
        ir_free(specs[i],
                strlen(s->args[i].name) + strlen(dir) + (s->args[i].value ? strlen(s->args[i].value) : 0) + 32);
  ir_free(specs, sizeof *specs * ((size_t)s->nargs + 1));
  ir_free(argv, sizeof *argv * ((size_t)s->nargs * 2 + 16));
  return st;
}

ttref_status conform_stage_reference(const conform_spec *s, const char *dir, const char *outdir, bool precise, bool ftz,
                                     double timeout_s, conform_exit *ex, ttref_error *err)
{
  return stage_ref(s, dir, outdir, precise, ftz, NULL, NULL, timeout_s, ex, err);
}

ttref_status conform_stage_reference_inject(const conform_spec *s, const char *dir, const char *outdir,
                                            const char *inject_op, double timeout_s, conform_exit *ex, ttref_error *err)
{
  return stage_ref(s, dir, outdir, false, false, inject_op, NULL, timeout_s, ex, err);
}

ttref_status conform_stage_reference_mutant(const conform_spec *s, const char *dir, const char *outdir,
                                            const char *mutant, double timeout_s, conform_exit *ex, ttref_error *err)
{
  return stage_ref(s, dir, outdir, false, false, NULL, mutant, timeout_s, ex, err);
}
