/*
 * ttref.h: public C API of ttref, the reference interpreter for Triton TTIR:
 * load a kernel, bind buffers and scalars, run a launch, judge outputs with
 * the harness's compliance modes (docs/api.md).
 * Ownership: handles returned by ttref_kernel_load/_parse and
 * ttref_launch_new are owned by the caller and released with the matching
 * ttref_*_free (free(NULL) is a no-op); a launch borrows its kernel and the
 * buffers bound to it until it is freed or they are rebound; every other
 * pointer argument is borrowed for the call; returned const pointers are
 * borrowed from the handle they came from.
 */
#ifndef TTREF_H
#define TTREF_H

#include <stddef.h>
#include <stdint.h>

/*
 * Export macros: the shared libraries are built with -fvisibility=hidden, so a function is
 * exported only when its declaration here carries one of them (tests/layers/test_layers.sh
 * checks the lists against the libraries). TTREF_API: libttref (front ends, IR, interpreter,
 * numerics); TTREF_CONFORM_API: libttref_conform (the harness's judge, mutants and probes),
 * which needs libttref.
 */
#if defined(__GNUC__) && !defined(TTREF_API)
#define TTREF_API __attribute__((visibility("default")))
#elif !defined(TTREF_API)
#define TTREF_API
#endif
#ifndef TTREF_CONFORM_API
#define TTREF_CONFORM_API TTREF_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/** Status of every fallible call; TTREF_OK is 0. */
typedef enum ttref_status {
#define X(name, desc) TTREF_##name,
#include "ttref_status_list.h"
#undef X
  TTREF_STATUS_COUNT
} ttref_status;

/** @return a static description of @p s ("<invalid>" when out of range). */
TTREF_API const char *ttref_status_str(ttref_status s);

/** A 1-based source position; line 0 means "unknown". */
typedef struct ttref_loc {
  const char *file; /**< borrowed; NULL when unknown */
  int line;
  int col;
} ttref_loc;

/** Error detail. msg holds the complete "file:line:col: error: ..." text. */
typedef struct ttref_error {
  ttref_status code;
  ttref_loc loc;
  char msg[512];
  char note[512]; /**< optional follow-up lines (source line, caret, notes) */
} ttref_error;

/**
 * Allocation hook (lua_Alloc): new_size 0 frees @p ptr and returns NULL;
 * otherwise behaves like realloc. @p old_size is the size of @p ptr (0 if NULL).
 */
typedef void *(*ttref_alloc_fn)(void *ud, void *ptr, size_t old_size, size_t new_size);

/**
 * Replace the process-wide allocator (NULL restores malloc/free). Not thread safe. With the
 * shared libraries it governs libttref only: the TTREF_CONFORM_API calls of libttref_conform
 * allocate their own temporaries with malloc/free.
 */
TTREF_API void ttref_set_alloc(ttref_alloc_fn fn, void *ud);

/** @return the library version string, e.g. "0.1.0". */
TTREF_API const char *ttref_version(void);

/*
 * API versions. Calls are only ever added, never changed or removed, and public structs keep
 * their layout (new data comes through new calls), so a program built against version N runs
 * with any library of version >= N (libtool: interfaces added, age raised). A call added after
 * the first version says "Since API N." in its contract; check ttref_api_version() >= N at run
 * time before using it with a library older than your header.
 *   1: kernels, launches, .npy files, ttref_compare, vendor ops (libttref.so.0.0)
 *   2: what the `ttref run` command needs: launches bound from `--arg` specs and saved to a
 *      directory, debugging aids, UB reports, statistics by name, launch files, mutants
 */
#define TTREF_API_VERSION 2

/** @return the API version of the library (TTREF_API_VERSION it was built with). Since API 2. */
TTREF_API int ttref_api_version(void);

/*
 * Threads: there is no global state but the allocator hook. A kernel is
 * read-only after loading and may be shared by launches on any threads; one
 * launch is used by one thread at a time. Every fallible call returns a
 * ttref_status and, when @p err is not NULL, fills it: err->msg is the whole
 * "file:line:col: error: ..." line (or "error: ..."), err->note optional
 * detail; err->loc.file is borrowed from the call's path/name or the kernel.
 * A NULL handle is TTREF_E_USAGE, never a crash.
 */

/* ---- kernels ------------------------------------------------------------------------------- */

/** A parsed and verified TTIR module with the function to launch. */
typedef struct ttref_kernel ttref_kernel;

/**
 * Load, parse and verify the TTIR file @p path.
 * @param[in] function  tt.func to launch (with or without '@'); NULL: the first public one
 * @return the kernel, or NULL with err set (TTREF_E_IO, E_SYNTAX, E_VERIFY, E_INPUT for an
 *         unknown function, E_NOMEM, E_USAGE for a NULL path)
 */
TTREF_API ttref_kernel *ttref_kernel_load(const char *path, const char *function, ttref_error *err);

/**
 * Like ttref_kernel_load on @p len bytes of @p text (copied; no NUL needed).
 * @param[in] name  file name used in messages (NULL: "<string>")
 */
TTREF_API ttref_kernel *ttref_kernel_parse(const char *text, size_t len, const char *name, const char *function,
                                           ttref_error *err);

/** Bindings of a traced kernel (TK fx trace, docs/traced.md), as `ttref run --sym/--dtype/--oob`. */
typedef struct ttref_fx_options {
  const char *const *syms; /**< nsyms "NAME=INT" shape-symbol bindings */
  int nsyms;
  const char *const *dtypes; /**< ndtypes "BUFFER=DTYPE" element types (default: the trace's, else f32) */
  int ndtypes;
  int oob_zero; /**< 1: out-of-bounds loads read 0 and stores are skipped (older TK) */
} ttref_fx_options;

/**
 * Load a traced kernel (.fx): parse, bind @p opts (NULL: none), lower to TTIR and verify.
 * Every shape symbol must be bound (the API has no .npy files to take shapes from).
 * ttref_kernel_load also takes .fx paths, with no bindings.
 * @return the kernel, or NULL with err set (E_IO, E_SYNTAX, E_VERIFY, E_INPUT for an unbound or
 *         malformed symbol or dtype, E_USAGE for a NULL path or negative counts)
 */
TTREF_API ttref_kernel *ttref_kernel_load_fx(const char *path, const ttref_fx_options *opts, ttref_error *err);

/**
 * ttref_kernel_load_fx with the command line's bindings: shape symbols that @p opts does not
 * bind are taken from the shapes of the .npy files that @p args (`ttref run --arg` specs,
 * "NAME=@FILE.npy"; others are ignored) bind to buffers whose dimensions name them; every such
 * file must then match its buffer's shape and dtype. @p reg (NULL: none) and @p function (NULL:
 * the trace's kernel) as in ttref_kernel_load_ex.
 * @return the kernel, or NULL with err set (as ttref_kernel_load_fx; E_INPUT for a file whose
 *         shape or dtype does not fit). Since API 2.
 */
TTREF_API ttref_kernel *ttref_kernel_load_fx_ex(const char *path, const ttref_fx_options *opts, const char *const *args,
                                                int nargs, const char *function, ttref_error *err);

/** @return 1 when @p path is a traced kernel (a .fx file, or fx text in a file), else 0. Since API 2. */
TTREF_API int ttref_kernel_is_fx(const char *path);

/** Release @p k (NULL: no-op). Launches of @p k must be freed first. */
TTREF_API void ttref_kernel_free(ttref_kernel *k);

/** How an argument is bound. */
typedef enum ttref_arg_kind {
  TTREF_ARG_INVALID = -1, /**< no such argument */
  TTREF_ARG_SCALAR = 0,   /**< an int or float value: ttref_launch_scalar */
  TTREF_ARG_POINTER = 1,  /**< a !tt.ptr<T>: ttref_launch_buffer */
  TTREF_ARG_OTHER = 2     /**< a type the API cannot bind (tensor descriptor, ...) */
} ttref_arg_kind;

/** @return the launched function's name (without '@'); NULL for a NULL kernel. */
TTREF_API const char *ttref_kernel_name(const ttref_kernel *k);
/** @return the number of arguments of the launched function (0 for NULL). */
TTREF_API int ttref_kernel_nargs(const ttref_kernel *k);
/** @return argument @p i's TTIR name (without '%'), NULL when out of range. */
TTREF_API const char *ttref_kernel_arg_name(const ttref_kernel *k, int i);
/** @return argument @p i's kind (TTREF_ARG_INVALID when out of range). */
TTREF_API ttref_arg_kind ttref_kernel_arg_kind(const ttref_kernel *k, int i);
/**
 * @return the scalar type of argument @p i ("i32", "f32", "i1", ...) or, for a pointer, its
 * element type ("f32", "bf16", "f8E4M3FN", "i64", "!tt.ptr" for pointers to pointers);
 * NULL when out of range or TTREF_ARG_OTHER. bf16 and fp8 buffers hold raw bit patterns.
 */
TTREF_API const char *ttref_kernel_arg_type(const ttref_kernel *k, int i);
/** @return bytes per element of a pointer argument's buffer (the size of a scalar), 0 if none. */
TTREF_API int ttref_kernel_arg_elem_bytes(const ttref_kernel *k, int i);
/** @return the index of the argument named @p name ("x_ptr" or "%x_ptr") or spelled as a
 *  0-based position ("2"), -1 when none. */
TTREF_API int ttref_kernel_arg_index(const ttref_kernel *k, const char *name);
/** Write "@vadd(0: %x_ptr: !tt.ptr<f32>, ...)" into @p buf (always NUL-terminated when n > 0). */
TTREF_API void ttref_kernel_signature(const ttref_kernel *k, char *buf, size_t n);

/* ---- launches ------------------------------------------------------------------------------ */

/** Arguments, options and results of launches of one kernel. */
typedef struct ttref_launch ttref_launch;

/** Launch options (ttref_option_list.h); set with ttref_launch_set. */
typedef enum ttref_option {
#define X(name, str, lo, hi, desc) TTREF_OPT_##name,
#include "ttref_option_list.h"
#undef X
  TTREF_OPTION_COUNT
} ttref_option;

/** @return the option's spelling ("threads", ...), "<invalid>" when out of range. */
TTREF_API const char *ttref_option_name(ttref_option o);
/** @return the option spelled @p name, or -1 when none. */
TTREF_API int ttref_option_lookup(const char *name);

/** A new launch of @p k with nothing bound and default options; NULL with err set on failure. */
TTREF_API ttref_launch *ttref_launch_new(const ttref_kernel *k, ttref_error *err);

/**
 * Bind pointer argument @p arg (name or 0-based position) to @p nbytes at @p data, read and
 * written in place by ttref_launch_run (borrowed until the launch is freed or @p arg rebound).
 * @p nbytes must be a multiple of the element size; the kernel's accesses are bounds-checked
 * against it (an access past it is a kernel fault, not a write past your buffer).
 * @return TTREF_OK; TTREF_E_INPUT (unknown argument, not a pointer, bad size); TTREF_E_USAGE
 */
TTREF_API ttref_status ttref_launch_buffer(ttref_launch *l, const char *arg, void *data, size_t nbytes,
                                           ttref_error *err);

/**
 * Like ttref_launch_buffer, for a view into a storage: @p data and @p nbytes are the whole
 * storage (any size) and the pointer the kernel gets is @p data + @p offset (offset <= nbytes),
 * so a kernel may index before or past the view within the storage, as on a GPU. Arguments
 * bound to the same @p data and @p nbytes share one allocation (aliasing is exact: what one
 * writes the other reads, --check-races sees both).
 * @return as ttref_launch_buffer; TTREF_E_INPUT for an offset past the storage
 */
TTREF_API ttref_status ttref_launch_buffer_at(ttref_launch *l, const char *arg, void *data, size_t nbytes,
                                              size_t offset, ttref_error *err);

/**
 * Bind scalar argument @p arg to @p literal, typed by the signature: decimal or 0x integers
 * that fit its width (unsigned spellings of the full width accepted), floats ("1.5", "inf",
 * "-inf", "nan") rounded once to the type, "true"/"false" for i1.
 * @return TTREF_OK; TTREF_E_INPUT (unknown argument, not a scalar, bad literal); TTREF_E_USAGE
 */
TTREF_API ttref_status ttref_launch_scalar(ttref_launch *l, const char *arg, const char *literal, ttref_error *err);

/** Set option @p o to @p value (range in ttref_option_list.h). TTREF_E_INPUT when out of range. */
TTREF_API ttref_status ttref_launch_set(ttref_launch *l, ttref_option o, int64_t value, ttref_error *err);

/**
 * Run programs (0..gx-1, 0..gy-1, 0..gz-1) over the bound buffers (each dimension < 2^31).
 * Outputs are bit-identical for any thread count. A kernel fault (out-of-bounds access,
 * failed tt.assert, max_steps exceeded, a race with check_races) returns TTREF_E_FAULT with
 * the op, its .ttir position, kernel-source location, program id and lane in err->msg; the
 * buffers then hold what the kernel wrote before the fault. Unbound arguments: TTREF_E_INPUT
 * naming the first one. TTREF_E_UNSUPPORTED for ops that cannot be interpreted.
 * With the precise option the launch runs a second time, in binary64 from the inputs as they
 * were before the first run, for ttref_launch_precise.
 */
TTREF_API ttref_status ttref_launch_run(ttref_launch *l, uint32_t gx, uint32_t gy, uint32_t gz, ttref_error *err);

/**
 * After a run with the precise option: the binary64 values and magnitude bounds of float
 * buffer @p arg, @p *n elements each (borrowed until the next run or free).
 * @return TTREF_OK; TTREF_E_INPUT (not a float buffer, no precise run yet); TTREF_E_USAGE
 */
TTREF_API ttref_status ttref_launch_precise(const ttref_launch *l, const char *arg, const double **values,
                                            const double **bounds, size_t *n, ttref_error *err);

/** Counts of undefined-behaviour cases met by the last run (docs/semantics.md). */
typedef struct ttref_stats {
  int64_t programs, ub_div_zero, ub_div_overflow, ub_shift, ub_fptoi, ub_masked_other, ub_poison, races;
} ttref_stats;

/** The statistics of the last run into @p out. TTREF_E_USAGE for NULL arguments. */
TTREF_API ttref_status ttref_launch_stats(const ttref_launch *l, ttref_stats *out, ttref_error *err);

/** Release @p l (NULL: no-op); the buffers bound to it stay the caller's. */
TTREF_API void ttref_launch_free(ttref_launch *l);

/* ---- launches as the `ttref run` command makes them (since API 2) --------------------------- */

/**
 * Bind every argument at once from @p n `ttref run --arg` specs (copied): "NAME=@FILE.npy" reads
 * the file into a buffer the launch owns (its raw elements; the dtype must fit the pointee:
 * float data for f16/f32/f64, integer data otherwise; 64 KiB or more of 16-byte-aligned data in
 * host order is mapped privately instead, copy-on-write: runs never change the file, which must
 * not be truncated while the launch holds it), "NAME=@new:DTYPE[N,...]" a zero-filled
 * buffer that counts as uninitialised for TTREF_OPT_CHECK_UNINIT, "NAME=LITERAL" a scalar as
 * ttref_launch_scalar. NAME is the argument's name, %name or 0-based position. Replaces earlier
 * file bindings; a launch bound this way refuses ttref_launch_buffer/_scalar (E_USAGE).
 * Runs read and write these buffers in place; ttref_launch_save writes them out.
 * @return TTREF_OK; TTREF_E_INPUT (unknown, missing or twice-bound argument, bad literal, a file
 *         whose element size or dtype does not fit, with the signature in err->note); E_IO;
 *         E_USAGE; E_NOMEM. Since API 2.
 */
TTREF_API ttref_status ttref_launch_bind_args(ttref_launch *l, const char *const *specs, int n, ttref_error *err);

/** ttref_launch_save flags. */
enum {
  TTREF_SAVE_CHECK = 1 /**< only check that no two files would collide; write nothing */
};

/**
 * After ttref_launch_bind_args (and a run, or a fault: the files show memory as the fault left
 * it): write every pointer argument's buffer (those ttref_launch_set_outputs named, if it was
 * called) to DIR/NAME.npy with its input's dtype and shape
 * (creating DIR and its parents; a symbolic link at a file's path is an error, never followed)
 * and, after a run with the precise option, DIR/NAME.precise.npy and DIR/NAME.bound.npy (f64)
 * per float buffer. With TTREF_SAVE_CHECK, only refuse names that would collide (X and
 * X.precise with the precise option set); call it before running.
 * @return TTREF_OK; TTREF_E_USAGE (colliding names, a bad directory, not bound with
 *         ttref_launch_bind_args); TTREF_E_IO. Since API 2.
 */
TTREF_API ttref_status ttref_launch_save(const ttref_launch *l, const char *dir, unsigned flags, ttref_error *err);

/**
 * Restrict every later ttref_launch_save of @p l to the pointer arguments @p names (@p n of them;
 * each a TTIR argument name, with or without '%', or a 0-based position; repeats are harmless),
 * as `ttref run --outputs`: the other buffers are still read and written by the run, only not
 * saved. @p n = 0 saves every pointer argument again (the default).
 * @return TTREF_OK; TTREF_E_INPUT (a name that is unknown or names a scalar argument: the
 *         message lists the pointer arguments; the previous choice is kept); TTREF_E_USAGE (NULL
 *         arguments, n < 0); TTREF_E_NOMEM. Since API 2.
 */
TTREF_API ttref_status ttref_launch_set_outputs(ttref_launch *l, const char *const *names, int n, ttref_error *err);

/**
 * Debugging (docs/debugging.md), for every later run of @p l; text goes to stdout, warnings to
 * stderr. ttref_launch_dump adds a `--dump` spec "NAME[@PID][[LANES]]" (NAME a TTIR value name
 * or a Python name from the locations, PID "*" or X[,Y[,Z]], LANES A:B or A; repeatable);
 * ttref_launch_dump_dir writes dumps as DIR/NAME.pidX-Y-Z[.itK].npy (new files only);
 * ttref_launch_trace prints one line per op result of the programs @p pids ("X[,Y[,Z]]", "*";
 * NULL: every program; repeatable). With dumps, traces, TTREF_OPT_TRAP or
 * TTREF_OPT_CHECK_UNINIT, programs run in order.
 * @return TTREF_OK; TTREF_E_USAGE for a bad spec (the message names the known names);
 *         TTREF_E_IO for a dump directory that cannot be made (a symlink is not followed; a
 *         run that finds its dump files already there fails with E_IO); TTREF_E_NOMEM.
 *         Since API 2.
 */
TTREF_API ttref_status ttref_launch_dump(ttref_launch *l, const char *spec, ttref_error *err);
/** See ttref_launch_dump. Since API 2. */
TTREF_API ttref_status ttref_launch_dump_dir(ttref_launch *l, const char *dir, ttref_error *err);
/** See ttref_launch_dump. Since API 2. */
TTREF_API ttref_status ttref_launch_trace(ttref_launch *l, const char *pids, ttref_error *err);

/**
 * Testing aid (`ttref run --inject-fault OP`): every float result of op @p op (a mnemonic such
 * as "math.exp", or a vendor op of the kernel's registry; NULL: none) grows by a relative 2^-6,
 * a deliberately wrong "backend". Only the first run of a precise launch is affected.
 * @return TTREF_OK; TTREF_E_INPUT for an unknown op. Since API 2.
 */
TTREF_API ttref_status ttref_launch_inject_fault(ttref_launch *l, const char *op, ttref_error *err);

/** Counters of the last run (ttref_stat_list.h); more may be added, each by a new row. Since API 2. */
typedef enum ttref_stat {
#define X(name, str, label) TTREF_STAT_##name,
#include "ttref_stat_list.h"
#undef X
  TTREF_STAT_COUNT
} ttref_stat;

/** @return counter @p s of the last run of @p l (0 for a NULL launch or an unknown counter). Since API 2. */
TTREF_API int64_t ttref_launch_stat(const ttref_launch *l, ttref_stat s);
/** @return the counter's name ("div_zero", ...), "<invalid>" when out of range. Since API 2. */
TTREF_API const char *ttref_stat_name(ttref_stat s);
/** @return the counter's label in `ttref run --stats` ("int div by zero", ...). Since API 2. */
TTREF_API const char *ttref_stat_label(ttref_stat s);

/* ---- launch files (`ttref run --launch FILE.yaml`, the harness's case.yaml, case.json) ---- */

/** A read launch file. Since API 2. */
typedef struct ttref_launch_file ttref_launch_file;

/**
 * Read a launch file: a YAML (or JSON) mapping with keys kernel, function, grid (an int or a
 * list of up to 3), args (NAME: VALUE, pointers as "@FILE.npy"), out, threads, ftz, contract,
 * precise; paths relative to the file. The caller frees the result with ttref_launch_file_free.
 * @return the file, or NULL with err set (E_IO; E_INPUT for unknown keys and bad values, located
 *         FILE:LINE:COL). Since API 2.
 */
TTREF_API ttref_launch_file *ttref_launch_file_read(const char *path, ttref_error *err);
/** Release @p f (NULL: no-op). Since API 2. */
TTREF_API void ttref_launch_file_free(ttref_launch_file *f);
/** @return the file's kernel path, function and out directory ("kernel", "function", "out");
 *  NULL when absent or for another key. Borrowed from @p f. Since API 2. */
TTREF_API const char *ttref_launch_file_str(const ttref_launch_file *f, const char *key);
/** @return 1 and the grid in @p g when the file gives one, else 0. Since API 2. */
TTREF_API int ttref_launch_file_grid(const ttref_launch_file *f, int64_t g[3]);
/** @return the number of `--arg` specs of the file; ttref_launch_file_arg(f, i) is spec @p i
 *  ("NAME=VALUE"; "?NAME=VALUE" for a list-form argument to skip when the kernel lacks it),
 *  NULL when out of range. Borrowed from @p f. Since API 2. */
TTREF_API int ttref_launch_file_nargs(const ttref_launch_file *f);
/** See ttref_launch_file_nargs. Since API 2. */
TTREF_API const char *ttref_launch_file_arg(const ttref_launch_file *f, int i);
/** @return 1 and *value when the file sets option @p o (threads, ftz, contract, precise), else 0. Since API 2. */
TTREF_API int ttref_launch_file_option(const ttref_launch_file *f, ttref_option o, int64_t *value);

/* ---- mutants (docs/compliance.md, Mutation score) ---------------------------------------- */

/**
 * Rewrite @p k in place like backend bug @p mutant (a name of `ttref conform --list-mutants`),
 * before any launch of it: later launches run the mutant (a run-option mutant such as "ftz"
 * sets its option on every run but the precise one).
 * @return TTREF_OK; TTREF_E_INPUT for an unknown mutant; E_USAGE; E_NOMEM. Since API 2.
 */
TTREF_CONFORM_API ttref_status ttref_kernel_mutate(ttref_kernel *k, const char *mutant, ttref_error *err);

/* ---- .npy files (goldens, inputs) ----------------------------------------------------------- */

/** A dense C-order array in host byte order, as a .npy file holds it. */
typedef struct ttref_array {
  char kind;        /**< 'b' bool, 'i' signed int, 'u' unsigned int (also bf16/fp8 bits), 'f' float */
  int elsize;       /**< bytes per element: 1, 2, 4, 8 */
  int rank;         /**< 0..8 */
  int64_t shape[8]; /**< dims; entries past rank are 0 */
  int64_t numel;    /**< product of shape (1 for rank 0) */
  void *data;       /**< numel*elsize bytes; owned by the array after ttref_npy_load */
  size_t nbytes;
} ttref_array;

/**
 * Read the .npy file @p path (v1.0-3.0; big-endian and Fortran order converted) into @p out,
 * which the caller releases with ttref_array_free.
 * @return TTREF_OK; TTREF_E_IO, TTREF_E_INPUT (not a .npy file), TTREF_E_LIMIT, TTREF_E_NOMEM
 */
TTREF_API ttref_status ttref_npy_load(const char *path, ttref_array *out, ttref_error *err);
/** Write @p a (borrowed) to @p path as NumPy's np.save would. */
TTREF_API ttref_status ttref_npy_save(const char *path, const ttref_array *a, ttref_error *err);
/** Free the data of an array from ttref_npy_load and zero it (NULL: no-op). */
TTREF_API void ttref_array_free(ttref_array *a);

/* ---- judging outputs (the harness's compliance modes, docs/compliance.md) ------------------ */

/** What ttref_compare found. */
typedef struct ttref_verdict {
  int pass;            /**< 1 when the output complies */
  int quality_warning; /**< passes, but the worst error exceeds quality_fraction of the bound */
  int64_t worst_index; /**< flat index of the worst element (largest err/bound), -1: none */
  double worst_got, worst_ref, worst_bound, worst_err; /**< that element, decoded to binary64 */
  double max_ratio;                                    /**< worst err / allowed err */
  double mean_ulp, max_ulp;
  char reason[256]; /**< one line when !pass, naming the element; "" otherwise */
} ttref_verdict;

/**
 * Judge @p got against the reference @p ref (both @p numel elements of @p dtype, raw bits for
 * bf16/fp8) exactly as `ttref conform` judges an output.
 * @param[in] mode     "exact", "ulp", "abs", "rel", "dot_product", "reduce", "fp_special"
 * @param[in] dtype    "f32", "f16", "bf16", "f64", "f8E4M3FN", ..., "i32", "u8", "bool", ...
 * @param[in] precise  numel binary64 precise values (ttref_launch_precise) or NULL; needed by
 *                     dot_product and reduce, and by option precise=true
 * @param[in] bound    numel magnitude bounds or NULL; needed by dot_product and reduce
 * @param[in] options  "name=value,name=value" as in a suite case (ulp=2, allow_ftz=true,
 *                     k=64, nan=same_bits, ...), or NULL
 * @param[out] out     the verdict
 * @return TTREF_OK whether or not it complies (out->pass); TTREF_E_INPUT for an unknown mode,
 *         dtype or option, or a missing precise/bound; TTREF_E_USAGE for NULL arguments
 */
TTREF_CONFORM_API ttref_status ttref_compare(const char *mode, const char *dtype, const void *got, const void *ref,
                                             size_t numel, const double *precise, const double *bound,
                                             const char *options, ttref_verdict *out, ttref_error *err);

/* ---- vendor ops (docs/api.md "Vendor ops") ------------------------------------------------- */

/**
 * A set of vendor ops. Kernels loaded with ttref_kernel_load_ex/_parse_ex against a registry
 * may use its ops; such a kernel borrows the registry's op definitions, so free the kernels
 * (and their launches) before the registry. There is no process-wide registry in the API: a
 * kernel loaded without one knows only the built-in ops. A registry is read-only once kernels
 * use it; its callbacks run on the launch's threads at the same time and must be pure.
 */
typedef struct ttref_registry ttref_registry;

/** The attributes of one vendor op in a kernel, borrowed for the duration of a callback. */
typedef struct ttref_op_attrs ttref_op_attrs;

/** One element: integers sign-extended to int64 (i1: 0 or 1), floats as binary64. */
typedef union ttref_value {
  int64_t i;
  double f;
} ttref_value;

/** The type of an operand or result: element type and shape (rank 0: a scalar). */
typedef struct ttref_type_info {
  const char *dtype; /**< "f32", "f16", "bf16", "f64", "f8E4M3FN", "i1", "i8", ... "i64" */
  int rank;          /**< 0..8 */
  int64_t shape[8];
} ttref_type_info;

/** A whole operand or result of a tensor callback: numel elements in row-major order. */
typedef struct ttref_tensor {
  ttref_type_info type;
  int64_t numel;
  ttref_value *data; /**< operands: read only; result: written by the callback */
} ttref_tensor;

/**
 * Verifier rule: the result type from the @p n operand types @p in, written to @p out.
 * @return 0 when the operands are acceptable; otherwise non-zero with a one-line reason in
 *         @p msg (the verifier reports it at the op's position)
 */
typedef int (*ttref_op_verify_fn)(void *ud, const ttref_op_attrs *attrs, int n, const ttref_type_info *in,
                                  ttref_type_info *out, char *msg, size_t msgn);
/** Elementwise semantics: one lane of the result from the same lane of the @p n operands.
 *  Float results are rounded once to the result type by ttref. Non-zero: a kernel fault. */
typedef int (*ttref_op_elementwise_fn)(void *ud, const ttref_op_attrs *attrs, int n, const ttref_value *in,
                                       ttref_value *out);
/** Whole-tensor semantics: fill out->data (out->numel elements) from the @p n operands.
 *  Non-zero: a kernel fault with the reason in @p msg. */
typedef int (*ttref_op_tensor_fn)(void *ud, const ttref_op_attrs *attrs, int n, const ttref_tensor *in,
                                  ttref_tensor *out, char *msg, size_t msgn);

/** A vendor op: written in generic form `%r = "acme.op"(%a, %b) {attrs} : (ta, tb) -> tr`. */
typedef struct ttref_op_def {
  const char *name;                    /**< "dialect.op" (copied); not a built-in op */
  int nopnds;                          /**< exact operand count (0..16), -1: 1 to 16 */
  ttref_op_verify_fn verify;           /**< NULL: every operand and the result have one type */
  ttref_op_elementwise_fn elementwise; /**< exactly one of elementwise and tensor; elementwise */
  ttref_op_tensor_fn tensor;           /**<  ops also need operands and result of one shape */
  void *ud;                            /**< passed to every callback (borrowed) */
} ttref_op_def;

/** A new empty registry; NULL with err set (E_NOMEM). */
TTREF_API ttref_registry *ttref_registry_new(ttref_error *err);
/** Release @p reg and close its plugins (NULL: no-op). Kernels using it must be freed first. */
TTREF_API void ttref_registry_free(ttref_registry *reg);
/**
 * Add the op @p def (copied) to @p reg.
 * @return TTREF_OK; TTREF_E_INPUT (bad or duplicate name, a built-in op's name, bad nopnds,
 *         not exactly one of elementwise/tensor); TTREF_E_USAGE; TTREF_E_NOMEM
 */
TTREF_API ttref_status ttref_registry_add(ttref_registry *reg, const ttref_op_def *def, ttref_error *err);
/** @return 1 and *out when the op has integer (int, bool, enum) attribute @p name, else 0. */
TTREF_API int ttref_op_attr_int(const ttref_op_attrs *attrs, const char *name, int64_t *out);
/** @return 1 and *out when the op has numeric attribute @p name (float or int), else 0. */
TTREF_API int ttref_op_attr_float(const ttref_op_attrs *attrs, const char *name, double *out);

/** Version of the plugin ABI below. */
#define TTREF_OPS_ABI 1
/** What a plugin gets from the loader (it links against nothing of ttref). */
typedef struct ttref_ops_api {
  int abi; /**< TTREF_OPS_ABI */
  ttref_status (*registry_add)(ttref_registry *reg, const ttref_op_def *def, ttref_error *err);
  int (*attr_int)(const ttref_op_attrs *attrs, const char *name, int64_t *out);
  int (*attr_float)(const ttref_op_attrs *attrs, const char *name, double *out);
} ttref_ops_api;
/** The entry symbol of an ops plugin, `ttref_ops_init`: register ops with api->registry_add. */
typedef ttref_status (*ttref_ops_init_fn)(const ttref_ops_api *api, ttref_registry *reg, ttref_error *err);
#define TTREF_OPS_INIT_SYMBOL "ttref_ops_init"

/**
 * dlopen the shared object @p path (without '/': in the current directory, never searched in the
 * library path) and call its `ttref_ops_init` on @p reg (the object stays loaded until the registry
 * is freed; when the entry fails, the ops it added are removed and the object is closed).
 * @return TTREF_OK; TTREF_E_IO (cannot load), TTREF_E_INPUT (no entry symbol, or the entry
 *         failed: its message, prefixed with the path); TTREF_E_USAGE
 */
TTREF_API ttref_status ttref_registry_load(ttref_registry *reg, const char *path, ttref_error *err);

/** ttref_kernel_load with the vendor ops of @p reg (NULL: built-in ops only; a .fx trace loads
 *  as with ttref_kernel_load). */
TTREF_API ttref_kernel *ttref_kernel_load_ex(const char *path, const char *function, const ttref_registry *reg,
                                             ttref_error *err);
/** ttref_kernel_parse with the vendor ops of @p reg (NULL: built-in ops only). */
TTREF_API ttref_kernel *ttref_kernel_parse_ex(const char *text, size_t len, const char *name, const char *function,
                                              const ttref_registry *reg, ttref_error *err);

/**
 * `ttref check`: parse and verify the TTIR file @p path with the vendor ops of @p reg (NULL:
 * none), without choosing a function to launch; a traced kernel (.fx) is parsed and
 * name-checked, and with @p fx (NULL: none) also bound, lowered and verified.
 * @return TTREF_OK; E_IO, E_SYNTAX, E_VERIFY (located), E_INPUT, E_USAGE, E_NOMEM. Since API 2.
 */
TTREF_API ttref_status ttref_check(const char *path, const ttref_registry *reg, const ttref_fx_options *fx,
                                   ttref_error *err);

/** ttref_print flags. */
enum {
  TTREF_PRINT_PROBES = 1 /**< also store every value `ttref conform --localize` probes (`ttref fmt --probes`) */
};

/**
 * `ttref fmt`: parse the TTIR file @p path (vendor ops of @p reg, NULL: none) and print it in
 * canonical form to the file @p out_path (NULL: stdout); a traced kernel (.fx) is bound with
 * @p fx (NULL: none), lowered, verified and printed as its lowering. With TTREF_PRINT_PROBES
 * the entry function is instrumented as `--localize` does (docs/compliance.md).
 * @return TTREF_OK; E_IO (cannot write @p out_path), E_SYNTAX, E_VERIFY, E_INPUT (no function to
 *         probe), E_USAGE, E_NOMEM. Since API 2.
 */
TTREF_CONFORM_API ttref_status ttref_print(const char *path, const ttref_registry *reg, const ttref_fx_options *fx,
                                           unsigned flags, const char *out_path, ttref_error *err);

#ifdef __cplusplus
}
#endif
#endif
