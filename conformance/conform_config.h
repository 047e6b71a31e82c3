/*
 * conform_config.h: a backend's config file (YAML): name, version, device,
 * capabilities (FTZ, tf32, fp8 formats, atomics, 64-bit, supported dtypes),
 * default time limit, and expected failures and skips, each with a reason
 * (docs/adapter-protocol.md). Without a file, every capability is present.
 * Ownership: a conform_config from conform_config_load/_default is owned by
 * the caller and released with conform_config_free; strings live in its arena.
 */
#ifndef CONFORM_CONFIG_H
#define CONFORM_CONFIG_H

#include <regex.h>
#include <stdbool.h>
#include <stdint.h>
#include "conform_suite.h"

/*
 * An item pattern, the one language of --filter and of config entries
 * (docs/suite-format.md, Item patterns): text starting with '^' is a POSIX
 * extended regex searched in the item id "case[variant]" and in the case
 * name; any other text is a glob where '*' matches any run of characters, '?'
 * one character and every other character itself (so a report id such as
 * "float_add[f32]" matches that item), matched against the whole id or the
 * whole case name. conform_pattern_free releases what _compile acquired.
 */
typedef struct conform_pattern {
  const char *text; /* borrowed */
  bool is_re;
  regex_t re; /* compiled when is_re */
} conform_pattern;

/** Compile @p text into @p p; TTREF_E_USAGE naming @p what for a bad regex. */
ttref_status conform_pattern_compile(const char *text, const char *what, conform_pattern *p, ttref_error *err);
void conform_pattern_free(conform_pattern *p);
/** Whether @p p matches the item with id @p id of case @p case_name. */
bool conform_pattern_match(const conform_pattern *p, const char *id, const char *case_name);

typedef struct conform_expect {
  const char *pattern; /* an item pattern (conform_pattern) */
  const char *reason;
  int verdict;         /* expected raw verdict (conform_verdict), -1: any failure */
  conform_pattern pat; /* compiled at load */
  ttref_loc loc;       /* of the entry in the config file */
  bool used;           /* set by conform_config_check_used */
} conform_expect;

typedef struct conform_config {
  ir_arena *arena;
  const char *backend, *version, *device;
  bool ftz;          /* the backend flushes subnormals: judge with FTZ allowance */
  uint32_t features; /* bit per conform_feature supported */
  uint32_t dtypes;   /* bit per conform_dtype supported */
  double timeout;    /* seconds per backend run; 0: runner default */
  conform_expect *xfail;
  int nxfail;
  conform_expect *skip;
  int nskip;
} conform_config;

/** All capabilities, no expectations. */
ttref_status conform_config_default(conform_config **out, ttref_error *err);
/** Read @p path; errors are located (FILE:LINE:COL). */
ttref_status conform_config_load(const char *path, conform_config **out, ttref_error *err);
void conform_config_free(conform_config *c);

/** The first entry of @p list matching @p id or @p case_name, or NULL. */
const conform_expect *conform_config_match(const conform_expect *list, int n, const char *id, const char *case_name);

/**
 * TTREF_E_INPUT (located at the entry) for the first expected_failures or
 * skip entry of @p cfg that matches none of the @p n items (@p ids, @p cases).
 */
ttref_status conform_config_check_used(conform_config *cfg, const char *const *ids, const char *const *cases, int n,
                                       ttref_error *err);

/**
 * Whether @p cfg can run @p c; otherwise a reason ("needs feature fp8") in
 * @p why.
 */
bool conform_config_supports(const conform_config *cfg, const conform_case *c, char *why, size_t n);

#endif
