/*
 * interp_exec.c: the executor. A plan sizes one value slot per SSA value of
 * every function once; each program instance then runs the entry function's
 * body op by op over block-level tensors, with no allocation in the op loop.
 * Programs run in parallel (OpenMP) unless the kernel uses atomics or prints.
 * This file holds faults, the dispatch, the region loop and the launch; the op
 * kernels live in interp_{arith,shape,memory,reduce,control}.c.
 */
#include "config.h"
#include "interp_exec.h"
#ifdef _OPENMP
#include <omp.h>
#endif

/* ---- diagnostics -------------------------------------------------------------- */
void interp_lane_index_str(const ir_type *t, int64_t lane, char *buf, size_t n)
{
  if (!t || t->kind != IR_T_TENSOR || t->rank == 0) {
    snprintf(buf, n, "scalar");
    return;
  }
  int64_t idx[IR_MAX_RANK];
  int64_t rem = lane;
  for (int d = t->rank - 1; d >= 0; d--) {
    int64_t s = t->shape[d] ? t->shape[d] : 1;
    idx[d] = rem % s;
    rem /= s;
  }
  size_t pos = (size_t)snprintf(buf, n, "lane %" PRId64 " (", lane);
  for (int d = 0; d < t->rank && pos < n; d++)
    pos += (size_t)snprintf(buf + pos, n - pos, "%s%" PRId64, d ? ", " : "", idx[d]);
  if (pos < n) snprintf(buf + pos, n - pos, ")");
}

ttref_status interp_fault(ctx *c, const ir_op *op, ttref_status code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
ttref_status interp_fault(ctx *c, const ir_op *op, ttref_status code, const char *fmt, ...)
{
  char body[360];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(body, sizeof body, fmt, ap);
  va_end(ap);
  ir_error_set(c->err, code, ir_op_ttir_loc(c->L->mod, op), "%s", body);
  ir_srcloc s = ir_op_srcloc(op);
  char sbuf[256];
  if (ir_srcloc_str(&s, sbuf, sizeof sbuf) > 0) ir_error_note(c->err, "note: in kernel source %s", sbuf);
  return code;
}

ttref_status interp_fault_at(ctx *c, const ir_op *op, const ir_type *lane_t, int64_t lane, const char *what)
{
  char lb[128];
  interp_lane_index_str(lane_t, lane, lb, sizeof lb);
  return interp_fault(c, op, TTREF_E_FAULT, "%s in '%s': pid (%" PRId64 ", %" PRId64 ", %" PRId64 ") %s", what,
                      ir_op_label(op), c->pid[0], c->pid[1], c->pid[2], lb);
}

/* ---- debug hooks (interp_debug.c) ---- */
static const interp_elem *dbg_get(void *cx, const ir_value *v, int64_t *out_n)
{
  const ctx *c = cx;
  const slot *s = &c->fr->s[v->id];
  *out_n = s->n;
  return s->d;
}

static interp_dbg_site dbg_site(ctx *c)
{
  interp_dbg_site s = {c->L, c, dbg_get, c->pid, (int64_t)c->pid1 - 1, c->ub_seq, c->err};
  return s;
}

/* An undefined-behaviour case at lane of op: counted, and reported when the launch has debug state. */
void interp_note_ub(ctx *c, const ir_op *op, interp_ub_kind k, int64_t lane)
{
  switch (k) {
  case INTERP_UB_DIV_ZERO: c->stats.ub_div_zero++; break;
  case INTERP_UB_DIV_OVERFLOW: c->stats.ub_div_overflow++; break;
  case INTERP_UB_SHIFT: c->stats.ub_shift++; break;
  case INTERP_UB_FPTOI: c->stats.ub_fptoi++; break;
  default: c->stats.ub_overflow++; break;
  }
  if (!c->L->debug || c->bound_pass) return;
  c->ub_seq++;
  interp_dbg_site s = dbg_site(c);
  if (interp_debug_ub(c->L->debug, &s, op, k, lane) && !c->ub_op) {
    c->ub_op = op;
    c->ub_lane = lane;
    c->ub_kind = (int)k;
  }
}

/* Parallel assignment dst[i] = src[i] (a yield may permute block arguments). */
ttref_status interp_assign_values(ctx *c, ir_value *dst, ir_value *const *src, int n)
{
  int64_t need = 0;
  for (int i = 0; i < n; i++) need += SL(src[i])->n;
  if (c->precise) need *= 2;
  if (need > c->scratch_cap) {
    interp_elem *ns =
        ir_realloc(c->scratch, sizeof(interp_elem) * (size_t)c->scratch_cap, sizeof(interp_elem) * (size_t)need);
    if (!ns) return ir_error_set(c->err, TTREF_E_NOMEM, (ttref_loc){0}, "out of memory");
    c->scratch = ns;
    c->scratch_cap = need;
  }
  int64_t off = 0;
  for (int i = 0; i < n; i++) {
    slot *s = SL(src[i]);
    memcpy(c->scratch + off, s->d, sizeof(interp_elem) * (size_t)s->n);
    off += s->n;
    if (c->precise) {
      memcpy(c->scratch + off, s->b, sizeof(interp_elem) * (size_t)s->n);
      off += s->n;
    }
  }
  off = 0;
  for (int i = 0; i < n; i++) {
    slot *d = SL(&dst[i]);
    int64_t k = SL(src[i])->n;
    memcpy(d->d, c->scratch + off, sizeof(interp_elem) * (size_t)k);
    off += k;
    if (c->precise) {
      memcpy(d->b, c->scratch + off, sizeof(interp_elem) * (size_t)k);
      off += k;
    }
    d->n = k;
  }
  return TTREF_OK;
}

static ttref_status exec_op(ctx *c, const ir_op *op);

/* ---- dispatch ------------------------------------------------------------------------------------------ */
ttref_status interp_op_call(ctx *c, const ir_op *op)
{
  if (!op->callee_fn) return interp_fault(c, op, TTREF_E_INPUT, "'tt.call' of unknown function");
  return interp_call_function(c, op, op->callee_fn);
}

/* barriers: programs run one block at a time */
ttref_status interp_op_nop(ctx *c, const ir_op *op)
{
  (void)c, (void)op;
  return TTREF_OK;
}

ttref_status interp_op_unsupported(ctx *c, const ir_op *op)
{
  return interp_fault(c, op, TTREF_E_UNSUPPORTED, "'%s' is not supported by the interpreter", ir_op_name(op->code));
}

/* terminators are handled by interp_run_region */
ttref_status interp_op_terminator(ctx *c, const ir_op *op)
{
  return interp_fault(c, op, TTREF_E_INTERNAL, "internal: terminator '%s' dispatched as an op", ir_op_name(op->code));
}

/* One case per row of ir_op_list.h: its kernel column's function (kind CALL) or the typed loop
 * interp_arith.c generates from the row (INTERP_FN_<kind>, interp_exec.h); -Wswitch-enum makes
 * a missing row a build error. */
#pragma GCC diagnostic push
#pragma GCC diagnostic error "-Wswitch-enum"
ttref_status interp_exec_op_value(ctx *c, const ir_op *op)
{
  switch (op->code) {
#define X(name, mnem, nopnd, nres, flags, syn, rule, kind, kernel, bound, ...)                                         \
  case IR_OP_##name:                                                                                                   \
    return INTERP_FN_##kind(name, kernel)(c, op);
#include "ir_op_list.h"
#undef X
  case IR_OP_COUNT: break;
  }
  return interp_fault(c, op, TTREF_E_INTERNAL, "internal: no executor for opcode %d", (int)op->code);
}
#pragma GCC diagnostic pop

static ttref_status race_fault(ctx *c, const ir_op *op)
{
  const interp_alloc *a = &c->L->mem->allocs[((uint64_t)c->race_addr >> INTERP_ADDR_SHIFT) - 1];
  int64_t off = (int64_t)((uint64_t)c->race_addr & ((UINT64_C(1) << INTERP_ADDR_SHIFT) - 1));
  uint32_t o = c->race_other - 1;
  const int64_t gx = c->L->grid[0], gy = c->L->grid[1];
  char lb[160] = "";
  if (op->nopnds > 0 && op->opnds[0]->type->kind == IR_T_TENSOR) { /* the first lane with that address */
    const slot *p = SL(op->opnds[0]);
    for (int64_t i = 0; i < p->n && !lb[0]; i++)
      if (p->d[i].i == c->race_addr) {
        lb[0] = ' ';
        interp_lane_index_str(op->opnds[0]->type, i, lb + 1, sizeof lb - 1);
      }
  }
  return interp_fault(c, op, TTREF_E_FAULT,
                      "data race in '%s': pid (%" PRId64 ", %" PRId64 ", %" PRId64 ") %s %s+%" PRId64
                      " which pid (%" PRId64 ", %" PRId64 ", %" PRId64 ") wrote, without atomics;%s",
                      ir_op_name(op->code), c->pid[0], c->pid[1], c->pid[2], c->race_is_read ? "reads" : "writes",
                      a->name, off, (int64_t)o % gx, ((int64_t)o / gx) % gy, (int64_t)o / (gx * gy),
                      lb[0] ? lb : " scalar");
}

/* --inject-fault: every element of op's float results grows by a relative
 * 2^-6 (zeros become 2^-6), rounded to the result format: a deliberately
 * wrong "backend" for testing `ttref conform --localize`. */
static void inject_fault(ctx *c, const ir_op *op)
{
  for (int j = 0; j < op->nres; j++) {
    if (!is_float_value(&op->res[j])) continue;
    const fp_format f = (fp_format)fmt_of(ir_type_elem(op->res[j].type)->scalar);
    slot *r = SL(&op->res[j]);
    for (int64_t i = 0; i < r->n; i++)
      if (isfinite(r->d[i].f))
        r->d[i].f = fp_round_to(f, r->d[i].f == 0 ? 0x1p-6 : r->d[i].f * (1 + 0x1p-6), FP_RNE, FP_OVF_INF);
  }
}

/* exec_op_value with the debug hooks around it (interp_debug.c). */
static ttref_status exec_op_debug(ctx *c, const ir_op *op)
{
  interp_dbg_site s = dbg_site(c);
  ttref_status st = interp_debug_before(c->L->debug, &s, op);
  if (st == TTREF_OK) st = interp_exec_op_value(c, op);
  s.seq = c->ub_seq;
  if (st == TTREF_OK && c->ub_op) {
    st = interp_debug_ub_fault(&s, c->ub_op, (interp_ub_kind)c->ub_kind, c->ub_lane);
    c->ub_op = NULL;
  }
  if (st == TTREF_OK) st = interp_debug_after(c->L->debug, &s, op);
  return st;
}

static ttref_status exec_op(ctx *c, const ir_op *op)
{
  ttref_status st = c->hook ? exec_op_debug(c, op) : interp_exec_op_value(c, op);
  if (c->L->inject_op == (int)op->code + 1 && st == TTREF_OK &&
      (!c->L->inject_vendor || (op->vdef && strcmp(op->vdef->name, c->L->inject_vendor) == 0)))
    inject_fault(c, op);
  if (c->race_op && c->L->check_races && st == TTREF_OK) st = race_fault(c, op);
  if (st == TTREF_OK && c->precise && !c->bound_pass) st = interp_bound_op(c, op);
  return st;
}

/* Past the step limit on entering block b: how many of its ops may still run
 * (the op after them faults), or -1 when the run was stopped (a conflict). */
static int __attribute__((noinline)) steps_left(ctx *c, const ir_block *b)
{
  if (c->step_limit < 0) return -1;
  return b->nops - (int)(c->steps - c->step_limit);
}

ttref_status interp_run_region(ctx *c, const ir_region *r, const ir_op **out_term)
{
  ttref_status st = TTREF_OK;
  *out_term = NULL;
  if (r->nblocks == 0) return TTREF_OK;
  const ir_block *b = r->blocks[0];
  for (;;) {
    const ir_block *next = NULL;
    /* --max-steps counts every op executed, terminators included, once per block entry
     * (every loop iteration enters one): a compare per block, not per op */
    int n = b->nops;
    c->steps += n;
    if (__builtin_expect(c->steps > c->step_limit, 0) ||
        (c->conflict && __atomic_load_n(c->conflict, __ATOMIC_RELAXED))) {
      n = steps_left(c, b);
      if (n < 0 || (c->conflict && __atomic_load_n(c->conflict, __ATOMIC_RELAXED)))
        return TTREF_E_LIMIT; /* the launch re-runs in order; this result is discarded */
    }
    for (int i = 0; i < n; i++) {
      const ir_op *op = b->ops[i];
      if (ir_op_flags(op->code) & IR_F_TERMINATOR) {
        if (c->hook) {
          interp_dbg_site ds = dbg_site(c);
          TRY(interp_debug_before(c->L->debug, &ds, op));
        }
        if (op->code == IR_OP_CF_BR || op->code == IR_OP_CF_COND_BR) {
          int k = 0;
          if (op->code == IR_OP_CF_COND_BR) k = SL(op->opnds[0])->d[0].i ? 0 : 1;
          if (k >= op->nsuccs) return interp_fault(c, op, TTREF_E_INPUT, "branch without successor");
          const ir_succ *s = &op->succs[k];
          TRY(interp_assign_values(c, s->block->args, s->args, s->nargs));
          next = s->block;
          break;
        }
        if (op->code == IR_OP_RETURN && !r->parent) c->returned = false;
        *out_term = op;
        return TTREF_OK;
      }
      TRY(exec_op(c, op));
    }
    if (n < b->nops)
      return interp_fault(c, b->ops[n], TTREF_E_FAULT,
                          "the program executed more than %" PRId64 " ops (--max-steps); stopped at '%s'",
                          c->L->max_steps, ir_op_name(b->ops[n]->code));
    if (!next) return TTREF_OK; /* block without terminator: the verifier rejects it */
    b = next;
  }
fail:
  return st;
}

/* ---- launch ---------------------------------------------------------------------------------------------- */
static void ctx_release(ctx *c)
{
  ir_free(c->scratch, sizeof(interp_elem) * (size_t)c->scratch_cap);
  for (int k = 0; k < 8; k++) ir_free(c->work[k], sizeof(interp_elem) * (size_t)c->work_cap[k]);
  interp_frame_free(c->fr);
  c->fr = NULL;
  c->scratch = NULL;
}

static ttref_status run_program(ctx *c, int64_t lin)
{
  const interp_launch *L = c->L;
  const ir_op *term = NULL;
  c->pid[0] = lin % L->grid[0];
  c->pid[1] = (lin / L->grid[0]) % L->grid[1];
  c->pid[2] = lin / (L->grid[0] * L->grid[1]);
  c->pid1 = (uint32_t)(lin + 1);
  const ir_func *fn = L->fn;
  for (int i = 0; i < fn->nargs; i++) {
    slot *s = &c->fr->s[fn->args[i].id];
    s->d[0] = L->args[i];
    if (s->b) s->b[0].f = fabs(L->args[i].f);
    s->n = 1;
  }
  c->returned = false;
  c->steps = 0;
  c->ub_seq = 0;
  c->step_limit = L->max_steps > 0 ? L->max_steps : INT64_MAX;
  c->stats.programs++;
  return interp_run_region(c, &fn->body, &term);
}

static void stats_add(interp_stats *d, const interp_stats *s)
{
  d->ub_div_zero += s->ub_div_zero;
  d->ub_div_overflow += s->ub_div_overflow;
  d->ub_shift += s->ub_shift;
  d->ub_fptoi += s->ub_fptoi;
  d->ub_masked_other += s->ub_masked_other;
  d->ub_poison += s->ub_poison;
  d->ub_overflow += s->ub_overflow;
  d->races += s->races;
  d->programs += s->programs;
}

/* Runs every program of the launch on nthreads threads (programs beyond the
 * lowest faulting one are skipped). With *conflict set by race detection, the
 * results are incomplete and the caller re-runs. */
static ttref_status run_programs(interp_launch *L, const plan *P, const fn_plan *fp, int nthreads, bool track,
                                 int *conflict, int *snap_failed, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  const int64_t total = L->grid[0] * L->grid[1] * L->grid[2];
  /* Each thread has its own frame; a fault is reported for the lowest program id
   * that faults, so the message does not depend on the thread count. */
  int64_t fault_lin = INT64_MAX;
  ttref_status fault_st = TTREF_OK;
  ttref_error fault_err;
  memset(&fault_err, 0, sizeof fault_err);
  int setup_failed = 0;
  race_log *logs = NULL; /* parallel tracking: one span log per thread */
  if (track && nthreads > 1 && !(logs = ir_calloc((size_t)nthreads, sizeof *logs)))
    FAIL(IR_ERR(err, TTREF_E_NOMEM, (ttref_loc){0}, "out of memory for race tracking"));
#ifdef _OPENMP
#pragma omp parallel num_threads(nthreads)
#endif
  {
    ctx c;
    memset(&c, 0, sizeof c);
    ttref_error lerr;
    memset(&lerr, 0, sizeof lerr);
    c.L = L;
    c.P = P;
    c.err = &lerr;
    c.fr = interp_frame_new(fp, L->precise);
    c.precise = L->precise;
    c.track = track;
    c.parallel = nthreads > 1;
    c.hook = L->debug_ops && L->debug;
    c.conflict = c.parallel ? conflict : NULL;
#ifdef _OPENMP
    if (logs) c.log = &logs[omp_get_thread_num()];
#endif
    c.snap_failed = snap_failed;
    if (!c.fr) {
#ifdef _OPENMP
#pragma omp atomic write
#endif
      setup_failed = 1;
    }
#ifdef _OPENMP
#pragma omp for schedule(dynamic, 1)
#endif
    for (int64_t lin = 0; lin < total; lin++) {
      int64_t fl;
#ifdef _OPENMP
#pragma omp atomic read
#endif
      fl = fault_lin;
      if (!c.fr || lin > fl || (c.conflict && __atomic_load_n(c.conflict, __ATOMIC_RELAXED))) continue;
      c.track = track;
      ttref_status s = run_program(&c, lin);
      if (s != TTREF_OK) {
#ifdef _OPENMP
#pragma omp critical(ttref_fault)
#endif
        {
          if (lin < fault_lin) {
            fault_lin = lin;
            fault_st = s;
            fault_err = lerr;
          }
        }
      }
    }
#ifdef _OPENMP
#pragma omp critical(ttref_stats)
#endif
    stats_add(&L->stats, &c.stats);
    ctx_release(&c);
  }
  if (setup_failed) FAIL(IR_ERR(err, TTREF_E_NOMEM, (ttref_loc){0}, "out of memory creating execution frames"));
  if (fault_st != TTREF_OK) {
    if (err) *err = fault_err;
    FAIL(fault_st);
  }
  if (logs && !*conflict && interp_race_check(L->mem, logs, nthreads)) *conflict = 1;
fail:
  if (logs) {
    for (int t = 0; t < nthreads; t++) ir_free(logs[t].v, sizeof(race_span) * (size_t)logs[t].cap);
    ir_free(logs, sizeof *logs * (size_t)nthreads);
  }
  return st;
}

/* Drop the pristine copies; with restore, first put them back. */
static void snapshots_end(interp_mem *m, bool restore)
{
  for (int k = 0; k < m->n; k++) {
    interp_alloc *a = &m->allocs[k];
    if (restore && a->snap_state == 2) {
      if (a->snap) memcpy(a->data, a->snap, a->nbytes);
      if (a->snap_pv) memcpy(a->pv, a->snap_pv, sizeof(double) * (size_t)a->pn);
      if (a->snap_pb) memcpy(a->pb, a->snap_pb, sizeof(double) * (size_t)a->pn);
    }
    if (!a->snap_borrowed) ir_free(a->snap, a->nbytes);
    a->snap_borrowed = false;
    ir_free(a->snap_pv, sizeof(double) * (size_t)a->pn);
    ir_free(a->snap_pb, sizeof(double) * (size_t)a->pn);
    a->snap = NULL;
    a->snap_pv = a->snap_pb = NULL;
    a->snap_state = 0;
  }
}

ttref_status interp_run(interp_launch *L, ttref_error *err)
{
  ttref_status st = TTREF_OK;
  ttref_loc none = {0};
  plan P = {0};
  const fn_plan *fp;
  int conflict = 0, snap_failed = 0;
  memset(&L->stats, 0, sizeof L->stats);
  for (int d = 0; d < 3; d++)
    if (L->grid[d] < 0 || L->grid[d] > INT32_MAX)
      FAIL(IR_ERR(err, TTREF_E_INPUT, none, "grid dimension %d out of range: %" PRId64, d, L->grid[d]));
  if (L->grid[0] == 0 || L->grid[1] == 0 || L->grid[2] == 0) return TTREF_OK; /* an empty grid runs nothing */
  /* each dim < 2^31, so the product of two fits; the third is checked against the limit first */
  if (L->grid[0] * L->grid[1] > INTERP_MAX_PROGRAMS / L->grid[2])
    FAIL(IR_ERR(err, TTREF_E_LIMIT, none,
                "grid %" PRId64 "x%" PRId64 "x%" PRId64 " has more than %" PRId64
                " programs, the most ttref runs in one launch",
                L->grid[0], L->grid[1], L->grid[2], (int64_t)INTERP_MAX_PROGRAMS));
  const int64_t total = L->grid[0] * L->grid[1] * L->grid[2];
  if (L->threads < 0 || L->threads > INTERP_MAX_THREADS)
    FAIL(IR_ERR(err, TTREF_E_USAGE, none, "thread count %d out of range (1..%d)", L->threads, INTERP_MAX_THREADS));
  TRY(interp_plan_build(&P, L->mod, err));
  fp = interp_plan_of(&P, L->fn);
  if (!fp) FAIL(IR_ERR(err, TTREF_E_INTERNAL, none, "internal: kernel not in module"));
  int nthreads = 1;
#ifdef _OPENMP
  nthreads = L->threads > 0 ? L->threads : omp_get_max_threads();
  if (nthreads > INTERP_MAX_THREADS) nthreads = INTERP_MAX_THREADS;
#endif
  /* owners hold pid + 1 below ACC_MULTI (parallel) or in 32 bits (--check-races) */
  if (P.sequential || total < 2 || L->check_races || L->debug_ops || total >= (int64_t)ACC_MULTI) nthreads = 1;
  if (total > (int64_t)UINT32_MAX - 1 && L->check_races)
    FAIL(IR_ERR(err, TTREF_E_LIMIT, none, "grid too large for race tracking"));
  const bool track = nthreads > 1 || L->check_races;
  const uint64_t stored = track ? interp_stored_args(L->fn) : 0;
  for (int k = 0; k < L->mem->n; k++) L->mem->allocs[k].track_reads = (stored & STORED_ALL) != 0;
  for (int i = 0; i < L->fn->nargs && i < 63; i++) {
    uint64_t ak = (uint64_t)L->args[i].i >> INTERP_ADDR_SHIFT;
    if (((stored >> i) & 1) && L->fn->args[i].type->kind == IR_T_PTR && ak >= 1 && ak <= (uint64_t)L->mem->n)
      L->mem->allocs[ak - 1].track_reads = true;
  }
  if (track) /* element owners for race detection and --check-races */
    for (int k = 0; k < L->mem->n; k++) {
      interp_alloc *a = &L->mem->allocs[k];
      /* no store can write it, so nothing can race on it: no owners (peak RSS); a parallel run
       * allocates them at the first single-element access (runs are logged as spans instead) */
      ir_free(a->owner, sizeof(uint32_t) * (size_t)a->owner_n);
      a->owner = NULL;
      a->owner_n = a->track_reads ? (int64_t)(a->nbytes / (size_t)ir_scalar_bytes(a->elem)) + 1 : 0;
      if (a->track_reads && L->check_races && !(a->owner = ir_calloc((size_t)a->owner_n, sizeof(uint32_t))))
        FAIL(IR_ERR(err, TTREF_E_NOMEM, none, "out of memory for race tracking"));
    }
  if (nthreads > total) nthreads = (int)total;
  if (nthreads < 1) nthreads = 1;
  if (nthreads > 1) interp_mem_prefault(L->mem, nthreads);
  st = run_programs(L, &P, fp, nthreads, track, &conflict, &snap_failed, err);
  /* Programs conflict, or one faulted (later programs may have run already): run them again
   * from the pristine buffers, in program order, so memory ends as with one thread. */
  if (conflict || (st != TTREF_OK && nthreads > 1)) {
    const bool raced = conflict != 0;
    snapshots_end(L->mem, true);
    if (snap_failed)
      FAIL(IR_ERR(err, TTREF_E_NOMEM, none, "out of memory copying buffers to re-run racing programs in order"));
    memset(&L->stats, 0, sizeof L->stats);
    st = run_programs(L, &P, fp, 1, false, &conflict, &snap_failed, err);
    if (raced) L->stats.races = 1;
  }
fail:
  snapshots_end(L->mem, false);
  interp_plan_free(&P);
  return st;
}
