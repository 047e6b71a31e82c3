/*
 * ttref_compare.c: the judging half of the public API (ttref.h): one output
 * buffer against its reference, through the harness's own judge
 * (conform_judge_output), so a wrapper test decides exactly as `ttref conform`.
 */
#include "config.h"
#include "ttref.h"
#include "conform_judge.h"
#include "conform_localize.h"
#include "conform_mutant.h"
#include "interp_api.h"
#include "ir_parse.h"
#include "ir_print.h"

#include <stdio.h>

#include <string.h>

#define MAX_OPTIONS 16

static const ttref_loc noloc = {0};

/* Split "a=1,b=true" (copied into @p buf) into @p opts; every name and value is checked against @p mode. */
static ttref_status parse_options(cmp_mode mode, const char *text, char *buf, size_t cap, conform_option *opts,
                                  int *nopts, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  *nopts = 0;
  if (!text || !*text) return TTREF_OK;
  if (strlen(text) >= cap) FAIL(ir_error_set(err, TTREF_E_INPUT, noloc, "ttref_compare: options too long"));
  memcpy(buf, text, strlen(text) + 1);
  for (char *p = buf; p && *p;) {
    char *comma = strchr(p, ','), *eq;
    if (comma) *comma = 0;
    while (*p == ' ') p++;
    eq = strchr(p, '=');
    if (!eq || eq == p)
      FAIL(ir_error_set(err, TTREF_E_INPUT, noloc, "ttref_compare: option '%.100s' must be NAME=VALUE", p));
    if (*nopts == MAX_OPTIONS)
      FAIL(ir_error_set(err, TTREF_E_INPUT, noloc, "ttref_compare: more than %d options", MAX_OPTIONS));
    *eq = 0;
    char why[160];
    if (!conform_judge_option_ok(mode, p, eq + 1, why, sizeof why))
      FAIL(ir_error_set(err, TTREF_E_INPUT, noloc, "ttref_compare: %s", why));
    opts[*nopts].name = p;
    opts[*nopts].text = eq + 1;
    (*nopts)++;
    p = comma ? comma + 1 : NULL;
  }
fail:
  return st;
}

static npy_array view(const void *data, size_t numel, char kind, int elsize)
{
  npy_array a;
  memset(&a, 0, sizeof a);
  a.kind = kind;
  a.elsize = elsize;
  a.rank = 1;
  a.shape[0] = (int64_t)numel;
  a.numel = (int64_t)numel;
  a.data = (void *)data; /* read only: the judge takes const arrays */
  a.nbytes = numel * (size_t)elsize;
  return a;
}

ttref_status ttref_compare(const char *mode, const char *dtype, const void *got, const void *ref, size_t numel,
                           const double *precise, const double *bound, const char *options, ttref_verdict *out,
                           ttref_error *err)
{
  ttref_status st = TTREF_OK;
  conform_option opts[MAX_OPTIONS];
  char buf[1024];
  conform_dtype dt;
  conform_judgement j;
  if (!mode || !dtype || !out || ((!got || !ref) && numel))
    FAIL(ir_error_set(err, TTREF_E_USAGE, noloc, "ttref_compare: %s is NULL",
                      !mode    ? "mode"
                      : !dtype ? "dtype"
                      : !out   ? "out"
                      : !got   ? "got"
                               : "ref"));
  memset(out, 0, sizeof *out);
  out->worst_index = -1;
  cmp_mode m;
  if (!cmp_mode_lookup(mode, &m))
    FAIL(ir_error_set(err, TTREF_E_INPUT, noloc, "ttref_compare: unknown compliance mode '%.60s'", mode));
  if (!conform_dtype_lookup(dtype, &dt))
    FAIL(ir_error_set(err, TTREF_E_INPUT, noloc, "ttref_compare: unknown dtype '%.60s'", dtype));
  if (numel > ((size_t)1 << 40))
    FAIL(ir_error_set(err, TTREF_E_LIMIT, noloc, "ttref_compare: %zu elements is too many", numel));
  int nopts = 0;
  TRY(parse_options(m, options, buf, sizeof buf, opts, &nopts, err));
  conform_output o = {.name = "output", .mode = m, .options = opts, .noptions = nopts, .loc = noloc};
  const char kind = conform_dtype_kind(dt);
  const int esz = conform_dtype_bytes(dt);
  npy_array g = view(got, numel, kind, esz), r = view(ref, numel, kind, esz);
  npy_array p = view(precise, precise ? numel : 0, 'f', 8), b = view(bound, bound ? numel : 0, 'f', 8);
  TRY(conform_judge_output(&o, dt, &g, &r, precise ? &p : NULL, bound ? &b : NULL, false, &j, err));
  out->pass = j.pass;
  out->quality_warning = j.quality_warning;
  out->worst_index = j.worst_index;
  out->worst_got = j.worst_got;
  out->worst_ref = j.worst_ref;
  out->worst_bound = j.worst_bound;
  out->worst_err = j.worst_err;
  out->max_ratio = j.max_ratio;
  out->mean_ulp = j.mean_ulp;
  out->max_ulp = j.max_ulp;
  memcpy(out->reason, j.reason, sizeof out->reason);
fail:
  return st;
}

ttref_status ttref_kernel_mutate(ttref_kernel *k, const char *mutant, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  conform_mutant_opts mo;
  int id, sites;
  if (!k) FAIL(ir_error_set(err, TTREF_E_USAGE, noloc, "ttref_kernel_mutate: kernel is NULL"));
  if (!mutant) FAIL(ir_error_set(err, TTREF_E_USAGE, noloc, "ttref_kernel_mutate: mutant is NULL"));
  if (!conform_mutant_lookup(mutant, &id))
    FAIL(ir_error_set(err, TTREF_E_INPUT, noloc, "--mutant: unknown mutant '%.100s' (see ttref conform --list-mutants)",
                      mutant));
  TRY(conform_mutant_apply(k->mod, id, true, &mo, &sites, err));
  k->mut_ftz |= mo.ftz;
  k->mut_contract |= mo.contract;
fail:
  return st;
}

ttref_status ttref_print(const char *path, const ttref_registry *reg, const ttref_fx_options *fx, unsigned flags,
                         const char *out_path, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  ir_module *m = NULL;
  FILE *f = NULL;
  interp_fx_opts o;
  int nprobes = 0;
  if (!path) FAIL(ir_error_set(err, TTREF_E_USAGE, noloc, "ttref_print: path is NULL"));
  if (!interp_api_fx_opts("ttref_print", fx, &o, err)) FAIL(TTREF_E_USAGE);
  TRY(interp_fx_is(path) ? interp_fx_load(path, &o, NULL, 0, &m, NULL, NULL, err)
                         : ir_parse_file_ex(path, reg, &m, err));
  f = out_path ? fopen(out_path, "w") : stdout;
  if (!f) FAIL(ir_error_set(err, TTREF_E_IO, noloc, "cannot write '%s'", out_path));
  const ir_func *fn = (flags & TTREF_PRINT_PROBES) ? ir_module_entry(m) : NULL;
  if ((flags & TTREF_PRINT_PROBES) && !fn)
    FAIL(ir_error_set(err, TTREF_E_INPUT, (ttref_loc){path, 0, 0}, "%s: no function to probe", path));
  if (fn) TRY(conform_localize_print_all(m, fn, f, &nprobes, err));
  else TRY(ir_print_module(m, f, err));
fail:
  if (f && out_path) {
    const bool bad = fclose(f) != 0;
    if (bad && st == TTREF_OK) st = ir_error_set(err, TTREF_E_IO, noloc, "cannot write '%s'", out_path);
  }
  ir_module_free(m);
  return st;
}
