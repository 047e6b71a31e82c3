/*
 * interp_api.h: the inside of the public API's kernel handle (ttref.h), shared
 * by interp/ttref_api.c (kernels, launches) and conformance/ttref_compare.c
 * (mutants). Not installed.
 * Ownership: a ttref_kernel owns its module; its registry is borrowed.
 */
#ifndef INTERP_API_H
#define INTERP_API_H

#include "ttref.h"
#include "ir.h"
#include "interp_fx.h"

struct ttref_kernel {
  ir_module *mod;
  const ir_func *fn;
  const ttref_registry *reg; /* the vendor ops it was loaded with (NULL: none) */
  bool mut_ftz;              /* a run-option mutant (ttref_kernel_mutate): every run but the precise one */
  bool mut_contract;
};

/* The internal form of @p fx (its arrays borrowed: interp_fx_load only reads them; NULL: no
 * bindings); false for malformed ones, with E_USAGE in @p err naming @p fname. */
bool interp_api_fx_opts(const char *fname, const ttref_fx_options *fx, interp_fx_opts *o, ttref_error *err);

#endif
