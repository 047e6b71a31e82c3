/*
 * fuzz_fx.c: libFuzzer target for the traced-graph front end. Parses the input
 * as a TK fx trace; on success lowers it with a fixed set of symbol bindings
 * and aborts unless the lowering either fails with a located error or yields
 * TTIR that parses and verifies. Built by scripts/fuzz.sh.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir_fx_lower.h"
#include "ir_parse.h"
#include "ir_verify.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const syms[] = {
    "M=4", "N=8", "K=8", "R=4", "BLOCK=2", "BLOCK_M=4", "BLOCK_N=4", "BLOCK_K=4", "D=4",  "S=4",  "B=2", "H=2",
    "A=2", "C=2", "P=2", "Q=2", "BATCH=1", "N_HEADS=2", "N_CTX=8",   "D_HEAD=4",  "P0=2", "P1=2", "P2=2"};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  ir_fx *g = NULL;
  ttref_error e = {0};
  if (ir_fx_parse_string("fuzz.fx", (const char *)data, size, &g, &e) != TTREF_OK) {
    if (g || !e.msg[0]) abort(); /* failure must leave no graph and say why */
    return 0;
  }
  char *text = NULL;
  size_t len = 0;
  ir_fx_bind b = {syms, (int)(sizeof syms / sizeof syms[0]), NULL, 0, size & 1 ? IR_FX_OOB_ZERO : IR_FX_OOB_ERROR};
  ttref_error le = {0};
  ttref_status st = ir_fx_lower(g, &b, "k", &text, &len, &le);
  if (st != TTREF_OK) {
    if (text || !le.msg[0]) abort();
    ir_fx_free(g);
    return 0;
  }
  ir_module *m = NULL;
  ttref_error pe = {0};
  if (ir_parse_string("lowered.ttir", text, len, &m, &pe) != TTREF_OK || ir_verify_module(m, &pe) != TTREF_OK) {
    fprintf(stderr, "the lowering of a valid trace does not verify: %s\n%.*s\n", pe.msg, (int)len, text);
    abort();
  }
  ir_module_free(m);
  ir_free(text, len + 1);
  ir_fx_free(g);
  return 0;
}
