/*
 * fuzz_run.c: libFuzzer target for the execution engine. Each input is TTIR
 * text; when it parses and verifies, its entry function is launched on a
 * 2x1x1 grid with every pointer argument bound to a small patterned buffer
 * (so most accesses fault cleanly at the bounds check) and every scalar to a
 * small value, one thread, at most 20000 ops per program. Any status is fine;
 * a crash, sanitizer report, leak or hang is a bug. Kernels with a tensor of
 * more than 2^14 elements are skipped (memory, not correctness).
 * Build and run: scripts/fuzz.sh (builds both fuzz targets).
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "interp.h"
#include "ir.h"
#include "ir_parse.h"
#include "ir_verify.h"

enum { BUF_ELEMS = 256, MAX_NUMEL = 1 << 14 };

static int too_big_region(const ir_region *r);

static int too_big_type(const ir_type *t) { return t && t->kind == IR_T_TENSOR && t->numel > MAX_NUMEL; }

static int too_big_region(const ir_region *r)
{
  for (int b = 0; b < r->nblocks; b++) {
    const ir_block *blk = r->blocks[b];
    for (int i = 0; i < blk->nargs; i++)
      if (too_big_type(blk->args[i].type)) return 1;
    for (int i = 0; i < blk->nops; i++) {
      const ir_op *op = blk->ops[i];
      for (int j = 0; j < op->nres; j++)
        if (too_big_type(op->res[j].type)) return 1;
      for (int k = 0; k < op->nregions; k++)
        if (too_big_region(&op->regions[k])) return 1;
    }
  }
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  ir_module *m = NULL;
  ttref_error e;
  memset(&e, 0, sizeof e);
  if (size > 65536) return 0;
  if (ir_parse_string("fuzz.ttir", (const char *)data, size, &m, &e) != TTREF_OK) return 0;
  memset(&e, 0, sizeof e);
  const ir_func *fn = ir_module_entry(m);
  if (ir_verify_module(m, &e) != TTREF_OK || !fn) goto out;
  for (int f = 0; f < m->nfuncs; f++)
    if (too_big_region(&m->funcs[f]->body)) goto out;
  interp_mem *mem = interp_mem_new();
  interp_elem *args = calloc((size_t)fn->nargs + 1, sizeof *args);
  FILE *devnull = fopen("/dev/null", "w");
  if (!mem || !args || !devnull) abort();
  int ok = 1;
  for (int i = 0; i < fn->nargs && ok; i++) {
    const ir_type *t = fn->args[i].type;
    if (t->kind == IR_T_PTR) {
      const ir_type *pt = t->elem;
      if (!pt || pt->kind != IR_T_SCALAR) {
        ok = 0; /* block pointers and descriptors are not kernel arguments here */
        break;
      }
      const int esz = ir_scalar_bytes(pt->scalar);
      const size_t nbytes = (size_t)esz * BUF_ELEMS;
      uint8_t *buf = ir_alloc(nbytes);
      if (!buf) abort();
      for (size_t k = 0; k < nbytes; k++) buf[k] = (uint8_t)(k * 37u + (unsigned)i);
      int64_t addr;
      if (interp_mem_add_take(mem, "arg", buf, nbytes, pt->scalar, &addr, &e) != TTREF_OK) abort();
      args[i].i = addr;
    } else if (t->kind == IR_T_SCALAR && ir_scalar_is_float(t->scalar)) {
      args[i].f = 1.5;
    } else if (t->kind == IR_T_SCALAR) {
      args[i].i = t->scalar == IR_S_I1 ? 1 : 3;
    } else {
      ok = 0;
    }
  }
  if (ok) {
    interp_launch L;
    memset(&L, 0, sizeof L);
    L.mod = m;
    L.fn = fn;
    L.grid[0] = 2;
    L.grid[1] = L.grid[2] = 1;
    L.args = args;
    L.mem = mem;
    L.threads = 1;
    L.max_steps = 20000;
    L.print_out = devnull;
    memset(&e, 0, sizeof e);
    (void)interp_run(&L, &e); /* any status: only crashes, leaks and hangs are bugs */
  }
  fclose(devnull);
  free(args);
  interp_mem_free(mem);
out:
  ir_module_free(m);
  return 0;
}
