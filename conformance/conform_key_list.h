/*
 * conform_key_list.h: every YAML key the harness reads (suite case files and
 * backend config files), one row each. Columns: X(NAME, "spelling"). Expanded
 * by conform_key.h (enum conform_key) and conform_key.c (spelling table).
 * No include guard: include it only inside an X definition.
 */
X(NAME,            "name")             /* case or backend name */
X(DESCRIPTION,     "description")      /* free text */
X(KERNEL,          "kernel")           /* .ttir path, relative to the case file */
X(FUNCTION,        "function")         /* tt.func to launch (default: the entry) */
X(OP,              "op")               /* op family for the op x dtype matrix */
X(TAGS,            "tags")             /* list of free-form labels */
X(REQUIRES,        "requires")         /* {dtypes, features} a backend must support */
X(DTYPES,          "dtypes")           /* list of dtype spellings */
X(FEATURES,        "features")         /* list of conform_feature_list.h spellings */
X(GRID,            "grid")             /* [x, y, z] (missing dims are 1) */
X(ARGS,            "args")             /* kernel arguments by TTIR name */
X(SHAPE,           "shape")            /* pointer argument: buffer shape */
X(DTYPE,           "dtype")            /* pointer argument: element dtype override */
X(INPUT,           "input")            /* pointer argument: generator recipe */
X(VALUE,           "value")            /* scalar argument / fill value */
X(OUTPUTS,         "outputs")          /* outputs judged, with their compliance mode */
X(MODE,            "mode")             /* compliance mode name (cmp_mode_lookup) */
X(OPTIONS,         "options")          /* compliance mode options */
X(UNORDERED,       "unordered")        /* output: compared as a multiset (the op leaves the order open) */
X(SPECIALIZATIONS, "specializations")  /* list of variants of one case */
X(VARIANT_KEY,     "variant_key")      /* unique id of a specialization */
X(CONSTEXPRS,      "constexprs")       /* constexpr values baked into the .ttir */
X(TIMEOUT,         "timeout")          /* seconds a backend may take per run */
X(SYMS,            "syms")             /* traced kernels: symbol bindings (M: 64) */
X(GEN,             "gen")              /* generator name (conform_gen_list.h) */
X(SEED,            "seed")             /* generator seed (mt19937 / LCG) */
X(RANGE,           "range")            /* [lo, hi] */
X(SET,             "set")              /* special set name or dot-product set 0..5 */
X(FRACTION,        "fraction")         /* special: share of special values */
X(FINITE,          "finite")           /* uniform_bits: redraw NaN/inf */
X(NONZERO,         "nonzero")          /* uniform: redraw zeros (divisors) */
X(KS,              "ks")               /* dot_product: contraction length */
X(K_STRIDE,        "k_stride")         /* dot_product: element stride of k */
X(OPERAND,         "operand")          /* dot_product: a, b or c */
X(ACC,             "acc")              /* dot_product: accumulator dtype */
X(FILE,            "file")             /* file generator: .npy path */
X(START,           "start")            /* arange start */
X(STEP,            "step")             /* arange step */
X(BACKEND,         "backend")          /* config: backend name */
X(BACKEND_VERSION, "version")          /* config: backend version */
X(DEVICE,          "device")           /* config: device description */
X(CAPABILITIES,    "capabilities")     /* config: capability map */
X(EXPECTED_FAILURES, "expected_failures") /* config: list of {case, reason} */
X(SKIP,            "skip")             /* config: list of {case, reason} */
X(CASE,            "case")             /* config: glob over case ids */
X(REASON,          "reason")           /* config: why (an issue URL) */
X(VERDICT,         "verdict")          /* config: the failure verdict expected (default: any) */
X(FTZ,             "ftz")              /* capability: flushes subnormals */
