/*
 * interp_fx.c: binds a TK trace's symbols and dtypes for `ttref run/fmt/check`,
 * lowers it to the core IR and checks the launch's .npy files against the
 * trace's buffer shapes, so mistakes are reported against the trace's names.
 */
#include "config.h"
#include "interp_fx.h"
#include "ir_base.h"
#include "ir_verify.h"
#include "npy_io.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool interp_fx_is(const char *path) { return path && ir_fx_sniff_file(path); }

static int push(const char ***v, int *n, const char *s)
{
  const char **nv = ir_realloc((void *)*v, sizeof *nv * (size_t)*n, sizeof *nv * (size_t)(*n + 1));
  if (!nv) return -1;
  nv[(*n)++] = s;
  *v = nv;
  return 0;
}

int interp_fx_option(int argc, char **argv, int *i, interp_fx_opts *o)
{
  const char *a = argv[*i];
  bool sym = !strcmp(a, "--sym"), dt = !strcmp(a, "--dtype"), oob = !strcmp(a, "--oob");
  if (!sym && !dt && !oob) return 0;
  if (*i + 1 >= argc) {
    fprintf(stderr, "error: %s needs a value\n", a);
    return -1;
  }
  const char *v = argv[++*i];
  o->any = true;
  if (oob) {
    if (!strcmp(v, "error")) o->oob = IR_FX_OOB_ERROR;
    else if (!strcmp(v, "zero")) o->oob = IR_FX_OOB_ZERO;
    else {
      fprintf(stderr, "error: --oob '%s': expected error or zero\n", v);
      return -1;
    }
    return 1;
  }
  const char *eq = strchr(v, '=');
  if (!eq || eq == v || !eq[1]) {
    fprintf(stderr, "error: %s '%s': expected %s\n", a, v, sym ? "NAME=INTEGER" : "BUFFER=DTYPE");
    return -1;
  }
  if (sym) {
    char *end;
    strtoll(eq + 1, &end, 0);
    if (*end) {
      fprintf(stderr, "error: --sym '%s': '%s' is not an integer\n", v, eq + 1);
      return -1;
    }
  }
  if (push(sym ? &o->syms : &o->dtypes, sym ? &o->nsyms : &o->ndtypes, v) != 0) return -1;
  return 1;
}

void interp_fx_opts_free(interp_fx_opts *o)
{
  ir_free((void *)o->syms, sizeof *o->syms * (size_t)o->nsyms);
  ir_free((void *)o->dtypes, sizeof *o->dtypes * (size_t)o->ndtypes);
  memset(o, 0, sizeof *o);
}

/* the .npy file a "NAME=@FILE" spec binds to buffer @p name, or NULL */
static const char *npy_of(const char *const *specs, int nspecs, const char *name)
{
  size_t n = strlen(name);
  for (int i = nspecs - 1; i >= 0; i--) {
    const char *s = specs[i];
    if (s[0] == '%') s++;
    if (!strncmp(s, name, n) && s[n] == '=' && s[n + 1] == '@') return s + n + 2;
  }
  return NULL;
}

static bool has_sym(const interp_fx_opts *o, const char *const *extra, int nextra, const char *name)
{
  size_t n = strlen(name);
  for (int i = 0; i < o->nsyms; i++)
    if (!strncmp(o->syms[i], name, n) && o->syms[i][n] == '=') return true;
  for (int i = 0; i < nextra; i++)
    if (!strncmp(extra[i], name, n) && extra[i][n] == '=') return true;
  return false;
}

/* the dtype a buffer's .npy must have: kind and size (bf16 travels as <u2 bits) */
static void npy_want(ir_scalar s, char *kind, int *size)
{
  *size = ir_scalar_bits(s) / 8;
  *kind = ir_scalar_is_float(s) ? 'f' : 'i';
  if (s == IR_S_BF16) *kind = 'u';
  if (s == IR_S_I1) *kind = 'b', *size = 1;
}

ttref_status interp_fx_load(const char *path, const interp_fx_opts *o, const char *const *specs, int nspecs,
                            ir_module **out, char **out_text, size_t *out_len, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  ir_fx *g = NULL;
  ir_module *m = NULL;
  npy_array arr = {0};
  const char **syms = NULL;
  char **owned = NULL;
  int nsyms = 0, nowned = 0;
  *out = NULL;
  if (out_text) *out_text = NULL;
  TRY(ir_fx_parse_file(path, &g, err));
  for (int i = 0; i < o->nsyms; i++)
    if (push(&syms, &nsyms, o->syms[i]) != 0) FAIL(ir_error_set(err, TTREF_E_NOMEM, (ttref_loc){0}, "out of memory"));
  /* symbols named by a buffer dim and not bound: the .npy file's size of that dim */
  const ir_fx_region *r = &g->regions[g->root];
  for (int i = 0; i < r->nnodes && specs; i++) {
    const ir_fx_node *nd = &r->nodes[i];
    if (nd->kind != IR_FX_N_PLACEHOLDER || !nd->dims) continue;
    const char *file = npy_of(specs, nspecs, nd->target);
    if (!file) continue;
    bool need = false;
    for (int d = 0; d < nd->dims->nitems; d++)
      need |= nd->dims->items[d]->kind == IR_FX_A_NAME &&
              !has_sym(o, syms + o->nsyms, nsyms - o->nsyms, nd->dims->items[d]->s);
    if (!need) continue;
    TRY(npy_read_map(file, &arr, err)); /* only the shape and dtype are used: no copy of large data */
    if (arr.rank != nd->dims->nitems)
      FAIL(ir_error_set(err, TTREF_E_INPUT, (ttref_loc){g->filename, nd->line, nd->col},
                        "%s: %s has rank %d, but buffer %s has rank %d", nd->target, file, arr.rank, nd->target,
                        nd->dims->nitems));
    for (int d = 0; d < nd->dims->nitems; d++) {
      const ir_fx_arg *a = nd->dims->items[d];
      if (a->kind != IR_FX_A_NAME || has_sym(o, syms + o->nsyms, nsyms - o->nsyms, a->s)) continue;
      char buf[300];
      snprintf(buf, sizeof buf, "%s=%" PRId64, a->s, arr.shape[d]);
      char *s = ir_strdup(buf);
      char **no = s ? ir_realloc(owned, sizeof *no * (size_t)nowned, sizeof *no * (size_t)(nowned + 1)) : NULL;
      if (!no) {
        if (s) ir_free(s, strlen(s) + 1);
        FAIL(ir_error_set(err, TTREF_E_NOMEM, (ttref_loc){0}, "out of memory"));
      }
      owned = no;
      owned[nowned++] = s;
      if (push(&syms, &nsyms, s) != 0) FAIL(ir_error_set(err, TTREF_E_NOMEM, (ttref_loc){0}, "out of memory"));
    }
    npy_free(&arr);
  }
  ir_fx_bind b = {syms, nsyms, o->dtypes, o->ndtypes, o->oob};
  TRY(ir_fx_load_file(path, &b, &m, out_text, out_len, err));
  TRY(ir_verify_module(m, err));
  /* every bound .npy must have its buffer's shape and dtype */
  const ir_func *fn = ir_module_entry(m);
  for (int i = 0, k = 0; i < r->nnodes && specs && fn; i++) {
    const ir_fx_node *nd = &r->nodes[i];
    if (nd->kind != IR_FX_N_PLACEHOLDER) continue;
    const ir_type *pt = k < fn->nargs ? fn->args[k].type : NULL;
    k++;
    const char *file = npy_of(specs, nspecs, nd->target);
    if (!file || !pt || pt->kind != IR_T_PTR || !nd->dims) continue;
    TRY(npy_read_map(file, &arr, err)); /* only the shape and dtype are used: no copy of large data */
    int64_t want[IR_MAX_RANK];
    bool same = arr.rank == nd->dims->nitems;
    for (int d = 0; d < nd->dims->nitems && d < IR_MAX_RANK; d++) {
      const ir_fx_arg *a = nd->dims->items[d];
      want[d] = -1;
      if (a->kind == IR_FX_A_INT) want[d] = a->i;
      for (int q = 0; a->kind == IR_FX_A_NAME && q < nsyms; q++) {
        size_t n = strlen(a->s);
        if (!strncmp(syms[q], a->s, n) && syms[q][n] == '=') want[d] = strtoll(syms[q] + n + 1, NULL, 0);
      }
      if (same && want[d] >= 0 && want[d] != arr.shape[d]) same = false;
    }
    if (!same) {
      char got[160] = "", exp[160] = "";
      size_t gp = 0, ep = 0;
      for (int d = 0; d < arr.rank; d++)
        gp += (size_t)snprintf(got + gp, sizeof got - gp, "%s%" PRId64, d ? ", " : "", arr.shape[d]);
      for (int d = 0; d < nd->dims->nitems && d < IR_MAX_RANK; d++) {
        const ir_fx_arg *a = nd->dims->items[d];
        if (want[d] >= 0)
          ep += (size_t)snprintf(exp + ep, ep < sizeof exp ? sizeof exp - ep : 0, "%s%" PRId64, d ? ", " : "", want[d]);
        else ep += (size_t)snprintf(exp + ep, ep < sizeof exp ? sizeof exp - ep : 0, "%s?", d ? ", " : "");
        (void)a;
      }
      FAIL(ir_error_set(err, TTREF_E_INPUT, (ttref_loc){g->filename, nd->line, nd->col},
                        "buffer %s: %s has shape (%s), but the trace's buffer is (%s)", nd->target, file, got, exp));
    }
    char kind;
    int size;
    npy_want(pt->elem->scalar, &kind, &size);
    bool kind_ok = arr.kind == kind || (kind == 'i' && arr.kind == 'u') || (kind == 'u' && arr.kind == 'i');
    if (!kind_ok || arr.elsize != size) {
      char descr[8];
      FAIL(ir_error_set(err, TTREF_E_INPUT, (ttref_loc){g->filename, nd->line, nd->col},
                        "buffer %s is %s, but %s holds %s (give --dtype %s=DTYPE or .of(DTYPE) in the trace)",
                        nd->target, ir_scalar_name(pt->elem->scalar), file, npy_descr(&arr, descr), nd->target));
    }
    npy_free(&arr);
  }
  *out = m;
  m = NULL;
fail:
  npy_free(&arr);
  ir_module_free(m);
  ir_fx_free(g);
  for (int i = 0; i < nowned; i++) ir_free(owned[i], strlen(owned[i]) + 1);
  ir_free(owned, sizeof *owned * (size_t)nowned);
  ir_free((void *)syms, sizeof *syms * (size_t)nsyms);
  if (st != TTREF_OK && out_text && *out_text) {
    ir_free(*out_text, *out_len + 1);
    *out_text = NULL;
  }
  return st;
}

ttref_status interp_fx_check_syntax(const char *path, ttref_error *err)
{
  ir_fx *g = NULL;
  ttref_status st = ir_fx_parse_file(path, &g, err);
  ir_fx_free(g);
  return st;
}
