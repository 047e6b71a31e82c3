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
#include "ir_vendor.h"
#include "interp.h"
#include "interp_launch.h"
#include "interp_debug.h"
#include "interp_fx.h"
#include "conform_cli.h"
#include "conform_localize.h"
#include "conform_mutant.h"

#include <gsl/gsl_errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

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

static double now_s(void) /* --time: monotonic seconds */
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static const char *const usage_run =
    "usage: ttref run KERNEL.ttir --grid X[,Y[,Z]] --arg NAME=@FILE.npy --arg NAME=VALUE ... [--out DIR]\n"
    "       ttref run KERNEL.fx [--sym NAME=INT ...] [--dtype BUF=DT ...] [--oob error|zero] --grid ... --arg ...\n"
    "       ttref run --launch LAUNCH.yaml [options]\n"
    "                 [--kernel NAME] [--threads N] [--ftz] [--contract] [--precise] [--check-races] [--stats] [--max-steps N]\n"
    "  Runs one launch of KERNEL on the CPU with ttref's documented semantics.\n"
    "  --arg binds a kernel argument by its TTIR name (x_ptr or %x_ptr) or 0-based position:\n"
    "        pointers take @FILE.npy (its raw elements are the buffer; bf16/fp8 as <u2/|u1 bits;\n"
    "        the dtype must fit the pointee: float data for f16/f32/f64, integers otherwise),\n"
    "        scalars take a literal typed by the signature (42, -1, 0xff, 1.5, inf, nan, true).\n"
    "  --launch FILE.yaml gives the same as a YAML mapping (kernel, function, grid, args,\n"
    "        out, threads, ftz, contract, precise; paths relative to the file); options on\n"
    "        the command line take precedence. The harness's case.yaml and the corpus case.json\n"
    "        are launch files too; --launch DIR reads DIR/case.yaml or DIR/case.json.\n"
    "  --out DIR writes every pointer argument's buffer after the launch to DIR/NAME.npy\n"
    "        (a symbolic link at DIR/NAME.npy is an error, never followed).\n"
    "  --threads N runs programs on N threads, 1..256 (outputs are identical for any N: racing\n"
    "        programs are detected and re-run in program order, with a warning).\n"
    "  --ftz flushes float subnormal results, and loaded float subnormals, to zero (to compare with FTZ\n"
    "        hardware); a load feeding a bitcast keeps its bits, as on the GPU.\n"
    "  --max-steps N   stop a program after N ops, terminators and loop iterations included (a kernel\n"
    "        that never terminates): exit 1, naming the op\n"
    "  --inject-fault OP  (testing aid) makes every float result of op OP 2^-6 too large, e.g. math.exp\n"
    "  --mutant NAME   (testing aid) runs a mutant backend: the kernel rewritten like a backend bug\n"
    "        (`ttref conform --list-mutants`; docs/compliance.md, Mutation score)\n"
    "  --contract fuses a mulf whose only use is an addf/subf into one FMA, as LLVM does\n"
    "        by default for Triton GPU backends (the exact semantics keep them separate).\n"
    "  --precise also runs the launch in binary64 without rounding and writes, per float\n"
    "        buffer, DIR/NAME.precise.npy (the values) and DIR/NAME.bound.npy (the magnitude\n"
    "        bound: the same computation on |operands|, e.g. sum |a_i*b_i| for a dot).\n"
    "  --check-races faults (exit 1) at the first element one program writes and another\n"
    "        reads or writes without atomics (programs then run in order). Without it, such\n"
    "        conflicts end as in program order (docs/semantics.md).\n"
    "  --stats prints counts of undefined-behaviour cases met (x/0, shifts >= width, ...).\n"
    "  --time prints the phases' wall seconds to stderr: parse, bind (reading the inputs), run, write.\n"
    "  Debugging (docs/debugging.md):\n"
    "  --dump NAME[@PID][[LANES]]  print a value in tt.print format: NAME is a TTIR name (%x_7)\n"
    "        or a Python name from the locations (offs); PID * or X[,Y[,Z]] (default all);\n"
    "        LANES A:B or A; once per definition and loop iteration. Repeatable.\n"
    "  --dump-dir DIR  write dumps as DIR/NAME.pidX-Y-Z[.itK].npy (new files only) instead\n"
    "  --trace   one line per op result: location, type, min/max, NaN/inf counts, first lanes\n"
    "  --trace-pids X[,Y[,Z]]  trace only these programs (repeatable; implies --trace)\n"
    "  --trap nan|inf|nan,inf  fault (exit 1) at the first op whose result is NaN/inf from\n"
    "        operands without one (masked-off lanes excepted)\n"
    "  --check-uninit  fault when a masked-off lane of a load without `other`, or a never-written\n"
    "        element of an @new: buffer, reaches a store, a reduction, a branch, a mask or an address\n"
    "  --arg NAME=@new:DTYPE[N,...]  a fresh zero-filled buffer that counts as uninitialised\n"
    "  Undefined behaviour (x/0, INT_MIN/-1, shifts >= width, fp->int out of range, nsw/nuw\n"
    "  overflow) in unmasked lanes prints a warning per case (first 10, then a count);\n"
    "  --strict makes the first one a fault (exit 1), --quiet hides them.\n"
    "  Traced kernels (TK fx traces, KERNEL.fx; docs/traced.md): buffers bind by placeholder target,\n"
    "  --sym NAME=INT  binds a shape symbol (default: from the .npy shapes of the buffers that name it)\n"
    "  --dtype BUF=DT  element type of a buffer (default: the trace's .of(DT), else f32)\n"
    "  --oob error|zero  out-of-bounds loads/stores fault (default) or read 0 / are skipped (older TK)\n"
    "  Vendor ops: --ops PLUGIN.so (any command, repeatable; docs/api.md, Vendor ops).\n"
    "  Exit: 0 ran, 1 the kernel faulted (out-of-bounds access, failed assert), 2 bad input.\n";

static const char *const usage_check =
    "usage: ttref check FILE.ttir\n"
    "       ttref check FILE.fx [--sym NAME=INT ...] [--dtype BUF=DT ...]\n"
    "  Parses and verifies FILE; prints nothing and exits 0 when it is valid,\n"
    "  otherwise prints FILE:LINE:COL: error: ... and exits 2. A traced kernel (.fx) is\n"
    "  parsed and name-checked; with --sym it is also lowered and verified.\n"
    "  --ops PLUGIN.so  accept the vendor ops the plugin registers (repeatable).\n";

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
  interp_fx_opts fxo = {0}; /* traced kernels: --sym/--dtype/--oob (docs/traced.md) */
  int fxr = 0;
  for (int i = 2; i < argc && fxr >= 0; i++)
    if ((fxr = interp_fx_option(argc, argv, &i, &fxo)) == 0) fxr = -2;
  if (argc >= 2 && fxr >= 0 && fxo.any && !interp_fx_is(argv[1])) {
    fprintf(stderr, "error: --sym, --dtype and --oob are for traced kernels (.fx); %s is TTIR\n", argv[1]);
    fxr = -1;
  }
  if (argc < 2 || fxr < 0) {
    interp_fx_opts_free(&fxo);
    return fxr == -1 ? EXIT_BAD : (fputs(usage_check, stderr), EXIT_BAD);
  }
  ttref_error err = {0};
  ir_module *m = NULL;
  ttref_status st = !interp_fx_is(argv[1]) ? load(argv[1], &m, &err)
                    : fxo.nsyms ? interp_fx_load(argv[1], &fxo, NULL, 0, &m, NULL, NULL, &err)
                                : interp_fx_check_syntax(argv[1], &err);
  interp_fx_opts_free(&fxo);
  if (st != TTREF_OK) report(&err);
  ir_module_free(m);
  return exit_of(st);
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
  int mutant = -1;
  int64_t grid[3] = {1, 1, 1};
  int grid_given = 0, have_lf = 0;
  interp_launch_file lf;
  memset(&lf, 0, sizeof lf);
  int64_t max_steps = 0;
  int inject_op = 0, threads = 0, stats = 0, ftz = 0, contract = 0, precise = 0, check_races = 0, rc = EXIT_BAD, fxr = 0;
  interp_fx_opts fxo = {0}; /* traced kernels (.fx): --sym, --dtype, --oob */
  const char **dumps = calloc((size_t)argc + 1, sizeof *dumps), **trace_pids = calloc((size_t)argc + 1, sizeof *trace_pids);
  const char *dump_dir = NULL;
  int ndumps = 0, ntrace_pids = 0, trace = 0, trap = 0, check_uninit = 0;
  int timing = 0;
  double t0 = now_s(), t_parse = t0, t_bind = t0, t_run = t0;
  interp_ub_mode ub_mode = INTERP_UB_WARN;
  interp_debug *dbg = NULL;
  const char **specs = calloc((size_t)argc + 1, sizeof *specs);
  int nspecs = 0;
  ttref_error err = {0};
  ir_module *m = NULL;
  interp_bound b;
  int bound = 0;
  if (!specs || !dumps || !trace_pids) {
    free(specs);
    free(dumps);
    free(trace_pids);
    return EXIT_BAD;
  }
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    int has = i + 1 < argc;
    if ((fxr = interp_fx_option(argc, argv, &i, &fxo)) != 0) {
      if (fxr < 0) goto done;
    } else if (strcmp(a, "--grid") == 0 && has) {
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
      const char *lpath = argv[++i];
      char dpath[4200];
      struct stat lsb;
      if (stat(lpath, &lsb) == 0 && S_ISDIR(lsb.st_mode)) { /* a case directory: its case.yaml or case.json */
        snprintf(dpath, sizeof dpath, "%s/case.yaml", lpath);
        if (stat(dpath, &lsb) != 0) snprintf(dpath, sizeof dpath, "%s/case.json", lpath);
        lpath = dpath;
      }
      ttref_status lst = interp_launch_file_read(lpath, &lf, &err);
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
    } else if (strcmp(a, "--mutant") == 0 && has) {
      if (!conform_mutant_lookup(argv[++i], &mutant)) {
        fprintf(stderr, "error: --mutant: unknown mutant '%s' (see ttref conform --list-mutants)\n", argv[i]);
        goto done;
      }
    } else if (strcmp(a, "--check-races") == 0) {
      check_races = 1;
    } else if (strcmp(a, "--stats") == 0) {
      stats = 1;
    } else if (strcmp(a, "--time") == 0) {
      timing = 1;
    } else if (strcmp(a, "--dump") == 0 && has) {
      dumps[ndumps++] = argv[++i];
    } else if (strcmp(a, "--dump-dir") == 0 && has) {
      dump_dir = argv[++i];
    } else if (strcmp(a, "--trace") == 0) {
      trace = 1;
    } else if (strcmp(a, "--trace-pids") == 0 && has) {
      trace_pids[ntrace_pids++] = argv[++i];
    } else if (strcmp(a, "--trap") == 0 && has) {
      const char *t = argv[++i];
      if (!strcmp(t, "nan")) trap |= INTERP_TRAP_NAN;
      else if (!strcmp(t, "inf")) trap |= INTERP_TRAP_INF;
      else if (!strcmp(t, "nan,inf") || !strcmp(t, "inf,nan")) trap |= INTERP_TRAP_NAN | INTERP_TRAP_INF;
      else {
        fprintf(stderr, "error: --trap takes nan, inf or nan,inf, not '%s'\n", t);
        goto done;
      }
    } else if (strcmp(a, "--check-uninit") == 0) {
      check_uninit = 1;
    } else if (strcmp(a, "--strict") == 0) {
      ub_mode = INTERP_UB_STRICT;
    } else if (strcmp(a, "--quiet") == 0) {
      ub_mode = INTERP_UB_QUIET;
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
  if (!grid_given && !(have_lf && lf.has_grid)) { /* running one program silently hides a forgotten grid */
    fprintf(stderr, "error: no grid: give --grid X[,Y[,Z]] (or grid: in the launch file)\n");
    goto done;
  }
  if (fxo.any && !interp_fx_is(kernel)) {
    fprintf(stderr, "error: --sym, --dtype and --oob are for traced kernels (.fx); %s is TTIR\n", kernel);
    goto done;
  }
  t0 = now_s();
  ttref_status st = interp_fx_is(kernel) ? interp_fx_load(kernel, &fxo, specs, nspecs, &m, NULL, NULL, &err) : load(kernel, &m, &err);
  t_parse = now_s();
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
  for (int k = 0; k < nspecs; k++) { /* "?NAME=V" (list-form launch args): skip names the signature lacks */
    if (specs[k][0] != '?') continue;
    const char *nm = specs[k] + 1, *eq = strchr(nm, '=');
    size_t nl = eq ? (size_t)(eq - nm) : strlen(nm);
    int found = 0;
    for (int a = 0; a < fn->nargs && !found; a++)
      found = fn->args[a].name && strlen(fn->args[a].name) == nl && !strncmp(fn->args[a].name, nm, nl);
    specs[k] = found ? nm : NULL;
  }
  {
    int w = 0;
    for (int k = 0; k < nspecs; k++)
      if (specs[k]) specs[w++] = specs[k];
    nspecs = w;
  }
  if (mutant >= 0) {
    conform_mutant_opts mo;
    int sites;
    st = conform_mutant_apply(m, mutant, true, &mo, &sites, &err);
    if (st != TTREF_OK) {
      report(&err);
      rc = exit_of(st);
      goto done;
    }
    ftz |= mo.ftz;
    contract |= mo.contract;
  }
  t_bind = now_s();
  st = interp_bind(m, fn, specs, nspecs, &b, &err);
  t_bind = now_s() - t_bind;
  if (st != TTREF_OK) {
    report(&err);
    rc = exit_of(st);
    goto done;
  }
  bound = 1;
  if (outdir && (st = interp_check_out_names(&b, precise, &err)) != TTREF_OK) { /* before running: no output overwrites another */
    report(&err);
    rc = exit_of(st);
    goto done;
  }
  b.L.grid[0] = grid[0];
  b.L.grid[1] = grid[1];
  b.L.grid[2] = grid[2];
  b.L.threads = threads;
  b.L.ftz = ftz;
  b.L.contract = contract;
  b.L.inject_op = inject_op;
  b.L.max_steps = max_steps;
  b.L.check_races = check_races;
  if (dump_dir && !ndumps) {
    fprintf(stderr, "error: --dump-dir needs at least one --dump NAME\n");
    goto done;
  }
  if (!(dbg = interp_debug_new(m, fn))) goto done;
  for (int k = 0; k < ndumps && st == TTREF_OK; k++) st = interp_debug_add_dump(dbg, dumps[k], &err);
  if (dump_dir && st == TTREF_OK) st = interp_debug_set_dump_dir(dbg, dump_dir, &err);
  if (trace && !ntrace_pids && st == TTREF_OK) st = interp_debug_set_trace(dbg, NULL, &err);
  for (int k = 0; k < ntrace_pids && st == TTREF_OK; k++) st = interp_debug_set_trace(dbg, trace_pids[k], &err);
  if (st != TTREF_OK) {
    report(&err);
    rc = exit_of(st);
    goto done;
  }
  interp_debug_set_trap(dbg, trap);
  interp_debug_set_check_uninit(dbg, check_uninit);
  interp_debug_set_ub_mode(dbg, ub_mode);
  interp_debug_attach(dbg, &b.L);
  t_run = now_s();
  st = interp_run(&b.L, &err);
  t_run = now_s() - t_run;
  fflush(stdout);
  interp_debug_finish(dbg);
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
  if (timing) {
    double t_end = now_s();
    fprintf(stderr, "time: parse %.6f s, bind %.6f s, run %.6f s, write %.6f s, total %.6f s\n", t_parse - t0, t_bind,
            t_run, t_end - t_parse - t_bind - t_run, t_end - t0);
  }
  if (stats) {
    const interp_stats *s = &b.L.stats;
    fprintf(stderr,
            "stats: programs %lld, int div by zero %lld, int div overflow %lld, shift >= width %lld, "
            "fp->int out of range %lld, masked load without other %lld, poison reads %lld, races %lld, "
            "nsw/nuw overflow %lld\n",
            (long long)s->programs, (long long)s->ub_div_zero, (long long)s->ub_div_overflow,
            (long long)s->ub_shift, (long long)s->ub_fptoi, (long long)s->ub_masked_other,
            (long long)s->ub_poison, (long long)s->races, (long long)s->ub_overflow);
  }
done:
  interp_debug_free(dbg);
  free(dumps);
  free(trace_pids);
  interp_fx_opts_free(&fxo);
  if (bound) interp_bound_free(&b);
  interp_launch_file_free(&lf);
  ir_module_free(m);
  free(specs);
  return rc;
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

static int dispatch(int argc, char **argv);

int main(int argc, char **argv)
{
  ttref_registry *ops = NULL;
  if (argc >= 2 && load_ops(&argc, argv, &ops) != EXIT_OK) return EXIT_BAD;
  int rc = dispatch(argc, argv);
  ir_vendor_set_process(NULL);
  ttref_registry_free(ops);
  return rc;
}

static int dispatch(int argc, char **argv)
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
  if (strcmp(cmd, "run") == 0) return cmd_run(argc - 1, argv + 1);
  if (strcmp(cmd, "check") == 0) return cmd_check(argc - 1, argv + 1);
  if (strcmp(cmd, "fmt") == 0) return cmd_fmt(argc - 1, argv + 1);
  if (strcmp(cmd, "conform") == 0) return conform_cmd_conform(argc - 1, argv + 1);
  if (strcmp(cmd, "golden") == 0) return conform_cmd_golden(argc - 1, argv + 1);
  if (strcmp(cmd, "report") == 0) return conform_cmd_report(argc - 1, argv + 1);
  if (strcmp(cmd, "coverage") == 0) return conform_cmd_coverage(argc - 1, argv + 1);
  fprintf(stderr, "error: unknown command '%s'\n", cmd);
  usage(stderr);
  return EXIT_BAD;
}
