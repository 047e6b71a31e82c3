/*
 * conform_journal.c: result records as flat JSON lines, and the append-only
 * journal that makes runs resumable: a record is complete when its newline
 * is on disk (fsync after every line).
 */
#define _GNU_SOURCE /* truncate, fileno, fsync under -std=c11 */
#include "config.h"
#include "conform_journal.h"
#include "ir_base_fs.h"
#include "ir_base.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void conform_record_init(conform_record *r)
{
  memset(r, 0, sizeof *r);
  r->worst_index = -1;
  r->verdict = r->raw = CONFORM_V_ERROR;
}

void conform_json_str(FILE *f, const char *s)
{
  fputc('"', f);
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    if (*p == '"' || *p == '\\') fprintf(f, "\\%c", *p);
    else if (*p == '\n') fputs("\\n", f);
    else if (*p == '\t') fputs("\\t", f);
    else if (*p < 0x20) fprintf(f, "\\u%04x", *p);
    else fputc(*p, f);
  }
  fputc('"', f);
}

void conform_json_num(FILE *f, double v)
{
  if (isfinite(v)) fprintf(f, "%.17g", v);
  else fputs("null", f);
}

/* One table drives both writing and parsing (the record's JSON keys). */
enum fkind { F_STR, F_NUM, F_INT, F_VERDICT, F_HIST, F_OPT_STR /* written only when not empty */ };
typedef struct field {
  const char *key;
  enum fkind kind;
  size_t off, size;
} field;

#define FS(k, m)                                                                                                       \
  {                                                                                                                    \
    k, F_STR, offsetof(conform_record, m), sizeof(((conform_record *)0)->m)                                            \
  }
#define FN(k, m)                                                                                                       \
  {                                                                                                                    \
    k, F_NUM, offsetof(conform_record, m), 0                                                                           \
  }
#define FI(k, m)                                                                                                       \
  {                                                                                                                    \
    k, F_INT, offsetof(conform_record, m), 0                                                                           \
  }
static const field fields[] = {
    FS("id", id),
    FS("case", case_name),
    FS("variant", variant),
    FS("op", op),
    FS("dtype", dtype),
    FS("kernel", kernel),
    FS("tags", tags),
    FS("constexprs", constexprs),
    {"verdict", F_VERDICT, offsetof(conform_record, verdict), 0},
    {"raw_verdict", F_VERDICT, offsetof(conform_record, raw), 0},
    FS("mode", mode),
    FS("output", output),
    FI("worst_index", worst_index),
    FS("worst_at", worst_at),
    FN("worst_got", worst_got),
    FN("worst_ref", worst_ref),
    FN("worst_bound", worst_bound),
    FN("worst_err", worst_err),
    FN("max_ratio", max_ratio),
    FN("mean_ulp", mean_ulp),
    FN("max_ulp", max_ulp),
    FN("p99_ulp", p99_ulp),
    FN("seconds", seconds),
    {"ulp_histogram", F_HIST, offsetof(conform_record, hist), 0},
    FS("reason", reason),
    FS("expected_reason", expected_reason),
    FS("localized_op", localized_op),
    FS("localized_at", localized_at),
    FS("localized", localized),
    {"mutants", F_OPT_STR, offsetof(conform_record, mutants), sizeof(((conform_record *)0)->mutants)},
};
#define NFIELDS ((int)(sizeof fields / sizeof fields[0]))

void conform_record_write_json(FILE *f, const conform_record *r)
{
  const char *base = (const char *)r;
  fputc('{', f);
  for (int i = 0; i < NFIELDS; i++) {
    const field *fd = &fields[i];
    if (fd->kind == F_OPT_STR && !base[fd->off]) continue;
    fprintf(f, "%s\"%s\": ", i ? ", " : "", fd->key);
    switch (fd->kind) {
    case F_OPT_STR:
    case F_STR: conform_json_str(f, base + fd->off); break;
    case F_NUM: conform_json_num(f, *(const double *)(const void *)(base + fd->off)); break;
    case F_INT: fprintf(f, "%lld", (long long)*(const int64_t *)(const void *)(base + fd->off)); break;
    case F_VERDICT:
      conform_json_str(f, conform_verdict_name(*(const conform_verdict *)(const void *)(base + fd->off)));
      break;
    case F_HIST:
      fputc('[', f);
      for (int k = 0; k < CONFORM_HIST_BINS; k++) fprintf(f, "%s%lld", k ? ", " : "", (long long)r->hist[k]);
      fputc(']', f);
      break;
    }
  }
  fputs("}\n", f);
}

/* ---- a parser for the flat objects written above --------------------------------- */

typedef struct jp {
  const char *p, *end;
} jp;

static void ws(jp *j)
{
  while (j->p < j->end && isspace((unsigned char)*j->p)) j->p++;
}

static bool lit(jp *j, char c)
{
  ws(j);
  if (j->p < j->end && *j->p == c) {
    j->p++;
    return true;
  }
  return false;
}

/* string -> '"' chars '"' (escapes \" \\ \/ \n \t \r \b \f \uXXXX for ASCII) */
static bool jstring(jp *j, char *out, size_t n)
{
  size_t k = 0;
  if (!lit(j, '"')) return false;
  while (j->p < j->end && *j->p != '"') {
    char c = *j->p++;
    if (c == '\\') {
      if (j->p >= j->end) return false;
      char e = *j->p++;
      switch (e) {
      case 'n': c = '\n'; break;
      case 't': c = '\t'; break;
      case 'r': c = '\r'; break;
      case 'b': c = '\b'; break;
      case 'f': c = '\f'; break;
      case 'u': {
        if (j->end - j->p < 4) return false;
        char hex[5] = {j->p[0], j->p[1], j->p[2], j->p[3], 0};
        c = (char)strtol(hex, NULL, 16);
        j->p += 4;
        break;
      }
      default: c = e; break;
      }
    }
    if (k + 1 < n) out[k++] = c;
  }
  if (n) out[k] = 0;
  return lit(j, '"');
}

/* number -> JSON number | null (NaN) */
static bool jnumber(jp *j, double *v)
{
  ws(j);
  if (j->end - j->p >= 4 && strncmp(j->p, "null", 4) == 0) {
    j->p += 4;
    *v = (double)NAN;
    return true;
  }
  char buf[64];
  size_t k = 0;
  while (j->p < j->end && k < sizeof buf - 1 && strchr("+-0123456789.eE", *j->p)) buf[k++] = *j->p++;
  buf[k] = 0;
  char *e;
  *v = strtod(buf, &e);
  return k > 0 && *e == 0;
}

ttref_status conform_record_parse_json(const char *line, size_t len, conform_record *r, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  ttref_loc none = {0};
  jp j = {line, line + len};
  char key[64], sval[512];
  conform_record_init(r);
  char *base = (char *)r;
  if (!lit(&j, '{')) FAIL(IR_ERR(err, TTREF_E_INPUT, none, "journal record is not a JSON object"));
  if (lit(&j, '}')) goto fail;
  do {
    if (!jstring(&j, key, sizeof key) || !lit(&j, ':'))
      FAIL(IR_ERR(err, TTREF_E_INPUT, none, "malformed journal record"));
    const field *fd = NULL;
    for (int i = 0; i < NFIELDS; i++)
      if (strcmp(fields[i].key, key) == 0) fd = &fields[i];
    if (!fd) FAIL(IR_ERR(err, TTREF_E_INPUT, none, "unknown journal key '%s'", key));
    double v;
    switch (fd->kind) {
    case F_OPT_STR:
    case F_STR:
      if (!jstring(&j, base + fd->off, fd->size)) FAIL(IR_ERR(err, TTREF_E_INPUT, none, "bad string for '%s'", key));
      break;
    case F_VERDICT:
      if (!jstring(&j, sval, sizeof sval) || !conform_verdict_lookup(sval, (conform_verdict *)(void *)(base + fd->off)))
        FAIL(IR_ERR(err, TTREF_E_INPUT, none, "bad verdict for '%s'", key));
      break;
    case F_NUM:
      if (!jnumber(&j, &v)) FAIL(IR_ERR(err, TTREF_E_INPUT, none, "bad number for '%s'", key));
      *(double *)(void *)(base + fd->off) = v;
      break;
    case F_INT:
      if (!jnumber(&j, &v)) FAIL(IR_ERR(err, TTREF_E_INPUT, none, "bad number for '%s'", key));
      *(int64_t *)(void *)(base + fd->off) = isnan(v) ? -1 : (int64_t)v;
      break;
    case F_HIST:
      if (!lit(&j, '[')) FAIL(IR_ERR(err, TTREF_E_INPUT, none, "bad histogram"));
      for (int k = 0; k < CONFORM_HIST_BINS; k++) {
        if ((k && !lit(&j, ',')) || !jnumber(&j, &v)) FAIL(IR_ERR(err, TTREF_E_INPUT, none, "bad histogram"));
        r->hist[k] = (int64_t)v;
      }
      if (!lit(&j, ']')) FAIL(IR_ERR(err, TTREF_E_INPUT, none, "bad histogram"));
      break;
    }
  } while (lit(&j, ','));
  if (!lit(&j, '}')) FAIL(IR_ERR(err, TTREF_E_INPUT, none, "malformed journal record"));
  if (!r->id[0]) FAIL(IR_ERR(err, TTREF_E_INPUT, none, "journal record without an id"));
fail:
  return st;
}

ttref_status conform_record_list_add(conform_record_list *l, const conform_record *r, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  ttref_loc none = {0};
  for (int i = 0; i < l->n; i++)
    if (strcmp(l->v[i].id, r->id) == 0) {
      l->v[i] = *r;
      goto fail;
    }
  if (l->n == l->cap) {
    int ncap = l->cap ? l->cap * 2 : 64;
    conform_record *nv = ir_realloc(l->v, sizeof *l->v * (size_t)l->cap, sizeof *l->v * (size_t)ncap);
    if (!nv) FAIL(IR_ERR(err, TTREF_E_NOMEM, none, "out of memory"));
    l->v = nv;
    l->cap = ncap;
  }
  l->v[l->n++] = *r;
fail:
  return st;
}

void conform_record_list_free(conform_record_list *l)
{
  if (!l) return;
  ir_free(l->v, sizeof *l->v * (size_t)l->cap);
  memset(l, 0, sizeof *l);
}

ttref_status conform_journal_read(const char *path, bool repair, conform_record_list *out, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  char *buf = NULL;
  size_t len = 0, pos = 0;
  conform_record *r = ir_alloc(sizeof *r);
  if (!r) FAIL(IR_ERR(err, TTREF_E_NOMEM, (ttref_loc){0}, "out of memory"));
  if (!ir_fs_exists(path)) goto fail;
  TRY(ir_fs_read_regular(path, &buf, &len, err));
  while (pos < len) {
    char *nl = memchr(buf + pos, '\n', len - pos);
    if (!nl) { /* torn last line: the run died mid-write */
      if (repair && truncate(path, (off_t)pos) != 0)
        FAIL(IR_ERR(err, TTREF_E_IO, (ttref_loc){0}, "cannot repair '%s': %s", path, strerror(errno)));
      break;
    }
    size_t l = (size_t)(nl - (buf + pos));
    if (l > 0) {
      ttref_error perr = {0};
      if (conform_record_parse_json(buf + pos, l, r, &perr) != TTREF_OK)
        FAIL(ir_error_set(err, TTREF_E_INPUT, (ttref_loc){0}, "%s: %s", path, perr.msg));
      TRY(conform_record_list_add(out, r, err));
    }
    pos += l + 1;
  }
fail:
  if (buf) ir_free(buf, len + 1);
  ir_free(r, sizeof *r);
  return st;
}

ttref_status conform_journal_append(FILE *f, const conform_record *r, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  /* every byte of a record becomes at most 6 ("\u00XX"): the line fits in 8x the record */
  const size_t cap = sizeof *r * 8 + 4096;
  char *line = ir_alloc(cap);
  size_t len = 0;
  struct stat sb;
  int fd = fileno(f);
  FILE *m = line ? fmemopen(line, cap, "w") : NULL;
  if (!m) FAIL(IR_ERR(err, TTREF_E_NOMEM, (ttref_loc){0}, "out of memory"));
  conform_record_write_json(m, r);
  long pos = ftell(m);
  fclose(m);
  if (pos <= 0 || (size_t)pos >= cap - 1)
    FAIL(IR_ERR(err, TTREF_E_INTERNAL, (ttref_loc){0}, "journal record too long"));
  len = (size_t)pos;
  if (fflush(f) != 0 || fstat(fd, &sb) != 0)
    FAIL(IR_ERR(err, TTREF_E_IO, (ttref_loc){0}, "cannot write the journal: %s", strerror(errno)));
  if (ir_fs_write_all(fd, line, len) != TTREF_OK) {
    int e = errno;
    if (ftruncate(fd, sb.st_size) != 0) {} /* cut the torn part; --resume repairs it otherwise */
    FAIL(IR_ERR(err, TTREF_E_IO, (ttref_loc){0}, "cannot write the journal: %s", strerror(e)));
  }
  if (fsync(fd) != 0) FAIL(IR_ERR(err, TTREF_E_IO, (ttref_loc){0}, "cannot write the journal: %s", strerror(errno)));
fail:
  ir_free(line, cap);
  return st;
}

bool conform_record_is_harness_error(const conform_record *r)
{
  static const char *const prefixes[] = {"harness", "staging the case", "the reference run failed",
                                         "running the backend:"};
  if (r->raw != CONFORM_V_ERROR) return false;
  for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++)
    if (strncmp(r->reason, prefixes[i], strlen(prefixes[i])) == 0) return true;
  return false;
}

void conform_json_get(const char *json, const char *key, char *out, size_t n)
{
  char pat[96];
  out[0] = 0;
  snprintf(pat, sizeof pat, "\"%s\": \"", key);
  const char *p = json ? strstr(json, pat) : NULL;
  if (!p) return;
  p += strlen(pat);
  size_t k = 0;
  while (*p && *p != '"' && k + 1 < n) {
    if (*p == '\\' && p[1]) p++;
    out[k++] = *p++;
  }
  out[k] = 0;
}
