/*
 * main.c: the `ttref` command: one binary, one subcommand per job
 * (run, check, fmt, version, help). Exit codes: 0 ok, 1 kernel fault or
 * failed check, 2 usage error or bad input.
 */
#include "config.h"
#include "ir.h"
#include "ir_parse.h"
#include "ir_print.h"
#include "ir_vendor.h"
#include "interp_fx.h"
#include "cli_run.h"
#include "conform_cli.h"
#include "conform_localize.h"

#include <gsl/gsl_errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { EXIT_OK = 0, EXIT_FAULT = 1, EXIT_BAD = 2 };

static int exit_of(ttref_status st)
{
  if (st == TTREF_OK) return EXIT_OK;
  if (st == TTREF_E_FAULT) return EXIT_FAULT;
  return EXIT_BAD;
}

static void report(const ttref_error *e)
{
  fprintf(stderr, "%s\n", e->msg[0] ? e->msg : "error: unknown failure");
  if (e->note[0]) fprintf(stderr, "%s\n", e->note);
}

static int wants_help(int argc, char **argv)
{
  for (int i = 1; i < argc; i++)
    if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) return 1;
  return 0;
}

static const char *const usage_fmt =
    "usage: ttref fmt FILE.ttir [-o OUT] [--probes]\n"
    "       ttref fmt FILE.fx --sym NAME=INT ... [--dtype BUF=DT ...] [--oob error|zero] [-o OUT] [--probes]\n"
    "  Prints FILE as canonical TTIR (idempotent; re-parses to the same IR; accepted by Triton);\n"
    "  a traced kernel (.fx) is printed as its lowering, every op located at its fx node.\n"
    "  --probes  also store every value `ttref conform --localize` probes to a new trailing pointer\n"
    "            argument %ttref_probe_K (numel x programs elements; docs/compliance.md, Localisation)\n"
    "  --ops PLUGIN.so  accept the vendor ops the plugin registers (repeatable).\n";

static void usage(FILE *f)
{
  fputs("usage: ttref COMMAND [ARGS]\n"
        "commands:\n"
        "  run      run a TTIR kernel (or a TK trace, .fx) launch on the CPU and write its buffers (.npy)\n"
        "  check    parse and verify a TTIR file (or a TK trace)\n"
        "  fmt      print a TTIR file in canonical form (a TK trace: its lowering)\n"
        "  conform  run a conformance suite on a backend and judge it (reports, journal, --resume)\n"
        "  golden   write or --verify a suite's golden outputs and MANIFEST\n"
        "  report   merge shard report directories (report merge DIR... --out DIR)\n"
        "  coverage the op x dtype x attribute coverage matrix of suites (Markdown)\n"
        "  version  print the version\n"
        "  help     this text; `ttref COMMAND --help` for one command\n",
        f);
}

static int cmd_fmt(int argc, char **argv)
{
  if (wants_help(argc, argv)) return fputs(usage_fmt, stdout), EXIT_OK;
  const char *in = NULL, *outp = NULL;
  int probes = 0, nprobes = 0, fxr = 0;
  interp_fx_opts fxo = {0};
  for (int i = 1; i < argc; i++) {
    if ((fxr = interp_fx_option(argc, argv, &i, &fxo)) != 0) {
      if (fxr < 0) return interp_fx_opts_free(&fxo), EXIT_BAD;
    } else if (strcmp(argv[i], "-o") == 0 && i + 1 < argc) outp = argv[++i];
    else if (strcmp(argv[i], "--probes") == 0) probes = 1;
    else if (!in) in = argv[i];
    else return fputs(usage_fmt, stderr), EXIT_BAD;
  }
  if (!in) return fputs(usage_fmt, stderr), EXIT_BAD;
  ttref_error err = {0};
  ir_module *m = NULL;
  if (fxo.any && !interp_fx_is(in)) {
    fprintf(stderr, "error: --sym, --dtype and --oob are for traced kernels (.fx); %s is TTIR\n", in);
    interp_fx_opts_free(&fxo);
    return EXIT_BAD;
  }
  ttref_status st = interp_fx_is(in) ? interp_fx_load(in, &fxo, NULL, 0, &m, NULL, NULL, &err) : ir_parse_file(in, &m, &err);
  interp_fx_opts_free(&fxo);
  if (st == TTREF_OK) {
    FILE *f = outp ? fopen(outp, "w") : stdout;
    if (!f) {
      fprintf(stderr, "error: cannot write '%s'\n", outp);
      ir_module_free(m);
      return EXIT_BAD;
    }
    const ir_func *fn = probes ? ir_module_entry(m) : NULL;
    if (probes && !fn) st = ir_error_set(&err, TTREF_E_INPUT, (ttref_loc){in, 0, 0}, "%s: no function to probe", in);
    else if (probes) st = conform_localize_print_all(m, fn, f, &nprobes, &err);
    else st = ir_print_module(m, f, &err);
    if (outp && fclose(f) != 0 && st == TTREF_OK) st = TTREF_E_IO;
  }
  if (st != TTREF_OK) report(&err);
  ir_module_free(m);
  return exit_of(st);
}

/* Load one ops plugin into @p reg unless its absolute path is already in @p *list ("a:b"). */
static ttref_status add_ops(ttref_registry *reg, const char *path, char **list, size_t *len, ttref_error *err)
{
  char abs[4096];
  const char *ap = realpath(path, abs) ? abs : path;
  const size_t n = strlen(ap);
  for (const char *q = *list; q && *q; q = strchr(q, ':') ? strchr(q, ':') + 1 : q + strlen(q))
    if (strncmp(q, ap, n) == 0 && (q[n] == ':' || q[n] == 0)) return TTREF_OK; /* loaded already */
  ttref_status st = ttref_registry_load(reg, path, err);
  if (st != TTREF_OK) return st;
  char *nl = realloc(*list, *len + n + 2);
  if (!nl) return ir_error_set(err, TTREF_E_NOMEM, (ttref_loc){0}, "out of memory");
  *list = nl;
  *len += (size_t)sprintf(nl + *len, "%s%s", *len ? ":" : "", ap);
  return TTREF_OK;
}

/* Vendor ops for every command: TTREF_OPS (':'-separated plugin paths), then each
 * `--ops PLUGIN.so` (removed from argv) into the program's registry; TTREF_OPS is then set to
 * all of them as absolute paths, so `ttref run` children of conform and golden load them too. */
static int load_ops(int *argc, char **argv, ttref_registry **out)
{
  int rc = EXIT_OK, w = 2;
  ttref_error err = {0};
  char *list = NULL, *envcopy = NULL, *save = NULL;
  size_t len = 0;
  ttref_registry *reg = NULL;
  const char *env = getenv("TTREF_OPS");
  bool any = env && env[0];
  for (int i = 2; i < *argc && !any; i++) any = strcmp(argv[i], "--ops") == 0 || strncmp(argv[i], "--ops=", 6) == 0;
  if (!any) goto done;
  if (!(reg = ttref_registry_new(&err))) goto bad;
  if (env && env[0] && !(envcopy = strdup(env))) goto bad;
  for (char *path = envcopy ? strtok_r(envcopy, ":", &save) : NULL; path; path = strtok_r(NULL, ":", &save))
    if (add_ops(reg, path, &list, &len, &err) != TTREF_OK) goto bad;
  for (int i = 2; i < *argc;) {
    if (strcmp(argv[i], "--ops") != 0 && strncmp(argv[i], "--ops=", 6) != 0) {
      argv[w++] = argv[i++];
      continue;
    }
    const char *path = argv[i][5] == '=' ? argv[i] + 6 : i + 1 < *argc ? argv[i + 1] : NULL;
    if (!path || !path[0]) {
      fprintf(stderr, "error: --ops needs a PLUGIN.so path\n");
      rc = EXIT_BAD;
      goto done;
    }
    i += argv[i][5] == '=' ? 1 : 2;
    if (add_ops(reg, path, &list, &len, &err) != TTREF_OK) goto bad;
  }
  *argc = w;
  argv[w] = NULL;
  if (list) setenv("TTREF_OPS", list, 1);
  ir_vendor_set_process(reg);
  *out = reg;
  reg = NULL;
  goto done;
bad:
  fprintf(stderr, "%s\n", err.msg[0] ? err.msg : "error: out of memory");
  rc = EXIT_BAD;
done:
  ttref_registry_free(reg);
  free(list);
  free(envcopy);
  return rc;
}

static int dispatch(int argc, char **argv, const ttref_registry *ops);

int main(int argc, char **argv)
{
  ttref_registry *ops = NULL;
  if (argc >= 2 && load_ops(&argc, argv, &ops) != EXIT_OK) return EXIT_BAD;
  int rc = dispatch(argc, argv, ops);
  ir_vendor_set_process(NULL);
  ttref_registry_free(ops);
  return rc;
}

static int dispatch(int argc, char **argv, const ttref_registry *ops)
{
  gsl_set_error_handler_off();
  signal(SIGXFSZ, SIG_IGN); /* past a file-size limit (ulimit -f) writes fail with EFBIG: an error message, not a kill */
  if (argc < 2) {
    usage(stderr);
    return EXIT_BAD;
  }
  const char *cmd = argv[1];
  if (strcmp(cmd, "help") == 0 || strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0) {
    usage(stdout);
    return EXIT_OK;
  }
  if (strcmp(cmd, "version") == 0 || strcmp(cmd, "--version") == 0) {
    printf("ttref %s\n", ttref_version());
    return EXIT_OK;
  }
  if (strcmp(cmd, "run") == 0) return cli_cmd_run(argc - 1, argv + 1, ops);
  if (strcmp(cmd, "check") == 0) return cli_cmd_check(argc - 1, argv + 1, ops);
  if (strcmp(cmd, "fmt") == 0) return cmd_fmt(argc - 1, argv + 1);
  if (strcmp(cmd, "conform") == 0) return conform_cmd_conform(argc - 1, argv + 1);
  if (strcmp(cmd, "golden") == 0) return conform_cmd_golden(argc - 1, argv + 1);
  if (strcmp(cmd, "report") == 0) return conform_cmd_report(argc - 1, argv + 1);
  if (strcmp(cmd, "coverage") == 0) return conform_cmd_coverage(argc - 1, argv + 1);
  fprintf(stderr, "error: unknown command '%s'\n", cmd);
  usage(stderr);
  return EXIT_BAD;
}
