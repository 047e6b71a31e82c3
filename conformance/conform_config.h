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

#include <stdbool.h>
#include <stdint.h>
#include "conform_suite.h"

typedef struct conform_expect {
  const char *pattern;  /* fnmatch glob over "case[variant]" or the case name */
  const char *reason;
  int verdict;          /* expected raw verdict (conform_verdict), -1: any failure */
} conform_expect;

typedef struct conform_config {
  ir_arena *arena;
  const char *backend, *version, *device;
  bool ftz;             /* the backend flushes subnormals: judge with FTZ allowance */
  uint32_t features;    /* bit per conform_feature supported */
  uint32_t dtypes;      /* bit per conform_dtype supported */
  double timeout;       /* seconds per backend run; 0: runner default */
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
 * Whether @p cfg can run @p c; otherwise a reason ("needs feature fp8") in
 * @p why.
 */
bool conform_config_supports(const conform_config *cfg, const conform_case *c, char *why, size_t n);

#endif
