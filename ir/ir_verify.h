/*
 * ir_verify.h: the verifier of a parsed ttref module: the rules of Triton's
 * op verifiers (TritonOps.td, Ops.cpp, TensorSizeTrait), of MLIR's arith,
 * math, scf and cf ops, terminator placement and SSA dominance.
 * Ownership: ir_verify_module borrows its module and error record; the only
 * memory it allocates is scratch space, freed before it returns.
 */
#ifndef IR_VERIFY_H
#define IR_VERIFY_H

#include "ir.h"

/*
 * Verify every function of @p m (borrowed, not modified).
 * Returns TTREF_OK; TTREF_E_VERIFY with the FIRST problem found in *err,
 * whose msg reads "FILE:LINE:COL: error: 'tt.dot' op ..." (the op's position
 * in the .ttir text) and whose note reads "note: in kernel source F:L:C (name)"
 * when the op's loc() resolves to a kernel-source location; TTREF_E_NOMEM
 * when scratch memory runs out; TTREF_E_INTERNAL when the in-memory IR is
 * malformed (a NULL operand or type, a value id out of range). Ops flagged
 * IR_F_UNSUPPORTED are not verifier errors (the interpreter refuses them).
 * Problems are reported in text order: an op's own rules, then its regions.
 * @p err may be NULL.
 */
ttref_status ir_verify_module(const ir_module *m, ttref_error *err);

#endif
