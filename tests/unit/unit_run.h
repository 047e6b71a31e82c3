/*
 * unit_run.h: the kernel runner the executor's unit tests share (test_exec,
 * test_debug): parse + verify TTIR text (failing the cmocka test with the
 * error), bind buffers and scalars, launch, copy the buffers back. The
 * counting allocator they use lives in unit_fixture.h.
 * Ownership: buffers stay the caller's (copied in and out); the module
 * unit_parse_ok returns is the caller's (ir_module_free).
 */
#ifndef UNIT_RUN_H
#define UNIT_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "interp.h"
#include "unit_fixture.h"

/* one pointer argument: the host data, its size in bytes and element type */
typedef struct unit_buf {
  void *data;
  size_t nbytes;
  ir_scalar elem;
} unit_buf;

/* called around interp_run with the launch set up (before) and done (after) */
typedef struct unit_hooks {
  void (*before)(interp_launch *L, void *ud);
  void (*after)(interp_launch *L, void *ud);
  void *ud;
} unit_hooks;

/* Parses and verifies text (file name "t.ttir"); a failure fails the test. */
ir_module *unit_parse_ok(const char *text);

/*
 * Runs the module's entry kernel over grid[0..2] programs on threads threads.
 * Pointer arguments take the next of bufs (copied in, and back after the
 * launch), float scalars the next of scal as raw double bits, integer scalars
 * the next of scal. hooks and stats may be NULL. Returns interp_run's status.
 */
ttref_status unit_run_kernel(const char *text, const int64_t grid[3], unit_buf *bufs, int nbufs, const int64_t *scal,
                             int threads, const unit_hooks *hooks, ttref_error *err, interp_stats *stats);

/*
 * As unit_run_kernel without hooks, but a failure of parse, verify, binding or
 * launch comes back as the status (and err) instead of failing the test: for
 * out-of-memory sweeps. Nothing is left allocated either way.
 */
ttref_status unit_try_run_kernel(const char *text, const int64_t grid[3], unit_buf *bufs, int nbufs,
                                 const int64_t *scal, int threads, ttref_error *err);

#endif
