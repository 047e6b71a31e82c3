/*
 * conform_report.c: report writers. Everything is derived from the records,
 * so a merged or resumed run reports exactly like a single one. The HTML
 * page has no external resources: CSS and SVG histograms are inline.
 */
#define _GNU_SOURCE /* fseek under -std=c11 */
#include "config.h"
#include "conform_report.h"
#include "conform_mutant.h"
#include "ir_base_fs.h"
#include "ir_base.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct env {
  char backend[256], version[256], device[256], ttref[64], suite[1024], shard[64], started[64];
  char mixed[600]; /* `report merge --allow-mixed`: what differs between the shards ("" when nothing) */
} env;

/* The string value of "key" in a flat JSON text ("" when absent). */
static void json_get(const char *json, const char *key, char *out, size_t n) { conform_json_get(json, key, out, n); }

static void load_env(const char *dir, env *e)
{
  char path[4200], *text = NULL;
  size_t len = 0;
  ttref_error err = {0};
  memset(e, 0, sizeof *e);
  snprintf(path, sizeof path, "%s/run.json", dir);
  if (ir_fs_read_regular(path, &text, &len, &err) != TTREF_OK) return;
  json_get(text, "backend", e->backend, sizeof e->backend);
  json_get(text, "backend_version", e->version, sizeof e->version);
  json_get(text, "device", e->device, sizeof e->device);
  json_get(text, "ttref_version", e->ttref, sizeof e->ttref);
  json_get(text, "suite", e->suite, sizeof e->suite);
  json_get(text, "shard", e->shard, sizeof e->shard);
  json_get(text, "started", e->started, sizeof e->started);
  json_get(text, "mixed", e->mixed, sizeof e->mixed);
  ir_free(text, len + 1);
}

typedef struct tally {
  int n[CONFORM_VERDICT_COUNT];
  int total, run, passed, xfail, unexpected;
} tally;

static void count(const conform_record_list *l, tally *t)
{
  memset(t, 0, sizeof *t);
  for (int i = 0; i < l->n; i++) {
    conform_verdict v = l->v[i].verdict;
    t->n[v]++;
    t->total++;
    if (v != CONFORM_V_SKIP && v != CONFORM_V_UNSUPPORTED) t->run++;
    if (conform_verdict_passed(v)) t->passed++;
    if (v == CONFORM_V_XFAIL) t->xfail++;
    if (conform_verdict_unexpected(v)) t->unexpected++;
  }
}

static double pct(int a, int b) { return b ? 100.0 * a / b : 100.0; }

static void xml_esc(FILE *f, const char *s)
{
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    switch (*p) {
    case '<': fputs("&lt;", f); break;
    case '>': fputs("&gt;", f); break;
    case '&': fputs("&amp;", f); break;
    case '"': fputs("&quot;", f); break;
    case '\'': fputs("&#39;", f); break;
    default:
      if (*p < 0x20 && *p != '\n' && *p != '\t') fputc(' ', f);
      else fputc(*p, f);
    }
  }
}

static FILE *open_out(const char *dir, const char *name, char *path, size_t n, ttref_error *err)
{
  ir_fs_atomic a;
  snprintf(path, n, "%s/%s", dir, name);
  if (ir_fs_atomic_open(path, &a, err) != TTREF_OK) return NULL; /* PATH.tmp.PID, renamed when complete */
  return a.f;
}

static ttref_status close_out(FILE *f, const char *path, ttref_error *err)
{
  return ir_fs_atomic_close(f, path, err); /* fsync + rename; strerror on failure */
}

static ttref_status write_json(const char *dir, const conform_record_list *l, const env *e, const tally *t,
                               ttref_error *err)
{
  char path[4200];
  FILE *f = open_out(dir, "results.json", path, sizeof path, err);
  if (!f) return TTREF_E_IO;
  fprintf(f, "{\n  \"format\": \"ttref-conform-results\", \"format_version\": 1,\n  \"environment\": {\"backend\": ");
  conform_json_str(f, e->backend);
  fprintf(f, ", \"backend_version\": ");
  conform_json_str(f, e->version);
  fprintf(f, ", \"device\": ");
  conform_json_str(f, e->device);
  fprintf(f, ", \"ttref_version\": ");
  conform_json_str(f, e->ttref);
  fprintf(f, ", \"semantics_version\": 1, \"suite\": ");
  conform_json_str(f, e->suite);
  fprintf(f, ", \"shard\": ");
  conform_json_str(f, e->shard);
  fprintf(f,
          "},\n  \"summary\": {\"total\": %d, \"unexpected\": %d, \"pass_rate\": %.4f, \"pass_rate_with_xfail\": %.4f",
          t->total, t->unexpected, pct(t->passed, t->run), pct(t->passed + t->xfail, t->run));
  for (int v = 0; v < CONFORM_VERDICT_COUNT; v++)
    fprintf(f, ", \"%s\": %d", conform_verdict_name((conform_verdict)v), t->n[v]);
  fprintf(f, "},\n  \"results\": [\n");
  for (int i = 0; i < l->n; i++) {
    fputs("    ", f);
    conform_record_write_json(f, &l->v[i]);
    if (i + 1 < l->n) fseek(f, -1, SEEK_CUR), fputs(",\n", f);
  }
  fprintf(f, "  ]\n}\n");
  return close_out(f, path, err);
}

static ttref_status write_junit(const char *dir, const conform_record_list *l, const env *e, const tally *t,
                                ttref_error *err)
{
  char path[4200];
  double secs = 0;
  for (int i = 0; i < l->n; i++) secs += l->v[i].seconds;
  FILE *f = open_out(dir, "junit.xml", path, sizeof path, err);
  if (!f) return TTREF_E_IO;
  int failures = t->n[CONFORM_V_FAIL] + t->n[CONFORM_V_XPASS];
  int errors = t->n[CONFORM_V_ERROR] + t->n[CONFORM_V_CRASH] + t->n[CONFORM_V_TIMEOUT];
  int skipped = t->n[CONFORM_V_SKIP] + t->n[CONFORM_V_UNSUPPORTED] + t->n[CONFORM_V_XFAIL];
  fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
  fprintf(
      f,
      "<testsuites name=\"ttref conform\" tests=\"%d\" failures=\"%d\" errors=\"%d\" skipped=\"%d\" time=\"%.3f\">\n",
      t->total, failures, errors, skipped, secs);
  fprintf(f, "  <testsuite name=\"");
  xml_esc(f, e->backend[0] ? e->backend : "backend");
  fprintf(f, "\" tests=\"%d\" failures=\"%d\" errors=\"%d\" skipped=\"%d\" time=\"%.3f\">\n", t->total, failures,
          errors, skipped, secs);
  fprintf(f, "    <properties>\n");
  const char *keys[] = {"backend_version", "device", "ttref_version", "suite", "shard"};
  const char *vals[] = {e->version, e->device, e->ttref, e->suite, e->shard};
  for (int k = 0; k < 5; k++) {
    fprintf(f, "      <property name=\"%s\" value=\"", keys[k]);
    xml_esc(f, vals[k]);
    fprintf(f, "\"/>\n");
  }
  fprintf(f, "    </properties>\n");
  for (int i = 0; i < l->n; i++) {
    const conform_record *r = &l->v[i];
    fprintf(f, "    <testcase classname=\"conform.");
    xml_esc(f, r->op);
    fprintf(f, "\" name=\"");
    xml_esc(f, r->id);
    fprintf(f, "\" time=\"%.3f\"", r->seconds);
    const char *tag = NULL;
    switch (r->verdict) {
    case CONFORM_V_FAIL:
    case CONFORM_V_XPASS: tag = "failure"; break;
    case CONFORM_V_ERROR:
    case CONFORM_V_CRASH:
    case CONFORM_V_TIMEOUT: tag = "error"; break;
    case CONFORM_V_SKIP:
    case CONFORM_V_UNSUPPORTED:
    case CONFORM_V_XFAIL: tag = "skipped"; break;
    default: break;
    }
    if (!tag && r->verdict != CONFORM_V_QUALITY_WARNING) {
      fprintf(f, "/>\n");
      continue;
    }
    fprintf(f, ">\n");
    if (tag) {
      fprintf(f, "      <%s message=\"%s: ", tag, conform_verdict_name(r->verdict));
      xml_esc(f, r->verdict == CONFORM_V_XFAIL ? r->expected_reason : r->reason);
      if (strcmp(tag, "skipped") != 0) {
        fprintf(f, "\" type=\"%s\">", conform_verdict_name(r->verdict));
        fprintf(f, "mode %s, output %s, worst element %s: got %.17g, reference %.17g, allowed %.17g (ratio %.3g)\n",
                r->mode, r->output, r->worst_at[0] ? r->worst_at : "-", r->worst_got, r->worst_ref, r->worst_bound,
                r->max_ratio);
        xml_esc(f, r->reason);
        if (r->localized[0]) {
          fputc('\n', f);
          xml_esc(f, r->localized);
        }
        fprintf(f, "</%s>\n", tag);
      } else {
        fprintf(f, "\"/>\n");
      }
    }
    if (r->verdict == CONFORM_V_QUALITY_WARNING)
      fprintf(f, "      <system-out>QUALITY_WARNING: %.3g of the error budget used (mode %s)</system-out>\n",
              r->max_ratio, r->mode);
    fprintf(f, "    </testcase>\n");
  }
  fprintf(f, "  </testsuite>\n</testsuites>\n");
  return close_out(f, path, err);
}

static ttref_status write_tap(const char *dir, const conform_record_list *l, ttref_error *err)
{
  char path[4200];
  FILE *f = open_out(dir, "results.tap", path, sizeof path, err);
  if (!f) return TTREF_E_IO;
  fprintf(f, "1..%d\n", l->n);
  for (int i = 0; i < l->n; i++) {
    const conform_record *r = &l->v[i];
    const char *why = r->verdict == CONFORM_V_XFAIL ? r->expected_reason : r->reason;
    char clean[600];
    snprintf(clean, sizeof clean, "%s", why);
    for (char *p = clean; *p; p++)
      if (*p == '\n' || *p == '#') *p = ' ';
    switch (r->verdict) {
    case CONFORM_V_PASS:
    case CONFORM_V_QUALITY_WARNING:
      fprintf(f, "ok %d - %s # %s\n", i + 1, r->id, conform_verdict_name(r->verdict));
      break;
    case CONFORM_V_SKIP:
    case CONFORM_V_UNSUPPORTED:
      fprintf(f, "ok %d - %s # SKIP %s: %s\n", i + 1, r->id, conform_verdict_name(r->verdict), clean);
      break;
    case CONFORM_V_XFAIL: fprintf(f, "not ok %d - %s # TODO expected failure: %s\n", i + 1, r->id, clean); break;
    default:
      fprintf(f, "not ok %d - %s # %s\n", i + 1, r->id, conform_verdict_name(r->verdict));
      fprintf(f, "# %s\n", clean);
    }
  }
  return close_out(f, path, err);
}

static ttref_status write_md(const char *dir, const conform_record_list *l, const env *e, const tally *t,
                             ttref_error *err)
{
  char path[4200];
  FILE *f = open_out(dir, "report.md", path, sizeof path, err);
  if (!f) return TTREF_E_IO;
  fprintf(f, "# Conformance report: %s\n\n", e->backend);
  fprintf(f, "backend %s (%s), device %s, ttref %s, semantics 1, suite `%s`, shard %s\n\n", e->backend, e->version,
          e->device[0] ? e->device : "-", e->ttref, e->suite, e->shard);
  if (e->mixed[0]) fprintf(f, "**Mixed run** (`report merge --allow-mixed`): %s\n\n", e->mixed);
  fprintf(f,
          "**%d items, %d unexpected.** Pass rate %.1f%% (%.1f%% counting expected failures), over %d run items.\n\n",
          t->total, t->unexpected, pct(t->passed, t->run), pct(t->passed + t->xfail, t->run), t->run);
  if (t->unexpected) { /* the findings first: what is wrong, before the tables */
    fprintf(f, "## Findings\n\n");
    for (int i = 0; i < l->n; i++) {
      const conform_record *r = &l->v[i];
      if (!conform_verdict_unexpected(r->verdict)) continue;
      fprintf(f, "- **%s** %s: %s", conform_verdict_name(r->verdict), r->id, r->reason);
      if (r->localized_op[0]) fprintf(f, " — first divergent op %s at %s", r->localized_op, r->localized_at);
      fprintf(f, "\n");
    }
    fprintf(f, "\n");
  }
  fprintf(f, "| verdict | count |\n|---|---|\n");
  for (int v = 0; v < CONFORM_VERDICT_COUNT; v++)
    if (t->n[v]) fprintf(f, "| %s | %d |\n", conform_verdict_name((conform_verdict)v), t->n[v]);
  fprintf(f, "\n| case | verdict | mode | worst at | got | reference | allowed | err/allowed | reason "
             "|\n|---|---|---|---|---|---|---|---|---|\n");
  for (int i = 0; i < l->n; i++) {
    const conform_record *r = &l->v[i];
    char reason[600];
    snprintf(reason, sizeof reason, "%s", r->verdict == CONFORM_V_XFAIL ? r->expected_reason : r->reason);
    for (char *p = reason; *p; p++)
      if (*p == '|' || *p == '\n') *p = ' ';
    fprintf(f, "| %s | %s | %s | %s %s | %.9g | %.9g | %.3g | %.3g | %s |\n", r->id, conform_verdict_name(r->verdict),
            r->mode, r->output, r->worst_at, r->worst_got, r->worst_ref, r->worst_bound, r->max_ratio, reason);
  }
  int nloc = 0;
  for (int i = 0; i < l->n; i++) {
    const conform_record *r = &l->v[i];
    if (!r->localized[0]) continue;
    if (!nloc++)
      fprintf(f,
              "\n## Localisation (`--localize`)\n\n| case | first divergent op | at | finding |\n|---|---|---|---|\n");
    char text[1100];
    snprintf(text, sizeof text, "%s", r->localized);
    for (char *p = text; *p; p++)
      if (*p == '|' || *p == '\n') *p = ' ';
    fprintf(f, "| %s | %s | %s | %s |\n", r->id, r->localized_op[0] ? r->localized_op : "-",
            r->localized_at[0] ? r->localized_at : "-", text);
  }
  return close_out(f, path, err);
}

/* An inline SVG bar chart of a ULP-distance histogram. */
static void svg_hist(FILE *f, const int64_t h[CONFORM_HIST_BINS], int w, int hgt)
{
  static const char *const labels[CONFORM_HIST_BINS] = {"0", "1", "2", "3", "&#8805;4", "NaN"};
  int64_t mx = 1;
  for (int b = 0; b < CONFORM_HIST_BINS; b++)
    if (h[b] > mx) mx = h[b];
  int bw = w / CONFORM_HIST_BINS;
  fprintf(f,
          "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" role=\"img\"><title>ULP distance "
          "histogram</title>",
          w, hgt + 14);
  for (int b = 0; b < CONFORM_HIST_BINS; b++) {
    /* log scale so a few bad elements stay visible next to millions of exact ones */
    double frac = h[b] ? log1p((double)h[b]) / log1p((double)mx) : 0;
    int bh = (int)(frac * hgt);
    fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"><title>%s ulp: %lld</title></rect>",
            b * bw + 1, hgt - bh, bw - 2, bh,
            b == 0  ? "#3a3"
            : b < 4 ? "#ca3"
                    : "#c33",
            labels[b], (long long)h[b]);
    fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"9\" text-anchor=\"middle\">%s</text>", b * bw + bw / 2, hgt + 11,
            labels[b]);
  }
  fputs("</svg>", f);
}

static const char *vclass(conform_verdict v)
{
  if (conform_verdict_unexpected(v)) return "bad";
  if (v == CONFORM_V_PASS) return "ok";
  if (v == CONFORM_V_QUALITY_WARNING || v == CONFORM_V_XFAIL) return "warn";
  return "skip";
}

/*
 * The findings first: every unexpected verdict with its reason, worst element
 * and localisation, so a reader sees what is wrong before the tables.
 */
static void write_findings(FILE *f, const conform_record_list *l, const tally *t)
{
  fprintf(f, "<h2 id=\"findings\">Findings</h2>\n");
  if (!t->unexpected) {
    fprintf(f, "<p class=\"ok\">No unexpected verdict: %d items, %d passed, %d expected failures.</p>\n", t->total,
            t->passed, t->xfail);
    return;
  }
  fprintf(f,
          "<p><b>%d unexpected</b> of %d items.</p>\n<table id=\"findings-table\"><tr><th>case</th><th>verdict</th>"
          "<th>worst element</th><th>first divergent op</th><th>reason</th></tr>\n",
          t->unexpected, t->total);
  for (int i = 0; i < l->n; i++) {
    const conform_record *r = &l->v[i];
    if (!conform_verdict_unexpected(r->verdict)) continue;
    fprintf(f, "<tr class=\"bad\"><td>");
    xml_esc(f, r->id);
    fprintf(f, "</td><td>%s</td><td>", conform_verdict_name(r->verdict));
    if (r->worst_at[0]) {
      xml_esc(f, r->output);
      fprintf(f, " %s: got %.9g, ref %.9g", r->worst_at, r->worst_got, r->worst_ref);
    }
    fprintf(f, "</td><td>");
    if (r->localized_op[0]) {
      xml_esc(f, r->localized_op);
      fprintf(f, " at ");
      xml_esc(f, r->localized_at);
    }
    fprintf(f, "</td><td class=\"reason\">");
    xml_esc(f, r->reason);
    if (r->localized[0]) {
      fprintf(f, "<br><b>localised:</b> ");
      xml_esc(f, r->localized);
    }
    fprintf(f, "</td></tr>\n");
  }
  fprintf(f, "</table>\n");
}

static ttref_status write_html(const char *dir, const conform_record_list *l, const env *e, const tally *t,
                               ttref_error *err)
{
  ttref_status st = TTREF_OK;
  char path[4200];
  const char **ops = ir_calloc((size_t)l->n + 1, sizeof *ops), **dts = ir_calloc((size_t)l->n + 1, sizeof *dts);
  int nops = 0, ndts = 0;
  FILE *f = NULL;
  if (!ops || !dts) FAIL(IR_ERR(err, TTREF_E_NOMEM, (ttref_loc){0}, "out of memory"));
  f = open_out(dir, "report.html", path, sizeof path, err);
  if (!f) FAIL(TTREF_E_IO);
  fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>ttref conformance: ");
  xml_esc(f, e->backend);
  fprintf(f, "</title>\n<style>body{font:14px sans-serif;margin:2em}table{border-collapse:collapse;margin:1em 0}"
             "td,th{border:1px solid #ccc;padding:3px 6px;text-align:left}th{background:#eee}"
             ".ok{background:#dfd}.bad{background:#fcc}.warn{background:#ffd}.skip{background:#eee}"
             "td.num{text-align:right;font-family:monospace;white-space:nowrap}"
             "td.reason{min-width:32em;max-width:60em;overflow-wrap:anywhere}"
             ".wide{overflow-x:auto}</style></head><body>\n");
  fprintf(f, "<h1>ttref conformance report</h1>\n");
  write_findings(f, l, t);
  fprintf(f, "<h2>Environment</h2>\n<table id=\"environment\">");
  const char *keys[] = {"backend", "backend version", "device",  "ttref version", "semantics version",
                        "suite",   "shard",           "started", "mixed run"};
  const char *vals[] = {e->backend, e->version, e->device, e->ttref, "1", e->suite, e->shard, e->started, e->mixed};
  for (int k = 0; k < (e->mixed[0] ? 9 : 8); k++) {
    fprintf(f, "<tr><th>%s</th><td>", keys[k]);
    xml_esc(f, vals[k]);
    fprintf(f, "</td></tr>");
  }
  fprintf(
      f,
      "</table>\n<h2>Summary</h2>\n<p><b>%d</b> items, <b>%d</b> unexpected. Pass rate <b>%.1f%%</b> without expected "
      "failures, <b>%.1f%%</b> counting expected failures as passes (over %d items run; skipped and unsupported "
      "items excluded).</p>\n<table id=\"summary\"><tr>",
      t->total, t->unexpected, pct(t->passed, t->run), pct(t->passed + t->xfail, t->run), t->run);
  for (int v = 0; v < CONFORM_VERDICT_COUNT; v++) fprintf(f, "<th>%s</th>", conform_verdict_name((conform_verdict)v));
  fprintf(f, "</tr><tr>");
  for (int v = 0; v < CONFORM_VERDICT_COUNT; v++) fprintf(f, "<td class=\"num\">%d</td>", t->n[v]);
  fprintf(f, "</tr></table>\n");
  int64_t agg[CONFORM_HIST_BINS] = {0};
  for (int i = 0; i < l->n; i++)
    for (int b = 0; b < CONFORM_HIST_BINS; b++) agg[b] += l->v[i].hist[b];
  fprintf(f, "<h3>ULP distance of every judged element (bit patterns, log scale)</h3>\n");
  svg_hist(f, agg, 360, 90);
  /* op x dtype matrix */
  for (int i = 0; i < l->n; i++) {
    bool seen = false;
    for (int k = 0; k < nops; k++) seen |= strcmp(ops[k], l->v[i].op) == 0;
    if (!seen) ops[nops++] = l->v[i].op;
    seen = false;
    for (int k = 0; k < ndts; k++) seen |= strcmp(dts[k], l->v[i].dtype) == 0;
    if (!seen) dts[ndts++] = l->v[i].dtype;
  }
  fprintf(f, "\n<h2>Op &#215; dtype</h2>\n<table id=\"matrix\"><tr><th>op</th>");
  for (int d = 0; d < ndts; d++) {
    fprintf(f, "<th>");
    xml_esc(f, dts[d][0] ? dts[d] : "-");
    fprintf(f, "</th>");
  }
  fprintf(f, "</tr>\n");
  for (int o = 0; o < nops; o++) {
    fprintf(f, "<tr><th>");
    xml_esc(f, ops[o]);
    fprintf(f, "</th>");
    for (int d = 0; d < ndts; d++) {
      int pass = 0, n = 0, bad = 0;
      for (int i = 0; i < l->n; i++)
        if (strcmp(l->v[i].op, ops[o]) == 0 && strcmp(l->v[i].dtype, dts[d]) == 0) {
          n++;
          pass += conform_verdict_passed(l->v[i].verdict);
          bad += conform_verdict_unexpected(l->v[i].verdict);
        }
      if (!n) fprintf(f, "<td></td>");
      else fprintf(f, "<td class=\"%s\">%d/%d</td>", bad ? "bad" : pass == n ? "ok" : "warn", pass, n);
    }
    fprintf(f, "</tr>\n");
  }
  fprintf(f, "</table>\n<h2>Kernels</h2>\n<div class=\"wide\"><table "
             "id=\"results\"><tr><th>case</th><th>verdict</th><th>op</th><th>dtype</th>"
             "<th>mode</th><th>worst element</th><th>got</th><th>reference</th><th>allowed</th><th>err/allowed</th>"
             "<th>max ulp</th><th>ULP histogram</th><th>time (s)</th><th>reason</th></tr>\n");
  for (int i = 0; i < l->n; i++) {
    const conform_record *r = &l->v[i];
    fprintf(f, "<tr class=\"%s\"><td>", vclass(r->verdict));
    xml_esc(f, r->id);
    fprintf(f, "</td><td>%s</td><td>", conform_verdict_name(r->verdict));
    xml_esc(f, r->op);
    fprintf(f, "</td><td>");
    xml_esc(f, r->dtype);
    fprintf(f, "</td><td>");
    xml_esc(f, r->mode);
    fprintf(f, "</td><td>");
    xml_esc(f, r->output);
    fprintf(f,
            " %s</td><td class=\"num\">%.9g</td><td class=\"num\">%.9g</td><td class=\"num\">%.3g</td>"
            "<td class=\"num\">%.3g</td><td class=\"num\">%.3g</td><td>",
            r->worst_at, r->worst_got, r->worst_ref, r->worst_bound, r->max_ratio, r->max_ulp);
    svg_hist(f, r->hist, 120, 24);
    fprintf(f, "</td><td class=\"num\">%.2f</td><td class=\"reason\">", r->seconds);
    xml_esc(f, r->verdict == CONFORM_V_XFAIL ? r->expected_reason : r->reason);
    if (r->localized[0]) {
      fprintf(f, "<br><b>localised:</b> ");
      xml_esc(f, r->localized);
    }
    fprintf(f, "</td></tr>\n");
  }
  fprintf(f, "</table></div>\n</body></html>\n");
  st = close_out(f, path, err);
  f = NULL;
fail:
  if (f) fclose(f);
  ir_free(ops, sizeof *ops * ((size_t)l->n + 1));
  ir_free(dts, sizeof *dts * ((size_t)l->n + 1));
  return st;
}

ttref_status conform_report_write(const char *dir, const conform_record_list *recs, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  env e;
  tally t;
  load_env(dir, &e);
  count(recs, &t);
  TRY(write_json(dir, recs, &e, &t, err));
  TRY(write_junit(dir, recs, &e, &t, err));
  TRY(write_tap(dir, recs, err));
  TRY(write_md(dir, recs, &e, &t, err));
  TRY(write_html(dir, recs, &e, &t, err));
fail:
  return st;
}

/* Shards of a `--mutants` run (each has mutants.list, the same one): score the merged records. */
static ttref_status merge_mutants(const char *const *dirs, int ndirs, const char *out, const conform_record_list *all,
                                  ttref_error *err)
{
  ttref_status st = TTREF_OK;
  char path[4200];
  char *first = NULL, *text = NULL;
  size_t flen = 0, len = 0;
  int ids[CONFORM_MUTANT_COUNT + 1], n = 0;
  double score;
  snprintf(path, sizeof path, "%s/mutants.list", dirs[0]);
  if (!ir_fs_exists(path)) goto fail;
  TRY(ir_fs_read_file(path, &first, &flen, err));
  for (int i = 1; i < ndirs; i++) {
    snprintf(path, sizeof path, "%s/mutants.list", dirs[i]);
    if (!ir_fs_exists(path))
      FAIL(IR_ERR(err, TTREF_E_INPUT, (ttref_loc){0}, "'%s' is not a --mutants run like '%s'", dirs[i], dirs[0]));
    TRY(ir_fs_read_file(path, &text, &len, err));
    if (len != flen || memcmp(text, first, len) != 0)
      FAIL(IR_ERR(err, TTREF_E_INPUT, (ttref_loc){0}, "'%s' ran other mutants than '%s'", dirs[i], dirs[0]));
    ir_free(text, len + 1);
    text = NULL;
  }
  for (char *p = first; *p;) {
    size_t l = strcspn(p, "\n");
    char name[64];
    snprintf(name, sizeof name, "%.*s", (int)(l < 63 ? l : 63), p);
    if (l && n < CONFORM_MUTANT_COUNT && !conform_mutant_lookup(name, &ids[n++]))
      FAIL(IR_ERR(err, TTREF_E_INPUT, (ttref_loc){0}, "%s/mutants.list: unknown mutant '%s'", dirs[0], name));
    p += l;
    if (*p) p++;
  }
  TRY(ir_fs_write_file_in(out, "mutants.list", first, flen, err));
  TRY(conform_mutant_report(out, "the merged shards", ids, n, all, stdout, &score, err));
fail:
  if (first) ir_free(first, flen + 1);
  if (text) ir_free(text, len + 1);
  return st;
}

/* the identity of a shard (run.json) */
typedef struct shard_id {
  char backend[256], config[80], suite[256], ttref[64], shard[64];
  int i, n;
} shard_id;

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Append "what" to the mixed label, or fail when mixes are not allowed. */
static ttref_status mixed(char *label, size_t n, bool allow, const char *what, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  if (!allow)
    FAIL(IR_ERR(err, TTREF_E_INPUT, (ttref_loc){0},
                "report merge: %s; refusing to merge (--allow-mixed merges and labels it)", what));
  size_t l = strlen(label);
  if (l < n) snprintf(label + l, n - l, "%s%s", l ? "; " : "", what);
fail:
  return st;
}

ttref_status conform_report_merge(const char *const *dirs, int ndirs, const char *out, bool allow_mixed,
                                  int *out_unexpected, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  conform_record_list all = {0};
  char path[4200], *text = NULL, label[600] = "", what[1200];
  size_t tlen = 0;
  ir_fs_atomic ja = {0};
  FILE *jf = NULL;
  shard_id *ids = ir_calloc((size_t)ndirs + 1, sizeof *ids);
  const char **rid = NULL;
  char *seen = NULL;
  int nseen = 0, n = 0;
  *out_unexpected = 0;
  if (!ids) FAIL(IR_ERR(err, TTREF_E_NOMEM, (ttref_loc){0}, "out of memory"));
  for (int i = 0; i < ndirs; i++) {
    shard_id *d = &ids[i];
    snprintf(path, sizeof path, "%s/journal.jsonl", dirs[i]);
    if (!ir_fs_exists(path)) FAIL(IR_ERR(err, TTREF_E_INPUT, (ttref_loc){0}, "'%s' has no journal.jsonl", dirs[i]));
    TRY(conform_journal_read(path, false, &all, err));
    snprintf(path, sizeof path, "%s/run.json", dirs[i]);
    if (!ir_fs_exists(path)) {
      snprintf(what, sizeof what, "'%s' has no run.json, so its backend, config and shard are unknown", dirs[i]);
      TRY(mixed(label, sizeof label, allow_mixed, what, err));
      d->i = -1;
      continue;
    }
    TRY(ir_fs_read_regular(path, &text, &tlen, err));
    json_get(text, "backend_spec", d->backend, sizeof d->backend);
    if (!d->backend[0]) json_get(text, "backend", d->backend, sizeof d->backend);
    json_get(text, "config_sha256", d->config, sizeof d->config);
    if (!d->config[0]) json_get(text, "config", d->config, sizeof d->config);
    json_get(text, "suite_name", d->suite, sizeof d->suite);
    if (!d->suite[0]) json_get(text, "suite", d->suite, sizeof d->suite);
    json_get(text, "ttref_version", d->ttref, sizeof d->ttref);
    json_get(text, "shard", d->shard, sizeof d->shard);
    if (sscanf(d->shard, "%d/%d", &d->i, &d->n) != 2 || d->n < 1 || d->i < 0 || d->i >= d->n) d->i = -1, d->n = 0;
    ir_free(text, tlen + 1);
    text = NULL;
  }
  /* identity: every shard of the first's backend, config, suite and ttref version */
  for (int i = 1; i < ndirs; i++) {
    const shard_id *a = &ids[0], *b = &ids[i];
    const char *fa[] = {a->backend, a->config, a->suite, a->ttref}, *fb[] = {b->backend, b->config, b->suite, b->ttref};
    const char *names[] = {"backend", "config", "suite", "ttref version"};
    for (int k = 0; k < 4; k++)
      if (a->i >= 0 && b->i >= 0 && strcmp(fa[k], fb[k]) != 0) {
        snprintf(what, sizeof what, "%s differs: '%.200s' in %.200s, '%.200s' in %.200s", names[k], fa[k], dirs[0],
                 fb[k], dirs[i]);
        TRY(mixed(label, sizeof label, allow_mixed, what, err));
      }
  }
  /* completeness: shards 0..N-1 of one split, each once */
  n = ids[0].i >= 0 ? ids[0].n : 0;
  for (int i = 0; i < ndirs; i++)
    if (ids[i].i >= 0 && ids[0].i >= 0 && ids[i].n != ids[0].n) {
      snprintf(what, sizeof what, "shards of different splits: %s is shard %s, %s is shard %s", dirs[0], ids[0].shard,
               dirs[i], ids[i].shard);
      TRY(mixed(label, sizeof label, allow_mixed, what, err));
      n = 0;
    }
  if (n > 0) {
    seen = ir_calloc((size_t)n + 1, 1);
    if (!seen) FAIL(IR_ERR(err, TTREF_E_NOMEM, (ttref_loc){0}, "out of memory"));
    for (int i = 0; i < ndirs; i++) {
      if (ids[i].i < 0) continue;
      if (seen[ids[i].i]) /* the same shard twice: its items would count twice, never allowed */
        FAIL(IR_ERR(err, TTREF_E_INPUT, (ttref_loc){0},
                    "report merge: shard %s is given twice (%s and another directory)", ids[i].shard, dirs[i]));
      seen[ids[i].i] = 1;
      nseen++;
    }
    if (nseen < n) {
      size_t l = (size_t)snprintf(what, sizeof what, "incomplete: %d of %d shards, missing", nseen, n);
      for (int k = 0; k < n && l < sizeof what; k++)
        if (!seen[k]) l += (size_t)snprintf(what + l, sizeof what - l, " %d/%d", k, n);
      TRY(mixed(label, sizeof label, allow_mixed, what, err));
    }
  }
  /* no item twice (overlapping shards, or one run given twice under two names) */
  rid = ir_calloc((size_t)all.n + 1, sizeof *rid);
  if (!rid) FAIL(IR_ERR(err, TTREF_E_NOMEM, (ttref_loc){0}, "out of memory"));
  for (int i = 0; i < all.n; i++) rid[i] = all.v[i].id;
  if (all.n > 1) qsort(rid, (size_t)all.n, sizeof *rid, cmp_str);
  for (int i = 1; i < all.n; i++)
    if (strcmp(rid[i - 1], rid[i]) == 0)
      FAIL(IR_ERR(err, TTREF_E_INPUT, (ttref_loc){0}, "report merge: item %s is in more than one shard", rid[i]));
  TRY(ir_fs_mkdirs(out, NULL, err));
  { /* run.json of the merged run: the first shard's, with the shard field saying what was merged */
    env e;
    load_env(dirs[0], &e);
    char shard[64], spec[256], joined[4400], absout[4096];
    if (e.suite[0] && e.suite[0] != '/' && realpath(out, absout)) { /* relative to the first shard: now to OUT */
      snprintf(joined, sizeof joined, "%s/%s", dirs[0], e.suite);
      ir_fs_relpath(absout, joined, e.suite, sizeof e.suite);
    }
    if (n > 0 && nseen == n) snprintf(shard, sizeof shard, "all %d of %d (merged)", n, n);
    else snprintf(shard, sizeof shard, "%d directories (merged)", ndirs);
    snprintf(spec, sizeof spec, "%s", ids[0].backend);
    ir_fs_atomic ra;
    snprintf(path, sizeof path, "%s/run.json", out);
    TRY(ir_fs_atomic_open(path, &ra, err));
    FILE *f = ra.f;
    fprintf(f, "{\"backend\": ");
    conform_json_str(f, e.backend);
    fprintf(f, ", \"backend_spec\": ");
    conform_json_str(f, spec);
    fprintf(f, ", \"backend_version\": ");
    conform_json_str(f, e.version);
    fprintf(f, ", \"device\": ");
    conform_json_str(f, e.device);
    fprintf(f, ", \"ttref_version\": ");
    conform_json_str(f, e.ttref);
    fprintf(f, ", \"semantics_version\": 1, \"suite\": ");
    conform_json_str(f, e.suite);
    fprintf(f, ", \"suite_name\": ");
    conform_json_str(f, ids[0].suite);
    fprintf(f, ", \"config_sha256\": ");
    conform_json_str(f, ids[0].config);
    fprintf(f, ", \"shard\": ");
    conform_json_str(f, shard);
    fprintf(f, ", \"mixed\": ");
    conform_json_str(f, label);
    fprintf(f, ", \"started\": ");
    conform_json_str(f, e.started);
    fprintf(f, "}\n");
    TRY(ir_fs_atomic_commit(&ra, err));
  }
  snprintf(path, sizeof path, "%s/journal.jsonl", out);
  TRY(ir_fs_atomic_open(path, &ja, err)); /* the merged journal replaces the old one whole, or not at all */
  jf = ja.f;
  for (int i = 0; i < all.n; i++) {
    conform_record_write_json(jf, &all.v[i]);
    if (conform_verdict_unexpected(all.v[i].verdict)) (*out_unexpected)++;
  }
  jf = NULL;
  TRY(ir_fs_atomic_commit(&ja, err));
  TRY(conform_report_write(out, &all, err));
  TRY(merge_mutants(dirs, ndirs, out, &all, err));
  if (label[0]) fprintf(stderr, "warning: merged a mixed run: %s\n", label);
fail:
  ir_fs_atomic_abort(&ja);
  if (text) ir_free(text, tlen + 1);
  ir_free(rid, sizeof *rid * ((size_t)all.n + 1));
  ir_free(seen, (size_t)(n > 0 ? n : 0) + 1);
  ir_free(ids, sizeof *ids * ((size_t)ndirs + 1));
  conform_record_list_free(&all);
  return st;
}
