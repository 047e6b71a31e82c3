/*
 * unit_run.c: the kernel runner the executor's unit tests share (parse,
 * verify, bind, launch, copy back); see unit_run.h.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "ir_parse.h"
#include "ir_verify.h"
#include "unit_run.h"

ir_module *unit_parse_ok(const char *text)
{
  ir_module *m = NULL;
  ttref_error e;
  memset(&e, 0, sizeof e);
  ttref_status st = ir_parse_string("t.ttir", text, strlen(text), &m, &e);
  if (st == TTREF_OK) st = ir_verify_module(m, &e);
  if (st != TTREF_OK) fprintf(stderr, "%s\n%s\n", e.msg, e.note);
  assert_int_equal(st, TTREF_OK);
  return m;
}

ttref_status unit_run_kernel(const char *text, const int64_t grid[3], unit_buf *bufs, int nbufs, const int64_t *scal,
                             int threads, const unit_hooks *hooks, ttref_error *err, interp_stats *stats)
{
  ir_module *m = unit_parse_ok(text);
  const ir_func *fn = ir_module_entry(m);
  interp_mem *mem = interp_mem_new();
  assert_non_null(mem);
  interp_elem args[16];
  int bi = 0, si = 0;
  assert_true(fn->nargs <= 16);
  for (int i = 0; i < fn->nargs; i++) {
    if (fn->args[i].type->kind == IR_T_PTR) {
      assert_true(bi < nbufs);
      void *copy = ir_alloc(bufs[bi].nbytes ? bufs[bi].nbytes : 1);
      assert_non_null(copy);
      memcpy(copy, bufs[bi].data, bufs[bi].nbytes);
      assert_int_equal(interp_mem_add_take(mem, fn->args[i].name, copy, bufs[bi].nbytes, bufs[bi].elem, &args[i].i, err),
                       TTREF_OK);
      bi++;
    } else if (ir_scalar_is_float(fn->args[i].type->scalar)) {
      memcpy(&args[i].f, &scal[si++], sizeof(double));
    } else {
      args[i].i = scal[si++];
    }
  }
  interp_launch L;
  memset(&L, 0, sizeof L);
  L.mod = m;
  L.fn = fn;
  L.grid[0] = grid[0];
  L.grid[1] = grid[1];
  L.grid[2] = grid[2];
  L.args = args;
  L.mem = mem;
  L.threads = threads;
  if (hooks && hooks->before) hooks->before(&L, hooks->ud);
  ttref_status st = interp_run(&L, err);
  if (hooks && hooks->after) hooks->after(&L, hooks->ud);
  for (int k = 0; k < mem->n && k < nbufs; k++) memcpy(bufs[k].data, mem->allocs[k].data, bufs[k].nbytes);
  if (stats) *stats = L.stats;
  interp_mem_free(mem);
  ir_module_free(m);
  return st;
}
