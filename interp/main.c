/*
 * main.c: the `ttref` command: one binary, one subcommand per job
 * (run, check, fmt, version, help). Exit codes: 0 ok, 1 kernel fault or
 * failed check, 2 usage error or bad input.
 */
#include "config.h"
#include "ir.h"
#include "ir_parse.h"
#include "ir_print.h"
#include "ir_verify.h"
#include "interp.h"
#include "interp_launch.h"
#include "conform_cli.h"
#include "conform_localize.h"

#include <gsl/gsl_errno.h>
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

static const char *const usage_run =
    "usage: ttref run KERNEL.ttir --grid X[,Y[,Z]] --arg NAME=@FILE.npy --arg NAME=VALUE ... [--out DIR]\n"
    "       ttref run --launch LAUNCH.yaml [options]\n"
    "                 [--kernel NAME] [--threads N] [--ftz] [--contract] [--precise] [--check-races] [--stats] [--max-steps N]\n"
    "  Runs one launch of KERNEL on the CPU with ttref's documented semantics.\n"
    "  --arg binds a kernel argument by its TTIR name (x_ptr or %x_ptr) or 0-based position:\n"
    "        pointers take @FILE.npy (its raw elements are the buffer; bf16/fp8 as <u2/|u1 bits),\n"
    "        scalars take a literal typed by the signature (42, -1, 0xff, 1.5, inf, nan, true).\n"
    "  --launch FILE.yaml gives the same as a YAML mapping (kernel, function, grid, args,\n"
    "        out, threads, ftz, contract, precise; paths relative to the file); options on\n"
    "        the command line take precedence.\n"
    "  --out DIR writes every pointer argument's buffer after the launch to DIR/NAME.npy.\n"
    "  --threads N runs programs on N threads, 1..256 (outputs are identical for any N: racing\n"
    "        programs are detected and re-run in program order, with a warning).\n"
    "  --ftz flushes float subnormal results to zero (to compare with FTZ hardware).\n"
    "  --max-steps N   stop a program after N ops, terminators and loop iterations included (a kernel\n"
    "        that never terminates): exit 1, naming the op\n"
    "  --inject-fault OP  (testing aid) makes every float result of op OP 2^-6 too large, e.g. math.exp\n"
    "  --contract fuses a mulf whose only use is an addf/subf into one FMA, as LLVM does\n"
    "        by default for Triton GPU backends (the exact semantics keep them separate).\n"
    "  --precise also runs the launch in binary64 without rounding and writes, per float\n"
    "        buffer, DIR/NAME.precise.npy (the values) and DIR/NAME.bound.npy (the magnitude\n"
    "        bound: the same computation on |operands|, e.g. sum |a_i*b_i| for a dot).\n"
    "  --check-races faults (exit 1) at the first element one program writes and another\n"
    "        reads or writes without atomics (programs then run in order). Without it, such\n"
    "        conflicts end as in program order (docs/semantics.md).\n"
    "  --stats prints counts of undefined-behaviour cases met (x/0, shifts >= width, ...).\n"
    "  Exit: 0 ran, 1 the kernel faulted (out-of-bounds access, failed assert), 2 bad input.\n";

static const char *const usage_check =
    "usage: ttref check FILE.ttir\n"
    "  Parses and verifies FILE; prints nothing and exits 0 when it is valid,\n"
    "  otherwise prints FILE:LINE:COL: error: ... and exits 2.\n";

static const char *const usage_fmt =
    "usage: ttref fmt FILE.ttir [-o OUT] [--probes]\n"
    "  Prints FILE as canonical TTIR (idempotent; re-parses to the same IR; accepted by Triton).\n"
    "  --probes  also store every value `ttref conform --localize` probes to a new trailing pointer\n"
    "            argument %ttref_probe_K (numel x programs elements; docs/compliance.md, Localisation)\n";

static void usage(FILE *f)
{
  fputs("usage: ttref COMMAND [ARGS]\n"
        "commands:\n"
        "  run      run a TTIR kernel launch on the CPU and write its buffers (.npy)\n"
        "  check    parse and verify a TTIR file\n"
        "  fmt      print a TTIR file in canonical form\n"
        "  conform  run a conformance suite on a backend and judge it (reports, journal, --resume)\n"
        "  golden   write or --verify a suite's golden outputs and MANIFEST\n"
        "  report   merge shard report directories (report merge DIR... --out DIR)\n"
        "  version  print the version\n"
        "  help     this text; `ttref COMMAND --help` for one command\n",
        f);
}

static ttref_status load(const char *path, ir_module **m, ttref_error *err)
{
  ttref_status st = ir_parse_file(path, m, err);
  if (st == TTREF_OK) {
    st = ir_verify_module(*m, err);
    if (st != TTREF_OK) {
      ir_module_free(*m);
      *m = NULL;
    }
  }
  return st;
}

static int cmd_check(int argc, char **argv)
{
  if (wants_help(argc, argv)) return fputs(usage_check, stdout), EXIT_OK;
  if (argc != 2) return fputs(usage_check, stderr), EXIT_BAD;
  ttref_error err = {0};
  ir_module *m = NULL;
  ttref_status st = load(argv[1], &m, &err);
  if (st != TTREF_OK) report(&err);
  ir_module_free(m);
  return exit_of(st);
}

static int cmd_fmt(int argc, char **argv)
{
  if (wants_help(argc, argv)) return fputs(usage_fmt, stdout), EXIT_OK;
  const char *in = NULL, *outp = NULL;
  int probes = 0, nprobes = 0;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "-o") == 0 && i + 1 < argc) outp = argv[++i];
    else if (strcmp(argv[i], "--probes") == 0) probes = 1;
    else if (!in) in = argv[i];
    else return fputs(usage_fmt, stderr), EXIT_BAD;
  }
  if (!in) return fputs(usage_fmt, stderr), EXIT_BAD;
  ttref_error err = {0};
  ir_module *m = NULL;
  ttref_status st = ir_parse_file(in, &m, &err);
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

/* --grid X[,Y[,Z]]: each dimension a strict integer in [0, 2^31) */
static ttref_status parse_grid(const char *s, int64_t g[3], ttref_error *err)
{
  const ttref_loc none = {0};
  g[0] = g[1] = g[2] = 1;
  for (int k = 0;; k++) {
    const char *comma = strchr(s, ',');
    size_t len = comma ? (size_t)(comma - s) : strlen(s);
    char buf[32];
    if (k == 3) return ir_error_set(err, TTREF_E_USAGE, none, "--grid: more than 3 dimensions");
    if (len >= sizeof buf) return ir_error_set(err, TTREF_E_USAGE, none, "--grid: '%.40s...' is not an integer in 0..2147483647", s);
    memcpy(buf, s, len);
    buf[len] = 0;
    ttref_status st = ir_parse_int("--grid", buf, 0, INT32_MAX, &g[k], err);
    if (st != TTREF_OK || !comma) return st;
    s = comma + 1;
  }
}

/* --max-steps upper bound: far beyond any run, and step counters cannot overflow */
#define RUN_MAX_STEPS ((int64_t)1 << 62)

static int cmd_run(int argc, char **argv)
{
  if (wants_help(argc, argv)) return fputs(usage_run, stdout), EXIT_OK;
  const char *kernel = NULL, *outdir = NULL, *fname = NULL;
  int64_t grid[3] = {1, 1, 1};
  int grid_given = 0, have_lf = 0;
  interp_launch_file lf;
  memset(&lf, 0, sizeof lf);
  int64_t max_steps = 0;
  int inject_op = 0, threads = 0, stats = 0, ftz = 0, contract = 0, precise = 0, check_races = 0, rc = EXIT_BAD;
  const char **specs = calloc((size_t)argc + 1, sizeof *specs);
  int nspecs = 0;
  ttref_error err = {0};
  ir_module *m = NULL;
  interp_bound b;
  int bound = 0;
  if (!specs) return EXIT_BAD;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    int has = i + 1 < argc;
    if (strcmp(a, "--grid") == 0 && has) {
      grid_given = 1;
      if (parse_grid(argv[++i], grid, &err) != TTREF_OK) {
        report(&err);
        goto done;
      }
    } else if (strcmp(a, "--arg") == 0 && has) {
      specs[nspecs++] = argv[++i];
    } else if (strcmp(a, "--out") == 0 && has) {
      outdir = argv[++i];
    } else if (strcmp(a, "--launch") == 0 && has) {
      if (have_lf) {
        fprintf(stderr, "error: --launch given twice\n");
        goto done;
      }
      ttref_status lst = interp_launch_file_read(argv[++i], &lf, &err);
      if (lst != TTREF_OK) {
        report(&err);
        rc = exit_of(lst);
        goto done;
      }
      have_lf = 1;
    } else if (strcmp(a, "--kernel") == 0 && has) {
      fname = argv[++i];
    } else if (strcmp(a, "--threads") == 0 && has) {
      int64_t t;
      if (ir_parse_int("--threads", argv[++i], 1, INTERP_MAX_THREADS, &t, &err) != TTREF_OK) {
        report(&err);
        goto done;
      }
      threads = (int)t;
    } else if (strcmp(a, "--ftz") == 0) {
      ftz = 1;
    } else if (strcmp(a, "--contract") == 0) {
      contract = 1;
    } else if (strcmp(a, "--precise") == 0) {
      precise = 1;
    } else if (strcmp(a, "--max-steps") == 0 && has) {
      if (ir_parse_int("--max-steps", argv[++i], 1, RUN_MAX_STEPS, &max_steps, &err) != TTREF_OK) {
        report(&err);
        goto done;
      }
    } else if (strcmp(a, "--inject-fault") == 0 && has) {
      const char *nm = argv[++i];
      ir_opcode oc;
      if (!ir_op_lookup(nm, strlen(nm), &oc)) {
        fprintf(stderr, "error: --inject-fault: unknown op '%s'\n", nm);
        goto done;
      }
      inject_op = (int)oc + 1;
    } else if (strcmp(a, "--check-races") == 0) {
      check_races = 1;
    } else if (strcmp(a, "--stats") == 0) {
      stats = 1;
    } else if (a[0] == '-' ) {
      fprintf(stderr, "error: unknown or incomplete option '%s'\n", a);
      fputs(usage_run, stderr);
      goto done;
    } else if (!kernel) {
      kernel = a;
    } else {
      fprintf(stderr, "error: unexpected argument '%s'\n", a);
      goto done;
    }
  }
  if (have_lf) { /* the launch file fills in what the command line did not say */
    if (!kernel) kernel = lf.kernel;
    if (!fname) fname = lf.function;
    if (!outdir) outdir = lf.out;
    if (!grid_given && lf.has_grid) memcpy(grid, lf.grid, sizeof grid);
    if (!threads) threads = lf.threads;
    if (lf.ftz == 1) ftz = 1;
    if (lf.contract == 1) contract = 1;
    if (lf.precise == 1) precise = 1;
    const char **ns = realloc(specs, sizeof *specs * (size_t)(nspecs + lf.nspecs + 1));
    if (!ns) goto done;
    specs = ns;
    for (int k = 0; k < lf.nspecs; k++) specs[nspecs++] = lf.specs[k];
  }
  if (!kernel) {
    fputs(usage_run, stderr);
    goto done;
  }
  ttref_status st = load(kernel, &m, &err);
  if (st != TTREF_OK) {
    report(&err);
    rc = exit_of(st);
    goto done;
  }
  const ir_func *fn = fname ? ir_module_find_func(m, fname[0] == '@' ? fname + 1 : fname) : ir_module_entry(m);
  if (!fn) {
    fprintf(stderr, "error: %s: no kernel %s%s\n", kernel, fname ? "named " : "", fname ? fname : "");
    goto done;
  }
  st = interp_bind(m, fn, specs, nspecs, &b, &err);
  if (st != TTREF_OK) {
    report(&err);
    rc = exit_of(st);
    goto done;
  }
  bound = 1;
  b.L.grid[0] = grid[0];
  b.L.grid[1] = grid[1];
  b.L.grid[2] = grid[2];
  b.L.threads = threads;
  b.L.ftz = ftz;
  b.L.contract = contract;
  b.L.inject_op = inject_op;
  b.L.max_steps = max_steps;
  b.L.check_races = check_races;
  st = interp_run(&b.L, &err);
  fflush(stdout);
  if (st != TTREF_OK) report(&err);
  else if (b.L.stats.races && !check_races)
    fprintf(stderr, "warning: programs of this launch race (one reads or writes an element another writes, without "
                    "atomics); ttref ran them in program order, as with --threads 1 (--check-races names them)\n");
  rc = exit_of(st);
  /* Outputs are written even after a fault: they show memory as the fault left it. */
  if (outdir) {
    ttref_error werr = {0};
    if (interp_write_outputs(&b, outdir, &werr) != TTREF_OK) {
      report(&werr);
      rc = EXIT_BAD;
    }
  }
  if (precise && rc == EXIT_OK && outdir) {
    /* a second launch on fresh inputs, every float op in binary64 with bounds */
    interp_bound pb;
    ttref_error perr = {0};
    st = interp_bind(m, fn, specs, nspecs, &pb, &perr);
    if (st == TTREF_OK) st = interp_mem_make_precise(pb.mem, &perr);
    if (st == TTREF_OK) {
      pb.L.grid[0] = grid[0];
      pb.L.grid[1] = grid[1];
      pb.L.grid[2] = grid[2];
      pb.L.threads = threads;
      pb.L.precise = true;
      pb.L.print_out = fopen("/dev/null", "w"); /* prints were shown by the first run */
      st = interp_run(&pb.L, &perr);
      if (pb.L.print_out) fclose(pb.L.print_out);
      if (st == TTREF_OK) st = interp_write_precise(&pb, outdir, &perr);
    }
    if (st != TTREF_OK) {
      report(&perr);
      rc = exit_of(st);
    }
    interp_bound_free(&pb);
  } else if (precise && !outdir) {
    fprintf(stderr, "error: --precise needs --out DIR\n");
    rc = EXIT_BAD;
  }
  if (stats) {
    const interp_stats *s = &b.L.stats;
    fprintf(stderr,
            "stats: programs %lld, int div by zero %lld, int div overflow %lld, shift >= width %lld, "
            "fp->int out of range %lld, masked load without other %lld, poison reads %lld, races %lld\n",
            (long long)s->programs, (long long)s->ub_div_zero, (long long)s->ub_div_overflow,
            (long long)s->ub_shift, (long long)s->ub_fptoi, (long long)s->ub_masked_other,
            (long long)s->ub_poison, (long long)s->races);
  }
done:
  if (bound) interp_bound_free(&b);
  interp_launch_file_free(&lf);
  ir_module_free(m);
  free(specs);
  return rc;
}

int main(int argc, char **argv)
{
  gsl_set_error_handler_off();
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
  if (strcmp(cmd, "run") == 0) return cmd_run(argc - 1, argv + 1);
  if (strcmp(cmd, "check") == 0) return cmd_check(argc - 1, argv + 1);
  if (strcmp(cmd, "fmt") == 0) return cmd_fmt(argc - 1, argv + 1);
  if (strcmp(cmd, "conform") == 0) return conform_cmd_conform(argc - 1, argv + 1);
  if (strcmp(cmd, "golden") == 0) return conform_cmd_golden(argc - 1, argv + 1);
  if (strcmp(cmd, "report") == 0) return conform_cmd_report(argc - 1, argv + 1);
  fprintf(stderr, "error: unknown command '%s'\n", cmd);
  usage(stderr);
  return EXIT_BAD;
}
