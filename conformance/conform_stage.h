/*
 * conform_stage.h: one case x specialization as a directory on disk (the
 * adapter protocol's case directory: kernel.ttir, case.yaml, inputs/NAME.npy),
 * and reference runs of it by `ttref run` in a child process.
 * Ownership: nothing is retained; every argument is borrowed.
 */
#ifndef CONFORM_STAGE_H
#define CONFORM_STAGE_H

#include <stdbool.h>
#include "conform_suite.h"
#include "conform_sys.h"

/** Version of the adapter protocol (docs/adapter-protocol.md) written to case.yaml. */
#define CONFORM_PROTOCOL_VERSION 1

/**
 * Write @p dir/kernel.ttir, @p dir/case.yaml (normalised) and
 * @p dir/inputs/NAME.npy for every pointer argument of @p s (generated from
 * its recipe); create @p dir/outputs. @p dir must exist.
 */
ttref_status conform_stage_case(const conform_case *c, const conform_spec *s, const char *dir, ttref_error *err);

/**
 * Run the reference on the staged @p dir: `ttref run dir/kernel.ttir --grid
 * ... --arg NAME=@dir/inputs/NAME.npy ... --out OUTDIR [--precise] [--ftz]`
 * with stdout+stderr in OUTDIR.log. The executable is $TTREF_REFERENCE_EXE
 * or /proc/self/exe.
 * @return TTREF_OK with *ex filled (exit 0 = ran); TTREF_E_IO if it cannot
 * be started.
 */
ttref_status conform_stage_reference(const conform_spec *s, const char *dir, const char *outdir, bool precise, bool ftz,
                                     double timeout_s, conform_exit *ex, ttref_error *err);
/** conform_stage_reference with `--inject-fault @p inject_op` (a fault backend; NULL: none). */
ttref_status conform_stage_reference_inject(const conform_spec *s, const char *dir, const char *outdir,
                                            const char *inject_op, double timeout_s, conform_exit *ex,
                                            ttref_error *err);

/** conform_stage_reference with `--mutant @p mutant` (a mutant backend, conform_mutant.h). */
ttref_status conform_stage_reference_mutant(const conform_spec *s, const char *dir, const char *outdir,
                                            const char *mutant, double timeout_s, conform_exit *ex, ttref_error *err);

/** The reference executable (see conform_stage_reference) into @p buf; false if unknown. */
bool conform_stage_exe(char *buf, size_t n);

#endif
