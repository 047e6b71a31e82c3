/*
 * conform_backend.h: the systems under test: `reference` (ttref itself),
 * `fault:KIND` (broken on purpose, conform_fault_list.h), a process adapter
 * run once per case directory (PATH), or a batch adapter that takes case
 * directories on stdin (batch:PATH), or a C plugin (plugin:PATH.so, ABI in
 * ttref_backend.h) kept loaded in a per-worker host child; protocol in
 * docs/adapter-protocol.md. Every run is a child process with a time limit.
 * Ownership: a conform_backend is caller storage: conform_backend_open fills
 * it and conform_backend_close releases its child process; arguments are
 * borrowed.
 */
#ifndef CONFORM_BACKEND_H
#define CONFORM_BACKEND_H

#include <stdbool.h>
#include <stdio.h>
#include "conform_suite.h"
#include "conform_sys.h"
#include "conform_verdict.h"

typedef enum conform_backend_kind {
  CONFORM_BK_REFERENCE,
  CONFORM_BK_FAULT,
  CONFORM_BK_ADAPTER,
  CONFORM_BK_BATCH,
  CONFORM_BK_PLUGIN
} conform_backend_kind;

typedef struct conform_backend {
  conform_backend_kind kind;
  int fault;               /* row of conform_fault_list.h */
  char fault_op[64];       /* fault:perturb:OP: the op mnemonic */
  char name[256];          /* as given on the command line */
  char path[4096];         /* adapter executable or plugin (absolute) */
  char plugin_desc[256];   /* plugin: "NAME VERSION" from its api table */
  conform_pipe_child pipe; /* batch adapter or plugin host, when running */
  bool pipe_up;
  char errlog[4096]; /* batch adapter stderr and ignored stdout lines ("" = /dev/null) */
} conform_backend;

/** What one backend run did. raw is PASS (ran; outputs to judge), UNSUPPORTED, ERROR, CRASH or TIMEOUT. */
typedef struct conform_backend_result {
  conform_verdict raw;
  char detail[256];
  double seconds;
  char log[4200]; /* where its output went: CASE_DIR/backend.log, or the worker's batch log */
} conform_backend_result;

/**
 * Parse @p spec ("reference", "fault:flip-lsb", "batch:PATH", "plugin:PATH"
 * or an adapter PATH). A plugin is loaded once in a child to check its ABI.
 * @return TTREF_OK, or TTREF_E_USAGE for an unknown name, a missing or
 * non-executable adapter, or a plugin that cannot be loaded, lacks
 * ttref_backend_get_api or has another ABI version (the message says which).
 */
ttref_status conform_backend_open(const char *spec, conform_backend *b, ttref_error *err);
/** Stop a batch adapter or plugin host (if running). */
void conform_backend_close(conform_backend *b);

/**
 * Run the staged case directory @p dir (from conform_stage_case) on @p b,
 * which writes @p dir/outputs/NAME.npy. Problems of the backend are results
 * (r->raw), not errors; errors are harness faults.
 */
ttref_status conform_backend_run(conform_backend *b, const conform_case *c, const conform_spec *s, const char *dir,
                                 double timeout_s, conform_backend_result *r, ttref_error *err);

/**
 * The backend's version line into @p buf (adapters: `PATH --version`, 10 s
 * limit; @p scratch is a temporary file; plugins: name and version from
 * their api table).
 */
void conform_backend_version(const conform_backend *b, const char *scratch, char *buf, size_t n);

/** Print every built-in backend with a description. */
void conform_backend_list(FILE *f);

#endif
