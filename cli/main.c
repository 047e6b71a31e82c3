/*
 * main.c: the `ttref` command: one binary, one subcommand per job: run, check
 * and fmt (cli_run.c, on the public API), conform, golden, report and coverage
 * (conform_cli.c, on the harness), version, help; vendor-op plugins for all.
 * Exit codes: 0 ok, 1 kernel fault or failed check, 2 usage error or bad input.
 */
#include "config.h"
#include "ir_vendor.h"
#include "cli_run.h"
#include "conform_cli.h"

#include <gsl/gsl_errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { EXIT_OK = 0, EXIT_BAD = 2 };

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
  signal(SIGXFSZ,
         SIG_IGN); /* past a file-size limit (ulimit -f) writes fail with EFBIG: an error message, not a kill */
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
  if (strcmp(cmd, "fmt") == 0) return cli_cmd_fmt(argc - 1, argv + 1, ops);
  if (strcmp(cmd, "conform") == 0) return conform_cmd_conform(argc - 1, argv + 1);
  if (strcmp(cmd, "golden") == 0) return conform_cmd_golden(argc - 1, argv + 1);
  if (strcmp(cmd, "report") == 0) return conform_cmd_report(argc - 1, argv + 1);
  if (strcmp(cmd, "coverage") == 0) return conform_cmd_coverage(argc - 1, argv + 1);
  fprintf(stderr, "error: unknown command '%s'\n", cmd);
  usage(stderr);
  return EXIT_BAD;
}
