/*
 * conform_suite.h: a conformance suite: a directory of case files (*.yaml),
 * each naming a kernel, its launch, generator recipes for its inputs, the
 * compliance mode of each output, tags, requirements and specializations
 * (docs/suite-format.md). Loading validates every field against the YAML key
 * list and the kernel's TTIR signature, with located errors.
 * Ownership: a conform_suite from conform_suite_load is owned by the caller
 * and released with conform_suite_free; everything it points to lives in its
 * arena.
 */
#ifndef CONFORM_SUITE_H
#define CONFORM_SUITE_H

#include <stdbool.h>
#include <stdint.h>
#include "cmp.h"
#include "conform_gen.h"
#include "ir_base.h"

/** Every feature of conform_feature_list.h, plus CONFORM_FEATURE_COUNT. */
typedef enum conform_feature {
#define X(name, str) CONFORM_FEAT_##name,
#include "conform_feature_list.h"
#undef X
  CONFORM_FEATURE_COUNT
} conform_feature;

const char *conform_feature_name(conform_feature f); /**< "<invalid>" when out of range */
bool conform_feature_lookup(const char *s, conform_feature *out);

/** A compliance-mode option (conform_option_list.h), as written. */
typedef struct conform_option {
  const char *name;
  const char *text;
} conform_option;

/** One judged output buffer. */
typedef struct conform_output {
  const char *name; /* pointer argument name */
  cmp_mode mode;    /* compliance mode, parsed once from its spelling (cmp_mode_lookup) */
  conform_option *options;
  int noptions;
  bool unordered; /* `unordered: true`: judged as a multiset (element order is open) */
  ttref_loc loc;
} conform_output;

/** One kernel argument as bound for a launch (signature order). */
typedef struct conform_arg {
  const char *name; /* TTIR argument name */
  bool is_ptr;
  /* pointer arguments */
  int rank;
  int64_t shape[NPY_MAX_RANK];
  conform_dtype dtype;
  conform_recipe input;
  /* scalar arguments: the literal as `ttref run --arg` takes it */
  const char *value;
  const char *ttir_type; /* e.g. "i32", "!tt.ptr<f16>" */
} conform_arg;

/** One specialization (variant) of a case: everything needed for one launch. */
typedef struct conform_spec {
  const char *variant_key;
  const char *kernel;     /* path of the .ttir or traced .fx (case dir + relative path) */
  const char *kernel_rel; /* as written in the case file */
  const char *function;   /* NULL: the entry function */
  int64_t grid[3];
  conform_arg *args;
  int nargs;
  const char *constexprs; /* "K=V,K=V" for reports ("" if none) */
  const char *lowered;    /* traced kernels (.fx): the lowered TTIR text (arena), else NULL */
  size_t lowered_len;
} conform_spec;

typedef struct conform_case {
  const char *name;
  const char *path; /* the case file */
  const char *dir;  /* its directory */
  const char *root; /* realpath of that directory: kernels and input files must resolve inside it;
                              NULL with CONFORM_SUITE_ALLOW_OUTSIDE */
  const char *description;
  const char *op; /* op family ("misc" when absent) */
  const char **tags;
  int ntags;
  uint32_t features; /* bit per conform_feature */
  conform_dtype *dtypes;
  int ndtypes;
  conform_output *outputs;
  int noutputs;
  conform_spec *specs;
  int nspecs;
  double timeout; /* seconds; 0 = runner default */
} conform_case;

typedef struct conform_suite {
  ir_arena *arena;
  const char *dir;
  const char *name;    /* last path component of dir */
  conform_case *cases; /* sorted by name */
  int ncases;
} conform_suite;

/**
 * Load every *.yaml case of the directory @p path (or the single case file
 * @p path). Validation stops at the first problem:
 * "FILE:LINE:COL: error: ..." in err->msg, TTREF_E_INPUT (TTREF_E_IO for
 * unreadable files, TTREF_E_SYNTAX/E_VERIFY for a bad kernel).
 */
ttref_status conform_suite_load(const char *path, conform_suite **out, ttref_error *err);

/** conform_suite_load's flag: let kernels, input files and case files resolve outside the suite directory. */
#define CONFORM_SUITE_ALLOW_OUTSIDE 1u

/**
 * conform_suite_load with @p flags. Without CONFORM_SUITE_ALLOW_OUTSIDE (the
 * default of conform_suite_load) a case file, `kernel:` or `file:` path that
 * resolves (symbolic links included) outside the suite directory is refused
 * before it is opened (TTREF_E_INPUT; docs/security.md).
 */
ttref_status conform_suite_load_flags(const char *path, unsigned flags, conform_suite **out, ttref_error *err);
void conform_suite_free(conform_suite *s);

/** Parse one case file into @p c (arena-allocated), confined to the file's directory; used by conform_suite_load. */
ttref_status conform_case_load(const char *file, ir_arena *arena, conform_case *c, ttref_error *err);
/** conform_case_load with conform_suite_load_flags's @p flags. */
ttref_status conform_case_load_flags(const char *file, unsigned flags, ir_arena *arena, conform_case *c,
                                     ttref_error *err);

/** The output named @p name of @p c, or NULL. */
const conform_output *conform_case_output(const conform_case *c, const char *name);

/** "case[variant]" into @p buf; @return buf. */
const char *conform_case_id(const conform_case *c, const conform_spec *s, char *buf, size_t n);

#endif
