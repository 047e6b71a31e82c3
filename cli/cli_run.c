/*
 * cli_run.c: `ttref run`, `ttref check` and `ttref fmt`, built only on the
 * public API (ttref.h): the command line and launch files become a kernel, a
 * launch bound from --arg specs, options and debugging aids; buffers go to --out.
 */
#include "cli_run.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

enum { EXIT_OK = 0, EXIT_FAULT = 1, EXIT_BAD = 2 };

/* --threads upper bound: libgomp fails or crashes creating thousands */
#define RUN_MAX_THREADS 256
/* --max-steps upper bound: far beyond any run, and step counters cannot overflow */
#define RUN_MAX_STEPS   ((int64_t)1 << 62)

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

static double now_s(void) /* --time: monotonic seconds */
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static const char *const usage_run =
    "usage: ttref run KERNEL.ttir --grid X[,Y[,Z]] --arg NAME=@FILE.npy --arg NAME=VALUE ... [--out DIR [--outputs "
    "NAME,...]]\n"
    "       ttref run KERNEL.fx [--sym NAME=INT ...] [--dtype BUF=DT ...] [--oob error|zero] --grid ... --arg ...\n"
    "       ttref run --launch LAUNCH.yaml [options]\n"
    "                 [--kernel NAME] [--threads N] [--ftz] [--contract] [--precise] [--check-races] [--stats] "
    "[--max-steps N]\n"
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
    "  --outputs NAME,...  (with --out) writes only these pointer arguments' buffers (names as for\n"
    "        --arg; repeatable); the kernel still reads and writes the others in memory.\n"
    "  --threads N runs programs on N threads, 1..256 (outputs are identical for any N: racing\n"
    "        programs are detected and re-run in program order, with a warning).\n"
    "  --ftz flushes float subnormal results, and loaded float subnormals, to zero (to compare with FTZ\n"
    "        hardware); a load feeding a bitcast keeps its bits, as on the GPU.\n"
    "  --max-steps N   stop a program after N ops, terminators and loop iterations included (a kernel\n"
    "        that never terminates): exit 1, naming the op\n"
    "  --inject-fault OP  (testing aid) makes every float result of op OP 2^-6 too large, e.g. math.exp\n"
    "        or a vendor op of a loaded plugin\n"
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

/* A strict decimal integer in [lo, hi] for option @p what; prints the error and returns false otherwise. */
static bool parse_int(const char *what, const char *s, int64_t lo, int64_t hi, int64_t *out)
{
  const char *p = s;
  bool neg = false, big = false;
  uint64_t v = 0, lim;
  if (!s || !*s) return fprintf(stderr, "error: %s: needs an integer, got an empty string\n", what), false;
  if (*p == '+' || *p == '-') neg = *p++ == '-';
  if (!*p) return fprintf(stderr, "error: %s: '%.40s' is not an integer\n", what, s), false;
  lim = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
  for (; *p; p++) {
    if (*p < '0' || *p > '9') return fprintf(stderr, "error: %s: '%.40s' is not an integer\n", what, s), false;
    unsigned d = (unsigned)(*p - '0');
    if (v > (lim - d) / 10) big = true;
    else v = v * 10 + d;
  }
  if (big)
    return fprintf(stderr, "error: %s: %.40s%s does not fit in 64 bits (allowed: %" PRId64 "..%" PRId64 ")\n", what, s,
                   strlen(s) > 40 ? "..." : "", lo, hi),
           false;
  int64_t x = neg ? (v == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)v) : (int64_t)v;
  if (x < lo || x > hi)
    return fprintf(stderr, "error: %s: %" PRId64 " is out of range (allowed: %" PRId64 "..%" PRId64 ")\n", what, x, lo,
                   hi),
           false;
  *out = x;
  return true;
}

/* --grid X[,Y[,Z]]: each dimension a strict integer in [0, 2^31) */
static bool parse_grid(const char *s, int64_t g[3])
{
  g[0] = g[1] = g[2] = 1;
  for (int k = 0;; k++) {
    const char *comma = strchr(s, ',');
    size_t len = comma ? (size_t)(comma - s) : strlen(s);
    char buf[32];
    if (k == 3) return fprintf(stderr, "error: --grid: more than 3 dimensions\n"), false;
    if (len >= sizeof buf)
      return fprintf(stderr, "error: --grid: '%.40s...' is not an integer in 0..2147483647\n", s), false;
    memcpy(buf, s, len);
    buf[len] = 0;
    if (!parse_int("--grid", buf, 0, INT32_MAX, &g[k])) return false;
    if (!comma) return true;
    s = comma + 1;
  }
}

/* Traced kernels (.fx): --sym NAME=INT, --dtype BUF=DT, --oob error|zero (borrowed from argv). */
typedef struct fx_args {
  const char **syms, **dtypes; /* room for argc entries each */
  int nsyms, ndtypes, oob_zero;
  bool any;
} fx_args;

/* 1: argv[*i] was a traced-kernel option (consumed with its value); 0: another; -1: malformed (printed). */
static int fx_option(int argc, char **argv, int *i, fx_args *o)
{
  const char *a = argv[*i];
  bool sym = !strcmp(a, "--sym"), dt = !strcmp(a, "--dtype"), oob = !strcmp(a, "--oob");
  if (!sym && !dt && !oob) return 0;
  if (*i + 1 >= argc) return fprintf(stderr, "error: %s needs a value\n", a), -1;
  const char *v = argv[++*i];
  o->any = true;
  if (oob) {
    if (!strcmp(v, "error")) o->oob_zero = 0;
    else if (!strcmp(v, "zero")) o->oob_zero = 1;
    else return fprintf(stderr, "error: --oob '%s': expected error or zero\n", v), -1;
    return 1;
  }
  const char *eq = strchr(v, '=');
  if (!eq || eq == v || !eq[1])
    return fprintf(stderr, "error: %s '%s': expected %s\n", a, v, sym ? "NAME=INTEGER" : "BUFFER=DTYPE"), -1;
  if (sym) {
    char *end;
    strtoll(eq + 1, &end, 0);
    if (*end) return fprintf(stderr, "error: --sym '%s': '%s' is not an integer\n", v, eq + 1), -1;
    o->syms[o->nsyms++] = v;
  } else o->dtypes[o->ndtypes++] = v;
  return 1;
}

int cli_cmd_run(int argc, char **argv, const ttref_registry *reg)
{
  for (int i = 1; i < argc; i++)
    if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) return fputs(usage_run, stdout), EXIT_OK;
  const char *kernel = NULL, *outdir = NULL, *fname = NULL, *inject = NULL, *mutant = NULL;
  int64_t grid[3] = {1, 1, 1}, max_steps = 0, threads = 0;
  int grid_given = 0, stats = 0, ftz = 0, contract = 0, precise = 0, check_races = 0, rc = EXIT_BAD, fxr = 0;
  fx_args fxo = {0};
  const char **dumps = calloc((size_t)argc + 1, sizeof *dumps),
             **trace_pids = calloc((size_t)argc + 1, sizeof *trace_pids);
  const char *dump_dir = NULL;
  const char **outs = calloc((size_t)argc + 1, sizeof *outs); /* --outputs values, split after the kernel loads */
  char *outbuf = NULL;
  const char **outnames = NULL;
  int nouts = 0, noutnames = 0;
  int ndumps = 0, ntrace_pids = 0, trace = 0, trap = 0, check_uninit = 0, timing = 0;
  int64_t ub = 1; /* TTREF_OPT_UB: 1 a located warning per case, 2 --strict, 3 --quiet */
  double t0 = now_s(), t_parse = t0, t_bind = t0, t_run = t0;
  const char **specs = calloc((size_t)argc + 1, sizeof *specs);
  int nspecs = 0;
  ttref_error err = {0};
  ttref_status st = TTREF_OK;
  ttref_launch_file *lf = NULL;
  ttref_kernel *k = NULL;
  ttref_launch *l = NULL;
  fxo.syms = calloc((size_t)argc + 1, sizeof *fxo.syms);
  fxo.dtypes = calloc((size_t)argc + 1, sizeof *fxo.dtypes);
  if (!specs || !dumps || !trace_pids || !fxo.syms || !fxo.dtypes || !outs) goto done;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    int has = i + 1 < argc;
    if ((fxr = fx_option(argc, argv, &i, &fxo)) != 0) {
      if (fxr < 0) goto done;
    } else if (strcmp(a, "--grid") == 0 && has) {
      grid_given = 1;
      if (!parse_grid(argv[++i], grid)) goto done;
    } else if (strcmp(a, "--arg") == 0 && has) {
      specs[nspecs++] = argv[++i];
    } else if (strcmp(a, "--out") == 0 && has) {
      outdir = argv[++i];
    } else if (strcmp(a, "--outputs") == 0 && has) {
      outs[nouts++] = argv[++i];
    } else if (strcmp(a, "--launch") == 0 && has) {
      if (lf) {
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
      if (!(lf = ttref_launch_file_read(lpath, &err))) {
        report(&err);
        rc = exit_of(err.code);
        goto done;
      }
    } else if (strcmp(a, "--kernel") == 0 && has) {
      fname = argv[++i];
    } else if (strcmp(a, "--threads") == 0 && has) {
      if (!parse_int("--threads", argv[++i], 1, RUN_MAX_THREADS, &threads)) goto done;
    } else if (strcmp(a, "--ftz") == 0) {
      ftz = 1;
    } else if (strcmp(a, "--contract") == 0) {
      contract = 1;
    } else if (strcmp(a, "--precise") == 0) {
      precise = 1;
    } else if (strcmp(a, "--max-steps") == 0 && has) {
      if (!parse_int("--max-steps", argv[++i], 1, RUN_MAX_STEPS, &max_steps)) goto done;
    } else if (strcmp(a, "--inject-fault") == 0 && has) {
      inject = argv[++i]; /* checked against the kernel's ops and vendor ops once it is loaded */
    } else if (strcmp(a, "--mutant") == 0 && has) {
      mutant = argv[++i];
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
      if (!strcmp(t, "nan")) trap |= 1;
      else if (!strcmp(t, "inf")) trap |= 2;
      else if (!strcmp(t, "nan,inf") || !strcmp(t, "inf,nan")) trap |= 3;
      else {
        fprintf(stderr, "error: --trap takes nan, inf or nan,inf, not '%s'\n", t);
        goto done;
      }
    } else if (strcmp(a, "--check-uninit") == 0) {
      check_uninit = 1;
    } else if (strcmp(a, "--strict") == 0) {
      ub = 2;
    } else if (strcmp(a, "--quiet") == 0) {
      ub = 3;
    } else if (a[0] == '-') {
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
  if (lf) { /* the launch file fills in what the command line did not say */
    int64_t v;
    if (!kernel) kernel = ttref_launch_file_str(lf, "kernel");
    if (!fname) fname = ttref_launch_file_str(lf, "function");
    if (!outdir) outdir = ttref_launch_file_str(lf, "out");
    if (!grid_given && ttref_launch_file_grid(lf, grid)) grid_given = 1;
    if (!threads && ttref_launch_file_option(lf, TTREF_OPT_THREADS, &v)) threads = v;
    if (ttref_launch_file_option(lf, TTREF_OPT_FTZ, &v) && v == 1) ftz = 1;
    if (ttref_launch_file_option(lf, TTREF_OPT_CONTRACT, &v) && v == 1) contract = 1;
    if (ttref_launch_file_option(lf, TTREF_OPT_PRECISE, &v) && v == 1) precise = 1;
    const int nl = ttref_launch_file_nargs(lf);
    const char **ns = realloc(specs, sizeof *specs * (size_t)(nspecs + nl + 1));
    if (!ns) goto done;
    specs = ns;
    for (int q = 0; q < nl; q++) specs[nspecs++] = ttref_launch_file_arg(lf, q);
  }
  if (!kernel) {
    fputs(usage_run, stderr);
    goto done;
  }
  if (nouts && !outdir) {
    fprintf(stderr, "error: --outputs needs --out DIR (it names the buffers --out writes)\n");
    goto done;
  }
  if (nouts) { /* NAME,NAME,...: split into one array; an empty name is an error */
    size_t total = 0;
    for (int q = 0; q < nouts; q++) total += strlen(outs[q]) + 1;
    outbuf = malloc(total);
    outnames = calloc(total + 1, sizeof *outnames);
    if (!outbuf || !outnames) goto done;
    char *w = outbuf;
    for (int q = 0; q < nouts; q++) {
      const char *v = outs[q];
      for (;;) {
        const char *comma = strchr(v, ',');
        size_t len = comma ? (size_t)(comma - v) : strlen(v);
        if (len == 0) {
          fprintf(stderr, "error: --outputs '%s': empty name (expected NAME[,NAME...])\n", outs[q]);
          goto done;
        }
        memcpy(w, v, len);
        w[len] = 0;
        outnames[noutnames++] = w;
        w += len + 1;
        if (!comma) break;
        v = comma + 1;
      }
    }
  }
  if (!grid_given) { /* running one program silently hides a forgotten grid */
    fprintf(stderr, "error: no grid: give --grid X[,Y[,Z]] (or grid: in the launch file)\n");
    goto done;
  }
  const bool fx = ttref_kernel_is_fx(kernel);
  if (fxo.any && !fx) {
    fprintf(stderr, "error: --sym, --dtype and --oob are for traced kernels (.fx); %s is TTIR\n", kernel);
    goto done;
  }
  t0 = now_s();
  if (fx) {
    const ttref_fx_options fo = {fxo.syms, fxo.nsyms, fxo.dtypes, fxo.ndtypes, fxo.oob_zero};
    k = ttref_kernel_load_fx_ex(kernel, &fo, specs, nspecs, fname, &err);
  } else k = ttref_kernel_load_ex(kernel, fname, reg, &err);
  t_parse = now_s();
  if (!k) {
    report(&err);
    rc = exit_of(err.code);
    goto done;
  }
  { /* "?NAME=V" (list-form launch args): drop names the signature lacks */
    int w = 0;
    for (int q = 0; q < nspecs; q++) {
      const char *s = specs[q];
      if (s[0] == '?') {
        const char *nm = s + 1, *eq = strchr(nm, '=');
        size_t nl = eq ? (size_t)(eq - nm) : strlen(nm);
        bool found = false;
        for (int a = 0; a < ttref_kernel_nargs(k) && !found; a++) {
          const char *an = ttref_kernel_arg_name(k, a);
          found = an && an[0] && strlen(an) == nl && !strncmp(an, nm, nl);
        }
        s = found ? nm : NULL;
      }
      if (s) specs[w++] = s;
    }
    nspecs = w;
  }
  if (mutant && (st = ttref_kernel_mutate(k, mutant, &err)) != TTREF_OK) {
    report(&err);
    rc = exit_of(st);
    goto done;
  }
  if (!(l = ttref_launch_new(k, &err)) || (st = ttref_launch_inject_fault(l, inject, &err)) != TTREF_OK) {
    report(&err);
    rc = l ? exit_of(st) : EXIT_BAD;
    goto done;
  }
  t_bind = now_s();
  st = ttref_launch_bind_args(l, specs, nspecs, &err);
  t_bind = now_s() - t_bind;
  if (st != TTREF_OK) {
    report(&err);
    rc = exit_of(st);
    goto done;
  }
  const struct {
    ttref_option o;
    int64_t v;
  } opts[] = {{TTREF_OPT_THREADS, threads},
              {TTREF_OPT_FTZ, ftz},
              {TTREF_OPT_CONTRACT, contract},
              {TTREF_OPT_MAX_STEPS, max_steps},
              {TTREF_OPT_CHECK_RACES, check_races},
              {TTREF_OPT_PRECISE, precise && outdir},
              {TTREF_OPT_TRAP, trap},
              {TTREF_OPT_CHECK_UNINIT, check_uninit},
              {TTREF_OPT_UB, ub}};
  for (size_t q = 0; q < sizeof opts / sizeof opts[0] && st == TTREF_OK; q++)
    st = ttref_launch_set(l, opts[q].o, opts[q].v, &err);
  if (st == TTREF_OK && noutnames) st = ttref_launch_set_outputs(l, outnames, noutnames, &err);
  /* before running: no output overwrites another */
  if (st == TTREF_OK && outdir) st = ttref_launch_save(l, outdir, TTREF_SAVE_CHECK, &err);
  if (st != TTREF_OK) {
    report(&err);
    rc = exit_of(st);
    goto done;
  }
  if (dump_dir && !ndumps) {
    fprintf(stderr, "error: --dump-dir needs at least one --dump NAME\n");
    goto done;
  }
  for (int q = 0; q < ndumps && st == TTREF_OK; q++) st = ttref_launch_dump(l, dumps[q], &err);
  if (dump_dir && st == TTREF_OK) st = ttref_launch_dump_dir(l, dump_dir, &err);
  if (trace && !ntrace_pids && st == TTREF_OK) st = ttref_launch_trace(l, NULL, &err);
  for (int q = 0; q < ntrace_pids && st == TTREF_OK; q++) st = ttref_launch_trace(l, trace_pids[q], &err);
  if (st != TTREF_OK) {
    report(&err);
    rc = exit_of(st);
    goto done;
  }
  t_run = now_s();
  st = ttref_launch_run(l, (uint32_t)grid[0], (uint32_t)grid[1], (uint32_t)grid[2], &err);
  t_run = now_s() - t_run;
  if (st != TTREF_OK) report(&err);
  else if (ttref_launch_stat(l, TTREF_STAT_RACES) && !check_races)
    fprintf(stderr, "warning: programs of this launch race (one reads or writes an element another writes, without "
                    "atomics); ttref ran them in program order, as with --threads 1 (--check-races names them)\n");
  rc = exit_of(st);
  /* Outputs are written even after a fault: they show memory as the fault left it; after a
   * precise run also the binary64 values and bounds. */
  if (outdir) {
    ttref_error werr = {0};
    if (ttref_launch_save(l, outdir, 0, &werr) != TTREF_OK) {
      report(&werr);
      rc = EXIT_BAD;
    }
  } else if (precise) {
    fprintf(stderr, "error: --precise needs --out DIR\n");
    rc = EXIT_BAD;
  }
  if (timing) {
    double t_end = now_s();
    fprintf(stderr, "time: parse %.6f s, bind %.6f s, run %.6f s, write %.6f s, total %.6f s\n", t_parse - t0, t_bind,
            t_run, t_end - t_parse - t_bind - t_run, t_end - t0);
  }
  if (stats) {
    fputs("stats:", stderr);
    for (int s = 0; s < TTREF_STAT_COUNT; s++)
      fprintf(stderr, "%s %s %lld", s ? "," : "", ttref_stat_label((ttref_stat)s),
              (long long)ttref_launch_stat(l, (ttref_stat)s));
    fputc('\n', stderr);
  }
done:
  ttref_launch_free(l);
  ttref_kernel_free(k);
  ttref_launch_file_free(lf);
  free(dumps);
  free(trace_pids);
  free(fxo.syms);
  free(fxo.dtypes);
  free(specs);
  free(outs);
  free(outbuf);
  free(outnames);
  return rc;
}

static const char *const usage_check =
    "usage: ttref check FILE.ttir\n"
    "       ttref check FILE.fx [--sym NAME=INT ...] [--dtype BUF=DT ...]\n"
    "  Parses and verifies FILE; prints nothing and exits 0 when it is valid,\n"
    "  otherwise prints FILE:LINE:COL: error: ... and exits 2. A traced kernel (.fx) is\n"
    "  parsed and name-checked; with --sym it is also lowered and verified.\n"
    "  --ops PLUGIN.so  accept the vendor ops the plugin registers (repeatable).\n";

int cli_cmd_check(int argc, char **argv, const ttref_registry *reg)
{
  for (int i = 1; i < argc; i++)
    if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) return fputs(usage_check, stdout), EXIT_OK;
  fx_args fxo = {0}; /* traced kernels: --sym/--dtype/--oob (docs/traced.md) */
  int fxr = 0, rc = EXIT_BAD;
  fxo.syms = calloc((size_t)argc + 1, sizeof *fxo.syms);
  fxo.dtypes = calloc((size_t)argc + 1, sizeof *fxo.dtypes);
  if (!fxo.syms || !fxo.dtypes) goto done;
  for (int i = 2; i < argc && fxr >= 0; i++)
    if ((fxr = fx_option(argc, argv, &i, &fxo)) == 0) fxr = -2;
  if (argc >= 2 && fxr >= 0 && fxo.any && !ttref_kernel_is_fx(argv[1])) {
    fprintf(stderr, "error: --sym, --dtype and --oob are for traced kernels (.fx); %s is TTIR\n", argv[1]);
    goto done;
  }
  if (argc < 2 || fxr < 0) {
    if (fxr != -1) fputs(usage_check, stderr);
    goto done;
  }
  ttref_error err = {0};
  const ttref_fx_options fo = {fxo.syms, fxo.nsyms, fxo.dtypes, fxo.ndtypes, fxo.oob_zero};
  ttref_status st = ttref_check(argv[1], reg, fxo.nsyms ? &fo : NULL, &err); /* a trace without --sym: syntax only */
  if (st != TTREF_OK) report(&err);
  rc = exit_of(st);
done:
  free(fxo.syms);
  free(fxo.dtypes);
  return rc;
}

static const char *const usage_fmt =
    "usage: ttref fmt FILE.ttir [-o OUT] [--probes]\n"
    "       ttref fmt FILE.fx --sym NAME=INT ... [--dtype BUF=DT ...] [--oob error|zero] [-o OUT] [--probes]\n"
    "  Prints FILE as canonical TTIR (idempotent; re-parses to the same IR; accepted by Triton);\n"
    "  a traced kernel (.fx) is printed as its lowering, every op located at its fx node.\n"
    "  --probes  also store every value `ttref conform --localize` probes to a new trailing pointer\n"
    "            argument %ttref_probe_K (numel x programs elements; docs/compliance.md, Localisation)\n"
    "  --ops PLUGIN.so  accept the vendor ops the plugin registers (repeatable).\n";

int cli_cmd_fmt(int argc, char **argv, const ttref_registry *reg)
{
  for (int i = 1; i < argc; i++)
    if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) return fputs(usage_fmt, stdout), EXIT_OK;
  const char *in = NULL, *outp = NULL;
  int fxr = 0, rc = EXIT_BAD;
  unsigned flags = 0;
  fx_args fxo = {0};
  fxo.syms = calloc((size_t)argc + 1, sizeof *fxo.syms);
  fxo.dtypes = calloc((size_t)argc + 1, sizeof *fxo.dtypes);
  if (!fxo.syms || !fxo.dtypes) goto done;
  for (int i = 1; i < argc; i++) {
    if ((fxr = fx_option(argc, argv, &i, &fxo)) != 0) {
      if (fxr < 0) goto done;
    } else if (strcmp(argv[i], "-o") == 0 && i + 1 < argc) outp = argv[++i];
    else if (strcmp(argv[i], "--probes") == 0) flags |= TTREF_PRINT_PROBES;
    else if (!in) in = argv[i];
    else {
      fputs(usage_fmt, stderr);
      goto done;
    }
  }
  if (!in) {
    fputs(usage_fmt, stderr);
    goto done;
  }
  if (fxo.any && !ttref_kernel_is_fx(in)) {
    fprintf(stderr, "error: --sym, --dtype and --oob are for traced kernels (.fx); %s is TTIR\n", in);
    goto done;
  }
  ttref_error err = {0};
  const ttref_fx_options fo = {fxo.syms, fxo.nsyms, fxo.dtypes, fxo.ndtypes, fxo.oob_zero};
  ttref_status st = ttref_print(in, reg, &fo, flags, outp, &err);
  if (st != TTREF_OK) report(&err);
  rc = exit_of(st);
done:
  free(fxo.syms);
  free(fxo.dtypes);
  return rc;
}
