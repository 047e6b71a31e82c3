/*
 * conform_cli.c: argument parsing and exit codes of `ttref conform`,
 * `ttref golden` and `ttref report`; the work is in conform_run.c,
 * conform_golden.c and conform_report.c.
 */
#define _GNU_SOURCE /* sysconf under -std=c11 */
#include "config.h"
#include "conform_cli.h"
#include "conform_backend.h"
#include "conform_coverage.h"
#include "conform_golden.h"
#include "conform_mutant.h"
#include "conform_library.h"
#include "conform_report.h"
#include "conform_run.h"
#include "ir_base.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { EXIT_OK = 0, EXIT_FAIL = 1, EXIT_BAD = 2, EXIT_SCORE = 4 };

static const char *const usage_conform =
    "usage: ttref conform SUITE --backend NAME|ADAPTER [--config BACKEND.yaml] [--report-dir DIR]\n"
    "                     [--golden DIR] [-j N] [--shard I/N] [--filter PAT] [--resume|--force]\n"
    "                     [--timeout SECONDS] [--keep-work] [--localize] [--progress|--no-progress]\n"
    "                     [--allow-outside-suite]\n"
    "       ttref conform SUITE --mutants [LIST] [--min-score S] [options]\n"
    "       ttref conform --list-backends | --list-mutants\n"
    "  Runs every case x specialization of SUITE (a directory of *.yaml cases, docs/suite-format.md)\n"
    "  on a backend and judges each output against ttref's reference with its compliance mode.\n"
    "  --backend     reference, fault:KIND, an adapter PATH, batch:PATH or plugin:PATH.so (docs/adapter-protocol.md)\n"
    "  --ops PLUGIN.so  vendor ops the suite's kernels use (repeatable; docs/api.md, Vendor ops)\n"
    "  --config      capabilities, expected failures and skips of the backend\n"
    "  --report-dir  journal.jsonl, results.json, junit.xml, results.tap, report.md, report.html\n"
    "                (default conform-report); case directories of failures stay in DIR/work\n"
    "  --golden      judge against stored goldens (`ttref golden --out`) instead of running the reference\n"
    "  -j N          parallel workers, 1..256 (default: the number of CPUs)\n"
    "  --shard I/N   run only items with index % N == I (0 <= I < N); combine with `ttref report merge`\n"
    "  --filter PAT  run only the items PAT matches: a POSIX extended regex when it starts with ^, else a\n"
    "                glob (* and ?) over the whole id \"case[variant]\" or case name (docs/suite-format.md);\n"
    "                a pattern matching no item is an error (exit 2)\n"
    "  --resume      keep DIR/journal.jsonl and run only the items it lacks (refused when the journal is of\n"
    "                another backend, config, suite or shard)\n"
    "  --force       replace a journal already in DIR (without it such a run is refused)\n"
    "  --timeout S   time limit of one backend run, 0.001..86400 (default 60; the case and the config\n"
    "                may override)\n"
    "  --localize    for each FAIL, probe every value the kernel computes on the backend and the reference\n"
    "                and name the first op that diverges (docs/compliance.md, Localisation)\n"
    "  --allow-outside-suite  let kernel:, file: and case files resolve outside the suite directory\n"
    "                (refused by default; docs/security.md)\n"
    "  --mutants [LIST]  also run every item (its reference passing) on built-in mutant backends, each a\n"
    "                realistic backend bug (all, or comma-separated names of --list-mutants), and write\n"
    "                DIR/mutants.json and DIR/mutants.md: per mutant the items it changed, the items that\n"
    "                caught it, killed/survived/unexercised and the mutation score (docs/compliance.md)\n"
    "  --min-score S exit 4 when the mutation score (killed / mutants, 0..1) is below S\n"
    "  Exit: 0 no unexpected verdict (FAIL, XPASS, ERROR, CRASH, TIMEOUT), 1 some, 2 bad input,\n"
    "        4 mutation score below --min-score.\n";

static const char *const usage_golden =
    "usage: ttref golden SUITE --out DIR [--hashes-only] [--filter PAT] [--allow-outside-suite]\n"
    "       ttref golden SUITE --verify DIR [--filter PAT] [--allow-outside-suite]\n"
    "  --out writes the reference's outputs of every case x specialization (with .precise/.bound\n"
    "  tensors where a compliance mode needs them) and its launch (case.yaml) to DIR/CASE/VARIANT/,\n"
    "  the kernels and generated inputs once each to DIR/blobs/SHA256.{ttir,npy}, and DIR/MANIFEST\n"
    "  (sha256 of every file, input and kernel, ttref version, semantics version): an item replays\n"
    "  with `ttref run --launch DIR/CASE/VARIANT/case.yaml`.\n"
    "  --verify recomputes and names every file that drifted.\n"
    "  --hashes-only (with --out) keeps only DIR/MANIFEST, the sha256 of every file, input, kernel and\n"
    "  launch: --verify checks every hash; `ttref golden SUITE --out` remakes the files.\n"
    "       ttref golden --library MANIFEST.yaml --out DIR | --verify DIR\n"
    "  goldens by dispatch key for wrapper tests (docs/golden.md): every variant of the library's\n"
    "  dispatch schema to DIR/KERNEL/VARIANT_KEY/{inputs,outputs}/*.npy and DIR/index.json.\n"
    "  --allow-outside-suite lets kernel:, file: and case files resolve outside the suite directory.\n"
    "  --ops PLUGIN.so  vendor ops the suite's kernels use (repeatable; docs/api.md, Vendor ops).\n"
    "  Exit: 0 ok, 1 drift or a failed reference run, 2 bad input.\n";

static const char *const usage_report =
    "usage: ttref report merge DIR... --out DIR [--allow-mixed]\n"
    "  Combines the journals of shard report directories and writes every report into --out;\n"
    "  the directories must be shards 0..N-1 of one `--shard I/N` split, each once, of one backend,\n"
    "  config, suite and ttref version, with no item twice (else exit 2 naming the problem).\n"
    "  --allow-mixed merges them anyway and labels run.json and the reports with what differs.\n"
    "  shards of a --mutants run also get mutants.json/mutants.md and the suite's mutation score.\n"
    "  Exit: 0 no unexpected verdict, 1 some, 2 bad input.\n";

static const char *const usage_coverage =
    "usage: ttref coverage SUITE... [-o FILE] [--allow FILE] [--check]\n"
    "  Writes the coverage matrix of the suites as Markdown (stdout, or -o FILE): every op of\n"
    "  ir/ir_op_list.h x dtype x the attribute values that change its result, the items covering\n"
    "  each cell, the ops and expected cells no item covers (`make coverage-matrix` writes docs/coverage.md).\n"
    "  --allow FILE  executable ops allowed to have no item yet: one mnemonic and a reason per line\n"
    "  --check       exit 1 when an executable op has no item and is not allowed, or an allowed op is\n"
    "                covered (a stale entry), naming each on stderr\n"
    "  Exit: 0 ok, 1 check failed, 2 bad input.\n";

static int wants_help(int argc, char **argv)
{
  for (int i = 1; i < argc; i++)
    if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) return 1;
  return 0;
}

static void report_err(const ttref_error *e)
{
  fprintf(stderr, "%s\n", e->msg[0] ? e->msg : "error: unknown failure");
  if (e->note[0]) fprintf(stderr, "%s\n", e->note);
}

static int exit_of(ttref_status st)
{
  if (st == TTREF_OK) return EXIT_OK;
  return st == TTREF_E_FAULT ? EXIT_FAIL : EXIT_BAD;
}

/* --shard I/N: two strict integers, 0 <= I < N <= 2^20 */
static ttref_status parse_shard(const char *s, int *out_i, int *out_n, ttref_error *err)
{
  const char *slash = strchr(s, '/');
  char ib[32];
  int64_t i, n;
  ttref_status st;
  if (!slash || (size_t)(slash - s) >= sizeof ib)
    return ir_error_set(err, TTREF_E_USAGE, (ttref_loc){0}, "--shard: '%.40s' is not I/N", s);
  memcpy(ib, s, (size_t)(slash - s));
  ib[slash - s] = 0;
  if ((st = ir_parse_int("--shard", slash + 1, 1, 1 << 20, &n, err)) != TTREF_OK) return st;
  if ((st = ir_parse_int("--shard", ib, 0, n - 1, &i, err)) != TTREF_OK) return st;
  *out_i = (int)i;
  *out_n = (int)n;
  return TTREF_OK;
}

int conform_cmd_conform(int argc, char **argv)
{
  conform_run_opts o = {0};
  ttref_error err = {0};
  long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
  o.report_dir = "conform-report";
  o.jobs = ncpu > 0 ? (int)ncpu : 1;
  o.shard_n = 1;
  o.progress = -1;
  o.timeout = 60;
  double min_score = -1, score = 1;
  if (wants_help(argc, argv)) return fputs(usage_conform, stdout), EXIT_OK;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    const bool has = i + 1 < argc;
    if (strcmp(a, "--list-backends") == 0) {
      conform_backend_list(stdout);
      return EXIT_OK;
    } else if (strcmp(a, "--list-mutants") == 0) {
      conform_mutant_list(stdout);
      return EXIT_OK;
    } else if (strcmp(a, "--mutants") == 0) {
      o.mutants = "all"; /* the next argument is the LIST unless it is an option or an existing path (the suite) */
      if (has && argv[i + 1][0] != '-' && access(argv[i + 1], F_OK) != 0) o.mutants = argv[++i];
    } else if (strncmp(a, "--mutants=", 10) == 0) o.mutants = a + 10;
    else if (strcmp(a, "--min-score") == 0 && has) {
      char *end;
      min_score = strtod(argv[++i], &end);
      if (*end || !(min_score >= 0 && min_score <= 1))
        return fprintf(stderr, "error: --min-score needs a number in [0, 1]\n"), EXIT_BAD;
    } else if (strcmp(a, "--backend") == 0 && has) o.backend = argv[++i];
    else if (strcmp(a, "--config") == 0 && has) o.config = argv[++i];
    else if (strcmp(a, "--report-dir") == 0 && has) o.report_dir = argv[++i];
    else if (strcmp(a, "--golden") == 0 && has) o.golden_dir = argv[++i];
    else if (strcmp(a, "--filter") == 0 && has) o.filter = argv[++i];
    else if (strcmp(a, "--resume") == 0) o.resume = true;
    else if (strcmp(a, "--force") == 0) o.force = true;
    else if (strcmp(a, "--keep-work") == 0) o.keep_work = true;
    else if (strcmp(a, "--localize") == 0) o.localize = true;
    else if (strcmp(a, "--allow-outside-suite") == 0) o.allow_outside_suite = true;
    else if (strcmp(a, "--progress") == 0) o.progress = 1;
    else if (strcmp(a, "--no-progress") == 0) o.progress = 0;
    else if ((strcmp(a, "-j") == 0 || strcmp(a, "--jobs") == 0 || (strncmp(a, "-j", 2) == 0 && a[2]))) {
      int64_t j;
      const char *v = a[1] == 'j' && a[2] ? a + 2 : has ? argv[++i] : NULL;
      if (!v) return fprintf(stderr, "error: %s needs a count\n", a), EXIT_BAD;
      if (ir_parse_int(a[1] == 'j' ? "-j" : "--jobs", v, 1, 256, &j, &err) != TTREF_OK)
        return report_err(&err), EXIT_BAD;
      o.jobs = (int)j;
    } else if (strcmp(a, "--timeout") == 0 && has) {
      if (ir_parse_real("--timeout", argv[++i], 0.001, 86400, &o.timeout, &err) != TTREF_OK)
        return report_err(&err), EXIT_BAD;
    } else if (strcmp(a, "--shard") == 0 && has) {
      if (parse_shard(argv[++i], &o.shard_i, &o.shard_n, &err) != TTREF_OK) return report_err(&err), EXIT_BAD;
    } else if (a[0] == '-') {
      fprintf(stderr, "error: unknown or incomplete option '%s'\n", a);
      return fputs(usage_conform, stderr), EXIT_BAD;
    } else if (!o.suite) o.suite = a;
    else return fprintf(stderr, "error: unexpected argument '%s'\n", a), EXIT_BAD;
  }
  if (o.mutants && !o.backend) o.backend = "reference";
  if (min_score >= 0 && !o.mutants) return fprintf(stderr, "error: --min-score needs --mutants\n"), EXIT_BAD;
  if (!o.suite || !o.backend) {
    fprintf(stderr, "error: %s\n",
            !o.suite ? "missing the SUITE directory"
                     : "missing --backend NAME (ttref conform --list-backends lists them)");
    return fputs(usage_conform, stderr), EXIT_BAD;
  }
  o.out_mutation_score = &score;
  int unexpected = 0;
  ttref_status st = conform_run(&o, &unexpected, &err);
  if (st != TTREF_OK) {
    report_err(&err);
    return EXIT_BAD;
  }
  if (unexpected) return EXIT_FAIL;
  return o.mutants && score < min_score ? EXIT_SCORE : EXIT_OK;
}

int conform_cmd_golden(int argc, char **argv)
{
  const char *suite = NULL, *out = NULL, *verify = NULL, *filter = NULL, *library = NULL;
  unsigned flags = 0;
  ttref_error err = {0};
  if (wants_help(argc, argv)) return fputs(usage_golden, stdout), EXIT_OK;
  for (int i = 1; i < argc; i++) {
    const bool has = i + 1 < argc;
    if (strcmp(argv[i], "--out") == 0 && has) out = argv[++i];
    else if (strcmp(argv[i], "--verify") == 0 && has) verify = argv[++i];
    else if (strcmp(argv[i], "--filter") == 0 && has) filter = argv[++i];
    else if (strcmp(argv[i], "--library") == 0 && has) library = argv[++i];
    else if (strcmp(argv[i], "--hashes-only") == 0) flags |= CONFORM_GOLDEN_HASHES_ONLY;
    else if (strcmp(argv[i], "--allow-outside-suite") == 0) flags |= CONFORM_SUITE_ALLOW_OUTSIDE;
    else if (argv[i][0] == '-')
      return fprintf(stderr, "error: unknown or incomplete option '%s'\n", argv[i]), fputs(usage_golden, stderr),
             EXIT_BAD;
    else if (!suite) suite = argv[i];
    else return fprintf(stderr, "error: unexpected argument '%s'\n", argv[i]), EXIT_BAD;
  }
  if ((flags & CONFORM_GOLDEN_HASHES_ONLY) && !(out && !library))
    return fprintf(stderr,
                   "error: --hashes-only goes with SUITE --out DIR (--verify reads the kind from DIR/MANIFEST)\n"),
           EXIT_BAD;
  if (library) { /* goldens by dispatch key */
    if (suite || filter || !out == !verify) return fputs(usage_golden, stderr), EXIT_BAD;
    int ldrift = 0;
    ttref_status lst =
        out ? conform_library_write(library, out, &err) : conform_library_verify(library, verify, &ldrift, &err);
    if (lst != TTREF_OK) return report_err(&err), exit_of(lst);
    if (out) printf("goldens written to %s (see %s/index.json)\n", out, out);
    else if (ldrift) fprintf(stderr, "%d golden file(s) drifted\n", ldrift);
    else printf("goldens in %s match\n", verify);
    return ldrift ? EXIT_FAIL : EXIT_OK;
  }
  if (!suite || (!out == !verify)) {
    fprintf(stderr, "error: %s\n",
            !suite ? "missing the SUITE directory"
            : out  ? "give --out DIR or --verify DIR, not both"
                   : "missing --out DIR or --verify DIR");
    return fputs(usage_golden, stderr), EXIT_BAD;
  }
  if (out) {
    ttref_status st = conform_golden_write(suite, flags, out, filter, &err);
    if (st != TTREF_OK) report_err(&err);
    else printf("goldens written to %s (see %s/MANIFEST)\n", out, out);
    return exit_of(st);
  }
  int drift = 0;
  ttref_status st = conform_golden_verify(suite, flags, verify, filter, &drift, &err);
  if (st != TTREF_OK) {
    report_err(&err);
    return exit_of(st);
  }
  if (drift) fprintf(stderr, "%d golden file(s) drifted\n", drift);
  else printf("goldens in %s match\n", verify);
  return drift ? EXIT_FAIL : EXIT_OK;
}

int conform_cmd_report(int argc, char **argv)
{
  const char *out = NULL;
  const char **dirs = NULL;
  int ndirs = 0, rc = EXIT_BAD;
  bool allow_mixed = false;
  ttref_error err = {0};
  if (wants_help(argc, argv)) return fputs(usage_report, stdout), EXIT_OK;
  if (argc < 2 || strcmp(argv[1], "merge") != 0) return fputs(usage_report, stderr), EXIT_BAD;
  dirs = ir_calloc((size_t)argc, sizeof *dirs);
  if (!dirs) return EXIT_BAD;
  for (int i = 2; i < argc; i++) {
    if (strcmp(argv[i], "--out") == 0 && i + 1 < argc) out = argv[++i];
    else if (strcmp(argv[i], "--allow-mixed") == 0) allow_mixed = true;
    else if (argv[i][0] == '-') {
      fprintf(stderr, "error: unknown or incomplete option '%s'\n", argv[i]);
      goto done;
    } else dirs[ndirs++] = argv[i];
  }
  if (!out || ndirs == 0) {
    fprintf(stderr, "error: %s\n", !out ? "missing --out DIR" : "missing the shard report directories to merge");
    fputs(usage_report, stderr);
    goto done;
  }
  int unexpected = 0;
  if (conform_report_merge(dirs, ndirs, out, allow_mixed, &unexpected, &err) != TTREF_OK) {
    report_err(&err);
    goto done;
  }
  printf("merged %d report directories into %s: %d unexpected\n", ndirs, out, unexpected);
  rc = unexpected ? EXIT_FAIL : EXIT_OK;
done:
  ir_free(dirs, sizeof *dirs * (size_t)argc);
  return rc;
}

int conform_cmd_coverage(int argc, char **argv)
{
  const char *outp = NULL, *allow = NULL;
  const char **suites = NULL;
  int nsuites = 0, check = 0, missing = 0, rc = EXIT_BAD;
  ttref_error err = {0};
  FILE *f = NULL;
  if (wants_help(argc, argv)) return fputs(usage_coverage, stdout), EXIT_OK;
  suites = ir_calloc((size_t)argc + 1, sizeof *suites);
  if (!suites) return EXIT_BAD;
  for (int i = 1; i < argc; i++) {
    const bool has = i + 1 < argc;
    if (strcmp(argv[i], "-o") == 0 && has) outp = argv[++i];
    else if (strcmp(argv[i], "--allow") == 0 && has) allow = argv[++i];
    else if (strcmp(argv[i], "--check") == 0) check = 1;
    else if (argv[i][0] == '-') {
      fprintf(stderr, "error: unknown or incomplete option '%s'\n", argv[i]);
      goto done;
    } else suites[nsuites++] = argv[i];
  }
  if (nsuites == 0) {
    fputs(usage_coverage, stderr);
    goto done;
  }
  f = outp ? fopen(outp, "w") : stdout;
  if (!f) {
    fprintf(stderr, "error: cannot write '%s'\n", outp);
    goto done;
  }
  ttref_status st = conform_coverage(suites, nsuites, allow, f, stderr, &missing, &err);
  if (outp && fclose(f) != 0 && st == TTREF_OK)
    st = IR_ERR(&err, TTREF_E_IO, (ttref_loc){0}, "cannot write '%s'", outp);
  if (st != TTREF_OK) {
    report_err(&err);
    rc = exit_of(st);
    goto done;
  }
  rc = check && missing ? EXIT_FAIL : EXIT_OK;
done:
  ir_free(suites, sizeof *suites * ((size_t)argc + 1));
  return rc;
}
