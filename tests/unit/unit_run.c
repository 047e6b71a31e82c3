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
#include <stdlib.h>
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

/* parse, verify, bind, run, copy back; strict: every step but the run must succeed (cmocka asserts) */
static ttref_status run_impl(const char *text, const int64_t grid[3], unit_buf *bufs, int nbufs, const int64_t *scal,
                             int threads, const unit_hooks *hooks, bool strict, ttref_error *err, interp_stats *stats)
{
  ttref_status st = TTREF_OK;
  ir_module *m = NULL;
  interp_mem *mem = NULL;
  if (strict) m = unit_parse_ok(text);
  else {
    st = ir_parse_string("t.ttir", text, strlen(text), &m, err);
    if (st == TTREF_OK) st = ir_verify_module(m, err);
    if (st != TTREF_OK) goto fail;
  }
  const ir_func *fn = ir_module_entry(m);
  mem = interp_mem_new();
  if (!mem) {
    assert_false(strict);
    st = ir_error_set(err, TTREF_E_NOMEM, (ttref_loc){0}, "out of memory");
    goto fail;
  }
  interp_elem args[16];
  int bi = 0, si = 0;
  assert_true(fn->nargs <= 16);
  for (int i = 0; i < fn->nargs; i++) {
    if (fn->args[i].type->kind == IR_T_PTR) {
      assert_true(bi < nbufs);
      const size_t nb = bufs[bi].nbytes ? bufs[bi].nbytes : 1;
      void *copy = ir_alloc(nb);
      if (!copy) {
        assert_false(strict);
        st = ir_error_set(err, TTREF_E_NOMEM, (ttref_loc){0}, "out of memory");
        goto fail;
      }
      memcpy(copy, bufs[bi].data, bufs[bi].nbytes);
      st = interp_mem_add_take(mem, fn->args[i].name, copy, bufs[bi].nbytes, bufs[bi].elem, &args[i].i, err);
      if (strict) assert_int_equal(st, TTREF_OK);
      if (st != TTREF_OK) goto fail;
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
  st = interp_run(&L, err);
  if (hooks && hooks->after) hooks->after(&L, hooks->ud);
  for (int k = 0; k < mem->n && k < nbufs; k++) memcpy(bufs[k].data, mem->allocs[k].data, bufs[k].nbytes);
  if (stats) *stats = L.stats;
fail:
  interp_mem_free(mem);
  ir_module_free(m);
  return st;
}

ttref_status unit_run_kernel(const char *text, const int64_t grid[3], unit_buf *bufs, int nbufs, const int64_t *scal,
                             int threads, const unit_hooks *hooks, ttref_error *err, interp_stats *stats)
{
  return run_impl(text, grid, bufs, nbufs, scal, threads, hooks, true, err, stats);
}

ttref_status unit_try_run_kernel(const char *text, const int64_t grid[3], unit_buf *bufs, int nbufs,
                                 const int64_t *scal, int threads, ttref_error *err)
{
  return run_impl(text, grid, bufs, nbufs, scal, threads, NULL, false, err, NULL);
}
