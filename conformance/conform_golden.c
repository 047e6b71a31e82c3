/*
 * conform_golden.c: golden generation and verification. Each item is staged
 * (inputs from its recipes), run by `ttref run [--precise]`, and its judged
 * outputs are copied to DIR/CASE/VARIANT/; MANIFEST lines are sorted so the
 * file itself is deterministic.
 */
#define _GNU_SOURCE /* getpid under -std=c11 */
#include "config.h"
#include "conform_golden.h"
#include "conform_judge.h"
#include "conform_sha256.h"
#include "conform_stage.h"
#include "conform_suite.h"
#include "conform_sys.h"
#include "ir_base_fs.h"
#include "conform_config.h"

#include <errno.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int cmp_line(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Hash @p path and add "KIND SHA  REL" to @p l. */
static ttref_status manifest_add(ir_strs *l, const char *kind, const char *path, const char *rel, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  char hex[65], line[9200];
  TRY(conform_sha256_file(path, hex, err));
  snprintf(line, sizeof line, "%s %s  %s", kind, hex, rel);
  TRY(ir_strs_add(l, line, err));
fail:
  return st;
}

/* Store @p src content-addressed as OUT/blobs/SHA.EXT (once: identical content is kept once) and
   give its sha256 in @p hex; a new blob gets a "blob" MANIFEST line. */
static ttref_status blob_add(ir_strs *l, const char *out, const char *src, const char *ext, char hex[65],
                             ttref_error *err)
{
  ttref_status st = TTREF_OK;
  char rel[200], dst[4400];
  TRY(conform_sha256_file(src, hex, err));
  snprintf(rel, sizeof rel, "blobs/%s%s", hex, ext);
  snprintf(dst, sizeof dst, "%s/%s", out, rel);
  if (ir_fs_exists(dst)) goto fail;
  TRY(ir_fs_copy_file_in(src, out, rel, err));
  TRY(manifest_add(l, "blob", dst, rel, err));
fail:
  return st;
}

/*
 * The item's launch as CASE/VARIANT/case.yaml: the staged case.yaml with the
 * kernel and inputs pointing into blobs/ and the outputs at the golden files,
 * so `ttref run --launch CASE/VARIANT/case.yaml` replays it from the golden
 * directory alone. Its MANIFEST lines: launch, kernel (and traced) and input.
 */
static ttref_status write_launch(ir_strs *man, const char *out, const conform_case *c, const conform_spec *sp,
                                 const char *dir, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  char src[9000], rel[4400], hex[65], khex[65], fhex[65] = "", line[9300], *text = NULL;
  size_t len = 0, cap = 0, used = 0;
  char *buf = NULL;
  snprintf(src, sizeof src, "%s/kernel.ttir", dir);
  TRY(blob_add(man, out, src, ".ttir", khex, err));
  snprintf(rel, sizeof rel, "%s/%s/kernel.ttir", c->name, sp->variant_key);
  snprintf(line, sizeof line, "kernel %s  %s", khex, rel);
  TRY(ir_strs_add(man, line, err));
  snprintf(src, sizeof src, "%s/kernel.fx", dir);
  if (sp->lowered && ir_fs_exists(src)) {
    TRY(blob_add(man, out, src, ".fx", fhex, err));
    snprintf(rel, sizeof rel, "%s/%s/kernel.fx", c->name, sp->variant_key);
    snprintf(line, sizeof line, "kernel %s  %s", fhex, rel);
    TRY(ir_strs_add(man, line, err));
  }
  snprintf(src, sizeof src, "%s/case.yaml", dir);
  TRY(ir_fs_read_regular(src, &text, &len, err));
  cap = len * 2 + 4096;
  buf = ir_alloc(cap);
  if (!buf) FAIL(IR_ERR(err, TTREF_E_NOMEM, (ttref_loc){0}, "out of memory"));
  used = (size_t)snprintf(buf, cap,
                          "# golden launch: `ttref run --launch %s/%s/case.yaml --out DIR` recomputes the outputs;\n"
                          "# the kernel and inputs are content-addressed under ../../blobs (MANIFEST)\n",
                          c->name, sp->variant_key);
  for (char *p = text, *nl; p < text + len; p = nl + 1) {
    nl = strchr(p, '\n');
    if (!nl) nl = text + len;
    *nl = 0;
    const char *name;
    if (strcmp(p, "kernel: kernel.ttir") == 0) snprintf(line, sizeof line, "kernel: ../../blobs/%s.ttir", khex);
    else if (strcmp(p, "traced: kernel.fx") == 0 && fhex[0])
      snprintf(line, sizeof line, "traced: ../../blobs/%s.fx", fhex);
    else if (strncmp(p, "    file: inputs/", 17) == 0) {
      name = p + 17;
      snprintf(src, sizeof src, "%s/inputs/%s", dir, name);
      TRY(blob_add(man, out, src, ".npy", hex, err));
      snprintf(line, sizeof line, "    file: ../../blobs/%s.npy", hex);
    } else if (strncmp(p, "    file: outputs/", 18) == 0) snprintf(line, sizeof line, "    file: %s", p + 18);
    else snprintf(line, sizeof line, "%s", p);
    size_t l = strlen(line);
    if (used + l + 2 > cap)
      FAIL(IR_ERR(err, TTREF_E_INTERNAL, (ttref_loc){0}, "case.yaml of %s grew too long", c->name));
    memcpy(buf + used, line, l);
    used += l;
    buf[used++] = '\n';
  }
  snprintf(rel, sizeof rel, "%s/%s/case.yaml", c->name, sp->variant_key);
  TRY(ir_fs_write_file_in(out, rel, buf, used, err));
  snprintf(src, sizeof src, "%s/%s", out, rel);
  TRY(manifest_add(man, "launch", src, rel, err));
fail:
  if (text) ir_free(text, len + 1);
  if (buf) ir_free(buf, cap);
  return st;
}

/*
 * A hashes-only directory keeps one line per item: "item SHA  CASE/VARIANT", SHA the sha256 of
 * the item's sorted full MANIFEST lines ("KIND SHA  REL\n" each; blob lines, which repeat an
 * input's or kernel's hash, left out). Folds lines @p first.. of @p man (case @p cname) in place.
 */
static ttref_status fold_items(ir_strs *man, int first, const char *cname, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  ir_strs items = {0}; /* "CASE/VARIANT" of each line, in order of first appearance */
  const size_t cl = strlen(cname);
  if (man->n - first > 1)
    qsort(man->v + first, (size_t)(man->n - first), sizeof *man->v, cmp_line); /* v may be NULL when empty */
  for (int i = first; i < man->n; i++) {
    const char *rel = strstr(man->v[i], "  ");
    if (!rel || strncmp(man->v[i], "blob ", 5) == 0) continue;
    rel += 2;
    const char *vs = strncmp(rel, cname, cl) == 0 && rel[cl] == '/' ? strchr(rel + cl + 1, '/') : NULL;
    if (!vs)
      FAIL(IR_ERR(err, TTREF_E_INTERNAL, (ttref_loc){0}, "golden line '%.200s' is not below %s/", man->v[i], cname));
    char key[600];
    snprintf(key, sizeof key, "%.*s", (int)(vs - rel), rel);
    bool seen = false;
    for (int k = 0; k < items.n && !seen; k++) seen = strcmp(items.v[k], key) == 0;
    if (!seen) TRY(ir_strs_add(&items, key, err));
  }
  const int nold = man->n;
  for (int k = 0; k < items.n; k++) {
    conform_sha256 h;
    uint8_t d[32];
    char line[800], hex[65];
    const size_t kl = strlen(items.v[k]);
    conform_sha256_init(&h);
    for (int i = first; i < nold; i++) {
      const char *rel = strstr(man->v[i], "  ");
      if (!rel || strncmp(man->v[i], "blob ", 5) == 0 || strncmp(rel + 2, items.v[k], kl) != 0 || rel[2 + kl] != '/')
        continue;
      conform_sha256_update(&h, man->v[i], strlen(man->v[i]));
      conform_sha256_update(&h, "\n", 1);
    }
    conform_sha256_final(&h, d);
    for (int b = 0; b < 32; b++) snprintf(hex + 2 * b, 3, "%02x", d[b]);
    snprintf(line, sizeof line, "item %s  %s", hex, items.v[k]);
    TRY(ir_strs_add(man, line, err));
  }
  /* drop the folded lines: move the item lines down over them */
  for (int i = first; i < nold; i++) ir_free(man->v[i], strlen(man->v[i]) + 1);
  for (int i = nold; i < man->n; i++) man->v[first + i - nold] = man->v[i];
  man->n = first + (man->n - nold);
fail:
  ir_strs_free(&items);
  return st;
}

static const char *dst_of(char *buf, size_t n, const char *out, const char *name)
{
  snprintf(buf, n, "%s/%s", out, name);
  return buf;
}

/* Generate into @p out; count reference failures in *nfail. */
static ttref_status generate(const char *suite_path, unsigned flags, const char *out, const char *filter, int *nfail,
                             ttref_error *err)
{
  ttref_status st = TTREF_OK;
  conform_suite *s = NULL;
  conform_pattern re = {0};
  ir_strs man = {0};
  char stage[4200], dst[9000], src[9000], rel[9000], line[512];
  FILE *f = NULL;
  int nmatched = 0;
  const bool hashes = flags & CONFORM_GOLDEN_HASHES_ONLY;
  *nfail = 0;
  TRY(conform_suite_load_flags(suite_path, flags & ~CONFORM_GOLDEN_HASHES_ONLY, &s, err));
  if (filter) TRY(conform_pattern_compile(filter, "--filter", &re, err));
  /* OUT is the user's; everything below it is walked without following a link */
  TRY(ir_fs_mkdirs(out, NULL, err));
  snprintf(stage, sizeof stage, "%s/.stage", out);
  TRY(ir_fs_rmtree_in(out, ".stage", err));
  TRY(ir_fs_mkdirs_in(out, "blobs", err));
  for (int i = 0; i < s->ncases; i++) {
    const conform_case *c = &s->cases[i];
    const int case_first = man.n; /* this case's MANIFEST lines start here */
    for (int k = 0; k < c->nspecs; k++) {
      const conform_spec *sp = &c->specs[k];
      char id[300], dir[4300], refdir[4400];
      conform_exit ex;
      conform_case_id(c, sp, id, sizeof id);
      if (filter && !conform_pattern_match(&re, id, c->name)) continue;
      nmatched++;
      snprintf(dir, sizeof dir, "%s/%s/%s", stage, c->name, sp->variant_key);
      snprintf(refdir, sizeof refdir, "%s/ref", dir);
      snprintf(rel, sizeof rel, ".stage/%s/%s", c->name, sp->variant_key);
      TRY(ir_fs_mkdirs_in(out, rel, err));
      TRY(conform_stage_case(c, sp, dir, err));
      const bool precise = conform_judge_case_wants_precise(c);
      TRY(conform_stage_reference(sp, dir, refdir, precise, false, 600, &ex, err));
      if (ex.kind != CONFORM_EXITED || ex.code != 0) {
        size_t most = 4096; /* a full disk is the harness's failure (exit 2), not the reference's */
        for (int a = 0; a < sp->nargs; a++) {
          struct stat sb;
          snprintf(src, sizeof src, "%s/inputs/%s.npy", dir, sp->args[a].name);
          if (sp->args[a].is_ptr && stat(src, &sb) == 0 && (size_t)sb.st_size + 4096 > most)
            most = (size_t)sb.st_size + 4096;
        }
        ttref_error pe = {0};
        if (ir_fs_space_probe(dir, most, &pe) != TTREF_OK)
          FAIL(IR_ERR(err, TTREF_E_IO, (ttref_loc){0},
                      "%s: the reference run failed and the disk cannot take its outputs: %s", id,
                      strncmp(pe.msg, "error: ", 7) == 0 ? pe.msg + 7 : pe.msg));
        fprintf(stderr, "error: %s: the reference run failed; see %s.log\n", id, refdir);
        (*nfail)++;
        continue;
      }
      snprintf(rel, sizeof rel, "%s/%s", c->name, sp->variant_key);
      TRY(ir_fs_rmtree_in(out, rel, err));
      TRY(ir_fs_mkdirs_in(out, rel, err));
      const int first = man.n; /* this item's MANIFEST lines start here */
      for (int a = 0; a < sp->nargs; a++) {
        if (!sp->args[a].is_ptr) continue;
        snprintf(src, sizeof src, "%s/inputs/%s.npy", dir, sp->args[a].name);
        snprintf(rel, sizeof rel, "%s/%s/inputs/%s.npy", c->name, sp->variant_key, sp->args[a].name);
        TRY(manifest_add(&man, "input", src, rel, err)); /* stored at blobs/SHA.npy (write_launch) */
      }
      TRY(write_launch(&man, out, c, sp, dir, err));
      for (int o = 0; o < c->noutputs; o++) {
        static const char *const sfx[] = {"", ".precise", ".bound"};
        for (int q = 0; q < (precise ? 3 : 1); q++) {
          snprintf(src, sizeof src, "%s/%s%s.npy", refdir, c->outputs[o].name, sfx[q]);
          if (q && !ir_fs_exists(src)) continue; /* integer outputs have no precise values */
          snprintf(dst, sizeof dst, "%s/%s/%s/%s%s.npy", out, c->name, sp->variant_key, c->outputs[o].name, sfx[q]);
          snprintf(rel, sizeof rel, "%s/%s/%s%s.npy", c->name, sp->variant_key, c->outputs[o].name, sfx[q]);
          for (int m = first; m < man.n; m++) /* conform_suite refuses colliding names; never list a file twice */
            if (strcmp(strstr(man.v[m], "  ") + 2, rel) == 0)
              FAIL(IR_ERR(err, TTREF_E_INPUT, (ttref_loc){0}, "%s: two outputs write the golden file %s", id, rel));
          if (hashes) {
            TRY(manifest_add(&man, "file", src, rel, err));
            continue;
          }
          TRY(ir_fs_copy_file_in(src, out, rel, err));
          TRY(manifest_add(&man, "file", dst, rel, err));
        }
      }
    }
    if (hashes) TRY(fold_items(&man, case_first, c->name, err));
    if (hashes && ir_fs_exists(dst_of(dst, sizeof dst, out, c->name)))
      TRY(ir_fs_rmtree_in(out, c->name, err)); /* hashed above; the stored files are not kept */
  }
  TRY(ir_fs_rmtree_in(out, ".stage", err));
  if (hashes) TRY(ir_fs_rmtree_in(out, "blobs", err));
  if (filter && nmatched == 0)
    FAIL(IR_ERR(err, TTREF_E_USAGE, (ttref_loc){0},
                "--filter '%s' matches no item of %s (patterns: docs/suite-format.md, Item patterns)", filter,
                suite_path));
  if (man.n > 1) qsort(man.v, (size_t)man.n, sizeof *man.v, cmp_line);
  snprintf(dst, sizeof dst, "%s/MANIFEST", out);
  TRY(ir_fs_fopen_in(out, "MANIFEST", "w", &f, err));
  fprintf(f, "# ttref golden manifest: sha256 of every golden file and generated input.\n"
             "# file/launch/blob: files of this directory; input/kernel: an item's input or kernel, stored\n"
             "# at blobs/SHA.npy / blobs/SHA.ttir (docs/golden.md). Regenerate with `ttref golden SUITE --out DIR`;\n"
             "# check with `ttref golden SUITE --verify DIR`.\n");
  fprintf(f, "ttref-version %s\nsemantics-version %d\ngolden-format 2\n", ttref_version(), CONFORM_SEMANTICS_VERSION);
  if (hashes)
    fprintf(
        f,
        "# golden-store hashes: no file is stored; one `item SHA  CASE/VARIANT` line per item, the sha256 of\n"
        "# its sorted full lines except blob lines (docs/cli.md); `ttref golden SUITE --out DIR` remakes the files.\n"
        "golden-store hashes\n");
  snprintf(line, sizeof line, "suite %s", s->name);
  fprintf(f, "%s\n", line);
  for (int i = 0; i < man.n; i++) fprintf(f, "%s\n", man.v[i]);
  if (ferror(f) | (fclose(f) != 0)) {
    f = NULL;
    FAIL(IR_ERR(err, TTREF_E_IO, (ttref_loc){0}, "cannot write '%s': %s", dst, strerror(errno)));
  }
  f = NULL;
fail:
  if (f) fclose(f);
  conform_pattern_free(&re);
  ir_strs_free(&man);
  conform_suite_free(s);
  return st;
}

ttref_status conform_golden_write(const char *suite, unsigned flags, const char *out, const char *filter,
                                  ttref_error *err)
{
  ttref_status st = TTREF_OK;
  int nfail = 0;
  char tmp[4200];
  /* build OUT.tmp.PID (no link followed below it) and rename it onto OUT only when complete:
     never a partial golden directory; links left in an old OUT are removed with it, never followed */
  ir_fs_dir_tmp(out, tmp, sizeof tmp);
  ir_fs_rmtree(tmp);
  TRY(generate(suite, flags, tmp, filter, &nfail, err));
  if (nfail)
    FAIL(IR_ERR(err, TTREF_E_FAULT, (ttref_loc){0}, "%d reference run(s) failed; nothing was written to '%s'", nfail,
                out));
  TRY(ir_fs_replace_dir(tmp, out, err));
fail:
  ir_fs_rmtree(tmp);
  return st;
}

/* Whether a MANIFEST path stays below the golden directory: relative, no "." or ".." component, no control character. */
static bool rel_inside(const char *rel)
{
  if (!*rel || *rel == '/') return false;
  for (const char *p = rel; *p;) {
    size_t n = strcspn(p, "/");
    if (n == 0 || (n == 1 && p[0] == '.') || (n == 2 && p[0] == '.' && p[1] == '.')) return false;
    for (size_t k = 0; k < n; k++)
      if ((unsigned char)p[k] < 0x20 || p[k] == 0x7f) return false;
    p += n;
    if (*p) p++;
  }
  return rel[strlen(rel) - 1] != '/';
}

/* MANIFEST lines "KIND SHA  REL" (and header lines) of @p path; a REL leaving the directory is refused. */
static ttref_status read_manifest(const char *path, ir_strs *out, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  char *buf = NULL;
  size_t len = 0;
  int line = 0;
  TRY(ir_fs_read_regular(path, &buf, &len, err));
  for (char *p = buf, *nl; p < buf + len; p = nl + 1) {
    nl = strchr(p, '\n');
    if (!nl) nl = buf + len;
    *nl = 0;
    line++;
    const char *sep = strstr(p, "  ");
    if (*p && *p != '#' && sep && !rel_inside(sep + 2))
      FAIL(ir_error_set(err, TTREF_E_INPUT, (ttref_loc){path, line, (int)(sep + 3 - p)},
                        "MANIFEST path leaves the golden directory (an absolute path or a '..' component)"));
    if (*p && *p != '#') TRY(ir_strs_add(out, p, err));
  }
fail:
  if (buf) ir_free(buf, len + 1);
  return st;
}

/* The length of "KIND " of a MANIFEST line naming a file stored in the directory (file, launch, blob), else 0. */
static int stored_kind(const char *line)
{
  static const char *const kinds[] = {"file ", "launch ", "blob "};
  for (int k = 0; k < 3; k++)
    if (strncmp(line, kinds[k], strlen(kinds[k])) == 0) return (int)strlen(kinds[k]);
  return 0;
}

/* Lines of golden format 2 (self-contained goldens) that a format-1 directory lacks. */
static bool format2_only(const char *line)
{
  return strncmp(line, "launch ", 7) == 0 || strncmp(line, "blob ", 5) == 0 || strncmp(line, "kernel ", 7) == 0 ||
         strcmp(line, "golden-format 2") == 0;
}

static const char *find_rel(const ir_strs *l, const char *rel)
{
  for (int i = 0; i < l->n; i++) {
    const char *sep = strstr(l->v[i], "  ");
    if (sep && strcmp(sep + 2, rel) == 0) return l->v[i];
  }
  return NULL;
}

ttref_status conform_golden_check(const char *dir, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  ttref_loc none = {0};
  ir_strs l = {0};
  char path[4400], first[600] = "";
  int bad = 0, sem = -1;
  snprintf(path, sizeof path, "%s/MANIFEST", dir);
  if (!ir_fs_exists(path))
    FAIL(IR_ERR(err, TTREF_E_INPUT, none,
                "golden directory '%s' has no MANIFEST (make one with `ttref golden SUITE --out %s`)", dir, dir));
  TRY(read_manifest(path, &l, err));
  for (int i = 0; i < l.n; i++)
    if (strcmp(l.v[i], "golden-store hashes") == 0)
      FAIL(IR_ERR(
          err, TTREF_E_INPUT, none,
          "golden directory '%s' holds hashes only (its MANIFEST): make the files with `ttref golden SUITE --out DIR` "
          "(check them with `ttref golden SUITE --verify %s`) and judge against DIR",
          dir, dir));
  for (int i = 0; i < l.n; i++) {
    if (sscanf(l.v[i], "semantics-version %d", &sem) == 1) continue;
    const int kl = stored_kind(l.v[i]);
    if (!kl) continue;
    const char *sep = strstr(l.v[i], "  ");
    char want[65], got[65];
    ttref_error e = {0};
    if (!sep || sep - (l.v[i] + kl) != 64)
      FAIL(IR_ERR(err, TTREF_E_INPUT, none, "%s: malformed line '%.200s'", path, l.v[i]));
    memcpy(want, l.v[i] + kl, 64);
    want[64] = 0;
    snprintf(path, sizeof path, "%s/%s", dir, sep + 2);
    if (conform_sha256_file(path, got, &e) != TTREF_OK || strcmp(got, want) != 0) {
      if (!bad++) snprintf(first, sizeof first, "%s%s", sep + 2, e.msg[0] ? " (unreadable)" : "");
    }
  }
  if (sem != CONFORM_SEMANTICS_VERSION)
    FAIL(IR_ERR(err, TTREF_E_INPUT, none,
                "goldens in '%s' were made for semantics version %d, this ttref implements %d: regenerate them with "
                "`ttref golden`",
                dir, sem, CONFORM_SEMANTICS_VERSION));
  if (bad)
    FAIL(IR_ERR(err, TTREF_E_INPUT, none,
                "goldens in '%s' do not match their MANIFEST: %d file(s) changed or missing, first %.300s (check with "
                "`ttref golden SUITE --verify %s`)",
                dir, bad, first, dir));
fail:
  ir_strs_free(&l);
  return st;
}

ttref_status conform_golden_verify(const char *suite, unsigned flags, const char *dir, const char *filter,
                                   int *out_drift, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  ir_strs old = {0}, now = {0};
  char scratch[4200], path[4400], sname[64];
  int nfail = 0;
  bool made = false;
  *out_drift = 0;
  snprintf(path, sizeof path, "%s/MANIFEST", dir);
  TRY(read_manifest(path, &old, err));
  bool hashes = false; /* a hashes-only directory: regenerate hashes only, no stored file to check */
  for (int k = 0; k < old.n; k++) hashes |= strcmp(old.v[k], "golden-store hashes") == 0;
  if (hashes) flags |= CONFORM_GOLDEN_HASHES_ONLY;
  snprintf(sname, sizeof sname, ".verify.%d", (int)getpid());
  snprintf(scratch, sizeof scratch, "%s/%s", dir, sname);
  TRY(ir_fs_rmtree_in(dir, sname, err));
  TRY(ir_fs_mkdirs_in(dir, sname, err));
  made = true;
  TRY(generate(suite, flags, scratch, filter, &nfail, err));
  *out_drift += nfail;
  snprintf(path, sizeof path, "%s/MANIFEST", scratch);
  TRY(read_manifest(path, &now, err));
  bool v2 = false; /* a format-1 directory (outputs only) is verified on what it holds */
  for (int k = 0; k < old.n; k++) v2 |= strcmp(old.v[k], "golden-format 2") == 0;
  if (!v2)
    fprintf(
        stderr,
        "note: %s holds format-1 goldens (no inputs, launch or kernel): regenerate them to make them self-contained\n",
        dir);
  for (int i = 0; i < now.n; i++) {
    const char *sep = strstr(now.v[i], "  ");
    if (!v2 && format2_only(now.v[i])) continue;
    if (!sep) { /* header: versions and suite */
      bool same = false;
      for (int k = 0; k < old.n; k++) same |= strcmp(old.v[k], now.v[i]) == 0;
      if (!same && strncmp(now.v[i], "ttref-version", 13) != 0) {
        fprintf(stderr, "drift: MANIFEST header '%s' differs\n", now.v[i]);
        (*out_drift)++;
      }
      continue;
    }
    const char *o = find_rel(&old, sep + 2);
    if (!o) {
      fprintf(stderr, "drift: %s is new (not in %s/MANIFEST)\n", sep + 2, dir);
      (*out_drift)++;
    } else if (strcmp(o, now.v[i]) != 0) {
      fprintf(stderr, "drift: %s changed (%.*s -> %.*s)\n", sep + 2, 16, strchr(o, ' ') + 1, 16,
              strchr(now.v[i], ' ') + 1);
      (*out_drift)++;
    }
  }
  for (int i = 0; i < old.n; i++) {
    const char *sep = strstr(old.v[i], "  ");
    if (!sep) continue;
    char idbuf[4400];
    snprintf(idbuf, sizeof idbuf, "%s", sep + 2);
    const bool blob = strncmp(old.v[i], "blob ", 5) == 0;
    if (filter && !blob) { /* only judge entries of items that were regenerated (a blob's content is always checked) */
      bool regenerated = false;
      char *slash = strchr(idbuf, '/');
      if (slash) {
        size_t pre = (size_t)(strchr(slash + 1, '/') ? strchr(slash + 1, '/') - idbuf : 0);
        for (int k = 0; k < now.n && pre; k++) {
          const char *s2 = strstr(now.v[k], "  ");
          regenerated |= s2 && strncmp(s2 + 2, idbuf, pre) == 0;
        }
      }
      if (!regenerated) continue;
    }
    if (!find_rel(&now, sep + 2) && !(filter && blob)) {
      fprintf(stderr, "drift: %s is gone (in %s/MANIFEST, no longer generated)\n", sep + 2, dir);
      (*out_drift)++;
    }
    const int kl = hashes ? 0 : stored_kind(old.v[i]);
    if (kl) { /* the stored file must still match its line */
      char hex[65];
      ttref_error ferr = {0};
      snprintf(path, sizeof path, "%s/%s", dir, sep + 2);
      if (conform_sha256_file(path, hex, &ferr) != TTREF_OK) {
        fprintf(stderr, "drift: %s is missing from %s\n", sep + 2, dir);
        (*out_drift)++;
      } else if (strncmp(old.v[i] + kl, hex, 64) != 0) {
        fprintf(stderr, "drift: %s/%s does not match its MANIFEST line\n", dir, sep + 2);
        (*out_drift)++;
      }
    }
  }
fail:
  if (made) {
    ttref_error ignored = {0};
    ir_fs_rmtree_in(dir, sname, &ignored);
  }
  ir_strs_free(&old);
  ir_strs_free(&now);
  return st;
}
