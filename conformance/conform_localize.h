/*
 * conform_localize.h: `ttref conform --localize`: finds the first op where a
 * backend diverges. The kernel of a failing item is rewritten so that the
 * result of each op is also stored to an extra pointer argument (a probe,
 * one slice per program; lanes that are undefined because a masked load had
 * no `other` keep the load's mask); the backend and the reference both run
 * the instrumented kernel, and every probe is judged with its op's default
 * compliance mode (the mode column of ir_op_list.h). The first failing probe in
 * program order names the op; its operands' probes say whether it diverged
 * on identical inputs. Probes go in passes of at most CONFORM_LOCALIZE_PASS
 * values, stopping at the first pass that fails. Method and limits:
 * docs/compliance.md, "Localisation".
 * Ownership: nothing is retained; arguments are borrowed.
 */
#ifndef CONFORM_LOCALIZE_H
#define CONFORM_LOCALIZE_H

#include <stdbool.h>
#include <stdio.h>
#include "conform_backend.h"
#include "conform_journal.h"
#include "conform_suite.h"
#include "ir.h"

#define CONFORM_LOCALIZE_PASS       48 /* probes per instrumented kernel */
#define CONFORM_LOCALIZE_MAX_PASSES 16

/** The default compliance mode of @p op's float result of format bits @p bits (16, 32, 64);
 *  *ulp receives n for CMP_ULP (CMP_EXACT when the table gives 0). */
cmp_mode conform_opmode_default(ir_opcode op, int bits, double *ulp);

/**
 * Write @p m with probes to @p out: the results of the values @p probe
 * (ir_value pointers of the entry function @p f, in any order) are stored to
 * new trailing arguments %ttref_probe_K (K = index in @p probe) of @p f, each
 * a 1-D buffer of numel x programs elements (i1 stored as i8).
 * @return TTREF_OK, TTREF_E_IO, TTREF_E_NOMEM, TTREF_E_INTERNAL.
 */
ttref_status conform_localize_print(const ir_module *m, const ir_func *f, const ir_value *const *probe, int nprobe,
                                    FILE *out, ttref_error *err);

/**
 * conform_localize_print with every value --localize would probe (all passes
 * at once); *nprobes receives their count. For `ttref fmt --probes`.
 */
ttref_status conform_localize_print_all(const ir_module *m, const ir_func *f, FILE *out, int *nprobes,
                                        ttref_error *err);

/** Whether @p v can be probed (an int or float scalar or tensor, not a pointer). */
bool conform_localize_probeable(const ir_value *v);

/**
 * Localise the failing item (@p c, @p s) staged in @p dir on backend @p b:
 * fills r->localized_op, r->localized_at and r->localized (a sentence that
 * says what was found, or why nothing was). Problems of the backend or of
 * instrumenting are findings in r->localized, not errors.
 * @return TTREF_OK, or TTREF_E_NOMEM / TTREF_E_IO for harness faults.
 */
ttref_status conform_localize(conform_backend *b, const conform_case *c, const conform_spec *s, const char *dir,
                              double timeout_s, bool ftz, conform_record *r, ttref_error *err);

#endif
