/*
 * conform_run.c: the runner. The parent owns the journal and the progress
 * display; N forked workers each take item indices from a pipe, process an
 * item end to end (stage, reference, backend, judge, expectation) and answer
 * with one JSON record line. A worker that dies costs its item an ERROR
 * verdict and is replaced.
 */
#define _GNU_SOURCE /* fdopen, realpath, kill, pipe under -std=c11 */
#include "config.h"
#include "conform_run.h"
#include "conform_backend.h"
#include "conform_golden.h"
#include "conform_journal.h"
#include "conform_judge.h"
#include "conform_sha256.h"
#include "conform_localize.h"
#include "conform_mutant.h"
#include "ir_parse.h"
#include "conform_report.h"
#include "conform_stage.h"
#include "conform_sys.h"
#include "ir_base_fs.h"

#include <errno.h>
#include <math.h>
#include <poll.h>
#include <regex.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

typedef struct item {
  const conform_case *c;
  const conform_spec *s;
} item;

typedef struct ctx {
  const conform_run_opts *o;
  conform_suite *suite;
  conform_config *cfg;
  conform_backend backend;
  item *items;
  int nitems;
  int mut_ids[CONFORM_MUTANT_COUNT + 1]; /* --mutants, in report order */
  int nmut;
  char cfg_sha[65]; /* sha256 of the --config file, "" without one */
} ctx;

void conform_run_describe(const conform_case *c, const conform_spec *s, conform_record *r)
{
  conform_case_id(c, s, r->id, sizeof r->id);
  snprintf(r->case_name, sizeof r->case_name, "%s", c->name);
  snprintf(r->variant, sizeof r->variant, "%s", s->variant_key);
  snprintf(r->op, sizeof r->op, "%s", c->op);
  snprintf(r->dtype, sizeof r->dtype, "%s", c->ndtypes ? conform_dtype_name(c->dtypes[0]) : "");
  snprintf(r->kernel, sizeof r->kernel, "%s", s->kernel_rel);
  snprintf(r->constexprs, sizeof r->constexprs, "%s", s->constexprs);
  size_t pos = 0;
  r->tags[0] = 0;
  for (int t = 0; t < c->ntags && pos < sizeof r->tags; t++)
    pos += (size_t)snprintf(r->tags + pos, sizeof r->tags - pos, "%s%s", t ? "," : "", c->tags[t]);
}

/* An error's text without ir_error_set's "error: " (it is embedded in a reason). */
static const char *bare(const char *msg) { return strncmp(msg, "error: ", 7) == 0 ? msg + 7 : msg; }

/* Write @p in to @p out (size @p n) with every @p from replaced by @p to (absolute report paths shown as given). */
static void replace_all(const char *in, const char *from, const char *to, char *out, size_t n)
{
  size_t fl = strlen(from), pos = 0;
  while (*in && pos + 1 < n) {
    if (fl && strncmp(in, from, fl) == 0) {
      pos += (size_t)snprintf(out + pos, n - pos, "%s", to);
      in += fl;
    } else {
      out[pos++] = *in++;
    }
  }
  out[pos < n ? pos : n - 1] = 0;
}

/* @p s with "DIR/" removed and "DIR" made ".": paths below the report directory as reports show them */
static void strip_dir(char *s, size_t n, const char *dir)
{
  char tmp[1100], slash[4200];
  if (n > sizeof tmp || !dir[0]) return;
  snprintf(slash, sizeof slash, "%s/", dir);
  replace_all(s, slash, "", tmp, n);
  replace_all(tmp, dir, ".", s, n);
}

/*
 * Python source locations carried by a kernel's loc(...) info name the
 * machine that compiled it ("/home/me/proj/gen.py:633:31"): reports show the
 * file name only ("gen.py:633:31"), never that machine's directories.
 */
static void strip_py_dirs(char *s)
{
  for (char *p = strstr(s, ".py:"); p; p = strstr(p + 4, ".py:")) {
    char *start = p;
    while (start > s && start[-1] != ' ' && start[-1] != '(' && start[-1] != '"' && start[-1] != '\'') start--;
    if (*start != '/') continue;
    char *last = start;
    for (char *q = start; q < p; q++)
      if (*q == '/') last = q;
    memmove(start, last + 1, strlen(last + 1) + 1);
    p = start;
  }
}

static void nd_index(const npy_array *a, int64_t i, char *buf, size_t n)
{
  size_t pos = (size_t)snprintf(buf, n, "[");
  int64_t idx[NPY_MAX_RANK];
  for (int d = a->rank - 1; d >= 0; d--) {
    idx[d] = a->shape[d] ? i % a->shape[d] : 0;
    i = a->shape[d] ? i / a->shape[d] : 0;
  }
  for (int d = 0; d < a->rank && pos < n; d++)
    pos += (size_t)snprintf(buf + pos, n - pos, "%s%lld", d ? "," : "", (long long)idx[d]);
  if (pos < n) snprintf(buf + pos, n - pos, "]");
}

static bool same_layout(const npy_array *a, const npy_array *b)
{
  if (a->kind != b->kind || a->elsize != b->elsize || a->rank != b->rank) return false;
  for (int d = 0; d < a->rank; d++)
    if (a->shape[d] != b->shape[d]) return false;
  return true;
}

static void layout_str(const npy_array *a, char *buf, size_t n)
{
  char d[8];
  size_t pos = (size_t)snprintf(buf, n, "%s (", npy_descr(a, d));
  for (int k = 0; k < a->rank && pos < n; k++)
    pos += (size_t)snprintf(buf + pos, n - pos, "%s%lld", k ? "," : "", (long long)a->shape[k]);
  if (pos < n) snprintf(buf + pos, n - pos, ")");
}

/* Judge every output of a run whose backend said ok; fills the worst-element fields. */
static conform_verdict judge_all(const ctx *x, const item *it, const char *dir, const char *refdir, const char *ftzdir,
                                 conform_record *r)
{
  conform_verdict v = CONFORM_V_PASS;
  double worst = -1;
  bool worst_failed = false;
  for (int k = 0; k < it->c->noutputs; k++) {
    const conform_output *o = &it->c->outputs[k];
    const conform_arg *a = NULL;
    npy_array got = {0}, ref = {0}, pre = {0}, bnd = {0}, fz = {0};
    ttref_error err = {0};
    conform_judgement j;
    char path[4400], rel[400];
    for (int i = 0; i < it->s->nargs; i++)
      if (strcmp(it->s->args[i].name, o->name) == 0) a = &it->s->args[i];
    snprintf(path, sizeof path, "%s/%s.npy", refdir, o->name);
    if (npy_read_bounded(path, NULL, SIZE_MAX, &ref, &err) != TTREF_OK) {
      snprintf(r->reason, sizeof r->reason, "reference output %s: %.300s", o->name, err.msg);
      v = CONFORM_V_ERROR;
      goto next;
    }
    snprintf(path, sizeof path, "%s/outputs/%s.npy", dir, o->name);
    if (!ir_fs_exists(path)) {
      snprintf(r->reason, sizeof r->reason, "the backend wrote no outputs/%s.npy", o->name);
      v = CONFORM_V_ERROR;
      goto next;
    }
    snprintf(rel, sizeof rel, "outputs/%s.npy", o->name);
    /* a regular file only (a FIFO or a symlink to /dev/stdin would block), no bigger than the reference */
    ttref_status rs = npy_read_bounded(path, rel, ref.nbytes, &got, &err);
    if (rs == TTREF_E_INPUT) {
      snprintf(r->reason, sizeof r->reason, "outputs/%s.npy is malformed: %.300s", o->name, err.msg);
      v = CONFORM_V_ERROR;
      goto next;
    } else if (rs != TTREF_OK) {
      snprintf(r->reason, sizeof r->reason, "%.300s", bare(err.msg));
      v = CONFORM_V_ERROR;
      goto next;
    }
    if (!same_layout(&got, &ref)) {
      char g[96], e[96];
      layout_str(&got, g, sizeof g);
      layout_str(&ref, e, sizeof e);
      snprintf(r->reason, sizeof r->reason, "outputs/%s.npy is %s, expected %s", o->name, g, e);
      v = CONFORM_V_ERROR;
      goto next;
    }
    conform_judge_read_precise(refdir, o->name, &pre, &bnd);
    if (ftzdir) { /* the reference with subnormals flushed: what an FTZ backend computes from flushed inputs */
      snprintf(path, sizeof path, "%s/%s.npy", ftzdir, o->name);
      if (npy_read_bounded(path, NULL, SIZE_MAX, &fz, &err) != TTREF_OK) {
        snprintf(r->reason, sizeof r->reason, "flushed reference output %s: %.300s", o->name, err.msg);
        v = CONFORM_V_ERROR;
        goto next;
      }
    }
    if (conform_judge_output_ftz(o, a ? a->dtype : CONFORM_DT_U8, &got, &ref, pre.data ? &pre : NULL,
                                 bnd.data ? &bnd : NULL, x->cfg->ftz, fz.data ? &fz : NULL, &j, &err) != TTREF_OK) {
      snprintf(r->reason, sizeof r->reason, "judging %s: %.300s", o->name, err.msg);
      v = CONFORM_V_ERROR;
      goto next;
    }
    for (int b = 0; b < CONFORM_HIST_BINS; b++) r->hist[b] += j.hist[b];
    {
      double score = j.max_ratio;
      bool failed = !j.pass;
      if (isnan(score)) score = 0;
      if ((failed && !worst_failed) || (failed == worst_failed && score > worst)) {
        worst = score;
        worst_failed = failed;
        snprintf(r->mode, sizeof r->mode, "%s", cmp_mode_name(o->mode));
        snprintf(r->output, sizeof r->output, "%s", o->name);
        r->worst_index = j.worst_index;
        if (j.worst_index >= 0) nd_index(&got, j.worst_index, r->worst_at, sizeof r->worst_at);
        else r->worst_at[0] = 0;
        r->worst_got = j.worst_got;
        r->worst_ref = j.worst_ref;
        r->worst_bound = j.worst_bound;
        r->worst_err = j.worst_err;
        r->max_ratio = j.max_ratio;
        r->mean_ulp = j.mean_ulp;
        r->max_ulp = j.max_ulp;
        r->p99_ulp = j.p99_ulp;
        if (failed) snprintf(r->reason, sizeof r->reason, "%s: %s", o->name, j.reason);
      }
      if (v != CONFORM_V_ERROR) {
        if (failed) v = CONFORM_V_FAIL;
        else if (j.quality_warning && v == CONFORM_V_PASS) v = CONFORM_V_QUALITY_WARNING;
      }
    }
  next:
    npy_free(&got);
    npy_free(&ref);
    npy_free(&pre);
    npy_free(&bnd);
    npy_free(&fz);
    if (v == CONFORM_V_ERROR) break;
  }
  if (!r->mode[0] && it->c->noutputs) {
    snprintf(r->mode, sizeof r->mode, "%s", cmp_mode_name(it->c->outputs[0].mode));
    snprintf(r->output, sizeof r->output, "%s", it->c->outputs[0].name);
  }
  return v;
}

static double item_timeout(const ctx *x, const item *it)
{
  if (it->c->timeout > 0) return it->c->timeout;
  if (x->cfg->timeout > 0) return x->cfg->timeout;
  return x->o->timeout > 0 ? x->o->timeout : 60;
}

/* --mutants: run one mutant of the reference on the staged item within @p limit seconds; a CONFORM_MUT_* code. */
static char run_mutant(const ctx *x, const item *it, const char *dir, const char *refdir, int mutant, double limit)
{
  char out[4200], path[4400];
  conform_exit ex;
  conform_record tmp;
  ttref_error err = {0};
  bool changed = false;
  snprintf(out, sizeof out, "%s/outputs", dir);
  if (ir_fs_rmtree_in(dir, "outputs", &err) != TTREF_OK || ir_fs_mkdirs_in(dir, "outputs", &err) != TTREF_OK ||
      conform_stage_reference_mutant(it->s, dir, out, conform_mutant_name(mutant), limit, &ex, &err) != TTREF_OK)
    return CONFORM_MUT_CAUGHT; /* the harness could not run it: an ERROR verdict */
  if (ex.kind != CONFORM_EXITED || ex.code != 0) return CONFORM_MUT_CAUGHT; /* ERROR, CRASH or TIMEOUT */
  for (int k = 0; k < it->c->noutputs && !changed; k++) {
    npy_array got = {0}, ref = {0};
    snprintf(path, sizeof path, "%s/%s.npy", out, it->c->outputs[k].name);
    bool ok = npy_read(path, &got, &err) == TTREF_OK;
    snprintf(path, sizeof path, "%s/%s.npy", refdir, it->c->outputs[k].name);
    ok = npy_read(path, &ref, &err) == TTREF_OK && ok;
    changed = !ok || got.nbytes != ref.nbytes || memcmp(got.data, ref.data, got.nbytes) != 0;
    npy_free(&got);
    npy_free(&ref);
  }
  conform_record_init(&tmp);
  conform_verdict v = judge_all(x, it, dir, refdir, NULL, &tmp);
  if (v != CONFORM_V_PASS && v != CONFORM_V_QUALITY_WARNING) return CONFORM_MUT_CAUGHT;
  return changed ? CONFORM_MUT_CHANGED : CONFORM_MUT_SAME;
}

/*
 * --mutants: every mutant of the run on one item whose reference passed; codes into r->mutants.
 * A mutant may turn a loop infinite (a bound off by one): it gets 20 times the reference's time
 * (@p ref_seconds; 0: unknown, stored goldens), at least 5 s and at most the item's time limit.
 */
static void run_mutants(const ctx *x, const item *it, const char *dir, const char *refdir, double ref_seconds,
                        conform_record *r)
{
  double limit = item_timeout(x, it);
  if (ref_seconds > 0 && 20 * ref_seconds + 5 < limit) limit = 20 * ref_seconds + 5;
  ir_module *m = NULL;
  ttref_error err = {0};
  char kpath[4200];
  snprintf(kpath, sizeof kpath, "%s/kernel.ttir", dir);
  bool parsed = ir_parse_file(kpath, &m, &err) == TTREF_OK;
  for (int p = 0; p < x->nmut && p + 1 < (int)sizeof r->mutants; p++) {
    conform_mutant_opts mo;
    int sites = 1; /* a kernel we cannot parse here: run the mutant and let the verdict tell */
    if (parsed && conform_mutant_apply(m, x->mut_ids[p], false, &mo, &sites, &err) != TTREF_OK) sites = 1;
    r->mutants[p] = sites > 0 ? run_mutant(x, it, dir, refdir, x->mut_ids[p], limit) : CONFORM_MUT_NOT_APPLIED;
    r->mutants[p + 1] = 0;
  }
  ir_module_free(m);
}

/*
 * The largest file a run of the item writes: an output has its input's dtype
 * and shape (the staged input's size), and --precise writes binary64 values
 * and bounds (8 bytes per element).
 */
static size_t output_bytes(const item *it, const char *dir)
{
  size_t most = 0;
  for (int k = 0; k < it->c->noutputs; k++) {
    char path[4400];
    struct stat sb;
    snprintf(path, sizeof path, "%s/inputs/%s.npy", dir, it->c->outputs[k].name);
    if (stat(path, &sb) == 0 && (size_t)sb.st_size > most) most = (size_t)sb.st_size;
    for (int i = 0; i < it->s->nargs; i++) {
      const conform_arg *a = &it->s->args[i];
      if (!a->is_ptr || strcmp(a->name, it->c->outputs[k].name) != 0) continue;
      double n = 8;
      for (int d = 0; d < a->rank; d++) n *= (double)a->shape[d];
      if (n < 1e15 && (size_t)n > most) most = (size_t)n;
    }
  }
  return most + 4096;
}

/*
 * Whether a failure seen in @p dir may be the disk's: the disk must take a
 * file of the item's output size, else the failure is the harness's (message
 * into @p why) and no verdict is recorded.
 */
static bool disk_failed(const item *it, const char *dir, const char *what, char *why, size_t n)
{
  ttref_error e = {0};
  if (ir_fs_space_probe(dir, output_bytes(it, dir), &e) == TTREF_OK) return false;
  snprintf(why, n, "%s, and the disk cannot take the outputs: %.300s", what, bare(e.msg));
  return true;
}

/*
 * Process one item end to end (in a worker). @return false when the harness
 * itself failed (no space, no fork): then r->reason says why and no verdict
 * may be recorded.
 */
static bool process(ctx *x, const item *it, conform_record *r)
{
  const double t0 = ir_fs_now();
  char dir[4096], refdir[4200], ftzdir[4200], why[256], rel[600];
  ttref_error err = {0};
  conform_verdict raw;
  double ref_seconds = 0; /* the reference run's wall time (0: stored goldens) */
  conform_record_init(r);
  conform_run_describe(it->c, it->s, r);
  const conform_expect *skip = conform_config_match(x->cfg->skip, x->cfg->nskip, r->id, r->case_name);
  if (skip) {
    raw = CONFORM_V_SKIP;
    snprintf(r->reason, sizeof r->reason, "skipped by the backend config: %s", skip->reason);
    goto decide;
  }
  if (!conform_config_supports(x->cfg, it->c, why, sizeof why)) {
    raw = CONFORM_V_SKIP;
    snprintf(r->reason, sizeof r->reason, "%s", why);
    goto decide;
  }
  /* names are single safe components (conform_suite); the walk below never follows a link */
  snprintf(rel, sizeof rel, "work/%s/%s", it->c->name, it->s->variant_key);
  snprintf(dir, sizeof dir, "%s/%s", x->o->report_dir, rel);
  if (ir_fs_rmtree_in(x->o->report_dir, rel, &err) != TTREF_OK ||
      ir_fs_mkdirs_in(x->o->report_dir, rel, &err) != TTREF_OK ||
      conform_stage_case(it->c, it->s, dir, &err) != TTREF_OK) {
    /* the disk's or the machine's fault (probed in the report directory itself, never through the
       case directory, which may be a link an adapter left) is the harness's, not the case's */
    if (err.code == TTREF_E_NOMEM || (err.code == TTREF_E_IO && disk_failed(it, x->o->report_dir, "staging the case",
                                                                            r->reason, sizeof r->reason))) {
      if (err.code == TTREF_E_NOMEM) snprintf(r->reason, sizeof r->reason, "staging the case: %.400s", bare(err.msg));
      return false;
    }
    raw = CONFORM_V_ERROR;
    snprintf(r->reason, sizeof r->reason, "staging the case: %.300s", err.msg);
    goto decide;
  }
  if (x->o->golden_dir) {
    snprintf(refdir, sizeof refdir, "%s/%s/%s", x->o->golden_dir, it->c->name, it->s->variant_key);
  } else {
    conform_exit ex;
    snprintf(refdir, sizeof refdir, "%s/ref", dir);
    double limit = item_timeout(x, it) * 4 < 120 ? 120 : item_timeout(x, it) * 4;
    if (conform_stage_reference(it->s, dir, refdir, conform_judge_case_wants_precise(it->c), false, limit, &ex, &err) !=
            TTREF_OK ||
        ex.kind != CONFORM_EXITED || ex.code != 0) {
      if (err.msg[0] || disk_failed(it, dir, "the reference run failed", r->reason, sizeof r->reason)) {
        if (err.msg[0]) snprintf(r->reason, sizeof r->reason, "running the reference: %.400s", bare(err.msg));
        return false;
      }
      raw = CONFORM_V_ERROR;
      snprintf(r->reason, sizeof r->reason, "the reference run failed (%.200s); see %.200s.log",
               err.msg[0]                     ? err.msg
               : ex.kind == CONFORM_TIMED_OUT ? "timeout"
                                              : "nonzero exit",
               refdir);
      goto decide;
    }
    ref_seconds = ex.seconds;
  }
  if (x->cfg->ftz) { /* `ftz: true`: also judge against the reference run with subnormals flushed */
    conform_exit ex;
    double limit = item_timeout(x, it) * 4 < 120 ? 120 : item_timeout(x, it) * 4;
    snprintf(ftzdir, sizeof ftzdir, "%s/ref_ftz", dir);
    if (conform_stage_reference(it->s, dir, ftzdir, false, true, limit, &ex, &err) != TTREF_OK ||
        ex.kind != CONFORM_EXITED || ex.code != 0) {
      if (err.msg[0]) {
        snprintf(r->reason, sizeof r->reason, "running the flushed reference: %.400s", bare(err.msg));
        return false;
      }
      raw = CONFORM_V_ERROR;
      snprintf(r->reason, sizeof r->reason, "the flushed (--ftz) reference run failed; see work/%s/%s/ref_ftz.log",
               it->c->name, it->s->variant_key);
      goto decide;
    }
  }
  conform_backend_result br;
  if (conform_backend_run(&x->backend, it->c, it->s, dir, item_timeout(x, it), &br, &err) != TTREF_OK) {
    snprintf(r->reason, sizeof r->reason, "running the backend: %.400s", bare(err.msg));
    if (err.code == TTREF_E_IO || err.code == TTREF_E_NOMEM) return false; /* fork, pipe or memory: the harness's */
    raw = CONFORM_V_ERROR;
    goto decide;
  }
  if ((br.raw == CONFORM_V_ERROR || br.raw == CONFORM_V_CRASH) &&
      disk_failed(it, dir, "the backend failed", r->reason, sizeof r->reason))
    return false;
  if (br.raw != CONFORM_V_PASS) {
    raw = br.raw;
    snprintf(r->reason, sizeof r->reason, "%.200s (log: %.300s)", br.detail, br.log);
    if (it->c->noutputs) {
      snprintf(r->mode, sizeof r->mode, "%s", cmp_mode_name(it->c->outputs[0].mode));
      snprintf(r->output, sizeof r->output, "%s", it->c->outputs[0].name);
    }
    goto decide;
  }
  raw = judge_all(x, it, dir, refdir, x->cfg->ftz ? ftzdir : NULL, r);
  if (raw == CONFORM_V_ERROR && disk_failed(it, dir, "an output could not be judged", why, sizeof why)) {
    snprintf(r->reason, sizeof r->reason, "%s", why);
    return false;
  }
  if (x->nmut && (raw == CONFORM_V_PASS || raw == CONFORM_V_QUALITY_WARNING))
    run_mutants(x, it, dir, refdir, ref_seconds, r);
  if (raw == CONFORM_V_FAIL && x->o->localize) {
    err = (ttref_error){0};
    if (conform_localize(&x->backend, it->c, it->s, dir, item_timeout(x, it), x->cfg->ftz, r, &err) != TTREF_OK)
      snprintf(r->localized, sizeof r->localized, "not localised: %.600s", err.msg);
  }
decide:;
  strip_dir(r->reason, sizeof r->reason,
            x->o->report_dir); /* "see work/CASE/VARIANT/ref.log", not this machine's path */
  strip_dir(r->localized, sizeof r->localized, x->o->report_dir);
  if (x->suite->dir[0] == '/') { /* kernel paths relative to the suite: "kernels/softmax_f32.ttir:32:5" */
    strip_dir(r->reason, sizeof r->reason, x->suite->dir);
    strip_dir(r->localized, sizeof r->localized, x->suite->dir);
    strip_dir(r->localized_at, sizeof r->localized_at, x->suite->dir);
  }
  strip_py_dirs(r->reason);
  strip_py_dirs(r->localized);
  strip_py_dirs(r->localized_at);
  const conform_expect *xf = conform_config_match(x->cfg->xfail, x->cfg->nxfail, r->id, r->case_name);
  r->raw = raw;
  r->verdict = conform_verdict_decide(raw, xf != NULL, xf ? xf->verdict : -1);
  if (xf) snprintf(r->expected_reason, sizeof r->expected_reason, "%s", xf->reason);
  if (r->verdict == CONFORM_V_XPASS)
    snprintf(r->reason, sizeof r->reason, "expected to fail (%s) but passed: remove it from expected_failures",
             xf->reason);
  r->seconds = ir_fs_now() - t0;
  if (!x->o->keep_work && (r->verdict == CONFORM_V_PASS || r->verdict == CONFORM_V_SKIP) && raw != CONFORM_V_SKIP)
    ir_fs_rmtree_in(x->o->report_dir, rel, &err);
  return true;
}

/* ---- workers ------------------------------------------------------------------------ */

typedef struct worker {
  pid_t pid;
  int cmd_fd, res_fd;
  int current; /* item index in flight, -1 idle */
  char buf[8192];
  size_t nbuf;
} worker;

static void worker_main(ctx *x, int index, int cmd_fd, int res_fd)
{
  char line[64];
  size_t n = 0;
  conform_record rec;
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  conform_sys_become_subreaper();          /* daemons of adapters reparent to this worker, which kills them */
  if (x->backend.kind == CONFORM_BK_BATCH) /* the adapter's stderr and every stdout line it should not have sent */
    snprintf(x->backend.errlog, sizeof x->backend.errlog, "%s/work/batch-worker-%d.log", x->o->report_dir, index);
  FILE *out = fdopen(res_fd, "w");
  for (;;) {
    char ch;
    ssize_t k = read(cmd_fd, &ch, 1);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) break;
    if (ch != '\n') {
      if (n < sizeof line - 1) line[n++] = ch;
      continue;
    }
    line[n] = 0;
    n = 0;
    int idx = atoi(line);
    if (idx < 0 || idx >= x->nitems) break;
    if (process(x, &x->items[idx], &rec)) {
      conform_record_write_json(out, &rec);
    } else { /* a harness failure: "!" and the reason, never a record */
      for (char *p = rec.reason; *p; p++)
        if (*p == '\n') *p = ' ';
      fprintf(out, "!%s\n", rec.reason);
    }
    fflush(out);
    /* every process the item left behind (setsid daemons included); a batch adapter stays */
    conform_sys_reap_descendants(x->backend.pipe_up ? x->backend.pipe.pid : -1);
  }
  conform_backend_close(&x->backend);
  conform_sys_reap_descendants(-1);
  _exit(0);
}

static ttref_status worker_start(ctx *x, worker *w, worker *all, int nall, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  int cmd[2], res[2];
  if (pipe(cmd) != 0) FAIL(IR_ERR(err, TTREF_E_IO, (ttref_loc){0}, "pipe: %s", strerror(errno)));
  if (pipe(res) != 0) {
    close(cmd[0]);
    close(cmd[1]);
    FAIL(IR_ERR(err, TTREF_E_IO, (ttref_loc){0}, "pipe: %s", strerror(errno)));
  }
  fflush(NULL);
  pid_t pid = fork();
  if (pid < 0) FAIL(IR_ERR(err, TTREF_E_IO, (ttref_loc){0}, "fork: %s", strerror(errno)));
  if (pid == 0) {
    for (int i = 0; i < nall; i++) /* other workers' pipes */
      if (all[i].pid > 0) {
        close(all[i].cmd_fd);
        close(all[i].res_fd);
      }
    close(cmd[1]);
    close(res[0]);
    worker_main(x, (int)(w - all), cmd[0], res[1]);
  }
  close(cmd[0]);
  close(res[1]);
  w->pid = pid;
  w->cmd_fd = cmd[1];
  w->res_fd = res[0];
  w->current = -1;
  w->nbuf = 0;
fail:
  return st;
}

static void worker_stop(worker *w)
{
  if (w->pid <= 0) return;
  close(w->cmd_fd);
  close(w->res_fd);
  int status;
  while (waitpid(w->pid, &status, 0) < 0 && errno == EINTR) {}
  w->pid = -1;
}

/* ---- progress ------------------------------------------------------------------------ */

typedef struct progress {
  int bar, done, total;
  int count[CONFORM_VERDICT_COUNT];
  double t0;
  const char *shown; /* the report directory as the user gave it */
} progress;

static void progress_show(progress *p, const conform_record *rec)
{
  /* records say "work/CASE/..." (relative to the report directory); the console names a path usable from here */
  conform_record shown_rec = *rec;
  const conform_record *r = &shown_rec;
  char from[16] = " work/", to[4200];
  snprintf(to, sizeof to, " %s/work/", p->shown);
  replace_all(rec->reason, from, to, shown_rec.reason, sizeof shown_rec.reason);
  p->done++;
  p->count[r->verdict]++;
  if (!p->bar) {
    fprintf(stderr, "[%d/%d] %-15s %s (%.2fs)%s%s\n", p->done, p->total, conform_verdict_name(r->verdict), r->id,
            r->seconds, conform_verdict_unexpected(r->verdict) ? ": " : "",
            conform_verdict_unexpected(r->verdict) ? r->reason : "");
    if (r->localized[0]) fprintf(stderr, "    %s\n", r->localized);
    return;
  }
  const int width = 30;
  int fill = p->total ? p->done * width / p->total : width;
  char barbuf[64];
  for (int i = 0; i < width; i++) barbuf[i] = i < fill ? '#' : '.';
  barbuf[width] = 0;
  int bad = 0;
  for (int v = 0; v < CONFORM_VERDICT_COUNT; v++)
    if (conform_verdict_unexpected((conform_verdict)v)) bad += p->count[v];
  fprintf(stderr, "\r\033[K[%s] %d/%d  ok %d  unexpected %d  %.0fs  %.40s", barbuf, p->done, p->total, p->done - bad,
          bad, ir_fs_now() - p->t0, r->id);
  if (conform_verdict_unexpected(r->verdict))
    fprintf(stderr, "\r\033[K%s %s: %s\n", conform_verdict_name(r->verdict), r->id, r->reason);
  if (r->localized[0]) fprintf(stderr, "\r\033[K    %s\n", r->localized);
  if (p->done == p->total) fputc('\n', stderr);
}

/* ---- the run --------------------------------------------------------------------------- */

/* The --backend spec as run.json records it: an adapter or plugin path relative to the report directory. */
static void backend_shown(const ctx *x, char *out, size_t n)
{
  const char *b = x->o->backend, *colon = strchr(b, ':');
  char rel[4200];
  size_t pre = colon && (strncmp(b, "batch:", 6) == 0 || strncmp(b, "plugin:", 7) == 0) ? (size_t)(colon - b) + 1 : 0;
  if (!strchr(b, '/') || (colon && !pre)) {
    snprintf(out, n, "%s", b);
    return;
  }
  ir_fs_relpath(x->o->report_dir, b + pre, rel, sizeof rel);
  if (pre + strlen(rel) + 1 > n) return (void)snprintf(out, n, "%s", b);
  memcpy(out, b, pre);
  memcpy(out + pre, rel, strlen(rel) + 1);
}

static ttref_status write_env(const ctx *x, const char *report_dir, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  char version[256], scratch[4200], path[4200], rel[4200], spec[4200];
  snprintf(path, sizeof path, "%s/run.json", report_dir);
  snprintf(scratch, sizeof scratch, "%s/.version.tmp", x->o->report_dir);
  TRY(ir_fs_rmtree_in(x->o->report_dir, ".version.tmp", err)); /* the probe's child creates it afresh */
  conform_backend_version(&x->backend, scratch, version, sizeof version);
  ir_fs_atomic at;
  TRY(ir_fs_atomic_open(path, &at, err)); /* whole or not at all; a link at PATH is refused */
  FILE *f = at.f;
  time_t now = time(NULL);
  char when[64];
  strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
  fprintf(f, "{\"backend\": ");
  backend_shown(x, spec, sizeof spec);
  conform_json_str(f, x->cfg->backend[0] ? x->cfg->backend : spec);
  fprintf(f, ", \"backend_spec\": ");
  conform_json_str(f, spec);
  fprintf(f, ", \"backend_version\": ");
  conform_json_str(f, x->cfg->version[0] ? x->cfg->version : version);
  fprintf(f, ", \"device\": ");
  conform_json_str(f, x->cfg->device);
  fprintf(f, ", \"ttref_version\": ");
  conform_json_str(f, ttref_version());
  fprintf(f, ", \"semantics_version\": 1, \"suite\": ");
  ir_fs_relpath(x->o->report_dir, x->suite->dir, rel, sizeof rel);
  conform_json_str(f, rel);
  fprintf(f, ", \"suite_name\": ");
  conform_json_str(f, x->suite->name);
  fprintf(f, ", \"config\": ");
  if (x->o->config) ir_fs_relpath(x->o->report_dir, x->o->config, rel, sizeof rel);
  conform_json_str(f, x->o->config ? rel : "");
  fprintf(f, ", \"config_sha256\": ");
  conform_json_str(f, x->cfg_sha);
  fprintf(f, ", \"shard\": \"%d/%d\", \"jobs\": %d, \"started\": \"%s\"}\n", x->o->shard_i, x->o->shard_n, x->o->jobs,
          when);
  TRY(ir_fs_atomic_commit(&at, err));
fail:
  return st;
}

/*
 * A journal in the report directory belongs to one run: --resume continues it
 * only with the same backend, config, suite and shard (run.json); a run
 * without --resume replaces it only with --force.
 */
static ttref_status check_identity(const ctx *x, const char *shown, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  char path[4200], *text = NULL, have[1024], shard[64];
  size_t len = 0;
  struct stat sb;
  snprintf(path, sizeof path, "%s/journal.jsonl", x->o->report_dir);
  const bool journal = lstat(path, &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_size > 0;
  if (!journal) goto fail;
  if (!x->o->resume) {
    if (!x->o->force)
      FAIL(IR_ERR(err, TTREF_E_USAGE, (ttref_loc){0},
                  "%s already holds a journal.jsonl: continue that run with --resume, replace it with --force, "
                  "or choose another --report-dir",
                  shown));
    goto fail;
  }
  snprintf(path, sizeof path, "%s/run.json", x->o->report_dir);
  if (!ir_fs_exists(path)) goto fail; /* a journal without run.json: nothing to compare */
  TRY(ir_fs_read_regular(path, &text, &len, err));
  snprintf(shard, sizeof shard, "%d/%d", x->o->shard_i, x->o->shard_n);
  char spec[4200];
  backend_shown(x, spec, sizeof spec);
  const char *keys[] = {"backend_spec", "config_sha256", "suite_name", "shard"};
  const char *want[] = {spec, x->cfg_sha, x->suite->name, shard};
  const char *what[] = {"backend", "config (sha256)", "suite", "shard"};
  for (int k = 0; k < 4; k++) {
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\": \"", keys[k]);
    if (!strstr(text, pat)) continue; /* an older run.json without the field */
    conform_json_get(text, keys[k], have, sizeof have);
    if (strcmp(have, want[k]) != 0)
      FAIL(IR_ERR(err, TTREF_E_USAGE, (ttref_loc){0},
                  "--resume: the journal in %s is of %s '%.300s', not '%.300s'; resume with the same %s or use another "
                  "--report-dir",
                  shown, what[k], have, want[k], what[k]));
  }
fail:
  if (text) ir_free(text, len + 1);
  return st;
}

ttref_status conform_run(const conform_run_opts *o, int *out_unexpected, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  ctx x = {0};
  conform_run_opts oa = *o; /* with absolute directories: backends run in the case directory */
  char absreport[4096], absgolden[4096];
  conform_pattern re = {0};
  char(*ids)[300] = NULL;
  const char **idp = NULL, **casep = NULL;
  int nmatched = 0;
  worker *ws = NULL;
  int nw = 0;
  FILE *jf = NULL;
  conform_record_list done = {0}, all = {0};
  int *todo = NULL, total = 0;
  char path[4200], harness[800] = "", hid[300] = "";
  const char *shown = o->report_dir; /* as the user gave it: for messages, and the files opened below */
  absreport[0] = 0;
  *out_unexpected = 0;
  conform_sys_become_subreaper(); /* orphans of workers come back here; SIGXFSZ becomes EFBIG */
  TRY(ir_fs_mkdirs(o->report_dir, NULL, err));
  TRY(ir_fs_mkdirs_in(shown, "work", err)); /* refuses a symbolic link there */
  if (!realpath(o->report_dir, absreport))
    FAIL(IR_ERR(err, TTREF_E_IO, (ttref_loc){0}, "bad report directory '%s'", o->report_dir));
  oa.report_dir = absreport;
  if (o->golden_dir) {
    if (!realpath(o->golden_dir, absgolden))
      FAIL(IR_ERR(err, TTREF_E_INPUT, (ttref_loc){0}, "no golden directory '%s'", o->golden_dir));
    TRY(conform_golden_check(absgolden, err));
    oa.golden_dir = absgolden;
  }
  o = &oa;
  x.o = o;
  TRY(conform_suite_load_flags(o->suite, o->allow_outside_suite ? CONFORM_SUITE_ALLOW_OUTSIDE : 0, &x.suite, err));
  if (o->config) {
    TRY(conform_config_load(o->config, &x.cfg, err));
    TRY(conform_sha256_file(o->config, x.cfg_sha, err));
  } else TRY(conform_config_default(&x.cfg, err));
  TRY(conform_backend_open(o->backend, &x.backend, err));
  if (o->mutants) {
    if (x.backend.kind != CONFORM_BK_REFERENCE)
      FAIL(IR_ERR(err, TTREF_E_USAGE, (ttref_loc){0}, "--mutants runs mutants of the reference backend, not of '%s'",
                  o->backend));
    TRY(conform_mutant_parse_list(o->mutants, x.mut_ids, &x.nmut, err));
  }
  if (o->filter) TRY(conform_pattern_compile(o->filter, "--filter", &re, err));
  for (int i = 0; i < x.suite->ncases; i++) total += x.suite->cases[i].nspecs;
  x.items = ir_calloc((size_t)total + 1, sizeof *x.items);
  todo = ir_calloc((size_t)total + 1, sizeof *todo);
  ids = ir_calloc((size_t)total + 1, sizeof *ids);
  idp = ir_calloc((size_t)total + 1, sizeof *idp);
  casep = ir_calloc((size_t)total + 1, sizeof *casep);
  if (!x.items || !todo || !ids || !idp || !casep) FAIL(IR_ERR(err, TTREF_E_NOMEM, (ttref_loc){0}, "out of memory"));
  int index = 0;
  for (int i = 0; i < x.suite->ncases; i++)
    for (int k = 0; k < x.suite->cases[i].nspecs; k++, index++) {
      const conform_case *c = &x.suite->cases[i];
      conform_case_id(c, &c->specs[k], ids[index], sizeof ids[index]);
      idp[index] = ids[index];
      casep[index] = c->name;
      if (o->filter && !conform_pattern_match(&re, ids[index], c->name)) continue;
      nmatched++;
      if (index % o->shard_n != o->shard_i) continue;
      x.items[x.nitems].c = c;
      x.items[x.nitems++].s = &c->specs[k];
    }
  /* a config entry or a filter that selects nothing is a typo, never a silent empty run */
  TRY(conform_config_check_used(x.cfg, idp, casep, total, err));
  if (o->filter && nmatched == 0)
    FAIL(IR_ERR(err, TTREF_E_USAGE, (ttref_loc){0},
                "--filter '%s' matches none of the %d items of %s (patterns: docs/suite-format.md, Item patterns)",
                o->filter, total, o->suite));
  snprintf(path, sizeof path, "%s/journal.jsonl", o->report_dir);
  TRY(check_identity(&x, shown, err)); /* before the journal is opened: a refused run changes nothing */
  TRY(ir_fs_fopen_in(shown, "journal.jsonl", o->resume ? "a" : "w", &jf, err)); /* first: refuses a link */
  if (o->resume) TRY(conform_journal_read(path, true, &done, err));
  snprintf(path, sizeof path, "%s/run.json", o->report_dir);
  if (!o->resume || !ir_fs_exists(path)) TRY(write_env(&x, shown, err));
  int ntodo = 0;
  for (int i = 0; i < x.nitems; i++) {
    char id[300];
    bool have = false;
    conform_case_id(x.items[i].c, x.items[i].s, id, sizeof id);
    for (int k = 0; k < done.n && !have; k++) /* a harness error is no verdict: run it again */
      have = strcmp(done.v[k].id, id) == 0 && !conform_record_is_harness_error(&done.v[k]);
    if (!have) todo[ntodo++] = i;
  }
  progress pg = {o->progress < 0 ? isatty(2) : o->progress, 0, ntodo, {0}, ir_fs_now(), shown};
  if (x.nitems - ntodo > 0) fprintf(stderr, "resuming: %d of %d items already journaled\n", x.nitems - ntodo, x.nitems);
  nw = o->jobs < ntodo ? o->jobs : ntodo;
  ws = ir_calloc((size_t)nw + 1, sizeof *ws);
  if (!ws) FAIL(IR_ERR(err, TTREF_E_NOMEM, (ttref_loc){0}, "out of memory"));
  for (int i = 0; i < nw; i++) ws[i].pid = -1;
  signal(SIGPIPE, SIG_IGN);
  int next = 0, running = 0;
  for (int i = 0; i < nw; i++) TRY(worker_start(&x, &ws[i], ws, nw, err));
  conform_record rec;
  while (next < ntodo || running > 0) {
    for (int i = 0; i < nw; i++) { /* hand out work */
      if (ws[i].pid > 0 && ws[i].current < 0 && next < ntodo && !harness[0]) {
        char line[32];
        int l = snprintf(line, sizeof line, "%d\n", todo[next]);
        if (write(ws[i].cmd_fd, line, (size_t)l) == l) {
          ws[i].current = todo[next++];
          running++;
        }
      }
    }
    struct pollfd pf[256];
    int map[256], np = 0;
    for (int i = 0; i < nw && np < 256; i++)
      if (ws[i].pid > 0 && ws[i].current >= 0) {
        pf[np].fd = ws[i].res_fd;
        pf[np].events = POLLIN;
        pf[np].revents = 0;
        map[np++] = i;
      }
    if (np == 0) break;
    if (poll(pf, (nfds_t)np, -1) < 0) {
      if (errno == EINTR) continue;
      FAIL(IR_ERR(err, TTREF_E_IO, (ttref_loc){0}, "poll: %s", strerror(errno)));
    }
    for (int p = 0; p < np; p++) {
      if (!pf[p].revents) continue;
      worker *w = &ws[map[p]];
      ssize_t got = read(w->res_fd, w->buf + w->nbuf, sizeof w->buf - w->nbuf - 1);
      if (got > 0) {
        w->nbuf += (size_t)got;
        char *nl = memchr(w->buf, '\n', w->nbuf);
        if (!nl) continue;
        size_t l = (size_t)(nl - w->buf);
        ttref_error perr = {0};
        if (w->buf[0] == '!') { /* a harness failure: stop handing out work, record nothing */
          conform_case_id(x.items[w->current].c, x.items[w->current].s, hid, sizeof hid);
          if (!harness[0]) snprintf(harness, sizeof harness, "%.*s", (int)(l - 1 < 700 ? l - 1 : 700), w->buf + 1);
          memmove(w->buf, nl + 1, w->nbuf - l - 1);
          w->nbuf -= l + 1;
          w->current = -1;
          running--;
          continue;
        }
        if (conform_record_parse_json(w->buf, l, &rec, &perr) != TTREF_OK) {
          conform_record_init(&rec);
          conform_run_describe(x.items[w->current].c, x.items[w->current].s, &rec);
          snprintf(rec.reason, sizeof rec.reason, "harness: unreadable worker record: %.300s", perr.msg);
        }
        memmove(w->buf, nl + 1, w->nbuf - l - 1);
        w->nbuf -= l + 1;
      } else { /* the worker died mid-item */
        int idx = w->current;
        conform_record_init(&rec);
        conform_run_describe(x.items[idx].c, x.items[idx].s, &rec);
        snprintf(rec.reason, sizeof rec.reason, "harness worker died while running this item (--resume runs it again)");
        worker_stop(w);
        if (next < ntodo || running > 1) TRY(worker_start(&x, w, ws, nw, err));
      }
      w->current = -1;
      running--;
      if (conform_journal_append(jf, &rec, err) != TTREF_OK) {
        char what[300];
        const char *colon = strrchr(err->msg, ':'); /* "cannot write the journal: STRERROR" */
        snprintf(what, sizeof what, "%.200s", colon ? colon + 2 : err->msg);
        FAIL(IR_ERR(
            err, TTREF_E_IO, (ttref_loc){0},
            "cannot append to %s/journal.jsonl: %s; no verdict was recorded for %s: free space and rerun with --resume",
            shown, what, rec.id));
      }
      progress_show(&pg, &rec);
    }
  }
  for (int i = 0; i < nw; i++) worker_stop(&ws[i]);
  conform_sys_reap_descendants(-1);
  if (harness[0]) {
    char msg[800];
    replace_all(harness, o->report_dir, shown, msg, sizeof msg);
    FAIL(IR_ERR(err, TTREF_E_IO, (ttref_loc){0},
                "%s: %s; no verdict was recorded for it: fix this and rerun with --resume", hid, msg));
  }
  fclose(jf);
  jf = NULL;
  /* reports cover every item of this run (resumed ones too), in suite order */
  snprintf(path, sizeof path, "%s/journal.jsonl", o->report_dir);
  conform_record_list_free(&done);
  TRY(conform_journal_read(path, false, &done, err));
  for (int i = 0; i < x.nitems; i++) {
    char id[300];
    conform_case_id(x.items[i].c, x.items[i].s, id, sizeof id);
    for (int k = 0; k < done.n; k++)
      if (strcmp(done.v[k].id, id) == 0) {
        TRY(conform_record_list_add(&all, &done.v[k], err));
        if (conform_verdict_unexpected(done.v[k].verdict)) (*out_unexpected)++;
        break;
      }
  }
  TRY(conform_report_write(shown, &all, err));
  {
    int cnt[CONFORM_VERDICT_COUNT] = {0};
    for (int i = 0; i < all.n; i++) cnt[all.v[i].verdict]++;
    fprintf(stdout, "%d passed, %d failed", cnt[CONFORM_V_PASS] + cnt[CONFORM_V_QUALITY_WARNING] + cnt[CONFORM_V_XFAIL],
            *out_unexpected);
    const char *sep = " (";
    for (int v = 0; v < CONFORM_VERDICT_COUNT; v++)
      if (cnt[v]) {
        fprintf(stdout, "%s%s %d", sep, conform_verdict_name((conform_verdict)v), cnt[v]);
        sep = ", ";
      }
    fprintf(stdout, "%s; reports in %s\n", all.n ? ")" : "", shown);
  }
  if (x.nmut) { /* mutants.list: the run's mutant order, which `report merge` needs to score shards */
    double score;
    FILE *ml = NULL;
    TRY(ir_fs_fopen_in(o->report_dir, "mutants.list", "w", &ml, err)); /* never through a symbolic link */
    for (int k = 0; k < x.nmut; k++) fprintf(ml, "%s\n", conform_mutant_name(x.mut_ids[k]));
    if (fclose(ml) != 0) FAIL(IR_ERR(err, TTREF_E_IO, (ttref_loc){0}, "cannot write '%s/mutants.list'", o->report_dir));
    TRY(conform_mutant_report(o->report_dir, o->suite, x.mut_ids, x.nmut, &all, stdout, &score, err));
    if (o->out_mutation_score) *o->out_mutation_score = score;
  }
fail:
  if (ws)
    for (int i = 0; i < nw; i++) {
      if (ws[i].pid > 0) kill(ws[i].pid, SIGKILL);
      worker_stop(&ws[i]);
    }
  conform_sys_reap_descendants(-1);
  ir_free(ws, sizeof *ws * ((size_t)nw + 1));
  if (jf) fclose(jf);
  conform_pattern_free(&re);
  ir_free(ids, sizeof *ids * ((size_t)total + 1));
  ir_free(idp, sizeof *idp * ((size_t)total + 1));
  ir_free(casep, sizeof *casep * ((size_t)total + 1));
  conform_record_list_free(&done);
  conform_record_list_free(&all);
  ir_free(todo, sizeof *todo * ((size_t)total + 1));
  ir_free(x.items, sizeof *x.items * ((size_t)total + 1));
  conform_backend_close(&x.backend);
  conform_config_free(x.cfg);
  conform_suite_free(x.suite);
  if (st != TTREF_OK && err && absreport[0]) { /* "cannot write 'R/results.json'", not this machine's absolute path */
    char msg[sizeof err->msg];
    replace_all(err->msg, absreport, shown, msg, sizeof msg);
    memcpy(err->msg, msg, sizeof msg);
  }
  return st;
}
